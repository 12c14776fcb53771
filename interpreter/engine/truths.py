"""Possible truths of a game as one seat knows it: the game replayed from its deal with the
cards the seat has never seen given other names, kept only where it shows the seat everything
the real game showed. The sampling player (`pimc`) solves such truths, the search player draws
its samples from them (`ismcts:N:T`), and the fuzzer asks whether a seat's legal moves differ in
one, to tell a move that gives away a hidden card from one that only looks as if it might.

**What a truth keeps.** A card the seat has seen keeps its name: every card in a zone it may
look into, every card face up, every card a move named in the open (not one a move laid out of
its sight: shown.py). The never-seen cards are
renamed at random in the pack before the deal, the set-up is run again (its shuffles and deals
place cards by position, so the other cards lie where they lay) and every move is played
again. Every move anyone made must be legal again (a player who did not follow suit is given no
card of that suit; a card passed in secret is one the passer held); what the seat was told (`tell`) must be
what it is told in the truth; and the table must look the same to the seat now: as many cards
in each place, the same cards where it can look or where they lie face up, and nothing face up
in the truth that lies face down in the game (a rule that turns up every King dealt makes a
truth that deals the neighbour a King one the seat can rule out). A truth that breaks one of
these is drawn again, up to `TRIES` times; after that, the cards the seat cannot see now are
shuffled where they lie (`determinise`), which keeps what is in view but not what was inferred."""

from __future__ import annotations

import random

from ..errors import GameRuntimeError
from ..language.graph import sees
from .play import _fresh, _run as run, apply, in_secret, moves_for, new_game
from .positions import determinise
from .shown import named_cards, places, shown

TRIES = 30   # draws for one consistent truth before the cards are shuffled where they lie


def same(world, m, there):
    """The world's move standing for the real move m (the same action and values)."""
    return next((x for x in there if x.action == m.action and x.arg == m.arg and x.player == m.player), None)


class Memory:
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
            cards = named_cards(self.program, m.arg)
            before = places(self.replay, cards)
            apply(self.replay, same(self.replay, m, moves_for(self.replay, m.player)) or m)
            if cards and shown(self.replay, m.player, cards, before, places(self.replay, cards, during=True), secret)[self.me]:
                for c in cards:  # (named in the open: a card laid face down is not, shown.py)
                    self.seen[c] = 1
            self._look(self.replay)
            self.done += 1
        self._look(state)

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

    def truth(self, state, me: int, rng: random.Random, fallback: bool = True, tries: int = TRIES):
        """A possible truth: a Python state at the decision pending (without `fallback`, None
        where none consistent is found in `tries` draws)."""
        unseen = [c for c in range(self.program.n_cards) if not self.seen[c]]
        history = list(state.history)
        # the others' secret choices sealed at the decision pending are forgotten
        sealed = state.sealed.get(state.pc) if state.sealed else None
        if sealed:
            others = {p for p in sealed[1] if p != me}
            while history and history[-1].player in others:
                others.discard(history.pop().player)
        for _ in range(tries):
            names = unseen[:]
            rng.shuffle(names)
            world = self._replay(dict(zip(unseen, names)), history)
            if world is not None and _told_alike(world, state, me) and _shown_alike(world, state, me):
                world.rng, world.rng_shared = random.Random(rng.getrandbits(64)), None
                return world
        if not fallback:
            return None
        return determinise(state, me, rng, reseed=True)  # none consistent found: the cards shuffled as they lie

    def _replay(self, rename: dict, history: list):
        """The deal with the never-seen cards renamed and the moves played again; None when a move
        is not legal in it (or the rules fail). In Python on either engine: a replay in C costs
        as much, the moves matched in Python and the deal loaded at every try."""
        w = _renamed_start(self.start, rename)
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


def _shown_alike(world, state, me: int) -> bool:
    """The table looks the same to `me` in the truth: as many cards in every place, the same card
    wherever it can look or a card lies face up, and no card face up in the truth where the game
    has one face down."""
    real = state.native.python_copy() if state.native is not None else state
    zones = real.program.zones
    for inst, (a, b) in enumerate(zip(world.zones, real.zones)):
        if len(a) != len(b):
            return False
        if sees(zones[real.zkind[inst]].visibility, real.zowner[inst], me):
            if a != b:
                return False
            continue
        for c, d in zip(a, b):
            if real.known[d] or world.known[c]:
                if c != d or not world.known[c] or not real.known[d]:
                    return False
    return True


def _renamed_start(start, rename: dict):
    """The game `start` is, dealt again from a pack in which card c lies where rename[c] lay: the
    shuffles and the deal place cards by position, so each card goes where the card it replaces
    went, and a rule of the set-up that looks at the cards (every King dealt turned up, the holder
    of a card leads) sees the cards of the truth."""
    if not rename:
        return start.clone()
    w = _fresh(start.program, start.n_players, dict(start.options), start.seed)
    first = w.zbase[0]
    w.zones[first] = [rename.get(c, c) for c in w.zones[first]]
    run(w)
    return w


_INDEX: dict = {}


def _names(program) -> dict:
    got = _INDEX.get(id(program))
    if got is None or got[0] is not program:
        got = _INDEX[id(program)] = (program, {name: c for c, name in enumerate(program.card_names)})
    return got[1]
