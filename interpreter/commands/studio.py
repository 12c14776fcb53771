"""`cardrules studio`: a command of its own, not a page inside `serve`.

Why a new command: the studio opens and writes files on the computer it runs on, which `serve`
never does (it only reads the rulesets it was started with); a table server is meant to be
reached by other people, a studio by its author. Keeping them apart keeps `serve`'s promise
(nothing a stranger sends touches a file) and lets the studio default to what an author wants:
this computer only, a working folder, tables on the Python engine (a rule just edited plays at
once; the native engine builds C for each new version). The table is not copied: the studio's
server mounts `serve`'s app (web/app.py, its Tables and pages) at `/`, and binds its socket with
commands/serve.py's `_bind`, so "Play it now" opens a real table in the same server.

This module is imported when the command line starts, so it imports nothing heavy."""

from __future__ import annotations

import ipaddress
import logging
import secrets
import socket
from pathlib import Path
from typing import Annotated

import typer


def _err(text: str) -> None:
    typer.echo(text, err=True)


def loopback(host: str) -> bool:
    """Whether `host` is reachable from this computer only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def studio_command(
    paths: Annotated[list[Path] | None, typer.Argument(help="The ruleset files and folders the studio may open and save (default: the working folder only).")] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on (default: this computer only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    data: Annotated[Path | None, typer.Option("--data", metavar="DIR", help="The working folder, where new files go (default: ./studio/); its .cardrules/ keeps the tables opened from the studio.")] = None,
    allow_host: Annotated[list[str] | None, typer.Option("--allow-host", metavar="NAME", help="Another name the studio may be reached by (a reverse proxy's); repeat for more, '*' for any.")] = None,
    token: Annotated[bool, typer.Option("--token", hidden=True, help="(The token is always asked for now.)")] = False,
    bot_pause: Annotated[float, typer.Option("--bot-pause", metavar="SECONDS", help="How long bots wait before they move, so people can follow.")] = 0.6,
) -> None:
    """Write a ruleset in the browser: the editor, its rulebook beside it, and a table to play it."""
    from .serve import _bind
    if not (0 <= port <= 65535):
        _err(f"error: --port must be from 0 to 65535, not {port}")
        raise typer.Exit(2)
    if bot_pause < 0:
        _err(f"error: --bot-pause must be 0 or more seconds, not {bot_pause}")
        raise typer.Exit(2)
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        _err("error: the studio needs starlette and uvicorn: pip install starlette uvicorn")
        raise typer.Exit(2)
    given = list(paths or [])
    for p in given:
        if not p.exists():
            _err(f"{p}: error: no such file or folder")
            raise typer.Exit(1)
        if p.is_file() and p.suffix != ".cards":
            _err(f"{p}: error: the studio opens .cards files (and folders of them)")
            raise typer.Exit(1)
    if data is not None:
        workdir = data.expanduser()
    else:
        folders = [p for p in given if p.is_dir()]
        workdir = folders[0] if folders else Path.cwd() / "studio"
    try:
        workdir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _err(f"{workdir}: error: cannot use this folder: {e.strerror or e}")
        raise typer.Exit(1)
    from ..web.guard import Hosts
    secret = secrets.token_urlsafe(18)
    sock = _bind(host, port)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    from ..studio.app import make_app
    app = make_app(given, workdir, token=secret, bot_pause=bot_pause, hosts=Hosts(host, list(allow_host or [])))
    web = app.state.web
    shown = "localhost" if loopback(host) else (socket.gethostname() if host in ("0.0.0.0", "::", "") else host)
    real_port = sock.getsockname()[1]
    url = f"http://{shown}:{real_port}/studio?token={secret}"
    typer.echo(f"cardrules: the studio is at {url} (new files go to {workdir}); Ctrl-C stops it")
    typer.echo("  open that whole address: the token in it is asked for on every request"
               + ("" if loopback(host) else "; the studio is reachable from the network"))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on",
                            h11_max_incomplete_event_size=64 * 1024)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            web.begin_stop()
            super().handle_exit(sig, frame)

    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the server answers SIGTERM itself and ends cleanly, exit 0)
    Server(config).run(sockets=[sock])
