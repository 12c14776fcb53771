"""The Python emitter of the IR's expression ops: the text each op is, exactly as the
compiler wrote it before the IR, so the Python fast path runs the same code."""

from __future__ import annotations

from .ir import ops as o
from .program import _CARD_ATTRS


def _args(xs) -> str:
    return "".join(", " + x for x in xs)


def _in_zone(x, test: str) -> str:
    if x.check == "none":
        c, pre = x.item.strip("()"), ""
    elif x.check == "test":
        c = x.item.strip("()")
        pre = f"{c} is not None and "
    else:
        c, pre = x.temp, f"({x.temp} := {x.item}) is not None and "
    return f"({pre}{test.format(c)})"


# the integer operations C checks for leaving 64 bits (runtime.py: _add, _sub, _mul; C: cr_add ...)
_CHECKED = {"+": "_add", "-": "_sub", "*": "_mul"}


def _agg_loop(x) -> str:
    v, dom, where = x.var, x.domain, x.where
    cond = f" if {where}" if where else ""
    a = x.agg
    if a == "all":
        return f"all({x.body} for {v} in {dom}{cond})"
    if a == "sum":
        return f"_fit(sum({x.body} for {v} in {dom}{cond}))"
    if a == "any":
        return f"any({where} for {v} in {dom})" if where else f"(len({dom}) > 0)"
    if a == "no":
        return f"(not any({where} for {v} in {dom}))" if where else f"(len({dom}) == 0)"
    if a == "count":
        return f"sum(1 for {v} in {dom}{cond})" if where else f"len({dom})"
    if a == "those":
        return f"[{v} for {v} in {dom}{cond}]"
    pick = "max" if a == "highest" else "min"
    key = ", key=CARDKEY.__getitem__" if x.t == "card" else ""
    return f"{pick}(({v} for {v} in {dom}{cond}){key}, default=None)"


def _split(x) -> str:
    def sizes(sz):
        if sz is None:
            return "None"
        return f"({sz},)" if sz.t == "int" else str(sz)
    given = any(args for *_, args in x.specs)  # then every spec has its values, () for none
    specs = ", ".join(f"({count}, {fn}, {sizes(sz)}" + (f", ({''.join(f'{a}, ' for a in args)}))" if given else ")")
                      for count, fn, sz, args in x.specs)
    return f"_split(st, {x.cards}, ({specs},), {x.score or 'None'}, {x.site}, {x.faces})"


def _rank_in_suit(x) -> str:
    pos = f"RANKPOS[SUIT[{x.card}]][{x.rank}]"
    return f"({pos} {x.op} ORDER[{x.card}])" if x.flip else f"(ORDER[{x.card}] {x.op} {pos})"


def _mask_loop(x) -> str:
    v = x.var
    each = f"for _m in ({x.mask},) for {v} in {x.domain} if BIT[{v}] & _m"
    cond = " and ".join(x.tests)
    a = x.agg
    if a == "all":
        return f"all({x.body} {each}{' and ' + cond if cond else ''})"
    if a == "sum":
        return f"_fit(sum({x.body} {each}{' and ' + cond if cond else ''}))"
    if a == "any":
        return f"any({cond} {each})"
    if a == "count":
        return f"sum(1 {each} and {cond})"
    pick = "max" if a == "highest" else "min"
    return f"{pick}(({v} {each} and {cond}), key=CARDKEY.__getitem__, default=None)"


def _combinations(x) -> str:
    loops = " ".join(f"for {n} in {d}" + "".join(f" if {t}" for t in tests)
                     for n, d, tests in zip(x.names, x.domains, x.tests))
    return f"[({', '.join(x.names)},) {loops}]"


def _subsets(x) -> str:
    test = "None" if x.test is None else f"(lambda {x.var}: {x.test})"
    weight = "None" if x.weight is None else f"(lambda {x.wvar}: {x.weight})"
    target = "None" if x.target is None else x.target
    low = "None" if x.low is None else x.low
    high = "None" if x.high is None else x.high
    return f"_subsets(st, {x.domain}, {test}, {weight}, {target}, {low}, {high}, {x.site})"


def paired_lines(x) -> list[str]:
    """The body of a Paired op's function, line by line (its fallback is x.plain)."""
    var = x.names[-1]
    held = ", ".join([var, *[f"_h{k}" for k in range(len(x.terms))]])
    inner = f"[({', '.join([var, *x.terms])},) for {var} in {x.domains[-1]}" + "".join(f" if {src}" for src in x.own) + "]"
    lines, pad = ["_inner = None", "_out = []"], ""
    for i, name in enumerate(x.names[:-1]):
        lines.append(f"{pad}for {name} in {x.domains[i]}:")
        pad += "    "
        for src in x.tests[i]:
            lines.append(f"{pad}if not ({src}): continue")
    lines += [f"{pad}if _inner is None:", f"{pad}    _inner = {inner}", f"{pad}for ({held},) in _inner:"]
    test = " and ".join(f"({src})" for src in x.mixed) or "True"
    lines.append(f"{pad}    if {test}: _out.append(({', '.join(x.names)},))")
    lines.append("return list(dict.fromkeys(_out))")
    return lines


def paired_def(x) -> str:
    body = "".join(f"        {line}\n" for line in paired_lines(x))
    return f"def {x.fn}(st):\n    try:\n{body}    except Exception:\n        return {x.plain}\n"


def guarded_def(x) -> str:
    """A Guarded op's function: the mask form, the loop form when it meets a none."""
    return (f"def {x.fn}(st{_args(x.free)}):\n"
            f"    try:\n"
            f"        return {x.fast}\n"
            f"    except (TypeError, KeyError, IndexError, AttributeError):\n"
            f"        return {x.loop}\n")


o.PY_TEXT.update({
    o.Lit: lambda x: repr(x.value),
    o.Global: lambda x: x.name,
    o.Seats: lambda x: "st.seats",
    o.NPlayers: lambda x: "st.n_players",
    o.Slot: lambda x: f"st.slots[{x.n}]",
    o.Local: lambda x: x.name,
    o.Paren: lambda x: f"({x.x})",
    o.Opt: lambda x: f"st.opts[{x.i}]",
    o.PlayerVar: lambda x: f"st.slots[{x.n}][{x.who}]",
    o.ListOf: lambda x: "(" + "".join(f"{i}, " for i in x.items) + ")",
    o.ZoneBase: lambda x: f"st.zbase[{x.kind}]",
    o.KindCards: lambda x: f"_kind_cards(st, {x.kind})",
    o.ZoneAt: lambda x: f"_zone_at(st, {x.kind}, {x.i})",
    o.PlayerZone: lambda x: f"(st.zbase[{x.kind}] + {x.who})",
    o.ZoneCards: lambda x: f"st.zones[{x.zone}]",
    o.ZoneIndex: lambda x: f"_zindex(st, {x.zone})",
    o.ZoneOwner: lambda x: f"st.zowner[{x.zone}]",
    o.ZonesOf: lambda x: f"_zones_of(st, {x.kind})",
    o.KindTops: lambda x: f"_kind_tops(st, {x.kind})",
    o.TopSlice: lambda x: f"st.zones[{x.zone}][-1:]",
    o.CardAttr: lambda x: _CARD_ATTRS[x.attr][0].format(x.card),
    o.CardValue: lambda x: f"VALUE_{x.name}[{x.card}]",
    o.Neighbours: lambda x: f"{x.side.upper()}[{x.card}]",
    o.CardsOf: lambda x: f"SUITCARDS[{x.suit}]",
    o.CardOf: lambda x: f"CARDOF[({x.rank}, {x.suit})]",
    o.Arith: lambda x: f"{_CHECKED[x.op]}({x.a}, {x.b})" if x.op in _CHECKED else f"({x.a} {x.op} {x.b})",
    o.Neg: lambda x: f"(-{x.x})",
    o.Not: lambda x: f"(not {x.x})",
    o.Logic: lambda x: f"({x.a} {x.op} {x.b})",
    o.Cond: lambda x: f"({x.then} if {x.test} else {x.else_})",
    o.Compare: lambda x: f"({x.a} {x.op} {x.b})",
    o.CardCompare: lambda x: f"(ORDER[{x.a}] {x.op} ORDER[{x.b}])",
    o.RankInSuit: _rank_in_suit,
    o.InZone: lambda x: _in_zone(x, "st.card_zone[{}] == " + str(x.zone)),
    o.InKind: lambda x: _in_zone(x, "st.card_kind[{}] == " + str(x.kind)),
    o.In: lambda x: f"({x.item} in {x.coll})",
    o.Negated: lambda x: f"(not {x.x})",
    o.Range: lambda x: f"_range({x.a}, {x.b})",
    o.Power: lambda x: f"_pow({x.a}, {x.b})",
    o.Concat: lambda x: f"[*{x.a}, *{x.b}]",
    o.Len: lambda x: f"len({x.coll})",
    o.NonEmpty: lambda x: f"(len({x.coll}) > 0)",
    o.Empty: lambda x: f"(len({x.coll}) == 0)",
    o.End: lambda x: f"_{x.which}({x.coll})",
    o.Extreme: lambda x: f"{x.pick}({x.coll}{', key=CARDKEY.__getitem__' if x.cards else ''}, default=None)",
    o.EndN: lambda x: f"_{x.which}_n({x.coll}, {x.k})",
    o.NextSeat: lambda x: f"(({x.who} {'+' if x.step > 0 else '-'} 1) % st.n_players)",
    o.Random: lambda x: f"_random(st, {x.coll})",
    o.SeatOf: lambda x: f"_seat(st, {x.k})",
    o.SeatsAfter: lambda x: f"_seats_after(st, {x.who})",
    o.Abs: lambda x: f"abs({x.x})",
    o.MinMax: lambda x: f"{x.fn}({x.a}, {x.b})",
    o.Call: lambda x: f"{x.fn}(st{_args(x.args)})",
    o.TableLookup: lambda x: f"TAB_{x.define}[{x.card}]",
    o.AggLoop: _agg_loop,
    o.Guarded: lambda x: f"{x.fn}(st{_args(x.free)})",
    o.Split: _split,
    o.SetCall: lambda x: f"{x.fn}(st, {x.cand}{_args(x.free)})",
    o.Paired: lambda x: f"{x.fn}(st)",
    o.Combinations: _combinations,
    o.Subsets: _subsets,
    o.Dedupe: lambda x: f"list(dict.fromkeys({x.coll}))",
    o.EachSeat: lambda x: f"[{x.x} for _vp in st.seats]",
    o.LoopMore: lambda x: f"st.slots[{x.idx}] < len(st.slots[{x.lst}])",
    o.AllMask: lambda x: "ALLM",
    o.ZoneMask: lambda x: f"st.zmask[{x.zone}]",
    o.ZoneMaskOf: lambda x: f"_zmask(st, {x.zone})",
    o.KindMask: lambda x: f"st.kmask[{x.kind}]",
    o.OwnerMask: lambda x: f"st.omask[{x.who}]",
    o.UpMask: lambda x: "st.upmask",
    o.SuitMask: lambda x: f"SUITM.get({x.suit}, 0)",
    o.RankMask: lambda x: f"RANKM.get({x.rank}, 0)",
    o.OrderMask: lambda x: f"ORDM.get({x.order}, 0)",
    o.NeighbourMask: lambda x: f"{x.side.upper()}M[{x.card}]",
    o.CardMask: lambda x: f"BITD.get({x.card}, 0)",
    o.OrderFrom: lambda x: f"_order_from({x.k})" if not x.step else f"_order_from(({x.k}) + {x.step})",
    o.MaskBin: lambda x: f"({x.a} {x.op} {x.b})",
    o.MaskNot: lambda x: f"(ALLM ^ {x.x})",
    o.MaskUnion: lambda x: "(" + " | ".join(x.parts) + ")",
    o.MaskChain: lambda x: f"{x.base}" + "".join(f" & {m}" for m in x.filters),
    o.PopCount: lambda x: f"{x.x}.bit_count()",
    o.AddAll: lambda x: "(" + " + ".join(x.items) + ")",
    o.MaskCard: lambda x: f"_{x.which}({x.x})",
    o.MaskLoop: _mask_loop,
    o.BitsIn: lambda x: f"[{x.var} for _m in ({x.mask},) for {x.var} in {x.domain} if BIT[{x.var}] & _m]",
})

missing = [c for c in vars(o).values() if isinstance(c, type) and issubclass(c, o.Op) and c is not o.Op
           and c not in o.PY_TEXT]
if missing:  # every op has its text
    raise ImportError(f"no Python text for {missing}")


def set_def(x: o.SetTest) -> str:
    """A set test's function (ops.SetTest): the cards of `cand` that pass, kept per state and set
    of cards."""
    name, mask, memo, owner = x.name, x.mask, x.memo, x.owner
    keep = None if x.keep is None else f"_none_{x.keep}"
    args = _args(x.free)
    head = (f"def {name}(st, cand{args}):\n"
            f"    key = ({name!r}, cand{args})\n"
            f"    r = {memo}.get(key)\n"
            f"    if r is None:\n")
    if keep is None:
        return head + f"        r = {memo}[key] = {mask}\n    return r\n"
    if owner is not None:
        work = (f"        r = 0\n"
                f"        for {owner}, _om in st.omask.items():\n"
                f"            _p = cand & _om\n"
                f"            if _p:\n"
                f"                r |= {keep}({mask}, _p)\n")
    else:
        work = f"        r = {keep}({mask}, cand)\n"
    return head + work + f"        {memo}[key] = r\n    return r\n"
