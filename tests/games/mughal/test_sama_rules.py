"""Scenario tests for Sama (seed 003, the Mughal rule book) and its betting form: one small
position per rule, with the exact set of legal moves and exactly what happens next.

Positions are built with `engine.position`: cards not placed stay in the `stock`, in deck
order, so the top of the pack is Raja-Shamsher, then Vizier-Shamsher, 10-Shamsher and so on.
Seats are 0-based (P1 = seat 0) and play runs in seat order. A round is three phases in a
loop: the deal (no decisions), the exchange, and the showdown (with betting in the variant)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import family_loader

from interpreter.engine import (apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome,
                                position, public_vars)
from interpreter.errors import InvalidMoveError
from classic_stats import random_games
from scenario import at, legal

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"
EXCHANGE = {"keep", "exchange_up", "exchange_down"}


rules = family_loader(RULESETS, "sama")


def per_player(s, var: str) -> list:
    v = public_vars(s)[var]
    return [v[f"P{i + 1}"] for i in range(s.n_players)]


def table(hands, ups, phase, *, game="sama", vars=None, options=None, out_of_play=None):
    """A position: `hands[seat]` face down, `ups[seat]` the face-up card (or None)."""
    zones = {"hand": dict(enumerate(hands)),
             "upcard": {seat: [u] for seat, u in enumerate(ups) if u}}
    return position(rules(game), len(hands), phase, zones=zones, vars=vars or {}, options=options,
                    out_of_play=out_of_play)


# The totals: P1 17 + 2*3 = 23, P2 4 + 2*12 = 28, P3 21 + 2*1 = 23
HANDS = [["7-Surya", "10-Barat"], ["1-Phul", "3-Cheng"], ["Vizier-Ghulam", "10-Chandra"]]
UPS = ["3-Kumancha", "Raja-Surya", "1-Barat"]


# ================================================================== Sama by rounds

def test_the_deal_two_down_one_up_from_the_next_player_after_the_dealer():
    s = new_game(rules(), 4, seed=8)
    assert public_vars(s)["dealer"] == "P1"
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [2, 2, 2, 2]
    assert [len(cards_in(s, "upcard", p)) for p in range(4)] == [1, 1, 1, 1]
    assert len(cards_in(s, "stock")) == 96 - 12
    view = observe(s, 2)["zones"]
    for owner in range(4):
        assert view["upcard"][f"P{owner + 1}"] == {"cards": cards_in(s, "upcard", owner)}  # public
        if owner != 2:
            assert view["hand"][f"P{owner + 1}"] == {"count": 2, "known": []}
    # the exchange starts with P2
    at(s, 1, "exchange", EXCHANGE)


def test_the_deal_order_one_card_at_a_time():
    # the deal is the first thing that happens: predict its shuffle from the seed
    s2 = position(rules(), 3, "deal", seed=4)
    pack = list(range(96))
    rng = random.Random(4)
    rng.shuffle(pack)
    top = [s2.program.card_names[c] for c in reversed(pack)]
    # two rounds face down from P2 round to the dealer P1, then one round face up
    assert cards_in(s2, "hand", 1) == [top[0], top[3]]
    assert cards_in(s2, "hand", 2) == [top[1], top[4]]
    assert cards_in(s2, "hand", 0) == [top[2], top[5]]
    assert [cards_in(s2, "upcard", p) for p in (1, 2, 0)] == [[top[6]], [top[7]], [top[8]]]


def test_exchanging_the_face_up_card_or_both_face_down_cards():
    s = table(HANDS, UPS, "exchange")
    at(s, 1, "exchange", EXCHANGE)
    apply(s, "exchange_up")
    # the old face-up card is put aside; the new one comes from the top of the pack, face up
    assert cards_in(s, "upcard", 1) == ["Raja-Shamsher"] and cards_in(s, "hand", 1) == ["1-Phul", "3-Cheng"]
    assert cards_in(s, "discards") == ["Raja-Surya"]
    assert observe(s, 0)["zones"]["upcard"]["P2"] == {"cards": ["Raja-Shamsher"]}
    assert observe(s, 0)["zones"]["discards"] == {"count": 1, "known": []}
    at(s, 2, "exchange", EXCHANGE)
    apply(s, "exchange_down")
    assert sorted(cards_in(s, "hand", 2)) == ["10-Shamsher", "Vizier-Shamsher"]
    assert cards_in(s, "upcard", 2) == ["1-Barat"]
    assert cards_in(s, "discards") == ["Raja-Surya", "Vizier-Ghulam", "10-Chandra"]
    assert observe(s, 0)["zones"]["hand"]["P3"] == {"count": 2, "known": []}
    at(s, 0, "exchange", EXCHANGE)  # the dealer exchanges last
    with pytest.raises(InvalidMoveError):
        apply(s, "exchange")
    apply(s, "keep")
    # totals: P1 23, P2 4 + 2*12 = 28, P3 21 + 2*1 = 23: P2 wins the round
    assert per_player(s, "rounds_won") == [0, 1, 0]
    assert fired_counts(s)["show"] == 1 and fired_counts(s)["round_win"] == 1


def test_each_player_exchanges_at_most_once_and_may_keep():
    s = table(HANDS, UPS, "exchange")
    apply(s, "keep")
    at(s, 2, "exchange", EXCHANGE)
    apply(s, "keep")
    at(s, 0, "exchange", EXCHANGE)
    apply(s, "keep")
    # P2's 28 beats the two 23s; the next round is dealt and P3 (after the new dealer P2) exchanges
    assert per_player(s, "rounds_won") == [0, 1, 0]
    assert public_vars(s)["dealer"] == "P2" and public_vars(s)["rounds_done"] == 1
    at(s, 2, "exchange", EXCHANGE)


def test_the_face_up_card_counts_double_and_courts_are_11_and_12():
    # P1: 12 + 11 + 2*1 = 25; P2: 1 + 2 + 2*11 = 25; P3: 10 + 10 + 2*2 = 24
    hands = [["Raja-Surya", "Vizier-Barat"], ["1-Phul", "2-Cheng"], ["10-Ghulam", "10-Chandra"]]
    s = table(hands, ["1-Kumancha", "Vizier-Surya", "2-Barat"], "showdown")
    assert per_player(s, "rounds_won") == [1, 1, 0]  # tied players each win the round


def test_showing_reveals_every_face_down_card_before_the_next_deal():
    s = table(HANDS, UPS, "showdown", vars={"rounds_won": {0: 2, 1: 0, 2: 1}})
    assert fired_counts(s)["show"] == 1
    assert per_player(s, "rounds_won") == [2, 1, 1]
    # the next round: every card went back and a new deal has been made
    assert fired_counts(s)["next_round"] == 1 and fired_counts(s)["deal"] == 1
    assert len(cards_in(s, "stock")) == 96 - 9 and cards_in(s, "discards") == []
    assert public_vars(s)["dealer"] == "P2"
    at(s, 2, "exchange", EXCHANGE)


def test_the_match_ends_after_the_last_round_and_most_rounds_won_wins():
    s = table(HANDS, UPS, "showdown", vars={"rounds_done": 5, "rounds_won": {0: 3, 1: 2, 2: 1}})
    assert s.finished and legal(s) == set() and fired_counts(s)["match_end"] == 1
    assert outcome(s).winners == (0, 1) and outcome(s).scores == (3, 3, 1)
    s = table(HANDS, UPS, "showdown", vars={"rounds_done": 5}, options={"rounds": 7})
    assert not s.finished and public_vars(s)["rounds_done"] == 6


@pytest.mark.parametrize("players", [3, 6])
def test_whole_matches_end(players):
    rng = random.Random(players)
    s = new_game(rules(), players, seed=1)
    while not s.finished:
        apply(s, rng.choice(legal_moves(s)))
    assert sum(outcome(s).scores) >= 6 and s.decisions == 6 * players


# ================================================================== Sama with betting

def chips(s) -> list[int]:
    return per_player(s, "chips")


def betting_table(hands, ups, phase="showdown", *, stack=None, pot=0, still_in=None, vars=None, options=None):
    v = {"pot": pot}
    still_in = still_in or {seat: bool(h) for seat, h in enumerate(hands)}
    if stack is not None:
        v["chips"] = dict(enumerate(stack))
    v.update(vars or {})
    return table(hands, ups, phase, game="sama-betting", vars=v, options=options,
                 out_of_play={seat: "round" for seat, inside in still_in.items() if not inside})


def in_round(s) -> list[bool]:
    """Who is still in the round (not folded, and paid the ante), as every seat sees it."""
    out = observe(s, 0).get("out_of_play", {})
    return [f"P{i + 1}" not in out for i in range(s.n_players)]


def test_betting_everyone_antes_before_the_deal():
    s = new_game(rules("sama-betting"), 4, seed=3)
    assert chips(s) == [29, 29, 29, 29] and public_vars(s)["pot"] == 4
    assert in_round(s) == [True] * 4
    assert fired_counts(s)["ante"] == 1
    at(s, 1, "exchange", EXCHANGE)
    s = new_game(rules("sama-betting"), 3, seed=3, options={"ante": 3})
    assert chips(s) == [27, 27, 27] and public_vars(s)["pot"] == 9


def test_betting_a_player_who_cannot_ante_is_out_and_is_not_dealt_in():
    s = position(rules("sama-betting"), 4, "deal", vars={"chips": {2: 0}, "pot": 0})
    assert chips(s) == [29, 29, 0, 29] and public_vars(s)["pot"] == 3
    assert in_round(s) == [True, True, False, True]
    assert cards_in(s, "hand", 2) == [] and cards_in(s, "upcard", 2) == []
    at(s, 1, "exchange", EXCHANGE)
    apply(s, "keep")
    at(s, 3, "exchange", EXCHANGE)  # P3 is skipped


def test_betting_a_dealer_who_is_out_passes_the_deal():
    s = position(rules("sama-betting"), 3, "deal", vars={"chips": {0: 0}, "pot": 0})
    assert fired_counts(s)["skip_dealer"] == 1 and public_vars(s)["dealer"] == "P2"
    at(s, 2, "exchange", EXCHANGE)


def test_betting_opening_is_limited_by_max_bet_and_the_poorest_player_in_the_round():
    s = betting_table(HANDS, UPS, stack=[20, 3, 20], pot=3)
    at(s, 1, "open_betting", {"check", "bet 1", "bet 2", "bet 3"})
    s = betting_table(HANDS, UPS, stack=[20, 30, 20], pot=3)
    at(s, 1, "open_betting", {"check", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"})
    s = betting_table(HANDS, UPS, stack=[20, 0, 20], pot=3)
    at(s, 1, "open_betting", {"check"})  # nothing left after the ante: only check
    s = betting_table(HANDS, UPS, stack=[20, 30, 20], pot=3, options={"max_bet": 2})
    at(s, 1, "open_betting", {"check", "bet 1", "bet 2"})


def test_betting_nobody_opens_and_the_highest_total_takes_the_pot():
    s = betting_table(HANDS, UPS, stack=[10, 10, 10], pot=3)
    apply(s, "check")
    at(s, 2, "open_betting", {"check", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"})
    apply(s, "check")
    at(s, 0, "open_betting", {"check", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"})
    apply(s, "check")
    assert fired_counts(s)["call_or_fold"] == 0 and fired_counts(s)["show"] == 1
    # P2's 28 takes the 3 chips of the pot; then the next round is anted and dealt
    assert chips(s) == [9, 12, 9] and public_vars(s)["pot"] == 3
    assert per_player(s, "rounds_won") == [0, 1, 0]
    assert public_vars(s)["dealer"] == "P2"
    at(s, 2, "exchange", EXCHANGE)


def test_betting_an_opening_bet_is_called_or_folded_by_everyone_else():
    s = betting_table(HANDS, UPS, stack=[10, 10, 10], pot=3)
    apply(s, "check")        # P2 checks
    apply(s, "bet 4")        # P3 opens with 4
    assert chips(s) == [10, 10, 6] and public_vars(s)["pot"] == 7
    assert public_vars(s)["opener"] == "P3" and public_vars(s)["open_bet"] == 4
    # P1 may no longer open: after P3 come P1 and then P2, who checked before
    at(s, 0, "call_or_fold", {"call", "fold"})
    apply(s, "call")
    at(s, 1, "call_or_fold", {"call", "fold"})
    apply(s, "fold")
    # P1 (23) and P3 (23) tie: the pot of 3 + 4 + 4 = 11 is shared, 5 each, and 1 stays in the
    # pot; then the next round's antes are paid
    assert chips(s) == [6 + 5 - 1, 10 - 1, 6 + 5 - 1]
    assert public_vars(s)["pot"] == 1 + 3
    assert per_player(s, "rounds_won") == [1, 0, 1]
    assert in_round(s) == [True, True, True]  # everyone is dealt in again


def test_betting_folded_players_cannot_win_even_with_the_best_total():
    s = betting_table(HANDS, UPS, stack=[10, 10, 10], pot=3)
    apply(s, "check")
    apply(s, "check")
    apply(s, "bet 2")  # P1 opens
    at(s, 1, "call_or_fold", {"call", "fold"})
    apply(s, "fold")   # P2 had 28
    apply(s, "call")   # P3
    # P1 and P3 share the pot of 3 + 2 + 2 = 7 (3 each, 1 stays); the next antes follow
    assert chips(s) == [8 + 3 - 1, 10 - 1, 8 + 3 - 1] and public_vars(s)["pot"] == 1 + 3
    assert per_player(s, "rounds_won") == [1, 0, 1]


def test_betting_when_everyone_else_folds_the_opener_takes_the_pot_unseen():
    s = betting_table(HANDS, UPS, stack=[10, 10, 10], pot=3, options={"rounds": 1})
    apply(s, "bet 5")   # P2 opens
    apply(s, "fold")    # P3
    apply(s, "fold")    # P1
    assert fired_counts(s)["show"] == 0 and fired_counts(s)["take_pot"] == 1
    assert s.finished and chips(s) == [10, 13, 10] and public_vars(s)["pot"] == 0
    assert outcome(s).winners == (1,)


def test_betting_the_match_ends_after_the_last_round():
    ups = ["Raja-Kumancha", "1-Surya", "Raja-Barat"]  # P1 17 + 24 = 41, P2 4 + 2 = 6, P3 21 + 24 = 45
    s = betting_table(HANDS, ups, stack=[10, 10, 10], pot=5, vars={"rounds_done": 5})
    apply(s, "check")
    apply(s, "check")
    apply(s, "check")
    assert s.finished and legal(s) == set() and fired_counts(s)["match_end"] == 1
    assert chips(s) == [10, 10, 15] and public_vars(s)["pot"] == 0
    assert outcome(s).winners == (2,) and outcome(s).scores == (10, 10, 15)


def test_betting_the_match_ends_early_when_only_one_player_can_ante():
    s = betting_table(HANDS, UPS, stack=[0, 0, 10], pot=3, still_in={0: True, 1: True, 2: True})
    for _ in range(3):
        apply(s, "check")
    # P2's 28 wins the pot of 3: P2 and P3 can ante again, so the match goes on
    assert not s.finished and chips(s) == [0, 2, 9]
    s = betting_table(HANDS, UPS, stack=[0, 0, 10], pot=1, still_in={0: True, 1: False, 2: True})
    at(s, 2, "open_betting", {"check"})  # P2 is out; P1 has no chips, so nobody can open
    apply(s, "check")
    at(s, 0, "open_betting", {"check"})
    apply(s, "check")
    # P1 and P3 tie at 23: a pot of 1 cannot be shared, so it stays; only P3 can ante now.
    # At the end the 1 chip cannot be shared among three either: it is set aside
    assert s.finished and public_vars(s)["rounds_done"] == 1
    assert chips(s) == [0, 0, 10] and public_vars(s)["pot"] == 1
    assert outcome(s).winners == (2,)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_betting_whole_matches_keep_every_chip(players):
    for s, _ in random_games(rules("sama-betting"), players, 3, random.Random(players)):
        assert sum(outcome(s).scores) + public_vars(s)["pot"] == 30 * players
        assert public_vars(s)["pot"] < players
        assert s.decisions <= 600
