"""Moves worked out once are reused only while what they read is unchanged.

At a `choose by each` decision every player still to decide has moves; after one of them
chooses, the others' moves are worked out again only if a card moved or a variable their
conditions read changed (the compiler finds what they read, through every definition). These
tests pin what a user relies on: a choice that changes what another player may do is seen at
once, and one that does not leaves the others' moves exactly as they were."""

from __future__ import annotations

import random

from interpreter import loads_ruleset
from interpreter.compiler import compile_ruleset
from interpreter.engine import apply, legal_moves, new_game, position, waiting

# the pack and the zones of two games below, BIDS and KEPT
SIX = """\
deck small "Six cards":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone table shared public "table"
"""

BIDS = """\
game bids "Secret-ish bids"
players 3

""" + SIX + """
var raised: bool = false
var noted(p: player): int = 0
var rounds: int = 0

define can_show(p: player) = any c in hand(p) where c.suit == Red and count(table) == 0
define score(p: player) = count(hand(p))

winner most score

phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 2 from stock to each hand
    repeat:
        rule bid "Bidding":
            choose by each p in players:
                action raise when not raised "Raise.":
                    set raised = true
                action show c in hand(p) where can_show(p) and c.suit == Red "Show a red card.":
                    move c to table
                action note "Make a note.":
                    set noted(p) = noted(p) + 1
                action pass "Pass.":
                    pass
        set raised = false
        set rounds = rounds + 1
        if rounds == 3:
            end game
"""


def _bids():
    return loads_ruleset(BIDS, "bids.cards")


def _moves_of(s, seat):
    return [str(m) for m in legal_moves(s) if m.player == seat]


def test_the_compiler_finds_what_a_choice_reads():
    p = compile_ruleset(_bids())
    (choice,) = [c for c in p.choices if c.each_slot is not None]
    assert choice.reads is not None and len(choice.reads) == 1  # `raised`; `noted` is only written


def test_a_choice_that_takes_away_another_players_move_is_seen_at_once():
    s = position(_bids(), 3, "play", zones={"stock": ["1-Blue", "2-Blue", "3-Blue", "1-Red", "2-Red", "3-Red"]},
                 shuffle=False)
    assert "raise" in _moves_of(s, 1)
    apply(s, "raise")  # P1 raises: nobody else may
    assert "raise" not in _moves_of(s, 1) and "raise" not in _moves_of(s, 2)


def test_a_card_moved_by_one_player_changes_the_others_moves():
    s = position(_bids(), 3, "play", zones={"stock": ["1-Blue", "2-Blue", "3-Blue", "1-Red", "2-Red", "3-Red"]},
                 shuffle=False)
    before = {seat: _moves_of(s, seat) for seat in (0, 1, 2)}
    assert any(m.startswith("show") for m in before[1])
    red = next(m for m in _moves_of(s, 0) if m.startswith("show"))
    apply(s, red)
    assert not any(m.startswith("show") for m in _moves_of(s, 1))  # the table is no longer empty


def test_a_choice_that_changes_nothing_they_read_leaves_the_others_moves_as_they_were():
    s = position(_bids(), 3, "play", zones={"stock": ["1-Blue", "2-Blue", "3-Blue", "1-Red", "2-Red", "3-Red"]},
                 shuffle=False)
    before = [m for m in legal_moves(s) if m.player != 0]
    apply(s, "note")  # changes `noted`, which no condition reads
    after = legal_moves(s)
    assert waiting(s) == [1, 2]
    assert after == before and all(a is b for a, b in zip(after, before))  # the very same moves


def test_reuse_never_changes_a_game():
    """The engine and the plain evaluator (which works everything out afresh) agree at every
    decision of seeded games."""
    rs = _bids()
    fast, plain = compile_ruleset(rs, fast=True), compile_ruleset(rs, fast=False)
    for seed in range(60):
        a, b = new_game(fast, 3, None, seed), new_game(plain, 3, None, seed)
        rng = random.Random(seed)
        while not a.finished:
            moves = legal_moves(a)
            assert moves == legal_moves(b)
            m = rng.choice(moves)
            apply(a, m)
            apply(b, m)
        assert b.finished


def test_what_a_definition_asked_in_a_loop_reads_is_found_too():
    """A definition asked with each value of a choice is called without its memo (new arguments
    every turn); what it reads must still be found, or a changed variable would go unseen."""
    text = BIDS.replace("var rounds: int = 0", "var rounds: int = 0\nvar banned: int = -1").replace(
        "define score(p: player)",
        "define allowed(p: player, k: int) = k != banned and (sum c in hand(p): c.order) >= k\n"
        "define score(p: player)").replace(
        '''                action note "Make a note.":''',
        '''                action name k in 0..2 where allowed(p, k) "Name a number.":
                    set banned = k
                action note "Make a note.":''')
    rs = loads_ruleset(text, "bids.cards")
    p = compile_ruleset(rs)
    (choice,) = [c for c in p.choices if c.each_slot is not None]
    assert "U_allowed" in p.namespace and len(choice.reads) == 2  # `raised` and `banned`
    s = position(rs, 3, "play", zones={"stock": ["1-Blue", "2-Blue", "3-Blue", "1-Red", "2-Red", "3-Red"]},
                 shuffle=False)
    assert "name 0" in _moves_of(s, 0) and "name 0" in _moves_of(s, 1)
    apply(s, "name 0")  # P1 names 0: nobody else may
    assert "name 0" not in _moves_of(s, 1) and "name 1" in _moves_of(s, 1)


KEPT = """\
game kept "Kept answers"
players 2

""" + SIX + """
var bonus: int = 0

define reds(p: player) = sum c in hand(p) where c.suit == Red: 1
define lead(p: player) = reds(p) + bonus

phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each hand
    rule turns "Turns":
        repeat:
            choose by seat(1):
                action raise "Raise the bonus.":
                    set bonus = bonus + 1
                action play c in hand(seat(1)) "Play a card.":
                    move c to table
                action stop "Stop.":
                    end game
"""


def test_an_answer_that_reads_the_cards_alone_outlives_a_variable_set_and_no_other_does():
    """A definition that reads the cards alone keeps its answers when a variable is set (a card
    that moves forgets them); one that reads a variable, even through another definition,
    forgets them then: its next answer counts the new value."""
    from interpreter.engine import cards_in, evaluate
    program = compile_ruleset(loads_ruleset(KEPT, "kept.cards"))
    assert "cmemo" in program.namespace["D_reds"].__code__.co_names  # kept apart from the variables'
    assert "cmemo" not in program.namespace["D_lead"].__code__.co_names
    s = next(s for s in (new_game(program, 2, seed=k) for k in range(20)) if "Red" in " ".join(cards_in(s, "hand-P1")))
    reds = sum(c.endswith("Red") for c in cards_in(s, "hand-P1"))
    assert (evaluate(s, "reds", "P1"), evaluate(s, "lead", "P1")) == (reds, reds)
    apply(s, "raise")
    apply(s, "raise")
    assert (evaluate(s, "reds", "P1"), evaluate(s, "lead", "P1")) == (reds, reds + 2)
    red = next(c for c in cards_in(s, "hand-P1") if c.endswith("Red"))
    apply(s, f"play {red}")
    assert (evaluate(s, "reds", "P1"), evaluate(s, "lead", "P1")) == (reds - 1, reds + 1)
