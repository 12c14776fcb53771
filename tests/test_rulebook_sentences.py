"""Sentences of the rulebook that once could not apply: a one-player game's book names no
"player with the most score" to win (there is nobody to beat), in the quick reference or in
"Winning"; a game for several players keeps the sentence."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_ruleset
from interpreter.render.book import render_markdown

ROOT = Path(__file__).resolve().parent.parent


def test_a_one_player_game_reads_its_score_as_its_result():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "blackjack.cards"))
    assert "the player with the most" not in md and "player(s) with the most" not in md
    assert "your result is your *score*" in md and "the higher the better" in md


def test_a_game_for_several_players_names_the_winner_by_score():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "hearts.cards"))
    assert "the winner is the player with the" in md and "tied players share the win" in md
