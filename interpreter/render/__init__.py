"""Printable rulebooks, generated from the rule graph: Markdown, standalone print-ready HTML and PDF.

Everything a book says comes from the graph: the author's texts and notes, and sentences
generated from the statements and expressions themselves (so a changed rule body changes the
book). Two visitors do the generating, both dispatching on the node's class name:

* `English` turns an expression into a plain-language phrase (`english(expr)`);
* `Describer` turns statements into nested steps ("The leader chooses one of: ...").

They write a tiny inline mark-up (code, emphasis, links as control-character brackets) that
the `md` and `html` template filters turn into Markdown or escaped HTML, so one phrase serves
both formats. Output is deterministic: no dates, no random ids, no paths.

The stages, each a module, each importing only those before it: `markup` (the inline mark-up),
`words` (`English`), `steps` (`Describer`), `output` (the templates' environment, where books
go, writing a file whole), `builder` (`BookBuilder`: the book's model), `quick` (the quick
reference at the front of every book), `diagram` (the picture of the turn), `context` (a book's
whole context: model, quick reference, picture), `book` (Markdown and HTML, writing) and `pdf`
(the Typst template, compiled to PDF by the typst package); `reference` prints the language
reference. Regenerate the committed books with
`python -m interpreter.render` (or
`cardrules rulebook rulesets/**/*.cards --out generated_docs --pdf`).
"""

from __future__ import annotations

from .book import main, project_rulesets, render_html, render_markdown, write_rulebooks
from .builder import BookBuilder
from .context import book_context
from .markup import REGENERATE, REGENERATE_PY, TEMPLATES, code, em, link, to_html
from .output import book_paths, write_file
from .steps import Describer
from .words import English, english

__all__ = ["render_markdown", "render_html", "book_paths", "write_rulebooks", "write_file", "main", "project_rulesets",
           "BookBuilder", "book_context", "Describer", "English", "english", "REGENERATE", "REGENERATE_PY",
           "TEMPLATES", "code", "em", "link", "to_html"]
