"""`previous q before p where COND`: the first player before p against the order of play for
whom COND holds (p last; none when nobody does), as `next q after p where` is the other way.
A new user's Old Maid (draw from the player before you still holding cards) wrote
`first(those q in players where in_play(q) and q != turn and (next r after q where in_play(r)) == turn)`."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.language.unparse import unparse
from interpreter.native.engine import new_native_game
from interpreter.render.book import render_markdown

GAME = """game back "Back"
players 4

deck d:
    suits Red
    ranks 1..8

zone stock shared hidden "stock"
zone hand per player owner "hand"

var found: player = none
var nobody: player = none
var also: player = none

phase play "Play":
    rule deal "Deal":
        move card(1, Red) to hand(seat(3))
        move card(2, Red) to hand(seat(2))
    rule look "Look":
        choose by seat(1):
            action go "Go.":
                set found = previous q before seat(1) where count(hand(q)) > 0
                set nobody = previous q before seat(1) where count(hand(q)) > 5
                set also = previous q before seat(2) where count(hand(q)) > 0 and q != seat(3)
                end game
"""


@pytest.mark.parametrize("make", [new_game, new_native_game])
def test_the_first_player_before_going_the_other_way_round(tmp_path, make):
    s = make(written(tmp_path, "back.cards", GAME), 4)
    apply(s, legal_moves(s)[0])
    v = observe(s, 0)["vars"]
    assert v["found"] == "P3"   # P4 holds nothing, P3 does: before P1 going back are P4, P3, P2
    assert v["nobody"] is None
    assert v["also"] == "P2"    # before P2: P1, P4, P3 (left out), then P2 itself last


def test_the_rulebook_and_the_unparser_read_it(tmp_path):
    rs = written(tmp_path, "back.cards", GAME)
    book = render_markdown(rs)
    assert "the previous player *q* before the player in seat 1 against turn order such that" in book, book
    go = rs.phases[0].body[1].body[0].actions[0].body
    assert unparse(go[0].value) == "previous q before seat(1) where count(hand(q)) > 0"


def test_previous_of_a_player_still_reads_as_before(tmp_path):
    rs = written(tmp_path, "back.cards", GAME.replace("previous q before seat(1) where count(hand(q)) > 0",
                                                     "previous(seat(1))"))
    s = new_game(rs, 4)
    apply(s, legal_moves(s)[0])
    assert observe(s, 0)["vars"]["found"] == "P4"
