"""The adapters for agent libraries (issue 15): the shared encoding, every bundled ruleset as an
OpenSpiel game (OpenSpiel's own random simulation test, its information-set search on
Ganjifa) and as a PettingZoo environment (PettingZoo's own API test), and the README's
example, run as written.

OpenSpiel and PettingZoo are in the test extra (`pip install -e '.[test]'`); without them
their tests are skipped with the command that installs them."""

from __future__ import annotations

import importlib
import pickle
import random
import re
import sys
import warnings
from pathlib import Path

import numpy as np
from bundled_games import paths_variants_slow
from small_games import WAITING
import pytest

from interpreter.adapters.core import Core
from interpreter.adapters.encoding import spec_for
from interpreter.engine import apply, new_game, moves_for
from interpreter.errors import OptionError

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").rglob("*.cards"))
IDS = [p.relative_to(ROOT / "rulesets").with_suffix("").as_posix() for p in RULESETS]
# The adapters number a set of cards by its mask over the deck (encoding.MAX_SET_DECK): a game
# choosing sets from a larger deck is refused at load, with the error naming the action's set.
NOT_ENCODED = {"classic/president": "president.cards:119:41: action 'give_two' takes a set of cards",
               "classic/cassino": "cassino.cards:121:61: action 'capture' takes a set of cards"}


def refused(path) -> bool:
    """True after checking that the adapters refuse this game as they should."""
    name = path.relative_to(ROOT / "rulesets").with_suffix("").as_posix()
    if name not in NOT_ENCODED:
        return False
    with pytest.raises(OptionError, match=re.escape(NOT_ENCODED[name])):
        spec_for(str(path))
    return True

try:
    import pyspiel
except ImportError:
    pyspiel = None
try:
    import pettingzoo
except ImportError:
    pettingzoo = None

needs_openspiel = pytest.mark.skipif(pyspiel is None, reason="OpenSpiel is not installed: pip install -e '.[openspiel]' "
                                     "(it is in the test extra: pip install -e '.[test]')")
needs_pettingzoo = pytest.mark.skipif(pettingzoo is None, reason="PettingZoo is not installed: pip install -e "
                                      "'.[pettingzoo]' (it is in the test extra: pip install -e '.[test]')")


def _play_random(core: Core, rng: random.Random, limit: int = 10_000) -> None:
    while not core.terminal() and limit:
        core.apply_id(rng.choice(list(core.legal())))
        limit -= 1


# -- the shared encoding (numpy only)

def test_action_ids_are_fixed_by_ruleset_and_player_count():
    spec = spec_for("ganjifa", 3)
    assert [name for name, _ in spec.actions] == sorted(name for name, _ in spec.actions)
    assert spec.actions[0] == ("add", spec.card_names[0])  # a card parameter: every card in deck order
    for i, (name, arg) in enumerate(spec.actions):
        assert spec.action_id(name, arg) == i
        assert spec.action_text(i) == (name if arg is None else f"{name} {arg}")
    assert spec_for("ganjifa", 3) is spec
    assert spec_for(str(RULESETS[IDS.index("ganjifa/ganjifa")]), 3).actions == spec.actions  # a path, the same game
    assert spec_for("ganjifa", 4).actions == spec.actions  # no per-seat parameter: the same ids at four
    # a number's range comes from the option's declared range, so option values keep the ids
    komi = spec_for("komi", 2)
    assert [a for a in komi.actions if a[0] == "bet"] == [("bet", str(k)) for k in range(1, 101)]
    assert spec_for("komi", 2, {"max_bet": 3}).actions == komi.actions
    # an action with two parameters: every (card, zone of the named kind)
    patience = spec_for("udvasa")
    shifts = [a for a in patience.actions if a[0] == "shift"]
    assert len(shifts) == patience.n_cards * 8 and shifts[0][1].endswith(" work1")
    with pytest.raises(OptionError, match="is for 3 to 4 players"):
        spec_for("ganjifa", 2)
    with pytest.raises(OptionError, match="unknown option"):
        spec_for("komi", 2, {"no_such_option": 1})


def test_every_legal_move_has_an_id_and_the_ids_are_sorted():
    rng = random.Random(5)
    for path in RULESETS:
        if refused(path):
            continue
        spec = spec_for(str(path), engine="python")  # (the ids are the spec's: every variant, none compiled)
        core = Core.start(spec, 2)
        for _ in range(30):
            if core.terminal():
                break
            legal = core.legal()
            assert list(legal) == sorted(legal) and legal
            for a, m in legal.items():
                assert spec.actions[a] == (m.action, m.arg) and m.player == core.current()
            core.apply_id(rng.choice(list(legal)))


def test_the_observation_tensor_shows_what_the_seat_sees():
    spec = spec_for("ganjifa", 3)
    core = Core.start(spec, 7)
    s = core.view().state  # (a native game's Python view, brought up to date)
    for seat in range(3):
        obs = spec.encode(core, seat)
        assert obs.shape == (spec.obs_size,) and obs.dtype == np.float32
        low, high = spec.bounds()
        assert (obs >= low).all() and (obs <= high).all()
        o = spec.offsets
        cards = obs[o["cards"]:o["cards"] + spec.n_cards * (spec.n_places + 1)].reshape(spec.n_cards, spec.n_places + 1)
        assert (cards.sum(axis=1) == 1).all()  # each card is in exactly one place, or unknown
        mine = s.zones[s.zbase[spec.program.zone_index["hand"]] + seat]
        assert mine and all(cards[c, -1] == 0 for c in mine)  # my own hand is seen
        theirs = s.zones[s.zbase[spec.program.zone_index["hand"]] + (seat + 1) % 3]
        assert all(cards[c, -1] == 1 for c in theirs if not s.known[c])  # the next hand is not
        # relative seats: my hand is always the place of relative seat 0
        assert len({int(np.argmax(cards[c])) for c in mine}) == 1
        assert obs[o["seat"] + seat] == 1 and obs[o["to_move"] + (s.actor - seat) % 3] == 1
    # the same cards from two seats: each sees its own hand in the same relative place
    a, b = spec.encode(core, 0), spec.encode(core, 1)
    assert not np.array_equal(a, b)
    info = spec.encode(core, 0, info_state=True)
    assert info.shape == (spec.info_size,) and np.array_equal(info[:spec.obs_size], a)


def test_returns_are_zero_sum_wins_and_a_solitaire_is_won_or_not():
    spec = spec_for("ganjifa", 3)
    core = Core.start(spec, 1)
    assert core.returns() == [0.0, 0.0, 0.0]
    _play_random(core, random.Random(1))
    r = core.returns()
    assert core.state.finished and abs(sum(r)) < 1e-12 and max(r) > 0 and spec.utility_range == (-0.5, 1.0)
    score = spec_for("ganjifa", 3, returns="score")
    core = Core.start(score, 1)
    _play_random(core, random.Random(1))
    assert sorted(core.returns())[0] == 0.0 and max(core.returns()) == 1.0
    solitaire = spec_for("udvasa")
    assert not solitaire.zero_sum and solitaire.utility_range == (0.0, 1.0)
    cut = spec_for("ganjifa", 3, max_decisions=5)
    core = Core.start(cut, 1)
    _play_random(core, random.Random(1))
    assert core.terminal() and core.truncated() and core.state.decisions == 5 and core.returns() == [0.0] * 3


def test_a_game_pickles_as_its_recipe_and_copies_share_nothing_they_change():
    spec = spec_for("ganjifa", 3)
    core = Core.start(spec, 3)
    rng = random.Random(3)
    for _ in range(10):
        core.apply_id(rng.choice(list(core.legal())))
    copy = core.clone()
    back = pickle.loads(pickle.dumps(core))
    assert spec.referee_text(back) == spec.referee_text(core) and back.info_text(1) == core.info_text(1)
    sample = core.resample(0, random.Random(9))
    assert sample.info_text(0) == core.info_text(0)  # seat 0 cannot tell the sample from the truth
    assert spec.view_text(sample, 0) == spec.view_text(core, 0)
    assert spec.referee_text(pickle.loads(pickle.dumps(sample))) == spec.referee_text(sample)
    copy.apply_id(next(iter(copy.legal())))
    assert len(core.seen[0]) == 10 and len(copy.seen[0]) == 11


def test_secret_choices_show_to_the_others_only_as_such():
    spec = spec_for("euro-jongg", 4)
    core = Core.start(spec, 0)
    rng = random.Random(0)
    while not (core.state.choice is not None and core.state.choice.secret):
        core.apply_id(rng.choice(list(core.legal())))
    who = core.current()
    action = next(iter(core.legal()))
    before = {q: spec.encode(core, q, info_state=True)[spec.obs_size:] for q in range(4)}
    core.apply_id(action)
    assert core.seen[who][-1] == f"P{who + 1}: {spec.action_text(action)}"
    mine = spec.encode(core, who, info_state=True)[spec.obs_size:] - before[who]
    assert mine.sum() == 1 and mine[action] == 1  # row 0: the observer's own moves
    for q in range(4):
        if q != who:
            assert core.seen[q][-1] == f"P{who + 1}: (a choice made in secret)"
            assert np.array_equal(spec.encode(core, q, info_state=True)[spec.obs_size:], before[q])


def test_importing_an_adapter_without_its_library_names_the_extra(monkeypatch):
    for module, lib, extra in (("openspiel", "pyspiel", "openspiel"), ("pettingzoo", "pettingzoo", "pettingzoo")):
        monkeypatch.setitem(sys.modules, lib, None)
        monkeypatch.delitem(sys.modules, f"interpreter.adapters.{module}", raising=False)
        with pytest.raises(ImportError, match=re.escape(f"pip install 'cardrules[{extra}]'")):
            importlib.import_module(f"interpreter.adapters.{module}")


# -- OpenSpiel

@needs_openspiel
@pytest.mark.parametrize("path", paths_variants_slow(RULESETS, IDS))
def test_openspiel_random_simulation(path):
    """OpenSpiel's own checks over one whole random game: legal actions sorted and unique,
    clones equal, observations and information states for every player at every step, the
    returns within the declared utilities and summing as the utility type says, the length
    within max_game_length. (serialize=False: a Python game cannot hand OpenSpiel the random
    generator state it asks of a sampled-stochastic game; the round trip is tested below.)"""
    from interpreter.adapters.openspiel import load_game
    if refused(path):
        return
    # Euro-Jongg's match runs to thousands of steps (up to 16 hands): one hand shows its rules to the checks;
    # random players never win Shakti, which then runs to its bound of 2,000 decisions: 400 show its rules
    game = load_game(path, **SHORT.get(path.relative_to(ROOT / "rulesets").as_posix(), {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


SHORT = {"euro-jongg/euro-jongg.cards": {"options": {"hands": 1}}, "euro-jongg/house-rules.cards": {"options": {"hands": 1}},
         "mughal/shakti.cards": {"max_decisions": 400}, "mughal/shakti-inverted.cards": {"max_decisions": 400}}


@needs_openspiel
def test_openspiel_game_type_string_and_serialisation():
    from interpreter.adapters.openspiel import CardGame, load_game
    game = load_game("ganjifa", players=3, seed=4)
    t = game.get_type()
    assert t.short_name == "cardrules" and t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.num_players() == 3 and game.max_game_length() == 400 and game.min_utility() == -0.5
    assert game.num_distinct_actions() == spec_for("ganjifa", 3).num_distinct_actions
    again = pyspiel.load_game(str(game))
    assert isinstance(again, CardGame) and str(again) == str(game)
    assert load_game("udvasa").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert "max_bet:7" in str(load_game("komi", options={"max_bet": 7}))
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert back.information_state_string(1) == state.information_state_string(1)
    assert pickle.loads(pickle.dumps(state._core)).spec is state._core.spec


@needs_openspiel
def test_openspiel_plays_the_engines_game_for_a_seed():
    """Game k from one game object is the engine's game with seed `seed + k`, move for move."""
    from interpreter.adapters.openspiel import load_game
    game = load_game("ganjifa", players=3, seed=10)
    spec = spec_for("ganjifa", 3)
    for k in range(2):
        state = game.new_initial_state()
        engine = new_game(spec.program, 3, None, 10 + k)
        rng = random.Random(k)
        while not state.is_terminal():
            mine = sorted((spec.action_id(m.action, m.arg), m) for m in moves_for(engine))
            assert state.legal_actions() == [a for a, _ in mine] and state.current_player() == engine.actor
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            apply(engine, dict(mine)[a])
        assert engine.finished and state.returns() == spec.returns(Core(spec, engine))
    fixed = game.new_initial_state_with_seed(10)
    assert str(fixed).splitlines()[2:] == str(load_game("ganjifa", players=3, seed=10).new_initial_state()).splitlines()[2:]


@needs_openspiel
def test_a_new_state_looked_at_then_played_leaves_the_others_as_they_were():
    """A new state's first position is made once and kept while only looked at; the state that
    plays it first takes it over (not a copy), so another state that looked at the same seed
    must still show, and then play, that seed's first position."""
    from interpreter.adapters.openspiel import load_game
    game = load_game("classic/kuhn-poker", players=2, seed=3)
    first, second = game.new_initial_state(), game.new_initial_state()
    shown = first.information_state_string(0)
    assert second.information_state_string(0) == shown  # (both look at seed 3: neither has played)
    rng = random.Random(0)
    while not first.is_terminal():
        first.apply_action(rng.choice(first.legal_actions()))
    assert second.information_state_string(0) == shown and not second.history()
    fresh = load_game("classic/kuhn-poker", players=2, seed=3).new_initial_state()
    again = []
    for s in (second, fresh):
        r = random.Random(0)
        while not s.is_terminal():
            s.apply_action(r.choice(s.legal_actions()))
        again.append((s.history(), s.returns()))
    assert again[0] == again[1] == (first.history(), first.returns())
    third = game.new_initial_state()  # seed 4, made anew
    assert str(third).splitlines()[2:] == str(load_game("classic/kuhn-poker", players=2, seed=4)
                                               .new_initial_state()).splitlines()[2:]


@needs_openspiel
def test_openspiel_information_set_search_plays_ganjifa():
    """OpenSpiel's ISMCTS bot with a random rollout evaluator, end to end: it samples what it
    cannot see through the adapter's resampling, and finishes whole games."""
    from open_spiel.python.algorithms import ismcts, mcts
    from interpreter.adapters.openspiel import load_game, resampler
    game = load_game("ganjifa/traditional-deni", players=3, seed=1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(1)), uct_c=2.0,
                           max_simulations=8, random_state=np.random.RandomState(1))
    bot.set_resampler(resampler(1))
    rng = random.Random(1)
    results = []
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        results.append(state.returns())
    assert all(abs(sum(r)) < 1e-9 for r in results)
    # the resampling OpenSpiel calls by default (its own sampler) keeps the player's view
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    who = state.current_player()
    sample = state.resample_from_infostate(who, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(who) == state.information_state_string(who)
    assert sample.legal_actions() == state.legal_actions()


@needs_openspiel
def test_openspiel_tensors_by_piece():
    from interpreter.adapters.openspiel import load_game
    game = load_game("kendra-kari", players=3)
    state = game.new_initial_state()
    spec = spec_for("kendra-kari", 3)
    assert game.observation_tensor_size() == spec.obs_size and game.information_state_tensor_size() == spec.info_size
    assert np.array_equal(np.array(state.observation_tensor(1), np.float32), spec.encode(state._core, 1))
    obs = game.make_py_observer()
    obs.set_from(state, 2)
    assert obs.dict["cards"].shape == (spec.n_cards, spec.n_places + 1) and obs.dict["seat"][2] == 1
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                              private_info=pyspiel.PrivateInfoType.NONE))
    assert "hand-P1: " in public.string_from(state, 0) and " cards" in public.string_from(state, 0).split("hand-P1: ")[1]


# -- PettingZoo

_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably should be",
             "Action mask numpy array is all zeros")


@needs_pettingzoo
@pytest.mark.parametrize("path", paths_variants_slow(RULESETS, IDS))
def test_pettingzoo_api(path):
    """PettingZoo's own API test; the only warnings left are those every environment with an
    action mask in a dict observation draws (PettingZoo's own card games are exempted by name)."""
    from pettingzoo.test import api_test
    from interpreter.adapters.pettingzoo import env
    if refused(path):
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(path, seed=3, render_mode="ansi"), num_cycles=20)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)}
    assert not unexpected, unexpected


@needs_pettingzoo
@needs_openspiel
def test_pettingzoo_and_openspiel_agree():
    """The same seed and actions give the same observations, masks and rewards in both."""
    from interpreter.adapters.openspiel import load_game
    from interpreter.adapters.pettingzoo import env
    for name, players in (("ganjifa", 3), ("komi", 2), ("sama-betting", 3)):
        e = env(name, players=players, seed=5)
        e.reset()
        state = load_game(name, players=players, seed=5).new_initial_state()
        rng = random.Random(2)
        totals = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] = totals.get(agent, 0.0) + reward
            if terminated or truncated:
                e.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert seat == state.current_player()
            assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
            assert np.array_equal(obs["observation"], np.array(state.observation_tensor(seat), np.float32))
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            e.step(a)
        assert state.is_terminal() and [totals[f"player_{i}"] for i in range(players)] == state.returns()


@needs_pettingzoo
def test_pettingzoo_truncates_a_game_cut_short_and_refuses_illegal_actions():
    from interpreter.adapters.pettingzoo import env
    e = env("ganjifa", players=3, max_decisions=4, history=True)
    e.reset(seed=2)
    obs, *_ = e.last()
    assert obs["observation"].shape == e.observation_space(e.agent_selection)["observation"].shape
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        e.step(illegal)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
    assert steps == 4 and not e.agents


# a game in which nobody ever chooses: the rules deal and compare, and the game is over
NOBODY_DECIDES = """game war "War"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player public
define score(p: player) = sum c in hand(p): c.order
winner most score
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
"""


@needs_pettingzoo
def test_pettingzoo_refuses_a_game_nobody_decides_in_with_the_reason(tmp_path):
    """It raised gymnasium's ValueError ("n (counts) have to be positive") from an empty action space."""
    from interpreter.adapters.pettingzoo import env
    path = tmp_path / "war.cards"
    path.write_text(NOBODY_DECIDES, encoding="utf-8")
    with pytest.raises(OptionError, match="War offers no move to choose in any game"):
        env(str(path), players=2)


@needs_pettingzoo
def test_pettingzoo_a_game_at_the_rulesets_bound_raises_and_max_decisions_below_it_truncates(tmp_path):
    """As core.py says: the ruleset promised at most 6 decisions, and a player who only waits
    breaks that promise (GameTooLong); max_decisions=5 truncates the same game instead."""
    from interpreter.adapters.pettingzoo import env
    from interpreter.errors import GameTooLong
    path = tmp_path / "waiting.cards"
    path.write_text(WAITING, encoding="utf-8")
    for cap, raises in ((None, True), (5, False)):
        e = env(str(path), players=2, max_decisions=cap)
        e.reset(seed=0)
        wait = next(a for a in range(e.action_space("player_0").n) if e.unwrapped.spec.action_text(a).startswith("wait"))
        with pytest.raises(GameTooLong) if raises else _nothing():
            for agent in e.agent_iter():
                obs, reward, terminated, truncated, _ = e.last()
                e.step(None if terminated or truncated else wait)
            assert truncated and not terminated


def _nothing():
    import contextlib
    return contextlib.nullcontext()


# -- the README's example

def _readme_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Train or search on a Ganjifa variant in ten lines")
    end = text.find("\n## ", start + 4)
    section = text[start:end if end > 0 else None]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_has_the_example():
    blocks = _readme_blocks()
    assert len(blocks) == 3 and "openspiel" in blocks[0] and "pettingzoo" in blocks[1] and "VectorGames" in blocks[2]


@needs_openspiel
def test_the_readme_search_example_runs_as_written(capsys):
    exec(compile(_readme_blocks()[0], "README.md", "exec"), {})
    assert re.search(r"\[-?[0-9.]+, -?[0-9.]+, -?[0-9.]+\]", capsys.readouterr().out)


@needs_pettingzoo
def test_the_readme_training_loop_runs_as_written(capsys):
    exec(compile(_readme_blocks()[1], "README.md", "exec"), {})
    assert "player_0" in capsys.readouterr().out


def test_the_readme_batch_example_runs_as_written(capsys):
    exec(compile(_readme_blocks()[2], "README.md", "exec"), {})
    engine, wins = capsys.readouterr().out.split(" ", 1)
    assert engine in ("native", "python") and re.fullmatch(r"\[\d+\. +\d+\. +\d+\.\]\n", wins), wins
