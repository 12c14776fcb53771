"""Rulesets as text, so that a task carries what it plays: a `Source` (the file's text and its
bases' texts, under the names this machine knows them by) made from a file, and the rulesets a
worker built from sources, kept by key so that each is built once."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import OptionError, RulesetError


@dataclass(frozen=True)
class Source:
    """A ruleset as text: `filename` as this machine names it (errors and locations say it),
    its text, and a variant's bases as (filename, text), nearest first."""

    filename: str
    text: str
    bases: tuple = ()

    @property
    def key(self) -> str:
        h = hashlib.sha256()
        for name, text in ((self.filename, self.text),) + tuple(self.bases):
            h.update(f"{len(name)}:{name}{len(text)}:".encode())
            h.update(text.encode("utf-8", "surrogatepass"))
        return h.hexdigest()


def source_of(path: str | Path) -> Source:
    """Read a ruleset file and the bases it draws on. The name is the one `load_ruleset` uses
    (a bundled game's name becomes its file); a file that cannot be read raises RulesetError
    worded as `load_ruleset` words it."""
    from ..bundled import base_file
    from ..files import variant_base_ref
    from ..language.build import read_text
    from ..files import NotARulesetFile, check_ruleset_name, read_ruleset_file
    path = Path(path)
    display = str(path)
    try:
        check_ruleset_name(path)
    except NotARulesetFile as e:
        raise e.file_error(display) from None
    if not os.path.exists(path):
        from ..bundled import resolve
        try:
            path = resolve(path)
        except OptionError as e:
            raise RulesetError(e.message, display) from None
        display = str(path)
    text = read_text(path, display)
    bases: list[tuple[str, str]] = []
    name, current = display, text
    while len(bases) < 20:
        ref = variant_base_ref(current)
        if ref is None:
            break
        base = str(base_file(ref, name))
        if base == display or any(base == b for b, _ in bases):
            break  # a cycle: the worker's build says so, as load_ruleset would
        try:
            current = read_ruleset_file(base)
        except NotARulesetFile:
            break  # missing, a folder, a device, a name no file can have: the worker's build says which
        bases.append((base, current))
        name = base
    return Source(display, text, tuple(bases))


_LOADED: dict[str, object] = {}   # Source.key -> Ruleset, in this process (a worker builds each once)
_KEEP = 16


def load(source: Source):
    """The ruleset of a Source, built from its texts (CardRulesError when it is invalid)."""
    rs = _LOADED.get(source.key)
    if rs is None:
        from .. import loads_ruleset
        rs = loads_ruleset(source.text, source.filename, dict(source.bases))
        remember(source, rs)
    return rs


def remember(source: Source, rs) -> None:
    """Keep a ruleset already loaded from this source (the client's own, for tasks it plays itself)."""
    _LOADED[source.key] = rs
    while len(_LOADED) > _KEEP:
        del _LOADED[next(iter(_LOADED))]
