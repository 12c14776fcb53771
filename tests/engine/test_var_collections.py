"""A variable holding a collection of players, numbers or zones starts empty when no value is
given, as the reference says (Egyptian Ratscrew, written by a new user: `var v: players` was
refused, "'[]' is a collection of cards", a list nobody wrote); `[]` is any collection."""

from __future__ import annotations

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, observe
from interpreter.native.engine import new_native_game

GAME = """game v "V"
players 3
deck d:
    suits Red
    ranks 1..3
zone stock shared hidden
zone spot[2] shared public
var ps: players
var ns: ints
var zs: zones
var cs: cards
var sizes: int = 0
define score(p: player) = 0
winner most score
phase p "P":
    rule r "R":
        set sizes = count(ps) * 1000 + count(ns) * 100 + count(zs) * 10 + count(cs)
        choose by seat(1):
            action go "Go.":
                set ps = those q in players where q != seat(2)
                set ns = [4, 5, 6]
                set zs = zones(spot)
                set cs = []
                set ns = []
                end game
"""


@pytest.mark.parametrize("make", [new_game, new_native_game])
def test_collections_start_empty_and_take_an_empty_list(tmp_path, make):
    s = make(written(tmp_path, "v.cards", GAME), 3)
    assert observe(s, 0)["vars"]["sizes"] == 0
    apply(s, legal_moves(s)[0])
    v = observe(s, 0)["vars"]
    assert v["ps"] == ["P1", "P3"] and v["ns"] == [] and v["zs"] == ["spot1", "spot2"] and v["cs"] == []
