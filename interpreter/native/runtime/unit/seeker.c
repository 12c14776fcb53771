/* The fuzzer's rule seeker's look-ahead (fuzz/players.py, RuleSeeker) in C: each move it weighs
 * played on a copy of the game to the next decision, and there what it scores the move by. Python
 * keeps the scoring, by the same code on both engines; a look-ahead C cannot report as Python sees
 * it (Ctrl-C, an action past the 64 a mask holds) is given back whole to Python.
 *
 * Pasted by native/codegen/emit.py (Module.source) after greedy.c (and the program's advice calls
 * before it), whose gr_copy it uses. Not compiled on its own: it reads the sizes emit.py defines
 * for each program (NC, MAXP, NS, ...: the names in capitals) and what is pasted before it. */

/* ================================================================ the rule seeker's look-ahead */
/* fuzz/players.py:RuleSeeker.choose's look-ahead from the game in mem: for each of the n legal
 * moves picks[0..n-1], played on a copy, a row of 5 + NRULES numbers: 1 when the move fails (an
 * exception in Python: the rules fail, a game past its bound, no room), else 0; then whether the
 * game is over, how many legal moves follow, the choice they belong to, a mask of the actions
 * offering them (bit k: action k of that choice), and how often each rule has fired. 0, or -1
 * when C cannot report as Python sees it: Python looks ahead then */
int32_t cr_try_moves(const void *mem, const int32_t *picks, int32_t n, int64_t *out) {
    const cr_state *S0 = (const cr_state *)mem;
    if (!S0 || S0->magic != CR_MAGIC || S0->finished || S0->err) return -1;
    uint64_t *copy = (uint64_t *)malloc((size_t)S0->bytes + 8);
    if (!copy) return -1;
    int32_t rc = 0;
    cr_guard_enter();
    for (int32_t j = 0; j < n && !rc; j++) {
        int32_t i = picks[j];
        int64_t *row = out + (size_t)j * (5 + NRULES);
        if (i < 0 || i >= S0->legal_n) { rc = -1; break; }
        gr_copy(copy, S0, i);
        cr_state *S = (cr_state *)copy;
        int kind = cr_apply(S, i);
        if (!kind) kind = S->err;
        if (kind == CR_E_INTR || CR_STOPPED()) { rc = -1; break; }
        for (int k = 0; k < 5 + NRULES; k++) row[k] = 0;
        if (kind) { row[0] = 1; continue; }
        row[1] = S->finished != 0;
        row[2] = S->finished ? 0 : S->legal_n;
        row[3] = S->choice;
        if (!S->finished) {
            uint64_t mask = 0;
            for (int32_t k = 0; k < S->legal_n; k++) {
                if (S->legal_alt[k] < 0 || S->legal_alt[k] >= 64) { rc = -1; break; }
                mask |= (uint64_t)1 << S->legal_alt[k];
            }
            row[4] = (int64_t)mask;
        }
        for (int32_t r = 0; r < NRULES; r++) row[5 + r] = S->fired[r];
    }
    cr_guard_leave();
    free(copy);
    return rc;
}

