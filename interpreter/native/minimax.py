"""The perfect-information solver in C (runtime/unit/solve.c), for a game the native engine plays:
the whole deepening search, its table and the best line in one call; the same Solution as the
solver in Python (solver/minimax.py), node for node. What C cannot work out as Python would comes
back as None, and the caller solves the position in Python."""

from __future__ import annotations

import ctypes
import sys

from .program import check_signals, want_guard

MAX_LINE = 1 << 16  # moves of a best line read back from C; a longer one is solved in Python
STOPPED = {0: None, 1: "nodes", 2: "seconds"}


def solve_in_c(sides, budget, deadline, draws: bool, s):
    """The search of Solver.solve for `s`, a native state not finished (the solver's sides, budget
    and deadline; `draws`: whether the rules can draw at random), in C: (value, whether it is a
    whole number, the best line as indexes of the legal moves, nodes, depth, complete, why it
    stopped, whether a search finished); None when C gives it back. The Solution is made from
    it by solver/minimax.py."""
    if sys.version_info >= (3, 12) and any(len(side) > 2 for side in sides):
        return None  # sum() of floats compensates from 3.12 on; C adds them plainly
    names = [name for name, *_ in s.program.advice]
    if len(set(names)) < len(names):
        return None  # Python sums the advice by name, a value a name; C sums every one
    g = s.native
    lib = g.np.players()
    if lib is None:
        return None
    want_guard(lib)
    I32 = ctypes.c_int32
    flat = [seat for side in sides for seat in side]
    starts = [0]
    for side in sides:
        starts.append(starts[-1] + len(side))
    cap = MAX_LINE
    line, value, info = (I32 * cap)(), ctypes.c_double(), (ctypes.c_int64 * 7)()
    budget = min(budget, (1 << 63) - 1)
    rc = lib.cr_solve(g.mem, (I32 * len(flat))(*flat), (I32 * len(starts))(*starts), len(sides),
                      int(draws), budget, deadline or 0.0, line, cap, ctypes.byref(value), info)
    if rc < 0:
        if lib.cr_interrupted():
            check_signals()
        return None
    nodes, depth, complete, stopped, n, ints, have = info
    return value.value, bool(ints), list(line[:n]), nodes, depth, bool(complete), STOPPED[stopped], bool(have)
