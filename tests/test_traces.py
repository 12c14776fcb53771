"""What the fast path writes out as one generated function behaves as the rules read: a round
of players read from a table, a performed procedure written into its caller, both sides of a
test, the pairs of an action with two parameters worked out once per decision; and a failure
inside any of them still names its own statement."""

from __future__ import annotations

import pytest
from test_engine import MINI, game

from interpreter import Move, legal_moves, loads_ruleset, new_game
from interpreter.engine import card_info, cards_in
from interpreter.errors import GameRuntimeError


def test_a_round_from_a_player_who_is_none_names_that_statement():
    # the round's order is read from a table inside the generated trace; none must still fail
    # as the statement it is, not as an index error somewhere in the engine
    with pytest.raises(GameRuntimeError) as info:
        game("""    rule round "Round":
        let nobody = highest c in pile
        for each player p after nobody.owner:
            move top(hand(p)) to pile""")
    assert info.value.line == 18 and "none here" in info.value.message
    assert "for each player p after nobody.owner" in info.value.render()


def test_a_round_from_a_seat_goes_round_the_table_from_there():
    s = game("""    rule round "Round":
        for each player p after seat(2):
            move top(hand(p)) to pile
        for each player p from seat(2):
            move top(hand(p)) to pile
    rule wait "Wait":
        choose by turn:
            action stop "Stop":
                end game""", players=2)
    # after P2 comes P1 alone; from P2 it is P2, then P1
    assert [card_info(s, c)["played_by"] for c in cards_in(s, "pile")] == [0, 1, 0]


PROC = MINI.replace("phase play", """procedure give(p: player):
    move top(hand(p)) to pile
    let found = lowest c in pile where c.suit == Red and c.owner == p
    set turn = found.owner

phase play""")


def test_a_failure_inside_a_performed_procedure_names_its_statement():
    # the generated code writes the procedure's statements into the caller's run of statements;
    # a failure there must still name the procedure's own line
    rs = loads_ruleset(PROC.replace("{body}", """    rule give_all "Everyone gives":
        for each player p:
            perform give(p)"""), "mini.cards")
    with pytest.raises(GameRuntimeError) as info:
        new_game(rs, 2)
    assert info.value.line == 15 and "set turn = found.owner" in info.value.render()


def test_a_performed_procedure_comes_back_to_where_it_was_performed():
    rs = loads_ruleset(PROC.replace("let found = lowest c in pile where c.suit == Red and c.owner == p\n"
                                    "    set turn = found.owner", "set turn = p").replace("{body}", """    rule give_all "Everyone gives":
        for each player p:
            perform give(p)
            perform give(p)
    rule ask "Ask":
        choose by turn:
            action stop "Stop":
                end game"""), "mini.cards")
    s = new_game(rs, 2)
    assert [card_info(s, c)["played_by"] for c in cards_in(s, "pile")] == [0, 0, 1, 1]
    assert legal_moves(s) == [Move(1, "stop", None)]


HEAPS = MINI[:MINI.index("var turn")] + """zone heap[3] shared public
var turn: player = seat(1)
define top_order(z: zone) = top(z).order
define same_suit(a: card, b: card) = a.suit == b.suit
phase play "Play":
    rule deal "Deal":
        move card(1, Red) to heap(1)
        move card(2, Blue) to heap(3)
        move card(3, Red) to hand(turn)
        move card(1, Blue) to hand(turn)
        move card(2, Red) to hand(turn)
    rule lay "Lay":
        choose by turn:
            action lay c in hand(turn), z in zones(heap) where count(z) < 5 and ({test}) "Lay a card on a heap.":
                move c to z
"""


@pytest.mark.parametrize("test, want", [
    # a term of the heap alone (top(z)) is worked out once per heap; a definition given it is written out
    ("count(z) > 0 and same_suit(c, top(z))", ["3-Red heap1", "1-Blue heap3", "2-Red heap1"]),
    # top_order(z) fails on the empty heap 2, but no card of the hand gets as far as asking it:
    # the plain reading never fails, so the moves must not fail either
    ("c.order < 5 or top_order(z) == c.order", ["3-Red heap1", "3-Red heap2", "3-Red heap3", "1-Blue heap1",
                                                 "1-Blue heap2", "1-Blue heap3", "2-Red heap1", "2-Red heap2",
                                                 "2-Red heap3"]),
])
def test_the_pairs_of_an_action_with_two_parameters_are_what_the_plain_reading_gives(test, want, monkeypatch):
    for plain in ("1", "0"):
        monkeypatch.setenv("CARDRULES_PLAIN", plain)
        s = new_game(loads_ruleset(HEAPS.replace("{test}", test), "heaps.cards"), 2)
        assert [m.arg for m in legal_moves(s)] == want, plain


def test_a_failure_in_a_branch_written_out_under_its_test_names_that_branch():
    # the draw-or-pass shape: `if`, `elif` and `else` inside a loop are one generated function,
    # each branch under its test; a failure in the `elif` branch must name the `elif` branch's line
    with pytest.raises(GameRuntimeError) as info:
        game("""    rule turns "Turns":
        let n = 0
        while n < 3:
            if n == 5:
                move top(hand(turn)) to pile
            elif n == 2:
                let nobody = highest c in pile where c.suit == Blue and c.suit == Red
                set turn = nobody.owner
            else:
                move top(hand(turn)) to pile
            set n = n + 1""")
    assert info.value.line == 23 and "set turn = nobody.owner" in info.value.render()
