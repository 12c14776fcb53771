"""No game hangs, on either engine (issue 38, item 6).

A game that is not over after its own `at most N decisions`, or after DEFAULT_MAX_DECISIONS when
it declares none, stops with a located error (`file:line:col: error: ...` at the rule asking for
one decision more) naming that rule and the bound, the same words and the same decision count on
the Python and the native engine, in `play` (one process and workers), `balance`, `diff --play`,
the browser table, the studio's Play it now and the adapters. A loop that asks nobody to decide
is stopped too (tests/fuzz/targets/endless-loop.cards; the nine-card-limit Kendra Kari without
its draw, which went round through several traces uncounted and hung the Python engine). And
the native engine answers Ctrl-C and SIGTERM at once inside a long call into C, as the Python
engine does: the same exit code and message.

Every command that could hang runs in a child process with a timeout (tests/procs.py)."""

from __future__ import annotations

import os
import random
import re
import select
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import procs
import pytest

from interpreter import load_ruleset
from interpreter.players.bots import bot_seed
from interpreter.engine import DEFAULT_MAX_DECISIONS, apply, moves_for, new_game
from interpreter.errors import GameRuntimeError, GameTooLong
from interpreter.native.toolchain import find_compiler
from interpreter.playing import GameBroke, play_one

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ROOT / "tests" / "fuzz" / "targets"
ENDLESS = TARGETS / "endless.cards"            # round and round, though it declares at most 30 decisions
LOOP = TARGETS / "endless-loop.cards"          # a `while` whose body asks nobody anything
NINE = ROOT / "rulesets" / "kendra-kari" / "nine-card-limit.cards"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
TIMEOUT = 240          # seconds for a command that must end by itself (a hang fails the test, not the suite)
SIGNAL_MARGIN = 1.0    # seconds allowed beyond the 0.5 s the brief asks for, for a slow or busy machine

needs_cc = pytest.mark.skipif(find_compiler() is None, reason="no C compiler: the native engine cannot be built")
ENGINES = ["python", pytest.param("native", marks=needs_cc)]


def cardrules(*args, cwd=None) -> subprocess.CompletedProcess:
    return procs.run([sys.executable, "-m", "interpreter", *map(str, args)], timeout=TIMEOUT, capture_output=True,
                     text=True, env=ENV, cwd=cwd)


def without_engine_line(err: str) -> str:
    return "\n".join(line for line in err.splitlines() if not line.startswith("engine: "))


def endless_without_bound(tmp_path: Path) -> Path:
    text = ENDLESS.read_text(encoding="utf-8")
    assert "at most 30 decisions\n" in text
    p = tmp_path / "no-bound.cards"
    p.write_text(text.replace("at most 30 decisions\n", ""), encoding="utf-8")
    return p


def nine_card_limit_without_its_draw(tmp_path: Path) -> Path:
    """The bundled nine-card-limit Kendra Kari with the line that draws from the stock deleted (its
    base named as a bundled game, since the file is not beside it): a player below nine cards who
    cannot play now draws nothing, so once nobody can play the rules go round without a decision."""
    text = NINE.read_text(encoding="utf-8")
    draw = "        move top(stock) to hand(player_to_move)\n"
    assert text.count(draw) == 1 and 'of "kendra-kari.cards"' in text
    p = tmp_path / "nine-card-limit-no-draw.cards"
    p.write_text(text.replace(draw, "").replace('of "kendra-kari.cards"', 'of "bundled:kendra-kari"'), encoding="utf-8")
    return p


# ------------------------------------------------------------------ play: past the declared bound

BOUND_ERROR = (f"{ENDLESS}:25:13: error: the game is not over after 30 decisions, the most its ruleset allows "
               "('at most 30 decisions'), and rule 'turn' (A turn) asks for another: the rules may go round for ever")


def test_play_stops_a_game_past_its_declared_bound_the_same_on_both_engines():
    """It ran for ever on both engines, printing nothing."""
    said = {}
    for engine in ["python"] + (["native"] if find_compiler() else []):
        r = cardrules("play", ENDLESS, "--players", 2, "--games", 1, "--engine", engine)
        assert r.returncode == 1, r.stderr
        assert r.stderr.startswith(f"engine: {engine}"), r.stderr
        said[engine] = without_engine_line(r.stderr)
        assert said[engine].splitlines()[:2] == [
            "error: the game with seed 0 broke after move 30 (P2: play 2-Blue) in rule 'turn' (A turn)", BOUND_ERROR]
        assert said[engine].splitlines()[2:] == ['                rule turn "A turn":', "                ^"]
    assert len(set(said.values())) == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_play_on_workers_stops_there_too(engine, tmp_path):
    r = cardrules("play", ENDLESS, "-n", 2, "--games", 40, "--workers", 2, "--engine", engine, "--log", tmp_path / "log.json")
    assert r.returncode == 1, r.stderr
    assert BOUND_ERROR in r.stderr and "the game with seed 0 broke after move 30" in r.stderr
    assert f"up to the failure, is in {tmp_path / 'log.json'}" in r.stderr


# ------------------------------------------------------------------ the default cap

CAP_ERROR = ("error: the game is not over after 100,000 decisions, the most a game that declares no bound may "
             "take (write 'at most N decisions' if it is meant to be longer), and rule 'turn' (A turn) asks for "
             "another: the rules may go round for ever")


def played_out_natively(rs, **playout) -> tuple:
    """The native engine's game of seed 3 played out in C by the random bots' draws until it stops
    (both tests of the cap stop it there): the game and the GameTooLong it raised."""
    from interpreter.native.engine import NativeGame
    g = NativeGame(rs, 2, {}, seed=3)
    with pytest.raises(GameTooLong) as native:
        g.playout([random.Random(bot_seed(3, k)) for k in range(2)], **playout)
    return g, native.value


def test_the_default_cap_stops_a_game_that_declares_no_bound(tmp_path):
    """The cap without its 100,000 decisions of play (the slow test below plays them all): a
    Python game set 20 decisions short of it, and the native engine's playout in C, stop at the
    cap with the same located error."""
    path = endless_without_bound(tmp_path)
    rs = load_ruleset(path)
    assert rs.max_decisions is None and DEFAULT_MAX_DECISIONS == 100_000
    from interpreter.engine import program_of
    s = new_game(program_of(rs), 2, {}, 3)
    s.decisions = DEFAULT_MAX_DECISIONS - 20
    r = random.Random(3)
    with pytest.raises(GameTooLong) as python:
        while not s.finished:
            ms = moves_for(s)
            apply(s, ms[r.randrange(len(ms))])
    e = python.value
    assert e.decisions == DEFAULT_MAX_DECISIONS and not e.declared
    assert s.decisions == DEFAULT_MAX_DECISIONS and not s.finished
    assert e.render().splitlines()[0] == f"{path}:24:13: {CAP_ERROR}"
    if find_compiler() is None:
        return
    g, native = played_out_natively(rs, record=False)
    assert native.render() == e.render()
    assert g.view.decisions == DEFAULT_MAX_DECISIONS


@pytest.mark.slow
def test_the_default_cap_stops_a_game_that_declares_no_bound_the_same_on_both_engines(tmp_path):
    """100,000 decisions: fifty times the longest game of any bundled ruleset (Shakti's 2,000;
    every bundled game declares its own bound), and what the fuzzer, balance and the adapters
    gave up at before. The same random players on both engines, the same error and count."""
    path = endless_without_bound(tmp_path)
    rs = load_ruleset(path)
    assert rs.max_decisions is None and DEFAULT_MAX_DECISIONS == 100_000
    with pytest.raises(GameBroke) as python:
        play_one(rs, 2, {}, 3, {0: "random", 1: "random"}, None)
    e = python.value.cause
    assert isinstance(e, GameTooLong) and e.decisions == DEFAULT_MAX_DECISIONS and not e.declared
    assert python.value.state.decisions == DEFAULT_MAX_DECISIONS and not python.value.state.finished
    assert e.render().splitlines()[0] == f"{path}:24:13: {CAP_ERROR}"
    if find_compiler() is None:
        return
    g, native = played_out_natively(rs)
    assert native.render() == e.render()
    assert g.view.decisions == DEFAULT_MAX_DECISIONS
    assert [str(m) for m in g.view.history] == [str(m) for m in python.value.state.history]


def test_the_rulebook_and_the_reference_say_the_default_cap(tmp_path):
    from interpreter.language.reference import CONSTRUCTS
    from interpreter.render import BookBuilder
    book = BookBuilder(load_ruleset(endless_without_bound(tmp_path)))
    assert book.direction().endswith("No bound on a game's length is declared: a game not over after "
                                     f"{DEFAULT_MAX_DECISIONS:,} decisions stops with an error")
    assert BookBuilder(load_ruleset(ENDLESS)).direction().endswith("A game takes at most 30 decisions")
    (entry,) = [e for section in CONSTRUCTS for e in section.entries if e.name == "at most"]
    assert f"{DEFAULT_MAX_DECISIONS:,} decisions" in entry.words and "stops with an error" in entry.words


# ------------------------------------------------------------------ loops that ask nobody

def test_a_loop_that_asks_nobody_stops_located_the_same_on_both_engines():
    said = {}
    for engine in ["python"] + (["native"] if find_compiler() else []):
        r = cardrules("play", LOOP, "-n", 2, "--games", 5, "--engine", engine)
        assert r.returncode == 1, r.stderr
        said[engine] = without_engine_line(r.stderr)
        assert f"{LOOP}:29:9: error: the rules loop for ever without asking anyone to decide (stuck in rule " \
               "'settle', Settling the pile)" in said[engine]
    assert len(set(said.values())) == 1


@pytest.mark.slow  # the Python engine's traced and plain evaluators stop it in the next test, in this process
def test_the_nine_card_limit_without_its_draw_stops_on_both_engines(tmp_path):
    """Its loop went round through three traces, each handing the next a place forward of it, so
    the Python engine never counted a turn and hung; the native engine caught it, then hung playing
    the game again in Python for the error's words."""
    path = nine_card_limit_without_its_draw(tmp_path)
    said = {}
    for engine in ["python"] + (["native"] if find_compiler() else []):
        r = cardrules("play", path, "-n", 3, "--games", 3, "--engine", engine)
        assert r.returncode == 1, r.stderr
        said[engine] = without_engine_line(r.stderr)
        assert f"{path}:11:1: error: the rules loop for ever without asking anyone to decide (stuck in rule 'draw', " \
               "Drawing, up to nine cards)" in said[engine]
    assert len(set(said.values())) == 1


def test_the_plain_evaluator_stops_that_loop_too(tmp_path, monkeypatch):
    """CARDRULES_PLAIN=1 (no traces): every jump back is counted there."""
    rs = load_ruleset(nine_card_limit_without_its_draw(tmp_path))
    from interpreter.compiler import compile_ruleset
    from interpreter.engine import program_of
    for program in (program_of(rs), compile_ruleset(rs, fast=False)):
        s = new_game(program, 3, {}, 0)
        r = random.Random(0)
        with pytest.raises(GameRuntimeError, match="loop for ever"):
            while not s.finished:
                ms = moves_for(s)
                apply(s, ms[r.randrange(len(ms))])


# ------------------------------------------------------------------ the other front doors

@pytest.mark.parametrize("engine", ENGINES)
def test_balance_and_diff_stop_there_located(engine, tmp_path):
    r = cardrules("balance", ENDLESS, "-n", 2, "-k", 5, "--strong", "none", "--workers", 1, "--engine", engine,
                  "--out", tmp_path / "report")
    assert r.returncode == 1, r.stderr
    lines = without_engine_line(r.stderr).splitlines()
    assert lines[0] == BOUND_ERROR.replace("error: ", "error: game 1 (seed 0) broke after 29 decisions: ", 1)
    assert lines[-1] == "nothing was written" and not (tmp_path / "report").exists()
    other = tmp_path / "endless-again.cards"
    other.write_text(ENDLESS.read_text().replace('"Round and round"', '"Round and round again"'))
    r = cardrules("diff", ENDLESS, other, "--no-redline", "--play", 20, "--engine", engine)
    assert r.returncode == 2, r.stderr
    assert without_engine_line(r.stderr).splitlines()[0] == lines[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_adapters_raise_rather_than_play_on(engine):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    import numpy as np
    from interpreter.adapters.openspiel import load_game
    from interpreter.adapters.pettingzoo import env
    game = load_game(str(ENDLESS), players=2, engine=engine)
    assert game.max_game_length() == 30
    with pytest.raises(GameTooLong, match="not over after 30 decisions"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    e = env(str(ENDLESS), players=2, engine=engine)
    e.reset(seed=0)
    steps = 0
    with pytest.raises(GameTooLong) as err:
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
    assert steps == 29 and str(err.value).startswith(f"{ENDLESS}:25:13: error: the game is not over after 30")
    cut = env(str(ENDLESS), players=2, engine=engine, max_decisions=10)  # a shorter length cuts short, as before
    cut.reset(seed=0)
    for agent in cut.agent_iter():
        obs, _, terminated, truncated, _ = cut.last()
        if terminated or truncated:
            assert truncated and not terminated
        cut.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))


def _wait(predicate, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "nothing happened in time"
        time.sleep(0.01)


def _play_person_until_stopped(client, table, seat_url: str) -> dict:
    """P1 is a person (a table needs one), P2 a random bot: P1 plays its first move each turn,
    through the seat's JSON, until the table stops; the seat's last answer."""
    tid, seat, token = re.search(r"/t/(\w+)/seat/(\d+)\?token=([\w-]+)", seat_url).groups()
    end = time.monotonic() + 60
    while True:
        assert time.monotonic() < end, "the game did not stop"
        a = client.get(f"/api/t/{tid}/seat/{seat}?token={token}").json()
        if a["error"] or a["outcome"]:
            return a
        if a["moves"]:
            client.post(f"/api/t/{tid}/seat/{seat}/move?token={token}", json={"move": a["moves"][0],
                                                                              "version": a["version"]})
        else:
            time.sleep(0.005)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_browser_table_stops_the_game_and_says_why(engine, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from interpreter.web.app import create_app
    from interpreter.web.limits import Limits
    app = create_app(tmp_path / "data", given=[(ENDLESS, None)], bot_pause=0, events_lifetime=0, engine=engine,
                     limits=Limits(bot_workers=0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        r = client.post("/new", data={"ruleset": "file/endless", "players": "2", "seed": "0", "seat1": "person",
                                      "seat2": "random"}, follow_redirects=False)
        assert r.status_code == 303, r.text
        tid = re.search(r"/t/(\w+)/links", r.headers["location"]).group(1)
        links = client.get(r.headers["location"]).text
        seat_url = re.search(rf'/t/{tid}/seat/1\?token=[\w-]+', links).group(0)
        table = app.state.web.tables.get(tid)
        assert (table.state.native is not None) == (engine == "native")
        a = _play_person_until_stopped(client, table, seat_url)
        assert "the game is not over after 30 decisions" in a["error"] and "rule 'turn'" in a["error"]
        assert len(table.state.history) == 29 and not table.state.finished


@pytest.mark.parametrize("engine", ENGINES)
def test_the_studios_play_it_now_stops_there_too(engine, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from interpreter.studio.app import make_app
    from interpreter.web.limits import Limits
    work = tmp_path / "work"
    work.mkdir()
    path = work / "endless.cards"
    path.write_text(ENDLESS.read_text(encoding="utf-8"), encoding="utf-8")
    app = make_app([], work, data=tmp_path / "data", bot_pause=0.0, limits=Limits(bot_workers=0), engine=engine)
    with TestClient(app, base_url="http://127.0.0.1", headers={"X-Studio-Token": app.state.token}) as client:
        assert client.post("/studio/api/analyse", json={"path": str(path), "text": path.read_text()}).json()["ok"]
        r = client.post("/studio/api/play", json={"path": str(path), "players": 2, "seats": ["person", "random"],
                                                   "seed": 0})
        assert r.status_code == 200, r.text
        table = app.state.web.tables.get(r.json()["table"])
        assert (table.state.native is not None) == (engine == "native")
        a = _play_person_until_stopped(client, table, r.json()["url"])
        assert "the game is not over after 30 decisions" in a["error"]
        looping = path.read_text().replace("deal 2 from stock to each hand\n    while",
                                           "deal 2 from stock to each hand\n        while true:\n            pass\n"
                                           "    while", 1)
        assert client.post("/studio/api/analyse", json={"path": str(path), "text": looping}).json()["ok"]
        r = client.post("/studio/api/play", json={"path": str(path), "players": 2, "seats": ["person", "random"]})
        assert r.status_code == 422
        assert r.json()["located"].startswith(f"{path}:20:5: error: the rules loop for ever")


# ------------------------------------------------------------------ Ctrl-C and SIGTERM

HUGE = """game huge "Round and round, for a very long time"
players 2
at most 100000000 decisions
deck small:
    suits Red, Blue
    ranks 1..2
zone stock shared hidden
zone hand per player owner
zone pile shared public
phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 2 from stock to each hand
    while count(stock) == 0:
        for each player p:
            rule turn "A turn":
                choose by p:
                    action play c in hand(p):
                        move c to pile
        rule recycle "Recycling" when count(pile) == 4:
            move pile to stock
            shuffle stock
            deal 2 from stock to each hand
"""


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupted(args, sig, *, busy: float = 0.4) -> tuple[int, str, float]:
    """Start the command, wait for its engine line and then for it to have worked `busy` seconds
    of CPU since (inside its long call: the events, not a fixed sleep), send `sig`: (exit code,
    standard error, seconds from the signal to the exit)."""
    proc = procs.start([sys.executable, "-m", "interpreter", *map(str, args)], ctrl_c=True, env=ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + TIMEOUT
        line = ""
        while not line.startswith("engine: "):  # the command's first line on standard error
            left = end - time.monotonic()
            assert left > 0, "no engine line in time"
            if select.select([proc.stderr], [], [], min(left, 1.0))[0]:
                line = proc.stderr.readline()
                assert line, "the command ended before it played"
        start = _cpu_seconds(proc.pid)
        _wait(lambda: _cpu_seconds(proc.pid) - start >= busy, TIMEOUT)
        t0 = time.monotonic()
        proc.send_signal(sig)
        try:
            proc.wait(timeout=30)
        finally:
            took = time.monotonic() - t0
        _, err = procs.finish(proc, 30)
        return proc.returncode, err, took
    finally:
        procs.kill(proc)


needs_proc = pytest.mark.skipif(not procs.has_proc() or not hasattr(signal, "SIGKILL"),
                                reason="the test reads a process's CPU time from /proc")


# One Ctrl-C probe in the default run: the native engine's whole game in C, what no Python
# code could interrupt. The other engine, the search, SIGTERM on Python, the kept games and a
# handler that returns: `pytest -m slow`.
SLOW = pytest.mark.slow


@needs_proc
@pytest.mark.parametrize("what, engine", [
    pytest.param("a whole game", "native", marks=needs_cc, id="a whole game-native"),
    pytest.param("a whole game", "python", marks=SLOW, id="a whole game-python"),
    pytest.param("a search", "native", marks=[needs_cc, SLOW], id="a search-native"),
    pytest.param("a search", "python", marks=SLOW, id="a search-python"),
    pytest.param("a plan", "native", marks=[needs_cc, SLOW], id="a plan-native")])
def test_ctrl_c_stops_a_long_call_at_once(engine, what, tmp_path):
    """On main the native engine played on for as long as its call into C lasted (a game of a
    hundred million decisions; a search of a million iterations; a plan of a hundred million
    positions): 30 s later it was killed."""
    if what == "a whole game":
        (tmp_path / "huge.cards").write_text(HUGE)
        args = ["play", tmp_path / "huge.cards", "--games", 1, "--workers", 1]
    elif what == "a search":
        args = ["play", "ganjifa", "-n", 3, "--bot", "ismcts:1000000", "--games", 1]
    else:  # a plan depth first, every card known, in a deal it finds no win in for a million positions (seed 18:
        # since plans search in rounds of departures, seed 0 is won at once)
        args = ["play", "klondike", "--option", "visible=true", "--bot", "plan:100000000", "--games", 1, "--seed", 18]
    code, err, took = _interrupted([*args, "--engine", engine], signal.SIGINT)
    assert code == 130, err
    assert err.splitlines()[-1] == "interrupted before the first game finished: nothing to summarise", err
    assert took < 0.5 + SIGNAL_MARGIN, f"{engine}: {took:.2f} s from Ctrl-C to the exit"


@needs_proc
def test_ctrl_c_while_the_command_loads_is_no_traceback():
    """Ctrl-C in the first moments, while the modules load and before `play` puts up its own
    handler, ended in a KeyboardInterrupt traceback through the imports."""
    proc = procs.start([sys.executable, "-m", "interpreter", "play", "ganjifa", "--games", "1"], ctrl_c=True,
                       env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # inside the command's imports: pydantic's compiled core is mapped (the rule graph's
        # models), long before the engine runs and `play` puts up its handler
        _wait(lambda: "pydantic_core" in Path(f"/proc/{proc.pid}/maps").read_text(), TIMEOUT)
        proc.send_signal(signal.SIGINT)
        _, err = procs.finish(proc, 30)
    finally:
        procs.kill(proc)
    assert "Traceback" not in err, err
    assert proc.returncode in (130, -signal.SIGINT), err


@needs_proc
@pytest.mark.slow  # Ctrl-C keeps finished games on workers too: tests/runner/test_workers.py, in the default run
@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_keeps_the_games_that_finished(engine):
    """Many games a call into C: those finished when Ctrl-C came are summarised, as the Python
    engine summarises those it finished (on main the native engine kept none of them)."""
    code, err, took = _interrupted(["play", "kuhn-poker", "--games", 1_000_000, "--workers", 1, "--engine", engine],
                                   signal.SIGINT, busy=1.0)
    assert code == 130, err
    m = re.search(r"interrupted: (\d+) of 1000000 games kept; the summary covers games 1-(\d+) \(seeds 0-(\d+)\), "
                  r"as --games (\d+) would", err)
    assert m and int(m[1]) == int(m[2]) == int(m[3]) + 1 == int(m[4]) > 0, err


@needs_proc
@pytest.mark.parametrize("engine", [pytest.param("python", marks=SLOW), pytest.param("native", marks=needs_cc)])
def test_sigterm_ends_a_long_call_at_once(engine, tmp_path):
    (tmp_path / "huge.cards").write_text(HUGE)
    """SIGTERM (`timeout`, a job stopped from outside) is answered as Ctrl-C is: at once, with what
    was kept said, exit 130 (it killed the command, and a 15-minute balance wrote nothing)."""
    code, err, took = _interrupted(["play", tmp_path / "huge.cards", "--games", 1, "--workers", 1, "--engine", engine],
                                   signal.SIGTERM)
    assert code == 130, err
    assert err.splitlines()[-1] == "interrupted before the first game finished: nothing to summarise", err
    assert took < 0.5 + SIGNAL_MARGIN


@needs_cc
@pytest.mark.slow
def test_a_handler_that_returns_lets_the_call_go_on():
    """A Python handler that does not raise (a server's SIGTERM handler, say): the games cut short
    in C are played again, the playout goes on from where it stopped, the search is done again
    in Python, and every result is that of an undisturbed run."""
    import threading

    from interpreter.players.bots import make_bot
    from interpreter.engine import program_of
    from interpreter.native.engine import NativeGame, native_program
    from interpreter.runner.native import random_games
    rs = load_ruleset("ganjifa")
    np = native_program(program_of(rs))

    def run():
        games = [(r.seed, r.decisions, r.scores) for r in random_games(np, 3, {}, 0, 300)]
        g = NativeGame(rs, 3, {}, seed=5)
        g.playout([random.Random(bot_seed(5, k)) for k in range(3)])
        s = NativeGame(rs, 3, {}, seed=6).view
        picks = [str(make_bot("ismcts:300", 7).choose(s)) for _ in range(3)]
        return games, [str(m) for m in g.view.history], g.view.finished, picks
    quiet = run()
    seen = []
    old = signal.signal(signal.SIGTERM, lambda *a: seen.append(1))
    stop = threading.Event()

    def poke():
        while not stop.wait(0.003):
            os.kill(os.getpid(), signal.SIGTERM)
    t = threading.Thread(target=poke, daemon=True)
    t.start()
    try:
        poked = run()
    finally:
        stop.set()
        t.join()
        signal.signal(signal.SIGTERM, old)
    assert seen and poked == quiet and quiet[2]


@needs_proc
@needs_cc
def test_sigterm_keeps_the_games_a_balance_report_played(tmp_path):
    """A new user's `timeout 900 cardrules balance shithead.cards ...` left no report after 15
    minutes of games: SIGTERM now ends it as Ctrl-C does, the games played so far reported."""
    out = tmp_path / "report"
    code, err, _ = _interrupted(["balance", "ganjifa", "--games", 100000, "--workers", 1, "--out", out],
                                signal.SIGTERM, busy=1.0)
    assert code == 130, err
    assert "interrupted: the report covers the first" in err, err
    assert (out / "report.json").is_file() and (out / "report.html").is_file()
