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

import random
import re
import time

import pytest

from browser import (LOGGED, MY_TURN, READY, Server, click_a_move, ids, log_lines, new_page, serving,
                     open_table, version)


# ------------------------------------------------------------------ the server and the browser

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(lambda: Server(tmp_path_factory.mktemp("serve-data")))


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
