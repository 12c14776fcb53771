"""`sides by NAME`: who plays together. The line is checked where it is written, it is worked
out where it is asked (a soloist against the others changes from hand to hand), and it reaches
the rulebook, the diff, the fuzzer's reading of the rules and the solver."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset, loads_ruleset
from interpreter.players.bots import bot_seed, make_bot
from interpreter.diff.compare import diff_rulesets
from interpreter.engine import apply, new_game, sides
from interpreter.errors import RulesetError
from interpreter.fuzz.static import Static
from interpreter.render import book_context

CLASSIC = Path("rulesets/classic")
KUHN = (CLASSIC / "kuhn-poker.cards").read_text()


def _with(extra: str):
    return loads_ruleset(KUHN + "\n" + extra + "\n", "kuhn-with-sides.cards")


def test_the_partnership_games_say_who_plays_together():
    for name, n, want in (("bridge", 4, ((0, 2), (1, 3))), ("spades", 4, ((0, 2), (1, 3))),
                          ("euchre", 4, ((0, 2), (1, 3))), ("cribbage-four", 4, ((0, 2), (1, 3))),
                          ("spades-cutthroat", 3, ((0,), (1,), (2,))), ("hearts", 4, ((0,), (1,), (2,), (3,)))):
        s = new_game(load_ruleset(CLASSIC / f"{name}.cards"), n, None, 0)
        assert sides(s) == want, name


def test_sides_are_worked_out_where_they_are_asked():
    """Skat: nobody is the soloist before the bidding, so all three stand together; once the
    bidding has made a soloist, the soloist stands alone against the two defenders."""
    rs = load_ruleset(CLASSIC / "skat.cards")
    s = new_game(rs, 3, None, 4)
    assert sides(s) == ((0, 1, 2),)
    bots = [make_bot("random", bot_seed(4, k)) for k in range(3)]
    soloist = rs.vars.index(next(v for v in rs.vars if v.name == "soloist"))
    slot = s.program.vars[soloist][1]
    while s.slots[slot] is None and not s.finished:
        apply(s, bots[s.actor].choose(s))
    who = s.slots[slot]
    assert who is not None
    others = tuple(k for k in range(3) if k != who)
    assert sorted(sides(s)) == sorted(((who,), others))


@pytest.mark.parametrize("extra, message, line", [
    ("sides by nobody", "the sides line names 'nobody', which is not a definition", None),
    ("define team = 1\nsides by team", "'team' must take one player, like: define team(p: player) = ...", None),
    ("define team(p: player) = cards\nsides by team", "'team' must give one value for each player", None),
])
def test_a_wrong_sides_line_is_a_located_error(extra, message, line):
    with pytest.raises(RulesetError) as e:
        _with(extra)
    assert message in e.value.message
    text = e.value.render()
    assert "kuhn-with-sides.cards:" in text and "sides by" in text


def test_the_rulebook_says_who_plays_together():
    book = book_context(load_ruleset(CLASSIC / "bridge.cards"), picture=False)
    sentence = book["winner"]["sides"]
    assert sentence.startswith("The players play in sides. A player's")
    assert "true for the first player and their partner" in sentence and "are partners" in sentence
    assert book_context(load_ruleset(CLASSIC / "hearts.cards"), picture=False)["winner"]["sides"] is None


def test_the_diff_names_sides_added():
    a = loads_ruleset(KUHN, "kuhn.cards")
    b = _with("define team(p: player) = true\nsides by team")
    lines = [c.text for c in diff_rulesets(a, b).changes]
    assert any(t.startswith("Sides: players with the same") and "(was: each player for themself)" in t
               for t in lines), lines


def test_a_definition_only_the_sides_line_reads_is_not_unused():
    rs = load_ruleset(CLASSIC / "bridge.cards")
    found = [f for f in Static(rs, "bridge.cards").findings if f.kind == "unused-definition"]
    assert not any("side" in f.rules or "'side'" in f.sentence for f in found), found
    rs = _with("define team(p: player) = true")
    found = [f for f in Static(rs, "k.cards").findings if f.kind == "unused-definition"]
    assert any("team" in f.sentence for f in found)
