"""A player's seat number, `p.index` (from 1), as a suit's and a rank's place are theirs; a rank
written as a number where a rank is wanted (`perform lay(p, 3)`), as card(3, Clubs) takes it; and
a family of zones numbered by a suit says to write `.index`. New users' Lost Cities and Canasta
wrote `hand(p).index` for the seat number and `card(3, Clubs).rank` for the rank 3."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe, outcome
from interpreter.errors import RulesetError
from interpreter.native.engine import new_native_game
from interpreter.render.book import render_markdown

GAME = """game seats "Seats"
players 3

deck d:
    suits Red, Blue
    ranks 1..4

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone spot[2] shared public "spot"

define score(p: player) = p.index * 10 + count(hand(p))
winner most score

procedure give(p: player, r: rank):
    rule g "Give":
        move those c in stock where c.rank == r to hand(p)

phase play "Play":
    rule deal "Deal":
        perform give(seat(2), 3)
        move top(stock) to spot(top(stock).suit.index)
    rule end "End":
        choose by seat(1):
            action go "Go.":
                end game
"""


@pytest.mark.parametrize("make", [new_game, new_native_game])
def test_a_players_seat_number_and_a_rank_written_as_a_number(tmp_path, make):
    s = make(written(tmp_path, "seats.cards", GAME), 3)
    assert sorted(observe(s, 1)["zones"]["hand"]["P2"]["cards"]) == ["3-Blue", "3-Red"]
    apply(s, legal_moves(s)[0])
    assert outcome(s).scores == (10, 22, 30)


def test_the_rulebook_says_seat_number(tmp_path):
    book = render_markdown(written(tmp_path, "seats.cards", GAME))
    assert "*p*'s seat number times 10" in book, book


def test_a_family_numbered_by_a_suit_says_to_write_its_index(tmp_path):
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "bad.cards", GAME.replace("spot(top(stock).suit.index)", "spot(top(stock).suit)"))
    assert "'top(stock).suit' is a suit: its place in the deck's line, from 1, is top(stock).suit.index" in str(e.value)
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "bad2.cards", GAME.replace("p.index * 10", "p.seat * 10"))
    assert "'p' is a player; a player has one, index (its seat number, from 1)" in str(e.value)
