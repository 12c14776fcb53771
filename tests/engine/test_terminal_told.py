"""The person at the terminal is told at once what a move told their seat (`tell`). A new user's
Love Letter: the Priest's look at another hand was shown only as '(told: card 1 a Prince)' beside
that hand at the person's next decision, so it was lost whenever the card moved first (its holder
knocked out, the card discarded face down)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GAME = """game peek "Peek"
players 2
deck d:
    suits S
    ranks 1..6
zone stock shared hidden
zone hand per player owner
zone gone shared hidden
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 1 from stock to each hand
    rule look "Look":
        choose by seat(1):
            action peek "Look at the other hand, which is then put away unseen.":
                tell rank of hand(seat(2)) to seat(1)
                move top(hand(seat(2))) to gone
    rule done "Done":
        declare winner seat(1)
        end game
"""


def test_what_a_move_tells_the_person_is_said_at_once(tmp_path):
    path = tmp_path / "peek.cards"
    path.write_text(GAME, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "interpreter", "play", str(path), "--human", "1", "--seed", "2",
                          "--engine", "python"], input="1\n", capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    told = [x for x in run.stdout.splitlines() if x.startswith("you are told: ")]
    assert len(told) == 1 and told[0].startswith("you are told: a card in gone is a "), run.stdout
    assert told[0].removeprefix("you are told: a card in gone is a ") in {"1", "2", "3", "4", "5", "6"}
