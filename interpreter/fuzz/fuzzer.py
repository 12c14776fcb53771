"""Playing the fuzzer's games: the `Fuzzer` and the phases of a run (the main games for every
configuration, the hunt for rules that have not fired, then the option check and shrinking)."""

from __future__ import annotations

import time
import zlib
from pathlib import Path
from typing import Callable

from .. import engines
from ..language import graph as g
from ..engine import apply, counted, observe, offered, program_of
from ..engine import outcome as engine_outcome
from ..errors import GameRuntimeError, GameTooLong
from .common import (Config, Event, Game, Hit, NO_BOUND_AFTER, NO_BOUND_LIMIT, OBSERVE_EARLY, OBSERVE_EVERY,
                     RulesetReport, _config, configurations, option_values, player_counts)
from .static import Static
from .aims import compile_aims, rule_conditions
from .players import BOT_KINDS
from .invariants import Checks
from .options import OptionEffects
from .shrink import Shrinking

HEARTBEAT = 30.0  # seconds between the lines of a configuration whose games are long (Tichu: minutes)


def _fresh(s):
    """s, its view brought up to date from C first when it is a game in C (a finding reads it)."""
    if s.native is not None:
        s.native.sync()
    return s


def native_for(rs, engine: str, say: Callable[[str], None] | None = None, name: str = ""):
    """The NativeProgram a ruleset is fuzzed on: under --engine native (an OptionError with the
    one line when it cannot be built) or auto (where this machine builds it); None under python,
    and under auto where it cannot be built: the same findings either way, and `say` is told why
    (the command's first line said native: Bezique's 64-card sets played in Python unsaid)."""
    if engine == "python":
        return None
    choice = engines.choose(program_of(rs), engine, players=True)
    if choice.native is None and say is not None:
        say(f"fuzz {name or rs.name}: {choice.line}")
    return choice.native


class Fuzzer(Checks, OptionEffects, Shrinking):
    def __init__(self, path: str, rs: g.Ruleset, games: int | None, seconds: float | None, seed: int,
                 progress: Callable[[str], None] | None = None, deadline: float | None = None, native=None):
        self.path = path
        # the native engine (its NativeProgram) the games are played on, or None: Python. The same
        # games and findings: a failure in C is worded by the Python engine (the game played
        # again there), and shrinking, the option check and reproductions are Python's
        self.native = native
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
        self.var_info = [(v, slot) for v, (name, slot, _) in zip(rs.vars, p.vars)
                         if v.type in ("card", "cards") and not v.private]  # a private one is in no view
        self._set_cache: dict = {}
        self._option_findings: list = []
        self.untried: dict[str, str] = {}  # options and rules the fuzzer could not put to the test
        self.aims: list = []  # while hunting: the conditions of the unfired rules (aims.Aim)
        self.hunting = False
        self.scripts: dict[int, list] = {}  # seed -> the line a search found (reach.py), played by "solved"
        self.n_solved = 0   # deals searched for an unfired rule's line
        self.hits: dict[tuple, Hit] = {}
        self.hit_order: list[tuple] = []
        self.n_games = 0
        self.n_seeker = 0
        self.no_end_seen = False
        self.shortest: tuple | None = None   # (size key, cfg, seed, bot, moves) of a finished game
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
             observe_all: bool = False, stop_key: tuple | None = None, python: bool = False) -> Game:
        game = Game(cfg, seed, bot, stop_key=stop_key)
        native = None if python else self.native
        try:
            s = engines.new_game(self.rs, cfg.players, cfg.opts, seed, engine=native)
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
        nc = self.program.n_cards
        game.seen_all = bytearray(nc)
        game.seen_rows = bytearray(nc * len(s.seats))
        rows = memoryview(game.seen_rows)
        game.seen_own = [rows[k * nc:(k + 1) * nc] for k in range(len(s.seats))]
        self._look(game, s, observe=True)
        if self.advice_seen:
            self._note_advice(s)
        deadline = self.deadline
        while not s.finished and not game.stopped:
            if deadline is not None and time.monotonic() > deadline:
                game.abandoned = True  # --seconds is up: the game proves nothing either way
                break
            entries = offered(s)
            if not entries:
                game.add(self._ev_deadlock(_fresh(s)))
                break
            if not declared and s.decisions >= limit:
                game.add(self._ev_bound(_fresh(s), limit, declared))
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
            except GameTooLong as e:  # the engine stops a game at its bound (or its default cap)
                game.add(self._ev_bound(_fresh(s), e.decisions, e.declared, e))
                break
            except GameRuntimeError as e:
                game.add(self._ev_error(_fresh(s), e, m))
                break
            except Exception as e:
                game.add(self._ev_crash(_fresh(s), e, m))
                break
            if declared and s.decisions > limit:
                game.add(self._ev_bound(_fresh(s), limit, declared))
                break
            i = s.decisions
            observe = observe_all or i < OBSERVE_EARLY or i % OBSERVE_EVERY == 0 or s.finished
            self._look(game, s, observe)
            if observe and self.advice_seen:
                self._note_advice(s)
        _fresh(s)  # what is read of the game from here on (rules fired, the leak and replay checks) is the view's
        if s.finished and not game.stopped:
            try:
                engine_outcome(s)
            except GameRuntimeError as e:  # a score that cannot be worked out at the end
                game.add(self._ev_error(s, e, None, when="working out the result at the end of the game"))
        if s.finished and not game.stopped:
            self._check_leak(game, s)
        if replay_check and not game.stopped and not game.abandoned and not any(ev.error for ev in game.events.values()):
            self._check_replay(game, s)
        return game

    def _look(self, game: Game, s, observe: bool) -> None:
        """The checks after a move: what the players have seen remembered, the cards checked, and
        (`observe`) what each seat is shown. A game in C is checked there (NativeGame.cards_check,
        .remember) and its view brought up to date only where the Python checks read it: to
        observe, to test a choice whose actions may claim one move twice, at the end, or to word
        a finding; the same findings as on the Python engine."""
        g = s.native
        if g is not None and not (observe or s.finished or (s.choice is not None and id(s.choice) in self.dup_choices)):
            if g.cards_check() == 0:
                g.remember(game.seen_all, game.seen_rows)
                return
            g.sync()
            before = len(game.events)
            self._remember(game, s)
            self._check(game, s, observe=False)
            if len(game.events) == before:  # C's bookkeeping is broken where the view (rebuilt from the zones) is not
                name, title = self._rule(s)
                game.add(Event("cards-not-conserved", ("cards-not-conserved",), len(s.history),
                               f"Cards were created or lost after {len(s.history)} moves, in rule {name!r} ({title}): "
                               "the native engine's indexes of the cards disagree with its zones (crt_cards_check). "
                               "The engine moves cards between zones, so this is an engine bug.", [name],
                               note="the replayed state shows the inconsistency"))
            return
        if g is not None:
            g.sync()
        self._remember(game, s)
        self._check(game, s, observe=observe)

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
            said = t0  # (the last line: a configuration of long games says how it goes every HEARTBEAT s)
            while True:
                if self.games is not None and k >= self.games:
                    break
                if k > 0 and (self.out_of_time(cfg_end) or self.out_of_time()):
                    break
                if k == 0 and self.out_of_time() and ci > 0:
                    break
                bot = "random" if k % 2 == 0 else "seeker"
                game = self.play(cfg, self.game_seed("main", ci, k), bot, stats=True, replay_check=k < 2)
                found = self._absorb(game, True)
                new += found
                k += 1
                seekers += bot == "seeker"
                for key in self.hit_order[len(self.hit_order) - found:]:  # said at once: shrinking comes at the end
                    hit = self.hits[key]
                    self.progress(f"fuzz {name} [{ci + 1}/{n_cfg}] {cfg.label()}: found [{hit.event.kind}] in game {k} "
                                  f"(seed {hit.seed}, {counted(hit.event.at, 'move')}; made smaller at the end): "
                                  f"{hit.event.sentence}")
                now = time.monotonic()
                if now - said >= HEARTBEAT:
                    said = now
                    self.progress(f"fuzz {name} [{ci + 1}/{n_cfg}] {cfg.label()}: {counted(k, 'game')} so far, "
                                  f"{now - t0:.0f} s")
            self.n_games += k
            self.n_seeker += seekers
            if self.games is not None and k < self.games:  # (the time budget ran out first)
                report.cut_short += 1
            self.progress(f"fuzz {name} [{ci + 1}/{n_cfg}] {cfg.label()}: {counted(k, 'game')} ({seekers} rule-seeking), "
                          f"{time.monotonic() - t0:.2f} s" + (f", {new} new finding(s)" if new else ""))
        self._hunt()
        self._option_check()
        report.findings = self._findings()
        report.games, report.seeker_games = self.n_games, self.n_seeker
        report.asked = self.games
        report.seconds = time.monotonic() - self.start
        report.fired = {r: n for r, n in zip(self.program.rule_names, self.fired_total)}
        report.untried = dict(self.untried)
        return report

    def _solve(self, end: float | None):
        """Search whole games for a line that fires a rule still unfired (reach.py), and play
        each line found as a game: a rule that needs a plan, as winning a patience does."""
        from .reach import deals, search
        t0 = time.monotonic()
        found = 0
        dealt = {self.program.rule_names.index(r) for r in self.static.setup_rules() if r in self.program.rule_names}
        for cfg, seed in deals(self):
            wanted = set(self.unfired()) - dealt  # (no line of play reaches a rule only the deal fires)
            if not wanted or self.out_of_time(end):
                break
            self.n_solved += 1
            line = search(self.rs, cfg, seed, wanted, out_of_time=lambda: self.out_of_time(end))
            if line is None:
                continue
            self.scripts[seed] = line
            game = self.play(cfg, seed, "solved", stats=True)
            self._absorb(game, True)
            self.n_games += 1
            found += 1
        if self.n_solved:
            self.progress(f"fuzz {Path(self.path).name}: searched {self.n_solved} deal(s) for a line to the rules that had "
                          f"not fired, {found} found, {time.monotonic() - t0:.2f} s")

    def _probe_configs(self, rules: list[str]) -> list:
        """Configurations with an option that an unfired rule's condition reads (directly or
        through definitions) at its other values, those of a whole number with no range
        included: `when deals == max_rounds` fires only at a limit that play reaches."""
        conds = rule_conditions(self.rs)
        read: set = set()
        for r in rules:
            if r in conds:
                read |= self.static.reads_through(conds[r])
        defaults = {o.name: o.default for o in self.rs.options}
        out = []
        for o in self.rs.options:
            if o.name in read:
                for v in option_values(o, probe=True)[1:]:
                    for n in player_counts(self.rs):
                        cfg = _config(self.rs, n, {**defaults, o.name: v})
                        if cfg not in self.configs and cfg not in out:
                            out.append(cfg)
        return out

    def _hunt(self):
        """More rule-seeking games while some rule has not fired yet."""
        if not self.unfired():
            return
        end = self.slice_end(0.35)
        budget = self.games if self.games is not None else None
        t0 = time.monotonic()
        names = self.program.rule_names
        unfired = [names[k] for k in self.unfired()]
        self.aims = compile_aims(self.rs, unfired, names)
        self.hunting = True
        configs = self._probe_configs(unfired) + self.configs
        k = 0
        while self.unfired():
            if budget is not None and k >= budget:
                break
            if self.out_of_time(end) or (budget is None and end is None):
                break
            cfg = configs[k % len(configs)]
            # with advice, every other hunting game is played by players pursuing the game's goal
            kind = "advised" if self.program.advice and k % 2 else "seeker"
            game = self.play(cfg, self.game_seed("hunt", k), kind, stats=True)
            self._absorb(game, True)
            self.n_advised += kind == "advised"
            k += 1
        self.aims, self.hunting = [], False
        self.n_games += k
        self.n_seeker += k
        left = [self.program.rule_names[i] for i in self.unfired()]
        self.progress(f"fuzz {Path(self.path).name}: {k} more rule-seeking games for rules that had not fired, "
                      f"{time.monotonic() - t0:.2f} s" + (f"; still unfired: {', '.join(left)}" if left else ""))
        if self.unfired() and self.program.advice and (budget is not None or end is not None):
            self._solve(end)
