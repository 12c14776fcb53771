"""What the two Texas Hold'em test files share (limit-holdem.cards and its no-limit variant,
against OpenSpiel's `universal_poker`): OpenSpiel's card c is rank c // 4 (2 up to Ace) of suit
c % 4, and a deal is set up with the cards in OpenSpiel's order on top of the pack (the replay
of OpenSpiel's decisions is poker.replayed)."""

from __future__ import annotations

from interpreter.engine import position

RANKS = [str(n) for n in range(2, 11)] + ["Jack", "Queen", "King", "Ace"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
SHORT = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def card(c: int) -> str:
    """OpenSpiel's card c as our card's name."""
    return f"{RANKS[c // 4]}-{SUITS[c % 4]}"


def short(text: str) -> list[str]:
    """'Ah Td 2c' as our card names."""
    return [f"{SHORT.get(t[0], t[0])}-{next(s for s in SUITS if s[0].lower() == t[1])}" for t in text.split()]


def index(name: str) -> int:
    """Our card's name as OpenSpiel's card."""
    rank, suit = name.split("-")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def dealt(rs, *cards: str):
    """A game of `rs` after the blinds and the deal, the pack in a known order: the cards, by
    name, in OpenSpiel's order (P1's two, P2's two, then the board's five) are on top of the pack."""
    return position(rs, 2, "deal", zones={"stock": list(reversed(cards))}, shuffle=False)

