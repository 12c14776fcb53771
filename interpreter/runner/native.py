"""The commands' side of the native engine: choosing the engine (`--engine auto|python|native`)
and playing whole games of random players in C, as `play` plays them in Python (the same seeds,
the same bots' draws, the same outcomes, decisions, rules fired and records), in this process or
in the runner's workers."""

from __future__ import annotations

import ctypes
import random
from dataclasses import dataclass

from ..bots import bot_seed
from ..engine.records import make_record
from ..native.build import NativeUnavailable, find_compiler
from ..native.codegen.expr import NativeUnsupported
from ..native.engine import CR_NONE, E_INTR, NativeGame, NativeProgram, check_signals, native_program, want_guard

ENGINES = ("auto", "python", "native")


class EngineChoice:
    """Which engine plays, and the one line that says why."""

    def __init__(self, native: NativeProgram | None, line: str):
        self.native = native
        self.line = line

    @property
    def name(self) -> str:
        return "native" if self.native is not None else "python"


def choose_engine(program, requested: str, python_only: str | None = None) -> EngineChoice:
    """'python'; 'native' (NativeUnavailable or NativeUnsupported when it cannot be had); 'auto':
    native where a compiler builds this ruleset, else Python. `python_only` says why this run
    needs the Python engine whatever is asked (e.g. its players decide in Python)."""
    if requested not in ENGINES:
        raise ValueError(f"--engine is one of {', '.join(ENGINES)}, not {requested!r}")
    if requested == "python":
        return EngineChoice(None, "engine: python (as asked)")
    if python_only is not None:
        if requested == "native":
            raise NativeUnsupported(f"--engine native cannot play this: {python_only}")
        return EngineChoice(None, f"engine: python ({python_only})")
    try:
        np = native_program(program)
    except (NativeUnavailable, NativeUnsupported) as e:
        if requested == "native":
            raise
        return EngineChoice(None, f"engine: python (no native engine: {e.message})")
    compiler = find_compiler()
    return EngineChoice(np, f"engine: native (C, built by {compiler}; kept in the cache)")


@dataclass
class NativeResult:
    seed: int
    winners: tuple
    scores: tuple
    decisions: int
    fired: dict
    failed: bool  # the game failed or got stuck: the caller plays it again in Python for its message


def random_games(np: NativeProgram, players: int, options: dict, seed: int, games: int,
                 chunk: int = 500, progress=None):
    """Games seed .. seed+games-1 of random bots, in C, `chunk` games a call, one after another as
    each call returns. Ctrl-C during a call stops it at once (native/engine.py: want_guard): the
    games that had finished (up to the first that failed) come first, then KeyboardInterrupt."""
    from ..engine import play
    p = np.p
    opts = np.options_row(play.resolve_options(p, options))
    opt_arr = (ctypes.c_int64 * len(opts))(*opts)
    n_rules = len(p.rule_names)
    width = 5 + players + n_rules
    want_guard(np.lib)
    done = 0
    while done < games:
        k = min(chunk, games - done)
        rows = (ctypes.c_int64 * (k * width))()
        for g in range(k):  # a game C has not played to its end says so (a call stopped before it began too)
            rows[g * width] = E_INTR
        stop = None
        try:
            rc = np.lib.cr_play_many(players, opt_arr, seed + done, k, 1 << 62, rows)
            if rc == E_INTR:
                check_signals()  # Ctrl-C: KeyboardInterrupt (a handler that returns: the rest is played)
        except KeyboardInterrupt as e:  # (raised by Python at any bytecode once the call is back)
            rc, stop = E_INTR, e
        if rc and rc != E_INTR:
            raise NativeUnsupported("these seeds are beyond what the native engine seeds (at most 2**53)")
        made = 0
        for g in range(k):
            row = rows[g * width:(g + 1) * width]
            if row[0] == E_INTR:
                break
            failed = bool(row[0]) or not row[1]
            if stop is not None and failed:
                break  # (played again in Python, it would hold up the Ctrl-C)
            scores = tuple(row[5:5 + players])
            made += 1
            yield NativeResult(seed + done + g, _winners(p, row, scores), scores, row[2],
                               dict(zip(p.rule_names, row[5 + players:])), failed)
        if stop is not None:
            raise stop
        done += made
        if progress is not None:
            progress(made)


def _winners(p, row, scores) -> tuple:
    """engine/play.py:outcome, from one row."""
    if row[3]:
        return tuple(i for i in range(len(scores)) if row[4] >> i & 1)
    if p.score is None or any(v == CR_NONE for v in scores):
        return ()
    best = max(scores) if p.winner_rule == "most" else min(scores)
    return tuple(i for i, v in enumerate(scores) if v == best)


def random_game_record(rs, players: int, options: dict, seed: int, ruleset_path: str) -> tuple:
    """One game of random bots in C with its record (the moves): (view State, record)."""
    g = NativeGame(rs, players, options, seed=seed)
    g.playout([random.Random(bot_seed(seed, k)) for k in range(players)])
    return g.view, make_record(g.view, ruleset_path)


def play_chunk(rs, ruleset_path: str, players: int, options: dict, seed: int, items, log: bool,
               play_one, progress=None, out: list | None = None) -> tuple[list, tuple | None]:
    """Games `items` (seed + i each) of random bots in C, as `cardrules play` reports them:
    [(seed, winners, scores, decisions, fired, record or None)], and the first game that
    failed, played again by `play_one` (the Python engine's player of one game) so that its
    error is the one the Python engine gives: (i, that error) or None. The games go into `out`
    (a new list by default) as they finish, so that after Ctrl-C the caller has those."""
    from ..engine import play
    np = native_program(play.program_of(rs))
    items = list(items)
    games = [] if out is None else out
    for start in range(0, len(items), 500):
        part = items[start:start + 500]
        if part != list(range(part[0], part[0] + len(part))):  # not one run of seeds: one by one
            runs = [[i] for i in part]
        else:
            runs = [part]
        for run in runs:
            for i, r in zip(run, random_games(np, players, options, seed + run[0], len(run))):
                if r.failed:
                    return games, (i, play_one(r.seed))
                record = random_game_record(rs, players, options, r.seed, ruleset_path)[1] if log else None
                games.append((r.seed, r.winners, r.scores, r.decisions, r.fired, record))
        if progress is not None:
            progress(len(part))
    return games, None


def engine_for_play(program, requested: str, bot_names: dict, human_seat, cluster) -> EngineChoice:
    """The engine `play` uses (--engine), or an OptionError (exit 2) when the one asked for cannot be had."""
    import os
    from ..errors import CardRulesError, OptionError
    if requested not in ENGINES:
        raise OptionError(f"--engine is one of {', '.join(ENGINES)}, not {requested!r}")
    from ..balance import deciding_in_python
    why = None
    if human_seat is not None:
        why = "a person plays"
    elif cluster or os.environ.get("CARDRULES_CLUSTER"):
        why = "a cluster plays"
    slow = deciding_in_python(bot_names.values())
    if why is None and slow and requested == "auto":  # they would read the whole position from C at every move
        return EngineChoice(None, f"engine: python (its bots ({', '.join(slow)}) decide in Python)")
    try:
        return choose_engine(program, requested, why)
    except CardRulesError as e:
        raise OptionError(e.message) from None


def engine_for(programs, requested: str, auto_python: str | None = None) -> EngineChoice:
    """The engine of a command whose players all play through the engine API (balance, fuzz,
    diff --play, serve, the adapters): native when every program in `programs` (one, or the
    two compared) can be built, else Python, saying why in one line; an OptionError (exit 2)
    when --engine native cannot be had, or for an unknown --engine. `auto_python`: why auto
    plays this run in Python all the same (it would be slower in C), while native plays in C."""
    from ..errors import CardRulesError, OptionError
    if requested not in ENGINES:
        raise OptionError(f"--engine is one of {', '.join(ENGINES)}, not {requested!r}")
    if requested == "auto" and auto_python is not None:
        return EngineChoice(None, f"engine: python ({auto_python})")
    if not isinstance(programs, (list, tuple)):
        programs = [programs]
    choice = None
    try:
        for program in programs:
            one = choose_engine(program, requested)
            if one.native is None:  # python asked for, or no native engine under auto: all play in Python
                return one
            choice = choice or one
    except CardRulesError as e:
        raise OptionError(e.message) from None
    return choice


def native_of(ruleset, engine: str):
    """The C engine of a ruleset when `engine` is "native" (a worker's side of a choice made by
    the client, which was built there: here it loads from the cache), else None."""
    if engine != "native":
        return None
    from ..engine import play
    return native_program(play.program_of(ruleset))


def new_state(ruleset, players: int, options: dict | None, seed: int, native) -> object:
    """engine.new_game on the chosen engine: a native State (its functions answered from C) when
    `native` is a NativeProgram (or true), else a Python one. The same game either way."""
    if native:
        from ..native.engine import new_native_game
        return new_native_game(ruleset, players, options, seed)
    from ..engine import new_game
    return new_game(ruleset, players, options, seed)


def native_scores(state) -> tuple | None:
    """Every seat's score by the winner rule, worked out in C without bringing the view up to
    date (engine.scores does that first): None when some score cannot be worked out here."""
    g = state.native
    score, mem = g.np.lib.cr_score, g.mem
    out = tuple([score(mem, k) for k in range(state.n_players)])
    return None if CR_NONE in out else out


def engine_at_start(requested: str, when: str) -> str:
    """--engine of a command that builds each ruleset later (serve: when its first table opens;
    fuzz: when it is fuzzed), checked at start-up: the one line saying which engine and why;
    OptionError (exit 2) for an unknown engine, or native without a C compiler. A ruleset the
    native engine cannot build then plays in Python under auto (its line said where it plays),
    and is refused under native."""
    from ..errors import OptionError
    from ..native.build import no_compiler_message
    if requested not in ENGINES:
        raise OptionError(f"--engine is one of {', '.join(ENGINES)}, not {requested!r}")
    if requested == "python":
        return "engine: python (as asked)"
    compiler = find_compiler()
    if compiler is None:
        if requested == "native":
            raise OptionError(no_compiler_message())
        return f"engine: python (no native engine: {no_compiler_message()})"
    return f"engine: native (C, built by {compiler}, {when}; kept in the cache)"


def playout_counts(state, rngs: list, max_decisions: int) -> tuple[int, dict, int | None]:
    """Random players to the end (or max_decisions) in C, as NativeGame.playout plays them, keeping
    only what a balance report needs of the moves: (moves made, {action: times chosen}, the seat
    that decided first). The moves are not added to the view's history: a game that fails here is
    played again by the caller."""
    counts: dict = {}
    first: list = []

    def each(alt, who):
        counts[alt.name] = counts.get(alt.name, 0) + 1
        if not first:
            first.append(who)
    n = state.native.playout(rngs, max_decisions, each=each)
    return n, counts, (first[0] if first else None)
