"""The checks that need no expression compiled: the deck, the options, names, phases that
can be reached, procedures that perform themselves."""

from __future__ import annotations

import difflib

from ..language import graph as g
from ..language import sizes
from .program import _err


class Checks:
    # ------------------------------------------------------------------ checks
    MAX_CARDS = sizes.MAX_CARDS

    def _check_deck(self, deck: g.Deck):
        if deck.size() > self.MAX_CARDS:
            raise _err(f"deck {deck.name!r} has {deck.size()} cards; this tool plays decks of at most "
                       f"{self.MAX_CARDS}", deck)
        for label, items in (("suit", deck.suits), ("rank", deck.ranks)):
            dup = [x for i, x in enumerate(items) if x in items[:i]]
            if dup:
                raise _err(f"{label} {dup[0]!r} is listed twice in deck {deck.name!r}", deck)
        both = set(deck.suits) & set(deck.ranks)
        if both:
            raise _err(f"{sorted(both)[0]!r} is both a suit and a rank; names must be unique", deck)
        if deck.copies < 1:
            raise _err("copies must be at least 1", deck)
        for gname, ranks in deck.groups.items():
            for r in ranks:
                if r not in deck.ranks:
                    raise _err(f"group {gname!r} names {r!r}, which is not a rank of the deck", deck)

    def _check_option(self, o: g.Option):
        d = o.default
        if o.type == "bool" and not isinstance(d, bool):
            raise _err(f"option {o.name!r} is a bool; its default must be true or false, not {d!r}", o)
        if o.type == "int":
            if isinstance(d, bool) or not isinstance(d, int):
                raise _err(f"option {o.name!r} is a number; its default must be a number, not {d!r}", o)
            if o.low is not None and not (o.low <= d <= o.high):
                raise _err(f"option {o.name!r}: default {d} is outside {o.low}..{o.high}", o)
        if o.type == "enum" and d not in o.choices:
            raise _err(f"option {o.name!r}: default {d!r} is not one of {', '.join(o.choices)}", o)

    def _check_names(self):
        rs = self.rs
        taken: dict[str, str] = {}

        def claim(name, what, node):
            if name in taken and taken[name] != what:
                def a(w):
                    return ("an " if w[0] in "aeiou" else "a ") + w
                raise _err(f"{name!r} is already used as {a(taken[name])}; it cannot also be {a(what)}", node)
            taken[name] = what

        for s in rs.deck.suits:
            claim(s, "suit", rs.deck)
        for r in rs.deck.ranks:
            if not r.isdigit():
                claim(r, "rank", rs.deck)
        for gname in rs.deck.groups:
            claim(gname, "rank group", rs.deck)
        for z in rs.zones:
            claim(z.name, "zone", z)
        for o in rs.options:
            claim(o.name, "option", o)
        for v in rs.vars:
            claim(v.name, "variable", v)
        for d in rs.defines:
            claim(d.name, "definition", d)
        for a in rs.advice:  # (advice is not called by name, but one name for two things misleads the reader)
            claim(a.name, "advice", a)
        for name, opt in self.enum_values.items():
            claim(name, f"value of option {opt}", rs.option(opt))
        for ph in rs.phases:
            if ph.then and ph.then not in self.phases:
                raise _err(f"phase {ph.name!r} continues with {ph.then!r}, which is not a phase"
                           + self._suggest(ph.then, self.phases), ph)
        reached, nxt = set(), rs.phases[0].name if rs.phases else None
        while nxt is not None and nxt not in reached:  # follow 'then' from the first phase
            reached.add(nxt)
            nxt = self.phases[nxt].then
        for ph in rs.phases[1:]:
            if ph.name not in reached:
                raise _err(f"phase {ph.name!r} can never be reached: the game starts with phase "
                           f"{rs.phases[0].name!r} and no chain of 'then' from it leads here "
                           f"(add 'then {ph.name}' to the phase that should come before it)", ph)
        if not rs.phases:
            raise _err("a game needs at least one phase", rs)
        if not rs.zones:
            raise _err("a game needs at least one zone; the cards start in the first one declared", rs)
        if rs.zones[0].per_player:
            raise _err(f"the cards start in the first zone declared, so it must be shared; "
                       f"{rs.zones[0].name!r} is per player (declare the stock first)", rs.zones[0])

    def _suggest(self, name, pool) -> str:
        close = difflib.get_close_matches(name, list(pool), n=1)
        return f"; did you mean {close[0]!r}?" if close else ""

    def _check_recursion(self):
        calls: dict[str, set[str]] = {}

        def walk(stmts, out):
            for s in stmts:
                if isinstance(s, g.Perform):
                    out.add(s.name)
                for block in g.child_blocks(s):
                    walk(block, out)
        for proc in self.rs.procedures:
            calls[proc.name] = set()
            walk(proc.body, calls[proc.name])

        def visit(name, path):
            if name in path:
                cycle = " -> ".join(path[path.index(name):] + [name])
                raise _err(f"procedure {name!r} performs itself ({cycle}); procedures cannot be recursive",
                           self.procs[name])
            for nxt in calls.get(name, ()):
                visit(nxt, path + [name])
        for name in calls:
            visit(name, [])

