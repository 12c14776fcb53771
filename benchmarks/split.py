"""How long the going-out test takes on a full hand: Euro-Jongg's `complete(p)` and its
best-score form, which search for a partition with the language's `split`.

    python benchmarks/split.py [--random N]

Prints the time per hand for hands built to be hard (many copies of few ranks, so that many
partial partitions look promising), and the worst of N random hands drawn from few ranks.
Figures only: no test asserts a time."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import program_of  # noqa: E402
from interpreter.engine.play import _fresh  # noqa: E402

SUITS = {"H": "Hearts", "S": "Spades", "C": "Clubs", "D": "Diamonds"}


def hand(spec: str) -> list[str]:
    """'3H*4 6H*2' -> four 3 of Hearts and two 6 of Hearts, as card names."""
    out = []
    for item in spec.split():
        card, k = item.split("*")
        out += [f"{card[:-1]}-{SUITS[card[-1]]}#{i}" for i in range(1, int(k) + 1)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=300, help="random hands to try (default 300)")
    args = ap.parse_args()
    rs = load_ruleset(ROOT / "rulesets" / "euro-jongg" / "euro-jongg.cards")
    prog = program_of(rs)
    ns = prog.namespace
    complete, best = ns["D_complete"], ns["D_hand_sets_points"]

    def timed(names: list[str], fn) -> tuple[float, object]:
        s = _fresh(prog, 4, None, 0)
        hand_zone = s.zbase[prog.zone_index["hand"]]
        s.move([prog.card_names.index(n) for n in names], hand_zone, False)
        t0 = time.perf_counter()
        result = fn(s, 0)
        return time.perf_counter() - t0, result

    cases = [
        ("2..8 Hearts twice (complete)", "2H*2 3H*2 4H*2 5H*2 6H*2 7H*2 8H*2"),
        ("3333 4444 5555 66 Hearts (complete)", "3H*4 4H*4 5H*4 6H*2"),
        ("3333 4444 5555 6 7 Hearts (not complete)", "3H*4 4H*4 5H*4 6H*1 7H*1"),
        ("2..8 Hearts twice, one 8 swapped for 9 Spades (not)", "2H*2 3H*2 4H*2 5H*2 6H*2 7H*2 8H*1 9S*1"),
        ("AAA 222 333 444 66 Hearts (complete)", "AH*3 2H*3 3H*3 4H*3 6H*2"),
    ]
    print(f"{'14-card hand':55s} {'complete':>9s} {'ms':>7s} {'best score':>10s} {'ms':>7s}")
    worst = 0.0
    for label, spec in cases:
        t1, r1 = timed(hand(spec), complete)
        t2, r2 = timed(hand(spec), best)
        worst = max(worst, t1, t2)
        print(f"{label:55s} {str(r1):>9s} {t1 * 1000:7.2f} {r2:>10} {t2 * 1000:7.2f}")
    rng = random.Random(1)
    pool = [n for n in prog.card_names if n.split("-")[1].startswith(("Hearts", "Spades"))
            and n.split("-")[0] in ("2", "3", "4", "5", "6", "7", "8")]
    slowest = (0.0, None)
    for _ in range(args.random):
        names = rng.sample(pool, 14)
        for fn in (complete, best):
            t, _ = timed(names, fn)
            if t > slowest[0]:
                slowest = (t, sorted(names))
    worst = max(worst, slowest[0])
    print(f"worst of {args.random} random 14-card hands from 2..8 of Hearts and Spades: {slowest[0] * 1000:.2f} ms")
    print(f"worst case seen: {worst * 1000:.2f} ms per going-out test on a full hand")


if __name__ == "__main__":
    main()
