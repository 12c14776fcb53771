"""cardrules: card games as data.

The package, room by room from the ground up: `errors`, `files`, `processes` and `bundled`
(the plumbing); `language/` (a `.cards` text to its rule graph, and back); `compiler/` (the
graph to a checked Program); `engine/` (the generic engine: play, observe, records); `native/`
(each ruleset compiled to C, the same games) and `engines` (which of the two plays); `render/`
(rulebooks), `adapters/` (OpenSpiel, PettingZoo, Gymnasium), `solver/` (positions solved,
equilibria); `players/`; `runner/` (many games on workers or a cluster); `diff/`, `fuzz/`,
`balance/`, `playing` and `playthrough`; `lsp/`, `web/`, `studio/`; and `commands/`, the
`cardrules` command line, on top. An import points down a floor, never up. This module is the
API: load a ruleset, start a game, list the legal moves, apply one, read the outcome."""

from __future__ import annotations

from pathlib import Path

from .errors import (CardRulesError, IllegalMoveError, InvalidMoveError, OptionError, RecordError,
                     RulesetError, RulesetSyntaxError)

__all__ = ["load_ruleset", "loads_ruleset", "new_game", "legal_moves", "apply", "outcome", "observe",
           "is_terminal", "replay", "Move", "Outcome", "State", "Ruleset", "CardRulesError",
           "RulesetSyntaxError", "RulesetError", "OptionError", "IllegalMoveError",
           "InvalidMoveError", "RecordError"]

_ENGINE = {"Move", "Outcome", "State", "apply", "is_terminal", "legal_moves", "observe", "outcome", "replay"}


def __getattr__(name: str):
    """The engine and the graph are imported when first asked for, so a command that needs
    neither (a check answered from the cache) starts at once."""
    if name in _ENGINE:
        from . import engine
        return getattr(engine, name)
    if name == "new_game":  # on either engine: engines.new_game(..., engine="python"|"native"|"auto")
        from .engines import new_game
        return new_game
    if name == "Ruleset":
        from .language.graph import Ruleset
        return Ruleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_ruleset(path: str | Path) -> Ruleset:
    """Read a `.cards` file (a game, or a variant with its base) and check it fully. A text
    that compiled before (the same text, bases, grammar and compiler: see cache.checked) is not
    compiled again here; the engine compiles it when a game is first played."""
    from .language import cache
    from .language.build import build_file_keyed
    from .engine import program_of
    rs, key = build_file_keyed(path)
    if cache.checked(key) is None:
        program_of(rs)  # compiling is the validator: unknown names, types, unreachable phases
        cache.remember_checked(key, verdict(rs))
    return rs


def players_text(rs) -> str:
    """How many play: "3 players", "1 player", "2-6 players"."""
    lo, hi = rs.players_min, rs.players_max
    return f"{lo} player" + ("s" if lo != 1 else "") if lo == hi else f"{lo}-{hi} players"


def verdict(rs) -> str:
    """What `check` says of a valid ruleset, after "ok": its title and how many play."""
    return f"{rs.title or rs.name}, {players_text(rs)}"


def loads_ruleset(text: str, filename: str = "<text>", sources: dict[str, str] | None = None) -> Ruleset:
    """Like load_ruleset, from text (a variant's base is looked up relative to filename, in
    `sources` first: {the base's path as the variant names it: its text}, then on disk)."""
    from .language.build import build_text
    from .engine import program_of
    rs = build_text(text, filename, sources=sources)
    program_of(rs)
    return rs
