"""A split whose group test is given values (`split S into k adds_to(v)`), with the small game
tests/engine/sets/sums.cards: a card captures table cards that divide into sets each adding up to its
pips, several sets at once. The value differs from move to move in one position, so what the
search keeps must be kept per value; both engines list the same moves and play the same games."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from both_engines import captures_first

from interpreter import load_ruleset, loads_ruleset
from interpreter.compiler import compile_ruleset
from interpreter.engine import apply, legal_moves, new_game, outcome, position
from interpreter.errors import RulesetError
from interpreter.native.engine import NativeGame, new_native_game

SUMS = Path(__file__).resolve().parents[1] / "engine" / "sets" / "sums.cards"


@cache
def rules():
    return load_ruleset(SUMS)


def moves(s) -> list[str]:
    return [str(m) for m in legal_moves(s)]


def native(s):
    game = NativeGame(s.program.ruleset, s.n_players)
    game.load(s)
    return game.view


TABLE = ["1-Clubs", "4-Clubs", "2-Diamonds", "3-Diamonds", "5-Diamonds", "2-Clubs"]


def test_a_card_takes_every_choice_of_sets_adding_up_to_it_and_each_value_its_own():
    s = position(rules(), 2, "play", zones={"table": TABLE, "hand": {0: ["5-Clubs", "3-Clubs"], 1: ["1-Diamonds"]}})
    listed = moves(s)
    fives = [m for m in listed if m.startswith("capture 5-Clubs")]
    threes = [m for m in listed if m.startswith("capture 3-Clubs")]
    # 5 = 1+4 = 2+3 = 5 = 1+2+2 = 2+3 (the other 2): any of them together, each card in one set
    assert "capture 5-Clubs 1-Clubs 4-Clubs 2-Diamonds 3-Diamonds 5-Diamonds" in fives
    assert "capture 5-Clubs 1-Clubs 2-Clubs 4-Clubs 3-Diamonds 5-Diamonds" in fives  # 1+4, 2+3, 5
    assert "capture 5-Clubs 4-Clubs 2-Diamonds" not in fives  # 6: not a whole number of fives
    assert "capture 5-Clubs 1-Clubs 4-Clubs 2-Diamonds 2-Clubs" not in listed  # 1+4 and 2+2: no five
    assert len(fives) == 13  # 5 single sets, 6 pairs of sets that share no card, 2 triples
    # the threes were worked out in the same position: 3, 1+2 (either 2), and these together
    assert threes == ["capture 3-Clubs 1-Clubs 2-Diamonds", "capture 3-Clubs 3-Diamonds",
                      "capture 3-Clubs 1-Clubs 2-Diamonds 3-Diamonds", "capture 3-Clubs 1-Clubs 2-Clubs",
                      "capture 3-Clubs 1-Clubs 2-Clubs 3-Diamonds"]
    assert moves(native(s)) == listed
    plain = position(compile_ruleset(rules(), fast=False), 2, "play",
                     zones={"table": TABLE, "hand": {0: ["5-Clubs", "3-Clubs"], 1: ["1-Diamonds"]}})
    assert moves(plain) == listed


def test_a_capture_takes_the_sets_and_the_card():
    s = position(rules(), 2, "play", zones={"table": TABLE, "hand": {0: ["5-Clubs"], 1: ["1-Diamonds"]}})
    for t in (s, native(s)):
        apply(t, "capture 5-Clubs 1-Clubs 4-Clubs 2-Diamonds 3-Diamonds")
        assert moves(t) == ["trail 1-Diamonds"]  # the 5 and the 2 of Clubs are left: nothing adds up to 1


@pytest.mark.parametrize("seed_base", [0, 100])
def test_both_engines_play_the_same_games(seed_base):
    captures = 0
    for seed in range(seed_base, seed_base + 30):
        py, c = new_game(rules(), 2, seed=seed), new_native_game(rules(), 2, seed=seed)
        for listed in captures_first(seed, py, c):
            assert moves(c) == listed, seed
            captures += len([m for m in listed if m.startswith("capture")])
        assert c.finished and str(outcome(c)) == str(outcome(py))
    assert captures > 100


def test_the_rulebook_says_what_the_test_is_given():
    from interpreter.render import render_markdown
    book = render_markdown(rules())
    assert ("*s* can be split exactly into groups for which *adds to* holds with *v*, as many as the total of "
            "*x*'s pips over every card *x* in *s* divided by *v*") in book


def _load(define: str, split: str):
    text = SUMS.read_text().replace("define adds_to(g: cards, v: int) = (sum x in g: x.pips) == v", define)
    text = text.replace("split s into (sum x in s: x.pips) / v adds_to(v)", split)
    return loads_ruleset(text, "bad.cards")


@pytest.mark.parametrize("define,split,message", [
    ("define adds_to(g: cards, v: int) = (sum x in g: x.pips) == v", "split s into 2 adds_to",
     "'adds_to' must take the group of cards first, then one value for each argument given in the split (0 given)"),
    ("define adds_to(g: cards) = (sum x in g: x.pips) == 5", "split s into 2 adds_to(v)",
     "'adds_to' must take the group of cards first, then one value for each argument given in the split (1 given)"),
    ("define adds_to(v: int, g: cards) = (sum x in g: x.pips) == v", "split s into 2 adds_to(v)",
     "'adds_to' must take the group of cards first"),
    ("define adds_to(g: cards, h: cards) = count(g) == count(h)", "split s into 2 adds_to(s)",
     "parameter 'h' of 'adds_to' is a collection: a split gives its group test single values"),
    ("define adds_to(g: cards, v: int) = (sum x in g: x.pips) == v", "split s into 2 adds_to(s)",
     "argument 'v' of adds_to"),
    ("define adds_to(g: cards, a: int, b: int, c: int, d: int, e: int) = count(g) == a",
     "split s into 2 adds_to(v, v, v, v, v)", "a group test is given at most 4 values after the group"),
])
def test_a_test_given_the_wrong_values_is_a_located_error(define, split, message):
    with pytest.raises(RulesetError) as err:
        _load(define, split)
    text = str(err.value)
    assert message in text
    assert "bad.cards:" in text and "split s into" in text  # the file, line and column, and the line


def test_the_split_prints_back_as_written():
    from interpreter.language.transform import ToGraph
    from interpreter.language.parse import parse_text
    from interpreter.language.unparse import unparse
    for text in ["split s into 2 adds_to(v) of 3 and 1 pair", "split s into k adds_to(v, c.pips) by score",
                 "split s into (sum x in s: x.pips) / v adds_to(if a then 1 else 2)"]:
        e = ToGraph("<t>").transform(parse_text(f"game t\ndefine x = {text}\n", "<t>"))[1].body
        assert unparse(e) == text


def test_a_test_given_values_beside_one_given_none():
    """A set that adds up to the card and a pair of equal pips: each group kind its own test."""
    text = SUMS.read_text().replace(
        "define score(p: player)", "define twins(g: cards) = count(g) == 2 and first(g).pips == last(g).pips\n"
                                    "define score(p: player)").replace(
        "where sets_of(S, c.pips)", "where split S into 1 adds_to(c.pips) and 1 twins")
    rs = loads_ruleset(text, "twins.cards")
    s = position(rs, 2, "play", zones={"table": ["1-Clubs", "4-Clubs", "2-Diamonds", "2-Clubs"],
                                       "hand": {0: ["5-Clubs", "3-Clubs"], 1: ["1-Diamonds"]}})
    listed = moves(s)
    # 1+4 with the two 2s; 1+2 (either 2) leaves no pair
    assert [m for m in listed if m.startswith("capture")] == ["capture 5-Clubs 1-Clubs 2-Clubs 4-Clubs 2-Diamonds"]
    assert moves(native(s)) == listed
