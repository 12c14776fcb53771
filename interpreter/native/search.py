"""The search player's iterations in C (runtime/unit/search.c), for a game the native engine plays:
the samples, the tree, the rollouts and the rewards of search.py's ISMCTSBot without Python
between the moves. The bot's generator is read into C and moved on as Python's would be, so the
same seed and position give the same move on both engines."""

from __future__ import annotations

import ctypes
import time

from ..errors import GameRuntimeError
from .engine import NativeGame, _words_of
from .program import check_signals, want_guard

BATCH = 16  # iterations between two looks at the clock, when a deadline is set


def _failed(lib) -> None:
    """A search C gave up: after Ctrl-C (cr_interrupted), Python's handler first (KeyboardInterrupt);
    None, so that the caller searches in Python (a handler that returned, or rules that failed)."""
    if lib.cr_interrupted():
        check_signals()
    return None


def search(g: NativeGame, me: int, rng, iterations: int, *, exploration: float, advice_scale: float,
           tries: int, rollouts: tuple, rollout_cap: int, deadline: float | None = None, views: bool = False,
           peek: bool = False, truths: list | None = None):
    """The root's statistics after the search: [(index among the moves of the player to act,
    visits, summed reward of `me`)], with `rng` moved on (`views`: search.py's MOISMCTSBot's tree;
    `peek`: every sample the true position, as ISMCTSBot.peek; `truths`: Python states at the
    decision searched, every sample one of them, as ISMCTSBot._pooled); None when C cannot search
    this (the rules failed in a sample, a truth C cannot take): then `rng` is untouched and the
    caller searches in Python."""
    lib = g.np.players()
    if lib is None:
        return None
    want_guard(lib)
    arr = (ctypes.c_int32 * 3)(*rollouts)
    h = lib.cr_search_new(g.mem, me, iterations, exploration, advice_scale, tries, arr, int(views))
    if not h:
        return None
    try:
        if peek:
            lib.cr_search_peek(h)
        if truths:
            scratch = g.clone()  # (each truth loaded into it, then copied by C)
            for world in truths:
                try:
                    scratch.load(world)
                except (ValueError, GameRuntimeError):
                    return None
                if lib.cr_search_add_truth(h, scratch.mem):
                    return None
        words = _words_of([rng])
        cap = g.np.max_moves
        idx, visits, reward = (ctypes.c_int32 * cap)(), (ctypes.c_int64 * cap)(), (ctypes.c_double * cap)()
        if deadline is None:
            if lib.cr_search_run(h, words, 0, iterations, rollout_cap):
                return _failed(lib)
        else:
            done = 0
            while done < iterations:
                if time.monotonic() > deadline and lib.cr_search_root(h, idx, visits, reward, cap) > 0:
                    break
                step = min(BATCH, iterations - done)
                if lib.cr_search_run(h, words, done, done + step, rollout_cap):
                    return _failed(lib)
                done += step
        n = lib.cr_search_root(h, idx, visits, reward, cap)
        if n < 0:
            return None
        rng.setstate((3, tuple(words), None))
        return [(idx[k], visits[k], reward[k]) for k in range(n)]
    finally:
        lib.cr_search_free(h)
