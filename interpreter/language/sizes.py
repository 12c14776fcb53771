"""The sizes a ruleset may state, as data: every number a file can write that makes memory or
time grow (players, ranks, copies, cards, zone families, ranges, bounds, whole numbers) has one
limit here. The builder checks each where it is written, before anything that size is made
(build.py), the compiler checks literal ranges (compiler/expressions.py), and both engines stop
a range worked out while playing that is longer than RANGE, with the same located error. The
language reference prints this table (render/reference.py).

The limits are far above what card games need (the bundled games stay under a tenth of each)
and low enough that `cardrules check` of any file stays within a few hundred megabytes and
a few seconds."""

from __future__ import annotations

from typing import NamedTuple


class Limit(NamedTuple):
    """One size a file may state, and the most it may be."""

    key: str      # what the checks call it
    unit: str     # what is counted, after a number in a message ("players", "cards")
    what: str     # what is counted, as the reference's table says it
    most: int     # the largest allowed
    why: str      # what the limit protects, in plain words


LIMITS: tuple[Limit, ...] = (
    Limit("number", "", "any whole number written in a file", 1_000_000_000,
          "numbers stay exact on both engines (which count in 64 bits) after a few multiplications"),
    Limit("players", "players", "players (`players N` or `players N..M`)", 64,
          "a set of players is 64 bits wide in the native engine"),
    Limit("cards", "cards", "cards in the deck (ranks x suits x copies, or the sum of its `cards` lines)", 2_000,
          "every zone keeps a place for each card"),
    Limit("ranks", "ranks", "ranks of a deck (`ranks 1..N` counts N)", 2_000, "each rank makes at least one card"),
    Limit("suits", "suits", "suits of a deck", 2_000, "each suit makes at least one card"),
    Limit("copies", "copies", "copies of each card (`copies N`, `cards ... copies N`)", 2_000,
          "each copy is a card"),
    Limit("zones", "zones in one family", "zones of a family (`zone NAME[N]`)", 256, "each zone keeps a place for each card"),
    Limit("decisions", "decisions", "decisions of a game (`at most N decisions`)", 1_000_000_000,
          "a game past its bound stops; the bound is a count, so it costs nothing to allow a long one"),
    Limit("range", "numbers in one range", "numbers in a range (`A..B` in an expression: a loop, an aggregate, a choice of places), "
          "written or worked out while playing", 10_000,
          "a range is made as a list of its numbers"),
)

BY_KEY = {x.key: x for x in LIMITS}
MAX_NUMBER = BY_KEY["number"].most
MAX_PLAYERS = BY_KEY["players"].most
MAX_CARDS = BY_KEY["cards"].most
MAX_RANKS = BY_KEY["ranks"].most
MAX_SUITS = BY_KEY["suits"].most
MAX_COPIES = BY_KEY["copies"].most
MAX_ZONES = BY_KEY["zones"].most
MAX_DECISIONS = BY_KEY["decisions"].most
MAX_RANGE = BY_KEY["range"].most


def too_many(key: str, n: int | str) -> str:
    """The message for a size past its limit: how many (a count, or a number as shown), and the
    most the language allows."""
    lim = BY_KEY[key]
    shown = f"{n:,}" if isinstance(n, int) else n
    if key == "number":
        return f"{shown} is larger than the language allows: a number is at most {lim.most:,}"
    return f"{shown} {lim.unit} are more than the language allows: at most {lim.most:,}"


def overflow_message() -> str:
    """What a product beyond 64 bits says, on both engines."""
    return "a number beyond 64 bits (the engines count in 64 bits)"


def negative_power_message() -> str:
    """What a power with a negative exponent met while playing says, on both engines: the
    language counts in whole numbers, and 2 ^ -1 is none."""
    return "a power with a negative exponent (A ^ N needs N of 0 or more: the language counts in whole numbers)"


def range_message() -> str:
    """What a range longer than RANGE met while playing says, on both engines (the engine puts
    'while playing, this statement met' before it)."""
    return f"a range of more than {MAX_RANGE:,} numbers (the language's limit)"
