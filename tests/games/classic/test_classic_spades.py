"""Spades (rulesets/classic/spades.cards) against OpenSpiel's `spades` with its default parameters
(use_mercy_rule on, mercy_threshold -350, win_threshold 500, win_or_loss_bonus 200; num_tricks
only shapes its observation tensor).

First one small position per rule; then OpenSpiel's own random games replayed move by move in our
ruleset (the same deal, the same legal bids and cards at every decision, the same returns); then
random play on both sides, the same statistics within sampling error.

Seats: OpenSpiel's North, East, South, West are our P1..P4 (seats 0..3); North and South are one
side. Its cards are written suit first ('SA', 'H7', 'CT'); its bids are 'Nil' (our `nil`) and
'1'..'13' (our `bid 1` .. `bid 13`)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, mean_returns, random_games, returns
from openspiel_random import dealt_round, random_decisions

from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "spades.cards"
RANK = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
DECK = [s + r for s in "CDHS" for r in "23456789TJQKA"]


rules = loader(RULESET)


def c(short: str) -> str:
    """'SA' -> 'Ace-Spades', 'HT' -> '10-Hearts' (OpenSpiel's card strings, suit first)."""
    return f"{RANK.get(short[1], short[1])}-{SUIT[short[0]]}"


def bid_name(openspiel: str) -> str:
    return "nil" if openspiel == "Nil" else f"bid {openspiel}"


def moves_of(s, seat: int) -> set[str]:
    return {str(m) for m in legal_moves(s) if m.player == seat}


def cards_of(s, seat: int) -> set[str]:
    return {str(m).split()[-1] for m in legal_moves(s) if m.player == seat}


def do(s, seat: int, name: str) -> None:
    apply(s, next(m for m in legal_moves(s) if m.player == seat and str(m) == name))


def play(s, seat: int, card: str) -> None:
    apply(s, next(m for m in legal_moves(s) if m.player == seat and str(m).split()[-1] == c(card)))


def table(hands, *, phase="bidding", bids=None, tricks=None, options=None, rs=None):
    """A position at the start of the bidding, or (phase 'play', with `bids`) at the opening lead:
    `hands[seat]` as OpenSpiel card strings, one hand a player; `tricks[seat]` tricks already
    taken, made up of cards nobody holds; `rs` a variant's ruleset (Cutthroat, three players)."""
    players = len(hands)
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    if tricks:
        spare = [c(x) for x in DECK if not any(x in h for h in hands)]
        zones["won"] = {}
        for p, n in enumerate(tricks):
            zones["won"][p], spare = spare[:players * n], spare[players * n:]
    vars = {"bid": dict(enumerate(bids))} if bids else None
    return position(rs or rules(), players, phase, zones=zones, vars=vars, options=options, rest="stock")


HANDS = [[s + r for r in "23456789TJQKA"] for s in "CDHS"]  # North all clubs ... West all spades


# ================================================================== the deal and the bidding

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_gives_thirteen_cards_each(seed):
    s = new_game(rules(), 4, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [13] * 4
    assert cards_in(s, "stock") == []
    assert s.rule == "bidding"


ALL_BIDS = {"nil"} | {f"bid {n}" for n in range(1, 14)}


def test_each_player_bids_once_in_turn_and_partners_bid_at_most_thirteen_together():
    s = table(HANDS)
    assert moves_of(s, 0) == ALL_BIDS and not moves_of(s, 1)
    do(s, 0, "bid 5")
    assert moves_of(s, 1) == ALL_BIDS  # East's partner has not bid yet
    do(s, 1, "bid 13")
    assert moves_of(s, 2) == {"nil"} | {f"bid {n}" for n in range(1, 9)}  # 5 + 8 = 13
    do(s, 2, "bid 8")
    assert moves_of(s, 3) == {"nil"}  # partner bid 13: only nil is left
    do(s, 3, "nil")
    assert public_vars(s)["bid"] == {"P1": 5, "P2": 13, "P3": 8, "P4": 0}
    assert s.rule == "lead" and cards_of(s, 0) == {c(x) for x in HANDS[0]}  # North leads


# ================================================================== the play

MIXED = [["C2", "C9", "D4", "SA", "S3"],
         ["C3", "H5", "H6", "S2", "D2"],
         ["CA", "D3", "D9", "HK", "S9"],
         ["H2", "H3", "D5", "DA", "SK"]]


def test_a_spade_cannot_be_led_from_a_hand_with_other_suits():
    s = table(MIXED, phase="play", bids=[1, 1, 1, 1], tricks=[2, 2, 2, 2])
    assert cards_of(s, 0) == {c(x) for x in ["C2", "C9", "D4"]}


def test_a_hand_of_nothing_but_spades_may_lead_one():
    hands = [["SA", "S3"], ["C3", "H5"], ["CA", "D3"], ["H2", "SK"]]
    s = table(hands, phase="play", bids=[1, 1, 1, 1], tricks=[3, 3, 3, 2])
    assert cards_of(s, 0) == {"Ace-Spades", "3-Spades"}


def test_spades_are_never_broken_unless_the_option_says_so():
    # a spade has trumped in an earlier trick: still not to be led
    s = table(MIXED, phase="play", bids=[1, 1, 1, 1], tricks=[2, 2, 2, 2])
    play(s, 0, "D4")
    play(s, 1, "D2")
    play(s, 2, "D9")
    play(s, 3, "DA")  # West wins with the Ace of Diamonds and leads
    assert cards_of(s, 3) == {c(x) for x in ["H2", "H3", "D5"]}
    play(s, 3, "H2")
    play(s, 0, "S3")  # North is void in hearts and trumps
    play(s, 1, "H6")
    play(s, 2, "HK")
    assert cards_of(s, 0) == {"2-Clubs", "9-Clubs"}  # North won, and may still not lead the Ace of Spades
    broken = table(MIXED, phase="play", bids=[1, 1, 1, 1], tricks=[2, 2, 2, 2], options={"breaking_spades": True})
    for seat, x in [(0, "D4"), (1, "D2"), (2, "D9"), (3, "DA"), (3, "H2"), (0, "S3"), (1, "H6"), (2, "HK")]:
        play(broken, seat, x)
    assert cards_of(broken, 0) == {"2-Clubs", "9-Clubs", "Ace-Spades"}


def test_following_suit_is_compulsory_and_a_void_player_plays_anything():
    s = table(MIXED, phase="play", bids=[1, 1, 1, 1], tricks=[2, 2, 2, 2])
    play(s, 0, "C2")
    assert cards_of(s, 1) == {"3-Clubs"}
    play(s, 1, "C3")
    assert cards_of(s, 2) == {"Ace-Clubs"}
    play(s, 2, "CA")
    assert cards_of(s, 3) == {c(x) for x in MIXED[3]}  # West has no club


@pytest.mark.parametrize("west,winner", [("SK", 3), ("DA", 2), ("H2", 2)])
def test_the_highest_spade_wins_else_the_highest_card_of_the_suit_led(west, winner):
    s = table(MIXED, phase="play", bids=[1, 1, 1, 1], tricks=[2, 2, 2, 2])
    for seat, x in [(0, "C2"), (1, "C3"), (2, "CA"), (3, west)]:
        play(s, seat, x)
    assert len(cards_in(s, "won", winner)) == 12
    assert s.rule == "lead" and public_vars(s)["leader"] == f"P{winner + 1}"


def test_a_higher_spade_overtrumps():
    hands = [["C2", "H9"], ["S2", "H5"], ["S9", "D3"], ["C4", "SK"]]
    s = table(hands, phase="play", bids=[1, 1, 1, 1], tricks=[3, 3, 3, 2])
    for seat, x in [(0, "C2"), (1, "S2"), (2, "S9"), (3, "C4")]:
        play(s, seat, x)
    assert len(cards_in(s, "won", 2)) == 16  # South's 9 of Spades beats East's 2


# ================================================================== the score

def _last_trick(bids, tricks, winner, **kw):
    """Score a hand: `tricks` taken before the last trick, which `winner` (a seat) takes with
    the Ace of Spades while the others play low clubs."""
    hands = [["C2"], ["C3"], ["C4"], ["C5"]]
    hands[winner] = ["SA"]
    if winner == 0:
        hands = [["SA"], ["C3"], ["C4"], ["C5"]]
    s = table(hands, phase="play", bids=bids, tricks=tricks, **kw)
    for seat in range(4):
        play(s, seat, hands[seat][0])
    assert s.finished and fired_counts(s)["the_end"] == 1
    return outcome(s)


def test_a_contract_made_scores_ten_a_trick_bid_and_one_a_bag():
    # North 4 + South 3 = 7 bid, 9 taken: 70 + 2 bags; East 2 + West 2 = 4 bid, 4 taken: 40
    o = _last_trick([4, 2, 3, 2], [5, 2, 3, 2], 0)
    assert o.scores == (72, 40, 72, 40) and o.winners == (0, 2)


def test_a_side_that_falls_short_loses_ten_a_trick_bid():
    o = _last_trick([4, 5, 3, 4], [5, 2, 3, 2], 0)  # East-West bid 9, took 4
    assert o.scores == (72, -90, 72, -90)


def test_a_nil_bid_wins_or_loses_a_hundred_and_its_tricks_count_for_the_side():
    # North bids nil and takes none; South bids 4 and takes 6
    o = _last_trick([0, 3, 4, 3], [0, 4, 5, 3], 2)
    assert o.scores == (100 + 40 + 2, 60 + 1, 142, 61)  # East-West bid 6, took 7
    # North bids nil and takes two tricks: -100, but the tricks still count to South's 4
    o = _last_trick([0, 3, 4, 3], [2, 4, 3, 3], 2)
    assert o.scores == (-100 + 40 + 2, 61, -58, 61)


def test_ten_bags_cost_a_hundred():
    # North-South bid 1 + 1 and took all thirteen: 20 + 11 bags - 100
    o = _last_trick([1, 3, 1, 3], [12, 0, 0, 0], 0)
    assert o.scores == (20 + 11 - 100, -60, -69, -60)
    # two nil bids, both failed, and thirteen bags: the lowest score a hand can give
    o = _last_trick([0, 3, 0, 3], [11, 0, 1, 0], 0)
    assert o.scores == (-100 - 100 + 13 - 100, -60, -287, -60)
    # one nil made beside the other's tricks
    o = _last_trick([0, 3, 0, 3], [12, 0, 0, 0], 0)
    assert o.scores == (-100 + 100 + 13 - 100, -60, -87, -60)


def test_the_win_bonus_and_the_mercy_rule_with_lower_thresholds():
    bids, tricks = [4, 5, 3, 4], [5, 2, 3, 2]  # 72 against -90
    o = _last_trick(bids, tricks, 0, options={"win_threshold": 70})
    assert o.scores == (272, -90, 272, -90)
    o = _last_trick(bids, tricks, 0, options={"win_threshold": 80, "mercy_loss": 90})
    assert o.scores == (72, -290, 72, -290)
    o = _last_trick(bids, tricks, 0, options={"mercy_loss": 90, "use_mercy_rule": False})
    assert o.scores == (72, -90, 72, -90)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("spades")
    assert game.get_parameters() == {}  # spades reports none: its defaults are the specification's
    assert game.get_type().parameter_specification == {
        "mercy_threshold": -350, "num_tricks": 2, "use_mercy_rule": True, "win_or_loss_bonus": 200,
        "win_threshold": 500}
    return game


def _random_openspiel_game(game, rng):
    """Random chance and random moves: the state, the deal by seat and every decision as
    (player, legal moves, move chosen), named as our moves are."""
    s = game.new_initial_state()
    hands = dealt_round(s, rng, 4)
    return s, hands, random_decisions(s, rng, _name)


def _name(s, a: int) -> str:
    """OpenSpiel's action as our move names it: a bid (`bid 3`, `nil`) or a card."""
    return bid_name(s.action_to_string(a)) if a >= 52 else c(s.action_to_string(a))


def _names(s, seat):
    return {str(m) if str(m).startswith(("nil", "bid")) else str(m).split()[-1] for m in legal_moves(s) if m.player == seat}


def _replayed(s, decisions):
    """OpenSpiel's decisions made in our game `s`: at each, the same player has the same legal
    bids or cards."""
    for p, legal, chosen in decisions:
        assert _names(s, p) == legal
        apply(s, next(m for m in legal_moves(s) if m.player == p and (str(m) == chosen or str(m).split()[-1] == chosen)))
    return s


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    for _ in range(600):
        theirs, hands, decisions = _random_openspiel_game(game, rng)
        s = _replayed(table(hands), decisions)
        assert s.finished
        assert returns(s) == tuple(theirs.returns())


def test_openspiels_games_with_a_nil_bid_replayed():
    """Random bids are rarely nil (one in fourteen): games where a player bids nil, or two do,
    with the rest of the game played at random."""
    game = _pyspiel_game()
    rng = random.Random(31)
    for n in range(40):
        s = game.new_initial_state()
        hands = dealt_round(s, rng, 4)
        nils = {n % 4, (n + 1 + n // 4) % 4}
        decisions = random_decisions(s, rng, _name, lambda rng, legal: 52 if legal[0] >= 52 and s.current_player() in nils
                                     else rng.choice(legal))
        ours = _replayed(table(hands), decisions)
        assert ours.finished
        assert returns(ours) == tuple(s.returns())


OPENSPIEL_GAMES = 3000
OUR_GAMES = 3000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game()
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, _, decisions = _random_openspiel_game(game, rng)
        theirs.append((tuple(s.returns()), len(decisions)))
    ours = [(returns(s), n) for s, n in random_games(rules(), 4, OUR_GAMES, random.Random(8))]
    stats = mean_returns(2)
    stats += [("North-South ahead", lambda g: 1.0 if g[0][0] > g[0][1] else 0.0)]
    assert all(g[1] == 56 for g in ours + theirs)  # four bids and 52 cards, always
    assert_same_statistics(ours, theirs, stats)


# ================================================================== the variant: Cutthroat Spades

@cache
def cutthroat():
    return load_ruleset(RULESET.with_name("spades-cutthroat.cards"))


def cut_table(hands, *, phase="bidding", bids=None, tricks=None):
    return table(hands, phase=phase, bids=bids, tricks=tricks, rs=cutthroat())


@pytest.mark.parametrize("seed", range(3))
def test_cutthroat_deals_seventeen_cards_to_each_of_three_and_sets_one_aside(seed):
    s = new_game(cutthroat(), 3, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(3)] == [17] * 3
    assert len(cards_in(s, "stock")) == 1


def test_cutthroat_bids_are_nil_to_seventeen_whatever_the_others_bid():
    s = new_game(cutthroat(), 3, seed=1)
    every = {"nil"} | {f"bid {n}" for n in range(1, 18)}
    for p, b in [(0, "bid 17"), (1, "bid 17"), (2, "nil")]:
        assert moves_of(s, p) == every
        do(s, p, b)
    assert s.rule == "lead"


def test_cutthroat_spades_are_broken_by_a_spade_played():
    hands = [["C2", "H9", "SA", "S3"], ["D2", "H5", "S2", "D7"], ["CA", "D9", "S9", "HK"]]
    s = cut_table(hands, phase="play", bids=[1, 1, 1], tricks=[3, 3, 3])  # tricks without a spade
    assert cards_of(s, 0) == {"2-Clubs", "9-Hearts"}
    play(s, 0, "C2")
    play(s, 1, "S2")  # East is void in clubs and trumps: spades are broken
    play(s, 2, "CA")
    play(s, 1, "D2")
    play(s, 2, "D9")
    play(s, 0, "SA")  # North is void in diamonds and trumps
    assert cards_of(s, 0) == {"9-Hearts", "3-Spades"}


def test_cutthroat_each_player_scores_their_own_bid():
    hands = [["SA"], ["C3"], ["C4"]]
    # North bid 5 and takes 7: 52; East bid 6 and took 4: -60; South bid nil and took 6: -100 + 6 bags
    s = cut_table(hands, phase="play", bids=[5, 6, 0], tricks=[6, 4, 6])
    for seat in range(3):
        play(s, seat, hands[seat][0])
    assert s.finished and outcome(s).scores == (52, -60, -94) and outcome(s).winners == (0,)
    # a nil made scores 100
    s = cut_table(hands, phase="play", bids=[5, 6, 0], tricks=[12, 4, 0])
    for seat in range(3):
        play(s, seat, hands[seat][0])
    assert outcome(s).scores == (50 + 8, -60, 100)
