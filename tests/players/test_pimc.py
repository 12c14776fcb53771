"""The sampling player (`pimc`): its truths agree with everything the seat has seen, a void
shown included, and it plays legal, seeded moves."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.players.bots import bot_seed, make_bot
from interpreter.engine import apply, moves_for, new_game
from interpreter.errors import OptionError
from interpreter.language.graph import sees
from interpreter.engine.truths import Memory
from interpreter.players.pimc import PimcBot

HEARTS = Path("rulesets/classic/hearts.cards")


def _void_shown(seed: int):
    """A Hearts game of random players up to P1's first decision after another seat failed to
    follow suit: (the state, that seat, the suit it showed it has none of)."""
    rs = load_ruleset(HEARTS)
    s = new_game(rs, 4, None, seed)
    bots = [make_bot("random", bot_seed(seed, k)) for k in range(4)]
    p = s.program
    trick_zone = p.zone_index["trick"]
    void = None
    while not s.finished:
        if void is not None and s.actor == 0 and len(moves_for(s)) > 1:
            return s, void
        trick = [c for inst, z in enumerate(s.zones) if s.zkind[inst] == trick_zone for c in z]
        m = bots[s.actor].choose(s)
        if trick and m.action == "play":
            led = p.card_suit[trick[0]]
            c = p.card_names.index(m.arg)
            if p.card_suit[c] != led and s.actor != 0 and void is None:
                void = (s.actor, led)
        apply(s, m)
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_truths_keep_what_the_seat_saw_and_the_voids_others_showed(seed):
    got = _void_shown(seed)
    if got is None:
        pytest.skip("no void shown before the end in this game")
    s, (who, suit) = got
    p = s.program
    memory = Memory(s, 0)
    memory.catch_up(s)
    rng = random.Random(5)
    zones = p.zones
    for _ in range(12):
        t = memory.truth(s, 0, rng)
        assert t.actor == 0 and not t.finished and t.pc == s.pc
        assert [len(z) for z in t.zones] == [len(z) for z in s.zones]
        for inst, (a, b) in enumerate(zip(t.zones, s.zones)):
            if sees(zones[s.zkind[inst]].visibility, s.zowner[inst], 0):
                assert a == b  # what the seat sees is as it is
        hand = [c for inst, z in enumerate(t.zones) if s.zowner[inst] == who and zones[s.zkind[inst]].name == "hand"
                for c in z]
        assert not any(p.card_suit[c] == suit for c in hand), "a void shown was filled in the truth"
        assert moves_for(t) == moves_for(s) or [str(m) for m in moves_for(t)] == [str(m) for m in moves_for(s)]


def test_the_sampling_player_plays_legal_moves_and_is_seeded():
    rs = load_ruleset(HEARTS)

    def game(seed):
        s = new_game(rs, 4, None, seed)
        bots = [PimcBot(7, worlds=2, nodes=30)] + [make_bot("random", bot_seed(seed, k)) for k in range(1, 4)]
        made = []
        for _ in range(24):
            if s.finished:
                break
            m = bots[s.actor].choose(s)
            assert m in moves_for(s)
            made.append(str(m))
            apply(s, m)
        return made
    assert game(4) == game(4)


@pytest.mark.parametrize("spec", ["pimc:0", "pimc:x", "pimc:1:2:3", "pimc:-1"])
def test_a_bad_sampling_player_is_a_clear_error(spec):
    with pytest.raises(OptionError):
        make_bot(spec)
    assert isinstance(make_bot("pimc:3:40"), PimcBot) and make_bot("pimc").worlds == 20


def _decisions(path: str, players: int, spec: str, engine: str, count: int) -> list[str]:
    """The first `count` moves P1 (the sampling player) chose among several, against greedy players."""
    from interpreter.native.engine import new_native_game
    rs = load_ruleset(path)
    s = (new_game if engine == "python" else new_native_game)(rs, players, None, 3)
    bots = [make_bot(spec, 11)] + [make_bot("greedy", bot_seed(3, k)) for k in range(1, players)]
    made = []
    while not s.finished and len(made) < count:
        m = bots[s.actor].choose(s)
        if s.actor == 0 and len(moves_for(s)) > 1:
            made.append(str(m))
        apply(s, m)
    return made


@pytest.mark.parametrize("path, players, spec, count", [
    (str(HEARTS), 4, "pimc:3:100", 5),
    ("rulesets/ganjifa/ganjifa.cards", 3, "pimc:2:30", 3),
])
def test_the_sampling_player_moves_alike_on_both_engines(path, players, spec, count):
    """On the native engine the truths are solved in C: the same values, so the same moves."""
    from interpreter.native import find_compiler
    if find_compiler() is None:
        pytest.skip("no C compiler")
    python = _decisions(path, players, spec, "python", count)
    assert len(python) == count
    assert _decisions(path, players, spec, "native", count) == python
