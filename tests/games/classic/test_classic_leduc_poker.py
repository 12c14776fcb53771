"""Leduc poker (rulesets/classic/leduc-poker.cards) against OpenSpiel's `leduc_poker` with its
default parameters (2 players, no action mapping, no suit isomorphism, player 0 starts).

First one small game per rule (the ante and the deal, checking and betting, the cap of two bets
and raises a round, folding, the public card, the second round's bigger bets, the showdown:
pairs, high cards, split pots); then OpenSpiel's own random games replayed move by move in our
ruleset: the same legal moves at every decision and the same returns at the end.

Cards: OpenSpiel's card c is rank c // 2 (Jack, Queen, King) of suit c % 2 (our Hearts and
Spades). OpenSpiel deals three chance cards, P1's, P2's and the public card; the pack is set up
with them on top in that order (`shuffle=False`). OpenSpiel's moves are Fold (0), Call (1) and
Raise (2); ours name them by their meaning: Call is `check` or `call`, Raise is `bet` or
`raise`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from poker import (chips, dealt_face_down, moves_of, play, pot, random_openspiel_game, replayed,
                   same_statistics_as_openspiels)
from interpreter.engine import cards_in, fired_counts, new_game, observe, outcome, position

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "leduc-poker.cards"
FOLD, CALL, RAISE = 0, 1, 2
MEANING = {"fold": FOLD, "check": CALL, "call": CALL, "bet": RAISE, "raise": RAISE}


rules = loader(RULESET)


def card(c: int) -> str:
    """OpenSpiel's card c as our card's name."""
    return f"{('Jack', 'Queen', 'King')[c // 2]}-{('Hearts', 'Spades')[c % 2]}"


def deal(first: str, second: str, public: str | None = None):
    """A game after the ante and the deal: P1 holds `first`, P2 `second`, and `public` is the
    next card of the pack (cards by name, 'King-Hearts')."""
    stock = ([public] if public else []) + [second, first]  # bottom first: P1 takes the top card
    return position(rules(), 2, "deal", zones={"stock": stock}, shuffle=False)


# ================================================================== the ante and the deal

@pytest.mark.parametrize("seed", range(4))
def test_the_ante_and_the_deal(seed):
    s = new_game(rules(), 2, seed=seed)
    assert chips(s) == (-1, -1) and pot(s) == 2
    dealt_face_down(s, each=1, stock=4)
    assert cards_in(s, "board") == []
    assert moves_of(s) == {"check": 0, "bet": 0}  # no folding with nothing to match


def test_the_pack_is_two_of_each_rank():
    s = new_game(rules(), 2, seed=0)
    every = sorted(cards_in(s, "stock") + cards_in(s, "hand", 0) + cards_in(s, "hand", 1))
    assert every == sorted(card(c) for c in range(6))


# ================================================================== the first betting round

def test_check_check_ends_the_round_and_turns_the_public_card():
    s = deal("Jack-Hearts", "Queen-Hearts", "King-Spades")
    play(s, "check")
    assert moves_of(s) == {"check": 1, "bet": 1}
    play(s, "check")
    assert cards_in(s, "board") == ["King-Spades"] and fired_counts(s)["public"] == 1
    assert observe(s, 1)["zones"]["board"] == {"cards": ["King-Spades"]}
    assert moves_of(s) == {"check": 0, "bet": 0}  # the first player speaks first again
    assert chips(s) == (-1, -1) and pot(s) == 2


def test_a_bet_in_the_first_round_is_two_chips_and_can_be_raised():
    s = deal("Jack-Hearts", "Queen-Hearts")
    play(s, "bet")
    assert chips(s) == (-3, -1) and pot(s) == 4
    assert moves_of(s) == {"fold": 1, "call": 1, "raise": 1}
    play(s, "raise")  # match the 2 and put in 2 more
    assert chips(s) == (-3, -5) and pot(s) == 8
    assert moves_of(s) == {"fold": 0, "call": 0}  # two bets and raises: no more
    play(s, "call")
    assert chips(s) == (-5, -5) and pot(s) == 10 and len(cards_in(s, "board")) == 1


def test_check_bet_raise_reaches_the_cap_too():
    s = deal("Jack-Hearts", "Queen-Hearts")
    play(s, "check", "bet")
    assert moves_of(s) == {"fold": 0, "call": 0, "raise": 0}
    play(s, "raise")
    assert moves_of(s) == {"fold": 1, "call": 1}
    assert chips(s) == (-5, -3)


def test_a_call_ends_the_round():
    s = deal("Jack-Hearts", "Queen-Hearts", "Jack-Spades")
    play(s, "check", "bet", "call")
    assert chips(s) == (-3, -3) and cards_in(s, "board") == ["Jack-Spades"]
    assert moves_of(s) == {"check": 0, "bet": 0}


def test_folding_gives_up_the_pot_unseen():
    s = deal("King-Hearts", "Jack-Hearts")
    play(s, "bet", "fold")
    assert s.finished and chips(s) == (1, -1) and outcome(s).winners == (0,)
    assert fired_counts(s)["showdown"] == 0 and cards_in(s, "board") == []
    assert observe(s, 0)["zones"]["hand"]["P2"]["known"] == []


# ================================================================== the second betting round

def test_bets_in_the_second_round_are_four_chips():
    s = deal("Jack-Hearts", "Queen-Hearts", "King-Spades")
    play(s, "check", "check", "bet")
    assert chips(s) == (-5, -1) and pot(s) == 6
    assert moves_of(s) == {"fold": 1, "call": 1, "raise": 1}
    play(s, "raise")
    assert chips(s) == (-5, -9) and moves_of(s) == {"fold": 0, "call": 0}
    play(s, "fold")
    assert s.finished and chips(s) == (-5, 5)


def test_the_biggest_pot():
    s = deal("Queen-Hearts", "King-Hearts", "Queen-Spades")
    play(s, "bet", "raise", "call", "bet", "raise", "call")
    assert s.finished and chips(s) == (13, -13)  # 1 + 2 + 2 + 4 + 4 each; P1's pair wins


# ================================================================== the showdown

def test_a_pair_beats_a_higher_card():
    s = deal("Jack-Hearts", "King-Hearts", "Jack-Spades")
    play(s, "check", "check", "check", "check")
    assert s.finished and fired_counts(s)["showdown"] == 1
    assert chips(s) == (1, -1) and outcome(s).winners == (0,)
    assert observe(s, 1)["zones"]["hand"]["P1"]["known"] == ["Jack-Hearts"]  # the cards are shown


def test_without_a_pair_the_higher_card_wins():
    s = deal("Jack-Hearts", "Queen-Hearts", "King-Spades")
    play(s, "check", "bet", "call", "check", "check")
    assert s.finished and chips(s) == (-3, 3) and outcome(s).winners == (1,)
    s = deal("King-Hearts", "Jack-Hearts", "Queen-Spades")
    play(s, "check", "check", "check", "check")
    assert chips(s) == (1, -1)


def test_cards_of_the_same_rank_split_the_pot():
    s = deal("Queen-Hearts", "Queen-Spades", "King-Spades")
    play(s, "bet", "call", "bet", "call")
    assert s.finished and chips(s) == (0, 0) and outcome(s).winners == (0, 1)


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("leduc_poker")
    assert game.get_parameters() == {"action_mapping": False, "players": 2, "starting_player": 0,
                                     "suit_isomorphism": False}
    return game


def _replay(cards, decisions):
    return replayed(deal(*(card(c) for c in cards)), MEANING, decisions)


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    ends = {"fold": 0, "showdown": 0}
    for _ in range(600):
        theirs, cards, decisions = random_openspiel_game(game, rng)
        s = _replay(cards, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        assert cards_in(s, "board") == [card(c) for c in cards[2:]]
        ends["showdown" if fired_counts(s)["showdown"] else "fold"] += 1
    assert all(n > 100 for n in ends.values())


def test_every_betting_line_pays_what_openspiel_pays():
    """Every betting line OpenSpiel allows (9 in the first round, then 9 in the second after
    each of the 5 that reach it: 49 in all), each with a pair, a high card and a split."""
    game = _pyspiel_game()

    def lines(state, public, decisions=()):
        if state.is_terminal():
            yield decisions, tuple(state.returns())
        elif state.is_chance_node():
            yield from lines(state.child(public), public, decisions)
        else:
            for a in state.legal_actions():
                step = (state.current_player(), state.legal_actions(), a)
                yield from lines(state.child(a), public, decisions + (step,))

    for cards in ((0, 2, 1), (4, 2, 0), (2, 3, 4)):
        start = game.new_initial_state()
        for c in cards[:2]:
            start.apply_action(c)
        found = list(lines(start, cards[2]))
        assert len(found) == 4 + 5 * 9
        for decisions, returns in found:
            s = _replay(cards, decisions)
            assert tuple(float(x) for x in outcome(s).scores) == returns


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    """Our own games (our shuffle) against OpenSpiel's, random players in both: the mean length
    and each seat's mean return agree within sampling error."""
    same_statistics_as_openspiels(_pyspiel_game(), rules(), 3000, random.Random(31))
