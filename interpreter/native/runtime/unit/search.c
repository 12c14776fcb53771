/* The search player (interpreter/players/search.py, ISMCTSBot) in C: the same samples, the same tree, the
 * same rollouts and rewards, drawn from the bot's own generator in the same order, so that a
 * search in C picks the move the search in Python picks (native/search.py calls it).
 *
 * Pasted by native/codegen/emit.py (Module.source) after entries.c and what search_c.py's
 * search_parts makes for the program: each action's name as a number (SR_ACT), the sites of
 * `choose by each` (SR_SITE_PC), cr_relegal, the advice (sr_advice), and the SR_* sizes. Not
 * compiled on its own: it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the
 * names in capitals) and what is pasted before it. */

/* ================================================================ the search player in C */
typedef struct sr_node {
    int32_t parent, first, next, who, act, pad;
    int64_t val[NPARAMS];
    int64_t visits, avail;
    uint64_t view;          /* what `who` saw as it moved (sr_view), 0 in a single-observer tree */
} sr_node;

typedef struct sr_tree {
    int32_t me, players, n, cap, tries, rollouts[3], views, peek;  /* peek: search.py's ISMCTSBot.peek */
    int32_t truths, truths_cap;  /* the truths every sample is drawn from (search.py's ISMCTSBot.truths), or 0 */
    uint64_t *truth;        /* truths x words: the truths, one after another */
    size_t words;           /* one state, in 8-byte words */
    double exploration, advice_scale;
    size_t bytes;           /* one state */
    sr_node *nodes;
    int32_t *slot;          /* with views, each node's place by its key (sr_hash), open addressing; -1 free */
    uint64_t mask;          /* the slots less one, a power of two less one */
    double *reward;         /* cap x players, each node's summed rewards */
    uint64_t *root, *det;   /* the position searched from (a copy), the sample being played */
    uint64_t *ahead;        /* a copy of the sample, to look one move ahead (sr_first) */
    double before[MAXP];
    int32_t mine[MAXM], untried[MAXM], kid[MAXM];  /* kid: mine[j]'s child at this step, -1 if none */
    uint32_t cards[NC];
    int32_t spot_z[NC], spot_k[NC], spot_pb[NC];
    uint8_t mark[NC];
    int32_t spot_told[TELLS ? NC : 1][TELLS ? MAXP : 1]; /* what each player was told of the card at each place */
} sr_tree;

#define SR_AT(C, type, off) ((type *)((unsigned char *)(C) + (C)->off)) /* an array of the cards' block, to write */
#define SR_FAIL 1000 /* the search cannot go on in C: Python searches again */

/* positions.py:_unseal: the others' sealed choices forgotten (they choose again at the decision
 * pending); 1 when any was */
static int sr_unseal(cr_state *S, int32_t who) {
    int changed = 0;
    for (int s = 0; s < SR_NSITES; s++) {
        if (!S->pend_on[s] || !S->seal_on[s]) continue;
        int here = S->pc == SR_SITE_PC[s], added = 0;
        for (int32_t p = 0; p < S->n_players; p++) {
            if (p == who || !S->chosen_on[s][p]) continue;
            S->chosen_on[s][p] = 0;
            changed = 1;
            if (here && S->pend_n[s] < MAXP) { S->pend[s][S->pend_n[s]++] = p; added = 1; }
        }
        if (added) { /* in the deciders' order */
            int32_t rank[MAXP];
            for (int32_t p = 0; p < S->n_players; p++) rank[p] = MAXP;
            for (int32_t j = 0; j < S->seal_n[s]; j++) rank[S->seal_order[s][j]] = j;
            for (int32_t a = 1; a < S->pend_n[s]; a++) {
                int32_t v = S->pend[s][a], b = a;
                while (b > 0 && rank[S->pend[s][b - 1]] > rank[v]) { S->pend[s][b] = S->pend[s][b - 1]; b--; }
                S->pend[s][b] = v;
            }
        }
    }
    return changed;
}

/* positions.py:determinise(state, who, rng, reseed=True) on the copy in S */
static int sr_determinise(sr_tree *t, cr_state *S, int32_t who, crt_rng *rng) {
    crt_cards *C = CARDS(S);
    if (sr_unseal(S, who) && !S->finished && cr_relegal(S)) return SR_FAIL;
    const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
    int16_t *played = SR_AT(C, int16_t, off_played_by);
    int32_t m = 0;
    for (int32_t z = 0; z < S->n_zones; z++) {
        int vis = K_KINDS[S->zkind[z]][3];
        if (vis == 0 || (vis == 1 && S->zowner[z] == who) || (vis == 3 && S->zowner[z] != who))
            continue; /* who sees this zone (positions.py:_sees) */
        const uint16_t *d = CR_ZONE_DATA(C, z);
        int32_t n = CR_ZONE_LEN(C, z);
        for (int32_t k = 0; k < n; k++)
            if (!known[d[k]]) {
                t->spot_z[m] = z; t->spot_k[m] = k; t->spot_pb[m] = played[d[k]]; t->cards[m] = d[k];
                if (TELLS) memcpy(t->spot_told[m], &S->told[(size_t)d[k] * S->n_players], sizeof(int32_t) * (size_t)S->n_players);
                m++;
            }
    }
    if (m > 1) {
        /* sorted by number: each card marked, then read in order */
        for (int32_t j = 0; j < m; j++) t->mark[t->cards[j]] = 1;
        for (int32_t c = 0, j = 0; c < NC && j < m; c++)
            if (t->mark[c]) { t->mark[c] = 0; t->cards[j++] = (uint32_t)c; }
        crt_shuffle_u32(rng, t->cards, (size_t)m);
        for (int32_t j = 0; j < m; j++) {
            (SR_AT(C, uint16_t, off_zone_cards) + (size_t)t->spot_z[j] * C->n_cards)[t->spot_k[j]] = (uint16_t)t->cards[j];
            played[t->cards[j]] = (int16_t)t->spot_pb[j];
            if (TELLS) memcpy(&S->told[(size_t)t->cards[j] * S->n_players], t->spot_told[j], sizeof(int32_t) * (size_t)S->n_players);
        }
        if (crt_cards_recount(C) || cr_relegal(S)) return SR_FAIL;
    }
    S->rng_seed = crt_getrandbits(rng, 64); /* random.Random(seed), made when the sample first draws */
    S->rng_lazy = 1;
    return 0;
}

/* whether a node is legal move i's (search.py's key: the player, the action's name, the values) */
static inline int sr_same(const sr_node *n, const cr_state *S, int32_t i) {
    return n->who == S->legal_who[i] && n->act == SR_ACT[S->choice][S->legal_alt[i]] &&
           !memcmp(n->val, S->legal_val[i], sizeof n->val);
}

/* search.py:_mix, splitmix64's finaliser */
static inline uint64_t sr_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* where the child of `node` for legal move i seen as `view` starts looking for its slot */
static uint64_t sr_hash(int32_t node, uint64_t view, const cr_state *S, int32_t i) {
    uint64_t h = sr_mix(view ^ (uint64_t)(uint32_t)node);
    h = sr_mix(h ^ ((uint64_t)(uint32_t)S->legal_who[i] << 32 | (uint32_t)SR_ACT[S->choice][S->legal_alt[i]]));
    for (int k = 0; k < NPARAMS; k++) h = sr_mix(h ^ (uint64_t)S->legal_val[i][k]);
    return h;
}

/* the child of `node` for legal move i seen as `view`, -1 when none; with views, by its slot (a
 * node there has thousands of children, one for each hand its player was dealt) */
static int32_t sr_child(const sr_tree *t, int32_t node, const cr_state *S, int32_t i, uint64_t view) {
    if (t->slot) {
        for (uint64_t j = sr_hash(node, view, S, i) & t->mask;; j = (j + 1) & t->mask) {
            int32_t c = t->slot[j];
            if (c < 0) return -1;
            if (t->nodes[c].parent == node && t->nodes[c].view == view && sr_same(&t->nodes[c], S, i)) return c;
        }
    }
    for (int32_t c = t->nodes[node].first; c >= 0; c = t->nodes[c].next)
        if (t->nodes[c].view == view && sr_same(&t->nodes[c], S, i)) return c;
    return -1;
}

/* search.py:_view: what seat w sees of the sample, as one number */
static uint64_t sr_view(cr_state *S, int32_t w) {
    crt_cards *C = CARDS(S);
    const uint8_t *known = CRT_CAT(C, uint8_t, off_known);
    uint64_t h = 0;
    for (int32_t z = 0; z < S->n_zones; z++) {
        int vis = K_KINDS[S->zkind[z]][3];
        int sees = vis == 0 || (vis == 1 && S->zowner[z] == w) || (vis == 3 && S->zowner[z] != w);
        const uint16_t *d = CR_ZONE_DATA(C, z);
        for (int32_t k = 0, n = CR_ZONE_LEN(C, z); k < n; k++)
            if (sees || known[d[k]]) h += sr_mix((uint64_t)z << 16 | d[k]);
    }
    return h;
}

/* the key's view of legal move i: its player's (worked out once a step, in views[]), or 0 */
static inline uint64_t sr_view_of(const sr_tree *t, cr_state *S, int32_t i, uint64_t *views, uint64_t *have) {
    if (!t->views) return 0;
    int32_t w = S->legal_who[i];
    if (!(*have >> w & 1)) { views[w] = sr_view(S, w); *have |= (uint64_t)1 << w; }
    return views[w];
}

/* moves_for: the indices of the legal moves of the player to act */
static int32_t sr_mine(sr_tree *t, const cr_state *S) {
    int32_t n = 0;
    for (int32_t j = 0; j < S->legal_n; j++)
        if (S->legal_who[j] == S->actor) t->mine[n++] = j;
    return n;
}

/* search.py:_standing: each seat's score between 0 (the worst) and 1 (the best); 0 when none */
static int sr_standing(cr_state *S, int32_t P, double *out, int *failed) {
    *failed = 0;
#if HAS_SCORE
    int64_t sc[MAXP], lo = 0, hi = 0;
    for (int32_t i = 0; i < P; i++) {
        sc[i] = cr_score(S, i);
        if (sc[i] == CR_NONE) { *failed = 1; return 0; }
        if (!i || sc[i] < lo) lo = sc[i];
        if (!i || sc[i] > hi) hi = sc[i];
    }
    for (int32_t i = 0; i < P; i++)
        out[i] = hi == lo ? 0.5 : SR_MOST ? (double)(sc[i] - lo) / (double)(hi - lo) : (double)(hi - sc[i]) / (double)(hi - lo);
    return 1;
#else
    (void)S; (void)P; (void)out;
    return 0;
#endif
}

/* search.py:_reward */
static int sr_reward(cr_state *S, int32_t P, double *r) {
    double st[MAXP];
    int failed;
    int has = sr_standing(S, P, st, &failed);
    if (S->finished) {
        if (failed) return SR_FAIL; /* outcome() fails in Python: let it */
        uint64_t w = 0;
        if (S->declared_set) w = S->declared;
#if HAS_SCORE
        else {
            int64_t best = 0;
            for (int32_t i = 0; i < P; i++) {
                int64_t v = cr_score(S, i);
                if (!i || (SR_MOST ? v > best : v < best)) best = v;
            }
            for (int32_t i = 0; i < P; i++) if (cr_score(S, i) == best) w |= (uint64_t)1 << i;
        }
#endif
        int nw = 0;
        for (int32_t i = 0; i < P; i++) nw += (int)(w >> i & 1);
        if (nw) {
            double share = 1.0 / nw;
            for (int32_t i = 0; i < P; i++) {
                double win = (w >> i & 1) ? share : 0.0;
                r[i] = has ? 0.7 * win + 0.3 * st[i] : win;
            }
            return 0;
        }
    } else if (has) {
        for (int32_t i = 0; i < P; i++) r[i] = 0.5 * st[i];
        return 0;
    }
    for (int32_t i = 0; i < P; i++) r[i] = 0.5 / P;
    return 0;
}

/* search.py:_advice_all: each seat's advice (the sum of its values) as a float; 0 when it fails */
static int sr_advice_all(cr_state *S, int32_t P, double *out) {
#if SR_NADVICE
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    if (!cr_ctx_init(x)) return 0;
    if (setjmp(x->jb)) return 0;
    for (int32_t i = 0; i < P; i++) {
        cr_epoch++;
        x->top = 0;
        out[i] = (double)SR_ADVICE(x, S, C, i);
    }
    return 1;
#else
    (void)S; (void)P; (void)out;
    return 0;
#endif
}

/* Python's sum() of floats from 0: plain, or compensated (Neumaier) since Python 3.12 */
static double sr_sum(const double *v, int32_t n) {
    double f = 0.0;
#if SR_NEUMAIER
    double c = 0.0;
    for (int32_t i = 0; i < n; i++) {
        double t = f + v[i];
        if (fabs(f) >= fabs(v[i])) c += (f - t) + v[i];
        else c += (v[i] - t) + f;
        f = t;
    }
    if (c != 0.0 && isfinite(c)) f += c;
#else
    for (int32_t i = 0; i < n; i++) f += v[i];
#endif
    return f;
}

/* search.py:_advised: a rollout cut short, judged by the advice; 0 when the advice fails */
static int sr_advised(cr_state *S, int32_t P, const double *before, double scale, double *r) {
    double now[MAXP], gain[MAXP], rivals[MAXP];
    if (!sr_advice_all(S, P, now)) return 0;
    for (int32_t i = 0; i < P; i++) gain[i] = now[i] - before[i];
    for (int32_t i = 0; i < P; i++) {
        int32_t n = 0;
        for (int32_t j = 0; j < P; j++) if (j != i) rivals[n++] = gain[j];
        double edge = gain[i] - (n ? sr_sum(rivals, n) / n : 0.0);
        r[i] = 0.25 + 0.25 * tanh(edge / scale);
    }
    return 1;
}

/* search.py:_alone: a game for one's score, the more the better (negated where the fewest wins); 0 when
 * it cannot be read */
static int sr_alone(cr_state *S, double *v) {
#if HAS_SCORE
    int64_t sc = cr_score(S, 0);
    if (sc == CR_NONE) return 0;
    *v = SR_MOST ? (double)sc : -(double)sc;
    return 1;
#else
    (void)S; (void)v;
    return 0;
#endif
}

/* whether a move's failure `rc` is the game's bound reached (GameTooLong): a line of a sample stops there */
static inline int sr_long(const cr_state *S, int rc) {
    return rc == CR_E_LONG && S->err == CR_E_LONG;
}

static int gr_alike(int kind); /* greedy.c, pasted after this */

/* whether a line of a sample stops at a move's failure `rc` and is judged (search.py: a
 * GameRuntimeError there): the bound reached, or the rules failing as they fail in Python (a none,
 * a division by zero, an index or a range out of bounds); any other failure is Python's to judge */
static inline int sr_stops(const cr_state *S, int rc) {
    return sr_long(S, rc) || gr_alike(rc);
}

/* search.py:WIDENING: with advice, a node has at most ceil((visits + 1) ** WIDENING) children */
#define SR_WIDENING 0.35

static void gr_copy(uint64_t *copy, const cr_state *S0, int32_t i); /* greedy.c, pasted after this */

/* search.py:_first: of the untried moves untried[0..n), the one its mover's advice values most
 * one move ahead (0 where the advice fails as in Python), then players/ties.py's tie_key (a card
 * before another argument before none, the lowest card first), then the first from `start` on; -1 when
 * C cannot judge them as Python would (the rules fail in a copy, an advice past 64 bits) */
#if SR_NADVICE
/* the sum of `seat`'s advice values in S, raw; the failure's kind, or 0 */
static int sr_advice_of(cr_state *S, int32_t seat, int64_t *out) {
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    if (!cr_ctx_init(x)) return CR_E_STATE;
    int kind = setjmp(x->jb);
    if (kind) return kind;
    cr_epoch++;
    x->top = 0;
    *out = SR_ADVICE(x, S, C, seat);
    return 0;
}
#endif

static int32_t sr_first(sr_tree *t, cr_state *S0, const int32_t *untried, int32_t n, int32_t start) {
#if SR_NADVICE
    int32_t best = -1;
    int64_t best_adv = 0, best_kind = 0, best_rank = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t i = untried[(start + k) % n];
        gr_copy(t->ahead, S0, i);
        cr_state *S = (cr_state *)t->ahead;
        int64_t adv = 0;
        int ar = cr_apply(S, i);
        if (ar && !sr_stops(S, ar)) return -1;
        if (!ar) {  /* (a move that runs into the game's bound or whose rules fail: no signal, as in Python) */
            int kind = sr_advice_of(S, S0->legal_who[i], &adv);
            if (gr_alike(kind)) adv = 0;  /* as Python's advice fails: no signal */
            else if (kind) return -1;
        }
        int64_t arg = SR_ARGKIND[S0->choice][S0->legal_alt[i]], v = S0->legal_val[i][0], rank = 0;
        if (arg == 3) {  /* a set of cards, as its mask: one card is that card (ties.py reads its name) */
            if (v > 0 && __builtin_popcountll((uint64_t)v) == 1) { arg = 0; v = __builtin_ctzll((uint64_t)v); }
            else arg = 1;
        }
        if (arg == 0) {
            if (v == CR_NONE || v < 0 || v >= NC) arg = 1;
            else rank = K_ORDER[v];
        }
        if (best < 0 || adv > best_adv || (adv == best_adv && (arg < best_kind || (arg == best_kind && rank < best_rank)))) {
            best = i; best_adv = adv; best_kind = arg; best_rank = rank;
        }
    }
    return best;
#else
    (void)t; (void)S0; (void)untried; (void)n;
    return untried[start];
#endif
}

/* search.py:ISMCTSBot._iterate on the sample in S */
static int sr_iterate(sr_tree *t, cr_state *S, crt_rng *rng, int has_before, int32_t rollout, int64_t rollout_cap,
                      int has_alone, double alone) {
    int32_t node = 0, P = t->players;
    int ar;
    double r[MAXP];
    while (!S->finished) {
        int32_t nm = sr_mine(t, S);
        if (!nm) break;
        int32_t nu = 0;
        uint64_t views[MAXP], have = 0;
        for (int32_t j = 0; j < nm; j++)
            if ((t->kid[j] = sr_child(t, node, S, t->mine[j], sr_view_of(t, S, t->mine[j], views, &have))) < 0)
                t->untried[nu++] = t->mine[j];
        if (nu && has_before && nu < nm && (double)(nm - nu) >= ceil(pow((double)t->nodes[node].visits + 1.0, SR_WIDENING)))
            nu = 0;  /* wide enough for its visits: one of the children it has */
        if (nu) {
            int32_t start = (int32_t)crt_randbelow(rng, (uint64_t)nu), i = t->untried[start];
            if (has_before && nu > 1 && (i = sr_first(t, S, t->untried, nu, start)) < 0) return SR_FAIL;
            if (t->n >= t->cap) return SR_FAIL;
            int32_t c = t->n++;
            sr_node *n = &t->nodes[c];
            n->parent = node; n->first = -1; n->next = t->nodes[node].first; t->nodes[node].first = c;
            n->who = S->legal_who[i]; n->act = SR_ACT[S->choice][S->legal_alt[i]];
            memcpy(n->val, S->legal_val[i], sizeof n->val);
            n->view = sr_view_of(t, S, i, views, &have);
            if (t->slot) {
                uint64_t j = sr_hash(node, n->view, S, i) & t->mask;
                while (t->slot[j] >= 0) j = (j + 1) & t->mask;
                t->slot[j] = c;
            }
            n->visits = 0; n->avail = 0;
            for (int32_t k = 0; k < P; k++) t->reward[(size_t)c * P + k] = 0.0;
            node = c;
            if ((ar = cr_apply(S, i))) goto stopped;
            break;
        }
        int32_t best = -1, best_i = -1;
        double best_value = -1.0;
        for (int32_t j = 0; j < nm; j++) {
            int32_t i = t->mine[j], c = t->kid[j];  /* found above */
            if (c < 0) continue;  /* not a child yet (the node is as wide as its visits allow) */
            sr_node *n = &t->nodes[c];
            n->avail++;
            double value = t->reward[(size_t)c * P + n->who] / (double)n->visits +
                           t->exploration * sqrt(log((double)n->avail) / (double)n->visits);
            if (value > best_value) { best = c; best_value = value; best_i = i; }
        }
        node = best;
        if ((ar = cr_apply(S, best_i))) goto stopped;
    }
    int64_t cap = has_before ? (rollout_cap < (int64_t)rollout * P ? rollout_cap : (int64_t)rollout * P) : rollout_cap;
    for (int64_t n = 0; !S->finished && n < cap; n++) {
        int32_t nm = sr_mine(t, S);
        if (!nm) break;
        if ((ar = cr_apply(S, t->mine[crt_randbelow(rng, (uint64_t)nm)]))) goto stopped;
    }
    /* a game for one that names no winner ends as the player's "win" however it ends: its end is
     * judged by the advice too (search.py) */
    int judged = has_before && (!S->finished || (P == 1 && !S->declared_set)) &&
                 sr_advised(S, P, t->before, t->advice_scale, r);
    double now;
    if (!judged && has_alone && (!S->finished || !S->declared_set) && sr_alone(S, &now)) {
        r[0] = 0.25 + 0.25 * tanh((now - alone) / t->advice_scale); /* a game for one: the score gained */
        judged = 1;
    }
    if (!judged && sr_reward(S, P, r)) return SR_FAIL;
    goto back;
stopped: /* a line of the sample that runs into the game's bound (it may go round for ever), or whose rules
          * fail (a position the play so far may rule out): nobody wins it */
    if (!sr_stops(S, ar)) return SR_FAIL;
    for (int32_t i = 0; i < P; i++) r[i] = 0.5 / P;
back:
    for (int32_t k = node; k >= 0; k = t->nodes[k].parent) {
        t->nodes[k].visits++;
        for (int32_t i = 0; i < P; i++) t->reward[(size_t)k * P + i] += r[i];
    }
    return 0;
}

void cr_search_free(void *h) {
    sr_tree *t = (sr_tree *)h;
    if (!t) return;
    free(t->nodes); free(t->slot); free(t->reward); free(t->root); free(t->det); free(t->ahead); free(t->truth); free(t);
}

/* a search from the game in mem for seat `me`, of at most `iterations` iterations; the constants of
 * search.py: the exploration and the advice's scale, the samples tried before one is given up, the
 * rollouts' lengths with advice (three, taken in turn) */
void *cr_search_new(const void *mem, int32_t me, int32_t iterations, double exploration, double advice_scale,
                    int32_t tries, const int32_t *rollouts, int32_t views) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || iterations < 1 || iterations > (1 << 26) || me < 0 || me >= S0->n_players)
        return NULL;
    sr_tree *t = (sr_tree *)calloc(1, sizeof(sr_tree));
    if (!t) return NULL;
    t->me = me; t->players = S0->n_players; t->cap = iterations + 1; t->tries = tries; t->views = views != 0;
    for (int k = 0; k < 3; k++) t->rollouts[k] = rollouts[k];
    t->exploration = exploration;
    t->advice_scale = advice_scale;
    t->bytes = (size_t)S0->bytes;
    t->words = (t->bytes + 7) / 8;
    t->nodes = (sr_node *)malloc(sizeof(sr_node) * (size_t)t->cap);
    t->reward = (double *)calloc((size_t)t->cap * (size_t)t->players, sizeof(double));
    t->root = (uint64_t *)malloc(t->bytes + 8);
    t->det = (uint64_t *)malloc(t->bytes + 8);
    t->ahead = (uint64_t *)malloc(t->bytes + 8);
    if (t->views) {
        uint64_t slots = 2;
        while (slots < 2 * (uint64_t)t->cap) slots <<= 1;
        t->mask = slots - 1;
        t->slot = (int32_t *)malloc(sizeof(int32_t) * slots);
        if (t->slot) memset(t->slot, 0xff, sizeof(int32_t) * slots);
    }
    if (!t->nodes || !t->reward || !t->root || !t->det || !t->ahead || (t->views && !t->slot)) { cr_search_free(t); return NULL; }
    memcpy(t->root, mem, t->bytes);
    t->n = 1;
    t->nodes[0].parent = -1; t->nodes[0].first = -1; t->nodes[0].next = -1;
    t->nodes[0].visits = 0; t->nodes[0].avail = 0; t->nodes[0].view = 0;
    return t;
}

/* whether legal move i of A and move j of B are the same move (its player, its action's name,
 * its values) */
static inline int sr_same_move(const cr_state *A, int32_t i, const cr_state *B, int32_t j) {
    return A->legal_who[i] == B->legal_who[j] && SR_ACT[A->choice][A->legal_alt[i]] == SR_ACT[B->choice][B->legal_alt[j]] &&
           !memcmp(A->legal_val[i], B->legal_val[j], sizeof A->legal_val[i]);
}

/* The fuzzer's check that a seat's moves hide nothing (fuzz/invariants.py:_check_permuted), in C:
 * the position in mem determinised for `who` (positions.py:determinise, not reseeded) with the
 * generator given (625 words, as Python's random.Random holds them), and the moves `who` may
 * make there compared with theirs in mem, as multisets. 0: the same (or fewer than two cards
 * `who` cannot know, when the check does not apply); 1: not the same; SR_FAIL: C cannot tell
 * (the sample's moves fail, too many moves, Ctrl-C): Python judges. */
int32_t cr_permuted_differs(const void *mem, int32_t who, uint32_t *rng_words) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || who < 0 || who >= S0->n_players || S0->finished || S0->err ||
        S0->legal_n > MAXM)
        return SR_FAIL;
    const crt_cards *C0 = CARDS((cr_state *)S0);
    const uint8_t *known = CRT_CAT(C0, uint8_t, off_known);
    int32_t spots = 0;
    for (int32_t z = 0; z < S0->n_zones && spots < 2; z++) {
        int vis = K_KINDS[S0->zkind[z]][3];
        if (vis == 0 || (vis == 1 && S0->zowner[z] == who) || (vis == 3 && S0->zowner[z] != who))
            continue;
        const uint16_t *d = CR_ZONE_DATA(C0, z);
        for (int32_t k = 0, n = CR_ZONE_LEN(C0, z); k < n && spots < 2; k++)
            spots += !known[d[k]];
    }
    if (spots < 2) return 0;
    crt_rng rng;
    if (crt_set_state(&rng, rng_words)) return SR_FAIL;
    sr_tree *t = (sr_tree *)calloc(1, sizeof(sr_tree));
    uint64_t *det = (uint64_t *)malloc((size_t)S0->bytes + 8);
    int32_t rc = SR_FAIL;
    if (t && det) {
        memcpy(det, mem, (size_t)S0->bytes);
        cr_state *S = (cr_state *)det;
        cr_guard_enter();
        int bad = sr_determinise(t, S, who, &rng) || CR_STOPPED();
        cr_guard_leave();
        if (!bad && !S->err && S->legal_n <= MAXM) {
            uint8_t used[MAXM]; /* a move of S matched */
            memset(used, 0, sizeof used);
            int32_t mine0 = 0, mine = 0;
            rc = 0;
            for (int32_t j = 0; j < S->legal_n; j++) mine += S->legal_who[j] == who;
            for (int32_t i = 0; i < S0->legal_n && !rc; i++) {
                if (S0->legal_who[i] != who) continue;
                mine0++;
                int32_t j = 0;
                for (; j < S->legal_n; j++)
                    if (!used[j] && sr_same_move(S0, i, S, j)) break;
                if (j == S->legal_n) rc = 1;
                else used[j] = 1;
            }
            if (!rc && mine0 != mine) rc = 1;
        }
    }
    free(det);
    free(t);
    return rc;
}

/* iterations from .. to - 1 (their numbers pick the rollouts' length), drawing from the bot's
 * generator (625 words in, moved on out); 0, or SR_FAIL: Python searches instead. Guarded
 * (cr_guard_enter): after Ctrl-C, SR_FAIL at once (cr_interrupted says why) */
static int sr_run(sr_tree *t, uint32_t *rng_words, int32_t from, int32_t to, int64_t rollout_cap);

/* every sample the true position, its later chance drawn afresh (search.py: ISMCTSBot.peek) */
void cr_search_peek(void *h) {
    ((sr_tree *)h)->peek = 1;
}

/* one more truth (a game of the same ruleset and table at the decision searched, in mem) that the
 * samples are drawn from instead of a determinisation: each iteration one of them at random, its
 * later chance drawn afresh (search.py: ISMCTSBot._pooled); 0, or -1 (out of memory, not a
 * state of this layout) */
int32_t cr_search_add_truth(void *h, const void *mem) {
    sr_tree *t = (sr_tree *)h;
    const cr_state *S = (const cr_state *)mem;
    if (!t || !S || S->magic != CR_MAGIC || (size_t)S->bytes != t->bytes) return -1;
    if (t->truths == t->truths_cap) {
        int32_t cap = t->truths_cap ? 2 * t->truths_cap : 8;
        uint64_t *more = (uint64_t *)realloc(t->truth, sizeof(uint64_t) * t->words * (size_t)cap);
        if (!more) return -1;
        t->truth = more;
        t->truths_cap = cap;
    }
    memcpy(t->truth + t->words * (size_t)t->truths, mem, t->bytes);
    t->truths++;
    return 0;
}

int cr_search_run(void *h, uint32_t *rng_words, int32_t from, int32_t to, int64_t rollout_cap) {
    sr_tree *t = (sr_tree *)h;
    cr_guard_enter();
    int rc = sr_run(t, rng_words, from, to, rollout_cap);
    cr_guard_leave();
    return rc;
}

static int sr_run(sr_tree *t, uint32_t *rng_words, int32_t from, int32_t to, int64_t rollout_cap) {
    crt_rng rng;
    if (!t || crt_set_state(&rng, rng_words)) return SR_FAIL;
    for (int32_t it = from; it < to; it++) {
        if (CR_STOPPED()) return SR_FAIL;
        cr_state *S = (cr_state *)t->det;
        int ok = 0;
        if (t->truths) { /* (search.py: ISMCTSBot._pooled: randrange, then the chance's seed) */
            memcpy(t->det, t->truth + t->words * (size_t)crt_randbelow(&rng, (uint64_t)t->truths), t->bytes);
            S->rng_seed = crt_getrandbits(&rng, 64);
            S->rng_lazy = 1;
            ok = S->finished || S->legal_n > 0;
        } else for (int32_t k = 0; k < t->tries; k++) {
            memcpy(t->det, t->root, t->bytes);
            if (t->peek) {
                S->rng_seed = crt_getrandbits(&rng, 64); /* as sr_determinise's reseeding */
                S->rng_lazy = 1;
            } else if (sr_determinise(t, S, t->me, &rng)) {
                if (gr_alike(S->err)) continue; /* the rules fail in this sample, as in Python: another */
                return SR_FAIL;
            }
            if (S->finished || S->legal_n > 0) { ok = 1; break; }
        }
        if (!ok) continue;
        int has_before = SR_NADVICE ? sr_advice_all(S, t->players, t->before) : 0;
        double alone = 0.0;
        int has_alone = !SR_NADVICE && t->players == 1 && sr_alone(S, &alone);
        if (sr_iterate(t, S, &rng, has_before, t->rollouts[it % 3], rollout_cap, has_alone, alone)) return SR_FAIL;
    }
    crt_get_state(&rng, rng_words);
    return 0;
}

/* the root's children that are legal moves of the position searched: for each, the index among
 * the moves of the player to act there, its visits and its summed reward for the searcher */
int32_t cr_search_root(void *h, int32_t *idx, int64_t *visits, double *reward, int32_t cap) {
    sr_tree *t = (sr_tree *)h;
    cr_state *S = (cr_state *)t->root;
    int32_t nm = sr_mine(t, S), n = 0;
    for (int32_t c = t->nodes[0].first; c >= 0; c = t->nodes[c].next) {
        const sr_node *nd = &t->nodes[c];
        for (int32_t j = 0; j < nm; j++) {
            int32_t i = t->mine[j];
            if (sr_same(nd, S, i)) {
                if (n >= cap) return -1;
                idx[n] = j; visits[n] = nd->visits; reward[n] = t->reward[(size_t)c * t->players + t->me];
                n++;
                break;
            }
        }
    }
    return n;
}
