"""The search player on the native engine: its whole search (samples, tree, rollouts, rewards)
runs in C and picks, at every decision of every bundled ruleset, the move the search in Python
picks from the same seed, leaving the bot's generator where Python leaves it."""

from __future__ import annotations

import time

from bundled_games import NAMES, move_key, names_variants_slow, rules
import pytest

from interpreter.engine import apply, legal_moves, new_game
from interpreter.native import find_compiler
from interpreter.native.engine import new_native_game
from interpreter.players.search import ISMCTSBot, MOISMCTSBot

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_the_search_in_c_picks_the_move_python_picks(name):
    rs = rules(name)
    players = rs.players_min
    native, python = new_native_game(rs, players, seed=3), new_game(rs, players, seed=3)
    in_c = [ISMCTSBot(10 + k, iterations=6) for k in range(players)]
    in_python = [ISMCTSBot(10 + k, iterations=6) for k in range(players)]
    for _ in range(8):  # (the search in Python is most of the time: longer searches in the test below)
        if not legal_moves(python):
            break
        who = python.actor
        a, b = in_c[who].choose(native), in_python[who].choose(python)
        assert move_key(a) == move_key(b)
        assert in_c[who].rng.getstate() == in_python[who].rng.getstate()
        apply(native, a)
        apply(python, b)


def test_more_iterations_and_secret_choices_agree_too():
    """Longer searches (the default's 300 iterations) in a trick-taking game with advice, and
    in a game of sealed bids, where a sample forgets the others' sealed choices."""
    for name, iterations, decisions in (("ganjifa/ganjifa", 300, 6), ("classic/goofspiel", 100, 13)):
        _agree(name, lambda k: ISMCTSBot(k, iterations=iterations), decisions, seed=7)


def test_a_search_c_gives_back_is_searched_in_python(monkeypatch):
    """When C cannot search (the rules fail in a sample), Python searches from the same draws."""
    import interpreter.native.search as native_search
    rs = rules("classic/hearts")
    native, python = new_native_game(rs, 4, seed=1), new_game(rs, 4, seed=1)
    monkeypatch.setattr(native_search, "search", lambda *a, **k: None)
    a, b = ISMCTSBot(4, iterations=20), ISMCTSBot(4, iterations=20)
    assert move_key(a.choose(native)) == move_key(b.choose(python))
    assert a.rng.getstate() == b.rng.getstate()


def test_a_deadline_stops_a_search_in_c():
    """The browser table's deadline: a search past it plays its best so far, at once."""
    rs = rules("ganjifa/ganjifa")
    s = new_native_game(rs, 3, seed=1)
    bot = ISMCTSBot(1, iterations=10_000_000)
    bot.deadline = time.monotonic() - 1
    t0 = time.monotonic()
    m = bot.choose(s)
    assert time.monotonic() - t0 < 5
    assert move_key(m) in {move_key(x) for x in legal_moves(s)}


@pytest.mark.parametrize("name, iterations, decisions", [
    ("classic/hearts", 200, 20), ("ganjifa/ganjifa", 300, 6), ("classic/goofspiel", 100, 13)])
def test_the_multiple_observer_search_in_c_picks_the_move_python_picks(name, iterations, decisions):
    """moismcts keys its nodes by what the mover sees too: C's hash of a view and of a child's
    slot must find the nodes Python's dictionary finds, in a game with a pass, one with advice and
    one of sealed bids."""
    _agree(name, lambda k: MOISMCTSBot(k, iterations=iterations), decisions, seed=7)


def test_a_search_that_sees_every_card_picks_in_c_the_move_python_picks():
    """ISMCTSBot.peek (benchmarks/search.py --see-all): C's samples are the true position with
    their chance reseeded from the bot's generator, as Python's, in a game with a pass and one
    with advice (short searches: the Python side is most of the time)."""
    def peeking(k: int, iterations: int) -> ISMCTSBot:
        bot = ISMCTSBot(k, iterations=iterations)
        bot.peek = True
        return bot
    for name, iterations, decisions in (("classic/hearts", 60, 12), ("ganjifa/ganjifa", 60, 8)):
        _agree(name, lambda k: peeking(k, iterations), decisions, seed=5)


@pytest.mark.parametrize("name, iterations, decisions", [
    ("classic/hearts", 60, 24), ("ganjifa/ganjifa", 60, 8), ("classic/goofspiel", 40, 10)])
def test_a_search_from_truths_picks_in_c_the_move_python_picks(name, iterations, decisions, monkeypatch):
    """ismcts:N:T draws T truths a decision in Python (as pimc draws them), and every sample is one
    of them: C loads them and draws among them as Python does (randrange, then the chance's seed),
    in a game with a pass, one with advice and one of sealed bids; C searched every decision."""
    import interpreter.native.search as native_search
    searched, real = [], native_search.search

    def search(*a, **k):
        assert k["truths"], "a search from truths was given none"
        out = real(*a, **k)
        searched.append(out is not None)
        return out
    monkeypatch.setattr(native_search, "search", search)
    _agree(name, lambda k: ISMCTSBot(k, iterations=iterations, truths=4), decisions, seed=11)
    assert searched and all(searched)


def _agree(name: str, make, decisions: int, seed: int) -> None:
    """A seeded game of the bundled ruleset played on both engines by the bots make(seat) gives,
    one set a engine: at each decision the bot in C picks the move the bot in Python picks and
    leaves its generator where Python's leaves it."""
    rs = rules(name)
    n = rs.players_min
    native, python = new_native_game(rs, n, seed=seed), new_game(rs, n, seed=seed)
    in_c, in_python = [make(k) for k in range(n)], [make(k) for k in range(n)]
    for _ in range(decisions):
        if python.finished:
            break
        who = python.actor
        a, b = in_c[who].choose(native), in_python[who].choose(python)
        assert move_key(a) == move_key(b) and in_c[who].rng.getstate() == in_python[who].rng.getstate()
        apply(native, a)
        apply(python, b)
