"""Repeated terms worked out once (interpreter/compiler/cse.py, a pass over the IR's ops) must
never change what an expression gives, which terms it works out first, or where it fails. Random
op trees over logging stand-ins for the generated definitions check exactly that against the
expression as written; the cases below pin what is kept and what is not."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st_

from interpreter.compiler.cse import cse, cse_loop, hoist
from interpreter.compiler.ir import ops as o
from interpreter.compiler.ir.reads import walk
from interpreter.compiler.pyemit import fast_stmt, py

# ---- random op trees, written as the generated code writes them -------------------------------
# (drawn by a generator seeded by hypothesis: its own recursive strategies took half a minute)

VARS = ("_v1", "_v2", "_v3")  # aggregates' variables (the compiler's are fresh names; see _shadows)
LEAVES = [o.Local("a0", t="int"), o.Lit(1, t="int"), o.Lit(0, t="int"), o.Lit(None, t="none"), o.Slot(1, t="int"),
          o.Slot(2, t="int")] + [o.Local(v, t="int") for v in VARS]
AGGS = ("those", "any", "all", "sum", "count", "highest")
MASK_AGGS = ("any", "all", "sum", "count")


def _domain(x):
    return o.Call("D_list", (x,), t="ints")


def _node(r, kid):
    k = r.randrange(9)
    if k == 0:
        return o.Call(r.choice(["D_f", "D_g"]), tuple(kid() for _ in range(r.randint(1, 2))), t="int")
    if k == 1:
        return o.TableLookup("T", kid(), t="int")
    if k == 2:
        return o.Arith(r.choice(["+", "//"]), kid(), kid(), t="int")
    if k == 3:
        return o.Logic(r.choice(["and", "or"]), kid(), kid(), t="int")
    if k == 4:
        then, test = kid(), kid()
        return o.Cond(test, then, kid(), t="int")
    if k == 5:
        return o.Compare(r.choice(["==", "<"]), kid(), kid(), t="bool")
    if k == 6:
        return o.RankInSuit("<", kid(), o.Lit(r.randint(0, 2), t="rank"), r.random() < 0.5, t="bool")
    var = o.Local(r.choice(VARS), t="int")
    if k == 7:
        agg = r.choice(AGGS)
        d, w, b = kid(), kid(), kid()
        return o.AggLoop(agg, var, _domain(d), w, b if agg in ("all", "sum") else None, t="int")
    agg = r.choice(MASK_AGGS)
    d, m, t, b = kid(), kid(), kid(), kid()
    return o.MaskLoop(agg, var, _domain(d), o.Call("D_f", (m,), t="mask"), (t,), b if agg in ("all", "sum") else None,
                      t="int")


def random_expr(seed: int, size: int = 10):
    """A tree over a few terms drawn first (so that terms repeat) and the leaves."""
    r = random.Random(seed)
    leaf = lambda: r.choice(LEAVES)  # noqa: E731
    pool = [_node(r, leaf) for _ in range(r.randint(1, 3))]
    budget = [size]

    def kid():
        budget[0] -= 1
        if budget[0] <= 0 or r.random() < 0.35:
            return r.choice(pool) if r.random() < 0.6 else leaf()
        return _node(r, kid)
    return _node(r, kid)


EXPRS = st_.integers(0, 2 ** 32).map(random_expr)


def _shadows(x, bound=frozenset()) -> bool:
    """An aggregate inside another with the same variable (the compiler names each afresh)."""
    if isinstance(x, (o.AggLoop, o.MaskLoop)):
        if x.var.name in bound:
            return True
        bound = bound | {x.var.name}
    return any(_shadows(y, bound) for y in x.operands() if isinstance(y, o.Op))


class _St:
    def __init__(self):
        self.slots = [0, 3, None]


def _env(log: list):
    def logged(name, fn):
        def f(*args):
            log.append((name, args[1:] if args and isinstance(args[0], _St) else args))
            return fn(*args)
        return f

    def d_f(st, *a):
        return (sum(x or 0 for x in a) * 7 + 3) % 5 if all(isinstance(x, int) for x in a) else None
    return {
        "D_f": logged("D_f", d_f),
        "D_g": logged("D_g", lambda st, a, *_: 1 // (a % 3) if isinstance(a, int) else 2),  # fails on multiples of 3
        "D_list": logged("D_list", lambda st, x: [0, 1, 2][: (x or 0) % 4]),
        "_add": logged("_add", lambda a, b: a + b),
        "_fit": lambda x: x,
        "TAB_T": [4, 0, 2, 1, 3],
        "ORDER": [2, 0, 1, 4, 3], "SUIT": [0, 1, 0, 1, 0], "RANKPOS": [[1, 2, 3], [3, 2, 1]],
        "BIT": [1, 2, 4, 8, 16], "CARDKEY": {i: i for i in range(5)},
    }


def _run(src: str):
    log: list = []
    try:
        value = eval(f"lambda st, a0: {src}", _env(log))(_St(), 2)
    except Exception as exc:  # noqa: BLE001 - the kind of failure is what is compared
        value = ("raised", type(exc).__name__)
    return value, log


def _firsts(log: list) -> list:
    seen, out = set(), []
    for call in log:
        key = repr(call)
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


@settings(max_examples=500, deadline=None)
@given(EXPRS)
def test_an_expression_gives_the_same_and_works_out_the_same_terms_first(x):
    assume(not _shadows(x))
    new = cse(x)
    before, log_before = _run(py(x))
    after, log_after = _run(py(new))
    assert after == before, (py(x), py(new))
    assert _firsts(log_after) == _firsts(log_before), (py(x), py(new))
    assert len(log_after) <= len(log_before)


@settings(max_examples=200, deadline=None)
@given(EXPRS, st_.booleans())
def test_a_statement_with_its_mask_hoisted_gives_the_same(x, all_):
    """An aggregate over a mask, as a generated function returns it: the mask worked out first as
    a statement of its own, then the rest."""
    loop = o.MaskLoop("all" if all_ else "count", o.Local("_v9", t="int"), _domain(o.Local("a0", t="int")),
                      o.Arith("//", o.Call("D_f", (x,), t="mask"), o.Call("D_f", (x,), t="mask"), t="mask"),
                      (o.Compare("<", o.Local("_v9", t="int"), x, t="bool"),),
                      x if all_ else None, t="int")
    assume(not _shadows(loop))
    plain = f"def agg(st, a0):\n    return {py(loop)}\n"
    pre, _ = hoist(loop)
    assert [name for name, _ in pre] == ["_hm0"]
    fast = f"def agg(st, a0):\n{fast_stmt('return ', loop, '    ')}"
    results = []
    for src in (plain, fast):
        log: list = []
        ns = _env(log)
        exec(src, ns)
        try:
            value = ns["agg"](_St(), 2)
        except Exception as exc:  # noqa: BLE001
            value = ("raised", type(exc).__name__)
        results.append((value, _firsts(log)))
    assert results[0] == results[1], (plain, fast)


def _top(zone):
    return o.End("last", o.ZoneCards(o.Slot(zone, t="zone"), t="cards"), t="card")


def test_a_term_repeated_after_a_certain_first_evaluation_is_worked_out_once():
    top = _top(1)
    x = o.Logic("and", o.Compare("!=", top, o.Lit(None, t="none"), t="bool"),
                o.Compare("==", o.CardAttr("suit", o.Local("a0", t="card"), t="suit"),
                          o.CardAttr("suit", top, t="suit"), t="bool"), t="bool")
    new = cse(x)
    assert [type(y).__name__ for y in walk(new) if isinstance(y, (o.Keep, o.Kept))] == ["Keep", "Kept"]
    assert py(new).count("_last(") == 1 and "(_cse0 := _last(st.zones[st.slots[1]]))" in py(new)


def test_a_term_first_met_where_it_may_not_run_is_not_reused_outside_it():
    f = o.Call("D_f", (o.Local("a0", t="int"),), t="int")
    branch = o.Arith("+", o.Cond(o.Local("a0", t="int"), f, o.Lit(0, t="int"), t="int"), f, t="int")
    assert cse(branch) is branch
    either = o.Logic("or", o.Logic("and", o.Local("a0", t="int"), f, t="int"), f, t="int")
    assert cse(either) is either
    # inside one turn of an aggregate's loop, not after it (the loop may not turn at all)
    v = o.Local("_v", t="int")
    loop = o.AggLoop("all", v, _domain(o.Lit(1, t="int")), None, o.Compare("<", f, v, t="bool"), t="bool")
    after = o.Logic("and", loop, f, t="bool")
    assert cse(after) is after


def test_nothing_is_kept_inside_the_collection_a_loop_runs_over():
    """Python allows no assignment in a comprehension's iterable: a term repeated there is worked
    out again (a use of a term kept before the loop is allowed)."""
    f = o.Call("D_f", (o.Local("a0", t="int"),), t="int")
    inside = o.AggLoop("those", o.Local("_v", t="int"), _domain(o.Arith("+", f, f, t="int")), None, None, t="ints")
    assert cse(inside) is inside
    before = o.Logic("and", f, inside, t="ints")
    new = py(cse(before))
    assert new.startswith("((_cse0 := D_f(st, a0)) and") and "D_list(st, _add(_cse0, _cse0))" in new
    compile(f"lambda st, a0: {new}", "<test>", "eval")


def test_expressions_that_change_anything_are_left_as_written():
    f = o.Call("D_f", (o.Local("a0", t="int"),), t="int")
    drawn = o.Arith("+", o.Random(_domain(f), t="int"), f, t="int")
    assert cse(drawn) is drawn
    probed = o.Call("_probe", (o.Lit(0, t="int"), o.Call("_pin", (), t="none"), o.Arith("+", f, f, t="int")), t="bool")
    assert cse(probed) is probed
    assert hoist(drawn) == ([], drawn)


def test_an_operand_its_op_writes_twice_is_named_the_second_time():
    """A rank read in the card's own suit writes the card twice: kept, it is worked out once."""
    card = o.Call("D_f", (o.Local("a0", t="int"),), t="card")
    x = o.Logic("and", card, o.RankInSuit("<", card, o.Lit(1, t="rank"), False, t="bool"), t="bool")
    assert py(cse(x)) == "((_cse0 := D_f(st, a0)) and (ORDER[_cse0] < RANKPOS[SUIT[_cse0]][1]))"
    alone = o.RankInSuit("<", o.Keep("_k", card, t="card"), o.Lit(1, t="rank"), True, t="bool")
    assert py(alone) == "(RANKPOS[SUIT[(_k := D_f(st, a0))]][1] < ORDER[_k])"


def test_the_parts_of_a_comprehension_share_their_terms_within_a_turn():
    v = o.Local("_v", t="int")
    g = o.Call("D_g", (v,), t="int")
    domain, tests, elts = cse_loop(_domain(o.Local("a0", t="int")), (o.Compare("<", g, o.Lit(3, t="int"), t="bool"),),
                                   (g,))
    assert py(tests[0]) == "((_cse0 := D_g(st, _v)) < 3)" and py(elts[0]) == "_cse0"
    assert py(domain) == "D_list(st, a0)"
