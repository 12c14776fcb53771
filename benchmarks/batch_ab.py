"""A change to the engines' fixed C (native/runtime/unit/*.c) measured in one process: two batches
of the same games (`VectorGames`, the same seeds and actions), one stepped by the library as this
tree builds it (A), the other by a library built from the same generated C with the unit files as
they are at REV (B), step by step in turn, so that a machine whose speed wanders (these change by
up to twice within minutes) slows both alike. Separate runs alternating with `../shared/tools/ab`
could not tell a 10% change from noise on a batch; this can. Every step's observations, masks and
rewards are checked equal on both, so it is a differential test of the change too.

Only the unit files are swapped (pasted into each program's C): a change to the runtime's own
files (runtime/*.c, compiled apart) or to the Python side is not what B measures. Figures only,
nothing asserted but the equality.

    python benchmarks/batch_ab.py [--against REV] [--games goofspiel,crazy-eights] [--n 1024] [--steps 1500]
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from interpreter.adapters.vector import VectorGames  # noqa: E402
from interpreter.native.program import CODE_FLAGS, NATIVE_FLAGS  # noqa: E402
from interpreter.native.toolchain import (UNIT_MARKER, build_library, find_compiler, opt_level,  # noqa: E402
                                          runtime_objects, unit_part)

GAMES = {"goofspiel": ("classic/goofspiel", 2), "crazy-eights": ("classic/crazy-eights", 5),
         "hearts": ("classic/hearts", 4), "ganjifa": ("ganjifa/ganjifa", 3),
         "euro-jongg": ("euro-jongg/euro-jongg", 4)}
UNIT = ROOT / "interpreter" / "native" / "runtime" / "unit"


def at_rev(rev: str, path: Path) -> str | None:
    rel = path.relative_to(ROOT).as_posix()
    got = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{rel}"], capture_output=True, text=True)
    return got.stdout if got.returncode == 0 else None


def source_at(source: str, rev: str) -> tuple[str, list[str]]:
    """This tree's generated C with each unit file's pasted text as it is at REV; the files changed."""
    changed = []
    for path in sorted(UNIT.glob("*")):
        old = at_rev(rev, path)
        if old is None or "*/\n" not in old:
            continue
        old = old.split("*/\n", 1)[1]
        new = unit_part(path.name)
        if old == new:
            continue
        pieces_new, pieces_old = UNIT_MARKER.split(new), UNIT_MARKER.split(old)
        if len(pieces_new) != len(pieces_old):
            raise SystemExit(f"{path.name}: its @generated lines differ at {rev}; not comparable this way")
        for a, b in zip(pieces_new, pieces_old):
            if a not in source:
                raise SystemExit(f"{path.name}: its text is not found whole in the generated C")
            source = source.replace(a, b, 1)
        changed.append(path.name)
    return source, changed


def compare(name: str, players: int, rev: str, n: int, steps: int) -> None:
    va = VectorGames(name, players, n=n, seed=0, engine="native")
    vb = VectorGames(name, players, n=n, seed=0, engine="native")
    source, changed = source_at(va.spec.native.source, rev)
    if not changed:
        print(f"{name}: no unit file differs from {rev}")
        return
    opt = opt_level()
    objects = runtime_objects(find_compiler(), opt, CODE_FLAGS)
    lib = ctypes.CDLL(str(build_library(source, f"{Path(name).name}-at-rev",
                                        extra_flags=(*map(str, objects), *NATIVE_FLAGS), opt=opt)))
    b = vb._c
    b.many_c, b.new_c, b.scores_c, b.illegal_c = lib.cr_step_many, lib.cr_new_many, lib.cr_score_many, lib.cr_first_illegal
    oa, ma = va.reset()
    ob, mb = vb.reset()
    rng = np.random.default_rng(0)
    ta, tb = [], []
    for s in range(steps):
        actions = np.argmax(ma * rng.random(ma.shape, np.float32), 1)
        order = ((va, ta), (vb, tb)) if s % 2 == 0 else ((vb, tb), (va, ta))
        for v, times in order:
            t = time.perf_counter()
            v.step(actions)
            times.append(time.perf_counter() - t)
        if not (np.array_equal(oa, ob) and np.array_equal(ma, mb) and np.array_equal(va.rewards, vb.rewards)):
            raise SystemExit(f"{name}: step {s}: the two libraries' games differ")
    ratio = sum(tb) / sum(ta)
    print(f"{name} ({players}p), a batch of {n}, {steps} steps each, {', '.join(changed)} at {rev} (B) against "
          f"this tree (A): A {steps * n / sum(ta):,.0f} decisions/s, B {steps * n / sum(tb):,.0f}; B takes "
          f"{ratio:.3f}x A's time (median step {statistics.median(tb) / statistics.median(ta):.3f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="HEAD", help="the revision whose unit files build B (default HEAD)")
    ap.add_argument("--games", default="goofspiel,crazy-eights")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=1500)
    a = ap.parse_args()
    for g in a.games.split(","):
        compare(*GAMES[g], a.against, a.n, a.steps)


if __name__ == "__main__":
    main()
