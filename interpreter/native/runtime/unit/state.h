/* The state struct of every generated engine (cr_state: a game's whole position, its legal moves,
 * its `choose by each` sites and its generator, the cards' arrays after it in the same block), its
 * generator seeded when first drawn from (cr_rng), CR_MAGIC and CARDS.
 *
 * Pasted into each engine's C by native/codegen/emit.py (Module.source) right after the sizes it
 * defines for the program (the #define lines at the top). Not compiled on its own: it reads the
 * sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in capitals) and what is
 * pasted before it. */

typedef struct cr_state {
    uint32_t magic, cards_off;
    uint64_t bytes;
    int32_t n_players, n_zones, pc, finished, sp, actor, choice, legal_n, err, declared_set;
    int64_t decisions;
    uint64_t declared;
    int32_t zbase[NKINDS], zcount[NKINDS], zkind[MAXZ], zowner[MAXZ];
    int32_t stack[MAXDEPTH];
    int64_t fired[NR];
    int64_t opt[NO];
    int64_t sv[NS];
    int64_t pv[NPV][MAXP];
    int32_t ln[NL];
    int64_t lv[NL][LCAP];
    int32_t pln[NPVL][MAXP];
    int64_t plv[NPVL][MAXP][LCAP];
    int32_t legal_alt[MAXM], legal_who[MAXM];
    int64_t legal_val[MAXM][NPARAMS];
    /* `choose by each`, per site: who has still to decide; sealed choices (secret) */
    int32_t pend_on[NSITES], pend_n[NSITES], pend[NSITES][MAXP];
    int32_t seal_on[NSITES], seal_n[NSITES], seal_order[NSITES][MAXP];
    int32_t chosen_on[NSITES][MAXP], chosen_alt[NSITES][MAXP];
    int64_t chosen_val[NSITES][MAXP][NPARAMS];
    crt_rng rng;
    int32_t told[NTOLD]; /* `tell`: what player q was told of card c, at c * n_players + q (engine/state.py's State.told) */
    int32_t rng_lazy; /* the generator is to be seeded with rng_seed when first drawn from (a search's samples) */
    uint64_t rng_seed;
} cr_state;

/* the game's generator, seeded now if its seeding was put off */
static inline crt_rng *cr_rng(cr_state *S) {
    if (S->rng_lazy) {
        crt_seed_u64(&S->rng, S->rng_seed);
        S->rng_lazy = 0;
    }
    return &S->rng;
}

#define CR_MAGIC 0x43525354U
#define CARDS(S) ((crt_cards *)((char *)(S) + (S)->cards_off))
