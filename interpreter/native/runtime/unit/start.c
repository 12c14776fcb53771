/* A game begun: its size (cr_state_bytes), cr_new and cr_new_seeded, and cr_start, which lays out
 * the zones and the cards, seeds the generator and runs the rules to the first decision.
 *
 * Pasted by native/codegen/emit.py (Module.source) after loop.c (with the program's instructions).
 * emit.py puts each variable's first value where the line marked `@generated` is. Not compiled on
 * its own: it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in
 * capitals) and what is pasted before it. */

size_t cr_state_bytes(int32_t players) {
    if (players < MINP || players > MAXP) return 0;
    int32_t per = 0;
    for (int k = 0; k < NKINDS; k++) per += K_KINDS[k][0];
    size_t cards = crt_cards_bytes(NC, (uint32_t)(NSHARED + per * players), NKINDS, (uint32_t)players);
    if (!cards) return 0;
    return ((sizeof(cr_state) + 7) & ~(size_t)7) + cards;
}

static int cr_start(void *mem, size_t bytes, int32_t players, const crt_rng *rng, const uint32_t *seed,
                    size_t n_seed, const int64_t *opts);

int cr_new(void *mem, size_t bytes, int32_t players, const uint32_t *seed, size_t n_seed, const int64_t *opts) {
    return cr_start(mem, bytes, players, NULL, seed, n_seed, opts);
}

/* the same with the game's generator already seeded (cr_play_many seeds several at once) */
int cr_new_seeded(void *mem, size_t bytes, int32_t players, const crt_rng *rng, const int64_t *opts) {
    return cr_start(mem, bytes, players, rng, NULL, 0, opts);
}

static int cr_start(void *mem, size_t bytes, int32_t players, const crt_rng *rng, const uint32_t *seed,
                    size_t n_seed, const int64_t *opts) {
    size_t need = cr_state_bytes(players);
    if (!need || bytes < need || !mem || ((uintptr_t)mem & 7)) return CR_E_STATE;
    cr_state *S = (cr_state *)mem;
    memset(S, 0, sizeof(cr_state));
    S->magic = CR_MAGIC;
    S->bytes = need;
    S->cards_off = (uint32_t)((sizeof(cr_state) + 7) & ~(size_t)7);
    S->n_players = players;
    int32_t n_inst = NSHARED;
    for (int k = 0; k < NKINDS; k++) {
        if (K_KINDS[k][0]) {
            S->zbase[k] = NSHARED + K_KINDS[k][1] * players;
            S->zcount[k] = players;
            n_inst += players;
        } else {
            S->zbase[k] = K_KINDS[k][1];
            S->zcount[k] = K_KINDS[k][2];
        }
    }
    S->n_zones = n_inst;
    int32_t zk[MAXZ], zo[MAXZ];
    uint8_t vis[NKINDS];
    for (int k = 0; k < NKINDS; k++) {
        vis[k] = (uint8_t)K_KINDS[k][3];
        for (int32_t i = 0; i < S->zcount[k]; i++) {
            zk[S->zbase[k] + i] = k;
            zo[S->zbase[k] + i] = K_KINDS[k][0] ? i : -1;
        }
    }
    memcpy(S->zkind, zk, sizeof(int32_t) * (size_t)n_inst);
    memcpy(S->zowner, zo, sizeof(int32_t) * (size_t)n_inst);
    int rc = crt_cards_init(CARDS(S), need - S->cards_off, NC, (uint32_t)n_inst, NKINDS, (uint32_t)players, zk, zo, vis,
                            K_CARDPOS, S->zbase[0]);
    if (rc) return CR_E_STATE;
    if (rng) S->rng = *rng;
    else crt_seed_words(&S->rng, seed, n_seed);
    for (int i = 0; i < NO; i++) S->opt[i] = opts ? opts[i] : 0;
    for (int i = 0; i < NS; i++) S->sv[i] = CR_NONE;
    S->choice = -1;
    S->actor = -1;
    S->pc = START;
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    (void)C;
    if (!cr_ctx_init(x)) return CR_E_STATE;
    int kind = setjmp(x->jb);
    if (kind) {
        S->err = kind;
        return kind;
    }
    cr_epoch++;
    /* @generated: each variable's first value */

    return cr_run(S);
}
