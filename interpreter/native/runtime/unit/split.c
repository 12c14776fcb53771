/* The meld search (cr_split: can the cards be split into groups that pass their tests, and the
 * best total of their scores), which the generated code of `split ... into` calls.
 *
 * Pasted by native/codegen/emit.py (Module.source) after the program's constant masks and masks.c.
 * Not compiled on its own: it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...:
 * the names in capitals) and what is pasted before it. */

/* ---- the meld search (compiler/runtime.py:_split): can the cards be split exactly into groups,
 * `counts[g]` groups passing `pred[g]` of a size in `sizes[g]` (any size when `any[g]`); or, with
 * `score`, the best total of the groups' scores (-1: no split). Depth first on the lowest
 * remaining card, each distinct group once, answers kept per (remaining cards, counts). */
typedef int64_t (*cr_groupfn)(cr_ctx *, cr_state *, crt_cards *, cr_list);

#define CR_SPLIT_NO INT64_MIN
#define CR_SPLIT_MEMO 4096

typedef struct cr_split_job {
    int nspec, n;
    int64_t counts[8];
    cr_list sizes[8];
    int any[8];
    cr_groupfn pred[8];
    int nargs[8];        /* values the test is given after the group (`adds_to(v)`), 4 at most */
    int64_t args[8][4];
    cr_groupfn score;
    int64_t cards[64];
    int pure[8];         /* the group tests that read nothing of the game (native/codegen/purity.py) */
    int64_t site;        /* this search's number among such (1 and up), for their kept answers */
    int whole;           /* every test and the score pure: the whole search's answer is kept too */
    uint64_t wcounts, wsizes; /* (cr_split_whole_at: its counts and sizes packed) */
    uint64_t gen; /* this search's answers in the scratch's memo (x->sc->split_*) */
    int memo_ok;
} cr_split_job;

static inline uint64_t cr_split_pack(const cr_split_job *j, const int64_t *counts) {
    uint64_t k = 0;
    for (int g = 0; g < j->nspec; g++) k = k << 16 | (uint64_t)counts[g];
    return k;
}

static inline int64_t cr_split_search(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, uint64_t rem, int64_t *counts);

typedef int64_t (*cr_groupfn1)(cr_ctx *, cr_state *, crt_cards *, cr_list, int64_t);
typedef int64_t (*cr_groupfn2)(cr_ctx *, cr_state *, crt_cards *, cr_list, int64_t, int64_t);
typedef int64_t (*cr_groupfn3)(cr_ctx *, cr_state *, crt_cards *, cr_list, int64_t, int64_t, int64_t);
typedef int64_t (*cr_groupfn4)(cr_ctx *, cr_state *, crt_cards *, cr_list, int64_t, int64_t, int64_t, int64_t);

/* group test g of the job asked of one group, with the values it is given: each test is called
 * through the type it was defined with */
static inline int64_t cr_split_test(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, int g, cr_list l) {
    const int64_t *a = j->args[g];
    switch (j->nargs[g]) {
    case 1: return ((cr_groupfn1)(void (*)(void))j->pred[g])(x, S, C, l, a[0]);
    case 2: return ((cr_groupfn2)(void (*)(void))j->pred[g])(x, S, C, l, a[0], a[1]);
    case 3: return ((cr_groupfn3)(void (*)(void))j->pred[g])(x, S, C, l, a[0], a[1], a[2]);
    case 4: return ((cr_groupfn4)(void (*)(void))j->pred[g])(x, S, C, l, a[0], a[1], a[2], a[3]);
    default: return j->pred[g](x, S, C, l);
    }
}

/* group test g's answer to the group l, or kept from when it was last asked of the same cards at this
 * search's place in the program, where the test is pure (it reads nothing of the game, so its answer
 * to those cards never changes) and the group is of 4 cards at most: a meld search asks the same
 * groups again and again, within a search and from one to the next (Euro-Jongg's whole games: 1.18x;
 * README). A test that fails keeps nothing, and fails again when asked again. */
static inline int cr_split_kept(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, int g, cr_list l) {
#if CR_TC_N
    if (j->pure[g] && l.n <= 4) {  /* (its cards are the search's, each within 0..NC-1: cr_split) */
        uint64_t k = (uint64_t)(j->site * 8 + g) << 52;
        for (int64_t i = 0; i < l.n; i++)
            k |= (uint64_t)(l.v[i] + 1) << (13 * i);  /* (+1: a group of fewer cards is another key) */
        size_t h = (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - __builtin_ctzll(CR_TC_N)));  /* (a power of 2) */
        cr_scratch *m = x->sc;
        if (m->tc_key[h] == k) return m->tc_val[h];
        int r = cr_truth(cr_split_test(x, S, C, j, g, l));
        m->tc_key[h] = k;
        m->tc_val[h] = (uint8_t)r;
        return r;
    }
#endif
    return cr_truth(cr_split_test(x, S, C, j, g, l));
}

/* groups of `size` cards: `first` and size - 1 of the cards in `rest` from position `from` on,
 * equal cards taken once per choice; each group that passes is searched on */
static inline void cr_split_groups(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, int g, uint64_t rest,
                            int from, int need, int64_t *group, int len, uint64_t used, int64_t *counts,
                            int64_t *best, int *done) {
    if (*done) return;
    if (need == 0) {
        cr_list l = {len, group};
        int64_t top = x->top;
        int ok = cr_split_kept(x, S, C, j, g, l);
        x->top = top;
        if (!ok) return;
        counts[g]--;
        int64_t sub = cr_split_search(x, S, C, j, rest & ~used, counts);
        counts[g]++;
        if (sub == CR_SPLIT_NO) return;
        if (!j->score) {
            *best = 0;
            *done = 1;
            return;
        }
        int64_t gain = cr_need(x, j->score(x, S, C, l));
        x->top = top;
        int64_t total = cr_add(x, sub, gain);
        if (*best == CR_SPLIT_NO || total > *best) *best = total;
        return;
    }
    int last = -1;
    for (int p = from; p < j->n; p++) {
        if (!(rest >> p & 1)) continue;
        if (last >= 0 && j->cards[p] == j->cards[last]) continue; /* an equal card in this place: tried */
        last = p;
        group[len] = j->cards[p];
        cr_split_groups(x, S, C, j, g, rest, p + 1, need - 1, group, len + 1, used | (UINT64_C(1) << p), counts,
                        best, done);
        if (*done) return;
    }
}

static inline int64_t cr_split_search(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, uint64_t rem, int64_t *counts) {
    if (!rem) {
        for (int g = 0; g < j->nspec; g++)
            if (counts[g]) return CR_SPLIT_NO;
        return 0;
    }
    uint64_t ck = cr_split_pack(j, counts);
    size_t h = (size_t)((rem * UINT64_C(0x9E3779B97F4A7C15) ^ ck * UINT64_C(0xC2B2AE3D27D4EB4F)) >> 52) % CR_SPLIT_MEMO;
    cr_scratch *m = x->sc;
    if (j->memo_ok && m->split_gen_of[h] == j->gen && m->split_rem[h] == rem && m->split_counts[h] == ck)
        return m->split_val[h];
    int f = __builtin_ctzll(rem);
    uint64_t rest = rem & (rem - 1);
    int left = __builtin_popcountll(rest);
    int64_t best = CR_SPLIT_NO;
    int done = 0;
    int64_t group[64];
    for (int g = 0; g < j->nspec && !done; g++) {
        if (!counts[g]) continue;
        int64_t nsizes = j->any[g] ? j->n : j->sizes[g].n;
        for (int64_t k = 0; k < nsizes && !done; k++) {
            int64_t size = j->any[g] ? k + 1 : j->sizes[g].v[k];
            if (size - 1 > left || size < 1) continue;
            group[0] = j->cards[f];
            cr_split_groups(x, S, C, j, g, rest, f + 1, (int)size - 1, group, 1, 0, counts, &best, &done);
        }
    }
    if (j->memo_ok) {
        m->split_gen_of[h] = j->gen;
        m->split_rem[h] = rem;
        m->split_counts[h] = ck;
        m->split_val[h] = best;
    }
    return best;
}

#if CR_TC_N
/* where a whole search's answer is kept (helpers.c: cr_split_whole), or NULL when it cannot be: more
 * than 16 cards or 4 kinds of group, a kind of several sizes */
static inline cr_split_whole *cr_split_whole_at(cr_ctx *x, cr_split_job *j) {
    if (j->n > 16 || j->nspec > 4) return NULL;
    uint64_t c = 0, z = 0;
    for (int g = 0; g < j->nspec; g++) {
        int64_t size = j->any[g] ? 255 : (j->sizes[g].n == 1 ? j->sizes[g].v[0] : -1);
        if (j->counts[g] >= 65536 || size < 0 || size > 255) return NULL;
        c = c << 16 | (uint64_t)j->counts[g];
        z = z << 8 | (uint64_t)size;
    }
    uint64_t h = (uint64_t)j->site * UINT64_C(0x9E3779B97F4A7C15) ^ c * UINT64_C(0xC2B2AE3D27D4EB4F) ^ z;
    for (int i = 0; i < j->n; i++) h = (h ^ (uint64_t)j->cards[i]) * UINT64_C(0x100000001B3);
    j->wcounts = c;
    j->wsizes = z;
    return &x->sc->sw[(h * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - __builtin_ctzll(CR_SW_N))];
}
#endif

static inline int64_t cr_split(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, cr_list cards) {
    int64_t fail = j->score ? -1 : 0;
    for (int g = 0; g < j->nspec; g++)
        if (j->counts[g] < 0) return fail;
    if (cards.n > 64) cr_fail(x, CR_E_LIST);
    j->n = (int)cards.n;
    for (int64_t i = 0; i < cards.n; i++) j->cards[i] = cr_need(x, cards.v[i]);
#if CR_TC_N
    for (int i = 0; i < j->n; i++)  /* (the kept answers' keys hold cards: none kept for a value past them) */
        if (j->cards[i] < 0 || j->cards[i] >= NC) { memset(j->pure, 0, sizeof j->pure); j->whole = 0; break; }
#endif
    for (int i = 1; i < j->n; i++) {  /* in order (a hand or so: insertion, where qsort was 4% of Euro-Jongg) */
        int64_t v = j->cards[i];
        int k = i;
        for (; k > 0 && j->cards[k - 1] > v; k--) j->cards[k] = j->cards[k - 1];
        j->cards[k] = v;
    }
    j->memo_ok = j->nspec <= 4;
    j->gen = ++x->sc->split_gen;
    for (int g = 0; g < j->nspec; g++) j->memo_ok &= j->counts[g] < 65536;
#if CR_TC_N
    cr_split_whole *w = j->whole ? cr_split_whole_at(x, j) : NULL;
    if (w && w->site == j->site && w->n == j->n && w->counts == j->wcounts && w->sizes == j->wsizes) {
        int same = 1;
        for (int i = 0; i < j->n && same; i++) same = w->cards[i] == j->cards[i];
        if (same) return w->value;
    }
#endif
    int64_t counts[8];
    memcpy(counts, j->counts, sizeof counts);
    uint64_t all = j->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << j->n) - 1;
    int64_t r = cr_split_search(x, S, C, j, all, counts);
    r = j->score ? (r == CR_SPLIT_NO ? -1 : r) : r != CR_SPLIT_NO;
#if CR_TC_N
    if (w) {
        w->site = (uint16_t)j->site; w->n = (uint16_t)j->n; w->counts = j->wcounts; w->sizes = j->wsizes; w->value = r;
        for (int i = 0; i < j->n; i++) w->cards[i] = (uint16_t)j->cards[i];
    }
#endif
    return r;
}
