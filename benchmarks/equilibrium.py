"""OpenSpiel's CFR+ over a ruleset with explicit chance (`chance="explicit"`, `returns="points"`),
beside OpenSpiel's own game of the same name when there is one: the tree's size, the seconds the
iterations took, the average policy's exploitability and each seat's value. Figures only,
nothing asserted (tests/test_openspiel_chance.py asserts the small games).

    python benchmarks/equilibrium.py [--ruleset NAME] [--players N] [--iterations N]
                                     [--openspiel GAME] [--no-count]

Defaults: leduc-poker, 100 iterations, beside OpenSpiel's leduc_poker. A ruleset's tree holds
every order of a shuffled pack (leduc-poker: 720 orders of six cards, where OpenSpiel deals 120
ways), so it is larger than the hand-written game's and every step is replayed in Python.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def solve(game, iterations: int) -> dict:
    """C++ CFR+ for `iterations` over `game`: seconds, exploitability and values of the average policy."""
    import pyspiel
    t = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - t
    policy = solver.average_policy()
    t = time.perf_counter()
    expl = pyspiel.exploitability(game, policy) if game.num_players() == 2 else None
    values = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
    return {"seconds": seconds, "exploitability": expl, "values": values, "judge_seconds": time.perf_counter() - t}


def count(game) -> collections.Counter:
    from open_spiel.python.algorithms import get_all_states
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)
    return collections.Counter("chance" if s.is_chance_node() else "terminal" if s.is_terminal() else "decision"
                               for s in states.values())


def report(name: str, game, iterations: int, counted: bool) -> None:
    if counted:
        t = time.perf_counter()
        c = count(game)
        print(f"{name}: {sum(c.values()):,} states ({c['chance']:,} chance, {c['decision']:,} decision, "
              f"{c['terminal']:,} terminal; counted in {time.perf_counter() - t:.1f} s)")
    r = solve(game, iterations)
    expl = "n/a (not 2 players)" if r["exploitability"] is None else f"{r['exploitability']:.5f}"
    values = ", ".join(f"{v:+.5f}" for v in r["values"])
    print(f"{name}: CFR+ {iterations} iterations in {r['seconds']:.1f} s; exploitability {expl}; "
          f"values {values} (judged in {r['judge_seconds']:.1f} s)", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="leduc-poker")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--openspiel", default=None, help="OpenSpiel's own game to compare (default: the "
                    "ruleset's name with '_' for '-', when OpenSpiel has it; 'none' for none)")
    ap.add_argument("--no-count", action="store_true", help="do not walk the tree to count its states")
    a = ap.parse_args(argv)
    import pyspiel
    from interpreter.adapters.openspiel import load_game
    ours = load_game(a.ruleset, players=a.players, chance="explicit", returns="points")
    theirs = a.openspiel or a.ruleset.replace("-", "_")
    if theirs != "none" and theirs in pyspiel.registered_names():
        params = {"players": ours.num_players()} if a.players else {}
        report(f"OpenSpiel's {theirs}", pyspiel.load_game(theirs, params), a.iterations, not a.no_count)
    report(f"cardrules {a.ruleset}", ours, a.iterations, not a.no_count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
