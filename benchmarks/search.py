"""How strong is a search player, and how fast? Seeded games of one ruleset with the search
player (`ismcts` by default, or any bot given by --bot, e.g. `plan` for a patience) in one seat
(moving round the table from game to game) against the same bot in every other seat; prints
its win rate with a 95% Wilson interval, the share a seat would get by chance, and the mean
seconds per decision it made. Figures only, nothing asserted.

    python benchmarks/search.py [--ruleset PATH] [--players N] [--games K] [--iterations N]
                                [--bot SPEC] [--opponents random|greedy] [--seed S]
                                [--engine python|native|both] [--option NAME=VALUE ...]

With --engine both, each game is played on the Python engine and then on the native one (the
search player runs its whole search in C there): the same seeds give the same games, move for
move, so the ratio of the times is the speed of the search alone.

The planning player, depth first (`plan`, the default since issue 40) against best first
(`plan:best`, the search before it), on the native engine, a machine shared with other jobs
(interpreter/players/plan.py says why depth first, and what the table and the budget are):

    ruleset (games)                      plan:best                        plan
    klondike, cards hidden (500)         161 = 32.2% (28.3-36.4), 0.37 s  152 = 30.4% (26.5-34.6), 0.18 s
    klondike, visible=true (500)         232 = 46.4% (42.1-50.8), 0.33 s  274 = 54.8% (50.4-59.1), 0.73 s
    udvasa (40)                          38 = 95.0% (83.5-98.6), 2.06 s   40 = 100% (91.2-100), 0.50 s
    freecell (10)                        2 of 10, 8.6 s                   8 of 10, 1.5 s

With every card seen a plan looks at DEFAULT_SEEN positions; raised from 20,000 to 100,000 on
2026-12-01 (one other job running; with cards hidden, the same 152 deals as above, 0.12 s):

    klondike, visible=true (500)         plan, 20,000: 274 = 54.8% (above)   plan, 100,000: 298 = 59.6% (55.2-63.8), 0.81 s
    freecell (10)                        8 of 10, 0.34 s                      9 of 10, 0.44 s

In rounds of departures from the advice (limited discrepancy search, plan.py says why;
2026-12-01, the depth-first rows above are from before them):

                                     one departure for any but the best   the k-th best k - 1 (kept)
    klondike, visible=true (500)         417 = 83.4% (79.9-86.4), 0.65 s      423 = 84.6% (81.2-87.5), 0.53 s
    klondike, cards hidden (500)         170 = 34.0% (30.0-38.3), 0.12 s      169 = 33.8% (29.8-38.1), 0.18 s
    udvasa (40)                          40 = 100% (91.2-100), 0.55 s         40 = 100%, 0.44 s
    freecell (10)                        10 of 10, 1.8 s                      10 of 10, 1.3 s

and with 300,000 positions a plan where every card is seen (DEFAULT_SEEN since 2026-12-01):

    klondike, visible=true (500)         plan: 437 = 87.4% (84.2-90.0), 1.03 s
    freecell (10)                        plan: 10 of 10, 1.9 s

(won, Wilson 95% interval, seconds a game), each by

    python benchmarks/search.py --ruleset rulesets/classic/klondike.cards --players 1 --games 500 \
        --bot plan --engine native [--option visible=true]

The search player, single observer (`ismcts`, the default) against multiple observer
(`moismcts`: each node keyed also by what its player sees, interpreter/players/search.py), native
engine, 2026-11-30, a machine shared with other jobs (won, Wilson 95% interval):

    ruleset, opponents (games)                        ismcts                    moismcts
    hearts, 3 greedy, 1000 iterations (400)           251.5 = 62.9% (58.0-67.5)  236.5 = 59.1% (54.2-63.8)
    hearts, 3 moismcts:1000, 10000 iterations (100)   26.5 = 26.5% (18.8-35.9)   29.5 = 29.5% (21.5-39.1)
    ganjifa 3p, 2 greedy, 300 iterations (300)        117 = 39.0% (33.7-44.6)    122 = 40.7% (35.3-46.3)

by `--ruleset rulesets/classic/hearts.cards --players 4 --opponents greedy --bot B:1000
--games 200` with --seed 0 and --seed 200 (moismcts:1000: 117.5 and 119 of 200); `--opponents moismcts:1000 --bot B:10000
--games 100` (moismcts:1000 stands in for OpenSpiel's ISMCTSBot, which keys nodes the same way);
`--ruleset rulesets/ganjifa/ganjifa.cards --players 3 --games 300 --seed 400 --bot B`. Neither
is clearly the stronger; `ismcts` stays the default. At 100000 iterations a Hearts decision
takes about as long with either (1.6 to 2.6 s of processor time for moismcts, 2.0 to 3.2 s for
ismcts, on one lead and one pass).

The search widened by the advice (2026-12-01: where the ruleset gives advice, a node has at
most ceil((visits + 1)^0.35) children, the move its player's advice values most one move ahead
added first; search.py's WIDENING), against 2 greedy players, ganjifa 3p, 300 games each:

    seeds, iterations          before (the figures above and below)   widened
    400..699, 300              117 = 39.0% (33.7-44.6)                141.5 = 47.2% (41.6-52.8), 0.0075 s a decision
    0..299, 300                124 = 41.3% (35.9-47.0)                144 = 48.0% (42.4-53.6)

What the hidden cards cost the search (measured before the widening): with --see-all the measured `ismcts` samples the true
position every time (ISMCTSBot.peek: not a fair player, the most that better sampling of the
hidden cards could buy), on the same seeds as the fair search (native engine, 2026-11-30):

    ruleset, opponents (games, seeds)                 iterations  fair                       seeing every card
    hearts, 3 greedy (400, 0..399)                    1,000       62.9% (58.0-67.5)          68.2% (63.5-72.6)
    hearts, 3 greedy (200, 0..199)                    10,000                                 65.0% (58.2-71.3)
    ganjifa 3p, 2 greedy (300, 400..699)              300         39.0% (33.7-44.6)          41.7% (36.2-47.3)
    ganjifa 3p, 2 greedy (150, 400..549)              3,000       44.0% (36.3-52.0)          50.0% (42.1-57.9)

by `--ruleset rulesets/classic/hearts.cards --players 4 --opponents greedy --bot ismcts:1000
--games 400 --see-all` and `--ruleset rulesets/ganjifa/ganjifa.cards --players 3 --opponents
greedy --bot ismcts:300 --games 300 --seed 400 --see-all` (the others alike). Seeing every card
buys 3 to 6 points; even so the search stays under issue 40's floors for Ganjifa (55%) and at
Hearts' (65%): what holds it back is how it judges a position, not what it guesses of the hands.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.balance.stats import wilson  # noqa: E402
from interpreter.commands.args import parse_options  # noqa: E402
from interpreter.players.bots import bot_seed, make_bot  # noqa: E402
from interpreter.engine import apply, new_game, outcome, program_of, resolve_options  # noqa: E402
from interpreter.native.engine import new_native_game  # noqa: E402
from interpreter.players.search import DEFAULT_ITERATIONS, ISMCTSBot  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    ap.add_argument("--bot", default=None, help="the measured player (default: ismcts:ITERATIONS)")
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engine", choices=("python", "native", "both"), default="python")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="a game option, as `cardrules play --option` takes it (repeatable)")
    ap.add_argument("--see-all", action="store_true",
                    help="the measured search player sees every card (ISMCTSBot.peek): not a fair player, "
                         "the most that better sampling of the hidden cards could buy")
    args = ap.parse_args()
    engines = ("python", "native") if args.engine == "both" else (args.engine,)
    rs = load_ruleset(args.ruleset)
    program = program_of(rs)
    chosen = parse_options(args.option)
    options = dict(zip((o.name for o in program.options), resolve_options(program, chosen))) if chosen else None
    spec = args.bot or f"ismcts:{args.iterations}"
    wins = 0.0
    ended = 0
    search_time = dict.fromkeys(engines, 0.0)
    game_time = dict.fromkeys(engines, 0.0)
    decisions = 0
    for g in range(args.games):
        seed = args.seed + g
        seat = g % args.players
        for engine in engines:  # one game on each engine in turn: the same game on both
            start = time.perf_counter()
            s = (new_game if engine == "python" else new_native_game)(rs, args.players, options, seed)
            bots = [make_bot(spec if i == seat else args.opponents, bot_seed(seed, i)) for i in range(args.players)]
            if args.see_all:
                if not isinstance(bots[seat], ISMCTSBot):
                    ap.error(f"--see-all is for the search players (ismcts, moismcts), not {spec}")
                bots[seat].peek = True
            while not s.finished:
                who = s.actor
                t0 = time.perf_counter()
                m = bots[who].choose(s)
                if who == seat:
                    search_time[engine] += time.perf_counter() - t0
                    decisions += engine == engines[0]
                apply(s, m)
            game_time[engine] += time.perf_counter() - start
        o = outcome(s)
        if o.winners:
            ended += 1
        if seat in o.winners:
            wins += 1 / len(o.winners)
        print(f"game {g + 1}: {spec} in P{seat + 1}, winners {[f'P{w + 1}' for w in o.winners]}", file=sys.stderr)
    lo, hi = wilson(wins, args.games)
    share = f"an equal share is {1 / args.players:.1%}; " if args.players > 1 else ""
    against = f" against {args.opponents}" if args.players > 1 else ""
    given = "".join(f", {n}={v}" for n, v in chosen.items())
    seeing = " seeing every card" if args.see_all else ""
    print(f"{Path(args.ruleset).name}{given}, {args.players} player{'s' if args.players > 1 else ''}: {spec}{seeing}{against}, "
          f"{args.games} games (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"  won {wins:g} of {args.games} = {wins / args.games:.1%} (95% Wilson interval {lo:.1%} to {hi:.1%}); "
          f"{share}games with a winner: {ended}")
    for engine in engines:
        print(f"  {engine} engine: {search_time[engine] / max(1, decisions):.4f} s per decision of the search player "
              f"({decisions} decisions), {game_time[engine] / max(1, args.games):.3f} s per game")
    if len(engines) == 2:
        print(f"  the search in C: {search_time['python'] / max(search_time['native'], 1e-9):.1f}x the search in Python, "
              f"whole games {game_time['python'] / max(game_time['native'], 1e-9):.1f}x")


if __name__ == "__main__":
    main()
