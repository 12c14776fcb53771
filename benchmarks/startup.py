"""Start-up time of the command line, whole process, as a user meets it.

    python benchmarks/startup.py [--runs N] [FILE]

Prints the median wall time of N runs (default 5) of `cardrules check FILE` (default
rulesets/ganjifa/ganjifa.cards) with an empty cache folder (the first run after installing),
the same without the analysed grammar the package ships (CARDRULES_NO_SHIPPED_TABLES=1, so
the grammar is analysed as on a Lark or Python the shipped file does not fit), with only the
grammar cached (a file checked for the first time; with the shipped tables nothing of the
grammar goes to the cache, so this is the first run again), with everything cached (the same file
again), and with caching turned off; and of `python -c "import interpreter"`.
Figures only: nothing here asserts a time. Targets (issue 9): second run <= 0.3 s, first <= 1 s."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - t
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("file", nargs="?", default="rulesets/ganjifa/ganjifa.cards")
    args = ap.parse_args()
    check = [sys.executable, "-m", "interpreter", "check", args.file]
    # A user's install writes bytecode once and reuses it; a machine that sets
    # PYTHONDONTWRITEBYTECODE would recompile every module on every run and time that instead.
    # With it gone, the warm-up run below writes the bytecode and no row pays for compiling.
    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith("CARDRULES_") and k != "PYTHONDONTWRITEBYTECODE"}
    base_env["PYTHONPATH"] = str(ROOT)
    rows = []
    folder = Path(tempfile.mkdtemp(prefix="cardrules-startup-"))
    env = dict(base_env, CARDRULES_CACHE_DIR=str(folder))
    try:
        timed(check, env)  # compiled bytecode in place, so no row pays for it
        unshipped = dict(env, CARDRULES_NO_SHIPPED_TABLES="1")
        cold, cold_unshipped, grammar_only, warm = [], [], [], []
        for _ in range(args.runs):
            shutil.rmtree(folder, ignore_errors=True)
            cold_unshipped.append(timed(check, unshipped))
            shutil.rmtree(folder, ignore_errors=True)
            cold.append(timed(check, env))
            for f in folder.glob("*.pickle"):
                f.unlink()
            grammar_only.append(timed(check, env))
            warm.append(timed(check, env))
        rows += [("check, empty cache (first run)", cold),
                 ("check, empty cache, without the shipped tables", cold_unshipped),
                 ("check, grammar cached, new file", grammar_only),
                 ("check, same file again (second run)", warm)]
        off = dict(base_env, CARDRULES_NO_CACHE="1")
        rows.append(("check, caching off", [timed(check, off) for _ in range(args.runs)]))
        rows.append(("python -c 'import interpreter'",
                     [timed([sys.executable, "-c", "import interpreter"], off) for _ in range(args.runs)]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{'':<48} {'median s':>9} {'min s':>7}   ({args.runs} runs, {args.file})")
    for name, times in rows:
        print(f"{name:<48} {statistics.median(times):>9.3f} {min(times):>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
