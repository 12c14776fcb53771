"""A search for the line of play that reaches a rule no game has fired, in a game for one
player whose ruleset says what a good position is (its advice): a won patience.

Random play almost never wins a patience, and one move of look-ahead (the advised players)
rarely does better: winning needs a plan many moves long. So while some rule has not fired,
the fuzzer searches whole games: best first, from the deal, always going on from the position
the advice rates highest, the newest first among equals so that the search goes deep; a
position reached again is searched again only when fewer decisions lead to it. A line that
fires an unfired rule is then played as a fuzz game like any other (every check made), and
its rule counts as fired. The search is bounded by a number of positions per deal
(SOLVE_NODES) and of deals (SOLVE_DEALS), so with --games the run is still a function of the
seed."""

from __future__ import annotations

import heapq
import itertools
import random

from ..engine import advice, apply, Move, new_game, offered, State
from .common import Config, SOLVE_DEALS, SOLVE_NODES


def _place(s: State) -> tuple:
    """Where the cards lie and which are face up: positions that differ only in a variable (a
    count of moves, say) are one position to the search, or it would never leave a few."""
    return tuple(tuple(z) for z in s.zones), bytes(s.known)


def _worth(s: State) -> int:
    return sum(advice(s, seat) or 0 for seat in s.seats)  # (one seat: deals())


def _copy(s: State) -> State:
    history, s.history = s.history, []
    try:
        c = s.clone()
    finally:
        s.history = history
    c.history = list(history)
    return c


def search(rs, cfg: Config, seed: int, wanted: set[int], nodes: int = SOLVE_NODES,
           out_of_time=lambda: False) -> list[Move] | None:
    """The moves of a game on (cfg, seed) that fires one of the rules `wanted` (their numbers),
    found within `nodes` positions, or None."""
    try:
        s = new_game(rs, cfg.players, cfg.opts, seed)
        start = _worth(s)
    except Exception:
        return None
    if any(s.fired[k] for k in wanted):
        return []
    order = itertools.count()
    heap = [(-start, -next(order), s)]
    seen = {_place(s): s.decisions}
    while heap and nodes > 0:
        if out_of_time():
            return None
        _, _, st = heapq.heappop(heap)
        for m, _, _ in offered(st):
            nodes -= 1
            c = _copy(st)
            try:
                apply(c, m)
            except Exception:
                continue
            if any(c.fired[k] > st.fired[k] for k in wanted):
                return list(c.history)
            if c.finished or not c._legal:
                continue
            where = _place(c)
            if seen.get(where, c.decisions + 1) <= c.decisions:
                continue  # (reached again by a shorter line, it is searched again: a game may count its moves)
            seen[where] = c.decisions
            try:
                worth = _worth(c)
            except Exception:
                continue
            heapq.heappush(heap, (-worth, -next(order), c))
    return None


class ScriptedPlayer:
    """Plays the line a search found (fz.scripts, by the game's seed), move by move; a random
    player where there is none, or once the line is played (a shrinking replay)."""

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed ^ 0x501E)
        self.line: list | None = None

    def choose(self, s: State, fz) -> Move:
        if self.line is None:
            self.line = list(fz.scripts.get(self.seed, ()))
        at = len(s.history)
        if at < len(self.line):
            want = self.line[at]
            for m in s._legal:
                if m.player == want.player and str(m) == str(want):
                    return m
        return self.rng.choice(s._legal)


def deals(fz) -> list[tuple[Config, int]]:
    """The deals searched: one player's, with the default options. With several players the
    search would play every seat towards the sum of their advice, a goal nobody pursues, and
    a position costs as much as a whole game of a patience: the rule seekers hunt there."""
    solo = [c for c in fz.configs if c.players == 1 and not c.changed]
    return [(solo[0], fz.game_seed("solve", k)) for k in range(SOLVE_DEALS)] if solo else []
