"""The language server's work, without the protocol: load a document as `cardrules check`
would (the same parser, builder and compiler, so the same errors at the same places), index
what it declares and refers to, and answer hover, go to definition, references, completion,
outline and rename. Positions are 0-based lines and code-point columns (see text.py).

**Incremental loading.** A file is split into top-level chunks (text.chunk_starts); each chunk
is parsed on its own, padded with a dummy header and blank lines so that Lark reports the same
lines and columns as for the whole file, and its parse tree, graph items and index are kept
while its text is unchanged. The items are assembled into a rule graph by the very functions
`build_text` uses, and compiled. When a chunk does not parse, the text from that chunk to the
end of the file is parsed as one, so the message is exactly the one the whole file gets (the
chunks before it parsed, so the parser stands between two items there). A chunk moved by lines
inserted or removed above it keeps its tree, shifted; when nothing but such moves (and
comments) changed since an analysis that compiled, the verdict is that one's, and the graph,
the same but for line numbers, is built only when something asks for it (hover, the static
checks). tests/test_lsp.py checks all of this against loading the whole text.

**Variants.** A variant's base comes from the editor when it is open there, else from disk;
the family of a file is its base chain and every file below the root of that chain that names
it as a base (searched for in the folders of the chain and the workspace folders). Go to
definition follows the chain; references and rename cover the family."""

from __future__ import annotations

import logging
import os
import re
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from lark import Token, Tree
from lark.exceptions import VisitError

from .. import build
from .. import graph as g
from ..errors import CardRulesError, RulesetError, RulesetSyntaxError
from ..language import BUILTINS, CARD_ATTRIBUTES, CONSTRUCTS, ZONE_ATTRIBUTES
from ..parse import parse_text
from .index import Index, Ref, Span, Symbol, index_trees, walk_symbols
from .text import NAME_FULL, chunk_starts, code_key, error_range, indent_of, line_tokens, token_at

log = logging.getLogger("cardrules.lsp")

MAX_CHARS = 1_000_000          # larger files get one diagnostic instead of an analysis
MAX_SCAN_FILES = 3000          # .cards files looked at when searching the workspace for variants ...
MAX_SCAN_FOLDERS = 5000        # ... and folders

ERROR, WARNING, INFO = "error", "warning", "information"

# ------------------------------------------------------------------ vocabulary

BUILTIN = {e.name: e for e in BUILTINS}
CARD_ATTR = {e.name: e for e in CARD_ATTRIBUTES if e.name != "deck values"}
ZONE_ATTR = {e.name: e for e in ZONE_ATTRIBUTES}
KEYWORD_DOC: dict[str, object] = {}
for _sec in CONSTRUCTS:
    for _e in _sec.entries:
        _w = _e.name.split()[0]
        if _w.isalpha() and _w not in KEYWORD_DOC:
            KEYWORD_DOC[_w] = _e

TOP_KEYWORDS = ("game", "variant", "players", "turn order", "at most", "deck", "zone", "option", "var", "define",
                "advice", "procedure", "phase", "interpretation", "winner", "text", "note", "new define",
                "new procedure", "new advice", "rule", "order for")
DECK_KEYWORDS = ("suits", "ranks", "copies", "cards", "group", "order for", "value", "text", "note")
STATEMENT_KEYWORDS = ("shuffle", "deal", "move", "reveal", "let", "set", "declare winner", "perform", "break",
                      "pass", "end game", "if", "elif", "else", "while", "repeat", "for each", "for each player",
                      "rule", "choose by", "choose by each", "choose secretly by each", "action", "text", "note")
EXPRESSION_KEYWORDS = ("and", "or", "not", "in", "mod", "if", "then", "elif", "else", "true", "false", "none",
                       "all", "any", "no", "count", "sum", "highest", "lowest", "those", "where", "split", "into")
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


# ------------------------------------------------------------------ the workspace


class Workspace:
    """Open documents (the editor's text wins over the disk's), their analyses, and files on disk
    read on demand (for a variant's base, or for the family of a rename)."""

    def __init__(self, roots: list[str] | None = None):
        self.roots = [norm(r) for r in (roots or [])]
        self.open: dict[str, tuple[str, int | None]] = {}    # path -> (text, version)
        self.current: dict[str, Analysis] = {}                # path -> latest analysis of the open text
        self.chunk_cache: dict[str, dict] = {}                # path -> {(text, start): Chunk}
        self.disk: dict[str, tuple[tuple, str | None]] = {}   # path -> ((mtime, size), text)
        self.disk_analysis: dict[str, Analysis] = {}
        self.parsed: dict[str, Analysis] = {}                 # path -> chunks and index only
        self.last_good: dict[str, g.Ruleset] = {}
        self._scan: dict[str, tuple[float, list[str]]] = {}

    # ---- documents
    def open_doc(self, path: str, text: str, version: int | None = None) -> None:
        path = norm(path)
        self.open[path] = (text, version)  # analysed when asked; the previous analysis stays to compare with

    def change_doc(self, path: str, text: str, version: int | None = None) -> None:
        self.open_doc(path, text, version)

    def close_doc(self, path: str) -> None:
        path = norm(path)
        for d in (self.open, self.current, self.chunk_cache, self.last_good, self.parsed):
            d.pop(path, None)

    def forget_disk(self, path: str | None = None) -> None:
        if path is None:
            self.disk.clear()
            self.disk_analysis.clear()
            self._scan.clear()
        else:
            self.disk.pop(norm(path), None)
            self.disk_analysis.pop(norm(path), None)

    def text_of(self, path: str) -> str:
        """The text of a file: the editor's when open, else the disk's (raises OSError,
        UnicodeDecodeError)."""
        path = norm(path)
        if path in self.open:
            return self.open[path][0]
        st = os.stat(path)
        key = (st.st_mtime_ns, st.st_size)
        hit = self.disk.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        text = Path(path).read_text(encoding="utf-8")
        self.disk[path] = (key, text)
        return text

    def dependents(self, path: str) -> list[str]:
        """Open documents whose base chain passes through path."""
        path = norm(path)
        return [p for p in self.open if p != path and path in self.chain(p)]

    # ---- analysis
    def analysis(self, path: str) -> Analysis:
        """The analysis of a file's current text (open or on disk); read errors become its error.
        An open document is compiled too; a file on disk is only built (its index and graph)."""
        path = norm(path)
        if path in self.open:
            text, version = self.open[path]
            a = self.current.get(path)
            if a is None or a.text != text or not self._fresh(a):
                a = self.analyse(path, text, version)
                self.current[path] = a
            a.version = version
            return a
        try:
            text = self.text_of(path)
        except Exception as e:  # unreadable: a diagnostic, never a crash
            return self._unreadable(path, e)
        a = self.disk_analysis.get(path)
        if a is None or a.text != text or not self._fresh(a):
            a = self.analyse(path, text, None, compile_it=False)
            self.disk_analysis[path] = a
        return a

    def _fresh(self, a: Analysis) -> bool:
        """Whether the bases an analysis was built on still have the same text."""
        for p, t in a.deps.items():
            try:
                if self.text_of(p) != t:
                    return False
            except Exception:
                if t is not None:
                    return False
        return True

    def _parsed(self, path: str, text: str) -> Analysis:
        """A file's chunks and index, without assembling its graph (which for a variant needs
        its base: graph_of assembles, knowing which files are already on the way)."""
        for cache in (self.current, self.disk_analysis, self.parsed):
            a = cache.get(path)
            if a is not None and a.text == text:
                return a
        a = self.analyse(path, text, None, assemble=False)
        self.parsed[path] = a
        return a

    def _unreadable(self, path, e) -> Analysis:
        a = Analysis(path, "", [""])
        a.error = _read_error(path, e)
        a.stage = "read"
        a.diagnostics = [Diag(Span(0, 0, 0, 0), ERROR, a.error.message, "read")]
        return a

    def analyse(self, path: str, text: str, version: int | None = None, compile_it: bool = True,
                assemble: bool = True) -> Analysis:
        t0 = time.perf_counter()
        path = norm(path)
        lines = text.split("\n")
        a = Analysis(path, text, lines, version)
        a.last_good = self.last_good.get(path)
        try:
            if len(text) > MAX_CHARS:
                a.stage = "read"
                a.error = RulesetError(f"this file is too large to analyse ({len(text):,} characters; the language "
                                       f"server reads files of up to {MAX_CHARS:,})", path, 1, 1)
            else:
                self._load(a, compile_it, assemble)
        except RecursionError:
            a.stage = "internal"
            a.error = RulesetError("this file nests too deeply to be analysed", path, 1, 1)
        except Exception as e:  # a bug: one diagnostic at 1:1, and the log has the details
            log.error("analysing %s failed:\n%s", path, traceback.format_exc())
            a.stage = "internal"
            a.error = RulesetError(f"the language server could not analyse this file ({type(e).__name__}: {e}); "
                                   "this is a bug in cardrules, and the server's log has the details", path, 1, 1)
        if a.built is not None:
            self.last_good[path] = a.built
            a.last_good = a.built
        a.diagnostics = self._diagnostics(a)
        a.seconds = time.perf_counter() - t0
        return a

    def _chunks(self, a: Analysis) -> None:
        lines = a.lines
        starts = chunk_starts(lines)
        old = self.chunk_cache.get(a.path, {})
        by_text: dict[str, Chunk] = {}
        for (t, s), c in old.items():
            if c.tree is not None:
                by_text.setdefault(t, c)
        new: dict = {}
        bounds = starts[1:] + [len(lines)]
        for s, e in zip(starts, bounds):
            text = "\n".join(lines[s:e]) + "\n"
            c = old.get((text, s))
            if c is None:
                moved = by_text.pop(text, None) if s else None
                if moved is not None and moved.start and moved.tree is not None:
                    tree = moved.tree
                    moved.tree = None
                    _shift(tree, s - moved.start)
                    c = self._build_chunk(a.path, s, text, tree, transform=False)
                    c._key = moved._key
                else:
                    c = self._parse_chunk(a.path, s, text)
            new[(text, s)] = c
            a.chunks.append(c)
        self.chunk_cache[a.path] = new

    def _parse_chunk(self, path, start, text) -> Chunk:
        try:
            tree = parse_text(_pad(start) + text, path)
        except RulesetSyntaxError as e:
            return Chunk(start, text, syntax=e)
        except Exception as e:  # the exact parse of the rest of the file will say what it is
            return Chunk(start, text, syntax=RulesetSyntaxError(f"{type(e).__name__}: {e}", path, start + 1, 1))
        return self._build_chunk(path, start, text, tree)

    def _build_chunk(self, path, start, text, tree, transform: bool = True) -> Chunk:
        c = Chunk(start, text, tree=tree)
        items = [t for t in tree.children if isinstance(t, Tree)]
        c.index = index_trees(items if start == 0 else items[1:])
        if start > 0:
            c.index.header = None
            c.index.outline = [s for s in c.index.outline if s.ns != "game"]
        if transform:
            self._transform(path, c)
        else:
            c.pending = True
        return c

    def _transform(self, path: str, c: Chunk) -> None:
        """The chunk's graph items, from its tree (or from its text again, if a later version of
        the document has taken the tree to move it)."""
        c.pending = False
        if c.tree is None:
            again = self._parse_chunk(path, c.start, c.text)
            c.tree, c.header, c.items, c.syntax, c.build = again.tree, again.header, again.items, again.syntax, \
                again.build
            return
        try:
            built = build.ToGraph(path).transform(c.tree)
        except VisitError as e:
            if isinstance(e.orig_exc, CardRulesError):
                c.build = e.orig_exc
                return
            raise e.orig_exc from None
        if c.start == 0:
            c.header, c.items = built[0], built[1:]
        else:
            c.items = built[1:]

    def _load(self, a: Analysis, compile_it: bool, assemble: bool = True) -> None:
        self._chunks(a)
        for c in a.chunks:
            if c.index is not None:
                a.index.outline.extend(c.index.outline)
                a.index.symbols.extend(c.index.symbols)
                a.index.refs.extend(c.index.refs)
                if c.index.header is not None:
                    a.index.header = c.index.header
                    a.index.base_ref = c.index.base_ref
            else:
                _lexical_symbols(a, c)
        ref = base_reference(a.text) if a.index.base_ref is None else a.index.base_ref[0]
        if ref is not None:
            a.base = norm(Path(a.path).parent / ref) if is_file_key(a.path) else None
        bad = next((c for c in a.chunks if c.syntax is not None), None)
        if bad is not None:
            a.stage = "parse"
            a.error = self._exact_syntax_error(a, bad)
            return
        if assemble and a.base:  # what the graph is built on, to know when it must be built again
            for p in [a.base] + self.chain(a.path)[2:]:
                try:
                    a.deps[p] = self.text_of(p)
                except Exception:
                    a.deps[p] = None
        prev = self.current.get(a.path) if compile_it else None
        same_code = prev is not None and prev.stage == "" and prev.compiled and prev.base == a.base \
            and prev.deps == a.deps and [c.key for c in prev.chunks] == [c.key for c in a.chunks]
        if same_code and assemble and any(c.pending for c in a.chunks):
            # Only lines without code moved (a line inserted above, say): the items are the same but
            # for their line numbers, so the verdict is the previous one, and the graph is built
            # (the chunks below transformed again) when something asks for it.
            a.compiled = True
            a.later = lambda: self._finish(a)
            return
        for c in a.chunks:
            if c.pending:
                self._transform(a.path, c)
        bad = next((c for c in a.chunks if c.build is not None), None)
        if bad is not None:
            a.stage = "build"
            a.error = bad.build
            return
        if not assemble:
            return
        a.built = self._assemble(a, ())
        if a.built is None or not compile_it:
            return
        if same_code or (prev is not None and prev.built is not None and prev.stage in ("", "compile")
                         and prev.built == a.built):
            # the same graph, or the same but for line numbers and it compiled: it compiles as before
            a.compiled, a.error, a.stage = prev.compiled, prev.error, prev.stage
            return
        from ..compiler import compile_ruleset
        try:
            compile_ruleset(a.built, fast=False)  # the checks; the plain code is the quicker to make
            a.compiled = True
        except CardRulesError as e:
            a.stage, a.error = "compile", e

    def _finish(self, a: Analysis) -> None:
        """Build the graph of an analysis that took the previous verdict (see _load)."""
        for c in a.chunks:
            if c.pending:
                self._transform(a.path, c)
        bad = next((c.build for c in a.chunks if c.build is not None), None)
        if bad is not None:  # pragma: no cover - the same code built before
            a.stage, a.error, a.compiled = "build", bad, False
            return
        a.built = self._assemble(a, ())
        if a.built is None:  # pragma: no cover
            a.compiled = False
            return
        self.last_good[a.path] = a.built
        a.last_good = a.built

    def _exact_syntax_error(self, a: Analysis, bad: Chunk) -> RulesetSyntaxError:
        offset = sum(len(x) + 1 for x in a.lines[:bad.start])
        rest = _pad(bad.start) + a.text[offset:]
        for text in (rest, a.text):
            try:
                parse_text(text, a.path)
            except RulesetSyntaxError as e:
                if text is rest and e.message.startswith("this line's indentation"):
                    continue  # parse.py finds that line by scanning the file from its top: do the same
                return e
        return bad.syntax  # pragma: no cover - the chunk failed, so the whole text fails too

    def _assemble(self, a: Analysis, seen: tuple) -> g.Ruleset | None:
        """The rule graph of an analysed, parsed file, as build_text makes it; a load error is
        stored on the analysis (a base's error is raised from graph_of)."""
        for c in a.chunks:
            if c.pending:
                self._transform(a.path, c)
        header = a.chunks[0].header if a.chunks else None
        items = [it for c in a.chunks for it in (c.items or ())]
        build._SOURCES[a.path] = a.text.splitlines()
        try:
            if header is None:
                raise RulesetError("the file has no 'game' or 'variant' line", a.path, 1, 1)
            if header.kind == "game":
                return build._assemble_game(header, items, a.path)
            name, title, base_ref = header.value
            base_path = a.base or norm(Path(a.path).parent / base_ref)
            if base_path in seen or base_path == a.path:
                raise build._err(f"variant {name!r} is its own base (a cycle through {base_ref!r})", header.loc)
            if base_path not in self.open and not os.path.isfile(base_path):
                what = "is a folder, not a ruleset file" if os.path.isdir(base_path) else "was not found"
                raise build._err(f"the base ruleset {base_ref!r} {what} (looked for {base_path})", header.loc)
            base = self.graph_of(base_path, seen + (a.path,))
            return build._merge_variant(base, name, title, items, a.path, header.loc)
        except CardRulesError as e:
            a.stage, a.error = "build", e
            return None

    def graph_of(self, path: str, seen: tuple = ()) -> g.Ruleset:
        """A file's rule graph (not compiled), for a variant built on it; raises its load error
        as build_file would (`seen`: the variants on the way here, to stop at a cycle)."""
        path = norm(path)
        try:
            text = self.text_of(path)
        except Exception as e:
            raise _read_error(path, e) from None
        parsed = self._parsed(path, text)
        if parsed.stage in ("parse", "read", "internal"):
            raise parsed.error
        for c in parsed.chunks:
            if c.pending:
                self._transform(path, c)
        bad = next((c.build for c in parsed.chunks if c.build is not None), None)
        if bad is not None:
            raise bad
        probe = Analysis(path, text, parsed.lines, chunks=parsed.chunks, base=parsed.base)
        rs = self._assemble(probe, seen)
        if rs is None:
            raise probe.error
        return rs

    # ---- diagnostics
    def _diagnostics(self, a: Analysis) -> list[Diag]:
        out: list[Diag] = []
        e = a.error
        if e is None:
            return out
        if e.file and norm(e.file) != a.path and a.stage != "internal":
            where = f"{e.file}:{e.line or 1}:{e.column or 1}"
            span = a.index.header.full if a.index.header else Span(0, 0, 0, 0)
            if a.index.header is not None:
                span = Span(span.line, span.col, span.line, len(a.lines[span.line].rstrip("\r")))
            about = "the base ruleset" if a.base and norm(e.file) in self.chain(a.path) else "another file"
            msg = f"in {about} {Path(e.file).name} ({where}): {e.message}"
            related = [(norm(e.file), Span((e.line or 1) - 1, (e.column or 1) - 1, (e.line or 1) - 1,
                                           (e.column or 1)), e.message)]
            out.append(Diag(span, ERROR, msg, a.stage, related))
        else:
            out.append(Diag(_err_span(a.lines, e.line, e.column), ERROR, e.message, a.stage or "error"))
        return out

    # ---- variants: chains and families
    def chain(self, path: str) -> list[str]:
        """The file, its base, its base's base, ... (stopping at a cycle or a missing file)."""
        out = [norm(path)]
        while len(out) < 32:
            try:
                text = self.text_of(out[-1])
            except Exception:
                break
            ref = base_reference(text)
            if ref is None or not is_file_key(out[-1]):
                break
            nxt = norm(Path(out[-1]).parent / ref)
            if nxt in out:
                break
            out.append(nxt)
        return out

    def _cards_files(self, folder: str, recursive: bool) -> list[str]:
        now = time.monotonic()
        key = f"{folder}\0{recursive}"
        hit = self._scan.get(key)
        if hit is not None and now - hit[0] < 5.0:
            return hit[1]
        found: list[str] = []
        try:
            if recursive:
                for visited, (root, dirs, files) in enumerate(os.walk(folder)):
                    dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
                    found.extend(norm(os.path.join(root, f)) for f in files if f.endswith(".cards"))
                    if len(found) > MAX_SCAN_FILES or visited > MAX_SCAN_FOLDERS:
                        break
            else:
                found = [norm(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".cards")]
        except OSError:
            pass
        self._scan[key] = (now, found)
        return found

    def family(self, path: str) -> list[str]:
        """Every file that shares the root of this file's base chain: the chain itself, and all
        the variants (of variants) of its root that can be found."""
        path = norm(path)
        chain = self.chain(path)
        root = chain[-1]
        candidates = set(self.open) | set(chain)
        for p in chain:
            if is_file_key(p):
                candidates.update(self._cards_files(os.path.dirname(p), False))
        for r in self.roots:
            candidates.update(self._cards_files(r, True))
        return sorted(f for f in candidates if f == root or root in self.chain(f))

    # ---- what is under the cursor
    def target(self, path: str, line: int, col: int):
        """(namespace, name, local symbol or None, span) of the name at the position, or None.
        From the index when the chunk parsed, else from the text."""
        a = self.analysis(path)
        hit = a.at(line, col)
        if isinstance(hit, Ref):
            return (hit.ns, hit.name, hit.local, hit.span)
        if isinstance(hit, Symbol):
            return (hit.ns, hit.name, hit if hit.ns == "local" else None, hit.sel)
        if a.index.base_ref is not None and a.index.base_ref[1].contains(line, col):
            return ("file", a.index.base_ref[0], None, a.index.base_ref[1])
        tok = token_at(a.lines, line, col)
        if tok is None or tok.kind != "name":
            return None
        toks = line_tokens(a.lines[line], line)
        before = [t for t in toks if t.end <= tok.col]
        prev = before[-1].text if before else ""
        ns = "value"
        if prev == "perform":
            ns = "procedure"
        elif prev == "then" and toks and toks[0].text == "phase":
            ns = "phase"
        elif prev == "." and not (len(before) > 1 and before[-2].kind == "int"):
            ns = "attr"
        elif prev in ("procedure", "phase", "rule", "advice", "interpretation", "action"):
            ns = prev
        span = Span(line, tok.col, line, tok.end)
        return (ns, tok.text, None, span)

    def declarations(self, path: str, ns: str, name: str) -> list[tuple[str, Symbol]]:
        """Where a global name is declared along the base chain, this file first."""
        out = []
        for p in self.chain(path):
            a = self.analysis(p)
            for s in a.index.symbols:
                if s.name == name and s.ns == ns:
                    out.append((p, s))
        return out

    # ---- go to definition
    def definition(self, path: str, line: int, col: int) -> list[tuple[str, Span]]:
        t = self.target(path, line, col)
        if t is None:
            return []
        ns, name, local, _ = t
        if local is not None:
            return [(norm(path), local.sel)]
        if ns == "file":
            a = self.analysis(path)
            return [(a.base, Span(0, 0, 0, 0))] if a.base else []
        return [(p, s.sel) for p, s in self.declarations(path, ns, name)]

    # ---- references and rename
    def _origin(self, path: str, ns: str, name: str) -> str | None:
        decl = self.declarations(path, ns, name)
        return decl[-1][0] if decl else None

    def references(self, path: str, line: int, col: int, include_declaration: bool = True) -> list[tuple[str, Span]]:
        t = self.target(path, line, col)
        if t is None or t[0] == "file":
            return []
        return [(p, span) for p, span, _ in self._occurrences(path, t, include_declaration)]

    def _occurrences(self, path, t, include_declaration=True):
        ns, name, local, _ = t
        path = norm(path)
        out = []
        if local is not None:
            a = self.analysis(path)
            if include_declaration:
                out.append((path, local.sel, local))
            out.extend((path, r.span, r) for r in a.index.refs if r.local is local)
            return out
        origin = self._origin(path, ns, name)
        files = [f for f in self.family(path) if origin in self.chain(f)] if origin else [path]
        for f in files:
            a = self.analysis(f)
            if include_declaration:
                out.extend((f, s.sel, s) for s in a.index.symbols if s.ns == ns and s.name == name)
            out.extend((f, r.span, r) for r in a.index.refs if r.ns == ns and r.name == name and r.local is None)
        return out

    def prepare_rename(self, path: str, line: int, col: int) -> Span:
        t = self.target(path, line, col)
        if t is None:
            raise RenameError("there is no name here to rename")
        ns, name, local, span = t
        kind = self._kind_of(path, t)
        a = self.analysis(path)
        if a.broken:
            raise RenameError(self._unparsed(path, a) + f"; correct it before renaming {name!r}")
        if kind not in RENAMABLE:
            what = {"builtin": "a built-in name", "suit": "a suit", "rank": "a rank", "file": "a file name",
                    None: "a name this ruleset does not declare"}.get(kind, f"a {kind}")
            raise RenameError(f"{name!r} is {what}; only the ruleset's own definitions, options, zones, "
                              "variables, procedures, phases, rules and local names can be renamed")
        return span

    @staticmethod
    def _unparsed(path: str, a: Analysis) -> str:
        e = a.error
        where = f"{Path(path).name}:{e.line}:{e.column}" if e is not None and e.line else Path(path).name
        return f"{where} does not parse"

    def _kind_of(self, path, t) -> str | None:
        ns, name, local, _ = t
        if local is not None:
            return local.kind
        if ns == "file":
            return "file"
        decl = self.declarations(path, ns, name)
        if decl:
            return decl[-1][1].kind
        if ns == "value" and name in BUILTIN:
            return "builtin"
        return None

    def rename(self, path: str, line: int, col: int, new_name: str) -> dict[str, list[tuple[Span, str]]]:
        """The edits, file by file, that rename the name at the position across the family."""
        self.prepare_rename(path, line, col)
        t = self.target(path, line, col)
        ns, name, local, _ = t
        if not NAME_FULL.match(new_name or ""):
            raise RenameError(f"{new_name!r} is not a name: a name is letters, digits and _, not starting with a digit")
        if new_name in _keywords() or (ns == "value" and new_name in BUILTIN):
            raise RenameError(f"{new_name!r} is a word of the language; choose another name")
        if new_name == name:
            return {}
        occ = self._occurrences(path, t, True)
        files = sorted({f for f, _, _ in occ} | ({norm(path)} if local is None else set()))
        for f in files:
            a = self.analysis(f)
            if a.broken:
                raise RenameError(self._unparsed(f, a) + f"; correct it before renaming {name!r}")
        if local is None:
            for f in files:
                a = self.analysis(f)
                for s in a.index.symbols:
                    if s.name == new_name and s.ns == ns and s.ns != "local":
                        raise RenameError(f"{new_name!r} is already declared in {Path(f).name} "
                                          f"(line {s.sel.line + 1})")
                if ns == "value" and a.graph is not None and new_name in _value_names(a.graph):
                    raise RenameError(f"{new_name!r} already names something in {Path(f).name}")
                for f2, span, r in occ:
                    if f2 != f:
                        continue
                    for s in a.index.symbols:
                        if s.ns == "local" and s.name == new_name and s.scope and s.scope.contains(span.line, span.col):
                            raise RenameError(f"{name!r} at {Path(f).name}:{span.line + 1} would then be hidden by the "
                                              f"local name {new_name!r}")
        else:
            a = self.analysis(path)
            scope = local.scope
            for s in a.index.symbols:
                if s.ns == "local" and s.name == new_name and s.scope and scope and \
                        (scope.contains(s.sel.line, s.sel.col) or s.scope.contains(local.sel.line, local.sel.col)):
                    raise RenameError(f"{new_name!r} is already a local name here (line {s.sel.line + 1})")
            for r in a.index.refs:
                if r.name == new_name and r.local is None and scope and scope.contains(r.span.line, r.span.col):
                    raise RenameError(f"{new_name!r} is used inside this {local.kind}'s scope "
                                      f"(line {r.span.line + 1}); the new name would hide it")
        edits: dict[str, list] = {}
        for f, span, _ in occ:
            lst = edits.setdefault(f, [])
            if all(s != span for s, _ in lst):
                lst.append((span, new_name))
        for lst in edits.values():
            lst.sort(key=lambda e: (e[0].line, e[0].col))
        return edits

    # ---- outline
    def symbols(self, path: str) -> list[Symbol]:
        return self.analysis(path).index.outline

    # ---- hover
    def hover(self, path: str, line: int, col: int) -> tuple[str, Span] | None:
        a = self.analysis(path)
        t = self.target(path, line, col)
        if t is None:
            tok = token_at(a.lines, line, col)
            if tok is not None and tok.kind == "name" and tok.text in KEYWORD_DOC:
                e = KEYWORD_DOC[tok.text]
                return (_entry_md(e, "keyword"), Span(line, tok.col, line, tok.end))
            return None
        ns, name, local, span = t
        indexed = a.at(line, col) is not None
        if not indexed and name in KEYWORD_DOC and ns == "value" and name not in BUILTIN \
                and not self.declarations(path, ns, name):
            # a keyword: the index never records keywords, the text only sees a name
            return (_entry_md(KEYWORD_DOC[name], "keyword"), span)
        try:
            text = Hover(self, a).text(ns, name, local)
        except Exception:
            log.error("hover failed:\n%s", traceback.format_exc())
            text = None
        return (text, span) if text else None

    # ---- completion
    def completion(self, path: str, line: int, col: int) -> list[Item]:
        return Completer(self, self.analysis(path), line, col).items()


# ------------------------------------------------------------------ static checks


def static_raw(graph: g.Ruleset, path: str, base: g.Ruleset | None = None, base_path: str | None = None) -> list:
    """The fuzzer's static checks (nothing is played): [(kind, sentence, location)], leaving out
    the findings placed in another file that the base (`base`, read from `base_path`) has on its
    own. Plain data in and out, so that the server can run it in another process."""
    from ..fuzz import Static
    findings = Static(graph, path).findings
    foreign = [f for f in findings if _split_location(f.location)[0] is not None
               and norm(_split_location(f.location)[0]) != norm(path)]
    in_base: set = set()
    if base is not None and base_path and foreign:
        in_base = {(f.kind, f.location) for f in Static(base, base_path).findings}
    return [(f.kind, f.sentence, f.location) for f in findings if (f.kind, f.location) not in in_base]


def static_diags(a: Analysis, raw: list) -> list[Diag]:
    """Findings as warnings: on the name of what they are about; a finding placed in a base file
    goes on the variant's header, linked to its place."""
    out = []
    header = a.index.header
    for kind, sentence, location in raw:
        file, line, col = _split_location(location)
        if file is None or norm(file) == a.path:
            out.append(Diag(_finding_span(a, line, col), WARNING, sentence, kind))
        else:
            span = header.sel if header else Span(0, 0, 0, 0)
            out.append(Diag(span, WARNING, sentence, kind, [(norm(file), Span(line - 1, col - 1, line - 1, col),
                                                             sentence)]))
    return out


def static_findings(a: Analysis, base: g.Ruleset | None = None) -> list[Diag]:
    """The static checks of a compiled analysis as warnings, in this process."""
    if a.graph is None or not a.compiled:
        return []
    return static_diags(a, static_raw(a.graph, a.path, base, a.base))


def _finding_span(a: Analysis, line: int, col: int) -> Span:
    """Where a finding is underlined: the name of what it is about (a definition's name rather
    than the word `define`), else the token at its place."""
    for s in a.index.symbols:
        if s.full.line == line - 1 and s.full.col == col - 1 and s.ns != "local":
            return s.sel
    return _err_span(a.lines, line, col)


def _read_error(path, e) -> RulesetError:
    if isinstance(e, CardRulesError):
        return e
    if isinstance(e, FileNotFoundError):
        return RulesetError(f"no such ruleset file: {path}", path)
    if isinstance(e, UnicodeDecodeError):
        return RulesetError(f"the file is not UTF-8 text ({e.reason})", path)
    if isinstance(e, IsADirectoryError):
        return RulesetError(f"{path} is a folder, not a ruleset file", path)
    if isinstance(e, OSError):
        return RulesetError(f"cannot read the file: {e.strerror or e}", path)
    return RulesetError(f"cannot read the file: {e}", path)


def _split_location(loc: str | None) -> tuple[str | None, int, int]:
    if not loc:
        return None, 1, 1
    parts = loc.rsplit(":", 2)
    try:
        return parts[0], int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return None, 1, 1


def _shift(tree: Tree, delta: int) -> None:
    """Move a parse tree's positions down (or up) by delta lines, in place."""
    if not delta:
        return
    for sub in tree.iter_subtrees():
        m = sub.meta
        if not getattr(m, "empty", True):
            m.line += delta
            m.end_line += delta
        for c in sub.children:
            if isinstance(c, Token) and c.line is not None:
                c.line += delta
                c.end_line += delta


_DECL_RE = re.compile(r"^(?:new\s+)?(define|procedure|advice|option|zone|var|phase|interpretation|deck|rule|game|variant)"
                      r"\s+([A-Za-z_]\w*)")
_NS_OF = {"define": "value", "option": "value", "zone": "value", "var": "value", "game": "game", "variant": "game"}


def _lexical_symbols(a: Analysis, c: Chunk) -> None:
    """A chunk that does not parse still shows in the outline by its first line."""
    first = a.lines[c.start] if c.start < len(a.lines) else ""
    m = _DECL_RE.match(first)
    if not m:
        return
    kind, name = m.group(1), m.group(2)
    end = c.start + max(0, c.text.rstrip("\n").count("\n"))
    sel = Span(c.start, m.start(2), c.start, m.end(2))
    full = Span(c.start, 0, end, len(a.lines[end]) if end < len(a.lines) else 0)
    sym = Symbol(_NS_OF.get(kind, kind), name, kind, sel, full, first.strip().rstrip(":"))
    a.index.outline.append(sym)
    a.index.symbols.append(sym)
    if kind == "variant" and a.index.header is None:
        a.index.header = sym


_KEYWORDS: set | None = None


def _keywords() -> set:
    global _KEYWORDS
    if _KEYWORDS is None:
        from lark.lexer import PatternStr

        from ..parse import parser
        _KEYWORDS = {t.pattern.value for t in parser().terminals
                     if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}
        _KEYWORDS |= {"any", "no", "count", "highest", "lowest", "those"}
    return _KEYWORDS


def _value_names(rs: g.Ruleset) -> set:
    names = {d.name for d in rs.defines} | {o.name for o in rs.options} | {v.name for v in rs.vars}
    names |= {z.name for z in rs.zones} | set(rs.deck.suits) | set(rs.deck.ranks) | set(rs.deck.groups)
    names |= {c for o in rs.options for c in o.choices}
    return names


# ------------------------------------------------------------------ hover


def _entry_md(e, what: str) -> str:
    out = [f"**{e.name}** ({what})", f"```cards\n{e.form}\n```", e.words]
    if e.example:
        out.append(f"Example:\n```cards\n{e.example}\n```")
    return "\n\n".join(out)


def _md(text: str) -> str:
    from ..render.words import to_markdown
    return to_markdown(text)


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class Hover:
    """Hover text: what the rulebook says of a thing (the author's words, then precisely)."""

    def __init__(self, ws: Workspace, a: Analysis):
        self.ws = ws
        self.a = a
        self.rs = a.graph or a.last_good
        self._en = None

    @property
    def en(self):
        if self._en is None:
            from ..render.words import English
            self._en = English(self.rs)
        return self._en

    def where(self, node) -> str:
        loc = getattr(node, "loc", None)
        if loc is None or norm(loc.file) == self.a.path:
            return ""
        return f" \u2014 from `{Path(loc.file).name}`, line {loc.line}"

    def prose(self, node) -> list[str]:
        out = []
        texts = getattr(node, "texts", ())
        if texts:
            out.append(" ".join(texts))
        notes = getattr(node, "notes", ())
        if notes:
            out.append("*Note:* " + " ".join(notes))
        return out

    def precise(self, body, params=(), cond: bool = False) -> str:
        try:
            with self.en.bound(**{p.name: p.type for p in params}):
                return _md(self.en.cond(body) if cond else self.en(body))
        except Exception:
            from ..unparse import unparse
            return f"`{unparse(body)}`"

    def text(self, ns: str, name: str, local: Symbol | None) -> str | None:
        if local is not None:
            name_part, _, rest = (local.detail or local.name).partition(", ")
            return f"**local name** `{name_part}`" + (f": {rest}" if rest else "")
        rs = self.rs
        if ns == "file":
            return f"**base ruleset** `{name}`" + (f" \u2014 {self.ws_title(self.a.base)}" if self.a.base else "")
        if ns == "attr":
            if rs is not None and name in rs.deck.values:
                table = ", ".join(f"{r} = {v}" for r, v in rs.deck.values[name].items())
                return f"**card value** `{name}` (of the deck)\n\n{table}; other ranks are worth 0."
            e = CARD_ATTR.get(name) or ZONE_ATTR.get(name)
            return _entry_md(e, "attribute") if e else None
        if rs is None:
            decl = self.ws.declarations(self.a.path, ns, name)
            if decl:
                return f"**{decl[0][1].kind}** `{decl[0][1].detail}`"
            e = BUILTIN.get(name) if ns == "value" else None
            return _entry_md(e, "built-in") if e else None
        if ns == "procedure":
            p = next((p for p in rs.procedures if p.name == name), None)
            if p is None:
                return None
            sig = ", ".join(f"{x.name}: {x.type}" for x in p.params)
            return "\n\n".join([f"**procedure** `{name}({sig})`{self.where(p)}", *self.prose(p)])
        if ns == "phase":
            ph = next((p for p in rs.phases if p.name == name), None)
            if ph is None:
                return None
            first = " (the game starts here)" if rs.phases and rs.phases[0].name == name else ""
            then = f"; then phase `{ph.then}`" if ph.then else "; the game ends after it"
            title = f" \u201c{ph.title}\u201d" if ph.title else ""
            return "\n\n".join([f"**phase** `{name}`{title}{first}{then}{self.where(ph)}", *self.prose(ph)])
        if ns == "rule":
            r = _find_rule(rs, name)
            if r is None:
                return None
            rule, inside = r
            title = f" \u201c{rule.title}\u201d" if rule.title else ""
            out = [f"**rule** `{name}`{title} \u2014 in {inside}{self.where(rule)}", *self.prose(rule)]
            if rule.when is not None:
                out.append(f"*When:* {self.precise(rule.when, cond=True)}")
            return "\n\n".join(out)
        if ns == "advice":
            ad = next((x for x in rs.advice if x.name == name), None)
            if ad is None:
                return None
            return "\n\n".join([f"**advice** `{name}`{self.where(ad)}", ad.summary, *self.prose(ad),
                                f"*Precisely:* {self.precise(ad.body, ad.params)}"])
        if ns == "interpretation":
            it = next((x for x in rs.interpretations if x.name == name), None)
            if it is None:
                return None
            return "\n\n".join([f"**interpretation** `{name}`{self.where(it)}", f"*{it.question}*", *self.prose(it)])
        if ns == "action":
            return f"**action** `{name}`: one kind of move in a choice"
        if ns == "deck":
            d = rs.deck
            return "\n\n".join([f"**deck** `{d.name}`" + (f" \u201c{d.title}\u201d" if d.title else ""),
                                f"{d.size()} cards; suits {', '.join(d.suits)}; ranks {', '.join(d.ranks)} (low to high)",
                                *self.prose(d)])
        if ns == "game":
            kind = "variant" if rs.base else "game"
            extra = f" of {rs.base_title}" if rs.base else ""
            players = f"{rs.players_min}" if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
            return f"**{kind}** `{rs.name}`" + (f" \u201c{rs.title}\u201d" if rs.title else "") + f"{extra}, for {players} players"
        return self.value(name)

    def ws_title(self, path):
        try:
            rs = self.ws.graph_of(path)
            return rs.title or rs.name
        except Exception:
            return Path(path).name

    def value(self, name: str) -> str | None:
        rs = self.rs
        v = next((x for x in rs.vars if x.name == name), None)
        if v is not None:
            sig = f"{name}({', '.join(f'{p.name}: {p.type}' for p in v.params)})" if v.params else name
            out = [f"**variable** `{sig}: {v.type}`{self.where(v)}",
                   "One value for each player; everyone can see it." if v.params else "Everyone can see it."]
            if v.init is not None:
                out.append(f"*Starts as:* {self.precise(v.init, v.params)}")
            else:
                out.append("*Starts as:* none")
            return "\n\n".join(out)
        o = rs.option(name)
        if o is not None:
            typ = {"bool": "yes or no", "enum": "one of " + ", ".join(o.choices)}.get(o.type, "a number")
            if o.type == "int" and o.low is not None:
                typ = f"a number from {o.low} to {o.high}"
            out = [f"**option** `{name}`: {typ}, default **{_fmt(o.default)}**{self.where(o)}"]
            if self.a.base:
                try:
                    b = self.ws.graph_of(self.a.base).option(name)
                    if b is not None and b.default != o.default:
                        out[0] += f" (the base game's default: {_fmt(b.default)})"
                except CardRulesError:
                    pass
            if o.description:
                out.append(o.description)
            out += self.prose(o)
            return "\n\n".join(out)
        d = next((x for x in rs.defines if x.name == name), None)
        if d is not None:
            sig = f"{name}({', '.join(f'{p.name}: {p.type}' for p in d.params)})" if d.params else name
            try:
                cond = self.en.define_kind(name) == "bool"
            except Exception:
                cond = False
            out = [f"**definition** `{sig}`{self.where(d)}", *self.prose(d),
                   f"*Precisely:* {self.precise(d.body, d.params, cond=cond)}"]
            return "\n\n".join(out)
        z = next((x for x in rs.zones if x.name == name), None)
        if z is not None:
            seen = {"hidden": "its cards lie face down: nobody sees them", "owner": "only its owner sees its cards",
                    "public": "its cards lie face up: everyone sees them"}[z.visibility]
            if z.size:
                shape = f"a family of {z.size} shared zones, `{name}(1)` to `{name}({z.size})`"
            elif z.per_player:
                shape = f"one for each player (`{name}(p)`; `{name}` alone is all of them)"
            else:
                shape = "shared"
            first = "; every card starts here" if rs.zones and rs.zones[0].name == name else ""
            title = f" \u201c{z.title}\u201d" if z.title else ""
            return f"**zone** `{name}`{title}{self.where(z)}\n\n{shape}; {seen}{first}."
        deck = rs.deck
        if name in deck.groups:
            return f"**rank group** `{name}` (of the deck)\n\n{', '.join(deck.groups[name])}"
        if name in deck.suits:
            order = deck.order_of(name)
            return f"**suit** `{name}` (of the deck `{deck.name}`)\n\nRanks low to high: {', '.join(order)}"
        if name in deck.ranks:
            return f"**rank** `{name}` (of the deck `{deck.name}`)"
        for o in rs.options:
            if name in o.choices:
                return f"**value of option** `{o.name}` (one of {', '.join(o.choices)})"
        e = BUILTIN.get(name)
        if e is not None:
            return _entry_md(e, "built-in")
        return None


def _find_rule(rs: g.Ruleset, name: str):
    def walk(stmts, inside):
        for s in stmts:
            if isinstance(s, g.Rule) and s.name == name:
                return s, inside
            for block in g.child_blocks(s):
                hit = walk(block, inside)
                if hit:
                    return hit
        return None
    for ph in rs.phases:
        hit = walk(ph.body, f"phase `{ph.name}`")
        if hit:
            return hit
    for p in rs.procedures:
        hit = walk(p.body, f"procedure `{p.name}`")
        if hit:
            return hit
    return None


# ------------------------------------------------------------------ completion

_LET = re.compile(r"\blet\s+([A-Za-z_]\w*)\s*=")
_LOCAL_PATTERNS = [
    re.compile(r"\b(?:any|no|count|highest|lowest|those|all|sum)\s+([A-Za-z_]\w*)\s+in\b"),
    _LET,
    re.compile(r"\bfor\s+each\s+(?:player\s+)?([A-Za-z_]\w*)"),
    re.compile(r"\bby\s+each\s+([A-Za-z_]\w*)\s+in\b"),
    re.compile(r"\baction\s+[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s+in\b"),
    re.compile(r",\s*([A-Za-z_]\w*)\s+in\b"),
]
_PARAM_RE = re.compile(r"([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)")


class Completer:
    def __init__(self, ws: Workspace, a: Analysis, line: int, col: int):
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
        if prev == ":" and first in ("define", "procedure", "advice", "var", "new") and "=" not in words:
            return [Item(t, "type", "a type", sort="1") for t in TYPES]  # a parameter's or a variable's type
        if first in ("define", "procedure", "advice", "var", "zone", "option", "phase", "rule", "action",
                     "interpretation", "new") and len(words) <= 2 and ":" not in words and "=" not in words:
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
        builtin_kinds = {"player": {"next", "previous", "seat"}, "card": {"card", "top", "bottom", "first", "last"},
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


__all__ = ["Workspace", "Analysis", "Diag", "Item", "RenameError", "Span", "Symbol", "norm", "walk_symbols",
           "static_raw", "static_diags", "static_findings"]
