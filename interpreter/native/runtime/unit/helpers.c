/* The thread's scratch (cr_scratch: the arena, the meld search's memo, the answers of definitions)
 * and the helpers the expression emitter calls (native/codegen/expr.py), written once here rather
 * than generated.
 *
 * Pasted into each engine's C by native/codegen/emit.py (Module.source) after the deck's tables
 * (K_SUIT, K_RANK, ..., the value tables and the constant lists), which follow state.h. emit.py
 * puts the scratch's generated fields where the line marked `@generated` is: the table of answers
 * kept for good (when a definition's answers are, keep.c), then each definition's remembered
 * answers. Not compiled on its own: it reads the sizes emit.py defines for each program (NC, MAXP,
 * NS, ...: the names in capitals) and what is pasted before it. */
#define CR_KEEP_N 2048
#define CR_KEEP_W 16
typedef struct cr_keep_slot {
    int32_t len;
    int64_t key[CR_KEEP_W];
    int64_t val;
} cr_keep_slot;
/* a definition's answer for one card or player, and the epoch it holds for */
typedef struct cr_memo {
    uint64_t at;
    int64_t val;
} cr_memo;
/* a definition's collection, and the epoch it holds for (a definition of none) */
typedef struct cr_lmemo {
    uint64_t at;
    int64_t n;
    int64_t v[LCAP];
} cr_lmemo;
/* a set of cards as a bit mask (runtime/unit/masks.c: its word operations) */
typedef struct { uint64_t w[MW]; } cr_mask;
/* a set test's answer (ops.SetTest: the cards of `cand` that pass, given `arg`) for an epoch;
 * CR_SM_N of them per test, by a hash of cand and arg */
typedef struct cr_smemo {
    uint64_t at;
    cr_mask cand, val;
    int64_t arg[NSF];
} cr_smemo;
#define CR_SM_N 8
#if CR_TC_N
/* a whole meld search's answer (unit/split.c: cr_split), where its tests and score are pure: the
 * search's place, its cards in order, its counts and sizes packed (cr_split_whole_at) */
typedef struct cr_split_whole {
    uint64_t counts, sizes;
    int64_t value;
    uint16_t site, n, cards[16];
} cr_split_whole;
#define CR_SW_N 4096
#endif
typedef struct cr_scratch {
    uint64_t epoch, split_gen;
    int64_t arena[CR_ARENA];
    uint64_t split_gen_of[4096], split_rem[4096], split_counts[4096];
    int64_t split_val[4096];
#if CR_TC_N
    /* the answers of pure group tests (unit/split.c: cr_split_kept), kept for good: a key, its answer */
    uint64_t tc_key[CR_TC_N];
    uint8_t tc_val[CR_TC_N];
    cr_split_whole sw[CR_SW_N];
#endif
    /* @generated: the table of answers kept for good (when keep.c is pasted), then each definition's remembered answers */
} cr_scratch;

/* an action's set of cards (ops.Subsets, compiler/runtime.py:_set_masks): the masks over n cards
 * worth trying, lowest first, into out (room for cap; more fails as too many sets): of lo to hi
 * cards, and when w is given with weights adding up to t; the highest bit is decided first,
 * leaving a card out before taking it, and a branch that can no longer satisfy them is cut (the
 * sum only where the weights share one sign; with mixed signs every mask is added up) */
static __attribute__((unused)) void cr_set_walk(cr_ctx *x, const int64_t *w, const int64_t *below, int32_t i, int64_t m, int64_t total,
                        int64_t k, int64_t t, int64_t lo, int64_t hi, cr_list *out, int64_t cap) {
    if (k > hi || k + i + 1 < lo) return;
    if (w && (total > t || cr_add(x, total, below[i + 1]) < t)) return;
    if (i < 0) {
        if (out->n >= cap) cr_fail(x, CR_E_SETS_TRIED);
        out->v[out->n++] = m;
        return;
    }
    cr_set_walk(x, w, below, i - 1, m, total, k, t, lo, hi, out, cap);
    cr_set_walk(x, w, below, i - 1, m | ((int64_t)1 << i), w ? cr_add(x, total, w[i]) : 0, k + 1, t, lo, hi, out, cap);
}

static __attribute__((unused)) cr_list cr_set_masks(cr_ctx *x, const int64_t *w0, int32_t n, int64_t t, int64_t lo, int64_t hi, int64_t cap) {
    int64_t w[64] = {0}, below[65] = {0};
    if (lo == CR_NONE || lo < 1) lo = 1;
    if (hi == CR_NONE || hi > n) hi = n;
    cr_list out = cr_alloc(x, cap);
    if (lo > hi) return out;
    int pos = 1, neg = 1;
    if (w0) for (int32_t i = 0; i < n; i++) { if (w0[i] < 0) pos = 0; if (w0[i] > 0) neg = 0; }
    if (w0 && !pos && !neg) {
        for (int64_t m = 1; m < ((int64_t)1 << n); m++) {
            int64_t s = 0;
            for (int32_t i = 0; i < n; i++) if (m >> i & 1) s = cr_add(x, s, w0[i]);
            int64_t k = __builtin_popcountll((uint64_t)m);
            if (s == t && k >= lo && k <= hi) {
                if (out.n >= cap) cr_fail(x, CR_E_SETS_TRIED);
                out.v[out.n++] = m;
            }
        }
        x->top = (out.v - x->arena) + out.n;
        return out;
    }
    if (w0) {
        int flip = !pos;
        for (int32_t i = 0; i < n; i++) w[i] = flip ? cr_neg(x, w0[i]) : w0[i];
        if (flip) t = cr_neg(x, t);
        below[0] = 0;
        for (int32_t i = 0; i < n; i++) below[i + 1] = cr_add(x, below[i], w[i]);
    }
    cr_set_walk(x, w0 ? w : NULL, below, n - 1, 0, 0, 0, t, lo, hi, &out, cap);
    x->top = (out.v - x->arena) + out.n; /* the room not filled is let go */
    return out;
}

/* each thread's scratch (made on its first call): the arena, and the answers of definitions,
 * which hold while nothing changes: within one instruction (or one working out of a score); a new
 * epoch starts each, so old answers never match. Only a pointer is thread-local, read once a call
 * (in the ordinary dynamic model: see cr_guarded). */
static __thread cr_scratch *cr_tls;

static cr_scratch *cr_scratch_get(void) {
    if (!cr_tls) cr_tls = (cr_scratch *)calloc(1, sizeof(cr_scratch));
    return cr_tls;
}

#define cr_epoch (x->sc->epoch)
/* the players, as a bound the compiler can see is within the per-player arrays (MAXP) */
#define CR_SEATS(S) ((S)->n_players < MAXP ? (int64_t)(S)->n_players : (int64_t)MAXP)

static inline int cr_ctx_init(cr_ctx *x) {
    x->sc = cr_scratch_get();
    x->jp = NULL;
    x->fail = 0;
    if (!x->sc) return 0;
    x->arena = x->sc->arena;
    x->cap = CR_ARENA;
    x->top = 0;
    return 1;
}

/* where cards lie, read straight from the cards' arrays (native/runtime/cards.c's layout), for a
 * card or zone already checked */
#define CR_CARD_ZONE(C, c) ((int64_t)CRT_CAT(C, uint16_t, off_card_zone)[c])
#define CR_CARD_KIND(C, c) ((int64_t)CRT_CAT(C, uint16_t, off_zone_kind)[CRT_CAT(C, uint16_t, off_card_zone)[c]])
#define CR_ZONE_LEN(C, z) ((int32_t)CRT_CAT(C, uint16_t, off_zone_len)[z])
#define CR_ZONE_DATA(C, z) (CRT_CAT(C, uint16_t, off_zone_cards) + (size_t)(z) * (C)->n_cards)

static inline cr_list cr_slot_list(cr_state *S, int li) {
    cr_list l;
    l.n = S->ln[li];
    l.v = S->lv[li];
    return l;
}

static inline cr_list cr_range(cr_ctx *x, int64_t a, int64_t b) {
    cr_need(x, a);
    cr_need(x, b);
    if (b < a) return cr_alloc(x, 0);
    if ((uint64_t)b - (uint64_t)a >= (uint64_t)CR_MAX_RANGE) cr_fail(x, CR_E_RANGE); /* as Python's _range */
    if (b - a >= x->cap) cr_fail(x, CR_E_LIST);
    cr_list l = cr_alloc(x, b - a + 1);
    for (int64_t v = a; v <= b; v++) l.v[l.n++] = v;
    return l;
}

static inline cr_list cr_seats(cr_ctx *x, int32_t n) { return cr_range(x, 0, (int64_t)n - 1); }

static inline cr_list cr_copy(cr_ctx *x, const cr_list a) {
    cr_list l = cr_alloc(x, a.n);
    if (a.n) memcpy(l.v, a.v, (size_t)a.n * sizeof(int64_t));
    l.n = a.n;
    return l;
}

static inline cr_list cr_concat(cr_ctx *x, const cr_list a, const cr_list b) {
    cr_list l = cr_alloc(x, a.n + b.n);
    for (int64_t i = 0; i < a.n; i++) l.v[l.n++] = a.v[i];
    for (int64_t i = 0; i < b.n; i++) l.v[l.n++] = b.v[i];
    return l;
}

/* a constant list, seen in place: no list is ever written to but one just made (cr_alloc) */
static inline cr_list cr_const(cr_ctx *x, const int64_t *v, int64_t n) {
    cr_list l;
    (void)x;
    l.n = n;
    l.v = (int64_t *)(uintptr_t)v;
    return l;
}

/* one row of a table of card lists (above, below, a suit's cards): offsets then values */
static inline cr_list cr_table_list(cr_ctx *x, const int64_t *tab, int64_t row) {
    return cr_const(x, tab + tab[row], tab[row + 1] - tab[row]);
}

static inline int64_t cr_zone(cr_ctx *x, cr_state *S, int64_t z) { return cr_idx(x, z, S->n_zones); }

/* a zone's cards where they lie (read only, while nothing moves) */
typedef struct cr_zview {
    int64_t n;
    const uint16_t *v;
} cr_zview;

static inline cr_zview cr_zone_view(cr_ctx *x, cr_state *S, crt_cards *C, int64_t z) {
    int32_t zz = (int32_t)cr_zone(x, S, z);
    cr_zview d;
    d.n = CR_ZONE_LEN(C, zz);
    d.v = CR_ZONE_DATA(C, zz);
    return d;
}

static inline cr_list cr_zone_cards(cr_ctx *x, cr_state *S, crt_cards *C, int64_t z) {
    int32_t zz = (int32_t)cr_zone(x, S, z);
    int32_t n = CR_ZONE_LEN(C, zz);
    const uint16_t *d = CR_ZONE_DATA(C, zz);
    cr_list l = cr_alloc(x, n);
    for (int32_t i = 0; i < n; i++) l.v[i] = d[i];
    l.n = n;
    return l;
}

static inline cr_list cr_kind_cards(cr_ctx *x, cr_state *S, crt_cards *C, int k) {
    int64_t total = 0;
    for (int32_t z = S->zbase[k]; z < S->zbase[k] + S->zcount[k]; z++) total += CR_ZONE_LEN(C, z);
    cr_list l = cr_alloc(x, total);
    for (int32_t z = S->zbase[k]; z < S->zbase[k] + S->zcount[k]; z++) {
        int32_t n = CR_ZONE_LEN(C, z);
        const uint16_t *d = CR_ZONE_DATA(C, z);
        for (int32_t i = 0; i < n; i++) l.v[l.n++] = d[i];
    }
    return l;
}

static inline cr_list cr_kind_tops(cr_ctx *x, cr_state *S, crt_cards *C, int k) {
    cr_list l = cr_alloc(x, S->zcount[k]);
    for (int32_t z = S->zbase[k]; z < S->zbase[k] + S->zcount[k]; z++) {
        int32_t n = crt_cards_count(C, z);
        if (n > 0) l.v[l.n++] = crt_cards_zone_data(C, z)[n - 1];
    }
    return l;
}

static inline cr_list cr_top_slice(cr_ctx *x, cr_state *S, crt_cards *C, int64_t z) {
    int32_t zz = (int32_t)cr_zone(x, S, z);
    int32_t n = crt_cards_count(C, zz);
    cr_list l = cr_alloc(x, 1);
    if (n > 0) l.v[l.n++] = crt_cards_zone_data(C, zz)[n - 1];
    return l;
}

static inline int64_t cr_zone_at(cr_ctx *x, cr_state *S, int k, int64_t i) {
    cr_need(x, i);
    if (i < 1 || i > S->zcount[k]) cr_fail(x, CR_E_INDEX);
    return S->zbase[k] + i - 1;
}

static inline int64_t cr_zone_index(cr_ctx *x, cr_state *S, int64_t z) {
    int32_t zz = (int32_t)cr_zone(x, S, z);
    return zz - S->zbase[S->zkind[zz]] + 1;
}

static inline int64_t cr_zone_owner(cr_ctx *x, cr_state *S, int64_t z) {
    int32_t o = S->zowner[cr_zone(x, S, z)];
    return o < 0 ? CR_NONE : o;
}

static inline int64_t cr_card_owner(cr_ctx *x, crt_cards *C, int64_t c) {
    int16_t o = CRT_CAT(C, int16_t, off_zone_owner)[CR_CARD_ZONE(C, cr_idx(x, c, NC))];
    return o < 0 ? CR_NONE : o;
}

static inline int64_t cr_card_played_by(cr_ctx *x, crt_cards *C, int64_t c) {
    int32_t o = crt_cards_played_by(C, (int32_t)cr_idx(x, c, NC));
    return o < 0 ? CR_NONE : o;
}

static inline int64_t cr_card_depth(cr_ctx *x, crt_cards *C, int64_t c) {
    int32_t cc = (int32_t)cr_idx(x, c, NC);
    int32_t z = crt_cards_zone_of(C, cc);
    return (int64_t)crt_cards_count(C, z) - 1 - crt_cards_pos_of(C, cc);
}

/* the card a card lies on in its zone, none at the bottom (Python's _beneath) */
static inline int64_t cr_card_beneath(cr_ctx *x, crt_cards *C, int64_t c) {
    int32_t cc = (int32_t)cr_idx(x, c, NC);
    int32_t k = crt_cards_pos_of(C, cc);
    return k > 0 ? (int64_t)crt_cards_card_at(C, crt_cards_zone_of(C, cc), k - 1) : CR_NONE;
}

static inline int64_t cr_card_of(cr_ctx *x, int64_t r, int64_t s) {
    if (r == CR_NONE || s == CR_NONE) cr_fail(x, CR_E_NONE);
    if (r < 0 || r >= NRANKS || s < 0 || s >= NSUITS) cr_fail(x, CR_E_INDEX);
    int64_t c = K_CARDOF[s * NRANKS + r];
    if (c < 0) cr_fail(x, CR_E_INDEX);
    return c;
}

static inline int64_t cr_first(cr_ctx *x, const cr_list l) { (void)x; return l.n ? l.v[0] : CR_NONE; }
static inline int64_t cr_last(cr_ctx *x, const cr_list l) { (void)x; return l.n ? l.v[l.n - 1] : CR_NONE; }

static inline cr_list cr_top_n(cr_ctx *x, const cr_list l, int64_t k) {
    cr_need(x, k);
    if (k <= 0) return cr_alloc(x, 0);
    int64_t from = l.n > k ? l.n - k : 0;
    cr_list part = {l.n - from, l.v + from};
    return cr_copy(x, part);
}

static inline cr_list cr_bottom_n(cr_ctx *x, const cr_list l, int64_t k) {
    cr_need(x, k);
    if (k <= 0) return cr_alloc(x, 0);
    cr_list part = {l.n < k ? l.n : k, l.v};
    return cr_copy(x, part);
}

/* max/min: the first of the best; cards by the order highest/lowest use (K_CKEY) */
static inline int64_t cr_extreme(cr_ctx *x, const cr_list l, int most, int cards) {
    if (!l.n) return CR_NONE;
    int64_t best = l.v[0];
    int64_t bk = cards ? K_CKEY[cr_idx(x, best, NC)] : cr_need(x, best);
    for (int64_t i = 1; i < l.n; i++) {
        int64_t k = cards ? K_CKEY[cr_idx(x, l.v[i], NC)] : cr_need(x, l.v[i]);
        if (most ? k > bk : k < bk) {
            best = l.v[i];
            bk = k;
        }
    }
    return best;
}

static inline int64_t cr_random(cr_ctx *x, cr_state *S, const cr_list l) {
    (void)x;
    if (!l.n) return CR_NONE;
    return l.v[crt_choice_index(cr_rng(S), (size_t)l.n)];
}

/* the collection in an order drawn by chance: random.shuffle's draws (runtime.py:_shuffled) */
static inline cr_list cr_shuffled(cr_ctx *x, cr_state *S, const cr_list l) {
    cr_list out = cr_copy(x, l);
    crt_rng *rng = cr_rng(S);
    for (int64_t i = out.n - 1; i > 0; i--) {
        int64_t j = (int64_t)crt_randbelow(rng, (uint64_t)(i + 1)), t = out.v[i];
        out.v[i] = out.v[j];
        out.v[j] = t;
    }
    return out;
}

static inline int64_t cr_seat(cr_ctx *x, cr_state *S, int64_t k) {
    cr_need(x, k);
    if (k < 1 || k > S->n_players) cr_fail(x, CR_E_INDEX);
    return k - 1;
}

/* the players against turn order before `who`, `who` itself last (runtime.py:_seats_before) */
static inline cr_list cr_seats_before(cr_ctx *x, cr_state *S, int64_t who) {
    cr_need(x, who);
    cr_idx(x, who, S->n_players);
    cr_list l = cr_alloc(x, S->n_players);
    for (int32_t i = 1; i <= S->n_players; i++) l.v[l.n++] = ((who - i) % S->n_players + S->n_players) % S->n_players;
    return l;
}

/* the players in turn order after `who`, `who` itself last (runtime.py:_seats_after) */
static inline cr_list cr_seats_after(cr_ctx *x, cr_state *S, int64_t who) {
    cr_need(x, who);
    cr_idx(x, who, S->n_players);
    cr_list l = cr_alloc(x, S->n_players);
    for (int32_t i = 1; i <= S->n_players; i++) l.v[l.n++] = (who + i) % S->n_players;
    return l;
}

static inline cr_list cr_pv_list(cr_state *S, int pvli, int64_t who) {
    cr_list l;
    l.n = S->pln[pvli][who];
    l.v = S->plv[pvli][who];
    return l;
}

static inline void cr_keep_pv(cr_ctx *x, cr_state *S, int pvli, int64_t who, const cr_list l) {
    if (l.n > LCAP) cr_fail(x, CR_E_LIST);
    if (l.n) memmove(S->plv[pvli][who], l.v, (size_t)l.n * sizeof(int64_t));
    S->pln[pvli][who] = (int32_t)l.n;
}

/* a list into a slot's own room (a let, a loop's list) */
static inline void cr_keep(cr_ctx *x, cr_state *S, int li, const cr_list l) {
    if (l.n > LCAP) cr_fail(x, CR_E_LIST);
    if (l.n) memmove(S->lv[li], l.v, (size_t)l.n * sizeof(int64_t));
    S->ln[li] = (int32_t)l.n;
}

static inline int32_t *cr_ints32(cr_ctx *x, const cr_list l) {
    cr_list b = cr_alloc(x, (l.n + 1) / 2 + 1);
    int32_t *out = (int32_t *)b.v;
    for (int64_t i = 0; i < l.n; i++) {
        if (l.v[i] == CR_NONE) out[i] = -1;
        else out[i] = (int32_t)cr_idx(x, l.v[i], NC);
    }
    return out;
}

static inline void cr_check(cr_ctx *x, int code) {
    if (code == CRT_E_ARG) cr_fail(x, CR_E_DEAL);
    if (code < 0) cr_fail(x, CR_E_INDEX);
}
