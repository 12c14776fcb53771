"""Euchre (rulesets/classic/euchre.cards) against OpenSpiel's `euchre` with its default
parameters (stick_the_dealer on, allow_lone_defender off), and with each parameter switched.

First one small position per rule (the deal, the two rounds of bidding, the discard, going
alone, following suit with the bowers, taking a trick, the score); then OpenSpiel's own random
games replayed move by move in our ruleset (the same dealer, hands and upcard, the same legal
moves at every decision, the same returns); then the equivalence with random players on both
sides, the same statistics within sampling error.

Seats: OpenSpiel's North, East, South, West are our P1..P4 (seats 0..3). Moves map one to one:
OpenSpiel's Pass is our `pass`; its bid of the upcard's suit in the first round is our
`order_up`, a suit bid in the second round our `name <suit>`; Alone and Partner are `alone` and
`partner`; a card (OpenSpiel's 'HJ', suit first) is our `discard Jack-Hearts` or
`play Jack-Hearts`."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from classic_stats import assert_same_statistics, mean_returns, random_games, returns
from openspiel_random import dealt_round, random_decisions

from interpreter import load_ruleset
from scenario import moves_of
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "euchre.cards"
RANK = {"9": "9", "T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
PASS = 24  # OpenSpiel's Pass action


@cache
def rules(name: str = "euchre"):
    return load_ruleset(RULESET.with_name(f"{name}.cards"))


def c(short: str) -> str:
    """OpenSpiel's 'HJ' (suit, then rank) -> 'Jack-Hearts'; also accepts our order, 'JH'; 'X'
    is the Benny of the variant euchre-benny.cards."""
    if short == "X":
        return "Joker-Jokers"
    if short[0] in SUIT and short[1] in RANK:
        return f"{RANK[short[1]]}-{SUIT[short[0]]}"
    return f"{RANK[short[0]]}-{SUIT[short[1]]}"


def cards_of(s, seat: int) -> set[str]:
    return {str(m).split()[-1] for m in legal_moves(s) if m.player == seat}


def play(s, *names: str) -> None:
    for name in names:
        apply(s, next(m for m in legal_moves(s) if str(m) == name))


def table(hands, *, phase="bidding", upcard="9S", dealer=3, vars=None, options=None, won=None, game="euchre"):
    """A position after the deal: `hands[seat]` as short card names, the upcard, the dealer."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    if upcard:
        zones["upcard"] = [c(upcard)]
    if won:
        zones["won"] = {p: [c(x) for x in w] for p, w in enumerate(won)}
    v = {"dealer": dealer}
    v.update(vars or {})
    return position(rules(game), 4, phase, zones=zones, vars=v, options=options, rest="stock")


def scores(s):
    return outcome(s).scores


# ================================================================== the deal

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_five_cards_each_an_upcard_and_three_left(seed):
    s = new_game(rules(), 4, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [5] * 4
    assert len(cards_in(s, "upcard")) == 1 and len(cards_in(s, "stock")) == 3
    dealer = int(public_vars(s)["dealer"][1:]) - 1
    assert s.rule == "order_up" and moves_of(s) == {"pass": (dealer + 1) % 4, "order_up": (dealer + 1) % 4}


def test_the_dealer_is_chance_one_in_four():
    dealers = [0, 0, 0, 0]
    for seed in range(200):
        dealers[int(public_vars(new_game(rules(), 4, seed=seed))["dealer"][1:]) - 1] += 1
    assert all(30 <= n <= 70 for n in dealers), dealers


# ================================================================== the bidding

HANDS = [["9C", "TC", "QC", "KC", "AC"],
         ["9D", "TD", "QD", "KD", "AD"],
         ["9H", "TH", "JH", "QH", "KH"],
         ["TS", "JS", "QS", "KS", "AS"]]


def test_ordering_up_makes_the_upcards_suit_trumps_and_the_dealer_discards():
    s = table(HANDS, upcard="9S", dealer=3)
    play(s, "pass")  # P1
    assert moves_of(s) == {"pass": 1, "order_up": 1}
    play(s, "order_up")  # P2 orders the 9 of Spades up to P4, the dealer
    assert public_vars(s)["trump"] == "Spades" and public_vars(s)["maker"] == "P2"
    # the dealer discards one of the five original cards, never the upcard
    assert moves_of(s) == {f"discard {c(x)}": 3 for x in HANDS[3]}
    play(s, "discard 10-Spades")
    assert set(cards_in(s, "hand", 3)) == {c(x) for x in ["JS", "QS", "KS", "AS", "9S"]}
    assert cards_in(s, "discard") == ["10-Spades"] and cards_in(s, "upcard") == []
    assert moves_of(s) == {"alone": 1, "partner": 1}  # the maker, P2, decides


def test_the_dealer_may_order_up_last():
    s = table(HANDS, upcard="9S", dealer=3)
    play(s, "pass", "pass", "pass")
    assert moves_of(s) == {"pass": 3, "order_up": 3}
    play(s, "order_up", "discard Ace-Spades")
    assert public_vars(s)["maker"] == "P4" and moves_of(s) == {"alone": 3, "partner": 3}


def test_the_second_round_names_any_other_suit():
    s = table(HANDS, upcard="9S", dealer=1)
    play(s, "pass", "pass", "pass", "pass")
    assert moves_of(s) == {"pass": 2, "name Clubs": 2, "name Diamonds": 2, "name Hearts": 2}
    play(s, "pass", "name Clubs")  # P3 passes, P4 names Clubs: no discard
    assert cards_in(s, "upcard") == [] and "9-Spades" in cards_in(s, "stock")  # turned down
    assert public_vars(s)["trump"] == "Clubs" and public_vars(s)["maker"] == "P4"
    assert moves_of(s) == {"alone": 3, "partner": 3}
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [5] * 4


def test_stick_the_dealer_the_dealer_must_name_a_suit():
    s = table(HANDS, upcard="9S", dealer=1)
    play(s, *["pass"] * 7)
    assert moves_of(s) == {"name Clubs": 1, "name Diamonds": 1, "name Hearts": 1}


def test_without_stick_the_dealer_eight_passes_throw_the_hand_in():
    s = table(HANDS, upcard="9S", dealer=1, options={"stick_the_dealer": False})
    play(s, *["pass"] * 7)
    assert moves_of(s) == {"pass": 1, "name Clubs": 1, "name Diamonds": 1, "name Hearts": 1}
    play(s, "pass")
    assert s.finished and scores(s) == (0, 0, 0, 0)


# ================================================================== going alone

def test_a_lone_makers_partner_sits_out():
    s = table(HANDS, upcard="9S", dealer=3)
    play(s, "order_up", "discard 10-Spades", "alone")  # P1 orders up and goes alone: P3 sits out
    assert moves_of(s) == {f"play {c(x)}": 0 for x in HANDS[0]}  # P1 leads (after the dealer, P4)
    play(s, "play Ace-Clubs")
    assert set(moves_of(s).values()) == {1}
    play(s, "play 9-Diamonds")
    assert set(moves_of(s).values()) == {3}  # P3 is skipped
    play(s, "play Jack-Spades")
    assert sum(public_vars(s)["tricks"].values()) == 1 and len(cards_in(s, "hand", 2)) == 5


def test_the_lead_passes_over_a_player_who_sits_out():
    s = table(HANDS, upcard="9S", dealer=3)
    play(s, "pass", "pass", "order_up", "discard 10-Spades", "alone")  # P3 alone: P1 sits out
    assert set(moves_of(s).values()) == {1}  # P2 leads


def test_without_the_option_defenders_are_not_asked():
    s = table(HANDS, upcard="9S", dealer=3)
    play(s, "order_up", "discard 10-Spades", "partner")
    assert s.rule == "lead" and set(moves_of(s).values()) == {0}


def test_with_the_option_each_defender_in_turn_may_defend_alone():
    s = table(HANDS, upcard="9S", dealer=3, options={"allow_lone_defender": True})
    play(s, "pass", "order_up", "discard 10-Spades", "partner")  # P2 makes
    assert moves_of(s) == {"alone": 0, "partner": 0}  # P1 asked first (after the dealer)
    play(s, "partner")
    assert moves_of(s) == {"alone": 2, "partner": 2}
    play(s, "alone")  # P3 defends alone, P1 sits out
    assert set(moves_of(s).values()) == {1}  # P1 would lead but sits out: P2 leads


def test_a_lone_maker_against_a_lone_defender_two_play():
    s = table(HANDS, upcard="9S", dealer=1, options={"allow_lone_defender": True})
    play(s, "pass", "pass", "order_up", "discard 9-Diamonds", "alone")  # P1 makes alone: P3 sits out
    assert moves_of(s) == {"alone": 3, "partner": 3}  # the first defender after the dealer, P4
    play(s, "partner")
    assert moves_of(s) == {"alone": 1, "partner": 1}
    play(s, "alone")  # P2 defends alone: P4 sits out
    assert set(moves_of(s).values()) == {0}  # P3 and P4 sit out: P1 leads
    play(s, "play Ace-Clubs")
    assert set(moves_of(s).values()) == {1}
    play(s, "play 10-Diamonds")
    assert public_vars(s)["tricks"]["P1"] == 1 and set(moves_of(s).values()) == {0}  # two cards a trick


# ================================================================== following suit with the bowers

def test_the_left_bower_follows_trumps_not_its_printed_suit():
    # Hearts trumps: the Jack of Diamonds is the left bower, a heart
    hands = [["AH", "9C"], ["JD", "9S"], ["AD", "KS"], ["JH", "TD"]]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": "Hearts", "maker": 0})
    play(s, "play Ace-Hearts")  # a trump led
    assert cards_of(s, 1) == {"Jack-Diamonds"}  # must follow with the left bower
    play(s, "play Jack-Diamonds")
    assert cards_of(s, 2) == {"Ace-Diamonds", "King-Spades"}  # no trump: any card
    play(s, "play Ace-Diamonds")
    assert cards_of(s, 3) == {"Jack-Hearts"}
    play(s, "play Jack-Hearts")
    assert public_vars(s)["tricks"]["P4"] == 1  # the right bower takes it


def test_the_left_bower_does_not_follow_its_printed_suit():
    hands = [["AD", "9C"], ["JD", "9S"], ["TD", "KS"], ["QH", "9H"]]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": "Hearts", "maker": 0})
    play(s, "play Ace-Diamonds")
    assert cards_of(s, 1) == {"Jack-Diamonds", "9-Spades"}  # void in diamonds: the Jack is a heart
    play(s, "play Jack-Diamonds")
    assert cards_of(s, 2) == {"10-Diamonds"}
    play(s, "play 10-Diamonds", "play 9-Hearts")
    assert public_vars(s)["tricks"]["P2"] == 1  # the left bower trumps the Ace of Diamonds


def test_a_left_bower_led_is_a_trump_lead():
    hands = [["JD", "9C"], ["TD", "9S"], ["AH", "KS"], ["QD", "KH"]]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": "Hearts", "maker": 0})
    play(s, "play Jack-Diamonds")
    assert cards_of(s, 1) == {"10-Diamonds", "9-Spades"}  # no heart: diamonds need not follow
    play(s, "play 10-Diamonds")
    assert cards_of(s, 2) == {"Ace-Hearts"}
    play(s, "play Ace-Hearts")
    assert cards_of(s, 3) == {"King-Hearts"}
    play(s, "play King-Hearts")
    assert public_vars(s)["tricks"]["P1"] == 1  # the left bower is above the Ace of trumps


@pytest.mark.parametrize("trump,cards,winner", [
    ("Spades", ["AC", "JC", "AS", "JS"], 3),   # right bower over left bower over Ace
    ("Spades", ["AC", "JC", "AS", "KC"], 1),   # left bower over the Ace of trumps
    ("Spades", ["AC", "KC", "9S", "QC"], 2),   # the lowest trump over the Ace led
    ("Spades", ["QC", "KC", "AD", "AH"], 1),   # no trump: highest of the suit led
    ("Clubs", ["QC", "JS", "AC", "JC"], 3),    # Clubs trumps: the Jack of Spades is the left bower
    ("Diamonds", ["9H", "JH", "AH", "KH"], 1),  # Diamonds trumps: the Jack of Hearts leads no hearts
])
def test_taking_a_trick(trump, cards, winner):
    hands = [[x] for x in cards]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": trump, "maker": 0},
              options={"stick_the_dealer": True})
    for p, x in enumerate(cards):
        assert f"play {c(x)}" in moves_of(s), (p, x, moves_of(s))
        play(s, f"play {c(x)}")
    assert s.finished and public_vars(s)["tricks"][f"P{winner + 1}"] == 1


# ================================================================== the score

@pytest.mark.parametrize("makers,alone,lone_def,expected", [
    (3, False, None, 1), (4, False, None, 1), (5, False, None, 2), (2, False, None, -2), (0, False, None, -2),
    (5, True, None, 4), (3, True, None, 1), (2, True, None, -2),
    (2, False, 1, -4), (5, False, 1, 2), (4, True, 1, 1),
])
def test_the_score(makers, alone, lone_def, expected):
    # four tricks are already counted; P1 (maker, with P3) takes the last trick or not
    hands = [["AS"], ["9C"], ["TC"], ["QC"]] if makers else [["9C"], ["AS"], ["TC"], ["QC"]]
    before = makers - 1 if makers else 0
    tricks = {0: before, 1: 4 - before}
    v = {"trump": "Spades", "maker": 0, "lone_maker": 0 if alone else None, "tricks": tricks}
    if lone_def is not None:
        v["lone_defender"] = lone_def
    s = table(hands, phase="play", dealer=3, upcard=None, vars=v)
    while not s.finished:
        apply(s, legal_moves(s)[0])
    assert public_vars(s)["tricks"]["P1"] + public_vars(s)["tricks"]["P3"] == makers
    assert scores(s) == (expected, -expected, expected, -expected)
    assert fired_counts(s)["the_end"] == 1


# ================================================================== the variant with the Benny

def test_the_benny_pack_has_25_cards_and_four_left_over():
    s = new_game(rules("euchre-benny"), 4, seed=1)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [5] * 4
    assert len(cards_in(s, "upcard")) == 1 and len(cards_in(s, "stock")) == 4


def test_the_benny_turned_up_the_dealer_names_trumps():
    s = table(HANDS, upcard="X", dealer=1, game="euchre-benny")
    assert moves_of(s) == {f"name {x}": 1 for x in ["Clubs", "Diamonds", "Hearts", "Spades"]}
    play(s, "name Hearts")
    assert public_vars(s)["trump"] == "Hearts" and public_vars(s)["maker"] == "P2"
    play(s, "discard 9-Diamonds")
    assert "Joker-Jokers" in cards_in(s, "hand", 1) and moves_of(s) == {"alone": 1, "partner": 1}


def test_the_benny_is_never_a_suit_to_name():
    s = table(HANDS, upcard="9S", dealer=1, game="euchre-benny")
    assert moves_of(s) == {"pass": 2, "order_up": 2}
    play(s, *["pass"] * 4)
    assert moves_of(s) == {"pass": 2, "name Clubs": 2, "name Diamonds": 2, "name Hearts": 2}


def test_the_benny_is_the_highest_trump_and_follows_trumps():
    hands = [["JH", "9C"], ["X", "9S"], ["JD", "KS"], ["AH", "TD"]]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": "Hearts", "maker": 0}, game="euchre-benny")
    play(s, "play Jack-Hearts")  # the right bower led
    assert cards_of(s, 1) == {"Joker-Jokers"}  # the Benny is a trump and must follow
    play(s, "play Joker-Jokers", "play Jack-Diamonds", "play Ace-Hearts")
    assert public_vars(s)["tricks"]["P2"] == 1
    hands = [["X", "9C"], ["TD", "9S"], ["AH", "KS"], ["QD", "KH"]]
    s = table(hands, phase="play", dealer=3, upcard=None, vars={"trump": "Hearts", "maker": 0}, game="euchre-benny")
    play(s, "play Joker-Jokers")  # the Benny led is a trump lead
    assert cards_of(s, 1) == {"10-Diamonds", "9-Spades"}  # no trump: any card
    play(s, "play 9-Spades")
    assert cards_of(s, 2) == {"Ace-Hearts"}


# ================================================================== the same game as OpenSpiel's

PARAMS = [{}, {"stick_the_dealer": False}, {"allow_lone_defender": True}]


def _pyspiel_game(params=None):
    pyspiel = pytest.importorskip("pyspiel")
    assert pyspiel.load_game("euchre").get_parameters() == {"allow_lone_defender": False, "stick_the_dealer": True}
    return pyspiel.load_game("euchre", params or {})


def _ours(params) -> dict:
    return {"stick_the_dealer": params.get("stick_the_dealer", True),
            "allow_lone_defender": params.get("allow_lone_defender", False)}


def _theirs(move: str, upcard: str) -> str:
    """Our move name -> OpenSpiel's action string."""
    if move == "order_up":
        return upcard.split("-")[1]
    word, _, rest = move.partition(" ")
    if word == "name":
        return rest
    if word in ("discard", "play"):
        rank, suit = rest.split("-")
        return suit[0] + {"10": "T"}.get(rank, rank[0])
    return move.capitalize()  # pass, alone, partner


def _random_openspiel_game(game, rng, passing=None):
    """Random chance and random moves: the state, the dealer, the hands by seat, the upcard and
    every decision as (player, legal actions as strings, action chosen). With `passing`, a bid
    is Pass with that chance whenever Pass is legal (to reach the second round more often)."""
    s = game.new_initial_state()
    dealer = rng.choice([a for a, _ in s.chance_outcomes()])
    s.apply_action(dealer)
    hands = dealt_round(s, rng, 4, 20, first=dealer)  # OpenSpiel deals from the dealer round
    a = rng.choice([a for a, _ in s.chance_outcomes()])
    upcard = s.action_to_string(a)
    s.apply_action(a)

    def choose(rng, legal):
        a = rng.choice(legal)
        if passing is not None and PASS in legal:
            a = PASS if rng.random() < passing else rng.choice([x for x in legal if x != PASS])
        return a
    decisions = random_decisions(s, rng, lambda s, a: s.action_to_string(a), choose)
    return s, dealer, hands, upcard, decisions


@pytest.mark.parametrize("params,games,passing", [
    (PARAMS[0], 600, None), (PARAMS[1], 200, None), (PARAMS[2], 300, None),
    (PARAMS[0], 200, 0.85), (PARAMS[1], 200, 0.85),  # mostly passing: the second round, the dealer stuck, hands thrown in
])
def test_openspiels_random_games_replayed_move_by_move(params, games, passing):
    _replay(params, games, passing)


def test_the_throw_in_variant_is_openspiels_euchre_without_stick_the_dealer():
    """rulesets/classic/euchre-throw-in.cards, with no option given, plays OpenSpiel's euchre
    with stick_the_dealer false."""
    s = table(HANDS, upcard="9S", dealer=1, game="euchre-throw-in")
    play(s, *["pass"] * 8)
    assert s.finished and scores(s) == (0, 0, 0, 0)
    _replay({"stick_the_dealer": False}, 200, 0.85, game="euchre-throw-in")


def _replay(params, games, passing, game="euchre"):
    """OpenSpiel's random games under `params`, replayed move by move in our ruleset `game`
    (with our options set to match only when it is the base game)."""
    pyspiel_game = _pyspiel_game(params)
    rng = random.Random(30)
    for _ in range(games):
        theirs, dealer, hands, upcard, decisions = _random_openspiel_game(pyspiel_game, rng, passing)
        options = _ours(params) if game == "euchre" else None
        s = table(hands, upcard=upcard, dealer=dealer, options=options, game=game)
        for p, legal, chosen in decisions:
            ours = moves_of(s)
            assert set(ours.values()) == {p}
            named = {_theirs(m, c(upcard)): m for m in ours}
            assert set(named) == legal
            play(s, named[chosen])
        assert s.finished
        assert returns(s) == tuple(theirs.returns())


OPENSPIEL_GAMES = 2000
OUR_GAMES = 2000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game()
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, _, _, _, decisions = _random_openspiel_game(game, rng)
        theirs.append((tuple(s.returns()), len(decisions), "Alone" in {d[2] for d in decisions}))
    ours = [(returns(s), n, public_vars(s)["lone_maker"] is not None)
            for s, n in random_games(rules(), 4, OUR_GAMES, random.Random(8))]
    stats = mean_returns(4)
    stats += [("decisions a game", lambda g: g[1]), ("lone hands", lambda g: 1.0 if g[2] else 0.0),
              ("mean |return|", lambda g: abs(g[0][0]))]
    stats += [(f"share of hands paying {v:g}", lambda g, v=v: 1.0 if abs(g[0][0]) == v else 0.0) for v in (1.0, 2.0, 4.0)]
    assert_same_statistics(ours, theirs, stats)
