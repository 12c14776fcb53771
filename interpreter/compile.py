"""Stage 3: rule graph -> Program. Checks names and types (every error located), resolves
names to indices once, and turns expressions into closures and statements into a flat list
of instructions, so the engine never walks the graph while playing."""

from __future__ import annotations

import difflib
import re
from itertools import combinations
from dataclasses import dataclass, field
from typing import Any, Callable

from . import graph as g
from .build import _source_line
from .errors import GameRuntimeError, RulesetError
from .unparse import unparse

_MISS = object()

# a card's built-in attributes: generated code ({} is the card) and type
_CARD_ATTRS = {"suit": ("SUIT[{}]", "suit"), "rank": ("RANK[{}]", "rank"), "order": ("ORDER[{}]", "int"),
               "owner": ("st.card_owner[{}]", "player"), "played_by": ("st.played_by[{}]", "player"),
               "zone": ("st.card_zone[{}]", "zone"), "face_up": ("st.known[{}]", "bool")}

# instruction opcodes
EXEC, JUMP, JIF, CHOOSE, CALL, RET, END, CHOOSE_EACH = range(8)

ELEM = {"cards": "card", "players": "player", "ints": "int", "suits": "suit", "ranks": "rank",
        "zone": "card", "zonekind": "card", "zones": "zone"}
COLLECTIONS = set(ELEM)
TYPE_WORDS = {"card", "player", "int", "bool", "suit", "rank", "cards", "players", "ints", "zone", "zones"}


def _err(msg: str, node) -> RulesetError:
    loc = getattr(node, "loc", None)
    return RulesetError(msg, loc.file if loc else None, loc.line if loc else None,
                        loc.column if loc else None, _source_line(loc))


def _runtime(msg: str, node) -> GameRuntimeError:
    loc = getattr(node, "loc", None)
    return GameRuntimeError(msg, loc.file if loc else None, loc.line if loc else None,
                            loc.column if loc else None, _source_line(loc))


_WORDS = {"int": "a number", "bool": "a true/false value", "card": "a card", "player": "a player",
          "suit": "a suit", "rank": "a rank", "str": "a text", "none": "none", "enum": "an option value",
          "cards": "a collection of cards", "players": "a collection of players", "ints": "a range of numbers",
          "suits": "a collection of suits", "ranks": "a collection of ranks", "zone": "a zone",
          "zonekind": "a kind of zone (say which one, like hand(p) or pile(1))", "zones": "a collection of zones",
          "any": "a value"}


def word(t: str) -> str:
    """A type as a reader says it: 'a number', 'a card'."""
    return _WORDS.get(t, t)


def _compatible(a: str, b: str) -> bool:
    if a == b or "any" in (a, b) or "none" in (a, b):
        return True
    if {a, b} <= {"cards", "zone", "zonekind"}:
        return True
    return False


@dataclass
class Alt:
    """One action of a compiled choice."""

    name: str
    label: str | None
    slot: int | None
    elem: str | None
    domain: Callable | None
    where: Callable | None
    when: Callable | None
    body: int = -1
    node: Any = None
    values: Callable | None = None  # the allowed parameter values, as one generated function


@dataclass
class Choice:
    """A compiled `choose`: who decides, which actions, and the rule it belongs to."""

    actor: Callable
    alts: list[Alt]
    rule: str
    rule_title: str
    node: Any
    by_text: str
    each_slot: int | None = None  # set for `choose by each p in ...`: where p is bound


@dataclass
class ZoneInfo:
    name: str
    per_player: bool
    visibility: str
    index: int  # first instance among shared zones, or position among per-player zones
    size: int | None = None  # a shared family of zones NAME(1)..NAME(size)


@dataclass
class Program:
    """Everything the engine needs, precomputed from one ruleset."""

    ruleset: g.Ruleset
    card_names: list[str]
    card_suit: list[int]
    card_rank: list[int]
    card_order: list[int]
    above: list[tuple]
    below: list[tuple]
    suit_cards: list[tuple]
    card_of: dict
    values: dict[str, list[int]]
    zones: list[ZoneInfo]
    zone_index: dict[str, int]
    n_shared: int
    options: list[g.Option]
    option_index: dict[str, int]
    vars: list[tuple[str, int, Callable | None]]
    n_slots: int = 0
    code: list = field(default_factory=list)
    start: int = 0
    rule_names: list[str] = field(default_factory=list)
    rule_titles: dict[str, str] = field(default_factory=dict)
    choices: list[Choice] = field(default_factory=list)
    score: Callable | None = None  # score(state, seat) -> int
    score_name: str | None = None
    namespace: dict = field(default_factory=dict)
    winner_rule: str | None = None
    phase_start: dict[str, int] = field(default_factory=dict)
    move_cache: dict = field(default_factory=dict)
    nodes: list = field(default_factory=list)  # the statement each instruction came from
    split_cache: dict = field(default_factory=dict)  # split results that depend on the cards alone
    rule_at: list = field(default_factory=list)  # (name, title) of the rule around each instruction

    @property
    def n_cards(self) -> int:
        return len(self.card_names)


class Compiler:
    def __init__(self, rs: g.Ruleset):
        self.rs = rs
        deck = rs.deck
        self._check_deck(deck)
        self.suit_index = {s: i for i, s in enumerate(deck.suits)}
        self.rank_index = {r: i for i, r in enumerate(deck.ranks)}
        names, suit, rank, order = [], [], [], []
        card_of = {}
        copies: dict[tuple[str, str], int] = {}
        for line in deck.lines():
            for s in line.suits:
                for r in line.ranks:
                    copies[(r, s)] = copies.get((r, s), 0) + line.copies
        for si, s in enumerate(deck.suits):
            sorder = deck.order_of(s)
            for r in deck.ranks:
                n_copies = copies.get((r, s), 0)
                for k in range(n_copies):
                    cid = len(names)
                    names.append(f"{r}-{s}" + (f"#{k + 1}" if n_copies > 1 else ""))
                    suit.append(si)
                    rank.append(self.rank_index[r])
                    order.append(sorder.index(r))
                    card_of.setdefault((self.rank_index[r], si), cid)
        n = len(names)
        suit_cards = [tuple(sorted((c for c in range(n) if suit[c] == si), key=lambda c: (order[c], c)))
                      for si in range(len(deck.suits))]
        above = [tuple(d for d in suit_cards[suit[c]] if order[d] > order[c]) for c in range(n)]
        below = [tuple(d for d in suit_cards[suit[c]] if order[d] < order[c]) for c in range(n)]
        values = {}
        for vname, table in deck.values.items():
            for r in table:
                if r not in self.rank_index:
                    raise _err(f"value {vname!r} names rank {r!r}, which the deck does not have", deck)
            values[vname] = [table.get(deck.ranks[rank[c]], 0) for c in range(n)]
        zones, zidx = [], {}
        shared = [z for z in rs.zones if not z.per_player]
        per = [z for z in rs.zones if z.per_player]
        offset = 0
        for i, z in enumerate(shared + per):
            zidx[z.name] = len(zones)
            zones.append(ZoneInfo(z.name, z.per_player, z.visibility,
                                  offset if not z.per_player else i - len(shared), z.size))
            if not z.per_player:
                offset += z.size or 1
        self.p = Program(ruleset=rs, card_names=names, card_suit=suit, card_rank=rank, card_order=order,
                         above=above, below=below, suit_cards=suit_cards, card_of=card_of, values=values,
                         zones=zones, zone_index=zidx, n_shared=offset, options=list(rs.options),
                         option_index={o.name: i for i, o in enumerate(rs.options)}, vars=[])
        self.enum_values: dict[str, str] = {}
        for o in rs.options:
            self._check_option(o)
            if o.type == "enum":
                for c in o.choices:
                    self.enum_values[c] = o.name
        self.defines = {d.name: d for d in rs.defines}
        self.procs = {p.name: p for p in rs.procedures}
        self.phases = {ph.name: ph for ph in rs.phases}
        self._check_names()
        self.slots = 0
        self.var_slots: dict[str, tuple[int, str]] = {}
        self.def_cache: dict[str, tuple] = {}
        self.def_stack: list[str] = []
        self.proc_start: dict[str, int] = {}
        self.proc_params: dict[str, list[int]] = {}
        self.pending_calls: list[tuple[int, str]] = []
        self.proc_stack: list[str] = []
        self.rule_stack: list[tuple[str, str]] = []
        self.loop_ends: list[list[int]] | None = None
        self.n_names = 0
        self.cur_node = None
        self.player_vars: set[str] = set()
        self.kind_of: dict[str, int] = {}
        self.def_src: list[str] = []
        self.lam_cache: dict[str, Callable] = {}
        p = self.p
        cardkey = [(p.card_order[c], -p.card_suit[c], -c) for c in range(p.n_cards)]
        self.ns = {"MISS": _MISS, "STATIC": p.split_cache, "SUIT": p.card_suit, "RANK": p.card_rank, "ORDER": p.card_order,
                   "ABOVE": p.above, "BELOW": p.below, "SUITCARDS": p.suit_cards, "CARDOF": p.card_of,
                   "CARDKEY": cardkey, "ALLCARDS": tuple(range(p.n_cards)), "_kind_cards": _kind_cards,
                   "_first": _first, "_last": _last, "_seat": _seat, "_zone_at": _zone_at,
                   "_zindex": _zindex, "_zones_of": _zones_of, "_top_n": _top_n, "_bottom_n": _bottom_n,
                   "_random": _random, "_split": _split}
        for vname, table in p.values.items():
            self.ns[f"VALUE_{vname}"] = table

    # ------------------------------------------------------------------ checks
    MAX_CARDS = 2000

    def _check_deck(self, deck: g.Deck):
        if deck.size() > self.MAX_CARDS:
            raise _err(f"deck {deck.name!r} has {deck.size()} cards; this tool plays decks of at most "
                       f"{self.MAX_CARDS}", deck)
        for label, items in (("suit", deck.suits), ("rank", deck.ranks)):
            dup = [x for i, x in enumerate(items) if x in items[:i]]
            if dup:
                raise _err(f"{label} {dup[0]!r} is listed twice in deck {deck.name!r}", deck)
        both = set(deck.suits) & set(deck.ranks)
        if both:
            raise _err(f"{sorted(both)[0]!r} is both a suit and a rank; names must be unique", deck)
        if deck.copies < 1:
            raise _err("copies must be at least 1", deck)
        for gname, ranks in deck.groups.items():
            for r in ranks:
                if r not in deck.ranks:
                    raise _err(f"group {gname!r} names {r!r}, which is not a rank of the deck", deck)

    def _check_option(self, o: g.Option):
        d = o.default
        if o.type == "bool" and not isinstance(d, bool):
            raise _err(f"option {o.name!r} is a bool; its default must be true or false, not {d!r}", o)
        if o.type == "int":
            if isinstance(d, bool) or not isinstance(d, int):
                raise _err(f"option {o.name!r} is a number; its default must be a number, not {d!r}", o)
            if o.low is not None and not (o.low <= d <= o.high):
                raise _err(f"option {o.name!r}: default {d} is outside {o.low}..{o.high}", o)
        if o.type == "enum" and d not in o.choices:
            raise _err(f"option {o.name!r}: default {d!r} is not one of {', '.join(o.choices)}", o)

    def _check_names(self):
        rs = self.rs
        taken: dict[str, str] = {}

        def claim(name, what, node):
            if name in taken and taken[name] != what:
                raise _err(f"{name!r} is already used as a {taken[name]}; it cannot also be a {what}", node)
            taken[name] = what

        for s in rs.deck.suits:
            claim(s, "suit", rs.deck)
        for r in rs.deck.ranks:
            if not r.isdigit():
                claim(r, "rank", rs.deck)
        for gname in rs.deck.groups:
            claim(gname, "rank group", rs.deck)
        for z in rs.zones:
            claim(z.name, "zone", z)
        for o in rs.options:
            claim(o.name, "option", o)
        for v in rs.vars:
            claim(v.name, "variable", v)
        for d in rs.defines:
            claim(d.name, "definition", d)
        for name, opt in self.enum_values.items():
            claim(name, f"value of option {opt}", rs.option(opt))
        for ph in rs.phases:
            if ph.then and ph.then not in self.phases:
                raise _err(f"phase {ph.name!r} continues with {ph.then!r}, which is not a phase"
                           + self._suggest(ph.then, self.phases), ph)
        reached, nxt = set(), rs.phases[0].name if rs.phases else None
        while nxt is not None and nxt not in reached:  # follow 'then' from the first phase
            reached.add(nxt)
            nxt = self.phases[nxt].then
        for ph in rs.phases[1:]:
            if ph.name not in reached:
                raise _err(f"phase {ph.name!r} can never be reached: the game starts with phase "
                           f"{rs.phases[0].name!r} and no chain of 'then' from it leads here "
                           f"(add 'then {ph.name}' to the phase that should come before it)", ph)
        if not rs.phases:
            raise _err("a game needs at least one phase", rs)
        if not rs.zones:
            raise _err("a game needs at least one zone; the cards start in the first one declared", rs)
        if rs.zones[0].per_player:
            raise _err(f"the cards start in the first zone declared, so it must be shared; "
                       f"{rs.zones[0].name!r} is per player (declare the stock first)", rs.zones[0])

    def _suggest(self, name, pool) -> str:
        close = difflib.get_close_matches(name, list(pool), n=1)
        return f"; did you mean {close[0]!r}?" if close else ""

    # ------------------------------------------------------------------ slots
    def new_slot(self) -> int:
        self.slots += 1
        return self.slots - 1

    # ------------------------------------------------------------- expressions
    # Expressions compile to Python source text, which is turned into functions once:
    # one Python function per definition, one lambda per expression a statement uses.
    # A scope maps a name to (slot number, type) for locals kept in the state, or to
    # (Python source, type) for names bound inside generated code.

    def expr(self, e, scope: dict) -> tuple[Callable, str]:
        src, t = self.sx(e, scope)
        return self.lam(src), t

    def typed(self, e, scope, want: str, what: str):
        src, t = self.sx_typed(e, scope, want, what)
        return self.lam(src), t

    def lam(self, src: str) -> Callable:
        fn = self.lam_cache.get(src)
        if fn is None:
            fn = self.lam_cache[src] = eval(f"lambda st: {src}", self.ns)
        return fn

    def sx(self, e, scope) -> tuple[str, str]:
        return getattr(self, "e_" + type(e).__name__)(e, scope)

    def sx_typed(self, e, scope, want: str, what: str):
        src, t = self.sx(e, scope)
        if want == "collection":
            if t not in COLLECTIONS:
                raise _err(f"{what} must be a collection of cards, players or numbers; "
                           f"{unparse(e)!r} is {word(t)}", e)
            return self.coll_src(src, t), t
        if want == "zone" and t == "zonekind":
            raise _err(f"{what} must be one zone; {unparse(e)!r} is a kind of zone: say which one, like {unparse(e)}(p)", e)
        if want == "zone" and t not in ("zone", "any", "none"):
            raise _err(f"{what} must be one zone; {unparse(e)!r} is {word(t)}", e)
        if not _compatible(t, want):
            raise _err(f"{what} must be {word(want)}; {unparse(e)!r} is {word(t)}", e)
        return src, t

    def coll_src(self, src, t):
        return f"st.zones[{src}]" if t == "zone" else src

    def as_collection(self, fn, t):
        if t == "zone":
            return lambda st: st.zones[fn(st)]
        return fn

    def fresh(self, base: str) -> str:
        self.n_names += 1
        return f"_{base}{self.n_names}"

    def const(self, value) -> str:
        """A constant the generated code needs, stored in its namespace."""
        name = self.fresh("k")
        self.ns[name] = value
        return name

    def e_IntLit(self, e, scope):
        return repr(e.value), "int"

    def e_StrLit(self, e, scope):
        return repr(e.value), "str"

    def e_BoolLit(self, e, scope):
        return repr(e.value), "bool"

    def e_NoneLit(self, e, scope):
        return "None", "none"

    def e_ListExpr(self, e, scope):
        parts = [self.sx(i, scope) for i in e.items]
        if any(t == "rank" for _, t in parts):  # [King, 3]: a number among ranks names a rank
            parts = [(self._rank_literal(i), "rank") if isinstance(i, g.IntLit) else (src, t)
                     for i, (src, t) in zip(e.items, parts)]
        types = {t for _, t in parts} - {"none"}
        if len(types) > 1:
            raise _err(f"a list must hold one kind of thing; this one mixes {', '.join(sorted(types))}", e)
        elem = types.pop() if types else "card"
        coll = {v: k for k, v in ELEM.items() if k not in ("zone", "zonekind")}.get(elem)
        if coll is None:
            raise _err(f"a list of {elem} values is not supported", e)
        return "(" + "".join(f"{src}, " for src, _ in parts) + ")", coll

    def e_Name(self, e, scope):
        n = e.name
        p = self.p
        if n in scope:
            slot, t = scope[n]
            return (f"st.slots[{slot}]" if isinstance(slot, int) else slot), t
        if n in self.var_slots:
            slot, t = self.var_slots[n]
            if n in self.player_vars:
                raise _err(f"{n!r} has one value per player: say whose, like {n}(p)", e)
            return f"st.slots[{slot}]", t
        if n in p.option_index:
            i = p.option_index[n]
            o = p.options[i]
            return f"st.opts[{i}]", ("enum" if o.type == "enum" else o.type)
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise _err(f"{n!r} needs {len(d.params)} argument(s): write {n}(...)", e)
            return self.call_define(d, [], e)
        if n in p.zone_index:
            z = p.zones[p.zone_index[n]]
            zi = p.zone_index[n]
            if not z.per_player and not z.size:
                return f"st.zbase[{zi}]", "zone"
            src = f"_kind_cards(st, {zi})"
            self.kind_of[src] = zi
            return src, "zonekind"
        if n in self.suit_index:
            return repr(self.suit_index[n]), "suit"
        if n in self.rank_index:
            return repr(self.rank_index[n]), "rank"
        if n in self.rs.deck.groups:
            return repr(frozenset(self.rank_index[r] for r in self.rs.deck.groups[n])), "ranks"
        if n in self.enum_values:
            return repr(n), "enum"
        if n == "cards":
            return "ALLCARDS", "cards"
        if n == "players":
            return "st.seats", "players"
        if n == "player_count":
            return "st.n_players", "int"
        if n == "suits":
            return repr(tuple(range(len(self.rs.deck.suits)))), "suits"
        if n == "ranks":
            return repr(tuple(range(len(self.rs.deck.ranks)))), "ranks"
        pool = list(scope) + list(self.var_slots) + list(p.option_index) + list(self.defines) + \
            list(p.zone_index) + list(self.suit_index) + list(self.rank_index) + \
            ["cards", "players", "player_count", "suits", "ranks"]
        raise _err(f"unknown name {n!r}" + self._suggest(n, pool), e)

    def e_Attr(self, e, scope):
        obj, t = self.sx(e.obj, scope)
        a = e.name
        p = self.p
        if t == "zone":
            if a == "index":
                return f"_zindex(st, {obj})", "int"
            if a == "owner":
                return f"st.zowner[{obj}]", "player"
            raise _err(f"zones have no attribute {a!r}; they have index and owner", e)
        if t not in ("card", "any", "none"):
            raise _err(f"only cards and zones have attributes; {unparse(e.obj)!r} is {word(t)}", e)
        if a in _CARD_ATTRS:
            template, typ = _CARD_ATTRS[a]
            return template.format(obj), typ
        if a in p.values:
            return f"VALUE_{a}[{obj}]", "int"
        raise _err(f"cards have no attribute {a!r}; they have suit, rank, order, owner, played_by, zone, face_up"
                   + "".join(", " + v for v in p.values), e)

    def e_Cond(self, e, scope):
        test, _ = self.sx_typed(e.test, scope, "bool", "the test of if ... then ... else")
        a, ta = self.sx(e.then, scope)
        b, tb = self.sx(e.else_, scope)
        if not _compatible(ta, tb):
            raise _err(f"both branches must be the same kind of value; here {word(ta)} and {word(tb)}", e)
        if ta != tb and {ta, tb} <= {"zone", "zonekind", "cards"}:  # a zone and some cards: both as cards
            return f"({self.coll_src(a, ta)} if {test} else {self.coll_src(b, tb)})", "cards"
        return f"({a} if {test} else {b})", (ta if ta != "none" else tb)

    def e_UnOp(self, e, scope):
        if e.op == "not":
            f, _ = self.sx_typed(e.operand, scope, "bool", "the operand of not")
            return f"(not {f})", "bool"
        f, _ = self.sx_typed(e.operand, scope, "int", "the operand of -")
        return f"(-{f})", "int"

    def e_BinOp(self, e, scope):
        op = e.op
        if op in ("and", "or"):
            a, _ = self.sx_typed(e.left, scope, "bool", f"each side of {op}")
            b, _ = self.sx_typed(e.right, scope, "bool", f"each side of {op}")
            return f"({a} {op} {b})", "bool"
        if op in ("in", "not in"):
            return self.membership(e, scope)
        if op == "..":
            a, _ = self.sx_typed(e.left, scope, "int", "the start of a range")
            b, _ = self.sx_typed(e.right, scope, "int", "the end of a range")
            return f"tuple(range({a}, {b} + 1))", "ints"
        a, ta = self.sx(e.left, scope)
        b, tb = self.sx(e.right, scope)
        if op in ("==", "!="):
            a, ta, b, tb = self._coerce_rank(e.left, a, ta, e.right, b, tb)
            if not _compatible(ta, tb):
                raise _err(f"cannot compare {word(ta)} with {word(tb)}: {unparse(e)!r}", e)
            return f"({a} {op} {b})", "bool"
        if op == "+" and ta in COLLECTIONS and tb in COLLECTIONS:
            if ELEM[ta] != ELEM[tb]:
                raise _err(f"cannot join a collection of {ELEM[ta]}s with one of {ELEM[tb]}s", e)
            return f"[*{self.coll_src(a, ta)}, *{self.coll_src(b, tb)}]", ("cards" if ELEM[ta] == "card" else ta)
        for t, node in ((ta, e.left), (tb, e.right)):
            if t not in ("int", "any"):
                raise _err(f"{op} needs numbers; {unparse(node)!r} is {word(t)}", node)
        if op in ("+", "-", "*"):
            return f"({a} {op} {b})", "int"
        if op == "/":
            return f"({a} // {b})", "int"
        if op == "mod":
            return f"({a} % {b})", "int"
        return f"({a} {op} {b})", "bool"

    def _coerce_rank(self, la, a, ta, ra, b, tb):
        """`c.rank == 10`: a number next to a rank means the rank of that name."""
        if ta == "rank" and tb == "int" and isinstance(ra, g.IntLit):
            return a, ta, self._rank_literal(ra), "rank"
        if tb == "rank" and ta == "int" and isinstance(la, g.IntLit):
            return self._rank_literal(la), "rank", b, tb
        return a, ta, b, tb

    def _rank_literal(self, lit):
        name = str(lit.value)
        if name not in self.rank_index:
            raise _err(f"the deck has no rank {name}", lit)
        return repr(self.rank_index[name])

    def membership(self, e, scope):
        item, ti = self.sx(e.left, scope)
        coll, tc = self.sx(e.right, scope)
        if tc not in COLLECTIONS:
            raise _err(f"the right side of {e.op} must be a zone or a collection; {unparse(e.right)!r} is {word(tc)}", e.right)
        if tc == "ranks" and ti == "int" and isinstance(e.left, g.IntLit):
            item, ti = self._rank_literal(e.left), "rank"
        if not _compatible(ti, ELEM[tc]):
            raise _err(f"{unparse(e.left)!r} is {word(ti)}, but {unparse(e.right)!r} holds {ELEM[tc]}s", e)
        if tc in ("zone", "zonekind"):
            bare = item.strip("()")
            if bare.startswith("_v_"):  # an aggregate's variable is never none
                c, pre = bare, ""
            elif bare.isidentifier() or re.fullmatch(r"st\.slots\[\d+\]", bare):
                c, pre = bare, f"{bare} is not None and "
            else:
                c = self.fresh("t")
                pre = f"({c} := {item}) is not None and "
            if tc == "zone":
                f = f"({pre}st.card_zone[{c}] == {coll})"
            else:
                f = f"({pre}st.card_kind[{c}] == {self.kind_of[coll]})"
        else:
            f = f"({item} in {coll})"
        return (f"(not {f})" if e.op == "not in" else f), "bool"

    def e_Agg(self, e, scope):
        dom, td = self.sx_typed(e.domain, scope, "collection", f"the set after '{e.var} in'")
        v = self.fresh("v_" + e.var + "_")
        inner = dict(scope)
        inner[e.var] = (v, ELEM[td])
        where = self.sx_typed(e.where, inner, "bool", "the where condition")[0] if e.where is not None else None
        cond = f" if {where}" if where else ""
        op = e.op
        if op == "all":
            body, _ = self.sx_typed(e.body, inner, "bool", "the condition after ':'")
            return f"all({body} for {v} in {dom}{cond})", "bool"
        if op == "sum":
            body, _ = self.sx_typed(e.body, inner, "int", "the value after ':'")
            return f"sum({body} for {v} in {dom}{cond})", "int"
        if op == "any":
            return (f"any({where} for {v} in {dom})" if where else f"(len({dom}) > 0)"), "bool"
        if op == "no":
            return (f"(not any({where} for {v} in {dom}))" if where else f"(len({dom}) == 0)"), "bool"
        if op == "count":
            return (f"sum(1 for {v} in {dom}{cond})" if where else f"len({dom})"), "int"
        if op == "those":
            coll = {"card": "cards", "player": "players", "int": "ints", "suit": "suits", "rank": "ranks",
                    "zone": "zones"}[ELEM[td]]
            return f"[{v} for {v} in {dom}{cond}]", coll
        pick = "max" if op == "highest" else "min"
        key = ", key=CARDKEY.__getitem__" if ELEM[td] == "card" else ""
        return f"{pick}(({v} for {v} in {dom}{cond}){key}, default=None)", ELEM[td]

    def e_Split(self, e, scope):
        cards, _ = self.sx_typed(e.cards, scope, "collection", "the cards to split")
        specs = []
        for grp in e.groups:
            count, _ = self.sx_typed(grp.count, scope, "int", "how many groups")
            d = self.defines.get(grp.define)
            if d is None:
                raise _err(f"unknown definition {grp.define!r} in split" + self._suggest(grp.define, self.defines), e)
            if len(d.params) != 1 or d.params[0].type != "cards":
                raise _err(f"{grp.define!r} must take one collection of cards, like: define {grp.define}(g: cards) = ...", e)
            fname, t, _ = self.call_define_fn(d, e)
            if t != "bool":
                raise _err(f"{grp.define!r} must be true or false for a group of cards", e)
            if grp.sizes is None:
                sizes = "None"
            else:
                sizes, st_ = self.sx(grp.sizes, scope)
                if st_ == "int":
                    sizes = f"({sizes},)"
                elif st_ != "ints":
                    raise _err(f"the sizes after 'of' must be a number or a range like 3..4", e)
            specs.append(f"({count}, {fname}, {sizes})")
        score = "None"
        if e.score is not None:
            d = self.defines.get(e.score)
            if d is None or len(d.params) != 1 or d.params[0].type != "cards":
                raise _err(f"'by {e.score}' needs a definition scoring one group: define {e.score}(g: cards) = ...", e)
            score, t, _ = self.call_define_fn(d, e)
            if t != "int":
                raise _err(f"{e.score!r} must give a number for a group of cards", e)
        self.n_splits = getattr(self, "n_splits", 0) + 1
        names = [grp.define for grp in e.groups] + ([e.score] if e.score else [])
        # groups judged only by their cards' suits, ranks and values give the same answer in
        # every game, so the search result can be kept for the whole program
        static = all(self.static_define(n) for n in names)
        site = self.n_splits if not static else -self.n_splits
        return f"_split(st, {cards}, ({', '.join(specs)},), {score}, {site})", ("int" if e.score else "bool")

    def static_define(self, name: str, seen: frozenset = frozenset()) -> bool:
        """Whether a definition depends only on its arguments' printed faces (suit, rank,
        order, values): no zones, players, options, variables or chance."""
        d = self.defines.get(name)
        if d is None or name in seen:
            return False
        bound = {p.name for p in d.params}
        return self._static(d.body, bound, seen | {name})

    def _static(self, e, bound: set, seen: frozenset) -> bool:
        if isinstance(e, (g.IntLit, g.BoolLit, g.NoneLit, g.StrLit)):
            return True
        if isinstance(e, g.Name):
            return e.name in bound or e.name in self.suit_index or e.name in self.rank_index \
                or e.name in self.rs.deck.groups
        if isinstance(e, g.Attr):
            return e.name in ("suit", "rank", "order") + tuple(self.p.values) and self._static(e.obj, bound, seen)
        if isinstance(e, g.Call):
            if e.func in self.defines:
                return self.static_define(e.func, seen) and all(self._static(a, bound, seen) for a in e.args)
            return e.func in ("count", "first", "last", "highest", "lowest", "above", "below", "min", "max",
                              "abs", "any", "no") and all(self._static(a, bound, seen) for a in e.args)
        if isinstance(e, g.Agg):
            inner = bound | {e.var}
            return self._static(e.domain, bound, seen) and all(
                x is None or self._static(x, inner, seen) for x in (e.where, e.body))
        if isinstance(e, g.Cond):
            return all(self._static(x, bound, seen) for x in (e.test, e.then, e.else_))
        if isinstance(e, g.BinOp):
            return self._static(e.left, bound, seen) and self._static(e.right, bound, seen)
        if isinstance(e, g.UnOp):
            return self._static(e.operand, bound, seen)
        if isinstance(e, g.ListExpr):
            return all(self._static(x, bound, seen) for x in e.items)
        return False

    def call_define_fn(self, d, node):
        """The generated function of a definition (compiling it if needed)."""
        self.call_define(d, [], node)
        return self.def_cache[d.name]

    def e_Call(self, e, scope):
        n = e.func
        p = self.p
        args = e.args
        if n in self.defines:
            d = self.defines[n]
            if len(args) != len(d.params):
                raise _err(f"{n} takes {len(d.params)} argument(s), given {len(args)}", e)
            srcs = [self._rank_literal(a) if prm.type == "rank" and isinstance(a, g.IntLit) else
                    self.sx_typed(a, scope, prm.type, f"argument {prm.name!r} of {n}")[0]
                    for a, prm in zip(args, d.params)]
            if not _has_agg(d.body) and all(isinstance(a, (g.Name, g.IntLit, g.NoneLit)) for a in args):
                return self.inline_define(d, srcs, e)
            return self.call_define(d, srcs, e)
        if n in self.player_vars:
            if len(args) != 1:
                raise _err(f"{n}(...) takes one player", e)
            who, _ = self.sx_typed(args[0], scope, "player", f"the player of {n}(...)")
            slot, t = self.var_slots[n]
            return f"st.slots[{slot}][{who}]", t
        if n in p.zone_index:
            zi = p.zone_index[n]
            z = p.zones[zi]
            if z.size:
                if len(args) != 1:
                    raise _err(f"{n}(...) takes one number, from 1 to {z.size}", e)
                i, _ = self.sx_typed(args[0], scope, "int", f"the number of {n}(...)")
                return f"_zone_at(st, {zi}, {i})", "zone"
            if not z.per_player:
                raise _err(f"zone {n!r} is a single shared zone; write {n} without arguments", e)
            if len(args) != 1:
                raise _err(f"{n}(...) takes one player", e)
            who, _ = self.sx_typed(args[0], scope, "player", f"the player of {n}(...)")
            return f"(st.zbase[{zi}] + {who})", "zone"
        return self.builtin(e, scope)

    def builtin(self, e, scope):
        n, args = e.func, e.args

        def arity(k):
            if len(args) != k:
                raise _err(f"{n} takes {k} argument(s), given {len(args)}", e)
        if n in ("count", "any", "no", "first", "last", "highest", "lowest"):
            arity(1)
            s, t = self.sx_typed(args[0], scope, "collection", f"the argument of {n}")
            if n == "count":
                return f"len({s})", "int"
            if n == "any":
                return f"(len({s}) > 0)", "bool"
            if n == "no":
                return f"(len({s}) == 0)", "bool"
            if n in ("first", "last"):
                return f"_{n}({s})", ELEM[t]
            pick = "max" if n == "highest" else "min"
            key = ", key=CARDKEY.__getitem__" if ELEM[t] == "card" else ""
            return f"{pick}({s}{key}, default=None)", ELEM[t]
        if n == "zones":
            arity(1)
            a = args[0]
            if not isinstance(a, g.Name) or a.name not in self.p.zone_index:
                raise _err("zones(...) takes the name of a kind of zone, like zones(hand)", e)
            zi = self.p.zone_index[a.name]
            return f"_zones_of(st, {zi})", "zones"
        if n in ("top", "bottom"):
            if len(args) not in (1, 2):
                raise _err(f"{n} takes a zone and, optionally, how many cards", e)
            s, t = self.sx_typed(args[0], scope, "collection", f"the first argument of {n}")
            if len(args) == 1:
                return f"_{'last' if n == 'top' else 'first'}({s})", ELEM[t]
            k, _ = self.sx_typed(args[1], scope, "int", f"how many cards {n} takes")
            return f"_{n}_n({s}, {k})", "cards"
        if n in ("above", "below"):
            arity(1)
            c, _ = self.sx_typed(args[0], scope, "card", f"the argument of {n}")
            return f"{n.upper()}[{c}]", "cards"
        if n == "cards_of":
            arity(1)
            s, _ = self.sx_typed(args[0], scope, "suit", "the argument of cards_of")
            return f"SUITCARDS[{s}]", "cards"
        if n == "card":
            arity(2)
            if isinstance(args[0], g.IntLit):
                r = self._rank_literal(args[0])
            else:
                r, _ = self.sx_typed(args[0], scope, "rank", "the first argument of card (a rank)")
            s, _ = self.sx_typed(args[1], scope, "suit", "the second argument of card (a suit)")
            return f"CARDOF[({r}, {s})]", "card"
        if n in ("next", "previous"):
            arity(1)
            who, _ = self.sx_typed(args[0], scope, "player", f"the argument of {n}")
            return f"(({who} {'+' if n == 'next' else '-'} 1) % st.n_players)", "player"
        if n == "random":
            arity(1)
            if self.def_stack:
                raise _err("random(...) draws by chance, so it belongs in a statement (let, set, ...), "
                           "not in a definition", e)
            s, t = self.sx_typed(args[0], scope, "collection", "the argument of random")
            return f"_random(st, {s})", ELEM[t]
        if n == "seat":
            arity(1)
            k, _ = self.sx_typed(args[0], scope, "int", "the argument of seat (a seat number from 1)")
            return f"_seat(st, {k})", "player"
        if n == "abs":
            arity(1)
            a, _ = self.sx_typed(args[0], scope, "int", "the argument of abs")
            return f"abs({a})", "int"
        if n in ("min", "max"):
            arity(2)
            a, _ = self.sx_typed(args[0], scope, "int", f"the arguments of {n}")
            b, _ = self.sx_typed(args[1], scope, "int", f"the arguments of {n}")
            return f"{n}({a}, {b})", "int"
        builtins = ["count", "any", "no", "first", "last", "highest", "lowest", "above", "below",
                    "cards_of", "card", "next", "previous", "min", "max", "seat", "zones", "top", "bottom",
                    "random", "abs"]
        p = self.p
        pool = builtins + list(self.defines) + [z for z, i in p.zone_index.items() if p.zones[i].per_player]
        raise _err(f"unknown function {n!r}" + self._suggest(n, pool), e)

    def inline_define(self, d: g.Define, arg_srcs, node):
        """A small definition (no aggregate) called with plain names is compiled in place."""
        self._enter_define(d, node)
        scope = {prm.name: (f"({a})", prm.type) for prm, a in zip(d.params, arg_srcs)}
        out = self.sx(d.body, scope)
        self.def_stack.pop()
        return out

    def _enter_define(self, d, node):
        if d.name in self.def_stack:
            chain = " -> ".join(self.def_stack[self.def_stack.index(d.name):] + [d.name])
            raise _err(f"definition {d.name!r} refers to itself ({chain}); definitions cannot be recursive", node)
        for prm in d.params:
            if prm.type not in TYPE_WORDS:
                raise _err(f"unknown parameter type {prm.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", d)
        self.def_stack.append(d.name)

    def call_define(self, d: g.Define, arg_srcs, node):
        """A definition is one generated function, memoised per state: definitions are pure
        (they see only their parameters and the game), so a result holds until the state
        changes, and State.memo is emptied on every change."""
        fname = f"D_{d.name}"
        if d.name not in self.def_cache:
            self._enter_define(d, node)
            params = [f"a{i}" for i in range(len(d.params))]
            scope = {prm.name: (a, prm.type) for prm, a in zip(d.params, params)}
            body, t = self.sx(d.body, scope)
            self.def_stack.pop()
            idx = len(self.def_cache)
            key = repr(idx) if not params else (f"({idx}, a0)" if len(params) == 1 else f"({idx}, {', '.join(params)})")
            # a definition judged by its arguments' faces alone keeps its answers for good
            static = bool(params) and self.static_define(d.name)
            memo = "STATIC" if static else "st.memo"
            limit = "        if len(m) > 500000:\n            m.clear()\n" if static else ""
            self.def_src.append(
                f"def {fname}(st{''.join(', ' + a for a in params)}):\n"
                f"    m = {memo}\n"
                f"    r = m.get({key}, MISS)\n"
                f"    if r is MISS:\n"
                f"{limit}"
                f"        r = m[{key}] = {body}\n"
                f"    return r\n")
            self.def_cache[d.name] = (fname, t, len(params))
        fname, t, _ = self.def_cache[d.name]
        return f"{fname}(st{''.join(', ' + a for a in arg_srcs)})", t

    # -------------------------------------------------------------- statements
    def emit(self, op, a=None, b=None) -> int:
        self.p.code.append([op, a, b])
        self.p.nodes.append(self.cur_node)
        self.p.rule_at.append(self.rule_stack[-1] if self.rule_stack and self.rule_stack[-1][0] else None)
        return len(self.p.code) - 1

    def here(self) -> int:
        return len(self.p.code)

    def block(self, stmts, scope):
        scope = dict(scope)
        for s in stmts:
            outer, self.cur_node = self.cur_node, s
            getattr(self, "s_" + type(s).__name__)(s, scope)
            self.cur_node = outer

    def s_Pass(self, s, scope):
        pass

    def s_Shuffle(self, s, scope):
        z, _ = self.typed(s.zone, scope, "zone", "what to shuffle")
        self.emit(EXEC, lambda st: st.shuffle(z(st)))

    def s_Deal(self, s, scope):
        n, _ = self.typed(s.count, scope, "int", "how many cards to deal")
        src, _ = self.typed(s.source, scope, "zone", "where to deal from")
        p = self.p
        if s.target not in p.zone_index or not (p.zones[p.zone_index[s.target]].per_player
                                                or p.zones[p.zone_index[s.target]].size):
            raise _err(f"deal ... to each {s.target}: {s.target!r} is neither a per-player zone "
                       "nor a family of zones", s)
        zi = p.zone_index[s.target]
        up = self.typed(s.face_up, scope, "bool", "the face up condition")[0] if s.face_up is not None else None
        self.emit(EXEC, lambda st: st.deal(n(st), src(st), zi, bool(up and up(st))))

    def s_Move(self, s, scope):
        what, t = self.expr(s.what, scope)
        if t not in ("card", "cards", "zone", "zonekind", "any"):
            raise _err(f"move needs a card or cards; {unparse(s.what)!r} is {word(t)}", s.what)
        to, _ = self.typed(s.to, scope, "zone", "where to move the cards")
        up = self.typed(s.face_up, scope, "bool", "the face up condition")[0] if s.face_up is not None else None
        node = s
        under = s.under
        if t == "card":
            def run(st):
                c = what(st)
                if c is None:
                    raise _runtime(f"{unparse(node.what)!r} is none here: there is no card to move", node)
                st.move([c], to(st), bool(up and up(st)), under)
        else:
            coll = self.as_collection(what, t)
            run = lambda st: st.move(list(coll(st)), to(st), bool(up and up(st)), under)
        self.emit(EXEC, run)

    def s_Reveal(self, s, scope):
        what, t = self.expr(s.what, scope)
        if t == "card":
            self.emit(EXEC, lambda st: st.reveal([what(st)]))
        else:
            coll = self.typed(s.what, scope, "collection", "what to reveal")[0]
            self.emit(EXEC, lambda st: st.reveal(list(coll(st))))

    def s_Let(self, s, scope):
        v, t = self.expr(s.value, scope)
        slot = self.new_slot()
        if t == "zonekind" or t == "zone":
            v, t = self.as_collection(v, t), "cards"
            v0 = v
            v = lambda st: list(v0(st))
        if t == "none":
            t = "any"
        scope[s.name] = (slot, t)

        def run(st):
            st.slots[slot] = v(st)
        self.emit(EXEC, run)

    def s_Set(self, s, scope):
        if s.name in scope:
            slot, t = scope[s.name]
        elif s.name in self.var_slots:
            slot, t = self.var_slots[s.name]
        else:
            raise _err(f"cannot set {s.name!r}: it is neither a variable (declare it with 'var') "
                       "nor a local (introduce it with 'let')", s)
        v, _ = self.typed(s.value, scope, t, f"the new value of {s.name}")
        if s.name in self.player_vars and s.name not in scope:
            if s.index is None:
                raise _err(f"{s.name!r} has one value per player: say whose, like set {s.name}(p) = ...", s)
            who, _ = self.typed(s.index, scope, "player", f"the player of {s.name}(...)")

            def run(st):
                st.slots[slot][who(st)] = v(st)
                st.memo = {}
        else:
            if s.index is not None:
                raise _err(f"{s.name!r} is a single value, not one per player", s.index)

            def run(st):
                st.slots[slot] = v(st)
                st.memo = {}
        self.emit(EXEC, run)

    def s_DeclareWinner(self, s, scope):
        who, t = self.expr(s.who, scope)
        if t not in ("player", "players", "none", "any"):
            raise _err(f"the winner must be a player, players or none; {unparse(s.who)!r} is {word(t)}", s.who)
        if t == "player":
            run = lambda st: st.declare((who(st),))
        elif t == "none":
            run = lambda st: st.declare(())
        else:
            run = lambda st: st.declare(tuple(who(st)))
        self.emit(EXEC, run)

    def s_Perform(self, s, scope):
        if s.name not in self.procs:
            raise _err(f"unknown procedure {s.name!r}" + self._suggest(s.name, self.procs), s)
        proc = self.procs[s.name]
        if len(s.args) != len(proc.params):
            raise _err(f"procedure {s.name} takes {len(proc.params)} argument(s), given {len(s.args)}", s)
        fns = [self.typed(a, scope, prm.type, f"argument {prm.name!r} of {s.name}")[0]
               for a, prm in zip(s.args, proc.params)]
        params = self.proc_params_for(proc)

        def bind(st):
            vals = [f(st) for f in fns]
            for slot, v in zip(params, vals):
                st.slots[slot] = v
        if fns:
            self.emit(EXEC, bind)
        i = self.emit(CALL, None, None)
        self.pending_calls.append((i, s.name))

    def proc_params_for(self, proc):
        if proc.name not in self.proc_params:
            self.proc_params[proc.name] = [self.new_slot() for _ in proc.params]
        return self.proc_params[proc.name]

    def s_Break(self, s, scope):
        if self.loop_ends is None or not self.loop_ends:
            raise _err("break is only allowed inside a loop (while, repeat or for each)", s)
        self.loop_ends[-1].append(self.emit(JUMP, None))

    def s_EndGame(self, s, scope):
        self.emit(END)

    def s_If(self, s, scope):
        ends = []
        for br in s.branches:
            test, _ = self.typed(br.test, scope, "bool", "the condition of if")
            j = self.emit(JIF, test, None)
            self.block(br.body, scope)
            ends.append(self.emit(JUMP, None))
            self.p.code[j][2] = self.here()
        self.block(s.else_, scope)
        for j in ends:
            self.p.code[j][1] = self.here()

    def _loop(self, top: int, body_fn):
        self.loop_ends.append([])
        body_fn()
        self.emit(JUMP, top)
        for j in self.loop_ends.pop():
            self.p.code[j][1] = self.here()

    def s_While(self, s, scope):
        test, _ = self.typed(s.test, scope, "bool", "the condition of while")
        top = self.here()
        j = self.emit(JIF, test, None)
        self._loop(top, lambda: self.block(s.body, scope))
        self.p.code[j][2] = self.here()

    def s_Repeat(self, s, scope):
        top = self.here()
        self._loop(top, lambda: self.block(s.body, scope))

    def _iterate(self, var, elem, list_fn, body, scope):
        lst, idx, vslot = self.new_slot(), self.new_slot(), self.new_slot()

        def init(st):
            st.slots[lst] = list_fn(st)
            st.slots[idx] = 0
        self.emit(EXEC, init)
        top = self.here()
        j = self.emit(JIF, lambda st: st.slots[idx] < len(st.slots[lst]), None)

        def step(st):
            st.slots[vslot] = st.slots[lst][st.slots[idx]]
            st.slots[idx] += 1
        self.emit(EXEC, step)
        inner = dict(scope)
        inner[var] = (vslot, elem)
        self._loop(top, lambda: self.block(body, inner))
        self.p.code[j][2] = self.here()

    def s_ForPlayers(self, s, scope):
        if s.at is not None:
            at, _ = self.typed(s.at, scope, "player", f"the player after 'for each player {s.var} {s.start}'")
        else:
            at = lambda st: 0
        offset = 1 if s.start == "after" else 0
        node = s

        def order(st):
            a = at(st)
            if a is None:
                raise _runtime(f"{unparse(node.at)!r} is none here", node)
            n = st.n_players
            k = n - offset
            return [(a + offset + i) % n for i in range(k)]
        self._iterate(s.var, "player", order, s.body, scope)

    def s_ForEach(self, s, scope):
        dom, t = self.typed(s.domain, scope, "collection", f"the set after 'for each {s.var} in'")
        self._iterate(s.var, ELEM[t], lambda st: list(dom(st)), s.body, scope)

    def s_Rule(self, s, scope):
        p = self.p
        if s.name in p.rule_titles:
            raise _err(f"rule {s.name!r} is defined twice; rule names must be unique", s)
        p.rule_titles[s.name] = s.title or s.name
        idx = len(p.rule_names)
        p.rule_names.append(s.name)
        j = None
        if s.when is not None:
            test, _ = self.typed(s.when, scope, "bool", "the when condition of a rule")
            j = self.emit(JIF, test, None)

        def fire(st):
            st.fired[idx] += 1
        self.emit(EXEC, fire)
        self.rule_stack.append((s.name, s.title or s.name))
        self.block(s.body, scope)
        self.rule_stack.pop()
        if j is not None:
            self.p.code[j][2] = self.here()

    def s_Choose(self, s, scope):
        each_slot = None
        if s.each is not None:
            actor, t = self.typed(s.by, scope, "collection", f"the players after 'choose by each {s.each} in'")
            if ELEM[t] != "player":
                raise _err(f"'choose by each' needs a collection of players; {unparse(s.by)!r} is {word(t)}", s.by)
            each_slot = self.new_slot()
            scope = dict(scope)
            scope[s.each] = (each_slot, "player")
        else:
            actor, _ = self.typed(s.by, scope, "player", "who chooses")
        rule, title = self.rule_stack[-1] if self.rule_stack and self.rule_stack[-1][0] else (None, None)
        alts: list[Alt] = []
        seen = set()
        for a in s.actions:
            inner = dict(scope)
            slot = elem = dom = None
            if a.var is not None:
                dom, t = self.typed(a.domain, scope, "collection", f"the set of action {a.name!r}")
                elem = ELEM[t]
                slot = self.new_slot()
                inner[a.var] = (slot, elem)
            elif a.where is not None:
                raise _err(f"action {a.name!r} has no parameter, so 'where' has nothing to filter; use 'when'", a)
            key = (a.name, a.var is None)
            if key in seen and a.var is None:
                raise _err(f"action {a.name!r} appears twice in the same choice", a)
            seen.add(key)
            where = self.typed(a.where, inner, "bool", "the where condition")[0] if a.where is not None else None
            when = self.typed(a.when, scope, "bool", "the when condition")[0] if a.when is not None else None
            alt = Alt(a.name, a.label, slot, elem, dom, where, when, node=a)
            if a.var is not None:
                dsrc, _ = self.sx_typed(a.domain, scope, "collection", f"the set of action {a.name!r}")
                if a.where is None:
                    alt.values = self.lam(f"list(dict.fromkeys({dsrc}))")
                else:
                    bound = dict(scope)
                    bound[a.var] = ("_v_arg", elem)
                    wsrc, _ = self.sx_typed(a.where, bound, "bool", "the where condition")
                    alt.values = self.lam(f"list(dict.fromkeys([_v_arg for _v_arg in {dsrc} if {wsrc}]))")
            alts.append(alt)
        choice = Choice(actor, alts, rule, title, s, unparse(s.by))
        choice.each_slot = each_slot
        self.p.choices.append(choice)
        if each_slot is not None:
            # every player of the collection decides once, in any order; each action's body
            # returns to the decision, which ends when nobody is left to decide
            self.emit(CHOOSE_EACH, choice)
            done = self.emit(JUMP, None)
            outer_loops, self.loop_ends = self.loop_ends, []  # a break cannot leave such a body
            for alt, a in zip(alts, s.actions):
                alt.body = self.here()
                inner = dict(scope)
                if alt.slot is not None:
                    inner[a.var] = (alt.slot, alt.elem)
                self.block(a.body, inner)
                self.emit(RET)
            self.loop_ends = outer_loops
            self.p.code[done][1] = self.here()
            return
        self.emit(CHOOSE, choice)
        ends = []
        for alt, a in zip(alts, s.actions):
            alt.body = self.here()
            inner = dict(scope)
            if alt.slot is not None:
                inner[a.var] = (alt.slot, alt.elem)
            self.block(a.body, inner)
            ends.append(self.emit(JUMP, None))
        for j in ends:
            self.p.code[j][1] = self.here()

    # ------------------------------------------------------------------- whole
    def compile(self) -> Program:
        p, rs = self.p, self.rs
        for v in rs.vars:
            if v.type not in TYPE_WORDS:
                raise _err(f"unknown variable type {v.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", v)
            if v.params:
                if len(v.params) != 1 or v.params[0].type != "player":
                    raise _err(f"a variable can have one value per player, like var {v.name}(p: player): int; "
                               "no other parameters", v)
                self.player_vars.add(v.name)
            slot = self.new_slot()
            self.var_slots[v.name] = (slot, v.type)
        for v in rs.vars:
            slot = self.var_slots[v.name][0]
            if v.params:
                pname = v.params[0].name
                if v.init is not None:
                    src, _ = self.sx_typed(v.init, {pname: ("_vp", "player")}, v.type, f"the initial value of {v.name}")
                else:
                    src = "None"
                init = self.lam(f"[{src} for _vp in st.seats]")
            else:
                init = self.typed(v.init, {}, v.type, f"the initial value of {v.name}")[0] if v.init is not None else None
            p.vars.append((v.name, slot, init))
        # definitions are compiled on first use; compile them all so every error surfaces
        for d in rs.defines:
            self.call_define(d, [], d)
        phase_start: dict[str, int] = {}
        phase_jumps = []
        for ph in rs.phases:
            phase_start[ph.name] = self.here()
            self.loop_ends = []
            self.rule_stack = [(ph.name, ph.title or ph.name)]
            self.block(ph.body, {})
            if ph.then:
                phase_jumps.append((self.emit(JUMP, None), ph.then))
            else:
                self.emit(END)
        for j, name in phase_jumps:
            p.code[j][1] = phase_start[name]
        # procedures: compile those performed (and every other, so errors surface)
        for proc in rs.procedures:
            self.proc_start[proc.name] = self.here()
            self.loop_ends = []
            self.rule_stack = [(None, None)]  # a procedure's rule is the one that performs it
            scope = {}
            for prm, slot in zip(proc.params, self.proc_params_for(proc)):
                if prm.type not in TYPE_WORDS:
                    raise _err(f"unknown parameter type {prm.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", proc)
                scope[prm.name] = (slot, prm.type)
            self.block(proc.body, scope)
            self.emit(RET)
        for i, name in self.pending_calls:
            p.code[i][1] = self.proc_start[name]
        self._check_recursion()
        if rs.winner is not None:
            w = rs.winner
            if w.score not in self.defines:
                raise _err(f"the winner rule names {w.score!r}, which is not a definition", w)
            d = self.defines[w.score]
            if len(d.params) != 1 or d.params[0].type != "player":
                raise _err(f"{w.score!r} must take one player, like: define {w.score}(p: player) = ...", w)
            fname, t, _ = self.def_cache[d.name]
            if t != "int":
                raise _err(f"{w.score!r} must give a number for each player; it gives {word(t)}", w)
            p.score_name, p.winner_rule = fname, w.rule
        exec("\n".join(self.def_src), self.ns)  # the generated definitions
        if rs.winner is not None:
            p.score = self.ns[p.score_name]
        p.namespace = self.ns
        p.start = phase_start[rs.phases[0].name]
        p.phase_start = phase_start
        p.n_slots = self.slots
        p.code = [tuple(ins) for ins in p.code]
        return p

    def _check_recursion(self):
        calls: dict[str, set[str]] = {}

        def walk(stmts, out):
            for s in stmts:
                if isinstance(s, g.Perform):
                    out.add(s.name)
                for block in g.child_blocks(s):
                    walk(block, out)
        for proc in self.rs.procedures:
            calls[proc.name] = set()
            walk(proc.body, calls[proc.name])

        def visit(name, path):
            if name in path:
                cycle = " -> ".join(path[path.index(name):] + [name])
                raise _err(f"procedure {name!r} performs itself ({cycle}); procedures cannot be recursive",
                           self.procs[name])
            for nxt in calls.get(name, ()):
                visit(nxt, path + [name])
        for name in calls:
            visit(name, [])


def _kind_cards(st, zi: int) -> list:
    base = st.zbase[zi]
    out = []
    for k in range(st.zcount[zi]):
        out.extend(st.zones[base + k])
    return out


def _zone_at(st, zi: int, i: int) -> int:
    if not 1 <= i <= st.zcount[zi]:
        raise IndexError(f"there is no zone number {i}; they are numbered 1 to {st.zcount[zi]}")
    return st.zbase[zi] + i - 1


def _zindex(st, z: int) -> int:
    """A zone's number in its family (1-based), or its owner's seat number for a player's zone."""
    return z - st.zbase[st.zkind[z]] + 1


def _zones_of(st, zi: int) -> tuple:
    return tuple(range(st.zbase[zi], st.zbase[zi] + st.zcount[zi]))


def _top_n(xs, k: int) -> list:
    return list(xs[len(xs) - k:]) if k > 0 else []


def _bottom_n(xs, k: int) -> list:
    return list(xs[:k]) if k > 0 else []


def _split(st, cards, specs, score, site=0):
    """Partition `cards` exactly into groups: specs are (count, predicate, sizes or None).
    Returns True/False, or with a score function the best total (-1 when impossible).
    Depth-first on the lowest remaining card, memoised on what remains; the answer is kept in
    the state's memo until the state changes (several players may ask about the same hand)."""
    cards = tuple(sorted(cards))
    counts = tuple(max(0, c) for c, _, _ in specs)
    key = ("split", site, cards, counts)
    cache = st.memo if site > 0 else st.program.split_cache  # site < 0: judged by the cards alone
    known = cache.get(key)
    if known is not None:
        return known
    result = _split_search(st, cards, specs, score, counts)
    if site < 0 and len(cache) > 200_000:
        cache.clear()
    cache[key] = result
    return result


def _split_search(st, cards, specs, score, counts):
    if any(c < 0 for c, _, _ in specs):
        return -1 if score else False
    n = len(cards)
    sizes = [tuple(sz) if sz is not None else tuple(range(1, n + 1)) for _, _, sz in specs]
    lo = sum(c * min(sz) for c, sz in zip(counts, sizes) if sz)
    hi = sum(c * max(sz) for c, sz in zip(counts, sizes) if sz)
    if not lo <= n <= hi:
        return -1 if score else False
    memo: dict = {}

    def search(rem, counts):
        if not rem:
            return 0 if not any(counts) else None
        key = (rem, counts)
        if key in memo:
            return memo[key]
        first, rest = rem[0], rem[1:]
        best = None
        for gi, (count, pred, _) in enumerate(specs):
            if not counts[gi]:
                continue
            for size in sizes[gi]:
                if size - 1 > len(rest):
                    continue
                seen = set()
                for combo in combinations(range(len(rest)), size - 1):
                    group = (first,) + tuple(rest[i] for i in combo)
                    if group in seen:
                        continue
                    seen.add(group)
                    if not pred(st, group):
                        continue
                    left = tuple(x for i, x in enumerate(rest) if i not in combo)
                    sub = search(left, counts[:gi] + (counts[gi] - 1,) + counts[gi + 1:])
                    if sub is None:
                        continue
                    if score is None:
                        memo[key] = 0
                        return 0
                    total = sub + score(st, group)
                    if best is None or total > best:
                        best = total
        memo[key] = best
        return best
    found = search(cards, counts)
    if score is None:
        return found is not None
    return -1 if found is None else found


def _random(st, xs):
    """One element by the game's seeded chance (none from an empty collection)."""
    xs = list(xs)
    return st.rng.choice(xs) if xs else None


def _seat(st, k: int) -> int:
    if not 1 <= k <= st.n_players:
        raise IndexError(f"there is no seat {k} with {st.n_players} players")
    return k - 1


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _has_agg(e) -> bool:
    if isinstance(e, g.Agg):
        return True
    for name in type(e).model_fields:
        v = getattr(e, name)
        if isinstance(v, g.Node) and _has_agg(v):
            return True
        if isinstance(v, tuple) and any(isinstance(x, g.Node) and _has_agg(x) for x in v):
            return True
    return False


def compile_ruleset(rs: g.Ruleset) -> Program:
    """Check a rule graph and compile it for the engine; raises RulesetError, located."""
    return Compiler(rs).compile()
