"""The studio's editor and its ways around, in a real browser (Playwright with Debian's Chromium;
the server, skip logic and helpers of tests/browser.py), as a person uses them:

* long lines wrap, and every file opens at its top left (no sideways scroll carried over);
* after `option ` in a variant, the completions are the base's options; a mistyped option is
  marked at its name, with "did you mean";
* a click on a rule's heading, or on its name in the book's contents, puts the cursor on it; in a
  variant, a rule of the base opens the base (read-only when bundled) at that rule;
* F12 into the base, then Alt+Left / Alt+Right and the browser's Back / Forward;
* the outline lists the phases and rules, follows edits, and a click moves the cursor;
* the shortcut list opens with "?", F1 or its button, and Escape closes it;
* in a system's dark mode, the page and the editor are dark and their text readable.

Plain tests (no browser) check the option errors themselves. Screenshots go to each test's
tmp_path (STUDIO_SHOTS=DIR keeps them there too)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from small_games import MINI
from browser import StudioServer, book, goto_end_of, pages, serving, shot

ROOT = Path(__file__).resolve().parents[2]
GANJIFA = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"
KUHN = ROOT / "rulesets" / "classic" / "kuhn-poker.cards"

LONG_TEXT = "A very long explanation, " * 40
LONG = MINI.replace('game mini "Mini"', 'game long "Long"').replace(
    '    text "the cards a player still holds"', f'    text "{LONG_TEXT.strip()}"')
OPT = 'variant opt "Ganjifa, batches face up" of "ganjifa.cards"\n\noption face_up_batches = true\n'
KV = '''variant kv "Kuhn poker, told again" of "bundled:kuhn-poker"

text "The same game, with a line of our own."

define score(p: player) = chips(p) + strength(p) - strength(p)
    text "the chips the player has won, less the chips the player paid into the pot"
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    files = {"ganjifa.cards": GANJIFA, "long.cards": LONG, "opt.cards": OPT, "kv.cards": KV}
    yield from serving(lambda: StudioServer(tmp_path_factory.mktemp("studio"), files))


@pytest.fixture
def studio(browser, server):
    """studio(file, **context options): the studio's page on that file, its book shown. Every page
    fails its test on an uncaught error."""
    with pages(browser) as open_page:
        def open_(name: str, **options):
            p = open_page(server.studio_url(server.work / name), **options)
            wait_loaded(p, server.work / name)
            return p
        yield open_


def wait_loaded(page, path) -> None:
    """The file `path` is open and its book shows (a rule or phase in it)."""
    page.wait_for_function("""path => window.studio && window.studio.state.path === path && window.studio.state.version
        && document.getElementById('rulebook').contentDocument.querySelector('[data-line]')""", arg=str(path))


def cursor(page) -> tuple[int, int]:
    return tuple(page.evaluate("() => { const v = window.studio.editor.view, h = v.state.selection.main.head, "
                               "l = v.state.doc.lineAt(h); return [l.number - 1, h - l.from]; }"))


def wait_cursor_line(page, line: int) -> None:
    page.wait_for_function("""line => { const v = window.studio.editor.view;
        return v.state.doc.lineAt(v.state.selection.main.head).number - 1 === line; }""", arg=line)


def wait_place(page, path, line: int) -> None:
    """The editor shows `path` with the cursor on `line` (0-based)."""
    page.wait_for_function("""([path, line]) => { const s = window.studio, v = s.editor.view;
        return s.state.path === path && v.state.doc.toString() === s.current().text
               && v.state.doc.lineAt(v.state.selection.main.head).number - 1 === line; }""", arg=[str(path), line])


def line_of(text: str, start: str) -> int:
    return next(i for i, l in enumerate(text.split("\n")) if l.startswith(start))


def geometry(page) -> dict:
    return page.evaluate("""() => { const v = window.studio.editor.view, s = v.scrollDOM, c = v.contentDOM;
        return {left: s.scrollLeft, outer: document.getElementById('editor').scrollLeft, scrollWidth: s.scrollWidth,
                clientWidth: s.clientWidth, content: c.getBoundingClientRect().width,
                box: s.getBoundingClientRect().width, lineHeight: v.defaultLineHeight}; }""")


def line_height(page, line: int) -> float:
    """The drawn height of a 0-based line (scrolled into view to be drawn, then back)."""
    return page.evaluate("""async line => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
        const top = v.scrollDOM.scrollTop, frame = () => new Promise(r => requestAnimationFrame(r));
        v.scrollDOM.scrollTop = v.lineBlockAt(l.from).top; await frame(); await frame();
        const a = v.coordsAtPos(l.from), b = v.coordsAtPos(l.to, -1);
        v.scrollDOM.scrollTop = top; await frame();
        return b.bottom - a.top; }""", line)


def rows_start(page, line: int) -> list[float]:
    """Where each drawn row of a 0-based line starts (x), its first row's text included."""
    return page.evaluate("""line => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
        const text = l.from + l.text.length - l.text.trimStart().length, xs = [v.coordsAtPos(text).left];
        let y = v.coordsAtPos(text).top;
        for (let p = text; p < l.to; p++) { const c = v.coordsAtPos(p, 1); if (c.top > y + 2) { xs.push(c.left); y = c.top; } }
        return xs; }""", line)


def open_from_list(page, server, name: str) -> None:
    page.select_option("#file", str(server.work / name))
    wait_loaded(page, server.work / name)


# ------------------------------------------------------------------ 1. scroll and wrap


def test_long_lines_wrap_and_every_file_opens_at_its_left_edge(studio, server, tmp_path):
    page = studio("long.cards")
    long_line = line_of(LONG, "    text \"A very long")
    g = geometry(page)
    assert g["left"] == 0 and g["outer"] == 0
    assert g["scrollWidth"] <= g["clientWidth"] + 1, f"the content is wider than the editor: {g}"
    assert line_height(page, long_line) > 3 * g["lineHeight"], "the long line does not wrap"
    rows = rows_start(page, long_line)  # the rows after the first hang under the text, further in
    assert len(rows) > 3 and all(x > rows[0] + 2 for x in rows[1:]), rows
    page.evaluate("() => { window.studio.editor.view.scrollDOM.scrollLeft = 400; "
                  "document.getElementById('editor').scrollLeft = 400; }")
    shot(page, tmp_path, "editor-long-line-wrapped")
    # an error on the long line, then mended: still nothing to scroll sideways
    goto_end_of(page, long_line)
    page.keyboard.type(" oops")
    page.locator("#marks li.error").wait_for()
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.wait_for_function("() => !document.querySelector('#marks li')")
    g = geometry(page)
    assert g["left"] == 0 and g["outer"] == 0 and g["scrollWidth"] <= g["clientWidth"] + 1, g
    # another file, and back: each opens at its top left
    page.evaluate("() => { window.studio.editor.view.scrollDOM.scrollTop = 10000; }")
    open_from_list(page, server, "ganjifa.cards")
    g = geometry(page)
    assert g["left"] == 0 and g["outer"] == 0 and g["scrollWidth"] <= g["clientWidth"] + 1, g
    assert page.evaluate("() => window.studio.editor.view.scrollDOM.scrollTop") == 0
    wide = max(range(len(GANJIFA.read_text().split("\n"))), key=lambda i: len(GANJIFA.read_text().split("\n")[i]))
    assert line_height(page, wide) > 1.5 * g["lineHeight"], "ganjifa's longest line does not wrap"
    open_from_list(page, server, "long.cards")
    g = geometry(page)
    assert g["left"] == 0 and g["outer"] == 0 and g["scrollWidth"] <= g["clientWidth"] + 1, g
    shot(page, tmp_path, "editor-long-line-again")


# ------------------------------------------------------------------ 2. options in a variant


def completions(page) -> list[str]:
    page.locator(".cm-tooltip-autocomplete li").first.wait_for()
    return page.locator(".cm-tooltip-autocomplete li .cm-completionLabel").all_inner_texts()


def test_after_option_in_a_variant_the_completions_are_the_bases_options(studio, tmp_path):
    page = studio("opt.cards")
    goto_end_of(page, OPT.count("\n"))
    page.keyboard.type("option fa")
    assert completions(page) == ["face_up_batches"]
    shot(page, tmp_path, "editor-option-completion")
    page.keyboard.press("Escape")
    for _ in "fa":
        page.keyboard.press("Backspace")
    page.keyboard.press("Control+Space")
    page.wait_for_function("() => document.querySelectorAll('.cm-tooltip-autocomplete li').length >= 6")
    assert set(completions(page)) == {"time", "face_up_batches", "double_opening", "deni_may_be_declined",
                                      "optional_low_leads", "sacrifice_after_leading"}
    page.locator(".cm-tooltip-autocomplete li", has_text="face_up_batches").click()
    page.keyboard.type(" = false")
    assert page.evaluate("() => window.studio.editor.getText()").endswith("option face_up_batches = false")


def test_a_mistyped_option_is_marked_at_its_name_with_the_closest_names(studio, tmp_path):
    page = studio("opt.cards")
    line = line_of(OPT, "option face_up_batches")
    page.evaluate("""line => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1),
        i = l.from + l.text.indexOf('batches') + 6; v.focus(); v.dispatch({selection: {anchor: i}}); }""", line)
    page.keyboard.press("Backspace")  # face_up_batchs
    page.locator(".cm-lintRange-error").first.wait_for()
    marked = page.evaluate("""() => Array.from(document.querySelectorAll('.cm-lintRange-error'))
        .map(e => e.textContent).join('')""")
    assert marked == "face_up_batchs"
    mark = page.locator("#marks li.error")
    assert mark.get_attribute("data-line") == str(line)
    assert "column 8" in mark.inner_text() and "did you mean 'face_up_batches'?" in mark.inner_text()
    page.locator(".cm-lintRange-error").first.hover()
    page.locator(".cm-tooltip .cm-diagnostic-error", has_text="did you mean").wait_for()
    shot(page, tmp_path, "editor-option-did-you-mean")


def test_plain_a_variants_unknown_option_is_told_at_its_name_with_the_closest_names(tmp_path):
    from interpreter import RulesetError, load_ruleset
    shutil.copy(GANJIFA, tmp_path / "ganjifa.cards")
    v = tmp_path / "v.cards"
    v.write_text('variant v of "ganjifa.cards"\n\noption  face_up_batchs = true\n', encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(v)
    assert (e.value.line, e.value.column) == (3, 9)  # the name, not the keyword
    assert "did you mean 'face_up_batches'?" in e.value.message
    v.write_text('variant v of "ganjifa.cards"\noption speed = 3\n', encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(v)
    assert "did you mean" not in e.value.message and "its options: deni_may_be_declined" in e.value.message


def test_plain_an_unknown_option_given_to_a_game_names_the_closest():
    from interpreter import OptionError, load_ruleset
    from interpreter.engine.play import program_of, resolve_options
    with pytest.raises(OptionError, match=r"unknown option 'double_openin' \(did you mean 'double_opening'\?\)"):
        resolve_options(program_of(load_ruleset(GANJIFA)), {"double_openin": "true"})


# ------------------------------------------------------------------ 3. from the book to the source, and back


def test_clicking_any_rules_heading_or_its_name_in_the_contents_puts_the_cursor_there(studio, server, tmp_path):
    page = studio("ganjifa.cards")
    rules = book(page).locator(".rule[data-line]")
    n = rules.count()
    assert n == 8
    for i in range(n):
        rule = rules.nth(i)
        line = int(rule.get_attribute("data-line")) - 1
        rule.locator("h4").click()
        wait_cursor_line(page, line)
        book(page).locator(f'.rule.studio-here[data-rule="{rule.get_attribute("data-rule")}"]').wait_for()
    # the contents name every rule: a click there scrolls the book and moves the cursor
    for title, start in (("Passing the lead", "                rule pass_lead"), ("The leading Raja", "    rule leading_raja"),
                         ("Doubling the Deni", "                rule double_deni")):
        book(page).locator("#contents a, nav a, a", has_text=title).first.click()
        wait_cursor_line(page, line_of(GANJIFA.read_text(), start))
    shot(page, tmp_path, "editor-book-contents-click")


def test_in_a_variant_a_base_rules_heading_opens_the_base_read_only_there_and_alt_left_returns(studio, server, tmp_path):
    page = studio("kv.cards")
    kv = server.work / "kv.cards"
    empty = page.locator("#outline-empty")  # the variant's own outline is empty: the book has the base's rules
    assert empty.is_visible() and "restates no phase or rule" in empty.inner_text()
    goto_end_of(page, 2)
    here = cursor(page)
    deal = book(page).locator('.rule[data-rule="deal"]')
    assert deal.get_attribute("data-file") == str(KUHN)
    deal.locator("h4").click()
    wait_place(page, KUHN, line_of(KUHN.read_text(), '    rule deal "The deal"'))
    assert page.evaluate("() => window.studio.state.readonly") is True
    assert "bundled game" in page.locator('#notices [data-id="readonly"]').inner_text()
    assert page.locator("#file").input_value() == str(KUHN)
    wait_loaded(page, KUHN)
    marked = book(page).locator('.rule.studio-here[data-rule="deal"]')
    marked.wait_for()
    assert marked.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }"), \
        "the base's book does not show the rule"
    shot(page, tmp_path, "editor-base-rule-opened")
    page.keyboard.press("Alt+ArrowLeft")
    wait_place(page, kv, here[0])
    assert cursor(page) == here


def test_f12_into_the_base_then_back_and_forward_with_keys_and_the_browser(studio, server, tmp_path):
    page = studio("kv.cards")
    kv = server.work / "kv.cards"
    line = line_of(KV, "define score")
    col = KV.split("\n")[line].index("strength") + 3
    page.evaluate("""([line, col]) => { const v = window.studio.editor.view, l = v.state.doc.line(line + 1);
        v.focus(); v.dispatch({selection: {anchor: l.from + col}}); }""", [line, col])
    page.keyboard.press("F12")
    strength = line_of(KUHN.read_text(), "define strength")
    wait_place(page, KUHN, strength)
    shot(page, tmp_path, "editor-f12-into-base")
    page.keyboard.press("Alt+ArrowLeft")
    wait_place(page, kv, line)
    assert cursor(page) == (line, col)
    page.keyboard.press("Alt+ArrowRight")
    wait_place(page, KUHN, strength)
    page.go_back()
    wait_place(page, kv, line)
    assert cursor(page) == (line, col) and "kv.cards" in page.url
    page.go_forward()
    wait_place(page, KUHN, strength)
    # a jump within the file is a place to come back to, as well
    page.keyboard.press("Alt+ArrowLeft")
    wait_place(page, kv, line)
    page.evaluate("""() => { const v = window.studio.editor.view, t = v.state.doc.toString(),
        i = t.indexOf('chips(p) +') + 2; v.focus(); v.dispatch({selection: {anchor: i}}); }""")
    page.keyboard.press("F12")  # chips: a variable of the base
    wait_place(page, KUHN, line_of(KUHN.read_text(), "var chips"))
    page.keyboard.press("Alt+ArrowLeft")
    wait_place(page, kv, line)
    page.keyboard.press("Alt+ArrowLeft")  # the first place of the page: nowhere further back
    page.keyboard.press("Alt+ArrowRight")
    wait_place(page, KUHN, line_of(KUHN.read_text(), "var chips"))


def test_enter_indents_as_the_line_above_even_below_a_deeper_block(studio, tmp_path):
    page = studio("mini.cards")
    goto_end_of(page, line_of(MINI, "            set turn"))  # below a deeper line: "move c to pile"
    page.keyboard.press("Enter")
    page.keyboard.type('rule tally "Tally":')
    page.keyboard.press("Enter")
    page.keyboard.type("pass")
    lines = page.evaluate("() => window.studio.editor.getText()").split("\n")
    at = line_of(MINI, "            set turn")
    assert lines[at + 1:at + 3] == ['            rule tally "Tally":', "                pass"]


# ------------------------------------------------------------------ 4. the outline, the shortcuts, the dark


def outline(page) -> list[tuple[str, str, str]]:
    return page.evaluate("""() => Array.from(document.querySelectorAll('#outline-list li')).map(li =>
        [li.dataset.kind, li.dataset.name, li.style.paddingLeft])""")


def test_the_outline_lists_the_phases_and_rules_follows_edits_and_a_click_moves_the_cursor(studio, server, tmp_path):
    page = studio("mini.cards")
    got = outline(page)
    assert [(k, n) for k, n, _ in got] == [("phase", "play"), ("rule", "deal"), ("rule", "discard")]
    assert float(got[1][2].rstrip("rem")) > float(got[0][2].rstrip("rem"))  # a rule sits inside its phase
    assert page.locator("#outline-list li", has_text="Discard").is_visible()
    page.locator("#outline-list li[data-name=discard] button").click()
    discard = line_of(MINI, "        rule discard")
    wait_cursor_line(page, discard)
    assert page.evaluate("() => document.activeElement.classList.contains('cm-content')")
    page.locator("#outline-list li.here[data-name=discard]").wait_for()
    book(page).locator('.rule.studio-here[data-rule="discard"]').wait_for()
    # it follows edits: a new rule appears, in its place
    goto_end_of(page, line_of(MINI, "            set turn"))
    page.keyboard.press("Enter")
    page.keyboard.type('rule tally "Tally":\npass')  # (Enter indents the body)
    page.wait_for_function("() => document.querySelector('#outline-list li[data-name=tally]')")
    assert [n for _, n, _ in outline(page)] == ["play", "deal", "discard", "tally"]
    page.locator("#outline-list li[data-name=deal] button").click()
    wait_cursor_line(page, line_of(MINI, "    rule deal"))
    shot(page, tmp_path, "editor-outline")
    page.keyboard.press("Alt+ArrowLeft")  # the outline's jumps are places to come back to too
    wait_cursor_line(page, line_of(MINI, "            set turn") + 2)


def test_the_shortcut_list_opens_with_its_button_question_mark_and_f1_and_escape_closes_it(studio, tmp_path):
    page = studio("mini.cards")
    dialog = page.locator("#keys-dialog")
    page.click("#keys-open")
    dialog.wait_for(state="visible")
    text = dialog.inner_text()
    for key in ("Save the file", "F12", "Alt\n+\n←", "Back", "Forward", "Space", "completions", "F1", "Esc"):
        assert key.replace("\n", "") in text.replace("\n", ""), key
    shot(page, tmp_path, "editor-shortcuts")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.locator("#status").click()  # not in the editor
    page.keyboard.press("?")
    dialog.wait_for(state="visible")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.locator("#status").click()
    page.keyboard.press("Control+/")
    dialog.wait_for(state="visible")
    page.click("#keys-close")
    dialog.wait_for(state="hidden")
    # typing a '?' in the editor is a '?'; F1 opens the list from there
    goto_end_of(page, 0)
    page.keyboard.type("?")
    assert page.evaluate("() => window.studio.editor.getText().split('\\n')[0].endsWith('?')")
    assert not dialog.is_visible()
    page.keyboard.press("F1")
    dialog.wait_for(state="visible")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")


def _rgb(css: str) -> tuple[float, float, float]:
    nums = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    return tuple(nums)  # type: ignore[return-value]


def _luminance(rgb) -> float:
    def ch(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_in_dark_mode_the_page_and_the_editor_are_dark_and_readable(studio, tmp_path):
    page = studio("mini.cards", color_scheme="dark")
    colours = page.evaluate("""() => { const c = el => getComputedStyle(el);
        const q = s => document.querySelector(s);
        const word = Array.from(document.querySelectorAll('.cm-line span')).find(s => s.textContent === 'players');
        return {body: c(document.body).backgroundColor, text: c(document.body).color,
                editor: c(q('.cm-editor')).backgroundColor, ink: c(q('.cm-content')).color,
                gutter: c(q('.cm-gutters')).backgroundColor, number: c(q('.cm-lineNumbers .cm-gutterElement:nth-child(3)')).color,
                keyword: c(word).color, outline: c(q('#outline')).backgroundColor, item: c(q('#outline-list .ol-name')).color,
                book: c(q('#book')).backgroundColor, panels: c(q('#measure')).backgroundColor,
                tabs: c(q('.measure-tabs')).backgroundColor, tab: c(q('.measure-tabs button')).color}; }""")
    for surface in ("body", "editor", "gutter", "outline", "book", "panels", "tabs"):
        assert _luminance(_rgb(colours[surface])) < 0.05, (surface, colours[surface])
    for fg, bg in (("tab", "tabs"), ("text", "body"), ("ink", "editor"), ("keyword", "editor"), ("number", "gutter"), ("item", "outline")):
        assert _contrast(_rgb(colours[fg]), _rgb(colours[bg])) >= 4.5, (fg, bg, colours)
    # the rulebook stays paper, inside a frame
    paper = book(page).locator("body").evaluate("b => getComputedStyle(b).backgroundColor")
    assert _luminance(_rgb(paper)) > 0.8
    shot(page, tmp_path, "editor-dark")
    page.click("#keys-open")
    dialog = page.locator("#keys-dialog")
    dialog.wait_for(state="visible")
    bg = dialog.evaluate("d => getComputedStyle(d).backgroundColor")
    fg = dialog.evaluate("d => getComputedStyle(d).color")
    assert _luminance(_rgb(bg)) < 0.05 and _contrast(_rgb(fg), _rgb(bg)) >= 4.5
    shot(page, tmp_path, "editor-dark-shortcuts")
