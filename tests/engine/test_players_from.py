"""players_from(P): every player in turn order beginning with P, on both engines; `choose by any q
in players_from(attacker)` asks the attacker first (a new user's Durak could only ask seat 1
first, `choose by any q in players`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset, loads_ruleset
from interpreter.engine import apply, legal_moves
from interpreter.engines import new_game
from interpreter.native import find_compiler
from interpreter.render import render_markdown

RACE = Path(__file__).with_name("race-from.cards")


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_race_asks_the_attacker_first_then_the_others_in_turn(engine):
    if engine == "native" and find_compiler() is None:
        pytest.skip("no C compiler")
    text = RACE.read_text(encoding="utf-8")
    for seat, order in (("seat(2)", [1, 2, 0]), ("seat(3)", [2, 0, 1]), ("seat(1)", [0, 1, 2])):
        rs = loads_ruleset(text.replace("var attacker: player = seat(2)", f"var attacker: player = {seat}"), "r.cards")
        s = new_game(rs, 3, seed=1, engine=engine)
        assert list(dict.fromkeys(m.player for m in legal_moves(s))) == order, seat
        apply(s, next(m for m in legal_moves(s) if m.player == order[1] and m.action == "throw"))
        assert list(dict.fromkeys(m.player for m in legal_moves(s))) == order  # (the race goes on, in that order)


def test_the_rulebook_says_from_whom():
    assert "every player in turn order from the attacker" in render_markdown(load_ruleset(RACE))
