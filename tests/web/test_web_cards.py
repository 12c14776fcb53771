"""The browser table's card pictures (interpreter/web/cards.py): every face of every bundled deck
is well-formed SVG that names its card, suits differ in colour and in mark, every text fits on
the card, names from the file are escaped, and the same card always gives the same bytes."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import interpreter
from interpreter import engine, loads_ruleset
from interpreter.web.cards import card_back, card_face, rank_abbreviations, suit_marks, suit_palette, text_width

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").rglob("*.cards"))
SVG = "{http://www.w3.org/2000/svg}"

TINY = '''game tiny "Tiny"
players 2

deck small "Small pack":
    suits Red, Blue, Green
    ranks 1..10, Dragon, Dove, Queen
    copies 2

zone stock shared hidden "pack"
var points(p: player): int = 0

define score(p: player) = points(p)
winner most score

phase play "Play":
    for each p in players:
        rule step "A step":
            choose by p:
                action go k in 1..3 "Go this far.":
                    set points(p) = points(p) + k
'''


@pytest.fixture(scope="module")
def programs():
    return {p.relative_to(ROOT).as_posix(): engine.program_of(interpreter.load_ruleset(p)) for p in RULESETS}


@pytest.fixture(scope="module")
def tiny():
    return engine.program_of(loads_ruleset(TINY, "tiny.cards"))


def renamed(program, suits: dict[str, str], ranks: dict[str, str] | None = None):
    """The program with its deck's suits (and ranks) renamed, card names to match: names no
    .cards file could hold (the grammar allows identifiers only), to try the escaping."""
    ranks = ranks or {}
    deck = program.ruleset.deck
    new = deck.model_copy(update={"suits": tuple(suits.get(s, s) for s in deck.suits),
                                  "ranks": tuple(ranks.get(r, r) for r in deck.ranks)})
    names = []
    for i, name in enumerate(program.card_names):
        copy = name[name.index("#"):] if "#" in name else ""
        names.append(f"{new.ranks[program.card_rank[i]]}-{new.suits[program.card_suit[i]]}{copy}")
    return dataclasses.replace(program, ruleset=program.ruleset.model_copy(update={"deck": new}), card_names=names)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "0 0 60 90"
    assert root.get("width") is None and root.get("height") is None
    return root


def texts(root: ET.Element):
    return [e for e in root.iter(SVG + "text")]


def assert_fits(root: ET.Element, where: str):
    """Every text's estimated box (0.6 em a character, or the module's own wider estimate) lies
    on the card; texts inside the turned corner are turned about the card's centre, so the same
    test holds for them."""
    for e in texts(root):
        text, size = e.text or "", float(e.get("font-size"))
        x, y = float(e.get("x")), float(e.get("y"))
        width = max(len(text) * size * 0.6, text_width(text, size))
        left = {"start": x, "middle": x - width / 2, "end": x - width}[e.get("text-anchor", "start")]
        assert 0 <= left and left + width <= 60, f"{where}: {text!r} at {size} runs off ({left:.1f}+{width:.1f})"
        top, bottom = y - 0.75 * size, y + 0.25 * size  # capitals' height, descenders' depth
        assert 0 <= top and bottom <= 90, f"{where}: {text!r} at {size} runs off the top or bottom"


def centre_mark(root: ET.Element) -> str:
    """The middle mark's shape, without its colour."""
    marks = [e for e in root if e.get("class") == "card-mark"]  # the corners' marks are in groups
    assert len(marks) == 1
    attrs = {k: v for k, v in marks[0].attrib.items() if k not in ("fill", "stroke")}
    return marks[0].tag + repr(sorted(attrs.items())) + repr(marks[0].get("fill") == "none")


@pytest.mark.parametrize("path", [p.relative_to(ROOT).as_posix() for p in RULESETS])
def test_every_face_of_every_bundled_deck(programs, path):
    program = programs[path]
    deck = program.ruleset.deck
    palette = suit_palette(deck)
    short = rank_abbreviations(deck.ranks)
    assert set(palette) == set(deck.suits)
    assert len(set(palette.values())) == len(deck.suits), palette
    assert len({v.casefold() for v in short.values()}) == len(deck.ranks), short
    for i, name in enumerate(program.card_names):
        suit, rank = deck.suits[program.card_suit[i]], deck.ranks[program.card_rank[i]]
        root = parse(card_face(program, name))
        assert root.get("class") == "card" and root.get("tabindex") is None
        assert root.get("data-card") == name and root.get("aria-label") == name
        assert root.find(SVG + "title").text == name
        words = [e.text for e in texts(root)]
        assert words.count(short[rank]) == 2, words  # both corners
        assert suit in words
        assert words[2:-1] == ([rank] if short[rank] != rank else [])  # in full in the middle when cut in the corners
        assert palette[suit] in card_face(program, name)
        assert_fits(root, name)
        chosen = parse(card_face(program, name, selectable=True))
        assert chosen.get("class") == "card selectable" and chosen.get("tabindex") == "0"


def test_suits_of_a_deck_have_different_marks(programs):
    for path, program in programs.items():
        deck = program.ruleset.deck
        first = {}
        for i, name in enumerate(program.card_names):
            first.setdefault(program.card_suit[i], name)
        shapes = [centre_mark(parse(card_face(program, name))) for name in first.values()]
        assert len(set(shapes)) == len(deck.suits), path
        assert len(set(suit_marks(deck).values())) == len(deck.suits), path


@pytest.mark.parametrize("n", [1, 2, 4, 8, 10, 12, 13, 17, 24])
def test_palettes_and_marks_of_larger_decks(tiny, n):
    suits = [f"S{k}" for k in range(n)]
    deck = tiny.ruleset.deck.model_copy(update={"suits": tuple(suits)})
    palette = suit_palette(deck)
    assert list(palette) == suits and len(set(palette.values())) == n
    for colour in palette.values():
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
        rgb = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
        lum = sum(w * (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
                  for w, c in zip((0.2126, 0.7152, 0.0722), rgb))
        assert 1.05 / (lum + 0.05) >= 4.5, colour  # readable on white
    assert suit_palette(deck) == palette
    if n <= 17:
        assert len(set(suit_marks(deck).values())) == n


def test_long_rank_names_are_cut_to_distinct_prefixes():
    assert rank_abbreviations(["1", "10", "Mantri", "Raja"]) == {"1": "1", "10": "10", "Mantri": "M", "Raja": "R"}
    assert rank_abbreviations(["F", "B", "Flower", "Bird", "Tree"]) == {
        "F": "F", "B": "B", "Flower": "Fl", "Bird": "Bi", "Tree": "T"}
    assert rank_abbreviations(["Dragon", "Dove", "Queen"]) == {"Dragon": "Dr", "Dove": "Do", "Queen": "Q"}
    assert rank_abbreviations(["Wazir", "Ghulam", "Wizard"]) == {"Wazir": "Wa", "Ghulam": "G", "Wizard": "Wi"}
    assert rank_abbreviations(["Dragon1", "Dragon2", "100", "2000"]) == {
        "Dragon1": "D1", "Dragon2": "D2", "100": "100", "2000": "2000"}
    assert rank_abbreviations(["king", "knave"]) == {"king": "Ki", "knave": "Kn"}


def test_names_from_the_file_are_escaped(tiny):
    odd = renamed(tiny, {"Red": '<&">', "Blue": "R'd & <b>"}, {"Dragon": "<Dr&gon>"})
    assert len(odd.card_names) == len(tiny.card_names)
    for name in odd.card_names:
        for selectable in (False, True):
            root = parse(card_face(odd, name, selectable=selectable))
            assert root.get("data-card") == name and root.find(SVG + "title").text == name
            assert_fits(root, name)
    root = parse(card_face(odd, '<Dr&gon>-<&">#2'))
    assert '<&">' in [e.text for e in texts(root)]
    assert "<Dr&gon>" in [e.text for e in texts(root)]


def test_long_names_shrink_or_are_cut_but_never_overflow(tiny):
    long = renamed(tiny, {"Red": "Parashuramavataramahasuit", "Blue": "W" * 80, "Green": "\u5927\u738b" * 6},
                   {"Dragon": "Supercalifragilistic", "10": "1234567890123"})
    for name in long.card_names:
        root = parse(card_face(long, name))
        assert_fits(root, name)
        assert root.find(SVG + "title").text == name  # the whole name is always in the title
    words = [e.text for e in texts(parse(card_face(long, "Supercalifragilistic-" + "W" * 80 + "#1")))]
    assert words[-1].endswith("\u2026")  # too long even at the smallest size: cut
    words = [e.text for e in texts(parse(card_face(long, "1234567890123-Parashuramavataramahasuit#2")))]
    assert words[0].endswith("\u2026") and "1234567890123" in words  # cut in the corners, whole in the middle


def test_copies_and_unknown_names(programs, tiny):
    program = programs["rulesets/euro-jongg/euro-jongg.cards"]
    one = parse(card_face(program, "A-Spades#1"))
    two = parse(card_face(program, "A-Spades#2"))
    assert one.get("data-card") == "A-Spades#1" and two.get("data-card") == "A-Spades#2"
    assert [e.text for e in texts(one)] == [e.text for e in texts(two)]
    assert parse(card_face(program, "A-Spades")).get("data-card") == "A-Spades"  # a copy's name without #n
    assert [e.text for e in texts(parse(card_face(tiny, "Dragon-Blue#2")))] == ["Dr", "Dr", "Dragon", "Blue"]
    with pytest.raises(KeyError):
        card_face(program, "Z-Nowhere")


def test_same_card_same_bytes():
    path = ROOT / "rulesets" / "mughal" / "sama.cards"
    text = path.read_text(encoding="utf-8")
    a = engine.program_of(interpreter.loads_ruleset(text, str(path)))
    b = engine.program_of(interpreter.loads_ruleset(text, str(path)))  # (two builds: load_ruleset keeps one)
    assert a is not b
    for name in a.card_names[::7]:
        assert card_face(a, name) == card_face(b, name) == card_face(a, name)
    assert suit_palette(a.ruleset.deck) == suit_palette(b.ruleset.deck)
    assert card_back(7) == card_back(7) and card_back() == card_back()


@pytest.mark.parametrize("count", [None, 0, 1, 7, 42, 120, 123456789])
def test_card_back(count):
    root = parse(card_back(count))
    assert root.get("class") == "card back"
    words = [e.text for e in texts(root)]
    if count is None:
        assert words == [] and root.get("data-count") is None
    else:
        assert words == [str(count)] and root.get("data-count") == str(count)
        assert str(count) in root.get("aria-label")
    assert root.find(SVG + "title").text == root.get("aria-label")
    assert_fits(root, f"back {count}")
