"""A definition that takes a place (`define worth(z: zone) = sum c in z: ...`) is asked afresh as
the cards in that place change. The Python engine once judged such a definition by its cards'
faces alone and kept its first answer for good, keyed by the place's number: a new user's 6 nimmt!
scored every player 0 on the Python engine (the native engine scored them right), and the stale
answer even carried over from one game to the next."""

from __future__ import annotations

import pytest

from interpreter import loads_ruleset
from interpreter.engine import apply, legal_moves, new_game, scores
from interpreter.engines import new_game as new_game_on
from interpreter.native import find_compiler

TEXT = """game piles "Piles"
players 2
deck d:
    suits S
    ranks 1..6
zone stock shared hidden
zone pile per player hidden
define worth(z: zone) = sum c in z: c.order + 1
define held(z: zone, cs: cards) = count(those c in z where c in cs)
define score(p: player) = worth(pile(p)) * 10 + held(pile(p), stock)
winner most score
phase play "Play":
    rule look "Look" when worth(pile(seat(1))) == 0 and held(pile(seat(2)), stock) == 0:
        pass
    rule take "Take":
        for each player p:
            move top(stock) to pile(p)
            move top(stock) to pile(p)
"""


def _scores(engine, seed):
    rs = loads_ruleset(TEXT, "piles.cards")
    s = new_game(rs, 2, seed=seed) if engine == "python" else new_game_on(rs, 2, seed=seed, engine="native")
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    return s, list(scores(s))


def test_a_definition_of_a_place_reads_what_lies_there_now():
    for seed in range(4):  # (and not the first game's answer in the later games)
        s, got = _scores("python", seed)
        want = [10 * sum(s.program.card_order[c] + 1 for c in s.zones[z]) for z in _piles(s)]
        assert got == want and got[0] > 0


def _piles(s):
    return [i for i, name in enumerate(s.zone_names) if name.startswith("pile")]


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
def test_both_engines_agree():
    for seed in range(4):
        assert _scores("python", seed)[1] == _scores("native", seed)[1]
