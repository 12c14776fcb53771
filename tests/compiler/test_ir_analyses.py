"""The compiler's analyses decided on the IR (compiler/ir/reads.py), not on generated text: what
code reads of the state (and so where a definition keeps its answers, and which slots a
choice's moves hang on), the names a mask form's function is handed, whether a definition is
cheap, whether the state keeps masks and whether they pay. Every bundled program is lowered
to ops all the way down (no text joined by hand), and the analyses give the answers the
regular expressions over the generated Python gave (a one-off comparison, kept while the
generated Python is still there to read)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from bundled_games import names_variants_slow
import pytest

from interpreter import load_ruleset, loads_ruleset
from interpreter.bundled import bundled
from interpreter.compiler.compiler import Compiler, _Untabled
from interpreter.compiler.ir import ops as o
from interpreter.compiler.pyemit import paired_lines, py
from interpreter.compiler.ir.reads import (cheap, free_names, light, masks_kept, masks_pay, never_none, plain_name,
                                           replace, state_reads, walk, walk_shown, zone_kind)

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(name for name in bundled() if "/" in name)

# fields of ops that hold a name or a word, not an operand: the only text an op may carry
WORDS = {"value", "name", "fn", "agg", "op", "attr", "side", "which", "pick", "check", "temp", "define", "names",
         "score", "specs"}


@cache
def compilers(name: str, fast: bool = True) -> list[Compiler]:
    """The compilers compile_ruleset runs for a bundled ruleset, each after its compile()."""
    rs = load_ruleset(bundled()[name])
    untabled: frozenset = frozenset()
    while True:
        try:
            out = [Compiler(rs, fast, untabled=untabled)]
            program = out[0].compile()
            if program.masks and not out[0].masks_pay:
                out.append(Compiler(rs, fast, masks=False, untabled=untabled))
                out[1].compile()
            return out
        except _Untabled as e:
            untabled |= {e.name}


def generated(comp: Compiler) -> list:
    return [*comp.gen_ir.values(), *comp.lam_ops, *(x for forms in comp.guards.values() for x in forms),
            *(t.mask for t in comp.p.set_ir.values())]


@pytest.mark.parametrize("name", names_variants_slow(RULESETS))
def test_every_generated_expression_is_made_of_ops(name):
    for fast in (True, False):
        for comp in compilers(name, fast):
            assert all(isinstance(k, o.Op) for k in comp.lam_ops), "an expression's text joined by hand"
            for x in walk(tuple(generated(comp))):
                for f in x.fields:
                    v = getattr(x, f)
                    for y in (v if isinstance(v, tuple) else (v,)):
                        assert not isinstance(y, str) or f in WORDS, \
                            f"{type(x).__name__}.{f} holds text: {y!r}"
                if isinstance(x, o.Guarded):
                    assert isinstance(x.fast, o.Op) and isinstance(x.loop, o.Op)
                if isinstance(x, o.SetCall):  # its function, as data, for any emitter
                    assert comp.p.set_ir[x.fn].name == x.fn


# ---- the one-off comparison: the regular expressions the analyses replace, over the text -------
_OLD_STATE_READS = {"slots", "zones", "card_zone", "card_kind", "card_owner", "played_by", "known", "zmask", "kmask",
                    "omask", "upmask", "zbase", "zcount", "zowner", "zkind", "n_players", "seats", "opts", "memo",
                    "zone_names"}
_OLD_CARD_READS = (_OLD_STATE_READS - {"slots", "memo"}) | {"cmemo"}
_OLD_STATE_FNS = {"_kind_cards", "_kind_tops", "_zone_at", "_zindex", "_depth", "_beneath", "_zones_of", "_split", "_subsets", "_seat",
                  "_zmask"}


def _hidden(comp) -> dict[str, str]:
    """The code inside each generated helper, as text: a guarded aggregate's two forms, a set
    test's mask, a Paired op's function and its fallback."""
    out = {name: py(fast) + " " + py(loop) for name, (fast, loop) in comp.guards.items()}
    out.update({name: py(test.mask) for name, test in comp.p.set_ir.items()})
    for x in walk(tuple(comp.lam_ops)):
        if isinstance(x, o.Paired):
            out[x.fn] = "\n".join(paired_lines(x)) + " " + py(x.plain)
    return out


def _old_reads_through(comp, srcs):
    hidden = _hidden(comp)
    bodies = {}
    for chunk in comp.def_src:
        m = re.match(r"def (\w+)\(", chunk)
        if m:
            bodies[m.group(1)] = chunk
    seen, todo, out = set(), list(srcs), []
    while todo:
        text = todo.pop()
        out.append(text)
        for name in re.findall(r"\b([DU]_\w+|_agg\d+|_set\d+)\b", text):
            body = bodies.get(name) or hidden.get(name)
            if name not in seen and body is not None:
                seen.add(name)
                todo.append(body)
    return "\n".join(out)


def _old_calls(text):
    return {n for n in re.findall(r"\b(\w+)\(st[,)]", text) if not re.fullmatch(r"[DU]_\w+|_agg\d+|_set\d+", n)}


def _old_memo_of(comp, src):
    text = _old_reads_through(comp, [py(src)])
    if "st.slots" in text or set(re.findall(r"\bst\.(\w+)", text)) - _OLD_CARD_READS:
        return "st.memo"
    return "st.memo" if _old_calls(text) - _OLD_STATE_FNS else "st.cmemo"


def _old_choice_reads(comp, choice):
    srcs = [comp.src_of(fn) for alt in choice.alts for fn in (alt.when, alt.values) if fn is not None]
    text = _old_reads_through(comp, srcs)
    if set(re.findall(r"\bst\.(\w+)", text)) - _OLD_STATE_READS or _old_calls(text) - _OLD_STATE_FNS:
        return None
    return tuple(sorted({int(n) for n in re.findall(r"\bst\.slots\[(\d+)\]", text)} - {choice.each_slot}))


def _old_fast_text(comp, src):
    seen, todo, out = set(), [py(src)], []
    while todo:
        text = todo.pop()
        out.append(text)
        for name in re.findall(r"\b_agg\d+\b", text):
            if name not in seen:
                seen.add(name)
                todo.append(py(comp.guards[name][0]))
    return " ".join(out)


@pytest.mark.parametrize("name", RULESETS)
def test_the_analyses_answer_as_the_regular_expressions_did(name):
    for comp in compilers(name, True):
        p = comp.p
        for fname, body in comp.gen_ir.items():
            if fname.startswith("ADVICE_"):
                continue
            assert comp.memo_of(body) == _old_memo_of(comp, body), fname
            text = _old_fast_text(comp, body)
            assert cheap(body) == (not any(w in text for w in (" for ", "D_", "U_", "_split(", "_bits(",
                                                                "_kind_cards(", "[*", "_set"))), fname
        for choice in p.choices:
            assert choice.reads == _old_choice_reads(comp, choice)
        text = " ".join([*comp.def_src, *comp.lam_cache, *_hidden(comp).values()])
        assert p.masks == (any(f"st.{m}" in text for m in ("zmask", "kmask", "omask", "upmask")) or "_zmask(" in text)
        if p.masks:  # (without masks, whether they would pay is asked of nothing; a definition named
            # is_set made the text say yes)
            assert comp.masks_pay == any(w in text for w in (
                "st.kmask", "st.omask", "st.upmask", "_set", "_order_from", "ABOVEM", "BELOWM", "SUITM", "RANKM",
                "ORDM", "_bits(", "_hi(", "_lo("))
        for name_, (fast, loop) in comp.guards.items():
            if name_.startswith("_agg"):
                both = py(fast) + " " + py(loop)
                words = set(re.findall(r"\b(a\d+|_v_\w+|_vp|_o\d+)\b", both)) - \
                    set(re.findall(r"\bfor (\w+) in\b", both))
                assert free_names(fast, loop) == words, name_


# ---- the analyses on a small game -------------------------------------------------------------
SMALL = """\
game reads "Reads"
players 2
at most 40 decisions

deck small "Twelve cards":
    suits Red, Blue, Green
    ranks 1..4

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone table shared public "table"

var bonus: int = 0
var last: card

define reds(p: player) = count c in hand(p) where c.suit == Red and c.rank > 1
define reds_and_bonus(p: player) = reds(p) + bonus
define beats(c: card) = last == none or c.suit == last.suit
define score(p: player) = count(hand(p))

winner fewest score

phase deal "Dealing" then play:
    rule deal "The deal":
        shuffle stock
        deal 3 from stock to each hand

phase play "Play":
    while any c in cards where c in hand:
        choose by each p in players:
            action play c in hand(p) where beats(c) and c.order > bonus "Play a card.":
                move c to table
                set last = c
            action lead c in hand(p) where reds(p) > 0 "Lead a card.":
                move c to table
                set last = c
            action pass "Pass.":
                set bonus = bonus + 1
"""


@pytest.fixture(scope="module")
def small():
    comp = Compiler(loads_ruleset(SMALL, str(ROOT / "tests" / "reads.cards")), True)
    comp.compile()
    return comp


def test_a_definition_of_the_cards_alone_keeps_its_answers_until_cards_move(small):
    """reds reads cards only: st.cmemo; reds_and_bonus reads a variable through its body: st.memo."""
    assert small.memo_of(small.gen_ir["D_reds"]) == "st.cmemo"
    assert small.memo_of(small.gen_ir["D_reds_and_bonus"]) == "st.memo"
    r = small.reads_of([small.gen_ir["D_reds_and_bonus"]])
    assert small.var_slots["bonus"][0] in r.slots


def test_a_choice_by_each_depends_on_the_slots_its_moves_read(small):
    """The moves read `last` (through beats) and `bonus`, and the chooser, whose slot does not count."""
    (choice,) = small.p.choices
    xs = [small.ir_of(alt.values) for alt in choice.alts[:1]]
    assert small.reads_of(xs).slots - {choice.each_slot} == {small.var_slots["last"][0], small.var_slots["bonus"][0]}
    # the rule as the regular expressions had it: a definition that keeps its answers in st.cmemo
    # reads a field that is not among the cards' and the slots', so the moves are worked out afresh
    assert "cmemo" in small.reads_of([small.ir_of(choice.alts[1].values)]).attrs
    assert choice.reads is None


def test_reads_follow_calls_through_definitions_and_set_tests():
    body = o.Call("D_x", (o.Local("a0"),), t="int")
    inner = o.Arith("+", o.Slot(7, t="int"), o.Len(o.ZoneCards(o.ZoneBase(2, t="zone"), t="cards"), t="int"), t="int")
    r = state_reads([body], {"D_x": (inner,)}.get, {"D_x": "memo"}.get)
    assert r.slots == {7} and {"slots", "zones", "zbase", "memo"} <= r.attrs
    call = o.SetCall("_set1", o.AllMask(t="mask"), (), t="mask")
    r = state_reads([call], {"_set1": (o.OwnerMask(o.Opt(0, t="player"), t="mask"),)}.get)
    assert {"omask", "opts"} <= r.attrs


def _guarded(fast, loop):
    return o.Guarded("_agg1", tuple(o.Local(n) for n in sorted(free_names(fast, loop))), fast, loop, t=loop.t)


def test_a_mask_forms_function_is_handed_the_names_it_does_not_bind():
    v = o.Local("_v_c_1", t="card")
    loop = o.AggLoop("count", v, o.ZoneCards(o.PlayerZone(3, o.Local("a0", t="player"), t="zone"), t="cards"),
                     o.Compare("==", o.CardAttr("suit", v, t="suit"), o.CardAttr("suit", o.Local("_v_d_2"), t="suit"),
                               t="bool"), None, t="int")
    assert free_names(loop) == {"a0", "_v_d_2"}  # not the aggregate's own variable
    g = _guarded(o.PopCount(o.Paren(o.ZoneMask(o.Local("a0"), t="mask"), t="mask"), t="int"), loop)
    assert py(g) == "_agg1(st, _v_d_2, a0)"
    assert free_names(g) == {"_v_d_2", "a0"}  # a guarded aggregate shows what it is handed, not its forms


def test_replace_acts_on_what_the_text_shows():
    """As a substitution in the text did: inside a guarded aggregate only the names handed to it."""
    cand = o.Local("cand", t="mask")
    inner = _guarded(o.MaskBin("&", cand, o.UpMask(t="mask"), t="mask"),
                     o.AggLoop("those", o.Local("_v_x_1"), o.Global("ALLCARDS"), None, None, t="cards"))
    x = o.MaskBin("|", cand, o.Cond(o.Compare("!=", inner, o.Lit(0), t="bool"), o.AllMask(), o.Lit(0)), t="mask")
    y = replace(x, lambda op: o.KindMask(1, t="mask") if op == cand and isinstance(op, o.Local) else None)
    assert py(y) == "(st.kmask[1] | (ALLM if (_agg1(st) != 0) else 0))"
    assert y.b.test.a is inner  # untouched: rebuilt only where something changed


def test_cheap_reads_the_mask_forms_that_run():
    v = o.Local("_v_c_1", t="card")
    loop = o.AggLoop("any", v, o.ZoneCards(o.ZoneBase(1), t="cards"), o.CardAttr("face_up", v, t="bool"), None,
                     t="bool")
    fast = o.Compare("!=", o.Paren(o.MaskBin("&", o.ZoneMask(o.ZoneBase(1)), o.UpMask()), t="mask"), o.Lit(0), t="bool")
    assert not cheap(loop)
    assert cheap(_guarded(fast, loop))  # the loop form runs only when the mask form meets a none
    assert not cheap(o.Call("D_other", (), t="int"))
    assert light(o.Call("D_other", (), t="int"), set()) and not light(o.Call("D_other", (), t="int"), {"D_other"})


def test_names_and_zones():
    assert never_none(o.Paren(o.Local("_v_c_3"))) and not never_none(o.Local("a0"))
    # (text once decided these: `(_v_c if t else d)` began like a loop's variable)
    assert not never_none(o.Cond(o.Lit(True), o.Local("_v_c_3"), o.Lit(None)))
    assert plain_name(o.Slot(4)) and plain_name(o.Lit(None)) and not plain_name(o.Lit(1)) and \
        not plain_name(o.PlayerVar(2, o.Local("a0")))
    assert zone_kind(o.Paren(o.PlayerZone(3, o.Local("a0")))) == 3
    assert zone_kind(o.ZoneAt(2, o.Lit(1))) == 2
    assert zone_kind(o.Cond(o.Lit(True), o.ZoneBase(1), o.ZoneBase(2))) is None


def test_whether_masks_are_kept_and_pay():
    zone_only = o.PopCount(o.ZoneMask(o.ZoneBase(1)))
    assert masks_kept([zone_only]) and not masks_pay([zone_only])
    by_suit = o.MaskBin("&", o.ZoneMask(o.ZoneBase(1)), o.SuitMask(o.Lit(0)))
    assert masks_pay([by_suit])
    assert not masks_kept([o.Call("D_is_set", (), t="bool")])  # a name is only a name
    assert [x for x in walk_shown(by_suit) if isinstance(x, o.SuitMask)]
