"""Common subexpressions, worked out once: in generated code a term is often spelled out
several times in one expression (a test that compares a card with the top card of a pile by
suit and by rank names that top card four times). Within one expression the state cannot change, so the
second time it is needed its value is the first's; `(_cN := term)` keeps it.

Only where the first evaluation is certain to have happened before the later one (the left
side of an `and` before its right side, an `if`'s test before either branch, and so on), so
every expression still evaluates exactly the calls it did before, in the same order, up to the
first one that raises: a failing expression fails where it did, and the fallbacks and error
messages that hang on that stay as they were. Expressions that change anything (a chance
draw, a statement's effect) are left exactly as written."""

from __future__ import annotations

import ast
import threading

# CPython 3.11 keeps the depth of the AST it is converting in one counter per interpreter, not per
# thread (python/cpython#106905): two threads parsing or compiling a tree at once (a table server
# compiling a game for a page while a bot's thread compiles another) can fail with "SystemError: AST
# constructor recursion depth mismatch". Every conversion here takes this lock.
_AST = threading.Lock()
# callees known to read the state and nothing else (the generated definitions and aggregates
# are pure by the language: chance is allowed in statements only)
_PURE = {"_kind_cards", "_kind_tops", "_first", "_last", "_seat", "_zone_at", "_zindex", "_depth", "_beneath", "_zones_of",
         "_top_n", "_bottom_n", "_split", "len", "any", "all", "sum", "min", "max", "abs", "tuple",
         "list", "set", "frozenset", "sorted", "range", "int", "bool", "next", "iter"}
_PURE_PREFIX = ("D_", "U_", "_agg", "_set", "_none_", "_order_")
_TABLE_METHODS = {"get"}
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def cse_expr(src: str) -> str:
    """One expression's source with its repeated terms computed once (unchanged if none is)."""
    if src.count("(") < 4:  # nothing worth the work
        return src
    try:
        with _AST:
            tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return src
    if not _rewrite(tree, "body"):
        return src
    return ast.unparse(tree)


def cse_module(src: str, filename: str = "<generated>"):
    """Compiled code for generated functions, every statement's expressions done one
    statement at a time (between two statements the state may have changed)."""
    with _AST:
        try:
            tree = ast.parse(src)
        except SyntaxError:
            return compile(src, filename, "exec")  # raises the error where it is
    tree = ast.fix_missing_locations(_module(tree))
    with _AST:
        return compile(tree, filename, "exec")


def cse_module_source(src: str) -> str:
    """What cse_module compiles, as text (for reading and for tests)."""
    with _AST:
        tree = ast.parse(src)
    return ast.unparse(_module(tree))


def _module(tree):
    for block in _blocks(tree.body):
        _hoist(block)
    for block in _blocks(tree.body):
        for node in block:
            for field in ("value", "test", "iter"):
                if isinstance(getattr(node, field, None), ast.expr):
                    _rewrite(node, field)
    return tree


def _blocks(body: list):
    """Every list of statements, nested ones too, without walking into expressions."""
    yield body
    for node in body:
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                if isinstance(inner[0], ast.excepthandler):
                    for h in inner:
                        yield from _blocks(h.body)
                else:
                    yield from _blocks(inner)


def _hoist(block: list) -> bool:
    """`return [.. for _m in (X,) ..]` (a mask worked out once for a whole comprehension)
    becomes `_hN = X; return [.. for _m in (_hN,) ..]`: X is what the statement evaluates first
    either way, and as a statement of its own its repeated terms can be kept (no assignment may
    stand inside a comprehension's iterable)."""
    changed = False
    k = 0
    while k < len(block):
        stmt = block[k]
        v = getattr(stmt, "value", None) if isinstance(stmt, (ast.Return, ast.Assign, ast.Expr)) else None
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.args and _callee_pure(v.func):
            v = v.args[0]
        it = v.generators[0].iter if isinstance(v, _COMPREHENSIONS) else None
        if (isinstance(it, ast.Tuple) and len(it.elts) == 1 and isinstance(it.elts[0], (ast.Call, ast.BinOp, ast.IfExp))
                and _all_pure(stmt.value)):
            name = f"_h{k}"
            block.insert(k, ast.copy_location(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=it.elts[0]), stmt))
            it.elts[0] = ast.Name(id=name, ctx=ast.Load())
            changed = True
            k += 1
        k += 1
    return changed


def _rewrite(holder, field: str) -> bool:
    expr = getattr(holder, field)
    if not _all_pure(expr):
        return False
    expr = _Flatten().visit(expr)
    setattr(holder, field, expr)
    w = _Walk()
    w.visit(expr, {}, True)
    if not w.uses:
        return False
    setattr(holder, field, _Apply(w).visit(expr))
    return True


class _Flatten(ast.NodeTransformer):
    """`(a and b) and c` is `a and b and c`, which tells the walk that a term of b was
    certainly worked out before c (of a nested `and` it only knows its first operand)."""

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        values = []
        for v in node.values:
            values.extend(v.values if isinstance(v, ast.BoolOp) and type(v.op) is type(node.op) else [v])
        node.values = values
        return node


def _callee_pure(func) -> bool:
    if isinstance(func, ast.Name):
        return func.id in _PURE or func.id.startswith(_PURE_PREFIX)
    if isinstance(func, ast.Attribute):  # a table's lookup: SUITM.get(...)
        return func.attr in _TABLE_METHODS and isinstance(func.value, ast.Name) and func.value.id.isupper()
    return False


def _all_pure(expr) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and not _callee_pure(node.func):
            return False
        if isinstance(node, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _candidate(node) -> bool:
    return isinstance(node, (ast.Call, ast.Subscript, ast.BinOp)) 


class _Walk:
    """Walks an expression in the order Python evaluates it, with the terms certainly evaluated
    so far (`avail`: key -> first node); a later equal term becomes a use of the first."""

    def __init__(self):
        self.uses: dict[int, int] = {}      # id(later node) -> id(first node)
        self.defs: dict[int, str] = {}      # id(first node) -> temporary name
        self.shapes: dict[tuple, int] = {}  # a node's shape -> a small number, equal for equal terms
        self.known: dict[int, int] = {}     # id(node) -> its number

    def key(self, node) -> int:
        """Equal numbers for equal terms (the shape of the tree, leaving out load/store)."""
        k = self.known.get(id(node))
        if k is not None:
            return k
        parts = [node.__class__]
        for f, v in ast.iter_fields(node):
            if isinstance(v, ast.AST):
                if f != "ctx":
                    parts.append(self.key(v))
            elif isinstance(v, list):
                parts.append(tuple(self.key(x) if isinstance(x, ast.AST) else x for x in v))
            else:
                parts.append((v.__class__, v))
        shape = tuple(parts)
        k = self.shapes.get(shape)
        if k is None:
            k = self.shapes[shape] = len(self.shapes)
        self.known[id(node)] = k
        return k

    def visit(self, node, avail: dict, define: bool) -> None:
        key = None
        if _candidate(node):
            key = self.key(node)
            first = avail.get(key)
            if first is not None:  # computed already: not evaluated again
                self.uses[id(node)] = id(first)
                if id(first) not in self.defs:
                    self.defs[id(first)] = f"_cse{len(self.defs)}"
                return
        self.children(node, avail, define)
        if key is not None and define:
            avail[key] = node

    def children(self, node, avail: dict, define: bool) -> None:
        v = self.visit
        if isinstance(node, ast.BoolOp):  # only the first operand is certain
            v(node.values[0], avail, define)
            inner = dict(avail)
            for x in node.values[1:]:
                v(x, inner, define)
        elif isinstance(node, ast.IfExp):
            v(node.test, avail, define)
            v(node.body, dict(avail), define)
            v(node.orelse, dict(avail), define)
        elif isinstance(node, ast.Compare):  # a chain stops at its first false link
            v(node.left, avail, define)
            v(node.comparators[0], avail, define)
            inner = dict(avail)
            for x in node.comparators[1:]:
                v(x, inner, define)
        elif isinstance(node, _COMPREHENSIONS):
            # the first iterable is evaluated once, outside; everything else per turn
            # (no assignment may stand in a comprehension's iterable)
            gens = node.generators
            v(gens[0].iter, avail, False)
            inner = dict(avail)
            for k, g in enumerate(gens):
                if k:
                    v(g.iter, inner, False)
                for cond in g.ifs:
                    v(cond, inner, define)
                    inner = dict(inner)  # what a test computes holds for the rest of the turn
            if isinstance(node, ast.DictComp):
                v(node.key, inner, define)
                v(node.value, inner, define)
            else:
                v(node.elt, inner, define)
        elif isinstance(node, ast.Call):
            v(node.func, avail, define)
            for a in node.args:
                v(a, avail, define)
            for k in node.keywords:
                v(k.value, avail, define)
        elif isinstance(node, (ast.Lambda, ast.JoinedStr)):
            return
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    v(child, avail, define)


class _Apply(ast.NodeTransformer):
    def __init__(self, w: _Walk):
        self.w = w
        self.names = {}

    def visit(self, node):
        first = self.w.uses.get(id(node))
        if first is not None:
            return ast.Name(id=self.w.defs[first], ctx=ast.Load())
        name = self.w.defs.get(id(node))
        new = self.generic_visit(node)
        if name is not None:
            return ast.NamedExpr(target=ast.Name(id=name, ctx=ast.Store()), value=new)
        return new
