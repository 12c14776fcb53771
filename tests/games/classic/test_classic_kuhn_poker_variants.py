"""Three-player Kuhn poker (rulesets/classic/kuhn-poker-three.cards) against OpenSpiel's
`kuhn_poker` with players=3: one position per changed rule (four cards, checks until a bet, every
other player answering the bet round the table, the showdown among those still in), then every
deal and every line of play of OpenSpiel's game walked move by move, with the same legal moves
and the same returns: the whole game, not a sample.

Seats as in test_classic_kuhn_poker.py: OpenSpiel's player i is our seat i; its card i is our
Jack, Queen, King, Ace; its Pass is our check or fold, its Bet our bet or call."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from bundled_games import loader

from poker import chips, moves_of, play
from interpreter.engine import apply, cards_in, legal_moves, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "kuhn-poker-three.cards"
CARDS = ["Jack-Spades", "Queen-Spades", "King-Spades", "Ace-Spades"]
PASS, BET = 0, 1
MEANING = {"check": PASS, "fold": PASS, "bet": BET, "call": BET}


rules = loader(RULESET)


def deal(*held: int):
    """After the ante and the deal: seat i holds OpenSpiel's card held[i]."""
    rest = ({0, 1, 2, 3} - set(held)).pop()
    stock = [CARDS[rest]] + [CARDS[x] for x in reversed(held)]  # bottom first: P1 takes the top card
    return position(rules(), 3, "deal", zones={"stock": stock}, shuffle=False)


@pytest.mark.parametrize("seed", range(4))
def test_four_cards_one_each_one_left_and_the_antes(seed):
    s = new_game(rules(), 3, seed=seed)
    held = [cards_in(s, "hand", p) for p in range(3)]
    assert all(len(h) == 1 for h in held) and len(cards_in(s, "stock")) == 1
    assert {x for h in held for x in h} | set(cards_in(s, "stock")) == set(CARDS)
    assert chips(s) == (-1, -1, -1) and public_vars(s)["pot"] == 3
    assert moves_of(s) == {"check": 0, "bet": 0}


def test_checks_go_round_until_a_bet():
    s = deal(0, 1, 2)
    play(s, "check")
    assert moves_of(s) == {"check": 1, "bet": 1}
    play(s, "check")
    assert moves_of(s) == {"check": 2, "bet": 2}
    play(s, "check")  # all three checked: all three show, the King takes the antes
    assert s.finished and chips(s) == (-1, -1, 2)


def test_a_bet_is_answered_by_everyone_else_round_the_table():
    s = deal(3, 1, 0)
    play(s, "check", "bet")  # P2 bets
    assert moves_of(s) == {"fold": 2, "call": 2}  # P3 first, then P1 who checked
    play(s, "call")
    assert moves_of(s) == {"fold": 0, "call": 0}
    play(s, "fold")  # P1 holds the Ace but folds: P2's Queen beats P3's Jack
    assert s.finished and chips(s) == (-1, 3, -2) and outcome(s).winners == (1,)
    assert cards_in(s, "hand", 0) and not observe(s, 2)["zones"]["hand"]["P1"].get("cards")  # a folded card stays unseen


def test_if_everybody_else_folds_the_bettor_takes_the_pot_unseen():
    s = deal(0, 1, 2)
    play(s, "bet", "fold", "fold")
    assert s.finished and chips(s) == (2, -1, -1)
    assert not observe(s, 1)["zones"]["hand"]["P1"].get("cards")


def _walk(state, ours, history, seen):
    """Every line of play from here, in both games at once."""
    if state.is_terminal():
        assert ours.finished
        assert tuple(float(x) for x in outcome(ours).scores) == tuple(state.returns())
        seen.add(history)
        return
    assert not ours.finished
    legal = state.legal_actions()
    assert [state.action_to_string(a) for a in legal] == ["Pass", "Bet"]
    moves = moves_of(ours)
    assert set(moves.values()) == {state.current_player()}
    assert sorted(MEANING[m] for m in moves) == legal
    for a in legal:
        theirs = state.clone()
        theirs.apply_action(a)
        mine = ours.clone()
        apply(mine, next(m for m in legal_moves(mine) if MEANING[str(m)] == a))
        _walk(theirs, mine, history + "pb"[a], seen)


def test_every_deal_and_every_line_of_play_is_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    seen = set()
    deals = list(itertools.permutations(range(4), 3))
    for held in deals:
        state = game.new_initial_state()
        for x in held:
            state.apply_action(x)
        _walk(state, deal(*held), "", seen)
    assert len(deals) == 24
    assert seen == {"ppp", "ppbpp", "ppbpb", "ppbbp", "ppbbb", "pbpp", "pbpb", "pbbp", "pbbb",
                    "bpp", "bpb", "bbp", "bbb"}
