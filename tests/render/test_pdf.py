"""PDF rulebooks (Typst) and the quick reference at the front of every book: the committed PDFs
are fresh, a PDF says what the graph says (every phase and rule title), has its contents, a
running header with the game's name and page numbers, A4 or Letter, survives text full of Typst
mark-up characters; the `--pdf` command line, and its one-line hint when typst is missing."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("typst")

from typer.testing import CliRunner  # noqa: E402

from interpreter import load_ruleset, loads_ruleset  # noqa: E402
from interpreter.commands.cli import app  # noqa: E402
from interpreter.render import REGENERATE_PY, render_html, render_markdown, write_rulebooks  # noqa: E402
from interpreter.render import book_context  # noqa: E402
from interpreter.render.pdf import (STAMP, PdfUnavailable, compile_typst, escape_typst, pdf_path,  # noqa: E402
                                    render_pdf, render_typst, source_stamp, stamped, to_typst)
from interpreter.render.markup import code, em, link  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
DOCS = ROOT / "generated_docs"
SAMPLE = [ROOT / "rulesets" / p for p in ("ganjifa/ganjifa.cards", "euro-jongg/euro-jongg.cards",
                                          "mughal/udvasa.cards", "ganjifa/traditional-deni.cards")]
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

_pdfs: dict[tuple[Path, str], bytes] = {}
_pages: dict[tuple[Path, str], list[str]] = {}


def pdf(path: Path, paper: str = "a4") -> bytes:
    key = (path, paper)
    if key not in _pdfs:
        _pdfs[key] = render_pdf(load_ruleset(path), paper)
    return _pdfs[key]


def page_texts(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def pages(path: Path, paper: str = "a4") -> list[str]:
    key = (path, paper)
    if key not in _pages:
        _pages[key] = page_texts(pdf(path, paper))
    return _pages[key]


def norm(text: str) -> str:
    """Text as compared: typographic quotes as straight ones, words broken at a line end joined,
    runs of white space as one space. (A PDF maps each glyph to one character, so once Typst has
    hyphenated a word, every hyphen of that font may read as a soft hyphen, U+00AD.)"""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = re.sub(r"(\w)[-\u00ad][ \t]*\n\s*(\w)", r"\1\2", text)
    return re.sub(r"\s+", " ", text.replace("\u00ad", "-")).strip()


def flat(path: Path, paper: str = "a4") -> str:
    return norm("\n".join(pages(path, paper)))


# ------------------------------------------------------------------ committed PDFs


def stamp_of(data: bytes) -> str | None:
    """The source stamp among a PDF's keywords (render/pdf.py), or None."""
    words = (pypdf.PdfReader(io.BytesIO(data)).metadata or {}).get("/Keywords") or ""
    return next((w[len(STAMP):] for w in re.split(r"[,\s]+", words) if w.startswith(STAMP)), None)


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_committed_pdfs_are_fresh(path: Path):
    """A PDF whose stamp is that of the source the book would be typeset from now (and the same
    typst) is current without typesetting it. Otherwise it is typeset: Typst's output is
    byte-stable, so equal bytes pass at once; else (another typst version, say) the texts must
    agree."""
    committed = pdf_path(path, DOCS)
    hint = (f"The PDF rulebook for {path.relative_to(ROOT)} is missing or stale. Regenerate the books "
            f"with\n    {REGENERATE_PY}\nand commit generated_docs/.")
    assert committed.exists(), f"{committed.relative_to(ROOT)} does not exist. {hint}"
    old = committed.read_bytes()
    if stamp_of(old) == source_stamp(render_typst(load_ruleset(path))):
        return
    new = pdf(path)
    if old != new:
        assert norm("\n".join(page_texts(old))) == norm("\n".join(page_texts(new))), \
            f"{committed.relative_to(ROOT)} differs. {hint}"


def bookmarks(data) -> dict[str, int]:
    """The PDF's bookmarks: {title: page number from 1}."""
    reader = pypdf.PdfReader(data if isinstance(data, Path) else io.BytesIO(data))
    out = {}

    def walk(items):
        for it in items:
            if isinstance(it, list):
                walk(it)
            else:
                out.setdefault(it.title, reader.get_destination_page_number(it) + 1)
    walk(reader.outline)
    return out


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_quick_reference_fits_on_the_first_page(path: Path):
    """Read from the committed PDF, which test_committed_pdfs_are_fresh holds to what the tool
    makes now. The quick reference cannot break across pages: one too long for the rest of the
    first page starts on the second, where its bookmark then points (reading the bookmarks needs no
    text taken out of a page, which is most of a PDF's reading time)."""
    marks = bookmarks(pdf_path(path, DOCS))
    assert marks.get("Quick reference") == 1, marks


def test_a_quick_reference_too_long_for_the_first_page_is_told_by_its_bookmark():
    """The check above can fail: forty options push Hearts' quick reference past its first page."""
    text = (ROOT / "rulesets" / "classic" / "hearts.cards").read_text(encoding="utf-8")
    extra = "".join(f'option spare_{i}: bool = true "An option of no effect, here to lengthen the quick reference."\n'
                    for i in range(40))
    text = text.replace("\nvar shift", "\n" + extra + "var shift", 1)
    assert extra in text
    rs = loads_ruleset(text, str(ROOT / "rulesets" / "classic" / "hearts-long.cards"))
    assert bookmarks(render_pdf(rs)).get("Quick reference") == 2


def test_pdf_is_byte_stable():
    rs = load_ruleset(SAMPLE[2])
    assert render_pdf(rs) == pdf(SAMPLE[2])


def test_a_pdf_carries_the_stamp_of_its_source_and_a_changed_book_another():
    """What lets the freshness test above skip typesetting: the stamp is the source's, and any
    change to the book's text (a rule's wording) is a change of stamp."""
    rs = load_ruleset(SAMPLE[2])
    source = render_typst(rs)
    assert stamp_of(pdf(SAMPLE[2])) == source_stamp(source) and len(source_stamp(source)) == 24
    changed = source.replace(rs.title or rs.name, (rs.title or rs.name) + " (house copy)", 1)
    assert changed != source and source_stamp(changed) != source_stamp(source)
    assert stamp_of(compile_typst(stamped(changed))) == source_stamp(changed)
    assert stamp_of(compile_typst(source)) is None  # a PDF typeset elsewhere is typeset again to compare


# ------------------------------------------------------------------ what a PDF says


# Ganjifa and Euro-Jongg (the largest book) in the default run; Udvasa and Traditional Deni with the slow tests
@pytest.mark.parametrize("path", [p if i < 2 else pytest.param(p, marks=pytest.mark.slow) for i, p in enumerate(SAMPLE)],
                         ids=[p.stem for p in SAMPLE])
def test_every_phase_and_rule_title_appears(path: Path):
    book = book_context(load_ruleset(path))
    text = flat(path)
    for ph in book["phases"]:
        assert norm(ph.heading) in text, ph.heading
        for r in ph.rules:
            assert norm(f"{r.number}. {r.title}") in text, r.title
    for t in book["texts"]:
        assert norm(t)[:60] in text


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_running_header_and_page_numbers(path: Path):
    title = load_ruleset(path).title
    texts = pages(path)
    assert len(texts) >= 3
    assert texts[0].strip().splitlines()[-1].strip() == "1"
    for i, t in enumerate(texts[1:], 2):
        lines = [ln.strip() for ln in t.strip().splitlines() if ln.strip()]
        assert norm(lines[0]).startswith(norm(title)), (i, lines[0])  # the running header
        assert lines[-1] == str(i), (i, lines[-1])  # the page number at the foot


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_contents_lists_the_sections_with_page_numbers(path: Path):
    book = book_context(load_ruleset(path))
    texts = pages(path)
    where = next(i for i, t in enumerate(texts) if "Contents" in t)
    assert where <= 1
    toc = norm((texts[where] + "\n" + texts[where + 1]).split("Contents", 1)[1])
    last = 0
    for s in book["sections"]:
        if s["id"] == "variant":
            continue  # the variant's box comes before the contents, as in the HTML book
        m = re.search(re.escape(norm(s["title"])) + r"[ .]*?(\d+)", toc)
        assert m, s["title"]
        assert int(m.group(1)) >= last, s["title"]  # in order, with page numbers
        last = int(m.group(1))
    for ph in book["phases"]:
        assert norm(ph.heading) in toc


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_quick_reference_comes_first(path: Path):
    rs = load_ruleset(path)
    texts = pages(path)
    first = norm(texts[0] + " " + texts[1])
    assert "Quick reference" in first and "HOW TO WIN" in first and "HOW PLAY RUNS" in first
    assert first.index("Quick reference") < first.index("Contents")
    for o in rs.options:
        assert o.name in first
    assert norm(texts[0]).index(norm(rs.title)) < norm(texts[0]).index("Quick reference")


def test_paper_sizes():
    path = SAMPLE[2]
    for paper, (w, h) in (("a4", A4), ("letter", LETTER)):
        reader = pypdf.PdfReader(io.BytesIO(pdf(path, paper)))
        for page in reader.pages:
            assert abs(float(page.mediabox.width) - w) < 1 and abs(float(page.mediabox.height) - h) < 1, paper
    assert render_typst(load_ruleset(path), "letter").count('paper: "us-letter"') == 1
    with pytest.raises(Exception, match="paper"):
        render_typst(load_ruleset(path), "a3")


def test_fonts_are_embedded():
    reader = pypdf.PdfReader(io.BytesIO(pdf(SAMPLE[2])))
    fonts = set()
    for page in reader.pages:
        for f in (page["/Resources"].get("/Font") or {}).values():
            f = f.get_object()
            desc = f.get("/FontDescriptor") or (f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
                                                if "/DescendantFonts" in f else None)
            if desc is not None:
                desc = desc.get_object()
                assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), f.get("/BaseFont")
                fonts.add(str(f.get("/BaseFont")))
    assert any("Libertinus" in f for f in fonts), fonts


# ------------------------------------------------------------------ escaping

SPECIAL = ['#hash', '*star*', '_under_', '$dollar$', '@at', '<angle>', '[bracket]', ']close[',
           'back\\slash', '"double"', "'single'", '~tilde', '// not a comment', '/* nor this',
           '= not a heading', '- not a list', '+ nor this', '1. not a number', '`tick`']


def test_escape_filter_keeps_every_character():
    line = " ".join(SPECIAL)
    source = f"#set page(width: 30cm, height: auto)\n#set text(font: \"Libertinus Serif\")\n{escape_typst(line)}\n"
    text = norm("\n".join(page_texts(compile_typst(source))))
    for s in SPECIAL:
        assert norm(s) in text, s
    raw = 'c.rank >= "K" \\ #x'
    marked = "Lead " + code(raw) + " with " + em("care*") + " and " + link("#nowhere", "a [link]") + "."
    text = norm("\n".join(page_texts(compile_typst(to_typst(marked) + "\n"))))
    assert raw in text and "care*" in text and "a [link]" in text


ODD = r'''game odd_chars "Odd #1 *bold* _x_ $5 @ref <tag> [a] b\c 'q' ~ // /* = + -"
players 2

text "Text with #hash, *star*, _under_, $dollar$, @at, <angle>, [bracket], back\slash, 'single' and ~tilde // not a comment /* nor this"

deck d:
    suits Red
    ranks 1..4

zone pile shared hidden
zone hand per player owner

option wild: bool = false "Wild #cards *count* [double] $$"

phase deal "Deal #1 [first]":
    rule go "Go *now* _fast_ $1 <x>":
        text "1. Deal two cards to each; = not a heading; - nor a list; \\ ends"
        note "A note with `ticks` and @label and ]unbalanced["
        shuffle pile
        deal 2 from pile to each hand
'''


def test_a_ruleset_full_of_typst_characters_renders(tmp_path: Path):
    game = tmp_path / "odd.cards"
    game.write_text(ODD, encoding="utf-8")
    rs = load_ruleset(game)
    text = re.sub(r"\s", "", norm("\n".join(page_texts(render_pdf(rs)))))  # lines may break after a "/"
    for s in (rs.title, *rs.texts, "Wild #cards *count* [double] $$", "Deal #1 [first]", "Go *now* _fast_ $1 <x>",
              "1. Deal two cards to each; = not a heading; - nor a list; \\ ends",  # \\\\ in a string is one backslash
              "A note with `ticks` and @label and ]unbalanced["):
        assert re.sub(r"\s", "", norm(s)) in text, s


# ------------------------------------------------------------------ writing and the command line


def test_write_rulebooks_writes_the_pdf_beside_the_books(tmp_path: Path):
    written = write_rulebooks([SAMPLE[2]], tmp_path, pdf=True)
    assert [p.name for p in written] == ["udvasa.md", "udvasa.html", "udvasa.pdf"]
    assert written[2] == pdf_path(SAMPLE[2], tmp_path) == tmp_path / "mughal" / "udvasa.pdf"
    assert written[2].read_bytes() == pdf(SAMPLE[2])


def test_cli_writes_a_pdf(tmp_path: Path):
    r = CliRunner().invoke(app, ["rulebook", str(SAMPLE[2]), "--out", str(tmp_path), "--pdf", "--paper", "letter"])
    assert r.exit_code == 0, r.output
    out = tmp_path / "mughal" / "udvasa.pdf"
    assert str(out) in r.stdout and out.read_bytes() == pdf(SAMPLE[2], "letter")
    r = CliRunner().invoke(app, ["rulebook", str(SAMPLE[2]), "--out", str(tmp_path / "b"), "--pdf", "--paper", "a3"])
    assert r.exit_code == 2 and not (tmp_path / "b").exists()


def test_missing_typst_is_one_line_and_writes_nothing(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "typst", None)  # `import typst` now fails
    r = CliRunner().invoke(app, ["rulebook", str(SAMPLE[2]), "--out", str(tmp_path / "out"), "--pdf"])
    assert r.exit_code == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "pip install typst" in lines[0], r.stderr
    assert "Traceback" not in r.output
    assert not (tmp_path / "out").exists()
    with pytest.raises(PdfUnavailable):
        write_rulebooks([SAMPLE[2]], tmp_path / "out", pdf=True)
    assert not (tmp_path / "out").exists()
    r = CliRunner().invoke(app, ["rulebook", str(SAMPLE[2]), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0  # without --pdf, typst is not needed


# ------------------------------------------------------------------ the quick reference in every format


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_quick_reference_in_html_and_markdown(path: Path):
    rs = load_ruleset(path)
    book = book_context(rs)
    md = render_markdown(rs)
    head = md.split("## Contents")[0]
    assert "## Quick reference" in head and "**How to win.**" in head and "**How play runs.**" in head
    html = render_html(rs)
    quick = html.split('<section class="quick" id="quick-reference">', 1)[1].split("</section>", 1)[0]
    assert html.index('id="quick-reference"') < html.index('id="contents"')
    for ph in book["phases"][1:]:
        assert ph.heading in head and ph.heading in quick
        for r in ph.rules:
            assert r.title.replace("'", "&#39;") in quick
    for o in book["quick"]["options"]["items"]:
        assert f"`{o['name']}` **{o['default']}**" in head
    if len(book["phases"]) > 1:
        assert book["phases"][0].heading in head


def test_quick_reference_says_who_decides_and_how_to_win():
    q = book_context(load_ruleset(SAMPLE[0]))["quick"]
    play = q["turn"][-1]
    assert play["repeat"] and play["then"] == "Then the game ends."
    assert [r["who"] for r in play["rules"]][0] == "the leader and each other player decide"
    assert "cards won" in q["goal"][0]["text"] and q["goal"][0]["label"] == "At the end"
    solo = book_context(load_ruleset(SAMPLE[2]))["quick"]
    assert [p["label"] for p in solo["goal"]] == ["Decided at once", "Nobody wins"]
    assert any(r["who"] == "the player decides" for r in solo["turn"][0]["rules"])
    euro = book_context(load_ruleset(SAMPLE[1]))["quick"]
    assert euro["options"]["off"] and len(euro["options"]["items"]) < len(load_ruleset(SAMPLE[1]).options)
    assert euro["turn"][-1]["then"].startswith("Then back to")
