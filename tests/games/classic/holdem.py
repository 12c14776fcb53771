"""What the two Texas Hold'em test files share (limit-holdem.cards and its no-limit variant,
against OpenSpiel's `universal_poker`): OpenSpiel's card c is rank c // 4 (2 up to Ace) of suit
c % 4, and a deal is set up with the cards in OpenSpiel's order on top of the pack."""

from __future__ import annotations

from interpreter.engine import apply, legal_moves, position, public_vars

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


def moves_of(s) -> dict[str, int]:
    """Our legal moves, by name, and the seat that makes them."""
    return {str(m): m.player for m in legal_moves(s)}


def play(s, *names: str) -> None:
    for name in names:
        apply(s, next(m for m in legal_moves(s) if str(m) == name))


def chips(s) -> tuple[int, int]:
    c = public_vars(s)["chips"]
    return c["P1"], c["P2"]


def pot(s) -> int:
    return public_vars(s)["pot"]


def random_openspiel_game(game, rng, policy):
    """Random chance and moves by `policy`; the state, the cards dealt (in OpenSpiel's order) and
    each decision as (the player, the legal actions, the action taken)."""
    s = game.new_initial_state()
    cards, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice(s.legal_actions())
            cards.append(a)
        else:
            legal = s.legal_actions()
            a = policy(rng, legal)
            decisions.append((s.current_player(), legal, a))
        s.apply_action(a)
    return s, cards, decisions


def replayed(s, meaning: dict, decisions):
    """OpenSpiel's decisions made in our game `s` (dealt as OpenSpiel dealt): at each, the same
    player and the same legal actions (ours by `meaning`); our game ends where theirs did."""
    for player, legal, action in decisions:
        assert not s.finished
        ours = moves_of(s)
        assert set(ours.values()) == {player}
        assert sorted(meaning[m] for m in ours) == legal
        play(s, next(m for m in ours if meaning[m] == action))
    assert s.finished
    return s
