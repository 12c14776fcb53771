"""The game state and the small value types: a State is plain lists, ints and bit masks, kept
in step by its own effects (move, deal, shuffle, reveal), cheap to clone."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from ..compiler.program import MAX_STEPS  # noqa: F401  (the engine's name for it)
from ..compiler.runtime import ImpossibleEffect  # noqa: F401  (the engine's name for it)
from ..errors import InvalidMoveError


def _runs(n: int) -> list:
    """The positions random.Random.shuffle fills for n cards, n-1 down to 1, in runs that
    draw the same number of bits: bit_length per card was a quarter of the shuffle."""
    runs, i = [], n - 1
    while i > 0:
        k = (i + 1).bit_length()
        lo = max(1, (1 << (k - 1)) - 1)
        runs.append((k, range(i, lo - 1, -1)))
        i = lo - 1
    _RUNS[n] = runs
    return runs


_RUNS: dict[int, list] = {}


def _shuffle(getrandbits, x: list) -> None:
    """random.Random.shuffle written out (the same draws, so the same order), without its two
    method calls per card: in a short game the shuffle was most of the time. Drawing the words
    in bulk and rejecting in Python was slower: a pack needs several top-ups."""
    for k, positions in _RUNS.get(len(x)) or _runs(len(x)):
        for i in positions:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]


def _same_shuffle() -> bool:
    """Whether this Python's own shuffle draws as _shuffle does, in order and in number (checked
    once; if a future Python changes its shuffle, the engine keeps using that one)."""
    for seed in range(4):
        ra, rb = random.Random(seed), random.Random(seed)  # one drawn word too many or too few shows later
        for n in (0, 1, 2, 3, 4, 33, 60, 129):
            a, b = list(range(n)), list(range(n))
            ra.shuffle(a)
            _shuffle(rb.getrandbits, b)
            if a != b:
                return False
        if ra.getrandbits(32) != rb.getrandbits(32):
            return False
    return True


_SAME_SHUFFLE = _same_shuffle()


TOLD_RANK = 256  # State.told: the suit told (+1) in the low byte, the rank told (+1) above it


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

    def __reduce__(self):  # a move the engine offers carries its action (engine/legal.py): not pickled
        return (Move, (self.player, self.action, self.arg))

    @classmethod
    def parse(cls, text: str, player: int) -> "Move":
        """'lead King-Hearts' -> Move(player, 'lead', 'King-Hearts'); an action with several
        parameters keeps them together: 'put 2-Blue pile1' -> Move(player, 'put', '2-Blue pile1')."""
        parts = text.split()
        if not parts:
            raise InvalidMoveError(f"a move is an action name and its arguments, if any, not {text!r}")
        return cls(player, parts[0], " ".join(parts[1:]) if len(parts) > 1 else None)


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


def counted(n: int, noun: str) -> str:
    """'1 player', '3 players': a patience is played by one player, not by 1 players."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


class State:
    """A game in progress. Plain lists and ints only: pydantic stays off the hot path."""

    __slots__ = ("program", "n_players", "seats", "opts", "options", "seed", "zones", "card_zone",
                 "played_by", "known", "card_kind", "card_owner", "zbase", "zcount", "zone_names", "declared", "zowner", "zkind", "slots", "pc", "stack", "rng",
                 "fired", "finished", "history", "decisions", "choice", "actor", "_legal", "memo", "cmemo", "pending", "sealed",
                 "zmask", "kmask", "omask", "upmask", "rng_shared", "zvis", "zver", "legal_cache", "native", "told",
                 "flash")
    # `told`: None when no rule tells anything; else, at c * n_players + q, what player q was told of
    # card c (`tell`): TOLD_SUIT * (suit + 1) + TOLD_RANK * (rank + 1), 0 for nothing. It stays with
    # the card wherever it goes (a determinisation moves it with the card's place: see positions.py)
    # `flash`: the cards (bit c for card c) that lay face up, or in view of all, while the move made
    # last was made: a card played to the trick and gathered face down with it was seen (shown.py)
    # `native`: None, or the game in C this State is the view of (interpreter/native/engine.py): the
    # engine's functions then bring the view up to date before reading it (`native.sync()`), and
    # `apply` and `clone` go through it

    # -- primitive effects the compiled statements call
    def shuffle(self, zi: int) -> None:
        cards = self.zones[zi]
        self.memo = {}
        self.cmemo = {}
        self.zver += 1
        rng = self.chance()
        if rng.__class__ is random.Random and _SAME_SHUFFLE:
            _shuffle(rng.getrandbits, cards)
        else:
            rng.shuffle(cards)
        known = self.known
        for c in cards:
            known[c] = False
        if self.program.masks:
            self.upmask &= ~self.zmask[zi]

    def _move_top(self, cards: list, src: int, to: int, face_up: bool, under: bool) -> None:
        """Distinct cards that are the top of one zone: both lists change once, and the masks
        once for them all. The cards land as one by one moves would put them."""
        n = len(cards)
        pile = self.zones[src]
        if cards is pile:
            cards = list(cards)
        del pile[-n:]
        dest = self.zones[to]
        if under:
            dest[0:0] = cards[::-1]
        else:
            dest.extend(cards)
        zowner = self.zowner
        o, to_owner, to_kind = zowner[src], zowner[to], self.zkind[to]
        card_zone, kind, cowner = self.card_zone, self.card_kind, self.card_owner
        for c in cards:
            card_zone[c] = to
            kind[c] = to_kind
            cowner[c] = to_owner
        if o is not None:
            played_by = self.played_by
            for c in cards:
                played_by[c] = o
        vis = self.zvis[to]
        shown = face_up or vis == "public"
        if shown or vis == "hidden":
            known = self.known
            for c in cards:
                known[c] = shown
            if shown:
                flash = self.flash
                for c in cards:
                    flash |= 1 << c
                self.flash = flash
        if self.program.masks:
            bits = self.program.card_bit
            m = 0
            for c in cards:
                m |= bits[c]
            zmask, kmask, omask = self.zmask, self.kmask, self.omask
            zmask[src] ^= m
            zmask[to] |= m
            kmask[self.zkind[src]] ^= m
            kmask[to_kind] |= m
            omask[o] ^= m
            omask[to_owner] |= m
            if shown:
                self.upmask |= m
            elif vis == "hidden":
                self.upmask &= ~m

    def _move_plain(self, cards: list, to: int, face_up: bool, under: bool) -> None:
        """A program that reads no bit mask keeps none: only the lists and per-card indexes."""
        zones, card_zone, owner = self.zones, self.card_zone, self.zowner
        to_kind = self.zkind[to]
        to_owner = owner[to]
        kind, cowner, known = self.card_kind, self.card_owner, self.known
        vis = self.zvis[to]
        for c in cards:
            src = card_zone[c]
            pile = zones[src]
            if pile[-1] == c:  # the top card (a draw, a deal): no search
                pile.pop()
            else:
                pile.remove(c)
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
            if face_up or vis == "public":
                known[c] = True
                self.flash |= 1 << c
            else:
                known[c] = known[c] and vis != "hidden"

    def move_card(self, c: int, to: int, face_up: bool) -> None:
        """One card to the top of a zone: what generated code calls for `move c to z`, the
        commonest effect, without the list and the tests `move` makes for many cards."""
        self.memo = {}
        self.cmemo = {}
        self.zver += 1
        src = self.card_zone[c]
        pile = self.zones[src]
        if pile[-1] == c:  # the top card (a draw, a deal): no search
            pile.pop()
        else:
            pile.remove(c)
        self.zones[to].append(c)
        self.card_zone[c] = to
        vis = self.zvis[to]
        o, to_owner = self.zowner[src], self.zowner[to]
        if o is not None:
            self.played_by[c] = o
        if self.program.masks:
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
            if o != to_owner:
                omask = self.omask
                omask[o] ^= b
                omask[to_owner] |= b
                self.card_owner[c] = to_owner
            if face_up or vis == "public":
                self.known[c] = True
                self.flash |= 1 << c
                self.upmask |= b
            elif vis == "hidden":
                self.known[c] = False
                self.upmask &= ~b
            return
        self.card_kind[c] = self.zkind[to]
        self.card_owner[c] = to_owner
        if face_up or vis == "public":
            self.known[c] = True
            self.flash |= 1 << c
        elif vis == "hidden":
            self.known[c] = False

    def move(self, cards: list, to: int, face_up: bool, under: bool = False) -> None:
        self.memo = {}
        self.cmemo = {}
        self.zver += 1  # the cards changed: moves worked out before are stale
        n = len(cards)
        if n == 1 and not under:  # the common case
            return self.move_card(cards[0], to, face_up)
        if not self.program.masks:
            # without masks only a top lying in order pays: card by card, top(stock, 2) searches
            # the stock for its first card, while a deal's reversed top pops as quickly
            if n > 1:
                src = self.card_zone[cards[0]]
                pile = self.zones[src]
                if pile[-1] != cards[0] and pile[-n:] == cards:
                    return self._move_top(cards, src, to, face_up, under)
            return self._move_plain(cards, to, face_up, under)
        if n:
            src = self.card_zone[cards[0]]
            top = self.zones[src][-n:]
            if top == cards or top[::-1] == cards:  # a zone's top in either order (a deal, a whole hand)
                return self._move_top(cards, src, to, face_up, under)
        if not cards:
            return
        card_zone, zowner = self.card_zone, self.zowner
        to_kind, to_owner = self.zkind[to], zowner[to]
        vis = self.program.zones[to_kind].visibility
        bits, zmask, kmask, omask = self.program.card_bit, self.zmask, self.kmask, self.omask
        kind, cowner, played_by, known = self.card_kind, self.card_owner, self.played_by, self.known
        dest = self.zones[to]
        if len(cards) < 5 or len(set(cards)) != len(cards):
            leaving = None  # one by one (a card named twice moves twice and ends where the second move puts it)
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
                k = len(gone)
                if len(pile) >= k and gone.issuperset(pile[-k:]):  # taken from the top
                    del pile[-k:]
                else:
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
                pile = self.zones[src]
                if pile[-1] == c:
                    pile.pop()
                else:
                    pile.remove(c)
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
                self.flash |= 1 << c
                up |= b
            elif hidden or not known[c]:
                known[c] = False
                up &= ~b
        self.upmask = up

    def deal(self, n: int, src: int, zi: int, face_up: bool, first: int = 0, skip: tuple = ()) -> None:
        """`skip`: the seats passed over (`deal ... in play`), as C's crt_cards_deal_some."""
        base = self.zbase[zi]
        pile = self.zones[src]
        count = self.zcount[zi]
        if n < 0:
            raise ImpossibleEffect(f"a deal of {n} cards (a deal gives 0 or more)")
        if n == 0:  # nothing dealt: the general move, as for any other empty move
            for i in range(count):
                if (first + i) % count not in skip:
                    self.move([], base + (first + i) % count, face_up)
            return
        for i in range(count):
            if (first + i) % count in skip:
                continue
            self.memo = {}
            self.cmemo = {}
            self.zver += 1
            take = pile[-n:]
            if take:
                take.reverse()
                self._move_top(take, src, base + (first + i) % count, face_up, False)

    def tell(self, cards: list, who: int, rank: bool) -> None:
        """`tell suit/rank of cards to who`: each card's suit (rank) is kept for that player."""
        if who is None:
            raise ImpossibleEffect("a tell to none (tell ... to PLAYER needs a player)")
        p, told, n = self.program, self.told, self.n_players
        for c in cards:
            if c is None:
                continue
            k = c * n + who
            if rank:
                told[k] = told[k] % TOLD_RANK + TOLD_RANK * (p.card_rank[c] + 1)
            else:
                told[k] = told[k] - told[k] % TOLD_RANK + p.card_suit[c] + 1
        self.zver += 1
        self.memo = {}
        self.cmemo = {}

    def declare(self, winners: tuple) -> None:
        self.declared = tuple(sorted(set(w for w in winners if w is not None)))

    def reveal(self, cards: list) -> None:
        self._set_face(cards, True)

    def conceal(self, cards: list) -> None:
        """`turn CARDS face down`: no longer face up (a player still sees what their zone shows)."""
        self._set_face(cards, False)

    def _set_face(self, cards: list, face_up: bool) -> None:
        self.memo = {}
        self.cmemo = {}
        self.zver += 1
        bits, known, up = self.program.card_bit, self.known, self.upmask
        for c in cards:
            if c is not None:
                known[c] = face_up
                if face_up:
                    self.flash |= 1 << c
                # the mask is kept whether or not masks are in use (an int is cheap)
                up = up | bits[c] if face_up else up & ~bits[c]
        self.upmask = up

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
        self.cmemo = {}
        self.zver += 1
        self.legal_cache = {}

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
        if self.native is not None:
            return self.native.clone()._view  # (brought up to date when read, as after a move)
        s = State.__new__(State)
        copy_slots(self, s)
        s.zones = [list(z) for z in self.zones]
        s.card_zone = list(self.card_zone)
        s.card_kind = list(self.card_kind)
        s.card_owner = list(self.card_owner)
        s.played_by = list(self.played_by)
        s.known = list(self.known)
        if self.told is not None:
            s.told = list(self.told)
        s.zmask = list(self.zmask)
        s.kmask = list(self.kmask)
        s.omask = dict(self.omask)
        s.slots = [list(v) if isinstance(v, list) else v for v in self.slots]
        s.stack = list(self.stack)
        s.pending = {k: list(v) for k, v in self.pending.items()}
        s.sealed = {k: (order, dict(chosen)) for k, (order, chosen) in self.sealed.items()} if self.sealed else {}
        s.fired = list(self.fired)
        s.history = list(self.history)
        # the generator is shared until one side draws (copying its state is most of a clone)
        s.rng_shared = "plain"
        self.rng_shared = self.rng_shared or "same"
        s._legal = list(self._legal) if self._legal is not None else None
        s.memo = {}
        s.cmemo = {}
        s.legal_cache = {}
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


def rule_at(s: State, pc: int | None = None) -> tuple[str, str]:
    """The rule being played at pc (default: now): the innermost rule around the
    instruction or, inside a procedure, around the place that performed it."""
    if s.native is not None:  # a game in C: its view's place and stack brought up to date first
        s.native.sync()
    p = s.program
    pc = s.pc if pc is None else pc
    r = p.rule_at[pc] if 0 <= pc < len(p.rule_at) else None
    if r is None:
        for ret in reversed(s.stack):
            r = p.rule_at[ret - 1]
            if r is not None:
                break
    return r if r is not None else ("(no rule)", "(no rule)")


def _slot_copier():
    """copy_slots(src, dst): every slot of a State set on another, one assignment each (written
    out once: several times faster than a loop of getattr and setattr, and a clone is made at
    every look-ahead)."""
    text = "def copy_slots(src, dst):\n" + "".join(f"    dst.{name} = src.{name}\n" for name in State.__slots__)
    scope: dict = {}
    exec(compile(text, "<State.copy_slots>", "exec"), scope)
    return scope["copy_slots"]


copy_slots = _slot_copier()
