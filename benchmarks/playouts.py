"""Playout speed of the generic engine: random bots play complete games, one process.

    python benchmarks/playouts.py [--seconds T] [--rulesets GLOB] [--json]
    python benchmarks/playouts.py --profile [--rulesets GLOB] [--games N]

For every ruleset matched by GLOB (default rulesets/**/*.cards, relative to the checkout)
and every player count it allows, games with the default options are played for about T
seconds (seeds 0, 1, 2, ...; each bot is random.Random(seed) choosing among the legal
moves, so every run plays the same games). The table gives games played, complete games per
second, mean decisions per game, decisions per second, the tracemalloc peak of a separate
short run (new_game + play, ruleset already loaded) and the process's maximum resident set
size so far (ru_maxrss, which only grows). Figures only: nothing here asserts a speed.

--profile runs cProfile over N (default 50) games of the first ruleset matched, with three
players when it allows three, and prints the top 25 functions by cumulative and by total time.
"""

from __future__ import annotations

import argparse
import cProfile
import glob
import io
import json
import os
import platform
import pstats
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import apply, legal_moves, new_game  # noqa: E402

TARGET_GAMES_PER_S = 200
TARGET_FILE = "ganjifa.cards"
TARGET_PLAYERS = 3
MEMORY_GAMES = 3          # games in the tracemalloc run
MAX_DECISIONS = 100_000   # a guard: a random game this long is abandoned and reported


def play_one(rs, players: int, seed: int) -> tuple[int, bool]:
    """One complete random game; returns (decisions, finished)."""
    s = new_game(rs, players, None, seed)
    rng = random.Random(seed)
    choice = rng.choice
    n = 0
    while not s.finished:
        moves = legal_moves(s)
        if not moves or n >= MAX_DECISIONS:
            return n, False
        apply(s, choice(moves))
        n += 1
    return n, True


def maxrss_mib() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024  # bytes on macOS, KiB on Linux


def bench(rs, players: int, seconds: float) -> dict:
    play_one(rs, players, 10**9)  # warm-up, not counted
    games = decisions = unfinished = 0
    t0 = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        d, ok = play_one(rs, players, games)
        games += 1
        decisions += d
        unfinished += not ok
        elapsed = time.perf_counter() - t0
    tracemalloc.start()
    tracemalloc.reset_peak()
    for seed in range(MEMORY_GAMES):
        play_one(rs, players, seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": games / elapsed,
        "mean_decisions": decisions / games,
        "decisions_per_s": decisions / elapsed,
        "unfinished": unfinished,
        "tracemalloc_peak_kib": peak / 1024,
        "maxrss_mib": maxrss_mib(),
    }


def find_rulesets(pattern: str) -> list[Path]:
    base = pattern if os.path.isabs(pattern) else str(ROOT / pattern)
    return sorted(Path(p) for p in glob.glob(base, recursive=True) if p.endswith(".cards"))


def label(path: Path) -> str:
    try:
        return path.relative_to(ROOT / "rulesets").as_posix()
    except ValueError:
        return str(path)


def run_table(paths: list[Path], seconds: float, as_json: bool) -> None:
    rows = []
    for path in paths:
        t = time.perf_counter()
        rs = load_ruleset(path)
        load_s = time.perf_counter() - t
        for n in range(rs.players_min, rs.players_max + 1):
            row = {"ruleset": label(path), "players": n, "load_s": round(load_s, 3)}
            row.update(bench(rs, n, seconds))
            rows.append(row)
            if not as_json:
                print_row(row, header=len(rows) == 1)
    target = next((r for r in rows if Path(r["ruleset"]).name == TARGET_FILE and r["players"] == TARGET_PLAYERS), None)
    verdict = ("not measured (no such row in this selection)" if target is None else
               f"{target['ruleset']} {TARGET_PLAYERS}p: {target['games_per_s']:.1f} games/s -> "
               + ("MEETS the target" if target["games_per_s"] >= TARGET_GAMES_PER_S else
                  f"does NOT meet the target ({target['games_per_s'] / TARGET_GAMES_PER_S:.0%} of it; "
                  f"{TARGET_GAMES_PER_S / target['games_per_s']:.1f}x short)"))
    target_line = f"target: >= {TARGET_GAMES_PER_S} complete {TARGET_PLAYERS}-player Ganjifa games/s, one process"
    if as_json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "seconds_per_row": seconds, "rows": rows, "target": target_line,
                          "target_games_per_s": TARGET_GAMES_PER_S,
                          "target_met": None if target is None else target["games_per_s"] >= TARGET_GAMES_PER_S,
                          "verdict": verdict}, indent=1))
        return
    print()
    print(target_line)
    print(f"result: {verdict}")


COLUMNS = [("ruleset", "{:<38}", "{:<38}"), ("players", "{:>7}", "{:>7}"), ("games", "{:>6}", "{:>6}"),
           ("games/s", "{:>8}", "{:>8.1f}"), ("dec/game", "{:>8}", "{:>8.1f}"), ("dec/s", "{:>8}", "{:>8.0f}"),
           ("tracemalloc peak KiB", "{:>20}", "{:>20.0f}"), ("maxrss MiB", "{:>10}", "{:>10.1f}")]
KEYS = ["ruleset", "players", "games", "games_per_s", "mean_decisions", "decisions_per_s",
        "tracemalloc_peak_kib", "maxrss_mib"]


def print_row(row: dict, header: bool) -> None:
    if header:
        print(" ".join(h.format(name) for name, h, _ in COLUMNS))
    line = " ".join(f.format(row[k]) for (_, _, f), k in zip(COLUMNS, KEYS))
    if row["unfinished"]:
        line += f"  ({row['unfinished']} games stuck or over {MAX_DECISIONS} decisions)"
    print(line, flush=True)


def run_profile(paths: list[Path], games: int) -> None:
    path = paths[0]
    rs = load_ruleset(path)
    players = TARGET_PLAYERS if rs.players_min <= TARGET_PLAYERS <= rs.players_max else rs.players_min
    print(f"cProfile: {games} games of {label(path)} with {players} players (seeds 0..{games - 1})\n")
    play_one(rs, players, 10**9)  # warm-up
    prof = cProfile.Profile()
    t = time.perf_counter()
    prof.enable()
    for seed in range(games):
        play_one(rs, players, seed)
    prof.disable()
    wall = time.perf_counter() - t
    print(f"{games} games in {wall:.2f} s under the profiler\n")
    for key in ("cumulative", "tottime"):
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        stats.sort_stats(key).print_stats(25)
        text = out.getvalue()
        print(f"==== top 25 by {key} ====")
        print(text[text.index("   ncalls"):] if "   ncalls" in text else text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per ruleset and player count (default 3)")
    ap.add_argument("--rulesets", default="rulesets/**/*.cards", help="glob, relative to the checkout (default rulesets/**/*.cards)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--profile", action="store_true", help="profile games of the first ruleset instead of timing")
    ap.add_argument("--games", type=int, default=50, help="games for --profile (default 50)")
    args = ap.parse_args(argv)
    paths = find_rulesets(args.rulesets)
    if not paths:
        print(f"no .cards files match {args.rulesets!r}", file=sys.stderr)
        return 2
    if args.profile:
        run_profile(paths, args.games)
    else:
        run_table(paths, args.seconds, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
