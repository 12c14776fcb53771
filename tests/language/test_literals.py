"""Strings that hold a double quote, negative option values, and an `if` printed so that it reads
as it parses (issue 30's language items)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interpreter import load_ruleset
from interpreter.commands.cli import app
from interpreter.errors import RulesetSyntaxError
from interpreter.render import render_markdown
from interpreter.language.unparse import quote, unparse
from expressions import read

GAME = '''game quoted "A \\"quoted\\" game"
players 2
option mercy: int = -350 "A score this low ends the game."
option shift: -5..5 = -1 "A shift, C:\\\\temp \\\\ and a lone \\\\ backslash."

text "The \\"best\\" game: a back\\\\slash, and C:\\path as it stands."

deck d "D":
    suits S
    ranks 1..4

zone stock shared hidden "the \\"stock\\""
zone hand per player owner "hand"

phase one "One":
    rule give "Give":
        text "Deal one \\"card\\"."
        move top(stock) to hand(seat(1))
        end game
'''


@pytest.fixture
def game(tmp_path):
    f = tmp_path / "quoted.cards"
    f.write_text(GAME, encoding="utf-8")
    return f


def test_a_string_holds_quotes_and_backslashes(game):
    rs = load_ruleset(game)
    assert rs.title == 'A "quoted" game'
    assert rs.texts == ('The "best" game: a back\\slash, and C:\\path as it stands.',)
    assert rs.zones[0].title == 'the "stock"'
    book = render_markdown(rs)
    assert 'A "quoted" game' in book and 'Deal one "card".' in book


@pytest.mark.parametrize("text", ['plain', 'a "quoted" word', 'back\\slash', 'ends in \\', '\\"', '""'])
def test_a_string_prints_as_it_reads(text):
    written = quote(text)
    assert read(written).value == text
    assert unparse(read(written)) == written


def test_a_quote_left_open_is_a_located_error(tmp_path):
    f = tmp_path / "open.cards"
    f.write_text('game open "A \\"quoted game\\"\nplayers 2\n', encoding="utf-8")  # the last quote is escaped
    with pytest.raises(RulesetSyntaxError) as e:
        load_ruleset(f)
    assert e.value.line == 1 and "open.cards" in str(e.value)


def test_negative_option_values(game):
    rs = load_ruleset(game)
    mercy, shift = rs.options
    assert (mercy.default, shift.default, shift.low, shift.high) == (-350, -1, -5, 5)
    r = CliRunner().invoke(app, ["play", str(game), "--json", "--engine", "python", "-o", "shift=-5"])
    assert r.exit_code == 0 and '"shift": -5' in r.stdout and '"mercy": -350' in r.stdout
    r = CliRunner().invoke(app, ["play", str(game), "-o", "shift=-6"])
    assert r.exit_code == 2 and "option shift must be between -5 and 5, not -6" in r.stderr


def test_an_if_prints_its_tests_bracketed_where_they_would_read_on():
    e = read("if a and (all q in players: f(q)) then 1 else 2")
    assert unparse(e) == "if a and (all q in players: f(q)) then 1 else 2"
    e = read("if a then (any c in hand(p)) else any c in hand(p)")
    assert unparse(e) == "if a then (any c in hand(p)) else any c in hand(p)"


def test_the_words_that_begin_an_expression_are_those_the_grammar_reads_so():
    """An option's value may not be a word that begins an expression (a new user's Rook: `one of
    lowest, highest` loaded, and `rook_rank == lowest then 20` failed with "expected 'in'"): the
    list is the grammar's, worked out here by parsing each word where a value would stand."""
    from interpreter.language.highlight import BUILTINS, KEYWORDS
    from interpreter.language.parse import parse_text
    from interpreter.language.transform import EXPRESSION_WORDS
    found = set()
    for k in set(KEYWORDS) | set(BUILTINS):
        for ctx in ("if x == %s then 1 else 2", "x == %s and y", "%s == x", "x != %s"):
            try:
                parse_text("game g\nplayers 2\ndeck d:\n    suits A\n    ranks 1\ndefine d = " + ctx % k + "\n")
            except RulesetSyntaxError:
                found.add(k)
                break
    assert found == EXPRESSION_WORDS


def test_an_options_value_that_begins_an_expression_is_refused_where_it_is_declared(tmp_path):
    from interpreter.errors import RulesetError
    text = GAME.replace('option shift: -5..5 = -1', 'option rook: one of lowest, high = lowest "Where it ranks."\noption shift: -5..5 = -1')
    path = tmp_path / "rook.cards"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    assert "'lowest' is a word of the language (it starts an expression: lowest ...)" in str(e.value)
    assert e.value.line == 4
    path.write_text(text.replace("lowest, high = lowest", "low, high = low")
                    + "define strength = if rook == lowest then 20 else 40\n", encoding="utf-8")
    with pytest.raises(RulesetSyntaxError) as e:
        load_ruleset(path)
    assert "'lowest' begins an expression (lowest x in ...), so it cannot be a value to compare with" in str(e.value)
