"""The studio's editor bundle: the one built file the wheel carries (interpreter/studio/static/
editor.bundle.js) is what its sources and lock file build, it needs no network, and it works.

* The manifest build.mjs writes beside the bundle names the sha256 of package.json,
  package-lock.json, build.mjs, every file of src/ and of the bundle: a source or the lock changed
  without rebuilding fails here.
* The bundle is one IIFE that sets window.CardsEditor, with no import(), fetch or other request,
  and no address but the SVG namespace (a name, never fetched).
* With npm on PATH and CARDRULES_REBUILD_BUNDLE=1, `npm ci && node build.mjs` in a copy of js/
  rebuilds the same bytes (it downloads the packages of the lock: opt-in).
* In Chromium (as tests/web/test_web_browser.py starts it; the same skip/require logic), the demo page
  served alone from a temporary folder: a typed error is marked on its line, a hover
  shows the server's markdown as escaped HTML, Ctrl-Space lists the completions, F12 and Ctrl-click
  go to definitions. Screenshots go to each test's tmp_path."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from browser import chromium, need_a_browser

ROOT = Path(__file__).resolve().parents[2]
STUDIO = ROOT / "interpreter" / "studio"
JS = STUDIO / "js"
STATIC = STUDIO / "static"
BUNDLE = STATIC / "editor.bundle.js"
MANIFEST = STATIC / "editor.bundle.json"
REBUILD = "cd interpreter/studio/js && npm ci && node build.mjs"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sources() -> list[str]:
    """The inputs of the build, as the manifest names them (relative to js/)."""
    return ["package.json", "package-lock.json", "build.mjs",
            *sorted(p.relative_to(JS).as_posix() for p in (JS / "src").rglob("*") if p.is_file())]


# ------------------------------------------------------------------ the bundle and its sources

def test_the_manifest_matches_the_sources_and_the_bundle():
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    assert sorted(manifest["sources"]) == sorted(sources()), f"the sources changed: rebuild ({REBUILD})"
    stale = [f for f, h in manifest["sources"].items() if sha256(JS / f) != h]
    assert not stale, f"changed since the bundle was built: {', '.join(stale)}; rebuild ({REBUILD})"
    assert manifest["bundle"] == {"editor.bundle.js": sha256(BUNDLE), "bytes": BUNDLE.stat().st_size}, \
        f"the bundle is not the one the manifest's build wrote; rebuild ({REBUILD})"
    # every package of the bundle is the version the lock pins
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    for name, version in manifest["packages"].items():
        assert lock[f"node_modules/{name}"]["version"] == version, name
    pinned = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    for name, version in {**pinned["dependencies"], **pinned["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is not pinned to one version: {version}"
        assert lock[f"node_modules/{name}"]["version"] == version, name


def test_the_bundle_defines_the_editor_and_fetches_nothing():
    text = BUNDLE.read_text(encoding="utf-8")
    code = re.sub(r"\A/\*.*?\*/\s*", "", text, flags=re.S)  # the licence comment on top
    assert code.startswith("(()=>{") and code.rstrip().endswith("})();"), "not one IIFE"
    assert "window.CardsEditor=" in code
    assert not re.search(r"^\s*(import|export)\b", code, re.M), "a module statement in the bundle"
    assert "import(" not in code and "require(" not in code
    for word in ("fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "importScripts", "<script"):
        assert word not in code, f"the bundle may reach the network: {word}"
    addresses = set(re.findall(r"https?://[^\s\"'`)>]+", code))
    assert addresses <= {"http://www.w3.org/2000/svg"}, addresses  # the SVG namespace of the lint gutter's icons


def test_the_declaring_words_are_highlight_pys():
    """The editor colours the name after a declaring word as interpreter/language/highlight.py does, and
    takes every other word from the lists the server sends (none is written into editor.js)."""
    from pygments.token import Name

    from interpreter.language.highlight import KEYWORDS, CardsLexer
    src = (JS / "src" / "editor.js").read_text(encoding="utf-8")
    table = re.search(r"const DECLARES = \{(.*?)\};", src, re.S).group(1)
    declares = dict(re.findall(r"(\w+): \"(\w+)\"", table))
    kinds = {Name.Function: "function", Name.Label: "label", Name.Variable: "variable", Name.Namespace: "namespace"}
    lexer = CardsLexer()
    found = {}
    for word in KEYWORDS:
        kind = next((kinds.get(tok) for tok, val in lexer.get_tokens(f"{word} some_name\n") if val == "some_name"), None)
        if kind:
            found[word] = kind
    assert declares == found
    for word in ("cards_of", "anticlockwise", "player_count"):  # the lists come from the server
        assert f'"{word}"' not in src


@pytest.mark.skipif(not (shutil.which("npm") and os.environ.get("CARDRULES_REBUILD_BUNDLE") == "1"),
                    reason="rebuilding downloads the lock's packages: set CARDRULES_REBUILD_BUNDLE=1 (needs npm)")
def test_the_sources_rebuild_the_same_bytes(tmp_path):
    work = tmp_path / "js"
    shutil.copytree(JS, work, ignore=shutil.ignore_patterns("node_modules"))
    for cmd in (["npm", "ci", "--no-audit", "--no-fund"], ["node", "build.mjs", "--out", str(tmp_path / "out")]):
        r = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "out" / "editor.bundle.js").read_bytes() == BUNDLE.read_bytes()
    assert (tmp_path / "out" / "editor.bundle.json").read_bytes() == MANIFEST.read_bytes()


# ------------------------------------------------------------------ in the browser

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo page and the bundle alone in a temporary folder, served on a free port."""
    need_a_browser()
    folder = tmp_path_factory.mktemp("editor-demo")
    for name in ("editor-demo.html", "editor.bundle.js"):
        shutil.copy(STATIC / name, folder / name)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, name="editor-demo", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(10)


@pytest.fixture(scope="module")
def browser(demo):
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser, demo):
    """The demo page, every request to anywhere but the demo's server refused and counted."""
    context = browser.new_context(viewport={"width": 1200, "height": 760})
    context.set_default_timeout(10_000)
    p = context.new_page()
    errors, elsewhere = [], []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    def route(r):
        if r.request.url.startswith(demo + "/"):
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort()
    p.route("**/*", route)
    p.goto(demo + "/editor-demo.html")
    p.wait_for_function("() => window.demo && document.querySelector('.cm-content')")
    yield p
    context.close()
    assert not elsewhere, f"the page asked for {elsewhere}"
    assert not [e for e in errors if "favicon" not in e], errors


def coords(page, line: int, col: int) -> dict:
    """The middle of the character at a 0-based line and code-point column, on the screen."""
    return page.evaluate("""([line, col]) => {
        const v = demo.view, pos = CardsEditor.toPos(v.state.doc, line, col), c = v.coordsAtPos(pos, 1);
        return {x: (c.left + c.right) / 2 + 3, y: (c.top + c.bottom) / 2}; }""", [line, col])


def cursor(page) -> dict:
    return page.evaluate("() => CardsEditor.toLineCol(demo.view.state.doc, demo.view.state.selection.main.head)")


def test_a_typed_error_is_marked_on_its_line(page, tmp_path):
    """(How soon: benchmarks/studio.py's figure, not a timed assertion under the suite's load.)"""
    doc = page.evaluate("demo.getText()").split("\n")
    line = next(i for i, l in enumerate(doc) if "astral plane" in l)
    assert "\U0001F0A1" in doc[line]  # a character of two UTF-16 units: columns count code points
    assert page.locator(".cm-lintRange-error").count() == 0
    page.evaluate("([l]) => demo.goto(l, 1e9)", [line])
    page.keyboard.type(" oops")
    page.wait_for_function("() => [...document.querySelectorAll('.cm-lintRange-error')].map(e => e.textContent).join() === 'oops'")
    page.screenshot(path=str(tmp_path / "lint.png"))
    assert page.locator(".cm-lintRange-error").all_inner_texts() == ["oops"]
    # the gutter's mark sits on that line
    gutter = page.locator(".cm-gutter-lint .cm-gutterElement:has(.cm-lint-marker-error)")
    assert gutter.count() == 1
    mark_y = gutter.bounding_box()["y"] + gutter.bounding_box()["height"] / 2
    assert abs(mark_y - coords(page, line, 0)["y"]) < 8
    # fixed, the mark goes
    page.keyboard.press("Backspace")
    page.wait_for_function("() => !document.querySelector('.cm-lintRange-error')")


def test_a_hover_shows_the_markdown_as_escaped_html(page, tmp_path):
    doc = page.evaluate("demo.getText()").split("\n")
    line = next(i for i, l in enumerate(doc) if "when held" in l)
    page.mouse.move(**coords(page, line, doc[line].index("held") + 1))
    tip = page.locator(".cm-cards-hover")
    tip.wait_for()
    page.screenshot(path=str(tmp_path / "hover.png"))
    assert tip.locator("strong").first.inner_text() == "held"
    assert "define held = <held>" in tip.locator("pre").inner_text()
    assert "<b>no HTML</b>" in tip.inner_text() and tip.locator("b").count() == 0
    # nothing to say inside a comment
    comment = next(i for i, l in enumerate(doc) if l.startswith("# A demo"))
    page.mouse.move(**coords(page, comment, 5))
    page.wait_for_timeout(600)
    assert page.locator(".cm-cards-hover").count() == 0


def test_ctrl_space_lists_the_completions(page, tmp_path):
    page.evaluate("demo.goto(1e9, 0)")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+Space")
    items = page.locator(".cm-tooltip-autocomplete li .cm-completionLabel")
    items.first.wait_for()
    page.screenshot(path=str(tmp_path / "complete.png"))
    assert {"held", "hand", "stock", "leader", "highest"} <= set(items.all_inner_texts())
    assert "still in some player's hand" in page.locator(".cm-completionInfo").inner_text()  # the first item's doc
    page.keyboard.type("hel")
    page.wait_for_function("() => document.querySelectorAll('.cm-tooltip-autocomplete li').length === 1")
    page.keyboard.press("Enter")
    assert page.evaluate("demo.getText()").split("\n")[-1] == " " * 8 + "held"  # indented as the line above


def test_f12_and_ctrl_click_go_to_the_definition(page):
    doc = page.evaluate("demo.getText()").split("\n")
    line = next(i for i, l in enumerate(doc) if "when held" in l)
    defined = next(i for i, l in enumerate(doc) if l.startswith("define held"))
    page.evaluate("([l, c]) => demo.goto(l, c)", [line, doc[line].index("held") + 2])
    page.keyboard.press("F12")
    page.wait_for_function(f"() => CardsEditor.toLineCol(demo.view.state.doc, demo.view.state.selection.main.head).line === {defined}")
    assert cursor(page) == {"line": defined, "col": len("define ")}
    assert page.inner_text("#cursor") == f"line {defined + 1}, column {len('define ') + 1}"  # onCursor
    # a definition in another file: the page is asked to open it
    page.keyboard.down("Control")
    page.mouse.click(**coords(page, line, doc[line].index("card") + 1))
    page.keyboard.up("Control")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('open base.cards at 4:1')")
    assert cursor(page)["line"] == defined  # the cursor stayed


def test_set_text_replaces_the_document_without_a_change(page):
    before = page.inner_text("#log")
    page.evaluate("demo.setText('game other \"Other\"\\nplayers 2\\n')")
    assert page.evaluate("demo.getText()") == 'game other "Other"\nplayers 2\n'
    assert "change:" not in page.inner_text("#log").replace(before, "")
    page.evaluate("demo.focus()")
    page.keyboard.press("Control+z")  # a new history: nothing to undo into the old file
    assert page.evaluate("demo.getText()") == 'game other "Other"\nplayers 2\n'
