"""Reading a ruleset without playing it: unreachable phases, unused definitions, constant
conditions, and what reads each option and zone (the graph walking the other stages share)."""

from __future__ import annotations

import random
import typing
from pathlib import Path
from typing import Callable

from ..language import graph as g
from ..language.unparse import unparse
from .common import Finding, MAX_FOLD_CONFIGS, option_combos, player_counts


# ====================================================================== graph helpers

_EXPR_TYPES = tuple(typing.get_args(typing.get_args(g.Expr)[0]))

# string fields that are prose, or that bind a name rather than refer to one
_PROSE = {"kind", "title", "label", "texts", "notes", "question", "description", "source", "base_title",
          "variant_texts"}
_BINDERS = {"name", "var", "type", "each"}


def _children(node):
    for name in type(node).model_fields:
        if name == "loc":
            continue
        v = getattr(node, name)
        if isinstance(v, g.Node):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, g.Node):
                    yield x


def _refs_here(node):
    """The names this node itself refers to: every string field that is neither prose nor a
    binder (a name, call, performed procedure, dealt-to zone, split's definitions, ...).
    Generic on purpose, so new statements are covered; a binder that happens to share a
    definition's name can only make the checks report less, never more."""
    refers = isinstance(node, (g.Name, g.Perform))
    for fname in type(node).model_fields:
        if fname in _PROSE or (fname in _BINDERS and not refers):
            continue
        v = getattr(node, fname)
        if isinstance(v, str):
            yield fname, v


_PICKS = {"top", "bottom", "first", "last"}  # calls that take a card of the zone they are given


def _names(node, out: set) -> set:
    """Every name a node and everything below it refers to."""
    for _, v in _refs_here(node):
        out.add(v)
    for c in _children(node):
        _names(c, out)
    return out


def _reads(node, out: set) -> set:
    """Names read, leaving out where cards are moved or dealt to and what is shuffled: a
    zone only ever named there is never looked at."""
    if isinstance(node, g.Move):
        _reads(node.what, out)
        if node.face_up is not None:
            _reads(node.face_up, out)
        return out
    if isinstance(node, g.Shuffle):
        return out
    for fname, v in _refs_here(node):
        if not (isinstance(node, g.Deal) and fname == "target"):
            out.add(v)
    for c in _children(node):
        _reads(c, out)
    return out


def _loc(node) -> str | None:
    loc = getattr(node, "loc", None)
    return f"{loc.file}:{loc.line}:{loc.column}" if loc else None


def _line(node, path: str | None = None) -> str:
    """'line 12', or 'line 12 of base.cards' when the node comes from another file than path
    (a variant's inherited parts)."""
    loc = getattr(node, "loc", None)
    if not loc:
        return "an unknown line"
    if path is not None and Path(loc.file) != Path(path):
        return f"line {loc.line} of {Path(loc.file).name}"
    return f"line {loc.line}"


def _walk(node, ctx: tuple, fn: Callable, stmt=None):
    """Call fn(node, ctx, stmt) for node and everything below it; ctx is the innermost
    ("rule"|"phase"|"procedure"|"definition"|"variable", name); stmt the innermost located
    statement (or definition) around the node, for its place in the source."""
    if isinstance(node, g.Rule):
        ctx = ("rule", node.name)
    if isinstance(node, g.Located) and not isinstance(node, _EXPR_TYPES):
        stmt = node
    fn(node, ctx, stmt)
    for c in _children(node):
        _walk(c, ctx, fn, stmt)


def _ctx_text(ctx: tuple) -> str:
    return f"{ctx[0]} {ctx[1]!r}"


class _Unknown:
    def __repr__(self) -> str:
        return "?"


UNK = _Unknown()
NONE = ("none",)


# ====================================================================== static analysis

class Static:
    """What can be said without playing: phases, usage, zones that are never read, and
    conditions that constant folding decides."""

    def __init__(self, rs: g.Ruleset, path: str):
        self.rs = rs
        self.path = path
        self.defines = {d.name: d for d in rs.defines}
        self.procs = {p.name: p for p in rs.procedures}
        self.options = {o.name: o for o in rs.options}
        self.zones = {z.name: z for z in rs.zones}
        self.enum_values = {c for o in rs.options if o.type == "enum" for c in o.choices}
        self.suits = set(rs.deck.suits)
        self.ranks = set(rs.deck.ranks)
        self.findings: list[Finding] = []
        self.dead_options: set[str] = set()
        self.option_reads: dict[str, list] = {}
        self.constant: dict[tuple, bool] = {}      # (id(node), role) -> value, for hints
        self.rule_when_false: set[str] = set()
        self.performers: dict[str, list] = {}        # procedure -> contexts that perform it
        self.fixed: dict[str, bool] = {}             # yes/no variables that never change (_conditions)
        self._phases()
        self._usage()
        self._zones()
        self._conditions()
        self._one_copy()

    # ---------------------------------------------------------------- helpers
    def _find(self, kind, sentence, rules, node):
        self.findings.append(Finding(kind, sentence, list(dict.fromkeys(rules)), self.path, _loc(node)))

    def setup_rules(self) -> set:
        """The rules played before anyone can decide anything (from the first phase on, up to
        the first choice, a procedure's included): whether they fire is the deal's alone."""
        rs, out = self.rs, set()
        procs = self.procs

        def choice_in(node, seen=frozenset()) -> bool:
            if isinstance(node, g.Choose):
                return True
            if isinstance(node, g.Perform) and node.name in procs and node.name not in seen:
                return any(choice_in(x, seen | {node.name}) for x in procs[node.name].body)
            return any(choice_in(c, seen) for c in _children(node))

        def walk(stmts) -> bool:  # True: a choice was reached
            for s in stmts:
                if isinstance(s, (g.Choose, g.Perform)) or (isinstance(s, (g.While, g.Repeat, g.ForEach, g.ForPlayers)) and choice_in(s)):
                    if choice_in(s):  # a loop with a choice runs its rules again after decisions
                        return True
                    continue  # a procedure's rules may be performed after decisions too: not counted
                if isinstance(s, g.Rule):
                    out.add(s.name)
                if any([walk(b) for b in g.child_blocks(s)]):
                    return True
            return False
        by = {ph.name: ph for ph in rs.phases}
        ph, done = (rs.phases[0] if rs.phases else None), set()
        while ph is not None and ph.name not in done:
            done.add(ph.name)
            if walk(ph.body):
                break
            ph = by.get(ph.then) if ph.then else None
        return out

    def reads_through(self, e) -> set:
        """The names e reads, and those read by the definitions it reads, transitively."""
        out: set = set()
        todo = [e]
        while todo:
            for n in _names(todo.pop(), set()):
                if n not in out:
                    out.add(n)
                    if n in self.defines:
                        todo.append(self.defines[n])
        return out

    def rules_of(self, ctx: tuple, depth: int = 0) -> list[str]:
        """The rules a context belongs to: its rule, or the rules performing its procedure."""
        if ctx[0] == "rule" or depth > 8:
            return [ctx[1]]
        if ctx[0] == "procedure":
            out = []
            for c in self.performers.get(ctx[1], []):
                out.extend(self.rules_of(c, depth + 1))
            return list(dict.fromkeys(out)) or [ctx[1]]
        return [ctx[1]]

    def _roots(self):
        for ph in self.rs.phases:
            yield ph, ("phase", ph.name)
        for v in self.rs.vars:
            if v.init is not None:
                yield v, ("variable", v.name)
        for a in self.rs.advice:
            yield a, ("advice", a.name)

    # ---------------------------------------------------------------- phases
    def _phases(self):
        rs = self.rs
        if not rs.phases:
            return
        by = {ph.name: ph for ph in rs.phases}
        seen: list[str] = []
        cur = rs.phases[0]
        while cur is not None and cur.name not in seen:
            seen.append(cur.name)
            cur = by.get(cur.then) if cur.then else None
        first = rs.phases[0].name
        for ph in rs.phases:
            if ph.name not in seen:
                self._find("unreachable-phase",
                           f"Phase {ph.name!r} ({ph.title or ph.name}, {_line(ph, self.path)}) can never be reached: no chain "
                           f"of 'then' leads to it from the first phase {first!r} (the compiler only checks that "
                           "some phase names it)", [ph.name], ph)

    # ---------------------------------------------------------------- usage
    def _usage(self):
        rs = self.rs
        used_d: list[str] = []
        used_p: list[str] = []
        todo = [node for node, _ in self._roots()]
        if rs.winner is not None and rs.winner.score in self.defines:
            used_d.append(rs.winner.score)
            todo.append(self.defines[rs.winner.score])
        if rs.sides is not None and rs.sides.by in self.defines and rs.sides.by not in used_d:
            used_d.append(rs.sides.by)
            todo.append(self.defines[rs.sides.by])
        while todo:
            node = todo.pop()
            for n in sorted(_names(node, set())):
                if n in self.defines and n not in used_d:
                    used_d.append(n)
                    todo.append(self.defines[n])
                elif n in self.procs and n not in used_p:
                    used_p.append(n)
                    todo.append(self.procs[n])
        self.used_code = [(node, ctx) for node, ctx in self._roots()]
        self.used_code += [(self.defines[n], ("definition", n)) for n in used_d]
        self.used_code += [(self.procs[n], ("procedure", n)) for n in used_p]
        for d in rs.defines:
            if d.name not in used_d:
                self._find("unused-definition",
                           f"Definition {d.name!r} ({_line(d, self.path)}) is never used: no phase, procedure, variable, score, "
                           "advice or used definition refers to it, directly or through others", [d.name], d)
        for p in rs.procedures:
            if p.name not in used_p:
                self._find("unused-definition",
                           f"Procedure {p.name!r} ({_line(p, self.path)}) is never performed by any phase, rule or used "
                           "procedure", [p.name], p)

        def visit(node, ctx, stmt):
            if isinstance(node, g.Name) and node.name in self.options:
                self.option_reads.setdefault(node.name, []).append((ctx, stmt))
            if isinstance(node, g.Perform):
                self.performers.setdefault(node.name, []).append(ctx)
        for node, ctx in self.used_code:
            _walk(node, ctx, visit)
        for o in rs.options:
            if o.name not in self.option_reads:
                self.dead_options.add(o.name)
                what = f" ({o.description})" if o.description else ""
                self._find("dead-option",
                           f"Option {o.name!r}{what} is never read by any rule, procedure or used definition: "
                           "setting it changes nothing (in a variant, the definitions that read it may have "
                           "been replaced)", [o.name], o)

    # ---------------------------------------------------------------- cards named
    def _one_copy(self):
        """card(R, S) compared with a card where the deck holds several copies of it: it names
        the first copy only, so the test misses the others (a new user's Doppelkopf: the second
        Queen of Clubs never counted)."""
        copies: dict = {}
        for line in self.rs.deck.lines():
            for r in line.ranks:
                for s in line.suits:
                    copies[(r, s)] = copies.get((r, s), 0) + line.copies
        said = set()

        def literal(x):
            return x.name if isinstance(x, g.Name) else str(x.value) if isinstance(x, g.IntLit) else None

        def visit(node, ctx, stmt):
            if not (isinstance(node, g.BinOp) and node.op in ("==", "!=")):
                return
            for side in (node.left, node.right):
                if isinstance(side, g.Call) and side.func == "card" and len(side.args) == 2:
                    r, s = literal(side.args[0]), literal(side.args[1])
                    n = copies.get((r, s), 0)
                    if n > 1 and (r, s) not in said:
                        said.add((r, s))
                        other = node.right if side is node.left else node.left
                        x = unparse(other)
                        self._find("one-copy",
                                   f"card({r}, {s}) names the first of the deck's {n} copies of the {r} of {s} only, so "
                                   f"{unparse(node)} misses the other{'s' if n > 2 else ''} ({_line(stmt, self.path)}): "
                                   f"to mean any copy, write {x}.rank == {r} and {x}.suit == {s}",
                                   self.rules_of(ctx), stmt)
        for node, ctx in self.used_code:
            _walk(node, ctx, visit)

    # ---------------------------------------------------------------- zones
    def _zones(self):
        reads: set = set()
        writes: dict[str, list] = {}
        for node, ctx in self.used_code:
            _reads(node, reads)

            def visit(n, c, stmt):
                if isinstance(n, g.Move):
                    for z in _names(n.to, set()) & set(self.zones):
                        writes.setdefault(z, []).append((c, n))
                elif isinstance(n, g.Deal) and n.target in self.zones:
                    writes.setdefault(n.target, []).append((c, n))
            _walk(node, ctx, visit)
        self.zone_writes = writes
        # a zone no expression reads and nobody can see: cards that end there are lost, unless
        # every move there takes them from zones every player sees (cards turned up on the table
        # and put out of play in the same rule were seen, though no decision came between)
        self.leak_zones = {z.name: z for z in self.rs.zones if z.name not in reads and z.visibility != "public"
                           and not (writes.get(z.name) and all(self._from_public(n) for _, n in writes[z.name]))}

    def _from_public(self, n) -> bool:
        """A move whose cards can only come from public zones (it names no other place to take them)."""
        if not isinstance(n, g.Move):
            return False
        named = _names(n.what, set())
        zones = named & set(self.zones)
        return bool(zones) and all(self.zones[z].visibility == "public" for z in zones) and not (named - zones - _PICKS)

    # ---------------------------------------------------------------- folding
    def fold(self, e, env: dict, cfg: dict, depth: int = 0):
        """The value of e for one (player count, options) assignment, or UNK."""
        if e is None or depth > 60:
            return UNK
        t = type(e)
        if t is g.IntLit or t is g.BoolLit:
            return e.value
        if t is g.StrLit:
            return ("str", e.value)
        if t is g.NoneLit:
            return NONE
        if t is g.Name:
            n = e.name
            if n in env:
                return env[n]
            if n in self.options:
                return cfg[n]
            d = self.defines.get(n)
            if d is not None:
                return self.fold(d.body, {}, cfg, depth + 1) if not d.params else UNK
            if n in self.fixed:
                return self.fixed[n]
            if n in self.suits:
                return ("suit", n)
            if n in self.ranks:
                return ("rank", n)
            if n in self.enum_values:
                return ("enum", n)
            if n == "player_count":
                return cfg["\0players"]
            return UNK
        if t is g.Call:
            d = self.defines.get(e.func)
            if d is not None and len(d.params) == len(e.args):
                inner = {prm.name: self.fold(a, env, cfg, depth + 1) for prm, a in zip(d.params, e.args)}
                return self.fold(d.body, inner, cfg, depth + 1)
            if e.func in ("min", "max") and len(e.args) == 2:
                a, b = (self.fold(x, env, cfg, depth + 1) for x in e.args)
                if _is_int(a) and _is_int(b):
                    return min(a, b) if e.func == "min" else max(a, b)
            return UNK
        if t is g.Cond:
            test = self.fold(e.test, env, cfg, depth + 1)
            if test is True:
                return self.fold(e.then, env, cfg, depth + 1)
            if test is False:
                return self.fold(e.else_, env, cfg, depth + 1)
            a = self.fold(e.then, env, cfg, depth + 1)
            b = self.fold(e.else_, env, cfg, depth + 1)
            return a if a is not UNK and b is not UNK and _same(a, b) else UNK
        if t is g.UnOp:
            v = self.fold(e.operand, env, cfg, depth + 1)
            if e.op == "not":
                return (not v) if isinstance(v, bool) else UNK
            return -v if _is_int(v) else UNK
        if t is g.BinOp:
            return self._fold_binop(e, env, cfg, depth)
        if t is g.Agg:
            inner = dict(env)
            inner[e.var] = UNK
            if e.where is not None and self.fold(e.where, inner, cfg, depth + 1) is False:
                return {"any": False, "no": True, "count": 0, "sum": 0, "all": True}.get(e.op, NONE)
            if e.op == "all" and self.fold(e.body, inner, cfg, depth + 1) is True:
                return True
            return UNK
        return UNK

    def _fold_binop(self, e, env, cfg, depth):
        op = e.op
        if op in ("and", "or"):
            a = self.fold(e.left, env, cfg, depth + 1)
            if op == "and" and a is False:
                return False
            if op == "or" and a is True:
                return True
            b = self.fold(e.right, env, cfg, depth + 1)
            if op == "and":
                if b is False:
                    return False
                return True if (a is True and b is True) else UNK
            if b is True:
                return True
            return False if (a is False and b is False) else UNK
        if op in ("in", "not in", ".."):
            return UNK
        a = self.fold(e.left, env, cfg, depth + 1)
        b = self.fold(e.right, env, cfg, depth + 1)
        if a is UNK or b is UNK:
            return UNK
        if op in ("==", "!="):
            if _is_int(a) and isinstance(b, tuple) and b[0] == "rank":
                a = ("rank", str(a))
            if _is_int(b) and isinstance(a, tuple) and a[0] == "rank":
                b = ("rank", str(b))
            same = _same(a, b)
            return same if op == "==" else not same
        if not (_is_int(a) and _is_int(b)):
            return UNK
        if op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        if op in ("/", "mod") and b == 0:
            return UNK
        if op == "^":  # a constant power the engines could work out (past 64 bits they stop)
            return a ** b if 0 <= b <= 64 and abs(a) ** b < 2 ** 63 else UNK
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "mod": a % b if b else 0}.get(op, UNK)

    # ---------------------------------------------------------------- conditions
    def _fold_configs(self) -> list[dict]:
        rs = self.rs
        counts = list(range(rs.players_min, rs.players_max + 1))
        if len(counts) > 16:
            counts = player_counts(rs)
        rng = random.Random(f"fold/{rs.name}")
        limit = max(1, MAX_FOLD_CONFIGS // len(counts))
        combos = option_combos(rs, rng, limit)
        out = []
        for n in counts:
            for combo in combos:
                cfg = {o.name: (("enum", combo[o.name]) if o.type == "enum" else combo[o.name]) for o in rs.options}
                cfg["\0players"] = n
                out.append(cfg)
        return out

    def _conditions(self):
        self.set_names = set()
        assigned: dict[str, list] = {}

        def note(n, c, s):
            if isinstance(n, g.Set):
                self.set_names.add(n.name)
                assigned.setdefault(n.name, []).append(n.value)
        for node, ctx in self.used_code + [(p, ("procedure", p.name)) for p in self.rs.procedures]:
            _walk(node, ctx, note)
        # a yes/no game variable that starts at a value and is only ever set to that same value
        # holds it for good (a new user's Preferans variant removed the one 'set open_play = true')
        self.fixed = {v.name: v.init.value for v in self.rs.vars
                      if not v.params and v.type == "bool" and isinstance(v.init, g.BoolLit)
                      and all(isinstance(x, g.BoolLit) and x.value == v.init.value for x in assigned.get(v.name, ()))}
        self.sites: dict = {}
        self._site_order: list = []
        for cfg in self._fold_configs():
            for ph in self.rs.phases:
                self._walk_cond(ph.body, {}, cfg, ("phase", ph.name))
            for pr in self.rs.procedures:
                env = {prm.name: UNK for prm in pr.params}
                self._walk_cond(pr.body, env, cfg, ("procedure", pr.name))
        for key in self._site_order:
            node, role, expr, ctx, results, extra = self.sites[key]
            if not results or any(r is UNK for r in results) or len(set(results)) != 1:
                continue
            value = results[0]
            self.constant[key] = value
            self._report_constant(node, role, expr, ctx, value, extra)

    def _site(self, node, role, expr, env, cfg, ctx, extra=None):
        key = (id(node), role)
        if key not in self.sites:
            self.sites[key] = (node, role, expr, ctx, [], extra)
            self._site_order.append(key)
        v = self.fold(expr, env, cfg)
        self.sites[key][4].append(v if isinstance(v, bool) else UNK)

    def _walk_cond(self, stmts, env, cfg, ctx):
        env = dict(env)
        for s in stmts:
            t = type(s)
            if t is g.Let:
                env[s.name] = UNK if s.name in self.set_names else self.fold(s.value, env, cfg)
            elif t is g.Set:
                if s.name in env:
                    env[s.name] = UNK
            elif t is g.If:
                for i, br in enumerate(s.branches):
                    self._site(br, "elif" if i else "if", br.test, env, cfg, ctx, s)
                    self._walk_cond(br.body, env, cfg, ctx)
                self._walk_cond(s.else_, env, cfg, ctx)
            elif t is g.While:
                if not (isinstance(s.test, g.BoolLit) and s.test.value):
                    self._site(s, "while", s.test, env, cfg, ctx)
                self._walk_cond(s.body, env, cfg, ctx)
            elif t is g.ForPlayers or t is g.ForEach:
                inner = dict(env)
                inner[s.var] = UNK
                self._walk_cond(s.body, inner, cfg, ctx)
            elif t is g.Rule:
                if s.when is not None:
                    self._site(s, "rule when", s.when, env, cfg, ("rule", s.name))
                self._walk_cond(s.body, env, cfg, ("rule", s.name))
            elif t is g.Choose:
                for a in s.actions:
                    if a.when is not None:
                        self._site(a, "action when", a.when, env, cfg, ctx)
                    inner = dict(env)
                    if a.var is not None:
                        inner[a.var] = UNK
                        for m in a.more:
                            inner[m.var] = UNK
                    if a.where is not None:
                        self._site(a, "action where", a.where, inner, cfg, ctx)
                    self._walk_cond(a.body, inner, cfg, ctx)
            elif t in (g.Deal, g.Move) and s.face_up is not None and not isinstance(s.face_up, g.BoolLit):
                self._site(s, "face up", s.face_up, env, cfg, ctx)  # a plain 'face up' is the literal true
            else:
                body = getattr(s, "body", None)
                if isinstance(body, tuple):
                    self._walk_cond(body, env, cfg, ctx)

    def _report_constant(self, node, role, expr, ctx, value, extra):
        word = "true" if value else "false"
        cond = unparse(expr)
        where = _ctx_text(ctx)
        loc_node = expr if getattr(expr, "loc", None) else (extra if extra is not None else node)
        span = self._span()
        if role in ("if", "elif"):
            what = f"The condition `{cond}` of an {role} in {where}"
            effect = "its block never runs" if not value else "the branches after it never run"
        elif role == "while":
            what = f"The condition `{cond}` of a while loop in {where}"
            effect = "the loop never runs" if not value else "the loop only ends by break or end game (write 'repeat:' if that is meant)"
        elif role == "rule when":
            what = f"The when condition `{cond}` of rule {node.name!r} ({node.title or node.name})"
            effect = "the rule never fires" if not value else "it never restricts the rule"
            if not value:
                self.rule_when_false.add(node.name)
        elif role == "action when":
            what = f"The when condition `{cond}` of action {node.name!r} in {where}"
            effect = "the action is never offered" if not value else "it never restricts the action"
        elif role == "action where":
            label = f' ("{node.label}")' if node.label else ""
            what = f"The where condition `{cond}` of action {node.name!r}{label} in {where}"
            effect = "the action is never offered" if not value else "it never filters anything"
        else:
            what = f"The face up condition `{cond}` in {where}"
            effect = "the cards are never shown" if not value else "the cards are always shown"
        fixed = sorted(self.reads_through(expr) & self.fixed.keys())
        why = ("" if not fixed else " (" + ", ".join(
            f"variable {n!r} starts {'true' if self.fixed[n] else 'false'} and is never set to anything else"
            for n in fixed) + ")")
        self._find("constant-condition",
                   f"{what} ({_loc(loc_node)}) is always {word} for {span}{why}: {effect}.",
                   self.rules_of(ctx), loc_node)

    def _span(self) -> str:
        rs = self.rs
        n = (f"the only player count ({rs.players_min})" if rs.players_min == rs.players_max
             else f"every player count ({rs.players_min} to {rs.players_max})")
        return n + (" and every option value" if rs.options else "")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b
