"""The variants of Oh Hell (rulesets/classic/oh-hell-*.cards).

Oh Hell with a missed bid costing points (oh-hell-penalty.cards) against OpenSpiel's `oh_hell`
with off_bid_penalty=True: the changed score in positions, then OpenSpiel's own random games
replayed move by move (three and five players).

Oh Hell at no trumps (oh-hell-no-trumps.cards) has no OpenSpiel game: one position per changed
rule (no card turned up, the suit led wins every trick), and random games checked trick by trick.

Seats, card names and moves are as in test_classic_oh_hell.py."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

import test_classic_oh_hell as base
from classic_stats import returns
from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, legal_moves, new_game, outcome, position, public_vars

HERE = Path(__file__).resolve().parents[3] / "rulesets" / "classic"
c, moves_of, do = base.c, base.moves_of, base.do


@cache
def rules(name: str):
    return load_ruleset(HERE / f"{name}.cards")


# ================================================================== a missed bid costs points

def _score(bids, tricks, winner, options=None):
    """As test_classic_oh_hell._score, in the variant: `winner` takes the last trick with a trump."""
    hands = [["C2"], ["C3"], ["C4"]]
    hands[winner] = ["HA"]
    s = base.table(hands, "HK", 2, phase="play", bids=bids, tricks=tricks, options=options)
    s = position(rules("oh-hell-penalty"), 3, "play", zones={k: v for k, v in _zones(s).items()},
                 vars={k: v for k, v in public_vars(s).items() if k in ("num_tricks", "dealer", "trumps", "bid")},
                 rest="stock")
    for seat in range(3):
        do(s, seat, c(hands[seat][0]))
    assert s.finished
    return outcome(s).scores


def _zones(s):
    return {"hand": {p: cards_in(s, "hand", p) for p in range(3)}, "won": {p: cards_in(s, "won", p) for p in range(3)},
            "upcard": cards_in(s, "upcard")}


@pytest.mark.parametrize("bids,tricks,winner,scores", [
    ([2, 0, 3], [1, 2, 1], 0, (12, -2, -2)),  # tricks 2, 2, 1: made, two over, two under
    ([0, 1, 1], [0, 1, 1], 2, (10, 11, -1)),   # nothing bid and nothing taken scores ten
])
def test_a_missed_bid_loses_a_point_a_trick_out_and_nothing_for_tricks(bids, tricks, winner, scores):
    assert _score(bids, tricks, winner) == scores


@pytest.mark.parametrize("params,games", [({"off_bid_penalty": True}, 300), ({"players": 5, "off_bid_penalty": True}, 80)])
def test_openspiels_penalty_games_replayed_move_by_move(params, games):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("oh_hell", params)
    n = game.num_players()
    rng = random.Random(40 + n)
    missed = 0
    for _ in range(games):
        theirs, num_tricks, dealer, hands, trump, decisions = base._random_openspiel_game(game, rng, n)
        ours = base.table(hands, trump, dealer)
        s = position(rules("oh-hell-penalty"), n, "bidding",
                     zones={"hand": {p: cards_in(ours, "hand", p) for p in range(n)}, "upcard": cards_in(ours, "upcard")},
                     vars={k: v for k, v in public_vars(ours).items() if k in ("num_tricks", "dealer", "trumps")},
                     rest="stock")
        base.replayed(s, num_tricks, decisions)
        assert returns(s) == tuple(theirs.returns())
        missed += any(x < 0 for x in theirs.returns())
    assert missed >= games // 3  # the penalty decided many of these games


# ================================================================== no trumps

def no_trump_table(hands, dealer, *, bids):
    n = len(hands)
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    vars = {"num_tricks": len(hands[0]), "dealer": dealer, "bid": dict(enumerate(bids))}
    return position(rules("oh-hell-no-trumps"), n, "play", zones=zones, vars=vars, rest="stock")


@pytest.mark.parametrize("seed", range(4))
def test_no_card_is_turned_up_and_there_are_no_trumps(seed):
    s = new_game(rules("oh-hell-no-trumps"), 3, seed=seed)
    k = public_vars(s)["num_tricks"]
    assert cards_in(s, "upcard") == [] and public_vars(s)["trumps"] is None
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [k] * 3 and len(cards_in(s, "stock")) == 52 - 3 * k
    assert s.rule == "bidding"


@pytest.mark.parametrize("second,third,winner", [
    ("D5", "CA", 2),  # the highest club
    ("HA", "C3", 0),  # a heart, a spade or a diamond never wins a club trick
    ("SA", "DA", 0),
    ("C9", "C3", 1),
])
def test_the_highest_card_of_the_suit_led_wins_every_trick(second, third, winner):
    s = no_trump_table([["C5"], [second], [third]], 2, bids=[1, 0, 0])
    for seat, x in [(0, "C5"), (1, second), (2, third)]:
        do(s, seat, c(x))
    assert s.finished and len(cards_in(s, "won", winner)) == 3


def test_following_suit_and_the_hook_are_the_base_games():
    hands = [["C2", "C9", "H4"], ["D2", "DK", "S4"], ["S2", "SA", "H9"]]
    s = no_trump_table(hands, 2, bids=[0, 0, 0])
    s = position(rules("oh-hell-no-trumps"), 3, "bidding", zones={"hand": {p: cards_in(s, "hand", p) for p in range(3)}},
                 vars={"num_tricks": 3, "dealer": 2}, rest="stock")
    do(s, 0, "bid 1")
    do(s, 1, "bid 1")
    assert moves_of(s, 2) == {"bid 0", "bid 2", "bid 3"}  # not 1: the bids would add up to 3
    do(s, 2, "bid 0")
    assert moves_of(s, 0) == {c(x) for x in hands[0]}
    do(s, 0, c("H4"))
    assert moves_of(s, 1) == {c(x) for x in hands[1]}  # void in hearts: anything
    do(s, 1, c("S4"))
    assert moves_of(s, 2) == {c("H9")}  # must follow
    do(s, 2, c("H9"))
    assert public_vars(s)["leader"] == "P3"


def test_random_games_every_trick_goes_to_the_highest_card_of_the_suit_led():
    rng = random.Random(7)
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]
    tricks = 0
    for seed in range(150):
        n = 3 + seed % 3
        s = new_game(rules("oh-hell-no-trumps"), n, seed=seed)
        played = []  # (seat, card) in the current trick
        while not s.finished:
            m = rng.choice(legal_moves(s))
            if not str(m).startswith("bid"):
                played.append((m.player, str(m).split()[-1]))
            before = [len(cards_in(s, "won", p)) for p in range(n)]
            apply(s, m)
            if len(played) == n:
                led = played[0][1].split("-")[1]
                seat, best = max((x for x in played if x[1].endswith(led)), key=lambda x: order.index(x[1].split("-")[0]))
                assert len(cards_in(s, "won", seat)) == before[seat] + n and best in cards_in(s, "won", seat)
                played = []
                tricks += 1
    assert tricks > 500
