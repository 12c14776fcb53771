"""The studio's file handling through its API (Starlette's test client): rename and delete, confined
exactly like save and never over another file; a variant whose base goes is listed, not rewritten;
presence carries the file's sha256 on disk (and where a renamed file went), so another page hears
of a save; a save refused for a change on disk shows the difference; one size limit, the language
server's MAX_CHARS, for save, new and analysis, apart from the table's replay upload limit."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from small_games import MINI
from studio_api import GANJIFA, mini, studio

from interpreter.lsp.model import MAX_CHARS
from interpreter.studio.app import BODY_BYTES
from interpreter.studio.paths import line_diff
from interpreter.web.limits import Limits


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def variant_of(client, name: str, base: str) -> Path:
    p = client.work / name
    p.write_text(f'variant {p.stem.replace("-", "_")} "V" of "{base}"\n', encoding="utf-8")
    return p


# ------------------------------------------------------------------ rename


def test_rename_moves_the_file_and_never_over_another(client, monkeypatch):
    path = Path(mini(client))
    other = Path(mini(client, "other.cards", MINI + "# other\n"))
    r = client.post("/studio/api/rename", json={"path": str(path), "name": "other"})
    assert r.status_code == 409 and "other.cards already exists" in r.json()["error"]
    assert other.read_text().endswith("# other\n") and path.read_text() == MINI
    replaced = []
    monkeypatch.setattr(os, "replace", lambda *a: replaced.append(a))  # (a rename must not replace)
    r = client.post("/studio/api/rename", json={"path": str(path), "name": "renamed.cards"})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["path"] == str((client.work / "renamed.cards").resolve()) and got["name"] == "renamed.cards"
    assert not path.exists() and Path(got["path"]).read_text() == MINI and replaced == []
    assert client.post("/studio/api/open", json={"path": got["path"]}).json()["text"] == MINI


def test_rename_and_delete_are_confined_like_save(client, tmp_path):
    path = mini(client)
    outside = tmp_path / "outside.cards"
    outside.write_text(MINI)
    for bad in (str(outside), "../outside.cards", ".cardrules/x.cards"):
        assert client.post("/studio/api/rename", json={"path": bad, "name": "x"}).status_code in (403, 404)
        assert client.post("/studio/api/delete", json={"path": bad, "sha256": sha(MINI)}).status_code in (403, 404)
    for name in ("../escape", "sub/x", ".hidden", "", "a b", None):
        r = client.post("/studio/api/rename", json={"path": path, "name": name})
        assert r.status_code == 400 and "cannot be a file's name" in r.json()["error"], name
    r = client.post("/studio/api/rename", json={"path": str(GANJIFA), "name": "mine"})
    assert r.status_code == 403 and "bundled game" in r.json()["error"]
    r = client.post("/studio/api/delete", json={"path": str(GANJIFA), "sha256": sha(GANJIFA.read_text())})
    assert r.status_code == 403 and GANJIFA.exists()
    assert outside.read_text() == MINI and Path(path).read_text() == MINI
    assert sorted(p.name for p in client.work.iterdir()) == ["mini.cards"]


def test_a_file_named_on_the_command_line_keeps_its_name(tmp_path):
    one = tmp_path / "one.cards"
    one.write_text(MINI)
    with studio(tmp_path, paths=[one]) as c:
        r = c.post("/studio/api/rename", json={"path": str(one), "name": "two"})
        assert r.status_code == 403 and "named on the command line" in r.json()["error"]
        assert one.exists() and not (tmp_path / "two.cards").exists()


def test_a_variant_whose_base_is_renamed_or_deleted_is_listed_not_rewritten(client):
    base = Path(mini(client))
    v1 = variant_of(client, "v1.cards", "mini.cards")
    v2 = variant_of(client, "v2.cards", "./mini.cards")
    unrelated = variant_of(client, "v3.cards", "bundled:ganjifa/ganjifa")
    before = {p: p.read_text() for p in (v1, v2, unrelated)}
    r = client.post("/studio/api/rename", json={"path": str(base), "name": "base2"}).json()
    assert sorted(Path(v).name for v in r["variants"]) == ["v1.cards", "v2.cards"]
    assert {p: p.read_text() for p in before} == before
    a = client.post("/studio/api/analyse", json={"path": str(v1)}).json()
    assert not a["ok"] and "mini.cards" in a["error"]["message"]  # it says so when it is opened
    new = Path(r["path"])
    v4 = variant_of(client, "v4.cards", "base2.cards")
    r = client.post("/studio/api/delete", json={"path": str(new), "sha256": sha(MINI)}).json()
    assert [Path(v).name for v in r["variants"]] == ["v4.cards"] and not new.exists()
    assert v4.read_text() == 'variant v4 "V" of "base2.cards"\n'


def test_delete_is_refused_for_a_file_changed_since_it_was_read(client):
    path = Path(mini(client))
    opened = client.post("/studio/api/open", json={"path": str(path), "page": "a"}).json()
    path.write_text(MINI + "# someone else\n")
    r = client.post("/studio/api/delete", json={"path": str(path), "sha256": opened["sha256"]})
    assert r.status_code == 409 and "changed on disk" in r.json()["error"] and path.exists()
    assert client.post("/studio/api/delete", json={"path": str(path)}).status_code == 409
    r = client.post("/studio/api/delete", json={"path": str(path), "sha256": sha(path.read_text())})
    assert r.status_code == 200 and not path.exists()
    assert client.post("/studio/api/delete", json={"path": str(path), "sha256": None}).status_code == 404


# ------------------------------------------------------------------ what another page hears


def test_presence_carries_the_sha_on_disk_and_where_a_renamed_file_went(client):
    path = mini(client)
    o = client.post("/studio/api/open", json={"path": path, "page": "b"}).json()
    p = client.post("/studio/api/presence", json={"path": path, "page": "b"}).json()
    assert p["sha256"] == o["sha256"] and "moved" not in p
    r = client.post("/studio/api/save", json={"path": path, "text": MINI + "# two\n", "sha256": o["sha256"]}).json()
    assert client.post("/studio/api/presence", json={"path": path, "page": "b"}).json()["sha256"] == r["sha256"]
    first = client.post("/studio/api/rename", json={"path": path, "name": "first"}).json()
    second = client.post("/studio/api/rename", json={"path": first["path"], "name": "second"}).json()
    # page b moved along with the file: another page there sees it
    assert client.post("/studio/api/presence", json={"path": second["path"], "page": "c"}).json()["others"] == 1
    p = client.post("/studio/api/presence", json={"path": path, "page": "b"}).json()
    assert p["sha256"] is None and p["moved"] == second["path"]  # the last of the renames
    client.post("/studio/api/delete", json={"path": second["path"], "sha256": r["sha256"]})
    p = client.post("/studio/api/presence", json={"path": path, "page": "b"}).json()
    assert p["sha256"] is None and "moved" not in p  # deleted: nowhere to follow


def test_changes_and_a_refused_save_show_the_difference_line_by_line(client):
    path = mini(client)
    o = client.post("/studio/api/open", json={"path": path}).json()
    theirs = MINI.replace('game mini "Mini"', 'game mini "Theirs"')
    Path(path).write_text(theirs)
    mine = MINI.replace("players 2", "players 2\n# mine")
    c = client.post("/studio/api/changes", json={"path": path, "text": mine}).json()
    assert c["sha256"] == sha(theirs)
    lines = [ln for h in c["diff"]["hunks"] for ln in h["lines"]]
    assert ["-", 'game mini "Mini"'] in lines and ["+", 'game mini "Theirs"'] in lines and ["-", "# mine"] in lines
    assert c["diff"]["added"] == 1 and c["diff"]["removed"] == 2
    r = client.post("/studio/api/save", json={"path": path, "text": mine, "sha256": o["sha256"]})
    assert r.status_code == 409 and r.json()["diff"] == c["diff"] and Path(path).read_text() == theirs


def test_a_long_diff_shows_its_first_lines_and_counts_the_rest():
    d = line_diff("\n".join(f"a{i}" for i in range(300)), "\n".join(f"b{i}" for i in range(300)))
    shown = [ln for h in d["hunks"] for ln in h["lines"] if ln[0] != " "]
    assert len(shown) == 80 and d["more"] == 520 and d["added"] == d["removed"] == 300
    assert line_diff(MINI, MINI) == {"hunks": [], "added": 0, "removed": 0, "more": 0}


# ------------------------------------------------------------------ one size limit


def test_one_limit_of_characters_for_save_new_and_analysis(client):
    path = mini(client)
    o = client.post("/studio/api/open", json={"path": path}).json()
    big = "# " + "x" * (MAX_CHARS - 1)  # one character over, a little over 1 MB
    r = client.post("/studio/api/save", json={"path": path, "text": big, "sha256": o["sha256"]})
    assert r.status_code == 413 and f"{MAX_CHARS + 1:,} characters" in r.json()["error"]
    assert f"up to {MAX_CHARS:,} characters" in r.json()["error"] and Path(path).read_text() == MINI
    exact = big[:MAX_CHARS]
    r = client.post("/studio/api/save", json={"path": path, "text": exact, "sha256": o["sha256"]})
    assert r.status_code == 200 and len(Path(path).read_text()) == MAX_CHARS
    a = client.post("/studio/api/analyse", json={"path": path, "text": big}).json()
    assert not a["ok"] and f"{MAX_CHARS:,}" in a["diagnostics"][0]["message"]
    huge = client.work / "huge.cards"
    huge.write_text(big)  # made elsewhere: opened, but never copied
    r = client.post("/studio/api/new", json={"from": str(huge), "kind": "copy", "name": "copy"})
    assert r.status_code == 413 and not (client.work / "copy.cards").exists()
    # a body that cannot hold such a file is refused before it is read; the table's replays keep theirs
    r = client.post("/studio/api/save", content=b'{"text": "' + b"x" * BODY_BYTES + b'"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and f"{MAX_CHARS:,} characters" in r.json()["error"]
    assert BODY_BYTES < Limits().upload_bytes == 8 * 1024 * 1024


def test_the_favicon_is_served_for_the_studio_and_the_table(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
    assert client.get("/static/favicon.svg").content == r.content
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/studio").text
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").text


def test_the_table_alone_serves_the_favicon(tmp_path):
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    with TestClient(create_app(tmp_path / "tables", bot_pause=0), base_url="http://127.0.0.1") as c:
        r = c.get("/favicon.ico")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
