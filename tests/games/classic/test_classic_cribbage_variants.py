"""Three-handed Cribbage (rulesets/classic/cribbage-three.cards) against OpenSpiel's `cribbage`
with players=3: one position per changed rule (five cards each and one to the crib, one card
laid away each, the deal passing round, three players pegging with goes, the show, the bonus
split between two losers), then OpenSpiel's own random games replayed deal by deal, move by
move, with the same points after every deal and the same returns.

Card names as in test_classic_cribbage.py; OpenSpiel's player i is our seat i."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from bundled_games import loader

import test_classic_cribbage as base
from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, fired_counts, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "cribbage-three.cards"
c, cs, legal, at = base.c, base.cs, base.legal, base.at


rules = loader(RULESET)


def points(s):
    pv = public_vars(s)["points"]
    return tuple(pv[f"P{i}"] for i in (1, 2, 3))


def deal(hands, crib_card, starter, *, dealer=0, score=(0, 0, 0), deals=0):
    """A deal with these cards (the pack not shuffled): each player's five, the crib's card, the
    starter; `dealer` deals."""
    order = [x for h in hands for x in cs(h)] + [c(crib_card), c(starter)]
    return position(rules(), 3, "game", zones={"stock": list(reversed(order))}, shuffle=False,
                    vars={"dealer": (dealer - 1) % 3, "deals": deals, "points": dict(enumerate(score))})


@pytest.mark.parametrize("seed", range(3))
def test_five_cards_each_one_to_the_crib_and_the_first_player_deals_first(seed):
    s = new_game(rules(), 3, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [5] * 3
    assert len(cards_in(s, "crib")) == 1 and len(cards_in(s, "stock")) == 36
    assert public_vars(s)["dealer"] == "P1" and s.actor == 0 and s.rule == "lay_away"


HANDS = ["5C 9C 6D QH QS", "TC 7H TH JH JS", "2C 8C 4D 3H 4S"]


def test_each_lays_away_one_card_then_the_starter_and_the_player_after_the_dealer_leads():
    s = deal(HANDS, "AD", "KC", dealer=1)
    at(s, 0, "lay_away", {f"lay_away {x}" for x in cs(HANDS[0])})
    apply(s, "lay_away Queen-Hearts")
    at(s, 1, "lay_away", {f"lay_away {x}" for x in cs(HANDS[1])})
    apply(s, "lay_away Jack-Spades")
    apply(s, "lay_away 2-Clubs")
    assert sorted(cards_in(s, "crib")) == sorted(cs("AD QH JS 2C"))
    assert cards_in(s, "starter") == [c("KC")]
    assert s.actor == 2 and s.rule == "play"  # the dealer is P2: P3 leads
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [4] * 3


def test_goes_with_three_players_the_others_play_on():
    s = deal(["KC KD KH 5C AS", "9C QD QH 6C AH", "JC JD JH 3C AD"], "4C", "9S", dealer=2)
    for x in ("AS", "AH", "AD"):
        apply(s, f"lay_away {c(x)}")
    # P1 leads (the dealer is P3): 10, 19, 29, then nobody can play
    for x in ("KC", "9C", "JC"):
        apply(s, f"play {c(x)}")
    assert points(s) == (0, 0, 0) and legal(s) == {"pass"} and s.actor == 0
    apply(s, "pass")
    at(s, 1, "play", {"pass"})
    apply(s, "pass")
    apply(s, "pass")  # all three said go: the last to play, P3, scores 1 and P1 starts again
    assert points(s) == (0, 0, 1) and s.actor == 0


def test_the_winner_gains_1000_and_each_other_player_loses_500():
    s = deal(HANDS, "AD", "KC", dealer=0, score=(120, 50, 30))
    for x in ("QH", "JS", "2C"):
        apply(s, f"lay_away {c(x)}")
    while not s.finished:
        apply(s, sorted(legal(s))[0])
    assert fired_counts(s)["game_over"] == 1
    w = outcome(s).winners[0]
    assert outcome(s).scores == tuple(p + (1000 if i == w else -500) for i, p in enumerate(points(s)))


def _one_card_moves(lay_aways: int):
    """OpenSpiel's moves as ours with three or four players, where each lays away one card: the
    deal's first `lay_aways` decisions lay away, the rest play (or pass)."""
    def move(s, a: int, done: int) -> str:
        text = s.action_to_string(s.current_player(), a)
        return "pass" if text == "Pass" else f"{'lay_away' if done < lay_aways else 'play'} {c(text.split()[1])}"
    return move


# the default run replays 100 of them; the slow tests all 200
@pytest.mark.parametrize("games", [100, pytest.param(200, marks=pytest.mark.slow)])
def test_openspiels_three_handed_games_replayed_deal_by_deal(games):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("cribbage", {"players": 3})
    rng = random.Random(41)
    for _ in range(games):
        # each deal's 17 chance outcomes: 15 cards to the players, 1 to the crib, the starter
        deals, returns = base.openspiel_deals(pyspiel, game, rng, 17, _one_card_moves(3))
        for i, (score, dealt, decisions) in enumerate(deals):
            s = position(rules(), 3, "game", zones={"stock": list(reversed(dealt))}, shuffle=False,
                         vars={"dealer": (i - 1) % 3, "deals": i, "points": dict(enumerate(score))})
            assert public_vars(s)["dealer"] == f"P{i % 3 + 1}"
            for p, moves, chosen in decisions:
                assert (s.actor, legal(s)) == (p, moves)
                apply(s, chosen)
            if i + 1 < len(deals):
                assert points(s) == deals[i + 1][0]
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == returns


# ================================================================== Partnership Cribbage for four

@cache
def four():
    return load_ruleset(RULESET.with_name("cribbage-four.cards"))


def sides(s):
    pv = public_vars(s)["points"]
    p = [pv[f"P{i}"] for i in (1, 2, 3, 4)]
    return (p[0] + p[2], p[1] + p[3], p[0] + p[2], p[1] + p[3])


@pytest.mark.parametrize("seed", range(3))
def test_four_five_cards_each_none_to_the_crib_one_laid_away_each(seed):
    s = new_game(four(), 4, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [5] * 4
    assert cards_in(s, "crib") == [] and len(cards_in(s, "stock")) == 32
    for p in range(4):
        assert s.actor == p and s.rule == "lay_away"
        apply(s, sorted(legal(s))[0])
    assert len(cards_in(s, "crib")) == 4 and s.actor == 1  # the first player deals: the second leads


def test_four_points_count_for_the_side_and_the_side_wins_together():
    hands = ["KC KD KH 5C AS", "9C QD QH 6C AH", "JC JD JH 3C AD", "2D 2H 7S 8S 9S"]
    order = [x for h in hands for x in cs(h)] + [c("4C")]
    s = position(four(), 4, "game", zones={"stock": list(reversed(order))}, shuffle=False,
                 vars={"dealer": 2, "points": {0: 100, 1: 60, 2: 0, 3: 59}})
    for x in ("AS", "AH", "AD", "9S"):
        apply(s, f"lay_away {c(x)}")
    apply(s, f"play {c('KC')}")  # P1 leads (P4 deals)
    apply(s, f"play {c('9C')}")
    apply(s, f"play {c('JC')}")
    apply(s, f"play {c('2D')}")  # 31: P4 scores 2, and P2 and P4 have 121 together
    assert s.finished and sides(s) == (100, 121, 100, 121)
    assert outcome(s).winners == (1, 3) and outcome(s).scores == (-400, 621, -400, 621)


def test_openspiels_partnership_games_replayed_deal_by_deal():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("cribbage", {"players": 4})
    rng = random.Random(42)
    for _ in range(150):
        # each deal's 21 chance outcomes: 20 cards to the players, the starter
        deals, returns = base.openspiel_deals(pyspiel, game, rng, 21, _one_card_moves(4))
        for i, (score, dealt, decisions) in enumerate(deals):
            assert score[0] == score[2] and score[1] == score[3]
            s = position(four(), 4, "game", zones={"stock": list(reversed(dealt))}, shuffle=False,
                         vars={"dealer": (i - 1) % 4, "deals": i, "points": {0: score[0], 1: score[1], 2: 0, 3: 0}})
            for p, moves, chosen in decisions:
                assert (s.actor, legal(s)) == (p, moves)
                apply(s, chosen)
            if i + 1 < len(deals):
                assert sides(s) == deals[i + 1][0]
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == returns
