"""The compiler's mask forms in C (native/codegen/expr.py, op by op): a guarded aggregate's mask
form that meets a none falls back to its loop form exactly where Python's does, so both engines
give the same value, or fail at the same statement. Each scenario below is a mask form that
meets a none (the suit, order or neighbours of a card that is none); the loop form then decides:
a value (the loop stops before the none, or has no card to test) or a failure. The sanitized
driver runs the C of both through those fallbacks."""

from __future__ import annotations

import random

import pytest

import procs
from interpreter import loads_ruleset
from interpreter.compiler.ir import ops as o
from interpreter.engine import apply, legal_moves, new_game, play, public_vars
from interpreter.errors import GameRuntimeError
from interpreter.native import find_compiler
from interpreter.native.engine import NativeGame, native_program
from native_support import build_sanitized, sanitizers_work

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

# seat 1 holds the two 1s, seat 2 the two 2s; `led` is none until a card is played
FALLBACK = """\
game fallback "Mask forms meeting a none"
players 2
at most 12 decisions

deck d "D":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "stock"
zone hand per player owner "hand"
zone pile shared public "pile"

var led: card
var ones: int
var past: int
var top_led: card
var held: int
var evens: int
var red_sum: int
var low_ones: int
var held_low: int

define ones_or_led(p: player) = count c in hand(p) where c.rank == 1 or c.suit == led.suit
define lowest_played = lowest c in pile
define ones_or_lowest(p: player) = count c in hand(p) where c.rank == 1 or c.suit == lowest_played.suit
define past_led = count c in pile where c > led
define highest_led = highest c in pile where c.suit == led.suit
define safe(c: card) = all d in above(c): not (d in hand) or d.owner == c.owner
define held_safe(p: player) = count c in hand(p) where safe(c)
define held_safe_low(p: player) = count c in hand(p) where safe(c) and c.suit == lowest_played.suit
define even_reds(p: player) = count c in hand(p) where c.suit == Red and c.order mod 2 == 0
define red_orders(p: player) = sum c in hand(p) where c.suit == Red and c.order mod 2 == 0: c.order
define score(p: player) = count(hand(p))

winner fewest score

phase deal "Dealing" then play:
    rule deal "The deal":
        move those c in stock where c.rank == 1 to hand(seat(1))
        move those c in stock where c.rank == 2 to hand(seat(2))
        set ones = ones_or_led(seat(1))
        set low_ones = ones_or_lowest(seat(1))
        set past = past_led
        set top_led = highest_led

phase play "Play":
    while any c in cards where c in hand:
        for each player p:
            if count(hand(p)) > 0:
                choose by p:
                    action play c in hand(p) "Play a card.":
                        move c to pile
                        set led = c
                        set ones = ones_or_led(p)
                        set low_ones = ones_or_lowest(p)
                        set past = past_led
                        set top_led = highest_led
                        set held = held_safe(p)
                        set held_low = held_safe_low(p)
                        set evens = even_reds(p)
                        set red_sum = red_orders(p)
"""

# the deal's statement that fails instead, led being none: the mask form meets it, and so does the
# loop form (a card of seat 2's is no 1; seat 1 holds cards to compare; above(none))
FAILING = {
    "a suit of none": "set ones = ones_or_led(seat(2))",
    "a suit of none worked out by a definition": "set low_ones = ones_or_lowest(seat(2))",
    "an order of none": "set past = count c in hand(seat(1)) where c > led",
    "the cards above none": "set held = count c in above(led) where c in hand",
}


def rules(text: str = FALLBACK):
    return loads_ruleset(text, "fallback.cards")


def test_the_mask_forms_are_translated_and_one_is_tried():
    """C reads the compiler's mask forms: in place, the variable `led` tested first where a none
    would make the mask form fail; a function that tries the mask form where a definition works
    the none out (ones_or_lowest, held_safe_low); a set test of its own for the quantifier over
    the cards above (held_safe_low's: held_safe's mask form cannot fail, so C loops there)."""
    p = play.program_of(rules())
    assert all(isinstance(p.def_ir[d][1], o.Guarded) for d in ("ones_or_led", "past_led", "highest_led", "safe",
                                                              "held_safe", "even_reds", "red_orders", "ones_or_lowest",
                                                              "held_safe_low"))
    module = native_program(p).module
    assert module.set_fns
    tried = {d for d in p.def_ir if isinstance(p.def_ir[d][1], o.Guarded) and p.def_ir[d][1].fn in module.guard_fns}
    assert {"ones_or_lowest", "held_safe_low"} <= tried and not {"ones_or_led", "held_safe"} & tried


@pytest.mark.parametrize("seed", range(4))
def test_a_mask_form_meeting_a_none_gives_the_loop_forms_value_on_both_engines(seed):
    rs = rules()
    s, n = new_game(rs, 2, seed=seed), NativeGame(rs, 2, seed=seed)
    # the deal: the mask forms met led's none; the loop forms gave 2 (every card a 1), 2, 0, none
    assert [public_vars(s)[v] for v in ("ones", "low_ones", "past", "top_led")] == [2, 2, 0, None]
    rng = random.Random(seed)
    while True:
        assert public_vars(s) == public_vars(n.view)
        assert [str(m) for m in legal_moves(s)] == [str(m) for m in n.legal_moves()]
        if s.finished:
            break
        m = rng.choice(legal_moves(s))
        apply(s, m)
        n.apply(m)


@pytest.mark.parametrize("what", sorted(FAILING))
def test_a_mask_form_meeting_a_none_where_the_loop_fails_fails_alike(what, monkeypatch):
    text = FALLBACK.replace("        set top_led = highest_led\n\nphase play",
                            f"        {FAILING[what]}\n\nphase play")
    rs = rules(text)
    with pytest.raises(GameRuntimeError) as py:
        new_game(rs, 2, seed=1)
    with pytest.raises(GameRuntimeError) as c:
        NativeGame(rs, 2, seed=1)
    assert str(c.value) == str(py.value)
    # C's own failure, not the Python engine's replayed: the same statement
    monkeypatch.setattr(NativeGame, "_python_failure", lambda self: None)
    with pytest.raises(GameRuntimeError) as own:
        NativeGame(rs, 2, seed=1)
    assert own.value.line == py.value.line


def test_the_fallbacks_run_clean_under_the_sanitizers(tmp_path):
    compiler = find_compiler()
    if not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("this compiler cannot build sanitized programs here")
    for k, text in enumerate([FALLBACK, FALLBACK.replace("        set top_led = highest_led\n\nphase play",
                                                         f"        {FAILING['a suit of none']}\n\nphase play")]):
        p = play.program_of(rules(text))
        opts = native_program(p).options_row(play.resolve_options(p, None))
        width = 8 + len(p.rule_names)
        main = ("\n#include <stdio.h>\nint main(void) {\n"
                f"    int64_t opts[] = {{{', '.join(map(str, opts)) or '0'}}};\n"
                f"    static int64_t out[20 * {width}];\n"
                "    if (cr_play_many(2, opts, 0, 20, INT64_MAX, out)) return 1;\n"
                "    printf(\"%lld %lld\\n\", (long long)out[0], (long long)out[2]);\n"
                "    return 0;\n}\n")
        built = build_sanitized(compiler, p, main, tmp_path / f"driver{k}")
        assert built.returncode == 0, built.stderr[-2000:]
        ran = procs.run([str(tmp_path / f"driver{k}")], capture_output=True, text=True, timeout=300)
        assert ran.returncode == 0, ran.stderr[-2000:]
        failure, decisions = map(int, ran.stdout.split())  # the first game's
        assert (failure, decisions > 0) == ((0, True) if k == 0 else (1, False))  # 1: CR_E_NONE, in the deal
