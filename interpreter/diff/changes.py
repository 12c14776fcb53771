"""The result of a diff: a Diff is a list of Changes, each a sentence with Details under it,
and the sections of a report they fall into."""

from __future__ import annotations

from dataclasses import dataclass

from .phrasing import _plain


@dataclass(frozen=True)
class Detail:
    """One line under a change (marked-up text), with optional lines under it."""

    marked: str
    sub: tuple[str, ...] = ()
    depth: int = 0  # nesting, for the steps of an added rule or phase

    @property
    def text(self) -> str:
        return _plain(self.marked)


@dataclass(frozen=True)
class Change:
    """One difference: what kind of thing, its stable name, added/removed/changed, and a
    sentence in the game's own terms (`sentence` is plain text; `marked` keeps code and
    emphasis for Markdown and HTML). `prose` is true when only the author's words changed."""

    kind: str
    name: str
    action: str
    marked: str
    details: tuple[Detail, ...] = ()
    prose: bool = False

    @property
    def sentence(self) -> str:
        return _plain(self.marked)

    @property
    def text(self) -> str:
        """The sentence and its details as plain text."""
        lines = [self.sentence]
        for d in self.details:
            lines.append(d.text)
            lines.extend(_plain(s) for s in d.sub)
        return "\n".join(lines)


@dataclass(frozen=True)
class Diff:
    """Everything that differs between ruleset a (before) and b (after)."""

    a_name: str
    a_title: str
    b_name: str
    b_title: str
    changes: tuple[Change, ...] = ()
    # b a variant of a: the rules whose words b keeps from a while it replaces a definition or
    # procedure they name, (name, title, the names), which the author should read again
    kept_words: tuple = ()

    @property
    def identical(self) -> bool:
        return not self.changes

    @property
    def rule_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.prose)

    @property
    def prose_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.prose)

    def find(self, kind: str | None = None, name: str | None = None) -> list[Change]:
        return [c for c in self.changes if (kind is None or c.kind == kind) and (name is None or c.name == name)]


# The sections of a report, in order, and the kinds of change each holds.
SECTIONS = [
    ("game", "The game", ("game", "players", "direction", "bound", "start", "winner", "sides", "text")),
    ("cards", "The cards", ("deck", "deck order")),
    ("zones", "Where the cards lie", ("zone",)),
    ("options", "Options", ("option",)),
    ("variables", "Variables", ("variable",)),
    ("terms", "Terms", ("definition",)),
    ("play", "How to play", ("phase", "rule")),
    ("procedures", "Procedures", ("procedure",)),
    ("interpretations", "Where the source is silent", ("interpretation",)),
    ("advice", "Advice on play", ("advice",)),
]
_SECTION_OF = {k: i for i, (_, _, kinds) in enumerate(SECTIONS) for k in kinds}
