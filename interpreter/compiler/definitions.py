"""Aggregates, meld splits and definitions: each definition becomes one generated function,
memoised per state, or for good when it reads nothing but its arguments' faces."""

from __future__ import annotations

from ..language import graph as g
from ..language.unparse import unparse
from .ir import ops as o
from .ir.reads import cheap, light, reads_loop_var
from .program import ELEM, TYPE_WORDS, _err
from .pyemit import fast_stmt, py


class Definitions:
    def e_Agg(self, e, scope):
        dom, td = self.sx_typed(e.domain, scope, "collection", f"the set after '{e.var} in'")
        if e.op in ("highest", "lowest") and e.body is not None:
            return self._agg_by(e, scope, dom, td)
        v = o.Local(self.fresh("v_" + e.var + "_"), t=ELEM[td])
        inner = dict(scope)
        inner[e.var] = (v, ELEM[td])
        where = self.sx_typed(e.where, inner, "bool", "the where condition")[0] if e.where is not None else None
        tops = self.top_domain(e.domain, e.where, e.var, scope)
        if tops is not None:  # over the zones' tops, which pass the test of being one (no mask: it would see every card)
            rest = self.after_top_test(e.where)
            where = self.sx_typed(rest, inner, "bool", "the where condition")[0] if rest is not None else None
            return self._loop_aggregate(e, inner, tops, td, v, where)
        loop, t = self._loop_aggregate(e, inner, dom, td, v, where)
        fast = self.mask_aggregate(e, scope, v, dom, loop)
        return (fast, t) if fast is not None else (loop, t)

    def _agg_by(self, e, scope, dom, td):
        """`highest c in D where W by K`: the first element of D passing W whose K no other such
        element's K exceeds (`lowest`: undercuts), none when none passes: those c in D where W
        and (all d in D where W: K(d) <= K(c)), its first. The key is worked out for each pair, so
        it suits the small collections it is written for (a trick, a hand)."""
        elem = ELEM[td]
        mine = o.Local(self.fresh("v_" + e.var + "_"), t=elem)
        other = o.Local(self.fresh("v_" + e.var + "_"), t=elem)
        at_mine, at_other = dict(scope), dict(scope)
        at_mine[e.var], at_other[e.var] = (mine, elem), (other, elem)
        if isinstance(e.body, g.Attr) and self.sx(e.body.obj, at_mine)[1] == "int":  # `... by power(c).owner`
            agg = f"{e.op} {e.var} in {unparse(e.domain)}" + (f" where {unparse(e.where)}" if e.where is not None else "")
            raise _err(f"everything after 'by' is the number {e.op} compares, so '.{e.body.name}' is read of "
                       f"{unparse(e.body.obj)!r}, a number: to read it of the element picked, put the aggregate in "
                       f"parentheses: ({agg} by {unparse(e.body.obj)}).{e.body.name}", e.body)
        key_mine, _ = self.sx_typed(e.body, at_mine, "int", "the number after 'by'")
        key_other, _ = self.sx_typed(e.body, at_other, "int", "the number after 'by'")
        w_mine = w_other = None
        if e.where is not None:
            w_mine = self.sx_typed(e.where, at_mine, "bool", "the where condition")[0]
            w_other = self.sx_typed(e.where, at_other, "bool", "the where condition")[0]
        cmp = "<=" if e.op == "highest" else ">="
        best = o.AggLoop("all", other, dom, w_other, o.Compare(cmp, key_other, key_mine, t="bool"), t="bool")
        test = best if w_mine is None else o.Logic("and", w_mine, best, t="bool")
        kept = {"card": "cards", "player": "players", "int": "ints", "suit": "suits", "rank": "ranks",
                "zone": "zones"}[elem]
        return o.End("first", o.AggLoop("those", mine, dom, test, None, t=kept), t=elem), elem

    def _loop_aggregate(self, e, inner, dom, td, v, where):
        op = e.op
        body = None
        if op == "all":
            body, _ = self.sx_typed(e.body, inner, "bool", "the condition after ':'")
            t = "bool"
        elif op in ("sum", "max", "min"):
            body, _ = self.sx_typed(e.body, inner, "int", "the value after ':'")
            t = "int"
        elif op in ("any", "no"):
            t = "bool"
        elif op == "count":
            t = "int"
        elif op == "those":
            t = {"card": "cards", "player": "players", "int": "ints", "suit": "suits", "rank": "ranks",
                 "zone": "zones"}[ELEM[td]]
        else:
            t = ELEM[td]
        return o.AggLoop(op, v, dom, where or None, body, t=t), t

    def e_Split(self, e, scope):
        cards, _ = self.sx_typed(e.cards, scope, "collection", "the cards to split")
        names = [grp.define for grp in e.groups] + ([e.score] if e.score else [])
        # groups judged only by their cards' suits, ranks and values give the same answer in
        # every game, so the search result can be kept for the whole program
        # a test given values (`adds_to(v)`) answers for those values: nothing kept across them
        static = all(self.static_define(n) for n in names) and not any(grp.args for grp in e.groups)
        specs = []
        for grp in e.groups:
            count, _ = self.sx_typed(grp.count, scope, "int", "how many groups")
            d = self.defines.get(grp.define)
            if d is None:
                raise _err(f"unknown definition {grp.define!r} in split" + self._suggest(grp.define, self.defines), e)
            if not d.params or d.params[0].type != "cards" or len(d.params) != 1 + len(grp.args):
                given = ", ".join(f"{prm.name}: {prm.type}" for prm in d.params[1:])
                if grp.args or len(d.params) > 1:
                    raise _err(f"{grp.define!r} must take the group of cards first, then one value for each "
                               f"argument given in the split ({len(grp.args)} given), like: "
                               f"define {grp.define}(g: cards{', ' + given if given else ''}) = ...", e)
                raise _err(f"{grp.define!r} must take one collection of cards, like: define {grp.define}(g: cards) = ...", e)
            if len(grp.args) > 4:
                raise _err(f"a group test is given at most 4 values after the group; {grp.define!r} is given "
                           f"{len(grp.args)}", e)
            args = []
            for a, prm in zip(grp.args, d.params[1:]):
                if prm.type in ("cards", "players", "ints", "zones", "suits", "ranks"):
                    raise _err(f"parameter {prm.name!r} of {grp.define!r} is a collection: a split gives its group "
                               "test single values (a number, a card, a player, a suit, a rank, a zone)", e)
                args.append(self._argument(a, prm, scope, grp.define))
            fname, t, _ = self.call_define_fn(d, e)
            if t != "bool":
                raise _err(f"{grp.define!r} must be true or false for a group of cards", e)
            if static and self.p.fast:  # the search keeps each group's verdict: no memo needed
                fname = self.bare_define(d, e)
            if grp.sizes is None:
                sizes = None
            else:
                sizes, st_ = self.sx(grp.sizes, scope)
                if st_ not in ("int", "ints"):
                    raise _err(f"the sizes after 'of' must be a number or a range like 3..4", e)
            specs.append((count, fname, sizes, tuple(args)))
        score = None
        if e.score is not None:
            d = self.defines.get(e.score)
            if d is None or len(d.params) != 1 or d.params[0].type != "cards":
                raise _err(f"'by {e.score}' needs a definition scoring one group: define {e.score}(g: cards) = ...", e)
            score, t, _ = self.call_define_fn(d, e)
            if t != "int":
                raise _err(f"{e.score!r} must give a number for a group of cards", e)
        self.n_splits = getattr(self, "n_splits", 0) + 1
        site = self.n_splits if not static else -self.n_splits
        # judged by faces alone (no test of which copy a card is): identical copies are one card
        # to the search, and what it learns about part of a hand is kept for every hand
        faces = static and self.p.fast and all(self.faces_only(n) for n in names)
        t = "int" if e.score else "bool"
        return o.Split(cards, tuple(specs), score, site, faces, t=t), t

    def faces_only(self, name: str, seen: frozenset = frozenset()) -> bool:
        """A static definition that never asks whether two cards are the same card (==, !=, in
        on bare cards), so any copy of a card may stand for another."""
        d = self.defines.get(name)
        if d is None or name in seen:
            return False
        seen = seen | {name}

        deck_words = {*self.suit_index, *self.rank_index, *self.rs.deck.groups}

        def maybe_card(e) -> bool:  # could this operand be a card itself (not its suit, rank, ...)?
            if isinstance(e, (g.Attr, g.IntLit, g.BoolLit, g.NoneLit, g.StrLit)):
                return False
            if isinstance(e, g.Name):
                return e.name not in deck_words
            if isinstance(e, g.Call):
                return e.func not in ("count", "sum", "min", "max")
            return not isinstance(e, g.BinOp) or e.op not in ("+", "-", "*", "/", "%", "mod", "^")

        def ok(e) -> bool:
            if isinstance(e, g.BinOp) and e.op in ("==", "!=") and maybe_card(e.left) and maybe_card(e.right):
                return False
            if isinstance(e, g.BinOp) and e.op in ("in", "not in") and maybe_card(e.left):
                return False
            if isinstance(e, g.Call) and e.func in self.defines and not self.faces_only(e.func, seen):
                return False
            for f in type(e).model_fields:
                v = getattr(e, f)
                for x in (v if isinstance(v, tuple) else (v,)):
                    if isinstance(x, g.Node) and not ok(x):
                        return False
            return True
        return ok(d.body)

    def static_define(self, name: str, seen: frozenset = frozenset()) -> bool:
        """Whether a definition depends only on its arguments' printed faces (suit, rank,
        order, values): no zones, players, options, variables or chance."""
        d = self.defines.get(name)
        if d is None or name in seen:
            return False
        if any(p.type in ("zone", "zones") for p in d.params):
            return False  # a place is passed by its number: what lies there changes (a new user's 6 nimmt! scored 0)
        bound = {p.name for p in d.params}
        return self._static(d.body, bound, seen | {name})

    def _static(self, e, bound: set, seen: frozenset) -> bool:
        if isinstance(e, (g.IntLit, g.BoolLit, g.NoneLit, g.StrLit)):
            return True
        if isinstance(e, g.Name):
            return e.name in bound or e.name in self.suit_index or e.name in self.rank_index \
                or e.name in self.rs.deck.groups
        if isinstance(e, g.Attr):
            return e.name in ("suit", "rank", "order") + tuple(self.p.values) and self._static(e.obj, bound, seen)
        if isinstance(e, g.Call):
            if e.func in self.defines:
                return self.static_define(e.func, seen) and all(self._static(a, bound, seen) for a in e.args)
            return e.func in ("count", "first", "last", "highest", "lowest", "above", "below", "min", "max", "at",
                              "abs", "any", "no") and all(self._static(a, bound, seen) for a in e.args)
        if isinstance(e, g.Agg):
            inner = bound | {e.var}
            return self._static(e.domain, bound, seen) and all(
                x is None or self._static(x, inner, seen) for x in (e.where, e.body))
        if isinstance(e, g.Cond):
            return all(self._static(x, bound, seen) for x in (e.test, e.then, e.else_))
        if isinstance(e, g.BinOp):
            return self._static(e.left, bound, seen) and self._static(e.right, bound, seen)
        if isinstance(e, g.UnOp):
            return self._static(e.operand, bound, seen)
        if isinstance(e, g.ListExpr):
            return all(self._static(x, bound, seen) for x in e.items)
        return False

    def call_define_fn(self, d, node):
        """The generated function of a definition (compiling it if needed)."""
        self.call_define(d, [], node)
        return self.def_cache[d.name]

    def bare_define(self, d, node) -> str:
        """The function of a definition judged by faces alone without its memo, calling the
        others it asks without theirs: for a caller that keeps the answers itself."""
        was, self.bare_mode = self.bare_mode, False
        try:
            fname = self.call_define_fn(d, node)[0]
        finally:
            self.bare_mode = was
        if d.name not in self.kept:
            return fname
        if d.name not in self.bare:
            self.bare.add(d.name)
            params = [f"a{i}" for i in range(len(d.params))]
            was, self.bare_mode = self.bare_mode, True
            try:
                self._enter_define(d, node)
                body, _ = self.sx(d.body, {prm.name: (o.Local(a, t=prm.type), prm.type) for prm, a in zip(d.params, params)})
                self.def_stack.pop()
            finally:
                self.bare_mode = was
            self.def_src.append(f"def U_{d.name}(st{''.join(', ' + a for a in params)}):\n" + self.stmt("return ", body, "    "))
            self.gen_ir[f"U_{d.name}"] = body
        return f"U_{d.name}"

    def stmt(self, lead: str, x, pad: str, k: int = 0) -> str:
        """A statement of a generated definition: its terms worked out once on the fast path
        (pyemit.fast_stmt), as written on the plain one."""
        return fast_stmt(lead, x, pad, k) if self.p.fast else f"{pad}{lead}{py(x)}\n"

    def inline_define(self, d: g.Define, arg_srcs, node):
        """A small definition (no aggregate) called with plain names is compiled in place."""
        self._enter_define(d, node)
        scope = {prm.name: (o.Paren(a, t=prm.type), prm.type) for prm, a in zip(d.params, arg_srcs)}
        out = self.sx(d.body, scope)
        self.def_stack.pop()
        return out

    def _enter_define(self, d, node):
        if d.name in self.def_stack:
            chain = " -> ".join(self.def_stack[self.def_stack.index(d.name):] + [d.name])
            raise _err(f"definition {d.name!r} refers to itself ({chain}); definitions cannot be recursive", node)
        for prm in d.params:
            if prm.type not in TYPE_WORDS:
                raise _err(f"unknown parameter type {prm.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", d)
        self.def_stack.append(d.name)

    def call_define(self, d: g.Define, arg_srcs, node):
        """A definition is one generated function, memoised per state: definitions are pure
        (they see only their parameters and the game), so a result holds until the state
        changes, and State.memo is emptied on every change."""
        fname = f"D_{d.name}"
        if d.name not in self.def_cache:
            self._enter_define(d, node)
            params = [f"a{i}" for i in range(len(d.params))]
            scope = {prm.name: (o.Local(a, t=prm.type), prm.type) for prm, a in zip(d.params, params)}
            body, t = self.sx(d.body, scope)
            self.def_stack.pop()
            self.p.def_ir[d.name] = (tuple(scope[prm.name][0] for prm in d.params), body, t)
            idx = len(self.def_cache)
            # a collection passed in (`those c in ...`) is a list: its contents make the key
            parts = [f"({a} if {a}.__class__ is int else tuple({a}))" if prm.type in ("cards", "players", "ints", "zones") else a
                     for prm, a in zip(d.params, params)]
            key = repr(idx) if not params else f"({idx}, {', '.join(parts)},)"
            # a definition judged by its arguments' faces alone keeps its answers for good
            static = bool(params) and self.static_define(d.name)
            memo = "STATIC" if static else self.memo_of(body)
            limit = "        if len(m) > 500000:\n            m.clear()\n" if static else ""
            self.gen_ir[fname] = body
            if self.p.fast and cheap(body):
                # a few table look-ups and bit operations cost less than the memo would (even one
                # kept for good)
                if isinstance(body, o.Guarded):  # one aggregate: its mask form and fallback are the definition itself
                    self.def_src.append(f"def {fname}(st{''.join(', ' + a for a in params)}):\n"
                                        f"    try:\n"
                                        f"{self.stmt('return ', body.fast, '        ', 0)}"
                                        f"    except (TypeError, KeyError, IndexError, AttributeError):\n"
                                        f"{self.stmt('return ', body.loop, '        ', 1)}")
                else:
                    self.def_src.append(f"def {fname}(st{''.join(', ' + a for a in params)}):\n"
                                        f"{self.stmt('return ', body, '    ')}")
            else:
                if self.p.fast and not static and light(body, self.memoised):
                    self.unmemoised[d.name] = (f"def U_{d.name}(st{''.join(', ' + a for a in params)}):\n"
                                               f"{self.stmt('return ', body, '    ')}", body)
                self.memoised.add(fname)
                if not static:
                    self.gen_memo[fname] = memo[3:]  # the memo its function reads (st.memo or st.cmemo)
                if static:
                    self.kept.add(d.name)
                    self.p.kept_defs.add(d.name)
                self.def_src.append(f"def {fname}(st{''.join(', ' + a for a in params)}):\n"
                                    f"    m = {memo}\n"
                                    f"    r = m.get({key}, MISS)\n"
                                    f"    if r is MISS:\n"
                                    f"{limit}"
                                    f"{self.stmt(f'r = m[{key}] = ', body, '        ')}"
                                    f"    return r\n")
            self.def_cache[d.name] = (fname, t, len(params))
            if static and self.p.fast and len(params) == 1 and d.params[0].type == "card" and d.name not in self.untabled:
                self.tabled.append(d.name)  # filled once compiled (Compiler.fill_tables)
        fname, t, _ = self.def_cache[d.name]
        if d.name in self.tabled and arg_srcs:
            return o.TableLookup(d.name, arg_srcs[0], t=t), t
        if self.bare_mode and d.name in self.kept:
            fname = self.bare_define(d, node)
        if d.name in self.unmemoised and any(reads_loop_var(a) for a in arg_srcs):
            # asked with a loop's variable (an aggregate's, a choice's values'), so with new
            # arguments on every turn: the memo would cost its key and its store, never read
            unmemoised = self.unmemoised[d.name]
            if unmemoised is not None:
                self.def_src.append(unmemoised[0])
                self.gen_ir[f"U_{d.name}"] = unmemoised[1]
                self.unmemoised[d.name] = None
            fname = f"U_{d.name}"
        return o.Call(fname, tuple(arg_srcs), t=t), t


def _has_agg(e) -> bool:
    if isinstance(e, g.Agg):
        return True
    for name in type(e).model_fields:
        v = getattr(e, name)
        if isinstance(v, g.Node) and _has_agg(v):
            return True
        if isinstance(v, tuple) and any(isinstance(x, g.Node) and _has_agg(x) for x in v):
            return True
    return False


