"""The rulesets a server offers: every bundled game and variant, the files named on the command
line, and any ruleset a saved table was played with. Each has a short key that is safe in a
URL; its rule graph and its HTML rulebook are made once and kept until the file (or the base
of a variant) changes: a designer who edits a ruleset while the server runs gets the new rules
at the next table opened, and a located error if the edit broke it. Tables already open keep
the rules they started with."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .. import load_ruleset
from ..bundled import bundled, bundled_name, content_hash


@dataclass
class Entry:
    """One ruleset on offer."""

    key: str  # 'family/stem' for a bundled game, 'file/stem' for one named on the command line
    path: Path
    listed: bool = True  # shown on the front page (a ruleset found only through a saved table is not)
    _ruleset: object = field(default=None, repr=False)
    _book: tuple | None = field(default=None, repr=False)
    _hash: str | None = field(default=None, repr=False)  # the texts the rule graph was made from


class Catalog:
    """Rulesets by key. Loading and rendering happen on first use, under one lock (the routes
    run in threads for the slow parts)."""

    def __init__(self, given: list[tuple[Path, object]] = (), include_bundled: bool = True):
        self._entries: dict[str, Entry] = {}
        self._by_path: dict[str, str] = {}
        self._lock = threading.RLock()
        for path, rs in given:
            self.add(path, ruleset=rs)
        if include_bundled:
            for name, path in sorted(bundled().items()):
                if "/" in name:
                    self.add(path)

    def add(self, path: Path, listed: bool = True, ruleset=None) -> Entry:
        """The entry of a ruleset file, made on first sight; `ruleset`: its rule graph, already
        loaded (kept while the file's texts are unchanged: the studio's tables are made from the
        graph it loaded, not from a second reading)."""
        path = Path(path)
        real = str(path.resolve())
        with self._lock:
            if real in self._by_path:
                e = self._entries[self._by_path[real]]
                e.listed = e.listed or listed
                if ruleset is not None:
                    e._ruleset, e._book, e._hash = ruleset, None, content_hash(path)
                return e
            name = bundled_name(path)
            if name is not None:
                key = name
            else:
                stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", path.stem) or "ruleset"
                key, n = f"file/{stem}", 2
                while key in self._entries:
                    key, n = f"file/{stem}-{n}", n + 1
            e = self._entries[key] = Entry(key, path, listed)
            self._by_path[real] = key
            if ruleset is not None:
                e._ruleset, e._hash = ruleset, content_hash(path)
            return e

    def get(self, key: str) -> Entry | None:
        return self._entries.get(key)

    def entries(self) -> list[Entry]:
        return [e for e in self._entries.values() if e.listed]

    def ruleset(self, key: str):
        """The checked rule graph (CardRulesError when it does not load)."""
        e = self._entries[key]
        with self._lock:
            now = content_hash(e.path)
            if e._ruleset is None or now != e._hash:
                e._ruleset = e._book = None
                e._ruleset, e._hash = load_ruleset(e.path), now
            return e._ruleset

    def rulebook(self, key: str) -> tuple[str, dict[str, str]]:
        """The HTML rulebook and, for each rule's name, the anchor of its first description
        (`rule-<phase>-<number>`), to point at the rule being played."""
        from ..render import BookBuilder, render_html
        e = self._entries[key]
        rs = self.ruleset(key)
        with self._lock:
            if e._book is None:
                builder = BookBuilder(rs)
                builder.phase_views()
                anchors = {name: found[2] for name, found in builder.first_number.items()}
                e._book = (render_html(rs), anchors)
            return e._book
