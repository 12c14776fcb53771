"""The search player (interpreter/players/search.py, ISMCTSBot) in C: the same samples, the same tree,
the same rollouts and rewards, drawn from the bot's own generator in the same order, so that a
search in C picks the move the search in Python picks, only without Python between the moves.

Python keeps what is Python's: the last pick among moves that tie (it sorts keys by their
text) and the clock (a deadline is checked between batches of iterations). A search that
fails in C (the rules fail in a sample) is given back to Python, which searches again from the
same generator state and fails, or not, in its own words.

The search's C is runtime/unit/search.c; here is what each program adds to it."""

from __future__ import annotations

import sys

from ...compiler.program import CHOOSE_EACH
from ...compiler.ir import ops as o


def search_parts(module) -> tuple[dict, list[str]]:
    """The defines and generated C the search needs from one program: each action's name as a
    number (a move's key is its player, action name and values, as search.py's), the sites of
    `choose by each`, the moves of the decision pending worked out again (cr_relegal, as
    positions.py:recompute_legal), and the advice."""
    p = module.p
    names: dict[str, int] = {}
    rows = []
    width = max([len(ch.alts) for ch in p.choices] + [1])
    kinds = []  # each action's argument as greedy's tie-break sees it: 0 one card, 1 another, 2 none,
    # 3 a set of cards (its mask: one card is a card, as its text is a card's name in Python)
    for ch in p.choices:
        row = [names.setdefault(a.name, len(names)) for a in ch.alts]
        rows.append("{" + ", ".join(str(v) for v in row + [0] * (width - len(row))) + "}")
        kind = [2 if a.values is None else
                3 if not a.more and isinstance(getattr(a.values_ir, "domain", None), o.Subsets) else
                0 if a.elem == "card" and not a.more else 1 for a in ch.alts]
        kinds.append("{" + ", ".join(str(v) for v in kind + [2] * (width - len(kind))) + "}")
    sites = [ch for ch in p.choices if ch.each_slot is not None]  # numbered as emit.py's Module.site
    site_pc = [next(pc for pc, ins in enumerate(p.plain_code) if ins[0] == CHOOSE_EACH and ins[1] is ch)
               for ch in sites] or [-1]
    cases = []
    for k, ch in enumerate(p.choices):
        if ch.each_slot is None:
            cases.append(f"        case {k}: legal{k}(x, S, C, S->actor); break;")
        else:
            site = module.site(ch)
            cases.append(
                f"        case {k}: for (int _j = 0; _j < S->pend_n[{site}]; _j++) {{ "
                f"S->sv[{ch.each_slot}] = S->pend[{site}][_j]; cr_epoch++; legal{k}(x, S, C, S->pend[{site}][_j]); }} "
                f"if (S->pend_n[{site}]) S->sv[{ch.each_slot}] = S->pend[{site}][S->pend_n[{site}] - 1]; break;")
    relegal = "\n".join([
        "/* the moves of the decision pending worked out afresh (positions.py:recompute_legal) */",
        "static int cr_relegal(cr_state *S) {",
        "    S->legal_n = 0;",
        "    if (S->finished || S->choice < 0) return 0;",
        "    cr_ctx X, *x = &X;",
        "    crt_cards *C = CARDS(S);",
        "    if (!cr_ctx_init(x)) return CR_E_STATE;",
        "    int kind = setjmp(x->jb);",
        "    if (kind) { S->err = kind; S->legal_n = 0; return kind; }",
        "    cr_epoch++;",
        "    switch (S->choice) {",
        *cases,
        "        default: return CR_E_STATE;",
        "    }",
        "    return 0;",
        "}",
    ])
    advice = [module.define_fn(f"advice {name}") for name, *_ in p.advice_ir]
    while module.todo:
        module.emit_define(module.todo.pop(0))
    if advice:
        terms = "0"
        for fn in advice:
            terms = f"cr_add(x, {terms}, {fn}(x, S, C, seat))"
        advice_fn = ("static int64_t sr_advice(cr_ctx *x, cr_state *S, crt_cards *C, int64_t seat) {\n"
                     f"    return {terms};\n}}\n#define SR_ADVICE sr_advice")
    else:
        advice_fn = ""
    defines = {"SR_NSITES": len(sites), "SR_MOST": int(p.winner_rule == "most"), "SR_NADVICE": len(advice),
               "SR_NEUMAIER": int(sys.version_info >= (3, 12))}
    tables = [f"static const int32_t SR_ACT[{max(len(rows), 1)}][{width}] = {{{', '.join(rows) or '{0}'}}};",
              f"static const int8_t SR_ARGKIND[{max(len(kinds), 1)}][{width}] __attribute__((unused)) = "
              f"{{{', '.join(kinds) or '{2}'}}};",
              f"static const int32_t SR_SITE_PC[] __attribute__((unused)) = {{{', '.join(map(str, site_pc))}}};",
              relegal, advice_fn]
    return defines, tables

