"""The C emitter of the compiler's mask forms (compiler/masks.py: ops.Guarded, ZoneMask ... MaskLoop,
SetCall through Program.set_ir), op by op, mixed into the module emitter beside expr.py's Expr: a
mask is a cr_mask (runtime/unit/masks.c), each op failing in C where its Python text (pyemit.py)
raises, so a guarded aggregate falls back to its loop form where Python's does (x_Guarded)."""

from __future__ import annotations

from ...compiler.ir import ops as o
from ...compiler.ir.reads import replace, unparen, walk as walk_ops
from .expr import NativeUnsupported, is_list


class MaskForms:
    """The x_ methods of the mask forms, for the module emitter (emit.py: Module), which gives
    Expr's (ex, scalar, truth, agg_code, parts_decl, each, fresh_c, local) and `p`, `guard_fns`,
    `set_fn`, `mask_const`, `define_protos`, `define_src`."""

    def x_Guarded(self, e):
        """The mask form, falling back to the loop form exactly where Python's does (pyemit.py:
        guarded_def): when working the mask form out meets a none or an index out of range.
        Written in place when it cannot fail, or when it can fail only on the values its loop's set
        is worked out from (checked first: the loop would fail on them alike) or on cards it reads
        whatever happens (tested first: the loop form where one is none); else a function of its
        own that tries it (a setjmp of its own, x->jp), the loop form after such a failure."""
        if not getattr(self, "use_masks", True) or is_list(e.t):
            return self.ex(e.loop)
        fn = self.guard_fns.get(e.fn)
        if fn is not None:
            return f"{fn}(x, S, C{''.join(', ' + self.local(v.name) for v in e.free)})"
        try:  # a mask form C cannot read (a set test handed many values): the loop form
            fast = self.fast_form(e.fast)
        except NativeUnsupported:
            return self.ex(e.loop)
        safe = not self.may_fail(e.fast, frozenset())
        plan = None if safe else self.guard_plan(e)
        if (safe or plan is not None) and any(isinstance(y, o.SetCall) for y in walk_ops(e.fast)):
            # a set test works out, for every card of a hand at once, what C's loop asks of the few
            # cards its earlier tests let through, each answer kept per card: C runs the loop form
            # (the same value: the mask form cannot fail here). Measured on whole games of the
            # bundled ruleset with set tests: 0.86x with them, 1.01x without (issue 39, step 4)
            return self.masked_loop(e) or self.ex(e.loop)
        if safe:
            return fast
        if plan is not None:
            checks, cards = plan
            head = "".join(f"(void){c}; " for c in checks)
            if not cards:
                return f"({{ {head}{fast}; }})"
            temps = {v: o.Local(self.fresh_c("gc"), t="card") for v in cards}
            form = replace(e.fast, lambda y: temps.get(unparen(y)))
            head += "".join(f"int64_t {self.local(t.name)} = {self.scalar(v)}; " for v, t in temps.items())
            valid = " && ".join(f"{self.local(t.name)} >= 0 && {self.local(t.name)} < NC" for t in temps.values())
            return f"({{ {head}({valid}) ? {self.fast_form(form)} : {self.ex(e.loop)}; }})"
        fn = self.guard_fns[e.fn] = f"g{len(self.guard_fns)}"
        self.emit_guarded(fn, e, fast)
        return f"{fn}(x, S, C{''.join(', ' + self.local(v.name) for v in e.free)})"

    def masked_loop(self, e) -> str | None:
        """The loop form over a card's neighbours (or a suit's cards), visiting only the cards that
        pass the tests its mask form says as masks before the first set test: the mask form is
        `domain & m1 & ... & mk` (one mask per part of the loop's `and`, in order), so the loop
        skips just the cards those parts turn down, which cannot fail, and asks the rest of the
        test of the others, in the set's order. None for any other form."""
        loop, fast = e.loop, unparen(e.fast)
        if not isinstance(loop, o.AggLoop) or loop.agg not in ("any", "no", "count", "highest", "lowest"):
            return None
        if isinstance(fast, o.AddAll) and len(fast.items) == 1 and isinstance(unparen(fast.items[0]), o.PopCount):
            fast = unparen(fast.items[0])
        chain = unparen(fast.a if isinstance(fast, o.Compare) else fast.x if isinstance(fast, (o.MaskCard, o.PopCount))
                        else None)
        dom = unparen(loop.domain)
        if not isinstance(chain, o.MaskChain) or loop.where is None or self.bit_ordered(dom) is None:
            return None
        parts = and_parts(loop.where)
        if len(parts) != len(chain.filters):
            return None
        k = next((i for i, m in enumerate(chain.filters) if any(isinstance(y, o.SetCall) for y in walk_ops(m))), 0)
        sure = frozenset({unparen(dom.card)} if isinstance(dom, o.Neighbours) else ())
        if k == 0 or self.may_fail(chain.filters[:k], sure):
            return None
        var, b = self.ex(loop.var), self.fresh_c("mk")
        head = f"cr_mask {b} = {self.bit_ordered(dom)}; " + "".join(
            f"{b} = cr_m_and({b}, {self.mask(m)}); " for m in chain.filters[:k])
        return self.agg_code(loop, var, [], head, " && ".join(self.truth(t) for t in parts[k:]), bits=b)

    def emit_guarded(self, fn: str, e, fast: str) -> None:
        types = local_types((e.fast, e.loop))
        args = "".join(f", {'cr_list' if is_list(types.get(v.name)) else 'int64_t'} {self.local(v.name)}" for v in e.free)
        proto = f"static int64_t {fn}(cr_ctx *x, cr_state *S, crt_cards *C{args})"
        unused = "".join(f" (void){self.local(v.name)};" for v in e.free)
        loop = self.ex(e.loop)
        self.define_protos.append(proto + ";")
        self.define_src.append(
            f"{proto} {{\n    (void)S; (void)C;{unused}\n"
            f"    jmp_buf j, *up = x->jp;\n    int64_t top = x->top;\n    x->jp = &j;\n"
            f"    if (!setjmp(j)) {{\n        int64_t r = {fast};\n        x->jp = up;\n        return r;\n    }}\n"
            f"    x->jp = up;\n    cr_m_caught(x);\n    x->top = top;\n    return {loop};\n}}\n")

    # ---- the mask forms (compiler/masks.py), op by op: a mask is a cr_mask (runtime/unit/masks.c),
    # each op failing where its Python text (pyemit.py) raises, so x_Guarded falls back alike
    def mask(self, e) -> str:
        """C for an op whose value is a set of cards as a mask (a cr_mask)."""
        if isinstance(e, o.Paren):
            return self.mask(e.x)
        if isinstance(e, o.Lit) and e.value == 0 and not isinstance(e.value, bool):
            return "cr_m_none()"
        if isinstance(e, o.Cond):
            return f"({self.truth(e.test)} ? {self.mask(e.then)} : {self.mask(e.else_)})"
        if isinstance(e, o.Global):
            return f"cr_m_table(K_MK, {self.mask_const(self.p.namespace[e.name])})"
        if isinstance(e, o.Local):
            return self.local(e.name)
        if not isinstance(e, o.Op) or e.t != "mask":
            raise NativeUnsupported(f"a mask form's part that is no mask ({type(e).__name__})")
        return self.ex(e)

    def fast_form(self, e) -> str:
        """A guarded aggregate's mask form, one value: `mask != 0` as a test of the mask."""
        if isinstance(e, o.Compare) and getattr(e.a, "t", None) == "mask" and e.op in ("==", "!="):
            return f"((int64_t){'!' if e.op == '==' else ''}cr_m_some({self.mask(e.a)}))"
        return self.scalar(e)

    def x_AllMask(self, e):
        return "cr_m_all()"

    def x_ZoneMask(self, e):
        return f"cr_m_zone(x, S, C, {self.scalar(e.zone)})"

    def x_ZoneMaskOf(self, e):
        return f"cr_m_zone_of(x, S, C, {self.scalar(e.zone)})"

    def x_KindMask(self, e):
        return f"cr_m_kind(C, {int(e.kind)})"

    def x_OwnerMask(self, e):
        return f"cr_m_owner_of(x, S, C, {self.scalar(e.who)})"

    def x_UpMask(self, e):
        return "cr_m_up(C)"

    def x_SuitMask(self, e):  # SUITM.get(s, 0): anything that is no suit has no cards
        return f"cr_m_table_or_none(K_MSUIT, {self.scalar(e.suit)}, NSUITS)"

    def x_RankMask(self, e):
        return f"cr_m_table_or_none(K_MRANK, {self.scalar(e.rank)}, NRANKS)"

    def x_OrderMask(self, e):
        return f"cr_m_table_or_none(K_MORD, {self.scalar(e.order)}, NORD)"

    def x_NeighbourMask(self, e):
        return f"cr_m_table(K_M{e.side.upper()}, cr_idx(x, {self.scalar(e.card)}, NC))"

    def x_CardMask(self, e):  # BITD.get(c, 0)
        return f"cr_m_card({self.scalar(e.card)})"

    def x_OrderFrom(self, e):
        k = self.scalar(e.k)
        return f"cr_m_order_from(x, {f'cr_add(x, {k}, {int(e.step)})' if e.step else k})"

    def masks_in_order(self, fn: str, parts: list) -> str:
        """fn over masks worked out left to right, as Python's operators work them out."""
        if len(parts) == 1:
            return self.mask(parts[0])
        names = [self.fresh_c("k") for _ in parts]
        decls = "".join(f"cr_mask {n} = {self.mask(m)}; " for n, m in zip(names, parts))
        out = names[0]
        for n in names[1:]:
            out = f"{fn}({out}, {n})"
        return f"({{ {decls}{out}; }})"

    def x_MaskBin(self, e):
        return self.masks_in_order("cr_m_and" if e.op == "&" else "cr_m_or", [e.a, e.b])

    def x_MaskNot(self, e):
        return f"cr_m_not({self.mask(e.x)})"

    def x_MaskUnion(self, e):
        return self.masks_in_order("cr_m_or", list(e.parts))

    def x_MaskChain(self, e):
        return self.masks_in_order("cr_m_and", [e.base, *e.filters])

    def x_PopCount(self, e):
        return f"cr_m_count({self.mask(e.x)})"

    def x_AddAll(self, e):  # counts of cards: no sum of them leaves 64 bits
        names = [self.fresh_c("n") for _ in e.items]
        decls = "".join(f"int64_t {n} = {self.scalar(i)}; " for n, i in zip(names, e.items))
        return f"({{ {decls}{' + '.join(names)}; }})"

    def x_MaskCard(self, e):
        return f"cr_m_{'high' if e.which == 'hi' else 'low'}(C, {self.mask(e.x)})"

    def x_SetCall(self, e):
        fn = self.set_fn(e.fn)
        return f"{fn}(x, S, C, {self.mask(e.cand)}{''.join(', ' + self.scalar(v) for v in e.free)})"

    def x_MaskLoop(self, e):
        """The aggregate over its set in order, each card let through by its bit in the mask (worked
        out first, as Python's generator does), then by the tests no mask reads. A set whose
        cards come in their bits' order (a card's neighbours, a suit's cards) is visited through
        the mask's bits alone."""
        var = self.ex(e.var)
        m = self.fresh_c("mk")
        head = f"cr_mask {m} = {self.mask(e.mask)}; "
        tests = [self.truth(t) for t in e.tests]
        dom = e.domain
        while isinstance(dom, o.Paren):
            dom = dom.x
        table = self.bit_ordered(dom)
        if table is not None:
            head += f"{m} = cr_m_and({m}, {table}); "
            return self.agg_code(e, var, [], head, " && ".join(tests) or None, bits=m)
        names, decls = self.parts_decl(e.domain)
        return self.agg_code(e, var, names, head + decls, " && ".join([f"cr_m_has(x, {m}, {var})", *tests]))

    def bit_ordered(self, dom) -> str | None:
        """The mask of a set whose cards come in their bits' order (a card's neighbours, a suit's
        cards), worked out as the list would be (failing alike); None for any other set."""
        if isinstance(dom, o.Neighbours) and in_bit_order(self.p, getattr(self.p, dom.side)):
            return f"cr_m_table(K_M{dom.side.upper()}, cr_idx(x, {self.scalar(dom.card)}, NC))"
        if isinstance(dom, o.CardsOf) and in_bit_order(self.p, self.p.suit_cards):
            return f"cr_m_table(K_MSUIT, cr_idx(x, {self.scalar(dom.suit)}, NSUITS))"
        return None

    def x_BitsIn(self, e):
        var, m, acc = self.ex(e.var), self.fresh_c("mk"), self.fresh_c("r")
        names, decls = self.parts_decl(e.domain)
        total = " + ".join(f"{d}.n" for d in names)
        keep = f"if (cr_m_has(x, {m}, {var})) {acc}.v[{acc}.n++] = {var}; "
        return (f"({{ cr_mask {m} = {self.mask(e.mask)}; {decls}cr_list {acc} = cr_alloc(x, {total}); "
                f"{self.each(names, var, keep)}{acc}; }})")


    def may_fail(self, e, sure: frozenset) -> bool:
        """Whether working a mask form out may fail, `sure` holding the values known to be a card
        or a zone there (x_Guarded: the loop's set, checked first)."""
        if isinstance(e, tuple):
            return any(self.may_fail(v, sure) for v in e)
        if not isinstance(e, o.Op) or unparen(e) in sure:
            return False
        if isinstance(e, o.Compare):
            return e.op not in ("==", "!=") or self.may_fail((e.a, e.b), sure)
        if isinstance(e, o.CardAttr) and e.attr in _CARD_READS and unparen(e.card) in sure:
            return False
        if isinstance(e, o.NeighbourMask) and unparen(e.card) in sure:
            return False
        if isinstance(e, o.ZoneMask) and unparen(e.zone) in sure:
            return False
        if isinstance(e, o.OwnerMask):  # a card's owner is a seat or none
            w = unparen(e.who)
            return not (w in sure or isinstance(w, o.CardAttr) and w.attr == "owner" and unparen(w.card) in sure)
        if isinstance(e, o.OrderFrom):  # a card's place in its suit's ranking is a number
            k = unparen(e.k)
            return not (isinstance(k, o.CardAttr) and k.attr == "order" and unparen(k.card) in sure
                        or isinstance(k, o.Lit) and type(k.value) is int)
        if isinstance(e, o.CardOf):  # a card of the deck named by its rank and suit
            r, su = unparen(e.rank), unparen(e.suit)
            return not (isinstance(r, o.Lit) and isinstance(su, o.Lit) and (r.value, su.value) in self.p.card_of)
        if isinstance(e, o.ZoneCards):  # a shared kind's zone is one
            return not isinstance(unparen(e.zone), o.ZoneBase)
        if isinstance(e, o.End):  # the first or last element, none when there is none
            return self.may_fail(e.coll, sure)
        if isinstance(e, o.SetCall):  # its test asked owner by owner: each a seat or none
            test = self.p.set_ir.get(e.fn)
            inner = frozenset() if test is None or test.owner is None else frozenset({unparen(test.owner)})
            return test is None or self.may_fail((e.cand, e.free), sure) or self.may_fail(test.mask, inner)
        if not isinstance(e, _SAFE):
            return True
        return self.may_fail(tuple(e.operands()), sure)

    def guard_plan(self, e) -> tuple[list[str], list] | None:
        """How a mask form that may fail is written in place, or None: (the checks of its loop's
        set, the cards to test first). The set's values (the card of above(c), a zone) when the
        mask form reads each whatever happens: a bad one makes it fail, and the loop form then fails
        working the set out, first thing, so checking them first fails alike. Cards the mask form
        reads whatever happens, worked out by what cannot fail (a variable, the first card of a
        pile): one that is none sends it to its loop form, as the failure it meets would. Past
        both, the mask form must be unable to fail."""
        read = list(dict.fromkeys(forced_reads(e.fast)))
        leaves = set_leaves(e.loop.domain) if isinstance(e.loop, o.AggLoop) else None
        sure, checks = set(), []
        if leaves and all(v in {r for _, r in read} for _, v in leaves):
            size = {"card": "NC", "suit": "NSUITS"}
            for k, v in leaves:  # a card read on the way (hand(c.owner)) is one too
                sure |= {v} | {unparen(x.card) for x in walk_ops(v) if isinstance(x, o.CardAttr)}
                checks.append(f"cr_zone(x, S, {self.scalar(v)})" if k == "zone" else
                              f"cr_idx(x, {self.scalar(v)}, {size[k]})")
        cards = [v for k, v in read if k == "card" and v not in sure and not self.may_fail(v, frozenset())]
        if self.may_fail(e.fast, frozenset(sure | set(cards))):
            return None
        return checks, cards


# ops a mask form is made of whose C cannot fail when their operands cannot
_SAFE = (o.AllMask, o.KindMask, o.UpMask, o.Lit, o.Global, o.Opt, o.NPlayers, o.ZoneBase, o.Local, o.Slot,
         o.SuitMask, o.RankMask, o.OrderMask, o.CardMask, o.MaskBin, o.MaskNot, o.MaskUnion, o.MaskChain, o.Paren,
         o.PopCount, o.AddAll, o.MaskCard, o.Cond, o.Not)
# what a card's attribute is read from a card that is one: these never fail
_CARD_READS = ("suit", "rank", "order", "owner", "zone", "face_up", "played_by")
# what the set of a loop form may be worked out from, checked first (no chance, no definitions)
_PLAIN = (o.Slot, o.Local, o.Lit, o.Opt, o.NPlayers, o.ZoneBase, o.PlayerZone, o.CardAttr, o.Paren)


def local_types(xs) -> dict:
    """The types of the names ops read (a guarded aggregate's free names are handed in untyped)."""
    return {x.name: x.t for x in walk_ops(xs) if isinstance(x, o.Local) and x.t is not None}


def in_bit_order(p, rows) -> bool:
    """Whether each of a table's lists of cards (above, below, a suit's) is in its cards' bit order."""
    pos = [b.bit_length() - 1 for b in p.card_bit]
    return all(all(pos[a] < pos[b] for a, b in zip(row, row[1:])) for row in rows)


def and_parts(e) -> list:
    """`a and b and c` -> [a, b, c], as the compiler's mask pass splits a test (masks.py: conjuncts)."""
    e = unparen(e)
    if isinstance(e, o.Logic) and e.op == "and":
        return and_parts(e.a) + and_parts(e.b)
    return [e]


def set_leaves(dom) -> list | None:
    """What a loop's set is worked out from and can fail on, in order ((kind, value): the card of
    above(c), the suit of cards_of(s), a zone): None when it is some other set, or a value may
    fail otherwise than by being no card, suit or zone."""
    dom = unparen(dom)
    if isinstance(dom, o.Concat):
        a, b = set_leaves(dom.a), set_leaves(dom.b)
        return None if a is None or b is None else a + b
    if isinstance(dom, (o.KindCards, o.Global)):
        return []
    pick = {o.Neighbours: ("card", "card"), o.CardsOf: ("suit", "suit"), o.ZoneCards: ("zone", "zone")}.get(type(dom))
    if pick is None:
        return None
    v = unparen(getattr(dom, pick[1]))
    if not all(isinstance(x, _PLAIN) for x in walk_ops(v)):
        return None
    return [(pick[0], v)]


def forced_reads(e):
    """The cards and zones a mask form reads whatever happens (not under a branch), as (kind,
    value): those it fails on when they are none, or no card or zone."""
    e = unparen(e)
    if isinstance(e, (o.CardAttr, o.NeighbourMask)) and (not isinstance(e, o.CardAttr) or e.attr in _CARD_READS):
        yield "card", unparen(e.card)
    if isinstance(e, o.ZoneMask):
        yield "zone", unparen(e.zone)
    if isinstance(e, o.Cond):
        yield from forced_reads(e.test)
        return
    if isinstance(e, o.Op):
        for v in e.operands():
            if isinstance(v, o.Op):
                yield from forced_reads(v)
