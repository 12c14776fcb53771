"""The sampling player (`pimc`, perfect-information Monte Carlo): it draws possible truths
consistent with all the seat has seen, solves each with every card shown (the solver of
minimax.py), and plays the move with the best mean value over them. This is how the strongest
programs for trick-taking games play. The truths are drawn in Python; on a game of the native
engine each is then loaded into a native game of the bot's own and solved in C (native/minimax.py:
the same values as in Python, so the same moves on both engines for the same seed).

**What a truth keeps** (engine/truths.py). A truth differs from the real game only in the cards
this seat has never seen: they are renamed in the game as it was dealt and the game is replayed,
every move legal again, what the seat was told still true and the table looking the same to it.
The others' secret choices still sealed at the decision pending are forgotten (they choose again
in the truth), and the truth's later chance is drawn afresh.

**How it judges.** Each of the seat's moves is played in the truth, and the solver values the
position after it for the seat. With two sides, the value is the seat's side's margin. With
more, it is the seat's own utility. The solver may look at `nodes` positions a move, with a
table of its own (the C solver keeps none between calls, and each move is judged alike whatever
the order they are tried in), and the advice judges where it stops. The move with the highest
total over the truths is played; ties go to the bot's seeded coin.

**Known weaknesses.** The solver assumes that, in each truth, everyone sees every card. So it
never values keeping a secret, or finding out (strategy fusion; Long, Sturtevant, Buro and
Furtak, AAAI 2010). Cards seen once and hidden again are remembered only when a move named them
or they lay where the seat could look at one of its decisions."""

from __future__ import annotations

import random

from ..engine import apply, moves_for, moves_to_choose
from ..engine import sides as ruleset_sides
from ..engine.truths import Memory, same as _same
from ..errors import OptionError
from ..solver.minimax import Solver

DEFAULT_WORLDS = 20
DEFAULT_NODES = 2000


class PimcBot:
    """`worlds` truths a decision, each solved within `nodes` positions a move."""

    name = "pimc"

    def __init__(self, seed: int = 0, worlds: int = DEFAULT_WORLDS, nodes: int = DEFAULT_NODES):
        for what, n in (("truths", worlds), ("positions", nodes)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise OptionError(f"the sampling player needs a positive number of {what}, not {n!r}")
        self.seed, self.worlds, self.nodes = seed, worlds, nodes
        self.rng = random.Random(seed)
        self._memory: Memory | None = None
        self._game = None  # a native game the truths are loaded into (NativeGame)

    def __repr__(self) -> str:
        return f"PimcBot({self.seed}, worlds={self.worlds}, nodes={self.nodes})"

    def choose(self, state):
        moves = moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        me = state.actor
        memory = self._remember(state, me)
        game = self._game_for(state)
        totals, drawn = [0.0] * len(moves), 0
        for _ in range(self.worlds):
            world = memory.truth(state, me, self.rng)
            if world is None or world.finished or world.actor != me:
                continue
            sides = [list(s) for s in ruleset_sides(world)]
            mine = next(j for j, side in enumerate(sides) if me in side)
            if game is not None:  # solved in C: the truth put into the bot's own native game
                game.load(world, adopt=True)
                world = game._view
            there = moves_for(world)
            found = [_same(world, m, there) for m in moves]
            if any(f is None for f in found):
                continue
            for k, m in enumerate(found):
                solver = Solver(world.n_players, sides, nodes=self.nodes)  # each move its own budget and table
                t = world.clone()
                apply(t, m)
                sol = solver.solve(t)
                if solver.two:
                    totals[k] += sol.value if mine == 0 else -sol.value
                else:
                    totals[k] += sol.utilities[me]
            drawn += 1
        if not drawn:
            return moves[self.rng.randrange(len(moves))]
        top = max(totals)
        best = [m for m, v in zip(moves, totals) if v == top]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _game_for(self, state):
        """The native game the truths are loaded into (one, reused), when the real game is
        played in C; else None."""
        native = state.native
        if native is None:
            return None
        g = self._game
        if g is None or g.np is not native.np or g._view.n_players != state.n_players:
            g = self._game = native.clone()
        return g

    def _remember(self, state, me: int) -> "Memory":
        m = self._memory
        if m is None or not m.follows(state, me):
            m = self._memory = Memory(state, me)
        m.catch_up(state)
        return m


def make_pimc_bot(spec: str, seed: int = 0) -> PimcBot:
    """'pimc', 'pimc:WORLDS' or 'pimc:WORLDS:NODES'; OptionError for anything else."""
    from .spec import spec_count
    parts = spec.strip().lower().split(":")
    if parts[0] != "pimc" or len(parts) > 3:
        raise OptionError(f"the sampling player is 'pimc', 'pimc:WORLDS' or 'pimc:WORLDS:NODES', not {spec!r}")
    nums = [spec_count(f"pimc:{x}", what, example) for x, what, example in
            zip(parts[1:], ("truths", "positions"), (DEFAULT_WORLDS, DEFAULT_NODES))]
    return PimcBot(seed, *nums)
