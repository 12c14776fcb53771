"""The ops are data that every backend reads through a visitor (compiler/ir/visit.py): each op
class has a method in the Python emitter, the C emitter and the printer, so a new op without
one fails here rather than in some game; and an op is a frozen value (equal by class, operands
and type; pickled as its operands; no text of its own)."""

from __future__ import annotations

import pickle

import pytest

from interpreter.compiler.ir import ops as o
from interpreter.compiler.ir.pprint import Printer
from interpreter.compiler.pyemit import PyEmitter, py
from interpreter.native.codegen.emit import Module
from interpreter.native.codegen.expr import NativeUnsupported

BACKENDS = {"python": PyEmitter, "c": Module, "printer": Printer}


def test_every_op_class_is_listed():
    declared = [c for c in vars(o).values() if isinstance(c, type) and issubclass(c, o.Op) and c is not o.Op]
    assert declared == o.ALL


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_op_class_has_a_method_in_every_backend(backend):
    assert BACKENDS[backend].missing() == []


def test_a_backend_without_a_method_is_caught():
    class Partial(PyEmitter):
        visit_Lit = None
    assert Partial.missing() == ["Lit"]


def test_the_c_backend_lowers_a_generic_form_or_says_why_not():
    c = Module.__new__(Module)  # (dispatch only: no program needed to refuse)
    rows = o.Combinations(("_v_arg0",), (o.Global("ALLCARDS", t="cards"),), ((),), t="rows")
    with pytest.raises(NativeUnsupported, match="ir.Combos"):
        c.ex(o.Paired("_agg1", ("_v_arg0",), (), (), (), (), (), rows, t="rows"))  # its plain form
    with pytest.raises(NativeUnsupported, match="Program.var_ir"):
        c.ex(o.EachSeat(o.Lit(0, t="int"), t="ints"))


def test_an_op_is_a_frozen_value():
    a = o.Compare("==", o.Local("a0", t="card"), o.Lit(None, t="none"), t="bool")
    b = o.Compare("==", o.Local("a0", t="card"), o.Lit(None, t="none"), t="bool")
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != o.Compare("==", o.Local("a0", t="card"), o.Lit(None, t="none"), t="int")  # the type counts
    assert o.Lit(1, t="int") != o.Lit(True, t="int")  # as do a constant's Python type
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.t = "int"
    assert repr(a) == "Compare('==', Local('a0'), Lit(None))"
    again = pickle.loads(pickle.dumps(a))
    assert again == a and again.t == "bool" and type(again) is o.Compare


def test_an_op_has_no_text_but_the_emitters():
    x = o.Arith("+", o.Slot(3, t="int"), o.Lit(1, t="int"), t="int")
    assert py(x) == "_add(st.slots[3], 1)"
    with pytest.raises(TypeError, match="pyemit"):
        f"{x}"
    with pytest.raises(TypeError):
        x + "1"


def test_the_c_backend_writes_a_kept_term_where_it_stands():
    """The cse pass's Keep and Kept are for Python's `:=`: C writes the term itself each time (it
    has no effect), so the C of a kept term is the C of the term."""
    c = Module.__new__(Module)  # (dispatch only)
    x = o.Arith("//", o.Lit(7, t="int"), o.Lit(2, t="int"), t="int")
    assert c.ex(o.Keep("_cse0", x, t="int")) == c.ex(x) == c.ex(o.Kept("_cse0", x, t="int"))
    assert c.ex(o.CardKind(o.Lit(3, t="card"), t="int")) == "((int64_t)CR_CARD_KIND(C, cr_idx(x, INT64_C(3), NC)))"
    assert py(o.CardKind(o.Lit(3, t="card"), t="int")) == "st.card_kind[3]"
