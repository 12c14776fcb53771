"""Games in batches (`interpreter.adapters.vector.VectorGames`): game i of a batch is the single
game of its seed, move for move, on both engines: the same observations, masks, rewards and
ends as the adapters' own `Core` played alone on the Python engine (the oracle), in every bundled
ruleset the adapters number; the games that end start again with the next seeds; an illegal
action moves nothing."""

from __future__ import annotations

from bundled_games import NAMES
from small_games import BASE
import pytest

from interpreter.bundled import bundled
from interpreter.errors import GameRuntimeError, OptionError
from interpreter.native import find_compiler

np = pytest.importorskip("numpy")
from interpreter.adapters.core import Core  # noqa: E402
from interpreter.adapters.encoding import spec_for  # noqa: E402
from interpreter.adapters.vector import VectorGames  # noqa: E402

native = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


def alongside(path, engine: str, n: int = 3, steps: int = 20, seed: int = 4, max_decisions=None, pick: int = 1,
              returns: str = "win"):
    """A batch played with seeded random legal actions, each step checked against n games
    played one by one on the Python engine; the games that ended."""
    try:
        v = VectorGames(path, n=n, seed=seed, engine=engine, max_decisions=max_decisions, returns=returns)
    except OptionError as e:  # (a game whose moves the adapters cannot number: its own tests say so)
        pytest.skip(str(e))
    assert v.engine == engine
    oracle = spec_for(path, engine="python", max_decisions=max_decisions, returns=returns)
    games = [Core.start(oracle, seed + i) for i in range(n)]
    next_seed, ended = seed + n, 0
    obs, mask = v.reset()
    rng = np.random.default_rng(pick)
    for _ in range(steps):
        for i, core in enumerate(games):
            seat = core.current()
            assert v.seats[i] == seat and v.seeds[i] == core.state.seed
            assert np.array_equal(obs[i], oracle.encode(core, seat)), i
            assert sorted(np.flatnonzero(mask[i])) == list(core.legal()), i
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        acting = v.seats.copy()
        obs, rewards, done, cut = v.step(actions)
        for i in range(n):
            games[i].apply_id(int(actions[i]))
            if games[i].terminal():
                assert list(rewards[i]) == pytest.approx(games[i].returns())
                assert np.array_equal(v.final_obs[i], oracle.encode(games[i], int(acting[i]))), i
                assert (done[i], cut[i]) == (games[i].state.finished, not games[i].state.finished)
                games[i] = Core.start(oracle, next_seed)
                next_seed += 1
                ended += 1
            else:
                assert not done[i] and not cut[i] and not rewards[i].any()
    return ended


# In the default run, the games whose batches take each of C's paths and Python's ways back: a
# `choose by each` (Goofspiel), moves C cannot number (FreeCell, Hanabi, Udvasa), collection
# variables (Pinochle), the largest (Euro-Jongg), scores and declared winners, and each family;
# every other bundled ruleset with the slow tests.
SAMPLED = {"classic/goofspiel", "classic/freecell", "classic/hanabi", "mughal/udvasa", "classic/pinochle",
           "euro-jongg/euro-jongg", "ganjifa/ganjifa", "kendra-kari/kendra-kari", "classic/hearts",
           "classic/crazy-eights", "classic/kuhn-poker", "classic/blackjack", "mughal/komi", "classic/bridge",
           "classic/nolimit-holdem", "classic/cribbage", "mughal/shakti"}


@native
@pytest.mark.parametrize("name", [n if n in SAMPLED else pytest.param(n, marks=pytest.mark.slow) for n in NAMES])
def test_a_batch_in_c_plays_each_game_as_its_seed_alone(name):
    alongside(bundled()[name], "native")


@native
@pytest.mark.parametrize("name", ["classic/kuhn-poker", "classic/goofspiel", "ganjifa/ganjifa"])
def test_games_that_end_start_again_with_the_next_seeds(name):
    # (kuhn poker ends by the rules within a few moves; the others are cut short by max_decisions)
    assert alongside(bundled()[name], "native", n=4, steps=40, max_decisions=None if "kuhn" in name else 9) >= 8


@native
@pytest.mark.parametrize("name", ["classic/goofspiel", "classic/hearts", "classic/kuhn-poker-three"])
def test_returns_by_score_are_paid_as_the_single_games_pay_them(name):
    # (the most points, the fewest points, and chips: each seat placed between the worst and the best)
    assert alongside(bundled()[name], "native", n=4, steps=60, returns="score") >= 2


@native
@pytest.mark.parametrize("name", ["classic/goofspiel", "classic/kuhn-poker-three"])
def test_returns_by_points_are_paid_as_the_single_games_pay_them(name):
    # (each seat's score less the mean: the points won in Goofspiel, the chips in Kuhn poker)
    assert alongside(bundled()[name], "native", n=4, steps=60, returns="points") >= 2


@pytest.mark.parametrize("name", ["classic/kuhn-poker", "classic/goofspiel"])
def test_the_python_engine_plays_the_same_batch(name):
    assert alongside(bundled()[name], "python", n=3, steps=25, max_decisions=7) >= 3


def test_the_seeds_of_a_batch_run_on_in_the_order_games_end():
    v = VectorGames("classic/kuhn-poker", n=3, seed=10, engine="python")
    v.reset()
    assert list(v.seeds) == [10, 11, 12]
    while not v.done.any():
        v.step(np.array([np.flatnonzero(m)[0] for m in v.mask]))
    ended = np.flatnonzero(v.done)
    assert sorted(v.seeds[ended]) == list(range(13, 13 + len(ended)))
    assert v.reset()[0] is v.obs and list(v.seeds) == [10, 11, 12]


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=native)])
def test_an_illegal_action_names_the_game_and_moves_nothing(engine):
    v = VectorGames("ganjifa", players=3, n=2, seed=1, engine=engine)
    obs, mask = v.reset()
    before, seats = obs.copy(), v.seats.copy()
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    legal = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(ValueError, match=r"game 1 \(seed 2\): action \d+ \(.*\) is not legal now; legal: "):
        v.step(np.array([legal, illegal]))
    assert np.array_equal(v.obs, before) and np.array_equal(v.seats, seats)
    with pytest.raises(ValueError, match="an array of 2 whole numbers"):
        v.step(np.array([legal]))
    v.step(np.array([legal, int(np.flatnonzero(mask[1])[0])]))  # (and the batch plays on)
    assert not np.array_equal(v.obs, before)


def test_bad_arguments_say_what_they_should_be():
    with pytest.raises(OptionError, match="n \\(the number of games\\) is a positive whole number"):
        VectorGames("ganjifa", n=0, engine="python")
    with pytest.raises(OptionError, match="seed is a whole number from 0"):
        VectorGames("ganjifa", n=2, seed=-1, engine="python")
    v = VectorGames("ganjifa", n=2, engine="python")
    with pytest.raises(ValueError, match="reset"):
        v.step(np.array([0, 0]))


@native
def test_auto_is_native_and_says_why():
    v = VectorGames("ganjifa", n=2)
    assert v.engine == "native" and v.engine_line.startswith("engine: native")


FAILS = BASE.replace("VARS", "var n: int = 0").replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set n = 10 / (count(hand(turn)) - 2)""")  # (the hand of 3 down to 2: a division by zero)


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=native)])
def test_a_rules_failure_in_a_batch_names_the_game_and_its_seed(tmp_path, engine):
    path = tmp_path / "fails.cards"
    path.write_text(FAILS, encoding="utf-8")
    v = VectorGames(str(path), n=2, seed=3, engine=engine)
    obs, mask = v.reset()
    with pytest.raises(GameRuntimeError) as err:
        v.step(np.array([np.flatnonzero(m)[0] for m in mask]))
    line = next(k for k, text in enumerate(FAILS.splitlines(), 1) if "set n = 10" in text)
    assert str(err.value).startswith(f"{path}:{line}:21: error: game 0 (seed 3): while playing, this statement met "
                                     "a division by zero"), str(err.value)


def test_the_gymnasium_vector_environment_is_the_batch():
    gym = pytest.importorskip("interpreter.adapters.gymnasium")
    envs = gym.vector_env("classic/kuhn-poker", num_envs=4, seed=2, engine="python")
    obs, infos = envs.reset(seed=7)
    assert list(infos["seed"]) == [7, 8, 9, 10]
    assert envs.observation_space.contains(obs) and envs.action_space.shape == (4,)
    rng = np.random.default_rng(0)
    paid = 0
    for _ in range(12):
        acting = infos["seat"].copy()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        assert envs.action_space.contains(actions)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert list(rewards) == [infos["rewards"][i, acting[i]] for i in range(4)]
        assert all(not infos["rewards"][i].any() for i in range(4) if not terminated[i])
        ended = terminated | truncated
        assert list(infos.get("_final_obs", np.zeros(4, bool))) == list(ended)  # (the keys come when a game ends)
        for i in np.flatnonzero(ended):
            assert np.array_equal(infos["final_obs"][i]["observation"], envs.games.final_obs[i])
            assert envs.single_observation_space.contains(infos["final_obs"][i])
        paid += int(terminated.sum())
    assert paid and infos["seed"].min() >= 7


@native
def test_seeds_past_32_bits_deal_as_the_single_games_do():
    assert alongside(bundled()["classic/kuhn-poker"], "native", n=2, steps=12, seed=2 ** 33 + 5) >= 2
