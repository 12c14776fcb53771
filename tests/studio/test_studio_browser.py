"""The studio end to end, in a real browser (Playwright with Debian's Chromium; the
server, skip logic and helpers of tests/browser.py, as tests/web/test_web_browser.py): a real server (`make_app` in
uvicorn, in a thread of this process), a small game in its working folder.

* Type an error: its mark appears at the right line (how soon: benchmarks/studio.py).
* Mend it and change a rule's title: the rulebook beside shows the new title.
* Hover a defined term: the author's text in a tooltip.
* The rule under the cursor is marked in the book; a click in the book moves the editor there.
* "Play it now" opens the table in a new tab; a move is played there.

Screenshots go to each test's tmp_path (STUDIO_SHOTS=DIR keeps them there too)."""

from __future__ import annotations

import random

import pytest

from browser import MY_TURN, StudioServer, book, click_a_move, cursor_line, goto_end_of, pages, serving, shot
from small_games import MINI


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(lambda: StudioServer(tmp_path_factory.mktemp("studio")))


@pytest.fixture
def page(browser, server):
    with pages(browser) as open_:
        p = open_(server.studio_url(server.work / "mini.cards"))
        p.wait_for_function("() => window.studio && window.studio.state.version && "
                            "document.getElementById('rulebook').contentDocument.querySelector('[data-rule]')")
        yield p


# ------------------------------------------------------------------ the tests


def test_an_error_is_marked_at_its_line_and_the_mended_text_changes_the_book(page, tmp_path):
    """How soon the mark appears is a figure of benchmarks/studio.py (about 230 ms), not a timed
    assertion here: under the suite's load a page waits on a busy server."""
    line = MINI.split("\n").index("define points(p: player) = count(hand(p))")
    goto_end_of(page, line)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # after "hand(p": "px" is a name that is not there
    page.keyboard.type("x")
    page.wait_for_function("() => document.querySelector('.cm-lintRange-error') && document.querySelector('#marks li.error')")
    mark = page.locator("#marks li.error")
    assert mark.get_attribute("data-line") == str(line) and "'px'" in mark.inner_text()
    err_line = page.evaluate("() => { const v = window.studio.editor.view, el = document.querySelector('.cm-lintRange-error');"
                             " return v.state.doc.lineAt(v.posAtDOM(el)).number - 1; }")
    assert err_line == line
    assert page.locator("#stale").is_visible() and f"Line {line + 1}" in page.locator("#stale").inner_text()
    shot(page, tmp_path, "studio-error")
    page.keyboard.press("Backspace")
    page.wait_for_function("() => document.getElementById('stale').hidden && !document.querySelector('#marks li')")
    deal = MINI.split("\n").index('    rule deal "Deal":')
    goto_end_of(page, deal)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type(" out")
    book(page).locator('.rule[data-rule="deal"] h4', has_text="Deal out").wait_for()
    shot(page, tmp_path, "studio-mended")


def test_hover_over_a_defined_term_shows_its_text(page, tmp_path):
    line = MINI.split("\n").index("winner fewest points")
    box = page.evaluate("""line => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
        const c = v.coordsAtPos(l.from + l.text.indexOf('points') + 2); return {x: c.left, y: (c.top + c.bottom) / 2}; }""",
                        line)
    page.mouse.move(box["x"], box["y"])
    tip = page.locator(".cm-tooltip-hover")
    tip.wait_for()
    assert "the cards a player still holds" in tip.inner_text()
    shot(page, tmp_path, "studio-hover")


def test_the_rule_under_the_cursor_is_marked_and_a_click_in_the_book_moves_the_editor(page, tmp_path):
    discard = MINI.split("\n").index('        rule discard "Discard":')
    goto_end_of(page, discard + 2)
    book(page).locator('.rule.studio-here[data-rule="discard"]').wait_for()
    assert book(page).locator(".studio-here").count() == 1
    deal = MINI.split("\n").index('    rule deal "Deal":')
    book(page).locator('.rule[data-rule="deal"] h4').click()
    page.wait_for_function("""line => { const v = window.studio.editor.view;
        return v.state.doc.lineAt(v.state.selection.main.head).number - 1 === line; }""", arg=deal)
    book(page).locator('.rule.studio-here[data-rule="deal"]').wait_for()
    assert cursor_line(page) == deal
    shot(page, tmp_path, "studio-book-click")


def test_play_it_now_opens_a_table_where_a_move_is_played(page, tmp_path):
    page.click("#play")
    page.select_option("#play-players", "2")
    page.select_option('#play-seats select[name="seat1"]', "person")
    page.select_option('#play-seats select[name="seat2"]', "random")
    page.fill("#play-seed", "3")
    with page.context.expect_page() as opened:
        page.click("#play-start")
    table = opened.value
    table.wait_for_url("**/t/*/seat/1?token=*")
    table.wait_for_function(MY_TURN)
    before = int(table.locator("#live").get_attribute("data-version"))
    click_a_move(table, random.Random(1))
    table.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) > {before}")
    assert "Mini" in table.title()
    shot(table, tmp_path, "studio-table")
