"""The IR's statements: what an EXEC instruction does, as data (one class per effect).

The engine's instruction list (EXEC, JIF, JUMP, CHOOSE, CALL, RET, END) stays as it is; each
EXEC closure carries one of these as `.ir`, each JIF test and each choice its expression ops
(`Program.ir`), so an emitter other than Python's reads what the closure does without
reading its text. `node` is the graph node a runtime error names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Shuffle:
    zone: Any


@dataclass(frozen=True)
class Deal:
    count: Any
    source: Any
    kind: int
    face_up: Any  # an op, or None: face down
    at: Any  # the first player (an op), or None: the engine's own start
    offset: int  # 1 for 'starting after'
    node: Any = None
    skip: Any = None  # the players passed over (an op: those out of play), or None: nobody


@dataclass(frozen=True)
class MoveCard:
    card: Any
    to: Any
    face_up: Any
    under: bool
    node: Any = None


@dataclass(frozen=True)
class MoveCards:
    cards: Any
    to: Any
    face_up: Any
    under: bool


@dataclass(frozen=True)
class Reveal:
    cards: Any
    single: bool  # a card, not a collection
    down: bool = False  # `turn CARDS face down`: the cards are no longer face up


@dataclass(frozen=True)
class Tell:
    what: str     # "suit" or "rank"
    cards: Any
    single: bool  # a card, not a collection
    to: Any       # the player told


@dataclass(frozen=True)
class SetSlot:
    slot: int
    value: Any
    copy: bool = False  # a zone's cards, kept as a list of their own
    forget: bool = False  # a variable: answers kept per state no longer hold


@dataclass(frozen=True)
class SetPlayerVar:
    slot: int
    who: Any
    value: Any


@dataclass(frozen=True)
class Declare:
    who: Any
    many: bool  # players, not one player
    none: bool = False


@dataclass(frozen=True)
class Bind:
    slots: tuple
    args: tuple


@dataclass(frozen=True)
class LoopInit:
    lst: int
    idx: int
    items: Any  # an op giving the collection (copied)


@dataclass(frozen=True)
class SeatsInit:
    lst: int
    idx: int
    at: Any  # an op, or None for the first seat
    offset: int
    node: Any = None


@dataclass(frozen=True)
class LoopStep:
    var: int
    lst: int
    idx: int


@dataclass(frozen=True)
class Fire:
    rule: int


@dataclass(frozen=True)
class LoopTest:
    lst: int
    idx: int


@dataclass(frozen=True)
class Combos:
    """The legal arguments of an action with several parameters: nested loops, one per
    parameter in order (`params`: (var, domain, tests) each; a later domain may read the earlier
    variables; a test is asked in the loop of the last parameter it names), the rows without
    repeats."""
    params: tuple


@dataclass(frozen=True)
class Values:
    """The legal arguments of an action with one parameter: the domain's elements, in order,
    each once (`unique`: the domain cannot repeat one), that pass `where` (`var` bound)."""
    domain: Any
    var: str
    where: Any
    unique: bool
