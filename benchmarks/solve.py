"""How fast is the solver in C against the Python reference? Late positions of seeded deals
(each at its first lead, then random players to N decisions from its end), solved with every card
shown on the Python engine and on the native one; prints each position's nodes, both times, the
nodes a second and the ratio, and checks that both give the same answer. Figures only.

    python benchmarks/solve.py [--seeds K] [--nodes N] [--seconds S] [--case NAME:PLAYERS:LEFT]... [--c-only]

`--c-only` solves in C alone (deeper positions, where Python would take minutes): nodes, seconds
and the value of each.

By default: Hearts with 12 and 16 cards left (max^n), Bridge with 12 left (alpha-beta, by sides).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.players.bots import bot_seed, make_bot  # noqa: E402
from interpreter.bundled import bundled  # noqa: E402
from interpreter import load_ruleset  # noqa: E402
from interpreter.engine import apply, moves_for, new_game, sides  # noqa: E402
from interpreter.native.engine import new_native_game  # noqa: E402
from interpreter.solver import Solver  # noqa: E402

CASES = ["hearts:4:12", "hearts:4:16", "bridge:4:12"]


def late(rs, players: int, seed: int, left: int):
    """The deal's position `left` decisions from its end (random players), from its first lead."""
    s = new_game(rs, players, None, seed)
    bots = [make_bot("random", bot_seed(seed, k)) for k in range(players)]
    while not s.finished and not any(str(m).startswith(("play", "lead")) for m in moves_for(s)):
        apply(s, bots[s.actor].choose(s))
    if s.finished:
        return None
    t, n = s.clone(), 0
    while not t.finished:
        apply(t, bots[t.actor].choose(t))
        n += 1
    for _ in range(n - left):
        apply(s, bots[s.actor].choose(s))
    return s


def twin(s, seed: int):
    n = new_native_game(s.program.ruleset, s.n_players, None, seed)
    for m in s.history:
        apply(n, next(x for x in n._legal if (x.player, x.action, x.arg) == (m.player, m.action, m.arg)))
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--case", action="append", help="NAME:PLAYERS:LEFT, a bundled game (repeatable)")
    ap.add_argument("--c-only", action="store_true", help="solve in C alone")
    a = ap.parse_args()
    if a.c_only:
        return c_only(a)
    print(f"{'position':<22} {'nodes':>9} {'python s':>9} {'C s':>8} {'py nodes/s':>11} {'C nodes/s':>10} {'ratio':>6}  same")
    for case in a.case or CASES:
        name, players, left = case.split(":")
        rs = load_ruleset(bundled()[name])
        tp = tc = 0.0
        nodes = 0
        for seed in range(a.seeds):
            s = late(rs, int(players), seed, int(left))
            if s is None:
                continue
            n = twin(s, seed)
            side = [list(x) for x in sides(s)]
            t0 = time.perf_counter()
            p = Solver(s.n_players, side, a.nodes, a.seconds).solve(s)
            t1 = time.perf_counter()
            c = Solver(s.n_players, side, a.nodes, a.seconds).solve(n)
            t2 = time.perf_counter()
            same = (p.value, p.nodes, p.complete, [str(m) for m in p.line]) == (c.value, c.nodes, c.complete, [str(m) for m in c.line])
            tp, tc, nodes = tp + t1 - t0, tc + t2 - t1, nodes + p.nodes
            print(f"{name} {left} left, seed {seed:<3} {p.nodes:>9,} {t1 - t0:>9.3f} {t2 - t1:>8.4f} "
                  f"{p.nodes / (t1 - t0):>11,.0f} {c.nodes / (t2 - t1):>10,.0f} {(t1 - t0) / (t2 - t1):>6.1f}  "
                  f"{'yes' if same else 'NO'}", flush=True)
        if tc:
            print(f"{name} {left} left, all     {nodes:>9,} {tp:>9.3f} {tc:>8.4f} {nodes / tp:>11,.0f} "
                  f"{nodes / tc:>10,.0f} {tp / tc:>6.1f}", flush=True)


def c_only(a) -> None:
    print(f"{'position':<22} {'nodes':>11} {'C s':>8} {'C nodes/s':>10}  value")
    for case in a.case or CASES:
        name, players, left = case.split(":")
        rs = load_ruleset(bundled()[name])
        for seed in range(a.seeds):
            s = late(rs, int(players), seed, int(left))
            if s is None:
                continue
            n = twin(s, seed)
            t0 = time.perf_counter()
            c = Solver(s.n_players, [list(x) for x in sides(s)], a.nodes, a.seconds).solve(n)
            t = time.perf_counter() - t0
            print(f"{name} {left} left, seed {seed:<3} {c.nodes:>11,} {t:>8.3f} {c.nodes / t:>10,.0f}  {c.value:g}"
                  f"{'' if c.complete else ' (NOT solved to the end)'}", flush=True)


if __name__ == "__main__":
    main()
