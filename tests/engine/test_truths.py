"""Possible truths (engine/truths.py): the hidden cards renamed in the pack before the deal and the
game played again, kept only where the table looks the same to the seat. A rule of the set-up that
looks at the cards (every King turned up as it is dealt) is played again on the truth's cards, so
no truth hides a King where the game shows none."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves, new_game
from interpreter.engine.truths import Memory

KINGS = Path(__file__).resolve().parents[1] / "fuzz" / "targets" / "kings-shown.cards"


def _hands(s):
    p = s.program
    return [[c for c in s.zones[inst]] for inst in range(len(s.zones)) if p.zones[s.zkind[inst]].name == "hand"]


def test_no_truth_hides_a_king_where_the_set_up_turns_every_king_up():
    rs = load_ruleset(KINGS)
    p = None
    renamed = 0
    for seed in range(12):
        s = new_game(rs, 3, None, seed)
        p = s.program
        me = s.actor
        memory = Memory(s, me)
        memory.catch_up(s)
        rng = random.Random(seed)
        for _ in range(6):
            t = memory.truth(s, me, rng, fallback=False)
            assert t is not None
            for hand_t, hand_s in zip(_hands(t), _hands(s)):
                for c, d in zip(hand_t, hand_s):
                    if p.card_names[c].startswith("King"):
                        assert t.known[c] and c == d, "a King the set-up turns up lies face down in a truth"
                    assert t.known[c] == s.known[d]
            renamed += _hands(t) != _hands(s)
            assert sorted(str(m) for m in legal_moves(t)) == sorted(str(m) for m in legal_moves(s))
    assert renamed > 20  # (the truths do rename the cards the seat has not seen)


def test_a_truth_replays_the_moves_made_since():
    rs = load_ruleset(KINGS)
    s = new_game(rs, 3, None, 4)
    apply(s, next(m for m in legal_moves(s) if m.action == "keep"))
    me = s.actor
    memory = Memory(s, me)
    memory.catch_up(s)
    t = memory.truth(s, me, random.Random(1), fallback=False)
    assert t is not None and [str(m) for m in t.history] == [str(m) for m in s.history] and t.actor == me
