/* Games in batches (interpreter/adapters/vector.py) in C: every game of a block stepped by one
 * call, its legal moves turned into the adapters' action ids and mask, and the observation tensor
 * of adapters/encoding.py written straight into the caller's array.
 *
 * The C knows nothing of action ids or observers: Python gives it the tables (a hash of the move
 * ids met so far to their action ids; each observer's place and sight of each zone; the variables'
 * codes, VAR_* in adapters/c_observations.py), and keeps what C cannot give (a move id not met
 * yet, a move of several values, a collection variable) for itself.
 *
 * Pasted by native/codegen/emit.py (Module.source) last, after seeker.c. Not compiled on its own:
 * it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in capitals)
 * and what is pasted before it. */

/* ================================================================ games in batches */
/* where a state's variables and `choose by each` sites lie, in bytes from its start: sv, pv,
 * pend_on, pend_n, pend; then NS, NPV, MAXP, NSITES */
void cr_batch_layout(int64_t *out) {
    out[0] = (int64_t)offsetof(cr_state, sv); out[1] = (int64_t)offsetof(cr_state, pv);
    out[2] = (int64_t)offsetof(cr_state, pend_on); out[3] = (int64_t)offsetof(cr_state, pend_n);
    out[4] = (int64_t)offsetof(cr_state, pend);
    out[5] = NS; out[6] = NPV; out[7] = MAXP; out[8] = NSITES;
}

/* games[j] of the batch begun afresh from seeds[j] (below 2^63: seeded as random.Random seeds
 * with an int), their generators seeded BLOCK at a time side by side as cr_play_many seeds them
 * (the same generators as one by one; the seeding was a tenth of a batch's time) */
void cr_new_many(void *base, int64_t stride, const int64_t *games, const int64_t *seeds, int32_t k, int32_t players,
                 const int64_t *opts) {
    enum { BLOCK = 16 };
    size_t bytes = cr_state_bytes(players);
    crt_rng *rngs = (crt_rng *)malloc(sizeof(crt_rng) * BLOCK);
    for (int32_t j0 = 0; j0 < k; j0 += BLOCK) {
        int32_t m = k - j0 < BLOCK ? k - j0 : BLOCK;
        if (rngs) {
            uint64_t sd[BLOCK];
            for (int32_t b = 0; b < m; b++) sd[b] = (uint64_t)seeds[j0 + b];
            crt_seed_u64_many(rngs, sd, (size_t)m);
        }
        for (int32_t b = 0; b < m; b++) {
            char *mem = (char *)base + games[j0 + b] * stride;
            if (rngs) cr_new_seeded(mem, bytes, players, &rngs[b], opts);
            else { /* (no room for the block: one at a time) */
                uint64_t sd = (uint64_t)seeds[j0 + b];
                uint32_t w[2] = {(uint32_t)(sd & 0xFFFFFFFFu), (uint32_t)(sd >> 32)};
                cr_new(mem, bytes, players, w, w[1] ? 2 : 1, opts);
            }
        }
    }
    free(rngs);
}

/* every seat's score (cr_score) in games[j] of the batch, to out[players j ...] */
void cr_score_many(void *base, int64_t stride, const int64_t *games, int32_t k, int32_t players, int64_t *out) {
    for (int32_t j = 0; j < k; j++)
        for (int32_t q = 0; q < players; q++) out[(int64_t)j * players + q] = cr_score((char *)base + games[j] * stride, q);
}

/* the action id of a move id in the table (open addressing, 2^bits slots, -2 empty), or -1 */
static int32_t bt_action(const int64_t *keys, const int32_t *acts, int32_t bits, int64_t id) {
    uint64_t mask = ((uint64_t)1 << bits) - 1, h = ((uint64_t)id * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    for (;;) {
        int64_t k = keys[h];
        if (k == id) return acts[h];
        if (k == -2) return -1;
        h = (h + 1) & mask;
    }
}

/* a batch of games laid one after another, `stride` bytes apart. Game g plays the legal move
 * whose action id is act[g] (none when -1; the game is left alone when below -1; an action
 * not among its legal ones: count -2), then gives its cr_info (info[10 g ...]), its legal
 * moves' ids (ids[cap g ...]), their count (or -1: more than cap), each one's action id when it
 * is a move of the seat to act met before (lact[cap g ...], else -1) and the seat's mask
 * (mask[n_actions g ...]); flag[g] is 1 when Python must read the moves itself (a move id not
 * in the table, a move of several values, too many moves). Unless ob is NULL, each game stepped
 * is then observed as its seat to act (info's actor) sees it, while its state is still in the
 * cache: ob is cr_observe_many's obs, width, head, place, sees, site_of and codes, packed, then
 * where the seat it observed goes (seats[g], int64; 0: nowhere).
 * Returns how many of the games stepped are over or failed (ended by the rules, a failure, no
 * legal move, or max_len decisions made): when none is, the caller need not look */
static void cr_observe_at(const void *mem, int32_t who, const int64_t *ob, int64_t g);

/* the next game's lines its step and its observation read most, asked for while this game (mem)
 * is stepped: the games lie a stride apart, past what a hardware prefetcher follows, and in a
 * batch bigger than the cache each would otherwise come from memory a miss at a time. Its
 * state's head; its cards (the zones' lists only when short: BT_ZONES_MAX bytes); the start of
 * its rows of legal moves' action ids (read) and move ids (written). Every game of a batch has
 * this one's layout. Measured in one process against the library without it, alternating steps
 * (benchmarks/batch_ab.py, batches of 1,024): the library without it took 1.08-1.10x the time a step
 * on Goofspiel, 1.13-1.20x on Crazy Eights, 1.10x on Hearts, 1.08x on Ganjifa */
#define BT_ZONES_MAX 2048
static inline void bt_prefetch(const char *mem, int64_t stride, const int32_t *lact, const int64_t *ids) {
    const cr_state *S = (const cr_state *)mem;
    const crt_cards *C = CARDS((cr_state *)S);
    const char *next = mem + stride, *cards = next + S->cards_off;
    for (size_t at = 0; at < offsetof(cr_state, lv) && at < 1024; at += 64) __builtin_prefetch(next + at, 0);
    uint32_t lists_end = C->off_zone_len - C->off_zone_cards > BT_ZONES_MAX ? C->off_zone_cards : C->off_zone_len;
    for (uint32_t at = 0; at < lists_end; at += 64) __builtin_prefetch(cards + at, 0);
    for (uint32_t at = C->off_zone_len; at < C->bytes; at += 64) __builtin_prefetch(cards + at, 0);
    __builtin_prefetch(lact, 0);
    __builtin_prefetch(lact + 16, 0);
    __builtin_prefetch(ids, 1);
    __builtin_prefetch(ids + 8, 1);
}

int32_t cr_step_many(void *base, int64_t stride, int32_t n, const int64_t *act, int64_t *info, int64_t *ids,
                     int32_t *counts, int32_t cap, int32_t *lact, int8_t *mask, int32_t n_actions, uint8_t *flag,
                     const int64_t *keys, const int32_t *acts, int32_t bits, const int64_t *ob, int64_t max_len) {
    int32_t over = 0;
    for (int32_t g = 0; g < n; g++) {
        if (act[g] < -1) continue;
        if (g + 1 < n)
            bt_prefetch((const char *)base + g * stride, stride, lact + (int64_t)(g + 1) * cap, ids + (int64_t)(g + 1) * cap);
        int32_t *la = lact + (int64_t)g * cap;
        int64_t *id = ids + (int64_t)g * cap;
        int32_t k = -1;
        if (act[g] >= 0) {
            for (int32_t i = 0; i < counts[g]; i++)
                if (la[i] == act[g]) { k = i; break; }
            if (k < 0) { counts[g] = -2; continue; }
        }
        int64_t *in = info + (int64_t)g * 10;
        int32_t c = cr_step((char *)base + g * stride, k, in, id, cap);
        counts[g] = c;
        int8_t *m = mask + (int64_t)g * n_actions;
        memset(m, 0, (size_t)n_actions);
        flag[g] = c < 0;
        int64_t actor = in[2];
        for (int32_t i = 0; i < c; i++) {
            int32_t a = -1;
            if (id[i] < 0) flag[g] = 1;
            else if (((id[i] >> 30) & 0x3FF) == actor) { /* (C lists every waiting seat's moves at a `choose by each`) */
                a = bt_action(keys, acts, bits, id[i]);
                if (a < 0) flag[g] = 1;
                else m[a] = 1;
            }
            la[i] = a;
        }
        if (ob) {
            cr_observe_at((char *)base + g * stride, (int32_t)actor, ob, g);
            if (ob[7]) ((int64_t *)(intptr_t)ob[7])[g] = actor; /* (the batch's seats: no pass over info for them) */
        }
        over += in[1] || in[6] || c == 0 || in[5] >= max_len;
    }
    return over;
}

/* the first game g whose action act[g] is not one of its mask's (mask[n_actions g ...]), or -1:
 * checked before any game moves */
int32_t cr_first_illegal(const int8_t *mask, int32_t n_actions, const int64_t *act, int32_t n) {
    for (int32_t g = 0; g < n; g++)
        if (act[g] < 0 || act[g] >= n_actions || !mask[(int64_t)g * n_actions + act[g]]) return g;
    return -1;
}

/* adapters/encoding.py's observation tensor of n games of a batch (game games[g], or game g when
 * games is NULL), each as seat who[g] sees it (-1: everyone), into obs[width g ...]. head: players, cards, places, then the
 * offsets of seat, to_move, deciding, decision, finished, cards, top, zone_sizes, vars, then
 * the count of variable codes. place, sees: each observer's (seats, then everyone) place and
 * sight of each zone; site_of: each choice's `choose by each` site or -1; codes: per variable
 * its index (sv, or pv for a per-player one), kind (VAR_*), per-player, offset and width */
void cr_observe_many(void *base, int64_t stride, const int64_t *games, int32_t n, const int32_t *who, float *obs,
                     int64_t width, const int64_t *head, const int32_t *place, const uint8_t *sees, const int32_t *site_of,
                     const int64_t *codes) {
    const int32_t P = (int32_t)head[0], NCARDS = (int32_t)head[1], NPL = (int32_t)head[2];
    const int64_t o_seat = head[3], o_to = head[4], o_dec = head[5], o_choice = head[6], o_fin = head[7],
                  o_cards = head[8], o_top = head[9], o_sizes = head[10], o_vars = head[11], n_codes = head[12];
    for (int32_t g = 0; g < n; g++) {
        const cr_state *S = (const cr_state *)((char *)base + (games ? games[g] : g) * stride);
        const crt_cards *C = CARDS((cr_state *)S);
        float *out = obs + g * width;
        memset(out, 0, sizeof(float) * (size_t)width);
        int32_t ob = who[g], b = ob < 0 ? 0 : ob, row = ob < 0 ? P : ob;
        const int32_t *pl = place + (int64_t)row * NPL;
        const uint8_t *se = sees + (int64_t)row * NPL;
        if (ob >= 0) out[o_seat + ob] = 1.0f;
        if (S->finished || S->err) out[o_fin] = 1.0f;
        else {
            int32_t a = S->actor;
            out[o_to + ((a - b) % P + P) % P] = 1.0f;
            int32_t site = S->choice >= 0 ? site_of[S->choice] : -1;
            if (site >= 0 && S->pend_on[site] && S->pend_n[site] > 0) {
                for (int32_t j = 0; j < S->pend_n[site]; j++) out[o_dec + ((S->pend[site][j] - b) % P + P) % P] = 1.0f;
            } else out[o_dec + ((a - b) % P + P) % P] = 1.0f;
            if (S->choice >= 0) out[o_choice + S->choice] = 1.0f;
        }
        const uint16_t *zl = CRT_AT(C, uint16_t, off_zone_len);
        const uint16_t *zc = CRT_AT(C, uint16_t, off_zone_cards);
        const uint8_t *kn = CRT_AT(C, uint8_t, off_known);
        float *cell = out + o_cards;
        for (int32_t z = 0; z < NPL; z++) { /* zone by zone: whether the seat sees a zone is one branch a zone, not a card */
            const uint16_t *in = zc + (int64_t)z * NCARDS;
            int32_t len = zl[z], shown = pl[z];
            if (se[z])
                for (int32_t i = 0; i < len; i++) cell[(int64_t)in[i] * (NPL + 1) + shown] = 1.0f;
            else
                for (int32_t i = 0; i < len; i++) {
                    int32_t c = in[i];
                    cell[(int64_t)c * (NPL + 1) + (kn[c] ? shown : NPL)] = 1.0f;
                }
            if (len && (se[z] || kn[in[len - 1]])) out[o_top + in[len - 1]] = 1.0f;
            out[o_sizes + shown] = (float)len / (float)NCARDS;
        }
        for (int64_t k = 0; k < n_codes; k++) {
            const int64_t *cd = codes + 5 * k;
            int32_t index = (int32_t)cd[0], kind = (int32_t)cd[1], per = (int32_t)cd[2], w = (int32_t)cd[4];
            int64_t at = o_vars + cd[3];
            for (int32_t r = 0; r < (per ? P : 1); r++, at += w) {
                int64_t v = per ? S->pv[index][(b + r) % P] : S->sv[index];
                if (kind == 0) { /* VAR_INT: clipped to +-1e9 */
                    if (v != CR_NONE) out[at] = (float)(v > 1000000000 ? 1000000000 : v < -1000000000 ? -1000000000 : v);
                } else if (kind == 1) { /* VAR_BOOL */
                    if (v != CR_NONE && v) out[at] = 1.0f;
                } else if (v == CR_NONE) out[at + w - 1] = 1.0f;
                else if (kind == 2) out[at + ((v - b) % P + P) % P] = 1.0f; /* VAR_PLAYER */
                else if (kind == 3) out[at + v] = 1.0f; /* VAR_INDEX: a card, suit or rank */
                else out[at + pl[v]] = 1.0f; /* VAR_ZONE */
            }
        }
    }
}

/* game mem as seat who sees it into row g of ob's obs (ob: cr_step_many's) */
static void cr_observe_at(const void *mem, int32_t who, const int64_t *ob, int64_t g) {
    cr_observe_many((void *)mem, 0, NULL, 1, &who, (float *)(intptr_t)ob[0] + g * ob[1], ob[1],
                    (const int64_t *)(intptr_t)ob[2], (const int32_t *)(intptr_t)ob[3], (const uint8_t *)(intptr_t)ob[4],
                    (const int32_t *)(intptr_t)ob[5], (const int64_t *)(intptr_t)ob[6]);
}

/* ================================================================ one game, action ids and mask */
/* the place of legal move i's action in tab (adapters/c_actions.py: ActionTable): the number of
 * choices and the most actions one has, then for each choice's each action (offset of its ids,
 * lowest value, how many values, offset of its moves' numbers), then the ids and the numbers'
 * offsets. An action's ids are tab[offset + value - lowest] (-1 for none), its moves are numbered
 * moves + who * (how many values) + value - lowest; an action without a parameter (lowest
 * CR_NONE) has the one value; an offset below 0: a move of several values, or none mapped.
 * Returns the index of the value (0 .. how many - 1), or -1; *e the action's entry. */
static int64_t ca_place(const cr_state *S, int32_t i, const int64_t *tab, const int64_t **e) {
    int64_t ch = S->choice, a = S->legal_alt[i], v = S->legal_val[i][0];
    if (ch < 0 || ch >= tab[0] || a < 0 || a >= tab[1]) return -1;
    if (NPARAMS > 1 && S->legal_val[i][NPARAMS > 1 ? 1 : 0] != CR_NONE) return -1;
    const int64_t *x = tab + 2 + 4 * (ch * tab[1] + a);
    *e = x;
    if (x[0] < 0) return -1;
    if (x[1] == CR_NONE) return v == CR_NONE ? 0 : -1;
    if (v == CR_NONE || v < x[1] || v - x[1] >= x[2]) return -1;
    return v - x[1];
}

/* one game's decision for an adapter (adapters/c_actions.py): the legal move of the seat to act
 * whose action id is act played (none when act < 0; of several such moves the last, the first
 * place of it when one move is listed twice, as the Python side picks it), then as cr_step (info,
 * the move ids, cap of them at most); that seat's mask over the n_actions action ids after it,
 * and each legal move's number (nums; -1 for none), which Python has a Move object for when
 * have[number]. out[0]: the place of the move played among the legal moves before it; out[1]:
 * bit 1 when the mask is not whole and Python must map the moves itself (a move of several values
 * or without an id, more than cap moves), bit 2 when a legal move has no number or no Move yet.
 * Returns the number of legal moves (as cr_step), or -2 when act is not legal (nothing played). */
int32_t cr_step_action(void *mem, int32_t act, int64_t *info, int64_t *ids, int32_t cap, int8_t *mask,
                       int32_t n_actions, int32_t *out, const int64_t *tab, int32_t *nums, const uint8_t *have) {
    cr_state *S = (cr_state *)mem;
    const int64_t *e = NULL;
    int32_t k = -1;
    if (act >= 0) {
        for (int32_t i = 0; i < S->legal_n; i++) {
            if (S->legal_who[i] != S->actor) continue;
            int64_t at = ca_place(S, i, tab, &e);
            if (at >= 0 && tab[e[0] + at] == act
                && (k < 0 || S->legal_alt[i] != S->legal_alt[k] || S->legal_val[i][0] != S->legal_val[k][0]))
                k = i;
        }
        if (k < 0) return -2;
    }
    int32_t c = cr_step(mem, k, info, ids, cap);
    out[0] = k;
    out[1] = c < 0 ? 3 : 0;
    memset(mask, 0, (size_t)n_actions);
    for (int32_t i = 0; i < c; i++) {
        int64_t at = ca_place(S, i, tab, &e);
        if (at < 0) { nums[i] = -1; out[1] |= 2; if (S->legal_who[i] == S->actor) out[1] |= 1; continue; }
        int64_t num = e[3] + (int64_t)S->legal_who[i] * e[2] + at;
        nums[i] = (int32_t)num;
        if (!have[num]) out[1] |= 2;
        if (S->legal_who[i] != S->actor) continue; /* (another seat's, at a `choose by each`) */
        int64_t a = tab[e[0] + at];
        if (a < 0 || a >= n_actions) out[1] |= 1;
        else mask[a] = 1;
    }
    return c;
}

/* cr_step_action and one game's cr_observe_many with their arguments packed in one array (each a
 * number or an address): a call from Python then converts two arguments, not a dozen.
 * a: mem, info, ids, cap, mask, n_actions, out, tab, nums, have; then, unless a[10] is 0, where
 * the observation of the seat to act is written when the game goes on (cr_observe_many's obs,
 * width, head, place, sees, site_of, codes): the observation an adapter asks for next, without
 * a call of its own */
int32_t cr_step_action_packed(int32_t act, const int64_t *a) {
    int32_t c = cr_step_action((void *)(intptr_t)a[0], act, (int64_t *)(intptr_t)a[1], (int64_t *)(intptr_t)a[2],
                               (int32_t)a[3], (int8_t *)(intptr_t)a[4], (int32_t)a[5], (int32_t *)(intptr_t)a[6],
                               (const int64_t *)(intptr_t)a[7], (int32_t *)(intptr_t)a[8], (const uint8_t *)(intptr_t)a[9]);
    const cr_state *S = (const cr_state *)(intptr_t)a[0];
    if (a[10] && c > 0 && !S->finished && !S->err) {
        int32_t who = S->actor;
        cr_observe_many((void *)(intptr_t)a[0], 0, NULL, 1, &who, (float *)(intptr_t)a[10], a[11],
                        (const int64_t *)(intptr_t)a[12], (const int32_t *)(intptr_t)a[13],
                        (const uint8_t *)(intptr_t)a[14], (const int32_t *)(intptr_t)a[15],
                        (const int64_t *)(intptr_t)a[16]);
    }
    return c;
}

/* a: mem, obs, width, head, place, sees, site_of, codes; the game as seat who sees it (-1: everyone) */
void cr_observe_one(int32_t who, const int64_t *a) {
    cr_observe_many((void *)(intptr_t)a[0], 0, NULL, 1, &who, (float *)(intptr_t)a[1], a[2],
                    (const int64_t *)(intptr_t)a[3], (const int32_t *)(intptr_t)a[4], (const uint8_t *)(intptr_t)a[5],
                    (const int32_t *)(intptr_t)a[6], (const int64_t *)(intptr_t)a[7]);
}
