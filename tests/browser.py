"""What the browser tests share (the table's and the studio's): whether Chromium and Playwright
are here (`missing`, `REQUIRED` under CARDRULES_BROWSER_TESTS=required, as in CI), Chromium
itself (`chromium`), pages that fail their test on an uncaught error (`pages`), a real server in
a thread (`Server` for the table, `StudioServer` for the studio; `serving` is a module fixture's
body), screenshots (`shot`), the studio's editor and book, and what a player does on a
table's page."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

REQUIRED = os.environ.get("CARDRULES_BROWSER_TESTS", "").strip().lower() == "required"
BOT_PAUSE = 0.05
GAME = "ganjifa/ganjifa"
RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
# a studio's folder with Ganjifa and a variant of it (StudioServer's files)
GANJIFA_AND_VARIANT = {name: RULESETS / "ganjifa" / name for name in ("ganjifa.cards", "inverted-ranking.cards")}


def chromium_path() -> str | None:
    given = os.environ.get("CARDRULES_CHROMIUM")
    path = given if given else shutil.which("chromium")
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def need_a_browser() -> None:
    """Skip the calling fixture's tests when this machine cannot drive a browser, or fail them
    under CARDRULES_BROWSER_TESTS=required (as in CI), with why."""
    why = missing()
    if why:
        if REQUIRED:
            pytest.fail(f"CARDRULES_BROWSER_TESTS=required, but {why}", pytrace=False)
        pytest.skip(why)


def missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install -e '.[test]'"
    if chromium_path() is None:
        given = os.environ.get("CARDRULES_CHROMIUM")
        return (f"no Chromium at CARDRULES_CHROMIUM={given}" if given else
                "Chromium is not installed (apt-get install chromium)")
    return None


# ------------------------------------------------------------------ the server and the browser

@contextmanager
def chromium():
    """Chromium through Playwright, closed (and Playwright stopped) on the way out."""
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=chromium_path())
    except Exception:
        pw.stop()
        raise
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@contextmanager
def pages(browser, timeout: int = 15_000, **options):
    """open(url=None, width=1400, height=900, **context options): a page in a browser context of
    its own (its own storage); on the way out, the test fails on any uncaught error in any of them."""
    contexts, errors = [], []

    def open_(url: str | None = None, width: int = 1400, height: int = 900, **more):
        context = browser.new_context(viewport={"width": width, "height": height}, **options, **more)
        context.set_default_timeout(timeout)
        contexts.append(context)
        p = context.new_page()
        p.on("pageerror", lambda e: errors.append(f"{p.url}: {e}"))
        if url is not None:
            p.goto(url)
        return p
    try:
        yield open_
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors


class Served:
    """An app served by uvicorn in a background thread, on a free port of 127.0.0.1."""

    def __init__(self, app, name: str):
        import uvicorn

        self.app = app
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name=name, daemon=True)

    def start(self):
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped while starting"
            assert time.monotonic() < end, "the server did not start within 30 s"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()
        assert not self.thread.is_alive(), "the server did not stop within 15 s"


def serving(make):
    """A module fixture's body: the server `make()` builds, started for the module's tests and
    stopped after them; the tests skipped (or failed, when required) without a browser."""
    need_a_browser()
    s = make().start()
    try:
        yield s
    finally:
        s.stop()


class Server(Served):
    """The table's web app (`cardrules serve`)."""

    def __init__(self, data: Path):
        from interpreter.web.app import create_app
        self.data = data
        super().__init__(create_app(data, bot_pause=BOT_PAUSE), "cardrules-serve")

    def api(self, table_id: str, seat: int, token: str) -> dict:
        from urllib.request import urlopen
        with urlopen(f"{self.url}/api/t/{table_id}/seat/{seat}?token={token}", timeout=10) as r:
            return json.loads(r.read())

    def table_file(self, table_id: str) -> dict:
        return json.loads((self.data / "tables" / f"{table_id}.json").read_text(encoding="utf-8"))


class StudioServer(Served):
    """The studio (`cardrules studio`) on a working folder holding the discarding game (mini.cards)
    and the files given: {name: a text, or a path to copy}."""

    def __init__(self, root: Path, files: dict | None = None):
        from interpreter.studio.app import make_app
        from interpreter.web.limits import Limits
        from small_games import MINI
        self.work = root / "work"
        self.work.mkdir()
        for name, what in {"mini.cards": MINI, **(files or {})}.items():
            if isinstance(what, Path):
                shutil.copy(what, self.work / name)
            else:
                (self.work / name).write_text(what, encoding="utf-8")
        app = make_app([], self.work, data=root / "data", bot_pause=BOT_PAUSE, limits=Limits(bot_workers=0))
        self.token = app.state.token
        super().__init__(app, "cardrules-studio")

    def studio_url(self, file: Path | str | None = None) -> str:
        """The address the command prints (with the studio's token), opening `file`."""
        from urllib.parse import quote
        return f"{self.url}/studio?token={self.token}" + (f"&file={quote(str(file))}" if file else "")


def new_page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(30_000)  # (the first page of a server loads every game)
    return context, context.new_page()


def shot(page, tmp_path: Path, name: str) -> None:
    """A screenshot in the test's tmp_path, and in STUDIO_SHOTS=DIR when that is set."""
    page.screenshot(path=str(tmp_path / f"{name}.png"))
    keep = os.environ.get("STUDIO_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / f"{name}.png", Path(keep) / f"{name}.png")


# ------------------------------------------------------------------ the studio's editor and book

def goto_end_of(page, line: int) -> None:
    """The cursor at the end of a 0-based line, the editor focused."""
    page.evaluate("""line => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
                               v.focus(); v.dispatch({selection: {anchor: l.to}}); }""", line)


def cursor_line(page) -> int:
    return page.evaluate("() => { const v = window.studio.editor.view; "
                         "return v.state.doc.lineAt(v.state.selection.main.head).number - 1; }")


def book(page):
    return page.frame_locator("#rulebook")


# ------------------------------------------------------------------ what a player does

def open_table(page, server: Server, seats: list[str], seed: int) -> dict[int, str]:
    """Open a Ganjifa table as a user would: from the list of games, through the form (select
    boxes, the seed, submit); the links page's seat links, {seat number: address}."""
    page.goto(server.url + "/")
    page.click(f'a.button[href="/new?ruleset={GAME.replace("/", "%2F")}"]')
    page.wait_for_url(re.compile(r"/new\?ruleset="))
    page.select_option("#players", str(len(seats)))
    page.fill("#seed", str(seed))
    for i, kind in enumerate(seats, 1):
        page.select_option(f"#seat{i}", kind)
    page.click("form.new button[type=submit]")
    page.wait_for_url(re.compile(r"/t/\w+/links\?token="))
    links = {}
    for a in page.locator("ol.links a.button").all():
        n = int(re.search(r"/seat/(\d+)\?", a.get_attribute("href")).group(1))
        links[n] = a.get_attribute("href")
    assert sorted(links) == [i for i, k in enumerate(seats, 1) if k == "person"]
    return links


def ids(page) -> tuple[str, int, str]:
    """(table id, seat number, token) from a seat page's address."""
    parts = urlsplit(page.url)
    tid, n = re.search(r"/t/(\w+)/seat/(\d+)", parts.path).groups()
    return tid, int(n), parse_qs(parts.query)["token"][0]


# true once the page shows the end, an error, or this seat's turn at a version after `prev`
# (the move's answer and the live updates both replace #live; .busy: a move is on its way)
READY = """prev => {
  const live = document.getElementById('live');
  if (!live) return false;
  if (document.getElementById('outcome') || live.querySelector('.message.bad')) return true;
  return Number(live.dataset.version) > prev && !live.classList.contains('busy')
         && live.querySelector('.turn.mine') !== null;
}"""


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def click_a_move(page, rng: random.Random) -> str:
    """Make one of the legal moves shown, by clicking: a highlighted card of the hand (the cards
    overlap, so near its left edge), or a move's button. Returns what was clicked."""
    cards = page.locator("#live .hand .slot.playable")
    buttons = page.locator("#live .moves button[data-move]")
    nc, nb = cards.count(), buttons.count()
    assert nc + nb, "it is this seat's turn but no move is shown"
    k = rng.randrange(nc + nb)
    if k < nc:
        card = cards.nth(k)
        name = card.get_attribute("data-card")
        card.click(position={"x": 8, "y": 30})
        chooser = page.locator("#chooser.open button")
        if chooser.count():  # one card, several moves: the chooser asks which
            chooser.first.click()
        return f"card {name}"
    button = buttons.nth(k - nc)
    move = button.get_attribute("data-move")
    button.click()
    return f"button {move}"


MY_TURN = """() => { const live = document.getElementById('live');
  return !!live && !live.classList.contains('busy') && live.querySelector('.turn.mine') !== null; }"""

# true once the log has entry n, made by `who`
LOGGED = """([n, who]) => Array.from(document.querySelectorAll('#log li:not(.rule)')).some(li => {
  const num = li.querySelector('.n');
  return num !== null && num.textContent.trim() === String(n)
         && li.textContent.slice(num.textContent.length).trim().startsWith(who);
})"""


def log_lines(page) -> list[str]:
    return [t.strip() for t in page.locator("#log li:not(.rule)").all_inner_texts()]
