"""A game played by a ruleset's C engine, with the Python engine's interface.

`native_program(program)` (program.py) compiles a Program's lowered form to C (codegen/), builds
it into a shared library (cached, toolchain.py) and loads it. `NativeGame` plays one game in C:
the legal moves are the Python engine's own Move objects (engine/legal.py's tables), and after
every step a Python `State` (`view`) is brought up to date from the C state, so `observe`,
`public_vars`, `state_digest`, `outcome` and `scores` run unchanged on it."""

from __future__ import annotations

import array
import ctypes
import random
import threading

from ..compiler.runtime import EMPTY_MESSAGE
from ..language import sizes
from ..engine import play
from ..engine.legal import _made, value_text
from ..engine.state import Move, State
from ..errors import GameRuntimeError, IllegalMoveError
from ..language.unparse import unparse
from .codegen.expr import NativeUnsupported
from .program import NativeProgram, _begun, c_source, check_signals, native_program, view_copy, want_guard
from .rng import seed_words

CR_NONE = -(2 ** 63)
# failure kinds, as runtime/cr_engine.h numbers them
E_NONE, E_INDEX, E_ZERO, E_OVERFLOW, E_STUCK, E_DEAL, E_NOPLAYER, E_LIST, E_DEPTH, E_STATE, E_DEAL_AT, \
    E_MOVE_NONE, E_SEATS_AT, E_TELL_NONE, E_LONG, E_INTR, E_RANGE, E_SET, E_SETS_TRIED, E_SETS, E_NEGPOW, E_EMPTY = range(1, 23)


class NativeGame:
    """One game in C. `view` is a Python State equal to it (zones, faces, variables, whose turn,
    the legal moves), brought up to date when it is read, for everything that reads a State;
    `legal_moves` and `apply` alone never need it."""

    def __init__(self, ruleset, players: int, options: dict | None = None, seed: int = 0, mem: ctypes.Array | None = None,
                 attach: bool = False):
        """`mem`: the room its C state is to live in (a batch's games lie in one block), else its own;
        with `attach`, the game already there (begun from `seed`), taken as it stands."""
        p = play.program_of(ruleset)
        self.np = native_program(p)
        start, opt_arr, size = self.np.start_of(players, options)
        self._view: State = _begun(start, seed)  # C draws: no generator here
        self._origin = (options, seed)  # the game's start: a failure is played again from it in Python
        self._view.native = self  # the engine's functions read the view through sync()
        self._stale = True
        self.actions = None  # an adapter's action ids in C (adapters/c_actions.py: GameActions)
        lib = self.np.lib
        self.mem = (ctypes.c_uint64 * ((size + 7) // 8))() if mem is None else mem
        words = seed_words(seed)
        seed_arr = (ctypes.c_uint32 * max(len(words), 1))(*words)
        self._alts, self._whos, self._vals, self._ids = self.np.buffers()
        self._info = (ctypes.c_int64 * 10)()
        self._pcards = None  # the cards' block in mem (cr_cards), found once
        self._seen = None    # remember()'s two arrays and C's views of them, made once for the pair
        self._bind()
        if not attach:
            lib.cr_new(self.mem, size, players, seed_arr, len(words), opt_arr)
        self._step(-1)  # the first decision's moves looked up, as after any step (a failure: the long way)

    def _bind(self) -> None:
        """The pointers a decision's call into C takes, made once for the game."""
        self._pmem = ctypes.c_void_p(ctypes.addressof(self.mem))
        self._addr = ctypes.addressof(self.mem)
        self._pinfo = ctypes.c_void_p(ctypes.addressof(self._info))
        self._pids = ctypes.c_void_p(ctypes.addressof(self._ids))
        self._known = self.np.moves_by_id.setdefault(self._view.n_players, {})
        self._choices = self.np.p.choices
        self._cap = self.np.max_moves
        self._arrays = None  # the cards' arrays in C, as the view reads them (_sync_cards)

    @property
    def view(self) -> State:
        if self._stale:
            self._sync()
        return self._view

    def sync(self) -> None:
        if self._stale:
            self._sync()

    def play(self, m: Move) -> None:
        """One of the legal moves (the engine's own object), from engine.apply."""
        s = self._view
        i = next(k for k, x in enumerate(s._legal) if x is m)
        s.history.append(m)
        self._step(i)

    def play_at(self, i: int) -> None:
        """The i-th legal move (engine.apply, the move's place known)."""
        s = self._view
        s.history.append(s._legal[i])
        self._step(i)

    def clone(self) -> "NativeGame":
        """A game of its own from here: the C state copied (no pointers inside: a memmove)."""
        g = NativeGame.__new__(NativeGame)
        g.np = self.np
        g.mem = type(self.mem).from_buffer_copy(self.mem)  # (one copy, no zeroing first)
        g._alts, g._whos, g._vals, g._ids = self.np.buffers()
        g._info = (ctypes.c_int64 * 10)()
        g._view = view_copy(self._view)  # (brought up to date from the copy's own C state when read)
        g._view.native = g
        g._pmem = ctypes.c_void_p(ctypes.addressof(g.mem))  # (_bind, the rest as the game cloned)
        g._addr = ctypes.addressof(g.mem)
        g._pinfo = ctypes.c_void_p(ctypes.addressof(g._info))
        g._pids = ctypes.c_void_p(ctypes.addressof(g._ids))
        g._known, g._choices, g._cap, g._arrays = self._known, self._choices, self._cap, None
        g._pcards, g._seen = None, None  # (its own mem's)
        g._stale = True
        g._origin = self._origin
        g.actions = None
        return g

    def load(self, s: State, adopt: bool = False) -> None:
        """Put a position of the Python engine (a determinisation, a State built by hand) into
        this game's C state, its decision worked out again; the view becomes a copy of it (or,
        with `adopt`, that very State, which the caller gives up)."""
        lib, m, p = self.np.lib, self.np.module, self.np.p
        I32, I64 = ctypes.c_int32, ctypes.c_int64

        def none(v):
            return CR_NONE if v is None else int(v)
        flat = [c for z in s.zones for c in z]
        lens = (I32 * len(s.zones))(*map(len, s.zones))
        rc = lib.crt_cards_load(lib.cr_cards(self.mem), lens, (I32 * max(len(flat), 1))(*flat),
                                (ctypes.c_uint8 * p.n_cards)(*map(bool, s.known)),
                                (I32 * p.n_cards)(*(-1 if w is None else w for w in s.played_by)), s.zver)
        if rc:
            raise ValueError(f"a position whose cards the native engine cannot take ({rc})")
        for slot in range(p.n_slots):
            kind, v = m.slot_kind.get(slot), s.slots[slot]
            if kind == "value":
                lib.cr_set_slot(self.mem, slot, none(v))
            elif kind == "list":
                xs = [none(x) for x in (v or ())]
                lib.cr_set_list(self.mem, m.list_index[slot], (I64 * max(len(xs), 1))(*xs), len(xs))
            elif kind == "pv":
                for seat, x in enumerate(v or ()):
                    lib.cr_set_player_var(self.mem, m.pv_index[slot], seat, none(x))
            elif kind == "pvl":
                for seat, xs in enumerate(v or ()):
                    xs = [none(x) for x in xs]
                    lib.cr_set_player_list(self.mem, m.pvl_index[slot], seat, (I64 * max(len(xs), 1))(*xs), len(xs))
        declared = sum(1 << w for w in (s.declared or ()))
        lib.cr_set_control(self.mem, s.pc, int(s.finished), s.decisions, int(s.declared is not None), declared,
                           (I32 * max(len(s.stack), 1))(*s.stack), len(s.stack),
                           (I64 * max(len(s.fired), 1))(*s.fired))
        w, n = self.np.nparams, s.n_players
        for k, (ch, pc) in enumerate(self.np.sites):
            waiting = s.pending.get(pc)
            order, chosen = s.sealed.get(pc, ((), {}))
            on, alt, vals = [0] * n, [0] * n, [CR_NONE] * (n * w)
            for seat, (a, v) in chosen.items():
                on[seat], alt[seat] = 1, ch.alts.index(a)
                elems = [a.elem] + [e for _, e in a.more]
                for j, (e, x) in enumerate(zip(elems, v if a.more else (v,))):
                    vals[seat * w + j] = sum(1 << c for c in x) if e == "cards" and x is not None else none(x)
            lib.cr_set_site(self.mem, k, int(waiting is not None), (I32 * max(n, 1))(*(waiting or ())), len(waiting or ()),
                            int(pc in s.sealed), (I32 * max(n, 1))(*order), len(order), (I32 * n)(*on), (I32 * n)(*alt),
                            (I64 * (n * w))(*vals))
        lib.cr_set_rng(self.mem, _words_of([s.rng]))
        if p.tells:
            lib.cr_set_told(self.mem, (I32 * len(s.told))(*s.told), len(s.told))
        v = s if adopt and s.native is None else State.clone(_detached(s))
        v.native = self
        self._origin = None
        self._view = v
        rc = lib.cr_resume(self.mem)
        if not rc and s.actor is not None and s.choice is not None and s.choice.each_slot is not None:
            lib.cr_set_actor(self.mem, s.actor)  # whom the position names, as it names them
        self._after(rc)

    def python_copy(self) -> State:
        """The position as a State of the Python engine alone (every local, the generator too),
        for tools that change a state by hand (determinise). Kept until the next move: a search
        asks for one a sample."""
        if self._stale or getattr(self, "_copy", None) is None or self._copy[0] != len(self._view.history):
            self.sync()
            self._sync_locals()
            v = self._view
            v.native = None
            try:
                self._copy = (len(v.history), v.clone())
            finally:
                v.native = self
        return self._copy[1].clone()

    def sync_locals(self) -> None:
        """The view brought up to date, its procedures' local values too (which a rule's
        condition may read: the fuzzer evaluates actions on the view), but not the generator."""
        self.sync()
        lib, s, m = self.np.lib, self._view, self.np.module
        n = self.np.p.n_slots
        values = (ctypes.c_int64 * max(n, 1))()
        lib.cr_slots(self.mem, values, n)
        for slot in self.np.local_slots:
            if m.slot_kind.get(slot) == "list":
                s.slots[slot] = self._slot_value(slot, "int", False)
            else:
                v = values[slot]
                s.slots[slot] = None if v == CR_NONE else v

    def _sync_locals(self) -> None:
        lib, s = self.np.lib, self._view
        self.sync_locals()
        words = (ctypes.c_uint32 * 625)()
        lib.cr_rng_words(self.mem, words)
        s.rng, s.rng_shared = random.Random(), None
        s.rng.setstate((3, tuple(words), None))

    # ---- the engine's interface
    def legal_moves(self) -> list[Move]:
        return self._view._legal.copy()

    def apply(self, move: Move) -> None:
        s = self._view
        if s.finished:
            raise IllegalMoveError("the game is over; no more moves can be made")
        legal = s._legal
        for i, m in enumerate(legal):
            if m is move:
                break
        else:  # not one of the engine's own Move objects: the legal move it equals
            key = (move.player, move.action, move.arg)
            i = next((k for k, m in enumerate(legal) if (m.player, m.action, m.arg) == key), None)
            if i is None:
                raise IllegalMoveError(f"{move} is not a legal move now")
        s.history.append(s._legal[i])
        self._step(i)

    def _step(self, i: int) -> None:
        """Move i (none when i < 0) and what follows it, in one call into C; the moves made
        before are looked up."""
        self._stepped(self.np.raw_step(self._pmem, i, self._pinfo, self._pids, self._cap))

    def _stepped(self, n: int, legal: list | None = None) -> None:
        """After a call that stepped the game as cr_step does (n: its count of legal moves, their
        ids and the state's info in this game's buffers): the view's whose turn and legal moves
        (`legal`: the caller's list of them, the engine's own Move objects)."""
        pc, finished, actor, choice, _, decisions, err = self._info[:7]
        if n < 0 or err or finished:  # too many moves, a failure, the end: the long way
            return self._after(0)
        s = self._view
        self._stale = True
        s.pc, s.decisions = pc, decisions
        s.choice, s.actor = self._choices[choice], actor
        if legal is not None:
            s._legal = legal
            return
        try:
            s._legal = list(map(self._known.__getitem__, self._ids[:n]))
        except KeyError:  # a move not made before
            return self._after(0)

    def playout(self, rngs: list, max_decisions: int = 1 << 62, record: bool = True, each=None) -> int:
        """Random players to the end (or max_decisions) inside C: each decision the player to
        act draws one of their moves with `rngs[actor]` (or rngs[0] for everyone), as
        bots.RandomBot does with random.Random; the generators move on as theirs would.
        The moves made go to `view.history`, as the engine's own Move objects; or, with `each`,
        each(action, player) is told of every move instead (and the history stays as it is).
        A recorded game is played PLAYOUT_STEP decisions a call, into this thread's buffer."""
        width = 3 + self.np.nparams
        s, p, lib = self._view, self.np.p, self.np.lib
        record = record or each is not None
        room = _playout_room(width * PLAYOUT_STEP) if record else (ctypes.c_int64 * 1)()
        n = ctypes.c_int64()
        done = 0
        want_guard(lib)
        while True:
            step = min(max_decisions - done, PLAYOUT_STEP) if record else max_decisions - done
            arr = _words_of(rngs)
            rc = lib.cr_playout(self.mem, arr, len(rngs), step, room, step if record else 0, ctypes.byref(n))
            per = len(arr) // len(rngs)
            for k, r in enumerate(rngs):  # the generators moved on as in C
                r.setstate((3, tuple(arr[k * per:(k + 1) * per]), None))
            made = n.value
            if record:
                flat = room[:width * made]
                for k in range(0, len(flat), width):
                    alt = p.choices[flat[k]].alts[flat[k + 1]]
                    if each is not None:
                        each(alt, flat[k + 2])
                    else:
                        s.history.append(self._move(alt, flat[k + 2], flat[k + 3:k + width]))
            done += made
            if rc == E_INTR:  # Ctrl-C (or SIGTERM) in C: the game on to a decision, then Python's handler
                rc = self._interrupted()
                if not rc and done < max_decisions:
                    continue  # (a handler that returned: play on)
            if rc or made < step or done >= max_decisions:
                break
        self._after(rc)
        return done

    def _interrupted(self) -> int:
        """A guarded call stopped by a signal: the rules cut short between two instructions go on
        to the next decision (so the game stays whole), then Python's handler runs
        (check_signals: Ctrl-C raises KeyboardInterrupt, the view brought up to date first); the
        failure the rules met on the way, or 0."""
        lib = self.np.lib
        lib.cr_info(self.mem, self._info)
        rc = lib.cr_resume(self.mem) if self._info[6] == E_INTR else 0
        if rc:
            return rc
        try:
            check_signals()
        except BaseException:
            self._after(0)
            raise
        return 0

    # ---- keeping the view equal to the C state
    def _after(self, rc: int) -> None:
        """After a step in C: whose turn and the legal moves now; the rest of the view when read."""
        lib, s, p = self.np.lib, self._view, self.np.p
        info = self._info
        lib.cr_info(self.mem, info)
        pc, finished, actor, choice, n_legal, decisions, err = info[:7]
        self._stale = True
        s.pc, s.decisions = pc, decisions
        if err:
            s._legal, s.choice = [], None
            self._sync()
            if err == E_LONG:  # the C state says all the Python engine would (it stops at the same decision)
                raise self._failure(err, pc)
            raise self._python_failure() or self._failure(err, pc)
        s.finished = bool(finished)
        if s.finished:
            s.choice, s.actor, s._legal = None, None, []
            return
        ch = p.choices[choice]
        s.choice, s.actor = ch, actor
        n = lib.cr_legal(self.mem, self._alts, self._whos, self._vals, self.np.max_moves)
        w = self.np.nparams
        vals = self._vals[:n * w]
        alts, whos = self._alts, self._whos
        s._legal = [self._move(ch.alts[alts[i]], whos[i], vals[i * w:(i + 1) * w]) for i in range(n)]
        if n <= self.np.max_moves:  # learn the moves' ids, for _step
            lib.cr_step(self.mem, -1, info, self._ids, self.np.max_moves)
            known = self.np.moves_by_id.setdefault(s.n_players, {})
            for k, m in zip(self._ids[:n], s._legal):
                if k >= 0:
                    known[k] = m

    def _sync(self) -> None:
        """The view's zones, faces, variables, rules fired, procedure stack and decisions waiting."""
        lib, s, p = self.np.lib, self._view, self.np.p
        self._stale = False
        info = self._info
        lib.cr_info(self.mem, info)
        declared_set, declared, n_zones = info[7:10]
        self._sync_cards(n_zones)
        if p.tells:
            told = (ctypes.c_int32 * (p.n_cards * s.n_players))()
            lib.cr_told(self.mem, told, len(told))
            s.told = list(told)
        for slot, (typ, per_player) in self.np.var_types.items():
            s.slots[slot] = self._slot_value(slot, typ, per_player)
        s.fired = self.fired()
        stack = self.np.stack_buffer()
        s.stack = stack[:max(lib.cr_stack(self.mem, stack, 256), 0)]
        s.declared = tuple(i for i in range(s.n_players) if declared >> i & 1) if declared_set else None
        self._sites()

    def _sync_cards(self, n_zones: int) -> None:
        """The view's zones, faces, who played each card, every per-card index and the masks, read
        straight out of the cards' arrays in C (their layout: cr_view_layout), as State.recount
        would rebuild them from the zones (the masks are in the same bit space). Read through
        memoryviews (tolist in C), the masks in one read: a table's page reads the view after
        every move."""
        s, nc = self._view, self.np.p.n_cards
        lens, flat, known, played, card_zone, masks, _ = self._layout()
        n = lens[:n_zones].tolist()
        s.zones = [flat[z * nc:z * nc + n[z]].tolist() for z in range(n_zones)]
        s.known = list(map(bool, known.tobytes()))
        s.played_by = [None if w < 0 else w for w in played.tolist()]
        zone = card_zone.tolist()
        s.card_zone = zone
        s.card_kind = list(map(s.zkind.__getitem__, zone))
        s.card_owner = list(map(s.zowner.__getitem__, zone))
        all_masks = masks()
        nk = len(s.program.zones)
        s.zmask = all_masks[:n_zones]
        s.kmask = all_masks[n_zones:n_zones + nk]
        owners = all_masks[n_zones + nk:n_zones + nk + s.n_players + 1]
        s.omask = {None: owners[0], **{seat: owners[seat + 1] for seat in s.seats}}
        s.upmask = all_masks[n_zones + nk + s.n_players + 1]
        s.memo, s.cmemo, s.legal_cache = {}, {}, {}
        s.zver += 1

    def _layout(self) -> tuple:
        """The cards' arrays in C, where they lie in this game's memory (cr_view_layout, asked once
        per program: the same offsets in every game's memory): each zone's length and cards, which
        cards are known, who played each, each card's zone (memoryviews over the memory), and a
        function reading every mask (each zone's, each kind's, each owner's, the cards face up: in
        that order, as ints). Sliced from one view of the memory: a game cloned to be moved on
        (a table's every move) makes them again."""
        at = self._arrays
        if at is None:
            s, nc = self._view, self.np.p.n_cards
            lay = self.np.view_layout(self.mem)
            nz = len(s.zkind)
            nk, owners = len(s.program.zones), s.n_players + 1
            w = lay[9]
            mem = memoryview(self.mem).cast("B")

            def view(off, size, n, fmt):
                return mem[off:off + size * n].cast(fmt)
            counts = (nz, nk, owners, 1)
            starts = [lay[5 + k] for k in range(4)]
            whole = all(starts[k + 1] == starts[k] + counts[k] * 8 * w for k in range(3))
            if whole:  # (the runtime lays them out one after another)
                words = view(starts[0], 8, sum(counts) * w, "Q")
                if w == 1:
                    masks = words.tolist
                elif w == 2:
                    def masks():
                        q = words.tolist()
                        return [lo | hi << 64 for lo, hi in zip(q[0::2], q[1::2])]
                else:
                    def masks():
                        raw, b = words.tobytes(), 8 * w
                        return [int.from_bytes(raw[i:i + b], "little") for i in range(0, len(raw), b)]
            else:
                def masks():
                    out = []
                    for start, k in zip(starts, counts):
                        raw = mem[start:start + k * 8 * w].tobytes()
                        out += [int.from_bytes(raw[i * 8 * w:(i + 1) * 8 * w], "little") for i in range(k)]
                    return out
            at = self._arrays = (view(lay[0], 2, nz, "H"), view(lay[1], 2, nz * nc, "H"),
                                 view(lay[2], 1, nc, "B"), view(lay[3], 2, nc, "h"),
                                 view(lay[4], 2, nc, "H"), masks, view(lay[10], 1, nc, "B"))
        return at

    def card_places(self, cards, during: bool = False) -> list[int]:
        """Each card's zone * 2, plus 1 when it lies face up (`during`: or lay face up, or in
        view of all, while the last move was made), read from C without bringing the view up to
        date (engine/shown.py: places, asked at every move that names a card)."""
        at = self._arrays or self._layout()
        card_zone, known = at[4], at[2]
        if during:
            flash = at[6]
            return [card_zone[c] << 1 | known[c] | flash[c] for c in cards]
        return [card_zone[c] << 1 | known[c] for c in cards]

    def cards_check(self) -> int:
        """0 when every card lies in one zone and every index and mask agrees (crt_cards_check),
        read in C without bringing the view up to date; else a negative code."""
        return self.np.lib.crt_cards_check(self._cards())

    def _cards(self):
        c = self._pcards
        if c is None:
            c = self._pcards = ctypes.c_void_p(self.np.lib.cr_cards(self._pmem))
        return c

    def remember(self, seen_all: bytearray, seen_own: bytearray) -> None:
        """Add what each seat sees now to seen_all (public zones, face-up cards) and seen_own
        (n_players rows of the cards: the zones each seat may look into), in C."""
        seen = self._seen
        if seen is None or seen[0] is not seen_all or seen[1] is not seen_own:  # (the fuzzer's, a game long)
            nc = self.np.p.n_cards
            if len(seen_all) != nc or len(seen_own) != nc * self._view.n_players:
                raise ValueError("remember: seen_all holds a byte per card, seen_own a row of them per seat")
            seen = self._seen = (seen_all, seen_own, (ctypes.c_uint8 * nc).from_buffer(seen_all),
                                 (ctypes.c_uint8 * len(seen_own)).from_buffer(seen_own))
        rc = self.np.lib.crt_cards_remember(self._cards(), seen[2], seen[3])
        if rc:
            raise RuntimeError(f"crt_cards_remember: {rc}")

    def permuted_differs(self, who: int, rng: random.Random) -> bool | None:
        """Whether `who`'s legal moves change when the cards `who` cannot know are rearranged
        (positions.py:determinise with `rng`, not reseeded; rng is not moved on), worked out in
        C: False also when fewer than two cards are unknown to `who`; None when C cannot tell
        (the rearranged position's moves fail), for the caller to ask the Python engine."""
        lib = self.np.players()
        if lib is None:
            return None
        rc = lib.cr_permuted_differs(self.mem, who, _words_of([rng]))
        if rc in (0, 1):
            return bool(rc)
        if lib.cr_interrupted():
            check_signals()
        return None

    def fired(self) -> list[int]:
        """How often each rule has fired, read from C without bringing the view up to date."""
        n = len(self.np.p.rule_names)
        out = (ctypes.c_int64 * max(n, 1))()
        self.np.lib.cr_fired_all(self.mem, out)
        return out[:n]

    def try_moves(self, picks: list[int]) -> list[tuple] | None:
        """Each legal move picks[j] (its index among the legal moves) played on a copy of the game
        to the next decision, in C: for each, (failed, finished, the number of legal moves then,
        the choice they belong to, a mask of the actions offering them, how often each rule has
        fired). None when C cannot say it as Python sees it (Ctrl-C: Python's handler runs)."""
        lib, nr = self.np.players(), len(self.np.p.rule_names)
        if lib is None:
            return None
        width = 5 + nr
        out = (ctypes.c_int64 * max(width * len(picks), 1))()
        if lib.cr_try_moves(self.mem, (ctypes.c_int32 * max(len(picks), 1))(*picks), len(picks), out):
            if lib.cr_interrupted():
                check_signals()
            return None
        flat = out[:width * len(picks)]
        return [(flat[k], flat[k + 1], flat[k + 2], flat[k + 3], flat[k + 4] & (1 << 64) - 1, flat[k + 5:k + width])
                for k in range(0, len(flat), width)]

    def var_value(self, slot: int):
        """A game variable's value as the view holds it, read from C without bringing the view up
        to date."""
        typ, per_player = self.np.var_types[slot]
        return self._slot_value(slot, typ, per_player)

    def _sites(self) -> None:
        """The Python State's `pending` and `sealed` from the C state's `choose by each` sites."""
        s, lib = self._view, self.np.lib
        s.pending, s.sealed = {}, {}
        w = self.np.nparams
        buf = (ctypes.c_int64 * (8 + 2 * s.n_players + s.n_players * (2 + w)))()
        for k, (ch, pc) in enumerate(self.np.sites):
            lib.cr_site(self.mem, k, buf)
            out = list(buf)
            if not out[0]:
                continue
            n = out[1]
            s.pending[pc] = out[2:2 + n]
            at = 2 + n
            if out[at]:
                m = out[at + 1]
                order = tuple(out[at + 2:at + 2 + m])
                at += 2 + m
                chosen = {}
                for seat in range(s.n_players):
                    on, alt_i, vals = out[at], out[at + 1], out[at + 2:at + 2 + w]
                    at += 2 + w
                    if on:
                        alt = ch.alts[alt_i]
                        chosen[seat] = (alt, self._value(alt, vals))
                s.sealed[pc] = (order, chosen)

    def _value(self, alt, vals):
        if alt.values is None:
            return None
        if alt.more:
            elems = [alt.elem] + [e for _, e in alt.more]
            return tuple(_one_value(e, v) for e, v in zip(elems, vals[:1 + len(alt.more)]))
        return _one_value(alt.elem, vals[0])

    def _move(self, alt, actor: int, vals) -> Move:
        """The engine's own Move for an action's values (made once, as engine/legal.py makes them)."""
        s = self._view
        v = self._value(alt, vals)
        made = alt.moves[s.n_players][actor]
        m = made.get(v)
        if m is None:
            if alt.values is None:
                text = None
            elif alt.more:
                text = " ".join(value_text(s, el, x) for el, x in zip([alt.elem] + [e for _, e in alt.more], v))
            else:
                text = value_text(s, alt.elem, v)
            m = made[v] = _made(actor, alt, text, v)
        return m

    def _slot_value(self, slot: int, typ: str, per_player: bool):
        lib, m = self.np.lib, self.np.module

        def conv(v):
            if v == CR_NONE:
                return None
            return bool(v) if typ == "bool" else v
        if per_player and slot in m.pvl_index:
            buf = self.np.list_buffer()
            out = []
            for k in range(self._view.n_players):
                n = lib.cr_player_list(self.mem, m.pvl_index[slot], k, buf, len(buf))
                out.append([buf[i] for i in range(n)])
            return out
        if per_player:
            pvi = m.pv_index[slot]
            return [conv(lib.cr_player_var(self.mem, pvi, k)) for k in range(self._view.n_players)]
        if m.slot_kind.get(slot) == "list":
            buf = self.np.list_buffer()
            n = lib.cr_slot_items(self.mem, m.list_index[slot], buf, len(buf))
            return [buf[i] for i in range(n)]
        return conv(lib.cr_slot(self.mem, slot))

    def _python_failure(self) -> GameRuntimeError | None:
        """The error the Python engine gives for this game: its moves played again there (the
        same game, so it fails where C failed, with the Python engine's own words); None when
        the game did not start from a seed here (a loaded position) or Python plays on."""
        origin = getattr(self, "_origin", None)
        if origin is None:
            return None
        options, seed = origin
        try:
            s = play.new_game(self.np.p, self._view.n_players, options, seed)
            for m in self._view.history:
                play.apply(s, m)
        except GameRuntimeError as e:
            return e
        except Exception:  # noqa: BLE001 - anything else: the native engine's own words
            return None
        return None

    def _failure(self, kind: int, pc: int) -> GameRuntimeError:
        s, p = self._view, self.np.p
        s.pc = pc
        if kind == E_STUCK:
            return play._stuck(s, pc)
        if kind == E_LONG:
            return play.too_long(s)
        node = p.nodes[pc] if 0 <= pc < len(p.nodes) else None
        if kind == E_NOPLAYER:
            return play.no_player(s, pc, p.plain_code[pc][1].by_text)
        if kind == E_MOVE_NONE:
            return _at(node, f"{unparse(node.what)!r} is none here: there is no card to move")
        if kind == E_DEAL_AT:
            return _at(node, f"{unparse(node.at)!r} is none here: there is no player to start the deal from")
        if kind == E_TELL_NONE:
            return play._located_failure(s, play.ImpossibleEffect("a tell to none (tell ... to PLAYER needs a player)"))
        if kind in (E_SET, E_SETS_TRIED, E_SETS):  # the bound passed, said of the choice's first set
            from ..compiler.runtime import set_bound_error
            ins = p.plain_code[pc] if 0 <= pc < len(p.plain_code) else None
            nodes = [a.node for a in getattr(ins[1], "alts", ())] if ins else []
            site = next((k for k, (a, _) in enumerate(p.set_sites) if any(a is n for n in nodes)), None)
            if site is not None:
                return set_bound_error(p, site, ("cards", "tried", "sets")[kind - E_SET])
        if kind == E_SEATS_AT:
            return _at(node, f"{unparse(node.at)!r} is none here")
        what = {E_NONE: TypeError("'NoneType' object is not subscriptable"), E_ZERO: ZeroDivisionError(),
                E_INDEX: IndexError("a number out of range"),
                E_DEAL: play.ImpossibleEffect("a deal of a negative number of cards (a deal gives 0 or more)"),
                E_RANGE: play.ImpossibleEffect(sizes.range_message()),
                E_NEGPOW: play.ImpossibleEffect(sizes.negative_power_message()),
                E_EMPTY: play.ImpossibleEffect(EMPTY_MESSAGE),
                E_OVERFLOW: play.ImpossibleEffect(sizes.overflow_message())}.get(kind)
        if what is None and kind == E_LIST and node is not None:  # (a new user's Set: 20,825 moves at one decision)
            return _at(node, "the native engine has no room here for so many values (a decision offering tens of "
                             "thousands of moves, or a collection as large): the Python engine plays it, "
                             "--engine python; or let the player choose in steps, a value a decision")
        if what is None:
            return GameRuntimeError(f"the native engine ran out of room for this game (failure {kind}); "
                                    "play it with --engine python")
        return play._located_failure(s, what)


def _one_value(elem, v):
    """A parameter's value as the Python engine holds it: a chosen set of cards (a mask over the
    deck in C) as its cards in the deck's order."""
    if v == CR_NONE:
        return None
    if elem == "cards":
        return tuple(c for c in range(v.bit_length()) if v >> c & 1)
    return v


def _at(node, message: str) -> GameRuntimeError:
    from ..compiler.program import _runtime
    return _runtime(message, node)




PLAYOUT_STEP = 4096  # decisions a call of a recorded playout
_ROOM = threading.local()


def _playout_room(n: int) -> ctypes.Array:
    """This thread's room for the moves of a recorded playout (made once, grown when needed)."""
    room = getattr(_ROOM, "buf", None)
    if room is None or len(room) < n:
        room = _ROOM.buf = (ctypes.c_int64 * n)()
    return room


def _words_of(rngs) -> ctypes.Array:
    """Python generators' states, one after another, as crt_set_state reads them (625 words each)."""
    buf = array.array("I")
    for r in rngs:
        version, internal, _ = r.getstate()
        if version != 3 or len(internal) != 625:  # pragma: no cover - a future Python's generator
            raise ValueError(f"this Python's random state (version {version}) is not MT19937's")
        buf.extend(internal)
    return (ctypes.c_uint32 * len(buf)).from_buffer_copy(buf)


def _detached(s: State) -> State:
    """A Python state, or the view of a native game taken as a plain one (for a copy)."""
    if s.native is not None:
        return s.native.python_copy()
    return s


def new_native_game(ruleset, players: int, options: dict | None = None, seed: int = 0) -> State:
    """engine.new_game, played in C: a State the engine's functions (legal_moves, apply, observe,
    outcome, clone, ...) work on as on any other; the same game as the Python engine's."""
    return NativeGame(ruleset, players, options, seed)._view


__all__ = ["NativeGame", "NativeProgram", "NativeUnsupported", "native_program", "c_source", "new_native_game"]
