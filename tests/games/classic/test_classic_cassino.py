"""Cassino for two (rulesets/classic/cassino.cards) against pagat.com's rules: one small position
per rule, with the exact set of legal moves and exactly what happens after a move.

Cards are written short: '8H' is the 8 of Hearts, 'TD' the 10 of Diamonds, 'AS' the Ace of
Spades, 'KC' the King of Clubs. Seats are 0-based (P1 is 0). A build of value v lies in the
zone build(v); its top card names it in a capture."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from interpreter.engine import apply, card_info, cards_in, evaluate, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "cassino.cards"
RANK = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King", **{str(n): str(n) for n in range(2, 10)}}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
BACK = {f"{r}-{x}": k + y for k, r in RANK.items() for y, x in SUIT.items()}


rules = loader(RULESET)


def c(short: str) -> str:
    return f"{RANK[short[0]]}-{SUIT[short[1]]}"


def cs(*shorts: str) -> list[str]:
    return [c(x) for x in shorts]


def table(hands, loose=(), builds=None, *, turn=0, dealer=1, owners=None, taken=None, options=None, phase="play",
          stock=None, **vars):
    """A position at the start of `phase` with P(turn) to play: `builds` {value: cards from the
    bottom up}, `owners` {value: the seat that laid the build's top card}. Unlisted cards lie in
    the stock unless `stock` lists it exactly (then they are in the cards taken by nobody: P2's)."""
    zones = {"hand": {p: cs(*h) for p, h in enumerate(hands)}, "table": cs(*loose)}
    played = {}
    if builds:
        zones["build"] = {v: cs(*b) for v, b in builds.items()}
        for v, b in builds.items():
            played[c(b[-1])] = (owners or {}).get(v, turn)
    if taken:
        zones["taken"] = {p: cs(*t) for p, t in enumerate(taken)}
    rest = None
    if stock is not None:
        zones["stock"] = cs(*stock)
        rest = ("taken", 1)
    v = {"turn": turn, "dealer": dealer, **vars}
    return position(rules(), 2, phase, zones=zones, vars=v, options=options, played_by=played, rest=rest)


def moves(s, kind: str | None = None) -> set[str]:
    """The legal moves (of one kind), their cards in short names ('capture 8H 5C 3S')."""
    out = set()
    for m in legal_moves(s):
        word, *args = str(m).split()
        if kind is None or word == kind:
            out.add(" ".join([word] + [BACK.get(a, a) for a in args]))
    return out


def go(s, *plays: str):
    """Plays moves given with short card names, the set's cards in the deck's order as listed."""
    for p in plays:
        word, *args = p.split()
        apply(s, " ".join([word] + [c(a) if len(a) == 2 and a[0] in RANK and a[1] in SUIT else a for a in args]))
    return s


def short(s, zone, which=None) -> list[str]:
    return [BACK[x] for x in cards_in(s, zone, which)]


def points(s) -> list[int]:
    v = public_vars(s)["points"]
    return [v["P1"], v["P2"]]


# ================================================================== the pack and the deal

def test_the_pack_is_fifty_two_cards_and_the_courts_have_no_value():
    s = new_game(rules(), 2, seed=0)
    assert sorted(s.program.card_names) == sorted(c(r + x) for r in RANK for x in SUIT)
    pips = {BACK[n][0]: evaluate(s, "worth", n) for n in s.program.card_names}
    assert pips == {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 0, "Q": 0, "K": 0}


@pytest.mark.parametrize("seed", [0, 5])
def test_four_cards_each_four_face_up_on_the_table_and_the_other_player_first(seed):
    s = new_game(rules(), 2, seed=seed)
    v = public_vars(s)
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [4, 4] and len(cards_in(s, "stock")) == 40
    assert len(cards_in(s, "table")) == 4 and all(card_info(s, x)["face_up"] for x in cards_in(s, "table"))
    assert v["turn"] != v["dealer"] and s.rule == "turn" and s.actor == int(v["turn"][1]) - 1


def test_four_more_to_each_player_when_both_hands_are_empty_and_none_to_the_table():
    s = table([["5C"], ["KH"]], ["9D"], stock=["2C", "3C", "4C", "6C", "7C", "8C", "2D", "3D"])
    go(s, "trail 5C", "trail KH")
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [4, 4]
    assert short(s, "table") == ["9D", "5C", "KH"] and cards_in(s, "stock") == []
    assert s.actor == 0  # the other player (P1, the dealer being P2) plays first again


# ================================================================== capturing

def test_a_card_captures_its_rank_and_every_set_adding_up_to_it_in_one_move():
    s = table([["8H", "KS", "3C"], ["9C"]], ["5C", "3H", "2S", "8D", "KC"])
    assert moves(s, "capture") == {"capture 8H 5C 3H", "capture 8H 8D", "capture 8H 5C 8D 3H", "capture 3C 3H"}
    go(s, "capture 8H 5C 8D 3H")
    assert short(s, "taken", 0) == ["5C", "8D", "3H", "8H"] and short(s, "table") == ["2S", "KC"]  # the set in the deck's order
    assert public_vars(s)["last_taker"] == "P1" and s.actor == 1


def test_every_captured_card_belongs_to_one_set_that_adds_up():
    # 4+4+2 makes ten, not two sets of five: the five cannot take all three
    s = table([["5H"], ["9C"]], ["4C", "4D", "2S"])
    assert moves(s, "capture") == set()
    s = table([["TH"], ["9C"]], ["4C", "4D", "2S", "6H"])
    # 4+6 (either 4) or 4+4+2; all four add up to 16, not a whole number of tens
    assert moves(s, "capture") == {"capture TH 4C 6H", "capture TH 4D 6H", "capture TH 4C 4D 2S"}


def test_an_ace_counts_one():
    s = table([["3H"], ["9C"]], ["AC", "2D", "AS", "AH"])
    assert moves(s, "capture") == {"capture 3H AC 2D", "capture 3H 2D AS", "capture 3H 2D AH", "capture 3H AC AH AS"}


def test_a_court_card_captures_one_court_card_of_its_rank_and_nothing_else():
    s = table([["KH", "5H"], ["9C"]], ["KC", "KD", "QS", "5C"])
    assert moves(s, "pair") == {"pair KH KC", "pair KH KD"}
    assert moves(s, "capture") == {"capture 5H 5C"}  # a number card never takes a court card
    go(s, "pair KH KD")
    assert short(s, "taken", 0) == ["KD", "KH"] and short(s, "table") == ["KC", "QS", "5C"]


def test_a_build_is_captured_whole_by_a_card_of_its_value_with_other_sets():
    s = table([["8H"], ["9C"]], ["8D", "6C", "2C", "5H"], builds={8: ["5C", "3C"]}, owners={8: 1})
    assert moves(s, "capture") == {"capture 8H 3C", "capture 8H 8D", "capture 8H 2C 6C", "capture 8H 3C 8D",
                                   "capture 8H 2C 3C 6C", "capture 8H 2C 6C 8D", "capture 8H 2C 3C 6C 8D"}
    go(s, "capture 8H 2C 3C 6C")
    assert short(s, "taken", 0) == ["5C", "3C", "2C", "6C", "8H"] and cards_in(s, "build", 8) == []
    assert short(s, "table") == ["8D", "5H"]


def test_the_cards_of_a_build_are_not_loose():
    s = table([["5H", "3H"], ["9C"]], ["7D"], builds={8: ["5C", "3C"]}, owners={8: 1})
    assert moves(s, "capture") == set()  # neither the 5 nor the 3 of the build can be taken alone


def test_a_capture_that_clears_the_table_is_a_sweep():
    s = table([["8H", "2H"], ["9C", "2C"]], ["5C", "3H"])
    go(s, "capture 8H 5C 3H")
    assert public_vars(s)["sweeps_made"] == {"P1": 1, "P2": 0}
    s = table([["8H", "2H"], ["9C", "2C"]], ["5C", "3H", "KD"])
    go(s, "capture 8H 5C 3H")
    assert public_vars(s)["sweeps_made"] == {"P1": 0, "P2": 0}
    s = table([["8H", "2H"], ["9C", "2C"]], ["5C", "3H"], options={"sweeps": False})
    go(s, "capture 8H 5C 3H")
    assert public_vars(s)["sweeps_made"] == {"P1": 0, "P2": 0}


# ================================================================== building

def test_a_build_needs_a_card_of_its_value_still_held():
    s = table([["3C", "8H", "KS"], ["9C"]], ["5C", "6D"])
    assert moves(s, "build") == {"build 3C 8 5C"}
    go(s, "build 3C 8 5C")
    assert short(s, "build", 8) == ["5C", "3C"] and short(s, "table") == ["6D"]
    s2 = table([["3C", "9H"], ["9C"]], ["5C", "6D"])
    assert moves(s2, "build") == {"build 3C 9 6D"}


def test_a_build_may_hold_several_sets_of_its_value():
    # the 2 played on the 6 makes eight, and the loose 8 and 5+3 join it: "building eights"
    s = table([["2H", "8C"], ["9C"]], ["6D", "8D", "5S", "3D", "KH"])
    assert moves(s, "build") == {"build 2H 8 6D", "build 2H 8 6D 8D", "build 2H 8 3D 6D 5S", "build 2H 8 3D 6D 8D 5S"}
    go(s, "build 2H 8 3D 6D 8D 5S")
    assert set(short(s, "build", 8)) == {"6D", "8D", "5S", "3D", "2H"} and short(s, "build", 8)[-1] == "2H"
    assert short(s, "table") == ["KH"]


def test_a_card_played_on_its_own_value_builds_that_value():
    s = table([["7H", "7C"], ["9C"]], ["7D"])
    assert moves(s, "build") == {"build 7H 7 7D", "build 7C 7 7D"}


def test_a_new_build_of_a_value_on_the_table_joins_that_build_and_takes_it_over():
    s = table([["4H", "9C"], ["9D"]], ["5D"], builds={9: ["6C", "3C"]}, owners={9: 1})
    go(s, "build 4H 9 5D")
    assert short(s, "build", 9) == ["6C", "3C", "5D", "4H"]
    assert card_info(s, c("4H"))["played_by"] == 0
    assert moves(s) == {"capture 9D 4H", "trail 9D"}  # P2 captures it whole, with the 9 it was built to


def test_adding_a_card_of_its_value_to_a_build():
    s = table([["7H", "7C"], ["9C"]], [], builds={7: ["5C", "2C"]}, owners={7: 1})
    assert moves(s, "add") == {"add 7H", "add 7C"}
    go(s, "add 7H")
    assert short(s, "build", 7) == ["5C", "2C", "7H"]
    assert moves(table([["7H", "8C"], ["9C"]], [], builds={7: ["5C", "2C"]}), "add") == set()  # no other 7 held


# ================================================================== increasing a build

def test_a_single_build_may_be_increased_by_a_player_holding_the_new_value():
    s = table([["2H", "9H", "3D"], ["9C"]], [], builds={7: ["5C", "2C"]}, owners={7: 1})
    assert moves(s, "increase") == {"increase 2H build7"}
    go(s, "increase 2H build7")
    assert cards_in(s, "build", 7) == [] and short(s, "build", 9) == ["5C", "2C", "2H"]


def test_a_build_of_several_sets_cannot_be_increased():
    s = table([["2H", "9H"], ["9C"]], [], builds={7: ["5C", "2C", "7D"]}, owners={7: 1})
    assert moves(s, "increase") == set()


def test_increasing_ones_own_build_is_an_option():
    own = dict(builds={7: ["5C", "2C"]}, owners={7: 0})
    assert moves(table([["2H", "9H", "7H"], ["9C"]], [], **own), "increase") == {"increase 2H build7"}
    s = table([["2H", "9H", "7H"], ["9C"]], [], options={"increase_own": False}, **own)
    assert moves(s, "increase") == set()


# ================================================================== trailing

def test_any_card_may_trail_unless_the_player_owns_a_build():
    s = table([["8H", "KS"], ["9C"]], ["8D"])
    assert moves(s, "trail") == {"trail 8H", "trail KS"}  # even a card that could capture
    go(s, "trail KS")
    assert short(s, "table") == ["8D", "KS"] and card_info(s, c("KS"))["face_up"]
    owner = table([["8H", "KS"], ["9C"]], [], builds={8: ["5C", "3C"]}, owners={8: 0})
    assert moves(owner, "trail") == set()


def test_the_owner_of_a_build_keeps_a_card_to_capture_it():
    s = table([["8H", "KS", "2D"], ["9C"]], ["8D"], builds={8: ["5C", "3C"]}, owners={8: 0})
    # the only 8 may capture the build (and the loose 8 with it), but not the loose 8 alone
    assert moves(s) == {"capture 8H 3C", "capture 8H 3C 8D"}
    spare = table([["8H", "8C", "KS"], ["9C"]], ["8D"], builds={8: ["5C", "3C"]}, owners={8: 0})
    assert moves(spare, "capture") == {"capture 8C 3C", "capture 8C 8D", "capture 8C 3C 8D",
                                       "capture 8H 3C", "capture 8H 8D", "capture 8H 3C 8D"}


# ================================================================== the end of the deal

def test_the_last_capturer_takes_the_cards_left_and_it_is_no_sweep():
    s = table([["5H"], ["KC"]], ["5C", "9D"], stock=[])
    go(s, "capture 5H 5C", "trail KC")
    assert s.finished
    assert short(s, "taken", 0)[-2:] == ["9D", "KC"]
    assert public_vars(s)["sweeps_made"] == {"P1": 0, "P2": 0}


def test_the_score_of_a_deal():
    p1 = ["TD", "2S", "AC", "AH", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    s = table([["5H"], ["KC"]], ["5C"], stock=[], taken=[p1, []], sweeps_made={0: 1, 1: 2})
    go(s, "capture 5H 5C", "trail KC")
    # P1: 15 cards against 37 (no 3 for cards), 9 spades of 13 (1), big and little casino (3), two Aces,
    # two sweeps (the 5 took the last loose card); P2: the most cards (3), two Aces, two sweeps
    assert points(s) == [1 + 3 + 2 + 2, 3 + 2 + 2] and outcome(s).winners == (0,)


def test_with_play_to_21_another_deal_follows_until_a_player_has_21():
    opts = {"play_to_21": True}
    s = table([["5H"], ["KC"]], ["5C"], stock=[], options=opts, points={0: 12, 1: 3})
    go(s, "capture 5H 5C", "trail KC")
    assert not s.finished and public_vars(s)["dealer"] == "P1" and s.actor == 1
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [4, 4] and len(cards_in(s, "table")) == 4
    assert len(cards_in(s, "stock")) == 40  # every card gathered again


def test_with_play_to_21_the_game_ends_after_the_deal_that_reaches_21_and_the_higher_score_wins():
    p1 = ["TD", "2S", "AC", "AH", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    s = table([["5H"], ["KC"]], ["5C"], stock=[], taken=[p1, []], options={"play_to_21": True},
              points={0: 18, 1: 20}, sweeps_made={0: 1, 1: 2})
    go(s, "capture 5H 5C", "trail KC")  # the deal scores 8 and 7, as above
    assert s.finished and points(s) == [26, 27] and outcome(s).winners == (1,)


# ================================================================== whole games

@pytest.mark.parametrize("options", [{}, {"sweeps": False, "increase_own": False}, {"play_to_21": True}])
def test_random_games_use_every_card_and_score_eleven_a_deal_and_the_sweeps(options):
    for seed in range(6):
        s = new_game(rules(), 2, seed=seed, options=options)
        rnd = random.Random(seed)
        while not s.finished:
            ms = legal_moves(s)
            assert ms, "a player is left without a move"
            apply(s, rnd.choice(ms))
        taken = [len(cards_in(s, "taken", p)) for p in range(2)]
        assert sum(taken) == 52 and cards_in(s, "table") == []
        v = public_vars(s)
        if not options:
            tie = 3 if taken[0] == taken[1] else 0
            assert sum(points(s)) == 11 - tie + sum(v["sweeps_made"].values())
        if options.get("play_to_21"):
            assert max(points(s)) >= 21
