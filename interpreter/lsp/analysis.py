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
checks). tests/lsp/test_lsp.py checks all of this against loading the whole text.

**Variants.** A variant's base comes from the editor when it is open there, else from disk;
the family of a file is its base chain and every file below the root of that chain that names
it as a base (searched for in the folders of the chain and the workspace folders). Go to
definition follows the chain; references and rename cover the family.

**Modules.** The work is split by stage: model.py (the vocabulary and the result types), this module
(the documents and the parse of their chunks), load.py (assembling, compiling, diagnostics;
chains and families), navigate.py (definition, references, rename), hover.py, complete.py and
lint.py (the fuzzer's static checks). Everything is importable from here, as before."""

from __future__ import annotations

import time
import traceback

from lark import Tree
from lark.exceptions import VisitError

from ..language import build
from ..language import graph as g
from ..errors import CardRulesError, RulesetError, RulesetSyntaxError
from ..files import NotARulesetFile, check_ruleset_path, read_ruleset_file
from ..language.parse import parse_text
from ..language.transform import ToGraph
from .index import Index, Ref, Span, Symbol, index_trees, walk_symbols
from .text import NAME_FULL, chunk_starts, code_key, error_range, indent_of, line_tokens, token_at
# Re-exported: every name that was importable from this module before the split.
from .model import (
    log, MAX_CHARS, MAX_SCAN_FILES, MAX_SCAN_FOLDERS, ERROR, WARNING, INFO, BUILTIN, CARD_ATTR, ZONE_ATTR,
    KEYWORD_DOC, TOP_KEYWORDS, DECK_KEYWORDS, STATEMENT_KEYWORDS, EXPRESSION_KEYWORDS, RENAMABLE, TYPES,
    _TYPE_WORDS, Diag, Chunk, Analysis, Item, RenameError, norm, is_file_key, _pad, _err_span, base_reference,
    _keywords, _value_names, _fmt)
from .complete import Completer
from .hover import Hover, _entry_md, _find_rule, _md
from .load import _Loading, _lexical_symbols, _read_error, _shift
from .navigate import _Navigation
from .lint import _finding_span, _split_location, static_diags, static_findings, static_raw


# ------------------------------------------------------------------ the workspace


class Workspace(_Loading, _Navigation):
    """Open documents (the editor's text wins over the disk's), their analyses, and files on disk
    read on demand (for a variant's base, or for the family of a rename)."""

    def __init__(self, roots: list[str] | None = None, allowed=None):
        self.roots = [norm(r) for r in (roots or [])]
        # allowed(path) -> bool: the files it may read besides the open documents (None: any). The
        # studio confines every read to its folders: a variant's base named outside them is refused
        # before the disk is asked, so the answer says nothing of that file, not even that it exists.
        self.allowed = allowed
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
        """The text of a file: the editor's when open, else the disk's (raises NotARulesetFile:
        no such file, a folder, a device or a pipe, which is never read, a name no file can have,
        not UTF-8, ...)."""
        path = norm(path)
        if path in self.open:
            return self.open[path][0]
        if self.allowed is not None and not self.allowed(path):
            raise NotARulesetFile("outside", "", path)
        st = check_ruleset_path(path)
        key = (st.st_mtime_ns, st.st_size)
        hit = self.disk.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        text = read_ruleset_file(path)
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
            build.check_numbers(c.tree, path)  # a number past the language's limit is never read
            built = ToGraph(path).transform(c.tree)
        except CardRulesError as e:
            c.build = e
            return
        except VisitError as e:
            if isinstance(e.orig_exc, CardRulesError):
                c.build = e.orig_exc
                return
            raise e.orig_exc from None
        if c.start == 0:
            c.header, c.items = built[0], built[1:]
        else:
            c.items = built[1:]

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



__all__ = ["Workspace", "Analysis", "Diag", "Item", "RenameError", "Span", "Symbol", "norm", "walk_symbols",
           "static_raw", "static_diags", "static_findings"]
