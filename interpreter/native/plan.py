"""The planning player's search in C (codegen/plan_c.py), for a game the native engine plays: the
sample, the depth-first (or best-first) look over the seat's own moves and the positions already
seen, in one call. The bot's generator is read into C and moved on as Python's would be, so the
same seed and position give the same line on both engines. A view comes back as one number (its 128-bit hash),
which plan.py compares with the view of the game when it comes to the next move of the line."""

from __future__ import annotations

import ctypes

from .engine import NativeGame, _words_of
from .program import check_signals, want_guard

MAX_LINE = 100_000  # moves of a line read back from C; a longer one is planned in Python


def plan_line(g: NativeGame, me: int, rng, nodes: int, deadline: float | None, deep: int = 1,
              peek: bool = False) -> list | None:
    """plan.py:PlanBot._search's line for the game in C, depth first (deep=1, PlanBot._deep) or
    best first (deep=0, PlanBot._best), with every card seen in the position itself where `peek`
    (PlanBot.peek): [(move key, view expected before it)], with `rng` moved on; None when C
    cannot plan this as Python would (then `rng` is untouched and the caller plans in Python)."""
    got = _plan(g, me, rng, nodes, deadline, deep | (2 if peek else 0))
    return None if got is None else got[0]


def world_line(g: NativeGame, me: int, rng, nodes: int, deadline: float | None) -> tuple | None:
    """plan.py:PlanBot._world for the game in C: one sample drawn from `rng`, planned depth first
    with every card of it seen: (the line, its views the seat's own, the value it ends with),
    or None as plan_line."""
    return _plan(g, me, rng, nodes, deadline, 1 | 4)


def _plan(g: NativeGame, me: int, rng, nodes: int, deadline: float | None, how: int) -> tuple | None:
    lib = g.np.players()
    if lib is None:
        return None
    want_guard(lib)
    cap = min(nodes, MAX_LINE) + 1
    words = _words_of([rng])
    choice, alt = (ctypes.c_int32 * cap)(), (ctypes.c_int32 * cap)()
    w = g.np.nparams
    vals, views = (ctypes.c_int64 * (cap * w))(), (ctypes.c_uint64 * (2 * cap))()
    value = ctypes.c_double(0.0)
    n = lib.cr_plan(g.mem, me, nodes, words, deadline or 0.0, how, choice, alt, vals, views, cap, ctypes.byref(value))
    if n < 0:
        if lib.cr_interrupted():
            check_signals()
        return None
    rng.setstate((3, tuple(words), None))
    choices = g.np.p.choices
    line = []
    for k in range(n):
        m = g._move(choices[choice[k]].alts[alt[k]], me, vals[k * w:(k + 1) * w])
        line.append(((m.action, m.arg), views[2 * k] << 64 | views[2 * k + 1]))
    return line, value.value


def view_after(g: NativeGame, i: int, who: int):
    """What `who` sees after legal move i, worked out on a copy in C, as `view` gives it: None
    when the game ends or another seat decides then; False when C cannot say (the rules fail in
    the copy: the caller asks the Python engine)."""
    lib = g.np.players()
    if lib is None:
        return False
    out = (ctypes.c_uint64 * 2)()
    rc = lib.cr_plan_view_after(g.mem, i, who, out)
    if rc < 0:
        return False
    return out[0] << 64 | out[1] if rc else None


def view(g: NativeGame, who: int) -> int | None:
    """What `who` sees of the game now, as the search's hash of plan.py's view; None without the
    players' library (the caller takes the view in Python)."""
    lib = g.np.players()
    if lib is None:
        return None
    out = (ctypes.c_uint64 * 2)()
    lib.cr_plan_view(g.mem, who, out)
    return out[0] << 64 | out[1]
