"""Stage 2a: the parse tree -> graph nodes and the items of a file (one Transformer; its method
names are the grammar's rule names). assemble.py makes a game or a variant of the items."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Transformer, v_args

from . import graph as g
from . import sizes
from ..errors import RulesetError
from .removal import Removal
from .locate import located as _err


# words that begin an expression, so that `x == WORD` does not read WORD as a name: an option's
# value may not be one (tests/language/test_literals.py works the list out from the grammar)
EXPRESSION_WORDS = frozenset({"all", "any", "count", "highest", "if", "lowest", "max", "min", "next", "no", "not", "previous",
                              "split", "sum", "those"})


@dataclass
class _Text:
    text: str
    note: bool
    loc: g.Loc


@dataclass
class _Range:
    """`A..B` in a list of ranks, not yet made into its ranks: rank_list counts them first."""

    a: int
    b: int
    loc: g.Loc | None


@dataclass
class _Item:
    kind: str
    value: object
    loc: g.Loc
    at: g.Loc | None = None  # a variant's header: where its base's name (the `of "FILE"` string) starts


def _s(tok: Token) -> str:
    """A string's text: \\" stands for a quote and \\\\ for a backslash; any other backslash is itself."""
    return _ESCAPE.sub(lambda m: m.group(1), str(tok)[1:-1])


_ESCAPE = re.compile(r'\\(["\\])')


def _strings(toks) -> str:
    return " ".join(_s(t) for t in toks)


@v_args(meta=True)
class ToGraph(Transformer):
    """Turns the parse tree into graph nodes; method names are the grammar's rule names."""

    def __init__(self, filename: str):
        super().__init__()
        self.file = filename

    def _loc(self, meta) -> g.Loc | None:
        if getattr(meta, "empty", True):
            return None
        return g.Loc(file=self.file, line=meta.line, column=meta.column)

    # ---- header and small items
    def start(self, meta, ch):
        return [c for c in ch if c is not None]

    def game_header(self, meta, ch):
        return _Item("game", (str(ch[0]), _s(ch[1]) if ch[1] else None, None), self._loc(meta))

    def variant_header(self, meta, ch):
        base = ch[2]
        at = g.Loc(file=self.file, line=base.line, column=base.column) if base.line is not None else None
        return _Item("variant", (str(ch[0]), _s(ch[1]) if ch[1] else None, _s(base)), self._loc(meta), at)

    def _size(self, key: str, n: int, meta) -> None:
        """A size past the language's limit (sizes.py) is an error where it is written."""
        if n > sizes.BY_KEY[key].most:
            raise RulesetError(sizes.too_many(key, n), self.file, meta.line, meta.column)

    def players(self, meta, ch):
        lo = int(ch[0])
        hi = int(ch[1]) if len(ch) > 1 else lo
        self._size("players", max(lo, hi), meta)
        return _Item("players", (lo, hi), self._loc(meta))

    def turn_order(self, meta, ch):
        word = str(ch[0])
        if word not in ("clockwise", "anticlockwise", "counterclockwise"):
            raise RulesetError(f"unknown turn order {word!r}; expected clockwise or anticlockwise",
                               self.file, meta.line, meta.column)
        return _Item("direction", "clockwise" if word == "clockwise" else "anticlockwise", self._loc(meta))

    def bound(self, meta, ch):
        self._size("decisions", int(ch[0]), meta)
        return _Item("bound", int(ch[0]), self._loc(meta))

    def text_item(self, meta, ch):
        return _Text(_strings(ch), False, self._loc(meta))

    def note_item(self, meta, ch):
        return _Text(_strings(ch), True, self._loc(meta))

    def about_item(self, meta, ch):
        return _Item("about", _strings(ch), self._loc(meta))

    stmt_text = text_item
    stmt_note = note_item

    def doc_block(self, meta, ch):
        return list(ch)

    # ---- deck
    def name_list(self, meta, ch):
        return [str(c) for c in ch]

    def rank_ref(self, meta, ch):
        return str(ch[0])

    def rank_range(self, meta, ch):
        return _Range(int(ch[0]), int(ch[1]), self._loc(meta))

    def rank_list(self, meta, ch):
        """The ranks, ranges made into their numbers once the whole list is known to be within
        the language's limit (a range of a hundred million ranks is never made)."""
        total = 0
        for c in ch:
            total += abs(c.b - c.a) + 1 if isinstance(c, _Range) else 1
            if total > sizes.MAX_RANKS:
                at = c.loc if isinstance(c, _Range) and c.loc else self._loc(meta)
                raise RulesetError(sizes.too_many("ranks", total) + " in one list", self.file, at.line, at.column)
        out = []
        for c in ch:
            if isinstance(c, _Range):
                step = 1 if c.b >= c.a else -1
                out.extend(str(i) for i in range(c.a, c.b + step, step))
            else:
                out.append(c)
        return out

    def signed_int(self, meta, ch):
        return int(ch[0])

    def neg_int(self, meta, ch):
        return -int(ch[0])

    def value_pair(self, meta, ch):
        return (ch[0], ch[1])

    def suits(self, meta, ch):
        self._size("suits", len(ch[0]), meta)
        return _Item("suits", ch[0], self._loc(meta))

    def ranks(self, meta, ch):
        return _Item("ranks", ch[0], self._loc(meta))

    def copies(self, meta, ch):
        self._size("copies", int(ch[0]), meta)
        return _Item("copies", int(ch[0]), self._loc(meta))

    def cards_line(self, meta, ch):
        if ch[2] is not None:
            self._size("copies", int(ch[2]), meta)
        return _Item("cards_line", g.CardLine(ranks=tuple(ch[0]), suits=tuple(ch[1]),
                                              copies=int(ch[2]) if ch[2] else 1), self._loc(meta))

    def group(self, meta, ch):
        return _Item("group", (str(ch[0]), tuple(ch[1])), self._loc(meta))

    def order_item(self, meta, ch):
        return _Item("order", (tuple(ch[0]), tuple(ch[1])), self._loc(meta))

    def value(self, meta, ch):
        return _Item("value", (str(ch[0]), dict(ch[1:])), self._loc(meta))

    def deck(self, meta, ch):
        name, title, items = str(ch[0]), (_s(ch[1]) if ch[1] else None), ch[2:]
        loc = self._loc(meta)
        kw: dict = {"groups": {}, "orders": {}, "values": {}, "texts": [], "notes": [], "composition": []}
        for it in items:
            if isinstance(it, _Text):
                kw["notes" if it.note else "texts"].append(it.text)
            elif it.kind == "cards_line":
                for r in it.value.ranks:
                    if "ranks" in kw and r not in kw["ranks"]:
                        raise RulesetError(f"'cards' names rank {r!r}, which is not in the deck's ranks",
                                           self.file, it.loc.line, it.loc.column)
                listed = kw.setdefault("_listed", {})
                for r in it.value.ranks:
                    for s in it.value.suits:
                        first = listed.setdefault((r, s), it.loc.line)
                        if first != it.loc.line or list(it.value.ranks).count(r) > 1 or list(it.value.suits).count(s) > 1:
                            where = "on this line already" if first == it.loc.line else f"first on line {first}"
                            raise RulesetError(f"'cards' lists {r} of {s} again ({where}): the deck would hold it on "
                                               f"each line; list a card once, with 'copies N' on its line for several",
                                               self.file, it.loc.line, it.loc.column)
                kw["composition"].append(it.value)
            elif it.kind == "group":
                kw["groups"][it.value[0]] = it.value[1]
            elif it.kind == "order":
                kw.setdefault("_order_items", []).append(it)
                for suit in it.value[0]:
                    kw["orders"][suit] = it.value[1]
            elif it.kind == "value":
                kw["values"][it.value[0]] = it.value[1]
            else:
                kw[it.kind] = it.value
        for need in ("suits", "ranks"):
            if need not in kw:
                why = (f": the {need} a 'cards' line names are declared first, as in a full deck ('{need} A, B, ...'),"
                       " and the 'cards' lines then pick the cards the deck holds") if kw["composition"] else ""
                raise RulesetError(f"deck {name!r} needs a '{need}' line{why}", self.file, meta.line, meta.column)
        for it in kw.pop("_order_items", []):
            suits, ranks = it.value
            bad_suit = next((s for s in suits if s not in kw["suits"]), None)
            if bad_suit is not None:
                raise RulesetError(f"'order for' names {bad_suit!r}, which is not a suit of deck {name!r}",
                                   self.file, it.loc.line, it.loc.column)
            if sorted(ranks) != sorted(kw["ranks"]):
                raise RulesetError("an order must list every rank of the deck exactly once",
                                   self.file, it.loc.line, it.loc.column)
        kw.pop("_listed", None)
        comp = tuple(kw.pop("composition"))
        for line in comp:
            for x, pool, what in ((line.ranks, kw["ranks"], "rank"), (line.suits, kw["suits"], "suit")):
                bad = [v for v in x if v not in pool]
                if bad:
                    raise RulesetError(f"'cards' names {what} {bad[0]!r}, which the deck does not list",
                                       self.file, meta.line, meta.column)
        deck = g.Deck(name=name, title=title, loc=loc, suits=tuple(kw.pop("suits")), composition=comp,
                      ranks=tuple(kw.pop("ranks")), copies=kw.pop("copies", 1),
                      texts=tuple(kw.pop("texts")), notes=tuple(kw.pop("notes")), **kw)
        if deck.size() > sizes.MAX_CARDS:  # counted, not made: the cards are made by the compiler
            raise RulesetError(f"deck {name!r} has {deck.size():,} cards; the language allows at most "
                               f"{sizes.MAX_CARDS:,}", self.file, meta.line, meta.column)
        return deck

    # ---- zones, options, vars, defines
    def shared(self, meta, ch):
        return False

    def per_player(self, meta, ch):
        return True

    def zone(self, meta, ch):
        name, size, per_player, vis_tok, title = ch
        vis = str(vis_tok)
        if vis not in g.VISIBILITIES:
            raise RulesetError(f"unknown visibility {vis!r}; expected hidden, owner, others or public",
                               self.file, vis_tok.line, vis_tok.column)
        if size is not None and per_player:
            n = int(size)
            kinds = ", ".join(f"{name}{k}" for k in range(1, min(n, 3) + 1)) + (", ..." if n > 3 else "")
            raise RulesetError(f"a family of zones (NAME[N]) is shared; there is no family per player. For {n} places "
                               f"per player, declare a kind of zone for each ({kinds}, each 'per player') and let "
                               f"a move choose among them, as z in [{name}1(p), {name}2(p)], acting on top(z)",
                               self.file, meta.line, meta.column)
        if size is not None and int(size) < 1:
            raise RulesetError("a family of zones (NAME[N]) must have at least one zone",
                               self.file, meta.line, meta.column)
        if size is not None:
            self._size("zones", int(size), meta)
        return g.Zone(name=str(name), per_player=per_player, visibility=vis, size=int(size) if size else None,
                      title=_s(title) if title else None, loc=self._loc(meta))

    def plain_type(self, meta, ch):
        t = str(ch[0])
        if t not in ("bool", "int"):
            raise RulesetError(f"unknown option type {t!r}; expected bool, int, a range like 1..5, or 'one of a, b'",
                               self.file, ch[0].line, ch[0].column)
        return {"type": t}

    def enum_type(self, meta, ch):
        for v in ch[0]:
            if v in EXPRESSION_WORDS:
                raise RulesetError(f"{v!r} is a word of the language (it starts an expression: {v} ...), so no rule could "
                                   f"compare an option with it: call the value something else ({v}_card, {v}_value, ...)",
                                   self.file, meta.line, meta.column)
        return {"type": "enum", "choices": tuple(ch[0])}

    def range_type(self, meta, ch):
        return {"type": "int", "low": int(ch[0]), "high": int(ch[1])}

    def lit_int(self, meta, ch):
        return int(ch[0])

    def lit_neg_int(self, meta, ch):  # option target: int = -350
        return -int(ch[0])

    def lit_name(self, meta, ch):
        return str(ch[0])

    def lit_true(self, meta, ch):
        return True

    def lit_false(self, meta, ch):
        return False

    def option(self, meta, ch):
        name, typ, default, desc, docs = ch[0], ch[1], ch[2], ch[3], ch[4] or []
        return g.Option(name=str(name), default=default, description=_s(desc) if desc else None,
                        texts=tuple(t.text for t in docs if not t.note),
                        notes=tuple(t.text for t in docs if t.note), loc=self._loc(meta), **typ)

    def option_default(self, meta, ch):
        name = ch[0]  # its error is told at the name, not at the keyword
        at = g.Loc(file=self.file, line=name.line, column=name.column) if getattr(name, "line", None) else None
        return _Item("option_default", (str(name), ch[1]), self._loc(meta), at)

    def var(self, meta, ch):
        private, name, params, typ, init, docs = ch[0] is not None, ch[1], ch[2], ch[3], ch[4], ch[5] or []
        return g.Var(name=str(name), params=params or (), type=str(typ), init=init, private=private,
                     texts=tuple(t.text for t in docs if not t.note),
                     notes=tuple(t.text for t in docs if t.note), loc=self._loc(meta))

    def param(self, meta, ch):
        return g.Param(name=str(ch[0]), type=str(ch[1]))

    def params(self, meta, ch):
        return tuple(c for c in ch if c is not None)

    def define(self, meta, ch):
        new, name, params, body, docs = ch[0] is not None, ch[1], ch[2] or (), ch[3], ch[4] or []
        return g.Define(name=str(name), params=params, body=body, loc=self._loc(meta), new=new,
                        texts=tuple(t.text for t in docs if not t.note),
                        notes=tuple(t.text for t in docs if t.note))

    def advice(self, meta, ch):
        new, name, params, body, summary, docs = ch[0] is not None, ch[1], ch[2] or (), ch[3], ch[4], ch[5] or []
        loc = self._loc(meta)
        if len(params) != 1 or params[0].type != "player":
            raise RulesetError(f"advice {str(name)!r} takes one player, like: advice {name}(p: player) = ...",
                               self.file, name.line, name.column)
        return g.Advice(name=str(name), params=params, body=body, summary=_s(summary), loc=loc, new=new,
                        texts=tuple(t.text for t in docs if not t.note),
                        notes=tuple(t.text for t in docs if t.note))

    def procedure(self, meta, ch):
        body, texts, notes = self._split(ch[3])
        return g.Procedure(name=str(ch[1]), params=ch[2] or (), body=body, texts=texts,
                           notes=notes, loc=self._loc(meta), new=ch[0] is not None)

    def interpretation(self, meta, ch):
        docs = ch[2:]
        return g.Interpretation(name=str(ch[0]), question=_s(ch[1]), loc=self._loc(meta),
                                texts=tuple(t.text for t in docs if not t.note),
                                notes=tuple(t.text for t in docs if t.note))

    def removable(self, meta, ch):
        return str(ch[0])

    def remove(self, meta, ch):
        return _Item("remove", [Removal(ch[0], str(t), g.Loc(file=self.file, line=t.line, column=t.column))
                                for t in ch[1:]], self._loc(meta))

    def winner(self, meta, ch):
        rule = str(ch[0])
        if rule not in ("most", "fewest"):
            raise RulesetError(f"expected 'winner most SCORE' or 'winner fewest SCORE', not {rule!r}",
                               self.file, ch[0].line, ch[0].column)
        return g.Winner(rule=rule, score=str(ch[1]), loc=self._loc(meta))

    def sides(self, meta, ch):
        return g.Sides(by=str(ch[0]), loc=self._loc(meta))

    def phase(self, meta, ch):
        body, texts, notes = self._split(ch[3])
        return g.Phase(name=str(ch[0]), title=_s(ch[1]) if ch[1] else None,
                       then=str(ch[2]) if ch[2] else None, body=body, texts=texts, notes=notes,
                       loc=self._loc(meta))

    # ---- statements
    def _split(self, stmts):
        body, texts, notes = [], [], []
        for s in stmts:
            if isinstance(s, _Text):
                (notes if s.note else texts).append(s.text)
            else:
                body.append(s)
        if not body:
            raise RulesetError("this block has only text; add a statement (or 'pass')",
                               self.file, *(self._first_line(stmts)))
        return tuple(body), tuple(texts), tuple(notes)

    def _first_line(self, stmts):
        for s in stmts:
            loc = getattr(s, "loc", None)
            if loc:
                return loc.line, loc.column
        return None, None

    def _plain(self, stmts):
        for s in stmts:
            if isinstance(s, _Text):
                raise RulesetError("text and notes belong directly inside a rule, phase or procedure",
                                   self.file, s.loc.line, s.loc.column)
        return tuple(stmts)

    def block(self, meta, ch):
        return list(ch)

    def shuffle(self, meta, ch):
        return g.Shuffle(zone=ch[0], loc=self._loc(meta))

    def face_up(self, meta, ch):
        return ch[0] if ch[0] is not None else g.BoolLit(value=True, loc=self._loc(meta))

    def deal(self, meta, ch):
        start, at = ("first", None) if ch[4] is None else ch[4]
        return g.Deal(count=ch[0], source=ch[1], target=str(ch[2]), face_up=ch[5], start=start, at=at,
                      in_play=ch[3] is not None, loc=self._loc(meta))

    def deal_start(self, meta, ch):
        return ch[0]

    def move(self, meta, ch):
        return g.Move(what=ch[0], to=ch[1], face_up=ch[2], loc=self._loc(meta))

    def move_under(self, meta, ch):
        return g.Move(what=ch[0], to=ch[1], face_up=ch[2], under=True, loc=self._loc(meta))

    def reveal(self, meta, ch):
        return g.Reveal(what=ch[0], loc=self._loc(meta))

    def turn_down(self, meta, ch):
        return g.Reveal(what=ch[0], down=True, loc=self._loc(meta))

    def tell(self, meta, ch):
        what, cards, to = ch
        if str(what) not in ("suit", "rank"):
            raise RulesetError(f"tell what? {str(what)!r}: a player is told the suit or the rank of cards "
                               "(tell suit of CARDS to PLAYER)", self.file, what.line, what.column)
        return g.Tell(what=str(what), cards=cards, to=to, loc=self._loc(meta))

    def let(self, meta, ch):
        return g.Let(name=str(ch[0]), value=ch[1], loc=self._loc(meta))

    def set(self, meta, ch):
        return g.Set(name=str(ch[0]), index=ch[1], value=ch[2], loc=self._loc(meta))

    def declare_winner(self, meta, ch):
        return g.DeclareWinner(who=ch[0], loc=self._loc(meta))

    def declare_loser(self, meta, ch):
        return g.DeclareWinner(who=ch[-1], loser=True, loc=self._loc(meta))

    def perform(self, meta, ch):
        args = tuple(c for c in ch[1:] if c is not None)
        return g.Perform(name=str(ch[0]), args=args, loc=self._loc(meta))

    def break_(self, meta, ch):
        return g.Break(loc=self._loc(meta))

    def pass_(self, meta, ch):
        return g.Pass(loc=self._loc(meta))

    def end_game(self, meta, ch):
        return g.EndGame(loc=self._loc(meta))

    def drop(self, meta, ch):
        until = str(ch[1])
        if until not in ("round", "game"):
            raise RulesetError(f"drop ... from the {until}? A player is dropped from the round (back at the next "
                               "'new round') or from the game", self.file, ch[1].line, ch[1].column)
        return g.Drop(who=ch[0], until=until, loc=self._loc(meta))

    def new_round(self, meta, ch):
        return g.NewRound(loc=self._loc(meta))

    def if_stmt(self, meta, ch):
        branches = [g.Branch(test=ch[0], body=self._plain(ch[1]))]
        else_ = ()
        for part in ch[2:]:
            if part is None:
                continue
            if part[0] == "elif":
                branches.append(g.Branch(test=part[1], body=self._plain(part[2])))
            else:
                else_ = self._plain(part[1])
        return g.If(branches=tuple(branches), else_=else_, loc=self._loc(meta))

    def elif_part(self, meta, ch):
        return ("elif", ch[0], ch[1])

    def else_part(self, meta, ch):
        return ("else", ch[0])

    def while_(self, meta, ch):
        return g.While(test=ch[0], body=self._plain(ch[1]), loc=self._loc(meta))

    def repeat(self, meta, ch):
        return g.Repeat(body=self._plain(ch[0]), loc=self._loc(meta))

    def start_from(self, meta, ch):
        return ("from", ch[0])

    def start_after(self, meta, ch):
        return ("after", ch[0])

    def for_players(self, meta, ch):
        start, at = ("first", None) if ch[2] is None else ch[2]
        return g.ForPlayers(var=str(ch[0]), in_play=ch[1] is not None, start=start, at=at, body=self._plain(ch[3]),
                            loc=self._loc(meta))

    def in_play(self, meta, ch):
        return True

    def for_each(self, meta, ch):
        return g.ForEach(var=str(ch[0]), domain=ch[1], body=self._plain(ch[2]), loc=self._loc(meta))

    def rule_stmt(self, meta, ch):
        body, texts, notes = self._split(ch[3])
        return g.Rule(name=str(ch[0]), title=_s(ch[1]) if ch[1] else None, when=ch[2],
                      body=body, texts=texts, notes=notes, loc=self._loc(meta))

    def new_rule(self, meta, ch):
        _, name, title, where, anchor, when, block = ch
        body, texts, notes = self._split(block)
        rule = g.Rule(name=str(name), title=_s(title) if title else None, when=when, body=body, texts=texts,
                      notes=notes, loc=self._loc(meta))
        return _Item("new_rule", (rule, where, str(anchor)), self._loc(meta),
                     at=g.Loc(file=self.file, line=anchor.line, column=anchor.column))

    def place_after(self, meta, ch):
        return "after"

    def place_before(self, meta, ch):
        return "before"

    def action(self, meta, ch):
        name, params, where, when, label, body = ch
        (var, domain, subset), *more = params or [(None, None, False)]
        names = [var] + [m.var for m in more]
        for k, m in enumerate(more):
            if m.var in names[:k + 1]:
                raise _err(f"action {name}: the parameter {m.var!r} is named twice", m.loc)
        return g.Action(name=str(name), var=var, domain=domain, subset=subset, more=tuple(more), where=where,
                        when=when, label=_s(label) if label else None, body=self._plain(body),
                        loc=self._loc(meta))

    def action_params(self, meta, ch):
        first = ch[0]
        return [(first.var, first.domain, first.subset)] + list(ch[1:])

    def action_param(self, meta, ch):
        return g.ActionParam(var=str(ch[0]), domain=ch[1], loc=self._loc(meta))

    def set_param(self, meta, ch):
        return g.ActionParam(var=str(ch[0]), domain=ch[1], subset=True, loc=self._loc(meta))

    def choose(self, meta, ch):
        by = ch[0]
        if isinstance(by, g.Agg) and by.op == "any" and by.body is None:
            # `choose by any p in SET:` reads as an aggregate to the parser (a truth value is no chooser)
            if by.where is not None:
                raise _err("choose by any NAME in PLAYERS takes no 'where': say who may act with each "
                           "action's 'when' or 'where'", by.where.loc)
            return g.Choose(each=by.var, by=by.domain, any=True, actions=tuple(ch[1:]), loc=self._loc(meta))
        return g.Choose(by=by, actions=tuple(ch[1:]), loc=self._loc(meta))

    def choose_each(self, meta, ch):
        return g.Choose(each=str(ch[0]), by=ch[1], actions=tuple(ch[2:]), loc=self._loc(meta))

    def choose_secretly(self, meta, ch):
        return g.Choose(each=str(ch[0]), by=ch[1], secret=True, actions=tuple(ch[2:]), loc=self._loc(meta))

    def split_group(self, meta, ch):
        return g.SplitGroup(count=ch[0], define=str(ch[1]), args=ch[2] or (), sizes=ch[3])

    def split_args(self, meta, ch):
        return tuple(ch)

    def split(self, meta, ch):
        score = ch[-1]
        groups = tuple(c for c in ch[1:-1])
        return g.Split(cards=ch[0], groups=groups, score=str(score) if score else None, loc=self._loc(meta))

    # ---- expressions
    def cond(self, meta, ch):
        # `if A then X elif B then Y else Z` is `if A then X else (if B then Y else Z)`
        out = ch[-1]
        for test, then, loc in reversed([(ch[0], ch[1], self._loc(meta))] + list(ch[2:-1])):
            out = g.Cond(test=test, then=then, else_=out, loc=loc)
        return out

    def elif_expr(self, meta, ch):
        return (ch[0], ch[1], self._loc(meta))

    def agg_all(self, meta, ch):
        return g.Agg(op="all", var=str(ch[0]), domain=ch[1], where=ch[2], body=ch[3], loc=self._loc(meta))

    def agg_sum(self, meta, ch):
        return g.Agg(op="sum", var=str(ch[0]), domain=ch[1], where=ch[2], body=ch[3], loc=self._loc(meta))

    def agg_max(self, meta, ch):
        return g.Agg(op="max", var=str(ch[0]), domain=ch[1], where=ch[2], body=ch[3], loc=self._loc(meta))

    def agg_min(self, meta, ch):
        return g.Agg(op="min", var=str(ch[0]), domain=ch[1], where=ch[2], body=ch[3], loc=self._loc(meta))

    def agg(self, meta, ch):
        return g.Agg(op=str(ch[0]), var=str(ch[1]), domain=ch[2], where=ch[3], loc=self._loc(meta))

    def agg_by(self, meta, ch):
        op = str(ch[0])
        if op not in ("highest", "lowest"):
            raise RulesetError(f"only highest and lowest take 'by' (the number to compare); '{op} {ch[1]} in ...' "
                               "does not", self.file, meta.line, meta.column)
        return g.Agg(op=op, var=str(ch[1]), domain=ch[2], where=ch[3], body=ch[4], loc=self._loc(meta))

    def agg_call(self, meta, ch):
        return g.Call(func=str(ch[0]), args=(ch[1],), loc=self._loc(meta))

    def _chain(self, op, meta, ch):
        out = ch[0]
        for c in ch[1:]:
            out = g.BinOp(op=op, left=out, right=c, loc=self._loc(meta))
        return out

    def or_(self, meta, ch):
        return self._chain("or", meta, ch)

    def and_(self, meta, ch):
        return self._chain("and", meta, ch)

    def not_(self, meta, ch):
        return g.UnOp(op="not", operand=ch[0], loc=self._loc(meta))

    def neg(self, meta, ch):
        return g.UnOp(op="-", operand=ch[0], loc=self._loc(meta))

    def compare(self, meta, ch):
        return g.BinOp(op=str(ch[1]), left=ch[0], right=ch[2], loc=self._loc(meta))

    def _bin(op):
        def method(self, meta, ch):
            return g.BinOp(op=op, left=ch[0], right=ch[1], loc=self._loc(meta))
        return method

    member = _bin("in")
    not_member = _bin("not in")
    range_ = _bin("..")
    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    mod = _bin("mod")
    pow = _bin("^")

    def attr(self, meta, ch):
        return g.Attr(obj=ch[0], name=str(ch[1]), loc=self._loc(meta))

    def call(self, meta, ch):
        return g.Call(func=str(ch[0]), args=tuple(c for c in ch[1:] if c is not None), loc=self._loc(meta))

    def next_call(self, meta, ch):
        return g.Call(func="next", args=tuple(c for c in ch if c is not None), loc=self._loc(meta))

    def previous_call(self, meta, ch):
        return g.Call(func="previous", args=tuple(c for c in ch if c is not None), loc=self._loc(meta))

    def max_call(self, meta, ch):
        return g.Call(func="max", args=tuple(c for c in ch if c is not None), loc=self._loc(meta))

    def min_call(self, meta, ch):
        return g.Call(func="min", args=tuple(c for c in ch if c is not None), loc=self._loc(meta))

    def next_where(self, meta, ch):
        return g.NextWhere(var=str(ch[0]), start=ch[1], where=ch[2], loc=self._loc(meta))

    def previous_where(self, meta, ch):
        return g.NextWhere(var=str(ch[0]), start=ch[1], where=ch[2], back=True, loc=self._loc(meta))

    def int_(self, meta, ch):
        return g.IntLit(value=int(ch[0]), loc=self._loc(meta))

    def string(self, meta, ch):
        return g.StrLit(value=_s(ch[0]), loc=self._loc(meta))

    def name(self, meta, ch):
        return g.Name(name=str(ch[0]), loc=self._loc(meta))

    def true(self, meta, ch):
        return g.BoolLit(value=True, loc=self._loc(meta))

    def false(self, meta, ch):
        return g.BoolLit(value=False, loc=self._loc(meta))

    def none(self, meta, ch):
        return g.NoneLit(loc=self._loc(meta))

    def list_(self, meta, ch):
        return g.ListExpr(items=tuple(c for c in ch if c is not None), loc=self._loc(meta))
