"""The studio's API (`cardrules studio`), through Starlette's test client: the same diagnostics as
the language server at the same places, hover, the rulebook of the last version that loaded
(stale when the text does not load), saves that are atomic and refused on a change on disk,
paths confined to the folders given, the token, a new variant, two pages on one file, and
"Play it now", whose table keeps the rules it started with whatever is edited afterwards."""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.lsp.analysis import Workspace
from interpreter.studio.workspace import diag_json
from interpreter.web.limits import Limits
from small_games import MINI
from studio_api import GANJIFA, mini, studio


# ------------------------------------------------------------------ the one analysis


def test_analyse_gives_the_language_servers_diagnostics_at_the_same_place(client):
    path = mini(client)
    broken = MINI.replace("count(hand(p))", "count(hond(p))")
    r = client.post("/studio/api/analyse", json={"path": path, "text": broken}).json()
    lsp = Workspace().analyse(path, broken)
    assert r["diagnostics"] == [diag_json(d) for d in lsp.diagnostics]
    (d,) = r["diagnostics"]
    assert (d["line"], d["severity"]) == (9, "error") and "hond" in d["message"]
    assert r["ok"] is False and r["rulebook_version"] is None and r["error"]["line"] == 10
    syntax = MINI.replace("phase play", "phase play(")
    r = client.post("/studio/api/analyse", json={"path": path, "text": syntax}).json()
    assert r["diagnostics"] == [diag_json(d) for d in Workspace().analyse(path, syntax).diagnostics]


def test_a_text_that_loads_gives_a_rulebook_that_stays_while_the_text_is_broken(client):
    path = mini(client)
    r = client.post("/studio/api/analyse", json={"path": path, "text": MINI}).json()
    assert r["ok"] and r["diagnostics"] == [] and r["players"] == [2, 2] and r["title"] == "Mini"
    v1 = r["rulebook_version"]
    book = client.get("/studio/api/rulebook", params={"path": path})
    assert book.headers["x-rulebook-version"] == str(v1)
    assert 'data-line="14" data-rule="deal"' in book.text and 'data-rule="discard"' in book.text
    assert {"kind": "rule", "name": "deal", "line": 13, "endLine": 16} in r["rules"]
    r = client.post("/studio/api/analyse", json={"path": path, "text": MINI + "phase"}).json()
    assert not r["ok"] and r["rulebook_version"] == v1  # the last good book stays
    assert client.get("/studio/api/rulebook", params={"path": path}).text == book.text
    changed = MINI.replace('rule deal "Deal"', 'rule deal "Dealing out"')
    r = client.post("/studio/api/analyse", json={"path": path, "text": changed}).json()
    assert r["ok"] and r["rulebook_version"] > v1
    assert "Dealing out" in client.get("/studio/api/rulebook", params={"path": path}).text
    assert client.app.state.studio.loaded(path).text == changed


def test_hover_completion_and_definition_come_from_the_language_server(client):
    path = mini(client)
    line = MINI.split("\n").index("winner fewest points")
    r = client.post("/studio/api/hover", json={"path": path, "text": MINI, "line": line, "col": 15}).json()
    assert "the cards a player still holds" in r["markdown"]
    assert r["range"] == {"line": line, "col": 14, "endLine": line, "endCol": 20}
    r = client.post("/studio/api/definition", json={"path": path, "text": MINI, "line": line, "col": 15}).json()
    assert (r["path"], r["line"], r["col"], r["readonly"]) == (path, 9, 7, False)
    text = MINI + "define more = poi"
    last = text.split("\n")
    r = client.post("/studio/api/complete", json={"path": path, "text": text, "line": len(last) - 1,
                                                    "col": len(last[-1])}).json()
    assert "points" in [i["label"] for i in r]
    words = client.get("/studio/api/words").json()
    assert "phase" in words["keywords"] and "count" in words["builtins"]


def test_bad_bodies_are_400_with_an_error(client):
    for body in (b"[1]", b"{", b'"x"'):
        r = client.post("/studio/api/analyse", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]
    r = client.post("/studio/api/hover", json={"path": mini(client), "text": MINI, "line": "x", "col": 0})
    assert r.status_code == 400 and "line" in r.json()["error"]
    big = {"path": mini(client), "text": "x" * (Limits().upload_bytes + 1)}
    assert client.post("/studio/api/analyse", json=big).status_code == 413


# ------------------------------------------------------------------ files


def test_save_is_atomic_and_refuses_a_file_changed_on_disk(client, monkeypatch):
    path = mini(client)
    opened = client.post("/studio/api/open", json={"path": path, "page": "a"}).json()
    assert opened["text"] == MINI and not opened["readonly"] and opened["others"] == 0
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append((str(a), str(b))), real_replace(a, b))[1])
    edited = MINI.replace("Mini", "Mini two")
    r = client.post("/studio/api/save", json={"path": path, "text": edited, "sha256": opened["sha256"]})
    assert r.status_code == 200 and Path(path).read_text() == edited
    (tmp, target), = replaced
    assert target == path and Path(tmp).parent == Path(path).parent and not Path(tmp).exists()
    sha = r.json()["sha256"]
    Path(path).write_text(MINI + "\n# changed by someone else\n")
    r = client.post("/studio/api/save", json={"path": path, "text": MINI, "sha256": sha})
    assert r.status_code == 409 and r.json()["conflict"] and "changed on disk" in r.json()["error"]
    assert Path(path).read_text().endswith("someone else\n")  # not overwritten
    r = client.post("/studio/api/save", json={"path": path, "text": MINI, "sha256": sha, "force": True})
    assert r.status_code == 200 and Path(path).read_text() == MINI


def test_paths_are_confined_to_the_folders_given(client, tmp_path):
    outside = tmp_path / "outside.cards"
    outside.write_text(MINI)
    (client.work / "sub").mkdir()
    (client.work / "sub" / "escape.cards").symlink_to(outside)
    (client.work / "linkdir").symlink_to(tmp_path)
    for bad in (str(outside), "../outside.cards", str(client.work / ".." / "outside.cards"),
                "sub/escape.cards", str(client.work / "sub" / "escape.cards"), "linkdir/outside.cards",
                "/etc/passwd.cards", ".cardrules/x.cards"):
        for route, body in (("open", {"path": bad}), ("save", {"path": bad, "text": "x", "sha256": None}),
                            ("analyse", {"path": bad, "text": MINI})):
            r = client.post(f"/studio/api/{route}", json=body)
            assert r.status_code == 403, (route, bad, r.text)
    assert outside.read_text() == MINI
    assert client.post("/studio/api/open", json={"path": "/etc/passwd"}).status_code == 400  # not a ruleset
    r = client.post("/studio/api/save", json={"path": str(GANJIFA), "text": "x", "sha256": None})
    assert r.status_code == 403 and "bundled game" in r.json()["error"]
    assert client.post("/studio/api/open", json={"path": str(GANJIFA)}).json()["readonly"] is True
    listing = client.get("/studio/api/files").json()
    assert [f["name"] for f in listing["files"]] == [] and any(b["name"] == "ganjifa/ganjifa" for b in listing["bundled"])


def test_a_file_named_on_the_command_line_and_a_folder(tmp_path):
    one = tmp_path / "one.cards"
    one.write_text(MINI)
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "two.cards").write_text(MINI)
    (tmp_path / "three.cards").write_text(MINI)
    with studio(tmp_path, paths=[one, folder]) as c:
        names = [f["name"] for f in c.get("/studio/api/files").json()["files"]]
        assert names == ["one.cards", "two.cards"]
        assert c.post("/studio/api/open", json={"path": str(one)}).status_code == 200
        assert c.post("/studio/api/open", json={"path": str(tmp_path / "three.cards")}).status_code == 403


def test_new_variant_names_only_its_base_and_new_copies(client):
    r = client.post("/studio/api/new", json={"from": str(GANJIFA), "kind": "variant", "page": "p"}).json()
    p = Path(r["path"])
    assert p.parent == client.work.resolve() and p.name == "ganjifa-variant.cards" and not r["readonly"]
    header = [ln for ln in r["text"].splitlines() if ln.startswith("variant ")]
    # a bundled base by its name: found wherever cardrules is installed (tests/language/test_bundled_base.py)
    assert header == ['variant ganjifa_variant "Ganjifa (modern blend) (my variant)" of "bundled:ganjifa/ganjifa"']
    a = client.post("/studio/api/analyse", json={"path": str(p), "text": r["text"]}).json()
    assert a["ok"], a["diagnostics"]
    assert client.app.state.studio.loaded(str(p)).base == str(GANJIFA)
    assert "What this variant changes" in client.get("/studio/api/rulebook", params={"path": str(p)}).text
    again = client.post("/studio/api/new", json={"from": str(GANJIFA), "kind": "variant"}).json()
    assert Path(again["path"]).name == "ganjifa-variant-2.cards"
    copy = client.post("/studio/api/new", json={"from": str(GANJIFA), "kind": "copy", "name": "mine"}).json()
    assert Path(copy["path"]).name == "mine.cards" and copy["text"] == GANJIFA.read_text()
    assert client.post("/studio/api/new", json={"from": str(GANJIFA), "kind": "copy", "name": "mine"}).status_code == 409
    names = [f["name"] for f in client.get("/studio/api/files").json()["files"]]
    assert names == ["ganjifa-variant-2.cards", "ganjifa-variant.cards", "mine.cards"]


def test_two_pages_on_one_file_are_told(client):
    path = mini(client)
    assert client.post("/studio/api/open", json={"path": path, "page": "tab1"}).json()["others"] == 0
    assert client.post("/studio/api/open", json={"path": path, "page": "tab2"}).json()["others"] == 1
    assert client.post("/studio/api/presence", json={"path": path, "page": "tab1"}).json()["others"] == 1
    client.post("/studio/api/presence", json={"path": path, "page": "tab2", "leave": True})
    assert client.post("/studio/api/presence", json={"path": path, "page": "tab1"}).json()["others"] == 0


# ------------------------------------------------------------------ the token


def test_with_a_token_every_studio_request_needs_it(tmp_path):
    with studio(tmp_path, token="s3cret") as c:
        c.headers.pop("X-Studio-Token")
        assert c.get("/studio").status_code == 403
        assert c.get("/studio/static/studio.js").status_code == 403
        r = c.get("/studio/api/files")
        assert r.status_code == 403 and "token" in r.json()["error"]
        assert c.get("/studio/api/files", headers={"X-Studio-Token": "wrong"}).status_code == 403
        assert c.get("/studio/api/files", headers={"X-Studio-Token": "s3cret"}).status_code == 200
        page = c.get("/studio?token=s3cret")
        assert page.status_code == 200 and '"token": "s3cret"' in page.text
        assert "/studio/static/studio.js?token=s3cret" in page.text
        assert c.get("/t/none/links").status_code == 404  # the table's pages have their own tokens
    with studio(tmp_path) as c:  # no token given: one is made, and asked for all the same
        made = c.headers.pop("X-Studio-Token")
        assert len(made) >= 20 and c.get("/studio").status_code == 403 and c.get("/studio/api/files").status_code == 403
        assert c.get(f"/studio?token={made}").status_code == 200
        assert c.get("/studio/api/files", headers={"X-Studio-Token": made}).status_code == 200


def test_the_command_asks_for_a_token_off_this_computer():
    from interpreter.commands.studio import loopback
    assert loopback("127.0.0.1") and loopback("::1") and loopback("localhost") and loopback("127.0.0.2")
    assert not loopback("0.0.0.0") and not loopback("192.168.1.5") and not loopback("example.org")


# ------------------------------------------------------------------ play it now


def test_play_opens_a_table_that_keeps_the_rules_it_started_with(client):
    path = mini(client)
    assert client.post("/studio/api/play", json={"path": path, "players": 2, "seats": ["person", "random"]}
                       ).status_code == 409  # nothing loaded yet
    unsaved = MINI.replace('game mini "Mini"', 'game mini "Mini as edited"')
    assert client.post("/studio/api/analyse", json={"path": path, "text": unsaved}).json()["ok"]
    r = client.post("/studio/api/play", json={"path": path, "players": 2, "seats": ["person", "person"], "seed": 7})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["title"] == "Mini as edited" and got["url"].startswith(f"/t/{got['table']}/links?token=")
    web = client.app.state.web
    table = web.tables.get(got["table"])
    graph = client.app.state.studio.loaded(path).graph
    assert table.state.program.ruleset is graph  # the graph the studio loaded, not the file on disk
    assert client.get(got["url"]).status_code == 200
    later = MINI.replace('game mini "Mini"', 'game mini "Mini changed again"').replace("deal 3", "deal 2")
    assert client.post("/studio/api/analyse", json={"path": path, "text": later}).json()["ok"]
    assert client.app.state.studio.loaded(path).graph is not graph
    assert table.title == "Mini as edited" and table.state.program.ruleset is graph
    assert web.catalog.ruleset(table.key) is graph
    assert "Mini as edited" in table.path.read_text() and table.path.is_relative_to(client.work.parent / "data")
    links = client.get(got["url"]).text
    seat = links.split(f'/t/{got["table"]}/seat/1?token=')[1].split('"')[0]
    view = client.get(f"/api/t/{got['table']}/seat/1?token={seat}").json()
    assert view["game"] == "Mini as edited" and view["moves"]
    r = client.post(f"/api/t/{got['table']}/seat/1/move?token={seat}", json={"move": view["moves"][0], "version": 0})
    assert r.status_code == 200 and table.version == 1


def test_play_with_one_person_goes_to_the_seat_and_a_loop_is_the_located_error(client):
    path = mini(client)
    client.post("/studio/api/analyse", json={"path": path, "text": MINI})
    r = client.post("/studio/api/play", json={"path": path, "players": 2, "seats": ["greedy", "person"]}).json()
    assert r["url"].startswith(f"/t/{r['table']}/seat/2?token=")
    looping = MINI.replace("        shuffle stock\n", "        shuffle stock\n        while true:\n            pass\n")
    assert client.post("/studio/api/analyse", json={"path": path, "text": looping}).json()["ok"]
    r = client.post("/studio/api/play", json={"path": path, "players": 2, "seats": ["person", "random"]})
    assert r.status_code == 422
    assert r.json()["located"].startswith(f"{path}:14:5: error: the rules loop for ever")
    assert r.json()["line"] == 14
    bad = client.post("/studio/api/play", json={"path": path, "players": 3, "seats": ["person"] * 3})
    assert bad.status_code in (400, 422) and "2 players" in bad.json()["error"]
    assert client.post("/studio/api/play", json={"path": path, "players": 2, "seats": ["person"]}).status_code == 400


def test_the_static_checks_are_the_language_servers_warnings(client):
    from interpreter.lsp.analysis import static_findings
    path = mini(client)
    text = MINI.replace("winner fewest points", "define unused = 3\nwinner fewest points")
    r = client.post("/studio/api/warnings", json={"path": path, "text": text}).json()
    ws = Workspace()
    ws.open_doc(path, text)
    expected = [diag_json(d) for d in static_findings(ws.analysis(path))]
    assert r["diagnostics"] == expected and any("unused" in d["message"] for d in expected)
    assert client.post("/studio/api/warnings", json={"path": path, "text": "game"}).json()["diagnostics"] == []
