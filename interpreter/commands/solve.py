"""`cardrules solve`: the seeded game's position after some decisions, solved with every card
shown. The position is reached by random players (the game `cardrules play --seed S` plays),
or by the moves given."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from ..errors import CardRulesError, OptionError
from ..runner import ENGINE_HELP

DEFAULT_NODES = 1_000_000
DEFAULT_SECONDS = 60.0


def solve_command(
    path: Annotated[Path, typer.Argument(help="The ruleset (.cards), or a bundled game's name.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players (default: the fewest the game allows).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The game's seed (the deal, and the random players who reach the position).")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="Set a game option (repeatable).")] = None,
    after: Annotated[int | None, typer.Option("--after", metavar="N", min=0, help="Solve the position after N decisions (default: the first decision, not made in secret, where a card is chosen: the opening lead after an auction).")] = None,
    moves: Annotated[str | None, typer.Option("--moves", metavar="'MOVE; MOVE; ...'", help="Reach the position by these moves (as `play --human` takes them, each by the player to act) instead of random players.")] = None,
    sides: Annotated[str | None, typer.Option("--sides", metavar="'1+3, 2+4'", help="Seats that play together, side by side (default: the ruleset's `sides` line at the position, else each seat for itself). Two sides are solved by alpha-beta, more by max^n.")] = None,
    nodes: Annotated[int, typer.Option("--nodes", min=1, help="Positions looked at, at most.")] = DEFAULT_NODES,
    seconds: Annotated[float, typer.Option("--seconds", min=0.0, help="Time allowed, a safety net: the answer is the deepest search that finished.")] = DEFAULT_SECONDS,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object, and nothing else.")] = False,
    equilibrium: Annotated[bool, typer.Option("--equilibrium", help="Instead: solve the whole game as it is played, hidden cards hidden, by CFR+ over its tree (small games only), and print each seat's value and the strategy's exploitability.")] = False,
    iterations: Annotated[int, typer.Option("--iterations", min=1, help="With --equilibrium: CFR+ iterations.")] = 1000,
    returns: Annotated[str | None, typer.Option("--returns", metavar="points|win", help="With --equilibrium: what a seat is paid, its score less the table's mean (points; the default where the game keeps a score) or its share of a win.")] = None,
    policy_out: Annotated[Path | None, typer.Option("--policy", metavar="FILE", help="With --equilibrium: write the strategy found here, as JSON.")] = None,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP + " (On the native engine the solver runs in C.)")] = "auto",
) -> None:
    """Solve a position with every card shown: the value under best play by everyone (for a
    trick-taking game, the double-dummy result), the best line and the scores it ends with.
    With --equilibrium, solve the whole game with its secrets kept instead."""
    if equilibrium:
        return _equilibrium(path, players, option, iterations, returns, policy_out, as_json)
    from .. import load_ruleset
    from .args import parse_options
    from ..bundled import resolve
    from ..engine import program_of, resolve_options
    from ..engines import choose

    try:
        path = resolve(path)
        rs = load_ruleset(path)
    except OptionError as e:
        _fail(f"{path}: error: {e.message}", 1)
    except CardRulesError as e:
        _fail(e.render(), 1)
    except OSError as e:
        _fail(f"{path}: error: cannot read the ruleset: {e.strerror or e}", 1)
    n = players if players is not None else rs.players_min
    try:
        if not rs.players_min <= n <= rs.players_max:
            span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
            raise OptionError(f"{rs.title or rs.name} is for {span} players, not {n}")
        opts = parse_options(option or [])
        resolve_options(program_of(rs), opts)
        side_list = parse_sides(sides, n) if sides is not None else None
        if after is not None and moves is not None:
            raise OptionError("give --after or --moves, not both")
        choice = choose(program_of(rs), engine_name, players=True)
    except OptionError as e:
        _fail(f"error: {e.message}", 2)
    if not as_json:
        print(choice.line, file=sys.stderr)
    try:
        state, how = reach(rs, n, opts, seed, after, moves, choice)
        from ..solver.minimax import Solver
        started = time.monotonic()
        if side_list is None:
            from ..engine import sides as sides_now
            side_list = [list(side) for side in sides_now(state)]  # the ruleset's `sides`, as they stand here
        sol = Solver(n, side_list, nodes, seconds).solve(state)
        if not sol.complete and n == 1:
            sol = _won_by_planning(state, sol, nodes, seconds, started, seed) or sol
        took = time.monotonic() - started
    except OptionError as e:
        _fail(f"error: {e.message}", 2)
    except CardRulesError as e:
        _fail(e.render(), 1)
    out = report(rs, n, seed, how, state, sol, took)
    if as_json:
        typer.echo(json.dumps(out, indent=2))
    else:
        typer.echo(text_report(out))


def _won_by_planning(state, sol, nodes: int, seconds: float, started: float, seed: int):
    """Where the full search of a patience ran out: the planning player's depth-first search,
    which stops at the first won game, with every card seen as the solver sees them (PlanBot.peek:
    in the position itself, not in a guess of it). A line it finds, played from the position,
    that ends in the seat's win settles the question: a win is worth 1, and nothing is worth
    more. The Solution of that line, or None (no win found)."""
    from ..engine import apply, moves_for
    from ..players.plan import PlanBot
    from ..solver.minimax import Solution, pays_shares, utilities
    if state.finished or state.actor is None:
        return None
    bot = PlanBot(seed, nodes=nodes)
    bot.peek = True
    bot.deadline = started + seconds
    line = bot.line(state)
    t, moves = state.clone(), []
    for key, _ in line:
        m = next((m for m in moves_for(t) if (m.action, m.arg) == key), None)
        if m is None:
            return None
        apply(t, m)
        moves.append(m)
    if not t.finished or not pays_shares(t):
        return None
    u = utilities(t)
    if u[state.actor] != 1.0:
        return None
    return Solution(u[state.actor], u, tuple(moves), t, True, len(moves), sol.nodes, sol.sides, None, found_by="plan")


def _fail(text: str, code: int):
    print(text, file=sys.stderr)
    raise typer.Exit(code)


def parse_sides(text: str, players: int) -> list[list[int]]:
    """'1+3, 2+4' (seats from 1, or P1..) as [[0, 2], [1, 3]]; an OptionError names what is wrong."""
    from .args import parse_seat
    sides = []
    for part in text.split(","):
        if not part.strip():
            raise OptionError(f"--sides {text!r}: a side with no seat (write them as '1+3, 2+4')")
        sides.append([parse_seat(x.strip(), players, "--sides") for x in part.split("+")])
    seats = sorted(x for side in sides for x in side)
    if seats != list(range(players)):
        raise OptionError(f"--sides {text!r} must name each of the {players} seats exactly once")
    return sides


def reach(rs, players: int, options: dict, seed: int, after: int | None, moves: str | None, engine=None):
    """The position to solve, and how it was reached (words for the report), on the engine chosen
    (an EngineChoice; None: Python)."""
    from ..players.bots import bot_seed, make_bot
    from ..engine import Move, apply, counted, in_secret, moves_for, offered
    from ..engines import new_game
    s = new_game(rs, players, options, seed, engine=engine)
    given = after
    if moves is not None:
        texts = [m.strip() for m in moves.split(";") if m.strip()]
        for k, text in enumerate(texts):
            if s.finished:
                raise OptionError(f"--moves: the game is over before move {k + 1} ({text!r})")
            wanted = Move.parse(" ".join(text.split()), s.actor)
            legal = moves_for(s)
            found = next((m for m in legal if m.action == wanted.action and m.arg == wanted.arg), None)
            if found is None:
                raise OptionError(f"--moves: move {k + 1}, {text!r}, is not legal for P{s.actor + 1} now "
                                  f"(legal: {', '.join(map(str, legal[:8]))}{', ...' if len(legal) > 8 else ''})")
            apply(s, found)
        return s, f"after the {counted(len(texts), 'move')} given"
    bots = [make_bot("random", bot_seed(seed, seat)) for seat in range(players)]
    count = 0
    # by default, the first card chosen in the open; from the start in a game where no card is chosen
    cards_chosen = any(alt.elem in ("card", "cards") for ch in s.program.choices for alt in ch.alts)
    if after is None and not cards_chosen:
        after = 0
    while not s.finished:
        if after is not None and count >= after:
            break
        if after is None and not in_secret(s) and any(alt.elem in ("card", "cards") for _, alt, _ in offered(s)):
            break
        apply(s, bots[s.actor].choose(s))
        count += 1
    if after is not None and count < after:
        raise OptionError(f"--after {after}: the game ends after {count} decisions")
    if count == 0:
        return s, "at the start"
    how = f"after {count} decisions by random players"
    return s, how + (" (the first card chosen in the open)" if cards_chosen and given is None else "")


def report(rs, players: int, seed: int, how: str, state, sol, took: float) -> dict:
    """The answer as plain data (what --json prints)."""
    from ..engine import public_vars, scores, seat_name
    end = sol.end
    out = {
        "ruleset": rs.title or rs.name, "players": players, "seed": seed, "position": how,
        "to_move": seat_name(state.actor) if state.actor is not None and not state.finished else None,
        "sides": [[seat_name(x) for x in side] for side in sol.sides],
        "method": "alpha-beta" if len(sol.sides) == 2 else "max^n",
        "complete": sol.complete, "depth": sol.depth, "stopped": sol.stopped, "found_by": sol.found_by,
        "value": sol.value, "utilities": list(sol.utilities),
        "line": [f"{seat_name(m.player)} {m}" for m in sol.line],
        "finished": bool(end.finished),
        "scores": list(scores(end)) if (state.program.score is not None) else None,
        "variables": public_vars(end, private=True),
        "nodes": sol.nodes, "seconds": round(took, 3),
    }
    return out


def text_report(r: dict) -> str:
    from ..engine import counted
    sides = " against ".join("+".join(side) for side in r["sides"])
    lines = [f"{r['ruleset']}, {counted(r['players'], 'player')}, seed {r['seed']}: the position {r['position']}"
             + (f", {r['to_move']} to move" if r["to_move"] else "") + ".",
             f"Every card shown, best play by every side ({sides}; {r['method']}):"]
    if r["complete"] and r["found_by"] == "plan":
        lines.append(f"  solved: the seat can win. The full search ran out ({r['nodes']:,} positions); the planning "
                     f"search (`plan`, depth first in rounds) then found a won game, and nothing is worth more "
                     f"({r['seconds']:g} s in all)")
    elif r["complete"]:
        lines.append(f"  solved to the end of the game: {r['nodes']:,} positions in {r['seconds']:g} s")
    else:
        why = {"nodes": "the positions allowed (--nodes) ran out", "seconds": "the time allowed (--seconds) ran out"}
        lines.append(f"  NOT solved to the end: {why.get(r['stopped'], 'stopped')}; the answer looks "
                     f"{r['depth']} decisions ahead and judges the positions there by the advice or the scores "
                     f"({r['nodes']:,} positions, {r['seconds']:g} s)")
    lines.append(f"  value: {r['value']:g}" + ("  (the first side's utility less the second's)" if len(r["sides"]) == 2
                                                else "  (the utility of the player to move)"))
    if r["scores"] is not None:
        lines.append("  scores " + ("at the end: " if r["finished"] else "where the line stops: ")
                     + ", ".join(f"P{k + 1} {v}" for k, v in enumerate(r["scores"])))
    shown = {k: v for k, v in r["variables"].items() if not isinstance(v, (list, dict))}
    if shown:
        lines.append("  then: " + ", ".join(f"{k} = {v}" for k, v in list(shown.items())[:12]))
    lines.append("  the best line: " + ("; ".join(r["line"]) if r["line"] else "(none)"))
    return "\n".join(lines)


def _equilibrium(path: Path, players, option, iterations: int, returns, policy_out, as_json: bool) -> None:
    """`--equilibrium`: CFR+ over the game's whole tree (equilibrium.py)."""
    from .args import parse_options
    from ..solver.equilibrium import solve_equilibrium
    from ..engine import counted
    try:
        from ..adapters.encoding import spec_for
        from ..bundled import resolve
        from .. import load_ruleset
        from ..engine import program_of
        rs = load_ruleset(resolve(path))
        if returns is None:
            returns = "points" if program_of(rs).score is not None else "win"
        spec = spec_for(path, players, parse_options(option or []), returns=returns, engine="python")
        eq = solve_equilibrium(spec, iterations)
    except OptionError as e:
        _fail(f"error: {e.message}", 2)
    except CardRulesError as e:
        _fail(e.render(), 1)
    except OSError as e:
        _fail(f"{path}: error: cannot read the ruleset: {e.strerror or e}", 1)
    out = {"ruleset": spec.title, "players": spec.players, "returns": returns, "iterations": eq.iterations,
           "values": list(eq.values), "exploitability": eq.exploitability,
           "exploitability_is": "mean of the best replies' gains" if spec.players == 2 else "NashConv: their sum",
           "positions": eq.nodes, "information_sets": eq.infosets, "seconds": round(eq.seconds, 3),
           "walk_seconds": round(eq.walk_seconds, 3), "solver": eq.solver}
    if policy_out is not None:
        from ..files import write_atomic
        try:
            write_atomic(policy_out, json.dumps({"ruleset": spec.title, "players": spec.players,
                                                  "policy": eq.policy}, indent=1) + "\n")
        except OSError as e:
            _fail(f"error: the strategy was not written to {policy_out}: {e.strerror or e}", 1)
        out["policy_file"] = str(policy_out)
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    what = "the mean of the best replies' gains" if spec.players == 2 else "NashConv, the sum of the best replies' gains"
    typer.echo(f"{spec.title}, {counted(spec.players, 'player')}, hidden cards hidden: CFR+, {eq.iterations:,} iterations over "
               f"{eq.nodes:,} positions ({eq.infosets:,} information sets) in {eq.seconds:.2f} s")
    typer.echo("  values (" + ("score less the table's mean" if returns == "points" else "share of a win") + "): "
               + ", ".join(f"P{k + 1} {v:+.5f}" for k, v in enumerate(eq.values)))
    typer.echo(f"  exploitability: {eq.exploitability:.6f} ({what})")
    if policy_out is not None:
        typer.echo(f"  strategy written to {policy_out}")
