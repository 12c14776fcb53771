"""The planning player's search (plan.py, PlanBot._search) in C: one truth sampled as the search
player samples it, the seat's own moves explored depth first (or best first) by the advice (or
the score), each position the seat can tell apart looked at once. Python keeps what it does with the line found
(plan.py: keeping to it while what the seat sees is what it expected), by the same code on both
engines.

A position is remembered by a 128-bit hash of what the seat sees of it (plan.py's `_Eyes.view`:
the decision pending, the procedures' stack, the variables, the cards it can identify and where
they lie), and the depth-first search's table by a hash of its layout (`_Eyes.layout`: the same
without the variables): two views C takes for equal are equal in Python but for a collision of
128 bits.

What C cannot work out as Python would (the rules fail in a copy, a number past 64 bits, Ctrl-C,
a line longer than the room given) is given back whole: Python plans then, from the generator as
it was."""

from __future__ import annotations


def plan_parts(module) -> tuple[dict, str]:
    """The defines and generated C the search needs from one program: whether the fewest points
    win (plan.py's margin), and how each variable is hashed into a view (the way it is kept)."""
    p = module.p
    lines = []
    for slot in range(p.n_slots):
        kind = module.slot_kind[slot]
        if kind == "value":
            lines.append(f"    pl_mix(h, (uint64_t)S->sv[{slot}]);")
        elif kind == "list":
            i = module.list_index[slot]
            lines.append(f"    pl_mix(h, (uint64_t)S->ln[{i}]); "
                         f"for (int32_t k = 0; k < S->ln[{i}]; k++) pl_mix(h, (uint64_t)S->lv[{i}][k]);")
        elif kind == "pv":
            i = module.pv_index[slot]
            lines.append(f"    for (int32_t q = 0; q < S->n_players; q++) pl_mix(h, (uint64_t)S->pv[{i}][q]);")
        elif kind == "pvl":
            i = module.pvl_index[slot]
            lines.append(f"    for (int32_t q = 0; q < S->n_players; q++) {{ pl_mix(h, (uint64_t)S->pln[{i}][q]); "
                         f"for (int32_t k = 0; k < S->pln[{i}][q]; k++) pl_mix(h, (uint64_t)S->plv[{i}][q][k]); }}")
        else:
            raise AssertionError(f"a slot kept as {kind!r}")
    body = "\n".join(lines) or "    (void)h; (void)S;"
    slots = f"static void pl_slots(pl_view *h, const cr_state *S) {{\n{body}\n}}"
    return {"PL_FEWEST": int(p.winner_rule == "fewest")}, slots
