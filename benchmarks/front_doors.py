"""The front doors' game-playing parts on each engine: the games of `cardrules balance` (its
random games and its skill games, greedy by default) and of `cardrules fuzz`, measured inside the
command (the imports, the plots and the report left out), the engines alternating round by round
in one run, so that a busy machine slows both alike. Prints each engine's median seconds and the
ratio; the results must be the same on both (checked). Figures only, nothing asserted.

    python benchmarks/front_doors.py [--job balance|fuzz|all] [--ruleset NAME] [--players N]
                                     [--games K] [--strong BOT] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.balance import _configs, make_report  # noqa: E402
from interpreter.bundled import resolve  # noqa: E402
from interpreter.engine import program_of  # noqa: E402
from interpreter.engines import choose  # noqa: E402
from interpreter.fuzz.command import fuzz_ruleset  # noqa: E402

ENGINES = ("python", "native")


def balance_games(ruleset: str, players: int | None, games: int, strong: str | None, engine: str):
    """make_report's games, as `cardrules balance ... --workers 1 --engine ENGINE` plays them."""
    configs = _configs(Path(ruleset), None, players, [], [])
    choose([program_of(c.rs) for c in configs], engine)  # built (or loaded) before the clock starts
    t = time.perf_counter()
    data, _ = make_report(configs, games, 0, strong, games, engine=engine)
    return time.perf_counter() - t, data


def fuzz_games(ruleset: str, games: int, engine: str):
    """fuzz_ruleset's games and checks, as `cardrules fuzz ... -k K --workers 1 --engine ENGINE`."""
    fuzz_ruleset(ruleset, games=1, seed=0, engine=engine)  # built (or loaded), and warm, before the clock
    t = time.perf_counter()
    report = fuzz_ruleset(ruleset, games=games, seed=0, engine=engine)
    return time.perf_counter() - t, ([f.to_json() for f in report.findings], report.fired, report.games)


def measure(label: str, job, rounds: int) -> None:
    times = {e: [] for e in ENGINES}
    results = {}
    for r in range(rounds):
        for e in (ENGINES if r % 2 == 0 else ENGINES[::-1]):
            seconds, result = job(e)
            times[e].append(seconds)
            results.setdefault(e, result)
            if result != results[e]:
                raise SystemExit(f"{label}: two runs on {e} differ")
    if results["python"] != results["native"]:
        raise SystemExit(f"{label}: the engines' results differ")
    py, nat = (statistics.median(times[e]) for e in ENGINES)
    print(f"{label}: python {py:.2f} s, native {nat:.2f} s: native {py / nat:.1f}x "
          f"(median of {rounds} rounds, the same results)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--job", choices=("balance", "fuzz", "all"), default="all")
    ap.add_argument("--ruleset", default=None, help="default: ganjifa for balance, kendra-kari for fuzz")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=None, help="default: 200 for balance, 20 for fuzz")
    ap.add_argument("--strong", default="greedy", help="the skill games' player ('none' for none)")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    strong = None if a.strong == "none" else a.strong
    if a.job in ("balance", "all"):
        path = str(resolve(a.ruleset or "ganjifa"))
        games = a.games or 200
        players = a.players or (3 if a.ruleset is None else None)
        measure(f"balance {Path(path).stem} -n {players} -k {games} --strong {a.strong} (its games)",
                lambda e: balance_games(path, players, games, strong, e), a.rounds)
    if a.job in ("fuzz", "all"):
        path = str(resolve(a.ruleset or "kendra-kari"))
        games = a.games or 20
        measure(f"fuzz {Path(path).stem} -k {games} (its games and checks)",
                lambda e: fuzz_games(path, games, e), a.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
