"""Positions set up by hand, and what a seat may know of them: `position` lays out a game at a
phase (cards, faces, who played what, variables), `determinise` puts the cards a seat cannot know
in other places, `evaluate` asks a definition, and `recompute_legal` and `waiting` read the
decision pending."""

from __future__ import annotations

import pytest
from small_games import CLAIMS

from interpreter import Move, apply, legal_moves, loads_ruleset, new_game
from interpreter.engine import cards_in, observe
from interpreter.errors import InvalidMoveError, OptionError


POSITIONS = """game positions "Positions"
players 2..3
deck d:
    suits Red, Blue
    ranks 1..6
zone stock shared hidden
zone pile[3] shared public
zone hand per player owner
zone out shared hidden
var turn: player = seat(1)
var last: zone
var mark: card
var led: suit
var best(p: player): card
define highest_of(g: cards) = highest c in g
define held_by(c: card, p: player) = c in hand(p)
phase deal "Deal" then play:
    rule deal "Deal":
        shuffle stock
        deal 1 from stock to each hand
phase play "Play":
    while count(stock) > 0:
        rule turns "Turns":
            choose by turn:
                action take c in hand(turn):
                    move c to pile(1)
                action draw:
                    move top(stock) to hand(turn)
            set turn = next(turn)
"""


def positions():
    return loads_ruleset(POSITIONS, "positions.cards")


def test_position_lays_cards_bottom_first_and_the_rest_where_asked():
    from interpreter.engine import position
    rs = positions()
    names = position(rs, 2, "play").program.card_names
    listed = ["1-Red", "2-Red", "3-Red", "4-Red", "1-Blue", "2-Blue"]
    unplaced = [c for c in names if c not in listed]
    zones = {"stock": ["1-Red", "2-Red"], "hand": {0: ["3-Red"], "P2": ["4-Red"]}, "pile": {2: ["1-Blue", "2-Blue"]}}
    s = position(rs, 2, "play", zones=zones)
    # the stock's listed cards lie on top of every card not placed, which keep the deck's order
    assert cards_in(s, "stock") == unplaced + ["1-Red", "2-Red"]
    assert cards_in(s, "pile", 2) == cards_in(s, "pile2") == ["1-Blue", "2-Blue"]
    assert cards_in(s, "hand", 0) == ["3-Red"] and cards_in(s, "hand", "P2") == cards_in(s, "hand-P2") == ["4-Red"]
    assert cards_in(s, "out") == [] and cards_in(s, "pile", 1) == []
    apply(s, "draw")  # the top of the stock is the last card listed
    assert cards_in(s, "hand", 0) == ["3-Red", "2-Red"]
    # with `rest`, the stock is exactly the cards listed for it, and the rest lie beneath that zone's own
    s = position(rs, 2, "play", zones={**zones, "out": ["3-Blue"]}, rest="out")
    assert cards_in(s, "stock") == ["1-Red", "2-Red"]
    assert cards_in(s, "out") == [c for c in unplaced if c != "3-Blue"] + ["3-Blue"]
    s = position(rs, 2, "play", zones=zones, rest=("pile", 3))
    assert cards_in(s, "pile", 3) == unplaced and cards_in(s, "stock") == ["1-Red", "2-Red"]
    assert observe(s, 0)["zones"]["pile"]["3"]["cards"] == unplaced


def test_position_sets_faces_played_by_and_every_kind_of_variable():
    from interpreter.engine import card_info, position, public_vars
    rs = positions()
    s = position(rs, 3, "play", zones={"stock": ["1-Red", "2-Red"], "hand": {1: ["3-Red"]}, "out": ["4-Red"]},
                 face_up=["1-Red"], played_by={"4-Red": "P3"},
                 vars={"turn": "P2", "last": "pile3", "mark": "2-Blue", "led": "Blue", "best": {1: "3-Red"}})
    assert card_info(s, "1-Red") == {"zone": "stock", "which": None, "owner": None, "played_by": None, "face_up": True}
    assert card_info(s, "3-Red") == {"zone": "hand", "which": 1, "owner": 1, "played_by": 1, "face_up": False}
    assert card_info(s, "4-Red")["played_by"] == 2
    assert observe(s, 0)["zones"]["stock"]["known"] == ["1-Red"]
    assert public_vars(s) == {"turn": "P2", "last": "pile3", "mark": "2-Blue", "led": "Blue",
                              "best": {"P1": None, "P2": "3-Red", "P3": None}}
    assert {str(m) for m in legal_moves(s)} == {"take 3-Red", "draw"} and s.current_player == 1
    # a zone variable may also be given as (zone, number), a player and a seat as 0-based ints
    s = position(rs, 3, "play", vars={"last": ("pile", 2), "turn": 2, "best": {"P1": "1-Blue"}})
    assert public_vars(s)["last"] == "pile2" and public_vars(s)["best"]["P1"] == "1-Blue"
    assert s.current_player == 2


@pytest.mark.parametrize("kw, error, words", [
    ({"zones": {"table": []}}, OptionError, "unknown zone 'table'"),
    ({"zones": {"hand": ["1-Red"]}}, OptionError, "one per player"),
    ({"zones": {"hand": {2: ["1-Red"]}}}, OptionError, "no seat 2 in a 2-player game"),
    ({"zones": {"pile": {4: ["1-Red"]}}}, OptionError, "numbered 1 to 3"),
    ({"zones": {"stock": {1: ["1-Red"]}}}, OptionError, "single shared zone"),
    ({"zones": {"stock": "1-Red"}}, OptionError, "list of card names"),
    ({"zones": {"stock": ["Joker-Red"]}}, InvalidMoveError, "not a card of this deck"),
    ({"zones": {"stock": ["1-Red"], "out": ["1-Red"]}}, OptionError, "placed twice"),
    ({"rest": "hand"}, OptionError, "one per player"),
    ({"rest": "nowhere"}, OptionError, "is not a zone"),
    ({"face_up": "1-Red"}, OptionError, "list of card names"),
    ({"played_by": {"1-Red": 5}}, OptionError, "no seat 5"),
    ({"vars": {"speed": 1}}, OptionError, "unknown variable 'speed'"),
    ({"vars": {"turn": 3}}, OptionError, "no seat 3"),
    ({"vars": {"best": "1-Red"}}, OptionError, "one value per player"),
    ({"vars": {"turn": {0: 1}}}, OptionError, "one value, not one per player"),
    ({"vars": {"led": "Green"}}, OptionError, "is a suit, one of Red, Blue"),
    ({"vars": {"mark": "Joker-Red"}}, InvalidMoveError, "not a card of this deck"),
    ({"vars": {"last": "pile"}}, OptionError, "numbered 1 to 3"),
])
def test_position_refuses_what_the_game_does_not_have(kw, error, words):
    from interpreter.engine import position
    with pytest.raises(error, match=words):
        position(positions(), 2, "play", **kw)
    with pytest.raises(OptionError, match="unknown phase 'bidding'"):
        position(positions(), 2, "bidding")


def test_position_without_shuffling_deals_from_the_pack_as_placed():
    from interpreter.engine import position
    s = position(positions(), 2, "deal", zones={"stock": ["1-Red", "2-Red", "3-Red"]}, rest="out", shuffle=False)
    # one card each from the top: P1 first
    assert [cards_in(s, "hand", p) for p in (0, 1)] == [["3-Red"], ["2-Red"]] and cards_in(s, "stock") == ["1-Red"]
    shuffled = position(positions(), 2, "deal", zones={"stock": ["1-Red", "2-Red", "3-Red"]}, rest="out", seed=1)
    assert sorted(sum((cards_in(shuffled, z) for z in ("hand-P1", "hand-P2", "stock")), [])) == ["1-Red", "2-Red", "3-Red"]


def test_determinise_permutes_only_what_a_player_cannot_know():
    import random
    from interpreter.engine import card_info, determinise, position
    rs = positions()
    hands = {0: ["1-Red", "2-Red"], 1: ["3-Red", "4-Red"], 2: ["1-Blue", "2-Blue"]}
    s = position(rs, 3, "play", zones={"hand": hands, "pile": {1: ["3-Blue"]}, "stock": ["4-Blue"], "out": ["5-Red"]},
                 face_up=["4-Blue"], played_by={"2-Blue": 0}, vars={"turn": 1})
    layout = lambda s: {z: cards_in(s, z) for z in ("stock", "hand-P1", "hand-P2", "hand-P3", "pile1", "out")}
    before = layout(s)
    assert before["stock"] == ["6-Red", "5-Blue", "6-Blue", "4-Blue"]
    # what P1 cannot know: the other hands, the stock under its face-up top card, the hidden pile out
    unknown = sorted(hands[1] + hands[2] + before["stock"][:-1] + ["5-Red"])
    seen = set()
    for k in range(20):
        t = determinise(s, 0, random.Random(k))
        t.verify()
        after = layout(t)
        # P1's own hand, the public pile, the face-up card and every zone's size stay
        assert after["hand-P1"] == hands[0] and after["pile1"] == ["3-Blue"]
        assert after["stock"][-1] == "4-Blue" and card_info(t, "4-Blue")["face_up"]
        assert {z: len(c) for z, c in after.items()} == {z: len(c) for z, c in before.items()}
        assert sorted(after["hand-P2"] + after["hand-P3"] + after["stock"][:-1] + after["out"]) == unknown
        # played_by stays with the place: the second card of P3's hand counts as played by P1
        assert card_info(t, after["hand-P3"][1])["played_by"] == 0
        assert observe(t, 0) == observe(s, 0)
        # the legal moves are recomputed: those of P2's new cards (P2 is to move)
        assert {str(m) for m in legal_moves(t)} == {f"take {c}" for c in after["hand-P2"]} | {"draw"}
        assert layout(determinise(s, 0, random.Random(k))) == after  # the same generator, the same result
        seen.add(tuple(after["hand-P2"] + after["stock"] + after["out"]))
    assert len(seen) > 10
    assert layout(s) == before  # the state itself is untouched
    # P2 knows their own hand: it stays; P1's cards are now among those permuted
    t = determinise(s, "P2", random.Random(3))
    assert cards_in(t, "hand", 1) == hands[1]


def test_evaluate_recompute_legal_and_waiting():
    from interpreter.engine import evaluate, position, recompute_legal, waiting
    s = position(positions(), 2, "play", zones={"hand": {0: ["1-Red", "3-Blue"]}})
    assert evaluate(s, "held_by", "3-Blue", 0) is True and evaluate(s, "held_by", "3-Blue", "P2") is False
    assert evaluate(s, "highest_of", ["1-Red", "2-Blue", "1-Blue"], returns="card") == "2-Blue"
    with pytest.raises(OptionError, match="unknown definition 'lowest_of'"):
        evaluate(s, "lowest_of", [])
    with pytest.raises(OptionError, match="takes 2 argument"):
        evaluate(s, "held_by", "3-Blue")
    assert recompute_legal(s) == legal_moves(s) and waiting(s) is None
    rs = loads_ruleset(CLAIMS, "claims.cards")
    s = new_game(rs, 3)
    assert waiting(s) == [1, 2] and recompute_legal(s.clone()) == legal_moves(s)
    apply(s, Move(2, "claim", "2"))
    assert waiting(s) == [1]
