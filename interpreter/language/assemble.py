"""Stage 2b: the items of a file (transform.py) -> a Ruleset: a game assembled, or a variant
merged onto its base by name (a variant states only what changes, and may remove what it no
longer uses: removal.py)."""

from __future__ import annotations

from . import graph as g
from .removal import WORDS as _REMOVED_WORDS, apply_removals
from .locate import located as _err, source_line as _source_line
from .transform import _Item, _Text

_WORD = {"options": "option", "vars": "variable", "defines": "definition", "procedures": "procedure", "advice": "advice",
         "phases": "phase", "interpretations": "interpretation", "zones": "zone"}
_MERGEABLE = {"options": g.Option, "vars": g.Var, "defines": g.Define, "procedures": g.Procedure, "advice": g.Advice,
              "phases": g.Phase, "interpretations": g.Interpretation, "zones": g.Zone}


def _close(name: str, known) -> bool:
    """Whether some name of `known` is close to `name` (a misspelling of it)."""
    import difflib
    return bool(difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6))


def _rule_names(blocks) -> set:
    """The names of the rules anywhere in these phases and procedures."""
    out: set = set()

    def walk(stmts):
        for st in stmts:
            if isinstance(st, g.Rule):
                out.add(st.name)
            for block in g.child_blocks(st):
                walk(block)
    for b in blocks:
        walk(b.body)
    return out


def _close_names(name: str, known, what: str) -> str:
    """'did you mean ...?' with the closest of `known` (as bundled._suggest), else what there is."""
    import difflib
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    if not names:
        return f"it has no {what}s"
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"its {what}s: {shown}"


def _collect(items, filename):
    parts: dict = {k: [] for k in _MERGEABLE}
    parts.update(texts=[], notes=[], rules=[], option_defaults=[], orders=[], removals=[], new_rules=[])
    single: dict = {}
    for it in items:
        if isinstance(it, _Text):
            parts["notes" if it.note else "texts"].append(it.text)
        elif isinstance(it, g.Rule):
            parts["rules"].append(it)
        elif isinstance(it, g.Deck):
            single["deck"] = it
        elif isinstance(it, g.Winner):
            single["winner"] = it
        elif isinstance(it, g.Sides):
            single["sides"] = it
        elif isinstance(it, _Item):
            if it.kind == "option_default":
                parts["option_defaults"].append(it)
            elif it.kind == "order":
                parts["orders"].append(it)
            elif it.kind == "remove":
                parts["removals"].extend(it.value)
            elif it.kind == "new_rule":
                parts["new_rules"].append(it)
            else:
                if it.kind == "about" and "about" in single:
                    raise _err(f"'about' is written once (first at line {single['about'].loc.line}): its words may go on "
                               'in more strings on the line, about "..." "..."', it.loc)
                single[it.kind] = it
        else:
            for key, cls in _MERGEABLE.items():
                if isinstance(it, cls):
                    parts[key].append(it)
    for key in _MERGEABLE:
        seen: dict[str, g.Node] = {}
        for node in parts[key]:
            if node.name in seen:
                raise _err(f"{_WORD[key]} {node.name!r} is defined twice (first at line {seen[node.name].loc.line})",
                           node.loc)
            seen[node.name] = node
    return parts, single


def _assemble_game(header: _Item, items, filename: str) -> g.Ruleset:
    parts, single = _collect(items, filename)
    name, title, _ = header.value
    if "players" not in single:
        raise _err("a game needs a 'players N' or 'players N..M' line", header.loc)
    if "deck" not in single:
        raise _err("a game needs a 'deck' block", header.loc)
    if parts["rules"]:
        r = parts["rules"][0]
        raise _err("a rule at the top level only makes sense in a variant (to replace a rule by name); "
                   "put it inside a phase", r.loc)
    if parts["new_rules"]:
        r = parts["new_rules"][0].value[0]
        raise _err(f"'new rule' only makes sense in a variant (it adds rule {r.name!r} to the base game's play); "
                   "in a game, write the rule where it is played", r.loc)
    if parts["option_defaults"]:
        it = parts["option_defaults"][0]
        raise _err(f"'option {it.value[0]} = ...' changes a base game's default; in a game, declare the option "
                   "with its type: option NAME: bool = true", it.loc)
    if parts["removals"]:
        r = parts["removals"][0]
        raise _err(f"'remove' only makes sense in a variant (it takes {_REMOVED_WORDS[r.kind]} {r.name!r} out of "
                   "the base game); in a game, delete the lines instead", r.loc)
    if "about" in single:
        raise _err("'about' describes a variant's game anew, in place of its base's description; a game "
                   'describes itself with text "..." at the top', single["about"].loc)
    deck = single["deck"]
    for it in parts["orders"]:
        deck = _apply_order(deck, it)
    for node in parts["defines"] + parts["procedures"] + parts["advice"]:
        if node.new:
            raise _err(f"'new' only makes sense in a variant (it adds {node.name!r} to the base game); "
                       "in a game, just define it", node.loc)
    lo, hi = single["players"].value
    if lo < 1 or hi < lo:
        raise _err(f"player counts {lo}..{hi} make no sense", single["players"].loc)
    return g.Ruleset(
        name=name, title=title, source=filename, loc=header.loc, players_min=lo, players_max=hi,
        direction=single["direction"].value if "direction" in single else "clockwise",
        deck=deck, winner=single.get("winner"), sides=single.get("sides"),
        max_decisions=single["bound"].value if "bound" in single else None,
        texts=tuple(parts["texts"]), notes=tuple(parts["notes"]),
        **{k: tuple(parts[k]) for k in _MERGEABLE})


def _apply_order(deck: g.Deck, it: _Item) -> g.Deck:
    suits, ranks = it.value
    for s in suits:
        if s not in deck.suits:
            raise _err(f"'order for' names {s!r}, which is not a suit of deck {deck.name!r}", it.loc)
    if sorted(ranks) != sorted(deck.ranks):
        missing = [r for r in deck.ranks if r not in ranks]
        extra = [r for r in ranks if r not in deck.ranks]
        bits = []
        if missing:
            bits.append("missing " + ", ".join(missing))
        if extra:
            bits.append("unknown " + ", ".join(extra))
        raise _err("an order must list every rank of the deck exactly once (" + "; ".join(bits or ["a rank is repeated"]) + ")",
                   it.loc)
    orders = dict(deck.orders)
    for s in suits:
        if tuple(ranks) == deck.ranks:
            orders.pop(s, None)
        else:
            orders[s] = tuple(ranks)
    return deck.model_copy(update={"orders": orders})


def _replace_rule(stmts: tuple, rule: g.Rule, hits: list) -> tuple:
    out = []
    for s in stmts:
        if isinstance(s, g.Rule) and s.name == rule.name:
            hits.append(s)
            out.append(rule)
            continue
        out.append(_map_children(s, lambda body: _replace_rule(body, rule, hits)))
    return tuple(out)


def _insert_rule(stmts: tuple, rule: g.Rule, where: str, anchor: str) -> tuple:
    """The statements with `rule` put just after (or before) the rule named `anchor`, wherever
    in them it stands."""
    out = []
    for s in stmts:
        if isinstance(s, g.Rule) and s.name == anchor:
            out.extend((s, rule) if where == "after" else (rule, s))
            continue
        out.append(_map_children(s, lambda body: _insert_rule(body, rule, where, anchor)))
    return tuple(out)


def _map_children(s, fn):
    """Apply fn to every statement block directly inside s."""
    if isinstance(s, g.If):
        return s.model_copy(update={"branches": tuple(b.model_copy(update={"body": fn(b.body)}) for b in s.branches),
                                    "else_": fn(s.else_)})
    if isinstance(s, g.Choose):
        return s.model_copy(update={"actions": tuple(a.model_copy(update={"body": fn(a.body)}) for a in s.actions)})
    if hasattr(s, "body") and isinstance(getattr(s, "body"), tuple):
        return s.model_copy(update={"body": fn(s.body)})
    return s


def _merge_variant(base: g.Ruleset, name, title, items, filename, loc) -> g.Ruleset:
    parts, single = _collect(items, filename)
    upd: dict = {}
    changes: list[g.Change] = []
    for key in _MERGEABLE:
        current = {n.name: n for n in getattr(base, key)}
        order = [n.name for n in getattr(base, key)]
        for node in parts[key]:
            is_new = getattr(node, "new", False)
            if node.name in current:
                if is_new:
                    raise _err(f"{_WORD[key]} {node.name!r} is not new: the base game {base.name!r} has one; "
                               f"drop 'new' to replace it", node.loc)
                changes.append(g.Change(what=_WORD[key], name=node.name, action="replaced"))
            else:
                if key in ("defines", "procedures", "phases", "advice") and not is_new:
                    keyword = {"defines": "define", "procedures": "procedure", "advice": "advice"}.get(key)
                    hint = f" (write 'new {keyword} {node.name} ...' to add one)" if keyword else ""
                    if _close(node.name, current):  # (a misspelt name first: 'book_cnt' for 'book_count')
                        hint = f"; {_close_names(node.name, current, _WORD[key])}" + hint.replace(" (write", " (or write")
                    raise _err(f"{_WORD[key]} {node.name!r} overrides nothing: the base game "
                               f"{base.name!r} has no {_WORD[key]} of that name{hint}", node.loc)
                changes.append(g.Change(what=_WORD[key], name=node.name, action="added"))
                order.append(node.name)
            current[node.name] = node
        upd[key] = tuple(current[n] for n in order)
    options = {o.name: o for o in upd["options"]}
    for it in parts["option_defaults"]:
        oname, value = it.value
        if oname not in options:
            raise _err(f"option {oname!r} overrides nothing: the base game has no such option"
                       f" ({_close_names(oname, options, 'option')})", it.at or it.loc)
        options[oname] = options[oname].model_copy(update={"default": value, "loc": it.loc})
        changes.append(g.Change(what="option", name=oname, action="changed", detail=f"default is now {_fmt(value)}"))
    upd["options"] = tuple(options[o.name] for o in upd["options"])
    phases = upd["phases"]
    for rule in parts["rules"]:
        hits: list = []
        new_phases = []
        for ph in phases:
            new_phases.append(ph.model_copy(update={"body": _replace_rule(ph.body, rule, hits)}))
        procs = []
        for pr in upd["procedures"]:
            procs.append(pr.model_copy(update={"body": _replace_rule(pr.body, rule, hits)}))
        if not hits:
            names = _rule_names(list(phases) + list(upd["procedures"]))
            close = f" ({_close_names(rule.name, names, 'rule')})" if _close(rule.name, names) else ""
            raise _err(f"rule {rule.name!r} overrides nothing: the base game has no rule of that name{close}", rule.loc)
        phases = tuple(new_phases)
        upd["procedures"] = tuple(procs)
        changes.append(g.Change(what="rule", name=rule.name, action="replaced"))
    for it in parts["new_rules"]:
        rule, where, anchor = it.value
        names = _rule_names(list(phases) + list(upd["procedures"]))
        if rule.name in names:
            raise _err(f"rule {rule.name!r} is not new: the base game {base.name!r} has one; drop 'new' and the "
                       f"'{where} ...' to replace it (rule {rule.name} ...:)", rule.loc)
        if anchor not in names:
            raise _err(f"'new rule {rule.name} {where} {anchor}': the base game has no rule {anchor!r} "
                       f"({_close_names(anchor, names, 'rule')})", it.at or rule.loc)
        phases = tuple(ph.model_copy(update={"body": _insert_rule(ph.body, rule, where, anchor)}) for ph in phases)
        upd["procedures"] = tuple(pr.model_copy(update={"body": _insert_rule(pr.body, rule, where, anchor)})
                                  for pr in upd["procedures"])
        changes.append(g.Change(what="rule", name=rule.name, action="added", detail=f"played {where} rule {anchor!r}"))
    upd["phases"] = phases
    deck = single.get("deck", base.deck)
    if "deck" in single:
        changes.append(g.Change(what="deck", name=deck.name, action="replaced"))
    for it in parts["orders"]:
        deck = _apply_order(deck, it)
        changes.append(g.Change(what="deck", name="order", action="changed",
                                detail=f"{', '.join(it.value[0])} now rank {', '.join(it.value[1])} (low to high)"))
    upd["deck"] = deck
    if "players" in single:
        lo, hi = single["players"].value
        upd["players_min"], upd["players_max"] = lo, hi
        changes.append(g.Change(what="players", name="players", action="changed",
                                detail=f"{lo}" if lo == hi else f"{lo} to {hi}"))
    if "direction" in single:
        upd["direction"] = single["direction"].value
        changes.append(g.Change(what="turn order", name="direction", action="changed", detail=single["direction"].value))
    if "bound" in single:
        upd["max_decisions"] = single["bound"].value
        changes.append(g.Change(what="bound", name="max_decisions", action="changed",
                                detail=f"at most {single['bound'].value} decisions"))
    if "winner" in single:
        upd["winner"] = single["winner"]
        changes.append(g.Change(what="winner", name="winner", action="replaced"))
    if "sides" in single:
        upd["sides"] = single["sides"]
        changes.append(g.Change(what="sides", name="sides", action="replaced" if base.sides else "added"))
    if "about" in single:
        changes.append(g.Change(what="description", name="about", action="replaced"))
    upd.update(name=name, title=title, base=base.name, base_title=base.title or base.name, source=filename,
               loc=loc, texts=(single["about"].value,) if "about" in single else base.texts, variant_texts=base.variant_texts + tuple(parts["texts"]),
               notes=base.notes + tuple(parts["notes"]))
    merged = base.model_copy(update=upd)
    if parts["removals"]:
        stated = {(_KIND_OF[c.what], c.name) for c in changes if c.what in _KIND_OF}
        merged, removed = apply_removals(merged, parts["removals"], stated, base.name, _source_line, _close_names)
        changes.extend(removed)
    return merged.model_copy(update={"changes": tuple(changes)})


# a Change's `what` -> the word a `remove` line names it by
_KIND_OF = {word: kind for kind, word in _REMOVED_WORDS.items()}


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
