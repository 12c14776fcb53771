"""A planning player for any ruleset, strongest where one seat makes many decisions in a row
with nothing hidden changing meanwhile: a patience above all.

A random rollout never finds the six careful moves that free a buried card, and the search
player's tree spends its samples on moves whose results it already knows. This player uses
what the rules guarantee instead: until a card it cannot see comes to light, or another seat
decides, its own moves have the same result in every possible truth. So it samples one truth
(`engine.determinise`, as the search player does), explores its own moves from there best
first, judging each position by the ruleset's advice (without advice, by its score), and
remembers positions already seen, so moving a card to and fro costs nothing. It stops a line
where something would be revealed, another seat would decide, or the game ends (in a game for
several, that makes it the greedy player's look ahead, over its own moves in a row). It then
plays the first move of the line that leads to the best position found, and keeps to that
line while what it sees is what it expected, planning afresh only when something new shows.

A move that reveals hidden cards (dealing from a face-down pack) is judged by the position
just before it, never by the sampled cards it would show, so the plan depends on what the
seat can see and not on the sample. Deterministic from its seed: no clock, no unseeded
generator."""

from __future__ import annotations

import heapq
import random
import time

from .engine import advice, apply, determinise, moves_for, outcome, scores
from .errors import GameRuntimeError, OptionError
from .graph import sees
from .search import spec_count

DEFAULT_NODES = 100     # positions looked at per plan: a few hundredths of a second in the bundled patience
WIN, LOSS = 1e9, -1e9   # a finished game outweighs any advice


class _Eyes:
    """What one seat can identify, for one plan: the zones it may look into are fixed for the
    whole plan (a zone's owner never changes), so only the cards in the others are checked."""

    def __init__(self, s, who: int):
        zones = s.program.zones
        self.seen, self.unseen = [], []
        for inst in range(len(s.zones)):
            v = zones[s.zkind[inst]].visibility
            (self.seen if sees(v, s.zowner[inst], who) else self.unseen).append(inst)
        self.unseen_set = frozenset(self.unseen)

    def hidden(self, s) -> list:
        """The cards this seat cannot identify now (face down where it may not look)."""
        known, zones = s.known, s.zones
        return [c for i in self.unseen for c in zones[i] if not known[c]]

    def still_hidden(self, s, cards: list) -> bool:
        """Whether none of `cards` has come to light."""
        unseen, zone_of, known = self.unseen_set, s.card_zone, s.known
        for c in cards:
            if known[c] or zone_of[c] not in unseen:
                return False
        return True

    def view(self, s) -> tuple:
        """What the seat sees of a position, as one hashable value: the decision pending, the
        variables, and every card it can identify, where it lies (equal views, equal plans)."""
        zones, known = s.zones, s.known
        where = tuple([tuple(zones[i]) for i in self.seen])
        hid = []
        for i in self.unseen:
            cards = zones[i]
            hid.append(tuple([c if known[c] else -1 for c in cards]) if any(map(known.__getitem__, cards)) else len(cards))
        slots = tuple([frozen_value(v) if v.__class__ is list else v for v in s.slots])
        return (s.pc, tuple(s.stack), s.actor, slots, where, tuple(hid))


def seat_view(state, who: int):
    """What `who` sees of a position, as one hashable value: `_Eyes.view`, or its 128-bit hash
    in C for a game the native engine plays (equal views, equal values, on either engine)."""
    if state.native is not None:
        from .native.plan import view
        return view(state.native, who)
    return _Eyes(state, who).view(state)


def frozen_value(v):
    """A variable's value as a hashable one: a collection kept per player is a list of lists."""
    return tuple([frozen_value(x) if x.__class__ in (list, tuple) else x for x in v])


def _value(s, who: int) -> float:
    if s.finished:
        o = outcome(s)
        if o is None or not o.winners:
            return LOSS / 2 if s.n_players == 1 else 0.0   # a patience not won is lost
        return WIN / len(o.winners) if who in o.winners else LOSS
    if s.program.advice:
        try:
            v = advice(s, who)
            return float(v if v is not None else 0)
        except (GameRuntimeError, TypeError, ValueError):
            return 0.0
    if s.program.score is None:
        return 0.0
    try:
        sc = scores(s)
    except (GameRuntimeError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError):
        return 0.0
    rivals = [v for i, v in enumerate(sc) if i != who]
    if not rivals:
        return float(sc[who])
    if s.program.winner_rule == "fewest":
        return float(min(rivals) - sc[who])
    return float(sc[who] - max(rivals))


class PlanBot:
    """Best-first look-ahead over this seat's own moves, `nodes` positions per plan."""

    name = "plan"

    def __init__(self, seed: int = 0, nodes: int = DEFAULT_NODES):
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
            raise OptionError(f"the planning player needs a positive number of positions, not {nodes!r}")
        self.seed = seed
        self.nodes = nodes
        self.rng = random.Random(seed)
        self.deadline: float | None = None  # time.monotonic() past which a plan stops looking
        self._plan: list = []   # [(move key, view expected before it)]
        self._eyes: _Eyes | None = None

    def __repr__(self) -> str:
        return f"PlanBot({self.seed}, nodes={self.nodes})"

    def choose(self, state):
        moves = moves_for(state)
        if not moves:
            raise GameRuntimeError("no legal move to choose from")
        me = state.actor
        if self._plan:
            key, expected = self._plan[0]
            if self._view(state, me, expected) == expected:
                self._plan.pop(0)
                for m in moves:
                    if (m.action, m.arg) == key:
                        return m
            self._plan = []
        if len(moves) == 1:
            return moves[0]
        line = self._search(state, me)
        if not line:
            return moves[self.rng.randrange(len(moves))]
        self._plan = line[1:]
        first = line[0][0]
        return next(m for m in moves if (m.action, m.arg) == first)

    def _view(self, state, me: int, expected):
        """What the seat sees now, in the form the plan expects: a number where the search ran
        in C (native/plan.py), else the view itself."""
        if isinstance(expected, int):
            from .native.plan import view
            return view(state.native, me)
        if state.native is not None:  # a line planned in Python on a game in C: the view in full
            state.native.sync_locals()
        return self._eyes.view(state)

    def _search(self, state, me: int) -> list:
        """The line of moves to the best position found: [(move key, view before it)]. A game
        the native engine plays is planned in C (native/plan.py), by the same steps."""
        if state.native is not None:
            from .native.plan import plan_line
            line = plan_line(state.native, me, self.rng, self.nodes, self.deadline)
            if line is not None:
                return line
        det = determinise(state, me, self.rng, reseed=True)
        if not det.finished and not det._legal:
            return []
        eyes = self._eyes = _Eyes(det, me)
        root_view = eyes.view(det)
        seen = {root_view}
        # heap entries: (-value, depth, tie, position, its view, the line of moves to it)
        tie = 0
        heap = []
        best_value, best_line = None, None
        expanded = 0

        def consider(value: float, line: list) -> None:
            nonlocal best_value, best_line
            if best_value is None or value > best_value or (value == best_value and len(line) < len(best_line)):
                best_value, best_line = value, line

        heapq.heappush(heap, (0.0, 0, tie, det, root_view, []))
        deadline = self.deadline
        while heap and expanded < self.nodes:
            if deadline is not None and best_line and time.monotonic() > deadline:
                break
            _, depth, _, s, view, line = heapq.heappop(heap)
            expanded += 1
            hidden = eyes.hidden(s)
            before = _value(s, me)
            for m in moves_for(s, me):
                key = (m.action, m.arg)
                t = s.clone()
                try:
                    apply(t, m)
                except GameRuntimeError:
                    continue
                step = line + [(key, view)]
                if t.finished:
                    consider(_value(t, me), step)
                    continue
                if not eyes.still_hidden(t, hidden):
                    # something comes to light: judge the move by where it starts (what it
                    # shows is the sample's, not the truth)
                    consider(before, step)
                    continue
                if t.actor != me:  # another seat decides next: the line ends here
                    consider(_value(t, me), step)
                    continue
                tview = eyes.view(t)
                if tview in seen:
                    continue
                seen.add(tview)
                value = _value(t, me)
                consider(value, step)
                tie += 1
                heapq.heappush(heap, (-value, depth + 1, tie, t, tview, step))
        return best_line or []


def make_plan_bot(spec: str, seed: int = 0) -> PlanBot:
    """'plan' or 'plan:POSITIONS'; OptionError for anything else after the colon."""
    n = spec_count(spec, "positions", 2000)
    return PlanBot(seed) if n is None else PlanBot(seed, n)
