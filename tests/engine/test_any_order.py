"""`choose by any p in SET:`: any of several players may act next (a beating game's throw-ins).
Whoever moves first decides; after each move everyone may act again; a player with a move may
pass, and the decision ends when every player who still has a move has passed since the last
move. The engine's player to act is the first of SET with a move; the table takes any of them."""

from __future__ import annotations

import pytest
from both_engines import in_step, offered

from interpreter import load_ruleset
from interpreter.engine import Move, apply, legal_moves, new_game, outcome
from interpreter.errors import IllegalMoveError, RulesetError

THROW = """game throwins "Throw-ins"
players 2..4

deck d:
    suits Red, Blue
    ranks 1..4

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone table shared public "table"

var defender: player = seat(1)
var thrown(p: player): int = 0

define attackers = those q in players where q != defender
define score(p: player) = thrown(p)
winner most score

phase play "Play":
    rule deal "Deal":
        deal HAND from stock to each hand
    rule throw "Throw-ins":
        choose by any p in attackers:
            action throw c in hand(p) when count(table) < LIMIT "Throw in a card.":
                move c to table face up
                set thrown(p) = thrown(p) + 1
    rule done "End":
        end game
"""


def game(tmp_path, players=3, hand=2, limit=3, seed=0, text=THROW):
    f = tmp_path / "throw.cards"
    f.write_text(text.replace("HAND", str(hand)).replace("LIMIT", str(limit)), encoding="utf-8")
    return new_game(load_ruleset(f), players, seed=seed)


def moves(s) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for m in legal_moves(s):
        out.setdefault(m.player, []).append(str(m))
    return out


def throw(s, seat: int) -> Move:
    return next(m for m in legal_moves(s) if m.player == seat and m.action == "throw")


def test_every_attacker_may_throw_or_pass_and_the_first_of_the_set_is_asked(tmp_path):
    s = game(tmp_path)
    ms = moves(s)
    assert sorted(ms) == [1, 2]  # P2 and P3; the defender has no move
    for seat in (1, 2):
        assert ms[seat][-1] == "pass" and len(ms[seat]) == 3 and all(m.startswith("throw ") for m in ms[seat][:-1])
    assert s.actor == 1


def test_the_second_attacker_may_throw_first_and_then_everyone_may_act_again(tmp_path):
    s = game(tmp_path)
    apply(s, Move(1, "pass"))
    assert sorted(moves(s)) == [2]  # P2 passed: only P3 until somebody moves
    apply(s, throw(s, 2))
    assert sorted(moves(s)) == [1, 2]  # the pass is forgotten after a move
    assert s.actor == 1
    apply(s, throw(s, 1))
    assert len(moves(s)[1]) == 2 and len(moves(s)[2]) == 2  # each threw one card


def test_a_move_out_of_the_order_is_taken_as_it_comes(tmp_path):
    s = game(tmp_path)
    assert s.actor == 1
    apply(s, throw(s, 2))  # P3 before P2, who was asked first
    assert [m.player for m in s.history] == [2]


def test_when_everyone_with_a_move_has_passed_the_rules_go_on(tmp_path):
    s = game(tmp_path)
    apply(s, throw(s, 1))
    apply(s, Move(2, "pass"))
    assert not s.finished
    apply(s, Move(1, "pass"))
    assert s.finished and outcome(s).winners == (1,)


def test_nobody_with_a_move_ends_the_decision_without_asking(tmp_path):
    s = game(tmp_path, limit=2)
    apply(s, throw(s, 1))
    apply(s, throw(s, 2))  # the table is full: nobody may throw, and nobody is asked to pass
    assert s.finished and [str(m.action) for m in s.history] == ["throw", "throw"]


def test_a_player_without_a_move_is_not_asked(tmp_path):
    s = game(tmp_path, hand=1, limit=4)
    apply(s, throw(s, 1))
    assert sorted(moves(s)) == [2]


def test_a_player_outside_the_set_may_not_move(tmp_path):
    s = game(tmp_path)
    with pytest.raises(IllegalMoveError):
        apply(s, Move(0, "pass"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_engines_offer_the_same_moves_at_every_decision(tmp_path, players):
    """Moves chosen among everyone's (not only the player asked first's), on both engines."""
    from interpreter.native.engine import new_native_game
    f = tmp_path / "throw.cards"
    f.write_text(THROW.replace("HAND", "3").replace("LIMIT", "5"), encoding="utf-8")
    rs = load_ruleset(f)
    for seed in range(15):
        a, b = new_game(rs, players, seed=seed), new_native_game(rs, players, seed=seed)
        for la in in_step(seed, a, b):
            assert la == offered(b) and a.actor == b.actor
        assert b.finished and outcome(a) == outcome(b)


def test_an_action_may_not_be_called_pass(tmp_path):
    text = THROW.replace("            action throw", '            action pass "Pass.":\n                pass\n'
                                                   "            action throw")
    f = tmp_path / "bad.cards"
    f.write_text(text.replace("HAND", "2").replace("LIMIT", "3"), encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(f)
    assert "'pass' is the move every player has" in str(e.value) and e.value.line == 24


def test_the_set_must_be_players_and_takes_no_where(tmp_path):
    for by, message, col in [("any p in attackers where p != defender", "takes no 'where'", 44),
                             ("any p in 1..3", "needs a collection of players", 28)]:
        f = tmp_path / "bad.cards"
        f.write_text(THROW.replace("any p in attackers", by).replace("HAND", "2").replace("LIMIT", "3"),
                     encoding="utf-8")
        with pytest.raises(RulesetError) as e:
            load_ruleset(f)
        assert message in str(e.value) and (e.value.line, e.value.column) == (23, col), str(e.value)


def test_the_rulebook_says_whoever_acts_first(tmp_path):
    from interpreter.render import render_markdown
    f = tmp_path / "throw.cards"
    f.write_text(THROW.replace("HAND", "2").replace("LIMIT", "3"), encoding="utf-8")
    book = render_markdown(load_ruleset(f))
    assert ("Any player *p* of the *attackers* may act, whoever is first; after each move, everyone may act "
            "again, until each player who still could has passed") in book


def test_the_table_offers_the_move_to_every_attacker_and_takes_the_first(tmp_path):
    from table_client import api, open_table, post_move, table_of

    from interpreter.web.app import create_app
    from starlette.testclient import TestClient
    f = tmp_path / "throw.cards"
    f.write_text(THROW.replace("HAND", "2").replace("LIMIT", "3"), encoding="utf-8")
    app = create_app(tmp_path / "data", given=[(f, None)], bot_pause=0, events_lifetime=0)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "file/throw", ["person", "person", "person"])
        a2, a3 = api(client, tid, 1, tokens[1]), api(client, tid, 2, tokens[2])
        assert a2["moves"] and a3["moves"] and not api(client, tid, 0, tokens[0])["moves"]
        refused = post_move(client, tid, 0, tokens[0], "pass", a2["version"])
        assert refused.status_code != 200
        card = next(m for m in a3["moves"] if m.startswith("throw"))
        r = post_move(client, tid, 2, tokens[2], card, a3["version"])  # P3 first, though P2 is asked first
        assert r.status_code == 200, r.text
        late = post_move(client, tid, 1, tokens[1], a2["moves"][0], a2["version"])  # P2's, sent too late
        assert late.status_code != 200
        s = table_of(app, tid).state
        assert [(m.player, str(m)) for m in s.history] == [(2, card)]
        assert api(client, tid, 1, tokens[1])["moves"]  # and P2 may act again


def test_a_player_without_a_move_may_not_pass_and_is_told_why(tmp_path):
    s = game(tmp_path, hand=1, limit=4)
    apply(s, throw(s, 1))  # P2's hand is empty now
    with pytest.raises(IllegalMoveError) as e:
        apply(s, Move(1, "pass"))
    assert "passes only while they have another move" in str(e.value)
