"""`declare loser PLAYER` (or `declare losers PLAYERS`): every other player wins, sharing the win,
on both engines, and the rulebook says so. Durak, by a new user, had to write `declare winner
those q in players where q != fool`, a rule its readers had to work out backwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_ruleset, loads_ruleset
from interpreter.engine import apply, legal_moves, new_game, outcome
from interpreter.errors import RulesetError
from interpreter.native import find_compiler
from interpreter.render import render_markdown

ROOT = Path(__file__).resolve().parents[2]
FOOL = Path(__file__).with_name("fool.cards")


def test_the_last_player_holding_cards_loses_and_the_others_share_the_win():
    s = new_game(load_ruleset(FOOL), 3, seed=2)
    # P1 is dealt one card, P2 and P3 two: P1 goes out first, then P2; P3 is the fool
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    assert s.finished and outcome(s).winners == (0, 1)


def test_declare_losers_takes_players_and_a_loser_must_be_a_player():
    text = FOOL.read_text(encoding="utf-8")
    rs = loads_ruleset(text.replace("declare loser first(players_in_play)", "declare losers players_in_play"),
                       "fool.cards")
    s = new_game(rs, 4, seed=1)
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    assert outcome(s).winners == (0, 1, 2)
    with pytest.raises(RulesetError) as e:
        loads_ruleset(text.replace("declare loser first(players_in_play)", "declare loser 3"), "fool.cards")
    assert "the loser must be a player or players; '3' is a number" in str(e.value) and e.value.line == 26


@pytest.mark.skipif(find_compiler() is None, reason="no C compiler")
def test_both_engines_give_the_same_games():
    out = []
    for engine in ("python", "native"):
        r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(FOOL), "-n", "3", "-k", "20", "--workers",
                            "1", "--engine", engine, "--json"], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        out.append(r.stdout)
    assert out[0] == out[1]
    assert json.loads(out[0])["wins"] == {"P1": 20, "P2": 20, "P3": 0}


def test_the_rulebook_names_the_loser_and_says_the_others_win():
    book = render_markdown(load_ruleset(FOOL))
    assert ("Declare the loser: the first player of the players still in play; every other player wins (they share "
            "the win).") in book
