"""The program's constant masks in C (runtime/unit/masks.c reads them): the tables the compiler's
namespace has for its mask forms (compiler/compiler.py), as rows of MW words, bit b of a row
being the card at bit b (Program.card_bit)."""

from __future__ import annotations


def mask_tables(p, consts: dict) -> list[str]:
    """The program's constant masks, as the compiler's namespace has them (compiler.py: ALLM,
    SUITM, RANKM, ORDM, _order_from's table, ABOVEM, BELOWM, and the constants of the mask forms):
    every card, each suit's, rank's and order's cards, the cards at least k places up their
    suits' rankings, above and below each card, then `consts` (value -> row)."""
    nc = p.n_cards
    mw = max(1, (nc + 63) // 64)
    pos = [b.bit_length() - 1 for b in p.card_bit]
    top = max(p.card_order, default=0)

    def words(cards) -> list[int]:
        w = [0] * mw
        for c in cards:
            w[pos[c] >> 6] |= 1 << (pos[c] & 63)
        return w

    def table(name, rows) -> str:
        flat = [v for row in rows for v in row] or [0]
        return (f"static const uint64_t {name}[] __attribute__((unused)) = {{"
                + ", ".join(f"UINT64_C({v})" for v in flat) + "};")
    n_suits, n_ranks = len(p.ruleset.deck.suits), len(p.ruleset.deck.ranks)
    mask = (1 << 64) - 1
    by_value = sorted(consts, key=consts.get)
    return [
        table("K_MALL", [words(range(nc))]),
        table("K_MSUIT", [words(c for c in range(nc) if p.card_suit[c] == s) for s in range(n_suits)]),
        table("K_MRANK", [words(c for c in range(nc) if p.card_rank[c] == r) for r in range(n_ranks)]),
        table("K_MORD", [words(c for c in range(nc) if p.card_order[c] == k) for k in range(top + 1)]),
        table("K_MFROM", [words(c for c in range(nc) if p.card_order[c] >= k) for k in range(top + 2)]),
        table("K_MABOVE", [words(p.above[c]) for c in range(nc)]),
        table("K_MBELOW", [words(p.below[c]) for c in range(nc)]),
        table("K_MK", [[v >> (64 * i) & mask for i in range(mw)] for v in by_value]),
    ]
