"""Playing the games of a balance report and keeping what each game tells a designer: who
won, the scores, how long it took, which rules fired, who decided first, and how often the
lead changed hands on the way."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import engine, engines
from ..players.bots import bot_seed, choosing_failed, make_bot
from ..engine import SCORE_UNREADABLE, apply, fired_counts, legal_moves, outcome, seat_name
from ..errors import CardRulesError

HARD_CAP = 100_000  # decisions: a game this long is stopped and counted as unfinished (the engine stops
# one earlier, with an error, when it passes its `at most N decisions` or, declaring none, DEFAULT_MAX_DECISIONS)


@dataclass(frozen=True)
class Config:
    """One set-up to play K games of: a ruleset, a player count, options and a bot per seat.
    `rotate` names a bot that moves round the table (game i seats it at i mod players), for
    the skill question."""

    label: str
    path: str
    rs: object = field(compare=False, repr=False)
    players: int
    options: tuple = ()          # ((name, value text), ...) as given on the command line
    bots: tuple = ()             # one bot name per seat
    rotate: str | None = None    # the bot that changes seat each game (or None)

    def seat_bots(self, game: int) -> tuple:
        if self.rotate is None:
            return self.bots
        strong = game % self.players
        return tuple(self.rotate if s == strong else b for s, b in enumerate(self.bots))


AT_ONCE = -1  # first_decider of a game whose first decision every player makes at once (a sealed choice)


@dataclass(frozen=True)
class GameFacts:
    seed: int
    bots: tuple
    winners: tuple
    scores: tuple
    decisions: int
    finished: bool
    fired: dict
    moves: dict                   # action name -> times chosen
    first_decider: int | None
    lead_changes: int | None      # None: the game keeps no score to lead by
    winner_was_behind: bool | None
    sides: tuple = ()             # the players grouped by the `sides` line at the end (engine.sides)


class GameFailed(CardRulesError):
    """A game of the report broke: the engine failed, or nobody could move."""


def play_game(cfg: Config, index: int, seed: int, native=None) -> GameFacts:
    """One game of the report, on the Python engine, or (`native`: the ruleset's NativeProgram)
    on a native state, with the same facts: random seats' game played whole in C when the game
    keeps no score to follow, else move by move in C with the bots choosing through the engine
    API (the lead is read from C after every move). A game that fails in C is played again in
    Python, so that its error is the Python engine's, word for word."""
    if native is None:
        return _play_game(cfg, index, seed, None)
    try:
        return _play_game(cfg, index, seed, native)
    except CardRulesError:
        return _play_game(cfg, index, seed, None)


def _play_game(cfg: Config, index: int, seed: int, native) -> GameFacts:
    bots = cfg.seat_bots(index)
    s = engines.new_game(cfg.rs, cfg.players, dict(cfg.options), seed, engine=native)
    if native is not None and s.program.score is None and engines.all_random(bots):
        return _random_game_in_c(cfg, index, seed, bots, s)
    players = [make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
    keeps_score = s.program.score is not None
    read_scores, step = engine.scores, lambda m: apply(s, m)
    if native is not None:
        from ..runner.native import native_scores
        read_scores = native_scores
        if engines.all_random(bots):  # their moves are the engine's own: straight into C
            step = s.native.play
    most = s.program.winner_rule != "fewest"
    moves: dict = {}
    behind: set = set()  # the seats that were behind the leader at some moment
    first = None
    choosing = None  # the seat whose player is choosing (a failure there is in its look-ahead)
    n = 0
    leads = []  # each new set of seats tied for the lead: counted as changes once the sides are known
    try:
        while not s.finished and n < HARD_CAP:
            if not legal_moves(s):
                raise GameFailed(f"game {index + 1} (seed {seed}) is stuck: nobody has a legal move "
                                 f"after {n} decisions")
            who = s.actor
            if first is None:
                first = AT_ONCE if len(engine.deciders(s)) > 1 else who
            choosing = who
            move = players[who].choose(s)
            choosing = None
            moves[move.action] = moves.get(move.action, 0) + 1
            step(move)
            n += 1
            if keeps_score:
                try:
                    sc = read_scores(s)
                except SCORE_UNREADABLE:
                    continue  # a score that cannot be read mid-game says nothing about the lead
                if sc is None:  # (in C: a score that cannot be worked out here)
                    continue
                best = max(sc) if most else min(sc)
                lead = tuple(i for i, v in enumerate(sc) if v == best)
                behind.update(i for i in range(len(sc)) if i not in lead)
                if not leads or lead != leads[-1]:
                    leads.append(lead)
    except GameFailed:
        raise
    except CardRulesError as e:
        where = (choosing_failed(seat_name(choosing), bots[choosing], f"decision {n + 1}") if choosing is not None
                 else f"after {n} decisions")
        raise GameFailed(f"game {index + 1} (seed {seed}) broke {where}: {e.message}", e.file, e.line,
                         e.column, e.source_line) from None
    try:
        o = outcome(s)
        winners = o.winners if o is not None else ()
        scores = o.scores if o is not None else tuple(engine.scores(s)) if keeps_score else tuple(0 for _ in bots)
    except CardRulesError as e:  # (a score that cannot be worked out at the end)
        raise GameFailed(f"game {index + 1} (seed {seed}) broke at its end, working out its result: {e.message}",
                         e.file, e.line, e.column, e.source_line) from None
    teams = _sides(s)
    return GameFacts(seed=seed, bots=bots, winners=tuple(winners), scores=tuple(scores), decisions=n,
                     finished=s.finished, fired=fired_counts(s), moves=moves, first_decider=first,
                     lead_changes=_changes(leads, teams) if keeps_score else None,
                     winner_was_behind=(any(w in behind for w in winners) if keeps_score and winners else None),
                     sides=teams)


def _sides(s) -> tuple:
    """The sides at the end (engine.sides), or () when the rules cannot work them out there."""
    try:
        return engine.sides(s)
    except CardRulesError:
        return ()


def _changes(leads: list, teams: tuple) -> int:
    """How often the sole leader changed: seats tied for the lead are one leader when they are one
    side (partners share a score: a new user's Belote never had a sole leader)."""
    side_of = {seat: k for k, team in enumerate(teams) for seat in team}
    changes, last = 0, None
    for lead in leads:
        who = {side_of.get(seat, ("seat", seat)) for seat in lead}
        if len(who) == 1 and who != last:
            if last is not None:
                changes += 1
            last = who
    return changes


def _random_game_in_c(cfg: Config, index: int, seed: int, bots: tuple, s) -> GameFacts:
    """A game of random seats that keeps no score, played whole in C (one call), its moves kept:
    the facts play_game gathers move by move (no lead to follow)."""
    import random

    from ..runner.native import playout_counts
    at_once = not s.finished and len(engine.deciders(s)) > 1
    n, moves, first = playout_counts(s, [random.Random(bot_seed(seed, i)) for i in range(len(bots))], HARD_CAP)
    if not s.finished and n < HARD_CAP:  # (a failure raised: play_game plays it again in Python)
        raise GameFailed(f"game {index + 1} (seed {seed}) is stuck: nobody has a legal move after {n} decisions")
    o = outcome(s)
    winners = o.winners if o is not None else ()
    scores = o.scores if o is not None else tuple(0 for _ in bots)
    return GameFacts(seed=seed, bots=bots, winners=tuple(winners), scores=tuple(scores), decisions=n,
                     finished=s.finished, fired=fired_counts(s), moves=moves,
                     first_decider=AT_ONCE if at_once else first, lead_changes=None, winner_was_behind=None,
                     sides=_sides(s))


def play_config(cfg: Config, games: int, seed: int, advance=None, out: list | None = None,
                native=None) -> list[GameFacts]:
    """K games, game i with seed+i (the same seeds for every configuration, so two variants
    are compared on the same deals as far as their rules allow); each game's facts are added
    to `out` (a new list by default) as soon as it ends."""
    out = [] if out is None else out
    for i in range(games):
        out.append(play_game(cfg, i, seed + i, native))
        if advance is not None:
            advance()
    return out
