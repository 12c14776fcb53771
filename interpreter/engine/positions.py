"""Positions set up by hand, and readers that need no engine internals: for scenario tests,
the fuzzer's reproductions and search players (determinise)."""

from __future__ import annotations

import random

from ..language import graph as g
from ..compiler import Program
from ..compiler.turns import OUT
from ..errors import InvalidMoveError, OptionError
from .play import _compute_legal, _fmt, _fresh, _run, _synced, legal_moves, program_of
from .state import Move, State


def position(ruleset, players: int, phase: str, zones: dict | None = None, vars: dict | None = None,
             options: dict | None = None, seed: int = 0, *, rest=None, face_up=None,
             played_by: dict | None = None, shuffle: bool = True, out_of_play: dict | None = None) -> State:
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
    out_of_play  {seat: "round" or "game"}: the players dropped (`drop P from the round|game`), as
               observe shows them; everyone else is in play.
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
    if out_of_play:
        slot = next((sl for n, sl, _ in p.vars if n == OUT), None)
        if slot is None:
            raise OptionError("no rule of this game drops a player, so nobody can be out of play")
        for seat, until in out_of_play.items():
            if until not in ("round", "game"):
                raise OptionError(f"a player is out of play for the 'round' or the 'game', not {until!r}")
            s.slots[slot][_seat(seat, players)] = 1 if until == "round" else 2
    s.memo = {}  # definitions evaluated while the variables were initialised
    s.cmemo = {}
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
    inst = _zone_arg(_synced(state), zone if which is None else (zone, which), "cards_in")  # (a game in C: its view)
    names = state.program.card_names
    return [names[c] for c in state.zones[inst]]


def card_info(state: State, card: str) -> dict:
    """Where one card lies and what is known of it, in the ruleset's terms (the referee's view):
    {"zone": zone name, "which": seat of a per-player zone, number (from 1) in a family of
    zones, or None, "owner": the seat owning that zone or None, "played_by": seat or None,
    "face_up": whether every player knows the card}. `cards_in(state, info["zone"],
    info["which"])` lists the card's zone. Raises InvalidMoveError for a name that is not a
    card of this deck."""
    p = _synced(state).program
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
    state.cmemo = {}
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


def determinise(state: State, player, rng: random.Random, reseed: bool = False) -> State:
    """A clone of `state` in which every card whose identity `player` cannot know is put in
    a random place among the places of such cards: one possible truth consistent with what
    `player` sees now (for a search player, sampling what the others may hold).

    A card is unknown to `player` when it lies in a zone `player` may not look into (a
    hidden zone, another player's owner-only zone, a shared owner-only zone, or the player's own
    zone of a kind everyone else sees, `others`) and it
    is not face up (known to everyone) there. Those cards are shuffled, with `rng` (a
    random.Random; the same generator state gives the same result), among the positions
    they occupy, across zones: another player's hand may receive cards from the stock, the
    stock from a hand. Everything `player` can know stays as it was: every zone's size,
    every public or own zone, every face-up card and where it lies, the variables, the
    decision pending, the history, the seed's generator. `played_by` stays with the
    position, not the card (the new card in a place counts as played by whoever played
    the card that was there), and so does what each player was told of the card there (`tell`):
    what `player` was told constrains nothing in the sample (a card told red may be given a
    blue one), as for inferences below. A card named by a variable keeps its name there, wherever
    it now lies. The legal moves of the pending decision are recomputed for the new cards
    (those of `player` are unchanged when the rules hide nothing they should not).

    The sample ignores what `player` could infer from the play so far (a player who could
    not follow suit may be given that suit again), so it may be a position the rules could
    never reach; when another player must decide, their legal moves may even come out empty
    (the game looks stuck: `legal_moves` is [] and `state.current_player` None). A search
    player should skip such a sample or draw again.

    With `reseed`, the sample's own chance (later shuffles, `random`) is also drawn from `rng`,
    since nobody knows how the cards will fall next; without it the sample keeps the game's.

    Choices made in secret (`choose secretly by each`) by others and not yet carried out are
    unknown too: at the decision pending, those players are to choose again; a choice sealed at
    an earlier decision that is still being carried out is left out of the sample.

    `player` is a seat (0-based, or 'P1'). The state itself is not changed."""
    who = _seat(player, state.n_players)
    t = state.native.python_copy() if state.native is not None else state.clone()  # cards moved by hand: Python's
    if t.sealed and _unseal(t, who) and not t.finished:
        recompute_legal(t)
    zones = t.program.zones
    spots = [(inst, k) for inst, cards in enumerate(t.zones)
             if not _sees(zones[t.zkind[inst]].visibility, t.zowner[inst], who)
             for k, c in enumerate(cards) if not t.known[c]]
    if len(spots) > 1:
        played = [t.played_by[t.zones[inst][k]] for inst, k in spots]
        n = t.n_players
        told = [t.told[t.zones[inst][k] * n:(t.zones[inst][k] + 1) * n] for inst, k in spots] if t.told is not None else None
        # the sample depends only on which cards are unknown, not on where they truly are
        cards = sorted(t.zones[inst][k] for inst, k in spots)
        rng.shuffle(cards)
        for j, ((inst, k), c, pb) in enumerate(zip(spots, cards, played)):
            t.zones[inst][k] = c
            t.played_by[c] = pb
            if told is not None:  # what was told stays with the place, as what the player sees there
                t.told[c * n:(c + 1) * n] = told[j]
        t.recount()  # every per-card index and cache follows the zone lists again
        recompute_legal(t)
    if reseed:
        t.rng, t.rng_shared = random.Random(rng.getrandbits(64)), None
    return t


def _unseal(t: State, who: int) -> bool:
    """Forget the others' sealed choices (see determinise); True when any was forgotten."""
    changed = False
    for pc, (order, chosen) in t.sealed.items():
        others = [p for p in chosen if p != who]
        for p in others:
            del chosen[p]
            changed = True
            if pc == t.pc:  # the decision pending: they are to choose again, in the deciders' order
                pending = t.pending[pc]
                pending.append(p)
                pending.sort(key=order.index)
    return changed


def _sees(visibility: str, owner: int | None, player: int) -> bool:
    return g.sees(visibility, owner, player)


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


def frozen_value(v):
    """A variable's value as a hashable one: a collection kept per player is a list of lists."""
    return tuple([frozen_value(x) if x.__class__ in (list, tuple) else x for x in v])
