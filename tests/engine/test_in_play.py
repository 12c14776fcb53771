"""Players in and out of play: `drop P from the round|game`, `new round`, `in_play(p)`,
`players_in_play`, `for each player q in play` and `next q after p where COND`, on both engines,
in every seat's view, and in the rulebook."""

from __future__ import annotations

import pytest
from both_engines import in_step, offered
from small_games import written

from interpreter.engine import Move, apply, new_game, observe, outcome
from interpreter.errors import GameRuntimeError, RulesetError

OUTS = """game outs "Outs"
players 2..5

deck d:
    suits Red, Blue
    ranks 1..6

zone stock shared hidden "stock"
zone hand per player owner "hand"

var turn: player = seat(1)
var stays(p: player): int = 0

define score(p: player) = stays(p)
winner most score

phase play "Play" then play:
    rule deal "Deal":
        new round
    rule bets "Bets":
        for each player p in play from turn:
            choose by p:
                action stay "Stay.":
                    set stays(p) = stays(p) + 1
                action fold "Fold.":
                    drop p from the round
                action leave "Leave the game.":
                    drop p from the game
    rule next_turn "Next":
        set turn = next q after turn where in_play(q)
        if count(players_in_play) <= 1 or stays(turn) >= 3:
            end game
"""


def load(tmp_path, text=OUTS):
    return written(tmp_path, "outs.cards", text)


def play(s, *actions):
    for a in actions:
        apply(s, Move(s.actor, a))


def test_a_player_out_of_the_round_is_passed_over_until_the_next_round(tmp_path):
    s = new_game(load(tmp_path), 4)
    asked = []
    for a in ("fold", "stay", "leave", "stay"):  # P1 folds, P3 leaves the game
        asked.append(s.actor)
        play(s, a)
    assert asked == [0, 1, 2, 3]
    # the next turn is P2's (P1 is out); the new round brings P1 back, not P3
    asked = []
    for _ in range(3):
        asked.append(s.actor)
        play(s, "stay")
    assert asked == [1, 3, 0]


def test_who_is_out_shows_in_every_seats_view(tmp_path):
    s = new_game(load(tmp_path), 3)
    assert "out_of_play" not in observe(s, 0)
    play(s, "fold", "leave")
    for seat in range(3):
        assert observe(s, seat)["out_of_play"] == {"P1": "round", "P2": "game"}


def test_next_where_skips_players_out_and_comes_round_to_the_start_last(tmp_path):
    s = new_game(load(tmp_path), 3)
    play(s, "stay", "fold", "leave")  # P2 out of the round, P3 out of the game: the turn stays with P1
    assert s.finished and outcome(s).winners == (0,)


def test_the_last_player_in_play_ends_it_here(tmp_path):
    s = new_game(load(tmp_path), 2)
    play(s, "leave", "stay")
    assert s.finished and outcome(s).winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_both_engines_offer_the_same_moves_at_every_decision(tmp_path, players):
    from interpreter.native.engine import new_native_game
    rs = load(tmp_path)
    for seed in range(12):
        a, b = new_game(rs, players, seed=seed), new_native_game(rs, players, seed=seed)
        for la in in_step(seed, a, b):
            assert la == offered(b)
            assert observe(a, 0).get("out_of_play") == observe(b, 0).get("out_of_play")
        assert b.finished and outcome(a) == outcome(b)


@pytest.mark.parametrize("line,message,col", [
    ("drop 3 from the round", "drop needs a player or players; '3' is a number", 26),
    ("drop p from the hand", "drop ... from the hand?", 37),
    ("set stays(p) = count(players) + (if in_play(p, p) then 1 else 0)", "in_play takes one player", 57),
    ("set turn = next q after 3 where in_play(q)", "the player after 'next q after' must be a player", 45),
])
def test_misuse_is_a_located_error(tmp_path, line, message, col):
    text = OUTS.replace("                    drop p from the game", "                    " + line)
    with pytest.raises(RulesetError) as e:
        load(tmp_path, text)
    where = [n for n, x in enumerate(text.splitlines(), 1) if x.strip() == line]
    assert message in str(e.value) and [e.value.line] == where and e.value.column == col, str(e.value)


def test_nobody_to_start_from_is_the_same_located_error_on_both_engines(tmp_path):
    from interpreter.native.engine import new_native_game
    text = OUTS.replace("var turn: player = seat(1)", "var turn: player = seat(1)\nvar nobody: player")
    text = text.replace("set turn = next q after turn where", "set turn = next q after nobody where")
    rs = load(tmp_path, text)
    errors = []
    for make in (new_game, new_native_game):
        s = make(rs, 2)
        with pytest.raises(GameRuntimeError) as e:
            play(s, "stay", "stay")
        errors.append((str(e.value), e.value.line))
    where = [n for n, x in enumerate(text.splitlines(), 1) if "next q after nobody" in x]
    assert errors[0] == errors[1] and [errors[0][1]] == where, errors


def test_the_rulebook_says_who_is_passed_over(tmp_path):
    from interpreter.render import render_markdown
    book = render_markdown(load(tmp_path))
    for sentence in ("A new round begins: every player who dropped out of the round is back in play",
                     "passing over *p* if out of play when their turn comes",
                     "*p* drops out of the round: out of play until the next new round",
                     "*p* drops out of the game: out of play until it ends",
                     "Set the turn to the next player still in play after the turn.",
                     "the number of players still in play"):
        assert sentence in book, sentence


def test_the_words_read_back_as_they_were_written(tmp_path):
    from interpreter.language.unparse import unparse
    rs = load(tmp_path)
    rule = next(s for s in rs.phases[0].body if getattr(s, "name", "") == "next_turn")
    assert unparse(rule.body[0].value) == "next q after turn where in_play(q)"


def test_the_rulebook_reads_any_condition_of_next_where(tmp_path):
    from interpreter.render import render_markdown
    rs = load(tmp_path, OUTS.replace("next q after turn where in_play(q)", "next q after turn where stays(q) == 0"))
    assert ("Set the turn to the next player *q* after the turn in turn order such that *q*'s stays is 0 "
            "(coming round to the turn last; none if nobody is).") in render_markdown(rs)
