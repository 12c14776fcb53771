"""Who sees which cards: a zone everyone sees but its owner (`others`), and choosing a card one
cannot see by its place (`at`), so that neither the view nor the legal moves tell it."""

from __future__ import annotations

import random

from interpreter import Move, apply, legal_moves, loads_ruleset
from interpreter.engine import cards_in, determinise, evaluate, observe, position


FACING = """game facing "Facing"
players 3
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player others "hand held facing the table"
zone pile shared public
var turn: player = seat(1)
define points(p: player) = count(hand(p))
winner fewest points
phase deal "Deal" then play:
    shuffle stock
    deal 2 from stock to each hand
phase play "Play":
    rule drop "Drop":
        choose by turn:
            action drop "Drop your oldest card.":
                move first(hand(turn)) to pile
"""


def test_a_zone_seen_by_everyone_but_its_owner():
    rs = loads_ruleset(FACING, "facing.cards")
    hands = {0: ["1-Red", "2-Red"], 1: ["3-Red", "4-Red"], 2: ["1-Blue", "2-Blue"]}
    s = position(rs, 3, "play", zones={"hand": hands})
    mine = observe(s, 0)["zones"]["hand"]
    assert mine["P1"] == {"count": 2, "known": []}  # one's own hand: a count
    assert mine["P2"] == {"cards": hands[1]} and mine["P3"] == {"cards": hands[2]}  # the others': seen
    assert observe(s, 1)["zones"]["hand"]["P1"] == {"cards": hands[0]}
    for k in range(8):  # P1 cannot know their own cards nor the stock; the others' hands stay
        t = determinise(s, 0, random.Random(k))
        assert cards_in(t, "hand", 1) == hands[1] and cards_in(t, "hand", 2) == hands[2]
        assert observe(t, 0) == observe(s, 0)
    assert {c for k in range(20) for c in cards_in(determinise(s, 0, random.Random(k)), "hand", 0)} - set(hands[0])
    # the card played goes face up to the pile, and the count of the hand follows
    t = apply(s, legal_moves(s)[0])
    assert observe(t, 1)["zones"]["pile"] == {"cards": ["1-Red"]} and observe(t, 0)["zones"]["hand"]["P1"]["count"] == 1


def test_choosing_an_unseen_card_by_its_place():
    src = FACING.replace('''            action drop "Drop your oldest card.":
                move first(hand(turn)) to pile''', '''            action drop i in 1..count(hand(turn)) "Drop a card by its place.":
                move at(hand(turn), i) to pile''')
    rs = loads_ruleset(src, "facing.cards")
    hands = {0: ["1-Red", "2-Red", "3-Blue"], 1: ["3-Red", "4-Red"], 2: ["1-Blue", "2-Blue"]}
    s = position(rs, 3, "play", zones={"hand": hands})
    assert [str(m) for m in legal_moves(s)] == ["drop 1", "drop 2", "drop 3"]  # places: nothing of the cards
    other = position(rs, 3, "play", zones={"hand": {0: ["4-Blue", "1-Red", "2-Red"], 1: hands[1], 2: hands[2]}})
    assert legal_moves(other) == legal_moves(s) and observe(other, 0) == observe(s, 0)
    t = apply(s, Move(0, "drop", "2"))
    assert cards_in(t, "pile") == ["2-Red"] and cards_in(t, "hand", 0) == ["1-Red", "3-Blue"]
    # at(...) past the end is none; counted from 1 at the bottom
    rs2 = loads_ruleset(src + "define nth(p: player, i: int) = at(hand(p), i)\n", "facing.cards")
    s2 = position(rs2, 3, "play", zones={"hand": hands})
    assert [evaluate(s2, "nth", 0, i, returns="card") for i in (0, 1, 3, 4)] == [None, "1-Red", "3-Blue", None]
