"""The greedy player on the native engine: its look-ahead (each move played on a copy, then the
scores and the advice read) runs in C in one call, and it picks, in every bundled ruleset, the
move it picks on the Python engine, from the same values; what C cannot answer as Python would
is looked ahead in Python."""

from __future__ import annotations

from bundled_games import NAMES, move_key, names_variants_slow, rules
from small_games import scored
import pytest

from interpreter import loads_ruleset
from interpreter.players.bots import GreedyBot, sample_seed
from interpreter.engine import apply, new_game
from interpreter.native import find_compiler
from interpreter.native import greedy as native_greedy
from interpreter.native.engine import new_native_game

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


def both(rs, players, seed, decisions, *, most_moves=60):
    """A game of greedy players on the native engine, and the same game on the Python engine: at
    each decision the values each engine's look-ahead gives are the same (the bots break ties by
    the same code from them); how many of the look-aheads C answered."""
    native, python = new_native_game(rs, players, seed=seed), new_game(rs, players, seed=seed)
    bots = [GreedyBot(10 + k) for k in range(players)]
    advised = bool(rs.advice)
    answered = 0
    for _ in range(decisions):
        if python.finished or len(python._legal) > most_moves:
            break
        who = python.actor
        moves = [m for m in python._legal if m.player == who]
        if len(moves) > 1:
            bot = bots[who]
            seed = sample_seed(bot.seed, len(python.history), who)
            answered += native_greedy.look_ahead(native.native, advised, seed) is not None
            assert list(bot._values(native, moves, who, advised)) == list(bot._values(python, moves, who, advised))
        a = bots[who].choose(native)
        apply(native, a)
        apply(python, next(m for m in python._legal if move_key(m) == move_key(a)))
    return answered


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_greedy_in_c_picks_the_move_python_picks(name):
    rs = rules(name)
    answered = both(rs, rs.players_min, 3, 10)
    assert answered or name in NEVER_TWO_MOVES


# games whose first decisions (at most 10, of at most 60 moves) never offer a player two moves
NEVER_TWO_MOVES = {"classic/blackjack", "classic/blackjack-hit-soft-17"}


@pytest.mark.parametrize("score, advice", [
    # a score none until a card is played, and an advice that divides by zero on some moves: both
    # fail as in Python (no signal), and C answers
    ("count(hand(p)) + last.pips", "edge(p: player) = 10 / (last.pips - 3)"),
    # a score past 64 bits, which Python's ints hold: C gives the look-ahead back to Python
    ("count(hand(p)) * 1000000000 * 1000000000 * 1000 + last.pips", "none_here(p: player) = 0"),
])
@pytest.mark.parametrize("winner", ["most", "fewest"])
def test_scores_and_advice_that_fail_give_the_same_values(score, advice, winner):
    rs = loads_ruleset(scored(score, winner, advice))
    for seed in range(3):
        answered = both(rs, 2, seed, 8)
        assert answered == (0 if "1000000000" in score else 6)  # (a hand of one card: no choice)


def test_a_look_ahead_c_gives_back_is_made_in_python(monkeypatch):
    rs = rules("ganjifa/ganjifa")
    monkeypatch.setattr(native_greedy, "look_ahead", lambda *a, **k: None)
    assert both(rs, 3, 5, 10) == 0


SHUTTLE = """game shuttle "Shuttle"
players 1
at most 30 decisions
deck d:
    suits Red
    ranks 1..4
zone stock shared hidden
zone left shared public
zone right shared public
zone done shared public
define score(p: player) = if count(stock) == 0 then 1 else 0
winner most score
phase play "Play":
    shuffle stock
    move top(stock) to left
    while count(stock) > 0:
        rule turn "A move":
            choose by seat(1):
                action shift c in left + right "Carry a card to the other pile.":
                    if c in left:
                        move c to right
                    else:
                        move c to left
                action bank "Bank the top card of the stock.":
                    move top(stock) to done
"""


@pytest.mark.parametrize("engine", ["python", "native"])
def test_greedy_does_not_carry_a_card_to_and_fro(engine):
    """Every move looks as good as any other until the last card is banked, and a move with a
    card comes first among equals: carried back and forth, the card kept the greedy player from
    banking until the game's bound of 30 decisions stopped it. Never moving back to a position it
    has left in the same run, it banks the stock in six decisions, on both engines alike.
    Before, the same game stopped at the bound."""
    from interpreter.players.plan import seat_view
    rs = loads_ruleset(SHUTTLE, "shuttle.cards")
    s = new_native_game(rs, 1, seed=3) if engine == "native" else new_game(rs, 1, seed=3)
    bot, seen = GreedyBot(7), []
    while not s.finished:
        seen.append(seat_view(s, 0))
        apply(s, bot.choose(s))
    assert len(set(seen)) == len(seen)
    # (the first trip back is a new position to it: the view holds the card the last move named)
    assert [m.action for m in s.history] == ["shift", "shift", "bank", "shift", "bank", "bank"]
    assert s.finished and s.decisions == 6
