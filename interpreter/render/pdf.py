"""Rulebook as PDF: the book's context (`BookBuilder`) rendered through the Jinja template
`rulebook.typ.j2` into a Typst document, compiled by the `typst` package (no browser, no system
fonts: only the fonts built into Typst are used, and the PDF embeds them).

Every string the template prints is escaped for Typst markup (`to_typst`, applied by the Jinja
environment's `finalize`), so an author's text can hold `#`, `*`, `$`, `[` ... safely; the inline
mark-up of the book's phrases (code, emphasis, links) becomes `#raw`, `#emph` and `#link`."""

from __future__ import annotations

import contextvars
import hashlib
import re
from pathlib import Path

import jinja2

from ..language import graph as g
from ..errors import CardRulesError
from .context import book_context
from .output import book_paths
from .markup import _C0, _C1, _E0, _E1, _L0, _L1, _LS, TEMPLATES

PAPERS = {"a4": "a4", "letter": "us-letter"}
INSTALL_HINT = "pip install typst"
# Fonts that ship inside the typst package (Typst's embedded fonts), so no system font is
# needed and the PDF looks the same everywhere: a serif for the text, New Computer Modern Math
# for the symbols Libertinus lacks (check marks, card suits), DejaVu Sans Mono for code.
FONT_TEXT = ("Libertinus Serif", "New Computer Modern Math", "DejaVu Sans Mono")
FONT_CODE = ("DejaVu Sans Mono", "Libertinus Serif", "New Computer Modern Math")


class PdfUnavailable(CardRulesError):
    """The typst package is not installed: PDF books cannot be made."""


def require_typst():
    """The typst module, or PdfUnavailable with a one-line hint."""
    try:
        import typst
    except ImportError:
        raise PdfUnavailable(f"PDF rulebooks need the typst package: {INSTALL_HINT}") from None
    return typst


# ------------------------------------------------------------------ escaping

class TypstMarkup(str):
    """Text that is already Typst markup (the template prints it as it is)."""


# Characters with a meaning in Typst markup; each is written with a backslash in front.
# (Quotes are left to Typst, which sets them as typographic quotes; they never start markup.)
_SPECIAL = re.compile(r"([\\#*_$@<>\[\]`~/=+\-])")
_TOKEN = re.compile(f"{_C0}(.*?){_C1}|{_L0}([^{_LS}]*){_LS}|{_L1}|{_E0}|{_E1}", re.S)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_labels: contextvars.ContextVar[frozenset | None] = contextvars.ContextVar("typst_labels", default=None)


def typst_string(text: str) -> str:
    """The body of a Typst string literal ("..." without the quotes) holding text."""
    text = _CONTROL.sub("", str(text))
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "").replace("\t", " ")


def escape_typst(text: str) -> str:
    """Plain text as Typst markup: special characters escaped, line breaks as spaces, and a
    leading "1." kept from becoming a numbered list."""
    text = _CONTROL.sub("", " ".join(str(text).split("\n")).replace("\t", " ").replace("\r", ""))
    text = _SPECIAL.sub(r"\\\1", text)
    return re.sub(r"^(\s*\d+)\.", r"\1\\.", text)


def to_typst(text) -> TypstMarkup:
    """Marked-up text (see `words`) as Typst markup: code as #raw, emphasis as #emph, a link as
    #link to its label when the book has that label (else just its text); the rest escaped."""
    if isinstance(text, TypstMarkup):
        return text
    if text is None:
        return TypstMarkup("")
    text = str(text)
    known = _labels.get()
    out: list[str] = []
    closers: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(escape_typst(text[pos:m.start()]))
        pos = m.end()
        tok = m.group(0)
        if m.group(1) is not None:
            out.append(f'#raw("{typst_string(m.group(1))}");')
        elif m.group(2) is not None:
            name = m.group(2).lstrip("#")
            if known is not None and name in known:
                out.append(f'#link(label("{typst_string(name)}"))[')
                closers.append("];")
            else:
                closers.append("")
        elif tok == _L1:
            out.append(closers.pop() if closers else "")
        elif tok == _E0:
            out.append("#emph[")
            closers.append("];")
        elif tok == _E1:
            out.append(closers.pop() if closers else "")
    out.append(escape_typst(text[pos:]))
    out.extend(reversed(closers))  # unbalanced mark-up never leaves a bracket open
    return TypstMarkup("".join(out))


def _steps(steps, depth: int = 0) -> TypstMarkup:
    """Nested steps as a Typst bullet list (two spaces of indent per level)."""
    lines: list[str] = []

    def walk(items, d):
        for st in items:
            lines.append("  " * d + "- " + to_typst(st.text))
            walk(st.children, d + 1)
    walk(steps, depth)
    return TypstMarkup("\n".join(lines))


def _finalize(value):
    """Every value printed by the template is escaped unless it is already markup."""
    if isinstance(value, TypstMarkup):
        return value
    if isinstance(value, bool):
        return TypstMarkup("true" if value else "false")
    return to_typst("" if value is None else str(value))


_ENV: jinja2.Environment | None = None


def _env() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=False, finalize=_finalize,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
        env.filters["typ"] = to_typst
        env.filters["str"] = lambda v: TypstMarkup(typst_string("" if v is None else v))
        env.filters["steps"] = _steps
        env.filters["markup"] = TypstMarkup  # the template's own markup (a macro's output)
        env.filters["label"] = lambda v: TypstMarkup(re.sub(r"[^A-Za-z0-9_.:-]", "-", str(v)))
        _ENV = env
    return _ENV


def _book_labels(book: dict) -> frozenset:
    """Every label the Typst book defines (what links may point at)."""
    ids = {s["id"] for s in book["sections"]} | {"contents", "quick-reference"}
    for ph in book["phases"]:
        ids.add(ph.id)
        ids |= {r.id for r in ph.rules}
    for key in ("terms", "procedures", "advice", "interpretations"):
        ids |= {x["id"] for x in book[key]}
    return frozenset(ids)


# ------------------------------------------------------------------ rendering

def render_typst(rs: g.Ruleset, paper: str = "a4") -> str:
    """The rulebook as a Typst document (the source `render_pdf` compiles)."""
    if paper not in PAPERS:
        raise CardRulesError(f"unknown paper size {paper!r} (use one of: {', '.join(PAPERS)})")
    book = book_context(rs)
    token = _labels.set(_book_labels(book))
    try:
        text = _env().get_template("rulebook.typ.j2").render(
            book=book, paper=TypstMarkup(PAPERS[paper]),
            font_text=TypstMarkup(", ".join(f'"{f}"' for f in FONT_TEXT)),
            font_code=TypstMarkup(", ".join(f'"{f}"' for f in FONT_CODE)))
    finally:
        _labels.reset(token)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def compile_typst(source: str) -> bytes:
    """Compile a Typst document to PDF bytes with Typst's own fonts only (no system fonts)."""
    typst = require_typst()
    try:
        return typst.compile(source.encode("utf-8"), format="pdf", ignore_system_fonts=True)
    except getattr(typst, "TypstError", RuntimeError) as e:
        msg = getattr(e, "message", None) or str(e)
        raise CardRulesError(f"the PDF could not be typeset: {msg.splitlines()[0] if msg else e}") from None


STAMP = "cardrules-source:"  # a PDF's keyword naming what it was typeset from (see source_stamp)


def source_stamp(source: str) -> str:
    """What a PDF's bytes follow from: its Typst source and the typesetter's version. Written
    into the PDF's keywords, so that a book can be told current by typesetting nothing."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        typesetter = version("typst")
    except PackageNotFoundError:
        typesetter = "?"
    return hashlib.sha256(f"{typesetter}\0{source}".encode("utf-8")).hexdigest()[:24]


def stamped(source: str) -> str:
    """The Typst document with its stamp among the PDF's keywords."""
    return f'#set document(keywords: ("{STAMP}{source_stamp(source)}",))\n' + source


def render_pdf(rs: g.Ruleset, paper: str = "a4") -> bytes:
    """The rulebook as PDF bytes (A4 or Letter)."""
    require_typst()
    return compile_typst(stamped(render_typst(rs, paper)))


def pdf_path(ruleset_path: Path, out_dir: Path) -> Path:
    """Where a ruleset's PDF goes: beside its .md and .html (see `book_paths`)."""
    return book_paths(ruleset_path, out_dir)[0].with_suffix(".pdf")
