"""Every broken ruleset in tests/broken/ gets a located, readable message: the file, line and
column, the offending line with a caret, and what was expected. Never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import CardRulesError, RulesetError, RulesetSyntaxError, load_ruleset, loads_ruleset

BROKEN = sorted((Path(__file__).parent / "broken").glob("*.cards"))


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
