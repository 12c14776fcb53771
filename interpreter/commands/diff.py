"""`cardrules diff A B`, and `python -m interpreter.diff` (`main`), which regenerates the
committed diff pages. The comparison and the report are imported when a command runs, so the
command line starts without them."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import CardRulesError
from ..runner import ENGINE_HELP



class Format(str, Enum):
    text = "text"
    md = "md"
    html = "html"


def diff_command(
    a: Annotated[Path, typer.Argument(metavar="A", help="The ruleset before (usually the base game).", show_default=False)],
    b: Annotated[Path, typer.Argument(metavar="B", help="The ruleset after (usually a variant of it).", show_default=False)],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text for a terminal, md, or html (a printable page).")] = Format.text,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of the terminal.")] = None,
    redline: Annotated[bool, typer.Option("--redline/--no-redline", help="Add the rulebook redline after the list of changes.")] = True,
    play: Annotated[int, typer.Option("--play", metavar="K", min=0, help="Also play K games of each with random players (same seeds) and add a table of what changes in play.")] = 0,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP + " (With --play.)")] = "auto",
) -> None:
    """Compare two rulesets by meaning, not text: what B adds, removes or changes relative to A,
    then the two rulebooks as a redline. Exit 0 identical in meaning, 1 different, 2 an error."""
    from .. import load_ruleset
    from ..render import write_file
    from ..diff.compare import diff_rulesets
    from ..diff.report import render_diff

    rulesets = []
    for p in (a, b):
        try:
            rulesets.append(load_ruleset(p))
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        except OSError as e:
            typer.echo(f"{p}: error: cannot read the ruleset: {e.strerror or e}", err=True)
            raise typer.Exit(2)
    ra, rb = rulesets
    choice = None
    if play:
        from ..engine import program_of
        from ..errors import OptionError
        from ..engines import choose
        try:
            choice = choose([program_of(ra), program_of(rb)], engine_name)
        except OptionError as e:
            typer.echo(f"error: {e.message}", err=True)
            raise typer.Exit(2)
        typer.echo(choice.line, err=True)
    diff = diff_rulesets(ra, rb)
    text = render_diff(diff, ra, rb, fmt.value, labels=(str(a), str(b)), redline=redline)
    if play:
        from ..balance import comparison_table, play_comparison
        from ..errors import OptionError
        try:
            table = comparison_table(play_comparison(ra, rb, (str(a), str(b)), play, engine=choice.name), fmt.value)
        except OptionError as e:
            typer.echo(f"error: {e.message}", err=True)
            raise typer.Exit(2)
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        if fmt.value == "html" and "</body>" in text:
            text = text.replace("</body>", table + "</body>", 1)
        else:
            text = text.rstrip("\n") + "\n\n" + table
    if out is not None:
        try:
            write_file(out, text)
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            raise typer.Exit(2)
        typer.echo(str(out))
    else:
        typer.echo(text, nl=False)
    raise typer.Exit(0 if diff.identical else 1)
