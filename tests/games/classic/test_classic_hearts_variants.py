"""The variants of Hearts (rulesets/classic/hearts-*.cards).

Omnibus Hearts (hearts-omnibus.cards) against OpenSpiel's `hearts` with jd_bonus=True: one
position per changed rule (the Jack of Diamonds' ten points, with and without a moon shot; the
Jack thrown to the first trick), then OpenSpiel's own random games replayed move by move.

Black Maria (black-maria.cards) has no OpenSpiel game: one position per changed rule (three
players, the 2 of Clubs out, seventeen cards each, three cards passed to the right, any lead,
the three spade penalties, no moon), and random games checked for the points they count.

Seats, card names and the pass directions are as in test_classic_hearts.py."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from classic_stats import random_games

import test_classic_hearts as base
from interpreter import load_ruleset
from interpreter.engine import cards_in, new_game, outcome, position

HERE = Path(__file__).resolve().parents[3] / "rulesets" / "classic"
c = base.c
moves_of = base.moves_of
play = base.play


@cache
def rules(name: str):
    return load_ruleset(HERE / f"{name}.cards")


def table(name, hands, *, shift=0, won=None, phase="passing", options=None):
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    if won:
        zones["won"] = {p: [c(x) for x in w] for p, w in enumerate(won)}
    return position(rules(name), len(hands), phase, zones=zones, vars={"shift": shift}, options=options,
                    rest="stock")


# ================================================================== Omnibus Hearts

def _finish(name, hands, won, moves):
    s = table(name, hands, won=won, phase="play")
    for seat, x in moves:
        play(s, seat, c(x))
    assert s.finished
    return s


LAST = ([["AH"], ["9C"], ["TC"], ["JC"]], [(0, "AH"), (1, "9C"), (2, "TC"), (3, "JC")])


def test_omnibus_the_jack_of_diamonds_takes_ten_points_off():
    won = [["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H", "QS", "6C", "7C", "8C"], ["JD", "2D", "3D", "4D"], []]
    s = _finish("hearts-omnibus", *LAST[:1], won, LAST[1])
    assert outcome(s).scores == (25, 9, 36, 26) and outcome(s).winners == (2,)
    same = _finish("hearts", *LAST[:1], won, LAST[1])  # the base game: the Jack is worth nothing
    assert outcome(same).scores == (25, 9, 26, 26)
    # taken together with hearts, the Jack still counts: 1 heart and the Jack, 26 - 1 + 10
    won[0] = ["2C", "3C", "4C", "5C"]
    won[2] = ["JD", "6H", "3D", "4D"]
    won[1] = ["2H", "3H", "4H", "5H", "QS", "6C", "7C", "8C"]
    s = _finish("hearts-omnibus", *LAST[:1], won, LAST[1])
    assert outcome(s).scores == (25, 9, 35, 26)


HEARTS12 = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]


@pytest.mark.parametrize("jack_to,scores", [(0, (36, 0, 0, 0)), (1, (26, 10, 0, 0)), (None, (26, 0, 0, 0))])
def test_omnibus_a_moon_shot_does_not_need_the_jack_and_the_jack_counts_on_top(jack_to, scores):
    won = [HEARTS12 + ["QS", "2C", "3C", "4C"], ["5C", "6C", "7C", "8C"], [], []]
    if jack_to is not None:
        won[jack_to] = won[jack_to] + ["JD", "2D", "3D", "4D"]
    s = _finish("hearts-omnibus", *LAST[:1], won, LAST[1])
    assert outcome(s).scores == scores


def test_omnibus_the_jack_may_be_thrown_to_the_first_trick():
    hands = [["2C", "AH", "KH", "QS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
             ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "QD"],
             ["QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "KS", "JD"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "AS", "KD", "AD"]]
    s = table("hearts-omnibus", hands)
    play(s, 0, "2-Clubs")
    play(s, 1, "Ace-Clubs")
    assert moves_of(s, 2) == {"King-Spades", "Jack-Diamonds"}  # the Jack, but no heart
    play(s, 2, "Jack-Diamonds")
    play(s, 3, "2-Spades")
    assert "Jack-Diamonds" in cards_in(s, "won", 1)  # the Ace of Clubs took it, and leads next
    assert moves_of(s, 1) == {c(x) for x in hands[1] if x != "AC"}


def test_openspiels_omnibus_games_replayed_move_by_move():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hearts", {"jd_bonus": True})
    assert game.get_parameters()["jd_bonus"] is True
    rng = random.Random(31)
    jacks = 0
    for _ in range(400):
        theirs, direction, hands, decisions = base._random_openspiel_game(game, rng)
        s = table("hearts-omnibus", hands, shift=direction)
        for p, legal, chosen in decisions:
            assert moves_of(s, p) == legal
            play(s, p, chosen)
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        jacks += max(theirs.returns()) > 26
    assert jacks >= 10  # the Jack's ten points decided some of these games


# ================================================================== Black Maria

def _penalty(name: str) -> int:
    return {"Queen-Spades": 13, "King-Spades": 10, "Ace-Spades": 7}.get(name, 1 if name.endswith("-Hearts") else 0)


@pytest.mark.parametrize("seed", range(3))
def test_black_maria_deals_seventeen_each_without_the_two_of_clubs(seed):
    s = new_game(rules("black-maria"), 3, seed=seed)
    hands = [cards_in(s, "hand", p) for p in range(3)]
    assert [len(h) for h in hands] == [17] * 3 and cards_in(s, "stock") == []
    dealt = {x for h in hands for x in h}
    assert len(dealt) == 51 and "2-Clubs" not in dealt and "3-Clubs" in dealt
    assert s.rule == "pass_cards" and base._shift(s) == 3  # always to the right


@pytest.mark.parametrize("direction,shift", [("right", 3), ("left", 1), ("keep", 0)])
def test_black_maria_pass_direction_is_an_option(direction, shift):
    s = new_game(rules("black-maria"), 3, seed=1, options={"pass_direction": direction})
    assert base._shift(s) == shift and (s.rule == "pass_cards") == (shift > 0)


def test_black_maria_is_for_three_players_only():
    for n in (2, 4):
        with pytest.raises(Exception, match="for 3 players"):
            new_game(rules("black-maria"), n, seed=1)


BM = [["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D", "3D", "4D", "5D", "6D"],
      ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
      ["JH", "QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]]


def test_black_maria_passes_three_cards_to_the_right_and_seat_one_leads_anything():
    s = table("black-maria", BM, shift=3)
    passes = [["AC", "KC", "QC"], ["AD", "KD", "QD"], ["QS", "KS", "AS"]]
    for p in range(3):
        for x in passes[p]:
            assert moves_of(s, p) == {y for y in cards_in(s, "hand", p)}
            play(s, p, c(x))
    # to the right: to the player who plays before, seat 0's cards to seat 2, seat 1's to seat 0
    for p, to in ((0, 2), (1, 0), (2, 1)):
        assert {c(x) for x in passes[p]} <= set(cards_in(s, "hand", to))
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [17] * 3
    assert s.rule == "lead" and moves_of(s, 0) == set(cards_in(s, "hand", 0))  # any card, no 2 of Clubs to lead


def test_black_maria_hearts_may_be_led_to_the_first_trick_and_points_thrown_to_it():
    hands = [["2H", "3C", "4C"], ["5C", "6C", "7C"], ["QS", "KS", "AH"]]
    s = table("black-maria", hands, phase="play")
    assert moves_of(s, 0) == {"2-Hearts", "3-Clubs", "4-Clubs"}  # hearts not broken, first trick
    play(s, 0, "3-Clubs")
    play(s, 1, "5-Clubs")
    assert moves_of(s, 2) == {"Queen-Spades", "King-Spades", "Ace-Hearts"}  # void: penalty cards allowed
    play(s, 2, "Queen-Spades")
    assert cards_in(s, "won", 1) and moves_of(s, 1) == {"6-Clubs", "7-Clubs"}
    # the base game forbids both
    h = [x + ["2C"] if i == 0 else x for i, x in enumerate(hands)] + [["8C"]]
    hearts = base.table([[*x] for x in h])
    assert moves_of(hearts, 0) == {"2-Clubs"}


@pytest.mark.parametrize("won,scores", [
    # the Queen 13, the King 10 and a heart, the Ace 7 and two hearts
    ([["QS", "5C", "6C"], ["KS", "2H", "7C"], ["AS", "3H", "4H"]], (30, 32, 34)),
    # every penalty card to one player: no moon, 0 for them
    ([["QS", "KS", "AS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"], [], ["5C"]],
     (0, 43, 43)),
])
def test_black_maria_scores_43_minus_the_points_taken(won, scores):
    s = _finish("black-maria", [["2D"], ["3D"], ["4D"]], won, [(0, "2D"), (1, "3D"), (2, "4D")])
    assert outcome(s).scores == scores
    assert tuple(43 - sum(_penalty(x) for x in cards_in(s, "won", p)) for p in range(3)) == scores


def test_black_maria_random_games_count_43_points():
    rng = random.Random(43)
    for s, n in random_games(rules("black-maria"), 3, 150, rng):
        assert n == 9 + 51
        assert sum(outcome(s).scores) == 2 * 43
        for p in range(3):
            assert outcome(s).scores[p] == 43 - sum(_penalty(x) for x in cards_in(s, "won", p))
