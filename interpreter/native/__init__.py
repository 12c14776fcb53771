"""Native code: every ruleset compiled to C and played there (issue 29).

- `codegen/`: the C emitter. It reads the lowered program (compiler/ir: the ops and statements
  the compiler builds once, which the Python emitter reads too) and writes one C file: the deck's
  tables, the state struct, a function per definition, the instruction loop, the legal moves of
  each choice, and the entry points (`cr_new`, `cr_step`, `cr_apply`, `cr_legal`, `cr_playout`,
  `cr_play_many`, ...). A construct it cannot lower raises NativeUnsupported, one line naming it.
- `program`: `native_program` builds and loads a program's library once (a `NativeProgram`: the
  library, its functions' argument types, and what each table size's new games begin from). Two
  libraries come from one program: the engine alone (whole games, the entry points, batches),
  and the engine with the players' units (search, greedy, seeker, plan, the solver), built when
  a player first asks (`NativeProgram.players`) or at once for a command whose players think.
- `engine`: a NativeGame plays one game in C behind the Python engine's interface (its Move
  objects, a Python State as its view for observe, outcome and the rest).
- (the commands' side, `--engine auto|python|native` and random players' whole games as
  `cardrules play` reports them, is `interpreter/runner/native.py`, a floor up)
- `runtime/`: the hand-written C every engine includes: `cardrules_rt.h` (the interface),
  `random.c` (a Mersenne Twister that draws exactly what Python's `random.Random` draws),
  `cards.c` (where every card lies, with the engine's effects, exactly as `State` does them),
  `cards_read.c` (that state read: its bookkeeping checked, what each seat saw, the queries),
  `cr_engine.h` (values, lists, failures, Python's arithmetic). `runtime/unit/`: the fixed C of
  each engine (the state struct, the helpers, the loop, the entry points, the search, greedy,
  seeker and batch parts), one file a part, which codegen/emit.py pastes between the generated
  parts (toolchain.unit_part); none is compiled on its own.
- `toolchain`: finding a C compiler (`$CC`, cc, gcc, clang, or the `ziglang` package's), compiling
  into a shared library kept in the cache by content, loading it with ctypes; every failure is
  one NativeUnavailable line.
- `rng`: seeding (`seed_words`) and moving a generator's state between Python and C.
- `cfr`: CFR+ over a whole game tree (`solve --equilibrium`, solver/equilibrium.py), from
  `runtime/cfr.c`, which holds no ruleset: compiled on its own, once, and kept in the cache.

tests/native/test_native_engine.py plays every bundled ruleset on both engines;
tests/native/test_native_runtime.py and tests/native/test_native_zones.py check the runtime draw for draw and effect by effect."""

from __future__ import annotations

from .toolchain import (Compiler, NativeUnavailable, build_library, find_compiler, load_library, runtime_dir,
                    runtime_source, runtime_sources)
from .rng import random_from_state, seed_words, state_words

__all__ = ["Compiler", "NativeUnavailable", "find_compiler", "build_library", "load_library", "runtime_source",
           "runtime_sources", "runtime_dir", "seed_words", "state_words", "random_from_state"]
