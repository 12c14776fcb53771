"""Which runner a command gets from --workers and --cluster (or CARDRULES_CLUSTER): none (the
command's own loop), a pool of local processes, or a Dask client; and the progress bar the
commands draw."""

from __future__ import annotations

import os

from ..errors import OptionError
from .tasks import CLUSTER_ENV, CONNECT_TIMEOUT, TIMEOUT_ENV, Runner


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
