"""What a parse tree declares and refers to, token by token: the symbols (definitions, options,
zones, variables, procedures, phases, rules, actions, the deck's suits, ranks and groups, and
the locals: parameters, `let`, aggregate and loop names) and every reference to a name, with
the exact range of its token and, for a local, the symbol that binds it.

The rule graph keeps one location per node (its first token); go to definition, references and
rename need the name's own token, so this walks Lark's tree, where every token keeps its place.
Namespaces, as the compiler resolves names: `value` (everything an expression can name:
definitions, options, variables, zones, suits, ranks, groups, option values, built-ins and
locals), `procedure` (perform), `phase` (then), `rule`, `action`, `advice`, `interpretation`,
`attr` (what follows a dot: card attributes and deck values), `deck`, `game`."""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token, Tree


@dataclass(frozen=True)
class Span:
    line: int
    col: int
    end_line: int
    end_col: int

    def contains(self, line: int, col: int) -> bool:
        if (line, col) < (self.line, self.col):
            return False
        return (line, col) <= (self.end_line, self.end_col)


@dataclass(eq=False)
class Symbol:
    ns: str
    name: str
    kind: str                  # define, option, zone, var, procedure, phase, rule, action, advice, ...
    sel: Span                  # the name's token
    full: Span                 # the whole declaration
    detail: str = ""
    type: str | None = None    # a local's or a parameter's type, a variable's type
    scope: Span | None = None  # where a local can be named
    new: bool = False          # written 'new define' (a variant adds it)
    children: list["Symbol"] = field(default_factory=list)


@dataclass(eq=False)
class Ref:
    ns: str
    name: str
    span: Span
    local: Symbol | None = None  # the binding symbol, for a local
    role: str = "use"


@dataclass
class Index:
    outline: list[Symbol] = field(default_factory=list)   # top level, rules and actions nested
    symbols: list[Symbol] = field(default_factory=list)   # every declaration, flat, locals included
    refs: list[Ref] = field(default_factory=list)
    base_ref: tuple[str, Span] | None = None              # a variant's `of "FILE"`
    header: Symbol | None = None


def tok_span(t: Token) -> Span:
    return Span(t.line - 1, t.column - 1, t.end_line - 1, t.end_column - 1)


def meta_span(tree: Tree) -> Span | None:
    m = tree.meta
    if getattr(m, "empty", True):
        return None
    return Span(m.line - 1, m.column - 1, m.end_line - 1, m.end_column - 1)


def _trees(ch):
    return [c for c in ch if isinstance(c, Tree)]


class Indexer:
    def __init__(self):
        self.ix = Index()
        self.nest: list[list[Symbol]] | None = None  # where a rule or action found now is listed

    # ---- recording
    def declare(self, ns, name_tok: Token, kind, full: Span | None, detail="", type_=None, scope=None,
                new=False, outline: list | None = None) -> Symbol:
        sel = tok_span(name_tok)
        sym = Symbol(ns, str(name_tok), kind, sel, full or sel, detail, type_, scope, new)
        self.ix.symbols.append(sym)
        if outline is not None:
            outline.append(sym)
        return sym

    def ref(self, ns, tok: Token, scope: dict | None = None, role="use"):
        if tok is None:
            return
        name = str(tok)
        local = scope.get(name) if (scope and ns == "value") else None
        self.ix.refs.append(Ref(ns, name, tok_span(tok), local, role))

    # ---- top level
    def items(self, trees: list[Tree]) -> Index:
        for t in trees:
            self.item(t)
        return self.ix

    def item(self, t: Tree):
        if not isinstance(t, Tree):
            return
        full = meta_span(t)
        ch = t.children
        top = self.ix.outline
        d = t.data
        if d == "game_header":
            self.ix.header = self.declare("game", ch[0], "game", full, f"game {ch[0]}", outline=top)
        elif d == "variant_header":
            self.ix.header = self.declare("game", ch[0], "variant", full, f"variant {ch[0]} of {ch[2]}", outline=top)
            self.ix.base_ref = (str(ch[2])[1:-1], tok_span(ch[2]))
        elif d == "deck":
            sym = self.declare("deck", ch[0], "deck", full, f"deck {ch[0]}", outline=top)
            for it in _trees(ch[2:]):
                self.deck_item(it, sym.children)
        elif d == "order_item":
            self.deck_item(t, None)
        elif d == "zone":
            owner = "per player" if ch[2] is not None and ch[2].data == "per_player" else "shared"
            size = f"[{ch[1]}]" if ch[1] is not None else ""
            self.declare("value", ch[0], "zone", full, f"zone {ch[0]}{size} {owner} {ch[3]}", outline=top)
        elif d == "option":
            typ = ch[1]
            self.declare("value", ch[0], "option", full, f"option {ch[0]}", outline=top)
            if isinstance(typ, Tree) and typ.data == "enum_type":
                for tok in typ.children[0].children:
                    self.declare("value", tok, "enum", tok_span(tok), f"a value of option {ch[0]}")
            self.literal(ch[2])
        elif d == "option_default":  # a variant changes a default: a reference, listed in the outline
            self.ref("value", ch[0], role="option_default")
            self.literal(ch[1])
            value = ch[1].children[0] if isinstance(ch[1], Tree) and ch[1].children else ch[1].data[4:]
            top.append(Symbol("value", str(ch[0]), "option", tok_span(ch[0]), full or tok_span(ch[0]),
                              f"option {ch[0]} = {value}"))
        elif d == "remove":  # a variant takes names of its base out: references to them
            kind = str(ch[0].children[0]) if isinstance(ch[0], Tree) else str(ch[0])
            ns = "value" if kind in ("option", "define", "var") else kind
            for tok in ch[1:]:
                self.ref(ns, tok, role="remove")
        elif d == "var":
            private, ch = ch[0] is not None, ch[1:]
            params = self.params(ch[1], full, f"variable {ch[0]}")
            typ = str(ch[2])
            sig = f"{'private ' if private else ''}var {ch[0]}{self.sig(ch[1])}: {typ}"
            self.declare("value", ch[0], "var", full, sig, type_=typ, outline=top)
            if ch[3] is not None:
                self.expr(ch[3], params)
        elif d in ("define", "advice", "procedure"):
            new = ch[0] is not None
            name, ptree = ch[1], ch[2]
            params = self.params(ptree, full, f"{'definition' if d == 'define' else d} {name}")
            ns = "value" if d == "define" else d
            sym = self.declare(ns, name, d, full, f"{'new ' if new else ''}{d} {name}{self.sig(ptree)}", new=new,
                               outline=top)
            if d == "procedure":
                self.block(ch[3], params, sym.children)
            else:
                self.expr(ch[3], params)
        elif d == "phase":
            sym = self.declare("phase", ch[0], "phase", full, f"phase {ch[0]}" + (f" then {ch[2]}" if ch[2] else ""),
                               outline=top)
            if ch[2] is not None:
                self.ref("phase", ch[2], role="then")
            self.block(ch[3], {}, sym.children)
        elif d == "interpretation":
            self.declare("interpretation", ch[0], "interpretation", full, f"interpretation {ch[0]}", outline=top)
        elif d == "winner":
            self.ref("value", ch[1], role="winner")
        elif d == "sides":
            self.ref("value", ch[0], role="sides")
        elif d == "rule_stmt":
            self.stmt(t, {}, top)

    def literal(self, lit):
        if isinstance(lit, Tree) and lit.data == "lit_name":
            self.ref("value", lit.children[0], role="option_value")

    def deck_item(self, it: Tree, outline):
        ch = it.children
        d = it.data
        if d == "suits":
            for tok in ch[0].children:
                self.declare("value", tok, "suit", tok_span(tok), "a suit", outline=outline)
        elif d == "ranks":
            for r in _trees(ch[0].children):
                if r.data == "rank_ref" and r.children[0].type == "NAME":
                    self.declare("value", r.children[0], "rank", tok_span(r.children[0]), "a rank", outline=outline)
        elif d == "group":
            self.declare("value", ch[0], "group", meta_span(it), f"group {ch[0]}", outline=outline)
            self.rank_refs(ch[1])
        elif d == "value":
            self.declare("attr", ch[0], "value", meta_span(it), f"value {ch[0]}", outline=outline)
            for pair in _trees(ch[1:]):
                self.rank_refs(pair)
        elif d == "order_item":
            for tok in ch[0].children:
                self.ref("value", tok, role="suit")
            self.rank_refs(ch[1])
        elif d == "cards_line":
            self.rank_refs(ch[0])
            for tok in ch[1].children:
                self.ref("value", tok, role="suit")

    def rank_refs(self, tree):
        for sub in tree.iter_subtrees_topdown() if isinstance(tree, Tree) else ():
            if sub.data == "rank_ref" and isinstance(sub.children[0], Token) and sub.children[0].type == "NAME":
                self.ref("value", sub.children[0], role="rank")

    def sig(self, ptree) -> str:
        if ptree is None:
            return ""
        return "(" + ", ".join(f"{p.children[0]}: {p.children[1]}" for p in _trees(ptree.children)) + ")"

    def params(self, ptree, full, owner: str) -> dict:
        scope = {}
        if ptree is None:
            return scope
        for p in _trees(ptree.children):
            name, typ = p.children
            scope[str(name)] = self.declare("local", name, "parameter", meta_span(p),
                                            f"{name}: {typ}, a parameter of {owner}", type_=str(typ), scope=full)
        return scope

    # ---- statements
    def block(self, tree, scope: dict, outline: list):
        if not isinstance(tree, Tree):
            return
        scope = dict(scope)
        for s in tree.children:
            if isinstance(s, Tree):
                scope = self.stmt(s, scope, outline, block_end=meta_span(tree))

    def stmt(self, s: Tree, scope: dict, outline: list, block_end: Span | None = None) -> dict:
        """Walk one statement; returns the scope for the statements after it (a `let` adds to it)."""
        d = s.data
        ch = s.children
        full = meta_span(s)
        if d == "let":
            self.expr(ch[1], scope)
            end = block_end or full
            scope = dict(scope)
            scope[str(ch[0])] = self.declare("local", ch[0], "let", full, f"{ch[0]}, named by let",
                                             scope=Span(full.line, full.col, end.end_line, end.end_col) if full else None)
            return scope
        if d == "set":
            self.ref("value", ch[0], scope, role="set")
            for c in ch[1:]:
                self.expr(c, scope)
        elif d == "perform":
            self.ref("procedure", ch[0], role="perform")
            for c in ch[1:]:
                self.expr(c, scope)
        elif d == "deal":
            self.expr(ch[0], scope)
            self.expr(ch[1], scope)
            self.ref("value", ch[2], scope, role="deal")
            for c in ch[3:]:
                self.expr(c, scope)
        elif d == "for_players":  # NAME, [in play], [from|after PLAYER], block
            self.expr(ch[2], scope)
            inner = dict(scope)
            inner[str(ch[0])] = self.declare("local", ch[0], "player", full, f"{ch[0]}: player, each player in turn", "player",
                                                     scope=full)
            self.block(ch[3], inner, outline)
        elif d == "for_each":
            self.expr(ch[1], scope)
            inner = dict(scope)
            inner[str(ch[0])] = self.declare("local", ch[0], "each", full, f"{ch[0]}, each element in turn",
                                             scope=full)
            self.block(ch[2], inner, outline)
        elif d == "rule_stmt":
            sym = self.declare("rule", ch[0], "rule", full, f"rule {ch[0]}", outline=outline)
            self.expr(ch[2], scope)
            self.block(ch[3], scope, sym.children)
        elif d in ("choose", "choose_each", "choose_secretly"):
            inner = scope
            by = ch[0]
            if d == "choose" and isinstance(by, Tree) and by.data == "agg" and str(by.children[0]) == "any":
                # choose by any p in SET: (the parser reads an aggregate there)
                self.expr(by.children[2], scope)
                inner = dict(scope)
                inner[str(by.children[1])] = self.declare("local", by.children[1], "each", full,
                                                          f"{by.children[1]}: player, whoever acts", "player", scope=full)
                actions = ch[1:]
            elif d == "choose":
                self.expr(ch[0], scope)
                actions = ch[1:]
            else:
                self.expr(ch[1], scope)
                inner = dict(scope)
                inner[str(ch[0])] = self.declare("local", ch[0], "each", full, f"{ch[0]}: player, each player deciding",
                                                 "player", scope=full)
                actions = ch[2:]
            for a in _trees(actions):
                self.action(a, inner, outline)
        elif d == "block":
            self.block(s, scope, outline)
        elif d in ("stmt_text", "stmt_note"):
            pass
        else:  # if, while, repeat, shuffle, move, reveal, declare winner, ...
            for c in ch:
                if isinstance(c, Tree):
                    if c.data == "block":
                        self.block(c, scope, outline)
                    elif c.data in ("elif_part", "else_part"):
                        for cc in c.children:
                            if isinstance(cc, Tree) and cc.data == "block":
                                self.block(cc, scope, outline)
                            else:
                                self.expr(cc, scope)
                    else:
                        self.expr(c, scope)
        return scope

    def action(self, a: Tree, scope: dict, outline: list):
        ch = a.children
        full = meta_span(a)
        sym = self.declare("action", ch[0], "action", full, f"action {ch[0]}", outline=outline)
        inner = dict(scope)
        if isinstance(ch[1], Tree):
            for p in _trees(ch[1].children):
                self.expr(p.children[1], inner)
                what = "a set of cards chosen in" if p.data == "set_param" else "a parameter of"
                inner[str(p.children[0])] = self.declare("local", p.children[0], "action parameter", meta_span(p),
                                                         f"{p.children[0]}, {what} action {ch[0]}",
                                                         scope=full)
        self.expr(ch[2], inner)
        self.expr(ch[3], inner)
        self.block(ch[5], inner, sym.children)

    # ---- expressions
    def expr(self, e, scope: dict):
        if not isinstance(e, Tree):
            return
        d = e.data
        ch = e.children
        if d == "name":
            self.ref("value", ch[0], scope)
        elif d == "call":
            self.ref("value", ch[0], scope, role="call")
            for c in ch[1:]:
                self.expr(c, scope)
        elif d == "agg_call":
            self.ref("value", ch[0], scope, role="call")
            self.expr(ch[1], scope)
        elif d == "attr":
            self.expr(ch[0], scope)
            self.ref("attr", ch[1])
        elif d in ("agg", "agg_all", "agg_sum"):
            var, rest = (ch[1], ch[2:]) if d == "agg" else (ch[0], ch[1:])
            self.expr(rest[0], scope)
            inner = dict(scope)
            inner[str(var)] = self.declare("local", var, "aggregate", meta_span(e), f"{var}, each element of the aggregate",
                                           scope=meta_span(e))
            for c in rest[1:]:
                self.expr(c, inner)
        elif d in ("next_where", "previous_where"):  # next q after p where COND
            self.expr(ch[1], scope)
            inner = dict(scope)
            inner[str(ch[0])] = self.declare("local", ch[0], "aggregate", meta_span(e), f"{ch[0]}, each player in turn",
                                             scope=meta_span(e))
            self.expr(ch[2], inner)
        elif d == "split":
            self.expr(ch[0], scope)
            for g in ch[1:-1]:
                if isinstance(g, Tree):
                    self.expr(g.children[0], scope)
                    self.ref("value", g.children[1], role="split")
                    self.expr(g.children[2], scope)
            if isinstance(ch[-1], Token):
                self.ref("value", ch[-1], role="split")
        else:
            for c in ch:
                self.expr(c, scope)


def index_trees(trees: list[Tree]) -> Index:
    return Indexer().items(trees)


def walk_symbols(symbols):
    for s in symbols:
        yield s
        yield from walk_symbols(s.children)
