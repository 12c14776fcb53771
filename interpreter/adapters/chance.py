"""Explicit chance: every random draw the rules make as a chance node whose outcomes are listed
with their probabilities, so that algorithms that walk the whole tree (OpenSpiel's CFR, best
responses, exploitability) can read a ruleset. Nothing here knows a game.

The engine draws only through its state's `random.Random` (`shuffle`, `random(...)`), and in
Python 3.11 both come down to `_randbelow(n)`: `Draws` answers those from the outcomes chosen
so far and stops the step with `NeedDraw(n)` when they run out. A step (the start of the game,
or a move) that needs one more draw is a chance node of n equally likely outcomes; choosing one
replays the step, from the position before it, with one outcome more. A shuffle of k cards is
k - 1 nodes of k, k - 1, ..., 2 outcomes (k! orders, each as likely); a draw among one is no node.
Any other draw (`random()`, raw bits, copying the generator) cannot be listed and is refused
with an OptionError naming the ruleset, rather than walked wrongly.

A chance node is `Pending(step, drawn, need)` beside the position before its step (a Core);
the draws of each finished step go into that Core's recipe, which is how it pickles. Every step
plays on a copy, so a position here never changes once made (`Fixed`): copies of a state (which
OpenSpiel's tree walks make at every node) share it instead of copying it."""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np

from ..engine.play import _fresh, _run
from ..errors import OptionError
from .core import Core, _steps, replay_step, spec_from_key


class NeedDraw(BaseException):
    """The step needs one more draw, of `n` outcomes. (A BaseException: the engine's handlers
    of a rule's failures must let it through.)"""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class Undrawable(BaseException):
    """The rules drew something Draws cannot list: `what`."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class Draws(random.Random):
    """A generator that answers each `_randbelow(n)` with the next of `outcomes` (each below its
    n) and raises NeedDraw(n) when they are all used; a draw among one outcome takes none."""

    def __init__(self, outcomes=()):
        self.outcomes, self.used = tuple(outcomes), 0
        self.gauss_next = None  # (Random.__init__ would seed a generator this never uses)

    def _randbelow(self, n: int) -> int:
        if n <= 1:
            return 0
        i = self.used
        if i == len(self.outcomes):
            raise NeedDraw(n)
        o = self.outcomes[i]
        if not 0 <= o < n:
            raise ValueError(f"chance outcome {o} of a draw among {n}")
        self.used = i + 1
        return o

    def random(self):
        raise Undrawable("a real number (random.random)")

    def getrandbits(self, k):
        raise Undrawable(f"{k} raw random bits")

    def getstate(self):
        raise Undrawable("a copy of its generator's state")


class Pending(NamedTuple):
    """A chance node: the step under way (None: the start of the game; else the action id of
    the move), the outcomes drawn so far in it, and how many outcomes the next draw has."""

    step: int | None
    drawn: tuple
    need: int

    def __deepcopy__(self, memo) -> "Pending":
        return self


def _refused(spec, what: str) -> OptionError:
    return OptionError(f"{spec.title} ({spec.ref}) draws {what}, which explicit chance cannot enumerate: "
                       f"play it with chance='sampled'")


def _bounded(spec, n: int) -> int:
    most = max_chance_outcomes(spec)
    if n > most:
        raise OptionError(f"{spec.title} ({spec.ref}) draws among {n} outcomes, more than the "
                          f"{most} its max_chance_outcomes allows")
    return n


def max_chance_outcomes(spec) -> int:
    """The most outcomes one draw may have: a shuffle's draws are at most the number of cards;
    `random(S)` draws among the cards, the players or numbers (the action ids' range). A draw
    past it stops with an OptionError."""
    lo, hi = spec.int_range
    return max(spec.n_cards, spec.players, hi - lo + 1, 2)


def _start(spec, drawn: tuple) -> tuple[Core, Pending | None]:
    """The game set up with `drawn` as its first draws: the position at its first decision, or,
    when it needs a draw more, the table before the rules ran and that chance node."""
    s = _fresh(spec.program, spec.players, spec.options, 0, rng=False)
    s.rng, s.rng_shared = Draws(drawn), None
    try:
        _run(s)
    except NeedDraw as e:
        blank = _fresh(spec.program, spec.players, spec.options, 0, rng=False)
        blank.rng, blank.rng_shared = Draws(drawn), None
        return _core(spec, blank, ()), Pending(None, tuple(drawn), _bounded(spec, e.n))
    except Undrawable as e:
        raise _refused(spec, e.what) from None
    return _core(spec, s, drawn), None


class Fixed(Core):
    """A position that no step changes in place (each plays on `clone()`): a deep copy is itself."""

    __slots__ = ()

    def __deepcopy__(self, memo) -> "Fixed":
        return self

    def __copy__(self) -> "Fixed":
        return self

    def __reduce__(self):
        self.born()
        return (_rebuild, (self.spec.key, _steps(self.recipe, self.log)))


def _rebuild(key: tuple, steps: list) -> Core:
    """A game with explicit chance from its recipe: the set-up's draws, then each move's, the
    other steps as core.py replays them."""
    spec = spec_from_key(key)
    core = None
    for step in steps:
        if step[0] == "explicit":
            core = _start(spec, step[1])[0]
        elif step[0] == "draws":  # the next move's draws
            core.state.rng, core.state.rng_shared = Draws(step[1]), None
        else:
            core = replay_step(spec, core, step)
    return core


def _core(spec, state, drawn: tuple) -> Core:
    n, a = spec.players, len(spec.actions)
    return Fixed(spec, state, (None, ("explicit", tuple(drawn)), 0), [], np.zeros((n, a), np.float32),
                np.zeros((n, a), np.float32))


def root(spec) -> tuple[Core, Pending | None]:
    """The first node: a chance node when the set-up draws."""
    return _start(spec, ())


def _move(core: Core, action: int, drawn: tuple) -> tuple[Core, Pending | None]:
    """The move `action` from the position `core` (left as it is) with `drawn` as its draws."""
    spec = core.spec
    after = core.clone()
    after.state.rng, after.state.rng_shared = Draws(drawn), None
    try:
        after.apply_id(action)
    except NeedDraw as e:
        return core, Pending(action, drawn, _bounded(spec, e.n))
    except Undrawable as e:
        raise _refused(spec, e.what) from None
    if drawn:
        after.recipe = (after.recipe, ("draws", drawn), len(after.log) - 1)
    after.__class__ = Fixed
    return after, None


def decide(core: Core, action: int) -> tuple[Core, Pending | None]:
    """A player's move: the next position, or the chance node of its first draw."""
    return _move(core, action, ())


def decide_in_place(core: Core, action: int) -> Core | None:
    """A player's move played on `core` itself, with no copy (for a walk that is done with that
    position and whose other steps from it hold none of its parts): `core`, moved. None when the
    move needs a draw: `core` is then spoilt (`rebuilt` gives the position back)."""
    core.born()
    core.state.rng, core.state.rng_shared = Draws(()), None
    try:
        core.apply_id(action)
    except NeedDraw:
        return None
    except Undrawable as e:
        raise _refused(core.spec, e.what) from None
    return core


def rebuilt(core: Core) -> Core:
    """The position `core` stands for made anew from its recipe (the set-up's draws, each move and
    its draws), whatever its state has become."""
    return _rebuild(core.spec.key, _steps(core.recipe, core.log))


def draw(core: Core, pending: Pending, outcome: int) -> tuple[Core, Pending | None]:
    """The chance node's outcome chosen: the step replayed with it; the next position, or the
    node of its next draw."""
    o = int(outcome)
    if not 0 <= o < pending.need:
        raise ValueError(f"chance outcome {outcome} is not one of 0..{pending.need - 1}")
    drawn = pending.drawn + (o,)
    if pending.step is None:
        return _start(core.spec, drawn)
    return _move(core, pending.step, drawn)


class Walk:
    """The steps one game object has worked out (position and chance node, action -> the next),
    so that an algorithm walking the tree again and again (CFR: every iteration) plays each step
    once. Up to `limit` nodes are kept, then all are forgotten and the count begins again. Copies
    of a state share it; it does not pickle (a state unpickled starts an empty one)."""

    __slots__ = ("next", "limit")

    def __init__(self, limit: int = 100_000):
        self.next: dict = {}
        self.limit = limit

    def __deepcopy__(self, memo) -> "Walk":
        return self

    def __reduce__(self):
        return (Walk, (self.limit,))

    def step(self, core: Core, pending: Pending | None, action: int) -> tuple[Core, Pending | None]:
        key = (id(core), pending)  # (the entry keeps `core` alive, so its id stays its own)
        hit = self.next.get(key)
        if hit is None:
            if len(self.next) >= self.limit:
                self.next.clear()
            hit = self.next[key] = (core, {})
        kids = hit[1]
        out = kids.get(action)
        if out is None:
            out = draw(core, pending, action) if pending is not None else decide(core, action)
            kids[action] = out
        return out
