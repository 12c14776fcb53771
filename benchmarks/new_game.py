"""What a new game costs before its first decision on the native engine, as the adapters meet
it: a `NativeGame`, a PettingZoo `reset` (Goofspiel) and a new OpenSpiel state of Kuhn poker
with its legal actions, in microseconds of processor time, the best of a few rounds (a busy
machine only adds time). Short games pay it often: a Kuhn poker game is three decisions.

    python benchmarks/new_game.py [--rounds R] [--games N]

It imports the package from the current folder, so that `../shared/tools/ab -- python
/path/to/benchmarks/new_game.py` measures the tree it runs in. Figures only, nothing asserted."""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.getcwd())

from interpreter import load_ruleset  # noqa: E402
from interpreter.bundled import bundled  # noqa: E402
from interpreter.native.engine import NativeGame  # noqa: E402


def best_of(rounds: int, games: int, make) -> float:
    """The fastest round's microseconds a new game (`make(seed)`)."""
    make(0)  # (built or loaded before the clock)
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        for seed in range(games):
            make(seed)
        best = min(best, (time.process_time() - t) / games * 1e6)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=3000)
    a = ap.parse_args()
    goofspiel = load_ruleset(bundled()["classic/goofspiel"])
    rows = {"NativeGame (Goofspiel)": lambda seed: NativeGame(goofspiel, 2, {}, seed)}
    try:
        from interpreter.adapters.pettingzoo import env
        e = env("classic/goofspiel", players=2, engine="native")
        rows["PettingZoo reset (Goofspiel)"] = lambda seed: e.reset(seed=seed)
    except ImportError:
        pass
    try:
        from interpreter.adapters.openspiel import load_game
        kuhn = load_game("classic/kuhn-poker", players=2, engine="native")
        rows["OpenSpiel state and its legal actions (Kuhn poker)"] = lambda seed: kuhn.new_initial_state().legal_actions()
    except ImportError:
        pass
    for label, make in rows.items():
        print(f"{label}: {best_of(a.rounds, a.games, make):.1f} µs", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
