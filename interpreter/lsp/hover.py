"""Hover text: what the rulebook says of a thing (the author's words, then precisely)."""

from __future__ import annotations

from pathlib import Path


from ..language import graph as g
from ..errors import CardRulesError
from .index import Symbol
from .model import BUILTIN, CARD_ATTR, SUIT_RANK_ATTR, ZONE_ATTR, Analysis, norm, _fmt


def _entry_md(e, what: str) -> str:
    out = [f"**{e.name}** ({what})", f"```cards\n{e.form}\n```", e.words]
    if e.example:
        out.append(f"Example:\n```cards\n{e.example}\n```")
    return "\n\n".join(out)


def _md(text: str) -> str:
    from ..render.markup import to_markdown
    return to_markdown(text)



class Hover:
    """Hover text: what the rulebook says of a thing (the author's words, then precisely)."""

    def __init__(self, ws, a: Analysis):
        self.ws = ws
        self.a = a
        self.rs = a.graph or a.last_good
        self._en = None

    @property
    def en(self):
        if self._en is None:
            from ..render.words import English
            self._en = English(self.rs)
        return self._en

    def where(self, node) -> str:
        loc = getattr(node, "loc", None)
        if loc is None or norm(loc.file) == self.a.path:
            return ""
        return f" \u2014 from `{Path(loc.file).name}`, line {loc.line}"

    def prose(self, node) -> list[str]:
        out = []
        texts = getattr(node, "texts", ())
        if texts:
            out.append(" ".join(texts))
        notes = getattr(node, "notes", ())
        if notes:
            out.append("*Note:* " + " ".join(notes))
        return out

    def precise(self, body, params=(), cond: bool = False) -> str:
        try:
            with self.en.bound(**{p.name: p.type for p in params}):
                return _md(self.en.cond(body) if cond else self.en(body))
        except Exception:
            from ..language.unparse import unparse
            return f"`{unparse(body)}`"

    def text(self, ns: str, name: str, local: Symbol | None) -> str | None:
        if local is not None:
            name_part, _, rest = (local.detail or local.name).partition(", ")
            return f"**local name** `{name_part}`" + (f": {rest}" if rest else "")
        rs = self.rs
        if ns == "file":
            return f"**base ruleset** `{name}`" + (f" \u2014 {self.ws_title(self.a.base)}" if self.a.base else "")
        if ns == "attr":
            if rs is not None and name in rs.deck.values:
                table = ", ".join(f"{r} = {v}" for r, v in rs.deck.values[name].items())
                return f"**card value** `{name}` (of the deck)\n\n{table}; other ranks are worth 0."
            e = CARD_ATTR.get(name) or ZONE_ATTR.get(name)
            if e is None:
                return None
            also = SUIT_RANK_ATTR.get(name)  # (index: of a zone, a suit or a rank)
            return _entry_md(e, "attribute") + (f"\n\n---\n\n{_entry_md(also, 'attribute')}" if also else "")
        if rs is None:
            decl = self.ws.declarations(self.a.path, ns, name)
            if decl:
                return f"**{decl[0][1].kind}** `{decl[0][1].detail}`"
            e = BUILTIN.get(name) if ns == "value" else None
            return _entry_md(e, "built-in") if e else None
        if ns == "procedure":
            p = next((p for p in rs.procedures if p.name == name), None)
            if p is None:
                return None
            sig = ", ".join(f"{x.name}: {x.type}" for x in p.params)
            return "\n\n".join([f"**procedure** `{name}({sig})`{self.where(p)}", *self.prose(p)])
        if ns == "phase":
            ph = next((p for p in rs.phases if p.name == name), None)
            if ph is None:
                return None
            first = " (the game starts here)" if rs.phases and rs.phases[0].name == name else ""
            then = f"; then phase `{ph.then}`" if ph.then else "; the game ends after it"
            title = f" \u201c{ph.title}\u201d" if ph.title else ""
            return "\n\n".join([f"**phase** `{name}`{title}{first}{then}{self.where(ph)}", *self.prose(ph)])
        if ns == "rule":
            r = _find_rule(rs, name)
            if r is None:
                return None
            rule, inside = r
            title = f" \u201c{rule.title}\u201d" if rule.title else ""
            out = [f"**rule** `{name}`{title} \u2014 in {inside}{self.where(rule)}", *self.prose(rule)]
            if rule.when is not None:
                out.append(f"*When:* {self.precise(rule.when, cond=True)}")
            return "\n\n".join(out)
        if ns == "advice":
            ad = next((x for x in rs.advice if x.name == name), None)
            if ad is None:
                return None
            return "\n\n".join([f"**advice** `{name}`{self.where(ad)}", ad.summary, *self.prose(ad),
                                f"*Precisely:* {self.precise(ad.body, ad.params)}"])
        if ns == "interpretation":
            it = next((x for x in rs.interpretations if x.name == name), None)
            if it is None:
                return None
            return "\n\n".join([f"**interpretation** `{name}`{self.where(it)}", f"*{it.question}*", *self.prose(it)])
        if ns == "action":
            return f"**action** `{name}`: one kind of move in a choice"
        if ns == "deck":
            d = rs.deck
            return "\n\n".join([f"**deck** `{d.name}`" + (f" \u201c{d.title}\u201d" if d.title else ""),
                                f"{d.size()} cards; suits {', '.join(d.suits)}; ranks {', '.join(d.ranks)} (low to high)",
                                *self.prose(d)])
        if ns == "game":
            kind = "variant" if rs.base else "game"
            extra = f" of {rs.base_title}" if rs.base else ""
            players = f"{rs.players_min}" if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
            return f"**{kind}** `{rs.name}`" + (f" \u201c{rs.title}\u201d" if rs.title else "") + f"{extra}, for {players} player{'s' if players != '1' else ''}"
        return self.value(name)

    def ws_title(self, path):
        try:
            rs = self.ws.graph_of(path)
            return rs.title or rs.name
        except Exception:
            return Path(path).name

    def value(self, name: str) -> str | None:
        rs = self.rs
        v = next((x for x in rs.vars if x.name == name), None)
        if v is not None:
            sig = f"{name}({', '.join(f'{p.name}: {p.type}' for p in v.params)})" if v.params else name
            who = "only the rules read it (private)" if v.private else "everyone can see it"
            out = [f"**variable** `{sig}: {v.type}`{self.where(v)}",
                   f"One value for each player; {who}." if v.params else f"{who[0].upper()}{who[1:]}."]
            out += [t for t in v.texts]
            if v.init is not None:
                out.append(f"*Starts as:* {self.precise(v.init, v.params)}")
            else:
                out.append("*Starts as:* none")
            return "\n\n".join(out)
        o = rs.option(name)
        if o is not None:
            typ = {"bool": "yes or no", "enum": "one of " + ", ".join(o.choices)}.get(o.type, "a number")
            if o.type == "int" and o.low is not None:
                typ = f"a number from {o.low} to {o.high}"
            out = [f"**option** `{name}`: {typ}, default **{_fmt(o.default)}**{self.where(o)}"]
            if self.a.base:
                try:
                    b = self.ws.graph_of(self.a.base).option(name)
                    if b is not None and b.default != o.default:
                        out[0] += f" (the base game's default: {_fmt(b.default)})"
                except CardRulesError:
                    pass
            if o.description:
                out.append(o.description)
            out += self.prose(o)
            return "\n\n".join(out)
        d = next((x for x in rs.defines if x.name == name), None)
        if d is not None:
            sig = f"{name}({', '.join(f'{p.name}: {p.type}' for p in d.params)})" if d.params else name
            try:
                cond = self.en.define_kind(name) == "bool"
            except Exception:
                cond = False
            out = [f"**definition** `{sig}`{self.where(d)}", *self.prose(d),
                   f"*Precisely:* {self.precise(d.body, d.params, cond=cond)}"]
            return "\n\n".join(out)
        z = next((x for x in rs.zones if x.name == name), None)
        if z is not None:
            seen = {"hidden": "its cards lie face down: nobody sees them", "owner": "only its owner sees its cards",
                    "others": "its owner holds its cards facing away: everyone but the owner sees them",
                    "public": "its cards lie face up: everyone sees them"}[z.visibility]
            if z.size:
                shape = f"a family of {z.size} shared zones, `{name}(1)` to `{name}({z.size})`"
            elif z.per_player:
                shape = f"one for each player (`{name}(p)`; `{name}` alone is all of them)"
            else:
                shape = "shared"
            first = "; every card starts here" if rs.zones and rs.zones[0].name == name else ""
            title = f" \u201c{z.title}\u201d" if z.title else ""
            return f"**zone** `{name}`{title}{self.where(z)}\n\n{shape}; {seen}{first}."
        deck = rs.deck
        if name in deck.groups:
            return f"**rank group** `{name}` (of the deck)\n\n{', '.join(deck.groups[name])}"
        if name in deck.suits:
            order = deck.order_of(name)
            return f"**suit** `{name}` (of the deck `{deck.name}`)\n\nRanks low to high: {', '.join(order)}"
        if name in deck.ranks:
            return f"**rank** `{name}` (of the deck `{deck.name}`)"
        for o in rs.options:
            if name in o.choices:
                return f"**value of option** `{o.name}` (one of {', '.join(o.choices)})"
        e = BUILTIN.get(name)
        if e is not None:
            return _entry_md(e, "built-in")
        return None


def _find_rule(rs: g.Ruleset, name: str):
    def walk(stmts, inside):
        for s in stmts:
            if isinstance(s, g.Rule) and s.name == name:
                return s, inside
            for block in g.child_blocks(s):
                hit = walk(block, inside)
                if hit:
                    return hit
        return None
    for ph in rs.phases:
        hit = walk(ph.body, f"phase `{ph.name}`")
        if hit:
            return hit
    for p in rs.procedures:
        hit = walk(p.body, f"procedure `{p.name}`")
        if hit:
            return hit
    return None
