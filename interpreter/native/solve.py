"""The perfect-information solver in C (runtime/unit/solve.c), for a game the native engine plays:
the whole deepening search, its table and the best line in one call; the same Solution as the
solver in Python (solver/minimax.py), node for node. What C cannot work out as Python would comes
back as None, and the caller solves the position in Python."""

from __future__ import annotations

import ctypes
import sys

from ..engine import apply, moves_for
from ..errors import GameTooLong
from .engine import check_signals, want_guard

MAX_LINE = 1 << 16  # moves of a best line read back from C; a longer one is solved in Python
STOPPED = {0: None, 1: "nodes", 2: "seconds"}


def solve_in_c(solver, s):
    """Solver.solve for `s`, a native state not finished, with the solver's sides, budget and
    deadline (solver.nodes is set to the nodes counted); None when C gives it back."""
    from ..solver.minimax import Solution, _draws, _guess, utilities
    if sys.version_info >= (3, 12) and any(len(side) > 2 for side in solver.sides):
        return None  # sum() of floats compensates from 3.12 on; C adds them plainly
    names = [name for name, *_ in s.program.advice]
    if len(set(names)) < len(names):
        return None  # Python sums the advice by name, a value a name; C sums every one
    g = s.native
    lib = g.np.lib
    want_guard(lib)
    I32 = ctypes.c_int32
    flat = [seat for side in solver.sides for seat in side]
    starts = [0]
    for side in solver.sides:
        starts.append(starts[-1] + len(side))
    cap = MAX_LINE
    line, value, info = (I32 * cap)(), ctypes.c_double(), (ctypes.c_int64 * 7)()
    budget = min(solver.budget, (1 << 63) - 1)
    rc = lib.cr_solve(g.mem, (I32 * len(flat))(*flat), (I32 * len(starts))(*starts), len(solver.sides),
                      int(_draws(s.program)), budget, solver.deadline or 0.0, line, cap, ctypes.byref(value), info)
    if rc < 0:
        if lib.cr_interrupted():
            check_signals()
        return None
    nodes, depth, complete, stopped, n, ints, have = info
    solver.nodes = nodes
    if not have:  # not even one decision deep: the position judged as it stands
        u = _guess(s)
        return Solution(solver._value(u, s), u, (), s, False, 0, nodes, solver.sides, STOPPED[stopped])
    moves, t = [], s
    for k in range(n):  # the line played again (on copies): its end, where the utilities are read
        m = moves_for(t)[line[k]]
        moves.append(m)
        t = t.clone()
        try:
            apply(t, m)
        except GameTooLong:
            break
    u = utilities(t) if t.finished else _guess(t)
    v = int(value.value) if ints else value.value
    return Solution(v, u, tuple(moves), t, bool(complete), depth, nodes, solver.sides, STOPPED[stopped])
