"""What of a position the rules never read, so that a table of solved positions may forget it.

Two lines of a trick-taking game that take the same two tricks in the other order reach the same
position but for the order of the cards in the won piles and for who played each card lying
there. When nothing in the rules can read those (`count(won(p))` reads neither), the two
positions have the same future, and the solver's table should know them as one (a
transposition). This walk proves it from the rule graph, erring towards reading:

- a zone kind's **order** is unread when every mention of the kind is in a place that cannot see
  the order: `count`, `any`, `no`, `highest`, `lowest` of it (as calls or as aggregates, and
  `all`, `sum`), membership (`c in Z`), where cards are moved to, cards revealed or told, and a
  whole zone moved into a kind whose order is itself unread. Anything else (`first`, `top`, `at`,
  an action or a loop over it, a shuffle or a deal from it, `those`, a definition returning it,
  `c.depth` or `c.beneath` of a card that may lie in it) reads the order;
- **who played** a card lying in a kind is unread when no `c.played_by` can be of a card lying
  there, and no card can carry its `played_by` from there into a kind where it is read (a card
  leaving a player's own zone is marked anew with that player: the engine's rule).

A card's kind is known where the card comes from an aggregate or a call over a named zone
(`highest c in trick where ...`, `first(trick)`); anywhere else it may lie in any kind. A zone
reached by `c.zone` (but for comparing it) or `zones(K)` may be any: then nothing is forgotten
for the kinds it may be."""

from __future__ import annotations

from dataclasses import dataclass

from . import graph as g

_FREE_CALLS = frozenset({"count", "any", "no", "highest", "lowest"})
_FREE_AGGS = frozenset({"all", "any", "no", "count", "sum", "max", "min", "highest", "lowest"})
_CARD_OF_ZONE = frozenset({"first", "last", "top", "bottom", "highest", "lowest", "at"})


@dataclass(frozen=True)
class Unread:
    """The zone kinds (by name) whose order, and whose cards' `played_by`, no rule reads."""

    unordered: frozenset
    no_played_by: frozenset


def unread(ruleset: g.Ruleset) -> Unread:
    w = _Walk({z.name: z for z in ruleset.zones})
    for name in type(ruleset).model_fields:
        w.visit(getattr(ruleset, name), None, None, {})
    everything = frozenset(w.kinds)
    ordered = set(w.ordered)
    changed = True
    while changed:  # a whole zone moved into an ordered kind hands its order on
        changed = False
        for k, dests in w.copies:
            if k not in ordered and (dests is None or dests & ordered):
                ordered.add(k)
                changed = True
    by = set(w.by)
    changed = True
    while changed:  # a card leaving a shared zone keeps its played_by
        changed = False
        for srcs, dests in w.flows:
            if (dests or everything) & by:
                for k in srcs or everything:
                    if k not in by and not w.kinds[k].per_player:
                        by.add(k)
                        changed = True
    return Unread(everything - ordered, everything - by)


def forgets(program) -> tuple:
    """Per zone kind of the program: whether a rule may read its order, and who played its
    cards (the solver's key, minimax.py's and solve.c's); (None, None) when every kind's are
    read, the key kept whole."""
    got = _FORGETS.get(id(program))
    if got is None or got[0] is not program:
        u = unread(program.ruleset)
        ordered = [z.name not in u.unordered for z in program.zones]
        by = [z.name not in u.no_played_by for z in program.zones]
        got = _FORGETS[id(program)] = (program, (None, None) if all(ordered) and all(by) else (ordered, by))
    return got[1]


_FORGETS: dict = {}


class _Walk:
    def __init__(self, kinds: dict):
        self.kinds = kinds
        self.ordered: set = set()
        self.by: set = set()
        self.copies: list = []  # (kind, kinds moved into or None for any): `move Z to W`
        self.flows: list = []   # (kinds the cards may come from, kinds they go to; None for any)

    def kind_of(self, e) -> frozenset | None:
        """The kind a zone expression names, or None when it is not a zone named outright."""
        if isinstance(e, g.Name) and e.name in self.kinds:
            return frozenset({e.name})
        if isinstance(e, g.Call) and e.func in self.kinds:
            return frozenset({e.func})
        return None

    def origin(self, e, env: dict) -> frozenset | None:
        """The kinds a card expression's card may lie in, or None for any."""
        if isinstance(e, g.Name):
            return env.get(e.name)
        if isinstance(e, g.Agg) and e.op in ("highest", "lowest"):
            return self.kind_of(e.domain)
        if isinstance(e, g.Call) and e.func in _CARD_OF_ZONE and e.args:
            return self.kind_of(e.args[0])
        if isinstance(e, g.Cond):
            a, b = self.origin(e.then, env), self.origin(e.else_, env)
            return None if a is None or b is None else a | b
        return None

    def all_kinds(self, kinds: frozenset | None) -> frozenset:
        return frozenset(self.kinds) if kinds is None else kinds

    def mention(self, kind: frozenset, parent, field: str | None) -> None:
        """A zone named in the place (parent, field): does that place see its order?"""
        if isinstance(parent, g.Call) and parent.func in _FREE_CALLS and field == "args":
            return
        if isinstance(parent, g.Agg) and field == "domain" and parent.op in _FREE_AGGS:
            return
        if isinstance(parent, g.BinOp) and parent.op in ("in", "not in") and field == "right":
            return
        if (isinstance(parent, g.Move) and field == "to" or isinstance(parent, g.Reveal) and field == "what"
                or isinstance(parent, g.Tell) and field == "cards"):
            return
        if isinstance(parent, g.Move) and field == "what":
            self.copies.extend((k, self.kind_of(parent.to)) for k in kind)
            return
        self.ordered |= kind

    def visit(self, x, parent, field: str | None, env: dict) -> None:
        if isinstance(x, (tuple, list)):
            for y in x:
                self.visit(y, parent, field, env)
            return
        if isinstance(x, dict):
            for y in x.values():
                self.visit(y, parent, field, env)
            return
        fields = getattr(type(x), "model_fields", None)
        if fields is None:
            return
        kind = self.kind_of(x)
        if kind is not None:
            self.mention(kind, parent, field)
        elif isinstance(x, g.Attr):
            if x.name == "played_by":
                self.by |= self.all_kinds(self.origin(x.obj, env))
            elif x.name in ("depth", "beneath"):
                self.ordered |= self.all_kinds(self.origin(x.obj, env))
            elif x.name == "zone" and not (isinstance(parent, g.BinOp) and parent.op in ("==", "!=")):
                self.ordered |= set(self.kinds)  # a zone of any kind, read as the rules please
                self.by |= set(self.kinds)
        elif isinstance(x, g.Call) and x.func == "zones":
            named = self.all_kinds(self.kind_of(x.args[0]) if x.args else None)
            self.ordered |= named
            self.by |= named
        elif isinstance(x, g.Move):
            what = self.kind_of(x.what)
            self.flows.append((what if what is not None else self.origin(x.what, env), self.kind_of(x.to)))
        elif isinstance(x, g.Deal):
            self.flows.append((self.kind_of(x.source), frozenset({x.target}) if x.target in self.kinds else None))
        if isinstance(x, g.Agg):
            self.visit(x.domain, x, "domain", env)
            inner = {**env, x.var: self.kind_of(x.domain)}
            for name in ("where", "body"):
                self.visit(getattr(x, name), x, name, inner)
            return
        if isinstance(x, g.NextWhere):
            inner = {**env, x.var: None}
            self.visit(x.start, x, "start", env)
            self.visit(x.where, x, "where", inner)
            return
        for name in fields:
            self.visit(getattr(x, name), x, name, env)
