"""Heads-up no-limit Texas Hold'em (rulesets/classic/nolimit-holdem.cards, a variant of
limit-holdem.cards) against OpenSpiel's `universal_poker` with the game string OpenSpiel gives for
no-limit hold'em (HunlGameString in open_spiel/canonical_game_strings.cc) and its default betting
abstraction, fcpa: Fold, Call, Pot and All-in.

First one small game per rule that changed (the blinds and the stacks, the pot-sized bets and
raises before and after the flop, going all in, a pot bet that would take more than the stack, folding, both players all in with the board run out); then the
whole tree of betting (every one of its 2002 betting sequences, on one deal) walked in both games
side by side; then OpenSpiel's own random games replayed move by move in our ruleset (the same
legal moves at every decision, the same returns at the end), and random play's statistics.

Cards: OpenSpiel's card c is rank c // 4 (2 up to Ace) of suit c % 4; it deals P1's two, P2's two,
the flop's three, the turn, the river, and the pack is set up with them on top in that order
(`shuffle=False`). OpenSpiel's moves are Fold (0), Call (1), Pot (2) and All-in (3); ours name them
by their meaning: Call is `check` or `call`, Pot is `bet` or `raise`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from holdem import card, dealt, index, short
from poker import chips, moves_of, play, pot, random_openspiel_game, replayed, same_statistics_as_openspiels
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, outcome

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "nolimit-holdem.cards"
GAME_STRING = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,firstPlayer=2 1 1 1,"
               "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,stack=20000 20000,"
               "bettingAbstraction=fcpa)")
FOLD, CALL, POT, ALL_IN = 0, 1, 2, 3
MEANING = {"fold": FOLD, "check": CALL, "call": CALL, "bet": POT, "raise": POT, "all_in": ALL_IN}
rules = loader(RULESET)


def deal(*cards: str):
    return dealt(rules(), *cards)


HANDS = short("2c 7d  3h 8s  Kc Kd 4h 9s Js")  # P1 2c 7d, P2 3h 8s; a board with no help
ACES = short("As Ah  2c 7d  Ac Kd 4h 9s Js")  # P1 wins a showdown


# ================================================================== the blinds and the stacks

@pytest.mark.parametrize("seed", range(3))
def test_the_blinds_are_100_and_50(seed):
    s = new_game(rules(), 2, seed=seed)
    assert chips(s) == (-100, -50) and pot(s) == 150
    assert all(len(cards_in(s, "hand", p)) == 2 for p in (0, 1)) and cards_in(s, "board") == []
    # the small blind speaks first: a pot raise or all in, as well as folding or calling
    assert moves_of(s) == {"fold": 1, "call": 1, "raise": 1, "all_in": 1}


# ================================================================== pot-sized bets and raises

def test_pot_raises_before_the_flop():
    s = deal(*HANDS)
    play(s, "raise")  # 50 to call, then the pot of 200: to 300
    assert chips(s) == (-100, -300) and pot(s) == 400
    assert moves_of(s) == {"fold": 0, "call": 0, "raise": 0, "all_in": 0}
    play(s, "raise")  # 200 to call, then the pot of 600: to 900
    assert chips(s) == (-900, -300)
    play(s, "raise", "raise")  # to 2700, to 8100
    assert chips(s) == (-8100, -2700)
    # a pot raise would be to 24300, more than the 20000 chips: only all in
    assert moves_of(s) == {"fold": 1, "call": 1, "all_in": 1}
    play(s, "call")
    assert chips(s) == (-8100, -8100) and len(cards_in(s, "board")) == 3


def test_the_big_blind_may_raise_the_pot_after_a_call():
    s = deal(*HANDS)
    play(s, "call")
    assert chips(s) == (-100, -100) and moves_of(s) == {"check": 0, "raise": 0, "all_in": 0}
    play(s, "raise")  # the pot of 200: to 300
    assert chips(s) == (-300, -100) and moves_of(s) == {"fold": 1, "call": 1, "raise": 1, "all_in": 1}


def test_pot_bets_and_raises_after_the_flop():
    s = deal(*HANDS)
    play(s, "call", "check")
    assert len(cards_in(s, "board")) == 3
    assert moves_of(s) == {"check": 0, "bet": 0, "all_in": 0}  # the big blind speaks first
    play(s, "bet")  # the pot of 200
    assert chips(s) == (-300, -100) and pot(s) == 400
    play(s, "raise")  # 200 to call, then the pot of 600
    assert chips(s) == (-300, -900) and pot(s) == 1200
    play(s, "call")
    assert chips(s) == (-900, -900) and len(cards_in(s, "board")) == 4
    assert moves_of(s) == {"check": 0, "bet": 0, "all_in": 0}


def test_check_then_bet():
    s = deal(*HANDS)
    play(s, "call", "check", "check")
    assert moves_of(s) == {"check": 1, "bet": 1, "all_in": 1}
    play(s, "check")
    assert len(cards_in(s, "board")) == 4 and moves_of(s) == {"check": 0, "bet": 0, "all_in": 0}


# ================================================================== all in

def test_all_in_leaves_only_call_or_fold():
    s = deal(*HANDS)
    play(s, "all_in")
    assert chips(s) == (-100, -20000)
    assert moves_of(s) == {"fold": 0, "call": 0}  # no raise over an all in
    play(s, "fold")
    assert s.finished and chips(s) == (-100, 100) and outcome(s).winners == (1,)


def test_both_all_in_the_board_is_run_out_without_betting():
    s = deal(*ACES)
    play(s, "call", "check", "all_in", "call")
    assert s.finished
    assert sorted(cards_in(s, "board")) == sorted(ACES[4:])
    assert fired_counts(s)["flop"] == 1 and fired_counts(s)["turn_card"] == 2
    assert fired_counts(s)["bet"] == 4 and fired_counts(s)["showdown"] == 1
    assert chips(s) == (20000, -20000) and outcome(s).winners == (0,)


def test_all_in_preflop_and_called():
    s = deal(*short("2c 7d  As Ah  Ac Kd 4h 9s Js"))
    play(s, "all_in", "call")
    assert s.finished and len(cards_in(s, "board")) == 5
    assert chips(s) == (-20000, 20000)


def test_a_pot_raise_trebles_the_highest_stake():
    """A pot bet or raise brings the stake to three times the highest stake, so with 20000 chips
    it is never exactly all in (OpenSpiel would then offer Pot without All-in)."""
    s = deal(*HANDS)
    play(s, "call", "check", "bet", "raise")
    assert chips(s) == (-300, -900)
    play(s, "raise")
    assert chips(s) == (-2700, -900)


# ================================================================== folding and the showdown

def test_the_small_blind_folds():
    s = deal(*HANDS)
    play(s, "fold")
    assert s.finished and chips(s) == (50, -50) and fired_counts(s)["showdown"] == 0


def test_a_showdown_after_checks():
    s = deal(*ACES)
    while not s.finished:
        play(s, next(m for m in moves_of(s) if m in ("check", "call")))
    assert fired_counts(s)["showdown"] == 1 and chips(s) == (100, -100)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(GAME_STRING)
    params = game.get_parameters()
    assert (params["betting"], params["bettingAbstraction"], params["blind"], params["stack"],
            params["firstPlayer"]) == ("nolimit", "fcpa", "100 50", "20000 20000", "2 1 1 1")
    return game


def test_the_whole_tree_of_betting():
    """Every betting sequence OpenSpiel allows on one deal, walked in both games side by side:
    the same moves at every decision, the same returns at every end, and no more decisions than
    the ruleset's bound."""
    game = _pyspiel_game()
    cards = [index(c) for c in ACES]
    ends, longest = 0, 0

    def walk(theirs, ours, depth):
        nonlocal ends, longest
        while theirs.is_chance_node():
            theirs = theirs.child(cards[sum(1 for _ in theirs.history()) - depth])
        if theirs.is_terminal():
            assert ours.finished
            assert tuple(float(x) for x in outcome(ours).scores) == tuple(theirs.returns())
            ends += 1
            longest = max(longest, depth)
            return
        mine = moves_of(ours)
        assert set(mine.values()) == {theirs.current_player()}
        assert sorted(MEANING[m] for m in mine) == theirs.legal_actions()
        for m in legal_moves(ours):
            child = ours.clone()
            apply(child, next(x for x in legal_moves(child) if str(x) == str(m)))
            walk(theirs.child(MEANING[str(m)]), child, depth + 1)

    walk(game.new_initial_state(), deal(*ACES), 0)
    assert ends == 2002 and longest == rules().max_decisions == 13


def _replay(cards, decisions):
    return replayed(deal(*(card(c) for c in cards)), MEANING, decisions)


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    ends = {"fold": 0, "showdown": 0, "all in": 0}
    for _ in range(600):
        theirs, cards, decisions = random_openspiel_game(game, rng)
        s = _replay(cards, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        assert sorted(cards_in(s, "board")) == sorted(card(c) for c in cards[4:])
        ends["showdown" if fired_counts(s)["showdown"] else "fold"] += 1
        ends["all in"] += abs(theirs.returns()[0]) == 20000
    assert all(n > 50 for n in ends.values()), ends


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    """Our own games (our shuffle) against OpenSpiel's, random players in both: the mean length
    and each seat's mean return agree within sampling error."""
    same_statistics_as_openspiels(_pyspiel_game(), rules(), 2000, random.Random(31))
