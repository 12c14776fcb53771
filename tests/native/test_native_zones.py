"""The C runtime's card state (cardrules_rt.h, crt_cards_*) against the Python State's zones.

The differential test takes real games (Ganjifa, Euro-Jongg, Kendra Kari just dealt), copies
each State into C, then applies one random sequence of effects to both (shuffles, single moves,
moves of several cards over and under, face up and down, cards named twice, deals of every count,
reveals, recounts), calling the Python State's effect methods directly; after every effect the
whole state must agree: every zone's cards in order, every card's zone, position, kind, owner,
played_by and face, zver, and every mask (zone, kind, owner, face up) word for word; Python's own
verify() holds and so does the C check. At the end the two generators must be in the same state
and draw the same next word. Out-of-range arguments return a code and change nothing, and a
standalone driver runs random effects under ASan and UBSan."""

from __future__ import annotations

import ctypes
import os
import random
from pathlib import Path

import procs
from native_support import sanitizers_work
import pytest

import interpreter
from interpreter.engine import new_game
from interpreter.engine.play import _fresh
from interpreter.engine.state import ImpossibleEffect
from interpreter.native import (build_library, find_compiler, load_library, runtime_dir, runtime_source,
                                runtime_sources, state_words)

COMPILER = find_compiler()
if COMPILER is None:
    pytest.skip("no C compiler on this machine (set CC, or pip install 'cardrules[native]')", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [("ganjifa/ganjifa.cards", 3), ("euro-jongg/euro-jongg.cards", 4), ("kendra-kari/kendra-kari.cards", 3)]
VIS = {"public": 0, "owner": 1, "hidden": 2, "others": 3}
E_ARG, E_CARD, E_ZONE, E_KIND, E_SPACE, E_STATE, E_CORRUPT = -2, -3, -4, -5, -6, -7, -8

DUMP_C = r"""
/* The whole state, flat: per zone its length then its cards; per card zone, position, kind,
 * owner, played_by, face; then zver. The number written. */
int32_t t_dump(const crt_cards *s, int32_t *out)
{
    int32_t z, i, n = 0, nz = (int32_t)s->n_zones, nc = (int32_t)s->n_cards;
    for (z = 0; z < nz; z++) {
        int32_t len = crt_cards_count(s, z);
        out[n++] = len;
        for (i = 0; i < len; i++)
            out[n++] = crt_cards_card_at(s, z, i);
    }
    for (i = 0; i < nc; i++) {
        out[n++] = crt_cards_zone_of(s, i);
        out[n++] = crt_cards_pos_of(s, i);
        out[n++] = crt_cards_kind_of(s, i);
        out[n++] = crt_cards_owner_of(s, i);
        out[n++] = crt_cards_played_by(s, i);
        out[n++] = crt_cards_face_up(s, i);
    }
    out[n++] = (int32_t)crt_cards_zver(s);
    return n;
}

/* Every mask's words: zones, kinds, owners (none first), face up. The number written. */
int32_t t_masks(const crt_cards *s, uint64_t *out)
{
    uint32_t w = crt_cards_words(s), i;
    int32_t z, n = 0;
    const uint64_t *m;
    for (z = 0; z < (int32_t)s->n_zones; z++)
        for (m = crt_cards_zone_mask(s, z), i = 0; i < w; i++) out[n++] = m[i];
    for (z = 0; z < (int32_t)s->n_kinds; z++)
        for (m = crt_cards_kind_mask(s, z), i = 0; i < w; i++) out[n++] = m[i];
    for (z = -1; z < (int32_t)s->n_players; z++)
        for (m = crt_cards_owner_mask(s, z), i = 0; i < w; i++) out[n++] = m[i];
    for (m = crt_cards_up_mask(s), i = 0; i < w; i++) out[n++] = m[i];
    return n;
}

size_t t_sizeof_rng(void) { return sizeof(crt_rng); }
"""

I32P, U16P, U8P, VP = (ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_uint16), ctypes.POINTER(ctypes.c_uint8),
                       ctypes.c_void_p)
SIGNATURES = [
    ("crt_cards_bytes", ctypes.c_size_t, [ctypes.c_uint32] * 4),
    ("crt_cards_init", ctypes.c_int, [VP, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32,
                                      ctypes.c_uint32, I32P, I32P, U8P, U16P, ctypes.c_int32]),
    ("crt_cards_size", ctypes.c_size_t, [VP]),
    ("crt_cards_copy", ctypes.c_int, [VP, ctypes.c_size_t, VP]),
    ("crt_cards_load", ctypes.c_int, [VP, I32P, I32P, U8P, I32P, ctypes.c_uint64]),
    ("crt_cards_shuffle", ctypes.c_int, [VP, VP, ctypes.c_int32]),
    ("crt_cards_move_card", ctypes.c_int, [VP, ctypes.c_int32, ctypes.c_int32, ctypes.c_int]),
    ("crt_cards_move", ctypes.c_int, [VP, I32P, ctypes.c_int32, ctypes.c_int32, ctypes.c_int, ctypes.c_int]),
    ("crt_cards_move_zone", ctypes.c_int, [VP, ctypes.c_int32, ctypes.c_int32, ctypes.c_int, ctypes.c_int]),
    ("crt_cards_deal", ctypes.c_int, [VP, ctypes.c_int64, ctypes.c_int32, ctypes.c_int32, ctypes.c_int, ctypes.c_int64]),
    ("crt_cards_reveal", ctypes.c_int, [VP, I32P, ctypes.c_int32]),
    ("crt_cards_recount", ctypes.c_int, [VP]),
    ("crt_cards_check", ctypes.c_int, [VP]),
    ("crt_cards_count", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_card_at", ctypes.c_int32, [VP, ctypes.c_int32, ctypes.c_int32]),
    ("crt_cards_zone_of", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_pos_of", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_kind_of", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_owner_of", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_played_by", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_face_up", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_zone_kind", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_zone_owner", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_kind_base", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_kind_count", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_card_of_bit", ctypes.c_int32, [VP, ctypes.c_int32]),
    ("crt_cards_top", ctypes.c_int32, [VP, ctypes.c_int32, ctypes.c_int64, I32P, ctypes.c_int32]),
    ("crt_cards_bottom", ctypes.c_int32, [VP, ctypes.c_int32, ctypes.c_int64, I32P, ctypes.c_int32]),
    ("crt_cards_zver", ctypes.c_uint64, [VP]),
    ("crt_cards_zone_data", U16P, [VP, ctypes.c_int32]),
    ("crt_cards_words", ctypes.c_uint32, [VP]),
    ("crt_cards_zone_mask", ctypes.POINTER(ctypes.c_uint64), [VP, ctypes.c_int32]),
    ("crt_cards_kind_mask", ctypes.POINTER(ctypes.c_uint64), [VP, ctypes.c_int32]),
    ("crt_cards_owner_mask", ctypes.POINTER(ctypes.c_uint64), [VP, ctypes.c_int32]),
    ("crt_cards_up_mask", ctypes.POINTER(ctypes.c_uint64), [VP]),
    ("crt_mask_popcount", ctypes.c_uint32, [ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint32]),
    ("crt_mask_lowest", ctypes.c_int32, [ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint32]),
    ("crt_mask_highest", ctypes.c_int32, [ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint32]),
    ("crt_set_state", ctypes.c_int, [VP, ctypes.POINTER(ctypes.c_uint32)]),
    ("crt_get_state", None, [VP, ctypes.POINTER(ctypes.c_uint32)]),
    ("crt_genrand32", ctypes.c_uint32, [VP]),
    ("crt_seed_u64", None, [VP, ctypes.c_uint64]),
    ("t_dump", ctypes.c_int32, [VP, I32P]),
    ("t_masks", ctypes.c_int32, [VP, ctypes.POINTER(ctypes.c_uint64)]),
    ("t_sizeof_rng", ctypes.c_size_t, []),
]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDRULES_CACHE_DIR", str(tmp_path_factory.mktemp("native-cache")))
        mp.delenv("CARDRULES_NO_CACHE", raising=False)
        path = build_library(runtime_source() + DUMP_C, "crt_zones_test", extra_flags=("-Werror", "-pedantic"))
        lib = load_library(path)
    for name, res, args in SIGNATURES:
        getattr(lib, name).restype = res
        getattr(lib, name).argtypes = args
    return lib


@pytest.fixture(scope="module")
def rulesets():
    return [(interpreter.load_ruleset(str(ROOT / "rulesets" / path)), players) for path, players in RULESETS]


def arr(ctype, values):
    values = list(values)
    return (ctype * max(len(values), 1))(*values)


class CState:
    """A crt_cards made from a Python State's layout, and its generator."""

    def __init__(self, lib, st):
        self.lib, p = lib, st.program
        self.n_cards, self.n_zones, self.n_kinds, self.n_players = p.n_cards, len(st.zones), len(p.zones), st.n_players
        self.layout = dict(zone_kind=list(st.zkind), zone_owner=[-1 if o is None else o for o in st.zowner],
                           kind_vis=[VIS[z.visibility] for z in p.zones],
                           card_bit=[b.bit_length() - 1 for b in p.card_bit], start=st.zbase[0])
        self.size = lib.crt_cards_bytes(self.n_cards, self.n_zones, self.n_kinds, self.n_players)
        assert self.size > 0
        self.mem = (ctypes.c_uint64 * (self.size // 8))()
        assert self.init(self.mem) == 0
        self.rng = ctypes.create_string_buffer(lib.t_sizeof_rng())
        self.words = lib.crt_cards_words(self.mem)
        self.dump_buf = (ctypes.c_int32 * (2 * self.n_zones + 7 * self.n_cards + 8))()
        self.mask_buf = (ctypes.c_uint64 * (self.words * (self.n_zones + self.n_kinds + self.n_players + 2)))()

    def init(self, mem, **changes):
        lay = {**self.layout, **changes}
        return self.lib.crt_cards_init(mem, ctypes.sizeof(mem), self.n_cards, self.n_zones, self.n_kinds, self.n_players,
                                       arr(ctypes.c_int32, lay["zone_kind"]), arr(ctypes.c_int32, lay["zone_owner"]),
                                       arr(ctypes.c_uint8, lay["kind_vis"]), arr(ctypes.c_uint16, lay["card_bit"]),
                                       lay["start"])

    def load(self, st):
        flat = [c for z in st.zones for c in z]
        rc = self.lib.crt_cards_load(self.mem, arr(ctypes.c_int32, map(len, st.zones)), arr(ctypes.c_int32, flat),
                                     arr(ctypes.c_uint8, st.known), arr(ctypes.c_int32, [-1 if o is None else o
                                                                                         for o in st.played_by]),
                                     st.zver)
        assert rc == 0
        words = state_words(st.chance())
        assert self.lib.crt_set_state(self.rng, arr(ctypes.c_uint32, words)) == 0

    def raw(self) -> bytes:
        return ctypes.string_at(self.mem, self.size) + self.rng.raw

    def dump(self) -> list:
        n = self.lib.t_dump(self.mem, self.dump_buf)
        return self.dump_buf[:n]

    def masks(self) -> list:
        n = self.lib.t_masks(self.mem, self.mask_buf)
        return self.mask_buf[:n]


def py_dump(st) -> list:
    out = []
    for z in st.zones:
        out += [len(z), *z]
    pos = {c: i for z in st.zones for i, c in enumerate(z)}
    for c in range(len(st.card_zone)):
        out += [st.card_zone[c], pos[c], st.card_kind[c], -1 if st.card_owner[c] is None else st.card_owner[c],
                -1 if st.played_by[c] is None else st.played_by[c], int(bool(st.known[c]))]
    return out + [st.zver]


def py_masks(st, words: int) -> list:
    every = [*st.zmask, *st.kmask, st.omask[None], *[st.omask[o] for o in st.seats], st.upmask]
    return [(m >> (64 * i)) & (2**64 - 1) for m in every for i in range(words)]


def recomputed_masks(st, words: int) -> list:
    """The masks as the zones and faces say (what verify() recomputes), whether or not the program keeps them."""
    bits = st.program.card_bit
    z = [sum(bits[c] for c in cards) for cards in st.zones]
    k = [sum(z[i] for i in range(len(z)) if st.zkind[i] == kind) for kind in range(len(st.program.zones))]
    o = [sum(z[i] for i in range(len(z)) if st.zowner[i] == who) for who in (None, *st.seats)]
    up = sum(bits[c] for c, known in enumerate(st.known) if known)
    return [(m >> (64 * i)) & (2**64 - 1) for m in (*z, *k, *o, up) for i in range(words)]


def pick_cards(rnd: random.Random, st) -> list:
    """Cards for a move: a few or many, any order, the top of a zone in or against its order, a
    whole zone (its own list), or with a card named twice."""
    n = len(st.card_zone)
    how = rnd.random()
    if how < 0.35:
        return rnd.sample(range(n), rnd.choice((0, 1, 1, 2, 2, 3, 4, 5, 6, 8, 12, 20, 40)))
    filled = [z for z in st.zones if z] or [[]]
    pile = rnd.choice(filled)
    if how < 0.7:
        top = pile[-rnd.randint(1, max(1, min(len(pile), 9))):]
        return top[::-1] if rnd.random() < 0.5 else list(top)
    if how < 0.8:
        return pile   # the zone's own list: Python's move sees `cards is pile`
    if how < 0.9:
        xs = rnd.sample(pile, min(len(pile), rnd.randint(1, 7)))
        return xs
    xs = rnd.sample(range(n), rnd.randint(1, 7))
    return xs + [rnd.choice(xs) for _ in range(rnd.randint(1, 3))]


def random_effect(rnd: random.Random, st, cs):
    """One effect on both sides; a description for a failure."""
    lib, n_zones, n_kinds = cs.lib, len(st.zones), len(st.program.zones)
    r = rnd.random()
    if r < 0.12:
        zone = rnd.choice([z for z in range(n_zones) if len(st.zones[z]) > 1] or [0])
        st.shuffle(zone)
        assert lib.crt_cards_shuffle(cs.mem, cs.rng, zone) == 0
        return f"shuffle({zone})"
    if r < 0.35:
        c, to, up = rnd.randrange(len(st.card_zone)), rnd.randrange(n_zones), rnd.random() < 0.3
        st.move_card(c, to, up)
        assert lib.crt_cards_move_card(cs.mem, c, to, up) == 0
        return f"move_card({c}, {to}, {up})"
    if r < 0.75:
        cards = pick_cards(rnd, st)
        to, up, under = rnd.randrange(n_zones), rnd.random() < 0.3, rnd.random() < 0.35
        if r >= 0.7:  # a whole zone by its number, as the native engine moves `move trick to won(p)`
            z = rnd.randrange(n_zones)
            assert lib.crt_cards_move_zone(cs.mem, z, to, up, under) == 0
            st.move(st.zones[z], to, up, under)
            return f"move_zone({z}, {to}, {up}, under={under})"
        text = f"move({list(cards)}, {to}, {up}, under={under})"
        assert lib.crt_cards_move(cs.mem, arr(ctypes.c_int32, cards), len(cards), to, up, under) == 0
        st.move(cards, to, up, under)
        return text
    if r < 0.9:
        n = rnd.choice((-3, -1, 0, 1, 1, 2, 2, 3, 5, 13))
        src, kind, up, first = rnd.randrange(n_zones), rnd.randrange(n_kinds), rnd.random() < 0.3, rnd.randint(-4, 6)
        if n < 0:  # the engine refuses (a located error) and C says so; neither changes anything
            with pytest.raises(ImpossibleEffect):
                st.deal(n, src, kind, up, first)
            assert lib.crt_cards_deal(cs.mem, n, src, kind, up, first) == E_ARG
        else:
            st.deal(n, src, kind, up, first)
            assert lib.crt_cards_deal(cs.mem, n, src, kind, up, first) == 0
        return f"deal({n}, {src}, {kind}, {up}, {first})"
    if r < 0.97:
        cards = [None if rnd.random() < 0.2 else rnd.randrange(len(st.card_zone)) for _ in range(rnd.randint(0, 5))]
        st.reveal(cards)
        assert lib.crt_cards_reveal(cs.mem, arr(ctypes.c_int32, [-1 if c is None else c for c in cards]), len(cards)) == 0
        return f"reveal({cards})"
    st.recount()
    assert lib.crt_cards_recount(cs.mem) == 0
    return "recount()"


def game(rulesets, seed: int):
    rs, players = rulesets[seed % len(rulesets)]
    st = new_game(rs, players, seed=seed).clone()
    return st


# ------------------------------------------------------------------ the differential test

SEEDS = range(36)
EFFECTS = 300


def test_every_effect_leaves_the_same_cards_masks_faces_and_draws_as_python(lib, rulesets):
    kinds = set()
    for seed in SEEDS:
        st = game(rulesets, seed)
        assert st.program.masks   # the three keep masks: Python's own masks are compared too
        cs = CState(lib, st)
        cs.load(st)
        rnd = random.Random(1000 + seed)
        assert cs.dump() == py_dump(st)
        for step in range(EFFECTS):
            text = random_effect(rnd, st, cs)
            kinds.add(text.split("(")[0])
            where = f"seed {seed} ({st.program.ruleset.name}), effect {step}: {text}"
            st.verify()
            assert lib.crt_cards_check(cs.mem) == 0, where
            assert cs.dump() == py_dump(st), where
            masks = cs.masks()
            assert masks == py_masks(st, cs.words), where
            assert masks == recomputed_masks(st, cs.words), where
        out = arr(ctypes.c_uint32, [0] * 625)
        lib.crt_get_state(cs.rng, out)
        assert list(out) == state_words(st.rng), f"seed {seed}"
        assert lib.crt_genrand32(cs.rng) == st.rng.getrandbits(32), f"seed {seed}"
    assert kinds == {"shuffle", "move_card", "move", "move_zone", "deal", "reveal", "recount"}


def test_a_new_state_is_the_fresh_python_state(lib, rulesets):
    """crt_cards_init puts every card where engine/play.py:_fresh does, with its masks."""
    for rs, players in rulesets:
        st = _fresh(interpreter.engine.play.program_of(rs), players, None, 0)
        cs = CState(lib, st)
        assert cs.dump() == py_dump(st)
        assert cs.masks() == py_masks(st, cs.words)
        assert lib.crt_cards_check(cs.mem) == 0
        for k in range(len(st.program.zones)):
            assert (lib.crt_cards_kind_base(cs.mem, k), lib.crt_cards_kind_count(cs.mem, k)) == (st.zbase[k], st.zcount[k])
        for c in range(len(st.card_zone)):
            assert lib.crt_cards_card_of_bit(cs.mem, cs.layout["card_bit"][c]) == c


def test_queries_top_bottom_and_mask_bits(lib, rulesets):
    from interpreter.compiler.runtime import _bottom_n, _top_n
    st = game(rulesets, 4)
    cs = CState(lib, st)
    cs.load(st)
    out = (ctypes.c_int32 * 300)()
    for z, pile in enumerate(st.zones):
        for k in (-1, 0, 1, 2, 3, len(pile) - 1, len(pile), len(pile) + 1, 2**40):
            n = lib.crt_cards_top(cs.mem, z, k, out, 300)
            assert out[:n] == _top_n(pile, k), (z, k)
            n = lib.crt_cards_bottom(cs.mem, z, k, out, 300)
            assert out[:n] == _bottom_n(pile, k), (z, k)
        if len(pile) > 1:
            assert lib.crt_cards_top(cs.mem, z, len(pile), out, len(pile) - 1) == E_SPACE
        assert lib.crt_cards_count(cs.mem, z) == len(pile)
        zm = lib.crt_cards_zone_mask(cs.mem, z)
        m = st.zmask[z]
        assert lib.crt_mask_popcount(zm, cs.words) == bin(m).count("1") == len(pile)
        assert lib.crt_mask_lowest(zm, cs.words) == ((m & -m).bit_length() - 1 if m else -1)
        assert lib.crt_mask_highest(zm, cs.words) == m.bit_length() - 1
    for m in (0, 1, 2**63, 2**64, 2**127 + 2**70, 2**200 - 1):
        words = arr(ctypes.c_uint64, [(m >> (64 * i)) & (2**64 - 1) for i in range(4)])
        assert lib.crt_mask_popcount(words, 4) == bin(m).count("1")
        assert lib.crt_mask_lowest(words, 4) == ((m & -m).bit_length() - 1 if m else -1)
        assert lib.crt_mask_highest(words, 4) == m.bit_length() - 1


def test_a_copy_is_a_clone_and_a_hand_rearranged_zone_is_recounted(lib, rulesets):
    st = game(rulesets, 7)
    cs = CState(lib, st)
    cs.load(st)
    other = (ctypes.c_uint64 * (cs.size // 8))()
    assert lib.crt_cards_copy(other, ctypes.sizeof(other), cs.mem) == 0
    assert lib.crt_cards_copy(other, ctypes.sizeof(other) - 8, cs.mem) == E_SPACE
    assert lib.crt_cards_size(other) == cs.size
    rng2 = ctypes.create_string_buffer(cs.rng.raw, len(cs.rng.raw))
    for mem, rng in ((cs.mem, cs.rng), (other, rng2)):
        rnd = random.Random(5)
        for _ in range(50):
            z = rnd.randrange(cs.n_zones)
            lib.crt_cards_shuffle(mem, rng, z)
            lib.crt_cards_deal(mem, 2, z, rnd.randrange(cs.n_kinds), 0, rnd.randrange(5))
    assert ctypes.string_at(cs.mem, cs.size) == ctypes.string_at(other, cs.size) and cs.rng.raw == rng2.raw
    # rearranged by hand: the check sees it, recount mends it as Python's recount does
    cs.load(st)
    big = max(range(cs.n_zones), key=lambda z: len(st.zones[z]))
    data = lib.crt_cards_zone_data(cs.mem, big)
    n = len(st.zones[big])
    for i, c in enumerate(data[:n][::-1]):
        data[i] = c
    st.zones[big].reverse()
    assert lib.crt_cards_check(cs.mem) == E_CORRUPT
    st.recount()
    assert lib.crt_cards_recount(cs.mem) == 0 and lib.crt_cards_check(cs.mem) == 0
    st.verify()
    assert cs.dump() == py_dump(st) and cs.masks() == py_masks(st, cs.words)
    # a card in two zones cannot be recounted: nothing changes
    data[0] = data[1]
    before = cs.raw()
    assert lib.crt_cards_recount(cs.mem) == E_CORRUPT and cs.raw() == before
    data[0] = st.zones[big][0]
    # a mask bit flipped, a position off: the check sees each
    for where in (cs.lib.crt_cards_kind_mask(cs.mem, 0), cs.lib.crt_cards_up_mask(cs.mem)):
        where[0] ^= 1
        assert lib.crt_cards_check(cs.mem) == E_CORRUPT
        where[0] ^= 1
    assert lib.crt_cards_check(cs.mem) == 0


# ------------------------------------------------------------------ bounds

def test_out_of_range_arguments_return_a_code_and_change_nothing(lib, rulesets):
    st = game(rulesets, 2)
    cs = CState(lib, st)
    cs.load(st)
    m, nc, nz, nk = cs.mem, cs.n_cards, cs.n_zones, cs.n_kinds
    good = st.zones[max(range(nz), key=lambda z: len(st.zones[z]))][-1]
    out = (ctypes.c_int32 * 10)()
    before = cs.raw()
    calls = [
        (lib.crt_cards_move_card, (m, -1, 0, 0), E_CARD), (lib.crt_cards_move_card, (m, nc, 0, 0), E_CARD),
        (lib.crt_cards_move_card, (m, 2**31 - 1, 0, 0), E_CARD), (lib.crt_cards_move_card, (m, good, -1, 0), E_ZONE),
        (lib.crt_cards_move_card, (m, good, nz, 0), E_ZONE),
        (lib.crt_cards_move, (m, arr(ctypes.c_int32, [good, nc]), 2, 0, 0, 0), E_CARD),
        (lib.crt_cards_move, (m, arr(ctypes.c_int32, [good, -1]), 2, 0, 0, 1), E_CARD),
        (lib.crt_cards_move, (m, arr(ctypes.c_int32, [good]), 1, nz, 0, 0), E_ZONE),
        (lib.crt_cards_move, (m, arr(ctypes.c_int32, [good]), -1, 0, 0, 0), E_ARG),
        (lib.crt_cards_move, (m, None, 3, 0, 0, 0), E_ARG),
        (lib.crt_cards_move_zone, (m, 0, nz, 0, 0), E_ZONE), (lib.crt_cards_move_zone, (m, -1, 0, 0, 1), E_ZONE),
        (lib.crt_cards_move_zone, (m, nz, 0, 0, 0), E_ZONE),
        (lib.crt_cards_deal, (m, 3, nz, 0, 0, 0), E_ZONE), (lib.crt_cards_deal, (m, 3, -1, 0, 0, 0), E_ZONE),
        (lib.crt_cards_deal, (m, 3, 0, nk, 0, 0), E_KIND), (lib.crt_cards_deal, (m, 3, 0, -1, 0, 0), E_KIND),
        (lib.crt_cards_reveal, (m, arr(ctypes.c_int32, [good, -2]), 2), E_CARD),
        (lib.crt_cards_reveal, (m, arr(ctypes.c_int32, [nc]), 1), E_CARD),
        (lib.crt_cards_reveal, (m, None, 1), E_ARG),
        (lib.crt_cards_shuffle, (m, cs.rng, nz), E_ZONE), (lib.crt_cards_shuffle, (m, cs.rng, -1), E_ZONE),
        (lib.crt_cards_shuffle, (m, None, 0), E_ARG),
        (lib.crt_cards_count, (m, nz), E_ZONE), (lib.crt_cards_card_at, (m, 0, -1), E_ARG),
        (lib.crt_cards_card_at, (m, 0, len(st.zones[0])), E_ARG), (lib.crt_cards_card_at, (m, -1, 0), E_ZONE),
        (lib.crt_cards_zone_of, (m, nc), E_CARD), (lib.crt_cards_pos_of, (m, -1), E_CARD),
        (lib.crt_cards_kind_of, (m, nc), E_CARD), (lib.crt_cards_owner_of, (m, -2), E_CARD),
        (lib.crt_cards_played_by, (m, nc), E_CARD), (lib.crt_cards_face_up, (m, nc), E_CARD),
        (lib.crt_cards_zone_kind, (m, nz), E_ZONE), (lib.crt_cards_zone_owner, (m, -1), E_ZONE),
        (lib.crt_cards_kind_base, (m, nk), E_KIND), (lib.crt_cards_kind_count, (m, -1), E_KIND),
        (lib.crt_cards_card_of_bit, (m, nc), E_ARG),
        (lib.crt_cards_top, (m, nz, 3, out, 10), E_ZONE), (lib.crt_cards_bottom, (m, -1, 3, out, 10), E_ZONE),
        (lib.crt_cards_top, (m, 0, 2**40, None, 0), E_SPACE if st.zones[0] else 0),
        (lib.crt_cards_load, (m, arr(ctypes.c_int32, [nc] + [0] * (nz - 1)), arr(ctypes.c_int32, [0] * nc), None,
                              None, 0), E_CORRUPT),
        (lib.crt_cards_load, (m, arr(ctypes.c_int32, [nc - 1] + [0] * (nz - 1)), arr(ctypes.c_int32, range(nc)), None,
                              None, 0), E_CORRUPT),
        (lib.crt_cards_load, (m, arr(ctypes.c_int32, [nc + 1] + [0] * (nz - 1)), arr(ctypes.c_int32, range(nc)), None,
                              None, 0), E_CORRUPT),
        (lib.crt_cards_load, (m, arr(ctypes.c_int32, [-1, nc + 1] + [0] * (nz - 2)), arr(ctypes.c_int32, range(nc)),
                              None, None, 0), E_CORRUPT),
        (lib.crt_cards_load, (m, arr(ctypes.c_int32, [nc] + [0] * (nz - 1)), arr(ctypes.c_int32, range(nc)), None,
                              arr(ctypes.c_int32, [cs.n_players] * nc), 0), E_ARG),
    ]
    for fn, args, want in calls:
        assert fn(*args) == want, (fn.__name__, args[1:])
        assert cs.raw() == before, fn.__name__
    for fn in (lib.crt_cards_zone_mask, lib.crt_cards_kind_mask):
        assert not fn(m, -1) and not fn(m, 10**6)
    assert not lib.crt_cards_owner_mask(m, -2) and not lib.crt_cards_owner_mask(m, cs.n_players)
    assert not lib.crt_cards_zone_data(m, nz)
    # not a state at all
    junk = (ctypes.c_uint64 * 64)()
    assert lib.crt_cards_move_card(junk, 0, 0, 0) == E_STATE and lib.crt_cards_check(junk) == E_STATE
    assert lib.crt_cards_count(None, 0) == E_STATE and lib.crt_cards_size(junk) == 0 and not lib.crt_cards_up_mask(junk)
    assert lib.crt_cards_copy(junk, 512, junk) == E_STATE
    assert list(junk) == [0] * 64
    # an empty move, a reveal of nothing and a deal to no one are fine and count as Python counts them
    assert lib.crt_cards_move(m, None, 0, 0, 0, 0) == 0 and lib.crt_cards_reveal(m, None, 0) == 0
    assert lib.crt_cards_zver(m) == st.zver + 2


def test_a_state_is_made_only_from_sizes_and_tables_in_range(lib, rulesets):
    st = game(rulesets, 0)
    cs = CState(lib, st)
    assert lib.crt_cards_bytes(4097, 1, 1, 1) == 0 and lib.crt_cards_bytes(1, 1025, 1, 1) == 0
    assert lib.crt_cards_bytes(1, 0, 1, 1) == 0 and lib.crt_cards_bytes(1, 1, 0, 1) == 0
    assert lib.crt_cards_bytes(1, 1, 1, 1024) == 0
    assert 8_000_000 < lib.crt_cards_bytes(4096, 1024, 1024, 1023) < 11_000_000
    assert cs.size < 5000   # Ganjifa: 120 cards in 11 zones
    mem = (ctypes.c_uint64 * (cs.size // 8))()
    lay = cs.layout
    bad = [dict(zone_kind=[0, 1, 0] + lay["zone_kind"][3:]),            # a kind's zones apart
           dict(zone_kind=[cs.n_kinds] + lay["zone_kind"][1:]),
           dict(zone_owner=[cs.n_players] + lay["zone_owner"][1:]),
           dict(zone_owner=[-2] + lay["zone_owner"][1:]),
           dict(kind_vis=[4] + lay["kind_vis"][1:]),
           dict(card_bit=[1] + lay["card_bit"][1:]) if lay["card_bit"][0] != 1 else dict(card_bit=[0] * cs.n_cards),
           dict(card_bit=[cs.n_cards] + lay["card_bit"][1:]),
           dict(start=cs.n_zones), dict(start=-1)]
    for changes in bad:
        assert cs.init(mem, **changes) < 0, changes
        assert list(mem) == [0] * len(mem), changes
    small = (ctypes.c_uint64 * (cs.size // 8 - 1))()
    assert cs.init(small) == E_SPACE
    odd = (ctypes.c_uint8 * (cs.size + 8))()
    assert lib.crt_cards_init(ctypes.addressof(odd) + 1, cs.size, cs.n_cards, cs.n_zones, cs.n_kinds, cs.n_players,
                              arr(ctypes.c_int32, lay["zone_kind"]), arr(ctypes.c_int32, lay["zone_owner"]),
                              arr(ctypes.c_uint8, lay["kind_vis"]), None, 0) == E_ARG
    assert cs.init(mem) == 0 and lib.crt_cards_check(mem) == 0


# ------------------------------------------------------------------ sanitizers

DRIVER_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include "cardrules_rt.h"

/* Random effects (some out of range) on a state of n_cards cards in n_zones zones of n_kinds
 * kinds, the check after each; prints the number of effects and a sum of the final state. */
static int run(uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds, uint32_t players, uint64_t seed, int steps)
{
    crt_rng rng, pick;
    int32_t *kind = malloc(n_zones * sizeof *kind), *owner = malloc(n_zones * sizeof *owner);
    int32_t cards[64], out[64];
    uint8_t *vis = malloc(n_kinds);
    size_t bytes = crt_cards_bytes(n_cards, n_zones, n_kinds, players);
    uint64_t *mem = malloc(bytes), *copy = malloc(bytes), sum = 0;
    crt_cards *s = (crt_cards *)mem;
    uint32_t z, i;
    int step, rc, bad = 0;
    if (!kind || !owner || !vis || !mem || !copy || bytes == 0) return 1;
    for (z = 0; z < n_zones; z++) {   /* kinds in runs; the last kind per player when there is room */
        kind[z] = (int32_t)(z * n_kinds / n_zones);
        owner[z] = -1;
    }
    for (z = 0; z < n_kinds; z++) vis[z] = (uint8_t)(z % 3);
    for (z = 0; z < n_zones; z++)
        if (players && z >= n_zones - players && kind[z] == kind[n_zones - 1] && kind[n_zones - players] == kind[z])
            owner[z] = (int32_t)(z - (n_zones - players));
    if (crt_cards_init(mem, bytes, n_cards, n_zones, n_kinds, players, kind, owner, vis, NULL, 0) != 0) return 2;
    crt_seed_u64(&rng, seed);
    crt_seed_u64(&pick, seed + 1000);
    for (step = 0; step < steps; step++) {
        uint32_t what = crt_genrand32(&pick) % 8, n = crt_genrand32(&pick) % 12;
        int32_t a = (int32_t)(crt_genrand32(&pick) % (n_cards + 4)) - 2;
        int32_t to = (int32_t)(crt_genrand32(&pick) % (n_zones + 4)) - 2;
        int32_t k = (int32_t)(crt_genrand32(&pick) % (n_kinds + 2)) - 1;
        int up = (int)(crt_genrand32(&pick) & 1), under = (int)(crt_genrand32(&pick) & 1);
        for (i = 0; i < n; i++) cards[i] = (int32_t)(crt_genrand32(&pick) % (n_cards + 1)) - (i == 5 ? 1 : 0);
        switch (what) {
        case 0: rc = crt_cards_shuffle(s, &rng, to); break;
        case 1: rc = crt_cards_move_card(s, a, to, up); break;
        case 2: case 3: rc = crt_cards_move(s, cards, (int32_t)n, to, up, under); break;
        case 4: rc = crt_cards_deal(s, (int64_t)n - 3, to, k, up, (int64_t)a); break;
        case 5: rc = crt_cards_reveal(s, cards, (int32_t)n); break;
        case 6: rc = crt_cards_top(s, to, (int64_t)n, out, 64); rc = rc > 0 ? 0 : rc; break;
        default:
            rc = crt_cards_copy(copy, bytes, s);
            if (rc == 0) rc = crt_cards_recount((crt_cards *)copy);
            break;
        }
        if (rc != 0 && rc != CRT_E_CARD && rc != CRT_E_ZONE && rc != CRT_E_KIND && rc != CRT_E_ARG) bad++;
        if (crt_cards_check(s) != 0) bad++;
    }
    for (z = 0; z < n_zones; z++) {
        const uint64_t *m = crt_cards_zone_mask(s, (int32_t)z);
        sum = sum * 31 + crt_mask_popcount(m, crt_cards_words(s)) + (uint64_t)(crt_mask_highest(m, crt_cards_words(s)) + 1);
    }
    printf("%d %d %llu\n", steps, bad, (unsigned long long)sum);
    free(kind); free(owner); free(vis); free(mem); free(copy);
    return bad ? 3 : 0;
}

int main(void)
{
    int rc = 0;
    rc |= run(120, 11, 5, 3, 1, 20000);
    rc |= run(193, 15, 6, 4, 2, 20000);
    rc |= run(64, 3, 2, 0, 3, 5000);
    rc |= run(1, 1, 1, 0, 4, 500);
    rc |= run(0, 2, 1, 1, 5, 200);
    rc |= run(4096, 1024, 1024, 1023, 6, 3000);
    return rc;
}
"""


@pytest.mark.slow  # (20 s: the default run keeps test_native_engine's sanitized driver, whole games and the search)
def test_random_effects_under_address_and_undefined_behaviour_sanitizers(tmp_path):
    if not sanitizers_work(COMPILER.argv, tmp_path):
        pytest.skip("this compiler cannot build and run -fsanitize=address,undefined programs")
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER_C)
    exe = tmp_path / "driver"
    built = procs.run([*COMPILER.argv, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g",
                       "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                       "-I", str(runtime_dir()), str(driver), *map(str, runtime_sources()), "-o", str(exe)],
                      capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stderr
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    ran = procs.run([str(exe)], capture_output=True, text=True, timeout=120, env=env)
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr[-3000:] + ran.stdout
    lines = ran.stdout.split("\n")
    assert len([line for line in lines if line]) == 6 and all(line.split()[1] == "0" for line in lines if line)
