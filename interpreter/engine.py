"""Stage 4: the generic engine. An OpenSpiel-shaped API over a compiled Program:
`new_game`, `legal_moves`, `apply`, `outcome`, `observe`, plus records that replay.

A State is mutable (like python-chess's Board): `apply` changes it and returns it; use
`state.clone()` to branch. Chance is the state's own seeded generator, used only by
`shuffle`, so the same ruleset, options and seed always give the same game."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

from . import graph as g
from .compiler import CALL, CHOOSE, CHOOSE_EACH, END, EXEC, JIF, JUMP, RET, Program, compile_ruleset
from .compiler.fuse import failing_pc
from .errors import GameRuntimeError, IllegalMoveError, InvalidMoveError, OptionError, RecordError
from .unparse import unparse

MAX_STEPS = 200_000  # backward jumps between two decisions before we call it an endless loop


@dataclass(frozen=True, order=True)
class Move:
    """One decision: which player takes which action, with which card (or other) argument."""

    player: int
    action: str
    arg: str | None = None

    def __str__(self) -> str:
        return self.action if self.arg is None else f"{self.action} {self.arg}"

    def __repr__(self) -> str:
        return f"Move({self.player!r}, {self.action!r}, {self.arg!r})"

    @classmethod
    def parse(cls, text: str, player: int) -> "Move":
        """'lead King-Hearts' -> Move(player, 'lead', 'King-Hearts')."""
        parts = text.split()
        if not parts or len(parts) > 2:
            raise InvalidMoveError(f"a move is an action name and at most one argument, not {text!r}")
        return cls(player, parts[0], parts[1] if len(parts) == 2 else None)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (several on a tie) and every score."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]

    def __str__(self) -> str:
        who = ", ".join(seat_name(w) for w in self.winners) or "nobody"
        return f"won by {who}; scores " + " ".join(f"{seat_name(i)}={s}" for i, s in enumerate(self.scores))


def seat_name(p: int) -> str:
    return f"P{p + 1}"


class State:
    """A game in progress. Plain lists and ints only: pydantic stays off the hot path."""

    __slots__ = ("program", "n_players", "seats", "opts", "options", "seed", "zones", "card_zone",
                 "played_by", "known", "card_kind", "card_owner", "zbase", "zcount", "zone_names", "declared", "zowner", "zkind", "slots", "pc", "stack", "rng",
                 "fired", "finished", "history", "decisions", "choice", "actor", "_legal", "memo", "pending",
                 "zmask", "kmask", "omask", "upmask", "rng_shared", "zvis")

    # -- primitive effects the compiled statements call
    def shuffle(self, zi: int) -> None:
        cards = self.zones[zi]
        self.memo = {}
        self.chance().shuffle(cards)
        for c in cards:
            self.known[c] = False
        if self.program.masks:
            self.upmask &= ~self.zmask[zi]

    def _move_plain(self, cards: list, to: int, face_up: bool, under: bool) -> None:
        """A program that reads no bit mask keeps none: only the lists and per-card indexes."""
        zones, card_zone, owner = self.zones, self.card_zone, self.zowner
        to_kind = self.zkind[to]
        to_owner = owner[to]
        kind, cowner, known = self.card_kind, self.card_owner, self.known
        vis = self.zvis[to]
        for c in cards:
            src = card_zone[c]
            zones[src].remove(c)
            if under:
                zones[to].insert(0, c)
            else:
                zones[to].append(c)
            card_zone[c] = to
            kind[c] = to_kind
            cowner[c] = to_owner
            o = owner[src]
            if o is not None:
                self.played_by[c] = o
            known[c] = face_up or vis == "public" or (known[c] and vis != "hidden")

    def move(self, cards: list, to: int, face_up: bool, under: bool = False) -> None:
        self.memo = {}
        if not self.program.masks:
            return self._move_plain(cards, to, face_up, under)
        if len(cards) == 1:  # the common case, kept short
            c = cards[0]
            src = self.card_zone[c]
            self.zones[src].remove(c)
            if under:
                self.zones[to].insert(0, c)
            else:
                self.zones[to].append(c)
            b = self.program.card_bit[c]
            zmask = self.zmask
            zmask[src] ^= b
            zmask[to] |= b
            to_kind = self.zkind[to]
            k = self.card_kind[c]
            if k != to_kind:
                kmask = self.kmask
                kmask[k] ^= b
                kmask[to_kind] |= b
                self.card_kind[c] = to_kind
            o, to_owner = self.zowner[src], self.zowner[to]
            if o != to_owner:
                omask = self.omask
                omask[o] ^= b
                omask[to_owner] |= b
                self.card_owner[c] = to_owner
            if o is not None:
                self.played_by[c] = o
            self.card_zone[c] = to
            vis = self.zvis[to]
            if face_up or vis == "public":
                self.known[c] = True
                self.upmask |= b
            elif vis == "hidden":
                self.known[c] = False
                self.upmask &= ~b
            return
        if not cards:
            return
        card_zone, zowner = self.card_zone, self.zowner
        to_kind, to_owner = self.zkind[to], zowner[to]
        vis = self.program.zones[to_kind].visibility
        bits, zmask, kmask, omask = self.program.card_bit, self.zmask, self.kmask, self.omask
        kind, cowner, played_by, known = self.card_kind, self.card_owner, self.played_by, self.known
        dest = self.zones[to]
        if len(cards) < 5 or len(set(cards)) != len(cards):
            leaving = None  # one by one (a card named twice fails on its second move, as it always has)
        else:  # a pile at once: each zone's list is rebuilt once, each mask changed once per zone
            leaving = {}
            for c in cards:
                src = card_zone[c]
                if src in leaving:
                    leaving[src].add(c)
                else:
                    leaving[src] = {c}
            for src, gone in leaving.items():
                pile = self.zones[src]
                pile[:] = [x for x in pile if x not in gone]
                m = 0
                for c in gone:
                    m |= bits[c]
                zmask[src] ^= m
                kmask[self.zkind[src]] ^= m
                omask[zowner[src]] ^= m
                zmask[to] |= m
                kmask[to_kind] |= m
                omask[to_owner] |= m
            if under:
                dest[0:0] = cards[::-1]
            else:
                dest.extend(cards)
        shown = face_up or vis == "public"
        hidden = vis == "hidden"
        up = self.upmask
        for c in cards:
            src = card_zone[c]
            b = bits[c]
            if leaving is None:
                self.zones[src].remove(c)
                if under:
                    dest.insert(0, c)
                else:
                    dest.append(c)
                zmask[src] ^= b
                zmask[to] |= b
                kmask[kind[c]] ^= b
                kmask[to_kind] |= b
                omask[cowner[c]] ^= b
                omask[to_owner] |= b
            card_zone[c] = to
            kind[c] = to_kind
            cowner[c] = to_owner
            o = zowner[src]
            if o is not None:
                played_by[c] = o
            if shown:
                known[c] = True
                up |= b
            elif hidden or not known[c]:
                known[c] = False
                up &= ~b
        self.upmask = up

    def deal(self, n: int, src: int, zi: int, face_up: bool) -> None:
        base = self.zbase[zi]
        pile = self.zones[src]
        for p in range(self.zcount[zi]):
            take = pile[-n:] if n else []
            take.reverse()
            self.move(take, base + p, face_up)

    def declare(self, winners: tuple) -> None:
        self.declared = tuple(sorted(set(w for w in winners if w is not None)))

    def reveal(self, cards: list) -> None:
        self.memo = {}
        bits = self.program.card_bit
        for c in cards:
            if c is not None:
                self.known[c] = True
                self.upmask |= bits[c]  # kept whether or not masks are (an int is cheap)

    def chance(self) -> random.Random:
        """The state's own seeded generator, copied first if a clone still shares it (a clone
        draws from a plain generator with the same state; the original keeps its own kind)."""
        if self.rng_shared:
            if self.rng_shared == "plain":
                rng = random.Random()
                rng.setstate(self.rng.getstate())
            else:
                rng = copy.copy(self.rng)
            self.rng, self.rng_shared = rng, None
        return self.rng

    def recount(self) -> None:
        """Rebuild every per-card index from `zones` after the zones were rearranged by hand
        (a determinisation, a test): the zone lists are the truth, the rest follows them."""
        bits = self.program.card_bit
        self.zmask = [0] * len(self.zones)
        self.kmask = [0] * len(self.program.zones)
        self.omask = dict.fromkeys([None, *self.seats], 0)
        for inst, cards in enumerate(self.zones):
            kind, owner = self.zkind[inst], self.zowner[inst]
            for c in cards:
                self.card_zone[c] = inst
                self.card_kind[c] = kind
                self.card_owner[c] = owner
                self.zmask[inst] |= bits[c]
                self.kmask[kind] |= bits[c]
                self.omask[owner] |= bits[c]
        self.upmask = sum(bits[c] for c, k in enumerate(self.known) if k)
        self.memo = {}

    def verify(self) -> None:
        """Raise AssertionError unless every index the engine keeps beside the zone lists
        (where each card is, its zone's kind and owner) agrees with them: for the property suite."""
        names = self.program.card_names
        where = [None] * len(names)
        for inst, cards in enumerate(self.zones):
            for c in cards:
                assert where[c] is None, f"{names[c]} lies in two zones"
                where[c] = inst
        assert None not in where, f"{names[where.index(None)]} lies in no zone"
        for c, inst in enumerate(where):
            got = (self.card_zone[c], self.card_kind[c], self.card_owner[c])
            want = (inst, self.zkind[inst], self.zowner[inst])
            assert got == want, f"{names[c]}: the engine's index says (zone, kind, owner) {got}, the zones say {want}"
        if not self.program.masks:
            return
        bits = self.program.card_bit
        zmask, kmask = [0] * len(self.zones), [0] * len(self.kmask)
        omask = dict.fromkeys(self.omask, 0)
        for inst, cards in enumerate(self.zones):
            for c in cards:
                zmask[inst] |= bits[c]
                kmask[self.zkind[inst]] |= bits[c]
                omask[self.zowner[inst]] |= bits[c]
        upmask = sum(bits[c] for c, k in enumerate(self.known) if k)
        for name, got, want in zip(("zone", "kind", "owner", "face-up"), (self.zmask, self.kmask, self.omask, self.upmask),
                                   (zmask, kmask, omask, upmask)):
            assert got == want, f"the engine's {name} bit masks disagree with the zones"

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.zones = [list(z) for z in self.zones]
        s.card_zone = list(self.card_zone)
        s.card_kind = list(self.card_kind)
        s.card_owner = list(self.card_owner)
        s.played_by = list(self.played_by)
        s.known = list(self.known)
        s.zmask = list(self.zmask)
        s.kmask = list(self.kmask)
        s.omask = dict(self.omask)
        s.slots = [list(v) if isinstance(v, list) else v for v in self.slots]
        s.stack = list(self.stack)
        s.pending = {k: list(v) for k, v in self.pending.items()}
        s.fired = list(self.fired)
        s.history = list(self.history)
        # the generator is shared until one side draws (copying its state is most of a clone)
        s.rng_shared = "plain"
        self.rng_shared = self.rng_shared or "same"
        s._legal = list(self._legal) if self._legal is not None else None
        s.memo = {}
        return s

    @property
    def rule(self) -> str | None:
        """The name of the rule the current decision belongs to."""
        return rule_at(self)[0] if self.choice is not None and not self.finished else None

    @property
    def rule_title(self) -> str | None:
        return rule_at(self)[1] if self.choice is not None and not self.finished else None

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now, or None when the game is over (or stuck)."""
        return None if self.finished or not self._legal else self.actor

    def __repr__(self) -> str:
        return (f"<State {self.program.ruleset.name} players={self.n_players} seed={self.seed} "
                f"moves={len(self.history)}{' finished' if self.finished else ''}>")


_PROGRAMS: dict[int, tuple[g.Ruleset, Program]] = {}


def program_of(ruleset) -> Program:
    """The compiled form of a rule graph, compiled once per graph object (CARDRULES_PLAIN=1:
    the plain evaluator, the oracle the fast path is tested against)."""
    if isinstance(ruleset, Program):
        return ruleset
    hit = _PROGRAMS.get(id(ruleset))
    if hit is None or hit[0] is not ruleset:
        if len(_PROGRAMS) > 64:
            _PROGRAMS.clear()
        hit = _PROGRAMS[id(ruleset)] = (ruleset, compile_ruleset(ruleset, fast=os.environ.get("CARDRULES_PLAIN") != "1"))
    return hit[1]


def resolve_options(program: Program, given: dict | None) -> list:
    """Defaults overlaid with `given` (values may be strings from a command line)."""
    values = [o.default for o in program.options]
    for name, raw in (given or {}).items():
        if name not in program.option_index:
            known = ", ".join(program.option_index) or "none"
            raise OptionError(f"unknown option {name!r}; this game's options are: {known}")
        o = program.options[program.option_index[name]]
        values[program.option_index[name]] = _coerce_option(o, raw)
    return values


def _coerce_option(o: g.Option, raw):
    if o.type == "bool":
        if isinstance(raw, bool):
            return raw
        if str(raw).lower() in ("true", "yes", "on", "1"):
            return True
        if str(raw).lower() in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option {o.name} is true or false, not {raw!r}")
    if o.type == "int":
        try:
            v = int(raw)
        except (TypeError, ValueError):
            raise OptionError(f"option {o.name} is a whole number, not {raw!r}") from None
        if o.low is not None and not (o.low <= v <= o.high):
            raise OptionError(f"option {o.name} must be between {o.low} and {o.high}, not {v}")
        return v
    if str(raw) not in o.choices:
        raise OptionError(f"option {o.name} is one of {', '.join(o.choices)}, not {raw!r}")
    return str(raw)


def new_game(ruleset, players: int, options: dict | None = None, seed: int = 0) -> State:
    """Set up a game and run it to the first decision."""
    s = _fresh(program_of(ruleset), players, options, seed)
    _run(s)
    return s


def _fresh(p: Program, players: int, options: dict | None, seed: int) -> State:
    rs = p.ruleset
    if not isinstance(players, int) or not (rs.players_min <= players <= rs.players_max):
        span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
        raise OptionError(f"{rs.title or rs.name} is for {span} players, not {players}")
    s = State.__new__(State)
    s.program = p
    s.n_players = players
    s.seats = tuple(range(players))
    s.opts = resolve_options(p, options)
    s.options = {o.name: v for o, v in zip(p.options, s.opts)}
    s.seed = seed
    zbase, zcount, names = [], [], []
    for zi, z in enumerate(p.zones):
        if z.per_player:
            zbase.append(p.n_shared + z.index * players)
            zcount.append(players)
        else:
            zbase.append(z.index)
            zcount.append(z.size or 1)
    n_inst = p.n_shared + sum(1 for z in p.zones if z.per_player) * players
    zowner = [None] * n_inst
    zkind = [0] * n_inst
    names = [""] * n_inst
    for zi, z in enumerate(p.zones):
        for k in range(zcount[zi]):
            inst = zbase[zi] + k
            zkind[inst] = zi
            if z.per_player:
                zowner[inst] = k
                names[inst] = f"{z.name}-{seat_name(k)}"
            else:
                names[inst] = f"{z.name}{k + 1}" if z.size else z.name
    s.zbase, s.zowner, s.zkind, s.zcount, s.zone_names = zbase, zowner, zkind, zcount, names
    s.zvis = [p.zones[k].visibility for k in zkind]
    s.declared = None
    s.zones = [[] for _ in range(n_inst)]
    start = zbase[0]
    s.zones[start] = list(range(p.n_cards))
    s.card_zone = [start] * p.n_cards
    s.card_kind = [zkind[start]] * p.n_cards
    s.card_owner = [None] * p.n_cards
    s.played_by = [None] * p.n_cards
    s.known = [False] * p.n_cards
    s.zmask = [0] * n_inst
    s.zmask[start] = p.all_mask
    s.kmask = [0] * len(p.zones)
    s.kmask[zkind[start]] = p.all_mask
    s.omask = dict.fromkeys([None, *s.seats], 0)
    s.omask[None] = p.all_mask
    s.upmask = 0
    s.slots = [None] * p.n_slots
    s.pc = p.start
    s.stack = []
    s.pending = {}  # `choose by each`: decision pc -> players still to decide
    s.rng = random.Random(seed)
    s.rng_shared = None
    s.fired = [0] * len(p.rule_names)
    s.finished = False
    s.history = []
    s.decisions = 0
    s.choice = None
    s.actor = None
    s._legal = []
    s.memo = {}
    for name, slot, init in p.vars:
        s.slots[slot] = init(s) if init else None
    return s


def _arg_text(p: Program, elem: str | None, v) -> str | None:
    if elem is None:
        return None
    if v is None:
        return "none"
    if elem == "card":
        return p.card_names[v]
    if elem == "player":
        return seat_name(v)
    if elem == "suit":
        return p.ruleset.deck.suits[v]
    if elem == "rank":
        return p.ruleset.deck.ranks[v]
    return str(v)


def _compute_legal(s: State, choice, deciders=None) -> list:
    if deciders is not None:  # several players decide at this point: everyone's moves
        out = []
        for player in deciders:
            s.slots[choice.each_slot] = player
            out.extend(_compute_legal_for(s, choice, player))
        return out
    return _compute_legal_for(s, choice, s.actor)


def _compute_legal_for(s: State, choice, actor) -> list:
    out = []
    append = out.append
    for alt in choice.alts:
        if alt.when is not None and not alt.when(s):
            continue
        moves = alt.moves
        if alt.values is None:
            m = moves.get((actor, None))
            if m is None:
                m = moves[(actor, None)] = Move(actor, alt.name, None)
            append((m, alt, None))
            continue
        for v in alt.values(s):
            m = moves.get((actor, v))
            if m is None:
                text = s.zone_names[v] if alt.elem == "zone" else _arg_text(s.program, alt.elem, v)
                m = moves[(actor, v)] = Move(actor, alt.name, text)
            append((m, alt, v))
    if len(choice.alts) > 1:  # two actions may offer the same move: keep the first
        seen = set()
        uniq = []
        for entry in out:
            key = (entry[0].action, entry[0].arg)
            if key not in seen:
                seen.add(key)
                uniq.append(entry)
        out = uniq
    return out


def _run(s: State) -> None:
    _exec(s)


def _located_failure(s: State, exc: Exception) -> GameRuntimeError:
    """A generated expression failed: name the statement, in the ruleset's own terms."""
    node = s.program.nodes[s.pc] if 0 <= s.pc < len(s.program.nodes) else None
    if isinstance(exc, ZeroDivisionError):
        what = "a division by zero"
    elif "NoneType" in str(exc) or "None" in str(exc):
        what = "a card or player that is none here (nothing matched)"
    else:
        what = f"something impossible ({type(exc).__name__}: {exc})"
    loc = getattr(node, "loc", None)
    from .build import _source_line
    return GameRuntimeError(f"while playing, this statement met {what}", loc.file if loc else None,
                            loc.line if loc else None, loc.column if loc else None, _source_line(loc))


def _exec(s: State) -> None:
    code = s.program.code
    pc = s.pc
    steps = 0
    try:
        while True:
            op, a, b = code[pc]
            if op == EXEC:
                a(s)
                pc = b
            elif op == JIF:
                pc = pc + 1 if a(s) else b
            elif op == JUMP:
                pc = a
                steps += 1
                if steps > MAX_STEPS:
                    s.pc = pc
                    name, title = rule_at(s, pc)
                    raise GameRuntimeError("the rules loop for ever without asking anyone to decide "
                                           f"(stuck in rule {name!r}, {title})")
            elif op == CHOOSE:
                actor = a.actor(s)
                if actor is None:
                    s.pc = pc
                    raise GameRuntimeError(f"in rule {rule_at(s, pc)[0]!r}, {a.by_text!r} names no player here")
                s.pc, s.choice, s.actor = pc, a, actor
                s._legal = _compute_legal(s, a)
                return
            elif op == CALL:
                s.stack.append(pc + 1)
                pc = a
            elif op == RET:
                pc = s.stack.pop()
            elif op == CHOOSE_EACH:
                waiting = s.pending.get(pc)
                if waiting is None:
                    waiting = s.pending[pc] = list(dict.fromkeys(p for p in a.actor(s) if p is not None))
                if not waiting:
                    del s.pending[pc]
                    pc += 1
                    continue
                s.pc, s.choice, s.actor = pc, a, waiting[0]
                s._legal = _compute_legal(s, a, waiting)
                return
            else:  # END
                s.pc, s.finished, s.choice, s.actor, s._legal = pc, True, None, None, []
                return
    except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError) as exc:
        s.pc = failing_pc(code[pc][1], pc, exc)  # the instruction that failed, for the message
        raise _located_failure(s, exc) from None


def rule_at(s: State, pc: int | None = None) -> tuple[str, str]:
    """The rule being played at pc (default: now): the innermost rule around the
    instruction or, inside a procedure, around the place that performed it."""
    p = s.program
    pc = s.pc if pc is None else pc
    r = p.rule_at[pc] if 0 <= pc < len(p.rule_at) else None
    if r is None:
        for ret in reversed(s.stack):
            r = p.rule_at[ret - 1]
            if r is not None:
                break
    return r if r is not None else ("(no rule)", "(no rule)")


def legal_moves(s: State) -> list[Move]:
    """The moves that may be made now, each with its player; empty when the game is over.
    Usually one player decides; at a `choose by each` several do, in any order."""
    return [m for m, _, _ in s._legal]


def moves_for(s: State, player: int | None = None) -> list[Move]:
    """The legal moves of one player (default: the player to act)."""
    player = s.actor if player is None else player
    return [m for m, _, _ in s._legal if m.player == player]


def deciders(s: State) -> list[int]:
    """Every player who may move now (several at a `choose by each`)."""
    seen = []
    for m, _, _ in s._legal:
        if m.player not in seen:
            seen.append(m.player)
    return seen


def is_terminal(s: State) -> bool:
    return s.finished


def apply(s: State, move: Move | str) -> State:
    """Play a move (a Move, or its text for the player to act); returns the same state."""
    if s.finished:
        raise IllegalMoveError("the game is over; no more moves can be made")
    if isinstance(move, str):
        move = Move.parse(move, s.actor)
    found = None
    for entry in s._legal:
        if entry[0] is move:
            found = entry
            break
    if found is None:
        key = (move.player, move.action, move.arg)
        found = next((e for e in s._legal if (e[0].player, e[0].action, e[0].arg) == key), None)
    if found is not None:
        m, alt, v = found
        if alt.slot is not None:
            s.slots[alt.slot] = v
        if s.choice.each_slot is not None:  # one of several deciders: note it, and come back
            s.pending[s.pc].remove(m.player)
            s.slots[s.choice.each_slot] = m.player
            s.stack.append(s.pc)
        s.history.append(m)
        s.decisions += 1
        s.pc = alt.body
        _run(s)
        return s
    raise _explain_illegal(s, move)


def _explain_illegal(s: State, move: Move) -> Exception:
    choice = s.choice
    p = s.program
    name, title = rule_at(s)
    where = f"rule {name!r} ({title})"
    deciders = s.pending.get(s.pc) if choice.each_slot is not None else [s.actor]
    if move.player not in deciders:
        who = ", ".join(seat_name(d) for d in deciders)
        return IllegalMoveError(f"{who} must decide in {where}, not {seat_name(move.player)}")
    if choice.each_slot is not None:
        s.slots[choice.each_slot] = move.player
    alts = [a for a in choice.alts if a.name == move.action]
    names = sorted({a.name for a in choice.alts})
    if not alts:
        known = {a.name for ch in p.choices for a in ch.alts}
        cls = IllegalMoveError if move.action in known else InvalidMoveError
        what = "not possible now" if move.action in known else "not an action of this game"
        return cls(f"{move.action!r} is {what}; in {where} the actions are: {', '.join(names)}")
    alt = alts[0]
    if alt.elem == "card" and move.arg is not None and move.arg not in p.card_names:
        return InvalidMoveError(f"{move.arg!r} is not a card of this deck (cards are written like {p.card_names[-1]})")
    if (alt.elem is None) != (move.arg is None):
        return InvalidMoveError(f"action {move.action!r} takes {'no argument' if alt.elem is None else 'a ' + alt.elem}")
    reasons = []
    for a in alts:
        node = a.node
        if a.when is not None and not a.when(s):
            reasons.append(f"it is allowed only when {unparse(node.when)}")
        elif node.where is not None:
            reasons.append(f"the {a.elem} must be in {unparse(node.domain)} and satisfy {unparse(node.where)}")
        elif node.domain is not None:
            reasons.append(f"the {a.elem} must be in {unparse(node.domain)}")
    legal = ", ".join(str(m) for m, _, _ in s._legal)
    return IllegalMoveError(f"{seat_name(move.player)} may not {move} now: {where} says "
                            + "; or ".join(reasons or ["no"]) + f". Legal now: {legal}")


def scores(s: State) -> tuple[int, ...]:
    """Every seat's score by the ruleset's winner rule, at any moment (all 0 without one)."""
    p = s.program
    if p.score is None:
        return tuple(0 for _ in s.seats)
    return tuple(p.score(s, seat) for seat in s.seats)


def outcome(s: State) -> Outcome | None:
    """None while the game is running (or stuck); the winners and scores once it is over."""
    if not s.finished:
        return None
    p = s.program
    values = scores(s)
    if s.declared is not None:
        return Outcome(s.declared, values)
    if p.score is None:
        return Outcome((), values)
    best = max(values) if p.winner_rule == "most" else min(values)
    return Outcome(tuple(i for i, v in enumerate(values) if v == best), values)


def _fmt(s: State, t: str, v):
    p = s.program
    if v is None:
        return None
    if t in ("card", "player", "suit", "rank"):
        return _arg_text(p, t, v)
    if t in ("cards", "players", "suits", "ranks"):
        return [_arg_text(p, t[:-1], x) for x in v]
    if t == "zone":
        return s.zone_names[v]
    if t == "zones":
        return [s.zone_names[x] for x in v]
    return v


def public_vars(s: State) -> dict:
    """Every game variable as players see it (names for cards and players; a variable kept per
    player as {"P1": ..., ...})."""
    out = {}
    for v, (name, slot, _) in zip(s.program.ruleset.vars, s.program.vars):
        value = s.slots[slot]
        if v.params:
            out[name] = {seat_name(k): _fmt(s, v.type, x) for k, x in enumerate(value or [])}
        else:
            out[name] = _fmt(s, v.type, value)
    return out


def observe(s: State, player: int) -> dict:
    """What `player` may see: every public zone, their own private zones, counts of the rest,
    cards shown face up, the public variables, and their legal moves when it is their turn."""
    p = s.program
    zones: dict = {}
    for zi, z in enumerate(p.zones):
        view = {}
        for k in range(s.zcount[zi]):
            inst = s.zbase[zi] + k
            owner = s.zowner[inst]
            cards = s.zones[inst]
            if z.visibility == "public" or (z.visibility == "owner" and owner == player):
                seen = {"cards": [p.card_names[c] for c in cards]}
            else:
                shown = [p.card_names[c] for c in cards if s.known[c]]
                seen = {"count": len(cards), "known": shown}
            view[seat_name(k) if z.per_player else str(k + 1)] = seen
        zones[z.name] = view if (z.per_player or z.size) else view["1"]
    out = {
        "seat": seat_name(player),
        "players": s.n_players,
        "to_move": seat_name(s.actor) if s.current_player is not None else None,
        "rule": rule_at(s)[1] if s.choice is not None and not s.finished else None,
        "zones": zones,
        "vars": public_vars(s),
        "finished": s.finished,
    }
    mine = [str(m) for m in legal_moves(s) if m.player == player]
    if mine:
        out["legal"] = mine
    return out


def fired_counts(s: State) -> dict[str, int]:
    return {name: s.fired[i] for i, name in enumerate(s.program.rule_names)}


def state_digest(s: State) -> str:
    """A fingerprint of the game as players know it (where every card lies, what is face up,
    the public variables, whether it is over), to confirm a replay. Engine internals such
    as the program counter stay out, so records survive changes to the engine."""
    p = s.program
    data = {
        "zones": [[p.card_names[c] for c in z] for z in s.zones],
        "known": [p.card_names[i] for i, k in enumerate(s.known) if k],
        "vars": public_vars(s),
        "to_move": seat_name(s.actor) if s.current_player is not None else None,
        "finished": s.finished,
        "declared": s.declared,
        "moves": len(s.history),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


# ------------------------------------------------------------------ records

RECORD_FORMAT = "cardrules-record/1"


def make_record(s: State, ruleset_path: str | None) -> dict:
    o = outcome(s)
    return {
        "format": RECORD_FORMAT,
        "ruleset": ruleset_path,
        "game": s.program.ruleset.name,
        "players": s.n_players,
        "options": s.options,
        "seed": s.seed,
        "moves": [{"player": seat_name(m.player), "move": str(m)} for m in s.history],
        "final": {
            "finished": s.finished,
            "digest": state_digest(s),
            "winners": [seat_name(w) for w in o.winners] if o else None,
            "scores": list(o.scores) if o else None,
        },
    }


def write_record(record: dict, path: str | Path) -> None:
    """Write atomically: a crash never leaves half a record behind."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def read_record(path: str | Path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"no such record: {path}", str(path)) from None
    except json.JSONDecodeError as e:
        raise RecordError(f"the record is not valid JSON ({e.msg})", str(path), e.lineno, e.colno) from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read the record: {e}", str(path)) from None
    return validate_record(data, str(path))


def validate_record(data, path: str = "<record>") -> dict:
    """Check a record's shape (not yet its moves); raise RecordError saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a cardrules game record (expected \"format\": \"{RECORD_FORMAT}\")", path)
    for key, typ in (("players", int), ("seed", int), ("moves", list), ("options", dict), ("final", dict)):
        if not isinstance(data.get(key), typ) or (typ is int and isinstance(data.get(key), bool)):
            raise RecordError(f"the record's {key!r} is missing or malformed", path)
    return data


def replay(ruleset, record: dict, path: str = "<record>") -> State:
    """Replay a record move by move; raise RecordError at the first divergence."""
    try:
        s = new_game(ruleset, record["players"], record["options"], record["seed"])
    except OptionError as e:
        raise RecordError(f"the record's set-up is invalid: {e.message}", path) from None
    for i, entry in enumerate(record["moves"], 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("move"), str) or not isinstance(entry.get("player"), str):
            raise RecordError(f"move {i} is malformed: {entry!r}", path)
        if s.finished:
            raise RecordError(f"move {i} ({entry['move']}) comes after the game has ended", path)
        allowed = {seat_name(p): p for p in (deciders(s) or [s.actor])}
        if entry["player"] not in allowed:
            who = " or ".join(allowed)
            raise RecordError(f"move {i}: the record says {entry['player']} moves, but it is {who}'s turn", path)
        try:
            apply(s, Move.parse(entry["move"], allowed[entry["player"]]))
        except (IllegalMoveError, InvalidMoveError) as e:
            raise RecordError(f"move {i} ({entry['player']}: {entry['move']}) diverges: {e.message}", path) from None
        except GameRuntimeError as e:
            raise RecordError(f"move {i} ({entry['player']}: {entry['move']}) makes the ruleset fail: {e.render()}",
                              path) from None
    final = record["final"]
    if final.get("digest") and final["digest"] != state_digest(s):
        raise RecordError("every move replayed, but the final state differs from the recorded one "
                          "(the ruleset or the engine has changed since the record was made)", path)
    return s


def position(ruleset, players: int, phase: str, zones: dict | None = None, vars: dict | None = None,
             options: dict | None = None, seed: int = 0, *, rest=None, face_up=None,
             played_by: dict | None = None, shuffle: bool = True) -> State:
    """Set up a position by hand and start play at the beginning of `phase`: the rules run
    from there to the first decision (or to the end of the game). This is how scenario tests
    and the fuzzer's reproductions build a position; read it back with `cards_in`,
    `card_info`, `observe`, `public_vars` and `legal_moves`.

    zones      {zone name: cards}, cards by name ('King-Hearts', '5-Hearts#2'), each list from
               the bottom up: the last card is the top (what `top(z)` names and `deal` deals
               first). A shared zone takes a list; a per-player zone {seat: [cards]} (seats
               0-based, or 'P1', 'P2', ...); a family of zones {number from 1: [cards]}.
    rest       where every card not listed goes: a zone as `cards_in` takes it (a name, or
               (name, seat or number), or the full name such as 'hand-P2' or 'position3').
               They lie at the bottom of that zone, in deck order, beneath any cards listed
               for it. The default is the first zone declared (the stock or wall), so listing
               the stock puts those cards on top of every unlisted card; with `rest` naming
               another zone, the stock holds exactly the cards listed for it, in that order.
    face_up    card names turned face up (known to every player), wherever they lie. Cards
               in a public zone are face up anyway; every other card starts face down.
    played_by  {card: seat or None}, the cards' `played_by`. Without it, a card placed in a
               per-player zone counts as played by that zone's owner, any other card by nobody.
    vars       {variable: value}: players as seats (0-based or 'P1'), cards by name, suits
               and ranks by name, a zone as for `rest` (so a zone variable can be given as
               public_vars prints it, 'position3'), collections as lists, numbers and truth
               values as they are, None for none; a variable kept per player takes {seat:
               value} (seats not named keep their initial value). Variables not given keep
               the initial values the ruleset declares, computed before any card is placed.
               Whose turn it is is just one of the ruleset's variables.
    options, seed   as for new_game; the seed drives every shuffle and `random(...)` from here.
    shuffle    False: every `shuffle` of the rules leaves its zone in the order it has (the
               cards still turn face down), so a test knows the order of the pack it placed;
               `random(...)` still follows the seed. A clone (state.clone()) shuffles again.

    Raises OptionError for an unknown zone, variable or phase, a seat or number that does not
    exist, a card placed twice or a value of the wrong kind, and InvalidMoveError for a name
    that is not a card of this deck."""
    p = program_of(ruleset)
    s = _fresh(p, players, options, seed)
    names = [ph.name for ph in p.ruleset.phases]
    if phase not in names:
        raise OptionError(f"unknown phase {phase!r}; phases are {', '.join(names)}")
    if not shuffle:
        s.rng = _Unshuffled(seed)
    start = s.zbase[0]
    placed: dict[int, str] = {}  # card -> the zone it is listed for
    plan = []  # (zone instance, cards bottom first)
    for zname, spec in (zones or {}).items():
        zi = _zone_kind(p, zname)
        z = p.zones[zi]
        if z.per_player or z.size:
            if not isinstance(spec, dict):
                key = "seat" if z.per_player else f"number 1..{z.size}"
                raise OptionError(f"zone {zname} is {'one per player' if z.per_player else 'a family of zones'}: "
                                  f"give {{{key}: [cards]}}, not {spec!r}")
            targets = list(spec.items())
        else:
            if isinstance(spec, dict):
                raise OptionError(f"zone {zname} is a single shared zone: give a list of cards, not {spec!r}")
            targets = [(None, spec)]
        for which, cards in targets:
            inst = _instance(s, zi, which)
            if isinstance(cards, str) or not hasattr(cards, "__iter__"):
                raise OptionError(f"the cards for {s.zone_names[inst]} are a list of card names, not {cards!r}")
            ids = []
            for name in cards:
                c = _card_id(p, name)
                if c in placed:
                    raise OptionError(f"card {name} is placed twice ({placed[c]} and {s.zone_names[inst]})")
                placed[c] = s.zone_names[inst]
                ids.append(c)
            plan.append((inst, ids))
    rest_inst = start if rest is None else _zone_arg(s, rest, "rest")
    if rest_inst != start:
        s.move([c for c in s.zones[start] if c not in placed], rest_inst, False)
    for inst, ids in plan:  # the engine's own move keeps every index of the state in step
        s.move(ids, inst, False)
        owner = s.zowner[inst]
        if owner is not None:
            for c in ids:
                s.played_by[c] = owner
    if isinstance(face_up, str):
        raise OptionError(f"face_up is a list of card names, not {face_up!r}")
    s.reveal([_card_id(p, name) for name in face_up or ()])
    if played_by is not None and not isinstance(played_by, dict):
        raise OptionError(f"played_by is {{card: seat}}, not {played_by!r}")
    for name, seat in (played_by or {}).items():
        s.played_by[_card_id(p, name)] = None if seat is None else _seat(seat, players)
    decl = {v.name: v for v in p.ruleset.vars}
    slots = {n: sl for n, sl, _ in p.vars}
    for name, value in (vars or {}).items():
        if name not in slots:
            raise OptionError(f"unknown variable {name!r}; this game's variables are: {', '.join(slots) or 'none'}")
        v = decl[name]
        if v.params:  # a variable kept per player: {seat: value}
            if not isinstance(value, dict):
                raise OptionError(f"variable {name} has one value per player: give {{seat: value}}, not {value!r}")
            per = list(s.slots[slots[name]]) if isinstance(s.slots[slots[name]], list) else [None] * players
            for seat, x in value.items():
                per[_seat(seat, players)] = _value(s, v.type, x, f"variable {name}", list)
            value = per
        else:
            if isinstance(value, dict):
                raise OptionError(f"variable {name} is one value, not one per player: {value!r}")
            value = _value(s, v.type, value, f"variable {name}", list)
        s.slots[slots[name]] = value
    s.memo = {}  # definitions evaluated while the variables were initialised
    s.pc = p.phase_start[phase]
    _run(s)
    return s


def cards_in(state: State, zone: str, which=None) -> list[str]:
    """The cards lying in one zone, by name, from the bottom up (the last is the top).

    `zone` is a zone's name; `which` picks the seat of a per-player zone (0-based, or 'P1')
    or the number, from 1, of a family of zones, and is left out for a single shared zone.
    A zone's full name works too, as public_vars prints a zone variable ('hand-P2',
    'position3'). This is the referee's view, hidden cards included (for tests and tools);
    what a player may see is `observe`. Raises OptionError for a zone that does not exist."""
    inst = _zone_arg(state, zone if which is None else (zone, which), "cards_in")
    names = state.program.card_names
    return [names[c] for c in state.zones[inst]]


def card_info(state: State, card: str) -> dict:
    """Where one card lies and what is known of it, in the ruleset's terms (the referee's view):
    {"zone": zone name, "which": seat of a per-player zone, number (from 1) in a family of
    zones, or None, "owner": the seat owning that zone or None, "played_by": seat or None,
    "face_up": whether every player knows the card}. `cards_in(state, info["zone"],
    info["which"])` lists the card's zone. Raises InvalidMoveError for a name that is not a
    card of this deck."""
    p = state.program
    c = _card_id(p, card)
    inst = state.card_zone[c]
    zi = state.zkind[inst]
    z = p.zones[zi]
    k = inst - state.zbase[zi]
    return {"zone": z.name, "which": k if z.per_player else (k + 1 if z.size else None),
            "owner": state.zowner[inst], "played_by": state.played_by[c], "face_up": bool(state.known[c])}


def evaluate(state: State, definition: str, *args, returns: str | None = None):
    """The value of the ruleset's `define NAME(params) = ...` in this state, for tests and
    tools. Arguments are given as `position` takes variable values (cards by name, players
    as seats, a `cards` parameter as a list of names, a zone as 'hand-P2' or (name, seat),
    ...). A truth value or a number comes back as it is; for a definition whose value is a
    card, a player, a zone, a suit, a rank or a collection of them, name its type in
    `returns` ('card', 'players', ...) to get it back in names, as public_vars gives values
    (without `returns` such a value comes back in the engine's own terms). Evaluating
    changes nothing in the state. Raises OptionError for an unknown definition or a wrong
    number or kind of argument."""
    p = state.program
    d = next((d for d in p.ruleset.defines if d.name == definition), None)
    if d is None:
        raise OptionError(f"unknown definition {definition!r}; this game's definitions are: "
                          + ", ".join(d.name for d in p.ruleset.defines))
    if len(args) != len(d.params):
        wanted = ", ".join(f"{prm.name}: {prm.type}" for prm in d.params)
        raise OptionError(f"{definition}({wanted}) takes {len(d.params)} argument(s), not {len(args)}")
    conv = [_value(state, prm.type, a, f"argument {prm.name} of {definition}", tuple) for prm, a in zip(d.params, args)]
    fn = p.namespace.get(f"D_{definition}")  # every definition is compiled to one function
    if fn is None:
        raise OptionError(f"definition {definition!r} has no compiled function to evaluate")
    value = fn(state, *conv)
    return value if returns is None else _fmt(state, returns, value)


def recompute_legal(state: State) -> list[Move]:
    """Recompute the legal moves of the pending decision from scratch (no cached results of
    definitions), exactly as the engine does on reaching the decision, store them in the state
    and return them. For a state whose cards were rearranged (see `determinise`), and for
    tests that compare the engine's stored moves with fresh ones."""
    state.memo = {}
    if state.finished or state.choice is None:
        return legal_moves(state)
    if state.choice.each_slot is not None:  # several players decide here: all who still may
        state._legal = _compute_legal(state, state.choice, list(state.pending.get(state.pc, [])))
    else:
        state._legal = _compute_legal(state, state.choice)
    return legal_moves(state)


def waiting(state: State) -> list[int] | None:
    """At a `choose by each` decision, the seats that may still decide (any of them may move
    first); None at an ordinary decision, where only the player to act decides, and when the
    game is over."""
    if state.finished or state.choice is None or state.choice.each_slot is None:
        return None
    return list(state.pending.get(state.pc, []))


def determinise(state: State, player, rng: random.Random) -> State:
    """A clone of `state` in which every card whose identity `player` cannot know is put in
    a random place among the places of such cards: one possible truth consistent with what
    `player` sees now (for a search player, sampling what the others may hold).

    A card is unknown to `player` when it lies in a zone `player` may not look into (a
    hidden zone, or another player's owner-only zone, or a shared owner-only zone) and it
    is not face up (known to everyone) there. Those cards are shuffled, with `rng` (a
    random.Random; the same generator state gives the same result), among the positions
    they occupy, across zones: another player's hand may receive cards from the stock, the
    stock from a hand. Everything `player` can know stays as it was: every zone's size,
    every public or own zone, every face-up card and where it lies, the variables, the
    decision pending, the history, the seed's generator. `played_by` stays with the
    position, not the card (the new card in a place counts as played by whoever played
    the card that was there). A card named by a variable keeps its name there, wherever
    it now lies. The legal moves of the pending decision are recomputed for the new cards
    (those of `player` are unchanged when the rules hide nothing they should not).

    The sample ignores what `player` could infer from the play so far (a player who could
    not follow suit may be given that suit again), so it may be a position the rules could
    never reach; when another player must decide, their legal moves may even come out empty
    (the game looks stuck: `legal_moves` is [] and `state.current_player` None). A search
    player should skip such a sample or draw again.

    `player` is a seat (0-based, or 'P1'). The state itself is not changed."""
    who = _seat(player, state.n_players)
    t = state.clone()
    zones = t.program.zones
    spots = [(inst, k) for inst, cards in enumerate(t.zones)
             if not _sees(zones[t.zkind[inst]].visibility, t.zowner[inst], who)
             for k, c in enumerate(cards) if not t.known[c]]
    if len(spots) > 1:
        cards = [t.zones[inst][k] for inst, k in spots]
        played = [t.played_by[c] for c in cards]
        rng.shuffle(cards)
        for (inst, k), c, pb in zip(spots, cards, played):
            t.zones[inst][k] = c
            t.played_by[c] = pb
        t.recount()  # every per-card index and cache follows the zone lists again
        recompute_legal(t)
    return t


def _sees(visibility: str, owner: int | None, player: int) -> bool:
    return visibility == "public" or (visibility == "owner" and owner == player)


class _Unshuffled(random.Random):
    """A seeded generator whose shuffle keeps the order (position(..., shuffle=False))."""

    def shuffle(self, x, *args, **kwargs) -> None:
        pass


_CARD_IDS: dict[int, tuple[Program, dict]] = {}


def _card_id(p: Program, name) -> int:
    hit = _CARD_IDS.get(id(p))
    if hit is None or hit[0] is not p:
        if len(_CARD_IDS) > 64:
            _CARD_IDS.clear()
        hit = _CARD_IDS[id(p)] = (p, {n: c for c, n in enumerate(p.card_names)})
    c = hit[1].get(name) if isinstance(name, str) else None
    if c is None:
        raise InvalidMoveError(f"{name!r} is not a card of this deck (cards are written like {p.card_names[-1]})")
    return c


def _zone_kind(p: Program, name) -> int:
    if not isinstance(name, str) or name not in p.zone_index:
        raise OptionError(f"unknown zone {name!r}; this game's zones are: {', '.join(p.zone_index)}")
    return p.zone_index[name]


def _instance(s: State, zi: int, which) -> int:
    """The zone instance of kind zi: `which` is the seat (per-player zone), the number from 1
    (family of zones), or None (a single shared zone)."""
    z = s.program.zones[zi]
    if z.per_player:
        if which is None:
            raise OptionError(f"zone {z.name} is one per player: say whose (a seat, 0-based or 'P1')")
        return s.zbase[zi] + _seat(which, s.n_players)
    if z.size:
        if isinstance(which, bool) or not isinstance(which, int) or not 1 <= which <= z.size:
            raise OptionError(f"zone {z.name} is a family of zones numbered 1 to {z.size}: say which, not {which!r}")
        return s.zbase[zi] + which - 1
    if which is not None:
        raise OptionError(f"zone {z.name} is a single shared zone: it takes no seat or number, not {which!r}")
    return s.zbase[zi]


def _zone_arg(s: State, spec, what: str) -> int:
    """A zone instance given by name ('stock'), full name ('hand-P2', 'position3'), or
    (name, seat or number)."""
    p = s.program
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        return _instance(s, _zone_kind(p, spec[0]), spec[1])
    if isinstance(spec, str):
        if spec in p.zone_index:
            return _instance(s, p.zone_index[spec], None)
        if spec in s.zone_names:
            return s.zone_names.index(spec)
    raise OptionError(f"{what}: {spec!r} is not a zone; give a zone's name ({', '.join(p.zone_index)}), "
                      "a full name such as " + " or ".join(repr(n) for n in s.zone_names[-2:]) + ", or (name, seat or number)")


def _value(s: State, t: str, x, what: str, collection=list):
    """A value given by a caller (names, seats) in the engine's terms, for a variable or a
    definition's argument of type t."""
    p = s.program
    if x is None:
        return None
    if t in ("cards", "players", "zones", "suits", "ranks", "ints"):
        if isinstance(x, (str, dict)) or not hasattr(x, "__iter__"):
            raise OptionError(f"{what} is a collection of {t}: give a list, not {x!r}")
        return collection(_value(s, t[:-1], y, what) for y in x)
    if t == "player":
        return _seat(x, s.n_players)
    if t == "card":
        return _card_id(p, x)
    if t == "zone":
        return _zone_arg(s, x, what)
    if t in ("suit", "rank"):
        names = p.ruleset.deck.suits if t == "suit" else p.ruleset.deck.ranks
        key = str(x) if t == "rank" and isinstance(x, int) and not isinstance(x, bool) else x
        if key not in names:
            raise OptionError(f"{what} is a {t}, one of {', '.join(names)}; not {x!r}")
        return list(names).index(key)
    if t == "int":
        if isinstance(x, bool) or not isinstance(x, int):
            raise OptionError(f"{what} is a whole number, not {x!r}")
        return x
    if t == "bool":
        if not isinstance(x, bool):
            raise OptionError(f"{what} is true or false, not {x!r}")
        return x
    return x


def _seat(seat, players: int) -> int:
    """A seat given as 0-based int or as 'P1', 'P2', ... (case-insensitive), checked."""
    if isinstance(seat, str) and seat.upper().startswith("P") and seat[1:].isdigit():
        seat = int(seat[1:]) - 1
    if isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat < players):
        raise OptionError(f"no seat {seat!r} in a {players}-player game (seats are 0 to {players - 1}, or P1 to P{players})")
    return seat
