"""Lowering players in and out of play: `drop P from the round|game`, `new round`, `in_play(p)`,
`players_in_play`, `for each player q in play` and `next q after p where COND`.

Who is out is one hidden per-player variable (OUT: 0 in play, 1 dropped from the round, 2 from
the game), made only for a ruleset that drops players; the statements and tests are lowered to
the statements and expressions both emitters already read (set, for each, if, aggregates), and
`next ... where` to one op, SeatsAfter."""

from __future__ import annotations

from pydantic import BaseModel

from ..language import graph as g
from .ir import ops as o
from .program import _err, word

OUT = "#out"  # no name a ruleset can write


def uses_play(rs: g.Ruleset) -> bool:
    """Whether any rule drops a player (nobody is ever out otherwise)."""
    def walk(x) -> bool:
        if isinstance(x, g.Drop):
            return True
        if isinstance(x, BaseModel):
            return any(walk(getattr(x, f)) for f in type(x).model_fields)
        if isinstance(x, (tuple, list)):
            return any(walk(y) for y in x)
        return False
    return walk(rs.phases) or walk(rs.procedures)


def out_var(loc) -> g.Var:
    return g.Var(name=OUT, params=(g.Param(name="p", type="player"),), type="int", init=g.IntLit(value=0), loc=loc)


def _out_of(who, loc):
    return g.Call(func=OUT, args=(who,), loc=loc)


def in_play_test(who, loc, dropping: bool):
    """`in_play(who)` as an expression over the hidden variable (always true if nobody is dropped)."""
    if not dropping:
        return g.BinOp(op="==", left=who, right=who, loc=loc)
    return g.BinOp(op="==", left=_out_of(who, loc), right=g.IntLit(value=0, loc=loc), loc=loc)


class Turns:
    def s_Drop(self, s, scope):
        _, t = self.expr(s.who, scope)
        if t not in ("player", "players", "none", "any"):
            raise _err(f"drop needs a player or players; {_text(s.who)!r} is {word(t)}", s.who)
        loc = s.loc
        who = g.Name(name="#dropped", loc=loc)
        level = 2 if s.until == "game" else 1
        value = g.Call(func="max", args=(_out_of(who, loc), g.IntLit(value=level, loc=loc)), loc=loc)  # the game stays
        domain = s.who if t in ("players", "any") else g.ListExpr(items=(s.who,), loc=loc)
        self.block([g.ForEach(var="#dropped", domain=domain, loc=loc,
                              body=(g.Set(name=OUT, index=who, value=value, loc=loc),))], scope)

    def s_NewRound(self, s, scope):
        if OUT not in self.var_slots:  # nobody is ever dropped
            return
        loc = s.loc
        q = g.Name(name="#back", loc=loc)
        back = g.If(branches=(g.Branch(test=g.BinOp(op="==", left=_out_of(q, loc), right=g.IntLit(value=1, loc=loc),
                                                    loc=loc),
                                       body=(g.Set(name=OUT, index=q, value=g.IntLit(value=0, loc=loc), loc=loc),)),),
                    loc=loc)
        self.block([g.ForEach(var="#back", domain=g.Name(name="players", loc=loc), body=(back,), loc=loc)], scope)

    def out_of_play(self, s, scope):
        """The players a `deal ... in play` passes over: those dropped from play (nobody when no
        rule drops anyone)."""
        q = g.Name(name="_out_q", loc=s.loc)
        out = g.UnOp(op="not", operand=in_play_test(q, s.loc, OUT in self.var_slots), loc=s.loc)
        agg = g.Agg(op="those", var="_out_q", domain=g.Name(name="players", loc=s.loc), where=out, loc=s.loc)
        return self.typed(agg, scope, "players", "the players out of play")[0]

    def in_play_body(self, s) -> tuple:
        """The body of `for each player q in play`: run only while q is in play when their turn comes."""
        test = in_play_test(g.Name(name=s.var, loc=s.loc), s.loc, OUT in self.var_slots)
        return (g.If(branches=(g.Branch(test=test, body=s.body),), loc=s.loc),)

    def e_NextWhere(self, e, scope):
        start, _ = self.sx_typed(e.start, scope, "player", f"the player after 'previous {e.var} before'" if e.back
                                 else f"the player after 'next {e.var} after'")
        v = o.Local(self.fresh("v_" + e.var + "_"), t="player")
        inner = dict(scope)
        inner[e.var] = (v, "player")
        where, _ = self.sx_typed(e.where, inner, "bool", "the condition after 'where'")
        seats = o.SeatsBefore(start, t="players") if e.back else o.SeatsAfter(start, t="players")
        found = o.AggLoop("those", v, seats, where, None, t="players")
        return o.End("first", found, t="player"), "player"

    def play_call(self, e, scope):
        """in_play(p): whether p is in play."""
        if len(e.args) != 1:
            raise _err(f"in_play takes one player, given {len(e.args)}", e)
        self.sx_typed(e.args[0], scope, "player", "the argument of in_play")
        return self.sx(in_play_test(e.args[0], e.loc, OUT in self.var_slots), scope)

    def play_players(self, e, scope):
        """players_in_play: the players in play, in seat order."""
        q = g.Name(name="q", loc=e.loc)  # (bound only in its own test)
        return self.sx(g.Agg(op="those", var="q", domain=g.Name(name="players", loc=e.loc),
                             where=in_play_test(q, e.loc, OUT in self.var_slots), loc=e.loc), scope)


def _text(e) -> str:
    from ..language.unparse import unparse
    return unparse(e)
