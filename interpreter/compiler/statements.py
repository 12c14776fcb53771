"""Lowering statements: each statement becomes instructions of one flat list (EXEC,
JUMP, JIF, CHOOSE, ...) that the engine's loop runs between two decisions."""

from __future__ import annotations

from ..errors import RulesetError
from ..language import graph as g
from ..language.unparse import unparse
from .ir import ops as o
from .ir import stmts as ir
from .masks import mentions
from .pyemit import paired_def
from .program import (CALL, CHOOSE, CHOOSE_EACH, ELEM, END, EXEC, JIF, JUMP, RET, Alt, Choice, _err,
                      _runtime, word)


class Statements:
    def new_slot(self) -> int:
        """A place in the state for a local, a loop's position or an action's argument."""
        self.slots += 1
        return self.slots - 1

    # -------------------------------------------------------------- statements
    def emit(self, op, a=None, b=None) -> int:
        self.p.code.append([op, a, b])
        self.p.nodes.append(self.cur_node)
        self.p.rule_at.append(self.rule_stack[-1] if self.rule_stack and self.rule_stack[-1][0] else None)
        return len(self.p.code) - 1

    def here(self) -> int:
        return len(self.p.code)

    def block(self, stmts, scope):
        scope = dict(scope)
        for s in stmts:
            outer, self.cur_node = self.cur_node, s
            getattr(self, "s_" + type(s).__name__)(s, scope)
            self.cur_node = outer

    def s_Pass(self, s, scope):
        pass

    def s_Shuffle(self, s, scope):
        z, _ = self.typed(s.zone, scope, "zone", "what to shuffle")
        run = lambda st: st.shuffle(z(st))
        run.src = _src_of_call(z, "st.shuffle({})", self)
        run.ir = ir.Shuffle(self.ir_of(z))
        self.emit(EXEC, run)

    def s_Deal(self, s, scope):
        n, _ = self.typed(s.count, scope, "int", "how many cards to deal")
        src, _ = self.typed(s.source, scope, "zone", "where to deal from")
        p = self.p
        if s.target not in p.zone_index or not (p.zones[p.zone_index[s.target]].per_player
                                                or p.zones[p.zone_index[s.target]].size):
            raise _err(f"deal ... to each {s.target}: {s.target!r} is neither a per-player zone "
                       "nor a family of zones", s)
        zi = p.zone_index[s.target]
        up = self.typed(s.face_up, scope, "bool", "the face up condition")[0] if s.face_up is not None else None
        skip = skip_ir = None
        if s.in_play:
            if not p.zones[zi].per_player:
                raise _err(f"deal ... to each {s.target} in play: {s.target!r} is a family of zones, not a "
                           "player's zone; 'in play' passes over the players dropped from play", s)
            skip = self.out_of_play(s, scope)
            skip_ir = self.ir_of(skip)
        if s.at is None:
            if skip is None:
                run = lambda st: st.deal(n(st), src(st), zi, bool(up and up(st)))
            else:
                run = lambda st: st.deal(n(st), src(st), zi, bool(up and up(st)), 0, tuple(skip(st)))
            nsrc, ssrc, usrc = self.src_of(n), self.src_of(src), "False" if up is None else self.src_of(up)
            ksrc = "" if skip is None else self.src_of(skip)
            if None not in (nsrc, ssrc, usrc, ksrc):  # the arguments in the order the call works them out
                run.src = f"st.deal(({nsrc}), ({ssrc}), {zi}, bool({usrc})" + (f", 0, tuple({ksrc}))" if ksrc else ")")
            run.ir = ir.Deal(self.ir_of(n), self.ir_of(src), zi, self.ir_of(up), None, 0, s, skip_ir)
            self.emit(EXEC, run)
            return
        if not p.zones[zi].per_player:
            raise _err(f"deal ... to each {s.target} starting {s.start} ...: {s.target!r} is a family of zones, "
                       "dealt in its own order; only a per-player zone is dealt starting from a player", s.at)
        at, _ = self.typed(s.at, scope, "player", f"what follows 'starting {s.start}'")
        offset = 1 if s.start == "after" else 0
        node = s

        def deal_from(st):
            a = at(st)
            if a is None:
                raise _runtime(f"{unparse(node.at)!r} is none here: there is no player to start the deal from", node)
            st.deal(n(st), src(st), zi, bool(up and up(st)), a + offset, () if skip is None else tuple(skip(st)))
        deal_from.ir = ir.Deal(self.ir_of(n), self.ir_of(src), zi, self.ir_of(up), self.ir_of(at), offset, s, skip_ir)
        self.emit(EXEC, deal_from)

    def s_Move(self, s, scope):
        what, t = self.expr(s.what, scope)
        if t not in ("card", "cards", "zone", "zonekind", "any"):
            raise _err(f"move needs a card or cards; {unparse(s.what)!r} is {word(t)}", s.what)
        to, _ = self.typed(s.to, scope, "zone", "where to move the cards")
        up = self.typed(s.face_up, scope, "bool", "the face up condition")[0] if s.face_up is not None else None
        node = s
        under = s.under
        if t == "card":
            def fail():
                raise _runtime(f"{unparse(node.what)!r} is none here: there is no card to move", node)

            def run(st):
                c = what(st)
                if c is None:
                    fail()
                st.move([c], to(st), bool(up and up(st)), under)
            wsrc, tsrc = self.src_of(what), self.src_of(to)
            usrc = "False" if up is None else self.src_of(up) and f"bool({self.src_of(up)})"
            if wsrc is not None and tsrc is not None and usrc is not None:
                name = self.const(fail)
                call = f"st.move([_c], {tsrc}, {usrc}, True)" if under else f"st.move_card(_c, {tsrc}, {usrc})"
                run.src = f"_c = {wsrc}\nif _c is None: {name}()\n{call}"
            run.ir = ir.MoveCard(self.ir_of(what), self.ir_of(to), self.ir_of(up), under, s)
        else:
            coll = self.as_collection(what, t)
            run = lambda st: st.move(list(coll(st)), to(st), bool(up and up(st)), under)
            csrc, tsrc = self.src_of(what), self.src_of(to)
            usrc = "False" if up is None else self.src_of(up)
            if None not in (csrc, tsrc, usrc):
                csrc = f"st.zones[({csrc})]" if t == "zone" else f"({csrc})"
                run.src = f"st.move(list({csrc}), ({tsrc}), bool({usrc}), {under})"
            run.ir = ir.MoveCards(self.ir_of(coll), self.ir_of(to), self.ir_of(up), under)
        self.emit(EXEC, run)

    def s_Reveal(self, s, scope):
        what, t = self.expr(s.what, scope)
        verb = "conceal" if s.down else "reveal"
        if t == "card":
            if s.down:
                run = lambda st: st.conceal([what(st)])
            else:
                run = lambda st: st.reveal([what(st)])
            run.src = _src_of_call(what, f"st.{verb}([{{}}])", self)
            run.ir = ir.Reveal(self.ir_of(what), True, s.down)
        else:
            coll = self.typed(s.what, scope, "collection", "what to turn face down" if s.down else "what to reveal")[0]
            if s.down:
                run = lambda st: st.conceal(list(coll(st)))
            else:
                run = lambda st: st.reveal(list(coll(st)))
            run.src = _src_of_call(coll, f"st.{verb}(list({{}}))", self)
            run.ir = ir.Reveal(self.ir_of(coll), False, s.down)
        self.emit(EXEC, run)

    def s_Tell(self, s, scope):
        what, t = self.expr(s.cards, scope)
        who = self.typed(s.to, scope, "player", "the player told")[0]
        self.p.tells = True
        rank = s.what == "rank"
        if t == "card":
            run = lambda st: st.tell([what(st)], who(st), rank)
            wsrc, psrc = self.src_of(what), self.src_of(who)
            if wsrc is not None and psrc is not None:
                run.src = f"st.tell([{wsrc}], {psrc}, {rank})"
            run.ir = ir.Tell(s.what, self.ir_of(what), True, self.ir_of(who))
        else:
            coll = self.typed(s.cards, scope, "collection", f"the cards whose {s.what} is told")[0]
            run = lambda st: st.tell(list(coll(st)), who(st), rank)
            csrc, psrc = self.src_of(coll), self.src_of(who)
            if csrc is not None and psrc is not None:
                run.src = f"st.tell(list({csrc}), {psrc}, {rank})"
            run.ir = ir.Tell(s.what, self.ir_of(coll), False, self.ir_of(who))
        self.emit(EXEC, run)

    def s_Let(self, s, scope):
        v, t = self.expr(s.value, scope)
        slot = self.new_slot()
        value_ir, copy = self.ir_of(v), False
        if t == "zonekind" or t == "zone":
            v, t = self.as_collection(v, t), "cards"
            v0 = v
            v = lambda st: list(v0(st))
            value_ir, copy = self.ir_of(v0), True
        if t == "none":
            t = "any"
        scope[s.name] = (slot, t)

        def run(st):
            st.slots[slot] = v(st)
        run.src = _src_of_call(v, f"st.slots[{slot}] = {{}}", self)
        run.ir = ir.SetSlot(slot, value_ir, copy)
        self.emit(EXEC, run)

    def s_Set(self, s, scope):
        if s.name in scope:
            slot, t = scope[s.name]
        elif s.name in self.var_slots:
            slot, t = self.var_slots[s.name]
        else:
            raise _err(f"cannot set {s.name!r}: it is neither a variable (declare it with 'var') "
                       "nor a local (introduce it with 'let')", s)
        v, _ = self.typed(s.value, scope, t, f"the new value of {s.name}")
        if s.name in self.player_vars and s.name not in scope:
            if s.index is None:
                raise _err(f"{s.name!r} has one value per player: say whose, like set {s.name}(p) = ...", s)
            who, _ = self.typed(s.index, scope, "player", f"the player of {s.name}(...)")

            def run(st):
                st.slots[slot][who(st)] = v(st)
                st.memo = {}
            wsrc, vsrc = self.src_of(who), self.src_of(v)
            if wsrc is not None and vsrc is not None:
                run.src = f"_v = {vsrc}\nst.slots[{slot}][{wsrc}] = _v\nst.memo = {{}}"
            run.ir = ir.SetPlayerVar(slot, self.ir_of(who), self.ir_of(v))
        else:
            if s.index is not None:
                raise _err(f"{s.name!r} is a single value, not one per player", s.index)

            def run(st):
                st.slots[slot] = v(st)
                st.memo = {}
            run.src = _src_of_call(v, f"st.slots[{slot}] = {{}}\nst.memo = {{{{}}}}", self)
            run.ir = ir.SetSlot(slot, self.ir_of(v), forget=True)
        self.emit(EXEC, run)

    def s_DeclareWinner(self, s, scope):
        if s.loser:  # every player but the loser(s) wins: those q in players where q is not one of them
            _, t = self.expr(s.who, scope)
            if t not in ("player", "players"):
                raise _err(f"the loser must be a player or players; {unparse(s.who)!r} is {word(t)}", s.who)
            q = "loser__q"
            test = g.BinOp(op="!=" if t == "player" else "not in", left=g.Name(name=q, loc=s.who.loc), right=s.who,
                           loc=s.who.loc)
            s = s.model_copy(update={"loser": False, "who": g.Agg(op="those", var=q, domain=g.Name(name="players",
                                                                                                    loc=s.who.loc),
                                                                  where=test, loc=s.who.loc)})
        who, t = self.expr(s.who, scope)
        if t not in ("player", "players", "none", "any"):
            raise _err(f"the winner must be a player, players or none; {unparse(s.who)!r} is {word(t)}", s.who)
        if t == "player":
            run = lambda st: st.declare((who(st),))
        elif t == "none":
            run = lambda st: st.declare(())
        else:
            run = lambda st: st.declare(tuple(who(st)))
        run.ir = ir.Declare(self.ir_of(who), t != "player", t == "none")
        self.emit(EXEC, run)

    def s_Perform(self, s, scope):
        if s.name not in self.procs:
            raise _err(f"unknown procedure {s.name!r}" + self._suggest(s.name, self.procs), s)
        proc = self.procs[s.name]
        if len(s.args) != len(proc.params):
            raise _err(f"procedure {s.name} takes {len(proc.params)} argument(s), given {len(s.args)}", s)
        fns = [self.typed(a, scope, prm.type, f"argument {prm.name!r} of {s.name}")[0]
               for a, prm in zip(s.args, proc.params)]
        params = self.proc_params_for(proc)

        def bind(st):
            vals = [f(st) for f in fns]
            for slot, v in zip(params, vals):
                st.slots[slot] = v
        srcs = [self.src_of(f) for f in fns]
        if fns and None not in srcs:  # every argument first, then the parameters, as bind does
            bind.src = "\n".join([f"_a{i} = {src}" for i, src in enumerate(srcs)] +
                                  [f"st.slots[{slot}] = _a{i}" for i, slot in enumerate(params)])
        if fns:
            bind.ir = ir.Bind(tuple(params), tuple(self.ir_of(f) for f in fns))
            self.emit(EXEC, bind)
        i = self.emit(CALL, None, None)
        self.pending_calls.append((i, s.name))

    def proc_params_for(self, proc):
        if proc.name not in self.proc_params:
            self.proc_params[proc.name] = [self.new_slot() for _ in proc.params]
        return self.proc_params[proc.name]

    def s_Break(self, s, scope):
        if self.loop_ends is None or not self.loop_ends:
            raise _err("break is only allowed inside a loop (while, repeat or for each)", s)
        self.loop_ends[-1].append(self.emit(JUMP, None))

    def s_EndGame(self, s, scope):
        self.emit(END)

    def s_If(self, s, scope):
        ends = []
        for br in s.branches:
            test = self.condition(br.test, scope, "the condition of if")
            j = self.emit(JIF, test, None)
            self.block(br.body, scope)
            ends.append(self.emit(JUMP, None))
            self.p.code[j][2] = self.here()
        self.block(s.else_, scope)
        for j in ends:
            self.p.code[j][1] = self.here()

    def _loop(self, top: int, body_fn):
        self.loop_ends.append([])
        body_fn()
        self.emit(JUMP, top)
        for j in self.loop_ends.pop():
            self.p.code[j][1] = self.here()

    def s_While(self, s, scope):
        test = self.condition(s.test, scope, "the condition of while")
        top = self.here()
        j = self.emit(JIF, test, None)
        self._loop(top, lambda: self.block(s.body, scope))
        self.p.code[j][2] = self.here()

    def s_Repeat(self, s, scope):
        top = self.here()
        self._loop(top, lambda: self.block(s.body, scope))

    def _iterate(self, var, elem, list_fn, body, scope, list_src=None, list_ir=None):
        lst, idx, vslot = self.new_slot(), self.new_slot(), self.new_slot()

        def init(st):
            st.slots[lst] = list_fn(st)
            st.slots[idx] = 0
        if list_src is not None:
            init.src = f"st.slots[{lst}] = {list_src}\nst.slots[{idx}] = 0"
        init.ir = list_ir(lst, idx) if list_ir is not None else None
        self.emit(EXEC, init)
        top = self.here()
        more = self.lam(o.LoopMore(lst, idx, t="bool"))
        self.lam_ir[id(more)] = ir.LoopTest(lst, idx)
        j = self.emit(JIF, more, None)

        def step(st):
            st.slots[vslot] = st.slots[lst][st.slots[idx]]
            st.slots[idx] += 1
        step.src = f"st.slots[{vslot}] = st.slots[{lst}][st.slots[{idx}]]\nst.slots[{idx}] += 1"
        step.ir = ir.LoopStep(vslot, lst, idx)
        self.emit(EXEC, step)
        inner = dict(scope)
        inner[var] = (vslot, elem)
        self._loop(top, lambda: self.block(body, inner))
        self.p.code[j][2] = self.here()

    def s_ForPlayers(self, s, scope):
        if s.at is not None:
            at, _ = self.typed(s.at, scope, "player", f"the player after 'for each player {s.var} {s.start}'")
        else:
            at = lambda st: 0
        offset = 1 if s.start == "after" else 0
        node = s

        def order(st):
            a = at(st)
            if a is None:
                _none_player(node)
            n = st.n_players
            k = n - offset
            return [(a + offset + i) % n for i in range(k)]
        # every order there can be, made once: table size -> first player -> the seats in turn
        # (the loop only reads its list)
        rs = self.p.ruleset
        orders = {n: [tuple((a + offset + i) % n for i in range(n - offset)) for a in range(n)]
                  for n in range(rs.players_min, rs.players_max + 1)}
        asrc = "0" if s.at is None else self.src_of(at)
        src = None
        if asrc is not None:
            fail = self.const(lambda: _none_player(node))
            src = f"{self.const(orders)}[st.n_players][_p % st.n_players if (_p := ({asrc})) is not None else {fail}()]"
        at_ir = None if s.at is None else self.ir_of(at)
        body = self.in_play_body(s) if s.in_play else s.body
        self._iterate(s.var, "player", order, body, scope, src,
                      lambda lst, idx: ir.SeatsInit(lst, idx, at_ir, offset, node) if s.at is None or at_ir is not None else None)

    def s_ForEach(self, s, scope):
        dom, t = self.typed(s.domain, scope, "collection", f"the set after 'for each {s.var} in'")
        dsrc = self.src_of(dom)
        dom_ir = self.ir_of(dom)
        self._iterate(s.var, ELEM[t], lambda st: list(dom(st)), s.body, scope,
                      None if dsrc is None else f"list({dsrc})",
                      (lambda lst, idx: ir.LoopInit(lst, idx, dom_ir)) if dom_ir is not None else None)

    def s_Rule(self, s, scope):
        p = self.p
        if s.name in p.rule_titles:
            raise _err(f"rule {s.name!r} is defined twice; rule names must be unique", s)
        p.rule_titles[s.name] = s.title or s.name
        p.rule_loc[s.name] = s.loc
        idx = len(p.rule_names)
        p.rule_names.append(s.name)
        j = None
        self.rule_stack.append((s.name, s.title or s.name))  # (its `when` too: a failure there is in this rule)
        if s.when is not None:
            test = self.condition(s.when, scope, "the when condition of a rule")
            j = self.emit(JIF, test, None)

        def fire(st):
            st.fired[idx] += 1
        fire.src = f"st.fired[{idx}] += 1"
        fire.ir = ir.Fire(idx)
        self.emit(EXEC, fire)
        self.block(s.body, scope)
        self.rule_stack.pop()
        if j is not None:
            self.p.code[j][2] = self.here()

    def action_values(self, a, scope, elem):
        """The legal arguments of an action, in the order of its set, each once, as one
        generated function. A single zone holds each card once, so it needs no de-duplication;
        a condition the mask compiler can read is computed once and tested per card by its bit."""
        dsrc, t = self.sx_typed(a.domain, scope, "collection", f"the set of action {a.name!r}")
        unique = self.p.fast and (t == "zone" or self.disjoint_zones(a.domain, scope))
        lt = _LIST_OF[elem]
        if a.where is None:
            self.values_ir = ir.Values(dsrc, "_v_arg", None, t == "zone")
            return self.lam(dsrc if unique else o.Dedupe(dsrc, t=lt))
        var = o.Local("_v_arg", t=elem)
        bound = dict(scope)
        bound[a.var] = (var, elem)
        wsrc, _ = self.sx_typed(a.where, bound, "bool", "the where condition")
        self.values_ir = ir.Values(dsrc, "_v_arg", wsrc, t == "zone")
        tops = self.top_domain(a.domain, a.where, a.var, scope)
        if tops is not None:  # the zones' tops pass the test of being one: the rest decides
            rest = self.after_top_test(a.where)
            pick = o.AggLoop("those", var, tops, self.sx(rest, bound)[0] if rest is not None else None, None, t=lt)
            return self.lam(pick if unique else o.Dedupe(pick, t=lt))
        pick = o.AggLoop("those", var, dsrc, wsrc, None, t=lt)
        mask = None
        if self.use_masks and elem == "card":
            parts = self.domain_masks(a.domain, scope)
            cand = o.AllMask(t="mask") if parts is None else parts[0] if len(parts) == 1 else o.MaskUnion(tuple(parts), t="mask")
            mask = self.predicate_mask(a.where, a.var, scope, cand)
        if mask is not None:
            pick = self.guarded(o.BitsIn(var, dsrc, mask, t=lt), pick)
        return self.lam(pick if unique else o.Dedupe(pick, t=lt))

    def combination_values(self, a, scope):
        """The legal combinations of an action with several parameters, as tuples in the order of
        the sets (each later set may depend on the earlier parameters), each once. Each part of
        an `and` in the where condition is tested as soon as the parameters it names are bound,
        so a card that fails its own test is not paired with every zone."""
        params = [(a.var, a.domain)] + [(m.var, m.domain) for m in a.more]
        parts = _conjuncts(a.where) if a.where is not None else []
        stage = [max([i for i, (var, _) in enumerate(params) if mentions(x, var)], default=0) for x in parts]
        bound = dict(scope)
        names, all_tests, domains, tests_at = [], [], [], []
        combos = []
        for i, (var, domain) in enumerate(params):
            dsrc, t = self.sx_typed(domain, bound, "collection", f"the set of {var!r} in action {a.name!r}")
            mine = [x for x, k in zip(parts, stage) if k == i]
            if i == 0:  # `c in Z where c == top(c.zone) and ...`: only the tops of Z's zones, which pass that test
                tops = self.top_domain(domain, a.where, var, bound)
                if tops is not None:
                    dsrc = tops
                    mine = mine[1:]
            names.append(f"_v_arg{i}")
            bound[var] = (o.Local(f"_v_arg{i}", t=ELEM[t]), ELEM[t])
            tests = [self.sx_typed(x, bound, "bool", "the where condition")[0] for x in mine]
            combos.append((f"_v_arg{i}", dsrc, tuple(tests)))
            all_tests.append(tuple(tests))
            domains.append(dsrc)
            tests_at.append(list(zip(mine, tests)))
        self.values_ir = ir.Combos(tuple(combos))
        rows = o.Combinations(tuple(names), tuple(domains), tuple(all_tests), t="rows")
        plain = o.Dedupe(rows, t="rows")
        others = [v for v, _ in params[:-1]]
        if not self.p.fast or any(mentions(params[-1][1], v) for v in others):
            return self.lam(plain)
        return self.lam(self._paired(names, domains, tests_at, others, params[-1][0], bound, plain))

    def param_elem(self, a, var, domain, subset, t) -> str:
        """What an action's parameter holds: an element of its set, or for `S subset of X` a
        collection of X's cards."""
        if not subset:
            return ELEM[t]
        if ELEM[t] != "card":
            raise _err(f"action {a.name}: {var} subset of {unparse(domain)}: a set is chosen among cards; "
                       f"{unparse(domain)!r} is {word(t)}", domain)
        return "cards"

    def set_values(self, a, scope):
        """The legal values of an action with a set of cards among its parameters, as
        action_values and combination_values give them (one value, or a row per combination):
        the set's own tests (the parts of `where` naming it and no later parameter) go into the
        enumeration of its sets (ops.Subsets), and a part `(sum x in S: W) == T` whose W names
        no other parameter prunes it."""
        params = a.params()
        parts = _conjuncts(a.where) if a.where is not None else []
        stage = [max([i for i, (var, _, _) in enumerate(params) if mentions(x, var)], default=0) for x in parts]
        bound = dict(scope)
        combos = []
        for i, (var, domain, subset) in enumerate(params):
            dsrc, t = self.sx_typed(domain, bound, "collection", f"the set of {var!r} in action {a.name!r}")
            mine = [x for x, k in zip(parts, stage) if k == i]
            name = f"_v_arg{i}"
            if not subset:
                bound[var] = (o.Local(name, t=ELEM[t]), ELEM[t])
                tests = tuple(self.sx_typed(x, bound, "bool", "the where condition")[0] for x in mine)
                combos.append((name, dsrc, tests))
                continue
            if ELEM[t] != "card":
                raise _err(f"action {a.name}: {var} subset of {unparse(domain)}: a set is chosen among cards; "
                           f"{unparse(domain)!r} is {word(t)}", domain)
            site = len(self.p.set_sites)
            self.p.set_sites.append((a, g.ActionParam(var=var, domain=domain, subset=True, loc=domain.loc)))
            prune = _sum_part(mine, var, [v for v, _, _ in params])
            wvar = wsrc = target = None
            if prune is not None:  # the weights and the target, read before the set is bound
                agg, total = prune
                target = self.sx_typed(total, bound, "int", "the total the set's cards add up to")[0]
                wvar = o.Local(f"_v_w{i}", t="card")
                inner = dict(bound)
                inner[agg.var] = (wvar, "card")
                wsrc = self.sx_typed(agg.body, inner, "int", "the value added up")[0]
            low, high = self._count_bounds(mine, var, [v for v, _, _ in params], bound)
            local = o.Local(name, t="cards")
            bound[var] = (local, "cards")
            tests = [self.sx_typed(x, bound, "bool", "the where condition")[0] for x in mine]
            test = None
            for x in tests:
                test = x if test is None else o.Logic("and", test, x, t="bool")
            sets = o.Subsets(local, dsrc, test, wvar, wsrc, target, low, high, site, t="sets")
            combos.append((name, sets, ()))
        if len(params) == 1:
            self.values_ir = ir.Values(combos[0][1], combos[0][0], None, True)
            return self.lam(combos[0][1])
        self.values_ir = ir.Combos(tuple(combos))
        names = tuple(n for n, _, _ in combos)
        rows = o.Combinations(names, tuple(d for _, d, _ in combos), tuple(x for _, _, x in combos), t="rows")
        return self.lam(o.Dedupe(rows, t="rows"))

    def _count_bounds(self, parts, var, params, bound):
        """The fewest and most cards a set may hold, where a part of `where` says so (`count(S) <= N`,
        `count(S) == N`, ... with N naming no parameter from S on): ops, or None."""
        later = params[params.index(var):]
        low = high = None
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
        for x in parts:
            if not (isinstance(x, g.BinOp) and x.op in flip):
                continue
            for left, op, right in ((x.left, x.op, x.right), (x.right, flip[x.op], x.left)):
                if not (isinstance(left, g.Call) and left.func == "count" and len(left.args) == 1
                        and isinstance(left.args[0], g.Name) and left.args[0].name == var
                        and not any(mentions(right, v) for v in later)):
                    continue
                n = self.sx_typed(right, bound, "int", "the number of cards of the set")[0]
                if op in ("<=", "<", "==") and high is None:
                    high = n if op != "<" else o.Arith("-", n, o.Lit(1, t="int"), t="int")
                if op in (">=", ">", "==") and low is None:
                    low = n if op != ">" else o.Arith("+", n, o.Lit(1, t="int"), t="int")
                break
        return low, high

    def _paired(self, names, domains, tests_at, others, last, bound, plain):
        """The combinations with the last parameter's own work done once, not once per value
        of the others: its set, its tests that name no other parameter, and every term of the
        other tests that reads it alone (`top(z)`), listed the first time they are needed (a
        definition called with such a term is then written out in place). The plain form
        decides whenever this one raises, so a failure is what it always was."""
        scope = dict(bound)
        terms: list = []
        own, mixed = [], []
        for x, src in tests_at[-1]:
            if any(mentions(x, v) for v in others):
                mixed.append(self.sx_typed(_lift(x, last, set(others), scope, terms, self), scope, "bool",
                                           "the where condition")[0])
            else:
                own.append(src)
        name = self.fresh("agg")
        x = o.Paired(name, tuple(names), tuple(domains), tuple(tuple(src for _, src in tests_at[i]) for i in range(len(names) - 1)),
                     tuple(terms), tuple(own), tuple(mixed), plain, t="rows")
        exec(paired_def(x), self.ns)
        return x

    def _unseen_choice(self, a, var, domain, chooser) -> None:
        """An action over the chooser's own cards of an `others` zone (which everyone but the
        chooser sees) would name each card in its move, so the legal moves would show them: the
        author is pointed to choosing by place instead."""
        if chooser is None or not (isinstance(domain, g.Call) and len(domain.args) == 1
                                   and isinstance(domain.args[0], g.Name) and domain.args[0].name == chooser):
            return
        zi = self.p.zone_index.get(domain.func)
        if zi is None or self.p.zones[zi].visibility != "others":
            return
        raise _err(f"action {a.name!r} would offer {chooser} the cards of {domain.func}({chooser}) by name, but "
                   f"{chooser} cannot see them (zone {domain.func} is `others`): the moves would show them. "
                   f"Choose a place instead: `action {a.name} i in 1..count({domain.func}({chooser}))` "
                   f"and then `at({domain.func}({chooser}), i)`", domain)

    def s_Choose(self, s, scope):
        each_slot = None
        if s.each is not None:
            how = "any" if s.any else "each"
            actor, t = self.typed(s.by, scope, "collection", f"the players after 'choose by {how} {s.each} in'")
            if ELEM[t] != "player":
                raise _err(f"'choose by {how}' needs a collection of players; {unparse(s.by)!r} is {word(t)}", s.by)
            each_slot = self.new_slot()
            scope = dict(scope)
            scope[s.each] = (each_slot, "player")
        else:
            actor, _ = self.typed(s.by, scope, "player", "who chooses")
        rule, title = self.rule_stack[-1] if self.rule_stack and self.rule_stack[-1][0] else (None, None)
        alts: list[Alt] = []
        seen = set()
        chooser = s.each if s.each is not None else (s.by.name if isinstance(s.by, g.Name) else None)
        for a in s.actions:
            inner = dict(scope)
            slot = elem = dom = None
            more = []
            for var, domain in ([(a.var, a.domain)] if a.var is not None else []) + [(m.var, m.domain) for m in a.more]:
                self._unseen_choice(a, var, domain, chooser)
            if a.var is not None:
                dom, t = self.typed(a.domain, scope, "collection", f"the set of action {a.name!r}")
                elem = self.param_elem(a, a.var, a.domain, a.subset, t)
                slot = self.new_slot()
                inner[a.var] = (slot, elem)
                for m in a.more:
                    _, tm = self.typed(m.domain, inner, "collection", f"the set of {m.var!r} in action {a.name!r}")
                    inner[m.var] = (self.new_slot(), self.param_elem(a, m.var, m.domain, m.subset, tm))
                    more.append(inner[m.var])
            elif a.where is not None:
                raise _err(f"action {a.name!r} has no parameter, so 'where' has nothing to filter; use 'when'", a)
            if s.any and a.name == "pass":
                raise _err("in 'choose by any', 'pass' is the move every player has while they have another; "
                           "give this action another name", a)
            key = (a.name, a.var is None)
            if key in seen and a.var is None:
                raise _err(f"action {a.name!r} appears twice in the same choice", a)
            seen.add(key)
            where = self.typed(a.where, inner, "bool", "the where condition")[0] if a.where is not None else None
            try:
                when = self.condition(a.when, scope, "the when condition") if a.when is not None else None
            except RulesetError as e:
                own = [name for name, _, _ in a.params()]
                hit = next((n for n in own if e.message.startswith(f"unknown name {n!r}")), None)
                if hit is None:
                    raise
                raise RulesetError(f"unknown name {hit!r} in the 'when' condition: {hit!r} is this action's own "
                                   f"choice, and 'when' is checked before anything is chosen; a condition on it goes "
                                   f"after 'where' (action {a.name} {hit} in ... where ...)",
                                   e.file, e.line, e.column, e.source_line) from None
            alt = Alt(a.name, a.label, slot, elem, dom, where, when, node=a, more=more)
            self.values_ir = None
            if any(subset for _, _, subset in a.params()):
                alt.values = self.set_values(a, scope)
            elif more:
                alt.values = self.combination_values(a, scope)
            elif a.var is not None:
                alt.values = self.action_values(a, scope, elem)
            alt.values_ir = self.values_ir
            alt.when_ir = self.ir_of(when)
            alt.values_src = self.src_of(alt.values) if alt.values is not None else None
            alt.when_src = self.src_of(when) if when is not None else None
            alts.append(alt)
        if s.any:  # each player who may act may also pass (engine/legal.py offers it)
            decline = Alt("pass", "Pass: do nothing now.", None, None, None, None, None, node=s, decline=True)
            decline.values_ir = decline.when_ir = None
            alts.append(decline)
        choice = Choice(actor, alts, rule, title, s, unparse(s.by))
        choice.any = s.any
        choice.actor_ir = self.ir_of(actor)
        choice.each_slot = each_slot
        choice.secret = s.secret
        choice.shared_names = len({a.name for a in alts}) < len(alts)
        self.p.choices.append(choice)
        if each_slot is not None:
            # every player of the collection decides once, in any order; each action's body
            # returns to the decision, which ends when nobody is left to decide
            self.emit(CHOOSE_EACH, choice)
            done = self.emit(JUMP, None)
            outer_loops, self.loop_ends = self.loop_ends, []  # a break cannot leave such a body
            for alt, a in zip(alts, s.actions):  # (the pass of `choose by any` has no body)
                alt.body = self.here()
                self.block(a.body, _params_bound(scope, alt, a))
                self.emit(RET)
            self.loop_ends = outer_loops
            self.p.code[done][1] = self.here()
            return
        self.emit(CHOOSE, choice)
        ends = []
        for alt, a in zip(alts, s.actions):
            alt.body = self.here()
            self.block(a.body, _params_bound(scope, alt, a))
            ends.append(self.emit(JUMP, None))
        for j in ends:
            self.p.code[j][1] = self.here()


_LIST_OF = {"card": "cards", "player": "players", "int": "ints", "suit": "suits", "rank": "ranks", "zone": "zones"}


def _conjuncts(e) -> list:
    if isinstance(e, g.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _sum_part(parts: list, var: str, params: list):
    """`(sum x in S: W) == T` (either way round) among the parts, with W naming no parameter
    but through x and T naming no parameter from S on: (the sum, T), else None."""
    later = params[params.index(var):]
    for x in parts:
        if not (isinstance(x, g.BinOp) and x.op == "=="):
            continue
        for agg, total in ((x.left, x.right), (x.right, x.left)):
            if (isinstance(agg, g.Agg) and agg.op == "sum" and agg.where is None and agg.body is not None
                    and isinstance(agg.domain, g.Name) and agg.domain.name == var
                    and not any(mentions(agg.body, v) for v in later if v != agg.var)
                    and not any(mentions(total, v) for v in later)):
                return agg, total
    return None


def _params_bound(scope: dict, alt, a) -> dict:
    """The scope of an action's body: its parameters in their slots."""
    inner = dict(scope)
    if alt.slot is not None:
        inner[a.var] = (alt.slot, alt.elem)
        for m, bound in zip(a.more, alt.more):
            inner[m.var] = bound
    return inner


def _lift(e, var: str, others: set, scope: dict, terms: list, compiler):
    """`e` with each largest call or aggregate that reads `var` and none of `others` (nor a
    variable an aggregate inside `e` binds) replaced by a name bound in `scope` to `_hK`, K its
    place in `terms`, the generated code of the term (equal terms share one)."""
    if isinstance(e, (g.Call, g.Agg, g.Split)) and mentions(e, var) and not any(mentions(e, v) for v in others):
        src, t = compiler.sx(e, scope)
        if src not in terms:
            terms.append(src)
        k = terms.index(src)
        scope[f"#h{k}"] = (o.Local(f"_h{k}", t=t), t)
        return g.Name(name=f"#h{k}", loc=e.loc)
    if isinstance(e, g.Agg):
        others = others | {e.var}
    update = {}
    for field in type(e).model_fields:
        v = getattr(e, field)
        if isinstance(v, g.Node) and not isinstance(v, g.Loc):
            update[field] = _lift(v, var, others, scope, terms, compiler)
        elif isinstance(v, tuple) and v and all(isinstance(x, g.Node) for x in v):
            update[field] = tuple(_lift(x, var, others, scope, terms, compiler) for x in v)
    return e.model_copy(update=update) if update else e


def _none_player(node):
    raise _runtime(f"{unparse(node.at)!r} is none here", node)


def _src_of_call(fn, template: str, compiler) -> str | None:
    """A statement as a line of Python (`template` with the value's source in {}), when the
    value's function was generated from source; traces write such statements out."""
    src = compiler.src_of(fn)
    return None if src is None else template.format(f"({src})")
