"""Where the table's bots think: worker processes beside the server, never its own threads.

A search player at a few thousand iterations keeps a core busy for seconds; in a thread of the
server it also holds Python's lock, and every page waits. Here each decision goes, as plain
data (the ruleset's texts, the game's set-up and moves so far, the seat, the bot), to one of a
few worker processes at a lower priority than the server; the worker rebuilds the position (or
goes on from the last one it saw of that table), lets the bot choose within the time a
decision is given (a bot that has a clock plays its best so far when it runs out), and sends
back the move as text, with a note for the table's record when the time ran out. The table then
makes that move as a person's move is made. A random seat is the exception: it draws from the
table's own game in the server, with nothing to think.

A worker that dies (killed, out of memory) is replaced and the decision asked again of another,
from the same saved position, so nothing is lost; one that overruns its time by GRACE seconds
(the time starts once the worker has rebuilt the position: loading is not thinking) is ended
and its seat plays a move drawn from the bot's seed instead, so a table never waits without end.
Workers end with the server, however it ends (`processes.die_with`)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections import deque
from dataclasses import dataclass

from .. import engine
from ..players.bots import make_bot
from ..engine import Move
from ..errors import CardRulesError, GameRuntimeError
from ..processes import context, die_with, lower_priority
from ..runner import Source, load

log = logging.getLogger("cardrules.web")

GRACE = 2.0         # seconds past a decision's time before its worker is ended
LOADING = 120.0     # seconds a worker may take to rebuild a position before it thinks: loading is not thinking
RETRIES = 3         # workers lost under one decision before the bot is said to have failed
_REMEMBERED = 64    # positions a worker keeps, one per table, to go on from
INSTANT = frozenset({"random"})  # bots that need no thinking: they move in the server


@dataclass(frozen=True)
class Decision:
    """One bot's decision, as a worker needs it: nothing here refers to the server's objects."""

    table: str            # the table's id: the worker goes on from the last position it saw of it
    source: Source        # the ruleset as text (the rules the table started with)
    players: int
    options: dict
    seed: int
    moves: tuple          # the moves so far, (player, move as text)
    seat: int
    bot: str              # the bot's spec ('ismcts:2000')
    bot_seed: int
    seconds: float        # the time the bot has to choose
    engine: str = "python"  # the table's engine: the worker plays the position on it ("native": in C)


class ThinkingFailed(CardRulesError):
    """The bot could not choose: its workers kept dying, or the server is stopping."""


# ------------------------------------------------------------------ in the worker

def _new_game(rs, d: Decision):
    """The table's game from its start, on the table's engine (a native state when it plays in C:
    the bots search on it)."""
    from ..engines import new_game
    return new_game(rs, d.players, dict(d.options), d.seed, engine=d.engine)


def _position(d: Decision, seen: dict):
    """The game after `d.moves`, going on from the last position of this table when it is an
    earlier moment of the same game."""
    rs = load(d.source)
    key = (d.table, d.source.key, d.players, d.seed, d.engine)
    state = seen.pop(key, None)
    done = len(state.history) if state is not None else 0
    if state is None or done > len(d.moves) or any(
            (m.player, str(m)) != tuple(d.moves[i]) for i, m in enumerate(state.history)):
        state, done = _new_game(rs, d), 0
    for player, text in d.moves[done:]:
        engine.apply(state, Move.parse(text, player))
    seen[key] = state
    while len(seen) > _REMEMBERED:
        del seen[next(iter(seen))]
    return state


def choose_here(d: Decision, seen: dict | None = None) -> str:
    """The bot's move for `d`, worked out in this process (a worker, or a test)."""
    return decide_here(d, seen)[0]


def decide_here(d: Decision, seen: dict | None = None) -> tuple[str, str | None]:
    """The bot's move for `d` and what the table's record says of how it was chosen (_choose)."""
    return _choose(d, _position(d, {} if seen is None else seen))


def _choose(d: Decision, state) -> tuple[str, str | None]:
    """The move as text, and a note when the decision's time ran out before the bot had finished
    thinking (its clock had passed when it answered: it played its best so far), else None."""
    bot = make_bot(d.bot, d.bot_seed)
    deadline = None
    if hasattr(bot, "deadline"):
        bot.deadline = deadline = time.monotonic() + d.seconds
    move = str(bot.choose(state.clone()))
    if deadline is not None and time.monotonic() > deadline:
        return move, f"its {d.seconds:g} s ran out: it played its best move so far"
    return move, None


def _attempt(step, *args):
    """(what `step` gives, None), or (None, the error to send back): a ruleset that fails, or a
    bug in a player, is the table's error, not the worker's end."""
    try:
        return step(*args), None
    except CardRulesError as e:
        return None, ("error", e.message)
    except Exception as e:
        return None, ("error", f"{type(e).__name__}: {e}")


def _serve(conn, parent: int) -> None:
    """A worker's life: answer decisions until the server closes the pipe or dies."""
    die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    lower_priority()  # pages before bots: the server's process is served first
    seen: dict = {}
    while True:
        try:
            d = conn.recv()
        except (EOFError, OSError):
            return
        state, reply = _attempt(_position, d, seen)
        if reply is None:
            try:  # the position is rebuilt: the decision's time starts now, as the bot's own clock does
                conn.send(("ready", ""))
            except (BrokenPipeError, OSError):
                return
            chosen, reply = _attempt(_choose, d, state)
            reply = reply or ("move", *chosen)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


# ------------------------------------------------------------------ in the server

class _Lost(Exception):
    """The worker went away mid-decision."""


class _Worker:
    def __init__(self, process, conn):
        self.process = process
        self.conn = conn

    def end(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass
        if self.process.is_alive():
            self.process.kill()


class Thinkers:
    """The pool: at most `workers` processes, started on first need; decisions wait their turn
    for a free one (first come, first served), in the event loop, never blocking it. With no
    workers (0) bots think in the server's threads, as they once did: for a machine that cannot
    start processes, and for tests that change a bot in this process."""

    def __init__(self, workers: int, seconds: float):
        self.workers = max(0, workers)
        self.seconds = seconds
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._waiting: deque[asyncio.Future] = deque()
        self._starting = 0
        self._closed = False
        self._seen: dict = {}  # positions by table, when bots think in this process

    def _spawn(self) -> _Worker:
        ctx = context(["interpreter.web.thinkers"])
        mine, theirs = ctx.Pipe()
        p = ctx.Process(target=_serve, args=(theirs, os.getpid()), name="cardrules-bot", daemon=True)
        p.start()
        theirs.close()
        return _Worker(p, mine)

    async def _take(self) -> _Worker:
        if self._closed:
            raise ThinkingFailed("the server is stopping")
        if self._idle:
            return self._idle.pop()
        if len(self._all) + self._starting < self.workers:
            self._starting += 1
            try:
                w = await asyncio.get_running_loop().run_in_executor(None, self._spawn)
            except (OSError, ImportError, NotImplementedError) as e:  # no processes here: threads will do
                log.warning("cannot start a process for the bots (%s); they think in the server's threads", e)
                self.workers = 0
                raise _Replace() from None
            finally:
                self._starting -= 1
            if self._closed:
                w.end()
                raise ThinkingFailed("the server is stopping")
            self._all.add(w)
            return w
        f = asyncio.get_running_loop().create_future()
        self._waiting.append(f)
        try:
            return await f
        except asyncio.CancelledError:
            if f.done() and not f.cancelled():  # handed a worker just as we gave up: pass it on
                self._give(f.result())
            raise

    def _give(self, w: _Worker) -> None:
        while self._waiting:
            f = self._waiting.popleft()
            if not f.done():
                f.set_result(w)
                return
        self._idle.append(w)

    def _drop(self, w: _Worker) -> None:
        self._all.discard(w)
        w.end()
        asyncio.get_running_loop().run_in_executor(None, w.process.join, 5)  # reap it, off the loop
        # a decision waiting for a worker may now start one
        while self._waiting and len(self._all) + self._starting < self.workers:
            f = self._waiting.popleft()
            if not f.done():
                f.set_exception(_Replace())

    async def _ask(self, w: _Worker, d: Decision, timeout: float):
        """The worker's reply to `d`: it has LOADING seconds to rebuild the position (a worker
        just started, or a machine under load, takes a while to load the ruleset and its C), then
        `timeout` seconds to think."""
        try:
            w.conn.send(d)
        except (BrokenPipeError, OSError) as e:
            raise _Lost() from e
        reply = await self._reply(w, LOADING)
        return await self._reply(w, timeout) if reply[0] == "ready" else reply

    async def _reply(self, w: _Worker, timeout: float):
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = w.conn.fileno()
        loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)
        try:
            return w.conn.recv()
        except (EOFError, OSError) as e:
            raise _Lost() from e

    @property
    def closed(self) -> bool:
        return self._closed

    async def choose(self, d: Decision, position=None) -> str:
        """The bot's move as text (decide)."""
        return (await self.decide(d, position))[0]

    async def decide(self, d: Decision, position=None) -> tuple[str, str | None]:
        """The bot's move as text, and what the table's record is to say of how it was chosen:
        that its time ran out (it played its best so far), or that it overran it and a move drawn
        from its seed was played; None for a decision made in time. GameRuntimeError when the
        ruleset fails while it thinks, ThinkingFailed when no worker could answer. A random seat
        draws from `position` (the table's own game) when it is given: a draw among the legal
        moves is what the server does to check a person's move anyway, and a worker would first
        have to load the game."""
        if self._closed:
            raise ThinkingFailed("the server is stopping")
        if position is not None and d.bot in INSTANT:
            return str(make_bot(d.bot, d.bot_seed).choose(position)), None
        lost = 0
        while True:
            if self.workers == 0:
                import anyio
                return await anyio.to_thread.run_sync(decide_here, d, self._seen)
            try:
                w = await self._take()
            except _Replace:
                continue
            try:
                reply = await self._ask(w, d, d.seconds + GRACE)
            except _Lost:
                self._drop(w)
                lost += 1
                log.warning("table %s: the worker thinking for %s died; asking another", d.table,
                            engine.seat_name(d.seat))
                if lost >= RETRIES:
                    raise ThinkingFailed(f"the bot's worker process died {lost} times while it thought") from None
                continue
            except asyncio.TimeoutError:
                self._drop(w)
                log.warning("table %s: the bot in %s took more than %.1f s; it plays a move drawn from its seed",
                            d.table, engine.seat_name(d.seat), d.seconds + GRACE)
                return self._fallback(d), (f"it took more than {d.seconds + GRACE:g} s: it was stopped, and a move "
                                           "drawn from its seed was played")
            except BaseException:  # cancelled mid-decision (the server stops): the worker is busy, end it
                self._drop(w)
                raise
            self._give(w)
            if reply[0] == "move":
                return reply[1], reply[2]
            raise GameRuntimeError(reply[1])

    @staticmethod
    def _fallback(d: Decision) -> str:
        rs = load(d.source)
        state = _new_game(rs, d)
        for player, text in d.moves:
            engine.apply(state, Move.parse(text, player))
        return str(make_bot("random", d.bot_seed).choose(state))  # the random player's draw from the seed

    def busy(self) -> int:
        return len(self._all) - len(self._idle)

    def close(self) -> None:
        """End every worker now (the server is stopping; tables are saved at every move)."""
        self._closed = True
        for f in self._waiting:
            if not f.done():
                f.set_exception(ThinkingFailed("the server is stopping"))
        self._waiting.clear()
        workers, self._all, self._idle = list(self._all), set(), []
        for w in workers:
            w.end()
        deadline = time.monotonic() + 1.0
        for w in workers:
            w.process.join(max(0.0, deadline - time.monotonic()))


class _Replace(Exception):
    """A worker was dropped while this decision waited: start a new one instead."""
