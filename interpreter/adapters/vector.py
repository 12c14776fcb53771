"""Games in batches: `VectorGames` steps n games of one ruleset in one call, for learners that
train on many games at once (the Gymnasium vector-environment style, turn-based).

    from interpreter.adapters.vector import VectorGames
    v = VectorGames("some-game", players=3, n=1024, seed=0)
    obs, mask = v.reset()                      # (n, obs_size) float32, (n, actions) int8
    for _ in range(10_000):
        actions = policy(obs, mask)            # one action id per game, for its seat to act
        obs, rewards, done, cut = v.step(actions)

Each game has one seat to act (`v.seats[i]`; at a `choose by each`, the first still to decide,
as in the PettingZoo adapter): `obs[i]` is what that seat sees (`encoding`'s observation tensor,
other seats numbered from it) and `mask[i]` its legal action ids. `step` plays action
`actions[i]` in game i; `rewards[i]` (one number per seat, absolute seat order) is zero until
the game ends, then its returns; `done[i]` says the rules ended it, `cut[i]` that it was cut
short (`max_decisions`). A game that ends starts again at once with the next seed, so `obs[i]`
and `mask[i]` are then the new game's: the batch never waits (`v.seeds[i]` is game i's seed).
The ended game's last position, as the seat that made its last move sees it, is
`v.final_obs[i]` (valid where `done[i] or cut[i]`), for a learner that bootstraps on it.

Seeds: game i starts with `seed + i`; each game that ends takes the next unused seed, in the
order of the games' numbers within a step (`seed + n`, `seed + n + 1`, ...). Game i is the very
game `Core.start(spec, seeds[i])` (and `cardrules play --seed`) plays, move for move, on either
engine. The arrays returned are the batch's own, written in place by the next call: copy what
you keep. An action that is not legal raises ValueError before any game moves.

A learner in JAX or PyTorch takes the arrays as they are (`torch.from_numpy(obs)`,
`jnp.asarray(obs)`), samples `actions` from its logits with the illegal ones masked
(`logits[mask == 0] = -inf`), and gives them back as a NumPy int array; a reward belongs to
the seat that acted at each of its game's decisions, so a self-play learner credits
`rewards[i, seat]` to the moves `seat` made in game i.

On the native engine the games' C states lie in one block of memory: a step is one call into
C for the whole batch, which writes each game's mask and observation as it steps it, never
through a Python view. The Python engine plays the same games a game at a time."""

from __future__ import annotations

import ctypes

import numpy as np

from ..errors import GameRuntimeError, OptionError
from .core import Core
from .encoding import spec_for

CAP = 256  # legal moves read per game and step in C; a game with more is stepped the long way
NONE = -(2 ** 63)
_NO_GAMES = np.zeros(0, np.int64)  # no game ended


class VectorGames:
    """n games of one ruleset, stepped together (see the module's description)."""

    def __init__(self, ruleset, players: int | None = None, n: int = 1, seed: int = 0, options: dict | None = None,
                 *, engine: str = "auto", returns: str = "win", max_decisions: int | None = None,
                 int_range: tuple[int, int] | None = None):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise OptionError(f"n (the number of games) is a positive whole number, not {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError(f"seed is a whole number from 0, not {seed!r}")
        self.spec = spec = spec_for(ruleset, players, options, returns=returns, max_decisions=max_decisions,
                                    int_range=int_range, engine=engine)
        self.engine = spec.engine.name
        self.engine_line = spec.engine.line
        self.n, self.players = n, spec.players
        self.obs = np.zeros((n, spec.obs_size), np.float32)
        self.mask = np.zeros((n, len(spec.actions)), np.int8)
        self.rewards = np.zeros((n, spec.players), np.float32)
        self.done = np.zeros(n, bool)
        self.cut = np.zeros(n, bool)
        self.seats = np.zeros(n, np.int64)
        self.final_obs = np.zeros((n, spec.obs_size), np.float32)  # a game that ended: its last position
        self.seeds = np.arange(seed, seed + n, dtype=np.int64)
        self._first = seed
        self._next = seed + n
        self._cores: list[Core | None] = [None] * n
        self._c = _Batch(self) if spec.native is not None else None

    # -- the game's spaces
    @property
    def obs_size(self) -> int:
        return self.spec.obs_size

    @property
    def num_actions(self) -> int:
        return len(self.spec.actions)

    # -- playing
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every game from its first seed again (`seed + i`, with the seed given here or, without
        one, the batch's own): the first observations and masks."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise OptionError(f"seed is a whole number from 0, not {seed!r}")
            self._first = int(seed)
        self.seeds[:] = np.arange(self._first, self._first + self.n)
        self._next = self._first + self.n
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.cut.fill(False)
        self._start(np.arange(self.n), self.seeds.copy())
        self._observe(range(self.n))
        return self.obs, self.mask

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Action `actions[i]` in game i: (observations, rewards, done, cut), masks in `mask`."""
        if self._cores[0] is None and (self._c is None or not self._c.started):
            raise ValueError("reset() the games before the first step")
        a = np.asarray(actions)
        if a.shape != (self.n,) or a.dtype.kind not in "iu":  # (a whole number type; np.issubdtype costs 6 us)
            raise ValueError(f"actions is an array of {self.n} whole numbers (one action id per game), "
                             f"not {a.dtype} of shape {a.shape}")
        if self._c is not None:
            i = self._c.first_illegal(a)
            a = self._c.act  # (the actions, as C reads them)
        else:
            a = a.astype(np.int64, copy=False)
            bad = np.flatnonzero((self.mask[np.arange(self.n), np.clip(a, 0, self.mask.shape[1] - 1)] == 0)
                                 | (a < 0) | (a >= self.mask.shape[1]))
            i = int(bad[0]) if bad.size else -1
        if i >= 0:
            what = self.spec.action_text(int(a[i])) if 0 <= a[i] < self.mask.shape[1] else "no action"
            legal = ", ".join(f"{k} ({self.spec.action_text(int(k))})" for k in np.flatnonzero(self.mask[i]))
            raise ValueError(f"game {i} (seed {int(self.seeds[i])}): action {int(a[i])} ({what}) is not legal now; "
                             f"legal: {legal}")
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.cut.fill(False)
        self._acted = self.seats.copy()
        if self._c is not None:
            ended = self._c.step()
        else:
            for i, core in enumerate(self._cores):
                self._play(i, core, int(a[i]))
            ended = np.array([i for i, core in enumerate(self._cores) if core.terminal()], np.int64)
        if ended.size:
            self._settle(ended)
        self._observe(range(self.n) if self._c is None else ())
        return self.obs, self.rewards, self.done, self.cut

    # -- one game at a time (the Python engine; in C, what the batch leaves to Python)
    def _start(self, games: np.ndarray, seeds: np.ndarray) -> None:
        """Game games[j] begun afresh from seeds[j]."""
        if self._c is not None:
            over = self._c.start(games, seeds)
        else:
            over = []
            for i, seed in zip(games.tolist(), seeds.tolist()):
                self._cores[i] = Core.start(self.spec, seed)
                if self._cores[i].terminal():
                    over.append(i)
        if over:
            i = over[0]
            raise GameRuntimeError(f"game {i} (seed {int(self.seeds[i])}) is over before its first decision: a batch "
                                   f"has nothing to play in it")

    def _core(self, i: int) -> Core:
        return self._cores[i] if self._c is None else self._c.core(i)

    def _play(self, i: int, core: Core, action: int) -> None:
        try:
            core.apply_id(action)
        except GameRuntimeError as e:
            raise self.in_game(i, e) from None

    def in_game(self, i: int, e: GameRuntimeError) -> GameRuntimeError:
        """The engine's failure (located at its rule) with the game and its seed named."""
        return GameRuntimeError(f"game {i} (seed {int(self.seeds[i])}): {e.message}", e.file, e.line, e.column,
                                e.source_line)

    def _settle(self, ended: np.ndarray) -> None:
        """These games are over: their returns and how they ended, then the next seeds' games in
        their places (in the order of their numbers)."""
        if self._c is not None:
            paid, finished, slow = self._c.settle(ended)
        else:
            paid, finished, slow = np.zeros((len(ended), self.players)), np.zeros(len(ended), bool), range(len(ended))
        for j in slow:  # (through the Python view: a score C could not give)
            core = self._core(int(ended[j]))
            paid[j], finished[j] = core.returns(), bool(core.view().state.finished)
        self.rewards[ended] = paid
        self.done[ended], self.cut[ended] = finished, ~finished
        if self._c is not None:  # the last position, as the seat that moved sees it
            self._c.final(ended, self._acted[ended], finished)
        else:
            for i in ended.tolist():
                self.spec.encode(self._cores[i], int(self._acted[i]), out=self.final_obs[i])
        seeds = np.arange(self._next, self._next + len(ended), dtype=np.int64)
        self._next += len(ended)
        self.seeds[ended] = seeds
        self._start(ended, seeds)

    def _observe(self, rows) -> None:
        if self._c is not None:
            self._c.observe()
            return
        spec = self.spec
        for i in rows:
            core = self._cores[i]
            seat = core.current()
            self.seats[i] = seat
            spec.encode(core, seat, out=self.obs[i])
            self.mask[i].fill(0)
            self.mask[i, list(core.legal())] = 1

    def __repr__(self) -> str:
        return f"VectorGames({self.spec.title!r}, players={self.players}, n={self.n}, engine={self.engine!r})"


class _Batch:
    """The games of a VectorGames in C: their states in one block, each step one call into C for
    the moves, the masks and the observations (cr_step_many, each game observed as soon as it is
    stepped, while its state is in the cache: a second pass over the block for the observations
    cost a fifth of a step)."""

    def __init__(self, v: VectorGames):
        self.v = v
        spec = self.spec = v.spec
        nat = self.nat = spec.native
        lib = self.lib = nat.lib
        n, players = v.n, spec.players
        self.bytes = lib.cr_state_bytes(players)
        self.stride = (self.bytes + 63) & ~63
        self.block = np.zeros(n * self.stride // 8 + 8, np.uint64)  # (+8 words: room to align the first state)
        addr = self.block.ctypes.data
        self.base = addr + (-addr) % 64
        self.addr = [self.base + i * self.stride for i in range(n)]
        self.games: list = [None] * n  # a game's NativeGame, made only when Python must read it
        self.gamed = False  # some game has a NativeGame (forgotten when a new game takes its place)
        self.cores: list[Core | None] = [None] * n
        self.cored = False  # some game has a Core (its view read since the last step)
        self.started = False
        opts = nat.options_row([spec.options[o.name] for o in spec.program.options])
        self.opts = (ctypes.c_int64 * len(opts))(*opts)
        raw = ctypes.CDLL(lib._name)  # (ready pointers: ctypes converts nothing)
        self.many_c, self.new_c, self.scores_c = raw.cr_step_many, raw.cr_new_many, raw.cr_score_many
        self.illegal_c = raw.cr_first_illegal
        self.info = np.zeros((n, 10), np.int64)  # each game's cr_info
        self.ids = np.full((n, CAP), -1, np.int64)
        self.counts = np.zeros(n, np.int32)
        self.lact = np.full((n, CAP), -1, np.int32)  # each legal move's action id (-1: not the actor's, or unknown)
        self.flag = np.zeros(n, np.uint8)  # 1: the moves read through the Python view
        self.act = np.full(n, -1, np.int64)
        self.keys = np.full(64, -2, np.int64)  # the move ids met, hashed to their action ids (runtime/unit/batch.c)
        self.acts = np.full(64, -1, np.int32)
        self.bits, self.filled = 6, 0
        self._ptr = None  # cr_step_many's arguments, made once (again when the table grows)
        self._illegal = None  # cr_first_illegal's, made once
        self._tables()

    def _tables(self) -> None:
        self.observer = ob = self.spec.c_observer()
        self.slow_vars = ob.slow_vars
        obs = self.v.obs
        # every game cr_step_many steps is observed there, by its seat to act (written to seats), into
        # its row of obs
        self.fused = (ctypes.c_int64 * 8)(obs.ctypes.data, obs.shape[1], *ob.tables_at, self.v.seats.ctypes.data)

    def _mem(self, i: int) -> ctypes.Array:
        return (ctypes.c_uint64 * (self.stride // 8)).from_address(self.addr[i])

    # -- games
    def start(self, games: np.ndarray, seeds: np.ndarray) -> list[int]:
        """Game games[j] begun from seeds[j] in its place in the block, its first decision read;
        the games over already."""
        games = np.ascontiguousarray(games, np.int64)
        seeds = np.ascontiguousarray(seeds, np.int64)
        p = ctypes.c_void_p
        self.new_c(p(self.base), ctypes.c_int64(self.stride), p(games.ctypes.data), p(seeds.ctypes.data), len(games),
                   self.spec.players, self.opts)
        if self.gamed or self.cored:
            for i in games.tolist():
                self.games[i] = self.cores[i] = None
        act = self.act
        act[:] = -2
        act[games] = -1
        self.started = True
        self._many()
        for j in np.flatnonzero(self.info[games, 6]):
            self._failed(int(games[j]))
        return [int(i) for i in games[self._over()[games]]]

    def _over(self) -> np.ndarray:
        """Which games are over: ended by the rules, at the length bound, or nobody to move."""
        info = self.info
        return (info[:, 1] != 0) | (info[:, 5] >= self.spec.max_length) | (self.counts == 0)

    def final(self, ended: np.ndarray, seats: np.ndarray, finished: np.ndarray) -> None:
        """The ended games' last positions, each as its seat in `seats` sees it, into the batch's
        final_obs (encoding's tensor of a game over: `finished` set, nobody to move)."""
        v, spec = self.v, self.spec
        k = len(ended)
        run = int(ended[0]) + k == int(ended[-1]) + 1  # (games a..b, in order: written where they go, not copied)
        rows = v.final_obs[int(ended[0]):int(ended[0]) + k] if run else np.empty((k, v.obs.shape[1]), np.float32)
        self.observer.some(self.base, self.stride, ended, seats, rows)
        if self.slow_vars:
            for j, i in enumerate(ended.tolist()):
                self.observer.collections(self.game(i), int(seats[j]), rows[j])
        cut = ~finished  # (cut short: C knows no such end; encoding shows it as over)
        if cut.any():
            over = rows[cut]
            spec.mark_over(over)
            rows[cut] = over
        if not run:
            v.final_obs[ended] = rows

    def settle(self, ended: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The returns of these games (a row each, seats in order) from their C states, whether
        the rules ended each, and the rows Python must work out instead (a score that fails)."""
        spec = self.spec
        players, k = spec.players, len(ended)
        games = np.ascontiguousarray(ended, np.int64)
        info = self.info[games]
        finished = info[:, 1] != 0
        values = np.zeros((k, players), np.int64)
        if spec.program.score is not None:
            p = ctypes.c_void_p
            self.scores_c(p(self.base), ctypes.c_int64(self.stride), p(games.ctypes.data), k, players,
                          p(values.ctypes.data))
        slow = finished & (values == NONE).any(1)
        paid = np.zeros((k, players))
        if spec.returns_mode == "score":  # (encoding._placed, row by row)
            if spec.program.score is None:
                paid[:] = 0.5
            else:
                lo, hi = values.min(1, keepdims=True), values.max(1, keepdims=True)
                span = np.where(hi == lo, 1, hi - lo)
                placed = (hi - values) / span if spec.program.winner_rule == "fewest" else (values - lo) / span
                paid[:] = np.where(hi == lo, 0.5, placed)
        elif spec.returns_mode == "points":  # (encoding.Spec.points; the bounds checked by the slow path)
            paid[:] = values - values.mean(1, keepdims=True) if players > 1 else values
            lo, hi = spec.utility_range
            slow = slow | (finished & ((paid < lo) | (paid > hi)).any(1))
        else:  # (encoding.Spec.payoff: the winners declared, else the best score)
            declared = info[:, 7] != 0
            win = np.zeros((k, players), bool)
            win[declared] = (info[declared, 8][:, None] >> np.arange(players)[None, :]) & 1 != 0
            if spec.program.score is not None:
                best = values.max(1) if spec.program.winner_rule == "most" else values.min(1)
                win[~declared] = values[~declared] == best[~declared, None]
            count = win.sum(1)
            if players == 1:
                paid[:] = win
            else:
                share = 1.0 / np.maximum(count, 1)
                paid[:] = (np.where(win, players * share[:, None], 0.0) - 1.0) / (players - 1)
            paid[count == 0] = 0.0
        paid[~finished] = 0.0
        return paid, finished, [int(j) for j in np.flatnonzero(slow)]

    def _many(self) -> int:
        """cr_step_many over the batch, with `act` as it stands: how many of the games it stepped
        are over (or failed)."""
        ptr = self._ptr
        if ptr is None or ptr[-1] is not self.keys:
            p = ctypes.c_void_p
            ptr = self._ptr = (p(self.base), ctypes.c_int64(self.stride), self.v.n, p(self.act.ctypes.data),
                               p(self.info.ctypes.data), p(self.ids.ctypes.data), p(self.counts.ctypes.data), CAP,
                               p(self.lact.ctypes.data), p(self.v.mask.ctypes.data), self.v.mask.shape[1],
                               p(self.flag.ctypes.data), p(self.keys.ctypes.data), p(self.acts.ctypes.data), self.bits,
                               self.fused, ctypes.c_int64(min(self.spec.max_length, 2 ** 63 - 1)), self.keys)
        return self.many_c(*ptr[:-1])

    def game(self, i: int):
        """Game i as a NativeGame over its C state (its Python view, for the readers that need one)."""
        g = self.games[i]
        if g is None:
            from ..native.engine import NativeGame
            spec = self.spec
            self.gamed = True
            g = self.games[i] = NativeGame(spec.program, spec.players, spec.options, int(self.v.seeds[i]),
                                           mem=self._mem(i), attach=True)
        return g

    def core(self, i: int) -> Core:
        """Game i through the Python view (its legal moves read again from C first)."""
        c = self.cores[i]
        if c is None:
            g = self.game(i)
            g._after(0)
            n, a = self.spec.players, len(self.spec.actions)
            c = self.cores[i] = Core(self.spec, g._view, None, [], np.zeros((n, a), np.float32),
                                     np.zeros((n, a), np.float32))
            self.cored = True
        return c

    def step(self) -> np.ndarray:
        """Every game's move, the actions in `act` (where first_illegal put them); the games that
        ended (the rest observed in `observe`)."""
        v = self.v
        act = self.act
        if not self.flag.any():  # (every game's moves mapped in C: one call)
            over = self._many()
        else:
            slow = self.flag != 0
            played = act.copy()
            act[slow] = -2
            over = self._many()
            for i in np.flatnonzero(slow):  # the long way, through the Python view
                i = int(i)
                v._play(i, self.core(i), int(played[i]))
            act[:] = -2
            act[slow] = -1
            over += self._many()
        if self.cored:
            self.cores = [None] * v.n  # (their views are behind the C states now)
            self.cored = False
        if not over:  # (C counted the games ended, failed or stuck: none)
            return _NO_GAMES
        err = self.info[:, 6] != 0
        if err.any():
            self._failed(int(np.flatnonzero(err)[0]))
        return np.flatnonzero(self._over())

    def first_illegal(self, actions: np.ndarray) -> int:
        """The actions into `act`, where C reads them; the first game whose action is not in its
        mask, or -1."""
        self.act[:] = actions
        args = self._illegal
        if args is None:
            p = ctypes.c_void_p
            args = self._illegal = (p(self.v.mask.ctypes.data), self.v.mask.shape[1], p(self.act.ctypes.data), self.v.n)
        return self.illegal_c(*args)

    def _failed(self, i: int) -> None:
        """Game i failed in C: its failure as the Python view gives it (the engine's own words)."""
        g = self.game(i)
        try:
            g._after(0)
        except GameRuntimeError as e:
            raise self.v.in_game(i, e) from None
        raise GameRuntimeError(f"game {i} (seed {int(self.v.seeds[i])}) failed in C")  # (never: _after raises)

    # -- observations and masks, every game at once
    def observe(self) -> None:
        v = self.v
        if self.flag.any():
            self._learn(np.flatnonzero(self.flag))
        if self.slow_vars:  # (seats: where C observed each game from as it stepped it, its last step)
            for i in range(v.n):
                self.observer.collections(self.game(i), int(v.seats[i]), v.obs[i])

    def _learn(self, games: np.ndarray) -> None:
        """The games whose moves C could not map: their move ids learnt (then C maps them), and
        the masks of those it still cannot map read through the Python view."""
        spec = self.spec
        new = {}
        for i in games:
            i = int(i)
            g = self.game(i)
            g._after(0)
            for mid, m in zip(self.ids[i, :max(self.counts[i], 0)], g._view._legal):
                if mid >= 0 and m.player == g._view.actor:
                    a = spec.index.get((m.action, m.arg))
                    if a is not None:
                        new[int(mid)] = a
            self.cores[i] = None
        for mid, a in new.items():
            self._insert(mid, a)
        self.act[:] = -2
        self.act[games] = -1
        self._many()
        mask = self.v.mask
        for i in np.flatnonzero(self.flag):  # a move of several values, too many moves: no id to map
            core = self.core(int(i))
            mask[i].fill(0)
            mask[i, list(core.legal())] = 1

    def _insert(self, mid: int, a: int) -> None:
        """One move id into the hash table (bt_action in native/runtime/unit/batch.c reads it), grown at half full."""
        if 2 * (self.filled + 1) > len(self.keys):
            old = [(int(k), int(x)) for k, x in zip(self.keys, self.acts) if k != -2]
            self.bits += 1
            self.keys = np.full(1 << self.bits, -2, np.int64)
            self.acts = np.full(1 << self.bits, -1, np.int32)
            self.filled = 0
            for k, x in old:
                self._insert(k, x)
        mask = (1 << self.bits) - 1
        h = ((mid * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> (64 - self.bits)
        while self.keys[h] != -2:
            if self.keys[h] == mid:
                return
            h = (h + 1) & mask
        self.keys[h], self.acts[h] = mid, a
        self.filled += 1
