"""The browser table under strain: bots that think in worker processes within a time a
decision, workers that die or overrun, the caps on tables, and a server that stops at once,
whatever its tables are doing, with every table saved and no process left behind.

Every child process here starts in a session of its own and every wait on it has a time-out
that then kills its whole group (tests/procs.py), so no test can hang the suite."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # Starlette 1.x asks for the httpx2 fork; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import procs  # noqa: E402
from interpreter import engine, load_ruleset  # noqa: E402
from interpreter.runner import source_of  # noqa: E402
from interpreter.web import store, thinkers  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.limits import Limits  # noqa: E402
from interpreter.web.thinkers import Decision, Thinkers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GANJIFA = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"


def decision(seconds: float, bot: str = "ismcts:20000", table: str = "t1") -> tuple[Decision, object]:
    rs = load_ruleset(GANJIFA)
    state = engine.new_game(rs, 3, {}, 5)
    while state.actor is None or len(engine.moves_for(state)) < 2:  # a real choice
        engine.apply(state, engine.moves_for(state)[0])
    d = Decision(table, source_of(GANJIFA), 3, dict(state.options), 5,
                 tuple((m.player, str(m)) for m in state.history), state.actor, bot, 7, seconds)
    return d, state


def run(coro):
    return asyncio.new_event_loop().run_until_complete(coro)


# ------------------------------------------------------------------ the workers

def test_a_bot_given_a_time_plays_its_best_move_so_far_when_the_time_runs_out():
    d, state = decision(0.3)
    legal = {str(m) for m in engine.moves_for(state)}

    async def go():
        pool = Thinkers(1, 0.3)
        try:
            await pool.choose(decision(5, "random", "warm")[0])  # the worker is up: its start is not timed
            t0 = time.monotonic()
            move, thought = await pool.decide(d)
            return move, thought, time.monotonic() - t0
        finally:
            pool.close()
    move, thought, took = run(go())
    assert move in legal
    assert took < 0.3 + 1.0, f"20,000 iterations were given 0.3 s and took {took:.2f} s"
    assert thought == "its 0.3 s ran out: it played its best move so far"  # for the table's record


def test_the_same_decision_gives_the_same_move_in_a_worker_and_here_without_a_clock():
    d, _ = decision(1000, "ismcts:60")

    async def go():
        pool = Thinkers(1, 1000)
        try:
            return await pool.decide(d)
        finally:
            pool.close()
    move, thought = run(go())
    assert (move, thought) == thinkers.decide_here(d) and thought is None  # chosen in time: nothing to say


def test_a_worker_killed_mid_decision_is_replaced_and_the_decision_asked_again(caplog):
    d, state = decision(3.0, "ismcts:20000")
    legal = {str(m) for m in engine.moves_for(state)}

    async def go():
        pool = Thinkers(1, 3.0)
        try:
            await pool.choose(decision(5, "random", "warm")[0])
            task = asyncio.ensure_future(pool.choose(d))
            end = time.monotonic() + 20
            while pool.busy() == 0:  # the worker has the decision
                assert time.monotonic() < end and not task.done(), "the worker never took the decision"
                await asyncio.sleep(0.02)
            assert pool.busy() == 1
            (victim,) = pool._all
            os.kill(victim.process.pid, signal.SIGKILL)
            move = await asyncio.wait_for(task, 30)
            (now,) = pool._all
            return move, victim.process.pid, now.process.pid
        finally:
            pool.close()
    with caplog.at_level(logging.WARNING, logger="cardrules.web"):
        move, before, after = run(go())
    assert move in legal and before != after
    assert "died; asking another" in caplog.text


def test_a_worker_past_its_time_and_grace_is_ended_and_its_seat_plays_a_move_from_its_seed(monkeypatch, caplog):
    monkeypatch.setattr(thinkers, "GRACE", 0.0)
    d, state = decision(0.0, "ismcts:20000")
    legal = {str(m) for m in engine.moves_for(state)}

    async def go():
        pool = Thinkers(1, 0.0)
        try:
            await pool.choose(decision(5, "random", "warm")[0])
            (first,) = pool._all
            moves = [await pool.decide(d) for _ in range(2)]
            return moves, first
        finally:
            pool.close()
    with caplog.at_level(logging.WARNING, logger="cardrules.web"):
        ((m1, t1), (m2, _)), first = run(go())
    assert m1 in legal and m1 == m2  # drawn from the bot's seed: the same both times
    assert t1 == "it took more than 0 s: it was stopped, and a move drawn from its seed was played"
    assert "it plays a move drawn from its seed" in caplog.text
    first.process.join(5)
    assert not first.process.is_alive()


def _slow_to_load(conn, parent: int) -> None:
    """A worker whose every position takes 4 s to rebuild, as a cold worker on a loaded machine may."""
    rebuild = thinkers._position

    def slowly(d, seen):
        time.sleep(4.0)
        return rebuild(d, seen)
    thinkers._position = slowly
    thinkers._serve(conn, parent)


def test_a_worker_slow_to_load_the_position_is_not_cut_short_since_loading_is_not_thinking(monkeypatch, caplog):
    """Before, the time a decision is given started when the decision was sent: a fresh worker on
    a busy machine spent it loading, was ended, and its seat played a move drawn from its seed.
    The bot has 2 s, far more than its 60 iterations take even on a loaded machine (a search cut
    short by its clock plays another move), and the worker 1 s of grace: 3 s in all, less than
    the 4 s of loading."""
    d, _ = decision(2.0, "ismcts:60")
    monkeypatch.setattr(thinkers, "GRACE", 1.0)

    def spawn(self):
        ctx = thinkers.context(["interpreter.web.thinkers"])
        mine, theirs = ctx.Pipe()
        p = ctx.Process(target=_slow_to_load, args=(theirs, os.getpid()), daemon=True)
        p.start()
        theirs.close()
        return thinkers._Worker(p, mine)
    monkeypatch.setattr(Thinkers, "_spawn", spawn)

    async def go():
        pool = Thinkers(1, 2.0)
        try:
            return await pool.choose(d)
        finally:
            pool.close()
    with caplog.at_level(logging.WARNING, logger="cardrules.web"):
        move = run(go())
    assert "took more than" not in caplog.text
    assert move == thinkers.choose_here(d)  # the bot's own move (ismcts:60 never reaches its clock)


def test_a_table_goes_on_when_its_bots_worker_is_killed_mid_decision(tmp_path):
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0, limits=Limits(bot_workers=1, think_seconds=2.0))
    web = app.state.web
    with TestClient(app, base_url="http://127.0.0.1") as client:
        form = {"ruleset": "ganjifa/ganjifa", "players": "3", "seed": "3", "seat1": "ismcts",
                "seat1_iterations": "20000", "seat2": "person", "seat3": "person"}
        r = client.post("/new", data=form, follow_redirects=False)
        assert r.status_code == 303, r.text
        tid = re.search(r"/t/(\w+)/links", r.headers["location"]).group(1)
        table = web.tables.get(tid)
        end = time.monotonic() + 20
        while web.tables.thinkers.busy() == 0:  # the bot in P1 is thinking
            assert time.monotonic() < end and not table.error, "the bot never started thinking"
            time.sleep(0.02)
        assert table.version == 0
        time.sleep(0.3)
        (worker,) = web.tables.thinkers._all
        os.kill(worker.process.pid, signal.SIGKILL)
        while table.version == 0:  # asked again of a new worker, from the same position
            assert time.monotonic() < end, "the table did not go on after its worker died"
            assert not table.error, table.error
            time.sleep(0.02)
        assert table.error is None
        saved = store.read_table_file(table.file)
        assert len(saved["record"]["moves"]) >= 1  # the bot's move is on disk


def test_a_bot_whose_time_ran_out_says_so_in_the_tables_record_and_log(tmp_path):
    """Issue 40: a decision that hits the table's time cap says so in the record. The bot in P1 is
    given 0.2 s for 20,000 iterations: its move's note in the table's file says its time ran
    out, and the log tells every seat; the people's moves carry no such note."""
    from interpreter.web.views import log_entries
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0, limits=Limits(bot_workers=1, think_seconds=0.2))
    web = app.state.web
    with TestClient(app, base_url="http://127.0.0.1") as client:
        form = {"ruleset": "ganjifa/ganjifa", "players": "3", "seed": "3", "seat1": "ismcts",
                "seat1_iterations": "20000", "seat2": "person", "seat3": "person"}
        r = client.post("/new", data=form, follow_redirects=False)
        assert r.status_code == 303, r.text
        tid = re.search(r"/t/(\w+)/links", r.headers["location"]).group(1)
        table = web.tables.get(tid)
        end = time.monotonic() + 60
        while not any(m.player == 0 for m in table.state.history):  # the bot in P1 has moved
            assert time.monotonic() < end and not table.error, table.error or "the bot never moved"
            time.sleep(0.02)
        saved = store.read_table_file(table.file)
        k = next(i for i, m in enumerate(table.state.history) if m.player == 0)
        assert saved["notes"][k]["thought"] == "its 0.2 s ran out: it played its best move so far"
        assert all("thought" not in n for i, n in enumerate(saved["notes"]) if table.state.history[i].player != 0)
        for viewer in (None, 0, 1, 2):
            assert log_entries(table.state, table.notes, viewer)[k]["text"].endswith(
                "(its 0.2 s ran out: it played its best move so far)")


# ------------------------------------------------------------------ caps

def _form(seats: list[str], seed: int = 1) -> dict:
    form = {"ruleset": "ganjifa/ganjifa", "players": str(len(seats)), "seed": str(seed)}
    form.update({f"seat{i}": s for i, s in enumerate(seats, 1)})
    return form


def test_past_the_cap_on_tables_a_new_table_is_refused_at_once_with_the_form_kept(tmp_path):
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0, limits=Limits(max_tables=2, max_thinking=1))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.post("/new", data=_form(["person", "random", "random"]), follow_redirects=False).status_code == 303
        t0 = time.monotonic()
        r = client.post("/new", data=_form(["person", "greedy", "person"], seed=77), follow_redirects=False)
        assert r.status_code == 503 and time.monotonic() - t0 < 1
        assert "1 tables with bots, as many as it takes at once" in r.text
        assert 'value="77"' in r.text and '<option value="greedy" selected>' in r.text  # what was typed
        assert client.post("/new", data=_form(["person"] * 3), follow_redirects=False).status_code == 303
        r = client.post("/new", data=_form(["person"] * 3, seed=78), follow_redirects=False)
        assert r.status_code == 503 and "playing 2 tables, as many as it takes at once" in r.text
        assert len(app.state.web.tables.tables) == 2 and len(list((tmp_path / "tables").glob("*.json"))) == 2
        assert client.get("/").status_code == 200


def test_bodies_over_their_limit_get_413_and_the_api_answers_errors_in_json(tmp_path):
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0, limits=Limits(form_bytes=1000, upload_bytes=5000))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        r = client.post("/new", data={**_form(["person"] * 3), "pad": "x" * 2000})
        assert r.status_code == 413 and "the limit is 1000 bytes" in r.text
        r = client.post("/replay", data={"record": "x" * 6000})
        assert r.status_code == 413 and "too large to upload here" in r.text and 'id="record-form"' in r.text
        r = client.get("/api/t/nosuch/seat/1?token=x")
        assert r.status_code == 404 and r.json()["ok"] is False and "no such table" in r.json()["error"]
        r = client.post("/api/t/nosuch/seat/1/move?token=x", content=b"[" * 900,
                        headers={"content-type": "application/json"})
        assert r.status_code in (400, 404) and r.json()["ok"] is False
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        r = client.post("/new", content=b"[" * 60000, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "not valid JSON" in r.text
        rec = {"format": engine.RECORD_FORMAT, "players": 3, "seed": 1, "options": {}, "final": {},
               "moves": [{"player": "P1", "move": "play x"}] * 20_001}
        r = client.post("/replay", data={"record": json.dumps(rec)})
        assert r.status_code == 400 and "20,001 moves, more than the 20,000" in r.text


# ------------------------------------------------------------------ the command

def _serve(tmp_path: Path, *extra, ctrl_c: bool = False):
    err = open(tmp_path / "serve.err", "w")
    proc = procs.start([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data", tmp_path,
                        "--bot-pause", "0", *extra], ctrl_c=ctrl_c, cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=err, text=True)
    line = procs.lines(proc.stdout).get(timeout=60)
    assert line, (tmp_path / "serve.err").read_text()
    port = int(re.search(r"http://localhost:(\d+)/", line).group(1))
    return proc, port, line


def _post(port: int, path: str, form: dict) -> str:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=urllib.parse.urlencode(form).encode())
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.geturl()


def test_serve_runs_the_table_and_stops_on_ctrl_c(tmp_path):
    """The real server: it answers on the port it prints and stops on Ctrl-C (SIGINT set to its
    default in the child, whatever this suite inherited)."""
    proc, port, line = _serve(tmp_path, ctrl_c=True)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as r:
            assert r.status == 200 and "Open a table" in r.read().decode()
        assert f"tables kept in {tmp_path / 'tables'}" in line
        proc.send_signal(signal.SIGINT)
        procs.finish(proc, 20)
    finally:
        procs.kill(proc)
    err = (tmp_path / "serve.err").read_text()
    assert proc.returncode in (0, 130, -signal.SIGINT) and "Traceback" not in err, err


@pytest.mark.skipif(not procs.has_proc(), reason="looks for the workers left behind in /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGTERM, pytest.param(signal.SIGINT, marks=pytest.mark.slow), signal.SIGKILL])
def test_the_server_stops_within_2_s_while_bots_think_with_every_table_saved(tmp_path, how):
    """Ctrl-C and SIGTERM stop it in an orderly way; kill -9 (the out-of-memory killer) too
    leaves no worker behind, and the tables it had saved load again."""
    proc, port, _ = _serve(tmp_path, "--think-seconds", "30", ctrl_c=True)
    try:
        ids = []
        for seed in (1, 2, 3):
            where = _post(port, "/new", {**_form(["person", "ismcts", "ismcts"], seed), "seat2_iterations": "20000",
                                         "seat3_iterations": "20000"})
            ids.append(re.search(r"/t/(\w+)/links", where).group(1))
        end = time.monotonic() + 30
        while not [c for c in procs.family(proc.pid).values() if "forkserver" in c]:
            assert time.monotonic() < end, "no bot ever started thinking"
            time.sleep(0.05)
        time.sleep(1.0)  # the bots are deep in their 30 s decisions now
        t0 = time.monotonic()
        proc.send_signal(how)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail("the server did not stop within 10 s")
        took = time.monotonic() - t0
        assert took < 2.0, f"the server took {took:.2f} s to stop"
        end = time.monotonic() + 5
        while procs.family(proc.pid):  # its bots' workers, fork server and resource tracker end too
            assert time.monotonic() < end, f"left behind: {procs.family(proc.pid)}"
            time.sleep(0.1)
    finally:
        procs.kill(proc)
    err = (tmp_path / "serve.err").read_text()
    assert "Traceback" not in err, err
    for tid in ids:  # every table is on disk and loads again, where it was
        data = store.read_table_file(tmp_path / "tables" / f"{tid}.json")
        assert data["id"] == tid and json.dumps(data)
    app = create_app(tmp_path, bot_pause=0)
    assert sorted(app.state.web.tables.tables) == sorted(ids) and not app.state.web.tables.skipped


def test_where_no_process_can_be_started_the_bots_think_in_the_servers_threads(monkeypatch, caplog):
    d, state = decision(5, "greedy")

    def refuse(self):
        raise OSError("no processes here")
    monkeypatch.setattr(Thinkers, "_spawn", refuse)

    async def go():
        pool = Thinkers(2, 5)
        try:
            return await pool.choose(d), pool.workers
        finally:
            pool.close()
    with caplog.at_level(logging.WARNING, logger="cardrules.web"):
        move, workers = run(go())
    assert move == thinkers.choose_here(d) and workers == 0
    assert "they think in the server's threads" in caplog.text


@pytest.mark.parametrize("args, said", [
    (["--think-seconds", "0"], "error: --think-seconds must be above 0 and at most 3600, not 0.0"),
    (["--max-upload", "0"], "error: --max-upload must be from 1 to 1024 MB, not 0"),
    (["--max-tables", "0"], "error: --max-tables must be 1 or more, not 0"),
    (["--max-iterations", "-5"], "error: --max-iterations must be 1 or more, not -5"),
    (["--bot-workers", "-1"], "error: --bot-workers must be 0 or more, not -1"),
])
def test_a_limit_out_of_range_is_said_in_one_line_before_the_server_starts(tmp_path, args, said):
    done = procs.run([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data", tmp_path, *args],
                     timeout=60, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.strip() == said, done.stderr
