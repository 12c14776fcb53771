"""Kuhn poker (rulesets/classic/kuhn-poker.cards) against OpenSpiel's `kuhn_poker` with its
default parameters (2 players).

First one small game per rule (the ante, and each of the five ways the betting can go); then
OpenSpiel's own random games replayed move by move in our ruleset: the same legal moves at every
decision and the same returns at the end.

Cards: OpenSpiel's cards 0, 1, 2 are our Jack, Queen and King (of Spades, the pack's one suit).
OpenSpiel has two actions, Pass (0) and Bet (1); ours name them by their meaning: Pass is `check`
or `fold`, Bet is `bet` or `call`. Games are set up with `engine.position` from the deal, with
the pack in a known order (`shuffle=False`): the top card goes to P1, the next to P2."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from poker import chips, dealt_face_down, moves_of, play, random_openspiel_game, replayed
from interpreter.engine import cards_in, fired_counts, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "kuhn-poker.cards"
CARDS = ["Jack-Spades", "Queen-Spades", "King-Spades"]
PASS, BET = 0, 1
MEANING = {"check": PASS, "fold": PASS, "bet": BET, "call": BET}


rules = loader(RULESET)


def deal(first: int, second: int):
    """A game after the ante and the deal: P1 holds OpenSpiel's card `first`, P2 `second`."""
    third = ({0, 1, 2} - {first, second}).pop()
    stock = [CARDS[third], CARDS[second], CARDS[first]]  # bottom first: P1 takes the top card
    return position(rules(), 2, "deal", zones={"stock": stock}, shuffle=False)


# ================================================================== the ante and the deal

@pytest.mark.parametrize("seed", range(4))
def test_the_ante_and_the_deal(seed):
    s = new_game(rules(), 2, seed=seed)
    assert chips(s) == (-1, -1) and public_vars(s)["pot"] == 2  # each antes one chip
    hands = dealt_face_down(s, each=1, stock=1)  # each sees their own card and not the other's nor the third
    assert set(hands[0] + hands[1] + cards_in(s, "stock")) == set(CARDS)
    assert moves_of(s) == {"check": 0, "bet": 0}  # P1 speaks first: Pass or Bet


def test_every_deal_comes_up():
    deals = set()
    for seed in range(60):
        s = new_game(rules(), 2, seed=seed)
        deals.add((cards_in(s, "hand", 0)[0], cards_in(s, "hand", 1)[0]))
    assert len(deals) == 6


# ================================================================== the betting

def test_check_check_goes_to_the_showdown_for_the_antes():
    s = deal(0, 2)
    play(s, "check")
    assert moves_of(s) == {"check": 1, "bet": 1}
    play(s, "check")
    assert s.finished and fired_counts(s)["showdown"] == 1
    assert chips(s) == (-1, 1) and outcome(s).winners == (1,)
    assert observe(s, 0)["zones"]["hand"]["P2"]["known"] == ["King-Spades"]  # the cards are shown


def test_bet_fold_the_bettor_takes_the_pot_unseen():
    s = deal(0, 2)  # P1 bluffs with the Jack
    play(s, "bet")
    assert moves_of(s) == {"fold": 1, "call": 1} and public_vars(s)["pot"] == 3
    play(s, "fold")
    assert s.finished and fired_counts(s)["answer"] == 1 and fired_counts(s)["showdown"] == 0
    assert chips(s) == (1, -1) and outcome(s).winners == (0,)
    assert observe(s, 1)["zones"]["hand"]["P1"]["known"] == []  # a folded-to hand is not shown


def test_bet_call_goes_to_the_showdown_for_two_chips():
    s = deal(1, 0)
    play(s, "bet", "call")
    assert s.finished and fired_counts(s)["showdown"] == 1
    assert chips(s) == (2, -2) and outcome(s).winners == (0,)


def test_check_bet_fold():
    s = deal(2, 1)
    play(s, "check", "bet")
    assert moves_of(s) == {"fold": 0, "call": 0}  # P1 answers the bet
    play(s, "fold")
    assert s.finished and fired_counts(s)["showdown"] == 0
    assert chips(s) == (-1, 1) and outcome(s).winners == (1,)  # even though P1 held the King


def test_check_bet_call():
    s = deal(2, 1)
    play(s, "check", "bet", "call")
    assert s.finished and fired_counts(s)["showdown"] == 1 and len(s.history) == 3
    assert chips(s) == (2, -2) and outcome(s).winners == (0,)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker")
    assert game.get_parameters() == {"players": 2}
    return game


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    sequences, deals = set(), set()
    for _ in range(600):
        theirs, cards, decisions = random_openspiel_game(game, rng)
        s = replayed(deal(*cards), MEANING, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        # what each player knows at the end, as OpenSpiel's information state: their own card
        # and the betting ("0pb")
        history = "".join("pb"[a] for _, _, a in decisions)
        for p in (0, 1):
            assert theirs.information_state_string(p) == f"{cards[p]}{history}"
            assert observe(s, p)["zones"]["hand"][f"P{p + 1}"] == {"cards": [CARDS[cards[p]]]}
        sequences.add(history)
        deals.add(tuple(cards))
    assert sequences == {"pp", "pbp", "pbb", "bp", "bb"}
    assert len(deals) == 6


def test_every_deal_and_every_betting_sequence_pays_what_openspiel_pays():
    game = _pyspiel_game()
    for first in range(3):
        for second in {0, 1, 2} - {first}:
            for actions in ([PASS, PASS], [PASS, BET, PASS], [PASS, BET, BET], [BET, PASS], [BET, BET]):
                theirs = game.new_initial_state()
                theirs.apply_action(first)
                theirs.apply_action(second)
                s = deal(first, second)
                for a in actions:
                    play(s, next(m for m in moves_of(s) if MEANING[m] == a))
                    theirs.apply_action(a)
                assert s.finished and theirs.is_terminal()
                assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
