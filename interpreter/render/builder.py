"""Rulebook stage 3, the book's model: the rules and phases found in the graph (`RuleFinder`),
numbered and laid out by `BookBuilder` into the dict the templates read. The quick reference and
the picture of the turn are added by context.py, which stands above both."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..language import graph as g
from ..language.unparse import unparse
from .markup import _TYPE_PHRASE, _cap, _fmt_value, _param, _plain_list, _sentence, code, em, human, link, most
from .output import slug
from .steps import Describer, Step
from .words import English, name_phrase


@dataclass
class RuleView:
    number: int
    id: str
    name: str
    title: str
    when: str | None
    texts: tuple[str, ...]
    notes: tuple[str, ...]
    steps: list[Step]
    origin: str | None
    changed: bool
    line: int | None = None  # the rule's source line, only when the book marks them (the studio's)
    file: str | None = None  # ... and its file, when not the one marked (a variant's base)


@dataclass
class PhaseView:
    number: int
    id: str
    heading: str
    name: str
    title: str
    texts: tuple[str, ...]
    notes: tuple[str, ...]
    outline: list[Step] | None
    summary: str | None
    rules: list[RuleView]
    then: str
    changed: bool
    line: int | None = None  # the phase's source line, only when the book marks them (the studio's)
    file: str | None = None  # ... and its file, when not the one marked (a variant's base)


@dataclass
class _Found:
    rule: g.Rule
    scope: dict
    origin: str | None


class RuleFinder:
    """Walks a phase in statement order, following performed procedures (each once), and
    numbers every rule it meets: the numbering a phase's section shows."""

    def __init__(self, book: "BookBuilder", en: English):
        self.book = book
        self.en = en
        self.found: list[_Found] = []
        self.seen_procs: set[str] = set()
        self.rule_stack: list[str] = []
        self.uses: list[tuple[str, str | None]] = []  # (procedure, rule name) in order

    def walk(self, stmts, origin: str | None = None) -> None:
        saved = dict(self.en.scope)
        try:
            for s in stmts:
                self.stmt(s, origin)
        finally:
            self.en.scope = saved

    def stmt(self, s, origin):
        en = self.en
        if isinstance(s, g.Rule):
            self.found.append(_Found(s, dict(en.scope), origin))
            self.rule_stack.append(s.name)
            self.walk(s.body, origin)
            self.rule_stack.pop()
        elif isinstance(s, g.Perform):
            self.uses.append((s.name, self.rule_stack[-1] if self.rule_stack else None))
            proc = self.book.procs.get(s.name)
            if proc is not None and s.name not in self.seen_procs:
                self.seen_procs.add(s.name)
                with en.bound():
                    en.scope = {p.name: p.type for p in proc.params}
                    self.walk(proc.body, s.name)
        elif isinstance(s, g.Let):
            k = en.kind(s.value)
            en.bind(s.name, "cards" if k in ("zone", "zonekind") else k)
        elif isinstance(s, g.If):
            for br in s.branches:
                self.walk(br.body, origin)
            self.walk(s.else_, origin)
        elif isinstance(s, g.Choose):
            for a in s.actions:
                with en.bound():
                    for var, domain, subset in a.params():
                        en.bind(var, "cards" if subset else en.elem(domain))
                    self.walk(a.body, origin)
        elif isinstance(s, g.ForPlayers):
            with en.bound(**{s.var: "player"}):
                self.walk(s.body, origin)
        elif isinstance(s, g.ForEach):
            with en.bound(**{s.var: en.elem(s.domain)}):
                self.walk(s.body, origin)
        elif isinstance(getattr(s, "body", None), tuple):
            self.walk(s.body, origin)


def face_up_ways(rs: g.Ruleset) -> dict[str, list[str]]:
    """For each zone, how cards come to lie face up in it, from the statements that put them
    there face up (`deal ... face up`, `move ... face up`) or reveal them where they lie: what
    the rulebook's zone table says of a zone that is not public. A card revealed through a
    name that is no zone (a variable, a local) is not traced."""
    zones = {z.name for z in rs.zones}
    out: dict[str, list[str]] = {}
    down: set[str] = set()  # zones whose cards a rule turns face down again

    def named(e) -> set[str]:
        found: set[str] = set()

        def walk(x):
            if isinstance(x, g.Name) and x.name in zones:
                found.add(x.name)
            elif isinstance(x, g.Call) and x.func in zones:
                found.add(x.func)
            if isinstance(x, g.Node):
                for f in type(x).model_fields:
                    walk(getattr(x, f))
            elif isinstance(x, tuple):
                for y in x:
                    walk(y)
        walk(e)
        return found

    def add(names, phrase):
        for n in sorted(names):
            if phrase not in out.setdefault(n, []):
                out[n].append(phrase)

    def up(face) -> bool:
        return face is not None and not (isinstance(face, g.BoolLit) and not face.value)

    def visit(stmts):
        for s in stmts:
            if isinstance(s, g.Deal) and up(s.face_up) and s.target in zones:
                add({s.target}, "the cards the rules deal face up")
            elif isinstance(s, g.Move) and up(s.face_up):
                add(named(s.to), "the cards the rules slide under it face up" if s.under
                    else "the cards the rules move there face up")
            elif isinstance(s, g.Reveal) and s.down:
                down.update(named(s.what))
            elif isinstance(s, g.Reveal):
                w = s.what
                if isinstance(w, g.Call) and w.func in ("top", "bottom") and len(w.args) == 1:
                    add(named(w.args[0]), f"its {w.func} card once it is turned up")
                else:
                    add(named(w), "the cards the rules turn face up there")
            for block in g.child_blocks(s):
                visit(block)
    for ph in rs.phases:
        visit(ph.body)
    for pr in rs.procedures:
        visit(pr.body)
    for z in down & set(out):
        out[z][-1] += ", until a rule turns them face down"
    return out


class BookBuilder:
    """Builds the view model both templates render."""

    def __init__(self, rs: g.Ruleset, source_lines: str | None = None):
        self.rs = rs
        # the file whose source lines the rule blocks carry (data-line, for the studio's editor to
        # jump to); None, as for every printed book: no line is shown and the output is unchanged
        self.source_lines = source_lines
        self.procs = {p.name: p for p in rs.procedures}
        self.phases = {p.name: p for p in rs.phases}
        self.en = English(rs)
        self.changed: dict[tuple[str, str], str] = {}  # (kind, name) -> "added" or "changed"
        for c in rs.changes:
            self.changed[(self._kind_of_change(c.what), c.name)] = "added" if c.action == "added" else "changed"
        # rule name -> (phase, number, id) of the first phase that numbers it
        self.first_number: dict[str, tuple[g.Phase, int, str]] = {}
        self.proc_uses: dict[str, dict[str, list[int | None]]] = {}  # procedure -> phase -> rules

    def line_of(self, node) -> int | None:
        """A node's 1-based source line when the book marks lines (in whichever file it is written:
        file_of says which, when not that one)."""
        loc = getattr(node, "loc", None)
        if self.source_lines is None or loc is None:
            return None
        return loc.line

    def file_of(self, node) -> str | None:
        """The file a node is written in when the book marks lines and it is not the marked one
        (a variant's rule that comes from its base)."""
        loc = getattr(node, "loc", None)
        if self.source_lines is None or loc is None or loc.file == self.source_lines:
            return None
        return loc.file

    @staticmethod
    def _kind_of_change(what: str) -> str:
        w = what.lower()
        for key, word in (("def", "define"), ("opt", "option"), ("rule", "rule"), ("proc", "procedure"),
                          ("phase", "phase"), ("zone", "zone"), ("var", "var"), ("interp", "interpretation"),
                          ("deck", "deck"), ("win", "winner"), ("sides", "sides"), ("player", "players"),
                          ("turn", "direction")):
            if w.startswith(key):
                return word
        return w

    # ---- header
    def players(self) -> str:
        lo, hi = self.rs.players_min, self.rs.players_max
        if lo == hi:
            return f"{lo} player{'s' if lo != 1 else ''}"
        return f"{lo} or {hi} players" if hi == lo + 1 else f"{lo} to {hi} players"

    def direction(self) -> str:
        if self.rs.players_max == 1:
            text = "A game for one player"
        else:
            text = f"Play passes {self.rs.direction} (seats are numbered in the order of play)"
        if self.rs.max_decisions is not None:
            text += f". A game takes at most {self.rs.max_decisions} decisions"
        else:  # the engine's cap, which stops such a game with an error
            text += (f". No bound on a game's length is declared: a game not over after "
                     f"{g.DEFAULT_MAX_DECISIONS:,} decisions stops with an error")
        return text

    def change_line(self, c: g.Change) -> str:
        kind = self._kind_of_change(c.what)
        rs = self.rs
        what = {"define": "Definition", "var": "Variable"}.get(kind, c.what.capitalize())
        if kind == "deck" and c.action == "replaced":
            return f"The deck is now the {em(rs.deck.title or human(rs.deck.name))} ({code(c.name)})"
        if c.what == "description":
            return f"The description of the game (About the game) is this variant's own ({code('about')})"
        if c.action == "changed":
            if c.name in (c.what, "direction", "players") or kind in ("players", "direction"):
                return f"{what}: {c.detail}"
            if kind == "deck" and c.name == "order":
                return f"Deck order: {c.detail}"
            return f"{what} {code(c.name)}: {c.detail}"
        line = f"{what} {code(c.name)} is {c.action}"
        if c.action == "removed":  # gone from this game: what it was in the base, in the author's words
            base = rs.base_title or human(rs.base or "the base game")
            if kind == "rule":
                named = f"Rule {code(c.name)}" + (f" ({em(c.detail)})" if c.detail else "")
                return f"{named} is removed: it is not played in this game"
            return line + (f" \u2014 in {base}: \u201c{c.detail}\u201d" if c.detail else f": {base} has it, this game does not")
        if kind == "winner":
            return f"The winner rule is {c.action}"
        if kind == "sides":
            return f"The sides are {'now set' if c.action == 'added' else 'changed'}: {self.sides_sentence()}"
        if kind == "define" and c.name in self.en.defines:
            d = self.en.defines[c.name]
            with self.en.bound(**{p.name: p.type for p in d.params}):
                formal = self.en.cond(d.body) if self.en.define_kind(d.name) == "bool" else self.en(d.body)
            now = "" if c.action == "added" else "now "
            if d.texts:
                line += f" \u2014 {now}\u201c{' '.join(d.texts)}\u201d; precisely: {formal}"
            else:
                line += f" \u2014 {now}{formal}"
        elif kind == "option" and c.name in self.en.options:
            o = self.en.options[c.name]
            line += f" \u2014 default {_fmt_value(o.default)}"
            if o.description:
                line += f": \u201c{o.description}\u201d"
        elif kind == "rule":
            ref = self.first_number.get(c.name)
            if ref:
                ph, n, rid, title = ref
                line = f"Rule {code(c.name)} ({em(title)}) is {c.action}: see " \
                       f"{link('#' + rid, f'{ph.title or human(ph.name)}, rule {n}')}"
        return line

    # ---- deck
    def deck(self) -> dict:
        d = self.rs.deck
        present = {s: {r for line in d.lines() if s in line.suits for r in line.ranks} for s in d.suits}
        rows = [{"suit": s, "order": ", ".join(r for r in d.order_of(s) if r in present[s]), "own": s in d.orders}
                for s in d.suits]
        n_cards = d.size()
        if not d.title:
            summary = f"The deck has {n_cards} cards"
        elif re.match(r"(?i)(the|a|an) ", d.title):  # ("The *The sixteen cards* has" otherwise)
            summary = f"The deck, {em(d.title)}, has {n_cards} cards"
        else:
            summary = f"The {em(d.title)} has {n_cards} cards"
        if d.composition:
            parts = []
            for line in d.composition:
                one = len(line.ranks) == 1 and len(line.suits) == 1
                copies = (f", {line.copies} copies" if one else f", {line.copies} of each") if line.copies > 1 else ""
                suits = "" if len(d.suits) == 1 else f" of {_plain_list(line.suits)}"  # (a pack of one suit)
                parts.append(f"{_plain_list(line.ranks)}{suits}{copies}")
            summary += ": " + "; ".join(parts) + "."
        else:
            ns, nr = len(d.suits), len(d.ranks)
            summary += f": {ns} suit{'s' if ns != 1 else ''} of {nr} rank{'s' if nr != 1 else ''}"
            if d.copies > 1:
                summary += f", with {d.copies} copies of each card"
            summary += "."
        if any(s in d.orders for s in d.suits):
            summary += " Not every suit ranks its cards in the same order: see the table."
        if any(isinstance(x, g.Attr) and x.name == "order" for x in g.nodes_below(self.rs)):
            # (a new user's 6 nimmt!: "c's rank position plus 1" read as card 55 making 56)
            summary += (" A card's rank position counts from 0: the lowest rank of its suit's ranking is at 0,"
                        " the next at 1, and so on.")
        values = [{"name": name, "pairs": ", ".join(f"{r} = {v}" for r, v in vals.items())}
                  for name, vals in d.values.items()]
        return {"name": d.name, "title": d.title or human(d.name), "summary": summary, "rows": rows,
                "any_own": any(r["own"] for r in rows), "ranks": ", ".join(d.ranks),
                "groups": [{"name": k, "ranks": ", ".join(v)} for k, v in d.groups.items()],
                "value_rows": values, "texts": d.texts, "notes": d.notes,
                "changed": self.changed.get(("deck", d.name), "") or self.changed.get(("deck", "order"), "")}

    # ---- zones, variables, options
    def zones(self) -> list[dict]:
        seen = {"hidden": "nobody (face down)", "owner": "only its owner", "others": "everyone but its owner",
                "public": "everyone"}
        up = face_up_ways(self.rs)
        out = []
        for z in self.rs.zones:
            text = seen[z.visibility]
            ways = up.get(z.name) if z.visibility != "public" else None
            if ways:  # the cards some statement puts there face up
                text = f"{'nobody while face down' if z.visibility == 'hidden' else text}; everyone sees " \
                       f"{_plain_list(ways)}"
            out.append({"name": z.name, "title": z.title or human(z.name),
                        "kind": "one per player" if z.per_player else "shared",
                        "seen": text, "changed": self.changed.get(("zone", z.name), "")})
        return out

    def variables(self, private: bool = False) -> list[str]:
        """The public variables (with `private`: the rules' own), each a phrase and its text."""
        out = []
        for v in self.rs.vars:
            if v.private != private:
                continue
            name = em(human(v.name)) if v.type == "bool" else name_phrase(v)  # (as the rules name it)
            text = f"{name} ({code(v.name)}), {_TYPE_PHRASE.get(v.type, 'a ' + v.type)}"
            if v.params:
                text = f"each player's {human(v.name)} ({code(v.name)}), {_TYPE_PHRASE.get(v.type, 'a ' + v.type)}"
            if v.init is not None:
                with self.en.bound(**{prm.name: prm.type for prm in v.params}):
                    text += f", at first {self.en(v.init)}"
            if v.texts or v.notes:
                text += ". " + " ".join([_sentence(t) for t in v.texts] + [f"(Note: {n})" for n in v.notes])
            out.append(text)
        return out

    def options(self) -> list[dict]:
        out = []
        for o in self.rs.options:
            if o.type == "bool":
                values = "true or false"
            elif o.type == "enum":
                values = "one of " + ", ".join(o.choices)
            elif o.low is not None and o.high is not None:
                values = f"a whole number from {o.low} to {o.high}"
            else:
                values = "a whole number"
            about = " ".join([_sentence(o.description)] if o.description else [])
            about = " ".join([about] + [_sentence(t) for t in o.texts] + [f"(Note: {n})" for n in o.notes]).strip()
            out.append({"name": o.name, "allowed": values, "default": _fmt_value(o.default),
                        "about": about, "description": o.description or "", "texts": o.texts, "notes": o.notes,
                        "changed": self.changed.get(("option", o.name), "")})
        return out

    # ---- definitions
    def terms(self) -> list[dict]:
        en = self.en
        out = []
        for d in self.rs.defines:
            with en.bound(**{p.name: p.type for p in d.params}):
                formal = en.cond(d.body) if en.define_kind(d.name) == "bool" else en(d.body)
            sig = d.name + (f"({', '.join(p.name for p in d.params)})" if d.params else "")
            params = f"(for {_plain_list(_param(p.type, p.name) for p in d.params)})" if d.params else ""
            meaning = " ".join(t.strip() for t in d.texts) if d.texts else "(no description given)"
            meaning = meaning if meaning.endswith((".", "!", "?", ")")) else meaning + "."
            out.append({"name": d.name, "id": f"term-{d.name}", "heading": human(d.name), "signature": sig,
                        "params": params, "meaning": meaning, "texts": d.texts, "notes": d.notes, "formal": formal,
                        "source": unparse(d.body), "changed": self.changed.get(("define", d.name), "")})
        return out

    # ---- phases and rules
    def phase_views(self) -> list[PhaseView]:
        finders = []
        walked: set[str] = set()  # a procedure's rules are described once, in the first phase that reaches it
        for ph in self.rs.phases:
            finder = RuleFinder(self, English(self.rs))
            finder.seen_procs = walked
            finder.walk(ph.body)
            finders.append(finder)
            for i, f in enumerate(finder.found, 1):
                if f.rule.name not in self.first_number:
                    self.first_number[f.rule.name] = (ph, i, f"rule-{ph.name}-{i}",
                                                      f.rule.title or human(f.rule.name))
            numbers = {f.rule.name: i for i, f in enumerate(finder.found, 1)}
            for proc, rule in finder.uses:
                by_phase = self.proc_uses.setdefault(proc, {})
                lst = by_phase.setdefault(ph.name, [])
                n = numbers.get(rule)
                if n not in lst:
                    lst.append(n)
        views = []
        for pi, (ph, finder) in enumerate(zip(self.rs.phases, finders), 1):
            numbers = {f.rule.name: i for i, f in enumerate(finder.found, 1)}

            def ref(name, ph=ph, numbers=numbers):
                if name not in numbers:
                    return None
                n = numbers[name]
                title = next(f.rule.title or human(f.rule.name) for f in finder.found if f.rule.name == name)
                return link(f"#rule-{ph.name}-{n}", f"rule {n}, {em(title)}")

            rules = []
            for i, f in enumerate(finder.found, 1):
                en = English(self.rs)
                en.scope = dict(f.scope)
                desc = Describer(self, en, ref)
                when = en.cond(f.rule.when) if f.rule.when is not None else None
                steps = desc.block(f.rule.body)
                origin = None
                if f.origin:
                    origin = "This rule is part of the procedure " + \
                        link(f"#procedure-{f.origin}", em(human(f.origin)))
                    users = sorted({numbers[r] for pr, r in finder.uses if pr == f.origin and r in numbers})
                    elsewhere = [other.title or _cap(human(other.name)) for other, fo in zip(self.rs.phases, finders)
                                 if other is not ph and any(pr == f.origin for pr, _ in fo.uses)]
                    if users:  # (every rule that follows it, here and in other phases: not just the first)
                        origin += (f", which rule {users[0]}" if len(users) == 1 else
                                   f", which rules {_plain_list([str(u) for u in users])}")
                        if elsewhere:
                            origin += f" of this phase and rules of {_plain_list(elsewhere)} follow"
                        else:
                            origin += " follows" if len(users) == 1 else " follow"
                    origin += "."
                rules.append(RuleView(i, f"rule-{ph.name}-{i}", f.rule.name, f.rule.title or _cap(human(f.rule.name)),
                                      when, f.rule.texts, f.rule.notes, steps, origin,
                                      self.changed.get(("rule", f.rule.name), ""), self.line_of(f.rule),
                                      self.file_of(f.rule)))
            top_rules = [s for s in ph.body if isinstance(s, g.Rule)]
            outline = summary = None
            if len(top_rules) == len(ph.body):
                if len(rules) == 1:
                    summary = "This phase consists of the rule below."
                elif len(top_rules) == len(rules):
                    summary = "The rules below apply one after another, in this order."
                else:
                    lead = _plain_list(str(numbers[r.name]) for r in top_rules)
                    if len(top_rules) > 1:
                        summary = f"Rules {lead} apply one after another; the others are used from within them."
                    else:
                        summary = f"Rule {lead} applies; the others are used from within it."
            else:
                outline = Describer(self, English(self.rs), ref).block(ph.body)
            if ph.then:
                nxt = self.phases.get(ph.then)
                ttl = (nxt.title or _cap(human(nxt.name))) if nxt else _cap(human(ph.then))
                at = next((k for k, q in enumerate(self.rs.phases, 1) if q.name == ph.then), None)
                # "phase 2, *The play*": the number names it in the sentence, the title follows as a title
                then = "When this phase is over, the game continues with " + \
                       link('#phase-' + ph.then, (f"phase {at}, " if at else "") + em(ttl)) + "."
            else:
                then = "When this phase is over, the game ends."
            views.append(PhaseView(pi, f"phase-{ph.name}", f"Phase {pi}: {ph.title or _cap(human(ph.name))}",
                                   ph.name, ph.title or _cap(human(ph.name)), ph.texts,
                                   ph.notes, outline, summary, rules, then, self.changed.get(("phase", ph.name), ""),
                                   self.line_of(ph), self.file_of(ph)))
        return views

    def procedures(self) -> list[dict]:
        out = []
        for p in self.rs.procedures:
            en = English(self.rs)
            en.scope = {prm.name: prm.type for prm in p.params}

            def ref(name):
                hit = self.first_number.get(name)
                if hit is None:
                    return None
                ph, n, rid, title = hit
                return link(f"#{rid}", f"rule {n} of {ph.title or human(ph.name)}, {em(title)}")

            steps = Describer(self, en, ref).block(p.body)
            params = _plain_list(_param(prm.type, prm.name) for prm in p.params)
            uses = []
            for ph_name, nums in self.proc_uses.get(p.name, {}).items():
                ph = self.phases[ph_name]
                title = ph.title or _cap(human(ph.name))
                rules = sorted(n for n in nums if n is not None)
                if not rules:
                    uses.append(link(f"#phase-{ph_name}", title))
                    continue
                refs = [link(f"#rule-{ph_name}-{n}", str(n)) for n in rules]
                uses.append(f"{title}, rule{'s' if len(rules) > 1 else ''} {_plain_list(refs)}")
            callers = [q.name for q in self.rs.procedures if q.name != p.name
                       and any(isinstance(x, g.Perform) and x.name == p.name for x in g.nodes_below(q.body))]
            by = ("performed by the procedure" + ("s " if len(callers) > 1 else " ")
                  + _plain_list(link(f"#procedure-{c}", em(human(c))) for c in callers)) if callers else ""
            given = []
            if params:
                given.append(f"Given {params}.")
            # (a new user's Love Letter: a procedure performed by another read as used by one rule only)
            given.append(f"Used in: {'; '.join(uses)}{'; ' + by if by else ''}." if uses
                         else f"Used only when {by}." if by else "Not used by any phase.")
            out.append({"name": p.name, "id": f"procedure-{p.name}", "heading": _cap(human(p.name)),
                        "params": params, "given": " ".join(given), "texts": p.texts, "notes": p.notes, "steps": steps,
                        "uses": self.proc_uses.get(p.name, []),
                        "changed": self.changed.get(("procedure", p.name), "")})
        return out

    def _declaring_rules(self) -> list[str]:
        """Titles of the rules that name a winner outright (`declare winner`)."""
        found: list[str] = []
        procs = {p.name: p for p in self.rs.procedures}

        def walk(stmts, rule, stack=()):
            for st in stmts:
                if isinstance(st, g.DeclareWinner) and rule and rule not in found:
                    found.append(rule)
                if isinstance(st, g.Perform) and rule and st.name in procs and st.name not in stack:
                    walk(procs[st.name].body, rule, stack + (st.name,))  # (the winner named in a procedure it follows)
                inner = st.title or human(st.name) if isinstance(st, g.Rule) else rule
                for block in g.child_blocks(st):
                    walk(block, inner, stack)
        for ph in self.rs.phases:
            walk(ph.body, None)
        for pr in self.rs.procedures:
            walk(pr.body, None)
        return found

    def advice(self) -> list[dict]:
        out = []
        for a in self.rs.advice:
            p = a.params[0].name
            with self.en.bound(**{p: "player"}):
                formal = self.en(a.body)
            out.append({"name": a.name, "id": f"advice-{a.name}", "summary": a.summary, "texts": a.texts,
                        "notes": a.notes, "formal": f"for a player {em(p)}: {formal}", "source": unparse(a.body),
                        "changed": self.changed.get(("advice", a.name), "")})
        return out

    def winner(self) -> dict | None:
        w = self.rs.winner
        declaring = self._declaring_rules()
        lead = ""
        if declaring:
            lead = ("The rules " + _plain_list(em(t) for t in declaring) if len(declaring) > 1
                    else "The rule " + em(declaring[0])) + " can name the winner outright, and that decides the game. "
        if w is None:
            return {"sentence": lead.strip() or "This game names no winner.", "explain": None,
                    "sides": self.sides_sentence()}
        d = self.en.defines.get(w.score)
        if self.rs.players_max == 1:  # one player: no "player(s) with the most" to be
            better = "higher" if w.rule == "most" else "lower"
            sentence = lead + ("Otherwise, when the game ends, " if lead else "When the game ends, ") + \
                f"your {self.en.term(w.score)} is your result: the {better} the better."
        else:
            sentence = lead + ("Otherwise, when the game ends, the" if lead else "The") + \
                f" player(s) with the {most(w.rule, w.score)} {self.en.term(w.score)} win; tied players share the win."
        explain = None
        if d is not None:
            p = d.params[0].name if d.params else "p"
            with self.en.bound(**{p: "player"}):
                formal = self.en(d.body)
            explain = f"For a player {em(p)}, the {self.en.term(w.score)} is {formal}."
            if d.texts:
                explain = f"A player's {self.en.term(w.score)} is {_mid(' '.join(d.texts))}: " \
                          f"for a player {em(p)}, {formal}."
        elif w.score in self.en.vars and self.en.vars[w.score].texts:  # `winner most VAR`: the variable's own words
            explain = f"A player's {self.en.term(w.score)} is {_mid(' '.join(self.en.vars[w.score].texts))}."
        return {"sentence": sentence, "explain": explain, "sides": self.sides_sentence()}

    def sides_sentence(self) -> str | None:
        """Who plays together (`sides by NAME`), in the definition's words."""
        sd = self.rs.sides
        d, term = (self.en.defines.get(sd.by), self.en.term(sd.by)) if sd else (None, None)
        said = f". A player's {term} is {_mid(' '.join(d.texts))}: " if d is not None and d.texts else ": "
        return f"The players play in sides{said}players with the same {term} are partners." if sd else None

    def build(self) -> dict:
        """The book's data for the templates; without `picture`, no picture of the turn (the
        Markdown book has none, and laying the picture out is most of a book's time)."""
        rs = self.rs
        phases = self.phase_views()  # numbers rules first: the variant box refers to them
        variant = None
        if rs.base:
            variant = {"base": rs.base, "base_title": rs.base_title or rs.base,
                       "changes": [self.change_line(c) for c in rs.changes]}
        book = {
            "title": rs.title or _cap(human(rs.name)), "name": rs.name, "players": self.players(),
            "direction": self.direction(), "texts": rs.texts, "variant_texts": rs.variant_texts,
            "notes": rs.notes, "variant": variant,
            "deck": self.deck(), "zones": self.zones(), "variables": self.variables(),
            "private_variables": self.variables(private=True),
            "options": self.options(), "terms": self.terms(), "phases": phases,
            "procedures": self.procedures(), "winner": self.winner(), "advice": self.advice(),
            "interpretations": [{"name": i.name, "id": f"interpretation-{i.name}", "question": i.question,
                                 "texts": i.texts, "notes": i.notes,
                                 "changed": self.changed.get(("interpretation", i.name), "")}
                                for i in rs.interpretations],
        }
        sections = [("variant", "What this variant changes")] if variant else []
        sections.append(("overview", "About the game"))
        sections += [("deck", "The cards"), ("zones", "Where the cards lie")]
        if book["options"]:
            sections.append(("options", "Options"))
        if book["terms"]:
            sections.append(("terms", "Terms"))
        sections.append(("play", "How to play"))
        if book["procedures"]:
            sections.append(("procedures", "Procedures used above"))
        if book["winner"]:
            sections.append(("winner", "Winning"))
        if book["advice"]:
            sections.append(("advice", "Advice on play"))
        if book["interpretations"]:
            sections.append(("interpretations", "Where the source is silent"))
        if rs.notes:
            sections.append(("notes", "Notes"))
        titles = [em(ph.title) for ph in phases]
        n = len(phases)
        book["phase_summary"] = (f"The game is played in {n} phases: {_plain_list(titles)}." if n != 1
                                 else f"The game is played in one phase, {titles[0]}.") if n else \
            "The game has no phases."
        book["play_intro"] = "The phases follow one another as described. The rules of each phase are " \
                             "numbered from 1, and a rule's steps are spelled out under \u201cIn detail\u201d."
        book["advice_intro"] = ("What a player should aim for, as a number per player: the higher, the better "
                                "for that player. The rules never use it; it is advice, for people and for the "
                                "computer players." + (" Several pieces of advice count together, by their sum."
                                                       if len(book["advice"]) > 1 else ""))
        book["terms_intro"] = "The rules use these terms. Each is given in the author's words, then precisely."
        book["badge_md"] = " *(changed in this variant)*"
        book["sections"] = [{"id": i, "title": t, "slug": slug(t)} for i, t in sections]
        book["heading"] = dict(sections)
        self.built_phases = phases
        return book


def _mid(text: str) -> str:
    """An author's words put in the middle of a sentence: no full stop, and no capital where the
    first word is a common one ("A player's total is the player's score", not "is The player's")."""
    text = text.strip().rstrip(".")
    first = text.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower() and first.lower() in _COMMON:
        text = text[0].lower() + text[1:]
    return text


_COMMON = frozenset("the a an each every all any one two three four five their its his her this that these those "
                    "how what which who whose whether when if how many".split())

