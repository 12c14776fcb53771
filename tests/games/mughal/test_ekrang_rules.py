"""Scenario tests for Ekrang (seed 003, the Mughal rule book) and its variants: one small
position per rule, with the exact set of legal moves and exactly what happens after each move.

Positions are built with `engine.position`: cards not placed stay in the `stock`, which for
Ekrang means "out of play". Seats are 0-based (P1 = seat 0) and play runs in seat order."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import family_loader

from interpreter.engine import apply, cards_in, fired_counts, new_game, outcome, position, public_vars
from interpreter.errors import IllegalMoveError, OptionError
from scenario import at, legal, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"


# ------------------------------------------------------------------ helpers

rules = family_loader(RULESETS, "ekrang")


def setup(hands, *, leader=0, phase="rounds", game="ekrang", tricks=None, options=None, led_suit=None):
    zones = {"hand": dict(enumerate(hands))}
    vars = {}
    if phase == "rounds":
        vars["leader"] = leader
        if led_suit:
            vars["led_suit"] = led_suit
    if tricks:
        vars["tricks"] = dict(enumerate(tricks))
    return position(rules(game), len(hands), phase, zones=zones, vars=vars, options=options)


def hands_of(s) -> list[list[str]]:
    return [cards_in(s, "hand", p) for p in range(s.n_players)]


def tricks(s) -> list[int]:
    return list(public_vars(s)["tricks"].values())


def leader(s) -> str:
    return public_vars(s)["leader"]


# ------------------------------------------------------------------ 1. the deal

@pytest.mark.parametrize("players, per_hand", [(2, 48), (3, 32), (4, 24)])
def test_the_whole_pack_is_dealt_evenly(players, per_hand):
    s = new_game(rules(), players, seed=4)
    assert cards_in(s, "stock") == []
    assert cards_in(s, "trick") == ["Raja-Surya"]  # the opener has laid the leading Raja
    opener = int(leader(s)[1:]) - 1
    assert [len(h) + (p == opener) for p, h in enumerate(hands_of(s))] == [per_hand] * players
    assert s.rule == "leading_raja" and s.actor == opener
    # the opener is offered exactly the cards of 8 or higher in their hand
    eight_up = {"8", "9", "10", "Vizier", "Raja"}
    expected = {f"add {c}" for c in hands_of(s)[opener] if c.split("-")[0] in eight_up}
    assert legal(s) == expected


def test_ekrang_is_for_two_to_four_players():
    for n in (1, 5):
        with pytest.raises(OptionError):
            new_game(rules(), n)


# ------------------------------------------------------------------ 2. the leading Raja

OPENING = [
    ["Raja-Surya", "8-Barat", "7-Phul", "Vizier-Cheng"],
    ["9-Phul", "3-Cheng", "8-Cheng", "Raja-Chandra"],
    ["8-Ghulam", "10-Shamsher", "Raja-Ghulam", "9-Cheng"],
]


def test_by_day_the_holder_of_raja_surya_opens_with_a_card_of_8_or_higher():
    s = setup(OPENING, phase="opening")
    assert cards_in(s, "trick") == ["Raja-Surya"] and leader(s) == "P1"
    at(s, 0, "leading_raja", {"add 8-Barat", "add Vizier-Cheng"})  # not the 7
    with pytest.raises(IllegalMoveError):
        apply(s, "add 7-Phul")
    play(s, "add 8-Barat")
    assert cards_in(s, "trick") == ["Raja-Surya", "8-Barat"]
    assert public_vars(s)["second_card"] == "8-Barat"


def test_by_night_the_holder_of_raja_chandra_opens():
    s = setup(OPENING, phase="opening", options={"time": "night"})
    assert cards_in(s, "trick") == ["Raja-Chandra"] and leader(s) == "P2"
    at(s, 1, "leading_raja", {"add 9-Phul", "add 8-Cheng"})
    play(s, "add 9-Phul")
    # the gifts go round in turn after the opener: P3, then P1
    at(s, 2, "opening_gifts", {"give 8-Ghulam"})
    play(s, "give 8-Ghulam")
    at(s, 0, "opening_gifts", {"give 8-Barat", "give 7-Phul"})
    play(s, "give 7-Phul")
    assert cards_in(s, "won", 1) == ["Raja-Chandra", "9-Phul", "8-Ghulam", "7-Phul"]
    assert tricks(s) == [0, 1, 0]
    at(s, 1, "high_trick", {"lead 8-Cheng"})  # the top Cheng of 3 and 8


def test_night_variant_changes_only_the_default():
    s = setup(OPENING, phase="opening", game="ekrang-night")
    assert cards_in(s, "trick") == ["Raja-Chandra"] and leader(s) == "P2"
    day = setup(OPENING, phase="opening", game="ekrang-night", options={"time": "day"})
    assert cards_in(day, "trick") == ["Raja-Surya"]


def test_an_opener_without_a_card_of_8_or_higher_adds_any_card():
    hands = [["Raja-Surya", "7-Barat", "2-Phul"], ["3-Cheng", "4-Cheng", "5-Cheng"]]
    s = setup(hands, phase="opening")
    at(s, 0, "leading_raja", {"add 7-Barat", "add 2-Phul"})


# ------------------------------------------------------------------ 3. the gifts to the opener

def test_each_other_player_gives_a_lower_card_and_the_opener_takes_the_first_trick():
    s = play(setup(OPENING, phase="opening"), "add 8-Barat")
    # lower than the 8 of Barat, of any suit: only the 3 of Cheng
    at(s, 1, "opening_gifts", {"give 3-Cheng"})
    play(s, "give 3-Cheng")
    # P3 has nothing lower than an 8 (8-Ghulam ranks level with it): any card
    at(s, 2, "opening_gifts", {"give 8-Ghulam", "give 10-Shamsher", "give Raja-Ghulam", "give 9-Cheng"})
    play(s, "give 9-Cheng")
    assert cards_in(s, "won", 0) == ["Raja-Surya", "8-Barat", "3-Cheng", "9-Cheng"]
    assert cards_in(s, "trick") == []
    assert tricks(s) == [1, 0, 0]  # one trick, however many cards
    assert leader(s) == "P1"
    at(s, 0, "high_trick", {"lead 7-Phul", "lead Vizier-Cheng"})


def test_gifts_compare_ranks_across_suits_against_a_high_second_card():
    s = play(setup(OPENING, phase="opening"), "add Vizier-Cheng")
    at(s, 1, "opening_gifts", {"give 9-Phul", "give 3-Cheng", "give 8-Cheng"})
    play(s, "give 8-Cheng")
    at(s, 2, "opening_gifts", {"give 8-Ghulam", "give 10-Shamsher", "give 9-Cheng"})


def test_tricks_taken_are_face_down():
    s = play(setup(OPENING, phase="opening"), "add 8-Barat", "give 3-Cheng", "give 9-Cheng")
    from interpreter.engine import observe
    for viewer in range(3):
        assert observe(s, viewer)["zones"]["won"]["P1"] == {"count": 4, "known": []}


# ------------------------------------------------------------------ 4-5. a round: the high and the low trick

ROUND = [
    ["Raja-Barat", "3-Barat", "5-Phul", "2-Cheng"],
    ["10-Barat", "7-Barat", "2-Phul", "Vizier-Cheng"],
    ["4-Cheng", "6-Cheng", "9-Phul", "1-Surya"],
]


def test_high_trick_highest_of_a_chosen_suit_and_following_suit():
    s = setup(ROUND)
    at(s, 0, "high_trick", {"lead Raja-Barat", "lead 5-Phul", "lead 2-Cheng"})  # never 3-Barat
    with pytest.raises(IllegalMoveError):
        apply(s, "lead 3-Barat")
    play(s, "lead Raja-Barat")
    at(s, 1, "high_trick", {"play 10-Barat", "play 7-Barat"})  # must follow suit
    play(s, "play 10-Barat")
    at(s, 2, "high_trick", {"play 4-Cheng", "play 6-Cheng", "play 9-Phul", "play 1-Surya"})  # no Barat
    play(s, "play 9-Phul")
    assert cards_in(s, "won", 0) == ["Raja-Barat", "10-Barat", "9-Phul"]
    assert tricks(s) == [1, 0, 0] and leader(s) == "P1"
    # the low trick follows at once: P1's lowest Barat is laid automatically
    assert cards_in(s, "trick") == ["3-Barat"]
    at(s, 1, "low_trick", {"play 7-Barat", "play 2-Phul", "play Vizier-Cheng"})


def test_low_trick_only_a_higher_card_of_the_suit_wins():
    s = play(setup(ROUND), "lead Raja-Barat", "play 10-Barat", "play 9-Phul")
    play(s, "play 7-Barat")
    at(s, 2, "low_trick", {"play 4-Cheng", "play 6-Cheng", "play 1-Surya"})
    play(s, "play 6-Cheng")
    assert cards_in(s, "won", 1) == ["3-Barat", "7-Barat", "6-Cheng"]
    assert tricks(s) == [1, 1, 0] and leader(s) == "P2"
    # a new round: P2 leads the highest card of a suit
    at(s, 1, "high_trick", {"lead 2-Phul", "lead Vizier-Cheng"})


def test_low_trick_a_high_card_of_another_suit_does_not_win():
    s = play(setup(ROUND), "lead Raja-Barat", "play 10-Barat", "play 9-Phul")
    play(s, "play Vizier-Cheng", "play 1-Surya")
    assert cards_in(s, "won", 0) == ["Raja-Barat", "10-Barat", "9-Phul", "3-Barat", "Vizier-Cheng", "1-Surya"]
    assert tricks(s) == [2, 0, 0] and leader(s) == "P1"
    at(s, 0, "high_trick", {"lead 5-Phul", "lead 2-Cheng"})


def test_low_trick_is_skipped_when_the_winner_has_no_card_of_the_suit():
    s = play(setup(ROUND), "lead 5-Phul")
    at(s, 1, "high_trick", {"play 2-Phul"})
    play(s, "play 2-Phul")
    at(s, 2, "high_trick", {"play 9-Phul"})
    play(s, "play 9-Phul")
    # P3 wins with the 9 and holds no other Phul: straight into the next high trick
    assert cards_in(s, "won", 2) == ["5-Phul", "2-Phul", "9-Phul"] and cards_in(s, "trick") == []
    assert tricks(s) == [0, 0, 1]
    at(s, 2, "high_trick", {"lead 6-Cheng", "lead 1-Surya"})
    assert fired_counts(s)["low_trick"] == 0


def test_highest_overall_option_forces_the_top_ranked_card():
    hands = [["Raja-Barat", "Raja-Phul", "9-Cheng", "2-Cheng"], ["3-Barat", "4-Phul", "5-Cheng", "6-Cheng"]]
    at(setup(hands), 0, "high_trick", {"lead Raja-Barat", "lead Raja-Phul", "lead 9-Cheng"})
    s = setup(hands, options={"highest_overall": True})
    at(s, 0, "high_trick", {"lead Raja-Barat", "lead Raja-Phul"})


# ------------------------------------------------------------------ 6-7. uneven hands and the end

def test_an_empty_handed_winner_passes_the_lead_and_play_ends_with_one_holder():
    # the opener (P1) is one card short, as after a real opening
    hands = [["Vizier-Phul"], ["3-Phul", "4-Cheng"], ["5-Barat", "6-Barat"]]
    s = setup(hands, tricks=[3, 2, 1])
    at(s, 0, "high_trick", {"lead Vizier-Phul"})
    play(s, "lead Vizier-Phul", "play 3-Phul")
    at(s, 2, "high_trick", {"play 5-Barat", "play 6-Barat"})
    play(s, "play 5-Barat")
    # P1 wins with the last card: no low trick, and P1 cannot lead
    assert tricks(s) == [4, 2, 1]
    assert leader(s) == "P2" and fired_counts(s)["empty_lead"] == 1
    at(s, 1, "high_trick", {"lead 4-Cheng"})
    play(s, "lead 4-Cheng")
    at(s, 2, "high_trick", {"play 6-Barat"})
    play(s, "play 6-Barat")
    assert s.finished and fired_counts(s)["end"] == 1
    assert outcome(s).scores == (4, 3, 1) and outcome(s).winners == (0,)


def test_play_stops_when_fewer_than_two_players_hold_cards():
    hands = [["Vizier-Phul"], ["3-Phul", "4-Cheng"]]
    s = setup(hands, tricks=[5, 5])
    play(s, "lead Vizier-Phul", "play 3-Phul")
    # P2's last card is never played
    assert s.finished and cards_in(s, "hand", 1) == ["4-Cheng"]
    assert outcome(s).winners == (0,) and outcome(s).scores == (6, 5)


def test_tied_players_share_the_win():
    hands = [["Vizier-Phul", "2-Barat"], ["3-Phul", "4-Barat"]]
    s = setup(hands, tricks=[1, 1])
    play(s, "lead Vizier-Phul", "play 3-Phul")
    assert cards_in(s, "trick") == []  # P1 has no other Phul: no low trick
    play(s, "lead 2-Barat", "play 4-Barat")
    # P2 wins the last trick: 2 each
    assert s.finished and outcome(s).scores == (2, 2) and outcome(s).winners == (0, 1)


# ------------------------------------------------------------------ 8. suit-dependent ranking

def test_inverted_ranking_eight_or_higher_follows_the_suit():
    hands = [["Raja-Surya", "8-Kumancha", "3-Kumancha", "9-Kumancha", "10-Phul"], ["2-Ghulam", "3-Ghulam", "4-Ghulam", "5-Ghulam"]]
    base = setup(hands, phase="opening")
    at(base, 0, "leading_raja", {"add 8-Kumancha", "add 9-Kumancha", "add 10-Phul"})
    s = setup(hands, phase="opening", game="ekrang-inverted")
    # in Kumancha the numerals run 1 (high) to 10 (low): the 3 qualifies, the 9 does not
    at(s, 0, "leading_raja", {"add 8-Kumancha", "add 3-Kumancha", "add 10-Phul"})


def test_inverted_ranking_changes_the_high_and_low_cards_of_a_suit():
    hands = [["10-Cheng", "2-Cheng", "6-Cheng"], ["1-Cheng", "4-Phul", "5-Phul"], ["9-Cheng", "3-Phul", "7-Phul"]]
    s = setup(hands, game="ekrang-inverted")
    at(s, 0, "high_trick", {"lead 2-Cheng"})  # the 2 is the top Cheng held
    play(s, "lead 2-Cheng", "play 1-Cheng", "play 9-Cheng")
    assert cards_in(s, "won", 1) == ["2-Cheng", "1-Cheng", "9-Cheng"] and leader(s) == "P2"
    assert fired_counts(s)["low_trick"] == 0  # P2 has no Cheng left
    base = setup(hands)
    at(base, 0, "high_trick", {"lead 10-Cheng"})
    play(base, "lead 10-Cheng", "play 1-Cheng", "play 9-Cheng")
    # P1 wins and leads the lowest Cheng, the 2, to the low trick
    assert cards_in(base, "trick") == ["2-Cheng"] and base.rule == "low_trick"


def test_inverted_variant_lists_the_four_inverted_suits():
    from interpreter.render import render_markdown
    md = render_markdown(rules("ekrang-inverted"))
    for suit in ("Surya", "Barat", "Kumancha", "Cheng"):
        assert f"| {suit} | 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, Vizier, Raja |" in md
    for suit in ("Chandra", "Phul", "Ghulam", "Shamsher"):
        assert f"| {suit} | 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, Vizier, Raja |" in md
