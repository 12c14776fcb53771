"""What the language room's tests of printed expressions share: an expression read from its
text, and a graph node without its source locations, to compare two readings."""

from __future__ import annotations

from pydantic import BaseModel

from interpreter.language.parse import parse_text
from interpreter.language.transform import ToGraph


def no_loc(node):
    """The node as nested tuples, every `loc` left out (two readings of one text compare equal)."""
    if isinstance(node, BaseModel):
        return (type(node).__name__,) + tuple((k, no_loc(getattr(node, k))) for k in type(node).model_fields if k != "loc")
    if isinstance(node, (tuple, list)):
        return tuple(no_loc(x) for x in node)
    return node


def read(text: str):
    """The expression `text` as the language reads it (the body of a definition)."""
    items = ToGraph("<unparse>").transform(parse_text(f"game t\ndefine x = {text}\n", "<unparse>"))
    return items[1].body
