"""Expressions -> the IR's ops (ir/ops.py) with a type. Names, attributes, operators, calls and
the built-in functions; aggregates and definitions live in definitions.py, bit masks in masks.py."""

from __future__ import annotations

import re
from typing import Callable

from ..language import graph as g
from ..language import sizes
from ..language.unparse import unparse
from .cse import cse
from .definitions import _has_agg
from .ir import ops as o
from .ir.reads import never_none, plain_name, walk_shown
from .pyemit import py
from .program import COLLECTIONS, ELEM, _CARD_ATTRS, _compatible, _err, word

# names other languages give what this one spells otherwise: the unknown name's message says it
_COUNT = "; the number of cards in a zone or a collection is count(...)"
_FOREIGN = {
    "True": "; write true", "False": "; write false", "TRUE": "; write true", "FALSE": "; write false",
    "None": "; write none", "null": "; write none", "nil": "; write none", "NULL": "; write none",
    "len": _COUNT, "length": _COUNT, "size": _COUNT,
}
_FACE_UP = "; whether a card lies face up is its attribute face_up (c.face_up)"
_FOREIGN_CALLS = dict(_FOREIGN, known=_FACE_UP, revealed=_FACE_UP, visible=_FACE_UP, face_up=_FACE_UP,
                      is_face_up=_FACE_UP, faceup=_FACE_UP, shown=_FACE_UP)


def _seat_hint(n: str) -> str:
    """What to write for a seat named as the tools print it (P1, p2): seat(N)."""
    m = re.fullmatch(r"[Pp]([1-9][0-9]?)", n)
    return f"; the tools call the seats P1, P2, ...; in the rules a seat is seat({m.group(1)})" if m else ""


INLINE_MAX = 240  # characters of generated source a definition may take when written in place


class Expressions:
    # ------------------------------------------------------------- expressions
    # Expressions compile to ops, which the Python emitter (pyemit.py) writes as text turned
    # into functions once: one Python function per definition, one lambda per expression a
    # statement uses. A scope maps a name to (slot number, type) for locals kept in the state,
    # or to (an op, type) for names bound inside generated code.

    def expr(self, e, scope: dict) -> tuple[Callable, str]:
        src, t = self.sx(e, scope)
        return self.lam(src), t

    def typed(self, e, scope, want: str, what: str):
        src, t = self.sx_typed(e, scope, want, what)
        return self.lam(src), t

    def condition(self, e, scope, what: str) -> Callable:
        """A statement's test. (Keeping answers per state was tried: across the bundled games a
        test was almost never asked twice of one state, so it only cost time.)"""
        src, _ = self.sx_typed(e, scope, "bool", what)
        return self.lam(src)

    def lam(self, x: o.Op) -> Callable:
        """The function of an expression's ops, one per text (equal text, equal work)."""
        src = py(x)
        fn = self.lam_cache.get(src)
        if fn is None:
            fast = py(cse(x)) if self.p.fast else src  # the plain evaluator stays as written
            fn = self.lam_cache[src] = eval(f"lambda st: {fast}", self.ns)
            self.lam_src[id(fn)] = fast
            self.lam_ir[id(fn)] = x
            self.lam_ops.append(x)
        return fn

    def ir_of(self, fn):
        """The ops a generated function was made from (None: hand-written, or text not yet lowered)."""
        return None if fn is None else self.lam_ir.get(id(fn))

    def src_of(self, fn) -> str | None:
        """The source a generated function was made from (None for a hand-written closure)."""
        return self.lam_src.get(id(fn))

    def sx(self, e, scope) -> tuple[str, str]:
        src, t = getattr(self, "e_" + type(e).__name__)(e, scope)
        if self.probe and t == "bool" and not isinstance(e, g.Name) and any(isinstance(y, o.Opt) for y in walk_shown(src)):
            return self.probed(src), t
        return src, t

    def probed(self, src: str) -> str:
        """A test that reads an option, in the fuzzer's probe program: `_pin` opens it before its
        parts run, `_probe` logs its value (the k-th such test) and closes it. An option that
        never changed the value of a test it was read in was never put to the test, however
        often it was read."""
        self.probes += 1
        return o.Call("_probe", (o.Lit(self.probes - 1), o.Call("_pin", ()), src), t="bool")

    def sx_typed(self, e, scope, want: str, what: str):
        if isinstance(e, g.ListExpr) and not e.items and want in ("cards", "players", "ints", "suits", "ranks", "zones"):
            return o.ListOf((), t=want), want  # ([] is whatever collection is wanted: var ps: players starts so)
        if want == "rank" and isinstance(e, g.IntLit) and str(e.value) in self.rank_index:
            return self._rank_literal(e), "rank"  # (a rank written as a number, as card(3, Clubs) takes it)
        src, t = self.sx(e, scope)
        if want == "collection":
            if t not in COLLECTIONS:
                raise _err(f"{what} must be a collection of cards, players or numbers; "
                           f"{unparse(e)!r} is {word(t)}", e)
            return self.coll_src(src, t), t
        if want == "zone" and t == "zonekind":
            raise _err(f"{what} must be one zone; {unparse(e)!r} is a kind of zone: say which one, like {unparse(e)}(p)", e)
        if want == "zone" and t not in ("zone", "any", "none"):
            also = f": the zone it lies in is {unparse(e)}.zone" if t == "card" else ""
            raise _err(f"{what} must be one zone; {unparse(e)!r} is {word(t)}{also}", e)
        if not _compatible(t, want):
            raise _err(f"{what} must be {word(want)}; {unparse(e)!r} is {word(t)}", e)
        return src, t

    def _argument(self, a, prm, scope, n: str) -> str:
        """An argument of a definition; a zone given for a set of cards passes its cards."""
        src, t = self.sx_typed(a, scope, prm.type, f"argument {prm.name!r} of {n}")
        return self.coll_src(src, t) if prm.type == "cards" and t == "zone" else src

    def coll_src(self, src, t):
        return o.ZoneCards(src, t="cards") if t == "zone" else src

    def as_collection(self, fn, t):
        if t == "zone":
            coll = lambda st: st.zones[fn(st)]
            z = self.ir_of(fn)
            self.lam_ir[id(coll)] = o.ZoneCards(z, t="cards") if z is not None else None
            self.keep.append(coll)  # its id stays its own while the program lives
            return coll
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
        return o.Lit(e.value, t="int"), "int"

    def e_StrLit(self, e, scope):
        return o.Lit(e.value, t="str"), "str"

    def e_BoolLit(self, e, scope):
        return o.Lit(e.value, t="bool"), "bool"

    def e_NoneLit(self, e, scope):
        return o.Lit(None, t="none"), "none"

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
        return o.ListOf(tuple(src for src, _ in parts), t=coll), coll

    def e_Name(self, e, scope):
        n = e.name
        p = self.p
        if n in scope:
            slot, t = scope[n]
            return (o.Slot(slot, t=t) if isinstance(slot, int) else slot), t
        if n in self.var_slots:
            slot, t = self.var_slots[n]
            if n in self.player_vars:
                raise _err(f"{n!r} has one value per player: say whose, like {n}(p)", e)
            return o.Slot(slot, t=t), t
        if n in p.option_index:
            i = p.option_index[n]
            ot = "enum" if p.options[i].type == "enum" else p.options[i].type
            return o.Opt(i, t=ot), ot
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise _err(f"{n!r} needs {len(d.params)} argument(s): write {n}(...)", e)
            if self.p.fast and not _has_agg(d.body):  # a few look-ups: written out in place
                src, t = self.inline_define(d, [], e)
                if len(py(src)) <= 80:  # (a definition with no parameters is asked of one state only)
                    return src, t
            return self.call_define(d, [], e)
        if n in p.zone_index:
            z = p.zones[p.zone_index[n]]
            zi = p.zone_index[n]
            if not z.per_player and not z.size:
                return o.ZoneBase(zi, t="zone"), "zone"
            src = o.KindCards(zi, t="zonekind")
            self.kind_of[src] = zi
            return src, "zonekind"
        if n in self.suit_index:
            return o.Lit(self.suit_index[n], t="suit"), "suit"
        if n in self.rank_index:
            return o.Lit(self.rank_index[n], t="rank"), "rank"
        if n in self.rs.deck.groups:  # a constant of the namespace: a literal would be built on every test
            return o.Global(f"GROUP_{n}", t="ranks"), "ranks"
        if n in self.enum_values:
            return o.Lit(n, t="enum"), "enum"
        if n == "cards":
            return o.Global("ALLCARDS", t="cards"), "cards"
        if n == "players":
            return o.Seats(t="players"), "players"
        if n == "players_in_play":
            return self.play_players(e, scope)
        if n == "player_count":
            return o.NPlayers(t="int"), "int"
        if n == "suits":
            return o.Lit(tuple(range(len(self.rs.deck.suits))), t="suits"), "suits"
        if n == "ranks":
            return o.Lit(tuple(range(len(self.rs.deck.ranks))), t="ranks"), "ranks"
        pool = list(scope) + list(self.var_slots) + list(p.option_index) + list(self.defines) + \
            list(p.zone_index) + list(self.suit_index) + list(self.rank_index) + \
            ["cards", "players", "players_in_play", "player_count", "suits", "ranks"]
        raise _err(f"unknown name {n!r}" + (_FOREIGN.get(n) or _seat_hint(n) or self._suggest(n, pool)), e)

    def e_Attr(self, e, scope):
        obj, t = self.sx(e.obj, scope)
        a = e.name
        p = self.p
        if t == "zone":
            if a == "index":
                return o.ZoneIndex(obj, t="int"), "int"
            if a == "owner":
                return o.ZoneOwner(obj, t="player"), "player"
            raise _err(f"zones have no attribute {a!r}; they have index and owner", e)
        if t == "player" and a == "index":  # the seat number, from 1 (a player is its seat from 0)
            return o.Arith("+", obj, o.Lit(1, t="int"), t="int"), "int"
        if t in ("suit", "rank"):
            if a == "index":  # (a suit or a rank is its place in the deck's line, from 0)
                return o.Arith("+", obj, o.Lit(1, t="int"), t="int"), "int"
            raise _err(f"{t}s have one attribute, index (the {t}'s place in the deck's {t}s line, from 1); "
                       f"{unparse(e.obj)!r} is {word(t)}", e)
        if t not in ("card", "any", "none"):
            more = "; a player has one, index (its seat number, from 1)" if t == "player" else ""
            raise _err(f"only cards, zones, suits, ranks and players have attributes; {unparse(e.obj)!r} is {word(t)}{more}", e)
        if a in _CARD_ATTRS:
            typ = _CARD_ATTRS[a][1]
            return o.CardAttr(a, obj, t=typ), typ
        if a in p.values:
            return o.CardValue(a, obj, t="int"), "int"
        ranks = self.rs.deck.ranks
        table = ", ".join(f"{r} = {k + 1}" for k, r in enumerate(ranks[:3])) + (", ..." if len(ranks) > 3 else "")
        raise _err(f"cards have no attribute {a!r}; they have suit, rank, order, owner, played_by, zone, face_up, depth, beneath"
                   + "".join(", " + v for v in p.values)
                   + (f". A number for each rank is a table in the deck: value {a}: {table} (then c.{a})"
                      if a not in _CARD_ATTRS else ""), e)

    def e_Cond(self, e, scope):
        test, _ = self.sx_typed(e.test, scope, "bool", "the test of if ... then ... else")
        a, ta = self.sx(e.then, scope)
        b, tb = self.sx(e.else_, scope)
        if not _compatible(ta, tb):
            raise _err(f"both branches must be the same kind of value; here {word(ta)} and {word(tb)}", e)
        if ta != tb and {ta, tb} <= {"zone", "zonekind", "cards"}:  # a zone and some cards: both as cards
            return o.Cond(test, self.coll_src(a, ta), self.coll_src(b, tb), t="cards"), "cards"
        t = ta if ta != "none" else tb
        return o.Cond(test, a, b, t=t), t

    def e_UnOp(self, e, scope):
        if e.op == "not":
            f, _ = self.sx_typed(e.operand, scope, "bool", "the operand of not")
            return o.Not(f, t="bool"), "bool"
        f, _ = self.sx_typed(e.operand, scope, "int", "the operand of -")
        return o.Neg(f, t="int"), "int"

    def e_BinOp(self, e, scope):
        op = e.op
        if op in ("and", "or"):
            a, _ = self.sx_typed(e.left, scope, "bool", f"each side of {op}")
            b, _ = self.sx_typed(e.right, scope, "bool", f"each side of {op}")
            return o.Logic(op, a, b, t="bool"), "bool"
        if op in ("in", "not in"):
            return self.membership(e, scope)
        if op == "..":
            a, _ = self.sx_typed(e.left, scope, "int", "the start of a range")
            b, _ = self.sx_typed(e.right, scope, "int", "the end of a range")
            lo, hi = _literal_int(e.left), _literal_int(e.right)
            if lo is not None and hi is not None and hi - lo + 1 > sizes.MAX_RANGE:
                raise _err(f"the range {lo}..{hi} holds {hi - lo + 1:,} numbers; the language allows at most "
                           f"{sizes.MAX_RANGE:,} in one range", e)
            return o.Range(a, b, t="ints"), "ints"
        a, ta = self.sx(e.left, scope)
        b, tb = self.sx(e.right, scope)
        if op in ("==", "!="):
            a, ta, b, tb = self._coerce_rank(e.left, a, ta, e.right, b, tb)
            if not _compatible(ta, tb):
                raise _err(f"cannot compare {word(ta)} with {word(tb)}: {unparse(e)!r}", e)
            return o.Compare(op, a, b, t="bool"), "bool"
        if op in ("<", "<=", ">", ">=") and ({ta, tb} & {"card", "rank"}):
            return self.ranking_compare(e, scope, a, ta, b, tb)
        if op == "+" and ta in COLLECTIONS and tb in COLLECTIONS:
            if ELEM[ta] != ELEM[tb]:
                raise _err(f"cannot join a collection of {ELEM[ta]}s with one of {ELEM[tb]}s", e)
            t = "cards" if ELEM[ta] == "card" else ta
            return o.Concat(self.coll_src(a, ta), self.coll_src(b, tb), t=t), t
        if op == "-" and (ta == "rank" or isinstance(e.left, g.IntLit)) and tb == "suit":  # `Princess-Court`, as moves and records name a card
            raise _err(f"{unparse(e.left)}-{unparse(e.right)} is how moves and records name a card; in the rules "
                       f"a card is written card({unparse(e.left)}, {unparse(e.right)})", e)
        if op == "+" and {ta, tb} & set(COLLECTIONS) and {ta, tb} & {"card", "player", "suit", "rank"}:
            one = e.right if tb in ("card", "player", "suit", "rank") else e.left
            x = unparse(one)
            how = (f"top({x[4:-1]}, 1) is a collection of it" if x.startswith("top(") and x.endswith(")") and "," not in x
                   else f"[{x}] is a collection of it")
            raise _err(f"+ joins two collections; {x!r} is one {word(ta if one is e.left else tb).split()[-1]}: {how}", one)
        for t, node in ((ta, e.left), (tb, e.right)):
            if t not in ("int", "any"):
                more = ""
                if t in ("rank", "suit") and op in ("+", "-"):  # (a new user's Cheat: set due = due + 1)
                    x = unparse(node)
                    more = (f": its place in the deck's line is {x}.index, and the {t} after it is "
                            f"first(those s in {t}s where s.index == {x}.index + 1)")
                elif t == "player" and op in ("+", "-"):  # (a new user's Mau-Mau: set turn = turn + 1)
                    x = unparse(node)
                    more = (f": the player after {x} in the order of play is next({x}) (before: previous({x})), "
                            f"and {x}'s seat number is {x}.index")
                raise _err(f"{op} needs numbers; {unparse(node)!r} is {word(t)}{more}", node)
        if op in ("+", "-", "*"):
            return o.Arith(op, a, b, t="int"), "int"
        if op == "^":
            n = _literal_int(e.right)
            if n is not None and n < 0:
                raise _err(f"{unparse(e)!r} has a negative exponent; the language counts in whole numbers, "
                           "so A ^ N needs N of 0 or more", e.right)
            return o.Power(a, b, t="int"), "int"
        if op == "/":
            return o.Arith("//", a, b, t="int"), "int"
        if op == "mod":
            return o.Arith("%", a, b, t="int"), "int"
        return o.Compare(op, a, b, t="bool"), "bool"

    def ranking_compare(self, e, scope, a, ta, b, tb):
        """`c > d` and `c.rank < 8`: cards and ranks compared by their places in a suit's ranking
        (what `.order` gives). A card is compared with a card; a rank with a rank, read in the
        ranking of the suit of the card it was taken from (the left one first), or in the deck's
        one ranking when every suit ranks alike."""
        op = e.op
        if "card" in (ta, tb):
            for t, node in ((ta, e.left), (tb, e.right)):
                if t not in ("card", "any"):
                    raise _err(f"{op} compares a card with a card, by their places in their suits' rankings; "
                               f"{unparse(node)!r} is {word(t)}", node)
            return o.CardCompare(op, a, b, t="bool"), "bool"
        a, ta, b, tb = self._coerce_rank(e.left, a, ta, e.right, b, tb)
        for t, node in ((ta, e.left), (tb, e.right)):
            if t not in ("rank", "any"):
                raise _err(f"{op} compares a rank with a rank; {unparse(node)!r} is {word(t)}", node)
        for side, other, flip in ((e.left, b, False), (e.right, a, True)):
            if isinstance(side, g.Attr) and side.name == "rank":
                card, _ = self.sx(side.obj, scope)
                return o.RankInSuit(op, card, other, flip, t="bool"), "bool"
        deck = self.rs.deck
        if any(deck.order_of(s) != deck.ranks for s in deck.suits):
            raise _err(f"the suits of this deck rank differently ('order for ...'), so {unparse(e)!r} has no "
                       "single meaning: compare the cards (c < d), or a card's rank (c.rank < 8), which is read "
                       "in the ranking of that card's suit", e)
        return o.Compare(op, a, b, t="bool"), "bool"

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
        return o.Lit(self.rank_index[name], t="rank")

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
            temp = None
            if never_none(item):  # an aggregate's variable is never none
                check = "none"
            elif plain_name(item):  # tested, then read again
                check = "test"
            else:
                check, temp = "bind", self.fresh("t")
            if tc == "zone":
                f = o.InZone(item, coll, check, temp, t="bool")
            else:
                f = o.InKind(item, self.kind_of[coll], check, temp, t="bool")
        else:
            f = o.In(item, coll, t="bool")
        return (o.Negated(f, t="bool") if e.op == "not in" else f), "bool"

    def e_Call(self, e, scope):
        n = e.func
        p = self.p
        args = e.args
        if n in self.defines:
            d = self.defines[n]
            if len(args) != len(d.params):
                raise _err(f"{n} takes {len(d.params)} argument(s), given {len(args)}", e)
            srcs = [self._rank_literal(a) if prm.type == "rank" and isinstance(a, g.IntLit) else
                    self._argument(a, prm, scope, n) for a, prm in zip(args, d.params)]
            if not _has_agg(d.body) and all(isinstance(a, (g.Name, g.IntLit, g.NoneLit)) for a in args):
                src, t = self.inline_define(d, srcs, e)
                # written out in place while that stays short: definitions built on
                # definitions would otherwise grow with every layer, each copy worked out anew
                if not self.p.fast or len(py(src)) <= INLINE_MAX:
                    return src, t
            return self.call_define(d, srcs, e)
        if n in self.player_vars:
            if len(args) != 1:
                raise _err(f"{n}(...) takes one player", e)
            who, _ = self.sx_typed(args[0], scope, "player", f"the player of {n}(...)")
            slot, t = self.var_slots[n]
            return o.PlayerVar(slot, who, t=t), t
        if n in p.zone_index:
            zi = p.zone_index[n]
            z = p.zones[zi]
            if z.size:
                if len(args) != 1:
                    raise _err(f"{n}(...) takes one number, from 1 to {z.size}", e)
                _, ta = self.sx(args[0], scope)
                if ta in ("suit", "rank", "player"):  # (a new user's Lost Cities: discard(c.suit))
                    x = unparse(args[0])
                    what = "its seat number" if ta == "player" else "its place in the deck's line, from 1,"
                    raise _err(f"the number of {n}(...) must be a number; {x!r} is {word(ta)}: {what} is "
                               f"{x}.index ({n}({x}.index))", args[0])
                i, _ = self.sx_typed(args[0], scope, "int", f"the number of {n}(...)")
                return o.ZoneAt(zi, i, t="zone"), "zone"
            if not z.per_player:
                raise _err(f"zone {n!r} is a single shared zone; write {n} without arguments", e)
            if len(args) != 1:
                raise _err(f"{n}(...) takes one player", e)
            who, _ = self.sx_typed(args[0], scope, "player", f"the player of {n}(...)")
            return o.PlayerZone(zi, who, t="zone"), "zone"
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
                return o.Len(s, t="int"), "int"
            if n == "any":
                return o.NonEmpty(s, t="bool"), "bool"
            if n == "no":
                return o.Empty(s, t="bool"), "bool"
            if n in ("first", "last"):
                return o.End(n, s, t=ELEM[t]), ELEM[t]
            pick = "max" if n == "highest" else "min"
            return o.Extreme(pick, s, ELEM[t] == "card", t=ELEM[t]), ELEM[t]
        if n == "zones":
            arity(1)
            a = args[0]
            if not isinstance(a, g.Name) or a.name not in self.p.zone_index:
                raise _err("zones(...) takes the name of a kind of zone, like zones(hand)", e)
            zi = self.p.zone_index[a.name]
            return o.ZonesOf(zi, t="zones"), "zones"
        if n in ("top", "bottom"):
            if len(args) not in (1, 2):
                raise _err(f"{n} takes a zone and, optionally, how many cards", e)
            s, t = self.sx_typed(args[0], scope, "collection", f"the first argument of {n}")
            if len(args) == 1:
                return o.End("last" if n == "top" else "first", s, t=ELEM[t]), ELEM[t]
            k, _ = self.sx_typed(args[1], scope, "int", f"how many cards {n} takes")
            return o.EndN(n, s, k, t="cards"), "cards"
        if n == "at":  # the card in place k (from 1, the bottom): the k-th of bottom(s, k), none past the end
            arity(2)
            s, t = self.sx_typed(args[0], scope, "collection", "the first argument of at (a zone or cards)")
            k, _ = self.sx_typed(args[1], scope, "int", "the place at takes (a number from 1, the bottom card)")
            if _draws(s) or _draws(k):
                raise _err("at(...) reads its arguments twice, so neither may draw by chance: "
                           "`let` the value drawn first", e)
            inside = o.Compare("<=", k, o.Len(s, t="int"), t="bool")
            return o.Cond(inside, o.End("last", o.EndN("bottom", s, k, t="cards"), t=ELEM[t]),
                          o.Lit(None, t="none"), t=ELEM[t]), ELEM[t]
        if n in ("above", "below"):
            arity(1)
            c, _ = self.sx_typed(args[0], scope, "card", f"the argument of {n}")
            return o.Neighbours(n, c, t="cards"), "cards"
        if n == "cards_of":
            arity(1)
            s, _ = self.sx_typed(args[0], scope, "suit", "the argument of cards_of")
            return o.CardsOf(s, t="cards"), "cards"
        if n == "card":
            arity(2)
            if isinstance(args[0], g.IntLit):
                r = self._rank_literal(args[0])
            else:
                r, _ = self.sx_typed(args[0], scope, "rank", "the first argument of card (a rank)")
            s, _ = self.sx_typed(args[1], scope, "suit", "the second argument of card (a suit)")
            return o.CardOf(r, s, t="card"), "card"
        if n in ("next", "previous"):
            arity(1)
            who, _ = self.sx_typed(args[0], scope, "player", f"the argument of {n}")
            return o.NextSeat(who, 1 if n == "next" else -1, t="player"), "player"
        if n == "random":
            arity(1)
            if self.def_stack:
                raise _err("random(...) draws by chance, so it belongs in a statement (let, set, ...), "
                           "not in a definition", e)
            s, t = self.sx_typed(args[0], scope, "collection", "the argument of random")
            return o.Random(s, t=ELEM[t]), ELEM[t]
        if n == "shuffled":
            arity(1)
            if self.def_stack:
                raise _err("shuffled(...) draws by chance, so it belongs in a statement or a decision (`choose "
                           "by any q in shuffled(players)`), not in a definition", e)
            s, t = self.sx_typed(args[0], scope, "collection", "the argument of shuffled")
            if t not in ("players", "ints"):
                raise _err(f"shuffled(...) puts players or numbers in an order drawn by chance; {unparse(args[0])!r} "
                           f"is {word(t)}" + (": to put cards in a random order, `shuffle ZONE`" if t in ("cards", "zone") else ""),
                           e)
            return o.Shuffled(s, t=t), t
        if n == "players_from":  # (a new user's Durak: the attacker throws in first, then the others in turn)
            arity(1)
            who, _ = self.sx_typed(args[0], scope, "player", "the argument of players_from")
            return o.SeatsAfter(o.NextSeat(who, -1, t="player"), t="players"), "players"
        if n == "in_play":
            return self.play_call(e, scope)
        if n == "can_move":
            return self.moves_left(e, scope)
        if n == "seat":
            arity(1)
            k, _ = self.sx_typed(args[0], scope, "int", "the argument of seat (a seat number from 1)")
            n_seat, most = _literal_int(args[0]), self.rs.players_max
            if n_seat is not None and not 1 <= n_seat <= most:
                raise _err(f"there is no seat {n_seat}: seats are numbered from 1 to the number of players "
                           f"(at most {most} in this game)", e)
            return o.SeatOf(k, t="player"), "player"
        if n == "abs":
            arity(1)
            a, _ = self.sx_typed(args[0], scope, "int", "the argument of abs")
            return o.Abs(a, t="int"), "int"
        if n in ("min", "max"):
            arity(2)
            a, _ = self.sx_typed(args[0], scope, "int", f"the arguments of {n}")
            b, _ = self.sx_typed(args[1], scope, "int", f"the arguments of {n}")
            return o.MinMax(n, a, b, t="int"), "int"
        builtins = ["count", "any", "no", "first", "last", "highest", "lowest", "above", "below",
                    "cards_of", "card", "next", "previous", "min", "max", "seat", "zones", "top", "bottom",
                    "random", "shuffled", "players_from", "abs", "at", "in_play", "can_move"]
        p = self.p
        pool = builtins + list(self.defines) + [z for z, i in p.zone_index.items() if p.zones[i].per_player]
        raise _err(f"unknown function {n!r}" + (_FOREIGN_CALLS.get(n) or self._suggest(n, pool)), e)



def _draws(x) -> bool:
    """Whether an expression's IR draws by chance (random(...), shuffled(...)) anywhere inside."""
    if isinstance(x, o.CHANCE):
        return True
    if isinstance(x, o.Op):
        return any(_draws(getattr(x, f, None)) for f in x.fields)
    if isinstance(x, (list, tuple)):
        return any(_draws(y) for y in x)
    return False


def _literal_int(e) -> int | None:
    """The number an expression writes out (`7`, `-3`), or None when it is worked out."""
    if isinstance(e, g.IntLit):
        return e.value
    if isinstance(e, g.UnOp) and e.op == "-" and isinstance(e.operand, g.IntLit):
        return -e.operand.value
    return None
