"""Stage 6: `cardrules fuzz` -- hunt for inconsistencies in a ruleset.

For every player count and option combination (a deterministic sample when there are many)
the fuzzer plays games with two kinds of bots -- uniform random ones, and "rule seekers" that
look one move ahead (on `state.clone()`) and prefer moves that fire rarely fired rules, take
rarely taken actions or reach a failure -- and checks, after every move (the observation
checks at the first decisions, every tenth and at the end; the replay check on the first two
games of each configuration):

* deadlock        -- the game is not over but nobody has a legal move;
* exceeds-bound   -- more decisions than the declared `at most N decisions`;
  no-end-in-sight -- no bound declared and not over after NO_BOUND_LIMIT decisions;
  endless-loop    -- the engine's "the rules loop for ever without asking anyone to decide";
* runtime-error   -- any other GameRuntimeError (the ruleset asks for something impossible);
  engine-crash    -- any other exception (an engine bug);
* cards-not-conserved -- every card id is in exactly one zone and `card_zone` agrees;
* same-decision   -- two actions of one choice offer the same move (the engine silently keeps
                     the first; found by evaluating every action's `values` ourselves);
* hidden-leak     -- `observe` shows a player a card they may not see; a card-valued variable
                     (variables are public) names a card the player has never seen (not in
                     a public zone, face up, or in their own private zones); or the legal moves
                     offered to a player change when the cards they cannot see are rearranged;
* replay-mismatch -- a game's record (through JSON) does not replay to the same state_digest;
* card-leak       -- a game ends with cards in a zone that is not public and that no
                     expression of the ruleset reads (only `move ... to`, `deal ... to each` or
                     `shuffle` name it): no rule uses them again, no score counts them and no
                     player can see them, so they leave the game without trace. The engine
                     itself cannot create or destroy cards (that is cards-not-conserved).

After all games (and more rule-seeking games while some rule has not fired): never-fires
(a rule with no firing in any game) and dead-option (an option that never changes play: with
the same seeds and a bot that picks from the *sorted* legal moves, every game's legal move
sets, moves, visible cards, public variables and outcome are identical for every value, with
the other options at their defaults and in a few other combinations; so a mere change of the
order in which moves are listed does not count as an effect, and games cut short at
TRACE_LIMIT decisions prove nothing either way). An option that no used code reads is
reported statically. A "reference" is any non-prose string field of the rule graph (names,
calls, performed procedures, `split`'s definitions, ...), so new statements are covered.

Static checks: unreachable-phase (no chain of `then` leads to it from the first phase),
unused-definition (a definition or procedure not referenced, directly or transitively, from
any phase, variable, score or used definition), constant-condition (an `if`/`elif`/`while`
test, a rule's or action's `when`, an action's `where` or a `face up if` that constant
folding -- literals, options, the player count, constant `let`s and definitions -- finds true
for every player count and every option value, or false for all; one that depends only on the
options or the player count is fine; `while true` is the loop idiom and is not reported).

Every dynamic finding is shrunk: first smaller player counts and default options, then the
shortest prefix of the move list that still shows it (the move at which it first shows), then
a few other seeds; the result is written as a game record (`engine.make_record`) that
`cardrules replay` re-runs (a failing last move included). A never-fires finding comes with the
shortest complete game played, a dead-option finding with the two games (each value) that
replay the same moves; static findings have a source location instead.

Budget: `games` per configuration and/or `seconds` overall. With `games` only, the result is
a function of the seed (the clock is never consulted)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import re
import textwrap
import time
import typing
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Callable

import typer

from . import engine
from . import graph as g
from .engine import (Move, State, apply, advice as engine_advice, make_record, new_game, observe, outcome, program_of, replay,
                     resolve_options, rule_at, seat_name, state_digest, write_record)
from .errors import CardRulesError, GameRuntimeError, RecordError
from .unparse import unparse

DEFAULT_GAMES = 10          # games per configuration when neither --games nor --seconds is given
NO_BOUND_LIMIT = 100_000    # decisions before a game with no declared bound is "no end in sight"
NO_BOUND_AFTER = 2_000      # ... and the limit for later games once one has been reported
MAX_COMBOS = 16             # option combinations per player count (sampled beyond this)
MAX_FOLD_CONFIGS = 512      # (player count, options) assignments for constant folding
MAX_PLAYER_COUNTS = 6       # player counts tried (sampled beyond this)
SEEK_SAMPLE = 6             # moves a rule seeker looks ahead on
SEEK_RANDOM = 0.1           # ... and how often it plays a random move instead
SHRINK_SEEDS = 8            # seeds tried per smaller configuration while shrinking (random bots)
SHRINK_SEEDS_SEEKER = 3     # ... with rule seekers, which are slower
OPTION_SEEDS = 6            # seeds per (option value, player count) in the option-effect check
OPTION_EXTRA_COMBOS = 3     # other option combinations tried before calling an option dead
TRACE_LIMIT = 5_000         # decisions an option-effect game is compared over; longer ones prove nothing
OBSERVE_EARLY = 6           # observation checks at the first decisions of a game ...
OBSERVE_EVERY = 10          # ... then every this many decisions, and at the end

KIND_ORDER = ["engine-crash", "cards-not-conserved", "replay-mismatch", "deadlock", "endless-loop",
              "exceeds-bound", "no-end-in-sight", "runtime-error", "same-decision", "hidden-leak",
              "card-leak", "never-fires", "dead-option", "advice-fails", "constant-advice", "unreachable-phase",
              "unused-definition", "constant-condition"]


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

    def to_json(self) -> dict:
        return {"path": self.path, "game": self.game, "title": self.title,
                "configurations": self.configurations, "games": self.games,
                "seeker_games": self.seeker_games, "seconds": round(self.seconds, 3),
                "findings": len(self.findings), "fired": self.fired}


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
        return f"{self.players} players, " + (f"options {opts}" if opts else "default options")


def _fmt_value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _config(rs, players: int, opts: dict) -> Config:
    full = tuple((o.name, opts.get(o.name, o.default)) for o in rs.options)
    changed = tuple(o.name for o in rs.options if opts.get(o.name, o.default) != o.default)
    return Config(players, full, changed)


def option_values(o: g.Option) -> list:
    """The values of an option worth trying, its default first."""
    if o.type == "bool":
        vals = [False, True]
    elif o.type == "enum":
        vals = list(o.choices)
    elif o.low is not None and o.high is not None:
        vals = list(range(o.low, o.high + 1)) if o.high - o.low <= 3 else sorted({o.low, o.default, o.high})
    else:
        vals = [o.default]
    return [o.default] + [v for v in vals if v != o.default]


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


# ====================================================================== graph helpers

_EXPR_TYPES = tuple(typing.get_args(typing.get_args(g.Expr)[0]))

# string fields that are prose, or that bind a name rather than refer to one
_PROSE = {"kind", "title", "label", "texts", "notes", "question", "description", "source", "base_title",
          "variant_texts"}
_BINDERS = {"name", "var", "type", "each"}


def _children(node):
    for name in type(node).model_fields:
        if name == "loc":
            continue
        v = getattr(node, name)
        if isinstance(v, g.Node):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, g.Node):
                    yield x


def _refs_here(node):
    """The names this node itself refers to: every string field that is neither prose nor a
    binder (a name, call, performed procedure, dealt-to zone, split's definitions, ...).
    Generic on purpose, so new statements are covered; a binder that happens to share a
    definition's name can only make the checks report less, never more."""
    refers = isinstance(node, (g.Name, g.Perform))
    for fname in type(node).model_fields:
        if fname in _PROSE or (fname in _BINDERS and not refers):
            continue
        v = getattr(node, fname)
        if isinstance(v, str):
            yield fname, v


def _names(node, out: set) -> set:
    """Every name a node and everything below it refers to."""
    for _, v in _refs_here(node):
        out.add(v)
    for c in _children(node):
        _names(c, out)
    return out


def _reads(node, out: set) -> set:
    """Names read, leaving out where cards are moved or dealt to and what is shuffled: a
    zone only ever named there is never looked at."""
    if isinstance(node, g.Move):
        _reads(node.what, out)
        if node.face_up is not None:
            _reads(node.face_up, out)
        return out
    if isinstance(node, g.Shuffle):
        return out
    for fname, v in _refs_here(node):
        if not (isinstance(node, g.Deal) and fname == "target"):
            out.add(v)
    for c in _children(node):
        _reads(c, out)
    return out


def _loc(node) -> str | None:
    loc = getattr(node, "loc", None)
    return f"{loc.file}:{loc.line}:{loc.column}" if loc else None


def _line(node, path: str | None = None) -> str:
    """'line 12', or 'line 12 of base.cards' when the node comes from another file than path
    (a variant's inherited parts)."""
    loc = getattr(node, "loc", None)
    if not loc:
        return "an unknown line"
    if path is not None and Path(loc.file) != Path(path):
        return f"line {loc.line} of {Path(loc.file).name}"
    return f"line {loc.line}"


def _walk(node, ctx: tuple, fn: Callable, stmt=None):
    """Call fn(node, ctx, stmt) for node and everything below it; ctx is the innermost
    ("rule"|"phase"|"procedure"|"definition"|"variable", name); stmt the innermost located
    statement (or definition) around the node, for its place in the source."""
    if isinstance(node, g.Rule):
        ctx = ("rule", node.name)
    if isinstance(node, g.Located) and not isinstance(node, _EXPR_TYPES):
        stmt = node
    fn(node, ctx, stmt)
    for c in _children(node):
        _walk(c, ctx, fn, stmt)


def _ctx_text(ctx: tuple) -> str:
    return f"{ctx[0]} {ctx[1]!r}"


class _Unknown:
    def __repr__(self) -> str:
        return "?"


UNK = _Unknown()
NONE = ("none",)


# ====================================================================== static analysis

class Static:
    """What can be said without playing: phases, usage, zones that are never read, and
    conditions that constant folding decides."""

    def __init__(self, rs: g.Ruleset, path: str):
        self.rs = rs
        self.path = path
        self.defines = {d.name: d for d in rs.defines}
        self.procs = {p.name: p for p in rs.procedures}
        self.options = {o.name: o for o in rs.options}
        self.zones = {z.name: z for z in rs.zones}
        self.enum_values = {c for o in rs.options if o.type == "enum" for c in o.choices}
        self.suits = set(rs.deck.suits)
        self.ranks = set(rs.deck.ranks)
        self.findings: list[Finding] = []
        self.dead_options: set[str] = set()
        self.option_reads: dict[str, list] = {}
        self.constant: dict[tuple, bool] = {}      # (id(node), role) -> value, for hints
        self.rule_when_false: set[str] = set()
        self.performers: dict[str, list] = {}        # procedure -> contexts that perform it
        self._phases()
        self._usage()
        self._zones()
        self._conditions()

    # ---------------------------------------------------------------- helpers
    def _find(self, kind, sentence, rules, node):
        self.findings.append(Finding(kind, sentence, list(dict.fromkeys(rules)), self.path, _loc(node)))

    def rules_of(self, ctx: tuple, depth: int = 0) -> list[str]:
        """The rules a context belongs to: its rule, or the rules performing its procedure."""
        if ctx[0] == "rule" or depth > 8:
            return [ctx[1]]
        if ctx[0] == "procedure":
            out = []
            for c in self.performers.get(ctx[1], []):
                out.extend(self.rules_of(c, depth + 1))
            return list(dict.fromkeys(out)) or [ctx[1]]
        return [ctx[1]]

    def _roots(self):
        for ph in self.rs.phases:
            yield ph, ("phase", ph.name)
        for v in self.rs.vars:
            if v.init is not None:
                yield v, ("variable", v.name)
        for a in self.rs.advice:
            yield a, ("advice", a.name)

    # ---------------------------------------------------------------- phases
    def _phases(self):
        rs = self.rs
        if not rs.phases:
            return
        by = {ph.name: ph for ph in rs.phases}
        seen: list[str] = []
        cur = rs.phases[0]
        while cur is not None and cur.name not in seen:
            seen.append(cur.name)
            cur = by.get(cur.then) if cur.then else None
        first = rs.phases[0].name
        for ph in rs.phases:
            if ph.name not in seen:
                self._find("unreachable-phase",
                           f"Phase {ph.name!r} ({ph.title or ph.name}, {_line(ph, self.path)}) can never be reached: no chain "
                           f"of 'then' leads to it from the first phase {first!r} (the compiler only checks that "
                           "some phase names it)", [ph.name], ph)

    # ---------------------------------------------------------------- usage
    def _usage(self):
        rs = self.rs
        used_d: list[str] = []
        used_p: list[str] = []
        todo = [node for node, _ in self._roots()]
        if rs.winner is not None and rs.winner.score in self.defines:
            used_d.append(rs.winner.score)
            todo.append(self.defines[rs.winner.score])
        while todo:
            node = todo.pop()
            for n in sorted(_names(node, set())):
                if n in self.defines and n not in used_d:
                    used_d.append(n)
                    todo.append(self.defines[n])
                elif n in self.procs and n not in used_p:
                    used_p.append(n)
                    todo.append(self.procs[n])
        self.used_code = [(node, ctx) for node, ctx in self._roots()]
        self.used_code += [(self.defines[n], ("definition", n)) for n in used_d]
        self.used_code += [(self.procs[n], ("procedure", n)) for n in used_p]
        for d in rs.defines:
            if d.name not in used_d:
                self._find("unused-definition",
                           f"Definition {d.name!r} ({_line(d, self.path)}) is never used: no phase, procedure, variable, score, "
                           "advice or used definition refers to it, directly or through others", [d.name], d)
        for p in rs.procedures:
            if p.name not in used_p:
                self._find("unused-definition",
                           f"Procedure {p.name!r} ({_line(p, self.path)}) is never performed by any phase, rule or used "
                           "procedure", [p.name], p)

        def visit(node, ctx, stmt):
            if isinstance(node, g.Name) and node.name in self.options:
                self.option_reads.setdefault(node.name, []).append((ctx, stmt))
            if isinstance(node, g.Perform):
                self.performers.setdefault(node.name, []).append(ctx)
        for node, ctx in self.used_code:
            _walk(node, ctx, visit)
        for o in rs.options:
            if o.name not in self.option_reads:
                self.dead_options.add(o.name)
                what = f" ({o.description})" if o.description else ""
                self._find("dead-option",
                           f"Option {o.name!r}{what} is never read by any rule, procedure or used definition: "
                           "setting it changes nothing (in a variant, the definitions that read it may have "
                           "been replaced)", [o.name], o)

    # ---------------------------------------------------------------- zones
    def _zones(self):
        reads: set = set()
        writes: dict[str, list] = {}
        for node, ctx in self.used_code:
            _reads(node, reads)

            def visit(n, c, stmt):
                if isinstance(n, g.Move):
                    for z in _names(n.to, set()) & set(self.zones):
                        writes.setdefault(z, []).append((c, n))
                elif isinstance(n, g.Deal) and n.target in self.zones:
                    writes.setdefault(n.target, []).append((c, n))
            _walk(node, ctx, visit)
        self.zone_writes = writes
        # a zone no expression reads and nobody can see: cards that end there are lost
        self.leak_zones = {z.name: z for z in self.rs.zones if z.name not in reads and z.visibility != "public"}

    # ---------------------------------------------------------------- folding
    def fold(self, e, env: dict, cfg: dict, depth: int = 0):
        """The value of e for one (player count, options) assignment, or UNK."""
        if e is None or depth > 60:
            return UNK
        t = type(e)
        if t is g.IntLit or t is g.BoolLit:
            return e.value
        if t is g.StrLit:
            return ("str", e.value)
        if t is g.NoneLit:
            return NONE
        if t is g.Name:
            n = e.name
            if n in env:
                return env[n]
            if n in self.options:
                return cfg[n]
            d = self.defines.get(n)
            if d is not None:
                return self.fold(d.body, {}, cfg, depth + 1) if not d.params else UNK
            if n in self.suits:
                return ("suit", n)
            if n in self.ranks:
                return ("rank", n)
            if n in self.enum_values:
                return ("enum", n)
            if n == "player_count":
                return cfg["\0players"]
            return UNK
        if t is g.Call:
            d = self.defines.get(e.func)
            if d is not None and len(d.params) == len(e.args):
                inner = {prm.name: self.fold(a, env, cfg, depth + 1) for prm, a in zip(d.params, e.args)}
                return self.fold(d.body, inner, cfg, depth + 1)
            if e.func in ("min", "max") and len(e.args) == 2:
                a, b = (self.fold(x, env, cfg, depth + 1) for x in e.args)
                if _is_int(a) and _is_int(b):
                    return min(a, b) if e.func == "min" else max(a, b)
            return UNK
        if t is g.Cond:
            test = self.fold(e.test, env, cfg, depth + 1)
            if test is True:
                return self.fold(e.then, env, cfg, depth + 1)
            if test is False:
                return self.fold(e.else_, env, cfg, depth + 1)
            a = self.fold(e.then, env, cfg, depth + 1)
            b = self.fold(e.else_, env, cfg, depth + 1)
            return a if a is not UNK and b is not UNK and _same(a, b) else UNK
        if t is g.UnOp:
            v = self.fold(e.operand, env, cfg, depth + 1)
            if e.op == "not":
                return (not v) if isinstance(v, bool) else UNK
            return -v if _is_int(v) else UNK
        if t is g.BinOp:
            return self._fold_binop(e, env, cfg, depth)
        if t is g.Agg:
            inner = dict(env)
            inner[e.var] = UNK
            if e.where is not None and self.fold(e.where, inner, cfg, depth + 1) is False:
                return {"any": False, "no": True, "count": 0, "sum": 0, "all": True}.get(e.op, NONE)
            if e.op == "all" and self.fold(e.body, inner, cfg, depth + 1) is True:
                return True
            return UNK
        return UNK

    def _fold_binop(self, e, env, cfg, depth):
        op = e.op
        if op in ("and", "or"):
            a = self.fold(e.left, env, cfg, depth + 1)
            if op == "and" and a is False:
                return False
            if op == "or" and a is True:
                return True
            b = self.fold(e.right, env, cfg, depth + 1)
            if op == "and":
                if b is False:
                    return False
                return True if (a is True and b is True) else UNK
            if b is True:
                return True
            return False if (a is False and b is False) else UNK
        if op in ("in", "not in", ".."):
            return UNK
        a = self.fold(e.left, env, cfg, depth + 1)
        b = self.fold(e.right, env, cfg, depth + 1)
        if a is UNK or b is UNK:
            return UNK
        if op in ("==", "!="):
            if _is_int(a) and isinstance(b, tuple) and b[0] == "rank":
                a = ("rank", str(a))
            if _is_int(b) and isinstance(a, tuple) and a[0] == "rank":
                b = ("rank", str(b))
            same = _same(a, b)
            return same if op == "==" else not same
        if not (_is_int(a) and _is_int(b)):
            return UNK
        if op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        if op in ("/", "mod") and b == 0:
            return UNK
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "mod": a % b if b else 0}.get(op, UNK)

    # ---------------------------------------------------------------- conditions
    def _fold_configs(self) -> list[dict]:
        rs = self.rs
        counts = list(range(rs.players_min, rs.players_max + 1))
        if len(counts) > 16:
            counts = player_counts(rs)
        rng = random.Random(f"fold/{rs.name}")
        limit = max(1, MAX_FOLD_CONFIGS // len(counts))
        combos = option_combos(rs, rng, limit)
        out = []
        for n in counts:
            for combo in combos:
                cfg = {o.name: (("enum", combo[o.name]) if o.type == "enum" else combo[o.name]) for o in rs.options}
                cfg["\0players"] = n
                out.append(cfg)
        return out

    def _conditions(self):
        self.set_names = set()
        for node, ctx in self.used_code + [(p, ("procedure", p.name)) for p in self.rs.procedures]:
            _walk(node, ctx, lambda n, c, s: self.set_names.add(n.name) if isinstance(n, g.Set) else None)
        self.sites: dict = {}
        self._site_order: list = []
        for cfg in self._fold_configs():
            for ph in self.rs.phases:
                self._walk_cond(ph.body, {}, cfg, ("phase", ph.name))
            for pr in self.rs.procedures:
                env = {prm.name: UNK for prm in pr.params}
                self._walk_cond(pr.body, env, cfg, ("procedure", pr.name))
        for key in self._site_order:
            node, role, expr, ctx, results, extra = self.sites[key]
            if not results or any(r is UNK for r in results) or len(set(results)) != 1:
                continue
            value = results[0]
            self.constant[key] = value
            self._report_constant(node, role, expr, ctx, value, extra)

    def _site(self, node, role, expr, env, cfg, ctx, extra=None):
        key = (id(node), role)
        if key not in self.sites:
            self.sites[key] = (node, role, expr, ctx, [], extra)
            self._site_order.append(key)
        v = self.fold(expr, env, cfg)
        self.sites[key][4].append(v if isinstance(v, bool) else UNK)

    def _walk_cond(self, stmts, env, cfg, ctx):
        env = dict(env)
        for s in stmts:
            t = type(s)
            if t is g.Let:
                env[s.name] = UNK if s.name in self.set_names else self.fold(s.value, env, cfg)
            elif t is g.Set:
                if s.name in env:
                    env[s.name] = UNK
            elif t is g.If:
                for i, br in enumerate(s.branches):
                    self._site(br, "elif" if i else "if", br.test, env, cfg, ctx, s)
                    self._walk_cond(br.body, env, cfg, ctx)
                self._walk_cond(s.else_, env, cfg, ctx)
            elif t is g.While:
                if not (isinstance(s.test, g.BoolLit) and s.test.value):
                    self._site(s, "while", s.test, env, cfg, ctx)
                self._walk_cond(s.body, env, cfg, ctx)
            elif t is g.ForPlayers or t is g.ForEach:
                inner = dict(env)
                inner[s.var] = UNK
                self._walk_cond(s.body, inner, cfg, ctx)
            elif t is g.Rule:
                if s.when is not None:
                    self._site(s, "rule when", s.when, env, cfg, ("rule", s.name))
                self._walk_cond(s.body, env, cfg, ("rule", s.name))
            elif t is g.Choose:
                for a in s.actions:
                    if a.when is not None:
                        self._site(a, "action when", a.when, env, cfg, ctx)
                    inner = dict(env)
                    if a.var is not None:
                        inner[a.var] = UNK
                        for m in a.more:
                            inner[m.var] = UNK
                    if a.where is not None:
                        self._site(a, "action where", a.where, inner, cfg, ctx)
                    self._walk_cond(a.body, inner, cfg, ctx)
            elif t in (g.Deal, g.Move) and s.face_up is not None and not isinstance(s.face_up, g.BoolLit):
                self._site(s, "face up", s.face_up, env, cfg, ctx)  # a plain 'face up' is the literal true
            else:
                body = getattr(s, "body", None)
                if isinstance(body, tuple):
                    self._walk_cond(body, env, cfg, ctx)

    def _report_constant(self, node, role, expr, ctx, value, extra):
        word = "true" if value else "false"
        cond = unparse(expr)
        where = _ctx_text(ctx)
        loc_node = expr if getattr(expr, "loc", None) else (extra if extra is not None else node)
        span = self._span()
        if role in ("if", "elif"):
            what = f"The condition `{cond}` of an {role} in {where}"
            effect = "its block never runs" if not value else "the branches after it never run"
        elif role == "while":
            what = f"The condition `{cond}` of a while loop in {where}"
            effect = "the loop never runs" if not value else "the loop only ends by break or end game (write 'repeat:' if that is meant)"
        elif role == "rule when":
            what = f"The when condition `{cond}` of rule {node.name!r} ({node.title or node.name})"
            effect = "the rule never fires" if not value else "it never restricts the rule"
            if not value:
                self.rule_when_false.add(node.name)
        elif role == "action when":
            what = f"The when condition `{cond}` of action {node.name!r} in {where}"
            effect = "the action is never offered" if not value else "it never restricts the action"
        elif role == "action where":
            label = f' ("{node.label}")' if node.label else ""
            what = f"The where condition `{cond}` of action {node.name!r}{label} in {where}"
            effect = "the action is never offered" if not value else "it never filters anything"
        else:
            what = f"The face up condition `{cond}` in {where}"
            effect = "the cards are never shown" if not value else "the cards are always shown"
        self._find("constant-condition",
                   f"{what} ({_loc(loc_node)}) is always {word} for {span}: {effect}.",
                   self.rules_of(ctx), loc_node)

    def _span(self) -> str:
        rs = self.rs
        n = (f"the only player count ({rs.players_min})" if rs.players_min == rs.players_max
             else f"every player count ({rs.players_min} to {rs.players_max})")
        return n + (" and every option value" if rs.options else "")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


# ====================================================================== bots

class RandomPlayer:
    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0x5EED)

    def choose(self, s: State, fz) -> Move:
        return self.rng.choice(s._legal)[0]


class RuleSeeker:
    """One move of look-ahead on a clone; prefers moves that fire rules fired least so far
    (over every game of this fuzz run), take actions taken least, offer actions offered
    least, or end in a failure (no legal move, a runtime error)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0x5EEC)

    def choose(self, s: State, fz: "Fuzzer") -> Move:
        entries = s._legal
        rng = self.rng
        if len(entries) == 1:
            return entries[0][0]
        if rng.random() < SEEK_RANDOM:
            return rng.choice(entries)[0]
        first: dict = {}
        for i, e in enumerate(entries):
            first.setdefault(id(e[1]), i)
        picks = list(first.values())
        rest = [i for i in range(len(entries)) if i not in set(picks)]
        if len(picks) < SEEK_SAMPLE and rest:
            picks += rng.sample(rest, min(len(rest), SEEK_SAMPLE - len(picks)))
        fired_now = s.fired
        best, best_score = [], None
        for i in picks:
            m, alt, _ = entries[i]
            score = 0.5 / (1 + fz.alt_taken.get(id(alt), 0))
            history, s.history = s.history, []  # the look-ahead needs no history: don't copy it
            try:
                c = s.clone()
            finally:
                s.history = history
            try:
                apply(c, m)
            except Exception:
                score += 5.0
            else:
                for k, (a, b) in enumerate(zip(fired_now, c.fired)):
                    if b > a:
                        score += 1.0 / (1 + fz.fired_total[k] + a)
                if not c.finished:
                    if not c._legal:
                        score += 5.0
                    else:
                        score += 0.25 * max(1.0 / (1 + fz.alt_offered.get(id(e[1]), 0)) for e in c._legal)
            if best_score is None or score > best_score + 1e-12:
                best, best_score = [m], score
            elif abs(score - best_score) <= 1e-12:
                best.append(m)
        return best[0] if len(best) == 1 else rng.choice(best)


class AdvisedPlayer:
    """Goal-seeking play for rules that only a player who pursues the game's goal reaches (a
    completed hand, a won patience): one move of look-ahead on a clone, keeping the move that
    leaves it best placed by the ruleset's advice; now and then a random move, so that it does
    not loop. Without advice it is a rule seeker."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0xAD71CE)
        self.seeker = RuleSeeker(seed)

    def choose(self, s: State, fz: "Fuzzer") -> Move:
        entries = s._legal
        if not s.program.advice or len(entries) == 1:
            return self.seeker.choose(s, fz) if len(entries) > 1 else entries[0][0]
        rng = self.rng
        if rng.random() < SEEK_RANDOM:
            return rng.choice(entries)[0]
        me = s.actor
        best, best_value = [], None
        for m, _, _ in entries:
            if m.player != me:
                continue
            history, s.history = s.history, []
            try:
                c = s.clone()
            finally:
                s.history = history
            try:
                apply(c, m)
                value = engine_advice(c, me)
            except Exception:
                value = None
            if value is None:
                continue
            if best_value is None or value > best_value:
                best, best_value = [m], value
            elif value == best_value:
                best.append(m)
        if not best:
            return self.seeker.choose(s, fz)
        return best[0] if len(best) == 1 else rng.choice(best)


BOT_KINDS = {"random": RandomPlayer, "seeker": RuleSeeker, "advised": AdvisedPlayer}


# ====================================================================== playing

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
    vis: list | None = None               # per zone instance: its visibility

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


class Fuzzer:
    def __init__(self, path: str, rs: g.Ruleset, games: int | None, seconds: float | None, seed: int,
                 progress: Callable[[str], None] | None = None, deadline: float | None = None):
        self.path = path
        self.rs = rs
        self.program = program_of(rs)
        self.games = games
        self.seed = seed
        self.progress = progress or (lambda text: None)
        self.start = time.monotonic()
        self.deadline = deadline if deadline is not None else (self.start + seconds if seconds else None)
        p = self.program
        self.fired_total = [0] * len(p.rule_names)
        self.advice_seen: dict[str, set] = {name: set() for name, _, _ in p.advice}
        self.n_advised = 0
        self.advice_failed: dict[str, tuple] = {}
        self.alt_taken: dict[int, int] = {}
        self.alt_offered: dict[int, int] = {}
        self.choice_index = {id(ch): i for i, ch in enumerate(p.choices)}
        self.dup_choices = {id(ch) for ch in p.choices if len({a.name for a in ch.alts}) < len(ch.alts)}
        self.card_index = {name: c for c, name in enumerate(p.card_names)}
        self.var_info = [(v, slot) for v, (name, slot, _) in zip(rs.vars, p.vars) if v.type in ("card", "cards")]
        self._set_cache: dict = {}
        self._option_findings: list = []
        self.hits: dict[tuple, Hit] = {}
        self.hit_order: list[tuple] = []
        self.n_games = 0
        self.n_seeker = 0
        self.no_end_seen = False
        self.shortest: tuple | None = None   # (size key, cfg, seed, bot, moves) of a finished game
        self._trace_fired = [0] * len(self.program.rule_names)
        self.static = Static(rs, path)
        self.configs = configurations(rs, seed)

    # ---------------------------------------------------------------- time
    def out_of_time(self, until: float | None = None) -> bool:
        limit = until if until is not None else self.deadline
        return limit is not None and time.monotonic() >= limit

    def slice_end(self, share: float) -> float | None:
        if self.deadline is None:
            return None
        now = time.monotonic()
        return now + max(0.0, self.deadline - now) * share

    def game_seed(self, *parts) -> int:
        return zlib.crc32(repr((self.seed, self.rs.name) + parts).encode())

    # ---------------------------------------------------------------- one game
    def cap(self) -> tuple[int, bool]:
        """(decisions after which a running game is reported, whether that is the declared bound)."""
        if self.rs.max_decisions is not None:
            return self.rs.max_decisions, True
        return (NO_BOUND_AFTER if self.no_end_seen else NO_BOUND_LIMIT), False

    def play(self, cfg: Config, seed: int, bot: str, *, stats: bool = False, replay_check: bool = False,
             observe_all: bool = False, stop_key: tuple | None = None) -> Game:
        game = Game(cfg, seed, bot, stop_key=stop_key)
        try:
            s = new_game(self.rs, cfg.players, cfg.opts, seed)
        except GameRuntimeError as e:
            game.add(self._ev_error(None, e, None))
            return game
        except Exception as e:  # an engine bug, reported as such
            game.add(self._ev_crash(None, e, None))
            return game
        game.state = s
        player = BOT_KINDS[bot](seed)
        limit, declared = self.cap()
        game.vis = [self.program.zones[k].visibility for k in s.zkind]
        game.seen_all = bytearray(self.program.n_cards)
        game.seen_own = [bytearray(self.program.n_cards) for _ in s.seats]
        self._remember(game, s)
        self._check(game, s, observe=True)
        if self.advice_seen:
            self._note_advice(s)
        deadline = self.deadline
        while not s.finished and not game.stopped:
            if deadline is not None and time.monotonic() > deadline:
                game.abandoned = True  # --seconds is up: the game proves nothing either way
                break
            entries = s._legal
            if not entries:
                game.add(self._ev_deadlock(s))
                break
            if not declared and s.decisions >= limit:
                game.add(self._ev_bound(s, limit, declared))
                break
            if stats:
                for alt in {id(e[1]): e[1] for e in entries}.values():
                    self.alt_offered[id(alt)] = self.alt_offered.get(id(alt), 0) + 1
            m = player.choose(s, self)
            alt = next(e[1] for e in entries if e[0] is m)
            if stats:
                self.alt_taken[id(alt)] = self.alt_taken.get(id(alt), 0) + 1
            try:
                apply(s, m)
            except GameRuntimeError as e:
                game.add(self._ev_error(s, e, m))
                break
            except Exception as e:
                game.add(self._ev_crash(s, e, m))
                break
            if declared and s.decisions > limit:
                game.add(self._ev_bound(s, limit, declared))
                break
            i = s.decisions
            self._remember(game, s)
            observe = observe_all or i < OBSERVE_EARLY or i % OBSERVE_EVERY == 0 or s.finished
            self._check(game, s, observe=observe)
            if observe and self.advice_seen:
                self._note_advice(s)
        if s.finished and not game.stopped:
            self._check_leak(game, s)
        if replay_check and not game.stopped and not game.abandoned and not any(ev.error for ev in game.events.values()):
            self._check_replay(game, s)
        return game

    # ---------------------------------------------------------------- checks
    def _note_advice(self, s: State):
        """Keep the values the advice takes (two distinct ones are enough), and its first failure."""
        for name, fn, node in self.program.advice:
            seen = self.advice_seen[name]
            if len(seen) > 1 or name in self.advice_failed:
                continue
            for seat in s.seats:
                try:
                    seen.add(fn(s, seat))
                except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError) as e:
                    self.advice_failed[name] = (node, f"{type(e).__name__}: {e}", len(s.history))
                    break

    def _advice_findings(self) -> list[Finding]:
        out = []
        for name, _, node in self.program.advice:
            if name in self.advice_failed:
                _, why, at = self.advice_failed[name]
                out.append(Finding("advice-fails", f"Advice {name!r} ({_line(node, self.path)}) cannot be worked out "
                                   f"after {at} moves of a game ({why}): a player relying on it would be stuck.",
                                   [], self.path, _loc(node)))
            elif len(self.advice_seen[name]) == 1 and self.n_games:
                value = next(iter(self.advice_seen[name]))
                out.append(Finding("constant-advice", f"Advice {name!r} ({_line(node, self.path)}) was {value} for "
                                   f"every player at every moment checked in {self.n_games} games: it cannot tell "
                                   "a good position from a bad one.", [], self.path, _loc(node)))
        return out

    def _remember(self, game: Game, s: State):
        """What the players have seen so far: cards in public zones or face up (everyone), and
        cards in a seat's own private zones (that seat). Seen once, a card is remembered."""
        seen_all, seen_own, vis, owner = game.seen_all, game.seen_own, game.vis, s.zowner
        for inst, z in enumerate(s.zones):
            v = vis[inst]
            if v == "public":
                for c in z:
                    seen_all[c] = 1
            elif v == "owner" and owner[inst] is not None:
                own = seen_own[owner[inst]]
                for c in z:
                    own[c] = 1
        for c, k in enumerate(s.known):
            if k:
                seen_all[c] = 1

    def _check(self, game: Game, s: State, observe: bool):
        p = self.program
        n = p.n_cards
        where = [None] * n
        bad = None
        for zi, z in enumerate(s.zones):
            for c in z:
                if not (0 <= c < n):
                    bad = f"an unknown card id {c} lies in zone instance {zi}"
                    break
                if where[c] is not None:
                    bad = f"card {p.card_names[c]} lies in two places at once (zone instances {where[c]} and {zi})"
                    break
                where[c] = zi
            if bad:
                break
        if bad is None:
            lost = [p.card_names[c] for c in range(n) if where[c] is None]
            if lost:
                bad = f"{len(lost)} card(s) lie in no zone at all (e.g. {', '.join(lost[:3])})"
            elif where != s.card_zone:
                c = next(c for c in range(n) if where[c] != s.card_zone[c])
                bad = f"the engine's card_zone says {p.card_names[c]} is in zone instance {s.card_zone[c]}, but it lies in {where[c]}"
            else:  # the engine's per-card copies of facts about the card's zone, when it keeps them
                for attr, per_zone in (("card_kind", "zkind"), ("card_owner", "zowner")):
                    cache, table = getattr(s, attr, None), getattr(s, per_zone, None)
                    if cache is None or table is None:
                        continue
                    c = next((c for c in range(n) if cache[c] != table[where[c]]), None)
                    if c is not None:
                        bad = (f"the engine's {attr} of {p.card_names[c]} is {cache[c]!r}, but the zone it lies in "
                               f"says {table[where[c]]!r}")
                        break
        if bad is not None:
            name, title = self._rule(s)
            game.add(Event("cards-not-conserved", ("cards-not-conserved",), len(s.history),
                           f"Cards were created or lost after {len(s.history)} moves, in rule {name!r} ({title}): "
                           f"{bad}. The engine moves cards between zones, so this is an engine bug.", [name],
                           note="the replayed state shows the inconsistency"))
        if s.finished:
            if observe:
                self._check_observe(game, s)
            return
        choice = s.choice
        if choice is not None and id(choice) in self.dup_choices and s._legal:
            self._check_claims(game, s, choice)
        if observe:
            self._check_observe(game, s)

    def _rule(self, s: State) -> tuple[str, str]:
        try:
            return rule_at(s)
        except Exception:
            return ("(no rule)", "(no rule)")

    def _move_text(self, s: State, alt, v) -> str:
        p = self.program
        if alt.elem is None:
            return alt.name
        if alt.more:
            elems, vals = [alt.elem] + [m[1] for m in alt.more], v
        else:
            elems, vals = [alt.elem], [v]
        args = [s.zone_names[x] if el == "zone" and hasattr(s, "zone_names") else engine._arg_text(p, el, x)
                for el, x in zip(elems, vals)]
        return f"{alt.name} {' '.join(args)}"

    def _deciders(self, s: State) -> list[int]:
        """Who may move now: the actor, or everyone still to decide at a `choose by each`."""
        if getattr(s.choice, "each_slot", None) is not None:
            return list(getattr(s, "pending", {}).get(s.pc, [])) or [s.actor]
        return [s.actor]

    def _legal_of(self, t: State) -> list:
        """Legal moves recomputed from scratch on a (modified) clone."""
        if getattr(t.choice, "each_slot", None) is not None:
            return [m for m, _, _ in engine._compute_legal(t, t.choice, self._deciders(t))]
        return [m for m, _, _ in engine._compute_legal(t, t.choice)]

    def _check_claims(self, game: Game, s: State, choice):
        each = getattr(choice, "each_slot", None)
        t = s.clone() if each is not None else s  # evaluating for each decider sets a slot
        for player in self._deciders(s):
            if each is not None:
                t.slots[each] = player
                t.memo = {}
            offers: dict = {}
            for ai, alt in enumerate(choice.alts):
                try:
                    if alt.when is not None and not alt.when(t):
                        continue
                    values = alt.values(t) if alt.values is not None else [None]
                except Exception:
                    return  # the engine reports failures itself
                for v in values:
                    k = (alt.name, alt.elem, v)
                    first = offers.setdefault(k, ai)
                    if first == ai:
                        continue
                    a, b = choice.alts[first], alt
                    name, title = self._rule(s)
                    rules = [name] + ([choice.rule] if choice.rule and choice.rule != name else [])
                    la = f'"{a.label}"' if a.label else "no label"
                    lb = f'"{b.label}"' if b.label else "no label"
                    game.add(Event(
                        "same-decision", ("same-decision", self.choice_index[id(choice)], first, ai), len(s.history),
                        f"In rule {name!r} ({title}), two actions claim the same decision: both offer "
                        f"{seat_name(player)} the move '{self._move_text(t, alt, v)}' -- action {a.name!r} at "
                        f"{_loc(a.node)} ({la}) and action {b.name!r} at {_loc(b.node)} ({lb}). The engine "
                        "silently keeps the first, so the second action's body never runs for this move.",
                        rules, note=f"the replayed game stops where {seat_name(player)} is offered that move",
                        location=_loc(b.node)))

    def _visible(self, s: State, inst: int, player: int) -> bool:
        vis = self.program.zones[s.zkind[inst]].visibility
        return vis == "public" or (vis == "owner" and s.zowner[inst] == player)

    def _zone_text(self, s: State, inst: int) -> str:
        names = getattr(s, "zone_names", None)
        if names:
            return names[inst]
        z = self.program.zones[s.zkind[inst]]
        return z.name + (f"({seat_name(s.zowner[inst])})" if s.zowner[inst] is not None else "")

    def _check_observe(self, game: Game, s: State):
        p = self.program
        for player in s.seats:
            try:
                obs = observe(s, player)
            except Exception as e:
                game.add(self._ev_crash(s, e, None, during="observe"))
                return
            for name in _strings(obs.get("zones", {})):
                c = self.card_index.get(name)
                if c is None:
                    continue
                inst = s.card_zone[c]
                if not (self._visible(s, inst, player) or s.known[c]):
                    game.add(Event("hidden-leak", ("hidden-leak", "observe"), len(s.history),
                                   f"observe() shows {seat_name(player)} the card {name}, which lies unseen in "
                                   f"{self._zone_text(s, inst)} ({p.zones[s.zkind[inst]].visibility}) and has not been "
                                   "shown: an engine bug, not the ruleset's.", [self._rule(s)[0]],
                                   note="the replayed state is the one observed"))
                    break
            for v, slot in self.var_info:
                value = s.slots[slot]
                per = list(enumerate(value)) if v.params and isinstance(value, list) else [(None, value)]
                for owner, val in per:
                    cards = [val] if v.type == "card" else list(val or [])
                    for c in cards:
                        if not isinstance(c, int) or not (0 <= c < p.n_cards):
                            continue
                        inst = s.card_zone[c]
                        if self._visible(s, inst, player) or s.known[c] or game.seen_all[c] \
                                or game.seen_own[player][c]:
                            continue  # naming a card the player has seen reveals nothing
                        sets = self._set_rules(v.name)
                        var = v.name + (f"({seat_name(owner)})" if owner is not None else "")
                        game.add(Event(
                            "hidden-leak", ("hidden-leak", "var", v.name), len(s.history),
                            f"Variable {var!r} shows every player, {seat_name(player)} included, the card "
                            f"{p.card_names[c]}, which lies in {self._zone_text(s, inst)} "
                            f"({p.zones[s.zkind[inst]].visibility}) and which {seat_name(player)} has never seen: "
                            "variables are public, so observe() reveals "
                            f"it{' (it is set in ' + ', '.join(repr(r) for r in sets) + ')' if sets else ''}.",
                            sets or [v.name], note="in the replayed state the variable names the hidden card"))
                        break
        if not s.finished and s.actor is not None:
            for player in self._deciders(s):
                self._check_permuted(game, s, player)

    def _set_rules(self, var: str) -> list:
        if var in self._set_cache:
            return self._set_cache[var]
        out = []
        for node, ctx in self.static.used_code:
            _walk(node, ctx, lambda n, c, st: out.extend(self.static.rules_of(c))
                  if isinstance(n, g.Set) and n.name == var else None)
        self._set_cache[var] = list(dict.fromkeys(out))
        return self._set_cache[var]

    def _check_permuted(self, game: Game, s: State, player: int):
        """The legal moves of `player` must not depend on cards `player` cannot see."""
        spots = [(inst, k) for inst, z in enumerate(s.zones) if not self._visible(s, inst, player)
                 for k, c in enumerate(z) if not s.known[c]]
        if len(spots) < 2:
            return
        rng = random.Random(f"{s.seed}/{len(s.history)}/{player}")
        try:  # the cards `player` cannot know, rearranged among their places
            after = sorted(str(m) for m in engine.legal_moves(engine.determinise(s, player, rng))
                           if m.player == player)
        except Exception:
            return
        before = sorted(str(m) for m in engine.legal_moves(s) if m.player == player)
        if after != before:
            name, title = self._rule(s)
            gone = [m for m in before if m not in after][:3]
            new = [m for m in after if m not in before][:3]
            diff = "; ".join(x for x in (("now: " + ", ".join(gone)) if gone else "",
                                         ("rearranged: " + ", ".join(new)) if new else "") if x)
            game.add(Event("hidden-leak", ("hidden-leak", "legal", name), len(s.history),
                           f"The moves offered to {seat_name(player)} in rule {name!r} ({title}) depend on cards "
                           f"{seat_name(player)} cannot see: with the unseen cards of the other players' private "
                           f"zones and of hidden zones rearranged, the legal moves change ({diff}), so a player "
                           "learns hidden cards from what they may do.", [name],
                           note=f"the replayed state is the decision of {seat_name(player)}"))

    def _check_leak(self, game: Game, s: State):
        p = self.program
        for zname, z in self.static.leak_zones.items():
            zi = p.zone_index.get(zname)
            if zi is None:
                continue
            count = s.zcount[zi] if hasattr(s, "zcount") else (s.n_players if z.per_player else 1)
            cards = [c for k in range(count) for c in s.zones[s.zbase[zi] + k]]
            if not cards:
                continue
            writers = self.static.zone_writes.get(zname, [])
            rules = []
            for ctx, _ in writers:
                rules.extend(self.static.rules_of(ctx))
            rules = list(dict.fromkeys(rules)) or [zname]
            by = (" (cards go there in " + ", ".join(f"{_ctx_text(c)} at {_line(n, self.path)}" for c, n in writers[:3]) + ")"
                  if writers else "")
            names = [p.card_names[c] for c in cards[:3]]
            game.add(Event("card-leak", ("card-leak", zname), len(s.history),
                           f"{len(cards)} card(s) (e.g. {', '.join(names)}) end the game in zone {zname!r} "
                           f"({z.visibility}){by}, which no rule reads, no score counts and no player can see: "
                           "they leave the game without trace. If that is meant, name the zone in a rule or "
                           "the score, or make it public.", rules,
                           note="the replayed game is finished, with the cards in that zone", location=_loc(z)))

    def _check_replay(self, game: Game, s: State):
        rec = json.loads(json.dumps(make_record(s, self.path)))
        try:
            r = replay(self.rs, rec, "<fuzz>")
            same = state_digest(r) == state_digest(s) and [str(m) for m in r.history] == [str(m) for m in s.history]
            problem = None if same else "the replayed game ends in another state"
        except (RecordError, GameRuntimeError) as e:
            problem = e.message
        except Exception as e:
            problem = f"{type(e).__name__}: {e}"
        if problem is None:
            return
        # the record of the moves up to the one that diverges is the shortest that fails
        hit = re.match(r"move (\d+)", problem)
        at = min(int(hit.group(1)), len(s.history)) if hit else len(s.history)
        name, title = self._rule(s)
        try:
            t = new_game(self.rs, s.n_players, s.options, s.seed)
            for m in s.history[:at - 1]:
                apply(t, m)
            name, title = self._rule(t)
            mover = s.history[at - 1] if at else None
            played = f" ({seat_name(mover.player)} played '{mover}' in rule {name!r}, {title})" if mover else ""
        except Exception:
            played = ""
        game.add(Event("replay-mismatch", ("replay-mismatch", name), at,
                       f"The record of a legal game does not replay{played}: {problem}. "
                       "Either the engine plays differently from the same moves, or replay refuses a move "
                       "that play allowed.", [name], replay_fails=True,
                       note="replaying the record fails the same way"))

    # ---------------------------------------------------------------- events
    def _ev_deadlock(self, s: State) -> Event:
        name, title = self._rule(s)
        ch = s.choice
        reasons = []
        for alt in ch.alts:
            node = alt.node
            try:
                allowed = alt.when is None or alt.when(s)
            except Exception:
                allowed = True
            if not allowed:
                reasons.append(f"action {alt.name!r} is allowed only when {unparse(node.when)}")
            elif node.domain is not None:
                need = f"a {alt.elem} in {unparse(node.domain)}" + "".join(
                    f" and a {m[1]} in {unparse(x.domain)}" for m, x in zip(alt.more, node.more)) + (
                    f" with {unparse(node.where)}" if node.where is not None else "")
                reasons.append(f"action {alt.name!r} needs {need}, and there is none")
        rules = [name] + ([ch.rule] if ch.rule and ch.rule != name else [])
        return Event("deadlock", ("deadlock", self.choice_index.get(id(ch))), len(s.history),
                     f"In rule {name!r} ({title}), {seat_name(s.actor)} must choose but has no legal move, and the "
                     f"game is not over: {'; '.join(reasons) or 'no action applies'} "
                     f"(the choice at {_loc(ch.node)}). Nothing lets play go on.", rules,
                     note=f"the replayed game stops where {seat_name(s.actor)} has no legal move",
                     location=_loc(ch.node))

    def _ev_bound(self, s: State, limit: int, declared: bool) -> Event:
        name, title = self._rule(s)
        top = sorted(((n, r) for r, n in zip(self.program.rule_names, s.fired) if n), reverse=True)[:3]
        most = ", ".join(f"{r!r} {'once' if n == 1 else f'{n} times'}" for n, r in top) or "none"
        if declared:
            return Event("exceeds-bound", ("exceeds-bound",), len(s.history),
                         f"A game went past its declared bound ('at most {limit} decisions'): "
                         f"{'it was still running' if not s.finished else 'it ended only'} after {s.decisions} "
                         f"decisions, in rule {name!r} ({title}); the rules fired most in it: {most}.",
                         [name] + [r for _, r in top if r != name],
                         note=f"the replayed game has {s.decisions} decisions" + ("" if s.finished else " and is not over"))
        self.no_end_seen = True
        return Event("no-end-in-sight", ("no-end-in-sight",), len(s.history),
                     f"A game was not over after {s.decisions:,} decisions (the ruleset declares no bound; add "
                     f"'at most N decisions' if it has one): it was in rule {name!r} ({title}); the rules fired "
                     f"most in it: {most}.", [name] + [r for _, r in top if r != name],
                     note="the replayed game is still running")

    def _ev_error(self, s: State | None, e: GameRuntimeError, m: Move | None) -> Event:
        name, title = self._rule(s) if s is not None else ("(set-up)", "setting up the game")
        at = len(s.history) if s is not None else 0
        when = f"playing {seat_name(m.player)}'s move '{m}'" if m is not None else "setting up the game"
        where = f" (at {e.file}:{e.line}:{e.column})" if e.file and e.line else ""
        loc = f"{e.file}:{e.line}:{e.column}" if e.file and e.line else None
        if "loop for ever" in e.message:
            return Event("endless-loop", ("endless-loop", name), at,
                         f"After {when}, the rules loop for ever without asking anyone to decide, in rule "
                         f"{name!r} ({title}): the engine gave up after {engine.MAX_STEPS:,} jumps back{where}.",
                         [name], error=True, replay_fails=True, location=loc,
                         note="replaying the record stops with the same failure")
        return Event("runtime-error", ("runtime-error", e.message, e.line), at,
                     f"The ruleset fails while {when}, in rule {name!r} ({title}): {e.message}{where}.", [name],
                     error=True, replay_fails=True, location=loc,
                     note="replaying the record stops with the same failure")

    def _ev_crash(self, s: State | None, e: Exception, m: Move | None, during: str = "play") -> Event:
        name, title = self._rule(s) if s is not None else ("(set-up)", "setting up the game")
        at = len(s.history) if s is not None else 0
        what = (f"playing {seat_name(m.player)}'s move '{m}'" if m is not None
                else ("observing the game" if during == "observe" else "setting up the game"))
        return Event("engine-crash", ("engine-crash", type(e).__name__, str(e)[:120]), at,
                     f"The engine itself crashed with {type(e).__name__}: {e} while {what}, in rule {name!r} "
                     f"({title}): an engine bug, not the ruleset's.", [name], error=(during == "play"),
                     replay_fails=(during == "play"),
                     note="replaying the record crashes the same way")

    # ---------------------------------------------------------------- bookkeeping
    def _absorb(self, game: Game, main: bool) -> int:
        new = 0
        for key, ev in game.events.items():
            hit = self.hits.get(key)
            if hit is None:
                self.hits[key] = Hit(ev, game.cfg, game.seed, game.bot, list(game.moves[:ev.at]))
                self.hit_order.append(key)
                new += 1
            else:
                hit.count += 1
        s = game.state
        if main and s is not None:
            for k, n in enumerate(s.fired):
                self.fired_total[k] += n
            if s.finished and not game.events:
                key = (game.cfg.size(), s.decisions)
                if self.shortest is None or key < self.shortest[0]:
                    self.shortest = (key, game.cfg, game.seed, game.bot, list(s.history))
        return new

    def unfired(self) -> list[int]:
        return [k for k, n in enumerate(self.fired_total) if n == 0]

    # ---------------------------------------------------------------- phases of a run
    def run(self) -> RulesetReport:
        rs = self.rs
        name = Path(self.path).name
        report = RulesetReport(self.path, rs.name, rs.title or rs.name, configurations=len(self.configs))
        main_end = self.slice_end(0.6)
        n_cfg = len(self.configs)
        for ci, cfg in enumerate(self.configs):
            t0 = time.monotonic()
            cfg_end = None
            if main_end is not None:
                cfg_end = t0 + max(0.0, main_end - t0) / (n_cfg - ci)
            k = seekers = new = 0
            while True:
                if self.games is not None and k >= self.games:
                    break
                if k > 0 and (self.out_of_time(cfg_end) or self.out_of_time()):
                    break
                if k == 0 and self.out_of_time() and ci > 0:
                    break
                bot = "random" if k % 2 == 0 else "seeker"
                game = self.play(cfg, self.game_seed("main", ci, k), bot, stats=True, replay_check=k < 2)
                new += self._absorb(game, True)
                k += 1
                seekers += bot == "seeker"
            self.n_games += k
            self.n_seeker += seekers
            self.progress(f"fuzz {name} [{ci + 1}/{n_cfg}] {cfg.label()}: {k} games ({seekers} rule-seeking), "
                          f"{time.monotonic() - t0:.2f} s" + (f", {new} new finding(s)" if new else ""))
        self._hunt()
        self._option_check()
        report.findings = self._findings()
        report.games, report.seeker_games = self.n_games, self.n_seeker
        report.seconds = time.monotonic() - self.start
        report.fired = {r: n for r, n in zip(self.program.rule_names, self.fired_total)}
        return report

    def _hunt(self):
        """More rule-seeking games while some rule has not fired yet."""
        if not self.unfired():
            return
        end = self.slice_end(0.35)
        budget = self.games if self.games is not None else None
        t0 = time.monotonic()
        k = 0
        while self.unfired():
            if budget is not None and k >= budget:
                break
            if self.out_of_time(end) or (budget is None and end is None):
                break
            cfg = self.configs[k % len(self.configs)]
            # with advice, every other hunting game is played by players pursuing the game's goal
            kind = "advised" if self.program.advice and k % 2 else "seeker"
            game = self.play(cfg, self.game_seed("hunt", k), kind, stats=True)
            self._absorb(game, True)
            self.n_advised += kind == "advised"
            k += 1
        self.n_games += k
        self.n_seeker += k
        left = [self.program.rule_names[i] for i in self.unfired()]
        self.progress(f"fuzz {Path(self.path).name}: {k} more rule-seeking games for rules that had not fired, "
                      f"{time.monotonic() - t0:.2f} s" + (f"; still unfired: {', '.join(left)}" if left else ""))

    # ---------------------------------------------------------------- options
    def _trace(self, cfg: Config, seed: int, keep: bool = False):
        """A fingerprint of one game played by a bot that picks from the sorted legal moves:
        per decision the actor, the sorted legal moves, the cards face up and the public
        variables; then the outcome and each zone's cards (as sets). Also the state (with
        keep), the moves, and whether the game came to an end within TRACE_LIMIT decisions."""
        h = []
        moves = []
        try:
            s = new_game(self.rs, cfg.players, cfg.opts, seed)
        except CardRulesError as e:
            return (("error", e.message),), None, [], True
        rng = random.Random(seed ^ 0x0971)
        limit = min(self.cap()[0] + 1, TRACE_LIMIT)
        done = True
        try:
            while not s.finished and s.decisions < limit:
                legal = sorted(engine.legal_moves(s), key=lambda m: (m.player, str(m)))
                if not legal:
                    h.append(("stuck",))
                    break
                if s.decisions + 1 >= limit:
                    done = False  # cut short: identical so far proves nothing
                h.append((s.actor, tuple((m.player, str(m)) for m in legal), tuple(s.known),
                          repr(engine.public_vars(s)) if hasattr(engine, "public_vars") else repr(s.slots)))
                m = legal[rng.randrange(len(legal))]
                moves.append(m)
                apply(s, m)
        except CardRulesError as e:
            h.append(("error", e.message))
        o = outcome(s)
        h.append((s.finished, (o.winners, o.scores) if o else None,
                  tuple(tuple(sorted(z)) for z in s.zones), tuple(s.known)))
        self._trace_fired = [a + b for a, b in zip(self._trace_fired, s.fired)]
        return tuple(h), (s if keep else None), moves, done

    def _option_check(self):
        rs = self.rs
        if not rs.options:
            return
        t0 = time.monotonic()
        end = self.slice_end(0.4)
        k_seeds = OPTION_SEEDS if self.games is None else max(1, min(self.games, OPTION_SEEDS))
        counts = player_counts(rs)
        defaults = {o.name: o.default for o in rs.options}
        cache: dict = {}

        def trace(cfg, seed):
            key = (cfg, seed)
            if key not in cache:
                h, _, _, done = self._trace(cfg, seed)
                cache[key] = (h, done)
            return cache[key]

        def compare(base: dict, o: g.Option, values) -> str:
            """'differs', 'same' (every game compared to its end) or 'unknown'."""
            unknown = False
            for v in values:
                if v == base[o.name]:
                    continue
                for n in counts:
                    for i in range(k_seeds):
                        if self.out_of_time():
                            return "unknown"  # --seconds is up
                        if i > 0 and self.out_of_time(end):
                            break
                        seed = self.game_seed("option", n, i)
                        a, da = trace(_config(rs, n, base), seed)
                        b, db = trace(_config(rs, n, {**base, o.name: v}), seed)
                        if a != b:
                            return "differs"
                        if not (da and db):
                            unknown = True
            return "unknown" if unknown else "same"

        names = self.program.rule_names
        for o in rs.options:
            if o.name in self.static.dead_options:
                continue
            values = option_values(o)
            self._trace_fired = [0] * len(names)
            if compare(defaults, o, values) != "same":
                continue
            # an option read only inside rules that never fired in these games was never put
            # to the test: that proves nothing (a rare ending, say)
            readers = {r for c, _ in self.static.option_reads.get(o.name, []) for r in self.static.rules_of(c)}
            if readers and all(r in names and self._trace_fired[names.index(r)] == 0 for r in readers):
                self.progress(f"fuzz {Path(self.path).name}: option {o.name!r} made no difference, but the rules "
                              f"that read it ({', '.join(sorted(readers))}) never fired in those games: not judged")
                continue
            others = [c.opts for c in self.configs if c.changed and c.changed != (o.name,)]
            verdicts = [compare(base, o, values) for base in others[:OPTION_EXTRA_COMBOS]]
            if "differs" in verdicts:
                continue
            self._dead_option(o, counts, k_seeds, defaults, verdicts.count("same"), verdicts.count("unknown"))
        self.progress(f"fuzz {Path(self.path).name}: option effects checked ({len(rs.options)} option(s)), "
                      f"{time.monotonic() - t0:.2f} s")

    def _dead_option(self, o: g.Option, counts, k_seeds, defaults, same: int = 0, unknown: int = 0):
        rs = self.rs
        n = counts[0]
        best = None
        for i in range(k_seeds):
            seed = self.game_seed("option", n, i)
            _, s, moves, done = self._trace(_config(rs, n, defaults), seed, keep=True)
            if s is not None and done and (best is None or len(moves) < best[0]):
                best = (len(moves), seed)
        values = option_values(o)
        other = values[1] if len(values) > 1 else o.default
        reads = self.static.option_reads.get(o.name, [])
        read_text = ", ".join(f"{_ctx_text(c)} at {_line(st, self.path)}" for c, st in reads[:3])
        rules = []
        for c, _ in reads:
            rules.extend(self.static.rules_of(c))
        where = "with the other options at their defaults" if len(rs.options) > 1 else ""
        if same:
            where += f" and in {same} other combination{'s' if same > 1 else ''} of them"
        sentence = (f"Option {o.name!r}{' (' + o.description + ')' if o.description else ''} never changes play: "
                    f"it is read ({read_text}), but for every player count and each of its values "
                    f"({', '.join(_fmt_value(v) for v in values)}){', ' + where if where else ''}, games with the "
                    "same seeds offered the same legal moves, made the same moves, showed the same cards and "
                    "variables and ended the same way.")
        if unknown:
            sentence += (f" (In {unknown} other combination{'s' if unknown > 1 else ''} of the other options the "
                         f"games were too long to compare: not over after {TRACE_LIMIT:,} decisions.)")
        f = Finding("dead-option", sentence, list(dict.fromkeys(rules)) or [o.name], self.path, _loc(o))
        if best is not None:
            seed = best[1]
            recs = []
            for label, v in ((f"{o.name}={_fmt_value(o.default)}", o.default), (f"{o.name}={_fmt_value(other)}", other)):
                cfg = _config(rs, n, {**defaults, o.name: v})
                _, s, moves, _ = self._trace(cfg, seed, keep=True)
                recs.append((label, make_record(s, self.path)))
            rec = recs[1][1]
            f.reproduction = Reproduction(self.path, n, rec["options"], seed, rec["moves"], rec,
                                          note=f"both records ({recs[0][0]} and {recs[1][0]}) replay the same "
                                               f"{len(rec['moves'])} moves to the same end",
                                          extra=[(recs[0][0], recs[0][1], None)],
                                          changed={o.name: other})
        self._option_findings.append(f)

    # ---------------------------------------------------------------- shrinking and findings
    def _record(self, cfg: Config, seed: int, moves: list, error: bool) -> dict:
        """The record of the game `moves` on (cfg, seed); with error, the last move fails."""
        if error and not moves:  # the set-up itself fails
            p = self.program
            opts = {o.name: v for o, v in zip(p.options, resolve_options(p, cfg.opts))}
            return {"format": engine.RECORD_FORMAT, "ruleset": self.path, "game": self.rs.name,
                    "players": cfg.players, "options": opts, "seed": seed, "moves": [],
                    "final": {"finished": False, "digest": None, "winners": None, "scores": None}}
        s = new_game(self.rs, cfg.players, cfg.opts, seed)
        upto = moves[:-1] if error else moves
        for m in upto:
            apply(s, Move(m.player, m.action, m.arg))
        rec = make_record(s, self.path)
        if error:
            last = moves[-1]
            rec["moves"].append({"player": seat_name(last.player), "move": str(last)})
            rec["final"] = {"finished": False, "digest": None, "winners": None, "scores": None}
        return rec

    def _shrink(self, hit: Hit) -> Hit:
        ev = hit.event
        best = hit
        best_key = (hit.cfg.size(), ev.at)
        if ev.kind == "no-end-in-sight" or (ev.kind in ("cards-not-conserved", "engine-crash") and not ev.error):
            return best  # the first needs NO_BOUND_LIMIT decisions in any game: nothing shorter shows it
        end = self.slice_end(0.5)
        orig = hit.cfg
        defaults = {o.name: o.default for o in self.rs.options}
        candidates = []
        for n in player_counts(self.rs):
            if n > orig.players:
                continue
            for opts in (defaults, orig.opts):
                c = _config(self.rs, n, opts)
                if c not in candidates:
                    candidates.append(c)
        candidates.sort(key=lambda c: (c.size(), c != orig))
        tries = SHRINK_SEEDS if hit.bot == "random" else SHRINK_SEEDS_SEEKER
        for cand in candidates:
            if cand.size() > best.cfg.size():
                break
            found = False
            for i in range(tries):
                if self.out_of_time(end):
                    return best
                seed = self.game_seed("shrink", ev.key, cand, i)
                game = self.play(cand, seed, hit.bot, stop_key=ev.key)
                e2 = game.events.get(ev.key)
                if e2 is None:
                    continue
                key = (cand.size(), e2.at)
                if key < best_key:
                    best, best_key = Hit(e2, cand, seed, hit.bot, list(game.moves[:e2.at]), hit.count), key
                found = True
            if found and cand.size() < orig.size():
                break
        return best

    def _findings(self) -> list[Finding]:
        out = list(self.static.findings)
        dynamic = sorted(self.hit_order, key=lambda k: KIND_ORDER.index(self.hits[k].event.kind))
        if dynamic:
            t0 = time.monotonic()
            for key in dynamic:
                hit = self.hits[key]
                small = self._shrink(hit)
                out.append(self._finding(small, hit.count))
            self.progress(f"fuzz {Path(self.path).name}: shrunk {len(dynamic)} finding(s), "
                          f"{time.monotonic() - t0:.2f} s")
        out.extend(self._never_fired())
        out.extend(self._advice_findings())
        out.extend(self._option_findings)
        out.sort(key=lambda f: KIND_ORDER.index(f.kind))
        return out

    def _finding(self, hit: Hit, count: int) -> Finding:
        ev = hit.event
        games = self.n_games
        seen = f" Seen in {count} of {games} games." if count > 1 else ""
        f = Finding(ev.kind, ev.sentence + seen, list(dict.fromkeys(ev.rules)), self.path, ev.location, count=count)
        try:
            rec = self._record(hit.cfg, hit.seed, hit.moves, ev.error)
        except CardRulesError as e:  # the prefix no longer replays: itself worth saying
            f.sentence += f" (The reproduction could not be rebuilt: {e.message}.)"
            return f
        note = ev.note
        try:
            replay(self.rs, json.loads(json.dumps(rec)), "<fuzz>")
            if ev.replay_fails:
                note += " (but it replayed without failing here: the failure may depend on more than the moves)"
        except (RecordError, GameRuntimeError):
            if not ev.replay_fails:
                note += " (but it did not replay here)"
        except Exception:
            pass
        f.reproduction = Reproduction(self.path, hit.cfg.players, rec["options"], hit.seed, rec["moves"], rec,
                                      note=note, changed={k: v for k, v in hit.cfg.options if k in hit.cfg.changed})
        return f

    def _never_fired(self) -> list[Finding]:
        out = []
        p = self.program
        rules = {}
        for node, ctx in self.static.used_code + [(pr, ("procedure", pr.name)) for pr in self.rs.procedures]:
            _walk(node, ctx, lambda n, c, s: rules.setdefault(n.name, (n, c)) if isinstance(n, g.Rule) else None)
        # a rule inside a rule: name the outer one too
        parents: dict = {}

        def nest(node, outer):
            if isinstance(node, g.Rule):
                parents[node.name] = outer
                outer = node.name
            for c in _children(node):
                nest(c, outer)
        for top in list(self.rs.phases) + list(self.rs.procedures):
            nest(top, None)
        unfired = set(self.unfired())
        record = None
        if unfired and self.shortest is not None:
            _, cfg, seed, bot, moves = self.shortest
            try:
                rec = self._record(cfg, seed, moves, False)
                record = Reproduction(self.path, cfg.players, rec["options"], seed, rec["moves"], rec,
                                      note="a complete game (the shortest played) in which the rule did not fire",
                                      changed={k: v for k, v in cfg.options if k in cfg.changed})
            except CardRulesError:
                record = None
        for k in sorted(unfired):
            name = p.rule_names[k]
            node = rules.get(name, (None, None))[0]
            title = p.rule_titles.get(name, name)
            hint = ""
            if name in self.static.rule_when_false:
                hint = " Its when condition is always false (see the constant-condition finding)."
            outer = parents.get(name)
            if outer is not None and p.rule_names.index(outer) in unfired:
                hint += f" It lies inside rule {outer!r}, which never fired either."
            advised = (f", {self.n_advised} of those by players following the ruleset's advice"
                       if self.n_advised else "")
            sentence = (f"Rule {name!r} ({title}{', ' + _line(node, self.path) if node is not None else ''}) never fired in "
                        f"{self.n_games} games over {len(self.configs)} configurations ({self.n_seeker} of them "
                        f"played by bots that seek rules that have not fired{advised}): no player "
                        f"reached it.{hint}")
            out.append(Finding("never-fires", sentence, [name] + ([outer] if outer else []), self.path,
                               _loc(node) if node is not None else None,
                               reproduction=dataclasses.replace(record) if record is not None else None))
        return out


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


# ====================================================================== front door

def fuzz_ruleset(path: str | Path, games: int | None = None, seconds: float | None = None, seed: int = 0,
                 progress: Callable[[str], None] | None = None, deadline: float | None = None) -> RulesetReport:
    """Fuzz one ruleset file; raises CardRulesError when it does not load."""
    from . import load_ruleset
    if games is None and seconds is None and deadline is None:
        games = DEFAULT_GAMES
    rs = load_ruleset(path)
    return Fuzzer(str(path), rs, games, seconds, seed, progress, deadline).run()


def write_reproductions(findings: list[Finding], out: Path, numbers: list[int]) -> None:
    """Write each finding's records under out (created only when there is one to write)."""
    for num, f in zip(numbers, findings):
        r = f.reproduction
        if r is None:
            continue
        out.mkdir(parents=True, exist_ok=True)
        stem = Path(f.ruleset).stem
        path = out / f"{stem}-{num:02d}-{f.kind}.json"
        write_record(r.record, path)
        r.path = str(path)
        extra = []
        for label, rec, _ in r.extra:
            safe = "".join(ch if ch.isalnum() or ch in "-_=" else "_" for ch in label)
            p2 = out / f"{stem}-{num:02d}-{f.kind}-{safe}.json"
            write_record(rec, p2)
            extra.append((label, rec, str(p2)))
        r.extra = extra


def _paragraph(num: int, f: Finding) -> str:
    wrap = textwrap.TextWrapper(width=100, subsequent_indent="   ", break_on_hyphens=False, break_long_words=False)
    lines = [wrap.fill(f"{num}. [{f.kind}] {f.sentence}")]
    if f.rules:
        lines.append(f"   rules involved: {', '.join(f.rules)}")
    if f.location:
        lines.append(f"   at: {f.location}")
    r = f.reproduction
    if r is not None:
        opts = ", ".join(f"{k}={_fmt_value(v)}" for k, v in r.changed.items())
        where = f"{r.path}" if r.path else "(not written)"
        n_moves = f"{len(r.moves)} move" + ("" if len(r.moves) == 1 else "s")
        lines.append(wrap.fill(f"   reproduction: {r.players} players, seed {r.seed}, {n_moves}"
                               + (f", options {opts}" if opts else "") + f": cardrules replay {where}"
                               + (f" -- {r.note}" if r.note else "")))
        for label, _, path in r.extra:
            lines.append(f"   and with {label}: cardrules replay {path}")
    return "\n".join(lines)


def _expand(paths: list[Path]) -> tuple[list[Path], list[str]]:
    files, errors = [], []
    for p in paths:
        if p.is_dir():
            found = sorted(p.rglob("*.cards"))
            if not found:
                errors.append(f"{p}: error: no .cards files in this folder")
            files.extend(found)
        else:
            files.append(p)
    return files, errors


def fuzz_command(
    paths: Annotated[list[Path], typer.Argument(help="Ruleset files (.cards), or folders to search for them.")],
    games: Annotated[int | None, typer.Option("--games", "-k", min=1, help=f"Games per configuration (player count x option combination); default {DEFAULT_GAMES} when --seconds is not given.")] = None,
    seconds: Annotated[float | None, typer.Option("--seconds", "-t", min=0.01, help="Time budget for the whole run, in seconds.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed; with --games only, the run is a function of it.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as one JSON object, and nothing else.")] = False,
    out: Annotated[Path, typer.Option("--out", help="Folder for the reproduction records (created only when there are findings).")] = Path("fuzz-findings"),
) -> None:
    """Hunt for inconsistencies in rulesets, by playing them and by reading them.

    Plays random and rule-seeking games for every player count and option combination,
    looking for deadlocks, endless games, runtime errors, cards lost, rules that never fire,
    options without effect, actions claiming the same move, records that do not replay and
    hidden cards leaking; and checks statically for unreachable phases, unused definitions
    and constant conditions. Findings go to standard output, progress to standard error;
    each dynamic finding comes with a shrunk record that `cardrules replay` re-runs. Exit 0
    when nothing is found, 1 with findings (or a ruleset that does not load)."""
    files, errors = _expand(paths)
    for e in errors:
        typer.echo(e, err=True)
    start = time.monotonic()
    deadline = start + seconds if seconds else None
    reports: list[RulesetReport] = []
    bad = bool(errors)
    progress = lambda text: typer.echo(text, err=True)
    for i, f in enumerate(files):
        slice_deadline = None
        if deadline is not None:
            now = time.monotonic()
            slice_deadline = now + max(0.0, deadline - now) / (len(files) - i)
        try:
            reports.append(fuzz_ruleset(f, games=games, seconds=None, seed=seed, progress=progress,
                                        deadline=slice_deadline))
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            bad = True
        except OSError as e:
            typer.echo(f"{f}: error: cannot read the ruleset: {e.strerror or e}", err=True)
            bad = True
    findings = [f for r in reports for f in r.findings]
    numbers = list(range(1, len(findings) + 1))
    try:
        write_reproductions(findings, out, numbers)
    except OSError as e:
        typer.echo(f"{out}: error: cannot write the reproductions: {e.strerror or e}", err=True)
        bad = True
    if as_json:
        data = {"rulesets": [r.to_json() for r in reports],
                "findings": [dict(number=n, **f.to_json()) for n, f in zip(numbers, findings)],
                "seconds": round(time.monotonic() - start, 3)}
        typer.echo(json.dumps(data, indent=2))
    else:
        num = 0
        for r in reports:
            head = (f"{r.path}: {len(r.findings) or 'no'} finding{'s' if len(r.findings) != 1 else ''} "
                    f"({r.configurations} configurations, {r.games} games of which {r.seeker_games} rule-seeking, "
                    f"{r.seconds:.1f} s)")
            typer.echo(head)
            for f in r.findings:
                num += 1
                typer.echo("")
                typer.echo(_paragraph(num, f))
            typer.echo("")
    raise typer.Exit(1 if findings or bad else 0)


# typer keeps the docstring's line breaks: give it each paragraph on one line
fuzz_command.__doc__ = "\n\n".join(" ".join(par.split()) for par in fuzz_command.__doc__.split("\n\n"))
