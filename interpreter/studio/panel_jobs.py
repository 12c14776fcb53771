"""The measure panels' background work: a balance comparison or a fuzzing run, each in a
process of its own beside the server.

Why a process and not a thread: the games hold Python's lock (a thread of the server would make
every page wait, as `web/thinkers.py` explains for the bots), and a process can be stopped at
once, whatever it is doing (a thread cannot be interrupted inside a long game). The process gets
the rule graphs themselves (they pickle; nothing is read again from disk, so an edit not yet
saved is what is measured), sends its progress and, at the end, its result through a pipe; a
thread of the server reads the pipe and keeps the job's state for the page to poll. Stop ends
the process (terminate, then kill), so nothing half-done is ever kept: a job's result is set in
one step, only when its process sent all of it. The process ends with the server
(`processes.die_with`) and runs at a lower priority than the server, so pages come first.

A fuzz finding's shrunk reproduction is a game record; to open it in the replay view of the
mounted table, the record is written to a scratch folder with a snapshot of the ruleset texts it
was played on (the file and its bases, laid out so that the variant finds its base) and added to
the table's record files (`Web.records`), which the replay view opens by index."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..processes import context, die_with, lower_priority

PROGRESS_EVERY = 0.1     # seconds between two progress messages from a job's process
# imported once by the fork server (when this is the first to start it), so a job starts warm
PRELOAD = ["interpreter.studio.panel_jobs", "interpreter.balance", "interpreter.fuzz"]
STOP_GRACE = 0.5         # seconds a stopped process has to end after SIGTERM before SIGKILL


# ------------------------------------------------------------------ in the job's process

def _start_child(conn, parent: int) -> None:
    die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    lower_priority()


def _sender(conn):
    """progress(done, total, text) sending at most every PROGRESS_EVERY seconds (and always the last)."""
    last = [0.0]

    def progress(done: int, total: int, text: str = "", force: bool = False) -> None:
        now = time.monotonic()
        if force or done >= total or now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            conn.send(("progress", done, total, text))
    return progress


def balance_child(conn, parent: int, configs: list, games: int, seed: int, strong: str | None,
                  engine: str) -> None:
    """Play `balance --against`'s games and send back the report (its own HTML, plots inside)."""
    _start_child(conn, parent)
    from ..balance import GameFailed, engine_line, make_report, render_html, runs_of
    from ..balance.equilibria import strong_players
    from ..engine import program_of
    from ..errors import CardRulesError, OptionError
    from ..engines import choose
    send = _sender(conn)
    total = sum(k for _, k in runs_of(configs, games, strong, games))
    try:
        send(0, total, "preparing the engine", force=True)
        choice = choose([program_of(c.rs) for c in configs], engine, players=True)
        # the skill question's player: under auto, the strongest each side's game allows, as the command's
        strong, why = strong_players(configs, strong, choice, engine)
        name, line = engine_line(choice, engine, runs_of(configs, games, strong, games))
        done = [0]

        def advance(n: int = 1) -> None:
            done[0] += n
            send(done[0], total, "playing")
        send(0, total, line, force=True)
        data, facts = make_report(configs, games, seed, strong, games, advance, None, name, strong_why=why)
        send(total, total, "drawing the plots", force=True)
        html = render_html(data, facts)
        conn.send(("done", {"html": html, "data": data, "engine": line, "summary": balance_summary(data)}))
    except (GameFailed, OptionError) as e:
        conn.send(("failed", e.message))
    except CardRulesError as e:
        conn.send(("failed", e.render()))
    except Exception as e:  # a bug: the panel says so in one line, the server goes on
        conn.send(("failed", f"the comparison failed: {type(e).__name__}: {e}"))


def balance_summary(data: dict) -> list[str]:
    """The lines `cardrules balance` prints after a report: each configuration, then the comparison."""
    from ..balance.summary import loss_text
    lines = []
    for r in data["configurations"]:
        seats = ", ".join(f"{s} {w['rate'] * 100:.1f}%" for s, w in r["win_rate"].items())
        lines.append(f"{r['configuration']}: {r['games']} games; won: {seats}{loss_text(r)}; {r['fairness']['verdict']}")
        if r.get("skill"):
            s = r["skill"]
            lines.append(f"skill: {s['strong']} won {s['win_rate'] * 100:.1f}% against {s['others']}: {s['verdict']}")
    for c in data["comparisons"]:
        sig = [row["statistic"] for row in c["rows"] if row["significant"]]
        lines.append(f"{c['b']} against {c['a']}: " + (
            f"significant differences in {len(sig)} statistic{'s' if len(sig) != 1 else ''}: " + "; ".join(sig)
            if sig else "no significant difference"))
    return lines


def fuzz_child(conn, parent: int, path: str, rs, games: int, seed: int) -> None:
    """Fuzz the ruleset as `cardrules fuzz` does, on the Python engine (a version just edited is
    fuzzed at once, with no C to build first; the findings are those of the command, whose auto
    plays in C) and send back the findings, each reproduction with how many of its moves replay (a runtime error's
    last move fails: the replay view shows the moment before it)."""
    _start_child(conn, parent)
    from ..errors import CardRulesError
    from ..fuzz import Fuzzer
    send = _sender(conn)
    try:
        fuzzer = None
        calls = [0]

        def progress(text: str) -> None:
            calls[0] += 1
            n = len(fuzzer.configs) if fuzzer is not None else 1
            send(min(calls[0], n), n + 1, text.partition(": ")[2] or text, force=True)
        fuzzer = Fuzzer(path, rs, games, None, seed, progress)
        send(0, len(fuzzer.configs) + 1, "playing", force=True)
        report = fuzzer.run()
        findings = []
        for f in report.findings:
            item = f.to_json()
            r = f.reproduction
            if r is not None:
                item["records"] = [{"label": "", "record": r.record, "steps": _replayable(rs, r.record)}]
                item["records"] += [{"label": label, "record": rec, "steps": _replayable(rs, rec)}
                                    for label, rec, _ in r.extra]
            findings.append(item)
        conn.send(("done", {"report": report.to_json(), "findings": findings}))
    except CardRulesError as e:
        conn.send(("failed", e.render()))
    except Exception as e:
        conn.send(("failed", f"the fuzzer failed: {type(e).__name__}: {e}"))


def _replayable(rs, record: dict) -> int:
    """How many of a record's moves replay (all of them, unless the last one makes the rules fail)."""
    from .. import engine
    from ..engine import Move
    from ..errors import CardRulesError
    try:
        s = engine.new_game(rs, record["players"], record["options"], record["seed"])
    except CardRulesError:
        return 0
    for i, entry in enumerate(record["moves"]):
        try:
            engine.apply(s, Move.parse(entry["move"], int(entry["player"][1:]) - 1))
        except (CardRulesError, ValueError, KeyError):
            return i
    return len(record["moves"])


# ------------------------------------------------------------------ in the server

@dataclass
class Job:
    """One run of a panel for one file: its process, how far it got, and its result."""

    kind: str                      # "balance" or "fuzz"
    path: str                      # the file, as the studio names it
    total: int = 0                 # steps of the progress bar (games, or configurations + 1)
    done: int = 0
    state: str = "starting"        # starting, running, done, stopped, failed
    message: str = ""              # what the job is doing, or why it failed
    parts: list = field(default_factory=list)   # balance: [{label, games, skill}] in the order played
    result: dict | None = None     # set once, complete, when the process sent it
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    on_done: object = None         # called (in the reader thread) with the result before it is kept
    _process: object = None
    _conn: object = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def running(self) -> bool:
        return self.state in ("starting", "running")

    def status(self) -> dict:
        """The job as the page polls it (the result itself is asked for apart: it may be large)."""
        end = self.ended if self.ended is not None else time.monotonic()
        return {"kind": self.kind, "path": self.path, "state": self.state, "done": self.done, "total": self.total,
                "message": self.message, "seconds": round(end - self.started, 2), "has_result": self.result is not None,
                "parts": self.parts}

    def start(self, target, *args) -> None:
        """Start the process (`target(conn, server_pid, *args)`) and the thread that reads its pipe."""
        ctx = context(PRELOAD)
        mine, theirs = ctx.Pipe(duplex=False)
        p = ctx.Process(target=target, args=(theirs, os.getpid()) + args, name=f"cardrules-{self.kind}",
                        daemon=True)
        p.start()
        theirs.close()
        with self._lock:
            self._process, self._conn = p, mine
            stopped = self.state == "stopped"   # Stop came while the process was starting
            if self.state == "starting":
                self.state = "running"
        if stopped:
            p.kill()
            p.join(STOP_GRACE)
            mine.close()
            return
        threading.Thread(target=self._read, name=f"cardrules-{self.kind}-reader", daemon=True).start()

    def _read(self) -> None:
        conn = self._conn
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                self._finish("failed", "the work ended before it finished (its process died)", None)
                break
            except Exception as e:  # a message that does not unpickle
                self._finish("failed", f"the work's answer could not be read: {e}", None)
                break
            if msg[0] == "progress":
                with self._lock:
                    if self.running:
                        self.done, self.total, self.message = msg[1], msg[2], msg[3] or self.message
                continue
            if msg[0] == "done":
                result = msg[1]
                try:
                    if self.on_done is not None:
                        result = self.on_done(result)
                except Exception as e:
                    self._finish("failed", f"the result could not be kept: {type(e).__name__}: {e}", None)
                else:
                    self._finish("done", "", result)
            else:
                self._finish("failed", str(msg[1]), None)
            break
        try:
            conn.close()
        except OSError:
            pass
        p = self._process
        if p is not None:
            p.join(2)

    def _finish(self, state: str, message: str, result: dict | None) -> None:
        with self._lock:
            if not self.running:   # stopped meanwhile: what came late is not kept
                return
            self.state, self.message, self.ended = state, message, time.monotonic()
            if state == "done":
                self.done = self.total
                self.result = result

    def stop(self) -> None:
        """End the work now: the process is terminated (killed if it lingers); no result is kept."""
        with self._lock:
            if not self.running:
                return
            self.state, self.ended = "stopped", time.monotonic()
            self.message = f"stopped after {self.done} of {self.total}: nothing kept"
            p = self._process
        if p is not None and p.is_alive():
            p.terminate()
            p.join(STOP_GRACE)
            if p.is_alive():
                p.kill()
                p.join(STOP_GRACE)


class Jobs:
    """The jobs of one studio: the last one of each kind for each file (a finished result stays
    until the next run of that kind starts), at most MAX_RUNNING running at once."""

    MAX_RUNNING = 4

    def __init__(self):
        self._jobs: dict[tuple[str, str], Job] = {}
        self._lock = threading.Lock()

    def get(self, kind: str, path: str) -> Job | None:
        return self._jobs.get((kind, path))

    def begin(self, kind: str, path: str) -> Job | str:
        """A new job for (kind, path), or why it cannot start (one is running)."""
        with self._lock:
            old = self._jobs.get((kind, path))
            if old is not None and old.running:
                return f"a {kind} run of this file is already under way: stop it first"
            if sum(j.running for j in self._jobs.values()) >= self.MAX_RUNNING:
                return f"{self.MAX_RUNNING} runs are already under way: wait for one to finish, or stop one"
            job = self._jobs[(kind, path)] = Job(kind, path)
            return job

    def stop_all(self) -> None:
        for job in list(self._jobs.values()):
            job.stop()


# ------------------------------------------------------------------ records for the replay view

class Snapshots:
    """A scratch folder (removed at exit) for the records of findings and the ruleset texts they
    were played on."""

    def __init__(self):
        self._root: Path | None = None
        self._lock = threading.Lock()
        self._n = 0

    def folder(self) -> Path:
        with self._lock:
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="cardrules-studio-"))
                atexit.register(shutil.rmtree, self._root, True)
            self._n += 1
            out = self._root / f"run{self._n}"
            out.mkdir()
            return out

    def write_ruleset(self, folder: Path, chain: list[tuple[str, str]]) -> Path:
        """Write a ruleset's texts, the file first and then its bases ((name, text) as the studio
        read them), so that each variant finds its base where its header says; the file's path."""
        from ..files import variant_base_ref
        from ..files import write_atomic
        depth = sum(Path(variant_base_ref(text) or "").parts.count("..") for _, text in chain) + 1
        top = folder.joinpath(*["d"] * depth, Path(chain[0][0]).name)
        here, text = top, chain[0][1]
        write_atomic(here, text)
        for _, base_text in chain[1:]:
            ref = variant_base_ref(text)
            if ref is None or Path(ref).is_absolute() or ref.startswith("bundled:"):
                break  # a bundled base: found where cardrules is installed, wherever the text is
            here = Path(os.path.normpath(here.parent / ref))
            if folder not in here.parents:
                break
            write_atomic(here, base_text)
            text = base_text
        return top

    @staticmethod
    def write_record(folder: Path, name: str, record: dict, ruleset: Path) -> Path:
        from ..engine.records import write_record
        path = folder / name
        write_record(dict(record, ruleset=str(ruleset)), path)
        return path
