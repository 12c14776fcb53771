"""The language reference, generated: `interpreter.language.reference` (every construct, built-in and
attribute with its form, words and example) laid out through the templates `language.md.j2` and
`language.html.j2` into generated_docs/language.md and .html, with an index of the grammar's
keywords read from grammar/cards.lark (so that a keyword without an entry shows)."""

from __future__ import annotations

import re
from pathlib import Path

from ..language import reference as lang
from ..language import sizes
from ..bundled import grammar_path
from .output import env, slug, tidy_markdown, write_file
from .markup import code

GRAMMAR = grammar_path()

_WORD = re.compile(r"[A-Za-z_]+")
_WORDS_RE = re.compile(r"\(?(?:\?:)?([a-z_]+(?:\|[a-z_]+)*)\)?(?:\\b)?")  # AGG: (any|no|count|...)\b


def grammar_keywords(path: Path = GRAMMAR) -> tuple[str, ...]:
    """Every keyword of the grammar, sorted: the words it quotes ("deal", "starting", ...) and the
    words of a terminal that is only a choice of words (AGG: any, no, count, ...)."""
    from lark.lexer import PatternRE, PatternStr
    from lark.load_grammar import load_grammar

    grammar, _ = load_grammar(Path(path).read_text(encoding="utf-8"), str(path), None, False)
    terminals, _, _ = grammar.compile(["start"], set())
    words: set[str] = set()
    for t in terminals:
        if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[a-z_]+", t.pattern.value):
            words.add(t.pattern.value)
        elif isinstance(t.pattern, PatternRE):
            m = _WORDS_RE.fullmatch(t.pattern.value)
            if m:
                words.update(m.group(1).split("|"))
    return tuple(sorted(words))


def form_words(form: str) -> set[str]:
    """The words typed as they stand in a form (lower case: CAPITALS are filled in)."""
    return {w for w in _WORD.findall(form) if not w.isupper()}


def _marked(text: str) -> str:
    """`code` in an entry's words -> the renderer's inline mark-up (the md and html filters)."""
    return re.sub(r"`([^`]+)`", lambda m: code(m.group(1)), text)


def _sections() -> list[tuple[str, str, str, str, tuple[lang.Entry, ...]]]:
    """The page's sections in order, as (id, title, tag, intro, entries): the constructs, with the
    built-ins and the attributes after the expressions. The keyword index calls an entry by its name,
    and by its name and section (in lower case) when another entry has the same name, or by its
    name and tag when the section has one."""
    out = []
    for s in lang.CONSTRUCTS:
        out.append((s.id, s.title, "", s.intro, s.entries))
        if s.id == "expressions":
            out.append(("builtins", "Built-in functions and names", "built-in",
                        "Functions and names every game has. The aggregates `any`, `no`, `count`, `highest` and "
                        "`lowest` may also be called on a whole collection, as here.", lang.BUILTINS))
            out.append(("card-attributes", "Attributes of cards", "card attribute", "Written after a card with a dot: "
                        "`c.suit`, `top(pile).played_by`.", lang.CARD_ATTRIBUTES))
            out.append(("zone-attributes", "Attributes of zones", "zone attribute", "Written after a zone with a dot: "
                        "`c.zone.index`, `hand(p).owner`.", lang.ZONE_ATTRIBUTES))
            out.append(("suit-rank-attributes", "Attributes of suits and ranks", "suit or rank attribute",
                        "Written after a suit or a rank with a dot: `c.suit.index`.", lang.SUIT_RANK_ATTRIBUTES))
    return out


def build_page(grammar: Path = GRAMMAR) -> dict:
    """The view model both templates render."""
    md_seen: dict[str, int] = {}

    def md_anchor(title: str) -> str:  # GitHub's anchor for a heading, -1, -2 ... for repeats
        s = slug(title)
        n = md_seen.get(s, 0)
        md_seen[s] = n + 1
        return s if n == 0 else f"{s}-{n}"

    sections = []
    by_word: dict[str, list[dict]] = {}
    layout = _sections()
    names = [e.name for *_, entries in layout for e in entries]
    for sid, title, tag, intro, entries in layout:
        sec = {"id": sid, "title": title, "slug": md_anchor(title), "intro": _marked(intro), "entries": []}
        for e in entries:
            entry = {"id": f"{sid}-{slug(e.name)}", "name": e.name, "slug": md_anchor(e.name), "form": e.form,
                     "words": _marked(e.words), "example": e.example,
                     "label": f"{e.name} ({tag})" if tag else
                     e.name if names.count(e.name) == 1 else f"{e.name} ({title.lower()})"}
            sec["entries"].append(entry)
            for w in form_words(e.form):
                by_word.setdefault(w, []).append(entry)
        sections.append(sec)
    keywords = []
    for k in grammar_keywords(grammar):
        used = by_word.get(k, [])
        keywords.append({"word": k, "entries": [{"id": e["id"], "label": e["label"], "slug": e["slug"]}
                                                for e in used]})
    n_entries = sum(len(s["entries"]) for s in sections)
    return {
        "title": "The card-game language",
        "subtitle": "A reference for authors of rulesets",
        "notation": _marked(lang.NOTATION),
        "setting": _marked(lang.EXAMPLE_SETTING),
        "sections": sections,
        "keywords": keywords,
        "limits": {"intro": _marked(lang.LIMITS_INTRO), "slug": md_anchor("Limits"),
                   "rows": [{"what": _marked(x.what), "most": f"{x.most:,}", "why": _marked(x.why)}
                            for x in sizes.LIMITS]},
        "keywords_slug": md_anchor("Keywords"),
        "count": f"{n_entries} entries in {len(sections)} sections, and {len(keywords)} keywords",
    }


def render_language_markdown(grammar: Path = GRAMMAR) -> str:
    """The language reference as Markdown."""
    return tidy_markdown(env().get_template("language.md.j2").render(page=build_page(grammar)))


def render_language_html(grammar: Path = GRAMMAR) -> str:
    """The language reference as one standalone HTML page, styled like the rulebooks."""
    text = env().get_template("language.html.j2").render(page=build_page(grammar))
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def language_paths(out_dir: Path) -> tuple[Path, Path]:
    return Path(out_dir) / "language.md", Path(out_dir) / "language.html"


def write_language_reference(out_dir: Path) -> list[Path]:
    """Render both pages, then write each atomically under out_dir."""
    md_path, html_path = language_paths(out_dir)
    pending = [(md_path, render_language_markdown()), (html_path, render_language_html())]
    for path, text in pending:
        write_file(path, text)
    return [p for p, _ in pending]


def main() -> int:
    """Write only the language reference into generated_docs/."""
    root = Path(__file__).resolve().parents[2]
    for p in write_language_reference(root / "generated_docs"):
        print(f"wrote {p.relative_to(root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
