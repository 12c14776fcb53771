"""President (rulesets/classic/president.cards) against pagat.com's rules: one small position per
rule, with the exact set of legal moves and exactly what happens after a move; then random games
under every option, the same on both engines.

Cards are written short: '5C' is the 5 of Clubs, 'TH' the 10 of Hearts, '2S' the Two of Spades.
Seats are 0-based (P1 is 0). Unless a test says otherwise there are four players and every card
not named lies among the cards of earlier tricks."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from bundled_games import loader

from openspiel_cards import c
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "president.cards"
RANK = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


rules = loader(RULESET)


def cs(*shorts: str) -> list[str]:
    return [c(x) for x in shorts]


def short(card: str) -> str:
    rank, suit = card.split("-")
    return {v: k for k, v in RANK.items()}.get(rank, rank) + suit[0]


def moves(s) -> set[str]:
    """The legal moves, their cards in short names ('follow 7C 7H', 'pass')."""
    return {" ".join([str(m).split()[0]] + [short(w) for w in str(m).split()[1:]]) for m in legal_moves(s)}


def go(s, *plays: str):
    """Plays moves given with short card names: 'lead 5C 5D', 'pass'; each by the player to move."""
    for p in plays:
        word, *args = p.split()
        apply(s, " ".join([word] + cs(*args)))
    return s


def hands_of(s, players=4) -> list[list[str]]:
    return [sorted(short(x) for x in cards_in(s, "hand", p)) for p in range(players)]


def table(hands, *, turn=0, top=None, last=None, pile=(), passed=(), out=None, players=4, options=None, **vars):
    """A trick in play: `hands[seat]` in short names; `top` the last play's cards (on the pile,
    played by `last`), `passed` the seats that passed since; `out` {seat: place} the players
    gone out of the deal."""
    zones = {"hand": {p: cs(*h) for p, h in enumerate(hands)}, "pile": cs(*pile, *(top or ()))}
    v = {"turn": turn, "deal_number": 1, "passed": {p: True for p in passed}}
    if top:
        v.update(top_rank=c(top[0]).split("-")[0], top_count=len(top), last_player=last)
    if out:
        v.update(place=dict(out))
    v.update(vars)
    return position(rules(), players, "play", zones=zones, vars=v, options=options, rest="played",
                    out_of_play={p: "round" for p in (out or {})})


# ================================================================== the pack and the deal

def test_the_pack_has_fifty_two_cards_and_the_two_ranks_highest():
    s = new_game(rules(), 4, seed=0)
    assert len(s.program.card_names) == 52
    after_ace = table([["3C"], ["2D", "KH", "3D"], ["4C"], ["5C"]], turn=1, top=["AS"], last=0)
    assert moves(after_ace) == {"follow 2D", "pass"}


def test_the_whole_pack_is_dealt_one_card_at_a_time_from_the_player_after_the_dealer():
    pack = list(new_game(rules(), 5, seed=0).program.card_names)  # bottom first
    s = position(rules(), 5, "deal", zones={"stock": pack}, vars={"dealer": 1}, shuffle=False)
    top = pack[::-1]
    for seat in range(5):
        k = (seat - 2) % 5  # seat 2 is dealt first, the dealer (seat 1) last
        assert set(cards_in(s, "hand", seat)) == set(top[k::5])
    assert [len(cards_in(s, "hand", p)) for p in range(5)] == [10, 10, 11, 11, 10] and cards_in(s, "stock") == []
    # the first deal has no exchange: the player after the dealer leads
    assert s.rule == "turn" and s.actor == 2 and moves(s) == {"lead " + " ".join(x) for x in _sets(hands_of(s, 5)[2])}


def _sets(hand):
    """Every lead from a hand: one card, or two to four of one rank (short names in deck order)."""
    key = {**{str(n): n for n in range(3, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14, "2": 15}
    by_rank = {}
    for x in sorted(hand, key=lambda x: (key[x[0]], "CDHS".index(x[1]))):
        by_rank.setdefault(x[0], []).append(x)
    return [g for same in by_rank.values() for n in range(1, len(same) + 1) for g in combinations(same, n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_first_deal_has_no_exchange(seed):
    s = new_game(rules(), 4, seed=seed)
    dealer = int(public_vars(s)["dealer"][1]) - 1
    assert s.rule == "turn" and s.actor == (dealer + 1) % 4 and sorted(len(h) for h in hands_of(s)) == [13] * 4
    assert fired_counts(s)["scum_gives"] == fired_counts(s)["president_gives"] == 0


def test_later_deals_are_dealt_by_the_scum_and_the_exchange_comes_first():
    pack = list(new_game(rules(), 4, seed=0).program.card_names)
    places = {0: 3, 1: 1, 2: 4, 3: 2}  # P2 the President, P4 Vice-President, P1 Vice-Scum, P3 the Scum
    s = position(rules(), 4, "deal", zones={"stock": pack}, vars={"dealer": 0, "deal_number": 1, "place": places},
                 shuffle=False)
    top = pack[::-1]
    assert public_vars(s)["dealer"] == "P3" and set(cards_in(s, "hand", 3)) == set(top[0::4])  # P4 is dealt first
    assert s.rule == "president_gives" and s.actor == 1 and [len(cards_in(s, "hand", p)) for p in range(4)] == [13, 15, 11, 13]


# ================================================================== the exchange

def exchange(hands, places=(1, 2, 3, 4), options=None):
    return position(rules(), 4, "exchange", zones={"hand": {p: cs(*h) for p, h in enumerate(hands)}},
                    vars={"deal_number": 2, "place": dict(enumerate(places)), "turn": places.index(1)},
                    options=options, rest="played")


def test_the_scum_gives_their_two_best_cards_and_the_president_gives_back_any_two():
    s = exchange([["3C", "4C"], ["5C", "6C"], ["7C", "8C"], ["2S", "9C", "2H", "AC"]])
    assert hands_of(s) == [sorted(["3C", "4C", "2H", "2S"]), ["5C", "6C"], ["7C", "8C"], ["9C", "AC"]]
    assert s.actor == 0 and moves(s) == {"give_two " + " ".join(sorted(p, key=_deck)) for p in combinations(["3C", "4C", "2H", "2S"], 2)}
    go(s, "give_two 3C 2S")
    assert hands_of(s)[0] == ["2H", "4C"] and hands_of(s)[3] == sorted(["3C", "2S", "9C", "AC"])


def _deck(x: str) -> int:
    return "CDHS".index(x[1]) * 13 + "3456789TJQKA2".index(x[0])


def test_of_equal_best_cards_the_scum_gives_the_first_in_the_pack():
    s = exchange([["3C"], ["5C"], ["7C"], ["2S", "2D", "2H", "AC"]])
    assert hands_of(s)[0] == ["2D", "2H", "3C"]


def test_then_the_vice_scum_gives_their_best_card_and_the_vice_president_gives_back_any_one():
    s = exchange([["3C", "4C"], ["5C", "6C"], ["7C", "KD", "8C"], ["2S", "9C", "2H"]], places=(1, 2, 3, 4))
    go(s, "give_two 3C 4C")
    assert hands_of(s)[1] == ["5C", "6C", "KD"] and hands_of(s)[2] == ["7C", "8C"]
    assert s.actor == 1 and moves(s) == {"give_one 5C", "give_one 6C", "give_one KD"}
    go(s, "give_one 5C")
    assert hands_of(s)[2] == ["5C", "7C", "8C"]
    # the exchange is over: the President leads, and nobody has a place in the new deal yet
    assert s.rule == "turn" and s.actor == 0 and set(public_vars(s)["place"].values()) == {0}


def test_without_the_vice_exchange_only_the_president_and_the_scum_swap():
    s = exchange([["3C", "4C"], ["5C", "6C"], ["7C", "KD"], ["2S", "9C", "2H"]], options={"vice_exchange": False})
    go(s, "give_two 3C 4C")
    assert s.rule == "turn" and s.actor == 0 and hands_of(s)[1:3] == [["5C", "6C"], ["7C", "KD"]]


def test_nobody_else_sees_the_cards_exchanged():
    s = exchange([["3C", "4C"], ["5C", "6C"], ["7C", "8C"], ["2S", "9C", "2H"]])
    go(s, "give_two 3C 4C")
    for seat in (1, 2):
        view = observe(s, seat)
        assert c("2S") not in str(view) and c("3C") not in str(view)


# ================================================================== leading and following

def test_the_leader_plays_one_card_or_two_to_four_of_one_rank_and_may_not_pass():
    s = table([["5C", "5D", "7H", "9C", "9D", "9H", "9S"], ["3C"], ["4C"], ["6C"]])
    assert moves(s) == {"lead " + " ".join(g) for g in _sets(["5C", "5D", "7H", "9C", "9D", "9H", "9S"])}
    assert "lead 9C 9D 9H 9S" in moves(s) and "lead 5C 7H" not in moves(s) and "pass" not in moves(s)


def test_a_follower_plays_as_many_cards_of_a_higher_rank_or_passes():
    s = table([["3C"], ["5C", "5D", "6H", "7C", "7H", "8S", "2C"], ["4C"], ["5S"]], turn=1, top=["6C", "6D"], last=0)
    assert moves(s) == {"pass", "follow 7C 7H"}
    single = table([["3C"], ["6H", "7C", "7H"], ["4C"], ["6C"]], turn=1, top=["6D"], last=0)
    assert moves(single) == {"pass", "follow 7C", "follow 7H"}


def test_the_turn_goes_round_and_a_player_who_passed_may_play_again():
    s = table([["5C", "KD"], ["8C", "9C"], ["7C", "3D"], ["4D", "3H"]])
    go(s, "lead 5C")
    assert s.actor == 1
    go(s, "pass", "follow 7C", "pass")  # P2 passes, P3 plays, P4 passes
    assert s.actor == 0
    go(s, "pass")
    assert s.actor == 1 and moves(s) == {"pass", "follow 8C", "follow 9C"}


def test_when_everybody_else_has_passed_the_last_player_leads_again():
    s = table([["5C", "KD"], ["8C", "9C"], ["7C", "3D"], ["4D", "3H"]])
    go(s, "lead KD", "pass", "pass", "pass")
    assert s.actor == 0 and moves(s) == {"lead 5C"} and cards_in(s, "pile") == []
    assert c("KD") in cards_in(s, "played") and public_vars(s)["top_count"] == 0


# ================================================================== going out, the deal's end, the game

def test_a_player_who_plays_their_last_card_goes_out_and_is_passed_over():
    s = table([["5C", "KD"], ["8C"], ["7C", "3D"], ["4D", "3H"]], turn=1, top=["6C"], last=0)
    go(s, "follow 8C")
    assert public_vars(s)["place"]["P2"] == 1 and observe(s, 0)["out_of_play"] == {"P2": "round"}
    assert s.actor == 2
    go(s, "pass", "pass", "pass")
    # the last play went out unbeaten: the next player after it still holding cards leads
    assert s.actor == 2 and s.rule == "turn" and "pass" not in moves(s)


def test_the_deal_ends_when_one_player_holds_cards_and_scores_by_place():
    s = table([[], [], ["AC"], ["4D", "3H"]], turn=2, top=["KC"], last=0, out={0: 2, 1: 1}, points={0: 5})
    go(s, "follow AC")
    # P3 goes out third; P4, still holding cards, is the Scum: 3, 2, 1 and 0 points
    assert public_vars(s)["points"] == {"P1": 5 + 2, "P2": 3, "P3": 1, "P4": 0}
    # the next deal: the Scum deals, and the President receives the Scum's two best cards
    assert public_vars(s)["dealer"] == "P4" and public_vars(s)["deal_number"] == 2
    assert s.rule == "president_gives" and s.actor == 1 and len(cards_in(s, "hand", 1)) == 15


def test_the_game_ends_after_the_number_of_deals_the_option_sets():
    s = table([[], [], ["AC"], ["4D"]], turn=2, top=["KC"], last=0, out={0: 2, 1: 1}, points={0: 5}, deal_number=3,
              options={"deals": 3})
    go(s, "follow AC")
    assert s.finished and outcome(s).winners == (0,) and public_vars(s)["points"]["P1"] == 7
    on = table([[], [], ["AC"], ["4D"]], turn=2, top=["KC"], last=0, out={0: 2, 1: 1}, deal_number=3,
               options={"deals": 4})
    go(on, "follow AC")
    assert not on.finished


# ================================================================== the options pagat.com's variants differ on

def test_equal_rank_lets_the_same_rank_beat_the_last_play():
    hands = [["3C"], ["6H", "6S", "7C", "7H"], ["4C"], ["5C"]]
    assert moves(table(hands, turn=1, top=["6C", "6D"], last=0)) == {"pass", "follow 7C 7H"}
    same = table(hands, turn=1, top=["6C", "6D"], last=0, options={"equal_rank": "equal"})
    assert moves(same) == {"pass", "follow 6H 6S", "follow 7C 7H"}


def test_equal_rank_skip_makes_the_next_player_miss_their_turn():
    s = table([["6C", "KD"], ["6D", "9C"], ["7C", "3D"], ["4D", "3H"]], options={"equal_rank": "skip"})
    go(s, "lead 6C", "follow 6D")
    assert s.actor == 3  # P3 is skipped
    go(s, "pass", "pass")
    assert s.actor == 1 and s.rule == "turn" and cards_in(s, "pile") == []  # the skip counted as P3's pass
    higher = table([["6C", "KD"], ["7D", "9C"], ["7C", "3D"], ["4D", "3H"]], options={"equal_rank": "skip"})
    assert go(higher, "lead 6C", "follow 7D").actor == 2


def test_twos_clear_a_single_two_beats_any_play_and_ends_the_trick():
    hands = [["3C"], ["2H", "KC", "KH"], ["4C"], ["5C"]]
    assert moves(table(hands, turn=1, top=["AC", "AD"], last=0)) == {"pass"}
    s = table(hands, turn=1, top=["AC", "AD"], last=0, options={"twos_clear": True})
    assert moves(s) == {"pass", "two 2H"}
    go(s, "two 2H")
    assert s.actor == 1 and "pass" not in moves(s) and cards_in(s, "pile") == []
    single = table([["3C"], ["2H", "KC"], ["4C"], ["5C"]], turn=1, top=["AC"], last=0, options={"twos_clear": True})
    go(single, "follow 2H")
    assert single.actor == 1 and moves(single) == {"lead KC"}


def test_pass_for_trick_a_player_who_passed_is_passed_over_until_the_next_lead():
    s = table([["5C", "KD"], ["8C", "9C"], ["7C", "3D"], ["4D", "3H"]], options={"pass_for_trick": True})
    go(s, "lead 5C", "pass", "follow 7C", "pass")
    assert s.actor == 0
    go(s, "pass")  # P2 passed before: nobody is left to beat P3's Seven
    assert s.actor == 2 and moves(s) == {"lead 3D"}


# ================================================================== both engines

@pytest.mark.parametrize("players,options", [
    (4, {}), (7, {}), (5, {"equal_rank": "skip", "twos_clear": True}),
    (4, {"equal_rank": "equal", "pass_for_trick": True, "vice_exchange": False}),
    (6, {"equal_rank": "skip", "pass_for_trick": True, "twos_clear": True}),
])
def test_both_engines_play_the_same_games(players, options):
    from interpreter.native.engine import new_native_game
    options = {"deals": 2, **options}
    for seed in range(3):
        a, b = new_game(rules(), players, options, seed), new_native_game(rules(), players, options, seed)
        r = random.Random(seed)
        while not a.finished:
            la = [(m.player, str(m)) for m in legal_moves(a)]
            assert la == [(m.player, str(m)) for m in legal_moves(b)]
            pick = r.choice(la)
            for s in (a, b):
                apply(s, next(m for m in legal_moves(s) if (m.player, str(m)) == pick))
        assert b.finished and outcome(a) == outcome(b)
        assert sorted(public_vars(a)["place"].values()) == list(range(1, players + 1))
