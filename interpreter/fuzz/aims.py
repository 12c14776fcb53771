"""What a rule needs to fire, as a test a rule seeker can make on any position: the rule's own
`when` and the tests of the `if`s around it, for the rules that have not fired yet.

A rare rule is reached by a line of play (Bridge's passed-out deal needs four passes in a row),
and one move of look-ahead sees only its first step. But a rule's condition usually says where
that line goes (`when level == 0`: nobody has bid), and it can be tested at every step: a seeker
prefers the moves after which the unfired rules' conditions still hold. A condition that reads a
name bound around the rule (a `let`, a loop's player, an action's card) has no meaning apart from
its place and is left out."""

from __future__ import annotations

from .. import graph as g
from ..errors import CardRulesError
from .static import _children

MAX_AIMS = 24   # conditions compiled for one ruleset (the unfired rules', first in the play first)


def _binders(node) -> set:
    """Names a statement binds for what follows or what is inside it."""
    if isinstance(node, g.Let):
        return {node.name}
    if isinstance(node, (g.ForPlayers, g.ForEach)):
        return {node.var}
    if isinstance(node, g.Choose) and node.each:
        return {node.each}
    if isinstance(node, g.Action):
        return {node.var} | {m.var for m in node.more} if node.var else {m.var for m in node.more}
    return set()


def _free(e, bound: set, out: set) -> set:
    """The names an expression reads that it does not bind itself (an aggregate's variable)."""
    if isinstance(e, g.Name):
        if e.name not in bound:
            out.add(e.name)
        return out
    if isinstance(e, g.Agg):
        bound = bound | {e.var}
    for c in _children(e):
        _free(c, bound, out)
    return out


def rule_conditions(rs: g.Ruleset) -> dict[str, g.Expr]:
    """rule name -> what must hold for it to fire (its `when` and the tests of the `if`s around
    it, joined by `and`), for the rules with such a test that reads no local name."""
    out: dict[str, g.Expr] = {}

    def block(stmts, tests: list, local: set):
        local = set(local)
        for s in stmts:
            visit(s, tests, local)
            local |= _binders(s) if isinstance(s, g.Let) else set()

    def visit(s, tests: list, local: set):
        if isinstance(s, g.Rule):
            conds = tests + ([s.when] if s.when is not None else [])
            if conds and s.name not in out and not any(_free(c, set(), set()) & local for c in conds):
                cond = conds[0]
                for c in conds[1:]:
                    cond = g.BinOp(op="and", left=cond, right=c)
                out[s.name] = cond
            block(s.body, tests, local)
        elif isinstance(s, g.If):
            for b in s.branches:  # (an elif also needs the tests before it false: its own is enough to aim)
                block(b.body, tests + [b.test], local)
            block(s.else_, tests, local)
        elif isinstance(s, g.Choose):
            for a in s.actions:
                block(a.body, tests, local | _binders(s) | _binders(a))
        elif isinstance(getattr(s, "body", None), tuple):
            block(s.body, tests, local | _binders(s))

    for ph in rs.phases:
        block(ph.body, [], set())
    for pr in rs.procedures:
        block(pr.body, [], {prm.name for prm in pr.params})
    return out


def compile_aims(rs: g.Ruleset, rules: list[str], rule_names: list[str]) -> list[tuple[int, object]]:
    """[(rule index, test(state) -> bool)] for those of `rules` whose condition can be tested
    anywhere: each compiled as a definition of a copy of the game (the same program with more
    definitions, so its functions read the game's states as they stand). Nothing when the copy
    does not compile."""
    from ..engine import program_of
    conds = rule_conditions(rs)
    wanted = [r for r in rules if r in conds][:MAX_AIMS]
    if not wanted:
        return []
    taken = {d.name for d in rs.defines}
    names = []
    for k, r in enumerate(wanted):
        name = f"fuzz_aim_{k}"
        while name in taken:
            name += "_"
        names.append(name)
    extra = tuple(g.Define(name=n, params=(), body=conds[r]) for n, r in zip(names, wanted))
    try:
        p = program_of(rs.model_copy(update={"defines": rs.defines + extra}))
    except CardRulesError:
        return []
    out = []
    for n, r in zip(names, wanted):
        fn = p.namespace.get(f"D_{n}")
        if fn is not None and r in rule_names:
            out.append((rule_names.index(r), fn))
    return out


def holds(fn, s) -> bool:
    """Whether a compiled condition holds in state s (a look-ahead copy: its memo is emptied,
    since the copy's program numbers its answers as the game's does only for the game's own
    definitions); a condition that cannot be worked out there does not."""
    s.memo = {}
    s.cmemo = {}
    try:
        return bool(fn(s))
    except Exception:
        return False
