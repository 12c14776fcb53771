"""Common subexpressions, worked out once: a pass over the IR's ops (ir/ops.py), run once for
each expression the Python fast path is written from. A term is often spelled out several times
in one expression (a test that compares a card with the top card of a pile by suit and by rank
names that top card four times). Within one expression the state cannot change, so the second
time a term is needed its value is the first's: the first becomes `Keep(name, term)`, the later
ones `Kept(name, term)`, which the Python emitter writes as `(name := term)` and `name`.

Only where the first evaluation is certain to have happened before the later one (the left side
of an `and` before its right side, a test before either branch, an aggregate's test before its
body in the same turn of its loop), so every expression still evaluates exactly the terms it did
before, in the same order, up to the first one that raises: a failing expression fails where it
did, and the fallbacks and error messages that hang on that stay as they were. Where an op's
Python text loops (an aggregate, a choice's rows), what it works out in one turn holds for that
turn only, and nothing is kept inside the collection it loops over (Python allows no assignment
there). Expressions that change anything (a chance draw, the fuzzer's probes) are left exactly as
written.

`hoist` does one thing more for a statement of a generated function: a mask an aggregate works
out once for its whole loop becomes a statement of its own before it (`_hmN = mask`), so that the
mask's own repeated terms can be kept too. The rules are the ops' (`_RULES`), never read back
from generated text.

The C backend is handed the ops as lowered: C leaves unspecified the order in which a call's
arguments are worked out, so a term kept in one argument could be read in another before it was
kept (its emitter writes Keep and Kept as the term itself)."""

from __future__ import annotations

from .ir import ops as o
from .ir.reads import unparen

# terms not worth a name: constants (a list of them too), names, and the tests and branches whose
# value is one truth (what they compare is kept where it repeats)
_NOT_TERMS = frozenset({o.Lit, o.Global, o.Seats, o.NPlayers, o.Local, o.Paren, o.Opt, o.LoopMore, o.ListOf,
                        o.AllMask, o.UpMask, o.Logic, o.Cond, o.Not, o.Negated, o.Neg, o.Compare,
                        o.CardCompare, o.RankInSuit, o.InZone, o.InKind, o.In, o.NonEmpty, o.Empty,
                        o.Random, o.Shuffled, o.Keep, o.Kept})
# the masks an aggregate's loop reads as they are: a statement of their own would cost more
_CHEAP_MASKS = frozenset({o.AllMask, o.UpMask, o.ZoneMask, o.KindMask, o.OwnerMask, o.Local, o.Lit,
                          o.Global, o.Kept})


def changes_nothing(x) -> bool:
    """No chance draw and no call but a definition's (the fuzzer's probes log what they see)."""
    todo = [x]
    while todo:
        y = todo.pop()
        if isinstance(y, o.CHANCE) or (isinstance(y, o.Call) and not y.fn.startswith(("D_", "U_"))):
            return False
        todo.extend(_ops(tuple(y.operands())))
    return True


def cse(x, prefix: str = "_cse"):
    """x with its repeated terms worked out once (x itself when none repeats)."""
    if not isinstance(x, o.Op) or not changes_nothing(x):
        return x
    y = _compared(x)
    w = _Walk(prefix)
    w.visit(y, (), {}, True)
    return w.rebuild(y, ()) if w.uses else x


def _compared(x):
    """x with each test of a card's zone or kind that never meets a none written as the
    comparison it is (`st.card_kind[c] == 2`, the same text), so that what it reads of the card
    can be kept for the next test (`c in hand or c in exposed`)."""
    memo: dict[int, object] = {}

    def go(y):
        r = memo.get(id(y))
        if r is not None:
            return r
        if isinstance(y, o.Paired | o.Guarded):  # their forms are functions of their own
            r = y
        elif isinstance(y, o.InKind) and y.check == "none" and isinstance(y.kind, int):
            r = o.Compare("==", o.CardKind(go(unparen(y.item)), t="int"), o.Lit(y.kind, t="int"), t=y.t)
        elif isinstance(y, o.InZone) and y.check == "none":
            r = o.Compare("==", o.CardAttr("zone", go(unparen(y.item)), t="zone"), go(y.zone), t=y.t)
        else:
            r = _map(y, go)
        memo[id(y)] = r
        return r
    return go(x)


def _map(x, fn):
    """x with fn applied to each op among its operands (x itself when none changes)."""
    vals, changed = [], False
    for f in x.fields:
        v = getattr(x, f)
        nv = _map_value(v, fn)
        changed |= nv is not v
        vals.append(nv)
    return type(x)(*vals, t=x.t) if changed else x


def _map_value(v, fn):
    if isinstance(v, o.Op):
        return fn(v)
    if isinstance(v, tuple):
        out = tuple(_map_value(w, fn) for w in v)
        return v if all(a is b for a, b in zip(out, v)) else out
    return v


def cse_loop(domain, tests: tuple, elts: tuple, prefix: str = "_cse"):
    """The parts of a comprehension written around ops (`[elts for v in domain if tests]`),
    each with its repeated terms worked out once, as cse does for an aggregate's."""
    parts = (domain, *tests, *elts)
    if not all(changes_nothing(p) for p in parts):
        return domain, tests, elts
    w = _Walk(prefix)
    w.loop([((0,), domain)], [((1 + i,), t) for i, t in enumerate(tests)],
           [((1 + len(tests) + i,), e) for i, e in enumerate(elts)], {})
    if not w.uses:
        return domain, tests, elts
    out = [w.rebuild(p, (k,)) for k, p in enumerate(parts)]
    return out[0], tuple(out[1:1 + len(tests)]), tuple(out[1 + len(tests):])


def hoist(x, k: int = 0):
    """For a statement whose value is x: ([(name, mask)], x reading name) when x is an
    aggregate over a mask worked out once for its loop (alone, or as the first thing a length,
    an end, an extreme or a collection made distinct reads), else ([], x)."""
    if not isinstance(x, o.Op) or not changes_nothing(x):
        return [], x
    inner = x.coll if isinstance(x, (o.Len, o.End, o.Extreme, o.Dedupe)) else x
    if not isinstance(inner, (o.MaskLoop, o.BitsIn)) or type(inner.mask) in _CHEAP_MASKS:
        return [], x
    name = f"_hm{k}"
    kept = o.Kept(name, inner.mask, t=inner.mask.t)
    new = _with(inner, mask=kept)
    return [(name, inner.mask)], (new if inner is x else _with(x, coll=new))


def _with(x, **changes):
    return type(x)(*(changes.get(f, getattr(x, f)) for f in x.fields), t=x.t)


def _ops(v):
    if isinstance(v, o.Op):
        yield v
    elif isinstance(v, tuple):
        for w in v:
            yield from _ops(w)


def _under(v, sub: tuple):
    """(path, op) of every op in a field's value (an op, or tuples of them)."""
    if isinstance(v, o.Op):
        yield sub, v
    elif isinstance(v, tuple):
        for i, w in enumerate(v):
            yield from _under(w, sub + (i,))


def _field(x, f: str, path: tuple):
    return [(path + sub, y) for sub, y in _under(getattr(x, f), (f,))]


class _Walk:
    """Walks ops in the order their Python text evaluates them, with the terms certainly worked
    out so far (`avail`: term -> the path of its first place); a later equal term becomes a use
    of the first. A path is the fields and indices from the root, so equal ops shared in two
    places are told apart."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.uses: dict[tuple, tuple] = {}  # path of a later place -> path of the first
        self.names: dict[tuple, str] = {}   # path of a first place -> its name
        self.bare: dict[int, object] = {}   # id(op) -> the op without its brackets (Paren)

    def key(self, x):
        """x without the brackets an argument written in place keeps (`SUIT[(a0)]` is
        `SUIT[a0]`): what makes two terms one."""
        r = self.bare.get(id(x))
        if r is None:
            r = self.bare[id(x)] = self.key(x.x) if type(x) is o.Paren else _map(x, self.key)
        return r

    def visit(self, x, path: tuple, avail: dict, define: bool) -> None:
        term = type(x) not in _NOT_TERMS
        if term:
            key = self.key(x)
            first = avail.get(key)
            if first is not None:  # worked out already: not again
                self.uses[path] = first
                if first not in self.names:
                    self.names[first] = f"{self.prefix}{len(self.names)}"
                return
        rule = _RULES.get(type(x))
        if rule is not None:
            rule(self, x, path, avail, define)
        else:
            for f in x.fields:
                for p, y in _field(x, f, path):
                    self.visit(y, p, avail, define)
        if term and define:
            avail[key] = path

    def each(self, parts, avail: dict, define: bool) -> None:
        for p, y in parts:
            self.visit(y, p, avail, define)

    def loop(self, iterables, tests, elts, avail: dict, define: bool = True) -> None:
        """A comprehension: the collections it loops over (nothing kept inside them), then per
        turn its tests in order and the element, each seeing what came before it in the turn."""
        self.each(iterables, avail, False)
        inner = dict(avail)
        self.each(tests, inner, define)
        self.each(elts, inner, define)

    def rebuild(self, x, path: tuple):
        first = self.uses.get(path)
        if first is not None:
            return o.Kept(self.names[first], x, t=x.t)
        vals, changed = [], False
        for f in x.fields:
            v = getattr(x, f)
            nv = self._rebuild_value(v, path + (f,))
            changed |= nv is not v
            vals.append(nv)
        new = type(x)(*vals, t=x.t) if changed else x
        name = self.names.get(path)
        return o.Keep(name, new, t=x.t) if name is not None else new

    def _rebuild_value(self, v, path: tuple):
        if isinstance(v, o.Op):
            return self.rebuild(v, path)
        if isinstance(v, tuple):
            out = tuple(self._rebuild_value(w, path + (i,)) for i, w in enumerate(v))
            return v if all(a is b for a, b in zip(out, v)) else out
        return v


# ---- the ops whose text does not evaluate its operands once each, left to right ---------------

def _logic(w: _Walk, x, path, avail, define):
    """`a and b and c`: only the first is certain; each later one sees those before it."""
    chain = []

    def flat(y, p):
        if isinstance(y, o.Logic) and y.op == x.op and type(y) is o.Logic:
            flat(y.a, p + ("a",))
            flat(y.b, p + ("b",))
        else:
            chain.append((p, y))
    flat(x.a, path + ("a",))
    flat(x.b, path + ("b",))
    w.visit(chain[0][1], chain[0][0], avail, define)
    w.each(chain[1:], dict(avail), define)


def _cond(w: _Walk, x, path, avail, define):
    w.visit(x.test, path + ("test",), avail, define)
    w.visit(x.then, path + ("then",), dict(avail), define)
    w.visit(x.else_, path + ("else_",), dict(avail), define)


def _in_zone(w: _Walk, x, path, avail, define):
    """The card first; the zone only when the card is not none (unless it never is)."""
    w.visit(x.item, path + ("item",), avail, define)
    f = "zone" if isinstance(x, o.InZone) else "kind"
    w.each(_field(x, f, path), avail if x.check == "none" else dict(avail), define)


_BODIES = ("all", "sum", "max", "min")  # the aggregates whose text works out a body (the others, their test alone)


def _agg_loop(w: _Walk, x, path, avail, define):
    if x.where is None and x.agg in ("any", "no", "count"):  # the length of the collection
        w.visit(x.domain, path + ("domain",), avail, define)
        return
    dom = _field(x, "domain", path)
    where = _field(x, "where", path)
    if x.agg in ("any", "no"):  # the test is the element
        w.loop(dom, [], where, avail, define)
    else:  # only all and sum write a body
        w.loop(dom, where, _field(x, "body", path) if x.agg in _BODIES else [], avail, define)


def _mask_loop(w: _Walk, x, path, avail, define):
    w.loop(_field(x, "mask", path) + _field(x, "domain", path), _field(x, "tests", path),
           _field(x, "body", path) if x.agg in _BODIES else [], avail, define)


def _bits_in(w: _Walk, x, path, avail, define):
    w.loop(_field(x, "mask", path) + _field(x, "domain", path), [], [], avail, define)


def _combinations(w: _Walk, x, path, avail, define):
    """Nested loops: each later collection is worked out inside the turns of the ones before."""
    inner = dict(avail)
    for i, (dom, tests) in enumerate(zip(x.domains, x.tests)):
        p = path + ("domains", i)
        w.visit(dom, p, avail if i == 0 else inner, False)
        w.each(_under(tests, path + ("tests", i)), inner, define)


def _each_seat(w: _Walk, x, path, avail, define):
    w.visit(x.x, path + ("x",), dict(avail), define)


def _subsets(w: _Walk, x, path, avail, define):
    """Its test and weight are functions of their own, called card set by card set."""
    for f in ("domain", "target", "low", "high"):
        w.each(_field(x, f, path), avail, define)


def _guarded(w: _Walk, x, path, avail, define):
    """The call of its function: the names handed in (its forms are the function's own)."""
    w.each(_field(x, "free", path), avail, define)


def _set_call(w: _Walk, x, path, avail, define):
    w.each(_field(x, "cand", path) + _field(x, "free", path), avail, define)


def _opaque(w: _Walk, x, path, avail, define):
    """Its text names a function of its own, and nothing else."""


_RULES = {o.Logic: _logic, o.Cond: _cond, o.InZone: _in_zone, o.InKind: _in_zone, o.AggLoop: _agg_loop,
          o.MaskLoop: _mask_loop, o.BitsIn: _bits_in, o.Combinations: _combinations, o.EachSeat: _each_seat,
          o.Subsets: _subsets, o.Guarded: _guarded, o.SetCall: _set_call, o.Paired: _opaque, o.Keep: _opaque,
          o.Kept: _opaque}
