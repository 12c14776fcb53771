"""What a balance report knows beyond its games: each configuration's equilibrium (`--solve`:
every seat's value when everybody plays as well as the game allows, found by CFR+ over the whole
tree, hidden cards hidden), and which player is the strongest one the game allows, for the skill
question (`--strong auto`)."""

from __future__ import annotations

import time

from ..errors import CardRulesError, OptionError
from .games import Config

# --solve walks a tree of at most this many positions (chance included): a minute or two of
# walking in Python where a position is cheap to reach (--solve-limit changes it)
SOLVE_LIMIT = 200_000
# a tree whose estimate (one line of play) is this many times the limit is not walked at all
FAR_BEYOND = 10

# --strong auto takes the equilibrium player when the game's tree has at most this many positions
# (chance included): CFR+ then solves it in seconds, once in each process that plays its games
CFR_POSITIONS = 2_000
# ... with this many CFR+ iterations: within a thousandth of a win of an equilibrium in such a game,
# five times sooner than the solver's default
CFR_ITERATIONS = 200


def _returns(cfg: Config) -> str:
    from ..engine import program_of
    return "points" if program_of(cfg.rs).score is not None else "win"


def _spec(cfg: Config):
    from ..adapters.encoding import spec_for
    return spec_for(cfg.path, cfg.players, dict(cfg.options), returns=_returns(cfg), engine="python")


def equilibrium(cfg: Config, iterations: int, limit: int | None = None) -> dict:
    """One configuration solved (solver/equilibrium.py) as plain data for the report: each seat's
    value, the exploitability of the strategy found, the tree's size and the seconds taken; or,
    when the tree has more than `limit` positions (or the game cannot be walked), `solved` False
    and the reason, in words."""
    from ..engine import seat_name
    from ..solver import equilibrium as eqm
    limit = SOLVE_LIMIT if limit is None else limit
    returns = _returns(cfg)
    started = time.perf_counter()
    try:
        spec = _spec(cfg)
        guess = estimate(spec, FAR_BEYOND * limit)
        if guess > FAR_BEYOND * limit:  # a big deal: not walked for hours to find out
            took = time.perf_counter() - started
            return {"solved": False, "limit": limit, "iterations": iterations, "returns": returns, "seconds": took,
                    "reason": f"not solved: the tree has more than {limit:,} positions (chance included), the most "
                              f"--solve-limit allows (an estimate from one line of play puts it above "
                              f"{FAR_BEYOND * limit:,}; found out in {took:.1f} s without walking it)"}
        eq = eqm.solve_equilibrium(spec, iterations, limit)
    except (OptionError, CardRulesError) as e:
        took = time.perf_counter() - started
        too_big = isinstance(e, eqm.TreeTooLarge)
        return {"solved": False, "limit": limit, "iterations": iterations, "returns": returns,
                "seconds": took,
                "reason": (f"not solved: the tree has more than {limit:,} positions (chance included), "
                           f"the most --solve-limit allows; found out in {took:.1f} s" if too_big
                           else f"not solved: {e.message}")}
    return {"solved": True, "iterations": eq.iterations, "returns": returns, "limit": limit,
            "values": {seat_name(p): v for p, v in enumerate(eq.values)},
            "exploitability": eq.exploitability,
            "exploitability_is": ("the mean of the two best replies' gains" if cfg.players == 2
                                  else "NashConv: the sum of the best replies' gains"),
            "positions": eq.nodes, "information_sets": eq.infosets, "seconds": eq.seconds}


def value_text(v: float) -> str:
    """A seat's value to four places, signed; a value that rounds to zero is 0.0000, not -0.0000."""
    return "0.0000" if round(v, 4) == 0 else f"{v:+.4f}"


def equilibrium_line(label: str, players: int, e: dict) -> str:
    """One configuration's equilibrium in one line, for the terminal."""
    from ..engine import counted
    head = f"  equilibrium ({label}, {counted(players, 'player')}): "
    if not e["solved"]:
        return head + e["reason"]
    what = "score less the table's mean" if e["returns"] == "points" else "share of a win"
    return (head + ", ".join(f"{s} {value_text(v)}" for s, v in e["values"].items()) + f" ({what}); exploitability "
            f"{e['exploitability']:.5f}; {e['positions']:,} positions, {e['information_sets']:,} information sets; "
            f"{e['iterations']:,} iterations in {e['seconds']:.2f} s")


def estimate(spec, cap: int) -> int:
    """About how many positions the game's tree has (chance included), estimated from one line
    of play: the first move and the first draw at every node, the product of the choices met on
    the way summed level by level (Knuth's estimate of a tree's size). It stops as soon as the
    sum passes `cap` (a big deal passes it within a few draws), and returns the sum so far. An
    OptionError when the game cannot be walked."""
    from ..adapters.chance import Walk, root
    walk = Walk(limit=1_000)
    core, pending = root(spec)
    width, total = 1, 1
    while True:
        if pending is not None:
            n = pending.need
        elif core.terminal():
            return total
        else:
            n = len(core.legal())
        width *= max(n, 1)
        total += width
        if total > cap:
            return total
        core, pending = walk.step(core, pending, 0 if pending is not None else next(iter(core.legal())))


def tree_fits(spec, cap: int) -> bool:
    """Whether the game's tree has at most `cap` positions, found out cheaply: a game whose
    estimate passes `cap` is ruled out at once; only one it does not rule out is walked, and no
    further than `cap` positions."""
    from ..solver.equilibrium import build_tree
    try:
        if estimate(spec, cap) > cap:
            return False
        build_tree(spec, cap)
    except (OptionError, CardRulesError):
        return False
    return True


def strongest(cfg: Config, native: bool) -> tuple[str, str]:
    """The strongest player the configuration's game allows, and why, in words: the planner for a
    game of one player; the equilibrium player (CFR+, solved for a share of a win, which is what
    the skill question counts) when the game's tree is small enough to solve whole
    (CFR_POSITIONS); the search player when the games play on the native engine (`native`: its
    search runs in C); else the greedy player. (Until 2026-12-02 a game of sealed bids only took
    greedy: it won three games in four there, by judging its bid after the others' bids, which it
    could not know; judged in a sample of what it cannot see, it wins no more than its share.)"""
    if cfg.players == 1:
        return "plan", "the strongest player for a game of one player: the planner, which searches ahead"
    try:
        fits = tree_fits(_spec(cfg), CFR_POSITIONS)
    except (OptionError, CardRulesError):
        fits = False
    if fits:
        # solved for a share of a win, as the skill question counts: a strategy solved for the
        # score may give up many small pots to win a few big ones, and lose more games than it wins
        return f"cfr:{CFR_ITERATIONS}:win", (f"the strongest player this game allows: its tree has at most {CFR_POSITIONS:,} "
                           "positions, so it is solved whole, and the equilibrium strategy for winning plays")
    if native:
        return "ismcts", "the strongest player this game allows on the native engine: the search player, in C"
    return "greedy", ("the strongest player this game allows on the Python engine (the search player is slow "
                      "outside C, and the tree is too big to solve whole)")


def strong_players(configs: list[Config], strong: str | None, choice, requested: str) -> tuple[list, list]:
    """The skill question's player of each configuration and why, in words: as asked, or under
    auto the strongest its game allows (strongest), the search player only where its
    skill games play on the native engine (the engine chosen, and, under auto, no player at the
    table that decides in Python)."""
    from ..engines import deciding_in_python
    if strong is None:
        return [None] * len(configs), [None] * len(configs)
    if strong.lower() != "auto":
        return [strong] * len(configs), ["as asked"] * len(configs)
    players, whys = [], []
    for cfg in configs:
        native = choice.native is not None and not (requested == "auto" and deciding_in_python(cfg.bots))
        player, why = strongest(cfg, native)
        players.append(player)
        whys.append(why)
    return players, whys
