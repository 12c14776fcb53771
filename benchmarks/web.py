"""The browser table under load: a move's round trip on the loopback address, and many tables
of bots playing at once, against a real `cardrules serve` (a subprocess on a free port of
127.0.0.1, its tables kept in a temporary folder).

    python benchmarks/web.py [--moves K] [--tables N] [--ruleset KEY] [--players N] [--bot NAME]
                             [--seed S] [--skip-round-trip] [--skip-tables]
                             [--thinking N] [--iterations K] [--seconds S] [--skip-thinking]
                             [--engine auto|python|native|both] [--rounds R]

* Round trip: tables where every seat is a person (no bots, so nothing moves but the client),
  driven through the JSON API over one kept-alive connection, as a browser holds one. One
  round trip is the POST of a legal move (`/api/t/ID/seat/N/move`) plus the GET of that seat's
  view (`/t/ID/seat/N/view`, the fragment a page fetches to redraw itself); the seat to move
  and its legal moves are read from the API beforehand, outside the timing. A finished game
  is followed by a new table. Also timed: the page's own way, the form POST that answers with
  the redrawn fragment (`X-Cardrules-Fragment: 1`). Prints the median, the 95th percentile
  and the worst in ms (the target: p95 under 50 ms).
* Tables of bots: N tables where every seat is a bot, all playing at once with no pause. The
  new-table form insists on a person, so their files are written beforehand with the server's
  own code (`Tables.open`, the seats then made bots) and a second server loads them at its
  start, as after a restart, and starts every table's bots. Waits until no table is playing
  (polling the list of tables at /), then prints the time, the games finished, the errors (an
  HTTP answer other than 200, a table stopped by an error, a file not finished) and the
  server's peak memory (VmHWM).
* Pages while bots think: N tables (default 20), each a person and search players
  (`ismcts:K`, default 2,000 iterations) in the other seats, opened through the form; a driver
  makes the person's move at every table whose turn it is, so the bots think all the time; for
  S seconds (default 30) a person's page (`/t/ID/seat/N`) and the list of tables (`/`) are
  fetched in turn on their own connection, ten times a second. Prints the median, the 95th
  percentile and the worst in ms (the target: p95 under 50 ms), and the bots' moves made.

Figures only: nothing asserts a speed. The project's machine has 2 cores and is often shared
with other jobs, so the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class Serve:
    """`cardrules serve --port 0` in a subprocess; its output goes to files (a full pipe would
    stop the server)."""

    def __init__(self, data: Path, bot_pause: float, engine: str = "auto"):
        self.data = data
        self.out = open(data / "serve.out", "w+")
        self.err = open(data / "serve.err", "w+")
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data",
                                      str(data), "--bot-pause", str(bot_pause), "--engine", engine],
                                     cwd=ROOT, stdout=self.out, stderr=self.err, text=True)
        end = time.monotonic() + 60
        while True:
            self.out.seek(0)
            m = re.search(r"http://[\w.]+:(\d+)/", self.out.read())
            if m:
                self.port = int(m.group(1))
                break
            if self.proc.poll() is not None or time.monotonic() > end:
                self.err.seek(0)
                raise SystemExit(f"the server did not start:\n{self.err.read()}")
            time.sleep(0.05)
        self.started = time.perf_counter()  # the bots of loaded tables start now

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def peak_memory(self) -> str | None:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                m = re.search(r"VmHWM:\s*(\d+)\s*kB", f.read())
            return f"{int(m.group(1)) / 1024:.0f} MB" if m else None
        except OSError:
            return None

    def errors_logged(self) -> list[str]:
        self.err.seek(0)
        return [line for line in self.err.read().splitlines() if line.startswith(("ERROR", "CRITICAL"))]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # as Ctrl-C
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.logged = self.errors_logged()
        self.out.close()
        self.err.close()


def request(conn, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    return r.status, r.getheaders(), r.read()


def open_table(conn, key: str, players: int, seed: int, bots: dict[int, str] | None = None
               ) -> tuple[str, dict[int, str]]:
    """A table through the form, every seat a person but those in `bots` ({seat number: 'ismcts:K'});
    (its id, {seat number: token} for the persons)."""
    form = {"ruleset": key, "players": str(players), "seed": str(seed)}
    form.update({f"seat{i}": "person" for i in range(1, players + 1)})
    for i, spec in (bots or {}).items():
        kind, _, n = spec.partition(":")
        form[f"seat{i}"] = kind
        if n:
            form[f"seat{i}_iterations"] = n
    status, headers, _ = request(conn, "POST", "/new", urlencode(form).encode(),
                                 {"Content-Type": "application/x-www-form-urlencoded"})
    location = dict(headers).get("location", "")
    if status != 303:
        raise SystemExit(f"could not open a table ({status})")
    status, _, page = request(conn, "GET", location)
    tid = re.search(r"/t/(\w+)/links", location).group(1)
    tokens = {int(n): t for n, t in re.findall(rf'href="/t/{tid}/seat/(\d+)\?token=([\w-]+)"', page.decode())}
    assert len(tokens) == players - len(bots or {}), "the links page does not give every person's seat its link"
    return tid, tokens


def percentiles(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):6.1f}   p95 {p95:6.1f}   max {ms[-1]:6.1f}"


def round_trips(serve: Serve, key: str, players: int, moves: int, seed: int) -> None:
    conn = serve.connection()
    rng = random.Random(seed)
    api_ms: list[float] = []
    page_ms: list[float] = []
    tables = errors = 0
    tid, tokens, game = None, {}, seed
    warm = 10  # the first moves load the rulebook's anchors and fill caches: not counted
    while len(api_ms) + len(page_ms) < 2 * moves:
        if tid is None:
            tid, tokens = open_table(conn, key, players, game)
            game += 1
            tables += 1
        # who is to move, and their legal moves (not timed)
        mover = legal = None
        for n, tok in tokens.items():
            status, _, body = request(conn, "GET", f"/api/t/{tid}/seat/{n}?token={tok}")
            a = json.loads(body)
            if a["outcome"] or a["error"]:
                errors += a["error"] is not None
                break
            if a["moves"]:
                mover, legal, version = n, a["moves"], a["version"]
                break
        if mover is None:
            tid = None
            continue
        tok = tokens[mover]
        move = rng.choice(legal)
        as_page = (len(api_ms) + len(page_ms)) % 2 == 1  # alternate the two ways
        t0 = time.perf_counter()
        if as_page:  # the page's way: the form's POST answers with the redrawn fragment
            status, _, _ = request(conn, "POST", f"/t/{tid}/seat/{mover}/move?token={tok}",
                                   urlencode({"move": move, "version": version}).encode(),
                                   {"Content-Type": "application/x-www-form-urlencoded",
                                    "X-Cardrules-Fragment": "1"})
            ok = status == 200
        else:  # the API's move, then the view a page would fetch
            status, _, _ = request(conn, "POST", f"/api/t/{tid}/seat/{mover}/move?token={tok}",
                                   json.dumps({"move": move, "version": version}).encode(),
                                   {"Content-Type": "application/json"})
            s2, _, _ = request(conn, "GET", f"/t/{tid}/seat/{mover}/view?token={tok}")
            ok = status == 200 and s2 == 200
        ms = (time.perf_counter() - t0) * 1000
        errors += not ok
        if warm > 0:
            warm -= 1
            continue
        (page_ms if as_page else api_ms).append(ms)
    conn.close()
    print(f"\nA move's round trip on 127.0.0.1 ({key}, {players} people, no bots; {moves} moves each way, "
          f"{tables} tables, {errors} errors), in ms:")
    print(f"  API move + the seat's view:   {percentiles(api_ms)}")
    print(f"  the page's move (fragment):   {percentiles(page_ms)}")


def write_bot_tables(data: Path, key: str, players: int, n: int, bot: str, seed: int) -> None:
    """N table files where every seat is a bot, written with the server's own code."""
    from interpreter.web import store
    from interpreter.web.catalog import Catalog
    from interpreter.web.tables import Seat, Tables
    try:
        from interpreter.web.limits import Limits
        tables = Tables(data, Catalog([]), 0, Limits(max_tables=n, max_thinking=n))
    except ImportError:  # a server from before its limits
        tables = Tables(data, Catalog([]), 0)
    for i in range(n):
        t = tables.open(key, players, {}, seed + i, ["person"] + [bot] * (players - 1))
        t.seats = [Seat("bot", bot=bot) for _ in range(players)]
        store.write_json_atomic(t.file, t.file_data())


def bot_tables(data: Path, key: str, players: int, n: int, bot: str, seed: int, engine: str = "auto") -> None:
    write_bot_tables(data, key, players, n, bot, seed)
    serve = Serve(data, 0, engine)
    try:
        conn = serve.connection()
        http_errors = polls = 0
        statuses: list[str] = []
        while True:
            status, _, page = request(conn, "GET", "/")
            polls += 1
            if status != 200:
                http_errors += 1
            else:
                statuses = re.findall(r"<td>(finished|playing|stopped by an error)(?: ·|</td>)", page.decode())
                if len(statuses) == n and "playing" not in statuses:
                    break
            if time.perf_counter() - serve.started > 900:
                print("  (gave up after 15 minutes)")
                break
            time.sleep(0.25)
        took = time.perf_counter() - serve.started
        peak = serve.peak_memory()
        # every table's file: a finished game
        files = sorted((data / "tables").glob("*.json"))
        moves = unfinished = 0
        for f in files:
            rec = json.loads(f.read_text())["record"]
            moves += len(rec["moves"])
            unfinished += not rec["final"]["finished"]
        conn.close()
    finally:
        serve.stop()
    stopped = statuses.count("stopped by an error")
    logged = serve.logged
    errors = http_errors + stopped + unfinished
    print(f"\n{n} tables of bots at once ({key}, {players} {bot} bots each, bot pause 0):")
    print(f"  all done in {took:.1f} s: {statuses.count('finished')} of {n} games finished, {moves} moves "
          f"({moves / took:.0f} moves/s); errors: {errors} ({http_errors} HTTP, {stopped} tables stopped, "
          f"{unfinished} files unfinished; {len(logged)} error lines in the server's log)")
    print(f"  {polls} polls of the list of tables; the server's peak memory (VmHWM): {peak or 'unknown'}")
    for line in logged[:5]:
        print("   ", line)


def thinking(data: Path, key: str, players: int, n: int, iterations: int, seconds: float, seed: int,
             engine: str = "auto") -> None:
    """Pages fetched while N tables of search players think (see the module's docstring)."""
    import threading
    serve = Serve(data, 0, engine)
    try:
        conn = serve.connection()
        bots = {i: f"ismcts:{iterations}" for i in range(2, players + 1)}
        tables = [open_table(conn, key, players, seed + i, bots) for i in range(n)]
        stop = threading.Event()
        person_moves = [0]

        def drive() -> None:  # the person at every table moves as soon as it may
            c = serve.connection()
            rng = random.Random(seed)
            while not stop.is_set():
                waiting = True
                for tid, tokens in tables:
                    tok = tokens[1]
                    _, _, body = request(c, "GET", f"/api/t/{tid}/seat/1?token={tok}")
                    a = json.loads(body)
                    if a["moves"]:
                        request(c, "POST", f"/api/t/{tid}/seat/1/move?token={tok}",
                                json.dumps({"move": rng.choice(a["moves"]), "version": a["version"]}).encode(),
                                {"Content-Type": "application/json"})
                        person_moves[0] += 1
                        waiting = False
                if waiting:
                    stop.wait(0.2)
            c.close()

        driver = threading.Thread(target=drive, daemon=True)
        driver.start()
        tid, tokens = tables[0]
        request(conn, "GET", "/")  # the first list loads every ruleset: not counted
        page_ms: list[float] = []
        index_ms: list[float] = []
        sampler = serve.connection()
        start = time.perf_counter()
        errors = 0
        while time.perf_counter() - start < seconds:
            for path, out in ((f"/t/{tid}/seat/1?token={tokens[1]}", page_ms), ("/", index_ms)):
                t0 = time.perf_counter()
                status, _, _ = request(sampler, "GET", path)
                out.append((time.perf_counter() - t0) * 1000)
                errors += status != 200
                time.sleep(0.05)
        stop.set()
        driver.join(30)
        moves = 0
        conn.close()
        conn = serve.connection()  # the first one has been idle past the server's keep-alive
        for tid, tokens in tables:
            _, _, body = request(conn, "GET", f"/api/t/{tid}/seat/1?token={tokens[1]}")
            moves += json.loads(body)["version"]
        conn.close()
        sampler.close()
    finally:
        serve.stop()
    print(f"\nPages while {n} tables of search players think ({key}, a person and {players - 1} ismcts:{iterations} "
          f"each; {seconds:.0f} s, {moves - person_moves[0]} bot moves, {person_moves[0]} person moves, "
          f"{errors} errors), in ms:")
    print(f"  a person's page:      {percentiles(page_ms)}")
    print(f"  the list of tables:   {percentiles(index_ms)}")


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=300, help="moves timed each way (default 300)")
    ap.add_argument("--tables", type=int, default=50, help="tables of bots playing at once (default 50)")
    ap.add_argument("--ruleset", default="ganjifa/ganjifa", help="a bundled game's key (default ganjifa/ganjifa)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bot", default="random", help="the bots of the tables of bots (random or greedy)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-round-trip", action="store_true")
    ap.add_argument("--skip-tables", action="store_true")
    ap.add_argument("--thinking", type=int, default=20, help="tables of search players thinking (default 20)")
    ap.add_argument("--iterations", type=int, default=2000, help="the search players' iterations (default 2000)")
    ap.add_argument("--seconds", type=float, default=30, help="how long pages are fetched meanwhile (default 30)")
    ap.add_argument("--skip-thinking", action="store_true")
    ap.add_argument("--engine", default="auto", help="the server's --engine; 'both': the round trip on python and "
                    "native in turn, --rounds times (default auto)")
    ap.add_argument("--rounds", type=int, default=1, help="with --engine both, rounds of the two (default 1)")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) before: {load()}")
    with tempfile.TemporaryDirectory(prefix="cardrules-web-bench-") as tmp:
        if not a.skip_round_trip:
            engines = ["python", "native"] * a.rounds if a.engine == "both" else [a.engine]
            for k, engine in enumerate(engines):
                data = Path(tmp) / f"round-trip-{k}"
                data.mkdir()
                serve = Serve(data, 0, engine)
                if len(engines) > 1:
                    print(f"\n--engine {engine}")
                try:
                    round_trips(serve, a.ruleset, a.players, a.moves, a.seed)
                finally:
                    serve.stop()
        if not a.skip_tables:
            data = Path(tmp) / "bots"
            data.mkdir()
            bot_tables(data, a.ruleset, a.players, a.tables, a.bot, a.seed, "native" if a.engine == "both" else a.engine)
        if not a.skip_thinking:
            data = Path(tmp) / "thinking"
            data.mkdir()
            thinking(data, a.ruleset, a.players, a.thinking, a.iterations, a.seconds, a.seed,
                     "native" if a.engine == "both" else a.engine)
    print(f"\nload average (1, 5, 15 min) after: {load()}")


if __name__ == "__main__":
    main()
