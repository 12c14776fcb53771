"""The fixed C every generated engine has after its tables and state struct: the helpers the
expression emitter calls (expr.py), written once here rather than generated."""

HELPERS = r"""
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

static inline int64_t cr_seat(cr_ctx *x, cr_state *S, int64_t k) {
    cr_need(x, k);
    if (k < 1 || k > S->n_players) cr_fail(x, CR_E_INDEX);
    return k - 1;
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
"""

SPLIT = r"""
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

/* groups of `size` cards: `first` and size - 1 of the cards in `rest` from position `from` on,
 * equal cards taken once per choice; each group that passes is searched on */
static inline void cr_split_groups(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, int g, uint64_t rest,
                            int from, int need, int64_t *group, int len, uint64_t used, int64_t *counts,
                            int64_t *best, int *done) {
    if (*done) return;
    if (need == 0) {
        cr_list l = {len, group};
        int64_t top = x->top;
        int ok = cr_truth(cr_split_test(x, S, C, j, g, l));
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

static inline int cr_cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static inline int64_t cr_split(cr_ctx *x, cr_state *S, crt_cards *C, cr_split_job *j, cr_list cards) {
    int64_t fail = j->score ? -1 : 0;
    for (int g = 0; g < j->nspec; g++)
        if (j->counts[g] < 0) return fail;
    if (cards.n > 64) cr_fail(x, CR_E_LIST);
    j->n = (int)cards.n;
    for (int64_t i = 0; i < cards.n; i++) j->cards[i] = cr_need(x, cards.v[i]);
    qsort(j->cards, (size_t)j->n, sizeof(int64_t), cr_cmp64);
    j->memo_ok = j->nspec <= 4;
    j->gen = ++x->sc->split_gen;
    for (int g = 0; g < j->nspec; g++) j->memo_ok &= j->counts[g] < 65536;
    int64_t counts[8];
    memcpy(counts, j->counts, sizeof counts);
    uint64_t all = j->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << j->n) - 1;
    int64_t r = cr_split_search(x, S, C, j, all, counts);
    if (j->score) return r == CR_SPLIT_NO ? -1 : r;
    return r != CR_SPLIT_NO;
}
"""

KEEP = r"""
/* the answers of definitions that read only their arguments' faces (the Python engine's STATIC
 * memo), kept for good in the thread's scratch: a definition given a collection (a hand judged
 * again and again) is worked out once. A key is the definition's number and its arguments (a
 * collection: its length, then its values), at most CR_KEEP_W numbers; one answer a slot,
 * the newest kept */
static inline int cr_keep_add(int64_t *key, int32_t *kn, int64_t v) {
    if (*kn >= CR_KEEP_W) return 0;
    key[(*kn)++] = v;
    return 1;
}

static inline int cr_keep_list(int64_t *key, int32_t *kn, cr_list l) {
    if (l.n < 0 || *kn + 1 + l.n > CR_KEEP_W) return 0;
    key[(*kn)++] = l.n;
    for (int64_t i = 0; i < l.n; i++) key[(*kn)++] = l.v[i];
    return 1;
}

static inline cr_keep_slot *cr_keep_find(cr_ctx *x, const int64_t *key, int32_t kn, int *hit) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int32_t i = 0; i < kn; i++) h = (h ^ (uint64_t)key[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    cr_keep_slot *s = &x->sc->keep[h & (CR_KEEP_N - 1)];
    *hit = s->len == kn && !memcmp(s->key, key, sizeof(int64_t) * (size_t)kn);
    return s;
}
"""
