/* The perfect-information solver (solver/minimax.py, Solver) in C: iterative deepening of
 * alpha-beta for two sides or max^n for more, a table of positions keyed by a 128-bit hash of the
 * whole position, the node budget and the time cap, the moves in the order Python tries them, and
 * the best line read back from the table. The same values, nodes and line as Python's: whatever C
 * cannot work out as Python would (a rules failure in a copy, advice that fails or is none, a
 * number past what a double holds exactly, partners that end apart, a recursion Python would not
 * reach) is SV_FAIL, and Python solves the position itself (native/minimax.py).
 *
 * Pasted by native/codegen/emit.py (Module.source) after plan.c and what plan_c.py makes for the
 * program (pl_slots), whose hashing it shares. Not compiled on its own: it reads the sizes emit.py
 * defines for each program (NC, MAXP, NS, ...: the names in capitals), the greedy player's scores
 * and advice (greedy.c) and the planner's hash and clock (plan.c). */

/* ================================================================ the perfect-information solver */
#define SV_FAIL (-1)
#define SV_NODES 1   /* the node budget ran out (minimax.py's _OutOfBudget("nodes")) */
#define SV_SECONDS 2 /* the time cap */
#define SV_EXACT 0
#define SV_LOWER 1
#define SV_UPPER 2
#define SV_EXACT_INT 9007199254740992.0 /* 2**53: an int past it is not a double exactly */
#define SV_MAXLEVEL 600 /* deeper, Python's recursion limit is near: Python solves it (and fails as it fails) */
#define SV_PATH_BUCKETS 4096

/* a vector of utilities: doubles, and whether Python holds them as ints (scores) or floats */
typedef struct sv_vec { double u[MAXP]; int32_t ints; } sv_vec;

typedef struct sv_entry {
    pl_view key;            /* (0, 0): an empty slot */
    double v;               /* alpha-beta: the value or its bound */
    int32_t flag, depth, complete, move;
    int32_t vec;            /* max^n: the vector's index in sv.vecs */
} sv_entry;

/* a level of the recursion: the children of the position searched there */
typedef struct sv_level {
    uint64_t *buf; int32_t cap;
    int32_t *idx, *order, *stop; int64_t *rank; pl_view *rng; int32_t room;
} sv_level;

typedef struct sv {
    int32_t two, n_sides, draws, P;
    int32_t side_of[MAXP], side_seats[MAXP], side_start[MAXP + 2]; /* (two sides' bounds: room for them with one seat) */
    int64_t nodes, budget;
    double deadline;
    size_t words;
    sv_entry *table; uint64_t cap, n;
    sv_vec *vecs; int64_t n_vec, cap_vec;
    pl_view path[SV_MAXLEVEL + 2]; int32_t path_next[SV_MAXLEVEL + 2], path_n;
    int32_t bucket[SV_PATH_BUCKETS];
    sv_level level[SV_MAXLEVEL + 2];
} sv;

/* the generator's state as Python's getstate() gives it, hashed (0, 0 when the rules never draw) */
static pl_view sv_rng_hash(const cr_state *S, int draws) {
    pl_view h = {0, 0};
    if (!draws) return h;
    uint32_t w[CRT_STATE_WORDS];
    crt_get_state(&S->rng, w);
    for (int32_t k = 0; k < CRT_STATE_WORDS; k += 2)
        pl_mix(&h, (uint64_t)w[k] << 32 | (k + 1 < CRT_STATE_WORDS ? w[k + 1] : 0));
    return h;
}

/* minimax.py:position_key, hashed: everything the rest of the game can depend on (`rng` the
 * generator's hash, sv_rng_hash); the cards packed four to a word, each zone after its length, or
 * as a set where no rule reads the kind's order (K_KEY_ORDERED, language/unread.py) */
static pl_view sv_key(const cr_state *S, pl_view rng) {
    crt_cards *C = CARDS((cr_state *)S);
    const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
    const int16_t *by = CRT_CAT(C, int16_t, off_played_by);
    pl_view h = {0x452821E638D01377ULL, 0xBE5466CF34E90C6CULL};
    pl_mix(&h, (uint64_t)(int64_t)S->pc);
    pl_mix(&h, (uint64_t)(int64_t)S->sp);
    for (int32_t k = 0; k < S->sp; k++) pl_mix(&h, (uint64_t)(int64_t)S->stack[k]);
    pl_mix(&h, (uint64_t)(int64_t)S->actor);
    pl_mix(&h, (uint64_t)(int64_t)S->finished);
    pl_slots(&h, S);
    const uint16_t *zk = CRT_CAT(C, uint16_t, off_zone_kind), *cz = CRT_CAT(C, uint16_t, off_card_zone);
    for (int32_t z = 0; z < S->n_zones; z++) {
        const uint16_t *d = CR_ZONE_DATA(C, z);
        int32_t n = CR_ZONE_LEN(C, z), k = 0;
        pl_mix(&h, (uint64_t)n);
        if (!K_KEY_ORDERED[zk[z]]) { /* no rule reads this kind's order: its cards as a set */
            uint64_t acc = 0;
            for (; k < n; k++) {
                uint64_t x = ((uint64_t)d[k] << 16 | (uint64_t)z) * 0x9E3779B97F4A7C15ULL;
                x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ULL; x ^= x >> 32;
                acc += x;
            }
            if (n) pl_mix(&h, acc);
            continue;
        }
        for (; k + 4 <= n; k += 4)
            pl_mix(&h, (uint64_t)d[k] | (uint64_t)d[k + 1] << 16 | (uint64_t)d[k + 2] << 32 | (uint64_t)d[k + 3] << 48);
        uint64_t w = 0;
        for (int32_t j = 0; k < n; k++, j++) w |= (uint64_t)d[k] << (16 * j);
        if (n & 3) pl_mix(&h, w);
    }
    /* each card's face and who played it (where a rule may read it: else 0xFFFE), 32 bits */
#define SV_BY(c) (K_KEY_BY[zk[cz[c]]] ? (uint16_t)by[c] : (uint16_t)0xFFFE)
    for (uint32_t c = 0; c < C->n_cards; c += 2) {
        uint64_t w = (uint64_t)known[c] << 16 | SV_BY(c);
        if (c + 1 < C->n_cards) w |= ((uint64_t)known[c + 1] << 16 | SV_BY(c + 1)) << 32;
        pl_mix(&h, w);
    }
#undef SV_BY
    pl_mix(&h, (uint64_t)S->declared_set);
    if (S->declared_set) pl_mix(&h, S->declared);
    /* pending and sealed choices, as native/engine.py's _sites reads them */
    for (int32_t k = 0; k < NSITES; k++) {
        if (!S->pend_on[k]) continue;
        pl_mix(&h, 0x5175ULL + (uint64_t)k);
        pl_mix(&h, (uint64_t)S->pend_n[k]);
        for (int32_t j = 0; j < S->pend_n[k]; j++) pl_mix(&h, (uint64_t)(int64_t)S->pend[k][j]);
        pl_mix(&h, (uint64_t)S->seal_on[k]);
        if (!S->seal_on[k]) continue;
        pl_mix(&h, (uint64_t)S->seal_n[k]);
        for (int32_t j = 0; j < S->seal_n[k]; j++) pl_mix(&h, (uint64_t)(int64_t)S->seal_order[k][j]);
        for (int32_t q = 0; q < S->n_players; q++) {
            if (!S->chosen_on[k][q]) { pl_mix(&h, 0); continue; }
            pl_mix(&h, 1 + (uint64_t)(int64_t)S->chosen_alt[k][q]);
            for (int32_t j = 0; j < NPARAMS; j++) pl_mix(&h, (uint64_t)S->chosen_val[k][q][j]);
        }
    }
#if TELLS
    for (int32_t i = 0; i < (int32_t)C->n_cards * S->n_players; i++) pl_mix(&h, (uint64_t)(int64_t)S->told[i]);
#endif
    pl_mix(&h, rng.a);
    pl_mix(&h, rng.b);
    h.a ^= h.a >> 33; h.a *= 0xFF51AFD7ED558CCDULL; h.a ^= h.a >> 33;
    h.b ^= h.b >> 29; h.b *= 0xC4CEB9FE1A85EC53ULL; h.b ^= h.b >> 32;
    h.a |= 1; /* never the empty slot's (0, 0) */
    return h;
}

static int sv_int(int64_t v, double *out) {
    if (v > (int64_t)SV_EXACT_INT || v < -(int64_t)SV_EXACT_INT) return SV_FAIL;
    *out = (double)v;
    return 0;
}

/* minimax.py:utilities: the score (minus it when the fewest wins), or each winner's share */
static int sv_utilities_of(cr_state *S, const int64_t *sc, sv_vec *out);

static int sv_utilities(cr_state *S, sv_vec *out) {
    int64_t sc[MAXP];
    if (gr_scores(S, sc)) return SV_FAIL;
    return sv_utilities_of(S, sc, out);
}

/* the same from the scores gr_scores gave */
static int sv_utilities_of(cr_state *S, const int64_t *sc, sv_vec *out) {
    int32_t P = S->n_players;
    if (S->finished && (S->declared_set || !HAS_SCORE)) {
        uint64_t w = S->declared_set ? S->declared : 0;
        int nw = __builtin_popcountll(w);
        double share = nw ? 1.0 / nw : 0.0;
        for (int32_t i = 0; i < P; i++) out->u[i] = (w >> i & 1) ? share : 0.0;
        out->ints = 0;
        return 0;
    }
    for (int32_t i = 0; i < P; i++) {
        if (sc[i] == CR_NONE) return SV_FAIL; /* max() or a product of a none: Python raises */
        if (sv_int(SR_MOST ? sc[i] : -sc[i], &out->u[i])) return SV_FAIL;
    }
    out->ints = 1;
    return 0;
}

#if GR_NADVICE
/* the sum of `seat`'s advice values (a none, a failure, a sum past 64 bits: SV_FAIL) */
static int sv_advice(cr_state *S, int32_t seat, int64_t *sum) {
    int64_t adv[GR_NADVICE];
    if (gr_advice(S, seat, adv)) return SV_FAIL;
    *sum = 0;
    for (int32_t k = 0; k < GR_NADVICE; k++)
        if (adv[k] == CR_NONE || __builtin_add_overflow(*sum, adv[k], sum)) return SV_FAIL;
    return 0;
}
#endif

/* minimax.py:_guess: the advice per seat, else the utilities now; what cannot be worked out yet
 * as Python's engine fails too (greedy.c:gr_alike) gives no signal: a seat's advice 0, every
 * score 0 */
static int sv_guess(cr_state *S, sv_vec *out) {
#if GR_NADVICE
    for (int32_t i = 0; i < S->n_players; i++) {
        int64_t adv[GR_NADVICE], sum = 0;
        int kind = gr_advice(S, i, adv);
        if (kind && !gr_alike(kind)) return SV_FAIL;
        for (int32_t k = 0; !kind && k < GR_NADVICE; k++)
            if (adv[k] == CR_NONE || __builtin_add_overflow(sum, adv[k], &sum)) return SV_FAIL;
        out->u[i] = (double)sum;
    }
    out->ints = 0;
    return 0;
#else
    int64_t sc[MAXP];
    int kind = gr_scores(S, sc);
    if (kind && gr_alike(kind) && !S->finished) {
        for (int32_t i = 0; i < S->n_players; i++) out->u[i] = 0.0;
        out->ints = 1;
        return 0;
    }
    return kind ? SV_FAIL : sv_utilities_of(S, sc, out);
#endif
}

/* minimax.py:Solver._leaf: the utilities, partners alike (else Python raises its error) */
static int sv_leaf(sv *v, cr_state *S, sv_vec *out) {
    if (sv_utilities(S, out)) return SV_FAIL;
    if (v->two || v->n_sides < v->P)
        for (int32_t k = 0; k < v->n_sides; k++)
            for (int32_t j = v->side_start[k]; j < v->side_start[k + 1]; j++)
                if (out->u[v->side_seats[j]] != out->u[v->side_seats[v->side_start[k]]]) return SV_FAIL;
    return 0;
}

/* one side's mean utility, as Python's sum(...) / len(...) */
static int sv_mean(sv *v, const sv_vec *u, int32_t k, double *out) {
    int32_t a = v->side_start[k], b = v->side_start[k + 1];
    if (u->ints) {
        int64_t s = 0;
        for (int32_t j = a; j < b; j++) s += (int64_t)u->u[v->side_seats[j]]; /* each within 2**53 */
        if (s > (int64_t)SV_EXACT_INT || s < -(int64_t)SV_EXACT_INT) return SV_FAIL;
        *out = (double)s / (double)(b - a);
    } else {
        double s = 0.0;
        for (int32_t j = a; j < b; j++) s += u->u[v->side_seats[j]];
        *out = s / (double)(b - a);
    }
    return 0;
}

/* minimax.py:Solver._margin: the first side's mean utility less the second's */
static int sv_margin(sv *v, const sv_vec *u, double *out) {
    double a, b;
    if (sv_mean(v, u, 0, &a) || sv_mean(v, u, 1, &b)) return SV_FAIL;
    *out = a - b;
    return 0;
}

/* minimax.py:Solver._tick: one more node; SV_NODES or SV_SECONDS when the search must stop */
static int sv_tick(sv *v) {
    v->nodes++;
    if (v->nodes > v->budget) return SV_NODES;
    if (v->deadline > 0 && (v->nodes & 255) == 0 && pl_now() > v->deadline) return SV_SECONDS;
    if (CR_STOPPED()) return SV_FAIL;
    return 0;
}

static sv_entry *sv_find(sv *v, pl_view k) {
    if (!v->cap) return NULL;
    uint64_t j = k.b & (v->cap - 1);
    while (v->table[j].key.a) {
        if (v->table[j].key.a == k.a && v->table[j].key.b == k.b) return &v->table[j];
        j = (j + 1) & (v->cap - 1);
    }
    return NULL;
}

/* the entry for key k, made when missing (its vec -1); NULL without room */
static sv_entry *sv_slot(sv *v, pl_view k) {
    sv_entry *e = sv_find(v, k);
    if (e) return e;
    if (2 * (v->n + 1) > v->cap) {
        uint64_t cap = v->cap ? v->cap * 2 : 4096;
        sv_entry *t = (sv_entry *)calloc(cap, sizeof(sv_entry));
        if (!t) return NULL;
        for (uint64_t i = 0; i < v->cap; i++) {
            if (!v->table[i].key.a) continue;
            uint64_t j = v->table[i].key.b & (cap - 1);
            while (t[j].key.a) j = (j + 1) & (cap - 1);
            t[j] = v->table[i];
        }
        free(v->table);
        v->table = t; v->cap = cap;
    }
    uint64_t j = k.b & (v->cap - 1);
    while (v->table[j].key.a) j = (j + 1) & (v->cap - 1);
    v->table[j].key = k;
    v->table[j].vec = -1;
    v->n++;
    return &v->table[j];
}

/* the position's path (minimax.py's Solver.path): a stack, each key chained in its bucket */
static int sv_on_path(sv *v, pl_view k) {
    for (int32_t i = v->bucket[k.b & (SV_PATH_BUCKETS - 1)]; i >= 0; i = v->path_next[i])
        if (v->path[i].a == k.a && v->path[i].b == k.b) return 1;
    return 0;
}

static void sv_push(sv *v, pl_view k) {
    int32_t b = (int32_t)(k.b & (SV_PATH_BUCKETS - 1)), i = v->path_n++;
    v->path[i] = k;
    v->path_next[i] = v->bucket[b];
    v->bucket[b] = i;
}

static void sv_pop(sv *v) {
    int32_t i = --v->path_n;
    v->bucket[v->path[i].b & (SV_PATH_BUCKETS - 1)] = v->path_next[i];
}

static inline cr_state *sv_child(sv *v, int32_t level, int32_t k) {
    return (cr_state *)(v->level[level].buf + v->words * (size_t)k);
}

static int sv_same_move(const cr_state *S, int32_t i, int32_t j) {
    return S->legal_alt[i] == S->legal_alt[j] && !memcmp(S->legal_val[i], S->legal_val[j], sizeof S->legal_val[i]);
}

/* minimax.py:Solver._children: each of the mover's moves played on a copy (kept at this level),
 * the table's move first, then with advice the moves best for the mover (stable sorts); their
 * number, or SV_FAIL (the rules fail in a copy, the advice fails, no room) */
static int32_t sv_children(sv *v, cr_state *S, pl_view rng, int32_t hint, int32_t level) {
    sv_level *L = &v->level[level];
    int32_t n = 0, mover = S->actor;
    for (int32_t i = 0; i < S->legal_n; i++) n += S->legal_who[i] == mover;
    if (n > L->room) {
        int32_t room = n + 8;
        int32_t *idx = (int32_t *)realloc(L->idx, sizeof(int32_t) * (size_t)room * 3);
        int64_t *rank = (int64_t *)realloc(L->rank, sizeof(int64_t) * (size_t)room);
        pl_view *rng = (pl_view *)realloc(L->rng, sizeof(pl_view) * (size_t)room);
        if (idx) L->idx = idx;
        if (rank) L->rank = rank;
        if (rng) L->rng = rng;
        if (!idx || !rank || !rng) return SV_FAIL;
        L->order = L->idx + room; L->stop = L->idx + 2 * room; L->room = room;
    }
    if (n > L->cap) {
        uint64_t *buf = (uint64_t *)realloc(L->buf, sizeof(uint64_t) * v->words * (size_t)n);
        if (!buf) return SV_FAIL;
        L->buf = buf; L->cap = n;
    }
    n = 0;
    for (int32_t i = 0; i < S->legal_n; i++) {
        if (S->legal_who[i] != mover) continue;
        cr_state *T = sv_child(v, level, n);
        gr_copy((uint64_t *)T, S, i);
        int rc = cr_apply(T, i);
        if (rc == CR_E_LONG && T->err == CR_E_LONG) L->stop[n] = 1; /* the decision cap: a leaf (_Stopped) */
        else if (rc || T->err) return SV_FAIL;
        else L->stop[n] = 0;
        L->idx[n] = i;
        L->order[n] = n;
        /* the generator's hash worked out again only when the move drew from it */
        L->rng[n] = !v->draws || !memcmp(&T->rng, &S->rng, sizeof T->rng) ? rng : sv_rng_hash(T, 1);
        n++;
    }
    int32_t first = 0;
    if (hint >= 0) { /* the table's move first: out.sort(key=lambda e: e[0] != hint) */
        int32_t m = 0;
        for (int32_t k = 0; k < n; k++) if (sv_same_move(S, L->idx[k], hint)) L->order[m++] = k;
        first = m > 0;
        for (int32_t k = 0; k < n; k++) if (!sv_same_move(S, L->idx[k], hint)) L->order[m++] = k;
    }
#if GR_NADVICE
    if (n > 1) { /* the rest by the mover's advice after the move, highest first (0 at an end) */
        for (int32_t j = first; j < n; j++) {
            int32_t k = L->order[j];
            cr_state *T = sv_child(v, level, k);
            if (L->stop[k] || T->finished) L->rank[k] = 0;
            else if (sv_advice(T, mover, &L->rank[k])) return SV_FAIL;
        }
        for (int32_t j = first + 1; j < n; j++) { /* insertion: stable */
            int32_t k = L->order[j], at = j;
            while (at > first && L->rank[L->order[at - 1]] < L->rank[k]) { L->order[at] = L->order[at - 1]; at--; }
            L->order[at] = k;
        }
    }
#else
    (void)first;
#endif
    return n;
}

/* the first of the legal moves equal to move i (Python keeps a move by its action and value) */
static int32_t sv_first_alike(const cr_state *S, int32_t i) {
    for (int32_t j = 0; j < i; j++) if (S->legal_who[j] == S->actor && sv_same_move(S, j, i)) return j;
    return i;
}

/* minimax.py:Solver._ab: 0 (the value in *out, complete in *complete), SV_NODES/SV_SECONDS, SV_FAIL */
static int sv_ab(sv *v, cr_state *S, pl_view rng, int stopped, int32_t depth, double alpha, double beta, int32_t level,
                 double *out, int *complete) {
    int rc = sv_tick(v);
    if (rc) return rc;
    sv_vec u;
    if (stopped || S->finished) {
        if (sv_leaf(v, S, &u) || sv_margin(v, &u, out)) return SV_FAIL;
        *complete = 1;
        return 0;
    }
    if (depth == 0) {
        if (sv_guess(S, &u) || sv_margin(v, &u, out)) return SV_FAIL;
        *complete = 0;
        return 0;
    }
    pl_view key = sv_key(S, rng);
    if (sv_on_path(v, key)) {
        if (sv_utilities(S, &u) || sv_margin(v, &u, out)) return SV_FAIL;
        *complete = 1;
        return 0;
    }
    if (level >= SV_MAXLEVEL) return SV_FAIL;
    sv_entry *e = sv_find(v, key);
    int32_t hint = -1;
    if (e) {
        hint = e->move;
        if (e->complete || e->depth >= depth) {
            if (e->flag == SV_EXACT || (e->flag == SV_LOWER && e->v >= beta) || (e->flag == SV_UPPER && e->v <= alpha)) {
                *out = e->v;
                *complete = e->complete;
                return 0;
            }
        }
    }
    int maximizing = v->side_of[S->actor] == 0;
    double a0 = alpha, b0 = beta, best = maximizing ? -INFINITY : INFINITY;
    int32_t best_move = -1;
    int all = 1;
    int32_t n = sv_children(v, S, rng, hint, level);
    if (n < 0) return SV_FAIL;
    sv_level *L = &v->level[level];
    sv_push(v, key);
    for (int32_t j = 0; j < n; j++) {
        int32_t k = L->order[j];
        double cv;
        int cc;
        rc = sv_ab(v, sv_child(v, level, k), L->rng[k], L->stop[k], depth - 1, alpha, beta, level + 1, &cv, &cc);
        if (rc) { sv_pop(v); return rc; }
        all = all && cc;
        if (maximizing ? cv > best : cv < best) { best = cv; best_move = L->idx[k]; }
        if (maximizing) { if (best > alpha) alpha = best; }
        else if (best < beta) beta = best;
        if (alpha >= beta) break;
    }
    sv_pop(v);
    if (best_move < 0) { /* no legal move: the game is stuck here */
        if (sv_utilities(S, &u) || sv_margin(v, &u, out)) return SV_FAIL;
        *complete = 1;
        return 0;
    }
    e = sv_slot(v, key);
    if (!e) return SV_FAIL;
    e->v = best;
    e->flag = best <= a0 ? SV_UPPER : best >= b0 ? SV_LOWER : SV_EXACT;
    e->depth = depth;
    e->complete = all;
    e->move = sv_first_alike(S, best_move);
    *out = best;
    *complete = all;
    return 0;
}

/* minimax.py:Solver._maxn: 0 (the vector in *out), SV_NODES/SV_SECONDS, or SV_FAIL */
static int sv_maxn(sv *v, cr_state *S, pl_view rng, int stopped, int32_t depth, int32_t level, sv_vec *out, int *complete) {
    int rc = sv_tick(v);
    if (rc) return rc;
    if (stopped || S->finished) {
        *complete = 1;
        return sv_leaf(v, S, out) ? SV_FAIL : 0;
    }
    if (depth == 0) {
        *complete = 0;
        return sv_guess(S, out) ? SV_FAIL : 0;
    }
    pl_view key = sv_key(S, rng);
    if (sv_on_path(v, key)) {
        *complete = 1;
        return sv_utilities(S, out) ? SV_FAIL : 0;
    }
    if (level >= SV_MAXLEVEL) return SV_FAIL;
    sv_entry *e = sv_find(v, key);
    int32_t hint = -1;
    if (e) {
        hint = e->move;
        if (e->complete || e->depth >= depth) {
            *out = v->vecs[e->vec];
            *complete = e->complete;
            return 0;
        }
    }
    int32_t mover = S->actor, best_move = -1;
    sv_vec best, got;
    int all = 1;
    int32_t n = sv_children(v, S, rng, hint, level);
    if (n < 0) return SV_FAIL;
    sv_level *L = &v->level[level];
    sv_push(v, key);
    for (int32_t j = 0; j < n; j++) {
        int32_t k = L->order[j];
        int cc;
        rc = sv_maxn(v, sv_child(v, level, k), L->rng[k], L->stop[k], depth - 1, level + 1, &got, &cc);
        if (rc) { sv_pop(v); return rc; }
        all = all && cc;
        if (best_move < 0 || got.u[mover] > best.u[mover]) { best = got; best_move = L->idx[k]; }
    }
    sv_pop(v);
    if (best_move < 0) {
        *complete = 1;
        return sv_utilities(S, out) ? SV_FAIL : 0;
    }
    e = sv_slot(v, key);
    if (!e) return SV_FAIL;
    if (e->vec < 0) {
        if (v->n_vec == v->cap_vec) {
            int64_t cap = v->cap_vec ? v->cap_vec * 2 : 1024;
            sv_vec *t = (sv_vec *)realloc(v->vecs, sizeof(sv_vec) * (size_t)cap);
            if (!t) return SV_FAIL;
            v->vecs = t; v->cap_vec = cap;
        }
        e->vec = (int32_t)v->n_vec++;
    }
    v->vecs[e->vec] = best;
    e->depth = depth;
    e->complete = all;
    e->move = sv_first_alike(S, best_move);
    *out = best;
    *complete = all;
    return 0;
}

/* minimax.py:Solver._root: one search `depth` decisions deep from S (the path afresh) */
static int sv_root(sv *v, cr_state *S, int32_t depth, double *value, int32_t *ints, int *complete) {
    v->path_n = 0;
    for (int32_t b = 0; b < SV_PATH_BUCKETS; b++) v->bucket[b] = -1;
    pl_view rng = sv_rng_hash(S, v->draws);
    if (v->two) {
        *ints = 0;
        return sv_ab(v, S, rng, 0, depth, -INFINITY, INFINITY, 0, value, complete);
    }
    sv_vec u;
    int rc = sv_maxn(v, S, rng, 0, depth, 0, &u, complete);
    if (!rc) { *value = u.u[S->actor]; *ints = u.ints; }
    return rc;
}

static int32_t sv_index_among_mover(const cr_state *S, int32_t i) {
    int32_t n = 0;
    for (int32_t j = 0; j < i; j++) n += S->legal_who[j] == S->actor;
    return n;
}

/* minimax.py:Solver.solve and _line from the state S (a copy the caller owns) */
static int sv_run(sv *v, cr_state *S, int32_t *out_line, int32_t cap, double *out_value, int64_t *out_info) {
    int32_t depth = 1, best_depth = 0, best_ints = 0, stopped = 0;
    double best_value = 0.0;
    int best_complete = 0, have = 0;
    for (;;) {
        double value;
        int32_t ints;
        int complete;
        int rc = sv_root(v, S, depth, &value, &ints, &complete);
        if (rc == SV_NODES || rc == SV_SECONDS) { stopped = rc; break; }
        if (rc) return SV_FAIL;
        have = 1; best_depth = depth; best_value = value; best_ints = ints; best_complete = complete;
        if (complete) break;
        if (depth > (1 << 29)) return SV_FAIL;
        depth *= 2;
    }
    int32_t len = 0;
    if (have) { /* the best line, move by move from the table; no budget, no clock */
        v->budget = INT64_MAX;
        v->deadline = 0;
        uint64_t *copy = (uint64_t *)malloc(v->words * 8 * 2);
        if (!copy) return SV_FAIL;
        cr_state *T = (cr_state *)copy, *U = (cr_state *)(copy + v->words);
        memcpy(T, S, (size_t)S->bytes);
        int32_t left = best_depth;
        int rc = 0;
        while (!T->finished && (best_complete || left > 0)) {
            pl_view key = sv_key(T, sv_rng_hash(T, v->draws));
            sv_entry *e = sv_find(v, key);
            if (!e || (v->two && e->flag != SV_EXACT)) {
                double value;
                int32_t ints;
                int complete;
                if (sv_root(v, T, best_complete ? best_depth : left, &value, &ints, &complete)) { rc = SV_FAIL; break; }
                e = sv_find(v, key);
            }
            if (!e) break;
            if (len >= cap) { rc = SV_FAIL; break; }
            int32_t i = e->move;
            out_line[len++] = sv_index_among_mover(T, i);
            gr_copy((uint64_t *)U, T, i);
            int ar = cr_apply(U, i);
            cr_state *W = T; T = U; U = W;
            if (ar == CR_E_LONG && T->err == CR_E_LONG) break; /* GameTooLong: the line stops there */
            if (ar || T->err) { rc = SV_FAIL; break; }
            left--;
        }
        free(copy);
        if (rc) return SV_FAIL;
    }
    *out_value = best_value;
    out_info[0] = v->nodes;
    out_info[1] = best_depth;
    out_info[2] = best_complete;
    out_info[3] = best_complete ? 0 : stopped;
    out_info[4] = len;
    out_info[5] = best_ints;
    out_info[6] = have;
    return 0;
}

/* minimax.py:Solver.solve of the game in mem (not finished): `sides` the seats side by side in
 * order (each side's seats ascending), `starts` where each of the n_sides sides begins (n_sides + 1
 * numbers); `draws` whether the rules can draw at random (the generator is then part of a
 * position); at most `nodes` positions; `deadline` a monotonic time (0: none). Writes the best
 * line (each move's index among the mover's legal moves, at most cap), the value, and info: the
 * nodes counted, the depth, complete, stopped (0, 1 nodes, 2 seconds), the line's length, whether
 * the value is an int in Python, whether any search finished. 0, or SV_FAIL: Python solves it. */
int32_t cr_solve(const void *mem, const int32_t *sides, const int32_t *starts, int32_t n_sides, int32_t draws,
                 int64_t nodes, double deadline, int32_t *out_line, int32_t cap, double *out_value, int64_t *out_info) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || S0->err || S0->finished || nodes < 1 || n_sides < 1 || n_sides > S0->n_players)
        return SV_FAIL;
    sv *v = (sv *)calloc(1, sizeof(sv));
    if (!v) return SV_FAIL;
    v->P = S0->n_players;
    v->two = n_sides == 2;
    v->n_sides = n_sides;
    v->draws = draws;
    v->budget = nodes;
    v->deadline = deadline;
    v->words = ((size_t)S0->bytes + 7) / 8;
    for (int32_t k = 0; k <= n_sides; k++) v->side_start[k] = starts[k];
    for (int32_t k = 0; k < n_sides; k++)
        for (int32_t j = starts[k]; j < starts[k + 1]; j++) { v->side_seats[j] = sides[j]; v->side_of[sides[j]] = k; }
    int32_t rc = SV_FAIL;
    uint64_t *root = (uint64_t *)malloc(v->words * 8);
    if (root) {
        memcpy(root, S0, (size_t)S0->bytes);
        cr_rng((cr_state *)root); /* a generator whose seeding was put off, seeded: one state, one key */
        cr_guard_enter();
        rc = sv_run(v, (cr_state *)root, out_line, cap, out_value, out_info);
        cr_guard_leave();
    }
    free(root);
    for (int32_t l = 0; l < SV_MAXLEVEL + 2; l++) { free(v->level[l].buf); free(v->level[l].idx); free(v->level[l].rank); free(v->level[l].rng); }
    free(v->table);
    free(v->vecs);
    free(v);
    return rc;
}
