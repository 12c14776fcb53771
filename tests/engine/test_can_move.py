"""`can_move(P)` / `can_move(P, RULE)`: whether the phase's choice by P would offer a move now,
read before that choice is reached (a game lost when no move is left), on both engines; misuse is
a located error; the rulebook says it in words."""

from __future__ import annotations

import random

import pytest
from both_engines import in_step, offered
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe, outcome
from interpreter.errors import RulesetError
from interpreter.native.engine import new_native_game

CLIMB = """game climb "Climb"
players 1..2

deck d:
    suits Red, Blue
    ranks 1..8

zone stock shared hidden "stock"
zone pile shared public "pile"
zone hand per player owner "hand"

var turn: player = seat(1)
var stuck_at: int = 0

phase deal "Deal" then play:
    rule deal "Deal":
        shuffle stock
        deal 4 from stock to each hand
        move top(stock) to pile face up

phase play "Play":
    repeat:
        if not can_move(turn):
            rule lost "Stuck":
                set stuck_at = count(pile)
                end game
        rule climb "Climbing":
            choose by turn:
                action up c in hand(turn) where c.order > top(pile).order "Play a higher card.":
                    move c to pile face up
                action same c in hand(turn), d in hand(turn) where c != d and c.rank == d.rank and c.rank == top(pile).rank "Play a pair of the top rank.":
                    move [c, d] to pile face up
                action draw when count(stock) > 0 and count(hand(turn)) < 2 "Draw a card.":
                    move top(stock) to hand(turn)
            set turn = next(turn)
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=CLIMB):
    return written(tmp_path, "climb.cards", text)


@pytest.mark.parametrize("players", [1, 2])
def test_the_game_ends_exactly_when_the_choice_would_offer_nothing_on_both_engines(tmp_path, players):
    rs = load(tmp_path)
    ends = 0
    for seed in range(20):
        a, b = new_game(rs, players, seed=seed), new_native_game(rs, players, seed=seed)
        for la in in_step(seed, a, b):
            assert la, "a choice was reached with nothing to offer"
            assert la == offered(b)
        assert b.finished and outcome(a) == outcome(b) and observe(a, 0)["vars"] == observe(b, 0)["vars"]
        ends += observe(a, 0)["vars"]["stuck_at"] > 0
    assert ends == 20  # every game ends there: cards only climb


def test_without_it_the_same_games_reach_a_choice_with_nothing_to_offer(tmp_path):
    rs = load(tmp_path, CLIMB.replace("        if not can_move(turn):", "        if false:"))
    deadlocked = 0
    for seed in range(20):
        s, r = new_game(rs, 1, seed=seed), random.Random(seed)
        while not s.finished and legal_moves(s):
            apply(s, r.choice(legal_moves(s)))
        deadlocked += not s.finished
    assert deadlocked == 20


@pytest.mark.parametrize("old,new,message,col", [
    ("if not can_move(turn):", "if not can_move(seat(1)):", "phase 'play' has no 'choose by seat(1)'", 16),
    ("if not can_move(turn):", "if not can_move(turn, lost):", "phase 'play' has no 'choose by turn' in rule 'lost'", 16),
    ("if not can_move(turn):", "if not can_move(3):", "the argument of can_move must be a player", 25),
    ("action draw when", "action draw S subset of stock when", "action 'draw' chooses a set of cards", 16),
])
def test_misuse_is_a_located_error(tmp_path, old, new, message, col):
    text = CLIMB.replace(old, new)
    with pytest.raises(RulesetError) as e:
        load(tmp_path, text)
    assert message in str(e.value) and (e.value.line, e.value.column) == (23, col), str(e.value)


def test_it_is_not_read_in_a_definition(tmp_path):
    text = CLIMB.replace('var stuck_at: int = 0', 'var stuck_at: int = 0\ndefine blocked = not can_move(turn)')
    with pytest.raises(RulesetError) as e:
        load(tmp_path, text)
    assert "belongs in a rule" in str(e.value) and e.value.line == 14


def test_several_choices_by_the_player_need_the_rule_named(tmp_path):
    two = CLIMB.replace('            set turn = next(turn)\n', '            set turn = next(turn)\n'
                        '        rule again "Again":\n            choose by turn:\n'
                        '                action pass_on "Pass.":\n                    pass\n')
    with pytest.raises(RulesetError) as e:
        load(tmp_path, two)
    assert "2 choices by turn (in rules 'again', 'climb'); name the rule: can_move(turn, RULE)" in str(e.value)
    named = load(tmp_path, two.replace("if not can_move(turn):", "if not can_move(turn, climb):"))
    for make in ENGINES:
        s = make(named, 1, seed=3)
        assert legal_moves(s)


def test_the_rulebook_says_it(tmp_path):
    from interpreter.render import render_markdown
    assert "If the turn has no move left other than passing:" in render_markdown(load(tmp_path))


def test_an_action_that_only_passes_is_no_move(tmp_path):
    text = CLIMB.replace('                action draw when', '                action wait "Wait.":\n'
                         '                    pass\n                action draw when')
    rs = load(tmp_path, text)
    for make in ENGINES:
        s = make(rs, 1, seed=0)
        r = random.Random(0)
        while not s.finished:
            moves = legal_moves(s)
            assert any(m.action != "wait" for m in moves)  # never asked when waiting is all that is left
            apply(s, r.choice(moves))
        assert observe(s, 0)["vars"]["stuck_at"] > 0
