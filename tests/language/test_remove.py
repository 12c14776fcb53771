"""A variant's `remove KIND NAME, ...`: what it takes out of its base is gone from the game it
plays (on both engines), its rulebook says so, diff shows it, the lines read back from the graph,
and every misuse is a located error at the name, never a dangling reference found elsewhere."""

from __future__ import annotations

import random

import pytest

from interpreter import load_ruleset, loads_ruleset
from interpreter.diff import diff_rulesets
from interpreter.engine import apply, legal_moves, new_game, outcome, state_digest
from interpreter.errors import RulesetError
from interpreter.native import find_compiler
from interpreter.render import render_markdown
from interpreter.language.unparse import unparse_removals

BASE = """game base "Base"
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
zone pile shared public
option bonus: bool = false "A bonus point for a Red card."
option spare: int = 3 "Cards left in the stock for a bonus draw."
var turn: player = seat(1)
var tallied: int = 0
define value(c: card) = if bonus and c.suit == Red then 2 else 1
    text "a card is worth one point (two for a Red card, with the option bonus)"
define points(p: player) = sum c in hand(p): value(c)
define limit = spare
procedure tally(p: player):
    set tallied = tallied + 1
winner most points
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
    rule bonus_draw "The bonus draw" when count(stock) > limit:
        move top(stock) to hand(turn)
    while count(pile) < 2:
        rule discard "Discard":
            choose by turn:
                action discard c in hand(turn):
                    move c to pile
                    perform tally(turn)
            set turn = next(turn)
    if tallied > 5:
        rule reward "A reward":
            set tallied = 0
"""

CLEAN = """variant lean "Lean" of "base.cards"
define points(p: player) = count(hand(p))
remove rule bonus_draw
remove define value, limit
remove option bonus, spare
"""


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(BASE.splitlines(), 1) if text in line)


def variant(tmp_path, text: str, base: str = BASE):
    (tmp_path / "base.cards").write_text(base, encoding="utf-8")
    (tmp_path / "v.cards").write_text(text, encoding="utf-8")
    return load_ruleset(tmp_path / "v.cards")


def error(tmp_path, text: str) -> RulesetError:
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, text)
    return e.value


def test_what_a_variant_removes_is_gone_from_the_game_it_plays(tmp_path):
    rs = variant(tmp_path, CLEAN)
    assert [o.name for o in rs.options] == []
    assert [d.name for d in rs.defines] == ["points"]
    assert [c.action for c in rs.changes].count("removed") == 5
    base = load_ruleset(tmp_path / "base.cards")
    # the base's bonus draw gives the first player a third card; the variant has no such rule
    b, v = new_game(base, 2, seed=4), new_game(rs, 2, seed=4)
    assert len(legal_moves(b)) == 3 and len(legal_moves(v)) == 2
    assert all(str(m).startswith("discard ") and m.player == 0 for m in legal_moves(v))
    assert "bonus_draw" not in v.program.rule_names
    apply(v, legal_moves(v)[0])
    assert {m.player for m in legal_moves(v)} == {1}  # the turn passes as before


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
def test_both_engines_play_the_variant_alike(tmp_path):
    from interpreter.native.engine import new_native_game
    rs = variant(tmp_path, CLEAN)
    for seed in range(4):
        a, b = new_game(rs, 2, seed=seed), new_native_game(rs, 2, seed=seed)
        rng = random.Random(seed)
        while legal_moves(a):
            assert [(str(m), m.player) for m in legal_moves(a)] == [(str(m), m.player) for m in legal_moves(b)]
            m = rng.choice(legal_moves(a))
            apply(a, m)
            apply(b, m)
        assert outcome(a) == outcome(b) and state_digest(a) == state_digest(b)


def test_a_rule_alone_in_its_block_leaves_nothing_to_do_there(tmp_path):
    rs = variant(tmp_path, 'variant v of "base.cards"\nremove rule reward\n')
    s = new_game(rs, 2, seed=1)
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    assert s.finished and "reward" not in s.program.rule_names


def test_the_rulebook_lists_each_removal_in_the_bases_words(tmp_path):
    book = render_markdown(variant(tmp_path, CLEAN))
    assert "Option `bonus` is removed \u2014 in Base: \u201cA bonus point for a Red card.\u201d" in book
    assert ("Definition `value` is removed \u2014 in Base: \u201ca card is worth one point (two for a Red card, "
            "with the option bonus)\u201d") in book
    assert "Definition `limit` is removed: Base has it, this game does not" in book
    assert "Rule `bonus_draw` (*The bonus draw*) is removed: it is not played in this game" in book
    assert "The bonus draw" not in book.split("## Contents")[1]  # not among the rules played


def test_diff_shows_the_variant_lacks_what_it_removed(tmp_path):
    rs = variant(tmp_path, CLEAN)
    d = diff_rulesets(load_ruleset(tmp_path / "base.cards"), rs)
    assert [c.action for c in d.find("option", "bonus")] == ["removed"]
    assert [c.action for c in d.find("definition", "value")] == ["removed"]
    assert any("bonus_draw" in c.text or "bonus draw" in c.text.lower() for c in d.changes if c.kind == "rule")


def test_the_remove_lines_read_back_to_the_same_game(tmp_path):
    rs = variant(tmp_path, CLEAN)
    lines = unparse_removals(rs.changes)
    assert lines == ["remove rule bonus_draw", "remove define value, limit", "remove option bonus, spare"]
    again = variant(tmp_path, 'variant lean "Lean" of "base.cards"\ndefine points(p: player) = count(hand(p))\n'
                    + "\n".join(lines) + "\n")
    assert again.changes == rs.changes
    assert again.model_dump(exclude={"loc"}) == rs.model_dump(exclude={"loc"})


@pytest.mark.parametrize("text,message,column", [
    ("remove option bonsu", "option 'bonsu' cannot be removed: the base game 'base' has no option of that name "
     "(did you mean 'bonus'?)", 15),
    ("remove option bonus", "option 'bonus' cannot be removed: definition 'value' still uses it (line "
     f"{line_of('define value')} of base.cards); remove or replace that too", 15),
    ("remove var tallied", "variable 'tallied' cannot be removed: procedure 'tally' still uses it (line "
     f"{line_of('set tallied = tallied + 1')} of base.cards)", 12),
    ("remove procedure tally", "procedure 'tally' cannot be removed: phase 'play' still uses it (line "
     f"{line_of('perform tally')} of base.cards)", 18),
    ("remove define spare, limit", "definition 'spare' cannot be removed: the base game 'base' has no "
     "definition of that name", 15),
    ("remove rule bonus", "rule 'bonus' cannot be removed: the base game 'base' has no rule of that name", 13),
    ("remove rule reward, deal, reward", "rule 'reward' is removed twice (first at line 2)", 27),
    ("option spare = 4\nremove option spare", "option 'spare' is both written and removed in this variant", 15),
])
def test_a_removal_that_cannot_be_made_is_a_located_error(tmp_path, text, message, column):
    e = error(tmp_path, 'variant v of "base.cards"\n' + text + "\n")
    assert message in e.message
    assert e.file.endswith("v.cards") and e.line == text.count("\n") + 2 and e.column == column
    assert e.source_line == text.splitlines()[-1]


def test_a_local_that_shares_a_removed_name_does_not_keep_it(tmp_path):
    base = BASE.replace("define limit = spare", "define limit = spare\ndefine spare_cards(spare: int) = spare + 1")
    rs = variant(tmp_path, 'variant v of "base.cards"\nremove define spare_cards\n', base)
    assert "spare_cards" not in {d.name for d in rs.defines}
    e = error(tmp_path, 'variant v of "base.cards"\nremove option spare\n')
    assert "definition 'limit' still uses it" in e.message


def test_remove_belongs_to_variants():
    with pytest.raises(RulesetError, match="'remove' only makes sense in a variant") as e:
        loads_ruleset(BASE + "remove option spare\n", "game.cards")
    assert e.value.line == BASE.count("\n") + 1


def test_the_editor_takes_a_removed_name_to_the_bases_item_and_renames_it_there(tmp_path):
    from interpreter.lsp import analysis as an
    variant(tmp_path, CLEAN)
    v, base = tmp_path / "v.cards", tmp_path / "base.cards"
    ws = an.Workspace()
    ws.open_doc(str(v), CLEAN, 1)
    line = CLEAN.splitlines().index("remove define value, limit")
    [(path, span)] = ws.definition(str(v), line, len("remove define va"))
    assert path == str(base) and span.line == line_of("define value") - 1
    edits = ws.rename(str(v), line, len("remove define va"), "worth")
    assert set(edits) == {str(v), str(base)}
    assert [(s.line, s.col) for s, _ in edits[str(v)]] == [(line, len("remove define "))]
