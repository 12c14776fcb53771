"""`deal N from Z to each hand in play`: the deal passes over the players dropped from play and
gives the others what a plain deal gives them, on both engines; the rulebook says it; a family
of zones dealt 'in play' is a located error."""

from __future__ import annotations

import pytest
from both_engines import in_step, offered
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe, outcome
from interpreter.errors import RulesetError
from interpreter.native.engine import new_native_game

DEALS = """game deals "Deals"
players 2..5

deck d:
    suits Red, Blue
    ranks 1..12

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone pile[3] shared public "pile"

var dealer: player = seat(1)

phase play "Play":
    rule fold "Folding":
        for each player p:
            choose by p:
                action stay "Stay.":
                    pass
                action fold "Fold.":
                    drop p from the round
    rule deal "Dealing":
        deal 2 from stock to each hand in play starting after dealer
        end game
"""

ENGINES = [new_game, new_native_game]


def load(tmp_path, text=DEALS):
    return written(tmp_path, "deals.cards", text)


def hands(s, n):
    return [observe(s, k)["zones"]["hand"][f"P{k + 1}"]["cards"] for k in range(n)]


@pytest.mark.parametrize("make", ENGINES)
def test_the_players_out_of_play_get_nothing_and_the_rest_what_a_plain_deal_gives(tmp_path, make):
    s = make(load(tmp_path), 4, seed=5)
    for a in ("stay", "fold", "stay", "fold"):  # P2 and P4 fold
        apply(s, next(m for m in legal_moves(s) if m.action == a))
    dealt = hands(s, 4)
    # the same seed, nobody folding: P2, P3, P4, P1 get two cards each, top of the stock first
    plain = make(load(tmp_path), 4, seed=5)
    for _ in range(4):
        apply(plain, next(m for m in legal_moves(plain) if m.action == "stay"))
    full = hands(plain, 4)
    assert dealt[1] == [] and dealt[3] == []
    assert dealt[2] == full[1] and dealt[0] == full[2]  # P3 first (after the dealer, P2 passed over), then P1
    assert s.finished


def test_both_engines_deal_the_same_cards_whoever_folds(tmp_path):
    rs = load(tmp_path)
    for players in (2, 3, 5):
        for seed in range(6):
            a, b = new_game(rs, players, seed=seed), new_native_game(rs, players, seed=seed)
            for la in in_step(seed, a, b):
                assert la == offered(b)
            assert b.finished and outcome(a) == outcome(b)
            assert [observe(a, k)["zones"] for k in range(players)] == [observe(b, k)["zones"] for k in range(players)]


def test_the_rulebook_says_who_is_passed_over(tmp_path):
    from interpreter.render import render_markdown
    assert ("Deal 2 cards from the stock to each player's hand, each player's share at once, one player after "
            "another in turn order, beginning with the player after the dealer and ending with the dealer, passing over the players out of play."
            ) in render_markdown(load(tmp_path))


def test_a_family_of_zones_is_not_dealt_in_play(tmp_path):
    text = DEALS.replace("deal 2 from stock to each hand in play starting after dealer",
                         "deal 2 from stock to each pile in play")
    with pytest.raises(RulesetError) as e:
        load(tmp_path, text)
    assert "'pile' is a family of zones, not a player's zone" in str(e.value) and (e.value.line, e.value.column) == (23, 9)


def test_a_diff_reports_a_deal_now_in_play(tmp_path):
    from interpreter import loads_ruleset
    from interpreter.diff import diff_rulesets
    before = loads_ruleset(DEALS.replace(" in play starting after dealer", " starting after dealer"), "before.cards")
    d = diff_rulesets(before, loads_ruleset(DEALS, "deals.cards"))
    [c] = d.changes
    assert (c.kind, c.name, c.action) == ("rule", "deal", "changed")
    assert "deal 2 from stock to each hand in play starting after dealer" in c.text
