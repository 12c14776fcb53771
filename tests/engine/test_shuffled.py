"""`shuffled(PLAYERS)`: a collection of players (or numbers) in an order drawn by the game's
chance. Written for `choose by any`, which asks its players in the order of its collection, so
that in a race (a slap, a snap) the first seat who wants to move always moved first: a new user's
Egyptian Ratscrew gave seat 1 every slap. `choose by any q in shuffled(players)` draws the order
afresh each time the decision opens, the same on both engines."""

from __future__ import annotations

import pytest
from both_engines import in_step
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.errors import RulesetError
from interpreter.native.engine import new_native_game
from interpreter.render.book import render_markdown

# a card turned each turn; whoever snaps first takes the table
RACE = """game race "Snap race"
players 2..4

deck d:
    suits Red, Blue
    ranks 1..6

zone stock shared hidden "stock"
zone table shared public "table"
zone won per player owner "won"

var order: ints = []

define score(p: player) = count(won(p))
winner most score

phase play "Play":
    rule setup "Set up":
        shuffle stock
        set order = shuffled(1..4)
    rule turns "Turns":
        while count(stock) > 0:
            move top(stock) to table face up
            choose by any q in ASKED:
                action snap when count(table) > 0 "Snap the table.":
                    move table to won(q)
    rule over "Over":
        end game
"""


def race(tmp_path, asked: str):
    return written(tmp_path, "race.cards", RACE.replace("ASKED", asked))


def snappers(s) -> list[int]:
    """Each turn's winner when every player snaps as soon as asked (the player to act snaps)."""
    won = []
    while not s.finished:
        m = next(m for m in legal_moves(s) if m.player == s.actor and m.action == "snap")
        won.append(m.player)
        apply(s, m)
    return won


def test_in_the_order_of_the_collection_the_first_seat_wins_every_race(tmp_path):
    rs = race(tmp_path, "players")
    for seed in range(5):
        assert set(snappers(new_game(rs, 3, seed=seed))) == {0}


@pytest.mark.parametrize("make", [new_game, new_native_game])
def test_shuffled_draws_who_is_asked_first_afresh_each_time(tmp_path, make):
    rs = race(tmp_path, "shuffled(players)")
    won = [w for seed in range(10) for w in snappers(make(rs, 3, seed=seed))]
    assert len(won) == 120
    assert all(25 <= won.count(seat) <= 55 for seat in range(3)), [won.count(seat) for seat in range(3)]


def test_both_engines_draw_the_same_orders(tmp_path):
    rs = race(tmp_path, "shuffled(players)")
    for seed in range(6):
        py, c = new_game(rs, 4, seed=seed), new_native_game(rs, 4, seed=seed)
        assert observe(py, 0)["vars"]["order"] == observe(c, 0)["vars"]["order"]
        assert sorted(observe(py, 0)["vars"]["order"]) == [1, 2, 3, 4]
        for offers in in_step(seed, py, c):  # every move, pass or snap, and who is asked, alike
            assert offers == [(m.player, str(m)) for m in legal_moves(c)]
            assert py.actor == c.actor
        assert c.finished and observe(py, 0) == observe(c, 0)
    assert len({tuple(observe(new_game(rs, 3, seed=k), 0)["vars"]["order"]) for k in range(12)}) > 3


def test_the_rulebook_says_the_order_is_drawn(tmp_path):
    book = render_markdown(race(tmp_path, "shuffled(players)"))
    assert ("Any player *q* of all players may act, whoever is first (when several would, who goes first is "
            "drawn at random each time)") in book, book
    assert "Set the order to (the numbers from 1 to 4) in an order drawn at random." in book
    plain = render_markdown(race(tmp_path, "players"))
    assert "Any player *q* of all players may act, whoever is first;" in plain


@pytest.mark.parametrize("text, says", [
    ("define d(p: player) = first(shuffled(players)) == p\n",
     "shuffled(...) draws by chance, so it belongs in a statement or a decision"),
    ("define d(p: player) = count(shuffled(won(p))) > 0\n", "shuffled(...) draws by chance"),
])
def test_not_in_a_definition(tmp_path, text, says):
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "bad.cards", RACE.replace("ASKED", "players").replace("define score", text + "define score"))
    assert says in str(e.value)


def test_cards_are_shuffled_in_a_zone_not_by_shuffled(tmp_path):
    text = RACE.replace("ASKED", "players").replace("set order = shuffled(1..4)",
                                                    "set order = [count(shuffled(table))]")
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "bad.cards", text)
    assert "shuffled(...) puts players or numbers in an order drawn by chance" in str(e.value)
    assert "to put cards in a random order, `shuffle ZONE`" in str(e.value)


def test_the_c_of_shuffled_and_previous_where_runs_clean_under_the_sanitizers(tmp_path):
    """Whole random games of the race, asked in a shuffled order, each turn also finding the
    player before the snapper (`previous q before p where ...`), in C built under ASan and UBSan,
    giving the Python engine's decisions and scores."""
    import random

    import procs
    from native_support import build_sanitized, sanitizers_work

    from interpreter.engine import moves_for, outcome, play
    from interpreter.native import find_compiler
    from interpreter.native.engine import native_program
    from interpreter.players.bots import bot_seed
    compiler = find_compiler()
    if compiler is None or not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("no compiler that builds sanitized programs here")
    text = RACE.replace("ASKED", "shuffled(players)").replace(
        "                    move table to won(q)\n",
        "                    move table to won(q)\n"
        "                    set order = [(previous r before q where count(won(r)) >= 0).index]\n")
    rs = written(tmp_path, "race.cards", text)
    p = play.program_of(rs)
    opts = native_program(p).options_row(play.resolve_options(p, None))
    w = 8 + len(p.rule_names)
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts)) or '0'}}};\n"
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
        s = new_game(rs, 3, seed=g)
        rngs = [random.Random(bot_seed(g, k)) for k in range(3)]
        while not s.finished:
            apply(s, rngs[s.actor].choice(moves_for(s)))
        assert [int(v) for v in line.split()] == [s.decisions, *outcome(s).scores]
