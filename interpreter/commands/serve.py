"""`cardrules serve`: the browser table. This module is imported when the command line starts,
so it imports nothing heavy: Starlette and uvicorn are loaded only when the command runs."""

from __future__ import annotations

import errno
import logging
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import OptionError
from ..runner import ENGINE_HELP
from ..web.limits import Limits


def _err(text: str) -> None:
    typer.echo(text, err=True)


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound now so that a port in use is said in one line (exit 2)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        _err(f"error: cannot listen on {host!r}: no such address on this computer; pass --host")
        raise typer.Exit(2)
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    if sys.platform != "win32":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            _err(f"error: port {port} is in use on {host}; pass --port")
        elif e.errno == errno.EACCES:
            _err(f"error: not allowed to listen on port {port} on {host}; pass --port (above 1023)")
        else:
            _err(f"error: cannot listen on {host} port {port}: {e.strerror or e}; pass --host or --port")
        raise typer.Exit(2)
    sock.listen(128)  # from now on a browser waits for the server instead of being refused
    return sock


def _resolve(arg: Path) -> Path:
    """A path, or a bundled game's name (as every command takes one)."""
    from ..bundled import resolve
    from ..errors import OptionError
    try:
        return resolve(arg)
    except OptionError as e:
        _err(f"{arg}: error: {e.message}")
        raise typer.Exit(1)


def _load(path: Path):
    """A checked rule graph, or exit 1 with the located error as `check` prints it."""
    from .. import load_ruleset
    from ..errors import CardRulesError
    try:
        return load_ruleset(path)
    except CardRulesError as e:
        _err(e.render())
        raise typer.Exit(1)
    except OSError as e:
        _err(f"{path}: error: cannot read the ruleset: {e.strerror or e}")
        raise typer.Exit(1)


def _paths(paths: list[Path]) -> tuple[list[tuple[Path, object]], list[Path]]:
    """(rulesets with their rule graphs, record files) from the command line; a ruleset that
    does not load stops here with its located error, as `check` prints it (exit 1)."""
    rulesets, records = [], []
    for p in paths:
        if p.is_dir():
            found = sorted(p.rglob("*.cards"))
            recs = sorted(p.rglob("*.json"))
            if not found and not recs:
                _err(f"{p}: error: no .cards or .json files in this folder")
                raise typer.Exit(1)
            rulesets.extend((f, _load(f)) for f in found)
            records.extend(recs)
        elif p.suffix.lower() == ".json":
            if not p.is_file():
                _err(f"{p}: error: no such record file")
                raise typer.Exit(1)
            records.append(p)
        else:
            f = _resolve(p)
            rulesets.append((f, _load(f)))
    return rulesets, records


def serve_engine(requested: str) -> str:
    """--engine of `serve`, checked at start-up (engines.at_start): each game is built in C when
    its first table opens."""
    from ..engines import at_start
    return at_start(requested, "each game when its first table opens")


def serve_command(
    paths: Annotated[list[Path] | None, typer.Argument(help="Rulesets to offer besides the bundled games (.cards files, folders, bundled names), and saved games (.json) to replay.")] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on (0.0.0.0: every network of this computer).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    data: Annotated[Path | None, typer.Option("--data", metavar="DIR", help="Where tables are kept (default: $CARDRULES_DATA_DIR, else the user's data folder, cardrules/).")] = None,
    bot_pause: Annotated[float, typer.Option("--bot-pause", metavar="SECONDS", help="How long bots wait before they move, so people can follow.")] = 0.6,
    max_tables: Annotated[int, typer.Option("--max-tables", metavar="N", help="Tables played at once; past it, opening one is refused.")] = Limits.max_tables,
    max_bot_tables: Annotated[int, typer.Option("--max-bot-tables", metavar="N", help="Of those, tables with a bot at a seat.")] = Limits.max_thinking,
    max_iterations: Annotated[int, typer.Option("--max-iterations", metavar="N", help="The strongest search player a table may seat (iterations a decision).")] = Limits.max_iterations,
    think_seconds: Annotated[float, typer.Option("--think-seconds", metavar="SECONDS", help="A bot's time for one decision; then it plays the best move found so far.")] = Limits.think_seconds,
    bot_workers: Annotated[int | None, typer.Option("--bot-workers", metavar="N", help="Processes the bots think in (default: one a core; 0: in the server itself).")] = None,
    max_upload: Annotated[int, typer.Option("--max-upload", metavar="MB", help="The largest record that may be uploaded to replay, in MB.")] = Limits.upload_bytes // (1024 * 1024),
    allow_host: Annotated[list[str] | None, typer.Option("--allow-host", metavar="NAME", help="Another name the table may be reached by (a reverse proxy's); repeat for more, '*' for any.")] = None,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP + " (Each game is built when its first table opens.)")] = "auto",
) -> None:
    """Open the browser table: play any game with people and bots, with the rulebook beside it."""
    if bot_pause < 0:
        _err(f"error: --bot-pause must be 0 or more seconds, not {bot_pause}")
        raise typer.Exit(2)
    from ..errors import OptionError
    given = dict(max_tables=max_tables, max_thinking=max_bot_tables, max_iterations=max_iterations,
                 think_seconds=think_seconds, upload_bytes=max(0, min(max_upload, 1024)) * 1024 * 1024)
    if bot_workers is not None:
        given["bot_workers"] = bot_workers
    limits = Limits(**given)
    try:
        limits.check()
        if not (1 <= max_upload <= 1024):
            raise OptionError(f"--max-upload must be from 1 to 1024 MB, not {max_upload}")
    except OptionError as e:
        _err(f"error: {e.message}")
        raise typer.Exit(2)
    if not (0 <= port <= 65535):
        _err(f"error: --port must be from 0 to 65535, not {port}")
        raise typer.Exit(2)
    try:
        engine_line = serve_engine(engine_name)
    except OptionError as e:
        _err(f"error: {e.message}")
        raise typer.Exit(2)
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        _err("error: the browser table needs starlette and uvicorn: pip install starlette uvicorn")
        raise typer.Exit(2)
    rulesets, records = _paths(list(paths or []))
    from ..web.store import default_data_dir
    folder = (data or default_data_dir()).expanduser()
    try:
        (folder / "tables").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _err(f"{folder}: error: cannot keep tables here: {e.strerror or e}")
        raise typer.Exit(1)
    sock = _bind(host, port)
    _err(engine_line)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    from ..web.app import create_app
    from ..web.guard import Hosts
    app = create_app(folder, rulesets, bot_pause, records, limits=limits, engine=engine_name,
                     hosts=Hosts(host, list(allow_host or [])))
    web = app.state.web
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    real_port = sock.getsockname()[1]
    typer.echo(f"cardrules: the table is at http://{shown}:{real_port}/ (tables kept in {folder / 'tables'}; "
               f"{len(web.tables.tables)} saved table{'s' if len(web.tables.tables) != 1 else ''} loaded); Ctrl-C stops it")
    for t in web.tables.tables.values():
        if not t.state.finished:
            typer.echo(f"  table {t.id} ({t.title}, {t.version} moves): /t/{t.id}/links?token={t.hotseat_token}")
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on",
                            limit_concurrency=limits.max_connections, h11_max_incomplete_event_size=64 * 1024)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):  # Ctrl-C or SIGTERM: end live updates now, not after the grace
            web.begin_stop()
            super().handle_exit(sig, frame)

    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the server answers SIGTERM itself and ends cleanly, exit 0)
    Server(config).run(sockets=[sock])
