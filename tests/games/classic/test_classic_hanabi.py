"""Hanabi (rulesets/classic/hanabi.cards) against OpenSpiel's `hanabi` with its default parameters
(the Hanabi Learning Environment's full game for two players: colours R Y G W B, ranks 1 to 5,
hands of five, eight hint tokens, three lives).

First one small position per rule, with what each player observes; then OpenSpiel's own random
games replayed move by move in our ruleset (its deal put on top of our deck in the order it
dealt, the same legal moves at every decision, the same returns); then random play on both
sides, the same statistics within sampling error.

Moves: OpenSpiel's `Play k` and `Discard k` (k from 0) are our `play k+1` and `discard k+1` (a
place in the hand, counted from 1 at the oldest card); `Reveal player +1 color R` is our
`colour P2 Red` (the other seat), `Reveal player +1 rank 3` our `number P2 3`. OpenSpiel's
return is the score, 0 once the last life is lost; ours is the same."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, random_games

from interpreter.engine import Move, apply, cards_in, legal_moves, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "hanabi.cards"
COLOUR = {"R": "Red", "Y": "Yellow", "G": "Green", "W": "White", "B": "Blue"}


rules = loader(RULESET)


class Names:
    """OpenSpiel's card strings ('R1') to our cards, one copy after another ('1-Red#1', '1-Red#2')."""

    def __init__(self):
        self.used: dict[str, int] = {}

    def __call__(self, short: str) -> str:
        base = f"{short[1]}-{COLOUR[short[0]]}"
        if short[1] == "5":
            return base
        k = self.used[short] = self.used.get(short, 0) + 1
        return f"{base}#{k}"


def table(hands, deck=(), vars=None):
    """A position at the start of the play: hands[seat] and the deck's top cards (top first) as
    OpenSpiel card strings; every other card lies beneath them."""
    name = Names()
    zones = {"hand": {p: [name(x) for x in h] for p, h in enumerate(hands)}, "deck": [name(x) for x in deck][::-1]}
    return position(rules(), 2, "play", zones=zones, vars=vars or {})


def moves(s) -> list[str]:
    return [str(m) for m in legal_moves(s)]


def do(s, text: str) -> None:
    apply(s, Move.parse(text, s.current_player))


HANDS = [["R1", "Y2", "G1", "W5", "B3"], ["R2", "R1", "Y1", "B5", "G2"]]


def test_the_deal_gives_five_cards_each_from_a_shuffled_deck():
    s = new_game(rules(), 2, seed=4)
    assert [len(cards_in(s, "hand", p)) for p in (0, 1)] == [5, 5] and len(cards_in(s, "deck")) == 40
    assert public_vars(s) == {"turn": "P1", "hints": 8, "lives": 3, "last_turns": 2}


def test_a_player_sees_every_hand_but_their_own():
    s = table(HANDS)
    mine, theirs = observe(s, 0)["zones"]["hand"], observe(s, 1)["zones"]["hand"]
    assert mine["P1"] == {"count": 5, "known": [], "told": [None] * 5}
    assert mine["P2"] == {"cards": ["2-Red#1", "1-Red#2", "1-Yellow#1", "5-Blue", "2-Green#1"]}  # copies named in turn
    assert theirs["P1"]["cards"][0] == "1-Red#1" and "cards" not in theirs["P2"]


def test_the_moves_name_places_and_hints_not_the_own_cards():
    s = table(HANDS)
    assert moves(s) == ["play 1", "play 2", "play 3", "play 4", "play 5",
                        "colour P2 Red", "colour P2 Yellow", "colour P2 Green", "colour P2 Blue",
                        "number P2 1", "number P2 2", "number P2 5"]  # eight tokens: no discard
    other = table([["B4", "B4", "W1", "W1", "Y3"], HANDS[1]])  # P1's own cards do not change P1's moves
    assert moves(other) == moves(s)
    assert observe(other, 0)["zones"]["hand"]["P1"] == observe(s, 0)["zones"]["hand"]["P1"]


def test_a_card_that_fits_goes_to_its_firework_and_one_is_drawn():
    s = table(HANDS, deck=["Y4"])
    do(s, "play 1")  # R1 on the empty red firework
    assert cards_in(s, "fireworks") == ["1-Red#1"] and public_vars(s)["lives"] == 3
    assert cards_in(s, "hand", 0) == ["2-Yellow#1", "1-Green#1", "5-White", "3-Blue#1", "4-Yellow#1"]
    assert public_vars(s)["turn"] == "P2"
    do(s, "play 1")  # P2's R2 on the red 1
    assert cards_in(s, "fireworks") == ["1-Red#1", "2-Red#1"]


def test_a_card_that_does_not_fit_is_discarded_and_costs_a_life():
    s = table(HANDS)
    do(s, "play 2")  # Y2 on an empty firework
    assert cards_in(s, "discards") == ["2-Yellow#1"] and public_vars(s)["lives"] == 2


def test_the_last_life_lost_ends_the_game_with_no_score():
    s = table(HANDS, vars={"lives": 1})
    do(s, "play 1")
    do(s, "play 2")  # R1 fits; then P2's second R1 does not
    assert s.finished and public_vars(s)["lives"] == 0 and outcome(s).scores == (0, 0)


def test_a_hint_tells_which_cards_are_of_a_colour_or_rank():
    s = table(HANDS)
    do(s, "colour P2 Red")
    assert public_vars(s)["hints"] == 7
    told = observe(s, 1)["zones"]["hand"]["P2"]["told"]
    assert told == [{"suit": "Red"}, {"suit": "Red"}, None, None, None]
    do(s, "number P1 1")
    assert observe(s, 0)["zones"]["hand"]["P1"]["told"] == [{"rank": "1"}, None, {"rank": "1"}, None, None]
    do(s, "play 1")  # the told card leaves; the rest keep their places' hints
    assert observe(s, 0)["zones"]["hand"]["P1"]["told"][:4] == [None, {"rank": "1"}, None, None]
    assert "told" not in observe(s, 1)["zones"]["hand"]["P1"]  # P2 sees P1's cards themselves


def test_no_hint_without_a_token_and_a_discard_wins_one_back():
    s = table(HANDS, vars={"hints": 0})
    assert moves(s) == [f"{a} {i}" for a in ("play", "discard") for i in range(1, 6)]
    do(s, "discard 4")
    assert public_vars(s)["hints"] == 1 and cards_in(s, "discards") == ["5-White"]


def test_a_five_completing_a_firework_wins_back_a_token():
    s = position(rules(), 2, "play", zones={"hand": {0: ["5-White", "1-Red#1", "1-Red#2", "1-Red#3", "1-Yellow#1"]},
                                            "fireworks": ["1-White#1", "2-White#1", "3-White#1", "4-White#1"]},
                 vars={"hints": 5})
    do(s, "play 1")
    assert public_vars(s)["hints"] == 6 and cards_in(s, "fireworks")[-1] == "5-White"


def test_after_the_last_card_each_player_has_one_more_turn():
    s = table(HANDS)
    s = position(rules(), 2, "play", zones={"hand": {0: ["1-Red#1", "1-Red#2", "1-Red#3", "1-Yellow#1", "1-Yellow#2"],
                                                     1: ["2-Red#1", "2-Red#2", "3-Red#1", "3-Red#2", "4-Red#1"]},
                                            "deck": ["1-Green#1"]}, rest="discards")
    do(s, "colour P2 Red")  # the deck still holds a card
    do(s, "colour P1 Red")
    do(s, "play 1")  # P1 draws the last card
    assert cards_in(s, "deck") == [] and not s.finished
    do(s, "play 1")  # P2's last turn
    assert not s.finished
    do(s, "play 1")  # P1's last turn: a second red 1, which costs a life
    assert s.finished and outcome(s).scores == (2, 2) and public_vars(s)["lives"] == 2


# ================================================================== the same game as OpenSpiel's

def _pyspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hanabi")
    assert game.get_parameters() == {} and game.num_players() == 2  # the HLE's defaults
    return game


def _ours(text: str, player: int) -> str:
    """'(Play 0)' -> 'play 1'; '(Reveal player +1 color R)' -> 'colour P2 Red' (from P1)."""
    w = text.strip("()").split()
    if w[0] in ("Play", "Discard"):
        return f"{w[0].lower()} {int(w[1]) + 1}"
    target = f"P{(player + int(w[2])) % 2 + 1}"
    return f"colour {target} {COLOUR[w[4]]}" if w[3] == "color" else f"number {target} {w[4]}"


def _fits(s, a) -> bool:
    """Whether OpenSpiel's play `a` keeps every life (the card fits its firework)."""
    t = s.clone()
    t.apply_action(a)
    return str(t).split("\n")[0] == str(s).split("\n")[0]  # "Life tokens: N"


def _random_openspiel_game(game, rng, skill=0.0):
    """Random chance and random moves (with `skill`, a fitting card is played, else a play is
    avoided, that often: longer games that score): the state, the cards dealt in order, and
    each decision as (player, our legal moves, our move chosen)."""
    s = game.new_initial_state()
    dealt, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            a = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            dealt.append(s.action_to_string(a).strip("()").split()[1])
        else:
            p = s.current_player()
            legal = s.legal_actions()
            a = rng.choice(legal)
            if rng.random() < skill:
                plays = [x for x in legal if s.action_to_string(x).startswith("(Play")]
                good = [x for x in plays if _fits(s, x)]
                a = rng.choice(good or [x for x in legal if x not in plays] or legal)
            decisions.append((p, sorted(_ours(s.action_to_string(x), p) for x in legal), _ours(s.action_to_string(a), p)))
        s.apply_action(a)
    return s, dealt, decisions


def test_openspiels_random_games_replayed_move_by_move():
    game = _pyspiel_game()
    rng = random.Random(30)
    scored = ended_by_deck = 0
    for k in range(400):
        theirs, dealt, decisions = _random_openspiel_game(game, rng, skill=0.0 if k < 200 else 0.95)
        name = Names()
        s = position(rules(), 2, "deal", zones={"deck": [name(x) for x in dealt][::-1]}, shuffle=False)
        for p, legal, chosen in decisions:
            assert s.current_player == p and sorted(moves(s)) == legal
            do(s, chosen)
        assert s.finished
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())
        scored += outcome(s).scores[0] > 0
        ended_by_deck += public_vars(s)["last_turns"] == 0
    assert scored > 150 and ended_by_deck > 150  # the skilled half: scores, and decks run out


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _pyspiel_game()
    rng = random.Random(20261127)
    theirs = []
    for _ in range(2000):
        s, _, decisions = _random_openspiel_game(game, rng)
        theirs.append((s.returns()[0], len(decisions)))
    ours = []
    rng = random.Random(8)
    for s, n in random_games(rules(), 2, 2000, rng):
        ours.append((float(outcome(s).scores[0]), n))
    assert_same_statistics(ours, theirs, [("mean score", lambda g: g[0]), ("decisions a game", lambda g: g[1]),
                                          ("games scoring", lambda g: 1.0 if g[0] > 0 else 0.0)])
