"""The IR's printer (compiler/ir/pprint.py), as mypyc's irbuild tests pin its IR: golden
printouts of a few bundled programs (tests/compiler/ir/), a small game printed in full below, the same
text from every compilation, and every op and statement class either printed by some bundled
game or named here with the reason none prints it."""

from __future__ import annotations

import dataclasses
import difflib
import re
from functools import cache

import pytest

from bundled_games import is_variant, rules
from interpreter.language.build import build_file, build_text
from interpreter.bundled import bundled
from interpreter.compiler import compile_ruleset
from interpreter.compiler.ir import ops as o
from interpreter.compiler.ir import pprint as pp
from interpreter.compiler.ir import stmts
from interpreter.language.graph import Loc

# between them most op kinds: tricks and masks, betting, secret bids, passing, a patience's moves
# between piles, a fishing game's sets of cards (Subsets, Split, Paired). euro-jongg's printout
# (over 4,000 lines) is left to the coverage check below.
GOLDEN = ["ganjifa/ganjifa", "classic/kuhn-poker", "classic/goofspiel", "classic/hearts", "classic/freecell",
          "classic/cassino"]
BASE_GAMES = sorted(n for n in bundled() if "/" in n and not is_variant(bundled()[n]))

OP_CLASSES = [c for c in vars(o).values() if isinstance(c, type) and issubclass(c, o.Op) and c is not o.Op]
# the statements, and the set tests the program keeps as data beside its ops
DATA_CLASSES = [c for c in vars(stmts).values() if dataclasses.is_dataclass(c) and c.__module__ == stmts.__name__]
DATA_CLASSES.append(o.SetTest)

# classes no bundled game's printout holds, each with why
NOT_IN_BUNDLED = {
    "EachSeat": "the Python function giving a per-player variable's first values; var_ir keeps the value itself",
    "LoopMore": "the Python text of a loop's test; the IR holds stmts.LoopTest for it",
    "ZoneOwner": "`z.owner` of a zone: no bundled game reads it (RARE prints it)",
    "CardsOf": "`cards_of(suit)`: no bundled game calls it (RARE prints it)",
    "UpMask": "`c.face_up` inside an aggregate the mask compiler reads (RARE prints it)",
    "ZoneMaskOf": "`c.zone == Z` inside an aggregate the mask compiler reads (RARE prints it)",
    "Shuffled": "`shuffled(players)`: no bundled game calls it (RARE prints it)",
    "SeatsBefore": "`previous q before p where ...`: no bundled game writes it (RARE prints it)",
}


@cache
def program(name: str):
    """A bundled game's program as the engine keeps it (shared with the worker's other tests, and
    printed the same as a fresh compilation: test_two_compilations_print_the_same)."""
    from interpreter.engine.play import program_of
    return program_of(rules(name))


@cache
def printed(name: str) -> str:
    return pp.format_program(program(name))


def classes_in(text: str) -> set[str]:
    return set(re.findall(r"\b([A-Z]\w*)\(", text))


@pytest.mark.parametrize("name", GOLDEN)
def test_the_golden_printouts_are_what_the_printer_prints(name):
    gold = pp.golden_path(bundled()[name])
    assert gold.exists(), f"no golden printout {gold}: write it with `{pp.COMMAND} {bundled()[name]}`"
    expected, got = gold.read_text(encoding="utf-8"), printed(name)
    if expected != got:
        diff = "\n".join(list(difflib.unified_diff(expected.splitlines(), got.splitlines(), f"{name}.ir (golden)",
                                                   "printed now", lineterm="", n=2))[:60])
        pytest.fail(f"the IR of {name} is no longer as pinned:\n{diff}\n"
                    f"if the change is meant, regenerate with `{pp.COMMAND}` and review the diff", pytrace=False)


def test_every_golden_printout_is_one_of_these():
    pinned = {pp.golden_path(bundled()[n]) for n in GOLDEN}
    assert set(pp.GOLDEN.glob("**/*.ir")) == pinned, f"tests/compiler/ir/ holds other printouts than {GOLDEN}"


def test_two_compilations_print_the_same():
    """The text hangs on nothing of one compilation (the ids of its functions, the order of a set):
    a program compiled again prints the same, and printing changes nothing. (Each golden file was
    written by another process, with another hash seed.)"""
    for name in ("classic/hearts", "ganjifa/ganjifa"):
        again = compile_ruleset(build_file(bundled()[name]))
        assert pp.format_program(again) == printed(name)
        assert pp.format_program(again) == printed(name)


def test_every_class_is_printed_by_some_game_or_named_with_its_reason():
    """Over the base games (a variant states only what its base does differently), every op and
    statement class shows, and nothing is written as a repr with an address."""
    seen: set[str] = set()
    for name in BASE_GAMES:
        text = printed(name)
        assert " at 0x" not in text and "<function" not in text, name
        seen |= classes_in(text)
    for cls in OP_CLASSES + DATA_CLASSES:
        if cls.__name__ in NOT_IN_BUNDLED:
            assert cls.__name__ not in seen, f"{cls.__name__} is printed now: take it off NOT_IN_BUNDLED"
        else:
            assert cls.__name__ in seen, (f"no bundled game's printout holds {cls.__name__}: print a game that "
                                          "makes it, or name it in NOT_IN_BUNDLED with the reason")


RARE = """\
game rare "Rare ops"
players 2
at most 4 decisions

deck small "Four cards":
    suits Red, Blue
    ranks 1..2

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone table shared public "table"

define holder(c: card) = c.zone.owner
define reds = count(cards_of(Red))
define shown(p: player) = count c in cards where c.face_up and c.zone == hand(p)
define score(p: player) = count(hand(p)) + shown(p) + reds

winner fewest score

phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 2 from stock to each hand
        for each q in shuffled(players):
            move top(hand(q)) to table
        move top(stock) to hand(previous q before seat(1) where count(hand(q)) == 0)
    rule lead "The lead":
        choose by seat(1):
            action play c in hand(seat(1)) where holder(c) == seat(1) "Play a card.":
                move c to table
            action take c in table where c == top(c.zone) "Take the top card.":
                move c to hand(seat(1))
"""


def test_the_ops_no_bundled_game_makes_print_too():
    text = pp.format_program(compile_ruleset(build_text(RARE, "rare.cards")))
    rare = {n for n, why in NOT_IN_BUNDLED.items() if "RARE" in why}
    assert rare <= classes_in(text), rare - classes_in(text)
    printer = pp.Printer()
    assert printer.flat(o.EachSeat(o.Lit(0, t="int"), t="ints")) == "EachSeat(Lit(0):int):ints"
    assert printer.flat(o.LoopMore(3, 4, t="bool")) == "LoopMore(lst=3, idx=4):bool"


def _sample(cls, fields):
    """An instance with every field set to an op (never written as Python, which reads some
    fields as words)."""
    return cls(*(o.Slot(i, t="int") for i in range(len(fields))), t="int")


def test_every_field_of_every_class_is_shown():
    """Each field by its name (an op of one field: its value), the op's type after it; a
    statement's fields by name, all but its graph node."""
    printer = pp.Printer()
    for cls in OP_CLASSES:
        text = printer.flat(_sample(cls, cls.fields))
        assert text.startswith(cls.__name__ + "(") and text.endswith("):int"), text
        if len(cls.fields) == 1:
            assert text == f"{cls.__name__}(Slot(0):int):int"
        for i, f in enumerate(cls.fields if len(cls.fields) > 1 else ()):
            assert f"{f}=Slot({i}):int" in text, (cls.__name__, f)
    for cls in DATA_CLASSES:
        names = [f.name for f in dataclasses.fields(cls)]
        x = cls(**{f: o.Slot(i, t="int") for i, f in enumerate(names)})
        text = printer.flat(x)
        for i, f in enumerate(names):
            assert (f"{f}=Slot({i}):int" in text) == (f not in pp.NOT_SHOWN), (cls.__name__, f)


def test_a_value_the_printer_cannot_show_fails_and_says_where():
    printer = pp.Printer()
    with pytest.raises(pp.Unprintable, match=r"function \(in Call\.fn\)"):
        printer.flat(o.Call(lambda st: 0, (), t="int"))
    with pytest.raises(pp.Unprintable, match=r"Loc \(in Fire\.rule\)"):
        printer.flat(stmts.Fire(Loc(file="x.cards", line=1, column=1)))
    with pytest.raises(pp.Unprintable, match=r"object \(in Values\.where\)"):
        printer.flat(stmts.Values(o.Seats(t="players"), "_v", (o.Lit(1), object()), False))
    # a set is written sorted, so its order is no hash's
    assert printer.flat(frozenset({"b", "a"})) == "{'a', 'b'}"


TINY = """\
game tiny "Tiny"
players 2
at most 4 decisions

deck small "Four cards":
    suits Red, Blue
    ranks 1..2

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone table shared public "table"

var led: card

define score(p: player) = count(hand(p))

winner fewest score

phase play "Play":
    rule deal "The deal":
        shuffle stock
        deal 2 from stock to each hand
    rule lead "The lead":
        choose by seat(1):
            action play c in hand(seat(1)) where c.suit == Red "Play a red card.":
                move c to table
                set led = c
            action pass "Pass.":
                pass
"""

# the instructions by place: an EXEC's statement, a JIF's test (none here), a choice with its
# actor and each action's values (`values`: as the C backend lists them; `values_fn`: the
# function the Python fast path lists them with, a mask form falling back to its loop form);
# the rule around them as a comment where it changes
TINY_IR = """\
ruleset tiny 'Tiny'
players 2; 4 cards; 2 slots; start 0; masks not kept
suits: 0 Red, 1 Blue
ranks: 0 1, 1 2

zones:
  0 stock: shared hidden
  1 table: shared public
  2 hand: per player owner

variables:
  slot 0 led: card = Lit(None):none

definitions:
def score(a0: player) -> int:
    Len(ZoneCards(PlayerZone(kind=2, who=Local('a0'):player):zone):cards):int

code:
      # deal: The deal
        # 0..3 run as one function
     0  EXEC    Fire(rule=0)
     1  EXEC    Shuffle(zone=ZoneBase(0):zone)
     2  EXEC    Deal(
                    count=Lit(2):int,
                    source=ZoneBase(0):zone,
                    kind=2,
                    face_up=None,
                    at=None,
                    offset=0,
                )
      # lead: The lead
     3  EXEC    Fire(rule=1)
     4  CHOOSE  choice 0  # by seat(1)
                by: SeatOf(Lit(1):int):player
                reads: ()
                action play(slot 1: card) ->5
                    values: Values(
                        domain=ZoneCards(
                            PlayerZone(kind=2, who=SeatOf(Lit(1):int):player):zone,
                        ):cards,
                        var='_v_arg',
                        where=Compare(
                            op='==',
                            a=CardAttr(attr='suit', card=Local('_v_arg'):card):suit,
                            b=Lit(0):suit,
                        ):bool,
                        unique=True,
                    )
                    values_fn: Guarded(
                        fn='_agg1',
                        free=(),
                        fast=BitsIn(
                            var=Local('_v_arg'):card,
                            domain=ZoneCards(
                                PlayerZone(kind=2, who=SeatOf(Lit(1):int):player):zone,
                            ):cards,
                            mask=SuitMask(Lit(0):suit):mask,
                        ):cards,
                        loop=AggLoop(
                            agg='those',
                            var=Local('_v_arg'):card,
                            domain=ZoneCards(
                                PlayerZone(kind=2, who=SeatOf(Lit(1):int):player):zone,
                            ):cards,
                            where=Compare(
                                op='==',
                                a=CardAttr(attr='suit', card=Local('_v_arg'):card):suit,
                                b=Lit(0):suit,
                            ):bool,
                            body=None,
                        ):cards,
                    ):cards
                action pass() ->8
        # 5..6 run as one function
     5  EXEC    MoveCard(card=Slot(1):card, to=ZoneBase(1):zone, face_up=None, under=False)
     6  EXEC    SetSlot(slot=0, value=Slot(1):card, forget=True)
     7  JUMP    ->9
     8  JUMP    ->9
      # play: Play
     9  END

score: D_score (winner fewest)
"""


def test_a_small_game_printed_in_full():
    got = pp.format_program(compile_ruleset(build_text(TINY, "tiny.cards")))
    assert got == TINY_IR, "\n".join(difflib.unified_diff(TINY_IR.splitlines(), got.splitlines(), "expected",
                                                          "printed", lineterm=""))


def test_the_command_prints_a_ruleset(tmp_path, capsys):
    path = tmp_path / "tiny.cards"
    path.write_text(TINY, encoding="utf-8")
    assert pp.main([str(path)]) == 0
    assert capsys.readouterr().out == TINY_IR
