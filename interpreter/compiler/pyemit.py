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


def _agg_loop(x) -> str:
    v, dom, where = x.var, x.domain, x.where
    cond = f" if {where}" if where else ""
    a = x.agg
    if a == "all":
        return f"all({x.body} for {v} in {dom}{cond})"
    if a == "sum":
        return f"sum({x.body} for {v} in {dom}{cond})"
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
    specs = ", ".join(f"({count}, {fn}, {sizes(sz)})" for count, fn, sz in x.specs)
    return f"_split(st, {x.cards}, ({specs},), {x.score or 'None'}, {x.site}, {x.faces})"


def _rank_in_suit(x) -> str:
    pos = f"RANKPOS[SUIT[{x.card}]][{x.rank}]"
    return f"({pos} {x.op} ORDER[{x.card}])" if x.flip else f"(ORDER[{x.card}] {x.op} {pos})"


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
    o.Arith: lambda x: f"({x.a} {x.op} {x.b})",
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
    o.Range: lambda x: f"tuple(range({x.a}, {x.b} + 1))",
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
    o.Abs: lambda x: f"abs({x.x})",
    o.MinMax: lambda x: f"{x.fn}({x.a}, {x.b})",
    o.Call: lambda x: f"{x.fn}(st{_args(x.args)})",
    o.TableLookup: lambda x: f"TAB_{x.define}[{x.card}]",
    o.AggLoop: _agg_loop,
    o.Guarded: lambda x: f"{x.fn}(st{_args(x.free)})",
    o.Split: _split,
})

missing = [c for c in vars(o).values() if isinstance(c, type) and issubclass(c, o.Op) and c is not o.Op
           and c not in o.PY_TEXT]
if missing:  # every op has its text
    raise ImportError(f"no Python text for {missing}")
