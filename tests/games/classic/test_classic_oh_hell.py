"""Oh Hell (rulesets/classic/oh-hell.cards) against OpenSpiel's `oh_hell` with its default
parameters (3 players, 4 suits of 13 cards, num_tricks_fixed -1: chance picks the number of
tricks, no off-bid penalty, 1 point a trick).

First one small position per rule; then OpenSpiel's own random games replayed move by move in our
ruleset (the same number of tricks, dealer, deal and trump card, the same legal bids and cards at
every decision, the same returns), with the default parameters and with others (more players,
a fixed number of tricks, the off-bid penalty, more points a trick); then random play on both sides,
the same statistics within sampling error.

Seats: OpenSpiel's players 0..n-1 are our P1..Pn. Its cards are written suit first ('SA', 'H7',
'CT'), its suits in the order Clubs, Diamonds, Spades, Hearts; its bids '0'..'17' are our
`bid 0` .. `bid 17`. Its chance picks the number of tricks (1 to 17), then the dealer, then the
cards, dealt round the table from player 0, then the trump card."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, mean_returns, returns
from openspiel_random import dealt_round, random_decisions

from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "oh-hell.cards"
RANK = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


rules = loader(RULESET)


def c(short: str) -> str:
    """'SA' -> 'Ace-Spades', 'HT' -> '10-Hearts' (OpenSpiel's card strings, suit first)."""
    return f"{RANK.get(short[1], short[1])}-{SUIT[short[0]]}"


def moves_of(s, seat: int) -> set[str]:
    """A seat's legal moves: bids as 'bid N', cards by name."""
    return {str(m) if str(m).startswith("bid") else str(m).split()[-1] for m in legal_moves(s) if m.player == seat}


def do(s, seat: int, name: str) -> None:
    apply(s, next(m for m in legal_moves(s) if m.player == seat and (str(m) == name or str(m).split()[-1] == name)))


def table(hands, trump, dealer, *, phase="bidding", bids=None, tricks=None, options=None):
    """A position after the deal (or, phase 'play', with `bids`, at the opening lead): `hands[seat]`
    as OpenSpiel card strings, `trump` the card turned up, `tricks[seat]` tricks already taken,
    made up of cards nobody holds."""
    n = len(hands)
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}, "upcard": [c(trump)]}
    num_tricks = len(hands[0])
    if tricks:
        held = {c(x) for h in hands for x in h} | {c(trump)}
        spare = [f"{r}-{s}" for s in SUIT.values() for r in list(range(2, 11)) + ["Jack", "Queen", "King", "Ace"]
                 if f"{r}-{s}" not in held]
        zones["won"] = {}
        for p, k in enumerate(tricks):
            zones["won"][p], spare = spare[:n * k], spare[n * k:]
        num_tricks += sum(tricks)
    vars = {"num_tricks": num_tricks, "dealer": dealer, "trumps": SUIT[trump[0]]}
    if bids:
        vars["bid"] = dict(enumerate(bids))
    return position(rules(), n, phase, zones=zones, vars=vars, options=options, rest="stock")


# ================================================================== the deal

def test_chance_picks_the_number_of_tricks_from_1_to_17_and_the_dealer():
    sizes, dealers = Counter(), Counter()
    for seed in range(680):
        s = new_game(rules(), 3, seed=seed)
        v = public_vars(s)
        n = v["num_tricks"]
        sizes[n] += 1
        dealers[v["dealer"]] += 1
        assert [len(cards_in(s, "hand", p)) for p in range(3)] == [n] * 3
        up = cards_in(s, "upcard")
        assert len(up) == 1 and up[0].split("-")[1] == v["trumps"]
        assert len(cards_in(s, "stock")) == 52 - 3 * n - 1
        assert s.rule == "bidding"
    assert sorted(sizes) == list(range(1, 18)) and all(20 <= k <= 65 for k in sizes.values()), sizes
    assert sorted(dealers) == ["P1", "P2", "P3"] and all(180 <= k <= 275 for k in dealers.values()), dealers


@pytest.mark.parametrize("players,most", [(4, 12), (5, 10), (6, 8), (7, 7)])
def test_more_players_get_fewer_cards(players, most):
    sizes = {public_vars(new_game(rules(), players, seed=seed))["num_tricks"] for seed in range(40 * most)}
    assert sizes == set(range(1, most + 1))


def test_the_number_of_tricks_is_an_option():
    for players, fixed, dealt in [(3, 5, 5), (3, 17, 17), (4, 17, 12), (7, 9, 7)]:
        s = new_game(rules(), players, seed=3, options={"num_tricks_fixed": fixed})
        assert public_vars(s)["num_tricks"] == dealt
        assert [len(cards_in(s, "hand", p)) for p in range(players)] == [dealt] * players


# ================================================================== the bidding

HANDS = [["C2", "CA", "H3"], ["D2", "DK", "S4"], ["S2", "SA", "H9"]]


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_player_after_the_dealer_bids_first_and_the_dealer_last(dealer):
    s = table(HANDS, "HK", dealer)
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    for k, p in enumerate(order):
        assert {m.player for m in legal_moves(s)} == {p}
        if k < 2:
            assert moves_of(s, p) == {"bid 0", "bid 1", "bid 2", "bid 3"}
            do(s, p, "bid 1")
    assert moves_of(s, dealer) == {"bid 0", "bid 2", "bid 3"}  # 1 + 1 + 1 would make 3
    do(s, dealer, "bid 0")
    assert public_vars(s)["bid"] == {f"P{(dealer + 1) % 3 + 1}": 1, f"P{(dealer + 2) % 3 + 1}": 1, f"P{dealer + 1}": 0}
    assert s.rule == "lead" and {m.player for m in legal_moves(s)} == {(dealer + 1) % 3}


def test_the_dealer_bids_freely_when_the_bids_are_already_over():
    s = table(HANDS, "HK", 2)
    do(s, 0, "bid 3")
    do(s, 1, "bid 2")
    assert moves_of(s, 2) == {"bid 0", "bid 1", "bid 2", "bid 3"}


# ================================================================== the play

MIXED = [["C2", "C9", "D4", "H3"],
         ["C3", "H5", "HA", "D2"],
         ["CA", "D3", "D9", "S9"]]


def test_any_card_may_be_led_trumps_included():
    s = table(MIXED, "HK", 2, phase="play", bids=[1, 1, 1])
    assert moves_of(s, 0) == {c(x) for x in MIXED[0]}


def test_following_suit_is_compulsory_and_a_void_player_plays_anything():
    s = table(MIXED, "HK", 2, phase="play", bids=[1, 1, 1])
    do(s, 0, "4-Diamonds")
    assert moves_of(s, 1) == {"2-Diamonds"}
    do(s, 1, "2-Diamonds")
    assert moves_of(s, 2) == {"3-Diamonds", "9-Diamonds"}
    s = table(MIXED, "HK", 2, phase="play", bids=[1, 1, 1])
    do(s, 0, "3-Hearts")
    assert moves_of(s, 1) == {"5-Hearts", "Ace-Hearts"}
    do(s, 1, "5-Hearts")
    assert moves_of(s, 2) == {c(x) for x in MIXED[2]}  # no heart


@pytest.mark.parametrize("trump,second,third,winner", [
    ("HK", "D5", "CA", 2),  # no trump played: the highest club, not the higher diamond
    ("HK", "H5", "CA", 1),  # a trump wins
    ("SK", "H5", "S9", 2),  # spades trumps: the 9 of Spades beats the 5 of Hearts and the clubs
    ("DK", "C3", "D3", 2),  # diamonds trumps
])
def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led(trump, second, third, winner):
    s = table([["C2"], [second], [third]], trump, 2, phase="play", bids=[1, 1, 1])
    for seat, x in [(0, "C2"), (1, second), (2, third)]:
        do(s, seat, c(x))
    assert s.finished and len(cards_in(s, "won", winner)) == 3


def test_the_winner_of_a_trick_leads_the_next():
    s = table(MIXED, "HK", 2, phase="play", bids=[1, 1, 1])
    for seat, x in [(0, "D4"), (1, "D2"), (2, "D9")]:
        do(s, seat, c(x))
    assert s.rule == "lead" and public_vars(s)["leader"] == "P3"
    assert moves_of(s, 2) == {c(x) for x in ["CA", "D3", "S9"]}


def test_a_higher_trump_overtrumps():
    hands = [["C2"], ["H5"], ["HA"]]
    s = table(hands, "HK", 2, phase="play", bids=[0, 0, 0])
    for seat, x in [(0, "C2"), (1, "H5"), (2, "HA")]:
        do(s, seat, c(x))
    assert s.finished and len(cards_in(s, "won", 2)) == 3


# ================================================================== the score

def _score(bids, tricks, winner, options=None):
    """Tricks taken before the last one, which `winner` takes with the Ace of Hearts (trumps)."""
    hands = [["C2"], ["C3"], ["C4"]]
    hands[winner] = ["HA"]
    s = table(hands, "HK", 2, phase="play", bids=bids, tricks=tricks, options=options)
    for seat in range(3):
        do(s, seat, c(hands[seat][0]))
    assert s.finished and fired_counts(s)["the_end"] == 1
    return outcome(s)


def test_a_point_a_trick_and_ten_for_the_bid_made():
    o = _score([2, 0, 3], [1, 2, 1], 0)  # tricks 2, 2, 1
    assert o.scores == (12, 2, 1) and o.winners == (0,)


def test_points_per_trick_and_the_off_bid_penalty():
    assert _score([2, 0, 3], [1, 2, 1], 0, {"points_per_trick": 3}).scores == (16, 6, 3)
    assert _score([2, 0, 3], [1, 2, 1], 0, {"off_bid_penalty": True}).scores == (12, -2, -2)
    assert _score([2, 0, 3], [1, 2, 1], 0, {"off_bid_penalty": True, "points_per_trick": 2}).scores == (14, -4, -4)


# ================================================================== the same game as OpenSpiel's

DEFAULTS = {"num_cards_per_suit": 13, "num_suits": 4, "num_tricks_fixed": -1, "off_bid_penalty": False,
            "players": 3, "points_per_trick": 1}


def _pyspiel_game(**params):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("oh_hell", params)
    assert game.get_type().parameter_specification == DEFAULTS
    if not params:
        assert game.get_parameters() == DEFAULTS
    return game


def _our_options(params):
    """OpenSpiel's parameters as our options (its num_tricks_fixed -1 is our 0)."""
    options = {k: v for k, v in params.items() if k != "players"}
    if options.get("num_tricks_fixed") == -1:
        options["num_tricks_fixed"] = 0
    return options or None


def _random_openspiel_game(game, rng, n):
    """Random chance and random moves: the state, the number of tricks, the dealer, the deal by
    seat, the trump card and every decision as (player, legal moves, move chosen), named as ours."""
    s = game.new_initial_state()
    num_tricks = rng.choice([a for a, _ in s.chance_outcomes()])
    s.apply_action(num_tricks)
    dealer = rng.choice([a for a, _ in s.chance_outcomes()])
    s.apply_action(dealer)
    hands = dealt_round(s, rng, n, n * num_tricks)  # OpenSpiel deals round the table from player 0
    trump = rng.choice([a for a, _ in s.chance_outcomes()])
    trump_card = s.action_to_string(trump)
    s.apply_action(trump)
    decisions = random_decisions(s, rng, lambda s, x: f"bid {s.action_to_string(x)}" if x >= 52 else c(s.action_to_string(x)))
    return s, num_tricks, dealer, hands, trump_card, decisions


def replayed(s, num_tricks, decisions):
    """OpenSpiel's game (its number of tricks, its decisions) made in our game `s`, dealt as it
    dealt: at each decision, the same seat has the same legal bids or cards; ours ends there."""
    assert public_vars(s)["num_tricks"] == num_tricks
    for p, legal, chosen in decisions:
        assert moves_of(s, p) == legal
        do(s, p, chosen)
    assert s.finished
    return s


@pytest.mark.parametrize("params,games", [
    ({}, 600),
    ({"players": 4}, 100),
    ({"players": 5, "off_bid_penalty": True}, 100),
    ({"players": 7, "points_per_trick": 2}, 100),
    ({"num_tricks_fixed": 4}, 100),
])
def test_openspiels_random_games_replayed_move_by_move(params, games):
    game = _pyspiel_game(**params)
    n = game.num_players()
    rng = random.Random(30 + n)
    for _ in range(games):
        theirs, num_tricks, dealer, hands, trump, decisions = _random_openspiel_game(game, rng, n)
        s = replayed(table(hands, trump, dealer, options=_our_options(params)), num_tricks, decisions)
        assert returns(s) == tuple(theirs.returns())


OPENSPIEL_GAMES = 3000
OUR_GAMES = 3000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    """The chance nodes too: the number of tricks, the dealer and the deal are ours on one side
    and OpenSpiel's on the other."""
    game = _pyspiel_game()
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, num_tricks, _, _, _, decisions = _random_openspiel_game(game, rng, 3)
        theirs.append((tuple(s.returns()), len(decisions), num_tricks))
    ours = []
    rng = random.Random(8)
    for seed in range(OUR_GAMES):
        s = new_game(rules(), 3, seed=seed)
        num_tricks = public_vars(s)["num_tricks"]
        n = 0
        while not s.finished:
            apply(s, rng.choice(legal_moves(s)))
            n += 1
        ours.append((returns(s), n, num_tricks))
    stats = mean_returns(3)
    stats += [("decisions a game", lambda g: g[1]), ("tricks a game", lambda g: g[2]),
              ("bids made by seat 1", lambda g: 1.0 if g[0][0] >= 10 else 0.0)]
    assert_same_statistics(ours, theirs, stats)
