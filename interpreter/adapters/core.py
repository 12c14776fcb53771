"""`Core`: a game in progress seen through an adapter's `Spec` (encoding.py): the engine's state
plus what each seat has seen happen; `Seeds`, the games one game object plays in turn.

Chance and length
-----------------
Chance is the engine's own: shuffles and `random(...)` draw from the state's seeded generator
inside each move, so an adapter never shows a chance node (OpenSpiel's sampled stochastic
mode). Game k played from one game object (0, 1, 2, ...) uses engine seed `seed + k`, the
same game `cardrules play --seed` gives. A copy of a state draws the same future as the
original; `Core.resample` (OpenSpiel's `resample_from_infostate`) draws a fresh future.
A game ends when the rules end it, when its length reaches `max_decisions` (when that is
smaller than the ruleset's own bound), or when nobody can move (a stuck position; it never
happens in a sound ruleset): the last two are games cut short, without a result. The length is
at most the ruleset's `at most N decisions` (DEFAULT_MAX_DECISIONS, 100,000, when it declares
none; OpenSpiel's `max_game_length`): a game still running there that asks for one decision
more is broken, and the step that brings it there raises the engine's GameTooLong (a
GameRuntimeError located at the rule it is in) rather than play on for ever."""

from __future__ import annotations

import random

import numpy as np

from .. import engines
from ..engine import Move, apply, determinise, in_secret, moves_for, public_vars, seat_name
from ..errors import GameRuntimeError
from .encoding import SAMPLE_TRIES, Spec, spec_from_key


def _compact(v) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{_compact(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_compact(x) for x in v) + "]"
    return "none" if v is None else str(v)



def _steps(recipe) -> list:
    out = []
    while recipe is not None:
        recipe, step = recipe
        out.append(step)
    out.reverse()
    return out


def _rebuild(key: tuple, steps: list) -> "Core":
    """A Core from its recipe (how pickling stores one): the seed, the moves, the samples."""
    spec = spec_from_key(key)
    core = None
    for step in steps:
        if step[0] == "seed":
            core = Core.start(spec, step[1])
        elif step[0] == "move":
            _, player, action, arg = step
            core.apply_move(Move(player, action, arg), spec.action_id(action, arg))
        elif step[0] == "sample":
            core = core._sample(step[1], step[2])
        elif step[0] == "reseed":
            core.reseed(step[1])
    return core


class Core:
    """A game in progress for the adapters: the engine's state, what each seat has seen
    happen (the moves, another seat's secret choices only as such), how often each seat made
    each move, and the recipe that rebuilds it (its seed, moves and samples), which is how it
    pickles. Copies share what they have in common until one of them moves."""

    __slots__ = ("spec", "state", "recipe", "seen", "pub", "sec", "owned", "_legal", "seeds", "pinned", "memo")

    def __init__(self, spec: Spec, state=None, recipe=None, seen=None, pub=None, sec=None, owned: bool = True,
                 seeds: "Seeds | None" = None):
        self.spec, self.state, self.recipe = spec, state, recipe
        self.seen, self.pub, self.sec, self.owned = seen, pub, sec, owned
        self._legal = None
        self.seeds = seeds
        self.pinned = None
        self.memo = {}  # what was worked out from this position (tensors, texts); replaced on a move

    @classmethod
    def start(cls, spec: Spec, seed: int) -> "Core":
        n, a = spec.players, len(spec.actions)
        state = engines.new_game(spec.program, n, spec.options, seed, engine=spec.native)
        return cls(spec, state, (None, ("seed", seed)), [[] for _ in range(n)], np.zeros((n, a), np.float32),
                   np.zeros((n, a), np.float32))

    @classmethod
    def unborn(cls, spec: Spec, seeds: "Seeds") -> "Core":
        """A new game whose seed is taken from `seeds` only when it is first played or asked
        what may be played: a state made only to be overwritten (OpenSpiel's clone and
        deserialisation make one) or only measured takes none."""
        return cls(spec, seeds=seeds)

    def born(self) -> "Core":
        if self.state is None:
            other = self.seeds.take(self.pinned)
            self.state, self.recipe, self.seen, self.pub, self.sec = other.state, other.recipe, other.seen, other.pub, other.sec
            self.owned, self._legal, self.seeds, self.memo = other.owned, None, None, other.memo
        return self

    def view(self) -> "Core":
        """This game for reading only. A new game not yet played is shown as the game of the
        seed it will take (which it then keeps), without taking it yet."""
        if self.state is not None:
            if self.state.native is not None:  # a game played in C: its view brought up to date
                self.state.native.sync()
            return self
        if self.pinned is None:
            self.pinned = self.seeds.next
        return self.seeds.initial(self.pinned).view()

    # -- copying and pickling
    def clone(self) -> "Core":
        self.born()
        self.owned = False
        c = Core(self.spec, self.state.clone(), self.recipe, self.seen, self.pub, self.sec, owned=False)
        c._legal, c.memo = self._legal, self.memo
        return c

    def __deepcopy__(self, memo) -> "Core":
        return self.clone()

    __copy__ = clone

    def __reduce__(self):
        self.born()
        return (_rebuild, (self.spec.key, _steps(self.recipe)))

    def _own(self) -> None:
        if not self.owned:
            self.seen = [list(lines) for lines in self.seen]
            self.pub, self.sec = self.pub.copy(), self.sec.copy()
            self.owned = True

    # -- playing
    def terminal(self) -> bool:
        s = self.state
        return s.finished or s.current_player is None or s.decisions >= self.spec.max_length

    def truncated(self) -> bool:
        """Cut short: over without the rules ending it (the length bound, or nobody can move)."""
        return self.terminal() and not self.state.finished

    def current(self) -> int | None:
        """The seat to decide now (the first of several at a `choose by each`), None at the end."""
        return None if self.terminal() else self.state.actor

    def legal(self) -> dict[int, Move]:
        """{action id: Move} of the seat to decide, by increasing id; empty at the end."""
        if self._legal is None:
            out = {}
            if not self.terminal():
                index = self.spec.index
                for m in moves_for(self.state):
                    a = index.get((m.action, m.arg))
                    if a is None:
                        raise GameRuntimeError(
                            f"the legal move {m} has no action id: its number is outside the range the ids cover "
                            f"(give int_range=(low, high) that includes it)")
                    out[a] = m
            self._legal = dict(sorted(out.items()))
        return self._legal

    def apply_id(self, action_id: int) -> None:
        move = self.legal().get(int(action_id))
        if move is None:
            what = self.spec.action_text(action_id) if 0 <= int(action_id) < len(self.spec.actions) else "no action"
            raise ValueError(f"action {action_id} ({what}) is not legal now; legal: "
                             + ", ".join(f"{a} ({m})" for a, m in self.legal().items()))
        self.apply_move(move, int(action_id))

    def apply_move(self, move: Move, action_id: int) -> None:
        s = self.state
        secret = in_secret(s)
        apply(s, move)
        self._own()
        who = seat_name(move.player)
        text = f"{who}: {move}"
        hidden = f"{who}: (a choice made in secret)"
        for q, lines in enumerate(self.seen):
            lines.append(text if not secret or q == move.player else hidden)
        (self.sec if secret else self.pub)[move.player, action_id] += 1
        self.recipe = (self.recipe, ("move", move.player, move.action, move.arg))
        self._legal = None
        self.memo = {}

    def returns(self) -> list[float]:
        return self.spec.returns(self)

    def resample(self, player: int, rng: random.Random) -> "Core":
        """A copy in which what `player` cannot know is drawn afresh (`engine.determinise`),
        the future chance too; a sample in which nobody could move is drawn again (up to 20)."""
        self.born()
        t = None
        for _ in range(SAMPLE_TRIES):
            t = self._sample(player, rng.getrandbits(63))
            if t.state.finished or t.state.current_player is not None:
                break
        return t

    def _sample(self, player: int, seed: int) -> "Core":
        st = determinise(self.state, player, random.Random(seed), reseed=True)
        native = self.state.native
        if native is not None:  # the sample played on in C too: a copy of the game, the sample put into it
            g = native.clone()
            g.load(st, adopt=True)
            st = g._view
        self.owned = False
        return Core(self.spec, st, (self.recipe, ("sample", player, seed)), self.seen, self.pub, self.sec, owned=False)

    def reseed(self, seed: int) -> None:
        """Draw the future chance from `seed` from now on (a copy otherwise foresees the
        original's shuffles)."""
        self.born()
        native = self.state.native
        if native is not None:  # the C game's generator: the position put back into C with the new one
            st = native.python_copy()
            st.rng, st.rng_shared = random.Random(seed), None
            native.load(st, adopt=True)
        else:
            self.state.rng, self.state.rng_shared = random.Random(seed), None
        self.recipe = (self.recipe, ("reseed", seed))
        self.memo = {}

    def vars_text(self) -> str:
        """The public variables as one line ('' without any)."""
        text = self.memo.get("vars")
        if text is None:
            pv = public_vars(self.state)
            text = self.memo["vars"] = ("vars: " + " ".join(f"{k}={_compact(v)}" for k, v in pv.items())) if pv else ""
        return text

    def info_text(self, player: int) -> str:
        """What `player` sees now and every move as they saw it, one a line."""
        return self.spec.view_text(self, player) + "\nmoves:\n" + "\n".join(self.seen[player])


class Seeds:
    """The seeds one game object gives its new games: `first`, `first + 1`, ..., each taken
    when a game is first played. The first position of the next seed is kept, so that a new
    game that is only looked at (OpenSpiel measures its tensors on one) costs nothing more."""

    def __init__(self, spec: Spec, first: int):
        self.spec, self.next = spec, first
        self._initial: tuple | None = None

    def take(self, pinned: int | None = None) -> Core:
        seed = self.next if pinned is None else pinned
        if seed == self.next:
            self.next += 1
        return self.initial(seed).clone()

    def initial(self, seed: int) -> Core:
        if self._initial is None or self._initial[0] != seed:
            self._initial = (seed, Core.start(self.spec, seed))
        return self._initial[1]
