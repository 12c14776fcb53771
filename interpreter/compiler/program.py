"""What the compiler produces and the engine runs: the Program, its choices and
instructions, and the vocabulary of types the checks speak in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..language import graph as g
from ..language.locate import source_line
from ..errors import GameRuntimeError, RulesetError

_MISS = object()

# a card's built-in attributes: generated code ({} is the card) and type
_CARD_ATTRS = {"suit": ("SUIT[{}]", "suit"), "rank": ("RANK[{}]", "rank"), "order": ("ORDER[{}]", "int"),
               "owner": ("st.card_owner[{}]", "player"), "played_by": ("st.played_by[{}]", "player"),
               "zone": ("st.card_zone[{}]", "zone"), "face_up": ("st.known[{}]", "bool"),
               "depth": ("_depth(st, {})", "int"), "beneath": ("_beneath(st, {})", "card")}

# instruction opcodes
EXEC, JUMP, JIF, CHOOSE, CALL, RET, END, CHOOSE_EACH, TRACE = range(9)

MAX_STEPS = 200_000  # turns of loops between two decisions before the engine calls it an endless loop
DEFAULT_MAX_DECISIONS = g.DEFAULT_MAX_DECISIONS
# an action's set of cards (`S subset of table`) is chosen among at most MAX_SET_CARDS cards; the
# search tries at most MAX_TRIED sets (those its sum and count conditions let through: with
# neither, every set, so 14 cards at most) and one decision offers at most MAX_SETS of them: past
# any, both engines stop the game with a located error, never a long search
MAX_SET_CARDS = 20
MAX_TRIED = 16384
MAX_SETS = 4096  # decisions a game declaring no `at most N decisions` may take

ELEM = {"cards": "card", "players": "player", "ints": "int", "suits": "suit", "ranks": "rank",
        "zone": "card", "zonekind": "card", "zones": "zone"}
COLLECTIONS = set(ELEM)
TYPE_WORDS = {"card", "player", "int", "bool", "suit", "rank", "cards", "players", "ints", "zone", "zones"}
COLLECTION_TYPES = {"cards", "players", "ints", "zones"}  # a variable of these starts empty when not given


def _err(msg: str, node) -> RulesetError:
    loc = getattr(node, "loc", None)
    return RulesetError(msg, loc.file if loc else None, loc.line if loc else None,
                        loc.column if loc else None, source_line(loc))


def _runtime(msg: str, node) -> GameRuntimeError:
    loc = getattr(node, "loc", None)
    return GameRuntimeError(msg, loc.file if loc else None, loc.line if loc else None,
                            loc.column if loc else None, source_line(loc))


_WORDS = {"int": "a number", "bool": "a true/false value", "card": "a card", "player": "a player",
          "suit": "a suit", "rank": "a rank", "str": "a text", "none": "none", "enum": "an option value",
          "cards": "a collection of cards", "players": "a collection of players", "ints": "a range of numbers",
          "suits": "a collection of suits", "ranks": "a collection of ranks", "zone": "a zone",
          "zonekind": "a kind of zone (say which one, like hand(p) or pile(1))", "zones": "a collection of zones",
          "any": "a value"}


def word(t: str) -> str:
    """A type as a reader says it: 'a number', 'a card'."""
    return _WORDS.get(t, t)


def _compatible(a: str, b: str) -> bool:
    if a == b or "any" in (a, b) or "none" in (a, b):
        return True
    if {a, b} <= {"cards", "zone", "zonekind"}:
        return True
    return False


@dataclass
class Alt:
    """One action of a compiled choice."""

    name: str
    label: str | None
    slot: int | None
    elem: str | None
    domain: Callable | None
    where: Callable | None
    when: Callable | None
    body: int = -1
    node: Any = None
    values: Callable | None = None  # the allowed parameter values, as one generated function
    more: list = field(default_factory=list)  # (slot, elem) of each further parameter; values are then tuples
    values_src: str | None = None  # the generated source of `values` and `when` (None: a hand-written closure)
    when_src: str | None = None
    decline: bool = False  # the `pass` every player of a `choose by any` has while they have another move
    # players -> seat -> {value: Move} (the value None for an action without parameters): a cache that
    # fills as games reach new moves, so it is no part of what the action is (a state holding
    # the Alt prints the same); the engine lays it out when it first plays the program
    moves: list = field(default_factory=list, repr=False, compare=False)


@dataclass
class Choice:
    """A compiled `choose`: who decides, which actions, and the rule it belongs to."""

    actor: Callable
    alts: list[Alt]
    rule: str
    rule_title: str
    node: Any
    by_text: str
    each_slot: int | None = None  # set for `choose by each p in ...`: where p is bound
    secret: bool = False  # `choose secretly by each`: the chosen actions wait until everyone has chosen
    any: bool = False  # `choose by any`: whoever acts first; the decision comes back until all pass
    reads: tuple | None = None  # the slots its moves depend on beside the cards (None: not known)
    shared_names: bool = False  # two actions share a name, so they may offer the same move twice
    # legal(state, actor) -> the actor's legal moves: set by the engine when it first plays the
    # program (engine/legal.py), generated from the actions' sources on the fast path
    legal: Callable | None = field(default=None, repr=False, compare=False)


@dataclass
class ZoneInfo:
    name: str
    per_player: bool
    visibility: str
    index: int  # first instance among shared zones, or position among per-player zones
    size: int | None = None  # a shared family of zones NAME(1)..NAME(size)


@dataclass
class Program:
    """Everything the engine needs, precomputed from one ruleset."""

    ruleset: g.Ruleset
    card_names: list[str]
    card_suit: list[int]
    card_rank: list[int]
    card_order: list[int]
    above: list[tuple]
    below: list[tuple]
    suit_cards: list[tuple]
    card_of: dict
    values: dict[str, list[int]]
    zones: list[ZoneInfo]
    zone_index: dict[str, int]
    n_shared: int
    options: list[g.Option]
    option_index: dict[str, int]
    vars: list[tuple[str, int, Callable | None]]  # (name, slot, starting value) of each of var_nodes
    n_slots: int = 0
    var_nodes: list = field(default_factory=list)  # the ruleset's variables, then the compiler's own (turns.py)
    code: list = field(default_factory=list)
    plain_code: list = field(default_factory=list)  # the instructions before traces were laid over them
    start: int = 0
    rule_names: list[str] = field(default_factory=list)
    rule_titles: dict[str, str] = field(default_factory=dict)
    choices: list[Choice] = field(default_factory=list)
    score: Callable | None = None  # score(state, seat) -> int
    tells: bool = False  # some statement tells a player about cards (`tell`): states keep what each was told
    score_name: str | None = None
    sides: Callable | None = None  # sides(state, seat) -> a value equal for the players of one side
    sides_name: str | None = None
    advice: list = field(default_factory=list)  # (name, fn(state, seat) -> int, graph node)
    namespace: dict = field(default_factory=dict)
    winner_rule: str | None = None
    phase_start: dict[str, int] = field(default_factory=dict)
    nodes: list = field(default_factory=list)  # the statement each instruction came from
    split_cache: dict = field(default_factory=dict)  # split results that depend on the cards alone
    rule_at: list = field(default_factory=list)  # (name, title) of the rule around each instruction
    rule_loc: dict = field(default_factory=dict)  # where each rule (and phase) is written, by name
    max_decisions: int = DEFAULT_MAX_DECISIONS  # the ruleset's `at most N decisions`, else the default
    face_of: list = field(default_factory=list)  # the first card with the same suit and rank
    split_memo: dict = field(default_factory=dict)  # the meld search's plans, partial results and group verdicts
    masks: bool = True  # whether any generated code reads the state's bit masks (else they are not kept)
    fast: bool = True  # masks and fused instructions; False keeps the plain evaluator (the oracle)
    card_bit: list = field(default_factory=list)  # 1 << the card's bit position (see compiler/masks.py)
    card_at: list = field(default_factory=list)  # the card at each bit position
    all_mask: int = 0
    suit_mask: dict = field(default_factory=dict)  # suit index -> mask of its cards
    rank_mask: dict = field(default_factory=dict)  # rank index -> mask of its cards
    layouts: dict = field(default_factory=dict)  # players -> the zone instances' layout (engine.play._layout)
    set_sites: list = field(default_factory=list)  # (action, set parameter) of each `S subset of ...`, for errors
    linked: bool = False  # whether the engine has laid out its tables of moves (engine/legal.py)
    # the lowered program (compiler/ir), for emitters other than Python's: each definition's
    # parameters, body and type; each variable's slot, whether it is kept per player, its type
    # and its initial value; instructions and choices carry theirs (`.ir`, `actor_ir`, ...)
    def_ir: dict = field(default_factory=dict, repr=False, compare=False)
    var_ir: list = field(default_factory=list, repr=False, compare=False)
    fn_ir: dict = field(default_factory=dict, repr=False, compare=False)  # id of a generated test or value -> its ops
    set_ir: dict = field(default_factory=dict, repr=False, compare=False)  # a set test's function -> ops.SetTest
    advice_ir: list = field(default_factory=list, repr=False, compare=False)  # (name, params, body, type) per advice
    kept_defs: set = field(default_factory=set, repr=False, compare=False)  # definitions of faces alone: answers kept for good

    @property
    def n_cards(self) -> int:
        return len(self.card_names)

