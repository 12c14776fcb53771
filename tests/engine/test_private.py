"""Private bookkeeping and face-down cards: a `private var` plays as any variable on both engines
but is in no seat's view (observe, the table, the terminal, the adapters); `turn CARDS face down`
hides cards again on both engines; the rulebook says which cards of a hidden zone lie face up."""

from __future__ import annotations

import random

import pytest

from interpreter import loads_ruleset
from interpreter.engine import apply, cards_in, legal_moves, observe, outcome, position, public_vars, state_digest
from interpreter.engine import new_game
from interpreter.errors import CardRulesError

GAME = """game closing "Close the stock"
players 2
at most 40 decisions

deck d:
    suits Red, Blue
    ranks 1..6

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone pile shared public "pile"

var turn: player = seat(1)
private var plays_left: int = 4
    text "How many cards may still be played before the stock closes."
private var last: card
private var led(p: player): int = 0

define points(p: player) = count(hand(p))

winner fewest points

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
        move top(stock) under stock face up
    while plays_left > 0:
        rule go "A turn":
            choose by turn:
                action play c in hand(turn) where last == none or c.suit == last.suit or c.rank == last.rank "Play.":
                    move c to pile
                    set last = c
                    set led(turn) = led(turn) + 1
                action draw "Draw the top card.":
                    move top(stock) to hand(turn)
            set plays_left = plays_left - 1
            set turn = next(turn)
    rule close "Closing the stock":
        turn bottom(stock) face down
"""
PRIVATE = ("plays_left", "last", "led")


@pytest.fixture(scope="module")
def rs():
    return loads_ruleset(GAME, "closing.cards")


def _no_private(view) -> None:
    assert not set(PRIVATE) & set(view["vars"]), view["vars"]
    assert not any(name in repr(view) for name in PRIVATE)


def test_a_private_variable_plays_alike_on_both_engines_and_is_in_no_view(rs):
    native = pytest.importorskip("interpreter.native.engine")
    for seed in range(6):
        a, b = new_game(rs, 2, seed=seed), native.new_native_game(rs, 2, seed=seed)
        rng = random.Random(seed)
        while legal_moves(a):
            assert [str(m) for m in legal_moves(a)] == [str(m) for m in legal_moves(b)]
            for seat in (0, 1):
                assert observe(a, seat) == observe(b, seat)
                _no_private(observe(a, seat))
            m = rng.choice(legal_moves(a))
            apply(a, m)
            apply(b, m)
        assert outcome(a) == outcome(b) and state_digest(a) == state_digest(b)
        assert set(PRIVATE) <= set(public_vars(a, private=True)) and not set(PRIVATE) & set(public_vars(a))


def test_the_rules_read_a_private_variable(rs):
    """With one play left, the next move ends the turns and the stock is closed."""
    s = position(rs, 2, "play", zones={"hand": {0: ["1-Red", "2-Blue"], 1: ["3-Red"]}},
                 vars={"plays_left": 1, "last": "5-Red"}, shuffle=False)
    assert s.program and not s.finished
    # the rule of the deal ran first (the position starts at the phase): the deal, then one play left
    assert public_vars(s, private=True)["plays_left"] == 1
    moves = sorted(str(m) for m in legal_moves(s))
    hand = cards_in(s, "hand", 0)
    assert moves == sorted(["draw"] + [f"play {c}" for c in hand if c.endswith("Red") or c.startswith("5-")])
    apply(s, next(m for m in legal_moves(s) if str(m) == "draw"))
    assert s.finished and public_vars(s, private=True)["plays_left"] == 0


def test_turning_a_card_face_down_hides_it_again_on_both_engines(rs):
    native = pytest.importorskip("interpreter.native.engine")
    for make in (new_game, native.new_native_game):
        s = make(rs, 2, seed=3)
        trump = cards_in(s, "stock")[0]  # slid under the stock face up
        assert observe(s, 0)["zones"]["stock"]["known"] == [trump] == observe(s, 1)["zones"]["stock"]["known"]
        while legal_moves(s):
            apply(s, next(m for m in legal_moves(s) if str(m) == "draw"))
        assert cards_in(s, "stock")[0] == trump
        assert observe(s, 0)["zones"]["stock"]["known"] == [] and not s.known[s.program.card_names.index(trump)]


def test_the_terminal_the_table_and_the_adapters_never_show_a_private_variable(rs, tmp_path, capsys):
    from interpreter.adapters.core import Core
    from interpreter.adapters.encoding import spec_for
    from interpreter.playing import Human
    from interpreter.web.views import seat_context
    s = new_game(rs, 2, seed=1)
    Human(0).show(s)
    out = capsys.readouterr().out
    assert "turn: P1" in out and not any(name in out for name in PRIVATE)
    page = seat_context(None, 0, s, notes=[])
    assert [v for v in page["vars"]] and not any(name in repr(page) for name in PRIVATE)
    f = tmp_path / "closing.cards"
    f.write_text(GAME, encoding="utf-8")
    spec = spec_for(str(f), 2)
    core = Core.start(spec, 1)
    assert "turn=" in spec.view_text(core, 0) and not any(name in spec.view_text(core, 0) for name in PRIVATE)
    widths = dict((name, shape) for name, shape, _, _ in spec.pieces)
    assert widths["vars"] == (3,)  # the turn only: a player (2 seats and none); no private one


def test_the_rulebook_lists_private_variables_as_the_rules_own(rs):
    from interpreter.render import render_markdown
    md = render_markdown(rs)
    public, _, rest = md.partition("The game also keeps track of, for everyone to see:")[2].partition(
        "The rules also keep, for their own bookkeeping (no player sees these):")
    assert "`turn`" in public and not any(f"`{n}`" in public for n in PRIVATE)
    assert all(f"`{n}`" in rest.split("##")[0] for n in PRIVATE)
    assert "How many cards may still be played before the stock closes." in rest
    assert ("| `stock` | stock | shared | nobody while face down; everyone sees the cards the rules slide under it "
            "face up, until a rule turns them face down |") in md
    assert "Turn the bottom card of the stock face down." in md


def test_a_public_variable_carries_a_text_line_too():
    from interpreter.render import render_markdown
    text = GAME.replace('var turn: player = seat(1)\n', 'var turn: player = seat(1)\n    text "Whose turn it is."\n')
    md = render_markdown(loads_ruleset(text, "closing.cards"))
    assert "- the turn (`turn`), a player, at first the player in seat 1. Whose turn it is." in md


def test_the_zone_table_says_which_cards_of_a_hidden_zone_lie_face_up():
    from interpreter.render.builder import face_up_ways
    text = GAME.replace('zone pile shared public "pile"', 'zone pile shared public "pile"\n'
                        'zone out shared hidden "out"\nzone shown per player owner "shown"')
    text = text.replace("        turn bottom(stock) face down\n", "        turn bottom(stock) face down\n"
                        "        move pile to out\n        reveal top(out)\n"
                        "        for each player q:\n            move top(hand(q)) to shown(q) face up\n")
    ways = face_up_ways(loads_ruleset(text, "closing.cards"))
    assert ways == {"stock": ["the cards the rules slide under it face up, until a rule turns them face down"],
                    "out": ["its top card once it is turned up"], "shown": ["the cards the rules move there face up"]}
    from interpreter.render import render_markdown
    md = render_markdown(loads_ruleset(text, "closing.cards"))
    assert "| `out` | out | shared | nobody while face down; everyone sees its top card once it is turned up |" in md
    assert ("| `shown` | shown | one per player | only its owner; everyone sees the cards the rules move there "
            "face up |") in md
    assert "| `hand` | hand | one per player | only its owner |" in md  # nothing puts a hand's cards face up


@pytest.mark.parametrize("old,new,expected", [
    ("        turn bottom(stock) face down", "        turn 3 face down", "what to turn face down"),
    ("        turn bottom(stock) face down", "        turn bottom(stock) face", "expected 'down'"),
    ("private var last: card", "private define last = 1", "expected 'var'"),
])
def test_misuse_is_a_located_error(old, new, expected):
    with pytest.raises(CardRulesError) as e:
        loads_ruleset(GAME.replace(old, new), "closing.cards")
    err = e.value
    line = next(i for i, ln in enumerate(GAME.replace(old, new).splitlines(), 1) if ln == new.splitlines()[0])
    assert err.line == line and expected in str(err) and "closing.cards" in str(err)


def test_the_statement_and_the_variable_read_back_as_written(rs):
    from interpreter.diff import diff_rulesets
    text = GAME.replace("        turn bottom(stock) face down", "        turn top(stock) face down")
    text = text.replace("private var plays_left: int = 4", "var plays_left: int = 4")
    from interpreter.diff import render_diff
    b = loads_ruleset(text, "closing.cards")
    report = render_diff(diff_rulesets(rs, b), rs, b, "text")
    assert "turn top(stock) face down" in report and "turn bottom(stock) face down" in report
    assert "private" in report
