"""Goofspiel (rulesets/classic/goofspiel.cards) against OpenSpiel's `goofspiel` with its default
parameters (2 players, 13 cards, points_order random, returns_type win_loss, num_turns = num_cards).

First one small position per rule; then OpenSpiel's own random games replayed bid by bid in our
ruleset (the same legal bids, the same prizes won, the same returns); then the equivalence with
random players on both sides, the same statistics within sampling error.

Cards: the Diamonds are the prizes, the Clubs are P1's bids, the Hearts P2's, the Spades P3's; a
card counts its face value (Ace 1 ... King 13), which is OpenSpiel's action + 1. Positions are
built with `engine.position` (seats 0-based); cards not placed stay out of play in `box`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics

from interpreter.engine import (apply, cards_in, fired_counts, in_secret, legal_moves, new_game, observe, outcome,
                                position)

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "goofspiel.cards"
RANKS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]
BID_SUITS = ["Clubs", "Hearts", "Spades"]


rules = loader(RULESET)


def card(value: int, suit: str) -> str:
    return f"{RANKS[value - 1]}-{suit}"


def bids_of(s, seat: int) -> set[str]:
    return {str(m) for m in legal_moves(s) if m.player == seat}


def bid(s, seat: int, value: int) -> None:
    name = f"bid {card(value, BID_SUITS[seat])}"
    apply(s, next(m for m in legal_moves(s) if m.player == seat and str(m) == name))


def table(hands, prizes, *, won=None, players=2, options=None):
    """A position at the start of a round: `hands[seat]` as values, `prizes` as values from the
    bottom up (the last is turned up first), `won[seat]` the prizes already won."""
    zones = {"hand": {p: [card(v, BID_SUITS[p]) for v in h] for p, h in enumerate(hands)},
             "prizes": [card(v, "Diamonds") for v in prizes]}
    if won:
        zones["won"] = {p: [card(v, "Diamonds") for v in w] for p, w in enumerate(won)}
    return position(rules(), players, "play", zones=zones, vars={}, options=options, rest="box")


# ================================================================== the deal

@pytest.mark.parametrize("seed", range(4))
def test_the_deal_gives_each_player_a_suit_and_shows_a_random_prize(seed):
    s = new_game(rules(), 2, seed=seed)
    assert cards_in(s, "hand", 0) == [card(v, "Clubs") for v in range(1, 14)]
    assert cards_in(s, "hand", 1) == [card(v, "Hearts") for v in range(1, 14)]
    assert len(cards_in(s, "prize")) == 1 and len(cards_in(s, "prizes")) == 12
    assert all(c.endswith("-Diamonds") for c in cards_in(s, "prize") + cards_in(s, "prizes"))
    assert len(cards_in(s, "box")) == 13  # the Spades stay out of play with two players
    assert s.rule == "sealed_bid" and in_secret(s)


def test_the_first_prize_is_random():
    firsts = {cards_in(new_game(rules(), 2, seed=seed), "prize")[0] for seed in range(60)}
    assert len(firsts) >= 10


@pytest.mark.parametrize("order,first", [("descending", "King-Diamonds"), ("ascending", "Ace-Diamonds")])
def test_the_prize_order_is_an_option(order, first):
    s = new_game(rules(), 2, seed=0, options={"prize_order": order})
    assert cards_in(s, "prize") == [first]


def test_fewer_cards_with_the_option_num_cards():
    s = new_game(rules(), 2, seed=0, options={"num_cards": 5})
    assert cards_in(s, "hand", 0) == [card(v, "Clubs") for v in range(1, 6)]
    assert len(cards_in(s, "prize") + cards_in(s, "prizes")) == 5


# ================================================================== the bids

def test_the_prize_is_shown_to_everyone_and_each_bids_from_their_own_hand():
    s = table([[1, 5, 9], [2, 5, 13]], [3, 7, 12])
    assert cards_in(s, "prize") == ["Queen-Diamonds"]
    for seat in (0, 1):
        assert observe(s, seat)["zones"]["prize"] == {"cards": ["Queen-Diamonds"]}
    assert bids_of(s, 0) == {"bid Ace-Clubs", "bid 5-Clubs", "bid 9-Clubs"}
    assert bids_of(s, 1) == {"bid 2-Hearts", "bid 5-Hearts", "bid King-Hearts"}


def test_a_sealed_bid_is_hidden_from_the_other_seat_until_both_have_bid():
    s = table([[1, 5, 9], [2, 5, 13]], [3, 7, 12])
    seen = lambda: {k: v for k, v in observe(s, 1).items() if k != "to_move"}
    before = seen()
    bid(s, 0, 9)
    assert seen() == before  # P2 sees nothing of P1's bid (only that P2 is now the one to bid)
    assert observe(s, 1)["zones"]["bid"]["P1"] == {"cards": []}
    assert in_secret(s) and bids_of(s, 0) == set() and bids_of(s, 1) == {"bid 2-Hearts", "bid 5-Hearts", "bid King-Hearts"}
    bid(s, 1, 2)
    # both have bid: both bids are turned up and spent, and the round is settled
    assert set(cards_in(s, "spent")) == {"9-Clubs", "2-Hearts"}
    assert set(observe(s, 1)["zones"]["spent"]["cards"]) == {"9-Clubs", "2-Hearts"}


def test_the_higher_bid_takes_the_prize():
    s = table([[1, 5, 9], [2, 5, 13]], [3, 7, 12])
    bid(s, 0, 1)
    bid(s, 1, 13)
    assert cards_in(s, "won", 1) == ["Queen-Diamonds"] and cards_in(s, "won", 0) == []
    assert fired_counts(s)["award"] == 1
    assert cards_in(s, "prize") == ["7-Diamonds"]  # the next round's prize


def test_a_tied_bid_discards_the_prize():
    s = table([[1, 5, 9], [2, 5, 13]], [3, 7, 12])
    bid(s, 0, 5)
    bid(s, 1, 5)
    assert cards_in(s, "won", 0) == cards_in(s, "won", 1) == []
    assert cards_in(s, "lost") == ["Queen-Diamonds"] and fired_counts(s)["tie"] == 1
    assert cards_in(s, "prize") == ["7-Diamonds"]  # not carried over


def test_with_three_players_a_tie_for_highest_discards_the_prize_even_over_a_lower_bid():
    s = table([[4, 8], [8, 2], [1, 7]], [6, 10], players=3)
    bid(s, 0, 8)
    bid(s, 1, 8)
    bid(s, 2, 7)
    assert cards_in(s, "lost") == ["10-Diamonds"]
    # then the last cards, 4, 2 and 1, are played for the 6: P1 takes it
    assert [cards_in(s, "won", p) for p in range(3)] == [["6-Diamonds"], [], []]


# ================================================================== the end

def test_the_last_card_is_played_without_a_choice_and_the_game_ends():
    s = table([[3, 9], [4, 8]], [5, 11], won=[[1], [2]])
    bid(s, 0, 9)
    bid(s, 1, 8)  # P1 takes the Jack; the 5 is then bid for with the last cards, 3 against 4
    assert s.finished and fired_counts(s)["last_bid"] == 1 and fired_counts(s)["the_end"] == 1
    assert cards_in(s, "won", 0) == ["Ace-Diamonds", "Jack-Diamonds"]
    assert cards_in(s, "won", 1) == ["2-Diamonds", "5-Diamonds"]
    assert outcome(s).scores == (12, 7) and outcome(s).winners == (0,)


def test_level_points_are_a_draw():
    s = table([[3, 9], [4, 8]], [4, 6], won=[[1], [3]])
    bid(s, 0, 9)
    bid(s, 1, 8)  # P1 takes the 6, P2 then the 4 with the last cards: 7 each
    assert s.finished and outcome(s).scores == (7, 7) and outcome(s).winners == (0, 1)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("goofspiel")
    assert game.get_parameters() == {"egocentric": False, "imp_info": False, "num_cards": 13, "num_turns": -1,
                                     "players": 2, "points_order": "random", "returns_type": "win_loss"}
    return game


def _random_openspiel_game(game, rng):
    """Random chance and random bids; the state, the point cards turned up and every joint bid."""
    s = game.new_initial_state()
    prizes, rounds = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            prizes.append(a + 1)
            s.apply_action(a)
        else:
            legal = [s.legal_actions(p) for p in range(2)]
            joint = [rng.choice(legal[p]) for p in range(2)]
            rounds.append(([{a + 1 for a in legal[p]} for p in range(2)], [a + 1 for a in joint]))
            s.apply_actions(joint)
    return s, prizes, rounds


def _points(state) -> tuple[int, ...]:
    line = next(x for x in str(state).splitlines() if x.startswith("Points:"))
    return tuple(int(x) for x in line.split()[1:])


def _returns(winners, n) -> tuple[float, ...]:
    # OpenSpiel's win_loss: a draw when everyone is level, else +1 shared by the winners
    # and -1 shared by the losers
    if len(winners) == n:
        return (0.0,) * n
    return tuple(1 / len(winners) if p in winners else -1 / (n - len(winners)) for p in range(n))


def test_openspiels_random_games_replayed_bid_by_bid():
    game = _pyspiel_game()
    rng = random.Random(11)
    for _ in range(150):
        theirs, prizes, rounds = _random_openspiel_game(game, rng)
        # all thirteen point cards come out, the last one without a chance node
        last = (set(range(1, 14)) - set(prizes)).pop()
        s = table([range(1, 14), range(1, 14)], list(reversed(prizes + [last])))
        for legal, joint in rounds:
            assert [{int(RANKS.index(m.split()[1].split("-")[0]) + 1) for m in bids_of(s, p)} for p in (0, 1)] == legal
            for p in (0, 1):
                bid(s, p, joint[p])
        assert s.finished
        assert outcome(s).scores == _points(theirs)
        assert _returns(outcome(s).winners, 2) == tuple(theirs.returns())


OPENSPIEL_GAMES = 4000
OUR_GAMES = 3000


def _openspiel_games():
    game = _pyspiel_game()
    rng = random.Random(20240531)
    out = []
    for _ in range(OPENSPIEL_GAMES):
        s, _, _ = _random_openspiel_game(game, rng)
        out.append((tuple(s.returns()), _points(s)))
    return out


def _our_games():
    rng = random.Random(8)
    out = []
    for seed in range(OUR_GAMES):
        s = new_game(rules(), 2, seed=seed)
        while not s.finished:
            moves = legal_moves(s)
            seat = moves[0].player  # each seat in turn picks a random bid among its own
            apply(s, rng.choice([m for m in moves if m.player == seat]))
        o = outcome(s)
        out.append((_returns(o.winners, 2), tuple(o.scores)))
    return out


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    # Seat i of OpenSpiel (player i) is our seat i (P{i+1}). A draw is a game with every return 0.
    theirs = _openspiel_games()
    ours = _our_games()
    stats = [(f"seat {i + 1} mean return", lambda g, i=i: g[0][i]) for i in range(2)]
    stats += [(f"seat {i + 1} wins", lambda g, i=i: 1.0 if g[0][i] > 0 else 0.0) for i in range(2)]
    stats += [("share of draws", lambda g: 1.0 if g[0] == (0.0, 0.0) else 0.0)]
    stats += [(f"seat {i + 1} mean points", lambda g, i=i: g[1][i]) for i in range(2)]
    assert_same_statistics(ours, theirs, stats)
