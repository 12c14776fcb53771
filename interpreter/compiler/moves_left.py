"""`can_move(P)` and `can_move(P, RULE)`: whether the phase's choice by P would offer P a move
now, not counting an action that only passes (its body is `pass`): a player left with nothing
but passing cannot move, and a rule may skip a choice that would offer only that. The choice is found where the condition is read (its phase, or its procedure) by the text
of its `by` (and the rule it lies in, when there are several); the condition is lowered to the
actions' own tests, an `any` over each parameter's values with the action's `where` innermost,
`or`-ed over the actions and guarded by each one's `when`, so both emitters read it as any other
aggregate and both engines agree by construction."""

from __future__ import annotations

from pydantic import BaseModel

from ..language import graph as g
from ..errors import RulesetError
from ..language.unparse import unparse
from .program import _err


def _all_choices(x, rule: str | None, out: list) -> list:
    """Every choice in x (`by each` and `by any` ones too), with the rule it lies in."""
    if isinstance(x, g.Rule):
        rule = x.name
    if isinstance(x, g.Choose):
        out.append((x, rule))
    if isinstance(x, BaseModel):
        for f in type(x).model_fields:
            _all_choices(getattr(x, f), rule, out)
    elif isinstance(x, (tuple, list)):
        for y in x:
            _all_choices(y, rule, out)
    return out


def _choices(x, rule: str | None, out: list) -> list:
    """Every plain `choose by` (not `by each`/`by any`) in x, with the rule it lies in."""
    out.extend((c, r) for c, r in _all_choices(x, rule, []) if c.each is None)
    return out


class MovesLeft:
    where_read = None  # the phase or procedure being compiled (None: a definition, the variables)

    def moves_left(self, e: g.Call, scope):
        if not 1 <= len(e.args) <= 2 or (len(e.args) == 2 and not isinstance(e.args[1], g.Name)):
            raise _err("can_move takes a player and, if its phase has several choices by that player, the name "
                       "of the rule whose choice it means: can_move(P) or can_move(P, RULE)", e)
        self.sx_typed(e.args[0], scope, "player", "the argument of can_move")
        home = self.where_read
        if home is None or self.def_stack:
            raise _err("can_move(...) looks at a choice of the phase it is read in, so it belongs in a rule "
                       "(an if, while or when condition), not in a definition", e)
        who = unparse(e.args[0])
        rule = e.args[1].name if len(e.args) == 2 else None
        found = [(c, r) for c, r in _choices(home.body, None, []) if unparse(c.by) == who and rule in (None, r)]
        where = f"{'phase' if isinstance(home, g.Phase) else 'procedure'} {home.name!r}"
        several = [(c, r) for c, r in _all_choices(home.body, None, []) if c.each is not None and rule in (None, r)
                   and (rule is not None or c.each == who)]
        if not found and several:  # (Tichu, by a new user: "has no 'choose by q'" of a 'choose by any q in ...')
            c, r = several[0]
            kind = "any" if c.any else ("secretly by each" if c.secret else "each")
            raise _err(f"can_move({who}{', ' + rule if rule else ''}): rule {r!r} is a 'choose by {kind} "
                       f"{c.each} in ...', which can_move does not look into (it reads a 'choose by PLAYER')"
                       + ("; a 'choose by any' asks only the players who have a move, so it needs no such test"
                          if c.any else ""), e)
        if not found:
            raise _err(f"can_move({who}{', ' + rule if rule else ''}): {where} has no 'choose by {who}'"
                       + (f" in rule {rule!r}" if rule else "") + "; can_move looks at a choice written in the "
                       "same phase, by the same words", e)
        if len(found) > 1:
            rules = ", ".join(sorted({repr(r) for _, r in found if r}))
            raise _err(f"can_move({who}): {where} has {len(found)} choices by {who} (in rules {rules}); "
                       f"name the rule: can_move({who}, RULE)", e)
        choose = found[0][0]
        test = g.BoolLit(value=False, loc=e.loc)  # only passes: no move
        for a in choose.actions:
            if all(isinstance(st, g.Pass) for st in a.body):
                continue
            params = a.params()
            for var, _, subset in params:
                if subset:
                    raise _err(f"can_move({who}): action {a.name!r} chooses a set of cards ({var} subset of ...), "
                               "which can_move does not look into", e)
            offer = a.where if a.where is not None else g.BoolLit(value=True, loc=e.loc)
            for var, domain, _ in reversed(params):
                offer = g.Agg(op="any", var=var, domain=domain, where=offer, loc=e.loc)
            if a.when is not None:
                offer = g.BinOp(op="and", left=a.when, right=offer, loc=e.loc)
            test = offer if isinstance(test, g.BoolLit) else g.BinOp(op="or", left=test, right=offer, loc=e.loc)
        try:
            return self.sx(test, scope)
        except RulesetError as exc:
            raise _err(f"can_move({who}) reads the actions of the choice at line {choose.loc.line}, and here: "
                       f"{exc.message}", e) from None
