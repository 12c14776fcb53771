"""A program's two C libraries (native/program.py): the engine alone, what whole games, the
adapters and batches load, built sooner; and the engine with the players' units, built when a
player first thinks in C, or at once for a command whose players do. A game made by the one is
played on by the other."""

from __future__ import annotations

import random

import pytest

from interpreter import apply, legal_moves, load_ruleset, new_game
from interpreter import engines
from interpreter.bundled import bundled
from interpreter.engine import program_of, state_digest
from interpreter.native import find_compiler
from interpreter.native import program as nprogram
from interpreter.native.engine import new_native_game
from interpreter.native.toolchain import library_suffix
from interpreter.players.bots import make_bot

needs_cc = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
PLAYER_FUNCTIONS = ("cr_greedy", "cr_plan", "cr_solve", "cr_search_new", "cr_try_moves", "cr_permuted_differs")


@pytest.fixture()
def hearts():
    return load_ruleset(bundled()["classic/hearts"])


@pytest.fixture()
def own_cache(tmp_path, monkeypatch):
    """A cache of this test's own, and no program remembered from another test."""
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(nprogram, "_PROGRAMS", {})
    return tmp_path


def _libraries(folder) -> int:
    return sum(1 for f in (folder / "native").iterdir() if f.name.endswith(library_suffix()))


@needs_cc
def test_the_engine_alone_has_no_players_and_the_players_library_plays_its_games(hearts, own_cache):
    program = program_of(hearts)
    np = nprogram.NativeProgram(program, quick=True)  # a quick build: the engine alone
    nprogram._PROGRAMS[id(program)] = (program, np)
    assert not any(hasattr(np.lib, f) for f in PLAYER_FUNCTIONS)
    assert np._players is None and _libraries(own_cache) == 1
    game, oracle = new_native_game(hearts, 4, seed=5), new_game(hearts, 4, seed=5)
    assert game.native.np is np
    # a game played and read whole (the view brought up to date: its zones, variables, the rules
    # fired) as the differential fuzz and the adapters read it, on the engine alone
    rng = random.Random(1)
    probe = new_native_game(hearts, 4, seed=6)
    while not probe.finished:
        apply(probe, rng.choice(legal_moves(probe)))
        state_digest(probe.native.view)
    assert np._players is None and _libraries(own_cache) == 1
    # greedy players on both engines: in C the look-ahead is the players' library's, on the
    # engine alone's game memory; the same moves as the Python engine's, to the end
    bots = [make_bot("greedy", seat) for seat in range(4)]
    oracle_bots = [make_bot("greedy", seat) for seat in range(4)]
    while not oracle.finished:
        seat = oracle.current_player
        m, n = bots[seat].choose(game), oracle_bots[seat].choose(oracle)
        assert str(m) == str(n)
        apply(game, m)
        apply(oracle, n)
    assert state_digest(game.native.view) == state_digest(oracle)
    assert np._players is not None and _libraries(own_cache) == 2  # the look-ahead's, built when first asked
    players = np.players()
    assert all(hasattr(players, f) for f in PLAYER_FUNCTIONS)
    assert np.players() is players and _libraries(own_cache) == 2  # built once


@needs_cc
def test_a_search_in_the_players_library_picks_what_python_picks(hearts, own_cache):
    program = program_of(hearts)
    np = nprogram._PROGRAMS[id(program)] = (program, nprogram.NativeProgram(program, quick=True))
    game, oracle = new_native_game(hearts, 4, seed=2), new_game(hearts, 4, seed=2)
    rng = random.Random(2)
    for _ in range(6):  # past the pass, into the tricks
        m = rng.choice(legal_moves(oracle))
        apply(oracle, m)
        apply(game, next(x for x in legal_moves(game) if str(x) == str(m)))
    assert str(make_bot("ismcts:40", 7).choose(game)) == str(make_bot("ismcts:40", 7).choose(oracle))
    assert np[1]._players is not None  # searched in C, not given back to Python


@needs_cc
def test_a_library_with_the_players_in_the_cache_serves_where_the_engine_alone_is_asked(hearts, own_cache):
    program = program_of(hearts)
    full = nprogram.NativeProgram(program, quick=True, players=True)
    assert full.players() is full.lib and _libraries(own_cache) == 1
    # a command's worker asks for the engine alone after its command built the players' library:
    # that library, from the cache, and nothing compiled
    again = nprogram.NativeProgram(program, quick=True)
    assert again.path == full.path and again.players() is again.lib and _libraries(own_cache) == 1


@needs_cc
@pytest.mark.parametrize("bots, players", [(["random"] * 4, False), (["random", "greedy", "random", "random"], True)])
def test_a_command_builds_the_players_library_at_once_when_its_players_think(hearts, monkeypatch, bots, players):
    asked = []
    real = nprogram.native_program

    def recorded(program, quick=False, players=False):
        asked.append(players)
        return real(program, quick, players)
    monkeypatch.setattr(nprogram, "native_program", recorded)
    monkeypatch.setattr("interpreter.native.engine.native_program", recorded)
    engines.choose(program_of(hearts), "native", bots=bots)
    assert asked == [players]


def test_only_a_long_loop_is_optimised_less():
    """Euro-Jongg's loop, of more instructions than any other bundled game's, is compiled at -O1
    (a shorter build, its games no slower); Goofspiel's short loop keeps -O2 (at -O1 its batches
    were slower)."""
    from interpreter.native.codegen.emit import BIG_LOOP
    from interpreter.native.program import c_source
    for name, big in (("euro-jongg/euro-jongg", 1), ("classic/goofspiel", 0)):
        program = program_of(load_ruleset(bundled()[name]))
        assert (len(program.plain_code) >= BIG_LOOP) == bool(big)
        source, _ = c_source(program, runtime=False, players=False)
        assert f"#define BIG_LOOP {big}\n" in source
        assert "#if BIG_LOOP && defined(__OPTIMIZE__)" in source and 'optimize("O1")' in source


@needs_cc
def test_without_the_players_library_the_players_think_in_python_and_say_so(hearts, own_cache, monkeypatch, capsys):
    from interpreter.native.toolchain import NativeUnavailable
    program = program_of(hearts)
    np = nprogram.NativeProgram(program, quick=True)
    nprogram._PROGRAMS[id(program)] = (program, np)
    real = nprogram.NativeProgram._build

    def no_players(self, players, cached=False):
        if players:
            raise NativeUnavailable("the C compiler failed: (this test's)")
        return real(self, players, cached)
    monkeypatch.setattr(nprogram.NativeProgram, "_build", no_players)
    game, oracle = new_native_game(hearts, 4, seed=8), new_game(hearts, 4, seed=8)
    bots, oracle_bots = [make_bot("greedy", s) for s in range(4)], [make_bot("greedy", s) for s in range(4)]
    for _ in range(12):
        seat = oracle.current_player
        m, n = bots[seat].choose(game), oracle_bots[seat].choose(oracle)
        assert str(m) == str(n)
        apply(game, m)
        apply(oracle, n)
    assert str(make_bot("ismcts:30", 3).choose(game)) == str(make_bot("ismcts:30", 3).choose(oracle))
    assert np.players() is None
    err = capsys.readouterr().err
    assert err.count("engine: the players think in Python (the C compiler failed: (this test's))") == 1
