"""How fast the language server answers while a ruleset is being edited.

    python benchmarks/lsp.py [--runs N] [FILE]

FILE defaults to rulesets/euro-jongg/euro-jongg.cards, the largest ruleset. Two parts:

1. In process, without the protocol (interpreter/lsp/analysis.py): the time to analyse one
   change of an open document (parse what changed, build, compile, index), for typical edits:
   a character typed in a definition's body (the file stays valid), a half-typed expression
   (a syntax error), a line inserted near the top (every chunk below moves), a comment edited
   (the rule graph is unchanged); and the first analysis of the file, and the static checks.
2. Through the protocol, the server as a process (`python -m interpreter lsp`): from sending
   didChange to receiving its publishDiagnostics (which includes the server's debounce of
   DEBOUNCE seconds), then hover, completion and go to definition, and how long after the
   change the static warnings arrive (they wait STATIC_DELAY seconds for typing to stop).

Prints medians and maxima in milliseconds. Figures only: nothing asserts a time. The target
(issue 13): an answer within 100 ms of a change to a file like Euro-Jongg's."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _row(label: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    print(f"  {label:<52} median {statistics.median(ms):7.1f} ms   max {max(ms):7.1f} ms   ({len(ms)} runs)")


def _number_in_a_definition(lines: list[str]):
    """A definition's line and a number in its body that can be retyped as another number with
    the file still valid."""
    import re

    from interpreter import CardRulesError, loads_ruleset
    for i, line in enumerate(lines):
        if not line.startswith("define ") or "=" not in line:
            continue
        for m in re.finditer(r"\b[0-9]+\b", line[line.index("="):]):
            m = re.compile(r"[0-9]+").match(line, line.index("=") + m.start())
            try:
                for bump in (1, 2):
                    ls = list(lines)
                    ls[i] = line[:m.start()] + str(int(m.group()) + bump) + line[m.end():]
                    loads_ruleset("\n".join(ls))
            except CardRulesError:
                continue
            return i, m
    sys.exit("no definition with a number to retype in this file")


def _edits(text: str, runs: int):
    """(label, [texts]) for each kind of edit: each text differs from the one before it."""
    lines = text.split("\n")
    body, number = _number_in_a_definition(lines)
    top = next(i for i, line in enumerate(lines) if line and not line.startswith("#")) + 1
    comment = next(i for i, line in enumerate(lines) if line.startswith("#"))
    out = []
    seq = []
    for k in range(runs):  # a number in a definition's body retyped: the file stays valid
        ls = list(lines)
        m = number
        ls[body] = ls[body][:m.start()] + str(int(m.group()) + 1 + k % 2) + ls[body][m.end():]
        seq.append("\n".join(ls))
    out.append(("a character typed in a definition (valid)", seq))
    seq = []
    for k in range(runs):  # a half-typed expression: a syntax error
        ls = list(lines)
        ls[body] = ls[body] + " +" + " " * (k % 3)
        seq.append("\n".join(ls))
    out.append(("a half-typed expression (syntax error)", seq))
    seq = []
    for k in range(runs):  # a line inserted near the top: every chunk below moves down
        ls = list(lines)
        ls[top:top] = ["# a note"] * (k % 2 + 1)
        seq.append("\n".join(ls))
    out.append(("a line inserted near the top (all chunks move)", seq))
    seq = []
    for k in range(runs):
        ls = list(lines)
        ls[comment] = ls[comment] + "!" * (k + 1)
        seq.append("\n".join(ls))
    out.append(("a comment edited (the graph is unchanged)", seq))
    return out


def in_process(path: Path, runs: int) -> None:
    from interpreter.lsp import analysis as an
    from interpreter.language.parse import parser
    parser()  # the grammar, as a running server has it
    text = path.read_text(encoding="utf-8")
    print(f"In process ({path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}, "
          f"{len(text.splitlines())} lines):")
    first = []
    for _ in range(max(3, runs // 5)):
        ws = an.Workspace()
        ws.open_doc(str(path), text, 1)
        t = time.perf_counter()
        ws.analysis(str(path))
        first.append(time.perf_counter() - t)
    _row("opening the file (everything parsed)", first)
    for label, seq in _edits(text, runs):
        ws = an.Workspace()
        ws.open_doc(str(path), text, 1)
        ws.analysis(str(path))
        times = []
        for k, t_text in enumerate(seq):
            ws.change_doc(str(path), t_text, k + 2)
            t = time.perf_counter()
            a = ws.analysis(str(path))
            times.append(time.perf_counter() - t)
            a.diagnostics  # noqa: B018
        _row(label, times)
    ws = an.Workspace()
    ws.open_doc(str(path), text, 1)
    a = ws.analysis(str(path))
    times = []
    for _ in range(max(3, runs // 5)):
        t = time.perf_counter()
        an.static_findings(a)
        times.append(time.perf_counter() - t)
    _row("the static checks (the server runs them in a process of their own)", times)


async def through_protocol(path: Path, runs: int) -> None:
    from lsprotocol import types as T
    from pygls.lsp.client import LanguageClient

    from interpreter.lsp.server import DEBOUNCE, STATIC_DELAY
    text = path.read_text(encoding="utf-8")
    client = LanguageClient("benchmark", "1")
    got: dict[int, float] = {}   # version -> when its diagnostics came; -version: when they came again

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(ls, params: T.PublishDiagnosticsParams):
        if params.version is not None:  # the second publication of a version is the static checks'
            got.setdefault(-params.version if params.version in got else params.version, time.perf_counter())

    await client.start_io(sys.executable, "-m", "interpreter", "lsp")
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                     root_uri=path.parent.as_uri()))
    client.initialized(T.InitializedParams())
    uri = path.as_uri()
    t0 = time.perf_counter()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="cards", version=1, text=text)))

    async def wait(version: int, limit: float = 20.0) -> float:
        end = time.perf_counter() + limit
        while version not in got and time.perf_counter() < end:
            await asyncio.sleep(0.001)
        return got.get(version, float("nan"))

    print(f"Through the protocol (server debounce {DEBOUNCE * 1000:.0f} ms; static checks "
          f"{STATIC_DELAY * 1000:.0f} ms after the last change):")
    _row("didOpen -> publishDiagnostics (server already started)", [await wait(1) - t0])
    version = 1
    for label, seq in _edits(text, runs):
        times, static = [], []
        for t_text in seq:
            version += 1
            sent = time.perf_counter()
            client.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=t_text)]))
            times.append(await wait(version) - sent)
            if label.startswith("a character typed"):
                end = time.perf_counter() + 5
                while -version not in got and time.perf_counter() < end:
                    await asyncio.sleep(0.005)
                if -version in got:
                    static.append(got[-version] - sent)
            await asyncio.sleep(0.05)
        _row("didChange -> diagnostics: " + label, times)
        if static:
            _row("   ... -> the static checks' warnings (a second publication)", static)
    # requests on the last version
    lines = seq[-1].split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith("define "))
    pos = T.Position(line=i, character=8)
    doc = T.TextDocumentIdentifier(uri=uri)
    for label, call in (
            ("hover", lambda: client.text_document_hover_async(T.HoverParams(text_document=doc, position=pos))),
            ("go to definition", lambda: client.text_document_definition_async(
                T.DefinitionParams(text_document=doc, position=pos))),
            ("completion", lambda: client.text_document_completion_async(
                T.CompletionParams(text_document=doc, position=T.Position(line=i, character=len(lines[i]))))),
            ("document symbols", lambda: client.text_document_document_symbol_async(
                T.DocumentSymbolParams(text_document=doc)))):
        times = []
        for _ in range(max(3, runs // 2)):
            t = time.perf_counter()
            await call()
            times.append(time.perf_counter() - t)
        _row(label, times)
    await client.shutdown_async(None)
    client.exit(None)
    await asyncio.sleep(0.2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("file", nargs="?", default=str(ROOT / "rulesets" / "euro-jongg" / "euro-jongg.cards"))
    args = ap.parse_args()
    path = Path(args.file).resolve()
    in_process(path, args.runs)
    print()
    asyncio.run(through_protocol(path, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
