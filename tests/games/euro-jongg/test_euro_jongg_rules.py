"""Scenario tests for Euro-Jongg (seed 004): the 193-card pack, sets, going out (with hands
that look complete and are not), claims out of turn with competing priorities, tomes and
replacements from the back of the wall, the end of a hand, the deal, and every scoring line.

`setup` builds a position by hand and starts the phase `play`. Seats are 0-based (P1 = seat 0).
With `wall=[...]` exactly those cards form the wall (the last one is its front, the first its
back) and every card not placed goes to the blind. With `claimed=True` the player to move skips
the draw, as after claiming a discard, so their hand is exactly as given."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest
from bundled_games import loader
from scenario import legal

from interpreter.engine import (Move, apply, cards_in, deciders, evaluate, new_game,
                                outcome, position, program_of, public_vars)
from interpreter.errors import IllegalMoveError

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "euro-jongg" / "euro-jongg.cards"


rules = loader(RULESET)


def prog():
    return program_of(rules())


def setup(hands=(), *, wall=None, melds=None, laid=None, waste=None, turn=0, dealer=0, claimed=True,
          vars=None, options=None):
    zones = {"hand": dict(enumerate(hands))}
    if melds:
        zones["melds"] = melds
    if laid:
        zones["laid"] = laid
    if waste:
        zones["waste"] = [card for _, card in waste]
    if wall is not None:
        zones["wall"] = wall
    values = {"mover": turn, "dealer": dealer, "after_claim": claimed, **(vars or {})}
    return position(rules(), 4, "play", zones=zones, vars=values, options=options,
                    played_by={card: seat for seat, card in (waste or [])},
                    rest=None if wall is None else "blind")


def defn(name, s, *args):
    """Evaluate a definition of the ruleset in position s (cards given by name)."""
    return evaluate(s, name, *args)


def group(name, *cards) -> bool:
    return defn(name, setup(wall=["A-Crowns"]), list(cards))


# a complete hand: run A-2-3 of Spades, book of 7 of Hearts, face book of Jacks, run 8-9-F of Clubs,
# pair of 5 of Diamonds
COMPLETE = ["A-Spades#1", "2-Spades#1", "3-Spades#1", "7-Hearts#1", "7-Hearts#2", "7-Hearts#3",
            "J-Spades", "J-Hearts", "J-Diamonds", "8-Clubs#1", "9-Clubs#1", "F-Clubs",
            "5-Diamonds#1", "5-Diamonds#2"]
def _filler():
    """Three hands of (up to) thirteen numerals that no test names: Spades and Clubs, and the A, 2, 8
    and 9 of Hearts and Diamonds, so they can never claim a 5 of Hearts or Diamonds (the
    discards the tests make), nor a face card."""
    import re
    named = set(re.findall(r'"([A-Za-z0-9]+-[A-Za-z]+(?:#[0-9])?)"', Path(__file__).read_text()))
    pool = [n for n in prog().card_names if n not in named and n.split("-")[0].isdigit()
            and (n.split("-")[1].split("#")[0] in ("Spades", "Clubs") or n.split("-")[0] in ("A", "2", "8", "9"))]
    return [pool[k::3][:13] for k in range(3)]


FILL = _filler()
WALL = ["2-Crowns", "3-Crowns", "4-Crowns", "5-Crowns", "6-Crowns", "H-Diamonds", "W-Diamonds"]  # back first


# ------------------------------------------------------------------ 1. the pack and the deal

def test_the_pack_has_193_cards():
    names = prog().card_names
    assert len(names) == 193
    suit = Counter(n.split("-")[1].split("#")[0] for n in names)
    assert suit == {"Spades": 46, "Hearts": 46, "Diamonds": 46, "Clubs": 46, "Crowns": 9}
    assert names.count("5-Hearts#4") == 1 and "5-Hearts#5" not in names
    assert "5-Crowns" in names and "F-Crowns" not in names and "Flower-Crowns" not in names
    assert sum(n.split("-")[0] in ("Flower", "Bird", "Tree") for n in names) == 12
    assert sum(n.split("-")[0] in ("F", "W", "H", "B", "J", "Q", "K") for n in names) == 28


def test_the_deal_thirteen_each_a_blind_and_crowns_replaced():
    s = new_game(rules(), 4, seed=5)
    assert len(cards_in(s, "blind")) == 13
    for seat in range(4):
        h = cards_in(s, "hand", seat)
        assert not any(n.split("-")[1].startswith("Crowns") or n.split("-")[0] in ("Flower", "Bird", "Tree")
                       for n in h)
        # thirteen, plus the dealer's first draw; laid-down cards were all replaced
        assert len(h) == (14 if seat == 0 else 13)
    laid = sum(len(cards_in(s, "laid", seat)) for seat in range(4))
    assert len(cards_in(s, "wall")) == 193 - 52 - 13 - laid - 1
    assert s.actor == 0 and s.rule == "turn"


# ------------------------------------------------------------------ 2. sets

def test_runs_follow_the_rank_order_in_one_suit():
    assert group("is_run", "A-Spades#1", "2-Spades#3", "3-Spades#2")
    assert group("is_run", "8-Clubs#1", "9-Clubs#1", "F-Clubs")  # across from numerals to faces
    assert group("is_run", "F-Hearts", "W-Hearts", "H-Hearts")    # the wench above the fool, the horse above both
    assert group("is_run", "J-Hearts", "K-Hearts", "Q-Hearts")    # in any order
    assert not group("is_run", "A-Spades#1", "2-Hearts#1", "3-Spades#1")  # two suits
    assert not group("is_run", "Q-Spades", "K-Spades", "A-Spades#1")      # no wrapping round
    assert not group("is_run", "2-Spades#1", "2-Spades#2", "3-Spades#1")  # a repeat is no run
    assert not group("is_run", "7-Crowns", "8-Crowns", "9-Crowns")        # crowns make no sets
    assert not group("is_run", "K-Spades", "Flower-Spades", "Bird-Spades")  # bonus cards neither


def test_books_tomes_and_pairs():
    assert group("is_book", "7-Hearts#1", "7-Hearts#2", "7-Hearts#4")
    assert not group("is_book", "7-Hearts#1", "7-Spades#2", "7-Hearts#4")  # numerals need one suit
    assert group("is_book", "J-Spades", "J-Hearts", "J-Clubs")  # faces in any suits
    assert not group("is_book", "J-Spades", "Q-Spades", "J-Clubs")
    assert group("is_tome", "4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4")
    assert group("is_tome", "B-Spades", "B-Hearts", "B-Diamonds", "B-Clubs")
    assert not group("is_book", "4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4")
    assert group("is_pair", "5-Diamonds#1", "5-Diamonds#2") and group("is_pair", "K-Spades", "K-Hearts")
    assert not group("is_pair", "5-Diamonds#1", "5-Hearts#2")
    assert not group("is_pair", "Flower-Spades", "Flower-Hearts")  # bonus cards are no pair


# ------------------------------------------------------------------ 3. going out

def test_a_complete_hand_may_go_out():
    s = setup([COMPLETE] + FILL, wall=WALL)
    assert s.actor == 0 and s.rule == "turn"
    assert "go_out" in legal(s)
    assert {m for m in legal(s) if m != "go_out"} == {f"discard {c}" for c in COMPLETE}


@pytest.mark.parametrize("swap, why", [
    ({"5-Diamonds#2": "5-Hearts#1"}, "the pair is in two suits"),
    ({"7-Hearts#3": "7-Spades#1"}, "the book is in two suits"),
    ({"2-Spades#1": "2-Hearts#4"}, "the run changes suit"),
    ({"A-Spades#1": "Q-Spades", "2-Spades#1": "K-Spades"}, "Q, K, A does not wrap round"),
    ({"3-Spades#1": "2-Spades#2"}, "the run repeats a card"),
    ({"F-Clubs": "F-Hearts"}, "8, 9, F changes suit"),
])
def test_hands_that_look_complete_and_are_not(swap, why):
    hand = [swap.get(c, c) for c in COMPLETE]
    assert len(hand) == 14
    s = setup([hand] + FILL, wall=WALL)
    assert "go_out" not in legal(s), why


def test_seven_pairs_is_not_a_winning_hand():
    pairs = ["A-Spades#1", "A-Spades#2", "3-Hearts#1", "3-Hearts#2", "5-Clubs#1", "5-Clubs#2",
             "J-Spades", "J-Hearts", "9-Diamonds#1", "9-Diamonds#2", "2-Clubs#3", "2-Clubs#4",
             "7-Spades#1", "7-Spades#2"]
    s = setup([pairs] + FILL, wall=WALL)
    assert "go_out" not in legal(s)


def test_sets_laid_down_count_towards_going_out():
    # one open set on the table: eleven cards in the hand make three sets and a pair
    hand = COMPLETE[3:]
    s = setup([hand] + FILL, wall=WALL, melds={0: ["A-Spades#1", "2-Spades#1", "3-Spades#1"]},
              vars={"sets_down": {0: 1}})
    assert "go_out" in legal(s)
    # without the laid set counted, the same eleven cards are not complete
    s = setup([hand] + FILL, wall=WALL)
    assert "go_out" not in legal(s)


def test_four_alike_in_the_hand_count_as_a_book_and_a_card_elsewhere():
    hand = ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4", "5-Clubs#1", "6-Clubs#1",
            "J-Spades", "J-Hearts", "J-Diamonds", "8-Clubs#1", "9-Clubs#1", "F-Clubs",
            "5-Diamonds#1", "5-Diamonds#2"]
    s = setup([hand] + FILL, wall=WALL)
    assert "go_out" in legal(s) and "tome 4-Clubs#4" in legal(s)


# ------------------------------------------------------------------ 4. claims

def claim_position(p2, p3, p4, dealer=0, options=None, **kw):
    p1 = ["5-Hearts#1", "A-Spades#1", "A-Spades#2", "Q-Clubs", "2-Diamonds#3", "4-Clubs#3",
          "6-Spades#2", "9-Spades#2", "9-Diamonds#3", "8-Diamonds#3", "4-Spades#2"]
    s = setup([p1, p2, p3, p4], wall=WALL, dealer=dealer, options=options, **kw)
    apply(s, "discard 5-Hearts#1")
    return s


RUNNER = ["3-Hearts#2", "4-Hearts#2", "6-Hearts#2", "9-Clubs#2", "9-Clubs#3", "K-Spades",
          "A-Diamonds#1", "2-Diamonds#1", "7-Spades#3", "B-Hearts", "W-Clubs", "H-Clubs", "2-Spades#4"]
BOOKER = ["5-Hearts#2", "5-Hearts#3", "A-Clubs#3", "3-Clubs#3", "F-Spades", "8-Spades#3",
          "6-Diamonds#3", "7-Diamonds#3", "Q-Hearts", "B-Clubs", "2-Hearts#4", "3-Spades#4", "J-Clubs"]
WINNER = ["A-Spades#3", "2-Spades#3", "3-Spades#3", "7-Hearts#1", "7-Hearts#2", "7-Hearts#3",
          "J-Spades", "J-Hearts", "J-Diamonds", "8-Clubs#1", "9-Clubs#1", "F-Clubs", "5-Hearts#4"]


def test_every_other_player_decides_on_a_discard_with_only_true_claims():
    s = claim_position(RUNNER, BOOKER, WINNER)
    assert deciders(s) == [1, 2, 3] and s.rule == "claim"
    assert legal(s, 1) == {"run 5", "run 6", "pass"}       # 3-4-[5] or 4-[5]-6; not 5-6-7 (no 7)
    assert legal(s, 2) == {"book", "pass"}                  # two more 5 of Hearts; not three, so no tome
    assert legal(s, 3) == {"win", "pass"}                   # the pair is completed
    assert cards_in(s, "waste") == ["5-Hearts#1"]


def test_a_win_beats_a_book_and_a_run_whoever_answers_first():
    s = claim_position(RUNNER, BOOKER, WINNER, options={"hands": 1})
    apply(s, Move(3, "win", None))
    apply(s, Move(1, "run", "6"))
    apply(s, Move(2, "book", None))
    # P4 takes the card and goes out; the hand is scored and (hands=4) the next deal begins
    v = public_vars(s)
    assert v["hand_winner"] == "P4" and v["winning_discard"] == "5-Hearts#1"
    # the pair completed by the discard counts as open: 10 + closed 7s 20 + closed Jacks 40 = 70
    assert v["hand_score"] == {"P1": 0, "P2": 0, "P3": 0, "P4": 70}
    assert v["dealer"] == "P2" and v["total"]["P4"] == 70  # someone else won: the deal passes


def test_a_book_beats_a_run_and_the_players_in_between_lose_their_turn():
    s = claim_position(RUNNER, BOOKER, FILL[2])
    apply(s, Move(1, "run", "5"))
    apply(s, Move(2, "book", None))
    apply(s, Move(3, "pass", None))
    assert sorted(cards_in(s, "melds", 2)) == ["5-Hearts#1", "5-Hearts#2", "5-Hearts#3"]
    assert public_vars(s)["sets_down"]["P3"] == 1 and public_vars(s)["set_points"]["P3"] == 10
    # P3 plays on without drawing: eleven cards, and must discard (P2 is skipped)
    assert s.actor == 2 and s.rule == "turn" and len(cards_in(s, "hand", 2)) == 11
    assert cards_in(s, "wall") == WALL
    apply(s, "discard J-Clubs")
    assert deciders(s) == [0, 1, 3]
    for seat in (0, 1, 3):
        apply(s, Move(seat, "pass", None))
    # then P4, the player after the claimant, draws from the front of the wall
    assert s.actor == 3 and cards_in(s, "wall") == WALL[:-1]


def test_the_higher_run_wins_and_equal_claims_go_by_seat_from_the_dealer():
    other = ["4-Hearts#3", "7-Hearts#2", "6-Hearts#3"] + FILL[2][3:]  # 4-5-6 or 5-6-7
    s = claim_position(RUNNER, FILL[1], other)
    assert legal(s, 3) == {"run 7", "run 6", "pass"}
    apply(s, Move(1, "run", "6"))
    apply(s, Move(3, "run", "7"))
    apply(s, Move(2, "pass", None))
    assert s.actor == 3 and sorted(cards_in(s, "melds", 3)) == ["5-Hearts#1", "6-Hearts#3", "7-Hearts#2"]
    # the same run claimed by P2 and P4: with P1 dealing, P2 comes first from the dealer ...
    s = claim_position(RUNNER, FILL[1], other)
    for seat, m in ((3, "run"), (1, "run"), (2, "pass")):
        apply(s, Move(seat, m, "6" if m == "run" else None))
    assert s.actor == 1
    # ... with P3 dealing, the order is P3, P4, P1, P2, so P4 comes first
    s = claim_position(RUNNER, FILL[1], other, dealer=2)
    for seat, m in ((1, "run"), (3, "run"), (2, "pass")):
        apply(s, Move(seat, m, "6" if m == "run" else None))
    assert s.actor == 3


WINNER2 = ["3-Hearts#1", "4-Hearts#1", "7-Diamonds#1", "7-Diamonds#2", "7-Diamonds#3", "Q-Spades",
           "Q-Hearts", "Q-Diamonds", "A-Clubs#1", "2-Clubs#1", "3-Clubs#1", "9-Diamonds#1", "9-Diamonds#2"]


@pytest.mark.parametrize("dealer, first", [(0, 1), (1, 1), (2, 3), (3, 3)])
def test_two_players_going_out_on_one_discard_the_first_from_the_dealer_wins(dealer, first):
    p2 = ["5-Hearts#2" if c == "5-Hearts#4" else c for c in WINNER]  # the pair
    s = claim_position(p2, FILL[1], WINNER2, dealer=dealer, options={"hands": 1})
    assert legal(s, 1) == {"win", "pass"} and legal(s, 3) == {"win", "run 5", "pass"}
    for seat, m in ((3, "win"), (2, "pass"), (1, "win")):
        apply(s, Move(seat, m, None))
    assert public_vars(s)["hand_winner"] == f"P{first + 1}"


def test_a_claimed_tome_is_open_and_brings_a_replacement_from_the_back():
    tomer = ["5-Hearts#2", "5-Hearts#3", "5-Hearts#4"] + FILL[2][3:]
    s = claim_position(RUNNER, FILL[1], tomer)
    assert legal(s, 3) == {"tome", "book", "pass"}
    apply(s, Move(3, "tome", None))
    apply(s, Move(1, "run", "5"))
    apply(s, Move(2, "pass", None))
    assert sorted(cards_in(s, "melds", 3)) == ["5-Hearts#1", "5-Hearts#2", "5-Hearts#3", "5-Hearts#4"]
    # the replacement came from the back: 2-Crowns, itself replaced by the next, 3-Crowns, ...
    assert cards_in(s, "laid", 3) == ["2-Crowns", "3-Crowns", "4-Crowns", "5-Crowns", "6-Crowns"]
    assert "H-Diamonds" in cards_in(s, "hand", 3) and cards_in(s, "wall") == ["W-Diamonds"]
    assert s.actor == 3 and len(cards_in(s, "hand", 3)) == len(tomer) - 3 + 1
    assert public_vars(s)["set_points"]["P4"] == 20


def test_a_claim_needs_the_other_cards_in_the_hand():
    s = claim_position(FILL[0], FILL[1], FILL[2])
    assert all(legal(s, seat) == {"pass"} for seat in (1, 2, 3))
    with pytest.raises(IllegalMoveError):
        apply(s, Move(1, "book", None))
    for seat in (1, 2, 3):
        apply(s, Move(seat, "pass", None))
    assert s.actor == 1 and cards_in(s, "waste") == ["5-Hearts#1"]


# ------------------------------------------------------------------ 5. tomes and replacements

def test_a_closed_tome_is_laid_down_and_replaced_from_the_back():
    hand = ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4"] + COMPLETE[3:13]
    s = setup([hand] + FILL, wall=["8-Spades#4", "9-Spades#4", "2-Clubs#4"])
    assert "tome 4-Clubs#4" in legal(s) and not any(m.startswith("tome 4-Clubs#1") for m in legal(s))
    apply(s, "tome 4-Clubs#4")
    assert sorted(cards_in(s, "melds", 0)) == ["4-Clubs#1", "4-Clubs#2", "4-Clubs#3", "4-Clubs#4"]
    assert "8-Spades#4" in cards_in(s, "hand", 0) and cards_in(s, "wall") == ["9-Spades#4", "2-Clubs#4"]
    v = public_vars(s)
    assert v["sets_down"]["P1"] == 1 and v["set_points"]["P1"] == 50


def test_drawing_a_crown_or_bonus_card_lays_it_down_and_replaces_it():
    s = setup([COMPLETE[:13]] + FILL, wall=["K-Spades", "Bird-Hearts", "7-Crowns"], claimed=False)
    # front: 7-Crowns -> laid, back: K-Spades... no: the back is the first card of the list
    assert cards_in(s, "laid", 0) == ["7-Crowns"]
    assert "K-Spades" in cards_in(s, "hand", 0) and cards_in(s, "wall") == ["Bird-Hearts"]


def test_the_hand_ends_without_a_winner_when_only_the_blind_is_left():
    s = setup([COMPLETE[:13]] + FILL, wall=["9-Crowns"], claimed=False, options={"hands": 2})
    # P1 draws the crown, cannot replace it: no winner; the dealer keeps the deal
    v = public_vars(s)
    assert v["hand_winner"] is None and v["dealer"] == "P1" and v["hands_done"] == 1
    assert v["hand_score"]["P1"] == 0  # a crown scores nothing


# ------------------------------------------------------------------ 6. scoring

def finish(hand, options=None, **kw):
    s = setup([hand] + FILL, wall=WALL, options={"hands": 1, **(options or {})}, **kw)
    apply(s, "go_out")
    assert s.finished
    return public_vars(s), outcome(s)


def test_scoring_a_concealed_win():
    # 10 for going out + closed book of 7s 20 + closed book of Jacks doubled 40; runs and a
    # numeral pair nothing
    v, out = finish(COMPLETE)
    assert v["hand_score"]["P1"] == 70 and out.scores == (70, 0, 0, 0) and out.winners == (0,)


def test_scoring_face_runs_and_pairs_and_the_best_split():
    hand = ["F-Spades", "W-Spades", "H-Spades", "Q-Spades", "Q-Hearts",
            "6-Clubs#1", "6-Clubs#2", "6-Clubs#3", "7-Clubs#1", "7-Clubs#2", "7-Clubs#3",
            "8-Clubs#1", "8-Clubs#2", "8-Clubs#3"]
    # three books (20 each) score better than three runs (0): 10 + 5 + 5 + 60 = 80
    v, _ = finish(hand)
    assert v["hand_score"]["P1"] == 80


def test_scoring_sets_laid_down():
    # an open book 10, a face open tome 40, a closed tome 50 (recorded when laid), a face run 5
    hand = ["A-Spades#1", "2-Spades#1", "3-Spades#1", "5-Diamonds#1", "5-Diamonds#2"]
    v, _ = finish(hand, vars={"sets_down": {0: 3}, "set_points": {0: 10 + 40 + 50}})
    assert v["hand_score"]["P1"] == 10 + 100
    p = setup(wall=WALL)
    assert defn("open_value", p, ["9-Clubs#1", "9-Clubs#2", "9-Clubs#3"]) == 10
    assert defn("open_value", p, ["Q-Clubs", "Q-Spades", "Q-Hearts"]) == 20
    assert defn("open_value", p, ["9-Clubs#1", "9-Clubs#2", "9-Clubs#3", "9-Clubs#4"]) == 20
    assert defn("open_value", p, ["Q-Clubs", "Q-Spades", "Q-Hearts", "Q-Diamonds"]) == 40
    assert defn("open_value", p, ["J-Clubs", "Q-Clubs", "K-Clubs"]) == 5
    assert defn("open_value", p, ["9-Clubs#1", "F-Clubs", "W-Clubs"]) == 0
    assert defn("closed_value", p, ["9-Clubs#1", "9-Clubs#2", "9-Clubs#3"]) == 20
    assert defn("closed_value", p, ["Q-Clubs", "Q-Spades", "Q-Hearts"]) == 40
    assert defn("closed_value", p, ["9-Clubs#1", "9-Clubs#2", "9-Clubs#3", "9-Clubs#4"]) == 50
    assert defn("closed_value", p, ["Q-Clubs", "Q-Spades", "Q-Hearts", "Q-Diamonds"]) == 100
    assert defn("closed_value", p, ["Q-Clubs", "Q-Spades"]) == 5
    assert defn("closed_value", p, ["2-Clubs#1", "2-Clubs#2"]) == 0


@pytest.mark.parametrize("bonus, points", [
    ([], 0),
    (["Flower-Spades"], 10),
    (["Flower-Spades", "Bird-Hearts"], 20),
    (["Flower-Spades", "Bird-Spades"], 100),            # two of one suit
    (["Flower-Spades", "Flower-Hearts"], 100),          # two of one kind
    (["Flower-Spades", "Bird-Spades", "Tree-Spades"], 1000),
    (["Tree-Spades", "Tree-Hearts", "Tree-Clubs"], 1000),
    (["Bird-Spades", "Bird-Hearts", "Bird-Clubs", "Bird-Diamonds"], 10000),
])
def test_scoring_bonus_cards(bonus, points):
    s = setup(wall=WALL, laid={1: bonus})
    assert defn("bonus_points", s, 1) == points
    # a crown laid beside them scores nothing
    s = setup(wall=[c for c in WALL if c != "3-Crowns"], laid={1: bonus + ["3-Crowns"]})
    assert defn("bonus_points", s, 1) == points


def test_four_of_a_kind_makes_the_hand_worth_ten_thousand():
    bonus = ["Bird-Spades", "Bird-Hearts", "Bird-Clubs", "Bird-Diamonds"]
    v, _ = finish(COMPLETE, laid={0: bonus, 2: ["Flower-Spades"]})
    assert v["hand_score"] == {"P1": 10000, "P2": 0, "P3": 10, "P4": 0}


def test_seat_suit_adds_for_faces_and_bonus_cards_of_the_seat():
    # P1's seat suit is Spades: J of Spades in the hand and the Flower of Spades, 10 each
    v, _ = finish(COMPLETE, laid={0: ["Flower-Spades"]}, options={"hands": 1, "seat_suit": True})
    assert v["hand_score"]["P1"] == 70 + 10 + 20


# ------------------------------------------------------------------ 7. the optional rules

def test_waiting_restricts_discards_and_doubles_the_win():
    s = setup([COMPLETE[:13]] + FILL, wall=WALL + ["K-Spades"], options={"waiting": True}, claimed=False)
    assert "discard_waiting K-Spades" in legal(s)
    apply(s, "discard_waiting K-Spades")
    for seat in (1, 2, 3):
        apply(s, Move(seat, "pass", None))
    assert public_vars(s)["declared_waiting"]["P1"] is True


def test_waiting_player_wins_on_a_discard_doubled_and_the_discarder_pays():
    p1 = COMPLETE[:13]
    s = setup([FILL[0] + ["5-Diamonds#2"], FILL[1], FILL[2], p1], wall=WALL, turn=0, dealer=0,
              options={"waiting": True, "hands": 1}, vars={"declared_waiting": {3: True}})
    apply(s, "discard 5-Diamonds#2")
    assert legal(s, 3) == {"win", "pass"}  # waiting: only a claim to go out
    for seat, m in ((1, "pass"), (2, "pass"), (3, "win")):
        apply(s, Move(seat, m, None))
    v = public_vars(s)
    assert v["hand_score"]["P4"] == 2 * 70 and v["hand_score"]["P1"] == -100


def test_sacred_discard_penalties():
    # P4 discarded a 5 of Diamonds earlier and did not declare it sacred; winning on another costs 5,000
    p1 = COMPLETE[:13]
    s = setup([FILL[0] + ["5-Diamonds#2"], FILL[1], FILL[2], p1], wall=WALL,
              options={"sacred_discard": True, "hands": 1}, waste=[(3, "5-Diamonds#3")])
    apply(s, "discard 5-Diamonds#2")
    for seat, m in ((1, "pass"), (2, "pass"), (3, "win")):
        apply(s, Move(seat, m, None))
    assert public_vars(s)["hand_score"]["P4"] == 70 - 5000
    # declared sacred: no forfeit for P4, but the player who discards it pays
    s = setup([FILL[0] + ["5-Diamonds#2"], FILL[1], FILL[2], p1], wall=WALL,
              options={"sacred_discard": True, "hands": 1}, waste=[(3, "5-Diamonds#3")],
              vars={"sacred": {3: "5-Diamonds#3"}})
    apply(s, "discard 5-Diamonds#2")
    for seat, m in ((1, "pass"), (2, "pass"), (3, "win")):
        apply(s, Move(seat, m, None))
    v = public_vars(s)
    assert v["hand_score"]["P4"] == 70 and v["hand_score"]["P1"] == -5000


# ------------------------------------------------------------------ 8. the going-out search, timed

def test_the_going_out_search_is_quick_on_a_hard_hand():
    # fourteen cards of one suit, many copies: the search has many ways to try
    hand = ["3-Hearts#1", "3-Hearts#2", "4-Hearts#1", "4-Hearts#2", "5-Hearts#1", "5-Hearts#2",
            "6-Hearts#1", "6-Hearts#2", "7-Hearts#1", "7-Hearts#2", "8-Hearts#1", "8-Hearts#2",
            "9-Hearts#1", "2-Hearts#1"]
    s = setup([hand] + FILL, wall=WALL)
    t = time.perf_counter()
    assert defn("complete", s, 0) is False
    assert time.perf_counter() - t < 2.0


def test_a_waiting_player_must_discard_the_card_just_drawn():
    s = setup([COMPLETE[:13]] + FILL, wall=WALL + ["K-Spades"], claimed=False,
              options={"waiting": True}, vars={"declared_waiting": {0: True}})
    assert cards_in(s, "hand", 0)[-1] == "K-Spades" and legal(s) == {"discard K-Spades"}
