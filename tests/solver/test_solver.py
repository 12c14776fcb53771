"""The perfect-information solver (`interpreter.solver`, `cardrules solve`): values checked
against what the game's rules give by hand (Kuhn poker) and against a plain search of the whole
tree with no table and no pruning (late Bridge and Hearts positions)."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from interpreter import load_ruleset
from interpreter.players.bots import bot_seed, make_bot
from interpreter.commands.cli import app
from interpreter.engine import apply, legal_moves, moves_for, new_game, state_digest
from interpreter.errors import OptionError
from interpreter.solver import Solver, solve, utilities
from bundled_games import NAMES, move_key, names_variants_slow, rules
from positions import after, into_play

KUHN = "rulesets/classic/kuhn-poker.cards"
BRIDGE = "rulesets/classic/bridge.cards"
HEARTS = "rulesets/classic/hearts.cards"
RANK = {"Jack": 1, "Queen": 2, "King": 3}


def _left(s) -> int:
    """How many decisions the rest of the game takes (random players, on a copy)."""
    t, n = s.clone(), 0
    bots = [make_bot("random", k) for k in range(s.n_players)]
    while not t.finished:
        apply(t, bots[t.actor].choose(t))
        n += 1
    return n


def _plain_minimax(s, side_of) -> float:
    """The margin of side 0 over side 1, every line searched, nothing remembered or cut."""
    if s.finished:
        u = utilities(s)
        a = [u[x] for x in side_of if side_of[x] == 0]
        b = [u[x] for x in side_of if side_of[x] == 1]
        return sum(a) / len(a) - sum(b) / len(b)
    values = []
    for m in moves_for(s):
        t = s.clone()
        apply(t, m)
        values.append(_plain_minimax(t, side_of))
    return max(values) if side_of[s.actor] == 0 else min(values)


@pytest.mark.parametrize("seed", range(8))
def test_kuhn_with_both_cards_shown_the_higher_card_takes_one_chip(seed):
    s = new_game(load_ruleset(KUHN), 2, None, seed)
    hands = [z for name, z in zip(s.zone_names, s.zones) if name.startswith("hand")]
    mine, theirs = (RANK[s.program.card_names[z[0]].split("-")[0]] for z in hands)
    sol = solve(s)
    assert sol.complete and sol.stopped is None
    want = 2.0 if mine > theirs else -2.0   # one chip won by one, lost by the other
    assert sol.value == want
    assert sol.utilities == ((1, -1) if mine > theirs else (-1, 1))
    # the line ends the game with those chips, and the loser never puts a second chip in
    end = sol.end
    assert end.finished and utilities(end) == sol.utilities
    line = [str(m) for m in sol.line]
    assert line[0] in ("bet", "check")
    if mine < theirs:
        assert line == ["check", "check"] or line[:2] == ["check", "bet"] and line[-1] == "fold"


def _bridge_late(decisions_left: int):
    """A Bridge deal that reached the play, `decisions_left` cards from its end."""
    rs = load_ruleset(BRIDGE)
    for seed in range(40):
        s = new_game(rs, 4, None, seed)
        bots = [make_bot("random", bot_seed(seed, k)) for k in range(4)]
        while not s.finished and not any(str(m).startswith(("play", "lead")) for m in moves_for(s)):
            apply(s, bots[s.actor].choose(s))
        if s.finished:
            continue
        left = _left(s)
        for _ in range(left - decisions_left):
            apply(s, bots[s.actor].choose(s))
        return s
    raise AssertionError("no Bridge deal reached the play")


def test_two_sides_alpha_beta_agrees_with_a_plain_search_of_every_line():
    s = _bridge_late(8)
    sides = [[0, 2], [1, 3]]
    sol = Solver(4, sides).solve(s)
    assert sol.complete
    assert sol.value == _plain_minimax(s, {0: 0, 2: 0, 1: 1, 3: 1})
    assert len(sol.line) == 8 and sol.end.finished
    # the line is what best play gives: its end is worth the value
    u = utilities(sol.end)
    assert (u[0] + u[2]) / 2 - (u[1] + u[3]) / 2 == sol.value


def test_partners_who_do_not_share_their_score_stop_the_solve():
    s = after(HEARTS, 4, 2, 56)
    with pytest.raises(OptionError, match="partners must share") as e:
        Solver(4, [[0, 2], [1, 3]]).solve(s)
    # (sides settled by a later rule, as Sheepshead's partner named by the ace called: a later position)
    assert "The sides are those of the position solved" in str(e.value) and "--after N or --moves" in str(e.value)


def test_max_n_each_seat_takes_its_best_at_every_step_of_the_line():
    s = after(HEARTS, 4, 2, 56)
    sol = solve(s)
    assert sol.complete and sol.end.finished and len(sol.line) == 8
    # at each step, no other move gives the mover more, every seat then playing as the solver says
    t = s
    for m in sol.line:
        mover = t.actor
        best = solve(t).utilities[mover]
        for other in moves_for(t):
            u = t.clone()
            apply(u, other)
            assert solve(u).utilities[mover] <= best
        t = t.clone()
        apply(t, m)
    assert utilities(t) == sol.utilities


def test_a_budget_too_small_answers_from_the_deepest_search_that_finished():
    s = _bridge_late(40)
    sol = Solver(4, [[0, 2], [1, 3]], nodes=300).solve(s)
    assert not sol.complete and sol.stopped == "nodes"
    assert 1 <= sol.depth < 40 and sol.nodes == 301
    assert len(sol.line) == sol.depth and not sol.end.finished
    assert not math.isinf(sol.value)


def test_the_solver_leaves_the_position_as_it_was():
    s = after(HEARTS, 4, 2, 56)
    before = ([list(z) for z in s.zones], list(s.slots), len(s.history))
    solve(s)
    assert ([list(z) for z in s.zones], list(s.slots), len(s.history)) == before


# ---- the command

runner = CliRunner()


def test_solve_command_prints_the_value_the_line_and_the_scores():
    r = runner.invoke(app, ["solve", "kuhn-poker", "--seed", "5"])
    assert r.exit_code == 0, r.output
    assert "solved to the end of the game" in r.output
    assert "value: 2" in r.output and "P1 1, P2 -1" in r.output
    assert "the best line: P1 bet; P2 fold" in r.output


def test_solve_command_json_and_moves_given():
    r = runner.invoke(app, ["solve", "kuhn-poker", "--seed", "5", "--moves", "check", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["position"] == "after the 1 move given" and out["to_move"] == "P2"
    assert out["complete"] and out["value"] == 2.0 and out["method"] == "alpha-beta"
    assert out["line"][0] == "P2 check"


def test_solve_command_says_when_it_did_not_reach_the_end():
    r = runner.invoke(app, ["solve", "hearts", "-n", "4", "--seed", "2", "--after", "20", "--nodes", "50"])
    assert r.exit_code == 0, r.output
    assert "NOT solved to the end: the positions allowed (--nodes) ran out" in r.output


@pytest.mark.parametrize("visible", [True, False])
def test_a_patience_the_full_search_cannot_finish_is_solved_by_the_planning_search(visible):
    """Klondike, deal 1, its cards shown to the player or dealt face down: 2,000 positions are far
    too few for the full search, but the planning search, seeing every card as the solver does,
    finds a won game, which nothing beats: solved, worth 1, on both engines alike, and the line it
    prints wins when played from the deal."""
    from interpreter.engine import Move, outcome
    from interpreter.native import find_compiler
    args = ["solve", "klondike", "-o", f"visible={str(visible).lower()}", "--seed", "1", "--nodes", "2000"]
    engines = ["python"] + (["native"] if find_compiler() else [])
    outs = []
    for engine in engines:
        r = runner.invoke(app, [*args, "--engine", engine, "--json"])
        assert r.exit_code == 0, r.output
        outs.append(json.loads(r.output))
    out = outs[0]
    assert out["complete"] and out["found_by"] == "plan" and out["value"] == 1.0 and out["finished"]
    assert all(o["line"] == out["line"] and o["found_by"] == "plan" for o in outs)
    s = new_game(load_ruleset("klondike"), 1, {"visible": visible}, 1)
    for text in out["line"]:
        wanted = Move.parse(text.split(" ", 1)[1], 0)
        apply(s, next(m for m in moves_for(s) if (m.action, m.arg) == (wanted.action, wanted.arg)))
    assert s.finished and tuple(outcome(s).winners) == (0,)
    r = runner.invoke(app, [*args, "--engine", "python"])
    assert "solved: the seat can win" in r.output and "value: 1 " in r.output


def test_a_patience_the_planning_search_cannot_win_stays_unsolved():
    """Klondike deal 18, every card shown, is one the planning search does not win within 2,000
    positions: the answer stays the full search's, NOT solved."""
    r = runner.invoke(app, ["solve", "klondike", "-o", "visible=true", "--seed", "18", "--nodes", "2000",
                            "--engine", "python", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert not out["complete"] and out["found_by"] == "search" and out["stopped"] == "nodes"


@pytest.mark.parametrize("args, message", [
    (["--sides", "1"], "must name each of the 2 seats exactly once"),
    (["--sides", "1+5, 2"], "no seat '5'"),
    (["--after", "30"], "the game ends after"),
    (["--moves", "check; raise"], "move 2, 'raise', is not legal for P2 now"),
    (["--after", "1", "--moves", "check"], "give --after or --moves, not both"),
    (["-n", "5"], "is for 2 players, not 5"),
])
def test_solve_command_bad_input_is_a_clear_error(args, message):
    r = runner.invoke(app, ["solve", "kuhn-poker", *args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_every_bundled_game_is_solved_from_a_position_of_its_play(name):
    """`cardrules solve` works on every classic and seed game and every variant: from the position
    after ten random decisions (or the start, for a game that ends sooner), a small budget of
    positions gives a value for each seat and a best line that replays, move by move, as legal
    moves to the position it says it ends in (the end of the game when solved to the end)."""
    s = into_play(rules(name), seed=1)
    n = s.n_players
    sol = solve(s, nodes=300)
    assert len(sol.utilities) == n and all(math.isfinite(u) for u in sol.utilities) and math.isfinite(sol.value)
    t = s.clone()
    for m in sol.line:
        assert move_key(m) in {move_key(x) for x in legal_moves(t)}, (m, sol.line)
        apply(t, m)
    assert state_digest(t) == state_digest(sol.end)
    assert t.finished or not sol.complete
