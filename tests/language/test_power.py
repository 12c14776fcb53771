"""`A ^ N`, a whole number to a power: its value and precedence, the moves it allows, a negative
exponent (an error at load when written, a located runtime error otherwise) and a power past
64 bits, the same on both engines; the rulebook and the unparser read it back."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.errors import GameRuntimeError, RulesetError
from interpreter.native.engine import new_native_game

POW = """game powers "Powers"
players 2

deck d:
    suits Clubs, Hearts
    ranks 1..6

zone stock shared hidden "stock"

var n: int = 3
var r: int = 0

phase play "Play":
    rule go "Go":
        set r = -2 ^ 2 + 3 * 2 ^ n + 2 ^ 3 ^ 2
        choose by seat(1):
            action pick k in 0..8 where 2 ^ k <= 2 ^ n * 3 "Pick.":
                set n = k
        set r = 2 ^ 0 + 5 ^ n
        end game
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=POW):
    return written(tmp_path, "powers.cards", text)


@pytest.mark.parametrize("make", ENGINES)
def test_a_power_binds_tighter_than_times_and_minus_and_reads_right_to_left(tmp_path, make):
    s = make(load(tmp_path), 2)
    assert observe(s, 0)["vars"]["r"] == -4 + 3 * 8 + 2 ** 9


@pytest.mark.parametrize("make", ENGINES)
def test_the_moves_a_power_allows_and_what_follows(tmp_path, make):
    s = make(load(tmp_path), 2)
    moves = legal_moves(s)
    assert [str(m) for m in moves] == ["pick 0", "pick 1", "pick 2", "pick 3", "pick 4"]  # 2 ^ k <= 24
    apply(s, moves[4])
    assert s.finished and observe(s, 0)["vars"] == {"n": 4, "r": 1 + 5 ** 4}


@pytest.mark.parametrize("line,col", [("set r = 2 ^ -1", 21), ("set r = n ^ (-3)", 22)])
def test_a_negative_exponent_written_in_the_file_is_a_located_error(tmp_path, line, col):
    text = POW.replace("set r = 2 ^ 0 + 5 ^ n", line)
    with pytest.raises(RulesetError) as e:
        load(tmp_path, text)
    where = [k for k, x in enumerate(text.splitlines(), 1) if x.strip() == line]
    assert "negative exponent" in str(e.value) and [e.value.line] == where and e.value.column == col, str(e.value)


@pytest.mark.parametrize("expr,what", [("2 ^ (n - 5)", "a power with a negative exponent"),
                                       ("2 ^ (n * 21)", "a number beyond 64 bits"),
                                       ("(0 - 3) ^ (n + 40)", "a number beyond 64 bits")])
def test_a_power_that_cannot_be_worked_out_stops_both_engines_with_the_same_located_error(tmp_path, expr, what):
    text = POW.replace("set r = 2 ^ 0 + 5 ^ n", f"set r = {expr}")
    rs = load(tmp_path, text)
    errors = []
    for make in ENGINES:
        s = make(rs, 2)
        with pytest.raises(GameRuntimeError) as e:
            apply(s, legal_moves(s)[3])
        errors.append((str(e.value), e.value.line, e.value.column))
    where = [k for k, x in enumerate(text.splitlines(), 1) if expr in x]
    assert errors[0] == errors[1] and [errors[0][1]] == where and what in errors[0][0], errors


@pytest.mark.parametrize("make", ENGINES)
def test_powers_of_0_1_and_minus_1_take_any_exponent(tmp_path, make):
    text = POW.replace("set r = 2 ^ 0 + 5 ^ n", "set r = 1 ^ (n * 100000000) + (0 - 1) ^ (n * 99999999) + 0 ^ n")
    s = make(load(tmp_path, text), 2)
    apply(s, legal_moves(s)[3])
    assert observe(s, 0)["vars"]["r"] == 1 - 1 + 0


def test_the_rulebook_reads_a_power_aloud(tmp_path):
    from interpreter.render import render_markdown
    book = render_markdown(load(tmp_path))
    assert "Set the r to minus (2 to the power 2) plus 3 times (2 to the power the n) plus " \
           "(2 to the power 3 to the power 2)." in book
    assert "such that 2 to the power *k* is at most (2 to the power the n) times 3" in book


@pytest.mark.parametrize("text", ["-2 ^ 2", "(-2) ^ 2", "2 ^ 3 ^ 2", "(2 ^ 3) ^ 2", "2 ^ -n", "3 * 2 ^ n",
                                  "(3 * 2) ^ n", "2 ^ count(stock)", "2 ^ (n + 1)", "2 ^ count c in stock where c.face_up"])
def test_the_unparser_writes_a_power_back_as_it_parses(tmp_path, text):
    from interpreter.language.unparse import unparse
    def first_value(t):
        rs = load(tmp_path, POW.replace("set r = 2 ^ 0 + 5 ^ n", f"set r = {t}"))
        rule = rs.phases[0].body[0]
        return rule.body[-2].value
    e = first_value(text)
    assert unparse(e) == text and first_value(unparse(e)) == e
