"""The C emitter of a whole program: the deck's tables, the state struct, one C function per
definition, the instruction loop (one `case` per instruction of `Program.plain_code`), the
legal moves of each choice, and the entry points (`cr_new`, `cr_apply`, `cr_legal`, ...).
What is the same in every engine is C in native/runtime/unit/, pasted between the generated parts
(`Module.source`).

It reads only the lowered program (compiler/ir: ops, statements, `Program.def_ir`, `var_ir`)
and the program's tables; a construct it cannot lower raises NativeUnsupported naming it."""

from __future__ import annotations

import re

from ... import limits
from ...compiler.ir import ops as o
from ...compiler.ir import stmts as ir
from ...compiler.ir.reads import called
from ...compiler.program import CALL, CHOOSE, CHOOSE_EACH, END, EXEC, JIF, JUMP, MAX_SETS, MAX_STEPS, RET
from ..build import unit_halves, unit_part
from .expr import Expr, NativeUnsupported, int_literal, is_list
from .maskforms import MaskForms, local_types
from .tables import mask_tables
from .greedy_c import greedy_parts
from .search_c import search_parts
from .plan_c import plan_parts

VIS = {"public": 0, "owner": 1, "hidden": 2, "others": 3}  # runtime's CRT_VIS_*
MAX_PLAYERS = 64  # a declared set of winners is a 64-bit mask


def walk(x):
    """Every op inside an op or statement (a guarded aggregate's loop form, not its text)."""
    if isinstance(x, o.Guarded):
        yield x
        yield from walk(x.loop)
        return
    if isinstance(x, o.Op):
        yield x
        for v in x.operands():
            yield from walk(v)
        return
    if isinstance(x, tuple):
        for v in x:
            yield from walk(v)
        return
    if hasattr(x, "__dataclass_fields__"):
        for name in x.__dataclass_fields__:
            if name != "node":
                yield from walk(getattr(x, name))


class Module(Expr, MaskForms):
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

    # ---- statements
    def stmt(self, s) -> str:
        if s is None:
            raise NativeUnsupported("a statement the compiler did not lower")
        return getattr(self, "s_" + type(s).__name__)(s)

    def face_up(self, up) -> str:
        return "0" if up is None else self.truth(up)

    def s_Shuffle(self, s):
        return f"cr_check(x, crt_cards_shuffle(C, cr_rng(S), (int32_t)cr_zone(x, S, {self.scalar(s.zone)})));"

    def s_Deal(self, s):
        first = "0"
        pre = ""
        if s.at is not None:
            pre = f"int64_t _at = {self.scalar(s.at)}; if (_at == CR_NONE) cr_fail(x, CR_E_DEAL_AT); "
            first = f"cr_add(x, _at, {s.offset})"
        skip, call = "", f"crt_cards_deal(C, _n, (int32_t)_z, {int(s.kind)}, _up, {first})"
        if s.skip is not None:  # the seats out of play, as a mask (at most 64 players)
            skip = (f"cr_list _o = {self.lst(s.skip)}; uint64_t _skip = 0; "
                    "for (int64_t _i = 0; _i < _o.n; _i++) _skip |= (uint64_t)1 << (_o.v[_i] & 63); ")
            call = f"crt_cards_deal_some(C, _n, (int32_t)_z, {int(s.kind)}, _up, {first}, _skip)"
        return (f"{{ {pre}int64_t _n = cr_need(x, {self.scalar(s.count)}); "
                f"int64_t _z = cr_zone(x, S, {self.scalar(s.source)}); int _up = {self.face_up(s.face_up)}; "
                f"{skip}cr_check(x, {call}); }}")

    def s_MoveCard(self, s):
        move = ("{ int32_t _one = (int32_t)_c; cr_check(x, crt_cards_move(C, &_one, 1, (int32_t)_to, _up, 1)); }"
                if s.under else "cr_check(x, crt_cards_move_card(C, (int32_t)_c, (int32_t)_to, _up));")
        return (f"{{ int64_t _c = {self.scalar(s.card)}; if (_c == CR_NONE) cr_fail(x, CR_E_MOVE_NONE); "
                f"cr_idx(x, _c, NC); int64_t _to = cr_zone(x, S, {self.scalar(s.to)}); "
                f"int _up = {self.face_up(s.face_up)}; {move} }}")

    def s_MoveCards(self, s):
        if isinstance(s.cards, o.ZoneCards):  # a whole zone: its cards as they lie, none of them none or twice
            return (f"{{ int64_t _from = cr_zone(x, S, {self.scalar(s.cards.zone)}); "
                    f"int64_t _to = cr_zone(x, S, {self.scalar(s.to)}); int _up = {self.face_up(s.face_up)}; "
                    f"cr_check(x, crt_cards_move_zone(C, (int32_t)_from, (int32_t)_to, _up, {int(s.under)})); }}")
        return (f"{{ cr_list _l = cr_copy(x, {self.lst(s.cards)}); int64_t _to = cr_zone(x, S, {self.scalar(s.to)}); "
                f"int _up = {self.face_up(s.face_up)}; int32_t *_w = cr_ints32(x, _l); "
                f"for (int64_t _i = 0; _i < _l.n; _i++) if (_w[_i] < 0) cr_fail(x, CR_E_NONE); "
                f"cr_check(x, crt_cards_move(C, _w, (int32_t)_l.n, (int32_t)_to, _up, {int(s.under)})); }}")

    def s_Reveal(self, s):
        fn = "crt_cards_conceal" if s.down else "crt_cards_reveal"
        if s.single:
            return (f"{{ int64_t _c = {self.scalar(s.cards)}; if (_c != CR_NONE) {{ int32_t _one = (int32_t)cr_idx(x, _c, NC); "
                    f"cr_check(x, {fn}(C, &_one, 1)); }} }}")
        return (f"{{ cr_list _l = {self.lst(s.cards)}; int32_t *_w = cr_ints32(x, _l); "
                f"cr_check(x, {fn}(C, _w, (int32_t)_l.n)); }}")

    def s_Tell(self, s):
        """engine/state.py:State.tell: the suit (rank) of each card kept for the player told."""
        rank = s.what == "rank"
        keep = ("{ int32_t *_t = &S->told[_c * S->n_players + _q]; "
                + ("*_t = *_t % 256 + 256 * ((int32_t)K_RANK[_c] + 1); }" if rank else
                   "*_t = *_t - *_t % 256 + (int32_t)K_SUIT[_c] + 1; }"))
        to = (f"int64_t _q = {self.scalar(s.to)}; if (_q == CR_NONE) cr_fail(x, CR_E_TELL_NONE); "
              "cr_idx(x, _q, S->n_players);")
        if s.single:
            return (f"{{ int64_t _c = {self.scalar(s.cards)}; {to} "
                    f"if (_c != CR_NONE) {{ cr_idx(x, _c, NC); {keep} }} cr_epoch++; }}")
        return (f"{{ cr_list _l = {self.lst(s.cards)}; {to} for (int64_t _i = 0; _i < _l.n; _i++) {{ "
                f"int64_t _c = _l.v[_i]; if (_c == CR_NONE) continue; cr_idx(x, _c, NC); {keep} }} cr_epoch++; }}")

    def s_SetSlot(self, s):
        if self.slot_kind[s.slot] == "list":
            return f"cr_keep(x, S, {self.list_index[s.slot]}, {self.lst(s.value)});"
        if self.slot_kind[s.slot] in ("pv", "pvl"):
            raise NativeUnsupported("a per-player variable set as a whole")
        return f"S->sv[{s.slot}] = {self.scalar(s.value)};"

    def s_SetPlayerVar(self, s):
        if self.slot_kind[s.slot] == "pvl":
            return (f"{{ cr_list _v = cr_copy(x, {self.lst(s.value)}); "
                    f"cr_keep_pv(x, S, {self.pvl_index[s.slot]}, cr_idx(x, {self.scalar(s.who)}, S->n_players), _v); }}")
        return (f"{{ int64_t _v = {self.scalar(s.value)}; "
                f"S->pv[{self.pv_index[s.slot]}][cr_idx(x, {self.scalar(s.who)}, CR_SEATS(S))] = _v; }}")

    def s_Declare(self, s):
        if s.none:
            return "S->declared_set = 1; S->declared = 0;"
        if not s.many:
            return (f"{{ int64_t _w = {self.scalar(s.who)}; S->declared_set = 1; S->declared = 0; "
                    f"if (_w != CR_NONE) S->declared |= UINT64_C(1) << cr_idx(x, _w, S->n_players); }}")
        return (f"{{ cr_list _l = {self.lst(s.who)}; uint64_t _m = 0; for (int64_t _i = 0; _i < _l.n; _i++) "
                f"if (_l.v[_i] != CR_NONE) _m |= UINT64_C(1) << cr_idx(x, _l.v[_i], S->n_players); "
                f"S->declared_set = 1; S->declared = _m; }}")

    def s_Bind(self, s):
        parts, sets = [], []
        for i, (slot, a) in enumerate(zip(s.slots, s.args)):
            if self.slot_kind[slot] == "list":
                parts.append(f"cr_list _a{i} = cr_copy(x, {self.lst(a)});")
                sets.append(f"cr_keep(x, S, {self.list_index[slot]}, _a{i});")
            else:
                parts.append(f"int64_t _a{i} = {self.scalar(a)};")
                sets.append(f"S->sv[{slot}] = _a{i};")
        return "{ " + " ".join(parts + sets) + " }"

    def s_LoopInit(self, s):
        return f"cr_keep(x, S, {self.list_index[s.lst]}, {self.lst(s.items)}); S->sv[{s.idx}] = 0;"

    def s_SeatsInit(self, s):
        at = "0" if s.at is None else self.scalar(s.at)
        li = self.list_index[s.lst]
        return (f"{{ int64_t _a = {at}; if (_a == CR_NONE) cr_fail(x, CR_E_SEATS_AT); int64_t _n = S->n_players; "
                f"S->ln[{li}] = 0; for (int64_t _i = 0; _i < _n - {s.offset}; _i++) "
                f"S->lv[{li}][S->ln[{li}]++] = cr_mod(x, _a + {s.offset} + _i, _n); S->sv[{s.idx}] = 0; }}")

    def s_LoopStep(self, s):
        li = self.list_index[s.lst]
        return f"S->sv[{s.var}] = S->lv[{li}][S->sv[{s.idx}]]; S->sv[{s.idx}] += 1;"

    def s_Fire(self, s):
        return f"S->fired[{s.rule}] += 1;"

    def test(self, fn) -> str:
        t = getattr(fn, "ir", None)
        if t is None:
            t = self.ir_of_fn(fn)
        if isinstance(t, ir.LoopTest):
            return f"S->sv[{t.idx}] < S->ln[{self.list_index[t.lst]}]"
        if t is None:
            raise NativeUnsupported("a test the compiler did not lower")
        return self.truth(t)

    def ir_of_fn(self, fn):
        return self.p.fn_ir.get(id(fn)) if hasattr(self.p, "fn_ir") else None

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
                    if isinstance(op, (o.Random, o.LoopMore)):
                        reads = None
                        break
                    if isinstance(op, (o.Slot, o.PlayerVar)):
                        reads.add(op.n)
                if reads is None:
                    break
            self._def_reads = reads
        return self._def_reads

    def site(self, ch) -> int:
        """The number of a `choose by each` among the program's."""
        return [c for c in self.p.choices if c.each_slot is not None].index(ch)

    def choose_each(self, pc: int, ch) -> str:
        """engine/play.py:_exec at a CHOOSE_EACH: the deciders once; when everyone has decided,
        secret choices carried out one by one in the deciders' order; else everyone's moves."""
        k, site, each = self.p.choices.index(ch), self.site(ch), ch.each_slot
        actors = self.lst(getattr(ch, "actor_ir", None))
        if ch.any:
            return self.choose_any(pc, k, site, each, actors)
        secret = int(bool(ch.secret))
        binds = " ".join(f"case {i}: {self.bind(alt, f'S->chosen_val[{site}][_p]')} S->pc = {alt.body}; break;"
                         for i, alt in enumerate(ch.alts))
        return (
            f"{{ const int site = {site}; "
            f"if (!S->pend_on[site]) {{ cr_list _l = {actors}; S->pend_n[site] = 0; "
            f"for (int64_t _i = 0; _i < _l.n; _i++) {{ int64_t _p = _l.v[_i]; if (_p == CR_NONE) continue; "
            f"cr_idx(x, _p, S->n_players); int _j = 0; while (_j < S->pend_n[site] && S->pend[site][_j] != _p) _j++; "
            f"if (_j == S->pend_n[site]) S->pend[site][S->pend_n[site]++] = (int32_t)_p; }} S->pend_on[site] = 1; "
            f"if ({secret}) {{ S->seal_on[site] = 1; S->seal_n[site] = S->pend_n[site]; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->seal_order[site][_j] = S->pend[site][_j]; }} "
            f"memset(S->chosen_on[site], 0, sizeof(S->chosen_on[site])); }} }} "
            f"if (S->pend_n[site] == 0) {{ "
            f"if ({secret}) {{ for (int _j = 0; _j < S->seal_n[site]; _j++) {{ int32_t _p = S->seal_order[site][_j]; "
            f"if (!S->chosen_on[site][_p]) continue; S->chosen_on[site][_p] = 0; S->sv[{each}] = _p; "
            f"if (S->sp >= MAXDEPTH) cr_fail(x, CR_E_DEPTH); S->stack[S->sp++] = {pc}; "
            f"switch (S->chosen_alt[site][_p]) {{ {binds} default: cr_fail(x, CR_E_STATE); }} cr_epoch++; goto next{pc}; }} "
            f"S->seal_on[site] = 0; }} "
            f"S->pend_on[site] = 0; S->pc = {pc + 1}; continue; }} "
            f"S->choice = {k}; S->actor = S->pend[site][0]; S->legal_n = 0; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->sv[{each}] = S->pend[site][_j]; cr_epoch++; "
            f"legal{k}(x, S, C, S->pend[site][_j]); }} "
            f"S->sv[{each}] = S->pend[site][S->pend_n[site] - 1]; return 0; "
            f"next{pc}: continue; }}")

    def choose_any(self, pc: int, k: int, site: int, each: int, actors: str) -> str:
        """engine/play.py:_exec at a `choose by any`: the players who have not passed since the
        last move (all of them after it), everyone's moves; nobody with one: the decision is over."""
        return (
            f"{{ const int site = {site}; "
            f"if (!S->pend_on[site]) {{ cr_list _l = {actors}; S->pend_n[site] = 0; "
            f"for (int64_t _i = 0; _i < _l.n; _i++) {{ int64_t _p = _l.v[_i]; if (_p == CR_NONE) continue; "
            f"cr_idx(x, _p, S->n_players); int _j = 0; while (_j < S->pend_n[site] && S->pend[site][_j] != _p) _j++; "
            f"if (_j == S->pend_n[site]) S->pend[site][S->pend_n[site]++] = (int32_t)_p; }} S->pend_on[site] = 1; }} "
            f"S->legal_n = 0; "
            f"for (int _j = 0; _j < S->pend_n[site]; _j++) {{ S->sv[{each}] = S->pend[site][_j]; cr_epoch++; "
            f"legal{k}(x, S, C, S->pend[site][_j]); }} "
            f"if (S->pend_n[site]) S->sv[{each}] = S->pend[site][S->pend_n[site] - 1]; "
            f"if (S->legal_n == 0) {{ S->pend_on[site] = 0; S->pc = {pc + 1}; continue; }} "
            f"S->choice = {k}; S->actor = S->legal_who[0]; return 0; }}")

    def bind(self, alt, vals: str) -> str:
        """An action's parameters take the chosen values (engine/play.py:_bind)."""
        if alt.slot is None:
            return ""
        slots = [(alt.slot, alt.elem)] + list(alt.more)
        out = []
        for j, (slot, elem) in enumerate(slots):
            if elem == "cards" and self.slot_kind[slot] == "list":  # a chosen set: its mask's cards, in the deck's order
                li = self.list_index[slot]
                out.append(f"{{ uint64_t _m = (uint64_t){vals}[{j}]; S->ln[{li}] = 0; for (int64_t _b = 0; _b < NC; _b++) "
                           f"if (_m >> _b & 1) S->lv[{li}][S->ln[{li}]++] = _b; }}")
            else:
                out.append(f"S->sv[{slot}] = {vals}[{j}];")
        return " ".join(out)

    def choice(self, k: int, ch) -> str:
        """legal<k>(who): the moves `who` may make, after those already listed (compute_legal_for)."""
        lines = [f"static void legal{k}(cr_ctx *x, cr_state *S, crt_cards *C, int32_t who) {{", "    (void)C;",
                 "    const int32_t first = S->legal_n;", "    (void)first;"]
        names = {}
        seen: dict[str, str] = {}  # the actions' `when` tests worked out so far: nothing changes between them
        for i, alt in enumerate(ch.alts):
            names.setdefault(alt.name, len(names))
            if alt.decline:  # `choose by any`: a player with a move may pass (engine/legal.py)
                lines.append(f"    if (S->legal_n > first) cr_offer1(x, S, {i}, who, CR_NONE);")
                continue
            body = []
            if alt.values is None:
                body.append(f"cr_offer1(x, S, {i}, who, CR_NONE);")
            elif alt.more:
                body.append(self.combos(i, alt))
            else:
                v = alt.values_ir
                if not isinstance(v, ir.Values):
                    raise NativeUnsupported("an action's values the compiler did not lower")
                var = self.local(v.var)
                test = f"if (!{self.truth(v.where)}) continue; " if v.where is not None else ""
                dedupe = ("" if v.domain.t == "zone" or isinstance(v.domain, o.Subsets) or _distinct_cards(v.domain)
                          else "_k = cr_dedupe(_k); ")
                parts, decls = self.parts_decl(v.domain)
                if dedupe:
                    total = " + ".join(f"{d}.n" for d in parts)
                    body.append(f"{decls}cr_list _k = cr_alloc(x, {total}); "
                                f"{self.each(parts, var, f'{test}_k.v[_k.n++] = {var}; ')}{dedupe}"
                                f"for (int64_t _i = 0; _i < _k.n; _i++) cr_offer1(x, S, {i}, who, _k.v[_i]);")
                elif not test and all(isinstance(part, o.ZoneCards) for part in self.parts(v.domain)):
                    body.append(decls + "".join(f"cr_offer_view(x, S, {i}, who, {d}); " for d in parts))
                else:  # each offered as it passes: a failure on the way throws the moves away
                    body.append(f"{decls}{self.each(parts, var, f'{test}cr_offer1(x, S, {i}, who, {var}); ')}")
            if alt.when is not None:
                when = getattr(alt, "when_ir", None)
                if when is None:
                    raise NativeUnsupported("an action's 'when' the compiler did not lower")
                key = _canonical(when)
                if key is not None and key in seen:  # the same test as an earlier action's: its answer
                    lines.append(f"    if ({seen[key]}) {{ {' '.join(body)} }}")
                elif key is not None:
                    seen[key] = f"_w{len(seen)}"
                    lines.append(f"    int {seen[key]} = {self.truth(when)};")
                    lines.append(f"    if ({seen[key]}) {{ {' '.join(body)} }}")
                else:
                    lines.append(f"    if ({self.truth(when)}) {{ {' '.join(body)} }}")
            else:
                lines.append(f"    {{ {' '.join(body)} }}")
        if ch.shared_names:
            ids = ", ".join(str(names[a.name]) for a in ch.alts)
            lines.append(f"    {{ static const int32_t name_of[] = {{{ids}}}; cr_unique(S, first, name_of); }}")
        lines.append("}")
        return "\n".join(lines)

    def combos(self, i: int, alt) -> str:
        """Nested loops over the parameters' sets, each test where its last parameter is bound;
        rows without repeats (engine: list(dict.fromkeys(...)))."""
        v = alt.values_ir
        if not isinstance(v, ir.Combos):
            raise NativeUnsupported("an action's values the compiler did not lower")
        w = len(v.params)
        if w > self.nparams:
            raise NativeUnsupported("an action with more parameters than the engine has room for")
        code = ["int32_t _start = S->legal_n; "]
        close = []
        cols = []
        for j, (var, domain, tests) in enumerate(v.params):
            d, idx = self.fresh_c("d"), self.fresh_c("i")
            c = self.local(var)
            if isinstance(domain, o.Subsets):  # a set of cards: its mask in the row, its cards for the tests
                m = self.fresh_c("s")
                cols.append(m)
                code.append(f"cr_list {d} = {self.lst(domain)}; for (int64_t {idx} = 0; {idx} < {d}.n; {idx}++) "
                            f"{{ int64_t {m} = {d}.v[{idx}]; cr_list {c} = cr_alloc(x, __builtin_popcountll((uint64_t){m})); "
                            f"for (int64_t _b{m} = 0; _b{m} < NC; _b{m}++) if ((uint64_t){m} >> _b{m} & 1) {c}.v[{c}.n++] = _b{m}; ")
            else:
                cols.append(c)
                code.append(f"cr_list {d} = {self.lst(domain)}; for (int64_t {idx} = 0; {idx} < {d}.n; {idx}++) "
                            f"{{ int64_t {c} = {d}.v[{idx}]; ")
            code.extend(f"if (!{self.truth(t)}) continue; " for t in tests)
            close.append("} ")
        code.append(f"{{ int64_t _row[{w}] = {{{', '.join(cols)}}}; cr_offer(x, S, {i}, who, _row, {w}); }} ")
        code.extend(close)
        code.append("cr_dedupe_legal(S, _start); ")
        return "{ " + "".join(code) + "}"

    def apply_case(self, k: int, ch) -> str:
        cases = []
        for i, alt in enumerate(ch.alts):
            if alt.decline:  # passes until somebody moves: the decision again, without this player
                cases.append(f"case {i}: cr_unwait(S, {self.site(ch)}, who); break;")
            elif ch.any:  # the move is made: after it, everyone may act again
                site = self.site(ch)
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} S->pend_on[{site}] = 0; "
                             f"S->sv[{ch.each_slot}] = who; if (S->sp >= MAXDEPTH) return CR_E_DEPTH; "
                             f"S->stack[S->sp++] = S->pc; S->pc = {alt.body}; break;")
            elif ch.each_slot is not None and ch.secret:  # sealed until everyone has chosen
                site = self.site(ch)
                cases.append(f"case {i}: cr_unwait(S, {site}, who); S->chosen_on[{site}][who] = 1; "
                             f"S->chosen_alt[{site}][who] = alt; "
                             f"memcpy(S->chosen_val[{site}][who], S->legal_val[i], sizeof S->legal_val[i]); break;")
            elif ch.each_slot is not None:
                site = self.site(ch)
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} cr_unwait(S, {site}, who); "
                             f"S->sv[{ch.each_slot}] = who; if (S->sp >= MAXDEPTH) return CR_E_DEPTH; "
                             f"S->stack[S->sp++] = S->pc; S->pc = {alt.body}; break;")
            else:
                cases.append(f"case {i}: {self.bind(alt, 'S->legal_val[i]')} S->pc = {alt.body}; break;")
        return f"case {k}: switch (alt) {{ {' '.join(cases)} default: return CR_E_STATE; }} break;"

    def moves_bound(self, ch, lcap: int, maxp: int) -> int:
        """How many moves a choice can offer at once (every decider's at a `choose by each`)."""
        total = 0
        for a in ch.alts:
            v = a.values_ir
            if a.values is None:
                total += 1
            elif isinstance(v, ir.Combos):
                n = 1
                for _, domain, _ in v.params:
                    n = min(n * self.bound(domain, lcap), 1 << 15)
                total += n
            elif isinstance(v, ir.Values):
                total += self.bound(v.domain, lcap)
        return total * (maxp if ch.each_slot is not None else 1)

    def bound(self, e, lcap: int) -> int:
        """How long a collection can be, as far as can be seen before play (lcap: a slot's room)."""
        rs = self.p.ruleset
        if isinstance(e, o.Range):
            lo, hi = self.int_range(e.a), self.int_range(e.b)
            if lo is not None and hi is not None:
                return max(hi[1] - lo[0] + 1, 0)
            return lcap
        if isinstance(e, o.Concat):
            return self.bound(e.a, lcap) + self.bound(e.b, lcap)
        if isinstance(e, o.ListOf):
            return len(e.items)
        if isinstance(e, o.Subsets):
            return MAX_SETS
        if isinstance(e, (o.AggLoop, o.Paren)):
            return self.bound(e.domain if isinstance(e, o.AggLoop) else e.x, lcap)
        if isinstance(e, o.Op) and e.t in ("players", "suits", "ranks"):
            return max(rs.players_max, len(rs.deck.suits), len(rs.deck.ranks))
        return lcap

    def int_range(self, e):
        """The lowest and highest value a number can take, where the ruleset fixes them."""
        if isinstance(e, o.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return e.value, e.value
        if isinstance(e, o.Opt):
            opt = self.p.options[e.i]
            if opt.type == "int" and opt.low is not None:
                return opt.low, opt.high
        if isinstance(e, o.NPlayers):
            return self.p.ruleset.players_min, self.p.ruleset.players_max
        if isinstance(e, o.Paren):
            return self.int_range(e.x)
        if isinstance(e, o.Neg):
            x = self.int_range(e.x)
            return None if x is None else (-x[1], -x[0])
        if isinstance(e, o.Arith) and e.op in ("+", "-", "*"):  # `1..(player_count * 20)`
            a, b = self.int_range(e.a), self.int_range(e.b)
            if a is None or b is None:
                return None
            if e.op == "+":
                return a[0] + b[0], a[1] + b[1]
            if e.op == "-":
                return a[0] - b[1], a[1] - b[0]
            ends = [x * y for x in a for y in b]
            return min(ends), max(ends)
        return None

    # ---- the whole file
    def source(self) -> str:
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
        lcap = max(nc, maxz, maxp, n_suits, n_ranks, 64, min(max(ranges, default=0), limits.MAX_RANGE))
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
        kinds = [(1 if z.per_player else 0, z.index, z.size or 1, VIS.get(z.visibility, 2)) for z in p.zones]
        defines = {
            "NC": nc, "NSUITS": n_suits, "NRANKS": n_ranks, "NKINDS": n_kinds, "MAXP": maxp, "MINP": rs.players_min,
            "MAXZ": maxz, "NSHARED": p.n_shared, "NS": max(p.n_slots, 1), "NL": max(len(self.list_index), 1),
            "NPV": max(len(self.pv_index), 1), "NPVL": max(len(self.pvl_index), 1), "LCAP": lcap, "NR": max(len(p.rule_names), 1), "NRULES": len(p.rule_names),
            "MAXDEPTH": depth, "MAXM": maxm, "NO": max(len(p.options), 1), "MAX_STEPS": MAX_STEPS,
            "MAX_DECISIONS": f"INT64_C({min(p.max_decisions, 1 << 62)})", "CR_MAX_RANGE": limits.MAX_RANGE,
            "CR_ARENA": max(1 << 16, 64 * lcap), "START": p.start, "NCHOICES": len(p.choices),
            "NPARAMS": self.nparams, "MW": max(1, (nc + 63) // 64), "NORD": max(p.card_order, default=0) + 1, "NSF": 4,  # the values a set test is handed, at most (set_fn)
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
            *search_tables,
            unit_part("search.c"),
            greedy_each,
            unit_part("greedy.c"),
            unit_part("seeker.c"),
            unit_part("plan.c"),
            plan_slots,
            unit_part("solve.c"),
            unit_part("batch.c"),
        ])


def filled(name: str, lines) -> str:
    """A unit file whose middle is the program's: the generated lines in place of its marker line."""
    head, tail = unit_halves(name)
    return head + "".join(line + "\n" for line in lines) + tail


def _canonical(e) -> str | None:
    """An expression's text with the names its aggregates bind numbered in order, so that two
    copies of one test read alike; None when working it out draws at random (twice is not once)."""
    bound = []
    for op in walk(e):
        if isinstance(op, o.Random):
            return None
        if isinstance(op, o.AggLoop) and isinstance(op.var, o.Local) and op.var.name not in bound:
            bound.append(op.var.name)
    text = _shape(e)
    for k, name in enumerate(bound):
        text = re.sub(rf"'{re.escape(name)}'", f"'#{k}'", text)
    return text


def _shape(x) -> str:
    """An op's structure as text, a guarded aggregate as its loop form (the form C is written from)."""
    if isinstance(x, o.Guarded):
        return _shape(x.loop)
    if isinstance(x, o.Op):
        return f"{type(x).__name__}({', '.join(_shape(getattr(x, f)) for f in x.fields)})"
    if isinstance(x, tuple):
        return f"({', '.join(_shape(v) for v in x)},)"
    return repr(x)


def _distinct_cards(dom, kinds=None) -> bool:
    """Whether a collection is the cards of zones of different kinds, one each (a player's hand
    and the same player's other pile, say): no card lies in two zones, so it has no repeats."""
    kinds = set() if kinds is None else kinds
    if isinstance(dom, o.Concat):
        return _distinct_cards(dom.a, kinds) and _distinct_cards(dom.b, kinds)
    if isinstance(dom, o.ZoneCards) and isinstance(dom.zone, o.PlayerZone) and dom.zone.kind not in kinds:
        kinds.add(dom.zone.kind)
        return True
    return False


def emit_program(p) -> str:
    """The C of a whole program, after the runtime (native/build.py:runtime_source)."""
    return Module(p).source()
