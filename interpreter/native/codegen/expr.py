"""The C emitter of the IR's expression ops (compiler/ir/ops.py): each op becomes one C
expression with Python's meaning (GNU statement expressions for the loops), reading the
state through `S` (the engine's struct), `C` (its cards, native/runtime/cards.c) and `x` (the
context that failures leave through).

Nothing from the ruleset's text reaches the C source: names are numbered, numbers are checked
64-bit literals, enum choices are their indices, and every index a value makes is checked."""

from __future__ import annotations

from ...compiler.ir import ops as o
from ...compiler.program import MAX_SET_CARDS, MAX_SETS, MAX_TRIED
from ...errors import CardRulesError
from ...compiler.ir.visit import OpVisitor
from .purity import MAX_SPLIT_SITES

LIST_TYPES = {"cards", "players", "ints", "suits", "ranks", "zones", "zonekind", "sets"}
_CMP = {"==", "!=", "<", "<=", ">", ">="}
_AGGS = {"all", "any", "no", "count", "sum", "max", "min", "those", "highest", "lowest"}


class NativeUnsupported(CardRulesError):
    """A construct the C backend cannot lower yet: the Python engine plays the ruleset."""


def is_list(t) -> bool:
    return t in LIST_TYPES


def int_literal(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if not isinstance(v, int) or not (-(2 ** 63) < v < 2 ** 63):
        raise NativeUnsupported(f"the number {v!r} does not fit in 64 bits")
    return f"INT64_C({v})"


class FastPathForms(OpVisitor):
    """The C backend's methods for the forms the Python fast path adds around a choice's moves and
    statement loops (the mask forms' are in maskforms.py): each lowers the op's generic form, or says
    what the C emitter does instead."""
    prefix = "x_"

    def x_Paired(self, e):
        return self.ex(e.plain)  # the same rows, worked out plainly

    def x_Combinations(self, e):
        raise NativeUnsupported("the rows of an action's parameters as one expression (the C emitter lists "
                                "them from the choice's ir.Combos)")

    def x_Dedupe(self, e):
        raise NativeUnsupported("a collection made distinct as one expression (the C emitter lists a "
                                "choice's values once each from its ir.Values)")

    def x_EachSeat(self, e):
        raise NativeUnsupported("a per-player variable's first values as one expression (the C emitter "
                                "sets each seat's from Program.var_ir)")

    def x_CardKind(self, e):
        return f"((int64_t)CR_CARD_KIND(C, cr_idx(x, {self.scalar(e.card)}, NC)))"

    def x_Keep(self, e):
        return self.ex(e.x)  # a term kept for Python (compiler/cse.py): C writes it where it stands

    def x_Kept(self, e):
        return self.ex(e.x)  # the term again: it has no effect, and GCC numbers equal values in one function

    def x_LoopMore(self, e):
        raise NativeUnsupported("a statement loop's test as an expression (the C emitter writes ir.LoopTest)")


class Expr(FastPathForms):
    """Mixed into the module emitter (emit.py), which gives `p` (the Program), `slot_kind`,
    `list_index`, `pv_index`, `const_list`, `define_fn` and `enum_index`. The C backend's
    visitor: one `x_<Op>` method per op class (the mask forms' in maskforms.py)."""

    def fresh_c(self, base: str) -> str:
        self.n_tmp += 1
        return f"_{base}{self.n_tmp}"

    def local(self, name: str) -> str:
        """A name generated code binds (a parameter, an aggregate's variable), numbered."""
        if name not in self.locals:
            self.locals[name] = f"l{len(self.locals)}"
        return self.locals[name]

    def ex(self, e) -> str:
        """C for an op; a list-typed op gives a cr_list, any other an int64_t."""
        if e is None:
            raise NativeUnsupported("an expression the compiler did not lower")
        if not isinstance(e, o.Op):
            raise NativeUnsupported(f"an expression the compiler did not lower ({str(e)[:60]})")
        fn = getattr(self, "x_" + type(e).__name__, None)
        if fn is None:
            raise NativeUnsupported(f"the operation {type(e).__name__}")
        return fn(e)

    def truth(self, e) -> str:
        if is_list(e.t):
            return f"({self.ex(e)}.n > 0)"
        return f"cr_truth({self.ex(e)})"

    def scalar(self, e) -> str:
        if isinstance(e, o.Op) and is_list(e.t):
            raise NativeUnsupported(f"a collection where one value was expected ({str(e)[:60]})")
        return self.ex(e)

    def lst(self, e) -> str:
        if isinstance(e, o.Op) and not is_list(e.t):
            raise NativeUnsupported(f"one value where a collection was expected ({str(e)[:60]})")
        return self.ex(e)

    # ---- values
    def x_Lit(self, e):
        v = e.value
        if v is None:
            return "CR_NONE"
        if isinstance(v, tuple):
            return self.const_list(v)
        if isinstance(v, str):
            return int_literal(self.enum_index(v))
        return int_literal(v)

    def x_Global(self, e):
        if e.name == "ALLCARDS":
            return self.const_list(tuple(range(self.p.n_cards)))
        if e.name.startswith("GROUP_"):
            return self.const_list(tuple(self.p.namespace[e.name]))
        raise NativeUnsupported(f"the table {e.name}")

    def x_Seats(self, e):
        return "cr_seats(x, S->n_players)"

    def x_NPlayers(self, e):
        return "((int64_t)S->n_players)"

    def x_Slot(self, e):
        kind = self.slot_kind.get(e.n)
        if kind == "list":
            return f"cr_slot_list(S, {self.list_index[e.n]})"
        if kind in ("pv", "pvl"):
            raise NativeUnsupported("a per-player variable read as a whole")
        return f"S->sv[{e.n}]"

    def x_Local(self, e):
        return self.local(e.name)

    def x_Paren(self, e):
        return f"({self.ex(e.x)})"

    def x_Opt(self, e):
        return f"S->opt[{e.i}]"

    def x_PlayerVar(self, e):
        if self.slot_kind.get(e.n) == "pvl":
            return f"cr_pv_list(S, {self.pvl_index[e.n]}, cr_idx(x, {self.scalar(e.who)}, S->n_players))"
        return f"S->pv[{self.pv_index[e.n]}][cr_idx(x, {self.scalar(e.who)}, CR_SEATS(S))]"

    def x_ListOf(self, e):
        t = self.fresh_c("l")
        fill = "".join(f"{t}.v[{t}.n++] = {self.scalar(i)}; " for i in e.items)
        return f"({{ cr_list {t} = cr_alloc(x, {len(e.items)}); {fill}{t}; }})"

    # ---- zones
    def x_ZoneBase(self, e):
        return f"((int64_t)S->zbase[{e.kind}])"

    def x_KindCards(self, e):
        return f"cr_kind_cards(x, S, C, {e.kind})"

    def x_ZoneAt(self, e):
        return f"cr_zone_at(x, S, {e.kind}, {self.scalar(e.i)})"

    def x_PlayerZone(self, e):
        return f"cr_add(x, S->zbase[{e.kind}], {self.scalar(e.who)})"

    def x_ZoneCards(self, e):
        return f"cr_zone_cards(x, S, C, {self.scalar(e.zone)})"

    def x_ZoneIndex(self, e):
        return f"cr_zone_index(x, S, {self.scalar(e.zone)})"

    def x_ZoneOwner(self, e):
        return f"cr_zone_owner(x, S, {self.scalar(e.zone)})"

    def x_ZonesOf(self, e):
        return f"cr_range(x, S->zbase[{e.kind}], S->zbase[{e.kind}] + S->zcount[{e.kind}] - 1)"

    def x_KindTops(self, e):
        return f"cr_kind_tops(x, S, C, {int(e.kind)})"

    def x_TopSlice(self, e):
        return f"cr_top_slice(x, S, C, {self.scalar(e.zone)})"

    # ---- cards
    def x_CardAttr(self, e):
        c = self.scalar(e.card)
        a = e.attr
        if a in ("suit", "rank", "order"):
            return f"K_{a.upper()}[cr_idx(x, {c}, NC)]"
        if a == "owner":
            return f"cr_card_owner(x, C, {c})"
        if a == "played_by":
            return f"cr_card_played_by(x, C, {c})"
        if a == "zone":
            return f"CR_CARD_ZONE(C, cr_idx(x, {c}, NC))"
        if a == "face_up":
            return f"((int64_t)crt_cards_face_up(C, (int32_t)cr_idx(x, {c}, NC)))"
        if a == "depth":
            return f"cr_card_depth(x, C, {c})"
        if a == "beneath":
            return f"cr_card_beneath(x, C, {c})"
        raise NativeUnsupported(f"the card attribute {a}")

    def x_CardValue(self, e):
        return f"{self.value_table(e.name)}[cr_idx(x, {self.scalar(e.card)}, NC)]"

    def x_Neighbours(self, e):
        return f"cr_table_list(x, {self.card_lists(e.side)}, cr_idx(x, {self.scalar(e.card)}, NC))"

    def x_CardsOf(self, e):
        return f"cr_table_list(x, {self.card_lists('suit')}, cr_idx(x, {self.scalar(e.suit)}, NSUITS))"

    def x_CardOf(self, e):
        return f"cr_card_of(x, {self.scalar(e.rank)}, {self.scalar(e.suit)})"

    # ---- numbers and tests
    def x_Arith(self, e):
        f = {"+": "cr_add", "-": "cr_sub", "*": "cr_mul", "//": "cr_floordiv", "%": "cr_mod"}[e.op]
        return f"{f}(x, {self.scalar(e.a)}, {self.scalar(e.b)})"

    def x_Power(self, e):
        return f"cr_pow(x, {self.scalar(e.a)}, {self.scalar(e.b)})"

    def x_Neg(self, e):
        return f"cr_neg(x, {self.scalar(e.x)})"

    def x_Not(self, e):
        return f"((int64_t)!{self.truth(e.x)})"

    def x_Logic(self, e):
        t = self.fresh_c("a")
        a, b = self.scalar(e.a), self.scalar(e.b)
        if e.op == "and":
            return f"({{ int64_t {t} = {a}; cr_truth({t}) ? ({b}) : {t}; }})"
        return f"({{ int64_t {t} = {a}; cr_truth({t}) ? {t} : ({b}); }})"

    def x_Cond(self, e):
        return f"({self.truth(e.test)} ? {self.ex(e.then)} : {self.ex(e.else_)})"

    def x_Compare(self, e):
        if is_list(e.a.t if isinstance(e.a, o.Op) else None) or is_list(e.b.t if isinstance(e.b, o.Op) else None):
            raise NativeUnsupported("a comparison of collections")
        a, b = self.scalar(e.a), self.scalar(e.b)
        if e.op in ("==", "!="):
            return f"((int64_t)(({a}) {e.op} ({b})))"
        f = {"<": "cr_lt(x, {a}, {b})", ">": "cr_lt(x, {b}, {a})",
             "<=": "!cr_lt(x, {b}, {a})", ">=": "!cr_lt(x, {a}, {b})"}[e.op]
        if e.op in ("<", "<="):
            return f"((int64_t)({f.format(a=a, b=b)}))"
        t1, t2 = self.fresh_c("c"), self.fresh_c("c")  # Python works out the left side first
        return f"({{ int64_t {t1} = {a}; int64_t {t2} = {b}; (int64_t)({f.format(a=t1, b=t2)}); }})"

    def x_CardCompare(self, e):
        return f"((int64_t)(K_ORDER[cr_idx(x, {self.scalar(e.a)}, NC)] {e.op} K_ORDER[cr_idx(x, {self.scalar(e.b)}, NC)]))"

    def x_RankInSuit(self, e):
        t = self.fresh_c("c")
        card = self.scalar(e.card)
        pos = f"cr_need(x, K_RANKPOS[K_SUIT[cr_idx(x, {t}, NC)] * NRANKS + cr_idx(x, {self.scalar(e.rank)}, NRANKS)])"
        order = f"K_ORDER[cr_idx(x, {t}, NC)]"
        a, b = (pos, order) if e.flip else (order, pos)
        if e.flip:  # the position is worked out first, as Python reads the left side first
            return f"({{ int64_t {t} = {card}; int64_t _p{t} = {pos}; (int64_t)(_p{t} {e.op} {order}); }})"
        return f"({{ int64_t {t} = {card}; (int64_t)({a} {e.op} {b}); }})"

    def x_InZone(self, e):
        return self._in(e, f"CR_CARD_ZONE(C, cr_idx(x, {{c}}, NC)) == {self.scalar(e.zone)}")

    def x_InKind(self, e):
        return self._in(e, f"CR_CARD_KIND(C, cr_idx(x, {{c}}, NC)) == {int(e.kind)}")

    def _in(self, e, test: str) -> str:
        t = self.fresh_c("c")
        item = self.scalar(e.item)
        if e.check == "none":
            return f"({{ int64_t {t} = {item}; (int64_t)({test.format(c=t)}); }})"
        return f"({{ int64_t {t} = {item}; (int64_t)({t} != CR_NONE && {test.format(c=t)}); }})"

    def x_In(self, e):
        t = self.fresh_c("c")
        return f"({{ int64_t {t} = {self.scalar(e.item)}; (int64_t)cr_in({self.lst(e.coll)}, {t}); }})"

    def x_Negated(self, e):
        return f"((int64_t)!({self.scalar(e.x)}))"

    def x_Range(self, e):
        return f"cr_range(x, {self.scalar(e.a)}, {self.scalar(e.b)})"

    def x_Concat(self, e):
        return f"cr_concat(x, {self.lst(e.a)}, {self.lst(e.b)})"

    def seq(self, coll) -> str:
        """A collection only read (its length, an end): a zone's cards in place, else the list."""
        if isinstance(coll, o.ZoneCards):
            return f"cr_zone_view(x, S, C, {self.scalar(coll.zone)})"
        return self.lst(coll)

    def length(self, coll) -> str:
        """How long a collection is, a join's parts in place (no list made)."""
        if not isinstance(coll, o.Concat):
            return f"{self.seq(coll)}.n"
        names, decls = self.parts_decl(coll)
        return f"({{ {decls}({' + '.join(f'{d}.n' for d in names)}); }})"

    def x_Len(self, e):
        return f"({self.length(e.coll)})"

    def x_NonEmpty(self, e):
        return f"((int64_t)({self.length(e.coll)} > 0))"

    def x_Empty(self, e):
        return f"((int64_t)({self.length(e.coll)} == 0))"

    def x_End(self, e):
        if isinstance(e.coll, o.ZoneCards):
            t = self.fresh_c("z")
            at = "0" if e.which == "first" else f"{t}.n - 1"
            return f"({{ cr_zview {t} = {self.seq(e.coll)}; {t}.n ? (int64_t){t}.v[{at}] : CR_NONE; }})"
        return f"cr_{e.which}(x, {self.lst(e.coll)})"

    def x_Extreme(self, e):
        return f"cr_extreme(x, {self.lst(e.coll)}, {1 if e.pick == 'max' else 0}, {1 if e.cards else 0})"

    def x_EndN(self, e):
        return f"cr_{e.which}_n(x, {self.lst(e.coll)}, {self.scalar(e.k)})"

    def x_NextSeat(self, e):
        return f"cr_mod(x, cr_add(x, {self.scalar(e.who)}, {int(e.step)}), S->n_players)"

    def x_Random(self, e):
        return f"cr_random(x, S, {self.lst(e.coll)})"

    def x_Shuffled(self, e):
        return f"cr_shuffled(x, S, {self.lst(e.coll)})"

    def x_SeatsAfter(self, e):
        return f"cr_seats_after(x, S, {self.scalar(e.who)})"

    def x_SeatsBefore(self, e):
        return f"cr_seats_before(x, S, {self.scalar(e.who)})"

    def x_SeatOf(self, e):
        return f"cr_seat(x, S, {self.scalar(e.k)})"

    def x_Abs(self, e):
        return f"cr_abs(x, {self.scalar(e.x)})"

    def x_MinMax(self, e):
        return f"cr_{e.fn}(x, {self.scalar(e.a)}, {self.scalar(e.b)})"

    # ---- definitions and aggregates
    def x_Call(self, e):
        if not (e.fn.startswith("D_") or e.fn.startswith("U_")):
            raise NativeUnsupported(f"the generated function {e.fn}")
        fn = self.define_fn(e.fn[2:])
        return f"{fn}(x, S, C{''.join(', ' + self.ex(a) for a in e.args)})"

    def x_TableLookup(self, e):
        return f"{self.define_fn(e.define)}(x, S, C, {self.scalar(e.card)})"

    def x_Split(self, e):
        if len(e.specs) > 8:
            raise NativeUnsupported("a split into more than 8 kinds of group")
        n = len(e.specs)
        t = self.fresh_c("sp")
        parts = [f"cr_split_job {t}; memset(&{t}, 0, sizeof {t}); {t}.nspec = {n}; "
                 f"{t}.score = {self.group_fn(e.score) if e.score else 'NULL'}; "]
        # the group tests whose answers are kept for good (purity.py: they read nothing of the game)
        pure = [j for j, (_, fn, _, args) in enumerate(e.specs) if not args and self.purity.pure_fn(fn)]
        if pure and self.split_sites < MAX_SPLIT_SITES:
            self.split_sites += 1
            parts.append(f"{t}.site = {self.split_sites}; " + "".join(f"{t}.pure[{j}] = 1; " for j in pure))
            if len(pure) == n and (e.score is None or self.purity.pure_fn(e.score)):
                parts.append(f"{t}.whole = 1; ")  # (the whole search's answer depends on its cards alone)
        for j, (count, fn, sizes, args) in enumerate(e.specs):
            if len(args) > 4:
                raise NativeUnsupported("a group test given more than 4 values")
            pred = self.group_fn(fn) if not args else f"(cr_groupfn)(void (*)(void)){self.group_fn(fn)}"
            parts.append(f"{t}.counts[{j}] = cr_need(x, {self.scalar(count)}); {t}.pred[{j}] = {pred}; ")
            if args:
                parts.append(f"{t}.nargs[{j}] = {len(args)}; "
                             + "".join(f"{t}.args[{j}][{i}] = {self.scalar(a)}; " for i, a in enumerate(args)))
            if sizes is None:
                parts.append(f"{t}.any[{j}] = 1; ")
            elif sizes.t == "int":
                parts.append(f"{t}.sizes[{j}] = cr_alloc(x, 1); {t}.sizes[{j}].v[0] = cr_need(x, {self.scalar(sizes)}); "
                             f"{t}.sizes[{j}].n = 1; ")
            else:
                parts.append(f"{t}.sizes[{j}] = {self.lst(sizes)}; ")
        return f"({{ cr_list _c{t} = {self.lst(e.cards)}; {''.join(parts)}cr_split(x, S, C, &{t}, _c{t}); }})"

    def group_fn(self, fname: str) -> str:
        if not (fname.startswith("D_") or fname.startswith("U_")):
            raise NativeUnsupported(f"the group test {fname}")
        return self.define_fn(fname[2:])

    def domain_decl(self, name: str, dom) -> str:
        """A set to loop over, declared as `name` (its .n and .v[i]): a zone's cards read in place
        (nothing moves while an aggregate or the legal moves are worked out), else a list."""
        return f"{'cr_zview' if isinstance(dom, o.ZoneCards) else 'cr_list'} {name} = {self.seq(dom)}"

    def parts(self, dom) -> list:
        """A set's parts, each looped over in place: the sides of a join (a hand and the cards
        laid out, say), not copied into one list first."""
        if isinstance(dom, o.Concat):
            return self.parts(dom.a) + self.parts(dom.b)
        return [dom]

    def parts_decl(self, dom) -> tuple[list[str], str]:
        """The names of a set's parts and their declarations, worked out in order before any
        element is looked at, as Python makes the joined list first (so each fails alike)."""
        names, decls = [], []
        for part in self.parts(dom):
            d = self.fresh_c("d")
            names.append(d)
            decls.append(f"{self.domain_decl(d, part)}; ")
        return names, "".join(decls)

    def each(self, names: list[str], var: str, inner: str, mark: str | None = None, stop: str | None = None) -> str:
        """`inner` for each element of the parts in turn, bound to `var`; with `stop`, a flag
        that `inner` sets before it breaks: the parts after are not looked at either. With
        `mark`, each turn's own collections are let go at the next turn."""
        out = []
        for k, d in enumerate(names):
            i = self.fresh_c("i")
            guard = f"if (!{stop}) " if stop is not None and k else ""
            reset = f"x->top = {mark}; " if mark is not None else ""
            out.append(f"{guard}for (int64_t {i} = 0; {i} < {d}.n; {i}++) {{ {reset}"
                       f"int64_t {var} = {d}.v[{i}]; (void){var}; {inner}}} ")
        return "".join(out)

    def x_AggLoop(self, e):
        if e.agg not in _AGGS:
            raise NativeUnsupported(f"the aggregate {e.agg}")
        var = self.ex(e.var)
        names, head = self.parts_decl(e.domain)
        test = None if e.where is None else self.truth(e.where)
        return self.agg_code(e, var, names, head, test)

    def agg_code(self, e, var: str, names: list, head: str, test: str | None, bits: str | None = None) -> str:
        """An aggregate's loop over the parts `names` declared in `head` (or, with `bits`, over the
        cards of that mask in their bits' order), the elements that pass `test` counted, summed,
        tested or kept as e.agg says."""
        acc, stop = self.fresh_c("r"), self.fresh_c("s")
        mark = self.fresh_c("m")  # each turn's own collections are let go at the next turn
        if bits is not None:
            total, stop = f"cr_m_count({bits})", None

            def loop(inner: str) -> str:
                return (f"int64_t {mark} = x->top; for (int64_t {var}; ({var} = cr_m_pop(C, &{bits})) >= 0; ) "
                        f"{{ x->top = {mark}; {inner}}} ")
        else:
            total = " + ".join(f"{d}.n" for d in names)
            if len(names) > 1:
                total = f"({total})"
            else:
                stop = None
            head += "" if stop is None else f"int {stop} = 0; "

            def loop(inner: str) -> str:
                return f"int64_t {mark} = x->top; " + self.each(names, var, inner, mark, stop)
        brk = "break;" if stop is None else f"{stop} = 1; break;"
        where = f"if (!({test})) continue; " if test is not None else ""
        a = e.agg
        if a in ("any", "no") and test is None:
            return f"({{ {head}(int64_t)({total} {'>' if a == 'any' else '=='} 0); }})"
        if a == "count" and test is None:
            return f"({{ {head}{total}; }})"
        if a == "all":
            return (f"({{ {head}int64_t {acc} = 1; {loop(f'{where}if (!{self.truth(e.body)}) {{ {acc} = 0; {brk} }} ')}"
                    f"{acc}; }})")
        if a in ("any", "no"):  # any(where for ...): the test is the body
            return (f"({{ {head}int64_t {acc} = 0; {loop(f'if ({test or 1}) {{ {acc} = 1; {brk} }} ')}"
                    f"(int64_t)({'' if a == 'any' else '!'}{acc}); }})")
        if a == "count":
            return f"({{ {head}int64_t {acc} = 0; {loop(f'{where}{acc}++; ')}{acc}; }})"
        if a == "sum":
            return f"({{ {head}int64_t {acc} = 0; {loop(f'{where}{acc} = cr_add(x, {acc}, {self.scalar(e.body)}); ')}{acc}; }})"
        if a in ("max", "min"):  # the greatest (least) value; over no element a failure, as Python's _maxof
            got, val = self.fresh_c("g"), self.fresh_c("b")
            better = ">" if a == "max" else "<"
            step = (f"{where}int64_t {val} = {self.scalar(e.body)}; "
                    f"if (!{got} || {val} {better} {acc}) {{ {acc} = {val}; {got} = 1; }} ")
            return (f"({{ {head}int64_t {acc} = 0; int {got} = 0; {loop(step)}"
                    f"if (!{got}) cr_fail(x, CR_E_EMPTY); {acc}; }})")
        collect = f"cr_list {acc} = cr_alloc(x, {total}); {loop(f'{where}{acc}.v[{acc}.n++] = {var}; ')}x->top = {mark}; "
        if a == "those":
            return f"({{ {head}{collect}{acc}; }})"
        # highest, lowest: the first of the best (max and min keep the first they meet)
        cards = 1 if e.t == "card" else 0
        return f"({{ {head}{collect}cr_extreme(x, {acc}, {1 if a == 'highest' else 0}, {cards}); }})"

    def x_Subsets(self, e):
        """An action's legal sets of cards (compiler/runtime.py:_subsets), each as a mask over the
        deck's cards (bit c: card c), in the order of their masks over the domain's distinct cards."""
        if self.p.n_cards > 63:
            raise NativeUnsupported("a set of cards chosen from a deck of more than 63 cards")
        d, c, n, w, t, ms, out, k, mark, pm, dm, i, lo, hi = (self.fresh_c(b) for b in (
            "d", "c", "n", "w", "t", "ms", "o", "k", "m", "pm", "dm", "i", "lo", "hi"))
        var = self.ex(e.var)
        code = [f"({{ {self.domain_decl(d, e.domain)}; "]
        code.append(f"int64_t {t} = {'0' if e.weight is None else self.scalar(e.target)}; ")
        code.append(f"int64_t {lo} = {'CR_NONE' if e.low is None else self.scalar(e.low)}; ")
        code.append(f"int64_t {hi} = {'CR_NONE' if e.high is None else self.scalar(e.high)}; ")
        code.append(f"int64_t {c}[{MAX_SET_CARDS}]; int32_t {n} = 0; "
                    f"for (int64_t {i} = 0; {i} < {d}.n; {i}++) {{ int64_t _v{i} = cr_idx(x, {d}.v[{i}], NC); "
                    f"int32_t _j{i} = 0; while (_j{i} < {n} && {c}[_j{i}] != _v{i}) _j{i}++; if (_j{i} < {n}) continue; "
                    f"if ({n} >= {MAX_SET_CARDS}) cr_fail(x, CR_E_SET); {c}[{n}++] = _v{i}; }} ")
        weights = "NULL"
        if e.weight is not None:
            wv = self.ex(e.wvar)
            code.append(f"int64_t {w}[{MAX_SET_CARDS}]; for (int32_t {i} = 0; {i} < {n}; {i}++) "
                        f"{{ int64_t {wv} = {c}[{i}]; {w}[{i}] = {self.scalar(e.weight)}; }} ")
            weights = w
        # the sets kept first, then the masks tried (let go at the end: only the sets kept stay)
        code.append(f"cr_list {out} = cr_alloc(x, {MAX_SETS}); "
                    f"cr_list {ms} = cr_set_masks(x, {weights}, {n}, {t}, {lo}, {hi}, {MAX_TRIED}); ")
        test = f"if (!{self.truth(e.test)}) continue; " if e.test is not None else ""
        code.append(f"int64_t {mark} = x->top; "
                    f"for (int64_t {k} = 0; {k} < {ms}.n; {k}++) {{ x->top = {mark}; int64_t {pm} = {ms}.v[{k}]; "
                    f"uint64_t {dm} = 0; for (int32_t {i} = 0; {i} < {n}; {i}++) "
                    f"if ({pm} >> {i} & 1) {dm} |= UINT64_C(1) << {c}[{i}]; "
                    f"cr_list {var} = cr_alloc(x, __builtin_popcountll({dm})); "
                    f"for (int64_t {i} = 0; {i} < NC; {i}++) if ({dm} >> {i} & 1) {var}.v[{var}.n++] = {i}; "
                    f"{test}if ({out}.n >= {MAX_SETS}) cr_fail(x, CR_E_SETS); {out}.v[{out}.n++] = (int64_t){dm}; }} "
                    f"x->top = ({out}.v - x->arena) + {out}.n; {out}; }})")
        return "".join(code)
