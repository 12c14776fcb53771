"""The benchmarks' own games run: the floor game is a valid ruleset whose games, on the engine,
written by hand in Python and in C, take the same decisions, and the baselines written by hand in
C (benchmarks/handwritten.py) play the engine's games (the figures they print compare like with
like)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import floor  # noqa: E402
import handwritten  # noqa: E402

from interpreter.engine import apply, legal_moves, new_game  # noqa: E402
from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import program_of  # noqa: E402
from interpreter.native import find_compiler  # noqa: E402
from interpreter.native.engine import native_program  # noqa: E402


def test_the_floor_game_is_the_same_game_on_the_engine_and_by_hand(capsys):
    rs = load_ruleset(floor.FLOOR)
    made = floor._made()
    for seed in range(3):
        s, t = new_game(rs, floor.PLAYERS, None, seed), floor._new(seed, made)
        r1, r2 = random.Random(seed), random.Random(seed)
        n = 0
        while not s.finished:
            assert len(legal_moves(s)) == len(floor._legal_moves(t)) and s.actor == t.turn
            apply(s, r1.choice(legal_moves(s)))
            floor._apply(t, r2.choice(floor._legal_moves(t)))
            n += 1
        assert t.finished and n == floor.CARDS
    assert floor.main(["--games", "2", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "on the engine:" in out and "floor:" in out


def test_the_floor_game_in_c_deals_and_plays_the_same_piles_as_in_python(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(tmp_path))
    lib, why = floor.native_floor()
    if lib is None:
        pytest.skip(f"no native floor here: {why}")
    for seed in [0, 1, 2, 7, 99, 2 ** 32 + 5]:
        assert floor.native_pile(lib, seed) == floor.python_pile(seed), seed
    elapsed, decisions = floor.native_steps(lib)(3)  # one decision at a time through ctypes: whole games
    assert decisions == 3 * floor.CARDS
    elapsed, decisions = floor.native_whole(lib)(3)
    assert decisions == 3 * floor.CARDS
    by_cffi = floor.native_steps_cffi(lib.path)
    if by_cffi is not None:  # cffi is not a dependency: measured where it is installed
        assert by_cffi(2)[1] == 2 * floor.CARDS


@pytest.mark.parametrize("name", sorted(handwritten.BASELINES))
def test_the_games_written_by_hand_in_c_are_the_engines_games(name, capsys):
    """The baselines of benchmarks/handwritten.py play, seed for seed, the games `cardrules play`
    plays: the same scores as the native engine's whole games, the same moves as the Python engine."""
    b = handwritten.BASELINES[name]
    lib, why = handwritten.build(b)
    if lib is None:
        pytest.skip(f"no hand-written {name} here: {why}")
    rs = handwritten.ruleset(b)
    native_program(program_of(rs), quick=True)  # the engine's side built sooner: the same games
    handwritten.check(lib, b, rs, games=40, moves=3)
    assert handwritten.main(["--game", name, "--seconds", "0.05", "--rounds", "1", "--check", "4"]) == 0
    assert "games identical" in capsys.readouterr().out


def test_the_ganjifa_written_by_hand_in_python_plays_the_engines_games():
    """benchmarks/ganjifa_python.py, the hand-written Python the engine's whole games are measured
    against: the same scores as the native engine's games, the same moves as the Python engine's."""
    if find_compiler() is None:
        pytest.skip("no C compiler")
    b = handwritten.BASELINES["ganjifa"]
    handwritten.check_python(handwritten.PYTHON_BASELINES["ganjifa"](), b, handwritten.ruleset(b), games=30, moves=3)


def test_the_front_doors_benchmark_times_both_engines_on_the_same_games(capsys):
    import front_doors
    if find_compiler() is None:
        pytest.skip("no C compiler")
    assert front_doors.main(["--job", "balance", "--games", "2", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "balance ganjifa -n 3 -k 2 --strong greedy (its games): python " in out and "the same results" in out


def test_the_front_doors_adapter_jobs_step_the_same_games_on_both_engines(capsys):
    import front_doors
    if find_compiler() is None:
        pytest.skip("no C compiler")
    pytest.importorskip("pettingzoo")
    args = ["--ruleset", "classic/goofspiel", "--players", "2", "--games", "2", "--rounds", "1"]
    assert front_doors.main(["--job", "pettingzoo", *args]) == 0
    out = capsys.readouterr().out
    assert "pettingzoo classic/goofspiel 2p, 2 games" in out and "steps/s: native" in out and "the same games" in out
    pytest.importorskip("pyspiel")
    assert front_doors.main(["--job", "openspiel", *args]) == 0
    assert "openspiel classic/goofspiel 2p, 2 games" in capsys.readouterr().out


def test_the_equilibrium_benchmark_times_our_cfr(capsys):
    import equilibrium
    assert equilibrium.main(["--ruleset", "kuhn-poker", "--iterations", "30", "--no-count", "--openspiel", "none"]) == 0
    out = capsys.readouterr().out
    assert "cardrules solve --equilibrium kuhn-poker: the tree (58 positions, 12 information sets)" in out
    assert "CFR+ 30 iterations" in out


def test_the_pimc_benchmark_plays_each_player_on_the_same_games(capsys):
    import pimc
    if find_compiler() is None:
        pytest.skip("no C compiler")
    assert pimc.main(["--ruleset", str(ROOT / "rulesets" / "classic" / "spades.cards"), "--players", "4",
                      "--games", "1", "--bots", "ismcts:10,pimc:1:10,greedy", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "spades.cards, 4 players, against greedy on the native engine, 1 games" in out
    assert "par 50.0% (two sides)" in out and out.count("s/decision") == 3
