"""The hostile-input suite's tools (tests/web/test_web_hostile.py): a real `cardrules serve` in a
subprocess and requests sent to it exactly as written, what every answer must be, and the
hypothesis strategies that hostile requests are made of: paths from the routes' templates with
generated segments, queries, tokens, headers and bodies."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, currently_in_test_context, event, strategies as st

from table_client import new_table_form

ROOT = Path(__file__).resolve().parent.parent
KEY = "ganjifa/ganjifa"
ANSWER_SECONDS = 1.0    # every answer, headers and page, within this
WAIT = 10.0             # a socket's timeout: past it the server is hanging, and the test says so
START_SECONDS = 180.0   # the server's start, and the first pages (every ruleset is loaded once)
STOP_SECONDS = 10.0
RECORD_FORMAT = "cardrules-record/1"

HYPOTHESIS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                        HealthCheck.data_too_large, HealthCheck.large_base_example])


# ------------------------------------------------------------------ the defects found

@dataclass(frozen=True)
class Defect:
    """A defect of the server, known by the traceback it leaves in the log: the exception's
    type and the deepest frame in the project's code ('file.py:function')."""

    exception: str
    where: str
    what: str


KNOWN_DEFECTS: tuple = ()  # none at present: a defect found goes here, with its test marked xfail(strict=True)

_FRAME = re.compile(r'^\s*File "([^"]+)", line \d+, in (\S+)')
_RAISED = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def tracebacks(log: str) -> list[tuple[str, str, str]]:
    """(exception type, deepest project frame 'file.py:function', the block) for each traceback
    in a log; the type is '?' when the block is cut short."""
    found = []
    for block in log.split("Traceback (most recent call last):")[1:]:
        where, raised = "?", "?"
        for line in block.splitlines()[1:]:
            m = _FRAME.match(line)
            if m:
                path, func = m.groups()
                if "/interpreter/" in path and "site-packages" not in path:
                    where = f"{Path(path).name}:{func}"
                continue
            if line and not line[0].isspace():
                m = _RAISED.match(line)
                if m:
                    raised = m.group(1).rsplit(".", 1)[-1]
                break
        found.append((raised, where, block[:3000]))
    return found


def known(raised: str, where: str) -> Defect | None:
    return next((d for d in KNOWN_DEFECTS if d.exception == raised and d.where == where), None)


# ------------------------------------------------------------------ the server

@dataclass
class Answer:
    status: int
    headers: dict
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class NoAnswer(AssertionError):
    pass


class Server:
    """`cardrules serve` in a child process of its own session; its stdout and stderr in files."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.data = folder / "data"
        self.out, self.err = folder / "server.out", folder / "server.err"
        cmd = [sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data", str(self.data), "--bot-pause", "0",
               # room for every table the generated forms open: a full server's 503 is by design, not tested here
               "--max-tables", "100000", "--max-bot-tables", "100000"]
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                         start_new_session=True)
        self.port = self._port()
        self.table = self.hot = self.token = ""

    def _port(self) -> int:
        end = time.monotonic() + START_SECONDS
        while time.monotonic() < end:
            m = re.search(r"http://localhost:(\d+)/", self.out.read_text(errors="replace"))
            if m:
                return int(m.group(1))
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not say its port: {self.out.read_text()}\n{self.log()}")

    def stop(self) -> int | None:
        """SIGTERM, a bounded wait, then SIGKILL to the whole group. The exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                pass
        return self.proc.poll()

    def log(self, start: int = 0) -> str:
        with open(self.err, "rb") as f:
            f.seek(start)
            return f.read().decode("utf-8", "replace")

    def log_size(self) -> int:
        return self.err.stat().st_size

    def fill(self, text: str) -> str:
        """The placeholders of the generated requests, as this server's table has them."""
        if "{" not in text:
            return text
        return (text.replace("{table}", self.table).replace("{hot}", self.hot).replace("{token}", self.token)
                .replace("{token_cut}", self.token[:-1]).replace("{TOKEN}", self.token.swapcase())
                .replace("{TABLE}", self.table.upper()))

    def send(self, method: str, target: str, headers=(), body: bytes | None = None, wait: float = WAIT) -> Answer:
        """One request on a connection of its own; a live-updates answer is taken at its headers."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=wait)
        try:
            start = time.monotonic()
            try:
                conn.putrequest(method, target, skip_accept_encoding=True)
                for name, value in headers:
                    conn.putheader(name, value)
                if body is not None:
                    conn.putheader("Content-Length", str(len(body)))
                try:
                    conn.endheaders(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server answered before the whole body went: its answer is read below
                resp = conn.getresponse()
                streaming = (resp.getheader("content-type") or "").startswith("text/event-stream")
                data = b"" if streaming else resp.read()
            except (OSError, http.client.HTTPException) as e:
                raise NoAnswer(f"no answer to {method} {target[:300]!r} after {time.monotonic() - start:.2f} s: "
                               f"{type(e).__name__}: {e}") from None
            return Answer(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data, time.monotonic() - start)
        finally:
            conn.close()

    def get(self, target: str, **kw) -> Answer:
        return self.send("GET", target, **kw)

    def post_form(self, target: str, fields, **kw) -> Answer:
        return self.send("POST", target, [("Content-Type", "application/x-www-form-urlencoded")],
                         urlencode(fields).encode(), **kw)

    def post_json(self, target: str, obj, **kw) -> Answer:
        return self.send("POST", target, [("Content-Type", "application/json")], json.dumps(obj).encode(), **kw)

    def open_table(self, seats: list[str], seed: int = 1, wait: float = WAIT) -> tuple[str, str, dict[int, str]]:
        """A table opened through the form: (id, hot-seat token, {seat number from 1: token})."""
        r = self.post_form("/new", new_table_form(KEY, seats, seed), wait=wait)
        assert r.status == 303, (r.status, r.text)
        tid, hot = re.search(r"/t/(\w+)/links\?token=([\w-]+)", r.headers["location"]).groups()
        links = self.get(r.headers["location"], wait=wait)
        assert links.status == 200, links.text
        tokens = {int(n): t for n, t in re.findall(rf'href="/t/{tid}/seat/(\d+)\?token=([\w-]+)"', links.text)}
        return tid, hot, tokens

    def api(self, tid: str, seat: int, token: str) -> dict:
        r = self.get(f"/api/t/{tid}/seat/{seat}?token={token}")
        assert r.status == 200, (r.status, r.text)
        return json.loads(r.body)

    def record(self, tid: str) -> dict:
        """The game record in the table's file (written before anyone is told of a move)."""
        return json.loads((self.data / "tables" / f"{tid}.json").read_text())["record"]



# ------------------------------------------------------------------ what every answer must be

LEAKS = (b"Traceback", b"def create_app", b"{% block", b"{% extends")


def check(server: Server, method: str, target: str, answer: Answer, log_from: int, body: bytes | None = None,
          timed: bool = True) -> None:
    """A 2xx, 3xx or 4xx within ANSWER_SECONDS, no traceback or source in it; a 5xx only as a
    known defect, shown as such by the server's log."""
    what = f"{method} {target[:500]!r} body={body[:500] if body else body!r}"
    assert not timed or answer.seconds < ANSWER_SECONDS, f"{what}: answered in {answer.seconds:.2f} s ({answer.status})"
    for leak in LEAKS:
        assert leak not in answer.body, f"{what}: {answer.status} with {leak!r} in it:\n{answer.text[:3000]}"
    if answer.status < 500:
        assert 200 <= answer.status, f"{what}: {answer.status}"
        return
    end = time.monotonic() + 2
    while True:  # the server logs the error before it answers; the file may lag a little
        found = [t for t in tracebacks(server.log(log_from)) if t[0] != "?"]
        if found or time.monotonic() > end:
            break
        time.sleep(0.05)
    unknown = [t for t in found if known(t[0], t[1]) is None]
    assert found and not unknown, (f"{what}: {answer.status}\n{answer.text[:2000]}\nthe server's log:\n"
                                   + "\n".join(t[2] for t in (unknown or found)))
    for raised, where, _ in found:
        if currently_in_test_context():
            event(f"known defect: {raised} in {where}")


def malformed(headers) -> bool:
    """Whether a header value is not HTTP at all (h11 refuses NUL, vertical tab and form feed in
    one): uvicorn answers 400 and closes at once, so a client still sending its body may see
    the connection reset before it reads that answer. That is the HTTP server's doing, not the app's."""
    return any(any(c in (v.encode("latin-1") if isinstance(v, str) else v) for c in b"\x00\x0b\x0c")
               for _, v in headers)


def send_checked(server: Server, method: str, target: str, headers=(), body: bytes | None = None) -> Answer | None:
    log_from = server.log_size()
    target = server.fill(target)
    try:
        answer = server.send(method, target, headers, body)
    except NoAnswer:
        if not malformed(headers):
            raise
        if currently_in_test_context():
            event("a malformed request: the connection closed")
        return None
    if malformed(headers):
        assert answer.status == 400, (target, headers, answer.status)
    if answer.seconds >= ANSWER_SECONDS and not malformed(headers):
        # asked once more: an answer slow by its work is slow again; one slowed by a loaded
        # machine (the suite's other worker, a compiler) is not. The slow answer is checked too.
        check(server, method, target, answer, log_from, body, timed=False)
        log_from = server.log_size()
        again = server.send(method, target, headers, body)
        assert again.seconds < ANSWER_SECONDS, \
            f"{method} {target[:500]!r}: answered in {answer.seconds:.2f} s, then in {again.seconds:.2f} s"
        answer = again
    check(server, method, target, answer, log_from, body)
    if currently_in_test_context():
        event(f"answered {answer.status}")
    return answer


# ------------------------------------------------------------------ what hostile requests are made of
# Placeholders ({table}, {hot}, {token}, ...) are replaced by the server's real ones when sent.

class Long(str):
    """A long text, shown by its length and start in hypothesis's reports."""

    def __repr__(self) -> str:
        return f"Long({str.__repr__(self[:20])}..., {len(self):,} chars)"


class LongBytes(bytes):
    def __repr__(self) -> str:
        return f"LongBytes({bytes.__repr__(self[:20])}..., {len(self):,} bytes)"


def _q(text: str) -> str:
    return quote(text, safe="")


HOSTILE_SEGMENTS = ["..", ".", "%2e%2e", "%2E%2E%2F", "%00", "a%00b", "%", "%ZZ", "%C0%AF", "%FF%FE", "%E2%80%AE",
                    "-1", "0", "99999999999999999999", "1" + "0" * 30, "%C2%B2", "%D9%A3", "~", "*", ";", "a;b=c",
                    "CON", "NUL", "%0D%0Aa:b", "%3Cscript%3E", Long("x" * 5000), "%25", "%2F", "%5C..%5C"]
SEGMENT = st.one_of(
    st.sampled_from(HOSTILE_SEGMENTS),
    st.text(max_size=30).map(_q),
    st.text(max_size=30).map(lambda s: quote(s, safe="/")),
    st.binary(max_size=20).map(lambda b: quote(b, safe="")),  # invalid UTF-8 too
    st.integers(min_value=-10 ** 30, max_value=10 ** 30).map(str),
    # long, but not so long that a redirect echoing it has a header line over http.client's 64 KB
    st.integers(min_value=300, max_value=25_000).map(lambda n: Long("a" * n)),
)


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, chosen by weight (st.one_of flattens nested choices into equal ones)."""
    indices = [i for i, (weight, _) in enumerate(choices) for _ in range(weight)]
    return st.sampled_from(indices).flatmap(lambda i: choices[i][1])


def slot(right: list[str], near: list[str]) -> st.SearchStrategy[str]:
    """Most often the right value, else one nearly right, else any segment."""
    return weighted((6, st.sampled_from(right)), (2, st.sampled_from(near)), (2, SEGMENT))


SLOTS = {
    "t": slot(["{table}"], ["nosuch", "{table}x", "{table}/", "%7Btable%7D", "0000000000", "{TABLE}"]),
    "n": slot(["1", "1", "2", "3"], ["4", "0", "-1", "+1", "01", "1.0", "%201", "%D9%A1", "%C2%B9",
                                     "99999999999999999999", "x"]),
    # only the warmed ruleset: another's first rulebook is slow by design
    "k": slot([KEY], ["ganjifa", "ganjifa/", "/ganjifa/ganjifa", "ganjifa/../ganjifa/ganjifa", "file/ganjifa",
                      "%2e%2e/%2e%2e/etc/passwd", "ganjifa%2Fganjifa", "GANJIFA/GANJIFA"]),
    "s": slot(["table", "file", "u"], ["U", "table/", "%74able"]),
    "name": slot(["{table}", "0", "0-0"], ["1-2", "-", "x-y", "0-%C2%B2", "%C2%B2", "{table}-1"]),
    "f": slot(["table.css", "table.js"], ["..", "../app.py", "%2e%2e/app.py", "..%2fapp.py", "%2e%2e%2fapp.py",
                                          "../templates/base.html.j2", "%2e%2e/templates/base.html.j2", "", "/",
                                          "table.css/", "TABLE.CSS", "table.css%00", "."]),
}

# (path, its slots, the method it answers, what its query names); the last few are no route at all
ROUTES = [
    ("/", (), "GET", ()), ("/new", (), "GET", ("ruleset",)), ("/new", (), "POST", ()),
    ("/replay", (), "GET", ()), ("/replay", (), "POST", ()),
    ("/t/{t}/links", ("t",), "GET", ("hot",)),
    ("/t/{t}/seat/{n}", ("t", "n"), "GET", ("token",)), ("/t/{t}/seat/{n}/view", ("t", "n"), "GET", ("token",)),
    ("/t/{t}/seat/{n}/events", ("t", "n"), "GET", ("token",)),
    ("/t/{t}/seat/{n}/move", ("t", "n"), "POST", ("token", "hot=1")),
    ("/t/{t}/hotseat", ("t",), "GET", ("hot", "seat")), ("/t/{t}/hotseat/view", ("t",), "GET", ("hot", "seat")),
    ("/t/{t}/hotseat/events", ("t",), "GET", ("hot",)),
    ("/api/t/{t}/seat/{n}", ("t", "n"), "GET", ("token",)),
    ("/api/t/{t}/seat/{n}/move", ("t", "n"), "POST", ("token",)),
    ("/r/{k}/rulebook", ("k",), "GET", ("embed",)),
    ("/replay/{s}/{name}", ("s", "name"), "GET", ("step", "seat")),
    ("/static/{f}", ("f",), "GET", ()),
    ("/{t}", ("t",), "GET", ()), ("/api", (), "GET", ()), ("/t", (), "GET", ()), ("/r", (), "GET", ()),
]
# the right value of each query name a route takes
RIGHT_QUERY = {"ruleset": [KEY], "hot": ["{hot}"], "token": ["{token}", "{hot}"], "hot=1": ["1"],
               "seat": ["1", "2", "3"], "embed": ["1"], "step": ["0", "1", "2", "3"]}

METHODS = st.sampled_from(["GET", "GET", "GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS",
                           "PATCH", "TRACE", "FOO", "get"])

TOKENS = ["{token}", "{token}", "{hot}", "{hot}", "", "{token}x", "{token_cut}", "{TOKEN}", "{token}%00",
          "%7Btoken%7D", Long("x" * 10_000), "%FF", "%", "%ZZ", "%C3%A9t%C3%A9", "{hot}{token}", "null", "undefined"]
NUMBERS = ["-5", "0", "1", "2", "3", "4", "1" + "0" * 30, "x", "", "1.5", "1e3", "%D9%A3", "%C2%B2", Long("9" * 5000),
           "+1", "%201%20", "0x10", "1_0", "NaN", "-0"]
QUERY_NAMES = st.one_of(st.sampled_from(["token", "token", "token", "seat", "step", "hot", "embed", "ruleset"]),
                        st.text(max_size=10).map(_q))
QUERY_VALUES = st.one_of(st.sampled_from(TOKENS + NUMBERS + [KEY, "nosuch", "ganjifa", "..%2F..%2Fetc"]),
                         st.text(max_size=30).map(_q), st.binary(max_size=10).map(lambda b: quote(b, safe="")))
QUERY = st.one_of(
    st.none(),
    st.lists(st.tuples(QUERY_NAMES, QUERY_VALUES), max_size=4).map(lambda ps: "&".join(f"{k}={v}" for k, v in ps)),
    st.sampled_from(["", "&&&", "=", "token", "token&token=", "token=%", "token={token}&token=x", "a=b=c",
                     "token={token}#x", "?token={token}", Long("token=" + "%41" * 8_000)]),
)

FRAMING = {"content-length", "transfer-encoding", "host"}  # lying framing only through the raw socket tests
HEADER_NAMES = st.one_of(
    st.sampled_from(["Content-Type", "Content-Type", "Accept", "X-Cardrules-Fragment", "Cookie", "Referer", "Origin",
                     "User-Agent", "Range", "If-None-Match", "If-Modified-Since", "If-Range", "Accept-Encoding",
                     "Accept-Language", "Expect", "X-Forwarded-For", "Forwarded", "Authorization", "Upgrade",
                     "Connection", "Cache-Control", "Last-Event-ID"]),
    st.from_regex(r"\A[A-Za-z0-9!#$%&'*+.^_`|~-]{1,30}\Z").filter(lambda n: n.lower() not in FRAMING),
)
CONTENT_TYPES = ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=latin-1",
                 "application/json", "application/json; charset=utf-16", "application/jsonx", "multipart/form-data",
                 "multipart/form-data; boundary=xyz", "text/plain", "garbage", "", ";;;", "*/*",
                 Long("application/x-www-form-urlencoded" + "; a=b" * 500)]
HEADER_VALUES = st.one_of(
    st.sampled_from(CONTENT_TYPES + [
        "application/json", "text/event-stream", "1", "0", "bytes=0-10", "bytes=99999999999-", "bytes=-5",
        "bytes=5-1", "bytes=x", "bytes=" + ",".join(f"{i}-{i}" for i in range(300)), "Mon, 99 Foo 9999",
        "100-continue", "websocket", "upgrade", "close", "keep-alive", "gzip, br, zstd", Long("x" * 8000),
        "\u00e9t\u00e9"]),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"), max_size=60),
    st.binary(max_size=40).filter(lambda b: b"\r" not in b and b"\n" not in b),
)
HEADERS = st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=4)

FIELDS = st.one_of(
    st.sampled_from(["ruleset", "players", "seed", "seat1", "seat2", "seat3", "seat4", "seat0", "seat99999",
                     "seat1_iterations", "seat2_iterations", "opt_time", "opt_face_up_batches", "opt_nosuch", "move",
                     "version", "record", "name", "token"]),
    st.text(max_size=20),
)
VALUES = ["{token}", "{hot}", "{table}", "", " ", "-5", "0", "1", "3", "4", "1" + "0" * 30, "x", "%00", "\x00",
          "99999999", "1e400", "Infinity", "NaN", "\u00b2", "\u0663", Long("9" * 5000), Long("x" * 10_000), "person",
          "random", "greedy", "ismcts", "ismcts:1", "ismcts:--5", "plan:1", "plan:\u00b2", "ismcts:20001", "give 1-Kalki",
          "pass", KEY, "night", "true", "<script>alert(1)</script>", "\ud7ff\ue000", "\u202e", "{}", "[]", "null"]
VALUE = st.one_of(st.sampled_from(VALUES), st.text(max_size=40), st.integers().map(str))
JSON_ANY = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10 ** 30, max_value=10 ** 30) | st.floats()
    | st.text(max_size=20) | st.sampled_from(VALUES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(FIELDS, inner, max_size=5),
    max_leaves=12,
)
BODIES = st.one_of(
    st.none(),
    st.lists(st.tuples(FIELDS, VALUE), max_size=8).map(lambda ps: ("form", ps)),
    st.dictionaries(FIELDS, JSON_ANY, max_size=8).map(lambda d: ("json", d)),
    JSON_ANY.map(lambda o: ("json", o)),
    st.binary(max_size=300).map(lambda b: ("raw", b)),
    st.text(max_size=200).map(lambda s: ("text", s)),
    st.sampled_from([b"\xff\xfe\xfd", b"a=%FF%FE", b"move=%C3%28", b"{\"move\": \"\xff\"}", b"&&&===&&",
                     LongBytes(b"a" * 70_000), LongBytes(b"record=" + b"x" * 200_000),
                     b"--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--xyz--",
                     LongBytes(b"[" * 5000 + b"]" * 5000), LongBytes(b"[" * 60_000), LongBytes(b'{"move":' * 5000)]
                    ).map(lambda b: ("raw", b)),
)


def encode(server: Server, body) -> bytes | None:
    if body is None:
        return None
    kind, value = body
    if kind == "form":
        return urlencode([(server.fill(k), server.fill(v)) for k, v in value]).encode()
    if kind == "json":
        return server.fill(json.dumps(value)).encode()
    if kind == "text":
        return server.fill(value).encode()
    return value


FORM_BODIES = st.one_of(  # what a route that reads a form is sent, more often than not
    st.lists(st.tuples(FIELDS, VALUE), max_size=8).map(lambda ps: ("form", ps)),
    st.dictionaries(FIELDS, JSON_ANY, max_size=8).map(lambda d: ("json", d)),
)


@st.composite
def right_query(draw, names: tuple) -> str:
    """The query a route takes, each value right or not, in any order, with something more at times."""
    pairs = []
    for name in names:
        key, _, fixed = name.partition("=")
        if fixed or draw(st.integers(0, 5)):
            right = RIGHT_QUERY[name] if name in RIGHT_QUERY else [fixed]
            pairs.append((key if key != "hot" or fixed else "token",
                          draw(weighted((4, st.sampled_from(right)), (1, QUERY_VALUES)))))
    if draw(st.integers(0, 3)) == 0:
        pairs += draw(st.lists(st.tuples(QUERY_NAMES, QUERY_VALUES), max_size=2))
    return "&".join(f"{k}={v}" for k, v in draw(st.permutations(pairs)))


@st.composite
def requests(draw):
    template, slots, method, names = draw(st.sampled_from(ROUTES))
    path = template.format(**{s: draw(SLOTS[s]) for s in slots})
    path += draw(weighted((8, st.just("")), (2, st.sampled_from(
        ["/", "//", "/..", "/.", "%2F", ";x", "#frag", "/%00", "/x"]))))
    query = draw(weighted((7, right_query(names)), (3, QUERY)))
    target = path if query is None else f"{path}?{query}"
    method = draw(weighted((7, st.just(method)), (3, METHODS)))
    headers = draw(HEADERS)
    if method == "POST" and draw(st.booleans()):
        headers.insert(0, ("Content-Type", draw(st.sampled_from(["application/x-www-form-urlencoded",
                                                                 "application/json"]))))
        body = draw(FORM_BODIES)
    else:
        body = draw(BODIES)
    return method, target, headers, body
