/* The greedy player's look-ahead (bots.py, GreedyBot) in C: each of the acting player's moves
 * played on a copy of the game to the next decision, and there the value Python's look-ahead gives
 * it (native/greedy.py calls it; Python keeps the choice among the values).
 *
 * Pasted by native/codegen/emit.py (Module.source) after search.c and what greedy_c.py's
 * greedy_parts makes for the program (GR_ADVICE_EACH, GR_NADVICE). Not compiled on its own: it
 * reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in capitals) and
 * what is pasted before it. */

/* ================================================================ the greedy player's look-ahead */
/* every seat's score now, raw (CR_NONE for none); the failure's kind, or 0 */
static int gr_scores(cr_state *S, int64_t *out) {
#if HAS_SCORE
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    if (!cr_ctx_init(x)) return CR_E_STATE;
    int kind = setjmp(x->jb);
    if (kind) return kind;
    for (int32_t i = 0; i < S->n_players; i++) {
        cr_epoch++;
        x->top = 0;
        out[i] = SCORE_FN(x, S, C, i);
    }
#else
    for (int32_t i = 0; i < S->n_players; i++) out[i] = 0;
#endif
    return 0;
}

/* each of the ruleset's advice values for `seat` now, raw; the failure's kind, or 0 */
static int gr_advice(cr_state *S, int32_t seat, int64_t *out) {
#if GR_NADVICE
    cr_ctx X, *x = &X;
    crt_cards *C = CARDS(S);
    if (!cr_ctx_init(x)) return CR_E_STATE;
    int kind = setjmp(x->jb);
    if (kind) return kind;
    GR_ADVICE_EACH(x, S, C, seat, out);
#else
    (void)S; (void)seat; (void)out;
#endif
    return 0;
}

/* a failure the Python engine meets too, as an error the greedy player catches there (a none, a
 * division by zero, an index or a range out of bounds, a negative power): no signal, as in Python */
static int gr_alike(int kind) {
    return kind == CR_E_NONE || kind == CR_E_ZERO || kind == CR_E_INDEX || kind == CR_E_RANGE || kind == CR_E_NEGPOW
        || kind == CR_E_EMPTY;
}

/* bots.py:_ahead: how far `seat` is ahead of its best rival; 0 when C cannot say it as Python
 * would (a score that is none, which Python's subtraction refuses; a difference past 64 bits) */
static int gr_ahead(const int64_t *sc, int32_t P, int32_t seat, int64_t *out) {
    int64_t best = 0;
    int any = 0;
    for (int32_t i = 0; i < P; i++) {
        if (sc[i] == CR_NONE) return 0;
        if (i == seat) continue;
        if (!any || (SR_MOST ? sc[i] > best : sc[i] < best)) best = sc[i];
        any = 1;
    }
    return SR_MOST ? !__builtin_sub_overflow(sc[seat], best, out) : !__builtin_sub_overflow(best, sc[seat], out);
}

/* the game in S0, to play its legal move i on: all but the other legal moves (the move made works
 * out the next decision's afresh) */
static void gr_copy(uint64_t *copy, const cr_state *S0, int32_t i) {
    const size_t head = offsetof(cr_state, legal_alt), tail = offsetof(cr_state, pend_on);
    memcpy(copy, S0, head);
    memcpy((char *)copy + tail, (const char *)S0 + tail, (size_t)S0->bytes - tail);
    cr_state *S = (cr_state *)copy;
    S->legal_alt[i] = S0->legal_alt[i];
    S->legal_who[i] = S0->legal_who[i];
    memcpy(S->legal_val[i], S0->legal_val[i], sizeof S->legal_val[i]);
}

/* bots.py:GreedyBot._values from the game in mem: for each legal move of the player to act, in the
 * order of the legal moves, a row of 3 numbers: the move's index among the legal moves, the sum of
 * the actor's advice values after it (0 when the advice fails there as in Python), how far the
 * actor is then ahead of its best rival (0 when the scores fail as in Python). Each move is played
 * in one sample of what the actor cannot see (search.c's sr_determinise: positions.py:determinise
 * with reseed, from a generator seeded with `seed` as random.Random(seed) is), so that no move is
 * judged by a hidden card it would bring to light or by a shuffle still to come. The number of
 * rows; -1 when C cannot answer as Python would (the rules fail in a copy, a none or a number past
 * 64 bits where Python's arithmetic differs, a move the sample does not offer, no room): Python
 * looks ahead then */
int32_t cr_greedy(const void *mem, int64_t *out, int32_t cap, uint64_t seed) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || S0->finished || S0->err) return -1;
    int32_t P = S0->n_players, me = S0->actor, n = 0;
    int64_t sc[MAXP], adv[GR_NADVICE ? GR_NADVICE : 1];
    uint64_t *copy = (uint64_t *)malloc((size_t)S0->bytes + 8), *seen = (uint64_t *)malloc((size_t)S0->bytes + 8);
    sr_tree *t = (sr_tree *)calloc(1, sizeof(sr_tree));
    if (!copy || !seen || !t) { free(copy); free(seen); free(t); return -1; }
    memcpy(seen, mem, (size_t)S0->bytes);
    cr_state *D = (cr_state *)seen;
    crt_rng rng;
    crt_seed_u64(&rng, seed);
    cr_guard_enter();
    int bad = sr_determinise(t, D, me, &rng) || CR_STOPPED();
    cr_guard_leave();
    if (bad || D->err || D->finished) n = -1;
    for (int32_t i = 0; n >= 0 && i < S0->legal_n; i++) {
        if (S0->legal_who[i] != me) continue;
        if (n >= cap) { n = -1; break; }
        int32_t j = 0; /* the sample's move equal to it, the first (bots.py: as apply finds it) */
        while (j < D->legal_n && !sr_same_move(S0, i, D, j)) j++;
        if (j == D->legal_n) { n = -1; break; }
        gr_copy(copy, D, j);
        cr_state *S = (cr_state *)copy;
        if (cr_apply(S, j)) { n = -1; break; }
        int64_t *row = out + (size_t)n * 3;
        row[0] = i; row[1] = 0; row[2] = 0;
        int kind = gr_scores(S, sc);
        if (kind && !gr_alike(kind)) { n = -1; break; }
        if (!kind && !gr_ahead(sc, P, me, &row[2])) { n = -1; break; }
        if (GR_NADVICE) {
            kind = gr_advice(S, me, adv);
            if (kind && !gr_alike(kind)) { n = -1; break; }
            for (int32_t k = 0; !kind && k < GR_NADVICE; k++)
                if (adv[k] == CR_NONE || __builtin_add_overflow(row[1], adv[k], &row[1])) { kind = -1; break; }
            if (kind < 0) { n = -1; break; }
        }
        n++;
    }
    free(copy);
    free(seen);
    free(t);
    return n;
}
