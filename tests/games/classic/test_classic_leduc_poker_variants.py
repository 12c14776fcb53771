"""Leduc poker with big bets (rulesets/classic/leduc-poker-big-bets.cards): the base game with
bets and raises of four chips in the first round and eight in the second; the ante, the cap of
two bets and raises a round, folding and the showdown are the base game's."""

from __future__ import annotations

from pathlib import Path

from bundled_games import loader

from poker import chips, play
from interpreter.engine import cards_in, legal_moves, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "leduc-poker-big-bets.cards"


rules = loader(RULESET)


def deal(first: str, second: str, public: str | None = None):
    stock = ([public] if public else []) + [second, first]  # bottom first: P1 takes the top card
    return position(rules(), 2, "deal", zones={"stock": stock}, shuffle=False)


def test_a_bet_in_the_first_round_is_four_chips_and_a_raise_four_more():
    s = deal("Jack-Hearts", "Queen-Hearts")
    assert chips(s) == (-1, -1)  # the ante is the base game's
    play(s, "bet")
    assert chips(s) == (-5, -1) and public_vars(s)["pot"] == 6
    play(s, "raise")
    assert chips(s) == (-5, -9) and {str(m) for m in legal_moves(s)} == {"fold", "call"}
    play(s, "call")
    assert chips(s) == (-9, -9) and len(cards_in(s, "board")) == 1


def test_bets_in_the_second_round_are_eight_chips_and_the_biggest_pot():
    s = deal("Jack-Hearts", "Queen-Hearts", "King-Spades")
    play(s, "check", "check", "bet")
    assert chips(s) == (-9, -1)
    s = deal("Queen-Hearts", "King-Hearts", "Queen-Spades")
    play(s, "bet", "raise", "call", "bet", "raise", "call")
    assert s.finished and chips(s) == (25, -25) and outcome(s).winners == (0,)  # 1 + 4 + 4 + 8 + 8 each


def test_folding_still_costs_only_what_was_put_in():
    s = deal("King-Hearts", "Jack-Hearts")
    play(s, "bet", "fold")
    assert s.finished and chips(s) == (1, -1)
