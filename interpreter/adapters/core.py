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
from ..engine import Move, apply, determinise, in_secret, public_vars, seat_name, shown
from ..errors import GameRuntimeError
from .encoding import SAMPLE_TRIES, Spec, spec_from_key


VARS_TEXTS = 100_000  # the most lines of public variables a game keeps (Core.vars_text)


def _compact(v) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{_compact(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_compact(x) for x in v) + "]"
    return "none" if v is None else str(v)



def _steps(recipe, log: list) -> list:
    """The steps that rebuild a game: its events (the seed, samples, reseeds: the recipe, each
    with the number of moves made before it) with the moves of its log between them."""
    events = []
    while recipe is not None:
        recipe, step, at = recipe
        events.append((step, at))
    events.reverse()
    out, done = [], 0
    for step, at in events:
        out += [("move", m.player, m.action, m.arg) for m, _, _ in log[done:at]]
        out.append(step)
        done = at
    out += [("move", m.player, m.action, m.arg) for m, _, _ in log[done:]]
    return out


def _rebuild(key: tuple, steps: list) -> "Core":
    """A Core from its recipe (how pickling stores one): the seed, the moves, the samples."""
    spec = spec_from_key(key)
    core = None
    for step in steps:
        core = replay_step(spec, core, step)
    return core


def replay_step(spec, core: "Core | None", step: tuple) -> "Core":
    """One step of a recipe replayed (a game with explicit chance replays its draws itself:
    chance.py)."""
    if step[0] == "seed":
        core = Core.start(spec, step[1])
    elif step[0] == "move":
        _, player, action, arg = step
        core.apply_move(Move(player, action, arg), spec.action_id(action, arg))
    elif step[0] == "sample":
        core = core._sample(step[1], step[2])
    elif step[0] == "reseed":
        core.reseed(step[1])
    else:
        raise ValueError(f"a game's recipe holds a step this adapter does not know: {step[0]!r}")
    return core


class Core:
    """A game in progress for the adapters: the engine's state, what each seat has seen
    happen (the moves, another seat's secret choices only as such), how often each seat made
    each move, and the recipe that rebuilds it (its seed, moves and samples: the events besides
    the moves, each with the number of moves before it, and the log of moves), which is how it
    pickles. Copies share what they have in common until one of them moves."""

    __slots__ = ("spec", "state", "recipe", "log", "_pub", "_sec", "counted", "owned", "_legal", "_at", "seeds",
                 "pinned", "memo")

    def __init__(self, spec: Spec, state=None, recipe=None, log=None, pub=None, sec=None, owned: bool = True,
                 seeds: "Seeds | None" = None, counted: int = 0):
        # log: every move made, its action id and whether it was made in secret (each seat's lines:
        # `seen`); pub, sec: how often each seat made each move, in public and in secret, counted
        # from the log when read (the first `counted` moves of the log are in them)
        self.spec, self.state, self.recipe = spec, state, recipe
        self.log, self._pub, self._sec, self.owned, self.counted = log, pub, sec, owned, counted
        self._legal = self._at = None
        self.seeds = seeds
        self.pinned = None
        self.memo = {}  # what was worked out from this position (tensors, texts); replaced on a move

    @classmethod
    def start(cls, spec: Spec, seed: int) -> "Core":
        n, a = spec.players, len(spec.actions)
        state = engines.new_game(spec.program, n, spec.options, seed, engine=spec.native)
        return cls(spec, state, (None, ("seed", seed), 0), [], np.zeros((n, a), np.float32), np.zeros((n, a), np.float32))

    @classmethod
    def unborn(cls, spec: Spec, seeds: "Seeds") -> "Core":
        """A new game whose seed is taken from `seeds` only when it is first played or asked
        what may be played: a state made only to be overwritten (OpenSpiel's clone and
        deserialisation make one) or only measured takes none."""
        return cls(spec, seeds=seeds)

    def born(self) -> "Core":
        if self.state is None:
            other = self.seeds.take(self.pinned)
            self.state, self.recipe, self.log, self._pub, self._sec = other.state, other.recipe, other.log, other._pub, other._sec
            self.owned, self._legal, self._at, self.seeds, self.memo = other.owned, None, None, None, other.memo
            self.counted = other.counted
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
        c = Core(self.spec, self.state.clone(), self.recipe, self.log, self._pub, self._sec, owned=False,
                 counted=self.counted)
        c._legal, c._at, c.memo = self._legal, self._at, self.memo
        return c

    def __deepcopy__(self, memo) -> "Core":
        return self.clone()

    __copy__ = clone

    def __reduce__(self):
        self.born()
        return (_rebuild, (self.spec.key, _steps(self.recipe, self.log)))

    def _own(self) -> None:
        if not self.owned:
            self.log = list(self.log)
            self._pub, self._sec = self._pub.copy(), self._sec.copy()
            self.owned = True

    @property
    def pub(self) -> np.ndarray:
        """(players, actions): how often each seat made each move where everyone saw it."""
        if self.counted < len(self.log):
            self._count()
        return self._pub

    @property
    def sec(self) -> np.ndarray:
        """(players, actions): how often each seat made each move in secret."""
        if self.counted < len(self.log):
            self._count()
        return self._sec

    def _count(self) -> None:
        self._own()
        pub, sec = self._pub, self._sec
        for move, a, secret in self.log[self.counted:]:  # (a move some seat did not see counts as secret)
            (sec if secret else pub)[move.player, a] += 1
        self.counted = len(self.log)

    # -- what each seat has seen
    @property
    def seen(self) -> list[list[str]]:
        """Each seat's lines, one a move: `P2: play 7-Swords`, `P2: (a choice made in secret)` for
        another seat's secret choice, `P2: lay a card you cannot see` for a move that took a card
        out of the seat's sight (written when asked for, not at every move)."""
        return [self.lines(q) for q in range(self.spec.players)]

    def lines(self, player: int) -> list[str]:
        out = []
        for move, _, secret in self.log:
            who = seat_name(move.player)
            if secret is True and player != move.player:
                out.append(f"{who}: (a choice made in secret)")
            elif secret and secret is not True and not secret[player]:
                out.append(f"{who}: {shown.unseen_text(move, len(shown.named_cards(self.spec.program, move.arg)))}")
            else:
                out.append(f"{who}: {move}")
        return out

    # -- playing
    def terminal(self) -> bool:
        s = self.state  # (over, nobody to move: State.current_player is None, or at the length bound)
        return s.finished or not s._legal or s.actor is None or s.decisions >= self.spec.max_length

    def truncated(self) -> bool:
        """Cut short: over without the rules ending it (the length bound, or nobody can move)."""
        return self.terminal() and not self.state.finished

    def current(self) -> int | None:
        """The seat to decide now (the first of several at a `choose by each`), None at the end."""
        return None if self.terminal() else self.state.actor

    def legal(self) -> dict[int, Move]:
        """{action id: Move} of the seat to decide, by increasing id; empty at the end."""
        if self._legal is None:
            out, at = {}, {}
            if not self.terminal():
                s = self.spec
                known, index = s.move_ids, s.index
                actor = self.state.actor
                for i, m in enumerate(self.state._legal):
                    if m.player != actor:  # (another seat's, at a `choose by each`)
                        continue
                    hit = known.get(id(m))
                    if hit is not None and hit[0] is m:
                        a = hit[1]
                    else:
                        a = index.get((m.action, m.arg))
                        if a is None:
                            raise GameRuntimeError(
                                f"the legal move {m} has no action id: its number is outside the range the ids cover "
                                f"(give int_range=(low, high) that includes it)")
                        s.learn_move(m, a)
                    if out.get(a) is not m:  # (two moves of one id: the last, as C's cr_step_action picks)
                        out[a] = m
                        at[a] = i
            self._legal = dict(sorted(out.items()))
            self._at = at
        return self._legal

    def _in_c(self):
        """A native game's GameActions (c_actions.py) holding this position's mask, or None: the
        Python engine, or a position C cannot map whole."""
        s = self.state
        g = s.native
        if g is None:
            return None
        acts = g.actions
        if acts is None:
            from .c_actions import GameActions
            acts = g.actions = GameActions(self.spec.c_actions(g.np), g, self.spec.c_observer(g.np))
        if acts.legal is not s._legal:
            if acts.tried is s._legal:
                return None
            acts.step(-1)  # (nothing played: the position's mask, its legal moves listed anew)
            if acts.legal is not s._legal:
                acts.tried = s._legal
                return None
        return acts

    def mask(self) -> np.ndarray:
        """The legal action ids of the seat to decide as an int8 mask over the action ids (all
        zero at the end): on a native game, the mask C wrote as it stepped there."""
        if self.terminal():
            return np.zeros(len(self.spec.actions), np.int8)
        acts = self._in_c()
        if acts is not None:
            return acts.mask.copy()
        mask = bytearray(self.spec.no_mask)  # (cheaper than NumPy's fancy indexing for a few ids)
        for a in self.legal():
            mask[a] = 1
        return np.frombuffer(mask, np.int8)

    def observation(self, player: int, info_state: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """What `player` sees (Spec.encode) and the mask of its legal action ids (all zero when
        it is not to decide), in one call: a native game's straight from C."""
        s = self.state
        g = s.native if s is not None else None
        if g is None or info_state:
            obs = self.spec.encode(self, player, info_state=info_state)
            return obs, (self.mask() if self.current() == player else np.zeros(len(self.spec.actions), np.int8))
        spec = self.spec
        acts = g.actions
        if (acts is not None and acts.legal is s._legal and acts.seen is s._legal and s.actor == player
                and s.decisions < spec.max_length):  # (C wrote both as it stepped here: the seat to act's)
            return acts.obs.copy(), acts.mask.copy()
        ob = spec._c_observer
        if ob is None or ob.nat is not g.np:
            ob = spec.c_observer(g.np)
        obs = ob.one(g, player).copy()
        if s.finished or not s._legal or s.actor is None or s.decisions >= spec.max_length:  # (terminal)
            if not s.finished:  # (cut short, or nobody can move: C knows no such end)
                spec.mark_over(obs)
            return obs, np.zeros(len(spec.actions), np.int8)
        if s.actor != player:
            return obs, np.zeros(len(spec.actions), np.int8)
        if acts is not None and acts.legal is s._legal:
            return obs, acts.mask.copy()
        return obs, self.mask()

    def apply_id(self, action_id: int) -> None:
        s = self.state
        g = s.native if s is not None else None
        if g is not None and s.decisions < self.spec.max_length:  # (not cut short; over: the mask is empty)
            acts = g.actions
            if acts is None or acts.legal is not s._legal:
                acts = None if self.terminal() else self._in_c()
            if acts is not None:  # C maps the action id to its move
                a = int(action_id)
                if 0 <= a < acts.table.n_actions and acts.cmask[a]:
                    secret = s.choice is not None and not s.finished and s.choice.secret  # (engine.in_secret)
                    cards = () if secret else self.spec.card_args[a]
                    if cards:  # (where its cards lie, read in C's memory before and after: shown.places inline)
                        at = g._arrays or g._layout()
                        cz, kn, fl = at[4], at[2], at[6]
                        before = [cz[c] << 1 | kn[c] for c in cards]
                        if acts.step(a) >= 0:
                            after = [cz[c] << 1 | kn[c] | fl[c] for c in cards]
                            self._moved(s.history[-1], a, secret if after == before else
                                        self._seen_by(s.history[-1], before, after))
                            return
                    elif acts.step(a) >= 0:
                        self._moved(s.history[-1], a, secret)
                        return
        move = self.legal().get(action_id)
        if move is None:
            move = self._legal.get(int(action_id))
            if move is None:
                what = self.spec.action_text(action_id) if 0 <= int(action_id) < len(self.spec.actions) else "no action"
                raise ValueError(f"action {action_id} ({what}) is not legal now; legal: "
                                 + ", ".join(f"{a} ({m})" for a, m in self.legal().items()))
        action_id = int(action_id)
        self.apply_move(move, action_id, self._at[action_id])

    def apply_move(self, move: Move, action_id: int, at: int | None = None) -> None:
        """`move` (action `action_id`), the at-th of the state's legal moves when `at` is given."""
        s = self.state
        secret = in_secret(s)
        cards = () if secret else shown.named_cards(s.program, move.arg)
        before = shown.places(s, cards)
        if at is not None and s.native is not None:  # (engine.apply, without looking the move up again)
            s.native.play_at(at)
        else:
            apply(s, move)
        if cards:
            after = shown.places(s, cards, during=True)
            if after != before:
                secret = self._seen_by(move, before, after)
        self._moved(move, action_id, secret)

    def _seen_by(self, move: Move, before: list, after: list):
        """False when every seat saw the move whole, else who did (a tuple of yes or no per seat):
        a move that took a card it names out of a seat's sight (engine/shown.py)."""
        sight = self.spec.sight
        if sight is None:
            sight = self.spec.sight = shown.sight_of(self.state)
        hidden = sight.unseen_by(move.player, before, after)
        return tuple(not hidden >> q & 1 for q in range(self.spec.players)) if hidden else False

    def _moved(self, move: Move, action_id: int, secret) -> None:
        """What the adapters keep of a move made: what each seat saw (the log, which the counts and
        the recipe read too). `secret`: True for a move made in secret, a tuple of each seat's yes
        or no for one some seat did not see whole (_seen_by), else False."""
        if not self.owned:
            self._own()
        self.log.append((move, action_id, secret))
        self._legal = self._at = None
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
        return Core(self.spec, st, (self.recipe, ("sample", player, seed), len(self.log)), self.log, self._pub, self._sec, owned=False,
                    counted=self.counted)

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
        self.recipe = (self.recipe, ("reseed", seed), len(self.log))
        self.memo = {}

    def vars_text(self) -> str:
        """The public variables as one line ('' without any). The game's lines are kept by the repr of
        the variables' values (the same values, the same line: a walk of the whole tree asks at
        every position), up to VARS_TEXTS of them."""
        text = self.memo.get("vars")
        if text is None:
            s, texts = self.state, self.spec.vars_texts
            key = None
            if texts is not None:
                if s.native is not None:
                    s.native.sync()
                slots = s.slots
                key = repr([slots[i] for i in self.spec.public_slots])
                text = texts.get(key)
            if text is None:
                pv = public_vars(s)
                text = ("vars: " + " ".join(f"{k}={_compact(v)}" for k, v in pv.items())) if pv else ""
                if key is not None and len(texts) < VARS_TEXTS:
                    texts[key] = text
            self.memo["vars"] = text
        return text

    def info_text(self, player: int) -> str:
        """What `player` sees now and every move as they saw it, one a line."""
        text = self.memo.get(("info", player))
        if text is None:
            lines = "\n".join(self.lines(player))
            text = self.memo[("info", player)] = self.spec.view_text(self, player) + "\nmoves:\n" + lines
        return text


class Seeds:
    """The seeds one game object gives its new games: `first`, `first + 1`, ..., each taken
    when a game is first played. The first position of the next seed is kept, so that a new
    game that is only looked at (OpenSpiel measures its tensors on one) costs nothing more."""

    def __init__(self, spec: Spec, first: int):
        self.spec, self.next = spec, first
        self._initial: tuple | None = None

    def take(self, pinned: int | None = None) -> Core:
        """The game of the next seed (or of `pinned`), to be played. The first position kept for
        it is handed over, not copied (a look at the next new game makes another); a seed none
        looked at is begun here, never kept."""
        seed = self.next if pinned is None else pinned
        if seed == self.next:
            self.next += 1
        kept = self._initial
        if kept is not None and kept[0] == seed:
            self._initial = None
            return kept[1]
        return Core.start(self.spec, seed)

    def initial(self, seed: int) -> Core:
        if self._initial is None or self._initial[0] != seed:
            self._initial = (seed, Core.start(self.spec, seed))
        return self._initial[1]
