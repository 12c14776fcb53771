"""Playout speed of the generic engine: random bots play complete games, one process.

    python benchmarks/playouts.py [--seconds T] [--rulesets GLOB] [--json]
    python benchmarks/playouts.py --against REV [--rounds R] [--seconds T] [--rulesets GLOB]
    python benchmarks/playouts.py --profile [--rulesets GLOB] [--games N]

--against REV measures this tree against the engine of git revision REV (a worktree of it,
made for the run and removed after) in one run: for R rounds (default 3), the base and this
tree alternately play every row in a fresh process each, so a busy machine slows both alike.
It prints each side's median games/s, the ratio, the target ratio of issue 9 for that row, the
microseconds a decision takes now and the microseconds it may take to meet the target (compare
the floor printed by benchmarks/floor.py), then the cost of cloning a mid-game Ganjifa state and
playing it out at random.

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


# speed-up targets (issue 9), by ruleset file name; every other ruleset: RATIO_FLOOR
RATIO_TARGETS = {"ganjifa.cards": 10, "euro-jongg.cards": 10, "shakti.cards": 5, "shakti-inverted.cards": 5,
                 "udvasa.cards": 5, "udvasa-inverted.cards": 5, "kendra-kari.cards": 3, "komi.cards": 3,
                 "sama.cards": 3}
RATIO_FLOOR = 3
CLONE_TARGET_MS = 1.0


def clone_playout_ms(root: Path, games: int = 300) -> float:
    """Mean time to clone a mid-game 3-player Ganjifa state (60 decisions in) and play the clone
    out at random, in a fresh process importing the engine of `root`."""
    import subprocess
    code = f"""
import random, sys, time
sys.path.insert(0, {str(root)!r})
from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves, new_game
rs = load_ruleset({str(root / "rulesets" / "ganjifa" / "ganjifa.cards")!r})
s = new_game(rs, 3, None, 5)
rng = random.Random(1)
for _ in range(60):
    apply(s, rng.choice(legal_moves(s)))
def run(k):
    c = s.clone(); r = random.Random(k)
    while not c.finished:
        apply(c, r.choice(legal_moves(c)))
for k in range(20):
    run(k)
t = time.perf_counter()
for k in range({games}):
    run(k)
print((time.perf_counter() - t) / {games} * 1000)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_against(rev: str, pattern: str, seconds: float, rounds: int) -> int:
    import statistics
    import subprocess
    import tempfile
    wt = Path(tempfile.mkdtemp(prefix="cardrules-base-"))
    try:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(wt), rev], check=True)
        base_rev = subprocess.run(["git", "-C", str(wt), "log", "-1", "--format=%h %s"], capture_output=True,
                                  text=True).stdout.strip()
        print(f"base: {base_rev}\nnew:  this tree ({ROOT})\n{rounds} alternating rounds, {seconds:g} s per row\n",
              flush=True)
        figures: dict = {}
        decisions: dict = {}  # mean decisions per game (the same games on both sides)
        clones: dict = {"base": [], "new": []}
        for r in range(rounds):
            for side, root in (("base", wt), ("new", ROOT)):
                out = subprocess.run([sys.executable, str(root / "benchmarks" / "playouts.py"), "--seconds",
                                      str(seconds), "--rulesets", pattern, "--json"],
                                     capture_output=True, text=True, cwd=root)
                if out.returncode != 0:
                    print(out.stderr, file=sys.stderr)
                    return 1
                for row in json.loads(out.stdout)["rows"]:
                    figures.setdefault((row["ruleset"], row["players"]), {"base": [], "new": []})[side].append(
                        row["games_per_s"])
                    decisions[(row["ruleset"], row["players"])] = row["mean_decisions"]
                clones[side].append(clone_playout_ms(root))
            print(f"round {r + 1} of {rounds} done", flush=True)
        print(f"\n{'ruleset':<38} {'players':>7} {'base g/s':>9} {'new g/s':>9} {'ratio':>7} {'target':>7} "
              f"{'us/dec':>7} {'allows':>7}")
        missed = 0
        ratios = []
        for (rel, n), sides in figures.items():
            if not sides["base"] or not sides["new"]:
                continue
            b, nw = statistics.median(sides["base"]), statistics.median(sides["new"])
            ratio = nw / b
            ratios.append(ratio)
            target = RATIO_TARGETS.get(Path(rel).name, RATIO_FLOOR)
            missed += ratio < target
            per = decisions.get((rel, n)) or 1
            # the time one decision may take for the row to meet its target (benchmarks/floor.py: the floor)
            print(f"{rel:<38} {n:>7} {b:>9.1f} {nw:>9.1f} {ratio:>6.2f}x {target:>6}x "
                  f"{1e6 / (nw * per):>7.2f} {1e6 / (target * b * per):>7.2f}"
                  + ("" if ratio >= target else "  (short of the target)"))
        cb, cn = statistics.median(clones["base"]), statistics.median(clones["new"])
        print(f"\nclone a mid-game Ganjifa state and play it out: base {cb:.2f} ms, new {cn:.2f} ms "
              f"({cb / cn:.2f}x; target <= {CLONE_TARGET_MS:g} ms)")
        print(f"rows: {len(ratios)}, slowest ratio {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x, "
              f"{missed} short of their target")
        return 0
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)], capture_output=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per ruleset and player count (default 3)")
    ap.add_argument("--rulesets", default="rulesets/**/*.cards", help="glob, relative to the checkout (default rulesets/**/*.cards)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--profile", action="store_true", help="profile games of the first ruleset instead of timing")
    ap.add_argument("--games", type=int, default=50, help="games for --profile (default 50)")
    ap.add_argument("--against", metavar="REV", help="compare with the engine of git revision REV, alternately")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds for --against (default 3)")
    args = ap.parse_args(argv)
    if args.against:
        return run_against(args.against, args.rulesets, args.seconds, args.rounds)
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
