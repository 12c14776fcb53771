"""The IR as text, as mypyc's `ir/pprint.py`: a whole compiled Program written out so that a
change to the lowering shows as a readable diff. Golden printouts of a few bundled rulesets pin
it (tests/compiler/ir/, tests/compiler/test_ir_print.py).

    python -m interpreter.compiler.ir.pprint RULESET.cards     print one program's IR
    python -m interpreter.compiler.ir.pprint --write [RULESET ...]

--write rewrites every golden printout under tests/compiler/ir/ (the path mirrors rulesets/, as the
golden playthroughs' do: classic/x.cards -> tests/compiler/ir/classic/x.ir) and adds one for each ruleset
named.

What is written: the deck, zones, options; each variable's slot and first value (`var_ir`);
each definition's body (`def_ir`: the `D_` function's; `U_name` is the same definition without
its memo), and below it, where the cse pass changes it, what the fast path writes (`fast:`);
every instruction of `plain_code` by its place (an EXEC's statement, a JIF's test, a choice's actor and for each action `values`, what the C backend lists, `values_fn`, the ops of
the function the Python fast path lists them with, and `when`), under a comment naming its rule
where that changes; the advice, the score and the set tests (`set_ir`).

An op is written `Name(field=value, ...):type` (an op of one field without its name); where its
line would pass WIDTH columns, its fields go on a line of their own, or one a line, indented.
Nothing that changes from one run to the next is written: a generated function by its name,
never an address; a value the printer has no text for raises rather than print its repr."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from ..cse import cse, hoist
from ..program import CALL, CHOOSE, CHOOSE_EACH, END, EXEC, JIF, JUMP, RET
from . import ops as o
from .visit import OpVisitor

WIDTH = 100  # an op that would make its line longer is broken into lines
GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "compiler" / "ir"
COMMAND = "python -m interpreter.compiler.ir.pprint --write"
OPCODES = {EXEC: "EXEC", JUMP: "JUMP", JIF: "JIF", CHOOSE: "CHOOSE", CALL: "CALL", RET: "RET", END: "END",
           CHOOSE_EACH: "CHOOSE_EACH"}
# a statement's graph node (which a runtime error names) says where it is written, not what it
# does: the rule comments say where
NOT_SHOWN = frozenset({"node"})


class Unprintable(TypeError):
    """A value in the IR the printer has no text for (a new kind of field): rather than a repr
    that may hold an address, the printout fails and says where."""


class Printer(OpVisitor):
    """Ops written flat once each (shared subtrees are common), broken into lines where too long.
    Its visitor methods give an op's fields to write, (name, value) each: every op class is
    written alike, so each has the same method (set after the class)."""

    def __init__(self, width: int = WIDTH):
        self.width = width
        self.flat_of: dict[int, tuple] = {}  # id(op) -> (op, its flat text): the op kept alive with its id

    # ---- one value
    def flat(self, x, where: str = "") -> str:
        if isinstance(x, o.Op):
            hit = self.flat_of.get(id(x))
            if hit is None:
                parts = ", ".join(self._flat_fields(x))
                hit = self.flat_of[id(x)] = (x, f"{type(x).__name__}({parts}){_type(x)}")
            return hit[1]
        if x is None or isinstance(x, (bool, int, float, str)):
            return repr(x)
        if isinstance(x, _NotLowered):
            return x.text
        if isinstance(x, (tuple, list)):
            items = [self.flat(v, where) for v in x]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if isinstance(x, (set, frozenset)):
            return "{" + ", ".join(sorted(self.flat(v, where) for v in x)) + "}"
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            return f"{type(x).__name__}(" + ", ".join(f"{f}={self.flat(v, f'{type(x).__name__}.{f}')}"
                                                       for f, v in _dc_fields(x)) + ")"
        raise Unprintable(f"the IR printer has no text for a {type(x).__name__}" + (f" (in {where})" if where else ""))

    def fields_of(self, x) -> list[tuple[str, object]]:
        """An op's fields in order, by name."""
        return [(f, getattr(x, f)) for f in x.fields]

    def _flat_fields(self, x) -> list[str]:
        name = type(x).__name__
        pairs = self.visit(x)
        if len(pairs) == 1:
            return [self.flat(pairs[0][1], f"{name}.{pairs[0][0]}")]
        return [f"{f}={self.flat(v, f'{name}.{f}')}" for f, v in pairs]

    def show(self, x, indent: int, col: int, after: int = 0) -> str:
        """x written from column `col` of a line indented `indent` (`after`: the characters that
        follow it on its line): flat when it fits; else its fields (items) on one line of their
        own at indent + 4 when they fit there, else one a line."""
        text = self.flat(x)
        if col + len(text) + after <= self.width:
            return text
        inner = indent + 4
        if isinstance(x, o.Op) and x.fields:
            head, tail = f"{type(x).__name__}(", ")" + _type(x)
            pairs = self.visit(x)
            named = [("" if len(pairs) == 1 else f"{f}=", v) for f, v in pairs]
        elif isinstance(x, (tuple, list)) and x:
            head, tail = "(", ")"
            named = [("", v) for v in x]
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            head, tail = f"{type(x).__name__}(", ")"
            named = [(f"{f}=", v) for f, v in _dc_fields(x)]
        else:
            return text
        inside = text[len(head):len(text) - len(tail)]
        if inner + len(inside) + 1 <= self.width:
            lines = [f"{' ' * inner}{inside}{'' if inside.endswith(',') else ','}"]
        else:
            lines = [f"{' ' * inner}{label}{self.show(v, inner, inner + len(label), 1)}," for label, v in named]
        return head + "\n" + "\n".join(lines) + "\n" + " " * indent + tail

    def line(self, prefix: str, x, indent: int) -> str:
        """A line starting with prefix, then x (broken at `indent` if too long)."""
        return prefix + self.show(x, indent, len(prefix))

    # ---- the whole program
    def program(self, p) -> str:
        rs = p.ruleset
        players = f"{rs.players_min}" + (f"-{rs.players_max}" if rs.players_max != rs.players_min else "")
        out = [f"ruleset {rs.name}" + (f" {rs.title!r}" if rs.title else ""),
               f"players {players}; {p.n_cards} cards; {p.n_slots} slots; "
               f"start {p.start}; masks {'kept' if p.masks else 'not kept'}"]
        out.append("suits: " + ", ".join(f"{i} {s}" for i, s in enumerate(rs.deck.suits)))
        out.append("ranks: " + ", ".join(f"{i} {r}" for i, r in enumerate(rs.deck.ranks)))
        if p.values:
            out.append("value tables: " + ", ".join(p.values))
        out += ["", "zones:"] + [f"  {k} {z.name}: {'per player' if z.per_player else 'shared'} {z.visibility}"
                                 + (f" x{z.size}" if z.size else "") for k, z in enumerate(p.zones)]
        if p.options:
            out += ["", "options:"] + [f"  {k} {opt.name}: {_option_type(opt)} = {opt.default!r}"
                                       for k, opt in enumerate(p.options)]
        out += ["", "variables:"]
        names = {slot: name for name, slot, _ in p.vars}
        for slot, per_player, typ, init in p.var_ir:
            out.append(self.line(f"  slot {slot} {names.get(slot, '?')}{'(player)' if per_player else ''}: {typ} = ",
                                 init, 2))
        out += ["", "definitions:"]
        order = [d.name for d in rs.defines if d.name in p.def_ir]
        order += [name for name in p.def_ir if name not in order]
        for name in order:
            params, body, t = p.def_ir[name]
            kept = "  # answers kept for good" if name in p.kept_defs else ""
            out.append(f"def {name}({_params(params)}) -> {t}:{kept}")
            out.append(self.line("    ", body, 4))
            out += self.fast_path(p, body)
        out += ["", "code:"]
        out += self.code(p)
        if p.advice_ir:
            out += ["", "advice:"]
            for name, params, body, t in p.advice_ir:
                out.append(f"advice {name}({_params(params)}) -> {t}:")
                out.append(self.line("    ", body, 4))
        if p.score_name:
            out += ["", f"score: {p.score_name}" + (f" (winner {p.winner_rule})" if p.winner_rule else "")]
        if p.set_ir:
            out += ["", "set tests:"]
            for name, test in p.set_ir.items():
                out.append(self.line(f"  {name} = ", test, 2))
        return "\n".join(out) + "\n"

    def fast_path(self, p, body) -> list[str]:
        """What the Python fast path writes of a definition where the cse pass changes it (its
        terms worked out once: Keep and Kept, a mask hoisted out of its loop); of a guarded
        aggregate, of its mask form and its loop form (`fast (mask form):`), its function's two
        statements."""
        if not p.fast:
            return []
        forms = (("mask form", body.fast), ("loop form", body.loop)) if isinstance(body, o.Guarded) else (("", body),)
        out = []
        for k, (label, form) in enumerate(forms):
            pre, x = hoist(form, k)
            fast = cse(x)
            if pre or fast is not form:
                head = f"  fast{' (' + label + ')' if label else ''}"
                out += [self.line(f"{head} {name} = ", cse(m), 4) for name, m in pre]
                out.append(self.line(f"{head}: ", fast, 4))
        return out

    def code(self, p) -> list[str]:
        """The instructions one place each (Program.plain_code: what the fast path traces over)."""
        out, rule = [], object()
        for pc, (op, a, b) in enumerate(p.plain_code):
            here = p.rule_at[pc] if pc < len(p.rule_at) else None
            if here != rule:
                rule = here
                out.append("      # " + ("(a procedure: the rule that performs it)" if here is None else
                                         here[0] + (f": {here[1]}" if here[1] and here[1] != here[0] else "")))
            head = f"{pc:6}  {OPCODES.get(op, op):<7}"
            if op == EXEC:
                parts = getattr(a, "parts", None)
                if parts:  # a run of statements made one function: each keeps its own place
                    out.append(f"        # {pc}..{b - 1} run as one function")
                fn = parts[0] if parts else a
                out.append(self.line(head + " ", _stmt(fn), 16))
            elif op == JIF:
                test = getattr(a, "ir", None)
                test = p.fn_ir.get(id(a)) if test is None else test
                out.append(self.line(f"{head} ->{b} unless ", _lowered(test, a), 16))
            elif op in (JUMP, CALL):
                out.append(f"{head} ->{a}")
            elif op in (CHOOSE, CHOOSE_EACH):
                out += self.choice(head, p, a)
            elif op in (RET, END):
                out.append(head.rstrip())
            else:
                raise Unprintable(f"the IR printer has no text for the instruction {op!r} at {pc}")
        return out

    def choice(self, head: str, p, ch) -> list[str]:
        flags = [w for w, on in (("secret", ch.secret), ("any", ch.any), ("shared names", ch.shared_names)) if on]
        each = f" each into slot {ch.each_slot}" if ch.each_slot is not None else ""
        out = [f"{head} choice {p.choices.index(ch)}{each}" + (f" ({', '.join(flags)})" if flags else "")
               + f"  # by {ch.by_text}"]
        pad = " " * 16
        out.append(self.line(f"{pad}by: ", _lowered(getattr(ch, "actor_ir", None), ch.actor), 16))
        out.append(f"{pad}reads: " + ("not known" if ch.reads is None else self.flat(ch.reads)))
        for alt in ch.alts:
            params = [(alt.slot, alt.elem)] + list(alt.more) if alt.slot is not None else []
            what = ", ".join(f"slot {s}: {e}" for s, e in params)
            body = " (passes)" if alt.decline else f" ->{alt.body}"
            out.append(f"{pad}action {alt.name}({what}){body}")
            for label, x, fn in (("values", getattr(alt, "values_ir", None), alt.values),
                                 ("values_fn", p.fn_ir.get(id(alt.values)) if alt.values is not None else None,
                                  alt.values),
                                 ("when", getattr(alt, "when_ir", None), alt.when)):
                if fn is not None or x is not None:
                    out.append(self.line(f"{pad}    {label}: ", _lowered(x, fn), 20))
        return out


for _cls in o.ALL:  # every op written by its fields
    setattr(Printer, Printer.prefix + _cls.__name__, Printer.fields_of)


def _type(x) -> str:
    return f":{x.t}" if x.t is not None else ""


def _option_type(opt) -> str:
    if opt.type == "enum":
        return "enum(" + ", ".join(opt.choices) + ")"
    if opt.type == "int" and (opt.low is not None or opt.high is not None):
        return f"int {opt.low}..{opt.high}"
    return opt.type


def _params(params) -> str:
    return ", ".join(f"{prm.name}: {prm.t}" for prm in params)


def _dc_fields(x) -> list[tuple[str, object]]:
    """A dataclass's fields to write: not its graph node, nor one left at its default."""
    out = []
    for f in dataclasses.fields(x):
        v = getattr(x, f.name)
        if f.name in NOT_SHOWN or (f.default is not dataclasses.MISSING and type(v) is type(f.default)
                                   and v == f.default and not isinstance(v, o.Op)):
            continue
        out.append((f.name, v))
    return out


class _NotLowered:
    """Code the compiler made without IR, named by its function (never an address)."""

    def __init__(self, fn):
        self.text = f"<not lowered: {getattr(fn, '__qualname__', type(fn).__name__)}>"


def _lowered(x, fn):
    return _NotLowered(fn) if x is None and fn is not None else x


def _stmt(fn):
    return _lowered(getattr(fn, "ir", None), fn)


def format_program(program, width: int = WIDTH) -> str:
    """The text of a compiled Program's IR; the same program always gives the same text."""
    return Printer(width).program(program)


# ---- the command: print one, or write the golden printouts -----------------------------------
def golden_path(ruleset: Path, folder: Path = GOLDEN) -> Path:
    from ...bundled import rulesets_root
    return folder / ruleset.resolve().relative_to(rulesets_root().resolve()).with_suffix(".ir")


def ruleset_of(gold: Path, folder: Path = GOLDEN) -> Path:
    from ...bundled import rulesets_root
    return (rulesets_root() / gold.relative_to(folder).with_suffix(".cards")).resolve()


def golden_rulesets(folder: Path = GOLDEN) -> list[Path]:
    """The rulesets whose printouts are pinned: those with a file under the golden folder."""
    return sorted(ruleset_of(p, folder) for p in folder.glob("**/*.ir"))


def printout(path: Path) -> str:
    """The IR of a ruleset file, compiled as the engine compiles it (the fast path)."""
    from ...language.build import build_file
    from ..compiler import compile_ruleset
    return format_program(compile_ruleset(build_file(path)))


def write(paths: list[Path], folder: Path = GOLDEN) -> list[Path]:
    written = []
    for path in paths:
        gold = golden_path(path, folder)
        text = printout(path)
        if not gold.exists() or gold.read_text(encoding="utf-8") != text:
            gold.parent.mkdir(parents=True, exist_ok=True)
            gold.write_text(text, encoding="utf-8")
            written.append(gold)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m interpreter.compiler.ir.pprint", description=__doc__.split("\n\n")[0])
    ap.add_argument("rulesets", nargs="*", type=Path, help="ruleset files")
    ap.add_argument("--write", action="store_true",
                    help="rewrite the golden printouts under tests/compiler/ir/ (and add those of the rulesets named)")
    ap.add_argument("--dir", type=Path, default=GOLDEN, help="the folder of golden printouts (default tests/compiler/ir)")
    args = ap.parse_args(argv)
    if args.write:
        paths = sorted(set(golden_rulesets(args.dir)) | {p.resolve() for p in args.rulesets})
        changed = write(paths, args.dir)
        for p in changed:
            print(f"wrote {p}")
        print(f"{len(paths)} printouts, {len(changed)} changed")
        return 0
    if not args.rulesets:
        ap.error("name a ruleset file to print, or --write")
    for path in args.rulesets:
        sys.stdout.write(printout(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
