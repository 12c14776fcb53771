"""What the studio and the table trust: the probes a stranger's web page (or a site rebinding its
name to 127.0.0.1) would try, each of which once worked, and must now fail.

* Cross-site writes: the exact `text/plain` save with a foreign Origin and `force`; the same with
  the token; a form; a save without the token. The file is unchanged after every one of them.
* A foreign Host (DNS rebinding): refused for the studio's reads and the table's pages, unless named
  with --allow-host; addresses written as digits are never rebound.
* The table (`serve`): its forms keep working from its own pages; a form posted from another site is
  refused.
* Reads outside the folders through a variant's base path: an absolute path, `/etc/passwd`, a path
  with `..`, a link leading out. The answer names neither the outside file's content nor whether it
  exists (the same message for a file that is there and one that is not), and no rulebook, Diff,
  Balance, Fuzz, table or definition (F12) is made from it. A bundled base and a base beside the
  variant still load."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

try:
    from starlette.testclient import TestClient
except ImportError:  # pragma: no cover
    pytest.skip("starlette is not installed", allow_module_level=True)

from interpreter.studio.app import make_app
from interpreter.web.app import create_app
from interpreter.web.guard import Hosts
from interpreter.web.limits import Limits

from small_games import MINI

SECRET_WORD = "zebracorn"  # what the outside file holds, which no answer may show
SECRET = MINI.replace('game mini "Mini"', f'game {SECRET_WORD} "The {SECRET_WORD} rules"').replace(
    '"Discard"', f'"Discard {SECRET_WORD}"')


def studio(tmp_path: Path, hosts: Hosts | None = None) -> TestClient:
    work = tmp_path / "work"
    work.mkdir(parents=True, exist_ok=True)
    (work / "mini.cards").write_text(MINI, encoding="utf-8")
    app = make_app([], work, data=tmp_path / "data", bot_pause=0.0, limits=Limits(bot_workers=0), hosts=hosts)
    c = TestClient(app, base_url="http://127.0.0.1:8000")
    c.work, c.token = work, app.state.token
    return c


def save_body(path: str, text: str = "# overwritten") -> str:
    import json
    return json.dumps({"path": path, "text": text, "sha256": "", "force": True})


# ------------------------------------------------------------------ cross-site writes


def test_the_cross_site_save_of_the_issue_is_refused_and_the_file_is_unchanged(tmp_path):
    with studio(tmp_path) as c:
        target = c.work / "mini.cards"
        probes = [
            # the issue's curl: text/plain, a foreign Origin, no token, force
            ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, save_body("mini.cards")),
            # the same with the token (a page cannot know it, but the Origin alone must refuse it)
            ({"Content-Type": "text/plain", "Origin": "http://evil.example", "X-Studio-Token": c.token},
             save_body("mini.cards")),
            ({"Content-Type": "application/json", "Origin": "http://evil.example", "X-Studio-Token": c.token},
             save_body("mini.cards")),
            # another port of this computer is another site too
            ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:9999", "X-Studio-Token": c.token},
             save_body("mini.cards")),
            ({"Content-Type": "application/json", "Origin": "null", "X-Studio-Token": c.token}, save_body("mini.cards")),
            ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", "X-Studio-Token": c.token},
             save_body("mini.cards")),
            # a text/plain body, or a form, with the token and no Origin: still not JSON
            ({"Content-Type": "text/plain", "X-Studio-Token": c.token}, save_body("mini.cards")),
            ({"Content-Type": "application/x-www-form-urlencoded", "X-Studio-Token": c.token}, "path=mini.cards&text=x"),
            # JSON from this studio's own origin, but no token
            ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:8000"}, save_body("mini.cards")),
        ]
        for headers, body in probes:
            r = c.post("/studio/api/save", content=body, headers=headers)
            assert r.status_code in (403, 415), (headers, r.status_code, r.text)
            assert "error" in r.json()
            assert target.read_text(encoding="utf-8") == MINI, headers
        # the studio's own page: JSON, its token, its own origin: saved
        r = c.post("/studio/api/save", content=save_body("mini.cards", MINI + "# mine\n"),
                   headers={"Content-Type": "application/json", "Origin": "http://127.0.0.1:8000",
                            "X-Studio-Token": c.token, "Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 200, r.text
        assert target.read_text(encoding="utf-8").endswith("# mine\n")


def test_every_state_changing_route_of_the_studio_refuses_another_origin(tmp_path):
    with studio(tmp_path) as c:
        from starlette.routing import Route
        posts = sorted({r.path for r in c.app.router.routes if isinstance(r, Route) and "POST" in (r.methods or ())
                        and r.path.startswith("/studio/api/")})
        assert {"/studio/api/save", "/studio/api/new", "/studio/api/play"} <= set(posts), posts
        for path in posts:
            r = c.post(path, json={"path": "mini.cards"}, headers={"Origin": "http://evil.example",
                                                                   "X-Studio-Token": c.token})
            assert r.status_code == 403, (path, r.status_code)
            r = c.post(path, content=b"{}", headers={"Content-Type": "text/plain", "X-Studio-Token": c.token})
            assert r.status_code == 415, (path, r.status_code)


def test_a_missing_or_wrong_token_is_refused_on_every_studio_request(tmp_path):
    with studio(tmp_path) as c:
        for url in ("/studio", "/studio/", "/studio/api/files", "/studio/static/studio.js",
                    "/studio/api/rulebook?path=mini.cards"):
            assert c.get(url).status_code == 403, url
            assert c.get(url, headers={"X-Studio-Token": c.token + "x"}).status_code == 403, url
        assert c.get(f"/studio?token={c.token}").status_code == 200
        assert c.get("/studio/api/files", headers={"X-Studio-Token": c.token}).status_code == 200
        assert "Set-Cookie" not in c.get(f"/studio?token={c.token}").headers  # never in a cookie


# ------------------------------------------------------------------ foreign Host (DNS rebinding)


def test_a_foreign_host_is_refused_for_every_read(tmp_path):
    with studio(tmp_path) as c:
        ok = {"X-Studio-Token": c.token}
        for host in ("evil.example:8000", "evil.example", "127.0.0.1.evil.example:8000", "localhost.evil.example"):
            for url in (f"/studio?token={c.token}", "/studio/api/files", "/", "/new"):
                r = c.get(url, headers={**ok, "Host": host})
                assert r.status_code == 403, (host, url, r.status_code)
                assert "--allow-host" in r.text
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000", "127.0.0.2:8000"):
            assert c.get("/studio/api/files", headers={**ok, "Host": host}).status_code == 200, host


def test_allow_host_names_a_proxy_and_star_allows_any(tmp_path):
    with studio(tmp_path / "a", Hosts("127.0.0.1", ["cards.example.org"])) as c:
        ok = {"X-Studio-Token": c.token}
        assert c.get("/studio/api/files", headers={**ok, "Host": "cards.example.org"}).status_code == 200
        assert c.get("/studio/api/files", headers={**ok, "Host": "evil.example"}).status_code == 403
        # a proxy that passes on a Host of its own: the Origin of the name it was given is its own
        r = c.post("/studio/api/presence", json={"path": "mini.cards", "page": "p1"},
                   headers={**ok, "Origin": "https://cards.example.org"})
        assert r.status_code == 200, r.text
    with studio(tmp_path / "b", Hosts("127.0.0.1", ["*"])) as c:
        assert c.get("/studio/api/files", headers={"X-Studio-Token": c.token, "Host": "any.example"}).status_code == 200


def test_hosts_on_every_network_answer_to_addresses_and_this_computers_name():
    import socket
    h = Hosts("0.0.0.0")
    assert h.allows("192.168.1.20:8000") and h.allows("[fe80::1]:8000") and h.allows(socket.gethostname())
    assert not h.allows("evil.example:8000") and not h.allows("")
    h = Hosts("192.168.1.20")
    assert h.allows("192.168.1.20:8000") and h.allows("localhost") and not h.allows("192.168.1.21")


# ------------------------------------------------------------------ the table (serve)


def test_the_tables_forms_work_from_its_pages_and_are_refused_from_another_site(tmp_path):
    app = create_app(tmp_path, bot_pause=0, events_lifetime=0)
    form = {"ruleset": "ganjifa/ganjifa", "players": "3", "seat1": "person", "seat2": "random", "seat3": "random",
            "seed": "1"}
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                        {"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://127.0.0.1:8001"}):
            r = c.post("/new", data=form, headers=headers, follow_redirects=False)
            assert r.status_code == 403, headers
        assert not list((tmp_path / "tables").glob("*.json"))
        assert c.get("/", headers={"Host": "evil.example:8000"}).status_code == 403
        r = c.post("/new", data=form, headers={"Origin": "http://127.0.0.1:8000"}, follow_redirects=False)
        assert r.status_code == 303, r.text
        assert c.get(r.headers["location"]).status_code == 200


# ------------------------------------------------------------------ reads outside the folders


def analyse(c, path: Path) -> dict:
    return c.post("/studio/api/analyse", json={"path": str(path), "text": path.read_text(encoding="utf-8")},
                  headers={"X-Studio-Token": c.token}).json()


def variant_of(ref: str) -> str:
    return f'variant peek "Peek" of "{ref}"\n\ntext "Shows the base."\n'


def test_a_base_outside_the_folders_is_refused_and_says_nothing_of_the_file(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.cards").write_text(SECRET, encoding="utf-8")
    with studio(tmp_path) as c:
        (c.work / "inside").mkdir()
        os.symlink(outside / "secret.cards", c.work / "inside" / "link.cards")
        refs = {"absolute": str(outside / "secret.cards"), "missing": str(outside / "nothing-here.cards"),
                "dotdot": "../../elsewhere/secret.cards", "dotdot-missing": "../../elsewhere/nothing.cards",
                "passwd": "/etc/passwd", "folder": str(outside), "link": "inside/link.cards"}
        messages = {}
        for name, ref in refs.items():
            v = c.work / f"peek-{name}.cards"
            v.write_text(variant_of(ref), encoding="utf-8")
            got = analyse(c, v)
            assert not got["ok"], name
            msg = got["error"]["message"]
            assert SECRET_WORD not in str(got) and "/etc/passwd" not in msg.replace(repr(ref), ""), (name, str(got))
            assert "not one this studio may open" in msg and "looked for" not in msg, msg
            assert got["diagnostics"][0]["line"] == 0, got  # at the variant's header
            messages[name] = msg.replace(repr(ref), "REF")
            # nothing is made from it
            h = {"X-Studio-Token": c.token}
            assert c.get("/studio/api/rulebook", params={"path": str(v)}, headers=h).status_code == 404
            r = c.post("/studio/api/play", json={"path": str(v), "players": 2, "seats": ["random", "random"]}, headers=h)
            assert r.status_code == 409 and SECRET_WORD not in r.text
            for route in ("diff", "balance", "fuzz"):
                url = "/studio/api/measure/diff" if route == "diff" else f"/studio/api/measure/{route}/start"
                r = c.post(url, json={"path": str(v), "games": 2}, headers=h)
                assert r.status_code >= 400 and SECRET_WORD not in r.text, (route, r.status_code, r.text)
            # F12 on the variant's own header gives no place outside
            d = c.post("/studio/api/definition", json={"path": str(v), "line": 0, "col": 28}, headers=h).json()
            assert d is None or SECRET_WORD not in str(d)
        assert len(set(messages.values())) == 1, messages  # a file there and one not: the same words


def test_a_base_beside_the_variant_and_a_bundled_base_still_load(tmp_path):
    with studio(tmp_path) as c:
        for ref in ("mini.cards", "bundled:ganjifa"):
            v = c.work / "v.cards"
            v.write_text(variant_of(ref), encoding="utf-8")
            got = analyse(c, v)
            assert got["ok"], (ref, got)
            assert c.get("/studio/api/rulebook", params={"path": str(v)},
                         headers={"X-Studio-Token": c.token}).status_code == 200
