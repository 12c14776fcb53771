"""Scenario tests for Hamrang (seed 003, the Mughal rule book) and its variant: one small
position per rule, with the exact set of legal moves and exactly what happens after each move.

Positions in the phase `play` are built with `engine.position`: cards not placed stay in the
`stock` (out of play). The first leader is whoever owns the leading Raja, so a position after
the first trick puts that Raja in a `won` pile. The draw and the deal are tested with the
shuffle switched off, so that the order of the pack is known."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import family_loader

from interpreter.engine import (apply, card_info, cards_in, fired_counts, new_game, observe, outcome,
                               position, public_vars)
from interpreter.errors import IllegalMoveError, OptionError
from scenario import at, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"


# ------------------------------------------------------------------ helpers

rules = family_loader(RULESETS, "hamrang")


def setup(hands, *, won=None, game="hamrang", options=None):
    zones = {"hand": dict(enumerate(hands))}
    if won:
        zones["won"] = won
    return position(rules(game), 4, "play", zones=zones, options=options)


def tricks(s) -> list[int]:
    return list(public_vars(s)["tricks"].values())


def retired(s) -> list[bool]:
    """Who is out of the game, as every seat sees it."""
    out = observe(s, 0).get("out_of_play", {})
    return [out.get(f"P{i + 1}") == "game" for i in range(s.n_players)]


def dealt_to(s, seat: int) -> list[str]:
    """The cards dealt to a seat: those in her hand and those she has played since."""
    out = []
    for c in s.program.card_names:
        info = card_info(s, c)
        if (info["owner"] == seat if info["zone"] == "hand" else info["played_by"] == seat):
            out.append(c)
    return out


def drawing_position(top_cards: list[str], game="hamrang"):
    """The draw with the pack's top cards given in drawing order (P1's card first), and the
    shuffle switched off: shuffling leaves the pack as it is (the cards placed last lie on top)."""
    return position(rules(game), 4, "draw", zones={"stock": list(reversed(top_cards))}, shuffle=False)


# ------------------------------------------------------------------ 1. drawing for the deal

def test_the_highest_card_drawn_deals():
    s = drawing_position(["9-Barat", "Raja-Phul", "Vizier-Cheng", "3-Surya"])
    assert public_vars(s)["dealer"] == "P2"
    assert public_vars(s)["in_draw"] == {"P1": False, "P2": True, "P3": False, "P4": False}


def test_players_tied_for_the_highest_card_draw_again():
    s = drawing_position([
        "Raja-Phul", "Raja-Cheng", "5-Barat", "Raja-Ghulam",   # P1, P2 and P4 tie with a Raja
        "2-Cheng", "Vizier-Barat", "Vizier-Ghulam",            # P2 and P4 tie with a Vizier
        "7-Phul", "8-Phul",                                     # P4 is highest
    ])
    assert public_vars(s)["dealer"] == "P4"
    assert public_vars(s)["in_draw"] == {"P1": False, "P2": False, "P3": False, "P4": True}


def test_drawn_cards_compare_by_rank_whatever_the_suit():
    # a 10 of any suit beats a 9 of any other; the suit-dependent ranking turns the 1 into a top numeral
    top = ["1-Surya", "10-Chandra", "9-Phul", "4-Ghulam"]
    assert public_vars(drawing_position(top))["dealer"] == "P2"
    top = ["1-Surya", "9-Chandra", "9-Phul", "4-Ghulam"]
    assert public_vars(drawing_position(top, "hamrang-inverted"))["dealer"] == "P1"


# ------------------------------------------------------------------ 2. the deal

def test_the_dealer_deals_24_each_in_fours_starting_on_her_left():
    top = ["9-Barat", "Raja-Phul", "Vizier-Cheng", "3-Surya"]
    s = drawing_position(top)
    names = s.program.card_names
    # the pack after the draw: the drawn cards are back on top, P1's first
    pack = [c for c in names if c not in top] + top
    hands = {p: [] for p in range(4)}
    for _ in range(6):
        for p in (2, 3, 0, 1):  # the dealer is P2: P3 receives first
            hands[p] += pack[-4:]
            del pack[-4:]
    for p in range(4):
        assert set(dealt_to(s, p)) == set(hands[p])
    assert cards_in(s, "stock") == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_deal_gives_everyone_24_cards(seed):
    s = new_game(rules(), 4, seed=seed)
    assert cards_in(s, "stock") == [] and all(cards_in(s, "drawn", p) == [] for p in range(4))
    assert [len(dealt_to(s, p)) for p in range(4)] == [24, 24, 24, 24]


def test_hamrang_is_for_four_players():
    for n in (3, 5):
        with pytest.raises(OptionError):
            new_game(rules(), n)


# ------------------------------------------------------------------ 3. round 1 and answering

ROUND1 = [
    ["2-Cheng", "Vizier-Cheng", "5-Phul", "9-Phul"],
    ["Raja-Surya", "4-Surya", "7-Surya", "Raja-Barat"],
    ["10-Surya", "1-Surya", "6-Surya", "Vizier-Ghulam"],
    ["3-Surya", "Raja-Phul", "2-Phul", "8-Ghulam"],
]


def test_round_one_the_leading_raja_and_the_lowest_of_its_suit():
    s = setup(ROUND1)
    assert public_vars(s)["leader"] == "P2" and public_vars(s)["led_suit"] == "Surya"
    # P2 lays the Raja and her lowest Surya; P3 answers with her highest and lowest Surya;
    # P4 has only one Surya: she plays it and a substitute of her choice
    assert cards_in(s, "trick") == ["Raja-Surya", "4-Surya", "10-Surya", "1-Surya", "3-Surya"]
    at(s, 3, "answers", {"substitute Raja-Phul", "substitute 2-Phul", "substitute 8-Ghulam"})
    with pytest.raises(IllegalMoveError):
        apply(s, "substitute 3-Surya")
    play(s, "substitute 2-Phul")
    # P1 has no Surya: two substitutes, each the top or the bottom of another suit
    at(s, 0, "answers", {"substitute Vizier-Cheng", "substitute 2-Cheng", "substitute 5-Phul", "substitute 9-Phul"})
    play(s, "substitute Vizier-Cheng")
    at(s, 0, "answers", {"substitute 2-Cheng", "substitute 5-Phul", "substitute 9-Phul"})
    play(s, "substitute 9-Phul")
    assert cards_in(s, "won", 1) == ["Raja-Surya", "4-Surya", "10-Surya", "1-Surya", "3-Surya", "2-Phul",
                                     "Vizier-Cheng", "9-Phul"]
    assert tricks(s) == [0, 1, 0, 0]


def test_a_player_without_courts_is_out_and_skipped():
    s = play(setup(ROUND1), "substitute 2-Phul", "substitute Vizier-Cheng", "substitute 9-Phul")
    # P1 kept no court: out, her cards laid aside face down
    assert retired(s) == [True, False, False, False]
    assert cards_in(s, "hand", 0) == [] and cards_in(s, "laid_aside", 0) == ["2-Cheng", "5-Phul"]
    assert observe(s, 1)["zones"]["laid_aside"]["P1"] == {"count": 2, "known": []}
    # round 2: P2 must lead the top of a suit in which she holds a court
    at(s, 1, "lead", {"lead Raja-Barat"})
    play(s, "lead Raja-Barat")
    # no other Barat: the leader's second card is the lowest of another suit
    at(s, 1, "second_card", {"substitute 7-Surya"})
    play(s, "substitute 7-Surya")
    at(s, 2, "answers", {"substitute 6-Surya", "substitute Vizier-Ghulam"})
    play(s, "substitute 6-Surya", "substitute Vizier-Ghulam")
    at(s, 3, "answers", {"substitute Raja-Phul", "substitute 8-Ghulam"})
    play(s, "substitute 8-Ghulam", "substitute Raja-Phul")
    # P1 is skipped; everyone's courts are now gone, and so is the game
    assert cards_in(s, "won", 1)[-6:] == ["Raja-Barat", "7-Surya", "6-Surya", "Vizier-Ghulam", "8-Ghulam", "Raja-Phul"]
    assert s.finished and retired(s) == [True, True, True, True]
    assert outcome(s).scores == (0, 2, 0, 0) and outcome(s).winners == (1,)
    assert fired_counts(s)["end"] == 1


def test_substitutes_never_win_the_trick():
    hands = [["Vizier-Cheng", "2-Cheng"], ["Vizier-Chandra", "Raja-Phul"], ["Vizier-Ghulam", "5-Ghulam"],
             ["Vizier-Shamsher", "3-Ghulam"]]
    s = setup(hands, won={0: ["Raja-Surya"]})
    at(s, 0, "lead", {"lead Vizier-Cheng"})
    play(s, "lead Vizier-Cheng")
    at(s, 1, "answers", {"substitute Vizier-Chandra", "substitute Raja-Phul"})
    play(s, "substitute Raja-Phul", "substitute Vizier-Chandra")
    play(s, "substitute Vizier-Ghulam", "substitute 5-Ghulam", "substitute 3-Ghulam", "substitute Vizier-Shamsher")
    # Rajas of other suits do not beat the led Vizier
    assert cards_in(s, "won", 0) == ["Raja-Surya", "Vizier-Cheng", "2-Cheng", "Raja-Phul", "Vizier-Chandra",
                                     "Vizier-Ghulam", "5-Ghulam", "3-Ghulam", "Vizier-Shamsher"]
    assert tricks(s) == [1, 0, 0, 0] and s.finished


def test_answers_in_the_middle_of_a_suit_are_not_allowed():
    hands = [["Raja-Cheng", "4-Cheng"], ["Vizier-Ghulam", "5-Ghulam", "7-Ghulam", "Raja-Phul"],
             ["Vizier-Cheng", "3-Phul"], ["Raja-Barat", "8-Barat"]]
    s = setup(hands, won={0: ["Raja-Surya"]})
    play(s, "lead Raja-Cheng")
    at(s, 1, "answers", {"substitute Vizier-Ghulam", "substitute 5-Ghulam", "substitute Raja-Phul"})


# ------------------------------------------------------------------ 4. later rounds, passing the lead

LATER = [
    ["5-Cheng", "Vizier-Ghulam", "7-Ghulam"],
    ["Raja-Cheng", "4-Cheng", "6-Phul"],
    ["2-Ghulam", "3-Ghulam", "4-Ghulam"],        # no court: out from the start
    ["Vizier-Cheng", "8-Cheng", "Raja-Phul", "1-Phul"],
]


def test_later_round_lead_answers_and_passing_the_lead():
    s = setup(LATER, won={1: ["Raja-Surya"]})  # P2 took the first trick
    assert retired(s) == [False, False, True, False]
    assert cards_in(s, "laid_aside", 2) == ["2-Ghulam", "3-Ghulam", "4-Ghulam"]
    at(s, 1, "lead", {"lead Raja-Cheng"})
    play(s, "lead Raja-Cheng")
    # P2's lowest Cheng follows; P3 is out; P4 plays her top and bottom Cheng; P1 her one Cheng
    assert cards_in(s, "trick") == ["Raja-Cheng", "4-Cheng", "Vizier-Cheng", "8-Cheng", "5-Cheng"]
    at(s, 0, "answers", {"substitute Vizier-Ghulam", "substitute 7-Ghulam"})
    play(s, "substitute 7-Ghulam")
    assert tricks(s) == [0, 1, 0, 0]
    # P2 has no court left: out; the lead passes over P3 (out too) to P4
    assert retired(s) == [False, True, True, False]
    assert public_vars(s)["leader"] == "P4" and fired_counts(s)["pass_lead"] == 1
    at(s, 3, "lead", {"lead Raja-Phul"})
    play(s, "lead Raja-Phul")
    assert cards_in(s, "trick") == ["Raja-Phul", "1-Phul"]
    at(s, 0, "answers", {"substitute Vizier-Ghulam"})  # her last card: just one
    play(s, "substitute Vizier-Ghulam")
    assert s.finished
    assert outcome(s).scores == (0, 1, 0, 1) and outcome(s).winners == (1, 3)  # a shared win


def test_the_lead_must_be_in_a_suit_with_a_court():
    hands = [["Vizier-Barat", "1-Barat", "9-Barat", "10-Cheng", "Raja-Ghulam"],
             ["2-Barat", "Raja-Chandra"], ["3-Barat", "Vizier-Phul"], ["4-Barat", "Vizier-Kumancha"]]
    s = setup(hands, won={0: ["Raja-Surya"]})
    at(s, 0, "lead", {"lead Vizier-Barat", "lead Raja-Ghulam"})  # never 10-Cheng
    with pytest.raises(IllegalMoveError):
        apply(s, "lead 10-Cheng")
    play(s, "lead Vizier-Barat")
    assert cards_in(s, "trick")[:2] == ["Vizier-Barat", "1-Barat"]


def test_inverted_ranking_changes_the_lowest_card_of_a_suit():
    hands = [["Vizier-Barat", "1-Barat", "9-Barat", "Raja-Ghulam"],
             ["2-Barat", "Raja-Chandra"], ["3-Barat", "Vizier-Phul"], ["4-Barat", "Vizier-Kumancha"]]
    s = setup(hands, won={0: ["Raja-Surya"]}, game="hamrang-inverted")
    play(s, "lead Vizier-Barat")
    # in Barat the 1 is the top numeral and the 9 is lower: the 9 goes with the Vizier
    assert cards_in(s, "trick") == ["Vizier-Barat", "9-Barat", "2-Barat"]
    at(s, 1, "answers", {"substitute Raja-Chandra"})


# ------------------------------------------------------------------ 5. a lone player and the end

LONE = [["Raja-Cheng", "Vizier-Phul", "2-Phul"], ["3-Cheng"], ["4-Cheng"], ["5-Cheng"]]


def test_a_lone_player_keeps_leading_until_her_courts_are_gone():
    s = setup(LONE, won={0: ["Raja-Surya"]})
    assert retired(s) == [False, True, True, True]
    at(s, 0, "lead", {"lead Raja-Cheng", "lead Vizier-Phul"})
    play(s, "lead Vizier-Phul")
    assert cards_in(s, "won", 0) == ["Raja-Surya", "Vizier-Phul", "2-Phul"]  # nobody answers
    assert tricks(s) == [1, 0, 0, 0]
    at(s, 0, "lead", {"lead Raja-Cheng"})
    play(s, "lead Raja-Cheng")  # no card left for a second one
    assert s.finished and tricks(s) == [2, 0, 0, 0] and outcome(s).winners == (0,)


def test_lone_player_option_off_ends_the_game_at_once():
    s = setup(LONE, won={0: ["Raja-Surya"]}, options={"lone_player_continues": False})
    assert s.finished and cards_in(s, "hand", 0) == ["Raja-Cheng", "Vizier-Phul", "2-Phul"]
    assert outcome(s).winners == (0, 1, 2, 3)  # nobody took a trick in this position


def test_by_night_chandra_leads_round_one():
    hands = [["Raja-Surya", "2-Surya"], ["Raja-Chandra", "3-Chandra"], ["Vizier-Chandra", "5-Chandra"], ["Vizier-Surya", "9-Surya"]]
    s = setup(hands, options={"time": "night"})
    # P2 leads the Raja and the 3; P3 answers with both Chandra; P4 has none
    assert cards_in(s, "trick") == ["Raja-Chandra", "3-Chandra", "Vizier-Chandra", "5-Chandra"]
    at(s, 3, "answers", {"substitute Vizier-Surya", "substitute 9-Surya"})
