"""`s.index` of a suit and `r.index` of a rank: its place in the deck's `suits` or `ranks` line,
from 1, the number that picks a zone of a family by suit (a row of Sevens for each suit). The moves
it allows and what it reads on both engines, the same located error for a suit not set, the
rulebook's words, and the errors for other attributes."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.errors import GameRuntimeError, RulesetError
from interpreter.native.engine import new_native_game

ROWS = """game rows "Rows"
players 2

deck d:
    suits Red, Green, Blue
    ranks Low, Mid, High

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone row[3] shared public "the row of a suit"

var last: int = 0
var chosen: suit

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    rule lay "Lay":
        choose by seat(1):
            action lay c in hand(seat(1)) where count(row(c.suit.index)) == 0 "Lay it in its suit's row.":
                move c to row(c.suit.index) face up
                set last = 10 * c.suit.index + c.rank.index
    rule after "After":
        set last = last * 10 + chosen.index
        end game
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=ROWS):
    return written(tmp_path, "rows.cards", text)


@pytest.mark.parametrize("make", ENGINES)
def test_a_card_goes_to_the_row_its_suit_numbers(tmp_path, make):
    rs = load(tmp_path, ROWS.replace("        set last = last * 10 + chosen.index\n", ""))
    for seed in range(6):
        s = make(rs, 2, None, seed)
        moves = legal_moves(s)
        assert len(moves) == 3
        m = moves[seed % 3]
        suit, rank = str(m).split()[1].split("-")[::-1]
        apply(s, m)
        assert s.finished
        want = 10 * ["Red", "Green", "Blue"].index(suit) + 10 + ["Low", "Mid", "High"].index(rank) + 1
        assert observe(s, 0)["vars"]["last"] == want
        rows = observe(s, 0)["zones"]["row"]
        assert [k for k, v in rows.items() if v["cards"]] == [str(["Red", "Green", "Blue"].index(suit) + 1)]


def test_the_index_of_a_suit_not_set_is_the_same_located_error_on_both_engines(tmp_path):
    rs = load(tmp_path)
    errors = []
    for make in ENGINES:
        s = make(rs, 2, None, 1)
        with pytest.raises(GameRuntimeError) as e:
            apply(s, legal_moves(s)[0])
        errors.append((str(e.value), e.value.line, e.value.column))
    line = next(k for k, x in enumerate(ROWS.splitlines(), 1) if "chosen.index" in x)
    assert errors[0] == errors[1] and errors[0][1] == line and "none" in errors[0][0], errors


def test_the_rulebook_reads_the_place_of_a_suit(tmp_path):
    from interpreter.render import render_markdown
    book = render_markdown(load(tmp_path))
    assert "the place of *c*'s suit among the suits (from 1)" in book, book


def test_other_attributes_of_a_suit_say_what_it_has(tmp_path):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, ROWS.replace("row(c.suit.index)) == 0", "row(c.suit.number)) == 0"))
    assert "suits have one attribute, index (the suit's place in the deck's suits line, from 1)" in str(e.value)
