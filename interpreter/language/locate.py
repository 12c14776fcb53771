"""The lines of every ruleset file read in this process, so that an error found after the
parse (by the builder, the checks, the compiler or either engine) quotes the line it names."""

from __future__ import annotations

from ..errors import RulesetError
from ..files import NotARulesetFile, read_ruleset_file

SOURCES: dict[str, list[str]] = {}  # file name -> its lines


def source_line(loc) -> str | None:
    """The line a location (a graph Loc: file, line, column) names; None when it cannot be read."""
    if not loc:
        return None
    try:
        lines = SOURCES.get(loc.file)
        if lines is None:
            lines = read_ruleset_file(loc.file).splitlines()
        return lines[loc.line - 1]
    except (NotARulesetFile, IndexError):
        return None


def located(msg: str, loc) -> RulesetError:
    """A RulesetError at `loc`, quoting its line."""
    return RulesetError(msg, loc.file if loc else None, loc.line if loc else None,
                        loc.column if loc else None, source_line(loc))
