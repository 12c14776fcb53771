"""The fast path never changes a game.

Every ruleset is compiled twice: as the engine runs it (bit masks, fused instructions,
cheap definitions unmemoised, the meld search over faces) and as the plain evaluator (loops,
one instruction per statement: `compile_ruleset(graph, fast=False)`, or CARDRULES_PLAIN=1
for the whole engine). Random players then play the same seeded games on both in lockstep,
and at every decision the legal moves, in order, must be identical; so must the outcome, the
final state's digest and the saved record, or the same error at the same move.

The default run takes each base game at its fewest and most players; the counts between and the
variants run with the slow tests (`pytest -m slow`). Games per case: CARDRULES_DIFF_GAMES (default 4, so the suite stays within its time; 300 is
the standard for a change to the engine or the compiler) with the default options, a tenth of
that (at least 1) for every other option value, one option changed at a time, and fewer for
the long games. CARDRULES_DIFF_ALL=1 also plays up to 16 combinations of option values per
ruleset and player count with the full number of games:

    CARDRULES_DIFF_GAMES=300 CARDRULES_DIFF_ALL=1 python -m pytest tests/compiler/test_differential.py"""

from __future__ import annotations

import itertools
import json
import os
import random
from functools import cache
from pathlib import Path

from bundled_games import is_variant
import pytest

from interpreter import load_ruleset
from interpreter.language.build import build_file
from interpreter.compiler import compile_ruleset
from interpreter.engine import apply, legal_moves, make_record, new_game, outcome, program_of, state_digest
from interpreter.errors import GameRuntimeError

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
GAMES = int(os.environ.get("CARDRULES_DIFF_GAMES", "4"))
ALL = os.environ.get("CARDRULES_DIFF_ALL") == "1"
MAX_DECISIONS = 20_000
# games that run to thousands of decisions (a 2,000-decision cap, four-hand matches), or whose
# moves are sets searched among the subsets of a hand or of the table, get fewer seeds
LONG = {"euro-jongg/euro-jongg.cards": 0.12, "euro-jongg/house-rules.cards": 0.12, "mughal/shakti.cards": 0.3,
        "mughal/shakti-inverted.cards": 0.3, "classic/president.cards": 0.25, "classic/cassino.cards": 0.5,
        "classic/freecell.cards": 0.5}


@cache
def programs(rel: str):
    rs = load_ruleset(ROOT / "rulesets" / rel)
    return rs, program_of(rs), compile_ruleset(rs, fast=False)  # (program_of's: the fast path, compiled once)


def _values(o) -> list:
    if o.type == "bool":
        vals = [False, True]
    elif o.type == "enum":
        vals = list(o.choices)
    elif o.low is not None:
        vals = [o.low, o.high]
    else:
        vals = []
    return [v for v in vals if v != o.default]


def _cases():
    out = []
    for path in RULESETS:
        rel = path.relative_to(ROOT / "rulesets").as_posix()
        rs = build_file(path)  # its players and options: every worker collects, so no compiling here
        mk = (pytest.mark.slow,) if is_variant(path) else ()  # (see bundled_games.py)
        scale = LONG.get(rel, 1.0)
        for n in range(rs.players_min, rs.players_max + 1):
            # the player counts between the fewest and the most go with the slow tests too
            mk = (pytest.mark.slow,) if is_variant(path) or n not in (rs.players_min, rs.players_max) else ()
            out.append(pytest.param(rel, n, {}, max(3, round(GAMES * scale)), id=f"{rel}-{n}p-defaults", marks=mk))
            singles = [{o.name: v} for o in rs.options for v in _values(o)]
            for opts in singles:
                label = ",".join(f"{k}={v}" for k, v in opts.items())
                out.append(pytest.param(rel, n, opts, max(1, round(GAMES * scale / 10)),
                                        id=f"{rel}-{n}p-{label}", marks=mk))
            if ALL and rs.options:
                names = [o.name for o in rs.options]
                combos = list(itertools.product(*[[o.default] + _values(o) for o in rs.options]))[1:]
                random.Random(f"{rel}/{n}").shuffle(combos)
                for combo in combos[:16]:
                    opts = dict(zip(names, combo))
                    label = ",".join(f"{k}={v}" for k, v in opts.items())
                    out.append(pytest.param(rel, n, opts, max(3, round(GAMES * scale)), id=f"{rel}-{n}p-all-{label}", marks=mk))
    return out


def _start(program, n, opts, seed):
    try:
        return new_game(program, n, opts, seed), None
    except GameRuntimeError as e:
        return None, e.render()


def lockstep(rel: str, n: int, opts: dict, seed: int) -> int:
    """Play one game on both programs; return its number of decisions."""
    _, fast, plain = programs(rel)
    a, err_a = _start(fast, n, opts, seed)
    b, err_b = _start(plain, n, opts, seed)
    assert err_a == err_b, f"{rel} {n}p {opts} seed {seed}: set-up differs: {err_a} / {err_b}"
    if a is None:
        return 0
    rng = random.Random(seed)
    k = 0
    while not a.finished and k < MAX_DECISIONS:
        la, lb = legal_moves(a), legal_moves(b)
        assert la == lb, (f"{rel} {n}p {opts} seed {seed}, decision {k + 1} (rule {a.rule!r}): legal moves differ\n"
                          f" fast:  {[str(m) for m in la]}\n plain: {[str(m) for m in lb]}")
        if not la:
            break
        m = rng.choice(la)
        errs = []
        for s in (a, b):
            try:
                apply(s, m)
                errs.append(None)
            except GameRuntimeError as e:
                errs.append(e.render())
        assert errs[0] == errs[1], f"{rel} {n}p {opts} seed {seed}, decision {k + 1} ({m}): {errs}"
        if errs[0] is not None:
            return k
        k += 1
    assert b.finished == a.finished
    assert outcome(a) == outcome(b), f"{rel} {n}p {opts} seed {seed}: outcomes differ"
    assert state_digest(a) == state_digest(b), f"{rel} {n}p {opts} seed {seed}: final states differ"
    ra, rb = make_record(a, rel), make_record(b, rel)
    assert json.dumps(ra, sort_keys=True) == json.dumps(rb, sort_keys=True)
    return k


@pytest.mark.parametrize("rel,players,opts,games", _cases())
def test_fast_path_plays_the_same_games(rel, players, opts, games):
    for seed in range(games):
        lockstep(rel, players, opts, seed)


def test_plain_program_is_really_plain():
    """The oracle must not share the fast path's machinery, or the comparison proves nothing."""
    _, fast, plain = programs("ganjifa/ganjifa.cards")
    assert fast.fast and not plain.fast
    src_fast = "\n".join(k for k in fast.namespace if k.startswith("D_"))
    assert src_fast  # definitions exist in both
    def names(program):
        out = set(program.namespace["D_unbeatable"].__code__.co_names)
        return out.union(*(program.namespace[n].__code__.co_names for n in out if n.startswith("_agg")))
    assert "ABOVEM" in names(fast) and "ABOVEM" not in names(plain)
