"""One error root, one class per stage. Each carries where the problem is and a message
a rules author can act on, rendered as `file:line:col: error: ...` plus the line and a caret."""

from __future__ import annotations


class CardRulesError(Exception):
    """The root of every error this tool raises on purpose."""

    stage = "error"

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None, source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line:
                where += f":{self.line}"
                if self.column:
                    where += f":{self.column}"
            where += ": "
        text = f"{where}error: {self.message}"
        if self.source_line is not None and self.column:
            line = self.source_line.rstrip("\n").expandtabs(1)
            text += f"\n    {line}\n    {' ' * (self.column - 1)}^"
        return text


class RulesetSyntaxError(CardRulesError):
    """The text does not follow the grammar."""

    stage = "parse"


class RulesetError(CardRulesError):
    """The text parses but does not make a valid game: unknown names, wrong types, ..."""

    stage = "validate"


class OptionError(CardRulesError):
    """An option given on the command line or to new_game is unknown or has a bad value."""

    stage = "options"


class InvalidMoveError(CardRulesError):
    """A move's text is malformed: it names no action or no card the game knows."""

    stage = "move"


class IllegalMoveError(CardRulesError):
    """A well-formed move that the rules do not allow now."""

    stage = "move"


class GameRuntimeError(CardRulesError):
    """The ruleset asked the engine for something impossible while playing (e.g. `.owner` of none)."""

    stage = "engine"


class GameTooLong(GameRuntimeError):
    """A game that is not over after the decisions its ruleset allows (`at most N decisions`,
    or the engine's default cap when it declares none) asks for another: it stops there, at the
    rule it is in, rather than run for ever. `decisions` is the bound, `declared` whether the
    ruleset declared it."""

    decisions: int = 0
    declared: bool = False


class RecordError(CardRulesError):
    """A saved game record is corrupt or does not replay."""

    stage = "record"
