"""The IR's expression ops: one class per operation, as mypyc's `ops.py`.

An op holds its operands (ops, or plain values: numbers, names of generated functions) and
the cardrules type of its value (`t`: 'int', 'card', 'cards', ...). Operands are evaluated
left to right unless the op says otherwise (`Logic`, `Cond`, `AggLoop`, `Guarded`).

An op is data, equal to another of its class with equal operands and type, and has no text of
its own: each backend reads it through a visitor (`visit.py`), the Python emitter
(`compiler/pyemit.py`: `py(x)`), the C emitter (`native/codegen/expr.py`) and the printer
(`pprint.py`), so formatting an op into text by hand raises. Every expression the compiler
generates is ops, the mask forms too (tests/compiler/test_ir_analyses.py checks every bundled program);
the analyses over them are in `reads.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

ALL: list[type] = []  # every op class, in the order declared (the visitors must cover each)


class Op:
    """A frozen value: its operands by name (`fields`), and `t`, the type of its value."""
    __slots__ = ("t", "_key", "_hash", "_py")
    fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, t: str | None = None):
        if len(args) != len(self.fields):
            raise TypeError(f"{type(self).__name__} takes {', '.join(self.fields) or 'nothing'}; given {len(args)} operands")
        put = object.__setattr__
        for f, v in zip(self.fields, args):
            put(self, f, v)
        put(self, "t", t)
        put(self, "_key", None)
        put(self, "_hash", None)
        put(self, "_py", None)  # the Python emitter's text, written once (pyemit.py)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is frozen")

    def key(self) -> tuple:
        """What makes two ops equal: the class, the operands (a constant with its Python type:
        1 and True are two constants) and the type."""
        k = self._key
        if k is None:
            vals = tuple(getattr(self, f) for f in self.fields)
            if type(self) is Lit:
                vals = (type(vals[0]), vals[0])
            k = (type(self).__name__, vals, self.t)
            object.__setattr__(self, "_key", k)
        return k

    def __eq__(self, other):
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented if not isinstance(other, Op) else False
        return hash(self) == hash(other) and self.key() == other.key()

    def __hash__(self):
        h = self._hash
        if h is None:
            h = hash(self.key())
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self):  # pickled as its class and operands
        return (_rebuild, (type(self), tuple(getattr(self, f) for f in self.fields), self.t))

    def __format__(self, spec):
        raise TypeError(f"an op has no text of its own; the Python emitter writes it: pyemit.py(x) ({self!r})")

    def operands(self) -> list:
        out = []
        for f in self.fields:
            v = getattr(self, f)
            out.extend(v if isinstance(v, tuple) else (v,))
        return out

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(getattr(self, f)) for f in self.fields)})"

    __str__ = __repr__


def _rebuild(cls, args, t):
    return cls(*args, t=t)


def op(name: str, *fields: str, doc: str = "") -> type:
    cls = type(name, (Op,), {"fields": fields, "__doc__": doc, "__module__": __name__, "__slots__": fields})
    ALL.append(cls)
    return cls


# ---- values ------------------------------------------------------------------------------
Lit = op("Lit", "value", doc="A constant: a number, truth value, text, none, or a suit's or rank's index.")
Global = op("Global", "name", doc="A table of the program's namespace (ALLCARDS, GROUP_x).")
Seats = op("Seats", doc="The players, in seat order.")
NPlayers = op("NPlayers", doc="How many players play.")
Slot = op("Slot", "n", doc="A variable, local or argument kept in the state.")
Local = op("Local", "name", doc="A name bound inside generated code: a parameter, an aggregate's variable.")
Paren = op("Paren", "x", doc="An argument written in place of a definition's parameter.")
Opt = op("Opt", "i", doc="An option's value.")
PlayerVar = op("PlayerVar", "n", "who", doc="One player's value of a per-player variable.")
ListOf = op("ListOf", "items", doc="A literal list [a, b, ...].")

# ---- zones -------------------------------------------------------------------------------
ZoneBase = op("ZoneBase", "kind", doc="The single zone of a shared kind.")
KindCards = op("KindCards", "kind", doc="Every card in any zone of one kind.")
ZoneAt = op("ZoneAt", "kind", "i", doc="The i-th zone (from 1) of a family of shared zones.")
PlayerZone = op("PlayerZone", "kind", "who", doc="A player's zone of a per-player kind.")
ZoneCards = op("ZoneCards", "zone", doc="The cards of one zone, bottom first.")
ZoneIndex = op("ZoneIndex", "zone", doc="A zone's number within its kind, from 1.")
ZoneOwner = op("ZoneOwner", "zone", doc="Whose zone it is (none for a shared one).")
ZonesOf = op("ZonesOf", "kind", doc="The zones of one kind.")
KindTops = op("KindTops", "kind", doc="The top card of each zone of a kind that holds one, zone by zone.")
TopSlice = op("TopSlice", "zone", doc="The top card of a zone, as a collection of one (or none).")

# ---- cards -------------------------------------------------------------------------------
CardAttr = op("CardAttr", "attr", "card", doc="suit, rank, order, owner, played_by, zone, face_up, depth or beneath.")
CardValue = op("CardValue", "name", "card", doc="A value table of the deck, read for a card.")
Neighbours = op("Neighbours", "side", "card", doc="The cards above or below a card in its suit's ranking.")
CardsOf = op("CardsOf", "suit", doc="The cards of a suit.")
CardOf = op("CardOf", "rank", "suit", doc="The card of a rank and suit (the first copy).")

# ---- numbers and tests -------------------------------------------------------------------
Arith = op("Arith", "op", "a", "b", doc="+ - * and floor // and %.")
Power = op("Power", "a", "b", doc="a ^ b in whole numbers: a negative exponent or a power past 64 bits stops the game.")
Neg = op("Neg", "x")
Not = op("Not", "x")
Logic = op("Logic", "op", "a", "b", doc="and/or: the right side only when the left does not decide.")
Cond = op("Cond", "test", "then", "else_", doc="The test first, then one branch.")
Compare = op("Compare", "op", "a", "b", doc="== != < <= > >= on plain values.")
CardCompare = op("CardCompare", "op", "a", "b", doc="Two cards by their places in their suits' rankings.")
RankInSuit = op("RankInSuit", "op", "card", "rank", "flip",
                doc="A card's rank against a rank, read in the ranking of the card's suit.")
InZone = op("InZone", "item", "zone", "check", "temp",
            doc="Whether a card lies in a zone; check: 'none' (never none), 'test' (test it), 'bind' (name it first).")
InKind = op("InKind", "item", "kind", "check", "temp", doc="Whether a card lies in any zone of a kind.")
In = op("In", "item", "coll", doc="Whether a value is in a collection.")
Negated = op("Negated", "x", doc="not (x): a negated membership.")
Range = op("Range", "a", "b", doc="The numbers from a to b.")
Concat = op("Concat", "a", "b", doc="Two collections joined.")
Len = op("Len", "coll")
NonEmpty = op("NonEmpty", "coll")
Empty = op("Empty", "coll")
End = op("End", "which", "coll", doc="The first or last element (none if empty).")
Extreme = op("Extreme", "pick", "coll", "cards", doc="max/min (by the card order when cards), none if empty.")
EndN = op("EndN", "which", "coll", "k", doc="top/bottom k of a pile.")
NextSeat = op("NextSeat", "who", "step")
Random = op("Random", "coll", doc="A value drawn by chance: with Shuffled, the only ops with an effect.")
Shuffled = op("Shuffled", "coll", doc="A collection in an order drawn by chance (an effect, as Random's).")
SeatOf = op("SeatOf", "k", doc="The player in seat k (from 1).")
SeatsAfter = op("SeatsAfter", "who", doc="The players in turn order after `who`, `who` itself last.")
SeatsBefore = op("SeatsBefore", "who", doc="The players against turn order before `who`, `who` itself last.")
Abs = op("Abs", "x")
MinMax = op("MinMax", "fn", "a", "b")

# ---- definitions and aggregates ----------------------------------------------------------
Call = op("Call", "fn", "args", doc="A definition's generated function (D_, U_ or a guarded aggregate).")
TableLookup = op("TableLookup", "define", "card", doc="A definition of one card read from its table.")
AggLoop = op("AggLoop", "agg", "var", "domain", "where", "body",
             doc="all/any/no/count/sum/those/highest/lowest over a collection, in its order.")
Split = op("Split", "cards", "specs", "score", "site", "faces",
           doc="The meld search: can the cards be split exactly into groups (specs: (count, the group test's "
               "function, sizes or None, the values the test is given after the group) each), or the best "
               "total of `score` over the groups (-1: none).")
Guarded = op("Guarded", "fn", "free", "fast", "loop",
             doc="A mask form (fast) falling back to its loop form when it meets a none; `free`: the locals "
                 "its function is handed.")

# ---- the program's own helpers, and what the Python fast path adds around a choice's moves ---
SetCall = op("SetCall", "fn", "cand", "free",
             doc="A set test asked of the cards of `cand` at once, kept per state (Compiler.helpers[fn] says "
                 "what it works out): the cards of cand that pass.")
Paired = op("Paired", "fn", "names", "domains", "tests", "terms", "own", "mixed", "plain",
            doc="The combinations of an action's parameters with the last one's own work done once "
                "(statements.py:_paired), falling back to `plain` when it raises.")
Combinations = op("Combinations", "names", "domains", "tests",
                  doc="The rows of an action's parameters: nested loops in order, each with its tests.")
Subsets = op("Subsets", "var", "domain", "test", "wvar", "weight", "target", "low", "high", "site",
             doc="The sets of one or more cards of `domain` (each card once) for which `test` holds with the set "
                 "bound to `var`, as an action's legal values: tried by their masks over the domain's order, "
                 "lowest first; with `weight` (a number per card, its card bound to `wvar`) only the sets whose "
                 "weights add up to `target` are tried (pruned where the weights share one sign); with `low` or "
                 "`high`, only the sets of so many cards or more (fewer). Each set lists "
                 "its cards in the deck's order. `site`: the action it chooses for (Program.set_sites), for errors.")
Dedupe = op("Dedupe", "coll", doc="A collection with each element once, in the order first met.")
EachSeat = op("EachSeat", "x", doc="A per-player variable's first values: x for each seat (bound to `_vp`).")
LoopMore = op("LoopMore", "lst", "idx", doc="Whether a statement loop's list has an element left.")

# ---- masks: card sets as bit sets (masks.py); the state's masks and the program's tables ---
AllMask = op("AllMask", doc="Every card.")
ZoneMask = op("ZoneMask", "zone", doc="The cards of a zone (the state's mask).")
ZoneMaskOf = op("ZoneMaskOf", "zone", doc="The cards of a zone that may be none (none: no card).")
KindMask = op("KindMask", "kind", doc="The cards in any zone of a kind.")
OwnerMask = op("OwnerMask", "who", doc="The cards a player holds (none: the shared zones').")
UpMask = op("UpMask", doc="The cards face up.")
SuitMask = op("SuitMask", "suit", doc="A suit's cards (none, or no suit: none).")
RankMask = op("RankMask", "rank", doc="A rank's cards.")
OrderMask = op("OrderMask", "order", doc="The cards at one place in their suits' rankings.")
NeighbourMask = op("NeighbourMask", "side", "card", doc="The cards above or below a card in its suit's ranking.")
CardMask = op("CardMask", "card", doc="One card's bit (none: no card).")
OrderFrom = op("OrderFrom", "k", "step", doc="The cards whose place in their suit's ranking is at least k + step "
                                             "(k must be a number: the loop form decides otherwise).")
MaskBin = op("MaskBin", "op", "a", "b", doc="& | of two masks.")
MaskNot = op("MaskNot", "x", doc="The cards not in a mask.")
MaskUnion = op("MaskUnion", "parts", doc="The union of two masks or more.")
MaskChain = op("MaskChain", "base", "filters", doc="A mask and'ed with each filter, left to right (not bracketed).")
PopCount = op("PopCount", "x", doc="How many cards a mask holds.")
AddAll = op("AddAll", "items", doc="The sum of a few numbers.")
MaskCard = op("MaskCard", "which", "x", doc="The highest (hi) or lowest (lo) card of a mask, none if empty.")
MaskLoop = op("MaskLoop", "agg", "var", "domain", "mask", "tests", "body",
              doc="An aggregate looping over its set in order, each card first tested by its bit in `mask`, "
                  "then by `tests` (the part of the condition no mask reads).")
BitsIn = op("BitsIn", "var", "domain", "mask", doc="The elements of a set whose bit is in the mask, in the set's order.")


# ---- terms worked out once (compiler/cse.py, a pass over these ops) -------------------------
CardKind = op("CardKind", "card", doc="The kind of the zone a card lies in: what InKind compares, as the cse pass "
                                     "writes it where one card is tested against two kinds.")
Keep = op("Keep", "name", "x", doc="x, worked out here and kept under `name` for the Kept of it later in the "
                                   "same expression.")
Kept = op("Kept", "name", "x", doc="The value a Keep of x kept under `name` earlier in the same expression: "
                                   "x is not worked out again (a backend may still write x, which has no effect).")


CHANCE = (Random, Shuffled)  # the ops that draw by chance: never worked out twice, never kept

@dataclass(frozen=True)
class SetTest:
    """The function a `SetCall` calls, as data (`Program.set_ir` by name): the cards of its
    `cand` for which `mask` holds (keep None); or, with keep 'above' or 'below', the cards of
    cand with no card of `mask` (the failing ones) above (below) them in their suit's ranking,
    taken owner by owner when `owner` (the local `mask` reads for the owner) is set. `free`:
    the locals it is handed; `memo`: where its answers are kept per state and set of cards."""
    name: str
    mask: Any
    free: tuple
    memo: str
    keep: str | None = None
    owner: Any = None
