"""The fuzzer's vocabulary: its limits, the findings it reports, the configurations (player
count x option values) it plays, and the events a game shows."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

from ..language import graph as g
from ..engine import State, counted


DEFAULT_GAMES = 10          # games per configuration when neither --games nor --seconds is given
NO_BOUND_LIMIT = 100_000    # decisions before a game with no declared bound is "no end in sight"
NO_BOUND_AFTER = 2_000      # ... and the limit for later games once one has been reported
MAX_COMBOS = 16             # option combinations per player count (sampled beyond this)
MAX_FOLD_CONFIGS = 512      # (player count, options) assignments for constant folding
MAX_PLAYER_COUNTS = 6       # player counts tried (sampled beyond this)
SEEK_SAMPLE = 6             # moves a rule seeker looks ahead on
SEEK_RANDOM = 0.1           # ... and how often it plays a random move instead
SEEK_AIM = 1.0              # ... and what each unfired rule's condition holding after a move is worth
SEARCH_DEPTH = 3            # moves a hunting rule seeker searches ahead for a line that fires an unfired rule
SEARCH_NODES = 200          # ... positions at most per decision
SEARCH_GAME_NODES = 1000    # ... and per game
SOLVE_NODES = 10_000        # positions a search for an unfired rule's line visits per deal (reach.py)
SOLVE_DEALS = 4             # ... and the deals it searches, while the rule has not fired
SHRINK_SEEDS = 8            # seeds tried per smaller configuration while shrinking (random bots)
SHRINK_SEEDS_SEEKER = 3     # ... with rule seekers, which are slower
OPTION_SEEDS = 6            # seeds per (option value, player count) in the option-effect check
OPTION_MORE_SEEDS = 4       # ... times as many when the rules seldom read the option (a rare situation's)
OPTION_TOGETHER = 8         # combinations with an option read beside it at another value, tried first
OPTION_EXTRA_COMBOS = 3     # other option combinations tried before calling an option dead
TRACE_LIMIT = 5_000         # decisions an option-effect game is compared over; longer ones prove nothing
OBSERVE_EARLY = 6           # observation checks at the first decisions of a game ...
OBSERVE_EVERY = 10          # ... then every this many decisions, and at the end

KIND_ORDER = ["engine-crash", "cards-not-conserved", "replay-mismatch", "deadlock", "endless-loop",
              "exceeds-bound", "no-end-in-sight", "runtime-error", "same-decision", "hidden-leak",
              "card-leak", "never-fires", "dead-option", "advice-fails", "constant-advice", "unreachable-phase",
              "unused-definition", "constant-condition", "one-copy"]


# ====================================================================== results

@dataclass
class Reproduction:
    """A game that shows a finding: `cardrules replay` re-runs `record`."""

    ruleset: str
    players: int
    options: dict
    seed: int
    moves: list                      # [{"player": "P1", "move": "play 3-Red"}, ...] as in records
    record: dict
    note: str = ""                   # what replaying it shows
    changed: dict = field(default_factory=dict)  # the options not at their default
    path: str | None = None          # where the record was written
    extra: list = field(default_factory=list)   # [(label, record, path)] more records (dead option)

    def to_json(self) -> dict:
        out = {"ruleset": self.ruleset, "players": self.players, "options": self.options, "seed": self.seed,
               "moves": self.moves, "record": self.path, "shows": self.note}
        if self.extra:
            out["other_records"] = [{"label": label, "record": path} for label, _, path in self.extra]
        return out


@dataclass
class Finding:
    kind: str
    sentence: str
    rules: list
    ruleset: str
    location: str | None = None
    reproduction: Reproduction | None = None
    count: int = 1

    def to_json(self) -> dict:
        return {"kind": self.kind, "ruleset": self.ruleset, "sentence": self.sentence, "rules": self.rules,
                "location": self.location, "count": self.count,
                "reproduction": self.reproduction.to_json() if self.reproduction else None}


@dataclass
class RulesetReport:
    path: str
    game: str
    title: str
    configurations: int = 0
    games: int = 0
    seeker_games: int = 0
    seconds: float = 0.0
    findings: list = field(default_factory=list)
    fired: dict = field(default_factory=dict)
    untried: dict = field(default_factory=dict)  # "option 'x'" or "rule 'y'" -> why it was not put to the test
    cut_short: int = 0  # configurations the time budget stopped before their -k games
    asked: int | None = None  # the games asked of each configuration (-k), if any

    def to_json(self) -> dict:
        return {"path": self.path, "game": self.game, "title": self.title,
                "configurations": self.configurations, "games": self.games,
                "seeker_games": self.seeker_games, "seconds": round(self.seconds, 3),
                "findings": len(self.findings), "fired": self.fired, "untried": self.untried,
                "cut_short": self.cut_short}


# ====================================================================== configurations

@dataclass(frozen=True)
class Config:
    players: int
    options: tuple          # ((name, value), ...) for every option, declaration order
    changed: tuple = ()     # names of the options not at their default

    @property
    def opts(self) -> dict:
        return dict(self.options)

    def size(self) -> tuple:
        return (self.players, len(self.changed))

    def label(self) -> str:
        changed = dict(self.options)
        opts = ", ".join(f"{n}={_fmt_value(changed[n])}" for n in self.changed)
        return f"{counted(self.players, 'player')}, " + (f"options {opts}" if opts else "default options")


def _fmt_value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _config(rs, players: int, opts: dict) -> Config:
    full = tuple((o.name, opts.get(o.name, o.default)) for o in rs.options)
    changed = tuple(o.name for o in rs.options if opts.get(o.name, o.default) != o.default)
    return Config(players, full, changed)


def option_values(o: g.Option, probe: bool = False) -> list:
    """The values of an option worth trying, its default first. A whole number with no range is
    tried at other values only to `probe` whether it changes play (the dead-option check, and
    the hunt for a rule whose condition reads it): the configurations every other check plays
    stay as many as before."""
    if o.type == "bool":
        vals = [False, True]
    elif o.type == "enum":
        vals = list(o.choices)
    elif o.low is not None and o.high is not None:
        vals = list(range(o.low, o.high + 1)) if o.high - o.low <= 3 else sorted({o.low, o.default, o.high})
    elif probe and isinstance(o.default, int):  # a whole number with no range: a few around the default,
        d = o.default                            # and 1 (a threshold no game reaches at its default)
        vals = [d // 2, d + 1, d * 2 if d else 2, 1]
    else:
        vals = [o.default]
    return [o.default] + list(dict.fromkeys(v for v in vals if v != o.default))


def player_counts(rs) -> list[int]:
    lo, hi = rs.players_min, rs.players_max
    if hi - lo + 1 <= MAX_PLAYER_COUNTS:
        return list(range(lo, hi + 1))
    return sorted({lo, lo + 1, (lo + hi) // 2, hi - 1, hi})


def option_combos(rs, rng: random.Random, limit: int = MAX_COMBOS) -> list[dict]:
    """Every combination of option values, or a deterministic sample of `limit` that starts
    with the defaults and uses every value of every option at least once."""
    opts = list(rs.options)
    if not opts:
        return [{}]
    values = [option_values(o) for o in opts]
    if math.prod(len(v) for v in values) <= limit:
        return [dict(zip((o.name for o in opts), combo)) for combo in itertools.product(*values)]
    default = {o.name: o.default for o in opts}
    chosen = [default]
    for o, vals in zip(opts, values):
        for v in vals[1:]:
            combo = {q.name: rng.choice(qv) for q, qv in zip(opts, values)}
            combo[o.name] = v
            if combo not in chosen:
                chosen.append(combo)
    tries = 0
    while len(chosen) < limit and tries < 20 * limit:
        tries += 1
        combo = {q.name: rng.choice(qv) for q, qv in zip(opts, values)}
        if combo not in chosen:
            chosen.append(combo)
    return chosen


def configurations(rs, seed: int) -> list[Config]:
    out = []
    for n in player_counts(rs):
        rng = random.Random(f"{seed}/{rs.name}/{n}")
        for opts in option_combos(rs, rng):
            out.append(_config(rs, n, opts))
    return out


@dataclass
class Event:
    """One occurrence of a problem in one game."""

    kind: str
    key: tuple
    at: int                 # moves of the shortest prefix that shows it (the failing move included)
    sentence: str
    rules: list
    error: bool = False     # the last move of the prefix (or the set-up, at 0) raises
    replay_fails: bool = False  # replaying the reproduction is expected to fail
    location: str | None = None  # the statement in the source, when there is one
    note: str = ""          # what replaying the prefix shows


@dataclass
class Game:
    cfg: Config
    seed: int
    bot: str
    state: State | None = None
    events: dict = field(default_factory=dict)
    stop_key: tuple | None = None
    stopped: bool = False
    abandoned: bool = False
    seen_all: bytearray | None = None     # cards every player has seen (public, or face up)
    seen_own: list | None = None          # per seat: cards seen in the seat's own private zones
    seen_rows: bytearray | None = None    # seen_own's rows, one after another (C writes them: NativeGame.remember)
    vis: list | None = None               # per zone instance: its visibility
    sees: dict = field(default_factory=dict)  # per seat, per zone instance: whether it sees into it (once a game)
    memories: dict = field(default_factory=dict)  # per seat: what it has seen, to draw truths (engine/truths.py)
    truth_tries: int = 0                  # confirmations asked of truths (invariants.TRUTH_TRIES)

    def add(self, ev: Event):
        if ev.key not in self.events:
            self.events[ev.key] = ev
        if self.stop_key is not None and ev.key == self.stop_key:
            self.stopped = True

    @property
    def moves(self) -> list:
        return self.state.history if self.state is not None else []


@dataclass
class Hit:
    """A finding's first sighting, before shrinking."""

    event: Event
    cfg: Config
    seed: int
    bot: str
    moves: list
    count: int = 1
