"""The studio's file handling in a real browser (Playwright with Debian's Chromium; the server and
helpers of tests/browser.py), clicks and keys only:

* A refused open leaves the page consistent: the open file stays open and selected, or, with none,
  an editor that takes no keys and nothing to save; the refusal is shown; no error in the page.
* New and New variant of it ask for the name (Enter makes it, Esc cancels, a refusal stays in the
  dialog); Rename and Delete, for the files the studio may write; the other tab follows or is told.
* No 404 (the favicon) when the studio or the table loads; a save too large is refused, nothing written.
* A save in one tab shows in the other within seconds, with the changed lines (Reload / Keep mine);
  the conflict banner of a refused save shows them too.

Screenshots go to each test's tmp_path (STUDIO_SHOTS=DIR keeps them there too)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from small_games import MINI
from browser import StudioServer, serving, shot

from interpreter.lsp.model import MAX_CHARS

SEEN = 6_000  # ms: a change elsewhere shows within this (the page asks every 2 s)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(lambda: StudioServer(tmp_path_factory.mktemp("studio")))


@pytest.fixture
def context(browser):
    """One browser context (its tabs share it); fails the test on any error a page throws or
    logs (a refused request's own line in the console, "Failed to load resource", is the network's)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    ctx.set_default_timeout(15_000)
    ctx.errors = []
    yield ctx
    errors = ctx.errors
    ctx.close()
    assert not errors, errors


def tab(context, url: str, loaded: bool = True):
    p = context.new_page()
    p.on("pageerror", lambda e: context.errors.append(f"{p.url}: {e}"))
    p.on("console", lambda m: context.errors.append(f"{p.url}: console: {m.text}")
         if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    p.goto(url)
    if loaded:
        p.wait_for_function("() => window.studio && window.studio.state.version")
    return p


def game(server, name: str, text: str = MINI) -> Path:
    p = server.work / name
    p.write_text(text, encoding="utf-8")
    return p.resolve()


def text_of(page) -> str:
    return page.evaluate("() => window.studio.editor.getText()")


def type_at_end_of_line(page, line: int, keys: str) -> None:
    page.click(".cm-content")
    page.keyboard.press("Control+Home")
    for _ in range(line):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("End")
    page.keyboard.type(keys)


def until(page, seen, seconds: float = 10) -> None:
    """Wait for what only Python's side sees (the browser's network log): Playwright hands its
    events over while it is asked something, so it is asked to wait a moment at a time."""
    end = time.monotonic() + seconds
    while not seen():
        assert time.monotonic() < end, "not seen in time"
        page.wait_for_timeout(50)


def saved(page) -> None:
    page.wait_for_function("() => !window.studio.state.dirty && "
                           "!/unsaved/.test(document.getElementById('status').textContent)")


# ------------------------------------------------------------------ 1. a refused open


def test_a_refused_first_file_leaves_an_editor_that_takes_no_keys_and_nothing_to_save(context, server, tmp_path):
    outside = server.work.parent / "outside.cards"
    outside.write_text(MINI, encoding="utf-8")
    saves = []
    page = tab(context, server.studio_url(outside), loaded=False)
    page.on("request", lambda r: saves.append(r.url) if "/studio/api/save" in r.url else None)
    page.locator("#no-file").wait_for()
    assert "only the files and folders it was started with" in page.locator("#notices .notice.error").inner_text()
    assert "was not opened" in page.locator("#no-file").inner_text()
    assert page.locator("#file").input_value() == ""
    assert page.locator("#file option:checked").inner_text() == "(no file open)"
    for button in ("#save", "#rename", "#delete", "#new-copy", "#new-variant", "#play"):
        assert page.locator(button).is_disabled(), button
    shot(page, tmp_path, "files-refused-first")
    box = page.locator("#editor").bounding_box()
    page.mouse.click(box["x"] + 60, box["y"] + 20)  # where a person would click to type
    page.keyboard.type("hello")
    page.keyboard.press("Control+Space")
    page.keyboard.press("Control+s")
    assert text_of(page) == "" and saves == [] and outside.read_text() == MINI
    assert not page.locator(".cm-tooltip-autocomplete").count()
    page.select_option("#file", str(server.work / "mini.cards"))
    page.wait_for_function("() => window.studio.state.version")
    assert page.locator("#no-file").is_hidden() and page.locator("#save").is_enabled()
    assert page.locator("#file option", has_text="(no file open)").count() == 0
    assert not page.locator('#notices [data-id="open"]').count()  # the refusal goes with a file that opened
    type_at_end_of_line(page, 1, "")
    page.keyboard.type(" ")
    assert text_of(page) != MINI  # it takes keys again


def test_a_file_deleted_meanwhile_is_refused_and_the_open_file_stays_open_and_selected(context, server, tmp_path):
    keep = game(server, "keep.cards")
    gone = game(server, "gone.cards")
    page = tab(context, server.studio_url(keep))
    gone.unlink()
    page.select_option("#file", str(gone))
    refusal = page.locator('#notices [data-id="open"]')
    refusal.wait_for()
    assert "gone.cards: no such file" in refusal.inner_text()
    page.wait_for_function("() => !document.querySelector('#file option[value$=\"gone.cards\"]')")
    assert page.locator("#file").input_value() == str(keep)
    assert page.evaluate("() => window.studio.state.path") == str(keep) and text_of(page) == MINI
    shot(page, tmp_path, "files-refused-deleted")
    type_at_end_of_line(page, 1, "\n# still here")
    page.keyboard.press("Control+s")
    saved(page)
    assert keep.read_text().startswith(MINI.split("\n")[0] + "\nplayers 2\n# still here")
    refusal.locator("button", has_text="OK").click()
    assert not refusal.count()


# ------------------------------------------------------------------ 2. new, rename, delete


def test_new_and_new_variant_ask_for_the_name(context, server, tmp_path):
    base = game(server, "base.cards")
    page = tab(context, server.studio_url(base))
    before = sorted(p.name for p in server.work.iterdir())
    page.click("#new-variant")
    dialog, name = page.locator("#name-dialog"), page.locator("#name-input")
    dialog.wait_for()
    assert name.input_value() == "base-variant" and name.evaluate("i => i === document.activeElement")
    assert "New variant of base.cards" in dialog.inner_text()
    shot(page, tmp_path, "files-new-variant-dialog")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert sorted(p.name for p in server.work.iterdir()) == before  # Esc: nothing made
    page.click("#new-copy")
    assert name.input_value() == "base-copy"
    page.keyboard.type("mini")  # (the proposed name is selected: typing replaces it)
    page.keyboard.press("Enter")
    error = page.locator("#name-error")
    error.wait_for()
    assert "mini.cards already exists" in error.inner_text() and dialog.is_visible()
    shot(page, tmp_path, "files-new-refused")
    name.fill("my-rules")
    page.keyboard.press("Enter")
    dialog.wait_for(state="hidden")
    made = (server.work / "my-rules.cards").resolve()
    page.wait_for_function("p => window.studio.state.path === p && window.studio.state.loaded", arg=str(made))
    assert made.read_text() == MINI and page.locator("#file").input_value() == str(made)
    page.click("#new-variant")
    assert name.input_value() == "my-rules-variant"
    name.fill("my-variant.cards")
    page.keyboard.press("Enter")
    variant = (server.work / "my-variant.cards").resolve()
    page.wait_for_function("p => window.studio.state.path === p && window.studio.state.loaded", arg=str(variant))
    assert 'of "my-rules.cards"' in variant.read_text() and page.locator("#file").input_value() == str(variant)
    assert "my-variant.cards" in page.url.replace("%2F", "/")


def test_rename_and_delete_with_another_tab_on_the_file(context, server, tmp_path):
    first = game(server, "first.cards")
    variant = game(server, "first-v.cards", 'variant first_v "V" of "first.cards"\n')
    a = tab(context, server.studio_url(first))
    b = tab(context, server.studio_url(first))
    a.bring_to_front()
    a.click("#rename")
    name = a.locator("#name-input")
    assert name.input_value() == "first"
    a.keyboard.type("first-v")
    a.keyboard.press("Enter")
    a.locator("#name-error", has_text="first-v.cards already exists").wait_for()
    name.fill("second")
    a.keyboard.press("Enter")
    second = (server.work / "second.cards").resolve()
    a.wait_for_function("p => window.studio.state.path === p", arg=str(second))
    assert second.read_text() == MINI and not first.exists() and a.locator("#file").input_value() == str(second)
    moved = a.locator('#notices [data-id="moved"]')
    assert "first-v.cards" in moved.inner_text() and "no longer load" in moved.inner_text()
    assert variant.read_text() == 'variant first_v "V" of "first.cards"\n'  # told, not rewritten
    a.frame_locator("#rulebook").locator("h1", has_text="Mini").wait_for()
    shot(a, tmp_path, "files-renamed")
    told = b.locator('#notices [data-id="moved"]', has_text="renamed to second.cards in another tab")
    told.wait_for(timeout=SEEN)
    assert b.evaluate("() => window.studio.state.path") == str(second)
    assert b.locator("#file").input_value() == str(second)
    shot(b, tmp_path, "files-renamed-other-tab")
    a.click("#delete")
    dialog = a.locator("#delete-dialog")
    assert "Delete second.cards?" in dialog.inner_text()
    shot(a, tmp_path, "files-delete-dialog")
    a.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert second.exists()
    a.click("#delete")
    a.click("#delete-ok")
    a.locator("#no-file", has_text="second.cards was deleted").wait_for()
    assert not second.exists() and a.locator("#save").is_disabled() and a.locator("#file").input_value() == ""
    gone = b.locator('#notices [data-id="gone"]')
    gone.wait_for(timeout=SEEN)
    assert "second.cards was deleted" in gone.inner_text()
    shot(b, tmp_path, "files-deleted-other-tab")
    gone.locator("button", has_text="Save it again").click()
    gone.wait_for(state="detached")  # the save has answered (saved() alone: this tab was not dirty, so no wait at all)
    saved(b)
    assert second.read_text() == MINI and not gone.count()
    b.select_option("#file", label="ganjifa/ganjifa")
    b.wait_for_function("() => window.studio.state.readonly && window.studio.state.path.endsWith('ganjifa.cards')")
    assert b.locator("#rename").is_disabled() and b.locator("#delete").is_disabled()


# ------------------------------------------------------------------ 3. no 404; one size limit


def test_no_404_when_the_studio_or_the_table_loads(context, server, tmp_path):
    page = context.new_page()
    log = []
    cdp = context.new_cdp_session(page)  # the browser's own network log: a favicon fetch is not the page's
    cdp.send("Network.enable")
    cdp.on("Network.responseReceived", lambda e: log.append((e["response"]["status"], e["response"]["url"])))
    page.on("response", lambda r: log.append((r.status, r.url)))
    page.on("console", lambda m: log.append((m.type, m.text)) if m.type == "error" else None)
    page.goto(server.studio_url(server.work / "mini.cards"))
    page.wait_for_function("() => window.studio && window.studio.state.version")
    until(page, lambda: any("favicon" in str(e[-1]) for e in log))  # the browser asks for an icon after the load
    assert not [e for e in log if e[0] == "error" or (isinstance(e[0], int) and e[0] >= 400)], log
    page.goto(server.url + "/replay")  # a page of the table (its list of games is slow to make the first time)
    page.wait_for_load_state("load")
    icon = page.evaluate("async () => { const r = await fetch(document.querySelector('link[rel=icon]').href);"
                         " return [r.status, r.headers.get('content-type')]; }")
    assert icon == [200, "image/svg+xml"]
    assert page.evaluate("() => fetch('/favicon.ico').then(r => r.status)") == 200  # (for a page with no link)
    assert any("favicon" in str(url) for status, url in log if status == 200)
    assert not [e for e in log if e[0] == "error" or (isinstance(e[0], int) and e[0] >= 400)], log


def test_a_save_too_large_is_refused_with_the_limit_and_nothing_is_written(context, server, tmp_path):
    path = game(server, "large.cards")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = tab(context, server.studio_url(path))
    page.evaluate("n => navigator.clipboard.writeText('#'.repeat(n) + '\\n')", MAX_CHARS)
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.press("Control+v")  # a person pastes a million characters in
    page.wait_for_function("n => window.studio.editor.getText().length > n", arg=MAX_CHARS)
    page.locator("#marks li", has_text=f"{MAX_CHARS:,}").wait_for()  # too large to analyse: the same limit
    page.click("#save")
    refused = page.locator('#notices [data-id="conflict"]')
    refused.wait_for()
    n = len(MINI) + MAX_CHARS + 1
    assert f"large.cards is too large: {n:,} characters" in refused.inner_text()
    assert f"files of up to {MAX_CHARS:,} characters" in refused.inner_text()
    assert path.read_text() == MINI and page.evaluate("() => window.studio.state.dirty")
    shot(page, tmp_path, "files-too-large")


# ------------------------------------------------------------------ 4. a save elsewhere, seen here


def test_a_save_in_one_tab_shows_in_the_other_with_the_changed_lines(context, server, tmp_path):
    path = game(server, "shared.cards")
    a = tab(context, server.studio_url(path))
    b = tab(context, server.studio_url(path))
    a.bring_to_front()
    type_at_end_of_line(a, 0, "")
    a.keyboard.press("ArrowLeft")
    a.keyboard.type(" two")
    a.keyboard.press("Control+s")
    saved(a)
    notice = b.locator('#notices [data-id="changed"]')
    notice.wait_for(timeout=SEEN)
    assert "shared.cards was changed on disk" in notice.inner_text()
    assert notice.locator(".diff .del").inner_text().strip() == '- game mini "Mini"'
    assert notice.locator(".diff .add").inner_text().strip() == '+ game mini "Mini two"'
    shot(b, tmp_path, "files-changed-elsewhere")
    notice.locator("button", has_text="Reload").click()
    b.wait_for_function("() => window.studio.editor.getText().startsWith('game mini \"Mini two\"')")
    assert not notice.count() and not b.evaluate("() => window.studio.state.dirty")
    # an edit in b, unsaved; a saves again: b keeps its own, and its save then goes through
    type_at_end_of_line(b, 1, "\n# b's line")
    type_at_end_of_line(a, 1, "\n# a's line")
    a.keyboard.press("Control+s")
    saved(a)
    notice.wait_for(timeout=SEEN)
    assert "Reload loses your unsaved changes" in notice.inner_text()
    assert notice.locator(".diff .add", has_text="# a's line").count() == 1
    assert notice.locator(".diff .del", has_text="# b's line").count() == 1
    notice.locator("button", has_text="Keep mine").click()
    assert not notice.count()
    b.keyboard.press("Control+s")
    saved(b)
    assert "# b's line" in path.read_text() and "# a's line" not in path.read_text()
    assert not b.locator('#notices [data-id="conflict"]').count()


def test_a_refused_save_shows_what_changed_on_disk(context, server, tmp_path):
    path = game(server, "conflict.cards")
    page = tab(context, server.studio_url(path))
    path.write_text(MINI.replace("players 2", "players 2\n# written by another program"), encoding="utf-8")
    type_at_end_of_line(page, 0, "\n# mine")
    page.keyboard.press("Control+s")
    banner = page.locator('#notices [data-id="conflict"]')
    banner.wait_for()
    assert "changed on disk since you opened it" in banner.inner_text()
    assert banner.locator(".diff .add").inner_text().strip() == "+ # written by another program"
    assert banner.locator(".diff .del").inner_text().strip() == "- # mine"
    assert not page.locator('#notices [data-id="changed"]').count()  # the banner says it once
    shot(page, tmp_path, "files-conflict")
    banner.locator("button", has_text="Overwrite").click()
    saved(page)
    assert "# mine" in path.read_text() and "another program" not in path.read_text()
