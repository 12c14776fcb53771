"""What a rule needs to fire, as a test a rule seeker can make on any position: the rule's own
`when` and the tests of the `if`s around it, for the rules that have not fired yet.

A rare rule is reached by a line of play (a deal passed out needs four passes in a row),
and one move of look-ahead sees only its first step. But a rule's condition usually says where
that line goes (`when level == 0`: nobody has bid), and it can be tested at every step: a seeker
prefers the moves after which the unfired rules' conditions still hold. A condition that reads a
name bound around the rule (a `let`, a loop's player, an action's card) has no meaning apart from
its place and is left out."""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..language import graph as g
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


class Aim(NamedTuple):
    """An unfired rule's condition, compiled: `test(state)`, and for a comparison of two numbers
    `sides(state)` -> (left, right), so that a move that brings them closer counts as progress
    (`when draws == 50` holds only at the end of a long road)."""

    rule: int
    test: Callable
    sides: Callable | None
    op: str | None


def _comparison(e):
    """The last comparison of numbers the condition needs (the rightmost operand of an `and`)."""
    while isinstance(e, g.BinOp) and e.op == "and":
        e = e.right
    if isinstance(e, g.BinOp) and e.op in ("==", ">=", ">", "<=", "<"):
        return e
    return None


def distance(op: str, left, right) -> int | None:
    """How far two numbers are from satisfying `left op right` (0: it holds)."""
    if not (isinstance(left, int) and isinstance(right, int)) or isinstance(left, bool) or isinstance(right, bool):
        return None
    if op == "==":
        return abs(left - right)
    if op in (">=", ">"):
        return max(0, right - left + (op == ">"))
    return max(0, left - right + (op == "<"))


def compile_aims(rs: g.Ruleset, rules: list[str], rule_names: list[str]) -> list[Aim]:
    """The aims of those of `rules` whose condition can be tested anywhere: each compiled as
    definitions of a copy of the game (the same program with more definitions, so its functions
    read the game's states as they stand). Nothing when the copy does not compile."""
    from ..engine import program_of
    conds = rule_conditions(rs)
    wanted = [r for r in rules if r in conds and r in rule_names][:MAX_AIMS]
    if not wanted:
        return []
    taken = {d.name for d in rs.defines}

    def fresh(base: str) -> str:
        name = base
        while name in taken:
            name += "_"
        taken.add(name)
        return name
    extra, plan = [], []
    for k, r in enumerate(wanted):
        test = fresh(f"fuzz_aim_{k}")
        extra.append(g.Define(name=test, params=(), body=conds[r]))
        cmp = _comparison(conds[r])
        sides = None
        if cmp is not None:
            sides = (fresh(f"fuzz_aim_{k}_left"), fresh(f"fuzz_aim_{k}_right"), cmp.op)
            extra += [g.Define(name=sides[0], params=(), body=cmp.left),
                      g.Define(name=sides[1], params=(), body=cmp.right)]
        plan.append((r, test, sides))
    p = None
    for defines in (extra, [d for d in extra if not d.name.endswith(("_left", "_right"))]):
        try:  # the sides of a comparison may be no numbers: then the tests alone
            p = program_of(rs.model_copy(update={"defines": rs.defines + tuple(defines)}))
            break
        except CardRulesError:
            continue
    if p is None:
        return []
    ns = p.namespace
    out = []
    for r, test, sides in plan:
        fn = ns.get(f"D_{test}")
        if fn is None:
            continue
        both = None
        if sides is not None and f"D_{sides[0]}" in ns and f"D_{sides[1]}" in ns:
            lf, rf = ns[f"D_{sides[0]}"], ns[f"D_{sides[1]}"]
            both = (lambda lf, rf: lambda st: (lf(st), rf(st)))(lf, rf)
        out.append(Aim(rule_names.index(r), fn, both, sides[2] if both else None))
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


def gap(aim: Aim, s) -> int | None:
    """How far the aim's comparison is from holding in state s (a look-ahead copy), or None."""
    if aim.sides is None:
        return None
    s.memo = {}
    s.cmemo = {}
    try:
        left, right = aim.sides(s)
    except Exception:
        return None
    return distance(aim.op, left, right)
