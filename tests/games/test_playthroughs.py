"""Every bundled ruleset plays its pinned game (tests/games/playthroughs/, interpreter/playthrough.py)
on both engines: the same seat, observation, legal moves and move at every decision, the same
outcome. A failure shows the first decision that differs and the command that regenerates the
files (`python -m interpreter.playthrough --write`), for when the change is meant.

The native engine is compiled without optimising here (`quick`: the same games, four times
sooner to build); tests/native/test_native_engine.py plays the optimised build."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter import playthrough as pt
from interpreter.native import find_compiler
from interpreter.playing import play_one

RULESETS = pt.bundled_rulesets()
IDS = [pt.golden_path(p).relative_to(pt.GOLDEN).with_suffix("").as_posix() for p in RULESETS]


@cache
def rules(path: Path):
    return load_ruleset(path)


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_the_python_engine_plays_the_pinned_game(path):
    problem = pt.check(path, "python", rs=rules(path))
    if problem is not None:
        pytest.fail(problem, pytrace=False)


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_the_native_engine_plays_the_pinned_game(path):
    problem = pt.check(path, "native", rs=rules(path), quick=True)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def test_every_golden_file_belongs_to_a_bundled_ruleset():
    wanted = {pt.golden_path(p) for p in RULESETS}
    orphans = sorted(str(p.relative_to(pt.GOLDEN)) for p in pt.GOLDEN.glob("**/*.txt") if p not in wanted)
    assert not orphans, f"golden playthroughs of rulesets that are gone: {orphans}; run `{pt.COMMAND}`"


def _moves(text: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("  move: ")]


@pytest.mark.parametrize("name", ["classic/goofspiel", "classic/hearts", "ganjifa/ganjifa"])
def test_the_moves_pinned_are_those_cardrules_play_makes_with_the_same_seed(name):
    """Secret bids, passing and tricks: `cardrules play --seed 0` with random players plays the
    pinned game, move for move."""
    path = next(p for p in RULESETS if p.as_posix().endswith(f"rulesets/{name}.cards"))
    rs = rules(path)
    n = pt.players_for(rs)
    state = play_one(rs, n, {}, pt.SEED, {seat: "random" for seat in range(n)}, None)
    assert [str(m) for m in state.history] == _moves(pt.golden_path(path).read_text(encoding="utf-8"))


def test_a_changed_game_is_shown_at_its_first_differing_decision(tmp_path, capsys):
    path = next(p for p in RULESETS if p.name == "kuhn-poker.cards")
    assert pt.main([str(path), "--write", "--dir", str(tmp_path)]) == 0
    gold = pt.golden_path(path, tmp_path)
    assert pt.main([str(path), "--dir", str(tmp_path)]) == 0
    text = gold.read_text(encoding="utf-8")
    last = _moves(text)[-1]
    changed = text[::-1].replace(f"  move: {last}"[::-1], "  move: something else"[::-1], 1)[::-1]
    gold.write_text(changed, encoding="utf-8")
    capsys.readouterr()
    assert pt.main([str(path), "--dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    n = len(_moves(text))
    assert f"first difference at: decision {n}:" in err
    assert "-  move: something else" in err and f"+  move: {last}" in err
    assert pt.COMMAND in err
    assert "decision 1:" not in err.split("first difference at:")[1].split("\n", 1)[1]  # only the block that differs
