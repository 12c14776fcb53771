"""Rulebook stage 5, the books: each ruleset's context rendered through the Jinja templates into
Markdown and HTML (and, through pdf.py, a PDF), and written whole or not at all."""

from __future__ import annotations

import re
from pathlib import Path

from ..language import graph as g
from ..files import report_written
from .context import book_context
from .output import book_paths, env, tidy_markdown, write_file


def render_markdown(rs: g.Ruleset) -> str:
    """The rulebook as Markdown."""
    book = book_context(rs, picture=False)
    return tidy_markdown(env().get_template("rulebook.md.j2").render(book=book))


def render_html(rs: g.Ruleset, source_lines: str | None = None) -> str:
    """The rulebook as one standalone HTML page with print CSS (A4, page numbers). With
    `source_lines` (a file's name as the graph's locations give it), each rule and phase carries
    `data-line="N"` (its 1-based line) and `data-rule`/`data-phase` (its name), and `data-file`
    when written in another file than that one (a variant's base): the studio's book, which jumps
    to the source. Without it the page is the printed one."""
    book = book_context(rs, source_lines)
    text = env().get_template("rulebook.html.j2").render(book=book)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def write_rulebooks(paths: list[Path], out_dir: Path, pdf: bool = False, paper: str = "a4") -> list[Path]:
    """Load each ruleset, render both books (and with `pdf` the PDF too, on `paper` a4 or letter)
    and write them atomically under out_dir.

    Every ruleset is loaded and rendered before anything is written, so a bad ruleset raises
    its error (a CardRulesError: RulesetSyntaxError, RulesetError, ...) and writes nothing, and so
    does a missing typst package (`pdf.PdfUnavailable`); each file is written to a temporary file
    beside it and moved into place."""
    from .. import load_ruleset

    if pdf:
        from .pdf import pdf_path, render_pdf, require_typst
        require_typst()
    pending: list[tuple[Path, str | bytes]] = []
    for p in paths:
        rs = load_ruleset(p)
        md_path, html_path = book_paths(Path(p), Path(out_dir))
        pending.append((md_path, render_markdown(rs)))
        pending.append((html_path, render_html(rs)))
        if pdf:
            pending.append((pdf_path(Path(p), Path(out_dir)), render_pdf(rs, paper)))
    written = []
    for path, text in pending:
        write_file(path, text)
        written.append(path)
    return written


def project_rulesets(root: Path | None = None) -> list[Path]:
    """Every ruleset under the project's rulesets/ folder, sorted."""
    root = root or Path(__file__).resolve().parents[2]
    return sorted((root / "rulesets").glob("**/*.cards"))


def main(argv: list[str] | None = None) -> int:
    """Regenerate every book under rulesets/ into generated_docs/ (Markdown, HTML and an A4
    PDF each; run from anywhere)."""
    root = Path(__file__).resolve().parents[2]

    def write() -> list[Path]:
        written = write_rulebooks(project_rulesets(root), root / "generated_docs", pdf=True)
        from .reference import write_language_reference  # the language reference, beside the books
        return written + write_language_reference(root / "generated_docs")
    return report_written(write, root)
