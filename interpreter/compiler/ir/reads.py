"""What generated code reads, decided on the IR: walks over ops (`compiler/ir/ops.py`) that
answer the questions the compiler used to answer by reading its own generated Python back
with regular expressions. One function per question, each saying why it is asked.

Two views of an op's operands:
- `shown`: the operands its Python text spells out (a guarded aggregate shows only the call of
  its function and the names passed in; a set test its call). The compiler's rewrites of a
  mask form (`replace`) act on these, as the text substitutions they replace did.
- `inside`: everything it works out when it runs, following the generated functions it calls
  (a definition's body, an aggregate's mask and loop forms, a set test's mask) through
  `helpers`, the compiler's table of them by name."""

from __future__ import annotations

from typing import Callable, Iterator

from . import ops as o


def shown(x) -> list:
    """The operands an op's Python text spells out."""
    if isinstance(x, o.Guarded):
        return list(x.free)
    if isinstance(x, o.SetCall):
        return [x.cand, *x.free]
    if isinstance(x, o.Paired):
        return []
    return x.operands()


def _ops(v) -> Iterator:
    if isinstance(v, o.Op):
        yield v
    elif isinstance(v, tuple):
        for i in v:
            yield from _ops(i)


def walk_shown(x) -> Iterator:
    """Every op of x that its text spells out, x first."""
    for y in _ops(x):
        yield y
        for v in shown(y):
            yield from walk_shown(v)


def walk(x, into: Callable | None = None, fast_only: bool = False) -> Iterator:
    """Every op x works out, x first: all operands, a guarded aggregate's mask and loop forms
    (`fast_only`: its mask form alone, what runs unless it meets a none); with `into` (name ->
    ops or None), the bodies of the generated functions it calls too, each once."""
    seen: set[str] = set()
    todo = list(_ops(x))
    while todo:
        y = todo.pop()
        yield y
        if isinstance(y, o.Guarded):
            kids = [y.fast] if fast_only else [y.fast, y.loop]
            kids += list(y.free)
        else:
            kids = y.operands()
        if into is not None:
            for name in called(y):
                if name not in seen:
                    seen.add(name)
                    kids.extend(into(name) or ())
        for v in reversed(kids):
            todo.extend(reversed(list(_ops(v))))


def called(x) -> list[str]:
    """The generated functions an op calls by name whose work it does not hold itself:
    definitions (a `D_`, `U_` or `ADVICE_` function), set tests, the meld search's tests."""
    if isinstance(x, (o.Call, o.SetCall)):
        return [x.fn]
    if isinstance(x, o.Split):
        return [fn for _, fn, _ in x.specs] + ([x.score] if x.score else [])
    return []


def replace(x, fn: Callable):
    """x with each op that `fn` maps to something else replaced (None: keep, look inside), in
    the operands its text shows; the rest is rebuilt only where something changed."""
    if isinstance(x, tuple):
        new = tuple(replace(v, fn) for v in x)
        return x if all(a is b for a, b in zip(new, x)) else new
    if not isinstance(x, o.Op):
        return x
    r = fn(x)
    if r is not None:
        return r
    if isinstance(x, (o.Guarded, o.Paired)):
        fields = {"free": replace(x.free, fn)} if isinstance(x, o.Guarded) else {}
    elif isinstance(x, o.SetCall):
        fields = {"cand": replace(x.cand, fn), "free": replace(x.free, fn)}
    else:
        fields = {f: replace(getattr(x, f), fn) for f in x.fields}
    if all(fields[f] is getattr(x, f) for f in fields):
        return x
    return type(x)(*(fields.get(f, getattr(x, f)) for f in x.fields), t=x.t)


def unparen(x):
    while isinstance(x, o.Paren):
        x = x.x
    return x
