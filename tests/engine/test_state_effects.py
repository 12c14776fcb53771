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

ROOT = Path(__file__).resolve().parents[2]
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


def _fields(s):
    return (s.zones, s.card_zone, s.card_kind, s.card_owner, s.played_by, s.known,
            s.zmask, s.kmask, s.omask, s.upmask)


def _one_by_one(s, cards, to, face_up, under):
    for c in cards:
        s.move([c], to, face_up, under)


@pytest.mark.parametrize("rel", ["mughal/komi.cards", "ganjifa/ganjifa.cards", "kendra-kari/kendra-kari.cards"])
def test_moving_a_zones_top_at_once_lands_as_card_by_card(rel):
    """move and deal take a zone's top in one step; the zones, the per-card indexes and the
    masks must come out as single-card moves leave them."""
    rs = load_ruleset(ROOT / "rulesets" / rel)
    rng = random.Random(3)
    for seed in range(30):
        s = new_game(rs, 3, None, seed)
        for _ in range(12):
            full = [z for z, cards in enumerate(s.zones) if cards]
            src = rng.choice(full)
            n = rng.randint(1, min(6, len(s.zones[src])))
            cards = s.zones[src][-n:]
            if rng.random() < 0.5:
                cards.reverse()
            to = rng.choice([src, *range(len(s.zones))])
            face_up, under = rng.random() < 0.3, rng.random() < 0.3
            want = s.clone()
            _one_by_one(want, cards, to, face_up, under)
            s.move(cards, to, face_up, under)
            assert _fields(s) == _fields(want)
            s.verify()


@pytest.mark.parametrize("rel", ["mughal/komi.cards", "kendra-kari/kendra-kari.cards"])
def test_a_deal_lands_as_card_by_card(rel):
    rs = load_ruleset(ROOT / "rulesets" / rel)
    for seed in range(10):
        s = new_game(rs, 4, None, seed)
        hand = s.program.zone_index["hand"]
        stock = s.zbase[s.program.zone_index["stock"]]
        for n, first in ((1, 0), (3, 2), (40, 1)):  # the last runs the stock out
            want = s.clone()
            count, base = want.zcount[hand], want.zbase[hand]
            for i in range(count):
                _one_by_one(want, want.zones[stock][-n:][::-1], base + (first + i) % count, n == 3, False)
            s.deal(n, stock, hand, n == 3, first)
            assert _fields(s) == _fields(want)
            s.verify()


@pytest.mark.parametrize("rel", ["mughal/komi.cards", "ganjifa/ganjifa.cards", "mughal/sama.cards"])
def test_one_card_lands_on_top_of_its_new_zone_and_every_index_follows(rel):
    """move_card, what generated code calls for `move c to z`: the lists change as a removal and
    an append would, the indexes and masks agree with them (verify), and what players know of
    the card follows the zone it lands in; with the masks kept (Ganjifa) or not (Komi, Sama),
    from the top of a zone or from inside it, and to its own zone."""
    rs = load_ruleset(ROOT / "rulesets" / rel)
    rng = random.Random(5)
    for seed in range(20):
        s = new_game(rs, 3, None, seed)
        for _ in range(30):
            c = rng.randrange(s.program.n_cards)
            src = s.card_zone[c]
            to = rng.choice([src, *range(len(s.zones))])
            face_up = rng.random() < 0.3
            zones = [list(z) for z in s.zones]
            zones[src].remove(c)
            zones[to].append(c)
            vis = s.zvis[to]
            known = True if face_up or vis == "public" else False if vis == "hidden" else s.known[c]
            played_by = s.zowner[src] if s.zowner[src] is not None else s.played_by[c]
            zver = s.zver
            s.move_card(c, to, face_up)
            assert s.zones == zones and s.known[c] == known and s.played_by[c] == played_by
            assert s.zver == zver + 1 and s.memo == {}
            s.verify()


SHORT_PILE = """game short "Short pile"
players 2..2
deck d:
    suits Red
    ranks 1..5
zone stock shared hidden
zone pile shared public
zone hand per player owner
define top_four = count(top(stock, 4))
define bottom_four = count(bottom(stock, 4))
phase play "Play":
    rule setup "Setup":
        deal 1 from stock to each hand
        move top(stock, 4) to pile face up
    rule turns "Turns":
        choose by seat(1):
            action pass_turn:
                pass
"""


def test_top_and_bottom_n_of_a_pile_with_fewer_cards_take_all_of_them():
    """top(z, N) and bottom(z, N) of a pile that holds fewer than N cards are the whole pile, in
    order (top(z, 4) of three cards once gave two)."""
    from interpreter import loads_ruleset
    from interpreter.engine import cards_in, evaluate
    rs = loads_ruleset(SHORT_PILE, "short.cards")
    s = new_game(rs, 2, seed=1)
    assert cards_in(s, "stock") == [] and len(cards_in(s, "pile")) == 3  # 5 cards, 2 dealt, the 3 left moved
    s = new_game(loads_ruleset(SHORT_PILE.replace("move top(stock, 4) to pile face up", "pass"), "short.cards"), 2,
                 seed=1)
    assert len(cards_in(s, "stock")) == 3
    assert evaluate(s, "top_four") == 3 and evaluate(s, "bottom_four") == 3


def test_a_deal_of_fewer_than_no_cards_is_a_located_error_not_a_move():
    """`deal N ...` with N below zero once moved all but the bottom -N cards to the first hand."""
    from interpreter import loads_ruleset
    from interpreter.errors import GameRuntimeError
    text = SHORT_PILE.replace("zone hand per player owner\n", "zone hand per player owner\nvar k: int = 0\n") \
        .replace("deal 1 from stock to each hand", "deal k - 1 from stock to each hand")
    rs = loads_ruleset(text, "short.cards")
    with pytest.raises(GameRuntimeError) as e:
        new_game(rs, 2, seed=1)
    line = text.splitlines().index("        deal k - 1 from stock to each hand") + 1
    assert "a deal of -1 cards (a deal gives 0 or more)" in e.value.message and e.value.line == line
