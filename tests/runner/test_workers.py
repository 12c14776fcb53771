"""`--workers N` and `--cluster`: the same games on several processes, or on the workers of a
real Dask cluster (a `distributed.LocalCluster` on the loopback address), give the same
output byte for byte as one process: `play --json`, `play --log`, `balance`'s report and
`fuzz`'s findings with their reproductions. A cluster worker killed mid-run loses no game and
counts none twice; Ctrl-C keeps the games that finished and says so; bad input is one clear
error (exit 2); a run killed outright (kill -9) leaves no process behind holding its output.

Every child process starts in a session of its own and every wait on it is bounded: on timeout
its whole process group is killed (tests/procs.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import distributed  # the test extra has it (the cluster extra, for users)
import procs
import pytest
from typer.testing import CliRunner

from interpreter.commands.cli import app
from interpreter.playing import play_games

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
GANJIFA = RULESETS / "ganjifa" / "ganjifa.cards"
DENI = RULESETS / "ganjifa" / "traditional-deni.cards"   # a variant: its base goes with it
KOMI = RULESETS / "mughal" / "komi.cards"
TARGETS = ROOT / "tests" / "fuzz" / "targets"
CARDRULES = [sys.executable, "-m", "interpreter"]
# subprocesses and the cluster's workers import this checkout, installed or not
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}

BOOM = '''game boom "Boom"
players 2

deck small "Small pack":
    suits Red, Blue
    ranks 1..4

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone pile shared public "pile"

var last: card
var first: player

define held(p: player) = count(hand(p))
winner most held

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 4 from stock to each hand
    while any c in cards where c in hand:
        rule turn "A turn":
            choose by seat(1):
                action play c in hand(seat(1)) "Play a card.":
                    if c.rank == 4 and count(hand(seat(1))) == 4:
                        set last = top(stock)
                        set first = last.played_by
                    move c to pile
            move top(hand(seat(2))) to pile
'''
BOOM_VARIANT = '''variant boom_fewest "Boom, fewest wins" of "boom.cards"

winner fewest held
'''


def run(*args, env=None):
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes, one thread each, on 127.0.0.1; yields (address, client)."""
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = ENV["PYTHONPATH"]  # the workers (and any the nanny restarts) import this checkout
    try:
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=":0", silence_logs=50) as lc:
            with distributed.Client(lc.scheduler_address, set_as_default=False) as client:
                client.wait_for_workers(2, timeout=60)
                yield lc.scheduler_address, client
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def finish(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The output of a subprocess that must end within `timeout` (killed with its process group,
    and the test failed, if not)."""
    try:
        return procs.finish(proc, timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(map(str, proc.args))} did not end within {timeout} s")


def three_ways(cluster, tmp_path: Path, make_args) -> list:
    """Run the command with --workers 1, --workers 2 and on the cluster (named by the
    environment variable once, to check that too), each in its own folder; return each run's
    result and its folder."""
    address, _ = cluster
    out = []
    for how, extra, env in (("one", ["--workers", "1"], None), ("two", ["--workers", "2"], None),
                            ("cluster", [], {"CARDRULES_CLUSTER": address})):
        d = tmp_path / how
        d.mkdir()
        r = run(*make_args(d), *extra, env=env)
        out.append((r, d))
    return out


# ------------------------------------------------------------------ the same output

@pytest.mark.parametrize("ruleset, players, games", [(GANJIFA, 3, 40), pytest.param(DENI, 4, 30, marks=pytest.mark.slow),
                                                      pytest.param(KOMI, 3, 40, marks=pytest.mark.slow)])
def test_play_json_and_log_are_the_same_for_any_number_of_workers(cluster, tmp_path, ruleset, players, games):
    runs = three_ways(cluster, tmp_path, lambda d: ("play", ruleset, "-n", players, "-k", games, "--seed", 7,
                                                    "--json", "--log", d / "games.json"))
    for r, _ in runs:
        assert r.exit_code == 0, r.output
    (one, d1), *others = runs
    data = json.loads(one.stdout)
    assert data["games"] == games and [g["seed"] for g in data["results"]] == list(range(7, 7 + games))
    log = (d1 / "games.json").read_bytes()
    assert len(json.loads(log)["records"]) == games
    for r, d in others:
        assert r.stdout == one.stdout
        assert (d / "games.json").read_bytes() == log


def _report(stderr: str, folder) -> str:
    return "\n".join(line for line in stderr.replace(str(folder), "DIR").splitlines() if not line.startswith("engine: "))


def test_a_game_that_breaks_stops_every_way_at_the_same_game(cluster, tmp_path):
    """The first game that breaks (by its index) is reported, with the record of the games
    before it and of the broken one, whichever process played it."""
    game = tmp_path / "boom.cards"
    game.write_text(BOOM, encoding="utf-8")
    runs = three_ways(cluster, tmp_path, lambda d: ("play", game, "-k", 30, "--log", d / "games.json"))
    (one, d1), *others = runs
    assert one.exit_code == 1
    assert "broke" in one.stderr and "boom.cards:" in one.stderr and "last.played_by" in one.stderr
    log = json.loads((d1 / "games.json").read_bytes())
    assert 1 <= len(log["records"]) < 30
    for r, d in others:
        assert r.exit_code == 1
        # the same report whichever engine played (`engine:` says which)
        assert _report(r.stderr, d) == _report(one.stderr, d1)
        assert json.loads((d / "games.json").read_bytes()) == log


def test_balance_report_is_the_same_for_any_number_of_workers(cluster, tmp_path):
    runs = three_ways(cluster, tmp_path, lambda d: ("balance", GANJIFA, "-n", 3, "-k", 8, "--skill-games", 2,
                                                    "--strong", "greedy", "--against", DENI, "--out", d / "report"))
    for r, _ in runs:
        assert r.exit_code == 0, r.output
    (_, d1), *others = runs
    for _, d in others:
        assert (d / "report" / "report.json").read_bytes() == (d1 / "report" / "report.json").read_bytes()
        assert (d / "report" / "report.html").read_bytes() == (d1 / "report" / "report.html").read_bytes()


def _findings(stdout: str, folder: Path) -> dict:
    """The fuzz JSON without its timings, with the reproductions' folder made relative."""
    data = json.loads(stdout.replace(str(folder), "OUT"))
    data.pop("seconds")
    for r in data["rulesets"]:
        r.pop("seconds")
    return data


def test_fuzz_findings_and_reproductions_are_the_same_for_any_number_of_workers(cluster, tmp_path):
    files = [TARGETS / "deadlock.cards", TARGETS / "dead-option.cards", TARGETS / "peek.cards",
             TARGETS / "endless-loop.cards", RULESETS / "mughal" / "sama.cards"]
    runs = three_ways(cluster, tmp_path, lambda d: ("fuzz", *files, "--games", 2, "--json", "--out", d))
    (one, d1), *others = runs
    assert one.exit_code == 1  # the targets have findings
    first = _findings(one.stdout, d1)
    kinds = {f["kind"] for f in first["findings"]}
    assert {"deadlock", "dead-option", "hidden-leak", "endless-loop"} <= kinds
    records = {p.name: p.read_bytes() for p in d1.glob("*.json")}
    assert records
    for r, d in others:
        assert r.exit_code == 1
        assert _findings(r.stdout, d) == first
        assert {p.name: p.read_bytes() for p in d.glob("*.json")} == records


def test_cluster_workers_build_rulesets_from_text_not_from_the_clients_disk(cluster, tmp_path):
    """A variant and its base named by paths that exist on no disk: the workers build them from
    the texts the task carries, and an error names that file and quotes its line."""
    from interpreter.runner import Source, Task, execute
    from interpreter.runner.dask import DaskRunner
    address, _ = cluster
    gone = "/nowhere/at/all"
    src = Source(f"{gone}/low.cards", BOOM_VARIANT, ((f"{gone}/boom.cards", BOOM),))
    (tmp_path / "boom.cards").write_text(BOOM, encoding="utf-8")
    (tmp_path / "low.cards").write_text(BOOM_VARIANT, encoding="utf-8")
    here = Source(str(tmp_path / "low.cards"), BOOM_VARIANT, ((str(tmp_path / "boom.cards"), BOOM),))
    args = {"seed": 0, "players": 2, "options": {}, "bots": {0: "random", 1: "random"}, "log": True}
    with DaskRunner(address, 10) as runner:
        got = runner.run([Task(0, play_games, (src,), tuple(range(30)), args)])[0]
    local = execute(Task(0, play_games, (here,), tuple(range(30)), args))
    assert got["broke"] is not None and got["broke"][0] == local["broke"][0]
    assert f"{gone}/boom.cards:" in got["broke"][1] and "set first = last.played_by" in got["broke"][1]
    assert got["broke"][1] == local["broke"][1].replace(str(tmp_path), gone)
    assert got["tally"] == local["tally"] and got["tally"].games == got["broke"][0]


# ------------------------------------------------------------------ faults

def test_a_killed_cluster_worker_loses_no_game_and_counts_none_twice(cluster, tmp_path):
    address, client = cluster
    args = ["play", GANJIFA, "-n", "3", "-k", "800", "--seed", "3", "--json"]
    reference = run(*args, "--workers", "1")
    assert reference.exit_code == 0
    pids = client.run(os.getpid)
    with procs.started([*CARDRULES, *args, "--cluster", address], cwd=tmp_path, env=ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        victim, deadline = None, time.monotonic() + 60
        while victim is None and time.monotonic() < deadline and proc.poll() is None:
            busy = [w for w, keys in client.processing().items() if any("cardrules-play" in str(k) for k in keys)]
            victim = busy[0] if busy else None
            time.sleep(0.02)
        assert victim is not None, "the run never reached the cluster"
        os.kill(pids[victim], signal.SIGKILL)  # it holds a chunk: the scheduler gives it to another worker
        out, err = finish(proc, 120)
    assert proc.returncode == 0, err
    assert out == reference.stdout
    client.wait_for_workers(2, timeout=60)  # the nanny starts a new worker, for the tests after this one


def _played(err_file: Path) -> int:
    """The most games the progress bar in the file has counted (0 before it shows)."""
    text = err_file.read_text(encoding="utf-8", errors="replace") if err_file.exists() else ""
    return max((int(m) for m in re.findall(r"(\d+)/100000\b", text)), default=0)


def _wait_for_play(proc, err_file: Path, timeout: float = 120) -> None:
    """Wait until the run has finished games (its progress bar counts some: the first chunk,
    played here while the pool starts) and, where /proc tells, its two workers are up: the
    workers then play, as they do when a person presses Ctrl-C."""
    def pool_up() -> bool:
        if not procs.has_proc():
            return True
        return sum("forkserver" in cmd for cmd in procs.family(proc.pid).values()) >= 3  # the server, two workers
    end = time.monotonic() + timeout
    while not (_played(err_file) > 0 and pool_up()):
        assert proc.poll() is None, f"play ended before Ctrl-C: {err_file.read_text(errors='replace')}"
        if time.monotonic() > end:
            pytest.fail(f"play counted no game (or its pool did not start) within {timeout} s; its processes:\n"
                        + "\n".join(f"{pid} {cmd[:150]}" for pid, cmd in procs.family(proc.pid).items()))
        time.sleep(0.05)


def test_ctrl_c_keeps_the_games_that_finished_and_says_so(tmp_path):
    log = tmp_path / "games.json"
    # The bar draws on standard error only on a terminal; TTY_COMPATIBLE (and FORCE_COLOR, for
    # an older rich) make rich draw it to a file, so the test sees games finish: no fixed wait.
    env = {**ENV, "TTY_COMPATIBLE": "1", "FORCE_COLOR": "1"}
    for attempt in (1, 2):
        # one clean-clone CI run saw this run outlive its 60 s once, never reproduced since (15 tries,
        # cold caches, under load): a second attempt tells a rare stall from a broken Ctrl-C. (A suite
        # started with SIGINT ignored, as a background job, hung here for good: ctrl_c=True.)
        err_file = tmp_path / f"stderr-{attempt}.txt"
        with open(err_file, "w", encoding="utf-8") as err_out, \
                procs.started([*CARDRULES, "play", GANJIFA, "-n", "3", "-k", "100000", "--json", "--log", log,
                               "--workers", "2"], ctrl_c=True, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=err_out, text=True) as proc:
            _wait_for_play(proc, err_file)
            proc.send_signal(signal.SIGINT)
            try:
                out, _ = proc.communicate(timeout=90)
                break
            except subprocess.TimeoutExpired:
                left = "\n".join(f"{pid} {cmd[:150]}" for pid, cmd in procs.family(proc.pid).items())
                if attempt == 2:
                    pytest.fail(f"play did not end within 90 s of Ctrl-C, twice; its processes:\n{left}")
                warnings.warn(f"play did not end within 90 s of Ctrl-C; trying again. Its processes:\n{left}")
    err = err_file.read_text(encoding="utf-8")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    kept = data["games"]
    assert 0 < kept < 100000
    assert f"interrupted: {kept} of 100000 games kept" in err and f"as --games {kept} would" in err
    assert data["seeds"] == [0, kept - 1]
    assert len(json.loads(log.read_text())["records"]) == kept
    same = run("play", GANJIFA, "-n", "3", "-k", kept, "--json", "--workers", "1")
    assert same.stdout == out


@pytest.mark.skipif(not procs.has_proc(), reason="finds the processes left behind in /proc (Linux)")
def test_play_killed_outright_leaves_no_process_behind_and_lets_go_of_its_output(tmp_path):
    """kill -9 of `play --workers 2` once its pool plays: its workers end with it, so the fork
    server and the resource tracker (which live while a worker holds their pipes) end too, and
    a reader of its output reaches the end instead of waiting forever (issue 28)."""
    with procs.started([*CARDRULES, "play", GANJIFA, "-n", "3", "-k", "100000", "--workers", "2"], cwd=tmp_path,
                       env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            pool = [cmd for cmd in procs.family(proc.pid).values() if "multiprocessing" in cmd]
            if sum("forkserver" in cmd for cmd in pool) >= 3 and any("resource_tracker" in cmd for cmd in pool):
                break  # the fork server and its two workers, and the resource tracker
            time.sleep(0.05)
        else:
            pytest.fail(f"play's pool never came up: {procs.family(proc.pid)}")
        time.sleep(1)  # the workers play
        before = procs.family(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        t0 = time.monotonic()
        try:
            out, err = proc.communicate(timeout=10)  # returns once every holder of the pipes is gone
        except subprocess.TimeoutExpired:
            pytest.fail("the output of play killed with kill -9 stayed open 10 s; still there:\n"
                        + "\n".join(f"{pid} {cmd[:150]}" for pid, cmd in procs.family(proc.pid).items()))
        left = procs.family(proc.pid)
        while left and time.monotonic() - t0 < 5:
            time.sleep(0.1)
            left = procs.family(proc.pid)
        assert not left, f"left behind by kill -9 of play (of {sorted(before)}): {left}"
        assert time.monotonic() - t0 < 5
        assert proc.returncode == -signal.SIGKILL


DIE_WITH_PARENT = """import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], *sys.argv[2:]])
print(child.pid, flush=True)
time.sleep(120)
"""
DIE_WITH_CHILD = """import os, sys, time
sys.path.insert(0, sys.argv[1])
parent = os.getppid()
if sys.argv[2] != "pidfd" and hasattr(os, "pidfd_open"):
    del os.pidfd_open                # as on a system without pidfds: it polls
if sys.argv[2] == "kill":
    os.getppid = lambda: 0           # as for a worker of a fork server: the client is not its parent
from interpreter.processes import die_with
die_with(parent)
print("ready", flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not procs.has_proc(), reason="looks for the child in /proc (Linux)")
@pytest.mark.parametrize("how", ["pidfd", "getppid", "kill"])
def test_a_child_that_dies_with_its_parent_ends_within_a_second_of_kill_9(how):
    if how == "pidfd" and not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd_open here")
    with procs.started([sys.executable, "-c", DIE_WITH_PARENT, DIE_WITH_CHILD, ROOT, how],
                       stdout=subprocess.PIPE, text=True) as proc:
        out = procs.lines(proc.stdout)
        child = int(out.get(timeout=30))
        assert out.get(timeout=30) == "ready\n"
        assert procs.alive(child)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)  # reaped, as a shell would: os.kill(pid, 0) cannot tell a zombie
        t0 = time.monotonic()
        assert out.get(timeout=10) is None  # the child held the pipe: it is gone
        while procs.alive(child) and time.monotonic() - t0 < 5:
            time.sleep(0.05)
        assert not procs.alive(child)
        assert time.monotonic() - t0 < (0.5 if how == "pidfd" else 1.5)


def test_a_child_whose_parent_is_already_gone_ends_at_once():
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from interpreter.processes import die_with\n"
            "die_with(int(sys.argv[2])); print('still here')")
    ended = procs.start([sys.executable, "-c", "pass"])
    ended.wait(timeout=30)  # and reaped: its pid names no process now
    r = procs.run([sys.executable, "-c", code, ROOT, ended.pid], timeout=30, capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout == "", r.stderr


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("command", [("play", GANJIFA, "-k", "5"), ("fuzz", TARGETS, "--games", "1"),
                                     ("balance", GANJIFA, "--out", "never-written")])
@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_zero_or_negative_is_a_usage_error(command, workers, tmp_path):
    r = run(*command, "--workers", workers)
    assert r.exit_code == 2, r.output
    assert f"--workers must be 1 or more (the number of processes to play in), not {workers}" in r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


@pytest.mark.parametrize("how", ["option", "environment"])
def test_an_unreachable_scheduler_is_a_clear_error_within_seconds(how, tmp_path):
    env = {"CARDRULES_CLUSTER_TIMEOUT": "1"}
    extra = ["--cluster", "tcp://127.0.0.1:1"] if how == "option" else []
    if how == "environment":
        env["CARDRULES_CLUSTER"] = "tcp://127.0.0.1:1"
    t0 = time.monotonic()
    r = run("play", GANJIFA, "-k", "5", *extra, env=env)
    assert time.monotonic() - t0 < 10
    assert r.exit_code == 2, r.output
    assert "error: cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s" in r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


def test_a_cluster_without_dask_installed_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    monkeypatch.delitem(sys.modules, "interpreter.runner.dask", raising=False)
    r = run("play", GANJIFA, "-k", "5", "--cluster", "tcp://127.0.0.1:1")
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'cardrules[cluster]'" in lines[0]


# ------------------------------------------------------------------ the bookkeeping

def test_chunks_cover_every_game_once_and_a_result_counts_once():
    from interpreter.runner import Collector, Task, chunks
    for n in (1, 7, 100, 1001, 50_000):
        for w in (1, 2, 3, 64):
            parts = chunks(n, w)
            assert [i for p in parts for i in p] == list(range(n))
    tasks = [Task(k, play_games, (), (k,)) for k in range(4)]
    seen = []
    c = Collector(tasks, seen.append, stop=lambda r: r == "broke")
    c.add(tasks[1], "ok")
    c.add(tasks[1], "again")   # a chunk played twice (its worker was lost after it finished)
    assert c.results == {1: "ok"} and seen == [1]
    c.add(tasks[2], "broke")   # the tasks after a game that broke are not needed
    assert not c.finished() and c.needed(0) and not c.needed(3)
    c.add(tasks[0], "ok")
    assert c.finished()


def test_an_interrupted_balance_report_is_that_of_the_games_every_configuration_finished():
    """Ctrl-C in the middle of the skill games: the report is the one of --games K
    --skill-games M for the games that had finished (here in one process, interrupted from
    the progress callback after the 25th game)."""
    from interpreter import load_ruleset
    from interpreter.balance import Config, ReportInterrupted, make_report
    rs = load_ruleset(GANJIFA)
    cfg = Config(label="g", path=str(GANJIFA), rs=rs, players=3, bots=("random",) * 3)
    played = []

    def progress(n=1):
        played.append(n)
        if len(played) == 25:
            raise KeyboardInterrupt
    with pytest.raises(ReportInterrupted) as stop:
        make_report([cfg], 20, 5, "greedy", 10, progress)
    assert (stop.value.games, stop.value.skill_games) == (20, 5)
    data, facts = make_report([cfg], 20, 5, "greedy", 5)
    assert stop.value.data == data and stop.value.facts == facts


def test_games_played_whole_in_c_go_to_the_workers_in_large_chunks():
    """A chunk of games played whole in C (random bots on native) takes milliseconds: handing
    out a hundred games at a time kept two workers at 1.3x one; NATIVE_CHUNK at a time, 1.85x."""
    from interpreter import load_ruleset
    from interpreter.runner import MAX_CHUNK, NATIVE_CHUNK, Runner
    from interpreter.playing import play

    class Counting(Runner):
        parallelism = 2

        def run(self, tasks, advance=None, stop=None, each=None):
            self.sizes = [len(t.items) for t in tasks]
            return {}
    rs = load_ruleset(GANJIFA)
    for engine, bots, size in (("native", {0: "random", 1: "random", 2: "random"}, NATIVE_CHUNK),
                               ("native", {0: "greedy", 1: "random", 2: "random"}, MAX_CHUNK),
                               ("python", {0: "random", 1: "random", 2: "random"}, MAX_CHUNK)):
        r = Counting()
        play(r, GANJIFA, rs, 3, {}, 0, 80_000, bots, False, engine=engine)  # 8 chunks a worker, each of 5,000
        assert set(r.sizes) == {size} and sum(r.sizes) == 80_000, (engine, bots)
