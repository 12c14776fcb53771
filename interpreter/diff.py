"""What changes between two rulesets: compared on the rule graph, never on the text.

`cardrules diff A B` (usually a base game and one of its variants) says what B adds, removes
or changes relative to A, by the stable names of rules, definitions, options, zones, phases
and procedures, in the game's own terms ("In Matsya, Kurma ... the numerals now rank upside
down, 1 high"), and then shows the two printed rulebooks as a redline.

How the comparison works:

* Locations (`loc`) are dropped, and everything that has a name is matched by name, so
  reformatting, comments and reordering definitions, options, zones, phases or
  interpretations change nothing.
* Bound names are alpha-normalised: an aggregate's variable, a definition's or procedure's
  parameter, a `let`, an action's parameter and a `for each` variable are replaced by
  positional names, so renaming them changes nothing.
* Phases and procedures are flattened into lines (one statement header per line, with its
  depth), aligned line by line (difflib), and each differing line is attributed to the
  innermost rule it belongs to. Two lines are the same when they say the same thing and any
  local they use is bound by corresponding lines, so reordering statements inside a rule is
  a change (it changes play) and renaming a local is not.
* Prose (titles, `text`, `note`, option descriptions, action labels, interpretations) is
  reported apart from changes to play.

Exit codes of the command: 0 identical in meaning, 1 different, 2 an error (a file that cannot
be read, a ruleset that does not load). Output is deterministic.

`python -m interpreter.diff` regenerates the committed pages in generated_docs/diffs/: every
variant against its base, as Markdown and as printable HTML.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Iterable, get_args

import typer
from markupsafe import escape

from . import graph as g
from .errors import CardRulesError
from .render import (TEMPLATES, BookBuilder, Describer, English, _write_atomic, code, em, link, render_markdown,
                     to_html)
from .unparse import unparse

__all__ = ["Change", "Detail", "Diff", "diff_rulesets", "render_diff", "write_variant_diffs", "variant_base",
           "diff_command", "REGENERATE"]

REGENERATE = "python -m interpreter.diff"

# ------------------------------------------------------------------ inline mark-up
# render.py writes phrases with a tiny inline mark-up (code, emphasis, links); find its brackets
# from its public helpers, so the three output formats here can convert or strip it.
_C0, _C1 = code("\x00").split("\x00")
_E0, _E1 = em("\x00").split("\x00")
_L0, _LS, _L1 = link("\x00", "\x00").split("\x00")
_LINK_RE = re.compile(re.escape(_L0) + "[^" + re.escape(_LS) + "]*" + re.escape(_LS) + "(.*?)" + re.escape(_L1), re.S)
_CODE_RE = re.compile(re.escape(_C0) + "(.*?)" + re.escape(_C1), re.S)
_MARKS = re.compile("[" + re.escape(_C0 + _C1 + _E0 + _E1 + _L0 + _LS + _L1) + "]")


def _unlink(text: str) -> str:
    """Links (to a rulebook's own anchors, which a diff page lacks) reduced to their text."""
    return _LINK_RE.sub(r"\1", text)


def _plain(text: str) -> str:
    """Marked-up text as plain text: code spans keep their backticks, emphasis goes."""
    return _MARKS.sub("", _CODE_RE.sub(lambda m: "`" + m.group(1) + "`", _unlink(text)))


def _md(text: str) -> str:
    out = _CODE_RE.sub(lambda m: ("`" + m.group(1) + "`") if "`" not in m.group(1) else f"`` {m.group(1)} ``",
                       _unlink(text))
    out = out.replace(_E0, "*").replace(_E1, "*")
    return _MARKS.sub("", out)


def _html(text: str) -> str:
    return str(to_html(_unlink(text)))


def _q(text: str) -> str:
    """A phrase in quotation marks, without a closing full stop or colon of its own."""
    return "\u201c" + text.strip().rstrip(".:") + "\u201d"


def _and(items: Iterable[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def _human(name: str) -> str:
    return name.replace("_", " ")


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def _src(text: str, limit: int = 0) -> str:
    text = " ".join(text.split())
    if limit and len(text) > limit:
        text = text[: limit - 1].rstrip() + "\u2026"
    return code(text)


# ------------------------------------------------------------------ the result


@dataclass(frozen=True)
class Detail:
    """One line under a change (marked-up text), with optional lines under it."""

    marked: str
    sub: tuple[str, ...] = ()
    depth: int = 0  # nesting, for the steps of an added rule or phase

    @property
    def text(self) -> str:
        return _plain(self.marked)


@dataclass(frozen=True)
class Change:
    """One difference: what kind of thing, its stable name, added/removed/changed, and a
    sentence in the game's own terms (`sentence` is plain text; `marked` keeps code and
    emphasis for Markdown and HTML). `prose` is true when only the author's words changed."""

    kind: str
    name: str
    action: str
    marked: str
    details: tuple[Detail, ...] = ()
    prose: bool = False

    @property
    def sentence(self) -> str:
        return _plain(self.marked)

    @property
    def text(self) -> str:
        """The sentence and its details as plain text."""
        lines = [self.sentence]
        for d in self.details:
            lines.append(d.text)
            lines.extend(_plain(s) for s in d.sub)
        return "\n".join(lines)


@dataclass(frozen=True)
class Diff:
    """Everything that differs between ruleset a (before) and b (after)."""

    a_name: str
    a_title: str
    b_name: str
    b_title: str
    changes: tuple[Change, ...] = ()

    @property
    def identical(self) -> bool:
        return not self.changes

    @property
    def rule_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.prose)

    @property
    def prose_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.prose)

    def find(self, kind: str | None = None, name: str | None = None) -> list[Change]:
        return [c for c in self.changes if (kind is None or c.kind == kind) and (name is None or c.name == name)]


# The sections of a report, in order, and the kinds of change each holds.
SECTIONS = [
    ("game", "The game", ("game", "players", "direction", "bound", "start", "winner", "text")),
    ("cards", "The cards", ("deck", "deck order")),
    ("zones", "Where the cards lie", ("zone",)),
    ("options", "Options", ("option",)),
    ("variables", "Variables", ("variable",)),
    ("terms", "Terms", ("definition",)),
    ("play", "How to play", ("phase", "rule")),
    ("procedures", "Procedures", ("procedure",)),
    ("interpretations", "Where the source is silent", ("interpretation",)),
    ("advice", "Advice on play", ("advice",)),
]
_SECTION_OF = {k: i for i, (_, _, kinds) in enumerate(SECTIONS) for k in kinds}


# ------------------------------------------------------------------ canonical keys
# A key is a nested tuple that is equal for two nodes exactly when they mean the same thing.
# Locals are keys too: ("$P", i) a parameter by position, ("$A", depth) an aggregate's variable
# by nesting depth within its expression, ("$L", line) a local bound by a statement line.

_SKIP = frozenset({"loc", "kind"})
_PROSE = frozenset({"title", "label", "texts", "notes", "description", "question", "summary"})
_STMTS = tuple(get_args(get_args(g.Stmt)[0]))
_BLOCKS = frozenset({"body", "else_", "branches", "actions"})


def _fields(node) -> list[str]:
    return [f for f in type(node).model_fields if f not in _SKIP]


def _ekey(e, env: dict, level: int = 0):
    """The canonical key of an expression (or any value inside one)."""
    if e is None or isinstance(e, (str, int, bool, float)):
        return e
    if isinstance(e, g.Name):
        ref = env.get(e.name)
        return ("Name", e.name if ref is None else ref)
    if isinstance(e, g.Agg):
        inner = {**env, e.var: ("$A", level)}
        return ("Agg", e.op, _ekey(e.domain, env, level), _ekey(e.where, inner, level + 1),
                _ekey(e.body, inner, level + 1)) + tuple(
            _ekey(getattr(e, f), inner, level + 1) for f in _fields(e)
            if f not in ("op", "var", "domain", "where", "body"))
    if isinstance(e, g.Node):
        return (type(e).__name__,) + tuple(_ekey(getattr(e, f), env, level) for f in _fields(e))
    if isinstance(e, (tuple, list)):
        return tuple(_ekey(x, env, level) for x in e)
    if isinstance(e, dict):
        return ("{}",) + tuple(sorted((k, _ekey(v, env, level)) for k, v in e.items()))
    return repr(e)


def _is_local(k) -> bool:
    return isinstance(k, tuple) and len(k) == 2 and k[0] == "$L"


def _loose(k):
    """A key with statement-bound locals anonymised: which line binds them is checked apart."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$L",)
        return tuple(_loose(x) for x in k)
    return k


def _translate(k, mapping: dict[int, int]):
    """A's key with each statement-bound local renamed to the corresponding line of B."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$L", mapping.get(k[1], ("unmatched", k[1])))
        return tuple(_translate(x, mapping) for x in k)
    return k


def _params_env(params) -> dict:
    return {p.name: ("$P", i) for i, p in enumerate(params)}


def _params_key(params) -> tuple:
    return tuple(p.type for p in params)


# ------------------------------------------------------------------ statements as lines


@dataclass
class _Line:
    index: int
    depth: int
    key: tuple           # exact: statement-bound locals by the line that binds them
    loose: tuple         # with those locals anonymised (for aligning)
    prose: tuple         # the line's words that do not change play (titles, texts, labels)
    node: object
    part: str            # rule, if, elif, else, choose, action, block, stmt
    rule: str | None     # the innermost rule the line belongs to (a rule's header: that rule)
    parent: int | None   # the header line it is nested under
    scope: dict          # locals -> kinds, for the words
    binds: str | None = None  # the local this line binds (let, for each, an action's parameter)


class _Flattener:
    """Flattens a block of statements into lines, one statement header each, in order."""

    def __init__(self, en: English):
        self.en = en
        self.lines: list[_Line] = []

    def run(self, stmts, params=()) -> list[_Line]:
        self.lines = []
        self.en.scope = {p.name: p.type for p in params}
        self.block(stmts, _params_env(params), 0, None, None)
        return self.lines

    def add(self, depth, key, node, part, rule, parent, prose=(), binds=None) -> int:
        i = len(self.lines)
        key = (depth,) + key  # the depth keeps the nesting: lines are the block, flattened
        self.lines.append(_Line(i, depth, key, _loose(key), prose, node, part, rule, parent, dict(self.en.scope),
                                binds))
        return i

    def block(self, stmts, env, depth, rule, parent) -> None:
        env = dict(env)
        saved = dict(self.en.scope)
        try:
            for s in stmts:
                self.stmt(s, env, depth, rule, parent)
        finally:
            self.en.scope = saved

    def _generic_key(self, s, env, skip=()):
        return (type(s).__name__,) + tuple(
            (f, _ekey(getattr(s, f), env)) for f in _fields(s)
            if f not in _BLOCKS and f not in _PROSE and f not in skip)

    def stmt(self, s, env: dict, depth: int, rule, parent) -> None:
        en = self.en
        if isinstance(s, g.Rule):
            key = self._generic_key(s, env)
            i = self.add(depth, key, s, "rule", s.name, parent, (s.title, s.texts, s.notes))
            self.block(s.body, env, depth + 1, s.name, i)
        elif isinstance(s, g.If):
            for n, br in enumerate(s.branches):
                i = self.add(depth, ("If" if n == 0 else "Elif", ("test", _ekey(br.test, env))), br,
                             "if" if n == 0 else "elif", rule, parent)
                self.block(br.body, env, depth + 1, rule, i)
            if s.else_:
                i = self.add(depth, ("Else",), s, "else", rule, parent)
                self.block(s.else_, env, depth + 1, rule, i)
        elif isinstance(s, g.Choose):
            i = self.add(depth, self._generic_key(s, env), s, "choose", rule, parent)
            for a in s.actions:
                j = len(self.lines)
                inner = dict(env)
                saved = dict(en.scope)
                if a.var is not None:
                    inner[a.var] = ("$L", j)
                    en.bind(a.var, en.elem(a.domain) if a.domain is not None else None)
                    for k, m in enumerate(a.more):
                        inner[m.var] = ("$L", j, k + 1)
                        en.bind(m.var, en.elem(m.domain))
                key = ("Action", ("name", a.name), ("param", a.var is not None), ("domain", _ekey(a.domain, env)),
                       ("where", _ekey(a.where, inner)), ("when", _ekey(a.when, env))) + tuple(
                    (f, _ekey(getattr(a, f), inner)) for f in _fields(a)
                    if f not in _BLOCKS | _PROSE | {"name", "var", "domain", "where", "when"})
                self.add(depth + 1, key, a, "action", rule, i, (a.label,), binds=a.var)
                self.block(a.body, inner, depth + 2, rule, j)
                en.scope = saved
        elif isinstance(s, g.Let):
            i = self.add(depth, self._generic_key(s, env, skip=("name",)), s, "stmt", rule, parent, binds=s.name)
            k = en.kind(s.value)
            env[s.name] = ("$L", i)
            en.bind(s.name, "cards" if k in ("zone", "zonekind") else k)
        elif isinstance(s, g.Set):
            key = self._generic_key(s, env, skip=("name",)) + (("name", env.get(s.name, s.name)),)
            self.add(depth, key, s, "stmt", rule, parent)
        elif isinstance(s, (g.ForEach, g.ForPlayers)):
            i = self.add(depth, self._generic_key(s, env, skip=("var",)), s, "block", rule, parent, binds=s.var)
            inner = {**env, s.var: ("$L", i)}
            saved = dict(en.scope)
            en.bind(s.var, "player" if isinstance(s, g.ForPlayers) else en.elem(s.domain))
            self.block(s.body, inner, depth + 1, rule, i)
            en.scope = saved
        else:
            blocks = [f for f in _fields(s) if f in _BLOCKS or _is_block(getattr(s, f))]
            i = self.add(depth, self._generic_key(s, env, skip=tuple(blocks)), s,
                         "block" if blocks else "stmt", rule, parent,
                         tuple(getattr(s, f) for f in _fields(s) if f in _PROSE))
            if len(blocks) == 1:
                self.block(getattr(s, blocks[0]), env, depth + 1, rule, i)
            else:
                for f in blocks:
                    j = self.add(depth + 1, ("Block", f), s, "field", rule, i)
                    self.block(getattr(s, f), env, depth + 2, rule, j)


def _is_block(v) -> bool:
    return isinstance(v, tuple) and bool(v) and all(isinstance(x, _STMTS) for x in v)


# ------------------------------------------------------------------ one side of a comparison


class _Side:
    """One ruleset with what the comparison needs: flattened phases and procedures, the
    rules found in them, and the words for lines, definitions and deck orders."""

    def __init__(self, rs: g.Ruleset):
        self.rs = rs
        self.en = English(rs)
        self.book = BookBuilder(rs)
        flat = _Flattener(English(rs))
        self.phases = {p.name: p for p in rs.phases}
        self.procs = {p.name: p for p in rs.procedures}
        self.lines: dict[tuple[str, str], list[_Line]] = {}
        for p in rs.phases:
            self.lines[("phase", p.name)] = flat.run(p.body)
        for p in rs.procedures:
            self.lines[("procedure", p.name)] = flat.run(p.body, p.params)
        self.rules: dict[str, tuple[tuple[str, str], _Line]] = {}  # name -> (container, header line)
        for cont, lines in self.lines.items():
            for ln in lines:
                if ln.part == "rule" and ln.node.name not in self.rules:
                    self.rules[ln.node.name] = (cont, ln)

    def english(self, scope: dict | None = None) -> English:
        en = English(self.rs)
        en.scope = dict(scope or {})
        return en

    def place(self, cont: tuple[str, str]) -> str:
        kind, name = cont
        if kind == "phase":
            ph = self.phases[name]
            return f"phase {code(name)} ({em(ph.title)})" if ph.title else f"phase {code(name)}"
        return f"procedure {code(name)}"

    def rule_label(self, name: str) -> str:
        hit = self.rules.get(name)
        title = hit[1].node.title if hit else None
        return f"rule {code(name)} ({em(title)})" if title else f"rule {code(name)}"

    # ---- words for one line
    def words(self, ln: _Line) -> str:
        en = self.english(ln.scope)
        s = ln.node
        try:
            if ln.part == "rule":
                text = f"Rule {em(s.title or _human(s.name))}"
                if s.when is not None:
                    text += f", only when {en.cond(s.when)}"
                return text
            if ln.part in ("if", "elif"):
                return f"{'If' if ln.part == 'if' else 'Otherwise, if'} {en.cond(s.test)}"
            if ln.part == "else":
                return "Otherwise"
            if ln.part == "choose":
                if s.each is not None:
                    return f"Every player {en.local(s.each)} of {en(s.by)} chooses" + (" in secret" if s.secret else "")
                return f"{_cap(en(s.by))} chooses"
            if ln.part == "action":
                text = f"the move {code(s.name)}" + (f" ({em(s.label.rstrip('.'))})" if s.label else "")
                if s.var is not None and s.domain is not None:
                    text += f", for {en.binder(s.var, s.domain, 'a')}"
                    for m in s.more:
                        text += f" and {en.binder(m.var, m.domain, 'a')}"
                    if s.where is not None:
                        text += f" such that {en.cond(s.where)}"
                if s.when is not None:
                    text += f", only when {en.cond(s.when)}"
                return _cap(text)
            if ln.part == "field":
                return f"{_human(ln.key[2])}"
            node = s.model_copy(update={f: () for f in _fields(s) if f in _BLOCKS or _is_block(getattr(s, f))})
            steps = Describer(self.book, en, lambda name: None).block([node])
            return steps[0].text if steps else code(_line_source(ln))
        except Exception:  # words are a courtesy; the source below always says it exactly
            return code(_line_source(ln))

    def define_words(self, d: g.Define) -> str:
        en = self.english({p.name: p.type for p in d.params})
        try:
            return en.cond(d.body) if en.define_kind(d.name) == "bool" else en(d.body)
        except Exception:
            return code(unparse(d.body))

    def expr_words(self, e, scope: dict | None = None, cond: bool = False) -> str:
        en = self.english(scope)
        try:
            return en.cond(e) if cond else en(e)
        except Exception:
            return code(unparse(e))


# ------------------------------------------------------------------ statement source text


def _face(face_up) -> str:
    if face_up is None:
        return ""
    if isinstance(face_up, g.BoolLit) and face_up.value:
        return " face up"
    return f" face up if {unparse(face_up)}"


def _line_source(ln: _Line) -> str:
    """The language's own text of a line's statement header."""
    s = ln.node
    u = unparse
    if ln.part == "rule":
        text = f"rule {s.name}" + (f' "{s.title}"' if s.title else "")
        return text + (f" when {u(s.when)}" if s.when is not None else "") + ":"
    if ln.part in ("if", "elif"):
        return f"{ln.part} {u(s.test)}:"
    if ln.part == "else":
        return "else:"
    if ln.part == "choose":
        if s.each is not None:
            return f"choose {'secretly ' if s.secret else ''}by each {s.each} in {u(s.by)}:"
        return f"choose by {u(s.by)}:"
    if ln.part == "action":
        text = f"action {s.name}"
        if s.var is not None:
            text += f" {s.var} in {u(s.domain)}" + "".join(f", {m.var} in {u(m.domain)}" for m in s.more)
        if s.where is not None:
            text += f" where {u(s.where)}"
        if s.when is not None:
            text += f" when {u(s.when)}"
        return text + (f' "{s.label}"' if s.label else "") + ":"
    if ln.part == "field":
        return f"{ln.key[2]}:"
    t = type(s).__name__
    if t == "Shuffle":
        return f"shuffle {u(s.zone)}"
    if t == "Deal":
        start = f" starting {s.start} {u(s.at)}" if s.at is not None else ""
        return f"deal {u(s.count)} from {u(s.source)} to each {s.target}{start}{_face(s.face_up)}"
    if t == "Move":
        return f"move {u(s.what)} to {u(s.to)}{_face(s.face_up)}"
    if t == "Reveal":
        return f"reveal {u(s.what)}"
    if t == "Let":
        return f"let {s.name} = {u(s.value)}"
    if t == "Set":
        idx = f"({u(s.index)})" if getattr(s, "index", None) is not None else ""
        return f"set {s.name}{idx} = {u(s.value)}"
    if t == "DeclareWinner":
        return f"declare winner {u(s.who)}"
    if t == "Perform":
        return f"perform {s.name}" + (f"({', '.join(u(a) for a in s.args)})" if s.args else "")
    if t in ("Break", "Pass"):
        return t.lower()
    if t == "EndGame":
        return "end game"
    if t == "While":
        return f"while {u(s.test)}:"
    if t == "Repeat":
        return "repeat:"
    if t == "ForPlayers":
        start = {"from": f" from {u(s.at)}", "after": f" after {u(s.at)}"}.get(s.start, "") if s.at is not None else ""
        return f"for each player {s.var}{start}:"
    if t == "ForEach":
        return f"for each {s.var} in {u(s.domain)}:"
    parts = []
    for f in _fields(s):
        v = getattr(s, f)
        if f in _BLOCKS or _is_block(v) or v is None:
            continue
        parts.append(u(v) if isinstance(v, g.Node) and not isinstance(v, (g.Branch, g.Action)) else _fmt(v))
    return " ".join([_human(t).lower()] + parts) + (":" if ln.part == "block" else "")


# ------------------------------------------------------------------ aligning lines


@dataclass
class _Event:
    action: str              # added, removed, changed, moved (a rule), step moved
    a: _Line | None
    b: _Line | None
    under: int = 0           # for a step moved: how many steps moved with it, nested under it


def _shape(ln: _Line):
    s = ln.node
    return (ln.depth, ln.part, type(s).__name__, s.name if ln.part == "rule" else None)


def _named(k, names: dict[int, str | None]):
    """A key with statement-bound locals by their written names (to prefer the alignment a
    reader expects when nothing was renamed)."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$N", names.get(k[1]))
        return tuple(_named(x, names) for x in k)
    return k


def _ops(a: list[_Line], b: list[_Line], ka: list, kb: list):
    ops: list[tuple[str, _Line | None, _Line | None]] = []
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops += [("pair", a[i], b[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
        elif tag == "delete":
            ops += [("removed", a[i], None) for i in range(i1, i2)]
        elif tag == "insert":
            ops += [("added", None, b[j]) for j in range(j1, j2)]
        else:
            sub = difflib.SequenceMatcher(None, [_shape(x) for x in a[i1:i2]], [_shape(x) for x in b[j1:j2]],
                                          autojunk=False)
            for t2, k1, k2, l1, l2 in sub.get_opcodes():
                if t2 == "equal":
                    ops += [("pair", a[i1 + i], b[j1 + j]) for i, j in zip(range(k1, k2), range(l1, l2))]
                else:
                    ops += [("removed", a[i1 + i], None) for i in range(k1, k2)]
                    ops += [("added", None, b[j1 + j]) for j in range(l1, l2)]
    return ops


def _events(ops, outer: dict[int, int] | None):
    pairs = dict(outer or {})
    for tag, x, y in ops:
        if tag == "pair":
            pairs[x.index] = y.index
    events: list[_Event] = []
    prose: list[_Event] = []
    for tag, x, y in ops:
        if tag == "pair":
            if _translate(x.key, pairs) != y.key:
                events.append(_Event("changed", x, y))
            if x.prose != y.prose:
                prose.append(_Event("changed", x, y))
        else:
            events.append(_Event(tag, x, y))
    return pairs, events, prose


def _align(a: list[_Line], b: list[_Line], outer: dict[int, int] | None = None,
           context: tuple[list[_Line], list[_Line]] | None = None):
    """Align two flattened blocks: returns (pairs, events, prose). pairs maps A's line index to
    B's for lines that correspond; events are the lines added, removed or changed (in B's
    order), prose the paired lines whose words (titles, texts, labels) changed.

    Two alignments are tried, one that ignores the names of locals and one that uses them,
    and the one with fewer events is kept: either way, no events means the two blocks are the
    same up to renaming their locals."""
    loose = _events(_ops(a, b, [x.loose for x in a], [x.loose for x in b]), outer)
    if not loose[1]:
        return loose
    na = {x.index: x.binds for x in (context[0] if context else a)}
    nb = {x.index: x.binds for x in (context[1] if context else b)}
    named = _events(_ops(a, b, [(_named(x.key, na), x.binds) for x in a], [(_named(x.key, nb), x.binds) for x in b]),
                    outer)
    return named if len(named[1]) <= len(loose[1]) else loose


# ------------------------------------------------------------------ deck orders in words


def _is_num(r: str) -> bool:
    return r.isdigit()


def _order_phrase(order) -> str:
    """Ranks low to high, with runs of numerals shortened: '10 down to 1, Jack, King'."""
    order = list(order)
    out, i = [], 0
    while i < len(order):
        if _is_num(order[i]):
            j, step = i, 0
            while j + 1 < len(order) and _is_num(order[j + 1]):
                d = int(order[j + 1]) - int(order[j])
                if d not in (1, -1) or (step and d != step):
                    break
                step, j = d, j + 1
            if j - i >= 2:
                out.append(f"{order[i]} {'up' if step == 1 else 'down'} to {order[j]}")
                i = j + 1
                continue
        out.append(order[i])
        i += 1
    return ", ".join(out)


def _segment_name(seg: list[str], deck: g.Deck) -> str:
    if sorted(seg) == sorted(deck.ranks):
        return "all the ranks"
    numerals = [r for r in deck.ranks if _is_num(r)]
    if sorted(seg) == sorted(numerals) and seg:
        return "the numerals"
    for name, ranks in sorted(deck.groups.items()):
        if sorted(ranks) == sorted(seg):
            return f"the {_human(name)}"
    return f"the ranks {seg[0]} to {seg[-1]}" if len(seg) > 2 else f"{seg[0]} and {seg[-1]}"


def _order_change(old, new, deck: g.Deck) -> str:
    """What a change from one order (low to high) to another means, in words."""
    old, new = list(old), list(new)
    was = f"low to high {_order_phrase(new)} (was {_order_phrase(old)})"
    if sorted(old) != sorted(new) or old == new:
        return f"the ranks now run {was}"
    i = next(k for k in range(len(old)) if old[k] != new[k])
    j = max(k for k in range(len(old)) if old[k] != new[k])
    seg = old[i:j + 1]
    if new[i:j + 1] == seg[::-1] and len(seg) >= 3:
        what = _segment_name(seg, deck)
        single = {"the numerals": "numeral"}.get(what)
        kept = [r for r in old if r not in seg]
        text = f"{what} now rank upside down, {seg[0]} high: {seg[0]} is now the highest" + \
               (f" {single}" if single else "") + f" and {seg[-1]} the lowest"
        if kept:
            text += f", while {_and(kept)} keep{'s' if len(kept) == 1 else ''} {'its' if len(kept) == 1 else 'their'} place" \
                    + ("" if len(kept) == 1 else "s")
        return f"{text}; {was}"
    for r in old:  # one rank taken out and put elsewhere
        if [x for x in old if x != r] == [x for x in new if x != r]:
            k = new.index(r)
            where = "lowest" if k == 0 else "highest" if k == len(new) - 1 else f"between {new[k - 1]} and {new[k + 1]}"
            return f"{r} now ranks {where}: the ranks now run {was}"
    moved = [r for r in new if old.index(r) != new.index(r)]
    return f"{_and(moved)} change places: the ranks now run {was}"


# ------------------------------------------------------------------ the comparison


class _Differ:
    def __init__(self, a: g.Ruleset, b: g.Ruleset):
        self.a, self.b = a, b
        self.A, self.B = _Side(a), _Side(b)
        self.out: list[Change] = []

    def add(self, kind, name, action, marked, details=(), prose=False) -> None:
        self.out.append(Change(kind, name, action, marked, tuple(
            d if isinstance(d, Detail) else Detail(d) for d in details), prose))

    def run(self) -> Diff:
        self.game()
        self.deck()
        self.zones()
        self.options()
        self.variables()
        self.definitions()
        self.phases_and_procedures()
        self.interpretations()
        self.advice()
        order = {id(c): i for i, c in enumerate(self.out)}
        changes = sorted(self.out, key=lambda c: (c.prose, _SECTION_OF.get(c.kind, len(SECTIONS)), order[id(c)]))
        return Diff(self.a.name, self.a.title or self.a.name, self.b.name, self.b.title or self.b.name,
                    tuple(changes))

    # ---- the game as a whole
    def game(self) -> None:
        a, b = self.a, self.b
        if (a.name, a.title) != (b.name, b.title):
            self.add("game", b.name, "changed",
                     f"The game is now {_q(b.title or b.name)} ({code(b.name)}); it was "
                     f"{_q(a.title or a.name)} ({code(a.name)})", prose=True)
        if (a.base, a.base_title) != (b.base, b.base_title):
            now = f"a variant of {_q(b.base_title or b.base)}" if b.base else "a game of its own"
            was = f"a variant of {_q(a.base_title or a.base)}" if a.base else "a game of its own"
            self.add("game", b.name, "changed", f"It is now {now} (was {was})", prose=True)
        for attr, what in (("texts", "The game's introduction"), ("variant_texts", "The variant's introduction"),
                           ("notes", "The game's note")):
            self.prose_lines("text", attr, what, getattr(a, attr), getattr(b, attr))
        if (a.players_min, a.players_max) != (b.players_min, b.players_max):
            self.add("players", "players", "changed",
                     f"Players: for {_players(b.players_min, b.players_max)} "
                     f"(was {_players(a.players_min, a.players_max, short=True)})")
        if a.direction != b.direction:
            self.add("direction", "direction", "changed",
                     f"Turn order: play now passes {b.direction} (was {a.direction})")
        if a.max_decisions != b.max_decisions:
            now = f"at most {b.max_decisions} decisions" if b.max_decisions else "no declared bound"
            was = f"at most {a.max_decisions}" if a.max_decisions else "no declared bound"
            self.add("bound", "max_decisions", "changed", f"Length: a game now takes {now} (was {was})")
        if a.winner != b.winner and (a.winner is None or b.winner is None or
                                     (a.winner.rule, a.winner.score) != (b.winner.rule, b.winner.score)):
            self.add("winner", "winner", "changed" if a.winner and b.winner else ("added" if b.winner else "removed"),
                     f"Winning: {_winner(b.winner)} (was: {_winner(a.winner)})")
        first_a = a.phases[0].name if a.phases else None
        first_b = b.phases[0].name if b.phases else None
        if first_a != first_b and first_a in self.B.phases and first_b in self.A.phases:
            self.add("start", "phases", "changed",
                     f"The game now starts with phase {code(first_b)} (was {code(first_a)})")
        handled = {"loc", "name", "title", "base", "base_title", "source", "players_min", "players_max",
                   "direction", "max_decisions", "deck", "zones", "options", "vars", "defines", "procedures",
                   "phases", "interpretations", "winner", "texts", "variant_texts", "notes", "changes", "advice"}
        for f in type(a).model_fields:
            if f not in handled and _ekey(getattr(a, f), {}) != _ekey(getattr(b, f), {}):
                self.add("game", f, "changed", f"The game's {_human(f)} changed")

    def prose_lines(self, kind, name, what, old, new, sentence=None) -> None:
        if tuple(old) == tuple(new):
            return
        if not old:
            self.add(kind, name, "added", sentence or f"{what} is new: {_q(' '.join(new))}", prose=True)
        elif not new:
            self.add(kind, name, "removed", sentence or f"{what} is gone (it was {_q(' '.join(old))})", prose=True)
        else:
            self.add(kind, name, "changed", sentence or f"{what} changed",
                     [f"now: {_q(' '.join(new))}", f"was: {_q(' '.join(old))}"], prose=True)

    # ---- the deck
    def deck(self) -> None:
        da, db = self.a.deck, self.b.deck
        na = len(da.suits) * len(da.ranks) * da.copies
        nb = len(db.suits) * len(db.ranks) * db.copies
        renamed = (da.name, da.title) != (db.name, db.title)

        def pack(d: g.Deck, n: int) -> str:
            return f"the {_q(d.title or _human(d.name))} ({code(d.name)}), {n} cards in {len(d.suits)} suits"

        if da.suits != db.suits:
            gone = [s for s in da.suits if s not in db.suits]
            new = [s for s in db.suits if s not in da.suits]
            if renamed and (set(da.suits).isdisjoint(db.suits) or na != nb):
                sentence = f"The deck is now {pack(db, nb)}: {_and(db.suits)}; it was {pack(da, na)}: {_and(da.suits)}"
                renamed = False
            elif not new and not gone:
                sentence = f"The suits are now listed in the order {_and(db.suits)} (was {_and(da.suits)})"
            else:
                bits = []
                if new:
                    bits.append(f"suit{'s' if len(new) > 1 else ''} {_and(new)} added")
                if gone:
                    bits.append(f"suit{'s' if len(gone) > 1 else ''} {_and(gone)} removed")
                sentence = _cap("; ".join(bits)) + f": now {len(db.suits)} suits (was {len(da.suits)})"
                if na != nb:
                    sentence += f"; the pack now has {nb} cards (was {na})"
            self.add("deck", db.name, "changed", sentence)
        if renamed:
            self.add("deck", db.name, "changed",
                     f"The deck is now called the {_q(db.title or _human(db.name))} ({code(db.name)}); it was the "
                     f"{_q(da.title or _human(da.name))} ({code(da.name)})", prose=True)
        if da.ranks != db.ranks:
            self.add("deck", db.name, "changed", f"Ranks: {_order_change(da.ranks, db.ranks, db)}"
                     + (f"; the pack now has {nb} cards (was {na})" if na != nb and da.suits == db.suits else ""))
        if da.copies != db.copies:
            self.add("deck", db.name, "changed", f"Copies: now {db.copies} of each card (was {da.copies})")
        # per-suit orders, suits with the same change together
        groups: dict[tuple, list[str]] = {}
        for s in db.suits:
            if s not in da.suits or (s not in da.orders and s not in db.orders):
                continue  # a suit that ranks like the deck: the change of the deck's ranks says it
            old, new = da.order_of(s), db.order_of(s)
            if old != new:
                groups.setdefault((old, new), []).append(s)
        for (old, new), suits in groups.items():
            self.add("deck order", ", ".join(suits), "changed",
                     f"In {_and(suits)} {_order_change(old, new, db)}")
        for name in _names(da.groups, db.groups):
            ga, gb = da.groups.get(name), db.groups.get(name)
            if ga is None:
                self.add("deck", name, "added", f"Rank group {code(name)} added: {_and(gb)}")
            elif gb is None:
                self.add("deck", name, "removed", f"Rank group {code(name)} removed (it was {_and(ga)})")
            elif sorted(ga) != sorted(gb):
                self.add("deck", name, "changed", f"Rank group {code(name)} is now {_and(gb)} (was {_and(ga)})")
        for name in _names(da.values, db.values):
            va, vb = da.values.get(name), db.values.get(name)
            pairs = lambda v: ", ".join(f"{r} = {n}" for r, n in v.items())
            if va is None:
                self.add("deck", name, "added", f"Card value {code(name)} added: {pairs(vb)}")
            elif vb is None:
                self.add("deck", name, "removed", f"Card value {code(name)} removed (it was {pairs(va)})")
            elif va != vb:
                diff = [f"{r} = {vb.get(r, 'none')} (was {va.get(r, 'none')})" for r in _names(va, vb)
                        if va.get(r) != vb.get(r)]
                self.add("deck", name, "changed", f"Card value {code(name)}: {', '.join(diff)}")
        handled = {"loc", "name", "title", "suits", "ranks", "copies", "groups", "orders", "values", "texts", "notes"}
        for f in type(da).model_fields:
            if f not in handled and _ekey(getattr(da, f), {}) != _ekey(getattr(db, f), {}):
                self.add("deck", db.name, "changed", f"The deck's {_human(f)} changed")
        self.prose_lines("deck", db.name, "The deck's description", da.texts, db.texts)
        self.prose_lines("deck", db.name, "The deck's notes", da.notes, db.notes)

    # ---- named items
    def zones(self) -> None:
        za = {z.name: z for z in self.a.zones}
        zb = {z.name: z for z in self.b.zones}
        vis = {"hidden": "nobody sees its cards", "owner": "only its owner sees its cards",
               "public": "everyone sees its cards"}

        def describe(z: g.Zone) -> str:
            kind = "one per player" if z.per_player else (f"a shared family of {z.size}" if getattr(z, "size", None)
                                                          else "shared")
            return f"{kind}, {vis[z.visibility]}"

        for name in _names(za, zb):
            x, y = za.get(name), zb.get(name)
            label = f"Zone {code(name)}" + (f" ({_q((y or x).title)})" if (y or x).title else "")
            if x is None:
                self.add("zone", name, "added", f"{label} added: {describe(y)}")
            elif y is None:
                self.add("zone", name, "removed", f"{label} removed (it was {describe(x)})")
            else:
                if _item_key(x) != _item_key(y):
                    self.add("zone", name, "changed", f"{label} is now {describe(y)} (was {describe(x)})")
                if x.title != y.title:
                    self.add("zone", name, "changed",
                             f"Zone {code(name)} is now called {_q(y.title or '')} (was {_q(x.title or '')})", prose=True)
        sa = self.a.zones[0].name if self.a.zones else None
        sb = self.b.zones[0].name if self.b.zones else None
        if sa != sb and sa in zb and sb in za:
            self.add("zone", sb, "changed", f"All cards now start in zone {code(sb)} (was {code(sa)})")

    def options(self) -> None:
        oa = {o.name: o for o in self.a.options}
        ob = {o.name: o for o in self.b.options}
        for name in _names(oa, ob):
            x, y = oa.get(name), ob.get(name)
            if x is None:
                self.add("option", name, "added", f"Option {code(name)} added: {_allowed(y)}, default "
                         f"{_fmt(y.default)}" + (f" \u2014 {_q(y.description)}" if y.description else ""))
                continue
            if y is None:
                self.add("option", name, "removed", f"Option {code(name)} removed (it was {_allowed(x)}, default "
                         f"{_fmt(x.default)})")
                continue
            if (x.type, sorted(x.choices), x.low, x.high) != (y.type, sorted(y.choices), y.low, y.high):
                self.add("option", name, "changed", f"Option {code(name)} now takes {_allowed(y)} (was {_allowed(x)})")
            if x.default != y.default or type(x.default) is not type(y.default):
                about = f" \u2014 {_q(y.description)}" if y.description else ""
                self.add("option", name, "changed",
                         f"Option {code(name)}: the default is now {_fmt(y.default)} (was {_fmt(x.default)}){about}")
            handled = {"loc", "name", "type", "choices", "low", "high", "default", "description", "texts", "notes"}
            for f in type(x).model_fields:
                if f not in handled and _ekey(getattr(x, f), {}) != _ekey(getattr(y, f), {}):
                    self.add("option", name, "changed", f"Option {code(name)}: its {_human(f)} changed")
            if x.description != y.description:
                self.prose_lines("option", name, "", [x.description or ""], [y.description or ""],
                                 sentence=f"Option {code(name)}: its description changed")
            self.prose_lines("option", name, "", x.texts, y.texts, sentence=f"Option {code(name)}: its text changed")
            self.prose_lines("option", name, "", x.notes, y.notes, sentence=f"Option {code(name)}: its notes changed")

    def variables(self) -> None:
        va = {v.name: v for v in self.a.vars}
        vb = {v.name: v for v in self.b.vars}
        for name in _names(va, vb):
            x, y = va.get(name), vb.get(name)
            if x is None:
                self.add("variable", name, "added", f"Variable {code(name)} added: {_var(y)}")
            elif y is None:
                self.add("variable", name, "removed", f"Variable {code(name)} removed (it was {_var(x)})")
            elif _item_key(x) != _item_key(y):
                self.add("variable", name, "changed", f"Variable {code(name)} is now {_var(y)} (was {_var(x)})")

    def definitions(self) -> None:
        da = {d.name: d for d in self.a.defines}
        db = {d.name: d for d in self.b.defines}
        only_a = {n: _item_key(d) for n, d in da.items() if n not in db}
        renamed: dict[str, str] = {}
        for n, d in db.items():
            if n not in da:
                hit = next((m for m, k in only_a.items() if k == _item_key(d) and m not in renamed.values()), None)
                if hit is not None:
                    renamed[n] = hit
        for name in _names(da, db):
            x, y = da.get(name), db.get(name)
            if name in renamed.values():
                continue
            if name in renamed:
                self.add("definition", name, "changed",
                         f"Definition {code(renamed[name])} is now called {code(name)} (its meaning is the same: "
                         f"{_meaning(y, self.B)})", [f"source: {_src(_define_source(y))}"])
                continue
            if x is None:
                self.add("definition", name, "added",
                         f"Definition {code(name)} added: {_meaning(y, self.B)}",
                         [f"source: {_src(_define_source(y))}"])
                continue
            if y is None:
                self.add("definition", name, "removed",
                         f"Definition {code(name)} removed (it was: {_meaning(x, self.A)})",
                         [f"source was: {_src(_define_source(x))}"])
                continue
            same_play = _item_key(x) == _item_key(y)
            same_words = (x.texts, x.notes) == (y.texts, y.notes)
            if not same_play:
                details = [Detail(f"source now: {_src(_define_source(y))}", (f"was: {_src(_define_source(x))}",))]
                if x.texts != y.texts:
                    details.append(Detail(f"the author's words now: {_q(' '.join(y.texts)) if y.texts else '(none)'}",
                                          (f"were: {_q(' '.join(x.texts)) if x.texts else '(none)'}",)))
                elif y.texts:
                    details.append(Detail(f"the author's words (unchanged): {_q(' '.join(y.texts))}"))
                if x.notes != y.notes:
                    details.append(Detail(f"its note now: {_q(' '.join(y.notes)) if y.notes else '(none)'}",
                                          (f"was: {_q(' '.join(x.notes)) if x.notes else '(none)'}",)))
                if _params_key(x.params) != _params_key(y.params):
                    details.insert(0, Detail(f"it now applies to {_params_words(y.params)} "
                                             f"(was {_params_words(x.params)})"))
                self.add("definition", name, "changed",
                         f"Definition {code(name)}: before, {_q(self.A.define_words(x))}; "
                         f"now {_q(self.B.define_words(y))}", details)
            elif not same_words:
                details = []
                if x.texts != y.texts:
                    details.append(Detail(f"now: {_q(' '.join(y.texts)) if y.texts else '(none)'}",
                                          (f"was: {_q(' '.join(x.texts)) if x.texts else '(none)'}",)))
                if x.notes != y.notes:
                    details.append(Detail(f"its note now: {_q(' '.join(y.notes)) if y.notes else '(none)'}",
                                          (f"was: {_q(' '.join(x.notes)) if x.notes else '(none)'}",)))
                self.add("definition", name, "changed",
                         f"Definition {code(name)}: the author's words changed (its meaning did not)", details,
                         prose=True)

    def advice(self) -> None:
        aa = {x.name: x for x in self.a.advice}
        ab = {x.name: x for x in self.b.advice}

        def words(side, x) -> str:
            en = side.english({p.name: p.type for p in x.params})
            try:
                return en(x.body)
            except Exception:  # words are a courtesy; the source says it exactly
                return code(unparse(x.body))

        for name in _names(aa, ab):
            x, y = aa.get(name), ab.get(name)
            if x is None:
                self.add("advice", name, "added", f"Advice {code(name)} added: {_q(y.summary)}, precisely "
                         f"{_q(words(self.B, y))}", [f"source: {_src(_advice_source(y))}"])
            elif y is None:
                self.add("advice", name, "removed", f"Advice {code(name)} removed (it was {_q(x.summary)})",
                         [f"source was: {_src(_advice_source(x))}"])
            elif _item_key(x) != _item_key(y):
                self.add("advice", name, "changed", f"Advice {code(name)}: before, {_q(words(self.A, x))}; "
                         f"now {_q(words(self.B, y))}",
                         [Detail(f"source now: {_src(_advice_source(y))}", (f"was: {_src(_advice_source(x))}",))])
            elif (x.summary, x.texts, x.notes) != (y.summary, y.texts, y.notes):
                self.add("advice", name, "changed", f"Advice {code(name)}: the author's words changed "
                         f"(its meaning did not): now {_q(y.summary)}, was {_q(x.summary)}", prose=True)

    def interpretations(self) -> None:
        ia = {i.name: i for i in self.a.interpretations}
        ib = {i.name: i for i in self.b.interpretations}
        for name in _names(ia, ib):
            x, y = ia.get(name), ib.get(name)
            if x is None:
                self.add("interpretation", name, "added", f"Interpretation {code(name)} added: {_q(y.question)}",
                         [f"answer: {_q(' '.join(y.texts))}"] if y.texts else [], prose=True)
            elif y is None:
                self.add("interpretation", name, "removed", f"Interpretation {code(name)} removed: {_q(x.question)}",
                         prose=True)
            elif _ekey(x, {}) != _ekey(y, {}):
                details = []
                if x.question != y.question:
                    details.append(Detail(f"question now: {_q(y.question)}", (f"was: {_q(x.question)}",)))
                if x.texts != y.texts:
                    details.append(Detail(f"answer now: {_q(' '.join(y.texts))}", (f"was: {_q(' '.join(x.texts))}",)))
                if x.notes != y.notes:
                    details.append(Detail(f"note now: {_q(' '.join(y.notes))}", (f"was: {_q(' '.join(x.notes))}",)))
                self.add("interpretation", name, "changed", f"Interpretation {code(name)} ({_q(y.question)}) changed",
                         details, prose=True)

    # ---- phases, procedures and their rules
    def phases_and_procedures(self) -> None:
        A, B = self.A, self.B
        # rule name -> events, per side of the report
        rule_events: dict[str, list[_Event]] = {}
        rule_prose: dict[str, list[_Event]] = {}
        cont_events: dict[tuple[str, str], list[_Event]] = {}
        cont_prose: dict[tuple[str, str], list[_Event]] = {}
        cont_pairs: dict[tuple[str, str], dict[int, int]] = {}
        headers_added: dict[str, tuple[tuple[str, str], _Line]] = {}
        headers_removed: dict[str, tuple[tuple[str, str], _Line]] = {}
        conts = [c for c in B.lines] + [c for c in A.lines if c not in B.lines]
        for cont in conts:
            la, lb = A.lines.get(cont), B.lines.get(cont)
            if la is None or lb is None:
                self.container_added_removed(cont, la, lb)
                for ln in (lb or la):
                    if ln.part == "rule":
                        (headers_added if lb is not None else headers_removed)[ln.node.name] = (cont, ln)
                continue
            self.container_header(cont)
            cont_pairs[cont], events, prose = _align(la, lb)
            for ev in events:
                ln = ev.b or ev.a
                if ln.part == "rule" and ev.action != "changed":
                    (headers_added if ev.action == "added" else headers_removed)[ln.node.name] = (cont, ln)
                    continue
                owner = ln.rule
                if owner is None:
                    cont_events.setdefault(cont, []).append(ev)
                else:
                    rule_events.setdefault(owner, []).append(ev)
            for ev in prose:
                owner = (ev.b or ev.a).rule
                if owner is None:
                    cont_prose.setdefault(cont, []).append(ev)
                else:
                    rule_prose.setdefault(owner, []).append(ev)
        moved = [n for n in headers_added if n in headers_removed]
        # a rule taken out of one place and put in another: compare it on its own
        for name in moved:
            (ca, ha), (cb, hb) = headers_removed[name], headers_added[name]
            outer = cont_pairs.get(ca) if ca == cb else None
            _, events, prose = _align(_rule_lines(A.lines[ca], ha), _rule_lines(B.lines[cb], hb), outer,
                                      (A.lines[ca], B.lines[cb]))
            if ca != cb or _rank_among(A.lines[ca], B.lines[cb], name) is not None:
                events = [_Event("moved", ha, hb)] + events
            rule_events[name] = events
            rule_prose[name] = prose
        for name, (cont, ln) in headers_added.items():
            if name not in headers_removed and cont in A.lines:
                when = f", applied only when {B.expr_words(ln.node.when, ln.scope, True)}" \
                    if ln.node.when is not None else ""
                self.add("rule", name, "added", f"{_cap(B.rule_label(name))} added to {B.place(cont)}{when}. "
                         "Its steps:", _rule_body_details(B, B.lines[cont], ln))
        for name, (cont, ln) in headers_removed.items():
            if name not in headers_added and cont in B.lines:
                self.add("rule", name, "removed", f"{_cap(A.rule_label(name))} removed from {A.place(cont)}")
        # events of rules that were themselves added or removed are covered by that
        for name in list(rule_events):
            if (name in headers_added) != (name in headers_removed):
                rule_events.pop(name)
                rule_prose.pop(name, None)
        names = [n for n in B.rules if n in rule_events or n in rule_prose] + \
                [n for n in A.rules if n not in B.rules and (n in rule_events or n in rule_prose)]
        for name in names:
            if rule_events.get(name):
                self.rule_changed(name, rule_events[name])
            if rule_prose.get(name):
                self.rule_prose(name, rule_prose[name])
        for cont in conts:
            if cont_events.get(cont):
                self.container_steps(cont, cont_events[cont])
            if cont_prose.get(cont):
                self.container_prose(cont, cont_prose[cont])

    def container_added_removed(self, cont, la, lb) -> None:
        kind, name = cont
        side = self.B if lb is not None else self.A
        node = side.phases.get(name) if kind == "phase" else side.procs.get(name)
        rules = [ln.node.name for ln in (lb or la) if ln.part == "rule"]
        title = f" ({em(node.title)})" if getattr(node, "title", None) else ""
        with_rules = f", with {'rule' if len(rules) == 1 else 'rules'} {_and(code(r) for r in rules)}" if rules else ""
        if lb is not None:
            details = [Detail(_step_words(side, ln), depth=ln.depth) for ln in lb]
            self.add(kind, name, "added", f"{_cap(kind)} {code(name)}{title} added{with_rules}", details)
        else:
            self.add(kind, name, "removed", f"{_cap(kind)} {code(name)}{title} removed{with_rules}")

    def container_header(self, cont) -> None:
        kind, name = cont
        if kind == "phase":
            x, y = self.A.phases[name], self.B.phases[name]
            if x.then != y.then:
                now = f"continues with phase {code(y.then)}" if y.then else "ends the game"
                was = f"continued with phase {code(x.then)}" if x.then else "ended the game"
                self.add("phase", name, "changed", f"Phase {code(name)}: when it is over, the game now {now} "
                         f"(it {was})")
            if x.title != y.title:
                self.add("phase", name, "changed", f"Phase {code(name)} is now titled {_q(y.title or '')} "
                         f"(was {_q(x.title or '')})", prose=True)
            self.prose_lines("phase", name, "", x.texts, y.texts, sentence=f"Phase {code(name)}: its text changed")
            self.prose_lines("phase", name, "", x.notes, y.notes, sentence=f"Phase {code(name)}: its notes changed")
            handled = {"loc", "name", "title", "then", "body", "texts", "notes"}
        else:
            x, y = self.A.procs[name], self.B.procs[name]
            if _params_key(x.params) != _params_key(y.params):
                self.add("procedure", name, "changed", f"Procedure {code(name)} now takes "
                         f"{_params_words(y.params)} (was {_params_words(x.params)})")
            self.prose_lines("procedure", name, "", x.texts, y.texts,
                             sentence=f"Procedure {code(name)}: its text changed")
            self.prose_lines("procedure", name, "", x.notes, y.notes,
                             sentence=f"Procedure {code(name)}: its notes changed")
            handled = {"loc", "name", "params", "body", "texts", "notes"}
        for f in type(x).model_fields:
            if f not in handled and _ekey(getattr(x, f), {}) != _ekey(getattr(y, f), {}):
                self.add(kind, name, "changed", f"{_cap(kind)} {code(name)}: its {_human(f)} changed")

    def step_details(self, ev: _Event, lines_a, lines_b) -> list[Detail]:
        A, B = self.A, self.B

        def under(side, lines, ln):
            if ln.parent is None or lines[ln.parent].part == "rule":
                return ""
            return f" (under {_src(_line_source(lines[ln.parent]), 70)})"

        if ev.action == "moved":
            return []
        if ev.action == "step moved":
            pa = _line_source(lines_a[ev.a.parent]) if ev.a.parent is not None else None
            pb = _line_source(lines_b[ev.b.parent]) if ev.b.parent is not None else None
            if pa != pb:
                where = f"now under {_src(pb, 70)}" if pb else "now at the top level"
                where += f" (was under {_src(pa, 70)})" if pa else " (was at the top level)"
            else:
                before = [ln for ln in lines_b[:ev.b.index] if ln.parent == ev.b.parent and ln.depth == ev.b.depth]
                first = "the rule" if ev.b.parent is not None and lines_b[ev.b.parent].part == "rule" else "its block"
                where = f"now after {_q(B.words(before[-1]))}" if before else f"now the first step of {first}"
            more = f", with the {ev.under} step{'s' if ev.under != 1 else ''} inside it" if ev.under else ""
            return [Detail(f"step moved: {_q(B.words(ev.b))}{more}, {where}",
                           (f"source: {_src(_line_source(ev.b))}",))]
        if ev.action == "added":
            return [Detail(f"step added{under(B, lines_b, ev.b)}: {_q(B.words(ev.b))}",
                           (f"source: {_src(_line_source(ev.b))}",))]
        if ev.action == "removed":
            return [Detail(f"step removed{under(A, lines_a, ev.a)}: {_q(A.words(ev.a))}",
                           (f"source was: {_src(_line_source(ev.a))}",))]
        if ev.b.part == "rule":
            return [Detail(f"its condition: before, {_q(A.expr_words(ev.a.node.when, ev.a.scope, True)) if ev.a.node.when is not None else 'always'}; "
                           f"now {_q(B.expr_words(ev.b.node.when, ev.b.scope, True)) if ev.b.node.when is not None else 'always'}",
                           (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]
        part = self.changed_part(ev)
        if part is not None:
            ident = f"the move {code(ev.b.node.name)}" if ev.b.part == "action" else \
                f"the {code(_line_source(ev.b).split()[0].rstrip(':'))} step"
            return [Detail(f"{ident}{under(B, lines_b, ev.b)}: {part}",
                           (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]
        wa, wb = A.words(ev.a), B.words(ev.b)
        text = f"step changed{under(B, lines_b, ev.b)}: now {_q(wb)}"
        if _plain(wa) != _plain(wb):
            text += f" (was {_q(wa)})"
        else:
            text += " (the same words, but the value it uses is bound elsewhere)"
        return [Detail(text, (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]

    def changed_part(self, ev: _Event) -> str | None:
        """When one expression of a statement changed, that expression in words, before and after."""
        x, y = ev.a, ev.b
        if x.part != y.part or type(x.node) is not type(y.node) or x.key[1] != y.key[1]:
            return None
        fa = {f: v for f, v in x.key[2:] if isinstance(f, str)} if all(
            isinstance(t, tuple) and len(t) == 2 for t in x.key[2:]) else None
        fb = {f: v for f, v in y.key[2:] if isinstance(f, str)} if all(
            isinstance(t, tuple) and len(t) == 2 for t in y.key[2:]) else None
        if not fa or not fb or fa.keys() != fb.keys():
            return None
        differ = [f for f in fa if _loose(fa[f]) != _loose(fb[f])]
        if len(differ) != 1:
            return None
        f = differ[0]
        ea, eb = getattr(x.node, f, None), getattr(y.node, f, None)
        if not isinstance(ea, g.Node) or not isinstance(eb, g.Node) or isinstance(ea, _STMTS) or isinstance(eb, _STMTS):
            return None
        cond = f in ("test", "where", "when", "face_up")
        scope_a, scope_b = x.scope, y.scope
        if x.part == "action" and f == "when":  # an action's `when` does not see its parameter
            scope_a = {k: v for k, v in scope_a.items() if k != x.node.var}
            scope_b = {k: v for k, v in scope_b.items() if k != y.node.var}
        what = _FIELD_WORDS.get(f, f"its {_human(f)}")
        return f"{what} is now {_q(self.B.expr_words(eb, scope_b, cond))} (was {_q(self.A.expr_words(ea, scope_a, cond))})"

    def rule_changed(self, name: str, events: list[_Event]) -> None:
        A, B = self.A, self.B
        cont_b, _ = B.rules.get(name) or A.rules[name]
        cont_a, _ = A.rules.get(name) or B.rules[name]
        lines_a, lines_b = A.lines.get(cont_a, []), B.lines.get(cont_b, [])
        bits, details = [], []
        if events and events[0].action == "moved":
            bits.append(f"it moved from {A.place(cont_a)} to {B.place(cont_b)}" if cont_a != cont_b
                        else "it moved to another place in the same " + cont_b[0])
        cond = [e for e in events if e.action == "changed" and e.b.part == "rule"]
        if cond:
            bits.append("its condition")
        events = cond + [e for e in events if e not in cond]
        events = _pair_moves(events)
        steps = [e for e in events if e not in cond and e.action != "moved"]
        counts = {k: sum(1 for e in steps if e.action == k) for k in ("added", "removed", "changed", "step moved")}
        words = [f"{n} step{'s' if n != 1 else ''} {k.split()[-1]}" for k, n in counts.items() if n]
        if words:
            bits.append(_and(words))
        for ev in events:
            details += self.step_details(ev, lines_a, lines_b)
        where = B.place(cont_b) if name in B.rules else A.place(cont_a)
        label = B.rule_label(name) if name in B.rules else A.rule_label(name)
        self.add("rule", name, "changed", f"{_cap(label)}, in {where}, changed: {'; '.join(bits)}", details)

    def rule_prose(self, name: str, events: list[_Event]) -> None:
        details = []
        for ev in events:
            details += _prose_details(ev)
        label = self.B.rule_label(name) if name in self.B.rules else self.A.rule_label(name)
        self.add("rule", name, "changed", f"{_cap(label)}: the author's words changed", details, prose=True)

    def container_steps(self, cont, events: list[_Event]) -> None:
        kind, name = cont
        lines_a, lines_b = self.A.lines[cont], self.B.lines[cont]
        events = _pair_moves(events)
        counts = {k: sum(1 for e in events if e.action == k) for k in ("added", "removed", "changed", "step moved")}
        words = _and(f"{n} step{'s' if n != 1 else ''} {k.split()[-1]}" for k, n in counts.items() if n)
        details = []
        for ev in events:
            details += self.step_details(ev, lines_a, lines_b)
        outside = " outside its rules" if any(ln.part == "rule" for ln in lines_b) else ""
        self.add(kind, name, "changed", f"{_cap(self.B.place(cont))}{outside}: {words}", details)

    def container_prose(self, cont, events: list[_Event]) -> None:
        details = []
        for ev in events:
            details += _prose_details(ev)
        self.add(cont[0], cont[1], "changed", f"{_cap(self.B.place(cont))}: the words of a step changed",
                 details, prose=True)


_FIELD_WORDS = {
    "where": "the condition on its choice (where)", "when": "its condition (when)", "test": "its test",
    "value": "the value", "what": "what it moves", "to": "where the cards go", "face_up": "when they lie face up",
    "count": "how many cards", "source": "where the cards come from", "domain": "what it ranges over",
    "by": "who chooses", "at": "the player it starts from", "zone": "the zone", "who": "who wins",
    "index": "whose value it sets",
}


def _pair_moves(events: list[_Event]) -> list[_Event]:
    """An added and a removed line that say the same thing are one line moved."""
    removed = [e for e in events if e.action == "removed"]
    out = []
    for ev in events:
        if ev.action == "added":
            hit = next((r for r in removed if r.a.loose[1:] == ev.b.loose[1:]), None)
            if hit is not None:
                removed.remove(hit)
                out.append(_Event("step moved", hit.a, ev.b))
                continue
        out.append(ev)
    out = [e for e in out if e.action != "removed" or e in removed]
    # a block moved with everything in it is one step moved
    top: dict[int, _Event] = {}
    partner: dict[int, int] = {}
    kept = []
    for ev in out:
        if ev.action == "step moved":
            partner[ev.a.index] = ev.b.index
            owner = top.get(ev.b.parent)
            if owner is not None and ev.a.parent is not None and partner.get(ev.a.parent) == ev.b.parent:
                owner.under += 1
                top[ev.b.index] = owner
                continue
            top[ev.b.index] = ev
        kept.append(ev)
    return kept


def _prose_details(ev: _Event) -> list[Detail]:
    x, y = ev.a, ev.b
    out = []
    if x.part == "rule":
        (ta, xa, na), (tb, xb, nb) = x.prose, y.prose
        if ta != tb:
            out.append(Detail(f"title now: {_q(tb or '')}", (f"was: {_q(ta or '')}",)))
        if xa != xb:
            out.append(Detail(f"text now: {_q(' '.join(xb)) if xb else '(none)'}",
                              (f"was: {_q(' '.join(xa)) if xa else '(none)'}",)))
        if na != nb:
            out.append(Detail(f"note now: {_q(' '.join(nb)) if nb else '(none)'}",
                              (f"was: {_q(' '.join(na)) if na else '(none)'}",)))
    elif x.part == "action":
        out.append(Detail(f"the move {code(y.node.name)} is now labelled {_q(y.prose[0] or '')}",
                          (f"was: {_q(x.prose[0] or '')}",)))
    else:
        out.append(Detail(f"{_src(_line_source(y))}: its words changed", (f"was: {_src(_line_source(x))}",)))
    return out


def _rank_among(la: list[_Line], lb: list[_Line], name: str):
    """Where a rule stands among the rules both blocks have, when that changed (else None)."""
    ra = [ln.node.name for ln in la if ln.part == "rule"]
    rb = [ln.node.name for ln in lb if ln.part == "rule"]
    common_a = [n for n in ra if n in rb]
    common_b = [n for n in rb if n in ra]
    if name not in common_a or common_a.index(name) == common_b.index(name):
        return None
    return common_b.index(name)


def _rule_lines(lines: list[_Line], header: _Line) -> list[_Line]:
    """A rule's header and every line nested under it."""
    out = [header]
    for ln in lines[header.index + 1:]:
        if ln.depth <= header.depth:
            break
        out.append(ln)
    return out


def _rule_body_details(side: _Side, lines: list[_Line], header: _Line) -> list[Detail]:
    return [Detail(_step_words(side, ln), depth=ln.depth - header.depth - 1)
            for ln in _rule_lines(lines, header)[1:]]


def _step_words(side: _Side, ln: _Line) -> str:
    text = side.words(ln).rstrip()
    if ln.part in ("if", "elif", "else", "choose", "block", "field", "rule") and not text.endswith(":"):
        text = text.rstrip(".") + ":"
    return text


def _item_key(node) -> tuple:
    """A named top-level item's meaning: every field but its name and prose, parameters by position."""
    env = _params_env(getattr(node, "params", ()))
    return tuple((f, _params_key(getattr(node, f)) if f == "params" else _ekey(getattr(node, f), env))
                 for f in _fields(node) if f not in _PROSE and f != "name")


def _names(a: dict, b: dict) -> list[str]:
    """B's names in B's order, then those only A has, in A's order."""
    return list(b) + [n for n in a if n not in b]


def _players(lo: int, hi: int, short: bool = False) -> str:
    if lo == hi:
        text = f"{lo}"
    elif hi == lo + 1:
        text = f"{lo} or {hi}"
    else:
        text = f"{lo} to {hi}"
    return text if short else text + (" player" if lo == hi == 1 else " players")


def _winner(w: g.Winner | None) -> str:
    if w is None:
        return "no winner rule"
    return f"the player(s) with the {w.rule} {code(w.score)}"


def _allowed(o: g.Option) -> str:
    if o.type == "bool":
        return "true or false"
    if o.type == "enum":
        return "one of " + ", ".join(o.choices)
    if o.low is not None and o.high is not None:
        return f"a whole number from {o.low} to {o.high}"
    return "a whole number"


def _var(v: g.Var) -> str:
    text = f"{'one per player, ' if getattr(v, 'params', ()) else ''}of type {v.type}"
    if v.init is not None:
        text += f", at first {code(unparse(v.init))}"
    return text


def _params_words(params) -> str:
    if not params:
        return "nothing"
    return _and(f"{p.name}: {p.type}" for p in params)


def _define_source(d: g.Define) -> str:
    sig = d.name + (f"({', '.join(f'{p.name}: {p.type}' for p in d.params)})" if d.params else "")
    return f"define {sig} = {unparse(d.body)}"


def _advice_source(a: g.Advice) -> str:
    sig = f"{a.name}({', '.join(f'{p.name}: {p.type}' for p in a.params)})"
    return f"advice {sig} = {unparse(a.body)} {_q(a.summary)}"


def _meaning(d: g.Define, side: _Side) -> str:
    text = _q(side.define_words(d))
    if d.texts:
        text = f"{_q(' '.join(d.texts))}, precisely {text}"
    return text


def diff_rulesets(a: g.Ruleset, b: g.Ruleset) -> Diff:
    """What b adds, removes or changes relative to a (both loaded rulesets)."""
    return _Differ(a, b).run()


# ------------------------------------------------------------------ the rulebook redline


def _book_lines(rs: g.Ruleset) -> list[str]:
    return render_markdown(rs).splitlines()


def _unified(a_lines, b_lines, la: str, lb: str) -> list[str]:
    return list(difflib.unified_diff(a_lines, b_lines, fromfile=la, tofile=lb, lineterm="", n=3))


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


def _word_diff(old: str, new: str) -> str | None:
    """One line with deleted words in <del> and inserted words in <ins> (escaped HTML), or
    None when the line changed in too many places to read that way."""
    ta, tb = _TOKEN.findall(old), _TOKEN.findall(new)
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if sum(1 for op in sm.get_opcodes() if op[0] != "equal") > 3:
        return None
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        a, b = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if tag == "equal":
            out.append(str(escape(a)))
            continue
        if a:
            out.append(f"<del>{escape(a)}</del>")
        if b:
            out.append(f"<ins>{escape(b)}</ins>")
    return "".join(out)


def _heading_before(lines: list[str], i: int) -> str | None:
    for k in range(min(i, len(lines) - 1), -1, -1):
        m = re.match(r"#{1,6} (.*)", lines[k])
        if m:
            return m.group(1).strip()
    return None


def _redline_html(a_lines: list[str], b_lines: list[str]) -> str:
    sm = difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    groups = list(sm.get_grouped_opcodes(2))
    if not groups:
        return '<p class="same">The two rulebooks are identical, line for line.</p>\n'
    rows = []
    for grp in groups:
        i0, j0 = grp[0][1], grp[0][3]
        where = _heading_before(b_lines, j0)
        rows.append(f'<tr class="hunk"><th colspan="4">Book lines {i0 + 1}\u2013{grp[-1][2]} before, '
                    f'{j0 + 1}\u2013{grp[-1][4]} after'
                    + (f' \u00b7 in \u201c{escape(where)}\u201d' if where else "") + "</th></tr>")
        for tag, i1, i2, j1, j2 in grp:
            if tag == "equal":
                for i, j in zip(range(i1, i2), range(j1, j2)):
                    rows.append(_row("same", i + 1, j + 1, "", str(escape(a_lines[i]))))
                continue
            k = min(i2 - i1, j2 - j1) if tag == "replace" else 0
            words = [_word_diff(a_lines[i1 + n], b_lines[j1 + n]) for n in range(k)]
            if any(w is None for w in words):  # read better as the old lines, then the new
                k, words = 0, []
            for n in range(k):
                rows.append(_row("chg", i1 + n + 1, j1 + n + 1, "~", words[n]))
            for i in range(i1 + k, i2):
                rows.append(_row("del", i + 1, "", "\u2212", f"<del>{escape(a_lines[i])}</del>"))
            for j in range(j1 + k, j2):
                rows.append(_row("ins", "", j + 1, "+", f"<ins>{escape(b_lines[j])}</ins>"))
    return ('<table class="redline">\n<thead><tr><th class="n">before</th><th class="n">after</th>'
            '<th class="m"></th><th>rulebook text (Markdown)</th></tr></thead>\n<tbody>\n'
            + "\n".join(rows) + "\n</tbody>\n</table>\n")


def _row(cls, na, nb, mark, html) -> str:
    return (f'<tr class="{cls}"><td class="n">{na}</td><td class="n">{nb}</td><td class="m">{mark}</td>'
            f"<td>{html or '&nbsp;'}</td></tr>")


# ------------------------------------------------------------------ rendering a diff

_DIFF_CSS = """
/* The diff page: the change list, then the rulebook redline. */
ul.changes { padding-left: 1.2rem; margin: 0.3rem 0 0.8rem; }
ul.changes > li { margin: 0 0 0.7rem; break-inside: avoid; page-break-inside: avoid; }
ul.changes ul { margin: 0.2rem 0 0; padding-left: 1.1rem; color: var(--muted); font-size: 0.95rem; }
ul.changes ul ul { list-style: none; padding-left: 1rem; }
.tag {
  display: inline-block; margin-right: 0.4em; padding: 0 0.45em; border-radius: 0.8em;
  font-family: "Gill Sans", "Trebuchet MS", "Segoe UI", sans-serif; font-size: 0.68rem;
  font-weight: 600; letter-spacing: 0.05em; text-transform: uppercase; vertical-align: 0.1em;
  border: 1px solid var(--line); color: var(--muted);
}
.tag.added { border-color: #2f6b2f; color: #2f6b2f; }
.tag.removed { border-color: #9b1c1c; color: #9b1c1c; }
.tag.changed { border-color: var(--accent); color: var(--accent); }
.summary { font-size: 1.05rem; }
p.same { font-style: italic; }
table.redline { font-size: 0.82rem; table-layout: fixed; }
table.redline td, table.redline th { padding: 0.1rem 0.35rem; border-bottom: 0; }
table.redline td { white-space: pre-wrap; overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table.redline .n { width: 3.2em; text-align: right; color: var(--muted); font-family: inherit; }
table.redline .m { width: 1.2em; text-align: center; font-weight: 600; }
table.redline th.n, table.redline th.m { font-weight: 400; }
table.redline tr.hunk th {
  padding-top: 0.9rem; border-bottom: 1px solid var(--line); font-weight: 600; color: var(--accent);
}
table.redline tr.same td { color: var(--muted); }
table.redline tr.del td { background: #fbecec; }
table.redline tr.ins td { background: #edf6ec; }
table.redline tr.chg td { background: #fbf6e6; }
del { color: #9b1c1c; text-decoration: line-through; background: #f6d5d5; }
ins { color: #235c23; text-decoration: underline; background: #d8eed5; }
@media print {
  table.redline { font-size: 7.5pt; }
  del, ins { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  table.redline tr td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _count_words(diff: Diff) -> str:
    r, p = len(diff.rule_changes), len(diff.prose_changes)
    if not r and not p:
        return "No changes: the two rulesets are identical in meaning."
    rules = f"{r} change{'s' if r != 1 else ''} to the rules" if r else "no change to the rules"
    prose = f"{p} to the prose" if r and p else (f"{p} change{'s' if p != 1 else ''} to the prose" if p else "")
    text = rules + (f" and {prose}" if prose else "")
    if not r:
        text += " (the play is the same; only the author's words differ)"
    return _cap(text) + "."


def _sections(changes: Iterable[Change]) -> list[tuple[str, str, list[Change]]]:
    by: dict[int, list[Change]] = {}
    for c in changes:
        by.setdefault(_SECTION_OF.get(c.kind, len(SECTIONS)), []).append(c)
    out = []
    for i in sorted(by):
        sid, title = SECTIONS[i][:2] if i < len(SECTIONS) else ("other", "Other")
        out.append((sid, title, by[i]))
    return out


def _sentence(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":", "\u201d")) else text + "."


def render_diff(diff: Diff, a: g.Ruleset, b: g.Ruleset, fmt: str = "text",
                labels: tuple[str, str] | None = None, redline: bool = True) -> str:
    """The diff as plain text ("text"), Markdown ("md") or a standalone HTML page ("html"):
    the changes in words first, then the rulebook redline (a unified diff of the two Markdown
    books, or in HTML a table with deletions and insertions marked word by word)."""
    labels = labels or (a.source, b.source)
    if fmt not in ("text", "md", "html"):
        raise ValueError(f"unknown format {fmt!r}; expected text, md or html")
    book_a, book_b = (_book_lines(a), _book_lines(b)) if redline else ([], [])
    return {"text": _render_text, "md": _render_md, "html": _render_html}[fmt](
        diff, labels, book_a, book_b, redline)


def _wrap(text: str, indent: str, hang: str, width: int = 96) -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=hang,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def _render_text(diff: Diff, labels, book_a, book_b, redline) -> str:
    out = [f"{diff.b_title} ({labels[1]})", f"compared with {diff.a_title} ({labels[0]})", "",
           _count_words(diff)]
    for heading, changes in (("Changes to the rules", diff.rule_changes), ("Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += ["", heading, "=" * len(heading)]
        for _, title, items in _sections(changes):
            out += ["", title]
            for c in items:
                out += _wrap(_sentence(_plain(c.marked)), "  * ", "    ")
                for d in c.details:
                    pad = "  " * d.depth
                    out += _wrap(_plain(d.marked), "      " + pad + "- ", "        " + pad)
                    for s in d.sub:
                        out += _wrap(_plain(s), "          " + pad, "            " + pad)
    if redline:
        heading = "Rulebook redline (the Markdown books: - before, + after)"
        out += ["", heading, "=" * len(heading)]
        lines = _unified(book_a, book_b, labels[0], labels[1])
        out += lines if lines else ["The two rulebooks are identical, line for line."]
    return "\n".join(out).rstrip("\n") + "\n"


def _render_md(diff: Diff, labels, book_a, book_b, redline) -> str:
    out = [f"# What changes: {diff.b_title}", "",
           f"Compared with **{diff.a_title}**: `{labels[0]}` \u2192 `{labels[1]}`.", "",
           _count_words(diff)]
    for heading, changes in (("Changes to the rules", diff.rule_changes), ("Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += ["", f"## {heading}"]
        for _, title, items in _sections(changes):
            out += ["", f"### {title}", ""]
            for c in items:
                out.append(f"- {_sentence(_md(c.marked))}")
                for d in c.details:
                    pad = "  " * d.depth
                    out.append(f"  {pad}- {_md(d.marked)}")
                    for s in d.sub:
                        out.append(f"    {pad}- {_md(s)}")
    if redline:
        out += ["", "## Rulebook redline", "",
                "The printed rulebooks, as Markdown, in a unified diff: lines starting with `-` are only in "
                f"the book of {diff.a_title}, lines starting with `+` only in the book of {diff.b_title}.", ""]
        lines = _unified(book_a, book_b, labels[0], labels[1])
        if lines:
            longest = max((len(m) for ln in lines for m in re.findall(r"`+", ln)), default=0)
            fence = "`" * max(3, longest + 1)
            out += [fence + "diff", *lines, fence]
        else:
            out.append("The two rulebooks are identical, line for line.")
    text = "\n".join(out)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return text.rstrip("\n") + "\n"


def _render_html(diff: Diff, labels, book_a, book_b, redline) -> str:
    css = (TEMPLATES / "rulebook.css").read_text(encoding="utf-8")
    e = escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="generator" content="cardrules">',
           f"<title>What changes: {e(diff.b_title)}</title>", "<style>", css.rstrip("\n"), _DIFF_CSS.strip("\n"),
           "</style>", "</head>", "<body>", '<header id="top">', f"<h1>What changes: {e(diff.b_title)}</h1>",
           f'<p class="subtitle">compared with {e(diff.a_title)}</p>',
           f'<p class="meta"><code>{e(labels[0])}</code> \u2192 <code>{e(labels[1])}</code></p>',
           f'<p class="summary">{e(_count_words(diff))}</p>']
    toc = []
    if diff.rule_changes:
        toc.append(("rules", "Changes to the rules"))
    if diff.prose_changes:
        toc.append(("prose", "Changes to the prose"))
    if redline:
        toc.append(("redline", "Rulebook redline"))
    if toc:
        out += ['<nav class="toc">', "<ol>"] + [f'<li><a href="#{i}">{e(t)}</a></li>' for i, t in toc] + \
               ["</ol>", "</nav>"]
    out.append("</header>")
    for sid, heading, changes in (("rules", "Changes to the rules", diff.rule_changes),
                                  ("prose", "Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += [f'<section id="{sid}">', f"<h2>{heading}</h2>"]
        for sec, title, items in _sections(changes):
            out += [f'<h3 id="{sid}-{sec}">{e(title)}</h3>', '<ul class="changes">']
            for c in items:
                li = f'<li><span class="tag {c.action}">{c.action}</span>{_html(_sentence(c.marked))}'
                if c.details:
                    li += "\n<ul>"
                    for d in c.details:
                        style = f' style="margin-left: {1.2 * d.depth:g}em"' if d.depth else ""
                        li += f"\n<li{style}>{_html(d.marked)}"
                        if d.sub:
                            li += "<ul>" + "".join(f"<li>{_html(s)}</li>" for s in d.sub) + "</ul>"
                        li += "</li>"
                    li += "\n</ul>"
                out.append(li + "</li>")
            out.append("</ul>")
        out.append("</section>")
    if redline:
        out += ['<section id="redline" class="major">', "<h2>Rulebook redline</h2>",
                f"<p>The printed rulebooks line by line, as Markdown: <del>struck out</del> is only in the book of "
                f"{e(diff.a_title)}, <ins>underlined</ins> only in the book of {e(diff.b_title)}; a line marked "
                f"~ changed in place. Two unchanged lines are shown around each change.</p>",
                _redline_html(book_a, book_b).rstrip("\n"), "</section>"]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ files


_VARIANT_RE = re.compile(r'^[ \t]*variant[ \t]+\w+(?:[ \t]+"[^"\n]*")?[ \t]+of[ \t]+"([^"\n]*)"', re.M)


def variant_base(path: Path) -> Path | None:
    """The base file a variant names in its header (`variant NAME "Title" of "base.cards"`), or None."""
    text = Path(path).read_text(encoding="utf-8")
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _VARIANT_RE.match(line)
        return Path(path).parent / m.group(1) if m else None
    return None


def variant_pages(rulesets_dir: Path, out_dir: Path) -> list[tuple[Path, str]]:
    """(path, text) of every diff page: each variant under rulesets_dir against its base, as
    out_dir/<folder>/<variant>.md and .html. Nothing is written."""
    from . import load_ruleset

    rulesets_dir, out_dir = Path(rulesets_dir), Path(out_dir)
    loaded: dict[Path, g.Ruleset] = {}

    def load(p: Path) -> g.Ruleset:
        key = p.resolve()
        if key not in loaded:
            loaded[key] = load_ruleset(p)
        return loaded[key]

    def label(p: Path) -> str:
        try:
            return (Path(rulesets_dir.name) / p.resolve().relative_to(rulesets_dir.resolve())).as_posix()
        except ValueError:
            return p.name

    pages = []
    for path in sorted(rulesets_dir.glob("**/*.cards")):
        base = variant_base(path)
        if base is None:
            continue
        a, b = load(base), load(path)
        diff = diff_rulesets(a, b)
        labels = (label(base), label(path))
        folder = out_dir / path.parent.relative_to(rulesets_dir)
        pages.append((folder / f"{path.stem}.md", render_diff(diff, a, b, "md", labels)))
        pages.append((folder / f"{path.stem}.html", render_diff(diff, a, b, "html", labels)))
    return pages


def write_variant_diffs(rulesets_dir: Path, out_dir: Path) -> list[Path]:
    """Write the diff page of every variant against its base (Markdown and HTML) under out_dir;
    everything is rendered before anything is written, each file atomically."""
    pages = variant_pages(rulesets_dir, out_dir)
    for path, text in pages:
        _write_atomic(path, text)
    return [p for p, _ in pages]


# ------------------------------------------------------------------ the command


class Format(str, Enum):
    text = "text"
    md = "md"
    html = "html"


def diff_command(
    a: Annotated[Path, typer.Argument(metavar="A", help="The ruleset before (usually the base game).", show_default=False)],
    b: Annotated[Path, typer.Argument(metavar="B", help="The ruleset after (usually a variant of it).", show_default=False)],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text for a terminal, md, or html (a printable page).")] = Format.text,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of the terminal.")] = None,
    redline: Annotated[bool, typer.Option("--redline/--no-redline", help="Add the rulebook redline after the list of changes.")] = True,
    play: Annotated[int, typer.Option("--play", metavar="K", min=0, help="Also play K games of each with random players (same seeds) and add a table of what changes in play.")] = 0,
) -> None:
    """Compare two rulesets by meaning, not text: what B adds, removes or changes relative to A,
    then the two rulebooks as a redline. Exit 0 identical in meaning, 1 different, 2 an error."""
    from . import load_ruleset

    rulesets = []
    for p in (a, b):
        try:
            rulesets.append(load_ruleset(p))
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        except OSError as e:
            typer.echo(f"{p}: error: cannot read the ruleset: {e.strerror or e}", err=True)
            raise typer.Exit(2)
    ra, rb = rulesets
    diff = diff_rulesets(ra, rb)
    text = render_diff(diff, ra, rb, fmt.value, labels=(str(a), str(b)), redline=redline)
    if play:
        from .balance import comparison_table, play_comparison
        from .errors import OptionError
        try:
            table = comparison_table(play_comparison(ra, rb, (str(a), str(b)), play), fmt.value)
        except OptionError as e:
            typer.echo(f"error: {e.message}", err=True)
            raise typer.Exit(2)
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        if fmt.value == "html" and "</body>" in text:
            text = text.replace("</body>", table + "</body>", 1)
        else:
            text = text.rstrip("\n") + "\n\n" + table
    if out is not None:
        try:
            _write_atomic(out, text)
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        typer.echo(str(out))
    else:
        typer.echo(text, nl=False)
    raise typer.Exit(0 if diff.identical else 1)


# ------------------------------------------------------------------ regenerate the pages


def main(argv: list[str] | None = None) -> int:
    """Regenerate every variant's diff page into generated_docs/diffs/ (run from anywhere)."""
    root = Path(__file__).resolve().parent.parent
    try:
        written = write_variant_diffs(root / "rulesets", root / "generated_docs" / "diffs")
    except CardRulesError as e:
        print(e.render(), file=sys.stderr)
        return 1
    for p in written:
        print(f"wrote {p.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
