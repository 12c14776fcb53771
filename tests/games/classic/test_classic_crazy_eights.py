"""Crazy Eights (rulesets/classic/crazy-eights.cards) against OpenSpiel's `crazy_eights` with its
default parameters (5 players, max_draw_cards 5, max_turns 100, no reshuffle, no special cards).

First one small position per rule, with the exact set of legal moves; then the equivalence with
OpenSpiel: random players on both sides, the same statistics within sampling error.

Positions are built with `engine.position`: seats are 0-based (P1 = seat 0), and cards not placed
stay in the stock. The play phase is one `turn` rule repeated, with `eight` (naming a suit),
`going_out`, `play_limit` and `blocked` after it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, random_games

from interpreter.engine import apply, cards_in, fired_counts, new_game, outcome, position, public_vars
from scenario import at, legal

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "crazy-eights.cards"


rules = loader(RULESET)


def table(hands, up, suit=None, *, to_move=0, stock=None, vars=None, options=None, players=5):
    """A position in the play: `hands[seat]`, `up` on top of the discard pile, `suit` to follow
    (the up card's suit unless given), P1 (seat 0) to move. Every card not placed is in the stock
    unless `stock` lists it exactly (then the rest goes out of play under the discards)."""
    zones = {"hand": dict(enumerate(hands)), "discards": [up]}
    kw = {}
    if stock is not None:
        zones["stock"] = stock
        kw["rest"] = "discards"  # the rest lies beneath `up`, which stays on top
    v = {"player_to_move": to_move, "named_suit": suit or up.split("-")[1], "dealer": players - 1}
    v.update(vars or {})
    return position(rules(), players, "play", zones=zones, vars=v, options=options, **kw)


# ================================================================== the deal

@pytest.mark.parametrize("seed", range(6))
def test_the_deal_five_cards_each_and_a_starting_card_that_is_never_an_eight(seed):
    s = new_game(rules(), 5, seed=seed)
    dealer = int(public_vars(s)["dealer"][1:]) - 1
    assert [len(cards_in(s, "hand", p)) for p in range(5)] == [5] * 5
    pile = cards_in(s, "discards")
    assert len(pile) == 1 and not pile[0].startswith("8-")
    assert len(cards_in(s, "stock")) == 52 - 25 - 1
    assert public_vars(s)["named_suit"] == pile[0].split("-")[1]
    assert s.actor == (dealer + 1) % 5 and s.rule == "turn"


def test_two_players_are_dealt_seven_cards_each():
    s = new_game(rules(), 2, seed=3)
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [7, 7]


def test_a_starting_eight_goes_back_into_the_stock_and_another_card_is_turned_up():
    # shuffle=False: the pack stays as placed, the last card listed on top; the dealer (P5)
    # deals 25 from the top, then turns up the 8 of Hearts, which goes under the stock.
    deal = [f"{r}-{s}" for r in ("2", "3", "4", "5", "6", "7", "9") for s in ("Clubs", "Diamonds", "Hearts", "Spades")][:25]
    s = position(rules(), 5, "deal", zones={"stock": ["Queen-Spades", "8-Hearts"] + deal},
                 vars={}, shuffle=False, seed=1)
    pile = cards_in(s, "discards")
    assert pile == ["Queen-Spades"]
    assert "8-Hearts" in cards_in(s, "stock") and len(cards_in(s, "stock")) == 26
    assert public_vars(s)["named_suit"] == "Spades"


# ================================================================== the play

def test_following_by_suit_or_by_rank_and_eights_anywhere():
    s = table([["5-Clubs", "King-Hearts", "8-Spades", "Jack-Diamonds", "2-Hearts"], ["3-Clubs"]],
              "King-Clubs")
    at(s, 0, "turn", {"play 5-Clubs", "play King-Hearts", "play 8-Spades", "draw"})
    apply(s, "play King-Hearts")
    assert public_vars(s)["named_suit"] == "Hearts" and cards_in(s, "discards")[-1] == "King-Hearts"
    assert s.actor == 1


def test_an_eight_names_the_suit_to_follow():
    s = table([["8-Diamonds", "4-Clubs"], ["9-Spades", "9-Clubs", "8-Hearts", "Queen-Diamonds"]], "9-Diamonds")
    apply(s, "play 8-Diamonds")
    at(s, 0, "eight", {"name Clubs", "name Diamonds", "name Hearts", "name Spades"})
    apply(s, "name Spades")
    assert public_vars(s)["named_suit"] == "Spades"
    # P2 follows spades or plays an eight; the 9 of Clubs no longer matches, nor the Queen
    at(s, 1, "turn", {"play 9-Spades", "play 8-Hearts", "draw"})


def test_a_player_may_draw_even_when_able_to_play_and_then_play_any_card():
    s = table([["5-Clubs"], ["3-Hearts"]], "King-Clubs", stock=["7-Hearts", "2-Clubs"])
    apply(s, "draw")
    assert sorted(cards_in(s, "hand", 0)) == ["2-Clubs", "5-Clubs"]
    at(s, 0, "turn", {"play 5-Clubs", "play 2-Clubs", "draw"})
    assert public_vars(s, private=True)["drawn_this_turn"] == 1
    assert "drawn_this_turn" not in public_vars(s)  # the rules' own count: no player's view shows it


def test_the_draw_limit_then_a_pass():
    s = table([["5-Diamonds"], ["3-Hearts"]], "King-Clubs", vars={"drawn_this_turn": 4})
    at(s, 0, "turn", {"draw"})  # no pass while drawing is allowed
    apply(s, "draw")
    assert len(cards_in(s, "hand", 0)) == 2 and public_vars(s, private=True)["drawn_this_turn"] == 5
    moves = legal(s)
    assert "draw" not in moves and "pass" in moves
    apply(s, "pass")
    assert s.actor == 1 and public_vars(s, private=True)["drawn_this_turn"] == 0
    assert "draw" in legal(s)


def test_the_draw_limit_is_an_option():
    s = table([["5-Diamonds"], ["3-Hearts"]], "King-Clubs", vars={"drawn_this_turn": 2},
              options={"max_draw_cards": 2})
    at(s, 0, "turn", {"pass"})


def test_with_the_stock_empty_a_player_may_pass_even_when_able_to_play():
    s = table([["5-Clubs", "9-Hearts"], ["3-Hearts"]], "King-Clubs", stock=[])
    at(s, 0, "turn", {"play 5-Clubs", "pass"})
    apply(s, "pass")
    assert s.actor == 1 and public_vars(s, private=True)["passes_in_a_row"] == 1


def test_a_draw_or_a_play_breaks_a_run_of_passes():
    s = table([["5-Clubs"], ["3-Hearts"]], "King-Clubs", stock=["2-Spades"], vars={"passes_in_a_row": 4})
    apply(s, "draw")
    assert public_vars(s, private=True)["passes_in_a_row"] == 0


# ================================================================== the end

def test_the_game_ends_after_one_pass_more_than_there_are_players():
    hands = [["5-Hearts"], ["3-Hearts"], ["4-Hearts"], ["6-Hearts"], ["7-Hearts"]]
    s = table(hands, "King-Clubs", stock=[], vars={"passes_in_a_row": 4})
    apply(s, "pass")  # the fifth pass: the game goes on
    assert not s.finished and s.actor == 1
    apply(s, "pass")  # the sixth
    assert s.finished and fired_counts(s)["blocked"] == 1
    # deck places: 3-H 8, 4-H 12, 5-H 16, 6-H 20, 7-H 24
    assert outcome(s).scores == (-16, -8, -12, -20, -24) and outcome(s).winners == (1,)


def test_going_out_ends_the_game_at_once_even_with_an_eight():
    s = table([["8-Hearts"], ["3-Hearts", "King-Spades"], ["8-Clubs"], ["Ace-Diamonds"], ["10-Spades", "2-Clubs"]],
              "King-Clubs")
    apply(s, "play 8-Hearts")
    assert s.finished and fired_counts(s)["going_out"] == 1 and fired_counts(s)["eight"] == 0  # no suit is named
    assert outcome(s).winners == (0,)
    assert outcome(s).scores == (0, -(8 + 10), -50, -10, -(37 + 2))


def test_the_play_limit_ends_the_game():
    s = table([["5-Clubs", "6-Clubs"], ["3-Hearts"]], "King-Clubs", vars={"cards_played": 9},
              options={"max_plays": 10})
    apply(s, "play 5-Clubs")
    assert s.finished and fired_counts(s)["play_limit"] == 1


def test_scores_at_face_value_with_the_option():
    s = table([["8-Hearts"], ["3-Hearts", "King-Spades"], ["8-Clubs"], ["Ace-Diamonds"], ["10-Spades", "2-Clubs"]],
              "King-Clubs", options={"numeral_points": "face_value"})
    apply(s, "play 8-Hearts")
    assert outcome(s).scores == (0, -13, -50, -10, -12)


# ================================================================== the same game as OpenSpiel's

OPENSPIEL_GAMES = 2000
OUR_GAMES = 1000
PLAYERS = 5


def _openspiel_games():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("crazy_eights")
    assert game.get_parameters() == {"max_draw_cards": 5, "max_turns": 100, "players": 5,
                                     "reshuffle": False, "use_special_cards": False}
    rng = random.Random(20240530)
    out = []
    for _ in range(OPENSPIEL_GAMES):
        s = game.new_initial_state()
        decisions = 0
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                # every player action counts: a play, a draw, a pass, naming a suit
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
        out.append((decisions, tuple(s.returns())))
    return out


def _our_games():
    # every move counts as a decision: a play, a draw, a pass or naming a suit
    return [(n, tuple(outcome(s).scores)) for s, n in random_games(rules(), PLAYERS, OUR_GAMES, random.Random(7))]


def test_random_play_has_openspiels_statistics():
    # Returns: OpenSpiel's return for a player is minus the penalty points left in their hand
    # (0 for whoever went out), which is exactly our score; no rescaling is needed. Seat i of
    # OpenSpiel (player i) is our seat i (P{i+1}); both choose the dealer at random.
    # A game "ends by an empty hand" when some player's return is 0: every card costs at least
    # 2 points, so only an empty hand scores 0, on both sides.
    theirs = _openspiel_games()
    ours = _our_games()
    stats = [("decisions a game", lambda g: g[0])]
    stats += [(f"seat {i + 1} mean return", lambda g, i=i: g[1][i]) for i in range(PLAYERS)]
    stats += [("share ending by an empty hand", lambda g: 1.0 if 0 in g[1] else 0.0)]
    assert_same_statistics(ours, theirs, stats)
