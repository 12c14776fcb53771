/* The instruction loop (cr_loop: each instruction from S->pc on, to the next decision or the end)
 * and cr_run, which runs it under the failures' setjmp.
 *
 * Pasted by native/codegen/emit.py (Module.source) after the generated definitions and each
 * choice's legal function. emit.py puts the program's instructions, a `case` each, where the line
 * marked `@generated` is. Not compiled on its own: it reads the sizes emit.py defines for each
 * program (NC, MAXP, NS, ...: the names in capitals) and what is pasted before it. */

/* the loop is one function with every instruction in it, the largest by far: for a program of
 * many instructions (BIG_LOOP: codegen/emit.py says how many) GCC's optimiser spent a third of an
 * optimised build on it, and at -O1 it takes 0.5-0.7 s less for games no slower (a short loop at
 * -O1 cost a few per cent a step). Clang and Zig's compiler take no such attribute. */
#if BIG_LOOP && defined(__OPTIMIZE__) && defined(__GNUC__) && !defined(__clang__)
#define CR_LOOP_OPT __attribute__((optimize("O1")))
#else
#define CR_LOOP_OPT
#endif

CR_LOOP_OPT static int cr_loop(cr_ctx *x, cr_state *S) {
    crt_cards *C = CARDS(S);
    int64_t steps = 0;
    cr_epoch++; /* a move was made, or the game begins */
    for (;;) {
        x->top = 0;
        switch (S->pc) {
        /* @generated: a case per instruction of the program */

        default: cr_fail(x, CR_E_STATE);
        }
    }
}

/* the rules from S->pc to the next decision or the end; a decision after all the decisions the
 * game may take (MAX_DECISIONS: `at most N decisions`, else the default) fails, as engine/play.py's
 * too_long */
static int cr_run(cr_state *S) {
    cr_ctx X, *x = &X;
    if (!cr_ctx_init(x)) return CR_E_STATE;
    int kind = setjmp(x->jb);
    if (kind) {
        S->err = kind;
        S->legal_n = 0;
        return kind;
    }
    int rc = cr_loop(x, S);
    if (!rc && !S->finished && S->decisions >= MAX_DECISIONS) {
        S->err = CR_E_LONG;
        S->legal_n = 0;
        return CR_E_LONG;
    }
    return rc;
}
