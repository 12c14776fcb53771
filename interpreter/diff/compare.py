"""The comparison itself: `diff_rulesets(a, b)` runs every part of it (items.py, rules.py) and
sorts the changes into the sections of a report."""

from __future__ import annotations

from ..language import graph as g
from ..language.inherited import words_to_check
from .items import _ItemChanges
from .lines import _Side
from .changes import SECTIONS, Change, Detail, Diff, _SECTION_OF
from .rules import _RuleChanges
from .phrasing import _q


class _Differ(_ItemChanges, _RuleChanges):
    """Compares ruleset a (before) with b (after): each part adds its Changes, `run` sorts them."""

    def __init__(self, a: g.Ruleset, b: g.Ruleset):
        self.a, self.b = a, b
        self.A, self.B = _Side(a), _Side(b)
        self.out: list[Change] = []

    def add(self, kind, name, action, marked, details=(), prose=False) -> None:
        self.out.append(Change(kind, name, action, marked, tuple(
            d if isinstance(d, Detail) else Detail(d) for d in details), prose))

    def run(self) -> Diff:
        self.game()
        self.deck()
        self.zones()
        self.options()
        self.variables()
        self.definitions()
        self.phases_and_procedures()
        self.interpretations()
        self.advice()
        order = {id(c): i for i, c in enumerate(self.out)}
        changes = sorted(self.out, key=lambda c: (c.prose, _SECTION_OF.get(c.kind, len(SECTIONS)), order[id(c)]))
        kept = tuple((name, title, tuple(used)) for _, name, title, used in words_to_check(self.b)) \
            if self.b.base == self.a.name else ()
        return Diff(self.a.name, self.a.title or self.a.name, self.b.name, self.b.title or self.b.name,
                    tuple(changes), kept)

    def prose_lines(self, kind, name, what, old, new, sentence=None) -> None:
        if tuple(old) == tuple(new):
            return
        if not old:
            self.add(kind, name, "added", sentence or f"{what} is new: {_q(' '.join(new))}", prose=True)
        elif not new:
            self.add(kind, name, "removed", sentence or f"{what} is gone (it was {_q(' '.join(old))})", prose=True)
        else:
            self.add(kind, name, "changed", sentence or f"{what} changed",
                     [f"now: {_q(' '.join(new))}", f"was: {_q(' '.join(old))}"], prose=True)


def diff_rulesets(a: g.Ruleset, b: g.Ruleset) -> Diff:
    """What b adds, removes or changes relative to a (both loaded rulesets)."""
    return _Differ(a, b).run()
