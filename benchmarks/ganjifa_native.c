/* Ganjifa, the modern blend, as rulesets/ganjifa/ganjifa.cards plays it with three players and
 * its default options (by day: Rama's Raja opens; a double opening; a Deni may be declined; the
 * lowest unbeatable card may be led; no sacrifice after leading), written by hand in C on the
 * native runtime (interpreter/native/runtime), for benchmarks/handwritten.py: the baseline the
 * generated C is measured against (issue 39).
 *
 * The same random numbers as the engine, so the same seed gives the same game:
 * - the game's generator is random.Random(seed); the pack (the deck's order: suit by suit,
 *   1 to 10, Mantri, Raja) is shuffled with it as random.shuffle does, and dealt from its top
 *   (the last card) four at a time to each seat in seat order, ten times;
 * - seat k is a random player drawing with random.Random(seed * 1000 + k) (bots.bot_seed): at
 *   each of its decisions one draw, a choice over the legal moves in the engine's order (the
 *   ruleset's actions in the order written, each over its cards in the order of hand then
 *   exposed cards, as they arrived), even when only one move is legal.
 * Cards moved keep the order the engine keeps (a card moved into the zone it is in goes to the
 * top). A move is coded as the card's index in the deck, or -1 stop, -2 decline, -3 double,
 * -4 single. Scores: the cards each seat won. */

#define GJ_P 3
#define GJ_SUITS 10
#define GJ_RANKS 12
#define GJ_N (GJ_SUITS * GJ_RANKS)
#define GJ_MAX_DECISIONS 400
#define GJ_OPENING_SUIT 6 /* Rama */
#define GJ_COURT 10       /* Mantri and Raja: the ranks from here up */

enum { AT_STOCK, AT_HAND, AT_EXPOSED, AT_TRICK, AT_WON };
enum { STOP = -1, DECLINE = -2, DOUBLE = -3, SINGLE = -4 };

typedef struct gj_table {
    uint8_t hand[GJ_P][GJ_N], exposed[GJ_P][GJ_N], trick[GJ_N];
    int hn[GJ_P], en[GJ_P], tn, won[GJ_P];
    uint8_t at[GJ_N];
    uint16_t hold[GJ_P][GJ_SUITS]; /* each seat's held cards (hand and exposed), a suit's ranks as bits */
    int8_t owner[GJ_N], played_by[GJ_N];
    int leader;
    int64_t decisions;
    crt_rng *bots;
    int32_t *moves; /* NULL: not kept */
    int failed;
} gj_table;

#define SUIT0(c) ((c) - (c) % GJ_RANKS)
#define HELD(g, c) ((g)->at[c] == AT_HAND || (g)->at[c] == AT_EXPOSED)
#define SUIT(c) ((c) / GJ_RANKS)
#define BIT(c) (1u << ((c) % GJ_RANKS))
#define ABOVE(c) ((uint32_t)0xfff & ~((BIT(c) << 1) - 1))
#define BELOW(c) (BIT(c) - 1)
#define HELD_IN(g, s) ((uint32_t)((g)->hold[0][s] | (g)->hold[1][s] | (g)->hold[2][s]))

static void gj_take_out(uint8_t *xs, int *n, int c) {
    int i = 0;
    while (xs[i] != c) i++;
    for (; i + 1 < *n; i++) xs[i] = xs[i + 1];
    (*n)--;
}

/* card c out of wherever it is (a hand, exposed cards, the pack's top) */
static void gj_lift(gj_table *g, int c) {
    int o = g->owner[c];
    if (g->at[c] == AT_HAND) gj_take_out(g->hand[o], &g->hn[o], c);
    else if (g->at[c] == AT_EXPOSED) gj_take_out(g->exposed[o], &g->en[o], c);
    if (o >= 0) g->hold[o][SUIT(c)] &= (uint16_t)~BIT(c);
    if (o >= 0) g->played_by[c] = (int8_t)o;
}

static void gj_to_trick(gj_table *g, int c) {
    gj_lift(g, c);
    g->trick[g->tn++] = (uint8_t)c;
    g->at[c] = AT_TRICK;
    g->owner[c] = -1;
}

static void gj_to_exposed(gj_table *g, int c, int p) {
    gj_lift(g, c);
    g->exposed[p][g->en[p]++] = (uint8_t)c;
    g->hold[p][SUIT(c)] |= (uint16_t)BIT(c);
    g->at[c] = AT_EXPOSED;
    g->owner[c] = (int8_t)p;
}

/* ---- the ruleset's definitions, on each suit's cards as bits (bit r: the card of rank r) */

static int top_bit(uint32_t m) { return 31 - __builtin_clz(m); }
static int low_bit(uint32_t m) { return __builtin_ctz(m); }

/* the cards of suit s held by others than o */
static uint32_t rivals(const gj_table *g, int o, int s) { return HELD_IN(g, s) & ~(uint32_t)g->hold[o][s]; }

/* the cards of suit s that o holds and nobody else can beat: above the highest card a rival holds */
static uint32_t unbeaten(const gj_table *g, int o, int s) {
    uint32_t r = rivals(g, o, s);
    return g->hold[o][s] & (r ? ~((2u << top_bit(r)) - 1) : 0xfffu);
}

static int unbeatable(const gj_table *g, int c) { return !(ABOVE(c) & rivals(g, g->owner[c], SUIT(c))); }

static int lowest_unbeatable(const gj_table *g, int c) {
    uint32_t u = unbeaten(g, g->owner[c], SUIT(c));
    return (u & BIT(c)) && !(u & BELOW(c));
}

static int must_lead(const gj_table *g, int c) {
    uint32_t u = unbeaten(g, g->owner[c], SUIT(c));
    return (u & BIT(c)) && (u & BELOW(c));
}

static int can_give_deni(const gj_table *g, int h) {
    int o = g->owner[h], s = SUIT(h);
    uint32_t r = ABOVE(h) & rivals(g, o, s), held = ABOVE(h) & HELD_IN(g, s);
    return r && !(r & (r - 1)) && (r & held & -held) && (g->hold[o][s] & BELOW(h));
}

static int called_card(const gj_table *g, int h) {
    return SUIT(h) * GJ_RANKS + low_bit(ABOVE(h) & rivals(g, g->owner[h], SUIT(h)));
}

static int highest_of_suit_in_holding(const gj_table *g, int c) { return !(ABOVE(c) & g->hold[g->owner[c]][SUIT(c)]); }

static int low(int c) { return c % GJ_RANKS < GJ_COURT; }

static int opening_card(const gj_table *g, int c) {
    int i, o = g->owner[c];
    if (low(c)) return 1;
    for (i = 0; i < g->hn[o]; i++)
        if (low(g->hand[o][i])) return 0;
    return 1;
}

static int any_unbeatable(const gj_table *g, int p) {
    int s;
    for (s = 0; s < GJ_SUITS; s++)
        if (unbeaten(g, p, s)) return 1;
    return 0;
}

static int any_holding(const gj_table *g, int p, int (*pred)(const gj_table *, int)) {
    int i;
    for (i = 0; i < g->hn[p]; i++)
        if (pred(g, g->hand[p][i])) return 1;
    for (i = 0; i < g->en[p]; i++)
        if (pred(g, g->exposed[p][i])) return 1;
    return 0;
}

/* ---- decisions: seat p's random player picks one of the n legal moves */
static int gj_decide(gj_table *g, int p, const int *legal, int n) {
    if (g->decisions >= GJ_MAX_DECISIONS || n <= 0) {
        g->failed = 1;
        return legal[0];
    }
    int m = legal[crt_choice_index(&g->bots[p], (size_t)n)];
    if (g->moves) g->moves[g->decisions] = m;
    g->decisions++;
    return m;
}

/* the cards of p's holding (hand, then exposed cards) that pass pred, appended to legal */
static int gj_cards(const gj_table *g, int p, int (*pred)(const gj_table *, int), int *legal, int n) {
    int i;
    for (i = 0; i < g->hn[p]; i++)
        if (!pred || pred(g, g->hand[p][i])) legal[n++] = g->hand[p][i];
    for (i = 0; i < g->en[p]; i++)
        if (!pred || pred(g, g->exposed[p][i])) legal[n++] = g->exposed[p][i];
    return n;
}

static void gj_answer(gj_table *g, int p) {
    int legal[GJ_N];
    int n = gj_cards(g, p, NULL, legal, 0);
    gj_to_trick(g, gj_decide(g, p, legal, n));
}

static void gj_take_trick(gj_table *g) {
    int i, best = g->trick[0];
    for (i = 1; i < g->tn; i++) {
        int c = g->trick[i];
        if (SUIT0(c) == SUIT0(g->trick[0]) && c > best) best = c;
    }
    g->leader = g->played_by[best];
    for (i = 0; i < g->tn; i++) {
        g->at[g->trick[i]] = AT_WON;
        g->owner[g->trick[i]] = (int8_t)g->leader;
    }
    g->won[g->leader] += g->tn;
    g->tn = 0;
}

static void gj_lead_trick(gj_table *g, int c) {
    int k;
    gj_to_trick(g, c);
    for (k = 1; k < GJ_P; k++) gj_answer(g, (g->leader + k) % GJ_P);
    gj_take_trick(g);
}

static int gj_holding(const gj_table *g, int p) { return g->hn[p] + g->en[p]; }

static int gj_hsuit; /* the Deni card's suit and rank, for the predicates below */
static int same_suit_lower(const gj_table *g, int l) { (void)g; return SUIT0(l) == SUIT0(gj_hsuit) && l < gj_hsuit; }
static int same_suit(const gj_table *g, int c) { (void)g; return SUIT0(c) == SUIT0(gj_hsuit); }

static void gj_give_deni(gj_table *g, int h) {
    int legal[GJ_N], n, k;
    gj_hsuit = h;
    n = gj_cards(g, g->leader, same_suit_lower, legal, 0);
    gj_to_trick(g, gj_decide(g, g->leader, legal, n));
    gj_to_exposed(g, h, g->leader);
    int called = called_card(g, h), caller = g->owner[called], doubler = -1, doubled = 0;
    if (HELD_IN(g, SUIT(h)) & BELOW(h)) doubler = SUIT0(h) + top_bit(HELD_IN(g, SUIT(h)) & BELOW(h));
    for (k = 1; k < GJ_P; k++) {
        int p = (g->leader + k) % GJ_P;
        if (p == caller) {
            gj_to_trick(g, called);
            if (doubler >= 0 && g->owner[doubler] == p && doubler + 1 == h) {
                int two[2] = {DOUBLE, SINGLE};
                if (gj_decide(g, p, two, 2) == DOUBLE) {
                    gj_to_trick(g, doubler);
                    doubled = 1;
                }
            }
        } else {
            gj_answer(g, p);
        }
    }
    if (doubled) {
        gj_hsuit = h;
        n = gj_cards(g, g->leader, same_suit, legal, 0);
        gj_to_trick(g, gj_decide(g, g->leader, legal, n));
        for (k = 1; k < GJ_P; k++) {
            int p = (g->leader + k) % GJ_P;
            if (p != caller) gj_answer(g, p);
        }
    }
    gj_take_trick(g);
}

/* One game with generators already seeded (rng[0] the game's, rng[1 + k] seat k's): every
 * seat's score (cards won) into score[], the moves into moves[] (NULL: not kept); the number
 * of decisions, or -1 when the game went past its bound of decisions. */
static int64_t gj_game_seeded(crt_rng *rng, int64_t *score, int32_t *moves) {
    gj_table G, *g = &G;
    uint32_t pack[GJ_N];
    int legal[GJ_N + 1], n, i, p, k, r;
    g->bots = rng + 1;
    g->moves = moves;
    g->decisions = 0;
    g->failed = 0;
    g->tn = 0;
    for (p = 0; p < GJ_P; p++) g->hn[p] = g->en[p] = g->won[p] = 0;
    memset(g->hold, 0, sizeof g->hold);
    for (i = 0; i < GJ_N; i++) {
        pack[i] = (uint32_t)i;
        g->played_by[i] = -1;
    }
    crt_shuffle_u32(&rng[0], pack, GJ_N);
    /* ten rounds of four cards to each seat, from the top of the pack */
    n = GJ_N;
    for (r = 0; r < GJ_N / (4 * GJ_P); r++)
        for (p = 0; p < GJ_P; p++)
            for (k = 0; k < 4; k++) {
                int c = (int)pack[--n];
                g->hand[p][g->hn[p]++] = (uint8_t)c;
                g->at[c] = AT_HAND;
                g->owner[c] = (int8_t)p;
                g->hold[p][SUIT(c)] |= (uint16_t)BIT(c);
            }
    /* the opening: the leading Raja, two low cards from each of the others, one more from the leader */
    int raja = GJ_OPENING_SUIT * GJ_RANKS + GJ_RANKS - 1;
    g->leader = g->owner[raja];
    gj_to_trick(g, raja);
    for (k = 1; k < GJ_P; k++) {
        p = (g->leader + k) % GJ_P;
        for (i = 0; i < 2; i++) {
            n = 0;
            for (r = 0; r < g->hn[p]; r++)
                if (opening_card(g, g->hand[p][r])) legal[n++] = g->hand[p][r];
            gj_to_trick(g, gj_decide(g, p, legal, n));
        }
    }
    n = 0;
    for (r = 0; r < g->hn[g->leader]; r++)
        if (opening_card(g, g->hand[g->leader][r])) legal[n++] = g->hand[g->leader][r];
    gj_to_trick(g, gj_decide(g, g->leader, legal, n));
    gj_take_trick(g);
    /* the play */
    while (gj_holding(g, g->leader) > 0 && !g->failed) {
        int had_unbeatable = any_unbeatable(g, g->leader);
        while (any_unbeatable(g, g->leader) && !g->failed) { /* must_lead or may_lead: unbeatable */
            int must = any_holding(g, g->leader, must_lead);
            n = gj_cards(g, g->leader, must_lead, legal, 0);
            if (!must) {
                n = gj_cards(g, g->leader, lowest_unbeatable, legal, n);
                legal[n++] = STOP;
            }
            int m = gj_decide(g, g->leader, legal, n);
            if (m == STOP) break;
            gj_lead_trick(g, m);
        }
        int gave_deni = 0;
        if (any_holding(g, g->leader, can_give_deni)) {
            n = gj_cards(g, g->leader, can_give_deni, legal, 0);
            legal[n++] = DECLINE;
            int m = gj_decide(g, g->leader, legal, n);
            if (m != DECLINE) {
                gave_deni = 1;
                gj_give_deni(g, m);
            }
        }
        if (gave_deni || gj_holding(g, g->leader) == 0) continue;
        if (any_unbeatable(g, g->leader) || had_unbeatable) {
            while (any_unbeatable(g, g->leader) && !g->failed) {
                n = gj_cards(g, g->leader, unbeatable, legal, 0);
                gj_lead_trick(g, gj_decide(g, g->leader, legal, n));
            }
            g->leader = (g->leader + 1) % GJ_P;
        } else {
            n = gj_cards(g, g->leader, highest_of_suit_in_holding, legal, 0);
            int c = gj_decide(g, g->leader, legal, n), top = -1;
            gj_to_trick(g, c);
            if (HELD_IN(g, SUIT(c))) top = SUIT0(c) + top_bit(HELD_IN(g, SUIT(c)));
            for (k = 1; k < GJ_P; k++) {
                p = (g->leader + k) % GJ_P;
                if (top >= 0 && g->owner[top] == p) gj_to_trick(g, top);
                else gj_answer(g, p);
            }
            gj_take_trick(g);
        }
    }
    for (p = 0; p < GJ_P; p++) score[p] = g->won[p];
    return g->failed ? -1 : g->decisions;
}

/* One game from its seed (players must be 3): the scores, the moves made; decisions (-1: failed). */
int64_t gj_game(int32_t players, int64_t seed, int64_t *score, int32_t *moves) {
    crt_rng rng[GJ_P + 1];
    int32_t k;
    if (players != GJ_P || seed < 0) return -1;
    crt_seed_u64(&rng[0], (uint64_t)seed);
    for (k = 0; k < GJ_P; k++) crt_seed_u64(&rng[1 + k], (uint64_t)(seed * 1000 + k));
    return gj_game_seeded(rng, score, moves);
}

/* Games seed0 .. seed0 + n_games - 1, the generators seeded sixteen games at a time as the
 * engine's cr_play_many seeds them; each game's scores into out (three numbers a game; NULL:
 * not kept). The decisions made (-1: a game failed). */
int64_t gj_play_many(int32_t players, int64_t seed0, int64_t n_games, int64_t *out) {
    enum { BLOCK = 16 };
    crt_rng rngs[BLOCK * (GJ_P + 1)];
    uint64_t seeds[BLOCK * (GJ_P + 1)];
    int64_t g, b, decisions = 0, score[GJ_P];
    int32_t k;
    if (players != GJ_P || seed0 < 0) return -1;
    for (g = 0; g < n_games; g += BLOCK) {
        int64_t m = n_games - g < BLOCK ? n_games - g : BLOCK;
        for (b = 0; b < m; b++) {
            seeds[b * (GJ_P + 1)] = (uint64_t)(seed0 + g + b);
            for (k = 0; k < GJ_P; k++) seeds[b * (GJ_P + 1) + k + 1] = (uint64_t)((seed0 + g + b) * 1000 + k);
        }
        crt_seed_u64_many(rngs, seeds, (size_t)(m * (GJ_P + 1)));
        for (b = 0; b < m; b++) {
            int64_t d = gj_game_seeded(rngs + b * (GJ_P + 1), score, NULL);
            if (d < 0) return -1;
            decisions += d;
            if (out)
                for (k = 0; k < GJ_P; k++) out[(g + b) * GJ_P + k] = score[k];
        }
    }
    return decisions;
}
