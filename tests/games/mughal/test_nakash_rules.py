"""Scenario tests for Nakash (seed 003, the Mughal rule book): one small position per rule,
with the exact set of legal moves and exactly where the chips go.

Positions are built with `engine.position`: cards not placed stay in the `stock`. Seats are
0-based (P1 = seat 0) and play runs in seat order. A round is three phases in a loop: The
stake (the dealer's decision), Ante and deal, The showdown (no decisions)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine import (apply, card_info, cards_in, fired_counts, new_game,
                                outcome, position, program_of, public_vars)
from interpreter.errors import IllegalMoveError
from classic_stats import random_games
from scenario import at, legal

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"


@cache
def rules():
    return load_ruleset(RULESETS / "nakash.cards")


def stakes(*ns: int) -> set[str]:
    return {f"stake {n}" for n in ns}


def chips(s) -> list[int]:
    v = public_vars(s)["chips"]
    return [v[f"P{i + 1}"] for i in range(s.n_players)]


def showdown(hands, *, pot, stack=None, dealer=0, rounds_done=0, options=None):
    """Start the showdown: every seat with a hand has paid in; `stack` is the chips left."""
    n = len(hands)
    vars = {"dealer": dealer, "rounds_done": rounds_done, "pot": pot,
            "dealt_in": {seat: bool(h) for seat, h in enumerate(hands)}}
    if stack is not None:
        vars["chips"] = dict(enumerate(stack))
    return position(rules(), n, "showdown", zones={"hand": dict(enumerate(hands))}, vars=vars,
                    options=options)


def winners_of(hands, **kw) -> list[int]:
    """Play one showdown with a pot of 60 and 0 chips left; return what each seat received."""
    n = len(hands)
    s = showdown(hands, pot=60, stack=[0] * n, rounds_done=9, **kw)
    return [c for c in chips(s)]


# ------------------------------------------------------------------ 1. the stake

def test_the_dealer_p1_names_the_first_stake():
    s = new_game(rules(), 3, seed=2)
    assert public_vars(s)["dealer"] == "P1" and public_vars(s)["pot"] == 0
    at(s, 0, "name_stake", stakes(1, 2, 3, 4, 5))
    assert len(cards_in(s, "stock")) == 96
    with pytest.raises(IllegalMoveError):
        apply(s, "stake 6")


def test_the_stake_is_no_more_than_any_player_in_the_match_holds():
    s = position(rules(), 4, "stake", vars={"chips": {0: 40, 1: 3, 2: 0, 3: 9}})
    # P3 has no chips: out of the match, and not a limit
    at(s, 0, "name_stake", stakes(1, 2, 3))
    s = position(rules(), 2, "stake", options={"max_stake": 8})
    at(s, 0, "name_stake", stakes(*range(1, 9)))


def test_a_fixed_stake_needs_no_decision():
    s = position(rules(), 3, "stake", options={"fixed_stake": True, "stake": 4, "rounds": 1},
                 zones={"hand": {}})
    # no decision at all: the single round is played and the match is over
    assert s.finished and fired_counts(s)["agreed_stake"] == 1 and fired_counts(s)["name_stake"] == 0
    assert s.decisions == 0
    assert sum(chips(s)) + public_vars(s)["pot"] == 90
    assert public_vars(s)["round_stake"] == 4


# ------------------------------------------------------------------ 2. the ante and the deal

def test_everyone_in_the_match_pays_the_stake_and_gets_two_cards():
    # a pack in a known random order, which the deal's shuffle (switched off) leaves as it is
    pack = list(program_of(rules()).card_names)
    random.Random(11).shuffle(pack)
    s = position(rules(), 4, "stake", zones={"stock": pack}, vars={"chips": {2: 0}}, seed=11, shuffle=False)
    at(s, 0, "name_stake", stakes(1, 2, 3, 4, 5))
    assert cards_in(s, "stock") == pack
    top = pack[::-1]  # the top of the pack is the end of the list
    apply(s, "stake 3")
    assert public_vars(s)["round_stake"] == 3
    assert fired_counts(s)["ante"] == 1 and fired_counts(s)["deal"] == 1 and fired_counts(s)["show"] == 1
    # the hands went back to the pack; each card remembers whose hand it was in.
    # one card at a time from P2 round to the dealer P1, skipping P3 who is out
    held = {seat: sorted(c for c in s.program.card_names if card_info(s, c)["played_by"] == seat)
            for seat in range(4)}
    order = [1, 3, 0]
    assert held == {seat: sorted(top[i] for i in range(6) if order[i % 3] == seat) for seat in range(4)}
    assert chips(s)[2] == 0
    # three stakes of 3 went in; whatever was won came out of the pot
    assert sum(chips(s)) + public_vars(s)["pot"] == 90
    assert public_vars(s)["dealt_in"] == {"P1": False, "P2": False, "P3": False, "P4": False}
    assert public_vars(s)["dealer"] == "P2"
    at(s, 1, "name_stake", stakes(*range(1, min(5, chips(s)[0], chips(s)[1], chips(s)[3]) + 1)))


# ------------------------------------------------------------------ 3. winning hands

def test_the_highest_total_of_17_or_less_wins_the_pot():
    hands = [["9-Surya", "8-Barat"],   # 17
             ["Raja-Surya", "5-Barat"],  # 17: ties
             ["10-Cheng", "6-Phul"]]     # 16
    assert winners_of(hands) == [30, 30, 0]


def test_bust_totals_lose_even_when_nothing_else_qualifies():
    for bust in (["9-Surya", "9-Barat"], ["Raja-Surya", "7-Barat"], ["Vizier-Surya", "10-Barat"],
                 ["Raja-Cheng", "Vizier-Barat"]):  # 18, 19, 21, 23
        hands = [bust, ["2-Surya", "1-Barat"]]  # 3 beats them
        assert winners_of(hands) == [0, 60]


def test_a_pair_of_ones_beats_everything():
    hands = [["1-Surya", "1-Barat"], ["Raja-Surya", "Raja-Barat"], ["Vizier-Surya", "Vizier-Barat"],
             ["10-Surya", "10-Barat"], ["9-Cheng", "8-Phul"]]
    assert winners_of(hands) == [60, 0, 0, 0, 0]


def test_pairs_of_courts_and_tens_rank_in_order_above_totals():
    assert winners_of([["Raja-Surya", "Raja-Barat"], ["Vizier-Surya", "Vizier-Barat"],
                       ["10-Surya", "10-Barat"]]) == [0 + 60, 0, 0]
    assert winners_of([["5-Cheng", "4-Phul"], ["Vizier-Surya", "Vizier-Barat"],
                       ["10-Surya", "10-Barat"]]) == [0, 60, 0]
    assert winners_of([["9-Cheng", "8-Phul"], ["10-Surya", "10-Barat"]]) == [0, 60]


def test_other_pairs_count_only_by_their_total():
    # a pair of 5s is just 10; a pair of 9s is a bust 18
    assert winners_of([["5-Cheng", "5-Phul"], ["6-Surya", "5-Barat"]]) == [0, 60]
    assert winners_of([["9-Cheng", "9-Phul"], ["1-Surya", "2-Barat"]]) == [0, 60]


def test_totals_of_20_and_22_that_are_not_pairs_cannot_win():
    hands = [["Raja-Surya", "8-Barat"], ["Raja-Cheng", "10-Phul"], ["Vizier-Cheng", "9-Phul"]]
    s = showdown(hands, pot=15, stack=[5, 5, 5])
    assert fired_counts(s)["no_winner"] == 1 and fired_counts(s)["pay_winners"] == 0
    assert chips(s) == [5, 5, 5] and public_vars(s)["pot"] == 15


# ------------------------------------------------------------------ 4. paying the winners

def test_the_pot_is_split_and_the_remainder_carries_over():
    hands = [["9-Surya", "7-Barat"], ["Raja-Surya", "4-Barat"], ["3-Cheng", "2-Phul"]]  # 16, 16, 5
    s = showdown(hands, pot=9, stack=[27, 27, 27])
    assert chips(s) == [31, 31, 27] and public_vars(s)["pot"] == 1
    assert fired_counts(s)["pay_winners"] == 1
    # the next round: the deal passes to P2, who names the stake
    assert public_vars(s)["rounds_done"] == 1 and public_vars(s)["dealer"] == "P2"
    assert all(cards_in(s, "hand", p) == [] for p in range(3)) and len(cards_in(s, "stock")) == 96
    at(s, 1, "name_stake", stakes(1, 2, 3, 4, 5))


def test_a_player_outside_the_round_cannot_win_it():
    hands = [["9-Surya", "9-Barat"], [], ["3-Cheng", "2-Phul"]]
    s = showdown(hands, pot=4, stack=[13, 0, 13])
    assert chips(s) == [13, 0, 17] and public_vars(s)["pot"] == 0


def test_nobody_wins_and_the_pot_carries_over_to_the_next_winner():
    s = showdown([["9-Surya", "9-Barat"], ["Raja-Surya", "Vizier-Barat"]], pot=6, stack=[12, 12])
    assert fired_counts(s)["no_winner"] == 1 and chips(s) == [12, 12] and public_vars(s)["pot"] == 6
    at(s, 1, "name_stake", stakes(1, 2, 3, 4, 5))
    apply(s, "stake 2")
    assert public_vars(s)["pot"] + sum(chips(s)) == 30


# ------------------------------------------------------------------ 5. the dealer and the end of the match

def test_a_dealer_who_is_out_passes_the_deal():
    s = position(rules(), 3, "stake", vars={"dealer": 1, "chips": {1: 0}})
    assert fired_counts(s)["skip_dealer"] == 1 and public_vars(s)["dealer"] == "P3"
    at(s, 2, "name_stake", stakes(1, 2, 3, 4, 5))


def test_the_match_ends_after_the_last_round():
    hands = [["9-Surya", "7-Barat"], ["5-Surya", "4-Barat"]]
    s = showdown(hands, pot=6, stack=[27, 27], rounds_done=9)
    assert s.finished and legal(s) == set() and fired_counts(s)["match_end"] == 1
    assert outcome(s).winners == (0,) and outcome(s).scores == (33, 27)
    s = showdown(hands, pot=6, stack=[27, 27], rounds_done=9, options={"rounds": 12})
    assert not s.finished and public_vars(s)["rounds_done"] == 10


def test_chips_left_in_the_pot_are_shared_at_the_end():
    hands = [["9-Surya", "9-Barat"], ["Raja-Surya", "Vizier-Barat"], ["10-Surya", "8-Barat"]]
    s = showdown(hands, pot=8, stack=[10, 0, 20], rounds_done=9)
    # nobody won the last round: 8 chips shared by the three players, 2 set aside
    assert s.finished and chips(s) == [12, 2, 22] and public_vars(s)["pot"] == 2
    assert outcome(s).winners == (2,)


def test_the_match_ends_early_when_one_player_is_left():
    s = showdown([["9-Surya", "7-Barat"], ["5-Surya", "4-Barat"]], pot=10, stack=[5, 0])
    assert s.finished and public_vars(s)["rounds_done"] == 1
    assert outcome(s).winners == (0,) and outcome(s).scores == (15, 0)


def test_with_a_fixed_stake_a_player_who_cannot_pay_it_is_out():
    hands = [["9-Surya", "7-Barat"], ["5-Surya", "4-Barat"], ["3-Surya", "2-Barat"]]
    s = showdown(hands, pot=9, stack=[0, 10, 2], options={"fixed_stake": True, "stake": 3, "rounds": 2})
    # P1 wins 9; P3 holds 2, less than the stake: out. The last round is P1 against P2.
    assert s.finished and public_vars(s)["rounds_done"] == 2
    assert chips(s)[2] == 2
    assert sum(chips(s)) + public_vars(s)["pot"] == 21


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_matches_keep_every_chip_and_end(players):
    for s, _ in random_games(rules(), players, 3, random.Random(players)):
        assert sum(outcome(s).scores) + public_vars(s)["pot"] == 30 * players
        assert public_vars(s)["pot"] < players
        assert s.decisions <= 100
