"""How long a new ruleset's C takes to build, as its user waits for it: the engine alone (what
`play`, the adapters and batches load: `native_program(program)`), and the engine with the
players' units (what greedy, plan, search, the solver and fuzz load: `players=True`, the one
library every build made until 2026-12-01), alternating in one process, each a fresh build
(the runtime's objects already compiled, as after a machine's first build), seconds of wall
time, the median of the rounds.

    python benchmarks/build.py [--rounds R] [--rulesets FILE ...]

It imports the package from the current folder, so that `../shared/tools/ab -- python
/path/to/benchmarks/build.py` measures the tree it runs in; on a revision whose builds were one
library only, the engine alone is that library, and the other columns are left out. Figures
only, nothing asserted."""

from __future__ import annotations

import argparse
import inspect
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.getcwd())
os.environ["CARDRULES_CACHE_DIR"] = tempfile.mkdtemp(prefix="cardrules-build-")

from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import play  # noqa: E402
from interpreter.native import program as nprogram  # noqa: E402
from interpreter.native.toolchain import library_folder, library_suffix  # noqa: E402

DEFAULT = ["euro-jongg/euro-jongg", "classic/hearts", "ganjifa/ganjifa", "classic/bridge", "classic/goofspiel"]


def fresh() -> None:
    """Every library out of the cache but the runtime's objects, and none remembered."""
    nprogram._PROGRAMS.clear()
    for f in library_folder().iterdir():
        if f.name.endswith(library_suffix()):
            f.unlink()


SPLIT = "players" in inspect.signature(nprogram.native_program).parameters


def timed(program, players: bool) -> float:
    fresh()
    t = time.perf_counter()
    nprogram.native_program(program, **({"players": players} if SPLIT else {}))
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rulesets", nargs="*", default=[str(ROOT / "rulesets" / f"{n}.cards") for n in DEFAULT])
    a = ap.parse_args()
    programs = [(Path(p).stem, play.program_of(load_ruleset(p))) for p in a.rulesets]
    nprogram.native_program(play.program_of(load_ruleset(ROOT / "rulesets" / "classic" / "kuhn-poker.cards")))
    # (the runtime's objects, once, with a small game's library)
    print(f"opt {nprogram.opt_level()}, {a.rounds} rounds, seconds of wall time (median)")
    for name, program in programs:
        alone, full, later = [], [], []
        for r in range(a.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            for players in order if SPLIT else (False,):
                (full if players else alone).append(timed(program, players))
            if SPLIT:  # the players' library asked for after the engine alone was built
                fresh()
                np = nprogram.native_program(program)
                t = time.perf_counter()
                np.players()
                later.append(time.perf_counter() - t)
        m = statistics.median
        line = f"{name:14s} engine alone {m(alone):5.2f} s"
        if SPLIT:
            line += (f"   with the players {m(full):5.2f} s   ({m(alone) / m(full):.2f});  the players' library"
                     f" later {m(later):5.2f} s")
        print(line, flush=True)

if __name__ == "__main__":
    main()
