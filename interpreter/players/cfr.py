"""The equilibrium player (`cfr[:ITERATIONS][:win|:points]`): it plays the strategy CFR+ finds
for a small game (solver/equilibrium.py), worked out once per game in this process."""

from __future__ import annotations

import random

from ..errors import OptionError
from ..solver.equilibrium import solve_equilibrium
from .spec import spec_count


class CfrBot:
    """Plays the strategy CFR+ finds for the game (worked out on first use, once per game,
    rules and options in this process): at each decision the moves' odds at the seat's
    information set, drawn with the bot's seeded generator. An information set the tree does not
    hold (it cannot happen in the game as walked) is played uniformly, and counted in `missed`.
    `returns`: what the strategy is solved for, each seat's score less the table's mean
    ("points") or its share of a win ("win"); None: points where the game keeps a score."""

    name = "cfr"
    _solved: dict = {}

    def __init__(self, seed: int = 0, iterations: int = 1000, returns: str | None = None):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"the equilibrium player needs a positive number of iterations, not {iterations!r}")
        if returns not in (None, "points", "win"):
            raise OptionError(f"the equilibrium player plays for points or win, not {returns!r}")
        self.seed, self.iterations, self.returns = seed, iterations, returns
        self.rng = random.Random(seed)
        self.missed = 0

    def __repr__(self) -> str:
        return f"CfrBot({self.seed}, iterations={self.iterations}" + (f", returns={self.returns!r})" if self.returns else ")")

    def choose(self, state):
        from ..adapters.core import Core
        from ..engine import moves_to_choose
        moves = moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        spec, policy = self._policy(state)
        core = Core.start(spec, state.seed)  # the game as the seat has seen it, for its information string
        for m in state.history:
            core.apply_move(m, spec.action_id(m.action, m.arg))
        me = state.actor
        odds = policy.get(f"P{me + 1}: {core.info_text(me)}")
        if odds is None:
            self.missed += 1
            return moves[self.rng.randrange(len(moves))]
        x, acc = self.rng.random(), 0.0
        for m in moves:
            acc += odds.get(str(m), 0.0)
            if x < acc:
                return m
        return moves[-1]

    def _policy(self, state):
        from ..adapters.encoding import spec_for
        rs = state.program.ruleset
        returns = self.returns or ("points" if state.program.score is not None else "win")
        key = (rs.source, state.n_players, tuple(sorted(state.options.items())), returns, self.iterations)
        got = CfrBot._solved.get(key)
        if got is None:
            spec = spec_for(rs.source, state.n_players, dict(state.options), returns=returns, engine="python")
            got = CfrBot._solved[key] = (spec, solve_equilibrium(spec, self.iterations).policy)
        return got


def make_cfr_bot(spec: str, seed: int = 0) -> CfrBot:
    """'cfr', 'cfr:ITERATIONS', and either followed by ':win' or ':points' (what the strategy is
    solved for: a share of a win, or the score; the default: the score where the game keeps
    one); OptionError for anything else."""
    parts = spec.strip().lower().split(":")
    returns = None
    if len(parts) > 1 and parts[-1].strip() in ("win", "points"):
        returns = parts.pop().strip()
    if len(parts) > 2:
        raise OptionError(f"the equilibrium player is 'cfr', 'cfr:ITERATIONS', 'cfr:win' or 'cfr:ITERATIONS:win' "
                          f"(or :points), not {spec!r}")
    n = spec_count(":".join(parts), "iterations", 1000)
    return CfrBot(seed, 1000 if n is None else n, returns)
