"""Reading a bot's spec ('ismcts:300', 'plan:100:6', 'pimc:20:2000'): the numbers after its
colons, each a whole number of at least 1, or a clear error naming what is counted. Every
player's maker reads its spec here, so they all refuse a bad number alike."""

from __future__ import annotations

import re

from ..errors import OptionError


def spec_count(spec: str, what: str, example: int, last: bool = False) -> int | None:
    """The number after the colon of a bot spec ('ismcts:300', 'plan:100'; with `last`, after the
    last colon: 'ismcts:300:20'), None without one; OptionError, naming `what` is counted, for
    anything but a whole number of at least 1."""
    name, sep, rest = spec.rpartition(":") if last else spec.partition(":")
    if not sep:
        return None
    rest = rest.strip()
    if not re.fullmatch(r"-?[0-9]+", rest):  # ASCII digits only: isdigit() also takes '²', which int() refuses
        raise OptionError(f"{name}:{rest[:20]} - the number of {what} must be a whole number, like {name}:{example}")
    if len(rest) > 18:
        raise OptionError(f"{name}:{rest[:20]}... - the number of {what} is far too large")
    n = int(rest)
    if n < 1:
        raise OptionError(f"{name}:{rest} - the number of {what} must be at least 1")
    return n
