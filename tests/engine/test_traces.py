"""What the fast path writes out as one generated function behaves as the rules read: a round
of players read from a table, a performed procedure written into its caller, both sides of a
test, the pairs of an action with two parameters worked out once per decision; and a failure
inside any of them still names its own statement."""

from __future__ import annotations

import pytest
from small_games import MINI_BODY as MINI, mini_game as game

from interpreter import Move, apply, legal_moves, loads_ruleset, new_game
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


SHARED = """    rule pick "Pick":
        choose by turn:
            action take c in hand(turn) where c.suit == Red "Take a red card.":
                move c to pile
            action take c in hand(turn) where c.rank <= {limit} "Take a low card.":
                move c to pile
            action pass when count(hand(turn)) > 1 "Pass.":
                pass
    rule again "Again":
        choose by turn:
            action take c in hand(turn) where c.suit == Blue "Take a blue card.":
                move c to pile
            action take c in hand(turn) "Take any card.":
                move c to pile"""


@pytest.mark.parametrize("limit", ["2", "1"])
def test_two_actions_of_one_name_offer_a_move_once_on_either_path(limit):
    # the generated moves of a choice keep the first of two equal moves, as the plain reading does
    # (whether one or both actions of that name offered something)
    from interpreter.compiler import compile_ruleset
    rs = loads_ruleset(MINI.replace("{body}", SHARED.replace("{limit}", limit)), "mini.cards")
    programs = {plain: compile_ruleset(rs, fast=not plain) for plain in (True, False)}
    both = 0
    for seed in range(6):  # (moves met before are looked up, not made: later games test that)
        got = {}
        for plain in (True, False):
            s = new_game(programs[plain], 2, seed=seed)
            hand = cards_in(s, "hand-P1")
            first = [str(m) for m in legal_moves(s)]
            want = [f"take {c}" for c in hand if c.endswith("Red")]
            want += [f"take {c}" for c in hand if int(c.split("-")[0]) <= int(limit) and f"take {c}" not in want]
            assert first == want + ["pass"], plain
            apply(s, "pass")
            second = [str(m) for m in legal_moves(s)]
            blue = [f"take {c}" for c in hand if c.endswith("Blue")]
            assert second == blue + [f"take {c}" for c in hand if f"take {c}" not in blue], plain
            got[plain] = (first, second)
            both += any(c.endswith("Red") and int(c.split("-")[0]) <= int(limit) for c in hand)
        assert got[True] == got[False]
    assert both  # some hand offered one card through both actions


def test_a_decision_is_set_up_inside_the_generated_code_that_reaches_it():
    # from a move to the next decision is one generated function: its moves are the ones the
    # engine would work out, and a player that is none there still fails as the choose statement
    rs = loads_ruleset(MINI.replace("{body}", """    while count(hand(turn)) > 0:
        rule play "Play":
            choose by turn:
                action play c in hand(turn) "Play a card.":
                    move c to pile
        set turn = next(turn)"""), "mini.cards")
    s = new_game(rs, 2, seed=1)
    trace = next(ins[1] for ins in s.program.code if getattr(ins[1], "text", "") and "st._legal" in ins[1].text)
    assert "st.choice" in trace.text
    for _ in range(3):
        apply(s, legal_moves(s)[0])
        assert legal_moves(s) == [Move(s.actor, "play", c) for c in cards_in(s, f"hand-P{s.actor + 1}")]
    broken = loads_ruleset(MINI.replace("var turn: player = seat(1)", "var turn: player").replace("{body}", """    rule play "Play":
        choose by turn:
            action stop "Stop.":
                end game"""), "mini.cards")
    with pytest.raises(GameRuntimeError, match="names no player"):
        new_game(broken, 2)


def test_a_move_the_engine_offers_pickles_and_compares_as_the_bare_move():
    import pickle
    s = game("""    rule pick "Pick":
        choose by turn:
            action take c in hand(turn) "Take a card.":
                move c to pile""")
    m = legal_moves(s)[0]
    back = pickle.loads(pickle.dumps(m))
    assert back == m and hash(back) == hash(m) and repr(back) == repr(m)
    assert not hasattr(back, "_offer") and len(pickle.dumps(m)) < 200  # no action, program or rule graph inside
    apply(s, back)  # a move equal to a legal one is that move
    assert cards_in(s, "pile") == [m.arg]
