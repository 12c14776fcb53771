"""The local backend: a pool of worker processes on this machine (forkserver where there is one,
else spawn; never fork, which copies a process with threads). Workers ignore Ctrl-C: this
process takes it, stops the pool and keeps what finished. A worker that dies (killed, out of
memory) breaks the pool; a new pool plays the chunks that had not come back, so no game is lost
or counted twice (results are keyed by chunk), up to MAX_RESTARTS times.

While the pool starts (a second or so: a fresh interpreter that imports the engine), this
process plays the first chunks itself. With the default number of workers (`probe`) the pool
is started only when the run has lasted PROBE_SECONDS: a short run never starts processes."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..processes import context, die_with
from .tasks import Collector, Interrupted, Runner, Task, WorkersLost, execute

PROBE_SECONDS = 0.5
MAX_RESTARTS = 3


def _worker_init(client: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the pool stops its workers so; the command's own answer is the parent's)
    die_with(client)  # a client killed outright (kill -9) leaves no worker behind, so neither the
    # fork server nor the resource tracker (they end when the last worker holding their pipes does)


def _ready() -> None:
    """A task that only proves a worker process is up."""


class LocalRunner(Runner):
    def __init__(self, workers: int, probe: bool = False):
        self.parallelism = workers
        self.probe = probe
        self.pool: ProcessPoolExecutor | None = None
        self._up = threading.Event()         # the pool's processes have started
        self._starter: threading.Thread | None = None
        self._leftover = False               # chunks still running that nobody needs

    def _start_pool(self, tasks: list[Task]) -> None:
        """Start the worker processes in the background (this process plays meanwhile). The
        modules of the tasks' functions are imported once by the fork server, so that workers
        start at once."""
        if self._starter is not None:
            return
        preload = sorted({t.function.__module__ for t in tasks})
        self.pool = pool = ProcessPoolExecutor(max_workers=self.parallelism, mp_context=context(preload),
                                               initializer=_worker_init, initargs=(os.getpid(),))

        def start() -> None:
            try:
                wait([pool.submit(_ready) for _ in range(self.parallelism)])
            except Exception:  # shut down meanwhile (Ctrl-C), or broken: the run finds out
                pass
            finally:
                self._up.set()

        self._starter = threading.Thread(target=start, name="cardrules-pool-start", daemon=True)
        self._starter.start()

    def run(self, tasks: list[Task], advance=None, stop=None, each=None) -> dict:
        c = Collector(tasks, advance, stop, each)
        todo = deque(sorted(tasks, key=lambda t: t.key))
        t0 = time.monotonic()
        try:
            if not self.probe:
                self._start_pool(tasks)
            while todo and not c.finished() and not self._up.is_set():
                if self._starter is None and time.monotonic() - t0 >= PROBE_SECONDS:
                    self._start_pool(tasks)
                task = todo.popleft()
                if c.needed(task.key):
                    c.add(task, execute(task))
            restarts = 0
            while not c.finished():
                self._start_pool(tasks)
                self._starter.join()
                lost = self._play(c, [t for t in todo if c.needed(t.key)])
                if not lost:
                    break
                restarts += 1
                self._kill()
                if restarts > MAX_RESTARTS:
                    raise WorkersLost(f"worker processes died {restarts} times while playing; "
                                      f"{len(lost)} chunk(s) could not be finished")
        except KeyboardInterrupt:
            self._kill()
            raise Interrupted(dict(c.results)) from None
        except BaseException:
            self._kill()
            raise
        return c.results

    def _play(self, c: Collector, todo: list[Task]) -> list[Task]:
        """Submit the chunks and collect them; the chunks a broken pool lost, to play again."""
        pool = self.pool
        pending = {}
        lost: list[Task] = []
        for t in todo:
            try:
                pending[pool.submit(execute, t)] = t
            except BrokenProcessPool:
                lost.append(t)
        while pending:
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                task = pending.pop(f)
                try:
                    result = f.result()
                except CancelledError:
                    continue
                except BrokenProcessPool:
                    lost.append(task)
                    continue
                c.add(task, result)
            if c.stop_key is not None:
                for f, task in list(pending.items()):
                    if not c.needed(task.key) and f.cancel():
                        del pending[f]
            if c.finished():
                break
        self._leftover = bool(pending)
        return [t for t in lost if c.needed(t.key)]

    def _kill(self) -> None:
        """Stop the pool now: cancel what has not started and end the worker processes."""
        pool, self.pool = self.pool, None
        starter, self._starter = self._starter, None
        if pool is None:
            return
        if starter is not None:
            starter.join(10)  # it may be starting a process: let it, so that the process is ended too
        procs = list((getattr(pool, "_processes", None) or {}).values())
        calls = getattr(pool, "_call_queue", None)
        if calls is not None:  # its feeder may be stuck writing a task to a worker that is gone:
            calls.cancel_join_thread()  # do not wait for it at exit
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(5)
        self._up.clear()

    def close(self) -> None:
        if self._leftover:  # chunks nobody needs any more (after a game broke): do not wait for them
            self._kill()
            return
        pool, self.pool = self.pool, None
        if self._starter is not None:
            self._starter.join()
            self._starter = None
        if pool is not None:
            pool.shutdown(wait=True)
