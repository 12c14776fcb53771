"""The routes of the browser table (Starlette). Pages are rendered here from the templates;
what a seat may see is decided in views.py, how a table changes in tables.py.

Seats are numbered from 1 in addresses (`/t/ID/seat/1` is P1). A seat's page, its live
updates and its JSON answers need the seat's token or the table's hot-seat token; without one
the answer is 403 and says nothing about the table.

Anyone who reaches the server may open a table and upload a record, so every number and size
they send is checked against `limits.Limits` before any work is done on it: a body over its
limit is refused with 413 before it is kept, a number out of range gets the form again with
what was typed and why, and a server at its limit of tables says so at once (503)."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qs, quote

import anyio
import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route

from .guard import Guard, Hosts
from starlette.staticfiles import StaticFiles

from ..engine import seat_name
from ..errors import CardRulesError, GameRuntimeError, IllegalMoveError, InvalidMoveError, OptionError
from ..files import loads_json
from . import replays, views
from .catalog import Catalog
from .limits import Limits
from .tables import Full, StaleMove, Table, Tables, check_players, for_seat, same_token

HERE = Path(__file__).resolve().parent
DRAIN_BYTES = 64 * 1024 * 1024  # read (and drop) this much of a body too large, so the browser gets the page
DRAIN_SECONDS = 5.0
log = logging.getLogger("cardrules.web")


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["q"] = lambda s: quote(str(s), safe="")
    return env


class Web:
    """One server's state: the rulesets, the tables, the uploaded records, the templates."""

    def __init__(self, data: Path, catalog: Catalog, bot_pause: float, records: list[Path], events_lifetime: float,
                 limits: Limits, engine: str = "auto"):
        self.catalog = catalog
        self.limits = limits
        self.tables = Tables(data, catalog, bot_pause, limits, engine)
        self.stopping: asyncio.Event | None = None  # set when the server begins to stop (live updates end)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.records = records  # record files named on the command line
        self.uploads: dict[str, tuple[str, dict]] = {}
        self.events_lifetime = events_lifetime
        self.env = _env()

    def page(self, name: str, status: int = 200, **ctx) -> HTMLResponse:
        return HTMLResponse(self.env.get_template(name).render(**ctx), status_code=status)

    def begin_stop(self) -> None:
        """Called from a signal handler: end the live updates now, so the server stops at once."""
        loop, ev = self.loop, self.stopping
        if loop is not None and ev is not None and not loop.is_closed():
            loop.call_soon_threadsafe(ev.set)


def create_app(data: Path, given: list[tuple[Path, object]] = (), bot_pause: float = 0.6,
               records: list[Path] = (), events_lifetime: float = 25.0, catalog: Catalog | None = None,
               limits: Limits | None = None, engine: str = "auto", hosts: Hosts | None = None) -> Starlette:
    """The web app over the tables kept in `data` (loaded now, their games replayed), offering
    the bundled games and the `given` rulesets (path, loaded rule graph or None); the tables'
    games played on `engine` (auto, python or native: the same games). `hosts`: the names it
    answers to (guard.Hosts; default: this computer's loopback names only)."""
    web = Web(Path(data), catalog or Catalog(list(given)), bot_pause, list(records), events_lifetime,
              limits or Limits(), engine)
    web.tables.load_all()

    @asynccontextmanager
    async def lifespan(app):
        web.loop, web.stopping = asyncio.get_running_loop(), asyncio.Event()
        # what start-up made (the modules, the rulesets and their programs, the tables) lives as
        # long as the server: kept out of the collector's full passes, which otherwise walk it all
        # each time the games' garbage sets one off (a move's time, measured: a game in C leaves a
        # cycle, its state and its view, at every move)
        gc.freeze()
        for table in web.tables.tables.values():
            web.tables.start_bots(table)
        try:
            yield
        finally:
            web.stopping.set()
            await web.tables.stop()
            gc.unfreeze()  # (an app made and stopped inside a longer process: the tests, the studio)

    async def favicon(request: Request):
        """The icon browsers ask for at /favicon.ico whatever the page links (a rulebook, a refusal)."""
        return Response((HERE / "static" / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})

    # ---------------------------------------------------------------- helpers
    def table_or_404(request: Request) -> Table:
        table = web.tables.get(request.path_params["table_id"])
        if table is None:
            raise HTTPException(404, "There is no such table here. It may have been opened on another server.")
        web.tables.start_bots(table)
        return table

    def seat_or_403(request: Request, table: Table) -> int:
        try:
            seat = int(request.path_params["n"]) - 1
        except ValueError:
            seat = -1
        if not table.may_see(seat, request.query_params.get("token")):
            raise HTTPException(403)
        return seat

    def hotseat_or_403(request: Request, table: Table) -> None:
        if not same_token(request.query_params.get("token"), table.hotseat_token):
            raise HTTPException(403)

    async def body_of(request: Request, limit: int) -> bytes:
        """The request's body, or 413 as soon as it is known to be over `limit` bytes (from its
        declared length, else as it arrives). The rest is read and dropped, up to DRAIN_BYTES,
        so that a browser still sending it reads the page instead of a reset connection."""
        declared = request.headers.get("content-length")
        body = bytearray()
        over = False
        if declared is not None:
            if not re.fullmatch(r"[0-9]{1,18}", declared.strip()):
                raise HTTPException(400, "The request's length is not a number.")
            over = int(declared) > limit
        loop = asyncio.get_running_loop()
        end = loop.time() + DRAIN_SECONDS
        seen = 0
        async for chunk in request.stream():
            seen += len(chunk)
            if not over:
                body += chunk
                over = len(body) > limit
            if over and (seen > DRAIN_BYTES or loop.time() > end):
                break
        if over:
            raise HTTPException(413, f"That is too large to send here: the limit is {_size(limit)}.")
        return bytes(body)

    async def form_of(request: Request, limit: int | None = None) -> dict:
        """A form sent as application/x-www-form-urlencoded, or a JSON object (at most
        `limit` bytes: the form limit unless said)."""
        body = await body_of(request, limit or web.limits.form_bytes)
        ctype = request.headers.get("content-type", "")
        if ctype.startswith("application/json"):
            try:
                data = loads_json(body or b"{}")
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                raise HTTPException(400, "The request is not valid JSON.") from None
            if not isinstance(data, dict):
                raise HTTPException(400, "Send a JSON object.")
            return data
        if ctype.startswith("multipart/"):
            raise HTTPException(415, "Send the form as text (application/x-www-form-urlencoded).")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "The form is not UTF-8 text.") from None
        if len(text) > 64 * 1024:  # an uploaded record: parsed beside the loop, which keeps answering
            pairs = await anyio.to_thread.run_sync(lambda: parse_qs(text, keep_blank_values=True))
        else:
            pairs = parse_qs(text, keep_blank_values=True)
        return {k: v[-1] for k, v in pairs.items()}

    async def rulebook_anchors(table: Table) -> dict:
        try:
            return (await anyio.to_thread.run_sync(web.catalog.rulebook, table.key))[1]
        except CardRulesError:
            return {}

    def seat_link(table: Table, seat: int) -> str:
        return f"/t/{table.id}/seat/{seat + 1}?token={quote(table.seats[seat].token or '', safe='')}"

    async def seat_ctx(table: Table, seat: int, token: str, message: str | None = None,
                       hot: bool = False) -> dict:
        anchors = await rulebook_anchors(table)
        ctx = views.seat_context(table, seat, anchors=anchors)
        base = f"/t/{table.id}/seat/{seat + 1}"
        q = f"?token={quote(token, safe='')}"
        view_url = (f"/t/{table.id}/hotseat/view{q}&seat={seat + 1}" if hot else f"{base}/view{q}")
        events_url = f"/t/{table.id}/hotseat/events{q}" if hot else f"{base}/events{q}"
        ctx.update(table_id=table.id, title=table.title, key=table.key,
                   move_url=f"{base}/move{q}" + ("&hot=1" if hot else ""),
                   view_url=view_url, events_url=events_url, message=message, error=table.error_for(seat),
                   save_problem=table.save_problem, hot=hot, pass_to=None, waiting=False)
        return ctx

    def hot_choice(table: Table, asked: int | None) -> tuple[int | None, int | None]:
        """(the seat to show, the seat the screen must be passed to) at a hot-seat screen."""
        persons = [i for i, s in enumerate(table.seats) if s.kind == "person"]
        if asked not in persons:
            asked = None
        if table.state.finished or table.error:
            return (asked, None) if asked is not None else (None, None)
        moving = table.persons_to_move()
        if asked is not None and (asked in moving or not moving):
            return asked, None
        if moving:
            return None, moving[0]
        return None, None

    async def hot_ctx(table: Table, token: str, asked_text: str | None, message: str | None = None) -> dict:
        """The hot-seat screen: the seat asked for while it may stay, else "pass the screen to
        P2" (a page with no cards on it), else a waiting or finished screen."""
        try:
            asked = int(asked_text or "") - 1
        except ValueError:
            asked = None
        show, pass_to = hot_choice(table, asked)
        if show is not None:
            return await seat_ctx(table, show, token, message, hot=True)
        q = f"?token={quote(token, safe='')}"
        o = views.outcome_view(table.state)
        return {"hot": True, "seat": None, "table_id": table.id, "title": table.title, "version": table.version,
                "pass_to": seat_name(pass_to) if pass_to is not None else None,
                "pass_url": f"/t/{table.id}/hotseat{q}&seat={pass_to + 1}" if pass_to is not None else None,
                "waiting": pass_to is None and o is None and not table.error, "outcome": o,
                "error": table.error_for(None),
                "persons": [{"name": seat_name(i), "url": f"/t/{table.id}/hotseat{q}&seat={i + 1}"}
                            for i, s in enumerate(table.seats) if s.kind == "person"],
                "view_url": f"/t/{table.id}/hotseat/view{q}", "events_url": f"/t/{table.id}/hotseat/events{q}",
                "rule_anchor": "", "key": table.key, "message": message, "save_problem": table.save_problem}

    # ---------------------------------------------------------------- pages
    async def index(request: Request):
        entries = await anyio.to_thread.run_sync(_listing, web.catalog)
        open_tables = [{"id": t.id, "title": t.title, "players": t.state.n_players, "moves": t.version,
                        "status": "finished" if t.state.finished else ("stopped by an error" if t.error else "playing")}
                       for t in sorted(web.tables.tables.values(), key=lambda t: -t.created)]
        return web.page("index.html.j2", games=entries, tables=open_tables,
                        skipped=len(web.tables.skipped))

    async def new_form(request: Request):
        key = request.query_params.get("ruleset", "")
        return await _new_page(key, {}, None)

    async def _listed(key: str):
        """(the listed ruleset `key`, None), or (None, the page saying it does not load); a 404 for
        a key that is not listed here."""
        entry = web.catalog.get(key)
        if entry is None or not entry.listed:
            raise HTTPException(404, "There is no such ruleset here.")
        try:
            return await anyio.to_thread.run_sync(web.catalog.ruleset, key), None
        except CardRulesError as e:
            return None, web.page("error.html.j2", 500, title="This ruleset does not load", text=e.render())

    async def _new_page(key: str, values: dict, message: str | None, status: int = 200):
        rs, refused = await _listed(key)
        if refused is not None:
            return refused
        return web.page("new.html.j2", status, key=key, rs=rs, title=rs.title or rs.name,
                        options=_options(rs), values=values, message=message,
                        max_iterations=web.limits.max_iterations,
                        players=int(values["players"]) if re.fullmatch(r"[0-9]{1,9}", str(values.get("players", "")))
                        else rs.players_min)

    async def new_table(request: Request):
        form = await form_of(request)
        key = str(form.get("ruleset", ""))
        rs, refused = await _listed(key)
        if refused is not None:
            return refused
        try:
            players = _int(form.get("players"), "the number of players")
            check_players(rs, players)  # before anything is made for each seat
            seed_text = str(form.get("seed", "")).strip()
            seed = secrets.randbelow(1_000_000) if not seed_text else _int(seed_text, "the seed")
            web.limits.check_seed(seed)
            options = {o.name: str(form[f"opt_{o.name}"]) for o in rs.options
                       if str(form.get(f"opt_{o.name}", "")).strip() != ""}
            seats = []
            for i in range(players):
                kind = str(form.get(f"seat{i + 1}", "person")).strip().lower()
                if kind == "ismcts":
                    n = _int(form.get(f"seat{i + 1}_iterations", "200"), f"the strength of the search player in {seat_name(i)}")
                    top = web.limits.max_iterations
                    if not (1 <= n <= top):
                        raise OptionError(f"the strength of the search player in {seat_name(i)} must be from 1 to "
                                          f"{top:,} iterations on this server, not {_shown(n)}")
                    kind = f"ismcts:{n}"
                seats.append(kind)
            table = web.tables.open(key, players, options, seed, seats)
        except Full as e:
            return await _new_page(key, form, e.message, 503)
        except OptionError as e:
            return await _new_page(key, form, e.message, 400)
        await table.save()
        web.tables.start_bots(table)
        log.info("table %s (%s) opened: its links are at /t/%s/links?token=%s", table.id, table.title, table.id,
                 table.hotseat_token)
        return RedirectResponse(f"/t/{table.id}/links?token={quote(table.hotseat_token, safe='')}", 303)

    async def table_links(request: Request):
        table = table_or_404(request)
        hotseat_or_403(request, table)
        seats = [{"name": seat_name(i), "label": s.label,
                  "url": seat_link(table, i) if s.kind == "person" else None} for i, s in enumerate(table.seats)]
        return web.page("links.html.j2", table=table, title=table.title, seats=seats,
                        hotseat=f"/t/{table.id}/hotseat?token={quote(table.hotseat_token, safe='')}",
                        base=str(request.base_url).rstrip("/"))

    async def seat_page(request: Request):
        table = table_or_404(request)
        seat = seat_or_403(request, table)
        ctx = await seat_ctx(table, seat, request.query_params["token"])
        return web.page("seat.html.j2", **ctx)

    async def seat_view(request: Request):
        table = table_or_404(request)
        seat = seat_or_403(request, table)
        ctx = await seat_ctx(table, seat, request.query_params["token"])
        return web.page("view.html.j2", **ctx)

    async def hotseat_page(request: Request):
        table = table_or_404(request)
        hotseat_or_403(request, table)
        q = request.query_params
        return web.page("seat.html.j2", **(await hot_ctx(table, q.get("token", ""), q.get("seat"))))

    async def hotseat_view(request: Request):
        table = table_or_404(request)
        hotseat_or_403(request, table)
        q = request.query_params
        return web.page("view.html.j2", **(await hot_ctx(table, q.get("token", ""), q.get("seat"))))

    async def _events(request: Request, table: Table):
        lifetime = web.events_lifetime
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        if request.method == "HEAD":  # the headers alone: a stream nobody reads would hold the connection
            return Response(media_type="text/event-stream", headers=headers)

        async def stream():
            yield "retry: 1500\n\n"
            last = None
            loop = asyncio.get_running_loop()
            end = loop.time() + lifetime
            quiet = 0.0
            while True:
                now = (table.version, table.error)
                if now != last:
                    last = now
                    yield f"event: version\ndata: {table.version}{'!' if table.error else ''}\n\n"
                left = end - loop.time()
                if left <= 0 or (web.stopping is not None and web.stopping.is_set()):
                    return
                if await table.wait_change(min(1.0, left)):  # a second at most: a stopping server ends it
                    quiet = 0.0
                else:
                    quiet += 1.0
                    if quiet >= 15.0:
                        quiet = 0.0
                        yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def seat_events(request: Request):
        table = table_or_404(request)
        seat_or_403(request, table)
        return await _events(request, table)

    async def hotseat_events(request: Request):
        table = table_or_404(request)
        hotseat_or_403(request, table)
        return await _events(request, table)

    async def _move(request: Request, as_json: bool):
        table = table_or_404(request)
        seat = seat_or_403(request, table)
        form = await form_of(request)
        as_json = as_json or request.headers.get("content-type", "").startswith("application/json") \
            or "application/json" in request.headers.get("accept", "")
        text = str(form.get("move", "")).strip()
        version = form.get("version")
        if isinstance(version, bool) or not isinstance(version, (int, str)) or \
                not re.fullmatch(r"[0-9]{1,9}", str(version).strip()):
            version = None  # none, or not a move number (Infinity, 1e400, a list): the move is made as the game is now
        else:
            version = int(str(version).strip())
        status, message = 200, None
        try:
            if not text:
                raise InvalidMoveError("no move was sent")
            await table.move(seat, text, version)
        except StaleMove as e:
            status, message = 409, e.message
        except (IllegalMoveError, InvalidMoveError) as e:
            status, message = 409, e.message
        except GameRuntimeError as e:
            status, message = 409, f"the game cannot go on: {for_seat(e.message, table.state, seat, text)}"
        if as_json:
            body = {"ok": status == 200, "version": table.version}
            if message:
                body["error"] = message
            return JSONResponse(body, status_code=status)
        token = request.query_params["token"]
        fragment = request.headers.get("x-cardrules-fragment") == "1"
        if request.query_params.get("hot") == "1" and same_token(token, table.hotseat_token):
            ctx = await hot_ctx(table, token, str(seat + 1), message)  # the screen may now pass on
        else:
            ctx = await seat_ctx(table, seat, token, message)
        return web.page("view.html.j2" if fragment else "seat.html.j2", status, **ctx)

    async def seat_move(request: Request):
        return await _move(request, False)

    async def api_seat(request: Request):
        table = table_or_404(request)
        seat = seat_or_403(request, table)
        return JSONResponse(views.api_view(table, seat))

    async def api_move(request: Request):
        return await _move(request, True)

    async def rulebook(request: Request):
        key = request.path_params["key"]
        if web.catalog.get(key) is None:
            raise HTTPException(404, "There is no such ruleset here.")
        try:
            html, _ = await anyio.to_thread.run_sync(web.catalog.rulebook, key)
        except CardRulesError as e:
            return web.page("error.html.j2", 500, title="This ruleset does not load", text=e.render())
        if request.query_params.get("embed") == "1":  # beside the table: a narrow column, the running rule marked
            html = html.replace("</head>", f"<style>{_EMBED_CSS}</style></head>", 1)
        return HTMLResponse(html)

    # ---------------------------------------------------------------- replays
    async def replay_index(request: Request):
        found = replays.sources(web)
        return web.page("replay.html.j2", found=found, message=None)

    async def replay_upload(request: Request):
        try:
            form = await form_of(request, web.limits.upload_bytes)
        except HTTPException as e:
            if e.status_code != 413:
                raise
            return web.page("replay.html.j2", 413, found=replays.sources(web),
                            message=f"That record is too large to upload here: the limit is "
                                    f"{_size(web.limits.upload_bytes)}. Replay it on your own computer with "
                                    "the command cardrules replay FILE, or start this server with a higher --max-upload.")
        text = str(form.get("record", "")).strip()
        try:
            rec = await anyio.to_thread.run_sync(replays.parse_upload, text)  # megabytes of JSON: not in the loop
        except CardRulesError as e:
            return web.page("replay.html.j2", 400, found=replays.sources(web), message=e.message)
        uid = replays.keep_upload(web, str(form.get("name") or "uploaded record")[:200], rec)
        return RedirectResponse(f"/replay/u/{uid}", 303)

    async def replay_view(request: Request):
        source, name = request.path_params["source"], request.path_params["name"]
        step_text = request.query_params.get("step", "0").strip()
        step = int(step_text) if re.fullmatch(r"-?[0-9]{1,9}", step_text) else 0
        seat_text = request.query_params.get("seat", "")
        seat = int(seat_text) - 1 if re.fullmatch(r"[0-9]{1,6}", seat_text) else None
        try:
            ctx = await anyio.to_thread.run_sync(replays.context, web, source, name, step, seat)
        except LookupError:
            raise HTTPException(404, "There is no such record here.") from None
        except CardRulesError as e:
            return web.page("error.html.j2", 400, title="This record does not replay", text=e.render())
        return web.page("replay_view.html.j2", **ctx)

    # ---------------------------------------------------------------- errors
    async def http_error(request: Request, exc: HTTPException):
        if request.url.path.startswith("/api/"):  # the API answers in JSON, errors too
            text = "this token is not valid here" if exc.status_code == 403 else exc.detail
            return JSONResponse({"ok": False, "error": text or "that did not work"}, status_code=exc.status_code)
        if exc.status_code == 403:
            return web.page("error.html.j2", 403, title="Not allowed",
                            text="This link is not valid here. Ask whoever opened the table for your seat's link.")
        if exc.status_code == 404:
            return web.page("error.html.j2", 404, title="Not found", text=exc.detail or "There is nothing here.")
        return web.page("error.html.j2", exc.status_code, title="That did not work", text=exc.detail or "")

    async def server_error(request: Request, exc: Exception):
        log.exception("an error inside the server while answering %s", request.url.path)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"ok": False, "error": "something went wrong inside the server; the table is "
                                 "unchanged and the server's log says more"}, status_code=500)
        what = exc.render() if isinstance(exc, CardRulesError) else \
            f"Something went wrong inside the server ({type(exc).__name__}). The table is unchanged; the server's log says more."
        return web.page("error.html.j2", 500, title="Something went wrong", text=what)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/new", new_form, methods=["GET"]),
        Route("/new", new_table, methods=["POST"]),
        Route("/t/{table_id}/links", table_links),
        Route("/t/{table_id}/seat/{n}", seat_page),
        Route("/t/{table_id}/seat/{n}/view", seat_view),
        Route("/t/{table_id}/seat/{n}/events", seat_events),
        Route("/t/{table_id}/seat/{n}/move", seat_move, methods=["POST"]),
        Route("/t/{table_id}/hotseat", hotseat_page),
        Route("/t/{table_id}/hotseat/view", hotseat_view),
        Route("/t/{table_id}/hotseat/events", hotseat_events),
        Route("/api/t/{table_id}/seat/{n}", api_seat),
        Route("/api/t/{table_id}/seat/{n}/move", api_move, methods=["POST"]),
        Route("/r/{key:path}/rulebook", rulebook),
        Route("/replay", replay_index, methods=["GET"]),
        Route("/replay", replay_upload, methods=["POST"]),
        Route("/replay/{source}/{name}", replay_view),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.add_middleware(Guard, hosts=hosts or Hosts())
    app.state.web = web
    return app


_EMBED_CSS = ("html{font-size:10pt;overflow-x:hidden}body{max-width:none;padding:.8rem .9rem 60vh}"
              "table{display:block;overflow-x:auto}pre{white-space:pre-wrap}figure.turn-picture svg{max-width:100%}"
              ".rule-now{background:#fff4dc;outline:3px solid #e0a43a;outline-offset:4px;border-radius:4px}")


def _int(value, what: str) -> int:
    text = str(value).strip()
    if len(text) > 40:  # no limit of ours is that long; int() of a long text is slow
        raise OptionError(f"{what} must be a whole number of at most 40 digits")
    try:
        return int(text)
    except (TypeError, ValueError):
        raise OptionError(f"{what} must be a whole number, not {text!r}") from None


def _shown(n: int) -> str:
    return f"{n:,}"


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else \
        (f"{n // 1024} KB" if n % 1024 == 0 else f"{n} bytes")


def _options(rs) -> list[dict]:
    """Each option with the text the rulebook gives it, its allowed values and its default."""
    out = []
    for o in rs.options:
        about = " ".join(x for x in [o.description or "", *o.texts] if x)
        if o.type == "bool":
            values = ["true", "false"]
        elif o.type == "enum":
            values = list(o.choices)
        else:
            values = None
        default = ("true" if o.default else "false") if o.type == "bool" else str(o.default)
        out.append({"name": o.name, "label": views.human(o.name), "about": about, "notes": list(o.notes),
                    "type": o.type, "values": values, "default": default, "low": o.low, "high": o.high})
    return out


def _listing(catalog: Catalog) -> list[dict]:
    """The games on offer with their variants under them, each with its title and players."""
    rows = []
    for e in catalog.entries():
        try:
            rs = catalog.ruleset(e.key)
        except CardRulesError as err:
            rows.append({"key": e.key, "title": e.key, "players": "", "base": None, "name": e.key,
                         "error": err.render(), "variants": []})
            continue
        players = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min}-{rs.players_max}"
        rows.append({"key": e.key, "title": rs.title or rs.name, "players": players, "base": rs.base,
                     "name": rs.name, "error": None, "variants": [], "given": e.key.startswith("file/")})
    games = {r["name"]: r for r in rows if not r["base"]}
    out = []
    for r in rows:
        if r["base"] and r["base"] in games:
            games[r["base"]]["variants"].append(r)
        else:
            out.append(r)
    return out
