"""Oklahoma Gin (rulesets/classic/gin-rummy-oklahoma.cards) against OpenSpiel's `gin_rummy` with
oklahoma=True: one position per changed rule (the knock card set by the first upcard, an Ace
meaning gin only, the knock, the knocker's discard and melds held to the knock card), then
OpenSpiel's own games replayed move by move, random ones and ones where a careful player knocks.

Seats, card names and moves are as in test_classic_gin_rummy.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

import test_classic_gin_rummy as base
from interpreter.engine import apply, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "gin-rummy-oklahoma.cards"
c, cs, legal, at, discards = base.c, base.cs, base.legal, base.at, base.discards


rules = loader(RULESET)


def table(hands, up="Jd", *, knock_card, mover=0, phase="play"):
    zones = {"hand": {p: cs(h) for p, h in enumerate(hands)}, "discards": [c(up)]}
    return position(rules(), 2, phase, zones=zones, vars={"mover": mover, "knock_card": knock_card})


def dealt_with_upcard(up: str):
    """A deal whose first upcard is `up` (P1's ten cards, P2's ten, then the upcard)."""
    pack = [x for x in (f"{r}{s}" for s in "scdh" for r in "A23456789TJQK") if x != up]
    order = pack[:20] + [up] + pack[20:]
    return position(rules(), 2, "deal", zones={"stock": [c(x) for x in reversed(order)]}, shuffle=False)


@pytest.mark.parametrize("up,knock", [("7d", 7), ("Ts", 10), ("Kh", 10), ("2c", 2), ("As", 0)])
def test_the_first_upcard_sets_the_knock_card(up, knock):
    s = dealt_with_upcard(up)
    assert public_vars(s)["knock_card"] == knock and s.rule == "first_upcard"


KNOCKABLE = "5h 6h 7h 8h Ks Kc Kd Kh 2s 3c Ad"  # discard the 8h: 2 + 3 + 1 = 6 deadwood


@pytest.mark.parametrize("knock_card,knock_discards", [
    (10, "5h 8h Ks Kc Kd Kh 2s 3c Ad"),  # any discard but the middle of the run leaves 10 or less
    (4, "3c 2s"),     # the 3 of Clubs leaves 2 + 1, the 2 of Spades 3 + 1
    (3, "3c"),
    (2, None),        # 3 is the least deadwood this hand can keep: no knock
])
def test_knocking_needs_deadwood_no_more_than_the_knock_card(knock_card, knock_discards):
    s = table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"], knock_card=knock_card)
    at(s, 0, "discard", discards(KNOCKABLE) | ({"knock"} if knock_discards else set()))
    if knock_discards:
        apply(s, "knock")
        at(s, 0, "knock_discard", discards(knock_discards))


def test_an_ace_upcard_means_gin_only():
    gin = "5h 6h 7h 8h Ks Kc Kd 2s 3s 4s Qd"  # the Queen of Diamonds discarded: no deadwood
    s = table([gin, "2h 3h 4h 9h Th Qs Qc Jd Ac Ah"], up="Jc", knock_card=0)
    at(s, 0, "discard", discards(gin) | {"knock"})
    apply(s, "knock")
    at(s, 0, "knock_discard", {"discard Queen-Diamonds"})
    one_off = "5h 6h 7h 8h Ks Kc Kd 2s 3s Ac Qd"  # the best discard leaves the 2 and 3 of Spades and an Ace
    s = table([one_off, "2h 3h 4h 9h Th Qs Qc Jd 4c Ah"], up="Jc", knock_card=0)
    at(s, 0, "discard", discards(one_off))


def test_the_knocker_lays_melds_until_the_hand_counts_no_more_than_the_knock_card():
    s = table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"], knock_card=3)
    apply(s, "knock")
    apply(s, "discard 3-Clubs")
    # only melds that leave a way down to 3: not a run of three, which leaves the 5 or the 8 of Hearts
    at(s, 0, "knock_melds", {"lay_four King", "lay_run4 5-Hearts"})
    in_base = base.table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    apply(in_base, "knock")
    apply(in_base, "discard 3-Clubs")
    at(in_base, 0, "knock_melds", {"lay_four King", "lay_run4 5-Hearts", "lay_run3 6-Hearts"})  # 5 + 2 + 1 <= 10
    apply(s, "lay_four King")
    assert "pass" not in legal(s)  # 5 + 6 + 7 + 8 + 2 + 1
    apply(s, "lay_run4 5-Hearts")
    at(s, 0, "knock_melds", {"pass"})  # 2 + 1 = 3, the knock card


def _game(rng, careful):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy", {"oklahoma": True})
    return base._openspiel_game(pyspiel, game, rng, careful)


def _knock_card(dealt):
    up = dealt[20]
    points = 10 if up.split("-")[0] in ("10", "Jack", "Queen", "King") else 1 if up.startswith("Ace") else int(up.split("-")[0])
    return 0 if points == 1 else points


def _replay(dealt, decisions, returns) -> str:
    s = position(rules(), 2, "deal", zones={"stock": list(reversed(dealt))}, shuffle=False)
    assert public_vars(s)["knock_card"] == _knock_card(dealt)
    for p, moves, chosen, agrees in decisions:
        assert s.actor == p
        assert legal(s) == moves, (legal(s) ^ moves)
        apply(s, chosen)
    assert s.finished
    assert tuple(float(x) for x in outcome(s).scores) == returns
    return "same"


def test_openspiels_oklahoma_games_replayed_move_by_move():
    rng = random.Random(32)
    for _ in range(100):
        _replay(*_game(rng, careful=False))


def test_openspiels_oklahoma_games_with_knocks_replayed_move_by_move():
    rng = random.Random(33)
    knocks = 0
    low_knock_cards = 0
    for _ in range(60):
        dealt, decisions, returns = _game(rng, careful=True)
        _replay(dealt, decisions, returns)
        if any(m == "knock" for _, _, m, _ in decisions):
            knocks += 1
            low_knock_cards += _knock_card(dealt) < 10
    print(f"{knocks} of 60 games knocked, {low_knock_cards} of them with a knock card below 10")
    assert knocks >= 30 and low_knock_cards >= 10, (knocks, low_knock_cards)
