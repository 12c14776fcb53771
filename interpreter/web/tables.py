"""A table: one game in progress, its seats (a person with a secret link, or a bot), and the
rules for changing it. Every move goes through `Table.move`, under the table's one lock, so
moves never interleave; each is tried on a copy of the game and kept only when the engine
accepts it, then the table is written to its file before anyone is told.

`Tables` keeps every table of a server: it opens new ones within the server's limits, loads
the saved ones at start-up (a file that does not load is reported and left alone), and runs
each table's bots in a background task that sends every decision to the worker processes of
`thinkers` (the server itself never thinks)."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from .. import engine
from ..players.bots import bot_seed, make_bot
from ..players.spec import spec_count
from ..bundled import content_hash, find_for_record, record_ref
from ..engine import Move, State, seat_name
from ..engine import shown as shown_cards
from ..errors import CardRulesError, GameRuntimeError, IllegalMoveError, InvalidMoveError, OptionError
from . import store
from .limits import Limits
from .thinkers import Decision, Thinkers, ThinkingFailed
from .catalog import Catalog
from .views import move_note, visible_cards

log = logging.getLogger("cardrules.web")


class StaleMove(CardRulesError):
    """A move sent from a page that showed an earlier moment of the game."""


class Full(OptionError):
    """The server already plays as many tables as its limits allow."""


def check_players(rs, players: int) -> None:
    """OptionError unless the ruleset is for that many players (checked before anything is
    made for each seat: the number comes from a form anyone may send)."""
    if not (rs.players_min <= players <= rs.players_max):
        title = rs.title or rs.name
        span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
        shown = f"{players:,}" if abs(players) < 10 ** 30 else "a number that long"
        raise OptionError(f"{title} is for {span} players, not {shown}")


def same_token(given: str | None, token: str | None) -> bool:
    """Compare a token in constant time (any text may arrive in an address)."""
    if not given or not token:
        return False
    return secrets.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def for_seat(message: str, state: State, seat: int, typed: str = "") -> str:
    """The engine's reason why a move is not legal, as `seat` may read it: the moves it lists
    are this seat's own (at a decision several players take, the engine lists everyone's), and
    it names no card the seat cannot see, except those in the move it sent and the deck's last
    card, which the engine names as an example of how cards are written."""
    head, sep, _ = message.partition(". Legal now: ")
    if sep:
        mine = [str(m) for m in engine.moves_for(state, seat)]
        message = head + (". Your legal moves now: " + ", ".join(mine) if mine else ". You have no legal move now")
    names = state.program.card_names
    seen = visible_cards(engine.observe(state, seat)) | set(typed.split()) | set(names[-1:])
    for name in names:
        if name not in seen and name in message:
            message = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w#-])", "a hidden card", message)
    return message


@dataclass
class Seat:
    """Who sits in one seat: a person (reached with `token`) or a bot (`bot` is its spec)."""

    kind: str  # "person" or "bot"
    bot: str | None = None
    token: str | None = None

    @property
    def label(self) -> str:
        return "person" if self.kind == "person" else f"bot ({self.bot})"


class Table:
    """One game at one table. `version` is the number of moves made: a page shows it, and a
    move sent with another version is refused (the page is stale)."""

    def __init__(self, table_id: str, key: str, path: Path, state: State, seats: list[Seat],
                 hotseat_token: str, file: Path, notes: list[dict] | None = None, created: float | None = None):
        self.id = table_id
        self.key = key  # the catalog key of its ruleset
        self.path = path  # the ruleset file
        self.state = state
        self.seats = seats
        self.hotseat_token = hotseat_token
        self.file = file
        self.notes = notes if notes is not None else []  # per move: secret, rule, shown (who may read it)
        self.created = created if created is not None else time.time()
        self.error: str | None = None  # the game cannot go on (the ruleset or a bot failed)
        self.save_problem: str | None = None
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self.bots = {i: s.bot for i, s in enumerate(seats) if s.kind == "bot"}
        self.task: asyncio.Task | None = None
        self._source = None  # the ruleset as text, for the workers: read with the rules (keep_source)

    def keep_source(self) -> None:
        """Read the ruleset's texts now, beside the rules just loaded: a table keeps the rules it
        started with, and its bots' workers must play those, whatever the file says later."""
        from ..runner import source_of
        try:
            self._source = source_of(self.path)
        except CardRulesError:
            self._source = None  # unreadable now: read again when a bot first thinks

    def source(self):
        """The ruleset's texts as the table's rules were loaded (a worker builds them from these)."""
        if self._source is None:
            self.keep_source()
            if self._source is None:
                raise ThinkingFailed(f"the ruleset {self.path} cannot be read any more")
        return self._source

    # ---- reading
    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def title(self) -> str:
        rs = self.state.program.ruleset
        return rs.title or rs.name

    def may_see(self, seat: int, token: str | None) -> bool:
        """A person's seat, opened with its own token or the table's hot-seat token."""
        if not token or not (0 <= seat < len(self.seats)) or self.seats[seat].kind != "person":
            return False
        return same_token(token, self.seats[seat].token) or same_token(token, self.hotseat_token)

    def error_for(self, seat: int | None) -> str | None:
        """Why the game stopped, as a seat may read it (None: a screen with no seat, which only
        says that it stopped)."""
        if not self.error:
            return None
        if seat is None:
            return "the server's log says why"
        return for_seat(self.error, self.state, seat)

    def deciders(self) -> list[int]:
        s = self.state
        if s.finished:
            return []
        return engine.deciders(s) or ([s.actor] if s.actor is not None else [])

    def persons_to_move(self) -> list[int]:
        return [d for d in self.deciders() if self.seats[d].kind == "person"]

    def bot_to_move(self) -> int | None:
        """The bot whose turn it is (a bot moves when it is the player to act; at a decision
        several players take, the others wait their turn as at the terminal)."""
        s = self.state
        if s.finished or self.error or s.actor is None:
            return None
        return s.actor if self.seats[s.actor].kind == "bot" else None

    async def wait_change(self, timeout: float | None = None) -> bool:
        """Wait for the next move (True), or the timeout (False)."""
        ev = self._changed
        try:
            await asyncio.wait_for(ev.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    def _notify(self) -> None:
        ev, self._changed = self._changed, asyncio.Event()
        ev.set()

    # ---- changing
    async def move(self, seat: int, text: str, version: int | None, thought: str | None = None) -> Move:
        """Make `seat`'s move `text` (a bot's, with what the record is to say of how it was chosen:
        `thought`, Thinkers.decide); StaleMove when the game has moved on since `version`,
        the engine's IllegalMoveError or InvalidMoveError when it is not a legal move now,
        GameRuntimeError when the ruleset fails (the game then stops)."""
        async with self.lock:
            if version is not None and version != self.version:
                raise StaleMove("the game has moved on; here is the table now")
            if self.error:
                raise GameRuntimeError(self.error)
            s = self.state
            move = Move.parse(" ".join(str(text).split()), seat)
            legal = engine.moves_for(s, seat) if not s.finished else []
            found = next((m for m in legal if m.action == move.action and m.arg == move.arg), None)
            if found is None:  # the engine says why, on a copy: the game stays as it was
                try:
                    engine.apply(s.clone(), move)
                except (IllegalMoveError, InvalidMoveError) as e:
                    e.message = for_seat(e.message, s, seat, str(text))
                    raise
                raise IllegalMoveError(f"{seat_name(seat)} may not {move} now")
            secret = engine.in_secret(s)
            rule = engine.rule_at(s)[0]
            before = shown_cards.places(s, shown_cards.named_cards(s.program, found.arg))
            after = s.clone()
            try:
                engine.apply(after, found)
                _synced(after)  # (a game in C: its view up to date for every page that reads it)
            except GameRuntimeError as e:
                self.error = f"the ruleset failed at move {len(s.history) + 1} ({seat_name(seat)}): {e.message}"
                log.error("table %s: %s", self.id, e.render())
                self._notify()
                raise
            notes = self.notes + [move_note(after, found, secret, rule, thought, before=before)]
            await self.save(after, notes)  # on disk before anyone sees it
            self.state, self.notes = after, notes
            if not after.finished and not engine.legal_moves(after):
                self.error = (f"the game is stuck after {len(after.history)} moves: nobody has a legal move in rule "
                              f"{engine.rule_at(after)[1]!r}, but the game is not over")
                log.error("table %s: %s", self.id, self.error)
            self._notify()
            return found

    def file_data(self, state: State | None = None, notes: list[dict] | None = None) -> dict:
        """The table's file: its seats and tokens, the log's notes, and the game's record."""
        state = state if state is not None else self.state
        rec = engine.make_record(state, record_ref(self.path, self.file))
        digest = content_hash(self.path)
        if digest is not None:
            rec["ruleset_sha256"] = digest
        return {"format": store.TABLE_FORMAT, "id": self.id, "ruleset_key": self.key,
                "created": self.created,
                "seats": [{"kind": s.kind, "bot": s.bot, "token": s.token} for s in self.seats],
                "hotseat_token": self.hotseat_token, "notes": notes if notes is not None else self.notes,
                "record": rec}

    async def save(self, state: State | None = None, notes: list[dict] | None = None) -> None:
        """Write the table's file (in a worker thread: the disk may be slow). A failure is
        kept to be shown on every page, and the game goes on in memory."""
        data = self.file_data(state, notes)
        try:
            import anyio
            await anyio.to_thread.run_sync(store.write_json_atomic, self.file, data)
            self.save_problem = None
        except OSError as e:
            self.save_problem = f"the table could not be saved to {self.file}: {e.strerror or e}"
            log.error("table %s: %s", self.id, self.save_problem)

    # ---- the bots
    @property
    def playing(self) -> bool:
        """Still being played: not finished, not stopped by an error."""
        return not self.state.finished and not self.error

    def decision(self, seat: int, seconds: float) -> Decision:
        s = self.state
        return Decision(self.id, self.source(), s.n_players, dict(s.options), s.seed,
                        tuple((m.player, str(m)) for m in s.history), seat, self.bots[seat],
                        bot_seed(s.seed, seat) * 10_000 + len(s.history), seconds,
                        "native" if s.native is not None else "python")

    async def run_bots(self, pause: float, thinkers: Thinkers) -> None:
        """Move for the bots, one at a time, until the game ends: wait `pause` seconds so
        people can follow, let a worker process choose, then move unless the game has moved on
        meanwhile."""
        while not self.state.finished and not self.error:
            seat = self.bot_to_move()
            if seat is None:
                await self.wait_change(30)
                continue
            v = self.version
            if pause > 0:
                await asyncio.sleep(pause)
            if self.version != v or self.bot_to_move() != seat:
                continue
            try:
                chosen, thought = await thinkers.decide(self.decision(seat, thinkers.seconds), self.state)
                await self.move(seat, chosen, v, thought)
            except StaleMove:
                continue
            except ThinkingFailed as e:
                if thinkers.closed:
                    return  # the server is stopping: the table is saved as it is
                self.error = f"the bot in {seat_name(seat)} could not choose: {e.message}"
            except (IllegalMoveError, InvalidMoveError) as e:
                self.error = f"the bot in {seat_name(seat)} chose a move that is not legal: {e.message}"
            except GameRuntimeError as e:
                self.error = self.error or f"the bot in {seat_name(seat)} could not choose: {e.message}"
            except CardRulesError as e:
                self.error = f"the bot in {seat_name(seat)} failed: {e.message}"
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a bug in a player must not take the server down
                log.exception("table %s: the bot in %s failed", self.id, seat_name(seat))
                self.error = f"the bot in {seat_name(seat)} failed ({type(e).__name__})"
            if self.error:
                log.error("table %s: %s", self.id, self.error)
                self._notify()
                return


def new_state(rs, players: int, options: dict, seed: int, native) -> State:
    """A table's game: on the native engine (`native`: the ruleset's NativeProgram) or Python's."""
    from ..engines import new_game
    return _synced(new_game(rs, players, options, seed, engine=native))


def _synced(state: State) -> State:
    """A game played in C with its view brought up to date: the table's pages read the state
    between moves, and it does not change until the next one."""
    if state.native is not None:
        state.native.sync()
    return state


class Tables:
    """Every table of one server, by id."""

    def __init__(self, data: Path, catalog: Catalog, bot_pause: float = 0.6, limits: Limits | None = None,
                 engine: str = "auto"):
        self.data = Path(data)
        self.engine = engine  # --engine: auto, python or native (serve_command checked it)
        self._engines: dict[int, tuple] = {}  # id(program) -> (program, its NativeProgram or None)
        self.catalog = catalog
        self.bot_pause = bot_pause
        self.limits = limits or Limits()
        self.thinkers = Thinkers(self.limits.bot_workers, self.limits.think_seconds)
        self.tables: dict[str, Table] = {}
        self.skipped: list[tuple[Path, str]] = []  # table files that did not load, and why

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def start_bots(self, table: Table) -> None:
        """Start the table's bot task on the running event loop, once."""
        if not table.bots or table.state.finished:
            return
        loop = asyncio.get_running_loop()
        if table.task is not None and not table.task.done() and table.task.get_loop() is loop:
            return
        if table.task is not None:  # an earlier event loop (a server restarted in one process)
            table.lock = asyncio.Lock()
            table._changed = asyncio.Event()
        table.task = loop.create_task(table.run_bots(self.bot_pause, self.thinkers))

    def playing(self) -> int:
        return sum(1 for t in self.tables.values() if t.playing)

    def with_bots(self) -> int:
        return sum(1 for t in self.tables.values() if t.playing and t.bots)

    async def stop(self) -> None:
        """End the workers and the bots' tasks (every table is already saved: a move is on
        disk before anyone sees it)."""
        self.thinkers.close()
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    # ---- opening a table
    def open(self, key: str, players: int, options: dict, seed: int, seats: list[str]) -> Table:
        """A new table: `seats` has 'person' or a bot spec for each seat. OptionError, with a
        message for the form, when a value is not allowed; nothing is created then."""
        entry = self.catalog.get(key)
        if entry is None:
            raise OptionError(f"there is no ruleset {key!r} here")
        rs = self.catalog.ruleset(key)
        check_players(rs, players)
        if len(seats) != players:
            raise OptionError(f"say who sits in each of the {players} seats")
        self.limits.check_seed(seed)
        made: list[Seat] = []
        for i, spec in enumerate(seats):
            spec = spec.strip().lower()
            if spec == "person":
                made.append(Seat("person", token=secrets.token_urlsafe(16)))
                continue
            try:
                make_bot(spec, 0)
                strength = spec_count(spec, "iterations", 200)
            except OptionError as e:
                raise OptionError(f"seat {seat_name(i)}: {e.message}") from None
            if strength is not None and strength > self.limits.max_iterations:
                raise OptionError(f"the bot in {seat_name(i)} may think at most {self.limits.max_iterations:,} "
                                  f"iterations on this server, not {strength:,}")
            made.append(Seat("bot", bot=spec))
        if not any(s.kind == "person" for s in made):
            raise OptionError("at least one seat must be a person (bots alone play faster with `cardrules play`)")
        self.check_room(bots=any(s.kind == "bot" for s in made))
        state = new_state(rs, players, options, seed, self.native_for(rs))  # OptionError for a bad option value
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        file = store.tables_dir(self.data) / f"{table_id}.json"
        table = Table(table_id, key, entry.path, state, made, secrets.token_urlsafe(16), file)
        if table.bots:
            table.keep_source()
        self.tables[table_id] = table
        return table

    def native_for(self, rs):
        """The C engine a table of this ruleset plays on, or None (Python): under auto, a ruleset
        the native engine cannot build plays in Python (said once in the log); under native,
        opening its table is refused with that line (an OptionError)."""
        from ..engines import choose
        program = engine.program_of(rs)
        hit = self._engines.get(id(program))
        if hit is None or hit[0] is not program:
            try:
                choice = choose(program, self.engine)
            except OptionError as e:
                raise OptionError(f"this server plays only on the native engine, which cannot play this game: "
                                  f"{e.message}") from None
            if choice.native is None and self.engine == "auto":
                log.warning("%s: %s", rs.title or rs.name, choice.line)
            hit = self._engines[id(program)] = (program, choice.native)
        return hit[1]

    def check_room(self, bots: bool) -> None:
        """Full (a clear refusal, never a wait) when the server plays as many tables as its
        limits allow, or as many with bots."""
        lim = self.limits
        if self.playing() >= lim.max_tables:
            raise Full(f"this server is playing {lim.max_tables} tables, as many as it takes at once; "
                       "try again when a game has ended")
        if bots and self.with_bots() >= lim.max_thinking:
            raise Full(f"this server is playing {lim.max_thinking} tables with bots, as many as it takes at once; "
                       "seat only people, or try again when a game has ended")

    # ---- loading saved tables
    def load_all(self) -> None:
        """Rebuild every saved table by replaying its record. A file that does not load is
        logged, kept in `skipped`, and never changed."""
        for f in store.table_files(self.data):
            try:
                table = self._load(f)
            except (ValueError, CardRulesError, OSError) as e:
                why = e.render() if isinstance(e, CardRulesError) else str(e)
                log.warning("%s: skipped, %s", f, why)
                self.skipped.append((f, why))
                continue
            if table.id in self.tables:
                log.warning("%s: skipped, another file holds table %s", f, table.id)
                self.skipped.append((f, f"another file holds table {table.id}"))
                continue
            self.tables[table.id] = table

    def _load(self, f: Path) -> Table:
        data = store.read_table_file(f)
        rec = engine.validate_record(data["record"], str(f))
        ref = rec.get("ruleset")
        path = find_for_record(ref, f) if isinstance(ref, str) else None
        if path is None:
            raise ValueError(f"names a ruleset that is not here ({ref!r})")
        entry = self.catalog.add(path, listed=False)
        rs = self.catalog.ruleset(entry.key)
        state = engine.replay(rs, rec, str(f))
        native = self.native_for(rs) if self.engine != "python" else None
        if native is not None:  # the same game, played on in C: its moves made again there
            replayed = new_state(rs, state.n_players, state.options, state.seed, native)
            for m in state.history:
                engine.apply(replayed, m)
            state = _synced(replayed)
        seats = []
        for s in data["seats"]:
            if not isinstance(s, dict) or s.get("kind") not in ("person", "bot"):
                raise ValueError("has a malformed seat")
            if s["kind"] == "person" and not isinstance(s.get("token"), str):
                raise ValueError("has a person's seat without a token")
            if s["kind"] == "bot":
                make_bot(str(s.get("bot")), 0)
            seats.append(Seat(s["kind"], s.get("bot"), s.get("token")))
        if len(seats) != state.n_players:
            raise ValueError(f"has {len(seats)} seats for a game of {state.n_players} players")
        notes = data.get("notes")
        if not isinstance(notes, list) or len(notes) != len(state.history):
            notes = [{"secret": True, "rule": None, "shown": []} for _ in state.history]  # when in doubt, hide
        created = data.get("created") if isinstance(data.get("created"), (int, float)) else None
        table = Table(data["id"], entry.key, entry.path, state, seats, data["hotseat_token"], f, notes, created)
        if table.bots and not state.finished:
            table.keep_source()
        return table
