"""Files that once made the two engines disagree (found by users and by a differential fuzz of
mutated files): each now plays alike on both, or fails on both with the same located error, and
never with a traceback.

* `split ... of 0..40`: a group of size 0 (the Python engine stopped with `ValueError: r must be
  non-negative`, the native one played): a group holds at least one card on both.
* `var eligible: cards` with no starting value (the native engine refused it with an unlocated
  "one value where a collection was expected"): a collection starts empty on both.
* `var turn: player = seat(0)` with two players (a traceback on both): a located error at load, at
  the seat written; a seat worked out while playing (`seat(player_count + 1)`) is the located error
  at the variable's line, on both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from small_games import BASE

SPLIT = BASE.replace("VARS\n", "").replace("ACTIONS", """action keep c in hand(turn) where split hand(turn) into 1 hit and 1 rest of 0..40:
                    move c to pile
                action drop c in hand(turn) where not (split hand(turn) into 1 hit and 1 rest of 0..40):
                    move c to pile""")
EMPTY = BASE.replace("VARS", "var seen: cards").replace("ACTIONS", """action discard c in hand(turn) where count(seen) < 6:
                    move c to pile
                    set seen = seen + [c]""")
SEAT0 = EMPTY.replace("var turn: player = seat(1)", "var turn: player = seat(0)")
SEAT_PAST = EMPTY.replace("var turn: player = seat(1)", "var turn: player = seat(player_count + 1)")


def play(path: Path, engine: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "play", str(path), "--players", "2", "--games", "12",
                           "--seed", "5", "--engine", engine, "--json"], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name,text", [("split-of-0", SPLIT), ("collection-var", EMPTY)])
def test_both_engines_play_the_same_games(tmp_path, name, text):
    f = tmp_path / f"{name}.cards"
    f.write_text(text, encoding="utf-8")
    py, c = play(f, "python"), play(f, "native")
    assert py.returncode == 0, py.stderr
    assert c.returncode == 0, c.stderr
    assert py.stdout == c.stdout and '"games": 12' in py.stdout.replace(" ", " ")


def test_a_collection_variable_starts_empty(tmp_path):
    from interpreter import load_ruleset
    from interpreter.engine import new_game
    f = tmp_path / "empty.cards"
    f.write_text(EMPTY, encoding="utf-8")
    s = new_game(load_ruleset(f), 2, seed=1)
    assert "Traceback" not in str(s)
    slot = dict((n, sl) for n, sl, _ in s.program.vars)["seen"]
    assert list(s.slots[slot]) == []


def _same_error(tmp_path: Path, name: str, text: str) -> tuple[Path, str]:
    """The ruleset written as `name`, and the first error line `play` prints for it: it must fail
    on each engine, without a traceback, and with the same line on both."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    errs = []
    for engine in ("python", "native"):
        r = play(f, engine)
        assert r.returncode != 0 and "Traceback" not in r.stderr + r.stdout, r.stderr
        errs.append(next(x for x in r.stderr.splitlines() if ": error:" in x))
    assert errs[0] == errs[1]
    return f, errs[0]


def test_a_seat_that_no_game_has_is_a_located_error_at_load(tmp_path):
    f, err = _same_error(tmp_path, "seat0.cards", SEAT0)
    assert err.startswith(f"{f}:9:20: error: there is no seat 0: seats are numbered from 1"), err
    from interpreter import loads_ruleset
    from interpreter.errors import RulesetError
    with pytest.raises(RulesetError, match="no seat 3"):
        loads_ruleset(EMPTY.replace("var turn: player = seat(1)", "var turn: player = seat(3)"))


def test_a_starting_value_that_cannot_be_worked_out_is_a_located_error_on_both_engines(tmp_path):
    f, err = _same_error(tmp_path, "seat-past.cards", SEAT_PAST)
    assert err.startswith(f"{f}:9:1: error: the starting value of 'turn'") and "no seat 3 with 2 players" in err


GROW = BASE.replace("VARS", "var reach: int = 1").replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set reach = reach * 100
                    let n = count k in 1..reach where k mod 7 == 0""")


def test_a_range_grown_past_the_limit_while_playing_is_the_same_located_error_on_both_engines(tmp_path):
    """`1..reach` with reach a hundred times larger each turn: the Python engine made the whole
    list (a MemoryError at last) and the native one stopped with 'ran out of room'; both now stop
    at the statement, at the language's limit."""
    f, err = _same_error(tmp_path, "grow.cards", GROW)
    assert err.startswith(f"{f}:25:21: error: while playing, this statement met a range of more than 10,000"), err


def test_the_native_engine_words_a_range_past_the_limit_as_the_python_engine_does(tmp_path):
    """Without a Python replay to borrow its words from (a loaded position), C's own failure."""
    from interpreter import loads_ruleset
    from interpreter.native.engine import E_RANGE, NativeGame
    g = NativeGame(loads_ruleset(GROW, str(tmp_path / "grow.cards")), 2, seed=1)
    g._view.pc = 0
    err = g._failure(E_RANGE, g._view.pc)
    assert "a range of more than 10,000 numbers" in err.message


NOBODY = EMPTY.replace("var turn: player = seat(1)", "var turn: player").replace(
    "while count(hand(turn)) > 0:", "while count(pile) < 6:")


def test_a_choice_by_nobody_is_the_same_located_error_on_both_engines(tmp_path):
    """Found by the differential fuzz (nine-card-limit with a 9 made 0): `choose by X` with X none
    stopped both engines with an error that named the rule but no line."""
    f, err = _same_error(tmp_path, "nobody.cards", NOBODY)
    assert err.startswith(f"{f}:21:13: error: in rule 'discard', 'turn' names no player here"), err


OVERFLOW = BASE.replace("VARS", "var reach: int = 1").replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set reach = reach * 100
                    let n = reach * 1000000000 * 1000000000""")


def test_a_product_beyond_64_bits_is_the_same_located_error_on_both_engines(tmp_path):
    """The Python engine went on with its unbounded numbers where the native one stopped ('failed in
    the native engine but not in the Python engine'): both now stop at the statement."""
    f, err = _same_error(tmp_path, "overflow.cards", OVERFLOW)
    assert err.startswith(f"{f}:25:21: error: while playing, this statement met a number beyond 64 bits"), err


DOUBLING = BASE.replace("VARS", "var reach: int = 1\nvar k: int = 0\nvar total: int = 0").replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set reach = 1
                    set k = 0
                    while k < TIMES:
                        set reach = reach + reach
                        set k = k + 1
                    set total = (sum d in pile: reach) - 1""")


@pytest.mark.parametrize("times, line", [(63, 29), (62, 31)], ids=["a sum", "a sum aggregate"])
def test_a_sum_beyond_64_bits_is_the_same_located_error_on_both_engines(tmp_path, times, line):
    """Only a product was checked: a number doubled by `+` (2**63 after 63 doublings), or a `sum`
    over cards of 2**62 each, went on unbounded in Python where C stopped at its statement."""
    f, err = _same_error(tmp_path, "doubling.cards", DOUBLING.replace("TIMES", str(times)))
    assert err.startswith(f"{f}:{line}:"), err
    assert "this statement met a number beyond 64 bits" in err, err


@pytest.mark.parametrize("ruleset", ["rulesets/ganjifa/mughal-3p.cards", "rulesets/mughal/shakti.cards"])
def test_the_rule_being_played_is_named_alike_on_both_engines(ruleset):
    """`rule_at` read a native game's place before bringing its view up to date, so the rule a
    message names ("broke in rule ...") was an earlier one, or "(no rule)", on the native engine."""
    import random

    from interpreter import load_ruleset
    from interpreter.engine import apply, is_terminal, legal_moves, new_game, rule_at
    from interpreter.native.toolchain import find_compiler
    if find_compiler() is None:
        pytest.skip("no C compiler")
    from interpreter.native.engine import new_native_game
    rs = load_ruleset(Path(__file__).resolve().parents[2] / ruleset)
    n = rs.players_min
    py, c, rng = new_game(rs, n, seed=0), new_native_game(rs, n, seed=0), random.Random(1)
    named = []
    for _ in range(60):
        if is_terminal(py):
            break
        named.append((rule_at(py), rule_at(c)))
        move = rng.choice(legal_moves(py))
        py, c = apply(py, move), apply(c, str(move))
    assert named and all(a == b for a, b in named), [n for n in named if n[0] != n[1]][:3]
    assert all(a[0] != "(no rule)" for a, _ in named)
