"""How long a decision that offers sets of cards takes to work out (`S subset of table`).

    python benchmarks/sets.py [--repeat N]

The fishing game of the tests (tests/engine/sets/fishing.cards: a card from the hand captures any set
of table cards whose pips add up to its own) is set up with 10, 15 and 20 cards on the table
(A..10 of Clubs, then of Diamonds) and the 10, 9 and 8 of Spades in hand, and its legal moves are
worked out afresh N times on the Python engine; on the native engine (where a C compiler is
found) the same position is loaded and its moves worked out in C. The sum `(sum x in S: x.pips)
== c.pips` cuts the search: sets that can no longer add up are never tried. The last rows take
`count(S) <= 2`, which cuts the search to the sets of one or two cards, and then a condition
that cuts nothing (`count(S) + 0 <= 2`, not read as a bound): every set of the table is tried,
which the engines allow up to 14 cards (MAX_TRIED, 16,384 sets) and refuse beyond with a located
error. Prints milliseconds per decision; figures only, nothing is asserted."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import loads_ruleset  # noqa: E402
from interpreter.engine import legal_moves, position, recompute_legal  # noqa: E402

FISHING = ROOT / "tests" / "engine" / "sets" / "fishing.cards"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
HAND = ["10-Spades", "9-Spades", "8-Spades"]


def table(n: int) -> list[str]:
    return [f"{r}-{s}" for s in ("Clubs", "Diamonds") for r in RANKS][:n]


def timed(fn, repeat: int) -> float:
    """The best of `repeat` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1000


def rows(text: str, name: str, repeat: int, sizes=(10, 15, 20)) -> None:
    rs = loads_ruleset(text, str(FISHING))
    try:
        from interpreter.native.engine import NativeGame
        NativeGame(rs, 2)
    except Exception as e:  # noqa: BLE001 - no compiler here: the Python rows alone
        NativeGame = None
        print(f"  (native engine: {type(e).__name__}: {e})")
    for n in sizes:
        s = position(rs, 2, "play", zones={"table": table(n), "hand": {0: HAND, 1: ["A-Spades"]}})
        count = len(legal_moves(s))
        py = timed(lambda: recompute_legal(s), repeat)
        line = f"{name}, {n:2d} cards on the table, {count:4d} moves: python {py:8.2f} ms"
        if NativeGame is not None:
            game = NativeGame(rs, 2)
            native = timed(lambda: game.load(s), repeat)
            line += f", native {native:8.3f} ms (loading the position included)"
        print(line)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    text = FISHING.read_text()
    rows(text, "a sum cuts the search", args.repeat)
    rows(text.replace("where (sum x in S: x.pips) == c.pips", "where count(S) <= 2"), "a count cuts it      ",
         args.repeat)
    rows(text.replace("where (sum x in S: x.pips) == c.pips", "where count(S) + 0 <= 2"), "nothing cuts it      ",
         max(1, args.repeat // 5), sizes=(10, 12, 14))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
