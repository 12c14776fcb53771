"""One place chooses the engine (interpreter/engines.py): the API's new_game(..., engine=), and the
one line every command prints, from the same rules."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter import OptionError, apply, legal_moves, load_ruleset, new_game, outcome
from interpreter import engines
from interpreter.bundled import bundled
from interpreter.engine import program_of, state_digest
from interpreter.native import find_compiler

ROOT = Path(__file__).resolve().parents[2]
needs_cc = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


@pytest.fixture(scope="module")
def hearts():
    return load_ruleset(bundled()["classic/hearts"])


def _played(state, seed: int) -> tuple:
    rng = random.Random(seed)
    moves = []
    while not state.finished and legal_moves(state):
        m = rng.choice(legal_moves(state))
        moves.append(str(m))
        apply(state, m)
    return moves, outcome(state), state_digest(state.native.view if state.native is not None else state)


@needs_cc
def test_the_api_plays_the_same_game_on_every_engine(hearts):
    games = {e: new_game(hearts, 4, seed=5, engine=e) for e in ("python", "native", "auto")}
    assert games["python"].native is None
    assert games["native"].native is not None and games["auto"].native is not None
    assert new_game(hearts, 4, seed=5).native is None  # the oracle unless asked
    played = {e: _played(s, 5) for e, s in games.items()}
    assert played["python"] == played["native"] == played["auto"]
    assert len(played["python"][0]) > 40


def test_an_unknown_engine_is_an_option_error(hearts):
    with pytest.raises(OptionError, match="one of auto, python, native, not 'c'"):
        new_game(hearts, 4, engine="c")
    with pytest.raises(OptionError):
        engines.choose(program_of(hearts), "fast")
    with pytest.raises(OptionError):
        engines.at_start("fast", "later")


def test_python_whatever_is_asked_when_a_person_plays(hearts):
    p = program_of(hearts)
    assert engines.choose(p, "python", python_only="a person plays").line == "engine: python (as asked)"
    choice = engines.choose(p, "auto", python_only="a person plays")
    assert (choice.name, choice.line) == ("python", "engine: python (a person plays)")
    with pytest.raises(OptionError, match="--engine native cannot play this: a person plays"):
        engines.choose(p, "native", python_only="a person plays")


# every bundled player chooses in C; one written in Python alone (as a new player is, before its
# C) is played as the planning player was before its search was in C
PYTHON_ONLY = ("random", "ismcts", "greedy")


@needs_cc
def test_auto_plays_in_python_the_bots_that_decide_in_python(hearts, monkeypatch):
    assert engines.choose(program_of(hearts), "auto", bots=["random", "greedy", "plan:2", "ismcts"]).name == "native"
    monkeypatch.setattr(engines, "IN_C", PYTHON_ONLY)
    p = program_of(hearts)
    choice = engines.choose(p, "auto", bots=["random", "greedy", "plan:2", "plan"])
    assert choice.line == "engine: python (its bots (plan, plan:2) decide in Python)"
    assert engines.choose(p, "auto", bots=["random", "ismcts:50", "greedy"]).name == "native"
    assert engines.choose(p, "native", bots=["plan"]).name == "native"  # asked for: the bots read it from C
    assert engines.choose(p, "auto", auto_python="slower in C").line == "engine: python (slower in C)"
    assert engines.choose(p, "native", auto_python="slower in C").name == "native"


@needs_cc
def test_a_report_of_several_runs_says_which_play_in_python(hearts, monkeypatch):
    native = engines.choose(program_of(hearts), "auto")
    assert engines.per_run(native, "auto", [("random",), ("random", "plan")]) == ("native", native.line)
    monkeypatch.setattr(engines, "IN_C", PYTHON_ONLY)
    assert engines.per_run(native, "auto", [("random",), ("random", "plan")]) == (
        "auto", f"{native.line}; the games with plan play in Python (its bots (plan) decide in Python)")
    assert engines.per_run(native, "auto", [("plan",)]) == ("python", "engine: python (its bots (plan) decide in Python)")
    assert engines.per_run(native, "native", [("plan",)]) == ("native", native.line)
    assert engines.per_run(native, "auto", [("random",), ("random", "greedy")]) == ("native", native.line)
    assert engines.run_engine("auto", ("random", "plan")) == "python"
    assert engines.run_engine("auto", ("random", "ismcts", "greedy")) == "native"


def test_no_other_module_starts_a_native_game():
    """Every front door goes through engines.new_game; only the engines' differential checks
    (fuzz --engines) start a game on each engine on purpose."""
    allowed = {"interpreter/engines.py", "interpreter/fuzz/differential.py"}
    callers = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "interpreter").rglob("*.py")
                     if re.search(r"\bnew_native_game\(", p.read_text(encoding="utf-8"))
                     and not p.relative_to(ROOT).as_posix().startswith("interpreter/native/"))
    assert [c for c in callers if c not in allowed] == []


def test_whole_games_in_c_only_when_every_player_is_random():
    assert engines.all_random(["random", "random"])
    assert not engines.all_random(["random", "ismcts"])
    pattern = re.compile(r'== "random" for|!= "random" for')  # the test, written again elsewhere
    again = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "interpreter").rglob("*.py")
                   if pattern.search(p.read_text(encoding="utf-8")) and p.name != "engines.py")
    assert again == []


@needs_cc
@pytest.mark.parametrize("job", ["play", "balance"])
def test_a_worker_without_a_compiler_plays_in_python_and_the_client_says_so(job, monkeypatch, capsys):
    """The client chose native; a worker whose machine cannot build the C engine plays the same
    games in Python, and the command prints one line naming the machine and why."""
    import interpreter.native.engine as native_engine
    from interpreter.native.toolchain import NativeUnavailable
    from interpreter.balance.jobs import balance, balance_games
    from interpreter.playing import play, play_games
    from interpreter.runner import source_of
    src = source_of(bundled()["ganjifa/ganjifa"])
    if job == "play":
        args = {"seed": 3, "players": 3, "options": {}, "bots": {0: "random", 1: "random", 2: "random"}, "log": True}
    else:
        args = {"seed": 3, "label": "A", "path": str(bundled()["ganjifa/ganjifa"]), "players": 3, "options": (),
                "bots": ("random",) * 3, "rotate": "greedy"}
    work = play_games if job == "play" else balance_games
    in_c = work((src,), range(2), {**args, "engine": "native"})
    in_python = work((src,), range(2), {**args, "engine": "python"})
    assert in_c["note"] is None and in_python["note"] is None

    def no_compiler(*a, **k):
        raise NativeUnavailable("no C compiler found (set CC, or install cardrules[native])")
    monkeypatch.setattr(native_engine, "native_program", no_compiler)
    here = work((src,), range(2), {**args, "engine": "native"})
    assert re.fullmatch(r"[^:\s]+: no C compiler found \(set CC, or install cardrules\[native\]\)", here["note"])
    assert {k: v for k, v in here.items() if k != "note"} == {k: v for k, v in in_c.items() if k != "note"}

    class Here:  # a runner of one process, its results as the workers' would come
        parallelism = 1

        def run(self, tasks, advance=None, stop=None, each=None):
            return {t.key: t.function(t.sources, t.items, t.args) for t in tasks}
    if job == "play":
        play(Here(), bundled()["ganjifa/ganjifa"], load_ruleset(bundled()["ganjifa/ganjifa"]), 3, {}, 3, 2,
              args["bots"], True, engine="native")
    else:
        from interpreter.balance.games import Config
        cfg = Config("A", args["path"], load_ruleset(args["path"]), 3, (), ("random",) * 3, "greedy")
        balance(Here(), [(cfg, 3)], 3, engines=["native"])
    err = capsys.readouterr().err
    assert re.fullmatch(r"engine: python on some workers \(the same games, slower; no native engine there: "
                        r"[^:\s]+: no C compiler found \(set CC, or install cardrules\[native\]\)\)\n", err)


def test_a_game_is_set_up_from_a_bundled_name_or_a_path_as_from_the_ruleset(hearts):
    """The API reads a ruleset it is given by name or path, as the adapters and commands do; what
    is none of these is an error that says what is wanted, not an AttributeError from deep in."""
    want = _played(new_game(hearts, 4, seed=3), 3)
    assert _played(new_game("classic/hearts", 4, seed=3), 3) == want
    assert _played(new_game(bundled()["classic/hearts"], 4, seed=3), 3) == want
    assert _played(new_game(str(bundled()["classic/hearts"]), 4, seed=3), 3) == want
    with pytest.raises(OptionError, match="no such ruleset file or bundled game: 'hartz'"):
        new_game("hartz", 4)
    with pytest.raises(OptionError, match=r"a loaded Ruleset \(load_ruleset\), a .cards file's path or a bundled "
                                          r"game's name, not int"):
        new_game(7, 4)
