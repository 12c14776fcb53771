"""Loading, the workspace's middle stage: the chunks of a document put together into its rule
graph as `build_text` would, compiled, and turned into diagnostics; a variant's base chain and
family. A mixin of analysis.Workspace (which parses the chunks and keeps the documents)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from lark import Token, Tree

from ..language import build
from ..language import graph as g
from ..language.assemble import _assemble_game, _merge_variant
from ..bundled import base_file
from ..errors import CardRulesError, RulesetError, RulesetSyntaxError
from ..files import NotARulesetFile
from ..language.parse import parse_text
from ..language.locate import SOURCES, located
from .index import Span, Symbol
from .model import (
    MAX_SCAN_FILES, MAX_SCAN_FOLDERS, ERROR, Diag, Chunk, Analysis, norm, is_file_key, _pad, _err_span,
    base_reference)


class _Loading:
    """Workspace methods that assemble, compile and report (see analysis.Workspace)."""

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
            a.base = norm(base_file(ref, a.path)) if is_file_key(a.path) else None
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
        SOURCES[a.path] = a.text.splitlines()
        try:
            if header is None:
                raise RulesetError("the file has no 'game' or 'variant' line", a.path, 1, 1)
            if header.kind == "game":
                return _assemble_game(header, items, a.path)
            name, title, base_ref = header.value
            at = header.at or header.loc  # as build_text: an error about the base points at its name
            build.base_path_of(base_ref, a.path, at)  # a NUL, too long: before the system is asked
            base_path = a.base or norm(Path(a.path).parent / base_ref)
            if base_path in seen or base_path == a.path:
                raise located(f"variant {name!r} is its own base (a cycle through {base_ref!r})", at)
            try:  # missing, a folder, a device, a pipe (never read), unreadable: worded as build_text does
                self.text_of(base_path)
            except NotARulesetFile as e:
                raise build.base_error(e, base_ref, base_path, at) from None
            base = self.graph_of(base_path, seen + (a.path,))
            return _merge_variant(base, name, title, items, a.path, header.loc)
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
            nxt = norm(base_file(ref, out[-1]))
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
        except (OSError, ValueError):  # (ValueError: a NUL in a base's name)
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
            if is_file_key(p) and (self.allowed is None or self.allowed(p)):
                candidates.update(self._cards_files(os.path.dirname(p), False))
        for r in self.roots:
            candidates.update(self._cards_files(r, True))
        return sorted(f for f in candidates if f == root or root in self.chain(f))


def _read_error(path, e) -> RulesetError:
    if isinstance(e, CardRulesError):
        return e
    if isinstance(e, NotARulesetFile):
        return e.file_error(path)
    if isinstance(e, FileNotFoundError):
        return RulesetError(f"no such ruleset file: {path}", path)
    if isinstance(e, UnicodeDecodeError):
        return RulesetError(f"the file is not UTF-8 text ({e.reason})", path)
    if isinstance(e, IsADirectoryError):
        return RulesetError(f"{path} is a folder, not a ruleset file", path)
    if isinstance(e, OSError):
        return RulesetError(f"cannot read the file: {e.strerror or e}", path)
    return RulesetError(f"cannot read the file: {e}", path)


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
