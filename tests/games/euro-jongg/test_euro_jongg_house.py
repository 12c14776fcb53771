"""Euro-Jongg's house rules (issue 11): every special hand and bonus the source invites players to
agree on is an option, off by default, and `house-rules.cards` turns a common set of them on.

Each test builds a winning hand by hand with the public `position()` API (as in
test_euro_jongg_rules.py: seats 0-based, P1 = seat 0; with `wall=[...]` exactly those cards form
the wall, its last card the front and its first the back, and every card not placed goes to the
blind; with `claimed=True` the player to move skips the draw) and checks the exact score with
the option on and with it off. The figures are the ruleset's (its interpretation "Figures for
the house rules")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from scenario import legal

from interpreter import load_ruleset
from interpreter.engine import Move, apply, cards_in, deciders, evaluate, position, \
    program_of, public_vars

HERE = Path(__file__).resolve().parent
FOLDER = HERE.parents[2] / "rulesets" / "euro-jongg"
RULESET = FOLDER / "euro-jongg.cards"
VARIANT = FOLDER / "house-rules.cards"

HOUSE = ["seven_pairs", "all_runs", "one_suit", "one_colour", "all_face_cards", "no_aces_or_nines",
         "four_suit_books", "first_turn", "back_of_wall", "last_card", "concealed_hand",
         "crown_combinations", "seat_suit_doubles"]


@cache
def rules(path=RULESET):
    return load_ruleset(path)


def _filler():
    """Three hands of thirteen numerals that no test here names: Spades and Clubs, and the A, 2, 8
    and 9 of Hearts and Diamonds. They can never claim a face card or a 3 to 7 of Hearts or
    Diamonds, the discards these tests make."""
    named = set(re.findall(r'"([A-Za-z0-9]+-[A-Za-z]+(?:#[0-9])?)"', Path(__file__).read_text()))
    pool = [n for n in program_of(rules()).card_names if n not in named and n.split("-")[0].isdigit()
            and (n.split("-")[1].split("#")[0] in ("Spades", "Clubs") or n.split("-")[0] in ("A", "2", "8", "9"))]
    return [pool[k::3][:13] for k in range(3)]


FILL = _filler()
WALL = ["7-Diamonds#4", "6-Hearts#3"]  # nothing any hand here can use: back first, front last


def setup(hands=(), *, wall=WALL, melds=None, laid=None, turn=0, dealer=0, claimed=True, vars=None,
          options=None, ruleset=None):
    zones = {"hand": dict(enumerate(hands)), "wall": wall}
    if melds:
        zones["melds"] = melds
    if laid:
        zones["laid"] = laid
    values = {"mover": turn, "dealer": dealer, "after_claim": claimed, **(vars or {})}
    return position(ruleset or rules(), 4, "play", zones=zones, vars=values,
                    options={"hands": 1, **(options or {})}, rest="blind")


def finish(hand, options=None, **kw) -> dict:
    """P1 holds `hand` (and draws first unless claimed) and goes out; the hand's scores by player."""
    s = setup([hand] + FILL, options=options, **kw)
    assert "go_out" in legal(s), f"{hand} cannot go out"
    apply(s, "go_out")
    assert s.finished
    return public_vars(s)["hand_score"]


def score(hand, option=None, extra=None, **kw) -> tuple[int, int]:
    """P1's score for going out with `hand`: with the option on, and with it off."""
    on = finish(hand, {**(extra or {}), option: True}, **kw)["P1"]
    off = finish(hand, {**(extra or {}), option: False}, **kw)["P1"]
    return on, off


def claim_win(p1, p4, discard, options=None, **kw) -> dict:
    """P1 discards; P2 and P3 (filler) pass; P4 claims it to go out. The hand's scores."""
    s = setup([p1, FILL[0], FILL[1], p4], options=options, **kw)
    apply(s, f"discard {discard}")
    assert "win" in legal(s, 3), f"P4 cannot go out on {discard}"
    for seat in (1, 2):
        apply(s, Move(seat, "pass", None))
    apply(s, Move(3, "win", None))
    assert s.finished and public_vars(s)["hand_winner"] == "P4"
    return public_vars(s)["hand_score"]


# a plain winning hand (the one of test_euro_jongg_rules.py): run A-2-3 of Spades, book of 7s of
# Hearts, book of Jacks, run 8-9-F of Clubs, pair of 5 of Diamonds. 10 + 20 + 40 = 70.
COMPLETE = ["A-Spades#1", "2-Spades#1", "3-Spades#1", "7-Hearts#1", "7-Hearts#2", "7-Hearts#3",
            "J-Spades", "J-Hearts", "J-Diamonds", "8-Clubs#1", "9-Clubs#1", "F-Clubs",
            "5-Diamonds#1", "5-Diamonds#2"]
P1_DISCARDS = ["5-Hearts#1", "3-Hearts#4", "6-Diamonds#4", "4-Diamonds#4"]  # P1's hand when it only discards


# ------------------------------------------------------------------ the options themselves

def test_every_house_rule_is_an_option_off_by_default_with_a_description():
    opts = {o.name: o for o in rules().options}
    for name in HOUSE:
        o = opts[name]
        assert o.type == "bool" and o.default is False, name
        assert o.description and o.description.endswith("."), name


def test_the_figures_and_the_rule_for_combining_are_stated():
    questions = {i.name: " ".join(i.texts) for i in rules().interpretations}
    assert "1,000" in questions["house_figures"] and "closed book" in questions["house_figures"]
    assert "not paid twice" in questions["house_combine"]
    assert "None is played here" not in " ".join(questions.values())


# ------------------------------------------------------------------ seven pairs

SEVEN_PAIRS = ["A-Spades#1", "A-Spades#2", "3-Hearts#1", "3-Hearts#2", "5-Clubs#1", "5-Clubs#2",
               "J-Spades", "J-Hearts", "9-Diamonds#1", "9-Diamonds#2", "2-Clubs#3", "2-Clubs#4",
               "7-Spades#1", "7-Spades#2"]


def test_seven_pairs_goes_out_only_with_the_option():
    assert "go_out" not in legal(setup([SEVEN_PAIRS] + FILL))
    # 10 for going out + 5 for the pair of Jacks + 50 for seven pairs
    assert finish(SEVEN_PAIRS, {"seven_pairs": True})["P1"] == 65


def test_seven_pairs_four_alike_count_as_two_pairs():
    hand = ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4"] + SEVEN_PAIRS[4:]
    assert finish(hand, {"seven_pairs": True})["P1"] == 65


def test_seven_pairs_needs_all_fourteen_cards_in_the_hand():
    # a set laid down: the eleven cards left cannot be seven pairs
    s = setup([SEVEN_PAIRS[:11]] + FILL, melds={0: ["Q-Spades", "Q-Hearts", "Q-Clubs"]},
              vars={"sets_down": {0: 1}}, options={"seven_pairs": True})
    assert "go_out" not in legal(s)


def test_seven_pairs_may_go_out_on_a_claimed_discard():
    # six pairs and a 5 of Hearts, waiting for another
    p4 = [("5-Hearts#3" if c == "5-Clubs#1" else c) for c in SEVEN_PAIRS if c != "5-Clubs#2"]
    s = setup([P1_DISCARDS, FILL[0], FILL[1], p4])
    apply(s, "discard 5-Hearts#1")
    assert legal(s, 3) == {"pass"}  # without the option it is no winning hand
    assert claim_win(P1_DISCARDS, p4, "5-Hearts#1", {"seven_pairs": True})["P4"] == 65


# seven pairs, and also four runs (A-2-3 of Spades twice, 5-6-7 of Clubs twice) and a pair
PAIRS_OR_RUNS = ["A-Spades#1", "A-Spades#2", "2-Spades#1", "2-Spades#2", "3-Spades#1", "3-Spades#2",
                 "5-Clubs#1", "5-Clubs#2", "6-Clubs#1", "6-Clubs#2", "7-Clubs#1", "7-Clubs#2",
                 "9-Diamonds#1", "9-Diamonds#2"]


def test_a_hand_that_is_both_seven_pairs_and_four_sets_counts_the_better_way():
    # four runs and a pair: 10; seven pairs: 10 + 50
    assert score(PAIRS_OR_RUNS, "seven_pairs") == (60, 10)


# ------------------------------------------------------------------ runs and a pair

RUNS = ["A-Spades#1", "2-Spades#1", "3-Spades#1", "4-Hearts#1", "5-Hearts#2", "6-Hearts#1",
        "7-Diamonds#1", "8-Diamonds#1", "9-Diamonds#1", "J-Clubs", "K-Clubs", "Q-Clubs",
        "2-Diamonds#1", "2-Diamonds#2"]


def test_all_runs():
    # 10 + 5 for the run of face cards; with the option 50 more
    assert score(RUNS, "all_runs") == (65, 15)


def test_all_runs_counts_runs_laid_down_but_not_books():
    hand = RUNS[3:]
    run = {0: ["A-Spades#1", "2-Spades#1", "3-Spades#1"]}
    assert score(hand, "all_runs", melds=run, vars={"sets_down": {0: 1}, "runs_down": {0: 1}}) == (65, 15)
    book = {0: ["6-Spades#1", "6-Spades#2", "6-Spades#3"]}  # an open book, 10
    assert score(hand, "all_runs", melds=book, vars={"sets_down": {0: 1}, "set_points": {0: 10}}) == (25, 25)


def test_a_claimed_run_is_counted_as_a_run():
    s = setup([P1_DISCARDS, FILL[0], FILL[1], ["4-Hearts#3", "6-Hearts#2"] + RUNS[:3] + RUNS[6:]],
              options={"all_runs": True})
    apply(s, "discard 5-Hearts#1")
    for seat, m, arg in ((1, "pass", None), (2, "pass", None), (3, "run", "6")):
        apply(s, Move(seat, m, arg))
    v = public_vars(s)
    assert v["runs_down"]["P4"] == 1 and v["open_sets"]["P4"] == 1 and v["sets_down"]["P4"] == 1
    assert s.actor == 3 and "go_out" in legal(s)
    apply(s, "go_out")
    assert public_vars(s)["hand_score"]["P4"] == 65


def test_all_runs_pays_only_when_counting_as_runs_scores_more():
    # three books of 6s, 7s, 8s of Clubs are also three runs 6-7-8: as books 10 + 60 = 70, as
    # runs 10 + 50 = 60, so the books stand
    hand = ["6-Clubs#1", "6-Clubs#2", "6-Clubs#3", "7-Clubs#1", "7-Clubs#2", "7-Clubs#3",
            "8-Clubs#1", "8-Clubs#2", "8-Clubs#3", "A-Spades#1", "2-Spades#1", "3-Spades#1",
            "5-Diamonds#1", "5-Diamonds#2"]
    assert score(hand, "all_runs") == (70, 70)
    # with seven pairs too, a hand that is runs or pairs takes 50 once, not twice
    assert finish(PAIRS_OR_RUNS, {"all_runs": True, "seven_pairs": True})["P1"] == 60


# ------------------------------------------------------------------ one suit, one colour

ONE_SUIT = ["A-Hearts#1", "2-Hearts#1", "3-Hearts#1", "4-Hearts#1", "4-Hearts#2", "4-Hearts#3",
            "7-Hearts#1", "8-Hearts#1", "9-Hearts#1", "F-Hearts", "W-Hearts", "H-Hearts",
            "6-Hearts#1", "6-Hearts#2"]
RED = ["A-Hearts#1", "2-Hearts#1", "3-Hearts#1", "4-Hearts#1", "4-Hearts#2", "4-Hearts#3",
       "5-Diamonds#1", "5-Diamonds#2", "5-Diamonds#3", "7-Diamonds#1", "8-Diamonds#1", "9-Diamonds#1",
       "6-Diamonds#1", "6-Diamonds#2"]
BLACK = ["A-Spades#1", "2-Spades#1", "3-Spades#1", "4-Clubs#1", "4-Clubs#2", "4-Clubs#3",
         "5-Spades#1", "5-Spades#2", "5-Spades#3", "7-Clubs#1", "8-Clubs#1", "9-Clubs#1",
         "6-Spades#1", "6-Spades#2"]


def test_one_suit():
    # 10 + closed book of 4s 20 + run of face cards 5 = 35; one suit 500 more
    assert score(ONE_SUIT, "one_suit") == (535, 35)
    assert score(RED, "one_suit") == (50, 50)  # two suits


def test_one_suit_counts_the_sets_laid_down():
    melds = {0: ["5-Spades#1", "5-Spades#2", "5-Spades#3"]}  # an open book of another suit
    v = {"sets_down": {0: 1}, "set_points": {0: 10}}
    hand = ONE_SUIT[:3] + ONE_SUIT[6:]
    assert score(hand, "one_suit", melds=melds, vars=v) == (25, 25)
    melds = {0: ["5-Hearts#1", "5-Hearts#2", "5-Hearts#3"]}
    assert score(hand, "one_suit", melds=melds, vars=v) == (525, 25)


@pytest.mark.parametrize("hand", [RED, BLACK], ids=["red", "black"])
def test_one_colour(hand):
    # 10 + two closed books 40 = 50; one colour 100 more
    assert score(hand, "one_colour") == (150, 50)


def test_one_colour_is_not_paid_on_top_of_one_suit():
    assert finish(ONE_SUIT, {"one_colour": True})["P1"] == 135     # one colour alone pays for it
    assert finish(ONE_SUIT, {"one_colour": True, "one_suit": True})["P1"] == 535
    assert score(COMPLETE, "one_colour") == (70, 70)                  # red and black


# ------------------------------------------------------------------ face cards, Aces and 9s

FACES = ["F-Spades", "F-Hearts", "F-Diamonds", "W-Spades", "W-Hearts", "W-Diamonds",
         "B-Spades", "B-Hearts", "B-Diamonds", "J-Clubs", "Q-Clubs", "K-Clubs", "K-Spades", "K-Hearts"]
SIMPLES = ["2-Spades#1", "3-Spades#1", "4-Spades#1", "5-Hearts#1", "5-Hearts#2", "5-Hearts#3",
           "6-Clubs#1", "7-Clubs#1", "8-Clubs#1", "J-Spades", "J-Hearts", "J-Diamonds",
           "3-Diamonds#1", "3-Diamonds#2"]


def test_all_face_cards():
    # 10 + three closed books of faces 3 x 40 + face run 5 + face pair 5 = 140; 1,000 more
    assert score(FACES, "all_face_cards") == (1140, 140)
    assert score(SIMPLES, "all_face_cards") == (70, 70)


def test_no_aces_or_nines():
    # 10 + closed book of 5s 20 + closed book of Jacks 40 = 70; 20 more
    assert score(SIMPLES, "no_aces_or_nines") == (90, 70)
    assert score(COMPLETE, "no_aces_or_nines") == (70, 70)  # an Ace and a 9
    # face cards are neither Aces nor 9s ...
    assert score(FACES, "no_aces_or_nines") == (160, 140)
    # ... but a hand of face cards is not paid for both
    assert finish(FACES, {"no_aces_or_nines": True, "all_face_cards": True})["P1"] == 1140


def test_no_aces_or_nines_looks_at_the_sets_laid_down():
    melds = {0: ["9-Spades#1", "9-Spades#2", "9-Spades#3"]}
    v = {"sets_down": {0: 1}, "set_points": {0: 10}}
    assert score(SIMPLES[3:], "no_aces_or_nines", melds=melds, vars=v) == (80, 80)


# ------------------------------------------------------------------ books in all four suits

FOUR_BOOKS = ["7-Spades#1", "7-Spades#2", "7-Spades#3", "7-Hearts#1", "7-Hearts#2", "7-Hearts#3",
              "7-Diamonds#1", "7-Diamonds#2", "7-Diamonds#3", "7-Clubs#1", "7-Clubs#2", "7-Clubs#3",
              "2-Hearts#1", "2-Hearts#2"]


def test_four_suit_books():
    # 10 + four closed books 80 = 90; 1,000 more
    assert score(FOUR_BOOKS, "four_suit_books") == (1090, 90)


def test_four_suit_books_with_a_tome_laid_down():
    melds = {0: ["7-Clubs#1", "7-Clubs#2", "7-Clubs#3", "7-Clubs#4"]}
    v = {"sets_down": {0: 1}, "set_points": {0: 50}}
    assert score(FOUR_BOOKS[:9] + FOUR_BOOKS[12:], "four_suit_books", melds=melds, vars=v) == (1120, 120)


def test_four_suit_books_needs_four_books_not_just_the_cards():
    # twelve 5s, three of each suit, but the Spades go into a run 4-5-6 and a pair: no bonus
    hand = ["4-Spades#1", "5-Spades#1", "6-Spades#1", "5-Spades#2", "5-Spades#3",
            "5-Hearts#1", "5-Hearts#2", "5-Hearts#3", "5-Diamonds#1", "5-Diamonds#2", "5-Diamonds#3",
            "5-Clubs#1", "5-Clubs#2", "5-Clubs#3"]
    assert score(hand, "four_suit_books") == (70, 70)
    # books of one number in three suits only
    hand = FOUR_BOOKS[:9] + ["8-Clubs#1", "8-Clubs#2", "8-Clubs#3"] + FOUR_BOOKS[12:]
    assert score(hand, "four_suit_books") == (90, 90)
    # six pairs of 7s in all four suits and a pair of 2s: seven pairs (10 + 50), but no books
    hand = ["7-Spades#1", "7-Spades#2", "7-Spades#3", "7-Spades#4", "7-Hearts#1", "7-Hearts#2",
            "7-Hearts#3", "7-Hearts#4", "7-Diamonds#1", "7-Diamonds#2", "7-Clubs#1", "7-Clubs#2",
            "2-Hearts#1", "2-Hearts#2"]
    assert score(hand, "four_suit_books", extra={"seven_pairs": True}) == (60, 60)


# ------------------------------------------------------------------ how the hand goes out

def test_first_turn():
    assert score(COMPLETE, "first_turn") == (1070, 70)
    assert score(COMPLETE, "first_turn", vars={"discards_made": {0: 1}}) == (70, 70)


def test_first_turn_counts_a_win_on_a_discard_before_one_discards():
    p4 = COMPLETE[:13]  # waits for the pair's second 5 of Diamonds
    p1 = ["5-Diamonds#3"] + P1_DISCARDS[1:]
    assert claim_win(p1, p4, "5-Diamonds#3", {"first_turn": True})["P4"] == 1070
    assert claim_win(p1, p4, "5-Diamonds#3", {"first_turn": True}, vars={"discards_made": {3: 2}})["P4"] == 70
    assert claim_win(p1, p4, "5-Diamonds#3")["P4"] == 70


def test_a_discard_ends_the_first_turn():
    # P1 discards, and goes out on the next draw: no first-turn bonus
    s = setup([COMPLETE[:12] + ["K-Spades", "5-Diamonds#3"]] + FILL,
              wall=["Q-Diamonds", "5-Diamonds#2", "K-Diamonds", "4-Hearts#4", "6-Hearts#4"],
              options={"first_turn": True})
    apply(s, "discard K-Spades")
    for seat in (1, 2, 3):
        apply(s, Move(seat, "pass", None))
    # P2 to P4 draw (the 6 and 4 of Hearts, the King of Diamonds) and discard what they drew
    for seat in (1, 2, 3):
        assert s.actor == seat and s.rule == "turn"
        apply(s, f"discard {cards_in(s, 'hand', seat)[-1]}")
        for other in deciders(s):
            apply(s, Move(other, "pass", None))
    assert s.actor == 0 and "5-Diamonds#2" in cards_in(s, "hand", 0)
    assert public_vars(s)["discards_made"]["P1"] == 1
    apply(s, "go_out")
    assert public_vars(s)["hand_score"]["P1"] == 70


def test_back_of_wall():
    # P1 draws a Flower from the front, lays it down and takes the replacement, the 5 of Diamonds
    # that completes the hand, from the back: 70 + 10 for the Flower, and 20 more
    wall = ["5-Diamonds#2", "Q-Diamonds", "K-Diamonds", "Flower-Hearts"]
    assert score(COMPLETE[:13], "back_of_wall", wall=wall, claimed=False) == (100, 80)
    # the same card drawn from the front: no bonus, even just after another player's replacement
    wall = ["Q-Diamonds", "K-Diamonds", "5-Diamonds#2"]
    assert score(COMPLETE[:13], "back_of_wall", wall=wall, claimed=False) == (70, 70)
    assert score(COMPLETE[:13], "back_of_wall", wall=wall, claimed=False, vars={"replacement_draw": True}) == (70, 70)


def test_back_of_wall_after_a_closed_tome():
    hand = ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4"] + COMPLETE[3:13]
    s = setup([hand] + FILL, wall=["5-Diamonds#2", "Q-Diamonds", "K-Diamonds"], options={"back_of_wall": True})
    assert "go_out" not in legal(s)
    apply(s, "tome 4-Clubs#4")
    apply(s, "go_out")
    # 10 + closed tome 50 + book of 7s 20 + book of Jacks 40 + 20 for the back of the wall
    assert public_vars(s)["hand_score"]["P1"] == 140


def test_last_card():
    # the 5 of Diamonds is the last card of the wall: 20 more
    assert score(COMPLETE[:13], "last_card", wall=["5-Diamonds#2"], claimed=False) == (90, 70)
    assert score(COMPLETE[:13], "last_card", wall=["K-Diamonds", "5-Diamonds#2"], claimed=False) == (70, 70)
    # going out with the wall empty, but without drawing (after a claim), is not the last card
    assert score(COMPLETE, "last_card", wall=[]) == (70, 70)


def test_last_card_from_the_back_of_the_wall():
    wall = ["5-Diamonds#2", "Tree-Spades"]
    # 70 + 10 for the Tree + 20 for the last card (+ 20 more from the back of the wall)
    assert score(COMPLETE[:13], "last_card", wall=wall, claimed=False) == (100, 80)
    assert finish(COMPLETE[:13], {"last_card": True, "back_of_wall": True}, wall=wall, claimed=False)["P1"] == 120


def test_last_card_as_the_replacement_for_a_claimed_tome():
    # P4 claims a tome of 5s of Hearts and takes the last card of the wall as its replacement
    p4 = ["5-Hearts#2", "5-Hearts#3", "5-Hearts#4"] + COMPLETE[:9] + ["5-Diamonds#1"]
    for opts, points in (({"last_card": True}, 110), ({"back_of_wall": True}, 110), ({}, 90)):
        s = setup([P1_DISCARDS, FILL[0], FILL[1], p4], wall=["5-Diamonds#2"], options=opts)
        apply(s, "discard 5-Hearts#1")
        for seat, m in ((1, "pass"), (2, "pass"), (3, "tome")):
            apply(s, Move(seat, m, None))
        assert cards_in(s, "wall") == [] and s.actor == 3
        apply(s, "go_out")
        # 10 + open tome 20 + closed books of 7s 20 and of Jacks 40; 20 for the last card, or for the back
        assert public_vars(s)["hand_score"]["P4"] == points, opts


def test_concealed_hand():
    wall = ["Q-Diamonds", "K-Diamonds", "5-Diamonds#2"]
    assert score(COMPLETE[:13], "concealed_hand", wall=wall, claimed=False) == (90, 70)
    # a closed tome laid down keeps the hand concealed
    melds = {0: ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4"]}
    v = {"sets_down": {0: 1}, "set_points": {0: 50}}
    assert score(COMPLETE[3:13], "concealed_hand", wall=wall, claimed=False, melds=melds, vars=v) == (140, 120)
    # an open set spoils it
    melds = {0: ["A-Spades#1", "2-Spades#1", "3-Spades#1"]}
    v = {"sets_down": {0: 1}, "open_sets": {0: 1}}
    assert score(COMPLETE[3:13], "concealed_hand", wall=wall, claimed=False, melds=melds, vars=v) == (70, 70)


def test_concealed_hand_must_go_out_on_a_card_from_the_wall():
    p4 = COMPLETE[:13]
    p1 = ["5-Diamonds#3"] + P1_DISCARDS[1:]
    # 10 + the pair, now open, nothing + closed books 60
    assert claim_win(p1, p4, "5-Diamonds#3", {"concealed_hand": True})["P4"] == 70


# ------------------------------------------------------------------ crowns

@pytest.mark.parametrize("crowns, points", [
    ([], 0),
    (["A-Crowns"], 0),
    (["A-Crowns", "9-Crowns"], 50),
    (["2-Crowns", "4-Crowns", "6-Crowns", "8-Crowns"], 100),
    (["2-Crowns", "4-Crowns", "6-Crowns"], 0),
    (["A-Crowns", "3-Crowns", "5-Crowns", "7-Crowns", "9-Crowns"], 200),
    (["2-Crowns", "4-Crowns", "6-Crowns", "8-Crowns", "A-Crowns", "9-Crowns"], 100),  # the best one only
])
def test_crown_combinations(crowns, points):
    s = setup(laid={2: crowns}, options={"crown_combinations": True})
    assert evaluate(s, "crown_points", 2) == points
    assert evaluate(setup(laid={2: crowns}), "crown_points", 2) == 0


def test_crown_combinations_score_for_every_player():
    laid = {0: ["A-Crowns", "9-Crowns"], 2: ["2-Crowns", "4-Crowns", "6-Crowns", "8-Crowns", "Bird-Clubs"]}
    on = finish(COMPLETE, {"crown_combinations": True}, laid=laid)
    off = finish(COMPLETE, {"crown_combinations": False}, laid=laid)
    assert on == {"P1": 120, "P2": 0, "P3": 110, "P4": 0}
    assert off == {"P1": 70, "P2": 0, "P3": 10, "P4": 0}


# ------------------------------------------------------------------ seat suits that double

def test_seat_suit_doubles_a_face_book_of_the_winners_hand():
    # P1's seat suit is Spades: the closed book of Jacks holds the Jack of Spades, 40 doubled
    assert score(COMPLETE, "seat_suit_doubles") == (110, 70)
    # with the added seat-suit bonus as well: 10 for the Jack of Spades
    assert finish(COMPLETE, {"seat_suit_doubles": True, "seat_suit": True})["P1"] == 120
    # P3's seat suit is Diamonds; P3 holds no face card of it, so nothing doubles
    s = setup(wall=WALL, options={"seat_suit_doubles": True})
    assert evaluate(s, "group_points", ["F-Spades", "F-Hearts", "F-Clubs"]) == 40


def test_seat_suit_doubles_face_runs_and_pairs():
    # P1: run J-Q-K of Clubs 5 (not Spades), pair of Kings 5 with the King of Spades: doubled to 10;
    # books of Fools, Wenches, Bishops, each with its Spade: 3 x 80
    assert score(FACES, "seat_suit_doubles") == (10 + 240 + 5 + 10, 140)


@pytest.mark.parametrize("seat, bonus, on, off", [
    (0, ["Flower-Spades"], 20, 10),                        # P1's seat suit is Spades
    (1, ["Flower-Hearts", "Bird-Hearts"], 200, 100),       # P2: Hearts; two of a suit
    (1, ["Tree-Hearts", "Tree-Clubs"], 200, 100),          # two of a kind, one of them Hearts
    (2, ["Flower-Spades", "Bird-Hearts"], 20, 20),         # P3: Diamonds; none of them
    (3, ["Bird-Spades", "Bird-Hearts", "Bird-Clubs", "Bird-Diamonds"], 10000, 10000),  # the maximum stays
])
def test_seat_suit_doubles_bonus_cards(seat, bonus, on, off):
    scores_on = finish(COMPLETE, {"seat_suit_doubles": True}, laid={seat: bonus})
    scores_off = finish(COMPLETE, {"seat_suit_doubles": False}, laid={seat: bonus})
    if seat == 0:
        on, off = on + 110, off + 70
    assert scores_on[f"P{seat + 1}"] == on and scores_off[f"P{seat + 1}"] == off


def _claim_set(p4, discard, move, options):
    s = setup([P1_DISCARDS + [discard], FILL[0], FILL[1], p4], options=options)
    apply(s, f"discard {discard}")
    for seat, m in ((1, "pass"), (2, "pass"), (3, move)):
        apply(s, Move(seat, m, None))
    return public_vars(s)["set_points"]["P4"]


def test_seat_suit_doubles_open_sets_of_face_cards():
    # P4's seat suit is Clubs: an open book of Queens without the Queen of Clubs stays 20 ...
    p4 = ["Q-Spades", "Q-Hearts"] + FILL[2][2:]
    assert _claim_set(p4, "Q-Diamonds", "book", {"seat_suit_doubles": True}) == 20
    # ... one of Bishops with the Bishop of Clubs is doubled
    p4 = ["B-Spades", "B-Clubs"] + FILL[2][2:]
    assert _claim_set(p4, "B-Diamonds", "book", {"seat_suit_doubles": True}) == 40
    assert _claim_set(p4, "B-Diamonds", "book", {}) == 20
    # an open tome of Horses with the Horse of Clubs: 40 doubled; its replacement comes from the back
    p4 = ["H-Spades", "H-Clubs", "H-Hearts"] + FILL[2][3:]
    assert _claim_set(p4, "H-Diamonds", "tome", {"seat_suit_doubles": True}) == 80
    assert _claim_set(p4, "H-Diamonds", "tome", {}) == 40


def test_seat_suit_doubles_a_claimed_face_run_and_a_closed_tome():
    # P4 (Clubs) claims the Wench of Clubs for the run F-W-H of Clubs: 5 doubled
    p4 = ["F-Clubs", "H-Clubs"] + FILL[2][2:]
    s = setup([P1_DISCARDS + ["W-Clubs"], FILL[0], FILL[1], p4], options={"seat_suit_doubles": True})
    apply(s, "discard W-Clubs")
    for seat, m, arg in ((1, "pass", None), (2, "pass", None), (3, "run", "H")):
        apply(s, Move(seat, m, arg))
    assert public_vars(s)["set_points"]["P4"] == 10
    # P1 (Spades) lays a closed tome of Kings: 100 doubled
    hand = ["K-Spades", "K-Hearts", "K-Diamonds", "K-Clubs"] + COMPLETE[3:13]
    for opts, points in (({"seat_suit_doubles": True}, 200), ({}, 100)):
        s = setup([hand] + FILL, wall=["5-Diamonds#2", "Q-Diamonds"], options=opts)
        apply(s, "tome K-Clubs")
        assert public_vars(s)["set_points"]["P1"] == points


# ------------------------------------------------------------------ the variant

@cache
def house():
    return load_ruleset(VARIANT)


def test_the_variant_names_its_base_and_turns_house_rules_on():
    rs = house()
    assert rs.title == "Euro-Jongg with common house rules"
    assert rs.base == "euro_jongg"
    on = {o.name for o in rs.options if o.name in HOUSE and o.default is True}
    assert on == {"seven_pairs", "all_runs", "one_suit", "one_colour", "all_face_cards", "no_aces_or_nines",
                  "first_turn", "back_of_wall", "last_card", "concealed_hand", "crown_combinations"}
    assert {o.name: o.default for o in rs.options if o.name not in HOUSE} == \
        {o.name: o.default for o in rules().options if o.name not in HOUSE}


def test_the_variant_scores_house_rules_without_asking():
    # seven pairs, concealed (won on a card drawn from the front of the wall), first turn
    wall = ["Q-Diamonds", "K-Diamonds", "7-Spades#2"]
    s = setup([SEVEN_PAIRS[:13]] + FILL, wall=wall, claimed=False, ruleset=house())
    apply(s, "go_out")
    # 10 + pair of Jacks 5 + seven pairs 50 + first turn 1,000 + concealed 20
    assert public_vars(s)["hand_score"]["P1"] == 1085
