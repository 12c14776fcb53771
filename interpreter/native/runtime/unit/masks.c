/* Card sets as bit masks (cr_mask, helpers.c; cr_m_*): the word operations the compiler's mask
 * forms (compiler/masks.py, ops.ZoneMask ... ops.MaskLoop) are made of, one or a few per op
 * (native/codegen/expr.py, the x_ methods of the masks).
 *
 * Each fails where the mask form's Python text raises one of the errors that send a guarded
 * aggregate to its loop form (TypeError, KeyError, IndexError: CR_E_NONE or CR_E_INDEX here), and
 * only there, so that a guarded aggregate falls back to its loop form exactly where Python does
 * (expr.py: x_Guarded; its function tries the mask form under a setjmp of its own, x->jp).
 *
 * Pasted by native/codegen/emit.py (Module.source) after the program's constant masks (codegen/mask_tables.py:
 * mask_tables: K_MALL, K_MSUIT, K_MRANK, K_MORD, K_MFROM, K_MABOVE, K_MBELOW, K_MK), which follow
 * helpers.c (and keep.c). Not compiled on its own: it reads the sizes emit.py defines for each
 * program (NC, MW, NORD, NSF, MAXP, NS, ...: the names in capitals) and what is pasted before it.
 * Bit b is the card off_bit_card[b] (a card's bit: K_CARDPOS). */

static inline cr_mask cr_m_all(void) {
    cr_mask m;
    for (int i = 0; i < MW; i++) m.w[i] = K_MALL[i];
    return m;
}
static inline cr_mask cr_m_none(void) {
    cr_mask m;
    memset(&m, 0, sizeof m);
    return m;
}
static inline cr_mask cr_m_and(cr_mask a, cr_mask b) {
    for (int i = 0; i < MW; i++) a.w[i] &= b.w[i];
    return a;
}
static inline cr_mask cr_m_or(cr_mask a, cr_mask b) {
    for (int i = 0; i < MW; i++) a.w[i] |= b.w[i];
    return a;
}
static inline cr_mask cr_m_not(cr_mask a) {
    for (int i = 0; i < MW; i++) a.w[i] = ~a.w[i] & K_MALL[i];
    return a;
}
static inline int cr_m_some(cr_mask a) {
    uint64_t any = 0;
    for (int i = 0; i < MW; i++) any |= a.w[i];
    return any != 0;
}
/* the bits of a word: the processor's instruction where the build may use it, else a few word
 * operations in place (not libgcc's table, a call away) */
static inline int cr_popcount(uint64_t v) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(v);
#else
    v = v - ((v >> 1) & UINT64_C(0x5555555555555555));
    v = (v & UINT64_C(0x3333333333333333)) + ((v >> 2) & UINT64_C(0x3333333333333333));
    v = (v + (v >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((v * UINT64_C(0x0101010101010101)) >> 56);
#endif
}
static inline int64_t cr_m_count(cr_mask a) {
    int64_t n = 0;
    for (int i = 0; i < MW; i++) n += cr_popcount(a.w[i]);
    return n;
}
static inline cr_mask cr_m_load(const uint64_t *w) {
    cr_mask m;
    memcpy(m.w, w, sizeof m.w);
    return m;
}
static inline cr_mask cr_m_zone(cr_ctx *x, cr_state *S, crt_cards *C, int64_t z) {
    return cr_m_load(CRT_CAT(C, uint64_t, off_zmask) + (size_t)cr_zone(x, S, z) * MW);
}
static inline cr_mask cr_m_kind(crt_cards *C, int k) {
    return cr_m_load(CRT_CAT(C, uint64_t, off_kmask) + (size_t)k * MW);
}
/* the cards of a zone given by a value that may be none or no zone: none (== compares, never fails) */
static inline cr_mask cr_m_zone_or_none(crt_cards *C, cr_state *S, int64_t z) {
    if (z < 0 || z >= S->n_zones) return cr_m_none();
    return cr_m_load(CRT_CAT(C, uint64_t, off_zmask) + (size_t)z * MW);
}
static inline cr_mask cr_m_up(crt_cards *C) { return cr_m_load(CRT_CAT(C, uint64_t, off_upmask)); }
/* the cards of an owner (none: the shared zones'); a value that is no seat owns nothing */
static inline cr_mask cr_m_owner(crt_cards *C, cr_state *S, int64_t who) {
    if (who == CR_NONE) return cr_m_load(CRT_CAT(C, uint64_t, off_omask));
    if (who < 0 || who >= S->n_players) return cr_m_none();
    return cr_m_load(CRT_CAT(C, uint64_t, off_omask) + (size_t)(who + 1) * MW);
}
static inline cr_mask cr_m_card(int64_t c) {
    cr_mask m = cr_m_none();
    if (c < 0 || c >= NC) return m; /* none, or no card: equal to no card */
    int b = K_CARDPOS[c];
    m.w[b >> 6] |= UINT64_C(1) << (b & 63);
    return m;
}
static inline cr_mask cr_m_table(const uint64_t *tab, int64_t row) { return cr_m_load(tab + (size_t)row * MW); }
/* a suit's or rank's cards; none, or a value that is none of them, has none */
static inline cr_mask cr_m_table_or_none(const uint64_t *tab, int64_t row, int64_t n) {
    if (row < 0 || row >= n) return cr_m_none();
    return cr_m_table(tab, row);
}
static inline int64_t cr_m_high(crt_cards *C, cr_mask a) {
    for (int i = MW - 1; i >= 0; i--)
        if (a.w[i]) return CRT_CAT(C, uint16_t, off_bit_card)[i * 64 + 63 - __builtin_clzll(a.w[i])];
    return CR_NONE;
}
static inline int64_t cr_m_low(crt_cards *C, cr_mask a) {
    for (int i = 0; i < MW; i++)
        if (a.w[i]) return CRT_CAT(C, uint16_t, off_bit_card)[i * 64 + __builtin_ctzll(a.w[i])];
    return CR_NONE;
}
/* the card of a mask's lowest bit, taken out of it; -1 when it is empty (a loop over its cards
 * in their bits' order) */
static inline int64_t cr_m_pop(crt_cards *C, cr_mask *a) {
    for (int i = 0; i < MW; i++)
        if (a->w[i]) {
            int b = __builtin_ctzll(a->w[i]);
            a->w[i] &= a->w[i] - 1;
            return CRT_CAT(C, uint16_t, off_bit_card)[i * 64 + b];
        }
    return -1;
}

/* ---- what the mask forms add (compiler/pyemit.py writes each op's Python) */

/* the cards of a zone given by a value that may be none (_zmask: none has none; a number out of
 * range fails as an index, as st.zmask[z] does) */
static inline cr_mask cr_m_zone_of(cr_ctx *x, cr_state *S, crt_cards *C, int64_t z) {
    if (z == CR_NONE) return cr_m_none();
    return cr_m_zone(x, S, C, z);
}
/* st.omask[who]: none is the shared zones' cards; a value that is no seat fails (a KeyError) */
static inline cr_mask cr_m_owner_of(cr_ctx *x, cr_state *S, crt_cards *C, int64_t who) {
    if (who == CR_NONE) return cr_m_load(CRT_CAT(C, uint64_t, off_omask));
    if (who < 0 || who >= S->n_players) cr_fail(x, CR_E_INDEX);
    return cr_m_load(CRT_CAT(C, uint64_t, off_omask) + (size_t)(who + 1) * MW);
}
/* _order_from(k): the cards whose place in their suit's ranking is at least k (K_MFROM's rows
 * 0 .. NORD, the last empty), for any number; none fails as Python's type test does */
static inline cr_mask cr_m_order_from(cr_ctx *x, int64_t k) {
    cr_need(x, k);
    if (k < 0) k = 0;
    if (k > NORD) k = NORD;
    return cr_m_table(K_MFROM, k);
}
/* BIT[c] & m: whether a card (of a loop's set) is in a mask; none or no card fails as the
 * lookup of its bit does */
static inline int cr_m_has(cr_ctx *x, cr_mask m, int64_t c) {
    int b = K_CARDPOS[cr_idx(x, c, NC)];
    return (int)(m.w[b >> 6] >> (b & 63) & 1);
}
/* the position of a mask's highest (lowest) bit; the mask is not empty */
static inline int cr_m_hibit(cr_mask a) {
    for (int i = MW - 1; i > 0; i--)
        if (a.w[i]) return i * 64 + 63 - __builtin_clzll(a.w[i]);
    return 63 - __builtin_clzll(a.w[0]);
}
static inline int cr_m_lobit(cr_mask a) {
    for (int i = 0; i < MW - 1; i++)
        if (a.w[i]) return i * 64 + __builtin_ctzll(a.w[i]);
    return (MW - 1) * 64 + __builtin_ctzll(a.w[MW - 1]);
}
/* _none_above(fail, cand) (_none_below): the cards of cand with no card of fail above (below)
 * them in their suit's ranking. A suit's bits are in its order, so the highest (lowest) failing
 * card of each suit decides for all its cards. */
static inline cr_mask cr_m_none_beyond(crt_cards *C, cr_mask fail, cr_mask cand, int above) {
    const uint16_t *card_at = CRT_CAT(C, uint16_t, off_bit_card);
    cr_mask out = cand, rest = cand;
    while (cr_m_some(rest)) { /* the suits of cand's cards, one by one */
        cr_mask sm = cr_m_table(K_MSUIT, K_SUIT[card_at[cr_m_lobit(rest)]]);
        rest = cr_m_and(rest, cr_m_not(sm));
        cr_mask f = cr_m_and(fail, sm);
        if (!cr_m_some(f)) continue;
        if (above) out = cr_m_and(out, cr_m_not(cr_m_table(K_MBELOW, card_at[cr_m_hibit(f)])));
        else out = cr_m_and(out, cr_m_not(cr_m_table(K_MABOVE, card_at[cr_m_lobit(f)])));
    }
    return out;
}
/* a set test's answers (cr_smemo): the slot of the cards asked about and the values handed in */
static inline cr_smemo *cr_sm_slot(cr_smemo *tab, cr_mask cand, const int64_t *arg, int n) {
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15);
    for (int i = 0; i < MW; i++) h = (h ^ cand.w[i]) * UINT64_C(0xBF58476D1CE4E5B9);
    for (int i = 0; i < n; i++) h = (h ^ (uint64_t)arg[i]) * UINT64_C(0xBF58476D1CE4E5B9);
    return tab + (h >> 61) % CR_SM_N;
}
static inline int cr_sm_hit(cr_ctx *x, const cr_smemo *m, cr_mask cand, const int64_t *arg, int n) {
    if (m->at != cr_epoch || memcmp(m->cand.w, cand.w, sizeof cand.w)) return 0;
    for (int i = 0; i < n; i++)
        if (m->arg[i] != arg[i]) return 0;
    return 1;
}
/* after a failure inside a mask form (in the function of a guarded aggregate, expr.py: x_Guarded):
 * a none or an index out of range sends it to its loop form, as Python's TypeError, KeyError and
 * IndexError do; any other failure goes on out */
static inline void cr_m_caught(cr_ctx *x) {
    if (x->fail != CR_E_NONE && x->fail != CR_E_INDEX) cr_fail(x, x->fail);
}
