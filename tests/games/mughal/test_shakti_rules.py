"""Scenario tests for Shakti, the four-player drawing game of the Mughal rule book (seed 003),
and its suit-dependent ranking variant: one small position per rule, with the exact set of
legal moves and exactly what happens after each move.

Positions are built with `engine.position` at the start of the play phase: hands and discard
piles are given per seat (0-based, P1 = seat 0, piles listed bottom to top), cards not placed
stay in the deck, and cards listed under "stock" are put on top of the deck in that order
(the last one topmost)."""

from __future__ import annotations

from pathlib import Path

from bundled_games import family_loader

from interpreter.engine import (card_info, cards_in, fired_counts, new_game, observe, outcome, position,
                               program_of, public_vars)
from scenario import at, legal, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"


rules = family_loader(RULESETS, "shakti")


def setup(hands, piles, *, stock=None, rounds=0, game="shakti", options=None):
    zones = {"hand": dict(enumerate(hands)), "pile": dict(enumerate(piles))}
    if stock is not None:
        zones["stock"] = stock
    return position(rules(game), 4, "play", zones=zones, vars={"rounds": rounds}, options=options)


def fired(s, rule: str) -> int:
    return fired_counts(s)[rule]


def discards(cards) -> set[str]:
    return {f"discard {c}" for c in cards}


def suit(name: str, ranks) -> list[str]:
    return [f"{r}-{name}" for r in ranks]


H1 = suit("Chandra", range(2, 9)) + ["5-Barat"]  # seven of a run, and one stray card
H2 = suit("Surya", [1, 3, 5, 7, 9, "Raja"]) + ["2-Phul", "4-Phul"]
H3 = suit("Ghulam", [1, 3, 5, 7, 9, "Raja"]) + ["3-Phul", "8-Phul"]
H4 = suit("Shamsher", [1, 3, 5, 7, 9, "Raja"]) + ["2-Kumancha", "4-Kumancha"]
HANDS = [H1, H2, H3, H4]
PILES = [["10-Phul"], ["9-Chandra"], ["6-Phul"], ["Vizier-Phul"]]
DRAWS = {"deck", "tops", "bottoms"}


# ------------------------------------------------------------------ 1. the deal

def test_deal_gives_eight_cards_each_and_starts_every_pile_face_up():
    s = new_game(rules(), 4, seed=3)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [8] * 4
    assert [len(cards_in(s, "pile", p)) for p in range(4)] == [1] * 4
    assert len(cards_in(s, "stock")) == 96 - 32 - 4
    view = observe(s, 1)["zones"]
    assert view["pile"]["P1"] == {"cards": cards_in(s, "pile", 0)}  # the piles are face up
    assert view["hand"]["P1"] == {"count": 8, "known": []}  # the hands are not
    at(s, 0, "draw", DRAWS)  # P1, on the dealer's right, plays first; no pile holds four yet
    assert cards_in(new_game(rules(), 4, seed=4), "hand", 0) != cards_in(s, "hand", 0)


# ------------------------------------------------------------------ 2. drawing from the deck

def test_drawing_from_the_deck_then_discarding_on_your_own_pile():
    top4 = ["9-Barat", "10-Barat", "Vizier-Barat", "Raja-Barat"]
    s = setup(HANDS, PILES, stock=top4)
    deck = len(cards_in(s, "stock"))
    play(s, "deck")
    assert cards_in(s, "hand", 0) == H1 + top4 and len(cards_in(s, "stock")) == deck - 4
    at(s, 0, "from_deck", discards(H1 + top4))
    play(s, "discard Raja-Barat", "discard 5-Barat", "discard 2-Chandra")
    at(s, 0, "from_deck", discards(H1[1:7] + top4[:3]))
    play(s, "discard 9-Barat")
    assert cards_in(s, "pile", 0) == ["10-Phul", "Raja-Barat", "5-Barat", "2-Chandra", "9-Barat"]
    assert sorted(cards_in(s, "hand", 0)) == sorted(H1[1:7] + ["10-Barat", "Vizier-Barat"])
    assert [cards_in(s, "pile", p) for p in (1, 2, 3)] == PILES[1:]
    # the turn passes to P2, who may now take four from P1's pile
    at(s, 1, "draw", DRAWS | {"top_four pile-P1", "bottom_four pile-P1"})


def test_the_deck_is_not_offered_with_fewer_than_four_cards():
    s = setup(HANDS, PILES, options={"new_deck": False})
    s2 = setup(HANDS, PILES)
    assert "deck" in legal(s2)
    # empty the deck by hand: with no new deck the deck choice is gone for good
    names = program_of(rules()).card_names
    placed = {c for h in HANDS for c in h} | {c for p in PILES for c in p}
    rest = [c for c in names if c not in placed]
    piles = [PILES[0] + rest[:60]] + PILES[1:]
    s = setup(HANDS, piles, options={"new_deck": False})
    assert cards_in(s, "stock") == []
    at(s, 0, "draw", {"tops", "bottoms", "top_four pile-P1", "bottom_four pile-P1"})


# ------------------------------------------------------------------ 3. drawing the top of every pile

def test_drawing_every_top_then_one_discard_on_top_of_each_pile():
    s = setup(HANDS, [["4-Barat", "10-Phul"], ["9-Chandra"], ["6-Phul"], ["Vizier-Phul"]])
    play(s, "tops")
    drawn = ["10-Phul", "9-Chandra", "6-Phul", "Vizier-Phul"]  # own pile first, then in turn order
    assert cards_in(s, "hand", 0) == H1 + drawn
    assert cards_in(s, "pile", 0) == ["4-Barat"] and cards_in(s, "pile", 1) == []
    at(s, 0, "from_tops", discards(H1 + drawn))
    play(s, "discard 6-Phul")  # onto P1's own pile
    play(s, "discard 2-Chandra")  # onto P2's pile
    play(s, "discard Vizier-Phul")  # P3's
    play(s, "discard 10-Phul")  # P4's
    assert [cards_in(s, "pile", p) for p in range(4)] == [["4-Barat", "6-Phul"], ["2-Chandra"], ["Vizier-Phul"],
                                                          ["10-Phul"]]
    at(s, 1, "draw", DRAWS)


def test_drawn_pile_cards_stay_known_to_everyone_deck_cards_do_not():
    s = setup(HANDS, PILES, stock=["Raja-Barat", "Vizier-Barat", "10-Barat", "9-Barat"])
    play(s, "tops", "discard 5-Barat", "discard 2-Chandra", "discard 3-Chandra", "discard 4-Chandra")
    assert sorted(observe(s, 2)["zones"]["hand"]["P1"]["known"]) == sorted(
        ["10-Phul", "9-Chandra", "6-Phul", "Vizier-Phul"])
    play(s, "deck")  # P2
    assert sorted(observe(s, 0)["zones"]["hand"]["P2"]["known"]) == []


# ------------------------------------------------------------------ 4. drawing the bottom of every pile

def test_drawing_every_bottom_then_sliding_one_discard_under_each_pile():
    piles = [["10-Phul"], ["1-Barat", "2-Barat", "9-Chandra"], ["6-Phul", "3-Barat"], ["Vizier-Phul"]]
    s = setup(HANDS, piles)
    play(s, "bottoms")
    drawn = ["10-Phul", "1-Barat", "6-Phul", "Vizier-Phul"]
    assert cards_in(s, "hand", 0) == H1 + drawn
    at(s, 0, "from_bottoms", discards(H1 + drawn))
    play(s, "discard 5-Barat", "discard 1-Barat", "discard 10-Phul", "discard 8-Chandra")
    assert [cards_in(s, "pile", p) for p in range(4)] == [
        ["5-Barat"], ["1-Barat", "2-Barat", "9-Chandra"], ["10-Phul", "3-Barat"], ["8-Chandra"]]
    at(s, 1, "draw", DRAWS)


# ------------------------------------------------------------------ 5. four from the top of one pile

BIG = ["3-Barat", "4-Barat", "6-Barat", "7-Barat", "8-Barat"]


def test_four_from_the_top_of_a_pile_of_four_or_more_and_back_on_top():
    s = setup(HANDS, [["10-Phul"], ["9-Chandra"], BIG, ["Vizier-Phul"]])
    at(s, 0, "draw", DRAWS | {"top_four pile-P3", "bottom_four pile-P3"})
    play(s, "top_four pile-P3")
    assert cards_in(s, "hand", 0) == H1 + BIG[1:] and cards_in(s, "pile", 2) == ["3-Barat"]
    at(s, 0, "from_pile_top", discards(H1 + BIG[1:]))
    play(s, "discard 2-Chandra", "discard 3-Chandra", "discard 4-Chandra", "discard 8-Barat")
    assert cards_in(s, "pile", 2) == ["3-Barat", "2-Chandra", "3-Chandra", "4-Chandra", "8-Barat"]
    assert [cards_in(s, "pile", p) for p in (0, 1, 3)] == [["10-Phul"], ["9-Chandra"], ["Vizier-Phul"]]
    at(s, 1, "draw", DRAWS | {"top_four pile-P3", "bottom_four pile-P3"})


def test_a_player_may_take_four_from_their_own_pile():
    s = setup(HANDS, [["10-Phul", "1-Barat", "2-Barat", "3-Barat"], ["9-Chandra"], ["6-Phul"], ["Vizier-Phul"]])
    at(s, 0, "draw", DRAWS | {"top_four pile-P1", "bottom_four pile-P1"})


# ------------------------------------------------------------------ 6. four from the bottom of one pile

def test_four_from_the_bottom_of_a_pile_and_back_underneath():
    s = setup(HANDS, [["10-Phul"], ["9-Chandra"], BIG, ["Vizier-Phul"]])
    play(s, "bottom_four pile-P3")
    assert cards_in(s, "hand", 0) == H1 + BIG[:4] and cards_in(s, "pile", 2) == ["8-Barat"]
    at(s, 0, "from_pile_bottom", discards(H1 + BIG[:4]))
    play(s, "discard 2-Chandra", "discard 3-Chandra", "discard 4-Chandra", "discard 3-Barat")
    # each discard slides under the pile: the last one ends at the very bottom
    assert cards_in(s, "pile", 2) == ["3-Barat", "4-Chandra", "3-Chandra", "2-Chandra", "8-Barat"]
    assert [card_info(s, c)["face_up"] for c in cards_in(s, "pile", 2)] == [True] * 5
    at(s, 1, "draw", DRAWS | {"top_four pile-P3", "bottom_four pile-P3"})


# ------------------------------------------------------------------ 7. completing a hand

def test_a_run_of_eight_in_one_suit_wins():
    s = setup(HANDS, PILES)
    # take 9-Chandra from P2's pile and give back the stray 5 of Barat and the other three
    play(s, "tops", "discard 5-Barat", "discard 10-Phul", "discard 6-Phul", "discard Vizier-Phul")
    assert sorted(cards_in(s, "hand", 0)) == sorted(suit("Chandra", range(2, 10)))
    assert s.finished and outcome(s).winners == (0,) and fired(s, "win") == 1


def test_eight_cards_of_one_rank_win():
    viziers = [f"Vizier-{x}" for x in ("Surya", "Chandra", "Barat", "Kumancha", "Ghulam", "Cheng", "Shamsher")]
    s = setup([H1, viziers + ["1-Barat"], H3, H4], PILES)
    play(s, "tops", "discard 10-Phul", "discard 9-Chandra", "discard 6-Phul", "discard Vizier-Phul")  # P1
    assert [cards_in(s, "pile", p) for p in range(4)] == PILES
    at(s, 1, "draw", DRAWS)
    play(s, "tops")  # P2 takes the Vizier of Phul from P4's pile
    play(s, "discard 1-Barat", "discard 9-Chandra", "discard 6-Phul", "discard 10-Phul")
    assert s.finished and outcome(s).winners == (1,) and fired(s, "win") == 1


def test_a_run_may_end_with_the_courts_but_not_go_round_the_corner():
    courts = suit("Cheng", [5, 6, 7, 8, 9, 10, "Vizier", "Raja"])
    s = setup([H1, courts, H3, H4], PILES)
    assert s.finished and outcome(s).winners == (1,) and fired(s, "dealt_complete") == 1
    corner = suit("Cheng", ["Vizier", "Raja", 1, 2, 3, 4, 5, 6])
    s = setup([H1, corner, H3, H4], PILES)
    at(s, 0, "draw", DRAWS)  # not complete: nobody wins before the first turn


def test_a_hand_is_not_complete_with_seven_of_a_run():
    s = setup(HANDS, PILES)
    play(s, "tops", "discard 9-Chandra", "discard 10-Phul", "discard 6-Phul", "discard Vizier-Phul")
    assert not s.finished and fired(s, "win") == 0
    at(s, 1, "draw", DRAWS)


# ------------------------------------------------------------------ 8. a new deck

def full_table(deck_left: list[str]):
    """Every card placed: the hands, the four piles share all the rest but `deck_left`."""
    names = program_of(rules()).card_names
    placed = {c for h in HANDS for c in h} | set(deck_left)
    rest = [c for c in names if c not in placed]
    piles = [rest[k::4] for k in range(4)]
    return piles


def test_when_the_deck_runs_out_the_piles_but_their_tops_become_a_new_deck():
    last = ["9-Barat", "10-Barat", "Vizier-Barat", "Raja-Barat"]
    piles = full_table(last)
    s = setup(HANDS, piles)
    assert cards_in(s, "stock") == last
    play(s, "deck", "discard 9-Barat", "discard 10-Barat", "discard Vizier-Barat", "discard Raja-Barat")
    assert fired(s, "reshuffle") == 1
    assert [cards_in(s, "pile", p) for p in range(4)] == [["Raja-Barat"]] + [[p[-1]] for p in piles[1:]]
    under = piles[0] + last[:3] + [c for p in piles[1:] for c in p[:-1]]
    assert sorted(cards_in(s, "stock")) == sorted(under) and len(under) == 60
    assert all(not card_info(s, c)["face_up"] for c in cards_in(s, "stock"))
    at(s, 1, "draw", DRAWS)


def test_without_a_new_deck_the_deck_is_gone_when_it_runs_out():
    last = ["9-Barat", "10-Barat", "Vizier-Barat", "Raja-Barat"]
    piles = full_table(last)
    s = setup(HANDS, piles, options={"new_deck": False})
    play(s, "deck", "discard 9-Barat", "discard 10-Barat", "discard Vizier-Barat", "discard Raja-Barat")
    assert fired(s, "reshuffle") == 0 and cards_in(s, "stock") == []
    at(s, 1, "draw", {"tops", "bottoms"} | {f"{how} pile-P{k}" for how in ("top_four", "bottom_four")
                                          for k in range(1, 5)})


# ------------------------------------------------------------------ 9. no winner

def test_the_game_ends_without_a_winner_after_a_hundred_rounds():
    s = setup(HANDS, PILES, rounds=99)
    for seat in range(4):
        assert (s.actor, s.rule) == (seat, "draw")
        play(s, "deck")
        drawn = cards_in(s, "hand", seat)[-4:]
        play(s, *[f"discard {c}" for c in drawn])
    assert s.finished and outcome(s).winners == () and fired(s, "no_winner") == 1
    assert public_vars(s)["rounds"] == 100


def test_rounds_are_counted_after_every_player_has_had_a_turn():
    s = setup(HANDS, PILES, rounds=5)
    for seat in range(4):
        play(s, "deck")
        play(s, *[f"discard {c}" for c in cards_in(s, "hand", seat)[-4:]])
        assert public_vars(s)["rounds"] == (5 if seat < 3 else 6)
    assert (s.actor, s.rule) == (0, "draw")


# ------------------------------------------------------------------ 10. the suit-dependent ranking

def test_inverted_suits_run_up_to_the_one_then_the_courts():
    weak = suit("Cheng", [1, 2, 3, 4, 5, 6, "Vizier", "Raja"])  # Cheng: 10 low ... 1 high, Vizier, Raja
    s = setup([H1, weak, H3, H4], PILES, game="shakti-inverted")
    assert s.finished and outcome(s).winners == (1,)
    s = setup([H1, weak, H3, H4], PILES)  # in the uniform ranking this is not a run
    at(s, 0, "draw", DRAWS)
    high = suit("Cheng", [5, 6, 7, 8, 9, 10, "Vizier", "Raja"])
    s = setup([H1, high, H3, H4], PILES, game="shakti-inverted")
    at(s, 0, "draw", DRAWS)  # ... and this one is not a run in the inverted ranking


def test_runs_of_numerals_and_strong_suits_are_the_same_in_both_rankings():
    first = suit("Surya", [2, 4, 6, 8, 10, "Vizier"]) + ["1-Kumancha", "3-Kumancha"]
    for game in ("shakti", "shakti-inverted"):
        for hand in (suit("Cheng", range(2, 10)), suit("Chandra", [5, 6, 7, 8, 9, 10, "Vizier", "Raja"])):
            s = setup([first, hand, H3, H4], [["10-Phul"], ["9-Barat"], ["6-Phul"], ["Vizier-Phul"]], game=game)
            assert s.finished and outcome(s).winners == (1,), (game, hand)
