"""Games written by hand in C (and Ganjifa in Python too) against the native engine's generated C
(issue 39, step 0): the baselines the generated code is measured against, figures only (nothing
here asserts a speed).

    python benchmarks/handwritten.py [--seconds T] [--rounds R] [--check N] [--game NAME]

Each baseline is one bundled ruleset with its default options written by hand in C on the
native runtime (benchmarks/<name>_native.c), drawing the engine's random numbers: the game's
generator random.Random(seed), seat k's random player random.Random(seed * 1000 + k), choosing
among its legal moves in the engine's order, as `cardrules play` does. So the same seed gives
the same game, and the script first checks that: N games (default 200) against the native
engine's whole games (`cr_play_many`: every seat's score identical), and a few of them move for
move against the Python engine. Then both play whole games of random players, seeds 0, 1, 2, ...,
about T seconds a side, the sides alternating R times in this one process (a busy machine slows
both alike), and it prints games a second and the ratio (the medians)."""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import play  # noqa: E402
from interpreter.playing import play_one  # noqa: E402


@dataclass(frozen=True)
class Baseline:
    name: str
    ruleset: str        # under rulesets/
    players: int
    prefix: str         # the C functions' prefix: <prefix>_game, <prefix>_play_many
    actions: tuple = ()  # actions without a card, as the C codes them: -1, -2, ...


BASELINES = {
    "goofspiel": Baseline("goofspiel", "classic/goofspiel.cards", 2, "gs"),
    "ganjifa": Baseline("ganjifa", "ganjifa/ganjifa.cards", 3, "gj", ("stop", "decline", "double", "single")),
}
MAX_MOVES = 1024


def build(b: Baseline):
    """The baseline's C as a ctypes library (built once into the cache), or (None, why)."""
    from interpreter.native.toolchain import NativeUnavailable, build_library, load_library, runtime_source
    path = ROOT / "benchmarks" / f"{b.name}_native.c"
    if not path.exists():
        return None, f"{path.name} is not written"
    try:
        lib = load_library(build_library(runtime_source() + "\n" + path.read_text(encoding="utf-8"), b.name))
    except NativeUnavailable as e:
        return None, e.message
    game, many = getattr(lib, f"{b.prefix}_game"), getattr(lib, f"{b.prefix}_play_many")
    game.restype, game.argtypes = ctypes.c_int64, [ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
    many.restype, many.argtypes = ctypes.c_int64, [ctypes.c_int32, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p]
    return lib, None


def hand_game(lib, b: Baseline, seed: int) -> tuple[tuple[int, ...], list[int]]:
    """One game in the hand-written C: every seat's score, and the moves as codes (a card's
    index in the deck, or -1 - k for the k-th action without a card)."""
    scores = (ctypes.c_int64 * b.players)()
    moves = (ctypes.c_int32 * MAX_MOVES)()
    n = getattr(lib, f"{b.prefix}_game")(b.players, seed, scores, moves)
    assert 0 <= n <= MAX_MOVES, n
    return tuple(scores), list(moves[:n])


def hand_scores(lib, b: Baseline, seed0: int, n: int) -> list[tuple[int, ...]]:
    out = (ctypes.c_int64 * (n * b.players))()
    getattr(lib, f"{b.prefix}_play_many")(b.players, seed0, n, out)
    return [tuple(out[g * b.players:(g + 1) * b.players]) for g in range(n)]


def ruleset(b: Baseline):
    return load_ruleset(ROOT / "rulesets" / b.ruleset)


def engine_many(rs, players: int):
    """The native engine's whole games (cr_play_many): (play(seed0, n) -> rows, the row width)."""
    from interpreter.native.engine import native_program
    np = native_program(play.program_of(rs))
    opts = np.options_row(play.resolve_options(np.p, None))
    opt_arr = (ctypes.c_int64 * len(opts))(*opts)
    width = 5 + players + len(np.p.rule_names)
    room: dict[int, ctypes.Array] = {}

    def run(seed0: int, n: int) -> ctypes.Array:
        out = room.get(n)
        if out is None:
            out = room[n] = (ctypes.c_int64 * (n * width))()
        rc = np.lib.cr_play_many(players, opt_arr, seed0, n, 1 << 62, out)
        assert rc == 0, rc
        return out
    return run, width


def engine_scores(rs, players: int, seed0: int, n: int) -> list[tuple[int, ...]]:
    run, width = engine_many(rs, players)
    out = run(seed0, n)
    rows = []
    for g in range(n):
        row = out[g * width:(g + 1) * width]
        assert row[0] == 0 and row[1] == 1, f"game {seed0 + g} failed in the engine ({row[0]})"
        rows.append(tuple(row[5:5 + players]))
    return rows


def engine_moves(rs, b: Baseline, seed: int) -> tuple[tuple[int, ...], list[int]]:
    """The same game on the Python engine, as `cardrules play` plays it: scores and move codes."""
    p = play.program_of(rs)
    state = play_one(rs, b.players, {}, seed, {k: "random" for k in range(b.players)}, None)
    index = {name: i for i, name in enumerate(p.card_names)}
    codes = [index[m.arg] if m.arg is not None else -1 - b.actions.index(m.action) for m in state.history]
    return tuple(play.outcome(state).scores), codes


def check(lib, b: Baseline, rs, games: int, moves: int = 5) -> None:
    """The hand-written games are the engine's: scores of `games` seeds, moves of `moves` seeds."""
    hand, eng = hand_scores(lib, b, 0, games), engine_scores(rs, b.players, 0, games)
    for seed, (x, y) in enumerate(zip(hand, eng)):
        assert x == y, f"{b.name}, seed {seed}: scores {x} by hand, {y} on the engine"
    for seed in range(moves):
        x, y = hand_game(lib, b, seed), engine_moves(rs, b, seed)
        assert x == y, f"{b.name}, seed {seed}: by hand {x}, on the engine {y}"


def timed(fn, seconds: float) -> float:
    """Games a second: fn(k) plays the k-th chunk and returns its games."""
    t0 = time.perf_counter()
    done = k = 0
    while time.perf_counter() - t0 < seconds:
        done += fn(k)
        k += 1
    return done / (time.perf_counter() - t0)


def measure(lib, b: Baseline, rs, seconds: float, rounds: int) -> dict:
    run, _ = engine_many(rs, b.players)
    many = getattr(lib, f"{b.prefix}_play_many")
    t0 = time.perf_counter()
    run(0, 200)
    chunk = max(16, int(200 / max(time.perf_counter() - t0, 1e-6) / 10))  # about 1/10 s of the engine a call

    def engine(k):
        run(k * chunk, chunk)
        return chunk
    hand_chunk = chunk * 8

    def by_hand(k):
        many(b.players, k * hand_chunk, hand_chunk, None)
        return hand_chunk
    sides: dict[str, list[float]] = {"engine": [], "hand": []}
    for _ in range(rounds):
        sides["engine"].append(timed(engine, seconds))
        sides["hand"].append(timed(by_hand, seconds))
    med = {k: statistics.median(v) for k, v in sides.items()}
    return {"game": b.name, "players": b.players, "engine_games_s": med["engine"], "hand_games_s": med["hand"],
            "ratio": med["engine"] / med["hand"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds a side a round (default 1)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; the medians are printed (default 3)")
    ap.add_argument("--check", type=int, default=200, help="games checked against the engine first (default 200)")
    ap.add_argument("--game", choices=sorted(BASELINES), action="append", help="one baseline (default: all)")
    args = ap.parse_args(argv)
    for name in args.game or sorted(BASELINES):
        b = BASELINES[name]
        lib, why = build(b)
        if lib is None:
            print(f"{name}: not measured: {why}")
            continue
        rs = ruleset(b)
        check(lib, b, rs, args.check)
        r = measure(lib, b, rs, args.seconds, args.rounds)
        print(f"{name} ({b.ruleset}, {b.players} players, default options): {args.check} games identical; "
              f"by hand in C {r['hand_games_s']:,.0f} games/s, the native engine (cr_play_many) "
              f"{r['engine_games_s']:,.0f} games/s: the generated C is {r['ratio']:.3f} of the hand-written",
              flush=True)
        by_python = PYTHON_BASELINES.get(name)
        if by_python is not None:
            py = by_python()
            check_python(py, b, rs, args.check)
            p = measure_python(py, b, rs, args.seconds, args.rounds)
            print(f"{name}: by hand in Python (benchmarks/{py.__name__}.py) {p['python_games_s']:,.0f} games/s, "
                  f"{args.check} games identical; the native engine {p['engine_games_s']:,.0f} games/s, "
                  f"{p['ratio']:.1f}x the hand-written Python", flush=True)
    return 0


def _ganjifa_python():
    import ganjifa_python
    return ganjifa_python


# the same games written by hand in Python (a module with game(seed) and play_many(seed0, n))
PYTHON_BASELINES = {"ganjifa": _ganjifa_python}


def check_python(py, b: Baseline, rs, games: int, moves: int = 5) -> None:
    """The games written by hand in Python are the engine's: scores of `games` seeds, moves of `moves`."""
    eng = engine_scores(rs, b.players, 0, games)
    for seed, (x, y) in enumerate(zip(py.play_many(0, games), eng)):
        assert x == y, f"{b.name}, seed {seed}: scores {x} by hand in Python, {y} on the engine"
    for seed in range(moves):
        x, y = py.game(seed), engine_moves(rs, b, seed)
        assert x == y, f"{b.name}, seed {seed}: by hand in Python {x}, on the engine {y}"


def measure_python(py, b: Baseline, rs, seconds: float, rounds: int) -> dict:
    """The native engine's whole games against the Python written by hand, alternating."""
    run, _ = engine_many(rs, b.players)
    chunk = 64

    def engine(k):
        run(k * chunk * 16, chunk * 16)
        return chunk * 16

    def by_hand(k):
        return len(py.play_many(k * chunk, chunk))
    sides: dict[str, list[float]] = {"engine": [], "python": []}
    for _ in range(rounds):
        sides["engine"].append(timed(engine, seconds))
        sides["python"].append(timed(by_hand, seconds))
    med = {k: statistics.median(v) for k, v in sides.items()}
    return {"engine_games_s": med["engine"], "python_games_s": med["python"], "ratio": med["engine"] / med["python"]}


if __name__ == "__main__":
    sys.exit(main())
