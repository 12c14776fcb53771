"""Child processes that end with the process they work for.

A worker pool's processes outlive their client when it is killed without a chance to stop them
(`kill -9`, the out-of-memory killer): a worker waits on its call queue forever, and with the
forkserver start method every worker also holds the fork server's "alive" pipe and the resource
tracker's pipe, so those two live on as long as any worker does. All of them keep the dead
command's standard output and error open, and whatever reads that output waits forever.
`die_with` closes that hole from inside each child: it ends the child soon after the process
it works for is gone, however that process died. The fork server and the resource tracker
then see their pipes close and end by themselves.

This module is the ground floor: it imports nothing from the package, so any process (a play
worker, the web table's bots) can use it without importing the engine."""

from __future__ import annotations

import os
import threading
import time
from typing import Sequence

POLL_SECONDS = 0.5     # how often the fallback (no pidfd) looks whether the parent is still there
EXIT_CODE = 1          # the exit status of a child whose parent is gone

_watched: set[int] = set()
_lock = threading.Lock()


def die_with(parent_pid: int) -> None:
    """End this process (os._exit, no clean-up) as soon as `parent_pid` is gone, however it died
    (kill -9 included); at once if it is already gone. Call it inside the child, early.

    Where Linux has pidfd_open (5.3+) a daemon thread waits on the parent's pidfd: exact (it is
    tied to that process, not to a number that may be reused) and immediate, also when the
    parent is a zombie nobody has reaped yet. Elsewhere the thread looks twice a second:
    getppid() when `parent_pid` is this process's parent (it changes when the parent dies),
    else os.kill(pid, 0). The parent need not be this process's direct parent: a forkserver
    worker's parent is the fork server, but it works for the client that started the pool."""
    with _lock:
        if parent_pid in _watched:
            return
        _watched.add(parent_pid)
    fd = _pidfd(parent_pid)
    if fd is not None:
        target, args = _wait_pidfd, (fd,)
    else:
        if not _alive(parent_pid, parent_pid == os.getppid()):
            os._exit(EXIT_CODE)
        target, args = _poll, (parent_pid, parent_pid == os.getppid())
    threading.Thread(target=target, args=args, name=f"die-with-{parent_pid}", daemon=True).start()


def _pidfd(pid: int) -> int | None:
    """A pidfd for `pid` (exits now if there is no such process); None where there are none."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return None
    try:
        fd = pidfd_open(pid)
    except ProcessLookupError:
        os._exit(EXIT_CODE)   # already gone (and reaped)
    except OSError:           # an older kernel (ENOSYS), or a sandbox that forbids it
        return None
    if _readable(fd, 0):      # already ended (a zombie): do not start a thread for that
        os._exit(EXIT_CODE)
    return fd


def _readable(fd: int, timeout: float | None) -> bool:
    """Whether the pidfd says its process ended, waiting up to `timeout` seconds (None: forever)."""
    import select
    if hasattr(select, "poll"):
        p = select.poll()
        p.register(fd, select.POLLIN)
        return bool(p.poll(None if timeout is None else int(timeout * 1000)))
    return bool(select.select([fd], [], [], timeout)[0])


def _wait_pidfd(fd: int) -> None:
    while True:
        try:
            if _readable(fd, None):
                break
        except InterruptedError:  # PEP 475 retries, but be safe on odd platforms
            continue
        except OSError:
            break                 # the fd went bad: do not spin, and do not outlive the parent
    os._exit(EXIT_CODE)


def _alive(pid: int, is_parent: bool) -> bool:
    if is_parent:
        return os.getppid() == pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:   # it exists, under another user
        return True
    except OSError:
        return False
    return True


def _poll(pid: int, is_parent: bool) -> None:
    while _alive(pid, is_parent):
        time.sleep(POLL_SECONDS)
    os._exit(EXIT_CODE)


def context(preload: Sequence[str] = ()):
    """The multiprocessing context the project starts processes with: forkserver where there is
    one (a worker starts at once, forked from a server that imported `preload` once), else spawn.
    Never fork: it copies a process that has threads, locks held and all."""
    import multiprocessing
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        if preload:   # the fork server is one per process: only a caller that preloads sets it
            ctx.set_forkserver_preload(list(preload))
        return ctx
    return multiprocessing.get_context("spawn")


def lower_priority(step: int = 10) -> bool:
    """Make this process nicer (os.nice(step)) so that background work (bots, batches) leaves the
    machine to what a person waits for; False where that cannot be done. Never fails."""
    try:
        os.nice(step)
    except (AttributeError, OSError):
        return False
    return True
