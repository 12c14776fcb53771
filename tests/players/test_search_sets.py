"""The search player's ties between moves the advice values alike, where a move is a set of cards:
a set of one card is that card, lowest first, on both engines (runtime/unit/search.c's sr_first,
ties.py). A new user's Tien Len saw `put 3-Spades 3-Hearts` in C and `put 3-Hearts` in Python: C
read a set's mask as a card."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves
from interpreter.engines import new_game
from interpreter.native import find_compiler
from interpreter.players.bots import make_bot

GAME = Path(__file__).with_name("set-shedding.cards")


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
@pytest.mark.parametrize("bot", ["ismcts:5", "moismcts:5"])
def test_the_search_plays_sets_of_cards_alike_on_both_engines(bot):
    rs = load_ruleset(GAME)
    for seed in (0, 1, 6, 12):
        games = []
        for engine in ("python", "native"):
            s = new_game(rs, 2, seed=seed, engine=engine)
            bots = [make_bot(bot, seed=seed * 10 + q) for q in range(2)]
            while not s.finished:
                apply(s, bots[legal_moves(s)[0].player].choose(s))
            games.append([str(m) for m in s.history])
        assert games[0] == games[1], seed
