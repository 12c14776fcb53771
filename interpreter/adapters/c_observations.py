"""The observation tensor (encoding.py) of games the native engine plays, written by C
(native/runtime/unit/batch.c: cr_observe_many) straight into the caller's float32 array: one call
for a whole batch of games (vector.py), or for one game (encoding.Spec.encode).

C reads the states; Python gives it the spec's layout as arrays (each observer's place and
sight of each zone, each choice's `choose by each` site, the variables' codes). A collection
variable (a list, a set of cards) C leaves to Python, which writes it after."""

from __future__ import annotations

import ctypes
import threading

import numpy as np

# the variables' kinds in the codes cr_observe_many reads
VAR_INT, VAR_BOOL, VAR_PLAYER, VAR_INDEX, VAR_ZONE = range(5)


class CObserver:
    """One spec's observations in C, on one ruleset's library."""

    def __init__(self, spec, nat):
        self.spec, self.nat = spec, nat
        o, players = spec.offsets, spec.players
        self.place = np.ascontiguousarray(np.stack([spec.place_of[q] for q in (*range(players), None)]), np.int32)
        self.sees = np.ascontiguousarray(np.stack([spec.sees[q] for q in (*range(players), None)]), np.uint8)
        sites = {id(ch): k for k, (ch, _) in enumerate(nat.sites)}
        self.site_of = np.array([sites.get(id(ch), -1) for ch in spec.program.choices] or [-1], np.int32)
        m = nat.module
        kinds = {"int": VAR_INT, "bool": VAR_BOOL, "player": VAR_PLAYER, "card": VAR_INDEX, "suit": VAR_INDEX,
                 "rank": VAR_INDEX, "zone": VAR_ZONE}
        codes, self.slow_vars = [], []
        for code in spec.var_codes:
            slot, t, per, off, w = code
            kind = m.slot_kind.get(slot)
            if t not in kinds or kind in ("list", "pvl") or (per and slot not in m.pv_index):
                self.slow_vars.append(code)
            else:
                codes.append((m.pv_index[slot] if per else slot, kinds[t], int(per), off, w))
        self.codes = np.array(codes or [(0, 0, 0, 0, 0)], np.int64).reshape(-1)
        self.head = np.array([players, spec.n_cards, spec.n_places, o["seat"], o["to_move"], o["deciding"],
                              o["decision"], o["finished"], o["cards"], o["top"], o["zone_sizes"], o.get("vars", 0),
                              len(codes)], np.int64)
        p = ctypes.c_void_p
        self.tables = (p(self.head.ctypes.data), p(self.place.ctypes.data), p(self.sees.ctypes.data),
                       p(self.site_of.ctypes.data), p(self.codes.ctypes.data))
        self.call = ctypes.CDLL(nat.lib._name).cr_observe_many  # (ready pointers: ctypes converts nothing)
        self.one_call = ctypes.PyDLL(nat.lib._name).cr_observe_one  # (keeping the GIL: a few microseconds in C)
        self.tables_at = (self.head.ctypes.data, self.place.ctypes.data, self.sees.ctypes.data,
                          self.site_of.ctypes.data, self.codes.ctypes.data)  # (the layout's arrays, for C)
        self._local = threading.local()

    def _room(self) -> tuple:
        """This thread's array for one game's tensor and the call's arguments, which point at it
        (cr_observe_one: the arguments in one array, the game's first). The tensor is written
        there and copied out: an array's address costs more to ask NumPy for than the copy."""
        room = getattr(self._local, "room", None)
        if room is None:
            buf = np.zeros(self.spec.obs_size, np.float32)
            room = self._local.room = (buf, (ctypes.c_int64 * 8)(0, buf.ctypes.data, self.spec.obs_size, *self.tables_at))
        return room

    def many(self, base: int, stride: int, n: int, who: np.ndarray, out: np.ndarray) -> tuple:
        """The arguments of the call for a batch (made once: the arrays stay where they are)."""
        p = ctypes.c_void_p
        return (p(base), ctypes.c_int64(stride), None, n, p(who.ctypes.data), p(out.ctypes.data),
                ctypes.c_int64(out.shape[1]), *self.tables)

    def some(self, base: int, stride: int, games: np.ndarray, who: np.ndarray, out: np.ndarray) -> None:
        """Games games[j] of a batch, each as seat who[j] sees it, into out[j] (contiguous rows)."""
        p = ctypes.c_void_p
        games = np.ascontiguousarray(games, np.int64)
        who = np.ascontiguousarray(who, np.int32)
        self.call(p(base), ctypes.c_int64(stride), p(games.ctypes.data), len(games), p(who.ctypes.data),
                  p(out.ctypes.data), ctypes.c_int64(out.shape[1]), *self.tables)

    def one(self, game, player: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """One native game (a NativeGame) as `player` sees it (None: everyone), into the first
        obs_size entries of `out`, the collection variables too; without `out`, into this
        thread's array, which its next call overwrites. Returns what it wrote into."""
        buf, packed = self._room()
        packed[0] = game._addr
        self.one_call(-1 if player is None else player, packed)
        if out is None:
            out = buf
        else:
            out[:self.spec.obs_size] = buf
        self.collections(game, 0 if player is None else player, out)
        return out

    def collections(self, game, seat: int, out: np.ndarray) -> None:
        """The variables C leaves to Python (collections) of one native game, as `seat` sees
        them, into `out`."""
        if self.slow_vars:
            spec = self.spec
            spec._encode_vars({code[0]: game.var_value(code[0]) for code in self.slow_vars}, seat, out,
                              spec.offsets["vars"], self.slow_vars)
