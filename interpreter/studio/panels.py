"""The studio's measure panels: what did my change do, and fuzz it.

Three answers about the file being edited, from its last version that loaded (`studio.loaded`):

* **Diff** (a variant only): the diff against its base, in words and as a redline, the very page
  `cardrules diff BASE VARIANT --format html` writes (the diff stage's own functions; the page is
  shown in a frame, so its printable style stays its own). Cheap: made again only when the
  variant or its base loaded anew.
* **Balance**: `cardrules balance FILE --against OTHER` on K games of each (1..MAX_GAMES), OTHER
  being a variant's base or another file chosen (`against`), the seats played by bots, in a
  process of its own (`measure_jobs`): a progress bar counting each side's games, a Stop that
  ends the process at once, and the report's own HTML page (its plots inside) when it is done.
* **Fuzz**: the fuzzer's findings as `cardrules fuzz` finds them, in a process too; each dynamic
  finding's shrunk reproduction is added to the mounted table's records, so it opens in the
  replay view.

Routes (all POST with a JSON body `{"path": ...}` and more, all answers JSON; `status` and
`result` also answer GET with `?path=&kind=`), under /studio/api/measure/: `diff`,
`{balance|fuzz}/start`, `{balance|fuzz}/status`, `{balance|fuzz}/stop`, `{balance|fuzz}/result`.
A bad body or number is 400 with `{"error": "..."}` (one line a designer reads), a file with no
loaded version 404, a run already under way 409, a request without the studio's token 403."""

from __future__ import annotations

import hmac
import json
from pathlib import Path

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .panel_jobs import Jobs, Snapshots, balance_child, fuzz_child

PREFIX = "/studio/api/measure"
MAX_GAMES = 1000          # games per ruleset in one balance comparison
DEFAULT_GAMES = 50
MAX_FUZZ_GAMES = 50       # the fuzzer's games per configuration (player count x options)
DEFAULT_FUZZ_GAMES = 4
MAX_BODY = 16 * 1024      # a request's JSON body
BOTS = ("random", "greedy")
ENGINES = ("python", "auto", "native")
KINDS = ("balance", "fuzz")


class BadRequest(Exception):
    """A request the panel cannot act on: its one-line reason and the HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _check_token(request: Request, studio) -> None:
    """403 unless the request carries the studio's token (when it has one): the header
    X-Studio-Token, as `window.studio.api` sends it, or `?token=` as the rest of the studio takes it."""
    token = getattr(studio, "token", None)
    if not token:
        return
    given = request.headers.get("x-studio-token") or request.query_params.get("token") or ""
    if not hmac.compare_digest(given.encode(), str(token).encode()):
        raise BadRequest("this studio asks for its token: open the address printed when it started", 403)


async def _body(request: Request) -> dict:
    """The request's JSON object (GET: its query), or 400."""
    if request.method == "GET":
        return dict(request.query_params)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request is too large (more than {MAX_BODY // 1024} KB)", 413)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest("the request's body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request's body is not a JSON object")
    return data


def _whole(data: dict, name: str, default: int, low: int, high: int, what: str) -> int:
    """A whole number from the request, from low to high, or a 400 that says so."""
    value = data.get(name, default)
    if value is None or value == "":
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{what} must be a whole number from {low:,} to {high:,}, not {str(value)[:40]!r}")
    return value


class Measure:
    """The panels' state for one studio: its jobs, the last diff of each file, the scratch folder."""

    def __init__(self, studio):
        self.studio = studio
        self.jobs = Jobs()
        self.snapshots = Snapshots()
        self._diffs: dict[str, tuple] = {}   # path -> (graph, base graph, answer): the last diff made

    # ---------------------------------------------------------------- the loaded file
    def loaded(self, data: dict):
        path = data.get("path")
        if not isinstance(path, str) or not path:
            raise BadRequest("say which file: {\"path\": ...}")
        found = self.studio.loaded(path)
        if found is None:
            raise BadRequest(f"{path}: no version of this file has loaded yet (fix its errors first)", 404)
        return found

    def against(self, data: dict, found) -> tuple[str, object]:
        """(path, rule graph) of what the file is compared with: the file chosen (`against`: the
        studio's last version of it that loaded, else the file on disk), else a variant's base."""
        given = data.get("against")
        if given is None or given == "":
            if found.base is None or found.base_graph is None:
                raise BadRequest(f"{found.path} is not a variant: it has no base to compare with "
                                 "(choose a file to compare it with, or make it a variant: its first line "
                                 "says variant NAME \"Title\" of \"base.cards\")", 409)
            return str(found.base), found.base_graph
        from ..errors import CardRulesError
        from .paths import Refused
        try:
            real = str(self.studio.files.confine(given)[0])
        except Refused as e:
            raise BadRequest(e.message, e.status) from None
        if real == str(found.path):
            raise BadRequest("choose another file than this one to compare it with")
        other = self.studio.loaded(real)
        if other is not None:
            return real, other.graph
        from .. import load_ruleset
        try:
            return real, load_ruleset(real)
        except CardRulesError as e:
            raise BadRequest(f"{Path(real).name} does not load, so it cannot be compared: {e.message}", 422) from None

    # ---------------------------------------------------------------- diff
    def diff(self, data: dict) -> dict:
        found = self.loaded(data)
        if found.base is None or found.base_graph is None:
            return {"variant": False, "path": str(found.path)}
        last = self._diffs.get(str(found.path))
        if last is not None and last[0] is found.graph and last[1] is found.base_graph:
            return last[2]
        from ..diff import diff_rulesets, render_diff
        a, b = found.base_graph, found.graph
        d = diff_rulesets(a, b)
        html = render_diff(d, a, b, "html", labels=(str(found.base), str(found.path)), redline=True)
        answer = {"variant": True, "path": str(found.path), "base": str(found.base), "identical": d.identical,
                  "rule_changes": len(d.rule_changes), "prose_changes": len(d.prose_changes), "html": html}
        self._diffs[str(found.path)] = (found.graph, found.base_graph, answer)
        return answer

    # ---------------------------------------------------------------- balance
    def start_balance(self, data: dict) -> dict:
        from ..balance import Config
        from ..engine import counted
        found = self.loaded(data)
        other, b = self.against(data, found)
        games = _whole(data, "games", DEFAULT_GAMES, 1, MAX_GAMES, "the number of games")
        seed = _whole(data, "seed", 0, 0, 2 ** 31 - 1, "the seed")
        a = found.graph
        lo, hi = max(a.players_min, b.players_min), min(a.players_max, b.players_max)
        if lo > hi:
            raise BadRequest(f"this file is for {a.players_min}-{a.players_max} players and {Path(other).name} for "
                             f"{b.players_min}-{b.players_max}: they cannot be compared at one table")
        players = _whole(data, "players", lo, lo, hi, "the number of players")
        bots = data.get("bots", "random")
        bots = [bots] * players if isinstance(bots, str) else bots
        if not isinstance(bots, list) or len(bots) != players or any(x not in BOTS for x in bots):
            raise BadRequest(f"the seats are played by bots: {' or '.join(BOTS)} for each of the {players} seats")
        engine = data.get("engine", "python")
        if engine not in ENGINES:
            raise BadRequest(f"the engine is one of {', '.join(ENGINES)}, not {str(engine)[:40]!r}")
        strong = "auto" if data.get("skill") is True else None  # the strongest player each game allows
        pa, pb = Path(str(found.path)), Path(other)
        label_b = pb.stem if pb.stem != pa.stem else str(pb)
        configs = [Config(label=pa.stem, path=str(pa), rs=a, players=players, bots=tuple(bots)),
                   Config(label=label_b, path=str(pb), rs=b, players=players, bots=tuple(bots))]
        job = self._begin("balance", found)
        job.total = len(configs) * (games + (games if strong else 0))
        # what is played, in order (balance._runs): each side's games, then its skill games
        job.parts = [part for c in configs for part in
                     [{"label": c.label, "games": games, "skill": False}] +
                     ([{"label": c.label, "games": games, "skill": True}] if strong else [])]
        job.message = f"{games} games of each, {counted(players, 'player')} ({', '.join(dict.fromkeys(bots))})"
        return job, (balance_child, configs, games, seed, strong, engine)

    # ---------------------------------------------------------------- fuzz
    def start_fuzz(self, data: dict) -> dict:
        found = self.loaded(data)
        games = _whole(data, "games", DEFAULT_FUZZ_GAMES, 1, MAX_FUZZ_GAMES, "the games per configuration")
        seed = _whole(data, "seed", 0, 0, 2 ** 31 - 1, "the seed")
        chain = self._texts(found)
        job = self._begin("fuzz", found)
        job.message = f"{games} games per configuration"
        job.on_done = lambda result: self._keep_records(result, chain)
        return job, (fuzz_child, str(found.path), found.graph, games, seed)

    def _texts(self, found) -> list[tuple[str, str]]:
        """The texts the loaded version was built from: the file's, then its bases' (the studio's
        loaded version of a base when it has one, else the file on disk)."""
        from ..runner import source_of
        chain = [(str(found.path), found.text)]
        deps, names = getattr(found, "deps", None), getattr(found, "chain", None)
        if deps and names and all(deps.get(n) is not None for n in names[1:]):   # the very texts it was built from
            return chain + [(n, deps[n]) for n in names[1:]]
        base = found.base
        while base is not None and len(chain) < 20:
            other = self.studio.loaded(str(base))
            if other is not None:
                chain.append((str(base), other.text))
                base = other.base
                continue
            try:
                src = source_of(base)
            except Exception:
                break
            chain += [(src.filename, src.text)] + list(src.bases)
            break
        return chain

    def _keep_records(self, result: dict, chain: list) -> dict:
        """Add each finding's records to the mounted table's record files; the replay view's
        address of each (opened at its last move that replays)."""
        web = getattr(self.studio, "web", None)
        if web is None or not any(f.get("records") for f in result["findings"]):
            return result
        folder = self.snapshots.folder()
        ruleset = self.snapshots.write_ruleset(folder, chain)
        for n, f in enumerate(result["findings"], 1):
            for m, r in enumerate(f.pop("records", []) or []):
                path = self.snapshots.write_record(folder, f"finding-{n:02d}-{m}-{f['kind']}.json", r["record"], ruleset)
                web.records.append(path)
                url = f"/replay/file/{len(web.records) - 1}-0?step={r['steps']}"
                f.setdefault("replays", []).append({"label": r["label"], "url": url, "moves": len(r["record"]["moves"]),
                                                    "steps": r["steps"]})
        return result

    # ---------------------------------------------------------------- jobs
    def _begin(self, kind: str, found):
        job = self.jobs.begin(kind, str(found.path))
        if isinstance(job, str):
            raise BadRequest(job, 409)
        return job

    def job(self, data: dict, kind: str):
        path = data.get("path")
        if not isinstance(path, str) or not path:
            raise BadRequest("say which file: {\"path\": ...}")
        return self.jobs.get(kind, path)


def routes(studio) -> list[Route]:
    """The measure panels' routes, for the studio's app to add."""
    m = Measure(studio)

    def endpoint(work, methods=("POST",)):
        async def handle(request: Request):
            try:
                _check_token(request, studio)
                data = await _body(request)
                kind = request.path_params.get("kind")
                if kind is not None and kind not in KINDS:
                    raise BadRequest(f"no such panel: {kind!r}", 404)
                return JSONResponse(await work(data, kind))
            except BadRequest as e:
                return _error(e.message, e.status)
        handle.measure = m   # (the panels' state, for a test or the app to reach)
        return handle

    async def diff(data, _):
        return await anyio.to_thread.run_sync(m.diff, data)

    async def start(data, kind):
        # (in a thread: a file chosen to compare with may have to be read and loaded first)
        job, (target, *args) = await anyio.to_thread.run_sync(m.start_balance if kind == "balance" else m.start_fuzz, data)
        try:
            await anyio.to_thread.run_sync(job.start, target, *args)
        except Exception as e:  # no process could be started (out of resources)
            job._finish("failed", f"the work could not be started: {e}", None)
        return job.status()

    async def status(data, kind):
        job = m.job(data, kind)
        return {"kind": kind, "state": "idle", "done": 0, "total": 0, "message": "", "has_result": False} \
            if job is None else job.status()

    async def stop(data, kind):
        job = m.job(data, kind)
        if job is None:
            return await status(data, kind)
        await anyio.to_thread.run_sync(job.stop)
        return job.status()

    async def result(data, kind):
        job = m.job(data, kind)
        if job is None or job.result is None:
            raise BadRequest(f"no finished {kind} run of this file to show", 404)
        return dict(job.result, status=job.status())

    return [
        Route(f"{PREFIX}/diff", endpoint(diff), methods=["POST"]),
        Route(f"{PREFIX}/{{kind}}/start", endpoint(start), methods=["POST"]),
        Route(f"{PREFIX}/{{kind}}/status", endpoint(status), methods=["GET", "POST"]),
        Route(f"{PREFIX}/{{kind}}/stop", endpoint(stop), methods=["POST"]),
        Route(f"{PREFIX}/{{kind}}/result", endpoint(result), methods=["GET", "POST"]),
    ]
