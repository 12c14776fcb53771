/* The planning player's search (plan.py, PlanBot._search) in C: one truth sampled as the search
 * player samples it, the seat's own moves explored depth first (PlanBot._deep) or best first
 * (PlanBot._best) by the advice (or the score), each position the seat can tell apart looked at
 * once (native/plan.py calls it; Python keeps what it does with the line found). A position is
 * remembered by a 128-bit hash of what the seat sees of it, or, depth first, of its layout.
 *
 * Pasted by native/codegen/emit.py (Module.source) after seeker.c, and before what plan_c.py's
 * plan_parts makes for the program (pl_slots, PL_FEWEST). Not compiled on its own: it reads the
 * sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in capitals), the search's
 * sampling (search.c) and the greedy player's scores and advice (greedy.c). */

/* ================================================================ the planning player's search */
#include <time.h>
#define PL_WIN 1e9
#define PL_LOSS (-1e9)
#define PL_FAIL (-1)
#define PL_DEEP 1 /* cr_plan's `how`: depth first (plan.py:PlanBot._deep), else best first (._best) */
#define PL_PEEK 2 /* ... and with every card seen, in the position itself, not a sample (plan.py:PlanBot.peek) */
#define PL_WORLD 4 /* ... depth first, every card seen in the sample, the line's views as the seat sees (plan.py:PlanBot._world) */

typedef struct pl_view { uint64_t a, b; } pl_view;

static inline uint64_t pl_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline void pl_mix(pl_view *h, uint64_t w) {
    h->a = pl_rotl((h->a ^ w) * 0x9E3779B97F4A7C15ULL, 31) * 0xBF58476D1CE4E5B9ULL;
    h->b = pl_rotl((h->b + w) * 0xC2B2AE3D27D4EB4FULL, 27) ^ (h->b >> 17) ^ 0x94D049BB133111EBULL;
}

static void pl_slots(pl_view *h, const cr_state *S); /* the variables, as each is kept (plan_parts) */

/* zones the seat may not look into (graph.py:sees, as sr_determinise reads it) */
static void pl_unseen(const cr_state *S, int32_t who, uint8_t *unseen) {
    for (int32_t z = 0; z < S->n_zones; z++) {
        int vis = K_KINDS[S->zkind[z]][3];
        unseen[z] = !(vis == 0 || (vis == 1 && S->zowner[z] == who) || (vis == 3 && S->zowner[z] != who));
    }
}

static inline pl_view pl_done(pl_view h) {
    h.a ^= h.a >> 33; h.a *= 0xFF51AFD7ED558CCDULL; h.a ^= h.a >> 33;
    h.b ^= h.b >> 29; h.b *= 0xC4CEB9FE1A85EC53ULL; h.b ^= h.b >> 32;
    h.a |= 1; /* never the empty slot's (0, 0) */
    return h;
}

/* plan.py:_Eyes.view, hashed: every part prefixed by its length, so that no two views run together;
 * and, where `layout` is given, plan.py:_Eyes.layout (the same without the variables) in it */
static pl_view pl_views(cr_state *S, const uint8_t *unseen, pl_view *layout) {
    crt_cards *C = CARDS(S);
    const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
    pl_view h = {0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL};
    pl_mix(&h, (uint64_t)(int64_t)S->pc);
    pl_mix(&h, (uint64_t)(int64_t)S->sp);
    for (int32_t k = 0; k < S->sp; k++) pl_mix(&h, (uint64_t)(int64_t)S->stack[k]);
    pl_mix(&h, (uint64_t)(int64_t)S->actor);
    for (int32_t z = 0; z < S->n_zones; z++) {
        const uint16_t *d = CR_ZONE_DATA(C, z);
        int32_t n = CR_ZONE_LEN(C, z);
        int any = !unseen[z];
        for (int32_t k = 0; !any && k < n; k++) any = known[d[k]];
        pl_mix(&h, !unseen[z] ? 1 : any ? 2 : 3);
        pl_mix(&h, (uint64_t)n);
        if (!unseen[z]) for (int32_t k = 0; k < n; k++) pl_mix(&h, d[k]);
        else if (any) for (int32_t k = 0; k < n; k++) pl_mix(&h, known[d[k]] ? d[k] : 0xFFFFFFFFULL);
    }
    if (layout) *layout = pl_done(h);
    pl_slots(&h, S);
    return pl_done(h);
}

static pl_view pl_view_of(cr_state *S, const uint8_t *unseen) { return pl_views(S, unseen, NULL); }

/* plan.py:_value: how good a position is for `me`; 0, or PL_FAIL where Python would raise or
 * C's numbers differ from Python's */
static int pl_value(cr_state *S, int32_t me, double *v) {
    int32_t P = S->n_players;
    int64_t sc[MAXP];
    (void)sc; /* (unused where the ruleset has advice but no score) */
    if (S->finished) {
        uint64_t w = 0;
        if (S->declared_set) w = S->declared;
#if HAS_SCORE
        if (gr_scores(S, sc)) return PL_FAIL; /* outcome() raises in Python: let it */
        if (P == 1 && !S->declared_set) { /* a game for one keeping a score: an end is worth its score */
            if (sc[0] == CR_NONE) return PL_FAIL;
            *v = PL_FEWEST ? -(double)sc[0] : (double)sc[0];
            return 0;
        }
        if (!S->declared_set) {
            for (int32_t i = 0; i < P; i++) if (sc[i] == CR_NONE) return PL_FAIL; /* max() of a none */
            int64_t best = sc[0];
            for (int32_t i = 1; i < P; i++) if (SR_MOST ? sc[i] > best : sc[i] < best) best = sc[i];
            for (int32_t i = 0; i < P; i++) if (sc[i] == best) w |= (uint64_t)1 << i;
        }
#endif
        int nw = __builtin_popcountll(w);
        if (!nw) *v = P == 1 ? PL_LOSS / 2 : 0.0;
        else *v = (w >> me & 1) ? PL_WIN / nw : PL_LOSS;
        return 0;
    }
#if GR_NADVICE
    {
        int64_t adv[GR_NADVICE], sum = 0;
        int kind = gr_advice(S, me, adv);
        if (kind) {
            if (!gr_alike(kind)) return PL_FAIL;
            *v = 0.0;
            return 0;
        }
        for (int32_t k = 0; k < GR_NADVICE; k++) {
            if (adv[k] == CR_NONE) { *v = 0.0; return 0; } /* Python's sum meets a none: 0 */
            if (__builtin_add_overflow(sum, adv[k], &sum)) return PL_FAIL;
        }
        *v = (double)sum;
        return 0;
    }
#elif HAS_SCORE
    {
        int kind = gr_scores(S, sc);
        if (kind) {
            if (!gr_alike(kind)) return PL_FAIL;
            *v = 0.0;
            return 0;
        }
        for (int32_t i = 0; i < P; i++) if (sc[i] == CR_NONE) return PL_FAIL;
        if (P == 1) { *v = PL_FEWEST ? -(double)sc[0] : (double)sc[0]; return 0; }
        int64_t r = 0, d;
        int any = 0;
        for (int32_t i = 0; i < P; i++) {
            if (i == me) continue;
            if (!any || (PL_FEWEST ? sc[i] < r : sc[i] > r)) r = sc[i];
            any = 1;
        }
        if (PL_FEWEST ? __builtin_sub_overflow(r, sc[me], &d) : __builtin_sub_overflow(sc[me], r, &d)) return PL_FAIL;
        *v = (double)d;
        return 0;
    }
#else
    *v = 0.0;
    return 0;
#endif
}

/* a position pushed: the position it came from (its parent), the move taken there (an index
 * among the parent's legal moves), its depth and view, and where its state is kept once expanded */
typedef struct pl_node { int32_t parent, move, depth, slot; pl_view view; } pl_node;
/* plan.py's heap entries (-value, depth, tie): the tie is unique, so the order is total */
typedef struct pl_wait { double key; int32_t depth, node; int64_t tie; } pl_wait;

typedef struct pl_search {
    pl_node *node; int32_t n_node, cap_node;
    pl_wait *heap; int32_t n_heap, cap_heap;
    pl_view *seen; uint64_t cap_seen, n_seen;
    uint64_t *states; int32_t n_slot, cap_slot; size_t words;
    /* the depth-first search's: the positions waiting, last in first out; one position's children,
     * to be ordered (its table of layouts seen is `seen`) */
    int32_t *pend, *pend_left; int32_t n_pend, cap_pend;
    struct pl_kid { double value; int32_t move; pl_view view, layout; } *kid; int32_t cap_kid;
} pl_search;

static void pl_free(pl_search *p) {
    free(p->node); free(p->heap); free(p->seen); free(p->states); free(p->pend); free(p->pend_left); free(p->kid);
}

static inline int pl_before(const pl_wait *x, const pl_wait *y) {
    if (x->key != y->key) return x->key < y->key;
    if (x->depth != y->depth) return x->depth < y->depth;
    return x->tie < y->tie;
}

static int pl_push(pl_search *p, pl_wait w) {
    if (p->n_heap == p->cap_heap) {
        int32_t cap = p->cap_heap ? p->cap_heap * 2 : 256;
        pl_wait *h = (pl_wait *)realloc(p->heap, sizeof(pl_wait) * (size_t)cap);
        if (!h) return PL_FAIL;
        p->heap = h; p->cap_heap = cap;
    }
    int32_t i = p->n_heap++;
    while (i > 0) {
        int32_t up = (i - 1) / 2;
        if (!pl_before(&w, &p->heap[up])) break;
        p->heap[i] = p->heap[up];
        i = up;
    }
    p->heap[i] = w;
    return 0;
}

static pl_wait pl_pop(pl_search *p) {
    pl_wait top = p->heap[0], last = p->heap[--p->n_heap];
    int32_t i = 0, n = p->n_heap;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && pl_before(&p->heap[c + 1], &p->heap[c])) c++;
        if (!pl_before(&p->heap[c], &last)) break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (n) p->heap[i] = last;
    return top;
}

static int32_t pl_node_new(pl_search *p, int32_t parent, int32_t move, int32_t depth, pl_view view) {
    if (p->n_node == p->cap_node) {
        int32_t cap = p->cap_node ? p->cap_node * 2 : 256;
        if (cap > (1 << 28)) return PL_FAIL;
        pl_node *n = (pl_node *)realloc(p->node, sizeof(pl_node) * (size_t)cap);
        if (!n) return PL_FAIL;
        p->node = n; p->cap_node = cap;
    }
    p->node[p->n_node] = (pl_node){parent, move, depth, -1, view};
    return p->n_node++;
}

/* adds a view to those seen: 1 when it is new, 0 when seen before, PL_FAIL without room */
static int pl_see(pl_search *p, pl_view v) {
    if (2 * (p->n_seen + 1) > p->cap_seen) {
        uint64_t cap = p->cap_seen ? p->cap_seen * 2 : 1024;
        pl_view *t = (pl_view *)calloc(cap, sizeof(pl_view));
        if (!t) return PL_FAIL;
        for (uint64_t i = 0; i < p->cap_seen; i++) {
            pl_view o = p->seen[i];
            if (!o.a) continue;
            uint64_t j = o.b & (cap - 1);
            while (t[j].a) j = (j + 1) & (cap - 1);
            t[j] = o;
        }
        free(p->seen);
        p->seen = t; p->cap_seen = cap;
    }
    uint64_t j = v.b & (p->cap_seen - 1);
    while (p->seen[j].a) {
        if (p->seen[j].a == v.a && p->seen[j].b == v.b) return 0;
        j = (j + 1) & (p->cap_seen - 1);
    }
    p->seen[j] = v;
    p->n_seen++;
    return 1;
}

static int pl_wait_on(pl_search *p, int32_t node, int32_t left) {
    if (p->n_pend == p->cap_pend) {
        int32_t cap = p->cap_pend ? p->cap_pend * 2 : 256;
        int32_t *w = (int32_t *)realloc(p->pend, sizeof(int32_t) * (size_t)cap);
        if (w) p->pend = w;
        int32_t *l = (int32_t *)realloc(p->pend_left, sizeof(int32_t) * (size_t)cap);
        if (l) p->pend_left = l;
        if (!w || !l) return PL_FAIL;
        p->cap_pend = cap;
    }
    p->pend[p->n_pend] = node;
    p->pend_left[p->n_pend++] = left;
    return 0;
}

/* whether a view is among those seen */
static int pl_seen(const pl_search *p, pl_view v) {
    if (!p->cap_seen) return 0;
    uint64_t j = v.b & (p->cap_seen - 1);
    while (p->seen[j].a) {
        if (p->seen[j].a == v.a && p->seen[j].b == v.b) return 1;
        j = (j + 1) & (p->cap_seen - 1);
    }
    return 0;
}

/* room for one more expanded position's state */
static cr_state *pl_slot(pl_search *p, int32_t *slot) {
    if (p->n_slot == p->cap_slot) {
        int32_t cap = p->cap_slot ? p->cap_slot * 2 : 16;
        uint64_t *s = (uint64_t *)realloc(p->states, sizeof(uint64_t) * p->words * (size_t)cap);
        if (!s) return NULL;
        p->states = s; p->cap_slot = cap;
    }
    *slot = p->n_slot++;
    return (cr_state *)(p->states + p->words * (size_t)*slot);
}

static inline cr_state *pl_state(pl_search *p, int32_t slot) { return (cr_state *)(p->states + p->words * (size_t)slot); }

/* the state at depth d of the depth-first search's line (slot d: the line's positions, root first) */
static cr_state *pl_at(pl_search *p, int32_t d) {
    int32_t slot;
    while (p->n_slot <= d) if (!pl_slot(p, &slot)) return NULL;
    return pl_state(p, d);
}

static double pl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* one move played on a copy: 0, or PL_FAIL (the rules fail: Python plans, and skips the move) */
static int pl_play(uint64_t *copy, const cr_state *S, int32_t i) {
    gr_copy(copy, S, i);
    cr_state *T = (cr_state *)copy;
    if (cr_apply(T, i) || T->err) return PL_FAIL;
    return 0;
}

/* the cards of the position the seat cannot see now (plan.py:_Eyes.hidden) */
static int32_t pl_hidden(cr_state *S, const uint8_t *unseen, uint16_t *hidden) {
    crt_cards *C = CARDS(S);
    const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
    int32_t nh = 0;
    for (int32_t z = 0; z < S->n_zones; z++) {
        if (!unseen[z]) continue;
        const uint16_t *d = CR_ZONE_DATA(C, z);
        for (int32_t j = 0, n = CR_ZONE_LEN(C, z); j < n; j++) if (!known[d[j]]) hidden[nh++] = d[j];
    }
    return nh;
}

/* whether one of the cards hidden before has come to light in T (plan.py:_Eyes.still_hidden, negated) */
static int pl_shown(cr_state *T, const uint8_t *unseen, const uint16_t *hidden, int32_t nh) {
    crt_cards *TC = CARDS(T);
    const uint8_t *tk = CRT_CAT(TC, uint8_t, off_known);
    const uint16_t *tz = CRT_CAT(TC, uint16_t, off_card_zone);
    for (int32_t j = 0; j < nh; j++) if (tk[hidden[j]] || !unseen[tz[hidden[j]]]) return 1;
    return 0;
}

/* plan.py:PlanBot._deep from the sampled root (slot 0, node 0 made): depth first with limited
 * discrepancies, rounds of D = 0, 1, 2, ...: each position's new children in the order of their
 * values (best first, the order of the legal moves among equals), the best free, the second
 * costing one of the D departures a line may make from that order, the third two, and so on; a
 * position skipped where its
 * layout (its view without the variables) was seen before in the round; stops at the first game
 * won alone, after a round that held nothing back or met no layout new to it, or at `nodes`
 * positions over all rounds. The best line found: its last position's node and move, and its
 * length (in has, best, best_node, best_move, best_len as pl_run keeps them) */
static int pl_deep(pl_search *p, int32_t me, int64_t nodes, double deadline, const uint8_t *unseen,
                   uint64_t *copy, int *has, double *best, int32_t *best_node, int32_t *best_move, int32_t *best_len) {
    uint16_t hidden[NC];
    pl_view rl;
    pl_views(pl_state(p, 0), unseen, &rl);
    int64_t expanded = 0;
    uint64_t met = 0; /* layouts the round before met */
    for (int32_t round = 0; expanded < nodes; round++) {
        if (p->cap_seen) memset(p->seen, 0, sizeof(pl_view) * p->cap_seen);
        p->n_seen = 0;
        p->n_pend = 0;
        if (pl_see(p, rl) < 0 || pl_wait_on(p, 0, round)) return PL_FAIL;
        int held = 0; /* a child with a layout new to the round left out for want of departures */
        while (p->n_pend && expanded < nodes) {
            if (CR_STOPPED()) return PL_FAIL;
            if (deadline > 0 && *has && pl_now() > deadline) return 0;
            int32_t k = p->pend[--p->n_pend], left = p->pend_left[p->n_pend];
            expanded++;
            int32_t depth = p->node[k].depth, len = depth + 1;
            cr_state *S = pl_at(p, depth);
            if (!S) return PL_FAIL;
            if (k && pl_play((uint64_t *)S, pl_state(p, depth - 1), p->node[k].move)) return PL_FAIL;
            int32_t nh = pl_hidden(S, unseen, hidden), nk = 0;
            double before;
            if (pl_value(S, me, &before)) return PL_FAIL;
            if (p->cap_kid < S->legal_n) {
                struct pl_kid *kid = (struct pl_kid *)realloc(p->kid, sizeof *kid * (size_t)S->legal_n);
                if (!kid) return PL_FAIL;
                p->kid = kid; p->cap_kid = S->legal_n;
            }
            int won = 0;
            for (int32_t i = 0; i < S->legal_n && !won; i++) {
                if (S->legal_who[i] != me) continue;
                if (pl_play(copy, S, i)) return PL_FAIL;
                cr_state *T = (cr_state *)copy;
                double value;
                if (T->finished) {
                    if (pl_value(T, me, &value)) return PL_FAIL;
                    won = value == PL_WIN;
                } else if (pl_shown(T, unseen, hidden, nh)) value = before; /* judged where it starts */
                else if (T->actor != me) { if (pl_value(T, me, &value)) return PL_FAIL; }
                else {
                    pl_view tl, tv = pl_views(T, unseen, &tl);
                    if (pl_seen(p, tl)) continue;
                    int twin = 0; /* an earlier move to the same layout */
                    for (int32_t j = 0; j < nk && !twin; j++) twin = p->kid[j].layout.a == tl.a && p->kid[j].layout.b == tl.b;
                    if (twin) continue;
                    if (pl_value(T, me, &value)) return PL_FAIL;
                    p->kid[nk++] = (struct pl_kid){value, i, tv, tl};
                }
                if (!*has || value > *best || (value == *best && len < *best_len)) {
                    *has = 1; *best = value; *best_node = k; *best_move = i; *best_len = len;
                }
            }
            if (won) return 0;
            /* best first: sorted by value, falling, equals in the order of the moves (insertion: stable) */
            for (int32_t a = 1; a < nk; a++) {
                struct pl_kid x = p->kid[a];
                int32_t b = a;
                while (b > 0 && p->kid[b - 1].value < x.value) { p->kid[b] = p->kid[b - 1]; b--; }
                p->kid[b] = x;
            }
            if (nk > left + 1) { held = 1; nk = left + 1; } /* the (a+1)-th best costs a departures */
            int32_t at = p->n_node;
            for (int32_t a = 0; a < nk; a++) {
                if (pl_see(p, p->kid[a].layout) < 0) return PL_FAIL;
                if (pl_node_new(p, k, p->kid[a].move, len, p->kid[a].view) < 0) return PL_FAIL;
            }
            for (int32_t a = nk - 1; a >= 0; a--) /* the best on top */
                if (pl_wait_on(p, at + a, left - a)) return PL_FAIL;
        }
        if (!held || p->n_seen == met) return 0;
        met = p->n_seen;
    }
    return 0;
}

static int32_t pl_run(pl_search *p, const cr_state *S0, int32_t me, int64_t nodes, uint32_t *rng_words, double deadline,
                      int32_t how, uint64_t *copy, int32_t *out_choice, int32_t *out_alt, int64_t *out_val,
                      uint64_t *out_view, int32_t cap, double *out_value) {
    crt_rng rng;
    if (crt_set_state(&rng, rng_words)) return PL_FAIL;
    sr_tree *t = (sr_tree *)calloc(1, sizeof(sr_tree));
    if (!t) return PL_FAIL;
    int32_t slot;
    cr_state *root = pl_slot(p, &slot);
    if (!root) { free(t); return PL_FAIL; }
    memcpy(root, S0, (size_t)S0->bytes);
    int rc = how & PL_PEEK ? 0 : sr_determinise(t, root, me, &rng);
    free(t);
    if (rc) return PL_FAIL;
    crt_get_state(&rng, rng_words); /* the generator as Python's is once it has sampled */
    if (!root->finished && !root->legal_n) return 0;
    uint8_t unseen[MAXZ], fair[MAXZ];
    uint16_t hidden[NC];
    pl_unseen(root, me, unseen);
    memcpy(fair, unseen, sizeof fair);
    if (how & (PL_PEEK | PL_WORLD)) memset(unseen, 0, sizeof unseen);
    pl_view rv = pl_view_of(root, unseen);
    if (pl_node_new(p, -1, -1, 0, rv) < 0) return PL_FAIL;
    p->node[0].slot = slot;
    int has = 0;
    double best = 0.0;
    int32_t best_node = -1, best_move = -1, best_len = 0;
    if (how & PL_DEEP) {
        if (pl_deep(p, me, nodes, deadline, unseen, copy, &has, &best, &best_node, &best_move, &best_len))
            return PL_FAIL;
        if (!has) return 0;
        if (best_len > cap) return PL_FAIL;
        if (out_value) *out_value = best;
        /* the line: its positions' nodes, back from the last to the root (kept in out_choice for
         * now), then its moves, played again from the root (the search's states are gone) */
        for (int32_t k = best_node, step = best_len - 1; step >= 0; step--, k = p->node[k].parent)
            out_choice[step] = k;
        const cr_state *S = pl_state(p, 0);
        for (int32_t step = 0; step < best_len; step++) {
            int32_t k = out_choice[step], move = step + 1 < best_len ? p->node[out_choice[step + 1]].move : best_move;
            out_choice[step] = S->choice;
            out_alt[step] = S->legal_alt[move];
            memcpy(out_val + (size_t)step * NPARAMS, S->legal_val[move], sizeof S->legal_val[move]);
            pl_view v = how & PL_WORLD ? pl_view_of((cr_state *)S, fair) : p->node[k].view;
            out_view[2 * step] = v.a;
            out_view[2 * step + 1] = v.b;
            if (step + 1 < best_len) {
                uint64_t *next = step % 2 ? copy : (uint64_t *)pl_state(p, 1);
                if (pl_play(next, S, move)) return PL_FAIL;
                S = (const cr_state *)next;
            }
        }
        return best_len;
    }
    int64_t tie = 0, expanded = 0;
    if (pl_see(p, rv) < 0 || pl_push(p, (pl_wait){0.0, 0, 0, 0})) return PL_FAIL;
    while (p->n_heap && expanded < nodes) {
        if (CR_STOPPED()) return PL_FAIL;
        if (deadline > 0 && has && pl_now() > deadline) break;
        pl_wait w = pl_pop(p);
        int32_t k = w.node;
        expanded++;
        if (p->node[k].slot < 0) { /* its state, made again from its parent's */
            cr_state *s = pl_slot(p, &slot);
            if (!s) return PL_FAIL;
            if (pl_play((uint64_t *)s, pl_state(p, p->node[p->node[k].parent].slot), p->node[k].move)) return PL_FAIL;
            p->node[k].slot = slot;
        }
        cr_state *S = pl_state(p, p->node[k].slot);
        crt_cards *C = CARDS(S);
        const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
        int32_t nh = 0;
        for (int32_t z = 0; z < S->n_zones; z++) {
            if (!unseen[z]) continue;
            const uint16_t *d = CR_ZONE_DATA(C, z);
            for (int32_t j = 0, n = CR_ZONE_LEN(C, z); j < n; j++) if (!known[d[j]]) hidden[nh++] = d[j];
        }
        double before;
        if (pl_value(S, me, &before)) return PL_FAIL;
        int32_t depth = p->node[k].depth, len = depth + 1;
        for (int32_t i = 0; i < S->legal_n; i++) {
            if (S->legal_who[i] != me) continue;
            if (pl_play(copy, S, i)) return PL_FAIL;
            cr_state *T = (cr_state *)copy;
            double value;
            int ends = 1;
            if (T->finished) {
                if (pl_value(T, me, &value)) return PL_FAIL;
            } else {
                crt_cards *TC = CARDS(T);
                const uint8_t *tk = CRT_CAT(TC, uint8_t, off_known);
                const uint16_t *tz = CRT_CAT(TC, uint16_t, off_card_zone);
                int shown = 0;
                for (int32_t j = 0; j < nh && !shown; j++) shown = tk[hidden[j]] || !unseen[tz[hidden[j]]];
                if (shown) value = before; /* judged where it starts: what it shows is the sample's */
                else if (T->actor != me) { if (pl_value(T, me, &value)) return PL_FAIL; }
                else ends = 0;
            }
            if (!ends) {
                pl_view tv = pl_view_of(T, unseen);
                int fresh = pl_see(p, tv);
                if (fresh < 0) return PL_FAIL;
                if (!fresh) continue;
                if (pl_value(T, me, &value)) return PL_FAIL;
                int32_t n = pl_node_new(p, k, i, len, tv);
                if (n < 0 || pl_push(p, (pl_wait){-value, len, n, ++tie})) return PL_FAIL;
            }
            if (!has || value > best || (value == best && len < best_len)) {
                has = 1; best = value; best_node = k; best_move = i; best_len = len;
            }
        }
    }
    if (!has) return 0;
    if (best_len > cap) return PL_FAIL;
    if (out_value) *out_value = best;
    /* the line, back from its last move to the root */
    int32_t k = best_node, move = best_move;
    for (int32_t step = best_len - 1; step >= 0; step--) {
        const cr_state *S = pl_state(p, p->node[k].slot);
        out_choice[step] = S->choice;
        out_alt[step] = S->legal_alt[move];
        memcpy(out_val + (size_t)step * NPARAMS, S->legal_val[move], sizeof S->legal_val[move]);
        out_view[2 * step] = p->node[k].view.a;
        out_view[2 * step + 1] = p->node[k].view.b;
        move = p->node[k].move;
        k = p->node[k].parent;
    }
    return best_len;
}

/* plan.py:PlanBot._search from the game in mem for seat `me`, looking at most `nodes` positions,
 * depth first where `how` has PL_DEEP, else best first, in the position itself with every card
 * seen where it has PL_PEEK, else in a sample drawn from the bot's generator (625
 * words in, moved on out), with every card of the sample seen where it has PL_WORLD (the views
 * still the seat's own), stopping at the monotonic clock's `deadline` once a line is found (0:
 * no deadline): the line's moves (each one's choice, action and values, and the view expected
 * before it, two words) and, where out_value is not NULL, the value it ends with (plan.py's
 * _value: 1e9 a game won), their number (0: none found), or
 * PL_FAIL, rng_words untouched: Python plans then. Guarded (cr_guard_enter): Ctrl-C is PL_FAIL,
 * and cr_interrupted says why */
int32_t cr_plan(const void *mem, int32_t me, int64_t nodes, uint32_t *rng_words, double deadline, int32_t how,
                int32_t *out_choice, int32_t *out_alt, int64_t *out_val, uint64_t *out_view, int32_t cap,
                double *out_value) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || S0->err || me < 0 || me >= S0->n_players || nodes < 1) return PL_FAIL;
    uint32_t words[CRT_STATE_WORDS];
    memcpy(words, rng_words, sizeof words);
    pl_search p = {0};
    p.words = ((size_t)S0->bytes + 7) / 8;
    uint64_t *copy = (uint64_t *)malloc(p.words * 8 + 8);
    if (!copy) return PL_FAIL;
    cr_guard_enter();
    int32_t n = pl_run(&p, S0, me, nodes, words, deadline, how, copy, out_choice, out_alt, out_val, out_view, cap, out_value);
    cr_guard_leave();
    free(copy);
    pl_free(&p);
    if (n >= 0) memcpy(rng_words, words, sizeof words);
    return n;
}

/* plan.py:_Eyes.view of the game in mem for seat `who`, hashed as the search hashes it (two words) */
/* the greedy player's question in a run of its own decisions (bots.py:GreedyBot._goes_back): after
 * legal move i, played on a copy, does `who` decide next in a game still going, and what does it
 * see then (the hash in out[0..1])? 1 yes, 0 no (the game ends or another seat decides), -1 the
 * rules fail in the copy, or no room for one */
int32_t cr_plan_view_after(const void *mem, int32_t i, int32_t who, uint64_t *out) {
    const cr_state *S = (const cr_state *)mem;
    if (i < 0 || i >= S->legal_n) return -1;
    uint64_t *copy = malloc((size_t)S->bytes);
    if (!copy) return -1;
    int32_t rc = -1;
    if (pl_play(copy, S, i) == 0) {
        cr_state *T = (cr_state *)copy;
        rc = 0;
        if (!T->finished && T->actor == who) {
            uint8_t unseen[MAXZ];
            pl_unseen(T, who, unseen);
            pl_view v = pl_view_of(T, unseen);
            out[0] = v.a; out[1] = v.b;
            rc = 1;
        }
    }
    free(copy);
    return rc;
}

void cr_plan_view(const void *mem, int32_t who, uint64_t *out) {
    cr_state *S = (cr_state *)mem;
    uint8_t unseen[MAXZ];
    pl_unseen(S, who, unseen);
    pl_view v = pl_view_of(S, unseen);
    out[0] = v.a; out[1] = v.b;
}
