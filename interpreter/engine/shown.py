"""What a move shows each seat. Its player sees it whole; another seat sees it whole unless it
was made in secret, or it moved a card it names from a place that seat could not see into
another it cannot see (a card laid face down in Cheat, a card handed to one neighbour): then
that seat sees that the move was made, not the card. A card a move names without moving it is an announcement (a called ace),
and one that lands face up or in view is seen anyway. The terminal, the browser table, the
adapters' logs and the players' memory of what a seat has seen (truths.py) all read moves so."""

from __future__ import annotations

from ..language.graph import sees

_NAMES: dict[int, tuple] = {}


def named_cards(program, arg) -> tuple[int, ...]:
    """The cards a move's value names (`7-Hearts`, `2-Red 3-Red`), as card numbers."""
    if arg is None:
        return ()
    hit = _NAMES.get(id(program))
    if hit is None or hit[0] is not program:
        hit = _NAMES[id(program)] = (program, {n: c for c, n in enumerate(program.card_names)}, {})
    _, index, memo = hit
    key = str(arg)
    out = memo.get(key)
    if out is None:
        out = memo[key] = tuple(index[t] for t in key.split() if t in index)
    return out


def places(s, cards) -> tuple[tuple[int, bool], ...]:
    """Each card's zone and whether it lies face up, now (a game in C read where it lies)."""
    if not cards:
        return ()
    if s.native is not None:
        return tuple(s.native.card_places(cards))
    return tuple((s.card_zone[c], bool(s.known[c])) for c in cards)


def shown(s, player: int, cards, before, after, secret: bool) -> list[bool]:
    """For each seat of game s, whether it sees in full a move of `player` naming `cards`, which
    lay at `before` and lie at `after` (places(...) before and after the move): a card it could see before or after it, or one the
    move did not move, does not hide the move."""
    zones, zkind, zowner = s.program.zones, s.zkind, s.zowner
    out = []
    for seat in range(s.n_players):
        if seat == player:
            out.append(True)
        elif secret:
            out.append(False)
        else:
            out.append(all(b[0] == a[0] or a[1] or b[1] or sees(zones[zkind[a[0]]].visibility, zowner[a[0]], seat)
                           or sees(zones[zkind[b[0]]].visibility, zowner[b[0]], seat) for b, a in zip(before, after)))
    return out


def unseen_text(move, n_cards: int) -> str:
    """A move as a seat that does not see its cards reads it: `lay a card you cannot see`."""
    what = "a card" if n_cards == 1 else f"{n_cards} cards"
    return f"{move.action.replace('_', ' ')} {what} you cannot see"
