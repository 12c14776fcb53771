"""Graph expressions back to the language's own text, for messages, diffs and rulebooks."""

from __future__ import annotations

from . import graph as g

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "in": 4, "not in": 4, "..": 4, "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6}


def unparse(e, prec: int = 0) -> str:
    """Source text of an expression, with only the parentheses it needs."""
    return globals()["_u_" + type(e).__name__](e, prec)


def _wrap(text: str, mine: int, outer: int) -> str:
    return f"({text})" if mine < outer else text


def _u_IntLit(e, p):
    return str(e.value)


def _u_StrLit(e, p):
    return f'"{e.value}"'


def _u_BoolLit(e, p):
    return "true" if e.value else "false"


def _u_NoneLit(e, p):
    return "none"


def _u_Name(e, p):
    return e.name


def _u_Attr(e, p):
    return f"{unparse(e.obj, 9)}.{e.name}"


def _u_Call(e, p):
    return f"{e.func}({', '.join(unparse(a) for a in e.args)})"


def _u_Agg(e, p):
    text = f"{e.op} {e.var} in {unparse(e.domain, 5)}"
    if e.where is not None:
        text += f" where {unparse(e.where, 1)}"
    if e.body is not None:
        text += f": {unparse(e.body)}"
    return _wrap(text, 0, p)


def _u_Cond(e, p):
    return _wrap(f"if {unparse(e.test)} then {unparse(e.then)} else {unparse(e.else_)}", 0, p)


def _u_BinOp(e, p):
    mine = _PREC[e.op]
    right_prec = mine + 1 if e.op not in ("and", "or") else mine
    return _wrap(f"{unparse(e.left, mine)} {e.op} {unparse(e.right, right_prec)}", mine, p)


def _u_UnOp(e, p):
    if e.op == "not":
        return _wrap(f"not {unparse(e.operand, 3)}", 3, p)
    return _wrap(f"-{unparse(e.operand, 8)}", 7, p)


def _u_ListExpr(e, p):
    return "[" + ", ".join(unparse(i) for i in e.items) + "]"


def _u_Split(e, p):
    groups = []
    for grp in e.groups:
        text = f"{unparse(grp.count, 5)} {grp.define}"
        if grp.sizes is not None:
            text += f" of {unparse(grp.sizes, 4)}"
        groups.append(text)
    text = f"split {unparse(e.cards, 5)} into {' and '.join(groups)}"
    if e.score:
        text += f" by {e.score}"
    return _wrap(text, 0, p)
