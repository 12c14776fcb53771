"""A diff as a report: the changes in words, then the rulebook redline, as plain text, Markdown
or a standalone HTML page."""

from __future__ import annotations

import difflib
import re
import textwrap
from typing import Iterable

from markupsafe import escape

from ..language import graph as g
from ..render import TEMPLATES, render_markdown
from .changes import SECTIONS, Change, Diff, _SECTION_OF
from .phrasing import _cap, _html, _md, _plain


# ------------------------------------------------------------------ the rulebook redline


def _book_lines(rs: g.Ruleset) -> list[str]:
    return render_markdown(rs).splitlines()


def _unified(a_lines, b_lines, la: str, lb: str) -> list[str]:
    return list(difflib.unified_diff(a_lines, b_lines, fromfile=la, tofile=lb, lineterm="", n=3))


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


def _word_diff(old: str, new: str) -> str | None:
    """One line with deleted words in <del> and inserted words in <ins> (escaped HTML), or
    None when the line changed in too many places to read that way."""
    ta, tb = _TOKEN.findall(old), _TOKEN.findall(new)
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if sum(1 for op in sm.get_opcodes() if op[0] != "equal") > 3:
        return None
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        a, b = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if tag == "equal":
            out.append(str(escape(a)))
            continue
        if a:
            out.append(f"<del>{escape(a)}</del>")
        if b:
            out.append(f"<ins>{escape(b)}</ins>")
    return "".join(out)


def _heading_before(lines: list[str], i: int) -> str | None:
    for k in range(min(i, len(lines) - 1), -1, -1):
        m = re.match(r"#{1,6} (.*)", lines[k])
        if m:
            return m.group(1).strip()
    return None


def _redline_html(a_lines: list[str], b_lines: list[str]) -> str:
    sm = difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    groups = list(sm.get_grouped_opcodes(2))
    if not groups:
        return '<p class="same">The two rulebooks are identical, line for line.</p>\n'
    rows = []
    for grp in groups:
        i0, j0 = grp[0][1], grp[0][3]
        where = _heading_before(b_lines, j0)
        rows.append(f'<tr class="hunk"><th colspan="4">Book lines {i0 + 1}\u2013{grp[-1][2]} before, '
                    f'{j0 + 1}\u2013{grp[-1][4]} after'
                    + (f' \u00b7 in \u201c{escape(where)}\u201d' if where else "") + "</th></tr>")
        for tag, i1, i2, j1, j2 in grp:
            if tag == "equal":
                for i, j in zip(range(i1, i2), range(j1, j2)):
                    rows.append(_row("same", i + 1, j + 1, "", str(escape(a_lines[i]))))
                continue
            k = min(i2 - i1, j2 - j1) if tag == "replace" else 0
            words = [_word_diff(a_lines[i1 + n], b_lines[j1 + n]) for n in range(k)]
            if any(w is None for w in words):  # read better as the old lines, then the new
                k, words = 0, []
            for n in range(k):
                rows.append(_row("chg", i1 + n + 1, j1 + n + 1, "~", words[n]))
            for i in range(i1 + k, i2):
                rows.append(_row("del", i + 1, "", "\u2212", f"<del>{escape(a_lines[i])}</del>"))
            for j in range(j1 + k, j2):
                rows.append(_row("ins", "", j + 1, "+", f"<ins>{escape(b_lines[j])}</ins>"))
    return ('<table class="redline">\n<thead><tr><th class="n">before</th><th class="n">after</th>'
            '<th class="m"></th><th>rulebook text (Markdown)</th></tr></thead>\n<tbody>\n'
            + "\n".join(rows) + "\n</tbody>\n</table>\n")


def _row(cls, na, nb, mark, html) -> str:
    return (f'<tr class="{cls}"><td class="n">{na}</td><td class="n">{nb}</td><td class="m">{mark}</td>'
            f"<td>{html or '&nbsp;'}</td></tr>")


# ------------------------------------------------------------------ rendering a diff

_DIFF_CSS = """
/* The diff page: the change list, then the rulebook redline. */
ul.changes { padding-left: 1.2rem; margin: 0.3rem 0 0.8rem; }
ul.changes > li { margin: 0 0 0.7rem; break-inside: avoid; page-break-inside: avoid; }
ul.changes ul { margin: 0.2rem 0 0; padding-left: 1.1rem; color: var(--muted); font-size: 0.95rem; }
ul.changes ul ul { list-style: none; padding-left: 1rem; }
.tag {
  display: inline-block; margin-right: 0.4em; padding: 0 0.45em; border-radius: 0.8em;
  font-family: "Gill Sans", "Trebuchet MS", "Segoe UI", sans-serif; font-size: 0.68rem;
  font-weight: 600; letter-spacing: 0.05em; text-transform: uppercase; vertical-align: 0.1em;
  border: 1px solid var(--line); color: var(--muted);
}
.tag.added { border-color: #2f6b2f; color: #2f6b2f; }
.tag.removed { border-color: #9b1c1c; color: #9b1c1c; }
.tag.changed { border-color: var(--accent); color: var(--accent); }
.summary { font-size: 1.05rem; }
p.same { font-style: italic; }
table.redline { font-size: 0.82rem; table-layout: fixed; }
table.redline td, table.redline th { padding: 0.1rem 0.35rem; border-bottom: 0; }
table.redline td { white-space: pre-wrap; overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table.redline .n { width: 3.2em; text-align: right; color: var(--muted); font-family: inherit; }
table.redline .m { width: 1.2em; text-align: center; font-weight: 600; }
table.redline th.n, table.redline th.m { font-weight: 400; }
table.redline tr.hunk th {
  padding-top: 0.9rem; border-bottom: 1px solid var(--line); font-weight: 600; color: var(--accent);
}
table.redline tr.same td { color: var(--muted); }
table.redline tr.del td { background: #fbecec; }
table.redline tr.ins td { background: #edf6ec; }
table.redline tr.chg td { background: #fbf6e6; }
del { color: #9b1c1c; text-decoration: line-through; background: #f6d5d5; }
ins { color: #235c23; text-decoration: underline; background: #d8eed5; }
@media print {
  table.redline { font-size: 7.5pt; }
  del, ins { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  table.redline tr td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _count_words(diff: Diff) -> str:
    r, p = len(diff.rule_changes), len(diff.prose_changes)
    if not r and not p:
        return "No changes: the two rulesets are identical in meaning."
    rules = f"{r} change{'s' if r != 1 else ''} to the rules" if r else "no change to the rules"
    prose = f"{p} to the prose" if r and p else (f"{p} change{'s' if p != 1 else ''} to the prose" if p else "")
    text = rules + (f" and {prose}" if prose else "")
    if not r:
        text += " (the play is the same; only the author's words differ)"
    return _cap(text) + "."


def _sections(changes: Iterable[Change]) -> list[tuple[str, str, list[Change]]]:
    by: dict[int, list[Change]] = {}
    for c in changes:
        by.setdefault(_SECTION_OF.get(c.kind, len(SECTIONS)), []).append(c)
    out = []
    for i in sorted(by):
        sid, title = SECTIONS[i][:2] if i < len(SECTIONS) else ("other", "Other")
        out.append((sid, title, by[i]))
    return out


def _sentence(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":", "\u201d")) else text + "."


def render_diff(diff: Diff, a: g.Ruleset, b: g.Ruleset, fmt: str = "text",
                labels: tuple[str, str] | None = None, redline: bool = True) -> str:
    """The diff as plain text ("text"), Markdown ("md") or a standalone HTML page ("html"):
    the changes in words first, then the rulebook redline (a unified diff of the two Markdown
    books, or in HTML a table with deletions and insertions marked word by word)."""
    labels = labels or (a.source, b.source)
    if fmt not in ("text", "md", "html"):
        raise ValueError(f"unknown format {fmt!r}; expected text, md or html")
    book_a, book_b = (_book_lines(a), _book_lines(b)) if redline else ([], [])
    return {"text": _render_text, "md": _render_md, "html": _render_html}[fmt](
        diff, labels, book_a, book_b, redline)


def _kept_lines(diff: Diff, q: str = "'") -> list[str]:
    """The rules whose words the variant keeps from its base while replacing what they name
    (language/inherited.py): new users' Twenty-Nine and Jass printed the base's text of a rule
    whose working they had changed."""
    return [f"Rule {q}{name}{q} ({title}) keeps the words of {diff.a_title} but names "
            f"{', '.join(q + u + q for u in used)}, which {diff.b_title} replaces: do its words still say what it "
            "does? If not, restate the rule in the variant with its own text."
            for name, title, used in diff.kept_words]


def _wrap(text: str, indent: str, hang: str, width: int = 96) -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=hang,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def _render_text(diff: Diff, labels, book_a, book_b, redline) -> str:
    out = [f"{diff.b_title} ({labels[1]})", f"compared with {diff.a_title} ({labels[0]})", "",
           _count_words(diff)]
    for heading, changes in (("Changes to the rules", diff.rule_changes), ("Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += ["", heading, "=" * len(heading)]
        for _, title, items in _sections(changes):
            out += ["", title]
            for c in items:
                out += _wrap(_sentence(_plain(c.marked)), "  * ", "    ")
                for d in c.details:
                    pad = "  " * d.depth
                    out += _wrap(_plain(d.marked), "      " + pad + "- ", "        " + pad)
                    for s in d.sub:
                        out += _wrap(_plain(s), "          " + pad, "            " + pad)
    if diff.kept_words:
        heading = "Words to read again"
        out += ["", heading, "=" * len(heading), ""]
        for line in _kept_lines(diff):
            out += _wrap(line, "  * ", "    ")
    if redline:
        heading = "Rulebook redline (the Markdown books: - before, + after)"
        out += ["", heading, "=" * len(heading)]
        lines = _unified(book_a, book_b, labels[0], labels[1])
        out += lines if lines else ["The two rulebooks are identical, line for line."]
    return "\n".join(out).rstrip("\n") + "\n"


def _render_md(diff: Diff, labels, book_a, book_b, redline) -> str:
    out = [f"# What changes: {diff.b_title}", "",
           f"Compared with **{diff.a_title}**: `{labels[0]}` \u2192 `{labels[1]}`.", "",
           _count_words(diff)]
    for heading, changes in (("Changes to the rules", diff.rule_changes), ("Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += ["", f"## {heading}"]
        for _, title, items in _sections(changes):
            out += ["", f"### {title}", ""]
            for c in items:
                out.append(f"- {_sentence(_md(c.marked))}")
                for d in c.details:
                    pad = "  " * d.depth
                    out.append(f"  {pad}- {_md(d.marked)}")
                    for s in d.sub:
                        out.append(f"    {pad}- {_md(s)}")
    if diff.kept_words:
        out += ["", "## Words to read again", ""] + [f"- {line}" for line in _kept_lines(diff, "`")]
    if redline:
        out += ["", "## Rulebook redline", "",
                "The printed rulebooks, as Markdown, in a unified diff: lines starting with `-` are only in "
                f"the book of {diff.a_title}, lines starting with `+` only in the book of {diff.b_title}.", ""]
        lines = _unified(book_a, book_b, labels[0], labels[1])
        if lines:
            longest = max((len(m) for ln in lines for m in re.findall(r"`+", ln)), default=0)
            fence = "`" * max(3, longest + 1)
            out += [fence + "diff", *lines, fence]
        else:
            out.append("The two rulebooks are identical, line for line.")
    text = "\n".join(out)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return text.rstrip("\n") + "\n"


def _render_html(diff: Diff, labels, book_a, book_b, redline) -> str:
    css = (TEMPLATES / "rulebook.css").read_text(encoding="utf-8")
    e = escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="generator" content="cardrules">',
           f"<title>What changes: {e(diff.b_title)}</title>", "<style>", css.rstrip("\n"), _DIFF_CSS.strip("\n"),
           "</style>", "</head>", "<body>", '<header id="top">', f"<h1>What changes: {e(diff.b_title)}</h1>",
           f'<p class="subtitle">compared with {e(diff.a_title)}</p>',
           f'<p class="meta"><code>{e(labels[0])}</code> \u2192 <code>{e(labels[1])}</code></p>',
           f'<p class="summary">{e(_count_words(diff))}</p>']
    toc = []
    if diff.rule_changes:
        toc.append(("rules", "Changes to the rules"))
    if diff.prose_changes:
        toc.append(("prose", "Changes to the prose"))
    if diff.kept_words:
        toc.append(("words", "Words to read again"))
    if redline:
        toc.append(("redline", "Rulebook redline"))
    if toc:
        out += ['<nav class="toc">', "<ol>"] + [f'<li><a href="#{i}">{e(t)}</a></li>' for i, t in toc] + \
               ["</ol>", "</nav>"]
    out.append("</header>")
    for sid, heading, changes in (("rules", "Changes to the rules", diff.rule_changes),
                                  ("prose", "Changes to the prose", diff.prose_changes)):
        if not changes:
            continue
        out += [f'<section id="{sid}">', f"<h2>{heading}</h2>"]
        for sec, title, items in _sections(changes):
            out += [f'<h3 id="{sid}-{sec}">{e(title)}</h3>', '<ul class="changes">']
            for c in items:
                li = f'<li><span class="tag {c.action}">{c.action}</span>{_html(_sentence(c.marked))}'
                if c.details:
                    li += "\n<ul>"
                    for d in c.details:
                        style = f' style="margin-left: {1.2 * d.depth:g}em"' if d.depth else ""
                        li += f"\n<li{style}>{_html(d.marked)}"
                        if d.sub:
                            li += "<ul>" + "".join(f"<li>{_html(s)}</li>" for s in d.sub) + "</ul>"
                        li += "</li>"
                    li += "\n</ul>"
                out.append(li + "</li>")
            out.append("</ul>")
        out.append("</section>")
    if diff.kept_words:
        out += ['<section id="words">', "<h2>Words to read again</h2>", '<ul class="changes">']
        out += [f"<li>{e(line)}</li>" for line in _kept_lines(diff)] + ["</ul>", "</section>"]
    if redline:
        out += ['<section id="redline" class="major">', "<h2>Rulebook redline</h2>",
                f"<p>The printed rulebooks line by line, as Markdown: <del>struck out</del> is only in the book of "
                f"{e(diff.a_title)}, <ins>underlined</ins> only in the book of {e(diff.b_title)}; a line marked "
                f"~ changed in place. Two unchanged lines are shown around each change.</p>",
                _redline_html(book_a, book_b).rstrip("\n"), "</section>"]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
