"""What a move shows each seat (engine/shown.py). A new user's Cheat laid cards face down with
`action lay c in hand(turn)`: the terminal printed `P2: lay 4-Diamonds` to the person at the
table, the adapters' histories named the card, and the players' memory of what a seat has seen
(truths.py, which `pimc` and `ismcts:N:T` sample from) counted it as seen, while the browser
table hid every move whose card was out of view, a called card too. One rule now for all: a
move another seat sees in full unless it was made in secret or it took a card it names out of
that seat's sight; a card named without being moved is an announcement."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from small_games import written

from interpreter.engine import apply, legal_moves, new_game, shown
from interpreter.engine.truths import Memory
from interpreter.native.engine import new_native_game

ROOT = Path(__file__).resolve().parents[2]

# P1 lays one card face down, calls a card by name, plays one to the table, hands one to P2, and
# plays one to a trick that the rules gather face down at once
GAME = """game show "Shown"
players 3

deck d:
    suits Red, Blue
    ranks 1..6

zone stock shared hidden "the pack"
zone hand per player owner "hand"
zone laid shared hidden "the cards laid face down"
zone table shared public "the table"
zone trick shared public "the trick"
zone gathered shared hidden "the tricks gathered face down"

var called: card = none

define score(p: player) = count(hand(p))
winner fewest score

phase play "Play":
    rule deal "Deal":
        deal 4 from stock to each hand
    rule lay "Lay":
        choose by seat(1):
            action lay c in hand(seat(1)) "Lay a card face down.":
                move c to laid
    rule call "Call":
        choose by seat(1):
            action call c in hand(seat(2)) + hand(seat(3)) + stock "Call a card you do not hold.":
                set called = c
    rule show "Show":
        choose by seat(1):
            action play c in hand(seat(1)) "Play a card to the table.":
                move c to table face up
    rule hand_over "Hand over":
        choose by seat(1):
            action give c in hand(seat(1)) "Hand a card to the next player.":
                move c to hand(seat(2))
    rule trick "Trick":
        choose by seat(1):
            action lead c in hand(seat(1)) "Play a card to the trick.":
                move c to trick
        move trick to gathered
        end game
"""

ENGINES = [new_game, new_native_game]


def moves_seen(make, tmp_path):
    """Each move of P1 and which seats see it whole, by engine/shown.py."""
    s = make(written(tmp_path, "show.cards", GAME), 3, seed=1)
    out = []
    while not s.finished:
        m = legal_moves(s)[0]
        cards = shown.named_cards(s.program, m.arg)
        before = shown.places(s, cards)
        apply(s, m)
        out.append((m.action, shown.shown(s, m.player, cards, before, shown.places(s, cards, during=True), False)))
    return out


@pytest.mark.parametrize("make", ENGINES)
def test_a_card_laid_out_of_sight_is_not_shown_an_announcement_or_a_card_in_view_is(make, tmp_path):
    assert moves_seen(make, tmp_path) == [
        ("lay", [True, False, False]),    # face down: the others see that a card was laid
        ("call", [True, True, True]),     # the card stays where it lay: the call is heard by all
        ("play", [True, True, True]),     # face up on the table
        ("give", [True, True, False]),    # P2 holds it now and sees it; P3 does not
        ("lead", [True, True, True]),     # in the trick in view of all, then gathered face down
    ]


def test_the_terminal_shows_the_person_what_they_may_see(tmp_path):
    path = tmp_path / "show.cards"
    path.write_text(GAME.replace("choose by seat(1)", "choose by seat(2)").replace("hand(seat(1))", "hand(seat(2))")
                    .replace("move c to hand(seat(2))", "move c to hand(seat(3))"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "interpreter", "play", str(path), "--human", "1", "--seed", "1",
                          "--engine", "python"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    lines = [x for x in run.stdout.splitlines() if x.startswith("P2: ")]
    assert run.returncode == 0, run.stderr
    assert lines[0] == "P2: lay a card you cannot see", lines
    assert lines[1].startswith("P2: call ") and lines[2].startswith("P2: play ")
    assert lines[3] == "P2: give a card you cannot see"
    assert lines[4].startswith("P2: lead ") and "cannot see" not in lines[4]  # (gathered face down after)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_adapters_histories_say_the_same(engine, tmp_path):
    pytest.importorskip("pyspiel")
    from interpreter.adapters.openspiel import load_game
    path = tmp_path / "show.cards"
    path.write_text(GAME, encoding="utf-8")
    state = load_game(str(path), players=3, engine=engine).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    seen = [[x for x in state.information_state_string(q).splitlines() if x.startswith("P1: ")] for q in range(3)]
    assert [x.split()[1] for x in seen[0]] == ["lay", "call", "play", "give", "lead"]
    assert seen[0][0] != "P1: lay a card you cannot see"
    assert seen[1][0] == seen[2][0] == "P1: lay a card you cannot see"
    assert seen[1][3] == seen[0][3] != seen[2][3] == "P1: give a card you cannot see"
    assert seen[1][1] == seen[0][1] and seen[2][2] == seen[0][2]
    assert seen[1][4] == seen[2][4] == seen[0][4] != "P1: lead a card you cannot see"


def test_the_players_memory_does_not_count_a_card_laid_out_of_sight_as_seen(tmp_path):
    rs = written(tmp_path, "show.cards", GAME)
    s = new_game(rs, 3, seed=1)
    laid = legal_moves(s)[0]
    apply(s, laid)
    (c,) = shown.named_cards(s.program, laid.arg)
    m = Memory(s, 1)
    m.catch_up(s)
    assert not m.seen[c]
    mine = Memory(s, 0)
    mine.catch_up(s)
    assert mine.seen[c]


def test_the_browser_tables_log_hides_the_laid_card_and_shows_the_call(tmp_path):
    from interpreter.web.views import move_note
    rs = written(tmp_path, "show.cards", GAME)
    s = new_game(rs, 3, seed=1)
    notes = []
    while not s.finished:
        m = legal_moves(s)[0]
        before = shown.places(s, shown.named_cards(s.program, m.arg))
        apply(s, m)
        notes.append(move_note(s, m, False, None, before=before)["shown"])
    assert notes == [[0], [0, 1, 2], [0, 1, 2], [0, 1], [0, 1, 2]]


@pytest.mark.parametrize("make", ENGINES)
def test_a_card_played_to_a_trick_gathered_face_down_is_remembered_as_seen(make, tmp_path):
    """Twenty-Nine, by a new user, gathers each trick into a face-down pile: the fourth card of a
    trick went there in the move that played it, and the terminal said 'P2: play a card you
    cannot see' while everyone had seen it on the table."""
    s = make(written(tmp_path, "show.cards", GAME), 3, seed=1)
    memory = Memory(s, 2)
    while not s.finished:
        m = legal_moves(s)[0]
        apply(s, m)
    memory.catch_up(s)
    (led,) = shown.named_cards(s.program, s.history[-1].arg)
    (given,) = shown.named_cards(s.program, s.history[-2].arg)
    assert memory.seen[led] and not memory.seen[given]
