"""What generated code reads, decided on the IR: walks over ops (`compiler/ir/ops.py`) that
answer the questions the compiler used to answer by reading its own generated Python back
with regular expressions. One function per question, each saying why it is asked.

Two views of an op's operands:
- `shown`: the operands its Python text spells out (a guarded aggregate shows only the call of
  its function and the names passed in; a set test its call). The compiler's rewrites of a
  mask form (`replace`) act on these, as the text substitutions they replace did.
- `walk`: everything it works out when it runs (a guarded aggregate's mask and loop forms);
  `state_reads` also follows the generated functions it calls by name (a definition's body, a
  set test's mask) through the compiler's table of them (`Compiler.body_of`).

What the answers decide: where a definition keeps its answers (`st.cmemo` or `st.memo`), which
slots a `choose by each` decision's moves hang on (`Choice.reads`), whether a definition is
worth a memo (`cheap`, `light`), what a mask form's function is handed (`free_names`), whether
the state keeps masks and whether they pay (`masks_kept`, `masks_pay`)."""

from __future__ import annotations

from typing import Callable, Iterator

from . import ops as o


def shown(x) -> list:
    """The operands an op's Python text spells out."""
    if isinstance(x, o.Guarded):
        return list(x.free)
    if isinstance(x, o.SetCall):
        return [x.cand, *x.free]
    if isinstance(x, o.Paired):
        return []
    return x.operands()


def _ops(v) -> Iterator:
    if isinstance(v, o.Op):
        yield v
    elif isinstance(v, tuple):
        for i in v:
            yield from _ops(i)


def walk_shown(x) -> Iterator:
    """Every op of x that its text spells out, x first."""
    todo = list(_ops(x))
    while todo:
        y = todo.pop()
        yield y
        todo.extend(reversed(list(_ops(tuple(shown(y))))))


def walk(x, fast_only: bool = False) -> Iterator:
    """Every op x works out, x first: all operands, and a guarded aggregate's mask and loop
    forms (`fast_only`: its mask form alone, what runs unless it meets a none). Not the bodies
    of the functions it calls by name (state_reads follows those)."""
    todo = list(_ops(x))
    while todo:
        y = todo.pop()
        yield y
        if isinstance(y, o.Guarded):
            kids = ([y.fast] if fast_only else [y.fast, y.loop]) + list(y.free)
        else:
            kids = y.operands()
        todo.extend(reversed(list(_ops(tuple(kids)))))


def called(x) -> list[str]:
    """The generated functions an op calls by name whose work it does not hold itself:
    definitions (a `D_`, `U_` or `ADVICE_` function), set tests, the meld search's tests."""
    if isinstance(x, (o.Call, o.SetCall)):
        return [x.fn]
    if isinstance(x, o.Split):
        return [fn for _, fn, _, _ in x.specs] + ([x.score] if x.score else [])
    return []


def replace(x, fn: Callable):
    """x with each op that `fn` maps to something else replaced (None: keep, look inside), in
    the operands its text shows; the rest is rebuilt only where something changed."""
    if isinstance(x, tuple):
        new = tuple(replace(v, fn) for v in x)
        return x if all(a is b for a, b in zip(new, x)) else new
    if not isinstance(x, o.Op):
        return x
    r = fn(x)
    if r is not None:
        return r
    if isinstance(x, (o.Guarded, o.Paired)):
        fields = {"free": replace(x.free, fn)} if isinstance(x, o.Guarded) else {}
    elif isinstance(x, o.SetCall):
        fields = {"cand": replace(x.cand, fn), "free": replace(x.free, fn)}
    else:
        fields = {f: replace(getattr(x, f), fn) for f in x.fields}
    if all(fields[f] is getattr(x, f) for f in fields):
        return x
    return type(x)(*(fields.get(f, getattr(x, f)) for f in x.fields), t=x.t)


def unparen(x):
    while isinstance(x, o.Paren):
        x = x.x
    return x


# ---- what an op reads of the state -------------------------------------------------------
# fields of the state an op reads itself (not counting its operands)
_ATTR_OF = {o.Seats: "seats", o.NPlayers: "n_players", o.Slot: "slots", o.PlayerVar: "slots", o.Opt: "opts",
            o.ZoneBase: "zbase", o.PlayerZone: "zbase", o.ZoneCards: "zones", o.TopSlice: "zones",
            o.ZoneOwner: "zowner", o.InZone: "card_zone", o.InKind: "card_kind", o.EachSeat: "seats",
            o.LoopMore: "slots", o.ZoneMask: "zmask", o.KindMask: "kmask", o.OwnerMask: "omask", o.UpMask: "upmask"}
_CARD_ATTR_READS = {"owner": "card_owner", "played_by": "played_by", "zone": "card_zone", "face_up": "known"}
# the runtime's functions of the state an op calls
_FN_OF = {o.KindCards: "_kind_cards", o.ZoneAt: "_zone_at", o.ZoneIndex: "_zindex", o.ZonesOf: "_zones_of",
          o.KindTops: "_kind_tops", o.Random: "_random", o.Shuffled: "_shuffled", o.SeatOf: "_seat", o.Split: "_split", o.SeatsAfter: "_seats_after", o.SeatsBefore: "_seats_before",
          o.ZoneMaskOf: "_zmask"}

# what code may read of a state for a choice's moves to be worked out again only when the cards
# or the slots it reads change (anything else, like chance, means always afresh)
STATE_READS = frozenset({"slots", "zones", "card_zone", "card_kind", "card_owner", "played_by", "known", "zmask",
                         "kmask", "omask", "upmask", "zbase", "zcount", "zowner", "zkind", "n_players", "seats", "opts",
                         "memo", "zone_names"})
# what code may read of a state and still be answered from st.cmemo (no variable)
CARD_READS = (STATE_READS - {"slots", "memo"}) | {"cmemo"}
STATE_FNS = frozenset({"_kind_cards", "_kind_tops", "_zone_at", "_zindex", "_depth", "_beneath", "_zones_of", "_split", "_seat", "_seats_after", "_seats_before",
                       "_zmask"})


class Reads:
    """What some code reads of the state, through everything it calls: the state's fields
    (`attrs`), the runtime's functions of the state (`fns`) and the slots by number."""

    def __init__(self):
        self.attrs: set[str] = set()
        self.fns: set[str] = set()
        self.slots: set[int] = set()

    def merge(self, other: "Reads") -> None:
        self.attrs |= other.attrs
        self.fns |= other.fns
        self.slots |= other.slots

    def __repr__(self):
        return f"Reads(attrs={sorted(self.attrs)}, fns={sorted(self.fns)}, slots={sorted(self.slots)})"


def state_reads(xs, into: Callable, memo_of: Callable[[str], str | None] = lambda name: None,
                cache: dict | None = None) -> Reads:
    """What ops read of the state, followed through the generated functions they call (`into`:
    name -> its ops, None while it is not written). A definition kept in a memo reads that memo
    too (`memo_of`: name -> 'memo', 'cmemo' or None), as its function does. `cache` keeps what
    each generated function reads, by name (a function's body never changes once written)."""
    r = Reads()
    _read(r, tuple(xs), into, memo_of, {} if cache is None else cache)
    return r


def _read(r: Reads, xs, into, memo_of, cache) -> None:
    todo = list(_ops(xs))
    while todo:
        x = todo.pop()
        kind = type(x)
        a = _ATTR_OF.get(kind)
        if a is not None:
            r.attrs.add(a)
        if kind in (o.Slot, o.PlayerVar):
            r.slots.add(x.n)
        elif kind is o.LoopMore:
            r.slots |= {x.lst, x.idx}
        elif kind is o.CardAttr:
            if x.attr in ("depth", "beneath"):
                r.fns.add("_" + x.attr)
            elif x.attr in _CARD_ATTR_READS:
                r.attrs.add(_CARD_ATTR_READS[x.attr])
        fn = _FN_OF.get(kind)
        if fn is not None:
            r.fns.add(fn)
        for name in called(x):
            r.merge(_function_reads(name, lambda: into(name), into, memo_of, cache))
        if kind is o.Guarded:  # its mask form and its loop form, read once per aggregate
            r.merge(_function_reads(x.fn, lambda: (x.fast, x.loop), into, memo_of, cache))
        else:
            todo.extend(_ops(tuple(x.operands())))


def _function_reads(name: str, body: Callable, into, memo_of, cache) -> Reads:
    s = cache.get(name)
    if s is None:
        s = Reads()
        ops = body()
        if ops is not None:
            _read(s, tuple(ops), into, memo_of, cache)
        m = memo_of(name)
        if m is not None:
            s.attrs.add(m)
        if ops is not None:
            cache[name] = s
    return s


# ---- what a definition's body costs ------------------------------------------------------
def _loops(x) -> bool:
    """An op that loops over a collection itself (not through a call)."""
    if isinstance(x, o.AggLoop):
        return x.agg not in ("any", "no", "count") or x.where is not None
    return isinstance(x, (o.MaskLoop, o.BitsIn, o.Combinations, o.EachSeat))


def cheap(body) -> bool:
    """Code with no loop, no call of another definition, no meld search and no set test, as it
    runs (the mask forms of its aggregates): a few table look-ups and bit operations, which cost
    less than a memo would."""
    for x in walk(body, fast_only=True):
        if _loops(x) or isinstance(x, (o.Split, o.KindCards, o.Concat, o.SetCall)):
            return False
        if isinstance(x, o.Call) and x.fn[:2] in ("D_", "U_"):
            return False
    return True


def light(body, memoised: set) -> bool:
    """Code that calls no memoised definition and no meld search as it runs (it may loop): its
    definition is worth a function without the memo for callers that ask it afresh each time."""
    for x in walk(body, fast_only=True):
        if isinstance(x, o.Split):
            return False
        if isinstance(x, o.Call) and (x.fn.startswith("U_") or x.fn in memoised):
            return False
    return True


# ---- names -------------------------------------------------------------------------------
def _bound(x) -> list[str]:
    """The names an op's own text binds (`for NAME in`)."""
    if isinstance(x, o.AggLoop):
        return [_name(x.var)] if _loops(x) else []
    if isinstance(x, (o.MaskLoop, o.BitsIn)):
        return ["_m", _name(x.var)]
    if isinstance(x, o.Combinations):
        return [_name(n) for n in x.names]
    if isinstance(x, o.EachSeat):
        return ["_vp"]
    return []


def _name(v) -> str:
    """A bound variable's name (a Local, or the name itself)."""
    return v.name if isinstance(v, o.Local) else v


def free_names(*xs) -> set[str]:
    """The names a mask form's function must be handed: the locals it reads from around it (a
    definition's parameters, the variables of enclosing aggregates and choices, an owner fixed
    by a set test) and does not bind itself; `cand` is a set test's own parameter."""
    names, bound = set(), set()
    for x in xs:
        for y in walk_shown(x):
            if isinstance(y, o.Local) and y.name != "cand":
                names.add(y.name)
            bound.update(_bound(y))
    return names - bound


def reads_loop_var(x) -> bool:
    """Whether an argument names an aggregate's or a choice's variable (so it is new on every turn)."""
    return any(isinstance(y, o.Local) and y.name.startswith("_v_") for y in walk_shown(x))


def never_none(item) -> bool:
    """A value that is never none: an aggregate's or a choice's variable, bound to an element."""
    item = unparen(item)
    return isinstance(item, o.Local) and item.name.startswith("_v_")


def plain_name(item) -> bool:
    """A value that is a name (a local, a slot, a table, none): cheap to read twice."""
    item = unparen(item)
    return isinstance(item, (o.Local, o.Slot, o.Global)) or (
        isinstance(item, o.Lit) and (item.value is None or item.value is True or item.value is False))


def zone_kind(zone) -> int | None:
    """The kind of a zone written as a kind's zone (shared, a player's, one of a family)."""
    zone = unparen(zone)
    if isinstance(zone, (o.ZoneBase, o.PlayerZone, o.ZoneAt)):
        return int(zone.kind)
    return None


# ---- whether the state keeps masks, and whether they pay ---------------------------------
_KEEPS = (o.ZoneMask, o.KindMask, o.OwnerMask, o.UpMask, o.ZoneMaskOf)
_PAYS = (o.KindMask, o.OwnerMask, o.UpMask, o.SetCall, o.OrderFrom, o.NeighbourMask, o.SuitMask, o.RankMask,
         o.OrderMask, o.MaskCard)


def masks_kept(xs) -> bool:
    """Whether code reads the state's masks: then the state must keep them up to date."""
    return any(isinstance(x, _KEEPS) for x in walk(tuple(xs)))


def masks_pay(xs) -> bool:
    """Whether masks pay for their upkeep on every move: they do more than test a few cards of
    one zone against a fixed set (a loop over a hand does that as fast)."""
    return any(isinstance(x, _PAYS) for x in walk(tuple(xs)))
