"""`max x in Z [where W]: V` and `min ...`: the greatest (least) number V over the elements of Z
that pass W, where before a designer wrote `tricks(highest q in players by tricks(q))` (three of
three new users reached for it: Knockout Whist's most tricks, Scopa's primiera, Pitch). Over no
element it is an error at its statement, the same on both engines; `max(A, B)` still takes two
numbers; the rulebook, the unparser and the hints read it."""

from __future__ import annotations

import random

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, moves_for, new_game, observe
from interpreter.errors import GameRuntimeError
from interpreter.language.unparse import unparse
from interpreter.native.engine import new_native_game
from interpreter.players.bots import bot_seed
from interpreter.render.book import render_markdown

# the four cards of the pack laid in order 3-Red, 1-Blue, 2-Red, 2-Blue (bottom first), no shuffle
TABLE = """game table "Table"
players 3

deck d:
    suits Red, Blue
    ranks 1..3
    value pts: 1 = 7, 2 = 1, 3 = 4

zone stock shared hidden "stock"
zone table shared public "table"
zone won per player public "won"

var most: int = 0
var least: int = 0
var reds: int = 0
var larger: int = 0
var max_cards: int = 0

phase play "Play":
    rule lay "Lay":
        move card(3, Red) to table face up
        move card(1, Blue) to table face up
        move card(2, Red) to table face up
        move card(2, Blue) to won(seat(2)) face up
    rule pick "Pick":
        choose by seat(1):
            action go "Go.":
                set most = max c in table: c.pts
                set least = min c in table where c.suit == Red: c.pts * 10 + c.order
                set reds = max q in players: count(those c in won(q) where c.suit == Blue)
                set max_cards = 5
                set larger = max(max_cards, most) + min(1, 2)
                set most = most + 0 * (max c in won(seat(3)): c.pts)
                end game
"""

ENGINES = [new_game, new_native_game]


def played(tmp_path, make, text=TABLE):
    s = make(written(tmp_path, "table.cards", text), 3)
    apply(s, legal_moves(s)[0])
    return s


@pytest.mark.parametrize("make", ENGINES)
def test_the_greatest_and_the_least_value_over_a_collection(tmp_path, make):
    text = TABLE.replace("                set most = most + 0 * (max c in won(seat(3)): c.pts)\n", "")
    v = observe(played(tmp_path, make, text), 0)["vars"]
    assert v["most"] == 7               # 1-Blue's 7 points, the most on the table
    assert v["least"] == 1 * 10 + 1     # of the Reds, 2-Red (1 point, order 1) against 3-Red's 4 * 10 + 2
    assert v["reds"] == 1               # only seat 2 has won a Blue card
    assert v["larger"] == 7 + 1         # max(A, B) and min(A, B) still take two numbers; a name may start with max


@pytest.mark.parametrize("make", ENGINES)
def test_over_no_element_it_stops_the_game_at_its_statement(tmp_path, make):
    with pytest.raises(GameRuntimeError) as e:
        played(tmp_path, make)
    assert e.value.line == TABLE.splitlines().index("                set most = most + 0 * (max c in won(seat(3)): c.pts)") + 1
    assert "met a max or min over nothing (no element passed: say what it is then, with if any ... then ... else)" \
        in e.value.message


def test_the_rulebook_and_the_unparser_read_it_back(tmp_path):
    rs = written(tmp_path, "table.cards", TABLE)
    book = render_markdown(rs)
    assert "Set the most to the greatest of *c*'s pts over every card *c* in the table." in book, book
    assert ("Set the least to the least of *c*'s pts times 10 plus *c*'s rank position over every card *c* in the "
            "table such that *c*'s suit is Red.") in book
    go = rs.phases[0].body[1].body[0].actions[0].body
    assert [unparse(s.value) for s in go[:3]] == [
        "max c in table: c.pts", "min c in table where c.suit == Red: c.pts * 10 + c.order",
        "max q in players: count(those c in won(q) where c.suit == Blue)"]
    assert unparse(go[4].value) == "max(max_cards, most) + min(1, 2)"



def test_the_c_of_max_and_min_runs_clean_under_the_sanitizers(tmp_path):
    """Whole random games of a game whose every turn works out a max and a min, in C built under
    ASan and UBSan, giving the Python engine's scores."""
    import procs
    from native_support import build_sanitized, sanitizers_work

    from interpreter.engine import outcome, play
    from interpreter.native import find_compiler
    from interpreter.native.engine import native_program
    compiler = find_compiler()
    if compiler is None or not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("no compiler that builds sanitized programs here")
    rs = written(tmp_path, "turns.cards", TURNS)
    p = play.program_of(rs)
    opts = native_program(p).options_row(play.resolve_options(p, None))
    w = 8 + len(p.rule_names)
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts))}}};\n"
            f"    static int64_t out[20 * {w}];\n"
            "    if (cr_play_many(3, opts, 0, 20, INT64_MAX, out)) return 1;\n"
            f"    for (int g = 0; g < 20; g++) printf(\"%lld %lld %lld %lld\\n\", (long long)out[g * {w} + 2],"
            f" (long long)out[g * {w} + 5], (long long)out[g * {w} + 6], (long long)out[g * {w} + 7]);\n"
            "    return 0;\n}\n")
    built = build_sanitized(compiler, p, main, tmp_path / "driver")
    assert built.returncode == 0, built.stderr[-2000:]
    ran = procs.run([str(tmp_path / "driver")], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    for g, line in enumerate(ran.stdout.splitlines()):
        s = new_game(rs, 3, seed=g)  # random bots, as `play` plays them
        rngs = [random.Random(bot_seed(g, k)) for k in range(3)]
        while not s.finished:
            apply(s, rngs[s.actor].choice(moves_for(s)))
        assert [int(v) for v in line.split()] == [s.decisions, *outcome(s).scores]


# turns of taking a card, each keeping a max and a min, the score a max over the cards won
TURNS = """game turns "Turns"
players 3
deck d:
    suits Red, Blue
    ranks 1..6
    value pts: 1 = 5, 2 = 6, 3 = 7, 4 = 1, 5 = 2, 6 = 3
zone stock shared hidden
zone hand per player owner
zone won per player public
var turn: player = seat(1)
var best: int = 0
var fewest: int = 0
define most_won = max q in players: count(won(q))
define top_red(p: player) = if any c in won(p) where c.suit == Red then (max c in won(p) where c.suit == Red: c.pts) else 0
define score(p: player) = top_red(p) + (if count(won(p)) == most_won then 10 else 0)
winner most score
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 4 from stock to each hand
    while count(hand(turn)) > 0:
        rule take "Take":
            choose by turn:
                action keep c in hand(turn) where c.pts >= (min d in hand(turn): d.pts):
                    move c to won(turn)
            set best = max(best, most_won)
            set fewest = min q in players where q != turn: count(hand(q))
            set turn = next(turn)
"""
