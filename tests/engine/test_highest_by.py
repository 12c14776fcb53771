"""`highest c in Z [where W] by K` and `lowest ... by K`: the first element of Z (passing W) with
the greatest (least) number K, none when none passes; the card that takes a trick by a strength
of the ruleset's own (trumps across suits, as Sheepshead's Queens and Jacks), without the
`first(those c in trick where all d in trick ...)` it took before. The same on both engines, ties
to the first in the zone's order; the rulebook, the unparser and the errors."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.errors import RulesetError, RulesetSyntaxError
from interpreter.native.engine import new_native_game

# the trick: the four cards of the pack in order 3-Red, 1-Blue, 2-Red, 2-Blue (bottom first), no
# shuffle; strength: Blue is trumps (10 + rank), Red its rank; ties: the two 2s when trumps do not count
TRICK = """game trick "Trick"
players 2

deck d:
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "stock"
zone trick shared public "trick"
zone out shared public "out"

var best: int = 0
var worst: int = 0
var tie: int = 0
var none_red: int = 0

define strength(c: card) = if c.suit == Blue then 10 + c.order else c.order

phase play "Play":
    rule lay "Lay":
        move card(3, Red) to trick face up
        move card(1, Blue) to trick face up
        move card(2, Red) to trick face up
        move card(2, Blue) to trick face up
    rule pick "Pick":
        choose by seat(1):
            action go "Go.":
                set best = (highest c in trick by strength(c)).order * 10 + (highest c in trick by strength(c)).suit.index
                set worst = (lowest c in trick where c.suit == Red by strength(c)).order
                set tie = (highest c in trick by c.order).suit.index
                set none_red = count(those c in trick where c == (highest d in out by d.order))
                end game
"""

ENGINES = [new_game, new_native_game]


@pytest.mark.parametrize("make", ENGINES)
def test_the_greatest_and_the_least_by_a_number_ties_to_the_first(tmp_path, make):
    s = make(written(tmp_path, "trick.cards", TRICK), 2)
    apply(s, legal_moves(s)[0])
    v = observe(s, 0)["vars"]
    assert v["best"] == 1 * 10 + 2      # 2-Blue (order 1 of ranks 1..3: 0-based), Blue the second suit
    assert v["worst"] == 1              # of the Reds, 2-Red (order 1) is weaker than 3-Red
    assert v["tie"] == 1                # the highest by order: 3-Red, before any other 3 (there is none)
    assert v["none_red"] == 0           # over an empty zone: none, which no card equals


@pytest.mark.parametrize("make", ENGINES)
def test_equal_numbers_go_to_the_first_in_the_zone(tmp_path, make):
    text = TRICK.replace("set tie = (highest c in trick by c.order).suit.index",
                         "set tie = (highest c in trick where c.order == 1 by c.order).suit.index")
    s = make(written(tmp_path, "trick.cards", text), 2)
    apply(s, legal_moves(s)[0])
    assert observe(s, 0)["vars"]["tie"] == 1  # 2-Red lies before 2-Blue: Red, the first suit


def test_the_rulebook_and_the_unparser_read_it_back(tmp_path):
    from interpreter.language.unparse import unparse
    from interpreter.render import render_markdown
    rs = written(tmp_path, "trick.cards", TRICK)
    book = render_markdown(rs)
    assert ("the first card *c* in the trick for which *c*'s *strength* is least among those such that *c*'s "
            "suit is Red (the first in its order among equals)") in book, book
    go = rs.phases[0].body[1].body[0].actions[0].body[1]
    assert unparse(go.value) == "(lowest c in trick where c.suit == Red by strength(c)).order"


def test_only_highest_and_lowest_take_by_and_by_a_number(tmp_path):
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "trick.cards", TRICK.replace("set none_red = count(those c in trick where",
                                                         "set none_red = (count c in trick by c.order) + count(those c in trick where"))
    assert "only highest and lowest take 'by'" in str(e.value)
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "trick.cards", TRICK.replace("(highest c in trick by c.order)", "(highest c in trick by c.suit)"))
    assert "the number after 'by' must be a number" in str(e.value)


def test_a_for_each_going_round_from_a_player_says_how_to_write_it(tmp_path):
    text = TRICK.replace('    rule pick "Pick":', '    for each q in players starting after seat(1):\n        rule p2 "P":\n'
                                                     '            set best = 1\n    rule pick "Pick":')
    with pytest.raises(RulesetSyntaxError) as e:
        written(tmp_path, "trick.cards", text)
    assert "write for each player q after X (or from X): 'starting' belongs to deal" in str(e.value)
