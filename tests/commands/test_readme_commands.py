"""The README's table of commands names every command the command line has (`fuzz` and `lsp`
were once missing), and says where `rulebook --out` writes a book, as the command does."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from interpreter.commands.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_has_a_row_in_the_readmes_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## The command line"):text.index("## A short tour of the language")]
    rows = set(re.findall(r"^\| `cardrules (\w+)", table, re.M))
    assert set(typer.main.get_command(app).commands) <= rows, sorted(set(typer.main.get_command(app).commands) - rows)


def test_rulebook_out_writes_where_the_readme_says(tmp_path):
    from typer.testing import CliRunner
    src = ROOT / "rulesets" / "mughal" / "udvasa.cards"
    mine = tmp_path / "mine"
    mine.mkdir()
    copy = mine / "solo.cards"
    copy.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    r = CliRunner().invoke(app, ["rulebook", str(copy), str(src), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out" / "solo.md").is_file()  # a file of one's own: DIR/<name>.md
    assert (tmp_path / "out" / "mughal" / "udvasa.md").is_file()  # under rulesets/: DIR/<folder>/<name>.md
