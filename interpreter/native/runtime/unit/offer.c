/* The legal moves' bookkeeping (cr_offer, cr_dedupe_legal, cr_unwait, cr_unique) that each
 * choice's generated legal function calls.
 *
 * Pasted by native/codegen/emit.py (Module.source) after the program's tables and constant masks
 * and split.c, before the generated definitions and choices. Not compiled on its own: it reads the
 * sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in capitals) and what is
 * pasted before it. */

static inline void cr_offer(cr_ctx *x, cr_state *S, int32_t alt, int32_t who, const int64_t *v, int w) {
    if (S->legal_n >= MAXM) cr_fail(x, CR_E_LIST);
    S->legal_alt[S->legal_n] = alt;
    S->legal_who[S->legal_n] = who;
    for (int j = 0; j < NPARAMS; j++) S->legal_val[S->legal_n][j] = j < w ? v[j] : CR_NONE;
    S->legal_n++;
}

static inline void cr_offer1(cr_ctx *x, cr_state *S, int32_t alt, int32_t who, int64_t v) {
    cr_offer(x, S, alt, who, &v, 1);
}

/* every card of a zone (read in place) offered as a move of one value; `alt` kept opaque to the
 * compiler, which would otherwise call memset for the few actions numbered 0 */
static inline void cr_offer_view(cr_ctx *x, cr_state *S, int32_t alt, int32_t who, cr_zview d) {
    if (d.n > MAXM - S->legal_n) cr_fail(x, CR_E_LIST);
    int32_t k = S->legal_n;
    for (int64_t i = 0; i < d.n; i++, k++) {
        __asm__("" : "+r"(alt));
        S->legal_alt[k] = alt;
        S->legal_who[k] = who;
        S->legal_val[k][0] = d.v[i];
        for (int j = 1; j < NPARAMS; j++) S->legal_val[k][j] = CR_NONE;
    }
    S->legal_n = k;
}

/* the moves from `first` on (one action's) without repeats, each where it first comes */
static inline void cr_dedupe_legal(cr_state *S, int32_t first) {
    int32_t k = first;
    for (int32_t i = first; i < S->legal_n; i++) {
        int32_t j = first;
        while (j < k && memcmp(S->legal_val[j], S->legal_val[i], sizeof S->legal_val[i])) j++;
        if (j == k) {
            S->legal_alt[k] = S->legal_alt[i];
            S->legal_who[k] = S->legal_who[i];
            memmove(S->legal_val[k], S->legal_val[i], sizeof S->legal_val[i]);
            k++;
        }
    }
    S->legal_n = k;
}

/* one player has decided at a `choose by each` */
static inline void cr_unwait(cr_state *S, int site, int32_t who) {
    int32_t k = 0;
    for (int32_t j = 0; j < S->pend_n[site]; j++)
        if (S->pend[site][j] != who) S->pend[site][k++] = S->pend[site][j];
    S->pend_n[site] = k;
}

/* two actions of one name may offer the same move: keep the first (engine/legal.py:unique),
 * among the moves from `first` on (one player's) */
static inline void cr_unique(cr_state *S, int32_t first, const int32_t *name_of) {
    int32_t k = first;
    for (int32_t i = first; i < S->legal_n; i++) {
        int32_t j = first;
        while (j < k && !(name_of[S->legal_alt[j]] == name_of[S->legal_alt[i]] &&
                          !memcmp(S->legal_val[j], S->legal_val[i], sizeof S->legal_val[i]))) j++;
        if (j == k) {
            S->legal_alt[k] = S->legal_alt[i];
            S->legal_who[k] = S->legal_who[i];
            memmove(S->legal_val[k], S->legal_val[i], sizeof S->legal_val[i]);
            k++;
        }
    }
    S->legal_n = k;
}
