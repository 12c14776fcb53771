"""Euchre with defending alone (rulesets/classic/euchre-defend-alone.cards) against OpenSpiel's
`euchre` with allow_lone_defender=True: the changed rule (the defenders asked in turn, by default
now) and its score in positions, then OpenSpiel's own random games replayed move by move.

Seats, card names and moves are as in test_classic_euchre.py."""

from __future__ import annotations

import pytest

import test_classic_euchre as base
from interpreter.engine import apply, legal_moves

HANDS, table, play, moves_of, scores = base.HANDS, base.table, base.play, base.moves_of, base.scores
GAME = "euchre-defend-alone"


def test_each_defender_in_turn_may_defend_alone_without_an_option():
    s = table(HANDS, upcard="9S", dealer=3, game=GAME)
    play(s, "pass", "order_up", "discard 10-Spades", "partner")  # P2 makes
    assert moves_of(s) == {"alone": 0, "partner": 0}  # P1 asked first (after the dealer)
    play(s, "partner")
    assert moves_of(s) == {"alone": 2, "partner": 2}
    play(s, "alone")  # P3 defends alone, P1 sits out
    assert set(moves_of(s).values()) == {1}  # P1 would lead but sits out: P2 leads
    in_base = table(HANDS, upcard="9S", dealer=3)
    play(in_base, "pass", "order_up", "discard 10-Spades", "partner")
    assert in_base.rule == "lead"  # nobody asked


def test_the_option_can_still_turn_it_off():
    s = table(HANDS, upcard="9S", dealer=3, game=GAME, options={"allow_lone_defender": False})
    play(s, "pass", "order_up", "discard 10-Spades", "partner")
    assert s.rule == "lead"


@pytest.mark.parametrize("makers,expected", [(2, -4), (0, -4), (3, 1), (5, 2)])
def test_a_euchre_by_a_lone_defender_costs_the_makers_four(makers, expected):
    # as test_classic_euchre.test_the_score: four tricks counted, P1 (maker, with P3) takes the
    # last trick or not; P2 defends alone, P4 sits out
    hands = [["AS"], ["9C"], ["TC"], ["QC"]] if makers else [["9C"], ["AS"], ["TC"], ["QC"]]
    before = makers - 1 if makers else 0
    v = {"trump": "Spades", "maker": 0, "lone_defender": 1, "tricks": {0: before, 1: 4 - before}}
    s = table(hands, phase="play", dealer=3, upcard=None, vars=v, game=GAME)
    while not s.finished:
        apply(s, legal_moves(s)[0])
    assert scores(s) == (expected, -expected, expected, -expected)


def test_openspiels_games_with_lone_defenders_replayed_move_by_move():
    base._replay({"allow_lone_defender": True}, 400, None, game=GAME)
    base._replay({"allow_lone_defender": True}, 150, 0.85, game=GAME)
