"""Child processes in the tests: none waits forever, none outlives its test.

Each child starts in a session of its own (`start_new_session=True`), so it and everything it
starts (a worker pool's fork server, workers and resource tracker) share one process group that
the test can end in one call, whatever became of the child itself. Every wait has a timeout;
when it runs out the whole group gets SIGKILL, and the wait after that is bounded too (a
process that left the group could hold the pipes open forever: then they are closed unread).

`ctrl_c=True` is for a test that sends SIGINT: the child gets SIGINT back at its default
whatever this process inherited. A suite started as a background job (`bash .ci/run &`) runs
with SIGINT ignored, an ignored signal stays ignored across fork and exec, and Python then
leaves it ignored: the test's Ctrl-C would never arrive. The child is started through a tiny
Python trampoline that sets SIG_DFL and execs the real command (same pid, so the test's signal
reaches it, and the command's own Python then installs its KeyboardInterrupt handler). Not
`preexec_fn`: it runs Python between fork and exec, which the subprocess docs call unsafe when
this process has threads (a Dask cluster's, in tests/runner/test_workers.py), and a shell cannot do it
(`trap - INT` cannot undo a signal ignored on entry)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

KILL_WAIT = 10.0   # seconds to wait for a killed group to let go of the pipes

_SIGINT_DEFAULT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                   "os.execvp(sys.argv[1], sys.argv[1:])")


def start(args, *, ctrl_c: bool = False, **kw) -> subprocess.Popen:
    """subprocess.Popen(args, **kw) in a new session (its pid is its process group's id)."""
    args = [str(a) for a in args]
    if ctrl_c:
        args = [sys.executable, "-c", _SIGINT_DEFAULT, *args]
    return subprocess.Popen(args, start_new_session=True, **kw)


def kill(proc: subprocess.Popen) -> None:
    """SIGKILL to the child's whole process group, then reap it and drain its pipes, within
    KILL_WAIT seconds (more than that: the pipes are closed unread). Harmless when it has ended."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass   # nothing left in the group
    try:
        proc.communicate(timeout=KILL_WAIT)
    except subprocess.TimeoutExpired:   # a process outside the group holds the pipes
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                f.close()
        try:
            proc.wait(timeout=KILL_WAIT)
        except subprocess.TimeoutExpired:
            pass
    except (ValueError, OSError):       # its pipes were closed already
        try:
            proc.wait(timeout=KILL_WAIT)
        except subprocess.TimeoutExpired:
            pass


def finish(proc: subprocess.Popen, timeout: float, input=None) -> tuple:
    """proc.communicate(input) within `timeout` seconds: (stdout, stderr). The processes its
    group still holds afterwards are ended. On timeout the whole group is killed and
    subprocess.TimeoutExpired is raised (with the output so far)."""
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        kill(proc)
        raise subprocess.TimeoutExpired(proc.args, timeout, e.output, e.stderr) from None
    except BaseException:
        kill(proc)
        raise
    kill(proc)   # what it left in its group (its pipes are closed, so this is quick)
    return out, err


def run(args, *, timeout: float, input=None, capture_output: bool = False, check: bool = False,
        ctrl_c: bool = False, **kw) -> subprocess.CompletedProcess:
    """subprocess.run with a required timeout that kills the child's whole process group."""
    if capture_output:
        kw["stdout"] = kw["stderr"] = subprocess.PIPE
    if input is not None:
        kw["stdin"] = subprocess.PIPE
    proc = start(args, ctrl_c=ctrl_c, **kw)
    out, err = finish(proc, timeout, input)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    if check:
        done.check_returncode()
    return done


@contextmanager
def started(args, **kw):
    """start(args, **kw) for the length of a with block; its group is killed when the block ends."""
    proc = start(args, **kw)
    try:
        yield proc
    finally:
        kill(proc)


# ------------------------------------------------------------------ who is still there (Linux /proc)

def has_proc() -> bool:
    return Path("/proc/self/stat").is_file()


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, ppid, pgid, sid) of a process from /proc, None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    fields = raw[raw.rindex(")") + 2:].split()   # the name may hold spaces and parentheses
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3])


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def family(leader: int, *, zombies: bool = False) -> dict[int, str]:
    """{pid: command line} of the living processes that belong to `leader`: in its session or
    process group, or descended from it. Zombies (ended, not yet reaped) count only if asked."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                stats[int(entry.name)] = st
    found = {pid for pid, (_, _, pgid, sid) in stats.items() if leader in (pgid, sid)}
    children: dict[int, list[int]] = {}
    for pid, (_, ppid, _, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    todo = [leader]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    if leader in stats:
        found.add(leader)
    return {pid: command(pid) for pid in sorted(found)
            if pid in stats and (zombies or stats[pid][0] not in ("Z", "X"))}


def alive(pid: int) -> bool:
    """Whether a process is there and has not ended (a zombie has: it holds nothing any more)."""
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def lines(stream) -> "queue.Queue":
    """The lines of a stream, read by a daemon thread into a queue (None at its end), so that a
    test waits for a line with queue.get(timeout=...), never forever."""
    import queue
    import threading
    q: queue.Queue = queue.Queue()

    def pump() -> None:
        try:
            for line in stream:
                q.put(line)
        except (OSError, ValueError):
            pass
        q.put(None)
    threading.Thread(target=pump, name="test-lines", daemon=True).start()
    return q
