"""Gin Rummy (rulesets/classic/gin-rummy.cards) against OpenSpiel's `gin_rummy` with its default
parameters (knock card 10, gin bonus 25, undercut bonus 25, ten cards, 52 cards, not Oklahoma).

First one small position per rule, with the exact set of legal moves; then OpenSpiel's own games
replayed move by move in our ruleset (the same deal and stock, the same legal moves at every
decision, mapped by card and meld, and the same returns): random games, and games where a
simple player that keeps its deadwood low knocks, so that knocking, laying melds and laying off
are replayed too; then the statistics of random play on both sides.

Seats: OpenSpiel's player 0 and 1 are our P1 and P2 (seats 0 and 1). Moves: OpenSpiel's
"Draw upcard" is our `take`, "Draw stock" `draw`, "Pass" `pass`, "Knock" `knock`; a card is
`discard X` (or `lay_off X` while laying off); a meld is `lay_three X` (the set of three of
X's rank without X, as OpenSpiel's own meld numbers name it), `lay_four RANK` or `lay_runN
LOWEST` (a run of N = 3, 4 or 5 cards from LOWEST up)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from openspiel_cards import c, cs
from classic_stats import assert_same_statistics, mean_returns, random_games, returns
from openspiel_random import random_game

from interpreter.engine import apply, cards_in, evaluate, fired_counts, new_game, outcome, position, public_vars
from scenario import at, legal

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "gin-rummy.cards"


rules = loader(RULESET)


def discards(hand: str) -> set[str]:
    return {f"discard {x}" for x in cs(hand)}


def table(hands, up="Jd", *, mover=0, stock=None, vars=None, phase="play"):
    """A position in the play: `hands[seat]` as OpenSpiel card strings, `up` the upcard, P1
    (seat 0) to discard unless `mover` says otherwise. Every card not placed is in the stock,
    unless `stock` lists it exactly (the rest then lies beneath the upcard)."""
    zones = {"hand": {p: cs(h) for p, h in enumerate(hands)}, "discards": [c(up)]}
    kw = {}
    if stock is not None:
        zones["stock"] = cs(stock)
        kw["rest"] = "discards"
    v = {"mover": mover}
    v.update(vars or {})
    return position(rules(), 2, phase, zones=zones, vars=v, **kw)


# ================================================================== the deal and the first upcard

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_ten_cards_each_and_an_upcard(seed):
    s = new_game(rules(), 2, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(2)] == [10, 10]
    assert len(cards_in(s, "discards")) == 1 and len(cards_in(s, "stock")) == 31
    at(s, 0, "first_upcard", {"take", "pass"})


def test_the_first_upcard_goes_to_the_first_player_then_the_second_then_the_stock():
    hands = ["As 2s 3s 4c 5c 6d 7d 8h 9h Th", "Ac 2c 3c 4d 5d 6h 7h 8s 9s Ts"]
    s = position(rules(), 2, "opening", zones={"hand": {0: cs(hands[0]), 1: cs(hands[1])},
                                              "discards": [c("Kd")], "stock": [c("Qh")]})
    at(s, 0, "first_upcard", {"take", "pass"})
    apply(s, "pass")
    at(s, 1, "first_upcard", {"take", "pass"})
    apply(s, "pass")
    at(s, 0, "first_upcard", {"draw"})  # both passed: the first player must draw from the stock
    apply(s, "draw")
    assert c("Qh") in cards_in(s, "hand", 0) and cards_in(s, "discards") == [c("Kd")]
    at(s, 0, "discard", discards(hands[0] + " Qh"))


def test_the_second_player_may_take_the_first_upcard_and_then_discards():
    hands = ["As 2s 3s 4c 5c 6d 7d 8h 9h Th", "Ac 2c 3c 4d 5d 6h 7h 8s 9s Ts"]
    s = position(rules(), 2, "opening", zones={"hand": {0: cs(hands[0]), 1: cs(hands[1])}, "discards": [c("Kd")]})
    apply(s, "pass")
    apply(s, "take")
    at(s, 1, "discard", discards(hands[1] + " Kd"))
    apply(s, "discard Kd".replace("Kd", c("Kd")))
    at(s, 0, "draw", {"take", "draw"})  # then the first player draws


# ================================================================== drawing and discarding

def test_a_turn_draw_the_upcard_or_from_the_stock_then_discard():
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th Jh", "Ac 2c 3c 4d 5d 6h 7h 8s 9s Ts"], "Kd")
    at(s, 0, "discard", discards("As 2s 3s 4c 5c 6d 7d 8h 9h Th Jh"))
    apply(s, f"discard {c('Jh')}")
    assert cards_in(s, "discards")[-1] == c("Jh")
    at(s, 1, "draw", {"take", "draw"})
    apply(s, "take")
    assert c("Jh") in cards_in(s, "hand", 1)
    at(s, 1, "discard", discards("Ac 2c 3c 4d 5d 6h 7h 8s 9s Ts Jh"))
    apply(s, f"discard {c('Ts')}")
    apply(s, "draw")
    assert len(cards_in(s, "hand", 0)) == 11 and len(cards_in(s, "stock")) == 52 - 22 - 1


KNOCKABLE = "5h 6h 7h 8h Ks Kc Kd Kh 2s 3c Ad"  # discard the 8h: 2 + 3 + 1 = 6 deadwood


def test_knocking_is_allowed_once_a_discard_leaves_ten_or_less():
    s = table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    at(s, 0, "discard", discards(KNOCKABLE) | {"knock"})
    # eleven deadwood after the best discard: no knock (5-6-7-8 of Hearts, the four Kings, 2s 4c 5d left, 5d discarded... 2 + 4 + 5)
    s = table(["5h 6h 7h 8h Ks Kc Kd Kh 2s 4c 5d", "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    assert "knock" in legal(s)  # 2 + 4 = 6
    s = table(["5h 6h 7h 8h Ks Kc Kd 9s 2s 4c 5d", "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    assert "knock" not in legal(s)  # 2 + 4 + 5 = 11 after discarding the 9s


def test_deadwood_counts_aces_one_and_faces_ten_and_runs_any_length():
    s = table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    assert evaluate(s, "knockable", cs("5h 6h 7h Ks Kc Kd 2s 3c Ad 4d")) is True  # 2 + 3 + 1 + 4 = 10
    assert evaluate(s, "knockable", cs("5h 6h 7h Ks Kc Kd 2s 3c Ad 5d")) is False  # 11
    assert evaluate(s, "knockable", cs("As 2s 3s 4s 5s 6s 7s 8s 9s Kd")) is True  # a run of nine, and 10
    assert evaluate(s, "knockable", cs("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")) is True  # gin
    assert evaluate(s, "knockable", cs("Qs Ks Ac 2c 3c 4d 5d 6d 7h 8h")) is False  # no Ace above the King
    # a card is in one meld only: three Sevens and 7-8-9 of Hearts leave 2 + 3 + 5 + 1 = 11
    assert evaluate(s, "knockable", cs("7s 7c 7d 7h 8h 9h 2s 3c 5s Ad")) is False
    assert evaluate(s, "knockable", cs("7s 7c 7d 7h 8h 9h 6h 2s 3c Ad")) is True  # 6-7-8-9 of Hearts: 6


def test_the_wall_only_a_knock_with_the_upcard_or_the_hand_ends():
    # P1 discards with two cards left in the stock: P2 may not draw
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th Jh", "5h 6h 7h Ks Kc Kd 2c 3c Ad 9s"], "Qc", stock="4d 4h")
    apply(s, f"discard {c('Jh')}")
    at(s, 1, "wall", {"pass"})  # with the Jack of Hearts: 2 + 3 + 1 + 9 = 15, discarding the Jack: no
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th 4s", "5h 6h 7h Ks Kc Kd 2c 3c Ad 9s"], "Qc", stock="4d 4h")
    apply(s, f"discard {c('4c')}")
    at(s, 1, "wall", {"pass", "knock"})  # the 4c makes 2c 3c 4c: the Ace alone once the 9s is discarded
    apply(s, "pass")
    assert s.finished and outcome(s).scores == (0, 0) and fired_counts(s)["wall"] == 1


def test_knocking_at_the_wall_takes_the_upcard():
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th 4s", "5h 6h 7h Ks Kc Kd 2c 3c Ad 9s"], "Qc", stock="4d 4h")
    apply(s, f"discard {c('4c')}")
    apply(s, "knock")
    assert c("4c") in cards_in(s, "hand", 1) and len(cards_in(s, "hand", 1)) == 11
    at(s, 1, "knock_discard", discards("9s Ad"))  # the Ace leaves 9, the 9 leaves 1


def test_taking_the_upcard_for_the_fiftieth_time_ends_the_hand():
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th Jh", "5h 6h 7h Ks Kc Kd 2c 3c Ad 9s"], vars={"upcard_draws": 48})
    apply(s, f"discard {c('Jh')}")
    apply(s, "take")  # the 49th
    assert not s.finished
    apply(s, f"discard {c('9s')}")
    apply(s, "take")  # the 50th
    assert s.finished and outcome(s).scores == (0, 0) and fired_counts(s)["upcard_limit"] == 1


def test_throwing_back_the_upcard_twice_in_a_row_ends_the_hand():
    s = table(["As 2s 3s 4c 5c 6d 7d 8h 9h Th Jh", "5h 6h 7h Ks Kc Kd 2c 3c Ad 9s"])
    apply(s, f"discard {c('Jh')}")
    apply(s, "take")
    apply(s, f"discard {c('Jh')}")  # P2 throws it back
    assert not s.finished and public_vars(s)["repeated"] is True
    apply(s, "take")
    apply(s, f"discard {c('As')}")  # P1 takes it but throws another card: the count starts again
    assert public_vars(s)["repeated"] is False
    apply(s, "take")
    apply(s, f"discard {c('As')}")  # P2 takes the Ace and throws it back
    apply(s, "take")
    apply(s, f"discard {c('As')}")  # and so does P1: the hand ends
    assert s.finished and outcome(s).scores == (0, 0)


# ================================================================== knocking, melds, laying off

def knocked(hand=KNOCKABLE, other="2h 3h 4h 9h Th Qs Qc Qd Ac Ah", discard="8h"):
    s = table([hand, other])
    apply(s, "knock")
    apply(s, f"discard {c(discard)}")
    return s


def test_the_knockers_discard_must_leave_ten_or_less():
    s = table([KNOCKABLE, "2h 3h 4h 9h Th Qs Qc Qd Ac Ah"])
    apply(s, "knock")
    at(s, 0, "knock_discard", discards("5h 8h Ks Kc Kd Kh 2s 3c Ad"))  # not the 6h or 7h


def test_the_knocker_lays_melds_that_keep_ten_or_less_and_stops_at_ten_or_less():
    s = knocked()
    at(s, 0, "knock_melds", {f"lay_run3 {c('5h')}", "lay_four King"})
    apply(s, "lay_four King")
    at(s, 0, "knock_melds", {f"lay_run3 {c('5h')}"})  # 15 in hand: no stopping yet
    apply(s, f"lay_run3 {c('5h')}")
    at(s, 0, "knock_melds", {"pass"})
    assert cards_in(s, "sets", 0) == cs("Ks Kc Kd Kh") and sorted(cards_in(s, "runs", 0)) == sorted(cs("5h 6h 7h"))


def test_a_set_of_three_is_named_by_the_card_of_its_rank_left_out():
    s = knocked("Ks Kc Kd 5h 6h 7h 8h 2s 3c Ad 9d", discard="9d")
    # 5-6-7 or 6-7-8 of Hearts would leave 14 or 11 in hand: the run must be laid whole
    at(s, 0, "knock_melds", {f"lay_three {c('Kh')}", f"lay_run4 {c('5h')}"})


def test_laying_off_the_fourth_of_a_set_and_up_to_two_cards_beyond_each_end_of_a_run():
    s = knocked("Ks Kc Kd 5h 6h 7h 8h 2s 3c Ad 9d", "Kh 4h 3h 9h Th Jh 2h Qs Qc Qd", discard="9d")
    apply(s, f"lay_three {c('Kh')}")
    apply(s, f"lay_run4 {c('5h')}")
    apply(s, "pass")
    at(s, 1, "layoff", {"pass"} | {f"lay_off {c(x)}" for x in ("Kh", "4h", "9h")})
    apply(s, f"lay_off {c('9h')}")
    at(s, 1, "layoff", {"pass"} | {f"lay_off {c(x)}" for x in ("Kh", "4h", "Th")})
    apply(s, f"lay_off {c('Th')}")
    at(s, 1, "layoff", {"pass"} | {f"lay_off {c(x)}" for x in ("Kh", "4h")})  # not the Jack: two beyond is the most
    apply(s, f"lay_off {c('4h')}")
    at(s, 1, "layoff", {"pass"} | {f"lay_off {c(x)}" for x in ("Kh", "3h")})
    apply(s, "pass")
    # then the opponent's own melds: the three Queens, and the 2h with nothing
    at(s, 1, "opponent_melds", {"pass", f"lay_three {c('Qh')}"})
    apply(s, f"lay_three {c('Qh')}")
    apply(s, "pass")
    assert s.finished
    # the knocker: 2 + 3 + 1 = 6; the opponent: Kh 3h Jh 2h = 10 + 3 + 10 + 2 = 25: 19 to the knocker
    assert outcome(s).scores == (19, -19)


def test_no_laying_off_on_gin_and_the_gin_bonus():
    s = knocked("As 2s 3s 4s 5h 6h 7h Qc Qd Qh 9d", "6s 4h 8h 9h Th Jh 2h Ks Kc Kd", discard="9d")
    apply(s, f"lay_run4 {c('As')}")
    apply(s, f"lay_run3 {c('5h')}")
    apply(s, f"lay_three {c('Qs')}")
    apply(s, "pass")
    at(s, 1, "opponent_melds", {"pass", f"lay_three {c('Kh')}",
                                f"lay_run3 {c('8h')}", f"lay_run4 {c('8h')}", f"lay_run3 {c('9h')}"})
    assert fired_counts(s)["layoff"] == 0
    apply(s, "pass")
    # 6 + 4 + 8 + 9 + 10 + 10 + 2 + 30 = 79, plus 25 for gin
    assert outcome(s).scores == (104, -104)


def test_an_undercut_costs_the_knocker_twenty_five_more():
    s = knocked(other="4d 5d 6d 7c 8c 9c Ts Js Qs As", discard="8h")
    apply(s, "lay_four King")
    apply(s, f"lay_run3 {c('5h')}")
    apply(s, "pass")
    apply(s, "pass")  # nothing to lay off
    for m in (f"lay_run3 {c('4d')}", f"lay_run3 {c('7c')}", f"lay_run3 {c('Ts')}"):
        apply(s, m)
    apply(s, "pass")
    # the knocker 6, the opponent 1 (the Ace of Spades): 1 - 6 - 25
    assert outcome(s).scores == (-30, 30) and outcome(s).winners == (1,)


def test_equal_deadwood_scores_nothing():
    s = knocked(other="4d 5d 6d 7c 8c 9c Ts Js Qs 6s", discard="8h")
    for m in ("lay_four King", f"lay_run3 {c('5h')}", "pass", "pass",
              f"lay_run3 {c('4d')}", f"lay_run3 {c('7c')}", f"lay_run3 {c('Ts')}", "pass"):
        apply(s, m)
    assert outcome(s).scores == (0, 0)  # 6 each: no undercut, no score


def test_melds_not_laid_down_count_as_deadwood():
    s = knocked()
    apply(s, "lay_four King")
    apply(s, f"lay_run3 {c('5h')}")
    apply(s, "pass")
    apply(s, "pass")
    apply(s, "pass")  # the opponent lays nothing down: 2+3+4+9+10+30+1+1 = 60
    assert outcome(s).scores == (54, -54)


# ================================================================== the same game as OpenSpiel's

def _pyspiel():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    assert game.get_parameters() == {"gin_bonus": 25, "hand_size": 10, "knock_card": 10, "num_ranks": 13,
                                     "num_suits": 4, "oklahoma": False, "undercut_bonus": 25}
    return pyspiel, game


def _ours(s, gr, utils, a: int) -> str:
    """OpenSpiel's action `a` at state `s` as our move."""
    if a < 52:
        card = c(utils.card_string(a))
        return f"lay_off {card}" if s.current_phase() == gr.Phase.LAYOFF else f"discard {card}"
    if a >= 56:
        text = s.action_to_string(s.current_player(), a).split("Action: ")[1]
        meld = sorted(utils.card_strings_to_card_ints([text[i:i + 2] for i in range(0, len(text), 2)]))
        names = [c(utils.card_string(x)) for x in meld]
        if len({x % 13 for x in meld}) == 1:
            if len(meld) == 4:
                return f"lay_four {names[0].split('-')[0]}"
            out = next(x for x in range(meld[0] % 13, 52, 13) if x not in meld)  # the card left out
            return f"lay_three {c(utils.card_string(out))}"
        return f"lay_run{len(meld)} {names[0]}"
    return {52: "take", 53: "draw", 54: "pass", 55: "knock"}[a]


def _keeper(s, gr, utils, legal, rng):
    """A simple player: knocks when it may, keeps the discard that leaves the least deadwood,
    takes the upcard when it lowers its deadwood; anything else at random."""
    hand = s.hands()[s.current_player()]
    if 55 in legal:
        return 55
    phase = s.current_phase()
    if phase == gr.Phase.DISCARD:
        left = {a: utils.min_deadwood([x for x in hand if x != a]) for a in legal}
        best = min(left.values())
        return rng.choice([a for a in legal if left[a] == best])
    if phase in (gr.Phase.DRAW, gr.Phase.FIRST_UPCARD) and 52 in legal:
        if utils.min_deadwood(hand + [s.upcard()]) < utils.min_deadwood(hand):
            return 52
        return 53 if 53 in legal else 54
    return rng.choice(legal)


def _openspiel_game(pyspiel, game, rng, careful: bool):
    """One game: the cards in the order chance dealt them, every decision as (player, our legal
    moves, our move, whether OpenSpiel's knock agrees with the rule), the returns."""
    gr = pyspiel.gin_rummy
    utils = gr.GinRummyUtils(13, 4, 10)
    s = game.new_initial_state()
    dealt, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            dealt.append(c(utils.card_string(a)))
            s.apply_action(a)
            continue
        legal = s.legal_actions()
        agrees = True
        if s.current_phase() in (gr.Phase.DISCARD, gr.Phase.WALL):
            # OpenSpiel's test for a knock with eleven cards (see the interpretation `knock_test`)
            hand = s.hands()[s.current_player()] + ([s.upcard()] if s.current_phase() == gr.Phase.WALL else [])
            rule = min(utils.min_deadwood([x for x in hand if x != d]) for d in hand) <= 10
            agrees = rule == (55 in legal)
        a = _keeper(s, gr, utils, legal, rng) if careful and rng.random() < 0.8 else rng.choice(legal)
        decisions.append((s.current_player(), {_ours(s, gr, utils, x) for x in legal}, _ours(s, gr, utils, a), agrees))
        s.apply_action(a)
    return dealt, decisions, tuple(s.returns())


def _replay(dealt, decisions, returns) -> str:
    """Our ruleset on OpenSpiel's cards and moves: 'same', or 'knock' where OpenSpiel refused a
    knock the rule allows (checked, and the game left there)."""
    s = position(rules(), 2, "deal", zones={"stock": list(reversed(dealt))}, shuffle=False)
    for p, moves, chosen, agrees in decisions:
        assert s.actor == p
        if not agrees:
            assert legal(s) == moves | {"knock"}
            return "knock"
        assert legal(s) == moves
        apply(s, chosen)
    assert s.finished
    assert tuple(float(x) for x in outcome(s).scores) == returns
    return "same"


def test_openspiels_random_games_replayed_move_by_move():
    pyspiel, game = _pyspiel()
    rng = random.Random(30)
    results = [_replay(*_openspiel_game(pyspiel, game, rng, careful=False)) for _ in range(150)]
    assert results.count("same") == 150


def test_openspiels_games_with_knocks_replayed_move_by_move():
    pyspiel, game = _pyspiel()
    rng = random.Random(31)
    knocks = 0
    results = []
    for _ in range(60):
        dealt, decisions, returns = _openspiel_game(pyspiel, game, rng, careful=True)
        results.append(_replay(dealt, decisions, returns))
        knocks += any(m == "knock" for _, _, m, _ in decisions)
    assert knocks >= 45 and results.count("knock") <= 2, (knocks, results.count("knock"))


OPENSPIEL_GAMES = 400
OUR_GAMES = 200


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    # the deal and the stock are our own shuffles here: the same game with random players
    pyspiel, game = _pyspiel()
    rng = random.Random(20240601)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s, n = random_game(game, rng)
        theirs.append((n, tuple(s.returns())))
    ours = [(n, returns(s)) for s, n in random_games(rules(), 2, OUR_GAMES, random.Random(9))]
    stats = [("decisions a game", lambda g: g[0])]
    stats += mean_returns(2, at=1)
    stats += [("share with a score", lambda g: 1.0 if g[1][0] != 0 else 0.0)]
    assert_same_statistics(ours, theirs, stats)
