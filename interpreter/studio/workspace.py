"""The studio's state, without the routes: the files it may touch, the language server's
workspace (one analysis behind the studio and `cardrules lsp`: the same diagnostics at the same
places, hover, completion, definition), the last version of each file that loaded with its
rulebook, which pages have which file open (and where a renamed one went), and the tables
opened from the editor.

The workspace is not made for threads, and the routes call in from worker threads (an analysis
of a large file takes tens of milliseconds; the event loop must keep answering), so every call
into it holds one lock."""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..files import _VARIANT
from ..errors import CardRulesError
from ..lsp import analysis as an
from ..lsp.index import walk_symbols
from .paths import Files, Refused, line_diff, sha256

PRESENCE_SECONDS = 20.0  # a page that has not said it is there for this long has closed


@dataclass
class Loaded:
    """The last version of a file that loaded (parsed, built and compiled without an error)."""

    path: str  # the file (its real path)
    text: str
    graph: object  # the rule graph, as `load_ruleset` gives it to the engine and the tools
    base: str | None  # a variant's base file, else None
    base_graph: object  # the base's rule graph (a variant), else None
    version: int  # counts the versions that loaded, across the studio
    chain: list[str] = field(default_factory=list)  # the file, its base, its base's base, ...
    deps: dict = field(default_factory=dict)  # base file -> the text it was built from


class Studio:
    """What `measure.routes(studio)` and the routes are given: `loaded(path)`, `web` (the
    mounted table's `interpreter.web.app.Web`), `token` (None, or what every request must carry),
    `files` (what may be opened)."""

    def __init__(self, files: Files, web, token: str | None, plays: Path):
        self.files = files
        self.web = web
        self.token = token
        self.plays = Path(plays)  # snapshots of the rules a table was opened with
        self.ws = an.Workspace([str(f) for f in files.folders], allowed=self._may_read)
        self.lock = threading.RLock()
        self._loaded: dict[str, Loaded] = {}
        self._books: dict[str, tuple[int, str]] = {}
        self._versions = 0
        self.pages: dict[str, dict[str, float]] = {}  # path -> {page id: when it last said it is there}
        self.moved: dict[str, str | None] = {}  # a renamed file's old path -> its new one

    def _may_read(self, path: str) -> bool:
        """Whether the analysis may read `path` from disk (a variant's base): the same confinement as
        a page's own requests, so a base named outside the folders is refused unread."""
        try:
            self.files.confine(path, must_exist=False)
        except Refused:
            return False
        return True

    # ---- the contract with the measure panels
    def loaded(self, path: str) -> Loaded | None:
        return self._loaded.get(os.path.realpath(path)) if isinstance(path, str) else None

    # ---- analysis
    def _sync(self, path: str, text: str | None) -> None:
        if text is not None:
            if not isinstance(text, str):
                raise Refused(400, "text must be a string")
            now = self.ws.open.get(an.norm(path))
            if now is None or now[0] != text:
                self.ws.change_doc(path, text)
        elif an.norm(path) not in self.ws.open:
            self.ws.open_doc(path, self.files.read(path).text)

    def analyse(self, given: object, text: object) -> dict:
        """The diagnostics of `text` as the file `given`, as the language server publishes them;
        when it loads, it becomes the file's loaded version (and its rulebook's)."""
        path, _ = self.files.confine(given, must_exist=False)
        path = str(path)
        with self.lock:
            self._sync(path, text)
            a = self.ws.analysis(path)
            ok = a.error is None and a.compiled and not a.broken
            if ok:
                self._keep(path, a)
            out = {"diagnostics": [diag_json(d) for d in a.diagnostics], "ok": ok,
                   "rules": rule_spans(a), "outline": outline(a), "ms": round(a.seconds * 1000, 1)}
        ld = self._loaded.get(path)
        out["rulebook_version"] = ld.version if ld else None
        if ld is not None:
            g = ld.graph
            out["players"] = [g.players_min, g.players_max]
            out["title"] = g.title or g.name
            out["base"] = ld.base
        if not ok and a.error is not None:
            e = a.error
            line = (e.line or 1) if (not e.file or an.norm(e.file) == path) else None
            out["error"] = {"message": e.message, "line": line,
                            "text": e.render() if hasattr(e, "render") else e.message}
        elif not ok and a.diagnostics:
            d = a.diagnostics[0]
            out["error"] = {"message": d.message, "line": d.span.line + 1, "text": d.message}
        return out

    def _keep(self, path: str, a) -> None:
        graph = a.graph
        old = self._loaded.get(path)
        deps = dict(a.deps)
        if old is not None and old.text == a.text and old.deps == deps:
            return
        base_graph = None
        if a.base:
            base_ld = self._loaded.get(a.base)
            if base_ld is not None and base_ld.text == deps.get(a.base):
                base_graph = base_ld.graph
            else:
                try:
                    base_graph = self.ws.graph_of(a.base)
                except CardRulesError:
                    base_graph = None
        self._versions += 1
        self._loaded[path] = Loaded(path, a.text, graph, a.base, base_graph, self._versions,
                                    self.ws.chain(path), deps)

    def warnings(self, given: object, text: object) -> dict:
        """The fuzzer's static checks on `text` (unused definitions, constant conditions, ...), as
        the language server publishes them a moment after typing stops: computed outside the
        lock (a few tenths of a second on a large file), so typing is never held up by them."""
        path = self._where(given)
        with self.lock:
            self._sync(path, text)
            a = self.ws.analysis(path)
            if a.error is not None or not a.compiled:
                return {"diagnostics": []}
            graph = a.graph
            base = None
            if a.base:
                try:
                    base = self.ws.graph_of(a.base)
                except CardRulesError:
                    base = None
        try:
            found = an.static_diags(a, an.static_raw(graph, a.path, base, a.base))
        except Exception:  # the checks are a bonus: never an error for the page
            an.log.exception("the static checks of %s failed", path)
            found = []
        return {"diagnostics": [diag_json(d) for d in found]}

    def hover(self, given, text, line, col) -> dict | None:
        path = self._where(given)
        with self.lock:
            self._sync(path, text)
            hit = self.ws.hover(path, _int(line, "line"), _int(col, "col"))
        if not hit:
            return None
        md, span = hit
        return {"markdown": md, "range": span_json(span)}

    def complete(self, given, text, line, col) -> list[dict]:
        path = self._where(given)
        with self.lock:
            self._sync(path, text)
            items = self.ws.completion(path, _int(line, "line"), _int(col, "col"))
        return [{"label": it.label, "kind": it.kind, "detail": it.detail, "insert": it.insert,
                 "sort": it.sort} for it in items]

    def definition(self, given, text, line, col) -> dict | None:
        path = self._where(given)
        with self.lock:
            self._sync(path, text)
            found = self.ws.definition(path, _int(line, "line"), _int(col, "col"))
        for p, span in found:
            if not p:
                continue
            try:
                real, readonly = self.files.confine(p)
            except Refused:
                continue  # a place the studio may not open
            return {"path": str(real), "line": span.line, "col": span.col, "readonly": readonly}
        return None

    def _where(self, given) -> str:
        return str(self.files.confine(given, must_exist=False)[0])

    # ---- the rulebook
    def rulebook(self, given) -> tuple[int, str] | None:
        """(version, HTML) of the rulebook of the file's last version that loaded: the same
        templates as `cardrules rulebook`, each rule and phase of this file with its line."""
        path = self._where(given)
        ld = self._loaded.get(path)
        if ld is None:
            return None
        hit = self._books.get(path)
        if hit is not None and hit[0] == ld.version:
            return hit
        from ..render import render_html
        html = render_html(ld.graph, source_lines=an.norm(path))
        hit = (ld.version, html)
        self._books[path] = hit
        return hit

    # ---- files
    def open_file(self, given, page: str | None) -> dict:
        o = self.files.read(given)
        with self.lock:
            if an.norm(o.path) not in self.ws.open:
                self.ws.open_doc(o.path, o.text)
        out = {"path": o.path, "text": o.text, "sha256": o.sha256, "readonly": o.readonly,
               "name": Path(o.path).name}
        out["others"] = self.present(o.path, page)
        return out

    def saved(self, path: str) -> None:
        with self.lock:
            self.ws.forget_disk(path)
            self.moved.pop(path, None)

    def rename(self, given, name) -> dict:
        """Give a file another name in its folder; the pages that have it open follow it there
        (their presence moves with it, and `where` tells them on their next question)."""
        old, new, variants = self.files.rename(given, name)
        old, new = str(old), str(new)
        with self.lock:
            self._forget(old)
            self.moved.pop(new, None)
            self.moved[old] = new
            if len(self.moved) > 1000:
                self.moved = {k: v for k, v in list(self.moved.items())[-500:]}
            pages = self.pages.pop(old, {})
            self.pages.setdefault(new, {}).update(pages)
        return {"path": new, "name": Path(new).name, "old": old, "variants": [str(v) for v in variants]}

    def delete(self, given, sha) -> dict:
        path, variants = self.files.delete(given, sha)
        with self.lock:
            self._forget(str(path))
            self.moved.pop(str(path), None)
        return {"path": str(path), "variants": [str(v) for v in variants]}

    def _forget(self, path: str) -> None:
        self.ws.close_doc(path)
        self.ws.forget_disk(path)
        self._loaded.pop(path, None)
        self._books.pop(path, None)

    def where(self, path: str) -> dict:
        """The file a page has open, on disk now: its sha256 (None: not there), and where it
        went when it was renamed (the last of a chain of renames)."""
        out: dict = {"sha256": self.files.disk_sha(Path(path))}
        if out["sha256"] is None:
            to, hops = self.moved.get(path), 0
            while to is not None and self.moved.get(to) and hops < 20:
                to, hops = self.moved[to], hops + 1
            if to is not None and os.path.isfile(to):
                out["moved"] = to
        return out

    def changes(self, given, text) -> dict:
        """What differs between a page's text and the file on disk now (a line diff)."""
        path, _ = self.files.confine(given, must_exist=False)
        if not isinstance(text, str):
            raise Refused(400, "text must be a string")
        try:
            disk = path.read_bytes()
        except FileNotFoundError:
            return {"path": str(path), "sha256": None, **self.where(str(path))}
        except OSError as e:
            raise Refused(409, f"{path}: cannot read the file on disk: {e.strerror or e}") from None
        return {"path": str(path), "sha256": sha256(disk),
                "diff": line_diff(text, disk.decode("utf-8", errors="replace"))}

    def present(self, path: str, page: str | None) -> int:
        """Note that `page` has `path` open (now); how many other pages have it open."""
        now = time.monotonic()
        here = self.pages.setdefault(path, {})
        if page:
            for p in [p for p, seen in self.pages.items() if page in seen and p != path]:
                self.pages[p].pop(page, None)  # a page edits one file at a time
            here[page] = now
        for p in [p for p, seen in here.items() if now - seen > PRESENCE_SECONDS]:
            del here[p]
        return sum(1 for p in here if p != page)

    def leave(self, path: str, page: str) -> None:
        self.pages.get(path, {}).pop(page, None)

    # ---- play it now
    def snapshot(self, ld: Loaded) -> Path:
        """The texts the loaded version was built from, written once under `plays/` (named by
        their hash, never changed): a table opened from them keeps them, and its file replays
        after a restart. A variant's header names its base's snapshot beside it."""
        chain = [(ld.path, ld.text)] + [(p, ld.deps.get(p)) for p in ld.chain[1:] if ld.deps.get(p) is not None]
        h = hashlib.sha256()
        for p, t in chain:
            h.update(p.encode() + b"\0" + t.encode("utf-8", "surrogatepass") + b"\0")
        folder = self.plays / h.hexdigest()[:16]
        names = [Path(p).name if i == 0 else f"base{i}-{Path(p).name}" for i, (p, _) in enumerate(chain)]
        from ..files import write_atomic
        for i, (p, t) in enumerate(chain):
            target = folder / names[i]
            if i + 1 < len(chain):
                m = _VARIANT.search(t)
                if m:
                    t = t[:m.start(1)] + names[i + 1] + t[m.end(1):]
            if not target.exists():
                write_atomic(target, t.encode("utf-8", "surrogatepass"))
        return folder / names[0]

    def play(self, given, players, seats, seed) -> dict:
        """A table of the file's last version that loaded: `seats` is 'person' or a bot's spec
        for each seat. The table is made from the graph the studio loaded (not from the file on
        disk, which may not be saved) and keeps it: editing afterwards changes nothing there."""
        import secrets
        from ..errors import OptionError
        path = self._where(given)
        ld = self._loaded.get(path)
        if ld is None:
            raise Refused(409, "this file has not loaded yet: mend the error shown, then play")
        n = _int(players, "players")
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) for s in seats):
            raise Refused(400, f"say who sits in each of the {n} seats (seats: a list of 'person' or a bot)")
        if seed is None or seed == "":
            seed = secrets.randbelow(1_000_000)
        seed = _int(seed, "seed")
        snap = self.snapshot(ld)
        entry = self.web.catalog.add(snap, listed=False, ruleset=ld.graph)
        try:
            table = self.web.tables.open(entry.key, n, {}, seed, seats)
        except OptionError as e:
            raise Refused(400, e.message) from None
        except CardRulesError as e:  # the game fails before its first decision (an endless loop, ...)
            e = located(e, ld)
            raise Refused(422, e.message, located=e.render(), line=e.line if e.file == ld.path else None) from None
        return {"table": table}


def located(e: CardRulesError, ld: Loaded) -> CardRulesError:
    """The engine's error at the rule it names (the engine says which rule it was in, not
    where that rule is written): `file:line:col: error: ...` as the rest of the tool says it."""
    if e.file or not isinstance(e, CardRulesError):
        return e
    m = re.search(r"rule '(\w+)'", e.message)
    rule = find_rule(ld.graph, m.group(1)) if m else None
    loc = getattr(rule, "loc", None)
    if loc is None:
        return e
    source = None
    if loc.file == ld.path:
        lines = ld.text.split("\n")
        source = lines[loc.line - 1] if 0 < loc.line <= len(lines) else None
    return type(e)(e.message, loc.file, loc.line, loc.column, source)


def find_rule(rs, name: str):
    """The rule of that name, wherever it is written (a phase, a procedure, nested)."""
    from ..language import graph as g
    todo = [st for ph in rs.phases for st in ph.body] + [st for p in rs.procedures for st in p.body]
    while todo:
        st = todo.pop()
        if isinstance(st, g.Rule) and st.name == name:
            return st
        for block in g.child_blocks(st):
            todo.extend(block)
    return None


def diag_json(d) -> dict:
    s = d.span
    out = {"line": s.line, "col": s.col, "endLine": s.end_line, "endCol": s.end_col,
           "severity": "info" if d.severity == an.INFO else d.severity, "message": d.message, "code": d.code}
    if d.related:
        out["related"] = [{"path": p, "line": sp.line, "col": sp.col, "message": m} for p, sp, m in d.related]
    return out


def span_json(s) -> dict:
    return {"line": s.line, "col": s.col, "endLine": s.end_line, "endCol": s.end_col}


def rule_spans(a) -> list[dict]:
    """Where each rule and phase of the file is written (0-based lines), to mark the one under
    the cursor in the book (whose blocks carry the 1-based line of their start)."""
    out = []
    for s in walk_symbols(a.index.outline):
        if s.kind in ("rule", "phase"):
            out.append({"kind": s.kind, "name": s.name, "line": s.full.line, "endLine": s.full.end_line})
    return out


OUTLINED = ("phase", "procedure", "rule")
_TITLE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"')


def outline(a) -> list[dict]:
    """The file's phases, procedures and rules in the order written, each with its depth (a rule
    inside a phase is one deeper), for the studio's outline panel; 0-based lines and columns."""
    out = []

    def walk(symbols, depth):
        for s in symbols:
            if s.kind not in OUTLINED:
                walk(s.children, depth)
                continue
            line = a.lines[s.sel.line] if 0 <= s.sel.line < len(a.lines) else ""
            m = _TITLE.match(line, s.sel.end_col)
            out.append({"kind": s.kind, "name": s.name, "title": m.group(1) if m else "",
                        "line": s.sel.line, "col": s.sel.col, "depth": depth})
            walk(s.children, depth + 1)
    walk(a.index.outline, 0)
    return out


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or \
            not re.fullmatch(r"-?[0-9]{1,18}", str(value).strip()):
        raise Refused(400, f"{what} must be a whole number")
    n = int(str(value).strip())
    if n < 0:
        raise Refused(400, f"{what} must be 0 or more")
    return n
