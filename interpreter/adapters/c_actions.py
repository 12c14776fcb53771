"""The action ids (encoding.py) of a game the native engine plays, worked out by C: one call a
decision (native/runtime/unit/batch.c: cr_step_action_packed) plays the move of an action id,
steps the game to its next decision, writes the mask of the seat to act and that seat's
observation tensor, and numbers the legal moves, so that an adapter's step (PettingZoo's `step`
and `observe`) does no work per legal move in Python but look the engine's Move objects up by
their numbers (the view's list of legal moves, which the engine's functions read).

C knows nothing of action ids: Python gives it, once per spec, a table of each action of each
choice (its value, as C holds it, to its id), made from the same texts as the ids themselves (a
value's text as the engine prints it in a Move). A position C cannot map whole (a move of several
values, a value without an id, too many moves) is mapped in Python, the long way (Core.legal)."""

from __future__ import annotations

import ctypes

import numpy as np

from ..engine.legal import arg_text

CAP = 256  # legal moves mapped in C at one decision; a position with more is mapped in Python
NONE = -(2 ** 63)  # CR_NONE: C's none
MAX_TABLE = 1 << 20  # ids in the table at most (an action over a wider range of numbers is left to Python)


class ActionTable:
    """One spec's table of (choice, action, value) -> action id, on one ruleset's library, and
    the engine's Move objects of the moves C numbers by it (learnt as the games meet them)."""

    def __init__(self, spec, nat):
        self.spec, self.nat = spec, nat
        self.n_actions = len(spec.actions)
        # (its arguments in one array: cr_step_action's; a PyDLL's function keeps the GIL, which a
        # decision's few microseconds in C do not repay releasing)
        self.call = ctypes.PyDLL(nat.lib._name).cr_step_action_packed
        self.tab, n_moves = self._table()
        self.tab_at = self.tab.ctypes.data
        self.moves: list = [None] * n_moves  # number -> the engine's Move, once met
        self.have = bytearray(max(n_moves, 1))  # (as C reads it: which numbers have their Move)
        self._have = (ctypes.c_uint8 * len(self.have)).from_buffer(self.have)

    def _table(self) -> tuple[np.ndarray, int]:
        spec, p = self.spec, self.spec.program
        index = spec.index
        choices = p.choices
        most = max((len(ch.alts) for ch in choices), default=1) or 1
        head = [len(choices), most]
        entries = np.full((len(choices) * most, 4), -1, np.int64)
        ids: list[int] = []
        n_moves = 0
        at = 2 + 4 * len(choices) * most
        for ci, ch in enumerate(choices):
            for ai, alt in enumerate(ch.alts):
                if alt.more:  # (several values: Python maps them)
                    continue
                if alt.values is None or alt.elem is None:
                    entries[ci * most + ai] = (at + len(ids), NONE, 1, n_moves)
                    ids.append(index.get((alt.name, None), -1))
                    n_moves += spec.players
                    continue
                values = self._values(alt)
                if not values:
                    continue
                lo, hi = values[0], values[-1]
                if len(ids) + hi - lo + 1 > MAX_TABLE or n_moves + spec.players * (hi - lo + 1) > MAX_TABLE:
                    continue
                entries[ci * most + ai] = (at + len(ids), lo, hi - lo + 1, n_moves)
                for v in range(lo, hi + 1):
                    ids.append(index.get((alt.name, self._text(alt.elem, v)), -1))
                n_moves += spec.players * (hi - lo + 1)
        tab = np.concatenate([np.array(head, np.int64), entries.reshape(-1), np.array(ids, np.int64)])
        return np.ascontiguousarray(tab), n_moves

    def learn(self, legal: list, nums, n: int) -> None:
        """The Move objects of a position's legal moves (as the view lists them), under the
        numbers C gave them (`nums`)."""
        if len(legal) != n:
            return
        moves, have = self.moves, self.have
        for i, m in enumerate(legal):
            k = nums[i]
            if k >= 0:
                moves[k] = m
                have[k] = 1

    def _values(self, alt) -> list[int]:
        """The values (as C holds them) an action's parameter may have an id for, increasing."""
        spec = self.spec
        elem = alt.elem
        if elem == "card":
            return list(range(spec.n_cards))
        if elem == "cards":  # a set: its mask over the deck (encoding numbers sets of small decks only)
            return list(range(1, 1 << spec.n_cards)) if spec.n_cards <= 12 else []
        if elem == "player":
            return list(range(spec.players))
        if elem == "suit":
            return list(range(len(spec.ruleset.deck.suits)))
        if elem == "rank":
            return list(range(len(spec.ruleset.deck.ranks)))
        if elem == "zone":
            return list(range(len(spec.zone_names)))
        if elem == "int":
            out = set()
            for name, arg in spec.actions:
                if name == alt.name and arg is not None:
                    try:
                        out.add(int(arg))
                    except ValueError:
                        pass
            return sorted(out)
        return []

    def _text(self, elem: str, v: int) -> str:
        """A value's text as the engine's Move holds it (engine/legal.py: value_text)."""
        if elem == "zone":
            return self.spec.zone_names[v]
        if elem == "cards":
            return arg_text(self.spec.program, elem, tuple(c for c in range(v.bit_length()) if v >> c & 1))
        return arg_text(self.spec.program, elem, v)


class GameActions:
    """One native game's side of the table: the mask of the position it was last stepped to by
    `step` (valid while `legal` is that position's list of legal moves: any other way of moving
    the game replaces the list), and the call's ready arguments."""

    __slots__ = ("table", "game", "mask", "cmask", "legal", "tried", "obs", "seen", "out", "nums", "_args")

    def __init__(self, table: ActionTable, game, observer=None):
        """`observer`: a CObserver whose tensor C writes for the seat to act at each step (into
        `obs`, valid while `seen` is the position's list of legal moves), or None."""
        self.table, self.game = table, game
        self.cmask = mask = (ctypes.c_int8 * table.n_actions)()  # (its address without asking NumPy, which costs more)
        self.mask = np.frombuffer(mask, np.int8)
        self.legal = self.tried = self.seen = None  # (tried: a position C could not map whole)
        # the move's place, what C could not map (cr_step_action), each legal move's number: the
        # game's own, as its view is (a table's games may be played by several threads)
        self.out = (ctypes.c_int32 * 2)()
        self.nums = (ctypes.c_int32 * CAP)()
        address = ctypes.addressof
        watch, self.obs = (0,) * 7, None
        if observer is not None and not observer.slow_vars:
            obs = (ctypes.c_float * observer.spec.obs_size)()
            self.obs = np.frombuffer(obs, np.float32)
            watch = (address(obs), observer.spec.obs_size, *observer.tables_at)
        self._args = (ctypes.c_int64 * 17)(game._addr, address(game._info), address(game._ids), min(game._cap, CAP),
                                           address(mask), table.n_actions, address(self.out), table.tab_at,
                                           address(self.nums), address(table._have), *watch)

    def valid(self) -> bool:
        """Whether `mask` is the game's position's."""
        return self.legal is self.game._view._legal

    def step(self, action: int) -> int:
        """Action `action` played (none when negative) and the game stepped to its next decision
        (its view's whose turn and legal moves, as NativeGame._step, the Move objects looked up
        by their numbers), the mask written; the place of the move played among the legal moves
        before it, or -1 when C cannot play it (not legal, or not mapped: the caller goes the long
        way)."""
        t, g = self.table, self.game
        s = g._view
        n = t.call(action, self._args)
        if n == -2:
            return -1
        k, flags = self.out[0], self.out[1]
        self.legal = self.seen = None
        if k >= 0:
            s.history.append(s._legal[k])
        if flags & 2:  # (a move without a number, or not met yet: looked up by its id, then learnt)
            g._stepped(n)
            t.learn(s._legal, self.nums, n)
        else:
            g._stepped(n, list(map(t.moves.__getitem__, self.nums[:n])))
        if not flags & 1:
            self.legal = s._legal
        if n > 0 and not s.finished and self.obs is not None:  # (C wrote the seat to act's observation)
            self.seen = s._legal
        return k
