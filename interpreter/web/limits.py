"""What the table's server allows: every number a stranger can send it is held to one of these
before any work is done on it, and every kind of work it takes on has a ceiling, so that one
request can neither stall the table nor fill the machine. Each limit is a setting of `serve`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import OptionError


def _cores() -> int:
    from ..runner import cores_here
    return cores_here()


@dataclass(frozen=True)
class Limits:
    max_tables: int = 100            # tables being played at once (finished ones do not count)
    max_thinking: int = 32           # of those, tables with a bot at a seat (--max-bot-tables)
    max_iterations: int = 20_000     # a search player's iterations (a planning player's positions)
    think_seconds: float = 5.0       # a bot's time for one decision; then it plays its best so far
    bot_workers: int = field(default_factory=_cores)  # processes the bots think in (0: the server's threads)
    form_bytes: int = 64 * 1024      # a form: a new table, a move
    upload_bytes: int = 8 * 1024 * 1024  # a record uploaded to be replayed
    max_seed: int = 2 ** 63 - 1      # seeds are from 0 to this
    max_connections: int = 1000      # connections at once (live updates hold one each); past it, 503

    def check_seed(self, seed: int) -> None:
        if not (0 <= seed <= self.max_seed):
            raise OptionError(f"the seed must be a whole number from 0 to {self.max_seed:,}")

    def check(self) -> None:
        """OptionError naming the setting when one is out of range (the command says it)."""
        for name, value, low in (("--max-tables", self.max_tables, 1), ("--max-bot-tables", self.max_thinking, 0),
                                 ("--max-iterations", self.max_iterations, 1), ("--bot-workers", self.bot_workers, 0)):
            if value < low:
                raise OptionError(f"{name} must be {low} or more, not {value}")
        if not (0 < self.think_seconds <= 3600):
            raise OptionError(f"--think-seconds must be above 0 and at most 3600, not {self.think_seconds}")
