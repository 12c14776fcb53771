"""A planning player for any ruleset, strongest where one seat makes many decisions in a row
with nothing hidden changing meanwhile: a patience above all.

A random rollout never finds the six careful moves that free a buried card, and the search
player's tree spends its samples on moves whose results it already knows. This player uses
what the rules guarantee instead: until a card it cannot see comes to light, or another seat
decides, its own moves have the same result in every possible truth. So it samples one truth
(`engine.determinise`, as the search player does), explores its own moves from there depth
first, each position's moves in the order of the ruleset's advice (without advice, of its
score), best first, in rounds that may depart from that order more and more (below), and
remembers the positions already seen, so moving a card to and fro costs nothing. It stops a
line where something would be revealed, another seat would decide, or the game ends (in a game
for several, that makes it the greedy player's look ahead, over its own moves in a row), and
stops the whole search at the first game it finds won. It then
plays the first move of the line that leads to the won game, or else to the best position
found, and keeps to that line while what it sees is what it expected, planning afresh only
when something new shows.

Why depth first. A patience with every card known is won by a line of a hundred moves or
more; a best-first search spreads its positions over the first few moves of many lines and
never reaches the end of one, while depth first follows the advice down one line to the end,
as patience solvers do (Solvitaire, Blake and Gent 2019: depth first with a table of positions
seen). Where cards are hidden, lines end at the next card turned up, and the two searches look
at much the same positions. The best-first search stays as `plan:best` (`plan:POSITIONS:best`),
to compare.

Why in rounds of departures (limited discrepancy search, Harvey and Ginsberg 1995). Where the
advice's first line does not win, a plain depth-first search backs up from the bottom: it tries
every other move near the end of the line before any near its start, and a wrong turn early
keeps it in a subtree far larger than its budget. So the search goes in rounds: round D follows
the advice but may depart from its order D times on a line (a position's best child is free,
its second best costs one departure, its third two, and so on), round 0 being the advice's own
line. Measured on the bundled draw-one patience with every card shown (README, "How strong are
the players?"): on the first hundred deals, the plain search won 62 and this one 85 at the same
budget; a deal is won in the first plan or not at all, mostly within a few thousand positions.

The table. A position is known by its layout (`_Eyes.layout`): what the seat sees of it (the
cards it can identify and where they lie, the decision pending) without the variables. A line
that comes back to a layout already met in this round, with only a counter grown (moves made
without progress, say), is not followed again: keyed by the whole view, going round a stock is
a new position each time until the counter ends the game, and the search spends its positions
there. A layout met again is not looked at again even with a better value (a lower counter) or
more departures left: looking again gained little and cost much. The price: a line that needs a
counter lower than the one its layout was first met with is missed. Each round starts a fresh
table; the search stops after a round that left out no child for want of departures (it has
seen everything), or that met no more layouts than the round before.

The budget: `plan:POSITIONS` positions a plan, over all its rounds. By default 100
(DEFAULT_NODES), or, depth first, 300,000 (DEFAULT_SEEN) where the seat can identify every card
when it plans: the line may then run to the end of the game and the search stops at the first
win, so the many positions are paid for only where no win is in reach; with cards hidden, lines
end at the next card turned up, and more positions cost time and buy little. (The bundled
draw-one patience with every card shown, 500 deals, in rounds: 84.6% won at 100,000 positions a
plan, 0.53 s a game; 87.4% at 300,000, 1.0 s: benchmarks/search.py.)

A move that reveals hidden cards (dealing from a face-down pack) is judged by the position
just before it, never by the sampled cards it would show, so the plan depends on what the
seat can see and not on the sample. Deterministic from its seed: no clock, no unseeded
generator.

Worlds, in a patience with cards hidden. A plan that stops at the next card turned up cannot
tell a move that uncovers the card a build needs from one that uncovers nothing. So, in a game
for one where some card is hidden from the seat, a decision is first planned in hindsight
(`_worlds`): DEFAULT_WORLDS samples of the hidden cards, each planned depth first as if every
card in it were shown, and the first move of the winning lines, counted over the samples, is
played. Where no sample is won within its budget, the plain plan above decides. A sample's line
is kept while the table looks as that sample had it, to the next card turned up. `plan:N:0`
plans in no worlds, the player before."""

from __future__ import annotations

import heapq
import random
import re
import time

from ..engine import SCORE_UNREADABLE, advice, apply, determinise, frozen_value, moves_for, moves_to_choose, outcome, scores
from ..errors import GameRuntimeError, OptionError
from ..language.graph import sees
from .spec import spec_count

DEFAULT_NODES = 100     # positions looked at per plan: a few hundredths of a second in the bundled patience
DEFAULT_SEEN = 300_000  # ... by default, depth first, where the seat sees every card: a plan may then run to a win
DEFAULT_WORLDS = 6      # a patience with cards hidden: the samples planned in hindsight at a decision (_worlds)
DEFAULT_WORLD_NODES = 3_000  # ... and the positions each of their plans may look at
WIN, LOSS = 1e9, -1e9   # a finished game outweighs any advice


class _Eyes:
    """What one seat can identify, for one plan: the zones it may look into are fixed for the
    whole plan (a zone's owner never changes), so only the cards in the others are checked."""

    def __init__(self, s, who: int, everything: bool = False):
        zones = s.program.zones
        self.seen, self.unseen = [], []
        for inst in range(len(s.zones)):
            v = zones[s.zkind[inst]].visibility
            (self.seen if everything or sees(v, s.zowner[inst], who) else self.unseen).append(inst)
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

    @staticmethod
    def layout(view: tuple) -> tuple:
        """A view without the variables: the cards the seat can identify and where they lie, and
        the decision pending (the depth-first search's table key, see PlanBot._deep)."""
        return view[:3] + view[4:]


def seat_view(state, who: int):
    """What `who` sees of a position, as one hashable value: `_Eyes.view`, or its 128-bit hash
    in C for a game the native engine plays (equal views, equal values, on either engine)."""
    if state.native is not None:
        from ..native.plan import view
        seen = view(state.native, who)
        if seen is not None:  # (None: no players' library, so every view of this game is taken in Python)
            return seen
        state.native.sync_locals()
    return _Eyes(state, who).view(state)


def _hides(state, who: int) -> bool:
    """Whether some card is hidden from `who` now (the native game's view brought up to date)."""
    if state.native is not None:
        state.native.sync_locals()
    return bool(_Eyes(state, who).hidden(state))


_SCORED: dict = {}


def _scored_ends(program) -> bool:
    """Whether every end of this game for one is worth its score (it keeps a score and no rule
    names the winner outright: Golf the patience, a new user's Poker Squares), so a line planned
    in a sampled world is worth what it scores, not only whether it wins."""
    hit = _SCORED.get(id(program))
    if hit is None or hit[0] is not program:
        from ..language import graph as g
        declares = any(isinstance(x, g.DeclareWinner) for x in g.nodes_below(program.ruleset))
        hit = _SCORED[id(program)] = (program, program.score is not None and not declares)
    return hit[1]


def _value(s, who: int) -> float:
    if s.finished:
        if s.n_players == 1 and s.declared is None and s.program.score is not None:
            # a game for one that names no winner but keeps a score (Golf the patience: the fewest
            # cards left): every end is the player's "win", so an end is worth its score
            v = scores(s)[0]
            return float(-v if s.program.winner_rule == "fewest" else v)
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
    except SCORE_UNREADABLE:
        return 0.0
    rivals = [v for i, v in enumerate(sc) if i != who]
    if not rivals:  # (alone: the more the better, or the fewer)
        return float(-sc[who] if s.program.winner_rule == "fewest" else sc[who])
    if s.program.winner_rule == "fewest":
        return float(min(rivals) - sc[who])
    return float(sc[who] - max(rivals))


def _step(s, m, me: int, eyes: _Eyes, hidden: list, before: float):
    """A move of a plan from `s` (whose value is `before`), as both searches take it: None when the
    rules fail in the copy; (None, the value the line ends with, whether the game is over) where
    the line ends: the game over, a hidden card come to light (the move judged by where it starts,
    since what it shows is the sample's, not the truth), or another seat to decide; else (the
    position after it, None, False), where the line may go on."""
    t = s.clone()
    try:
        apply(t, m)
    except GameRuntimeError:
        return None
    if t.finished:
        return None, _value(t, me), True
    if not eyes.still_hidden(t, hidden):
        return None, before, False
    if t.actor != me:
        return None, _value(t, me), False
    return t, None, False


class PlanBot:
    """Depth-first (or, deep=False, best-first) look-ahead over this seat's own moves, `nodes`
    positions per plan (None: the default budget, see `_budget`)."""

    name = "plan"
    # every card seen, in the position itself rather than a sample: not a fair player, but how
    # `cardrules solve` asks whether a patience can be won with every card shown
    peek = False

    def __init__(self, seed: int = 0, nodes: int | None = None, deep: bool = True, worlds: int = DEFAULT_WORLDS):
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
            raise OptionError(f"the planning player needs a positive number of positions, not {nodes!r}")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 0:
            raise OptionError(f"the planning player's worlds must be a whole number of at least 0, not {worlds!r}")
        self.seed = seed
        self.nodes = nodes
        self.deep = deep
        self.worlds = worlds
        self.rng = random.Random(seed)
        self.deadline: float | None = None  # time.monotonic() past which a plan stops looking
        self._plan: list = []   # [(move key, view expected before it)]
        self._eyes: _Eyes | None = None

    def __repr__(self) -> str:
        worlds = '' if self.worlds == DEFAULT_WORLDS else f', worlds={self.worlds}'
        return f"PlanBot({self.seed}, nodes={self.nodes}{'' if self.deep else ', deep=False'}{worlds})"

    def choose(self, state):
        moves = moves_to_choose(state)
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

    def line(self, state) -> list:
        """The plan from `state` for the seat to move, without playing it: [(move key, view
        expected before it)] (`cardrules solve` plays it out on a patience)."""
        return self._search(state, state.actor)

    def _view(self, state, me: int, expected):
        """What the seat sees now, in the form the plan expects: a number where the search ran
        in C (native/plan.py), else the view itself."""
        if isinstance(expected, int):
            from ..native.plan import view
            return view(state.native, me)
        if state.native is not None:  # a line planned in Python on a game in C: the view in full
            state.native.sync_locals()
        return self._eyes.view(state)

    def _search(self, state, me: int) -> list:
        """The line of moves to the best position found: [(move key, view before it)]. A game
        the native engine plays is planned in C (native/plan.py), by the same steps."""
        if self._in_hindsight(state, me):
            line = self._worlds(state, me)
            if line:
                return line
        nodes = self._budget(state, me)
        if state.native is not None:
            from ..native.plan import plan_line
            line = plan_line(state.native, me, self.rng, nodes, self.deadline, int(self.deep), self.peek)
            if line is not None:
                return line
        if self.peek:
            det = state.native.python_copy() if state.native is not None else state.clone()
        else:
            det = determinise(state, me, self.rng, reseed=True)
        if not det.finished and not det._legal:
            return []
        eyes = self._eyes = _Eyes(det, me, self.peek)
        root_view = eyes.view(det)
        return (self._deep if self.deep else self._best)(det, me, eyes, root_view, nodes)

    def _in_hindsight(self, state, me: int) -> bool:
        """Whether to plan in sampled worlds (_worlds): a game for one, depth first, some card
        hidden from the seat, worlds asked for, and not the solver's peek."""
        if self.peek or not self.deep or not self.worlds or state.n_players != 1:
            return False
        return _hides(state, me)

    def _worlds(self, state, me: int) -> list:
        """Planning in hindsight (hindsight optimisation, as Bjarnason, Fern and Tadepalli 2009
        measured it on a patience): `worlds` samples of what the seat cannot see, each planned
        depth first as if every card in it were shown, `nodes` positions each
        (DEFAULT_WORLD_NODES by default). A sample whose line wins votes for the line's first move; the move with the most votes
        (the first to get them, among equals) is played, and the first winning line that starts
        with it is kept while the table is as that sample had it. The samples stop once those left
        could not change the choice. No sample won: [] (the plain plan then, which stops where a
        hidden card would come to light)."""
        nodes = self.nodes or DEFAULT_WORLD_NODES
        scored = _scored_ends(state.program)
        votes: dict = {}  # first move -> [votes, the first winning line that starts with it, the values' total]
        for w in range(self.worlds):
            line, value = self._world(state, me, nodes)
            if line and (value >= WIN or scored):
                got = votes.setdefault(line[0][0], [0, line, 0.0])
                got[0] += 1
                got[2] += value
                counts = sorted((v[0] for v in votes.values()), reverse=True) + [0]
                if counts[0] - counts[1] > self.worlds - w - 1:
                    break  # the worlds left cannot change the choice
        if not votes:
            return []
        # (max keeps the first among equals; where every end is worth its score, the better mean breaks a tie)
        return max(votes.values(), key=lambda v: (v[0], v[2] / v[0]))[1]

    def _world(self, state, me: int, nodes: int) -> tuple:
        """One sample drawn from the bot's generator and planned depth first with every card of it
        seen: (the line, with the views the seat itself would have before each move; the value it
        ends with)."""
        if state.native is not None:
            from ..native.plan import world_line
            got = world_line(state.native, me, self.rng, nodes, self.deadline)
            if got is not None:
                return got
            state = state.native.python_copy()
        det = determinise(state, me, self.rng, reseed=True)
        if not det.finished and not det._legal:
            return [], 0.0
        everything = _Eyes(det, me, True)
        line = self._deep(det, me, everything, everything.view(det), nodes)
        fair = self._eyes = _Eyes(det, me)
        out, t = [], det
        for k, (move, _) in enumerate(line):  # the views again, as the seat sees
            out.append((move, fair.view(t)))
            if k + 1 < len(line):
                t = t.clone()
                apply(t, next(m for m in moves_for(t, me) if (m.action, m.arg) == move))
        return out, self._best_value

    def _budget(self, state, me: int) -> int:
        """The positions this plan may look at: the number given, else DEFAULT_NODES, or, depth
        first, DEFAULT_SEEN where the seat can identify every card (nothing is hidden from it, so
        a line may run to the end of the game, and the search stops at the first win)."""
        if self.nodes is not None:
            return self.nodes
        if not self.deep:
            return DEFAULT_NODES
        if self.peek:
            return DEFAULT_SEEN
        return DEFAULT_NODES if _hides(state, me) else DEFAULT_SEEN

    def _best(self, det, me: int, eyes: _Eyes, root_view: tuple, nodes: int) -> list:
        """Best first from the sample `det`, `nodes` positions at most: the position of highest
        value waiting is expanded next (the shallower, then the older, among equals), a position
        skipped when its view was met before in this search; the line to the best position
        found (the shorter among equals), as `_search` gives it."""
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
        while heap and expanded < nodes:
            if deadline is not None and best_line and time.monotonic() > deadline:
                break
            _, depth, _, s, view, line = heapq.heappop(heap)
            expanded += 1
            hidden = eyes.hidden(s)
            before = _value(s, me)
            for m in moves_for(s, me):
                after = _step(s, m, me, eyes, hidden, before)
                if after is None:
                    continue
                t, ended, _ = after
                step = line + [((m.action, m.arg), view)]
                if t is None:
                    consider(ended, step)
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

    def _deep(self, det, me: int, eyes: _Eyes, root_view: tuple, nodes: int) -> list:
        """Depth first with limited discrepancies from the sample `det`, `nodes` positions at most
        over all rounds. Round D (0, 1, 2, ...) follows each position's new children in the order
        of their values (best first, equals in the order of the moves), the best free, the second
        one of the D departures a line may make from that order, the third two, and so on; a
        position is skipped when its layout (`_Eyes.layout`: its view without the variables) was
        met before in the round. It stops at the first game won alone, or after a round that left
        out no child for want of departures or met no more layouts than the round before. The line
        to the best position found, as `_best` gives it."""
        root_layout = eyes.layout(root_view)
        made = [(-1, None, root_view)]  # each position met: (its parent's index, the move to it, its view)
        best = None  # (value, length of the line, index of its last position, the move from there)
        expanded = 0
        deadline = self.deadline
        met = 0  # the layouts the round before met
        rounds = 0
        while expanded < nodes:
            seen = {root_layout}
            waiting = [(det, 0, 0, rounds)]  # (position, its index in made, its depth, departures left): last in, first out
            held = False  # a child new to the round left out for want of departures
            while waiting and expanded < nodes:
                if deadline is not None and best is not None and time.monotonic() > deadline:
                    return self._line(made, best)
                s, k, depth, left = waiting.pop()
                expanded += 1
                hidden = eyes.hidden(s)
                before = _value(s, me)
                length = depth + 1
                kids = []
                layouts = set()
                won = False
                for m in moves_for(s, me):
                    after = _step(s, m, me, eyes, hidden, before)
                    if after is None:
                        continue
                    t, value, finished = after
                    move = (m.action, m.arg)
                    if t is None:
                        won = finished and value == WIN
                    else:
                        tview = eyes.view(t)
                        layout = eyes.layout(tview)
                        if layout in seen or layout in layouts:
                            continue
                        layouts.add(layout)
                        value = _value(t, me)
                        kids.append((value, t, move, tview, layout))
                    if best is None or value > best[0] or (value == best[0] and length < best[1]):
                        best = (value, length, k, move)
                    if won:
                        return self._line(made, best)
                kids.sort(key=lambda kid: -kid[0])  # best first, equals in the order of the moves
                if len(kids) > left + 1:  # the (a+1)-th best costs a departures
                    held = True
                    del kids[left + 1:]
                at = len(made)
                for _, t, move, tview, layout in kids:
                    seen.add(layout)
                    made.append((k, move, tview))
                waiting.extend((kid[1], at + a, length, left - a) for a, kid in reversed(list(enumerate(kids))))
            if not held or len(seen) == met:
                break
            met = len(seen)
            rounds += 1
        return self._line(made, best)

    def _line(self, made: list, best) -> list:
        """The line of moves from the root to the best position found (`best` as `_deep` keeps it);
        its value kept in `_best_value`."""
        self._best_value = 0.0 if best is None else best[0]
        if best is None:
            return []
        _, _, k, move = best
        line = []
        while k >= 0:
            parent, to_it, view = made[k]
            line.append((move, view))
            k, move = parent, to_it
        line.reverse()
        return line


def make_plan_bot(spec: str, seed: int = 0) -> PlanBot:
    """'plan', 'plan:POSITIONS' or 'plan:POSITIONS:WORLDS', depth first (WORLDS: the samples a
    patience with cards hidden is planned in, DEFAULT_WORLDS by default, 0 for none); 'plan:best'
    or 'plan:POSITIONS:best', best first (the search before depth first, kept to compare);
    OptionError for anything else."""
    name, sep, rest = spec.partition(":")
    parts = rest.split(":") if sep else []
    best = bool(parts) and parts[-1].strip() == "best"
    if best:
        parts.pop()
    if len(parts) > (1 if best else 2):
        raise OptionError(f"{spec} - the planning player is 'plan', 'plan:POSITIONS', 'plan:POSITIONS:WORLDS' "
                          "or 'plan:POSITIONS:best'")
    n = spec_count(f"{name}:{parts[0]}", "positions", 2000) if parts else None
    worlds = DEFAULT_WORLDS
    if len(parts) == 2:
        w = parts[1].strip()
        if not re.fullmatch(r"[0-9]{1,6}", w):
            raise OptionError(f"{name}:{rest[:30]} - the number of worlds must be a whole number, like "
                              f"{name}:{DEFAULT_WORLD_NODES}:{DEFAULT_WORLDS} (0: plan in none)")
        worlds = int(w)
    return PlanBot(seed, n, deep=not best, worlds=worlds)
