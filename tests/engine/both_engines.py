"""A Python game and a native one played side by side, the same random moves on both, so that the
engine room's agreement tests compare the two at every decision (what they compare stays in the
test: these only choose and play the moves)."""

from __future__ import annotations

import random

from interpreter.engine import apply, legal_moves


def offered(s) -> list[tuple[int, str]]:
    """The moves a game offers now, each as (player, text): what the two engines must agree on."""
    return [(m.player, str(m)) for m in legal_moves(s)]


def in_step(seed: int, a, b):
    """Yield what A (the Python game) offers at each decision, then play the same move on A and on
    B, one of A's chosen at random by SEED; until A is over."""
    r = random.Random(seed)
    while not a.finished:
        la = offered(a)
        yield la
        pick = r.choice(la)
        for s in (a, b):
            apply(s, next(m for m in legal_moves(s) if (m.player, str(m)) == pick))


def captures_first(seed: int, py, c):
    """Yield the moves PY (the Python game) lists, as text, at each decision, then play the same move
    on PY and on C: a capture if any is listed, else any move, chosen at random by SEED (games of
    set captures, which random play would seldom try); until PY is over."""
    rnd = random.Random(seed)
    while not py.finished:
        listed = [str(m) for m in legal_moves(py)]
        yield listed
        caps = [m for m in listed if m.startswith("capture")]
        m = rnd.choice(caps or listed)
        apply(py, m)
        apply(c, m)
