"""A run: tasks (a chunk of items, the rulesets as text, the job's function and its arguments),
cut by `chunks`, run by a `Runner` (here, local worker processes or a Dask cluster), the
results gathered by a `Collector` keyed by task, and how a run ends early (`Interrupted`,
`WorkersLost`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from .. import engines

CLUSTER_ENV = "CARDRULES_CLUSTER"              # the scheduler's address when --cluster is not given
TIMEOUT_ENV = "CARDRULES_CLUSTER_TIMEOUT"      # seconds to wait for the scheduler (default below)
CONNECT_TIMEOUT = 3.0
CHUNKS_PER_WORKER = 8                          # chunks per worker: the load spreads, the bar moves
MAX_CHUNK = 100                                # games in a chunk at most
# ... when every game is played whole in C (random bots on the native engine, 10,000 games a second
# and more): a chunk of 100 is then 5-10 ms, and handing it out costs a worker a good part of that
NATIVE_CHUNK = 5000
# --engine, as every command that plays declares it (runner/native.py chooses)
ENGINE_HELP = ("Which engine plays: native (the ruleset compiled to C: needs a C compiler), python, or auto "
               "(native where it can be built, else Python). The games are the same on both.")


class Interrupted(Exception):
    """Ctrl-C during a run: `done` holds the results of the tasks that had finished, by key."""

    def __init__(self, done: dict):
        super().__init__("interrupted")
        self.done = done


class WorkersLost(Exception):
    """Worker processes kept dying under a task: the run cannot finish."""


@dataclass(frozen=True)
class Task:
    """One chunk of a run. `key` orders the results; `items` are what `function` works on."""

    key: int
    function: Callable     # a module-level function (workers import it by name): the job's own
    sources: tuple
    items: tuple
    args: dict = field(default_factory=dict)


def execute(task: Task):
    """Run one task (in a worker, or here): its job's function on its chunk."""
    return task.function(task.sources, task.items, task.args)


def say_workers(done: dict) -> None:
    """The one line on standard error when workers played in Python though native was chosen
    (engines.on_worker: no C compiler on their machine)."""
    line = engines.worker_line(r.get("note") for r in done.values() if isinstance(r, dict))
    if line is not None:
        import sys
        print(line, file=sys.stderr)


def chunks(n: int, parallelism: int, most: int = MAX_CHUNK) -> list[range]:
    """0..n-1 cut into contiguous chunks, about CHUNKS_PER_WORKER per worker and none of more
    than `most` items (Ctrl-C keeps the chunks that finished)."""
    if n <= 0:
        return []
    size = min(most, max(1, math.ceil(n / max(1, parallelism * CHUNKS_PER_WORKER))))
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


# ------------------------------------------------------------------ runners

class Runner:
    """A backend that plays tasks somewhere and hands back their results."""

    parallelism = 1   # how many chunks it plays at once

    def run(self, tasks: list[Task], advance: Callable[[int], None] | None = None,
            stop: Callable[[object], bool] | None = None,
            each: Callable[[Task, object], None] | None = None) -> dict:
        """Play every task; {key: result}. advance(n) as a chunk of n items finishes, each(task,
        result) as its result arrives here (in the order they finish)."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Collector:
    """The bookkeeping every backend shares: results by key, the progress bar, and the lowest
    key whose result stops the run (the tasks after it are not needed)."""

    def __init__(self, tasks: list[Task], advance, stop, each=None):
        self.tasks = {t.key: t for t in tasks}
        self.results: dict = {}
        self.advance = advance
        self.stop = stop
        self.each = each
        self.stop_key: int | None = None

    def add(self, task: Task, result) -> None:
        if task.key in self.results:
            return  # played twice (a worker lost after it had finished): the first result stands
        self.results[task.key] = result
        if self.each is not None:
            self.each(task, result)
        if self.advance is not None:
            self.advance(len(task.items))
        if self.stop is not None and self.stop(result) and (self.stop_key is None or task.key < self.stop_key):
            self.stop_key = task.key

    def needed(self, key: int) -> bool:
        return key not in self.results and (self.stop_key is None or key < self.stop_key)

    def finished(self) -> bool:
        return not any(self.needed(k) for k in self.tasks)
