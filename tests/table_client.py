"""Driving the browser table (`cardrules serve`) through its HTTP routes with Starlette's test
client, as the tests of the table, of a bot's seat and of the engine flag do: a table opened
through the form, a seat's API answer, a move sent, the bots waited for."""

from __future__ import annotations

import re
import time
from pathlib import Path

from interpreter.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
GANJIFA = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"


def make_app(data: Path, **kw):
    return create_app(data, given=[(GANJIFA, None)], bot_pause=0, events_lifetime=0, **kw)  # events: the first only


def new_table_form(key: str, seats: list[str], seed: int = 1, **options) -> dict[str, str]:
    """The new-table form's fields as the page sends them: each seat "person", "random", or a bot
    with its iterations ("ismcts:200"), each option as opt_NAME."""
    form = {"ruleset": key, "players": str(len(seats)), "seed": str(seed)}
    for i, s in enumerate(seats, 1):
        kind, _, n = s.partition(":")
        form[f"seat{i}"] = kind
        if n:
            form[f"seat{i}_iterations"] = n
    form.update({f"opt_{k}": str(v) for k, v in options.items()})
    return form


def open_table(client, key: str, seats: list[str], seed: int = 1, **options) -> tuple[str, str, dict[int, str]]:
    """Open a table through the form; (table id, hot-seat token, {seat index: token})."""
    form = new_table_form(key, seats, seed, **options)
    r = client.post("/new", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    links = client.get(r.headers["location"])
    assert links.status_code == 200
    tid, hot = re.search(r"/t/(\w+)/links\?token=([\w-]+)", r.headers["location"]).groups()
    tokens = {int(n) - 1: tok for n, tok in re.findall(rf'href="/t/{tid}/seat/(\d+)\?token=([\w-]+)"', links.text)}
    return tid, hot, tokens


def api(client, tid: str, seat: int, token: str) -> dict:
    r = client.get(f"/api/t/{tid}/seat/{seat + 1}?token={token}")
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(client, tid: str, seat: int, token: str, timeout: float = 60) -> dict:
    """The seat's API answer once it has a move to make or the game is over (bots move in the
    background, in worker processes that load the game first: on a loaded machine that can take
    seconds, so the bound is generous; a test that passes returns as soon as the seat may move)."""
    end = time.monotonic() + timeout
    while True:
        a = api(client, tid, seat, token)
        if a["moves"] or a["outcome"] or a["error"]:
            return a
        assert time.monotonic() < end, f"the bots did not move within {timeout} s: {a}"
        time.sleep(0.005)


def next_person(table, timeout: float = 60) -> int | None:
    """The first person to move once the bots have moved (None when the game is over)."""
    end = time.monotonic() + timeout
    while not table.state.finished and (table.bot_to_move() is not None or not table.persons_to_move()):
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.005)
    return table.persons_to_move()[0] if not table.state.finished else None


def post_move(client, tid: str, seat: int, token: str, move: str, version: int | None, **kw):
    body = {"move": move} if version is None else {"move": move, "version": version}
    return client.post(f"/api/t/{tid}/seat/{seat + 1}/move?token={token}", json=body, **kw)


def table_of(app, tid: str):
    return app.state.web.tables.get(tid)
