"""How fast the studio answers a keystroke, through the browser, on Euro-Jongg's file.

    python benchmarks/studio.py [--runs N] [FILE]

A real studio (`make_app` served by uvicorn in a thread) and Debian's Chromium driven by
Playwright, the page with the bundled editor, FILE opened (default: the bundled
rulesets/euro-jongg/euro-jongg.cards, the largest ruleset; opened read-only, which changes
nothing here: nothing is saved). Each time is taken in the page, from the keystroke's keydown to
what the author sees, polled every animation frame (so up to one frame, ~16 ms, is included):

1. keystroke -> diagnostics: a character that breaks a name in a definition's body is typed,
   until its error mark is drawn in the editor; then it is deleted, until the mark is gone.
   Both include the editor's 150 ms debounce.
2. keystroke -> re-rendered rulebook: a character typed in a rule's title, until the book beside
   the editor shows the new title (analysis, rendering the whole book, loading it in the frame).

Prints the median and the 95th percentile in milliseconds. Figures only: nothing asserts a time."""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WAIT = """([kind, before]) => new Promise((done, fail) => {
  const t0 = window.__key;
  setTimeout(() => fail(new Error('nothing shown for 10 s: ' + kind)), 10000);
  const check = () => {
    const v = window.studio.editor.view, frame = document.getElementById('rulebook');
    let ok = false;
    if (kind === 'mark') ok = !!document.querySelector('.cm-lintRange-error');
    else if (kind === 'clear') ok = !document.querySelector('.cm-lintRange-error');
    else {
      const doc = frame.contentDocument;
      ok = !!doc && !!doc.body && Number(doc.documentElement.dataset.version || 0) > before && doc.body.textContent.includes(kind);
    }
    if (ok) done(performance.now() - t0); else requestAnimationFrame(check);
  };
  check();
})"""
ARM = "() => document.addEventListener('keydown', () => { window.__key = performance.now(); }, {capture: true, once: true})"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * len(xs)) - 1))]


def row(label: str, ms: list[float]) -> None:
    print(f"  {label:<46} median {statistics.median(ms):6.0f} ms   95th percentile {pct(ms, 95):6.0f} ms"
          f"   ({len(ms)} keystrokes)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "rulesets/euro-jongg/euro-jongg.cards"))
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    import uvicorn
    from playwright.sync_api import sync_playwright

    from interpreter.studio.app import make_app
    from interpreter.web.limits import Limits

    path = os.path.realpath(args.file)
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    define = next(i for i, ln in enumerate(lines) if ln.startswith("define ") and " = " in ln)
    title = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("rule ") and '"' in ln)
    work = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    app = make_app([Path(path).parent], work, data=work / "data", limits=Limits(bot_workers=0))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    from urllib.parse import quote
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/studio?token={app.state.token}&file={quote(path)}"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=os.environ.get("CARDRULES_CHROMIUM", "/usr/bin/chromium"))
        page = b.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        page.wait_for_function("() => window.studio && window.studio.state.version && "
                               "document.getElementById('rulebook').contentDocument.querySelector('[data-rule]')",
                               timeout=60_000)

        def at(line: int, col: int) -> None:
            page.evaluate("""([line, col]) => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
                                                v.focus(); v.dispatch({selection: {anchor: l.from + col}}); }""",
                          [line, col])

        def book_version() -> int:
            return page.evaluate("() => Number(document.getElementById('rulebook').contentDocument"
                                 ".documentElement.dataset.version || 0)")

        marks, clears, books = [], [], []
        name_end = lines[define].index(" = ") + 3
        while lines[define][name_end].isalpha() or lines[define][name_end] == "_":
            name_end += 1
        quote = lines[title].index('"') + 1
        for i in range(args.runs + 2):
            at(define, name_end)
            page.evaluate(ARM)
            page.keyboard.type("q")
            m = page.evaluate(WAIT, ["mark", 0])
            page.evaluate(ARM)
            page.keyboard.press("Backspace")
            c = page.evaluate(WAIT, ["clear", 0])
            page.wait_for_timeout(300)
            before = book_version()
            at(title, quote)
            page.evaluate(ARM)
            letter = "ABCDEFGHJKLMNPQRSTUVWXYZ"[i % 24]
            page.keyboard.type(letter)
            now = page.evaluate("([l, q]) => window.studio.editor.view.state.doc.line(l + 1).text.slice(q, q + 40)",
                                [title, quote]).split('"')[0]
            r = page.evaluate(WAIT, [now, before])
            page.wait_for_timeout(200)
            if i >= 2:  # the first two warm the caches
                marks.append(m)
                clears.append(c)
                books.append(r)
        b.close()
    server.should_exit = True
    print(f"{Path(path).name}: {len(lines)} lines, through Chromium")
    row("keystroke -> error mark drawn", marks)
    row("keystroke -> error mark gone (mended)", clears)
    row("keystroke -> diagnostics (both)", marks + clears)
    row("keystroke -> re-rendered rulebook shown", books)


if __name__ == "__main__":
    main()
