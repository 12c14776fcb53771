"""A native game's adapter step done in C (issue 39): the action id's move played, the game stepped
and the seat's mask written by one call (adapters/c_actions.py over cr_step_action), the
observation written by C, the returns read from C, the view's legal moves looked up by number.
Whole seeded games through the PettingZoo environment give the same observations, masks, rewards,
ends and infos at every `last()` on both engines; the mask C writes is the one the Python side
works out from the engine's moves (Core.legal), and C writes it at nearly every step (so that the
comparison is of C's work, not of the long way); the wrapper `env()` adds checks the calls as
PettingZoo's own order-enforcing wrapper does."""

from __future__ import annotations

import pickle

import pytest

from interpreter.native import find_compiler

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

# (ruleset, players, options of the environment, what its moves take: one of each kind C maps)
GAMES = [("ganjifa", 3, {}, "a card"),
         ("classic/crazy-eights", 5, {}, "a suit"),
         ("classic/goofspiel", 2, {}, "secret choices by each"),
         ("classic/hearts", 4, {"returns": "score", "history": True}, "scores, the information state"),
         ("classic/gin-rummy", 2, {"max_decisions": 60}, "a rank; cut short"),
         ("classic/pinochle", 2, {"max_decisions": 60}, "collection variables (their part of the tensor: Python's)"),
         ("classic/hanabi", 2, {}, "several values: mapped in Python")]
# (every bundled ruleset's masks, numbers and zones among them, are compared on both engines in
# test_native_observations.py)


def play(name: str, players: int, kwargs: dict, engine: str, seeds=(3, 4)) -> tuple[list, int, int]:
    """Every `last()` of whole games (a random legal action from each mask), and on native how
    many masks C wrote, of how many steps; each mask checked against Core.legal."""
    from interpreter.adapters.pettingzoo import env as make_env
    e = make_env(name, players=players, engine=engine, **kwargs)
    assert e.unwrapped.engine == engine
    rng = np.random.default_rng(1)
    seen, in_c, steps = [], 0, 0
    for seed in seeds:
        e.reset(seed=seed)
        for agent in e.agent_iter():
            core = e.unwrapped.core
            acts = core.state.native.actions if engine == "native" else None
            from_c = acts is not None and acts.valid()
            obs, reward, term, trunc, info = e.last()
            seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc, info))
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.tolist() == sorted(core.legal())  # (the Python side's own mapping of the moves)
            steps += 1
            in_c += from_c
            e.step(int(legal[rng.integers(len(legal))]))
    return seen, in_c, steps


@pytest.mark.parametrize("name,players,kwargs,what", GAMES, ids=[g[0] for g in GAMES])
def test_a_pettingzoo_game_is_the_same_on_both_engines_and_c_writes_the_masks(name, players, kwargs, what):
    native, in_c, steps = play(name, players, kwargs, "native")
    python, _, _ = play(name, players, kwargs, "python")
    assert native == python and steps
    if what.startswith("several values"):
        assert in_c == 0  # (a move of several values: the position is mapped the long way)
    else:
        assert in_c >= 0.8 * steps, (in_c, steps)  # (each game's first position is mapped in Python, and a
        # position where the seat has a move of several values)


def test_a_game_stepped_in_c_pickles_copies_and_reads_as_the_python_engines():
    from interpreter.adapters.core import Core
    from interpreter.adapters.encoding import spec_for
    out = {}
    for engine in ("native", "python"):
        spec = spec_for("classic/goofspiel", 2, engine=engine)
        core, rng = Core.start(spec, 5), np.random.default_rng(2)
        for _ in range(9):
            legal = np.flatnonzero(core.mask())
            core.apply_id(int(legal[rng.integers(len(legal))]))
        copy = core.clone()
        back = pickle.loads(pickle.dumps(core))
        copy.apply_id(int(np.flatnonzero(copy.mask())[0]))
        out[engine] = (spec.referee_text(back), back.info_text(0), back.info_text(1), core.seen, copy.seen[0][-1],
                       spec.encode(core, 1, info_state=True).tobytes(), spec.referee_text(core), core.returns())
        assert spec.referee_text(back) == spec.referee_text(core) and len(core.seen[0]) == 9
    assert out["native"] == out["python"]


def test_an_illegal_action_is_refused_the_same_way_after_steps_in_c():
    from interpreter.adapters.pettingzoo import env as make_env
    errors = []
    for engine in ("native", "python"):
        e = make_env("ganjifa", players=3, seed=2, engine=engine)
        e.reset()
        for _ in range(5):
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        mask = e.last()[0]["action_mask"]
        for bad in (int(np.flatnonzero(mask == 0)[0]), -1, len(mask)):
            with pytest.raises(ValueError, match="is not legal now") as caught:
                e.step(bad)
            errors.append(str(caught.value))
        e.step(int(np.flatnonzero(mask)[-1]))  # (a legal one still plays)
    assert errors[:3] == errors[3:]


def test_env_checks_the_order_of_calls_as_pettingzoos_own_wrapper():
    from pettingzoo.utils import wrappers
    from interpreter.adapters.pettingzoo import env as make_env, raw_env

    def calls(e) -> list:
        out = [str(e), isinstance(e, wrappers.OrderEnforcingWrapper)]
        for call in (lambda: e.last(), lambda: e.step(0), lambda: e.agent_iter(), lambda: e.agents):
            try:
                out.append(repr(call()))
            except Exception as err:  # noqa: BLE001 - which error, and its words
                out.append(f"{type(err).__name__}: {err}")
        e.reset(seed=1)
        it = iter(e.agent_iter())
        out.append(next(it))
        try:
            next(it)  # (no step in between)
        except AssertionError as err:
            out.append(str(err))
        obs, *rest = e.last()
        out.append((obs["action_mask"].tobytes(), rest))
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        out.append((e.agent_selection, next(it), e.rewards, e._cumulative_rewards))
        return out
    assert calls(make_env("kendra-kari", players=3)) == calls(wrappers.OrderEnforcingWrapper(raw_env("kendra-kari", players=3)))


def test_games_of_one_ruleset_played_by_several_threads_are_each_their_own():
    """Each game keeps its own room in C's calls (the move's place, the moves' numbers, the mask,
    the observation; the observer's array is each thread's): games of one spec played by threads
    that switch as often as Python lets them are each the game played alone."""
    import sys
    import threading
    alone = {seed: play("classic/crazy-eights", 5, {}, "native", seeds=(seed,))[0] for seed in (1, 2, 3)}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    together, failed = {}, []

    def run(seed):
        try:
            together[seed] = play("classic/crazy-eights", 5, {}, "native", seeds=(seed,))[0]
        except Exception as e:  # noqa: BLE001 - reported below
            failed.append(e)
    try:
        threads = [threading.Thread(target=run, args=(seed,)) for seed in (1, 2, 3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failed and together == alone
