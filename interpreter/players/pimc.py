"""The sampling player (`pimc`, perfect-information Monte Carlo): it draws possible truths
consistent with all the seat has seen, solves each with every card shown (the solver of
minimax.py), and plays the move with the best mean value over them. This is how the strongest
programs for trick-taking games play. The truths are drawn in Python; on a game of the native
engine each is then loaded into a native game of the bot's own and solved in C (native/minimax.py:
the same values as in Python, so the same moves on both engines for the same seed).

**What a truth keeps.** A truth differs from the real game only in the cards this seat has never
seen. A card it has seen keeps its name: every card in a zone it may look into, every card face
up, every card a move named in the open. Those never-seen cards are given new names at random,
in the real game as it was dealt, and the game is replayed move by move. Every move anyone made
must be legal again. So a player who did not follow suit is given no card of that suit, and a
card passed in secret is one the passer held. Anything the seat was told (`tell`) about the
cards where they lie must be what it is told in the truth too. A truth that breaks one of these
is drawn again, up to `TRIES` times; after that, the cards the seat cannot see now are shuffled
where they lie (`engine.determinise`), which keeps what is in view but not what was inferred.
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

from ..engine import apply, determinise, in_secret, moves_for, moves_to_choose, new_game
from ..engine import sides as ruleset_sides
from ..errors import GameRuntimeError, OptionError
from ..language.graph import sees
from ..solver.minimax import Solver

DEFAULT_WORLDS = 20
DEFAULT_NODES = 2000
TRIES = 30   # draws for one consistent truth before the cards are shuffled where they lie


class PimcBot:
    """`worlds` truths a decision, each solved within `nodes` positions a move."""

    name = "pimc"

    def __init__(self, seed: int = 0, worlds: int = DEFAULT_WORLDS, nodes: int = DEFAULT_NODES):
        for what, n in (("truths", worlds), ("positions", nodes)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise OptionError(f"the sampling player needs a positive number of {what}, not {n!r}")
        self.seed, self.worlds, self.nodes = seed, worlds, nodes
        self.rng = random.Random(seed)
        self._memory: _Memory | None = None
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

    def _remember(self, state, me: int) -> "_Memory":
        m = self._memory
        if m is None or not m.follows(state, me):
            m = self._memory = _Memory(state, me)
        m.catch_up(state)
        return m


def _same(world, m, there):
    """The world's move standing for the real move m (the same action and values)."""
    return next((x for x in there if x.action == m.action and x.arg == m.arg and x.player == m.player), None)


class _Memory:
    """The real game replayed from its deal alongside it (the deal is used only as a template:
    where the never-seen cards lay, never which they were), and what this seat has seen."""

    def __init__(self, state, me: int):
        self.program, self.me = state.program, me
        self.key = (state.program, state.n_players, tuple(state.opts), state.seed)
        self.start = new_game(state.program, state.n_players, dict(state.options), state.seed)
        self.replay = self.start.clone()
        self.done = 0
        self.secret: list[bool] = []
        self.seen = bytearray(state.program.n_cards)
        self._look(self.replay)

    def follows(self, state, me: int) -> bool:
        key = (state.program, state.n_players, tuple(state.opts), state.seed)
        return (key == self.key and me == self.me and self.done <= len(state.history)
                and all(a == b for a, b in zip(self.replay.history, state.history)))

    def catch_up(self, state) -> None:
        for m in state.history[self.done:]:
            secret = in_secret(self.replay)
            self.secret.append(secret)
            if not secret or m.player == self.me:
                self._name(m.arg)
            apply(self.replay, _same(self.replay, m, moves_for(self.replay, m.player)) or m)
            self._look(self.replay)
            self.done += 1
        self._look(state)

    def _name(self, arg) -> None:
        if arg is None:
            return
        index = _names(self.program)
        for token in str(arg).split():
            c = index.get(token)
            if c is not None:
                self.seen[c] = 1

    def _look(self, s) -> None:
        """The cards this seat can see in s, remembered."""
        if s.native is not None:
            s.native.sync()
        zones, me, seen = s.program.zones, self.me, self.seen
        for inst, cards in enumerate(s.zones):
            if sees(zones[s.zkind[inst]].visibility, s.zowner[inst], me):
                for c in cards:
                    seen[c] = 1
        for c, k in enumerate(s.known):
            if k:
                seen[c] = 1

    def truth(self, state, me: int, rng: random.Random):
        """A possible truth: a Python state at the decision pending."""
        unseen = [c for c in range(self.program.n_cards) if not self.seen[c]]
        history = list(state.history)
        # the others' secret choices sealed at the decision pending are forgotten
        sealed = state.sealed.get(state.pc) if state.sealed else None
        if sealed:
            others = {p for p in sealed[1] if p != me}
            while history and history[-1].player in others:
                others.discard(history.pop().player)
        for _ in range(TRIES):
            names = unseen[:]
            rng.shuffle(names)
            world = self._replay(dict(zip(unseen, names)), history)
            if world is not None and _told_alike(world, state, me):
                world.rng, world.rng_shared = random.Random(rng.getrandbits(64)), None
                return world
        return determinise(state, me, rng, reseed=True)  # none consistent found: the cards shuffled as they lie

    def _replay(self, rename: dict, history: list):
        """The deal with the never-seen cards renamed and the moves played again; None when a move
        is not legal in it (or the rules fail). In Python on either engine: a replay in C costs
        as much, the moves matched in Python and the deal loaded at every try."""
        w = _renamed(self.start, rename)
        p, index = self.program, _names(self.program)
        for m in history:
            arg = m.arg
            if arg is not None:
                arg = " ".join(p.card_names[rename.get(index[t], index[t])] if t in index else t
                               for t in str(arg).split())
            legal, act = moves_for(w, m.player), m.action
            if arg is None or " " not in arg:  # (one value: its text is the move's)
                x = next((x for x in legal if x.action == act and x.arg == arg), None)
            else:
                want = _tokens(arg)
                x = next((x for x in legal if x.action == act and _tokens(x.arg) == want), None)
            if x is None:  # a move this truth does not allow: it is not consistent
                return None
            try:
                apply(w, x)
            except GameRuntimeError:
                return None
        return w


def _tokens(arg):
    return None if arg is None else tuple(sorted(str(arg).split()))


def _told_alike(world, state, me: int) -> bool:
    """What `me` was told of the cards, place by place, is the same in the truth."""
    if state.told is None:
        return True
    n = state.n_players
    real = state.native.python_copy() if state.native is not None else state
    for a, b in zip(world.zones, real.zones):
        for c, d in zip(a, b):
            if world.told[c * n + me] != real.told[d * n + me]:
                return False
    return True


def _renamed(start, rename: dict):
    """A copy of `start` with card c named rename[c] wherever it lies (its place, face and who
    played it stay with the place)."""
    w = start.clone()
    if not rename:
        return w
    n = w.n_players
    known, played = list(w.known), list(w.played_by)
    told = list(w.told) if w.told is not None else None
    for zone in w.zones:
        for k, c in enumerate(zone):
            d = rename.get(c, c)
            zone[k] = d
            w.known[d], w.played_by[d] = known[c], played[c]
            if told is not None:
                w.told[d * n:(d + 1) * n] = told[c * n:(c + 1) * n]
    w.recount()
    from ..engine import recompute_legal
    recompute_legal(w)
    return w


_INDEX: dict = {}


def _names(program) -> dict:
    got = _INDEX.get(id(program))
    if got is None or got[0] is not program:
        got = _INDEX[id(program)] = (program, {name: c for c, name in enumerate(program.card_names)})
    return got[1]


def make_pimc_bot(spec: str, seed: int = 0) -> PimcBot:
    """'pimc', 'pimc:WORLDS' or 'pimc:WORLDS:NODES'; OptionError for anything else."""
    from .spec import spec_count
    parts = spec.strip().lower().split(":")
    if parts[0] != "pimc" or len(parts) > 3:
        raise OptionError(f"the sampling player is 'pimc', 'pimc:WORLDS' or 'pimc:WORLDS:NODES', not {spec!r}")
    nums = [spec_count(f"pimc:{x}", what, example) for x, what, example in
            zip(parts[1:], ("truths", "positions"), (DEFAULT_WORLDS, DEFAULT_NODES))]
    return PimcBot(seed, *nums)
