"""The Python emitter of the IR's expression ops, the Python backend's visitor: `py(x)` is the
text of an op, exactly as the compiler wrote it before the IR, so the Python fast path runs the
same code. An op's text is worked out once and kept on it (ops are shared within a program)."""

from __future__ import annotations

from .cse import cse, cse_loop, hoist
from .ir import ops as o
from .ir.reads import unparen
from .ir.visit import OpVisitor
from .program import _CARD_ATTRS


def py(x) -> str:
    """The Python text of an op; any other operand (a generated function's name, a number) as
    Python formats it."""
    if isinstance(x, o.Op):
        text = x._py
        if text is None:
            text = _EMIT.visit(x)
            object.__setattr__(x, "_py", text)
        return text
    return str(x)


def fast(x) -> str:
    """The text of an op with its repeated terms worked out once (cse.py), as the fast path
    writes every expression."""
    return py(cse(x))


def fast_stmt(lead: str, x, pad: str, k: int = 0) -> str:
    """One statement of a generated function, `lead` then x, as the fast path writes it: a mask
    its aggregate loops under first, as a statement of its own (`_hm<k> = ...`, cse.hoist), then
    x with its repeated terms worked out once."""
    pre, x = hoist(x, k)
    return "".join(f"{pad}{name} = {fast(m)}\n" for name, m in pre) + f"{pad}{lead}{fast(x)}\n"


def _args(xs) -> str:
    return "".join(", " + py(x) for x in xs)


def again(x) -> str:
    """An operand an op's text writes a second time: a term kept the first time is named, not
    worked out again (compiler/cse.py)."""
    return x.name if isinstance(x, o.Keep) else py(x)


def _in_zone(x, test: str) -> str:
    if x.check == "none":
        c, pre = py(unparen(x.item)), ""
    elif x.check == "test":
        item = unparen(x.item)
        c, pre = again(item), f"{py(item)} is not None and "
    else:
        c, pre = x.temp, f"({x.temp} := {py(x.item)}) is not None and "
    return f"({pre}{test.format(c)})"


# the integer operations C checks for leaving 64 bits (runtime.py: _add, _sub, _mul; C: cr_add ...)
_CHECKED = {"+": "_add", "-": "_sub", "*": "_mul"}


def paired_lines(x) -> list[str]:
    """The body of a Paired op's function, line by line (its fallback is x.plain), each
    expression with its repeated terms worked out once."""
    var = py(x.names[-1])
    held = ", ".join([var, *[f"_h{k}" for k in range(len(x.terms))]])
    domain, own, terms = cse_loop(x.domains[-1], tuple(x.own), tuple(x.terms))
    inner = (f"[({', '.join([var, *map(py, terms)])},) for {var} in {py(domain)}"
             + "".join(f" if {py(src)}" for src in own) + "]")
    lines, pad = ["_inner = None", "_out = []"], ""
    for i, name in enumerate(x.names[:-1]):
        lines.append(f"{pad}for {py(name)} in {fast(x.domains[i])}:")
        pad += "    "
        for src in x.tests[i]:
            lines.append(f"{pad}if not ({fast(src)}): continue")
    lines += [f"{pad}if _inner is None:", f"{pad}    _inner = {inner}", f"{pad}for ({held},) in _inner:"]
    test = "True"
    if x.mixed:
        chain = x.mixed[-1]
        for src in reversed(x.mixed[:-1]):
            chain = o.Logic("and", src, chain, t="bool")
        test = fast(chain)
    lines.append(f"{pad}    if {test}: _out.append(({', '.join(map(py, x.names))},))")
    lines.append("return list(dict.fromkeys(_out))")
    return lines


def paired_def(x) -> str:
    body = "".join(f"        {line}\n" for line in paired_lines(x))
    return f"def {x.fn}(st):\n    try:\n{body}    except Exception:\n{fast_stmt('return ', x.plain, '        ')}"


def guarded_def(x) -> str:
    """A Guarded op's function: the mask form, the loop form when it meets a none."""
    return (f"def {x.fn}(st{_args(x.free)}):\n"
            f"    try:\n"
            f"{fast_stmt('return ', x.fast, '        ', 0)}"
            f"    except (TypeError, KeyError, IndexError, AttributeError):\n"
            f"{fast_stmt('return ', x.loop, '        ', 1)}")


class PyEmitter(OpVisitor):
    """One method per op class: its Python text (`py` keeps it on the op)."""

    # ---- values
    def visit_Lit(self, x): return repr(x.value)
    def visit_Global(self, x): return x.name
    def visit_Seats(self, x): return "st.seats"
    def visit_NPlayers(self, x): return "st.n_players"
    def visit_Slot(self, x): return f"st.slots[{x.n}]"
    def visit_Local(self, x): return x.name
    def visit_Paren(self, x): return f"({py(x.x)})"
    def visit_Opt(self, x): return f"st.opts[{x.i}]"
    def visit_PlayerVar(self, x): return f"st.slots[{x.n}][{py(x.who)}]"
    def visit_ListOf(self, x): return "(" + "".join(f"{py(i)}, " for i in x.items) + ")"

    # ---- zones
    def visit_ZoneBase(self, x): return f"st.zbase[{x.kind}]"
    def visit_KindCards(self, x): return f"_kind_cards(st, {x.kind})"
    def visit_ZoneAt(self, x): return f"_zone_at(st, {x.kind}, {py(x.i)})"
    def visit_PlayerZone(self, x): return f"(st.zbase[{x.kind}] + {py(x.who)})"
    def visit_ZoneCards(self, x): return f"st.zones[{py(x.zone)}]"
    def visit_ZoneIndex(self, x): return f"_zindex(st, {py(x.zone)})"
    def visit_ZoneOwner(self, x): return f"st.zowner[{py(x.zone)}]"
    def visit_ZonesOf(self, x): return f"_zones_of(st, {x.kind})"
    def visit_KindTops(self, x): return f"_kind_tops(st, {x.kind})"
    def visit_TopSlice(self, x): return f"st.zones[{py(x.zone)}][-1:]"

    # ---- cards
    def visit_CardAttr(self, x): return _CARD_ATTRS[x.attr][0].format(py(x.card))
    def visit_CardValue(self, x): return f"VALUE_{x.name}[{py(x.card)}]"
    def visit_Neighbours(self, x): return f"{x.side.upper()}[{py(x.card)}]"
    def visit_CardsOf(self, x): return f"SUITCARDS[{py(x.suit)}]"
    def visit_CardOf(self, x): return f"CARDOF[({py(x.rank)}, {py(x.suit)})]"

    # ---- numbers and tests
    def visit_Arith(self, x):
        if x.op in _CHECKED:
            return f"{_CHECKED[x.op]}({py(x.a)}, {py(x.b)})"
        return f"({py(x.a)} {x.op} {py(x.b)})"

    def visit_Power(self, x): return f"_pow({py(x.a)}, {py(x.b)})"
    def visit_Neg(self, x): return f"(-{py(x.x)})"
    def visit_Not(self, x): return f"(not {py(x.x)})"
    def visit_Logic(self, x): return f"({py(x.a)} {x.op} {py(x.b)})"
    def visit_Cond(self, x): return f"({py(x.then)} if {py(x.test)} else {py(x.else_)})"
    def visit_Compare(self, x): return f"({py(x.a)} {x.op} {py(x.b)})"
    def visit_CardCompare(self, x): return f"(ORDER[{py(x.a)}] {x.op} ORDER[{py(x.b)}])"

    def visit_RankInSuit(self, x):
        card, second = py(x.card), again(x.card)
        if x.flip:
            return f"(RANKPOS[SUIT[{card}]][{py(x.rank)}] {x.op} ORDER[{second}])"
        return f"(ORDER[{card}] {x.op} RANKPOS[SUIT[{second}]][{py(x.rank)}])"

    def visit_InZone(self, x): return _in_zone(x, "st.card_zone[{}] == " + py(x.zone))
    def visit_InKind(self, x): return _in_zone(x, "st.card_kind[{}] == " + py(x.kind))
    def visit_In(self, x): return f"({py(x.item)} in {py(x.coll)})"
    def visit_Negated(self, x): return f"(not {py(x.x)})"
    def visit_Range(self, x): return f"_range({py(x.a)}, {py(x.b)})"
    def visit_Concat(self, x): return f"[*{py(x.a)}, *{py(x.b)}]"
    def visit_Len(self, x): return f"len({py(x.coll)})"
    def visit_NonEmpty(self, x): return f"(len({py(x.coll)}) > 0)"
    def visit_Empty(self, x): return f"(len({py(x.coll)}) == 0)"
    def visit_End(self, x): return f"_{x.which}({py(x.coll)})"

    def visit_Extreme(self, x):
        return f"{x.pick}({py(x.coll)}{', key=CARDKEY.__getitem__' if x.cards else ''}, default=None)"

    def visit_EndN(self, x): return f"_{x.which}_n({py(x.coll)}, {py(x.k)})"
    def visit_NextSeat(self, x): return f"(({py(x.who)} {'+' if x.step > 0 else '-'} 1) % st.n_players)"
    def visit_Random(self, x): return f"_random(st, {py(x.coll)})"
    def visit_Shuffled(self, x): return f"_shuffled(st, {py(x.coll)})"
    def visit_SeatOf(self, x): return f"_seat(st, {py(x.k)})"
    def visit_SeatsAfter(self, x): return f"_seats_after(st, {py(x.who)})"
    def visit_SeatsBefore(self, x): return f"_seats_before(st, {py(x.who)})"
    def visit_Abs(self, x): return f"abs({py(x.x)})"
    def visit_MinMax(self, x): return f"{x.fn}({py(x.a)}, {py(x.b)})"

    # ---- definitions and aggregates
    def visit_Call(self, x): return f"{x.fn}(st{_args(x.args)})"
    def visit_TableLookup(self, x): return f"TAB_{x.define}[{py(x.card)}]"

    def visit_AggLoop(self, x):
        v, dom = py(x.var), py(x.domain)
        where = py(x.where) if x.where is not None else None
        cond = f" if {where}" if where else ""
        a = x.agg
        if a == "all":
            return f"all({py(x.body)} for {v} in {dom}{cond})"
        if a == "sum":
            return f"_fit(sum({py(x.body)} for {v} in {dom}{cond}))"
        if a in ("max", "min"):
            return f"_{a}of({py(x.body)} for {v} in {dom}{cond})"
        if a == "any":
            return f"any({where} for {v} in {dom})" if where else f"(len({dom}) > 0)"
        if a == "no":
            return f"(not any({where} for {v} in {dom}))" if where else f"(len({dom}) == 0)"
        if a == "count":
            return f"sum(1 for {v} in {dom}{cond})" if where else f"len({dom})"
        if a == "those":
            return f"[{v} for {v} in {dom}{cond}]"
        pick = "max" if a == "highest" else "min"
        key = ", key=CARDKEY.__getitem__" if x.t == "card" else ""
        return f"{pick}(({v} for {v} in {dom}{cond}){key}, default=None)"

    def visit_Split(self, x):
        def sizes(sz):
            if sz is None:
                return "None"
            return f"({py(sz)},)" if sz.t == "int" else py(sz)
        given = any(args for *_, args in x.specs)  # then every spec has its values, () for none
        specs = ", ".join(f"({py(count)}, {fn}, {sizes(sz)}"
                          + (f", ({''.join(f'{py(a)}, ' for a in args)}))" if given else ")")
                          for count, fn, sz, args in x.specs)
        score = py(x.score) if x.score else "None"
        return f"_split(st, {py(x.cards)}, ({specs},), {score}, {x.site}, {x.faces})"

    def visit_Guarded(self, x): return f"{x.fn}(st{_args(x.free)})"

    # ---- the program's own helpers, and what the Python fast path adds around a choice's moves
    def visit_SetCall(self, x): return f"{x.fn}(st, {py(x.cand)}{_args(x.free)})"
    def visit_Paired(self, x): return f"{x.fn}(st)"

    def visit_Combinations(self, x):
        loops = " ".join(f"for {py(n)} in {py(d)}" + "".join(f" if {py(t)}" for t in tests)
                         for n, d, tests in zip(x.names, x.domains, x.tests))
        return f"[({', '.join(map(py, x.names))},) {loops}]"

    def visit_Subsets(self, x):
        test = "None" if x.test is None else f"(lambda {py(x.var)}: {py(x.test)})"
        weight = "None" if x.weight is None else f"(lambda {py(x.wvar)}: {py(x.weight)})"
        target = "None" if x.target is None else py(x.target)
        low = "None" if x.low is None else py(x.low)
        high = "None" if x.high is None else py(x.high)
        return f"_subsets(st, {py(x.domain)}, {test}, {weight}, {target}, {low}, {high}, {x.site})"

    def visit_Dedupe(self, x): return f"list(dict.fromkeys({py(x.coll)}))"
    def visit_EachSeat(self, x): return f"[{py(x.x)} for _vp in st.seats]"
    def visit_LoopMore(self, x): return f"st.slots[{x.idx}] < len(st.slots[{x.lst}])"

    # ---- masks
    def visit_AllMask(self, x): return "ALLM"
    def visit_ZoneMask(self, x): return f"st.zmask[{py(x.zone)}]"
    def visit_ZoneMaskOf(self, x): return f"_zmask(st, {py(x.zone)})"
    def visit_KindMask(self, x): return f"st.kmask[{py(x.kind)}]"
    def visit_OwnerMask(self, x): return f"st.omask[{py(x.who)}]"
    def visit_UpMask(self, x): return "st.upmask"
    def visit_SuitMask(self, x): return f"SUITM.get({py(x.suit)}, 0)"
    def visit_RankMask(self, x): return f"RANKM.get({py(x.rank)}, 0)"
    def visit_OrderMask(self, x): return f"ORDM.get({py(x.order)}, 0)"
    def visit_NeighbourMask(self, x): return f"{x.side.upper()}M[{py(x.card)}]"
    def visit_CardMask(self, x): return f"BITD.get({py(x.card)}, 0)"

    def visit_OrderFrom(self, x):
        return f"_order_from({py(x.k)})" if not x.step else f"_order_from(({py(x.k)}) + {x.step})"

    def visit_MaskBin(self, x): return f"({py(x.a)} {x.op} {py(x.b)})"
    def visit_MaskNot(self, x): return f"(ALLM ^ {py(x.x)})"
    def visit_MaskUnion(self, x): return "(" + " | ".join(map(py, x.parts)) + ")"
    def visit_MaskChain(self, x): return py(x.base) + "".join(f" & {py(m)}" for m in x.filters)
    def visit_PopCount(self, x): return f"{py(x.x)}.bit_count()"
    def visit_AddAll(self, x): return "(" + " + ".join(map(py, x.items)) + ")"
    def visit_MaskCard(self, x): return f"_{x.which}({py(x.x)})"

    def visit_MaskLoop(self, x):
        v = py(x.var)
        each = f"for _m in ({py(x.mask)},) for {v} in {py(x.domain)} if BIT[{v}] & _m"
        cond = " and ".join(map(py, x.tests))
        a = x.agg
        if a == "all":
            return f"all({py(x.body)} {each}{' and ' + cond if cond else ''})"
        if a == "sum":
            return f"_fit(sum({py(x.body)} {each}{' and ' + cond if cond else ''}))"
        if a == "any":
            return f"any({cond} {each})"
        if a == "count":
            return f"sum(1 {each} and {cond})"
        pick = "max" if a == "highest" else "min"
        return f"{pick}(({v} {each} and {cond}), key=CARDKEY.__getitem__, default=None)"

    # ---- terms worked out once (cse.py)
    def visit_CardKind(self, x): return f"st.card_kind[{py(x.card)}]"
    def visit_Keep(self, x): return f"({x.name} := {py(x.x)})"
    def visit_Kept(self, x): return x.name

    def visit_BitsIn(self, x):
        v = py(x.var)
        return f"[{v} for _m in ({py(x.mask)},) for {v} in {py(x.domain)} if BIT[{v}] & _m]"


_EMIT = PyEmitter()


def set_def(x: o.SetTest) -> str:
    """A set test's function (ops.SetTest): the cards of `cand` that pass, kept per state and set
    of cards."""
    name, mask, memo = x.name, fast(x.mask), x.memo
    owner = None if x.owner is None else py(x.owner)
    keep = None if x.keep is None else f"_none_{x.keep}"
    args = _args(x.free)
    head = (f"def {name}(st, cand{args}):\n"
            f"    key = ({name!r}, cand{args})\n"
            f"    r = {memo}.get(key)\n"
            f"    if r is None:\n")
    if keep is None:
        return head + f"        r = {memo}[key] = {mask}\n    return r\n"
    if owner is not None:
        work = (f"        r = 0\n"
                f"        for {owner}, _om in st.omask.items():\n"
                f"            _p = cand & _om\n"
                f"            if _p:\n"
                f"                r |= {keep}({mask}, _p)\n")
    else:
        work = f"        r = {keep}({mask}, cand)\n"
    return head + work + f"        {memo}[key] = r\n    return r\n"
