"""Tarok (rulesets/classic/tarok.cards) against OpenSpiel's `tarok` with its default parameters
(three players).

First one small position per rule (the deal, the auction, the talon, leading and following in
the positive and the negative contracts, taking a trick, the emperor's trick, colour valat, the
scores and their OpenSpiel quirks); then OpenSpiel's own random games replayed move by move in
our ruleset (the same hands and talon, read back from OpenSpiel's state, the same legal moves at
every decision, the same returns), once with random bids and once steered to every contract;
then random play on both sides, the same statistics within sampling error.

Seats: OpenSpiel's players 0, 1, 2 are our P1..P3. Moves map one to one: a bid is our action of
that contract's name ('Pass' -> `pass`, 'Solo without' -> `solo_without` ...), 'Talon set n' is
our `take n`, a card is `discard <card>` while the declarer lays cards away and `play <card>` in
a trick. OpenSpiel's card actions 0..53 are the Pagat, II..XX, the Mond and the Skis, then
Hearts, Diamonds (4, 3, 2, 1, Jack, Knight, Queen, King), Spades and Clubs (7 .. 10, Jack ...
King). Its deal is a single dummy chance move; the cards it dealt are read with player_cards()
and talon()."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, mean_returns, random_games

from scenario import cards_of, moves_of, play as do
from interpreter.engine import cards_in, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "tarok.cards"
TAROKS = ["Pagat"] + [str(n) for n in range(2, 21)] + ["Mond", "Skis"]
COURTS = ["Jack", "Knight", "Queen", "King"]
DECK = ([f"{r}-Taroks" for r in TAROKS]
        + [f"{r}-{s}" for s in ("Hearts", "Diamonds") for r in ["4", "3", "2", "1"] + COURTS]
        + [f"{r}-{s}" for s in ("Spades", "Clubs") for r in ["7", "8", "9", "10"] + COURTS])
BIDS = {0: "pass", 1: "klop", 2: "three", 3: "two", 4: "one", 8: "beggar", 9: "solo_without",
        10: "open_beggar", 11: "colour_valat", 12: "valat"}
CONTRACT = {v: k for k, v in BIDS.items()}


rules = loader(RULESET)


def c(x) -> str:
    """A card by OpenSpiel's action number, or a short name: 'T1' (Pagat) .. 'T21' (Mond),
    'T22' (Skis), 'HK' (King of Hearts), 'S7', 'DN' (Knight of Diamonds), 'CJ'."""
    if isinstance(x, int):
        return DECK[x]
    if "-" in x:
        return x
    if x[0] == "T":
        return f"{TAROKS[int(x[1:]) - 1]}-Taroks"
    suit = {"H": "Hearts", "D": "Diamonds", "S": "Spades", "C": "Clubs"}[x[0]]
    rank = {"J": "Jack", "N": "Knight", "Q": "Queen", "K": "King"}.get(x[1:], x[1:])
    return f"{rank}-{suit}"


def play(s, *cards: str) -> None:
    for x in cards:
        do(s, f"play {c(x)}")


def auction(hands, talon):
    """A position at the auction: `talon` in OpenSpiel's order (its first card on top)."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}, "talon": [c(x) for x in reversed(talon)]}
    return position(rules(), 3, "bidding", zones=zones, rest="stock")


def game(hands, contract, *, declarer=0, talon=(), won=None, laid=None, mond_lost=None):
    """A position at the opening lead of `contract` (a bid's name)."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}, "talon": [c(x) for x in reversed(talon)]}
    if won:
        zones["won"] = {p: [c(x) for x in w] for p, w in enumerate(won)}
    if laid:
        zones["laid"] = {p: [c(x) for x in w] for p, w in enumerate(laid)}
    vars = {"contract": CONTRACT[contract], "declarer": declarer, "mond_lost": mond_lost}
    return position(rules(), 3, "play", zones=zones, vars=vars, rest="stock")


# ================================================================== the deal and the auction

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_sixteen_cards_each_six_in_the_talon_and_a_tarok_for_everyone(seed):
    s = new_game(rules(), 3, seed=seed)
    hands = [cards_in(s, "hand", p) for p in range(3)]
    assert [len(h) for h in hands] == [16] * 3 and len(cards_in(s, "talon")) == 6
    assert all(any(x.endswith("-Taroks") for x in h) for h in hands)
    # the second player speaks first, and may not bid klop or three
    assert moves_of(s) == {m: 1 for m in ["pass", "two", "one", "beggar", "solo_without", "open_beggar",
                                          "colour_valat", "valat"]}


def test_every_deal_gives_every_player_a_tarok():
    for seed in range(100):
        s = new_game(rules(), 3, seed=seed)
        assert all(any(x.endswith("-Taroks") for x in cards_in(s, "hand", p)) for p in range(3))


def test_passes_and_bids_in_turn_and_the_last_player_left_names_the_contract():
    s = auction([["T1"], ["T2"], ["T3"]], [])
    do(s, "two")  # P2
    assert set(moves_of(s)) == {"pass", "one", "beggar", "solo_without", "open_beggar", "colour_valat", "valat"}
    assert moves_of(s)["pass"] == 2
    do(s, "one")  # P3 must go higher
    # the forehand may hold the third player's bid
    assert set(moves_of(s)) == {"pass", "one", "beggar", "solo_without", "open_beggar", "colour_valat", "valat"}
    do(s, "one")
    # the second player may not hold the forehand's bid
    assert set(moves_of(s)) == {"pass", "beggar", "solo_without", "open_beggar", "colour_valat", "valat"}
    do(s, "pass")
    do(s, "pass")  # P3
    # the forehand, alone, names the contract: its bid or a higher one, no pass
    assert moves_of(s) == {m: 0 for m in ["one", "beggar", "solo_without", "open_beggar", "colour_valat", "valat"]}
    do(s, "beggar")
    v = public_vars(s)
    assert v["declarer"] == "P1" and v["contract"] == 8
    assert s.rule == "lead" and moves_of(s) == {f"play {c('T1')}": 0}


def test_when_the_others_pass_the_forehand_may_play_klop_or_three():
    s = auction([["T1"], ["T2"], ["T3"]], [])
    do(s, "pass")
    do(s, "pass")
    assert set(moves_of(s)) == {"klop", "three", "two", "one", "beggar", "solo_without", "open_beggar",
                                "colour_valat", "valat"}
    do(s, "klop")
    assert public_vars(s)["contract"] == 1 and s.rule == "lead"


TALON = ["T21", "HK", "S7", "D4", "T5", "C8"]
HANDS = [["T1", "T2", "T3", "T4", "T6", "HJ", "H1", "DK", "DQ", "SK", "S9", "S10", "CK", "CQ", "CJ", "C9"],
         ["T7", "T8", "T9", "T10", "T11", "T12", "T13", "HQ", "HN", "H2", "DN", "DJ", "D1", "SQ", "SN", "C10"],
         ["T14", "T15", "T16", "T17", "T18", "T19", "T20", "T22", "H3", "D3", "D2", "SJ", "S8", "CN", "C7", "H4"]]


def _to_talon(contract):
    s = auction(HANDS, TALON)
    do(s, "pass")
    do(s, "pass")
    do(s, contract)
    return s


@pytest.mark.parametrize("contract,sets", [("three", 2), ("two", 3), ("one", 6)])
def test_the_talon_is_cut_into_sets_of_three_two_or_one(contract, sets):
    s = _to_talon(contract)
    assert moves_of(s) == {f"take {n}": 0 for n in range(1, sets + 1)}


def test_the_declarer_takes_a_set_and_lays_away_as_many_cards_no_tarok_and_no_king():
    s = _to_talon("two")
    do(s, "take 2")  # S7, D4
    assert {c("S7"), c("D4")} <= set(cards_in(s, "hand", 0))
    assert public_vars(s)["mond_lost"] == "P1"  # the Mond stays in the talon
    layable = {c(x) for x in HANDS[0] + ["S7", "D4"] if not x.startswith("T") and x[1:] != "K"}
    assert moves_of(s) == {f"discard {x}": 0 for x in layable}
    do(s, f"discard {c('HJ')}")
    do(s, f"discard {c('S7')}")
    assert sorted(cards_in(s, "laid", 0)) == sorted([c("HJ"), c("S7")])
    assert s.rule == "lead" and moves_of(s) == {f"play {x}": 0 for x in cards_in_hand(s, 0)}


def cards_in_hand(s, p):
    return [x for x in DECK if x in cards_in(s, "hand", p)]


def test_taking_the_mond_from_the_talon_costs_nothing():
    s = _to_talon("three")
    do(s, "take 1")
    assert public_vars(s)["mond_lost"] is None


def test_a_hand_of_taroks_and_kings_lays_away_taroks_but_never_the_trula():
    hands = [["T1", "T2", "T21", "T22", "HK"], ["T3"], ["T4"]]
    s = auction(hands, ["T5", "T6", "T7", "T8", "T9", "T10"])
    do(s, "pass")
    do(s, "pass")
    do(s, "one")
    do(s, "take 1")
    assert cards_of(s) == {c("T2"), c("T5")}


# ================================================================== following

def test_positive_contracts_follow_suit_else_play_a_tarok_else_anything():
    hands = [["H4", "S7"], ["HK", "HQ", "T2"], ["T3", "S8", "C7"]]
    s = game(hands, "solo_without")
    play(s, "H4")
    assert cards_of(s) == {c("HK"), c("HQ")}
    play(s, "HQ")
    assert cards_of(s) == {c("T3")}
    s = game([["S7", "H4"], ["HK", "HQ"], ["C7", "D4"]], "solo_without")
    play(s, "S7")
    assert cards_of(s) == {c("HK"), c("HQ")}
    play(s, "HK")
    assert cards_of(s) == {c("C7"), c("D4")}


def test_in_klop_a_player_must_beat_the_trick_if_able():
    s = game([["H3", "S7"], ["HK", "H4", "H2"], ["HQ", "H1", "T3"]], "klop")
    play(s, "H3")
    assert cards_of(s) == {c("HK"), c("H2")}  # higher than the 3; the 4 is lower
    play(s, "H2")
    assert cards_of(s) == {c("HQ"), c("H1")}
    s = game([["H3", "S7"], ["H4", "T2"], ["HQ", "T5"]], "klop")
    play(s, "H3")
    assert cards_of(s) == {c("H4")}  # no higher heart: any heart


def test_in_klop_a_tarok_must_beat_a_tarok_but_not_a_suit_card():
    s = game([["H3", "S7"], ["T5", "T9", "C7"], ["T6", "T10", "T2"]], "klop")
    play(s, "H3")
    assert cards_of(s) == {c("T5"), c("T9")}  # trumping a suit: any tarok
    play(s, "T5")
    assert cards_of(s) == {c("T6"), c("T10")}  # the second tarok must beat the first
    s = game([["H3", "S7"], ["T5", "C7"], ["H4", "H2", "T3"]], "klop")
    play(s, "H3", "T5")
    assert cards_of(s) == {c("H4"), c("H2")}  # the trick is trumped: any heart


def test_the_pagat_only_as_the_last_tarok_in_klop_and_beggar():
    s = game([["T1", "T4", "H3"], ["T2", "C7"], ["T3", "D4"]], "beggar")
    assert cards_of(s) == {c("T4"), c("H3")}  # not led while other cards are held
    s = game([["T5", "S7"], ["T1", "T3"], ["T6", "D4"]], "klop")
    play(s, "T5")
    assert cards_of(s) == {c("T3")}  # cannot beat: any tarok but the Pagat
    s = game([["T5", "S7"], ["T1", "C7"], ["T6", "D4"]], "klop")
    play(s, "T5")
    assert cards_of(s) == {c("T1")}  # the only tarok
    s = game([["T1"], ["T2"], ["T3"]], "klop")
    assert cards_of(s) == {c("T1")}  # the last card


def test_the_pagat_must_take_the_emperors_trick_in_klop():
    s = game([["T22", "S7"], ["T21", "C7"], ["T1", "T2", "T3"]], "klop")
    play(s, "T22", "T21")
    assert cards_of(s) == {c("T1")}
    play(s, "T1")
    assert set(cards_in(s, "won", 2)) >= {c("T1"), c("T21"), c("T22")}


def test_the_pagat_is_free_in_a_positive_contract():
    s = game([["T5", "S7"], ["T1", "T3"], ["T6", "D4"]], "three")
    play(s, "T5")
    assert cards_of(s) == {c("T1"), c("T3")}
    s = game([["T1", "T4", "H3"], ["T2", "C7"], ["T3", "D4"]], "three")
    assert cards_of(s) == {c("T1"), c("T4"), c("H3")}


# ================================================================== taking tricks

@pytest.mark.parametrize("contract,cards,winner", [
    ("three", ["H4", "HK", "H1"], 1),        # the King of Hearts: 4 is the lowest red card
    ("three", ["S7", "S10", "S9"], 1),       # the 10 is the highest black pip
    ("three", ["S7", "SK", "T1"], 2),        # the Pagat trumps a King
    ("three", ["T21", "T22", "T1"], 2),      # the emperor's trick
    ("three", ["T1", "T22", "T21"], 0),
    ("three", ["T20", "T22", "T21"], 1),
    ("colour_valat", ["S7", "SK", "T1"], 1),  # in colour valat a tarok does not trump a suit
    ("colour_valat", ["S7", "T22", "T21"], 0),
    ("colour_valat", ["T2", "T3", "HK"], 1),  # ... but taroks led compete
    ("colour_valat", ["T21", "T22", "T1"], 2)])
def test_taking_a_trick(contract, cards, winner):
    hands = [[x, f] for x, f in zip(cards, ["D4", "D3", "D2"])]
    s = game(hands, contract)
    play(s, *cards)
    assert {c(x) for x in cards} <= set(cards_in(s, "won", winner))
    assert public_vars(s)["leader"] == f"P{winner + 1}"


def test_in_klop_the_first_six_tricks_take_a_talon_card_each():
    hands = [["H4", "H2"], ["HK", "H1"], ["HQ", "H3"]]
    s = game(hands, "klop", talon=["C7", "C8"])
    play(s, "H4", "HK", "HQ")
    assert set(cards_in(s, "won", 1)) == {c("H4"), c("HK"), c("HQ"), c("C7")}
    assert cards_in(s, "talon") == [c("C8")]


def test_a_beggar_ends_at_the_declarers_first_trick_a_valat_at_the_opponents_first():
    s = game([["H4", "H2"], ["HK", "H1"], ["HQ", "H3"]], "beggar", declarer=1)
    play(s, "HK", "HQ", "H4")  # the declarer leads, and wins
    assert s.finished and outcome(s).scores == (0, -70, 0)
    s = game([["H4", "H2"], ["HK", "H1"], ["HQ", "H3"]], "valat", declarer=2)
    play(s, "HQ", "H4", "HK")
    assert s.finished and outcome(s).scores == (0, 0, -500)


# ================================================================== the score

def test_card_points_are_counted_in_threes():
    s = game([["T22"], ["T21"], ["T2"]], "solo_without", won=[["HK", "HQ", "HN", "HJ", "DK", "DQ", "DN", "DJ", "SK"], [], []])
    # 9 cards in tricks: 5+4+3+2+5+4+3+2+5 = 33 - 6 = 27, with the last trick 12 cards: 48 - 8 = 40
    # and the last trick, the Skis, the Mond and the II: 12 cards, 33 + 11 - 8 = 36, over 35
    play(s, "T22", "T21", "T2")
    assert s.finished and outcome(s).scores == (80, -20, 0)  # and the Mond taken by the Skis


def test_a_three_scores_points_above_35_the_stake_and_the_pagat_ultimo():
    won = [["HK", "HQ", "HN", "DK", "DQ", "DN", "SK", "SQ", "SN", "CK", "CQ", "CN"], [], ["H4", "H3", "H2"]]
    # the declarer: 12 cards in tricks, 3 laid away (5+4+3)*4 + 2+1+1 = 52 - 10 = 42
    s = game([["T1"], ["T2"], ["T3"]], "three", won=won, laid=[["HJ", "D4", "S7"], [], []])
    play(s, "T1", "T2", "T3")  # P3 takes the last trick, with the Pagat: 25 against the declarer
    assert s.finished
    assert outcome(s).scores == (42 - 35 + 10 - 25, 0, 0)


def test_a_three_lost():
    s = game([["H2"], ["H3"], ["H4"]], "two", won=[[], ["HK", "HQ", "HN"], []], laid=[["S7", "S8"], [], []])
    play(s, "H2", "H3", "H4")  # the 2 is the highest: 5 cards of 1 point: 5 - 3 = 2 -> 2 - 35 - 20
    assert outcome(s).scores == (2 - 35 - 20, 0, 0)


def test_openspiels_kings_bonus_four_cards_on_the_declarers_side():
    # in a one, a declarer with one trick and one card laid away holds four cards: 10 more
    s = game([["H4"], ["HK"], ["H2"]], "one", won=[["D4", "D3", "D2"], ["T5", "T6", "T7"], []], laid=[["S7"], [], []])
    play(s, "H4", "HK", "H2")
    assert outcome(s).scores == (1 + 1 + 1 + 1 - 3 - 35 - 30 + 10, 0, 0)


def test_openspiels_valat_a_three_with_fifteen_tricks():
    taken = [x for x in DECK if x not in (c("T1"), c("T2"), c("T3"), c("H4"), c("H3"), c("H2"))][:45]
    s = game([["H2"], ["H3"], ["H4"]], "three", won=[taken, [], []], laid=[["T1", "T2", "T3"], [], []])
    # 45 cards in tricks and 3 laid away: 48 cards; the last trick goes to P1 and makes 51
    play(s, "H2", "H3", "H4")
    assert outcome(s).scores[0] != 250
    s = game([["H4"], ["H2"], ["H3"]], "three", won=[taken, [], []], laid=[["T1", "T2", "T3"], [], []])
    play(s, "H4", "H2", "H3")  # P2 takes the last trick: the declarer holds exactly 48
    assert outcome(s).scores == (250, 0, 0)


def test_klop_scores():
    # nobody over 35 and everyone took something: each loses the points taken
    s = game([["H2"], ["H3"], ["H4"]], "klop", won=[[], ["HK", "HQ", "HN"], ["S7", "S8", "S9"]])
    play(s, "H2", "H3", "H4")  # P1 takes three 1-point cards: 1
    assert outcome(s).scores == (-1, -10, -1)
    # a player who takes nothing gains 70 and the others score nothing
    s = game([["H2"], ["H3"], ["H4"]], "klop", won=[[], ["HK", "HQ", "HN"], []])
    play(s, "H2", "H3", "H4")
    assert outcome(s).scores == (0, 0, 70)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game(seed):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("tarok", {"rng_seed": seed})


def _name(s, a) -> str:
    phase = str(s.current_game_phase())
    if phase.endswith("BIDDING"):
        return BIDS[a]
    if phase.endswith("TALON_EXCHANGE"):
        return f"take {a + 1}" if len(s.talon()) == 6 else f"discard {c(a)}"
    return f"play {c(a)}"


def _replay(game, rng, steer=None):
    """One OpenSpiel game played at random (with the forehand's contract `steer` when the
    others pass), replayed in our ruleset move by move."""
    theirs = game.new_initial_state()
    theirs.apply_action(0)
    ours = auction([theirs.player_cards(p) for p in range(3)], theirs.talon())
    while not theirs.is_terminal():
        legal = theirs.legal_actions()
        p = theirs.current_player()
        if steer is not None and str(theirs.current_game_phase()).endswith("BIDDING"):
            a = 0 if 0 in legal else CONTRACT[steer]
        else:
            a = rng.choice(legal)
        assert moves_of(ours) == {_name(theirs, x): p for x in legal}
        do(ours, _name(theirs, a))
        theirs.apply_action(a)
    assert ours.finished
    assert outcome(ours).scores == tuple(theirs.returns())
    return theirs


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game(30)
    rng = random.Random(30)
    for _ in range(600):
        _replay(game, rng)


@pytest.mark.parametrize("contract", ["klop", "three", "two", "one", "beggar", "solo_without", "open_beggar",
                                      "colour_valat", "valat"])
def test_openspiels_games_of_every_contract_replayed(contract):
    """Random bids are mostly valats, over in a trick or two: here the second and third
    players pass and the forehand plays the contract, the rest at random."""
    game = _pyspiel_game(31)
    rng = random.Random(31)
    for _ in range(100):
        _replay(game, rng, steer=contract)


OPENSPIEL_GAMES = 4000
OUR_GAMES = 4000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game(20240531)
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s = game.new_initial_state()
        s.apply_action(0)
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        theirs.append((tuple(s.returns()), n))
    ours = [(outcome(s).scores, n) for s, n in random_games(rules(), 3, OUR_GAMES, random.Random(8))]
    stats = [("decisions", lambda g: g[1])] + mean_returns(3)
    assert_same_statistics(ours, theirs, stats)
