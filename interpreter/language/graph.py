"""The rule graph: frozen pydantic models, the single source of truth after parsing.

Every later stage (engine, rulebook, diff, fuzz) walks these nodes by their class name;
none of them re-reads the text. Every node keeps the place in the source it came from.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field


class Node(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Loc(Node):
    """Where a node was written: file, 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Located(Node):
    loc: Loc | None = Field(default=None, description="Where the node was written.")


# ---------------------------------------------------------------- expressions


class IntLit(Located):
    """A whole number."""

    kind: Literal["int"] = "int"
    value: int


class StrLit(Located):
    """A quoted string."""

    kind: Literal["str"] = "str"
    value: str


class BoolLit(Located):
    """true or false."""

    kind: Literal["bool"] = "bool"
    value: bool


class NoneLit(Located):
    """The absence of a card or player."""

    kind: Literal["none"] = "none"


class Name(Located):
    """A name: a local, variable, option, definition, zone, suit, rank or built-in."""

    kind: Literal["name"] = "name"
    name: str


class Attr(Located):
    """obj.name: an attribute of a card (suit, rank, order, owner, played_by, values)."""

    kind: Literal["attr"] = "attr"
    obj: "Expr"
    name: str


class Call(Located):
    """func(args): a definition with parameters, a zone of a player, or a built-in."""

    kind: Literal["call"] = "call"
    func: str
    args: tuple["Expr", ...] = ()


class Agg(Located):
    """An aggregate binding var over domain: all, any, no, count, highest, lowest, sum, max, min, those."""

    kind: Literal["agg"] = "agg"
    op: Literal["all", "any", "no", "count", "highest", "lowest", "sum", "max", "min", "those"]
    var: str
    domain: "Expr"
    where: "Expr | None" = None
    body: "Expr | None" = None


class Cond(Located):
    """if test then then_ else else_."""

    kind: Literal["cond"] = "cond"
    test: "Expr"
    then: "Expr"
    else_: "Expr"


class BinOp(Located):
    """left op right: arithmetic, comparison, membership, logic, set union or range."""

    kind: Literal["binop"] = "binop"
    op: Literal["+", "-", "*", "/", "mod", "^", "==", "!=", "<", "<=", ">", ">=",
                "in", "not in", "and", "or", ".."]
    left: "Expr"
    right: "Expr"


class UnOp(Located):
    """not operand, or -operand."""

    kind: Literal["unop"] = "unop"
    op: Literal["not", "-"]
    operand: "Expr"


class SplitGroup(Node):
    """`count define(args) of sizes`: so many groups satisfying the definition, of these sizes;
    the definition takes the group first, then the args."""

    count: "Expr"
    define: str
    sizes: "Expr | None" = None
    args: tuple["Expr", ...] = ()


class Split(Located):
    """Whether the cards can be partitioned exactly into the groups (with `score`: the best
    total of the score definition over the groups, or -1 when no partition exists)."""

    kind: Literal["split"] = "split"
    cards: "Expr"
    groups: tuple[SplitGroup, ...]
    score: str | None = None


class NextWhere(Located):
    """`next var after start where test`: the first player after `start` in turn order (coming
    round to `start` itself last) for whom the test holds, or none; with `back`, `previous var
    before start where test`, the first before `start` going the other way round."""

    kind: Literal["next_where"] = "next_where"
    var: str
    start: "Expr"
    where: "Expr"
    back: bool = False


class ListExpr(Located):
    """[a, b, ...]: a literal collection."""

    kind: Literal["list"] = "list"
    items: tuple["Expr", ...] = ()


Expr = Annotated[
    Union[IntLit, StrLit, BoolLit, NoneLit, Name, Attr, Call, Agg, Cond, BinOp, UnOp, ListExpr, Split, NextWhere],
    Field(discriminator="kind"),
]


# ----------------------------------------------------------------- statements


class Shuffle(Located):
    """Shuffle a zone with the game's seeded chance."""

    kind: Literal["shuffle"] = "shuffle"
    zone: Expr


class Deal(Located):
    """Deal count cards from source to each player's zone of kind target, in turn order,
    beginning with the first player, or with (or after) the player `at`; `in_play`: passing
    over the players dropped from play."""

    kind: Literal["deal"] = "deal"
    count: Expr
    source: Expr
    target: str
    face_up: Expr | None = None
    start: Literal["from", "after", "first"] = "first"
    at: Expr | None = None
    in_play: bool = False


class Move(Located):
    """Move a card or cards to a zone; face_up reveals them to everyone."""

    kind: Literal["move"] = "move"
    what: Expr
    to: Expr
    face_up: Expr | None = None
    under: bool = Field(default=False, description="Slide the cards under the zone's pile instead of on top.")


class Reveal(Located):
    """Show a card or cards to every player; with `down` (`turn CARDS face down`), turn them face
    down again: from then on only the players who may look at their zone see them."""

    kind: Literal["reveal"] = "reveal"
    what: Expr
    down: bool = Field(default=False, description="Written 'turn CARDS face down': hide them instead.")


class Tell(Located):
    """Tell one player the suit (or the rank) of a card or cards: a hint, kept with each card for
    that player and shown in their view of it, whatever they can see."""

    kind: Literal["tell"] = "tell"
    what: Literal["suit", "rank"]
    cards: Expr
    to: Expr


class Let(Located):
    """Bind a local name for the rest of the enclosing block's run."""

    kind: Literal["let"] = "let"
    name: str
    value: Expr


class Set(Located):
    """Assign to a game variable (one player's, with index) or an existing local."""

    kind: Literal["set"] = "set"
    name: str
    index: Expr | None = None
    value: Expr


class DeclareWinner(Located):
    """Name the winner(s) now (a player, players, or none for a game nobody wins); with `loser`,
    name the loser(s), every other player winning (Durak's fool)."""

    kind: Literal["declare_winner"] = "declare_winner"
    who: Expr
    loser: bool = False


class Perform(Located):
    """Run a named procedure with arguments."""

    kind: Literal["perform"] = "perform"
    name: str
    args: tuple[Expr, ...] = ()


class Break(Located):
    """Leave the innermost loop."""

    kind: Literal["break"] = "break"


class Pass(Located):
    """Do nothing (a body that must not be empty)."""

    kind: Literal["pass"] = "pass"


class EndGame(Located):
    """End the game at once; the winner rule decides the outcome."""

    kind: Literal["end_game"] = "end_game"


class Drop(Located):
    """A player (or players) leaves play: for the round (folded, gone out, safe: back at the next
    `new round`) or for the rest of the game. `in_play(p)`, `players_in_play`, `for each player
    ... in play` and `next q after p where in_play(q)` leave them out."""

    kind: Literal["drop"] = "drop"
    who: Expr
    until: Literal["round", "game"] = "round"


class NewRound(Located):
    """A new round (the next deal): every player dropped from the round is in play again;
    those dropped from the game stay out."""

    kind: Literal["new_round"] = "new_round"


class Branch(Node):
    """One test and the block it guards."""

    test: Expr
    body: tuple["Stmt", ...]


class If(Located):
    """The first branch whose test holds runs; otherwise else_."""

    kind: Literal["if"] = "if"
    branches: tuple[Branch, ...]
    else_: tuple["Stmt", ...] = ()


class While(Located):
    """Repeat body while test holds."""

    kind: Literal["while"] = "while"
    test: Expr
    body: tuple["Stmt", ...]


class Repeat(Located):
    """Repeat body until a break."""

    kind: Literal["repeat"] = "repeat"
    body: tuple["Stmt", ...]


class ForPlayers(Located):
    """Run body once per player in turn order, starting from (or after) a player; with
    `in_play`, a player dropped from play when their turn comes is skipped."""

    kind: Literal["for_players"] = "for_players"
    var: str
    in_play: bool = False
    start: Literal["from", "after", "first"] = "first"
    at: Expr | None = None
    body: tuple["Stmt", ...]


class ForEach(Located):
    """Run body once per element of a collection (taken as it was when the loop began)."""

    kind: Literal["for_each"] = "for_each"
    var: str
    domain: Expr
    body: tuple["Stmt", ...]


class Rule(Located):
    """A named, titled rule: the unit a rulebook numbers and statistics count."""

    kind: Literal["rule"] = "rule"
    name: str
    title: str | None = None
    when: Expr | None = None
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    body: tuple["Stmt", ...]


class ActionParam(Located):
    """A second (third, ...) parameter of an action: `z in zones(pile)`, or a set of cards,
    `S subset of table`."""

    var: str
    domain: "Expr"
    subset: bool = Field(default=False, description="`var subset of domain`: any set of one or more of its cards.")


class Action(Located):
    """One kind of move in a choice: its name, optional parameters and the conditions. The first
    parameter is `var in domain` (or `var subset of domain`); `more` holds the others, each legal
    combination one move."""

    name: str
    var: str | None = None
    domain: Expr | None = None
    subset: bool = Field(default=False, description="The first parameter is a set of cards: `var subset of domain`.")
    more: tuple[ActionParam, ...] = ()
    where: Expr | None = None
    when: Expr | None = None
    label: str | None = None
    body: tuple["Stmt", ...]

    def params(self) -> list[tuple[str, "Expr", bool]]:
        """Every parameter as (name, domain, whether it is a set of cards), in order."""
        first = [(self.var, self.domain, self.subset)] if self.var is not None else []
        return first + [(m.var, m.domain, m.subset) for m in self.more]


class Choose(Located):
    """A decision: the player named by `by` picks one legal move among the actions. With `each`,
    `by` is a collection of players who all decide at the same decision point, in any order,
    each bound to the name `each` in the actions. `secret` (with `each`): nobody sees another's
    choice until all have chosen; then the chosen actions are carried out together, in the
    order of `by`. `any` (with `each`): any one of them may act next, and after each move (its
    body run for its player) all may act again, until every player of `by` who still has a move
    has passed since the last move."""

    kind: Literal["choose"] = "choose"
    by: Expr
    each: str | None = None
    secret: bool = False
    any: bool = Field(default=False, description="`choose by any p in SET`: whoever acts first, again and again.")
    actions: tuple[Action, ...]


Stmt = Annotated[
    Union[Shuffle, Deal, Move, Reveal, Tell, Let, Set, DeclareWinner, Perform, Break, Pass, EndGame, Drop, NewRound, If, While,
          Repeat, ForPlayers, ForEach, Rule, Choose],
    Field(discriminator="kind"),
]
STATEMENT_TYPES = get_args(get_args(Stmt)[0])  # (the classes a block's lines are)


# ------------------------------------------------------------------ top level


class Deck(Located):
    """Suits, ranks (low to high), per-suit orders, rank groups, values, copies."""

    name: str
    title: str | None = None
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    copies: int = 1
    groups: dict[str, tuple[str, ...]] = {}
    orders: dict[str, tuple[str, ...]] = Field(default={}, description="Suit -> ranks low to high, where it differs from `ranks`.")
    values: dict[str, dict[str, int]] = {}
    composition: tuple["CardLine", ...] = Field(
        default=(), description="When given, the deck is exactly these lines instead of every suit x rank.")
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def order_of(self, suit: str) -> tuple[str, ...]:
        return self.orders.get(suit, self.ranks)

    def lines(self) -> tuple["CardLine", ...]:
        """What the deck holds: its composition, or every suit with every rank."""
        return self.composition or (CardLine(ranks=self.ranks, suits=self.suits, copies=self.copies),)

    def size(self) -> int:
        return sum(len(x.ranks) * len(x.suits) * x.copies for x in self.lines())


class CardLine(Node):
    """cards RANKS of SUITS copies N: one part of a deck that is not a full suits x ranks grid."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    copies: int = 1


VISIBILITIES = ("hidden", "owner", "others", "public")


def sees(visibility: str, owner: int | None, player: int) -> bool:
    """Whether `player` may look at the cards of a zone of this visibility owned by `owner`:
    everyone a public zone; its owner an `owner` zone (a hand); everyone but its owner an
    `others` zone (a hand held facing the table); nobody a hidden one (nor a shared
    `others` zone: it has no owner to hide it from, so everyone sees it)."""
    return (visibility == "public" or (visibility == "owner" and owner == player)
            or (visibility == "others" and owner != player))


class Zone(Located):
    """A place cards can be: shared or one per player, and who may see its cards."""

    name: str
    per_player: bool
    visibility: Literal["hidden", "owner", "others", "public"]
    title: str | None = None
    size: int | None = Field(default=None, description="A shared family of this many zones, NAME(1)..NAME(size).")


class Option(Located):
    """A typed, documented game option with a default."""

    name: str
    type: Literal["bool", "int", "enum"]
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    default: bool | int | str
    description: str | None = None
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Var(Located):
    """A game variable, public to every player unless `private`; with a player parameter, one
    per player."""

    name: str
    params: tuple["Param", ...] = ()
    type: str
    init: Expr | None = None
    private: bool = Field(default=False, description="Written 'private var': only the rules read it; "
                          "it is in no player's view.")
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Param(Node):
    name: str
    type: str


class Define(Located):
    """A named value or predicate, with parameters."""

    name: str
    params: tuple[Param, ...] = ()
    body: Expr
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    new: bool = Field(default=False, description="Written 'new define' in a variant: adds rather than replaces.")


class Advice(Located):
    """What a player should aim for: a number per player, higher is better, in the author's
    words. Rules never read it; players (the bots) and the rulebook do."""

    name: str
    params: tuple[Param, ...] = ()
    body: Expr
    summary: str
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    new: bool = Field(default=False, description="Written 'new advice' in a variant: adds rather than replaces.")


class Procedure(Located):
    """A named block of statements, performed from rules."""

    name: str
    params: tuple[Param, ...] = ()
    body: tuple[Stmt, ...]
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    new: bool = Field(default=False, description="Written 'new procedure' in a variant: adds rather than replaces.")


class Phase(Located):
    """A named stage of the game; `then` names the phase that follows, else the game ends."""

    name: str
    title: str | None = None
    then: str | None = None
    body: tuple[Stmt, ...]
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Interpretation(Located):
    """A question the source leaves open, and the answer this ruleset gives."""

    name: str
    question: str
    texts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Winner(Located):
    """Who wins: the players with the most (or fewest) of a per-player score."""

    rule: Literal["most", "fewest"]
    score: str


class Sides(Located):
    """Who plays together: the players for whom the definition `by` (one player parameter) gives
    the same value form one side, worked out where it is asked (a side may change from hand to
    hand, as a declarer against the others does). Rules never read it; the solver, the players
    and the rulebook do."""

    by: str


class Change(Node):
    """One thing a variant changes in its base, for the rulebook."""

    what: str
    name: str
    action: Literal["replaced", "added", "changed", "removed"]
    detail: str | None = None


# decisions a game may take when its ruleset declares no `at most N decisions`: the engine stops
# a game that asks for more (engine/play.py:too_long). Every bundled game declares its own bound;
# the longest random games among them take about 2,000 decisions (measured over 2,000 seeds of each),
# so this is fifty times that, and the 100,000 at which the fuzzer, balance and the
# adapters already gave up.
DEFAULT_MAX_DECISIONS = 100_000


class Ruleset(Located):
    """A whole game: the result of a game file, or of a variant merged onto its base."""

    name: str
    title: str | None = None
    base: str | None = Field(default=None, description="The base game's name, for a variant.")
    base_title: str | None = None
    source: str
    players_min: int
    players_max: int
    direction: Literal["clockwise", "anticlockwise"] = "clockwise"
    max_decisions: int | None = Field(default=None, description="The declared bound on a game's length "
                                      "(the engine's DEFAULT_MAX_DECISIONS when None).")
    deck: Deck
    zones: tuple[Zone, ...] = ()
    options: tuple[Option, ...] = ()
    vars: tuple[Var, ...] = ()
    defines: tuple[Define, ...] = ()
    procedures: tuple[Procedure, ...] = ()
    phases: tuple[Phase, ...] = ()
    interpretations: tuple[Interpretation, ...] = ()
    advice: tuple[Advice, ...] = ()
    winner: Winner | None = None
    sides: Sides | None = None
    texts: tuple[str, ...] = ()
    variant_texts: tuple[str, ...] = Field(default=(), description="What a variant says about itself.")
    notes: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


def child_blocks(stmt) -> list[tuple]:
    """The statement blocks directly inside a statement (if branches, actions, bodies)."""
    if isinstance(stmt, If):
        return [b.body for b in stmt.branches] + [stmt.else_]
    if isinstance(stmt, Choose):
        return [a.body for a in stmt.actions]
    body = getattr(stmt, "body", None)
    return [body] if isinstance(body, tuple) else []



def nodes_below(node, skip=None):
    """Every node below a rule-graph node (pydantic models, tuples, dicts), the node too; with
    `skip`, a node below for which skip(node) holds is left out with everything under it."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        else:
            fields = getattr(type(x), "model_fields", None)
            if fields is not None:
                if skip is not None and x is not node and skip(x):
                    continue
                yield x
                stack.extend(getattr(x, f) for f in fields)


def ordered_zones(ruleset) -> frozenset:
    """The zones whose order the rules read (top, bottom or at of them): a pile whose top card
    matters, which a view must not sort."""
    out = set()
    for x in nodes_below(ruleset):
        if getattr(x, "kind", None) == "call" and x.func in ("top", "bottom", "at") and x.args:
            z = x.args[0]
            name = z.name if getattr(z, "kind", None) == "name" else z.func if getattr(z, "kind", None) == "call" else None
            if name is not None:
                out.add(name)
    return frozenset(out)


def draws_at_random(ruleset) -> bool:
    """Whether the rules ever leave something to chance (a shuffle, `random`, `shuffled`)."""
    return any(getattr(x, "kind", None) == "shuffle" or (getattr(x, "kind", None) == "call" and x.func in ("random", "shuffled"))
               for x in nodes_below(ruleset))
