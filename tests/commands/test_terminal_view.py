"""What a person at the terminal sees (`cardrules play --human`): a shared family of piles is
listed pile by pile, not as "build of others"; one's own pile that others may see too (cards
won) is shown in full, not shortened to a count; the menu of moves is in the rules' order, not
the alphabet's (`spot2` before `spot10`, `ask P2 9` before `ask P2 10`), and so are the browser
table's buttons."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves, new_game
from interpreter.playing import Human

ROOT = Path(__file__).resolve().parents[2]


def shown(state, seat: int, capsys) -> str:
    Human(seat).show(state)
    return capsys.readouterr().out


def test_a_shared_family_of_piles_is_listed_pile_by_pile(capsys):
    s = new_game(load_ruleset(ROOT / "rulesets" / "mughal" / "udvasa.cards"), 1, seed=1)
    out = shown(s, 0, capsys)
    assert "of others" not in out
    for i in range(1, 9):
        assert f"\nbuild({i}): " in out and f"\nwork({i}): " in out


def test_ones_own_public_pile_is_shown_in_full(capsys):
    from interpreter.engine import observe
    from interpreter.engine.state import seat_name
    s = new_game(load_ruleset(ROOT / "rulesets" / "classic" / "hearts.cards"), 4, seed=3)
    while not s.finished:
        apply(s, legal_moves(s)[0])
    piles = observe(s, 0)["zones"]["won"]
    seat = max(range(4), key=lambda i: len(piles[seat_name(i)]["cards"]))
    won = piles[seat_name(seat)]["cards"]
    assert len(won) > 6
    out = shown(s, seat, capsys)
    line = next(ln for ln in out.splitlines() if ln.startswith("your won:"))
    assert line == f"your won: {len(won)} cards"
    after = out.split(line + "\n", 1)[1].splitlines()
    by_suit = [ln for ln in after if ln.startswith("  ") and not ln.startswith("  won of others")]
    listed = " ".join(ln.split(": ", 1)[1] for ln in by_suit).split()
    assert len(listed) == len(won)  # every card, by suit, under the count


# twelve places in a row, one card each, and a player choosing one and a player and a rank
PLACES = """game places "Places"
players 2
deck d:
    suits Red
    ranks 1..12
zone stock shared hidden
zone spot[12] shared hidden
zone hand per player owner
phase play "Play":
    rule lay "Lay":
        for each z in zones(spot):
            move top(stock) to z
    rule pick "Pick":
        choose by seat(1):
            action flip z in zones(spot) where count(z) > 0:
                reveal top(z)
            action ask q in players, r in ranks where q != seat(1):
                reveal top(spot(1))
"""


def test_the_menu_lists_places_and_numbers_in_the_rules_order():
    from interpreter import loads_ruleset
    s = new_game(loads_ruleset(PLACES, "places.cards"), 2, seed=1)
    menu = [str(m) for m in Human(0).numbered(s)]
    assert menu[:12] == [f"flip spot{i}" for i in range(1, 13)]
    assert menu[12:] == [f"ask P2 {r}" for r in range(1, 13)]


def test_the_browser_tables_buttons_keep_the_same_order():
    from interpreter import loads_ruleset
    from interpreter.web.views import Faces, moves_view
    s = new_game(loads_ruleset(PLACES, "places.cards"), 2, seed=1)
    _, groups = moves_view(s, 0, set(), Faces(s.program))
    assert [b["move"] for b in groups[0]["buttons"]] == [f"flip spot{i}" for i in range(1, 13)]
    assert [b["move"] for b in groups[1]["buttons"]] == [f"ask P2 {r}" for r in range(1, 13)]


def test_a_hint_told_to_a_seat_is_shown_on_its_cards_and_values_are_spelt_as_the_language_does(capsys):
    """Hanabi: after a hint about colour, the seat told sees which of its own (unseen) cards are
    of that colour, by their place in the hand; the seat that gave it is not shown it as its own."""
    s = new_game(load_ruleset(ROOT / "rulesets" / "classic" / "hanabi.cards"), 2, seed=1)
    hint = next(m for m in legal_moves(s) if m.action == "colour")
    apply(s, hint)
    colour = str(hint.arg).split()[-1]
    told = shown(s, 1, capsys)
    line = next(ln for ln in told.splitlines() if ln.startswith("your hand:"))
    assert "(told: card " in line and f" {colour}" in line, line
    places = [int(x.split()[0]) for x in line.split("(told: ")[1].rstrip(")").split("card ")[1:]]
    hand = [c for c in s.zones[s.zbase[s.program.zone_index["hand"]] + 1]]
    assert places == [i for i, c in enumerate(hand, 1) if s.program.ruleset.deck.suits[s.program.card_suit[c]] == colour]
    other = shown(s, 0, capsys)
    assert "(told:" not in other.split("your hand:")[1].splitlines()[0]
    assert "True" not in told and "False" not in told and "{" not in told


def test_anothers_public_pile_is_listed_and_what_arrived_since_the_last_decision_is_told(capsys):
    """A new user's Piquet listed another seat's discards shown face up as "P2 7 cards" once
    there were more than six; their Old Maid never said which card was drawn blind, nor their
    Koi-Koi which card a rule turned up from the stock. Another seat's public pile is listed up
    to twelve cards, and each decision begins with what came into view (and what left one's own
    places) since the last one."""
    from interpreter.engine import observe
    from interpreter.engine.state import seat_name
    s = new_game(load_ruleset(ROOT / "rulesets" / "classic" / "hearts.cards"), 4, seed=3)
    me = Human(0)
    me.show(s)
    first = capsys.readouterr().out
    assert "since your last move" not in first
    while not s.finished and len(s.history) < 32:  # (P2 has won 12 cards then)
        apply(s, legal_moves(s)[0])
    me.show(s)
    out = capsys.readouterr().out
    hand = observe(s, 0)["zones"]["hand"][seat_name(0)]["cards"]
    line = next(ln for ln in out.splitlines() if ln.startswith("since your last move: "))
    assert "your hand " in line and all(f"-{c}" not in line for c in hand)
    gone = [w[1:] for w in line.split("your hand ", 1)[1].split(";")[0].split() if w.startswith("-")]
    assert gone and not set(gone) & set(hand)  # the cards it played are told as gone
    piles = observe(s, 0)["zones"]["won"]
    big = [who for who, part in piles.items() if who != "P1" and 6 < len(part["cards"]) <= 12]
    assert big == ["P2"]
    for who in big:  # another seat's tricks, face up: listed, not counted
        assert f"{who} {' '.join(piles[who]['cards'])}" in out


# each seat turns its cards up onto a pile of its own, and the rules read that pile's top card
PILES = """game piles "Piles"
players 2
deck d:
    suits Red, Blue
    ranks 1..6
zone stock shared hidden
zone hand per player hidden
zone up per player public
winner most turned
define turned(p: player) = count(up(p))
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 6 from stock to each hand
    while count(hand(seat(2))) > 0:
        for each player p:
            rule turn "Turn":
                choose by p:
                    action flip "Turn your top card up.":
                        move top(hand(p)) to up(p)
                    action keep when count(up(p)) > 0 and top(up(p)).rank == 1 "Keep.":
                        pass
"""


def test_ones_own_pile_whose_top_the_rules_read_is_shown_as_it_lies(capsys):
    """Sorted, a pile of one's own that the rules read the top of (Snap's face-up pile) hid
    which card is on top; a pile of cards won (Hearts, above) stays sorted by suit."""
    from interpreter import loads_ruleset
    s = new_game(loads_ruleset(PILES, "piles.cards"), 2, seed=5)
    for _ in range(6):
        apply(s, next(m for m in legal_moves(s) if m.action == "flip"))
    from interpreter.engine import observe
    cards = observe(s, 0)["zones"]["up"]["P1"]["cards"]
    assert len(cards) == 3 and cards != sorted(cards, key=lambda n: (n.split("-")[1], int(n.split("-")[0])))
    out = shown(s, 0, capsys)
    assert f"your up: 3 cards, bottom to top: {' '.join(cards)}\n" in out, out


def test_a_long_row_of_places_lists_those_that_hold_cards(capsys):
    """A new user's Accordion: 52 places in a row, most of them empty as the game goes on; the
    view listed every empty place as 'pile(37): -'."""
    from interpreter import loads_ruleset
    row = """game row "Row"
players 1
deck d:
    suits Red
    ranks 1..5
zone stock shared hidden
zone spot[20] shared public
phase play "Play":
    rule lay "Lay":
        for each k in 1..5:
            move top(stock) to spot(k * 3)
    rule pick "Pick":
        choose by seat(1):
            action flip z in zones(spot) where count(z) > 0:
                pass
"""
    s = new_game(loads_ruleset(row, "row.cards"), 1, seed=1)
    out = shown(s, 0, capsys)
    listed = [ln for ln in out.splitlines() if ln.startswith("spot(")]
    assert [ln.split(":")[0] for ln in listed] == [f"spot({k * 3})" for k in range(1, 6)], out
    assert "spot: 15 of 20 empty, not listed" in out, out
