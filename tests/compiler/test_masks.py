"""The fast path's pieces, one by one: the mask compiler agrees with the loops it replaces
(duplicates, none guards, highest and lowest), fused statements still name the statement that
fails, and State.verify notices masks that drifted from the zones."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter import loads_ruleset
from interpreter.compiler import compile_ruleset
from interpreter.engine import apply, evaluate, legal_moves, new_game, position, public_vars
from interpreter.errors import GameRuntimeError

ROOT = Path(__file__).resolve().parents[2]

SMALL = """\
game masks "Masks"
players 2
at most 40 decisions

deck small "Twelve cards":
    suits Red, Blue, Green
    ranks 1..4

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone table shared public "table"

var last: card

define reds_twice(p: player) = count c in hand(p) + hand(p) where c.suit == Red
define reds_once(p: player) = count c in hand(p) where c.suit == Red
define same_suit_as_last(p: player) = count c in hand(p) where last != none and c.suit == last.suit
define best(p: player) = highest c in hand(p) + table where c.suit != Green
define worst(p: player) = lowest c in hand(p) where not (c.rank == 4)
define all_low(p: player) = all c in hand(p): c.rank == 1 or c.rank == 2
define above_last(p: player) = count c in hand(p) where last != none and c > last
define below_last_rank(p: player) = count c in hand(p) where last != none and c.rank < last.rank
define score(p: player) = count(hand(p))

winner fewest score

phase deal "Dealing" then play:
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each hand

phase play "Play":
    while any c in cards where c in hand:
        for each player p:
            if count(hand(p)) > 0:
                choose by p:
                    action play c in hand(p) where last == none or c.suit == last.suit or c.rank == last.rank "Play a card.":
                        move c to table
                        set last = c
                    action pass when (no c in hand(p) where last == none or c.suit == last.suit or c.rank == last.rank) "Pass.":
                        move hand(p) to table
"""

DEFS = ["reds_twice", "reds_once", "same_suit_as_last", "best", "worst", "all_low", "above_last", "below_last_rank"]


@pytest.fixture(scope="module")
def small():
    return loads_ruleset(SMALL, str(ROOT / "tests" / "masks.cards"))


def test_aggregates_compile_to_masks(small):
    fast = compile_ruleset(small, fast=True)
    plain = compile_ruleset(small, fast=False)
    mask_names = {"zmask", "kmask", "omask", "ALLM", "SUITM", "_hi", "_lo", "bit_count"}

    def names(program, name):  # what a definition's code reads, through the functions it calls
        out = set(program.namespace[name].__code__.co_names)
        for n in list(out):
            if n.startswith("_agg"):
                out |= set(program.namespace[n].__code__.co_names)
        return out
    for name in ("reds_once", "best", "worst", "all_low", "above_last"):
        assert mask_names & names(fast, f"D_{name}"), name
        assert not mask_names & names(plain, f"D_{name}"), name
    assert "_order_from" in names(fast, "D_above_last")  # `c > last`: one mask by order, no loop


def play_both(rs, players: int, seed: int, check) -> None:
    """A seeded random game on the fast program and the plain one in lockstep: the same legal
    moves at every decision, and `check(fast_state, plain_state)` before each."""
    fast, plain = compile_ruleset(rs, fast=True), compile_ruleset(rs, fast=False)
    a, b = new_game(fast, players, None, seed), new_game(plain, players, None, seed)
    rng = random.Random(seed)
    while not a.finished:
        check(a, b)
        moves = legal_moves(a)
        assert moves == legal_moves(b)
        m = rng.choice(moves)
        apply(a, m)
        apply(b, m)
    assert b.finished and public_vars(a) == public_vars(b)


@pytest.mark.parametrize("seed", range(40))
def test_masks_agree_with_loops_along_whole_games(small, seed):
    """Every definition, at every decision of a random game, on both programs."""
    def check(a, b):
        for name in DEFS:
            for p in (0, 1):
                want = "card" if name in ("best", "worst") else None
                assert evaluate(a, name, p, returns=want) == evaluate(b, name, p, returns=want), (name, p)
    play_both(small, 2, seed, check)


def test_a_count_over_a_zone_joined_to_itself_counts_twice(small):
    s = position(small, 2, "play", zones={"hand": {0: ["1-Red", "2-Red", "3-Blue"], 1: ["4-Green"]}})
    assert evaluate(s, "reds_twice", 0) == 4 and evaluate(s, "reds_once", 0) == 2


def test_a_none_guard_is_respected(small):
    """`last != none and c.suit == last.suit`: with no last card the suit is never read."""
    s = position(small, 2, "play", zones={"hand": {0: ["1-Red"], 1: ["4-Green"]}})
    assert evaluate(s, "same_suit_as_last", 0) == 0


def test_highest_and_lowest_follow_the_suit_ranking():
    rs = loads_ruleset(SMALL.replace("    ranks 1..4\n", "    ranks 1..4\n    order for Blue: 4, 3, 2, 1\n"),
                       str(ROOT / "tests" / "masks.cards"))
    s = position(rs, 2, "play", zones={"hand": {0: ["1-Blue", "4-Blue", "2-Red"], 1: ["4-Green"]}})
    assert evaluate(s, "best", 0, returns="card") == "1-Blue"  # 1 is Blue's highest
    assert evaluate(s, "worst", 0, returns="card") == "2-Red"  # 4-Blue is excluded by rank, 1-Blue ranks high


BROKEN = """\
game broken "A failure in a run of statements"
players 2

deck small "Four cards":
    suits Red, Blue
    ranks 1..2

zone stock shared hidden "pack"
zone hand per player owner "hand"

var taker: player
var n: int = 0

define score(p: player) = count(hand(p))

phase play "Play":
    rule deal "The deal":
        set n = 1
        set n = n + 1
        move top(stock) to hand(taker)
        set n = 3
"""


def start_error(rs, fast: bool) -> GameRuntimeError:
    """The error a game raises on its way to the first decision, on the fast or the plain program."""
    with pytest.raises(GameRuntimeError) as err:
        new_game(compile_ruleset(rs, fast=fast), 2, None, 0)
    return err.value


@pytest.mark.parametrize("fast", [True, False])
def test_a_failure_inside_fused_statements_names_its_own_line(fast):
    err = start_error(loads_ruleset(BROKEN, "broken.cards"), fast)
    assert err.line == 20  # the move, not the first statement of the run
    assert "move top(stock) to hand(taker)" in err.render()


def test_verify_notices_masks_that_drifted(small):
    s = new_game(small, 2, None, 1)
    s.verify()
    s.zmask[0] ^= 1 << 3
    with pytest.raises(AssertionError, match="zone bit masks"):
        s.verify()


PROCEDURE = """\
game proc "A test inside a procedure"
players 2

deck small "Six cards":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player owner "hand"

var marks(p: player): int = 0

define score(p: player) = marks(p)

winner most score

procedure check(p: player):
    rule reds "Holding a red card" when (any c in hand(p) where c.suit == Red):
        set marks(p) = marks(p) + 1

phase play "Play":
    for each player p:
        perform check(p)
"""


@pytest.mark.parametrize("fast", [True, False])
def test_a_test_that_reads_a_procedure_parameter_is_asked_again_for_each_player(fast):
    """The per-state memo of tests must not keep an answer about one player for the next."""
    rs = loads_ruleset(PROCEDURE, "proc.cards")
    s = position(compile_ruleset(rs, fast=fast), 2, "play",
                 zones={"hand": {0: ["1-Blue"], 1: ["2-Red"]}})
    assert s.finished
    assert public_vars(s)["marks"] == {"P1": 0, "P2": 1}


SUFFIX = """\
game suffix "Quantifiers over the cards above and below"
players 3
at most 60 decisions

deck small "Twenty cards":
    suits Red, Blue, Green, Gold
    ranks 1..5
    order for Blue: 5, 4, 3, 2, 1

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone shown per player public "shown"
zone table shared public "table"

define kept(c: card) = c in hand or c in shown
define top(c: card) = all d in above(c): not kept(d) or d.owner == c.owner
define alone_below(c: card) = no d in below(c) where kept(d)
define covered(c: card) = any d in above(c) where d in table
define lowest_top(c: card) = top(c) and (no d in below(c) where kept(d) and d.owner == c.owner and top(d))
define tops(p: player) = count c in hand(p) + shown(p) where top(c)
define lowest_tops(p: player) = count c in hand(p) + shown(p) where lowest_top(c) or alone_below(c)
define any_covered(p: player) = any c in hand(p) where covered(c) and not top(c)
define high_count(p: player) = count d in hand(p) where d.order > 2
define band(p: player) = count d in hand(p) + shown(p) where d.order >= count(table) - 1 and count(table) + 2 > d.order
define score(p: player) = count(hand(p))

winner fewest score

phase deal "Dealing" then play:
    rule deal "The deal":
        shuffle stock
        deal 5 from stock to each hand
        deal 1 from stock to each shown

phase play "Play":
    while any c in cards where c in hand:
        for each player p:
            if count(hand(p)) > 0:
                choose by p:
                    action lead c in hand(p) + shown(p) where lowest_top(c) "Lead a lowest top card.":
                        move c to table
                    action play c in hand(p) where not top(c) or covered(c) "Play another card.":
                        move c to table
                    action pass "Pass.":
                        pass
"""

SUFFIX_DEFS = ["tops", "lowest_tops", "any_covered", "high_count", "band"]


@pytest.fixture(scope="module")
def suffix():
    return loads_ruleset(SUFFIX, str(ROOT / "tests" / "suffix.cards"))


def test_quantifiers_over_above_and_below_are_worked_out_for_all_cards_at_once(suffix):
    """`all d in above(c): ...` for every card of a hand at once, suit by suit, owner by owner:
    no loop per card is left in the fast program."""
    fast = compile_ruleset(suffix, fast=True)
    for name in ("high_count", "band"):  # order comparisons: a table of masks by order
        assert "_order_from" in fast.namespace[f"D_{name}"].__code__.co_names or any(
            "_order_from" in fast.namespace[n].__code__.co_names
            for n in fast.namespace[f"D_{name}"].__code__.co_names if n.startswith("_agg")), name
    for name in SUFFIX_DEFS[:3]:
        fn = fast.namespace[f"D_{name}"]
        called = {n for n in fn.__code__.co_names}
        for n in list(called):
            if n.startswith("_agg"):
                called |= set(fast.namespace[n].__code__.co_names)
        assert any(n.startswith("_set") for n in called), name
        assert "D_top" not in called and "D_lowest_top" not in called, name


@pytest.mark.parametrize("seed", range(40))
def test_quantifiers_over_above_and_below_agree_with_loops(suffix, seed):
    def check(a, b):
        for name in SUFFIX_DEFS:
            for p in (0, 1, 2):
                assert evaluate(a, name, p) == evaluate(b, name, p), (name, p)
    play_both(suffix, 3, seed, check)


def test_a_top_card_depends_on_who_holds_the_cards_above(suffix):
    """Blue ranks 1 highest: P1's 2-Blue is top once 1-Blue is played, and not while P2 holds it."""
    s = position(suffix, 3, "play", zones={"hand": {0: ["2-Blue", "4-Red"], 1: ["5-Red"], 2: ["3-Gold"]},
                                            "table": ["1-Blue"]})
    assert evaluate(s, "tops", 0) == 1  # 2-Blue (1-Blue played); 4-Red is beaten by P2's 5-Red
    # 2-Blue is also covered: the card above it lies on the table
    assert [str(m) for m in legal_moves(s)] == ["lead 2-Blue", "play 2-Blue", "play 4-Red", "pass"]
    s = position(suffix, 3, "play", zones={"hand": {0: ["2-Blue", "4-Red"], 1: ["1-Blue"], 2: ["3-Gold"]}})
    assert evaluate(s, "tops", 0) == 1  # now 4-Red is top (5-Red is in the pack) and 2-Blue is not
    assert [str(m) for m in legal_moves(s)] == ["lead 4-Red", "play 2-Blue", "pass"]


PILES = """\
game piles "Top cards of piles"
players 2
at most 80 decisions

deck small "Twelve cards":
    suits Red, Blue, Green
    ranks 1..4

zone stock shared hidden "pack"
zone pile[4] shared public "pile"
zone hand per player owner "hand"

define uncovered(c: card) = c == top(c.zone)
define open_reds = count c in pile where uncovered(c) and c.suit == Red
define high_top = highest c in pile where c == top(c.zone)
define score(p: player) = count(hand(p))

winner most score

phase deal "Dealing" then play:
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each pile

phase play "Play":
    while any c in pile where uncovered(c):
        for each player p:
            if any c in pile where uncovered(c):
                choose by p:
                    action take c in pile where uncovered(c) and c.rank != 4 "Take this top card.":
                        move c to hand(p)
                    action sweep when (no c in pile where uncovered(c) and c.rank != 4) "Take every top card.":
                        move (those c in pile where uncovered(c)) to hand(p)
"""


def test_a_test_for_the_top_card_loops_over_the_tops_only():
    rs = loads_ruleset(PILES, str(ROOT / "tests" / "piles.cards"))
    fast, plain = compile_ruleset(rs, fast=True), compile_ruleset(rs, fast=False)
    assert "_kind_tops" in fast.namespace["D_open_reds"].__code__.co_names
    assert "_kind_tops" not in plain.namespace["D_open_reds"].__code__.co_names
    s = position(fast, 2, "play", zones={"pile": {1: ["1-Red", "2-Red"], 2: ["4-Blue"], 3: [], 4: ["3-Red", "1-Green"]}})
    assert evaluate(s, "open_reds") == 1 and evaluate(s, "high_top", returns="card") == "4-Blue"
    assert [str(m) for m in legal_moves(s)] == ["take 2-Red", "take 1-Green"]
    def check(a, b):
        assert evaluate(a, "open_reds") == evaluate(b, "open_reds")
        assert evaluate(a, "high_top") == evaluate(b, "high_top")
    for seed in range(30):
        play_both(rs, 2, seed, check)


LOOPS = """\
game loops "Runs, tests and loops between two decisions"
players 2

deck small "Four cards":
    suits Red, Blue
    ranks 1..2

zone stock shared hidden "pack"
zone hand per player owner "hand"

var n: int = 0
var limit: int = 5

define score(p: player) = count(hand(p))

phase play "Play":
    rule count_up "Counting":
        while n < limit:
            set n = n + 1
            if n == 2:
                set n = n + 1
        move stock to hand(seat(1))
        if n > 0:
            set n = n + 1
        if top(stock).suit == Red:
            set n = 0
"""


@pytest.mark.parametrize("fast", [True, False])
def test_a_failing_test_inside_a_trace_names_its_own_line(fast):
    err = start_error(loads_ruleset(LOOPS, "loops.cards"), fast)
    assert err.line == 25 and "top(stock).suit == Red" in err.render()


@pytest.mark.parametrize("fast", [True, False])
def test_rules_that_loop_for_ever_are_stopped_and_named(fast):
    err = start_error(loads_ruleset(LOOPS.replace("while n < limit:", "while n >= 0:"), "loops.cards"), fast)
    assert re.search("loop for ever.*count_up", str(err))


def test_a_trace_runs_the_rules_between_two_decisions_in_few_turns():
    rs = loads_ruleset(LOOPS.replace("        if top(stock).suit == Red:\n            set n = 0\n", ""), "loops.cards")
    fast = compile_ruleset(rs, fast=True)
    from interpreter.compiler import TRACE
    assert fast.code[fast.start][0] == TRACE
    assert all(op != TRACE for op, _, _ in compile_ruleset(rs, fast=False).code)
    s = new_game(fast, 2, None, 0)
    assert s.finished and public_vars(s)["n"] == 6  # 1, 2 -> 3, 4, 5, then one more


@pytest.mark.parametrize("fast", [True, False])
def test_moving_a_card_that_is_none_names_the_move(fast):
    rs = loads_ruleset(LOOPS.replace("        if top(stock).suit == Red:\n", "        move top(stock) to hand(seat(2))\n"
                                     "        if n > 100:\n"), "loops.cards")
    err = start_error(rs, fast)
    assert "'top(stock)' is none here: there is no card to move" in str(err) and err.line == 25
