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
the allowance) cannot be met by working out the rules faster. Figures only: nothing here asserts
a speed."""

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
    print(f"floor: {hand:.2f} us per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
