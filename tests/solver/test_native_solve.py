"""The perfect-information solver in C (native/runtime/unit/solve.c, native/minimax.py): on a game of
the native engine, solve() and Solver.solve search in C and give the Python reference's Solution
exactly (value, utilities, complete, depth, stopped, nodes, the best line move for move); what C
cannot work out as Python would is solved in Python; `cardrules solve --engine` chooses; and the
solver's C runs clean under the sanitizers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import procs
from interpreter import load_ruleset, loads_ruleset
from interpreter.players.bots import bot_seed, make_bot
from interpreter.commands.cli import app
from interpreter.engine import apply, moves_for, new_game
from interpreter.engine import sides as ruleset_sides
from interpreter.errors import OptionError
from interpreter.language.graph import draws_at_random
from interpreter.native import find_compiler
from interpreter.native.engine import native_program, new_native_game
from interpreter.native.minimax import solve_in_c
from interpreter.solver.minimax import _draws
from interpreter.solver import Solver, solve
from bundled_games import NAMES, names_variants_slow, rules
from positions import after, into_play
from native_support import build_sanitized, sanitizers_work

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

KUHN = "rulesets/classic/kuhn-poker.cards"
BRIDGE = "rulesets/classic/bridge.cards"
HEARTS = "rulesets/classic/hearts.cards"
SPADES = "rulesets/classic/spades.cards"
GOOFSPIEL = "rulesets/classic/goofspiel.cards"
UDVASA = "rulesets/mughal/udvasa.cards"
TAROK = "rulesets/classic/tarok.cards"
PAIRS = [[0, 2], [1, 3]]


def _native_twin(s, seed: int):
    """The Python position `s` (a game begun from `seed`) on the native engine: its moves made again."""
    n = new_native_game(s.program.ruleset, s.n_players, None, seed)
    for m in s.history:
        apply(n, next(x for x in n._legal if (x.player, x.action, x.arg) == (m.player, m.action, m.arg)))
    return n


def _late(path: str, players: int, seed: int, left: int):
    """A trick-taking deal that reached its play (the first lead), `left` decisions from its end."""
    s = new_game(load_ruleset(path), players, None, seed)
    bots = [make_bot("random", bot_seed(seed, k)) for k in range(players)]
    while not any(str(m).startswith(("play", "lead")) for m in moves_for(s)):
        apply(s, bots[s.actor].choose(s))
    t, n = s.clone(), 0
    others = [make_bot("random", k) for k in range(players)]
    while not t.finished:
        apply(t, others[t.actor].choose(t))
        n += 1
    for _ in range(n - left):
        apply(s, bots[s.actor].choose(s))
    return s


def _answer(sol) -> tuple:
    return (sol.value, type(sol.value), sol.utilities, sol.complete, sol.depth, sol.stopped, sol.nodes,
            [(m.player, m.action, m.arg) for m in sol.line], sol.end.finished)


def _c_only(solver, n):
    """C's answer alone (None when C gives the position back), made into a Solution as Solver.solve makes it."""
    got = solve_in_c(solver.sides, solver.budget, solver.deadline, _draws(n.program), n)
    return None if got is None else solver._from_c(n, got)


def _same(s, seed: int, sides=None, nodes: int = 1_000_000):
    """Python's Solution of `s` and C's of its native twin are the same; C answered itself."""
    n = _native_twin(s, seed)
    if sides is None:
        sides = [list(side) for side in ruleset_sides(s)]
    python = Solver(s.n_players, sides, nodes).solve(s)
    in_c = _c_only(Solver(n.n_players, sides, nodes), n)
    assert in_c is not None, "C gave the position back"
    assert _answer(in_c) == _answer(python)
    assert _answer(Solver(n.n_players, sides, nodes).solve(n)) == _answer(python)  # and through the front door
    return python


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_every_bundled_game_is_solved_alike_on_both_engines(name):
    """A position of every bundled game and variant, solved in C on the native engine, is the Python
    engine's Solution (value, utilities, budget, the best line), C answering itself."""
    _same(into_play(rules(name), seed=1), 1, nodes=300)


@pytest.mark.parametrize("seed", range(8))
def test_kuhn_from_the_start(seed):
    sol = _same(new_game(load_ruleset(KUHN), 2, None, seed), seed)
    assert sol.complete and abs(sol.value) == 2.0


@pytest.mark.parametrize("left", [8, 12])
def test_late_bridge_with_sides(left):
    sol = _same(_late(BRIDGE, 4, 0, left), 0, PAIRS)
    assert sol.complete and len(sol.line) == left


@pytest.mark.parametrize("seed, left", [(2, 8), (3, 12)])
def test_late_hearts_each_for_itself(seed, left):
    sol = _same(_late(HEARTS, 4, seed, left), seed)
    assert sol.complete and isinstance(sol.value, int)  # max^n: the mover's score, an int as in Python


def test_a_spades_position_by_its_sides():
    sol = _same(_late(SPADES, 4, 0, 12), 0)
    assert sol.sides == ((0, 2), (1, 3)) and sol.complete


def test_a_budget_too_small():
    sol = _same(_late(BRIDGE, 4, 1, 40), 1, PAIRS, nodes=300)
    assert not sol.complete and sol.stopped == "nodes" and sol.nodes == 301


def test_a_patience_the_budget_stops():
    s = new_game(load_ruleset(UDVASA), 1, None, 2)
    sol = _same(s, 2, nodes=2000)
    assert not sol.complete and sol.stopped == "nodes" and len(sol.sides) == 1


def test_a_move_that_reaches_the_decision_cap_is_a_leaf():
    """A patience cut to 5 decisions: the lines that reach the cap are judged by the scores there
    (and the best line stops at the move that reaches it), on both engines alike."""
    text = Path(UDVASA).read_text(encoding="utf-8")
    rs = loads_ruleset(re.sub(r"at most [0-9,]+ decisions", "at most 5 decisions", text), "udvasa-short.cards")
    s = new_game(rs, 1, None, 1)
    n = new_native_game(rs, 1, None, 1)
    python = Solver(1, None, 20000).solve(s)
    in_c = _c_only(Solver(1, None, 20000), n)
    assert in_c is not None and _answer(in_c) == _answer(python)
    assert python.complete and len(python.line) == 5 and not python.end.finished


def test_a_score_not_yet_readable_at_the_horizon_gives_no_signal():
    """Tarok's score reads the first trick's leader, none until the talon is exchanged: positions
    at the horizon there are worth the same to every seat (as the greedy player takes a score it
    cannot read yet), on both engines alike and C answering itself. The `pimc` player met this
    as a Python TypeError in the middle of `cardrules play`."""
    s = after(TAROK, 3, 120, 3)
    from interpreter.engine import scores
    from interpreter.errors import GameRuntimeError
    with pytest.raises(GameRuntimeError, match="while working out the score"):
        scores(after(TAROK, 3, 120, 5))  # the position two moves on: its score cannot be read (located)
    sol = _same(s, 120, nodes=300)
    assert sol.stopped == "nodes" and not sol.complete and sol.value == 90


def test_choices_made_in_secret_are_part_of_a_position():
    """Goofspiel's bids are sealed until both are in: the position's key holds them, on both engines."""
    _same(after(GOOFSPIEL, 2, 0, 15), 0, nodes=3000)


def test_what_c_gives_back_python_solves():
    """Partners who do not share their score: C gives the position back, and Python's error is the
    answer on the native engine too."""
    s = after(HEARTS, 4, 2, 56)
    n = _native_twin(s, 2)
    assert _c_only(Solver(4, PAIRS), n) is None
    with pytest.raises(OptionError, match="partners must share"):
        Solver(4, PAIRS).solve(n)


def test_the_solver_leaves_the_native_position_as_it_was():
    n = _native_twin(_late(HEARTS, 4, 2, 8), 2)

    def now():
        n.native.sync()  # (the view of the C state, brought up to date)
        return [list(z) for z in n.zones], list(n.slots), len(n.history), [str(m) for m in moves_for(n)]
    before = now()
    solve(n)
    assert now() == before


# ---- the command

runner = CliRunner()


def test_solve_command_answers_alike_on_both_engines():
    out = {}
    for engine in ("python", "native"):
        r = runner.invoke(app, ["solve", "hearts", "-n", "4", "--seed", "2", "--after", "54", "--json", "--engine", engine])
        assert r.exit_code == 0, r.output
        out[engine] = json.loads(r.stdout)
        out[engine].pop("seconds")
    assert out["python"] == out["native"] and out["native"]["complete"]


def test_solve_command_says_which_engine():
    r = runner.invoke(app, ["solve", "kuhn-poker", "--seed", "5"])
    assert r.exit_code == 0 and r.stderr.startswith("engine: native (C, built by ")
    r = runner.invoke(app, ["solve", "kuhn-poker", "--seed", "5", "--engine", "python"])
    assert r.exit_code == 0 and r.stderr == "engine: python (as asked)\n"
    r = runner.invoke(app, ["solve", "kuhn-poker", "--engine", "warp"])
    assert r.exit_code == 2 and "--engine is one of auto, python, native, not 'warp'" in r.stderr


def test_solve_command_where_c_cannot_build_the_ruleset(monkeypatch, tmp_path):
    """auto solves in Python then, and says why; native is refused in one line (exit 2)."""
    import interpreter.native.codegen.expr as expr
    f = tmp_path / "k.cards"
    f.write_text(Path(KUHN).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.delattr(expr.Expr, "x_AggLoop")  # a construct the backend would not know
    r = runner.invoke(app, ["solve", str(f), "--seed", "5"])
    assert r.exit_code == 0 and r.stderr == "engine: python (no native engine: the operation AggLoop)\n"
    assert "the best line: P1 bet; P2 fold" in r.stdout
    r = runner.invoke(app, ["solve", str(f), "--engine", "native"])
    assert r.exit_code == 2 and r.stderr == "error: the operation AggLoop\n"


# ---- the sanitizers

def test_the_solver_runs_clean_under_the_sanitizers(tmp_path):
    """The solver's C (its table, its levels of children and its path, all grown as it goes) in a
    Spades deal by its sides, under ASan and UBSan: the answer the library gives."""
    compiler = find_compiler()
    if not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("this compiler cannot build sanitized programs here")
    rs = load_ruleset(SPADES)
    s = new_native_game(rs, 4, None, 3)
    steps = 0
    while not any(str(m).startswith(("play", "lead")) for m in moves_for(s)) or steps < 24:
        apply(s, moves_for(s)[0])
        steps += 1
    sol = Solver(4, PAIRS, 3000).solve(s)
    p = s.program
    opts = native_program(p).options_row(s.opts)
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts))}}};\n"
            "    size_t bytes = cr_state_bytes(4);\n"
            "    uint64_t *mem = calloc(bytes / 8 + 1, 8);\n"
            "    uint32_t seed[1] = {3};\n"
            "    if (!mem || cr_new(mem, bytes, 4, seed, 1, opts)) return 2;\n"
            f"    for (int k = 0; k < {steps}; k++) if (cr_apply(mem, 0)) return 3;\n"
            "    int32_t sides[4] = {0, 2, 1, 3}, starts[3] = {0, 2, 4}, line[256];\n"
            "    double value; int64_t info[7];\n"
            f"    if (cr_solve(mem, sides, starts, 2, {int(draws_at_random(rs))}, 3000, 0.0, line, 256, &value, info)) return 4;\n"
            "    printf(\"%.17g %lld %lld\", value, (long long)info[0], (long long)info[4]);\n"
            "    for (int32_t k = 0; k < info[4]; k++) printf(\" %d\", line[k]);\n"
            "    printf(\"\\n\");\n"
            "    free(mem);\n"
            "    return 0;\n}\n")
    built = build_sanitized(compiler, p, main, tmp_path / "solve")
    assert built.returncode == 0, built.stderr[-2000:]
    ran = procs.run([str(tmp_path / "solve")], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    value, nodes, n, *line = ran.stdout.split()
    t, want = s, []
    for m in sol.line:
        want.append(str(moves_for(t).index(m)))
        t = t.clone()
        apply(t, m)
    assert (float(value), int(nodes), int(n), line) == (sol.value, sol.nodes, len(sol.line), want)
