"""Skat (rulesets/classic/skat.cards) against OpenSpiel's `skat` (it has no parameters).

First one small position per rule (the deal, the announcement, taking the skat, following in a
suit game, a grand and a null, taking a trick, the score); then OpenSpiel's own random games
replayed move by move in our ruleset (the same hands and skat, the same legal moves at every
decision, the same returns); then random play on both sides, the same statistics within
sampling error.

Seats: OpenSpiel's players 0, 1, 2 are our P1..P3. Moves map one to one: its 'unknown/pass' is
our `pass`, 'diamonds' .. 'clubs' our `trumps Diamonds` .. `trumps Clubs`, 'grand' and 'null'
our `grand` and `null`; a card ('CJ', 'HT', suit first) is our `discard Jack-Clubs` when the
soloist lays it away, `play 10-Hearts` in a trick. OpenSpiel's returns are in units, ours in
240ths: a return r is our score 240 r."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, mean_returns, random_games
from openspiel_random import random_decisions, random_game

from scenario import cards_of, moves_of, play as do
from interpreter.engine import cards_in, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "skat.cards"
RANK = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
GAMES = {"unknown/pass": "pass", "diamonds": "trumps Diamonds", "hearts": "trumps Hearts",
         "spades": "trumps Spades", "clubs": "trumps Clubs", "grand": "grand", "null": "null"}
DECK = [s + r for s in "DHSC" for r in "789QKTAJ"]
ALL_GAMES = set(GAMES.values())


rules = loader(RULESET)


def c(short: str) -> str:
    """'CJ' -> 'Jack-Clubs', 'HT' -> '10-Hearts' (OpenSpiel's card strings, suit first)."""
    return f"{RANK[short[1]]}-{SUIT[short[0]]}"


def play(s, *cards: str) -> None:
    for x in cards:
        do(s, f"play {c(x)}")


def bidding(hands, skat):
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}, "skat": [c(x) for x in skat]}
    return position(rules(), 3, "bidding", zones=zones, rest="stock")


def game(hands, *, trump=None, null=False, soloist=0, skat=(), won=None):
    """A position at the opening lead: `won[seat]` lists cards already taken in tricks."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}, "skat": [c(x) for x in skat]}
    if won:
        zones["won"] = {p: [c(x) for x in w] for p, w in enumerate(won)}
    vars = {"trump": trump, "null_game": null, "soloist": soloist}
    return position(rules(), 3, "play", zones=zones, vars=vars, rest="stock")


# ================================================================== the deal and the announcement

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_ten_cards_each_and_two_in_the_skat(seed):
    s = new_game(rules(), 3, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [10] * 3
    assert len(cards_in(s, "skat")) == 2 and cards_in(s, "stock") == []
    assert moves_of(s) == {m: 0 for m in ALL_GAMES}


HANDS = [["C7", "C8", "C9", "CQ", "CK", "CT", "CA", "CJ", "S7", "S8"],
         ["S9", "SQ", "SK", "ST", "SA", "SJ", "H7", "H8", "H9", "HQ"],
         ["HK", "HT", "HA", "HJ", "D7", "D8", "D9", "DQ", "DK", "DT"]]
SKAT = ["DA", "DJ"]


def test_each_player_in_turn_passes_or_announces_and_the_first_announcement_wins():
    s = bidding(HANDS, SKAT)
    do(s, "pass")
    assert moves_of(s) == {m: 1 for m in ALL_GAMES}
    do(s, "grand")
    assert public_vars(s)["soloist"] == "P2" and public_vars(s)["trump"] is None
    # the third player is not asked: the soloist takes the skat and lays two cards away
    assert len(cards_in(s, "hand", 1)) == 12
    assert moves_of(s) == {f"discard {c(x)}": 1 for x in HANDS[1] + SKAT}


def test_three_passes_end_the_hand_with_no_score():
    s = bidding(HANDS, SKAT)
    for _ in range(3):
        do(s, "pass")
    assert s.finished and outcome(s).scores == (0, 0, 0)


def test_the_soloist_lays_two_cards_away_and_the_first_player_leads():
    s = bidding(HANDS, SKAT)
    do(s, "pass")
    do(s, "pass")
    do(s, "trumps Hearts")
    do(s, "discard 10-Diamonds")
    assert len(cards_in(s, "skat")) == 1
    do(s, "discard Ace-Diamonds")
    assert sorted(cards_in(s, "skat")) == ["10-Diamonds", "Ace-Diamonds"]
    assert s.rule == "lead" and moves_of(s) == {f"play {c(x)}": 0 for x in HANDS[0]}


# ================================================================== following and winning tricks

FOLLOW = [["CJ", "H7", "HA", "S7"], ["HJ", "HT", "D8", "SA"], ["C8", "H9", "DJ", "SK"]]
WON = [[], [], []]


def test_a_trump_led_is_followed_with_a_trump_a_jack_being_a_trump():
    s = game(FOLLOW, trump="Spades")
    play(s, "S7")  # a spade: a trump
    assert cards_of(s) == {c("HJ"), c("SA")}
    play(s, "SA")
    assert cards_of(s) == {c("DJ"), c("SK")}


def test_a_suit_led_is_followed_with_that_suit_but_not_its_jack():
    s = game(FOLLOW, trump="Spades")
    play(s, "H7")
    assert cards_of(s) == {c("HT")}  # not the Jack of Hearts, a trump
    s = game(FOLLOW, trump="Spades")
    play(s, "CJ")  # a Jack led is a trump lead, not a club lead
    assert cards_of(s) == {c("HJ"), c("SA")}
    play(s, "HJ")
    assert cards_of(s) == {c("DJ"), c("SK")}


def test_in_a_grand_only_the_jacks_are_trumps():
    s = game(FOLLOW)
    play(s, "S7")
    assert cards_of(s) == {c("SA")}
    play(s, "SA")
    assert cards_of(s) == {c("SK")}


def test_in_a_null_jacks_follow_their_own_suit():
    s = game(FOLLOW, null=True)
    play(s, "H7")
    assert cards_of(s) == {c("HJ"), c("HT")}
    s = game(FOLLOW, null=True)
    play(s, "CJ")
    assert cards_of(s) == {c(x) for x in FOLLOW[1]}  # nobody else holds a club
    play(s, "HJ")
    assert cards_of(s) == {c("C8")}


@pytest.mark.parametrize("trump,null,cards,winner", [
    ("Spades", False, ["H7", "HT", "H9"], 1),     # the ten beats the nine and the seven
    ("Spades", False, ["H7", "HT", "SK"], 2),     # a trump beats the suit led
    ("Spades", False, ["S7", "HJ", "DJ"], 1),     # the Jack of Hearts beats the Jack of Diamonds
    ("Spades", False, ["CJ", "HJ", "SK"], 0),     # the Jack of Clubs is the highest trump
    ("Hearts", False, ["HA", "HJ", "H9"], 1),     # a Jack beats the Ace of trumps
    (None, False, ["HA", "HT", "H9"], 0),         # in a grand the Ace beats the ten
    (None, False, ["S7", "D8", "DJ"], 2),         # ... and a Jack wins
    (None, True, ["H7", "HT", "H9"], 1),          # in a null the ten ranks between nine and Jack
    (None, True, ["H7", "HJ", "H9"], 1),
    (None, True, ["HA", "HJ", "H9"], 0),
    (None, True, ["S7", "SA", "DJ"], 1)])         # the Jack of Diamonds does not trump
def test_taking_a_trick(trump, null, cards, winner):
    s = game([[x] for x in cards], trump=trump, null=null, soloist=2, won=[["C7", "C8", "C9"], [], []])
    play(s, *cards)
    assert {c(x) for x in cards} <= set(cards_in(s, "won", winner))
    assert public_vars(s)["leader"] == f"P{winner + 1}"


# ================================================================== the score

def _last_trick(trump, soloist, won, skat, lead_wins: bool):
    """The last trick, won by the first player (`lead_wins`) or by the second: the hands hold
    no points, so the score is decided by `won` and `skat`."""
    hands = [["H8"], ["H7"], ["D7"]] if lead_wins else [["H7"], ["H8"], ["D7"]]
    s = game(hands, trump=trump, soloist=soloist, skat=skat, won=won)
    play(s, hands[0][0], hands[1][0], hands[2][0])
    assert s.finished
    return outcome(s)


def test_a_suit_game_scores_card_points_above_sixty():
    # The soloist (seat 0) has 61 points in tricks and skat: 2 x 1 = 2, the defenders 59: -1 each
    won = [["CA", "SA", "DA", "CT", "ST", "CJ", "SJ", "HJ", "DJ"], ["HA", "HT", "DT", "CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "DQ"], []]
    o = _last_trick("Clubs", 0, won, ["S7", "S8"], True)
    assert o.scores == (2 * (11 * 3 + 20 + 8 - 60), 120 - 61 - 60, 120 - 61 - 60) == (2, -1, -1)
    assert o.winners == (0,)


def test_the_skat_counts_for_the_soloist_and_sixty_loses():
    won = [["CA", "SA", "DA", "CT", "ST"], ["HA", "HT", "DT", "CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "DQ", "HJ", "DJ"], []]
    # a grand: 53 in tricks and the Jacks of Clubs and Spades in the skat: 57 -> -6 for the soloist
    o = _last_trick(None, 0, won, ["CJ", "SJ"], True)
    assert o.scores == (-6, 3, 3) and o.winners == (1, 2)
    # exactly 60: the soloist loses, scoring nothing, and so do the defenders
    won[0] = ["CA", "SA", "DA", "CT", "ST", "DQ"]
    won[1] = ["HA", "HT", "DT", "CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "HJ", "DJ"]
    o = _last_trick(None, 0, won, ["CJ", "SJ"], True)
    assert o.scores == (0, 0, 0)


def test_a_null_is_lost_at_the_soloists_first_trick_and_won_without_one():
    s = game(FOLLOW, null=True, soloist=1)
    play(s, "H7", "HT", "H9")  # the soloist's ten takes the trick
    assert s.finished and outcome(s).scores == (30, -60, 30)
    s = game([["H8"], ["H7"], ["D7"]], null=True, soloist=1, won=[["C7", "C8", "C9"], [], ["S7", "S8", "S9"]])
    play(s, "H8", "H7", "D7")
    assert s.finished and outcome(s).scores == (-30, 60, -30)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("skat")
    assert game.get_type().parameter_specification == {}
    return game


SEAT_OF_DEAL = [0] * 3 + [1] * 3 + [2] * 3 + [None] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3


def _dealt(s, rng):
    """OpenSpiel's deal at random: the hands by seat and the skat, as OpenSpiel writes cards."""
    hands, skat = [[], [], []], []
    for seat in SEAT_OF_DEAL:
        a = rng.choice([a for a, _ in s.chance_outcomes()])
        (skat if seat is None else hands[seat]).append(s.action_to_string(a))
        s.apply_action(a)
    return hands, skat


def _name(s, a: int) -> str:
    """OpenSpiel's action as our move names it: a game announced, or a card discarded or played."""
    if a >= 32:
        return GAMES[s.action_to_string(a)]
    return f"{'discard' if _discarding(s) else 'play'} {c(s.action_to_string(a))}"


def _random_openspiel_game(game, rng):
    """Random chance and random moves: the state, the hands, the skat and every decision as
    (player, our names of the legal moves, our name of the move chosen)."""
    s = game.new_initial_state()
    hands, skat = _dealt(s, rng)
    return s, hands, skat, random_decisions(s, rng, _name)


def _discarding(s) -> bool:
    return "discarding" in str(s).splitlines()[0]


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    for _ in range(600):
        theirs, hands, skat, decisions = _random_openspiel_game(game, rng)
        s = bidding(hands, skat)
        for p, legal, chosen in decisions:
            assert moves_of(s) == {m: p for m in legal}
            do(s, chosen)
        assert s.finished
        assert tuple(x / 240 for x in outcome(s).scores) == tuple(theirs.returns())


def test_openspiels_null_and_all_pass_games_replayed():
    """Random announcements are rarely a null: games where the first to speak passes or
    announces a null, the rest at random."""
    game = _pyspiel_game()
    rng = random.Random(31)
    for n in range(120):
        s = game.new_initial_state()
        hands, skat = _dealt(s, rng)
        speaker = n % 3

        def choose(rng, legal):  # everyone passes (one game in ten), or the speaker's turn is a null
            if legal[0] >= 32:
                return 32 + 6 if s.current_player() == speaker and n % 10 else 32
            return rng.choice(legal)
        ours = bidding(hands, skat)
        for _, legal, chosen in random_decisions(s, rng, _name, choose):
            assert set(moves_of(ours)) == legal
            do(ours, chosen)
        assert ours.finished
        assert tuple(x / 240 for x in outcome(ours).scores) == tuple(s.returns())


OPENSPIEL_GAMES = 3000
OUR_GAMES = 3000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game()
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, n = random_game(game, rng)
        theirs.append((tuple(s.returns()), n))
    ours = [(tuple(x / 240 for x in outcome(s).scores), n) for s, n in random_games(rules(), 3, OUR_GAMES, random.Random(8))]
    stats = [("decisions", lambda g: g[1])] + mean_returns(3)
    stats += [("first player wins", lambda g: 1.0 if g[0][0] > 0 else 0.0)]
    assert_same_statistics(ours, theirs, stats)
