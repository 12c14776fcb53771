"""The browser table end to end, in a real browser: Playwright drives Debian's Chromium
(`apt-get install chromium`; Playwright's own browser download is not used) against a real
server (uvicorn on a free port of 127.0.0.1, in a thread of this process, its tables kept in a
temporary folder, bots pausing 0.05 s).

* A person opens a Ganjifa table through the form, sits against two bots and plays the whole
  game by clicking cards and buttons; the outcome on the page agrees with the JSON API and the
  table's file.
* Two people at one table, each in their own browser context (their own cookies and
  storage, as on two computers): each sees the other's move arrive without reloading (the
  server-sent events).

These tests are skipped when Chromium or Playwright is missing, unless
CARDRULES_BROWSER_TESTS=required (as in CI), where that is a failure. CARDRULES_CHROMIUM
names another browser binary (a path that does not exist shows the skip). Screenshots go to
each test's tmp_path."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

REQUIRED = os.environ.get("CARDRULES_BROWSER_TESTS", "").strip().lower() == "required"
BOT_PAUSE = 0.05
GAME = "ganjifa/ganjifa"


def chromium_path() -> str | None:
    given = os.environ.get("CARDRULES_CHROMIUM")
    path = given if given else shutil.which("chromium")
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


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

class Server:
    """The web app served by uvicorn in a background thread, on a free port of 127.0.0.1."""

    def __init__(self, data: Path):
        import uvicorn

        from interpreter.web.app import create_app
        self.data = data
        self.app = create_app(data, bot_pause=BOT_PAUSE)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="cardrules-serve", daemon=True)

    def start(self) -> "Server":
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

    def api(self, table_id: str, seat: int, token: str) -> dict:
        from urllib.request import urlopen
        with urlopen(f"{self.url}/api/t/{table_id}/seat/{seat}?token={token}", timeout=10) as r:
            return json.loads(r.read())

    def table_file(self, table_id: str) -> dict:
        return json.loads((self.data / "tables" / f"{table_id}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    why = missing()
    if why:
        if REQUIRED:
            pytest.fail(f"CARDRULES_BROWSER_TESTS=required, but {why}", pytrace=False)
        pytest.skip(why)
    s = Server(tmp_path_factory.mktemp("serve-data")).start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser(server):  # after the server, so it closes (and drops its live connections) first
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=chromium_path())
    except Exception:
        pw.stop()
        raise
    yield b
    b.close()
    pw.stop()


def new_page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(30_000)  # (the first page of a server loads every game)
    return context, context.new_page()


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


# ------------------------------------------------------------------ the tests

# the default run clicks P1's first 12 moves (their record and the page's count of moves checked);
# the slow run clicks a whole game and checks the end on the page against the API and the file
@pytest.mark.parametrize("clicked", [12, pytest.param(None, marks=pytest.mark.slow)],
                         ids=lambda c: f"first-{c}-moves" if c else "whole-game")
def test_a_person_plays_against_two_bots_by_clicking(server, browser, tmp_path, clicked):
    t0 = time.monotonic()
    context, page = new_page(browser)
    try:
        links = open_table(page, server, ["person", "random", "random"], seed=5)
        page.click("ol.links a.button:has-text('open as P1')")
        page.wait_for_url(re.compile(r"/t/\w+/seat/1\?token="))
        assert page.locator("#rulebook").count() == 1  # the rulebook beside the table
        assert links[1] in page.url
        tid, n, token = ids(page)
        rng = random.Random(5)
        clicks: list[str] = []
        prev = -1
        while True:
            page.wait_for_function(READY, arg=prev)
            assert not page.locator("#live .message.bad").count(), page.locator("#live .message.bad").inner_text()
            if page.locator("#outcome").count():
                break
            assert time.monotonic() - t0 < 180, f"the game took over 180 s ({len(clicks)} moves clicked)"
            prev = version(page)
            if len(clicks) == clicked:
                break
            clicks.append(click_a_move(page, rng))
            if len(clicks) == 12:
                page.screenshot(path=str(tmp_path / "mid-game.png"))
        page.screenshot(path=str(tmp_path / "the-end.png"))
        assert len(clicks) > 10 and any(c.startswith("card") for c in clicks)
        if clicked is not None:  # P1's moves in the table's file are the clicks, and the page counts every move
            data = server.table_file(tid)
            moves = data["record"]["moves"]
            assert sum(m["player"] == "P1" for m in moves) == len(clicks), (clicks, moves)
            assert page.locator("#live .status").inner_text().endswith(f"move {len(moves) + 1}")
            return

        # the outcome on the page: winners and each player's score
        heading = page.locator("#outcome h2").inner_text()
        rows = [r.split("\t") for r in page.locator("#outcome tr").all_inner_texts()]
        shown = {r[0].strip(): int(r[1]) for r in rows}
        won = sorted(r[0].strip() for r in rows if "winner" in r[-1])
        # ... agrees with the JSON API and with the table's file
        a = server.api(tid, n, token)
        assert a["outcome"] is not None and a["error"] is None and a["moves"] == []
        assert heading == "The game is over: won by " + (", ".join(a["outcome"]["winners"]) or "nobody")
        assert shown == a["outcome"]["scores"]
        assert won == sorted(a["outcome"]["winners"])
        data = server.table_file(tid)
        final = data["record"]["final"]
        assert final["finished"] and final["winners"] == a["outcome"]["winners"]
        assert final["scores"] == [shown[f"P{i + 1}"] for i in range(len(final["scores"]))]
        # every move of P1 in the file was one of the clicks, and the page counts them all
        assert sum(m["player"] == "P1" for m in data["record"]["moves"]) == len(clicks)
        assert page.locator("#live .status").inner_text().count(f"{len(data['record']['moves'])} moves") == 1
    finally:
        context.close()
    assert time.monotonic() - t0 < 60


def test_two_people_at_one_table_see_each_others_moves_live(server, browser, tmp_path):
    host_context, host = new_page(browser)
    contexts = [host_context]
    try:
        links = open_table(host, server, ["person", "person", "random"], seed=11)
        pages = {}
        for n in (1, 2):  # each seat in its own context, as on two computers
            context, page = (host_context, host) if n == 1 else new_page(browser)
            if n != 1:
                contexts.append(context)
            page.goto(server.url + links[n])
            page.wait_for_selector("#live")
            page.evaluate("window.__notReloaded = true")
            pages[n] = page
        rng = random.Random(11)

        def whose_turn() -> int:
            """The person whose turn it is, once one of the two pages says so."""
            end = time.monotonic() + 15
            while True:
                for n, page in pages.items():
                    if page.evaluate(MY_TURN):
                        return n
                assert not any(p.locator("#outcome").count() for p in pages.values()), "the game ended early"
                assert time.monotonic() < end, "neither person's page offered a move within 15 s"
                time.sleep(0.05)

        def move_and_watch(mover: int, watcher: int) -> None:
            """`mover` clicks a move; `watcher`'s page shows it in its log within 5 s, unreloaded."""
            v = version(pages[mover])
            before = log_lines(pages[watcher])
            clicked = click_a_move(pages[mover], rng)
            pages[watcher].wait_for_function(LOGGED, arg=[v + 1, f"P{mover}"], timeout=5_000)
            assert pages[watcher].evaluate("window.__notReloaded === true"), "the page was reloaded"
            after = log_lines(pages[watcher])
            assert len(after) > len(before)
            entry = next(t for t in after if re.match(rf"{v + 1}\s*P{mover}\b", t))
            if clicked.startswith("card") and not re.search(r"in secret|made a choice", entry):
                assert clicked.split()[1] in entry, entry  # a card played in the open is named
            assert version(pages[watcher]) >= v + 1

        assert whose_turn() == 1, "P1 does not move first in this deal"
        move_and_watch(1, 2)
        pages[1].screenshot(path=str(tmp_path / "seat-1.png"))
        while whose_turn() == 1:  # P1 may have more to do before P2's turn
            move_and_watch(1, 2)
        move_and_watch(2, 1)
        pages[2].screenshot(path=str(tmp_path / "seat-2.png"))
    finally:
        for c in reversed(contexts):
            c.close()
