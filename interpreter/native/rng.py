"""The Python side of the C runtime's random numbers (runtime/cardrules_rt.h).

`random.Random(n)` for an int n seeds MT19937 with init_by_array over |n| cut into 32-bit words,
least significant first, and [0] for 0: `seed_words(n)` gives those words, for `crt_seed_words`.
A generator's state is the 625 numbers of `random.Random.getstate()[1]` (624 words and the
index), in the order `crt_get_state` writes and `crt_set_state` reads them, so a generator can
move from Python to C and back mid-game."""

from __future__ import annotations

import random

MT_N = 624           # the words of an MT19937 state
STATE_WORDS = MT_N + 1


def seed_words(n: int) -> list[int]:
    """The key `random.Random(n)` seeds with: |n| in 32-bit words, least significant first
    ([0] for 0; a negative n seeds as its absolute value)."""
    if not isinstance(n, int):
        raise TypeError(f"a seed here is an int, not {type(n).__name__}")
    n = abs(int(n))
    words = []
    while True:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return words


def state_words(r: random.Random) -> list[int]:
    """A Python generator's state as the 625 numbers `crt_set_state` takes."""
    version, internal, _gauss = r.getstate()
    if version != 3 or len(internal) != STATE_WORDS:  # pragma: no cover - a future Python's generator
        raise ValueError(f"this Python's random state (version {version}) is not MT19937's")
    return list(internal)


def random_from_state(words) -> random.Random:
    """A Python generator in the state `crt_get_state` wrote (625 numbers)."""
    words = tuple(int(w) for w in words)
    if len(words) != STATE_WORDS:
        raise ValueError(f"an MT19937 state is {STATE_WORDS} numbers, not {len(words)}")
    r = random.Random()
    r.setstate((3, words, None))
    return r
