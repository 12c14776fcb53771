"""`cardrules diff`: rulesets compared on the rule graph. Renaming, reformatting and reordering
change nothing; every kind of change is reported by name, in words; exit codes 0/1/2; the
output is deterministic and the committed diff pages are fresh."""

from __future__ import annotations

import re
from pathlib import Path

from small_games import HtmlChecker
from typer.testing import CliRunner

from interpreter import load_ruleset, loads_ruleset
from interpreter.commands.cli import app
from interpreter.diff import REGENERATE, diff_rulesets, render_diff, variant_base, variant_pages, write_variant_diffs

ROOT = Path(__file__).resolve().parents[2]
GANJIFA_DIR = ROOT / "rulesets" / "ganjifa"
GANJIFA = GANJIFA_DIR / "ganjifa.cards"
DIFFS = ROOT / "generated_docs" / "diffs"

runner = CliRunner()

_loaded: dict[Path, object] = {}


def ruleset(path: Path):
    if path not in _loaded:
        _loaded[path] = load_ruleset(path)
    return _loaded[path]


def base_text() -> str:
    return GANJIFA.read_text(encoding="utf-8")


def edited(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, f"the test's edit does not apply: {old!r}"
        text = text.replace(old, new)
    return text


def from_text(text: str):
    # the file name sits beside the base, so a variant's base resolves as in the folder
    return loads_ruleset(text, str(GANJIFA_DIR / "edited.cards"))


def diff_cli(*args):
    return runner.invoke(app, ["diff", *[str(a) for a in args]])


def no_traceback(r) -> None:
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit), r.output


# ------------------------------------------------------------------ no change in meaning


RENAMED = (
    # comments and layout
    ("# ---- definitions ----", "#   the terms, rewritten    "),
    ("players 3..4\n", "players 3 .. 4   # three or four\n\n"),
    # an aggregate's variable and a definition's parameter
    ("define unbeatable(c: card) = all d in above(c): not held(d) or d.owner == c.owner",
     "define unbeatable(card1: card) = all x in above(card1): \\\n        not held(x) or x.owner == card1.owner"),
    # a let, used below it
    ("let best = highest c in trick where c.suit == first(trick).suit\n    set leader = best.played_by",
     "let top_card = highest q in trick where q.suit == first(trick).suit\n    set leader = top_card.played_by"),
    # a procedure's parameter and a for-each player variable
    ("procedure lead_trick(c: card):\n    move c to trick\n    for each player p after leader:\n        perform answer(p)",
     "procedure lead_trick(led: card):\n    move led to trick\n    for each player other after leader:\n        perform answer(other)"),
    # an action's parameter, and a let inside a phase used by a later rule
    ("action give_deni h in holding(leader) where can_give_deni(h) \"Give a Deni with this card.\":\n"
     "                    set gave_deni = true\n                    perform give_deni(h)",
     "action give_deni card in holding(leader) where can_give_deni(card) \"Give a Deni with this card.\":\n"
     "                    set gave_deni2 = true\n                    perform give_deni(card)"),
    ("let gave_deni = false", "let gave_deni2 = false"),
    ("if not gave_deni and", "if not gave_deni2 and"),
)


def renamed_copy() -> str:
    text = edited(base_text(), *RENAMED)
    # reorder: a definition moves to the top of the terms, an option to the end of the options
    low = 'define low(c: card) = not (c.rank in courts)\n    text "a numeral card"\n\n'
    text = edited(text, (low, ""), ("define leading_suit", low + "define leading_suit"))
    time = "option time: one of day, night = day \"Which Raja opens the game: Rama's by day, Krishna's by night.\"\n"
    text = edited(text, (time, ""), ("var leader: player", time + "var leader: player"))
    return text


def test_renaming_reformatting_and_reordering_is_no_change(tmp_path):
    copy = tmp_path / "ganjifa-copy.cards"
    copy.write_text(renamed_copy(), encoding="utf-8")
    d = diff_rulesets(ruleset(GANJIFA), load_ruleset(copy))
    assert d.identical, [c.text for c in d.changes]
    r = diff_cli(GANJIFA, copy, "--no-redline")
    assert r.exit_code == 0, r.output
    assert "identical in meaning" in r.stdout
    # the printed books do differ (the names are printed), and the redline shows it
    r = diff_cli(GANJIFA, copy)
    assert r.exit_code == 0
    assert "+`unbeatable(card1)`" in r.stdout


def test_a_ruleset_against_itself_is_identical():
    r = diff_cli(GANJIFA, GANJIFA)
    assert r.exit_code == 0, r.output
    assert "The two rulebooks are identical" in r.stdout


def test_a_renamed_local_that_now_names_another_binding_is_a_change():
    # `set doubled = true` becomes `set other = true`: same words shape, different variable
    text = edited(base_text(), ("    let doubled = false\n", "    let doubled = false\n    let other = false\n"),
                  ("                            set doubled = true", "                            set other = true"))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    rule = d.find("rule", "double_deni")
    assert rule and "set other = true" in rule[0].text and "set doubled = true" in rule[0].text
    assert d.find("procedure", "give_deni") and "let other = false" in d.find("procedure", "give_deni")[0].text


def test_an_action_with_two_values_is_no_change_when_lines_before_it_come_and_go():
    """Canfield, by a new user: a variant that took a loop out of one rule reported five changes,
    the conditions of every action with a second value (`z in zones(tableau)`) 'now' the same
    words they 'were'."""
    base = """game g "G"
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone pile[2] shared public
winner most score
define score(p: player) = 0
phase play "Play":
    rule deal "Deal":
        for each i in 1..3:
            move top(stock) to pile(1)
    rule lay "Lay":
        choose by seat(1):
            action lay c in stock, z in zones(pile) where count(z) < 4 and c.rank > 1:
                move c to z
"""
    d = diff_rulesets(loads_ruleset(base, "g.cards"),
                      loads_ruleset(base.replace("        for each i in 1..3:\n            move top(stock) to pile(1)\n",
                                                 "        move top(stock) to pile(1)\n"), "g.cards"))
    assert [c.name for c in d.changes if c.kind == "rule"] == ["deal"], [c.text for c in d.changes]


# ------------------------------------------------------------------ each variant, in words


def variant_diff(stem: str):
    return diff_rulesets(ruleset(GANJIFA), ruleset(GANJIFA_DIR / f"{stem}.cards"))


def test_inverted_ranking_says_which_suits_now_rank_upside_down():
    d = variant_diff("inverted-ranking")
    [c] = d.rule_changes
    assert c.kind == "deck order"
    for suit in ("Matsya", "Kurma", "Varaha", "Narasimha", "Vamana"):
        assert suit in c.sentence
    assert "Rama" not in c.sentence.split("(was")[0].replace("Raja", "")
    assert "numerals now rank upside down, 1 high" in c.sentence
    assert "10 down to 1, Mantri, Raja" in c.sentence and "was 1 up to 10, Mantri, Raja" in c.sentence


def test_no_optional_low_leads_says_the_option_is_off_by_default():
    d = variant_diff("no-optional-low-leads")
    [c] = d.rule_changes
    assert (c.kind, c.name) == ("option", "optional_low_leads")
    assert "the default is now false (was true)" in c.sentence


def test_face_up_deal_says_the_option_default():
    d = variant_diff("face-up-deal")
    [c] = d.rule_changes
    assert (c.kind, c.name) == ("option", "face_up_batches")
    assert "the default is now true (was false)" in c.sentence


def test_traditional_deni_says_what_a_deni_card_is_now():
    d = variant_diff("traditional-deni")
    [c] = d.rule_changes
    assert (c.kind, c.name) == ("definition", "deni_card")
    assert "and there is no card d above h in its suit such that d is held and d's owner is h's owner" in c.sentence
    assert "exactly one higher card of its suit is unplayed" in c.text


def test_mughal_says_deck_players_and_leading_suit():
    d = variant_diff("mughal-3p")
    deck = [c for c in d.rule_changes if c.kind == "deck"]
    assert deck and "Mughal pack" in deck[0].sentence and "96 cards in 8 suits" in deck[0].sentence
    assert "Surya" in deck[0].sentence and "Dashavatara" in deck[0].sentence
    [players] = d.find("players")
    assert players.sentence == "Players: for 3 players (was 3 or 4)"
    [lead] = d.find("definition", "leading_suit")
    assert "Surya if option `time` is day, otherwise Chandra" in lead.sentence
    assert "Rama if option `time` is day" in lead.sentence
    # a changed option description is prose, apart from the rules
    assert any(c.kind == "option" and c.name == "time" for c in d.prose_changes)
    assert not any(c.kind == "option" for c in d.rule_changes)


def test_a_variant_differs_exit_1_and_prose_is_apart():
    r = diff_cli(GANJIFA, GANJIFA_DIR / "face-up-deal.cards", "--no-redline")
    assert r.exit_code == 1, r.output
    text = r.stdout
    assert text.index("Changes to the rules") < text.index("face_up_batches") < text.index("Changes to the prose")
    assert "The variant's introduction is new" in text


# ------------------------------------------------------------------ rules, definitions, the rest


def test_a_changed_statement_inside_a_rule_is_reported_by_the_rule_name():
    text = edited(base_text(), (
        "action lead c in holding(leader) where may_lead(c) when",
        "action lead c in holding(leader) where may_lead(c) and c.suit == leading_suit when"))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    [c] = d.changes
    assert (c.kind, c.name, c.action, c.prose) == ("rule", "unbeatable_leads", "changed", False)
    assert c.sentence.startswith("Rule `unbeatable_leads` (Leading unbeatable cards), in phase `play` (Play), changed")
    detail = c.text
    assert "the condition on its choice (where) is now \u201cc may lead and c's suit is the leading suit\u201d" in detail
    assert "(was \u201cc may lead\u201d)" in detail
    assert "where may_lead(c) and c.suit == leading_suit" in detail  # the source, now


def test_reordering_statements_inside_a_rule_is_a_change():
    text = edited(base_text(), (
        "        set leader = card(Raja, leading_suit).owner\n        move card(Raja, leading_suit) to trick",
        "        move card(Raja, leading_suit) to trick\n        set leader = card(Raja, leading_suit).owner"))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    [c] = d.changes
    assert (c.kind, c.name) == ("rule", "leading_raja") and "1 step moved" in c.sentence
    assert "Move the Raja of the leading suit to the current trick" in c.text


def test_a_rule_condition_and_a_step_added_in_a_procedure():
    text = edited(base_text(),
                  ('rule sacrifice "Forced sacrifice":', 'rule sacrifice "Forced sacrifice" when count(holding(leader)) > 1:'),
                  ("    let doubled = false\n", "    let doubled = false\n    let spare = 1\n"))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    [rule] = d.find("rule", "sacrifice")
    assert "changed: its condition" in rule.sentence
    assert "before, always; now \u201cthe number of cards in the leader's holding is more than 1\u201d" in rule.text
    [proc] = d.find("procedure", "give_deni")
    assert "outside its rules: 1 step added" in proc.sentence and "Let spare be 1" in proc.text


def test_an_added_and_a_removed_definition():
    text = edited(base_text(),
                  ("define cards_won(p: player) = count(won(p))", "define cards_taken(p: player) = count(won(p)) + 0"),
                  ("winner most cards_won", "winner most cards_taken"),
                  ('    text "a numeral card"\n', '    text "a numeral card"\n\ndefine spare = 3\n'))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    actions = {(c.name, c.action) for c in d.find("definition")}
    assert actions == {("cards_taken", "added"), ("cards_won", "removed"), ("spare", "added")}
    [added] = d.find("definition", "cards_taken")
    assert "Definition `cards_taken` added" in added.sentence and "won in tricks" in added.sentence
    [removed] = d.find("definition", "cards_won")
    assert removed.sentence.startswith("Definition `cards_won` removed")
    [win] = d.find("winner")
    assert "most `cards_taken` (was: the player(s) with the most `cards_won`)" in win.sentence


def test_a_definition_renamed_with_the_same_meaning():
    text = edited(base_text(), ("define cards_won(p: player)", "define cards_taken(q: player)"),
                  ("count(won(p))", "count(won(q))"), ("winner most cards_won", "winner most cards_taken"))
    d = diff_rulesets(ruleset(GANJIFA), from_text(text))
    [c] = d.find("definition")
    assert c.sentence.startswith("Definition `cards_won` is now called `cards_taken`")


TINY = '''game tiny "Tiny"
players 2..3
turn order clockwise
at most 50 decisions

deck small "Small pack":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone pile shared public "pile"

option fast: bool = false "Play fast."
var turn_count: int = 0

define playable(c: card) = c.rank != 3 or fast
    text "any card but a 3, unless playing fast"
define score(p: player) = count(hand(p))

winner fewest score

phase deal "Deal" then play:
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each hand

phase play "Play":
    repeat:
        for each player p:
            rule play "Playing a card" when (any c in hand(p) where playable(c)):
                choose by p:
                    action play c in hand(p) where playable(c) "Play a card.":
                        move c to pile
        set turn_count = turn_count + 1
        if turn_count >= 3:
            break
'''


def test_every_kind_of_change_in_words(tmp_path):
    a = tmp_path / "tiny.cards"
    a.write_text(TINY, encoding="utf-8")
    b = tmp_path / "tiny2.cards"
    b.write_text(edited(
        TINY,
        ("players 2..3", "players 2"),
        ("turn order clockwise", "turn order anticlockwise"),
        ("at most 50 decisions", "at most 60 decisions"),
        ("    ranks 1..3\n", "    ranks 3, 2, 1\n    group high: 3\n"),
        ('zone pile shared public "pile"', 'zone pile shared hidden "pile"\nzone out shared public "cards out"'),
        ('option fast: bool = false "Play fast."', 'option fast: bool = true "Play fast."\noption rounds: 1..9 = 3 "Rounds."'),
        ("var turn_count: int = 0", "var turn_count: int = 1"),
        ("c.rank != 3 or fast", "c.rank != 3 and fast"),
        ("winner fewest score", "winner most score"),
        ("(any c in hand(p) where playable(c))", "(count(hand(p)) > 1)"),
        ("        if turn_count >= 3:", "        if turn_count >= rounds:"),
        ('phase play "Play":', 'phase play "Playing the cards":'),
    ), encoding="utf-8")
    d = diff_rulesets(load_ruleset(a), load_ruleset(b))
    sentences = "\n".join(c.sentence for c in d.changes)
    for expected in (
        "Players: for 2 players (was 2 or 3)",
        "Turn order: play now passes anticlockwise (was clockwise)",
        "Length: a game now takes at most 60 decisions (was at most 50)",
        "Ranks: all the ranks now rank upside down, 1 high: 1 is now the highest and 3 the lowest",
        "Rank group `high` added: 3",
        "Zone `pile` (\u201cpile\u201d) is now shared, nobody sees its cards (was shared, everyone sees its cards)",
        "Zone `out` (\u201ccards out\u201d) added",
        "Option `fast`: the default is now true (was false)",
        "Option `rounds` added: a whole number from 1 to 9, default 3",
        "Variable `turn_count` is now of type int, at first `1` (was of type int, at first `0`)",
        "Definition `playable`: before, \u201cc's rank is not 3, or option `fast` is on\u201d; "
        "now \u201cc's rank is not 3 and option `fast` is on\u201d",
        "Winning: the player(s) with the most `score` (was: the player(s) with the fewest `score`)",
        "Rule `play` (Playing a card), in phase `play` (Playing the cards), changed: its condition",
        "Phase `play` (Playing the cards) outside its rules: 1 step changed",
        "Phase `play` is now titled \u201cPlaying the cards\u201d (was \u201cPlay\u201d)",
    ):
        assert expected in sentences, f"{expected!r} not in:\n{sentences}"
    [title] = d.find("phase", "play")[1:] or [c for c in d.prose_changes if c.kind == "phase"]
    assert title.prose
    [step] = [c for c in d.find("phase", "play") if not c.prose]
    assert "its test is now \u201cthe turn count is at least option `rounds`\u201d (was \u201cthe turn count is at least 3\u201d)" \
        in step.text


# ------------------------------------------------------------------ errors, files, formats


def test_a_broken_file_exits_2_with_a_located_message(tmp_path):
    bad = tmp_path / "broken.cards"
    bad.write_text(edited(base_text(), ("define low(c: card) = not (c.rank in courts)",
                                        "define low(c: card) = not (c.rank in court)")), encoding="utf-8")
    r = diff_cli(GANJIFA, bad)
    assert r.exit_code == 2, r.output
    no_traceback(r)
    assert re.search(rf"{re.escape(str(bad))}:\d+:\d+: error: ", r.stderr), r.stderr
    assert r.stdout == ""
    r = diff_cli(tmp_path / "missing.cards", GANJIFA)
    assert r.exit_code == 2 and "no such ruleset file" in r.stderr
    no_traceback(r)
    syntax = tmp_path / "syntax.cards"
    syntax.write_text("game x\nplayers 2\ndeck d\n", encoding="utf-8")
    r = diff_cli(syntax, GANJIFA)
    assert r.exit_code == 2 and f"{syntax}:3:" in r.stderr
    no_traceback(r)


def test_a_bad_format_is_a_usage_error():
    r = diff_cli(GANJIFA, GANJIFA, "--format", "pdf")
    assert r.exit_code == 2


def test_output_is_deterministic():
    a, b = ruleset(GANJIFA), ruleset(GANJIFA_DIR / "no-optional-low-leads.cards")
    for fmt in ("text", "md", "html"):
        assert render_diff(diff_rulesets(a, b), a, b, fmt) == render_diff(diff_rulesets(a, b), a, b, fmt)
    one = diff_cli(GANJIFA, GANJIFA_DIR / "mughal-3p.cards", "--format", "html")
    two = diff_cli(GANJIFA, GANJIFA_DIR / "mughal-3p.cards", "--format", "html")
    assert one.exit_code == two.exit_code == 1 and one.stdout == two.stdout


def test_out_writes_the_file_and_keeps_the_exit_code(tmp_path):
    out = tmp_path / "sub" / "diff.md"
    r = diff_cli(GANJIFA, GANJIFA_DIR / "inverted-ranking.cards", "--format", "md", "--out", out)
    assert r.exit_code == 1, r.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# What changes: Ganjifa with inverted ranking\n")
    assert "```diff" in text and "## Changes to the rules" in text
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]
    r = diff_cli(GANJIFA, GANJIFA, "--out", tmp_path / "same.txt")
    assert r.exit_code == 0


def test_the_html_page_is_well_formed_and_marks_insertions_and_deletions():
    a, b = ruleset(GANJIFA), ruleset(GANJIFA_DIR / "inverted-ranking.cards")
    page = render_diff(diff_rulesets(a, b), a, b, "html", labels=("ganjifa.cards", "inverted-ranking.cards"))
    checker = HtmlChecker()
    checker.feed(page)
    assert not checker.errors and not checker.stack, (checker.errors, checker.stack)
    assert page.startswith("<!DOCTYPE html>") and "@page" in page
    assert "<del>1</del><ins>10</ins>" in page or ("<del>" in page and "<ins>" in page)
    assert page.index('id="rules"') < page.index('id="redline"')
    assert "Matsya, Kurma, Varaha, Narasimha and Vamana" in page


def test_variant_base_reads_the_header():
    assert variant_base(GANJIFA_DIR / "inverted-ranking.cards") == GANJIFA_DIR / "ganjifa.cards"
    assert variant_base(GANJIFA) is None


def test_write_variant_diffs(tmp_path):
    rs_dir = tmp_path / "rulesets" / "g"
    rs_dir.mkdir(parents=True)
    for name in ("ganjifa.cards", "face-up-deal.cards"):
        (rs_dir / name).write_text((GANJIFA_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    written = write_variant_diffs(tmp_path / "rulesets", tmp_path / "out")
    assert written == [tmp_path / "out" / "g" / "face-up-deal.md", tmp_path / "out" / "g" / "face-up-deal.html"]
    md = written[0].read_text(encoding="utf-8")
    assert "`rulesets/g/ganjifa.cards` \u2192 `rulesets/g/face-up-deal.cards`" in md
    assert str(tmp_path) not in md


# ------------------------------------------------------------------ committed pages


def test_committed_diff_pages_are_fresh():
    hint = (f"The diff pages in generated_docs/diffs/ are missing or stale. Regenerate them with\n"
            f"    {REGENERATE}\nand commit generated_docs/diffs/.")
    pages = variant_pages(ROOT / "rulesets", DIFFS)
    assert pages, "no variants found"
    for path, text in pages:
        rel = path.relative_to(ROOT)
        assert path.exists(), f"{rel} does not exist. {hint}"
        assert path.read_text(encoding="utf-8") == text, f"{rel} differs from a fresh render. {hint}"
    expected = {p for p, _ in pages}
    stale = sorted(p.relative_to(ROOT) for p in DIFFS.rglob("*") if p.is_file() and p not in expected)
    assert not stale, f"{', '.join(map(str, stale))}: no longer the diff of any variant; delete them. {hint}"


def test_the_newer_constructs_are_compared_in_the_language_and_in_words():
    mughal = GANJIFA_DIR.parent / "mughal"
    ham = (mughal / "hamrang.cards").read_text(encoding="utf-8")
    d = diff_rulesets(ruleset(mughal / "hamrang.cards"), loads_ruleset(
        edited(ham, ("starting after dealer", "starting from dealer")), str(mughal / "edited.cards")))
    [c] = d.changes
    assert "deal 4 from stock to each hand starting from dealer" in c.text
    assert "beginning with the dealer" in c.text
    udv = (mughal / "udvasa.cards").read_text(encoding="utf-8")
    d = diff_rulesets(ruleset(mughal / "udvasa.cards"), loads_ruleset(
        edited(udv, ("action shift c in work, z in zones(work) where", "action shift c in work, z in zones(build) where")),
        str(mughal / "edited.cards")))
    [c] = d.changes
    assert "action shift c in work, z in zones(build) where" in c.text and "a place z in build 1 to 8" in c.text and "was: `action shift c in work, z in zones(work)" in c.text
    game = """game g "G"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
var bid(p: player): int = 0
phase play "Play":
    rule bids "Bids":
        choose by each p in players:
            action bid n in 1..3:
                set bid(p) = n
        end game
"""
    d = diff_rulesets(loads_ruleset(game, "g.cards"), loads_ruleset(game.replace("choose by each", "choose secretly by each"), "g.cards"))
    [c] = d.changes
    assert "choose secretly by each p in players:" in c.text and "chooses in secret" in c.text, c.text
