"""The language reference (generated_docs/language.md and .html, from interpreter/language/reference.py):
it covers every keyword of the grammar and every built-in name the compiler knows, every example
on it loads in a real game, and the committed pages are what the generator writes now."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from small_games import HtmlChecker

from interpreter.language import reference as lang
from interpreter import loads_ruleset
from interpreter.compiler.program import _CARD_ATTRS, TYPE_WORDS
from interpreter.render import REGENERATE_PY
from interpreter.render.reference import (form_words, grammar_keywords, language_paths, render_language_html,
                                          render_language_markdown)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "generated_docs"
EXPRESSIONS = ROOT / "interpreter" / "compiler" / "expressions.py"

ALL_ENTRIES = [(s.title, e) for s in lang.CONSTRUCTS for e in s.entries] + \
    [("Built-ins", e) for e in lang.BUILTINS] + \
    [("Card attributes", e) for e in lang.CARD_ATTRIBUTES] + [("Zone attributes", e) for e in lang.ZONE_ATTRIBUTES] + \
    [("Suit and rank attributes", e) for e in lang.SUIT_RANK_ATTRIBUTES]

_pages: dict[str, str] = {}


def page(fmt: str) -> str:
    if fmt not in _pages:
        _pages[fmt] = render_language_markdown() if fmt == "md" else render_language_html()
    return _pages[fmt]


# ------------------------------------------------------------------ the game the examples go into
# What EXAMPLE_SETTING in interpreter/language/reference.py describes; each example is put into it by its place.

HEADER = 'game example "Example game"'
PLAYERS = "players 2..4"
DECK = """deck standard "Standard deck":
    suits Clubs, Diamonds, Hearts, Spades
    ranks 2..10, Jack, Queen, King, Ace
    group courts: Jack, Queen, King
    value points: Ace = 11, 10 = 10, King = 4, Queen = 3, Jack = 2"""
REST = """zone stock shared hidden "the stock"
zone hand per player owner "hand"
zone won per player hidden "cards won"
zone pile shared public "the discard pile"
zone spot[4] shared public "spot"

option target: 1..20 = 5 "Points needed to win."

var dealer: player = seat(1)
var leader: player = seat(1)
var chips(p: player): int = 20

define score(p: player) = count(won(p))
define meld(g: cards) = (all x in g: x.rank == first(g).rank) or (all x in g: x.suit == first(g).suit)
define pair(g: cards) = count(g) == 2 and first(g).rank == last(g).rank
define meld_score(g: cards) = sum x in g: x.order
define adds_to(g: cards, v: int) = (sum x in g: x.order) == v

procedure draw(q: player):
    move top(stock) to hand(q)"""
PLAY = """phase play "Play":
    rule turn "A turn":
        let p = leader
        let c = top(stock)
        let d = top(pile)
{statements}        pass"""


def _indent(text: str, by: int) -> str:
    return "".join(" " * by + line + "\n" for line in text.splitlines())


def game_text(entry: lang.Entry | None = None) -> str:
    """The example game, with the entry's example in its place (a game, not a variant)."""
    header, players, deck, items, statements = HEADER, PLAYERS, DECK, "", ""
    place, ex = (entry.place, entry.example) if entry else (None, "")
    if place == "header":
        header = ex
    elif place == "deck_line":
        deck += "\n" + _indent(ex, 4).rstrip("\n")
    elif place == "item" and ex.startswith("deck "):
        deck = ex
    elif place == "item" and ex.startswith("players "):
        players = ex
    elif place == "item":
        items = ex + "\n"
    elif place == "statement":
        statements = _indent(ex, 8)
    elif place == "expression":
        items = f"define example(p: player, c: card, d: card) = {ex}\n"
    return "\n\n".join([header, players, deck, REST, items + PLAY.format(statements=statements)]) + "\n"


def load_example(entry: lang.Entry, tmp_path: Path):
    if entry.place in ("variant_header", "variant_item"):
        base_name = "example.cards"
        if entry.place == "variant_header":
            m = re.search(r'\bof\s+"([^"]+)"', entry.example)
            assert m, f"the variant header example names no base file: {entry.example!r}"
            base_name = m.group(1)
            text = entry.example + "\n"
        else:
            text = 'variant example_variant "An example variant" of "example.cards"\n\n' + entry.example + "\n"
        (tmp_path / base_name).write_text(game_text(), encoding="utf-8")
        return loads_ruleset(text, str(tmp_path / "variant.cards"))
    return loads_ruleset(game_text(entry), str(tmp_path / "example.cards"))


def test_the_example_game_loads():
    rs = loads_ruleset(game_text())
    assert [z.name for z in rs.zones] == ["stock", "hand", "won", "pile", "spot"]


def test_every_entry_is_complete():
    for section, e in ALL_ENTRIES:
        assert e.name and e.form and e.words and e.example, f"{section}: entry {e.name!r} lacks a part"
        assert e.place in lang.PLACES, f"{section}: entry {e.name!r} has an unknown place {e.place!r}"
        assert e.words.rstrip().endswith((".", ")")), f"{section}: the words of {e.name!r} are not a sentence"
    for s in lang.CONSTRUCTS:
        names = [e.name for e in s.entries]
        assert len(names) == len(set(names)), f"section {s.title!r} has two entries with one name"


@pytest.mark.parametrize("section,entry", ALL_ENTRIES, ids=[f"{s}:{e.name}" for s, e in ALL_ENTRIES])
def test_every_example_loads(section, entry, tmp_path):
    try:
        load_example(entry, tmp_path)
    except Exception as exc:  # the message says which example, where it was put, and why it failed
        pytest.fail(f"the example of {entry.name!r} ({section}, placed as {entry.place}) does not load:\n"
                    f"{entry.example}\n-> {exc}")


def test_a_broken_example_is_caught(tmp_path):
    bad = lang.Entry("deal", "deal N ...", "Deals.", "deal 5 from stock to each pile", "statement")
    with pytest.raises(Exception):
        load_example(bad, tmp_path)


# ------------------------------------------------------------------ completeness


def test_every_grammar_keyword_has_an_entry():
    keywords = grammar_keywords()
    assert {"deal", "starting", "elif", "split", "any", "those"} <= set(keywords)  # quoted words and AGG's
    # the same words, read another way: every quoted word of the file outside comments
    text = (ROOT / "grammar" / "cards.lark").read_text(encoding="utf-8")
    quoted = {m.group(1) for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"|//[^\n]*|/(?:[^/\\\n]|\\.)+/', text)
              if m.group(1) is not None and re.fullmatch(r"[a-z_]+", m.group(1))}
    assert quoted and quoted <= set(keywords), sorted(quoted - set(keywords))
    used = set().union(*(form_words(e.form) for _, e in ALL_ENTRIES))
    missing = [k for k in keywords if k not in used]
    assert not missing, (f"grammar/cards.lark has keyword(s) no entry of interpreter/language/reference.py shows in its "
                         f"form: {', '.join(missing)}. Add an entry (form, words, one example) and regenerate "
                         f"with {REGENERATE_PY}.")
    md = page("md")
    for k in keywords:
        row = re.search(rf"^\| `{re.escape(k)}` \| (.*) \|$", md, re.M)
        assert row and "no entry" not in row.group(1), f"the keyword index on the page has no entry for {k!r}"


def _compiler_names() -> tuple[set[str], set[str], set[str]]:
    """From interpreter/compiler/expressions.py: the built-in functions (the `builtins` list in
    `builtin`), the built-in names (the names `e_Name` compares with) and the zone attributes
    (what `e_Attr` compares an attribute's name with)."""
    tree = ast.parse(EXPRESSIONS.read_text(encoding="utf-8"))
    funcs = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    builtins = set()
    for node in ast.walk(funcs["builtin"]):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "builtins" for t in node.targets):
            builtins = {c.value for c in node.value.elts}

    def compared(fn: ast.FunctionDef, var: str) -> set[str]:
        out = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == var \
                    and isinstance(node.ops[0], ast.Eq) and isinstance(node.comparators[0], ast.Constant):
                out.add(node.comparators[0].value)
        return out
    return builtins, compared(funcs["e_Name"], "n"), compared(funcs["e_Attr"], "a")


def test_every_builtin_the_compiler_knows_has_an_entry():
    functions, names, zone_attrs = _compiler_names()
    assert {"count", "top", "random", "abs"} <= functions and {"cards", "players", "player_count"} <= names
    documented = {e.name for e in lang.BUILTINS}
    missing = sorted((functions | names) - documented)
    assert not missing, (f"the compiler knows built-in(s) interpreter/language/reference.py does not document: "
                         f"{', '.join(missing)}")
    assert not sorted(documented - functions - names), "a documented built-in the compiler does not know"
    card_attrs = {e.name for e in lang.CARD_ATTRIBUTES}
    assert set(_CARD_ATTRS) <= card_attrs, f"undocumented card attributes: {set(_CARD_ATTRS) - card_attrs}"
    assert zone_attrs == {e.name for e in lang.ZONE_ATTRIBUTES}
    types = next(e for s in lang.CONSTRUCTS for e in s.entries if e.name == "types")
    assert TYPE_WORDS <= form_words(types.form), f"undocumented types: {TYPE_WORDS - form_words(types.form)}"
    md, html = page("md"), page("html")
    for e in lang.BUILTINS + lang.CARD_ATTRIBUTES + lang.ZONE_ATTRIBUTES + lang.SUIT_RANK_ATTRIBUTES:
        assert f"`{e.form}`" in md and f"<code>{e.form}</code>" in html, f"{e.form!r} is not on the page"


def test_every_entry_is_on_the_page():
    md, html = page("md"), page("html")
    for _, e in ALL_ENTRIES:
        assert f"\n### {e.name}\n\n`{e.form}`\n" in md
        assert "```\n" + e.example + "\n```" in md
    assert html.count('<div class="entry"') == len(ALL_ENTRIES)


# ------------------------------------------------------------------ the committed pages


def test_committed_pages_are_fresh():
    hint = (f"Regenerate the language reference with\n    {REGENERATE_PY}\nand commit generated_docs/.")
    md_path, html_path = language_paths(DOCS)
    for out, fmt in ((md_path, "md"), (html_path, "html")):
        assert out.exists(), f"{out.relative_to(ROOT)} does not exist. {hint}"
        assert out.read_text(encoding="utf-8") == page(fmt), f"{out.relative_to(ROOT)} differs. {hint}"


def test_the_html_page_is_well_formed():
    c = HtmlChecker()
    c.feed(page("html"))
    c.close()
    assert not c.errors and not c.stack, (c.errors, c.stack)
    assert len(c.ids) == len(set(c.ids)), "an id is used twice"
    assert set(c.hrefs) <= set(c.ids), f"links to missing ids: {set(c.hrefs) - set(c.ids)}"
    assert "rulebook.css" not in page("html") and "--accent" in page("html")  # the rulebooks' styles, inline
