"""Which definitions are pure: their answer depends on their arguments and the deck alone, never
on the game (its zones, variables, options, players or chance). The meld search (`split ... into`,
runtime/unit/split.c) asks its group tests of the same few cards again and again, in one search
and from one deal to the next; a pure test's answer to a group is kept for good (per thread, by
the group's cards), and where every test and the score are pure, the whole search's answer too
(by its cards, counts and sizes); any other test is asked every time.

Conservative by construction: an op is allowed only if it is in ALLOWED (a card's suit, rank and
place in its suit's ranking, the deck's value tables, arithmetic, tests, aggregates over what the
definition is given, the deck's fixed masks), and a definition it calls must itself be pure."""

from __future__ import annotations

from ...compiler.ir import ops as o

# ops that read nothing of the game (their operands are checked in turn)
ALLOWED = frozenset({
    o.Lit, o.Global, o.Local, o.Paren, o.ListOf,
    o.CardValue, o.CardsOf, o.CardOf,
    o.Arith, o.Power, o.Neg, o.Not, o.Logic, o.Cond, o.Compare, o.In, o.Negated, o.Range, o.Concat, o.Len,
    o.NonEmpty, o.Empty, o.End, o.Extreme, o.EndN, o.Abs, o.MinMax, o.AddAll,
    o.AggLoop, o.Dedupe, o.Keep, o.Kept,
    o.AllMask, o.SuitMask, o.RankMask, o.OrderMask, o.CardMask, o.OrderFrom, o.MaskBin, o.MaskNot, o.MaskUnion,
    o.MaskChain, o.PopCount, o.MaskCard, o.MaskLoop, o.BitsIn,
})
# the answers kept (unit/split.c: a key is the search's site, the group's kind and up to four cards
# of 13 bits each): 16,384 a thread, 144 KB, in a program with a pure group test and at most 8,190 cards
CR_TC_N = 16384  # (a power of 2)
CR_TC_CARDS = 8190  # (a card numbered 8189 is kept as 8190: 13 bits)
MAX_SPLIT_SITES = 511  # (a key's top 12 bits: the site and the group's kind, 8 a site)
STATIC_ATTRS = frozenset({"suit", "rank", "order"})  # (owner, zone, face_up, played_by, ...: where the card lies now)


class Purity:
    """`pure(name)`: whether the definition `name` (a key of the emitter's `irs`: name -> (params,
    body, type)) is pure, worked out once per name."""

    def __init__(self, irs: dict):
        self.irs = irs
        self.known: dict[str, bool] = {}

    def pure_fn(self, fn: str) -> bool:
        """Whether a generated function (`D_name` or `U_name`: a group test, a score) is a pure definition's."""
        return fn[:2] in ("D_", "U_") and self.pure(fn[2:])

    def pure(self, name: str) -> bool:
        hit = self.known.get(name)
        if hit is not None:
            return hit
        if name not in self.irs:
            return False
        self.known[name] = True  # (a definition that calls itself is as pure as the rest of it)
        ok = self._pure(self.irs[name][1])
        self.known[name] = ok
        return ok

    def _pure(self, x) -> bool:
        if isinstance(x, tuple):
            return all(self._pure(v) for v in x)
        if not isinstance(x, o.Op):
            return True  # a plain operand: a number, a name, a text
        kind = type(x)
        if kind is o.CardAttr:
            return x.attr in STATIC_ATTRS and self._pure(x.card)
        if kind is o.Call:
            return self.pure_fn(x.fn) and self._pure(x.args)
        if kind is o.TableLookup:
            return self.pure(x.define) and self._pure(x.card)
        if kind is o.Guarded:  # a mask form and its loop form: C may write either
            return self._pure(x.fast) and self._pure(x.loop)
        if kind not in ALLOWED:
            return False
        return all(self._pure(getattr(x, f)) for f in x.fields)
