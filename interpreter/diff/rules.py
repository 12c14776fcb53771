"""The comparison of phases, procedures and their rules: each block aligned with its
counterpart, each differing line attributed to the innermost rule it belongs to, and the
steps added, removed, changed or moved told in words."""

from __future__ import annotations

from ..language import graph as g
from ..render import code, em
from .align import _Event, _align, _pair_moves, _rank_among, _rule_lines
from .lines import _STMTS, _Line, _Side, _ekey, _line_source, _loose, _params_key
from .changes import Detail
from .phrasing import _and, _cap, _human, _params_words, _plain, _q, _src


class _RuleChanges:
    """The phases' and procedures' part of `_Differ` (compare.py), which holds both rulesets
    (`a`, `b`) and their sides (`A`, `B`) and provides `add` and `prose_lines`."""

    a: g.Ruleset
    b: g.Ruleset
    A: _Side
    B: _Side

    # ---- phases, procedures and their rules
    def phases_and_procedures(self) -> None:
        A, B = self.A, self.B
        # rule name -> events, per side of the report
        rule_events: dict[str, list[_Event]] = {}
        rule_prose: dict[str, list[_Event]] = {}
        cont_events: dict[tuple[str, str], list[_Event]] = {}
        cont_prose: dict[tuple[str, str], list[_Event]] = {}
        cont_pairs: dict[tuple[str, str], dict[int, int]] = {}
        headers_added: dict[str, tuple[tuple[str, str], _Line]] = {}
        headers_removed: dict[str, tuple[tuple[str, str], _Line]] = {}
        conts = [c for c in B.lines] + [c for c in A.lines if c not in B.lines]
        for cont in conts:
            la, lb = A.lines.get(cont), B.lines.get(cont)
            if la is None or lb is None:
                self.container_added_removed(cont, la, lb)
                for ln in (lb or la):
                    if ln.part == "rule":
                        (headers_added if lb is not None else headers_removed)[ln.node.name] = (cont, ln)
                continue
            self.container_header(cont)
            cont_pairs[cont], events, prose = _align(la, lb)
            for ev in events:
                ln = ev.b or ev.a
                if ln.part == "rule" and ev.action != "changed":
                    (headers_added if ev.action == "added" else headers_removed)[ln.node.name] = (cont, ln)
                    continue
                owner = ln.rule
                if owner is None:
                    cont_events.setdefault(cont, []).append(ev)
                else:
                    rule_events.setdefault(owner, []).append(ev)
            for ev in prose:
                owner = (ev.b or ev.a).rule
                if owner is None:
                    cont_prose.setdefault(cont, []).append(ev)
                else:
                    rule_prose.setdefault(owner, []).append(ev)
        moved = [n for n in headers_added if n in headers_removed]
        # a rule taken out of one place and put in another: compare it on its own
        for name in moved:
            (ca, ha), (cb, hb) = headers_removed[name], headers_added[name]
            outer = cont_pairs.get(ca) if ca == cb else None
            _, events, prose = _align(_rule_lines(A.lines[ca], ha), _rule_lines(B.lines[cb], hb), outer,
                                      (A.lines[ca], B.lines[cb]))
            if ca != cb or _rank_among(A.lines[ca], B.lines[cb], name) is not None:
                events = [_Event("moved", ha, hb)] + events
            rule_events[name] = events
            rule_prose[name] = prose
        for name, (cont, ln) in headers_added.items():
            if name not in headers_removed and cont in A.lines:
                when = f", applied only when {B.expr_words(ln.node.when, ln.scope, True)}" \
                    if ln.node.when is not None else ""
                self.add("rule", name, "added", f"{_cap(B.rule_label(name))} added to {B.place(cont)}{when}. "
                         "Its steps:", _rule_body_details(B, B.lines[cont], ln))
        for name, (cont, ln) in headers_removed.items():
            if name not in headers_added and cont in B.lines:
                self.add("rule", name, "removed", f"{_cap(A.rule_label(name))} removed from {A.place(cont)}")
        # events of rules that were themselves added or removed are covered by that
        for name in list(rule_events):
            if (name in headers_added) != (name in headers_removed):
                rule_events.pop(name)
                rule_prose.pop(name, None)
        names = [n for n in B.rules if n in rule_events or n in rule_prose] + \
                [n for n in A.rules if n not in B.rules and (n in rule_events or n in rule_prose)]
        for name in names:
            if rule_events.get(name):
                self.rule_changed(name, rule_events[name])
            if rule_prose.get(name):
                self.rule_prose(name, rule_prose[name])
        for cont in conts:
            if cont_events.get(cont):
                self.container_steps(cont, cont_events[cont])
            if cont_prose.get(cont):
                self.container_prose(cont, cont_prose[cont])

    def container_added_removed(self, cont, la, lb) -> None:
        kind, name = cont
        side = self.B if lb is not None else self.A
        node = side.phases.get(name) if kind == "phase" else side.procs.get(name)
        rules = [ln.node.name for ln in (lb or la) if ln.part == "rule"]
        title = f" ({em(node.title)})" if getattr(node, "title", None) else ""
        with_rules = f", with {'rule' if len(rules) == 1 else 'rules'} {_and(code(r) for r in rules)}" if rules else ""
        if lb is not None:
            details = [Detail(_step_words(side, ln), depth=ln.depth) for ln in lb]
            self.add(kind, name, "added", f"{_cap(kind)} {code(name)}{title} added{with_rules}", details)
        else:
            self.add(kind, name, "removed", f"{_cap(kind)} {code(name)}{title} removed{with_rules}")

    def container_header(self, cont) -> None:
        kind, name = cont
        if kind == "phase":
            x, y = self.A.phases[name], self.B.phases[name]
            if x.then != y.then:
                now = f"continues with phase {code(y.then)}" if y.then else "ends the game"
                was = f"continued with phase {code(x.then)}" if x.then else "ended the game"
                self.add("phase", name, "changed", f"Phase {code(name)}: when it is over, the game now {now} "
                         f"(it {was})")
            if x.title != y.title:
                self.add("phase", name, "changed", f"Phase {code(name)} is now titled {_q(y.title or '')} "
                         f"(was {_q(x.title or '')})", prose=True)
            self.prose_lines("phase", name, "", x.texts, y.texts, sentence=f"Phase {code(name)}: its text changed")
            self.prose_lines("phase", name, "", x.notes, y.notes, sentence=f"Phase {code(name)}: its notes changed")
            handled = {"loc", "name", "title", "then", "body", "texts", "notes"}
        else:
            x, y = self.A.procs[name], self.B.procs[name]
            if _params_key(x.params) != _params_key(y.params):
                self.add("procedure", name, "changed", f"Procedure {code(name)} now takes "
                         f"{_params_words(y.params)} (was {_params_words(x.params)})")
            self.prose_lines("procedure", name, "", x.texts, y.texts,
                             sentence=f"Procedure {code(name)}: its text changed")
            self.prose_lines("procedure", name, "", x.notes, y.notes,
                             sentence=f"Procedure {code(name)}: its notes changed")
            handled = {"loc", "name", "params", "body", "texts", "notes"}
        for f in type(x).model_fields:
            if f not in handled and _ekey(getattr(x, f), {}) != _ekey(getattr(y, f), {}):
                self.add(kind, name, "changed", f"{_cap(kind)} {code(name)}: its {_human(f)} changed")

    def step_details(self, ev: _Event, lines_a, lines_b) -> list[Detail]:
        A, B = self.A, self.B

        def under(side, lines, ln):
            if ln.parent is None or lines[ln.parent].part == "rule":
                return ""
            return f" (under {_src(_line_source(lines[ln.parent]), 70)})"

        if ev.action == "moved":
            return []
        if ev.action == "step moved":
            pa = _line_source(lines_a[ev.a.parent]) if ev.a.parent is not None else None
            pb = _line_source(lines_b[ev.b.parent]) if ev.b.parent is not None else None
            if pa != pb:
                where = f"now under {_src(pb, 70)}" if pb else "now at the top level"
                where += f" (was under {_src(pa, 70)})" if pa else " (was at the top level)"
            else:
                before = [ln for ln in lines_b[:ev.b.index] if ln.parent == ev.b.parent and ln.depth == ev.b.depth]
                first = "the rule" if ev.b.parent is not None and lines_b[ev.b.parent].part == "rule" else "its block"
                where = f"now after {_q(B.words(before[-1]))}" if before else f"now the first step of {first}"
            more = f", with the {ev.under} step{'s' if ev.under != 1 else ''} inside it" if ev.under else ""
            return [Detail(f"step moved: {_q(B.words(ev.b))}{more}, {where}",
                           (f"source: {_src(_line_source(ev.b))}",))]
        if ev.action == "added":
            return [Detail(f"step added{under(B, lines_b, ev.b)}: {_q(B.words(ev.b))}",
                           (f"source: {_src(_line_source(ev.b))}",))]
        if ev.action == "removed":
            return [Detail(f"step removed{under(A, lines_a, ev.a)}: {_q(A.words(ev.a))}",
                           (f"source was: {_src(_line_source(ev.a))}",))]
        if ev.b.part == "rule":
            return [Detail(f"its condition: before, {_q(A.expr_words(ev.a.node.when, ev.a.scope, True)) if ev.a.node.when is not None else 'always'}; "
                           f"now {_q(B.expr_words(ev.b.node.when, ev.b.scope, True)) if ev.b.node.when is not None else 'always'}",
                           (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]
        part = self.changed_part(ev)
        if part is not None:
            ident = f"the move {code(ev.b.node.name)}" if ev.b.part == "action" else \
                f"the {code(_line_source(ev.b).split()[0].rstrip(':'))} step"
            return [Detail(f"{ident}{under(B, lines_b, ev.b)}: {part}",
                           (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]
        wa, wb = A.words(ev.a), B.words(ev.b)
        text = f"step changed{under(B, lines_b, ev.b)}: now {_q(wb)}"
        if _plain(wa) != _plain(wb):
            text += f" (was {_q(wa)})"
        else:
            text += " (the same words, but the value it uses is bound elsewhere)"
        return [Detail(text, (f"source now: {_src(_line_source(ev.b))}", f"was: {_src(_line_source(ev.a))}"))]

    def changed_part(self, ev: _Event) -> str | None:
        """When one expression of a statement changed, that expression in words, before and after."""
        x, y = ev.a, ev.b
        if x.part != y.part or type(x.node) is not type(y.node) or x.key[1] != y.key[1]:
            return None
        fa = {f: v for f, v in x.key[2:] if isinstance(f, str)} if all(
            isinstance(t, tuple) and len(t) == 2 for t in x.key[2:]) else None
        fb = {f: v for f, v in y.key[2:] if isinstance(f, str)} if all(
            isinstance(t, tuple) and len(t) == 2 for t in y.key[2:]) else None
        if not fa or not fb or fa.keys() != fb.keys():
            return None
        differ = [f for f in fa if _loose(fa[f]) != _loose(fb[f])]
        if len(differ) != 1:
            return None
        f = differ[0]
        ea, eb = getattr(x.node, f, None), getattr(y.node, f, None)
        if not isinstance(ea, g.Node) or not isinstance(eb, g.Node) or isinstance(ea, _STMTS) or isinstance(eb, _STMTS):
            return None
        cond = f in ("test", "where", "when", "face_up")
        scope_a, scope_b = x.scope, y.scope
        if x.part == "action" and f == "when":  # an action's `when` does not see its parameter
            scope_a = {k: v for k, v in scope_a.items() if k != x.node.var}
            scope_b = {k: v for k, v in scope_b.items() if k != y.node.var}
        what = _FIELD_WORDS.get(f, f"its {_human(f)}")
        return f"{what} is now {_q(self.B.expr_words(eb, scope_b, cond))} (was {_q(self.A.expr_words(ea, scope_a, cond))})"

    def rule_changed(self, name: str, events: list[_Event]) -> None:
        A, B = self.A, self.B
        cont_b, _ = B.rules.get(name) or A.rules[name]
        cont_a, _ = A.rules.get(name) or B.rules[name]
        lines_a, lines_b = A.lines.get(cont_a, []), B.lines.get(cont_b, [])
        bits, details = [], []
        if events and events[0].action == "moved":
            bits.append(f"it moved from {A.place(cont_a)} to {B.place(cont_b)}" if cont_a != cont_b
                        else "it moved to another place in the same " + cont_b[0])
        cond = [e for e in events if e.action == "changed" and e.b.part == "rule"]
        if cond:
            bits.append("its condition")
        events = cond + [e for e in events if e not in cond]
        events = _pair_moves(events)
        steps = [e for e in events if e not in cond and e.action != "moved"]
        counts = {k: sum(1 for e in steps if e.action == k) for k in ("added", "removed", "changed", "step moved")}
        words = [f"{n} step{'s' if n != 1 else ''} {k.split()[-1]}" for k, n in counts.items() if n]
        if words:
            bits.append(_and(words))
        for ev in events:
            details += self.step_details(ev, lines_a, lines_b)
        where = B.place(cont_b) if name in B.rules else A.place(cont_a)
        label = B.rule_label(name) if name in B.rules else A.rule_label(name)
        self.add("rule", name, "changed", f"{_cap(label)}, in {where}, changed: {'; '.join(bits)}", details)

    def rule_prose(self, name: str, events: list[_Event]) -> None:
        details = []
        for ev in events:
            details += _prose_details(ev)
        label = self.B.rule_label(name) if name in self.B.rules else self.A.rule_label(name)
        self.add("rule", name, "changed", f"{_cap(label)}: the author's words changed", details, prose=True)

    def container_steps(self, cont, events: list[_Event]) -> None:
        kind, name = cont
        lines_a, lines_b = self.A.lines[cont], self.B.lines[cont]
        events = _pair_moves(events)
        counts = {k: sum(1 for e in events if e.action == k) for k in ("added", "removed", "changed", "step moved")}
        words = _and(f"{n} step{'s' if n != 1 else ''} {k.split()[-1]}" for k, n in counts.items() if n)
        details = []
        for ev in events:
            details += self.step_details(ev, lines_a, lines_b)
        outside = " outside its rules" if any(ln.part == "rule" for ln in lines_b) else ""
        self.add(kind, name, "changed", f"{_cap(self.B.place(cont))}{outside}: {words}", details)

    def container_prose(self, cont, events: list[_Event]) -> None:
        details = []
        for ev in events:
            details += _prose_details(ev)
        self.add(cont[0], cont[1], "changed", f"{_cap(self.B.place(cont))}: the words of a step changed",
                 details, prose=True)


_FIELD_WORDS = {
    "where": "the condition on its choice (where)", "when": "its condition (when)", "test": "its test",
    "value": "the value", "what": "what it moves", "to": "where the cards go", "face_up": "when they lie face up",
    "count": "how many cards", "source": "where the cards come from", "domain": "what it ranges over",
    "by": "who chooses", "at": "the player it starts from", "zone": "the zone", "who": "who wins",
    "index": "whose value it sets",
}


def _prose_details(ev: _Event) -> list[Detail]:
    x, y = ev.a, ev.b
    out = []
    if x.part == "rule":
        (ta, xa, na), (tb, xb, nb) = x.prose, y.prose
        if ta != tb:
            out.append(Detail(f"title now: {_q(tb or '')}", (f"was: {_q(ta or '')}",)))
        if xa != xb:
            out.append(Detail(f"text now: {_q(' '.join(xb)) if xb else '(none)'}",
                              (f"was: {_q(' '.join(xa)) if xa else '(none)'}",)))
        if na != nb:
            out.append(Detail(f"note now: {_q(' '.join(nb)) if nb else '(none)'}",
                              (f"was: {_q(' '.join(na)) if na else '(none)'}",)))
    elif x.part == "action":
        out.append(Detail(f"the move {code(y.node.name)} is now labelled {_q(y.prose[0] or '')}",
                          (f"was: {_q(x.prose[0] or '')}",)))
    else:
        out.append(Detail(f"{_src(_line_source(y))}: its words changed", (f"was: {_src(_line_source(x))}",)))
    return out


def _rule_body_details(side: _Side, lines: list[_Line], header: _Line) -> list[Detail]:
    return [Detail(_step_words(side, ln), depth=ln.depth - header.depth - 1)
            for ln in _rule_lines(lines, header)[1:]]


def _step_words(side: _Side, ln: _Line) -> str:
    text = side.words(ln).rstrip()
    if ln.part in ("if", "elif", "else", "choose", "block", "field", "rule") and not text.endswith(":"):
        text = text.rstrip(".") + ":"
    return text
