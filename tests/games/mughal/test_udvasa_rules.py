"""Scenario tests for Udvasa, the one-player patience of the Mughal rule book (seed 003),
and its suit-dependent ranking variant: one small position per rule, with the exact set of
legal moves and exactly what happens after each move.

Positions are built with `engine.position` at the start of the play phase (`layout` below):
the given cards lie on the numbered stacks of the zone families `build` and `work` (each list
from bottom to top), every build stack not given holds its starting card, and the rest stay
in the pack, the listed `stock_top` cards on top of it (the last one topmost)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import family_loader

from interpreter.engine import (apply, card_info, cards_in, fired_counts, new_game, outcome, position,
                               public_vars)
from interpreter.errors import IllegalMoveError
from scenario import at, legal, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "mughal"

NUMERALS = [str(n) for n in range(1, 11)]
UP = NUMERALS + ["Vizier", "Raja"]  # a stack built up, bottom to top
DOWN = UP[::-1]  # a stack built down from the Raja (uniform ranking)
BASE_DOWN = ["Surya", "Chandra", "Barat", "Phul"]
BASE_UP = ["Kumancha", "Ghulam", "Cheng", "Shamsher"]
STARTERS = [f"Raja-{s}" for s in BASE_DOWN] + [f"1-{s}" for s in BASE_UP]


rules = family_loader(RULESETS, "udvasa")


def stack(suit: str, ranks) -> list[str]:
    return [f"{r}-{suit}" for r in ranks]


def layout(build=None, work=None, *, stock_top=(), game="udvasa", moves_in_a_row=0, options=None):
    """A position in the play phase. `build` maps a stack number (1-8) to its cards; a stack
    not given holds only its starting card. `work` maps a stack number to its cards."""
    starters = STARTERS if game == "udvasa" else INV_STARTERS
    build = {**{k + 1: [c] for k, c in enumerate(starters)}, **(build or {})}
    zones = {"build": build, "work": work or {}, "stock": list(stock_top)}
    return position(rules(game), 1, "play", zones=zones, vars={"moves_in_a_row": moves_in_a_row},
                    options=options)


def in_a_row(s) -> int:
    return public_vars(s)["moves_in_a_row"]


# ------------------------------------------------------------------ 1. the layout and the first deal

def test_layout_puts_four_rajas_and_four_ones_on_the_build_stacks():
    s = new_game(rules(), 1, seed=5)
    assert [cards_in(s, "build", k) for k in range(1, 9)] == [[c] for c in STARTERS]
    assert fired_counts(s)["starters"] == 1


@pytest.mark.parametrize("seed", [0, 5])
def test_first_deal_lays_one_card_face_up_on_each_working_stack(seed):
    s = new_game(rules(), 1, seed=seed)
    work = [cards_in(s, "work", k) for k in range(1, 9)]
    assert [len(w) for w in work] == [1] * 8
    assert len(cards_in(s, "stock")) == 80
    assert all(card_info(s, w[0])["face_up"] for w in work)
    # the first deal comes from the shuffled pack: the seed decides it
    assert work != [cards_in(new_game(rules(), 1, seed=seed + 1), "work", k) for k in range(1, 9)]
    assert s.rule == "moves" and public_vars(s)["moves_in_a_row"] == 0


# ------------------------------------------------------------------ 2. making a move

# tops: 5 and 6 are one apart, as are 8-9-10-Vizier and 2-3; the Vizier of Surya and the
# 2 of Kumancha go onto their build stacks (Surya builds down from its Raja, Kumancha up from its 1)
MOVES = {1: ["7-Barat", "5-Surya"], 2: ["6-Chandra"], 3: ["Vizier-Surya"], 4: ["2-Kumancha"],
         5: ["9-Ghulam"], 6: ["3-Phul"], 7: ["8-Cheng"], 8: ["10-Shamsher"]}
MOVES_LEGAL = {"build Vizier-Surya", "build 2-Kumancha",
               "shift 5-Surya work2", "shift 6-Chandra work1", "shift Vizier-Surya work8", "shift 2-Kumancha work6",
               "shift 9-Ghulam work7", "shift 9-Ghulam work8", "shift 3-Phul work4", "shift 8-Cheng work5",
               "shift 10-Shamsher work5", "shift 10-Shamsher work3"}


def test_moves_offer_every_build_and_every_card_that_fits_elsewhere_but_no_deal():
    s = layout(work=MOVES)
    at(s, 0, "moves", MOVES_LEGAL)  # a card can go onto a build stack, so no deal yet
    with pytest.raises(IllegalMoveError):
        apply(s, "deal")


# ------------------------------------------------------------------ 3. building

def test_building_down_from_the_raja_and_up_from_the_one():
    s = layout(work=MOVES, moves_in_a_row=5)
    play(s, "build Vizier-Surya")
    assert cards_in(s, "build", 1) == ["Raja-Surya", "Vizier-Surya"]
    assert in_a_row(s) == 0  # progress starts the count again
    # working stack 3 is now empty and stack 1 holds two cards: it must be filled first
    at(s, 0, "fill", {"fill 5-Surya"})
    play(s, "fill 5-Surya")
    assert cards_in(s, "work", 3) == ["5-Surya"] and cards_in(s, "work", 1) == ["7-Barat"]
    at(s, 0, "moves", {"build 2-Kumancha", "shift 7-Barat work2", "shift 7-Barat work7", "shift 6-Chandra work3",
                    "shift 6-Chandra work1", "shift 5-Surya work2", "shift 2-Kumancha work6", "shift 9-Ghulam work7",
                    "shift 9-Ghulam work8", "shift 3-Phul work4", "shift 8-Cheng work1", "shift 8-Cheng work5",
                    "shift 10-Shamsher work5"})
    play(s, "build 2-Kumancha")
    assert cards_in(s, "build", 5) == ["1-Kumancha", "2-Kumancha"]


def test_only_the_next_card_of_the_suit_builds():
    # Surya needs its Vizier (not the 10), Kumancha its 2 (not the 3), Cheng its 2
    s = layout(work={1: ["10-Surya"], 2: ["3-Kumancha"], 3: ["2-Cheng"], 4: ["Raja-Kumancha"]})
    at(s, 0, "moves", {"build 2-Cheng", "shift 2-Cheng work2", "shift 3-Kumancha work3"})
    # a card under another cannot build, even when it is next
    fives = {k: [f"5-{suit}"] for k, suit in enumerate(["Barat", "Ghulam", "Cheng", "Shamsher", "Chandra",
                                                         "Kumancha", "Surya"], start=2)}
    s = layout(work={1: ["Vizier-Surya", "5-Phul"], **fives})
    at(s, 0, "moves", {"deal"})


# ------------------------------------------------------------------ 4. moving between working stacks

def test_a_card_is_laid_on_a_card_one_higher_or_one_lower_whatever_the_suit():
    s = layout(work=MOVES, moves_in_a_row=3)
    # a card and the stack it goes to are one decision: the 9 may go on the 8 or the 10
    assert {m for m in legal(s) if m.startswith("shift 9-Ghulam")} == {"shift 9-Ghulam work7", "shift 9-Ghulam work8"}
    play(s, "shift 9-Ghulam work8")
    assert cards_in(s, "work", 8) == ["10-Shamsher", "9-Ghulam"] and cards_in(s, "work", 5) == []
    assert in_a_row(s) == 4 and fired_counts(s)["shifting"] == 1
    # the stack left empty must be filled next, from the only stack with two cards or more
    at(s, 0, "fill", {"fill 5-Surya", "fill 9-Ghulam"})


def test_the_vizier_counts_eleven_and_the_raja_twelve_without_wrapping():
    s = layout(work={1: ["10-Phul"], 2: ["Vizier-Ghulam"], 3: ["Raja-Cheng"], 4: ["1-Barat"]})
    # not the Raja onto the 1: a Raja and a 1 are not next to each other
    at(s, 0, "moves", {"shift 10-Phul work2", "shift Vizier-Ghulam work1", "shift Vizier-Ghulam work3",
                    "shift Raja-Cheng work2", "deal"})


def test_a_limit_of_thirty_moves_in_a_row_between_working_stacks():
    s = layout(work=MOVES, moves_in_a_row=29)
    play(s, "shift 5-Surya work2")
    assert in_a_row(s) == 30
    # no more moves between working stacks until a card is built or cards are dealt
    at(s, 0, "moves", {"build Vizier-Surya", "build 2-Kumancha"})
    play(s, "build 2-Kumancha", "fill 5-Surya")
    assert in_a_row(s) == 0
    assert "shift 9-Ghulam work8" in legal(s)


# ------------------------------------------------------------------ 5. filling an empty working stack

def test_the_first_empty_stack_is_filled_from_any_stack_of_two_or_more():
    s = layout(work={1: ["4-Chandra", "8-Phul"], 3: ["5-Ghulam", "6-Cheng", "9-Barat"], 5: ["4-Shamsher"]})
    at(s, 0, "fill", {"fill 8-Phul", "fill 9-Barat"})  # not the lone 4 of Shamsher
    play(s, "fill 9-Barat")
    assert cards_in(s, "work", 2) == ["9-Barat"]  # stack 2 is the first empty one
    at(s, 0, "fill", {"fill 8-Phul", "fill 6-Cheng"})
    play(s, "fill 8-Phul", "fill 6-Cheng")
    assert [len(cards_in(s, "work", k)) for k in range(1, 9)] == [1, 1, 1, 1, 1, 1, 0, 0]
    # every stack now holds at most one card: the empty ones stay empty
    at(s, 0, "moves", {"shift 4-Chandra work3", "shift 9-Barat work4", "shift 5-Ghulam work1", "shift 5-Ghulam work5",
                    "shift 5-Ghulam work6", "shift 8-Phul work2", "shift 4-Shamsher work3", "shift 6-Cheng work3",
                    "deal"})


# ------------------------------------------------------------------ 6. dealing more cards

def test_deal_puts_one_card_from_the_pack_on_each_working_stack():
    top = ["2-Barat", "3-Barat", "4-Barat", "5-Barat", "6-Barat", "7-Barat", "8-Barat", "9-Barat"]
    s = layout(work={1: ["4-Chandra"], 2: ["4-Phul"]}, stock_top=top, moves_in_a_row=7)
    before = len(cards_in(s, "stock"))
    at(s, 0, "moves", {"deal"})  # two 4s are not one apart and nothing builds
    play(s, "deal")
    # the topmost card of the pack goes to the first stack
    assert [cards_in(s, "work", k) for k in range(1, 9)] == [
        ["4-Chandra", "9-Barat"], ["4-Phul", "8-Barat"], ["7-Barat"], ["6-Barat"], ["5-Barat"], ["4-Barat"],
        ["3-Barat"], ["2-Barat"]]
    assert len(cards_in(s, "stock")) == before - 8 and in_a_row(s) == 0
    assert fired_counts(s)["deal_more"] == 1


def test_moves_between_working_stacks_do_not_hold_up_the_deal():
    s = layout(work={1: ["4-Chandra"], 2: ["5-Phul"]})
    at(s, 0, "moves", {"shift 4-Chandra work2", "shift 5-Phul work1", "deal"})


def test_strict_dealing_waits_until_no_move_is_left():
    s = layout(work={1: ["4-Chandra"], 2: ["5-Phul"]}, options={"strict_deal": True})
    at(s, 0, "moves", {"shift 4-Chandra work2", "shift 5-Phul work1"})
    # once the limit stops moves between stacks, nothing is left but the deal
    s = layout(work={1: ["4-Chandra"], 2: ["5-Phul"]}, options={"strict_deal": True}, moves_in_a_row=30)
    at(s, 0, "moves", {"deal"})


# ------------------------------------------------------------------ 7. winning and losing

def full(suit: str) -> list[str]:
    return stack(suit, DOWN if suit in BASE_DOWN else UP)


def test_the_game_is_won_when_every_card_is_built():
    build = {k + 1: full(suit) for k, suit in enumerate(BASE_DOWN + BASE_UP)}
    build[1] = build[1][:-1]  # Surya down to the 2
    s = layout(build, {4: ["1-Surya"]})
    at(s, 0, "moves", {"build 1-Surya"})
    play(s, "build 1-Surya")
    assert s.finished and outcome(s).winners == (0,)
    assert fired_counts(s)["won"] == 1


def deadlock():
    """Every card placed, the pack empty. Down suits are built to the 7 and up suits to the 3;
    each working stack ends with the next card one suit needs, covered by a 5 that another
    suit needs only later. The rest of the cards lie underneath."""
    suits = BASE_DOWN + BASE_UP
    build = {k + 1: full(s)[:6] if s in BASE_DOWN else full(s)[:3] for k, s in enumerate(suits)}
    need = {s: (f"6-{s}" if s in BASE_DOWN else f"4-{s}") for s in suits}
    rest = {s: [c for c in full(s) if c not in build[k + 1] and c not in (need[s], f"5-{s}")]
            for k, s in enumerate(suits)}
    work = {}
    for k, s in enumerate(suits):
        cover = suits[(k + 1) % 8]
        work[k + 1] = rest[s] + [need[s], f"5-{cover}"]
    return build, work


def test_the_game_is_lost_when_the_pack_is_out_and_no_move_is_left():
    s = layout(*deadlock())
    assert cards_in(s, "stock") == []
    assert s.finished and outcome(s).winners == ()
    assert fired_counts(s)["lost"] == 1


def test_the_game_is_lost_when_only_moves_past_the_limit_are_left():
    build, work = deadlock()
    assert work[1] == ["4-Surya", "3-Surya", "2-Surya", "1-Surya", "6-Surya", "5-Chandra"]
    work[1] = work[1][1:] + ["4-Surya"]  # the 4 of Surya on top: it fits on every 5
    s = layout(build, work, moves_in_a_row=29)
    fives = {"5-Barat", "5-Phul", "5-Kumancha", "5-Ghulam", "5-Cheng", "5-Shamsher", "5-Surya"}
    at(s, 0, "moves", {f"shift 4-Surya work{k}" for k in range(2, 9)} | {f"shift {c} work1" for c in fives})
    play(s, "shift 4-Surya work2")
    # the 5 of Chandra could go onto the 4 now, but that would be a 31st move in a row;
    # nothing can be built and the pack is out: the game is lost
    assert s.finished and outcome(s).winners == ()
    assert fired_counts(s)["lost"] == 1


# ------------------------------------------------------------------ 8. the suit-dependent ranking

INV_DOWN = ["Surya", "Barat", "Kumancha", "Cheng"]
INV_UP = ["Chandra", "Phul", "Ghulam", "Shamsher"]
INV_STARTERS = [f"Raja-{s}" for s in INV_DOWN] + [f"1-{s}" for s in INV_UP]


def test_inverted_ranking_builds_the_weak_suits_down_from_the_raja():
    s = new_game(rules("udvasa-inverted"), 1, seed=2)
    assert [cards_in(s, "build", k) for k in range(1, 9)] == [[c] for c in INV_STARTERS]


def test_inverted_suits_run_raja_vizier_then_one_up_to_ten():
    s = layout({1: ["Raja-Surya", "Vizier-Surya"]}, {1: ["1-Surya"], 2: ["10-Surya"], 3: ["2-Chandra"]},
               game="udvasa-inverted")
    # after the Vizier of Surya comes its 1 (the highest numeral there), not its 10;
    # Chandra keeps 1 low and builds up from its 1 to the 2
    at(s, 0, "moves", {"build 1-Surya", "build 2-Chandra", "shift 1-Surya work3", "shift 2-Chandra work1"})
    play(s, "build 1-Surya", "build 2-Chandra")
    assert cards_in(s, "build", 1) == ["Raja-Surya", "Vizier-Surya", "1-Surya"]
    assert cards_in(s, "build", 5) == ["1-Chandra", "2-Chandra"]


def test_inverted_game_is_won_with_the_weak_suits_ending_on_their_ten():
    full_inv = {s: stack(s, ["Raja", "Vizier"] + NUMERALS) for s in INV_DOWN} | {s: stack(s, UP) for s in INV_UP}
    build = {k + 1: full_inv[s] for k, s in enumerate(INV_DOWN + INV_UP)}
    build[2] = build[2][:-1]  # Barat down to its 9
    s = layout(build, {1: ["10-Barat"]}, game="udvasa-inverted")
    at(s, 0, "moves", {"build 10-Barat"})
    play(s, "build 10-Barat")
    assert s.finished and outcome(s).winners == (0,)


def test_working_stacks_ignore_the_ranking_in_the_variant():
    s = layout(work={1: ["1-Surya"], 2: ["Vizier-Chandra"], 3: ["2-Phul"]}, game="udvasa-inverted")
    # by number: the 1 goes on the 2, not on the Vizier that ranks next to it in Surya
    at(s, 0, "moves", {"shift 1-Surya work3", "shift 2-Phul work1", "build 2-Phul"})
