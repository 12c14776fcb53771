"""A score that cannot be worked out when the game ends (it reads a card that is none there): every
command says so at the score's definition, with the game's seed, and exits 1, on both engines,
instead of a Python traceback (`play --engine python`, `fuzz`, `balance`) or a score of
-9223372036854775808 and nobody winning (`play` on the native engine); fuzz reports it as a
runtime error whose record `replay` stops at; a record of the game is still written; the browser
table shows the error as the game's result."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from interpreter.commands.cli import app

NONE_SCORE = """game none_score "None score"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden "stock"
zone hand per player owner "hand"
define boss = (highest c in cards where c.rank == 3 and c.suit == Red and c in stock).owner
define score(p: player) = if p == boss then 1 else 0
winner most score
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    rule turn "Turn":
        choose by seat(1):
            action go "Go.":
                end game
"""

AT = "none-score.cards:9:1: error: while working out the score ('score'), the rules met a card or player " \
     "that is none here (nothing matched)"


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def written(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ["python", "native"])
def test_play_says_the_game_broke_at_its_end_at_the_score(tmp_path, engine):
    path = written(tmp_path, "none-score.cards", NONE_SCORE)
    log = tmp_path / "games.json"
    r = cli("play", path, "-k", 3, "--engine", engine, "--log", log)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and "-9223372036854775808" not in r.output
    assert "error: the game with seed 0 broke at its end, working out its result" in r.output
    assert AT in r.output and "    define score(p: player) = if p == boss then 1 else 0" in r.output
    rec = json.loads(log.read_text())
    game = rec["records"][0] if "records" in rec else rec
    assert game["final"]["finished"] is True and game["final"]["winners"] is None
    replayed = cli("replay", log)
    assert replayed.exit_code == 1 and "the game's result cannot be worked out" in replayed.output \
        and "Traceback" not in replayed.output


def test_fuzz_reports_a_runtime_error_at_the_end_whose_record_fails_alike(tmp_path):
    from interpreter.commands.fuzz import fuzz_ruleset
    path = written(tmp_path, "none-score.cards", NONE_SCORE)
    report = fuzz_ruleset(path, games=4, seed=0)
    (f,) = [f for f in report.findings if f.kind == "runtime-error"]
    assert "working out the result at the end of the game" in f.sentence and "('score')" in f.sentence
    assert "(but it replayed without failing here" not in f.sentence


def test_balance_names_the_game_and_writes_nothing(tmp_path):
    path = written(tmp_path, "none-score.cards", NONE_SCORE)
    out = tmp_path / "report"
    r = cli("balance", path, "-k", 4, "--strong", "none", "--out", out)
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert "game 1 (seed 0) broke at its end, working out its result" in r.output and "nothing was written" in r.output
    assert not out.exists()


def test_the_table_shows_the_error_as_the_result(tmp_path):
    from interpreter import load_ruleset
    from interpreter.engine import apply, legal_moves, new_game
    from interpreter.web.views import outcome_view
    s = new_game(load_ruleset(written(tmp_path, "none-score.cards", NONE_SCORE)), 2, None, 0)
    apply(s, legal_moves(s)[0])
    view = outcome_view(s)
    assert view["winners"] == [] and view["text"].startswith("no result: while working out the score ('score')")
