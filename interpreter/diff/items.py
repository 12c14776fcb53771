"""The comparison of everything named at the top of a ruleset: the game as a whole, the deck,
zones, options, variables, definitions, advice and interpretations."""

from __future__ import annotations

from ..language import graph as g
from ..render import code
from ..language.unparse import unparse
from .lines import _PROSE, _Side, _ekey, _fields, _params_env, _params_key
from .changes import Detail
from .phrasing import (_advice_source, _allowed, _and, _cap, _define_source, _fmt, _human, _order_change, _params_words,
                    _players, _q, _sides, _src, _var, _winner)


class _ItemChanges:
    """The named items' part of `_Differ` (compare.py), which holds both rulesets (`a`, `b`) and
    their sides (`A`, `B`) and provides `add` and `prose_lines`."""

    a: g.Ruleset
    b: g.Ruleset
    A: _Side
    B: _Side

    # ---- the game as a whole
    def game(self) -> None:
        a, b = self.a, self.b
        if (a.name, a.title) != (b.name, b.title):
            self.add("game", b.name, "changed",
                     f"The game is now {_q(b.title or b.name)} ({code(b.name)}); it was "
                     f"{_q(a.title or a.name)} ({code(a.name)})", prose=True)
        if (a.base, a.base_title) != (b.base, b.base_title):
            now = f"a variant of {_q(b.base_title or b.base)}" if b.base else "a game of its own"
            was = f"a variant of {_q(a.base_title or a.base)}" if a.base else "a game of its own"
            self.add("game", b.name, "changed", f"It is now {now} (was {was})", prose=True)
        for attr, what in (("texts", "The game's introduction"), ("variant_texts", "The variant's introduction"),
                           ("notes", "The game's note")):
            self.prose_lines("text", attr, what, getattr(a, attr), getattr(b, attr))
        if (a.players_min, a.players_max) != (b.players_min, b.players_max):
            self.add("players", "players", "changed",
                     f"Players: for {_players(b.players_min, b.players_max)} "
                     f"(was {_players(a.players_min, a.players_max, short=True)})")
        if a.direction != b.direction:
            self.add("direction", "direction", "changed",
                     f"Turn order: play now passes {b.direction} (was {a.direction})")
        if a.max_decisions != b.max_decisions:
            now = f"at most {b.max_decisions} decisions" if b.max_decisions else "no declared bound"
            was = f"at most {a.max_decisions}" if a.max_decisions else "no declared bound"
            self.add("bound", "max_decisions", "changed", f"Length: a game now takes {now} (was {was})")
        if a.winner != b.winner and (a.winner is None or b.winner is None or
                                     (a.winner.rule, a.winner.score) != (b.winner.rule, b.winner.score)):
            self.add("winner", "winner", "changed" if a.winner and b.winner else ("added" if b.winner else "removed"),
                     f"Winning: {_winner(b.winner)} (was: {_winner(a.winner)})")
        if (a.sides and a.sides.by) != (b.sides and b.sides.by):
            self.add("sides", "sides", "changed" if a.sides and b.sides else ("added" if b.sides else "removed"),
                     f"Sides: {_sides(b.sides)} (was: {_sides(a.sides)})")
        first_a = a.phases[0].name if a.phases else None
        first_b = b.phases[0].name if b.phases else None
        if first_a != first_b and first_a in self.B.phases and first_b in self.A.phases:
            self.add("start", "phases", "changed",
                     f"The game now starts with phase {code(first_b)} (was {code(first_a)})")
        handled = {"loc", "name", "title", "base", "base_title", "source", "players_min", "players_max",
                   "direction", "max_decisions", "deck", "zones", "options", "vars", "defines", "procedures",
                   "phases", "interpretations", "winner", "sides", "texts", "variant_texts", "notes", "changes", "advice"}
        for f in type(a).model_fields:
            if f not in handled and _ekey(getattr(a, f), {}) != _ekey(getattr(b, f), {}):
                self.add("game", f, "changed", f"The game's {_human(f)} changed")

    # ---- the deck
    def deck(self) -> None:
        da, db = self.a.deck, self.b.deck
        na = len(da.suits) * len(da.ranks) * da.copies
        nb = len(db.suits) * len(db.ranks) * db.copies
        renamed = (da.name, da.title) != (db.name, db.title)

        def pack(d: g.Deck, n: int) -> str:
            return f"the {_q(d.title or _human(d.name))} ({code(d.name)}), {n} cards in {len(d.suits)} suits"

        if da.suits != db.suits:
            gone = [s for s in da.suits if s not in db.suits]
            new = [s for s in db.suits if s not in da.suits]
            if renamed and (set(da.suits).isdisjoint(db.suits) or na != nb):
                sentence = f"The deck is now {pack(db, nb)}: {_and(db.suits)}; it was {pack(da, na)}: {_and(da.suits)}"
                renamed = False
            elif not new and not gone:
                sentence = f"The suits are now listed in the order {_and(db.suits)} (was {_and(da.suits)})"
            else:
                bits = []
                if new:
                    bits.append(f"suit{'s' if len(new) > 1 else ''} {_and(new)} added")
                if gone:
                    bits.append(f"suit{'s' if len(gone) > 1 else ''} {_and(gone)} removed")
                sentence = _cap("; ".join(bits)) + f": now {len(db.suits)} suits (was {len(da.suits)})"
                if na != nb:
                    sentence += f"; the pack now has {nb} cards (was {na})"
            self.add("deck", db.name, "changed", sentence)
        if renamed:
            self.add("deck", db.name, "changed",
                     f"The deck is now called the {_q(db.title or _human(db.name))} ({code(db.name)}); it was the "
                     f"{_q(da.title or _human(da.name))} ({code(da.name)})", prose=True)
        if da.ranks != db.ranks:
            self.add("deck", db.name, "changed", f"Ranks: {_order_change(da.ranks, db.ranks, db)}"
                     + (f"; the pack now has {nb} cards (was {na})" if na != nb and da.suits == db.suits else ""))
        if da.copies != db.copies:
            self.add("deck", db.name, "changed", f"Copies: now {db.copies} of each card (was {da.copies})")
        # per-suit orders, suits with the same change together
        groups: dict[tuple, list[str]] = {}
        for s in db.suits:
            if s not in da.suits or (s not in da.orders and s not in db.orders):
                continue  # a suit that ranks like the deck: the change of the deck's ranks says it
            old, new = da.order_of(s), db.order_of(s)
            if old != new:
                groups.setdefault((old, new), []).append(s)
        for (old, new), suits in groups.items():
            self.add("deck order", ", ".join(suits), "changed",
                     f"In {_and(suits)} {_order_change(old, new, db)}")
        for name in _names(da.groups, db.groups):
            ga, gb = da.groups.get(name), db.groups.get(name)
            if ga is None:
                self.add("deck", name, "added", f"Rank group {code(name)} added: {_and(gb)}")
            elif gb is None:
                self.add("deck", name, "removed", f"Rank group {code(name)} removed (it was {_and(ga)})")
            elif sorted(ga) != sorted(gb):
                self.add("deck", name, "changed", f"Rank group {code(name)} is now {_and(gb)} (was {_and(ga)})")
        for name in _names(da.values, db.values):
            va, vb = da.values.get(name), db.values.get(name)
            pairs = lambda v: ", ".join(f"{r} = {n}" for r, n in v.items())
            if va is None:
                self.add("deck", name, "added", f"Card value {code(name)} added: {pairs(vb)}")
            elif vb is None:
                self.add("deck", name, "removed", f"Card value {code(name)} removed (it was {pairs(va)})")
            elif va != vb:
                diff = [f"{r} = {vb.get(r, 'none')} (was {va.get(r, 'none')})" for r in _names(va, vb)
                        if va.get(r) != vb.get(r)]
                self.add("deck", name, "changed", f"Card value {code(name)}: {', '.join(diff)}")
        handled = {"loc", "name", "title", "suits", "ranks", "copies", "groups", "orders", "values", "texts", "notes"}
        for f in type(da).model_fields:
            if f not in handled and _ekey(getattr(da, f), {}) != _ekey(getattr(db, f), {}):
                self.add("deck", db.name, "changed", f"The deck's {_human(f)} changed")
        self.prose_lines("deck", db.name, "The deck's description", da.texts, db.texts)
        self.prose_lines("deck", db.name, "The deck's notes", da.notes, db.notes)

    # ---- named items
    def zones(self) -> None:
        za = {z.name: z for z in self.a.zones}
        zb = {z.name: z for z in self.b.zones}
        vis = {"hidden": "nobody sees its cards", "owner": "only its owner sees its cards",
               "others": "everyone but its owner sees its cards", "public": "everyone sees its cards"}

        def describe(z: g.Zone) -> str:
            kind = "one per player" if z.per_player else (f"a shared family of {z.size}" if getattr(z, "size", None)
                                                          else "shared")
            return f"{kind}, {vis[z.visibility]}"

        for name in _names(za, zb):
            x, y = za.get(name), zb.get(name)
            label = f"Zone {code(name)}" + (f" ({_q((y or x).title)})" if (y or x).title else "")
            if x is None:
                self.add("zone", name, "added", f"{label} added: {describe(y)}")
            elif y is None:
                self.add("zone", name, "removed", f"{label} removed (it was {describe(x)})")
            else:
                if _item_key(x) != _item_key(y):
                    self.add("zone", name, "changed", f"{label} is now {describe(y)} (was {describe(x)})")
                if x.title != y.title:
                    self.add("zone", name, "changed",
                             f"Zone {code(name)} is now called {_q(y.title or '')} (was {_q(x.title or '')})", prose=True)
        sa = self.a.zones[0].name if self.a.zones else None
        sb = self.b.zones[0].name if self.b.zones else None
        if sa != sb and sa in zb and sb in za:
            self.add("zone", sb, "changed", f"All cards now start in zone {code(sb)} (was {code(sa)})")

    def options(self) -> None:
        oa = {o.name: o for o in self.a.options}
        ob = {o.name: o for o in self.b.options}
        for name in _names(oa, ob):
            x, y = oa.get(name), ob.get(name)
            if x is None:
                self.add("option", name, "added", f"Option {code(name)} added: {_allowed(y)}, default "
                         f"{_fmt(y.default)}" + (f" \u2014 {_q(y.description)}" if y.description else ""))
                continue
            if y is None:
                self.add("option", name, "removed", f"Option {code(name)} removed (it was {_allowed(x)}, default "
                         f"{_fmt(x.default)})")
                continue
            if (x.type, sorted(x.choices), x.low, x.high) != (y.type, sorted(y.choices), y.low, y.high):
                self.add("option", name, "changed", f"Option {code(name)} now takes {_allowed(y)} (was {_allowed(x)})")
            if x.default != y.default or type(x.default) is not type(y.default):
                about = f" \u2014 {_q(y.description)}" if y.description else ""
                self.add("option", name, "changed",
                         f"Option {code(name)}: the default is now {_fmt(y.default)} (was {_fmt(x.default)}){about}")
            handled = {"loc", "name", "type", "choices", "low", "high", "default", "description", "texts", "notes"}
            for f in type(x).model_fields:
                if f not in handled and _ekey(getattr(x, f), {}) != _ekey(getattr(y, f), {}):
                    self.add("option", name, "changed", f"Option {code(name)}: its {_human(f)} changed")
            if x.description != y.description:
                self.prose_lines("option", name, "", [x.description or ""], [y.description or ""],
                                 sentence=f"Option {code(name)}: its description changed")
            self.prose_lines("option", name, "", x.texts, y.texts, sentence=f"Option {code(name)}: its text changed")
            self.prose_lines("option", name, "", x.notes, y.notes, sentence=f"Option {code(name)}: its notes changed")

    def variables(self) -> None:
        va = {v.name: v for v in self.a.vars}
        vb = {v.name: v for v in self.b.vars}
        for name in _names(va, vb):
            x, y = va.get(name), vb.get(name)
            if x is None:
                self.add("variable", name, "added", f"Variable {code(name)} added: {_var(y)}")
            elif y is None:
                self.add("variable", name, "removed", f"Variable {code(name)} removed (it was {_var(x)})")
            elif _item_key(x) != _item_key(y):
                self.add("variable", name, "changed", f"Variable {code(name)} is now {_var(y)} (was {_var(x)})")

    def definitions(self) -> None:
        da = {d.name: d for d in self.a.defines}
        db = {d.name: d for d in self.b.defines}
        only_a = {n: _item_key(d) for n, d in da.items() if n not in db}
        renamed: dict[str, str] = {}
        for n, d in db.items():
            if n not in da:
                hit = next((m for m, k in only_a.items() if k == _item_key(d) and m not in renamed.values()), None)
                if hit is not None:
                    renamed[n] = hit
        for name in _names(da, db):
            x, y = da.get(name), db.get(name)
            if name in renamed.values():
                continue
            if name in renamed:
                self.add("definition", name, "changed",
                         f"Definition {code(renamed[name])} is now called {code(name)} (its meaning is the same: "
                         f"{_meaning(y, self.B)})", [f"source: {_src(_define_source(y))}"])
                continue
            if x is None:
                self.add("definition", name, "added",
                         f"Definition {code(name)} added: {_meaning(y, self.B)}",
                         [f"source: {_src(_define_source(y))}"])
                continue
            if y is None:
                self.add("definition", name, "removed",
                         f"Definition {code(name)} removed (it was: {_meaning(x, self.A)})",
                         [f"source was: {_src(_define_source(x))}"])
                continue
            same_play = _item_key(x) == _item_key(y)
            same_words = (x.texts, x.notes) == (y.texts, y.notes)
            if not same_play:
                details = [Detail(f"source now: {_src(_define_source(y))}", (f"was: {_src(_define_source(x))}",))]
                if x.texts != y.texts:
                    details.append(Detail(f"the author's words now: {_q(' '.join(y.texts)) if y.texts else '(none)'}",
                                          (f"were: {_q(' '.join(x.texts)) if x.texts else '(none)'}",)))
                elif y.texts:
                    details.append(Detail(f"the author's words (unchanged): {_q(' '.join(y.texts))}"))
                if x.notes != y.notes:
                    details.append(Detail(f"its note now: {_q(' '.join(y.notes)) if y.notes else '(none)'}",
                                          (f"was: {_q(' '.join(x.notes)) if x.notes else '(none)'}",)))
                if _params_key(x.params) != _params_key(y.params):
                    details.insert(0, Detail(f"it now applies to {_params_words(y.params)} "
                                             f"(was {_params_words(x.params)})"))
                self.add("definition", name, "changed",
                         f"Definition {code(name)}: before, {_q(self.A.define_words(x))}; "
                         f"now {_q(self.B.define_words(y))}", details)
            elif not same_words:
                details = []
                if x.texts != y.texts:
                    details.append(Detail(f"now: {_q(' '.join(y.texts)) if y.texts else '(none)'}",
                                          (f"was: {_q(' '.join(x.texts)) if x.texts else '(none)'}",)))
                if x.notes != y.notes:
                    details.append(Detail(f"its note now: {_q(' '.join(y.notes)) if y.notes else '(none)'}",
                                          (f"was: {_q(' '.join(x.notes)) if x.notes else '(none)'}",)))
                self.add("definition", name, "changed",
                         f"Definition {code(name)}: the author's words changed (its meaning did not)", details,
                         prose=True)

    def advice(self) -> None:
        aa = {x.name: x for x in self.a.advice}
        ab = {x.name: x for x in self.b.advice}

        def words(side, x) -> str:
            en = side.english({p.name: p.type for p in x.params})
            try:
                return en(x.body)
            except Exception:  # words are a courtesy; the source says it exactly
                return code(unparse(x.body))

        for name in _names(aa, ab):
            x, y = aa.get(name), ab.get(name)
            if x is None:
                self.add("advice", name, "added", f"Advice {code(name)} added: {_q(y.summary)}, precisely "
                         f"{_q(words(self.B, y))}", [f"source: {_src(_advice_source(y))}"])
            elif y is None:
                self.add("advice", name, "removed", f"Advice {code(name)} removed (it was {_q(x.summary)})",
                         [f"source was: {_src(_advice_source(x))}"])
            elif _item_key(x) != _item_key(y):
                self.add("advice", name, "changed", f"Advice {code(name)}: before, {_q(words(self.A, x))}; "
                         f"now {_q(words(self.B, y))}",
                         [Detail(f"source now: {_src(_advice_source(y))}", (f"was: {_src(_advice_source(x))}",))])
            elif (x.summary, x.texts, x.notes) != (y.summary, y.texts, y.notes):
                self.add("advice", name, "changed", f"Advice {code(name)}: the author's words changed "
                         f"(its meaning did not): now {_q(y.summary)}, was {_q(x.summary)}", prose=True)

    def interpretations(self) -> None:
        ia = {i.name: i for i in self.a.interpretations}
        ib = {i.name: i for i in self.b.interpretations}
        for name in _names(ia, ib):
            x, y = ia.get(name), ib.get(name)
            if x is None:
                self.add("interpretation", name, "added", f"Interpretation {code(name)} added: {_q(y.question)}",
                         [f"answer: {_q(' '.join(y.texts))}"] if y.texts else [], prose=True)
            elif y is None:
                self.add("interpretation", name, "removed", f"Interpretation {code(name)} removed: {_q(x.question)}",
                         prose=True)
            elif _ekey(x, {}) != _ekey(y, {}):
                details = []
                if x.question != y.question:
                    details.append(Detail(f"question now: {_q(y.question)}", (f"was: {_q(x.question)}",)))
                if x.texts != y.texts:
                    details.append(Detail(f"answer now: {_q(' '.join(y.texts))}", (f"was: {_q(' '.join(x.texts))}",)))
                if x.notes != y.notes:
                    details.append(Detail(f"note now: {_q(' '.join(y.notes))}", (f"was: {_q(' '.join(x.notes))}",)))
                self.add("interpretation", name, "changed", f"Interpretation {code(name)} ({_q(y.question)}) changed",
                         details, prose=True)


def _item_key(node) -> tuple:
    """A named top-level item's meaning: every field but its name and prose, parameters by position."""
    env = _params_env(getattr(node, "params", ()))
    return tuple((f, _params_key(getattr(node, f)) if f == "params" else _ekey(getattr(node, f), env))
                 for f in _fields(node) if f not in _PROSE and f != "name")


def _names(a: dict, b: dict) -> list[str]:
    """B's names in B's order, then those only A has, in A's order."""
    return list(b) + [n for n in a if n not in b]


def _meaning(d: g.Define, side: _Side) -> str:
    text = _q(side.define_words(d))
    if d.texts:
        text = f"{_q(' '.join(d.texts))}, precisely {text}"
    return text
