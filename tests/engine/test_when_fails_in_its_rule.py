"""A rule's `when` that fails is a failure in that rule (Egyptian Ratscrew, written by a new user:
`play` said the game broke "in rule 'play' (Play)", the phase, where the test of rule `empty`
met none), the same on both engines."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interpreter.commands.cli import app
from interpreter.native import find_compiler

GAME = """game w "W"
players 2
deck d:
    suits Red
    ranks 1..4
zone stock shared hidden
zone hand per player owner
var who: player
define score(p: player) = 0
winner most score
phase play "Play":
    rule deal "Deal":
        deal 2 from stock to each hand
    rule pick "Pick":
        choose by seat(1):
            action go "Go.":
                set who = none
    rule empty "Empty hands" when count(hand(who)) == 0:
        end game
"""


@pytest.mark.parametrize("engine", ["python"] + (["native"] if find_compiler() else []))
def test_the_error_names_the_rule_whose_when_failed(tmp_path, engine):
    path = tmp_path / "w.cards"
    path.write_text(GAME, encoding="utf-8")
    r = CliRunner().invoke(app, ["play", str(path), "-k", "1", "--engine", engine])
    assert r.exit_code == 1
    assert "error: the game with seed 0 broke after move 1 (P1: go) in rule 'empty' (Empty hands)" in r.output, r.output
    assert "w.cards:18:5: error: while playing, this statement met a card or player that is none here" in r.output
