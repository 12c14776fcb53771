"""What the OpenSpiel and PettingZoo adapters share: one `Spec` per ruleset, player count and
options: the action ids, the observation tensor and the returns. Needs numpy only.

Action encoding
---------------
Every move the rules can ever offer gets one integer id, fixed for a ruleset and a player
count, whatever the position and whatever the options' values. The ids are laid out in this
order: the action names sorted alphabetically; for one name, an action without a parameter
first, then each kind of parameter list; for each, every argument the parameter's type
allows, in the deck's own order:

* a card: every card of the deck, in deck order (`Move.arg` is its name);
* a player: every seat, P1 first (seats are absolute here);
* a suit or a rank: in the order the deck declares them;
* a zone: every zone of the table in declaration order (a per-player zone once per seat, a
  family of zones once per member), or only the zones of one kind when the action reads
  `z in zones(KIND)`;
* a number: the range its domain allows when that can be bounded from the rules alone
  (number literals, options, which count with their declared ranges so the ids do not
  depend on the options' values, `player_count`, definitions without parameters, + - *
  min max and if/then/else); otherwise the window `int_range` (default 0..100). A legal
  number outside it is an error that names the action.

* a set of cards (`S subset of CARDS`): every non-empty set of the deck's cards, numbered by its
  mask over the deck (card i: bit i), lowest first (`Move.arg` lists its cards in deck order).
  Only for a deck of at most MAX_SET_DECK (12) cards: a larger deck has too many sets to number
  one by one, and the adapters refuse the game with an error naming the action's set.

An action with several parameters takes every combination, the first parameter varying
slowest. Each id stands for one move text (`action` or `action argument...`, as `Move`
prints it), so the same name with the same argument in two places of the rules is one id.
`Spec.actions[id]` is (action, arg); `Spec.action_id(action, arg)` the way back;
`num_distinct_actions` is their count. Reordering rules does not change the ids; adding an
action shifts the ids of the names after it.

Observation tensor
------------------
A fixed-size vector of float32 per seat, from what that seat may see (as `engine.observe`),
with every other seat numbered relative to the observer (0 = the observer, 1 = the next
seat, ...), so one policy can play any seat. Its pieces, in order (`Spec.pieces`):

* `seat` (players): one-hot of the observer's absolute seat (all zero for the public view);
* `to_move` (players): one-hot of the relative seat to decide now; `deciding` (players):
  every seat that may still decide at this point (several at a `choose by each`);
* `decision` (choices): one-hot of the decision point (the compiled `choose`) pending;
* `finished` (1): the game is over (or cut short);
* `cards` (cards x (places + 1)): for each card, one-hot of where the observer sees it: one
  place per zone (per-player zones in relative seat order, a family of zones member by
  member), or the last column when the observer cannot see the card (another seat's
  private zone, a hidden zone, unless the card is face up);
* `top` (cards): the card is the top card of its zone and the observer sees it;
* `zone_sizes` (places): how many cards each zone holds, over the size of the deck (every
  seat may count every pile);
* `vars` (as many as needed): the public variables (never a `private var`), in declaration
  order, a per-player variable once per relative seat: a number as it is (clipped to +-1e9), true/false as 1/0,
  a player, card, zone, suit or rank one-hot with a last slot for none, a collection of
  them multi-hot; collections of numbers are left out.

The information-state tensor adds `moves` (players x actions): for each relative seat, how
many times it made each move so far (another seat's moves made in secret are not counted).

Returns
-------
`returns="win"` (the default): a sole winner gets 1 and the losers share its cost, -1/(n-1)
each; k winners split the win (each winner n/k-1 over n-1), so the returns always sum to 0
(a zero-sum game: +1/-1 with two players). No winner, or a game cut short, gives 0 to all.
A solitaire gets 1 for a win and 0 otherwise (general sum). `returns="score"`: each seat's
score placed between the worst (0) and the best (1) at the table by the game's winner rule,
0.5 for everyone when all scores are equal (general sum, for games where the margin
matters). `returns="points"`: each seat's score less the table's mean score, so the returns
sum to 0 (zero-sum; a game whose scores already sum to 0, chips won and lost, pays them as they
are); the scores are taken to lie at most `int_high - int_low` apart (the utility bounds say so,
and a game past them stops with a GameRuntimeError), and a solitaire is paid its score.
Nothing is paid before the end.

`Core`, a game in progress seen through a spec, and how chance and length work: core.py."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np

from ..bundled import bundled_name, resolve
from ..engine import Move, counted, new_game, outcome, program_of, resolve_options, scores, seat_name, shown, waiting
from ..errors import CardRulesError, GameRuntimeError, OptionError
from ..language.graph import draws_at_random
from ..language.graph import sees as g_sees

RETURNS = ("win", "score", "points")
DEFAULT_INT_RANGE = (0, 100)
INT_CLIP = 1e9
MAX_INT_SPAN = 100_000
MAX_SET_DECK = 12  # a set of cards is numbered by its mask over the deck: 2**12 - 1 sets at most
SAMPLE_TRIES = 20
CR_NONE = -(2 ** 63)  # the native engine's none (a score C cannot work out)
MAX_KNOWN_MOVES = 1 << 16  # Spec.learn_move's memory, forgotten when full

_RULESETS: dict = {}
_SPECS: dict = {}


def _load(path: Path):
    """A ruleset graph, loaded once per file version."""
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    rs = _RULESETS.get(key)
    if rs is None:
        from .. import load_ruleset
        rs = _RULESETS[key] = load_ruleset(path)
    return rs


def _option_text(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)




def spec_for(ruleset, players: int | None = None, options: dict | None = None, *, returns: str = "win",
             max_decisions: int | None = None, int_range: tuple[int, int] | None = None,
             engine: str = "auto") -> "Spec":
    """The spec of a ruleset (a path, or a bundled game's name) for `players` (default: the
    fewest it allows) and `options` ({name: value}, values as on the command line or typed),
    its games played by `engine` (auto, python or native: the same games; `spec.engine` says
    which and why). Raises OptionError for an unknown ruleset, player count, option or value,
    or an engine that cannot be had (native without a compiler)."""
    path = resolve(ruleset)
    rs = _load(Path(path))
    program = program_of(rs)
    n = rs.players_min if players in (None, 0) else players
    if isinstance(n, bool) or not isinstance(n, int) or not rs.players_min <= n <= rs.players_max:
        span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
        raise OptionError(f"{rs.title or rs.name} is for {span} players, not {players!r}")
    values = resolve_options(program, options)
    given = tuple(sorted((o.name, _option_text(v)) for o, v in zip(program.options, values) if v != o.default))
    if returns not in RETURNS:
        raise OptionError(f"returns is one of {', '.join(RETURNS)}, not {returns!r}")
    if returns == "points" and program.score is None:
        raise OptionError(f"returns='points' pays each seat's score, and {rs.title or rs.name} counts none")
    if max_decisions in (None, 0):
        max_decisions = None
    elif isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
        raise OptionError(f"max_decisions is a positive whole number, not {max_decisions!r}")
    lo, hi = DEFAULT_INT_RANGE if int_range is None else tuple(int_range)
    if lo > hi:
        raise OptionError(f"int_range is (low, high) with low <= high, not {int_range!r}")
    ref = bundled_name(Path(path)) or str(Path(path).resolve())
    from ..engines import choose
    choice = choose(program, engine)  # auto: native where a compiler builds it (OptionError: an unknown engine, or native not to be had)
    key = (ref, n, given, returns, max_decisions, (lo, hi), engine)
    spec = _SPECS.get(key)
    if spec is None or spec.ruleset is not rs:
        if len(_SPECS) > 256:
            _SPECS.clear()
        spec = _SPECS[key] = Spec(key, rs, program, n, {o.name: v for o, v in zip(program.options, values)}, choice)
    return spec


def spec_from_key(key: tuple) -> "Spec":
    ref, n, given, returns, max_decisions, int_range, engine = key
    return spec_for(ref, n, dict(given), returns=returns, max_decisions=max_decisions, int_range=int_range,
                    engine=engine)


class Spec:
    """One ruleset at one player count with its options: the action table, the observation
    layout, the returns and the game's type, computed once."""

    def __init__(self, key: tuple, ruleset, program, players: int, options: dict, engine=None):
        self.key = key
        self.ref, _, self.given, self.returns_mode, self.max_decisions, self.int_range, _ = key
        # the engine its games are played on (engines.EngineChoice: .name, .line, .native)
        self.engine = engine
        self.native = engine.native if engine is not None else None
        self.ruleset, self.program, self.players, self.options = ruleset, program, players, options
        self.title = ruleset.title or ruleset.name
        # the engine stops a game at its bound (program.max_decisions: the declared one, else
        # DEFAULT_MAX_DECISIONS) with an error; max_decisions cuts it short before that
        self.max_length = min(program.max_decisions, self.max_decisions or program.max_decisions)
        self.chance = draws_at_random(ruleset)
        self.imperfect = (any(z.visibility != "public" for z in program.zones)
                          or any(c.secret for c in program.choices))
        probe = new_game(program, players, options, 0)
        self.zone_names = list(probe.zone_names)
        self.zkind, self.zowner, self.zbase = list(probe.zkind), list(probe.zowner), list(probe.zbase)
        self.n_cards = program.n_cards
        self.card_names = program.card_names
        self._places(probe)
        self.choice_index = {id(c): i for i, c in enumerate(program.choices)}
        self.move_ids: dict[int, tuple] = {}  # id(an engine's Move) -> (the Move, its action id): learn_move
        # the public variables' slots, and their line of text (Core.vars_text) by the repr of their values
        self.public_slots = [slot for v, (_, slot, _) in zip(ruleset.vars, program.vars) if not v.private]
        self.vars_texts: dict | None = {}
        self._c_observer = self._c_actions = None
        self._action_table()
        self.no_mask = bytes(len(self.actions))  # (the mask of a seat not to act)
        self._layout()

    # -- the game's type
    @property
    def num_distinct_actions(self) -> int:
        return len(self.actions)

    @property
    def zero_sum(self) -> bool:
        return self.returns_mode in ("win", "points") and self.players > 1

    @property
    def utility_range(self) -> tuple[float, float]:
        n = self.players
        if self.returns_mode == "points":  # (scores at most int_high - int_low apart)
            lo, hi = self.int_range
            return (float(lo), float(hi)) if n == 1 else (-(hi - lo) * (n - 1) / n, (hi - lo) * (n - 1) / n)
        if self.zero_sum:
            return (-1.0 / (n - 1), 1.0)
        return (0.0, 1.0)

    # -- places: where a card can be, as an observer numbers them
    def _places(self, probe) -> None:
        n = self.players
        n_inst = len(self.zone_names)
        self.n_places = n_inst
        offsets, off = [], 0
        for zi, z in enumerate(self.program.zones):
            offsets.append(off)
            off += probe.zcount[zi]
        self.place_of, self.sees = {}, {}
        for observer in (None, *range(n)):
            base = 0 if observer is None else observer
            place = np.zeros(n_inst, np.int64)
            sees = np.zeros(n_inst, bool)
            for inst in range(n_inst):
                zi = self.zkind[inst]
                z = self.program.zones[zi]
                k = inst - self.zbase[zi]
                place[inst] = offsets[zi] + ((k - base) % n if z.per_player else k)
                sees[inst] = z.visibility == "public" or (observer is not None
                                                           and g_sees(z.visibility, self.zowner[inst], observer))
            self.place_of[observer], self.sees[observer] = place, sees
        self.card_rows = np.arange(self.n_cards, dtype=np.int64) * (n_inst + 1)

    # -- actions
    def _text(self, elem: str, v) -> str:
        if elem == "card":
            return self.card_names[v]
        if elem == "player":
            return seat_name(v)
        if elem == "suit":
            return self.ruleset.deck.suits[v]
        if elem == "rank":
            return self.ruleset.deck.ranks[v]
        if elem == "zone":
            return self.zone_names[v]
        if elem == "cards":  # a set, as its mask over the deck
            return " ".join(self.card_names[c] for c in range(v.bit_length()) if v >> c & 1)
        return str(v)

    def _universe(self, elem: str, domain, action: str) -> set:
        """Every value (in the engine's terms) a parameter of this type may take."""
        if elem == "card":
            return set(range(self.n_cards))
        if elem == "cards":
            if self.n_cards > MAX_SET_DECK:
                where = f"{domain.loc}: " if domain is not None and domain.loc is not None else ""
                raise OptionError(f"{where}action {action!r} takes a set of cards, which the adapters number by its "
                                  f"mask over the deck: a deck of {self.n_cards} cards has too many sets (at most "
                                  f"{MAX_SET_DECK} cards can be encoded)")
            return set(range(1, 1 << self.n_cards))
        if elem == "player":
            return set(range(self.players))
        if elem == "suit":
            return set(range(len(self.ruleset.deck.suits)))
        if elem == "rank":
            return set(range(len(self.ruleset.deck.ranks)))
        if elem == "zone":
            if (getattr(domain, "kind", None) == "call" and domain.func == "zones" and len(domain.args) == 1
                    and getattr(domain.args[0], "kind", None) == "name" and domain.args[0].name in self.program.zone_index):
                zi = self.program.zone_index[domain.args[0].name]
                return {inst for inst, k in enumerate(self.zkind) if k == zi}
            return set(range(len(self.zone_names)))
        if elem == "int":
            b = self._domain_bounds(domain, 0) or self.int_range
            if b[1] - b[0] + 1 > MAX_INT_SPAN:
                raise OptionError(f"action {action!r} takes a number from {b[0]} to {b[1]}: too many to number "
                                  f"one by one; give int_range=(low, high) with at most {MAX_INT_SPAN} values")
            return set(range(b[0], b[1] + 1))
        raise OptionError(f"action {action!r} takes a parameter of type {elem}, which has no action encoding")

    def _action_table(self) -> None:
        by_name: dict[str, dict[tuple, list[set]]] = {}
        for choice in self.program.choices:
            for alt in choice.alts:
                if alt.elem is None:
                    by_name.setdefault(alt.name, {}).setdefault((), [])
                    continue
                elems = (alt.elem, *[e for _, e in alt.more])
                domains = [alt.node.domain, *[m.domain for m in alt.node.more]]
                sets = by_name.setdefault(alt.name, {}).setdefault(elems, [set() for _ in elems])
                for i, (el, dom) in enumerate(zip(elems, domains)):
                    sets[i] |= self._universe(el, dom, alt.name)
        actions: list[tuple[str, str | None]] = []
        index: dict[tuple[str, str | None], int] = {}
        for name in sorted(by_name):
            for sig in sorted(by_name[name], key=lambda s: (len(s), s)):
                if not sig:
                    keys = [(name, None)]
                else:
                    per = [[self._text(el, v) for v in sorted(vals)] for el, vals in zip(sig, by_name[name][sig])]
                    keys = [(name, " ".join(combo)) for combo in product(*per)]
                for k in keys:
                    if k not in index:
                        index[k] = len(actions)
                        actions.append(k)
        self.actions, self.index = actions, index
        # the cards each action names, and who sees each zone (engine/shown.py): what a step asks
        # to know whether a move took a card out of some seat's sight
        self.card_args = [shown.named_cards(self.program, arg) for _, arg in actions]
        self.sight = None

    def action_id(self, action: str, arg: str | None = None) -> int:
        """The id of a move (its action name and argument text, as `Move` holds them)."""
        try:
            return self.index[(action, arg)]
        except KeyError:
            raise OptionError(f"{action}{'' if arg is None else ' ' + arg} has no action id in {self.title}") from None

    def learn_move(self, move, action_id: int) -> None:
        """Remember an engine's Move object's action id, so that the next time it is legal its id
        is one look-up by identity (the engines make each move once per program and keep it; the
        object is kept here too, so that its id() is not reused)."""
        if len(self.move_ids) >= MAX_KNOWN_MOVES:
            self.move_ids.clear()
        self.move_ids[id(move)] = (move, action_id)

    def action_text(self, action_id: int) -> str:
        name, arg = self.actions[action_id]
        return name if arg is None else f"{name} {arg}"

    def _domain_bounds(self, e, depth: int):
        """(low, high) of the numbers a collection expression can hold, or None."""
        if depth > 24 or e is None:
            return None
        k = e.kind
        if k == "binop" and e.op == "..":
            lo, hi = self._value_bounds(e.left, depth + 1), self._value_bounds(e.right, depth + 1)
            return None if lo is None or hi is None else (lo[0], hi[1])
        if k == "binop" and e.op == "+":  # a union of two collections
            return _union(self._domain_bounds(e.left, depth + 1), self._domain_bounds(e.right, depth + 1))
        if k == "list":
            out = None
            for item in e.items:
                b = self._value_bounds(item, depth + 1)
                if b is None:
                    return None
                out = b if out is None else _union(out, b)
            return out
        if k == "agg" and e.op == "those":
            return self._domain_bounds(e.domain, depth + 1)
        if k == "cond":
            return _union(self._domain_bounds(e.then, depth + 1), self._domain_bounds(e.else_, depth + 1))
        if k == "name":
            d = self._define(e.name)
            return None if d is None else self._domain_bounds(d.body, depth + 1)
        return None

    def _value_bounds(self, e, depth: int):
        """(low, high) of a number expression, or None when the rules alone do not bound it."""
        if depth > 24 or e is None:
            return None
        k = e.kind
        if k == "int":
            return (e.value, e.value)
        if k == "unop" and e.op == "-":
            b = self._value_bounds(e.operand, depth + 1)
            return None if b is None else (-b[1], -b[0])
        if k == "binop" and e.op in ("+", "-", "*", "/", "mod"):
            a, b = self._value_bounds(e.left, depth + 1), self._value_bounds(e.right, depth + 1)
            if a is None or b is None:
                return None
            if e.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if e.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            if e.op == "*":
                ends = [x * y for x in a for y in b]
                return (min(ends), max(ends))
            if b[0] == b[1] and b[0] > 0:
                if e.op == "mod":
                    return (0, b[0] - 1)
                return (a[0] // b[0], a[1] // b[0])
            return None
        if k == "cond":
            return _union(self._value_bounds(e.then, depth + 1), self._value_bounds(e.else_, depth + 1))
        if k == "call" and e.func in ("min", "max") and e.args:
            bs = [self._value_bounds(a, depth + 1) for a in e.args]
            if any(b is None for b in bs):
                return None
            pick = min if e.func == "min" else max
            return (pick(b[0] for b in bs), pick(b[1] for b in bs))
        name = e.name if k == "name" else (e.func if k == "call" and not e.args else None)
        if name is None:
            return None
        if name == "player_count":
            return (self.players, self.players)
        if name in self.program.option_index:
            o = self.program.options[self.program.option_index[name]]
            if o.type != "int":
                return None
            if o.low is not None and o.high is not None:
                return (o.low, o.high)
            return (self.options[name], self.options[name])
        d = self._define(name)
        return None if d is None else self._value_bounds(d.body, depth + 1)

    def _define(self, name: str):
        d = next((d for d in self.ruleset.defines if d.name == name), None)
        return d if d is not None and not d.params else None

    # -- the observation layout
    def _layout(self) -> None:
        n, nc, npl = self.players, self.n_cards, self.n_places
        deck = self.ruleset.deck
        widths = {"int": 1, "bool": 1, "player": n + 1, "card": nc + 1, "zone": npl + 1, "suit": len(deck.suits) + 1,
                  "rank": len(deck.ranks) + 1, "players": n, "cards": nc, "zones": npl, "suits": len(deck.suits),
                  "ranks": len(deck.ranks)}
        self.var_codes = []  # (slot, type, per_player, offset within `vars`)
        width = 0
        low, high = [], []
        for v, (name, slot, _) in zip(self.ruleset.vars, self.program.vars):
            w = widths.get(v.type, 0)
            if not w or v.private:  # a private variable is the rules' own: no seat observes it
                continue
            per = bool(v.params)
            self.var_codes.append((slot, v.type, per, width, w))
            count = n if per else 1
            width += w * count
            lo = -INT_CLIP if v.type == "int" else 0.0
            hi = INT_CLIP if v.type == "int" else 1.0
            low += [lo] * (w * count)
            high += [hi] * (w * count)
        pieces = [("seat", (n,), 0.0, 1.0), ("to_move", (n,), 0.0, 1.0), ("deciding", (n,), 0.0, 1.0),
                  ("decision", (max(1, len(self.program.choices)),), 0.0, 1.0), ("finished", (1,), 0.0, 1.0),
                  ("cards", (nc, npl + 1), 0.0, 1.0), ("top", (nc,), 0.0, 1.0), ("zone_sizes", (npl,), 0.0, 1.0)]
        if width:
            pieces.append(("vars", (width,), np.array(low, np.float32), np.array(high, np.float32)))
        self.pieces = pieces
        self.info_pieces = pieces + [("moves", (n, len(self.actions)), 0.0, float(self.max_length))]
        self.offsets = {}
        off = 0
        for name, shape, _, _ in self.info_pieces:
            self.offsets[name] = off
            off += int(np.prod(shape))
        self.obs_size = self.offsets["moves"]
        self.info_size = off

    def c_observer(self, nat=None):
        """The observations written by C (c_observations.py) on a ruleset's library (`nat`, a
        NativeProgram; default: the one this spec's games are played on)."""
        nat = nat or self.native
        ob = self._c_observer
        if ob is None or ob.nat is not nat:
            from .c_observations import CObserver
            ob = self._c_observer = CObserver(self, nat)
        return ob

    def c_actions(self, nat):
        """The action ids worked out by C (c_actions.py) on a ruleset's library (`nat`, a NativeProgram)."""
        t = self._c_actions
        if t is None or t.nat is not nat:
            from .c_actions import ActionTable
            t = self._c_actions = ActionTable(self, nat)
        return t

    def bounds(self, info_state: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value of each entry of the (flat) tensor."""
        size = self.info_size if info_state else self.obs_size
        low, high = np.zeros(size, np.float32), np.zeros(size, np.float32)
        for name, shape, lo, hi in (self.info_pieces if info_state else self.pieces):
            a = self.offsets[name]
            b = a + int(np.prod(shape))
            low[a:b], high[a:b] = lo, hi
        return low, high

    def encode(self, core: "Core", player: int | None, out: np.ndarray | None = None,
               info_state: bool = False) -> np.ndarray:
        """The tensor of what `player` sees (None: what everybody sees), written into `out`
        (a flat float32 array of the right size) or a new array."""
        native = core.state.native if core.state is not None else None
        if native is not None and not info_state:  # written by C (every entry), no view made; kept
            ob = self._c_observer                  # nowhere: C writes it again sooner than a copy is kept
            if ob is None or ob.nat is not native.np:
                ob = self.c_observer(native.np)
            t = ob.one(native, player, out)
            if out is None:
                out = t.copy()
            if not core.state.finished and core.terminal():  # (cut short, or nobody can move: C knows no such end)
                self.mark_over(out)
            return out
        if native is None:
            core = core.view()
        memo = core.memo
        key = (player, info_state)
        hit = memo.get(key)
        if hit is not None:
            if out is None:
                return hit.copy()
            out[:] = hit
            return out
        if out is None:
            out = np.zeros(self.info_size if info_state else self.obs_size, np.float32)
        else:
            out.fill(0.0)
        self._encode(core, player, out, info_state)
        memo[key] = out.copy()
        return out

    def _encode(self, core: "Core", player: int | None, out: np.ndarray, info_state: bool) -> None:
        s = core.state
        o = self.offsets
        if s.native is not None:  # written by C, no view made
            self.c_observer(s.native.np).one(s.native, player, out)
            if not s.finished and core.terminal():  # (cut short, or nobody can move: C knows no such end)
                self.mark_over(out)
        else:
            self._encode_python(core, player, out)
        if info_state:
            n, base, a = self.players, 0 if player is None else player, len(self.actions)
            moves = out[o["moves"]:o["moves"] + n * a].reshape(n, a)
            for r in range(n):
                q = (base + r) % n
                moves[r] = core.pub[q]
                if q == player:
                    moves[r] += core.sec[q]

    def mark_over(self, out: np.ndarray) -> None:
        """A tensor (or rows of them) written by C for a game the rules did not end but that is
        over all the same (cut short): shown as over, nobody to move."""
        o = self.offsets
        out[..., o["to_move"]:o["finished"]] = 0.0
        out[..., o["finished"]] = 1.0

    def _encode_python(self, core: "Core", player: int | None, out: np.ndarray) -> None:
        s = core.view().state
        n = self.players
        base = 0 if player is None else player
        o = self.offsets
        if player is not None:
            out[o["seat"] + player] = 1.0
        if core.terminal():
            out[o["finished"]] = 1.0
        else:
            out[o["to_move"] + (s.actor - base) % n] = 1.0
            for q in waiting(s) or [s.actor]:
                out[o["deciding"] + (q - base) % n] = 1.0
            ci = self.choice_index.get(id(s.choice))
            if ci is not None:
                out[o["decision"] + ci] = 1.0
        top = o["top"]
        cz = np.array(s.card_zone, np.int64)
        vis = self.sees[player][cz] | np.array(s.known, bool)
        for pile in s.zones:
            if pile and vis[pile[-1]]:
                out[top + pile[-1]] = 1.0
        sizes = np.fromiter(map(len, s.zones), np.float32, len(s.zones))
        col = np.where(vis, self.place_of[player][cz], self.n_places)
        out[o["cards"] + self.card_rows + col] = 1.0
        out[o["zone_sizes"] + self.place_of[player]] = sizes / self.n_cards
        if self.var_codes:
            self._encode_vars(s.slots, base, out, o["vars"])

    def _encode_vars(self, slots, base: int, out: np.ndarray, at: int, codes=None) -> None:
        n = self.players
        put = self._put
        for slot, t, per, off, w in self.var_codes if codes is None else codes:
            value = slots[slot]
            if not per:
                put(t, value, base, out, at + off, w)
                continue
            values = value if isinstance(value, (list, tuple)) and len(value) == n else [None] * n
            start = at + off
            if t == "int":
                for r in range(n):
                    x = values[(base + r) % n]
                    if x:
                        out[start + r] = x if -INT_CLIP <= x <= INT_CLIP else max(-INT_CLIP, min(INT_CLIP, x))
            elif t == "bool":
                for r in range(n):
                    if values[(base + r) % n]:
                        out[start + r] = 1.0
            else:
                for r in range(n):
                    put(t, values[(base + r) % n], base, out, start + r * w, w)

    def _put(self, t: str, v, base: int, out: np.ndarray, at: int, w: int) -> None:
        if t == "int":
            out[at] = 0.0 if v is None else max(-INT_CLIP, min(INT_CLIP, float(v)))
        elif t == "bool":
            out[at] = 1.0 if v else 0.0
        elif t in ("player", "card", "zone", "suit", "rank"):
            out[at + (self._slot(t, v, base) if v is not None else w - 1)] = 1.0
        elif v is not None:  # a collection
            for x in v:
                if x is not None:
                    out[at + self._slot(t[:-1], x, base)] = 1.0

    def _slot(self, t: str, v, base: int) -> int:
        if t == "player":
            return (v - base) % self.players
        if t == "zone":
            return int(self.place_of[base][v])
        return v

    # -- text views
    def view_text(self, core: "Core", player: int | None) -> str:
        """What `player` sees (None: what everybody sees), as text: who decides, every zone
        (the cards the observer may see, else how many there are and which are face up) and
        the public variables."""
        core = core.view()
        s = core.state
        who = seat_name(player) if player is not None else "public view"
        lines = [f"{who}; {counted(self.players, 'player')}; decision {s.decisions}"]
        if core.terminal():
            lines.append("game over" if s.finished else "game cut short")
        else:
            deciders = waiting(s) or [s.actor]
            rule = s.rule_title
            lines.append("to move: " + ", ".join(seat_name(q) for q in deciders) + (f" ({rule})" if rule else ""))
        names = self.card_names
        sees = self.sees[player]
        for inst, pile in enumerate(s.zones):
            if sees[inst]:
                lines.append(f"{self.zone_names[inst]}: " + (" ".join(names[c] for c in pile) if pile else "-"))
            else:
                shown = [names[c] for c in pile if s.known[c]]
                lines.append(f"{self.zone_names[inst]}: {len(pile)} cards" + (f", face up: {' '.join(shown)}" if shown else ""))
        if core.vars_text():
            lines.append(core.vars_text())
        return "\n".join(lines)

    def referee_text(self, core: "Core") -> str:
        """Everything about the position (every card, the variables), for debugging and for
        telling states apart."""
        core = core.view()
        text = core.memo.get("referee")
        if text is None:
            text = core.memo["referee"] = self._referee_text(core)
        return text

    def _referee_text(self, core: "Core") -> str:
        s = core.state
        names = self.card_names
        lines = [f"{self.title}; {counted(self.players, 'player')}; seed {s.seed}; decision {s.decisions}"]
        if core.terminal():
            o = outcome(s) if s.finished else None
            lines.append(str(o) if o is not None else "cut short, no result")
        else:
            lines.append("to move: " + ", ".join(seat_name(q) for q in (waiting(s) or [s.actor])))
        for inst, pile in enumerate(s.zones):
            lines.append(f"{self.zone_names[inst]}: " + " ".join(names[c] + ("*" if s.known[c] else "") for c in pile))
        if core.vars_text():
            lines.append(core.vars_text())
        return "\n".join(lines)

    # -- returns
    def returns(self, core: "Core") -> list[float]:
        st = core.state
        if st is not None and st.native is not None and core.terminal():  # (read from C, no view made)
            paid = self._returns_in_c(st.native)
            if paid is not None:
                return paid
        core = core.view()
        n = self.players
        s = core.state
        if not core.terminal() or not s.finished:
            return [0.0] * n
        if self.returns_mode == "score":
            return _standing(s, n)
        if self.returns_mode == "points":
            return self.points(scores(s))
        o = outcome(s)
        return self.payoff(o.winners if o is not None else ())

    def _returns_in_c(self, g) -> list[float] | None:
        """The returns of a native game that is over, from its C state (the scores by cr_score, the
        winners declared), as `returns` gives them; None when C cannot say (a score it cannot
        work out: the Python engine's, or its error, then)."""
        n, p = self.players, self.program
        if not g._view.finished:  # (cut short)
            return [0.0] * n
        lib = g.np.lib
        values = None
        if p.score is not None:
            values = [lib.cr_score(g.mem, q) for q in range(n)]
            if CR_NONE in values:
                return None
        if self.returns_mode == "score":
            return _placed(values, n, p.winner_rule) if values is not None else [0.5] * n
        if self.returns_mode == "points":
            return self.points(values)
        info = g._info
        lib.cr_info(g.mem, info)
        if info[7]:  # (declared)
            winners = [q for q in range(n) if info[8] >> q & 1]
        elif values is None:
            winners = []
        else:
            best = max(values) if p.winner_rule == "most" else min(values)
            winners = [q for q, v in enumerate(values) if v == best]
        return self.payoff(winners)

    def points(self, values) -> list[float]:
        """`returns="points"`: each seat's score less the mean (a solitaire's score as it is)."""
        n = self.players
        mean = sum(values) / n if n > 1 else 0.0
        paid = [float(v - mean) for v in values]
        lo, hi = self.utility_range
        if any(not lo <= x <= hi for x in paid):
            raise GameRuntimeError(f"returns='points': the scores {list(values)} lie further apart than the "
                                   f"utility bounds ({lo}, {hi}) allow: give an int_range as wide as their spread")
        return paid

    def payoff(self, winners, values=None) -> list[float]:
        """The returns of a game the rules ended, from its winners (or, with `returns="score"`,
        its seats' scores by the winner rule: `values`, None when they cannot be had)."""
        n = self.players
        if self.returns_mode == "score":
            return _placed(values, n, self.program.winner_rule) if self.program.score is not None else [0.5] * n
        winners = set(winners)
        if not winners:
            return [0.0] * n
        if n == 1:
            return [1.0 if 0 in winners else 0.0]
        share = 1.0 / len(winners)
        return [(n * (share if i in winners else 0.0) - 1.0) / (n - 1) for i in range(n)]


def _union(a, b):
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _standing(s, n: int) -> list[float]:
    """Each seat's score between the worst (0) and the best (1) at the table, by the winner rule."""
    if s.program.score is None:
        return [0.5] * n
    try:
        sc = scores(s)
    except (CardRulesError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError):
        return [0.5] * n
    return _placed(sc, n, s.program.winner_rule)


def _placed(sc, n: int, rule: str) -> list[float]:
    if sc is None:
        return [0.5] * n
    lo, hi = min(sc), max(sc)
    if hi == lo:
        return [0.5] * n
    if rule == "fewest":
        return [(hi - v) / (hi - lo) for v in sc]
    return [(v - lo) / (hi - lo) for v in sc]
