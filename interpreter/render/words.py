"""Rulebook stage 1b, words: `English`, which turns an expression into a plain-language phrase
(`english(expr)`), in the mark-up of markup.py."""

from __future__ import annotations

import re
from contextlib import contextmanager

from ..language import graph as g
from ..language.unparse import unparse
from .markup import (_fmt_value, _join, _plain_list, code, em, human, link, to_markdown)


# ------------------------------------------------------------------ expressions -> English

_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
         "not in": 4, "..": 4, "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6, "^": 8}
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least"}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
           "in": "not in", "not in": "in"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "mod": "modulo", "^": "to the power"}
_NOUN = {"card": "card", "player": "player", "int": "number", "suit": "suit", "rank": "rank", "zone": "place"}
_ELEM = {"cards": "card", "players": "player", "ints": "int", "suits": "suit", "ranks": "rank",
         "zone": "card", "zonekind": "card", "zones": "zone", "list": None}
_MODALS = ("can_", "may_", "must_", "has_", "is_", "does_", "should_")
# yes-no definitions named by a verb ('c follows'), with the form that follows 'does not'
_VERBS = {"follows": "follow", "fits": "fit", "beats": "beat", "wins": "win", "matches": "match",
          "counts": "count", "scores": "score", "qualifies": "qualify", "belongs": "belong", "leads": "lead",
          "takes": "take", "holds": "hold", "goes": "go", "plays": "play", "works": "work", "passes": "pass"}


def _ends_open(e) -> bool:
    """Whether a phrase for e ends in an open 'such that ...' clause that would swallow
    whatever follows it (a comparison whose last operand is an aggregate, and the like)."""
    if isinstance(e, g.Agg):
        return e.where is not None or e.body is not None
    if isinstance(e, g.BinOp) and e.op in _COMPARE:
        return isinstance(e.left, g.Agg) and e.left.op == "count" and isinstance(e.right, g.IntLit) \
            or _ends_open(e.right)
    if isinstance(e, g.UnOp):
        return _ends_open(e.operand)
    return False


# a variable's name that starts with one of these is no noun: "the to act" reads as nonsense
_NOT_A_NOUN = frozenset("""to is are was were be been has have had can could may might must shall should will
would do does did in on at of for by with from into not no""".split())


def name_phrase(v) -> str:
    """A variable named by its name: 'the dealer', 'the player to act' (`to_act`: not "the to
    act"), or the name itself in italics where no noun can be made of it."""
    if v.name.split("_")[0] in _NOT_A_NOUN:
        return f"the player {human(v.name)}" if v.type == "player" else f"*{v.name}*"
    return f"the {human(v.name)}"



def _bare(z: g.Zone) -> str:
    """A zone's title without its article ('the hand' -> 'hand'), to take a possessive."""
    return re.sub(r"^(the|a|an) ", "", z.title or human(z.name))

class English:
    """Expressions to plain-language phrases, one `visit_<NodeClass>` method per node kind.

    `self(e)` is the phrase for a value; `cond(e)` for a condition (a bare boolean option reads
    "option `x` is on"); `neg(e)` for its negation. Names are classified like the compiler does
    (locals, variables, options, definitions, zones, suits, ranks, groups, built-ins); a node
    with no visitor falls back to its source text in a code span."""

    def __init__(self, rs: g.Ruleset | None = None):
        self.rs = rs
        self.scope: dict[str, str | None] = {}
        self._define_kinds: dict[str, str | None] = {}
        if rs is None:
            self.vars, self.options, self.defines, self.zones = {}, {}, {}, {}
            self.suits, self.ranks, self.groups, self.enums = set(), set(), {}, set()
            return
        self.vars = {v.name: v for v in rs.vars}
        self.options = {o.name: o for o in rs.options}
        self.defines = {d.name: d for d in rs.defines}
        self.zones = {z.name: z for z in rs.zones}
        self.suits = set(rs.deck.suits)
        self.ranks = set(rs.deck.ranks)
        self.groups = dict(rs.deck.groups)
        self.enums = {c for o in rs.options for c in o.choices}

    # ---- scope
    @contextmanager
    def bound(self, **names):
        saved = dict(self.scope)
        self.scope.update(names)
        try:
            yield
        finally:
            self.scope = saved

    def bind(self, name: str, kind: str | None) -> None:
        self.scope[name] = kind

    # ---- entry points
    def __call__(self, e) -> str:
        visit = getattr(self, "visit_" + type(e).__name__, None)
        if visit is None:
            return code(unparse(e))
        return visit(e)

    def cond(self, e) -> str:
        """A condition, as a clause: 'c is unbeatable', 'option `x` is on'."""
        if isinstance(e, g.Name):
            cls = self.classify(e.name)
            if cls == "option":
                return f"option {code(e.name)} is on"
            if cls == "define":
                return f"{self.term(e.name)} holds"
            if cls in ("local", "var"):
                return f"{self(e)} is true"
        if isinstance(e, g.BoolLit):
            return "always" if e.value else "never"
        if isinstance(e, g.Call) and e.func in self.vars and self.vars[e.func].type == "bool":
            return f"{self(e)} is true"  # (a flag kept per player: 'if q's whisting is true', as its negation reads)
        return self(e)

    def loop_test(self, test) -> str:
        """How a `while` loop's test reads: 'until X' for `while not X` (a new user's Preferans:
        'as long as it is not the case that A, or (B)' left the negation's reach unclear), else
        'as long as X'."""
        if isinstance(test, g.UnOp) and test.op == "not":
            return f"until {self.cond(test.operand)}"
        return f"as long as {self.cond(test)}"

    def neg(self, e) -> str:
        """The negation of a condition, pushed inwards where English allows."""
        if isinstance(e, g.UnOp) and e.op == "not":
            return self.cond(e.operand)
        if isinstance(e, g.BoolLit):
            return self.cond(g.BoolLit(value=not e.value))
        if isinstance(e, g.Name):
            cls = self.classify(e.name)
            if cls == "option":
                return f"option {code(e.name)} is off"
            if cls in ("local", "var"):
                return f"{self(e)} is false"
            if cls == "define" and self.define_kind(e.name) == "bool":  # (not 'it is not the case that X holds, B')
                return f"{self.term(e.name)} does not hold"
        if isinstance(e, g.BinOp) and e.op in _NEGATE:
            return self.visit_BinOp(e.model_copy(update={"op": _NEGATE[e.op]}))
        if isinstance(e, g.Agg) and e.op in ("any", "no"):
            return self.visit_Agg(e.model_copy(update={"op": "no" if e.op == "any" else "any"}))
        if isinstance(e, g.Call) and e.func in self.defines and self.kind(e) == "bool":
            return self.define_clause(e, negated=True)
        if isinstance(e, g.Call) and e.func in self.vars and self.vars[e.func].type == "bool":
            return f"{self(e)} is false"  # (a flag kept per player: 'p's called is false')
        if isinstance(e, g.Call) and e.func == "in_play" and len(e.args) == 1:
            return f"{self.operand(e.args[0])} is out of play"
        if isinstance(e, g.Call) and e.func == "can_move" and e.args:
            return self.call_can_move(*e.args, negated=True)
        if isinstance(e, g.Attr) and e.name == "face_up":
            return f"{self.operand(e.obj)} is face down"
        if isinstance(e, g.BinOp) and e.op == "and" and not any(
                isinstance(x, g.BinOp) and x.op == "and" for x in (e.left, e.right)):
            return f"it is not the case that both {self.cond(e)}"  # (not '(not A) and B')
        if isinstance(e, g.BinOp) and e.op == "or":  # (a new user's Preferans: 'it is not the case that A, or (B)')
            parts = self._flatten(e, "or")
            texts = [self._logic_part(x, "or", i == len(parts) - 1) for i, x in enumerate(parts)]
            if len(texts) == 2:
                return f"neither {texts[0]} nor {texts[1]}"
            return "none of these holds: " + "; ".join(texts)
        return f"it is not the case that {self.cond(e)}"

    # ---- classification and kinds
    def classify(self, name: str) -> str:
        if name in self.scope:
            return "local"
        if name in self.vars:
            return "var"
        if name in self.options:
            return "option"
        if name in self.defines:
            return "define"
        if name in self.zones:
            return "zone"
        if name in self.suits:
            return "suit"
        if name in self.ranks:
            return "rank"
        if name in self.groups:
            return "group"
        if name in self.enums:
            return "enum"
        if name in ("cards", "players", "players_in_play", "player_count", "suits", "ranks"):
            return "builtin"
        return "local"

    def kind(self, e) -> str | None:
        """A rough type: card, player, int, bool, suit, rank, enum, cards, players, ints, zone, ..."""
        k = getattr(self, "kind_" + type(e).__name__, None)
        return k(e) if k else None

    def elem(self, e) -> str | None:
        return _ELEM.get(self.kind(e) or "", None)

    def kind_IntLit(self, e):
        return "int"

    def kind_BoolLit(self, e):
        return "bool"

    def kind_StrLit(self, e):
        return "str"

    def kind_NoneLit(self, e):
        return "none"

    def kind_ListExpr(self, e):
        inner = {self.kind(i) for i in e.items} - {None, "none"}
        if len(inner) == 1:
            return {"card": "cards", "player": "players", "int": "ints", "suit": "suits",
                    "rank": "ranks", "zone": "zones"}.get(inner.pop(), "list")
        return "list"

    def kind_Name(self, e):
        n = e.name
        cls = self.classify(n)
        if cls == "local":
            return self.scope.get(n)
        if cls == "var":
            return self.vars[n].type
        if cls == "option":
            o = self.options[n]
            return "enum" if o.type == "enum" else o.type
        if cls == "define":
            return self.define_kind(n)
        if cls == "zone":
            z = self.zones[n]
            return "zonekind" if (z.per_player or z.size) else "zone"
        if cls == "group":
            return "ranks"
        return {"suit": "suit", "rank": "rank", "enum": "enum"}.get(cls) or \
            {"cards": "cards", "players": "players", "players_in_play": "players", "player_count": "int",
             "suits": "suits", "ranks": "ranks"}.get(n)

    def kind_Attr(self, e):
        return {"suit": "suit", "rank": "rank", "owner": "player", "played_by": "player", "zone": "zone",
                "face_up": "bool", "beneath": "card"}.get(e.name, "int")

    def kind_Call(self, e):
        f = e.func
        if f in self.defines:
            return self.define_kind(f)
        if f in self.zones:
            return "zone"
        if f in self.vars:
            return self.vars[f].type
        if f == "zones":
            return "zones"
        if f in ("top", "bottom"):
            return "cards" if len(e.args) == 2 else (self.elem(e.args[0]) if e.args else None)
        if f == "at":
            return self.elem(e.args[0]) if e.args else None
        if f == "seat":
            return "player"
        if f == "random":
            return self.elem(e.args[0]) if e.args else None
        if f == "shuffled":
            return self.kind(e.args[0]) if e.args else None
        if f == "players_from":
            return "players"
        if f in ("count", "min", "max"):
            return "int"
        if f in ("any", "no"):
            return "bool"
        if f in ("first", "last", "highest", "lowest"):
            return self.elem(e.args[0]) if e.args else None
        if f in ("above", "below", "cards_of"):
            return "cards"
        if f == "card":
            return "card"
        if f in ("next", "previous"):
            return "player"
        if f in ("in_play", "can_move"):
            return "bool"
        return None

    def kind_NextWhere(self, e):
        return "player"

    def kind_Split(self, e):
        return "int" if e.score else "bool"

    def kind_Agg(self, e):
        if e.op in ("all", "any", "no"):
            return "bool"
        if e.op in ("count", "sum", "max", "min"):
            return "int"
        if e.op == "those":  # (those of a zone's cards are cards, not the zone: "move those ..." moves them)
            kind = self.kind(e.domain)
            return "cards" if kind in ("zone", "zonekind") else kind
        return self.elem(e.domain)

    def kind_Cond(self, e):
        return self.kind(e.then) or self.kind(e.else_)

    def kind_BinOp(self, e):
        if e.op in ("+", "-", "*", "/", "mod", "^"):
            left, right = self.kind(e.left), self.kind(e.right)
            if e.op in ("+", "-") and (left in _ELEM or right in _ELEM):
                elems = {_ELEM.get(k) for k in (left, right) if k in _ELEM} - {None}
                # (zones(a) + zones(b) holds places, not cards; a list of players stays players)
                return {"zone": "zones", "player": "players", "int": "ints", "suit": "suits",
                        "rank": "ranks"}.get(elems.pop(), "cards") if len(elems) == 1 else "cards"
            return "int"
        if e.op == "..":
            return "ints"
        return "bool"

    def kind_UnOp(self, e):
        return "bool" if e.op == "not" else "int"

    def define_kind(self, name: str) -> str | None:
        if name not in self._define_kinds:
            self._define_kinds[name] = None  # a guard against (invalid) recursion
            d = self.defines[name]
            saved = self.scope
            self.scope = {p.name: p.type for p in d.params}
            try:
                self._define_kinds[name] = self.kind(d.body)
            finally:
                self.scope = saved
        return self._define_kinds[name]

    # ---- names of things
    def term(self, name: str) -> str:
        if name not in self.defines and name in self.vars:  # a variable (`winner most VAR`): no entry to link to
            return em(human(name))
        return link(f"#term-{name}", em(human(name)))

    def local(self, name: str) -> str:
        return em(name)

    def zone_phrase(self, z: g.Zone, owner=None) -> str:
        title = z.title or human(z.name)
        bare = re.sub(r"^(the|a|an) ", "", title)
        if z.size:
            return f"all {z.size} of the {human(z.name)} places ({bare})"
        if not z.per_player:
            return title if bare != title else f"the {title}"
        if owner is None:
            return f"every player's {bare}"
        poss = self.possessive(owner)
        return f"{poss} {bare}" if poss else f"the {bare} of {self(owner)}"

    def var_phrase(self, name: str) -> str:
        """A variable as the prose names it: its own short description where it gives one that
        names a thing ('the player whose turn it is', not 'the turn'), else 'the NAME'."""
        v = self.vars[name]
        text = v.texts[0].strip().rstrip(".") if v.texts and not v.params else ""
        if text.startswith("the ") and len(text.split()) <= 8 and not re.search(r"[:;,()]", text):
            return text
        return name_phrase(v)

    def possessive(self, e) -> str | None:
        """'p's', 'the leader's', or None when the phrase is too long to take an 's."""
        if isinstance(e, g.Name):
            cls = self.classify(e.name)
            if cls == "var" and self.var_phrase(e.name) != f"the {human(e.name)}":
                return None  # ('the hand of the player whose turn it is')
            if cls in ("local", "var"):
                return f"{self(e)}'s"
            if cls == "define" and not self.defines[e.name].params:
                return f"{self(e)}'s"
        return None

    def _of(self, what: str, e) -> str:
        poss = self.possessive(e)
        return f"{poss} {what}" if poss else f"the {what} of {self.operand(e)}"

    def operand(self, e, prec: int = 9) -> str:
        """A phrase used inside a larger one: bracketed where the nesting would be unclear."""
        text = self(e)
        if isinstance(e, g.Cond) or (isinstance(e, g.BinOp) and _PREC[e.op] < prec):
            return f"({text})"
        return text

    # ---- visitors
    def visit_IntLit(self, e):
        return str(e.value)

    def visit_StrLit(self, e):
        return f"\u201c{e.value}\u201d"

    def visit_BoolLit(self, e):
        return _fmt_value(e.value)

    def visit_NoneLit(self, e):
        return "none"

    def visit_ListExpr(self, e):
        return _plain_list(self(i) for i in e.items) if e.items else "nothing"

    def visit_Name(self, e):
        n = e.name
        cls = self.classify(n)
        if cls == "local":
            return self.local(n)
        if cls == "var":  # (a yes-or-no flag is named, not given an article: "*drawn* is false")
            return em(human(n)) if self.vars[n].type == "bool" else self.var_phrase(n)
        if cls == "option":
            return f"option {code(n)}"
        if cls == "define":
            return f"the {self.term(n)}" if self.define_kind(n) != "bool" else self.term(n)
        if cls == "zone":
            return self.zone_phrase(self.zones[n])
        if cls == "group":
            return f"the {human(n)}"
        if cls == "builtin":
            return {"cards": "all cards", "players": "all players", "player_count": "the number of players",
                    "players_in_play": "the players still in play", "suits": "the suits", "ranks": "the ranks"}[n]
        return n  # suits, ranks, enum values: their own names

    def visit_Attr(self, e):
        a = e.name
        if a == "face_up":
            return f"{self.operand(e.obj)} is face up"
        if a == "zone":
            return f"the place where {self.operand(e.obj)} lies"
        if a == "index" and self.kind(e.obj) == "zone":
            obj = e.obj  # a player's own zone's number is its owner's seat ('the number of q's pile' reads as a count)
            if isinstance(obj, g.Call) and len(obj.args) == 1 and obj.func in self.zones \
                    and self.zones[obj.func].per_player:
                return self._of("seat number", obj.args[0])
            return self._of("number", e.obj)
        if a == "index" and self.kind(e.obj) == "player":
            return self._of("seat number", e.obj)
        if a == "index" and self.kind(e.obj) in ("suit", "rank"):
            k = self.kind(e.obj)
            return f"the place of {self.operand(e.obj)} among the {k}s (from 1)"
        if a == "played_by":
            return f"the player who played {self.operand(e.obj)}"
        if a == "order":
            return self._of("rank position", e.obj)
        if a == "depth":
            return f"the number of cards lying on {self.operand(e.obj)}"
        if a == "beneath":
            return f"the card beneath {self.operand(e.obj)}"
        return self._of(human(a), e.obj)

    def define_clause(self, e: g.Call, negated: bool = False) -> str:
        """A boolean definition applied to arguments: 'c is unbeatable', 'h can be played'."""
        d = self.defines[e.func]
        args = [self.operand(a) for a in e.args]
        name = e.func
        modal = name.startswith(_MODALS)
        if not args:  # ('*slappable* does not hold': 'it is not the case that' would reach over what follows)
            return f"{self.term(name)} {'does not hold' if negated else 'holds'}"
        if len(args) != 1:  # (bracketed: '2 if *kind of* holds for S and 2, otherwise 3' read 'and 2' as a condition)
            subject = f"{self.term(name)} holds for ({', '.join(args)})"
            return f"it is not the case that {subject}" if negated else subject
        if modal:
            text = f"{args[0]} {self.term(name)}"
            return f"it is not the case that {text}" if negated else text
        words = human(name).split()
        if words[0] in _VERBS:  # ('c follows', 'c does not follow', 'p wins game')
            base = " ".join([_VERBS[words[0]], *words[1:]])
            return (f"{args[0]} does not {link(f'#term-{name}', em(base))}" if negated
                    else f"{args[0]} {self.term(name)}")
        ptype = d.params[0].type if d.params else ""
        if ptype not in ("card", "player", "zone", ""):  # a number, a suit: 'c's pips is sum capture' misleads
            subject = f"{self.term(name)} holds for {args[0]}"
            return f"it is not the case that {subject}" if negated else subject
        article = ""
        if words[-1] == ptype:
            article = "an " if words[0][0] in "aeiou" else "a "
        verb = "is not" if negated else "is"
        return f"{args[0]} {verb} {article}{self.term(name)}"

    def visit_Call(self, e):
        f, args = e.func, e.args
        if f in self.defines:
            if self.define_kind(f) == "bool":
                return self.define_clause(e)
            if len(args) == 1:
                return self._of(self.term(f), args[0])
            if not args:
                return f"the {self.term(f)}"
            return f"the {self.term(f)} of {_plain_list(self.operand(a) for a in args)}"
        if f in self.zones and len(args) == 1:
            z = self.zones[f]
            if z.size:
                return f"{human(z.name)} {self.operand(args[0])}"
            return self.zone_phrase(z, owner=args[0])
        if f in self.vars and len(args) == 1:
            return self._of(human(f), args[0])
        method = getattr(self, "call_" + f, None)
        if method is None:
            return code(unparse(e))
        try:
            return method(*args)
        except TypeError:  # wrong number of arguments: the compiler rejects it anyway
            return code(unparse(e))

    def _coll(self, e) -> str:
        """A collection phrase for 'the number of cards in ...'."""
        return self.operand(e)

    def call_count(self, x):
        elem = self.elem(x)
        if isinstance(x, g.Name) and x.name in ("players", "players_in_play"):
            return "the number of players" + (" still in play" if x.name == "players_in_play" else "")
        coll = self._coll(x)
        if isinstance(x, g.Agg) and x.op == "those" and coll.startswith("the "):
            return f"the number of {coll[4:]}"  # (not 'the number of players in the players q such that ...')
        return f"the number of {_NOUN.get(elem or 'card', 'item')}s in {coll}"

    def _family(self, x) -> tuple[str, str] | None:
        """A family of places named whole (`chosen`, one per player; `row`, four of them): what
        'some of them' and 'all of them' are, for any(...) and no(...)."""
        z = self.zones.get(x.name) if isinstance(x, g.Name) else None
        if z is None or not (z.per_player or z.size):
            return None
        bare = _bare(z)
        if z.size:
            return (f"one of the {z.size} {human(z.name)} places ({bare}) is not empty",
                    f"all {z.size} of the {human(z.name)} places ({bare}) are empty")
        return f"some player's {bare} is not empty", f"every player's {bare} is empty"

    def call_any(self, x):
        if isinstance(x, g.Name) and x.name in ("players", "players_in_play"):  # (not "the players ... is not empty")
            return "some player is still in play" if x.name == "players_in_play" else "there are players"
        family = self._family(x)  # (a new user's 6 nimmt!: "every player's card chosen is not empty")
        return family[0] if family else f"{self._coll(x)} is not empty"

    def call_no(self, x):
        if isinstance(x, g.Name) and x.name in ("players", "players_in_play"):  # (a new user's Durak)
            return "no player is still in play" if x.name == "players_in_play" else "there are no players"
        family = self._family(x)
        return family[1] if family else f"{self._coll(x)} is empty"

    def call_first(self, x):
        return f"the first {_NOUN.get(self.elem(x) or 'card', 'item')} of {self._coll(x)}"

    def call_last(self, x):
        return f"the last {_NOUN.get(self.elem(x) or 'card', 'item')} of {self._coll(x)}"

    def call_highest(self, x):
        return f"the highest {_NOUN.get(self.elem(x) or 'card', 'item')} of {self._coll(x)}"

    def call_lowest(self, x):
        return f"the lowest {_NOUN.get(self.elem(x) or 'card', 'item')} of {self._coll(x)}"

    def call_zones(self, k):
        if isinstance(k, g.Name) and k.name in self.zones:
            z = self.zones[k.name]
            bare = _bare(z)
            if z.per_player:
                return f"the players' places of kind {bare}"
            if not z.size:  # (one place: the list of it)
                return self.zone_phrase(z)
            return f"{human(z.name)} 1 to {z.size} ({bare})"
        return code(unparse(k))

    def call_top(self, x, n=None):
        if n is None:
            return f"the top card of {self._coll(x)}"
        if isinstance(n, g.IntLit) and n.value == 1:  # (top(Z, 1): a collection of one, "the top 1 cards")
            return f"the top card of {self._coll(x)} (as a set of one)"
        return f"the top {self.operand(n)} cards of {self._coll(x)}"

    def call_bottom(self, x, n=None):
        if n is None:
            return f"the bottom card of {self._coll(x)}"
        if isinstance(n, g.IntLit) and n.value == 1:
            return f"the bottom card of {self._coll(x)} (as a set of one)"
        return f"the bottom {self.operand(n)} cards of {self._coll(x)}"

    def call_at(self, x, n=None):
        if n is None:
            return code(f"at({unparse(x)})")
        if isinstance(n, g.IntLit):
            return f"card {n.value} of {self._coll(x)} (counting from the bottom)"
        return f"the card in place {self.operand(n)} of {self._coll(x)} (counting from 1 at the bottom)"

    def call_random(self, x):
        return f"one of {self._coll(x)}, drawn at random"

    def call_shuffled(self, x):
        return f"{self._coll(x)} in an order drawn at random"

    def call_players_from(self, who):
        return f"every player in turn order from {self.operand(who)}"

    def call_seat(self, n):
        return f"the player in seat {self.operand(n)}"

    def call_above(self, c):
        return f"the cards above {self.operand(c)} in its suit"

    def call_below(self, c):
        return f"the cards below {self.operand(c)} in its suit"

    def call_cards_of(self, s):
        return f"the cards of the suit {self.operand(s)}"

    def call_card(self, r, s):
        rank, suit = self.operand(r), self.operand(s)
        if rank.startswith(("the ", "*", "(")) or " " in rank:  # (a rank named by a phrase: no 'the the base of')
            return f"the card of {suit} whose rank is {rank}"
        return f"the {rank} of {suit}"

    def call_next(self, p):
        return f"the next player after {self.operand(p)}"

    def call_in_play(self, p):
        return f"{self.operand(p)} is still in play"

    def call_can_move(self, p, rule=None, negated=False):
        where = f" in rule *{human(rule.name)}*" if rule is not None else ""
        return f"{self.operand(p)} has {'no' if negated else 'a'} move left other than passing{where}"

    def visit_NextWhere(self, e):
        w = e.where
        which, rel = ("previous", "before") if e.back else ("next", "after")
        if isinstance(w, g.Call) and w.func == "in_play" and [getattr(a, "name", None) for a in w.args] == [e.var]:
            return f"the {which} player still in play {rel} {self.operand(e.start)}"
        with self.bound(**{e.var: "player"}):
            such = self.cond(e.where)
        order = "against turn order" if e.back else "in turn order"
        return (f"the {which} player {self.local(e.var)} {rel} {self.operand(e.start)} {order} such that {such} "
                f"(coming round to {self.operand(e.start)} last; none if nobody is)")

    def call_previous(self, p):
        return f"the player before {self.operand(p)}"

    def call_min(self, a, b):
        return f"the smaller of {self.operand(a)} and {self.operand(b)}"

    def call_max(self, a, b):
        return f"the larger of {self.operand(a)} and {self.operand(b)}"

    def binder(self, var: str, domain, det: str, plural: bool = False) -> str:
        """'a card d above c in its suit', 'every player p', 'each number n from 1 to 4'."""
        noun = _NOUN.get(self.elem(domain) or "", "item")
        if plural:
            noun += "s"
        if det == "a" and noun[:1] in "aeiou":
            det = "an"
        head = f"{det} {noun}".strip()
        v = self.local(var)
        if isinstance(domain, g.ListExpr):  # (a choice among places or values named one by one)
            return f"{head} {v} among {self.operand(domain)}"
        if isinstance(domain, g.Call) and domain.func in ("above", "below") and len(domain.args) == 1 \
                and domain.func not in self.defines:
            return f"{head} {v} {domain.func} {self.operand(domain.args[0])} in its suit"
        if isinstance(domain, g.Name) and self.classify(domain.name) == "builtin" and domain.name != "player_count":
            return f"{head} {v}" + (" still in play" if domain.name == "players_in_play" else "")
        if isinstance(domain, g.BinOp) and domain.op == "..":
            return f"{head} {v} from {self.operand(domain.left, 5)} to {self.operand(domain.right, 5)}"
        if isinstance(domain, g.Call) and domain.func == "cards_of" and len(domain.args) == 1:
            return f"{head} {v} of the suit {self.operand(domain.args[0])}"
        return f"{head} {v} in {self.operand(domain)}"

    def visit_Agg(self, e):
        elem = self.elem(e.domain)
        with self.bound(**{e.var: elem}):
            where = self.cond(e.where) if e.where is not None else None
            body = self.cond(e.body) if e.body is not None and e.op == "all" else \
                (self(e.body) if e.body is not None else None)
        such = f" such that {where}" if where else ""
        op = e.op
        if op == "all":
            return f"{self.binder(e.var, e.domain, 'every')}{such} satisfies: {body}"
        if op == "any":
            return f"there is {self.binder(e.var, e.domain, 'a')}{such}"
        if op == "no":
            return f"there is no {self.binder(e.var, e.domain, '')}{such}"
        if op == "count":
            return f"the number of {self.binder(e.var, e.domain, '', plural=True)}{such}"
        if op in ("highest", "lowest") and body is not None:  # `by` a number: the first with the most (least)
            most = "greatest" if op == "highest" else "least"
            among = f" among those such that {where}" if where else ""
            return (f"the first {self.binder(e.var, e.domain, '')} for which {body} is {most}{among} "
                    f"(the first in its order among equals)")
        if op in ("highest", "lowest"):
            return f"the {op} {self.binder(e.var, e.domain, '')}{such}"
        if op == "sum":
            return f"the total of {body} over {self.binder(e.var, e.domain, 'every')}{such}"
        if op in ("max", "min"):
            most = "greatest" if op == "max" else "least"
            return f"the {most} of {body} over {self.binder(e.var, e.domain, 'every')}{such}"
        if op == "those":
            return f"the {self.binder(e.var, e.domain, '', plural=True)}{such}"
        return code(unparse(e))

    def visit_Split(self, e):
        parts = []
        for grp in e.groups:
            sizes = ""
            if grp.sizes is not None:
                sizes = f" of {self.operand(grp.sizes, 5)} cards" if not (isinstance(grp.sizes, g.BinOp) and grp.sizes.op == "..") \
                    else f" of {self.operand(grp.sizes.left, 5)} to {self.operand(grp.sizes.right, 5)} cards"
            if grp.args:  # a test given values: 'groups for which adds to holds with v, as many as ...'
                given = _plain_list(self.operand(a) for a in grp.args)
                parts.append(f"groups{sizes} for which {self.term(grp.define)} holds with {given}, as many as "
                             f"{self.operand(grp.count, 5)}")
                continue
            parts.append(f"{self.operand(grp.count, 5)} {self.term(grp.define)}{sizes}")
        split = f"{self.operand(e.cards)} can be split exactly into {_plain_list(parts)}"
        if e.score:
            return f"the best total {self.term(e.score)} over the ways {split} (-1 if there is none)"
        return split

    def visit_Cond(self, e):
        test = self.cond(e.test)
        if isinstance(e.test, g.BinOp) and e.test.op == "or":  # (a new user's Big Two: 'n if A, or B, otherwise ...')
            test = f"({test})"
        return f"{self.operand(e.then)} if {test}, otherwise {self(e.else_)}"

    def visit_UnOp(self, e):
        if e.op == "not":
            return self.neg(e.operand)
        return f"minus {self.operand(e.operand)}"

    def _logic_part(self, x, op: str, last: bool) -> str:
        if isinstance(x, g.BinOp) and x.op in ("and", "or") and x.op != op:
            text = self.cond(x)
            if x.op == "or":  # ('either A, or B and C' reads as A alone being enough)
                return f"either {text}" if last else f"(either {text})"
            return f"({text})"
        if isinstance(x, g.Cond) or (not last and (isinstance(x, g.Agg) or _ends_open(x))):
            return f"({self.cond(x)})"  # (a choice between values keeps its brackets even last: 'X and (A if C, otherwise B)')
        text = self.cond(x)
        if not last and text.startswith(("it is not the case that", "neither ", "none of these holds")):  # ('not A and B' is not 'not (A and B)')
            return f"({text})"
        return text

    def _flatten(self, e, op):
        if isinstance(e, g.BinOp) and e.op == op:
            return self._flatten(e.left, op) + self._flatten(e.right, op)
        return [e]

    @staticmethod
    def _order_of(e):
        return e.obj if isinstance(e, g.Attr) and e.name == "order" else None

    def visit_BinOp(self, e):
        op = e.op
        if op in ("and", "or"):
            parts = self._flatten(e, op)
            return _join([self._logic_part(x, op, i == len(parts) - 1) for i, x in enumerate(parts)], op)
        if op in _COMPARE:
            return self.compare(e)
        if op in ("in", "not in"):
            right, rk = e.right, self.kind(e.right)
            neg = op == "not in"
            if isinstance(right, g.Name) and self.classify(right.name) == "zone" and self.zones[right.name].per_player:
                z = self.zones[right.name]
                bare = _bare(z)
                return f"{self.operand(e.left, 5)} is {'not in any' if neg else 'in a'} player's {bare}"
            if rk in ("ranks", "suits", "ints", "players", "list") and not isinstance(right, g.Call):
                return f"{self.operand(e.left, 5)} is {'not ' if neg else ''}one of {self.operand(right, 5)}"
            return f"{self.operand(e.left, 5)} is {'not ' if neg else ''}in {self.operand(right, 5)}"
        if op == "..":
            return f"the numbers from {self.operand(e.left, 5)} to {self.operand(e.right, 5)}"
        mine = _PREC[op]
        left, right = self.operand(e.left, mine), self.operand(e.right, mine + 1)
        if op == "^":
            left, right = self.operand(e.left, mine + 1), self.operand(e.right, mine)
        else:  # "3 times (2 to the power n)": words have no precedence to lean on
            left, right = (f"({x})" if isinstance(y, g.BinOp) and y.op == "^" else x
                           for x, y in ((left, e.left), (right, e.right)))
            if op in ("*", "/", "mod") and isinstance(e.left, g.BinOp) and e.left.op in ("*", "/", "mod") \
                    and e.left.op != op and not left.startswith("("):
                left = f"({left})"  # (a new user's Preferans: "v divided by 2 times (x minus y)" read as v / (2 (x - y)))
        joined = self.kind(e) in ("cards", "zones", "players", "suits", "ranks")
        if op == "+" and joined:
            return f"{left} together with {right}"
        if op == "-" and joined:
            return f"{left} except {right}"
        return f"{left} {_ARITH[op]} {right}"

    def compare(self, e):
        op, left, right = e.op, e.left, e.right
        if isinstance(right, g.NoneLit) and op in ("==", "!="):
            what = self.operand(left, 5)
            if what.startswith("the "):  # ('there is no first winner', not 'the first winner does not exist')
                return f"there is {'no' if op == '==' else 'a'} {what[4:]}"
            return f"{what} {'does not exist' if op == '==' else 'exists'}"
        if op in ("==", "!=") and self.kind(left) == "bool" and self.kind(right) == "bool":
            # two yes/no values: "x is red exactly when y is red", never "x is red is y is red"
            if isinstance(right, g.BoolLit) or isinstance(left, g.BoolLit):
                lit, other = (right, left) if isinstance(right, g.BoolLit) else (left, right)
                yes = lit.value == (op == "==")
                return self.cond(other) if yes else self.cond(g.UnOp(op="not", operand=other, loc=other.loc))
            if op == "==":
                return f"{self.cond(left)} exactly when {self.cond(right)}"
            return f"either {self.cond(left)} or {self.cond(right)}, but not both"
        a, b = self._order_of(left), self._order_of(right)
        words = {"<": "ranks below", ">": "ranks above", "<=": "ranks no higher than",
                 ">=": "ranks no lower than", "==": "ranks level with", "!=": "does not rank level with"}
        if a is not None and b is not None:
            return f"{self.operand(a)} {words[op]} {self.operand(b)}"
        if op in ("<", "<=", ">", ">="):
            if self.kind(left) == "card" and self.kind(right) == "card":  # c > d: by the suits' rankings
                return f"{self.operand(left)} {words[op]} {self.operand(right)}"
            flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
            for card_rank, other, o in ((left, right, op), (right, left, flip[op])):
                if isinstance(card_rank, g.Attr) and card_rank.name == "rank":  # c.rank < 8: in c's suit
                    if isinstance(other, (g.IntLit, g.Name)):  # c.rank >= 8: "c ranks no lower than the 8 of its suit"
                        return f"{self.operand(card_rank.obj)} {words[o]} the {self.operand(other, 5)} of its suit"
                    return f"{self.operand(card_rank.obj)} {words[o]} {self.operand(other, 5)} in its suit's ranking"
        # x.order + k == y.order: "x ranks just below y" / "k places below"
        if op == "==" and b is not None and isinstance(left, g.BinOp) and left.op == "+" \
                and isinstance(left.right, g.IntLit) and self._order_of(left.left) is not None:
            k = left.right.value
            gap = "just" if k == 1 else f"{k} places"
            return f"{self.operand(self._order_of(left.left))} ranks {gap} below {self.operand(b)}"
        # count(X) > 0: "X is not empty"
        if isinstance(left, g.Call) and left.func == "count" and left.func not in self.defines \
                and len(left.args) == 1 and isinstance(right, g.IntLit) and right.value == 0 \
                and op in ("==", "<=", ">", "!="):
            return (self.call_no if op in ("==", "<=") else self.call_any)(left.args[0])
        # count(those q in X where w) == 3: as the count below (a new user's Preferans read "the number of
        # players q such that q's passed is true is 3")
        if isinstance(left, g.Call) and left.func == "count" and left.func not in self.defines and len(left.args) == 1 \
                and isinstance(left.args[0], g.Agg) and left.args[0].op == "those" and isinstance(right, g.IntLit):
            left = left.args[0].model_copy(update={"op": "count"})
        # (count d in X where w) == 2: "there are exactly 2 cards d in X such that w"
        if isinstance(left, g.Agg) and left.op == "count" and isinstance(right, g.IntLit):
            k = right.value
            amount = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most",
                      ">": "more than", ">=": "at least"}[op]
            with self.bound(**{left.var: self.elem(left.domain)}):
                such = f" such that {self.cond(left.where)}" if left.where is not None else ""
            if k == 1 and op == ">":  # "there is more than one player p such that ..."
                return f"there is more than one {self.binder(left.var, left.domain, '', plural=False)}{such}"
            verb = "is" if k == 1 and op in ("==", "<=", ">=", "!=") else "are"
            plural = not (k == 1 and verb == "is")
            return f"there {verb} {amount} {k} {self.binder(left.var, left.domain, '', plural=plural)}{such}"
        return f"{self.agg_operand(left)} {_COMPARE[op]} {self.agg_operand(right)}"

    def agg_operand(self, e) -> str:
        """An operand of a comparison; an aggregate with a condition gets brackets."""
        if isinstance(e, g.Agg) and e.where is not None:
            return f"({self(e)})"
        return self.operand(e, 5)


def english(expr, rs: g.Ruleset | None = None) -> str:
    """An expression in plain English (Markdown: code in backticks, terms in *emphasis*)."""
    return to_markdown(English(rs)(expr))

