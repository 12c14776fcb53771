"""Fewer dispatches: a run of straight-line statements (no jump lands inside it) becomes one
generated function, so the engine's loop turns once per run instead of once per statement.

A fused function calls the statements' own functions one per line, so when one fails the
traceback's line number says which, and the error still names that statement."""

from __future__ import annotations

from .program import CALL, CHOOSE, CHOOSE_EACH, EXEC, JIF, JUMP


def jump_targets(code: list, entries) -> set[int]:
    """Every instruction something other than fall-through can land on."""
    out = set(entries)
    for pc, (op, a, b) in enumerate(code):
        if op in (JUMP, CALL):
            out.add(a)
        if op == JIF:
            out.add(b)
        if op == CALL:
            out.add(pc + 1)  # where the procedure returns
        if op in (CHOOSE, CHOOSE_EACH):
            out.update(alt.body for alt in a.alts)
            out.add(pc)
    return out


def fuse(code: list, entries) -> list:
    """EXEC instructions become (EXEC, function, next pc); runs of them share one function."""
    targets = jump_targets(code, entries)
    out = [ins if ins[0] != EXEC else (EXEC, ins[1], pc + 1) for pc, ins in enumerate(code)]
    pc = 0
    while pc < len(code):
        if code[pc][0] != EXEC:
            pc += 1
            continue
        end = pc + 1
        while end < len(code) and code[end][0] == EXEC and end not in targets:
            end += 1
        if end - pc > 1:
            out[pc] = (EXEC, _fused([code[k][1] for k in range(pc, end)], pc), end)
        pc = end
    return out


def _fused(fns: list, first_pc: int):
    ns = {f"f{i}": fn for i, fn in enumerate(fns)}
    src = "def run(st):\n" + "".join(f"    f{i}(st)\n" for i in range(len(fns)))
    exec(compile(src, f"<statements from instruction {first_pc}>", "exec"), ns)
    run = ns["run"]
    run.first_pc = first_pc
    return run


def failing_pc(fn, pc: int, exc: BaseException) -> int:
    """The instruction inside a fused run that raised `exc` (pc itself for a plain one)."""
    first = getattr(fn, "first_pc", None)
    if first is None:
        return pc
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is fn.__code__:
            return first + tb.tb_lineno - 2  # line 1 is the def
        tb = tb.tb_next
    return pc
