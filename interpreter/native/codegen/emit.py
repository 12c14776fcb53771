"""The C emitter of a whole program: the deck's tables, the state struct, one C function per
definition, the instruction loop (one `case` per instruction of `Program.plain_code`), the
legal moves of each choice, and the entry points (`cr_new`, `cr_apply`, `cr_legal`, ...).
What is the same in every engine is C in native/runtime/unit/, pasted between the generated parts
(`Module.source`).

The statements (statements.py), the choices (choices.py), the expressions (expr.py) and the
mask forms (maskforms.py) are mixed into Module, one file a stage of the lowering.
It reads only the lowered program (compiler/ir: ops, statements, `Program.def_ir`, `var_ir`)
and the program's tables; a construct it cannot lower raises NativeUnsupported naming it."""

from __future__ import annotations

from ...language import sizes
from ...language.unread import forgets
from ...compiler.ir import ops as o
from ...compiler.ir import stmts as ir
from ...compiler.ir.reads import called
from ...compiler.program import CALL, CHOOSE, CHOOSE_EACH, END, EXEC, JIF, JUMP, MAX_STEPS, RET
from ..toolchain import unit_halves, unit_part
from .expr import Expr, NativeUnsupported, int_literal, is_list
from .choices import Choices
from .maskforms import MaskForms, local_types
from .shapes import walk
from .statements import Statements
from .mask_tables import mask_tables
from .purity import CR_TC_CARDS, CR_TC_N, Purity
from .greedy_c import greedy_parts
from .search_c import search_parts
from .plan_c import plan_parts

VIS = {"public": 0, "owner": 1, "hidden": 2, "others": 3}  # runtime's CRT_VIS_*
MAX_PLAYERS = 64  # a declared set of winners is a 64-bit mask


class Module(Expr, MaskForms, Statements, Choices):
    def __init__(self, p, masks: bool = True):
        self.p = p
        self.use_masks = masks  # the compiler's mask forms (compiler/masks.py), else their loop forms
        self.guard_fns: dict[str, str] = {}  # a guarded aggregate's function (expr.py: x_Guarded) by its name
        self.set_fns: dict[str, str] = {}  # a set test's (ops.SetTest) by its name
        self.mask_consts: dict[int, int] = {}  # a constant mask (ops.Global) -> its row of K_MK
        self.n_tmp = 0
        self.locals: dict[str, str] = {}
        self.consts: dict[tuple, str] = {}
        self.tables: list[str] = []
        self.defines: dict[str, str] = {}
        self.define_src: list[str] = []
        self.define_protos: list[str] = []
        self.todo: list[str] = []
        self.memos: list[str] = []
        self.keeps = 0  # definitions whose answers are kept for good (KEEP)
        self.enums = self._enums()
        self._slot_kinds()
        self.nparams = max([1 + len(a.more) for ch in p.choices for a in ch.alts] + [1])
        # what a C function may be made of: the definitions, and the advice (for the search player)
        self.irs = dict(p.def_ir)
        self.irs.update({f"advice {name}": (params, body, t) for name, params, body, t in p.advice_ir})
        self.purity = Purity(self.irs)
        self.split_sites = 0  # meld searches whose group tests are pure (expr.py: x_Split), numbered from 1

    # ---- what the expression emitter asks of the module
    def enum_index(self, name: str) -> int:
        if name not in self.enums:
            raise NativeUnsupported(f"a text value ({name!r}) that is no option's choice")
        return self.enums[name]

    def _enums(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for opt in self.p.options:
            if opt.type == "enum":
                for i, c in enumerate(opt.choices):
                    if out.get(c, i) != i:
                        raise NativeUnsupported(f"two options with the choice {c!r} in different places")
                    out[c] = i
        return out

    def const_list(self, values: tuple) -> str:
        name = self.consts.get(values)
        if name is None:
            name = self.consts[values] = f"K_L{len(self.consts)}"
            body = ", ".join(int_literal(int(v)) for v in values) or "0"
            self.tables.append(f"static const int64_t {name}[] __attribute__((unused)) = {{{body}}};")
        return f"cr_const(x, {name}, {len(values)})"

    def mask_const(self, value: int) -> int:
        """The row of K_MK holding a constant mask (a group of ranks' cards, say)."""
        return self.mask_consts.setdefault(int(value), len(self.mask_consts))

    def set_fn(self, name: str) -> str:
        """A set test's C function (ops.SetTest, Program.set_ir): the cards of its `cand` that
        pass, kept for the epoch (cr_smemo, a few answers per test)."""
        fn = self.set_fns.get(name)
        if fn is not None:
            return fn
        test = self.p.set_ir.get(name)
        if test is None:
            raise NativeUnsupported(f"the set test {name}")
        types = local_types((test.mask,))
        if any(is_list(types.get(v.name)) for v in test.free) or len(test.free) > 4:
            raise NativeUnsupported("a set test handed a collection, or more than 4 values")
        fn = self.set_fns[name] = f"s{len(self.set_fns)}"
        free = [self.local(v.name) for v in test.free]
        cand = self.local("cand")
        proto = (f"static __attribute__((unused)) cr_mask {fn}(cr_ctx *x, cr_state *S, crt_cards *C, cr_mask {cand}"
                 + "".join(f", int64_t {v}" for v in free) + ")")
        fail = self.mask(test.mask)
        if test.keep is None:
            work = f"    cr_mask r = {fail};\n"
        else:
            above = int(test.keep == "above")
            if test.owner is None:
                work = f"    cr_mask r = cr_m_none_beyond(C, {fail}, {cand}, {above});\n"
            else:  # owner by owner (st.omask's: none, then each seat), the owner fixed in the test
                ow = self.local(test.owner.name)
                work = (f"    cr_mask r = cr_m_none();\n"
                        f"    for (int64_t _w = -1; _w < S->n_players; _w++) {{\n"
                        f"        int64_t {ow} = _w < 0 ? CR_NONE : _w;\n"
                        f"        cr_mask _p = cr_m_and({cand}, cr_m_owner_of(x, S, C, {ow}));\n"
                        f"        if (cr_m_some(_p)) r = cr_m_or(r, cr_m_none_beyond(C, {fail}, _p, {above}));\n"
                        f"    }}\n")
        args = ", ".join(free) or "0"
        self.memos.append(f"cr_smemo {fn}[CR_SM_N];")
        self.define_protos.append(proto + ";")
        self.define_src.append(
            f"{proto} {{\n    (void)S; (void)C;\n"
            f"    int64_t _a[NSF] = {{{args}}};\n"
            f"    cr_smemo *_m = cr_sm_slot(x->sc->{fn}, {cand}, _a, {len(free)});\n"
            f"    if (cr_sm_hit(x, _m, {cand}, _a, {len(free)})) return _m->val;\n"
            f"{work}"
            f"    _m->at = cr_epoch; _m->cand = {cand}; _m->val = r; memcpy(_m->arg, _a, sizeof _a);\n"
            f"    return r;\n}}\n")
        return fn

    def card_lists(self, which: str) -> str:
        return {"above": "K_ABOVE", "below": "K_BELOW", "suit": "K_SUIT_CARDS"}[which]

    def value_table(self, name: str) -> str:
        if name not in self.p.values:
            raise NativeUnsupported(f"the value table {name!r}")
        return f"K_VAL{list(self.p.values).index(name)}"

    def define_fn(self, name: str) -> str:
        if name not in self.irs:
            raise NativeUnsupported(f"the definition {name!r}, not lowered")
        fn = self.defines.get(name)
        if fn is None:
            fn = self.defines[name] = f"d{len(self.defines)}"
            self.todo.append(name)
        return fn

    # ---- slots: a value, a list, or a value per player
    def _slot_kinds(self) -> None:
        p = self.p
        kind: dict[int, str] = {}

        def mark(slot, k):
            if kind.get(slot, k) != k:
                raise NativeUnsupported(f"a local that holds both one value and a collection (slot {slot})")
            kind[slot] = k
        for slot, per_player, typ, _ in p.var_ir:
            kind_ = ("pvl" if is_list(typ) else "pv") if per_player else ("list" if is_list(typ) else "value")
            mark(slot, kind_)
        for ins in p.plain_code:
            x = ins[1]
            for stmt in (getattr(x, "ir", None),):
                if isinstance(stmt, ir.SetSlot) and isinstance(stmt.value, o.Op) and (stmt.copy or is_list(stmt.value.t)):
                    mark(stmt.slot, "list")
                elif isinstance(stmt, (ir.LoopInit, ir.SeatsInit)):
                    mark(stmt.lst, "list")
                elif isinstance(stmt, ir.Bind):
                    for slot, a in zip(stmt.slots, stmt.args):
                        if isinstance(a, o.Op) and is_list(a.t):
                            mark(slot, "list")
        for ch in p.choices:  # a chosen set of cards (`S subset of ...`) is a list
            for a in ch.alts:
                for slot, elem in [(a.slot, a.elem)] + list(a.more):
                    if elem == "cards":
                        mark(slot, "list")
        everything = [getattr(ins[1], "ir", None) for ins in p.plain_code]
        everything += [body for _, body, _ in p.def_ir.values()] + [init for *_, init in p.var_ir]
        for ch in p.choices:
            everything += [getattr(ch, "actor_ir", None)]
            everything += [(a.when_ir, a.values_ir) for a in ch.alts]
        self.everything = everything  # the whole lowered program (split_tests reads it too)
        for x in everything:
            for op in walk(x):
                if isinstance(op, o.Slot) and is_list(op.t):
                    mark(op.n, "list")
        self.slot_kind = {s: kind.get(s, "value") for s in range(p.n_slots)}
        self.list_index = {s: i for i, s in enumerate(s for s in range(p.n_slots) if self.slot_kind[s] == "list")}
        self.pv_index = {s: i for i, s in enumerate(s for s in range(p.n_slots) if self.slot_kind[s] == "pv")}
        self.pvl_index = {s: i for i, s in enumerate(s for s in range(p.n_slots) if self.slot_kind[s] == "pvl")}

    # ---- definitions
    def c_type(self, t) -> str:
        return "cr_list" if is_list(t) else "int64_t"

    def emit_define(self, name: str) -> None:
        params, body, t = self.irs[name]
        fn = self.defines[name]
        args = "".join(f", {self.c_type(prm.t)} {self.local(prm.name)}" for prm in params)
        proto = f"static {self.c_type(t)} {fn}(cr_ctx *x, cr_state *S, crt_cards *C{args})"
        code = self.ex(body)
        self.define_protos.append(proto + ";")
        unused = "".join(f" (void){self.local(prm.name)};" for prm in params)  # a parameter the body may not read
        size = self.memo_size(params, body, t)
        if (size is None and name in self.p.kept_defs and name not in self.split_tests() and not is_list(t)
                and any(is_list(prm.t) for prm in params) and self.worth_keeping(body)):
            # of faces alone and given a collection: its answers kept for good (KEEP)
            adds = " && ".join([f"cr_keep_add(_k, &_kn, {self.keeps})"] + [
                f"cr_keep_{'list' if is_list(prm.t) else 'add'}(_k, &_kn, {self.local(prm.name)})" for prm in params])
            self.keeps += 1
            self.define_src.append(
                f"{proto} {{\n    (void)S; (void)C;{unused}\n"
                f"    int64_t _k[CR_KEEP_W]; int32_t _kn = 0; int _hit = 0; cr_keep_slot *_s = NULL;\n"
                f"    if ({adds}) {{ _s = cr_keep_find(x, _k, _kn, &_hit); if (_hit) return _s->val; }}\n"
                f"    int64_t top = x->top;\n    int64_t r = {code};\n    x->top = top;\n"
                f"    if (_s) {{ _s->len = _kn; memcpy(_s->key, _k, sizeof(int64_t) * (size_t)_kn); _s->val = r; }}\n"
                f"    return r;\n}}\n")
            return
        if size is None and is_list(t) and not params and self.loops(body):
            # a collection of none (`those q in players where ...`): kept for the epoch (room for
            # LCAP values; a longer one is worked out each time), looked up where it is asked. The
            # answer is read only, as every list but one just made is (helpers.c: cr_const)
            self.memos.append(f"cr_lmemo {fn};")
            m = f"x->sc->{fn}"
            self.define_src.append(
                f"{proto.replace(f' {fn}(', f' {fn}_work(', 1)} {{\n    (void)S; (void)C;\n"
                f"    cr_list r = {code};\n"
                f"    if (r.n <= LCAP) {{ {m}.at = cr_epoch; {m}.n = r.n; "
                f"if (r.n) memmove({m}.v, r.v, sizeof(int64_t) * (size_t)r.n); }}\n"
                f"    return r;\n}}\n"
                f"{proto.replace('static ', 'static inline ', 1)} {{\n"
                f"    if ({m}.at == cr_epoch) {{ cr_list l; l.n = {m}.n; l.v = {m}.v; return l; }}\n"
                f"    return {fn}_work(x, S, C);\n}}\n")
            return
        if size is None:
            if is_list(t):
                self.define_src.append(f"{proto} {{\n    (void)S; (void)C;{unused}\n    return {code};\n}}\n")
            else:  # one value: the collections worked out on the way are let go
                self.define_src.append(f"{proto} {{\n    (void)S; (void)C;{unused}\n    int64_t top = x->top;\n"
                                       f"    int64_t r = {code};\n    x->top = top;\n    return r;\n}}\n")
            return
        # worth keeping: one answer per card or player (or one), for the current epoch; looked up
        # where it is asked (inline), worked out and kept in a function of its own
        key = self.local(params[0].name) if params else "0"
        self.memos.append(f"cr_memo {fn}[{size}];")
        m = f"x->sc->{fn}[{key}]"
        in_ = f"{key} >= 0 && {key} < {size}"
        work = proto.replace(f" {fn}(", f" {fn}_work(", 1)
        call = ", ".join(["x", "S", "C"] + [self.local(prm.name) for prm in params])
        self.define_src.append(
            f"{work} {{\n    (void)S; (void)C;{unused}\n"
            f"    int64_t top = x->top;\n"
            f"    int64_t r = {code};\n"
            f"    x->top = top;\n"
            f"    if ({in_}) {{ {m}.at = cr_epoch; {m}.val = r; }}\n"
            f"    return r;\n}}\n"
            f"{proto.replace('static ', 'static inline ', 1)} {{\n"
            f"    if ({in_} && {m}.at == cr_epoch) return {m}.val;\n"
            f"    return {fn}_work({call});\n}}\n")

    def split_tests(self) -> set:
        """The definitions a meld search asks of its groups, and those they ask: the search keeps
        each group's verdict itself, and a group is seldom seen twice, so keeping their answers
        (KEEP) would only cost (a game of many melds played at half speed)."""
        if getattr(self, "_split_tests", None) is None:
            found = set()
            todo = [fn[2:] for x in self.everything for op in walk(x) if isinstance(op, o.Split) for fn in called(op)]
            while todo:
                name = todo.pop()
                if name in found or name not in self.p.def_ir:
                    continue
                found.add(name)
                todo += [fn[2:] for op in walk(self.p.def_ir[name][1]) for fn in called(op) if fn[:2] in ("D_", "U_")]
            self._split_tests = found
        return self._split_tests

    def worth_keeping(self, body) -> bool:
        """Whether working a definition out costs more than looking its answer up: it asks other
        definitions, or loops twice or more (one sum over a hand costs what its key does)."""
        ops = list(walk(body))
        return (any(isinstance(op, o.Call) and op.fn[:2] in ("D_", "U_") for op in ops)
                or sum(isinstance(op, (o.AggLoop, o.Guarded, o.Extreme)) for op in ops) >= 2)

    def loops(self, body) -> bool:
        """Whether working a definition out loops or asks other definitions (else it costs what
        looking its answer up does)."""
        return any(isinstance(op, (o.AggLoop, o.Call, o.Extreme, o.KindCards, o.Guarded)) for op in walk(body))

    def memo_size(self, params, body, t):
        """How many answers a definition keeps (None: it is cheaper to work out again): one per
        card or player for a definition of one, one for a definition of none, when it loops or
        asks other definitions."""
        if is_list(t) or len(params) > 1:
            return None
        if not self.loops(body):
            return None
        if not params:
            return 1
        return {"card": "NC", "player": "MAXP"}.get(params[0].t)

    # ---- the instruction loop
    def instruction(self, pc: int, ins) -> str:
        op, a, b = ins
        if op == EXEC:
            fn = a.parts[0] if hasattr(a, "parts") else a
            st = getattr(fn, "ir", None)
            # answers kept by definitions hold until something changes that one reads: the cards,
            # or a variable a definition reads (a `let`, a loop's step, a procedure's arguments
            # mostly are not)
            bump = "" if isinstance(st, ir.Fire) or self.unread(st) else " cr_epoch++;"
            return f"{{ {self.stmt(st)} }}{bump} {self.go(pc + 1)}"
        if op == JIF:
            return f"if ({self.test(a)}) {{ {self.go(pc + 1)} }} {self.go(b)}"
        if op == JUMP:
            return (f"S->pc = {a}; if (++steps > MAX_STEPS) cr_fail(x, CR_E_STUCK); "  # (stopped here: at `a`)
                    f"if (CR_STOPPED()) cr_fail(x, CR_E_INTR); {self.go(a)}")
        if op == CALL:
            return (f"if (S->sp >= MAXDEPTH) cr_fail(x, CR_E_DEPTH); S->stack[S->sp++] = {pc + 1}; "
                    f"{self.go(a)}")
        if op == RET:
            return "if (S->sp <= 0) cr_fail(x, CR_E_STATE); S->pc = S->stack[--S->sp]; continue;"
        if op == END:
            return "S->finished = 1; S->actor = -1; S->choice = -1; S->legal_n = 0; return 0;"
        if op == CHOOSE:
            k = self.p.choices.index(a)
            actor = self.scalar(getattr(a, "actor_ir", None))
            return (f"{{ int64_t _who = {actor}; if (_who == CR_NONE) cr_fail(x, CR_E_NOPLAYER); "
                    f"cr_idx(x, _who, S->n_players); S->choice = {k}; S->actor = (int32_t)_who; "
                    f"S->legal_n = 0; legal{k}(x, S, C, (int32_t)_who); return 0; }}")
        if op == CHOOSE_EACH:
            return self.choose_each(pc, a)
        raise NativeUnsupported(f"the instruction {op}")

    def go(self, target: int) -> str:
        """On to instruction `target`: straight there (a label at its case), not through the switch
        (whose jump through a table the processor seldom foresees); the switch is for coming back
        to S->pc after a decision, and for a return."""
        self.targets.add(target)
        return f"S->pc = {target}; x->top = 0; goto i{target};"

    def unread(self, st) -> bool:
        """Whether a statement only sets variables that no definition (nor advice) reads."""
        if isinstance(st, ir.SetSlot):
            wrote = {st.slot}
        elif isinstance(st, ir.SetPlayerVar):
            wrote = {st.slot}
        elif isinstance(st, ir.Bind):
            wrote = set(st.slots)
        elif isinstance(st, (ir.LoopInit, ir.SeatsInit)):
            wrote = {st.lst, st.idx}
        elif isinstance(st, ir.LoopStep):
            wrote = {st.var, st.idx}
        else:
            return False
        reads = self.def_reads()
        return reads is not None and not (wrote & reads)

    def def_reads(self) -> set | None:
        """The slots the definitions and the advice read (None: any, as one draws at random)."""
        if not hasattr(self, "_def_reads"):
            reads: set | None = set()
            for _, body, _ in self.irs.values():
                for op in walk(body):
                    if isinstance(op, (*o.CHANCE, o.LoopMore)):
                        reads = None
                        break
                    if isinstance(op, (o.Slot, o.PlayerVar)):
                        reads.add(op.n)
                if reads is None:
                    break
            self._def_reads = reads
        return self._def_reads

    # ---- the whole file
    def source(self, players: bool = True) -> str:
        """The program's C. Without `players`, the engine alone (whole games, the entries, batches):
        the players' units (search, greedy, the rule seeker, plan, the solver), two fifths of a
        build, left out; the state and everything before them the same, so that a game made by
        one library is played on by the other (program.py: NativeProgram.players)."""
        p = self.p
        rs = p.ruleset
        maxp = rs.players_max
        if maxp > MAX_PLAYERS:
            raise NativeUnsupported(f"more than {MAX_PLAYERS} players")
        n_kinds = len(p.zones)
        per = sum(1 for z in p.zones if z.per_player)
        maxz = p.n_shared + per * maxp
        nc = p.n_cards
        n_suits, n_ranks = len(rs.deck.suits), len(rs.deck.ranks)
        # a slot's room: a list of cards, zones, players, suits or ranks, or a range whose ends the
        # file fixes (`for each n in 1..65`), up to the language's longest range
        ranges = [self.bound(op, 0) for x in self.everything for op in walk(x) if isinstance(op, o.Range)]
        lcap = max(nc, maxz, maxp, n_suits, n_ranks, 64, min(max(ranges, default=0), sizes.MAX_RANGE))
        body = []
        self.targets: set[int] = set()
        for pc, ins in enumerate(p.plain_code):
            body.append((pc, self.instruction(pc, ins)))
        body = [f"        case {pc}:{f' i{pc}:' if pc in self.targets else ''} {code}" for pc, code in body]
        choices = [self.choice(k, ch) for k, ch in enumerate(p.choices)]
        applies = [self.apply_case(k, ch) for k, ch in enumerate(p.choices)]
        inits = []
        for slot, per_player, typ, init in p.var_ir:
            if per_player and self.slot_kind[slot] == "pvl":
                var = self.local("_vp")
                inits.append(f"for (int64_t {var} = 0; {var} < S->n_players; {var}++) "
                             f"cr_keep_pv(x, S, {self.pvl_index[slot]}, {var}, {self.lst(init)});")
            elif per_player:
                var = self.local("_vp")
                inits.append(f"for (int64_t {var} = 0; {var} < S->n_players; {var}++) "
                             f"S->pv[{self.pv_index[slot]}][{var}] = {self.scalar(init)};")
            elif self.slot_kind[slot] == "list":
                inits.append(f"cr_keep(x, S, {self.list_index[slot]}, {self.lst(init)});")
            else:
                inits.append(f"S->sv[{slot}] = {self.scalar(init)};")
            inits.append("x->top = 0; cr_epoch++;")
        while self.todo:
            self.emit_define(self.todo.pop(0))
        maxm = min(max([self.moves_bound(ch, lcap, maxp) for ch in p.choices] + [1]), 1 << 15)
        n_procs = len(rs.procedures)
        depth = n_procs + 8
        card_pos = [b.bit_length() - 1 for b in p.card_bit]
        cardkey = sorted(range(nc), key=lambda c: (p.card_order[c], -p.card_suit[c], -c))
        ckey = [0] * nc
        for i, c in enumerate(cardkey):
            ckey[c] = i
        rankpos = []
        for s in rs.deck.suits:
            order = rs.deck.order_of(s)
            rankpos += [order.index(r) if r in order else None for r in rs.deck.ranks]
        cardof = [p.card_of.get((r, s), -1) for s in range(n_suits) for r in range(n_ranks)]

        def arr(name, values, ctype="int64_t"):
            vals = ", ".join("CR_NONE" if v is None else int_literal(int(v)) for v in values) or "0"
            return f"static const {ctype} {name}[] __attribute__((unused)) = {{{vals}}};"

        def rows(name, table):
            offs, flat = [], []
            for row in table:
                offs.append(len(table) + 1 + len(flat))
                flat.extend(row)
            offs.append(len(table) + 1 + len(flat))
            return arr(name, offs + flat)

        tables = [arr("K_SUIT", p.card_suit), arr("K_RANK", p.card_rank), arr("K_ORDER", p.card_order),
                  arr("K_CKEY", ckey), arr("K_RANKPOS", rankpos), arr("K_CARDOF", cardof),
                  arr("K_CARDPOS", card_pos, "uint16_t"),
                  rows("K_ABOVE", p.above), rows("K_BELOW", p.below), rows("K_SUIT_CARDS", p.suit_cards)]
        tables += [arr(f"K_VAL{i}", vals) for i, vals in enumerate(p.values.values())]
        # the choices whose moves are several players' at once (`choose by each` or `by any`)
        tables.append(arr("K_SHARED", [int(ch.each_slot is not None) for ch in p.choices] or [0], "uint8_t"))
        # what the solver's table may forget of each kind (language/unread.py): its order, its played_by
        ordered, by = forgets(p)
        tables.append(arr("K_KEY_ORDERED", ordered or [1] * n_kinds, "uint8_t"))
        tables.append(arr("K_KEY_BY", by or [1] * n_kinds, "uint8_t"))
        kinds = [(1 if z.per_player else 0, z.index, z.size or 1, VIS.get(z.visibility, 2)) for z in p.zones]
        defines = {
            "NC": nc, "NSUITS": n_suits, "NRANKS": n_ranks, "NKINDS": n_kinds, "MAXP": maxp, "MINP": rs.players_min,
            "MAXZ": maxz, "NSHARED": p.n_shared, "NS": max(p.n_slots, 1), "NL": max(len(self.list_index), 1),
            "NPV": max(len(self.pv_index), 1), "NPVL": max(len(self.pvl_index), 1), "LCAP": lcap, "NR": max(len(p.rule_names), 1), "NRULES": len(p.rule_names),
            "MAXDEPTH": depth, "MAXM": maxm, "NO": max(len(p.options), 1), "MAX_STEPS": MAX_STEPS,
            "MAX_DECISIONS": f"INT64_C({min(p.max_decisions, 1 << 62)})", "CR_MAX_RANGE": sizes.MAX_RANGE,
            "CR_ARENA": max(1 << 16, 64 * lcap, 2 * maxm * max(self.nparams, 1) + 64 * lcap), "START": p.start, "NCHOICES": len(p.choices),
            "NPARAMS": self.nparams, "MW": max(1, (nc + 63) // 64), "NORD": max(p.card_order, default=0) + 1, "NSF": 4,  # the values a set test is handed, at most (set_fn)
            "BIG_LOOP": int(len(p.plain_code) >= BIG_LOOP),  # (unit/loop.c)
            "TELLS": int(p.tells), "NTOLD": nc * maxp if p.tells else 1, "NSITES": max(sum(1 for c in p.choices if c.each_slot is not None), 1),
        }
        score = p.score_name[2:] if p.score_name and p.score_name[:2] in ("D_", "U_") else None
        if p.score_name and score is None:
            raise NativeUnsupported(f"the winner rule's score {p.score_name}")
        if score is not None:
            defines["HAS_SCORE"] = 1
            defines["SCORE_FN"] = self.define_fn(score)
            while self.todo:
                self.emit_define(self.todo.pop(0))
        else:
            defines["HAS_SCORE"] = 0
        search_defines, search_tables = search_parts(self)
        defines.update(search_defines)
        greedy_defines, greedy_each = greedy_parts(self, [self.define_fn(f"advice {name}") for name, *_ in p.advice_ir])
        defines.update(greedy_defines)
        plan_defines, plan_slots = plan_parts(self)
        defines.update(plan_defines)
        # the answers of pure group tests kept for good (unit/split.c), where a card's number fits 13 bits
        # (every definition is written by now)
        defines["CR_TC_N"] = CR_TC_N if self.split_sites and nc <= CR_TC_CARDS else 0
        head = "#include <math.h>\n#include <stdlib.h>\n" + "\n".join(f"#define {k} {v}" for k, v in defines.items())
        kind_rows = ", ".join("{%d, %d, %d, %d}" % k for k in kinds)
        scratch = (["    cr_keep_slot keep[CR_KEEP_N];"] if self.keeps else []) + [f"    {m}" for m in self.memos]
        # the fixed C is runtime/unit/'s, in this order, with the generated parts between
        return "\n".join([
            head,
            unit_part("state.h"),
            f"static const int32_t K_KINDS[NKINDS][4] = {{{kind_rows}}}; /* per player, index, size, visibility */",
            *tables, *self.tables,
            filled("helpers.c", scratch),
            unit_part("keep.c") if self.keeps else "",
            *mask_tables(p, self.mask_consts),
            unit_part("masks.c"),
            unit_part("split.c"),
            unit_part("offer.c"),
            *self.define_protos,
            *[f"static void legal{k}(cr_ctx *x, cr_state *S, crt_cards *C, int32_t who);" for k in range(len(p.choices))],
            *self.define_src,
            *choices,
            filled("loop.c", body),
            filled("start.c", ["    " + line for line in inits]),
            filled("apply.c", ["        " + a for a in applies]),
            unit_part("entries.c"),
            *(player_units(search_tables, greedy_each, plan_slots) if players else ()),
            unit_part("batch.c"),
        ])


# a program of this many instructions or more has its loop optimised less (unit/loop.c): only the
# largest bundled game's (212). Its games are no slower for it and its build 0.5-0.7 s shorter; a
# short loop at -O1 took a few per cent more time a batch step, for builds a fraction as long
# (README, "The native engine"; benchmarks/batch_ab.py)
BIG_LOOP = 200


def player_units(search_tables, greedy_each, plan_slots) -> list[str]:
    """The players' fixed C with the program's parts between (the library NativeProgram.players loads)."""
    return [*search_tables, unit_part("search.c"), greedy_each, unit_part("greedy.c"), unit_part("seeker.c"),
            unit_part("plan.c"), plan_slots, unit_part("solve.c")]


def filled(name: str, lines) -> str:
    """A unit file whose middle is the program's: the generated lines in place of its marker line."""
    head, tail = unit_halves(name)
    return head + "".join(line + "\n" for line in lines) + tail


def emit_program(p) -> str:
    """The C of a whole program, after the runtime (native/toolchain.py:runtime_source)."""
    return Module(p).source()
