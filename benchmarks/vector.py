"""Games in batches (`interpreter.adapters.vector.VectorGames`): decisions a second with an
observation and a mask at every step, on each engine, against OpenSpiel's own loop (its C++
game stepped from Python, `observation_tensor` and `legal_actions` at every decision). Each
action is drawn at random among the legal ones, for the whole batch at once with NumPy, as a
learner's sampling would. The engines and OpenSpiel alternate round by round in one run, so
that a busy machine slows all alike; the median of each is printed with the ratios. Figures
only, nothing asserted.

    python benchmarks/vector.py [--games NAME,...] [--n N] [--seconds S] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from interpreter.adapters.vector import VectorGames  # noqa: E402

# (bundled ruleset, players, OpenSpiel's game of the same rules or None)
GAMES = {"goofspiel": ("classic/goofspiel", 2, "goofspiel(num_cards=13,imp_info=True,points_order=random)"),
         "crazy-eights": ("classic/crazy-eights", 5, "crazy_eights"),
         "hearts": ("classic/hearts", 4, "hearts"),
         "ganjifa": ("ganjifa/ganjifa", 3, None),
         "kuhn-poker": ("classic/kuhn-poker", 2, "kuhn_poker")}  # (a game every 2-3 decisions: restarts)


def batch_rate(name: str, players: int, engine: str, n: int, seconds: float) -> float:
    """Decisions a second of one batch of n games (its set-up left out)."""
    v = VectorGames(name, players, n=n, seed=0, engine=engine)
    obs, mask = v.reset()
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actions = np.argmax(mask * rng.random(mask.shape, np.float32), 1)
        obs, rewards, done, cut = v.step(actions)
        steps += 1
    return steps * n / (time.perf_counter() - t0)


def openspiel_rate(game_name: str, seconds: float) -> float | None:
    """Decisions a second of OpenSpiel's game stepped from Python with an observation each
    decision (its information-state tensor where the game has no observation tensor, as Hearts;
    chance nodes not counted; a simultaneous node counts each player's)."""
    try:
        import pyspiel
    except ImportError:
        return None
    from peers import observing, random_game
    game = pyspiel.load_game(game_name)
    rng = random.Random(0)
    see = observing(game)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        n += random_game(game, rng, see)
    return n / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="which of: " + ", ".join(GAMES))
    ap.add_argument("--n", type=int, default=1024, help="games in a batch (the Python engine's: a sixteenth)")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    for key in a.games.split(","):
        name, players, peer = GAMES[key]
        runs: dict[str, list[float]] = {"python": [], "native": [], "openspiel": []}
        for _ in range(a.rounds):
            runs["python"].append(batch_rate(name, players, "python", max(a.n // 16, 1), a.seconds))
            runs["native"].append(batch_rate(name, players, "native", a.n, a.seconds))
            if peer is not None:
                r = openspiel_rate(peer, a.seconds)
                if r is not None:
                    runs["openspiel"].append(r)
        med = {k: statistics.median(v) for k, v in runs.items() if v}
        line = (f"{key} ({players}p), decisions/s with an observation and a mask each: batch of {a.n} in C "
                f"{med['native']:,.0f}; Python engine ({max(a.n // 16, 1)} games) {med['python']:,.0f} "
                f"({med['native'] / med['python']:.1f}x)")
        if "openspiel" in med:
            line += f"; OpenSpiel's loop {med['openspiel']:,.0f} ({med['native'] / med['openspiel']:.1f}x)"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
