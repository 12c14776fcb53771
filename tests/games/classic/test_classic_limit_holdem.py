"""Heads-up limit Texas Hold'em (rulesets/classic/limit-holdem.cards) against OpenSpiel's
`universal_poker` with the game string OpenSpiel gives for limit hold'em (HulhGameString in
open_spiel/canonical_game_strings.cc; the default betting abstraction, fcpa, which for a limit
game offers Fold, Call and Bet).

First one small game per rule (the blinds and the deal, the first round and its cap of three
raises, the flop, the turn and the river and their bigger bets, folding, the showdown); then the
ranking of hands, one showdown per kind of hand and per tie-break, each checked against
OpenSpiel too; then OpenSpiel's own random games replayed move by move in our ruleset (the same
legal moves at every decision, the same returns at the end), and games where both players only
check and call, to compare many showdowns.

Cards: OpenSpiel's card c is rank c // 4 (2 up to Ace) of suit c % 4 (clubs, diamonds, hearts,
spades). OpenSpiel deals chance cards in this order: P1's two, P2's two, the flop's three, the
turn, the river; the pack is set up with them on top in that order (`shuffle=False`). OpenSpiel's
moves are Fold (0), Call (1) and Bet (2); ours name them by their meaning: Call is `check` or
`call`, Bet is `bet` or `raise`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from holdem import card, dealt, index, short
from poker import (chips, dealt_face_down, moves_of, play, pot, random_openspiel_game, replayed,
                   same_statistics_as_openspiels)
from interpreter.engine import cards_in, fired_counts, new_game, observe, outcome

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "limit-holdem.cards"
GAME_STRING = ("universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,firstPlayer=2 1 1 1,"
               "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,raiseSize=10 10 20 20,"
               "maxRaises=3 4 4 4)")
FOLD, CALL, BET = 0, 1, 2
MEANING = {"fold": FOLD, "check": CALL, "call": CALL, "bet": BET, "raise": BET}
rules = loader(RULESET)


def deal(*cards: str):
    return dealt(rules(), *cards)


HANDS = short("2c 7d  3h 8s  Kc Kd 4h 9s Js")  # P1 2c 7d, P2 3h 8s; a board with no help


# ================================================================== the blinds and the deal

@pytest.mark.parametrize("seed", range(3))
def test_the_blinds_and_the_deal(seed):
    s = new_game(rules(), 2, seed=seed)
    assert chips(s) == (-10, -5) and pot(s) == 15
    dealt_face_down(s, each=2, stock=48)
    assert cards_in(s, "board") == []
    assert moves_of(s) == {"fold": 1, "call": 1, "raise": 1}  # the small blind speaks first


def test_the_first_player_gets_the_first_two_cards():
    s = deal(*HANDS)
    assert sorted(cards_in(s, "hand", 0)) == sorted(HANDS[:2])
    assert sorted(cards_in(s, "hand", 1)) == sorted(HANDS[2:4])


# ================================================================== before the flop

def test_the_small_blind_completes_and_the_big_blind_may_check_or_raise():
    s = deal(*HANDS)
    play(s, "call")
    assert chips(s) == (-10, -10) and pot(s) == 20
    assert moves_of(s) == {"check": 0, "raise": 0}  # no folding with nothing to match
    play(s, "check")
    assert sorted(cards_in(s, "board")) == sorted(HANDS[4:7]) and fired_counts(s)["flop"] == 1
    assert moves_of(s) == {"check": 0, "bet": 0}  # the big blind speaks first after the flop


def test_three_raises_before_the_flop():
    s = deal(*HANDS)
    play(s, "raise")
    assert chips(s) == (-10, -20) and moves_of(s) == {"fold": 0, "call": 0, "raise": 0}
    play(s, "raise", "raise")
    assert chips(s) == (-30, -40) and moves_of(s) == {"fold": 0, "call": 0}
    play(s, "call")
    assert chips(s) == (-40, -40) and len(cards_in(s, "board")) == 3


def test_a_call_of_a_raise_ends_the_round():
    s = deal(*HANDS)
    play(s, "call", "raise")
    assert moves_of(s) == {"fold": 1, "call": 1, "raise": 1}
    play(s, "call")
    assert chips(s) == (-20, -20) and len(cards_in(s, "board")) == 3


def test_the_small_blind_folds():
    s = deal(*HANDS)
    play(s, "fold")
    assert s.finished and chips(s) == (5, -5) and outcome(s).winners == (0,)
    assert cards_in(s, "board") == [] and fired_counts(s)["showdown"] == 0


# ================================================================== the flop, the turn and the river

def test_bets_on_the_flop_are_ten_and_four_are_allowed():
    s = deal(*HANDS)
    play(s, "call", "check", "bet")
    assert chips(s) == (-20, -10) and moves_of(s) == {"fold": 1, "call": 1, "raise": 1}
    play(s, "raise", "raise", "raise")
    assert chips(s) == (-40, -50) and moves_of(s) == {"fold": 0, "call": 0}
    play(s, "call")
    assert chips(s) == (-50, -50) and len(cards_in(s, "board")) == 4


def test_check_then_bet_on_the_flop():
    s = deal(*HANDS)
    play(s, "call", "check", "check")
    assert moves_of(s) == {"check": 1, "bet": 1}
    play(s, "bet")
    assert moves_of(s) == {"fold": 0, "call": 0, "raise": 0}
    play(s, "fold")
    assert s.finished and chips(s) == (-10, 10)


def test_the_turn_and_the_river_are_one_card_each_and_bets_are_twenty():
    s = deal(*HANDS)
    play(s, "call", "check", "check", "check")
    assert sorted(cards_in(s, "board")) == sorted(HANDS[4:8])
    play(s, "bet")
    assert chips(s) == (-30, -10)
    play(s, "call")
    assert sorted(cards_in(s, "board")) == sorted(HANDS[4:9]) and fired_counts(s)["turn_card"] == 2
    assert observe(s, 1)["zones"]["board"]["cards"] == cards_in(s, "board")
    play(s, "check", "bet", "raise", "fold")
    assert s.finished and chips(s) == (50, -50)  # P2 folds: P1 wins what P2 paid in


def test_the_biggest_pot():
    s = deal(*short("As Ah  2c 7d  Ac Kd 4h 9s Js"))
    play(s, "raise", "raise", "raise", "call")  # 40 each
    for _ in range(3):
        play(s, "bet", "raise", "raise", "raise", "call")
    assert s.finished and chips(s) == (240, -240)  # 40 + 40 + 80 + 80 each


# ================================================================== the showdown and the ranking of hands

def _openspiel_calldown(cards: list[str]) -> tuple[float, float]:
    """OpenSpiel's returns when both players check and call to a showdown with these cards."""
    pyspiel = pytest.importorskip("pyspiel")
    s = pyspiel.load_game(GAME_STRING).new_initial_state()
    for c in cards:
        s.apply_action(index(c))
        while not s.is_terminal() and not s.is_chance_node():
            s.apply_action(CALL)
    assert s.is_terminal()
    return tuple(s.returns())


# (P1's cards, P2's cards, the board, who wins: 1, 2 or 0 for a split)
SHOWDOWNS = {
    "high card, then kickers": ("Ah 9c", "Ad 8c", "Kh 7s 5d 3c 2h", 1),
    "a sixth card does not count": ("Ah 3c", "Ad 2c", "Kh Qs 9d 7c 5h", 0),
    "pair beats high card": ("2h 2c", "Ah Kc", "Qh 9s 7d 5c 3h", 1),
    "higher pair": ("3h 3c", "2h 2c", "Ah Ks 9d 7c 5h", 1),
    "pair, then kickers": ("Qh 9c", "Qd 8c", "Qs Ks 6d 4c 2h", 1),
    "two pairs beat one": ("9h 5c", "Ah Ac", "9s 5s Kd 7c 2h", 1),
    "two pairs: the higher pair first": ("Kh 2c", "Qh Jc", "Ks Qs Jd 2s 4h", 1),
    "two pairs: the kicker": ("Ah 3c", "Kh 3d", "Qs Qd 7d 7s 2h", 1),
    "three pairs: the third pair is only a kicker": ("4h 4c", "Ah 2c", "Ks Kd Qd Qs 3h", 2),
    "three of a kind beats two pairs": ("4h 4c", "Ah Kc", "4s As Kd 9c 2h", 1),
    "three of a kind, then kickers": ("Qh Jc", "Qd Tc", "Qs Qc 9d 5s 2h", 1),
    "straight beats three of a kind": ("6h 7c", "Kh Kc", "8s 9d Ts Kd 2h", 1),
    "the wheel: Ace low": ("Ah 2c", "Kh Kc", "3s 4d 5s Kd Jh", 1),
    "the wheel is the lowest straight": ("Ah 2c", "6h 2d", "3s 4d 5s Kd Jh", 2),
    "higher straight": ("Th 9c", "6h 2c", "8s 7d 6s Kd 2h", 1),
    "no straight round the corner": ("Kh Qc", "2h 2c", "Ad 2s 3s 9d 8h", 2),
    "flush beats straight": ("2h 9h", "Th Jc", "Qh 8h 7s 6h 5d", 1),
    "flush: the highest cards of the suit": ("Ah 2h", "Kh Qh", "Jh 9h 7h 3c 2d", 1),
    "flush: six of the suit, best five count": ("2h 3c", "4h 3d", "Ah Kh Qh Jh 9h", 0),
    "full house beats flush": ("9h 9c", "Ah 2h", "9s Kh Kd 4h 6h", 1),
    "full house: the three count first": ("Kh Kc", "2h 2c", "Ks 2s 3d 3h 9c", 1),
    "full house from two threes": ("7h 7c", "Ah Kc", "7s 5s 5d 5h 9c", 1),
    "four of a kind beats a full house": ("8h 8c", "Kh Kc", "8s 8d Kd 2h 9c", 1),
    "four of a kind on the board: the kicker": ("Ah 2c", "Kh Qc", "9s 9d 9h 9c 3h", 1),
    "straight flush beats four of a kind": ("6h 7h", "Kh Kc", "8h 9h Th Kd Ks", 1),
    "higher straight flush": ("Jh 2c", "5h 2d", "Th 9h 8h 7h 6h", 1),
    "steel wheel": ("Ah 2h", "Kc Kd", "3h 4h 5h Ks Kh", 1),
    "the board plays": ("2h 3c", "2d 3d", "Ah Kh Qh Jh Th", 0),
}


@pytest.mark.parametrize("name", SHOWDOWNS)
def test_showdown(name):
    first, second, board, winner = SHOWDOWNS[name]
    cards = short(first) + short(second) + short(board)
    s = deal(*cards)
    while not s.finished:
        play(s, next(m for m in moves_of(s) if m in ("check", "call")))
    assert fired_counts(s)["showdown"] == 1
    expected = {1: (10, -10), 2: (-10, 10), 0: (0, 0)}[winner]
    assert chips(s) == expected
    assert outcome(s).winners == {1: (0,), 2: (1,), 0: (0, 1)}[winner]
    assert set(observe(s, 1)["zones"]["hand"]["P1"]["known"]) == set(cards_in(s, "hand", 0))  # shown
    assert _openspiel_calldown(cards) == tuple(float(x) for x in expected)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(GAME_STRING)
    params = game.get_parameters()
    assert (params["betting"], params["bettingAbstraction"], params["blind"], params["raiseSize"],
            params["maxRaises"], params["firstPlayer"]) == ("limit", "fcpa", "10 5", "10 10 20 20",
                                                              "3 4 4 4", "2 1 1 1")
    return game


def _replay(cards, decisions):
    return replayed(deal(*(card(c) for c in cards)), MEANING, decisions)


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    ends = {"fold": 0, "showdown": 0}
    for _ in range(600):
        theirs, cards, decisions = random_openspiel_game(game, rng)
        s = _replay(cards, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        assert sorted(cards_in(s, "board")) == sorted(card(c) for c in cards[4:])
        ends["showdown" if fired_counts(s)["showdown"] else "fold"] += 1
    assert all(n > 50 for n in ends.values())


def test_openspiels_showdowns_pay_the_same():
    """Both players only check and call: every game is a showdown, and the returns test the
    ranking of hands on 3000 random deals."""
    game = _pyspiel_game()
    rng = random.Random(32)
    splits = 0
    for _ in range(3000):
        theirs, cards, decisions = random_openspiel_game(game, rng, lambda r, legal: CALL)
        s = _replay(cards, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        splits += theirs.returns()[0] == 0
    assert splits > 30


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    """Our own games (our shuffle) against OpenSpiel's, random players in both: the mean length
    and each seat's mean return agree within sampling error."""
    same_statistics_as_openspiels(_pyspiel_game(), rules(), 2000, random.Random(31))
