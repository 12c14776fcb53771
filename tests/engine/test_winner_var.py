"""`winner most VAR` / `winner fewest VAR` with a per-player whole-number variable, without a
definition that only repeats it: the same winners on both engines, the rulebook in the
variable's own words, and a variable of another kind a located error."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, outcome
from interpreter.errors import RulesetError
from interpreter.native.engine import new_native_game

RACE = """game race "Race"
players 2..3

deck d:
    suits Red
    ranks 1..6

zone stock shared hidden "stock"

var turn: player = seat(1)
var points(p: player): int = 0
    text "how many steps the player has taken"

winner most points

phase play "Play":
    repeat:
        choose by turn:
            action step n in 1..3 "Take so many steps.":
                set points(turn) = points(turn) + n
        if points(turn) >= 5:
            end game
        set turn = next(turn)
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=RACE):
    return written(tmp_path, "race.cards", text)


@pytest.mark.parametrize("make", ENGINES)
@pytest.mark.parametrize("rule,winners", [("most", (0,)), ("fewest", (2,))])
def test_the_variable_decides_the_winner_on_both_engines(tmp_path, make, rule, winners):
    s = make(load(tmp_path, RACE.replace("winner most points", f"winner {rule} points")), 3)
    for n in (3, 2, 1, 3):  # P1 3, P2 2, P3 1, then P1 reaches 6
        apply(s, next(m for m in legal_moves(s) if str(m) == f"step {n}"))
    assert s.finished and outcome(s).winners == winners


def test_the_rulebook_reads_the_variables_own_words(tmp_path):
    from interpreter.render import render_markdown
    book = render_markdown(load(tmp_path))
    assert "The player(s) with the most *points* win; tied players share the win." in book
    assert "A player's *points* is how many steps the player has taken." in book


@pytest.mark.parametrize("line,message", [
    ("winner most turn", "the winner rule names the variable 'turn', which must hold a number for each player"),
    ("winner most steps", "the winner rule names 'steps', which is neither a definition nor a variable"),
])
def test_another_name_is_a_located_error(tmp_path, line, message):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, RACE.replace("winner most points", line))
    assert message in str(e.value) and (e.value.line, e.value.column) == (14, 1), str(e.value)
