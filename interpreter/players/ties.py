"""How the players break ties between moves of equal value, the greedy player and the search
alike (and the search in C, runtime/unit/search.c's sr_first): a move whose argument is a card
before one with another argument before one with none, and among cards the lowest first, so
the high cards are kept."""

from __future__ import annotations

_order_of: tuple = (None, {})  # the program last asked about and its cards' places (one tuple: threads share it)


def card_order(program) -> dict[str, int]:
    """Each card's name and its place in its suit's ranking."""
    global _order_of
    got = _order_of
    if got[0] is not program:
        got = _order_of = (program, {name: program.card_order[i] for i, name in enumerate(program.card_names)})
    return got[1]


def tie_key(m, order: dict[str, int]) -> tuple[int, int]:
    """The move's rank among equals, higher preferred: (-kind, -place), the kind 0 for a card,
    1 for another argument, 2 for none."""
    if m.arg is None:
        return (-2, 0)
    if m.arg in order:
        return (0, -order[m.arg])
    return (-1, 0)
