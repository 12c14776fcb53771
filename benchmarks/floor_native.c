/* The floor game of benchmarks/floor.py written by hand in C on the native runtime
 * (interpreter/native/runtime): three players, 120 cards, each in turn plays any card of their
 * hand onto a pile. The same seeds deal the same hands and the random players choose the same
 * cards as the Python floor (random.Random(seed).shuffle, then random.Random(seed).choice over
 * the hand in its order), so the piles are identical: tests/test_benchmarks.py checks it.
 *
 * Two ways in, as the native engine will have: whole games in one call (floor_play_games), and
 * one decision at a time from Python (floor_new, floor_legal, floor_apply) through ctypes. */

#define FLOOR_PLAYERS 3
#define FLOOR_CARDS 120
#define FLOOR_HAND (FLOOR_CARDS / FLOOR_PLAYERS)

typedef struct floor_table {
    uint32_t hand[FLOOR_PLAYERS][FLOOR_HAND];
    int count[FLOOR_PLAYERS];
    uint32_t pile[FLOOR_CARDS];
    int piled;
    int turn;
    int finished;
} floor_table;

void floor_new(floor_table *t, uint64_t seed) {
    crt_rng rng;
    uint32_t cards[FLOOR_CARDS];
    int p, i;
    for (i = 0; i < FLOOR_CARDS; i++) cards[i] = (uint32_t)i;
    crt_seed_u64(&rng, seed);
    crt_shuffle_u32(&rng, cards, FLOOR_CARDS);
    for (p = 0; p < FLOOR_PLAYERS; p++) {
        for (i = 0; i < FLOOR_HAND; i++) t->hand[p][i] = cards[p * FLOOR_HAND + i];
        t->count[p] = FLOOR_HAND;
    }
    t->piled = 0;
    t->turn = 0;
    t->finished = 0;
}

/* The legal moves now (the cards of the hand to move, in its order); their number. */
int floor_legal(const floor_table *t, uint32_t *out) {
    int i, n = t->finished ? 0 : t->count[t->turn];
    for (i = 0; i < n; i++) out[i] = t->hand[t->turn][i];
    return n;
}

/* Play card c for the player to move: 0, or -1 when it is not in their hand (nothing changes). */
int floor_apply(floor_table *t, uint32_t c) {
    int i, p = t->turn, n;
    if (t->finished) return -1;
    n = t->count[p];
    for (i = 0; i < n && t->hand[p][i] != c; i++) {}
    if (i == n) return -1;
    for (; i + 1 < n; i++) t->hand[p][i] = t->hand[p][i + 1]; /* list.remove keeps the order */
    t->count[p] = n - 1;
    t->pile[t->piled++] = c;
    t->turn = (p + 1) % FLOOR_PLAYERS;
    if (t->count[t->turn] == 0) t->finished = 1;
    return 0;
}

/* Games seed .. seed+games-1 between random players, in one call; the decisions made. The
 * last game's pile is left in last_pile (FLOOR_CARDS cards) when it is not NULL. */
int64_t floor_play_games(uint64_t seed, int64_t games, uint32_t *last_pile) {
    floor_table t;
    crt_rng rng;
    int64_t g, decisions = 0;
    for (g = 0; g < games; g++) {
        floor_new(&t, seed + (uint64_t)g);
        crt_seed_u64(&rng, seed + (uint64_t)g);
        while (!t.finished) {
            int p = t.turn;
            size_t k = crt_choice_index(&rng, (size_t)t.count[p]);
            floor_apply(&t, t.hand[p][k]);
            decisions++;
        }
    }
    if (last_pile != NULL && games > 0) {
        int i;
        for (i = 0; i < FLOOR_CARDS; i++) last_pile[i] = t.pile[i];
    }
    return decisions;
}

size_t floor_table_size(void) { return sizeof(floor_table); }
