"""Rulebook: the one-page quick reference printed at the front of every book (HTML, Markdown
and PDF), made from the rule graph and the book's phases, for any ruleset: how one wins, how
the game starts (the first phase, summarised), the phases and their rules in order with who
decides, and the options with their defaults. Phrases carry the same inline mark-up as the rest
of the book, so each template's filter writes them out."""

from __future__ import annotations

import re

from ..language import graph as g
from .markup import _cap, _fmt_value, _plain_list, _sentence, code, em, human, link, most
from .words import English


QUICK_TITLE = "Quick reference"
_MANY_OPTIONS = 8          # beyond this, options that are off by default are only named
_START_LINES = 5           # at most this many lines summarise the first phase
_SENTENCE_END = re.compile(r"(?<=[.!?\u201d])\s+(?=[A-Z\u201c(\"'0-9])")


def first_sentence(text: str, limit: int = 220) -> str:
    """The first sentence of an author's text, as a sentence (cut with an ellipsis when it runs on)."""
    text = " ".join(text.split())
    head = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    if len(head) > limit:
        cut = head[:limit].rsplit(" ", 1)[0].rstrip(",;:")
        return cut + "\u2026"
    return _sentence(head) if head else ""


def opening(texts, limit: int = 420) -> str:
    """A rule's or phase's opening paragraph (its first `text` line), whole: a rule such as a
    patience's layout says everything in it, and its first sentence alone ("Shuffle the pack.")
    would leave the rest out. Past `limit`, whole sentences up to it, then an ellipsis."""
    if not texts:
        return ""
    text = " ".join(str(texts[0]).split())
    if len(text) <= limit:
        return _sentence(text) if text else ""
    kept = ""
    for part in _SENTENCE_END.split(text):
        if len(kept) + len(part) + 1 > limit:
            break
        kept = f"{kept} {part}".strip()
    return (kept + " \u2026") if kept else first_sentence(text, limit)


def _names_in(e) -> set[str]:
    """Every bare name an expression reads (aggregate variables included)."""
    out: set[str] = set()

    def walk(x):
        if isinstance(x, g.Name):
            out.add(x.name)
        elif isinstance(x, g.Node):
            for v in x.__dict__.values():
                walk(v)
        elif isinstance(x, (tuple, list)):
            for v in x:
                walk(v)
    walk(e)
    return out


class _Deciders:
    """Walks the phases in statement order, following performed procedures, and records for each
    rule who makes its decisions, in words ('the leader', 'each other player'), innermost rule
    first: a rule nested in another keeps its own decisions."""

    def __init__(self, rs: g.Ruleset):
        self.rs = rs
        self.en = English(rs)
        self.procs = {p.name: p for p in rs.procedures}
        self.by_rule: dict[str, list[str]] = {}

    def phrase(self, e, who: dict[str, str], local: set[str]) -> str:
        """Who a player expression names, without the names of local variables."""
        if isinstance(e, g.Name) and e.name in who:
            return who[e.name]
        if _names_in(e) & local:
            return "a player"
        return self.en(e)

    def walk(self, stmts, who: dict[str, str], local: set[str], rule: str | None, stack: tuple[str, ...]):
        who, local = dict(who), set(local)
        for s in stmts:
            if isinstance(s, g.Rule):
                self.by_rule.setdefault(s.name, [])
                self.walk(s.body, who, local, s.name, stack)
            elif isinstance(s, g.Choose):
                if s.each is not None:
                    group = self.phrase(s.by, who, local)
                    person = f"every player of {group}"
                    if isinstance(s.by, g.Agg) or group.startswith("a ") or len(person) > 48:
                        person = "several players at once"
                    if s.secret:
                        person = "several players secretly"
                    if s.any:
                        person = "whoever of several players acts first"
                    inner = {**who, s.each: person}
                else:
                    person, inner = self.phrase(s.by, who, local), who
                if self.rs.players_max == 1:
                    person = "the player"
                if rule is not None and person not in self.by_rule[rule]:
                    self.by_rule[rule].append(person)
                for a in s.actions:
                    names = {a.var} | {m.var for m in a.more} if a.var else set()
                    self.walk(a.body, inner, local | names | ({s.each} if s.each else set()), rule, stack)
            elif isinstance(s, g.ForPlayers):
                each = "each other player" if s.start == "after" else "each player"
                self.walk(s.body, {**who, s.var: each}, local | {s.var}, rule, stack)
            elif isinstance(s, g.ForEach):
                self.walk(s.body, who, local | {s.var}, rule, stack)
            elif isinstance(s, g.Let):
                if self.en.kind(s.value) == "player" or (isinstance(s.value, g.Name) and s.value.name in who):
                    first = self.phrase(s.value, who, local)
                    later = [x.value for st in stmts for x in g.nodes_below(st)
                             if isinstance(x, g.Set) and x.name == s.name and x.index is None]
                    if not later:
                        who[s.name] = first
                    elif all(isinstance(v, g.Call) and v.func == "next" and len(v.args) == 1
                             and isinstance(v.args[0], g.Name) and v.args[0].name == s.name for v in later):
                        who[s.name] = f"each player in turn from {first}"  # (a speaker going round the table)
                    # (else set to another player later: 'a player', as any local)
                local.add(s.name)
            elif isinstance(s, g.Perform):
                proc = self.procs.get(s.name)
                if proc is None or s.name in stack:
                    continue
                inner: dict[str, str] = {}
                for prm, arg in zip(proc.params, s.args):
                    if prm.type == "player":
                        inner[prm.name] = self.phrase(arg, who, local)
                self.walk(proc.body, inner, {p.name for p in proc.params}, rule, stack + (s.name,))
            else:
                for block in g.child_blocks(s):
                    self.walk(block, who, local, rule, stack)


def _who_line(people: list[str]) -> str:
    if not people:
        return ""
    verb = "decides" if len(people) == 1 and not people[0].startswith("several") else "decide"
    return f"{_plain_list(people)} {verb}"


def _rules_declaring(rs: g.Ruleset) -> tuple[list[g.Rule], list[g.Rule]]:
    """The rules that name a winner (any `declare winner` other than `none`), and those that only
    ever declare that nobody wins, in the order the phases and procedures list them."""
    winners: list[g.Rule] = []
    nobody: list[g.Rule] = []
    seen: set[str] = set()

    procs = {p.name: p for p in rs.procedures}

    def declares(stmts, stack: tuple = ()) -> set[str]:
        kinds: set[str] = set()
        for st in stmts:
            if isinstance(st, g.Rule):
                continue  # a nested rule speaks for itself
            if isinstance(st, g.DeclareWinner):
                kinds.add("none" if isinstance(st.who, g.NoneLit) else "someone")
            if isinstance(st, g.Perform) and st.name in procs and st.name not in stack:
                # (a procedure it follows that names the winner: Jass's check_target, by a new user)
                kinds |= declares(procs[st.name].body, stack + (st.name,))
            for block in g.child_blocks(st):
                kinds |= declares(block, stack)
        return kinds

    def walk(stmts):
        for st in stmts:
            if isinstance(st, g.Rule) and st.name not in seen:
                seen.add(st.name)
                kinds = declares(st.body)
                if "someone" in kinds:
                    winners.append(st)
                elif "none" in kinds:
                    nobody.append(st)
            for block in g.child_blocks(st):
                walk(block)
    for ph in rs.phases:
        walk(ph.body)
    for pr in rs.procedures:
        walk(pr.body)
    return winners, nobody


def _rule_line(r: g.Rule, ref: str | None) -> str:
    title = em(r.title or _cap(human(r.name)))
    if ref:
        title = link(ref, title)
    said = opening(r.texts)
    return f"{title}: {said}" if said else title


def _goal(book) -> list[dict]:
    """How one wins, as points: each a `label`, a `text` and possibly `items` under it."""
    rs, en = book.rs, book.en
    refs = {name: "#" + hit[2] for name, hit in book.first_number.items()}
    winners, nobody = _rules_declaring(rs)
    points: list[dict] = []

    def rules_point(label: str, rules: list[g.Rule]) -> dict:
        if len(rules) == 1:
            return {"label": label, "text": _rule_line(rules[0], refs.get(rules[0].name)), "items": []}
        return {"label": label, "text": "by one of these rules:",
                "items": [_rule_line(r, refs.get(r.name)) for r in rules]}
    if winners:
        points.append(rules_point("Decided at once", winners))  # (the winners named: perhaps all but a loser)
    if rs.winner is not None:
        w = rs.winner
        d = en.defines.get(w.score) or en.vars.get(w.score)
        meaning = ""
        if d is not None and d.texts:
            meaning = first_sentence(" ".join(d.texts)).rstrip(".")
            meaning = f" ({meaning[:1].lower() + meaning[1:] if meaning[1:2].islower() else meaning})"
        share = "; tied players share the win" if rs.players_max > 1 else ""
        if rs.players_max == 1:  # one player: the score is the result, there is no one to beat
            better = "higher" if w.rule == "most" else "lower"
            text = f"your result is your {en.term(w.score)}{meaning}: the {better} the better."
        else:
            text = f"the winner is the player with the {most(w.rule, w.score)} {en.term(w.score)}{meaning}{share}."
        points.append({"label": "Otherwise, at the end" if winners else "At the end", "text": text, "items": []})
    if nobody:
        points.append(rules_point("Nobody wins", nobody))
    if not points:
        points.append({"label": "Winning", "text": "this game names no winner.", "items": []})
    return points


def _start(phase) -> dict:
    lines: list[str] = []
    if phase.texts:
        lines.append(opening(phase.texts))
    for r in phase.rules:
        if len(lines) >= _START_LINES:
            break
        title = link("#" + r.id, em(r.title))
        if r.texts:
            lines.append(f"{title}: {opening(r.texts)}")
        else:
            steps = [s.text for s in r.steps[:2]]
            more = " \u2026" if len(r.steps) > 2 or any(s.children for s in r.steps[:2]) else ""
            lines.append(f"{title}: {' '.join(steps)}{more}")
    if not phase.rules and phase.outline:
        lines += [s.text for s in phase.outline[:_START_LINES]]
    return {"heading": phase.heading, "id": phase.id, "lines": lines[:_START_LINES]}


def _rule_names(node, procedures: dict, out: list, seen: set) -> list:
    """The names of the rules in a statement (or statements), in order, those of the procedures
    it performs included (the book numbers those among the phase's rules)."""
    if isinstance(node, (list, tuple)):
        for x in node:
            _rule_names(x, procedures, out, seen)
    elif isinstance(node, g.Rule):
        out.append(node.name)
        _rule_names(node.body, procedures, out, seen)
    elif isinstance(node, g.Perform):
        if node.name in procedures and node.name not in seen:
            seen.add(node.name)
            _rule_names(procedures[node.name].body, procedures, out, seen)
    elif isinstance(node, g.Node):
        for name in type(node).model_fields:
            value = getattr(node, name)
            if isinstance(value, (g.BaseModel, list, tuple)):
                _rule_names(value, procedures, out, seen)
    return out


def _repeat(ph: g.Phase, en: English, rules: list[dict]) -> str | None:
    """How the phase repeats: the whole of it, or the rules of its loop by their numbers."""
    for s in ph.body:
        if isinstance(s, (g.While, g.Repeat)):
            how = en.loop_test(s.test) if isinstance(s, g.While) else "until the rules end it"
            inside = set(_rule_names(s.body, {p.name: p for p in en.rs.procedures}, [], set()))
            numbers = [r["number"] for r in rules if r["name"] in inside]
            if not numbers or len(numbers) == len(rules):
                return f"Repeated {how}"
            if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
                which = f"rules {numbers[0]} to {numbers[-1]}"
            else:
                which = ("rule " if len(numbers) == 1 else "rules ") + _plain_list(str(n) for n in numbers)
            return f"{_cap(which)} repeated {how}"
    return None


def _turn(book, phases: list, deciders: _Deciders, start: int) -> list[dict]:
    out = []
    index = {ph.name: i for i, ph in enumerate(book.rs.phases)}
    for i, (ph, view) in enumerate(zip(book.rs.phases, phases)):
        if i < start:
            continue
        rules = [{"number": r.number, "title": r.title, "id": r.id, "name": r.name,
                  "who": _who_line(deciders.by_rule.get(r.name, []))} for r in view.rules]
        then = None
        if ph.then is None:
            then = "Then the game ends." if i == len(phases) - 1 else None
        elif index.get(ph.then, len(phases)) <= i:
            nxt = phases[index[ph.then]]
            then = f"Then back to {link('#' + nxt.id, nxt.heading)}."
        elif index.get(ph.then) != i + 1:
            nxt = phases[index[ph.then]]
            then = f"Then on to {link('#' + nxt.id, nxt.heading)}."
        out.append({"heading": view.heading, "id": view.id, "repeat": _repeat(ph, English(book.rs), rules),
                    "rules": rules, "then": then})
    return out


def _options(book) -> dict:
    items, off = [], []
    many = len(book.rs.options) > _MANY_OPTIONS
    for o in book.rs.options:
        if many and o.type == "bool" and o.default is False:
            off.append(code(o.name))
            continue
        default = ("on" if o.default else "off") if o.type == "bool" else _fmt_value(o.default)
        about = first_sentence(o.description or " ".join(o.texts), limit=140)
        items.append({"name": o.name, "default": default, "about": about})
    return {"items": items, "off": _plain_list(off)}


def quick_reference(book, phases: list) -> dict:
    """The quick reference's content: `goal` (sentences), `start` (the first phase summarised, or
    None for a game of one phase), `turn` (a phase each: its rules with who decides), `options`."""
    rs = book.rs
    deciders = _Deciders(rs)
    for ph in rs.phases:
        deciders.walk(ph.body, {}, set(), None, ())
    several = len(phases) > 1
    return {
        "title": QUICK_TITLE,
        "players": book.players(),
        "goal": _goal(book),
        "start": _start(phases[0]) if several else None,
        "turn": _turn(book, phases, deciders, 1 if several else 0),
        "options": _options(book),
    }
