"""A deal from a pack that runs out is no error: the players dealt to after that get fewer cards
(the reference says so; a new user's Mau-Mau for five with seven cards each met it), on both
engines alike."""

from __future__ import annotations

import pytest

from interpreter import loads_ruleset
from interpreter.engine import cards_in
from interpreter.engines import new_game
from interpreter.native import find_compiler

SHORT = """game short "Short"
players 2
deck d:
    suits A, B
    ranks 1..3
zone stock shared hidden
zone hand per player owner
define score(p: player) = count(hand(p))
winner most score
phase deal "Deal":
    rule deal "Deal":
        deal 4 from stock to each hand
    rule look "Look":
        choose by seat(1):
            action done:
                pass
"""


@pytest.mark.parametrize("engine", ["python", "native"])
def test_six_cards_dealt_four_each_give_four_and_two(engine):
    if engine == "native" and find_compiler() is None:
        pytest.skip("no C compiler")
    s = new_game(loads_ruleset(SHORT, "short.cards"), 2, seed=0, engine=engine)
    if s.native is not None:
        s.native.sync()
    assert (len(cards_in(s, "hand", 0)), len(cards_in(s, "hand", 1)), len(cards_in(s, "stock"))) == (4, 2, 0)
