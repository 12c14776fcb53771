"""OpenSpiel's CFR+ over a ruleset with explicit chance (`chance="explicit"`, `returns="points"`),
beside OpenSpiel's own game of the same name when there is one, and `cardrules solve
--equilibrium`'s own CFR+ on the ruleset: the tree's size, the seconds the iterations took, the
average policy's exploitability and each seat's value. Figures only, nothing asserted
(tests/adapters/test_openspiel_chance.py and tests/solver/test_equilibrium.py assert the small games).

    python benchmarks/equilibrium.py [--ruleset NAME] [--players N] [--iterations N]
                                     [--openspiel GAME] [--no-count]
    python benchmarks/equilibrium.py --figures [--python]

--figures: Kuhn poker (2,000 iterations) and Leduc poker (1,000), ours (the walk, then CFR+ in C
over the merged tree, and over the whole tree) beside OpenSpiel's C++ CFR+ on its own games, in
one run, as a table; --python adds our CFR+ without a compiler (CFRPlusArrays) on Leduc.

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
    t, cpu = time.perf_counter(), time.process_time()
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    policy = solver.average_policy()
    t = time.perf_counter()
    expl = pyspiel.exploitability(game, policy) if game.num_players() == 2 else None
    values = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
    return {"seconds": seconds, "cpu": cpu, "exploitability": expl, "values": values,
            "judge_seconds": time.perf_counter() - t}


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
    ap.add_argument("--figures", action="store_true", help="the issue's figures in one run: Kuhn (2,000 "
                    "iterations) and Leduc (1,000), ours and OpenSpiel's C++ CFR+, as a table")
    ap.add_argument("--python", action="store_true", help="with --figures: our CFR+ in Python on Leduc too")
    a = ap.parse_args(argv)
    if a.figures:
        return figures(a.python)
    import pyspiel
    from interpreter.adapters.openspiel import load_game
    ours = load_game(a.ruleset, players=a.players, chance="explicit", returns="points")
    theirs = a.openspiel or a.ruleset.replace("-", "_")
    if theirs != "none" and theirs in pyspiel.registered_names():
        params = {"players": ours.num_players()} if a.players else {}
        report(f"OpenSpiel's {theirs}", pyspiel.load_game(theirs, params), a.iterations, not a.no_count)
    report(f"cardrules {a.ruleset}", ours, a.iterations, not a.no_count)
    ours_cfr(a.ruleset, a.players, a.iterations)
    return 0


def ours_cfr(ruleset: str, players, iterations: int, options=None, how: str = "auto") -> dict:
    """`cardrules solve --equilibrium`'s CFR+ (interpreter/solver/equilibrium.py) on the same tree:
    the walk into flat lists, the solver's set-up (for C: the arrays, the merged tree), the
    iterations and the judging (values, best replies), timed apart. `how`: auto (what
    solve_equilibrium picks), c-tree (C over the tree, not merged), python (CFRPlus or
    CFRPlusArrays, as without a compiler)."""
    from interpreter.adapters.encoding import spec_for
    from interpreter.solver.equilibrium import (ARRAYS_FROM, CFRPlus, CFRPlusArrays, CFRPlusNative, build_tree,
                                                cfr_solver, judge)
    spec = spec_for(ruleset, players, options, returns="points", engine="python")
    t, cpu = time.perf_counter(), time.process_time()
    tree = build_tree(spec)
    walked, walked_cpu = time.perf_counter() - t, time.process_time() - cpu
    t, cpu = time.perf_counter(), time.process_time()
    if how == "python":
        cfr = CFRPlus(tree) if len(tree.kind) < ARRAYS_FROM else CFRPlusArrays(tree)
    elif how == "c-tree":
        cfr = CFRPlusNative(tree, merged=False)
    else:
        cfr = cfr_solver(tree)
    setup = time.perf_counter() - t
    t = time.perf_counter()
    cfr.run(iterations)
    took, cfr_cpu = time.perf_counter() - t, time.process_time() - cpu
    t = time.perf_counter()
    v, expl = judge(tree, cfr)
    judged = time.perf_counter() - t
    name = type(cfr).__name__ + ("" if not isinstance(cfr, CFRPlusNative) else
                                 f", {'merged: ' + format(cfr.flat.dag.nodes, ',') + ' nodes' if cfr.merged and cfr.flat.dag else 'tree'}")
    print(f"cardrules solve --equilibrium {ruleset}: the tree ({len(tree.kind):,} positions, {len(tree.infosets):,} "
          f"information sets) walked in {walked:.2f} s; set up in {setup:.2f} s; CFR+ {iterations} iterations in "
          f"{took:.3f} s ({name}); judged in {judged:.3f} s; exploitability {expl:.6f}"
          f"{'' if tree.players == 2 else ' (NashConv)'}; values {', '.join(f'{x:+.6f}' for x in v)}", flush=True)
    return {"walk": walked, "setup": setup, "seconds": took, "judge": judged, "exploitability": expl, "values": v,
            "solver": name, "walk_cpu": walked_cpu, "cpu": cfr_cpu}


def figures(python: bool) -> int:
    """The issue's figures in one run: Kuhn poker (2,000 iterations) and Leduc poker (1,000), ours
    beside OpenSpiel's C++ CFR+ on its own games, as a table."""
    import pyspiel
    rows = []

    def theirs(game, iterations):
        r = solve(pyspiel.load_game(game), iterations)
        rows.append((f"OpenSpiel C++ CFR+, {game}", iterations, r["values"][0], r["exploitability"], None,
                     r["seconds"], r["judge_seconds"], None, r["cpu"]))
        print(f"OpenSpiel's {game}: C++ CFR+ {iterations} iterations in {r['seconds']:.3f} s; exploitability "
              f"{r['exploitability']:.6f}; values {', '.join(f'{x:+.6f}' for x in r['values'])}", flush=True)

    def ours(ruleset, iterations, how):
        r = ours_cfr(ruleset, 2, iterations, how=how)
        rows.append((f"cardrules {ruleset} ({r['solver']})", iterations, r["values"][0], r["exploitability"],
                     r["walk"], r["setup"] + r["seconds"], r["judge"], r["walk_cpu"], r["cpu"]))

    theirs("kuhn_poker", 2000)
    ours("kuhn-poker", 2000, "auto")
    theirs("leduc_poker", 1000)
    ours("leduc-poker", 1000, "auto")
    ours("leduc-poker", 1000, "c-tree")
    theirs("leduc_poker", 1000)
    if python:
        ours("leduc-poker", 1000, "python")
    print("\n| solver | iterations | P1 value | exploitability | walk s (CPU s) | CFR+ s, set-up included (CPU s) "
          "| judge s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, it, v, e, w, s, j, wc, c in rows:
        walk = "-" if w is None else f"{w:.2f} ({wc:.2f})"
        print(f"| {name} | {it:,} | {v:+.6f} | {e:.6f} | {walk} | {s:.3f} ({c:.3f}) | {j:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
