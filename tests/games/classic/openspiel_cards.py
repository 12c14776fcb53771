"""OpenSpiel's card strings as our cards' names, as the classic games' tests write their
positions: 'QS' or 'Qs' -> 'Queen-Spades', 'TH' -> '10-Hearts', '5C' -> '5-Clubs'."""

from __future__ import annotations

RANK = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def c(short: str) -> str:
    """One card: its rank's letter or number, then its suit's letter (either case)."""
    return f"{RANK.get(short[0], short[0])}-{SUIT[short[1].upper()]}"


def cs(text: str) -> list[str]:
    """Cards written with spaces between them."""
    return [c(x) for x in text.split()]
