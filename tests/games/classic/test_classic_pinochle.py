"""Two-handed Pinochle (rulesets/classic/pinochle.cards) against pagat.com's rules: one small
position per rule, with the exact set of legal moves and exactly what happens after a move.

Cards are written short: 'KH1' is the first King of Hearts ('King-Hearts#1'), 'TS2' the second
10 of Spades, '9D1' the first 9 of Diamonds. Seats are 0-based (P1 is 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_games import loader

from interpreter.engine import apply, card_info, cards_in, fired_counts, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "pinochle.cards"
RANK = {"A": "Ace", "T": "10", "K": "King", "Q": "Queen", "J": "Jack", "9": "9"}
SUIT = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
ORIGINAL = {"Ace": 11, "10": 10, "King": 4, "Queen": 3, "Jack": 2, "9": 0}


rules = loader(RULESET)


def c(short: str) -> str:
    return f"{RANK[short[0]]}-{SUIT[short[1]]}#{short[2]}"


def cs(*shorts: str) -> list[str]:
    return [c(x) for x in shorts]


def table(hands, *, phase="early", leader=0, dealer=1, trumps="Hearts", stock=None, turnup=("9C1",), melded=None,
          won=None, trick=(), rest=None, options=None, **vars):
    """A position at the start of `phase`: `hands[seat]` and `melded[seat]` as short names, the
    stock's top cards (the last is the top; every unlisted card lies beneath them unless `rest`
    names another zone)."""
    zones = {"hand": {p: cs(*h) for p, h in enumerate(hands)}, "turnup": cs(*turnup), "trick": cs(*trick)}
    if stock is not None:
        zones["stock"] = cs(*stock)
    if melded:
        zones["melded"] = {p: cs(*m) for p, m in enumerate(melded)}
    if won:
        zones["won"] = {p: cs(*w) for p, w in enumerate(won)}
    v = {"leader": leader, "dealer": dealer, "trumps": trumps}
    for name, value in vars.items():
        v[name] = {p: (cs(*x) if isinstance(x, (list, tuple)) else x) for p, x in value.items()}
    return position(rules(), 2, phase, zones=zones, vars=v, options=options, rest=rest)


def moves(s, kind: str | None = None) -> set[str]:
    return {str(m) for m in legal_moves(s) if kind is None or str(m).split()[0] == kind}


def short_moves(s, kind: str) -> set[str]:
    """The moves of one kind, their cards in short names ('marriage KH1 QH2')."""
    back = {c(r + x + n): r + x + n for r in RANK for x in SUIT for n in "12"}
    return {" ".join([m.split()[0]] + [back.get(w, w) for w in m.split()[1:]]) for m in moves(s, kind)}


def go(s, *plays: str):
    """Plays moves given with short card names: 'lead AH1', 'marriage KH1 QH1', 'no_meld'."""
    for p in plays:
        word, *args = p.split()
        apply(s, " ".join([word] + [c(a) if _short(a) else a for a in args]))
    return s


def _short(a: str) -> bool:
    return len(a) == 3 and a[0] in RANK and a[1] in SUIT and a[2] in "12"


def score(s) -> list[int]:
    v = public_vars(s)["score"]
    return [v["P1"], v["P2"]]


# ================================================================== the pack and the deal

def test_the_pack_has_two_of_each_card_from_the_nine_to_the_ace():
    s = new_game(rules(), 2, seed=0)
    names = s.program.card_names
    assert len(names) == 48 and {n.split("#")[0] for n in names} == {f"{r}-{x}" for r in RANK.values() for x in SUIT.values()}


@pytest.mark.parametrize("seed", [0, 3])
def test_twelve_cards_each_a_turned_trump_card_and_a_stock_of_twenty_three(seed):
    s = new_game(rules(), 2, seed=seed)
    v = public_vars(s)
    turned = cards_in(s, "turnup")
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [12, 12] and len(cards_in(s, "stock")) == 23
    assert len(turned) == 1 and card_info(s, turned[0])["face_up"] and v["trumps"] == turned[0].split("-")[1].split("#")[0]
    assert v["leader"] != v["dealer"] and s.rule == "lead" and s.actor == int(v["leader"][1]) - 1


def test_the_deal_goes_four_at_a_time_to_the_other_player_first_then_the_trump_card():
    pack = list(new_game(rules(), 2, seed=0).program.card_names)  # bottom first
    s = position(rules(), 2, "deal", zones={"stock": pack}, vars={"dealer": 1}, shuffle=False)
    top = pack[::-1]
    assert set(cards_in(s, "hand", 0)) == {x for i in range(3) for x in top[8 * i:8 * i + 4]}
    assert set(cards_in(s, "hand", 1)) == {x for i in range(3) for x in top[8 * i + 4:8 * i + 8]}
    assert cards_in(s, "turnup") == [top[24]] and public_vars(s)["leader"] == "P1"


def test_a_nine_turned_up_scores_ten_for_the_dealer():
    pack = list(new_game(rules(), 2, seed=0).program.card_names)
    nine = c("9S1")
    order = [x for x in pack if x != nine]
    order = order[:23] + [nine] + order[23:]  # 24 cards from the top: the turned card
    s = position(rules(), 2, "deal", zones={"stock": order}, vars={"dealer": 1}, shuffle=False)
    assert cards_in(s, "turnup") == [nine] and score(s) == [0, 10] and public_vars(s)["trumps"] == "Spades"
    plain = position(rules(), 2, "deal", zones={"stock": pack}, vars={"dealer": 1}, shuffle=False)
    assert score(plain) == [0, 0]


# ================================================================== tricks while the stock lasts

def test_the_leader_plays_any_card_from_the_hand_or_the_melds():
    s = table([["AS1", "9C2"], ["KD1"]], melded=[["KH1", "QH1"], []])
    assert short_moves(s, "lead") == {"lead AS1", "lead 9C2", "lead KH1", "lead QH1"}


def test_while_the_stock_lasts_the_follower_need_not_follow_suit_or_trump():
    s = table([["AS1"], ["KS1", "TH1", "9C2"]], melded=[[], ["QD1"]])
    go(s, "lead AS1")
    assert short_moves(s, "play") == {"play KS1", "play TH1", "play 9C2", "play QD1"}


@pytest.mark.parametrize("led,played,winner", [
    ("KS1", "AS1", 1),   # a higher card of the suit led
    ("TS1", "KS1", 0),   # the 10 ranks above the King
    ("AS1", "9H1", 1),   # a trump (Hearts) on another suit
    ("9H1", "AS1", 0),   # another suit on a trump
    ("KS1", "AC1", 0),   # a card of a third suit never wins
    ("AS1", "AS2", 0),   # of two equal cards, the one led
])
def test_the_trick_goes_to_the_higher_card_of_the_suit_led_or_the_trump(led, played, winner):
    s = table([[led[:3], "JC1"], [played, "JC2"]], stock=["9D1", "9D2"])
    go(s, f"lead {led}", f"play {played}")
    assert cards_in(s, "won", winner) == [c(led), c(played)] and public_vars(s)["leader"] == f"P{winner + 1}"
    assert s.rule == "lead" and s.actor == winner  # no meld to lay out: not asked, drawn, and the winner leads


def test_the_winner_is_asked_to_meld_only_with_a_meld_to_lay_out():
    s = after_trick(["KS1", "QS1"])
    assert s.rule == "meld" and short_moves(s, "marriage") == {"marriage KS1 QS1"} and "no_meld" in moves(s)
    plain = after_trick(["KS1", "QH1"])
    assert plain.rule == "lead" and plain.actor == 0 and c("9D2") in cards_in(plain, "hand", 0)


# ================================================================== melds

def after_trick(hand, melded=(), trumps="Hearts", turnup=("9C1",), **vars):
    """P1 has just won a trick (the Jack of Clubs over the 9 of Clubs) and may meld."""
    s = table([list(hand) + ["JC1"], ["9C2", "QC1"]], melded=[list(melded), []], trumps=trumps, turnup=turnup,
              stock=["9D1", "9D2"], **vars)
    return go(s, "lead JC1", "play 9C2")


def test_a_marriage_scores_twenty_and_the_royal_marriage_forty():
    s = after_trick(["KS1", "QS1", "KH1", "QH1", "KD1"])
    assert short_moves(s, "marriage") == {"marriage KS1 QS1", "marriage KH1 QH1"}
    go(s, "marriage KS1 QS1")
    assert score(s) == [20, 0] and set(cards_in(s, "melded", 0)) == set(cs("KS1", "QS1"))
    royal = go(after_trick(["KH1", "QH1"]), "marriage KH1 QH1")
    assert score(royal) == [40, 0]


def test_the_winner_then_draws_first_and_the_other_player_next():
    s = go(after_trick(["KS1", "QS1"]), "no_meld")
    assert c("9D2") in cards_in(s, "hand", 0) and c("9D1") in cards_in(s, "hand", 1)
    assert s.rule == "lead" and s.actor == 0


def test_only_one_meld_after_a_trick():
    s = go(after_trick(["KS1", "QS1", "KH1", "QH1"]), "marriage KS1 QS1")
    assert s.rule == "lead"  # drawn, and the next trick begins: no second meld
    assert score(s) == [20, 0]


def test_a_meld_needs_a_card_from_the_hand():
    s = after_trick(["KS2"], melded=["KS1", "QS1"], marriage_cards={0: []})
    # a King and Queen lying on the table from another meld (say Kings around) may not marry alone
    assert short_moves(s, "marriage") == {"marriage KS2 QS1"}


def test_a_card_never_marries_twice_but_serves_in_melds_of_another_kind():
    s = after_trick(["KS2", "KC1", "KD1", "KH1", "QD1"], melded=["KS1", "QS1"], marriage_cards={0: ["KS1", "QS1"]})
    assert short_moves(s, "marriage") == {"marriage KD1 QD1"}  # not the married Queen of Spades again
    assert short_moves(s, "around") == {"around King"}
    go(s, "around King")  # the King of Spades already on the table serves again
    assert score(s) == [80, 0]
    assert set(cards_in(s, "melded", 0)) == set(cs("KS1", "QS1", "KC1", "KD1", "KH1"))


def test_four_of_a_rank_scores_by_rank_and_never_counts_again_with_the_same_cards():
    for rank, value in (("A", 100), ("K", 80), ("Q", 60), ("J", 40)):
        s = after_trick([f"{rank}C2", f"{rank}D1", f"{rank}H1", f"{rank}S1"])
        go(s, f"around {RANK[rank]}")
        assert score(s) == [value, 0] and set(cards_in(s, "melded", 0)) == set(cs(f"{rank}C2", f"{rank}D1", f"{rank}H1", f"{rank}S1"))
    assert short_moves(after_trick(["TC1", "TD1", "TH1", "TS1", "9S1"]), "around") == set()  # no 10s or 9s around
    again = after_trick(["AC2"], melded=["AC1", "AD1", "AH1", "AS1"], around_cards={0: ["AC1", "AD1", "AH1", "AS1"]})
    assert short_moves(again, "around") == set()


def test_four_of_a_rank_uses_the_cards_on_the_table_but_at_least_one_from_the_hand():
    table_kings = ["KC1", "KD1", "KH1", "KS1"]
    assert short_moves(after_trick([], melded=table_kings), "around") == set()
    s = go(after_trick(["KS2", "KC2"], melded=table_kings), "around King")
    # every King could come from the table: the first suit held in the hand, Clubs, comes from it
    assert public_vars(s)["around_cards"]["P1"] == cs("KC2", "KD1", "KH1", "KS1")
    assert set(cards_in(s, "melded", 0)) == set(cs(*table_kings, "KC2")) and c("KS2") in cards_in(s, "hand", 0)


def test_the_pinochle_is_the_queen_of_spades_with_the_jack_of_diamonds():
    s = after_trick(["QS1", "JD1", "JD2", "QH1"])
    assert short_moves(s, "pinochle") == {"pinochle QS1 JD1", "pinochle QS1 JD2"}
    go(s, "pinochle QS1 JD1")
    assert score(s) == [40, 0]
    used = after_trick(["JD2"], melded=["QS1", "JD1"], pinochle_cards={0: ["QS1", "JD1"]})
    assert short_moves(used, "pinochle") == set()  # a second pinochle needs a new Queen of Spades too


def test_the_flush_scores_one_hundred_and_fifty_and_may_extend_a_royal_marriage():
    s = after_trick(["AH1", "TH1", "JH1"], melded=["KH1", "QH1"], marriage_cards={0: ["KH1", "QH1"]})
    assert short_moves(s, "flush") == {"flush"}
    go(s, "flush")
    assert score(s) == [150, 0] and set(cards_in(s, "melded", 0)) == set(cs("AH1", "TH1", "KH1", "QH1", "JH1"))
    assert public_vars(s)["flush_cards"]["P1"] == cs("AH1", "TH1", "KH1", "QH1", "JH1")
    not_trumps = after_trick(["AS1", "TS1", "KS1", "QS1", "JS1"])
    assert short_moves(not_trumps, "flush") == set()


def test_after_a_flush_its_king_and_queen_cannot_marry():
    flush = ["AH1", "TH1", "KH1", "QH1", "JH1"]
    s = after_trick(["9S1"], melded=flush, flush_cards={0: flush})
    assert short_moves(s, "marriage") == set() and short_moves(s, "flush") == set()


def test_the_dix_is_exchanged_for_the_turned_trump_card():
    s = after_trick(["9H1", "KS1"], turnup=("AH2",))
    assert short_moves(s, "dix") == {"dix 9H1"}
    go(s, "dix 9H1")
    assert score(s) == [10, 0] and cards_in(s, "turnup") == [c("9H1")] and c("AH2") in cards_in(s, "hand", 0)


def test_a_second_dix_is_melded_for_ten():
    s = after_trick(["9H2"], turnup=("9H1",))
    go(s, "dix 9H2")
    assert score(s) == [10, 0] and cards_in(s, "turnup") == [c("9H1")] and cards_in(s, "melded", 0) == [c("9H2")]
    assert short_moves(after_trick(["9S1"]), "dix") == set()  # only a 9 of trumps


def test_melded_cards_may_be_played_to_a_trick():
    s = go(after_trick(["KS1", "QS1"]), "marriage KS1 QS1")
    assert {"lead KS1", "lead QS1"} <= short_moves(s, "lead")
    go(s, "lead KS1")
    assert cards_in(s, "trick") == [c("KS1")] and cards_in(s, "melded", 0) == [c("QS1")]


# ================================================================== the end of the stock

def test_the_last_card_of_the_stock_goes_to_the_winner_and_the_trump_card_to_the_other():
    s = table([["AS1", "KH1"], ["9S1", "QH2"]], stock=["TC1"], turnup=("9D1",), melded=[["QS2"], ["JD2"]],
              rest=("won", 0))
    go(s, "lead AS1", "play 9S1")  # no meld to lay out: not asked
    assert set(cards_in(s, "hand", 0)) == set(cs("KH1", "TC1", "QS2"))  # the melds back in the hand
    assert set(cards_in(s, "hand", 1)) == set(cs("QH2", "9D1", "JD2"))
    assert cards_in(s, "stock") == cards_in(s, "turnup") == [] and cards_in(s, "melded", 0) == []
    assert s.rule == "lead_late" and fired_counts(s)["pick_up"] == 1


# ================================================================== the last twelve tricks

def late(hands, led, trumps="Hearts"):
    s = table(hands, phase="late", trumps=trumps, turnup=(), stock=[], rest=("won", 0))
    return go(s, f"lead {led}")


def test_after_the_stock_the_follower_must_follow_suit_and_beat_the_card_led_if_able():
    s = late([["KS1", "9C1"], ["AS1", "JS1", "TH1", "9D1"]], "KS1")
    assert short_moves(s, "play") == {"play AS1"}
    s = late([["TS1", "9C1"], ["KS1", "JS1", "TH1", "9D1"]], "TS1")
    assert short_moves(s, "play") == {"play KS1", "play JS1"}  # cannot beat it: any spade
    s = late([["AS1", "9C1"], ["AS2", "JS1", "TH1"]], "AS1")
    assert short_moves(s, "play") == {"play AS2", "play JS1"}  # an equal card does not beat it


def test_after_the_stock_a_player_without_the_suit_led_must_trump():
    s = late([["KS1", "9C1"], ["TH1", "9H1", "AD1"]], "KS1")
    assert short_moves(s, "play") == {"play TH1", "play 9H1"}
    s = late([["KS1", "9C1"], ["TC1", "AD1"]], "KS1")
    assert short_moves(s, "play") == {"play TC1", "play AD1"}  # neither: any card


def test_a_trump_led_must_be_beaten_with_a_higher_trump_if_able():
    s = late([["KH1", "9C1"], ["AH1", "QH1", "AS1"]], "KH1")
    assert short_moves(s, "play") == {"play AH1"}


def test_melds_are_not_made_after_the_stock_is_gone():
    s = late([["KS1", "QS1", "9C1"], ["AS1", "JS1", "TH1"]], "9C1")
    go(s, "play TH1")
    assert s.rule == "lead_late" and s.actor == 1


# ================================================================== scoring and the game

def test_the_counters_taken_and_ten_for_the_last_trick_score_at_the_end_of_the_deal():
    s = table([["AS1"], ["TS1"]], phase="late", turnup=(), stock=[], rest=("won", 1), score={0: 100, 1: 200})
    go(s, "lead AS1", "play TS1")
    rest = [x for x in s.program.card_names if x not in cs("AS1", "TS1")]
    dix = 10 if fired_counts(s).get("dix_turned") else 0  # the next deal has begun: P1 deals it
    assert score(s) == [100 + 21 + 10 + dix, 200 + sum(ORIGINAL[x.split("-")[0]] for x in rest)]


@pytest.mark.parametrize("counting,points", [("original", 11 + 3 + 2), ("simplified", 10), ("fives", 10 + 5)])
def test_the_counting_is_an_option(counting, points):
    s = table([["AS1", "KS1"], ["TS1", "QS1"]], phase="late", turnup=(), stock=[], won=[["JS1", "9S1"], []],
              rest=("won", 1), options={"counting": counting})
    go(s, "lead AS1", "play QS1", "lead KS1", "play TS1")
    # P1 took the Ace and the Queen (and had the Jack and the 9); the 10 beat the King, and the last trick.
    # The next deal has begun, dealt by P1, who scores 10 if a 9 is turned
    assert score(s)[0] == points + (10 if fired_counts(s).get("dix_turned") else 0)


def test_the_game_ends_when_a_player_reaches_the_target_and_the_higher_score_wins():
    s = table([["AS1"], ["TS1"]], phase="late", turnup=(), stock=[], rest=("won", 1), score={0: 980, 1: 700})
    go(s, "lead AS1", "play TS1")
    assert s.finished and outcome(s).winners == (0,) and fired_counts(s)["game_over"] == 1
    short = table([["AS1"], ["TS1"]], phase="late", turnup=(), stock=[], rest=("won", 1), score={0: 900, 1: 400},
                  options={"target": 1500})
    go(short, "lead AS1", "play TS1")
    assert not short.finished and public_vars(short)["dealer"] == "P1"  # the deal passes to the other player
    assert short.rule == "lead" and len(cards_in(short, "hand", 0)) == 12 and public_vars(short)["leader"] == "P2"
