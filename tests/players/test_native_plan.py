"""The planning player on the native engine: its whole search (the sample, the depth-first or
best-first look over its own moves, the positions already seen) runs in C in one call, and it
picks, in every bundled ruleset, the move it picks on the Python engine, and plans the same line;
what C cannot plan as Python would is planned in Python, from the same generator."""

from __future__ import annotations

import time

from bundled_games import NAMES, move_key, names_variants_slow, rules
from small_games import DRAWS, ROADS, scored
import pytest

from interpreter import loads_ruleset
from interpreter.engine import apply, new_game
from interpreter.native import find_compiler
from interpreter.native import plan as native_plan
from interpreter.native.engine import new_native_game
from interpreter.players.plan import PlanBot, _Eyes

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


def both(rs, players, seed, decisions, nodes, *, deadline=None, each=None, deep=True, options=None, worlds=8):
    """Planning players on both engines from the same seeds: the same move at every decision,
    and the same line planned (each engine's own bots, so each keeps its own plan); whether C
    answered each search (a plan, or a world planned in hindsight)."""
    native, python = new_native_game(rs, players, options, seed=seed), new_game(rs, players, options, seed=seed)
    on_native = [PlanBot(10 + k, nodes, deep=deep, worlds=worlds) for k in range(players)]
    on_python = [PlanBot(10 + k, nodes, deep=deep, worlds=worlds) for k in range(players)]
    answered = []
    real, real_world = native_plan.plan_line, native_plan.world_line

    def counted(*args, **kwargs):
        line = real(*args, **kwargs)
        answered.append(line is not None)
        return line

    def counted_world(*args, **kwargs):
        got = real_world(*args, **kwargs)
        answered.append(got is not None)
        return got
    for _ in range(decisions):
        if python.finished:
            break
        who = python.actor
        for bot in (on_native[who], on_python[who]):
            bot.deadline = deadline
        native_plan.plan_line, native_plan.world_line = counted, counted_world
        try:
            a = on_native[who].choose(native)
        finally:
            native_plan.plan_line, native_plan.world_line = real, real_world
        b = on_python[who].choose(python)
        assert move_key(a) == move_key(b)
        assert [key for key, _ in on_native[who]._plan] == [key for key, _ in on_python[who]._plan]
        if each:
            each(native, python, on_native[who], on_python[who])
        apply(native, a)
        apply(python, next(m for m in python._legal if move_key(m) == move_key(b)))
    return answered


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_the_plan_in_c_picks_the_move_python_picks(name):
    rs = rules(name)
    answered = both(rs, rs.players_min, 3, 8, 12)
    assert answered and all(answered)


@pytest.mark.parametrize("deep", [True, False])
@pytest.mark.parametrize("visible", [False, True])
def test_klondike_is_planned_alike_on_both_engines_depth_first_and_best_first(deep, visible):
    """Klondike, with its cards hidden (lines cut where a card comes to light, or, depth first, in
    sampled worlds seen whole) and all shown (the
    depth-first search's lines run long, its stack deep, the states of its line played again
    from the root), both searches: the same moves and lines on both engines, all answered in C."""
    rs = rules("classic/klondike")
    for seed in (0, 1):  # (hidden, depth first, each decision planned in sampled worlds: three of them)
        answered = both(rs, 1, seed, 30, 60, deep=deep, options={"visible": visible}, worlds=3)
        assert answered and all(answered)


def test_the_rounds_of_departures_are_planned_alike_on_both_engines():
    """Two roads (small_games.ROADS): round 0 down the advice's left road, round 1 across to the
    right, or, with fewer positions, the best found on the left; the same moves and lines in C."""
    rs = loads_ruleset(ROADS, "roads.cards")
    for nodes in (100, 200):
        answered = both(rs, 1, 5, 20, nodes)
        assert answered and all(answered)


@pytest.mark.parametrize("sure", ["count(drawn) == 2", "card(1, Red) in drawn", "false"])
def test_worlds_planned_in_hindsight_alike_on_both_engines(sure):
    """Two draws (small_games.DRAWS): the samples drawn, planned with every card of them seen,
    their votes and the line kept, or, where no sample is won, the plain plan, alike in C."""
    rs = loads_ruleset(DRAWS.replace("SURE", sure), "draws.cards")
    for seed in range(6):
        answered = both(rs, 1, seed, 3, 40)
        assert answered and all(answered)


def test_a_patience_played_on_with_each_engine_keeping_its_own_plan_and_views_told_apart_alike():
    """Udvasa, far enough that the plans are kept to, moved off and made again (the plain plan):
    at every decision the views C tells apart are the ones Python tells apart."""
    rs = rules("mughal/udvasa")
    c_views, py_views = [], []

    def look(native, python, _bn, _bp):
        c_views.append(native_plan.view(native.native, 0))
        py_views.append(_Eyes(python, 0).view(python))
    answered = both(rs, 1, 2, 60, 60, each=look, worlds=0)
    assert all(answered) and len(answered) < 60  # plans kept to: fewer searches than decisions
    assert all(both(rs, 1, 2, 40, 60, deep=False))  # best first too
    assert all(both(rs, 1, 2, 40, 60))  # in sampled worlds too
    for i in range(len(c_views)):
        for j in range(i):
            assert (c_views[i] == c_views[j]) == (py_views[i] == py_views[j])
    assert len(set(c_views)) > 1


@pytest.mark.parametrize("deep", [True, False])
def test_with_its_time_up_it_plays_the_best_first_step_on_both_engines(deep):
    """The table's time cap (a deadline already past) stops the search once a line is found: after
    the first position, on both engines alike."""
    rs = rules("mughal/udvasa")
    answered = both(rs, 1, 2, 6, 500, deadline=time.monotonic() - 1, deep=deep)
    assert all(answered)


@pytest.mark.parametrize("score, in_c", [
    ("count(hand(p)) + last.pips", True),  # none until a card is played: judged 0 alike
    ("count(hand(p)) * 1000000000 * 1000000000 * 1000 + last.pips", False),  # past 64 bits: Python plans
])
def test_scores_that_fail_or_pass_64_bits_plan_the_same(score, in_c):
    rs = loads_ruleset(scored(score))
    for seed in range(3):
        answered = both(rs, 2, seed, 8, 10)
        assert answered and all(a == in_c for a in answered)


def test_a_plan_c_gives_back_is_made_in_python_and_kept_to(monkeypatch):
    monkeypatch.setattr(native_plan, "plan_line", lambda *a, **k: None)
    monkeypatch.setattr(native_plan, "world_line", lambda *a, **k: None)
    assert not any(both(rules("mughal/udvasa"), 1, 2, 20, 40))
    assert not any(both(rules("classic/klondike"), 1, 0, 10, 40))
