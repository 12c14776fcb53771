/* Card sets as bit masks (cr_mask, cr_m_*): the word operations that the aggregates
 * native/codegen/masks.py writes as masks are made of.
 *
 * Pasted by native/codegen/emit.py (Module.source) after the program's constant masks (masks.py:
 * mask_tables, MW and K_MALL, K_MSUIT, K_MRANK, K_MABOVE, K_MBELOW), which follow helpers.c (and
 * keep.c). Not compiled on its own: it reads the sizes emit.py defines for each program (NC, MAXP,
 * NS, ...: the names in capitals) and what is pasted before it. */

/* ---- card sets as bit masks (native/codegen/masks.py): bit b is the card K_BITCARD[b] */
typedef struct { uint64_t w[MW]; } cr_mask;

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
