"""One ruleset made comparable: canonical keys (equal exactly when two nodes mean the same
thing), phases and procedures flattened into lines (one statement header each), and the words
and source text of a line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from ..language import graph as g
from ..render import BookBuilder, Describer, English, code, em
from ..render.steps import param_binder
from ..language.unparse import unparse
from .phrasing import _cap, _fmt, _human


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
    """("$L", line), or ("$L", line, n) for an action's n-th further parameter (`z` in
    `action lay c in X, z in Y`)."""
    return isinstance(k, tuple) and len(k) in (2, 3) and k[0] == "$L" and isinstance(k[1], int)


def _loose(k):
    """A key with statement-bound locals anonymised: which line binds them is checked apart."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$L",) + k[2:]
        return tuple(_loose(x) for x in k)
    return k


def _translate(k, mapping: dict[int, int]):
    """A's key with each statement-bound local renamed to the corresponding line of B."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$L", mapping.get(k[1], ("unmatched", k[1]))) + k[2:]
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
                    en.bind(a.var, "cards" if a.subset else en.elem(a.domain) if a.domain is not None else None)
                    for k, m in enumerate(a.more):
                        inner[m.var] = ("$L", j, k + 1)
                        en.bind(m.var, "cards" if m.subset else en.elem(m.domain))
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
                if s.any:
                    return f"Any player {en.local(s.each)} of {en(s.by)} may act, whoever is first, until all pass"
                if s.each is not None:
                    return f"Every player {en.local(s.each)} of {en(s.by)} chooses" + (" in secret" if s.secret else "")
                return f"{_cap(en(s.by))} chooses"
            if ln.part == "action":
                text = f"the move {code(s.name)}" + (f" ({em(s.label.rstrip('.'))})" if s.label else "")
                if s.var is not None and s.domain is not None:
                    text += ", for " + " and ".join(param_binder(en, v, d, sub) for v, d, sub in s.params())
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
        if s.any:
            return f"choose by any {s.each} in {u(s.by)}:"
        if s.each is not None:
            return f"choose {'secretly ' if s.secret else ''}by each {s.each} in {u(s.by)}:"
        return f"choose by {u(s.by)}:"
    if ln.part == "action":
        text = f"action {s.name}"
        if s.var is not None:
            text += " " + ", ".join(f"{v} {'subset of' if sub else 'in'} {u(d)}" for v, d, sub in s.params())
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
        return f"deal {u(s.count)} from {u(s.source)} to each {s.target}{' in play' if s.in_play else ''}{start}{_face(s.face_up)}"
    if t == "Move":
        return f"move {u(s.what)} to {u(s.to)}{_face(s.face_up)}"
    if t == "Reveal":
        return f"turn {u(s.what)} face down" if s.down else f"reveal {u(s.what)}"
    if t == "Tell":
        return f"tell {s.what} of {u(s.cards)} to {u(s.to)}"
    if t == "Let":
        return f"let {s.name} = {u(s.value)}"
    if t == "Set":
        idx = f"({u(s.index)})" if getattr(s, "index", None) is not None else ""
        return f"set {s.name}{idx} = {u(s.value)}"
    if t == "DeclareWinner":
        return f"declare {'loser' if getattr(s, 'loser', False) else 'winner'} {u(s.who)}"
    if t == "Perform":
        return f"perform {s.name}" + (f"({', '.join(u(a) for a in s.args)})" if s.args else "")
    if t in ("Break", "Pass"):
        return t.lower()
    if t == "EndGame":
        return "end game"
    if t == "Drop":
        return f"drop {u(s.who)} from the {s.until}"
    if t == "NewRound":
        return "new round"
    if t == "While":
        return f"while {u(s.test)}:"
    if t == "Repeat":
        return "repeat:"
    if t == "ForPlayers":
        start = {"from": f" from {u(s.at)}", "after": f" after {u(s.at)}"}.get(s.start, "") if s.at is not None else ""
        return f"for each player {s.var}{' in play' if s.in_play else ''}{start}:"
    if t == "ForEach":
        return f"for each {s.var} in {u(s.domain)}:"
    parts = []
    for f in _fields(s):
        v = getattr(s, f)
        if f in _BLOCKS or _is_block(v) or v is None:
            continue
        parts.append(u(v) if isinstance(v, g.Node) and not isinstance(v, (g.Branch, g.Action)) else _fmt(v))
    return " ".join([_human(t).lower()] + parts) + (":" if ln.part == "block" else "")
