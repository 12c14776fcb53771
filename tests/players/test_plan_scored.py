"""The planning player in a game for one whose every end is worth its score (it names no winner
outright) and whose cards come to light one at a time: in sampled worlds, a line is worth the
score it reaches, not only whether it wins (every end 'wins' there). Before, no world's line
counted, the plain plan stopped at the next card and judged every placement alike, and a new
user's Poker Squares saw plan fill the grid in order, below a random player's score."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.native import find_compiler

ROOT = Path(__file__).resolve().parents[2]
ROWS = Path(__file__).with_name("two-rows.cards")


def mean_score(bot: str, engine: str) -> tuple[float, str]:
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(ROWS), "-k", "12", "--workers", "1", "--bot",
                        bot, "--engine", engine, "--json"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["mean_score"]["P1"], r.stdout


def test_plan_places_each_card_by_what_the_worlds_score():
    plan, _ = mean_score("plan", "python")
    rand, _ = mean_score("random", "python")
    assert plan >= 18 and rand <= 5, (plan, rand)  # (every row of one suit: 20)


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
def test_the_same_moves_on_both_engines():
    assert mean_score("plan", "python")[1] == mean_score("plan", "native")[1]
