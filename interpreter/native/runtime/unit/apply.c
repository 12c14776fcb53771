/* A legal move made (cr_apply), then the rules run on to the next decision.
 *
 * Pasted by native/codegen/emit.py (Module.source) after start.c (with the variables' first
 * values). emit.py puts a `case` per choice (a switch on the move's action) where the line marked
 * `@generated` is. Not compiled on its own: it reads the sizes emit.py defines for each program
 * (NC, MAXP, NS, ...: the names in capitals) and what is pasted before it. */

int cr_apply(void *mem, int32_t i) {
    cr_state *S = (cr_state *)mem;
    if (!S || S->magic != CR_MAGIC || S->finished || S->err || i < 0 || i >= S->legal_n) return CR_E_STATE;
    int32_t alt = S->legal_alt[i], who = S->legal_who[i];
    (void)who;
    {   /* the cards shown while this move is made, for engine/shown.py: none yet */
        crt_cards *C = CARDS(S);
        memset(CRT_AT(C, uint8_t, off_flash), 0, C->n_cards);
    }
    switch (S->choice) {
        /* @generated: a case per choice: the move's action made */

        default: return CR_E_STATE;
    }
    S->decisions++;
    return cr_run(S);
}
