"""Rulebook stage 2, steps: `Describer` turns statements into nested steps ("The leader
chooses one of: ..."), in the words of `English`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


from ..language import graph as g

_TESTS = ("==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in")
from ..language.unparse import unparse
from .markup import _cap, _plain_list, _uncap, code, em, human, link  # noqa: F401
from .words import English  # noqa: F401



# ------------------------------------------------------------------ statements -> steps


@dataclass
class Step:
    """One sentence of a description and the steps nested under it."""

    text: str
    children: list["Step"] = field(default_factory=list)


class Describer:
    """Statements to steps, one `s_<NodeClass>` method per statement kind. `ref(name)` turns a
    nested rule into a reference ('rule 3, *Doubling the stake*') or None to describe it here."""

    def __init__(self, book: "BookBuilder", en: English, ref):
        self.book = book
        self.en = en
        self.ref = ref
        self.loops: list[str] = []

    def block(self, stmts) -> list[Step]:
        saved = dict(self.en.scope)
        out: list[Step] = []
        try:
            for s in stmts:
                method = getattr(self, "s_" + type(s).__name__, None)
                if method is None:
                    out.append(Step(f"Do {code(type(s).__name__)}."))
                else:
                    out.extend(method(s))
        finally:
            self.en.scope = saved
        return out

    def _face(self, face_up) -> str:
        if face_up is None:
            return ""
        if isinstance(face_up, g.BoolLit):
            return ", face up" if face_up.value else ""
        return f", face up if {self.en.cond(face_up)}"

    def s_Shuffle(self, s):
        return [Step(f"Shuffle {self.en(s.zone)}.")]

    def s_Deal(self, s):
        en = self.en
        n = f"{s.count.value} card{'s' if s.count.value != 1 else ''}" if isinstance(s.count, g.IntLit) \
            else f"as many cards as {en.operand(s.count)}"  # (not "Deal option `size` cards")
        z = en.zones.get(s.target)
        target = re.sub(r"^(the|a|an) ", "", (z.title or human(z.name)) if z else human(s.target))
        if z is not None and z.size:
            return [Step(f"Deal {n} from {en(s.source)} to each of {human(z.name)} 1 to {z.size} ({target}), "
                         f"in order{self._face(s.face_up)}.")]
        if s.start == "after":
            order = f"in turn order, beginning with the player after {en(s.at)} and ending with {en(s.at)}"
        elif s.start == "from":
            order = f"in turn order, beginning with {en(s.at)}"
        else:
            order = "in turn order"
        if s.in_play:
            order += ", passing over the players out of play"
        share = "" if isinstance(s.count, g.IntLit) and s.count.value == 1 else " each player's share at once,"
        return [Step(f"Deal {n} from {en(s.source)} to each player's {target},{share} one player after another "
                     f"{order}{self._face(s.face_up)}.")]

    def _cards(self, e) -> str:
        kind = self.en.kind(e)
        if kind in ("zone", "zonekind"):
            return f"all cards of {self.en(e)}"
        return self.en(e)

    def s_Move(self, s):
        if s.under:
            return [Step(f"Slide {self._cards(s.what)} under the cards of {self.en(s.to)}{self._face(s.face_up)}.")]
        return [Step(f"Move {self._cards(s.what)} to {self.en(s.to)}{self._face(s.face_up)}.")]

    def s_Reveal(self, s):
        if s.down:
            return [Step(f"Turn {self._cards(s.what)} face down.")]
        return [Step(f"Show {self._cards(s.what)} to every player.")]

    def s_Tell(self, s):
        return [Step(f"Tell {self.en(s.to)} the {s.what} of {self._cards(s.cards)}: {self.en(s.to)} "
                     f"remembers it for each of those cards, seen or not. The others are not told.")]

    def s_Let(self, s):
        value = self.en(s.value)
        kind = self.en.kind(s.value)
        self.en.bind(s.name, "cards" if kind in ("zone", "zonekind") else kind)
        if kind == "bool" and not isinstance(s.value, g.BoolLit):  # a condition: whether it holds
            return [Step(f"Let {self.en.local(s.name)} be whether {self.en.cond(s.value)}.")]
        return [Step(f"Let {self.en.local(s.name)} be {value}.")]

    def s_Set(self, s):
        if s.index is not None:
            target = self.en(g.Call(func=s.name, args=(s.index,)))
        else:
            target = self.en(g.Name(name=s.name))
        v = s.value
        own = g.Name(name=s.name) if s.index is None else g.Call(func=s.name, args=(s.index,))
        if isinstance(v, g.UnOp) and v.op == "not" and unparse(v.operand) == unparse(own):  # a switch
            return [Step(f"Switch {target} over: true becomes false, and false true.")]
        if (isinstance(v, g.UnOp) and v.op == "not") or (isinstance(v, g.BinOp) and v.op in _TESTS) or \
                (isinstance(v, g.Agg) and v.op in ("any", "no", "all")):  # a condition: "Set caught to honest does not hold"
            return [Step(f"Set {target} to true if {self.en.cond(v)}, otherwise to false.")]
        return [Step(f"Set {target} to {self.en(v)}.")]

    def s_DeclareWinner(self, s):
        if s.loser:
            many = self.en.kind(s.who) == "players"
            return [Step(f"Declare the loser{'s' if many else ''}: {self.en(s.who)}; every other player wins "
                         "(they share the win).")]
        if isinstance(s.who, g.NoneLit):
            return [Step("Nobody wins.")]
        kind = self.en.kind(s.who)
        if kind == "players":
            return [Step(f"Declare the winners: {self.en(s.who)} (they share the win; nobody wins if there are none).")]
        maybe_none = isinstance(s.who, (g.Agg, g.Cond)) or (isinstance(s.who, g.Call) and s.who.func != "seat")
        return [Step(f"Declare the winner: {self.en(s.who)}" + (" (nobody, if there is none)." if maybe_none else "."))]

    def s_Perform(self, s):
        proc = self.book.procs.get(s.name)
        name = link(f"#procedure-{s.name}", em(human(s.name)))
        if not s.args:
            return [Step(f"Follow the procedure {name}.")]
        params = proc.params if proc else ()
        word = "for" if params and params[0].type == "player" else "with"
        return [Step(f"Follow the procedure {name} {word} {_plain_list(self.en.operand(a) for a in s.args)}.")]

    def s_Break(self, s):
        loop = self.loops[-1] if self.loops else "loop"
        if loop == "round of players":  # ("Leave the round of players" read as a player leaving)
            return [Step("Stop going round the players.")]
        return [Step("Stop repeating." if loop == "repeat" else f"Leave the {loop}.")]

    def s_Pass(self, s):
        return [Step("Nothing happens.")]

    def s_EndGame(self, s):
        return [Step("The game ends at once.")]

    def s_Drop(self, s):
        if s.until == "game":
            return [Step(f"{_cap(self.en(s.who))} drop{'' if self.en.kind(s.who) == 'players' else 's'} out of the "
                         "game: out of play until it ends.")]
        return [Step(f"{_cap(self.en(s.who))} drop{'' if self.en.kind(s.who) == 'players' else 's'} out of the "
                     "round: out of play until the next new round.")]

    def s_NewRound(self, s):
        return [Step("A new round begins: every player who dropped out of the round is back in play (those out "
                     "of the game stay out).")]

    def s_If(self, s):
        out = []
        for i, br in enumerate(s.branches):
            head = "If" if i == 0 else "Otherwise, if"
            out.append(Step(f"{head} {self.en.cond(br.test)}:", self.block(br.body)))
        if s.else_:
            out.append(Step("Otherwise:", self.block(s.else_)))
        return out

    def _loop(self, kind: str, stmts) -> list[Step]:
        self.loops.append(kind)
        try:
            return self.block(stmts)
        finally:
            self.loops.pop()

    def s_While(self, s):
        how = self.en.loop_test(s.test)
        return [Step(f"{how[0].upper()}{how[1:]}{', repeat' if how.startswith('until') else ''}:",
                     self._loop("repeat", s.body))]

    def s_Repeat(self, s):
        return [Step("Repeat the following until told to stop:", self._loop("repeat", s.body))]

    def s_ForPlayers(self, s):
        en, v = self.en, self.en.local(s.var)
        if s.start == "after":
            head = f"Each other player {v}, in turn after {en(s.at)}:"
        elif s.start == "from":
            head = f"Each player {v} in turn, starting with {en(s.at)}:"
        else:
            head = f"Each player {v} in turn, starting with the player in seat 1:"
        if s.in_play:
            head = head[:-1] + f", passing over {v} if out of play when their turn comes:"
        with en.bound(**{s.var: "player"}):
            return [Step(head, self._loop("round of players", s.body))]

    def s_ForEach(self, s):
        en = self.en
        head = f"For {en.binder(s.var, s.domain, 'each')}:"
        with en.bound(**{s.var: en.elem(s.domain)}):
            return [Step(head, self._loop("loop", s.body))]

    def s_Rule(self, s):
        ref = self.ref(s.name)
        if ref is not None:
            cond = " (when its condition holds)" if s.when is not None else ""
            return [Step(f"Apply {ref}{cond}.")]
        title = s.title or human(s.name)
        head = f"Rule {em(title)}"
        if s.when is not None:
            head += f", only when {self.en.cond(s.when)}"
        children = [Step(t) for t in s.texts] + self.block(s.body)
        return [Step(head + ":", children)]

    def s_Choose(self, s):
        en = self.en
        if s.each is not None:
            with en.bound(**{s.each: "player"}):
                steps = [self.action(a) for a in s.actions]
                v = en.local(s.each)
                if s.any:
                    drawn = isinstance(s.by, g.Call) and s.by.func == "shuffled" and len(s.by.args) == 1
                    first = ("whoever is first (when several would, who goes first is drawn at random each time)"
                             if drawn else "whoever is first")
                    head = (f"Any player {v} of {en(s.by.args[0] if drawn else s.by)} may act, {first}; after each move, "
                            "everyone may act again, until each player who still could has passed (a player "
                            "with a move may always pass)" + (", one of:" if len(steps) > 1 else ":"))
                elif s.secret:
                    head = (f"Every player {v} of {en(s.by)} chooses in secret, without seeing anyone else's "
                            "choice; when all have chosen, the choices are shown together and carried out "
                            f"one player after another, in that order{', one of' if len(steps) > 1 else ''}:")
                else:
                    head = (f"Every player {v} of {en(s.by)} decides, all at the same point and in any order, "
                            f"one of:" if len(steps) > 1 else f"Every player {v} of {en(s.by)} decides:")
            return [Step(head, steps)]
        who = _cap(en(s.by))
        steps = [self.action(a) for a in s.actions]
        head = f"{who} chooses one of:" if len(steps) > 1 else f"{who} chooses:"
        return [Step(head, steps)]

    def action(self, a: g.Action) -> Step:
        en = self.en
        label = a.label or _cap(human(a.name))
        text = f"{em(label)} ({code(a.name)})"
        with en.bound():
            if a.var is not None and a.domain is not None:
                # action put c in hand(p), z in zones(pile): "a card c ... and a zone z ..."; a set of cards:
                # "any set S of one or more cards of ..."
                parts = []
                for var, domain, subset in a.params():
                    parts.append(param_binder(en, var, domain, subset))
                    en.bind(var, "cards" if subset else en.elem(domain))
                rest = _conjuncts(a.where) if a.where is not None else []
                for k, (var, _, subset) in enumerate(a.params()):  # a sum over a set: "whose pips add up to ..."
                    said = [(x, set_sum(en, x, var)) for x in rest] if subset else []
                    found = next(((x, w) for x, w in said if w is not None), None)
                    if found is not None:
                        parts[k] += f" {found[1]}"
                        rest = [x for x in rest if x is not found[0]]
                text += ": " + " and ".join(parts)
                if rest:
                    where = rest[0]
                    for x in rest[1:]:
                        where = g.BinOp(op="and", left=where, right=x)
                    text += f" such that {en.cond(where)}"
            if a.when is not None:
                text += ("; " if a.var else ": ") + f"only when {en.cond(a.when)}"
            body = self.block(a.body)
        if len(body) == 1 and not body[0].children:
            return Step(f"{text} \u2014 {_uncap(body[0].text)}")
        return Step(text + ". Then:" if body else text + ".", body)



def _conjuncts(e) -> list:
    if isinstance(e, g.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def param_binder(en: English, var: str, domain, subset: bool, det: str = "a") -> str:
    """An action's parameter: 'a card c in ...', or a set of cards, 'any set S of one or more
    cards of the table'."""
    if subset:
        coll = en.operand(domain)
        if isinstance(domain, g.Agg) and domain.where is not None:
            coll = f"({coll})"  # (a new user's Tichu: '... such that x's suit is s such that the number of cards in S ...')
        return f"any set {en.local(var)} of one or more cards of {coll}"
    return en.binder(var, domain, det)


def set_sum(en: English, e, var: str) -> str | None:
    """`(sum x in S: x.pips) == T` said of a set S: 'whose pips add up to T' (None otherwise)."""
    if not (isinstance(e, g.BinOp) and e.op == "=="):
        return None
    for agg, total in ((e.left, e.right), (e.right, e.left)):
        if (isinstance(agg, g.Agg) and agg.op == "sum" and agg.where is None and agg.body is not None
                and isinstance(agg.domain, g.Name) and agg.domain.name == var):
            body = agg.body
            if isinstance(body, g.Attr) and isinstance(body.obj, g.Name) and body.obj.name == agg.var:
                noun = human(body.name)
                what = noun if noun.endswith("s") else noun + "s"
            else:
                with en.bound(**{agg.var: "card"}):
                    what = f"values of {en(body)}"
            return f"whose {what} add up to {en.operand(total)}"
    return None
