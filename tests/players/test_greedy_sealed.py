"""The greedy player at a sealed choice (`choose secretly by each`): its move is judged with the
others' choices made (at random, in its sample), so what the move does counts. Before, the
look-ahead stopped with every choice still sealed, every move looked the same, and a new user's
Poker Squares saw greedy place its cards as a random player did with two players or more."""

from __future__ import annotations

import pytest

from interpreter import loads_ruleset
from interpreter.engine import apply, legal_moves, outcome
from interpreter.engines import new_game as new_game_on
from interpreter.native import find_compiler
from interpreter.players.bots import make_bot

# each round, every player secretly keeps one of two numbers; the higher kept is worth more
SEALED = """game sealed "Sealed"
players 2..3
deck d:
    suits A
    ranks 1..3
zone stock shared hidden
var points(p: player): int = 0
winner most points
phase play "Play":
    for each round in 1..4:
        rule pick "Pick":
            choose secretly by each p in players:
                action keep n in [1, 5] "Keep this many points.":
                    set points(p) = points(p) + n
"""


@pytest.mark.parametrize("engine", ["python", "native"])
def test_greedy_keeps_the_better_move_at_a_sealed_choice(engine):
    if engine == "native" and find_compiler() is None:
        pytest.skip("no C compiler")
    rs = loads_ruleset(SEALED, "sealed.cards")
    for players in (2, 3):
        s = new_game_on(rs, players, seed=1, engine=engine)
        bots = [make_bot("greedy", seed=q) for q in range(players)]
        while not s.finished:
            me = legal_moves(s)[0].player
            apply(s, bots[me].choose(s))
        assert outcome(s).scores == tuple([20] * players), outcome(s)
