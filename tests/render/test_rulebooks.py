"""Printable rulebooks: the committed books are fresh, and a book says what the graph says
(deck orders, variant changes, options, interpretations, numbered rules), in well-formed HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from small_games import HtmlChecker

from interpreter import RulesetError, RulesetSyntaxError, load_ruleset
from interpreter.render import (REGENERATE, REGENERATE_PY, book_paths, english, render_html,
                                render_markdown, write_rulebooks)

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
DOCS = ROOT / "generated_docs"
GANJIFA = ROOT / "rulesets" / "ganjifa"

_loaded: dict[Path, object] = {}
_rendered: dict[tuple[Path, str], str] = {}


def ruleset(path: Path):
    if path not in _loaded:
        _loaded[path] = load_ruleset(path)
    return _loaded[path]


def book(path: Path, fmt: str = "md") -> str:
    key = (path, fmt)
    if key not in _rendered:
        rs = ruleset(path)
        _rendered[key] = render_markdown(rs) if fmt == "md" else render_html(rs)
    return _rendered[key]


def section(md: str, heading: str) -> str:
    """The text of a Markdown section from its '## heading' line to the next '## '."""
    m = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", md, re.S | re.M)
    assert m, f"no section {heading!r}"
    return m.group(1)


def variant_box(md: str) -> str:
    lines = md.split("## Contents")[0].splitlines()
    return "\n".join(line for line in lines if line.startswith(">"))


def deck_rows(md: str) -> dict[str, str]:
    rows = {}
    for line in section(md, "The cards").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] not in ("Suit", "---"):
            rows[cells[0]] = cells[1]
    return rows


# ------------------------------------------------------------------ committed books


def test_there_are_rulesets_to_render():
    assert len(RULESETS) >= 6


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_committed_books_are_fresh(path: Path):
    md_path, html_path = book_paths(path, DOCS)
    hint = (f"The rulebook for {path.relative_to(ROOT)} is missing or stale. Regenerate the books with\n"
            f"    {REGENERATE}\nor, without the command line,\n    {REGENERATE_PY}\n"
            f"and commit generated_docs/.")
    for out, fmt in ((md_path, "md"), (html_path, "html")):
        assert out.exists(), f"{out.relative_to(ROOT)} does not exist. {hint}"
        assert out.read_text(encoding="utf-8") == book(path, fmt), f"{out.relative_to(ROOT)} differs. {hint}"


def test_rendering_is_deterministic():
    rs = load_ruleset(GANJIFA / "ganjifa.cards")
    assert render_markdown(rs) == book(GANJIFA / "ganjifa.cards", "md")
    assert render_html(rs) == book(GANJIFA / "ganjifa.cards", "html")


def test_books_name_no_paths_or_dates():
    for fmt in ("md", "html"):
        text = book(GANJIFA / "inverted-ranking.cards", fmt)
        assert str(ROOT) not in text
        assert ".cards" not in text
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text)


# ------------------------------------------------------------------ paths and writing


def test_book_paths():
    out = Path("generated_docs")
    assert book_paths(Path("rulesets/ganjifa/face-up-deal.cards"), out) == (
        out / "ganjifa" / "face-up-deal.md", out / "ganjifa" / "face-up-deal.html")
    assert book_paths(GANJIFA / "ganjifa.cards", out) == (out / "ganjifa" / "ganjifa.md",
                                                          out / "ganjifa" / "ganjifa.html")
    assert book_paths(Path("rulesets/solo.cards"), out) == (out / "solo.md", out / "solo.html")
    assert book_paths(Path("/somewhere/else/mygame.cards"), out) == (out / "mygame.md", out / "mygame.html")


def test_write_rulebooks_writes_both_books(tmp_path: Path):
    paths = [GANJIFA / "ganjifa.cards", GANJIFA / "no-optional-low-leads.cards"]
    written = write_rulebooks(paths, tmp_path / "out")
    assert written == [tmp_path / "out" / "ganjifa" / n for n in
                       ("ganjifa.md", "ganjifa.html", "no-optional-low-leads.md", "no-optional-low-leads.html")]
    assert written[0].read_text(encoding="utf-8") == book(GANJIFA / "ganjifa.cards", "md")
    assert written[3].read_text(encoding="utf-8") == book(GANJIFA / "no-optional-low-leads.cards", "html")
    leftovers = [p for p in (tmp_path / "out").rglob("*") if p.is_file() and p not in written]
    assert leftovers == []


def test_write_rulebooks_raises_for_a_bad_ruleset_and_writes_nothing(tmp_path: Path):
    bad = tmp_path / "rulesets" / "games" / "bad.cards"
    bad.parent.mkdir(parents=True)
    bad.write_text("game bad\nplayers 2\nphase p:\n    move nowhere to trick\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises((RulesetError, RulesetSyntaxError)):
        write_rulebooks([GANJIFA / "ganjifa.cards", bad], out)
    assert not out.exists() or not any(out.rglob("*.*"))


def test_write_rulebooks_replaces_an_existing_book(tmp_path: Path):
    md_path, _ = book_paths(GANJIFA / "ganjifa.cards", tmp_path)
    md_path.parent.mkdir(parents=True)
    md_path.write_text("old", encoding="utf-8")
    write_rulebooks([GANJIFA / "ganjifa.cards"], tmp_path)
    assert md_path.read_text(encoding="utf-8") == book(GANJIFA / "ganjifa.cards", "md")


# ------------------------------------------------------------------ what a book says


def test_header_has_title_players_direction_and_intro():
    md = book(GANJIFA / "ganjifa.cards")
    rs = ruleset(GANJIFA / "ganjifa.cards")
    assert md.startswith(f"# {rs.title}\n")
    assert "3 or 4 players" in md.split("## Contents")[0]
    assert "Play passes anticlockwise (seats are numbered in the order of play)" in md
    for t in rs.texts:
        assert t in md


def test_inverted_deck_shows_each_suits_order():
    counting = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, Mantri, Raja"
    inverted = "10, 9, 8, 7, 6, 5, 4, 3, 2, 1, Mantri, Raja"
    rows = deck_rows(book(GANJIFA / "inverted-ranking.cards"))
    assert rows["Matsya"] == inverted
    assert rows["Vamana"] == inverted
    assert rows["Rama"] == counting
    base = deck_rows(book(GANJIFA / "ganjifa.cards"))
    assert base["Matsya"] == counting and base["Rama"] == counting
    assert inverted not in book(GANJIFA / "ganjifa.cards")
    html = book(GANJIFA / "inverted-ranking.cards", "html")
    assert f'<td>Matsya</td><td class="order">{inverted}</td>' in html
    assert f'<td>Rama</td><td class="order">{counting}</td>' in html


def test_variant_book_names_its_base_and_each_change():
    base_title = ruleset(GANJIFA / "ganjifa.cards").title
    assert variant_box(book(GANJIFA / "ganjifa.cards")) == ""
    for name in ("face-up-deal", "no-optional-low-leads", "inverted-ranking", "mughal-3p", "traditional-deni"):
        rs = ruleset(GANJIFA / f"{name}.cards")
        box = variant_box(book(GANJIFA / f"{name}.cards"))
        assert base_title in box, name
        assert len(re.findall(r"^> - ", box, re.M)) == len(rs.changes), name
        for c in rs.changes:
            if c.name not in ("order", "players", "direction", "winner"):
                assert c.name in box, (name, c)
        for t in rs.variant_texts:
            assert t in box
        if not any(c.what == "description" for c in rs.changes):  # (an `about` line describes the game anew)
            assert rs.texts == ruleset(GANJIFA / "ganjifa.cards").texts  # the base's intro is kept
    low = variant_box(book(GANJIFA / "no-optional-low-leads.cards"))
    assert re.search(r"Option `optional_low_leads`: default is now false", low)
    face = variant_box(book(GANJIFA / "face-up-deal.cards"))
    assert re.search(r"Option `face_up_batches`: default is now true", face)
    inv = variant_box(book(GANJIFA / "inverted-ranking.cards"))
    assert "Deck order: Matsya, Kurma, Varaha, Narasimha, Vamana now rank 10, 9" in inv
    mughal = variant_box(book(GANJIFA / "mughal-3p.cards"))
    assert "Players: 3" in mughal and "Mughal pack" in mughal
    html = book(GANJIFA / "face-up-deal.cards", "html")
    assert 'id="variant"' in html and "<code>face_up_batches</code>: default is now true" in html


def test_changed_definition_is_marked_and_shown():
    md = book(GANJIFA / "traditional-deni.cards")
    terms = section(md, "Terms")
    assert "### deni card *(changed in this variant)*" in terms
    assert "exactly one higher card of its suit is unplayed" in terms.split("### deni card")[1]
    assert "(changed in this variant)" not in section(book(GANJIFA / "ganjifa.cards"), "Terms")


def test_every_option_and_interpretation_appears():
    for path in RULESETS:
        rs = ruleset(path)
        md, html = book(path), book(path, "html")
        if not rs.options:
            assert "## Options" not in md
        options = section(md, "Options") if rs.options else ""
        for o in rs.options:
            assert f"`{o.name}`" in options, (path.name, o.name)
            assert f"<code>{o.name}</code>" in html
        silent = section(md, "Where the source is silent") if rs.interpretations else ""
        for i, interp in enumerate(rs.interpretations, 1):
            assert f"{i}. **{interp.question}**" in silent, (path.name, interp.name)
            for t in interp.texts:
                assert t in silent


def test_every_zone_and_definition_appears():
    rs = ruleset(GANJIFA / "ganjifa.cards")
    md = book(GANJIFA / "ganjifa.cards")
    zones = section(md, "Where the cards lie")
    assert "| `stock` | the undealt pack | shared | nobody (face down) |" in zones
    # (an option deals some batches face up)
    assert ("| `hand` | hand | one per player | only its owner; everyone sees the cards the rules deal "
            "face up |") in zones
    assert "| `trick` | the current trick | shared | everyone |" in zones
    terms = section(md, "Terms")
    for d in rs.defines:
        assert f"`{d.name}" in terms
        for t in d.texts + d.notes:
            assert t in terms


def test_definitions_read_as_english():
    rs = ruleset(GANJIFA / "ganjifa.cards")
    defines = {d.name: d for d in rs.defines}

    def plain(name):
        return english(defines[name].body, rs).replace("*", "")
    assert plain("unbeatable") == "every card d above c in its suit satisfies: d is not held, or d's owner is c's owner"
    assert plain("leading_suit") == "Rama if option `time` is day, otherwise Krishna"
    assert plain("holding") == "p's hand together with p's Deni card laid face up"
    assert plain("low") == "c's rank is not one of the courts"
    assert plain("may_lead") == "option `optional_low_leads` is on and c is lowest unbeatable"
    assert plain("rivals_above") == ("the number of cards d above c in its suit such that d is held "
                                     "and d's owner is not c's owner")
    # without a ruleset the calls are unknown: they fall back to their source text, in code
    assert english(defines["must_lead"].body) == \
        "`unbeatable(c)` and it is not the case that `lowest_unbeatable(c)`"


def test_comparisons_by_ranking_read_as_english():
    ekrang = book(ROOT / "rulesets" / "mughal" / "ekrang.cards").replace("*", "")
    assert "Precisely: c ranks no lower than the 8 of its suit." in ekrang  # c.rank >= 8
    assert "Precisely: c ranks below the second card, or there is no card d" in ekrang  # c < second_card
    hamrang = book(ROOT / "rulesets" / "mughal" / "hamrang.cards").replace("*", "")
    assert "the top card of q's card drawn for the deal ranks above the top card of p's card drawn for the deal" in hamrang


def test_rules_are_numbered_per_phase():
    for path in RULESETS:
        rs = ruleset(path)
        play = section(book(path), "How to play")
        phases = re.split(r"^### ", play, flags=re.M)[1:]
        assert len(phases) == len(rs.phases)
        for ph, text in zip(rs.phases, phases):
            assert text.startswith(f"Phase {rs.phases.index(ph) + 1}: {ph.title}")
            numbers = [int(n) for n in re.findall(r"^#### (\d+)\. ", text, re.M)]
            assert numbers == list(range(1, len(numbers) + 1)) and numbers, (path.name, ph.name)
    play = section(book(GANJIFA / "ganjifa.cards"), "How to play")
    titles = re.findall(r"^#### (\d+\. .*)$", play, re.M)
    assert titles == ["1. The deal", "1. The leading Raja", "2. Opening cards", "1. Leading unbeatable cards",
                      "2. Giving a Deni", "3. Doubling the Deni", "4. Passing the lead", "5. Forced sacrifice"]


def test_rules_show_texts_conditions_and_steps():
    md = book(GANJIFA / "ganjifa.cards")
    play = section(md, "How to play")
    rs = ruleset(GANJIFA / "ganjifa.cards")
    assert "When this phase is over, the game continues with phase 2, *The opening trick*." in play
    assert play.rstrip().endswith("When this phase is over, the game ends.")
    assert ("**Applies only when** there is a card *h* in the leader's *holding* such that "
            "*h* *can give deni*.") in play
    assert "- The leader chooses one of:" in play
    assert "*Give a Deni with this card.* (`give_deni`): a card *h* in the leader's *holding*" in play
    assert "- Set the leader to the next player after the leader." in play
    assert "Each other player *p*, in turn after the leader:" in play
    assert "This rule is part of the procedure *give deni*, which rule 2 follows." in play
    for ph in rs.phases:
        for s in ph.body:
            for t in getattr(s, "texts", ()):
                assert t in play
    procs = section(md, "Procedures used above")
    assert "### Take trick" in procs and "Apply rule 3 of Play, *Doubling the Deni*." in procs
    assert "The player(s) with the most *cards won* win; tied players share the win." in section(md, "Winning")


def test_changing_a_rule_body_changes_the_book(tmp_path: Path):
    source = (GANJIFA / "ganjifa.cards").read_text(encoding="utf-8")
    original = book(GANJIFA / "ganjifa.cards")
    assert "                    set leader = next(leader)\n" in source
    changed = tmp_path / "ganjifa.cards"
    changed.write_text(source.replace("                    set leader = next(leader)\n",
                                      "                    set leader = previous(leader)\n"), encoding="utf-8")
    md = render_markdown(load_ruleset(changed))
    assert md != original
    assert "- Set the leader to the player before the leader." in md
    assert "- Set the leader to the next player after the leader." not in md
    # a variant that replaces a rule: the new body is described, the rule is marked changed
    variant = tmp_path / "fast-lead.cards"
    variant.write_text(
        'variant fast_lead "Fast lead" of "ganjifa.cards"\n\n'
        'rule pass_lead "Passing the lead":\n'
        '    text "The lead passes at once."\n'
        '    set leader = previous(leader)\n', encoding="utf-8")
    vmd = render_markdown(load_ruleset(variant))
    assert "#### 4. Passing the lead *(changed in this variant)*" in vmd
    assert "The lead passes at once." in vmd
    assert re.search(r"^> - Rule `pass_lead` \(\*Passing the lead\*\) is replaced: see Play, rule 4$", vmd, re.M)
    rule4 = vmd.split("#### 4. Passing the lead")[1].split("####")[0]
    assert "Set the leader to the player before the leader." in rule4
    assert "As long as" not in rule4


# ------------------------------------------------------------------ HTML


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_html_is_well_formed_with_contents(path: Path):
    html = book(path, "html")
    checker = HtmlChecker()
    checker.feed(html)
    checker.close()
    assert checker.doctype
    assert checker.errors == []
    assert checker.stack == []
    assert len(checker.ids) == len(set(checker.ids)), "duplicate ids"
    assert set(checker.hrefs) <= set(checker.ids), set(checker.hrefs) - set(checker.ids)
    for needed in ("overview", "deck", "zones", "play", "interpretations"):
        assert needed in checker.toc_hrefs
    assert "@page" in html and "size: A4" in html and "counter(page)" in html
    assert "break-before: page" not in html and "break-after: page" not in html  # no half-empty pages
    assert 'id="quick-reference"' in html
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html), "the page must be standalone"
    assert "<script" not in html


def test_html_escapes_author_text(tmp_path: Path):
    source = (GANJIFA / "ganjifa.cards").read_text(encoding="utf-8")
    game = tmp_path / "g.cards"
    game.write_text(source.replace('text "The tied players share the win."',
                                   'text "Tied <b>players</b> & friends share the win."'), encoding="utf-8")
    html = render_html(load_ruleset(game))
    assert "Tied &lt;b&gt;players&lt;/b&gt; &amp; friends share the win." in html
    assert "<b>players</b>" not in html


MINI = '''game mini "Mini <game> & co"
players 2..5
turn order clockwise

text "A tiny game that uses most statements."
note "Only for tests."

deck small:
    suits Red, Blue
    ranks 1..4, King
    copies 2
    group royals: King
    value points: 1 = 1, 2 = 2, King = 10
    order for Blue: King, 4, 3, 2, 1

zone pile shared hidden
zone hand per player owner
zone table per player public "table"

option rounds: 1..3 = 2 "How many rounds."
option speed: one of slow, fast = slow
option bonus: bool = false

var turns: int = 0
var starter: player

define score(p: player) = sum c in table(p): c.points
define top_blue = highest c in cards where c.suit == Blue and c in pile
define big(c: card) = c.rank in [King] or c.rank in royals
define none_left = count(pile) == 0 and not bonus
define lowish(c: card) = c.order <= 2 and c.order != 1

winner fewest score

procedure play_one(p: player):
    choose by p:
        action put c in hand(p) where not big(c) when turns < 10 "Put a card down.":
            move c to table(p) face up
        action pass_turn:
            pass

phase setup "Setup" then main:
    shuffle pile
    deal 3 from pile to each hand
    set starter = previous(next(starter))
    reveal top_blue

phase main "Main":
    rule loop "The loop":
        repeat:
            for each player p from starter:
                perform play_one(p)
            set turns = turns + 1
            if turns >= rounds:
                break
            elif speed == fast:
                end game
            else:
                pass
    rule count_up "Counting" when none_left or any(pile):
        for each c in cards_of(Red):
            if c.played_by == starter and lowish(c) and last(pile) != none:
                move pile to table(starter)
        let r = if bonus then 1 else 2
        while no(pile) and r > 0 and (count c in cards where big(c)) >= 2:
            set r = r - 1

interpretation odd "Is this a real game?":
    text "No."
'''


def test_more_than_one_is_said_in_the_singular():
    """(count p in players where contending(p)) > 1 reads as English does: "more than one player"."""
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "mughal" / "hamrang.cards"))
    assert "there is more than one player *p* such that *p* is *contending*" in md
    assert "more than 1 players" not in md


def test_a_game_using_most_statements_renders(tmp_path: Path):
    path = tmp_path / "mini.cards"
    path.write_text(MINI, encoding="utf-8")
    rs = load_ruleset(path)
    md, html = render_markdown(rs), render_html(rs)
    for expected in (
        "| Blue | King, 4, 3, 2, 1 | own order |",
        "| points | 1 = 1, 2 = 2, King = 10 |",
        "The deck has 20 cards: 2 suits of 5 ranks, with 2 copies of each card.",
        "- Deal 3 cards from the pile to each player's hand, each player's share at once, one player after another in "
        "turn order.",
        "- Set the starter to the player before the next player after the starter.",
        "- Show the *top blue* to every player.",
        "- Repeat the following until told to stop:",
        "Each player *p* in turn, starting with the starter:",
        "- Stop repeating.",
        "- Otherwise, if option `speed` is fast:",
        "- The game ends at once.",
        "**Applies only when** *none left* holds, or the pile is not empty.",
        "- For each card *c* of the suit Red:",
        "- Move all cards of the pile to the starter's table.",
        "- Let *r* be 1 if option `bonus` is on, otherwise 2.",
        "there are at least 2 cards *c* such that *c* is *big*:",
        "only when the turns is less than 10 \u2014 move *c* to *p*'s table, face up.",
        "The player(s) with the lowest *score* win; tied players share the win.",
        "the total of *c*'s points over every card *c* in *p*'s table",
        "*c*'s rank position is at most 2 and *c*'s rank position is not 1",
    ):
        assert expected in md, expected
    assert "`" + "(" not in md  # no expression fell back to source text
    checker = HtmlChecker()
    checker.feed(html)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    assert "<h1>Mini &lt;game&gt; &amp; co</h1>" in html
