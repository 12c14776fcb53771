"""`about "..."` in a variant: the game described anew, in place of its base's description.
A variant's rulebook printed its base's "About the game" whatever the variant changed (Cutthroat
Spades, for three each alone: "Partners sit across the table from each other"; Cribbage for
four: "A game for two"); a new user's Partnership Pitch kept "each playing for themself"."""

from __future__ import annotations

import pytest

from interpreter import load_ruleset
from interpreter.errors import RulesetError
from interpreter.render.book import render_markdown

BASE = """game duel "Duel"
players 2
text "A game for two, each alone."

deck d:
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "stock"
zone hand per player owner "hand"

define score(p: player) = count(hand(p))
winner most score

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
        end game
"""

VARIANT = """variant trio "Trio" of "duel.cards"
players 3
text "The same game for three."
ABOUT
"""


def written(tmp_path, about: str, base: str = BASE):
    (tmp_path / "duel.cards").write_text(base, encoding="utf-8")
    path = tmp_path / "trio.cards"
    path.write_text(VARIANT.replace("ABOUT", about), encoding="utf-8")
    return load_ruleset(path)


def about_section(book: str) -> str:
    return book.split("## About the game", 1)[1].split("##", 1)[0]


def test_the_variant_describes_the_game_anew(tmp_path):
    rs = written(tmp_path, 'about "A game for three, each alone." "Cards are counted."')
    assert rs.texts == ("A game for three, each alone. Cards are counted.",)
    book = render_markdown(rs)
    assert "A game for three, each alone. Cards are counted." in about_section(book)
    assert "A game for two" not in book
    assert "The description of the game (About the game) is this variant's own (`about`)" in book
    assert "The same game for three." in book  # the variant's own text still says what it changes


def test_without_it_the_base_description_stays(tmp_path):
    rs = written(tmp_path, "")
    assert rs.texts == ("A game for two, each alone.",)
    assert "A game for two, each alone." in about_section(render_markdown(rs))


def test_a_game_describes_itself_with_text(tmp_path):
    with pytest.raises(RulesetError) as e:
        written(tmp_path, "", base=BASE.replace('text "A game for two, each alone."',
                                                'about "A game for two."'))
    assert "'about' describes a variant's game anew" in str(e.value)
    assert e.value.line == 3


def test_written_once(tmp_path):
    with pytest.raises(RulesetError) as e:
        written(tmp_path, 'about "One."\nabout "Two."')
    assert "'about' is written once (first at line 4)" in str(e.value) and e.value.line == 5


@pytest.mark.parametrize("name, wrong", [
    ("classic/spades-cutthroat", "Partners sit across the table"),
    ("classic/cribbage-four", "A game for two"),
    ("classic/kuhn-poker-three", "two players"),
    ("classic/nolimit-holdem", "with fixed bets"),
    ("ganjifa/mughal-3p", "ten-suited"),
])
def test_the_bundled_variants_no_longer_describe_their_base(name, wrong):
    from pathlib import Path
    rs = load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / f"{name}.cards")
    assert wrong not in about_section(render_markdown(rs))
