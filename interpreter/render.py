"""Printable rulebooks, generated from the rule graph: Markdown and standalone, print-ready HTML.

Everything a book says comes from the graph: the author's texts and notes, and sentences
generated from the statements and expressions themselves (so a changed rule body changes the
book). Two visitors do the generating, both dispatching on the node's class name:

* `English` turns an expression into a plain-language phrase (`english(expr)`);
* `Describer` turns statements into nested steps ("The leader chooses one of: ...").

They write a tiny inline mark-up (code, emphasis, links as control-character brackets) that
the `md` and `html` template filters turn into Markdown or escaped HTML, so one phrase serves
both formats. Output is deterministic: no dates, no random ids, no paths.

Regenerate the committed books with `python -m interpreter.render` (or
`cardrules rulebook rulesets/**/*.cards --out generated_docs`).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from . import graph as g
from .errors import CardRulesError
from .unparse import unparse

__all__ = ["render_markdown", "render_html", "book_paths", "write_rulebooks", "english", "English"]

TEMPLATES = Path(__file__).parent / "templates"
REGENERATE = "cardrules rulebook rulesets/**/*.cards --out generated_docs"
REGENERATE_PY = "python -m interpreter.render"

# ------------------------------------------------------------------ inline mark-up
# Control characters never found in a ruleset's text bracket the few inline styles.
_C0, _C1 = "\x02", "\x03"            # code
_E0, _E1 = "\x06", "\x07"            # emphasis
_L0, _LS, _L1 = "\x0e", "\x1f", "\x0f"  # link: href, separator, text

_CODE_RE = re.compile(_C0 + "(.*?)" + _C1, re.S)
_EM_RE = re.compile(_E0 + "(.*?)" + _E1, re.S)
_LINK_RE = re.compile(_L0 + "([^" + _LS + "]*)" + _LS + "(.*?)" + _L1, re.S)
_ANY_MARK = re.compile("[" + _C0 + _C1 + _E0 + _E1 + _L0 + _LS + _L1 + "]")


def code(text: str) -> str:
    return _C0 + _ANY_MARK.sub("", text) + _C1


def em(text: str) -> str:
    return _E0 + text + _E1


def link(href: str, text: str) -> str:
    return _L0 + href + _LS + text + _L1


def _md_code(m: re.Match) -> str:
    body = m.group(1)
    if "`" not in body:
        return f"`{body}`"
    return f"`` {body} ``"


def to_markdown(text: str) -> str:
    """Marked-up text as Markdown: code spans, *emphasis*, links reduced to their text."""
    text = _CODE_RE.sub(_md_code, text)
    text = _LINK_RE.sub(r"\2", text)
    text = _EM_RE.sub(r"*\1*", text)
    return _ANY_MARK.sub("", text)


def to_html(text: str) -> Markup:
    """Marked-up text as escaped HTML with <code>, <em> and in-page links."""
    out = str(escape(text))
    out = _CODE_RE.sub(r"<code>\1</code>", out)
    out = _LINK_RE.sub(r'<a href="\1">\2</a>', out)
    out = _EM_RE.sub(r"<em>\1</em>", out)
    return Markup(_ANY_MARK.sub("", out))


def _md_cell(text: str) -> str:
    return to_markdown(text).replace("|", "\\|").replace("\n", " ")


def _md_steps(steps, indent: int = 0) -> str:
    """Nested steps as a Markdown bullet list (two spaces per level)."""
    lines: list[str] = []

    def walk(items, depth):
        for st in items:
            lines.append("  " * depth + "- " + to_markdown(st.text).replace("\n", " "))
            walk(st.children, depth + 1)
    walk(steps, indent)
    return "\n".join(lines)


def _cap(text: str) -> str:
    """Capitalise a sentence that starts with a plain lowercase letter."""
    if text and text[0].isalpha() and text[0].islower():
        return text[0].upper() + text[1:]
    return text


def _uncap(text: str) -> str:
    """Lower-case a sentence's first word (one of ours, like 'Move'), to continue a clause."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def human(name: str) -> str:
    return name.replace("_", " ")


def _join(items: list[str], word: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        sep = ", " if word == "or" else " "
        return f"{items[0]}{sep}{word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} {items[-1]}"


def _plain_list(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _sentence(text: str) -> str:
    """An author's fragment as a sentence: a capital letter and a closing full stop."""
    text = _cap(text.strip())
    return text if text.endswith((".", "!", "?", ":", "”")) else text + "."


_TYPE_PHRASE = {"int": "a number", "bool": "true or false", "player": "a player", "card": "a card",
                "suit": "a suit", "rank": "a rank", "cards": "a set of cards", "players": "a set of players",
                "ints": "a set of numbers"}


def _param(ptype: str, name: str) -> str:
    """'a card c', 'a number n', 'a set of cards cs'."""
    noun = {"int": "number", "bool": "condition", "cards": "set of cards", "players": "set of players",
            "ints": "set of numbers", "suits": "set of suits", "ranks": "set of ranks"}.get(ptype, ptype)
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun} {em(name)}"


def _fmt_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ------------------------------------------------------------------ expressions -> English

_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
         "not in": 4, "..": 4, "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6}
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least"}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
           "in": "not in", "not in": "in"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "mod": "modulo"}
_NOUN = {"card": "card", "player": "player", "int": "number", "suit": "suit", "rank": "rank", "zone": "place"}
_ELEM = {"cards": "card", "players": "player", "ints": "int", "suits": "suit", "ranks": "rank",
         "zone": "card", "zonekind": "card", "zones": "zone", "list": None}
_MODALS = ("can_", "may_", "must_", "has_", "is_", "does_", "should_")


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
        return self(e)

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
        if isinstance(e, g.BinOp) and e.op in _NEGATE:
            return self.visit_BinOp(e.model_copy(update={"op": _NEGATE[e.op]}))
        if isinstance(e, g.Agg) and e.op in ("any", "no"):
            return self.visit_Agg(e.model_copy(update={"op": "no" if e.op == "any" else "any"}))
        if isinstance(e, g.Call) and e.func in self.defines and self.kind(e) == "bool":
            return self.define_clause(e, negated=True)
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
        if name in ("cards", "players", "player_count", "suits", "ranks"):
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
                    "rank": "ranks"}.get(inner.pop(), "list")
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
            {"cards": "cards", "players": "players", "player_count": "int", "suits": "suits",
             "ranks": "ranks"}.get(n)

    def kind_Attr(self, e):
        return {"suit": "suit", "rank": "rank", "owner": "player", "played_by": "player", "zone": "zone",
                "face_up": "bool"}.get(e.name, "int")

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
        if f == "seat":
            return "player"
        if f == "random":
            return self.elem(e.args[0]) if e.args else None
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
        return None

    def kind_Split(self, e):
        return "int" if e.score else "bool"

    def kind_Agg(self, e):
        if e.op in ("all", "any", "no"):
            return "bool"
        if e.op in ("count", "sum"):
            return "int"
        if e.op == "those":
            return self.kind(e.domain)
        return self.elem(e.domain)

    def kind_Cond(self, e):
        return self.kind(e.then) or self.kind(e.else_)

    def kind_BinOp(self, e):
        if e.op in ("+", "-", "*", "/", "mod"):
            left, right = self.kind(e.left), self.kind(e.right)
            if e.op in ("+", "-") and (left in _ELEM or right in _ELEM):
                return "cards"
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

    def possessive(self, e) -> str | None:
        """'p's', 'the leader's', or None when the phrase is too long to take an 's."""
        if isinstance(e, g.Name):
            cls = self.classify(e.name)
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
        if cls == "var":
            return f"the {human(n)}"
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
                    "suits": "the suits", "ranks": "the ranks"}[n]
        return n  # suits, ranks, enum values: their own names

    def visit_Attr(self, e):
        a = e.name
        if a == "face_up":
            return f"{self.operand(e.obj)} is face up"
        if a == "zone":
            return f"the place where {self.operand(e.obj)} lies"
        if a == "index" and self.kind(e.obj) == "zone":
            return self._of("number", e.obj)
        if a == "played_by":
            return f"the player who played {self.operand(e.obj)}"
        if a == "order":
            return self._of("rank position", e.obj)
        if a == "depth":
            return f"the number of cards lying on {self.operand(e.obj)}"
        return self._of(human(a), e.obj)

    def define_clause(self, e: g.Call, negated: bool = False) -> str:
        """A boolean definition applied to arguments: 'c is unbeatable', 'h can be played'."""
        d = self.defines[e.func]
        args = [self.operand(a) for a in e.args]
        name = e.func
        modal = name.startswith(_MODALS)
        if len(args) != 1:
            subject = f"{self.term(name)} holds for {_plain_list(args)}" if args else f"{self.term(name)} holds"
            return f"it is not the case that {subject}" if negated else subject
        if modal:
            text = f"{args[0]} {self.term(name)}"
            return f"it is not the case that {text}" if negated else text
        words = human(name).split()
        ptype = d.params[0].type if d.params else ""
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
        if isinstance(x, g.Name) and x.name == "players":
            return "the number of players"
        return f"the number of {_NOUN.get(elem or 'card', 'item')}s in {self._coll(x)}"

    def call_any(self, x):
        return f"{self._coll(x)} is not empty"

    def call_no(self, x):
        return f"{self._coll(x)} is empty"

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
            bare = re.sub(r"^(the|a|an) ", "", z.title or human(z.name))
            if z.per_player:
                return f"the players' places of kind {bare}"
            return f"{human(z.name)} 1 to {z.size or 1} ({bare})"
        return code(unparse(k))

    def call_top(self, x, n=None):
        if n is None:
            return f"the top card of {self._coll(x)}"
        return f"the top {self.operand(n)} cards of {self._coll(x)}"

    def call_bottom(self, x, n=None):
        if n is None:
            return f"the bottom card of {self._coll(x)}"
        return f"the bottom {self.operand(n)} cards of {self._coll(x)}"

    def call_random(self, x):
        return f"one of {self._coll(x)}, drawn at random"

    def call_seat(self, n):
        return f"the player in seat {self.operand(n)}"

    def call_above(self, c):
        return f"the cards above {self.operand(c)} in its suit"

    def call_below(self, c):
        return f"the cards below {self.operand(c)} in its suit"

    def call_cards_of(self, s):
        return f"the cards of the suit {self.operand(s)}"

    def call_card(self, r, s):
        return f"the {self.operand(r)} of {self.operand(s)}"

    def call_next(self, p):
        return f"the next player after {self.operand(p)}"

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
        head = f"{det} {noun}".strip()
        v = self.local(var)
        if isinstance(domain, g.Call) and domain.func in ("above", "below") and len(domain.args) == 1 \
                and domain.func not in self.defines:
            return f"{head} {v} {domain.func} {self.operand(domain.args[0])} in its suit"
        if isinstance(domain, g.Name) and self.classify(domain.name) == "builtin" and domain.name != "player_count":
            return f"{head} {v}"
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
        if op in ("highest", "lowest"):
            return f"the {op} {self.binder(e.var, e.domain, '')}{such}"
        if op == "sum":
            return f"the total of {body} over {self.binder(e.var, e.domain, 'every')}{such}"
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
            parts.append(f"{self.operand(grp.count, 5)} {self.term(grp.define)}{sizes}")
        split = f"{self.operand(e.cards)} can be split exactly into {_plain_list(parts)}"
        if e.score:
            return f"the best total {self.term(e.score)} over the ways {split} (-1 if there is none)"
        return split

    def visit_Cond(self, e):
        return f"{self.operand(e.then)} if {self.cond(e.test)}, otherwise {self(e.else_)}"

    def visit_UnOp(self, e):
        if e.op == "not":
            return self.neg(e.operand)
        return f"minus {self.operand(e.operand)}"

    def _logic_part(self, x, op: str, last: bool) -> str:
        if isinstance(x, g.BinOp) and x.op in ("and", "or") and x.op != op:
            text = self.cond(x)
            return f"either {text}" if x.op == "or" else f"({text})"
        if not last and (isinstance(x, (g.Agg, g.Cond)) or _ends_open(x)):
            return f"({self.cond(x)})"
        return self.cond(x)

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
                bare = re.sub(r"^(the|a|an) ", "", z.title or human(z.name))
                return f"{self.operand(e.left, 5)} is {'not in any' if neg else 'in a'} player's {bare}"
            if rk in ("ranks", "suits", "ints", "players", "list") and not isinstance(right, g.Call):
                return f"{self.operand(e.left, 5)} is {'not ' if neg else ''}one of {self.operand(right, 5)}"
            return f"{self.operand(e.left, 5)} is {'not ' if neg else ''}in {self.operand(right, 5)}"
        if op == "..":
            return f"the numbers from {self.operand(e.left, 5)} to {self.operand(e.right, 5)}"
        mine = _PREC[op]
        left, right = self.operand(e.left, mine), self.operand(e.right, mine + 1)
        if op == "+" and self.kind(e) == "cards":
            return f"{left} together with {right}"
        if op == "-" and self.kind(e) == "cards":
            return f"{left} except {right}"
        return f"{left} {_ARITH[op]} {right}"

    def compare(self, e):
        op, left, right = e.op, e.left, e.right
        if isinstance(right, g.NoneLit) and op in ("==", "!="):
            return f"{self.operand(left, 5)} {'does not exist' if op == '==' else 'exists'}"
        a, b = self._order_of(left), self._order_of(right)
        if a is not None and b is not None:
            words = {"<": "ranks below", ">": "ranks above", "<=": "ranks no higher than",
                     ">=": "ranks no lower than", "==": "ranks level with", "!=": "does not rank level with"}
            return f"{self.operand(a)} {words[op]} {self.operand(b)}"
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
        # (count d in X where w) == 2: "there are exactly 2 cards d in X such that w"
        if isinstance(left, g.Agg) and left.op == "count" and isinstance(right, g.IntLit):
            k = right.value
            amount = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most",
                      ">": "more than", ">=": "at least"}[op]
            with self.bound(**{left.var: self.elem(left.domain)}):
                such = f" such that {self.cond(left.where)}" if left.where is not None else ""
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


# ------------------------------------------------------------------ statements -> steps


@dataclass
class Step:
    """One sentence of a description and the steps nested under it."""

    text: str
    children: list["Step"] = field(default_factory=list)


class Describer:
    """Statements to steps, one `s_<NodeClass>` method per statement kind. `ref(name)` turns a
    nested rule into a reference ('rule 3, *Doubling the stake*') or None to describe it here."""

    def __init__(self, book: "BookBuilder", en: English, ref):
        self.book = book
        self.en = en
        self.ref = ref
        self.loops: list[str] = []

    def block(self, stmts) -> list[Step]:
        saved = dict(self.en.scope)
        out: list[Step] = []
        try:
            for s in stmts:
                method = getattr(self, "s_" + type(s).__name__, None)
                if method is None:
                    out.append(Step(f"Do {code(type(s).__name__)}."))
                else:
                    out.extend(method(s))
        finally:
            self.en.scope = saved
        return out

    def _face(self, face_up) -> str:
        if face_up is None:
            return ""
        if isinstance(face_up, g.BoolLit):
            return ", face up" if face_up.value else ""
        return f", face up if {self.en.cond(face_up)}"

    def s_Shuffle(self, s):
        return [Step(f"Shuffle {self.en(s.zone)}.")]

    def s_Deal(self, s):
        en = self.en
        n = f"{s.count.value} card{'s' if s.count.value != 1 else ''}" if isinstance(s.count, g.IntLit) \
            else f"{en.operand(s.count)} cards"
        z = en.zones.get(s.target)
        target = re.sub(r"^(the|a|an) ", "", (z.title or human(z.name)) if z else human(s.target))
        if z is not None and z.size:
            return [Step(f"Deal {n} from {en(s.source)} to each of {human(z.name)} 1 to {z.size} ({target}), "
                         f"in order{self._face(s.face_up)}.")]
        return [Step(f"Deal {n} from {en(s.source)} to each player's {target}, one player after another "
                     f"in turn order{self._face(s.face_up)}.")]

    def _cards(self, e) -> str:
        kind = self.en.kind(e)
        if kind in ("zone", "zonekind"):
            return f"all cards of {self.en(e)}"
        return self.en(e)

    def s_Move(self, s):
        if s.under:
            return [Step(f"Slide {self._cards(s.what)} under the cards of {self.en(s.to)}{self._face(s.face_up)}.")]
        return [Step(f"Move {self._cards(s.what)} to {self.en(s.to)}{self._face(s.face_up)}.")]

    def s_Reveal(self, s):
        return [Step(f"Show {self._cards(s.what)} to every player.")]

    def s_Let(self, s):
        value = self.en(s.value)
        kind = self.en.kind(s.value)
        self.en.bind(s.name, "cards" if kind in ("zone", "zonekind") else kind)
        if kind == "bool" and not isinstance(s.value, g.BoolLit):  # a condition: whether it holds
            return [Step(f"Let {self.en.local(s.name)} be whether {value}.")]
        return [Step(f"Let {self.en.local(s.name)} be {value}.")]

    def s_Set(self, s):
        if s.index is not None:
            target = self.en(g.Call(func=s.name, args=(s.index,)))
        else:
            target = self.en(g.Name(name=s.name))
        return [Step(f"Set {target} to {self.en(s.value)}.")]

    def s_DeclareWinner(self, s):
        if isinstance(s.who, g.NoneLit):
            return [Step("Nobody wins.")]
        kind = self.en.kind(s.who)
        if kind == "players":
            return [Step(f"Declare the winners: {self.en(s.who)} (they share the win; nobody wins if there are none).")]
        maybe_none = isinstance(s.who, (g.Agg, g.Cond)) or (isinstance(s.who, g.Call) and s.who.func != "seat")
        return [Step(f"Declare the winner: {self.en(s.who)}" + (" (nobody, if there is none)." if maybe_none else "."))]

    def s_Perform(self, s):
        proc = self.book.procs.get(s.name)
        name = link(f"#procedure-{s.name}", em(human(s.name)))
        if not s.args:
            return [Step(f"Follow the procedure {name}.")]
        params = proc.params if proc else ()
        word = "for" if params and params[0].type == "player" else "with"
        return [Step(f"Follow the procedure {name} {word} {_plain_list(self.en.operand(a) for a in s.args)}.")]

    def s_Break(self, s):
        loop = self.loops[-1] if self.loops else "loop"
        return [Step("Stop repeating." if loop == "repeat" else f"Leave the {loop}.")]

    def s_Pass(self, s):
        return [Step("Nothing happens.")]

    def s_EndGame(self, s):
        return [Step("The game ends at once.")]

    def s_If(self, s):
        out = []
        for i, br in enumerate(s.branches):
            head = "If" if i == 0 else "Otherwise, if"
            out.append(Step(f"{head} {self.en.cond(br.test)}:", self.block(br.body)))
        if s.else_:
            out.append(Step("Otherwise:", self.block(s.else_)))
        return out

    def _loop(self, kind: str, stmts) -> list[Step]:
        self.loops.append(kind)
        try:
            return self.block(stmts)
        finally:
            self.loops.pop()

    def s_While(self, s):
        return [Step(f"As long as {self.en.cond(s.test)}:", self._loop("repeat", s.body))]

    def s_Repeat(self, s):
        return [Step("Repeat the following until told to stop:", self._loop("repeat", s.body))]

    def s_ForPlayers(self, s):
        en, v = self.en, self.en.local(s.var)
        if s.start == "after":
            head = f"Each other player {v}, in turn after {en(s.at)}:"
        elif s.start == "from":
            head = f"Each player {v} in turn, starting with {en(s.at)}:"
        else:
            head = f"Each player {v} in turn, starting with the player in seat 1:"
        with en.bound(**{s.var: "player"}):
            return [Step(head, self._loop("round of players", s.body))]

    def s_ForEach(self, s):
        en = self.en
        head = f"For {en.binder(s.var, s.domain, 'each')}:"
        with en.bound(**{s.var: en.elem(s.domain)}):
            return [Step(head, self._loop("loop", s.body))]

    def s_Rule(self, s):
        ref = self.ref(s.name)
        if ref is not None:
            cond = " (when its condition holds)" if s.when is not None else ""
            return [Step(f"Apply {ref}{cond}.")]
        title = s.title or human(s.name)
        head = f"Rule {em(title)}"
        if s.when is not None:
            head += f", only when {self.en.cond(s.when)}"
        children = [Step(t) for t in s.texts] + self.block(s.body)
        return [Step(head + ":", children)]

    def s_Choose(self, s):
        en = self.en
        if s.each is not None:
            with en.bound(**{s.each: "player"}):
                steps = [self.action(a) for a in s.actions]
                v = en.local(s.each)
                head = (f"Every player {v} of {en(s.by)} decides, all at the same point and in any order, "
                        f"one of:" if len(steps) > 1 else f"Every player {v} of {en(s.by)} decides:")
            return [Step(head, steps)]
        who = _cap(en(s.by))
        steps = [self.action(a) for a in s.actions]
        head = f"{who} chooses one of:" if len(steps) > 1 else f"{who} chooses:"
        return [Step(head, steps)]

    def action(self, a: g.Action) -> Step:
        en = self.en
        label = a.label or _cap(human(a.name))
        text = f"{em(label)} ({code(a.name)})"
        with en.bound():
            if a.var is not None and a.domain is not None:
                text += f": {en.binder(a.var, a.domain, 'a')}"
                en.bind(a.var, en.elem(a.domain))
                if a.where is not None:
                    text += f" such that {en.cond(a.where)}"
            if a.when is not None:
                text += ("; " if a.var else ": ") + f"only when {en.cond(a.when)}"
            body = self.block(a.body)
        if len(body) == 1 and not body[0].children:
            return Step(f"{text} \u2014 {_uncap(body[0].text)}")
        return Step(text + ". Then:" if body else text + ".", body)


# ------------------------------------------------------------------ the book's model


@dataclass
class RuleView:
    number: int
    id: str
    name: str
    title: str
    when: str | None
    texts: tuple[str, ...]
    notes: tuple[str, ...]
    steps: list[Step]
    origin: str | None
    changed: bool


@dataclass
class PhaseView:
    number: int
    id: str
    heading: str
    name: str
    title: str
    texts: tuple[str, ...]
    notes: tuple[str, ...]
    outline: list[Step] | None
    summary: str | None
    rules: list[RuleView]
    then: str
    changed: bool


@dataclass
class _Found:
    rule: g.Rule
    scope: dict
    origin: str | None


class _RuleFinder:
    """Walks a phase in statement order, following performed procedures (each once), and
    numbers every rule it meets: the numbering a phase's section shows."""

    def __init__(self, book: "BookBuilder", en: English):
        self.book = book
        self.en = en
        self.found: list[_Found] = []
        self.seen_procs: set[str] = set()
        self.rule_stack: list[str] = []
        self.uses: list[tuple[str, str | None]] = []  # (procedure, rule name) in order

    def walk(self, stmts, origin: str | None = None) -> None:
        saved = dict(self.en.scope)
        try:
            for s in stmts:
                self.stmt(s, origin)
        finally:
            self.en.scope = saved

    def stmt(self, s, origin):
        en = self.en
        if isinstance(s, g.Rule):
            self.found.append(_Found(s, dict(en.scope), origin))
            self.rule_stack.append(s.name)
            self.walk(s.body, origin)
            self.rule_stack.pop()
        elif isinstance(s, g.Perform):
            self.uses.append((s.name, self.rule_stack[-1] if self.rule_stack else None))
            proc = self.book.procs.get(s.name)
            if proc is not None and s.name not in self.seen_procs:
                self.seen_procs.add(s.name)
                with en.bound():
                    en.scope = {p.name: p.type for p in proc.params}
                    self.walk(proc.body, s.name)
        elif isinstance(s, g.Let):
            k = en.kind(s.value)
            en.bind(s.name, "cards" if k in ("zone", "zonekind") else k)
        elif isinstance(s, g.If):
            for br in s.branches:
                self.walk(br.body, origin)
            self.walk(s.else_, origin)
        elif isinstance(s, g.Choose):
            for a in s.actions:
                with en.bound():
                    if a.var is not None and a.domain is not None:
                        en.bind(a.var, en.elem(a.domain))
                    self.walk(a.body, origin)
        elif isinstance(s, g.ForPlayers):
            with en.bound(**{s.var: "player"}):
                self.walk(s.body, origin)
        elif isinstance(s, g.ForEach):
            with en.bound(**{s.var: en.elem(s.domain)}):
                self.walk(s.body, origin)
        elif isinstance(getattr(s, "body", None), tuple):
            self.walk(s.body, origin)


class BookBuilder:
    """Builds the view model both templates render."""

    def __init__(self, rs: g.Ruleset):
        self.rs = rs
        self.procs = {p.name: p for p in rs.procedures}
        self.phases = {p.name: p for p in rs.phases}
        self.en = English(rs)
        self.changed: dict[tuple[str, str], str] = {}  # (kind, name) -> "added" or "changed"
        for c in rs.changes:
            self.changed[(self._kind_of_change(c.what), c.name)] = "added" if c.action == "added" else "changed"
        # rule name -> (phase, number, id) of the first phase that numbers it
        self.first_number: dict[str, tuple[g.Phase, int, str]] = {}
        self.proc_uses: dict[str, dict[str, list[int | None]]] = {}  # procedure -> phase -> rules

    @staticmethod
    def _kind_of_change(what: str) -> str:
        w = what.lower()
        for key, word in (("def", "define"), ("opt", "option"), ("rule", "rule"), ("proc", "procedure"),
                          ("phase", "phase"), ("zone", "zone"), ("var", "var"), ("interp", "interpretation"),
                          ("deck", "deck"), ("win", "winner"), ("player", "players"), ("turn", "direction")):
            if w.startswith(key):
                return word
        return w

    # ---- header
    def players(self) -> str:
        lo, hi = self.rs.players_min, self.rs.players_max
        if lo == hi:
            return f"{lo} player{'s' if lo != 1 else ''}"
        return f"{lo} or {hi} players" if hi == lo + 1 else f"{lo} to {hi} players"

    def direction(self) -> str:
        if self.rs.players_max == 1:
            text = "A game for one player"
        else:
            text = f"Play passes {self.rs.direction} (seats are numbered in the order of play)"
        if self.rs.max_decisions:
            text += f". A game takes at most {self.rs.max_decisions} decisions"
        return text

    def change_line(self, c: g.Change) -> str:
        kind = self._kind_of_change(c.what)
        rs = self.rs
        what = {"define": "Definition", "var": "Variable"}.get(kind, c.what.capitalize())
        if kind == "deck" and c.action == "replaced":
            return f"The deck is now the {em(rs.deck.title or human(rs.deck.name))} ({code(c.name)})"
        if c.action == "changed":
            if c.name in (c.what, "direction", "players") or kind in ("players", "direction"):
                return f"{what}: {c.detail}"
            if kind == "deck" and c.name == "order":
                return f"Deck order: {c.detail}"
            return f"{what} {code(c.name)}: {c.detail}"
        line = f"{what} {code(c.name)} is {c.action}"
        if kind == "winner":
            return f"The winner rule is {c.action}"
        if kind == "define" and c.name in self.en.defines:
            d = self.en.defines[c.name]
            with self.en.bound(**{p.name: p.type for p in d.params}):
                formal = self.en.cond(d.body) if self.en.define_kind(d.name) == "bool" else self.en(d.body)
            now = "" if c.action == "added" else "now "
            if d.texts:
                line += f" \u2014 {now}\u201c{' '.join(d.texts)}\u201d; precisely: {formal}"
            else:
                line += f" \u2014 {now}{formal}"
        elif kind == "option" and c.name in self.en.options:
            o = self.en.options[c.name]
            line += f" \u2014 default {_fmt_value(o.default)}"
            if o.description:
                line += f": \u201c{o.description}\u201d"
        elif kind == "rule":
            ref = self.first_number.get(c.name)
            if ref:
                ph, n, rid, title = ref
                line = f"Rule {code(c.name)} ({em(title)}) is {c.action}: see " \
                       f"{link('#' + rid, f'{ph.title or human(ph.name)}, rule {n}')}"
        return line

    # ---- deck
    def deck(self) -> dict:
        d = self.rs.deck
        present = {s: {r for line in d.lines() if s in line.suits for r in line.ranks} for s in d.suits}
        rows = [{"suit": s, "order": ", ".join(r for r in d.order_of(s) if r in present[s]), "own": s in d.orders}
                for s in d.suits]
        n_cards = d.size()
        summary = f"The {em(d.title)} has {n_cards} cards" if d.title else f"The deck has {n_cards} cards"
        if d.composition:
            parts = []
            for line in d.composition:
                copies = f", {line.copies} of each" if line.copies > 1 else ""
                parts.append(f"{', '.join(line.ranks)} of {', '.join(line.suits)}{copies}")
            summary += ": " + "; ".join(parts) + "."
        else:
            summary += f": {len(d.suits)} suits of {len(d.ranks)} ranks"
            if d.copies > 1:
                summary += f", with {d.copies} copies of each card"
            summary += "."
        if any(s in d.orders for s in d.suits):
            summary += " Not every suit ranks its cards in the same order: see the table."
        values = [{"name": name, "pairs": ", ".join(f"{r} = {v}" for r, v in vals.items())}
                  for name, vals in d.values.items()]
        return {"name": d.name, "title": d.title or human(d.name), "summary": summary, "rows": rows,
                "any_own": any(r["own"] for r in rows), "ranks": ", ".join(d.ranks),
                "groups": [{"name": k, "ranks": ", ".join(v)} for k, v in d.groups.items()],
                "value_rows": values, "texts": d.texts, "notes": d.notes,
                "changed": self.changed.get(("deck", d.name), "") or self.changed.get(("deck", "order"), "")}

    # ---- zones, variables, options
    def zones(self) -> list[dict]:
        seen = {"hidden": "nobody (face down)", "owner": "only its owner", "public": "everyone"}
        return [{"name": z.name, "title": z.title or human(z.name),
                 "kind": "one per player" if z.per_player else "shared",
                 "seen": seen[z.visibility], "changed": self.changed.get(("zone", z.name), "")} for z in self.rs.zones]

    def variables(self) -> list[str]:
        out = []
        for v in self.rs.vars:
            text = f"the {human(v.name)} ({code(v.name)}), {_TYPE_PHRASE.get(v.type, 'a ' + v.type)}"
            if v.params:
                text = f"each player's {human(v.name)} ({code(v.name)}), {_TYPE_PHRASE.get(v.type, 'a ' + v.type)}"
            if v.init is not None:
                with self.en.bound(**{prm.name: prm.type for prm in v.params}):
                    text += f", at first {self.en(v.init)}"
            out.append(text)
        return out

    def options(self) -> list[dict]:
        out = []
        for o in self.rs.options:
            if o.type == "bool":
                values = "true or false"
            elif o.type == "enum":
                values = "one of " + ", ".join(o.choices)
            elif o.low is not None and o.high is not None:
                values = f"a whole number from {o.low} to {o.high}"
            else:
                values = "a whole number"
            about = " ".join([_sentence(o.description)] if o.description else [])
            about = " ".join([about] + [_sentence(t) for t in o.texts] + [f"(Note: {n})" for n in o.notes]).strip()
            out.append({"name": o.name, "allowed": values, "default": _fmt_value(o.default),
                        "about": about, "description": o.description or "", "texts": o.texts, "notes": o.notes,
                        "changed": self.changed.get(("option", o.name), "")})
        return out

    # ---- definitions
    def terms(self) -> list[dict]:
        en = self.en
        out = []
        for d in self.rs.defines:
            with en.bound(**{p.name: p.type for p in d.params}):
                formal = en.cond(d.body) if en.define_kind(d.name) == "bool" else en(d.body)
            sig = d.name + (f"({', '.join(p.name for p in d.params)})" if d.params else "")
            params = f"(for {_plain_list(_param(p.type, p.name) for p in d.params)})" if d.params else ""
            meaning = " ".join(t.strip() for t in d.texts) if d.texts else "(no description given)"
            meaning = meaning if meaning.endswith((".", "!", "?", ")")) else meaning + "."
            out.append({"name": d.name, "id": f"term-{d.name}", "heading": human(d.name), "signature": sig,
                        "params": params, "meaning": meaning, "texts": d.texts, "notes": d.notes, "formal": formal,
                        "source": unparse(d.body), "changed": self.changed.get(("define", d.name), "")})
        return out

    # ---- phases and rules
    def phase_views(self) -> list[PhaseView]:
        finders = []
        for ph in self.rs.phases:
            finder = _RuleFinder(self, English(self.rs))
            finder.walk(ph.body)
            finders.append(finder)
            for i, f in enumerate(finder.found, 1):
                if f.rule.name not in self.first_number:
                    self.first_number[f.rule.name] = (ph, i, f"rule-{ph.name}-{i}",
                                                      f.rule.title or human(f.rule.name))
            numbers = {f.rule.name: i for i, f in enumerate(finder.found, 1)}
            for proc, rule in finder.uses:
                by_phase = self.proc_uses.setdefault(proc, {})
                lst = by_phase.setdefault(ph.name, [])
                n = numbers.get(rule)
                if n not in lst:
                    lst.append(n)
        views = []
        for pi, (ph, finder) in enumerate(zip(self.rs.phases, finders), 1):
            numbers = {f.rule.name: i for i, f in enumerate(finder.found, 1)}

            def ref(name, ph=ph, numbers=numbers):
                if name not in numbers:
                    return None
                n = numbers[name]
                title = next(f.rule.title or human(f.rule.name) for f in finder.found if f.rule.name == name)
                return link(f"#rule-{ph.name}-{n}", f"rule {n}, {em(title)}")

            rules = []
            for i, f in enumerate(finder.found, 1):
                en = English(self.rs)
                en.scope = dict(f.scope)
                desc = Describer(self, en, ref)
                when = en.cond(f.rule.when) if f.rule.when is not None else None
                steps = desc.block(f.rule.body)
                origin = None
                if f.origin:
                    origin = "This rule is part of the procedure " + \
                        link(f"#procedure-{f.origin}", em(human(f.origin)))
                    users = [numbers[r] for pr, r in finder.uses if pr == f.origin and r in numbers]
                    if users:
                        origin += f", which rule {users[0]} follows"
                    origin += "."
                rules.append(RuleView(i, f"rule-{ph.name}-{i}", f.rule.name, f.rule.title or _cap(human(f.rule.name)),
                                      when, f.rule.texts, f.rule.notes, steps, origin,
                                      self.changed.get(("rule", f.rule.name), "")))
            top_rules = [s for s in ph.body if isinstance(s, g.Rule)]
            outline = summary = None
            if len(top_rules) == len(ph.body):
                if len(rules) == 1:
                    summary = "This phase consists of the rule below."
                elif len(top_rules) == len(rules):
                    summary = "The rules below apply one after another, in this order."
                else:
                    lead = _plain_list(str(numbers[r.name]) for r in top_rules)
                    if len(top_rules) > 1:
                        summary = f"Rules {lead} apply one after another; the others are used from within them."
                    else:
                        summary = f"Rule {lead} applies; the others are used from within it."
            else:
                outline = Describer(self, English(self.rs), ref).block(ph.body)
            if ph.then:
                nxt = self.phases.get(ph.then)
                ttl = (nxt.title or human(nxt.name)) if nxt else human(ph.then)
                then = f"When this phase is over, the game continues with the phase " \
                       f"{link('#phase-' + ph.then, em(ttl))}."
            else:
                then = "When this phase is over, the game ends."
            views.append(PhaseView(pi, f"phase-{ph.name}", f"Phase {pi}: {ph.title or _cap(human(ph.name))}",
                                   ph.name, ph.title or _cap(human(ph.name)), ph.texts,
                                   ph.notes, outline, summary, rules, then, self.changed.get(("phase", ph.name), "")))
        return views

    def procedures(self) -> list[dict]:
        out = []
        for p in self.rs.procedures:
            en = English(self.rs)
            en.scope = {prm.name: prm.type for prm in p.params}

            def ref(name):
                hit = self.first_number.get(name)
                if hit is None:
                    return None
                ph, n, rid, title = hit
                return link(f"#{rid}", f"rule {n} of {ph.title or human(ph.name)}, {em(title)}")

            steps = Describer(self, en, ref).block(p.body)
            params = _plain_list(_param(prm.type, prm.name) for prm in p.params)
            uses = []
            for ph_name, nums in self.proc_uses.get(p.name, {}).items():
                ph = self.phases[ph_name]
                title = ph.title or _cap(human(ph.name))
                rules = sorted(n for n in nums if n is not None)
                if not rules:
                    uses.append(link(f"#phase-{ph_name}", title))
                    continue
                refs = [link(f"#rule-{ph_name}-{n}", str(n)) for n in rules]
                uses.append(f"{title}, rule{'s' if len(rules) > 1 else ''} {_plain_list(refs)}")
            given = []
            if params:
                given.append(f"Given {params}.")
            given.append(f"Used in: {'; '.join(uses)}." if uses else "Not used by any phase.")
            out.append({"name": p.name, "id": f"procedure-{p.name}", "heading": _cap(human(p.name)),
                        "params": params, "given": " ".join(given), "texts": p.texts, "notes": p.notes, "steps": steps,
                        "uses": self.proc_uses.get(p.name, []),
                        "changed": self.changed.get(("procedure", p.name), "")})
        return out

    def _declaring_rules(self) -> list[str]:
        """Titles of the rules that name a winner outright (`declare winner`)."""
        found: list[str] = []

        def walk(stmts, rule):
            for st in stmts:
                if isinstance(st, g.DeclareWinner) and rule and rule not in found:
                    found.append(rule)
                inner = st.title or human(st.name) if isinstance(st, g.Rule) else rule
                for block in g.child_blocks(st):
                    walk(block, inner)
        for ph in self.rs.phases:
            walk(ph.body, None)
        for pr in self.rs.procedures:
            walk(pr.body, None)
        return found

    def advice(self) -> list[dict]:
        out = []
        for a in self.rs.advice:
            p = a.params[0].name
            with self.en.bound(**{p: "player"}):
                formal = self.en(a.body)
            out.append({"name": a.name, "id": f"advice-{a.name}", "summary": a.summary, "texts": a.texts,
                        "notes": a.notes, "formal": f"for a player {em(p)}: {formal}", "source": unparse(a.body),
                        "changed": self.changed.get(("advice", a.name), "")})
        return out

    def winner(self) -> dict | None:
        w = self.rs.winner
        declaring = self._declaring_rules()
        lead = ""
        if declaring:
            lead = ("The rules " + _plain_list(em(t) for t in declaring) if len(declaring) > 1
                    else "The rule " + em(declaring[0])) + " can name the winner outright, and that decides the game. "
        if w is None:
            return {"sentence": lead.strip() or "This game names no winner.", "explain": None}
        d = self.en.defines.get(w.score)
        sentence = lead + ("Otherwise, when the game ends, the" if lead else "The") + \
            f" player(s) with the {w.rule} {self.en.term(w.score)} win; tied players share the win."
        explain = None
        if d is not None:
            p = d.params[0].name if d.params else "p"
            with self.en.bound(**{p: "player"}):
                formal = self.en(d.body)
            explain = f"For a player {em(p)}, the {self.en.term(w.score)} is {formal}."
            if d.texts:
                explain = f"A player's {self.en.term(w.score)} is {' '.join(d.texts).rstrip('.')}: " \
                          f"for a player {em(p)}, {formal}."
        return {"sentence": sentence, "explain": explain}

    def build(self) -> dict:
        rs = self.rs
        phases = self.phase_views()  # numbers rules first: the variant box refers to them
        variant = None
        if rs.base:
            variant = {"base": rs.base, "base_title": rs.base_title or rs.base,
                       "changes": [self.change_line(c) for c in rs.changes]}
        book = {
            "title": rs.title or _cap(human(rs.name)), "name": rs.name, "players": self.players(),
            "direction": self.direction(), "texts": rs.texts, "variant_texts": rs.variant_texts,
            "notes": rs.notes, "variant": variant,
            "deck": self.deck(), "zones": self.zones(), "variables": self.variables(),
            "options": self.options(), "terms": self.terms(), "phases": phases,
            "procedures": self.procedures(), "winner": self.winner(), "advice": self.advice(),
            "interpretations": [{"name": i.name, "id": f"interpretation-{i.name}", "question": i.question,
                                 "texts": i.texts, "notes": i.notes,
                                 "changed": self.changed.get(("interpretation", i.name), "")}
                                for i in rs.interpretations],
        }
        sections = [("variant", "What this variant changes")] if variant else []
        sections.append(("overview", "About the game"))
        sections += [("deck", "The cards"), ("zones", "Where the cards lie")]
        if book["options"]:
            sections.append(("options", "Options"))
        if book["terms"]:
            sections.append(("terms", "Terms"))
        sections.append(("play", "How to play"))
        if book["procedures"]:
            sections.append(("procedures", "Procedures used above"))
        if book["winner"]:
            sections.append(("winner", "Winning"))
        if book["advice"]:
            sections.append(("advice", "Advice on play"))
        if book["interpretations"]:
            sections.append(("interpretations", "Where the source is silent"))
        if rs.notes:
            sections.append(("notes", "Notes"))
        titles = [em(ph.title) for ph in phases]
        n = len(phases)
        book["phase_summary"] = (f"The game is played in {n} phases: {_plain_list(titles)}." if n != 1
                                 else f"The game is played in one phase, {titles[0]}.") if n else \
            "The game has no phases."
        book["play_intro"] = "The phases follow one another as described. The rules of each phase are " \
                             "numbered from 1, and a rule's steps are spelled out under \u201cIn detail\u201d."
        book["advice_intro"] = ("What a player should aim for, as a number per player: the higher, the better "
                                "for that player. The rules never use it; it is advice, for people and for the "
                                "computer players." + (" Several pieces of advice count together, by their sum."
                                                       if len(book["advice"]) > 1 else ""))
        book["terms_intro"] = "The rules use these terms. Each is given in the author's words, then precisely."
        book["badge_md"] = " *(changed in this variant)*"
        book["sections"] = [{"id": i, "title": t, "slug": _slug(t)} for i, t in sections]
        book["heading"] = dict(sections)
        return book


def _slug(title: str) -> str:
    """GitHub's heading anchor for a title (the Markdown contents links to these)."""
    s = re.sub(r"[^\w\- ]", "", title.lower())
    return s.replace(" ", "-")


# ------------------------------------------------------------------ rendering

_ENV: jinja2.Environment | None = None


def _env() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                                default_for_string=False),
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
            keep_trailing_newline=True)
        env.filters["md"] = to_markdown
        env.filters["mdcell"] = _md_cell
        env.filters["mdsteps"] = _md_steps
        env.filters["html"] = to_html
        env.filters["slug"] = _slug
        _ENV = env
    return _ENV


def _tidy_markdown(text: str) -> str:
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def render_markdown(rs: g.Ruleset) -> str:
    """The rulebook as Markdown."""
    book = BookBuilder(rs).build()
    return _tidy_markdown(_env().get_template("rulebook.md.j2").render(book=book))


def render_html(rs: g.Ruleset) -> str:
    """The rulebook as one standalone HTML page with print CSS (A4, page numbers)."""
    book = BookBuilder(rs).build()
    text = _env().get_template("rulebook.html.j2").render(book=book)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


# ------------------------------------------------------------------ files


def book_paths(ruleset_path: Path, out_dir: Path) -> tuple[Path, Path]:
    """Where a ruleset's books go: rulesets/<dir>/<stem>.cards -> out_dir/<dir>/<stem>.md and .html
    (a ruleset not under a `rulesets` folder: out_dir/<stem>.md and .html)."""
    ruleset_path, out_dir = Path(ruleset_path), Path(out_dir)
    parts = ruleset_path.parts
    if "rulesets" not in parts[:-1]:
        parts = ruleset_path.absolute().parts
    rel: tuple[str, ...] = ()
    if "rulesets" in parts[:-1]:
        i = len(parts) - 2 - parts[:-1][::-1].index("rulesets")
        rel = parts[i + 1:-1]
    folder = out_dir.joinpath(*rel)
    stem = ruleset_path.stem
    return folder / f"{stem}.md", folder / f"{stem}.html"


def _write_atomic(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise CardRulesError(f"cannot write {path}: {e.strerror}", str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise CardRulesError(f"cannot write {path}: {e.strerror}", str(path)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_rulebooks(paths: list[Path], out_dir: Path) -> list[Path]:
    """Load each ruleset, render both books and write them atomically under out_dir.

    Every ruleset is loaded and rendered before anything is written, so a bad ruleset raises
    its error (a CardRulesError: RulesetSyntaxError, RulesetError, ...) and writes nothing;
    each file is written to a temporary file beside it and moved into place."""
    from . import load_ruleset

    pending: list[tuple[Path, str]] = []
    for p in paths:
        rs = load_ruleset(p)
        md_path, html_path = book_paths(Path(p), Path(out_dir))
        pending.append((md_path, render_markdown(rs)))
        pending.append((html_path, render_html(rs)))
    written = []
    for path, text in pending:
        _write_atomic(path, text)
        written.append(path)
    return written


def project_rulesets(root: Path | None = None) -> list[Path]:
    """Every ruleset under the project's rulesets/ folder, sorted."""
    root = root or Path(__file__).resolve().parent.parent
    return sorted((root / "rulesets").glob("**/*.cards"))


def main(argv: list[str] | None = None) -> int:
    """Regenerate every book under rulesets/ into generated_docs/ (run from anywhere)."""
    root = Path(__file__).resolve().parent.parent
    try:
        written = write_rulebooks(project_rulesets(root), root / "generated_docs")
    except CardRulesError as e:
        print(e.render(), file=sys.stderr)
        return 1
    for p in written:
        print(f"wrote {p.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
