"""What a move shows each seat. Its player sees it whole; another seat sees it whole unless it
was made in secret, or it moved a card it names from a place that seat could not see into
another it cannot see (a card laid face down in Cheat, a card handed to one neighbour), never
showing it face up or in view of all on the way: then that seat sees that the move was made,
not the card. (A card played to a trick that the rules gather face down as the trick ends passed
through everyone's view: it was seen.) A card a move names without moving it is
an announcement (a called ace), and one that lay face up, or lands face up or in view, is seen
anyway. The terminal, the browser table, the adapters' logs and the players' memory of what a
seat has seen (truths.py) all read moves so."""

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


def places(s, cards, during: bool = False) -> list[int]:
    """Each card's place now, as zone * 2 + 1 when it lies face up (a game in C read in its
    memory, its view not brought up to date). `during`, asked after a move: + 1 also when the card
    lay face up, or in view of all, at some moment of the move (a card played to a trick that the
    rules then gathered face down was seen by everyone)."""
    if not cards:
        return []
    if s.native is not None:
        return s.native.card_places(cards, during)
    zone, known = s.card_zone, s.known
    if during:
        flash = s.flash
        return [zone[c] << 1 | bool(known[c] or flash >> c & 1) for c in cards]
    return [zone[c] << 1 | bool(known[c]) for c in cards]


class Sight:
    """Who sees each zone of one program's games at one table size, as masks of seats: what the
    adapters ask at every move that names a card, so kept ready."""

    def __init__(self, program, zkind, zowner, players: int):
        zones = program.zones
        self.program = program
        self.all = (1 << players) - 1
        self.players = players
        self.zone = [sum(1 << q for q in range(players) if sees(zones[k].visibility, zowner[z], q))
                     for z, k in enumerate(zkind)]

    def unseen_by(self, player: int, before, after) -> int:
        """The seats (a mask) that do not see whole a move of `player` after which the cards it
        names lie at `after`, having lain at `before` (places(...))."""
        out, zone, full = 0, self.zone, self.all
        for b, a in zip(before, after):
            if a == b or (a | b) & 1:  # (not moved, or face up before or after)
                continue
            seen = zone[a >> 1] | zone[b >> 1]
            if seen != full:
                out |= full & ~seen
        return out & ~(1 << player)

    def shown(self, player: int, before, after, secret: bool) -> list[bool]:
        """For each seat, whether it sees the move whole (a move made in secret: only its player)."""
        if secret:
            return [q == player for q in range(self.players)]
        hidden = self.unseen_by(player, before, after)
        return [not hidden >> q & 1 for q in range(self.players)]


_SIGHTS: dict[tuple, Sight] = {}


def sight_of(s) -> Sight:
    key = (id(s.program), s.n_players)
    hit = _SIGHTS.get(key)
    if hit is None or hit.program is not s.program:
        hit = _SIGHTS[key] = Sight(s.program, s.zkind, s.zowner, s.n_players)
    return hit


def shown(s, player: int, cards, before, after, secret: bool) -> list[bool]:
    """For each seat of game s, whether it sees in full a move of `player` naming `cards`, which
    lay at `before` and lie at `after` (places(...) before and after the move): a card it could
    see before or after it, or one the move did not move, does not hide the move."""
    return sight_of(s).shown(player, before, after, secret)


def unseen_text(move, n_cards: int) -> str:
    """A move as a seat that does not see its cards reads it: `lay a card you cannot see`."""
    what = "a card" if n_cards == 1 else f"{n_cards} cards"
    return f"{move.action.replace('_', ' ')} {what} you cannot see"
