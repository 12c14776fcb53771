"""Compile time of the Python engine's programs: every bundled ruleset lowered and emitted
(`compile_ruleset`, the IR and its passes, the generated Python made functions), parsing left
out, in processor seconds; the fastest of a few rounds, since a busy machine only adds time.

    python benchmarks/compile.py [--rounds R] [--rulesets GLOB]

It imports the package from the current folder, so that `../shared/tools/ab -- python
/path/to/benchmarks/compile.py` measures the tree it runs in (a revision without this file
too). Figures only, nothing asserted."""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("CARDRULES_NO_CACHE", "1")  # each ruleset compiled here, never loaded

from interpreter import load_ruleset  # noqa: E402
from interpreter.compiler.compiler import compile_ruleset  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rulesets", default="rulesets/**/*.cards")
    a = ap.parse_args()
    rulesets = []
    for path in sorted(glob.glob(a.rulesets, recursive=True)):
        try:
            rulesets.append((path, load_ruleset(path)))
        except Exception:  # noqa: BLE001 - a file that does not load is not compiled (fixtures of errors)
            continue
    best: dict[str, float] = {}
    for _ in range(a.rounds):
        for path, rs in rulesets:
            t = time.process_time()
            compile_ruleset(rs)
            took = time.process_time() - t
            best[path] = min(best.get(path, took), took)
    for path, took in sorted(best.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {took:6.3f} s  {path}")
    print(f"{len(best)} rulesets compiled in {sum(best.values()):.2f} s of processor time "
          f"(the fastest of {a.rounds} rounds each; the slowest above)")


if __name__ == "__main__":
    main()
