"""Blackjack (rulesets/classic/blackjack.cards) against OpenSpiel's `blackjack` (no parameters:
one player against the dealer).

First one small game per rule (the deal, counting Aces, hitting, going over, the dealer's
draw to 17, settling); then OpenSpiel's own random games replayed move by move in our ruleset:
the same legal moves at every decision, the same cards in each hand, the same counts and the
same returns at the end.

Cards: OpenSpiel's chance outcome a is the card of suit "CDHS"[a // 13] (Clubs, Diamonds,
Hearts, Spades) and rank "A23456789TJQK"[a % 13]. OpenSpiel deals each card as a chance move,
from the cards left; we deal from a shuffled pack. To replay a game, the pack is set up with
OpenSpiel's cards on top in the order it dealt them (`shuffle=False`), so our deal and our
draws take the same cards. OpenSpiel's actions are Hit (0) and Stand (1); ours are `hit` and
`stand`."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import mean_se, random_games
from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome, position
from interpreter.engine.positions import evaluate

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "blackjack.cards"
SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
RANKS = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
HIT, STAND = 0, 1
MEANING = {"hit": HIT, "stand": STAND}


rules = loader(RULESET)


def card_name(action: int) -> str:
    """OpenSpiel's card (a chance outcome) as our card's name."""
    rank = "A23456789TJQK"[action % 13]
    return f"{RANKS.get(rank, rank)}-{SUITS['CDHS'[action // 13]]}"


def short(name: str) -> str:
    """Our name for a card from a short one: 'AS' is the Ace of Spades, 'TH' the 10 of Hearts."""
    return f"{RANKS.get(name[0], name[0])}-{SUITS[name[1]]}"


def game_from(*dealt: str):
    """A game whose pack deals these cards first, in this order (short names): two to you, the
    dealer's hole card, the dealer's up card, then the hits, yours and the dealer's."""
    return position(rules(), 1, "deal", zones={"stock": [short(c) for c in reversed(dealt)]}, shuffle=False)


def moves_of(s) -> set[str]:
    return {str(m) for m in legal_moves(s)}


def play(s, *names: str) -> None:
    for name in names:
        apply(s, next(m for m in legal_moves(s) if str(m) == name))


def counts(s) -> tuple[int, int]:
    return evaluate(s, "hand_total"), evaluate(s, "dealer_total")


def result(s) -> int:
    assert s.finished
    return outcome(s).scores[0]


# ================================================================== the deal

@pytest.mark.parametrize("seed", range(3))
def test_the_deal(seed):
    s = new_game(rules(), 1, seed=seed)
    assert len(cards_in(s, "hand", 0)) == 2 and len(cards_in(s, "dealer")) == 2
    assert len(cards_in(s, "stock")) == 48
    seen = observe(s, 0)["zones"]
    hole, up = cards_in(s, "dealer")
    assert seen["hand"]["P1"] == {"cards": cards_in(s, "hand", 0)}  # your cards, face up
    assert seen["dealer"] == {"count": 2, "known": [up]}  # the dealer's up card only
    assert moves_of(s) == {"hit", "stand"}


def test_the_deal_order_is_openspiels():
    s = game_from("2C", "3D", "4H", "5S")
    assert sorted(cards_in(s, "hand", 0)) == ["2-Clubs", "3-Diamonds"]
    assert cards_in(s, "dealer") == ["4-Hearts", "5-Spades"]  # the hole card first
    assert observe(s, 0)["zones"]["dealer"]["known"] == ["5-Spades"]


# ================================================================== counting

@pytest.mark.parametrize("hand, count", [
    (["AS", "6H"], 17), (["AS", "6H", "9C"], 16), (["AS", "AH", "9C"], 21), (["AS", "AH"], 12),
    (["KS", "QH"], 20), (["JS", "AH"], 21), (["TS", "5H", "7C"], 22), (["AS", "AH", "AD", "AC"], 14),
])
def test_aces_count_one_or_eleven_and_courts_ten(hand, count):
    s = game_from("2C", "3D", "4H", "5S")
    assert evaluate(s, "total", [short(c) for c in hand]) == count


# ================================================================== your turn

def test_hitting_takes_the_top_card_and_you_choose_again():
    s = game_from("2C", "3D", "TH", "7S", "4C", "5D")
    play(s, "hit")
    assert "4-Clubs" in cards_in(s, "hand", 0) and counts(s)[0] == 9
    assert moves_of(s) == {"hit", "stand"}
    play(s, "hit")
    assert counts(s)[0] == 14 and moves_of(s) == {"hit", "stand"}


def test_you_may_hit_a_blackjack():
    s = game_from("AC", "KD", "TH", "7S", "5C")
    assert counts(s)[0] == 21 and moves_of(s) == {"hit", "stand"}
    play(s, "hit")  # the Ace now counts 1: 16
    assert counts(s)[0] == 16 and moves_of(s) == {"hit", "stand"}


def test_going_over_loses_at_once_and_the_dealer_does_not_play():
    s = game_from("TC", "6D", "5H", "6S", "KC", "9D")  # the dealer, at 11, would draw
    play(s, "hit")
    assert s.finished and result(s) == -1 and outcome(s).winners == ()
    assert cards_in(s, "dealer") == ["5-Hearts", "6-Spades"]
    assert fired_counts(s)["your_bust"] == 1 and fired_counts(s)["dealer_draws"] == 0
    assert observe(s, 0)["zones"]["dealer"]["known"] == ["5-Hearts", "6-Spades"]  # the hole card shown


# ================================================================== the dealer's turn

def test_the_dealer_draws_while_sixteen_or_less():
    s = game_from("TC", "8D", "2H", "4S", "5C", "AD", "3H", "9S", "7C")
    play(s, "stand")  # the dealer: 6, 11, 12 (the Ace as 1: as 11 it goes over), 15, then 24
    assert cards_in(s, "dealer") == ["2-Hearts", "4-Spades", "5-Clubs", "Ace-Diamonds", "3-Hearts", "9-Spades"]
    assert counts(s) == (18, 24) and result(s) == 1
    assert cards_in(s, "stock")[-1] == "7-Clubs"  # no more cards drawn after going over


def test_the_dealer_hits_sixteen_and_stands_on_a_soft_seventeen():
    s = game_from("TC", "8D", "AH", "6S", "9C")
    play(s, "stand")
    assert cards_in(s, "dealer") == ["Ace-Hearts", "6-Spades"]  # soft 17: stands
    assert counts(s) == (18, 17) and result(s) == 1
    s = game_from("TC", "8D", "TH", "6S", "AC", "2D")
    play(s, "stand")
    assert cards_in(s, "dealer") == ["10-Hearts", "6-Spades", "Ace-Clubs"]  # 16 hits, 17 stands
    assert counts(s) == (18, 17) and result(s) == 1


def test_the_dealer_going_over_pays_you():
    s = game_from("TC", "2D", "TH", "6S", "KC", "9D")
    play(s, "stand")  # you stand on 12
    assert cards_in(s, "dealer") == ["10-Hearts", "6-Spades", "King-Clubs"]
    assert counts(s) == (12, 26) and result(s) == 1 and outcome(s).winners == (0,)
    assert fired_counts(s)["showdown"] == 1


def test_the_closer_count_wins_and_equal_counts_tie():
    s = game_from("TC", "7D", "TH", "8S")
    play(s, "stand")
    assert counts(s) == (17, 18) and result(s) == -1 and outcome(s).winners == ()
    s = game_from("TC", "8D", "TH", "8S")
    play(s, "stand")
    assert counts(s) == (18, 18) and result(s) == 0 and outcome(s).winners == ()


def test_a_blackjack_pays_one_and_ties_with_any_twenty_one():
    s = game_from("AC", "KD", "TH", "9S")
    play(s, "stand")
    assert result(s) == 1
    s = game_from("AC", "KD", "7H", "4S", "KH")
    play(s, "stand")
    assert cards_in(s, "dealer") == ["7-Hearts", "4-Spades", "King-Hearts"]
    assert counts(s) == (21, 21) and result(s) == 0


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("blackjack")
    assert game.get_parameters() == {} and game.num_players() == 1
    return game


def _random_openspiel_game(game, rng):
    """Random chance and random moves; the state, the cards dealt in order and each decision
    as (the legal actions, the action taken)."""
    s = game.new_initial_state()
    dealt, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            dealt.append(a)
        else:
            legal = s.legal_actions()
            assert [s.action_to_string(a) for a in legal] == ["Hit", "Stand"]
            a = rng.choice(legal)
            decisions.append((legal, a))
        s.apply_action(a)
    return s, dealt, decisions


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    returns, lengths = {-1: 0, 0: 0, 1: 0}, set()
    for _ in range(600):
        theirs, dealt, decisions = _random_openspiel_game(game, rng)
        stock = [card_name(a) for a in reversed(dealt)]
        s = position(rules(), 1, "deal", zones={"stock": stock}, shuffle=False)
        for legal, action in decisions:
            assert not s.finished
            ours = moves_of(s)
            assert sorted(MEANING[m] for m in ours) == legal
            play(s, next(m for m in ours if MEANING[m] == action))
        assert s.finished
        assert sorted(cards_in(s, "hand", 0)) == sorted(card_name(c) for c in theirs.cards(0))
        assert cards_in(s, "dealer") == [card_name(c) for c in theirs.cards(1)]
        assert counts(s) == (theirs.get_best_player_total(0), theirs.get_best_player_total(1))
        assert len(cards_in(s, "stock")) == 52 - len(dealt)  # no card drawn that OpenSpiel did not deal
        assert (float(result(s)),) == tuple(theirs.returns())
        returns[result(s)] += 1
        lengths.add(len(decisions))
    assert all(n > 0 for n in returns.values())  # wins, ties and losses all came up
    assert len(lengths) >= 4


def test_random_play_pays_what_openspiel_pays():
    """Our own games (our shuffle) against OpenSpiel's, a random player in both: the mean return
    and the mean number of decisions agree within sampling error."""
    game = _pyspiel_game()
    rng = random.Random(31)
    theirs_ret, theirs_len = [], []
    for _ in range(5000):
        s, _, decisions = _random_openspiel_game(game, rng)
        theirs_ret.append(s.returns()[0])
        theirs_len.append(len(decisions))
    ours_ret, ours_len = [], []
    for s, n in random_games(rules(), 1, 5000, rng):
        ours_ret.append(result(s))
        ours_len.append(n)
    for a, b in ((ours_ret, theirs_ret), (ours_len, theirs_len)):
        (ma, sa), (mb, sb) = mean_se(a), mean_se(b)
        assert abs(ma - mb) < 4 * (sa * sa + sb * sb) ** 0.5, (ma, mb)


# ================================================================== the variant: the dealer hits a soft 17

H17 = RULESET.with_name("blackjack-hit-soft-17.cards")


@cache
def h17_rules():
    return load_ruleset(H17)


def h17_game_from(*dealt: str):
    return position(h17_rules(), 1, "deal", zones={"stock": [short(c) for c in reversed(dealt)]}, shuffle=False)


def test_variant_the_dealer_hits_a_soft_seventeen():
    s = h17_game_from("TC", "8D", "AH", "6S", "9C", "2D")
    play(s, "stand")  # soft 17 draws: Ace, 6, 9 is a hard 16, which draws again: 18
    assert cards_in(s, "dealer") == ["Ace-Hearts", "6-Spades", "9-Clubs", "2-Diamonds"]
    assert counts(s) == (18, 18) and result(s) == 0
    s = game_from("TC", "8D", "AH", "6S", "9C", "2D")  # the base game stands there and loses
    play(s, "stand")
    assert counts(s) == (18, 17) and result(s) == 1


def test_variant_the_dealer_stands_on_a_hard_seventeen_and_on_a_soft_eighteen():
    s = h17_game_from("TC", "8D", "TH", "7S", "9C")
    play(s, "stand")
    assert cards_in(s, "dealer") == ["10-Hearts", "7-Spades"] and result(s) == 1
    s = h17_game_from("TC", "8D", "AH", "7S", "9C")
    play(s, "stand")
    assert cards_in(s, "dealer") == ["Ace-Hearts", "7-Spades"] and result(s) == 0


def test_variant_changes_nothing_else():
    s = h17_game_from("TC", "6D", "5H", "6S", "KC")
    assert moves_of(s) == {"hit", "stand"}
    play(s, "hit")
    assert s.finished and result(s) == -1 and cards_in(s, "dealer") == ["5-Hearts", "6-Spades"]


def test_variant_differs_only_where_the_dealer_stood_on_a_soft_seventeen():
    """The same packs and the same hits and stands in both games: the dealer's hands, and the
    results, differ exactly where the base game's dealer stood on a soft 17."""
    rng = random.Random(32)
    soft_seventeens = 0
    for seed in range(1000):
        pack = [card_name(a) for a in random.Random(seed).sample(range(52), 52)]
        plan = [rng.random() < 0.25 for _ in range(12)]
        games = []
        for ruleset in (rules(), h17_rules()):
            s = position(ruleset, 1, "deal", zones={"stock": pack}, shuffle=False)
            for hit in plan:
                if s.finished:
                    break
                play(s, "hit" if hit else "stand")
            games.append(s)
        base, h17 = games
        dealer = cards_in(base, "dealer")
        soft = evaluate(base, "total", dealer) == 17 and evaluate(base, "hard_total", dealer) == 7
        stood = fired_counts(base)["dealer_draws"] == 1
        if soft and stood:
            soft_seventeens += 1
            assert len(cards_in(h17, "dealer")) > len(dealer)
        else:
            assert cards_in(h17, "dealer") == dealer and result(h17) == result(base)
    assert soft_seventeens >= 10
