"""Completion: the names, keywords and cards that fit where the cursor is."""

from __future__ import annotations

import re


from ..language.reference import BUILTINS
from .text import indent_of, line_tokens
from .model import (
    BUILTIN, CARD_ATTR, ZONE_ATTR, KEYWORD_DOC, TOP_KEYWORDS, DECK_KEYWORDS, STATEMENT_KEYWORDS,
    EXPRESSION_KEYWORDS, TYPES, _TYPE_WORDS, Analysis, Item, _keywords, _fmt)


_LET = re.compile(r"\blet\s+([A-Za-z_]\w*)\s*=")
_LOCAL_PATTERNS = [
    re.compile(r"\b(?:any|no|count|highest|lowest|those|all|sum)\s+([A-Za-z_]\w*)\s+in\b"),
    _LET,
    re.compile(r"\bfor\s+each\s+(?:player\s+)?([A-Za-z_]\w*)"),
    re.compile(r"\bby\s+each\s+([A-Za-z_]\w*)\s+in\b"),
    re.compile(r"\baction\s+[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s+in\b"),
    re.compile(r",\s*([A-Za-z_]\w*)\s+in\b"),
]
VISIBILITY_DOC = {"hidden": "its cards lie face down: nobody sees them",
                  "owner": "only its owner sees its cards (a hand)",
                  "others": "everyone but its owner sees its cards (a hand held facing the table)",
                  "public": "its cards lie face up: everyone sees them"}
_PARAM_RE = re.compile(r"([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)")


class Completer:
    def __init__(self, ws, a: Analysis, line: int, col: int):
        self.ws, self.a, self.line, self.col = ws, a, line, col
        self.rs = a.graph or a.last_good
        text = a.lines[line] if 0 <= line < len(a.lines) else ""
        self.cur = text[:col]

    def items(self) -> list[Item]:
        cur = self.cur
        toks = line_tokens(cur, self.line)
        if toks and (toks[-1].kind == "comment" or (toks[-1].kind == "string" and
                                                     (len(toks[-1].text) == 1 or not toks[-1].text.endswith('"')))):
            return []
        m = re.search(r"[A-Za-z_]\w*$", cur)
        before = cur[: m.start()] if m else cur
        stripped = before.rstrip()
        words = re.findall(r"[A-Za-z_]\w*|\S", stripped)
        prev = words[-1] if words else ""
        first = words[0] if words else ""
        if before.endswith(".") and not before.endswith(".."):
            return self.attributes()
        if prev == "perform":
            return self.named("procedure")
        if prev == "then" and first == "phase":
            return self.named("phase")
        if prev == "each" and first == "deal":
            return [i for i in self.globals() if i.kind == "zone"]
        if first == "winner" and prev in ("most", "fewest"):
            return [i for i in self.globals() if i.kind == "define"]
        if prev == ":" and first in ("define", "procedure", "advice", "var", "new", "private") and "=" not in words:
            return [Item(t, "type", "a type", sort="1") for t in TYPES]  # a parameter's or a variable's type
        if first == "zone" and prev in ("shared", "player", "]"):  # who sees the zone's cards
            return [Item(v, "keyword", "visibility", doc, sort="1") for v, doc in VISIBILITY_DOC.items()]
        if first == "option" and len(words) == 1:
            return self.base_options()  # a variant may restate its base's options; a game names a new one
        if first in ("define", "procedure", "advice", "var", "zone", "option", "phase", "rule", "action",
                     "interpretation", "new", "private") and len(words) <= 3 - (first != "private") and ":" not in words \
                and "=" not in words:
            return []  # a name being declared
        if not stripped:
            ind = indent_of(cur)
            if ind == 0:
                return self.keywords(TOP_KEYWORDS)
            return self.keywords(DECK_KEYWORDS if self._in_deck() else STATEMENT_KEYWORDS) + self.expression()
        return self.expression()

    def _in_deck(self) -> bool:
        for i in range(self.line, -1, -1):
            t = self.a.lines[i]
            if t[:1] not in ("", " ", "\t", "#"):
                return t.startswith("deck")
        return False

    def keywords(self, words) -> list[Item]:
        out = []
        for w in words:
            e = KEYWORD_DOC.get(w.split()[0])
            out.append(Item(w, "keyword", e.form if e else "", e.words if e else "", sort="6"))
        return out

    def named(self, ns: str) -> list[Item]:
        out, seen = [], set()
        for p in self.ws.chain(self.a.path):
            for s in self.ws.analysis(p).index.symbols:
                if s.ns == ns and s.name not in seen:
                    seen.add(s.name)
                    out.append(Item(s.name, s.kind, s.detail, sort="2"))
        return out

    def base_options(self) -> list[Item]:
        """The options of a variant's base (and its base's ...), with their defaults there."""
        from ..errors import CardRulesError
        out: dict[str, Item] = {}
        for p in self.ws.chain(self.a.path)[1:]:
            try:
                options = self.ws.graph_of(p).options
            except CardRulesError:  # a base that does not load: the options its text declares
                options = ()
                for s in self.ws.analysis(p).index.symbols:
                    if s.kind == "option" and s.name not in out:
                        out[s.name] = Item(s.name, "option", s.detail, sort="2")
            for o in options:
                if o.name not in out:
                    out[o.name] = Item(o.name, "option", f"the base's option, default {_fmt(o.default)}",
                                       o.description or "", sort="2")
        return list(out.values())

    def attributes(self) -> list[Item]:
        out = [Item(n, "attribute", e.form, e.words, sort="3") for n, e in CARD_ATTR.items()]
        out += [Item(n, "attribute", e.form, e.words, sort="4") for n, e in ZONE_ATTR.items() if n not in CARD_ATTR]
        if self.rs is not None:
            for v, table in self.rs.deck.values.items():
                out.append(Item(v, "value", "card value", ", ".join(f"{r} = {x}" for r, x in table.items()), sort="2"))
        return out

    def call_context(self) -> tuple[str | None, int]:
        """The function whose argument the cursor is in, and which argument (0-based)."""
        depth, arg = 0, 0
        text = self.cur
        for i in range(len(text) - 1, -1, -1):
            ch = text[i]
            if ch in ")]":
                depth += 1
            elif ch in "([":
                if depth == 0:
                    if ch == "[":
                        return None, 0
                    m = re.search(r"([A-Za-z_]\w*)\s*$", text[:i])
                    return (m.group(1) if m else None), arg
                depth -= 1
            elif ch == "," and depth == 0:
                arg += 1
            elif ch == '"':
                return None, 0
        return None, 0

    def expected_type(self) -> str | None:
        func, arg = self.call_context()
        if func is None:
            return None
        rs = self.rs
        if rs is not None:
            for d in list(rs.defines) + [v for v in rs.vars if v.params]:
                if d.name == func and arg < len(d.params):
                    return d.params[arg].type
            z = next((z for z in rs.zones if z.name == func), None)
            if z is not None:
                return "int" if z.size else "player"
        e = BUILTIN.get(func)
        if e is not None:
            m = re.match(r"\w+\(([^)]*)\)", e.form)
            if m:
                parts = [p.strip() for p in m.group(1).split(",")]
                if arg < len(parts):
                    return _TYPE_WORDS.get(parts[arg])
        return None

    def locals(self) -> list[Item]:
        """Names bound around the cursor: from the index when its chunk parsed, else from the text
        of the current top-level item up to the cursor."""
        out: dict[str, Item] = {}
        for s in self.a.index.symbols:
            if s.ns == "local" and s.scope is not None and s.scope.contains(self.line, self.col):
                out[s.name] = Item(s.name, "local", s.kind + (f": {s.type}" if s.type else ""), sort="1",
                                   type=s.type)
        start = self.line
        while start > 0 and self.a.lines[start][:1] in ("", " ", "\t", "#"):
            start -= 1
        head = self.a.lines[start] if start < len(self.a.lines) else ""
        m = re.match(r"^(?:new\s+)?(?:define|advice|procedure|var)\s+[A-Za-z_]\w*\s*\(([^)]*)\)?", head)
        if m:
            for name, typ in _PARAM_RE.findall(m.group(1)):
                out.setdefault(name, Item(name, "local", f"parameter: {typ}", sort="1", type=typ))
        before = "\n".join(self.a.lines[start:self.line])
        for pat in _LOCAL_PATTERNS:
            body = before if pat is _LET else before + "\n" + self.cur  # not the let being written
            for name in pat.findall(body):
                if name not in _keywords():
                    out.setdefault(name, Item(name, "local", "a local name", sort="1"))
        return list(out.values())

    def globals(self) -> list[Item]:
        out: dict[str, Item] = {}
        rs = self.rs
        if rs is not None:
            for d in rs.defines:
                sig = f"{d.name}({', '.join(f'{p.name}: {p.type}' for p in d.params)})" if d.params else d.name
                out[d.name] = Item(d.name, "define", sig, " ".join(d.texts), sort="2")
            for v in rs.vars:
                out[v.name] = Item(v.name, "var", f"variable: {v.type}" + (" (per player)" if v.params else ""), sort="2")
            for o in rs.options:
                out[o.name] = Item(o.name, "option", f"option, default {_fmt(o.default)}", o.description or "", sort="2")
            for z in rs.zones:
                out[z.name] = Item(z.name, "zone", "zone, " + ("per player" if z.per_player else
                                                                "family" if z.size else "shared"), z.title or "",
                                   sort="2")
            deck = rs.deck
            for s in deck.suits:
                out.setdefault(s, Item(s, "suit", "suit", sort="4"))
            for r in deck.ranks:
                if not r.isdigit():
                    out.setdefault(r, Item(r, "rank", "rank", sort="4"))
            for gname, ranks in deck.groups.items():
                out.setdefault(gname, Item(gname, "group", "rank group", ", ".join(ranks), sort="4"))
            for o in rs.options:
                for c in o.choices:
                    out.setdefault(c, Item(c, "enum", f"value of option {o.name}", sort="4"))
        for p in self.ws.chain(self.a.path):  # what was typed since the last good parse, and the bases
            an = self.a if p == self.a.path else self.ws.analysis(p)
            for s in an.index.symbols:
                if s.ns == "value" and s.name not in out:
                    out[s.name] = Item(s.name, s.kind, s.detail, sort="2" if s.kind in
                                       ("define", "var", "option", "zone") else "4")
        return list(out.values())

    def cards(self) -> list[Item]:
        rs = self.rs
        if rs is None:
            return []
        out, seen = [], set()
        for line in rs.deck.lines():
            for s in line.suits:
                for r in line.ranks:
                    if (r, s) not in seen:
                        seen.add((r, s))
                        out.append(Item(f"{r}-{s}", "card", "a card of the deck", f"`card({r}, {s})`",
                                        insert=f"card({r}, {s})", sort="7"))
        return out

    def expression(self) -> list[Item]:
        items = self.locals()
        names = {i.label for i in items}
        items += [i for i in self.globals() if i.label not in names]
        names = {i.label for i in items}
        items += [Item(e.name, "builtin", e.form, e.words, sort="3") for e in BUILTINS if e.name not in names]
        items += [Item(w, "keyword", sort="6") for w in EXPRESSION_KEYWORDS if w not in names]
        items += self.cards()
        want = self.expected_type()
        if want:
            self._prefer(items, want)
        return items

    def _prefer(self, items: list[Item], want: str) -> None:
        rs = self.rs
        kinds: dict[str, str | None] = {}
        if rs is not None:
            for v in rs.vars:
                kinds[v.name] = v.type
            try:
                from ..render.words import English
                en = English(rs)
                for d in rs.defines:
                    if not d.params:
                        kinds[d.name] = en.define_kind(d.name)
            except Exception:
                pass
        builtin_kinds = {"player": {"next", "previous", "seat"}, "card": {"card", "top", "bottom", "first", "last", "at"},
                         "int": {"count", "min", "max", "abs", "player_count"}}
        best = None
        for it in items:
            k = it.type if it.kind == "local" else kinds.get(it.label)
            if k == want or (it.kind == "builtin" and it.label in builtin_kinds.get(want, ())):
                it.sort = "0" + it.sort
                if best is None or it.kind == "local" or (best.kind != "local" and it.kind == "var"):
                    best = it
        if best is not None:
            best.preselect = True
