"""Rulebook stage 4, a book's whole context: the model (builder.py), its quick reference
(quick.py) and the picture of its turn (diagram/), which the HTML, Markdown and PDF templates read."""

from __future__ import annotations

import re

from ..language import graph as g
from .builder import BookBuilder
from .quick import quick_reference


def book_context(rs: g.Ruleset, source_lines: str | None = None, picture: bool = True) -> dict:
    """What a template reads for a ruleset's book (see BookBuilder; `picture`: the turn drawn)."""
    builder = BookBuilder(rs, source_lines)
    book = builder.build()
    book["quick"] = quick_reference(builder, builder.built_phases)
    book["turn_picture"] = _turn_picture(rs) if picture else None
    return book


_PICTURES: dict[int, tuple] = {}  # id(graph) -> (graph, picture): the HTML and the PDF book of one graph draw it once


def _turn_picture(rs: g.Ruleset) -> dict | None:
    held = _PICTURES.get(id(rs))
    if held is not None and held[0] is rs:
        return held[1]
    picture = _draw_turn(rs)
    if len(_PICTURES) >= 8:
        _PICTURES.pop(next(iter(_PICTURES)))
    _PICTURES[id(rs)] = (rs, picture)
    return picture


def _draw_turn(rs: g.Ruleset) -> dict | None:
    """The hook for a picture of the turn: `diagram.turn_svg(rs)` (a standalone SVG) when that
    module is there, as {"svg", "caption", "error"}; None when it is not. A picture that fails to
    draw gives a note in the book (`error`), never a failed book."""
    caption = "The turn: the phases, their rules, the decisions and where play goes round again."
    try:
        from .diagram import turn_svg
    except ImportError as e:
        if e.name == f"{__package__}.diagram":
            return None
        return {"svg": None, "caption": caption, "error": f"The picture of the turn could not be drawn "
                                                         f"(missing module {e.name})."}
    try:
        svg = turn_svg(rs)
        svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)
        svg = re.sub(r"^\s*<!DOCTYPE[^>]*>\s*", "", svg).strip()
        if not svg.startswith("<svg"):
            raise ValueError("not an SVG picture")
    except Exception as e:  # a picture is a bonus: never let it break the book
        return {"svg": None, "caption": caption,  # the error's class only: its text may hold addresses
                "error": f"The picture of the turn could not be drawn ({type(e).__name__})."}
    return {"svg": svg, "caption": caption, "error": None}
