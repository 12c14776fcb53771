"""Command-line arguments that several commands share: seats, options and bots."""

from __future__ import annotations

from ..players.bots import make_bot
from ..errors import OptionError


def parse_seat(text: str, players: int, what: str) -> int:
    """'2' or 'P2' -> seat 1 (0-based); OptionError when no such seat."""
    t = text.strip()
    if t[:1] in ("P", "p"):
        t = t[1:]
    if not t.isdigit() or not (1 <= int(t) <= players):
        raise OptionError(f"{what}: no seat {text!r} in a {players}-player game "
                          f"(seats are 1 to {players}, or P1 to P{players})")
    return int(t) - 1


def parse_options(raw: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    return options


def parse_bots(raw: list[str], players: int) -> dict[int, str]:
    """['greedy', '2=random'] -> {0: 'greedy', 1: 'random', 2: 'greedy'}: a bare name sets
    every seat not named, SEAT=NAME one seat, whatever their order (`--bot P1=ismcts --bot
    greedy` keeps the search player in P1, as `--bot greedy --bot P1=ismcts` does); of two
    entries for the same seats, the later wins."""
    every, one = "random", {}
    for item in raw:
        seat_text, sep, name = item.rpartition("=")
        make_bot(name, 0)  # validates the name
        name = name.strip().lower()
        if not sep:
            every = name
        else:
            one[parse_seat(seat_text, players, "--bot")] = name
    return {seat: one.get(seat, every) for seat in range(players)}
