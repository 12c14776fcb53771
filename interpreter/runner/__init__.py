"""Playing many games at once: on every core of this machine, or on a Dask cluster.

A run is a list of tasks. A `Task` carries the rulesets it needs as text (a `Source`: the
file's text and its bases' texts, under the names this machine knows them by, so that errors,
locations and records read the same wherever the task runs and no worker reads the client's
disk), the job's worker function itself (a module-level function of the command that runs the
job, which a worker imports by its name: the runner knows no job), a chunk of items (game
indexes, or ruleset files) and plain arguments; the function returns plain data. A game's seed
is fixed by the master seed and its index, so a result does not depend on which process played
it: the caller gets the results keyed by task and puts them back in order before it summarises.

`open_runner(workers, cluster)` picks the backend: None when everything stays in this process
(`--workers 1`: the command's own loop), a Dask client (`dask.py`, imported only then) for a
cluster, else a process pool on this machine (`local.py`). `Runner.run(tasks, advance, stop)`
plays the tasks and returns {key: result}; `stop(result)` true means the tasks after that one
are not needed (a game that broke); Ctrl-C raises `Interrupted` with the results so far.

The parts: `sources` (rulesets as text), `tasks` (tasks, chunks, the runner's interface and the
collector), `choice` (which runner, and the progress bar), `local` and `dask` (the backends),
`native` (games played whole in C on a worker). This module only names the room's public names."""

from .choice import cluster_address, cores_here, open_runner, parse_workers, progress_bar
from .sources import Source, load, remember, source_of
from .tasks import (CHUNKS_PER_WORKER, CLUSTER_ENV, CONNECT_TIMEOUT, ENGINE_HELP, MAX_CHUNK, NATIVE_CHUNK, TIMEOUT_ENV,
                    Collector, Interrupted, Runner, Task, WorkersLost, chunks, execute, say_workers)

__all__ = ["CHUNKS_PER_WORKER", "CLUSTER_ENV", "CONNECT_TIMEOUT", "ENGINE_HELP", "MAX_CHUNK", "NATIVE_CHUNK",
           "TIMEOUT_ENV", "Collector", "Interrupted", "Runner", "Source", "Task", "WorkersLost", "chunks",
           "cluster_address", "cores_here", "execute", "load", "open_runner", "parse_workers", "progress_bar",
           "remember", "say_workers", "source_of"]
