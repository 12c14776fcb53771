"""The fuzzer's players: uniform random ones, rule seekers that look one move ahead for
rarely fired rules, and advised players that pursue the ruleset's advice."""

from __future__ import annotations

import random

from ..engine import advice as engine_advice, apply, Move, offered, State
from .aims import gap, holds
from .common import SEARCH_DEPTH, SEARCH_GAME_NODES, SEARCH_NODES, SEEK_AIM, SEEK_RANDOM, SEEK_SAMPLE


# ====================================================================== bots

class RandomPlayer:
    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0x5EED)

    def choose(self, s: State, fz) -> Move:
        return self.rng.choice(s._legal)


def _lookahead(s: State) -> State:
    """A copy to try one move on: the look-ahead needs no history, so it is not copied."""
    history, s.history = s.history, []
    try:
        return s.clone()
    finally:
        s.history = history


def _fired(s: State) -> list:
    """How often each rule has fired; of a game in C, read from C (the rest of its view is not
    needed for the look-ahead, so it is not brought up to date)."""
    g = s.native
    if g is None:
        return s.fired
    return g.fired()


def _gaps(s: State, fz) -> dict[int, int]:
    """How far each aim's comparison is from holding now (on a copy of s)."""
    if not any(a.sides for a in fz.aims):
        return {}
    c = _lookahead(s)
    if c.native is not None:
        c.native.sync()
    out = {}
    for a in fz.aims:
        d = gap(a, c) if fz.fired_total[a.rule] == 0 else None
        if d is not None:
            out[a.rule] = d
    return out


def _aimed(c: State, fz, fired: list, before: dict, hit: bool) -> float:
    """What the look-ahead c is worth for the unfired rules' conditions: 1 for each that holds
    there, 0.5 for each comparison brought closer to holding, -1 for each left behind by a game
    that ended without firing any unfired rule (`hit`: one fired in c, counted as a firing)."""
    if c.native is not None:
        c.native.sync()  # the conditions are tested on the Python view
    total = 0.0
    for a in fz.aims:
        if fz.fired_total[a.rule] or fired[a.rule]:
            continue
        if c.finished:
            total -= 0.0 if hit else 1.0
        elif holds(a.test, c):
            total += 1.0
        elif a.rule in before:
            now = gap(a, c)
            if now is not None and now < before[a.rule]:
                total += 0.5
    return total


class RuleSeeker:
    """One move of look-ahead on a clone; prefers moves that fire rules fired least so far
    (over every game of this fuzz run), take actions taken least, offer actions offered
    least, or end in a failure (no legal move, a runtime error). While the fuzzer hunts for
    rules that have not fired (`fz.hunting`), it also prefers moves after which such a rule's
    condition holds or comes closer to holding (`fz.aims`, aims.py), and when no move fires
    one, searches a few moves deep for a line that does (SEARCH_DEPTH, within a budget of
    positions per decision and per game): so that a line of play several moves long leads
    to a rare rule."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0x5EEC)
        self.budget = SEARCH_GAME_NODES

    def choose(self, s: State, fz: "Fuzzer") -> Move:
        entries = offered(s)
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
        fired_now = _fired(s)
        unfired = [k for k, n in enumerate(fz.fired_total) if n == 0] if fz.hunting else []
        before = _gaps(s, fz) if fz.aims else {}
        best, best_score = [], None
        reached = False  # some move fires an unfired rule
        # a game in C weighs the moves there (the same scores) unless the aims' conditions are read
        tried = s.native.try_moves(picks) if s.native is not None and not fz.aims else None
        for j, i in enumerate(picks):
            m, alt, _ = entries[i]
            score = 0.5 / (1 + fz.alt_taken.get(id(alt), 0))
            c = None
            if tried is not None:  # what the move leads to, from C ...
                failed, finished, n_legal, choice, mask, fired_c = tried[j]
                alts = [] if failed or finished else \
                    [a for k, a in enumerate(s.program.choices[choice].alts) if mask >> k & 1]
            else:  # ... or played on a copy here
                c = _lookahead(s)
                try:
                    apply(c, m)
                    failed = False
                except Exception:
                    failed = True
                else:
                    finished, n_legal, fired_c = c.finished, len(c._legal), _fired(c)
                    alts = [] if finished else [e[1] for e in offered(c)]
            if failed:
                score += 5.0
            else:
                score = self._fires(fz, fired_now, fired_c, score)
                reached = reached or self.hit
                if not finished:
                    score += 5.0 if not n_legal else 0.25 * max(1.0 / (1 + fz.alt_offered.get(id(a), 0)) for a in alts)
                if c is not None and fz.aims:
                    score += SEEK_AIM * _aimed(c, fz, fired_c, before, self.hit)
            if best_score is None or score > best_score + 1e-12:
                best, best_score = [m], score
            elif abs(score - best_score) <= 1e-12:
                best.append(m)
        if unfired and not reached and self.budget > 0:
            found = self._search(s, unfired, fired_now)
            if found is not None:
                return found
        return best[0] if len(best) == 1 else rng.choice(best)

    def _fires(self, fz, fired_now: list, fired_c: list, score: float) -> float:
        """score, plus what the rules a move fires are worth (the rarer so far, the more); self.hit:
        whether one of them had never fired in this fuzz run."""
        self.hit = False
        for k, (a, b) in enumerate(zip(fired_now, fired_c)):
            if b > a:
                score += 1.0 / (1 + fz.fired_total[k] + a)
                self.hit = self.hit or fz.fired_total[k] == 0
        return score

    def _search(self, s: State, unfired: list[int], fired_now: list) -> Move | None:
        """The first move of a line of at most SEARCH_DEPTH moves (every move, breadth first,
        SEARCH_NODES positions at most) that fires a rule no game has fired yet, or None."""
        frontier = [(s, None)]
        nodes = SEARCH_NODES
        for _ in range(SEARCH_DEPTH):
            deeper = []
            for st, head in frontier:
                if st.finished:
                    continue
                for m, _, _ in offered(st):
                    if nodes <= 0 or self.budget <= 0:
                        return None
                    nodes -= 1
                    self.budget -= 1
                    c = _lookahead(st)
                    try:
                        apply(c, m)
                    except Exception:
                        continue
                    fired = _fired(c)
                    if any(fired[k] > fired_now[k] for k in unfired):
                        return head or m
                    deeper.append((c, head or m))
            frontier = deeper
        return None


class AdvisedPlayer:
    """Goal-seeking play for rules that only a player who pursues the game's goal reaches (a
    completed hand, a won patience): one move of look-ahead on a clone, keeping the move that
    leaves it best placed by the ruleset's advice; now and then a random move, so that it does
    not loop. Without advice it is a rule seeker."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed ^ 0xAD71CE)
        self.seeker = RuleSeeker(seed)

    def choose(self, s: State, fz: "Fuzzer") -> Move:
        entries = offered(s)
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
            c = _lookahead(s)
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


from .reach import ScriptedPlayer  # noqa: E402  (it plays a line found by reach.search)

BOT_KINDS = {"random": RandomPlayer, "seeker": RuleSeeker, "advised": AdvisedPlayer, "solved": ScriptedPlayer}
