"""The studio's routes (Starlette): the page at `/studio`, its JSON API under `/studio/api/`, its
files under `/studio/static/`, and the browser table of `cardrules serve` mounted at `/` in the
same server, so that "Play it now" opens a real table (the same code, pages and bots).

Every answer of the API is JSON; a body that is not a JSON object is 400 with `{"error": ...}`,
one larger than a file of MAX_CHARS characters can make (BODY_BYTES) is 413 before it is kept.
The studio trusts nobody by default: every request under `/studio` carries its token, in the
header `X-Studio-Token` or as `?token=` (the page has it from its own address, never from a
cookie), else 403; a request that changes state is JSON, else 415; and before either,
web/guard.py checks the Host and the Origin."""

from __future__ import annotations

import importlib
import json
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

import anyio
import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..web.app import create_app
from ..web.guard import Guard, Hosts
from ..web.limits import Limits
from .paths import MAX_CHARS, Files, Refused
from .workspace import Studio

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
BODY_BYTES = 4 * MAX_CHARS + 64 * 1024  # such a text in UTF-8 (4 bytes a character at most), and the rest


def make_app(paths: list[Path] = (), workdir: Path | None = None, data: Path | None = None,
             token: str | None = None, limits: Limits | None = None, bot_pause: float = 0.6,
             engine: str = "python", hosts: Hosts | None = None) -> Starlette:
    """The studio over `paths` (files and folders it may open and save) and `workdir` (where new
    files go), with the browser table mounted; its tables and the rules they were opened with
    are kept in `data`. `token`: what every studio request must carry (None: a new random one,
    as `app.state.token`); `hosts`: the names it answers to (guard.Hosts; default: this
    computer's loopback names)."""
    limits = limits or Limits()
    token = token or secrets.token_urlsafe(18)
    workdir = Path(workdir if workdir is not None else Path.cwd() / "studio")
    data = Path(data if data is not None else workdir / ".cardrules")
    (data / "tables").mkdir(parents=True, exist_ok=True)
    hosts = hosts or Hosts()
    table_app = create_app(data, bot_pause=bot_pause, limits=limits, engine=engine, hosts=hosts)
    web = table_app.state.web
    studio = Studio(Files(list(paths), workdir), web, token, data / "studio-plays")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                             undefined=jinja2.StrictUndefined)

    async def body(request: Request) -> dict:
        limit = BODY_BYTES
        too_large = f"that is too large to send here: the studio saves and analyses files of up to {MAX_CHARS:,} " \
                    "characters"
        declared = request.headers.get("content-length", "")
        if declared.strip().isdigit() and int(declared) > limit:
            raise Refused(413, too_large)
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise Refused(413, too_large)
        try:
            got = json.loads(bytes(data) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise Refused(400, "the request is not valid JSON") from None
        if not isinstance(got, dict):
            raise Refused(400, "send a JSON object")
        return got

    def api(fn):
        """A JSON route: Refused becomes its status and `{"error": ...}`; the work runs in a thread."""
        async def route(request: Request):
            try:
                got = await body(request) if request.method == "POST" else dict(request.query_params)
                return await fn(request, got)
            except Refused as e:
                return JSONResponse({"error": e.message, **e.extra}, status_code=e.status)
        return route

    def threaded(method):
        async def run(request, got):
            return JSONResponse(await anyio.to_thread.run_sync(lambda: method(got)))
        return run

    # ---------------------------------------------------------------- the page
    async def page(request: Request):
        tok = request.query_params.get("token", "")
        html = env.get_template("studio.html.j2").render(
            token=tok, q=f"?token={quote(tok, safe='')}" if tok else "",
            bundle=(STATIC / "editor.bundle.js").is_file(), measure=(STATIC / "measure.js").is_file(),
            start=request.query_params.get("file", ""))
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    # ---------------------------------------------------------------- the API
    def words(got):
        from ..language import highlight as h
        return {"keywords": list(h.KEYWORDS), "builtins": list(h.BUILTINS), "names": list(h.BUILTIN_NAMES),
                "context": list(h.CONTEXT_WORDS)}

    def files(got):
        return studio.files.listing()

    def open_(got):
        return studio.open_file(got.get("path"), _page(got))

    def presence(got):
        """Who else has the file open, and the file on disk now (its sha256; where it went when
        renamed): a page polls this every few seconds, which is how it hears of a save elsewhere."""
        path = str(studio.files.confine(got.get("path"), must_exist=False)[0])
        if got.get("leave") and _page(got):
            studio.leave(path, _page(got))
            return {"others": 0}
        return {"others": studio.present(path, _page(got)), **studio.where(path)}

    def changes(got):
        return studio.changes(got.get("path"), got.get("text"))

    def analyse(got):
        return studio.analyse(got.get("path"), got.get("text"))

    def warnings(got):
        return studio.warnings(got.get("path"), got.get("text"))

    def hover(got):
        return studio.hover(got.get("path"), got.get("text"), got.get("line"), got.get("col"))

    def complete(got):
        return studio.complete(got.get("path"), got.get("text"), got.get("line"), got.get("col"))

    def definition(got):
        return studio.definition(got.get("path"), got.get("text"), got.get("line"), got.get("col"))

    def save(got):
        text = got.get("text")
        if not isinstance(text, str):
            raise Refused(400, "text must be a string")
        sha = got.get("sha256")
        new_sha = studio.files.save(got.get("path"), text, sha if isinstance(sha, str) else None,
                                    force=got.get("force") is True)
        path = str(studio.files.confine(got.get("path"))[0])
        studio.saved(path)
        return {"path": path, "sha256": new_sha}

    def new(got):
        o = studio.files.new(got.get("from"), str(got.get("kind", "copy")), got.get("name"))
        studio.saved(o.path)
        return studio.open_file(o.path, _page(got))

    def rename(got):
        return studio.rename(got.get("path"), got.get("name"))

    def delete(got):
        return studio.delete(got.get("path"), got.get("sha256"))

    async def play(request, got):
        def run():
            made = studio.play(got.get("path"), got.get("players"), got.get("seats"), got.get("seed"))
            return made["table"]
        table = await anyio.to_thread.run_sync(run)
        await table.save()
        web.tables.start_bots(table)
        persons = [i for i, s in enumerate(table.seats) if s.kind == "person"]
        if len(persons) == 1:
            i = persons[0]
            url = f"/t/{table.id}/seat/{i + 1}?token={quote(table.seats[i].token, safe='')}"
        else:
            url = f"/t/{table.id}/links?token={quote(table.hotseat_token, safe='')}"
        return JSONResponse({"table": table.id, "url": url, "title": table.title,
                             "error": table.error})

    async def rulebook(request, got):
        hit = await anyio.to_thread.run_sync(lambda: studio.rulebook(got.get("path")))
        if hit is None:
            raise Refused(404, "this file has not loaded yet: there is no rulebook to show")
        version, html = hit
        html = html.replace("</head>", f"<style>{_BOOK_CSS}</style></head>", 1)
        return HTMLResponse(html, headers={"X-Rulebook-Version": str(version), "Cache-Control": "no-store"})

    routes = [Route("/studio", page), Route("/studio/", page)]  # (/favicon.ico: the mounted table's)
    for name, fn in (("words", words), ("files", files), ("open", open_), ("presence", presence),
                     ("analyse", analyse), ("warnings", warnings), ("hover", hover), ("complete", complete),
                     ("definition", definition), ("save", save), ("new", new), ("rename", rename),
                     ("delete", delete), ("changes", changes)):
        routes.append(Route(f"/studio/api/{name}", api(threaded(fn)), methods=["POST"] + (
            ["GET"] if name in ("words", "files") else [])))
    routes.append(Route("/studio/api/play", api(play), methods=["POST"]))
    routes.append(Route("/studio/api/rulebook", api(rulebook), methods=["GET"]))
    try:  # the measure panels, when that part is there
        panels = importlib.import_module(".panels", __package__)
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}.panels":
            raise
    else:
        routes.extend(panels.routes(studio))
    routes.append(Mount("/studio/static", StaticFiles(directory=str(STATIC)), name="studio-static"))
    routes.append(Mount("/", table_app))

    @asynccontextmanager
    async def lifespan(app):
        async with table_app.router.lifespan_context(table_app):
            yield

    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_TokenGate, token=token)
    app.add_middleware(Guard, hosts=hosts)  # (outermost: the Host and Origin are checked first)
    app.state.token = token
    app.state.studio = studio
    app.state.web = web
    return app


class _TokenGate:
    """Every request under /studio carries the token (header X-Studio-Token, or ?token= for the
    page, its files and the rulebook's frame), else 403; and every request that changes state
    there is JSON (`Content-Type: application/json`), else 415: a form or a `text/plain` body is
    what another site's page can send without asking first, JSON with a header of ours is not."""

    def __init__(self, app, token: str):
        self.app, self.token = app, token

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "") if scope["type"] in ("http", "websocket") else ""
        if path == "/studio" or path.startswith("/studio/"):
            request = Request(scope)
            given = request.headers.get("x-studio-token") or request.query_params.get("token") or ""
            resp: Response | None = None
            if not secrets.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8")):
                if path.startswith("/studio/api/"):
                    resp = JSONResponse({"error": "this studio asks for the token printed when it started "
                                                  "(open the address it printed)"}, status_code=403)
                else:
                    resp = HTMLResponse("<!doctype html><title>Not allowed</title><p>This studio asks for its "
                                        "token: open the full address it printed when it started.</p>", 403)
            elif request.method not in ("GET", "HEAD") and \
                    request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                resp = JSONResponse({"error": "send the request as JSON (Content-Type: application/json)"},
                                    status_code=415)
            if resp is not None:
                await resp(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _page(got: dict) -> str | None:
    p = got.get("page")
    return p if isinstance(p, str) and 0 < len(p) <= 64 else None


_BOOK_CSS = ("html{font-size:10pt;overflow-x:hidden}body{max-width:none;padding:.8rem .9rem 40vh}"
             "table{display:block;overflow-x:auto}pre{white-space:pre-wrap}figure.turn-picture svg{max-width:100%}"
             "[data-line]:not([data-file]){cursor:pointer}.rule[data-line]:not([data-file]):hover{background:#f6f6f0}"
             "[data-file]>.keep>h3,[data-file]>.keep>h4{cursor:pointer}"
             "[data-file]>.keep>h3:hover,[data-file]>.keep>h4:hover{text-decoration:underline dotted}"
             ".studio-here{background:#fff4dc;outline:3px solid #e0a43a;outline-offset:4px;border-radius:4px}"
             "section.phase.studio-here{outline-width:2px;background:none}")
