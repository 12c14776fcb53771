"""Does each option change play? Games traced with the same seeds for each of its values."""

from __future__ import annotations

import random
import time
from pathlib import Path

from .. import engine
from ..language import graph as g
from ..engine import apply, make_record, outcome
from ..compiler import compile_ruleset
from ..engine.play import _fresh, _run, program_of
from ..errors import CardRulesError
from .common import (Config, Finding, OPTION_EXTRA_COMBOS, OPTION_MORE_SEEDS, OPTION_SEEDS, OPTION_TOGETHER, Reproduction, TRACE_LIMIT, _config,
                     _fmt_value, option_values, player_counts)
from .static import _ctx_text, _line, _loc


class _ReadOptions(list):
    """A game's option values that count how often the rules read each: the Python engine reads
    an option where the rules reach it (`st.opts[i]`), so an option never read in a game was not
    put to the test by it, whatever its value. Under the probe program (compile_ruleset's
    `probe`) it also counts the reads outside any test (`bare`), and logs the value of each
    outermost test in which the option `watch` was read: two games whose logs agree and which
    read it nowhere else never let the option decide anything."""

    def __init__(self, values, watch: int | None = None):
        super().__init__(values)
        self.reads = [0] * len(values)
        self.bare = [0] * len(values)
        self.watch = watch
        self.pins: list[int] = []  # the open tests: the watched option's reads when each began
        self.log: list = []

    def __getitem__(self, i):
        self.reads[i] += 1
        if not self.pins:
            self.bare[i] += 1
        return list.__getitem__(self, i)

    def pin(self) -> None:
        self.pins.append(self.reads[self.watch] if self.watch is not None else 0)

    def tested(self, k: int, value) -> None:
        began = self.pins.pop()
        # only the outermost test counts: in `(opt and a) and b` the inner part may change with
        # the option while the whole test never does
        if not self.pins and self.watch is not None and self.reads[self.watch] > began:
            self.log.append((k, value))


class OptionEffects:
    """The option-effect check of `Fuzzer` (a mixin)."""

    _plain = None  # the plain evaluator's program, compiled when an option is about to be called dead

    # ---------------------------------------------------------------- options
    def _trace(self, cfg: Config, seed: int, keep: bool = False, program=None, watch: int | None = None):
        """A fingerprint of one game played by a bot that picks from the sorted legal moves:
        per decision the actor, the sorted legal moves, the cards face up and the public
        variables; then the outcome and each zone's cards (as sets). Also the state (with
        keep), the moves, whether the game came to an end within TRACE_LIMIT decisions, and the
        options the rules read in it (their names)."""
        h = []
        moves = []
        try:
            s = _fresh(program or self.program, cfg.players, cfg.opts, seed)
            s.opts = _ReadOptions(s.opts, watch)
            _run(s)
        except CardRulesError as e:
            if watch is not None:
                return 0, 0, [("error", e.message)]
            return (("error", e.message),), None, [], True, frozenset()
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
                if watch is None:  # (the probe's replays want the reads alone, not the fingerprint)
                    h.append((s.actor, tuple((m.player, str(m)) for m in legal), tuple(s.known),
                              repr(engine.public_vars(s)) if hasattr(engine, "public_vars") else repr(s.slots)))
                m = legal[rng.randrange(len(legal))]
                moves.append(m)
                apply(s, m)
        except CardRulesError as e:
            h.append(("error", e.message))
        if watch is not None:  # the probe program: how the option under test was put to the test
            return s.opts.reads[watch], s.opts.bare[watch], s.opts.log
        o = outcome(s)
        h.append((s.finished, (o.winners, o.scores) if o else None,
                  tuple(tuple(sorted(z)) for z in s.zones), tuple(s.known)))
        read = frozenset(o.name for o, n in zip(self.rs.options, s.opts.reads) if n)
        return tuple(h), (s if keep else None), moves, done, read

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
        read_in: list[int] = [0]  # game pairs compared in which the rules read the option under test

        def trace(cfg, seed):
            key = (cfg, seed)
            if key not in cache:
                h, _, _, done, read = self._trace(cfg, seed)
                cache[key] = (h, done, read)
            return cache[key]

        def compare(base: dict, o: g.Option, values, seeds: range) -> str:
            """'differs', 'same' (every game compared to its end) or 'unknown'."""
            unknown = False
            for v in values:
                if v == base[o.name]:
                    continue
                for n in counts:
                    for i in seeds:
                        if self.out_of_time():
                            return "unknown"  # --seconds is up
                        if i > seeds.start and self.out_of_time(end):
                            break
                        seed = self.game_seed("option", n, i)
                        compared.append((n, base, v, seed))
                        a, da, ra = trace(_config(rs, n, base), seed)
                        b, db, rb = trace(_config(rs, n, {**base, o.name: v}), seed)
                        if a != b:
                            return "differs"
                        read_in[0] += o.name in ra or o.name in rb
                        if not (da and db):
                            unknown = True
            return "unknown" if unknown else "same"

        for o in rs.options:
            if o.name in self.static.dead_options:
                continue
            values = option_values(o, probe=True)
            if len(values) < 2:  # no other value to try: nothing is proved either way
                continue
            read_in[0] = 0
            compared: list = []  # (players, base options, other value, seed) of each game pair compared
            if compare(defaults, o, values, range(k_seeds)) != "same":
                continue
            if read_in[0] < k_seeds:  # the rules seldom reach it: more games before any verdict
                if compare(defaults, o, values, range(k_seeds, k_seeds * OPTION_MORE_SEEDS)) != "same":
                    continue
            # the options read together with it first (a mercy rule's switch and its threshold),
            # each at its other values, then a few of the configurations played
            together = self._together(o, defaults)
            others = [c.opts for c in self.configs if c.changed and c.changed != (o.name,)]
            bases = together[:OPTION_TOGETHER] + others[:OPTION_EXTRA_COMBOS]
            verdicts = [compare(base, o, values, range(k_seeds)) for base in bases]
            if "differs" in verdicts:
                continue
            if not read_in[0]:
                # no game compared ever read it: never put to the test, which proves nothing
                # either way (an option of a rare situation): told, not a finding
                self.untried[f"option {o.name!r}"] = (f"no game compared read it ({len(values)} values, "
                                        f"{k_seeds * OPTION_MORE_SEEDS} seeds per player count)")
                self.progress(f"fuzz {Path(self.path).name}: option {o.name!r} made no difference, but no game "
                              "compared ever read it: not put to the test")
                continue
            if not self._read_in_plain(o, compared):
                # the option was read, but only in tests that came out the same at each of its
                # values (or, on the fast path, ahead of the conditions it stands behind): it
                # never decided anything, so it was never put to the test, as above
                self.untried[f"option {o.name!r}"] = ("read only in tests that came out the same at each of its values "
                                                      f"({len(compared)} pairs of games compared)")
                self.progress(f"fuzz {Path(self.path).name}: option {o.name!r} made no difference, and no test "
                              "that reads it ever came out otherwise: not put to the test")
                continue
            self._dead_option(o, counts, k_seeds, defaults, verdicts.count("same"), verdicts.count("unknown"),
                              read_in[0])
        self.progress(f"fuzz {Path(self.path).name}: option effects checked ({len(rs.options)} option(s)), "
                      f"{time.monotonic() - t0:.2f} s")

    def _read_in_plain(self, o: g.Option, compared: list) -> bool:
        """Whether the option decided anything in the games compared, played by the plain
        evaluator's probe program: it tests a condition's parts in the order they are written,
        so it reads an option only where the tests before it hold; and an option counts as put
        to the test only where it is read outside any test (its value used as such), or where a
        test that reads it came out otherwise at its other value (`one_suit and ...` in games
        where no hand was of one suit never did)."""
        if self._plain is None:
            self._plain = program_of(compile_ruleset(self.rs, fast=False, probe=True))
        i = next(k for k, q in enumerate(self.rs.options) if q.name == o.name)
        for n, base, v, seed in compared:
            if self.out_of_time():
                return True  # not looked at to the end: the finding stands
            (ra, ba, la), (rb, bb, lb) = (self._trace(_config(self.rs, n, opts), seed, program=self._plain, watch=i)
                                          for opts in (base, {**base, o.name: v}))
            if ba or bb or ((ra or rb) and la != lb):
                return True
        return False

    def _read_with(self, o: g.Option) -> list[g.Option]:
        """The other options read in a definition or rule that reads o."""
        mine = {c for c, _ in self.static.option_reads.get(o.name, [])}
        return [q for q in self.rs.options if q.name != o.name
                and mine & {c for c, _ in self.static.option_reads.get(q.name, [])}]

    def _together(self, o: g.Option, defaults: dict) -> list[dict]:
        """Combinations with one option read beside o at another value: the options taken in
        turn (a threshold's extreme values as soon as a switch's), OPTION_TOGETHER at most."""
        rows = [[{**defaults, q.name: v} for v in option_values(q, probe=True)[1:]] for q in self._read_with(o)]
        out = []
        for i in range(max((len(r) for r in rows), default=0)):
            for r in rows:
                if i < len(r):
                    out.append(r[-1 - i])  # the last value first: the extreme one (1, or the range's end)
        return out[:OPTION_TOGETHER]

    def _dead_option(self, o: g.Option, counts, k_seeds, defaults, same: int = 0, unknown: int = 0, read: int = 0):
        rs = self.rs
        n = counts[0]
        best = None
        for i in range(k_seeds):
            seed = self.game_seed("option", n, i)
            _, s, moves, done, _ = self._trace(_config(rs, n, defaults), seed, keep=True)
            if s is not None and done and (best is None or len(moves) < best[0]):
                best = (len(moves), seed)
        values = option_values(o, probe=True)
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
                    f"it is read ({read_text}) and the rules reached it in {read} of the games compared, but for every "
                    f"player count and each of its values "
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
                _, s, moves, _, _ = self._trace(cfg, seed, keep=True)
                recs.append((label, make_record(s, self.path)))
            rec = recs[1][1]
            f.reproduction = Reproduction(self.path, n, rec["options"], seed, rec["moves"], rec,
                                          note=f"both records ({recs[0][0]} and {recs[1][0]}) replay the same "
                                               f"{len(rec['moves'])} moves to the same end",
                                          extra=[(recs[0][0], recs[0][1], None)],
                                          changed={o.name: other})
        self._option_findings.append(f)
