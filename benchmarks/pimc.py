"""Search players compared on the same games: each measured player (`--bots`, e.g. `ismcts` and
`pimc:4:100`) sits in one seat, moving round the table from game to game as in search.py, against
`--opponents` (greedy by default) in every other seat, on the same seeds; the players take turns
game by game, so a busy machine slows each alike. For each it prints the games won with a 95%
Wilson interval, par, the mean points of its seat and its mean seconds per decision (processor
time, time.process_time: the same on a busy machine, every player here being one thread;
decisions with one legal move are not timed: no player thinks there). Figures only, nothing
asserted.

    python benchmarks/pimc.py --ruleset rulesets/classic/hearts.cards --players 4 --games 100 \\
        --bots ismcts,pimc:4:100,greedy [--opponents greedy] [--seed 0] [--engine native|python]

A game won is the seat's side among the winners (partners win together; a draw between k sides
is 1/k of a win), which for a game without sides is search.py's count (a share of a shared
win). Par is 1/players without sides, 1/2 with two sides fixed; when the sides change from deal
to deal (a declarer against the rest) there is no par by chance: measure `greedy` in the seat
too and compare with it.
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
from interpreter.players.bots import bot_seed, make_bot  # noqa: E402
from interpreter.engine import apply, moves_for, new_game, outcome  # noqa: E402
from interpreter.engine import sides as ruleset_sides  # noqa: E402
from interpreter.native.engine import new_native_game  # noqa: E402


def credit(s, seat: int) -> float:
    """The share of a win of `seat`'s side in the finished game s."""
    o = outcome(s)
    side_of = {x: k for k, side in enumerate(ruleset_sides(s)) for x in side}
    won = {side_of[w] for w in o.winners}
    return 1 / len(won) if side_of[seat] in won else 0.0


def play(rs, players: int, spec: str, opponents: str, seed: int, seat: int, engine: str) -> tuple:
    """One game: (credit, the seat's points, seconds thinking, decisions timed)."""
    s = (new_game if engine == "python" else new_native_game)(rs, players, None, seed)
    bots = [make_bot(spec if i == seat else opponents, bot_seed(seed, i)) for i in range(players)]
    spent, timed = 0.0, 0
    while not s.finished:
        who = s.actor
        if who == seat and len(moves_for(s)) > 1:
            t0 = time.process_time()
            m = bots[who].choose(s)
            spent += time.process_time() - t0
            timed += 1
        else:
            m = bots[who].choose(s)
        apply(s, m)
    return credit(s, seat), outcome(s).scores[seat], spent, timed


def par_text(rs, players: int) -> str:
    s = new_game(rs, players, None, 0)
    sides = ruleset_sides(s)
    if s.program.sides is None:
        return f"{1 / players:.1%}"
    if len(sides) == 2 and all(len(x) == players // 2 for x in sides):
        return "50.0% (two sides)"
    return "none by chance (sides change): see greedy in the seat"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / "classic" / "hearts.cards"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--bots", default="ismcts,pimc:4:100", help="the measured players, comma-separated")
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engine", choices=("python", "native"), default="native")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args(argv)
    rs = load_ruleset(args.ruleset)
    specs = [x.strip() for x in args.bots.split(",") if x.strip()]
    got = {spec: [0.0, 0.0, 0.0, 0] for spec in specs}  # credit, points, seconds, decisions
    for g in range(args.games):
        seed, seat = args.seed + g, g % args.players
        for spec in specs:  # the players in turn on the same game
            c, pts, spent, timed = play(rs, args.players, spec, args.opponents, seed, seat, args.engine)
            row = got[spec]
            row[0] += c
            row[1] += pts
            row[2] += spent
            row[3] += timed
            if not args.quiet:
                print(f"game {g + 1} seed {seed}: {spec} in P{seat + 1} won {c:g}, points {pts}, "
                      f"{spent / max(timed, 1):.3f} s/decision ({timed} decisions)", file=sys.stderr, flush=True)
    print(f"{Path(args.ruleset).name}, {args.players} players, against {args.opponents} on the {args.engine} engine, "
          f"{args.games} games (seeds {args.seed}..{args.seed + args.games - 1}); par {par_text(rs, args.players)}")
    for spec in specs:
        c, pts, spent, timed = got[spec]
        lo, hi = wilson(c, args.games)
        print(f"  {spec:>14}: won {c:g} = {c / args.games:.1%} ({lo:.1%} to {hi:.1%}), "
              f"mean points {pts / args.games:.2f}, {spent / max(timed, 1):.4f} s/decision ({timed} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
