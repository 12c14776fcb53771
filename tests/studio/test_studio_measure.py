"""The studio's measure panels through their API (interpreter/studio/panels.py): the diff of a
variant is `cardrules diff`'s page; a balance comparison runs in the background with progress and
ends with the report; Stop ends a long run within a second and keeps nothing; the fuzzer's
findings open in the mounted table's replay view; bad numbers are 400; the token is asked for.

The studio itself is a small stand-in here (`loaded(path)`, `web`, `token`), its `Loaded` built
from files with the normal loader, as the studio's server gives them to `panels.routes`."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient
from typer.testing import CliRunner

from interpreter import load_ruleset
from interpreter.diff import variant_base
from interpreter.studio import panels
from interpreter.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "rulesets" / "classic"
TARGETS = ROOT / "tests" / "fuzz" / "targets"
API = panels.PREFIX


@dataclass
class Loaded:
    """What the studio keeps of the last version of a file that loaded."""

    path: str
    text: str
    graph: object
    base: str | None
    base_graph: object


def loaded_from(path: Path) -> Loaded:
    base = variant_base(path)
    return Loaded(str(path), path.read_text(encoding="utf-8"), load_ruleset(path),
                  str(base) if base is not None else None, load_ruleset(base) if base is not None else None)


class Studio:
    """The stand-in: the files it has loaded, the mounted table, the token."""

    def __init__(self, web, token=None):
        self.web, self.token, self.files = web, token, {}

    def add(self, path: Path) -> str:
        self.files[str(path)] = loaded_from(path)
        return str(path)

    def loaded(self, path: str):
        return self.files.get(path)


@pytest.fixture
def studio(tmp_path):
    table = create_app(tmp_path / "tables", bot_pause=0)
    s = Studio(table.state.web)
    app = Starlette(routes=panels.routes(s) + [Mount("/", app=table)])
    with TestClient(app, base_url="http://127.0.0.1") as client:
        s.client = client
        yield s
    measure_of(s).jobs.stop_all()


def measure_of(s) -> panels.Measure:
    """The panels' state behind the routes."""
    return next(r.endpoint.measure for r in s.client.app.routes if hasattr(getattr(r, "endpoint", None), "measure"))


def post(s, url: str, **body):
    return s.client.post(API + url, json=body, headers={"X-Studio-Token": s.token} if s.token else {})


def wait(s, kind: str, path: str, seconds: float = 30.0, until=lambda st: st["state"] not in ("starting", "running")):
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        st = post(s, f"/{kind}/status", path=path).json()
        seen.append(st)
        if until(st):
            return st, seen
        time.sleep(0.05)
    raise AssertionError(f"the {kind} run did not finish in {seconds} s: {seen[-1]}")


# ------------------------------------------------------------------ diff

def test_the_diff_of_a_variant_is_cardrules_diffs_page(studio):
    from interpreter.commands.cli import app as cli
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    got = post(studio, "/diff", path=path).json()
    assert got["variant"] is True and got["identical"] is False and got["rule_changes"] >= 1
    base = str(variant_base(Path(path)))
    r = CliRunner().invoke(cli, ["diff", base, path, "--format", "html"])
    assert r.exit_code == 1, r.output
    assert got["html"] == r.stdout
    assert post(studio, "/diff", path=path).json() == got       # made once per loaded version


def test_the_diff_of_a_game_that_is_no_variant(studio):
    path = studio.add(CLASSIC / "kuhn-poker.cards")
    assert post(studio, "/diff", path=path).json() == {"variant": False, "path": path}
    r = post(studio, "/diff", path=str(CLASSIC / "nothing-loaded.cards"))
    assert r.status_code == 404 and "no version of this file has loaded" in r.json()["error"]


# ------------------------------------------------------------------ balance

def test_a_balance_comparison_runs_with_progress_and_ends_with_its_report(studio):
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    st = post(studio, "/balance/start", path=path, games=20).json()
    assert st["state"] == "running" and st["total"] == 40
    final, seen = wait(studio, "balance", path)
    assert final["state"] == "done", final
    assert final["done"] == final["total"] == 40 and final["has_result"]
    assert all(0 <= x["done"] <= x["total"] for x in seen)
    r = post(studio, "/balance/result", path=path).json()
    assert r["data"]["games"] == 20 and len(r["data"]["configurations"]) == 2
    assert [c["configuration"] for c in r["data"]["configurations"]] == ["goofspiel-descending", "goofspiel"]
    html = r["html"]
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") >= 3   # the report's own plots
    assert any("against" in line for line in r["summary"])
    # the report stays until the next run of the file starts
    assert post(studio, "/balance/result", path=path).status_code == 200
    assert post(studio, "/balance/status", path=path).json()["state"] == "done"


def test_the_skill_question_seats_the_strongest_player_each_game_allows_and_says_why(studio):
    """As `cardrules balance`'s default (--strong auto): the studio's skill question is asked of
    the strongest player each side's game allows (balance.equilibria.strongest), named in the
    report with why; here, on the Python engine, greedy, since the search is slow outside C."""
    from interpreter.balance import Config
    from interpreter.balance.equilibria import strongest
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    st = post(studio, "/balance/start", path=path, games=3, skill=True, engine="python").json()
    assert st["state"] == "running" and st["total"] == 12  # each side's 3 games and 3 skill games
    final, _ = wait(studio, "balance", path, seconds=60)
    assert final["state"] == "done", final
    data = post(studio, "/balance/result", path=path).json()["data"]
    rs = load_ruleset(path)
    player, why = strongest(Config(label="x", path=path, rs=rs, players=2, bots=("random", "random")), False)
    assert player == "greedy" and "Python engine" in why
    skills = [c["skill"] for c in data["configurations"]]
    assert [s["why"] for s in skills] == [why, why], skills


def test_stop_ends_a_long_run_within_a_second_and_keeps_no_report(studio):
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    st = post(studio, "/balance/start", path=path, games=panels.MAX_GAMES, bots="greedy", skill=True).json()
    assert st["state"] == "running"
    assert post(studio, "/balance/start", path=path, games=5).status_code == 409   # one run per file
    wait(studio, "balance", path, until=lambda st: st["done"] >= 1)
    job = measure_of(studio).jobs.get("balance", path)
    t0 = time.monotonic()
    st = post(studio, "/balance/stop", path=path).json()
    assert time.monotonic() - t0 < 1.0
    assert st["state"] == "stopped" and not st["has_result"] and "stopped after" in st["message"]
    assert not job._process.is_alive()
    time.sleep(0.2)
    assert post(studio, "/balance/status", path=path).json()["state"] == "stopped"
    r = post(studio, "/balance/result", path=path)
    assert r.status_code == 404 and "no finished balance run" in r.json()["error"]




@pytest.mark.parametrize("body, words", [
    ({"games": 0}, "the number of games must be a whole number from 1 to 1,000"),
    ({"games": panels.MAX_GAMES + 1}, "from 1 to 1,000, not '1001'"),
    ({"games": "many"}, "the number of games must be a whole number"),
    ({"games": 2.5}, "the number of games must be a whole number"),
    ({"games": True}, "the number of games must be a whole number"),
    ({"players": 5}, "the number of players must be a whole number from 2 to 3, not '5'"),
    ({"seed": -1}, "the seed must be a whole number from 0"),
    ({"bots": "clever"}, "random or greedy for each of the 2 seats"),
    ({"engine": "fast"}, "the engine is one of python, auto, native"),
])
def test_bad_numbers_are_400_with_a_clear_message(studio, body, words):
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    r = post(studio, "/balance/start", path=path, **body)
    assert r.status_code == 400 and words in r.json()["error"], r.json()
    assert post(studio, "/balance/status", path=path).json()["state"] == "idle"


def test_bad_requests(studio):
    path = studio.add(CLASSIC / "kuhn-poker.cards")
    r = post(studio, "/balance/start", path=path)
    assert r.status_code == 409 and "is not a variant" in r.json()["error"]
    r = post(studio, "/fuzz/start", path=path, games=panels.MAX_FUZZ_GAMES + 1)
    assert r.status_code == 400 and "the games per configuration must be a whole number from 1 to 50" in r.json()["error"]
    r = studio.client.post(API + "/diff", content=b"{not json")
    assert r.status_code == 400 and r.json() == {"error": "the request's body is not JSON"}
    assert post(studio, "/tricks/status", path=path).status_code == 404
    assert post(studio, "/diff").json() == {"error": "say which file: {\"path\": ...}"}


# ------------------------------------------------------------------ fuzz

def test_fuzz_findings_of_a_broken_ruleset_open_in_the_replay_view(studio):
    path = studio.add(TARGETS / "runtime-error.cards")
    post(studio, "/fuzz/start", path=path, games=4)
    final, _ = wait(studio, "fuzz", path)
    assert final["state"] == "done" and final["done"] == final["total"], final
    r = post(studio, "/fuzz/result", path=path).json()
    kinds = [f["kind"] for f in r["findings"]]
    assert "runtime-error" in kinds and r["report"]["games"] >= 4
    for f in r["findings"]:
        assert f["sentence"]
        for rep in f.get("replays", []):
            page = studio.client.get(rep["url"])
            assert page.status_code == 200, page.text[:500]
            assert f"after move {rep['steps']} of {rep['moves']}" in page.text
    (err,) = [f for f in r["findings"] if f["kind"] == "runtime-error"]
    (rep,) = err["replays"]
    assert rep["steps"] == rep["moves"] - 1   # its last move makes the rules fail: shown just before it


def test_fuzz_findings_of_an_unsaved_variant_replay_on_its_edited_text(studio, tmp_path):
    """The variant as edited (not as on disk), its base found beside it in the snapshot."""
    folder = tmp_path / "games" / "mine"
    folder.mkdir(parents=True)
    (tmp_path / "games" / "deadlock.cards").write_text((TARGETS / "deadlock.cards").read_text())
    variant = folder / "strict.cards"
    variant.write_text('variant strict "Strict" of "../deadlock.cards"\n\noption lenient = true\n')
    path = studio.add(variant)
    edited = 'variant strict "Strict" of "../deadlock.cards"\n\noption lenient = false\n'
    from interpreter import loads_ruleset
    studio.files[path] = Loaded(path, edited, loads_ruleset(edited, path), studio.files[path].base,
                                studio.files[path].base_graph)
    post(studio, "/fuzz/start", path=path, games=2)
    final, _ = wait(studio, "fuzz", path)
    assert final["state"] == "done", final
    findings = post(studio, "/fuzz/result", path=path).json()["findings"]
    (dead,) = [f for f in findings if f["kind"] == "deadlock"]
    assert dead["ruleset"] == path
    (rep,) = dead["replays"]
    page = studio.client.get(rep["url"])
    assert page.status_code == 200, page.text[:500]
    record = json.loads(Path(studio.web.records[-1]).read_text())
    snapshot = Path(record["ruleset"])
    assert snapshot.read_text() == edited and snapshot.name == "strict.cards"
    assert (snapshot.parent.parent / "deadlock.cards").read_text() == (TARGETS / "deadlock.cards").read_text()


# ------------------------------------------------------------------ the token

def test_every_route_asks_for_the_token(studio):
    studio.token = "s3cret"
    path = studio.add(CLASSIC / "goofspiel-descending.cards")
    for url in ("/diff", "/balance/start", "/balance/status", "/balance/stop", "/balance/result", "/fuzz/start"):
        r = studio.client.post(API + url, json={"path": path})
        assert r.status_code == 403 and "token" in r.json()["error"]
        r = studio.client.post(API + url, json={"path": path}, headers={"X-Studio-Token": "wrong"})
        assert r.status_code == 403
    assert studio.client.get(API + "/balance/status", params={"path": path}).status_code == 403
    assert post(studio, "/diff", path=path).status_code == 200
    assert post(studio, "/balance/status", path=path).json()["state"] == "idle"


def test_a_comparison_whose_games_break_fails_in_one_line(studio, tmp_path):
    shutil.copy(TARGETS / "runtime-error.cards", tmp_path / "threes.cards")
    variant = tmp_path / "threes-again.cards"
    variant.write_text('variant threes_again "Threes again" of "threes.cards"\n', encoding="utf-8")
    path = studio.add(variant)
    post(studio, "/balance/start", path=path, games=5)
    final, _ = wait(studio, "balance", path)
    assert final["state"] == "failed" and not final["has_result"]
    assert final["message"].startswith("game 1 (seed 0) broke after") and "\n" not in final["message"]
    assert "Traceback" not in final["message"]
