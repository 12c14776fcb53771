"""`--engine auto|python|native` beyond `play`: balance, fuzz, diff --play, serve and the
OpenSpiel and PettingZoo adapters. Each says in one line which engine and why (not with --json;
serve at start-up; the adapters as an attribute), gives the same results on both engines for the
same seeds, and, asked for native that cannot be had, says so in one line and exits 2 (the
adapters: an OptionError); auto then falls back to Python."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpreter.bundled import bundled
from interpreter.commands.cli import app
from interpreter.errors import OptionError
from interpreter.native import find_compiler

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

GANJIFA = bundled()["ganjifa/ganjifa"]
KENDRA = bundled()["kendra-kari/kendra-kari"]


def run(*args, env=None):
    return CliRunner(env=env).invoke(app, [str(a) for a in args])


def engine_line(r) -> str:
    return next(line for line in r.stderr.splitlines() if line.startswith("engine: "))


def _no_native_copy(monkeypatch, tmp_path) -> Path:
    """A copy of Ganjifa the native backend cannot lower (a construct it would not know, from
    now on: rulesets built before in this process keep their engines)."""
    import interpreter.native.codegen.expr as expr
    f = tmp_path / "g.cards"
    f.write_text(GANJIFA.read_text())
    monkeypatch.delattr(expr.Expr, "x_AggLoop")
    return f


@pytest.fixture
def no_native_for_a_copy(monkeypatch, tmp_path):
    return _no_native_copy(monkeypatch, tmp_path)


# ------------------------------------------------------------------ balance

@pytest.mark.parametrize("game, players, strong", [(GANJIFA, 3, "greedy"),
                                                   pytest.param(bundled()["mughal/udvasa"], 1, "none", marks=pytest.mark.slow)])
def test_balance_writes_the_same_report_on_both_engines(tmp_path, game, players, strong):
    """Ganjifa keeps score (move by move in C, the lead read from C; greedy skill games on native
    states); Udvasa keeps none (its random games whole in C)."""
    out = {}
    for e in ("python", "native"):
        r = run("balance", game, "-n", players, "-k", 30, "--skill-games", 6, "--strong", strong, "--workers", 1,
                "--out", tmp_path / e, "--engine", e)
        assert r.exit_code == 0, r.output
        assert engine_line(r) == ("engine: python (as asked)" if e == "python" else engine_line(r))
        out[e] = (tmp_path / e / "report.json").read_text()
    assert engine_line(r).startswith("engine: native (C, built by ")
    assert out["python"] == out["native"]


def test_balance_under_auto_plays_in_c_all_but_the_players_that_decide_in_python(tmp_path, monkeypatch):
    """The greedy and planning skill games in C (a look-ahead or a search one call a decision:
    the same report as Python's, test_balance_writes_the_same_report_on_both_engines); a player
    that decides in Python alone has its games in Python, and the line says so (engines.per_run's
    other cases: test_engines_choice.py)."""
    from interpreter import engines
    for k, strong in enumerate(("greedy", "plan:2")):
        r = run("balance", GANJIFA, "-n", 3, "-k", 2, "--skill-games", 2, "--strong", strong, "--workers", 1,
                "--out", tmp_path / str(k))
        assert r.exit_code == 0, r.output
        line = engine_line(r)
        assert line.startswith("engine: native (C, built by ") and line.endswith("; kept in the cache)")
    monkeypatch.setattr(engines, "IN_C", ("random", "ismcts", "greedy"))
    r = run("balance", GANJIFA, "-n", 3, "-k", 1, "--skill-games", 1, "--strong", "plan:2", "--workers", 1,
            "--out", tmp_path / "c")
    assert engine_line(r).endswith("; the games with plan:2 play in Python (its bots (plan:2) decide in Python)")


def test_balance_with_search_players_is_the_same_report_on_both_engines_and_auto_plays_them_in_c(tmp_path):
    out = {}
    for e in ("python", "auto"):
        r = run("balance", KENDRA, "-n", 3, "-k", 3, "--bot", "ismcts:20", "--strong", "none", "--workers", 1,
                "--out", tmp_path / e, "--engine", e)
        assert r.exit_code == 0, r.output
        out[e] = (tmp_path / e / "report.json").read_text()
    assert engine_line(r).startswith("engine: native (C, built by ") and engine_line(r).endswith("cache)")
    assert out["python"] == out["auto"]


def test_balance_on_workers_is_the_same_report_on_the_native_engine(tmp_path):
    a = run("balance", GANJIFA, "-n", 3, "-k", 24, "--strong", "none", "--workers", 1, "--out", tmp_path / "a",
            "--engine", "python")
    b = run("balance", GANJIFA, "-n", 3, "-k", 24, "--strong", "none", "--workers", 2, "--out", tmp_path / "b",
            "--engine", "native")
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert (tmp_path / "a" / "report.json").read_text() == (tmp_path / "b" / "report.json").read_text()


def test_balance_native_not_to_be_had_is_one_line_and_exit_2_and_auto_falls_back(tmp_path, no_native_for_a_copy):
    f = no_native_for_a_copy
    r = run("balance", f, "-n", 3, "-k", 2, "--strong", "none", "--workers", 1, "--out", tmp_path / "x",
            "--engine", "native")
    assert r.exit_code == 2 and r.stderr == "error: the operation AggLoop\n"
    assert not (tmp_path / "x").exists()
    r = run("balance", f, "-n", 3, "-k", 2, "--strong", "none", "--workers", 1, "--out", tmp_path / "y")
    assert r.exit_code == 0, r.output
    assert engine_line(r) == "engine: python (no native engine: the operation AggLoop)"
    r = run("balance", GANJIFA, "--out", tmp_path / "z", "--engine", "warp")
    assert r.exit_code == 2 and "--engine is one of auto, python, native, not 'warp'" in r.stderr


# ------------------------------------------------------------------ diff --play

def test_diff_play_gives_the_same_table_on_both_engines():
    variant = bundled()["ganjifa/no-optional-low-leads"]
    a = run("diff", GANJIFA, variant, "--no-redline", "--play", 20, "--engine", "python")
    b = run("diff", GANJIFA, variant, "--no-redline", "--play", 20, "--engine", "native")
    assert a.exit_code == b.exit_code == 1, a.output + b.output
    assert a.stdout == b.stdout and "Played: 20 games each" in a.stdout
    assert engine_line(a) == "engine: python (as asked)"
    assert engine_line(b).startswith("engine: native (C, built by ")
    plain = run("diff", GANJIFA, variant, "--no-redline")
    assert "engine: " not in plain.stderr  # no games, no engine to name


def test_diff_play_native_not_to_be_had(no_native_for_a_copy):
    r = run("diff", no_native_for_a_copy, GANJIFA, "--no-redline", "--play", 2, "--engine", "native")
    assert r.exit_code == 2 and r.stderr == "error: the operation AggLoop\n"
    r = run("diff", no_native_for_a_copy, GANJIFA, "--no-redline", "--play", 2)
    assert r.exit_code == 0 and engine_line(r) == "engine: python (no native engine: the operation AggLoop)"


# ------------------------------------------------------------------ fuzz

def _findings(r) -> dict:
    data = json.loads(r.stdout)
    data.pop("seconds")
    for rep in data["rulesets"]:
        rep.pop("seconds")
    for f in data["findings"]:
        if f.get("reproduction"):
            f["reproduction"].pop("record", None)  # (where it was written)
    return data


def test_fuzz_finds_the_same_findings_on_both_engines(tmp_path):
    a = run("fuzz", KENDRA, "-k", 4, "--json", "--workers", 1, "--out", tmp_path / "a", "--engine", "python")
    b = run("fuzz", KENDRA, "-k", 4, "--json", "--workers", 1, "--out", tmp_path / "b", "--engine", "native")
    assert a.exit_code == b.exit_code == 1, a.output + b.output  # (in so few games a rule of Kendra Kari never fires)
    assert _findings(a) == _findings(b) and _findings(a)["findings"]
    assert "engine: " not in a.stderr + b.stderr  # --json: nothing but the JSON and progress
    ra, rb = (sorted((tmp_path / d).iterdir()) for d in ("a", "b"))
    assert [p.name for p in ra] == [p.name for p in rb] and [p.read_text() for p in ra] == [p.read_text() for p in rb]


def test_fuzz_says_which_engine_and_native_not_to_be_had_exits_2(monkeypatch, tmp_path):
    r = run("fuzz", KENDRA, "-k", 1, "--workers", 1, "--out", tmp_path / "a")  # auto: native, its checks in C
    assert engine_line(r).startswith("engine: native (C, built by ") and "each ruleset when it is fuzzed" in engine_line(r)
    r = run("fuzz", KENDRA, "-k", 1, "--workers", 1, "--out", tmp_path / "b", "--engine", "native")
    assert engine_line(r).startswith("engine: native (C, built by ")
    r = run("fuzz", _no_native_copy(monkeypatch, tmp_path), "-k", 1, "--workers", 1, "--out", tmp_path / "c", "--engine", "native")
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == "error: the operation AggLoop"


def test_native_without_a_compiler_exits_2_in_one_line_and_auto_uses_python(monkeypatch, tmp_path):
    import interpreter.native.program as nprogram
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setattr(nprogram, "_PROGRAMS", {})
    f = tmp_path / "g.cards"
    f.write_text(GANJIFA.read_text())  # a ruleset not built before in this process
    r = run("fuzz", f, "-k", 1, "--workers", 1, "--out", tmp_path / "a", "--engine", "native")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "no C compiler" in r.stderr
    r = run("balance", f, "-n", 3, "-k", 2, "--strong", "none", "--workers", 1, "--out", tmp_path / "b",
            "--engine", "native")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "no C compiler" in r.stderr
    r = run("balance", f, "-n", 3, "-k", 2, "--strong", "none", "--workers", 1, "--out", tmp_path / "c")
    assert r.exit_code == 0 and engine_line(r).startswith("engine: python (no native engine: no C compiler")
    from interpreter.commands.serve import serve_engine
    with pytest.raises(OptionError, match="no C compiler"):
        serve_engine("native")
    assert serve_engine("auto").startswith("engine: python (no native engine: no C compiler")


# ------------------------------------------------------------------ serve

def test_serve_says_its_engine_at_start_up():
    from interpreter.commands.serve import serve_engine
    assert serve_engine("python") == "engine: python (as asked)"
    assert serve_engine("auto").startswith("engine: native (C, built by ")
    with pytest.raises(OptionError, match="--engine is one of auto, python, native, not 'warp'"):
        serve_engine("warp")
    r = run("serve", "--engine", "warp")
    assert r.exit_code == 2 and r.stderr == "error: --engine is one of auto, python, native, not 'warp'\n"


def _table_game(tmp_path, engine: str) -> tuple[list, list, dict]:
    """A table of two people and a greedy bot, people moving at random (seeded): its moves, notes
    and P1's view at the end, and whether the game ran in C."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from interpreter.engine import observe
    from interpreter.web.app import create_app
    from table_client import api, next_person, open_table, post_move, table_of
    application = create_app(tmp_path / engine, given=[(GANJIFA, None)], bot_pause=0, events_lifetime=0,
                             engine=engine)
    with TestClient(application, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "greedy"], seed=5)
        table = table_of(application, tid)
        native = table.state.native is not None
        rng = random.Random(5)
        while len(table.state.history) < 40 and not table.state.finished:
            seat = next_person(table)
            if seat is None:
                break
            a = api(client, tid, seat, tokens[seat])
            assert post_move(client, tid, seat, tokens[seat], rng.choice(a["moves"]), a["version"]).status_code == 200
        next_person(table)
        return [str(m) for m in table.state.history], table.notes, observe(table.state, 0), native


def test_a_served_table_plays_the_same_game_on_both_engines(tmp_path):
    a = _table_game(tmp_path, "python")
    b = _table_game(tmp_path, "native")
    assert a[3] is False and b[3] is True
    assert a[:3] == b[:3] and len(a[0]) >= 40


# ------------------------------------------------------------------ the adapters

def test_pettingzoo_gives_the_same_observations_and_rewards_on_both_engines():
    np = pytest.importorskip("numpy")
    from interpreter.adapters.pettingzoo import env as make_env

    def games(engine: str) -> list:
        e = make_env("ganjifa", players=3, seed=3, engine=engine)
        assert e.unwrapped.engine == engine
        out, rng = [], random.Random(1)
        for _ in range(3):
            e.reset()
            for agent in e.agent_iter():
                obs, reward, term, trunc, _ = e.last()
                out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
                action = None if term or trunc else rng.choice(list(np.flatnonzero(obs["action_mask"])))
                e.step(action)
        return out
    assert games("python") == games("native")


def test_openspiel_gives_the_same_games_on_both_engines():
    pytest.importorskip("pyspiel")
    from interpreter.adapters.openspiel import load_game

    def games(engine: str) -> list:
        game = load_game("kendra-kari", players=3, seed=2, engine=engine)
        assert game.engine == engine
        out, rng = [], random.Random(7)
        for _ in range(3):
            s = game.new_initial_state()
            while not s.is_terminal():
                p = s.current_player()
                out.append((s.information_state_string(p), list(s.observation_tensor(p))))
                s.apply_action(rng.choice(s.legal_actions()))
            out.append(s.returns())
        return out
    assert games("python") == games("native")


def test_a_resampled_position_is_the_same_on_both_engines_and_plays_on_in_c():
    """OpenSpiel's resample_from_infostate (Core.resample): the sample drawn in Python is put
    back into C, so a search's playouts from it run in C, with the same games as on Python."""
    from interpreter.adapters.core import Core
    from interpreter.adapters.encoding import spec_for

    def samples(engine: str) -> list:
        spec = spec_for("kendra-kari", 3, engine=engine)
        core, rng = Core.start(spec, 4), random.Random(3)
        for _ in range(5):
            core.apply_id(rng.choice(sorted(core.legal())))
        out = []
        for k in range(3):
            t = core.resample(k, random.Random(k))
            assert (t.state.native is not None) == (engine == "native")
            trail, r = [], random.Random(k)
            while not t.terminal():
                trail.append(r.choice(sorted(t.legal())))
                t.apply_id(trail[-1])
            out.append((trail, t.returns(), spec.referee_text(t)))
        return out
    assert samples("python") == samples("native")


def test_the_adapters_auto_plays_native_and_native_they_cannot_have_is_refused(monkeypatch, tmp_path):
    pytest.importorskip("pyspiel")
    from interpreter.adapters.openspiel import load_game
    from interpreter.adapters.pettingzoo import raw_env
    assert load_game("kendra-kari", players=3).engine == "native"  # auto: native wherever a compiler builds it
    assert raw_env(GANJIFA, players=3).spec.engine.line.startswith("engine: native (C, built by ")
    assert load_game("kendra-kari", players=3, engine="python").engine == "python"
    f = _no_native_copy(monkeypatch, tmp_path)
    assert raw_env(f, players=3).engine == "python"  # (and the line says why)
    assert raw_env(f, players=3).spec.engine.line.startswith("engine: python (no native engine: ")
    with pytest.raises(OptionError, match="the operation AggLoop"):
        raw_env(f, players=3, engine="native")
    with pytest.raises(OptionError, match="the operation AggLoop"):
        load_game(f, players=3, engine="native")
    with pytest.raises(OptionError, match="--engine is one of"):
        load_game("kendra-kari", engine="warp")
