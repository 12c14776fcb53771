"""The meld search in C keeps the answers of its pure group tests for good, and a whole search's
answer where every test (and the score) is pure (native/codegen/purity.py, runtime/unit/split.c):
only a test that reads nothing of the game may be kept, since a test that reads a variable, an
option or where a card lies may answer the same cards otherwise later."""

from __future__ import annotations

import random

import pytest
from small_games import BASE

from interpreter import engines, load_ruleset, loads_ruleset
from interpreter.engine import apply, legal_moves, new_game, program_of, state_digest
from interpreter.native.codegen.emit import Module

HIT = "define hit(g: cards) = (count x in g where x.suit == Red) >= 1"
# `hit` reads a variable that every move turns (0, 1, 2, 0, ...: not in step with the two players' turns):
# the same cards are a hit one turn and not the next
FLIPPING = BASE.replace("VARS", "var flip: int = 0").replace(
    HIT, "define hit(g: cards) = (count x in g where x.suit == Red) >= 1 + flip").replace(
    "ACTIONS", """action keep c in hand(turn) where split hand(turn) into 1 hit of 1 and 1 rest:
                    move c to pile
                    set flip = (flip + 1) mod 3
                action drop c in hand(turn) where not (split hand(turn) into 1 hit of 1 and 1 rest):
                    move c to pile
                    set flip = (flip + 1) mod 3""")
# the same game with a test that reads only the cards it is given
STEADY = FLIPPING.replace(">= 1 + flip", ">= 1")


def test_the_tests_that_read_only_their_cards_are_pure():
    m = Module(program_of(load_ruleset("rulesets/euro-jongg/euro-jongg.cards")))
    pure = {name: m.purity.pure(name) for name in ("is_set", "is_pair", "is_run", "is_book", "alike", "standard",
                                                   "group_points", "alike_held", "needed")}
    assert pure == {"is_set": True, "is_pair": True, "is_run": True, "is_book": True, "alike": True, "standard": True,
                    # the claimed discard (a variable); a hand (a zone); the sets laid down (a variable)
                    "group_points": False, "alike_held": False, "needed": False}


@pytest.mark.parametrize("body,pure", [
    ("(count x in g where x.suit == Red) >= 1", True),
    ("(count x in g where x.suit == Red) >= 1 + flip", False),        # a variable
    ("(count x in g where x in pile) >= 1", False),                   # where a card lies
    ("(count x in g where x.face_up) >= 1", False),                   # its face
    ("count(g) <= player_count", False),                              # how many play
])
def test_a_test_reading_the_game_is_not_pure(body, pure):
    p = program_of(loads_ruleset(FLIPPING.replace("(count x in g where x.suit == Red) >= 1 + flip", body)))
    m = Module(p)
    assert m.purity.pure("hit") is pure
    source = m.source(players=False)
    assert ("pure[0] = 1" in source) is pure
    assert "pure[1] = 1" in source  # (`rest`, true of any group, is pure in every case)
    assert (".whole = 1" in source) is pure  # (the whole search's answer is kept only where every test is pure)


@pytest.mark.parametrize("name,text", [("flipping", FLIPPING), ("steady", STEADY)])
def test_a_kept_answer_never_changes_a_game(name, text):
    """Every decision's legal moves alike on both engines, game after game in one thread (the kept
    answers outlive a game): with `hit` kept where it reads `flip`, the native engine would offer
    `keep` where the Python engine offers `drop`."""
    rs = loads_ruleset(text)
    native = engines.choose(program_of(rs), "native").native
    for seed in range(25):
        py, c = new_game(rs, 2, {}, seed), engines.new_game(rs, 2, {}, seed, engine=native)
        rng = random.Random(seed)
        while not py.finished:
            offered = [str(m) for m in legal_moves(py)]
            assert [str(m) for m in legal_moves(c)] == offered, (name, seed, len(py.history))
            k = rng.randrange(len(offered))
            apply(py, legal_moves(py)[k])
            apply(c, legal_moves(c)[k])
        assert c.finished and state_digest(c) == state_digest(py)


def test_the_kept_answers_run_clean_under_the_sanitizers(tmp_path):
    """Both kinds of kept answer under ASan and UBSan (STEADY's search keeps its tests' answers and
    its own): whole games in C, each the game the Python engine plays (its decisions and scores)."""
    import procs
    from native_support import build_sanitized, sanitizers_work
    from interpreter.engine import moves_for, outcome, play
    from interpreter.native import find_compiler
    from interpreter.native.engine import native_program
    from interpreter.players.bots import bot_seed
    compiler = find_compiler()
    if compiler is None or not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("this compiler cannot build sanitized programs here")
    rs = loads_ruleset(STEADY)
    p = play.program_of(rs)
    opts = native_program(p).options_row(play.resolve_options(p, None))
    w, games = 5 + 2 + len(p.rule_names), 30  # (a row: code, over, decisions, declared twice, the scores, the rules fired)
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts))}}};\n"
            f"    static int64_t out[{games} * {w}];\n"
            f"    if (cr_play_many(2, opts, 0, {games}, INT64_MAX, out)) return 1;\n"
            f"    for (int g = 0; g < {games}; g++) printf(\"%lld %lld %lld\\n\", (long long)out[g * {w} + 2],"
            f" (long long)out[g * {w} + 5], (long long)out[g * {w} + 6]);\n"
            "    return 0;\n}\n")
    built = build_sanitized(compiler, p, main, tmp_path / "driver")
    assert built.returncode == 0, built.stderr[-2000:]
    ran = procs.run([str(tmp_path / "driver")], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    lines = ran.stdout.splitlines()
    assert len(lines) == games and "#define CR_TC_N 16384" in (tmp_path / "driver.c").read_text()
    for g, line in enumerate(lines):
        s = new_game(rs, 2, None, seed=g)
        rngs = [random.Random(bot_seed(g, k)) for k in range(2)]
        while not s.finished and legal_moves(s):
            apply(s, rngs[s.actor].choice(moves_for(s)))
        assert [int(v) for v in line.split()] == [s.decisions, *outcome(s).scores], g
