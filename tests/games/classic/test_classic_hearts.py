"""Hearts (rulesets/classic/hearts.cards) against OpenSpiel's `hearts` with its default parameters
(pass_cards, no_pts_on_first_trick, must_break_hearts and qs_breaks_hearts on; can_lead_any_club,
can_lead_hearts_instead_of_qs, jd_bonus and avoid_all_tricks_bonus off).

First one small position per rule; then OpenSpiel's own random games replayed move by move in our
ruleset (the same deal and pass direction, the same legal moves at every decision, the same
returns); then the equivalence with random players on both sides, the same statistics within
sampling error.

Seats: OpenSpiel's North, East, South, West are our P1..P4 (seats 0..3); its pass directions
Left, Across, Right are our `shift` 1, 2, 3 (to seat + shift), No Pass is 0. Its returns are 26
minus the points taken (a moon shot: 26 for the shooter, 0 for the others), our score."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from openspiel_cards import c
from classic_stats import assert_same_statistics, mean_returns, random_games, returns
from openspiel_random import dealt_round, random_decisions

from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome, position

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "hearts.cards"


rules = loader(RULESET)


def moves_of(s, seat: int) -> set[str]:
    return {str(m).split()[-1] for m in legal_moves(s) if m.player == seat}


def play(s, seat: int, card: str) -> None:
    apply(s, next(m for m in legal_moves(s) if m.player == seat and str(m).split()[-1] == card))


def table(hands, *, shift=0, won=None, phase="passing", leader=None, options=None):
    """A position before the pass (or, with shift 0, at the opening lead): `hands[seat]` as
    OpenSpiel card strings; `won[seat]` tricks already taken."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    if won:
        zones["won"] = {p: [c(x) for x in w] for p, w in enumerate(won)}
    vars = {"shift": shift}
    if leader is not None:
        vars["leader"] = leader
    return position(rules(), 4, phase, zones=zones, vars=vars, options=options, rest="stock")


# ================================================================== the deal and the pass

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_gives_thirteen_cards_each(seed):
    s = new_game(rules(), 4, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [13] * 4
    assert cards_in(s, "stock") == []


def test_the_pass_direction_is_chance_one_in_four():
    shifts = [0, 0, 0, 0]
    for seed in range(200):
        s = new_game(rules(), 4, seed=seed)
        shifts[_shift(s)] += 1
    assert all(30 <= n <= 70 for n in shifts), shifts


def _shift(s):
    return observe(s, 0)["vars"]["shift"]


@pytest.mark.parametrize("direction,shift", [("keep", 0), ("left", 1), ("across", 2), ("right", 3)])
def test_the_pass_direction_is_an_option(direction, shift):
    s = new_game(rules(), 4, seed=1, options={"pass_direction": direction})
    assert _shift(s) == shift
    assert (s.rule == "pass_cards") == (shift > 0)


HANDS = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
]


@pytest.mark.parametrize("shift,to", [(1, [1, 2, 3, 0]), (2, [2, 3, 0, 1]), (3, [3, 0, 1, 2])])
def test_three_cards_pass_one_at_a_time_to_the_receiver(shift, to):
    s = table(HANDS, shift=shift)
    passes = [["AC", "KC", "QC"], ["AD", "KD", "QD"], ["AH", "KH", "QH"], ["AS", "KS", "QS"]]
    for p in range(4):
        for x in passes[p]:
            assert moves_of(s, p) == {c(y) for y in HANDS[p] if c(y) in cards_in(s, "hand", p)}
            play(s, p, c(x))
            if s.rule == "pass_cards":  # nobody else sees the cards set aside until all have passed
                assert all(c(x) not in str(observe(s, q)) for q in range(4) if q != p)
    for p in range(4):
        assert {c(x) for x in passes[p]} <= set(cards_in(s, "hand", to[p]))
        assert len(cards_in(s, "hand", to[p])) == 13
    assert s.rule == "lead"


# ================================================================== the lead and following

def test_the_two_of_clubs_leads_first_and_only_it():
    s = table(HANDS)
    assert s.rule == "lead" and moves_of(s, 0) == {"2-Clubs"}


MIXED = [
    ["2C", "5C", "QS", "AH", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"],
    ["3C", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
    ["4C", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
    ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D", "QD", "KD", "AD"],
]


def test_following_suit_is_compulsory():
    s = table(MIXED)
    play(s, 0, "2-Clubs")
    assert moves_of(s, 1) == {"3-Clubs"}
    play(s, 1, "3-Clubs")
    assert moves_of(s, 2) == {"4-Clubs"}
    play(s, 2, "4-Clubs")
    assert moves_of(s, 3) == {c(x) for x in MIXED[3] if x.endswith("C")}


POINTS_ONLY = [["2C", "3C", "4C", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"],
               ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "QS"],
               ["5C", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS"],
               ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "QD", "KD", "AD", "AS"]]


def test_a_hand_of_nothing_but_points_may_play_any_card_to_the_first_trick():
    s = table(POINTS_ONLY)
    play(s, 0, "2-Clubs")
    assert moves_of(s, 1) == {c(x) for x in POINTS_ONLY[1]}
    play(s, 1, "Queen-Spades")
    assert moves_of(s, 2) == {"5-Clubs"}
    play(s, 2, "5-Clubs")
    play(s, 3, "6-Clubs")
    # the 6 of Clubs is the highest card of the suit led (the Queen of Spades is not of it):
    # P4 takes the trick, with its 13 points, and leads next
    assert cards_in(s, "won", 3) and taken_points(s) == [0, 0, 0, 13]
    assert moves_of(s, 3) == {c(x) for x in POINTS_ONLY[3][1:]}


def taken_points(s):
    def pts(name):
        return 13 if name == "Queen-Spades" else 1 if name.endswith("-Hearts") else 0
    return [sum(pts(x) for x in cards_in(s, "won", p)) for p in range(4)]


def test_a_void_player_cannot_throw_points_to_the_first_trick():
    hands = [["2C", "AH", "KH", "QS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
             ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "JD"],
             ["QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "KS", "QD"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "AS", "KD", "AD"]]
    s = table(hands)
    play(s, 0, "2-Clubs")
    play(s, 1, "Ace-Clubs")
    assert moves_of(s, 2) == {"King-Spades", "Queen-Diamonds"}  # no heart
    with_points = table(hands, options={"no_points_on_first_trick": False})
    play(with_points, 0, "2-Clubs")
    play(with_points, 1, "Ace-Clubs")
    assert moves_of(with_points, 2) == {c(x) for x in hands[2]}


def test_leading_hearts_needs_them_broken():
    # mid-game (tricks already taken): whoever holds the 2 of Clubs has the lead, here P1
    hands = [["2C", "AH", "KH", "QS"], ["3C", "4C", "5C", "6C"], ["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]]
    s = table(hands, won=[["7C", "8C", "9C", "TC"], [], [], []], phase="play")
    assert moves_of(s, 0) == {"2-Clubs", "Queen-Spades"}  # the Queen may be led, hearts not yet
    broken = table(hands, won=[["7C", "8C", "9H", "TC"], [], [], []], phase="play")
    assert moves_of(broken, 0) == {"2-Clubs", "Ace-Hearts", "King-Hearts", "Queen-Spades"}
    jack = [["2C", "AH", "KH", "JS"]] + hands[1:]
    by_queen = table(jack, won=[["7C", "8C", "QS", "TC"], [], [], []], phase="play")
    assert moves_of(by_queen, 0) == {"2-Clubs", "Ace-Hearts", "King-Hearts", "Jack-Spades"}
    not_by_queen = table(jack, won=[["7C", "8C", "QS", "TC"], [], [], []], phase="play",
                         options={"queen_breaks_hearts": False})
    assert moves_of(not_by_queen, 0) == {"2-Clubs", "Jack-Spades"}
    never_unbroken = table(hands, won=[["7C", "8C", "9C", "TC"], [], [], []], phase="play",
                           options={"must_break_hearts": False})
    assert moves_of(never_unbroken, 0) == {"2-Clubs", "Ace-Hearts", "King-Hearts", "Queen-Spades"}


@pytest.mark.parametrize("thrown,second,leads", [
    ("7S", ["3C", "4H", "5H", "6D"], {"6-Diamonds"}),  # not broken: no heart led
    ("2H", ["3C", "4H", "5H", "6D"], {"4-Hearts", "5-Hearts", "6-Diamonds"}),  # a heart thrown breaks hearts
    ("7S", ["3C", "4H", "5H", "6H"], {"4-Hearts", "5-Hearts", "6-Hearts"}),  # nothing but hearts: lead one
])
def test_a_heart_thrown_breaks_hearts_and_a_hand_of_only_hearts_may_lead_one(thrown, second, leads):
    hands = [["2C", "AH", "KH", "QH"], second, ["2H", "7S", "8S", "9S"], ["2S", "3S", "4S", "5S"]]
    s = table(hands, won=[["7C", "8C", "9C", "TC"], [], [], []], phase="play")
    play(s, 0, "2-Clubs")
    play(s, 1, "3-Clubs")
    assert moves_of(s, 2) == {"2-Hearts", "7-Spades", "8-Spades", "9-Spades"}  # void, not the first trick
    play(s, 2, c(thrown))
    play(s, 3, "2-Spades")
    assert cards_in(s, "won", 1)  # P2's 3 of Clubs took the trick
    assert moves_of(s, 1) == leads


# ================================================================== the score

def _finish(hands, won, moves):
    s = table(hands, won=won, phase="play")
    for seat, x in moves:
        play(s, seat, c(x))
    assert s.finished and fired_counts(s)["the_end"] == 1
    return s


def test_the_score_is_26_minus_the_points_taken():
    won = [["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H", "QS", "6C", "7C", "8C"], [], []]
    s = _finish([["AH"], ["9C"], ["TC"], ["JC"]], won, [(0, "AH"), (1, "9C"), (2, "TC"), (3, "JC")])
    # seat 0 led the Ace of Hearts and won it: 1 point; seat 1 has 4 hearts + the Queen: 17
    assert outcome(s).scores == (25, 9, 26, 26) and outcome(s).winners == (2, 3)


def test_shooting_the_moon_pays_the_shooter_26_and_the_others_nothing():
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]
    won = [hearts + ["QS", "2C", "3C", "4C"], [], [], []]
    s = _finish([["AH"], ["9C"], ["TC"], ["JC"]], won, [(0, "AH"), (1, "9C"), (2, "TC"), (3, "JC")])
    assert outcome(s).scores == (26, 0, 0, 0) and outcome(s).winners == (0,)
    # one heart taken by someone else and there is no moon
    won2 = [hearts[1:] + ["QS", "2C", "3C", "4C"], ["2H", "5C", "6C", "7C"], [], []]
    s = _finish([["AH"], ["9C"], ["TC"], ["JC"]], won2, [(0, "AH"), (1, "9C"), (2, "TC"), (3, "JC")])
    assert outcome(s).scores == (1, 25, 26, 26)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hearts")
    assert game.get_parameters() == {
        "avoid_all_tricks_bonus": False, "can_lead_any_club": False, "can_lead_hearts_instead_of_qs": False,
        "jd_bonus": False, "must_break_hearts": True, "no_pts_on_first_trick": True, "pass_cards": True,
        "qs_breaks_hearts": True}
    return game


def _random_openspiel_game(game, rng):
    """Random chance and random moves: the state, the pass direction, the deal by seat and every
    decision as (player, legal cards, card chosen)."""
    s = game.new_initial_state()
    direction = rng.choice([a for a, _ in s.chance_outcomes()])
    assert s.action_to_string(direction) == ["No Pass", "Left", "Across", "Right"][direction]
    s.apply_action(direction)
    hands = dealt_round(s, rng, 4)
    decisions = random_decisions(s, rng, lambda s, a: c(s.action_to_string(a)))
    return s, direction, hands, decisions


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    for _ in range(120):
        theirs, direction, hands, decisions = _random_openspiel_game(game, rng)
        s = table(hands, shift=direction)
        for p, legal, chosen in decisions:
            assert moves_of(s, p) == legal
            play(s, p, chosen)
        assert s.finished
        assert returns(s) == tuple(theirs.returns())


OPENSPIEL_GAMES = 1500
OUR_GAMES = 1500


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game()
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, _, _, decisions = _random_openspiel_game(game, rng)
        theirs.append((tuple(s.returns()), len(decisions)))
    ours = [(returns(s), n) for s, n in random_games(rules(), 4, OUR_GAMES, random.Random(8))]
    stats = mean_returns(4)
    stats += [("decisions a game", lambda g: g[1]), ("moon shots", lambda g: 1.0 if sum(g[0]) == 26 else 0.0)]
    assert_same_statistics(ours, theirs, stats)
