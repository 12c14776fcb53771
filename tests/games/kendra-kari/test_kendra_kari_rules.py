"""Scenario tests for Kendra Kari (seed 001) and its nine-card-limit variant: one small position
per rule, with the exact set of legal moves and exactly what happens after each move.

The table is the zone family `position`: positions 1 to 6 form the ring and position 7 is the
centre. The `setup` helper below builds a position with `engine.position` and starts play at
the beginning of the phase `play`. Seats are 0-based (P1 = seat 0) and play runs in seat order.
Drawing and passing are automatic (a player who cannot play has nothing to decide), so after a
move the next decision may belong to a later player."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import family_loader

from interpreter import engine
from interpreter.engine import (apply, cards_in, fired_counts, legal_moves, new_game, outcome, position,
                                public_vars)
from interpreter.errors import IllegalMoveError
from scenario import at, legal, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "kendra-kari"


# ------------------------------------------------------------------ helpers

rules = family_loader(RULESETS, "kendra-kari")


def setup(hands, table, *, latest=7, to_move=0, stock=None, ninth=None, game="kendra-kari", options=None):
    """A position at the start of the play phase.

    `hands[seat]` is that seat's hand; `table` maps a position number (1-7) to its cards, bottom
    first; `latest` is the position of the most recently played card. With `stock=None` every
    card not placed stays in the stock; with a list, exactly those cards form the stock (the
    last one on top) and every other card is already out of play."""
    zones = {"hand": dict(enumerate(hands)), "position": dict(table)}
    if stock is not None:
        zones["stock"] = stock
    vars = {"player_to_move": to_move, "latest_position": ("position", latest)}
    if ninth is not None:
        vars["ninth_card_taker"] = ninth
    return position(rules(game), len(hands), "play", zones=zones, vars=vars, options=options,
                    rest=None if stock is None else "out")


def table(s) -> dict[int, list[str]]:
    """Every position that holds cards: {number: cards, bottom first}."""
    return {k: cards_in(s, "position", k) for k in range(1, 8) if cards_in(s, "position", k)}


def hands_of(s) -> list[list[str]]:
    return [cards_in(s, "hand", seat) for seat in range(s.n_players)]


def latest(s) -> str:
    return public_vars(s)["latest_position"]


def won_by(s, *seats: int) -> None:
    assert s.finished and s.rule is None and legal(s) == set()
    assert outcome(s).winners == seats


# ------------------------------------------------------------------ 1. the deal

@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deal_six_each_one_face_up_on_the_centre(players, seed):
    s = new_game(rules(), players, seed=seed)
    # the centre card is face up for everyone; nothing else is on the table yet
    centre = cards_in(s, "position", 7)
    assert len(centre) == 1 and set(table(s)) == {7}
    assert engine.observe(s, 0)["zones"]["position"]["7"]["cards"] == centre
    assert latest(s) == "position7"
    # players before the first one able to play have drawn one card each, automatically
    first = s.actor
    assert [len(h) for h in hands_of(s)] == [7 if seat < first else 6 for seat in range(players)]
    assert len(cards_in(s, "stock")) == 96 - 6 * players - 1 - first
    assert fired_counts(s)["draw"] == first
    c = centre[0]
    rank, suit = c.split("-")
    assert s.rule == "follow" and legal(s) == {
        f"play {h}" for h in hands_of(s)[first] if h.split("-")[0] == rank or h.split("-")[1] == suit}
    every = [card for h in hands_of(s) for card in h] + centre + cards_in(s, "stock")
    assert sorted(every) == sorted(s.program.card_names)


def test_deal_is_determined_by_the_seed():
    a, b, c = (new_game(rules(), 4, seed=seed) for seed in (11, 11, 12))
    assert hands_of(a) == hands_of(b) and table(a) == table(b)
    assert hands_of(a) != hands_of(c)


# ------------------------------------------------------------------ 2. following the latest card

HANDS_3 = [["5-Chandra", "9-Surya", "3-Barat", "Raja-Phul"], ["9-Barat", "2-Ghulam"], ["Mantri-Cheng", "4-Cheng"]]


def test_the_first_card_follows_the_centre_by_suit_or_rank_on_position_1():
    s = setup(HANDS_3, {7: ["5-Surya"]})
    at(s, 0, "follow", {"play 5-Chandra", "play 9-Surya"})  # no bridge from the centre
    play(s, "play 9-Surya")
    assert table(s) == {7: ["5-Surya"], 1: ["9-Surya"]} and latest(s) == "position1"
    assert hands_of(s)[0] == ["5-Chandra", "3-Barat", "Raja-Phul"]
    # the next player follows the card just played, on position 2
    at(s, 1, "follow", {"play 9-Barat"})
    play(s, "play 9-Barat")
    assert table(s)[2] == ["9-Barat"] and latest(s) == "position2"
    # P3 cannot follow 9-Barat and draws; P1 follows it with 3-Barat, on position 3
    assert len(hands_of(s)[2]) == 3 and fired_counts(s)["draw"] == 1
    at(s, 0, "follow", {"play 3-Barat"})
    play(s, "play 3-Barat")
    assert table(s)[3] == ["3-Barat"] and latest(s) == "position3"


def test_a_card_that_does_not_match_is_refused():
    s = setup(HANDS_3, {7: ["5-Surya"]})
    with pytest.raises(IllegalMoveError):
        apply(s, "play 3-Barat")
    with pytest.raises(IllegalMoveError):
        apply(s, "bridge 5-Chandra")


RING = {7: ["1-Surya"], 1: ["1-Chandra"], 2: ["2-Chandra"], 3: ["2-Barat"], 4: ["3-Barat"],
        5: ["3-Phul"], 6: ["4-Phul"]}


def test_after_position_6_play_goes_round_to_position_1_on_top_of_its_card():
    s = setup([["4-Kumancha", "8-Ghulam"], ["4-Cheng", "Mantri-Shamsher"], ["Raja-Shamsher"]], RING, latest=6)
    at(s, 0, "follow", {"play 4-Kumancha"})
    play(s, "play 4-Kumancha")
    assert table(s)[1] == ["1-Chandra", "4-Kumancha"] and latest(s) == "position1"
    at(s, 1, "follow", {"play 4-Cheng"})
    play(s, "play 4-Cheng")
    assert table(s)[2] == ["2-Chandra", "4-Cheng"] and latest(s) == "position2"


def test_a_player_able_to_play_must_play():
    # one matching card among many: it is the only move; there is no drawing instead
    s = setup([["9-Cheng", "Raja-Phul", "2-Kumancha", "10-Ghulam"], ["9-Barat"], ["9-Phul"]], {7: ["9-Surya"]})
    at(s, 0, "follow", {"play 9-Cheng"})
    assert len(cards_in(s, "stock")) == 96 - 7


# ------------------------------------------------------------------ 3. drawing and passing

def test_a_player_who_cannot_play_draws_one_card_and_the_turn_passes():
    s = setup([["2-Phul", "3-Ghulam"], ["8-Cheng"], ["Raja-Barat"]], {7: ["8-Surya"]},
              stock=["Mantri-Barat", "Raja-Cheng", "10-Surya"])
    # P1 cannot follow 8-Surya: the top card of the stock (10-Surya) goes to P1's hand, even
    # though it could be played, and P2 has the turn
    assert hands_of(s)[0] == ["2-Phul", "3-Ghulam", "10-Surya"]
    assert cards_in(s, "stock") == ["Mantri-Barat", "Raja-Cheng"]
    assert fired_counts(s)["draw"] == 1 and public_vars(s, private=True)["passes_in_a_row"] == 0
    at(s, 1, "follow", {"play 8-Cheng"})
    assert table(s) == {7: ["8-Surya"]}


def test_there_is_no_hand_limit_in_the_base_game():
    nine = ["1-Chandra", "2-Chandra", "3-Chandra", "4-Chandra", "6-Chandra", "7-Chandra",
            "9-Chandra", "10-Chandra", "Raja-Chandra"]
    s = setup([nine, ["8-Cheng"], ["Raja-Barat"]], {7: ["8-Surya"]}, stock=["5-Phul"])
    assert len(hands_of(s)[0]) == 10 and cards_in(s, "stock") == []
    at(s, 1, "follow", {"play 8-Cheng"})


def test_with_the_stock_empty_a_player_who_cannot_play_passes():
    s = setup([["2-Phul"], ["8-Cheng", "Raja-Cheng"], ["Raja-Ghulam"]], {7: ["8-Surya"]}, stock=[])
    assert hands_of(s)[0] == ["2-Phul"]
    assert fired_counts(s)["empty_stock"] == 1
    # the count of passes in a row starts again whenever a player can play
    at(s, 1, "follow", {"play 8-Cheng"})
    assert public_vars(s, private=True)["passes_in_a_row"] == 0
    play(s, "play 8-Cheng")
    # P3 and P1 cannot follow 8-Cheng and pass; P2 follows it again
    assert fired_counts(s)["empty_stock"] == 3 and fired_counts(s)["blocked"] == 0
    assert hands_of(s)[0] == ["2-Phul"] and hands_of(s)[2] == ["Raja-Ghulam"]
    at(s, 1, "follow", {"play Raja-Cheng"})


def test_a_blocked_game_ends_and_the_fewest_cards_win():
    s = setup([["2-Phul", "3-Phul", "4-Phul"], ["2-Ghulam", "3-Ghulam"], ["2-Cheng", "3-Cheng"]],
              {7: ["8-Surya"]}, stock=[])
    # nobody can follow 8-Surya and nobody can draw: after everyone has passed, the game ends
    assert fired_counts(s)["empty_stock"] == 3 and fired_counts(s)["blocked"] == 1
    won_by(s, 1, 2)
    assert outcome(s).scores == (3, 2, 2)


# ------------------------------------------------------------------ 4. bridges

def ring_with(k: int) -> dict[int, list[str]]:
    """7-Surya is the latest card, on position k; 7-Chandra lies across the ring from it."""
    other = iter(["Mantri-Kumancha", "Mantri-Ghulam", "Mantri-Cheng", "Mantri-Shamsher"])
    opp = k + 3 if k <= 3 else k - 3
    t = {7: ["10-Phul"]}
    for n in range(1, 7):
        t[n] = ["7-Surya"] if n == k else ["7-Chandra"] if n == opp else [next(other)]
    return t


@pytest.mark.parametrize("k, across", [(1, 4), (2, 5), (3, 6), (4, 1), (5, 2), (6, 3)])
def test_a_bridge_needs_a_match_with_the_latest_card_and_the_card_across_the_ring(k, across):
    t = ring_with(k)
    assert t[across] == ["7-Chandra"]
    # 7-Barat matches both; 9-Surya and Mantri-Surya match the latest card only (Mantri-Surya
    # matches the positions beside the opposite one, which does not count); 9-Chandra matches
    # only the card across, so it cannot even be played
    s = setup([["7-Barat", "9-Surya", "9-Chandra", "Mantri-Surya"], ["2-Ghulam"], ["2-Cheng"]], t, latest=k)
    at(s, 0, "follow", {"play 7-Barat", "bridge 7-Barat", "play 9-Surya", "play Mantri-Surya"})


@pytest.mark.parametrize("t, k", [
    ({7: ["7-Surya"]}, 7),                                     # the latest card is the centre
    ({7: ["10-Phul"], 1: ["7-Chandra"], 2: ["7-Surya"]}, 2),   # position 5, across, is empty
])
def test_no_bridge_without_a_card_across_the_ring(t, k):
    s = setup([["7-Barat", "2-Phul"], ["2-Ghulam"], ["2-Cheng"]], t, latest=k)
    at(s, 0, "follow", {"play 7-Barat"})


TABLE_3 = {7: ["10-Phul"], 1: ["7-Chandra"], 2: ["8-Chandra"], 3: ["8-Surya"]}
BRIDGE_HANDS = [["7-Surya", "7-Barat", "Raja-Surya", "2-Phul"], ["7-Kumancha", "Raja-Ghulam"], ["2-Cheng"]]


def test_a_bridge_may_follow_at_once_a_normal_play():
    s = setup(BRIDGE_HANDS, TABLE_3, latest=3)
    # 8-Surya on position 3 faces the empty position 6: no bridge yet
    at(s, 0, "follow", {"play 7-Surya", "play Raja-Surya"})
    play(s, "play 7-Surya")
    # 7-Surya went on position 4, across from 7-Chandra: 7-Barat matches both
    assert table(s)[4] == ["7-Surya"] and latest(s) == "position4"
    at(s, 0, "bridge_after", {"bridge 7-Barat", "stop"})


def test_the_bridge_after_a_normal_play_may_be_declined():
    s = play(setup(BRIDGE_HANDS, TABLE_3, latest=3), "play 7-Surya", "stop")
    assert hands_of(s)[0] == ["7-Barat", "Raja-Surya", "2-Phul"]
    # the next player may bridge directly: building a bridge is a play of its own
    at(s, 1, "follow", {"play 7-Kumancha", "bridge 7-Kumancha"})


def test_building_a_bridge_clears_the_table_and_the_builder_starts_afresh():
    s = play(setup(BRIDGE_HANDS, TABLE_3, latest=3), "play 7-Surya", "bridge 7-Barat")
    # every card on the table, the bridge card too, is out of play; the stock is untouched
    assert table(s) == {}
    assert sorted(cards_in(s, "out")) == sorted(["10-Phul", "7-Chandra", "8-Chandra", "8-Surya",
                                                 "7-Surya", "7-Barat"])
    assert len(cards_in(s, "stock")) == 96 - 7 - 4
    assert fired_counts(s)["clear"] == 1
    # two cards left that share neither suit nor rank: no win; the builder lays any card on the centre
    at(s, 0, "restart", {"centre Raja-Surya", "centre 2-Phul"})
    play(s, "centre 2-Phul")
    # Raja-Surya does not match 2-Phul, so nothing goes on position 1 and the turn passes:
    # the centre card is now the latest card, and P2 plays on position 1 to match it
    assert table(s) == {7: ["2-Phul"]} and latest(s) == "position7"
    assert s.actor == 2 and fired_counts(s)["draw"] == 1  # P2 could not follow 2-Phul and drew
    assert len(hands_of(s)[1]) == 3


def test_starting_afresh_plays_a_matching_card_on_position_1_when_able():
    hands = [["7-Barat", "9-Surya", "9-Chandra", "3-Phul"], ["2-Chandra", "Raja-Ghulam"], ["3-Cheng"]]
    s = setup(hands, {**TABLE_3, 4: ["7-Surya"]}, latest=4)
    at(s, 0, "follow", {"play 7-Barat", "bridge 7-Barat", "play 9-Surya"})
    play(s, "bridge 7-Barat")
    at(s, 0, "restart", {"centre 9-Surya", "centre 9-Chandra", "centre 3-Phul"})
    play(s, "centre 9-Surya")
    # a second card is compulsory when one matches the new centre card
    at(s, 0, "restart", {"play 9-Chandra"})
    play(s, "play 9-Chandra")
    assert table(s) == {7: ["9-Surya"], 1: ["9-Chandra"]} and latest(s) == "position1"
    # normal play resumes with the next player, who follows the card on position 1
    at(s, 1, "follow", {"play 2-Chandra"})


def test_after_a_restart_with_the_centre_only_the_next_card_matches_the_centre():
    hands = [["7-Barat", "9-Surya", "9-Chandra", "3-Phul"], ["3-Cheng", "Raja-Ghulam"], ["3-Kumancha"]]
    s = play(setup(hands, {**TABLE_3, 4: ["7-Surya"]}, latest=4), "bridge 7-Barat", "centre 3-Phul")
    assert table(s) == {7: ["3-Phul"]} and latest(s) == "position7"
    at(s, 1, "follow", {"play 3-Cheng"})
    play(s, "play 3-Cheng")
    assert table(s) == {7: ["3-Phul"], 1: ["3-Cheng"]}


# ------------------------------------------------------------------ 5. going out

def test_going_out_in_normal_play():
    s = setup([["9-Surya"], ["8-Cheng", "2-Ghulam"], ["Raja-Barat"]], TABLE_3, latest=3)
    at(s, 0, "follow", {"play 9-Surya"})
    play(s, "play 9-Surya")
    won_by(s, 0)
    assert fired_counts(s)["out_in_play"] == 1 and outcome(s).scores == (0, 2, 1)


@pytest.mark.parametrize("move, rule", [("bridge 7-Barat", "bridge_last_card"), ("play 7-Barat", "out_in_play")])
def test_going_out_with_the_last_card_as_a_bridge_or_as_a_play(move, rule):
    s = setup([["7-Barat"], ["8-Cheng"], ["Raja-Barat"]], {**TABLE_3, 4: ["7-Surya"]}, latest=4)
    at(s, 0, "follow", {"play 7-Barat", "bridge 7-Barat"})
    play(s, move)
    won_by(s, 0)
    assert fired_counts(s)[rule] == 1


def test_a_bridge_with_one_card_left_wins():
    # P2 also holds one card, but the builder wins alone
    s = setup([["7-Barat", "Raja-Ghulam"], ["8-Cheng"], ["Raja-Barat", "2-Phul"]],
              {**TABLE_3, 4: ["7-Surya"]}, latest=4)
    play(s, "bridge 7-Barat")
    won_by(s, 0)
    assert fired_counts(s)["bridge_one_left"] == 1 and outcome(s).scores == (1, 1, 2)
    assert table(s) == {}


@pytest.mark.parametrize("pair", [["Raja-Ghulam", "4-Ghulam"], ["Raja-Ghulam", "Raja-Cheng"]])
def test_a_bridge_with_two_cards_left_sharing_suit_or_rank_wins(pair):
    s = setup([["7-Barat", *pair], ["8-Cheng"], ["Raja-Barat"]], {**TABLE_3, 4: ["7-Surya"]}, latest=4)
    play(s, "bridge 7-Barat")
    won_by(s, 0)
    assert fired_counts(s)["bridge_two_left"] == 1 and fired_counts(s)["restart"] == 0


def test_a_bridge_with_two_unrelated_cards_left_does_not_win():
    s = setup([["7-Barat", "Raja-Ghulam", "4-Cheng"], ["8-Cheng"], ["Raja-Barat"]],
              {**TABLE_3, 4: ["7-Surya"]}, latest=4)
    play(s, "bridge 7-Barat")
    at(s, 0, "restart", {"centre Raja-Ghulam", "centre 4-Cheng"})
    assert fired_counts(s)["bridge_two_left"] == 0


# ------------------------------------------------------------------ 6. the nine-card limit

NINE = {
    "P1": ["1-Chandra", "2-Chandra", "3-Chandra", "4-Chandra", "6-Chandra", "7-Chandra", "8-Chandra", "9-Chandra", "10-Chandra"],
    "P2": ["1-Barat", "2-Barat", "3-Barat", "4-Barat", "6-Barat", "7-Barat", "8-Barat", "9-Barat", "10-Barat"],
    "P3": ["1-Phul", "2-Phul", "3-Phul", "4-Phul", "6-Phul", "7-Phul", "8-Phul", "9-Phul", "Raja-Cheng"],
}


def test_limit_a_player_holding_nine_cards_passes_instead_of_drawing():
    s = setup([NINE["P1"], ["5-Cheng"], ["Raja-Barat"]], {7: ["5-Surya"]}, stock=["Raja-Shamsher"],
              game="nine-card-limit")
    assert len(hands_of(s)[0]) == 9 and cards_in(s, "stock") == ["Raja-Shamsher"]
    assert fired_counts(s)["draw"] == 1 and "ninth_card_taker" in public_vars(s)
    assert public_vars(s)["ninth_card_taker"] is None
    at(s, 1, "follow", {"play 5-Cheng"})


def test_limit_drawing_up_to_nine_records_who_took_a_ninth_card():
    s = setup([NINE["P1"][:8], ["5-Cheng"], ["Raja-Barat"]], {7: ["5-Surya"]}, stock=["Raja-Shamsher"],
              game="nine-card-limit")
    assert hands_of(s)[0][-1] == "Raja-Shamsher" and len(hands_of(s)[0]) == 9
    assert public_vars(s)["ninth_card_taker"] == "P1" and public_vars(s, private=True)["passes_in_a_row"] == 0
    at(s, 1, "follow", {"play 5-Cheng"})


def test_limit_everyone_stuck_at_nine_turn_up_cards_until_one_can_be_played():
    s = setup([NINE["P1"], NINE["P2"], NINE["P3"]], {7: ["5-Surya"]}, ninth=1, game="nine-card-limit",
              stock=["Raja-Shamsher", "5-Cheng", "Mantri-Ghulam", "2-Kumancha"])
    # all three pass; then P2, who took a ninth card last, turns up 2-Kumancha and Mantri-Ghulam
    # (out of play: neither follows 5-Surya) and then 5-Cheng, which must be played
    assert fired_counts(s)["blocked"] == 1 and fired_counts(s)["turn_up"] == 1
    assert cards_in(s, "turned") == ["5-Cheng"] and cards_in(s, "stock") == ["Raja-Shamsher"]
    assert cards_in(s, "out")[-2:] == ["2-Kumancha", "Mantri-Ghulam"]
    at(s, 1, "turn_up", {"play 5-Cheng"})
    play(s, "play 5-Cheng")
    assert table(s) == {7: ["5-Surya"], 1: ["5-Cheng"]} and cards_in(s, "turned") == []
    assert [len(h) for h in hands_of(s)] == [9, 9, 9] and public_vars(s, private=True)["passes_in_a_row"] == 0
    # play goes on with the player after P2
    at(s, 2, "follow", {"play Raja-Cheng"})


def test_limit_the_turned_up_card_may_build_a_bridge():
    nine = [[f"{r}-{suit}" for r in ["1", "2", "3", "4", "5", "6", "8", "9", "10"]]
            for suit in ("Kumancha", "Ghulam", "Cheng")]
    s = setup(nine, {**TABLE_3, 4: ["7-Surya"]}, latest=4, ninth=0, stock=["7-Barat"], game="nine-card-limit")
    # P1 took a ninth card last: the turned-up 7-Barat matches 7-Surya and 7-Chandra across from it
    at(s, 0, "turn_up", {"play 7-Barat", "bridge 7-Barat"})
    play(s, "bridge 7-Barat")
    assert table(s) == {} and "7-Barat" in cards_in(s, "out") and cards_in(s, "turned") == []
    at(s, 0, "restart", {f"centre {c}" for c in nine[0]})


def test_limit_the_stock_runs_out_while_turning_up():
    s = setup([NINE["P1"], NINE["P2"], NINE["P3"]], {7: ["5-Surya"]}, ninth=2, game="nine-card-limit",
              stock=["Mantri-Ghulam", "2-Kumancha"])
    assert cards_in(s, "stock") == [] and cards_in(s, "turned") == []
    won_by(s, 0, 1, 2)


# ------------------------------------------------------------------ 7. whole games

@pytest.mark.parametrize("game", ["kendra-kari", "nine-card-limit"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end_within_the_declared_bound(game, players):
    bound = rules(game).max_decisions
    for seed in range(8):
        s = new_game(rules(game), players, seed=seed)
        rng = random.Random(seed)
        decisions = 0
        while not s.finished:
            moves = legal_moves(s)
            assert moves, "stuck without a legal move"
            apply(s, rng.choice(moves))
            decisions += 1
        assert decisions <= bound
        o = outcome(s)
        assert o.winners
        if fired_counts(s)["blocked"] == 0:  # someone went out
            assert len(o.winners) == 1 and o.scores[o.winners[0]] <= 2


def test_limit_with_the_stock_empty_a_blocked_game_still_just_ends():
    s = setup([NINE["P1"], NINE["P2"], NINE["P3"][:8]], {7: ["5-Surya"]}, ninth=0, stock=[],
              game="nine-card-limit")
    assert fired_counts(s)["blocked"] == 1 and fired_counts(s)["turn_up"] == 0
    won_by(s, 2)
    assert outcome(s).scores == (9, 9, 8)


@pytest.mark.parametrize("game", ["kendra-kari", "nine-card-limit"])
def test_option_a_blocked_game_can_have_no_winner(game):
    hands = [["2-Phul", "3-Phul", "4-Phul"], ["2-Ghulam", "3-Ghulam"], ["2-Cheng", "3-Cheng"]]
    s = setup(hands, {7: ["8-Surya"]}, stock=[], game=game, options={"blocked_game": "no_winner"})
    assert s.finished and fired_counts(s)["blocked"] == 1
    assert outcome(s).winners == () and outcome(s).scores == (3, 2, 2)


def test_option_no_winner_when_the_stock_runs_out_while_turning_up():
    s = setup([NINE["P1"], NINE["P2"], NINE["P3"]], {7: ["5-Surya"]}, ninth=2, game="nine-card-limit",
              stock=["Mantri-Ghulam"], options={"blocked_game": "no_winner"})
    assert s.finished and fired_counts(s)["turn_up"] == 1 and outcome(s).winners == ()
