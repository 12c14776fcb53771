"""Playing: set-up, the instruction loop between two decisions, legal moves, apply,
outcome and what each seat may observe."""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading

from ..language import graph as g
from ..compiler import CALL, CHOOSE, CHOOSE_EACH, EXEC, JIF, JUMP, RET, TRACE, Program, compile_ruleset
from ..compiler.program import DEFAULT_MAX_DECISIONS  # noqa: F401  (the engine's name for it)
from ..compiler.fuse import EndlessLoop, failing_pc
from ..compiler.turns import OUT
from ..errors import GameRuntimeError, GameTooLong, IllegalMoveError, InvalidMoveError, OptionError
from ..language.locate import source_line
from ..language.unparse import unparse
from .legal import arg_text as _arg_text, compute_legal as _compute_legal, compute_legal_for as _compute_legal_for
from .legal import legal_each as _legal_each, link, value_text as _value_text
from .state import MAX_STEPS, TOLD_RANK, ImpossibleEffect, Move, Outcome, State, rule_at, seat_name  # noqa: F401  (rule_at: the engine's API)

_PROGRAMS: dict[tuple[int, bool], tuple[g.Ruleset, Program]] = {}  # in the order last asked for
PROGRAMS_KEPT = 160  # a bundled game's program is about 0.6 MB
_PROGRAMS_LOCK = threading.Lock()


def program_of(ruleset) -> Program:
    """The compiled form of a rule graph, compiled once per graph object (CARDRULES_PLAIN=1:
    the plain evaluator, the oracle the fast path is tested against)."""
    if isinstance(ruleset, Program):
        link(ruleset)
        return ruleset
    plain = os.environ.get("CARDRULES_PLAIN") == "1"
    key = (id(ruleset), plain)
    hit = _PROGRAMS.get(key)
    if hit is None or hit[0] is not ruleset:
        hit = (ruleset, compile_ruleset(ruleset, fast=not plain))
        link(hit[1])
    with _PROGRAMS_LOCK:  # (the studio's and the table's threads share it)
        _PROGRAMS.pop(key, None)
        _PROGRAMS[key] = hit
        while len(_PROGRAMS) > PROGRAMS_KEPT:  # the one asked for longest ago goes
            del _PROGRAMS[next(iter(_PROGRAMS))]
    return hit[1]


def resolve_options(program: Program, given: dict | None) -> list:
    """Defaults overlaid with `given` (values may be strings from a command line)."""
    values = [o.default for o in program.options]
    for name, raw in (given or {}).items():
        if name not in program.option_index:
            import difflib
            known = ", ".join(program.option_index) or "none"
            close = difflib.get_close_matches(str(name), list(program.option_index), n=3, cutoff=0.6)
            mean = " (did you mean " + " or ".join(repr(c) for c in close) + "?)" if close else ""
            raise OptionError(f"unknown option {name!r}{mean}; this game's options are: {known}")
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


def _fresh(p: Program, players: int, options: dict | None, seed: int, rng: bool = True) -> State:
    """A state before the rules run; without `rng`, no generator (the native engine draws in C)."""
    rs = p.ruleset
    if not isinstance(players, int) or not (rs.players_min <= players <= rs.players_max):
        span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
        raise OptionError(f"{rs.title or rs.name} is for {span} players, not {players}")
    s = State.__new__(State)
    s.program = p
    s.flash = 0
    s.n_players = players
    s.seats = tuple(range(players))
    s.opts = resolve_options(p, options)
    s.options = {o.name: v for o, v in zip(p.options, s.opts)}
    s.seed = seed
    lay = p.layouts.get(players)
    if lay is None:
        lay = p.layouts[players] = _layout(p, players)
    s.zbase, s.zowner, s.zkind, s.zcount, s.zone_names, s.zvis = lay
    zbase, zkind, n_inst = lay[0], lay[2], len(lay[2])
    s.declared = None
    s.zones = [[] for _ in range(n_inst)]
    start = zbase[0]
    s.zones[start] = list(range(p.n_cards))
    s.card_zone = [start] * p.n_cards
    s.card_kind = [zkind[start]] * p.n_cards
    s.card_owner = [None] * p.n_cards
    s.played_by = [None] * p.n_cards
    s.known = [False] * p.n_cards
    s.told = [0] * (p.n_cards * players) if p.tells else None
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
    s.sealed = {}  # `choose secretly by each`: decision pc -> (the deciders in order, {player: (alt, value)})
    s.rng = random.Random(seed) if rng else None
    s.rng_shared = None
    s.fired = [0] * len(p.rule_names)
    s.finished = False
    s.history = []
    s.decisions = 0
    s.choice = None
    s.actor = None
    s._legal = []
    s.memo = {}
    s.cmemo = {}  # the answers of definitions that read the cards alone: a variable set keeps them
    s.zver = 0
    s.legal_cache = {}
    s.native = None
    for v, (name, slot, init) in zip(p.var_nodes, p.vars):
        try:
            s.slots[slot] = init(s) if init else None
        except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError, ValueError) as exc:
            raise GameRuntimeError(f"the starting value of {name!r} cannot be worked out with {players} players: "
                                   f"{exc}", v.loc.file if v.loc else None, v.loc.line if v.loc else None,
                                   v.loc.column if v.loc else None, source_line(v.loc)) from None
    return s


def _layout(p: Program, players: int) -> tuple:
    """Where each zone's instances lie for a table size, their owners, kinds, names and
    visibility: the same for every game of that size, and never changed by play."""
    zbase, zcount = [], []
    for z in p.zones:
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
    return zbase, zowner, zkind, zcount, names, [p.zones[k].visibility for k in zkind]


def _run(s: State) -> None:
    _exec(s)


def _failure_words(exc: Exception) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "a division by zero"
    if isinstance(exc, ImpossibleEffect):
        return str(exc)
    if "NoneType" in str(exc) or "None" in str(exc):
        return "a card or player that is none here (nothing matched)"
    return f"something impossible ({type(exc).__name__}: {exc})"


def _located_failure(s: State, exc: Exception) -> GameRuntimeError:
    """A generated expression failed: name the statement, in the ruleset's own terms."""
    node = s.program.nodes[s.pc] if 0 <= s.pc < len(s.program.nodes) else None
    what = _failure_words(exc)
    loc = getattr(node, "loc", None)
    if node is not None and what.startswith("a card or player that is none"):
        what += _asked_definitions(s.program.ruleset, node)
    return GameRuntimeError(f"while playing, this statement met {what}", loc.file if loc else None,
                            loc.line if loc else None, loc.column if loc else None, source_line(loc))


def _asked_definitions(rs, node) -> str:
    """Where the none may come from, when the statement asks definitions: the error is located at
    the statement, and a new user's 6 nimmt! met it in `top(z) < c` of an empty row two
    definitions down, while the line shown tested `target(c) == none`."""
    defines = {d.name: d for d in rs.defines}
    seen: list = []
    todo = list(g.nodes_below(node, skip=lambda y: isinstance(y, g.STATEMENT_TYPES)))  # (its own expressions)
    while todo:
        x = todo.pop(0)
        if isinstance(x, g.Call) and x.func in defines and x.func not in seen:
            seen.append(x.func)
            todo.extend(g.nodes_below(defines[x.func].body))
    if not seen:
        return ""
    named = [f"{n} (line {defines[n].loc.line})" if defines[n].loc else n for n in seen[:4]]
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return (f"; it asks {listed}{' and more' if len(seen) > 4 else ''}: there too, the top, first, highest or "
            "the like of nothing is none")


def _at_rule(s: State, name: str, message: str, cls=GameRuntimeError) -> GameRuntimeError:
    """An error located where the rule (or phase) `name` is written, as `file:line:col`."""
    loc = s.program.rule_loc.get(name)
    return cls(message, loc.file if loc else None, loc.line if loc else None, loc.column if loc else None,
               source_line(loc))


def no_player(s: State, pc: int, by_text: str) -> GameRuntimeError:
    """`choose by X` where X is none: the error at the choice, as the native engine words it too."""
    s.pc = pc
    node = s.program.nodes[pc] if 0 <= pc < len(s.program.nodes) else None
    from ..compiler.program import _runtime
    return _runtime(f"in rule {rule_at(s, pc)[0]!r}, {by_text!r} names no player here", node)


def _stuck(s: State, pc: int) -> GameRuntimeError:
    s.pc = pc
    name, title = rule_at(s, pc)
    return _at_rule(s, name, "the rules loop for ever without asking anyone to decide "
                             f"(stuck in rule {name!r}, {title})")


def too_long(s: State) -> GameTooLong:
    """The game is at a decision after all the decisions it may take (`at most N decisions`, or
    DEFAULT_MAX_DECISIONS): the error that stops it, at the rule asking for one more. The native
    engine words its own the same (native/engine.py)."""
    p = s.program
    cap = p.max_decisions
    declared = p.ruleset.max_decisions is not None
    name, title = rule_at(s)
    if declared:
        bound = f"the most its ruleset allows ('at most {cap:,} decisions')"
    else:
        bound = ("the most a game that declares no bound may take (write 'at most N decisions' if it is "
                 "meant to be longer)")
    e = _at_rule(s, name, f"the game is not over after {cap:,} decisions, {bound}, and rule {name!r} ({title}) "
                          "asks for another: the rules may go round for ever", GameTooLong)
    e.decisions, e.declared = cap, declared
    return e


def _exec(s: State) -> None:
    """The rules from s.pc to the next decision (set up: who decides, their moves) or the end; a
    decision beyond the game's bound (Program.max_decisions) raises GameTooLong there."""
    code = s.program.code
    pc = s.pc
    steps = 0
    try:
        while True:
            op, a, b = code[pc]
            if op == TRACE:
                pc = a(s)
                if pc is None:  # the trace reached a decision and set it up
                    if s.decisions >= s.program.max_decisions:
                        raise too_long(s)
                    return
                if pc < 0:  # a loop turned
                    pc = ~pc
                    steps += 1
                    if steps > MAX_STEPS:
                        raise _stuck(s, pc)
            elif op == CHOOSE:
                actor = a.actor(s)
                if actor is None:
                    raise no_player(s, pc, a.by_text)
                s.pc, s.choice, s.actor = pc, a, actor
                s._legal = a.legal(s, actor)
                if s.decisions >= s.program.max_decisions:
                    raise too_long(s)
                return
            elif op == JUMP:
                pc = a
                steps += 1
                if steps > MAX_STEPS:
                    raise _stuck(s, pc)
            elif op == EXEC:
                a(s)
                pc = b
            elif op == JIF:
                pc = pc + 1 if a(s) else b
            elif op == CALL:
                s.stack.append(pc + 1)
                pc = a
            elif op == RET:
                pc = s.stack.pop()
            elif op == CHOOSE_EACH:
                waiting = s.pending.get(pc)
                if waiting is None:
                    waiting = s.pending[pc] = list(dict.fromkeys(p for p in a.actor(s) if p is not None))
                    if a.secret:
                        s.sealed[pc] = (tuple(waiting), {})
                if a.any:  # whoever of them has a move (or passes); none left: the decision is over
                    legal = _legal_each(s, a, waiting, pc) if waiting else []
                    if not legal:
                        del s.pending[pc]
                        pc += 1
                        continue
                    s.pc, s.choice, s.actor, s._legal = pc, a, legal[0].player, legal
                    if s.decisions >= s.program.max_decisions:
                        raise too_long(s)
                    return
                if not waiting:
                    if a.secret:  # everyone has chosen: carry the choices out, in the deciders' order
                        order, chosen = s.sealed[pc]
                        nxt = next((p for p in order if p in chosen), None)
                        if nxt is not None:
                            alt, v = chosen.pop(nxt)
                            s.slots[a.each_slot] = nxt
                            _bind(s, alt, v)
                            s.stack.append(pc)
                            pc = alt.body
                            continue
                        del s.sealed[pc]
                    del s.pending[pc]
                    pc += 1
                    continue
                s.pc, s.choice, s.actor = pc, a, waiting[0]
                s._legal = _legal_each(s, a, waiting, pc)
                if s.decisions >= s.program.max_decisions:
                    raise too_long(s)
                return
            else:  # END
                s.pc, s.finished, s.choice, s.actor, s._legal = pc, True, None, None, []
                return
    except EndlessLoop as exc:
        raise _stuck(s, exc.pc) from None
    except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError) as exc:
        s.pc = failing_pc(code[pc][1], pc, exc, s.program.plain_code)  # the instruction that failed, for the message
        raise _located_failure(s, exc) from None


def legal_moves(s: State) -> list[Move]:
    """The moves that may be made now, each with its player; empty when the game is over.
    Usually one player decides; at a `choose by each` several do, in any order."""
    return s._legal.copy()


def moves_for(s: State, player: int | None = None) -> list[Move]:
    """The legal moves of one player (default: the player to act)."""
    player = s.actor if player is None else player
    return [m for m in s._legal if m.player == player]


def moves_to_choose(s: State) -> list[Move]:
    """The legal moves of the player to act, for a player about to choose among them: asked
    where it has none (the game over, or another seat's turn), an error rather than no move."""
    moves = moves_for(s)
    if not moves:
        raise GameRuntimeError("no legal move to choose from")
    return moves


def deciders(s: State) -> list[int]:
    """Every player who may move now (several at a `choose by each`)."""
    seen = []
    for m in s._legal:
        if m.player not in seen:
            seen.append(m.player)
    return seen


def in_secret(s: State) -> bool:
    """Whether the pending decision is made in secret (`choose secretly by each`): a move made
    there must not be shown to the other players; its effect shows once everyone has chosen."""
    return bool(s.choice is not None and not s.finished and s.choice.secret)


def is_terminal(s: State) -> bool:
    return s.finished


def apply(s: State, move: Move | str) -> State:
    """Play a move (a Move, or its text for the player to act); returns the same state."""
    if s.finished:
        raise IllegalMoveError("the game is over; no more moves can be made")
    if isinstance(move, str):
        move = Move.parse(move, s.actor)
    for m in s._legal:
        if m is move:
            break
    else:  # not one of the engine's own Move objects: the legal move it equals
        key = (move.player, move.action, move.arg)
        m = next((x for x in s._legal if (x.player, x.action, x.arg) == key), None)
    if m is not None and s.native is not None:  # a game played in C
        s.native.play(m)
        return s
    if m is None and s.native is not None:
        s.native.sync()
    if m is not None:
        s.flash = 0  # (the cards this move shows: none yet)
        alt, v = m._offer
        if s.choice.secret:  # sealed until everyone has chosen; the decision point carries it out
            s.pending[s.pc].remove(m.player)
            s.sealed[s.pc][1][m.player] = (alt, v)
            s.history.append(m)
            s.decisions += 1
            _run(s)
            return s
        if alt.more:
            _bind(s, alt, v)
        elif alt.slot is not None:
            s.slots[alt.slot] = v
        if alt.decline:  # `choose by any`: this player passes until somebody moves
            s.pending[s.pc].remove(m.player)
            s.history.append(m)
            s.decisions += 1
            _run(s)
            return s
        if s.choice.any:  # the move is made: after it, everyone may act again
            del s.pending[s.pc]
            s.slots[s.choice.each_slot] = m.player
            s.stack.append(s.pc)
        elif s.choice.each_slot is not None:  # one of several deciders: note it, and come back
            s.pending[s.pc].remove(m.player)
            s.slots[s.choice.each_slot] = m.player
            s.stack.append(s.pc)
        s.history.append(m)
        s.decisions += 1
        s.pc = alt.body
        _exec(s)
        return s
    raise _explain_illegal(s, move)


def _bind(s: State, alt, v) -> None:
    """An action's parameters take the chosen value(s)."""
    if alt.more:
        s.slots[alt.slot] = v[0]
        for (slot, _), x in zip(alt.more, v[1:]):
            s.slots[slot] = x
    elif alt.slot is not None:
        s.slots[alt.slot] = v


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
    if alt.elem == "card" and not alt.more and move.arg is not None and move.arg not in p.card_names:
        return InvalidMoveError(f"{move.arg!r} is not a card of this deck (cards are written like {p.card_names[-1]})")
    if (alt.elem is None) != (move.arg is None):
        return InvalidMoveError(f"action {move.action!r} takes {'no argument' if alt.elem is None else _wants(alt)}")
    sets = "cards" in [alt.elem] + [e for _, e in alt.more]  # a chosen set: any number of cards
    if alt.more and not sets and len(move.arg.split()) != 1 + len(alt.more):
        return InvalidMoveError(f"action {move.action!r} takes {_wants(alt)}, written one after another: "
                                f"{next((m for m in s._legal if m.action == move.action), move.action + ' ...')}")
    reasons = []
    for a in alts:
        node = a.node
        if a.decline:
            reasons.append("a player passes only while they have another move")
        elif a.when is not None and not a.when(s):
            reasons.append(f"it is allowed only when {unparse(node.when)}")
        elif node.where is not None:
            reasons.append(f"the {_params_text(a)} and satisfy {unparse(node.where)}")
        elif node.domain is not None:
            reasons.append(f"the {_params_text(a)}")
    legal = ", ".join(str(m) for m in s._legal)
    return IllegalMoveError(f"{seat_name(move.player)} may not {move} now: {where} says "
                            + "; or ".join(reasons or ["no"]) + f". Legal now: {legal}")


def _wants(alt) -> str:
    elems = [alt.elem] + [e for _, e in alt.more]
    return " and ".join("a set of cards" if e == "cards" else f"a {e}" for e in elems)


def _params_text(alt) -> str:
    """'card must be in hand(p)', or for several parameters 'card must be in hand(p) and the zone in zones(pile)'."""
    node = alt.node

    def one(elem, domain):
        return f"cards must be some of {unparse(domain)}" if elem == "cards" else f"{elem} must be in {unparse(domain)}"
    text = one(alt.elem, node.domain)
    for (_, elem), m in zip(alt.more, node.more):
        text += f" and the {one(elem, m.domain)}"
    return text


def _synced(s: State) -> State:
    """A game played in C: its view brought up to date before it is read."""
    if s.native is not None:
        s.native.sync()
    return s


# what reading a score before the play has set what it needs may raise (a none added, a card
# looked up in a zone none names): the players, the solver's horizon and balance take it as no signal
SCORE_UNREADABLE = (GameRuntimeError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError)


def scores(s: State) -> tuple[int, ...]:
    """Every seat's score by the ruleset's winner rule, at any moment (all 0 without one)."""
    _synced(s)
    p = s.program
    if p.score is None:
        return tuple(0 for _ in s.seats)
    try:
        return tuple(p.score(s, seat) for seat in s.seats)
    except GameRuntimeError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError, ImpossibleEffect) as e:
        raise _score_failure(s, e) from None


def _score_failure(s: State, exc: Exception) -> GameRuntimeError:
    """The score could not be worked out (a none read, a division by zero): the error at the
    definition the winner rule names (at the winner rule, for a variable), as a rule's would be."""
    rs = s.program.ruleset
    name = rs.winner.score
    node = next((d for d in rs.defines if d.name == name), rs.winner)
    loc = node.loc
    return GameRuntimeError(f"while working out the score ({name!r}), the rules met {_failure_words(exc)}",
                            loc.file if loc else None, loc.line if loc else None, loc.column if loc else None,
                            source_line(loc))


def sides(s: State) -> tuple[tuple[int, ...], ...]:
    """The players grouped by the ruleset's `sides` line as they stand now (the players for whom
    its definition gives one value play together), each side in seat order and the sides by their
    first seat; every player alone when the ruleset has no such line."""
    _synced(s)
    p = s.program
    if p.sides is None:
        return tuple((seat,) for seat in s.seats)
    groups: dict = {}
    for seat in s.seats:
        try:
            key = p.sides(s, seat)
        except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError):
            loc = p.ruleset.sides.loc
            raise GameRuntimeError(f"the sides ({p.ruleset.sides.by!r}) cannot be worked out here: it met a card or "
                                   "player that is none, or something impossible",
                                   loc.file if loc else None, loc.line if loc else None,
                                   loc.column if loc else None, source_line(loc)) from None
        groups.setdefault(key, []).append(seat)
    return tuple(tuple(g) for g in groups.values())


def advice_values(s: State, seat: int) -> dict[str, int]:
    """Each of the ruleset's advice values for `seat` now (higher is better for that seat)."""
    _synced(s)
    out = {}
    for name, fn, node in s.program.advice:
        try:
            out[name] = fn(s, seat)
        except (TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError):
            loc = node.loc
            raise GameRuntimeError(f"the advice {name!r} cannot be worked out here: it met a card or player that "
                                   "is none (nothing matched), or something impossible",
                                   loc.file if loc else None, loc.line if loc else None,
                                   loc.column if loc else None, source_line(loc)) from None
    return out


def advice(s: State, seat: int) -> int | None:
    """How well `seat` stands by the ruleset's advice: the sum of its advice values (None
    when the ruleset gives no advice)."""
    if not s.program.advice:
        return None
    return sum(advice_values(s, seat).values())


def outcome(s: State) -> Outcome | None:
    """None while the game is running (or stuck); the winners and scores once it is over."""
    if not s.finished:
        return None
    _synced(s)
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
    if t == "ints":
        return list(v)  # (a list, as the native engine gives it, whatever the rules made it of)
    return v


def public_vars(s: State, private: bool = False) -> dict:
    """Every public game variable as players see it (names for cards and players; a variable kept
    per player as {"P1": ..., ...}); with `private`, the rules' own private ones too."""
    _synced(s)
    out = {}
    for v, (name, slot, _) in zip(s.program.ruleset.vars, s.program.vars):
        if v.private and not private:
            continue
        value = s.slots[slot]
        if v.params:
            out[name] = {seat_name(k): _fmt(s, v.type, x) for k, x in enumerate(value or [])}
        else:
            out[name] = _fmt(s, v.type, value)
    return out


def out_of_play(s: State) -> dict:
    """Who is out of play, for everyone to see (`drop P from the round|game`): {"P2": "round", ...}."""
    _synced(s)
    slot = next((slot for name, slot, _ in s.program.vars if name == OUT), None)
    if slot is None:  # no rule drops a player
        return {}
    out = s.slots[slot] or []
    return {seat_name(k): ("round" if x == 1 else "game") for k, x in enumerate(out) if x}


def told_of(s: State, c: int, player: int) -> dict | None:
    """What `player` was told of card c (`tell`): {"suit": ..., "rank": ...} as far as told, or None."""
    v = s.told[c * s.n_players + player]
    if not v:
        return None
    deck = s.program.ruleset.deck
    out = {}
    if v % TOLD_RANK:
        out["suit"] = deck.suits[v % TOLD_RANK - 1]
    if v // TOLD_RANK:
        out["rank"] = deck.ranks[v // TOLD_RANK - 1]
    return out


def observe(s: State, player: int) -> dict:
    """What `player` may see: every public zone, their own private zones, counts of the rest,
    cards shown face up, the public variables, and their legal moves when it is their turn."""
    zones = observe_zones(s, player)  # (brings a game in C up to date first)
    out = {
        "seat": seat_name(player),
        "players": s.n_players,
        "to_move": seat_name(s.actor) if s.current_player is not None else None,
        "rule": rule_at(s)[1] if s.choice is not None and not s.finished else None,
        "zones": zones,
        "vars": public_vars(s),
        "finished": s.finished,
    }
    out_now = out_of_play(s)
    if out_now:
        out["out_of_play"] = out_now
    mine = [str(m) for m in legal_moves(s) if m.player == player]
    if mine:
        out["legal"] = mine
    return out


def observe_zones(s: State, player: int) -> dict:
    """observe()'s zones: what `player` sees of each (the fuzzer checks them for every seat, the
    rest of an observation being the same for all)."""
    _synced(s)
    p = s.program
    name, known, told, sees = p.card_names.__getitem__, s.known, s.told, g.sees
    zones: dict = {}
    for zi, z in enumerate(p.zones):
        view = {}
        base, vis = s.zbase[zi], z.visibility
        for k in range(s.zcount[zi]):
            cards = s.zones[base + k]
            if sees(vis, s.zowner[base + k], player):
                seen = {"cards": list(map(name, cards))}
            else:
                seen = {"count": len(cards), "known": [name(c) for c in cards if known[c]]}
                if told is not None:  # what this player was told of each card, place by place
                    seen["told"] = [told_of(s, c, player) for c in cards]
            view[seat_name(k) if z.per_player else str(k + 1)] = seen
        zones[z.name] = view if (z.per_player or z.size) else view["1"]
    return zones


def fired_counts(s: State) -> dict[str, int]:
    _synced(s)
    return {name: s.fired[i] for i, name in enumerate(s.program.rule_names)}


def state_digest(s: State) -> str:
    """A fingerprint of the game as players know it (where every card lies, what is face up,
    the public variables, whether it is over), to confirm a replay. Engine internals such
    as the program counter stay out, so records survive changes to the engine."""
    _synced(s)
    p = s.program
    data = {
        "zones": [[p.card_names[c] for c in z] for z in s.zones],
        "known": [p.card_names[i] for i, k in enumerate(s.known) if k],
        "vars": public_vars(s, private=True),
        "to_move": seat_name(s.actor) if s.current_player is not None else None,
        "finished": s.finished,
        "declared": s.declared,
        "moves": len(s.history),
    }
    if s.told is not None:
        data["told"] = [[p.card_names[c // s.n_players], seat_name(c % s.n_players), v] for c, v in enumerate(s.told) if v]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

