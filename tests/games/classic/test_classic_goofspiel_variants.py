"""Goofspiel with the prizes from the King down (rulesets/classic/goofspiel-descending.cards)
against OpenSpiel's `goofspiel` with points_order=descending: the changed rule (the prize
order) in positions, then OpenSpiel's own random games replayed bid by bid, with the same
prize every round, the same points and the same returns.

Goofspiel with tied prizes carried over (goofspiel-carry-over.cards) has no OpenSpiel game: the
changed tie rule in positions, and random games checked round by round.

Seats, card names and returns are as in test_classic_goofspiel.py."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from bundled_games import loader

import test_classic_goofspiel as base
from interpreter import load_ruleset
from interpreter.engine import cards_in, new_game, outcome, position

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "goofspiel-descending.cards"
card, bids_of, bid, RANKS = base.card, base.bids_of, base.bid, base.RANKS


rules = loader(RULESET)


@pytest.mark.parametrize("seed", range(3))
def test_the_prizes_come_from_the_king_down_whatever_the_shuffle(seed):
    s = new_game(rules(), 2, seed=seed)
    for value in range(13, 1, -1):
        assert cards_in(s, "prize") == [card(value, "Diamonds")]
        assert bids_of(s, 0) == {f"bid {card(v, 'Clubs')}" for v in range(1, value + 1)}
        bid(s, 0, value)
        bid(s, 1, value)
    assert s.finished and cards_in(s, "lost")[-1] == card(1, "Diamonds")  # the Ace last, bid for with the last cards


@pytest.mark.parametrize("players", [2, 3])
def test_the_order_holds_for_three_players_and_with_fewer_cards(players):
    s = new_game(rules(), players, seed=5, options={"num_cards": 5})
    assert cards_in(s, "prize") == [card(5, "Diamonds")]
    for p in range(players):
        bid(s, p, 5)
    assert cards_in(s, "lost") == [card(5, "Diamonds")] and cards_in(s, "prize") == [card(4, "Diamonds")]


def test_the_option_still_gives_the_other_orders():
    assert cards_in(new_game(rules(), 2, seed=1, options={"prize_order": "ascending"}), "prize") == [card(1, "Diamonds")]
    firsts = {cards_in(new_game(rules(), 2, seed=seed, options={"prize_order": "random"}), "prize")[0] for seed in range(40)}
    assert len(firsts) > 5


def _openspiel_game(game, rng):
    s = game.new_initial_state()
    rounds = []
    while not s.is_terminal():
        assert not s.is_chance_node()  # no chance at all in this order
        # the prize on offer is the last of the point cards shown so far
        prize = int(next(x for x in str(s).splitlines() if x.startswith("Point card sequence:")).split()[-1])
        legal = [s.legal_actions(p) for p in range(2)]
        joint = [rng.choice(legal[p]) for p in range(2)]
        rounds.append((prize, [{a + 1 for a in legal[p]} for p in range(2)], [a + 1 for a in joint]))
        s.apply_actions(joint)
    return s, rounds


def test_openspiels_descending_games_replayed_bid_by_bid():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("goofspiel", {"points_order": "descending"})
    assert game.get_parameters()["points_order"] == "descending"
    rng = random.Random(12)
    for seed in range(300):
        theirs, rounds = _openspiel_game(game, rng)
        s = new_game(rules(), 2, seed=seed)
        for prize, legal, joint in rounds:
            assert cards_in(s, "prize") == [card(prize, "Diamonds")]
            assert [{RANKS.index(m.split()[1].split("-")[0]) + 1 for m in bids_of(s, p)} for p in (0, 1)] == legal
            for p in (0, 1):
                bid(s, p, joint[p])
        assert s.finished
        assert outcome(s).scores == base._points(theirs)
        assert base._returns(outcome(s).winners, 2) == tuple(theirs.returns())


# ================================================================== tied prizes carried over

@cache
def carry():
    return load_ruleset(RULESET.with_name("goofspiel-carry-over.cards"))


def carry_table(hands, prizes, players=2):
    """As test_classic_goofspiel.table, in the variant: prizes from the bottom up (the last first)."""
    zones = {"hand": {p: [card(v, base.BID_SUITS[p]) for v in h] for p, h in enumerate(hands)},
             "prizes": [card(v, "Diamonds") for v in prizes]}
    return position(carry(), players, "play", zones=zones, vars={}, rest="box")


def test_a_tied_prize_stays_and_goes_with_the_next_to_the_next_winner():
    s = carry_table([[1, 5, 9], [2, 5, 7]], [3, 8, 6])  # prizes 6, then 8, then 3
    bid(s, 0, 5)
    bid(s, 1, 5)  # tie on the 6: it stays
    assert cards_in(s, "lost") == [] and sorted(cards_in(s, "prize")) == sorted([card(6, "Diamonds"), card(8, "Diamonds")])
    bid(s, 0, 1)
    bid(s, 1, 7)  # P2 takes the 8 and the 6
    assert sorted(cards_in(s, "won", 1)) == sorted([card(6, "Diamonds"), card(8, "Diamonds")])
    assert s.finished and outcome(s).scores == (3, 14)  # the last card: 9 against 2 takes the 3


def test_ties_pile_up_and_a_tie_in_the_last_round_loses_the_prizes():
    s = carry_table([[1, 5, 9], [1, 5, 9]], [3, 8, 6])
    bid(s, 0, 5)
    bid(s, 1, 5)
    bid(s, 0, 1)
    bid(s, 1, 1)
    # the 6 and the 8 carried over, then the 9s tie on the 3 in the last round: all three lost
    assert s.finished and sorted(cards_in(s, "lost")) == sorted(card(v, "Diamonds") for v in (3, 6, 8))
    assert outcome(s).scores == (0, 0)
    in_base = base.table([[1, 5, 9], [2, 5, 7]], [3, 8, 6])
    bid(in_base, 0, 5)
    bid(in_base, 1, 5)
    assert cards_in(in_base, "lost") == [card(6, "Diamonds")]  # the base game discards it


def test_random_games_every_prize_goes_to_the_next_single_highest_bid():
    rng = random.Random(5)
    carried = 0
    for seed in range(200):
        n = 2 + seed % 2
        s = new_game(carry(), n, seed=seed)
        while not s.finished:
            on_table = cards_in(s, "prize")
            before = [len(cards_in(s, "won", p)) for p in range(n)]
            bids = {}
            for p in range(n):
                m = rng.choice(sorted(bids_of(s, p)))
                bids[p] = RANKS.index(m.split()[1].split("-")[0]) + 1
                bid(s, p, bids[p])
            top = [p for p, v in bids.items() if v == max(bids.values())]
            if len(top) == 1:
                w = top[0]
                assert set(on_table) <= set(cards_in(s, "won", w)) and len(cards_in(s, "won", w)) >= before[w] + len(on_table)
                carried += len(on_table) > 1
            elif not s.finished:
                assert set(on_table) <= set(cards_in(s, "prize")) and cards_in(s, "lost") == []
        total = sum(outcome(s).scores) + sum(RANKS.index(x.split("-")[0]) + 1 for x in cards_in(s, "lost"))
        assert total == 91  # every prize point is won by someone, or lost in a tie at the very end
    assert carried >= 50
