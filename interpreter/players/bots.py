"""Generic players for any ruleset: they know the engine's API, never a game.

A bot is anything with `choose(state) -> Move` returning one of `legal_moves(state)`.
Each bot owns its random generator, so a game played by bots is reproducible from the
game's seed alone (see `bot_seed`)."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .. import engine
from ..engine import SCORE_UNREADABLE, Move, State, apply, moves_to_choose
from ..errors import GameRuntimeError, OptionError
from .ties import card_order, tie_key


@runtime_checkable
class Bot(Protocol):
    def choose(self, state: State) -> Move: ...


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat` (0-based) for the game played with `game_seed`."""
    return game_seed * 1000 + seat


def seat_scores(state: State) -> tuple[int, ...]:
    """Every seat's score by the ruleset's winner rule, evaluated now (even mid-game), as
    `engine.outcome` evaluates it at the end; all zeros when the game declares no score."""
    return tuple(engine.scores(state))


def _ahead(scores, seat: int, winner_rule: str) -> int:
    """How far `seat` is ahead of its best rival by these scores (positive is good)."""
    own = scores[seat]
    rivals = [v for i, v in enumerate(scores) if i != seat]
    if winner_rule == "most":
        return own - (max(rivals) if rivals else 0)
    return (min(rivals) if rivals else 0) - own  # fewest wins


class RandomBot:
    """Uniform over the legal moves."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        moves = moves_to_choose(state)
        return self.rng.choice(moves)

    def __repr__(self) -> str:
        return f"RandomBot({self.seed})"


def choosing_failed(seat_text: str, bot: str, what: str) -> str:
    """How a command says that the rules failed while a player chose (`what`: "move 3"): in a
    position of the player's own, not in the game, which stands where it was."""
    return (f"while {seat_text} ({bot}) chose {what}, looking ahead in a position of its own (a sample of what it "
            "cannot see, or a line it tried)")


def sample_seed(seed: int, decisions: int, seat: int) -> int:
    """The seed of the sample a greedy decision looks ahead in: a function of the bot's seed, the
    decisions made so far and the seat, mixed into 64 bits (C seeds its generator with it as
    random.Random does)."""
    x = (seed * 0x9E3779B97F4A7C15 + decisions * 0xBF58476D1CE4E5B9 + seat) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


class GreedyBot:
    """One step of look-ahead: play each legal move on a copy of the game (up to the next
    decision) and keep the move that leaves this seat best placed by the ruleset's advice
    when it gives some, then furthest ahead of its best rival by the game's own scoring. The
    copy is a sample of what the seat cannot see (the hidden cards rearranged, chance drawn
    afresh), so a move is never judged by a card it would turn up, or by where the cards nobody
    sees truly lie.
    Ties: play the lowest-ranked card first (keep high cards), then moves with another kind
    of argument, then moves without one; then a seeded coin.

    While it decides several times in a row (a patience, a turn of many moves), it never moves
    back to a position it has already left in that run, as this seat sees it, unless every move
    would: a card carried to and fro looks no worse after each trip, and the player would carry it
    until the game's bound stopped it."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)
        self._left: set = set()       # the positions left in this run of decisions (as this seat sees them)
        self._run_at: tuple | None = None  # (game, moves made) when this seat last decided

    def margin(self, state: State, seat: int) -> int:
        """How far `seat` is ahead of its best rival now (positive is good)."""
        try:
            scores = seat_scores(state)
        except SCORE_UNREADABLE:
            return 0  # a score that cannot be evaluated mid-game gives no signal
        return _ahead(scores, seat, state.program.winner_rule)

    def choose(self, state: State) -> Move:
        moves = moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        me = state.actor
        order = card_order(state.program)
        advised = bool(state.program.advice)
        keys = [(value, *tie_key(m, order)) for m, value in zip(moves, self._values(state, moves, me, advised))]
        run = self._in_run(state, me)
        left = set()  # the moves found to lead back
        while True:
            top = max(keys[k] for k in range(len(moves)) if k not in left)
            best = [k for k in range(len(moves)) if k not in left and keys[k] == top]
            if run:  # only the best are looked at: most of the time the best move goes somewhere new
                back = [k for k in best if self._goes_back(state, moves[k], me)]
                left.update(back)
                best = [k for k in best if k not in back]
            if best:
                break
            if len(left) == len(moves):  # every move leads back: the best of them all
                top = max(keys)
                best = [k for k in range(len(moves)) if keys[k] == top]
                break
        return moves[best[0]] if len(best) == 1 else self.rng.choice([moves[k] for k in best])

    def _in_run(self, state: State, me: int) -> bool:
        """Whether this seat decided the move just made too (a run of decisions goes on); the
        position it leaves now is remembered either way."""
        n = len(state.history)
        run = self._run_at is not None and self._run_at[0] is state.program and self._run_at[1] == n - 1
        self._run_at = (state.program, n)
        if not run:
            self._left = set()
        from .plan import seat_view
        self._left.add(seat_view(state, me))
        return run

    def _goes_back(self, state: State, m: Move, me: int) -> bool:
        """Whether move m brings this seat, still deciding, to a position it has left in this run."""
        from .plan import seat_view
        if state.native is not None:  # asked of a copy in C
            from ..native.plan import view_after
            k = next(k for k, x in enumerate(state._legal) if x is m)
            v = view_after(state.native, k, me)
            if v is not False:
                return v is not None and v in self._left
        after = state.clone()
        try:
            apply(after, m)
        except GameRuntimeError:
            return False
        return not after.finished and after.actor == me and seat_view(after, me) in self._left

    def _values(self, state: State, moves: list[Move], me: int, advised: bool):
        """Each move's value for `me` one step on: the advice after it (when the ruleset gives
        some), then the margin. The moves are played in one sample of what `me` cannot see
        (engine.determinise, the sample's chance drawn afresh too), not in the game itself: a
        move that turns a hidden card up (a draw, a flip) or sets off a shuffle is judged by what
        the seat could meet there, never by the true card, which it cannot know before it moves.
        The sample comes from a generator of its own (sample_seed), so the coin that breaks ties
        is drawn as before. A move the sample does not offer (only where the rules let hidden cards
        change a seat's moves, which the fuzzer reports), or whose rules fail in the sample, is
        judged in the game itself, as every move is where the sample cannot be drawn. A game in
        C works out the whole look-ahead in one call (native/greedy.py), the same sample drawn
        there, and gives back the raw numbers, which the same code judges here."""
        seed = sample_seed(self.seed, len(state.history), me)
        if state.native is not None:
            from ..native.greedy import look_ahead
            values = look_ahead(state.native, advised, seed)
            if values is not None and len(values) == len(moves):
                yield from values
                return
        offered = {}
        try:
            seen = engine.determinise(state, me, random.Random(seed), reseed=True)
        except SCORE_UNREADABLE:  # (the rules fail in the sample itself: every move is judged in the game)
            seen = None
        for x in seen._legal if seen is not None else ():
            offered.setdefault((x.player, x.action, x.arg), x)
        for m in moves:
            there = offered.get((m.player, m.action, m.arg))
            after = None
            if there is not None:
                try:
                    after = apply(seen.clone(), there)
                except GameRuntimeError:
                    after = None
            if after is None:
                after = apply(state.clone(), m)
            value = self.margin(after, me)
            if advised:  # the ruleset's advice first, the score after it
                try:
                    value = (engine.advice(after, me), value)
                except GameRuntimeError:
                    value = (0, value)
            yield value

    def __repr__(self) -> str:
        return f"GreedyBot({self.seed})"


BOTS: dict[str, type | None] = {"random": RandomBot, "greedy": GreedyBot,
                                 "ismcts": None,  # the search player, in search.py: 'ismcts[:ITERATIONS[:TRUTHS]]'
                                 "moismcts": None,  # the same, its nodes keyed by what the mover sees: 'moismcts[:ITERATIONS[:TRUTHS]]'
                                 "plan": None,    # the planning player, in plan.py: 'plan[:POSITIONS[:WORLDS]]', or ':best' after 'plan[:POSITIONS]'
                                 "pimc": None,    # the sampling player, in pimc.py: 'pimc[:WORLDS[:NODES]]'
                                 "cfr": None}     # a small game's equilibrium, in cfr.py: 'cfr[:ITERATIONS]'


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name ('random', 'greedy', 'ismcts', 'ismcts:ITERATIONS', 'ismcts:ITERATIONS:TRUTHS',
    'moismcts[:ITERATIONS[:TRUTHS]]', 'plan',
    'plan:POSITIONS', 'plan:POSITIONS:WORLDS', 'plan:best', 'plan:POSITIONS:best'); OptionError for any other name."""
    key = str(name).strip().lower()
    if key.partition(":")[0] in ("ismcts", "moismcts"):
        from .search import make_search_bot  # the search players sit beside the bots
        return make_search_bot(key, seed)
    if key.partition(":")[0] == "plan":
        from .plan import make_plan_bot
        return make_plan_bot(key, seed)
    if key.partition(":")[0] == "cfr":
        from .cfr import make_cfr_bot  # the strategy CFR+ finds for a small game
        return make_cfr_bot(key, seed)
    if key.partition(":")[0] == "pimc":
        from .pimc import make_pimc_bot  # the sampling player: deals solved by solver/
        return make_pimc_bot(key, seed)
    cls = BOTS.get(key)
    if cls is None:
        raise OptionError(f"unknown bot {name!r}; the bots are: random, greedy, ismcts (or ismcts:ITERATIONS, "
                          "ismcts:ITERATIONS:TRUTHS), moismcts (the same), "
                          "plan (or plan:POSITIONS, plan:POSITIONS:WORLDS, and :best to search best first), "
                          "pimc (or pimc:WORLDS or pimc:WORLDS:NODES), cfr (or cfr:ITERATIONS, and :win to play for wins)")
    return cls(seed)
