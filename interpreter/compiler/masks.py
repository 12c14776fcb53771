"""The mask compiler: aggregates over cards as bit arithmetic.

Every card has one bit; its position follows the order `highest`/`lowest` use (a suit's
ranking, ties broken as the loops break them), so the highest card of a set is its highest
set bit. The state keeps a mask per zone, per kind of zone, per owner and of the cards face
up; the program keeps masks per suit, per rank and above/below each card. A card predicate
built from membership, ownership, suit, rank, face-up and identity tests, joined by
and/or/not, becomes one mask expression; an aggregate over such a predicate becomes `&`,
`|`, `^`, `int.bit_count()` and the lowest or highest set bit. What cannot be translated
stays a loop, over the cards that pass the translated part of the condition only.

Mask forms are built as IR ops (compiler/ir/ops.py: `ZoneMask`, `SuitMask`, `MaskBin`,
`MaskLoop`, `SetCall`, ...), which the Python emitter (pyemit.py) writes as text, so a `Guarded` op's
fast form is IR that an emitter other than Python's can read, and the questions asked of
them (which names a form's function is handed, what it reads) are walks over ops
(ir/reads.py).

Only results that cannot depend on the order of a collection are computed this way
(`all`, `any`, `no`, `count`, `sum`, `highest`, `lowest`), so a game is the same with masks
or without (tests/compiler/test_differential.py plays both)."""

from __future__ import annotations

from ..language import graph as g
from ..errors import RulesetError
from .ir import ops as o
from .ir.reads import free_names, replace, unparen, walk_shown, zone_kind
from .program import ELEM
from .pyemit import guarded_def, set_def

# attributes of the aggregate's card that a mask can test against a value fixed for the aggregate
_ATTR_MASK = {"owner": o.OwnerMask, "suit": o.SuitMask, "rank": o.RankMask, "zone": o.ZoneMaskOf, "order": o.OrderMask}
_ALLM = o.AllMask(t="mask")
_ZERO = o.Lit(0, t="int")
_CAND = o.Local("cand", t="mask")  # a set test's own cards, in a mask form made for one


def _union(parts: list):
    """The union of a set's parts (one part: itself)."""
    return parts[0] if len(parts) == 1 else o.MaskUnion(tuple(parts), t="mask")


def _chain(base, filters: list):
    """base & f1 & f2 ... as the loop's tests would let cards through, left to right."""
    return o.MaskChain(base, tuple(filters), t="mask") if filters else base


def _and(a, b):
    return o.MaskBin("&", a, b, t="mask")


def mentions(e, var: str) -> bool:
    """Whether expression `e` refers to `var` (an inner aggregate over the same name hides it)."""
    if isinstance(e, g.Name):
        return e.name == var
    if isinstance(e, g.Agg) and e.var == var:
        return mentions(e.domain, var)
    for name in type(e).model_fields:
        v = getattr(e, name)
        if isinstance(v, g.Node) and mentions(v, var):
            return True
        if isinstance(v, tuple) and any(isinstance(x, g.Node) and mentions(x, var) for x in v):
            return True
    return False


def conjuncts(e) -> list:
    """`a and b and c` -> [a, b, c]."""
    if isinstance(e, g.BinOp) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


class Masks:
    """Mixed into the Compiler; `mask_aggregate` is tried after the loop form compiled (so every
    error has already been reported in the loop's words) and returns None to keep the loop."""

    def mask_aggregate(self, e: g.Agg, scope: dict, v: o.Local, dom: o.Op, loop: o.Op) -> o.Guarded | None:
        if not self.use_masks or e.op in ("those", "max", "min"):  # (max and min: the loop alone)
            return None
        try:
            fast = self._mask_aggregate(e, scope, v, dom)
        except RulesetError:  # cannot happen after the loop form compiled; keep the loop if it does
            return None
        return None if fast is None else self.guarded(fast, loop)

    def guarded(self, fast: o.Op, loop: o.Op) -> o.Guarded:
        """The mask form, falling back to the loop form when it meets a none: the mask reads
        every test at once, where the loop might have stopped before one that fails, so the
        loop decides what happens then (a value, or the same error in the same place)."""
        free = _locals(free_names(fast, loop))
        name = self.fresh("agg")
        self.guards[name] = (fast, loop)
        x = o.Guarded(name, free, fast, loop, t=getattr(loop, "t", None))
        exec(guarded_def(x), self.ns)
        return x

    def _mask_aggregate(self, e, scope, v, dom):
        dom_src, td = self.sx(e.domain, scope)
        if ELEM.get(td) != "card" or td not in ("cards", "zone", "zonekind"):
            return None
        parts = self.domain_masks(e.domain, scope)
        if parts is None:
            return None
        inner = dict(scope)
        inner[e.var] = (v, "card")
        masked, rest = [], []
        union = _union(parts)
        for c in conjuncts(e.where) if e.where is not None else []:
            cand = _chain(union, masked)  # what the earlier tests let through
            m = None if rest else self.predicate_mask(c, e.var, scope, cand)  # a prefix only: the loop's order
            (rest.append(c) if m is None else masked.append(m))
        op = e.op
        body_mask = None
        if op == "all":
            body_mask = self.predicate_mask(e.body, e.var, scope, _chain(union, masked))
        whole = not rest and (op in ("any", "no", "count", "highest", "lowest") or
                              (op == "all" and body_mask is not None))
        if not whole and not masked:
            return None  # nothing to gain: the loop stays as it is
        if whole:
            if op == "all":
                return o.Compare("==", _and(_chain(union, masked), o.MaskNot(body_mask, t="mask")), _ZERO, t="bool")
            if op in ("any", "no"):
                return o.Compare("!=" if op == "any" else "==", o.Paren(_chain(union, masked), t="mask"), _ZERO, t="bool")
            if op == "count":
                return o.AddAll(tuple(o.PopCount(o.Paren(_chain(p, masked), t="mask"), t="int") for p in parts), t="int")
            return o.MaskCard("hi" if op == "highest" else "lo", _chain(union, masked), t="card")
        # the rest of the condition is a loop, in the set's own order, over the cards that pass
        # the masked part: one bit test each instead of the whole test
        tests = tuple(self.sx(c, inner)[0] for c in rest)
        bits = _chain(_ALLM, masked)
        if op in ("all", "sum"):
            return o.MaskLoop(op, v, dom, bits, tests, self.sx(e.body, inner)[0], t="bool" if op == "all" else "int")
        if op in ("any", "no"):
            test = o.MaskLoop("any", v, dom, bits, tests, None, t="bool")
            return test if op == "any" else o.Not(test, t="bool")
        if op == "count":
            return o.MaskLoop(op, v, dom, bits, tests, None, t="int")
        if op in ("highest", "lowest"):
            return o.MaskLoop(op, v, dom, bits, tests, None, t="card")
        return None

    # ------------------------------------------------------------------ sets of cards
    def top_domain(self, domain, where, var: str, scope) -> o.Op | None:
        """`c in Z where c == top(c.zone) and ...`: only the top card of each zone of Z can
        pass, so the loop runs over those (in the same order) instead of every card below."""
        if not self.p.fast or where is None or not self._is_top_test(conjuncts(where)[0], var, ()):
            return None
        src, t = self.sx(domain, scope)
        if t == "zonekind" and src in self.kind_of:
            return o.KindTops(self.kind_of[src], t="cards")
        if t == "zone":
            return o.TopSlice(src, t="cards")
        return None

    def after_top_test(self, where):
        """The rest of a where condition that `top_domain` read (`c == top(c.zone) and R`): R,
        or None. Every card of the tops passes the first test, so the loop need not ask it."""
        parts = conjuncts(where)[1:]
        if not parts:
            return None
        rest = parts[0]
        for part in parts[1:]:
            rest = g.BinOp(op="and", left=rest, right=part, loc=part.loc)
        return rest

    def _is_top_test(self, e, var: str, seen: tuple) -> bool:
        if isinstance(e, g.Call) and e.func in self.defines and len(e.args) == 1 and _is_var(e.args[0], var):
            d = self.defines[e.func]
            return (len(d.params) == 1 and d.params[0].type == "card" and d.name not in seen
                    and self._is_top_test(d.body, d.params[0].name, seen + (d.name,)))
        if isinstance(e, g.BinOp) and e.op == "==" and "top" not in self.defines:
            for a, b in ((e.left, e.right), (e.right, e.left)):
                if _is_var(a, var) and isinstance(b, g.Call) and b.func == "top" and len(b.args) == 1 \
                        and isinstance(b.args[0], g.Attr) and b.args[0].name == "zone" and _is_var(b.args[0].obj, var):
                    return True
        return False

    def _parts(self, e, scope, leaf) -> list | None:
        """`a + b` and a definition's body followed down to the parts `leaf` reads, as one list
        (None as soon as one part cannot be read)."""
        if isinstance(e, g.BinOp) and e.op == "+":
            a, b = self._parts(e.left, scope, leaf), self._parts(e.right, scope, leaf)
            return None if a is None or b is None else a + b
        if isinstance(e, g.Call) and e.func in self.defines and e.func not in self.def_stack:
            d = self.defines[e.func]
            if len(d.params) != len(e.args):
                return None
            inner = {prm.name: (o.Paren(self.sx(a, scope)[0], t=prm.type), prm.type) for prm, a in zip(d.params, e.args)}
            self.def_stack.append(d.name)
            try:
                return self._parts(d.body, inner, leaf)
            finally:
                self.def_stack.pop()
        return leaf(e, scope)

    def domain_masks(self, e, scope) -> list[o.Op] | None:
        """A collection of cards as masks whose multiset union it is (`a + b` keeps both
        parts, so a count over it still counts a card twice where the list would)."""
        return self._parts(e, scope, self._domain_mask)

    def _domain_mask(self, e, scope) -> list[o.Op] | None:
        if isinstance(e, g.Call) and e.func in ("above", "below", "cards_of") and len(e.args) == 1:
            a = self.sx(e.args[0], scope)[0]
            return [o.SuitMask(a, t="mask") if e.func == "cards_of" else o.NeighbourMask(e.func, a, t="mask")]
        if isinstance(e, g.Agg) and e.op == "those":
            parts = self.domain_masks(e.domain, scope)
            if parts is None:
                return None
            w = self.predicate_mask(e.where, e.var, scope) if e.where is not None else _ALLM
            return None if w is None else [_and(p, w) for p in parts]
        if isinstance(e, g.Name) and e.name == "cards" and e.name not in scope:
            return [_ALLM]
        if isinstance(e, (g.Name, g.Call)):
            src, t = self.sx(e, scope)
            if t == "zone":
                return [o.ZoneMask(src, t="mask")]
            if t == "zonekind" and src in self.kind_of:
                return [o.KindMask(self.kind_of[src], t="mask")]
        return None

    def disjoint_zones(self, e, scope) -> bool:
        """Whether a collection is zones of different kinds joined by `+` (a card lies in one
        zone only, so no card comes twice and the list needs no de-duplication)."""
        kinds = self._parts(e, scope, self._zone_kind)
        return kinds is not None and len(kinds) == len(set(kinds))

    def _zone_kind(self, e, scope) -> list | None:
        if isinstance(e, (g.Name, g.Call)):
            src, t = self.sx(e, scope)
            if t == "zonekind" and src in self.kind_of:
                return [self.kind_of[src]]
            k = zone_kind(src) if t == "zone" else None
            if k is not None:
                return [k]
        return None

    # ------------------------------------------------------------------ predicates
    def predicate_mask(self, e, var: str, scope, cand=_ALLM):
        """The mask of the cards `var` for which `e` holds, or None when it is not expressible.
        Only the bits of `cand` (the cards the caller will look at) need be right: a test that
        costs work per card (a quantifier over the cards above or below) is worked out for
        those cards alone."""
        if not mentions(e, var):
            src, t = self.sx(e, scope)
            return o.Cond(src, _ALLM, _ZERO, t="mask") if t == "bool" else None
        if isinstance(e, g.BinOp) and e.op in ("and", "or"):
            # a side that does not depend on the card is a test, kept in front as the loop
            # would: `b != none and b.suit == ...` must not read b's suit when b is none
            for test, other in ((e.left, e.right), (e.right, e.left)):
                if not mentions(test, var):
                    m = self.predicate_mask(other, var, scope, cand)
                    if m is None:
                        return None
                    t = self.sx(test, scope)[0]
                    return o.Cond(t, m, _ZERO, t="mask") if e.op == "and" else o.Cond(t, _ALLM, m, t="mask")
            a = self.predicate_mask(e.left, var, scope, cand)
            if a is None:
                return None
            # the right side of an `and` matters only where the left one holds (only set tests
            # read `cand`; plain bit operations come out the same either way)
            b = self.predicate_mask(e.right, var, scope, _and(cand, a) if e.op == "and" else cand)
            if b is None:
                return None
            return o.MaskBin("&" if e.op == "and" else "|", a, b, t="mask")
        if isinstance(e, g.UnOp) and e.op == "not":
            a = self.predicate_mask(e.operand, var, scope, cand)
            return None if a is None else o.MaskNot(a, t="mask")
        if isinstance(e, g.BinOp) and e.op in ("in", "not in"):
            m = self._membership_mask(e, var, scope)
            return None if m is None else (m if e.op == "in" else o.MaskNot(m, t="mask"))
        if isinstance(e, g.BinOp) and e.op in ("<", "<=", ">", ">="):
            return self._order_mask(e, var, scope)
        if isinstance(e, g.BinOp) and e.op in ("==", "!="):
            m = self._equality_mask(e, var, scope)
            return None if m is None else (m if e.op == "==" else o.MaskNot(m, t="mask"))
        if isinstance(e, g.Attr) and e.name == "face_up" and _is_var(e.obj, var):
            return o.UpMask(t="mask")
        if isinstance(e, g.Call) and e.func in self.defines and e.func not in self.def_stack:
            return self._define_mask(e, var, scope, cand)
        if isinstance(e, g.Agg):
            return self._suffix_mask(e, var, scope, cand)
        return None

    def _membership_mask(self, e, var, scope):
        if _is_var(e.left, var) and not mentions(e.right, var):
            parts = self.domain_masks(e.right, scope)
            if parts is None:
                return None
            return _union(parts)
        if isinstance(e.left, g.Attr) and e.left.name == "rank" and _is_var(e.left.obj, var) \
                and isinstance(e.right, g.Name) and e.right.name in self.rs.deck.groups and e.right.name not in scope:
            ranks = self.rs.deck.groups[e.right.name]
            return o.Global(self.const(_union_int(self.p.rank_mask.get(self.rank_index[r], 0) for r in ranks)), t="mask")
        return None

    def _equality_mask(self, e, var, scope):
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if mentions(other, var):
                continue
            if _is_var(side, var):
                src, t = self.sx(other, scope)
                return o.CardMask(src, t="mask") if t in ("card", "none") else None
            if isinstance(side, g.Attr) and _is_var(side.obj, var) and side.name in _ATTR_MASK:
                if side.name == "rank" and isinstance(other, g.IntLit):
                    src = self._rank_literal(other)
                else:
                    src, t = self.sx(other, scope)
                    want = {"owner": "player", "order": "int"}.get(side.name, side.name)
                    if t not in (want, "none"):
                        return None
                return _ATTR_MASK[side.name](src, t="mask")
        return None

    def _order_mask(self, e, var, scope):
        """`c.order >= X`, `X > c.order`, `c > d`, ...: the cards whose place in their suit's
        ranking is at least some number, from a table of masks by order."""
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
        for side, other, op in ((e.left, e.right, e.op), (e.right, e.left, flip[e.op])):
            if mentions(other, var):
                continue
            if isinstance(side, g.Attr) and side.name == "order" and _is_var(side.obj, var):
                src, t = self.sx(other, scope)
                if t != "int":
                    return None
            elif _is_var(side, var):  # `c > d`: the card's order against the other card's
                src, t = self.sx(other, scope)
                if t != "card":
                    return None
                src = o.CardAttr("order", src, t="int")
            else:
                continue
            if op in (">=", ">"):
                return o.OrderFrom(src, 0 if op == ">=" else 1, t="mask")
            return o.MaskNot(o.OrderFrom(src, 0 if op == "<" else 1, t="mask"), t="mask")
        return None

    def _define_mask(self, e, var, scope, cand=_ALLM):
        """A definition called on the aggregate's card: its body, read with that card."""
        d = self.defines[e.func]
        if len(d.params) != len(e.args):
            return None
        inner, elem = {}, None
        for prm, a in zip(d.params, e.args):
            if _is_var(a, var) and prm.type == "card" and elem is None:
                elem = prm.name
            elif mentions(a, var):
                return None
            else:
                inner[prm.name] = (o.Paren(self.sx(a, scope)[0], t=prm.type), prm.type)
        if elem is None:
            return None
        self.def_stack.append(d.name)
        try:
            m = self.predicate_mask(d.body, elem, inner, _CAND)
        finally:
            self.def_stack.pop()
        if m is None:
            return None
        if not any(isinstance(x, o.SetCall) for x in walk_shown(m)) or (isinstance(m, o.SetCall) and m.cand == _CAND):
            # a few bit operations, or one set test already kept
            return replace(m, lambda x: cand if isinstance(x, o.Local) and x.name == "cand" else None)
        # work per card, asked again and again (a rule's test, its moves, other tests): the
        # definition's cards, once per state and set of cards
        free = _locals(free_names(m))
        name = self.set_helpers.get(("define", m, free))
        if name is None:
            name = self.set_helpers[("define", m, free)] = self.fresh("set")
            memo = self.memo_of(m)
            self.p.set_ir[name] = x = o.SetTest(name, m, free, memo)
            exec(set_def(x), self.ns)
        return o.SetCall(name, cand, free, t="mask")

    def _suffix_mask(self, e, var, scope, cand):
        """`all d in above(c): P(d)`, `no d in below(c) where P(d)`, ... for every card c of
        `cand` at once. A suit's cards lie in order among the bits, so c passes exactly when no
        failing card of its suit lies above (below) it: one look at the highest (lowest)
        failing card per suit, not one loop per card. P may read c's owner: the cards are then
        taken owner by owner, with the owner fixed."""
        dom = e.domain
        if e.op not in ("all", "no", "any") or not (isinstance(dom, g.Call) and dom.func in ("above", "below")
                                                     and len(dom.args) == 1 and _is_var(dom.args[0], var)):
            return None
        k = self.fresh("sv")[3:]
        here, owner = o.Local(f"_SV{k}", t="card"), o.Local(f"_o{k}", t="player")
        inner = dict(scope)
        inner[var] = (here, "card")
        where = self.predicate_mask(e.where, e.var, inner) if e.where is not None else _ALLM
        if where is None:
            return None
        if e.op == "all":
            body = self.predicate_mask(e.body, e.var, inner, where)
            if body is None:
                return None
            fail = _and(where, o.MaskNot(body, t="mask"))
        else:
            fail = where
        fail = replace(fail, lambda x: owner if isinstance(x, o.CardAttr) and x.attr == "owner"
                       and unparen(x.card) == here and isinstance(unparen(x.card), o.Local) else None)
        if any(isinstance(x, o.Local) and _is_sv(x.name) for x in walk_shown(fail)):
            return None  # reads the card some other way: no mask
        keep = dom.func
        free = _locals(free_names(fail) - {owner.name})
        by_owner = any(x == owner and isinstance(x, o.Local) for x in walk_shown(fail))
        anyone = replace(fail, lambda x: o.Local("_OWNER", t="player") if isinstance(x, o.Local) and x == owner else None)
        same = (keep, anyone, free)  # the same question asked elsewhere
        name = self.set_helpers.get(same)
        if name is not None:
            call = o.SetCall(name, cand, free, t="mask")
            return call if e.op in ("all", "no") else o.MaskNot(call, t="mask")
        name = self.set_helpers[same] = self.fresh("set")
        # worked out once per state and set of cards: a rule's test, its moves and the tests
        # inside other definitions ask the same question between two changes
        memo = self.memo_of(fail)
        self.p.set_ir[name] = x = o.SetTest(name, fail, free, memo, keep, owner if by_owner else None)
        exec(set_def(x), self.ns)
        call = o.SetCall(name, cand, free, t="mask")
        return call if e.op in ("all", "no") else o.MaskNot(call, t="mask")


def _locals(names) -> tuple:
    """Names handed to a generated function, in order, as its parameters."""
    return tuple(o.Local(n) for n in sorted(names))


def _is_var(e, var: str) -> bool:
    return isinstance(e, g.Name) and e.name == var


def _is_sv(name: str) -> bool:
    return name.startswith("_SV") and name[3:].isdigit()


def _union_int(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def bit_tables(order_key: list) -> tuple[list[int], list[int]]:
    """Bit positions for cards: ascending by the key `highest`/`lowest` use. Returns
    (bit of each card as 1 << position, card at each position)."""
    by_key = sorted(range(len(order_key)), key=order_key.__getitem__)
    bit = [0] * len(order_key)
    for pos, c in enumerate(by_key):
        bit[c] = 1 << pos
    return bit, by_key


def make_runtime(card_at: list[int]) -> dict:
    """The per-program functions the generated mask code calls."""

    def _bits(m):
        while m:
            b = m & -m
            yield card_at[b.bit_length() - 1]
            m ^= b

    def _hi(m):
        return card_at[m.bit_length() - 1] if m else None

    def _lo(m):
        return card_at[(m & -m).bit_length() - 1] if m else None

    def _zmask(st, z):
        return st.zmask[z] if z is not None else 0

    return {"_bits": _bits, "_hi": _hi, "_lo": _lo, "_zmask": _zmask}


def make_order_runtime(card_order: list[int], card_bit: list[int]) -> dict:
    """`_order_from(k)`: the mask of the cards whose order (place in their suit's ranking) is
    at least k, for any whole number k."""
    top = max(card_order, default=0)
    table = [0] * (top + 2)
    for c, o in enumerate(card_order):
        for k in range(o + 1):
            table[k] |= card_bit[c]

    def _order_from(k):
        if k.__class__ is not int:  # a none or something else: the loop form decides
            raise TypeError("not a number")
        return table[k] if 0 <= k <= top + 1 else (table[0] if k < 0 else 0)

    return {"_order_from": _order_from}


def make_suffix_runtime(card_at: list[int], suit_masks: list[int], above: list[int], below: list[int]) -> dict:
    """Per suit, the cards with no failing card above (below) them: bits are in order within
    a suit, so the highest (lowest) failing card of the suit decides for all of them."""
    below_at = [below[c] for c in card_at]  # by bit position
    above_at = [above[c] for c in card_at]

    def _none_above(fail, cand):
        out = cand
        for sm in suit_masks:
            if cand & sm:
                f = fail & sm
                if f:
                    out &= ~below_at[f.bit_length() - 1]
        return out

    def _none_below(fail, cand):
        out = cand
        for sm in suit_masks:
            if cand & sm:
                f = fail & sm
                if f:
                    out &= ~above_at[(f & -f).bit_length() - 1]
        return out

    return {"_none_above": _none_above, "_none_below": _none_below}
