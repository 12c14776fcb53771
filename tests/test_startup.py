"""Start-up: the grammar and loaded rule graphs are kept in the user's cache folder, keyed by
content, never trusted when damaged; a check already answered answers at once."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import cache
from interpreter.build import build_file

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))


@pytest.fixture
def cache_in(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    return folder


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.relative_to(ROOT / "rulesets").as_posix())
def test_a_cached_graph_equals_a_built_one(path, cache_in, monkeypatch):
    first = build_file(path)  # builds and stores
    assert list(cache_in.glob("graph-*.pickle"))
    again = build_file(path)  # from the cache
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    fresh = build_file(path)
    assert again == first == fresh


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.pickle"))


@pytest.mark.parametrize("damage", [b"", b"garbage", "truncate", "wrong type"])
def test_a_damaged_entry_is_rebuilt_not_trusted(damage, cache_in, monkeypatch):
    path = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"
    good = build_file(path)
    (entry,) = _entries(cache_in, "graph")
    if damage == "truncate":
        entry.write_bytes(entry.read_bytes()[:100])
    elif damage == "wrong type":
        entry.write_bytes(pickle.dumps({"not": "a graph"}))
    else:
        entry.write_bytes(damage)
    assert build_file(path) == good
    assert pickle.loads(_entries(cache_in, "graph")[0].read_bytes())[0] == good  # rewritten


def test_changing_a_base_changes_its_variants(tmp_path, cache_in):
    for name in ("ganjifa.cards", "traditional-deni.cards"):
        shutil.copy(ROOT / "rulesets" / "ganjifa" / name, tmp_path / name)
    variant = tmp_path / "traditional-deni.cards"
    before = build_file(variant)
    base = tmp_path / "ganjifa.cards"
    base.write_text(base.read_text(encoding="utf-8").replace("players 3..4", "players 3..5", 1), encoding="utf-8")
    after = build_file(variant)
    assert (before.players_max, after.players_max) == (4, 5)


def test_an_unwritable_cache_folder_is_no_cache(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(blocked / "cache"))
    assert cache.cache_dir() is None
    assert build_file(ROOT / "rulesets" / "mughal" / "komi.cards").name


def test_caching_can_be_turned_off(cache_in, monkeypatch):
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    build_file(ROOT / "rulesets" / "mughal" / "komi.cards")
    assert not cache_in.exists() or not any(cache_in.iterdir())


def _cardrules(args, cache_folder, *extra_env):
    env = {k: v for k, v in os.environ.items() if k not in ("CARDRULES_NO_CACHE",)}
    env["CARDRULES_CACHE_DIR"] = str(cache_folder)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "interpreter", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


def test_a_warm_check_says_exactly_what_a_cold_one_says(tmp_path):
    folder = tmp_path / "cache"
    args = ["check", "rulesets/ganjifa"]
    cold = _cardrules(args, folder)
    warm = _cardrules(args, folder)
    assert cold.returncode == warm.returncode == 0
    assert cold.stdout == warm.stdout and cold.stdout.count(": ok (") == 6
    assert list(folder.glob("checked-*.pickle"))


def test_a_warm_check_loads_neither_parser_nor_graph(tmp_path):
    folder = tmp_path / "cache"
    _cardrules(["check", "rulesets/mughal/komi.cards"], folder)
    probe = ("import sys; sys.argv = ['cardrules', 'check', 'rulesets/mughal/komi.cards']\n"
             "from interpreter.launch import main\n"
             "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
             "print(code, 'interpreter.graph' in sys.modules, 'lark' in sys.modules)")
    env = dict(os.environ, CARDRULES_CACHE_DIR=str(folder), PYTHONPATH=str(ROOT))
    env.pop("CARDRULES_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "0 False False"


def test_errors_are_never_cached(tmp_path):
    folder = tmp_path / "cache"
    bad = tmp_path / "bad.cards"
    bad.write_text((ROOT / "tests" / "broken" / "01-unknown-name.cards").read_text(encoding="utf-8"),
                   encoding="utf-8")
    first = _cardrules(["check", str(bad)], folder)
    second = _cardrules(["check", str(bad)], folder)
    assert first.returncode == second.returncode == 1
    assert first.stderr == second.stderr and "error:" in second.stderr and "^" in second.stderr
    assert not list(folder.glob("checked-*.pickle"))
