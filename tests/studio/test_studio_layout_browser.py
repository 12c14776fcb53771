"""The studio's and the table's layout, in a real browser (Playwright with Debian's Chromium; the
server, skip logic and helpers of tests/browser.py), Ganjifa and a variant of it in
the studio's working folder:

* the editor keeps its box while 100 lines are typed (the problems have a strip of their own);
* the panels below are smaller than half the page and a splitter resizes them, by mouse and by
  keys, and the size is kept; a Balance report fills its panel (no frame in a scrolling box);
* Compare is off, with its reason beside it, until there is something to compare with; the
  progress counts each side's games against the number asked for;
* at 390 px wide the editor fills the width and buttons switch between editor, book and panels;
* at a table, the player's own hand covers none of the other players' cards, at the top, after
  scrolling to the bottom, and after a move.

Screenshots go to each test's tmp_path (STUDIO_SHOTS=DIR keeps them there too)."""

from __future__ import annotations

import random
import re

import pytest

from small_games import MINI
from browser import GANJIFA_AND_VARIANT, MY_TURN, StudioServer, click_a_move, open_table, pages, serving, shot

LOADED = ("() => window.studio && window.studio.state.version && "
          "document.getElementById('rulebook').contentDocument.querySelector('h1')")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(lambda: StudioServer(tmp_path_factory.mktemp("studio"), GANJIFA_AND_VARIANT))


@pytest.fixture
def open_page(browser):
    """open_page(url, width, height): a page in a context of its own (its own localStorage); the
    test fails on any uncaught error in any of them."""
    with pages(browser, timeout=30_000) as open_:
        yield open_


def studio(open_page, server, name: str, width: int = 1400, height: int = 900):
    p = open_page(server.studio_url(server.work / name), width, height)
    p.wait_for_function(LOADED)
    return p


def box(page, selector: str) -> dict:
    return page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }")


# ------------------------------------------------------------------ the editor and the panels

def test_typing_100_lines_leaves_the_editors_box_as_it_was(open_page, server, tmp_path):
    page = studio(open_page, server, "mini.cards")
    before = [box(page, "#editor"), box(page, ".cm-editor"), box(page, "#measure")]
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    for i in range(100):  # lines that do not parse: the problems list fills up too
        page.keyboard.press("Enter")
        page.keyboard.insert_text(f"nonsense {i}")  # (a line's text as one input, as a paste or an IME gives it)
    page.wait_for_function(f"() => window.studio.editor.view.state.doc.lines >= {MINI.count(chr(10)) + 100}"
                           " && document.querySelector('#marks li.error')")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('does not load')")
    after = [box(page, "#editor"), box(page, ".cm-editor"), box(page, "#measure")]
    assert after == before
    scroller = page.locator(".cm-scroller").evaluate("e => [e.scrollHeight, e.clientHeight, e.scrollTop]")
    assert scroller[0] > scroller[1] and scroller[2] > 0          # it scrolls inside its box
    shot(page, tmp_path, "layout-100-lines")


def test_without_the_editors_bundle_a_plain_editor_edits_hovers_and_follows_the_book(open_page, server, tmp_path):
    """A page whose editor.bundle.js does not load (plain-editor.js): a textarea holds the file,
    a word under the cursor shows its hover text, a rule clicked in the book puts the cursor on
    its line, and typing marks the file unsaved."""
    page = open_page(None)
    page.route("**/editor.bundle.js*", lambda route: route.abort())
    page.goto(server.studio_url(server.work / "mini.cards"))
    page.wait_for_function(LOADED)
    area = page.locator("textarea.fallback")
    assert area.input_value() == MINI and page.evaluate("() => window.CardsEditor === undefined")
    at = MINI.index("count(hand(p))") - len("points(p: player) = ") + 2  # (inside the word "points")
    area.evaluate(f"(t) => {{ t.focus(); t.setSelectionRange({at}, {at}); }}")
    area.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('hover').textContent.includes('the cards a player still holds')")
    assert page.locator("#hover").is_visible()
    rule = page.frame_locator("#rulebook").locator('.rule[data-rule="deal"]')
    rule.locator("p").first.click(position={"x": 3, "y": 4})
    line = int(rule.get_attribute("data-line")) - 1
    page.wait_for_function(f"() => {{ const t = document.querySelector('textarea.fallback');"
                           f" return t.value.slice(0, t.selectionStart).split('\\n').length - 1 === {line}; }}")
    area.press("End")
    area.type(" # typed")
    page.wait_for_function("() => document.getElementById('status').textContent === 'unsaved changes'")
    shot(page, tmp_path, "plain-editor")


def test_the_splitter_resizes_the_panels_by_mouse_and_keys_and_the_size_is_kept(open_page, server, tmp_path):
    page = studio(open_page, server, "inverted-ranking.cards")
    panels, editor = box(page, "#measure")["height"], box(page, "#editor")["height"]
    assert 72 <= panels < 0.4 * 900                                 # smaller than half, by default
    bar = box(page, "#splitter")
    x, y = bar["x"] + bar["width"] / 2, bar["y"] + bar["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for dy in range(10, 151, 10):
        page.mouse.move(x, y - dy)
    page.mouse.up()
    dragged = box(page, "#measure")["height"]
    assert abs(dragged - (panels + 150)) <= 2
    assert abs(box(page, "#editor")["height"] - (editor - 150)) <= 2
    assert page.evaluate("() => document.activeElement.id") == "splitter"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    keyed = box(page, "#measure")["height"]
    assert abs(keyed - (dragged - 48)) <= 1
    assert page.locator("#splitter").get_attribute("aria-valuenow") == str(round(keyed))
    shot(page, tmp_path, "layout-splitter")
    page.reload()
    page.wait_for_function(LOADED)
    assert abs(box(page, "#measure")["height"] - keyed) <= 1     # kept (localStorage)


def test_compare_is_off_with_its_reason_until_there_is_something_to_compare_with(open_page, server, tmp_path):
    """And once on, the report fills its panel and counts each side's games as asked (one run
    of a comparison serves both questions: a report is seconds of a niced child under load)."""
    page = studio(open_page, server, "ganjifa.cards")
    page.click("#measure-tab-balance")
    panel = page.locator("#measure-balance")
    compare, why = panel.locator("button[type=submit]"), panel.locator(".measure-why")
    why.wait_for()
    assert compare.is_disabled()
    assert "not a variant: choose a file to compare it with" in why.inner_text()
    assert compare.get_attribute("title") == why.inner_text()
    shot(page, tmp_path, "layout-compare-off")
    # another file chosen: on, and it runs against that file
    panel.locator("select[name=against]").select_option(label="inverted-ranking.cards")
    assert compare.is_enabled() and why.is_hidden()
    panel.locator("input[name=games]").fill("2")
    compare.click()
    page.frame_locator("#measure-balance iframe").locator("h1", has_text="Balance report").wait_for(timeout=90_000)
    page.wait_for_function("() => document.querySelector('#measure-balance .measure-state').textContent.includes('done')")
    state = panel.locator(".measure-state").inner_text()
    assert "ganjifa: 2 / 2 games" in state and "inverted-ranking: 2 / 2 games" in state, state
    assert "4 / 4" not in state
    frame, inner = box(page, "#measure-balance iframe"), panel.evaluate(
        "p => { const r = p.getBoundingClientRect(), s = getComputedStyle(p);"
        " return {top: r.top + parseFloat(s.paddingTop), bottom: r.bottom - parseFloat(s.paddingBottom),"
        " scrolls: p.scrollHeight > p.clientHeight + 1}; }")
    assert abs(frame["y"] - inner["top"]) <= 1 and abs(frame["y"] + frame["height"] - inner["bottom"]) <= 1
    assert not inner["scrolls"]
    assert page.locator("#measure").evaluate("m => m.scrollHeight <= m.clientHeight + 1")
    shot(page, tmp_path, "layout-balance-report")
    # a variant: on at once (its base)
    page.select_option("#file", str(server.work / "inverted-ranking.cards"))
    page.wait_for_function("() => window.studio.current().path.endsWith('inverted-ranking.cards') && window.studio.state.version")
    page.wait_for_function("() => !document.querySelector('#measure-balance button[type=submit]').disabled")
    assert why.is_hidden()
    assert "its base, ganjifa.cards" in panel.locator("select[name=against] option:checked").inner_text()
    shot(page, tmp_path, "layout-compare-on")


def test_the_file_to_compare_with_is_confined_like_every_other_path(server):
    """(Through the API, as the page sends it.) Not the file itself, nothing outside the folders."""
    import json
    from urllib.error import HTTPError
    from urllib.request import Request, urlopen

    def post(url: str, **body) -> tuple[int, dict]:
        req = Request(server.url + url, data=json.dumps(body).encode(), method="POST",
                      headers={"Content-Type": "application/json", "X-Studio-Token": server.token})
        try:
            with urlopen(req, timeout=120) as r:
                return r.status, json.loads(r.read())
        except HTTPError as e:
            return e.code, json.loads(e.read())
    path = str(server.work / "ganjifa.cards")
    assert post("/studio/api/analyse", path=path, text=(server.work / "ganjifa.cards").read_text())[1]["ok"]
    status, got = post("/studio/api/measure/balance/start", path=path, games=1, against=path)
    assert status == 400 and "another file than this one" in got["error"]
    status, got = post("/studio/api/measure/balance/start", path=path, games=1, against="/etc/passwd.cards")
    assert status == 403, got
    status, got = post("/studio/api/measure/balance/start", path=path, games=1)
    assert status == 409 and "choose a file to compare it with" in got["error"]


def test_at_390_px_the_editor_fills_the_width_and_buttons_switch_the_view(open_page, server, tmp_path):
    page = studio(open_page, server, "ganjifa.cards", 390, 844)
    views = page.locator("#views")
    assert views.is_visible()
    assert box(page, "#editor")["width"] >= 0.9 * 390
    assert page.locator("#book").is_hidden() and page.locator("#measure").is_hidden()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, tmp_path, "narrow-editor")
    views.get_by_role("button", name="Rulebook").click()
    assert page.locator("#edit").is_hidden() and page.locator("#rulebook").is_visible()
    assert box(page, "#rulebook")["width"] >= 0.9 * 390
    assert views.get_by_role("button", name="Rulebook").get_attribute("aria-pressed") == "true"
    shot(page, tmp_path, "narrow-book")
    views.get_by_role("button", name="Panels").click()
    assert page.locator("#panes").is_hidden() and page.locator("#measure").is_visible()
    page.click("#measure-tab-balance")
    assert page.locator("#measure-balance button[type=submit]").is_visible()
    shot(page, tmp_path, "narrow-panels")
    views.get_by_role("button", name="Editor").click()
    assert page.locator("#editor").is_visible() and page.locator("#measure").is_hidden()
    # a rule clicked in the book: the editor shows again, its cursor at that rule
    views.get_by_role("button", name="Rulebook").click()
    rule = page.frame_locator("#rulebook").locator('.rule[data-rule="deal"]')
    rule.locator("p").first.click(position={"x": 3, "y": 4})   # (its first words: no link there)
    page.wait_for_function("() => document.body.dataset.view === 'editor'")
    assert page.locator("#editor").is_visible() and page.locator("#book").is_hidden()
    line = int(rule.get_attribute("data-line")) - 1
    assert page.evaluate("() => { const v = window.studio.editor.view;"
                         " return v.state.doc.lineAt(v.state.selection.main.head).number - 1; }") == line
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# typed on a phone")
    page.wait_for_function("() => window.studio.editor.getText().includes('typed on a phone')")
    assert box(page, ".cm-editor")["width"] >= 0.9 * 390


# ------------------------------------------------------------------ the table

# The visible part of each element of the other players' areas and of the shared zones (clipped by
# every scrolling box around it and by the window) that lies under the viewer's own area, or whose
# middle shows the viewer's area instead of itself.
COVERED = """() => {
  const me = document.querySelector('#live .area.me');
  const shown = el => {
    const r = el.getBoundingClientRect();
    let b = {l: Math.max(r.left, 0), t: Math.max(r.top, 0), r: Math.min(r.right, innerWidth), bt: Math.min(r.bottom, innerHeight)};
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      b = {l: Math.max(b.l, q.left), t: Math.max(b.t, q.top), r: Math.min(b.r, q.right), bt: Math.min(b.bt, q.bottom)};
    }
    return b.r - b.l > 0.5 && b.bt - b.t > 0.5 ? b : null;
  };
  const mine = shown(me), out = [];
  let seen = 0;
  for (const el of document.querySelectorAll('#live .seats .area, #live .seats .area *, #live .shared, #live .shared *')) {
    const v = shown(el);
    if (!v) continue;
    seen += 1;
    const what = (el.closest('[data-seat]') || el).dataset.seat + ' ' + el.tagName + '.' + el.getAttribute('class');
    if (mine && v.l < mine.r && mine.l < v.r && v.t < mine.bt && mine.t < v.bt) { out.push('under the hand: ' + what); continue; }
    const top = document.elementFromPoint((v.l + v.r) / 2, (v.t + v.bt) / 2);
    if (top && me.contains(top)) out.push('hidden by the hand: ' + what);
  }
  return {covered: out, seen: seen};
}"""

# the box the other players' areas scroll in is scrolled to its end
AT_BOTTOM = """() => {
  for (let p = document.querySelector('#live .seats'); p; p = p.parentElement) {
    if (p.scrollHeight > p.clientHeight + 1 && getComputedStyle(p).overflowY !== 'visible')
      return p.scrollTop + p.clientHeight >= p.scrollHeight - 1;
  }
  return true;
}"""


def uncovered(page, when: str, in_sight: bool = False) -> None:
    got = page.evaluate(COVERED)
    assert got["seen"] > 0 or not in_sight, f"{when}: none of the other players' cards is in sight"
    assert not got["covered"], f"{when}: {got['covered'][:5]}"


# the smaller window in the default run (the hand is most crowded there); the larger with the slow tests
@pytest.mark.parametrize("width,height", [pytest.param(1400, 900, marks=pytest.mark.slow), (1024, 600)])
def test_at_a_table_the_hand_covers_no_other_players_cards(open_page, server, tmp_path, width, height):
    page = open_page("about:blank", width, height)
    page.goto(server.url + "/", timeout=180_000)   # the first list of games reads every bundled game
    links = open_table(page, server, ["person", "random", "random"], seed=5)
    page.goto(server.url + links[1])
    page.wait_for_function(MY_TURN)
    rng = random.Random(5)
    for _ in range(4):   # a few tricks: cards in the other players' "cards won"
        v = int(page.locator("#live").get_attribute("data-version"))
        click_a_move(page, rng)
        page.wait_for_function(f"() => {{ const l = document.getElementById('live'); return !!l.querySelector('#outcome') ||"
                               f" (Number(l.dataset.version) > {v} && !l.classList.contains('busy') && !!l.querySelector('.turn.mine')); }}")
    assert page.locator('#live .seats [data-zone="won"] .slot').count() > 0
    page.evaluate("() => document.querySelectorAll('#live, #live [data-scroll]').forEach(e => { e.scrollTop = 0; })")
    uncovered(page, "at the top", in_sight=True)
    shot(page, tmp_path, f"table-{width}-top")
    seats = box(page, "#live .seats")
    page.mouse.move(seats["x"] + 20, max(seats["y"], 60) + 10)
    page.mouse.wheel(0, 5000)
    page.wait_for_function(AT_BOTTOM)
    uncovered(page, "scrolled to the bottom")
    shot(page, tmp_path, f"table-{width}-bottom")
    v = int(page.locator("#live").get_attribute("data-version"))
    click_a_move(page, rng)
    page.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) > {v}"
                           " && !document.getElementById('live').classList.contains('busy')")
    uncovered(page, "after a move")
    assert re.search(r"/t/\w+/seat/1\?token=", page.url)
