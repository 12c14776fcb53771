"""`cardrules diff BASE VARIANT` names the rules whose words the variant keeps from its base while
it replaces a definition they name (new users' Twenty-Nine and Jass printed the base's text of a
rule whose working they had changed): 'Words to read again', in text, Markdown and HTML."""

from __future__ import annotations

from interpreter import loads_ruleset
from interpreter.diff import diff_rulesets, render_diff

BASE = """game base "Base"
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
define may_lead(c: card) = c.suit == Red
define points(p: player) = count(hand(p))
winner fewest points
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
    while count(hand(turn)) > 0:
        rule lead "Leading":
            text "Lead a red card if you hold one."
            choose by turn:
                action lead c in hand(turn) where may_lead(c) or no d in hand(turn) where may_lead(d):
                    move c to pile
            set turn = next(turn)
"""


def test_a_kept_rule_text_that_names_a_replaced_definition_is_to_read_again(tmp_path):
    (tmp_path / "base.cards").write_text(BASE, encoding="utf-8")
    a = loads_ruleset(BASE, str(tmp_path / "base.cards"))
    b = loads_ruleset('variant any_lead "Any lead" of "base.cards"\ndefine may_lead(c: card) = true\n',
                      str(tmp_path / "v.cards"))
    d = diff_rulesets(a, b)
    assert d.kept_words == (("lead", "Leading", ("may_lead",)),)
    text = render_diff(d, a, b, "text", redline=False)
    assert "Words to read again" in text and "Rule 'lead' (Leading) keeps the words of Base but names 'may_lead'" in text
    assert "Rule `lead` (Leading) keeps the words of Base" in render_diff(d, a, b, "md", redline=False)
    assert "<h2>Words to read again</h2>" in render_diff(d, a, b, "html", redline=False)
    restated = loads_ruleset('variant any_lead "Any lead" of "base.cards"\ndefine may_lead(c: card) = true\n'
                             'rule lead "Leading":\n    text "Lead any card."\n    choose by turn:\n'
                             '        action lead c in hand(turn) where may_lead(c):\n            move c to pile\n'
                             '    set turn = next(turn)\n', str(tmp_path / "v.cards"))
    assert diff_rulesets(a, restated).kept_words == ()
    assert diff_rulesets(a, a).kept_words == ()
