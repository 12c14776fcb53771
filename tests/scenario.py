"""What every game's rule-by-rule scenario tests say: the legal moves of a position, who decides
it under which rule with exactly which moves, and a line of moves played."""

from __future__ import annotations

from interpreter.engine import apply, legal_moves, moves_for


def legal(s, seat: int | None = None) -> set[str]:
    """The legal moves now (of one seat, when given), as the language writes them."""
    return {str(m) for m in (legal_moves(s) if seat is None else moves_for(s, seat))}


def moves_of(s) -> dict[str, int]:
    """The legal moves now, as the language writes them, each with the seat that makes it."""
    return {str(m): m.player for m in legal_moves(s)}


def cards_of(s) -> set[str]:
    """The cards the legal moves name (each move's last word)."""
    return {str(m).split()[-1] for m in legal_moves(s)}


def at(s, seat: int, rule: str, moves: set[str]) -> None:
    """Assert who decides, under which rule, and the exact legal moves."""
    assert not s.finished
    assert (s.actor, s.rule, legal(s)) == (seat, rule, moves)


def play(s, *moves: str):
    """Play the moves (each as the language writes it) in turn; the state."""
    for m in moves:
        apply(s, m)
    return s
