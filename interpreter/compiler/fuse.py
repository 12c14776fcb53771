"""Fewer dispatches: a run of straight-line statements (no jump lands inside it) becomes one
generated function, so the engine's loop turns once per run instead of once per statement;
and from every place the engine can land on, a trace follows the instructions (runs, tests,
jumps, both sides of a test, calls of procedures and their returns) as one generated function
until a decision, which it sets up itself, a return or the next turn of a loop, so from one move
to the next decision is usually one call instead of one turn of the engine's loop per
instruction. Every place a trace hands back to the engine starts a trace of its own.

A fused function or a trace does one instruction per line, so when one fails the traceback's
line number says which, and the error still names that statement."""

from __future__ import annotations

from .program import CALL, CHOOSE, CHOOSE_EACH, EXEC, JIF, JUMP, MAX_STEPS, RET, TRACE

MAX_TRACE = 60  # lines of one trace (each exit is one line; longer runs continue in the next)
MAX_DEPTH = 8  # tests whose other branch is written out inside one another


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
            out.update(alt.body for alt in a.alts if not alt.decline)
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
    run.parts = fns
    return run


def trace(code: list, entries, ns: dict, src_of: dict) -> list:
    """A TRACE instruction at every place the engine can land on that starts with a run, a test,
    a jump or a call: `(TRACE, function, None)`, where the function returns the next pc (its bitwise
    complement after a jump backwards, which the engine counts as one turn of a loop). A test
    whose generated source is known (`src_of`: id of its function -> source) is written out
    in the trace rather than called."""
    targets = jump_targets(code, entries)
    targets.update(pc + 1 for pc, (op, _, _) in enumerate(code) if op in (CALL, CHOOSE_EACH))
    out = list(code)
    todo, done = sorted(targets), set()
    while todo:  # and where a trace hands back to the engine (a long one stops anywhere)
        start = todo.pop()
        if start in done or start >= len(code) or code[start][0] not in (EXEC, JIF, JUMP, CALL):
            continue
        done.add(start)
        fn = _trace(code, start, ns, src_of)
        if fn is not None:
            out[start] = (TRACE, fn, None)
            todo.extend(fn.exits)
    return out


class EndlessLoop(Exception):
    """A loop a trace turns by itself went round MAX_STEPS times without a decision."""

    def __init__(self, pc: int):
        super().__init__(pc)
        self.pc = pc


def _trace(code: list, start: int, ns: dict, src_of: dict):
    """One trace, or None where it would save nothing (a single instruction). A jump back to
    the trace's own start (a loop with no decision, call or inner loop in its body) turns
    inside the function, counted, instead of going back to the engine once per turn. A call
    notes where to come back, as the engine does, and the trace goes on into the procedure; a
    return hands the engine the place noted. A test's forward branch is written out under it
    (an `if` or `elif` whose other side does not come back to the engine), as long as the
    trace is short enough. A jump back to a loop's head the trace has not written goes on into
    it once; every way back to the engine after that is counted as a turn of a loop (returned
    complemented), since the next turn may come back through other traces without a jump of
    theirs (an endless loop through several traces, uncounted, hung the engine). A decision is set up as
    the engine would (`st.pc`, `st.choice`, `st.actor`, `st._legal`) and the trace returns None;
    when its player is none the trace returns its place and the engine reports it."""
    lines, line_pc, seen, exits = [], [], set(), set()
    looped = False

    def emit(text: str, pc: int, depth: int) -> None:
        lines.append("    " * depth + text)
        line_pc.append(pc)

    def walk(pc: int, depth: int, path: set, limit: int = MAX_TRACE, back: bool = False) -> None:
        # back: this way has gone on into a loop's head backwards, a turn the engine has not
        # counted: every exit after it is counted instead (~pc)
        nonlocal looped
        while True:
            op, a, b = code[pc]
            if op == RET and path:
                emit("return ~st.stack.pop()" if back else "return st.stack.pop()", pc, depth)
                seen.add(pc)
                return
            if op == CHOOSE and len(lines) < limit:  # the decision, as the engine reaches it
                ns[f"_tr_ch{pc}"] = a
                actor = src_of.get(id(a.actor))
                if actor is None:
                    ns[f"_tr_a{pc}"] = a.actor
                    actor = f"_tr_a{pc}(st)"
                emit(f"_actor = {actor}", pc, depth)
                emit(f"if _actor is None: return {pc}", pc, depth)  # the engine names the error
                emit(f"st.pc = {pc}; st.choice = _tr_ch{pc}; st.actor = _actor; st._legal = _tr_ch{pc}.legal(st, _actor)", pc, depth)
                emit("return None", pc, depth)
                exits.add(pc)
                seen.add(pc)
                return
            if pc in path or len(lines) >= limit or op not in (EXEC, JIF, JUMP, CALL):
                emit(f"return {~pc if back or pc in path else pc}", pc, depth)
                exits.add(pc)
                return
            path.add(pc)
            seen.add(pc)
            if op == CALL:
                emit(f"st.stack.append({pc + 1})", pc, depth)
                pc = a
                continue
            if op == EXEC:
                parts = getattr(a, "parts", None) or [a]
                first = getattr(a, "first_pc", pc)
                for k, fn in enumerate(parts):  # a statement with known source is written out
                    src = getattr(fn, "src", None)
                    if src is None:
                        ns[f"_tr_f{id(fn)}"] = fn
                        src = f"_tr_f{id(fn)}(st)"
                    for line in src.split("\n"):
                        emit(line, first + k, depth)
                pc = b
            elif op == JIF:
                src = src_of.get(id(a))
                if src is None:
                    ns[f"_tr_c{id(a)}"] = a
                    src = f"_tr_c{id(a)}(st)"
                written = False
                if b > pc and depth < MAX_DEPTH and len(lines) + 4 < limit:  # the other branch, here
                    # in at most half the lines left, so the side that falls through (a loop's
                    # body, an if's) is not cut short by a long way out written first
                    mark, before = len(lines), (set(seen), set(exits), looped)
                    budget = mark + (limit - mark) // 2
                    emit(f"if not ({src}):", pc, depth)
                    walk(b, depth + 1, set(path), budget, back)
                    written = len(lines) < budget
                    if not written:
                        del lines[mark:], line_pc[mark:]
                        seen.clear(), seen.update(before[0]), exits.clear(), exits.update(before[1])
                        looped = before[2]
                if not written:
                    emit(f"if not ({src}): return {b if b > pc and not back else ~b}", pc, depth)
                    exits.add(b)
                pc += 1
            elif a > pc:  # JUMP forward: keep going
                pc = a
            elif a == start:  # JUMP back to this trace's start: turn here
                looped = True
                emit("_turns += 1", pc, depth)
                emit(f"if _turns > {MAX_STEPS}: raise EndlessLoop({a})", pc, depth)
                emit("continue", pc, depth)
                return
            elif a in path:  # JUMP backward into this trace: one turn of a loop, back to the engine
                emit(f"return {~a}", pc, depth)
                exits.add(a)
                return
            else:  # JUMP backward to a loop's head not yet written here: on into it, once
                back = True
                pc = a

    walk(start, 0, set())
    if len(seen) < 2:
        return None
    if looped:  # the two lines that open the loop stand for its start, so line numbers still map
        src = "def run(st):\n    _turns = 0\n    while True:\n" + "".join(f"        {line}\n" for line in lines)
        line_pc[:0] = [start, start]
        ns.setdefault("EndlessLoop", EndlessLoop)
    else:
        src = "def run(st):\n" + "".join(f"    {line}\n" for line in lines)
    local: dict = {}
    exec(compile(src, f"<trace from instruction {start}>", "exec"), ns, local)
    run = local["run"]
    run.line_pc = line_pc
    run.text = src  # for reading what was generated
    run.exits = exits  # where it hands back to the engine
    return run


def failing_pc(fn, pc: int, exc: BaseException, code: list | None = None) -> int:
    """The instruction inside a fused run or a trace that raised `exc` (pc itself for a plain one)."""
    first = getattr(fn, "first_pc", None)
    line_pc = getattr(fn, "line_pc", None)
    if first is None and line_pc is None:
        return pc
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is fn.__code__:
            if first is not None:
                return first + tb.tb_lineno - 2  # line 1 is the def
            at = line_pc[tb.tb_lineno - 2]
            if code is not None and code[at][0] == EXEC:  # inside a fused run: which statement
                return failing_pc(code[at][1], at, exc)
            return at
        tb = tb.tb_next
    return pc
