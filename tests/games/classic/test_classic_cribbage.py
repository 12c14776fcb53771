"""Cribbage (rulesets/classic/cribbage.cards) against OpenSpiel's `cribbage` with its default
parameters (two players, winner_bonus_reward 1000).

First one small position per rule, with the exact set of legal moves; the counting of hands is
checked on known hands. Then OpenSpiel's own random games replayed deal by deal in our ruleset:
each deal starts from OpenSpiel's cards and scores, and every decision has the same legal moves
(mapped by card); the points after every deal and the returns at the end are the same. Then the
statistics of random play on both sides.

Seats: OpenSpiel's player 0 and 1 are our P1 and P2 (seats 0 and 1); P1 deals first. Moves:
"Choose 5C KH" (two cards to the crib in one move) is two moves of ours, `lay_away 5-Clubs`
and then `lay_away King-Hearts`: OpenSpiel offers every two cards of the six, we offer the six
and then the other five, the same choice (the language has no action over a pair of cards that
the native engine can run). "Choose 5C" in the play is `play 5-Clubs`; "Pass" is `pass` (go)."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from bundled_games import loader

from openspiel_cards import c, cs
from classic_stats import assert_same_statistics, mean_returns, random_games, returns
from openspiel_random import random_game

from interpreter.engine import apply, cards_in, evaluate, fired_counts, new_game, outcome, position, public_vars
from scenario import at, legal

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "cribbage.cards"


rules = loader(RULESET)


def points(s) -> tuple[int, int]:
    pv = public_vars(s)["points"]
    return pv["P1"], pv["P2"]


def deal(hand1: str, hand2: str, starter: str, *, dealer=0, score=(0, 0), deals=0, options=None):
    """A deal with these cards: P1's six, P2's six and the starter (the pack is not shuffled),
    `dealer` dealing, the points so far `score`."""
    order = cs(hand1) + cs(hand2) + [c(starter)]
    return position(rules(), 2, "game", zones={"stock": list(reversed(order))}, shuffle=False, options=options,
                    vars={"dealer": 1 - dealer, "deals": deals, "points": {0: score[0], 1: score[1]}})


def play(s, *moves: str) -> None:
    for m in moves:
        apply(s, m if m == "pass" else f"play {c(m)}")


def lay_away(s, *cards: str) -> None:
    for x in cards:
        apply(s, f"lay_away {c(x)}")


def offered(cards: str) -> set[str]:
    return {f"lay_away {x}" for x in cs(cards)}


# ================================================================== the deal and the crib

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_six_cards_each_and_the_first_player_deals_first(seed):
    s = new_game(rules(), 2, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [6, 6] and len(cards_in(s, "stock")) == 40
    assert public_vars(s)["dealer"] == "P1"
    assert s.actor == 0 and s.rule == "lay_away" and len(legal(s)) == 6


def test_laying_away_two_cards_each_first_player_first_then_the_starter_and_the_play():
    s = deal("AC 2D 3H 4S 5C 6D", "7H 8S 9C TD JH QS", "KC")
    at(s, 0, "lay_away", offered("AC 2D 3H 4S 5C 6D"))
    lay_away(s, "6D")
    at(s, 0, "lay_away", offered("AC 2D 3H 4S 5C"))  # then a second card
    lay_away(s, "AC")
    at(s, 1, "lay_away", offered("7H 8S 9C TD JH QS"))
    lay_away(s, "7H", "QS")
    assert sorted(cards_in(s, "crib")) == sorted(cs("AC 6D 7H QS")) and cards_in(s, "starter") == [c("KC")]
    at(s, 1, "play", {f"play {c(x)}" for x in "8S 9C TD JH".split()})  # P1 deals: P2 plays first


def test_his_heels_a_jack_turned_up_gives_the_dealer_two():
    s = deal("AC 2D 3H 4S 5C 6D", "7H 8S 9C TD JH QS", "JC", dealer=1)
    lay_away(s, "AC", "6D", "7H", "QS")
    assert points(s) == (0, 2) and fired_counts(s)["heels"] == 1
    assert s.actor == 0  # P2 deals: P1 plays first


# ================================================================== the play

def playing(hand1, hand2, keep1, keep2, starter="KC", **kw):
    """After laying away: P1 keeps `keep1` (the other two of `hand1` go to the crib)."""
    s = deal(hand1, hand2, starter, **kw)
    away1 = [x for x in hand1.split() if x not in keep1.split()]
    away2 = [x for x in hand2.split() if x not in keep2.split()]
    lay_away(s, *away1, *away2)
    return s


def test_fifteen_and_a_pair_score_two_each():
    s = playing("7C 8D 2H 3S KD KH", "8S 8H 7D 6C KS QS", "7C 8D 2H 3S", "8S 8H 7D 6C")
    play(s, "8S")  # P2 leads
    assert points(s) == (0, 0)
    play(s, "7C")  # 15
    assert points(s) == (2, 0)
    play(s, "7D")  # 22, a pair
    assert points(s) == (2, 2)


def test_three_of_a_kind_scores_six():
    s = playing("8C 8D 2H 3S KD KH", "8S 8H 7D 6C KS QS", "8C 8D 2H 3S", "8S 8H 7D 6C")
    play(s, "8S", "8C")  # a pair
    assert points(s) == (2, 0)
    play(s, "8H")  # three of a kind
    assert points(s) == (2, 6)


def test_the_count_may_not_pass_31_and_a_player_who_cannot_play_says_go():
    s = playing("8C 8D 2H 3S KD KH", "8S 8H 7D 6C KS QS", "8C 8D 2H 3S", "8S 8H 7D 6C")
    play(s, "8S", "8C", "8H")
    at(s, 0, "play", {f"play {c('2H')}", f"play {c('3S')}"})  # 24: an 8 would make 32
    play(s, "3S")  # 27
    at(s, 1, "play", {"pass"})  # P2 holds the 7 and 6: go
    play(s, "pass")
    at(s, 0, "play", {f"play {c('2H')}"})  # P1 plays on
    play(s, "2H")  # 29
    at(s, 1, "play", {"pass"})
    play(s, "pass")
    at(s, 0, "play", {"pass"})
    play(s, "pass")  # neither can play: 1 for the go to P1, the last to play
    assert points(s) == (2 + 1, 6)
    assert cards_in(s, "pile") == [] and s.actor == 1  # the count starts again, P2 first


def test_four_of_a_kind_scores_twelve():
    s = playing("2C 2D 5H 9S KD KH", "2S 2H 7D 6C KS QS", "2C 2D 5H 9S", "2S 2H 7D 6C")
    play(s, "2S", "2C", "2H", "2D")
    assert points(s) == (2 + 12, 6)


def test_a_run_in_any_order_and_the_longest_run():
    s = playing("4C 6D 9H 9S KD KH", "5S 3H 7D AC KS QS", "4C 6D 9H 9S", "5S 3H 7D AC")
    play(s, "5S", "4C", "3H")  # 5 4 3: a run of three
    assert points(s) == (0, 3)
    play(s, "6D")  # 5 4 3 6: four
    assert points(s) == (4, 3)
    play(s, "7D")  # 5 4 3 6 7: five, count 25
    assert points(s) == (4, 8)


def test_thirty_one_scores_two_and_starts_the_count_again():
    s = playing("KC QD 2H 9S 4D 4H", "KS QS AD 5C 8D 8H", "KC QD 2H 9S", "KS QS AD 5C", starter="7S")
    play(s, "KS", "KC")  # 20, a pair of Kings
    assert points(s) == (2, 0)
    play(s, "AD")  # 21
    at(s, 0, "play", {f"play {c('QD')}", f"play {c('2H')}", f"play {c('9S')}"})
    play(s, "QD")  # 31: 2
    assert points(s) == (4, 0) and cards_in(s, "pile") == [] and s.actor == 1


def test_the_last_card_scores_one():
    s = playing("AC 2D KH 9S 4D 4H", "3S 5S 6D 7C 8D 8H", "AC 2D KH 9S", "3S 5S 6D 7C")
    play(s, "3S", "AC", "5S", "2D", "6D")  # 3 1 5 2 6: 17
    before = points(s)
    play(s, "9S")  # 26
    play(s, "pass")  # P2: 7C would make 33
    play(s, "pass")  # P1: KH would make 36: go, 1 to P1
    assert points(s)[0] == before[0] + 1
    play(s, "7C", "KH")  # 7 then 17
    play(s, "pass", "pass")  # P2 is out of cards, then P1: the last card, 1 to P1
    assert fired_counts(s)["show"] == 1


# ================================================================== the show

@pytest.mark.parametrize("hand, starter, points", [
    ("5C 5H 6S 4D", "TH", 16),  # four fifteens, a pair, a double run of three
    ("5C 5D 5H JS", "5S", 29),  # the best hand: eight fifteens, six pairs, nobs
    ("AC 2C 3C 4C", "5C", 5 + 5 + 2),  # a run of five, a five-card flush, one fifteen
    ("AC 2C 3C 4C", "KD", 4 + 4 + 4),  # a run of four, a four-card flush, A-4-K and 2-3-K
    ("3C 4D 4H 5S", "5D", 2 * 2 + 4 * 3),  # two pairs and a double double run (four runs of 3)
    ("3C 4D 5H 6S", "6D", 3 * 2 + 2 + 2 * 4),  # 4-5-6 twice and 3-6-6, a pair, a double run of four
    ("JD 2C 8H QS", "4D", 1),  # nobs only
    ("JC 2C 8H QS", "4D", 0),
    ("TC QD KH 8S", "2D", 0),
])
def test_counting_a_hand(hand, starter, points):
    s = new_game(rules(), 2, seed=1)
    assert evaluate(s, "show", cs(hand), c(starter)) == points


def test_the_show_counts_both_hands_and_the_crib_for_the_dealer():
    # P1 deals; P2 plays first. P2 keeps 5 5 T J (J of the starter's suit), P1 keeps 2 3 4 K
    s = playing("2C 3D 4H KS 9C 9D", "5C 5H TD JS AH AS", "2C 3D 4H KS", "5C 5H TD JS", starter="6S")
    moves = ["5C", "2C", "5H", "3D", "TD"]  # 5 7 12 15 25
    play(s, *moves)
    assert s.actor == 0
    play(s, "4H")  # 29
    play(s, "pass", "pass")  # JS and KS: go for P1
    play(s, "JS", "KS")
    play(s, "pass", "pass")
    assert fired_counts(s)["show"] == 1
    hand1 = evaluate(s, "show", cs("2C 3D 4H KS"), c("6S"))
    hand2 = evaluate(s, "show", cs("5C 5H TD JS"), c("6S"))
    crib_ = evaluate(s, "show", cs("9C 9D AH AS"), c("6S"))
    # P1: K-2-3 and 2-3-4-6, the run 2-3-4; P2: four fifteens, a pair, nobs; the crib: 9-6 twice, two pairs
    assert (hand1, hand2, crib_) == (7, 11, 8)
    # pegging: P1 15 for 2, a go and the last card; then the show, the crib to P1
    assert points(s) == (2 + 1 + 1 + 7 + 8, 11)
    assert len(cards_in(s, "hand", 0)) == 6  # the next deal has started, P2 dealing


def test_a_crib_with_four_cards_of_one_suit_counts_a_flush():
    s = new_game(rules(), 2, seed=1)
    assert evaluate(s, "show", cs("2H 6H 8H QH"), c("KS")) == 4


# ================================================================== the end

def test_reaching_121_in_the_play_ends_the_game_at_once():
    s = playing("7C 8D 2H 3S KD KH", "8S 8H 7D 6C KS QS", "7C 8D 2H 3S", "8S 8H 7D 6C", score=(119, 100))
    play(s, "8S", "7C")  # 15 for 2: 121
    assert s.finished and points(s) == (121, 100)
    assert outcome(s).scores == (1121, -900) and outcome(s).winners == (0,)


def test_when_both_pass_121_at_the_show_the_first_player_wins():
    s = playing("2C 3D 4H KS 9C 9D", "5C 5H TD JS AH AS", "2C 3D 4H KS", "5C 5H TD JS", starter="6S", score=(102, 118))
    for m in ("5C", "2C", "5H", "3D", "TD", "4H", "pass", "pass", "JS", "KS", "pass", "pass"):
        play(s, m)
    assert s.finished
    p1, p2 = points(s)
    assert p1 >= 121 and p2 >= 121 and outcome(s).winners == (0,)
    assert outcome(s).scores == (p1 + 1000, p2 - 1000)


def test_the_game_ends_without_a_winner_after_the_last_deal():
    s = playing("2C 3D 4H KS 9C 9D", "5C 5H TD JS AH AS", "2C 3D 4H KS", "5C 5H TD JS", starter="6S",
                deals=99)
    for m in ("5C", "2C", "5H", "3D", "TD", "4H", "pass", "pass", "JS", "KS", "pass", "pass"):
        play(s, m)
    assert s.finished and fired_counts(s)["round_limit"] == 1
    assert outcome(s).scores == points(s)


# ================================================================== the same game as OpenSpiel's

def _pyspiel():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("cribbage")
    assert game.get_parameters() == {"players": 2, "winner_bonus_reward": 1000.0}
    return pyspiel, game


def _move(s, a: int):
    """OpenSpiel's move as ours: a card played, `pass`, or the two cards laid away."""
    text = s.action_to_string(s.current_player(), a)
    if text == "Pass":
        return "pass"
    cards = [c(x) for x in text.split()[1:]]
    return tuple(cards) if len(cards) == 2 else f"play {cards[0]}"


def openspiel_deals(pyspiel, game, rng, cards_a_deal: int = 13, move=None):
    """Random chance and random moves, deal by deal: (the points before the deal, the cards chance
    dealt, every decision as (player, legal moves, move)); and the returns. `cards_a_deal`: the
    chance outcomes of one deal (the players' cards and the starter; 13 with two players);
    `move(s, action, decisions so far this deal)` names OpenSpiel's move as ours (_move by default)."""
    s = game.new_initial_state()
    deals, chance = [], 0
    while not s.is_terminal():
        if s.is_chance_node():
            if chance % cards_a_deal == 0:
                deals.append((tuple(int(x) for x in s.returns()), [], []))
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            deals[-1][1].append(c(s.action_to_string(pyspiel.PlayerId.CHANCE, a).split()[1]))
            chance += 1
            s.apply_action(a)
            continue
        legal = s.legal_actions()
        a = rng.choice(legal)
        done = len(deals[-1][2])
        ours = (lambda x: _move(s, x)) if move is None else (lambda x: move(s, x, done))
        deals[-1][2].append((s.current_player(), {ours(x) for x in legal}, ours(a)))
        s.apply_action(a)
    return deals, tuple(s.returns())


def _replay_decision(s, p, moves, chosen) -> None:
    if isinstance(chosen, tuple):  # two cards to the crib: ours are two moves
        cards = {x for pair in moves for x in pair}
        assert {frozenset(m) for m in moves} == {frozenset(m) for m in combinations(cards, 2)}  # any two
        for x in chosen:
            assert (s.actor, s.rule, legal(s)) == (p, "lay_away", {f"lay_away {y}" for y in cards})
            apply(s, f"lay_away {x}")
            cards.remove(x)
        return
    assert (s.actor, legal(s)) == (p, moves)
    apply(s, chosen)


# the default run replays 100 of them; the slow tests all 300
@pytest.mark.parametrize("games", [100, pytest.param(300, marks=pytest.mark.slow)])
def test_openspiels_random_games_replayed_deal_by_deal(games):
    pyspiel, game = _pyspiel()
    rng = random.Random(40)
    for _ in range(games):
        deals, returns = openspiel_deals(pyspiel, game, rng)
        for i, (score, dealt, decisions) in enumerate(deals):
            s = position(rules(), 2, "game", zones={"stock": list(reversed(dealt))}, shuffle=False,
                         vars={"dealer": 1 - i % 2, "deals": i, "points": {0: score[0], 1: score[1]}})
            for p, moves, chosen in decisions:
                _replay_decision(s, p, moves, chosen)
            if i + 1 < len(deals):
                assert points(s) == deals[i + 1][0]
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == returns


OPENSPIEL_GAMES = 1000
OUR_GAMES = 600


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    pyspiel, game = _pyspiel()
    rng = random.Random(20240602)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        # a pair laid away is one of their actions and two of our moves
        s, n = random_game(game, rng, lambda s, a: 2 if len(s.action_to_string(s.current_player(), a).split()) == 3 else 1)
        theirs.append((n, tuple(s.returns())))
    ours = [(n, returns(s)) for s, n in random_games(rules(), 2, OUR_GAMES, random.Random(10))]
    stats = [("decisions a game", lambda g: g[0])]
    stats += mean_returns(2, at=1)
    stats += [("share won by seat 1", lambda g: 1.0 if g[1][0] > g[1][1] else 0.0)]
    assert_same_statistics(ours, theirs, stats)
