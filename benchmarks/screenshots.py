"""The README's picture of the browser table: starts `cardrules serve` (a subprocess on a free
port, tables in a temporary folder, bots pausing 0.05 s), opens a table through the form with
seat 1 a person and bots in the other seats, plays some moves by clicking (a highlighted card
of the hand, or a move's button), and takes a screenshot of seat 1's page when it is seat 1's
turn again. Needs Playwright and Debian's Chromium (`apt-get install chromium`).

    python benchmarks/screenshots.py [--ruleset KEY] [--players N] [--bot NAME] [--moves K]
                                     [--seed S] [--size 1400x900] [--full-page] [--out PATH]

The defaults write docs/table.png: Ganjifa, 3 players, two greedy bots, 12 moves, 1400x900.
Other games and sizes are for looking at the table's layout (`--out` elsewhere).
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

READY = """prev => {
  const live = document.getElementById('live');
  if (!live) return false;
  if (document.getElementById('outcome') || live.querySelector('.message.bad')) return true;
  return Number(live.dataset.version) > prev && !live.classList.contains('busy')
         && live.querySelector('.turn.mine') !== null;
}"""


def serve(data: Path) -> tuple[subprocess.Popen, str]:
    out = open(data / "serve.out", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data", str(data),
                             "--bot-pause", "0.05"], cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL, text=True)
    end = time.monotonic() + 60
    while True:
        out.seek(0)
        m = re.search(r"http://[\w.]+:(\d+)/", out.read())
        if m:
            return proc, f"http://127.0.0.1:{m.group(1)}"
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit("the server did not start")
        time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="ganjifa/ganjifa", help="a bundled game's key (default ganjifa/ganjifa)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bot", default="greedy", help="the bots in seats 2 and up (default greedy)")
    ap.add_argument("--moves", type=int, default=12, help="moves seat 1 makes before the picture (default 12)")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--size", default="1400x900", help="the window, WIDTHxHEIGHT (default 1400x900)")
    ap.add_argument("--full-page", action="store_true", help="the whole page, not only the window")
    ap.add_argument("--out", default=str(ROOT / "docs" / "table.png"))
    a = ap.parse_args()
    width, height = (int(x) for x in a.size.lower().split("x"))
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("error: Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardrules-shots-") as tmp:
        proc, url = serve(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.set_default_timeout(30_000)
                page.goto(f"{url}/new?ruleset={a.ruleset}")
                if page.locator("select#players").count():  # (a game for one number of players has none)
                    page.select_option("#players", str(a.players))
                page.fill("#seed", str(a.seed))
                page.select_option("#seat1", "person")
                for i in range(2, a.players + 1):
                    page.select_option(f"#seat{i}", a.bot)
                page.click("form.new button[type=submit]")
                page.click("ol.links a.button:has-text('open as P1')")
                page.wait_for_url(re.compile(r"/seat/1\?token="))
                rng = random.Random(a.seed)
                prev, made = -1, 0
                while True:
                    page.wait_for_function(READY, arg=prev)
                    if made >= a.moves or page.locator("#outcome").count():
                        break
                    prev = int(page.locator("#live").get_attribute("data-version"))
                    cards = page.locator("#live .hand .slot.playable")
                    buttons = page.locator("#live .moves button[data-move]")
                    k = rng.randrange(cards.count() + buttons.count())
                    if k < cards.count():
                        cards.nth(k).click(position={"x": 8, "y": 30})
                        if page.locator("#chooser.open button").count():
                            page.locator("#chooser.open button").first.click()
                    else:
                        buttons.nth(k - cards.count()).click()
                    made += 1
                page.mouse.move(width - 5, 5)  # no card raised by the pointer
                page.wait_for_timeout(400)  # the rulebook scrolls to the rule being played
                page.screenshot(path=str(out), full_page=a.full_page)
                browser.close()
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"{out} ({a.ruleset}, {a.players} players, after {made} moves of P1)")


if __name__ == "__main__":
    main()
