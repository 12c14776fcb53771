"""Who may talk to a server of ours at all: the Host it is asked by, and the Origin of any
request that changes something. One ASGI middleware for the table (`serve`) and the studio.

Why: a server on 127.0.0.1 is still reachable from every web page the person's browser opens.
A page on another site can send a "simple" request (a form, a `text/plain` POST) without asking
first, and a site that rebinds its own DNS name to 127.0.0.1 can then read the answers too, as if
it were us (DNS rebinding). Jupyter met both and answers with the same two checks:

* Host: the name in the request's `Host` header must be one the server is known by: this
  computer's loopback names, the `--host` it listens on, this computer's own name when it listens
  on every network, and whatever `--allow-host` adds (a reverse proxy's public name; `*` allows
  any). An address written as digits cannot be rebound, so one is allowed when it is the address
  listened on, a loopback one, or any when the server listens on every network. Else 403.
* Origin: a request that changes state (any method but GET, HEAD and OPTIONS) that a browser
  marks as coming from another site (`Origin` not this server's own scheme, host and port,
  `Origin: null`, or `Sec-Fetch-Site: cross-site`) is refused with 403. A request with neither
  header is not a browser's, and is let through to the route's own checks (tokens)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
WILDCARDS = ("", "0.0.0.0", "::")


def _ip(name: str):
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def host_name(value: str) -> str:
    """The name of a `Host` header or an origin's netloc, lower case, without its port or the
    brackets of an IPv6 address."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value[1:]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Hosts:
    """The names a server answers to: `listen` is its `--host`, `extra` the `--allow-host` names."""

    def __init__(self, listen: str = "127.0.0.1", extra: tuple[str, ...] | list[str] = ()):
        self.listen = listen.strip().strip("[]").lower()
        self.any = "*" in extra
        self.everywhere = self.listen in WILDCARDS
        self.proxied = frozenset(host_name(e) for e in extra if e != "*")
        names = set(LOOPBACK_NAMES) | self.proxied
        if self.listen and not self.everywhere:
            names.add(self.listen)
        if self.everywhere:  # reached by this computer's name as the command prints it
            for name in (socket.gethostname(), socket.getfqdn()):
                if name:
                    names.add(name.lower())
        self.names = frozenset(names)

    def allows(self, header: str) -> bool:
        if self.any:
            return True
        name = host_name(header)
        if not name:
            return False
        if name in self.names:
            return True
        ip = _ip(name)
        if ip is None:
            return False
        return self.everywhere or ip.is_loopback or ip == _ip(self.listen)


class Guard:
    """The ASGI middleware: the Host check on every request, the Origin check on every request
    that changes state (see the module's docstring). `api_prefixes`: paths whose refusals are
    JSON (`{"error": ...}`) rather than a page."""

    def __init__(self, app, hosts: Hosts, api_prefixes: tuple[str, ...] = ("/api/", "/studio/api/")):
        self.app, self.hosts, self.api_prefixes = app, hosts, api_prefixes

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        host = request.headers.get("host", "")
        why = None
        if not self.hosts.allows(host):
            why = (f"this server does not answer to the name {host_name(host)!r}: open it by the address it "
                   "printed, or start it with --allow-host NAME")
        elif scope["type"] == "websocket" or request.method not in SAFE_METHODS:
            why = self.cross_site(request, host)
        if why is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        path = scope.get("path", "")
        resp: Response
        if any(path.startswith(p) for p in self.api_prefixes):
            resp = JSONResponse({"error": why}, status_code=403)
        else:
            from html import escape
            resp = HTMLResponse(f"<!doctype html><title>Not allowed</title><p>{escape(why)}</p>", 403)
        await resp(scope, receive, send)

    def cross_site(self, request: Request, host: str) -> str | None:
        """Why a request that changes state is refused as another site's, or None."""
        if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
            return "a request from another site cannot change anything here"
        origin = request.headers.get("origin")
        if origin is None:
            return None
        o = urlsplit(origin.strip().lower())
        if origin.strip().lower() == "null" or not o.scheme or not o.netloc:
            return "a request from a page with no origin cannot change anything here"
        scheme = request.url.scheme.lower().replace("ws", "http")
        default = {"http": 80, "https": 443}
        try:
            o_port = o.port or default.get(o.scheme)
        except ValueError:
            return "a request from another site cannot change anything here"
        h = urlsplit(f"//{host.strip().lower()}")
        try:
            h_port = h.port or default.get(scheme)
        except ValueError:
            h_port = None
        if o.scheme == scheme and o.hostname == h.hostname and o_port == h_port:
            return None
        if o.hostname in self.hosts.proxied:  # a proxy named with --allow-host may pass on a Host of its own
            return None
        return "a request from another site cannot change anything here"
