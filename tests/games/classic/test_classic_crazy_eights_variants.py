"""Crazy Eights with action cards (rulesets/classic/crazy-eights-action-cards.cards) against
OpenSpiel's `crazy_eights` with use_special_cards=True: one position per changed rule (a Queen
skips, an Ace reverses, a 2 makes the next player draw two unless they add a 2, the debt drawn
all at once, the stock running out, an action card turned up to start), then OpenSpiel's own
random games replayed move by move (the same deal, the same draws, the same legal moves at
every decision, mapped by card, and the same returns).

Seats and card names are as in test_classic_crazy_eights.py: OpenSpiel's player i is our seat i."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from bundled_games import loader

import test_classic_crazy_eights as base
from interpreter.engine import apply, cards_in, fired_counts, position, outcome, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "crazy-eights-action-cards.cards"
legal = base.legal
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]


rules = loader(RULESET)


def table(hands, up, *, to_move=0, stock=None, vars=None, players=5):
    zones = {"hand": dict(enumerate(hands)), "discards": [up]}
    kw = {}
    if stock is not None:
        zones["stock"] = stock
        kw["rest"] = "discards"
    v = {"player_to_move": to_move, "named_suit": up.split("-")[1], "dealer": players - 1}
    v.update(vars or {})
    return position(rules(), players, "play", zones=zones, vars=v, **kw)


def to_move(s) -> int:
    return int(public_vars(s)["player_to_move"][1:]) - 1


HANDS = [["Queen-Hearts", "3-Clubs"], ["5-Hearts", "9-Clubs"], ["6-Hearts", "King-Clubs"],
         ["7-Hearts", "Ace-Spades"], ["4-Hearts", "10-Spades"]]


def test_a_queen_skips_the_next_player():
    s = table(HANDS, "2-Hearts", vars={"twos_owed": 0})
    apply(s, "play Queen-Hearts")
    assert to_move(s) == 2 and s.actor == 2


def test_an_ace_reverses_the_direction_and_a_queen_then_skips_backwards():
    hands = [["Ace-Hearts", "3-Clubs"], ["5-Hearts"], ["6-Diamonds"], ["Queen-Hearts", "7-Spades"], ["4-Hearts", "9-Spades"]]
    s = table(hands, "2-Hearts")
    apply(s, "play Ace-Hearts")
    assert to_move(s) == 4 and public_vars(s)["reversed"] is True
    apply(s, "play 4-Hearts")
    assert to_move(s) == 3
    apply(s, "play Queen-Hearts")  # skips seat 2, backwards: seat 1 next
    assert to_move(s) == 1
    in_base = base.table(hands, "2-Hearts")
    apply(in_base, "play Ace-Hearts")
    assert in_base.actor == 1  # no action cards in the base game


def test_a_two_makes_the_next_player_draw_two_and_miss_the_turn():
    hands = [["2-Hearts", "3-Clubs"], ["5-Hearts", "9-Clubs", "8-Spades"], ["6-Hearts"], ["7-Hearts"], ["4-Hearts"]]
    s = table(hands, "10-Hearts", stock=["King-Spades", "Jack-Clubs", "9-Diamonds"])
    apply(s, "play 2-Hearts")
    assert public_vars(s)["twos_owed"] == 2
    assert legal(s) == {"draw"}  # no 2 to add: no other card, not even the eight, and no pass
    apply(s, "draw")
    assert cards_in(s, "hand", 1)[-2:] == ["9-Diamonds", "Jack-Clubs"] and to_move(s) == 2
    assert public_vars(s)["twos_owed"] == 0 and legal(s) == {"play 6-Hearts", "draw"}


def test_a_two_of_any_suit_passes_the_debt_on_two_larger():
    hands = [["2-Hearts", "3-Clubs"], ["2-Clubs", "2-Spades", "5-Hearts"], ["6-Diamonds"], ["7-Hearts"], ["4-Hearts"]]
    s = table(hands, "10-Hearts", stock=["King-Spades", "Jack-Clubs", "9-Diamonds", "4-Diamonds", "5-Clubs"])
    apply(s, "play 2-Hearts")
    assert legal(s) == {"draw", "play 2-Clubs", "play 2-Spades"}
    apply(s, "play 2-Clubs")
    assert public_vars(s)["twos_owed"] == 4 and to_move(s) == 2 and public_vars(s)["named_suit"] == "Clubs"
    assert legal(s) == {"draw"}
    apply(s, "draw")
    assert len(cards_in(s, "hand", 2)) == 5 and to_move(s) == 3 and cards_in(s, "stock") == ["King-Spades"]


def test_the_stock_running_out_forgives_the_rest_of_the_debt():
    hands = [["2-Hearts", "3-Clubs"], ["5-Hearts"], ["6-Diamonds"], ["7-Hearts"], ["4-Hearts"]]
    s = table(hands, "10-Hearts", stock=["King-Spades"])
    apply(s, "play 2-Hearts")
    apply(s, "draw")
    assert cards_in(s, "hand", 1) == ["5-Hearts", "King-Spades"] and public_vars(s)["twos_owed"] == 0
    assert public_vars(s, private=True)["passes_in_a_row"] == 0 and to_move(s) == 2
    exact = table(hands, "10-Hearts", stock=["King-Spades", "Jack-Clubs"])
    apply(exact, "play 2-Hearts")
    apply(exact, "draw")  # the debt paid with the last card of the stock: one pass, as OpenSpiel counts it
    assert public_vars(exact, private=True)["passes_in_a_row"] == 1
    empty = table(hands, "10-Hearts", stock=[])
    apply(empty, "play 2-Hearts")  # a 2 with the stock empty is an ordinary card
    assert public_vars(empty)["twos_owed"] == 0 and legal(empty) == {"pass", "play 5-Hearts"}


@pytest.mark.parametrize("starter,first,reversed_,owed", [
    ("Queen-Clubs", 1, False, 0),  # the dealer is seat 4: seat 0 is skipped
    ("Ace-Clubs", 3, True, 0),     # reversed: the player before the dealer
    ("2-Clubs", 0, False, 2),      # the player after the dealer owes two
    ("5-Clubs", 0, False, 0),
])
def test_an_action_card_turned_up_acts_as_if_the_dealer_played_it(starter, first, reversed_, owed):
    pack = [f"{r}-{s}" for s in SUITS for r in RANKS if f"{r}-{s}" != starter]
    order = pack[:25] + [starter] + pack[25:]  # top first: the deal, then the starter
    s = position(rules(), 5, "deal", zones={"stock": list(reversed(order))}, shuffle=False, seed=_seed_for_dealer(4))
    assert public_vars(s)["dealer"] == "P5" and cards_in(s, "discards") == [starter]
    assert to_move(s) == first and public_vars(s)["reversed"] is reversed_ and public_vars(s)["twos_owed"] == owed


# ================================================================== the same game as OpenSpiel's

@cache
def _seeds(players=5):
    """A seed for each dealer: the deal's first draw of chance picks the dealer."""
    out = {}
    for seed in range(500):
        s = position(rules(), players, "deal", seed=seed, shuffle=False)
        out.setdefault(int(public_vars(s)["dealer"][1:]) - 1, seed)
        if len(out) == players:
            return out
    raise AssertionError(out)


def _seed_for_dealer(d):
    return _seeds()[d]


def _name(a: int) -> str:
    if a < 52:
        return f"{RANKS[a // 4]}-{SUITS[a % 4]}"
    return {52: "draw", 53: "pass"}.get(a) or f"name {SUITS[a - 54]}"


def _ours(a: int) -> str:
    return f"play {_name(a)}" if a < 52 else _name(a)


def _openspiel_game(game, rng):
    s = game.new_initial_state()
    dealer = rng.choice([a for a, _ in s.chance_outcomes()]) - 52
    s.apply_action(dealer + 52)
    cards, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            cards.append(_name(a))
            s.apply_action(a)
            continue
        legal_ = s.legal_actions()
        a = rng.choice(legal_)
        decisions.append((s.current_player(), {_ours(x) for x in legal_}, _ours(a)))
        s.apply_action(a)
    return dealer, cards, decisions, tuple(s.returns())


def _our_order(cards, n=5, k=5):
    """OpenSpiel deals one card at a time round the table from the player after the dealer; our
    `deal` gives each player their five at once, in the same order of players: the same hands."""
    return [cards[i * n + p] for p in range(n) for i in range(k)] + cards[n * k:]


def test_openspiels_games_with_action_cards_replayed_move_by_move():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("crazy_eights", {"use_special_cards": True})
    assert game.get_parameters()["use_special_cards"] is True
    rng = random.Random(30)
    replayed = skipped = 0
    fired = {"skip": 0, "reverse": 0, "draw_two": 0, "draw_twos": 0, "blocked": 0, "going_out": 0}
    stacked = 0
    while replayed < 500:
        dealer, cards, decisions, returns = _openspiel_game(game, rng)
        if len(set(cards)) < len(cards):  # a starting eight went back and was drawn again: our stock
            skipped += 1                  # puts it at the bottom, OpenSpiel anywhere
            continue
        s = position(rules(), 5, "deal", zones={"stock": list(reversed(_our_order(cards)))}, shuffle=False,
                     seed=_seed_for_dealer(dealer))
        for p, moves, chosen in decisions:
            assert s.actor == p
            assert legal(s) == moves
            apply(s, chosen)
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == returns
        replayed += 1
        counts = fired_counts(s)
        for k in fired:
            fired[k] += counts.get(k, 0) > 0
        stacked += any(m.startswith("play 2-") and "draw" in moves and all(x == "draw" or x.startswith("play 2-") for x in moves)
                       for _, moves, m in decisions)
    print(f"{replayed} games replayed ({skipped} skipped); games with each rule: {fired}; with a 2 stacked: {stacked}")
    assert skipped < 80 and all(n >= 20 for n in fired.values()) and stacked >= 20
