"""Aggregates over cards as bit masks in C, decided on the IR (the C side of compiler/masks.py).

A card's bit is its place in the order `highest` and `lowest` use (Program.card_bit, the
cards' runtime's bit order), so the highest card of a set is its highest bit. The cards'
runtime keeps a mask per zone, kind of zone, owner and of the cards face up; the module adds a
mask per suit, rank, and of the cards above and below each card in its suit's ranking.

`all`, `any`, `no`, `count`, `highest` and `lowest` over a set of cards whose test (and, for
`all`, whose condition) is made only of tests that cannot fail for a card (where it lies, whose
it is, its suit or rank against a value fixed for the aggregate, face up, being a given card,
and their `and`, `or`, `not`) become a few word operations. The values they compare with are
ones that cannot fail to be worked out (a literal, an option, a variable, a name bound to a card,
the suit, rank or owner of such a card), so the mask form fails exactly where the loop would: never.
Anything else keeps the loop (expr.py). The word operations are C in runtime/unit/masks.c."""

from __future__ import annotations

from ...compiler.ir import ops as o
from ...compiler.ir.reads import walk

_SAFE_ATTRS = ("suit", "rank", "owner")


class Masks:
    """Mixed into the module emitter (emit.py); `x_AggLoop` in expr.py asks `mask_aggregate`."""

    def mask_aggregate(self, e) -> str | None:
        if e.agg not in ("all", "any", "no", "count", "highest", "lowest") or e.t == "cards":
            return None
        if not isinstance(e.var, o.Local) or (e.agg in ("highest", "lowest") and e.t != "card"):
            return None
        parts = self.domain_masks(e.domain)
        if parts is None:
            return None
        var = e.var.name
        # cards known to be cards here: the loops' own, and one the set was read from (above(c))
        self.sure = {e.domain.card.name} if isinstance(e.domain, o.Neighbours) and isinstance(e.domain.card, o.Local) \
            else set()
        self.sure |= self.cards_read(e.domain)
        where = "cr_m_all()" if e.where is None else self.pred_mask(e.where, var, {})
        if where is None:
            return None
        if e.agg == "count":
            return "(" + " + ".join(f"cr_m_count(cr_m_and({p}, {where}))" for p in parts) + ")"
        dom = parts[0]
        for p in parts[1:]:
            dom = f"cr_m_or({dom}, {p})"
        if e.agg in ("any", "no"):
            return f"((int64_t)({'' if e.agg == 'any' else '!'}cr_m_some(cr_m_and({dom}, {where}))))"
        if e.agg == "all":
            body = self.pred_mask(e.body, var, {})
            if body is None:
                return None
            return f"((int64_t)!cr_m_some(cr_m_and(cr_m_and({dom}, {where}), cr_m_not({body}))))"
        return f"cr_m_{'high' if e.agg == 'highest' else 'low'}(C, cr_m_and({dom}, {where}))"

    def bit_loop(self, e) -> tuple[str, list] | None:
        """An aggregate that keeps its loop, over a set whose cards come in the order of their
        bits (a card's neighbours, a suit's cards): (the mask of the cards its test can let
        through, the rest of the test), when the test begins with parts a mask can say (`held(d)
        and d.owner == c.owner and ...`). The loop then visits those cards alone, in the set's
        order: the rest of the test and the body see the same cards in the same order as the
        loop over the set, which skips the others before anything that can fail or draw."""
        if e.where is None or not isinstance(e.var, o.Local):
            return None
        dom = e.domain
        while isinstance(dom, o.Paren):
            dom = dom.x
        if isinstance(dom, o.Neighbours) and _in_bit_order(self.p, getattr(self.p, dom.side)):
            part = f"cr_m_table(K_M{dom.side.upper()}, cr_idx(x, {self.ex(dom.card)}, NC))"
            self.sure = {dom.card.name} if isinstance(dom.card, o.Local) else set()
        elif isinstance(dom, o.CardsOf) and _in_bit_order(self.p, self.p.suit_cards):
            part = f"cr_m_table(K_MSUIT, cr_idx(x, {self.ex(dom.suit)}, NSUITS))"
            self.sure = set()
        else:
            return None
        tests = _conjuncts(e.where)
        masks = []
        for t in tests:
            m = self.pred_mask(t, e.var.name, {})
            if m is None:
                break
            masks.append(m)
        if not masks:
            return None
        for m in masks:
            part = f"cr_m_and({part}, {m})"
        return part, tests[len(masks):]

    # ---- the set: the masks of its parts (each card in one part at most, as a zone holds a card once)
    def domain_masks(self, e) -> list[str] | None:
        if isinstance(e, o.Paren):
            return self.domain_masks(e.x)
        if isinstance(e, o.ZoneCards):  # the zone worked out first, as the loop's set is: it fails alike
            z = self.safe_value(e.zone, {})
            return [f"cr_m_zone(x, S, C, {self.ex(e.zone) if z is None else z})"]
        if isinstance(e, o.KindCards):
            return [f"cr_m_kind(C, {int(e.kind)})"]
        if isinstance(e, o.Global) and e.name == "ALLCARDS":
            return ["cr_m_all()"]
        if isinstance(e, o.Neighbours):  # worked out first, as the loop's set is: it fails alike
            return [f"cr_m_table(K_M{e.side.upper()}, cr_idx(x, {self.ex(e.card)}, NC))"]
        if isinstance(e, o.CardsOf):
            return [f"cr_m_table(K_MSUIT, cr_idx(x, {self.ex(e.suit)}, NSUITS))"]
        if isinstance(e, o.Concat):
            a, b = self.domain_masks(e.a), self.domain_masks(e.b)
            if a is None or b is None:
                return None
            return a + b
        return None

    # ---- a test of the card `var` as the mask of the cards that pass it
    def pred_mask(self, e, var: str, env: dict) -> str | None:
        if isinstance(e, o.Paren):
            return self.pred_mask(e.x, var, env)
        if isinstance(e, o.Logic):
            a, b = self.pred_mask(e.a, var, env), self.pred_mask(e.b, var, env)
            if a is None or b is None:
                return None
            return f"cr_m_{'and' if e.op == 'and' else 'or'}({a}, {b})"
        if isinstance(e, (o.Not, o.Negated)):
            a = self.pred_mask(e.x, var, env)
            return None if a is None else f"cr_m_not({a})"
        if isinstance(e, o.InZone) and self.is_var(e.item, var, env):
            z = self.safe_value(e.zone, env)
            return None if z is None else f"cr_m_zone_or_none(C, S, {z})"
        if isinstance(e, o.InKind) and self.is_var(e.item, var, env):
            return f"cr_m_kind(C, {int(e.kind)})"
        if isinstance(e, o.CardAttr) and e.attr == "face_up" and self.is_var(e.card, var, env):
            return "cr_m_up(C)"
        if isinstance(e, o.Compare) and e.op in ("==", "!="):
            m = self.compare_mask(e.a, e.b, var, env)
            if m is None:
                m = self.compare_mask(e.b, e.a, var, env)
            if m is None:
                return None
            return m if e.op == "==" else f"cr_m_not({m})"
        if isinstance(e, o.Call) and e.fn[:2] in ("D_", "U_") and e.fn[2:] in self.p.def_ir:
            params, body, t = self.p.def_ir[e.fn[2:]]
            if t != "bool" or len(params) != len(e.args):
                return None
            inner = {}
            for prm, a in zip(params, e.args):
                inner[prm.name] = (a, env)
            return self.pred_mask(body, var, inner)
        return None

    def compare_mask(self, side, other, var: str, env: dict) -> str | None:
        """`side == other`, side a feature of the card `var`, other a value fixed for the aggregate."""
        if self.is_var(side, var, env):
            c = self.safe_card(other, env)
            return None if c is None else f"cr_m_card({c})"
        if isinstance(side, o.CardAttr) and side.attr in ("suit", "rank", "owner") and self.is_var(side.card, var, env):
            v = self.safe_value(other, env)
            if v is None:
                return None
            if side.attr == "owner":
                return f"cr_m_owner(C, S, {v})"
            table, n = ("K_MSUIT", "NSUITS") if side.attr == "suit" else ("K_MRANK", "NRANKS")
            return f"cr_m_table_or_none({table}, {v}, {n})"
        return None

    # ---- values that cannot fail to be worked out
    def resolve(self, e, env: dict):
        """A parameter of an inlined definition stands for its argument (read in the caller's terms)."""
        while True:
            if isinstance(e, o.Paren):
                e = e.x
            elif isinstance(e, o.Local) and e.name in env:
                e, env = env[e.name]
            else:
                return e, env

    def is_var(self, e, var: str, env: dict) -> bool:
        e, env = self.resolve(e, env)
        return isinstance(e, o.Local) and e.name == var and not env

    def safe_value(self, e, env: dict) -> str | None:
        e, env = self.resolve(e, env)
        if env:  # an argument that is itself a parameter of another inlined call: not followed
            return None
        if isinstance(e, o.Lit):
            return self.ex(e) if e.value is None or isinstance(e.value, int) else None
        if isinstance(e, (o.Opt, o.NPlayers, o.ZoneBase)) or (isinstance(e, o.Slot) and e.t not in (
                "cards", "players", "ints", "suits", "ranks", "zones", "zonekind")):
            return self.ex(e)
        if isinstance(e, o.Local) and e.t not in ("cards", "players", "ints", "suits", "ranks", "zones", "zonekind"):
            return self.ex(e)
        if isinstance(e, o.PlayerZone) and self.sure_local(e.who):  # a seat plus a player who may be none: not
            return self.ex(e)
        if isinstance(e, o.CardAttr) and e.attr in _SAFE_ATTRS and self.safe_card(e.card, env) is not None:
            return self.ex(e)
        return None

    def cards_read(self, e) -> set:
        """The names of cards whose suit, rank or owner a set's zone reads (hand(c.owner)): the set
        fails when one is none, so past it each is a card."""
        if isinstance(e, o.Concat):
            return self.cards_read(e.a) | self.cards_read(e.b)
        if not isinstance(e, o.ZoneCards):
            return set()
        return {op.card.name for op in walk(e.zone)
                if isinstance(op, o.CardAttr) and op.attr in _SAFE_ATTRS and isinstance(op.card, o.Local)}

    def safe_card(self, e, env: dict) -> str | None:
        """A card that is never none here: one an aggregate or a loop over a set is at, or the
        card the aggregate's set was read from (above(c): c is a card, or the set failed)."""
        e, env = self.resolve(e, env)
        if not env and isinstance(e, o.Local) and e.t == "card" and self.sure_local(e):
            return self.ex(e)
        return None

    def sure_local(self, e) -> bool:
        """A name that is never none: an aggregate's or a set's element (`_v_...`), or a card
        known to be one here."""
        return isinstance(e, o.Local) and (e.name.startswith("_v_") or e.name in getattr(self, "sure", ()))


def _conjuncts(e) -> list:
    """`a and b and c` -> [a, b, c], as `and` works them out: left to right, until one is false."""
    while isinstance(e, o.Paren):
        e = e.x
    if isinstance(e, o.Logic) and e.op == "and":
        return _conjuncts(e.a) + _conjuncts(e.b)
    return [e]


def _in_bit_order(p, rows) -> bool:
    """Whether each of a table's lists of cards (above, below, a suit's) is in its cards' bit order."""
    pos = [b.bit_length() - 1 for b in p.card_bit]
    return all(all(pos[a] < pos[b] for a, b in zip(row, row[1:])) for row in rows)


def mask_tables(p) -> list[str]:
    """The module's constant masks: every card, each suit's, each rank's, above and below each card."""
    nc = p.n_cards
    mw = max(1, (nc + 63) // 64)
    pos = [b.bit_length() - 1 for b in p.card_bit]

    def words(cards) -> list[int]:
        w = [0] * mw
        for c in cards:
            w[pos[c] >> 6] |= 1 << (pos[c] & 63)
        return w

    def table(name, rows) -> str:
        flat = [v for row in rows for v in words(row)] or [0]
        return (f"static const uint64_t {name}[] __attribute__((unused)) = {{"
                + ", ".join(f"UINT64_C({v})" for v in flat) + "};")
    n_suits, n_ranks = len(p.ruleset.deck.suits), len(p.ruleset.deck.ranks)
    return [
        f"#define MW {mw}",
        table("K_MALL", [range(nc)]),
        table("K_MSUIT", [[c for c in range(nc) if p.card_suit[c] == s] for s in range(n_suits)]),
        table("K_MRANK", [[c for c in range(nc) if p.card_rank[c] == r] for r in range(n_ranks)]),
        table("K_MABOVE", [p.above[c] for c in range(nc)]),
        table("K_MBELOW", [p.below[c] for c in range(nc)]),
    ]
