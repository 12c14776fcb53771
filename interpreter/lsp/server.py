"""The protocol side of `cardrules lsp` (pygls 2): documents in, diagnostics and answers out.
Everything that knows the language is behind analysis.py (and the modules it draws on); this
module converts positions (the client counts UTF-16 units, the analysis code points), URIs and
results, schedules work and makes sure that nothing a client sends can bring the server down.

Scheduling: a change is analysed after DEBOUNCE seconds without another change (a request
that needs the document sooner analyses it at once), and its load diagnostics are published.
The fuzzer's static checks take a few tenths of a second on a large file, so they run in a
process of their own STATIC_DELAY seconds after the last change and are published when they
finish, if the text has not changed meanwhile; until then the warnings of the previous run stay
on the lines that have not changed."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
import traceback
from functools import wraps

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import analysis as an
from .index import Span

log = logging.getLogger("cardrules.lsp")

DEBOUNCE = 0.01
STATIC_DELAY = 0.3
STATIC_TIMEOUT = 60.0
REQUEST_FAILED = -32803

_SEVERITY = {an.ERROR: T.DiagnosticSeverity.Error, an.WARNING: T.DiagnosticSeverity.Warning,
             an.INFO: T.DiagnosticSeverity.Information}
_COMPLETION_KIND = {
    "keyword": T.CompletionItemKind.Keyword, "define": T.CompletionItemKind.Function,
    "procedure": T.CompletionItemKind.Method, "option": T.CompletionItemKind.Property,
    "zone": T.CompletionItemKind.Field, "var": T.CompletionItemKind.Variable, "local": T.CompletionItemKind.Variable,
    "builtin": T.CompletionItemKind.Function, "suit": T.CompletionItemKind.EnumMember,
    "rank": T.CompletionItemKind.EnumMember, "group": T.CompletionItemKind.Enum,
    "enum": T.CompletionItemKind.EnumMember, "card": T.CompletionItemKind.Constant,
    "attribute": T.CompletionItemKind.Property, "value": T.CompletionItemKind.Property,
    "phase": T.CompletionItemKind.Module, "rule": T.CompletionItemKind.Event,
    "type": T.CompletionItemKind.TypeParameter,
}
_SYMBOL_KIND = {
    "game": T.SymbolKind.File, "variant": T.SymbolKind.File, "deck": T.SymbolKind.Struct,
    "suit": T.SymbolKind.EnumMember, "rank": T.SymbolKind.EnumMember, "group": T.SymbolKind.Enum,
    "value": T.SymbolKind.Property, "zone": T.SymbolKind.Field, "option": T.SymbolKind.Property,
    "var": T.SymbolKind.Variable, "define": T.SymbolKind.Function, "advice": T.SymbolKind.Function,
    "procedure": T.SymbolKind.Method, "phase": T.SymbolKind.Module, "rule": T.SymbolKind.Event,
    "action": T.SymbolKind.Method, "interpretation": T.SymbolKind.String,
}


class CardsServer(LanguageServer):
    def __init__(self):
        super().__init__("cardrules", _version(), text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.ws = an.Workspace()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.static_timers: dict[str, asyncio.TimerHandle] = {}
        self.static: dict[str, tuple[list[str], list]] = {}   # uri -> (lines then, warnings)
        self.static_text: dict[str, str] = {}
        self.checker = StaticChecker()

    def shutdown(self):
        self.checker.stop()
        super().shutdown()

    # ---- paths and positions
    @staticmethod
    def path_of(uri: str) -> str:
        if uri.startswith("file:"):
            return an.norm(to_fs_path(uri) or uri)
        return uri

    @staticmethod
    def uri_of(path: str) -> str:
        if not an.is_file_key(path):
            return path
        return from_fs_path(path) or path

    def units(self, s: str) -> int:
        return self.workspace.position_codec.client_num_units(s)

    def to_col(self, lines: list[str], line: int, units: int) -> int:
        """A client column (UTF-16 units by default) as a code-point column."""
        if not 0 <= line < len(lines):
            return 0
        text = lines[line]
        n = 0
        for i, ch in enumerate(text):
            if n >= units:
                return i
            n += self.units(ch)
        return len(text)

    def pos(self, lines: list[str], line: int, col: int) -> T.Position:
        if 0 <= line < len(lines):
            col = self.units(lines[line][:col])
        return T.Position(line=max(0, line), character=max(0, col))

    def rng(self, lines: list[str], span: Span) -> T.Range:
        return T.Range(start=self.pos(lines, span.line, span.col), end=self.pos(lines, span.end_line, span.end_col))

    def lines_of(self, path: str) -> list[str]:
        try:
            return self.ws.analysis(path).lines
        except Exception:
            return []

    def where(self, uri: str, position: T.Position) -> tuple[str, int, int]:
        path = self.path_of(uri)
        lines = self.ws.analysis(path).lines
        return path, position.line, self.to_col(lines, position.line, position.character)

    def location(self, path: str, span: Span) -> T.Location:
        return T.Location(uri=self.uri_of(path), range=self.rng(self.lines_of(path), span))

    # ---- diagnostics
    def diagnostic(self, d: an.Diag, lines: list[str]) -> T.Diagnostic:
        related = [T.DiagnosticRelatedInformation(location=self.location(p, s), message=m) for p, s, m in d.related]
        return T.Diagnostic(range=self.rng(lines, d.span), message=d.message, severity=_SEVERITY[d.severity],
                            source="cardrules", code=d.code or None, related_information=related or None)

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, self.publish, uri)

    def publish(self, uri: str) -> None:
        self.timers.pop(uri, None)
        path = self.path_of(uri)
        if path not in self.ws.open:
            return
        try:
            t = time.perf_counter()
            a = self.ws.analysis(path)
            diags = [self.diagnostic(d, a.lines) for d in a.diagnostics]
            log.debug("%s: analysed in %.1f ms (%.1f ms in all)", uri, a.seconds * 1000, (time.perf_counter() - t) * 1000)
            if a.stage == "internal":
                self.log(f"cardrules: {uri}: {a.error.message}")
            diags += self.kept_static(uri, a)
        except Exception as e:  # never let a notification take the server down
            log.error("publishing diagnostics for %s failed:\n%s", uri, traceback.format_exc())
            self.log(f"cardrules: publishing diagnostics failed: {type(e).__name__}: {e}")
            diags = [T.Diagnostic(range=T.Range(start=T.Position(line=0, character=0),
                                                end=T.Position(line=0, character=0)),
                                  message=f"the language server failed on this file ({type(e).__name__}: {e}); "
                                          "this is a bug in cardrules, and the server's log has the details",
                                  severity=T.DiagnosticSeverity.Error, source="cardrules")]
            a = None
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags,
                                                                          version=a.version if a else None))
        if a is not None and a.compiled and self.static_text.get(uri) != a.text:
            self.schedule_static(uri)

    def kept_static(self, uri: str, a: an.Analysis) -> list[T.Diagnostic]:
        """The static warnings of the latest run, on the lines that have not changed since."""
        hit = self.static.get(uri)
        if hit is None:
            return []
        old_lines, warnings = hit
        out = []
        for d in warnings:
            ln = d.span.line
            if ln < len(a.lines) and ln < len(old_lines) and a.lines[ln] == old_lines[ln]:
                out.append(self.diagnostic(d, a.lines))
        return out

    def schedule_static(self, uri: str) -> None:
        old = self.static_timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.static_timers[uri] = loop.call_later(STATIC_DELAY, lambda: asyncio.ensure_future(self.run_static(uri)))

    async def run_static(self, uri: str) -> None:
        self.static_timers.pop(uri, None)
        path = self.path_of(uri)
        if path not in self.ws.open:
            return
        try:
            a = self.ws.analysis(path)
            if not a.compiled or self.static_text.get(uri) == a.text or a.graph is None:
                return  # (a.graph is built here, in the event loop's thread, not in the worker)
            base_rs = None
            if a.base:
                try:
                    base_rs = self.ws.graph_of(a.base)
                except Exception:
                    base_rs = None
            raw = await self.checker.run(a.graph, a.path, base_rs, a.base)
            warnings = an.static_diags(a, raw)
        except Exception as e:
            log.error("static checks of %s failed:\n%s", uri, traceback.format_exc())
            self.log(f"cardrules: the static checks failed: {type(e).__name__}: {e}")
            self.static_text[uri] = a.text  # not again for this text
            return
        if path not in self.ws.open or self.ws.open[path][0] != a.text:
            return  # changed meanwhile: the next run will say
        self.static[uri] = (a.lines, warnings)
        self.static_text[uri] = a.text
        self.publish(uri)

    def log(self, message: str, kind=T.MessageType.Error) -> None:
        try:
            self.window_log_message(T.LogMessageParams(type=kind, message=message))
        except Exception:
            pass

    def forget(self, uri: str) -> None:
        for d in (self.timers, self.static_timers):
            h = d.pop(uri, None)
            if h is not None:
                h.cancel()
        self.static.pop(uri, None)
        self.static_text.pop(uri, None)

    def republish_dependents(self, path: str) -> None:
        for p in self.ws.dependents(path):
            self.schedule(self.uri_of(p), DEBOUNCE)


def _quiet_child(server: int) -> None:
    """In the checking process: stdout is the protocol's channel, so anything printed goes to
    stderr; and it ends with the server, however the editor ended that."""
    from ..processes import die_with
    die_with(server)
    os.dup2(2, 1)
    sys.stdout = sys.stderr


class StaticChecker:
    """Runs the static checks in a process of its own: they take a few tenths of a second on a
    large file, and in a thread they would hold the interpreter lock against the requests that
    arrive meanwhile (and on two cores they now run beside the server). A check that takes
    longer than STATIC_TIMEOUT is abandoned and the process replaced; where no process can be
    started, a thread does the work."""

    def __init__(self):
        self.pool = None
        self.thread_only = False

    def _pool(self):
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_quiet_child, initargs=(os.getpid(),))
        return self.pool

    async def run(self, graph, path, base, base_path) -> list:
        loop = asyncio.get_running_loop()
        if not self.thread_only:
            try:
                fut = self._pool().submit(an.static_raw, graph, path, base, base_path)
                return await asyncio.wait_for(asyncio.wrap_future(fut), STATIC_TIMEOUT)
            except asyncio.TimeoutError:
                self.stop()
                raise RuntimeError(f"the static checks took more than {STATIC_TIMEOUT:.0f} s and were stopped")
            except (OSError, ImportError, NotImplementedError) as e:  # no processes here: a thread will do
                log.warning("static checks in a thread (no process: %s)", e)
                self.thread_only = True
            except Exception as e:
                from concurrent.futures.process import BrokenProcessPool
                if not isinstance(e, BrokenProcessPool):
                    raise
                self.stop()
                raise RuntimeError("the process running the static checks stopped; it will be started again")
        return await loop.run_in_executor(None, an.static_raw, graph, path, base, base_path)

    def stop(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        for proc in list(getattr(pool, "_processes", {}).values()):
            try:
                proc.terminate()
            except Exception:
                pass
        # The queue's feeder thread may be writing a check's graph (hundreds of kilobytes) into a
        # pipe the stopped process no longer reads: closing our end of it fails that write, and
        # nothing waits for the feeder when the server exits (else the exit hung, the editor
        # waiting on it). CPython does the same for a pool it finds broken (gh-94777).
        calls = getattr(pool, "_call_queue", None)
        if calls is not None:
            try:
                calls.cancel_join_thread()
                calls._reader.close()
            except Exception:
                pass
        try:
            pool.shutdown(wait=False, cancel_futures=True)
        except Exception:
            pass


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("cardrules")
    except Exception:
        return "0"


server = CardsServer()


def guarded(default=None):
    """A handler that logs any unexpected exception and answers `default` instead of failing.
    A JsonRpcException (a rename that cannot be made) goes to the client as the answer."""
    def wrap(fn):
        @wraps(fn)
        def inner(ls: CardsServer, params):
            try:
                return fn(ls, params)
            except JsonRpcException:
                raise
            except Exception as e:
                log.error("%s failed:\n%s", fn.__name__, traceback.format_exc())
                ls.log(f"cardrules: {fn.__name__} failed: {type(e).__name__}: {e}")
                return default() if callable(default) else default
        return inner
    return wrap


# ------------------------------------------------------------------ documents


@server.feature(T.INITIALIZED)
@guarded()
def initialized(ls: CardsServer, params: T.InitializedParams):
    roots = []
    for f in ls.workspace.folders.values():
        if f.uri.startswith("file:"):
            roots.append(ls.path_of(f.uri))
    if not roots and ls.workspace.root_path:
        roots.append(an.norm(ls.workspace.root_path))
    ls.ws.roots = roots


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
@guarded()
def did_open(ls: CardsServer, params: T.DidOpenTextDocumentParams):
    doc = params.text_document
    path = ls.path_of(doc.uri)
    ls.ws.open_doc(path, doc.text, doc.version)
    ls.publish(doc.uri)
    ls.republish_dependents(path)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
@guarded()
def did_change(ls: CardsServer, params: T.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    path = ls.path_of(uri)
    ls.ws.change_doc(path, doc.source, params.text_document.version)
    ls.schedule(uri)
    ls.republish_dependents(path)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
@guarded()
def did_close(ls: CardsServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    path = ls.path_of(uri)
    ls.ws.close_doc(path)
    ls.forget(uri)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    ls.republish_dependents(path)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
@guarded()
def did_save(ls: CardsServer, params: T.DidSaveTextDocumentParams):
    path = ls.path_of(params.text_document.uri)
    ls.ws.forget_disk(path)
    ls.republish_dependents(path)


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guarded()
def watched(ls: CardsServer, params: T.DidChangeWatchedFilesParams):
    for ch in params.changes:
        ls.ws.forget_disk(ls.path_of(ch.uri))
    for p in list(ls.ws.open):
        ls.schedule(ls.uri_of(p))


# ------------------------------------------------------------------ requests


@server.feature(T.TEXT_DOCUMENT_HOVER)
@guarded()
def hover(ls: CardsServer, params: T.HoverParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    hit = ls.ws.hover(path, line, col)
    if hit is None:
        return None
    text, span = hit
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text),
                   range=ls.rng(ls.lines_of(path), span))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@guarded(list)
def definition(ls: CardsServer, params: T.DefinitionParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    return [ls.location(p, s) for p, s in ls.ws.definition(path, line, col) if p]


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
@guarded(list)
def references(ls: CardsServer, params: T.ReferenceParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    include = params.context.include_declaration if params.context else True
    return [ls.location(p, s) for p, s in ls.ws.references(path, line, col, include)]


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", "(", ","]))
@guarded()
def completion(ls: CardsServer, params: T.CompletionParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    items = []
    for it in ls.ws.completion(path, line, col):
        doc = T.MarkupContent(kind=T.MarkupKind.Markdown, value=it.doc) if it.doc else None
        items.append(T.CompletionItem(label=it.label, kind=_COMPLETION_KIND.get(it.kind, T.CompletionItemKind.Text),
                                      detail=it.detail or None, documentation=doc, insert_text=it.insert,
                                      sort_text=f"{it.sort}{it.label.lower()}", preselect=it.preselect or None))
    return T.CompletionList(is_incomplete=False, items=items)


def _doc_symbol(ls: CardsServer, lines, s) -> T.DocumentSymbol:
    full = s.full if (s.full.line, s.full.col) <= (s.sel.line, s.sel.col) else s.sel
    end = max((full.end_line, full.end_col), (s.sel.end_line, s.sel.end_col))
    full = Span(full.line, full.col, end[0], end[1])
    return T.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND.get(s.kind, T.SymbolKind.Object), detail=s.detail or None,
                            range=ls.rng(lines, full), selection_range=ls.rng(lines, s.sel),
                            children=[_doc_symbol(ls, lines, c) for c in s.children] or None)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded(list)
def document_symbols(ls: CardsServer, params: T.DocumentSymbolParams):
    path = ls.path_of(params.text_document.uri)
    a = ls.ws.analysis(path)
    return [_doc_symbol(ls, a.lines, s) for s in a.index.outline]


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded()
def prepare_rename(ls: CardsServer, params: T.PrepareRenameParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    try:
        span = ls.ws.prepare_rename(path, line, col)
    except an.RenameError as e:
        raise JsonRpcException(str(e), code=REQUEST_FAILED) from None
    return ls.rng(ls.lines_of(path), span)


@server.feature(T.TEXT_DOCUMENT_RENAME)
@guarded()
def rename(ls: CardsServer, params: T.RenameParams):
    path, line, col = ls.where(params.text_document.uri, params.position)
    try:
        edits = ls.ws.rename(path, line, col, params.new_name)
    except an.RenameError as e:
        raise JsonRpcException(str(e), code=REQUEST_FAILED) from None
    changes = {}
    for p, lst in edits.items():
        lines = ls.lines_of(p)
        changes[ls.uri_of(p)] = [T.TextEdit(range=ls.rng(lines, s), new_text=t) for s, t in lst]
    return T.WorkspaceEdit(changes=changes)


class _QuietRefusals(logging.Filter):
    """pygls logs every error answer with a traceback; a rename refused on purpose is no error."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (isinstance(exc, JsonRpcException) and exc.code == REQUEST_FAILED)


def serve() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="cardrules lsp: %(levelname)s: %(message)s")
    level = os.environ.get("CARDRULES_LSP_LOG", "warning").upper()  # debug: the time of every analysis
    log.setLevel(getattr(logging, level, logging.WARNING))
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_QuietRefusals())
    server.start_io()
