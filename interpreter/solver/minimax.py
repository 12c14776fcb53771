"""The perfect-information solver, in Python: what a position is worth when every card is shown
to every player and each plays as well as can be. This is the reference that the solver in C
(native/runtime/unit/solve.c, which solves a game of the native engine) is tested against, node
for node. It is slow, and that is fine for the small positions the tests use.

With every card shown there is nothing left to guess, so the game below a position is a tree
of decisions. The solver looks at it in one of two ways:

* **Two sides** (two players, or seats grouped into two sides with `sides`): alpha-beta over
  one number, the first side's utility less the second's. The first side takes the highest,
  the second the lowest. A table keyed by the whole position keeps what each position was
  found to be worth, or bounded by.
* **One seat, or more than two sides**: max^n. Each seat picks the move that gives it the most,
  and ties go to the first move in the order the moves were tried. The table keeps each
  position's value for every seat.

A seat's utility at the end of a game is its score, or minus its score when the fewest wins.
When the game declares its winners instead, it is the winner's share of a win, 1/number of
winners. Partners must end every game with the same utility: a leaf where they do not stops
the solve with an error that says so.

The search deepens step by step: 1, 2, 4, ... decisions. It stops when a search reaches the
end of the game on every line it needed; the answer is then exact (`complete`). It also stops
when the node budget or the time runs out; the answer is then that of the deepest search that
finished, with the advice (or the scores now) judging the positions at its horizon. A game's
later chance is the seeded game's own, so the solver foresees it as it foresees the cards.
Choices made in secret are solved as if made in turn: a later chooser knows the earlier
choices. Two approximations are made:

* A line that comes back to a position already on it is judged as if the game stopped there.
  Nobody gains by going round in a circle.
* A game that reaches its decision cap is judged by its scores at that point."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..engine import SCORE_UNREADABLE, advice, apply, moves_for, outcome, scores
from ..engine import sides as ruleset_sides
from ..errors import GameRuntimeError, GameTooLong, OptionError
from ..language.graph import draws_at_random
from ..language.unread import forgets
from ..engine import frozen_value

EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class Solution:
    """A solved position. `utilities` is each seat's utility at the end of `line`, the best
    line found, or at its horizon; `value` is the first side's utility less the second's
    (two sides), or the seat to move's utility. `complete` means solved to the end of the game;
    otherwise `depth` is how many decisions deep the last finished search looked, and `stopped`
    says why it went no deeper ('nodes' or 'seconds')."""

    value: float
    utilities: tuple
    line: tuple
    end: object  # the position at the end of the line (a State)
    complete: bool
    depth: int
    nodes: int
    sides: tuple
    stopped: str | None = None
    found_by: str = "search"  # or "plan": a patience's won line found by the planning search (commands/solve.py)


class _OutOfBudget(Exception):
    def __init__(self, why: str):
        self.why = why


def pays_shares(s) -> bool:
    """Whether a game over pays each winner a share of a win (it declared its winners, or keeps
    no score), so that a win alone is worth 1 and nothing is worth more."""
    return s.declared is not None or s.program.score is None


def utilities(s) -> tuple:
    """Each seat's utility where the game ends: its score (minus it when the fewest wins), or,
    when the game declares its winners, each winner's share of a win."""
    o = outcome(s) if s.finished else None
    if o is not None and pays_shares(s):
        share = 1.0 / len(o.winners) if o.winners else 0.0
        return tuple(share if seat in o.winners else 0.0 for seat in s.seats)
    values = o.scores if o is not None else scores(s)
    sign = 1 if s.program.winner_rule == "most" else -1
    return tuple(sign * v for v in values)


def _guess(s) -> tuple:
    """A position's worth to each seat at the horizon: the advice, else the utilities now. What
    cannot be worked out yet there (a score that reads a variable still none before the play
    has set it) gives no signal, as for the greedy player: a seat's failing advice counts 0, a
    failing score 0 for every seat. At the end of a game the same failure is the ruleset's error."""
    if s.program.advice:
        return tuple(_advice_or_0(s, seat) for seat in s.seats)
    try:
        return utilities(s)
    except SCORE_UNREADABLE:
        return (0,) * len(s.seats)


def _advice_or_0(s, seat: int) -> float:
    try:
        return float(advice(s, seat) or 0)
    except GameRuntimeError:
        return 0.0


def position_key(s) -> tuple:
    """The position as one hashable value: everything the rest of the game can depend on (the
    generator's state too, when the rules can still draw), without what no rule reads (the
    order of a kind of zone, who played a card lying there: language/unread.py)."""
    slots = tuple(frozen_value(v) if v.__class__ in (list, tuple) else v for v in s.slots)
    ordered, by = forgets(s.program)
    if ordered is None:
        zones, played = tuple(map(tuple, s.zones)), tuple(s.played_by)
    else:  # a kind whose order no rule reads as a set; played_by only where a rule may read it
        zk = s.zkind
        zones = tuple(tuple(z) if ordered[zk[i]] else tuple(sorted(z)) for i, z in enumerate(s.zones))
        pb = s.played_by
        played = tuple(pb[c] for i, z in enumerate(zones) if by[zk[i]] for c in z)
    key = (s.pc, tuple(s.stack), s.actor, s.finished, slots, zones, tuple(s.known),
           played, s.declared,
           tuple(sorted((k, tuple(v)) for k, v in s.pending.items())) if s.pending else (),
           tuple(sorted((k, (tuple(o), tuple((p, id(a), frozen_value(v) if v.__class__ in (list, tuple) else v)
                                             for p, (a, v) in sorted(c.items(), key=_first))))
                        for k, (o, c) in s.sealed.items()))
           if s.sealed else (),
           tuple(s.told) if s.told is not None else ())
    if s.rng is not None and _draws(s.program):
        key += (hash(s.rng.getstate()),)
    return key


def _first(item):
    return item[0]


def _draws(program) -> bool:
    """Whether the rules can draw at random (a shuffle, `random`): then a position is also
    where its generator stands."""
    got = _DRAWS.get(id(program))
    if got is None or got[0] is not program:
        got = _DRAWS[id(program)] = (program, draws_at_random(program.ruleset))
    return got[1]


_DRAWS: dict = {}


class Solver:
    """One solve: its sides, its budget and its table (kept across the deepening searches)."""

    def __init__(self, n_players: int, sides=None, nodes: int = 1_000_000, seconds: float | None = None):
        if sides is None:
            sides = [[seat] for seat in range(n_players)]
        sides = tuple(tuple(sorted(side)) for side in sides)
        seen = sorted(seat for side in sides for seat in side)
        if seen != list(range(n_players)) or any(not side for side in sides):
            raise OptionError(f"the sides must name every one of the {n_players} seats once, not {_sides_text(sides)}")
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
            raise OptionError(f"the solver needs a positive number of positions, not {nodes!r}")
        self.sides = sides
        self.side_of = {seat: k for k, side in enumerate(sides) for seat in side}
        self.two = len(sides) == 2
        self.budget, self.seconds = nodes, seconds
        self.nodes = 0
        self.deadline = None
        self.table: dict = {}
        self.path: set = set()

    # ---- the whole solve
    def solve(self, s) -> Solution:
        self.deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        if s.finished:
            u = utilities(s)
            return Solution(self._value(u, s), u, (), s, True, 0, 0, self.sides)
        if s.native is not None:  # the same search in C; what C gives back is solved here, on a copy
            from ..native.minimax import solve_in_c
            got = solve_in_c(self.sides, self.budget, self.deadline, _draws(s.program), s)
            if got is not None:
                return self._from_c(s, got)
            s = s.native.python_copy()
            self.nodes, self.table = 0, {}
        depth, best, stopped = 1, None, None
        while True:
            try:
                got = self._root(s, depth)
            except _OutOfBudget as e:
                stopped = e.why
                break
            best = (depth, got)
            if got[1]:
                break
            depth *= 2
        if best is None:  # not even one decision deep: the position judged as it stands
            u = _guess(s)
            return Solution(self._value(u, s), u, (), s, False, 0, self.nodes, self.sides, stopped)
        depth, (value, complete) = best
        line, end = self._line(s, depth, complete)
        u = utilities(end) if end.finished else _guess(end)
        return Solution(value, u, tuple(line), end, complete, depth, self.nodes, self.sides,
                        None if complete else stopped)

    def _from_c(self, s, got) -> Solution:
        """The Solution of the search C made (native/minimax.py): its best line played again on
        copies, to its end, where the utilities are read."""
        value, ints, line, nodes, depth, complete, stopped, have = got
        self.nodes = nodes
        if not have:  # not even one decision deep: the position judged as it stands
            u = _guess(s)
            return Solution(self._value(u, s), u, (), s, False, 0, nodes, self.sides, stopped)
        moves, t = [], s.clone() if line else s  # (one copy, moved on along the line)
        for k in line:
            m = moves_for(t)[k]
            moves.append(m)
            try:
                apply(t, m)
            except GameTooLong:
                break
        u = utilities(t) if t.finished else _guess(t)
        return Solution(int(value) if ints else value, u, tuple(moves), t, complete, depth, nodes, self.sides, stopped)

    def _value(self, u: tuple, s) -> float:
        if self.two:
            return self._margin(u, s)
        return u[s.actor] if s.actor is not None else u[0]

    def _root(self, s, depth: int) -> tuple:
        self.path = set()
        if self.two:
            v, complete = self._ab(s, depth, -math.inf, math.inf)
            return v, complete
        vec, complete = self._maxn(s, depth)
        return self._value(vec, s), complete

    def _line(self, s, depth: int, complete: bool) -> tuple[list, object]:
        """The best line, move by move from the table (a position whose entry is missing is
        searched again, inside the table it already has: cheap, and never past the budget)."""
        line, t, left = [], s, depth
        budget, self.budget = self.budget, math.inf
        deadline, self.deadline = self.deadline, None
        try:
            while not t.finished and (complete or left > 0):
                e = self.table.get(position_key(t))
                if e is None or e[-1] is None or (self.two and e[1] != EXACT):
                    self._root(t, depth if complete else left)
                    e = self.table.get(position_key(t))
                if e is None or e[-1] is None:
                    break
                m = next(m for m in moves_for(t) if (m.action, m.arg) == e[-1])
                line.append(m)
                t = t.clone()
                try:
                    apply(t, m)
                except GameTooLong:
                    break
                left -= 1
        finally:
            self.budget, self.deadline = budget, deadline
        return line, t

    # ---- one node
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget("nodes")
        if self.deadline is not None and self.nodes & 255 == 0 and time.monotonic() > self.deadline:
            raise _OutOfBudget("seconds")

    def _children(self, s, hint) -> list:
        """Each legal move with the position after it, the table's best move first, then (with
        advice) the moves that look best to the mover."""
        out = []
        mover = s.actor
        for m in moves_for(s):
            t = s.clone()
            try:
                apply(t, m)
            except GameTooLong:
                t = _Stopped(t)  # (judged by its scores where it stopped: see _leaf)
            out.append(((m.action, m.arg), t))
        advised = s.program.advice and len(out) > 1

        def rank(e):  # (the advice is asked of none but the moves it orders)
            t = e[1]
            if not advised or e[0] == hint or isinstance(t, _Stopped) or t.finished:
                return 0
            return -(advice(t, mover) or 0)
        out.sort(key=lambda e: (e[0] != hint, rank(e)))  # (stable: the rules' order among equals)
        return out

    def _leaf(self, t) -> tuple:
        """A leaf's utilities, the sides checked."""
        u = utilities(t.state if isinstance(t, _Stopped) else t)
        if self.two or len(self.sides) < len(u):
            for side in self.sides:
                if any(u[seat] != u[side[0]] for seat in side):
                    raise OptionError(
                        "the sides given do not end the game alike: " + ", ".join(
                            f"P{seat + 1} {u[seat]:g}" for seat in side) + " at the end of one line "
                        "(partners must share their score). The sides are those of the position solved (the "
                        "ruleset's 'sides by' there, or --sides); where a later rule settles them, as a "
                        "partner named by a card called, solve a later position (--after N or --moves)")
        return u

    def _margin(self, u: tuple, s=None) -> float:
        a, b = self.sides
        return sum(u[x] for x in a) / len(a) - sum(u[x] for x in b) / len(b)

    def _ab(self, s, depth: int, alpha: float, beta: float) -> tuple[float, bool]:
        self._tick()
        if isinstance(s, _Stopped) or s.finished:
            return self._margin(self._leaf(s)), True
        if depth == 0:
            return self._margin(_guess(s)), False
        key = position_key(s)
        if key in self.path:
            return self._margin(utilities(s)), True
        e = self.table.get(key)
        hint = None
        if e is not None:
            v, flag, d, complete, hint = e
            if complete or d >= depth:
                if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                    return v, complete
        maximizing = self.side_of[s.actor] == 0
        a0, b0 = alpha, beta
        best, best_move, complete = (-math.inf if maximizing else math.inf), None, True
        self.path.add(key)
        try:
            for mk, t in self._children(s, hint):
                v, c = self._ab(t, depth - 1, alpha, beta)
                complete = complete and c
                if (v > best) if maximizing else (v < best):
                    best, best_move = v, mk
                if maximizing:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
                if alpha >= beta:
                    break
        finally:
            self.path.discard(key)
        if best_move is None:  # no legal move: the game is stuck here
            return self._margin(utilities(s)), True
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, flag, depth, complete, best_move)
        return best, complete

    def _maxn(self, s, depth: int) -> tuple[tuple, bool]:
        self._tick()
        if isinstance(s, _Stopped) or s.finished:
            return self._leaf(s), True
        if depth == 0:
            return _guess(s), False
        key = position_key(s)
        if key in self.path:
            return utilities(s), True
        e = self.table.get(key)
        hint = None
        if e is not None:
            vec, d, complete, hint = e
            if complete or d >= depth:
                return vec, complete
        mover = s.actor
        best, best_move, complete = None, None, True
        self.path.add(key)
        try:
            for mk, t in self._children(s, hint):
                vec, c = self._maxn(t, depth - 1)
                complete = complete and c
                if best is None or vec[mover] > best[mover]:
                    best, best_move = vec, mk
        finally:
            self.path.discard(key)
        if best is None:
            return utilities(s), True
        self.table[key] = (best, depth, complete, best_move)
        return best, complete


class _Stopped:
    """A position where the game reached its decision cap: judged by its scores there."""

    def __init__(self, state):
        self.state = state
        self.finished = True


def _sides_text(sides) -> str:
    return " against ".join("+".join(f"P{seat + 1}" for seat in side) for side in sides) or "none"


def solve(state, sides=None, nodes: int = 1_000_000, seconds: float | None = None) -> Solution:
    """Solve `state` with every card shown (the state itself is left as it is), in C when it is
    a game of the native engine. `sides`: lists of seats that play together; by default the
    ruleset's `sides` as they stand in `state`."""
    if sides is None:
        sides = [list(side) for side in ruleset_sides(state)]
    return Solver(state.n_players, sides, nodes, seconds).solve(state)
