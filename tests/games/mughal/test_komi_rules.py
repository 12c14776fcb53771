"""Scenario tests for Komi (seed 003, the Mughal rule book): one small position per rule,
with the exact set of legal moves and exactly what happens to the chips afterwards.

Positions are built with `engine.position`: cards not placed stay in the `stock`. Seats are
0-based (P1 = seat 0) and play runs in seat order. The match is three phases in a loop:
Betting (decisions), The deal (no decisions), Showdown and settlement (no decisions)."""

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
    return load_ruleset(RULESETS / "komi.cards")


def rules_cards() -> list[str]:
    """Every card of the pack, by name."""
    return program_of(rules()).card_names


def bets(*ns: int) -> set[str]:
    return {f"bet {n}" for n in ns}


def chips(s) -> list[int]:
    v = public_vars(s)["chips"]
    return [v[f"P{i + 1}"] for i in range(s.n_players)]


def showdown(hands, bet, *, dealer=0, stack=None, deals_done=0, options=None):
    """Start the showdown with these hands (seat -> three cards) and bets (seat -> chips)."""
    n = len(hands)
    vars = {"dealer": dealer, "deals_done": deals_done, "bet": bet}
    if stack is not None:
        vars["chips"] = dict(enumerate(stack))
    return position(rules(), n, "showdown", zones={"hand": dict(enumerate(hands))}, vars=vars,
                    options=options)


# ------------------------------------------------------------------ 1. bets against the dealer

def test_a_new_match_starts_with_bets_against_p1_the_oldest():
    s = new_game(rules(), 3, seed=5)
    assert public_vars(s) == {"dealer": "P1", "deals_done": 0, "chips": {"P1": 30, "P2": 30, "P3": 30},
                              "bet": {"P1": 0, "P2": 0, "P3": 0}}
    assert len(cards_in(s, "stock")) == 96  # no card is dealt before the bets
    at(s, 1, "bets", bets(1, 2, 3, 4, 5))
    apply(s, "bet 4")
    assert public_vars(s)["bet"] == {"P1": 0, "P2": 4, "P3": 0}
    at(s, 2, "bets", bets(1, 2, 3, 4, 5))
    with pytest.raises(IllegalMoveError):
        apply(s, "bet 6")  # above max_bet


def test_max_bet_option_sets_the_table_maximum():
    s = new_game(rules(), 2, seed=1, options={"max_bet": 2})
    at(s, 1, "bets", bets(1, 2))


def test_a_bet_is_limited_by_the_players_chips():
    s = position(rules(), 3, "bets", vars={"chips": {1: 2, 2: 30}})
    at(s, 1, "bets", bets(1, 2))


def test_bets_are_limited_by_what_the_dealer_can_cover():
    s = position(rules(), 4, "bets", vars={"chips": {0: 6}})
    at(s, 1, "bets", bets(1, 2, 3, 4, 5))
    apply(s, "bet 4")
    at(s, 2, "bets", bets(1, 2))  # the dealer can still cover only 2 more
    apply(s, "bet 2")
    # nothing left to cover: P4 bets nothing and the deal goes ahead; the next decision is
    # already the next deal's betting (dealer P2, first bettor P3)
    assert public_vars(s)["deals_done"] == 1 and public_vars(s)["dealer"] == "P2"
    assert chips(s)[3] == 30  # P4 had nothing at stake
    assert sum(chips(s)) == 6 + 90
    assert s.actor == 2 and s.rule == "bets"


# ------------------------------------------------------------------ 2. the deal

def test_three_cards_one_at_a_time_from_the_next_player_after_the_dealer():
    # a pack in a known random order, which the deal's shuffle (switched off) leaves as it is
    names = list(rules_cards())
    random.Random(5).shuffle(names)
    s = position(rules(), 3, "bets", zones={"stock": names}, vars={"dealer": 1}, shuffle=False)
    at(s, 2, "bets", bets(1, 2, 3, 4, 5))
    apply(s, "bet 1")
    at(s, 0, "bets", bets(1, 2, 3, 4, 5))
    assert cards_in(s, "stock") == names
    apply(s, "bet 1")
    # the hands went back to the pack; each card remembers whose hand it was in
    held = {seat: sorted(c for c in rules_cards() if card_info(s, c)["played_by"] == seat) for seat in range(3)}
    top = names[::-1]  # the top of the pack is the end of the list
    order = [2, 0, 1]  # from the next player after the dealer (P2) to the dealer
    expected = {seat: sorted(top[i] for i in range(9) if order[i % 3] == seat) for seat in range(3)}
    assert held == expected
    assert fired_counts(s)["deal"] == 1 and fired_counts(s)["show"] == 1
    assert len(cards_in(s, "stock")) == 96


def test_a_player_without_chips_gets_no_cards_and_makes_no_bet():
    s = position(rules(), 3, "bets", vars={"chips": {2: 0}})
    at(s, 1, "bets", bets(1, 2, 3, 4, 5))
    apply(s, "bet 5")
    # P3 is out: no bet is asked of them, no card is dealt to them
    played = [card_info(s, c)["played_by"] for c in rules_cards()]
    assert all(who != 2 for who in played)
    assert sorted(who for who in played if who is not None) == [0, 0, 0, 1, 1, 1]
    assert chips(s)[2] == 0
    assert public_vars(s)["dealer"] == "P2"
    # the next deal skips P3 as a bettor too: the only other player in the match is P1
    at(s, 0, "bets", bets(*range(1, min(5, chips(s)[0], chips(s)[1]) + 1)))


# ------------------------------------------------------------------ 3. showing and settling

def test_settlement_lower_pays_higher_is_paid_equal_keeps():
    hands = [
        ["5-Surya", "7-Chandra", "Vizier-Barat"],  # dealer: 12 -> 2
        ["10-Phul", "Raja-Cheng", "3-Ghulam"],     # 13 -> 3: beats the dealer
        ["4-Surya", "8-Barat", "10-Shamsher"],     # 22 -> 2: ties
        ["9-Phul", "9-Cheng", "3-Kumancha"],       # 21 -> 1: loses
    ]
    s = showdown(hands, {1: 3, 2: 2, 3: 5})
    assert chips(s) == [30 - 3 + 5, 33, 30, 25]
    assert public_vars(s)["bet"] == {"P1": 0, "P2": 0, "P3": 0, "P4": 0}
    assert fired_counts(s)["show"] == 1 and fired_counts(s)["settle"] == 1
    # the deal has passed to P2, whose first bettor is P3
    assert public_vars(s)["dealer"] == "P2" and public_vars(s)["deals_done"] == 1
    at(s, 2, "bets", bets(1, 2, 3, 4, 5))


def test_only_the_last_digit_counts_and_a_zero_loses_to_a_one():
    hands = [["1-Surya", "Raja-Barat", "Vizier-Phul"],    # 1
             ["10-Surya", "3-Barat", "7-Cheng"]]           # 20 -> 0
    s = showdown(hands, {1: 4})
    assert chips(s) == [34, 26]


def test_the_dealers_score_counts_against_every_player():
    hands = [["9-Surya", "10-Barat", "Raja-Phul"],   # dealer: 19 -> 9
             ["8-Surya", "Vizier-Barat", "1-Cheng"],  # 9: ties
             ["6-Surya", "2-Barat", "Vizier-Cheng"]]  # 8: loses
    s = showdown(hands, {1: 5, 2: 5}, dealer=0)
    assert chips(s) == [35, 30, 25]


def test_a_komi_beats_a_nine():
    hands = [["9-Surya", "10-Barat", "Raja-Phul"],          # dealer: 9
             ["Vizier-Surya", "Raja-Barat", "Vizier-Cheng"]]  # Komi
    s = showdown(hands, {1: 5})
    assert chips(s) == [25, 35]


def test_a_dealers_komi_beats_everything_but_a_komi():
    hands = [["Raja-Surya", "Raja-Barat", "Vizier-Cheng"],   # dealer: Komi
             ["Vizier-Surya", "Raja-Chandra", "Raja-Cheng"],  # Komi: ties
             ["9-Surya", "Vizier-Barat", "10-Cheng"],         # 9: loses
             ["10-Surya", "Raja-Phul", "Vizier-Phul"]]        # 0 (not a Komi): loses
    s = showdown(hands, {1: 4, 2: 3, 3: 2})
    assert chips(s) == [35, 30, 27, 28]


def test_a_player_who_bet_nothing_is_not_settled():
    hands = [["1-Surya", "2-Barat", "3-Cheng"], ["9-Surya", "10-Barat", "10-Cheng"]]
    s = showdown(hands, {1: 0})
    assert chips(s) == [30, 30]


# ------------------------------------------------------------------ 4. passing the deal

def test_the_deal_passes_round_the_table():
    s = new_game(rules(), 2, seed=3)
    dealers = []
    for _ in range(3):
        dealers.append(public_vars(s)["dealer"])
        at(s, 1 - int(dealers[-1][1:]) + 1, "bets", bets(1, 2, 3, 4, 5))
        apply(s, "bet 1")
        assert len(cards_in(s, "stock")) == 96  # every card is back in the pack
        assert all(cards_in(s, "hand", p) == [] for p in range(2))
    assert dealers == ["P1", "P2", "P1"]
    assert public_vars(s)["deals_done"] == 3
    assert sum(chips(s)) == 60


# ------------------------------------------------------------------ 5. a dealer without chips

def test_a_dealer_without_chips_is_skipped_but_the_deal_counts():
    s = position(rules(), 3, "bets", vars={"chips": {0: 0, 1: 40, 2: 50}})
    assert fired_counts(s)["skip_deal"] == 1
    assert public_vars(s)["dealer"] == "P2" and public_vars(s)["deals_done"] == 1
    # P3 bets against P2; P1, out of the match, is not asked
    at(s, 2, "bets", bets(1, 2, 3, 4, 5))
    apply(s, "bet 5")
    assert public_vars(s)["dealer"] == "P3" and public_vars(s)["deals_done"] == 2
    assert chips(s)[0] == 0 and sum(chips(s)) == 90
    at(s, 1, "bets", bets(1, 2, 3, 4, 5))


# ------------------------------------------------------------------ 6. the end of the match

def test_the_match_ends_after_each_player_has_dealt_deals_each_times():
    hands = [["1-Surya", "2-Barat", "3-Cheng"], ["9-Surya", "10-Barat", "10-Cheng"],
             ["4-Surya", "1-Barat", "1-Cheng"]]
    s = showdown(hands, {0: 3, 1: 5}, dealer=2, deals_done=5, stack=[30, 25, 35])
    # P3 deals (6): P1 (6) ties and keeps the bet, P2 (9) wins 5 from P3
    assert chips(s) == [30, 30, 30]
    assert s.finished and legal(s) == set()
    assert fired_counts(s)["match_end"] == 1
    assert outcome(s).winners == (0, 1, 2) and outcome(s).scores == (30, 30, 30)


def test_deals_each_sets_the_length_of_the_match():
    hands = [["1-Surya", "2-Barat", "3-Cheng"], ["9-Surya", "10-Barat", "10-Cheng"]]
    # P2 deals (9), P1 (6) loses 2
    s = showdown(hands, {0: 2}, dealer=1, deals_done=3, options={"deals_each": 3})
    assert not s.finished and public_vars(s)["deals_done"] == 4
    at(s, 1, "bets", bets(1, 2, 3, 4, 5))
    s = showdown(hands, {0: 2}, dealer=1, deals_done=5, options={"deals_each": 3})
    assert s.finished and outcome(s).winners == (1,) and outcome(s).scores == (28, 32)


def test_the_match_ends_early_when_one_player_has_all_the_chips():
    hands = [["1-Surya", "2-Barat", "3-Cheng"], ["9-Surya", "10-Barat", "10-Cheng"],
             ["4-Surya", "1-Barat", "1-Cheng"]]
    # P1 deals (6); P2 bets all 5 chips with 9 and wins; P3 bets all 4 with 6 and ties
    s = showdown(hands, {1: 5, 2: 4}, stack=[5, 5, 4])
    assert chips(s) == [0, 10, 4]
    assert not s.finished  # two players still have chips: P2 deals, P3 bets
    at(s, 2, "bets", bets(1, 2, 3, 4))
    hands = [["9-Surya", "Vizier-Barat", "Raja-Cheng"], ["1-Surya", "10-Barat", "10-Cheng"]]
    s = showdown(hands, {1: 5}, stack=[5, 5])
    assert chips(s) == [10, 0]
    assert s.finished and outcome(s).winners == (0,)
    assert public_vars(s)["deals_done"] == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_matches_keep_every_chip_and_end(players):
    for s, _ in random_games(rules(), players, 3, random.Random(players)):
        assert sum(outcome(s).scores) == 30 * players
        assert s.decisions <= 300
