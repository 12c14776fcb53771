"""The checks made while a game is played (cards conserved, claims, what players see, leaks,
replay) and the events they report."""

from __future__ import annotations

import json
import random
import re

from .. import engine
from ..language import graph as g
from ..engine import (apply, make_record, Move, new_game, observe, observe_zones, replay, rule_at, seat_name, State,
                      state_digest)
from ..engine.legal import arg_text, compute_legal
from ..engine.truths import Memory
from ..errors import GameRuntimeError, GameTooLong, RecordError
from ..language.unparse import unparse
from .common import Event, Finding, Game

TRUTHS = 6  # possible truths drawn to confirm that a seat's legal moves depend on what it cannot know
TRUTH_TRIES = 2  # confirmations a game may ask for
TRUTH_DRAWS = 10  # draws for one truth the seat cannot rule out
from .static import _ctx_text, _line, _loc, _walk


class Checks:
    """The checks of `Fuzzer` (a mixin: the state it reads is set up by `Fuzzer.__init__`)."""

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
            elif v == "others":  # every seat but the owner (all of them, for a shared zone)
                for seat, own in enumerate(seen_own):
                    if seat != owner[inst]:
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
        args = [s.zone_names[x] if el == "zone" and hasattr(s, "zone_names") else arg_text(p, el, x)
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
            return compute_legal(t, t.choice, self._deciders(t))
        return compute_legal(t, t.choice)

    def _check_claims(self, game: Game, s: State, choice):
        each = getattr(choice, "each_slot", None)
        if s.native is not None:  # a game in C: the actions' conditions read its locals too
            s.native.sync_locals()
        t = s.clone() if each is not None else s  # evaluating for each decider sets a slot
        for player in self._deciders(s):
            if each is not None:
                t.slots[each] = player
                t.memo = {}
                t.cmemo = {}
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
        return g.sees(self.program.zones[s.zkind[inst]].visibility, s.zowner[inst], player)

    def _zone_text(self, s: State, inst: int) -> str:
        names = getattr(s, "zone_names", None)
        if names:
            return names[inst]
        z = self.program.zones[s.zkind[inst]]
        return z.name + (f"({seat_name(s.zowner[inst])})" if s.zowner[inst] is not None else "")

    def _check_observe(self, game: Game, s: State):
        """What each seat is shown: observe() whole for the first seat and each seat with a move
        (the rest of an observation is the same for every seat but their own moves), its zones
        (observe_zones, what observe() shows of them) for the others."""
        p = self.program
        deciders = self._deciders(s) if not s.finished and s.actor is not None else []
        whole = set(deciders)
        for k, player in enumerate(s.seats):
            try:
                zones = observe(s, player)["zones"] if k == 0 or player in whole else observe_zones(s, player)
            except Exception as e:
                game.add(self._ev_crash(s, e, None, during="observe"))
                return
            sees = game.sees.get(player)
            if sees is None:
                sees = game.sees[player] = [self._visible(s, inst, player) for inst in range(len(s.zones))]
            for name in _zone_strings(zones):
                c = self.card_index.get(name)
                if c is None:
                    continue
                inst = s.card_zone[c]
                if not (sees[inst] or s.known[c]):
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
                        if sees[inst] or s.known[c] or game.seen_all[c] \
                                or game.seen_own[player][c] or self._named_to(game, s, player, c):
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
        for player in deciders:
            self._check_permuted(game, s, player)

    def _named_to(self, game: Game, s: State, player: int, c: int) -> bool:
        """Whether a move `player` saw whole named card c (a card called aloud: Napoleon naming
        the card whose holder is his partner), so a variable holding it tells no more than the
        call did. Asked only of a variable the quick check flags; the game is replayed once for
        the seat (engine/truths.py keeps what it has seen, moves included)."""
        memory = game.memories.get(player)
        try:
            if memory is None or not memory.follows(s, player):
                memory = game.memories[player] = Memory(s, player)
            memory.catch_up(s)
        except Exception:
            return False
        return bool(memory.seen[c])

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
        """The legal moves of `player` must not depend on cards `player` cannot see. A game in C
        is judged there; the Python engine words a finding (and judges where C cannot)."""
        if ("hidden-leak", "legal", self._rule(s)[0]) in game.events:
            return  # (found in this game already)
        g = s.native
        if g is not None and g.permuted_differs(player, random.Random(f"{s.seed}/{len(s.history)}/{player}")) is False:
            return
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
            truly = self._moves_in_truths(game, s, player, before)
            if not truly:
                return  # no truth the seat cannot rule out offers other moves: no leak shown
            after = truly
            name, title = self._rule(s)
            gone = [m for m in before if m not in after][:3]
            new = [m for m in after if m not in before][:3]
            diff = "; ".join(x for x in (("now: " + ", ".join(gone)) if gone else "",
                                         ("rearranged: " + ", ".join(new)) if new else "") if x)
            unseen = {self.program.card_names[s.zones[inst][k]] for inst, k in spots}
            named = any(word in unseen for m in before for word in m.split()[1:])
            how = (" A move that names a card the player cannot see shows them which card it is: to let a "
                   "player pick a face-down card by where it lies, choose a zone instead (z in [a(p), b(p)], "
                   "or z in zones(family)) and act on top(z)." if named else "")
            game.add(Event("hidden-leak", ("hidden-leak", "legal", name), len(s.history),
                           f"The moves offered to {seat_name(player)} in rule {name!r} ({title}) depend on cards "
                           f"{seat_name(player)} cannot see: with the unseen cards of the other players' private "
                           f"zones and of hidden zones rearranged, the legal moves change ({diff}), so a player "
                           f"learns hidden cards from what they may do.{how}", [name],
                           note=f"the replayed state is the decision of {seat_name(player)}"))

    def _moves_in_truths(self, game: Game, s: State, player: int, before: list) -> list | None:
        """The legal moves of `player` in a possible truth (engine/truths.py: the hidden cards
        renamed in the deal and the game replayed, the table looking the same to the seat) where
        they differ from `before`; [] when TRUTHS such truths were drawn and none differs (a
        rearrangement that differed was one the seat could rule out, as a King not turned up where
        every King is turned up); None when no consistent truth is found, or the game has asked
        for truths TRUTH_TRIES times (a real leak is confirmed at its first sighting, where the
        game is young and truths are quickly drawn)."""
        if game.truth_tries >= TRUTH_TRIES:
            return None
        game.truth_tries += 1
        memory = game.memories.get(player)
        try:
            if memory is None or not memory.follows(s, player):
                memory = game.memories[player] = Memory(s, player)
            memory.catch_up(s)
            rng = random.Random(f"{s.seed}/{len(s.history)}/{player}/truths")
            drawn = 0
            for _ in range(TRUTHS):
                t = memory.truth(s, player, rng, fallback=False, tries=TRUTH_DRAWS)
                if t is None:
                    break
                drawn += 1
                moves = sorted(str(m) for m in engine.legal_moves(t) if m.player == player)
                if moves != before:
                    return moves
        except Exception:
            return None
        return [] if drawn else None

    def _check_leak(self, game: Game, s: State):
        p = self.program
        for zname, z in self.static.leak_zones.items():
            zi = p.zone_index.get(zname)
            if zi is None:
                continue
            count = s.zcount[zi] if hasattr(s, "zcount") else (s.n_players if z.per_player else 1)
            # a card some player saw (in their hand, face up, in a public zone) went out of play as a
            # discard does: that player knows it left, so the game kept a trace of it. The players'
            # views are taken at decisions only, so a card also counts as seen when a player put it
            # there from one of their own zones (`played_by`): cards dealt, played and gathered by
            # the rules between two decisions passed through someone's hand
            seen_all, seen_own, played_by = game.seen_all, game.seen_own, s.played_by
            cards = [c for k in range(count) for c in s.zones[s.zbase[zi] + k]
                     if not (seen_all[c] or played_by[c] is not None or any(own[c] for own in seen_own))]
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
                           f"({z.visibility}){by}, which no rule reads, no score counts and no player can see, "
                           "and no player ever saw them: they leave the game without trace. If that is meant, "
                           "name the zone in a rule or the score, or make it public.", rules,
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
                def one(elem, domain):
                    return f"a set of cards of {unparse(domain)}" if elem == "cards" else f"a {elem} in {unparse(domain)}"
                need = one(alt.elem, node.domain) + "".join(
                    f" and {one(m[1], x.domain)}" for m, x in zip(alt.more, node.more)) + (
                    f" with {unparse(node.where)}" if node.where is not None else "")
                reasons.append(f"action {alt.name!r} needs {need}, and there is none")
        rules = [name] + ([ch.rule] if ch.rule and ch.rule != name else [])
        return Event("deadlock", ("deadlock", self.choice_index.get(id(ch))), len(s.history),
                     f"In rule {name!r} ({title}), {seat_name(s.actor)} must choose but has no legal move, and the "
                     f"game is not over: {'; '.join(reasons) or 'no action applies'} "
                     f"(the choice at {_loc(ch.node)}). Nothing lets play go on.", rules,
                     note=f"the replayed game stops where {seat_name(s.actor)} has no legal move",
                     location=_loc(ch.node))

    def _ev_bound(self, s: State, limit: int, declared: bool, e: GameTooLong | None = None) -> Event:
        """A game longer than its bound; `e`: the engine stopped it there (GameTooLong: its bound,
        or the engine's default cap, at the move that asked for one decision more), so the last
        move of the reproduction fails on replay, as an endless loop's does."""
        name, title = self._rule(s)
        top = sorted(((n, r) for r, n in zip(self.program.rule_names, s.fired) if n), reverse=True)[:3]
        most = ", ".join(f"{r!r} {'once' if n == 1 else f'{n} times'}" for n, r in top) or "none"
        stopped = {}
        if e is not None:
            stopped = dict(error=True, replay_fails=True, note="replaying the record stops with the same failure",
                           location=f"{e.file}:{e.line}:{e.column}" if e.file and e.line else None)
        if declared:
            if e is not None:
                how = f"it was still running after {s.decisions} decisions, and rule {name!r} ({title}) asked for another"
            else:
                how = (f"{'it was still running' if not s.finished else 'it ended only'} after {s.decisions} "
                       f"decisions, in rule {name!r} ({title})")
            return Event("exceeds-bound", ("exceeds-bound",), len(s.history),
                         f"A game went past its declared bound ('at most {limit} decisions'): {how}; the rules fired "
                         f"most in it: {most}.", [name] + [r for _, r in top if r != name],
                         **(stopped or dict(note=f"the replayed game has {s.decisions} decisions"
                                                 + ("" if s.finished else " and is not over"))))
        self.no_end_seen = True
        return Event("no-end-in-sight", ("no-end-in-sight",), len(s.history),
                     f"A game was not over after {s.decisions:,} decisions (the ruleset declares no bound; add "
                     f"'at most N decisions' if it has one): it was in rule {name!r} ({title}); the rules fired "
                     f"most in it: {most}.", [name] + [r for _, r in top if r != name],
                     **(stopped or dict(note="the replayed game is still running")))

    def _ev_error(self, s: State | None, e: GameRuntimeError, m: Move | None, when: str | None = None) -> Event:
        name, title = self._rule(s) if s is not None else ("(set-up)", "setting up the game")
        at = len(s.history) if s is not None else 0
        when = when or (f"playing {seat_name(m.player)}'s move '{m}'" if m is not None else "setting up the game")
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


_SEEN = frozenset({"cards", "count", "known", "told"})  # the keys of what observe() shows of one zone


def _zone_strings(zones) -> list:
    """_strings of observe()'s zones, in the same order, walking the shape observe() gives (each
    zone what a seat sees of it, or one such per seat or per number; _strings where it is not that
    shape): the fuzzer's observation check reads every observation it takes."""
    out: list = []
    for view in zones.values():
        if type(view) is not dict:
            return _strings(zones)
        for seen in ((view,) if view.keys() <= _SEEN else view.values()):
            if type(seen) is not dict or not seen.keys() <= _SEEN:
                return _strings(zones)
            for key, v in seen.items():
                if key == "count":
                    continue
                for x in v:
                    if type(x) is str:
                        out.append(x)
                    elif type(x) is dict and all(type(w) is str for w in x.values()):
                        out.extend(x.values())
                    else:
                        return _strings(zones)
    return out


def _strings(x, out: list | None = None) -> list:
    """Every string in a nested observation, in order."""
    if out is None:
        out = []
    if isinstance(x, str):
        out.append(x)
    elif isinstance(x, dict):
        for v in x.values():
            _strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _strings(v, out)
    return out
