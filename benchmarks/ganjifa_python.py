"""Ganjifa, the modern blend, written by hand in Python on bit masks: benchmarks/ganjifa_native.c
line for line, for benchmarks/handwritten.py (issue 39's "the hand-written Python Ganjifa", the
baseline the engine's whole games are measured against in Python).

It plays rulesets/ganjifa/ganjifa.cards with three players and its default options, drawing the
engine's random numbers: the game's generator random.Random(seed) shuffles the pack (suit by
suit, 1 to 10, Mantri, Raja) and it is dealt from its top four at a time, ten times; seat k's
random player random.Random(seed * 1000 + k) picks one of its legal moves in the engine's order
at each of its decisions. So the same seed gives the same game as `cardrules play`. A move is a
card's index in the deck, or -1 stop, -2 decline, -3 double, -4 single; the score is the cards
each seat won."""

from __future__ import annotations

import random

P, SUITS, RANKS = 3, 10, 12
N = SUITS * RANKS
MAX_DECISIONS = 400
RAJA = 6 * RANKS + RANKS - 1  # Rama's Raja opens
COURT = 10                    # Mantri and Raja: the ranks from here up
STOP, DECLINE, DOUBLE, SINGLE = -1, -2, -3, -4
HAND, EXPOSED, TRICK, WON = 1, 2, 3, 4
FULL = (1 << RANKS) - 1
BIT = [1 << (c % RANKS) for c in range(N)]
ABOVE = [FULL & ~((1 << (c % RANKS + 1)) - 1) for c in range(N)]
BELOW = [(1 << (c % RANKS)) - 1 for c in range(N)]
SUIT = [c // RANKS for c in range(N)]
SUIT0 = [c - c % RANKS for c in range(N)]
LOW = [c % RANKS < COURT for c in range(N)]


class _Stuck(Exception):
    """A game past its bound of decisions, or with no legal move: it failed."""


class Game:
    __slots__ = ("bots", "hand", "exposed", "trick", "won", "at", "hold", "owner", "played_by", "leader",
                 "decisions", "moves")

    def __init__(self, seed: int, moves: bool = False):
        self.bots = [random.Random(seed * 1000 + k) for k in range(P)]
        self.hand = [[] for _ in range(P)]
        self.exposed = [[] for _ in range(P)]
        self.trick = []
        self.won = [0] * P
        self.at = [0] * N
        self.hold = [[0] * SUITS for _ in range(P)]
        self.owner = [-1] * N
        self.played_by = [-1] * N
        self.leader = 0
        self.decisions = 0
        self.moves = [] if moves else None

    # ---- cards moving
    def lift(self, c: int) -> None:
        o = self.owner[c]
        if self.at[c] == HAND:
            self.hand[o].remove(c)
        elif self.at[c] == EXPOSED:
            self.exposed[o].remove(c)
        if o >= 0:
            self.hold[o][SUIT[c]] &= ~BIT[c]
            self.played_by[c] = o

    def to_trick(self, c: int) -> None:
        self.lift(c)
        self.trick.append(c)
        self.at[c] = TRICK
        self.owner[c] = -1

    def to_exposed(self, c: int, p: int) -> None:
        self.lift(c)
        self.exposed[p].append(c)
        self.hold[p][SUIT[c]] |= BIT[c]
        self.at[c] = EXPOSED
        self.owner[c] = p

    # ---- the ruleset's definitions, on each suit's cards as bits
    def held_in(self, s: int) -> int:
        h = self.hold
        return h[0][s] | h[1][s] | h[2][s]

    def rivals(self, o: int, s: int) -> int:
        return self.held_in(s) & ~self.hold[o][s]

    def unbeaten(self, o: int, s: int) -> int:
        r = self.rivals(o, s)
        return self.hold[o][s] & (~((2 << (r.bit_length() - 1)) - 1) if r else FULL)

    def unbeatable(self, c: int) -> bool:
        return not ABOVE[c] & self.rivals(self.owner[c], SUIT[c])

    def lowest_unbeatable(self, c: int) -> bool:
        u = self.unbeaten(self.owner[c], SUIT[c])
        return bool(u & BIT[c]) and not u & BELOW[c]

    def must_lead(self, c: int) -> bool:
        u = self.unbeaten(self.owner[c], SUIT[c])
        return bool(u & BIT[c] and u & BELOW[c])

    def can_give_deni(self, h: int) -> bool:
        o, s = self.owner[h], SUIT[h]
        r = ABOVE[h] & self.rivals(o, s)
        held = ABOVE[h] & self.held_in(s)
        return bool(r and not r & (r - 1) and r & held & -held and self.hold[o][s] & BELOW[h])

    def called_card(self, h: int) -> int:
        r = ABOVE[h] & self.rivals(self.owner[h], SUIT[h])
        return SUIT[h] * RANKS + (r & -r).bit_length() - 1

    def highest_of_suit_in_holding(self, c: int) -> bool:
        return not ABOVE[c] & self.hold[self.owner[c]][SUIT[c]]

    def opening_card(self, c: int) -> bool:
        return LOW[c] or not any(LOW[x] for x in self.hand[self.owner[c]])

    def any_unbeatable(self, p: int) -> bool:
        return any(self.unbeaten(p, s) for s in range(SUITS))

    def any_holding(self, p: int, pred) -> bool:
        return any(map(pred, self.hand[p])) or any(map(pred, self.exposed[p]))

    # ---- decisions
    def decide(self, p: int, legal: list) -> int:
        if self.decisions >= MAX_DECISIONS or not legal:
            raise _Stuck
        m = self.bots[p].choice(legal)
        if self.moves is not None:
            self.moves.append(m)
        self.decisions += 1
        return m

    def cards(self, p: int, pred=None) -> list:
        if pred is None:
            return self.hand[p] + self.exposed[p]
        return [c for c in self.hand[p] if pred(c)] + [c for c in self.exposed[p] if pred(c)]

    def answer(self, p: int) -> None:
        self.to_trick(self.decide(p, self.cards(p)))

    def take_trick(self) -> None:
        trick = self.trick
        first = SUIT0[trick[0]]
        best = trick[0]
        for c in trick[1:]:
            if SUIT0[c] == first and c > best:
                best = c
        leader = self.leader = self.played_by[best]
        for c in trick:
            self.at[c] = WON
            self.owner[c] = leader
        self.won[leader] += len(trick)
        self.trick = []

    def lead_trick(self, c: int) -> None:
        self.to_trick(c)
        for k in range(1, P):
            self.answer((self.leader + k) % P)
        self.take_trick()

    def holding(self, p: int) -> int:
        return len(self.hand[p]) + len(self.exposed[p])

    def give_deni(self, h: int) -> None:
        leader, s0 = self.leader, SUIT0[h]
        self.to_trick(self.decide(leader, self.cards(leader, lambda c: SUIT0[c] == s0 and c < h)))
        self.to_exposed(h, leader)
        called = self.called_card(h)
        caller, doubler, doubled = self.owner[called], -1, False
        lower = self.held_in(SUIT[h]) & BELOW[h]
        if lower:
            doubler = s0 + lower.bit_length() - 1
        for k in range(1, P):
            p = (leader + k) % P
            if p == caller:
                self.to_trick(called)
                if doubler >= 0 and self.owner[doubler] == p and doubler + 1 == h:
                    if self.decide(p, [DOUBLE, SINGLE]) == DOUBLE:
                        self.to_trick(doubler)
                        doubled = True
            else:
                self.answer(p)
        if doubled:
            self.to_trick(self.decide(leader, self.cards(leader, lambda c: SUIT0[c] == s0)))
            for k in range(1, P):
                p = (leader + k) % P
                if p != caller:
                    self.answer(p)
        self.take_trick()

    # ---- the game
    def play(self, seed: int) -> None:
        pack = list(range(N))
        random.Random(seed).shuffle(pack)
        for _ in range(N // (4 * P)):  # ten rounds of four cards to each seat, from the pack's top
            for p in range(P):
                for _ in range(4):
                    c = pack.pop()
                    self.hand[p].append(c)
                    self.at[c] = HAND
                    self.owner[c] = p
                    self.hold[p][SUIT[c]] |= BIT[c]
        self.leader = self.owner[RAJA]  # the opening: the Raja, two low cards from each other seat, one more
        self.to_trick(RAJA)
        for k in range(1, P):
            p = (self.leader + k) % P
            for _ in range(2):
                self.to_trick(self.decide(p, [c for c in self.hand[p] if self.opening_card(c)]))
        leader = self.leader
        self.to_trick(self.decide(leader, [c for c in self.hand[leader] if self.opening_card(c)]))
        self.take_trick()
        while self.holding(self.leader) > 0:
            leader = self.leader
            had_unbeatable = self.any_unbeatable(leader)
            while self.any_unbeatable(self.leader):  # must lead, or may lead, an unbeatable card
                leader = self.leader
                legal = self.cards(leader, self.must_lead)
                if not legal:
                    legal = self.cards(leader, self.lowest_unbeatable) + [STOP]
                m = self.decide(leader, legal)
                if m == STOP:
                    break
                self.lead_trick(m)
            leader = self.leader
            gave_deni = False
            if self.any_holding(leader, self.can_give_deni):
                m = self.decide(leader, self.cards(leader, self.can_give_deni) + [DECLINE])
                if m != DECLINE:
                    gave_deni = True
                    self.give_deni(m)
            if gave_deni or self.holding(self.leader) == 0:
                continue
            leader = self.leader
            if self.any_unbeatable(leader) or had_unbeatable:
                while self.any_unbeatable(self.leader):
                    self.lead_trick(self.decide(self.leader, self.cards(self.leader, self.unbeatable)))
                self.leader = (self.leader + 1) % P
            else:
                c = self.decide(leader, self.cards(leader, self.highest_of_suit_in_holding))
                self.to_trick(c)
                held = self.held_in(SUIT[c])
                top = SUIT0[c] + held.bit_length() - 1 if held else -1
                for k in range(1, P):
                    p = (leader + k) % P
                    if top >= 0 and self.owner[top] == p:
                        self.to_trick(top)
                    else:
                        self.answer(p)
                self.take_trick()


def game(seed: int) -> tuple[tuple[int, ...], list[int]] | None:
    """One game: every seat's score (cards won) and the moves as codes; None when it failed."""
    g = Game(seed, moves=True)
    try:
        g.play(seed)
    except _Stuck:
        return None
    return tuple(g.won), g.moves


def play_many(seed0: int, n: int) -> list[tuple[int, ...]]:
    """Games seed0 .. seed0 + n - 1: each one's scores (an empty tuple for a game that failed)."""
    out = []
    for seed in range(seed0, seed0 + n):
        g = Game(seed)
        try:
            g.play(seed)
            out.append(tuple(g.won))
        except _Stuck:
            out.append(())
    return out
