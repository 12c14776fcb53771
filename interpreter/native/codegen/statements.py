"""The C of the lowered statements (compiler/ir/stmts.py): each moves cards, sets a value or
fires a rule as engine/play.py does, failing where it fails; mixed into the module emitter
(emit.py: Module), whose Expr and tables it uses."""

from __future__ import annotations

from ...compiler.ir import ops as o
from ...compiler.ir import stmts as ir
from .expr import NativeUnsupported


class Statements:
    """The s_ methods and the instruction loop's tests, for the module emitter."""

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
