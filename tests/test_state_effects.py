"""The state's primitive effects (shuffle, move, deal) against the plain code they replace:
saved games replay by seed, so a faster effect must leave exactly the same state, generator
included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine import new_game
from interpreter.engine import state as state_mod
from interpreter.engine.state import _SAME_SHUFFLE, _same_shuffle, _shuffle

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = (0, 1, 2, 3, 31, 32, 33, 52, 63, 64, 65, 96, 120, 127, 128, 129, 255, 256, 257, 500)


@pytest.mark.parametrize("n", LENGTHS)
def test_shuffle_draws_what_random_shuffle_draws(n):
    assert _SAME_SHUFFLE
    for seed in range(60):
        a, b = list(range(n)), list(range(n))
        ra, rb = random.Random(seed), random.Random(seed)
        ra.shuffle(a)
        _shuffle(rb.getrandbits, b)
        assert a == b, (n, seed)
        assert ra.getstate() == rb.getstate(), (n, seed)


def test_shuffles_in_a_row_stay_in_step():
    ra, rb = random.Random(7), random.Random(7)
    for n in LENGTHS * 3:
        a, b = list(range(n)), list(range(n))
        ra.shuffle(a)
        _shuffle(rb.getrandbits, b)
        assert a == b
    assert ra.getstate() == rb.getstate()


def test_the_import_check_notices_a_word_too_many(monkeypatch):
    def greedy(getrandbits, x):
        _shuffle(getrandbits, x)
        getrandbits(32)
    monkeypatch.setattr(state_mod, "_shuffle", greedy)
    assert not _same_shuffle()


def _komi(seed: int):
    s = new_game(load_ruleset(ROOT / "rulesets" / "mughal" / "komi.cards"), 3, None, seed)
    return s, s.zbase[s.program.zone_index["stock"]]


def test_a_clone_sharing_the_generator_shuffles_as_its_original():
    s, stock = _komi(4)
    c = s.clone()
    assert c.rng is s.rng
    want_rng = random.Random()
    want_rng.setstate(s.rng.getstate())
    want = list(s.zones[stock])
    want_rng.shuffle(want)
    c.shuffle(stock)
    assert c.rng is not s.rng
    assert c.zones[stock] == want and c.rng.getstate() == want_rng.getstate()
    s.shuffle(stock)
    assert s.zones[stock] == want and s.rng.getstate() == want_rng.getstate()
    assert not any(s.known[x] for x in s.zones[stock])
    s.verify()
    c.verify()


def test_a_generator_of_another_kind_shuffles_its_own_way():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)
    s, stock = _komi(2)
    s.rng = Counting(11)
    want = list(s.zones[stock])
    random.Random(11).shuffle(want)
    s.shuffle(stock)
    assert Counting.calls == 1 and s.zones[stock] == want
