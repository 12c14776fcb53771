"""unparse is what diffs, messages and rulebooks print as the language's own text: reading it
back must give the same expression, with no parentheses beyond those the grammar needs."""

from __future__ import annotations

import glob

import pytest
from pydantic import BaseModel

from interpreter.language import graph as g
from interpreter.language.build import build_file
from interpreter.language.unparse import unparse
from expressions import no_loc, read

RULESETS = sorted(glob.glob("rulesets/*/*.cards"))
_EXPR_TYPES = (g.IntLit, g.StrLit, g.BoolLit, g.NoneLit, g.Name, g.Attr, g.Call, g.Agg, g.Cond,
               g.BinOp, g.UnOp, g.ListExpr, g.Split)


def _top_exprs(node, out):
    """Every expression of the graph that is not part of a larger one."""
    if isinstance(node, _EXPR_TYPES):
        out.append(node)
        return out
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            _top_exprs(getattr(node, name), out)
    elif isinstance(node, (tuple, list)):
        for x in node:
            _top_exprs(x, out)
    elif isinstance(node, dict):
        for x in node.values():
            _top_exprs(x, out)
    return out


@pytest.mark.parametrize("path", RULESETS)
def test_every_expression_reads_back_the_same(path):
    exprs = _top_exprs(build_file(path), [])
    assert len(exprs) > 20
    for e in exprs:
        text = unparse(e)
        assert no_loc(read(text)) == no_loc(e), text


@pytest.mark.parametrize("text", [
    "0 - sum c in hand(p): c.points",
    "a and any c in hand(p) where c.rank == 1",
    "2 * count c in hand(p) where c.suit == s",
    "not any c in hand(p) where low(c)",
    "-sum c in hand(p): c.points",
    "if a then 1 elif b then 2 elif c then 3 else 4",
    "x + if a then 1 else 2",
    "(count c in hand(p)) >= 2",
    "(if a then 1 else 2) + 3",
    "(any c in hand(p)) and b",
    "(sum c in hand(p): c.points) * 2",
    "a or b and c or d",
    "(a or b) and c",
])
def test_unparse_prints_only_the_parentheses_needed(text):
    assert unparse(read(text)) == text
