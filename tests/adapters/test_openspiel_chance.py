"""Explicit chance (`load_game(..., chance="explicit")`): every draw the rules make is a chance node
whose outcomes OpenSpiel's tree algorithms can walk. Kuhn poker as a ruleset is then the game
OpenSpiel's kuhn_poker is: the same tree, and CFR+ gives the same policy values to the last
digit; the game value is -1/18 (Kuhn, "A simplified two-person poker", 1950)."""

from __future__ import annotations

import collections
import pickle
import random

import pytest

from interpreter.errors import OptionError

pyspiel = pytest.importorskip("pyspiel")

from interpreter.adapters.openspiel import load_game  # noqa: E402


def explicit(name: str, **kw):
    return load_game(name, chance="explicit", returns="points", **kw)


def all_states(game) -> dict:
    from open_spiel.python.algorithms import get_all_states
    return get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)


def kinds(states: dict) -> tuple[int, int, int]:
    c = collections.Counter("chance" if s.is_chance_node() else "terminal" if s.is_terminal() else "decision"
                            for s in states.values())
    return c["chance"], c["decision"], c["terminal"]


def test_python_cfr_plus_solves_kuhn_poker_to_its_value():
    """OpenSpiel's Python CFR+, judged by its exploitability and expected_game_score."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    game = explicit("kuhn-poker")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) < 0.01
    first, second = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert first == pytest.approx(-1 / 18, abs=0.01) and second == pytest.approx(-first)


@pytest.mark.parametrize("name,players,iterations", [("kuhn-poker", 2, 100), ("kuhn-poker-three", 3, 10)])
def test_cpp_cfr_plus_gives_what_it_gives_on_openspiels_kuhn_poker(name, players, iterations):
    """The same tree and information sets: C++ CFR+ reaches the same values and NashConv."""
    results = []
    for game in (explicit(name), pyspiel.load_game("kuhn_poker", {"players": players})):
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        results.append((pyspiel.expected_returns(game.new_initial_state(), policy, -1, True),
                        pyspiel.nash_conv(game, policy)))
    (ours, ours_conv), (theirs, theirs_conv) = results
    assert ours == pytest.approx(theirs, abs=1e-9) and ours_conv == pytest.approx(theirs_conv, abs=1e-9)
    if players == 2:
        assert ours[0] == pytest.approx(-1 / 18, abs=0.01) and ours_conv / 2 < 0.01


@pytest.mark.parametrize("name,players,counts", [
    # a shuffle of k cards is k - 1 chance nodes deep (k, k - 1, ..., 2 outcomes): 3 cards, 1 + 3 chance
    # nodes and 3! = 6 deals; each deal has 4 decision points (first, after check, after bet, after
    # check-bet) and 5 ends (check-check, check-bet-fold, check-bet-call, bet-fold, bet-call)
    ("kuhn-poker", 2, (1 + 3, 6 * 4, 6 * 5)),
    # 4 cards: 1 + 4 + 4 * 3 chance nodes, 4! = 24 deals, 12 decision points and 13 ends each
    ("kuhn-poker-three", 3, (1 + 4 + 12, 24 * 12, 24 * 13)),
])
def test_the_tree_has_the_states_derived_and_openspiels_count(name, players, counts):
    states = all_states(explicit(name))
    assert kinds(states) == counts
    assert kinds(all_states(pyspiel.load_game("kuhn_poker", {"players": players}))) == counts
    for s in states.values():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert s.current_player() == pyspiel.PlayerId.CHANCE
            assert [a for a, _ in outcomes] == s.legal_actions() == list(range(len(outcomes)))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len({p for _, p in outcomes}) == 1
            assert not s.is_terminal() and s.returns() == [0.0] * players
        else:
            assert s.chance_outcomes() == []


def test_the_game_type_parameters_and_refusals():
    game = explicit("kuhn-poker")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM and game.max_chance_outcomes() >= 3
    assert game.min_utility() <= -2 and game.max_utility() >= 2  # (a bet called: two chips)
    again = pyspiel.load_game(str(game))
    assert "chance=explicit" in str(game) and again.get_type().chance_mode == t.chance_mode
    # the default stays sampled, with no chance nodes
    sampled = load_game("kuhn-poker")
    assert sampled.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert sampled.max_chance_outcomes() == 0 and not sampled.new_initial_state().is_chance_node()
    with pytest.raises(OptionError, match="chance is one of sampled, explicit"):
        load_game("kuhn-poker", chance="exact")
    with pytest.raises(OptionError, match="Python engine only"):
        load_game("kuhn-poker", chance="explicit", engine="native")
    assert load_game("kuhn-poker", chance="explicit").engine == "python"
    with pytest.raises(OptionError, match="no seed"):
        game.new_initial_state_with_seed(3)
    state = game.new_initial_state()
    with pytest.raises(OptionError, match="chance='sampled'"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(OptionError, match="chance='sampled'"):
        state.reseed(1)
    with pytest.raises(ValueError, match="not one of 0..2"):
        state.apply_action(3)
    with pytest.raises(OptionError, match="counts none"):
        load_game("udvasa", returns="points")


def test_a_deal_by_chance_outcomes_clones_pickles_and_serialises():
    game = explicit("kuhn-poker")
    root = game.new_initial_state()
    assert root.is_chance_node() and root.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert root.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "draw 2"
    half = root.child(2)
    assert half.is_chance_node() and [a for a, _ in half.chance_outcomes()] == [0, 1]
    back = pickle.loads(pickle.dumps(half))
    assert str(back) == str(half) and back.chance_outcomes() == half.chance_outcomes()
    dealt = half.child(1)
    assert dealt.current_player() == 0 and str(back.child(1)) == str(dealt)
    # the shuffle's draws fixed the cards: 2 leaves the King on top, 1 the Queen under it
    assert "hand-P1: King-Spades" in str(dealt) and "hand-P2: Queen-Spades" in str(dealt)
    assert "Queen" not in dealt.information_state_string(0)
    copy = dealt.clone()
    copy.apply_action(copy.legal_actions()[1])
    assert dealt.history() == [2, 1] and copy.history() == [2, 1, copy.history()[-1]]
    again = game.deserialize_state(copy.serialize())
    assert str(again) == str(copy) and again.information_state_string(1) == copy.information_state_string(1)
    assert str(pickle.loads(pickle.dumps(copy))) == str(copy)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


DRAW_IN_PLAY = """
    set bettor = p
    set pot = pot + random(0..2)
"""


def test_a_draw_inside_a_move_is_a_chance_node_after_it(tmp_path):
    """A bet draws 0, 1 or 2 extra chips into the pot: the move is followed by a chance node of
    three outcomes, and the move completes with the outcome chosen."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "rulesets" / "classic" / "kuhn-poker.cards").read_text()
    path = tmp_path / "drawn-pot.cards"
    path.write_text(text.replace("\n    set bettor = p\n", DRAW_IN_PLAY))
    game = load_game(str(path), chance="explicit", returns="points", int_range=(-10, 10))
    s = game.new_initial_state()
    s.apply_action(2)
    s.apply_action(1)
    named = {s.action_to_string(a): a for a in s.legal_actions()}
    s.apply_action(named["bet"])
    assert s.is_chance_node() and s.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert "chance: bet has drawn []" in str(s)
    saved = pickle.dumps(s)
    s.apply_action(2)
    assert s.current_player() == 1 and "pot=5" in str(s)  # (two antes, the bet, two drawn)
    s.apply_action({s.action_to_string(a): a for a in s.legal_actions()}["call"])
    assert s.is_chance_node() and "chance: call has drawn []" in str(s)  # (a call puts in a chip the same way)
    s.apply_action(0)
    # the King takes the pot of 6: chips 4 and -2, each less their mean of 1
    assert s.is_terminal() and s.returns() == [3.0, -3.0]
    assert str(pickle.loads(pickle.dumps(s))) == str(s)  # (the moves' draws are in the recipe)
    back = pickle.loads(saved)
    back.apply_action(0)
    assert "pot=3" in str(back) and back.current_player() == 1
    # the whole tree, a deal at a time (6 deals after 4 chance nodes): a bet or a call is followed by a
    # chance node of 3; P1 bets (1 node; 3 replies by P2, each called: 3 nodes) or checks, and P2
    # checks or bets (1 node; 3 replies by P1, each called: 3 nodes): 8 chance nodes; decisions: P1,
    # P2 after a check, P2 after a bet (3), P1 after check-bet (3); ends: check-check, a fold after
    # either bet (3 + 3) and a call's draw after either (9 + 9)
    assert kinds(all_states(game)) == (4 + 6 * 8, 6 * 8, 6 * (1 + 6 + 18))
    # without the shuffle nothing is drawn: deterministic, no chance node
    path.write_text(text.replace("        shuffle stock\n", ""))
    plain = load_game(str(path), chance="explicit", returns="points")
    assert plain.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert plain.new_initial_state().current_player() == 0


def test_a_draw_explicit_chance_cannot_list_is_refused_naming_the_ruleset(monkeypatch):
    from interpreter.engine.state import State

    def shuffle(self, zi):
        self.chance().random()

    monkeypatch.setattr(State, "shuffle", shuffle)
    game = explicit("kuhn-poker")
    with pytest.raises(OptionError, match=r"Kuhn poker \(classic/kuhn-poker\) draws a real number .* cannot enumerate"):
        game.new_initial_state()


def test_a_random_walk_reaches_only_equal_chance_and_legal_moves():
    """Random play from the root, over several games, on Leduc poker (too large a tree to walk
    here: benchmarks/equilibrium.py solves it): five draws deal the six cards."""
    game = explicit("leduc-poker")
    rng = random.Random(5)
    for _ in range(5):
        s = game.new_initial_state()
        draws = 0
        while s.is_chance_node():
            n = len(s.chance_outcomes())
            assert n == 6 - draws
            s.apply_action(rng.randrange(n))
            draws += 1
        assert draws == 5
        while not s.is_terminal():
            assert not s.is_chance_node()
            s.apply_action(rng.choice(s.legal_actions()))
        assert sum(s.returns()) == pytest.approx(0)


def test_the_readme_cfr_example_runs_as_written(capsys):
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = text.index("## Solve a small game with OpenSpiel's CFR+")
    section = text[start:text.find("\n## ", start + 4)]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(block, "README.md", "exec"), {})
    expl, values = capsys.readouterr().out.split(" ", 1)
    assert float(expl) < 0.001 and float(values.strip("[]\n").split(",")[0]) == pytest.approx(-1 / 18, abs=0.001)


def test_points_are_the_scores_less_their_mean_within_the_declared_bounds():
    """returns="points": Kuhn poker's chips as they are (they sum to 0); scores further apart than
    the bounds int_range gives stop the game with an error rather than break the declared range."""
    from interpreter.errors import GameRuntimeError
    game = load_game("kuhn-poker-three", chance="explicit", returns="points")
    assert (game.min_utility(), game.max_utility()) == (-200 / 3, 200 / 3)  # (int_range (0, 100): 100 * 2/3)
    s = game.new_initial_state()
    for outcome in (3, 2, 1):  # the Ace, the King and the Queen from the top
        s.apply_action(outcome)
    named = {s.action_to_string(a): a for a in s.legal_actions()}
    s.apply_action(named["bet"])
    for _ in range(2):
        s.apply_action({s.action_to_string(a): a for a in s.legal_actions()}["call"])
    assert s.is_terminal() and s.returns() == [4.0, -2.0, -2.0]  # (the Ace takes three antes and three bets)
    narrow = load_game("kuhn-poker", chance="explicit", returns="points", int_range=(0, 1))
    s = narrow.new_initial_state()
    s.apply_action(2)
    s.apply_action(1)
    for _ in range(2):  # check, check: one chip won and lost, two apart
        s.apply_action({s.action_to_string(a): a for a in s.legal_actions()}["check"])
    with pytest.raises(GameRuntimeError, match="further apart than the utility bounds"):
        s.returns()
