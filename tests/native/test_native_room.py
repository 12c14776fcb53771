"""A decision with more moves than the native engine has room for (a new user's Set: three cards
of a layout, 20,825 moves from 51 cards, which now fit; 34,220 from 60 do not) stopped `play --engine native` with "failed in the
native engine but not in the Python engine (please report it)", and the move-by-move path with
"ran out of room for this game (failure 8)" placed in the set-up. It is said at the decision,
with what to do; whole games in C say what the usual cause is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.native.toolchain import find_compiler

ROOT = Path(__file__).resolve().parents[2]
MANY = Path(__file__).with_name("many-moves.cards")

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler: the native engine cannot be built")


def play(*args, n=60):
    return subprocess.run([sys.executable, "-m", "interpreter", "play", str(MANY), "-o", f"n={n}", "-k", "1",
                           "--workers", "1", "--engine", "native", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_a_decision_too_big_for_the_native_engine_is_said_where_it_is():
    r = play("--bot", "greedy")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "many-moves.cards:20:9: error: the native engine has no room here for so many values" in r.stderr, r.stderr
    assert "--engine python" in r.stderr
    r = play()
    assert r.returncode == 1 and "native engine has less room than the Python engine" in r.stderr, r.stderr


def test_the_python_engine_plays_it():
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(MANY), "-o", "n=51", "-k", "1",
                        "--workers", "1", "--engine", "python"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_twenty_thousand_moves_at_one_decision_fit_and_play_as_in_python():
    """The scratch room of a program whose decisions may offer many moves grows with them: 20,825
    moves of three values each (a new user's Set) no longer ran out of it."""
    native = play("--bot", "greedy", "--json", n=51)
    assert native.returncode == 0, native.stderr
    python = subprocess.run([sys.executable, "-m", "interpreter", "play", str(MANY), "-o", "n=51", "-k", "1",
                             "--workers", "1", "--engine", "python", "--bot", "greedy", "--json"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert python.returncode == 0 and python.stdout == native.stdout


RANGE = """game stake "Stake"
players 1
deck d:
    suits S
    ranks 1..2
zone stock shared hidden
var x(p: player): int = 0
var big: int = 65
var chips: int = 3000
winner most x
phase only "Only":
    rule r "R":
        choose by seat(1):
            action pick n in 1..big "Pick.":
                set x(seat(1)) = n
                set big = big + 7
        choose by seat(1):
            action stake n in 1..min(chips, big * 40) "Stake.":
                set chips = chips - n
"""


@pytest.mark.parametrize("hold", ["65", "3000"])
def test_a_choice_among_a_range_worked_out_in_play_has_room_in_c(tmp_path, hold):
    """A new user's Chemin de Fer staked n in 1..min(chips, bank - covered): past 64 values the
    native engine ran out of room where the Python engine played; a range's ends fixed by the
    ruleset (a variable only ever set to bounded values: 'big') are worked out before play."""
    path = tmp_path / "stake.cards"
    path.write_text(RANGE.replace("var big: int = 65", f"var big: int = {hold}"), encoding="utf-8")
    out = []
    for engine in ("python", "native"):
        r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(path), "-k", "3", "--workers", "1",
                            "--engine", engine, "--json", "--bot", "greedy"], capture_output=True, text=True,
                           timeout=300, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        out.append(r.stdout)
    assert out[0] == out[1]


@pytest.mark.parametrize("name", ["oh-hell", "tarok", "dou-dizhu", "hanabi"])
def test_ranges_whose_ends_the_ruleset_fixes_keep_the_room_small(name):
    """Their choices range over numbers a variable, a definition or a count bounds (bid n in
    0..num_tricks; 1..(6 / exchange); shortest..longest; 1..count(hand(turn))): their room for
    moves stays as small as before, not the language's 10,000 (every copy of a game in a search
    copies it)."""
    import re
    from interpreter import load_ruleset
    from interpreter.engine import program_of
    from interpreter.native.codegen.emit import emit_program
    src = emit_program(program_of(load_ruleset(ROOT / "rulesets" / "classic" / f"{name}.cards")))
    assert int(re.search(r"#define MAXM (\d+)", src).group(1)) <= 200
