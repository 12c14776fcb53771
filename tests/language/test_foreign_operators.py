"""A designer who writes an operator or a name the way another language spells it (`x % 2`,
`a && b`, `n = 4` in a condition, `True`, `len(...)`) is told, at its line and column, what this
language writes instead: the message a habit from Python, C or JavaScript meets."""

from __future__ import annotations

import pytest

from interpreter import RulesetError, RulesetSyntaxError, loads_ruleset

BASE = """game g
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
define score(p: player) = {expr}
winner most score
phase deal "Deal":
    rule deal "Deal":
        deal 2 from stock to each hand
"""


def error_of(expr: str) -> tuple[int, int, str, str]:
    """(line, column, message, the rendered error) of the ruleset whose score is `expr`."""
    with pytest.raises((RulesetSyntaxError, RulesetError)) as info:
        loads_ruleset(BASE.format(expr=expr), "habit.cards")
    e = info.value
    rendered = e.render()
    head = rendered.splitlines()[0]
    prefix = "habit.cards:8:"
    assert head.startswith(prefix), rendered
    col, _, message = head[len(prefix):].partition(": error: ")
    assert "Traceback" not in rendered
    return 8, int(col), message, rendered


AT = len("define score(p: player) = ") + 1  # the column the expression starts at

# (the expression, where in it the error points (0-based), what the message must say)
CASES = [
    ("count(hand(p)) % 2", 15, "'%' is not an operator here: the remainder of a division is written with the word mod"),
    ("count(hand(p)) // 2", 15, "'//' is not an operator here: whole numbers are divided with one '/'"),
    ("count(hand(p)) ** 2", 15, "'**' is not an operator here: a power is written A ^ N"),
    ("if count(hand(p)) > 1 && true then 1 else 0", 22, "'&&' is not an operator here: both conditions are written with the word and"),
    ("if count(hand(p)) > 1 || true then 1 else 0", 22, "'||' is not an operator here: either condition is written with the word or"),
    ("if count(hand(p)) > 1 & true then 1 else 0", 22, "'&' is not an operator here: both conditions are written with the word and"),
    ("if !(count(hand(p)) > 1) then 1 else 0", 3, "'!' is not an operator here: a condition is negated with the word not"),
    ("if count(hand(p)) <> 1 then 1 else 0", 18, "'<>' is not an operator here: 'not equal' is written !="),
    ("if count(hand(p)) === 1 then 1 else 0", 18, "'===' is not an operator here: equality is written =="),
    ("if count(hand(p)) = 1 then 1 else 0", 18, "unexpected '='; a comparison is written with two: =="),
    ("count(hand(p)) > 1 ? 1 : 0", 19, "'?' is not an operator here: a value chosen by a condition is written if A then X else Y"),
    ("if True then 1 else 0", 3, "unknown name 'True'; write true"),
    ("if count(hand(p)) == None then 1 else 0", 21, "unknown name 'None'; write none"),
    ("len(hand(p))", 0, "unknown function 'len'; the number of cards in a zone or a collection is count(...)"),
]


@pytest.mark.parametrize("expr,at,message", CASES, ids=[c[0] for c in CASES])
def test_another_languages_spelling_says_what_to_write_at_its_place(expr, at, message):
    line, col, said, rendered = error_of(expr)
    assert said.startswith(message), rendered
    assert col == AT + at, rendered
    lines = rendered.splitlines()
    assert lines[1].strip() == f"define score(p: player) = {expr}"
    assert lines[2] == "    " + " " * (col - 1) + "^"


def test_this_languages_own_spellings_load():
    """The operators the hints name are the language's: each loads and is a score."""
    for expr in ("count(hand(p)) mod 2", "count(hand(p)) / 2", "count(hand(p)) ^ 2",
                 "if count(hand(p)) > 1 and not (count(hand(p)) != 1 or true) then 1 else 0",
                 "if count(hand(p)) == 1 then 1 else 0"):
        loads_ruleset(BASE.format(expr=expr), "habit.cards")


def test_a_name_the_ruleset_defines_is_its_own_not_a_habit():
    """`size` is a hint only where the ruleset has no such name: a definition of it is used."""
    text = BASE.format(expr="size(p)").replace("define score", "define size(p: player) = count(hand(p))\ndefine score")
    loads_ruleset(text, "habit.cards")
    with pytest.raises(RulesetError) as info:
        loads_ruleset(BASE.format(expr="sise(p)").replace("define score", "define size(p: player) = count(hand(p))\ndefine score"),
                      "habit.cards")
    assert "unknown function 'sise'; did you mean 'size'?" in str(info.value)
