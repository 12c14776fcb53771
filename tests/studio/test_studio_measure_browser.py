"""The studio's measure panels in the real page, in a real browser (Playwright with Debian's
Chromium; the server, skip logic and helpers of tests/browser.py): a Ganjifa variant
in the studio's working folder beside its base.

* Open the variant: the Diff tab shows `cardrules diff`'s page for it.
* Run a 50-game comparison from the Balance tab: the progress bar moves, the report's plots show.

Screenshots go to each test's tmp_path (STUDIO_SHOTS=DIR keeps them there too)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from browser import GANJIFA_AND_VARIANT, StudioServer, pages, serving, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(lambda: StudioServer(tmp_path_factory.mktemp("studio"), GANJIFA_AND_VARIANT))


@pytest.fixture
def page(browser, server):
    with pages(browser, timeout=20_000) as open_:
        p = open_(server.studio_url(server.work / 'inverted-ranking.cards'), 1400, 1000)
        p.wait_for_function("() => window.studio && window.studio.state.version && window.studio.current().base")
        yield p


def test_a_variants_diff_shows_in_the_diff_tab(page, tmp_path):
    assert page.locator("#measure-tab-diff").get_attribute("aria-selected") == "true"
    diff = page.frame_locator("#measure-diff iframe")
    diff.locator("h1", has_text="What changes: Ganjifa with inverted ranking").wait_for()
    assert diff.locator("#redline table.redline").count() == 1
    assert "1 change to the rules" in page.locator("#measure-diff .measure-note").inner_text()
    page.locator("#measure").scroll_into_view_if_needed()
    shot(page, tmp_path, "measure-diff")
    # an edit that loads: the diff follows it
    page.evaluate("""() => { const v = window.studio.editor.view, t = v.state.doc.toString(),
        i = t.indexOf('with inverted ranking"'); v.dispatch({changes: {from: i, to: i + 21, insert: 'upside down'}}); }""")
    diff.locator("h1", has_text="What changes: Ganjifa upside down").wait_for()


def test_a_50_game_comparison_shows_its_plots(page, tmp_path):
    page.click("#measure-tab-balance")
    panel = page.locator("#measure-balance")
    assert panel.locator("input[name=games]").input_value() == "50"
    t0 = time.monotonic()
    panel.locator("button[type=submit]").click()
    page.wait_for_function("() => { const p = document.querySelector('#measure-balance progress');"
                           " return p && p.max === 100; }")
    report = page.frame_locator("#measure-balance iframe")
    report.locator("h1", has_text="Balance report").wait_for(timeout=60_000)
    seconds = time.monotonic() - t0
    assert report.locator("svg").count() >= 3            # the report's own plots
    assert report.locator("text=inverted-ranking").count() >= 1
    progress = panel.locator("progress")
    assert progress.evaluate("p => p.value === p.max")
    state = panel.locator(".measure-state").inner_text()   # each side's games, as asked
    assert "inverted-ranking: 50 / 50 games" in state and "ganjifa: 50 / 50 games" in state, state
    assert panel.locator("button", has_text="Stop").is_disabled()
    print(f"50-game Ganjifa comparison, click to plots: {seconds:.1f} s")
    panel.locator("iframe").scroll_into_view_if_needed()
    report.locator("svg").first.scroll_into_view_if_needed()
    shot(page, tmp_path, "measure-balance")


def test_a_designer_makes_a_ganjifa_variant_reads_plays_and_measures_it_from_the_page_alone(page, server, tmp_path):
    """The issue's whole journey, clicks and keys only: Ganjifa open, New variant of it, one rule
    changed by typing, saved; the book shows the change; Play it now against two bots and a move
    made at the table; then the Balance tab compares the variant with Ganjifa and shows the plots."""
    import random

    from browser import MY_TURN, click_a_move
    page.select_option("#file", str(server.work / "ganjifa.cards"))
    page.wait_for_function("() => window.studio.current().path.endsWith('ganjifa.cards') && window.studio.state.loaded")
    page.click("#new-variant")
    page.locator("#name-dialog[open]").wait_for()
    page.keyboard.press("Enter")  # the name it proposes
    page.wait_for_function("() => window.studio.current().base !== null && window.studio.state.loaded")
    made = Path(page.evaluate("() => window.studio.current().path"))
    assert made.parent == server.work and made.name != "ganjifa.cards" and made.exists()
    assert 'of "ganjifa.cards"' in made.read_text(encoding="utf-8")      # a variant: only what changes
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type('\ndefine may_lead(c: card) = false\n    text "never: the designer keeps low cards back"\n')
    book = page.frame_locator("#rulebook")
    book.locator("text=the designer keeps low cards back").first.wait_for()
    page.click("#save")
    page.wait_for_function("() => { const t = document.getElementById('status').textContent;"
                           " return t.includes('saved') && !t.includes('unsaved'); }")
    assert "the designer keeps low cards back" in made.read_text(encoding="utf-8")
    page.click("#play")
    page.select_option("#play-players", "3")
    page.fill("#play-seed", "5")
    with page.context.expect_page() as opened:
        page.click("#play-start")
    table = opened.value
    table.wait_for_function(MY_TURN, timeout=30_000)
    assert "(my variant)" in table.title() or "variant" in table.title().lower()
    before = int(table.locator("#live").get_attribute("data-version"))
    click_a_move(table, random.Random(2))
    table.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) > {before}")
    shot(table, tmp_path, "journey-table")
    page.bring_to_front()
    page.click("#measure-tab-balance")
    panel = page.locator("#measure-balance")
    panel.locator("input[name=games]").fill("20")
    panel.locator("button[type=submit]").click()
    report = page.frame_locator("#measure-balance iframe")
    report.locator("h1", has_text="Balance report").wait_for(timeout=60_000)
    assert report.locator("svg").count() >= 3
    state = panel.locator(".measure-state").inner_text()
    assert f"{made.stem}: 20 / 20 games" in state and "ganjifa: 20 / 20 games" in state, state
    shot(page, tmp_path, "journey-balance")
