/* The entry points Python calls (native/engine.py): the legal moves, a step, a state's info,
 * slots, variables and stack, a position loaded from the Python engine (cr_set_*), random players
 * (cr_playout) and whole games of them (cr_play_many), the winner rule's score.
 *
 * Pasted by native/codegen/emit.py (Module.source) after apply.c (with a case per choice). Not
 * compiled on its own: it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the
 * names in capitals) and what is pasted before it. */

/* the legal moves: each one's action, player and NPARAMS values */
int32_t cr_legal(const void *mem, int32_t *alts, int32_t *whos, int64_t *vals, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    if (!S || S->magic != CR_MAGIC || cap < S->legal_n) return -1;
    for (int32_t i = 0; i < S->legal_n; i++) {
        alts[i] = S->legal_alt[i];
        whos[i] = S->legal_who[i];
        for (int j = 0; j < NPARAMS; j++) vals[i * NPARAMS + j] = S->legal_val[i][j];
    }
    return S->legal_n;
}

int32_t cr_nparams(void) { return NPARAMS; }

int32_t cr_lcap(void) { return LCAP; }

void cr_info(const void *mem, int64_t *out);

/* each legal move as one number (the choice, the action, the player and one value: a move
 * the Python side has made before is one look-up), or -1 for a move of several values */
static void cr_move_ids(const cr_state *S, int64_t *ids) {
    for (int32_t i = 0; i < S->legal_n; i++) {
        int64_t v = S->legal_val[i][0];
        int many = (NPARAMS > 1 && S->legal_val[i][NPARAMS > 1 ? 1 : 0] != CR_NONE)
                   || (v != CR_NONE && (v < 0 || v >= 0x3FFFFFFF)); /* a large value (a set's mask): the long way */
        ids[i] = many ? -1 : ((int64_t)S->choice << 50 | (int64_t)S->legal_alt[i] << 40 | (int64_t)S->legal_who[i] << 30 |
                              (v == CR_NONE ? 0x3FFFFFFF : (v & 0x3FFFFFFF)));
    }
}

/* one crossing a decision: apply move i (or nothing when i < 0), then the state's info (as
 * cr_info) and the legal moves' ids (cap of them at most); the number of legal moves, or -1 */
int32_t cr_step(void *mem, int32_t i, int64_t *info, int64_t *ids, int32_t cap) {
    cr_state *S = (cr_state *)mem;
    if (i >= 0) cr_apply(mem, i);
    cr_info(mem, info);
    if (S->legal_n > cap) return -1;
    cr_move_ids(S, ids);
    return S->legal_n;
}

/* a `choose by each`: waiting?, the waiting players, sealed?, the deciders' order, then for each
 * seat chosen?, the action and NPARAMS values; the count of numbers written */
int32_t cr_site(const void *mem, int32_t site, int64_t *out) {
    const cr_state *S = (const cr_state *)mem;
    if (site < 0 || site >= NSITES) return -1;
    int32_t n = 0;
    out[n++] = S->pend_on[site];
    out[n++] = S->pend_n[site];
    for (int32_t j = 0; j < S->pend_n[site]; j++) out[n++] = S->pend[site][j];
    out[n++] = S->seal_on[site];
    out[n++] = S->seal_n[site];
    for (int32_t j = 0; j < S->seal_n[site]; j++) out[n++] = S->seal_order[site][j];
    for (int32_t p = 0; p < S->n_players; p++) {
        out[n++] = S->chosen_on[site][p];
        out[n++] = S->chosen_alt[site][p];
        for (int j = 0; j < NPARAMS; j++) out[n++] = S->chosen_val[site][p][j];
    }
    return n;
}

/* pc, finished, actor, choice, legal moves, decisions, failure, declared?, declared seats, zones */
void cr_info(const void *mem, int64_t *out) {
    const cr_state *S = (const cr_state *)mem;
    out[0] = S->pc; out[1] = S->finished; out[2] = S->actor; out[3] = S->choice; out[4] = S->legal_n;
    out[5] = S->decisions; out[6] = S->err; out[7] = S->declared_set; out[8] = (int64_t)S->declared;
    out[9] = S->n_zones;
}

int64_t cr_slot(const void *mem, int32_t slot) {
    const cr_state *S = (const cr_state *)mem;
    return (slot >= 0 && slot < NS) ? S->sv[slot] : CR_NONE;
}

/* every slot's value at once (cr_slot of 0 .. cap - 1); the number of slots the state holds */
int32_t cr_slots(const void *mem, int64_t *out, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    for (int32_t i = 0; i < cap; i++) out[i] = i < NS ? S->sv[i] : CR_NONE;
    return NS;
}

int32_t cr_slot_items(const void *mem, int32_t li, int64_t *out, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    if (li < 0 || li >= NL || cap < S->ln[li]) return -1;
    for (int32_t i = 0; i < S->ln[li]; i++) out[i] = S->lv[li][i];
    return S->ln[li];
}

int64_t cr_player_var(const void *mem, int32_t pvi, int32_t seat) {
    const cr_state *S = (const cr_state *)mem;
    return (pvi >= 0 && pvi < NPV && seat >= 0 && seat < MAXP) ? S->pv[pvi][seat] : CR_NONE;
}

int32_t cr_player_list(const void *mem, int32_t pvli, int32_t seat, int64_t *out, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    if (pvli < 0 || pvli >= NPVL || seat < 0 || seat >= MAXP || cap < S->pln[pvli][seat]) return -1;
    for (int32_t i = 0; i < S->pln[pvli][seat]; i++) out[i] = S->plv[pvli][seat][i];
    return S->pln[pvli][seat];
}

int64_t cr_fired(const void *mem, int32_t rule) {
    const cr_state *S = (const cr_state *)mem;
    return (rule >= 0 && rule < NR) ? S->fired[rule] : 0;
}

/* how often each rule has fired, NRULES numbers (a view brought up to date reads them) */
void cr_fired_all(const void *mem, int64_t *out) {
    const cr_state *S = (const cr_state *)mem;
    for (int32_t r = 0; r < NRULES; r++) out[r] = S->fired[r];
}

int32_t cr_stack(const void *mem, int32_t *out, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    if (cap < S->sp) return -1;
    for (int32_t i = 0; i < S->sp; i++) out[i] = S->stack[i];
    return S->sp;
}

/* ---- a position from the Python engine (native/engine.py:NativeGame.load): the slots, the
 * control, the sites of `choose by each`; then cr_resume works the decision out again */
void cr_set_slot(void *mem, int32_t slot, int64_t v) {
    cr_state *S = (cr_state *)mem;
    if (slot >= 0 && slot < NS) S->sv[slot] = v;
}

int cr_set_list(void *mem, int32_t li, const int64_t *v, int32_t n) {
    cr_state *S = (cr_state *)mem;
    if (li < 0 || li >= NL || n < 0 || n > LCAP) return -1;
    for (int32_t i = 0; i < n; i++) S->lv[li][i] = v[i];
    S->ln[li] = n;
    return 0;
}

int cr_set_player_var(void *mem, int32_t pvi, int32_t seat, int64_t v) {
    cr_state *S = (cr_state *)mem;
    if (pvi < 0 || pvi >= NPV || seat < 0 || seat >= MAXP) return -1;
    S->pv[pvi][seat] = v;
    return 0;
}

int cr_set_player_list(void *mem, int32_t pvli, int32_t seat, const int64_t *v, int32_t n) {
    cr_state *S = (cr_state *)mem;
    if (pvli < 0 || pvli >= NPVL || seat < 0 || seat >= MAXP || n < 0 || n > LCAP) return -1;
    for (int32_t i = 0; i < n; i++) S->plv[pvli][seat][i] = v[i];
    S->pln[pvli][seat] = n;
    return 0;
}

/* pc, finished, decisions, declared?, declared seats, the procedure stack, each rule's count */
int cr_set_control(void *mem, int32_t pc, int32_t finished, int64_t decisions, int32_t declared_set, uint64_t declared,
                   const int32_t *stack, int32_t sp, const int64_t *fired) {
    cr_state *S = (cr_state *)mem;
    if (sp < 0 || sp > MAXDEPTH) return -1;
    S->pc = pc; S->finished = finished; S->decisions = decisions; S->err = 0;
    S->declared_set = declared_set; S->declared = declared;
    for (int32_t i = 0; i < sp; i++) S->stack[i] = stack[i];
    S->sp = sp;
    for (int r = 0; r < NRULES; r++) S->fired[r] = fired[r];
    S->legal_n = 0; S->choice = -1; S->actor = -1;
    return 0;
}

/* a `choose by each`: waiting (n players), sealed (the order; each seat's choice: on, action, values) */
int cr_set_site(void *mem, int32_t site, int32_t on, const int32_t *pend, int32_t n, int32_t seal_on,
                const int32_t *order, int32_t n_order, const int32_t *chosen_on, const int32_t *chosen_alt,
                const int64_t *chosen_val) {
    cr_state *S = (cr_state *)mem;
    if (site < 0 || site >= NSITES || n < 0 || n > MAXP || n_order < 0 || n_order > MAXP) return -1;
    S->pend_on[site] = on; S->pend_n[site] = n;
    for (int32_t j = 0; j < n; j++) S->pend[site][j] = pend[j];
    S->seal_on[site] = seal_on; S->seal_n[site] = n_order;
    for (int32_t j = 0; j < n_order; j++) S->seal_order[site][j] = order[j];
    for (int32_t p = 0; p < S->n_players; p++) {
        S->chosen_on[site][p] = chosen_on[p];
        S->chosen_alt[site][p] = chosen_alt[p];
        for (int j = 0; j < NPARAMS; j++) S->chosen_val[site][p][j] = chosen_val[p * NPARAMS + j];
    }
    return 0;
}

/* the player named to act at a `choose by each` (a Python position may name another of the
 * deciders than the first, as determinise leaves it) */
void cr_set_actor(void *mem, int32_t actor) {
    cr_state *S = (cr_state *)mem;
    if (actor >= 0 && actor < S->n_players) S->actor = actor;
}

int cr_set_rng(void *mem, const uint32_t *words) {
    ((cr_state *)mem)->rng_lazy = 0;
    return crt_set_state(&((cr_state *)mem)->rng, words);
}

/* after a load: the instruction at pc again (a decision: its moves worked out); after a call
 * interrupted between two instructions (CR_E_INTR), the rules on from there */
int cr_resume(void *mem) {
    cr_state *S = (cr_state *)mem;
    if (S->err == CR_E_INTR) S->err = 0;
    if (S->finished) { S->legal_n = 0; return 0; }
    return cr_run(S);
}

/* what every player was told of every card (NC * players numbers), or -1 when no rule tells */
int32_t cr_told(const void *mem, int32_t *out, int32_t cap) {
    const cr_state *S = (const cr_state *)mem;
    int32_t n = NC * S->n_players;
    if (!TELLS || cap < n) return -1;
    for (int32_t i = 0; i < n; i++) out[i] = S->told[i];
    return n;
}

int cr_set_told(void *mem, const int32_t *in, int32_t n) {
    cr_state *S = (cr_state *)mem;
    if (!TELLS || n != NC * S->n_players) return -1;
    for (int32_t i = 0; i < n; i++) S->told[i] = in[i];
    return 0;
}

void cr_rng_words(void *mem, uint32_t *out) { crt_get_state(cr_rng((cr_state *)mem), out); }

void *cr_cards(void *mem) { return CARDS((cr_state *)mem); }

/* where the cards' arrays lie, in bytes from the state's start, for a view read without a call
 * per card: zone_len, zone_cards, known, played_by, card_zone, zmask, kmask, omask, upmask; then
 * the words of a mask; then flash (the cards shown during the last move) */
void cr_view_layout(void *mem, int64_t *out) {
    cr_state *S = (cr_state *)mem;
    const crt_cards *C = CARDS(S);
    int64_t base = (int64_t)S->cards_off;
    out[0] = base + C->off_zone_len; out[1] = base + C->off_zone_cards; out[2] = base + C->off_known;
    out[3] = base + C->off_played_by; out[4] = base + C->off_card_zone; out[5] = base + C->off_zmask;
    out[6] = base + C->off_kmask; out[7] = base + C->off_omask; out[8] = base + C->off_upmask;
    out[9] = C->words; out[10] = base + C->off_flash;
}

size_t cr_bytes(const void *mem) { return ((const cr_state *)mem)->bytes; }

/* random players, as interpreter/players/bots.py's RandomBot: at each decision the player to act draws
 * one of their legal moves with their own generator (rng[actor], or rng[0] for everyone when
 * n_rngs is 1); each move made to `moves` (3 + NPARAMS numbers: choice, action, player, values;
 * at most cap moves) */
static int cr_random_players(cr_state *S, crt_rng *rng, int32_t n_rngs, int64_t max_decisions, int64_t *moves,
                             int64_t cap, int64_t *n_out) {
    int64_t n = 0;
    int rc = 0;
    while (!S->finished && !S->err && S->legal_n > 0 && n < max_decisions) {
        if (CR_STOPPED()) { rc = CR_E_INTR; break; } /* at a decision: the game goes on from here */
        int32_t who = n_rngs > 1 ? S->actor : 0;
        if (who < 0 || who >= n_rngs) { rc = CR_E_STATE; break; }
        /* bots.RandomBot: one of the moves of the player to act (moves_for) */
        int32_t mine = 0, i = 0;
        if (S->choice >= 0 && S->choice < NCHOICES && !K_SHARED[S->choice]) { /* every move is the actor's */
            int32_t pick = (int32_t)crt_choice_index(&rng[who], (size_t)S->legal_n);
            i = pick;
        } else {
            for (int32_t j = 0; j < S->legal_n; j++) mine += S->legal_who[j] == S->actor;
            if (!mine) break;
            int32_t pick = (int32_t)crt_choice_index(&rng[who], (size_t)mine);
            for (int32_t j = 0; j < S->legal_n; j++)
                if (S->legal_who[j] == S->actor && pick-- == 0) { i = j; break; }
        }
        if (moves && n < cap) {
            int64_t *row = moves + n * (3 + NPARAMS);
            row[0] = S->choice;
            row[1] = S->legal_alt[i];
            row[2] = S->legal_who[i];
            for (int j = 0; j < NPARAMS; j++) row[3 + j] = S->legal_val[i][j];
        }
        n++;
        rc = cr_apply(S, i);
        if (rc) break;
    }
    *n_out = n;
    return rc;
}

/* the same from Python's generators: rngs holds n_rngs states of 625 words (crt_get_state's
 * form), given back moved on. Guarded (cr_guard_enter): CR_E_INTR after Ctrl-C, the moves made
 * so far in n_out, the game at a decision, or between two instructions (S->err: cr_resume) */
int cr_playout(void *mem, uint32_t *rngs, int32_t n_rngs, int64_t max_decisions, int64_t *moves, int64_t cap,
               int64_t *n_out) {
    cr_state *S = (cr_state *)mem;
    crt_rng rng[MAXP];
    *n_out = 0;
    if (!S || S->magic != CR_MAGIC || n_rngs < 1 || n_rngs > MAXP) return CR_E_STATE;
    for (int32_t k = 0; k < n_rngs; k++)
        if (crt_set_state(&rng[k], rngs + (size_t)k * CRT_STATE_WORDS)) return CR_E_STATE;
    cr_guard_enter();
    int rc = cr_random_players(S, rng, n_rngs, max_decisions, moves, cap, n_out);
    cr_guard_leave();
    for (int32_t k = 0; k < n_rngs; k++) crt_get_state(&rng[k], rngs + (size_t)k * CRT_STATE_WORDS);
    return rc;
}

/* a seat's score by the winner rule (CR_NONE: none, or it failed) */
int64_t cr_score(void *mem, int32_t seat) {
    cr_state *S = (cr_state *)mem;
    if (!S || S->magic != CR_MAGIC || seat < 0 || seat >= S->n_players) return CR_NONE;
#if HAS_SCORE
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    if (!cr_ctx_init(x)) return CR_NONE;
    if (setjmp(x->jb)) return CR_NONE;
    cr_epoch++;
    return SCORE_FN(x, S, C, seat);
#else
    return 0;
#endif
}

/* whole games of random players, games seed0 .. seed0 + n_games - 1, each seeded as
 * random.Random(seed) and its players' bots as bots.bot_seed(seed, seat): per game, `out` gets
 * 5 + players + NRULES numbers: the failure (0 none), finished, decisions, declared?, the
 * declared seats, each seat's score, then how often each rule fired. Guarded (cr_guard_enter):
 * after Ctrl-C, CR_E_INTR, with the games not played to their end marked CR_E_INTR */
int cr_play_many(int32_t players, const int64_t *opts, int64_t seed0, int64_t n_games, int64_t max_decisions,
                 int64_t *out) {
    size_t bytes = cr_state_bytes(players);
    if (!bytes || seed0 < 0 || n_games < 0 || seed0 > (INT64_MAX - 1000) / 1000 - n_games) return CR_E_STATE;
    enum { BLOCK = 16 }; /* games seeded together: the seeding's vector steps are full */
    uint64_t *mem = (uint64_t *)malloc(bytes + 8);
    crt_rng *rngs = (crt_rng *)malloc(sizeof(crt_rng) * BLOCK * (MAXP + 1));
    uint64_t seeds[BLOCK * (MAXP + 1)];
    if (!mem || !rngs) { free(mem); free(rngs); return CR_E_STATE; }
    int stopped = 0;
    cr_guard_enter();
    for (int64_t g = 0; g < n_games; g++) {
        if (stopped || CR_STOPPED()) { /* this game and the rest are not played */
            stopped = 1;
            out[g * (5 + players + NRULES)] = CR_E_INTR;
            continue;
        }
        int64_t seed = seed0 + g, in_block = g % BLOCK;
        if (!in_block) { /* the next block's games' generators, then each of their bots' */
            int64_t m = n_games - g < BLOCK ? n_games - g : BLOCK;
            for (int64_t b = 0; b < m; b++) {
                seeds[b * (players + 1)] = (uint64_t)(seed + b);
                for (int32_t k = 0; k < players; k++) seeds[b * (players + 1) + k + 1] = (uint64_t)((seed + b) * 1000 + k);
            }
            crt_seed_u64_many(rngs, seeds, (size_t)(m * (players + 1)));
        }
        crt_rng *rng = rngs + in_block * (players + 1);
        int rc = cr_new_seeded(mem, bytes, players, &rng[0], opts);
        int64_t n = 0;
        cr_state *S = (cr_state *)mem;
        if (!rc) rc = cr_random_players(S, rng + 1, players, max_decisions, NULL, 0, &n);
        int64_t *row = out + g * (5 + players + NRULES);
        if (rc == CR_E_INTR) { stopped = 1; row[0] = CR_E_INTR; continue; }
        row[0] = rc; row[1] = S->finished; row[2] = S->decisions; row[3] = S->declared_set;
        row[4] = (int64_t)S->declared;
        for (int32_t k = 0; k < players; k++) row[5 + k] = rc ? CR_NONE : cr_score(mem, k);
        for (int32_t r = 0; r < NRULES; r++) row[5 + players + r] = S->fired[r];
    }
    cr_guard_leave();
    free(mem);
    free(rngs);
    return stopped ? CR_E_INTR : 0;
}
