"""Playing many games at once: on every core of this machine, or on a Dask cluster.

A run is a list of tasks. A `Task` carries the rulesets it needs as text (a `Source`: the
file's text and its bases' texts, under the names this machine knows them by, so that errors,
locations and records read the same wherever the task runs and no worker reads the client's
disk), the job's worker function itself (a module-level function of the command that runs the
job, which a worker imports by its name: the runner knows no job), a chunk of items (game
indexes, or ruleset files) and plain arguments; the function returns plain data. A game's seed is fixed
by the master seed and its index, so a result does not depend on which process played it:
the caller gets the results keyed by task and puts them back in order before it summarises.

`open_runner(workers, cluster)` picks the backend: None when everything stays in this process
(`--workers 1`: the command's own loop), a Dask client (`dask.py`, imported only then) for a
cluster, else a process pool on this machine (`local.py`). `Runner.run(tasks, advance, stop)`
plays the tasks and returns {key: result}; `stop(result)` true means the tasks after that one
are not needed (a game that broke); Ctrl-C raises `Interrupted` with the results so far."""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import engines
from ..errors import OptionError, RulesetError

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


# ------------------------------------------------------------------ rulesets as text

@dataclass(frozen=True)
class Source:
    """A ruleset as text: `filename` as this machine names it (errors and locations say it),
    its text, and a variant's bases as (filename, text), nearest first."""

    filename: str
    text: str
    bases: tuple = ()

    @property
    def key(self) -> str:
        h = hashlib.sha256()
        for name, text in ((self.filename, self.text),) + tuple(self.bases):
            h.update(f"{len(name)}:{name}{len(text)}:".encode())
            h.update(text.encode("utf-8", "surrogatepass"))
        return h.hexdigest()


def source_of(path: str | Path) -> Source:
    """Read a ruleset file and the bases it draws on. The name is the one `load_ruleset` uses
    (a bundled game's name becomes its file); a file that cannot be read raises RulesetError
    worded as `load_ruleset` words it."""
    from ..bundled import base_file
    from ..files import variant_base_ref
    from ..language.build import read_text
    from ..files import NotARulesetFile, check_ruleset_name, read_ruleset_file
    path = Path(path)
    display = str(path)
    try:
        check_ruleset_name(path)
    except NotARulesetFile as e:
        raise e.file_error(display) from None
    if not os.path.exists(path):
        from ..bundled import resolve
        try:
            path = resolve(path)
        except OptionError as e:
            raise RulesetError(e.message, display) from None
        display = str(path)
    text = read_text(path, display)
    bases: list[tuple[str, str]] = []
    name, current = display, text
    while len(bases) < 20:
        ref = variant_base_ref(current)
        if ref is None:
            break
        base = str(base_file(ref, name))
        if base == display or any(base == b for b, _ in bases):
            break  # a cycle: the worker's build says so, as load_ruleset would
        try:
            current = read_ruleset_file(base)
        except NotARulesetFile:
            break  # missing, a folder, a device, a name no file can have: the worker's build says which
        bases.append((base, current))
        name = base
    return Source(display, text, tuple(bases))


_LOADED: dict[str, object] = {}   # Source.key -> Ruleset, in this process (a worker builds each once)
_KEEP = 16


def load(source: Source):
    """The ruleset of a Source, built from its texts (CardRulesError when it is invalid)."""
    rs = _LOADED.get(source.key)
    if rs is None:
        from .. import loads_ruleset
        rs = loads_ruleset(source.text, source.filename, dict(source.bases))
        remember(source, rs)
    return rs


def remember(source: Source, rs) -> None:
    """Keep a ruleset already loaded from this source (the client's own, for tasks it plays itself)."""
    _LOADED[source.key] = rs
    while len(_LOADED) > _KEEP:
        del _LOADED[next(iter(_LOADED))]


# ------------------------------------------------------------------ tasks

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


def parse_workers(workers: int | None) -> int | None:
    """--workers: None (the default: every core, small runs in this process), or N >= 1."""
    if workers is not None and workers < 1:
        raise OptionError(f"--workers must be 1 or more (the number of processes to play in), not {workers}")
    return workers


def cluster_address(cluster: str | None) -> str | None:
    address = cluster if cluster is not None else os.environ.get(CLUSTER_ENV)
    address = (address or "").strip()
    return address or None


def open_runner(workers: int | None, cluster: str | None) -> Runner | None:
    """The backend for --workers and --cluster (or CARDRULES_CLUSTER); None to keep everything
    in this process, the command's own loop (--workers 1, or one core). OptionError (exit 2)
    for a bad --workers, a cluster without Dask installed, or a scheduler that cannot be reached."""
    workers = parse_workers(workers)
    if workers == 1:
        return None
    address = cluster_address(cluster)
    if address is not None:
        try:
            from .dask import DaskRunner
        except ImportError as e:
            raise OptionError(f"--cluster needs Dask distributed ({e}): pip install 'cardrules[cluster]'") from None
        timeout = _timeout()
        return DaskRunner(address, timeout)
    from .local import LocalRunner
    if workers is None:
        cores = cores_here()
        return None if cores == 1 else LocalRunner(cores, probe=True)
    return LocalRunner(workers, probe=False)


def cores_here() -> int:
    """The cores this process may run on (os.cpu_count() where affinity cannot be told)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _timeout() -> float:
    raw = os.environ.get(TIMEOUT_ENV)
    try:
        value = float(raw) if raw else CONNECT_TIMEOUT
    except ValueError:
        raise OptionError(f"{TIMEOUT_ENV} must be a number of seconds, not {raw!r}") from None
    return value if value > 0 else CONNECT_TIMEOUT


def progress_bar(total: int, show: bool, label: str = "playing"):
    """The rich bar the commands draw on standard error; advance(n) as chunks finish."""
    import sys

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(file=sys.stderr), transient=False, disable=not show)
    return bar
