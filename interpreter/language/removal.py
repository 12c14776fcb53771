"""A variant's `remove KIND NAME, ...`: taking out of the merged game an option, a definition, a
variable, a procedure, an advice, an interpretation or a rule that the base has and the variant
no longer uses. Part of the build stage (build.py merges a variant, then calls `apply_removals`).

A name is removed only when nothing left in the merged game still uses it, so that a removal can
never leave a dangling reference for the compiler to find elsewhere: the error is told at the
`remove` line, with the place of the first use that is left."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import graph as g
from ..errors import RulesetError

# the word a `remove` line names -> the Ruleset field its items live in (a rule lives in the play)
FIELDS = {"option": "options", "define": "defines", "var": "vars", "procedure": "procedures",
          "advice": "advice", "interpretation": "interpretations", "rule": None}
# what the rulebook and the errors call each kind (as for the base's items a variant replaces)
WORDS = {"option": "option", "define": "definition", "var": "variable", "procedure": "procedure",
         "advice": "advice", "interpretation": "interpretation", "rule": "rule"}


@dataclass
class Removal:
    """One name of a `remove` line, where it is written."""

    kind: str
    name: str
    loc: g.Loc | None


# ------------------------------------------------------------------ what uses a name

# string fields that refer to a name, per node type (everything else is prose or binds a name)
_REFS = {g.Name: ("name",), g.Call: ("func",), g.Perform: ("name",), g.Set: ("name",),
         g.SplitGroup: ("define",), g.Split: ("score",), g.Deal: ("target",), g.Winner: ("score",),
         g.Sides: ("by",)}
# string fields that bind a local name (a definition's parameter, a `let`, an aggregate's variable, ...)
_BINDS = {g.Param: ("name",), g.Let: ("name",), g.Agg: ("var",), g.ForPlayers: ("var",), g.ForEach: ("var",),
          g.Action: ("var",), g.ActionParam: ("var",), g.Choose: ("each",)}


def _nodes(node):
    """node and every node below it, in the order they are written."""
    yield node
    for fname in type(node).model_fields:
        if fname == "loc":
            continue
        v = getattr(node, fname)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, g.Node):
                yield from _nodes(x)


def _located(node, outer):
    """(node, the innermost located node around it, itself included) for node and all below."""
    here = node if getattr(node, "loc", None) is not None else outer
    yield node, here
    for fname in type(node).model_fields:
        if fname == "loc":
            continue
        v = getattr(node, fname)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, g.Node):
                yield from _located(x, here)


def _items(rs: g.Ruleset):
    """(what, name, node) of every part of the game that can use a name."""
    for v in rs.vars:
        yield "variable", v.name, v
    for d in rs.defines:
        yield "definition", d.name, d
    for a in rs.advice:
        yield "advice", a.name, a
    for p in rs.procedures:
        yield "procedure", p.name, p
    for ph in rs.phases:
        yield "phase", ph.name, ph
    if rs.winner is not None:
        yield "winner", "winner", rs.winner
    if rs.sides is not None:
        yield "sides", "sides", rs.sides


def first_use(rs: g.Ruleset, name: str):
    """(what, its name, the located node) of the first use of `name` in the game, or None. A name
    bound locally inside the same item (a parameter, a `let`, `for each NAME`) is that item's own,
    not a use: a local that shares a removed name cannot keep it alive."""
    for what, item_name, item in _items(rs):
        local = {getattr(n, f) for n in _nodes(item) for f in _BINDS.get(type(n), ())}
        if name in local:
            continue
        for node, at in _located(item, item):
            if any(getattr(node, f) == name for f in _REFS.get(type(node), ())):
                return what, item_name, at
    return None


# ------------------------------------------------------------------ taking rules out

def _without_rule(stmts: tuple, name: str, hits: list, at: g.Loc | None) -> tuple:
    """The block with rule `name` taken out wherever it stands; a block left empty holds `pass`
    (the grammar has no empty block, and a removed rule leaves nothing to do there)."""
    out = []
    for s in stmts:
        if isinstance(s, g.Rule) and s.name == name:
            hits.append(s)
            continue
        out.append(_map_blocks(s, lambda body: _without_rule(body, name, hits, at)))
    if stmts and not out:
        out.append(g.Pass(loc=at))
    return tuple(out)


def _map_blocks(s, fn):
    """s with fn applied to every statement block directly inside it."""
    if isinstance(s, g.If):
        return s.model_copy(update={"branches": tuple(b.model_copy(update={"body": fn(b.body)}) for b in s.branches),
                                    "else_": fn(s.else_) if s.else_ else s.else_})
    if isinstance(s, g.Choose):
        return s.model_copy(update={"actions": tuple(a.model_copy(update={"body": fn(a.body)}) for a in s.actions)})
    if isinstance(getattr(s, "body", None), tuple):
        return s.model_copy(update={"body": fn(s.body)})
    return s


# ------------------------------------------------------------------ the merge

def _err(msg: str, loc: g.Loc | None, source_line) -> RulesetError:
    return RulesetError(msg, loc.file if loc else None, loc.line if loc else None,
                        loc.column if loc else None, source_line(loc))


def _where(node, path: str) -> str:
    loc = getattr(node, "loc", None)
    if loc is None:
        return "somewhere in the game"
    return f"line {loc.line}" + ("" if Path(loc.file) == Path(path) else f" of {Path(loc.file).name}")


def _detail(kind: str, node) -> str | None:
    """What the removed item was, in the author's words, for the rulebook's list of changes."""
    if kind == "option":
        return node.description
    if kind == "rule":
        return node.title
    if kind == "interpretation":
        return node.question
    texts = getattr(node, "texts", ())
    return " ".join(texts) if texts else None


def apply_removals(rs: g.Ruleset, removals: list[Removal], stated: set, base_name: str,
                   source_line, close_names) -> tuple[g.Ruleset, list[g.Change]]:
    """The merged game `rs` with every removal taken out, and the Changes for the rulebook. A
    located RulesetError when a name is not in the game, is stated by the variant itself
    (`stated`: the (kind, name) it adds, replaces or changes), is removed twice, or is still
    used by what is left."""
    upd: dict = {"phases": rs.phases, "procedures": rs.procedures}
    seen: dict[tuple, Removal] = {}
    taken: list[tuple[Removal, object]] = []
    for r in removals:
        word = WORDS[r.kind]
        if (r.kind, r.name) in seen:
            raise _err(f"{word} {r.name!r} is removed twice (first at line {seen[(r.kind, r.name)].loc.line})",
                       r.loc, source_line)
        seen[(r.kind, r.name)] = r
        if (r.kind, r.name) in stated:
            raise _err(f"{word} {r.name!r} is both written and removed in this variant: keep one or the other",
                       r.loc, source_line)
        field = FIELDS[r.kind]
        if field is None:  # a rule: wherever it stands in the phases and procedures
            hits: list = []
            upd["phases"] = tuple(ph.model_copy(update={"body": _without_rule(ph.body, r.name, hits, r.loc)})
                                  for ph in upd["phases"])
            upd["procedures"] = tuple(pr.model_copy(update={"body": _without_rule(pr.body, r.name, hits, r.loc)})
                                      for pr in upd["procedures"])
            if not hits:
                raise _err(f"rule {r.name!r} cannot be removed: the base game {base_name!r} has no rule of that "
                           "name", r.loc, source_line)
            taken.append((r, hits[0]))
            continue
        items = upd.get(field, getattr(rs, field))
        current = {n.name: n for n in items}
        if r.name not in current:
            raise _err(f"{word} {r.name!r} cannot be removed: the base game {base_name!r} has no {word} of that "
                       f"name ({close_names(r.name, current, word)})", r.loc, source_line)
        taken.append((r, current[r.name]))
        upd[field] = tuple(n for n in items if n.name != r.name)
    out = rs.model_copy(update=upd)
    changes = []
    for r, node in taken:
        if r.kind in ("option", "define", "var", "procedure"):
            use = first_use(out, r.name)
            if use is not None:
                what, name, at = use
                raise _err(f"{WORDS[r.kind]} {r.name!r} cannot be removed: {what} {name!r} still uses it "
                           f"({_where(at, rs.source)}); remove or replace that too", r.loc, source_line)
        changes.append(g.Change(what=WORDS[r.kind], name=r.name, action="removed", detail=_detail(r.kind, node)))
    return out, changes
