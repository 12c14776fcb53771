"""The commands' side of the native engine (interpreter/engines.py chooses it): whole games of
random players in C, as `play` plays them in Python (the same seeds, the same bots' draws, the same
outcomes, decisions, rules fired and records), in this process or in the runner's workers."""

from __future__ import annotations

import ctypes
import random
from dataclasses import dataclass

from ..players.bots import bot_seed
from ..engine.records import make_record
from ..native.codegen.expr import NativeUnsupported
from ..native.engine import CR_NONE, E_INTR, NativeGame
from ..native.program import NativeProgram, check_signals, native_program, want_guard


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
    each call returns. Ctrl-C during a call stops it at once (native/program.py: want_guard): the
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
            scores = tuple(row[5:5 + players])
            # a score C could not work out (CR_NONE) is a failure too: played again in Python, it is worded there
            failed = bool(row[0]) or not row[1] or (p.score is not None and not row[3] and CR_NONE in scores)
            if stop is not None and failed:
                break  # (played again in Python, it would hold up the Ctrl-C)
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


def native_scores(state) -> tuple | None:
    """Every seat's score by the winner rule, worked out in C without bringing the view up to
    date (engine.scores does that first): None when some score cannot be worked out here."""
    g = state.native
    score, mem = g.np.lib.cr_score, g.mem
    out = tuple([score(mem, k) for k in range(state.n_players)])
    return None if CR_NONE in out else out


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
