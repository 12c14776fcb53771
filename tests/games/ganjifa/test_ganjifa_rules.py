"""Scenario tests for Ganjifa (the modern blend, seed 000) and its variants: one small position
per rule, with the exact set of legal moves and exactly what happens after each move.

Positions are built with `engine.position`: cards not placed stay in the `stock`, which for
Ganjifa means "already played" (a card is `held` only in a hand or an exposed zone). Seats are
0-based (P1 = seat 0) and play runs in seat order. Hands are kept the same size in play
positions, as they are in a real game (every trick takes one card from every player)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, legal_moves, new_game, observe, outcome, position
from interpreter.errors import IllegalMoveError, InvalidMoveError, OptionError
from scenario import at, play

RULESETS = Path(__file__).resolve().parents[3] / "rulesets" / "ganjifa"


# ------------------------------------------------------------------ helpers

@cache
def rules(name: str = "ganjifa"):
    """A ruleset of the Ganjifa folder by file stem, loaded once."""
    return load_ruleset(RULESETS / f"{name}.cards")


def setup(hands, *, leader=0, phase="play", game="ganjifa", exposed=None, won=None, options=None):
    """A position: `hands[seat]` is that seat's hand; every card not placed counts as played."""
    zones = {"hand": dict(enumerate(hands))}
    if exposed:
        zones["exposed"] = exposed
    if won:
        zones["won"] = won
    vars = {"leader": leader} if phase == "play" else {}
    return position(rules(game), len(hands), phase, zones=zones, vars=vars, options=options)


def leader(s) -> int:
    """The `leader` variable as a 0-based seat."""
    return int(observe(s, 0)["vars"]["leader"][1:]) - 1


def hands_of(s) -> list[list[str]]:
    return [cards_in(s, "hand", p) for p in range(s.n_players)]


# ------------------------------------------------------------------ 1. the deal

@pytest.mark.parametrize("players, per_hand", [(3, 40), (4, 30)])
def test_deal_gives_out_the_whole_pack(players, per_hand):
    s = new_game(rules(), players, seed=7)
    opener = leader(s)
    assert cards_in(s, "stock") == []
    # the first decision is the opening; the opener has already laid the leading Raja
    assert cards_in(s, "trick") == ["Raja-Rama"]
    assert s.rule == "opening_cards"
    hands = hands_of(s)
    assert [len(h) + (p == opener) for p, h in enumerate(hands)] == [per_hand] * players
    every = [c for h in hands for c in h] + ["Raja-Rama"]
    assert sorted(every) == sorted(s.program.card_names)


def test_deal_is_determined_by_the_seed():
    a, b, c = (new_game(rules(), 3, seed=seed) for seed in (11, 11, 12))
    assert hands_of(a) == hands_of(b)
    assert hands_of(a) != hands_of(c)
    # the face-up option changes what is seen, not which cards are dealt
    assert hands_of(new_game(rules(), 3, seed=11, options={"face_up_batches": True})) == hands_of(a)


def test_face_down_deal_shows_nothing_of_other_hands():
    s = new_game(rules(), 3, seed=3)
    for viewer in range(3):
        view = observe(s, viewer)["zones"]["hand"]
        for owner in range(3):
            if owner == viewer:
                assert view[f"P{owner + 1}"] == {"cards": cards_in(s, "hand", owner)}
            else:
                assert view[f"P{owner + 1}"] == {"count": len(cards_in(s, "hand", owner)), "known": []}


@pytest.mark.parametrize("players, first, last", [(3, 4, 4), (4, 4, 2)])
@pytest.mark.parametrize("game, options", [("ganjifa", {"face_up_batches": True}), ("face-up-deal", None)])
@pytest.mark.parametrize("seed", [0, 3])
def test_face_up_first_and_last_batch_are_known_to_all(players, first, last, game, options, seed):
    s = new_game(rules(game), players, options=options, seed=seed)
    opener = leader(s)
    for owner in range(players):
        hand = cards_in(s, "hand", owner)  # in the order dealt
        if owner != opener:
            expected = [hand[:first] + hand[-last:]]
        else:  # the opener's Raja has gone to the trick: it may have been one of the face-up cards
            expected = [hand[:first] + hand[-last:], hand[:first - 1] + hand[-last:],
                        hand[:first] + hand[-(last - 1):]]
        for viewer in range(players):
            seen = observe(s, viewer)["zones"]["hand"][f"P{owner + 1}"]
            if viewer == owner:
                assert seen == {"cards": hand}
            else:
                assert seen["count"] == len(hand)
                assert seen["known"] in expected


def test_face_up_deal_variant_can_be_switched_off():
    s = new_game(rules("face-up-deal"), 3, options={"face_up_batches": False}, seed=0)
    assert all(v["known"] == [] for k, v in observe(s, 0)["zones"]["hand"].items() if k != "P1")


# ------------------------------------------------------------------ 2. the leading Raja and the opening

OPENING = [
    ["5-Matsya", "Raja-Kurma", "Mantri-Kurma", "Raja-Varaha"],  # one numeral, then only courts
    ["Raja-Rama", "2-Kurma", "Mantri-Kalki", "3-Rama"],
    ["Raja-Krishna", "Mantri-Buddha", "7-Buddha", "8-Buddha"],
]


def test_by_day_the_holder_of_raja_rama_opens_and_wins_a_double_trick():
    s = setup(OPENING, phase="opening")
    assert cards_in(s, "trick") == ["Raja-Rama"] and leader(s) == 1
    # seat order after the opener: P3 gives two low cards, then P1, then the opener one more
    at(s, 2, "opening_cards", {"give 7-Buddha", "give 8-Buddha"})  # courts are not low
    play(s, "give 7-Buddha")
    at(s, 2, "opening_cards", {"give 8-Buddha"})
    play(s, "give 8-Buddha")
    at(s, 0, "opening_cards", {"give 5-Matsya"})
    play(s, "give 5-Matsya")
    # only courts left in P1's hand: then a court may be given
    at(s, 0, "opening_cards", {"give Raja-Kurma", "give Mantri-Kurma", "give Raja-Varaha"})
    play(s, "give Mantri-Kurma")
    at(s, 1, "opening_cards", {"give 2-Kurma", "give 3-Rama"})  # Mantri-Kalki is a court
    play(s, "give 3-Rama")
    assert cards_in(s, "won", 1) == ["Raja-Rama", "7-Buddha", "8-Buddha", "5-Matsya", "Mantri-Kurma", "3-Rama"]
    assert cards_in(s, "trick") == [] and cards_in(s, "won", 0) == cards_in(s, "won", 2) == []
    assert leader(s) == 1
    assert (s.actor, s.rule) == (1, "unbeatable_leads")  # play begins with the opener's lead


def test_by_night_the_holder_of_raja_krishna_opens():
    s = setup(OPENING, phase="opening", options={"time": "night"})
    assert cards_in(s, "trick") == ["Raja-Krishna"] and leader(s) == 2
    at(s, 0, "opening_cards", {"give 5-Matsya"})
    play(s, "give 5-Matsya", "give Raja-Kurma")
    at(s, 1, "opening_cards", {"give 2-Kurma", "give 3-Rama"})
    play(s, "give 2-Kurma", "give 3-Rama")
    at(s, 2, "opening_cards", {"give 7-Buddha", "give 8-Buddha"})
    play(s, "give 8-Buddha")
    assert len(cards_in(s, "won", 2)) == 6 and leader(s) == 2


def test_single_opening_option_one_card_each():
    s = setup(OPENING, phase="opening", options={"double_opening": False})
    at(s, 2, "opening_cards", {"give 7-Buddha", "give 8-Buddha"})
    play(s, "give 7-Buddha")
    at(s, 0, "opening_cards", {"give 5-Matsya"})
    play(s, "give 5-Matsya")
    # the opener adds nothing: the trick is complete with three cards
    assert cards_in(s, "won", 1) == ["Raja-Rama", "7-Buddha", "5-Matsya"]
    assert (s.actor, s.rule) == (1, "unbeatable_leads")


def test_four_players_open_with_one_card_each():
    hands = [["2-Matsya", "3-Matsya", "Mantri-Kalki"], ["Raja-Rama", "4-Kurma", "5-Kurma"],
             ["6-Buddha", "Raja-Buddha", "7-Buddha"], ["8-Kalki", "9-Kalki", "10-Kalki"]]
    s = setup(hands, phase="opening")
    at(s, 2, "opening_cards", {"give 6-Buddha", "give 7-Buddha"})
    play(s, "give 6-Buddha")
    at(s, 3, "opening_cards", {"give 8-Kalki", "give 9-Kalki", "give 10-Kalki"})
    play(s, "give 9-Kalki")
    at(s, 0, "opening_cards", {"give 2-Matsya", "give 3-Matsya"})
    play(s, "give 3-Matsya")
    assert cards_in(s, "won", 1) == ["Raja-Rama", "6-Buddha", "9-Kalki", "3-Matsya"]
    assert leader(s) == 1 and s.actor == 1
    assert [len(h) for h in hands_of(s)] == [2, 2, 2, 2]


# ------------------------------------------------------------------ 3. leading unbeatable cards

UNBEATABLE = [
    ["Raja-Kalki", "Mantri-Kalki", "9-Kalki", "4-Kurma"],
    ["10-Kalki", "2-Rama", "3-Rama", "4-Rama"],
    ["5-Kurma", "2-Buddha", "3-Buddha", "4-Buddha"],
]


def test_must_leads_come_first_and_each_trick_goes_to_the_leader():
    s = setup(UNBEATABLE)
    # Raja-Kalki must be led; Mantri-Kalki is the lowest unbeatable Kalki (the 10 beats the 9)
    at(s, 0, "unbeatable_leads", {"lead Raja-Kalki"})
    play(s, "lead Raja-Kalki")
    at(s, 1, "unbeatable_leads", {"play 10-Kalki", "play 2-Rama", "play 3-Rama", "play 4-Rama"})
    play(s, "play 2-Rama")
    at(s, 2, "unbeatable_leads", {"play 5-Kurma", "play 2-Buddha", "play 3-Buddha", "play 4-Buddha"})
    play(s, "play 2-Buddha")
    assert cards_in(s, "won", 0) == ["Raja-Kalki", "2-Rama", "2-Buddha"] and leader(s) == 0
    # only optional lowest unbeatable leads remain: they come with `stop`
    at(s, 0, "unbeatable_leads", {"lead Mantri-Kalki", "stop"})
    play(s, "lead Mantri-Kalki", "play 3-Rama", "play 3-Buddha")
    assert len(cards_in(s, "won", 0)) == 6
    # nothing unbeatable is left (10-Kalki and 5-Kurma are out), and 9-Kalki has no lower
    # Kalki for a Deni; the leader began the turn with unbeatable cards, so the lead passes
    # to P2 without a sacrifice
    assert leader(s) == 1
    at(s, 1, "unbeatable_leads", {"lead 10-Kalki", "lead 4-Rama", "stop"})  # both are the lowest unbeatable of their suits


def test_with_sacrifice_after_leading_a_leader_left_without_unbeatable_cards_sacrifices():
    s = setup(UNBEATABLE, options={"sacrifice_after_leading": True})
    play(s, "lead Raja-Kalki", "play 2-Rama", "play 2-Buddha", "lead Mantri-Kalki", "play 3-Rama", "play 3-Buddha")
    at(s, 0, "sacrifice", {"sacrifice 9-Kalki", "sacrifice 4-Kurma"})
    assert leader(s) == 0


def test_a_card_made_unbeatable_by_a_discard_must_be_led_too():
    s = setup(UNBEATABLE)
    play(s, "lead Raja-Kalki", "play 10-Kalki", "play 2-Buddha")
    # with the 10 gone the 9 is unbeatable, so the Mantri is no longer the lowest: compulsory
    at(s, 0, "unbeatable_leads", {"lead Mantri-Kalki"})
    play(s, "lead Mantri-Kalki", "play 2-Rama", "play 3-Buddha")
    at(s, 0, "unbeatable_leads", {"lead 9-Kalki", "stop"})
    play(s, "stop")
    # no Deni is possible, so the remaining unbeatable card is led before the lead passes on
    at(s, 0, "pass_lead", {"lead 9-Kalki"})
    play(s, "lead 9-Kalki", "play 3-Rama", "play 4-Buddha")
    assert len(cards_in(s, "won", 0)) == 9
    assert leader(s) == 1
    # P2 holds 4-Rama, the only Rama left: unbeatable and lowest
    at(s, 1, "unbeatable_leads", {"lead 4-Rama", "stop"})


def test_stop_is_illegal_while_a_must_lead_remains():
    s = setup(UNBEATABLE)
    with pytest.raises(IllegalMoveError, match="unbeatable_leads"):
        apply(s, "stop")
    with pytest.raises(IllegalMoveError, match="unbeatable_leads"):
        apply(s, "lead Mantri-Kalki")  # the optional lead waits for the compulsory ones
    at(s, 0, "unbeatable_leads", {"lead Raja-Kalki"})  # nothing changed


# ------------------------------------------------------------------ 4. no optional low leads

def test_no_optional_low_leads_variant_never_offers_the_lowest():
    s = setup(UNBEATABLE, game="no-optional-low-leads")
    at(s, 0, "unbeatable_leads", {"lead Raja-Kalki"})
    play(s, "lead Raja-Kalki", "play 2-Rama", "play 2-Buddha")
    # the base game would now offer {lead Mantri-Kalki, stop}; here the leading step is over
    # and (no Deni being possible) the lead is given up after leading the rest
    at(s, 0, "pass_lead", {"lead Mantri-Kalki"})
    play(s, "lead Mantri-Kalki", "play 3-Rama", "play 3-Buddha")
    assert leader(s) == 1 and len(cards_in(s, "won", 0)) == 6


def test_no_optional_low_leads_option_matches_the_variant():
    s = setup(UNBEATABLE, options={"optional_low_leads": False})
    play(s, "lead Raja-Kalki", "play 2-Rama", "play 2-Buddha")
    at(s, 0, "pass_lead", {"lead Mantri-Kalki"})


def test_no_optional_low_leads_skips_the_leading_step_with_only_lowest_cards():
    hands = [["Mantri-Rama", "9-Rama", "3-Rama", "2-Kurma"], ["10-Rama", "3-Kurma", "5-Buddha", "6-Buddha"],
             ["2-Kalki", "3-Kalki", "4-Kalki", "5-Kalki"]]
    base = setup(hands)
    at(base, 0, "unbeatable_leads", {"lead Mantri-Rama", "stop"})
    s = setup(hands, game="no-optional-low-leads")
    at(s, 0, "deni", {"give_deni 9-Rama", "decline"})


# ------------------------------------------------------------------ 5-6. giving a Deni

# The source's own example: the Raja of Rama is played; P1 holds the Mantri and the 9 but
# not the 10 (P2 has it). 2-Kurma can only be beaten by 3-Kurma but has no lower Kurma.
DENI = [
    ["Mantri-Rama", "9-Rama", "3-Rama", "2-Kurma"],
    ["10-Rama", "3-Kurma", "5-Buddha", "6-Buddha"],
    ["2-Kalki", "3-Kalki", "4-Kalki", "5-Kalki"],
]


def test_modern_deni_eligibility_source_example():
    s = setup(DENI)
    at(s, 0, "unbeatable_leads", {"lead Mantri-Rama", "stop"})
    play(s, "stop")
    at(s, 0, "deni", {"give_deni 9-Rama", "decline"})


def test_traditional_deni_eligibility_source_example():
    s = setup(DENI, game="traditional-deni")
    at(s, 0, "unbeatable_leads", {"lead Mantri-Rama", "stop"})
    t = play(s.clone(), "stop")
    # the 9 is not the second-highest unplayed Rama while the Mantri is out: no Deni
    at(t, 0, "pass_lead", {"lead Mantri-Rama"})
    with pytest.raises(IllegalMoveError, match="'give_deni' is not possible now; in rule 'pass_lead'"):
        apply(t, "give_deni 9-Rama")
    # once the Mantri has been led, the 9 qualifies under the traditional rule too
    play(s, "lead Mantri-Rama", "play 5-Buddha", "play 2-Kalki")
    at(s, 0, "deni", {"give_deni 9-Rama", "decline"})


def test_deni_full_sequence():
    s = play(setup(DENI), "stop", "give_deni 9-Rama")
    at(s, 0, "deni", {"lead 3-Rama"})  # the lower card of the suit
    play(s, "lead 3-Rama")
    # the Deni card lies face up; P2 has played the called 10 automatically
    assert cards_in(s, "exposed", 0) == ["9-Rama"]
    assert cards_in(s, "hand", 0) == ["Mantri-Rama", "2-Kurma"]
    assert cards_in(s, "trick") == ["3-Rama", "10-Rama"]
    for viewer in range(3):
        assert observe(s, viewer)["zones"]["exposed"]["P1"] == {"cards": ["9-Rama"]}
    at(s, 2, "deni", {"play 2-Kalki", "play 3-Kalki", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 3-Kalki")
    assert cards_in(s, "won", 1) == ["3-Rama", "10-Rama", "3-Kalki"]
    assert leader(s) == 1
    # P2 now leads: 6-Buddha is compulsory (5-Buddha and 3-Kurma are lowest unbeatables)
    at(s, 1, "unbeatable_leads", {"lead 6-Buddha"})
    assert cards_in(s, "exposed", 0) == ["9-Rama"]  # stays out until it is played


def test_deni_called_card_held_by_the_last_seat():
    hands = [DENI[0], DENI[2], DENI[1]]  # the 10 is now with P3: P2 answers first
    s = play(setup(hands), "stop", "give_deni 9-Rama", "lead 3-Rama")
    assert cards_in(s, "trick") == ["3-Rama"]
    at(s, 1, "deni", {"play 2-Kalki", "play 3-Kalki", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 5-Kalki")
    assert cards_in(s, "won", 2) == ["3-Rama", "5-Kalki", "10-Rama"]
    assert leader(s) == 2 and s.actor == 2


def test_the_exposed_deni_card_may_be_discarded():
    s = play(setup(DENI), "stop", "give_deni 9-Rama", "lead 3-Rama", "play 3-Kalki")
    play(s, "lead 6-Buddha")
    at(s, 2, "unbeatable_leads", {"play 2-Kalki", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 2-Kalki")
    at(s, 0, "unbeatable_leads", {"play Mantri-Rama", "play 2-Kurma", "play 9-Rama"})
    play(s, "play 9-Rama")
    assert cards_in(s, "exposed", 0) == []
    assert cards_in(s, "won", 1)[-3:] == ["6-Buddha", "2-Kalki", "9-Rama"]


def test_declining_a_deni_then_leading_out_and_passing_the_lead():
    s = play(setup(DENI), "stop", "decline")
    at(s, 0, "pass_lead", {"lead Mantri-Rama"})
    play(s, "lead Mantri-Rama", "play 5-Buddha", "play 2-Kalki")
    assert cards_in(s, "exposed", 0) == [] and len(cards_in(s, "won", 0)) == 3
    assert leader(s) == 1
    # P2 leads: 10-Rama (Mantri and Raja gone) and 6-Buddha, 3-Kurma are each the lowest
    at(s, 1, "unbeatable_leads", {"lead 10-Rama", "lead 6-Buddha", "lead 3-Kurma", "stop"})


def test_deni_cannot_be_declined_when_the_option_forbids_it():
    s = play(setup(DENI, options={"deni_may_be_declined": False}), "stop")
    at(s, 0, "deni", {"give_deni 9-Rama"})
    with pytest.raises(IllegalMoveError, match="deni_may_be_declined"):
        apply(s, "decline")


# ------------------------------------------------------------------ 7. doubling the Deni

# Rama's Raja and Mantri are played. P1 gives a Deni with the 9 (only P2's 10 beats it);
# P2 also holds the 8, one rank below the Deni card.
DOUBLE = [
    ["9-Rama", "3-Rama", "4-Rama", "5-Kurma"],
    ["10-Rama", "8-Rama", "2-Buddha", "3-Buddha"],
    ["6-Kurma", "3-Kalki", "4-Kalki", "5-Kalki"],
]


def test_doubling_the_deni():
    s = setup(DOUBLE)
    # nothing unbeatable; 5-Kurma only fears 6-Kurma but has no lower Kurma; 4-Rama fears two
    at(s, 0, "deni", {"give_deni 9-Rama", "decline"})
    play(s, "give_deni 9-Rama")
    at(s, 0, "deni", {"lead 3-Rama", "lead 4-Rama"})
    play(s, "lead 3-Rama")
    assert cards_in(s, "trick") == ["3-Rama", "10-Rama"]
    at(s, 1, "double_deni", {"double", "single"})
    play(s, "double")
    assert cards_in(s, "trick") == ["3-Rama", "10-Rama", "8-Rama"]
    at(s, 2, "deni", {"play 6-Kurma", "play 3-Kalki", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 3-Kalki")
    # the giver's extra card must be a Rama: the one in hand or the exposed Deni card
    at(s, 0, "deni", {"add 4-Rama", "add 9-Rama"})
    with pytest.raises(IllegalMoveError, match="rule 'deni'.*c.suit == h.suit"):
        apply(s, "add 5-Kurma")
    play(s, "add 9-Rama")
    # and P3 plays an extra card of any suit
    at(s, 2, "deni", {"play 6-Kurma", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 4-Kalki")
    assert cards_in(s, "won", 1) == ["3-Rama", "10-Rama", "8-Rama", "3-Kalki", "9-Rama", "4-Kalki"]
    assert cards_in(s, "exposed", 0) == [] and cards_in(s, "trick") == []
    assert hands_of(s) == [["4-Rama", "5-Kurma"], ["2-Buddha", "3-Buddha"], ["6-Kurma", "5-Kalki"]]
    assert leader(s) == 1
    at(s, 1, "unbeatable_leads", {"lead 3-Buddha"})


def test_doubled_deni_forces_out_the_exposed_card():
    hands = [["9-Rama", "3-Rama", "2-Kalki", "5-Kurma"], DOUBLE[1], DOUBLE[2]]
    s = play(setup(hands), "give_deni 9-Rama")
    at(s, 0, "deni", {"lead 3-Rama"})
    play(s, "lead 3-Rama", "double", "play 6-Kurma")
    at(s, 0, "deni", {"add 9-Rama"})  # the only Rama left is the face-up Deni card
    play(s, "add 9-Rama", "play 3-Kalki")
    assert len(cards_in(s, "won", 1)) == 6 and leader(s) == 1


def test_single_deni_keeps_the_lower_card():
    s = play(setup(DOUBLE), "give_deni 9-Rama", "lead 4-Rama", "single")
    assert cards_in(s, "trick") == ["4-Rama", "10-Rama"]
    at(s, 2, "deni", {"play 6-Kurma", "play 3-Kalki", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 5-Kalki")
    assert cards_in(s, "won", 1) == ["4-Rama", "10-Rama", "5-Kalki"]
    assert cards_in(s, "hand", 1) == ["8-Rama", "2-Buddha", "3-Buddha"]
    assert cards_in(s, "exposed", 0) == ["9-Rama"]
    assert leader(s) == 1


def test_no_doubling_when_another_player_holds_the_card_below():
    hands = [DOUBLE[0], ["10-Rama", "7-Rama", "2-Buddha", "3-Buddha"], ["8-Rama", "6-Kurma", "4-Kalki", "5-Kalki"]]
    s = play(setup(hands), "give_deni 9-Rama", "lead 3-Rama")
    # P2 lacks the 8, so no doubling decision: P3 simply answers
    at(s, 2, "deni", {"play 8-Rama", "play 6-Kurma", "play 4-Kalki", "play 5-Kalki"})
    play(s, "play 8-Rama")
    assert cards_in(s, "won", 1) == ["3-Rama", "10-Rama", "8-Rama"] and leader(s) == 1


def test_doubled_deni_with_four_players():
    hands = [["9-Rama", "3-Rama", "5-Kurma"], ["2-Kalki", "3-Kalki", "4-Kalki"],
             ["10-Rama", "8-Rama", "2-Buddha"], ["6-Kurma", "4-Buddha", "5-Buddha"]]
    s = play(setup(hands), "give_deni 9-Rama", "lead 3-Rama")
    at(s, 1, "deni", {"play 2-Kalki", "play 3-Kalki", "play 4-Kalki"})
    play(s, "play 2-Kalki")
    at(s, 2, "double_deni", {"double", "single"})
    play(s, "double")
    at(s, 3, "deni", {"play 6-Kurma", "play 4-Buddha", "play 5-Buddha"})
    play(s, "play 4-Buddha")
    at(s, 0, "deni", {"add 9-Rama"})
    play(s, "add 9-Rama")
    at(s, 1, "deni", {"play 3-Kalki", "play 4-Kalki"})
    play(s, "play 3-Kalki")
    at(s, 3, "deni", {"play 6-Kurma", "play 5-Buddha"})  # the caller plays no extra card
    play(s, "play 5-Buddha")
    assert cards_in(s, "won", 2) == ["3-Rama", "2-Kalki", "10-Rama", "8-Rama", "4-Buddha", "9-Rama",
                                     "3-Kalki", "5-Buddha"]
    assert leader(s) == 2 and [len(h) for h in hands_of(s)] == [1, 1, 1, 1]


# ------------------------------------------------------------------ 8. passing the lead

# Matsya's and Kalki's courts above P1's cards are played: 10-Matsya and Mantri-Kalki are each
# the lowest unbeatable card of their suit; 2-Kurma is beaten by 3-Kurma and 4-Kurma.
PASS = [
    ["10-Matsya", "Mantri-Kalki", "2-Kurma"],
    ["3-Kurma", "9-Matsya", "2-Rama"],
    ["4-Kurma", "2-Buddha", "3-Buddha"],
]


def test_passing_the_lead_after_leading_every_unbeatable_card():
    s = setup(PASS)
    at(s, 0, "unbeatable_leads", {"lead 10-Matsya", "lead Mantri-Kalki", "stop"})
    play(s, "stop")
    at(s, 0, "pass_lead", {"lead 10-Matsya", "lead Mantri-Kalki"})
    play(s, "lead Mantri-Kalki", "play 2-Rama", "play 2-Buddha")
    at(s, 0, "pass_lead", {"lead 10-Matsya"})
    play(s, "lead 10-Matsya", "play 9-Matsya", "play 3-Buddha")
    assert cards_in(s, "won", 0) == ["Mantri-Kalki", "2-Rama", "2-Buddha", "10-Matsya", "9-Matsya", "3-Buddha"]
    # the lead passes to the next seat, P2, who has no unbeatable card (4-Kurma is out)
    assert leader(s) == 1
    at(s, 1, "sacrifice", {"sacrifice 3-Kurma"})
    play(s, "sacrifice 3-Kurma")
    # P3 holds the top Kurma and plays it unasked; P1 answers with the last card
    assert cards_in(s, "trick") == ["3-Kurma", "4-Kurma"]
    at(s, 0, "sacrifice", {"play 2-Kurma"})
    play(s, "play 2-Kurma")
    assert s.finished
    assert outcome(s).scores == (6, 0, 3) and outcome(s).winners == (0,)


def test_leading_every_lowest_card_by_choice_passes_the_lead_without_a_sacrifice():
    """The designer's reading: "no unbeatable cards" is judged at the start of the turn."""
    s = setup(PASS)
    play(s, "lead 10-Matsya", "play 9-Matsya", "play 2-Buddha")
    at(s, 0, "unbeatable_leads", {"lead Mantri-Kalki", "stop"})
    play(s, "lead Mantri-Kalki", "play 2-Rama", "play 3-Buddha")
    # no Deni is possible (2-Kurma has nothing lower): the lead passes to P2, who must sacrifice
    assert leader(s) == 1 and cards_in(s, "trick") == []
    at(s, 1, "sacrifice", {"sacrifice 3-Kurma"})


def test_with_sacrifice_after_leading_every_lowest_card_by_choice_forces_a_sacrifice():
    """The option keeps the other reading: "no unbeatable cards" judged after the leads."""
    s = setup(PASS, options={"sacrifice_after_leading": True})
    play(s, "lead 10-Matsya", "play 9-Matsya", "play 2-Buddha")
    play(s, "lead Mantri-Kalki", "play 2-Rama", "play 3-Buddha")
    at(s, 0, "sacrifice", {"sacrifice 2-Kurma"})
    assert leader(s) == 0


def test_a_leader_who_began_without_unbeatable_cards_sacrifices_under_either_reading():
    for options in (None, {"sacrifice_after_leading": True}):
        s = setup([["2-Kurma", "5-Matsya"], ["4-Kurma", "3-Matsya"], ["3-Kurma", "9-Matsya"]], options=options)
        at(s, 0, "sacrifice", {"sacrifice 2-Kurma", "sacrifice 5-Matsya"})


# ------------------------------------------------------------------ 9. forced sacrifice

SACRIFICE = [
    ["5-Matsya", "3-Matsya", "7-Kurma", "2-Buddha"],
    ["9-Matsya", "8-Kurma", "4-Buddha", "2-Rama"],
    ["10-Matsya", "9-Kurma", "5-Buddha", "3-Rama"],
]


def test_forced_sacrifice_offers_the_highest_card_of_each_suit():
    s = setup(SACRIFICE)
    at(s, 0, "sacrifice", {"sacrifice 5-Matsya", "sacrifice 7-Kurma", "sacrifice 2-Buddha"})
    with pytest.raises(IllegalMoveError, match="sacrifice"):
        apply(s, "sacrifice 3-Matsya")
    play(s, "sacrifice 5-Matsya")
    at(s, 1, "sacrifice", {"play 9-Matsya", "play 8-Kurma", "play 4-Buddha", "play 2-Rama"})
    play(s, "play 2-Rama")
    # P3 holds the highest unplayed Matsya and plays it without being asked
    assert cards_in(s, "won", 2) == ["5-Matsya", "2-Rama", "10-Matsya"]
    assert leader(s) == 2
    at(s, 2, "unbeatable_leads", {"lead 9-Kurma", "lead 5-Buddha", "lead 3-Rama", "stop"})


def test_forced_sacrifice_top_card_in_the_next_seat():
    hands = [SACRIFICE[0], ["9-Matsya", "9-Kurma", "4-Buddha", "2-Rama"],
             ["10-Matsya", "8-Kurma", "5-Buddha", "3-Rama"]]
    s = play(setup(hands), "sacrifice 7-Kurma")
    assert cards_in(s, "trick") == ["7-Kurma", "9-Kurma"]
    at(s, 2, "sacrifice", {"play 10-Matsya", "play 8-Kurma", "play 5-Buddha", "play 3-Rama"})
    play(s, "play 8-Kurma")
    assert cards_in(s, "won", 1) == ["7-Kurma", "9-Kurma", "8-Kurma"] and leader(s) == 1


# ------------------------------------------------------------------ 10. inverted ranking

INVERTED = [["1-Matsya", "2-Rama"], ["5-Matsya", "6-Rama"], ["7-Matsya", "8-Rama"]]


def test_inverted_ranking_the_one_tops_matsya():
    # (with the sacrifice judged after the leads, so that P1 shows what is unbeatable next)
    s = setup(INVERTED, game="inverted-ranking", options={"sacrifice_after_leading": True})
    # Matsya's Mantri and Raja are played, and the 1 is the highest numeral: unbeatable
    at(s, 0, "unbeatable_leads", {"lead 1-Matsya", "stop"})
    play(s, "lead 1-Matsya", "play 5-Matsya", "play 7-Matsya")
    assert cards_in(s, "won", 0) == ["1-Matsya", "5-Matsya", "7-Matsya"] and leader(s) == 0
    at(s, 0, "sacrifice", {"sacrifice 2-Rama"})  # Rama keeps the uniform ranking


def test_base_ranking_the_one_is_lowest():
    s = setup(INVERTED)
    at(s, 0, "sacrifice", {"sacrifice 1-Matsya", "sacrifice 2-Rama"})
    play(s, "sacrifice 1-Matsya", "play 6-Rama")
    assert cards_in(s, "won", 2) == ["1-Matsya", "6-Rama", "7-Matsya"] and leader(s) == 2


def test_inverted_ranking_sacrifice_and_trick_winner():
    hands = [["10-Matsya", "6-Matsya"], ["4-Matsya", "2-Rama"], ["1-Matsya", "3-Rama"]]
    s = setup(hands, game="inverted-ranking")
    at(s, 0, "sacrifice", {"sacrifice 6-Matsya"})  # the 6 outranks the 10 here
    play(s, "sacrifice 6-Matsya")
    at(s, 1, "sacrifice", {"play 4-Matsya", "play 2-Rama"})
    play(s, "play 4-Matsya")
    assert cards_in(s, "won", 2) == ["6-Matsya", "4-Matsya", "1-Matsya"] and leader(s) == 2
    # under the uniform ranking the 10 and the 6 are both unbeatable (7 to 9 are out)
    base = setup(hands)
    at(base, 0, "unbeatable_leads", {"lead 10-Matsya"})


# ------------------------------------------------------------------ 11. the Mughal pack

def test_mughal_is_for_three_players_only():
    with pytest.raises(OptionError):
        new_game(rules("mughal-3p"), 4)
    with pytest.raises(OptionError):
        new_game(rules("mughal-3p"), 2)


@pytest.mark.parametrize("time, raja", [("day", "Raja-Surya"), ("night", "Raja-Chandra")])
def test_mughal_deal_and_leading_raja(time, raja):
    s = new_game(rules("mughal-3p"), 3, options={"time": time}, seed=5)
    assert len(s.program.card_names) == 96
    opener = leader(s)
    assert cards_in(s, "trick") == [raja]
    assert [len(h) + (p == opener) for p, h in enumerate(hands_of(s))] == [32, 32, 32]
    assert cards_in(s, "stock") == []
    assert (s.rule, s.actor) == ("opening_cards", (opener + 1) % 3)


def test_mughal_position_raja_surya_opens_by_day():
    hands = [["Raja-Chandra", "2-Barat", "3-Barat"], ["Raja-Surya", "4-Phul", "5-Phul"],
             ["6-Cheng", "7-Cheng", "8-Cheng"]]
    s = setup(hands, phase="opening", game="mughal-3p")
    assert cards_in(s, "trick") == ["Raja-Surya"] and leader(s) == 1
    at(s, 2, "opening_cards", {"give 6-Cheng", "give 7-Cheng", "give 8-Cheng"})


# ------------------------------------------------------------------ 12. the winner

@pytest.mark.parametrize("game, players", [("ganjifa", 3), ("ganjifa", 4), ("mughal-3p", 3),
                                           ("inverted-ranking", 3), ("traditional-deni", 4)])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_ends_with_every_card_won(game, players, seed):
    s = new_game(rules(game), players, seed=seed)
    rng = random.Random(seed)
    while not s.finished:
        moves = legal_moves(s)
        assert moves, "the game is stuck"
        apply(s, rng.choice(moves))
    won = [len(cards_in(s, "won", p)) for p in range(players)]
    assert sum(won) == len(s.program.card_names)
    assert all(h == [] for h in hands_of(s)) and cards_in(s, "trick") == []
    o = outcome(s)
    assert o.scores == tuple(won)
    assert o.winners == tuple(p for p in range(players) if won[p] == max(won))
    assert legal_moves(s) == []
    with pytest.raises(IllegalMoveError):
        apply(s, "stop")


def test_tie_for_most_cards_gives_several_winners():
    won = {0: ["1-Rama", "2-Rama", "3-Rama", "4-Rama", "5-Rama"],
           1: ["1-Kurma", "2-Kurma", "3-Kurma", "4-Kurma", "5-Kurma"],
           2: ["1-Kalki", "2-Kalki", "3-Kalki"]}
    s = setup([[], [], []], won=won)
    assert s.finished
    o = outcome(s)
    assert o.winners == (0, 1) and o.scores == (5, 5, 3)


def test_last_trick_decides_a_tie():
    hands = [["Raja-Rama"], ["2-Kurma"], ["3-Kurma"]]
    won = {0: ["1-Rama", "2-Rama"], 1: ["1-Kurma", "4-Kurma", "5-Kurma", "6-Kurma", "7-Kurma"],
           2: ["1-Kalki", "2-Kalki", "3-Kalki", "4-Kalki", "5-Kalki"]}
    s = setup(hands, won=won)
    at(s, 0, "unbeatable_leads", {"lead Raja-Rama", "stop"})
    play(s, "lead Raja-Rama", "play 2-Kurma", "play 3-Kurma")
    assert s.finished
    assert outcome(s).scores == (5, 5, 5) and outcome(s).winners == (0, 1, 2)


# ------------------------------------------------------------------ 13. illegal and malformed moves

def test_illegal_moves_name_the_rule():
    s = setup(UNBEATABLE)
    with pytest.raises(IllegalMoveError, match="rule 'unbeatable_leads'"):
        apply(s, "stop")
    with pytest.raises(IllegalMoveError, match="rule 'unbeatable_leads'"):
        apply(s, "lead 5-Kurma")  # P3's card
    play(s, "lead Raja-Kalki")
    with pytest.raises(IllegalMoveError, match="rule 'unbeatable_leads'.*holding"):
        apply(s, "play 5-Kurma")  # not in P2's hand
    at(s, 1, "unbeatable_leads", {"play 10-Kalki", "play 2-Rama", "play 3-Rama", "play 4-Rama"})


def test_malformed_moves_are_invalid():
    s = setup(UNBEATABLE)
    with pytest.raises(InvalidMoveError, match="Joker-Rama"):
        apply(s, "lead Joker-Rama")
    with pytest.raises(InvalidMoveError):
        apply(s, "lead")  # a lead needs a card
    with pytest.raises(InvalidMoveError):
        apply(s, "stop now please")
    with pytest.raises(IllegalMoveError, match="'sacrifice' is not possible now"):
        apply(s, "sacrifice 2-Rama")  # an action of the game, but not of this decision
    with pytest.raises(InvalidMoveError, match="not an action of this game"):
        apply(s, "fold")
    at(s, 0, "unbeatable_leads", {"lead Raja-Kalki"})


def test_the_game_ends_when_the_leader_has_no_cards():
    """A position that cannot arise in play (the leader has no cards, the others have) ends
    the game at once instead of spinning: the printed interpretation 'end'."""
    s = setup([[], ["2-Rama"], ["3-Rama"]])
    assert s.finished and outcome(s) is not None
