"""Shrinking each dynamic finding to a small reproduction, and turning hits into findings."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from .. import engine
from ..language import graph as g
from ..engine import apply, make_record, Move, new_game, replay, resolve_options, seat_name
from ..errors import CardRulesError, GameRuntimeError, RecordError
from .common import (Config, Finding, Hit, KIND_ORDER, Reproduction, SHRINK_SEEDS, SHRINK_SEEDS_SEEKER, SOLVE_NODES,
                     _config, player_counts)
from .static import _children, _line, _loc, _walk


class Shrinking:
    """Shrinking and findings, of `Fuzzer` (a mixin)."""

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
                game = self.play(cand, seed, hit.bot, stop_key=ev.key, python=True)  # reproductions: Python's
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
        # a rule played before any decision is the deal's to fire, not a player's: no play can
        # reach it, and not firing in these deals proves nothing either way (a hand dealt complete)
        for k in sorted(unfired):
            name = p.rule_names[k]
            if name in self.static.setup_rules() and name not in self.static.rule_when_false:
                self.untried[f"rule {name!r}"] = (f"it is played before anyone decides anything, so only the deal "
                                                  f"can fire it, and none of the {self.n_games} deals did")
                unfired.discard(k)
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
            if self.n_solved:
                advised += (f"; and a search of {self.n_solved} deal{'s' if self.n_solved != 1 else ''}, "
                            f"up to {SOLVE_NODES:,} positions each, by that advice found no line to it")
            sentence = (f"Rule {name!r} ({title}{', ' + _line(node, self.path) if node is not None else ''}) never fired in "
                        f"{self.n_games} games over {len(self.configs)} configurations ({self.n_seeker} of them "
                        f"played by bots that seek rules that have not fired{advised}): no player "
                        f"reached it.{hint}")
            out.append(Finding("never-fires", sentence, [name] + ([outer] if outer else []), self.path,
                               _loc(node) if node is not None else None,
                               reproduction=dataclasses.replace(record) if record is not None else None))
        return out
