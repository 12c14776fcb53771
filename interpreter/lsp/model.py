"""The language server's vocabulary and results: the words of the language it proposes and
explains, and the plain data an analysis is made of (Diag, Chunk, Analysis, Item), with the
few helpers on file keys that every stage uses."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field

from lark import Tree

from ..language import graph as g
from ..errors import CardRulesError, RulesetSyntaxError
from ..language.reference import BUILTINS, CARD_ATTRIBUTES, CONSTRUCTS, SUIT_RANK_ATTRIBUTES, ZONE_ATTRIBUTES
from .index import Index, Span
from .text import code_key, error_range

log = logging.getLogger("cardrules.lsp")

MAX_CHARS = 1_000_000          # larger files get one diagnostic instead of an analysis
MAX_SCAN_FILES = 3000          # .cards files looked at when searching the workspace for variants ...
MAX_SCAN_FOLDERS = 5000        # ... and folders

ERROR, WARNING, INFO = "error", "warning", "information"

# ------------------------------------------------------------------ vocabulary

BUILTIN = {e.name: e for e in BUILTINS}
CARD_ATTR = {e.name: e for e in CARD_ATTRIBUTES if e.name != "deck values"}
ZONE_ATTR = {e.name: e for e in ZONE_ATTRIBUTES}
SUIT_RANK_ATTR = {e.name: e for e in SUIT_RANK_ATTRIBUTES}
KEYWORD_DOC: dict[str, object] = {}
for _sec in CONSTRUCTS:
    for _e in _sec.entries:
        _w = _e.name.split()[0]
        if _w.isalpha() and _w not in KEYWORD_DOC:
            KEYWORD_DOC[_w] = _e

TOP_KEYWORDS = ("game", "variant", "players", "turn order", "at most", "deck", "zone", "option", "var", "define",
                "advice", "procedure", "phase", "interpretation", "winner", "sides by", "text", "note", "new define",
                "new procedure", "new advice", "private var", "rule", "order for")
DECK_KEYWORDS = ("suits", "ranks", "copies", "cards", "group", "order for", "value", "text", "note")
STATEMENT_KEYWORDS = ("shuffle", "deal", "move", "reveal", "turn", "tell", "let", "set", "declare winner", "declare loser", "perform",
                      "break", "pass", "end game", "if", "elif", "else", "while", "repeat", "for each", "for each player",
                      "rule", "choose by", "choose by each", "choose by any", "choose secretly by each", "action", "text",
                      "note")
EXPRESSION_KEYWORDS = ("and", "or", "not", "in", "mod", "if", "then", "elif", "else", "true", "false", "none",
                       "all", "any", "no", "count", "sum", "max", "min", "highest", "lowest", "those", "where", "split",
                       "into")
RENAMABLE = {"define", "advice", "procedure", "option", "zone", "var", "phase", "rule", "interpretation", "action",
             "parameter", "let", "aggregate", "each", "player", "action parameter"}

TYPES = tuple(t.strip() for t in next(e for sec in CONSTRUCTS for e in sec.entries if e.name == "types").form.split("|"))
_TYPE_WORDS = {"PLAYER": "player", "CARD": "card", "SUIT": "suit", "RANK": "rank", "ZONE": "zone", "N": "int",
               "A": "int", "B": "int", "SET": None, "KIND": "zonekind"}


# ------------------------------------------------------------------ results


@dataclass
class Diag:
    span: Span
    severity: str
    message: str
    code: str = ""
    related: list = field(default_factory=list)   # [(path, Span, message)]


@dataclass
class Chunk:
    start: int                      # first line (0-based)
    text: str
    tree: Tree | None = None        # kept only to be shifted when the chunk moves
    header: object = None           # chunk 0: the header item
    items: list | None = None
    syntax: RulesetSyntaxError | None = None
    build: CardRulesError | None = None
    index: Index | None = None
    pending: bool = False           # moved here from other lines: its items are made when needed
    _key: str | None = None

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = code_key(self.text)
        return self._key


@dataclass
class Analysis:
    path: str
    text: str
    lines: list[str]
    version: int | None = None
    chunks: list[Chunk] = field(default_factory=list)
    error: CardRulesError | None = None        # the first load error, as `cardrules check` reports it
    stage: str = ""                             # parse, build, compile, read, internal
    built: g.Ruleset | None = None              # the assembled rule graph (also when it does not compile)
    compiled: bool = False
    base: str | None = None                     # a variant's base file (normalised path)
    index: Index = field(default_factory=Index)
    diagnostics: list[Diag] = field(default_factory=list)
    last_good: g.Ruleset | None = None          # the latest graph of this document that was built
    seconds: float = 0.0
    deps: dict = field(default_factory=dict)     # base file -> the text it was built from
    later: object = None                         # makes the graph when first asked for (see _load)
    _by_line: dict | None = None

    @property
    def graph(self) -> g.Ruleset | None:
        """The rule graph. After an edit that only moved code by whole lines, the verdict is the
        previous one and the graph (the same but for its line numbers) is built when needed."""
        if self.built is None and self.later is not None:
            make, self.later = self.later, None
            make()
        return self.built

    @property
    def broken(self) -> bool:
        return any(c.syntax is not None for c in self.chunks) or self.stage == "parse"

    def at(self, line: int, col: int):
        """The reference or declaration whose token covers the position."""
        if self._by_line is None:
            by: dict[int, list] = {}
            for s in self.index.symbols:
                by.setdefault(s.sel.line, []).append((s.sel, s))
            for r in self.index.refs:
                by.setdefault(r.span.line, []).append((r.span, r))
            self._by_line = by
        for span, obj in self._by_line.get(line, ()):
            if span.col <= col <= span.end_col:
                return obj
        return None


@dataclass
class Item:
    """One completion proposal."""

    label: str
    kind: str                      # keyword, define, option, zone, var, procedure, phase, builtin, local, ...
    detail: str = ""
    doc: str = ""
    insert: str | None = None
    sort: str = "5"
    preselect: bool = False
    type: str | None = None        # what the name stands for, when known (player, card, int, ...)


class RenameError(ValueError):
    """A rename that cannot be made; the message says why."""


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")  # a URI the editor has no file for (untitled:...)


def norm(path: str | os.PathLike) -> str:
    """A file's key: its absolute, normalised path; a URI that is not a file stays as it is."""
    p = str(path)
    if _SCHEME.match(p):
        return p
    return os.path.normpath(os.path.abspath(p))


def is_file_key(path: str) -> bool:
    return not _SCHEME.match(path)


def _pad(start: int) -> str:
    return "game _" + "\n" * start if start else ""


def _err_span(lines, line, col) -> Span:
    return Span(*error_range(lines, line, col))


_HEADER_RE = re.compile(r'^\s*variant\s+[A-Za-z_]\w*\s*(?:"[^"\n]*")?\s*of\s*"([^"\n]*)"', re.M)
_FIRST_CODE = re.compile(r"^[^\s#].*$", re.M)


def base_reference(text: str) -> str | None:
    """The `of "FILE"` of a variant's header, read without parsing (the header's line only)."""
    m = _FIRST_CODE.search(text[:20000])
    if not m or not m.group().startswith("variant"):
        return None
    h = _HEADER_RE.match(m.group())
    return h.group(1) if h else None



_KEYWORDS: set | None = None


def _keywords() -> set:
    global _KEYWORDS
    if _KEYWORDS is None:
        from lark.lexer import PatternStr

        from ..language.parse import parser
        _KEYWORDS = {t.pattern.value for t in parser().terminals
                     if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}
        _KEYWORDS |= {"any", "no", "count", "highest", "lowest", "those"}
    return _KEYWORDS


def _value_names(rs: g.Ruleset) -> set:
    names = {d.name for d in rs.defines} | {o.name for o in rs.options} | {v.name for v in rs.vars}
    names |= {z.name for z in rs.zones} | set(rs.deck.suits) | set(rs.deck.ranks) | set(rs.deck.groups)
    names |= {c for o in rs.options for c in o.choices}
    return names


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
