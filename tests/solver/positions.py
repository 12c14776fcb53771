"""Positions the solver's tests start from, on the Python engine."""

from __future__ import annotations

from interpreter import load_ruleset
from interpreter.engine import apply, new_game
from interpreter.players.bots import bot_seed, make_bot


def after(path: str, players: int, seed: int, decisions: int):
    """The seeded game `decisions` moves in, every seat a random player (seeded by the game's seed)."""
    s = new_game(load_ruleset(path), players, None, seed)
    bots = [make_bot("random", bot_seed(seed, k)) for k in range(players)]
    for _ in range(decisions):
        apply(s, bots[s.actor].choose(s))
    return s


def into_play(rs, seed: int, decisions: int = 10):
    """A game of the ruleset (its fewest players) `decisions` random moves in, or fewer where the
    game would end sooner: a position still to be played, on the Python engine."""
    n = rs.players_min
    s = new_game(rs, n, None, seed)
    bots = [make_bot("random", bot_seed(seed, k)) for k in range(n)]
    for _ in range(decisions):
        t = s.clone()
        apply(t, bots[t.actor].choose(t))
        if t.finished:
            break
        s = t
    return s
