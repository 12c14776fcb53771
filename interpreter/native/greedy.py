"""The greedy player's look-ahead in C (runtime/unit/greedy.c), for a game the native engine plays:
one call gives the value of each of the acting player's moves, instead of a copy of the position
played and read back in Python for each move."""

from __future__ import annotations

import ctypes

from .engine import NativeGame


def look_ahead(g: NativeGame, advised: bool, seed: int) -> list | None:
    """GreedyBot._values's values of the legal moves of the player to act, in order: (the advice
    after the move, the margin after it) when the ruleset gives advice, else the margin, each move
    played in the sample of what the player cannot see that random.Random(seed) draws; None when
    C cannot answer as Python would (then the caller looks ahead in Python)."""
    cap = max(len(g._view._legal), 1)
    room = _room(g.np, 3 * cap)
    lib = g.np.players()
    if lib is None:
        return None
    n = lib.cr_greedy(g.mem, room, cap, seed)
    if n < 0:
        return None
    flat = room[:3 * n]
    if advised:
        return list(zip(flat[1::3], flat[2::3]))
    return flat[2::3]


def _room(np, n: int) -> ctypes.Array:
    """This thread's room for the rows of a look-ahead in this program (made once, grown when needed)."""
    room = getattr(np._local, "greedy", None)
    if room is None or len(room) < n:
        room = np._local.greedy = (ctypes.c_int64 * n)()
    return room
