"""Seconds from Ctrl-C (or SIGTERM) to the exit of `cardrules play`, on both engines, in a
game that runs for a very long time. Figures only: nothing here asserts a time (the suite's
tests/engine/test_no_hang.py checks the bound of 0.5 s once; this prints the spread).

    python benchmarks/interrupt.py [--runs N] [--signal INT|TERM]

Each run starts `play` on a two-player game of a hundred million decisions (all of it one call
into C on the native engine), waits for its `engine:` line and for 0.5 s of CPU inside the long
call, sends the signal and times the exit. Prints, per engine, the median and the worst of N
runs (default 5) and the exit code seen."""

from __future__ import annotations

import argparse
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LONG = """game long "Round and round, for a very long time"
players 2
at most 100000000 decisions
deck small:
    suits Red, Blue
    ranks 1..2
zone stock shared hidden
zone hand per player owner
zone pile shared public
phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 2 from stock to each hand
    while count(stock) == 0:
        for each player p:
            rule turn "A turn":
                choose by p:
                    action play c in hand(p):
                        move c to pile
        rule recycle "Recycling" when count(pile) == 4:
            move pile to stock
            shuffle stock
            deal 2 from stock to each hand
"""

# The child gets SIGINT at its default even when this script runs with it ignored (a
# background job), as tests/procs.py explains.
TRAMPOLINE = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
              "os.execvp(sys.argv[1], sys.argv[1:])")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(path: Path, engine: str, sig: int) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", TRAMPOLINE, sys.executable, "-m", "interpreter", "play", str(path),
           "--games", "1", "--workers", "1", "--engine", engine]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        line = ""
        while not line.startswith("engine: "):
            if select.select([proc.stderr], [], [], 60)[0]:
                line = proc.stderr.readline()
                if not line:
                    raise SystemExit(f"{engine}: the command ended before it played")
            else:
                raise SystemExit(f"{engine}: no engine line in 60 s")
        start = cpu_seconds(proc.pid)
        while cpu_seconds(proc.pid) - start < 0.5:
            time.sleep(0.01)
        t0 = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=60)
        return time.monotonic() - t0, proc.returncode
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--signal", choices=["INT", "TERM"], default="INT")
    args = ap.parse_args()
    sig = signal.SIGINT if args.signal == "INT" else signal.SIGTERM
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.cards"
        path.write_text(LONG)
        print(f"SIG{args.signal} to exit, `play` of a game of 10^8 decisions, {args.runs} runs each")
        for engine in ("python", "native"):
            took, codes = [], set()
            for _ in range(args.runs):
                t, code = one_run(path, engine, sig)
                took.append(t)
                codes.add(code)
            print(f"{engine:7} median {statistics.median(took):.3f} s, worst {max(took):.3f} s, "
                  f"exit {sorted(codes)}")


if __name__ == "__main__":
    main()
