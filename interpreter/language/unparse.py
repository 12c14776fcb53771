"""Graph expressions back to the language's own text, for messages, diffs and rulebooks."""

from __future__ import annotations

from . import graph as g

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "in": 4, "not in": 4, "..": 4, "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6, "^": 8}


def unparse(e, prec: int = 0, open_ok: bool = True) -> str:
    """Source text of an expression, with only the parentheses it needs. `open_ok` says whether
    an aggregate, `if` or `split` may stand here bare: they reach as far right as they can, so
    only the last operand of an expression may be one without parentheses."""
    return globals()["_u_" + type(e).__name__](e, prec, open_ok)


def _wrap(text: str, mine: int, outer: int) -> str:
    return f"({text})" if mine < outer else text


def _open(text: str, p: int, open_ok: bool) -> str:
    return text if open_ok else f"({text})"


def _u_IntLit(e, p, o):
    return str(e.value)


def _u_StrLit(e, p, o):
    return quote(e.value)


def quote(text: str) -> str:
    """A string as the language writes it (build.py reads it back): quotes and backslashes escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _u_BoolLit(e, p, o):
    return "true" if e.value else "false"


def _u_NoneLit(e, p, o):
    return "none"


def _u_Name(e, p, o):
    return e.name


def _u_Attr(e, p, o):
    return f"{unparse(e.obj, 9, False)}.{e.name}"


def _u_Call(e, p, o):
    return f"{e.func}({', '.join(unparse(a) for a in e.args)})"


def _u_Agg(e, p, o):
    text = f"{e.op} {e.var} in {unparse(e.domain, 5, False)}"
    if e.where is not None:
        text += f" where {unparse(e.where, 1, False)}"
    if e.body is not None:
        text += f" by {unparse(e.body)}" if e.op in ("highest", "lowest") else f": {unparse(e.body)}"
    return _open(text, p, o)


def _u_Cond(e, p, o):
    # an aggregate or `if` in a test or a branch other than the last is bracketed: bare, it reads
    # on into the `then` or `else` after it (the parser knows where it ends; a reader may not)
    text = f"if {unparse(e.test, 0, False)} then {unparse(e.then, 0, False)}"
    while isinstance(e.else_, g.Cond):
        e = e.else_
        text += f" elif {unparse(e.test, 0, False)} then {unparse(e.then, 0, False)}"
    return _open(f"{text} else {unparse(e.else_)}", p, o)


def _u_BinOp(e, p, o):
    mine = _PREC[e.op]
    if e.op == "^":  # right to left, its base a plain operand, its exponent may carry a sign
        return _wrap(f"{unparse(e.left, 9, False)} ^ {unparse(e.right, 7, o or mine < p)}", mine, p)
    right_prec = mine + 1 if e.op not in ("and", "or") else mine
    wrapped = mine < p
    right_open = (o or wrapped) and e.op != ".."
    return _wrap(f"{unparse(e.left, mine, False)} {e.op} {unparse(e.right, right_prec, right_open)}", mine, p)


def _u_UnOp(e, p, o):
    if e.op == "not":
        return _wrap(f"not {unparse(e.operand, 3, o or 3 < p)}", 3, p)
    return _wrap(f"-{unparse(e.operand, 8, o or 7 < p)}", 7, p)


def _u_ListExpr(e, p, o):
    return "[" + ", ".join(unparse(i) for i in e.items) + "]"


def _u_NextWhere(e, p, o):
    which, rel = ("previous", "before") if e.back else ("next", "after")
    return _open(f"{which} {e.var} {rel} {unparse(e.start, 5, False)} where {unparse(e.where, 1, False)}", p, o)


def _u_Split(e, p, o):
    groups = []
    for grp in e.groups:
        text = f"{unparse(grp.count, 5, False)} {grp.define}"
        if grp.args:
            text += f"({', '.join(unparse(a) for a in grp.args)})"
        if grp.sizes is not None:
            text += f" of {unparse(grp.sizes, 4, False)}"
        groups.append(text)
    text = f"split {unparse(e.cards, 5, False)} into {' and '.join(groups)}"
    if e.score:
        text += f" by {e.score}"
    return _open(text, p, o)


def unparse_removals(changes) -> list[str]:
    """The `remove` lines of a variant, from its changes: removals of one kind in a row share a
    line, so that build.py reads them back to the same removals in the same order."""
    from .removal import WORDS
    kind_of = {word: kind for kind, word in WORDS.items()}
    lines: list[tuple[str, list[str]]] = []
    for c in changes:
        if c.action != "removed":
            continue
        kind = kind_of[c.what]
        if lines and lines[-1][0] == kind:
            lines[-1][1].append(c.name)
        else:
            lines.append((kind, [c.name]))
    return [f"remove {kind} {', '.join(names)}" for kind, names in lines]


def action_param_text(param) -> str:
    """One parameter of an action as written: `c in hand(p)`, or a set, `S subset of table`."""
    word = "subset of" if param.subset else "in"
    domain = param.domain
    text = unparse(domain) if isinstance(domain, g.BinOp) and domain.op == ".." else unparse(domain, 5, False)
    return f"{param.var} {word} {text}"


def action_params_text(action) -> str:
    """An action's parameters as written after its name (empty when it has none)."""
    return ", ".join(action_param_text(g.ActionParam(var=v, domain=d, subset=s)) for v, d, s in action.params())
