"""Visitors over the IR's expression ops, as mypyc's `OpVisitor`: a backend is a class with one
method per op class, named after it (`visit_Lit`, ...; the C emitter's are `x_Lit`, ...), and
`visit(x)` calls the one for x's class. Dispatch by name, never a chain of isinstance tests; a
new op class without a method in every backend fails tests/compiler/test_ir_visitors.py."""

from __future__ import annotations

from . import ops as o


class OpVisitor:
    """Subclasses define `<prefix><OpName>(self, x)` for every class of `ops.ALL`."""
    prefix = "visit_"

    def visit(self, x):
        return getattr(self, self.prefix + type(x).__name__)(x)

    @classmethod
    def missing(cls) -> list[str]:
        """The op classes this visitor has no method for."""
        return [c.__name__ for c in o.ALL if not callable(getattr(cls, cls.prefix + c.__name__, None))]
