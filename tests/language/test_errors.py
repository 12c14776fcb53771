"""Every broken ruleset in tests/language/broken/ gets a located, readable message: the file, line and
column, the offending line with a caret, and what was expected. Never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import procs
import pytest

from interpreter import CardRulesError, RulesetError, RulesetSyntaxError, load_ruleset, loads_ruleset

ROOT = Path(__file__).resolve().parents[2]
BROKEN = sorted((Path(__file__).resolve().parents[1] / "language" / "broken").glob("*.cards"))


def expectation(path: Path) -> tuple[int, int, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# expect: (\d+):(\d+): (.*)", first)
    assert m, f"{path.name} must start with '# expect: LINE:COL: message'"
    return int(m[1]), int(m[2]), m[3]


def test_there_are_at_least_twenty_broken_files():
    assert len(BROKEN) >= 20


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_file_gets_located_message(path: Path):
    line, col, message = expectation(path)
    with pytest.raises(CardRulesError) as info:
        load_ruleset(path)
    err = info.value
    assert isinstance(err, (RulesetError, RulesetSyntaxError))
    rendered = err.render()
    head = rendered.splitlines()[0]
    assert head.startswith(f"{path}:{line}:{col}: error: "), rendered
    assert message in head, rendered
    # the source line and a caret under the column
    lines = rendered.splitlines()
    assert len(lines) == 3, rendered
    source = path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert lines[1].strip() == source.strip()
    assert lines[2] == "    " + " " * (col - 1) + "^"
    assert "Traceback" not in rendered


def test_text_errors_show_the_line_even_without_a_file():
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset('game g\nplayers 2 3\n', "inline.cards")
    rendered = info.value.render()
    assert rendered.startswith("inline.cards:2:11: error: unexpected '3'")
    assert "players 2 3" in rendered


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RulesetError, match="no such ruleset file"):
        load_ruleset(tmp_path / "absent.cards")


def test_syntax_error_in_a_variants_base_names_the_base(tmp_path):
    (tmp_path / "base.cards").write_text("game b\nplayers 2\ndeck d\n")
    (tmp_path / "v.cards").write_text('variant v of "base.cards"\n')
    with pytest.raises(RulesetSyntaxError) as info:
        load_ruleset(tmp_path / "v.cards")
    assert info.value.file == str(tmp_path / "base.cards")
    assert info.value.line == 3


def test_a_variant_cannot_be_its_own_base(tmp_path):
    (tmp_path / "v.cards").write_text('variant v of "v.cards"\n')
    with pytest.raises(RulesetError, match="its own base"):
        load_ruleset(tmp_path / "v.cards")


# ---- a base (or a file) whose name cannot be a ruleset file: located, never a traceback or a hang

BASE_NAMES = [p for p in BROKEN if p.name.startswith("29-") or "-variant-base-" in p.name]


def _cardrules(args, cache_folder: Path):
    """`cardrules ARGS` in a child process (the front door, launch.py, with a cache folder)."""
    env = {k: v for k, v in os.environ.items() if k != "CARDRULES_NO_CACHE"}
    env["CARDRULES_CACHE_DIR"] = str(cache_folder)
    env["PYTHONPATH"] = str(ROOT)
    return procs.run([sys.executable, "-m", "interpreter", *map(str, args)], capture_output=True, text=True,
                     env=env, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)


def test_the_bases_that_cannot_be_files_are_all_here():
    assert len(BASE_NAMES) >= 7  # missing, NUL, folder, device, too long, a part too long, through a file


@pytest.fixture(scope="module")
def checked_bases(tmp_path_factory):
    """`cardrules check` of every file in BASE_NAMES, in one child process (each is a second of start-up)."""
    return _cardrules(["check", *BASE_NAMES], tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("path", BASE_NAMES, ids=[p.stem for p in BASE_NAMES])
def test_check_of_a_variant_whose_base_cannot_be_a_file_exits_1_located(path: Path, checked_bases):
    line, col, message = expectation(path)
    r = checked_bases
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    head = next((x for x in r.stderr.splitlines() if x.startswith(f"{path}:")), None)
    assert head is not None and head.startswith(f"{path}:{line}:{col}: error: ") and message in head, r.stderr


def _variant_of(tmp_path: Path, base: str) -> Path:
    v = tmp_path / "v.cards"
    v.write_text(f'variant v "V" of "{base}"\n', encoding="utf-8")
    return v


def _soon(load, seconds: float = 20.0) -> BaseException | None:
    """What load() raises, which must happen within `seconds` (it runs in a thread, so that a
    file read without end or a pipe waited on fails the test instead of hanging the suite)."""
    out: dict = {}

    def go():
        try:
            load()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            out["e"] = e
    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the file was waited on or read without end"
    return out.get("e")


def test_a_pipe_as_base_or_as_the_file_is_refused_without_waiting_for_it(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    os.mkfifo(tmp_path / "pipe.cards")
    err = _soon(lambda: load_ruleset(_variant_of(tmp_path, "pipe.cards")))
    assert isinstance(err, RulesetError) and (err.line, err.column) == (1, 18), err
    assert "'pipe.cards' is not a regular file but a named pipe" in err.message
    err = _soon(lambda: load_ruleset(tmp_path / "pipe.cards"))
    assert isinstance(err, RulesetError) and "not a regular file but a named pipe" in err.message, err
    r = _cardrules(["check", tmp_path / "pipe.cards", "/dev/zero"], tmp_path / "cache")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{tmp_path / 'pipe.cards'}: error: this is not a regular file but a named pipe" in r.stderr
    assert "/dev/zero: error: this is not a regular file but a device" in r.stderr


def test_a_device_given_as_the_file_is_refused_not_read():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    err = _soon(lambda: load_ruleset("/dev/zero"))
    assert isinstance(err, RulesetError) and "not a regular file but a device" in err.message, err


def test_a_loop_of_links_as_base_is_located(tmp_path):
    try:
        os.symlink("loop.cards", tmp_path / "loop.cards")
    except (OSError, NotImplementedError):
        pytest.skip("no symbolic links here")
    with pytest.raises(RulesetError) as info:
        load_ruleset(_variant_of(tmp_path, "loop.cards"))
    assert (info.value.line, info.value.column) == (1, 18)
    assert info.value.message.startswith("the base ruleset 'loop.cards' cannot be read: ")


def test_an_unreadable_base_is_located(tmp_path, monkeypatch):
    base = tmp_path / "base.cards"
    base.write_text((ROOT / "rulesets" / "mughal" / "ekrang.cards").read_text(encoding="utf-8"), encoding="utf-8")
    real_open = os.open

    def refuse(path, *args, **kwargs):  # as chmod 000 would, even for root
        if os.fspath(path) == str(base):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    with pytest.raises(RulesetError) as info:
        load_ruleset(_variant_of(tmp_path, "base.cards"))
    assert (info.value.line, info.value.column) == (1, 18)
    assert info.value.message == f"the base ruleset 'base.cards' cannot be read: Permission denied (looked for {base})"


def test_the_key_and_hash_helpers_stop_at_a_base_that_cannot_be_a_file(tmp_path):
    from interpreter.language import cache
    from interpreter.bundled import content_hash
    from interpreter.runner import source_of
    for n, base in enumerate(["ekrang.card\0s", "/dev/zero", ".", "a" * 5000 + ".cards", "v0.cards/x.cards"]):
        v = tmp_path / f"v{n}.cards"
        text = f'variant v "V" of "{base}"\n'
        v.write_text(text, encoding="utf-8")
        assert cache.source_key(str(v), text) is None
        assert content_hash(v) is not None  # the variant's own text; its base counts as empty
        assert source_of(v).bases == ()
        with pytest.raises(RulesetError) as info:
            load_ruleset(v)
        assert (info.value.line, info.value.column) == (1, 18), info.value.render()
