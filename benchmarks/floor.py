"""The floor under the playout figures: what one decision costs when the rules ask nothing.

    python benchmarks/floor.py [--games N]

Random players play benchmarks/floor.cards (three players, 120 cards, each in turn plays any
card of their hand onto a pile) in two ways, one process, the same seeds:

* on the engine, as benchmarks/playouts.py plays every ruleset (`legal_moves`, a random
  choice, `apply`);
* on the least an engine with that interface can be, written by hand for this one game: the
  moves made once and reused, the legal moves a list of them, apply finds the move by
  identity, moves the card, passes the turn and lists the next player's moves.

Both print microseconds per decision (shuffle and set-up included). The second is the floor of
any engine in this Python with this interface, before a single rule is worked out; a target of
benchmarks/playouts.py that allows a row fewer microseconds per decision than that (it prints
the allowance) cannot be met by working out the rules faster.

Where a C compiler is found (interpreter/native), the same game written by hand in C on the
native runtime (benchmarks/floor_native.c: the same deals and the same choices, so the same
piles) gives two more rows, the floors of a native engine: whole games in one call, and one
decision at a time from Python through ctypes (the legal moves read, a random choice made in
Python, the move applied), as `legal_moves` and `apply` from Python would be; and the same
through cffi's ABI mode where cffi is installed. Figures only: nothing here asserts a speed."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import Move, apply, legal_moves, new_game  # noqa: E402

FLOOR = ROOT / "benchmarks" / "floor.cards"
PLAYERS, CARDS = 3, 120


class _Table:
    """The hand-written game: three hands, a pile, whose turn it is and the legal moves."""

    __slots__ = ("hands", "zone", "pile", "turn", "legal", "finished", "made")


def _made() -> list[dict]:
    """Every move there can be, made once: seat -> card -> Move (the card rides along)."""
    made = []
    for p in range(PLAYERS):
        d = {}
        for c in range(CARDS):
            m = Move(p, "play", str(c))
            object.__setattr__(m, "_card", c)
            d[c] = m
        made.append(d)
    return made


def _new(seed: int, made: list) -> _Table:
    t = _Table()
    cards = list(range(CARDS))
    random.Random(seed).shuffle(cards)
    k = CARDS // PLAYERS
    t.hands = [cards[i * k:(i + 1) * k] for i in range(PLAYERS)]
    t.zone = [0] * CARDS
    t.pile, t.turn, t.finished, t.made = [], 0, False, made
    t.legal = [made[0][c] for c in t.hands[0]]
    return t


def _legal_moves(t: _Table) -> list:
    return t.legal.copy()


def _apply(t: _Table, move) -> None:
    for m in t.legal:
        if m is move:
            break
    else:
        raise ValueError(f"{move} is not legal now")
    c = m._card
    t.hands[t.turn].remove(c)
    t.pile.append(c)
    t.zone[c] = PLAYERS
    t.turn = (t.turn + 1) % PLAYERS
    hand = t.hands[t.turn]
    if not hand:
        t.finished, t.legal = True, []
        return
    made = t.made[t.turn]
    t.legal = [made[c] for c in hand]


def by_hand(games: int) -> tuple[float, int]:
    made = _made()
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        t, rng = _new(seed, made), random.Random(seed)
        while not t.finished:
            _apply(t, rng.choice(_legal_moves(t)))
            decisions += 1
    return time.perf_counter() - t0, decisions


def on_engine(games: int) -> tuple[float, int]:
    rs = load_ruleset(FLOOR)
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        s, rng = new_game(rs, PLAYERS, None, seed), random.Random(seed)
        while not s.finished:
            apply(s, rng.choice(legal_moves(s)))
            decisions += 1
    return time.perf_counter() - t0, decisions


def native_floor():
    """The C floor game as a ctypes library (built once into the cache), or None with why."""
    import ctypes

    from interpreter.native.toolchain import NativeUnavailable, build_library, load_library, runtime_source
    try:
        source = runtime_source() + "\n" + (ROOT / "benchmarks" / "floor_native.c").read_text()
        lib = load_library(build_library(source, "floor"))
    except NativeUnavailable as e:
        return None, e.message
    lib.floor_play_games.restype = ctypes.c_int64
    lib.floor_play_games.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_void_p]
    lib.floor_table_size.restype = ctypes.c_size_t
    lib.floor_new.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.floor_legal.restype = ctypes.c_int
    lib.floor_legal.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.floor_apply.restype = ctypes.c_int
    lib.floor_apply.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lib.path = lib._name
    return lib, None


def native_pile(lib, seed: int) -> list[int]:
    """The pile of game `seed` played in C (the same as the Python floor's)."""
    import ctypes
    pile = (ctypes.c_uint32 * CARDS)()
    lib.floor_play_games(seed, 1, pile)
    return list(pile)


def python_pile(seed: int) -> list[int]:
    made = _made()
    t, rng = _new(seed, made), random.Random(seed)
    while not t.finished:
        _apply(t, rng.choice(_legal_moves(t)))
    return t.pile


def native_whole(lib):
    def run(games: int) -> tuple[float, int]:
        t0 = time.perf_counter()
        decisions = lib.floor_play_games(0, games, None)
        return time.perf_counter() - t0, decisions
    return run


def _steps(new, moves, play, table, legal):
    """Games one decision at a time through a foreign-function layer: the legal moves read into
    `legal`, a random choice made here, the move applied."""
    def run(games: int) -> tuple[float, int]:
        decisions = 0
        t0 = time.perf_counter()
        for seed in range(games):
            new(table, seed)
            rng = random.Random(seed)
            n = moves(table, legal)
            while n:
                play(table, legal[rng.randrange(n)])
                decisions += 1
                n = moves(table, legal)
        return time.perf_counter() - t0, decisions
    return run


def native_steps(lib):
    import ctypes
    return _steps(lib.floor_new, lib.floor_legal, lib.floor_apply,
                  ctypes.create_string_buffer(lib.floor_table_size()), (ctypes.c_uint32 * (CARDS // PLAYERS))())


def native_steps_cffi(lib_path):
    """The same as native_steps through cffi's ABI mode (no compiler at run time, no Python
    headers), or None where cffi is not installed."""
    try:
        import cffi
    except ImportError:
        return None
    ffi = cffi.FFI()
    ffi.cdef("size_t floor_table_size(void); void floor_new(void *t, uint64_t seed);"
             "int floor_legal(const void *t, uint32_t *out); int floor_apply(void *t, uint32_t c);")
    lib = ffi.dlopen(str(lib_path))
    return _steps(lib.floor_new, lib.floor_legal, lib.floor_apply,
                  ffi.new("char[]", lib.floor_table_size()), ffi.new("uint32_t[]", CARDS // PLAYERS))


def best_us(fn, games: int, rounds: int) -> float:
    fn(max(1, games // 5))  # warm-up
    return min(elapsed / decisions * 1e6 for elapsed, decisions in (fn(games) for _ in range(rounds)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; the best is printed (default 5)")
    args = ap.parse_args(argv)
    engine = best_us(on_engine, args.games, args.rounds)
    hand = best_us(by_hand, args.games, args.rounds)
    print(f"{FLOOR.name}: {PLAYERS} players, {CARDS} cards, best of {args.rounds} rounds of {args.games} games")
    print(f"  on the engine:                    {engine:.2f} us per decision")
    print(f"  the least such an engine can be:  {hand:.2f} us per decision (written by hand for this game)")
    lib, why = native_floor()
    if lib is None:
        print(f"  in C (interpreter/native): not measured: {why}")
    else:
        whole = best_us(native_whole(lib), args.games * 100, args.rounds)
        steps = best_us(native_steps(lib), args.games, args.rounds)
        print(f"  in C, whole games in one call:    {whole:.3f} us per decision ({hand / whole:.0f}x the Python floor)")
        print(f"  in C, a decision at a time from Python (ctypes): {steps:.2f} us per decision "
              f"({hand / steps:.1f}x the Python floor)")
        by_cffi = native_steps_cffi(lib.path)
        if by_cffi is None:
            print("  in C, a decision at a time through cffi: not measured (pip install cffi)")
        else:
            steps = best_us(by_cffi, args.games, args.rounds)
            print(f"  in C, a decision at a time from Python (cffi, ABI mode): {steps:.2f} us per decision "
                  f"({hand / steps:.1f}x the Python floor)")
    print(f"floor: {hand:.2f} us per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
