/* Goofspiel with sealed bids, as rulesets/classic/goofspiel.cards plays it with its default
 * options (thirteen cards, prizes in random order), written by hand in C on the native runtime
 * (interpreter/native/runtime), for benchmarks/handwritten.py: the baseline the generated C is
 * measured against (issue 39).
 *
 * The same random numbers as the engine, so the same seed gives the same game:
 * - the game's generator is random.Random(seed); the prize pile (Ace to King of the prize suit,
 *   in the deck's order) is shuffled with it as random.shuffle does, and the prize turned up is
 *   the top, the last card of the pile;
 * - seat k is a random player drawing with random.Random(seed * 1000 + k) (bots.bot_seed), a
 *   choice over its hand in the hand's order (Ace up, the cards bid taken out), as `cardrules
 *   play` draws; the seats bid one after another, the first seat first;
 * - with one card left each, it is played without a choice (no draw).
 * The highest bid alone takes the prize; a tie sets it aside. Scores: the prize points won. */

#define GS_CARDS 13
#define GS_MAXP 3

/* One game with generators already seeded (rng[0] the game's, rng[1 + k] seat k's): every
 * seat's score into score[], the cards bid in the order bid into bids[] as the deck numbers
 * them (the prize suit first, then one suit a seat, Ace to King; NULL: not kept); the number of
 * decisions. */
static int64_t gs_game_seeded(int32_t players, crt_rng *rng, int64_t *score, int32_t *bids) {
    uint32_t prizes[GS_CARDS];
    uint8_t hand[GS_MAXP][GS_CARDS];
    int count = GS_CARDS, i, p, r;
    int64_t decisions = 0;
    for (i = 0; i < GS_CARDS; i++) prizes[i] = (uint32_t)(i + 1);
    crt_shuffle_u32(&rng[0], prizes, GS_CARDS);
    for (p = 0; p < players; p++) {
        score[p] = 0;
        for (i = 0; i < GS_CARDS; i++) hand[p][i] = (uint8_t)(i + 1);
    }
    for (r = GS_CARDS - 1; r >= 0; r--) {
        int bid[GS_MAXP], best = 0, at = 0;
        uint32_t prize = prizes[r];
        for (p = 0; p < players; p++) {
            if (count == 1) {
                bid[p] = hand[p][0];
                continue;
            }
            int k = (int)crt_choice_index(&rng[1 + p], (size_t)count);
            bid[p] = hand[p][k];
            for (i = k; i + 1 < count; i++) hand[p][i] = hand[p][i + 1];
            if (bids) bids[decisions] = (1 + p) * GS_CARDS + bid[p] - 1; /* the card's index in the deck */
            decisions++;
        }
        count--;
        for (p = 0; p < players; p++) {
            if (bid[p] > best) { best = bid[p]; at = p; }
        }
        int top = 0;
        for (p = 0; p < players; p++) top += bid[p] == best;
        if (top == 1) score[at] += prize;
    }
    return decisions;
}

/* One game from its seed: the scores, the bids made (at most GS_CARDS * players); decisions. */
int64_t gs_game(int32_t players, int64_t seed, int64_t *score, int32_t *bids) {
    crt_rng rng[GS_MAXP + 1];
    int32_t k;
    if (players < 2 || players > GS_MAXP || seed < 0) return -1;
    crt_seed_u64(&rng[0], (uint64_t)seed);
    for (k = 0; k < players; k++) crt_seed_u64(&rng[1 + k], (uint64_t)(seed * 1000 + k));
    return gs_game_seeded(players, rng, score, bids);
}

/* Games seed0 .. seed0 + n_games - 1, the generators seeded sixteen games at a time as the
 * engine's cr_play_many seeds them; each game's scores into out (players numbers a game; NULL:
 * not kept). The decisions made. */
int64_t gs_play_many(int32_t players, int64_t seed0, int64_t n_games, int64_t *out) {
    enum { BLOCK = 16 };
    crt_rng rngs[BLOCK * (GS_MAXP + 1)];
    uint64_t seeds[BLOCK * (GS_MAXP + 1)];
    int64_t g, b, decisions = 0, score[GS_MAXP];
    int32_t k;
    if (players < 2 || players > GS_MAXP || seed0 < 0) return -1;
    for (g = 0; g < n_games; g += BLOCK) {
        int64_t m = n_games - g < BLOCK ? n_games - g : BLOCK;
        for (b = 0; b < m; b++) {
            seeds[b * (players + 1)] = (uint64_t)(seed0 + g + b);
            for (k = 0; k < players; k++) seeds[b * (players + 1) + k + 1] = (uint64_t)((seed0 + g + b) * 1000 + k);
        }
        crt_seed_u64_many(rngs, seeds, (size_t)(m * (players + 1)));
        for (b = 0; b < m; b++) {
            decisions += gs_game_seeded(players, rngs + b * (players + 1), score, NULL);
            if (out)
                for (k = 0; k < players; k++) out[(g + b) * players + k] = score[k];
        }
    }
    return decisions;
}
