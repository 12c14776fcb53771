"""Klondike (rulesets/classic/klondike.cards) against pagat.com's rules, drawn one card at a time
with unlimited redeals: one small position per rule, with the exact set of legal moves and
exactly what happens after a move.

Positions start at the play phase (`layout` below): the cards given lie on the numbered piles
(face-up cards on `pile`, face-down ones on `down`), the stock, the waste and the foundations
(each list from the bottom up, the last card on top); every other card goes where `rest` says,
by default beneath the stock."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import loader

from interpreter.engine import apply, card_info, cards_in, new_game, outcome, position, public_vars
from interpreter.errors import IllegalMoveError
from scenario import legal

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "klondike.cards"
RANKS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]


rules = loader(RULESET)


def layout(piles=None, down=None, stock=None, waste=None, foundations=None, *, idle=0, options=None, rest=None):
    zones = {"pile": piles or {}, "down": down or {}, "foundation": foundations or {}}
    if stock is not None:
        zones["stock"] = stock
    if waste is not None:
        zones["waste"] = waste
    return position(rules(), 1, "play", zones=zones, vars={"idle_moves": idle}, options=options, rest=rest)


def moves(s, kind: str) -> set[str]:
    return {m for m in legal(s) if m.split()[0] == kind}


def piles(s) -> list[list[str]]:
    return [cards_in(s, "pile", k) for k in range(1, 8)]


def downs(s) -> list[list[str]]:
    return [cards_in(s, "down", k) for k in range(1, 8)]


def suit(name: str, upto: str = "King") -> list[str]:
    return [f"{r}-{name}" for r in RANKS[:RANKS.index(upto) + 1]]


def idle(s) -> int:
    return public_vars(s)["idle_moves"]


# a pile 7 that keeps every card not placed by a test out of play: face down beneath a King
PARKED = {"rest": ("down", 7)}


# ================================================================== the deal

@pytest.mark.parametrize("seed", [0, 7])
def test_seven_piles_of_one_to_seven_cards_only_the_top_card_face_up_the_rest_the_stock(seed):
    s = new_game(rules(), 1, seed=seed)
    assert [len(p) for p in piles(s)] == [1] * 7
    assert [len(d) for d in downs(s)] == list(range(7))
    assert len(cards_in(s, "stock")) == 24 and cards_in(s, "waste") == []
    assert all(cards_in(s, "foundation", k) == [] for k in range(1, 5))
    assert all(card_info(s, p[0])["face_up"] for p in piles(s))
    assert not any(card_info(s, c)["face_up"] for d in downs(s) for c in d)
    assert not any(card_info(s, c)["face_up"] for c in cards_in(s, "stock"))
    assert (s.rule, idle(s)) == ("moves", 0)


def test_the_deal_goes_in_rows_each_starting_one_pile_further_right():
    pack = [f"{r}-{x}" for x in SUITS for r in RANKS]  # bottom first: the top card is the King of Spades
    s = position(rules(), 1, "layout", zones={"stock": pack}, shuffle=False)
    dealt = iter(pack[::-1])
    want_up, want_down = {}, {k: [] for k in range(1, 8)}
    for row in range(1, 8):
        want_up[row] = [next(dealt)]
        for k in range(row + 1, 8):
            want_down[k].append(next(dealt))
    assert piles(s) == [want_up[k] for k in range(1, 8)]
    assert downs(s) == [want_down[k] for k in range(1, 8)]
    assert cards_in(s, "stock") == pack[:24]


# ================================================================== the stock and the waste

def test_the_top_card_of_the_stock_is_turned_onto_the_waste():
    s = layout({1: ["King-Clubs"]}, stock=["9-Hearts", "4-Spades"], waste=["2-Diamonds"], idle=3)
    assert "draw" in legal(s) and "redeal" not in legal(s)
    apply(s, "draw")
    assert cards_in(s, "waste") == ["2-Diamonds", "4-Spades"] and card_info(s, "4-Spades")["face_up"]
    assert cards_in(s, "stock")[-1] == "9-Hearts" and idle(s) == 4


def test_the_waste_is_turned_over_as_the_stock_when_the_stock_is_used_up():
    s = layout({7: ["King-Clubs"]}, stock=[], waste=["2-Diamonds", "4-Spades", "9-Hearts"], idle=5, **PARKED)
    assert "draw" not in legal(s) and "redeal" in legal(s)
    apply(s, "redeal")
    # turned over: the first card turned onto the waste is on top of the stock again
    assert cards_in(s, "stock") == ["9-Hearts", "4-Spades", "2-Diamonds"] and cards_in(s, "waste") == []
    assert all(card_info(s, c)["face_up"] for c in cards_in(s, "stock"))  # seen, so known
    assert idle(s) == 6
    apply(s, "draw")
    assert cards_in(s, "waste") == ["2-Diamonds"]


def test_the_stock_may_be_turned_over_again_and_again():
    s = layout({7: ["King-Clubs"]}, stock=[], waste=["5-Hearts"], **PARKED)
    for _ in range(3):
        assert legal(s) >= {"redeal"}
        apply(s, "redeal")
        assert legal(s) >= {"draw"} and "redeal" not in legal(s)
        apply(s, "draw")


def test_nothing_to_turn_when_stock_and_waste_are_empty():
    s = layout({6: ["King-Hearts"], 7: ["King-Clubs"]}, stock=[], waste=[], **PARKED)
    assert not moves(s, "draw") | moves(s, "redeal")


# ================================================================== building on the piles

def test_the_waste_card_goes_on_a_pile_one_higher_of_the_other_colour():
    s = layout({1: ["8-Spades"], 2: ["8-Clubs"], 3: ["8-Hearts"], 4: ["9-Spades"], 5: ["6-Spades"],
                7: ["King-Clubs"]}, {2: ["Queen-Hearts"]},
               stock=[], waste=["7-Spades", "7-Diamonds"], **PARKED)
    # not the red 8, not the 9 or the 6, not the covered 7 of Spades
    assert moves(s, "lay") == {"lay 7-Diamonds pile1", "lay 7-Diamonds pile2"}
    apply(s, "lay 7-Diamonds pile2")
    assert cards_in(s, "pile", 2) == ["8-Clubs", "7-Diamonds"] and cards_in(s, "waste") == ["7-Spades"]


def test_laying_from_the_waste_is_progress():
    s = layout({1: ["8-Spades"], 7: ["King-Clubs"]}, stock=[], waste=["7-Diamonds"], idle=40, **PARKED)
    apply(s, "lay 7-Diamonds pile1")
    assert idle(s) == 0


def test_a_face_up_card_moves_with_every_card_on_it_onto_another_pile():
    s = layout({1: ["Jack-Hearts", "10-Spades", "9-Hearts", "8-Clubs"], 2: ["Jack-Clubs"], 3: ["10-Diamonds"],
                4: ["10-Clubs"], 7: ["King-Clubs"]}, {1: ["2-Clubs"], 2: ["3-Clubs"], 3: ["4-Clubs"], 4: ["5-Clubs"]},
               stock=["Ace-Clubs"], idle=2)
    # the 9 of Hearts with the 8 on it, or the 10 of Diamonds alone; nothing fits the 10 of Spades,
    # the 8 of Clubs or the Jacks, and a card never goes onto its own pile
    assert moves(s, "shift") == {"shift 9-Hearts pile4", "shift 10-Diamonds pile2"}
    apply(s, "shift 9-Hearts pile4")
    assert cards_in(s, "pile", 4) == ["10-Clubs", "9-Hearts", "8-Clubs"]
    assert cards_in(s, "pile", 1) == ["Jack-Hearts", "10-Spades"] and idle(s) == 3
    apply(s, "shift 10-Diamonds pile2")
    assert cards_in(s, "pile", 2) == ["Jack-Clubs", "10-Diamonds"] and legal(s) == {"turn down3"}


def test_a_whole_run_moves_and_keeps_its_order():
    run = ["Queen-Hearts", "Jack-Spades", "10-Hearts", "9-Spades", "8-Hearts"]
    s = layout({1: run, 2: ["King-Spades"], 7: ["King-Clubs"]}, {1: ["2-Clubs"]})
    assert moves(s, "shift") == {"shift Queen-Hearts pile2", "shift Queen-Hearts pile7"}
    apply(s, "shift Queen-Hearts pile7")
    assert cards_in(s, "pile", 7) == ["King-Clubs"] + run and legal(s) == {"turn down1"}


def test_a_card_does_not_go_on_a_card_of_its_own_colour_or_the_wrong_rank():
    s = layout({1: ["9-Hearts"], 2: ["9-Diamonds"], 3: ["10-Hearts"], 4: ["7-Clubs"]},
               {1: ["2-Clubs"], 2: ["3-Clubs"], 3: ["4-Clubs"], 4: ["5-Clubs"]})
    assert moves(s, "shift") == set()


# ================================================================== empty piles

def test_only_a_king_goes_to_an_empty_pile_and_only_to_the_leftmost():
    s = layout({1: ["Queen-Hearts"], 3: ["King-Spades", "Queen-Diamonds"], 4: ["Jack-Clubs"]},
               {3: ["2-Clubs"], 4: ["3-Clubs"], 1: ["4-Clubs"]}, waste=["King-Hearts"])
    # piles 2, 5, 6 and 7 are empty: a King, alone or with its run, goes to pile 2 only; no Queen
    assert moves(s, "lay") == {"lay King-Hearts pile2"}
    assert moves(s, "shift") == {"shift King-Spades pile2", "shift Jack-Clubs pile1", "shift Jack-Clubs pile3"}
    apply(s, "shift King-Spades pile2")
    assert cards_in(s, "pile", 2) == ["King-Spades", "Queen-Diamonds"]
    assert legal(s) == {"turn down3"}


def test_a_king_alone_at_the_bottom_of_its_pile_is_not_moved_to_an_empty_one():
    s = layout({1: ["King-Spades", "Queen-Diamonds"], 7: ["King-Hearts"]})
    assert moves(s, "shift") == set()


def test_a_pile_with_face_down_cards_left_is_not_empty():
    s = layout({1: ["5-Hearts"], 7: ["King-Clubs"]}, {1: ["9-Clubs"], 2: ["2-Clubs"], 3: ["3-Clubs"], 4: ["4-Clubs"],
               5: ["6-Clubs"], 6: ["7-Clubs"]}, stock=[], waste=["King-Hearts"], **PARKED)
    # piles 2 to 6 have face-down cards only: the first is turned up before anything else
    assert legal(s) == {"turn down2"}


# ================================================================== the foundations

def test_an_ace_starts_the_leftmost_empty_foundation_from_the_waste_or_a_pile():
    s = layout({1: ["Ace-Spades"], 2: ["Ace-Hearts"], 7: ["King-Clubs"]},
               {1: ["5-Clubs"], 2: ["6-Clubs"]}, stock=[], waste=["Ace-Diamonds", "3-Hearts"],
               foundations={1: ["Ace-Clubs"]}, **PARKED)
    assert moves(s, "home") == {"home Ace-Spades", "home Ace-Hearts"}  # the Ace of Diamonds is covered
    apply(s, "home Ace-Hearts")
    assert cards_in(s, "foundation", 2) == ["Ace-Hearts"]
    assert legal(s) == {"turn down2"}


def test_a_foundation_is_built_up_in_suit_one_card_at_a_time():
    s = layout({1: ["3-Clubs"], 2: ["2-Hearts"], 3: ["3-Spades"], 7: ["King-Clubs"]},
               {1: ["5-Clubs"], 2: ["6-Clubs"], 3: ["7-Clubs"]}, stock=[], waste=["2-Clubs"],
               foundations={1: ["Ace-Hearts"], 3: ["Ace-Clubs"], 4: ["Ace-Spades"]}, idle=9, **PARKED)
    # the 2 of Clubs (from the waste) and the 2 of Hearts; not the 3s yet
    assert moves(s, "home") == {"home 2-Clubs", "home 2-Hearts"}
    apply(s, "home 2-Clubs")
    assert cards_in(s, "foundation", 3) == ["Ace-Clubs", "2-Clubs"] and idle(s) == 0
    assert "home 3-Clubs" in legal(s)


def test_cards_never_leave_the_foundations():
    s = layout({1: ["5-Hearts"], 7: ["King-Clubs"]}, {1: ["9-Clubs"]}, stock=[], waste=[],
               foundations={1: suit("Spades", "4"), 2: suit("Clubs", "6")}, **PARKED)
    assert not any("4-Spades" in m or "6-Clubs" in m for m in legal(s))
    with pytest.raises(IllegalMoveError):
        apply(s, "shift 4-Spades pile1")


# ================================================================== turning up

def test_an_uncovered_face_down_card_is_turned_up_before_anything_else():
    s = layout({1: ["8-Spades"], 2: ["7-Hearts"], 7: ["King-Clubs"]}, {2: ["Jack-Clubs", "Queen-Diamonds"]},
               stock=["3-Hearts"], idle=7, **PARKED)
    assert not card_info(s, "Queen-Diamonds")["face_up"]
    apply(s, "shift 7-Hearts pile1")
    assert s.rule == "turn_up" and legal(s) == {"turn down2"}  # the pile, not the card: it is face down
    apply(s, "turn down2")
    assert cards_in(s, "pile", 2) == ["Queen-Diamonds"] and cards_in(s, "down", 2) == ["Jack-Clubs"]
    assert card_info(s, "Queen-Diamonds")["face_up"] and idle(s) == 0
    assert not card_info(s, "Jack-Clubs")["face_up"]


# ================================================================== the end

def test_the_game_is_won_when_the_last_card_reaches_its_foundation():
    s = layout({1: ["King-Spades"]}, foundations={1: suit("Clubs"), 2: suit("Diamonds"), 3: suit("Hearts"),
                                                  4: suit("Spades", "Queen")}, stock=[], waste=[])
    assert legal(s) == {"home King-Spades"}
    apply(s, "home King-Spades")
    assert s.finished and outcome(s).winners == (0,)


def test_the_game_is_lost_after_the_idle_limit_of_moves_without_progress():
    s = layout({1: ["8-Spades"], 2: ["8-Clubs", "7-Hearts"], 7: ["King-Clubs"]}, {1: ["2-Clubs"], 2: ["3-Clubs"]},
               stock=["4-Hearts"], idle=98, **PARKED)
    apply(s, "shift 7-Hearts pile1")
    assert not s.finished and idle(s) == 99
    apply(s, "draw")
    assert s.finished and outcome(s).winners == ()


@pytest.mark.parametrize("limit", [30, 250])
def test_the_idle_limit_is_an_option(limit):
    s = layout({1: ["8-Spades"], 7: ["King-Clubs"]}, {1: ["2-Clubs"]}, stock=["4-Hearts"], idle=limit - 1,
               options={"idle_limit": limit}, **PARKED)
    assert not s.finished
    apply(s, "draw")
    assert s.finished and outcome(s).winners == ()


def test_progress_starts_the_count_again():
    s = layout({1: ["8-Spades"], 7: ["King-Clubs"]}, {1: ["2-Clubs"]}, stock=[], waste=["Ace-Hearts"], idle=99,
               **PARKED)
    apply(s, "home Ace-Hearts")
    assert not s.finished and idle(s) == 0


def test_the_game_is_lost_when_no_move_is_left():
    # stock and waste used up, no empty pile, and no face-up card fits anywhere: the Hearts on
    # top of the piles are all red, and the next cards up lie face down
    hearts = suit("Hearts")
    s = layout({k: [hearts[k + 5]] for k in range(1, 8)}, {1: ["6-Hearts"] + suit("Spades")[5:]},
               stock=[], waste=[], foundations={1: suit("Clubs"), 2: suit("Diamonds"), 3: hearts[:5],
                                                4: suit("Spades", "5")})
    assert s.finished and outcome(s).winners == ()


# ================================================================== thoughtful Klondike

def test_with_every_card_visible_the_deal_is_the_same_and_every_card_is_face_up():
    hidden, shown = new_game(rules(), 1, seed=3), new_game(rules(), 1, {"visible": True}, seed=3)
    assert piles(hidden) == piles(shown) and downs(hidden) == downs(shown)
    assert cards_in(hidden, "stock") == cards_in(shown, "stock")
    assert all(card_info(shown, c)["face_up"] for d in downs(shown) for c in d)
    assert all(card_info(shown, c)["face_up"] for c in cards_in(shown, "stock"))
    assert legal(hidden) == legal(shown)


def test_with_every_card_visible_a_face_down_card_still_waits_to_be_turned_up():
    s = layout({1: ["8-Spades"], 2: ["7-Hearts"], 7: ["King-Clubs"]}, {2: ["6-Clubs"]},
               stock=["3-Hearts"], options={"visible": True}, **PARKED)
    assert not any("6-Clubs" in m for m in legal(s))
    apply(s, "shift 7-Hearts pile1")
    assert legal(s) == {"turn down2"}
