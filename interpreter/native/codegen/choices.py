"""The C of a program's choices: whose turn it is, the legal moves each choice offers (its
values, combinations and subsets, repeats taken out), carrying out the move chosen, and the
bounds the state's tables are sized by; mixed into the module emitter (emit.py: Module)."""

from __future__ import annotations

from ...compiler.ir import ops as o
from ...compiler.ir import stmts as ir
from ...compiler.program import MAX_SETS
from ...language import sizes
from .expr import NativeUnsupported
from .shapes import canonical, distinct_cards


def located_unsupported(e, alt):
    """A NativeUnsupported met while lowering an action, at the action's line when it has none."""
    loc = getattr(getattr(alt, "node", None), "loc", None)
    if e.line is not None or loc is None:
        return e
    from ...language.locate import source_line
    from pathlib import Path
    where = f"{Path(loc.file).name}:{loc.line}" if loc.file else f"line {loc.line}"
    return NativeUnsupported(f"the native engine cannot play action {alt.name!r} ({where}): {e.message} (the "
                             f"Python engine can: --engine python)", loc.file, loc.line, loc.column, source_line(loc))


class Choices:
    """The choice methods, for the module emitter."""

    def site(self, ch) -> int:
        """The number of a `choose by each` among the program's."""
        return [c for c in self.p.choices if c.each_slot is not None].index(ch)

    def choose_each(self, pc: int, ch) -> str:
        """engine/play.py:_exec at a CHOOSE_EACH: the deciders once; when everyone has decided,
        secret choices carried out one by one in the deciders' order; else everyone's moves."""
        k, site, each = self.p.choices.index(ch), self.site(ch), ch.each_slot
        actors = self.lst(getattr(ch, "actor_ir", None))
        if ch.any:
            return self.choose_any(pc, k, site, each, actors)
        secret = int(bool(ch.secret))
        binds = " ".join(f"case {i}: {self.bind(alt, f'S->chosen_val[{site}][_p]')} S->pc = {alt.body}; break;"
                         for i, alt in enumerate(ch.alts))
        return (
            f"{{ const int site = {site}; "
            f"if (!S->pend_on[site]) {{ cr_list _l = {actors}; S->pend_n[site] = 0; "
            f"for (int64_t _i = 0; _i < _l.n; _i++) {{ int64_t _p = _l.v[_i]; if (_p == CR_NONE) continue; "
            f"cr_idx(x, _p, S->n_players); int _j = 0; while (_j < S->pend_n[site] && S->pend[site][_j] != _p) _j++; "
            f"if (_j == S->pend_n[site]) S->pend[site][S->pend_n[site]++] = (int32_t)_p; }} S->pend_on[site] = 1; "
            f"if ({secret}) {{ S->seal_on[site] = 1; S->seal_n[site] = S->pend_n[site]; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->seal_order[site][_j] = S->pend[site][_j]; }} "
            f"memset(S->chosen_on[site], 0, sizeof(S->chosen_on[site])); }} }} "
            f"if (S->pend_n[site] == 0) {{ "
            f"if ({secret}) {{ for (int _j = 0; _j < S->seal_n[site]; _j++) {{ int32_t _p = S->seal_order[site][_j]; "
            f"if (!S->chosen_on[site][_p]) continue; S->chosen_on[site][_p] = 0; S->sv[{each}] = _p; "
            f"if (S->sp >= MAXDEPTH) cr_fail(x, CR_E_DEPTH); S->stack[S->sp++] = {pc}; "
            f"switch (S->chosen_alt[site][_p]) {{ {binds} default: cr_fail(x, CR_E_STATE); }} cr_epoch++; goto next{pc}; }} "
            f"S->seal_on[site] = 0; }} "
            f"S->pend_on[site] = 0; S->pc = {pc + 1}; continue; }} "
            f"S->choice = {k}; S->actor = S->pend[site][0]; S->legal_n = 0; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->sv[{each}] = S->pend[site][_j]; cr_epoch++; "
            f"legal{k}(x, S, C, S->pend[site][_j]); }} "
            f"S->sv[{each}] = S->pend[site][S->pend_n[site] - 1]; return 0; "
            f"next{pc}: continue; }}")

    def choose_any(self, pc: int, k: int, site: int, each: int, actors: str) -> str:
        """engine/play.py:_exec at a `choose by any`: the players who have not passed since the
        last move (all of them after it), everyone's moves; nobody with one: the decision is over."""
        return (
            f"{{ const int site = {site}; "
            f"if (!S->pend_on[site]) {{ cr_list _l = {actors}; S->pend_n[site] = 0; "
            f"for (int64_t _i = 0; _i < _l.n; _i++) {{ int64_t _p = _l.v[_i]; if (_p == CR_NONE) continue; "
            f"cr_idx(x, _p, S->n_players); int _j = 0; while (_j < S->pend_n[site] && S->pend[site][_j] != _p) _j++; "
            f"if (_j == S->pend_n[site]) S->pend[site][S->pend_n[site]++] = (int32_t)_p; }} S->pend_on[site] = 1; }} "
            f"S->legal_n = 0; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->sv[{each}] = S->pend[site][_j]; cr_epoch++; "
            f"legal{k}(x, S, C, S->pend[site][_j]); }} "
            f"if (S->pend_n[site]) S->sv[{each}] = S->pend[site][S->pend_n[site] - 1]; "
            f"if (S->legal_n == 0) {{ S->pend_on[site] = 0; S->pc = {pc + 1}; continue; }} "
            f"S->choice = {k}; S->actor = S->legal_who[0]; return 0; }}")

    def bind(self, alt, vals: str) -> str:
        """An action's parameters take the chosen values (engine/play.py:_bind)."""
        if alt.slot is None:
            return ""
        slots = [(alt.slot, alt.elem)] + list(alt.more)
        out = []
        for j, (slot, elem) in enumerate(slots):
            if elem == "cards" and self.slot_kind[slot] == "list":  # a chosen set: its mask's cards, in the deck's order
                li = self.list_index[slot]
                out.append(f"{{ uint64_t _m = (uint64_t){vals}[{j}]; S->ln[{li}] = 0; for (int64_t _b = 0; _b < NC; _b++) "
                           f"if (_m >> _b & 1) S->lv[{li}][S->ln[{li}]++] = _b; }}")
            else:
                out.append(f"S->sv[{slot}] = {vals}[{j}];")
        return " ".join(out)

    def choice(self, k: int, ch) -> str:
        """legal<k>(who): the moves `who` may make, after those already listed (compute_legal_for)."""
        lines = [f"static void legal{k}(cr_ctx *x, cr_state *S, crt_cards *C, int32_t who) {{", "    (void)C;",
                 "    const int32_t first = S->legal_n;", "    (void)first;"]
        names = {}
        seen: dict[str, str] = {}  # the actions' `when` tests worked out so far: nothing changes between them
        alt = None
        try:
            for i, alt in enumerate(ch.alts):
                names.setdefault(alt.name, len(names))
                if alt.decline:  # `choose by any`: a player with a move may pass (engine/legal.py)
                    lines.append(f"    if (S->legal_n > first) cr_offer1(x, S, {i}, who, CR_NONE);")
                    continue
                body = []
                if alt.values is None:
                    body.append(f"cr_offer1(x, S, {i}, who, CR_NONE);")
                elif alt.more:
                    body.append(self.combos(i, alt))
                else:
                    v = alt.values_ir
                    if not isinstance(v, ir.Values):
                        raise NativeUnsupported("an action's values the compiler did not lower")
                    var = self.local(v.var)
                    test = f"if (!{self.truth(v.where)}) continue; " if v.where is not None else ""
                    dedupe = ("" if v.domain.t == "zone" or isinstance(v.domain, o.Subsets) or distinct_cards(v.domain)
                              else "_k = cr_dedupe(_k); ")
                    parts, decls = self.parts_decl(v.domain)
                    if dedupe:
                        total = " + ".join(f"{d}.n" for d in parts)
                        body.append(f"{decls}cr_list _k = cr_alloc(x, {total}); "
                                    f"{self.each(parts, var, f'{test}_k.v[_k.n++] = {var}; ')}{dedupe}"
                                    f"for (int64_t _i = 0; _i < _k.n; _i++) cr_offer1(x, S, {i}, who, _k.v[_i]);")
                    elif not test and all(isinstance(part, o.ZoneCards) for part in self.parts(v.domain)):
                        body.append(decls + "".join(f"cr_offer_view(x, S, {i}, who, {d}); " for d in parts))
                    else:  # each offered as it passes: a failure on the way throws the moves away
                        body.append(f"{decls}{self.each(parts, var, f'{test}cr_offer1(x, S, {i}, who, {var}); ')}")
                if alt.when is not None:
                    when = getattr(alt, "when_ir", None)
                    if when is None:
                        raise NativeUnsupported("an action's 'when' the compiler did not lower")
                    key = canonical(when)
                    if key is not None and key in seen:  # the same test as an earlier action's: its answer
                        lines.append(f"    if ({seen[key]}) {{ {' '.join(body)} }}")
                    elif key is not None:
                        seen[key] = f"_w{len(seen)}"
                        lines.append(f"    int {seen[key]} = {self.truth(when)};")
                        lines.append(f"    if ({seen[key]}) {{ {' '.join(body)} }}")
                    else:
                        lines.append(f"    if ({self.truth(when)}) {{ {' '.join(body)} }}")
                else:
                    lines.append(f"    {{ {' '.join(body)} }}")
        except NativeUnsupported as e:  # said at the action (Bezique's 64-card sets had no place)
            raise located_unsupported(e, alt) from None
        if ch.shared_names:
            ids = ", ".join(str(names[a.name]) for a in ch.alts)
            lines.append(f"    {{ static const int32_t name_of[] = {{{ids}}}; cr_unique(S, first, name_of); }}")
        lines.append("}")
        return "\n".join(lines)

    def combos(self, i: int, alt) -> str:
        """Nested loops over the parameters' sets, each test where its last parameter is bound;
        rows without repeats (engine: list(dict.fromkeys(...)))."""
        v = alt.values_ir
        if not isinstance(v, ir.Combos):
            raise NativeUnsupported("an action's values the compiler did not lower")
        w = len(v.params)
        if w > self.nparams:
            raise NativeUnsupported("an action with more parameters than the engine has room for")
        code = ["int32_t _start = S->legal_n; "]
        close = []
        cols = []
        for j, (var, domain, tests) in enumerate(v.params):
            d, idx = self.fresh_c("d"), self.fresh_c("i")
            c = self.local(var)
            if isinstance(domain, o.Subsets):  # a set of cards: its mask in the row, its cards for the tests
                m = self.fresh_c("s")
                cols.append(m)
                code.append(f"cr_list {d} = {self.lst(domain)}; for (int64_t {idx} = 0; {idx} < {d}.n; {idx}++) "
                            f"{{ int64_t {m} = {d}.v[{idx}]; cr_list {c} = cr_alloc(x, __builtin_popcountll((uint64_t){m})); "
                            f"for (int64_t _b{m} = 0; _b{m} < NC; _b{m}++) if ((uint64_t){m} >> _b{m} & 1) {c}.v[{c}.n++] = _b{m}; ")
            else:
                cols.append(c)
                code.append(f"cr_list {d} = {self.lst(domain)}; for (int64_t {idx} = 0; {idx} < {d}.n; {idx}++) "
                            f"{{ int64_t {c} = {d}.v[{idx}]; ")
            code.extend(f"if (!{self.truth(t)}) continue; " for t in tests)
            close.append("} ")
        code.append(f"{{ int64_t _row[{w}] = {{{', '.join(cols)}}}; cr_offer(x, S, {i}, who, _row, {w}); }} ")
        code.extend(close)
        code.append("cr_dedupe_legal(S, _start); ")
        return "{ " + "".join(code) + "}"

    def apply_case(self, k: int, ch) -> str:
        cases = []
        for i, alt in enumerate(ch.alts):
            if alt.decline:  # passes until somebody moves: the decision again, without this player
                cases.append(f"case {i}: cr_unwait(S, {self.site(ch)}, who); break;")
            elif ch.any:  # the move is made: after it, everyone may act again
                site = self.site(ch)
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} S->pend_on[{site}] = 0; "
                             f"S->sv[{ch.each_slot}] = who; if (S->sp >= MAXDEPTH) return CR_E_DEPTH; "
                             f"S->stack[S->sp++] = S->pc; S->pc = {alt.body}; break;")
            elif ch.each_slot is not None and ch.secret:  # sealed until everyone has chosen
                site = self.site(ch)
                cases.append(f"case {i}: cr_unwait(S, {site}, who); S->chosen_on[{site}][who] = 1; "
                             f"S->chosen_alt[{site}][who] = alt; "
                             f"memcpy(S->chosen_val[{site}][who], S->legal_val[i], sizeof S->legal_val[i]); break;")
            elif ch.each_slot is not None:
                site = self.site(ch)
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} cr_unwait(S, {site}, who); "
                             f"S->sv[{ch.each_slot}] = who; if (S->sp >= MAXDEPTH) return CR_E_DEPTH; "
                             f"S->stack[S->sp++] = S->pc; S->pc = {alt.body}; break;")
            else:
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} S->pc = {alt.body}; break;")
        return f"case {k}: switch (alt) {{ {' '.join(cases)} default: return CR_E_STATE; }} break;"

    def moves_bound(self, ch, lcap: int, maxp: int) -> int:
        """How many moves a choice can offer at once (every decider's at a `choose by each`)."""
        total = 0
        for a in ch.alts:
            v = a.values_ir
            if a.values is None:
                total += 1
            elif isinstance(v, ir.Combos):
                n = 1
                for _, domain, _ in v.params:
                    n = min(n * self.choice_bound(domain, lcap), 1 << 15)
                total += n
            elif isinstance(v, ir.Values):
                total += self.choice_bound(v.domain, lcap)
        return total * (maxp if ch.each_slot is not None else 1)

    def choice_bound(self, e, lcap: int) -> int:
        """How many values an action's domain can offer: a range whose ends are worked out in play
        (`n in 1..big`) as many as the language lets a range hold (a new user's Chemin de Fer: a
        stake up to the bank failed in C past 64 values and played in Python)."""
        if isinstance(e, o.Range) and (self.int_range(e.a) is None or self.int_range(e.b) is None):
            return sizes.MAX_RANGE
        return self.bound(e, lcap)

    def bound(self, e, lcap: int) -> int:
        """How long a collection can be, as far as can be seen before play (lcap: a slot's room)."""
        rs = self.p.ruleset
        if isinstance(e, o.Range):
            lo, hi = self.int_range(e.a), self.int_range(e.b)
            if lo is not None and hi is not None:
                return max(hi[1] - lo[0] + 1, 0)
            return lcap
        if isinstance(e, o.Concat):
            return self.bound(e.a, lcap) + self.bound(e.b, lcap)
        if isinstance(e, o.ListOf):
            return len(e.items)
        if isinstance(e, o.Subsets):
            return MAX_SETS
        if isinstance(e, (o.AggLoop, o.Paren)):
            return self.bound(e.domain if isinstance(e, o.AggLoop) else e.x, lcap)
        if isinstance(e, o.Op) and e.t in ("players", "suits", "ranks"):
            return max(rs.players_max, len(rs.deck.suits), len(rs.deck.ranks))
        return lcap

    def int_range(self, e):
        """The lowest and highest value a number can take, where the ruleset fixes them."""
        if isinstance(e, o.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return e.value, e.value
        if isinstance(e, o.Opt):
            opt = self.p.options[e.i]
            if opt.type == "int" and opt.low is not None:
                return opt.low, opt.high
        if isinstance(e, o.NPlayers):
            return self.p.ruleset.players_min, self.p.ruleset.players_max
        if isinstance(e, o.Paren):
            return self.int_range(e.x)
        if isinstance(e, o.Neg):
            x = self.int_range(e.x)
            return None if x is None else (-x[1], -x[0])
        if isinstance(e, o.Arith) and e.op in ("+", "-", "*"):  # `1..(player_count * 20)`
            a, b = self.int_range(e.a), self.int_range(e.b)
            if a is None or b is None:
                return None
            if e.op == "+":
                return a[0] + b[0], a[1] + b[1]
            if e.op == "-":
                return a[0] - b[1], a[1] - b[0]
            ends = [x * y for x in a for y in b]
            return min(ends), max(ends)
        if isinstance(e, o.Arith) and e.op == "//":  # `1..(6 / exchange)`
            a, b = self.int_range(e.a), self.int_range(e.b)
            if a is None or b is None or a[0] < 0 or b[0] < 0 or b[1] == 0:
                return None
            return a[0] // b[1], a[1] // max(b[0], 1)  # (dividing by 0 stops the game)
        if isinstance(e, (o.Len, o.PopCount)):  # `1..count(hand(turn))`: no more than the collection holds
            return 0, self.bound(e.coll if isinstance(e, o.Len) else o.AllMask(), max(self.p.n_cards, 64))
        if isinstance(e, o.MinMax) and e.fn in ("min", "max"):
            a, b = self.int_range(e.a), self.int_range(e.b)
            if a is None or b is None:
                return None
            pick = min if e.fn == "min" else max
            return pick(a[0], b[0]), pick(a[1], b[1])
        if isinstance(e, o.Cond):
            a, b = self.int_range(e.then), self.int_range(e.else_)
            return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
        if isinstance(e, (o.Slot, o.PlayerVar)):  # `0..num_tricks`: the values every assignment can give it
            return self.var_range(e.n)
        if isinstance(e, o.Guarded):
            return self.int_range(e.loop)
        pick = e.domain if isinstance(e, o.AggLoop) and e.agg in ("highest", "lowest") else \
            e.coll if isinstance(e, (o.Extreme, o.End)) else None
        if isinstance(pick, o.Range):  # highest n in least..most where ...: one of the range's numbers
            a, b = self.int_range(pick.a), self.int_range(pick.b)
            return None if a is None or b is None else (a[0], b[1])
        if isinstance(e, o.Random) and isinstance(e.coll, o.Range):  # random(1..most_tricks)
            a, b = self.int_range(e.coll.a), self.int_range(e.coll.b)
            return None if a is None or b is None else (a[0], b[1])
        if isinstance(e, o.Call) and not e.args and isinstance(e.fn, str) and e.fn.startswith("D_"):
            entry = self.p.def_ir.get(e.fn[2:])  # a definition without parameters: what its body can be
            memo = self.__dict__.setdefault("_def_ranges", {})
            if entry is None or entry[0] or e.fn in memo:
                return memo.get(e.fn)
            memo[e.fn] = None
            memo[e.fn] = self.int_range(entry[1])
            return memo[e.fn]
        return None

    def _assignments(self) -> tuple[dict, set]:
        """_assignments_of the whole program, worked out once."""
        got = self.__dict__.get("_given")
        if got is None:
            got = self.__dict__["_given"] = _assignments_of(self.everything, self.p.choices)
        return got

    def var_range(self, slot: int):
        """The lowest and highest value a declared whole-number variable can hold: its first value's
        and those of every `set` of it, where each is fixed by the ruleset (None otherwise, or for a
        local, a parameter or a variable that depends on itself)."""
        memo = self.__dict__.setdefault("_var_ranges", {})
        if slot in memo:
            return memo[slot]
        memo[slot] = None  # (while it is worked out: a variable set from itself is not bounded)
        declared = [(typ, init) for s, _, typ, init in self.p.var_ir if s == slot]
        if declared and declared[0][0] != "int":
            return None
        given, unbounded = self._assignments()
        values = ([declared[0][1]] if declared else []) + given.get(slot, [])
        if not values or slot in unbounded:
            return None  # (a loop's variable, a move's value, or nothing says what it holds)
        ranges = [self.int_range(v) for v in values]
        if any(r is None for r in ranges):
            return None
        memo[slot] = (min(r[0] for r in ranges), max(r[1] for r in ranges))
        return memo[slot]


def _assignments_of(everything, choices) -> tuple[dict, set]:
    """Every value each slot is given (a `set`, or a procedure's argument) in the lowered program,
    and the slots given values no expression says (a loop's variable, a move's value)."""
    given: dict = {}
    unbounded: set = set()
    for st in _stmts(everything):
        if isinstance(st, (ir.SetSlot, ir.SetPlayerVar)):
            given.setdefault(st.slot, []).append(st.value)
        elif isinstance(st, ir.Bind):  # a procedure's parameters: each argument given
            for s, a in zip(st.slots, st.args):
                given.setdefault(s, []).append(a)
        elif isinstance(st, (ir.LoopStep, ir.LoopInit)):
            unbounded.update(x for x in (getattr(st, "var", None), st.lst, st.idx) if x is not None)
    for ch in choices:
        for a in ch.alts:
            unbounded.add(a.slot)
            unbounded.update(getattr(m, "slot", None) for m in (a.more or ()))
    return given, unbounded


def _stmts(x):
    """The lowered statements in x (instructions, tuples of them), not the ops inside them."""
    if isinstance(x, (tuple, list)):
        for v in x:
            yield from _stmts(v)
    elif hasattr(x, "__dataclass_fields__") and not isinstance(x, o.Op):
        yield x

