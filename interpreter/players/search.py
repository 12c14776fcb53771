"""A search player for any ruleset: single-observer information-set Monte Carlo tree search
(Cowling, Powley and Whitehouse, 2012).

It sees only what its seat may see. Before every iteration it samples one possible truth with
`engine.determinise` (the cards it cannot know dealt at random among the places of such
cards, and the game's future chance drawn afresh), walks down one tree of moves shared by all
samples (a move is known by its player, action and argument; a child counts as available
only in the samples where its move is legal, and UCB uses those availability counts), adds
one move, plays the rest at random, and credits every seat with its result. The move played
is the root's most visited. Everything is drawn from the bot's own seeded generator, never
from the clock, so the same seed and position give the same move; only a `deadline` (set by
the browser table, which must not keep a person waiting) lets the clock cut a search short.

With advice, the tree widens as it is visited: a node has at most ceil((visits + 1) ** WIDENING)
children, and the one added next is the move its player's advice values most one move ahead
(ties as the greedy player breaks them), so the iterations deepen the few moves worth a look
instead of visiting each of forty once (measured against greedy players: README, "The search
widened by the advice").

With advice, a rollout is cut short and the advice judges where it stops. Two of every three
iterations stop after one decision a player, one after six. Measured (README), short rollouts
alone hold their own against players who follow the advice one move ahead, but lose strength
against careless (random) ones, which only a longer random continuation models; long ones
alone are the reverse. Taking both in turn kept most of each.

`moismcts` (MOISMCTSBot) is the multiple-observer kind: a node is known by its move and by what
its player saw as it moved (`_view`: the cards of the zones it may look into, and the face-up
ones), as OpenSpiel's ISMCTSBot keys a node by the mover's information state. The others'
nodes then split by the hands they were dealt in each sample, so their choices in the tree are
no longer statistics pooled over samples that all hold the searcher's true hand (as if they
could see it); in return the tree below the others' moves stays shallow until their hands are
known. Measured (benchmarks/search.py, benchmarks/openspiel_bots.py), neither is clearly the
stronger, so `ismcts` stays the default."""

from __future__ import annotations

import math
import random
import time

from ..engine import SCORE_UNREADABLE, advice, apply, determinise, moves_for, moves_to_choose, outcome, scores
from ..errors import GameRuntimeError, OptionError
from ..language import graph as g
from .spec import spec_count
from .ties import card_order, tie_key

DEFAULT_ITERATIONS = 300   # well under a second a decision in the bundled trick-taking game (benchmarks/search.py)
EXPLORATION = 0.7          # UCB constant, for rewards between 0 and 1
ROLLOUT_CAP = 2_000        # decisions in one rollout before it is scored as it stands
SAMPLE_TRIES = 20          # determinisations drawn before giving up on a stuck-looking sample
ADVICE_ROLLOUTS = (1, 1, 6)  # with advice: rollout decisions per player before the advice judges the position,
                            # taken in turn by the iterations of one decision (benchmarks/search.py: see the README)
ADVICE_SCALE = 3.0         # an advice gain of this much over the rivals' is worth most of a half win
WIDENING = 0.35            # with advice, a node has at most ceil((visits + 1) ** WIDENING) children, the move
                           # its mover's advice values most one move ahead added first (benchmarks/search.py)


class _Node:
    __slots__ = ("move", "parent", "player", "children", "visits", "avail", "reward")

    def __init__(self, move=None, parent=None, player=None, seats: int = 0):
        self.move = move
        self.parent = parent
        self.player = player          # who made `move`
        self.children: dict = {}      # (player, action, arg) -> _Node
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * seats   # summed over visits, one value per seat


def _key(m) -> tuple:
    return (m.player, m.action, m.arg)


_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser (as search.c's sr_mix), so that C and Python key nodes alike."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _view(s, who: int) -> int:
    """What `who` sees of the sample now, as one number: each card of a zone it may look into,
    or face up anywhere, with its zone (the order within a zone aside). Two samples that differ
    only in what `who` cannot see give the same number."""
    zones = s.program.zones
    known = s.known
    h = 0
    for inst, cards in enumerate(s.zones):
        sees = g.sees(zones[s.zkind[inst]].visibility, s.zowner[inst], who)
        for c in cards:
            if sees or known[c]:
                h += _mix((inst << 16) | c)
    return h & _MASK


def _standing(s, seats: int) -> list[float] | None:
    """Each seat's score placed between 0 (the worst at the table) and 1 (the best), by the
    game's own winner rule; None when the game keeps no score or it cannot be read now."""
    if s.program.score is None:
        return None
    try:
        sc = scores(s)
    except SCORE_UNREADABLE:
        return None
    lo, hi = min(sc), max(sc)
    if hi == lo:
        return [0.5] * seats
    if s.program.winner_rule == "fewest":
        return [(hi - v) / (hi - lo) for v in sc]
    return [(v - lo) / (hi - lo) for v in sc]


def _first(det, legal: list, untried: list[int], start: int) -> int:
    """Of the untried moves (indices into `legal`), the one its mover's advice values most one move
    ahead (0 where the advice fails), then as the greedy player breaks ties (a card before another
    argument before none, the lowest card first), then the first from `start` on: the search
    widens a node the way a player who follows the advice would look, so its few children are
    the moves worth a look (measured: README, "How strong are the players?")."""
    order = card_order(det.program)
    best, best_key = None, None
    n = len(untried)
    for k in range(n):
        j = untried[(start + k) % n]
        m = legal[j]
        after = det.clone()
        try:
            apply(after, m)
        except GameRuntimeError:  # (the sample's line runs into the game's bound, or its rules fail: no signal)
            value = 0
        else:
            try:
                value = advice(after, m.player)
            except GameRuntimeError:
                value = 0
        key = (value, *tie_key(m, order))
        if best_key is None or key > best_key:
            best, best_key = j, key
    return best


def _advice_all(s, seats: int) -> list[float] | None:
    try:
        return [float(advice(s, i)) for i in range(seats)]
    except (GameRuntimeError, TypeError, ValueError):
        return None


def _advised(s, seats: int, before: list[float]) -> list[float] | None:
    """A rollout cut short, judged by the ruleset's advice: each seat's gain since the search
    began, against its rivals' mean gain (a solitaire: against nothing), squashed into (0, 0.5)."""
    now = _advice_all(s, seats)
    if now is None:
        return None
    gain = [a - b for a, b in zip(now, before)]
    out = []
    for i in range(seats):
        rivals = [gain[j] for j in range(seats) if j != i]
        edge = gain[i] - (sum(rivals) / len(rivals) if rivals else 0.0)
        out.append(0.25 + 0.25 * math.tanh(edge / ADVICE_SCALE))
    return out


def _alone(s) -> float | None:
    """A game for one: its seat's score, the more the better (its negative where the fewest
    wins); None when it cannot be read now."""
    try:
        v = scores(s)[0]
    except SCORE_UNREADABLE:
        return None
    if v is None:
        return None
    return float(-v if s.program.winner_rule == "fewest" else v)


def _reward(s, seats: int) -> list[float]:
    """Mostly the result: 1 shared among the winners. A game with a score adds a little for
    how well each seat scored, so that a near win counts for more than a rout. A rollout
    stopped before the end counts by the score alone, at half weight; no winner at all gives
    every seat the same small value."""
    standing = _standing(s, seats)
    if s.finished:
        o = outcome(s)
        if o is not None and o.winners:
            share = 1.0 / len(o.winners)
            win = [share if i in o.winners else 0.0 for i in range(seats)]
            if standing is None:
                return win
            return [0.7 * w + 0.3 * x for w, x in zip(win, standing)]
    elif standing is not None:
        return [0.5 * x for x in standing]
    return [0.5 / seats] * seats


class ISMCTSBot:
    """Information-set MCTS with random rollouts; `iterations` samples per decision. When the
    ruleset gives advice, rollouts are short (ADVICE_ROLLOUTS) and the advice judges where they end."""

    name = "ismcts"
    views = False  # single observer: a node is a move, whatever its player could see
    # the true position in every sample, its later chance drawn afresh: not a fair player but a
    # benchmark's measure of what perfect sampling could buy at most (benchmarks/search.py --see-all)
    peek = False

    def __init__(self, seed: int = 0, iterations: int = DEFAULT_ITERATIONS, rollout_cap: int = ROLLOUT_CAP,
                 truths: int = 0):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"the search player needs a positive number of iterations, not {iterations!r}")
        if isinstance(truths, bool) or not isinstance(truths, int) or truths < 0:
            raise OptionError(f"the search player's truths are a whole number from 0, not {truths!r}")
        self.seed = seed
        self.iterations = iterations
        self.rollout_cap = rollout_cap
        self.truths = truths  # with some, every sample is one of that many truths drawn as pimc draws them
        self.rng = random.Random(seed)
        self.deadline: float | None = None  # time.monotonic() past which a decision plays its best so far
        self._memory = None  # what the seat has seen (engine.truths.Memory), with truths

    def __repr__(self) -> str:
        more = f", truths={self.truths}" if self.truths else ""
        return f"{type(self).__name__}({self.seed}, iterations={self.iterations}{more})"

    def choose(self, state):
        moves = moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        me = state.actor
        seats = state.n_players
        rng = self.rng
        deadline = self.deadline
        pool = self._truths(state, me, rng) if self.truths else None
        if state.native is not None:  # a game the native engine plays: the whole search in C
            stats = self._search_native(state, me, rng, deadline, pool)
            if stats is not None:
                return _pick(rng, moves, [(_key(moves[j]), visits, reward) for j, visits, reward in stats])
        root = _Node(seats=seats)
        for i in range(self.iterations):
            if deadline is not None and time.monotonic() > deadline and root.children:
                break
            det = _pooled(pool, rng) if pool else self._sample(state, me, rng)
            if det is None:
                continue
            before = _advice_all(det, seats) if det.program.advice else None
            # a game for one without advice that keeps a score: its lines judged by the score gained
            alone = _alone(det) if before is None and seats == 1 and det.program.score is not None else None
            self._iterate(root, det, seats, rng, before, ADVICE_ROLLOUTS[i % len(ADVICE_ROLLOUTS)], alone)
        return _pick(rng, moves, [(k[:3], c.visits, c.reward[me]) for k, c in root.children.items()])

    def _search_native(self, state, me, rng, deadline, pool=None):
        from ..native.search import search
        return search(state.native, me, rng, self.iterations, exploration=EXPLORATION, advice_scale=ADVICE_SCALE,
                      tries=SAMPLE_TRIES, rollouts=ADVICE_ROLLOUTS, rollout_cap=self.rollout_cap, deadline=deadline,
                      views=self.views, peek=self.peek, truths=pool)

    def _truths(self, state, me: int, rng: random.Random) -> list:
        """`truths` possible truths at this decision, each consistent with all the seat has seen (the
        cards it passed or saw stay where it saw them go, a suit it saw a seat fail to follow stays
        out of that seat's hand: engine/truths.py), kept as _sample keeps a sample (over, or someone
        to move: where the others' sealed choices are forgotten, they are to choose again)."""
        from ..engine.truths import Memory
        m = self._memory
        if m is None or not m.follows(state, me):
            m = self._memory = Memory(state, me)
        m.catch_up(state)
        pool = []
        for _ in range(self.truths):
            world = m.truth(state, me, rng)
            if world is not None and (world.finished or world._legal):
                pool.append(world)
        return pool

    def _sample(self, state, me, rng):
        for _ in range(SAMPLE_TRIES):
            if self.peek:
                det = state.native.python_copy() if state.native is not None else state.clone()
                det.rng, det.rng_shared = random.Random(rng.getrandbits(64)), None
            else:
                try:
                    det = determinise(state, me, rng, reseed=True)
                except SCORE_UNREADABLE:  # the rules fail in this sample (a position the seat cannot rule out): another
                    continue
            if det.finished or det._legal:
                return det
        return None

    def _iterate(self, root: _Node, det, seats: int, rng: random.Random, before: list[float] | None = None,
                 advice_rollout: int = ADVICE_ROLLOUTS[-1], alone: float | None = None) -> None:
        node = root
        views = self.views
        try:
            while not det.finished:
                legal = moves_for(det)
                if not legal:
                    break
                children = node.children
                if views:  # each move known also by what its player sees as it moves
                    seen = {p: _view(det, p) for p in {m.player for m in legal}}
                    keys = [(*_key(m), seen[m.player]) for m in legal]
                else:
                    keys = [_key(m) for m in legal]
                untried = [j for j, k in enumerate(keys) if k not in children]
                if (untried and before is not None and len(untried) < len(keys)
                        and len(keys) - len(untried) >= math.ceil((node.visits + 1) ** WIDENING)):
                    untried = []  # wide enough for its visits: one of the children it has
                if untried:
                    start = rng.randrange(len(untried))
                    j = untried[start] if before is None or len(untried) == 1 else _first(det, legal, untried, start)
                    m = legal[j]
                    who = m.player  # at a `choose by each` any of several players may be the one
                    node = children[keys[j]] = _Node(m, node, who, seats)
                    apply(det, m)
                    break
                best, best_value = None, -1.0
                for k in keys:
                    c = children.get(k)
                    if c is None:  # not a child yet (the node is as wide as its visits allow)
                        continue
                    c.avail += 1
                    value = c.reward[c.player] / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                    if value > best_value:
                        best, best_value = c, value
                node = best
                apply(det, best.move if best.move in legal else next(m for m in legal if _key(m) == _key(best.move)))
            n = 0
            choice = rng.randrange
            cap = self.rollout_cap if before is None else min(self.rollout_cap, advice_rollout * seats)
            while not det.finished and n < cap:
                legal = moves_for(det)
                if not legal:
                    break
                apply(det, legal[choice(len(legal))])
                n += 1
        except GameRuntimeError:  # the sample's line runs into the game's bound (it may go round for ever), or its
            r = [0.5 / seats] * seats  # rules fail (a position the play so far may rule out): nobody wins it
        else:
            r = None
            # a game for one that names no winner ends as the player's "win" however it ends: its
            # end is judged by the advice too, so that ending is not a prize in itself
            if before is not None and (not det.finished or (seats == 1 and det.declared is None)):
                r = _advised(det, seats, before)
            elif alone is not None and (not det.finished or det.declared is None):
                now = _alone(det)  # (every end of such a game is the player's "win": the score tells)
                if now is not None:
                    r = [0.25 + 0.25 * math.tanh((now - alone) / ADVICE_SCALE)]
            if r is None:
                r = _reward(det, seats)
        while node is not None:
            node.visits += 1
            acc = node.reward
            for i in range(seats):
                acc[i] += r[i]
            node = node.parent


class MOISMCTSBot(ISMCTSBot):
    """ISMCTSBot with every node keyed by its move and by what the mover saw as it moved (its
    own cards, the table), as OpenSpiel's ISMCTSBot keys a node by the mover's information
    state: the others' choices in the tree then follow from their own cards in each sample,
    not from statistics pooled over every hand the searcher samples for them (which are
    played as if they could see the searcher's cards)."""

    name = "moismcts"
    views = True


def _pooled(pool: list, rng: random.Random):
    """One of the truths at random, its later chance drawn afresh (native/runtime/unit/search.c
    draws the same: randrange, then the chance's seed)."""
    det = pool[rng.randrange(len(pool))].clone()
    det.rng, det.rng_shared = random.Random(rng.getrandbits(64)), None
    return det


def _pick(rng: random.Random, moves: list, children: list):
    """The root's most visited child among the legal moves (then the best mean reward; a tie
    drawn at random among the keys in order of their text); `children` is [(key, visits,
    summed reward of the player to act)]."""
    legal = {_key(m): m for m in moves}
    ranked = sorted(((visits, reward / visits if visits else 0.0, k) for k, visits, reward in children if k in legal),
                    key=lambda t: (t[0], t[1]), reverse=True)
    if not ranked:
        return moves[rng.randrange(len(moves))]
    top = [k for v, w, k in ranked if (v, w) == ranked[0][:2]]
    return legal[top[0] if len(top) == 1 else sorted(top, key=repr)[rng.randrange(len(top))]]


def make_search_bot(spec: str, seed: int = 0) -> ISMCTSBot:
    """'ismcts', 'moismcts', each optionally ':ITERATIONS' or ':ITERATIONS:TRUTHS'; OptionError for
    anything else after the colon."""
    name, colon, rest = spec.partition(":")
    head, sep, truths = rest.partition(":")
    n = spec_count(f"{name}:{head}" if colon else name, "iterations", 200)
    t = spec_count(spec, "truths", 20, last=True) if sep else 0
    kind = MOISMCTSBot if name.strip() == "moismcts" else ISMCTSBot
    return kind(seed, DEFAULT_ITERATIONS if n is None else n, truths=t)
