"""A variant's `new rule NAME "Title" after RULE` (or `before RULE`): a rule the base lacks, played
just after (before) one of the base's rules wherever that stands, as often as it is played, on
both engines; the rulebook and diff say it is added; a rule the base has, or a RULE it lacks, is
a located error."""

from __future__ import annotations

import random

import pytest

from interpreter import load_ruleset
from interpreter.diff import diff_rulesets
from interpreter.engine import apply, cards_in, legal_moves, new_game, observe, outcome, state_digest
from interpreter.errors import RulesetError
from interpreter.native import find_compiler
from interpreter.render import render_markdown

BASE = """game base "Base"
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
var seen: int = 0
define points(p: player) = count(hand(p))
winner most points
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
    while count(pile) < 3:
        rule discard "Discard":
            choose by turn:
                action discard c in hand(turn):
                    move c to pile
        set turn = next(turn)
"""

AFTER = '''variant counted "Counted" of "base.cards"
new rule count_it "Count the discard" after discard when count(stock) > 0:
    text "After each discard, the player who discarded draws a card while the pack lasts."
    set seen = seen + 1
    move top(stock) to hand(turn)
'''


def variant(tmp_path, text: str):
    (tmp_path / "base.cards").write_text(BASE, encoding="utf-8")
    (tmp_path / "v.cards").write_text(text, encoding="utf-8")
    return load_ruleset(tmp_path / "v.cards")


def test_the_new_rule_is_played_after_its_rule_every_time(tmp_path):
    rs = variant(tmp_path, AFTER)
    s = new_game(rs, 2, seed=3)
    assert {str(m).split()[0] for m in legal_moves(s)} == {"discard"} and len(legal_moves(s)) == 2
    top = cards_in(s, "stock")[-1]
    apply(s, legal_moves(s)[0])
    # the discard, then the new rule (P1 draws the top of the pack), then the turn passes
    assert observe(s, 0)["vars"]["seen"] == 1
    assert top in cards_in(s, "hand", 0) and len(cards_in(s, "hand", 0)) == 2
    assert {m.player for m in legal_moves(s)} == {1}
    apply(s, legal_moves(s)[0])
    assert observe(s, 0)["vars"]["seen"] == 2 and len(cards_in(s, "hand", 1)) == 2
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    assert observe(s, 0)["vars"]["seen"] == 3  # once a discard, the pack lasting (8 - 4 cards)
    base = new_game(load_ruleset(tmp_path / "base.cards"), 2, seed=3)
    apply(base, legal_moves(base)[0])
    assert len(cards_in(base, "hand", 0)) == 1  # (the base: no draw)


def test_before_puts_it_ahead_of_its_rule(tmp_path):
    rs = variant(tmp_path, AFTER.replace("after discard", "before discard"))
    body = rs.phases[0].body
    loop = body[1]
    assert [st.name for st in loop.body if hasattr(st, "name") and hasattr(st, "title")] == ["count_it", "discard"]
    rs = variant(tmp_path, AFTER)
    assert [st.name for st in rs.phases[0].body[1].body if hasattr(st, "title")] == ["discard", "count_it"]


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
def test_both_engines_play_it_alike(tmp_path):
    from interpreter.native.engine import new_native_game
    rs = variant(tmp_path, AFTER)
    for seed in range(4):
        a, b = new_game(rs, 2, seed=seed), new_native_game(rs, 2, seed=seed)
        rng = random.Random(seed)
        while legal_moves(a):
            assert [(str(m), m.player) for m in legal_moves(a)] == [(str(m), m.player) for m in legal_moves(b)]
            m = rng.choice(legal_moves(a))
            apply(a, m)
            apply(b, m)
        assert outcome(a) == outcome(b) and state_digest(a) == state_digest(b)


def test_the_rulebook_and_diff_say_it_is_added(tmp_path):
    rs = variant(tmp_path, AFTER)
    book = render_markdown(rs)
    assert "Rule `count_it` (*Count the discard*) is added" in book
    assert "After each discard, the player who discarded draws a card while the pack lasts." in book
    d = diff_rulesets(load_ruleset(tmp_path / "base.cards"), rs)
    assert any("count_it" in c.text and "added" in c.text for c in d.changes if c.kind == "rule")


@pytest.mark.parametrize("text, message", [
    (AFTER.replace("after discard", "after discrad"),
     "'new rule count_it after discrad': the base game has no rule 'discrad' (did you mean 'discard'?)"),
    (AFTER.replace("new rule count_it", "new rule deal"),
     "rule 'deal' is not new: the base game 'base' has one; drop 'new' and the 'after ...' to replace it"),
])
def test_a_misplaced_new_rule_is_a_located_error(tmp_path, text, message):
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, text)
    assert message in str(e.value) and e.value.line == 2
