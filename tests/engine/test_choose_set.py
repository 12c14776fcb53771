"""Choosing a set of cards as one move (`action capture c in hand(p), S subset of table where ...`),
with the small fishing game tests/engine/sets/fishing.cards: a card from the hand captures any set of
table cards whose pips add up to its own. Each legal set is one move, listed by its mask over the
table's cards (bit i: the i-th card from the bottom), lowest first, and named by its cards in the
deck's order; both engines list the same moves and play the same games."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from both_engines import captures_first

from interpreter import load_ruleset, loads_ruleset
from interpreter.compiler import compile_ruleset
from interpreter.compiler.program import MAX_SET_CARDS
from interpreter.engine import apply, cards_in, legal_moves, new_game, outcome, position
from interpreter.errors import GameRuntimeError, IllegalMoveError, RulesetError
from interpreter.native.engine import NativeGame, new_native_game

FISHING = Path(__file__).resolve().parents[1] / "engine" / "sets" / "fishing.cards"


@cache
def rules():
    return load_ruleset(FISHING)


def native(s):
    """The same position played by the native engine."""
    game = NativeGame(s.program.ruleset, s.n_players)
    game.load(s)
    return game.view


def both(s):
    return [s, native(s)]


def cards(s, zone, which=None) -> list[str]:
    if s.native is not None:  # a native game's view, brought up to date
        s.native.sync()
    return cards_in(s, zone, which)


def moves(s) -> list[str]:
    return [str(m) for m in legal_moves(s)]


def table_of(cards, hands, players=2, ruleset=None, **vars):
    return position(ruleset or rules(), players, "play", zones={"table": cards, "hand": hands}, vars=vars)


# ====================================================================== the legal sets

def test_each_set_that_adds_up_is_one_move_in_the_order_of_its_mask_over_the_table():
    s = table_of(["A-Clubs", "2-Clubs", "3-Clubs", "4-Hearts", "6-Spades"], {0: ["5-Diamonds", "10-Clubs"], 1: ["7-Hearts"]})
    expected = ["capture 5-Diamonds 2-Clubs 3-Clubs",          # bits 1, 2: mask 6
                "capture 5-Diamonds A-Clubs 4-Hearts",         # bits 0, 3: mask 9
                "capture 10-Clubs A-Clubs 2-Clubs 3-Clubs 4-Hearts",  # mask 15
                "capture 10-Clubs A-Clubs 3-Clubs 6-Spades",   # mask 21
                "capture 10-Clubs 4-Hearts 6-Spades",          # mask 24
                "trail 5-Diamonds", "trail 10-Clubs"]
    for t in both(s):
        assert moves(t) == expected


def test_the_order_follows_the_table_not_the_deck():
    s = table_of(["6-Spades", "4-Hearts", "3-Clubs", "2-Clubs", "A-Clubs"], {0: ["10-Clubs"], 1: ["7-Hearts"]})
    expected = ["capture 10-Clubs 4-Hearts 6-Spades",          # bits 0, 1: mask 3
                "capture 10-Clubs A-Clubs 3-Clubs 6-Spades",   # bits 0, 2, 4: mask 21
                "capture 10-Clubs A-Clubs 2-Clubs 3-Clubs 4-Hearts",  # bits 1..4: mask 30
                "trail 10-Clubs"]
    for t in both(s):
        assert moves(t) == expected


def test_no_set_adds_up_leaves_only_trailing():
    s = table_of(["9-Clubs", "8-Clubs"], {0: ["5-Diamonds", "2-Hearts"], 1: ["7-Hearts"]})
    for t in both(s):
        assert moves(t) == ["trail 5-Diamonds", "trail 2-Hearts"]


def test_a_capture_takes_the_set_and_the_card_and_the_turn_passes():
    s = table_of(["6-Spades", "4-Hearts", "3-Clubs", "2-Clubs", "A-Clubs"], {0: ["10-Clubs"], 1: ["7-Hearts", "5-Clubs"]})
    for t in both(s):
        apply(t, "capture 10-Clubs A-Clubs 3-Clubs 6-Spades")
        assert cards(t, "taken", 0) == ["A-Clubs", "3-Clubs", "6-Spades", "10-Clubs"]
        assert cards(t, "table") == ["4-Hearts", "2-Clubs"]
        assert moves(t) == ["trail 7-Hearts", "trail 5-Clubs"]  # the table's 4 and 2 make neither
        apply(t, "trail 5-Clubs")
        assert cards(t, "table") == ["4-Hearts", "2-Clubs", "5-Clubs"]


def test_a_set_typed_in_another_order_is_not_a_move():
    s = table_of(["4-Hearts", "6-Spades"], {0: ["10-Clubs"], 1: ["7-Hearts"]})
    assert "capture 10-Clubs 4-Hearts 6-Spades" in moves(s)
    with pytest.raises(IllegalMoveError, match="may not capture 10-Clubs 6-Spades 4-Hearts now: .* the card must be "
                                               r"in hand\(turn\) and the cards must be some of table"):
        apply(s, "capture 10-Clubs 6-Spades 4-Hearts")


def test_the_plain_evaluator_lists_the_same_sets():
    plain = compile_ruleset(rules(), fast=False)
    zones = {"table": ["A-Clubs", "2-Clubs", "3-Clubs", "4-Hearts", "6-Spades"], "hand": {0: ["5-Diamonds", "10-Clubs"]}}
    a = position(rules(), 2, "play", zones=zones)
    b = position(plain, 2, "play", zones=zones)
    assert moves(a) == moves(b)


# ====================================================================== both engines

@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_engines_offer_the_same_sets_and_play_the_same_games(players):
    captures = 0
    for seed in range(12):
        py, c = new_game(rules(), players, seed=seed), new_native_game(rules(), players, seed=seed)
        for listed in captures_first(seed, py, c):
            assert moves(c) == listed, (seed, players)
            captures += len([m for m in listed if m.startswith("capture")])
        assert c.finished and str(outcome(c)) == str(outcome(py))
    assert captures > 50  # the games did choose among sets


# ====================================================================== a set as the only parameter

# the bound, the pack and the zones of two games below, DISCARD and SECRET
TWELVE = '''at most 60 decisions
deck small "Twelve cards":
    suits Clubs, Hearts, Spades
    ranks A, 2, 3, 9
    value pips: A = 1, 2 = 2, 3 = 3, 9 = 9
zone stock shared hidden "the stock"
zone hand per player owner "hand"
zone pile shared public "the pile"
'''

DISCARD = '''game discards "Discard up to two low cards"
players 2
''' + TWELVE + '''var turn: player = seat(1)
var total: int = 0
var lows: int = 0
var with_three: int = 0
define score(p: player) = 0 - count(hand(p))
winner most score
phase deal "Deal" then play:
    deal 3 from stock to each hand
phase play "Play":
    while (count(hand(turn))) > 0:
        rule discard "Discard":
            choose by turn:
                action discard S subset of hand(turn) where count(S) <= 2 and (all x in S: x.pips < 9) "Discard one or two low cards.":
                    set total = total + (sum x in S: x.pips)
                    set lows = lows + count(those x in S where x.pips < 3)
                    if card(3, Clubs) in S:
                        set with_three = with_three + 1
                    move S to pile
                action keep when all x in hand(turn): x.pips == 9 "Give up when only nines are left.":
                    end game
        set turn = next(turn)
'''


@cache
def discards():
    return loads_ruleset(DISCARD, "discards.cards")


def test_a_set_alone_lists_every_allowed_set_and_the_body_reads_it():
    s = position(discards(), 2, "play", zones={"hand": {0: ["A-Clubs", "3-Clubs", "9-Hearts"], 1: ["2-Spades"]}})
    for t in both(s):
        assert moves(t) == ["discard A-Clubs", "discard 3-Clubs", "discard A-Clubs 3-Clubs"]
        apply(t, "discard A-Clubs 3-Clubs")
        assert cards(t, "pile")[-2:] == ["A-Clubs", "3-Clubs"]
        assert [t.slots[t.program.vars[i][1]] for i in range(1, 4)] == [4, 1, 1]


def test_a_set_alone_plays_the_same_on_both_engines():
    for seed in range(20):
        py, c = new_game(discards(), 2, seed=seed), new_native_game(discards(), 2, seed=seed)
        rnd = random.Random(seed)
        while not py.finished:
            assert moves(c) == moves(py)
            m = rnd.choice(moves(py))
            apply(py, m)
            apply(c, m)
        assert str(outcome(c)) == str(outcome(py))


# ====================================================================== errors

def test_a_set_of_something_other_than_cards_is_a_located_error():
    text = DISCARD.replace("action discard S subset of hand(turn) where count(S) <= 2 and (all x in S: x.pips < 9)",
                           "action discard S subset of players where count(S) <= 2")
    with pytest.raises(RulesetError) as e:
        loads_ruleset(text, "bad.cards")
    msg = str(e.value)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "S subset of players" in x)
    assert f"bad.cards:{line}:44:" in msg and "a set is chosen among cards" in msg and "'players' is a collection of players" in msg


def test_a_set_chosen_among_too_many_cards_stops_both_engines_with_a_located_error():
    many = [f"{r}-{s}" for s in ("Clubs", "Diamonds") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    many.append("A-Hearts")
    assert len(many) == MAX_SET_CARDS + 1
    s0 = None
    with pytest.raises(GameRuntimeError) as py_err:
        s0 = table_of(many, {0: ["10-Spades"], 1: ["7-Hearts"]})
    assert s0 is None
    msg = str(py_err.value)
    assert "fishing.cards:33:" in msg and f"S subset of table: the set is chosen among more than {MAX_SET_CARDS}" in msg
    assert "pick the cards one at a time, a decision each" in msg  # (and how to write it instead)
    # the native engine: a game that reaches such a table
    fine = table_of(many[:-1], {0: ["10-Spades"], 1: ["A-Hearts"]}, turn="P2")
    c = native(fine)
    with pytest.raises(GameRuntimeError) as c_err:
        apply(c, "trail A-Hearts")
    assert str(c_err.value).splitlines()[0] == msg.splitlines()[0]


def test_too_many_sets_says_to_put_the_set_last_when_a_later_parameter_decides():
    text = FISHING.read_text().replace("action capture c in hand(turn), S subset of table where",
                                       "action capture S subset of table, c in hand(turn) where")
    rs = loads_ruleset(text, "late.cards")
    table = [f"{r}-{s}" for s in ("Clubs",) for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")] + \
            ["A-Hearts", "2-Hearts", "3-Hearts"]
    with pytest.raises(GameRuntimeError, match="put S last"):
        table_of(table, {0: ["10-Spades"], 1: ["7-Hearts"]}, ruleset=rs)
    small = table_of(["6-Spades", "4-Hearts"], {0: ["10-Clubs"], 1: ["7-Hearts"]}, ruleset=rs)
    for t in both(small):  # the set first: rows in the order of its sets, then of the cards
        assert moves(t) == ["capture 4-Hearts 6-Spades 10-Clubs", "trail 10-Clubs"]


# ====================================================================== rulebook, diff, unparse

def test_the_rulebook_reads_the_set_aloud():
    from interpreter.render import render_markdown
    book = render_markdown(rules())
    assert ("a card *c* in the turn's hand and any set *S* of one or more cards of the table whose pips add up "
            "to *c*'s pips") in book


def test_diff_says_where_the_set_now_comes_from():
    from interpreter.diff import diff_rulesets
    text = FISHING.read_text().replace("S subset of table where", "S subset of hand(turn) where")
    d = diff_rulesets(rules(), loads_ruleset(text, "other.cards"))
    [c] = d.changes
    assert (c.kind, c.name, c.action) == ("rule", "capture_or_trail", "changed")
    assert "any set S of one or more cards of the turn's hand" in c.text  # now
    assert "any set S of one or more cards of the table" in c.text  # was
    assert "source now: `action capture c in hand(turn), S subset of hand(turn) where" in c.text
    same = loads_ruleset(FISHING.read_text(), "same.cards")
    assert not diff_rulesets(rules(), same).changes


def test_a_set_and_a_card_parameter_are_not_the_same_action():
    from interpreter.diff import diff_rulesets
    text = DISCARD.replace("action discard S subset of hand(turn)", "action discard S in hand(turn)")
    text = text.replace("count(S) <= 2 and (all x in S: x.pips < 9)", "S.pips < 9")
    text = text.replace("(sum x in S: x.pips)", "S.pips").replace("count(those x in S where x.pips < 3)", "0")
    text = text.replace("card(3, Clubs) in S", "S == card(3, Clubs)")
    assert diff_rulesets(discards(), loads_ruleset(text, "one.cards")).changes


def _capture(rs):
    rule = next(x for x in rs.phases[1].body[0].body if getattr(x, "name", None) == "capture_or_trail")
    return rule.body[0].actions[0]


def _no_loc(x):
    if isinstance(x, dict):
        return {k: _no_loc(v) for k, v in x.items() if k != "loc"}
    if isinstance(x, (list, tuple)):
        return [_no_loc(v) for v in x]
    return x


@pytest.mark.parametrize("params", ["c in hand(turn), S subset of table",
                                    "S subset of (those x in table where x.pips < 10), c in hand(turn)",
                                    "c in hand(turn), S subset of table + hand(next(turn))"])
def test_the_parameters_print_back_as_written(params):
    from interpreter.language.unparse import action_params_text
    text = FISHING.read_text().replace("c in hand(turn), S subset of table", params)
    first = _capture(loads_ruleset(text, "first.cards"))
    printed = action_params_text(first)
    again = _capture(loads_ruleset(FISHING.read_text().replace("c in hand(turn), S subset of table", printed), "again.cards"))
    assert _no_loc(again.model_dump()) == _no_loc(first.model_dump())
    assert [sub for _, _, sub in again.params()] == ["subset" in p for p in params.split(", ")]


# ====================================================================== adapters

def test_the_adapters_number_a_set_by_its_mask_over_a_small_deck(tmp_path):
    from interpreter.adapters.core import Core
    from interpreter.adapters.encoding import spec_for
    path = tmp_path / "discards.cards"
    path.write_text(DISCARD)
    spec = spec_for(str(path), 2)
    sets = [a for a in spec.actions if a[0] == "discard"]
    assert len(sets) == 2 ** 12 - 1  # every non-empty set of the twelve cards, by mask over the deck
    assert sets[:3] == [("discard", "A-Clubs"), ("discard", "2-Clubs"), ("discard", "A-Clubs 2-Clubs")]
    core = Core.start(spec, 3)
    rnd = random.Random(3)
    while not core.terminal():
        legal = core.legal()
        for a, m in legal.items():
            assert spec.actions[a] == (m.action, m.arg) and spec.action_text(a) == str(m)
        core.apply_id(rnd.choice(list(legal)))


def test_the_adapters_refuse_a_set_over_a_large_deck_naming_the_action():
    from interpreter.adapters.encoding import spec_for
    from interpreter.errors import OptionError
    with pytest.raises(OptionError, match=r"fishing.cards:33:\d+: action 'capture' takes a set of cards.*40 cards"):
        spec_for(str(FISHING), 2)


# ====================================================================== records and the terminal

def test_a_saved_game_with_sets_replays_to_the_same_end(tmp_path):
    from interpreter.engine import make_record, read_record, replay, write_record
    s = new_game(rules(), 3, seed=5)
    rnd = random.Random(5)
    while not s.finished:
        listed = moves(s)
        apply(s, rnd.choice([m for m in listed if m.startswith("capture")] or listed))
    assert any(m.action == "capture" and len(m.arg.split()) > 2 for m in s.history)
    write_record(make_record(s, str(FISHING)), tmp_path / "game.json")
    again = replay(rules(), read_record(tmp_path / "game.json"))
    assert again.history == s.history and str(outcome(again)) == str(outcome(s))


def test_at_the_terminal_a_set_may_be_typed_in_any_order(monkeypatch, capsys):
    import io
    from interpreter.playing import Human
    s = table_of(["6-Spades", "4-Hearts", "3-Clubs"], {0: ["10-Clubs"], 1: ["7-Hearts"]})
    monkeypatch.setattr("sys.stdin", io.StringIO("capture 10-Clubs 6-Spades 4-Hearts\n"))
    move = Human(0).choose(s)
    assert str(move) == "capture 10-Clubs 4-Hearts 6-Spades"
    shown = capsys.readouterr().out
    assert "capture 10-Clubs 4-Hearts 6-Spades" in shown and "trail 10-Clubs" in shown


# ====================================================================== what cuts the search

def _variant(where: str):
    return loads_ruleset(FISHING.read_text().replace("where (sum x in S: x.pips) == c.pips", f"where {where}"),
                         str(FISHING))


def test_a_count_bound_lets_a_full_table_offer_its_small_sets_on_both_engines():
    rs = _variant("count(S) <= 2 and (sum x in S: x.pips) < c.pips")
    table = [f"{r}-{s}" for s in ("Clubs", "Diamonds") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    s = table_of(table, {0: ["4-Spades"], 1: ["7-Hearts"]}, ruleset=rs)
    expected = (["capture 4-Spades A-Clubs", "capture 4-Spades 2-Clubs", "capture 4-Spades A-Clubs 2-Clubs",
                 "capture 4-Spades 3-Clubs"]
                + ["capture 4-Spades A-Diamonds", "capture 4-Spades A-Clubs A-Diamonds",
                   "capture 4-Spades 2-Clubs A-Diamonds", "capture 4-Spades 2-Diamonds",
                   "capture 4-Spades A-Clubs 2-Diamonds", "capture 4-Spades A-Diamonds 2-Diamonds",
                   "capture 4-Spades 3-Diamonds", "trail 4-Spades"])
    for t in both(s):
        assert moves(t) == expected


def test_a_set_with_nothing_to_cut_the_search_stops_past_the_sets_it_may_try():
    rs = _variant("count(S) + 0 <= 2")  # not read as a bound: every set of the table would be tried
    table = [f"{r}-Clubs" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")] + ["A-Hearts", "2-Hearts",
                                                                                         "3-Hearts", "4-Hearts"]
    fine = table_of(table, {0: ["10-Spades"], 1: ["5-Hearts"]}, ruleset=rs, turn="P2")
    for t in both(fine):
        with pytest.raises(GameRuntimeError, match=r"fishing.cards:33:\d+: .*action capture: S subset of table: more "
                                                   r"than 16384 sets of cards to try here: a condition .*count\(S\) <= N"):
            apply(t, "trail 5-Hearts")


def test_the_browser_table_offers_each_set_as_one_button():
    from interpreter.web.views import Faces, moves_view
    s = table_of(["6-Spades", "4-Hearts", "3-Clubs"], {0: ["10-Clubs", "7-Clubs"], 1: ["7-Hearts"]})
    by_card, groups = moves_view(s, 0, {"10-Clubs", "7-Clubs"}, Faces(s.program))
    [capture] = [grp for grp in groups if grp["action"] == "capture"]
    assert [b["move"] for b in capture["buttons"]] == ["capture 10-Clubs 4-Hearts 6-Spades", "capture 7-Clubs 3-Clubs 4-Hearts"]
    assert by_card == {"7-Clubs": ["trail 7-Clubs"], "10-Clubs": ["trail 10-Clubs"]}  # a card alone: clicked


SECRET = """game secret_sets "Discard in secret"
players 2..4
""" + TWELVE + """var total(p: player): int = 0
define score(p: player) = total(p)
winner most score
phase deal "Deal" then play:
    shuffle stock
    deal 3 from stock to each hand
phase play "Play":
    while all p in players: count(hand(p)) > 0:
        rule discard "Discard":
            choose secretly by each q in players:
                action discard S subset of hand(q) where count(S) <= 2 "Discard one or two cards.":
                    set total(q) = total(q) + (sum x in S: x.pips)
                    move S to pile
"""


def test_sets_chosen_in_secret_by_several_players_play_the_same_on_both_engines():
    rs = loads_ruleset(SECRET, "secret.cards")
    for players in (2, 3):
        for seed in range(6):
            py, c = new_game(rs, players, seed=seed), new_native_game(rs, players, seed=seed)
            rnd = random.Random(seed)
            while not py.finished:
                listed = [repr(m) for m in legal_moves(py)]
                assert [repr(m) for m in legal_moves(c)] == listed
                i = rnd.randrange(len(listed))
                apply(py, legal_moves(py)[i])
                apply(c, legal_moves(c)[i])
            assert str(outcome(c)) == str(outcome(py))


@pytest.mark.parametrize("which", ["fishing", "discards", "secret"])
def test_the_c_of_a_game_with_sets_compiles_without_a_warning(which):
    from interpreter.native.toolchain import build_library
    from interpreter.native.engine import c_source
    rs = {"fishing": rules, "discards": discards, "secret": lambda: loads_ruleset(SECRET, "secret.cards")}[which]()
    source, _ = c_source(compile_ruleset(rs))
    build_library(source, f"sets-{which}-werror", extra_flags=("-Werror",))
