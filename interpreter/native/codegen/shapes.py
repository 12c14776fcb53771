"""What the C emitter walks in a lowered program and compares: every op inside an op or a
statement, and an expression's shape with its bound names numbered, so two copies of a test are
worked out once."""

from __future__ import annotations

import re

from ...compiler.ir import ops as o


def walk(x):
    """Every op inside an op or statement (a guarded aggregate's loop form, not its text)."""
    if isinstance(x, o.Guarded):
        yield x
        yield from walk(x.loop)
        return
    if isinstance(x, o.Op):
        yield x
        for v in x.operands():
            yield from walk(v)
        return
    if isinstance(x, tuple):
        for v in x:
            yield from walk(v)
        return
    if hasattr(x, "__dataclass_fields__"):
        for name in x.__dataclass_fields__:
            if name != "node":
                yield from walk(getattr(x, name))


def canonical(e) -> str | None:
    """An expression's text with the names its aggregates bind numbered in order, so that two
    copies of one test read alike; None when working it out draws at random (twice is not once)."""
    bound = []
    for op in walk(e):
        if isinstance(op, o.CHANCE):
            return None
        if isinstance(op, o.AggLoop) and isinstance(op.var, o.Local) and op.var.name not in bound:
            bound.append(op.var.name)
    text = shape(e)
    for k, name in enumerate(bound):
        text = re.sub(rf"'{re.escape(name)}'", f"'#{k}'", text)
    return text


def shape(x) -> str:
    """An op's structure as text, a guarded aggregate as its loop form (the form C is written from)."""
    if isinstance(x, o.Guarded):
        return shape(x.loop)
    if isinstance(x, o.Op):
        return f"{type(x).__name__}({', '.join(shape(getattr(x, f)) for f in x.fields)})"
    if isinstance(x, tuple):
        return f"({', '.join(shape(v) for v in x)},)"
    return repr(x)


def distinct_cards(dom, kinds=None) -> bool:
    """Whether a collection is the cards of zones of different kinds, one each (a player's hand
    and the same player's other pile, say): no card lies in two zones, so it has no repeats."""
    kinds = set() if kinds is None else kinds
    if isinstance(dom, o.Concat):
        return distinct_cards(dom.a, kinds) and distinct_cards(dom.b, kinds)
    if isinstance(dom, o.ZoneCards) and isinstance(dom.zone, o.PlayerZone) and dom.zone.kind not in kinds:
        kinds.add(dom.zone.kind)
        return True
    return False
