"""Native code: the room where cardrules turns into C (issue 29).

The plan is to compile each ruleset to C and play whole games there. This room holds the
foundations that plan stands on, each complete and tested on its own, and nothing of the engine
uses them yet:

- `runtime/`: the hand-written C runtime that generated code includes (`runtime_source()` gives
  it as one text; `runtime_sources()` its C files): `cardrules_rt.h`, the whole interface;
  `random.c`, a Mersenne Twister that draws exactly what Python's `random.Random` draws
  (getrandbits, _randbelow, choice, shuffle, random), so a game in C deals what the Python
  engine deals from one seed; `cards.c`, where every card lies, in order, with the engine's
  masks, changed by the engine's effects (shuffle, move, deal, reveal) exactly as `State` does.
- `build`: finding a C compiler (`find_compiler`: $CC, cc, gcc, clang, or the `ziglang`
  package's), compiling a source into a shared library kept in the cache by content
  (`build_library`), and loading it with ctypes (`load_library`). Every failure is one
  `NativeUnavailable` with one line saying what to do.
- `rng`: the Python side of seeding (`seed_words`: any int as the 32-bit words the C seeds
  with) and of moving a generator's state between Python and C.

tests/test_native_runtime.py compares the C draws with Python's for many seeds and sizes, and
tests/test_native_zones.py every card effect with the Python State's."""

from __future__ import annotations

from .build import (Compiler, NativeUnavailable, build_library, find_compiler, load_library, runtime_dir,
                    runtime_source, runtime_sources)
from .rng import random_from_state, seed_words, state_words

__all__ = ["Compiler", "NativeUnavailable", "find_compiler", "build_library", "load_library", "runtime_source",
           "runtime_sources", "runtime_dir", "seed_words", "state_words", "random_from_state"]
