"""The picture of how play flows (interpreter/render/diagram/): for every bundled ruleset a
well-formed, standalone SVG at most 16 cm wide, naming every phase and rule, a decision shape
for every `choose`, no text below 8 pt, the same bytes every time; and, on a tiny game, the
arrows between phases and the frame of a loop."""

from __future__ import annotations

import hashlib
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import procs
import pytest
from small_games import MINI_HEAD

from interpreter.language import graph as g
from interpreter import loads_ruleset
from interpreter.language.build import build_file
from interpreter.render.diagram import MIN_TEXT, PAGE_WIDTH, turn_svg
from interpreter.render.markup import _cap, human

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
SVG = "{http://www.w3.org/2000/svg}"

_cache: dict[Path, tuple[g.Ruleset, str]] = {}


def drawn(path: Path) -> tuple[g.Ruleset, str]:
    if path not in _cache:
        rs = build_file(path)
        _cache[path] = (rs, turn_svg(rs))
    return _cache[path]


def texts(root: ET.Element) -> list[str]:
    """Every text element's words, its lines (tspans) joined by spaces."""
    return [" ".join(" ".join(t.itertext()).split()) for t in root.iter(SVG + "text")]


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def reachable(rs: g.Ruleset) -> tuple[list[g.Rule], list[g.Choose]]:
    """The rules and decisions play can reach: in the phases and the procedures they perform
    (each procedure once)."""
    procs = {p.name: p for p in rs.procedures}
    rules: list[g.Rule] = []
    chooses: list[g.Choose] = []
    seen: set[str] = set()

    def walk(stmts):
        for s in stmts:
            if isinstance(s, g.Rule):
                rules.append(s)
            elif isinstance(s, g.Choose):
                chooses.append(s)
            elif isinstance(s, g.Perform) and s.name not in seen and s.name in procs:
                seen.add(s.name)
                walk(procs[s.name].body)
            for block in g.child_blocks(s):
                walk(block)
    for ph in rs.phases:
        walk(ph.body)
    return rules, chooses


def test_there_are_bundled_rulesets():
    assert len(RULESETS) >= 10


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_every_bundled_ruleset_is_drawn_whole(path):
    rs, svg = drawn(path)
    root = ET.fromstring(svg)  # well-formed
    assert root.tag == SVG + "svg"
    assert svg.startswith("<svg ") and svg.endswith("</svg>\n")
    for attr in ("width", "height", "viewBox"):
        assert root.get(attr), attr
    assert root.get("font-family") in ("sans-serif", "serif")
    # standalone: nothing fetched, nothing run
    assert "<script" not in svg and "href" not in svg and "url(" not in svg and "@import" not in svg
    assert not any(el.tag.endswith(("image", "foreignObject", "script")) for el in root.iter())

    words = texts(root)
    everything = "\n".join(words)
    for i, ph in enumerate(rs.phases, 1):
        assert f"Phase {i}: {ph.title or _cap(human(ph.name))}" in everything
    rules, chooses = reachable(rs)
    for r in rules:
        title = r.title or _cap(human(r.name))
        assert any(re.fullmatch(rf"(\d+\. )?{re.escape(title)}", w) for w in words), title
    decisions = [el for el in root.iter() if "decision" in classes(el) and el.tag == SVG + "polygon"]
    assert len(decisions) == len(chooses)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_fits_the_page_and_no_text_is_too_small(path):
    _, svg = drawn(path)
    root = ET.fromstring(svg)
    width_pt = float(root.get("width").removesuffix("pt"))
    height_pt = float(root.get("height").removesuffix("pt"))
    assert root.get("width").endswith("pt") and root.get("height").endswith("pt")
    vx, vy, vw, vh = map(float, root.get("viewBox").split())
    assert width_pt <= PAGE_WIDTH + 0.05  # 16 cm
    assert abs(width_pt / vw - height_pt / vh) < 0.01  # not stretched
    scale = width_pt / vw
    text_elements = list(root.iter(SVG + "text"))
    assert text_elements
    for t in text_elements:
        size = t.get("font-size")
        assert size is not None, ET.tostring(t)
        assert float(size) * scale >= MIN_TEXT - 0.01, (size, scale, " ".join(t.itertext()))


def test_the_same_ruleset_gives_the_same_bytes():
    path = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"
    rs, svg = drawn(path)
    assert turn_svg(rs) == svg
    assert turn_svg(build_file(path)) == svg
    # and in another process, with other hash seeds
    names = ["ganjifa/ganjifa.cards", "euro-jongg/euro-jongg.cards", "mughal/udvasa.cards"]
    code = ("import hashlib, sys\n"
            "from interpreter.language.build import build_file\n"
            "from interpreter.render.diagram import turn_svg\n"
            "for n in sys.argv[1:]:\n"
            "    print(hashlib.sha256(turn_svg(build_file('rulesets/' + n)).encode()).hexdigest())\n")
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(ROOT))
    out = procs.run([sys.executable, "-c", code, *names], cwd=ROOT, env=env, capture_output=True,
                    text=True, check=True, timeout=300).stdout.split()
    assert out == [hashlib.sha256(drawn(ROOT / "rulesets" / n)[1].encode()).hexdigest() for n in names]


# MINI's pack and table in three phases, with a procedure, a loop and a rule that ends the game
TINY = MINI_HEAD + """
procedure tidy(p: player):
    rule tidy_up "Tidying up":
        choose by p:
            action keep "Keep your cards.":
                pass
            action drop c in hand(p) "Drop a card.":
                move c to pile

phase deal "Dealing" then play:
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each hand

phase play "Play & <discard>" then score:
    while count(hand(turn)) > 0:
        rule discard "Discarding":
            choose by turn:
                action discard c in hand(turn) "Discard a card.":
                    move c to pile
                    perform tidy(turn)
                action stop "Stop.":
                    break
            set turn = next(turn)

phase score "Scoring" then deal:
    rule last "The last hand" when count(pile) > 4:
        end game
"""


def test_a_tiny_game_shows_its_phases_loop_and_decisions():
    svg = turn_svg(loads_ruleset(TINY, "tiny.cards"))
    root = ET.fromstring(svg)
    words = texts(root)
    # the title with & and < survives, escaped
    assert "&amp; &lt;discard&gt;" in svg and "Phase 2: Play & <discard>" in words
    # phase order: deal -> play -> score, and score leads back to deal
    edges = {(p.get("data-from"), p.get("data-to")) for p in root.iter(SVG + "path")
             if "phase-edge" in classes(p)}
    assert {("", "deal"), ("deal", "play"), ("play", "score"), ("score", "deal")} <= edges
    assert "then phase 1" in words
    # the loop: a frame headed by its condition, holding the rule, with a line back to its head
    loops = [el for el in root.iter(SVG + "g") if {"node", "loop"} <= classes(el)]
    assert len(loops) == 1
    loop_words = texts(loops[0])
    assert any(w.startswith("While ") and "turn" in w and "not empty" in w for w in loop_words), loop_words
    assert "1. Discarding" in loop_words
    assert [p for p in loops[0].iter(SVG + "path") if "back-edge" in classes(p)]
    # the decision and its two ways: discarding goes on, stopping leaves the loop
    assert "The turn chooses (2 actions)" in loop_words  # (texts() reads the no-break space as a space)
    assert {"discard", "stop"} <= set(loop_words)
    # the procedure: one box where it is performed, and its own frame with its rule and decision
    assert "Perform tidy" in loop_words
    procs = [el for el in root.iter(SVG + "g") if "procedure" in classes(el)]
    assert [p.get("data-name") for p in procs] == ["tidy"]
    assert "2. Tidying up" in texts(procs[0]) and "Player p chooses (2 actions)" in texts(procs[0])
    assert len([el for el in root.iter(SVG + "polygon") if "decision" in classes(el)]) == 2
    # the conditional rule that ends the game, and the way on when it does not apply
    assert "The game ends" in words and "otherwise" in words
    dashed = [el for el in root.iter(SVG + "rect") if "rule" in classes(el) and el.get("stroke-dasharray")]
    assert len(dashed) == 1
