"""A set of cards as one move from a deck of more than 63 cards (Bezique, written by a new user):
the native engine cannot hold the set as a mask; `play --engine native` named no action and no
line, and `fuzz` under auto said "engine: native" and played in Python unsaid."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interpreter.commands.cli import app
from interpreter.native import find_compiler

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

BIG = """game big "Big"
players 2
deck d:
    suits Red, Blue
    ranks 1..32
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
define left(p: player) = count(hand(p))
winner fewest left
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    while count(hand(turn)) > 0:
        rule shed "Shed":
            choose by turn:
                action shed S subset of hand(turn) where count(S) <= 2:
                    move S to pile
            set turn = next(turn)
"""


def test_native_names_the_action_and_auto_says_it_plays_in_python(tmp_path):
    path = tmp_path / "big.cards"
    path.write_text(BIG, encoding="utf-8")
    r = CliRunner().invoke(app, ["play", str(path), "-k", "2", "--engine", "native"])
    assert r.exit_code == 2, r.output
    assert ("the native engine cannot play action 'shed' (big.cards:19): a set of cards chosen from a deck of more "
            "than 63 cards (the Python engine can: --engine python)") in r.output
    r = CliRunner().invoke(app, ["fuzz", str(path), "-k", "2", "--workers", "1", "--out", str(tmp_path / "f")])
    assert "fuzz big.cards: engine: python (no native engine: the native engine cannot play action 'shed'" \
        in r.output, r.output
    r = CliRunner().invoke(app, ["play", str(path), "-k", "2"])
    assert r.exit_code == 0 and "engine: python (no native engine: the native engine cannot play action 'shed'" \
        in r.output, r.output
