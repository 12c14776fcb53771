"""FreeCell (rulesets/classic/freecell.cards) against pagat.com's rules: one small position per
rule, with the exact set of legal moves and exactly what happens after a move.

Positions start at the play phase (`layout` below): the cards given lie on the numbered columns,
free cells and foundations (each list from the bottom up, the last card on top); every other
card stays in the pack, which play never touches."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import loader

from interpreter.engine import (apply, card_info, cards_in, fired_counts, new_game, outcome, position,
                               public_vars)
from interpreter.errors import IllegalMoveError
from scenario import legal

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "freecell.cards"
RANKS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]


rules = loader(RULESET)


def layout(columns=None, cells=None, foundations=None, *, idle=0, options=None):
    zones = {"column": columns or {}, "cell": cells or {}, "foundation": foundations or {}}
    return position(rules(), 1, "play", zones=zones, vars={"idle_moves": idle}, options=options)


def moves(s, kind: str) -> set[str]:
    return {m for m in legal(s) if m.split()[0] == kind}


def columns(s) -> list[list[str]]:
    return [cards_in(s, "column", k) for k in range(1, 9)]


def suit(name: str, upto: str = "King") -> list[str]:
    return [f"{r}-{name}" for r in RANKS[:RANKS.index(upto) + 1]]


# ================================================================== the layout

@pytest.mark.parametrize("seed", [0, 7])
def test_the_whole_pack_is_dealt_face_up_into_eight_columns_of_seven_and_six(seed):
    s = new_game(rules(), 1, seed=seed)
    cols = columns(s)
    assert [len(c) for c in cols] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert cards_in(s, "stock") == [] and all(cards_in(s, z, k) == [] for z in ("cell", "foundation") for k in range(1, 5))
    assert all(card_info(s, c)["face_up"] for col in cols for c in col)
    assert (s.rule, public_vars(s)["idle_moves"]) == ("moves", 0)


def test_the_deal_goes_one_card_at_a_time_across_the_columns_row_by_row():
    pack = [f"{r}-{x}" for x in SUITS for r in RANKS]  # bottom first: the top card is the King of Spades
    s = position(rules(), 1, "layout", zones={"stock": pack}, shuffle=False)
    dealt = pack[::-1]
    assert columns(s) == [dealt[k::8] for k in range(8)]


# ================================================================== the foundations

def test_an_ace_starts_the_leftmost_empty_foundation_from_a_column_or_a_free_cell():
    s = layout({1: ["9-Clubs", "Ace-Spades"], 2: ["Ace-Hearts", "5-Clubs"]}, {2: ["Ace-Diamonds"]},
               {1: ["Ace-Clubs"]})
    assert moves(s, "home") == {"home Ace-Spades", "home Ace-Diamonds"}  # not the covered Ace of Hearts
    apply(s, "home Ace-Diamonds")
    assert cards_in(s, "foundation", 2) == ["Ace-Diamonds"] and cards_in(s, "cell", 2) == []
    apply(s, "home Ace-Spades")
    assert cards_in(s, "foundation", 3) == ["Ace-Spades"]


def test_a_foundation_is_built_up_in_suit_one_card_at_a_time():
    s = layout({1: ["2-Spades"], 2: ["3-Clubs"], 3: ["2-Clubs"], 4: ["2-Hearts"]}, {1: ["3-Diamonds"]},
               {1: ["Ace-Hearts"], 3: ["Ace-Clubs"]})
    # the 2 of Clubs and the 2 of Hearts are next on theirs; no Ace of Spades or Diamonds is up yet
    assert moves(s, "home") == {"home 2-Clubs", "home 2-Hearts"}
    apply(s, "home 2-Clubs")
    assert cards_in(s, "foundation", 3) == ["Ace-Clubs", "2-Clubs"]
    assert "home 3-Clubs" in legal(s)  # the next card of the suit, now uncovered


def test_cards_never_leave_the_foundations():
    s = layout({1: ["5-Hearts"], 2: []}, foundations={1: suit("Spades", "4")})
    assert not any("4-Spades" in m for m in legal(s))
    assert legal(s) == {"park 5-Hearts", "shift 5-Hearts column2"}


# ================================================================== the free cells

def test_the_top_card_of_a_column_goes_to_the_leftmost_empty_free_cell():
    s = layout({1: ["9-Clubs", "4-Hearts"], 2: ["King-Spades"]}, {1: ["2-Clubs"], 3: ["5-Clubs"]})
    assert moves(s, "park") == {"park 4-Hearts", "park King-Spades"}  # not the covered 9 of Clubs
    apply(s, "park 4-Hearts")
    assert cards_in(s, "cell", 2) == ["4-Hearts"] and cards_in(s, "column", 1) == ["9-Clubs"]
    assert public_vars(s)["idle_moves"] == 1


def test_no_card_goes_to_a_free_cell_when_all_are_full():
    s = layout({1: ["9-Clubs", "4-Hearts"]}, {k: [f"{k + 5}-Spades"] for k in range(1, 5)})
    assert moves(s, "park") == set()


@pytest.mark.parametrize("cells", [1, 2, 3])
def test_fewer_free_cells_is_an_option(cells):
    full = {k: [f"{k + 5}-Spades"] for k in range(1, cells + 1)}
    s = layout({1: ["9-Clubs", "4-Hearts"], 2: ["King-Diamonds"]}, full, options={"free_cells": cells})
    assert moves(s, "park") == set()
    roomy = layout({1: ["9-Clubs", "4-Hearts"], 2: ["King-Diamonds"]}, options={"free_cells": cells})
    apply(roomy, "park 4-Hearts")
    assert cards_in(roomy, "cell", 1) == ["4-Hearts"]


def test_a_card_leaves_its_free_cell_for_a_column_where_it_fits_or_the_leftmost_empty_column():
    # the 9 of Hearts fits the black 10s only; the 10 of Clubs is covered
    s = layout({1: ["10-Clubs", "3-Diamonds"], 2: ["10-Spades"], 3: ["10-Diamonds"], 4: ["Jack-Hearts"],
                5: ["King-Clubs"], 6: ["Queen-Clubs"], 7: ["7-Clubs"]}, {1: ["9-Hearts"]})
    assert moves(s, "unpark") == {"unpark 9-Hearts column2", "unpark 9-Hearts column8"}
    apply(s, "unpark 9-Hearts column2")
    assert cards_in(s, "column", 2) == ["10-Spades", "9-Hearts"] and cards_in(s, "cell", 1) == []


# ================================================================== moves between columns

def test_the_top_card_moves_onto_a_card_one_higher_of_the_other_colour():
    s = layout({1: ["Ace-Clubs", "8-Hearts"], 2: ["9-Spades"], 3: ["9-Diamonds"], 4: ["9-Clubs"],
                5: ["7-Spades"], 6: ["King-Hearts"], 7: ["4-Clubs"], 8: ["Jack-Diamonds"]}, {1: ["2-Spades"]})
    assert moves(s, "shift") == {"shift 8-Hearts column2", "shift 8-Hearts column4", "shift 7-Spades column1"}
    apply(s, "shift 8-Hearts column4")
    assert cards_in(s, "column", 4) == ["9-Clubs", "8-Hearts"] and cards_in(s, "column", 1) == ["Ace-Clubs"]


def test_a_run_moves_whole_and_keeps_its_order():
    run = ["10-Spades", "9-Hearts", "8-Clubs", "7-Diamonds"]
    s = layout({1: ["2-Hearts"] + run, 2: ["Jack-Diamonds"], 3: ["Jack-Clubs"], 4: ["3-Clubs"], 5: ["3-Spades"],
                6: ["King-Hearts"], 7: ["King-Spades"], 8: ["Queen-Clubs"]}, {1: ["4-Diamonds"]})
    # three empty free cells carry four cards; the 2 of Hearts is not part of the run
    assert {m for m in moves(s, "shift") if "column2" in m or "column3" in m} == {"shift 10-Spades column2"}
    apply(s, "shift 10-Spades column2")
    assert cards_in(s, "column", 2) == ["Jack-Diamonds"] + run and cards_in(s, "column", 1) == ["2-Hearts"]


def test_only_cards_in_sequence_up_to_the_top_move_together():
    # the 8 of Clubs does not lie on a red 9: nothing beneath it moves with it
    s = layout({1: ["10-Spades", "9-Spades", "8-Clubs", "7-Diamonds"], 2: ["10-Diamonds"], 3: ["9-Diamonds"],
                4: ["3-Clubs"], 5: ["3-Spades"], 6: ["King-Hearts"], 7: ["King-Spades"], 8: ["Queen-Clubs"]})
    assert {m for m in moves(s, "shift") if m.startswith("shift 9-Spades") or m.startswith("shift 8-Clubs")} \
        == {"shift 8-Clubs column3"}


RUN = ["Queen-Hearts", "Jack-Spades", "10-Hearts", "9-Spades", "8-Hearts", "7-Spades", "6-Hearts", "5-Spades",
       "4-Hearts", "3-Spades", "2-Hearts"]


def run_position(free: int, empty: int, n: int):
    """The top n cards of RUN on column 1, a card its lowest card fits on column 2, `free` empty
    free cells and `empty` empty columns (the columns on the right)."""
    run = RUN[-n:]
    rank, colour = RANKS[RANKS.index(run[0].split("-")[0]) + 1], "Clubs" if run[0].endswith("Hearts") else "Diamonds"
    cols = {1: run, 2: [f"{rank}-{colour}"]}
    for k, f in zip(range(3, 9 - empty), ["Ace-Clubs", "Ace-Diamonds", "Ace-Hearts", "Ace-Spades", "King-Hearts",
                                          "King-Spades"]):
        cols[k] = [f]
    cells = {k: [c] for k, c in zip(range(1, 5 - free), ["2-Clubs", "2-Diamonds", "2-Spades", "3-Hearts"])}
    return layout(cols, cells)


@pytest.mark.parametrize("free,empty", [(0, 0), (1, 0), (4, 0), (0, 1), (1, 1), (2, 2), (3, 1), (0, 3)])
def test_a_run_may_hold_one_more_card_than_the_empty_cells_doubled_for_each_empty_column(free, empty):
    for n in range(1, len(RUN) + 1):
        s = run_position(free, empty, n)
        bottom = RUN[-n]
        assert (f"shift {bottom} column2" in legal(s)) == (n <= (free + 1) * 2 ** empty), n
        if empty:  # into an empty column, that column itself does not count
            assert (f"shift {bottom} column{9 - empty}" in legal(s)) == (n <= (free + 1) * 2 ** (empty - 1)), n


def test_without_supermoves_every_move_is_of_one_card():
    s = layout({1: ["Queen-Hearts", "Jack-Spades", "10-Hearts"], 2: ["King-Clubs"], 3: ["Jack-Clubs"]},
               options={"supermoves": False})
    ours = {"Queen-Hearts", "Jack-Spades", "10-Hearts"}
    assert {m for m in moves(s, "shift") if m.split()[1] in ours} == {"shift 10-Hearts column3", "shift 10-Hearts column4"}
    on = layout({1: ["Queen-Hearts", "Jack-Spades", "10-Hearts"], 2: ["King-Clubs"], 3: ["Jack-Clubs"]})
    assert {"shift Queen-Hearts column2", "shift Jack-Spades column4"} <= moves(on, "shift")


def test_a_move_into_an_empty_column_is_offered_for_the_leftmost_only():
    s = layout({2: ["9-Clubs"], 5: ["8-Hearts"], 7: ["King-Spades"]})
    assert moves(s, "shift") == {"shift 9-Clubs column1", "shift 8-Hearts column1", "shift King-Spades column1",
                                 "shift 8-Hearts column2"}


def test_bakers_game_builds_down_in_suit():
    cols = {1: ["8-Hearts"], 2: ["9-Spades"], 3: ["9-Hearts"], 4: ["Jack-Clubs"], 5: ["Jack-Spades"],
            6: ["King-Diamonds"], 7: ["King-Clubs"], 8: ["Queen-Spades"]}
    assert {m for m in moves(layout(cols), "shift") if m.startswith("shift 8-Hearts")} == {"shift 8-Hearts column2"}
    baker = layout(cols, options={"building": "suit"})
    assert {m for m in moves(baker, "shift") if m.startswith("shift 8-Hearts")} == {"shift 8-Hearts column3"}
    assert "shift Jack-Spades column8" in legal(baker) and "shift Jack-Clubs column8" not in legal(baker)
    assert "shift Queen-Spades column6" in legal(layout(cols)) and "shift Queen-Spades column6" not in legal(baker)


# ================================================================== winning and losing

def test_the_game_is_won_when_all_fifty_two_cards_are_on_the_foundations():
    found = {k + 1: suit(x) for k, x in enumerate(SUITS)}
    found[4] = suit("Spades", "Queen")
    s = layout({}, {3: ["King-Spades"]}, found)
    assert legal(s) == {"home King-Spades", "unpark King-Spades column1"}
    apply(s, "home King-Spades")
    assert s.finished and outcome(s).winners == (0,) and fired_counts(s)["won"] == 1


BLOCKED = {1: ["King-Spades"], 2: ["Queen-Spades"], 3: ["Jack-Spades"], 4: ["10-Spades"],
           5: ["King-Clubs"], 6: ["Queen-Clubs"], 7: ["Jack-Clubs"], 8: ["10-Clubs"]}


def test_the_game_is_lost_when_no_move_is_left():
    s = layout(BLOCKED, {1: ["9-Spades"], 2: ["9-Clubs"], 3: ["8-Spades"], 4: ["8-Clubs"]})
    assert s.finished and outcome(s).winners == () and fired_counts(s)["lost"] == 1
    one_way = layout(BLOCKED, {1: ["9-Hearts"], 2: ["9-Clubs"], 3: ["8-Spades"], 4: ["8-Clubs"]})
    assert legal(one_way) == {"unpark 9-Hearts column4", "unpark 9-Hearts column8"}


def test_the_game_is_lost_after_too_many_moves_without_reaching_a_foundation():
    cols = {1: ["Ace-Hearts", "9-Clubs"], 2: ["5-Clubs"]}
    s = layout(cols, idle=98)
    apply(s, "park 9-Clubs")
    assert not s.finished and public_vars(s)["idle_moves"] == 99
    apply(s, "park 5-Clubs")
    assert s.finished and outcome(s).winners == () and fired_counts(s)["lost"] == 1
    s = layout({1: ["9-Clubs", "Ace-Hearts"], 2: ["5-Clubs"]}, idle=99)
    apply(s, "home Ace-Hearts")  # a card reaching a foundation starts the count again
    assert not s.finished and public_vars(s)["idle_moves"] == 0
    short = layout(cols, idle=9, options={"idle_limit": 10})
    apply(short, "park 9-Clubs")
    assert short.finished and outcome(short).winners == ()


def test_an_illegal_move_is_refused():
    s = layout({1: ["8-Hearts"], 2: ["9-Hearts"]})
    with pytest.raises(IllegalMoveError):
        apply(s, "shift 8-Hearts column2")
