"""State.clone() is cheap (search players clone thousands of times a decision) and still a
true copy: a clone and its original go on independently, and both draw the same chance."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves, make_record, new_game, outcome, state_digest

ROOT = Path(__file__).resolve().parents[2]


def _mid_game(rel: str, players: int, decisions: int, seed: int = 5):
    s = new_game(load_ruleset(ROOT / "rulesets" / rel), players, None, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        apply(s, rng.choice(legal_moves(s)))
    return s


def _play_out(s, seed: int):
    rng = random.Random(seed)
    while not s.finished:
        apply(s, rng.choice(legal_moves(s)))
    return s


def test_clone_plays_the_same_game_as_its_original():
    s = _mid_game("ganjifa/ganjifa.cards", 3, 40)
    c = s.clone()
    _play_out(s, 9)
    _play_out(c, 9)
    assert make_record(s, "x") == make_record(c, "x")
    assert outcome(s) == outcome(c)


def test_clone_and_original_are_independent():
    s = _mid_game("kendra-kari/kendra-kari.cards", 4, 5)
    before = state_digest(s)
    c = s.clone()
    _play_out(c, 3)
    assert state_digest(s) == before  # the original did not move
    s.verify()
    c.verify()  # each one's masks follow its own zones


def test_shared_chance_is_copied_before_either_side_draws():
    """Udvasa and Shakti shuffle during play: the clone shares the generator until a draw."""
    s = _mid_game("mughal/shakti.cards", 4, 30)
    c = s.clone()
    d = s.clone()
    assert c.rng is s.rng  # shared, nothing drawn yet
    a = _play_out(s, 1)
    b = _play_out(c, 1)
    assert state_digest(a) == state_digest(b)
    assert a.fired[a.program.rule_names.index("reshuffle")] > 0  # chance was drawn on the way
    _play_out(d, 1)
    assert state_digest(d) == state_digest(a)


def test_clone_of_a_clone():
    s = _mid_game("ganjifa/ganjifa.cards", 4, 20)
    c = s.clone().clone()
    assert make_record(_play_out(c, 2), "x") == make_record(_play_out(s, 2), "x")
