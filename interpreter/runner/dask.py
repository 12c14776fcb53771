"""The cluster backend: the same chunks, sent to a Dask distributed scheduler (`--cluster
tcp://HOST:PORT`, or CARDRULES_CLUSTER). Imported only for a cluster, so the core install
needs no Dask (the `cluster` extra brings it).

Every worker needs cardrules installed (the same version), nothing else: a task carries its
rulesets' texts. The scheduler re-runs the tasks of a worker that dies on another one; a chunk
is pure and keyed by its place in the run, so its result counts once whoever computed it."""

from __future__ import annotations

import dataclasses
import sys
import uuid

import distributed

from ..errors import OptionError
from .tasks import Collector, Interrupted, Runner, Task, WorkersLost, execute


def _source(source):
    """A ruleset's texts as a task of its own: computed again wherever a worker lost it."""
    return source


def _execute(task: Task, *sources):
    return execute(dataclasses.replace(task, sources=sources))


class DaskRunner(Runner):
    def __init__(self, address: str, timeout: float):
        self.address = address
        try:
            self.client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except Exception as e:  # OSError, TimeoutError, ValueError for a malformed address, ...
            why = " ".join(str(e).split()) or type(e).__name__
            raise OptionError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({why})") from None
        threads = sum(self.client.nthreads().values())
        self.parallelism = max(1, threads)
        if not threads:
            print(f"the Dask scheduler at {address} has no workers yet: the games wait for one", file=sys.stderr)
        self.run_id = uuid.uuid4().hex[:12]

    def run(self, tasks: list[Task], advance=None, stop=None, each=None) -> dict:
        c = Collector(tasks, advance, stop, each)
        futures = {}
        texts: dict = {}   # each ruleset's texts go to the scheduler once, as a task the chunks depend on
        for t in sorted(tasks, key=lambda t: t.key):
            deps = []
            for src in t.sources:
                if src.key not in texts:
                    texts[src.key] = self.client.submit(_source, src, key=f"cardrules-source-{self.run_id}-{len(texts)}",
                                                        pure=False)
                deps.append(texts[src.key])
            f = self.client.submit(_execute, dataclasses.replace(t, sources=()), *deps,
                                   key=f"cardrules-{t.function.__name__}-{self.run_id}-{t.key}", pure=False)
            futures[f.key] = (f, t)
        try:
            for f in distributed.as_completed([f for f, _ in futures.values()], loop=self.client.loop):
                _, task = futures[f.key]
                if f.cancelled() or not c.needed(task.key):
                    continue
                try:
                    result = f.result()
                except distributed.KilledWorker as e:
                    raise WorkersLost(f"the cluster's workers kept dying while playing chunk {task.key + 1} ({e})") from None
                except ModuleNotFoundError as e:
                    raise WorkersLost(f"a worker of the cluster cannot import cardrules ({e}): install it, "
                                      "the same version, on every worker") from None
                c.add(task, result)
                if c.stop_key is not None:
                    self.client.cancel([g for g, t in futures.values() if not c.needed(t.key) and not g.done()])
                if c.finished():
                    break
        except KeyboardInterrupt:
            self._cancel(futures)
            raise Interrupted(dict(c.results)) from None
        except BaseException:
            self._cancel(futures)
            raise
        self._cancel(futures)
        return c.results

    def _cancel(self, futures: dict) -> None:
        left = [f for f, _ in futures.values() if not f.done()]
        if left:
            try:
                self.client.cancel(left)
            except Exception:
                pass

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        except Exception:
            pass
