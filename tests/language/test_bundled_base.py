"""A variant of a bundled game names it as `of "bundled:NAME"`: found wherever cardrules is
installed, so a designer's file (the studio's "New variant of it" writes one) survives a move
of its folder or a new installation. Each place that follows a variant to its base follows this
one: loading and its located errors, play (in this process and in workers), the record and
its replay, diff, the language server's go to definition, and the studio's new files."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from typer.testing import CliRunner

from interpreter import load_ruleset
from interpreter.bundled import bundled
from interpreter.commands.cli import app
from interpreter.engine import outcome
from interpreter.errors import RulesetError
from interpreter.playing import play_one

GANJIFA = bundled()["ganjifa/ganjifa"]
BODY = '''
text "Low cards are kept back."

define may_lead(c: card) = false
    text "never: the lowest unbeatable card stays in hand"
'''


def _variant(folder: Path, ref: str, name: str = "mine.cards") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'variant mine "My Ganjifa" of "{ref}"\n' + BODY, encoding="utf-8")
    return path


def test_a_bundled_base_plays_as_the_same_variant_written_with_a_path(tmp_path):
    by_name = load_ruleset(_variant(tmp_path / "a", "bundled:ganjifa"))
    by_family = load_ruleset(_variant(tmp_path / "b", "bundled:ganjifa/ganjifa.cards"))
    by_path = load_ruleset(_variant(tmp_path / "c", os.path.relpath(GANJIFA, tmp_path / "c")))
    for seed in (1, 2, 3):
        games = [play_one(rs, 3, {}, seed, dict.fromkeys(range(3), "random"), None) for rs in (by_name, by_family, by_path)]
        assert len({tuple(map(str, s.history)) for s in games}) == 1 and len({str(outcome(s)) for s in games}) == 1


def test_a_bundled_name_that_is_none_is_a_located_error_with_the_closest_names(tmp_path):
    path = _variant(tmp_path, "bundled:ganjifo")
    try:
        load_ruleset(path)
    except RulesetError as e:
        assert (e.line, e.column) == (1, 30)
        assert "no bundled game named 'ganjifo'" in e.message and "did you mean 'ganjifa'" in e.message
    else:
        raise AssertionError("a base that is no bundled game loaded")


def test_the_folder_moves_and_the_variant_still_plays_records_and_replays(tmp_path):
    path = _variant(tmp_path / "here", "bundled:ganjifa")
    moved = tmp_path / "elsewhere" / "deeper"
    shutil.copytree(path.parent, moved)
    runner = CliRunner()
    log = tmp_path / "game.json"
    done = runner.invoke(app, ["play", str(moved / "mine.cards"), "--players", "3", "--games", "1", "--seed", "4",
                               "--engine", "python", "--log", str(log), "--json"])
    assert done.exit_code == 0, done.output
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 0, again.output
    assert json.loads(log.read_text())["ruleset"].endswith("mine.cards")


def test_workers_read_the_bundled_base_too(tmp_path):
    path = _variant(tmp_path, "bundled:ganjifa")
    runner = CliRunner()
    args = ["play", str(path), "--players", "3", "--games", "4", "--seed", "2", "--engine", "python", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, args + ["--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, (one.output, two.output)
    assert json.loads(one.stdout)["games"] == json.loads(two.stdout)["games"]


def test_diff_and_list_of_bases_follow_it(tmp_path):
    path = _variant(tmp_path, "bundled:ganjifa")
    from interpreter.diff.variants import variant_base
    assert variant_base(path) == GANJIFA
    done = CliRunner().invoke(app, ["diff", str(GANJIFA), str(path), "--format", "text", "--no-redline"])
    assert done.exit_code == 1 and "1 change to the rules" in done.stdout


def test_go_to_definition_goes_into_the_installed_base(tmp_path):
    from interpreter.lsp import analysis as an
    path = _variant(tmp_path, "bundled:ganjifa")
    text = path.read_text(encoding="utf-8")
    ws = an.Workspace([str(tmp_path)])
    ws.open_doc(str(path), text)
    line = text.splitlines().index("define may_lead(c: card) = false")
    found = ws.definition(str(path), line, len("define ma"))
    assert [Path(p) for p, _ in found] == [path, GANJIFA]
    assert ws.definition(str(path), 0, text.index('"bundled:') + 3) == [(str(GANJIFA), an.Span(0, 0, 0, 0))]
    assert ws.analysis(str(path)).error is None


def test_the_studio_names_a_bundled_base_by_its_name(tmp_path):
    from interpreter.studio.paths import base_ref, variant_text
    assert base_ref(GANJIFA, tmp_path) == "bundled:ganjifa/ganjifa"
    text = variant_text(GANJIFA.read_text(encoding="utf-8"), GANJIFA, tmp_path / "mine.cards")
    assert 'of "bundled:ganjifa/ganjifa"' in text
    (tmp_path / "mine.cards").write_text(text + BODY, encoding="utf-8")
    assert load_ruleset(tmp_path / "mine.cards").name


def test_its_graph_is_kept_in_the_cache_under_a_key_that_follows_the_base(tmp_path):
    from interpreter.language import cache
    path = _variant(tmp_path, "bundled:ganjifa")
    text = path.read_text(encoding="utf-8")
    key = cache.source_key(str(path), text)
    assert key is not None                       # a bundled base is read for the key, not given up on
    other = _variant(tmp_path / "o", "bundled:ganjifa/mughal-3p")
    assert cache.source_key(str(path), other.read_text(encoding="utf-8")) != key
