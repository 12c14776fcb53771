"""`c.beneath`, the card a card lies on in its zone (none for the bottom card): the moves it
allows and what it reads, on both engines; a none is the same located error on both; the
rulebook and the unparser read it back."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.errors import GameRuntimeError
from interpreter.native.engine import new_native_game

UNDER = """game under "Under"
players 2

deck d:
    suits Red
    ranks 1..6

zone stock shared hidden "stock"
zone pile shared public "pile"
zone out shared public "out"

var last: int = 0

phase play "Play":
    rule lay "Lay":
        move top(stock, 2) to pile face up
        move top(stock) to pile face up
        move top(stock) to pile face up
    rule pick "Pick":
        choose by seat(1):
            action take c in pile where c.beneath != none and c.beneath.order < c.order "Take it.":
                set last = c.beneath.order
                move c to out
    rule after "After":
        set last = last * 10 + (if top(out).beneath == none then 0 else 1)
        end game
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=UNDER):
    return written(tmp_path, "under.cards", text)


@pytest.mark.parametrize("make", ENGINES)
def test_the_card_beneath_decides_the_moves_and_the_bottom_card_has_none(tmp_path, make):
    # the pile, bottom first: 5 6 4 3 (the top two of the stock at once, then one at a time)
    s = make(load(tmp_path), 2)
    assert [str(m) for m in legal_moves(s)] == ["take 6-Red"]  # 5 has nothing beneath; 4 and 3 lie on higher cards


@pytest.mark.parametrize("make", ENGINES)
def test_the_card_beneath_is_read_and_a_card_alone_lies_on_nothing(tmp_path, make):
    s = make(load(tmp_path), 2)
    apply(s, legal_moves(s)[0])
    assert s.finished and observe(s, 0)["vars"]["last"] == 4 * 10 + 0  # 6 lay on 5 (order 4); alone in out


def test_the_beneath_of_no_card_is_the_same_located_error_on_both_engines(tmp_path):
    text = UNDER.replace("set last = last * 10 + (if top(out).beneath == none then 0 else 1)",
                         "set last = top(stock).beneath.order")
    text = text.replace("        move top(stock) to pile face up\n        move top(stock) to pile face up\n",
                        "        move top(stock) to pile face up\n        move stock to pile face up\n")
    rs = load(tmp_path, text)
    errors = []
    for make in ENGINES:
        s = make(rs, 2)
        with pytest.raises(GameRuntimeError) as e:
            apply(s, legal_moves(s)[0])
        errors.append((str(e.value), e.value.line, e.value.column))
    where = [k for k, x in enumerate(text.splitlines(), 1) if "top(stock).beneath" in x]
    assert errors[0] == errors[1] and [errors[0][1]] == where and "none here" in errors[0][0], errors


def test_the_rulebook_and_the_unparser_read_it_back(tmp_path):
    from interpreter.render import render_markdown
    from interpreter.language.unparse import unparse
    rs = load(tmp_path)
    book = render_markdown(rs)
    assert "a card *c* in the pile such that there is a card beneath *c* and the card beneath *c* ranks below *c*" in book
    assert "Set the last to the rank position of the card beneath *c*." in book
    act = rs.phases[0].body[1].body[0].actions[0]
    assert unparse(act.where) == "c.beneath != none and c.beneath.order < c.order"


def test_a_misspelt_attribute_lists_beneath(tmp_path):
    from interpreter.errors import RulesetError
    with pytest.raises(RulesetError) as e:
        load(tmp_path, UNDER.replace("set last = c.beneath.order", "set last = c.beneth.order"))
    assert "depth, beneath" in str(e.value) and (e.value.line, e.value.column) == (22, 28)
