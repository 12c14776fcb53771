"""The `cardrules` command line, driven in-process with typer's CliRunner."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import procs
import pytest
from typer.testing import CliRunner

from small_games import TINY
from interpreter.commands.cli import app

ROOT = Path(__file__).resolve().parents[2]
GANJIFA_DIR = ROOT / "rulesets" / "ganjifa"
GANJIFA = GANJIFA_DIR / "ganjifa.cards"

BROKEN = '''game broken "Broken"
players 2

deck small "Small pack":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player everywhere "hand"
'''



def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def no_traceback(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ------------------------------------------------------------------ check

def test_check_good_files_and_a_folder():
    r = run("check", GANJIFA)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == f"{GANJIFA}: ok (Ganjifa (modern blend), 3-4 players)"
    r = run("check", GANJIFA_DIR)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == len(list(GANJIFA_DIR.glob("*.cards")))
    assert all(": ok (" in line for line in lines)
    assert any("mughal-3p.cards: ok (" in line and "3 players)" in line for line in lines)


def test_check_a_broken_file(tmp_path):
    bad = tmp_path / "broken.cards"
    bad.write_text(BROKEN, encoding="utf-8")
    r = run("check", GANJIFA, bad)
    assert r.exit_code == 1
    no_traceback(r)
    assert "ganjifa.cards: ok" in r.stdout
    assert f"{bad}:9:" in r.stderr and ": error: " in r.stderr
    lines = r.stderr.splitlines()
    assert "zone hand per player everywhere" in r.stderr
    assert any(line.strip() == "^" for line in lines)


def test_check_a_missing_file_and_an_empty_folder(tmp_path):
    r = run("check", tmp_path / "nope.cards", tmp_path)
    assert r.exit_code == 1
    no_traceback(r)
    assert "nope.cards: error:" in r.stderr
    assert "no .cards files" in r.stderr


# ------------------------------------------------------------------ play

def test_play_json_is_one_object_and_deterministic():
    args = ("play", GANJIFA, "--players", "3", "--games", "3", "--seed", "4", "--json")
    r = run(*args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 3 and data["players"] == 3
    assert sum(data["wins"].values()) >= 3
    assert set(data["wins"]) == {"P1", "P2", "P3"}
    assert [g["seed"] for g in data["results"]] == [4, 5, 6]
    assert data["rules"]["deal"]["fired"] == 3
    assert data["mean_decisions"] > 0
    assert abs(sum(data["win_fraction"].values()) - sum(data["wins"].values()) / 3) < 1e-3
    again = run(*args)
    assert again.stdout == r.stdout
    ci = CliRunner().invoke(app, [str(a) for a in args], env={"CI": "1", "GITHUB_ACTIONS": "true"})
    assert ci.stdout == r.stdout


def test_a_seat_named_keeps_its_bot_whatever_the_order():
    from interpreter.commands.args import parse_bots
    want = {0: "ismcts", 1: "greedy", 2: "greedy"}
    assert parse_bots(["P1=ismcts", "greedy"], 3) == want == parse_bots(["greedy", "P1=ismcts"], 3)
    assert parse_bots(["greedy", "random"], 2) == {0: "random", 1: "random"}  # the later of two for every seat
    assert parse_bots(["P2=greedy", "P2=ismcts"], 2) == {0: "random", 1: "ismcts"}
    r = run("play", GANJIFA, "-n", "3", "-k", "1", "--bot", "P2=random", "--bot", "greedy")
    assert r.exit_code == 0, r.output
    assert any(line.split()[:2] == ["P2", "random"] for line in r.stdout.splitlines() if line.strip()), r.stdout


def test_play_table_and_bots():
    r = run("play", GANJIFA, "-n", "4", "-k", "2", "--bot", "greedy", "--bot", "P2=random")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Ganjifa (modern blend): 2 games, 4 players, seeds 0-1" in out
    for seat, bot in (("P1", "greedy"), ("P2", "random"), ("P4", "greedy")):
        assert any(line.split()[:2] == [seat, bot] for line in out.splitlines() if line.strip())
    assert "mean decisions per game" in out
    assert "Opening cards" in out and "per game" in out


def test_a_game_for_one_is_counted_in_the_singular():
    """A patience's heading says "1 player", in `play`, `solve` and `fuzz` alike."""
    r = run("play", "klondike", "-k", "1", "--engine", "python")
    assert r.exit_code == 0, r.output
    assert "Klondike: 1 game, 1 player, seed 0" in r.stdout
    r = run("solve", "klondike", "--seed", "1", "--nodes", "50", "--engine", "python")
    assert r.exit_code == 0, r.output
    assert "Klondike, 1 player, seed 1: the position at the start" in r.stdout
    r = run("fuzz", "klondike", "-k", "1", "--workers", "1", "--engine", "python")
    assert "fuzz klondike [1/6] 1 player, default options: 1 game (0 rule-seeking)" in r.output
    assert "1 players" not in r.output and "1 games" not in r.output


@pytest.mark.parametrize("args, message", [
    (("-o", "nope=1"), "unknown option 'nope'"),
    (("-o", "time=dusk"), "option time is one of day, night"),
    (("-o", "double_opening=perhaps"), "true or false"),
    (("-o", "time"), "NAME=VALUE"),
    (("--players", "7"), "3 to 4 players, not 7"),
    (("--players", "2"), "3 to 4 players, not 2"),
    (("--bot", "clever"), "unknown bot 'clever'"),
    (("--human", "5"), "no seat '5'"),
])
def test_play_usage_errors_exit_2(args, message):
    r = run("play", GANJIFA, *args)
    assert r.exit_code == 2, r.output
    assert message in r.stderr
    assert r.stdout == ""
    no_traceback(r)


def test_play_a_missing_or_broken_ruleset_exits_1(tmp_path):
    r = run("play", tmp_path / "nope.cards")
    assert r.exit_code == 1
    assert "no such ruleset file" in r.stderr
    bad = tmp_path / "broken.cards"
    bad.write_text(BROKEN, encoding="utf-8")
    r = run("play", bad, "--players", "2")
    assert r.exit_code == 1
    assert "error:" in r.stderr
    no_traceback(r)


def test_a_game_that_breaks_mid_play_names_seed_and_rule(tmp_path):
    boom = tmp_path / "boom.cards"
    boom.write_text(TINY.replace("let best = highest c in pile",
                                 "let best = highest c in pile where c.suit == Red and c.suit == Blue"))
    log = tmp_path / "boom.json"
    r = run("play", boom, "--seed", "3", "--log", log)
    assert r.exit_code == 1
    no_traceback(r)
    assert "seed 3" in r.stderr and "rule 'turn'" in r.stderr
    assert "boom.cards:" in r.stderr and "best.played_by" in r.stderr
    assert log.exists()  # the partial record, for a bug report

    stuck = tmp_path / "stuck.cards"
    stuck.write_text(TINY.replace('in hand(p) "Play', 'in hand(p) where c in pile "Play'))
    r = run("play", stuck, "-k", "2")
    assert r.exit_code == 1
    assert "stuck" in r.stderr and "no legal move" in r.stderr and "seed 0" in r.stderr


# ------------------------------------------------------------------ log and replay

@pytest.fixture(scope="module")
def one_log(tmp_path_factory):
    log = tmp_path_factory.mktemp("logs") / "game.json"
    r = run("play", GANJIFA, "-n", "3", "--seed", "2", "--log", log)
    assert r.exit_code == 0, r.output
    return log


def test_log_then_replay(one_log):
    record = json.loads(one_log.read_text())
    assert record["format"] == "cardrules-record/1" and record["seed"] == 2
    r = run("replay", one_log)
    assert r.exit_code == 0, r.output
    assert f"replayed {len(record['moves'])} moves: identical final state (won by" in r.stdout


def test_replay_of_a_game_that_keeps_no_score_names_no_scores(tmp_path):
    """A new user's Shithead: `replay` printed 'scores P1=0 P2=0 P3=0' for a game without a score;
    Ganjifa's replay (above) still gives its scores."""
    game = tmp_path / "noscore.cards"
    game.write_text((ROOT / "tests" / "engine" / "fool.cards").read_text(encoding="utf-8")
                    .replace("winner most held\n", "").replace("define held(p: player) = count(hand(p))\n", ""),
                    encoding="utf-8")
    log = tmp_path / "g.json"
    assert run("play", game, "-n", "3", "--seed", "1", "--log", log).exit_code == 0
    r = run("replay", log)
    assert r.exit_code == 0 and "identical final state (won by P1, P2)" in r.stdout and "scores" not in r.stdout, r.stdout


def test_several_games_log_and_replay(tmp_path):
    log = tmp_path / "games.json"
    r = run("play", GANJIFA, "-k", "3", "--json", "--log", log)
    assert r.exit_code == 0, r.output
    json.loads(r.stdout)
    data = json.loads(log.read_text())
    assert data["format"] == "cardrules-records/1" and len(data["records"]) == 3
    r = run("replay", log)
    assert r.exit_code == 0, r.output
    assert r.stdout.count("identical final state") == 3
    assert "record 3 (seed 2)" in r.stdout


def test_replay_finds_the_ruleset_beside_the_log(tmp_path, monkeypatch):
    src = tmp_path / "games"
    src.mkdir()
    game = src / "tiny.cards"
    game.write_text(TINY)
    monkeypatch.chdir(src)
    r = run("play", "tiny.cards", "--log", "tiny.json")
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(tmp_path)  # "tiny.cards" is no longer relative to the current folder
    r = run("replay", src / "tiny.json")
    assert r.exit_code == 0, r.output
    assert "identical final state" in r.stdout
    record = json.loads((src / "tiny.json").read_text())
    record["ruleset"] = "elsewhere/tiny.cards"
    (src / "moved.json").write_text(json.dumps(record))
    r = run("replay", src / "moved.json")
    assert r.exit_code == 1 and "--ruleset" in r.stderr
    r = run("replay", src / "moved.json", "--ruleset", game)
    assert r.exit_code == 0, r.output


def test_replay_a_tampered_move(one_log, tmp_path):
    record = json.loads(one_log.read_text())
    first_card = record["moves"][0]["move"].split()[1]  # already played at move 1
    k = 20
    action = record["moves"][k - 1]["move"].split()[0]
    record["moves"][k - 1]["move"] = f"{action} {first_card}"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record))
    r = run("replay", bad)
    assert r.exit_code == 1
    no_traceback(r)
    assert f"move {k} (" in r.stderr and "diverges" in r.stderr


def test_replay_a_wrong_digest_or_corrupt_or_missing_file(one_log, tmp_path):
    record = json.loads(one_log.read_text())
    record["final"]["digest"] = "0" * 64
    bad = tmp_path / "digest.json"
    bad.write_text(json.dumps(record))
    r = run("replay", bad)
    assert r.exit_code == 1 and "final state differs" in r.stderr

    cut = tmp_path / "cut.json"
    cut.write_text(one_log.read_text()[:300])
    r = run("replay", cut)
    assert r.exit_code == 1 and "not valid JSON" in r.stderr and "cut.json:" in r.stderr

    r = run("replay", tmp_path / "absent.json")
    assert r.exit_code == 1 and "no such record" in r.stderr

    for unusable, said in ((tmp_path, "this is a folder, not a record file"),
                           ("/dev/zero", "this is not a regular file but a device, so not a record file")):
        if Path(str(unusable)).exists():  # /dev/zero is never read: refused before it is opened
            r = run("replay", unusable)
            assert r.exit_code == 1 and said in r.stderr and "Traceback" not in r.stderr

    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    r = run("replay", other)
    assert r.exit_code == 1 and "not a cardrules game record" in r.stderr
    for result in (r,):
        no_traceback(result)


# ------------------------------------------------------------------ a person at the terminal

def test_human_play_with_piped_input():
    moves = "banana\n0\n" + "1\n" * 200
    r = run("play", GANJIFA, "--players", "3", "--games", "1", "--human", "2", input=moves)
    assert r.exit_code == 0, r.output[-2000:]
    out = r.stdout
    assert "you are P2" in out
    assert "your hand: " in out
    assert "1) give " in out  # the numbered moves of the opening
    assert "not a move here: 'banana'" in out and "not a move here: '0'" in out
    assert "rule: Opening cards" in out
    assert "P2 (you): give " in out
    assert "P1: " in out or "P3: " in out  # the bots' moves are shown
    assert "game over: won by" in out
    assert out.count("choose 1-") >= 30


def test_a_person_playing_a_game_for_one_plays_alone():
    r = run("play", "klondike", "--human", "1", "--engine", "python", input="q\n")
    assert "you play alone, as P1." in r.stdout and "the others are bots ()" not in r.stdout, r.stdout


def test_human_may_type_a_move_and_quit():
    r = run("play", GANJIFA, "-n", "3", "--human", "P2", input="q\n")
    assert r.exit_code == 1
    assert "you quit" in r.stderr
    no_traceback(r)
    r = run("play", GANJIFA, "-n", "3", "--human", "2", input="")  # end of input
    assert r.exit_code == 1 and "end of input" in r.stderr
    r = run("play", GANJIFA, "-n", "3", "--human", "1", "--json")
    assert r.exit_code == 2


def test_human_types_the_move_text(tmp_path):
    game = tmp_path / "tiny.cards"
    game.write_text(TINY)
    first = run("play", game, "--human", "1", input="q\n").stdout
    line = next(line for line in first.splitlines() if line.strip().startswith("1) "))
    move_text = line.split(") ", 1)[1].split("  ")[0].strip()
    r = run("play", game, "--human", "1", input=move_text.upper() + "\n" + "1\n" * 5)
    assert r.exit_code == 0, r.output
    assert f"P1 (you): {move_text}" in r.stdout


# ------------------------------------------------------------------ rulebook and entry points

def test_rulebook_writes_files(tmp_path):
    if importlib.util.find_spec("interpreter.render") is None:
        pytest.skip("interpreter.render is not there yet")
    out = tmp_path / "docs"
    r = run("rulebook", GANJIFA, GANJIFA_DIR / "mughal-3p.cards", "--out", out)
    assert r.exit_code == 0, r.output
    written = [Path(line) for line in r.stdout.splitlines() if line.strip()]
    assert written and all(p.exists() and p.is_relative_to(out) for p in written)


def test_rulebook_of_a_broken_ruleset(tmp_path):
    if importlib.util.find_spec("interpreter.render") is None:
        pytest.skip("interpreter.render is not there yet")
    bad = tmp_path / "broken.cards"
    bad.write_text(BROKEN)
    r = run("rulebook", bad, "--out", tmp_path / "docs")
    assert r.exit_code == 1 and "broken.cards:9:" in r.stderr
    no_traceback(r)


def test_python_dash_m_runs_the_cli():
    r = procs.run([sys.executable, "-m", "interpreter", "check", str(GANJIFA)], cwd=ROOT,
                  capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "ok (Ganjifa (modern blend)" in r.stdout


# ------------------------------------------------------------------ the help a new user reads first

def _commands():
    from typer.main import get_command
    return get_command(app).commands


def _help(*args, width=100):
    r = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": str(width), "TERMINAL_WIDTH": str(width)})
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("args", [()] + [(name,) for name in sorted(_commands())])
def test_every_help_shows_a_plain_help_flag(args):
    """`--help <bool>` read as if --help took a value: a flag shows no type."""
    out = _help(*args)
    assert "<bool>" not in out, out
    line = next(l for l in out.splitlines() if "--help" in l)
    assert line.strip("│ ").split() == ["--help", "Show", "this", "message", "and", "exit."], line


@pytest.mark.parametrize("width", [80, 120])
def test_each_command_is_one_whole_sentence_in_the_list_of_commands(width):
    """Each command's line in `cardrules --help` is its short help, whole, on one line (typer
    would cut a docstring's first paragraph at a width, or keep its line breaks)."""
    out = _help(width=width)
    lines = [" ".join(l.strip("│ ").split()) for l in out.splitlines()]
    for name, cmd in _commands().items():
        short = cmd.short_help
        assert short and "\n" not in short and short[0].isupper() and short.endswith("."), (name, short)
        assert len(short) <= 60, (name, short)
        assert f"{name} {short}" in lines, (name, out)


@pytest.mark.parametrize("width", [80, 100])
def test_list_is_a_table_aligned_for_every_bundled_game(width):
    """One row per bundled file: the name (a variant's indented under its game's), the player
    counts, the title, each in its column; a long name widens the name column, a long title wraps
    under the title column; no title says its player count twice ('(3 players) (3 players)')."""
    r = CliRunner().invoke(app, ["list"], env={"COLUMNS": str(width)})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    table = lines[:lines.index("")]
    head = table[0]
    assert head.split() == ["name", "players", "game"], head
    at_players, at_game = head.index("players"), head.index("game")
    rows = [l for l in table[1:] if l[:at_game].strip()]
    assert len(rows) == len(list((ROOT / "rulesets").rglob("*.cards")))
    for line in table[1:]:
        assert len(line) <= width, line
        if line not in rows:  # a title's further line, under the title
            assert not line[:at_game].strip() and line[at_game] != " ", line
            continue
        name, players = line[:at_players].strip(), line[at_players:at_game].strip()
        assert " " not in name and players.replace("-", "").isdigit(), line
        assert line[at_players - 2:at_players] == "  " and line[at_game - 1] == " " and line[at_game] != " ", line
        assert "players)" not in line[at_game:], line
    mughal = next(l for l in rows if l.split()[0] == "mughal-3p")
    assert mughal.startswith("    ") and mughal.split(None, 2)[1:] == ["3", "Ganjifa with the Mughal pack"]
    assert any(l.split()[0] == "crazy-eights-action-cards" for l in rows)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seeds_beyond_the_c_engines_play_the_python_engines_games(seed):
    """Random bots on the native engine play whole games in C, with 64-bit seeds: --seed -1 gave
    a traceback (NativeUnsupported) and --seed 2**64 quietly another game (seed 0). Under
    --engine auto they are played as the Python engine plays them; --engine native says no."""
    from interpreter.native import find_compiler
    r = run("play", "ganjifa", "--seed", seed, "--games", 2, "--workers", 1, "--json")
    no_traceback(r)
    assert r.exit_code == 0, r.output
    python = run("play", "ganjifa", "--seed", seed, "--games", 2, "--workers", 1, "--json", "--engine", "python")
    assert json.loads(r.stdout)["results"] == json.loads(python.stdout)["results"]
    if find_compiler() is not None:
        r = run("play", "ganjifa", "--seed", seed, "--engine", "native")
        no_traceback(r)
        assert r.exit_code == 2 and "--engine native plays random bots' games for seeds 0 to" in r.stderr, r.output


@pytest.mark.parametrize("name, hint", [("ganjfa", "did you mean 'ganjifa'?"), ("nosuch", "(`cardrules list`")])
def test_an_unknown_game_name_is_one_short_line_with_the_closest_names(name, hint):
    """A mistyped name got every bundled name (59 of them) on one line; now the closest ones,
    and where to see them all."""
    r = run("play", name)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and len(r.stderr) < 160 and hint in r.stderr, r.stderr
    assert "`cardrules list` shows the bundled games" in r.stderr


def test_an_unknown_paper_size_is_refused_with_or_without_pdf(tmp_path):
    for more in ([], ["--pdf"]):
        r = run("rulebook", "udvasa", "--paper", "a5", "--out", tmp_path, *more)
        assert r.exit_code == 2 and "unknown paper size 'a5': use one of a4, letter" in r.stderr, r.output
        assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", sorted(_commands()))
def test_the_usage_line_names_arguments_in_capitals_without_braces(name):
    """`Usage: cardrules play [OPTIONS] {path}` read as if the braces were to be typed."""
    usage = next(l for l in _help(name).splitlines() if "Usage:" in l).strip()
    assert "{" not in usage and "}" not in usage, usage
    args = usage.split("[OPTIONS]", 1)[1].split()
    assert all(a.strip("[].").isupper() for a in args), usage


def test_a_log_that_is_a_folder_is_refused_before_any_game(tmp_path):
    """It was found only after every game had been played and summed up (exit 1, 'Is a directory')."""
    r = CliRunner().invoke(app, ["play", "ganjifa", "--players", "3", "--games", "2", "--log", str(tmp_path)])
    assert r.exit_code == 2
    assert f"--log {tmp_path} is a folder" in r.output and "games," not in r.output


def test_the_json_summary_joins_the_entries_made_where_the_games_were_played():
    """`play --json` prints json.dumps(summary, indent=2); its list of results is joined from each
    game's text, made in the worker that played it: the same bytes, whatever the entries hold."""
    import json as json_

    from interpreter.commands.cli import summary_json
    from interpreter.playing import Tally
    games = [(7, (), (0, 0), 3), (8, (0, 1), (5, 5), 12), (9, (1,), (-4, 2), 1)]
    tally = Tally(2)
    for seed, winners, scores, decisions in games:
        tally.add(seed, winners, scores, decisions, {})
    data = {"games": 3, "rules": {}, "results": []}
    expected = dict(data, results=[{"seed": s, "winners": [f"P{w + 1}" for w in ws], "scores": list(sc),
                                    "decisions": d} for s, ws, sc, d in games])
    assert summary_json(data, tally) == json_.dumps(expected, indent=2)
    assert summary_json(data, Tally(2, keep=False)) == json_.dumps(data, indent=2)


def test_a_record_with_a_number_too_long_to_read_is_a_clear_error(tmp_path):
    """json.loads refuses a number of more than 4,300 digits with a bare ValueError: every reader
    of a record or a table file (files.loads_json) says it is not valid JSON instead."""
    bad = tmp_path / "long.json"
    bad.write_text("9" * 5000)
    r = run("replay", bad)
    assert r.exit_code == 1 and "not valid JSON (a number in it is too long)" in r.output
    no_traceback(r)
    from interpreter.web.replays import parse_upload
    from interpreter.errors import RecordError
    with pytest.raises(RecordError, match="a number in it is too long"):
        parse_upload("9" * 5000)


def test_a_game_that_keeps_no_score_shows_no_mean_score(tmp_path):
    """Big Two written by a new user with `declare winner` and no `winner` line: play showed a mean
    score of 0.00 for every seat, as if the game kept one."""
    path = tmp_path / "tiny.cards"
    path.write_text(TINY.replace("winner most cards_won\n", ""), encoding="utf-8")
    r = run("play", path, "--games", 5, "--engine", "python")
    no_traceback(r)
    assert r.exit_code == 0, r.output
    assert "mean score" not in r.output and "no score is kept, so none is shown" in r.output
    data = json.loads(run("play", path, "--games", 5, "--engine", "python", "--json").output)
    assert data["keeps_score"] is False
    r = run("play", path, "--human", 1, input="1\n" * 6)
    assert "game over: won by " in r.output and "scores" not in r.output, r.output
    path.write_text(TINY, encoding="utf-8")
    r = run("play", path, "--games", 5, "--engine", "python")
    assert "mean score" in r.output and "no score is kept" not in r.output


def test_a_shared_win_is_split_in_the_win_share_as_balance_splits_it(tmp_path):
    """A new user's Old Maid (three of four win every game) read 72% a seat in `play` and 25%
    in `balance`: `play` counted a shared win whole. Its `games won` still does; its `win share`
    splits it (1/k for each of k winners), summing to the games someone won, on every engine and
    for any number of workers."""
    path = tmp_path / "all.cards"
    path.write_text("""game all "Everyone but one"
players 3..4

deck d:
    suits Red
    ranks 1..4

zone stock shared hidden "stock"

phase play "Play":
    rule pick "Pick":
        choose by seat(1):
            action lose_1 "Seat 1 loses.":
                declare winner those q in players where q != seat(1)
            action lose_2 "Seat 2 loses.":
                declare winner those q in players where q != seat(2)
        end game
""", encoding="utf-8")
    outs = [json.loads(run("play", path, "-k", 40, "-n", 3, "--engine", e, "--workers", w, "--json").stdout)
            for e, w in (("python", 1), ("native", 1), ("native", 2))]
    assert outs[0] == outs[1] == outs[2]
    data = outs[0]
    assert sum(data["wins"].values()) == 80 and data["shared_wins"] == 40
    assert data["win_fraction"]["P3"] == 1.0 and data["win_share"]["P3"] == 0.5 and data["shared_wins"] == 40
    assert abs(sum(data["win_share"].values()) - 1.0) < 1e-3
    text = run("play", path, "-k", 40, "-n", 3, "--engine", "python").output
    assert "games won" in text and "win share" in text and "100.0%" in text and "50.0%" in text
    assert "in 'win share' (as balance counts it)" in text
