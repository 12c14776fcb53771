"""Printable rulebooks, generated from the rule graph: Markdown, standalone print-ready HTML and PDF.

Everything a book says comes from the graph: the author's texts and notes, and sentences
generated from the statements and expressions themselves (so a changed rule body changes the
book). Two visitors do the generating, both dispatching on the node's class name:

* `English` turns an expression into a plain-language phrase (`english(expr)`);
* `Describer` turns statements into nested steps ("The leader chooses one of: ...").

They write a tiny inline mark-up (code, emphasis, links as control-character brackets) that
the `md` and `html` template filters turn into Markdown or escaped HTML, so one phrase serves
both formats. Output is deterministic: no dates, no random ids, no paths.

The stages, each a module: `words` (mark-up and `English`), `steps` (`Describer`), `quick` (the
quick reference at the front of every book), `book` (`BookBuilder`, the templates, writing) and
`pdf` (the Typst template, compiled to PDF by the typst package). Regenerate the committed books with
`python -m interpreter.render` (or
`cardrules rulebook rulesets/**/*.cards --out generated_docs --pdf`).
"""

from __future__ import annotations

from .markup import (REGENERATE, REGENERATE_PY, TEMPLATES, _ANY_MARK, _CODE_RE, _EM_RE, _LINK_RE, _TYPE_PHRASE, _cap, _fmt_value, _join, _md_cell, _md_code, _md_steps, _param, _plain_list, _sentence, _uncap, code, em, human, link, to_html, to_markdown)  # noqa: F401
from .words import (English, _ARITH, _COMPARE, _ELEM, _MODALS, _NEGATE, _NOUN, _PREC, _ends_open, english)  # noqa: F401
from .steps import (Describer, Step)  # noqa: F401
from .book import (BookBuilder, PhaseView, RuleView, _Found, _RuleFinder, _env, _slug, _tidy_markdown, _write_atomic, book_paths, main, project_rulesets, render_html, render_markdown, write_rulebooks)  # noqa: F401

__all__ = ["render_markdown", "render_html", "book_paths", "write_rulebooks", "english", "English"]

