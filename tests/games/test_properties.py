"""One generic property suite over every ruleset in rulesets/**/*.cards.

Each ruleset is played by random bots (``random.Random(seed)`` choosing among the legal
moves) for every player count and every option combination (sampled deterministically when
there are many; the default run takes each game's fewest and most players, a variant's most, the
other player counts run with the slow tests, ``pytest -m slow``), with hypothesis drawing the seeds. Nothing here knows any game: a new
ruleset dropped into rulesets/ is picked up by the glob.

Properties (one function each, of the case and the seed, returning what it checks after every move
and what it checks at the end; test_every_property plays each game once with all of them, since
playing was most of each property's time; a ruleset whose games are long -- over LONG_GAME seconds
each -- is tested under the name test_every_property_long_games, with its default options and
fewer seeds):

1. termination     -- every game ends within MAX_DECISIONS (or the ruleset's own 'at most N
                      decisions'); never stuck without a legal move
2. conservation    -- after every move each card is in exactly one zone, where card_info says it
                      is, and the engine's own indexes agree with the zones (State.verify)
3. terminal        -- terminal <=> no legal moves <=> one outcome with one score per seat, and
                      winners unless a 'declare winner' named nobody
4. replay          -- a record replays to the same digest; the same seed gives the same game
5. observation     -- observe(s, p) shows p only public, own or known cards, and it does not
                      change when the cards p cannot know are permuted (engine.determinise)
6. clone           -- applying a move to s.clone() leaves s unchanged (and the clone faithful;
                      legal moves recomputed on a fresh clone equal the state's)

plus 4b: the same seeds give the same games (moves, final state, record) in a second interpreter
with another hash seed, which builds and compiles each base game itself; and 4c (slow run): every
case's seeds on a second compilation in this process.

The costlier checks (observation, clone) run at checkpoints (see `checkpoints`) and at the
end; the cheap ones after every move. The suite reads states through the engine's public
functions (cards_in, card_info, observe, legal_moves, waiting, recompute_legal, determinise)
and the rule graph; only the clone check (6) looks at every field of a State, whatever they
are (State.__slots__), and the conservation check (2) asks the State to verify its indexes.

Seeds are never shrunk (another seed is another game, not a simpler one): a failure reports
the case id and the seed, which `play(case, seed)` reproduces.

Budget: about a minute for the whole file on a 2-core machine with the default profile
(2 seeds per case, 1 for a variant's). With many rulesets, each (ruleset, player count) gets fewer sampled
option combinations (CASE_BUDGET; CARDRULES_CASE_BUDGET=0 for up to MAX_OPTION_COMBOS
each). Run longer with HYPOTHESIS_PROFILE=thorough (see conftest.py).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import random
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import procs
import pytest
from bundled_games import is_variant
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from interpreter import load_ruleset, loads_ruleset
from interpreter.engine import (apply, card_info, cards_in, determinise, is_terminal, legal_moves, make_record,
                                new_game, observe, outcome, program_of, recompute_legal, replay, rule_at,
                                seat_name, state_digest, waiting)
from interpreter.errors import IllegalMoveError

ROOT = Path(__file__).resolve().parents[2]
RULESET_DIR = ROOT / "rulesets"
RULESET_FILES = sorted(RULESET_DIR.glob("**/*.cards"))

MAX_DECISIONS = 20_000   # a random game longer than this counts as not terminating
MAX_OPTION_COMBOS = 16   # above this, option combinations are sampled deterministically
# About how many (ruleset, players, options) cases in all: when there are many rulesets, each
# (ruleset, player count) gets fewer sampled option combinations (never fewer than a covering
# set, see option_combos). 0 means no budget: up to MAX_OPTION_COMBOS for every pair.
CASE_BUDGET = int(os.environ.get("CARDRULES_CASE_BUDGET", "200"))
SEEDS = st.integers(0, 2**32 - 1)
# The rulesets whose one random game is long (about 0.1-0.2 s): see _cases. A list, not a timing,
# so that every process collects the same tests (pytest-xdist's workers must);
# test_every_long_game_is_listed times them, with a wide margin.
LONG_GAMES = {"euro-jongg/euro-jongg.cards", "euro-jongg/house-rules.cards"}
LONG_GAME = float(os.environ.get("CARDRULES_LONG_GAME_SECONDS", "1.0"))  # an unlisted game this slow fails that test


# --------------------------------------------------------------------------- cases

def _rel(path: Path) -> str:
    return path.relative_to(RULESET_DIR).as_posix()


_SOURCES: dict[str, str] = {}


@functools.lru_cache(maxsize=None)
def ruleset(rel: str):
    """Each ruleset is loaded (parsed, built, compiled) once per session, as every test module
    loads it (the same graph object, so the same compiled program)."""
    path = RULESET_DIR / rel
    _SOURCES[rel] = path.read_text(encoding="utf-8")
    return load_ruleset(path)


@functools.lru_cache(maxsize=None)
def ruleset_reloaded(rel: str):
    """A second, independent build and compilation of the same text (not re-read from disk,
    so an edit made to the file during the run cannot make the two differ)."""
    ruleset(rel)
    return loads_ruleset(_SOURCES[rel], str(RULESET_DIR / rel))


def _option_values(o) -> list:
    """The values tried for one option, its default first: both values of a bool, every
    choice of an enum, and the default, low and high of an int with a range."""
    if o.type == "bool":
        vals = [False, True]
    elif o.type == "enum":
        vals = list(o.choices)
    elif o.low is not None and o.high is not None:
        vals = [o.low, o.high]
    else:
        vals = []  # an int option without a range: only its default is known to be valid
    return [o.default] + [v for v in vals if v != o.default]


def option_combos(rs, salt: str, quota: int = MAX_OPTION_COMBOS) -> list[dict]:
    """Every combination of option values when there are at most `quota` of them; otherwise
    a deterministic sample: the defaults, then a covering set in which every value of every
    option appears (combination j takes each option's value j, cycling), then random
    combinations up to `quota` (or up to the covering set's size, if that is larger)."""
    opts = list(rs.options)
    if not opts:
        return [{}]
    names = [o.name for o in opts]
    values = [_option_values(o) for o in opts]
    if math.prod(len(v) for v in values) <= quota:
        return [dict(zip(names, combo)) for combo in itertools.product(*values)]
    rng = random.Random(zlib.crc32(salt.encode()))
    chosen = []
    for j in range(max(len(v) for v in values)):  # j == 0 is the defaults
        combo = dict(zip(names, (v[j % len(v)] for v in values)))
        if combo not in chosen:
            chosen.append(combo)
    tries = 0
    while len(chosen) < quota and tries < 50 * quota:
        tries += 1
        combo = dict(zip(names, (rng.choice(v) for v in values)))
        if combo not in chosen:
            chosen.append(combo)
    return chosen


@dataclass(frozen=True)
class Case:
    rel: str                    # ruleset path relative to rulesets/
    players: int
    options: tuple              # ((name, value), ...)

    @property
    def opts(self) -> dict:
        return dict(self.options)

    def __str__(self) -> str:
        return case_id(self.rel, self.players, self.opts, ruleset(self.rel))


def _fmt_value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def case_id(rel: str, players: int, opts: dict, rs) -> str:
    defaults = {o.name: o.default for o in rs.options}
    changed = [f"{k}={_fmt_value(v)}" for k, v in opts.items() if defaults.get(k) != v]
    return f"{rel}-{players}p-" + (",".join(changed) or "defaults")


def _load_errors() -> dict[str, str]:
    errors = {}
    for path in RULESET_FILES:
        try:
            ruleset(_rel(path))
        except Exception as e:  # reported by test_ruleset_loads; its cases are left out
            errors[_rel(path)] = f"{type(e).__name__}: {e}"
    return errors


LOAD_ERRORS = _load_errors()


def game_seconds(rs, cap: float = 2.0) -> float:
    """Roughly how long one random game takes: seed 0, the most players, default options,
    stopped at `cap` seconds. Errors are left to the tests, which report them properly."""
    t0 = time.perf_counter()
    try:
        s = new_game(rs, rs.players_max, None, 0)
        rng = random.Random(0)
        while not s.finished and time.perf_counter() - t0 < cap:
            moves = legal_moves(s)
            if not moves:
                break
            apply(s, rng.choice(moves))
    except Exception:
        pass
    return time.perf_counter() - t0


def _cases() -> tuple[list, list]:
    """(ordinary cases, long-game cases). A ruleset whose one game takes over LONG_GAME
    seconds is tested with its default options only (every player count), and with fewer
    seeds (see the *_long_games tests), so that it does not eat the whole time budget."""
    rels = [_rel(path) for path in RULESET_FILES if _rel(path) not in LOAD_ERRORS]
    long_games = {rel for rel in rels if rel in LONG_GAMES}
    pairs = [(rel, n) for rel in rels for n in range(ruleset(rel).players_min, ruleset(rel).players_max + 1)]
    # share the case budget out over every (ruleset, player count), within 1..MAX_OPTION_COMBOS
    quota = MAX_OPTION_COMBOS if CASE_BUDGET <= 0 else max(1, min(MAX_OPTION_COMBOS, CASE_BUDGET // max(1, len(pairs))))
    ordinary, long_ = [], []
    for rel, n in pairs:
        rs = ruleset(rel)
        combos = [{o.name: o.default for o in rs.options}] if rel in long_games else option_combos(rs, f"{rel}/{n}", quota)
        # the fewest and the most players in every run (a variant, which changes a few rules of a
        # base played at both: the most), the counts between with the slow tests
        ends = (rs.players_max,) if is_variant(RULESET_DIR / rel) else (rs.players_min, rs.players_max)
        marks = () if n in ends else (pytest.mark.slow,)
        for opts in combos:
            case = Case(rel, n, tuple(opts.items()))
            (long_ if rel in long_games else ordinary).append(pytest.param(case, id=case_id(rel, n, opts, rs),
                                                                           marks=marks))
    return ordinary, long_


CASES, LONG_CASES = _cases()
LONG_EXAMPLES = max(1, settings().max_examples // 5)  # seeds per long-game case (1 by default)


# Shrinking a seed is pointless (seed 17 plays a game unrelated to seed 4711's) and, for
# long games, slow: the tests generate and report, and never shrink.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


# seeds per case: the default and ci profiles' 3 examples are 2 whole games here (four properties
# of 832 cases: each seed is a minute of the suite); a longer profile's count is kept
EXAMPLES = 2 if settings().max_examples <= 3 else settings().max_examples


# a case plays half the seeds (1 in the default run) when its game is played fully elsewhere: a
# variant's (it changes a few rules of a base whose cases play them all, and its own rules are
# played by its golden playthrough too), and a base game's at its fewest players (its cases at the
# most players play every seed; its golden playthrough is at the fewest)
HALF_EXAMPLES = max(1, EXAMPLES // 2)


def _half(case: Case) -> bool:
    rs = ruleset(case.rel)
    return _variant(case.rel) or (case.players == rs.players_min < rs.players_max)


@functools.lru_cache(maxsize=None)
def _variant(rel: str) -> bool:
    return is_variant(RULESET_DIR / rel)


def property_test(fn):
    """Make fn(case, seed) a test over CASES, with EXAMPLES seeds (HALF_EXAMPLES for some: _half)."""
    played: dict = {}  # a half case -> the seeds it plays (a failing one is played again to report it)

    @functools.wraps(fn)
    def run(case, seed):
        if _half(case):
            seeds = played.setdefault(case, set())
            if seed not in seeds and len(seeds) >= HALF_EXAMPLES:
                return  # (hypothesis draws EXAMPLES seeds a case; the rest are not played)
            seeds.add(seed)
        fn(case, seed)
    return pytest.mark.parametrize("case", CASES)(settings(max_examples=EXAMPLES, phases=NO_SHRINK)(given(seed=SEEDS)(run)))


def long_games_test(fn):
    """The same property over LONG_CASES, with LONG_EXAMPLES seeds; None when there are none
    (so that no empty, skipped test is collected)."""
    if not LONG_CASES:
        return None
    return pytest.mark.parametrize("case", LONG_CASES)(settings(max_examples=LONG_EXAMPLES, phases=NO_SHRINK)(given(seed=SEEDS)(fn)))


# --------------------------------------------------------------------------- playing

class Stuck(AssertionError):
    pass


def _tail(path: list, k: int = 8) -> str:
    return ", ".join(f"{seat_name(m.player)}:{m}" for m in path[-k:]) or "(none)"


def _rule_text(s) -> str:
    """The rule of the pending decision, as the engine's rule_at names it (inside a procedure:
    the rule that performed it), for messages."""
    if is_terminal(s):
        return "(none: the game is over)"
    name, title = rule_at(s)
    return f"{name!r} ({title})"


def decision_bound(rs) -> int:
    """MAX_DECISIONS, or the ruleset's own bound ('at most N decisions') when it declares one."""
    declared = getattr(rs, "max_decisions", None)
    return min(MAX_DECISIONS, declared) if declared else MAX_DECISIONS


def play(case: Case, seed: int, each=None, rs=None):
    """Play one random game; call each(state, decision_index, move) at the start and after
    every move. Fails (Stuck) when a running game has no legal move or does not end."""
    rs = rs if rs is not None else ruleset(case.rel)
    bound = decision_bound(rs)
    s = new_game(rs, case.players, case.opts, seed)
    rng = random.Random(seed)
    path = []
    if each is not None:
        each(s, 0, None)
    while not s.finished:
        moves = legal_moves(s)
        if not moves:
            raise Stuck(f"stuck: {case} seed={seed}: the game is not over but nobody can move, in rule "
                        f"{_rule_text(s)} after {len(path)} decisions; last moves: {_tail(path)}")
        if len(path) >= bound:
            what = ("longer than the ruleset's own 'at most {} decisions'" if bound < MAX_DECISIONS
                    else "not over after {} decisions").format(bound)
            raise Stuck(f"endless: {case} seed={seed}: {what}, now in rule "
                        f"{_rule_text(s)}; last moves: {_tail(path)}")
        m = rng.choice(moves)
        apply(s, m)
        path.append(m)
        if each is not None:
            each(s, len(path), m)
    return s, path


def checkpoints(seed: int):
    """Decision indices at which the costlier checks run: every other Fibonacci number (dense
    early, sparse late: 0 2 5 13 34 89 ...) plus about one decision in thirty, chosen by the
    seed. The tests also check the final state."""
    fib = {0, 2, 5, 13, 34, 89, 233, 610, 1597, 4181, 10946}
    rng = random.Random(seed ^ 0x9E3779B9)
    return lambda i: i in fib or rng.random() < 1 / 30


# shared by design, a cache, or compared below (rng by its state: whether a clone still shares
# the generator object, rng_shared, is not part of the game)
_NOT_STATE = {"program", "memo", "cmemo", "rng", "rng_shared", "_legal", "legal_cache"}


def snapshot(s) -> tuple:
    """Everything in a State (far more than state_digest covers), whatever fields the engine
    has: containers by value (repr), other objects (the pending choice) by identity."""
    out = []
    for name in type(s).__slots__:
        if name in _NOT_STATE or not hasattr(s, name):
            continue
        v = getattr(s, name)
        if v is None or isinstance(v, (bool, int, str)):
            out.append((name, v))
        elif isinstance(v, (list, tuple, dict, set)):
            out.append((name, repr(v)))
        else:
            out.append((name, id(v)))
    return tuple(out) + (("rng", s.rng.getstate()), ("legal", tuple(legal_moves(s))))


def zone_instances(s):
    """(zone declaration, which, label, cards bottom first) for every zone of the game: which is
    the seat of a per-player zone, the number (from 1) in a family of zones, else None."""
    for z in s.program.ruleset.zones:
        if z.per_player:
            whiches = range(s.n_players)
        elif z.size:
            whiches = range(1, z.size + 1)
        else:
            whiches = [None]
        for which in whiches:
            label = z.name if which is None else f"{z.name}({seat_name(which) if z.per_player else which})"
            yield z, which, label, cards_in(s, z.name, which)


def visible_to(z, which, player: int) -> bool:
    """Whether `player` may look into zone z (which: its seat, number or None)."""
    return (z.visibility == "public" or (z.visibility == "owner" and z.per_player and which == player)
            or (z.visibility == "others" and not (z.per_player and which == player)))


# --------------------------------------------------------------------------- tests

@pytest.mark.parametrize("path", RULESET_FILES, ids=[_rel(p) for p in RULESET_FILES])
def test_ruleset_loads(path):
    assert _rel(path) not in LOAD_ERRORS, f"{_rel(path)} does not load: {LOAD_ERRORS[_rel(path)]}"


def test_some_rulesets_found():
    assert RULESET_FILES, f"no rulesets found under {RULESET_DIR}"
    assert CASES


def _cards_conserved(case, seed):
    """2. No card is created or lost: after every move every card of the deck is in exactly one
    zone and the engine's own indexes agree with the zones (State.verify); at checkpoints and
    at the end card_info says where each card is, as the zones do."""
    p = program_of(ruleset(case.rel))
    names = set(p.card_names)
    assert len(names) == p.n_cards, f"{case}: duplicate card names in the deck"

    due = checkpoints(seed)

    def check(s, i, m):
        at = f"{case} seed={seed} after decision {i} ({m})"
        where = {}
        for z, which, label, cards in zone_instances(s):
            for c in cards:
                assert c in names, f"{at}: unknown card {c!r} in {label}"
                assert c not in where, f"{at}: card {c} is in {where[c][2]} and {label}"
                where[c] = (z.name, which, label)
        lost = sorted(names - set(where))
        assert not lost, f"{at}: cards in no zone: {lost}"
        if due(i) or is_terminal(s):  # the public reader agrees (at checkpoints: it is slower)
            infos = [(c, card_info(s, c)) for c in p.card_names]
            bad = [(c, where[c][2], info) for c, info in infos if (info["zone"], info["which"]) != where[c][:2]]
            assert not bad, f"{at}: card_info disagrees with the zones (card, in zone, card_info says): {bad[:5]}"
        try:
            s.verify()
        except AssertionError as e:
            raise AssertionError(f"{at}: the engine's indexes disagree with the zones: {e}") from None

    return check, None


def _terminal_iff_outcome(case, seed):
    """1. Every random game ends within MAX_DECISIONS and is never stuck (`play` stops one that
    does not: every property's games are checked for it), its decisions counted once each.
    3. Terminal: no legal moves and one outcome (scores per seat, winners if a winner rule).
    Not terminal: outcome None and some legal move, all for the player to act."""
    rs = ruleset(case.rel)
    where = lambda i, m: f"{case} seed={seed} after decision {i} ({m})"

    def check(s, i, m):
        moves = legal_moves(s)
        o = outcome(s)
        assert is_terminal(s) == s.finished
        if s.finished:
            assert moves == [], f"{where(i, m)}: the game is over but there are legal moves {moves[:5]}"
            assert s.current_player is None
            assert o is not None, f"{where(i, m)}: the game is over but outcome() is None"
            assert len(o.scores) == case.players, f"{where(i, m)}: {len(o.scores)} scores for {case.players} seats"
            assert all(isinstance(v, int) and not isinstance(v, bool) for v in o.scores), \
                f"{where(i, m)}: scores are not all whole numbers: {o.scores!r}"
            assert list(o.winners) == sorted(set(o.winners)), f"{where(i, m)}: winners {o.winners!r}"
            assert all(0 <= w < case.players for w in o.winners), f"{where(i, m)}: winners {o.winners!r}"
            declared = getattr(s, "declared", None)  # set by 'declare winner ...', which may name nobody
            if declared is not None:
                assert o.winners == declared, f"{where(i, m)}: declared winners {declared}, outcome says {o}"
            elif rs.winner is not None:
                assert o.winners, f"{where(i, m)}: the ruleset has a winner rule but nobody won: {o}"
            assert outcome(s) == o, f"{where(i, m)}: outcome() differs when asked twice"
            with pytest.raises(IllegalMoveError):
                apply(s, moves[0] if moves else "pass")
        else:
            assert o is None, f"{where(i, m)}: the game is running but outcome() is {o}"
            assert moves, f"{where(i, m)}: stuck in rule {_rule_text(s)}: not over and no legal move"
            assert s.current_player == s.actor is not None
            movers = {mv.player for mv in moves}
            deciders = waiting(s)
            if deciders is None:  # an ordinary decision: one player's
                assert movers == {s.actor}, \
                    f"{where(i, m)}: legal moves for seats other than {seat_name(s.actor)}: {moves[:5]}"
            else:  # 'choose by each': any player still waiting may move
                assert s.actor in movers and movers <= set(deciders), \
                    f"{where(i, m)}: moves for {sorted(movers)}, but the players waiting are {deciders}"
            assert len(set(moves)) == len(moves), f"{where(i, m)}: duplicate legal moves: {moves}"

    def finish(s, path):
        assert s.finished
        assert s.decisions == len(path) == len(s.history), \
            f"{case} seed={seed}: decisions={s.decisions}, history={len(s.history)}, moves made={len(path)}"
    return check, finish


def _replay_and_determinism(case, seed):
    """4. The record of a finished game, through JSON, replays to the identical digest; the
    same seed gives the same game, byte for byte, on a second load and compilation of the ruleset:
    4b below in the default run (a second interpreter builds and compiles every game again), 4c
    for every case in the slow run."""

    def finish(s, path):
        _replayed(case, seed, s)
    return None, finish


def _replayed(case, seed, s) -> None:
    record = make_record(s, str(RULESET_DIR / case.rel))
    assert record["final"]["finished"] is True
    text = json.dumps(record, sort_keys=True)
    r = replay(ruleset(case.rel), json.loads(text))
    assert state_digest(r) == state_digest(s), f"{case} seed={seed}: the replayed game ends in another state"
    assert r.history == s.history and outcome(r) == outcome(s)


def _second_compilation(case, seed):
    """4c. The same seed on a second, independent load and compilation of the file."""
    s, path = play(case, seed)
    again, path2 = play(case, seed, rs=ruleset_reloaded(case.rel))
    record = lambda st: json.dumps(make_record(st, str(RULESET_DIR / case.rel)), sort_keys=True)
    same_game(case, seed, path, [str(m) for m in path2], state_digest(s), state_digest(again), record(s), record(again))


def same_game(case, seed, path, moves2: list[str], digest1, digest2, record1: str, record2: str) -> None:
    """The same seed played twice: the same moves, the same final state, the same record."""
    moves1 = [str(m) for m in path]
    assert moves1 == moves2, f"{case} seed={seed}: the same seed gave another game (first difference at " \
        f"decision {next((i for i, (a, b) in enumerate(zip(moves1, moves2)) if a != b), min(len(moves1), len(moves2)))})"
    assert digest1 == digest2, f"{case} seed={seed}: the same moves on a second compilation of the ruleset end in another state"
    assert record1.encode() == record2.encode(), f"{case} seed={seed}: the same game on a second compilation gives another record"


test_same_game_on_a_second_compilation = pytest.mark.slow(property_test(_second_compilation))


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


def check_observation(case, seed, s, i, player):
    p = s.program
    decl = {z.name: z for z in p.ruleset.zones}
    names = set(p.card_names)
    obs = observe(s, player)
    at = f"{case} seed={seed} decision {i}, observation of {seat_name(player)}"
    # every card name anywhere in the zones part must be visible to the player
    for name in _strings(obs["zones"]):
        if name not in names:
            continue
        info = card_info(s, name)
        zone = decl[info["zone"]]
        assert visible_to(zone, info["which"], player) or info["face_up"], (
            f"{at}: shows {name}, which lies unknown in {zone.name}"
            + (f"({seat_name(info['which'])})" if zone.per_player else "") + f" ({zone.visibility})")
    # and each zone shows exactly what it should
    assert sorted(obs["zones"]) == sorted(decl), f"{at}: observed zones {list(obs['zones'])}, declared {list(decl)}"
    for z, which, label, cards in zone_instances(s):
        view = obs["zones"][z.name]
        if z.per_player or z.size:
            keys = [seat_name(k) if z.per_player else str(k + 1)
                    for k in range(s.n_players if z.per_player else z.size)]
            assert list(view) == keys, f"{at}: zone {z.name} observed as {list(view)}, expected {keys}"
            view = view[seat_name(which) if z.per_player else str(which)]
        if visible_to(z, which, player):
            assert view == {"cards": cards}, f"{at}: zone {label} misshown: {view}"
        else:
            view = dict(view)
            told = view.pop("told", None)  # what the player was told (`tell`): one entry a place
            assert told is None or len(told) == len(cards), f"{at}: zone {label} tells {told} of {len(cards)} cards"
            assert view == {"count": len(cards), "known": [c for c in cards if card_info(s, c)["face_up"]]}, \
                f"{at}: zone {label} misshown: {view}"
    mine = [str(m) for m in legal_moves(s) if m.player == player]
    if mine:
        assert obs.get("legal") == mine, f"{at}: shows legal moves {obs.get('legal')}, expected {mine}"
    else:
        assert "legal" not in obs, f"{at}: shows legal moves {obs['legal']} to a player who may not move"
    return obs


def _observation_hides_cards(case, seed):
    """5. At checkpoints and at the end, for every seat p:
    (a) observe(s, p) never shows p a card p may not see, and shows each zone as it should;
    (b) what p observes (p's legal moves included) is the same whatever the cards p cannot
        know are (those in hidden zones and other players' owner-only zones, not face up):
        permuting them (engine.determinise) changes nothing p sees. One allowance: when the
        permuted cards leave another player who must decide without any legal move (a
        position play cannot reach, common in games that ask only a player able to play),
        observe shows nobody to move; whose turn it is is then taken from the real state,
        and everything else is still compared."""
    due = checkpoints(seed)
    rng = random.Random(seed)

    def check(s, i, m):
        if not (due(i) or s.finished):
            return
        for player in range(s.n_players):
            a = check_observation(case, seed, s, i, player)
            t = determinise(s, player, rng)
            b = observe(t, player)
            if b["to_move"] is None and not is_terminal(t) and not legal_moves(t):
                # The permuted cards leave whoever must decide (another player: an observer
                # with moves would have lost them, which "legal" shows) without a legal move.
                # Such a position cannot arise in play: the rules' choices rely on what the
                # hands really hold. Whose turn it is stays public all the same.
                b["to_move"] = a["to_move"]
            if a != b:
                diff = {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)}
                raise AssertionError(f"{case} seed={seed} decision {i}: {seat_name(player)}'s observation depends "
                                     f"on the cards they cannot know (permuted): {diff}")

    return check, None


def _clone_independent(case, seed):
    """6. Applying a move to s.clone() leaves s unchanged; the clone plays like s; and moving
    s on does not change an earlier clone."""
    due = checkpoints(seed)
    mover = random.Random(~seed)
    held = []  # (clone, its snapshot) taken at earlier checkpoints

    def check(s, i, m):
        if not due(i) and not s.finished:
            return
        for c, snap in held:
            assert snapshot(c) == snap, f"{case} seed={seed} decision {i}: moving the original changed a clone"
        if s.finished:
            return
        before, digest = snapshot(s), state_digest(s)
        c = s.clone()
        assert state_digest(c) == digest and snapshot(c) == before, f"{case} seed={seed} decision {i}: the clone differs"
        # the legal moves recomputed from scratch on the clone (no cached results) are the same
        fresh = recompute_legal(c.clone())
        assert fresh == legal_moves(s), (f"{case} seed={seed} decision {i}: legal moves recomputed on a fresh clone "
                                         f"differ from the state's: {fresh[:6]} vs {legal_moves(s)[:6]}")
        move = mover.choice(legal_moves(c))
        apply(c, move)
        assert state_digest(s) == digest, f"{case} seed={seed} decision {i}: applying {move} to a clone changed the original"
        assert snapshot(s) == before, f"{case} seed={seed} decision {i}: applying {move} to a clone changed the original"
        twin = s.clone()
        apply(twin, move)
        assert state_digest(twin) == state_digest(c), f"{case} seed={seed} decision {i}: two clones diverge on {move}"
        if len(held) < 2:
            held.append((c, snapshot(c)))

    return check, None


PROPERTIES = (_terminal_iff_outcome, _cards_conserved, _replay_and_determinism, _observation_hides_cards,
              _clone_independent)


def checked(case, seed, properties=PROPERTIES) -> None:
    """One random game with every property's checks: each is a function of (case, seed) that
    returns what it checks after every move and what it checks at the end (either None)."""
    checks = [p(case, seed) for p in properties]
    during = [c for c, _ in checks if c is not None]

    def each(s, i, m):
        for check in during:
            check(s, i, m)
    s, path = play(case, seed, each)
    for _, finish in checks:
        if finish is not None:
            finish(s, path)


def _every_property(case, seed):
    checked(case, seed)


test_every_property = property_test(_every_property)
test_every_property_long_games = long_games_test(_every_property)


def test_a_clone_held_at_a_secret_choice_stays_as_it_was():
    """Found by the property above: a clone taken while sealed choices wait looked changed
    once the original reached a move new to the program's cache of moves (the action printed
    its cache). Pinned: the game and seed that showed it."""
    case = Case("euro-jongg/house-rules.cards", 4,
                tuple({o.name: o.default for o in ruleset("euro-jongg/house-rules.cards").options}.items()))
    checked(case, 46479, (_clone_independent,))


_SUBPROCESS_SCRIPT = r"""
import json, os, random, sys
sys.path.insert(0, sys.argv[1])
os.environ["CARDRULES_NO_CACHE"] = "1"  # its own build and compilation of every file
from interpreter import load_ruleset
from interpreter.engine import new_game, legal_moves, apply, make_record, state_digest
out = {}
for rel in json.loads(sys.argv[2]):
    path = sys.argv[3] + "/" + rel
    rs = load_ruleset(path)
    for n in sorted({rs.players_min, rs.players_max}):  # (the counts between: the same engine code)
        for seed in (1,):
            s = new_game(rs, n, None, seed)
            rng = random.Random(seed)
            moves = []
            while not s.finished and len(moves) < 20000:
                m = rng.choice(legal_moves(s))
                apply(s, m)
                moves.append(str(m))
            out[f"{rel}/{n}/{seed}"] = [moves, state_digest(s), json.dumps(make_record(s, path), sort_keys=True)]
print(json.dumps(out))
"""


def test_determinism_across_processes():
    """4b. The same seed gives the same game (moves, final state, record) in another interpreter
    with another hash seed, which builds and compiles each file itself (so no set or dict
    iteration order leaks into the game or its compilation)."""
    rels = [_rel(p) for p in RULESET_FILES if _rel(p) not in LOAD_ERRORS and not is_variant(p)]  # (the engine's, not a game's)
    env = dict(os.environ, PYTHONHASHSEED="12345")
    proc = procs.run([sys.executable, "-c", _SUBPROCESS_SCRIPT, str(ROOT), json.dumps(rels), str(RULESET_DIR)],
                     capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    theirs = json.loads(proc.stdout)
    for key, (moves, digest, record) in theirs.items():
        rel, n, seed = key.rsplit("/", 2)
        case = Case(rel, int(n), tuple({o.name: o.default for o in ruleset(rel).options}.items()))
        s, path = play(case, int(seed))
        same_game(f"{case} (in another process, PYTHONHASHSEED=12345)", seed, path, moves, state_digest(s), digest,
                  json.dumps(make_record(s, str(RULESET_DIR / rel)), sort_keys=True), record)


def test_every_long_game_is_listed():
    """A ruleset whose one random game takes over LONG_GAME seconds belongs in LONG_GAMES (its
    property tests then use its defaults and fewer seeds, so that it does not eat the budget)."""
    # the better of two: the first game of a ruleset may pay for work done once (on a busy machine,
    # Cassino's first game took 1.67 s where its games take 0.07)
    slow = {rel: round(min(game_seconds(ruleset(rel)), game_seconds(ruleset(rel))), 2)
            for rel in (_rel(path) for path in RULESET_FILES) if rel not in LOAD_ERRORS and rel not in LONG_GAMES}
    assert {rel: t for rel, t in slow.items() if t > LONG_GAME} == {}
