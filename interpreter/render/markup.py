"""Rulebook stage 1a, mark-up: the inline styles (code, emphasis, links as control-character
brackets that the templates' `md` and `html` filters turn into Markdown or escaped HTML) and the
small helpers every page's sentences share (capitals, lists, parameters, values)."""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import Markup, escape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
REGENERATE = "cardrules rulebook rulesets/**/*.cards --out generated_docs --pdf"
REGENERATE_PY = "python -m interpreter.render"

# ------------------------------------------------------------------ inline mark-up
# Control characters never found in a ruleset's text bracket the few inline styles.
_C0, _C1 = "\x02", "\x03"            # code
_E0, _E1 = "\x06", "\x07"            # emphasis
_L0, _LS, _L1 = "\x0e", "\x1f", "\x0f"  # link: href, separator, text

_CODE_RE = re.compile(_C0 + "(.*?)" + _C1, re.S)
_EM_RE = re.compile(_E0 + "(.*?)" + _E1, re.S)
_LINK_RE = re.compile(_L0 + "([^" + _LS + "]*)" + _LS + "(.*?)" + _L1, re.S)
_ANY_MARK = re.compile("[" + _C0 + _C1 + _E0 + _E1 + _L0 + _LS + _L1 + "]")


def code(text: str) -> str:
    return _C0 + _ANY_MARK.sub("", text) + _C1


def em(text: str) -> str:
    return _E0 + text + _E1


def link(href: str, text: str) -> str:
    return _L0 + href + _LS + text + _L1


def _md_code(m: re.Match) -> str:
    body = m.group(1)
    if "`" not in body:
        return f"`{body}`"
    return f"`` {body} ``"


def to_markdown(text: str) -> str:
    """Marked-up text as Markdown: code spans, *emphasis*, links reduced to their text."""
    text = _CODE_RE.sub(_md_code, text)
    text = _LINK_RE.sub(r"\2", text)
    text = _EM_RE.sub(r"*\1*", text)
    return _ANY_MARK.sub("", text)


def to_html(text: str) -> Markup:
    """Marked-up text as escaped HTML with <code>, <em> and in-page links."""
    out = str(escape(text))
    out = _CODE_RE.sub(r"<code>\1</code>", out)
    out = _LINK_RE.sub(r'<a href="\1">\2</a>', out)
    out = _EM_RE.sub(r"<em>\1</em>", out)
    return Markup(_ANY_MARK.sub("", out))


def _md_cell(text: str) -> str:
    return to_markdown(text).replace("|", "\\|").replace("\n", " ")


def _md_steps(steps, indent: int = 0) -> str:
    """Nested steps as a Markdown bullet list (two spaces per level)."""
    lines: list[str] = []

    def walk(items, depth):
        for st in items:
            lines.append("  " * depth + "- " + to_markdown(st.text).replace("\n", " "))
            walk(st.children, depth + 1)
    walk(steps, indent)
    return "\n".join(lines)


def _cap(text: str) -> str:
    """Capitalise a sentence that starts with a plain lowercase letter."""
    if text and text[0].isalpha() and text[0].islower():
        return text[0].upper() + text[1:]
    return text


def _uncap(text: str) -> str:
    """Lower-case a sentence's first word (one of ours, like 'Move'), to continue a clause."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def human(name: str) -> str:
    return name.replace("_", " ")


def most(rule: str, name: str) -> str:
    """'most' or 'fewest' before a count ('the most points'), 'highest' or 'lowest' before a
    quantity named in the singular ('the highest score', not 'the most score')."""
    if any(w.endswith("s") for w in human(name).split()):  # ('cards won', 'tricks')
        return rule
    return "highest" if rule == "most" else "lowest"


def _join(items: list[str], word: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        sep = ", " if word == "or" else " "
        return f"{items[0]}{sep}{word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} {items[-1]}"


def _plain_list(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _sentence(text: str) -> str:
    """An author's fragment as a sentence: a capital letter and a closing full stop."""
    text = _cap(text.strip())
    return text if text.endswith((".", "!", "?", ":", "”")) else text + "."


_TYPE_PHRASE = {"int": "a number", "bool": "true or false", "player": "a player", "card": "a card",
                "suit": "a suit", "rank": "a rank", "cards": "a set of cards", "players": "a set of players",
                "ints": "a set of numbers"}


def _param(ptype: str, name: str) -> str:
    """'a card c', 'a number n', 'a set of cards cs'."""
    noun = {"int": "number", "bool": "condition", "cards": "set of cards", "players": "set of players",
            "ints": "set of numbers", "suits": "set of suits", "ranks": "set of ranks"}.get(ptype, ptype)
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun} {em(name)}"


def _fmt_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
