"""Stage 3: rule graph -> Program. Checks names and types (every error located), resolves
names to indices once, and turns expressions into generated Python functions and statements
into a flat list of instructions, so the engine never walks the graph while playing.

The stages, one module each: checks (deck, names, phases), expressions and definitions
(the ops of every expression, ir/ops.py, which pyemit.py writes as Python), masks (card sets
as bit masks), statements (lowering to instructions)."""

from __future__ import annotations

from typing import Callable

from ..language import graph as g
from . import runtime
from .checks import Checks
from .definitions import Definitions
from .expressions import Expressions
from .fuse import fuse, trace
from .ir import ops as o
from .ir.reads import CARD_READS, STATE_FNS, STATE_READS, masks_kept, masks_pay, state_reads
from .masks import Masks, bit_tables, make_order_runtime, make_runtime, make_suffix_runtime
from .program import _MISS, COLLECTION_TYPES, END, EXEC, JUMP, RET, TYPE_WORDS, Program, ZoneInfo, _err, word
from .statements import Statements
from .moves_left import MovesLeft
from .turns import Turns, out_var, uses_play


class Compiler(Checks, Expressions, Definitions, Masks, Statements, Turns, MovesLeft):
    def __init__(self, rs: g.Ruleset, fast: bool = True, masks: bool = True, untabled: frozenset = frozenset(),
                 probe: bool = False):
        self.rs = rs
        self.probe = probe and not fast  # (see Expressions.sx: the fuzzer's program that logs its tests)
        self.probes = 0
        self.untabled = untabled  # definitions of one card that cannot be tables (see fill_tables)
        self.tabled: list[str] = []
        self.unmemoised: dict[str, tuple | None] = {}  # definition -> its function without the memo and its body (None once written)
        self.memoised: set[str] = set()  # the functions of definitions with a memo
        self.kept: set[str] = set()  # definitions judged by faces alone whose answers are kept for good
        self.bare: set[str] = set()  # those of them written without the memo too (bare_define)
        self.bare_mode = False
        deck = rs.deck
        self._check_deck(deck)
        self.suit_index = {s: i for i, s in enumerate(deck.suits)}
        self.rank_index = {r: i for i, r in enumerate(deck.ranks)}
        names, suit, rank, order = [], [], [], []
        card_of = {}
        copies: dict[tuple[str, str], int] = {}
        for line in deck.lines():
            for s in line.suits:
                for r in line.ranks:
                    copies[(r, s)] = copies.get((r, s), 0) + line.copies
        for si, s in enumerate(deck.suits):
            sorder = deck.order_of(s)
            for r in deck.ranks:
                n_copies = copies.get((r, s), 0)
                for k in range(n_copies):
                    cid = len(names)
                    names.append(f"{r}-{s}" + (f"#{k + 1}" if n_copies > 1 else ""))
                    suit.append(si)
                    rank.append(self.rank_index[r])
                    order.append(sorder.index(r))
                    card_of.setdefault((self.rank_index[r], si), cid)
        n = len(names)
        suit_cards = [tuple(sorted((c for c in range(n) if suit[c] == si), key=lambda c: (order[c], c)))
                      for si in range(len(deck.suits))]
        above = [tuple(d for d in suit_cards[suit[c]] if order[d] > order[c]) for c in range(n)]
        below = [tuple(d for d in suit_cards[suit[c]] if order[d] < order[c]) for c in range(n)]
        values = {}
        for vname, table in deck.values.items():
            for r in table:
                if r not in self.rank_index:
                    raise _err(f"value {vname!r} names rank {r!r}, which the deck does not have", deck)
            values[vname] = [table.get(deck.ranks[rank[c]], 0) for c in range(n)]
        zones, zidx = [], {}
        shared = [z for z in rs.zones if not z.per_player]
        per = [z for z in rs.zones if z.per_player]
        offset = 0
        for i, z in enumerate(shared + per):
            zidx[z.name] = len(zones)
            zones.append(ZoneInfo(z.name, z.per_player, z.visibility,
                                  offset if not z.per_player else i - len(shared), z.size))
            if not z.per_player:
                offset += z.size or 1
        self.p = Program(ruleset=rs, card_names=names, card_suit=suit, card_rank=rank, card_order=order,
                         above=above, below=below, suit_cards=suit_cards, card_of=card_of, values=values,
                         zones=zones, zone_index=zidx, n_shared=offset, options=list(rs.options),
                         option_index={o.name: i for i, o in enumerate(rs.options)}, vars=[])
        self.enum_values: dict[str, str] = {}
        for o in rs.options:
            self._check_option(o)
            if o.type == "enum":
                for c in o.choices:
                    self.enum_values[c] = o.name
        self.defines = {d.name: d for d in rs.defines}
        self.procs = {p.name: p for p in rs.procedures}
        self.phases = {ph.name: ph for ph in rs.phases}
        self._check_names()
        self.slots = 0
        self.var_slots: dict[str, tuple[int, str]] = {}
        self.guards: dict[str, tuple] = {}  # generated aggregate -> (mask form, loop form), ops
        self.gen_ir: dict[str, o.Op] = {}  # generated definition function (D_, U_, ADVICE_) -> its body
        self.gen_memo: dict[str, str] = {}  # generated definition function -> the memo it keeps answers in
        self.reads_cache: dict = {}  # generated function -> what it reads of the state (ir/reads.py)
        self.set_helpers: dict[tuple, str] = {}  # the same set test asked elsewhere -> its generated function
        self.def_cache: dict[str, tuple] = {}
        self.def_stack: list[str] = []
        self.proc_start: dict[str, int] = {}
        self.proc_params: dict[str, list[int]] = {}
        self.pending_calls: list[tuple[int, str]] = []
        self.proc_stack: list[str] = []
        self.rule_stack: list[tuple[str, str]] = []
        self.loop_ends: list[list[int]] | None = None
        self.n_names = 0
        self.cur_node = None
        self.player_vars: set[str] = set()
        self.kind_of: dict[str, int] = {}
        self.def_src: list[str] = []
        self.lam_cache: dict[str, Callable] = {}
        self.lam_src: dict[int, str] = {}  # id of a generated function -> its source
        self.lam_ir: dict[int, object] = {}  # id of a generated function -> its ops (ir/ops.py), or None
        self.lam_ops: list = []  # the ops of every expression made a function (lam), once each text
        self.keep: list = []  # functions made here whose ids lam_ir holds
        p = self.p
        if rs.max_decisions is not None:
            p.max_decisions = rs.max_decisions
        cardkey = [(p.card_order[c], -p.card_suit[c], -c) for c in range(p.n_cards)]
        self.ns = {"MISS": _MISS, "STATIC": p.split_cache, "SUIT": p.card_suit, "RANK": p.card_rank, "ORDER": p.card_order,
                   "RANKPOS": [[deck_order.index(r) if r in deck_order else None for r in rs.deck.ranks]
                               for deck_order in (rs.deck.order_of(su) for su in rs.deck.suits)],
                   "ABOVE": p.above, "BELOW": p.below, "SUITCARDS": p.suit_cards, "CARDOF": p.card_of,
                   "CARDKEY": cardkey, "ALLCARDS": tuple(range(p.n_cards))}
        self.ns.update(runtime.NAMESPACE)
        for vname, table in p.values.items():
            self.ns[f"VALUE_{vname}"] = table
        for gname, ranks in rs.deck.groups.items():
            self.ns[f"GROUP_{gname}"] = frozenset(self.rank_index[r] for r in ranks)
        p.fast = fast
        self.use_masks = fast and masks
        p.face_of = [card_of[(rank[c], suit[c])] for c in range(len(names))]
        p.card_bit, p.card_at = bit_tables(cardkey)
        bit = p.card_bit
        p.all_mask = sum(bit)
        for c in range(p.n_cards):
            p.suit_mask[p.card_suit[c]] = p.suit_mask.get(p.card_suit[c], 0) | bit[c]
            p.rank_mask[p.card_rank[c]] = p.rank_mask.get(p.card_rank[c], 0) | bit[c]
        order_mask: dict = {}
        for c in range(p.n_cards):
            order_mask[p.card_order[c]] = order_mask.get(p.card_order[c], 0) | bit[c]
        self.ns.update({"ALLM": p.all_mask, "ORDM": order_mask, "SUITM": p.suit_mask, "RANKM": p.rank_mask,
                        "BITD": dict(enumerate(bit)), "BIT": bit,
                        "ABOVEM": [sum(bit[d] for d in p.above[c]) for c in range(p.n_cards)],
                        "BELOWM": [sum(bit[d] for d in p.below[c]) for c in range(p.n_cards)]})
        self.ns.update(make_runtime(p.card_at))
        self.ns.update(make_order_runtime(p.card_order, bit))
        self.ns.update(make_suffix_runtime(p.card_at, [p.suit_mask[si] for si in sorted(p.suit_mask)],
                                           self.ns["ABOVEM"], self.ns["BELOWM"]))

    # ------------------------------------------------------------------- whole
    def compile(self) -> Program:
        p, rs = self.p, self.rs
        # the ruleset's variables, then who is out of play when a rule drops a player (compiler/turns.py)
        p.var_nodes = list(rs.vars) + ([out_var(rs.loc)] if uses_play(rs) else [])
        for v in p.var_nodes:
            if v.type not in TYPE_WORDS:
                raise _err(f"unknown variable type {v.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", v)
            if v.params:
                if len(v.params) != 1 or v.params[0].type != "player":
                    raise _err(f"a variable can have one value per player, like var {v.name}(p: player): int; "
                               "no other parameters", v)
                self.player_vars.add(v.name)
            slot = self.new_slot()
            self.var_slots[v.name] = (slot, v.type)
        for v in p.var_nodes:
            slot = self.var_slots[v.name][0]
            if v.init is None and v.type in COLLECTION_TYPES:  # a collection with no starting value starts empty
                v = v.model_copy(update={"init": g.ListExpr(items=(), loc=v.loc)})
            if v.params:
                pname = v.params[0].name
                if v.init is not None:
                    src, _ = self.sx_typed(v.init, {pname: (o.Local("_vp", t="player"), "player")}, v.type,
                                           f"the initial value of {v.name}")
                else:
                    src = o.Lit(None, t="none")
                init = self.lam(o.EachSeat(src, t=v.type))
                p.var_ir.append((slot, True, v.type, src))
            else:
                init = self.typed(v.init, {}, v.type, f"the initial value of {v.name}")[0] if v.init is not None else None
                p.var_ir.append((slot, False, v.type, self.ir_of(init) if init is not None else o.Lit(None, t="none")))
            p.vars.append((v.name, slot, init))
        # definitions are compiled on first use; compile them all so every error surfaces
        for d in rs.defines:
            self.call_define(d, [], d)
        phase_start: dict[str, int] = {}
        phase_jumps = []
        for ph in rs.phases:
            phase_start[ph.name] = self.here()
            self.loop_ends = []
            self.rule_stack = [(ph.name, ph.title or ph.name)]
            p.rule_loc.setdefault(ph.name, ph.loc)
            self.where_read = ph
            self.block(ph.body, {})
            if ph.then:
                phase_jumps.append((self.emit(JUMP, None), ph.then))
            else:
                self.emit(END)
        for j, name in phase_jumps:
            p.code[j][1] = phase_start[name]
        # procedures: compile those performed (and every other, so errors surface)
        for proc in rs.procedures:
            self.proc_start[proc.name] = self.here()
            self.loop_ends = []
            self.rule_stack = [(None, None)]  # a procedure's rule is the one that performs it
            self.where_read = proc
            scope = {}
            for prm, slot in zip(proc.params, self.proc_params_for(proc)):
                if prm.type not in TYPE_WORDS:
                    raise _err(f"unknown parameter type {prm.type!r}; expected one of {', '.join(sorted(TYPE_WORDS))}", proc)
                scope[prm.name] = (slot, prm.type)
            self.block(proc.body, scope)
            self.emit(RET)
        for i, name in self.pending_calls:
            p.code[i][1] = self.proc_start[name]
        self._check_recursion()
        if rs.winner is not None:
            w = rs.winner
            var = next((v for v in rs.vars if v.name == w.score), None)
            if w.score not in self.defines and var is not None:
                if [prm.type for prm in var.params] != ["player"] or var.type != "int":
                    raise _err(f"the winner rule names the variable {w.score!r}, which must hold a number for "
                               f"each player, like: var {w.score}(p: player): int = 0", w)
                d = self.winner_by_var(var, w)
            elif w.score not in self.defines:
                raise _err(f"the winner rule names {w.score!r}, which is neither a definition nor a variable", w)
            else:
                d = self.defines[w.score]
            if len(d.params) != 1 or d.params[0].type != "player":
                raise _err(f"{w.score!r} must take one player, like: define {w.score}(p: player) = ...", w)
            self.call_define(d, [], w)
            fname, t, _ = self.def_cache[d.name]
            if t != "int":
                raise _err(f"{w.score!r} must give a number for each player; it gives {word(t)}", w)
            p.score_name, p.winner_rule = fname, w.rule
        if rs.sides is not None:
            self.sides(rs.sides)
        advice_fns = []
        for a in rs.advice:  # a number per player that the rules never read: the bots do
            prm = a.params[0]
            a0 = o.Local("a0", t=prm.type)
            src, _ = self.sx_typed(a.body, {prm.name: (a0, prm.type)}, "int", f"the advice {a.name!r}")
            fname = f"ADVICE_{a.name}"
            p.advice_ir.append((a.name, (a0,), src, "int"))
            self.def_src.append(f"def {fname}(st, a0):\n" + self.stmt("return ", src, "    "))
            self.gen_ir[fname] = src
            advice_fns.append((a.name, fname, a))
        src = "\n".join(self.def_src)
        exec(src, self.ns)  # the generated definitions
        self.fill_tables()
        p.advice = [(name, self.ns[fname], node) for name, fname, node in advice_fns]
        if rs.winner is not None:
            p.score = self.ns[p.score_name]
        if rs.sides is not None:
            p.sides = self.ns[p.sides_name]
        p.namespace = self.ns
        p.start = phase_start[rs.phases[0].name]
        p.phase_start = phase_start
        p.n_slots = self.slots
        p.code = [tuple(ins) for ins in p.code]
        # everything generated: the definitions' functions, every expression's, the aggregates' and set tests'
        generated = [*self.gen_ir.values(), *self.lam_ops, *(x for forms in self.guards.values() for x in forms),
                     *(t.mask for t in p.set_ir.values())]
        p.masks = masks_kept(generated)
        self.masks_pay = masks_pay(generated)
        for choice in p.choices:
            choice.reads = self.choice_reads(choice)
        entries = [p.start, *phase_start.values()]
        p.code = fuse(p.code, entries) if p.fast else \
            [ins if ins[0] != EXEC else (EXEC, ins[1], pc + 1) for pc, ins in enumerate(p.code)]
        p.fn_ir = self.lam_ir
        p.plain_code = p.code  # one instruction per place, for tools that read the program
        if p.fast:
            p.code = trace(p.code, entries, self.ns, self.lam_src)
        return p

    def sides(self, sd: g.Sides) -> None:
        """`sides by NAME`: NAME a definition of one player giving one plain value (players with
        equal values play together)."""
        d = self.defines.get(sd.by)
        if d is None:
            raise _err(f"the sides line names {sd.by!r}, which is not a definition; players play together when "
                       f"it gives them the same value, like: define {sd.by}(p: player) = p == seat(1) or p == seat(3)",
                       sd)
        if len(d.params) != 1 or d.params[0].type != "player":
            raise _err(f"{sd.by!r} must take one player, like: define {sd.by}(p: player) = ...", sd)
        self.call_define(d, [], sd)
        fname, t, _ = self.def_cache[d.name]
        if t in COLLECTION_TYPES:
            raise _err(f"{sd.by!r} must give one value for each player (a player, a number, true or false...), "
                       f"not {word(t)}", sd)
        self.p.sides_name = fname

    def winner_by_var(self, var, w) -> g.Define:
        """`winner most score` where score is a per-player variable: the score is that variable,
        read through a definition of its own (a name no other definition has), as any other score."""
        p = g.Name(name="p", loc=w.loc)
        d = g.Define(name="winner_" + var.name + "_", params=(g.Param(name="p", type="player"),),
                     body=g.Call(func=var.name, args=(p,), loc=w.loc), loc=w.loc)
        while d.name in self.defines:
            d = d.model_copy(update={"name": d.name + "_"})
        self.defines[d.name] = d
        return d

    def fill_tables(self) -> None:
        """A definition of one card judged by its face alone is a table over the cards, read
        where it is called (a look-up costs less than the call and its memo). Not when a card
        makes it fail, nor when none (no card) fails otherwise than the table's missing key
        would, since how a failure is reported hangs on that: then the program is compiled
        again calling it."""
        for name in self.tabled:
            fn = self.ns[f"D_{name}"]
            table = {}
            try:
                for c in range(self.p.n_cards):
                    table[c] = fn(_NO_STATE, c)
            except Exception:
                raise _Untabled(name)
            try:
                table[None] = fn(_NO_STATE, None)
            except (TypeError, KeyError, IndexError, AttributeError) as exc:
                if isinstance(exc, _StateRead) or "None" not in str(exc):
                    raise _Untabled(name)
            except Exception:
                raise _Untabled(name)
            self.ns[f"TAB_{name}"] = table

    def choice_reads(self, choice) -> tuple | None:
        """The variable and local slots a choice's moves are worked out from, beside the cards
        (every zone, owner and face-up flag), followed through every definition and aggregate
        they call; None when they read anything else (chance, the game's history), so the moves
        can only be worked out afresh."""
        xs = []
        for alt in choice.alts:
            for fn in (alt.when, alt.values):
                if fn is not None:
                    x = self.ir_of(fn)
                    if not isinstance(x, o.Op):
                        return None
                    xs.append(x)
        r = self.reads_of(xs)
        if r.attrs - STATE_READS or r.fns - STATE_FNS:
            return None
        return tuple(sorted(r.slots - {choice.each_slot}))

    def memo_of(self, x) -> str:
        """Where the answers of generated code are kept: `st.cmemo`, emptied only when cards move
        or turn, for code that reads the cards alone (through every definition and aggregate it
        calls); `st.memo`, emptied by a variable set too, for the rest (the plain evaluator keeps
        everything there)."""
        if not self.p.fast:
            return "st.memo"
        r = self.reads_of([x])
        if r.attrs - CARD_READS or r.fns - STATE_FNS:
            return "st.memo"
        return "st.cmemo"

    def reads_of(self, xs):
        """What ops read of the state, through every definition and set test they call (ir/reads.py)."""
        return state_reads(xs, self.body_of, self.gen_memo.get, self.reads_cache)

    def body_of(self, name: str):
        """The ops of a generated function called by name: a definition's body, a set test's mask."""
        if name in self.gen_ir:
            return (self.gen_ir[name],)
        test = self.p.set_ir.get(name)
        return None if test is None else (test.mask,)


def compile_ruleset(rs: g.Ruleset, fast: bool = True, probe: bool = False) -> Program:
    """Check a rule graph and compile it for the engine; raises RulesetError, located.
    `fast=False` gives the plain evaluator (loops, one instruction per statement), kept as the
    oracle the fast path is tested against; with `probe` too, it logs the value of every test
    that reads an option (the fuzzer's question: did the option ever decide a test?)."""
    untabled: frozenset = frozenset()
    while True:
        try:
            compiler = Compiler(rs, fast, untabled=untabled, probe=probe)
            program = compiler.compile()
            if program.masks and not compiler.masks_pay:
                program = Compiler(rs, fast, masks=False, untabled=untabled).compile()
            return program
        except _Untabled as e:
            untabled |= {e.name}


class _StateRead(AttributeError):
    pass


class _NoState:
    """The state a definition judged by faces alone is asked with to make its table: it reads none."""

    def __getattr__(self, name):
        raise _StateRead(name)


_NO_STATE = _NoState()


class _Untabled(Exception):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name
