"""Spades with the Jokers (rulesets/classic/spades-jokers.cards) has no OpenSpiel game: one
position per changed rule (the pack without the 2 of Clubs and the 2 of Diamonds and with two
Jokers, the Jokers as the two highest spades in leading, following and taking tricks), then
random games checked trick by trick against the trick rule worked out here.

Card names: OpenSpiel's strings as in test_classic_spades.py, and 'BJ', 'LJ' for the Big and
the Little Joker (our 'Big-Jokers', 'Little-Jokers')."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

import test_classic_spades as base
from interpreter.engine import apply, cards_in, legal_moves, new_game, outcome, position

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "spades-jokers.cards"
JOKERS = {"BJ": "Big-Jokers", "LJ": "Little-Jokers"}
ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]


rules = loader(RULESET)


def c(short: str) -> str:
    return JOKERS.get(short) or base.c(short)


def cards_of(s, seat: int) -> set[str]:
    return base.cards_of(s, seat)


def play(s, seat: int, card: str) -> None:
    apply(s, next(m for m in legal_moves(s) if m.player == seat and str(m).split()[-1] == c(card)))


def table(hands, bids=(1, 1, 1, 1)):
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    return position(rules(), 4, "play", zones=zones, vars={"bid": dict(enumerate(bids))}, rest="stock")


@pytest.mark.parametrize("seed", range(3))
def test_the_pack_has_the_jokers_and_not_the_two_low_deuces(seed):
    s = new_game(rules(), 4, seed=seed)
    dealt = [x for p in range(4) for x in cards_in(s, "hand", p)]
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [13] * 4 and cards_in(s, "stock") == []
    assert {"Big-Jokers", "Little-Jokers", "2-Hearts", "2-Spades"} <= set(dealt)
    assert "2-Clubs" not in dealt and "2-Diamonds" not in dealt and len(set(dealt)) == 52


@pytest.mark.parametrize("cards,winner", [
    (["H5", "SA", "LJ", "H9"], 2),   # the Little Joker beats the Ace of Spades
    (["H5", "BJ", "LJ", "SA"], 1),   # the Big Joker beats everything
    (["SK", "S3", "H9", "SA"], 3),   # no Joker: the highest spade
    (["LJ", "S3", "BJ", "S2"], 2),   # a Joker led: spades follow, the Big Joker wins
    (["H5", "H9", "D3", "C4"], 1),   # no trump: the highest heart
])
def test_the_jokers_are_the_highest_trumps(cards, winner):
    hands = [[x] for x in cards]
    s = table(hands)
    for p, x in enumerate(cards):
        play(s, p, x)
    assert s.finished and len(cards_in(s, "won", winner)) == 4


def test_a_joker_led_is_a_spade_to_follow():
    hands = [["LJ", "H2"], ["S3", "H4"], ["BJ", "H5"], ["H6", "D7"]]
    s = table(hands)
    assert cards_of(s, 0) == {"2-Hearts"}  # a Joker is a spade: not led while holding a heart
    hands[0] = ["LJ", "SQ"]
    s = table(hands)
    assert cards_of(s, 0) == {"Little-Jokers", "Queen-Spades"}  # nothing but spades: lead one
    play(s, 0, "LJ")
    assert cards_of(s, 1) == {"3-Spades"}  # must follow a Joker with a spade
    play(s, 1, "S3")
    assert cards_of(s, 2) == {"Big-Jokers"}  # or with the other Joker
    play(s, 2, "BJ")
    assert cards_of(s, 3) == {"6-Hearts", "7-Diamonds"}  # void in spades: anything


def test_a_joker_does_not_follow_a_heart_lead():
    hands = [["S5", "H2"], ["LJ", "H4"], ["HA", "D5"], ["H6", "D7"]]
    s = table(hands, bids=(1, 1, 1, 1))
    play(s, 0, "H2")
    assert cards_of(s, 1) == {"4-Hearts"}  # holding a heart: must follow, the Joker is no heart
    play(s, 1, "H4")
    play(s, 2, "HA")
    play(s, 3, "H6")
    assert len(cards_in(s, "won", 2)) == 4
    assert cards_of(s, 2) == {"5-Diamonds"}


def _winner(played, n=4):
    """The trick rule as the variant states it: Big Joker, Little Joker, highest spade, highest of the suit led."""
    names = [x for _, x in played]
    for j in ("Big-Jokers", "Little-Jokers"):
        if j in names:
            return played[names.index(j)][0]
    led = "Spades" if names[0].endswith("Jokers") else names[0].split("-")[1]
    for suit in ("Spades", led):
        cards = [(p, x) for p, x in played if x.split("-")[1] == suit]
        if cards:
            return max(cards, key=lambda px: ORDER.index(px[1].split("-")[0]))[0]


def test_random_games_every_trick_follows_the_joker_rule_and_the_score_is_the_base_games():
    rng = random.Random(9)
    tricks = 0
    for seed in range(150):
        s = new_game(rules(), 4, seed=seed)
        played = []
        while not s.finished:
            m = rng.choice(legal_moves(s))
            if str(m).split()[0] in ("lead", "play"):
                played.append((m.player, str(m).split()[-1]))
            before = [len(cards_in(s, "won", p)) for p in range(4)]
            apply(s, m)
            if len(played) == 4:
                w = _winner(played)
                assert len(cards_in(s, "won", w)) == before[w] + 4
                played = []
                tricks += 1
        assert len(outcome(s).scores) == 4 and outcome(s).scores[0] == outcome(s).scores[2]
    assert tricks == 150 * 13
