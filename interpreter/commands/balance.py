"""`cardrules balance`: the configurations a command line asks for (a ruleset, another to compare
it with, or one option's values), the players of the skill question, the report written."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..balance.games import HARD_CAP, Config, GameFailed
from ..balance.report import ReportInterrupted, engine_line, make_report, render_html, runs_of, write_report
from ..balance.equilibria import equilibrium_line, strong_players
from ..balance.summary import loss_text
from ..errors import CardRulesError, OptionError
from ..runner import ENGINE_HELP


def _configs(path: Path, against: Path | None, players: int | None, options: list[str],
             bots: list[str]) -> list[Config]:
    from .. import load_ruleset
    from .args import parse_bots, parse_options
    from ..engine import program_of, resolve_options

    def _title(r) -> str:
        return r.title or r.name

    def load(p: Path):
        try:
            return load_ruleset(p)
        except OSError as e:
            raise CardRulesError(f"cannot read the ruleset: {e.strerror or e}", str(p)) from None

    rs = load(path)
    n = players if players is not None else rs.players_min
    if not rs.players_min <= n <= rs.players_max:
        span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
        raise OptionError(f"{_title(rs)} is for {span} players, not {n}")
    seat_bots = parse_bots(bots, n)
    bots_t = tuple(seat_bots[i] for i in range(n))
    varied = [(k, v) for k, v in parse_options(options).items() if "," in v]
    fixed = tuple((k, v) for k, v in parse_options(options).items() if "," not in v)
    if len(varied) > 1:
        raise OptionError("--option can list several values (NAME=V1,V2) for one option only")
    if varied and against is not None:
        raise OptionError("compare either two rulesets (--against) or the values of one option, not both")
    out = []
    if varied:
        name, values = varied[0]
        vs = [v.strip() for v in values.split(",")]
        if len(vs) < 2 or any(not v for v in vs):
            raise OptionError(f"--option {name}={values}: list two or more values, like {name}=true,false")
        for v in vs:
            opts = fixed + ((name, v),)
            resolve_options(program_of(rs), dict(opts))
            out.append(Config(label=f"{name}={v}", path=str(path), rs=rs, players=n, options=opts, bots=bots_t))
        return out
    resolve_options(program_of(rs), dict(fixed))
    out.append(Config(label=path.stem if against is not None else _title(rs), path=str(path), rs=rs,
                      players=n, options=fixed, bots=bots_t))
    if against is not None:
        rb = load(against)
        nb = n
        if not rb.players_min <= n <= rb.players_max:
            lo, hi = max(rs.players_min, rb.players_min), min(rs.players_max, rb.players_max)
            if players is not None or lo <= hi:
                hint = f" (--players {lo} suits both)" if lo <= hi else ""
                raise OptionError(f"--against {against}: {_title(rb)} is not for {n} players, so the two cannot be "
                                  f"compared at this table{hint}")
            # no table suits both (a game for two against its version for three): each is played
            # by the number of players it allows nearest to the first's
            nb = rb.players_min if rb.players_min > n else rb.players_max
        resolve_options(program_of(rb), dict(fixed))
        label = against.stem if against.stem != path.stem else str(against)
        seats_b = parse_bots(bots, nb)
        out.append(Config(label=label, path=str(against), rs=rb, players=nb, options=fixed,
                          bots=tuple(seats_b[i] for i in range(nb))))
    return out


def balance_command(
    path: Annotated[Path, typer.Argument(help="The ruleset (.cards) to report on.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for report.html and report.json.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players (default: the fewest the game allows).")] = None,
    games: Annotated[int, typer.Option("--games", "-k", min=1, help="Games per configuration.")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed+i.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE[,VALUE...]", help="Set an option; list several values of one option to compare them.")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", "-b", metavar="[SEAT=]NAME", help="The players: a bot for every seat, or SEAT=NAME (repeatable; a seat named keeps its bot whatever the order). Default: random.")] = None,
    strong: Annotated[str, typer.Option("--strong", metavar="auto|NAME|none", help="The stronger player for the skill question, seated in turn at each seat among the others. auto (the default): the strongest player each configuration's game allows (plan for a game of one player, cfr when its tree is small enough to solve whole, ismcts on the native engine, else greedy), named in the report with why; 'none' skips the question.")] = "auto",
    skill_games: Annotated[int | None, typer.Option("--skill-games", min=0, help="Games for the skill question (default: --games).")] = None,
    against: Annotated[Path | None, typer.Option("--against", metavar="B.cards", help="Compare with another ruleset, played on the same seeds.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", help="Processes to play in (default: one per core; 1: this process only). The report is the same for any N.")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="tcp://HOST:PORT", help="Play on this Dask scheduler's workers (default: $CARDRULES_CLUSTER; needs the cluster extra).")] = None,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP)] = "auto",
    solve: Annotated[bool, typer.Option("--solve", help="Also solve each configuration whole, hidden cards hidden (CFR+, as `solve --equilibrium`; small games only): each seat's value under best play, the strategy's exploitability, the tree's size and the time taken. The games are played as well.")] = False,
    solve_iterations: Annotated[int, typer.Option("--solve-iterations", min=1, metavar="N", help="With --solve: CFR+ iterations.")] = 1000,
    solve_limit: Annotated[int | None, typer.Option("--solve-limit", min=1, metavar="POSITIONS", help="With --solve: the most positions (chance included) a tree may have; a configuration with more is reported as too big to solve, not walked further (default: 200,000; a tree estimated at ten times as many is not walked at all).")] = None,
) -> None:
    """Play many games and write a balance report: fairness per seat, first-player advantage,
    scores, length, rules used, skill and lead changes; or two variants side by side. With
    --solve, each configuration's value per seat under best play too."""
    from ..players.bots import make_bot
    from ..runner import WorkersLost, open_runner, parse_workers
    try:
        if os.path.exists(out) and not os.path.isdir(out):  # said before the games, not after them
            raise OptionError(f"--out {out} is a file; --out names the folder for report.html and report.json")
        parse_workers(workers)
        configs = _configs(path, against, players, option or [], bot or [])
        strong_key = strong.strip().lower()
        strong_name = None if strong_key == "none" else strong.strip()
        if strong_name is not None and strong_key != "auto":
            make_bot(strong_name, 0)
        from ..engine import program_of
        from ..engines import all_random, choose
        thinking = strong_name is not None or not all_random([b for c in configs for b in c.bots])
        choice = choose([program_of(c.rs) for c in configs], engine_name, players=thinking)
        runner = open_runner(workers, cluster)
    except OptionError as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(2)
    except CardRulesError as e:
        typer.echo(e.render(), err=True)
        raise typer.Exit(1)
    k_skill = games if skill_games is None else skill_games
    try:  # (the runner is closed below once the games are played; here if the command stops first)
        strongs, whys = strong_players(configs, strong_name, choice, engine_name)
        engine, line = engine_line(choice, engine_name, runs_of(configs, games, strongs, k_skill))
        typer.echo(line, err=True)
        if k_skill > 0:
            for cfg, player, why in zip(configs, strongs, whys):
                if player is not None:
                    typer.echo(f"skill: {player} ({why})" + (f" for {cfg.label}" if len(configs) > 1 else ""), err=True)
        equilibria = _solve_all(configs, solve_iterations, solve_limit) if solve else None
    except BaseException:
        if runner is not None:
            runner.close()
        raise
    total = sum(games + (k_skill if player else 0) for player in strongs)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    tty = sys.stderr.isatty()
    show = tty or total >= 50
    bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("left"), TimeRemainingColumn(), console=Console(file=sys.stderr), transient=False,
                   disable=not show)
    stopped = None
    played = [0]

    def advance(n=1):
        played[0] += n
        bar.advance(task, n)
    try:
        with bar, _Heartbeat(lambda s: f"playing: {played[0]} of {total} games, {s:.0f} s so far", not tty):
            task = bar.add_task("games", total=total)
            data, facts = make_report(configs, games, seed, strongs, k_skill, advance, runner, engine, whys,
                                      equilibria)
    except ReportInterrupted as e:
        if e.data is None:
            typer.echo("interrupted before every configuration had finished a game: nothing was written", err=True)
            raise typer.Exit(130)
        data, facts, stopped = e.data, e.facts, e
    except GameFailed as e:  # at the rule where the engine stopped, when it says where
        typer.echo(e.render() + "\nnothing was written" if e.file else f"error: {e.message}; nothing was written",
                   err=True)
        raise typer.Exit(1)
    except CardRulesError as e:
        typer.echo(e.render() + "\nnothing was written", err=True)
        raise typer.Exit(1)
    except WorkersLost as e:
        typer.echo(f"error: {e}; nothing was written", err=True)
        raise typer.Exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing was written", err=True)
        raise typer.Exit(130)
    finally:
        if runner is not None:
            runner.close()
    html = render_html(data, facts)
    try:
        written = write_report(out, data, html)
    except OSError as e:
        typer.echo(f"{out}: error: the report was not written: {e.strerror or e}", err=True)
        raise typer.Exit(1)
    for r in data["configurations"]:
        seats = ", ".join(f"{s} {w['rate'] * 100:.1f}%" for s, w in r["win_rate"].items())
        unfinished = r["games"] - r["finished"]
        cut = (f" ({unfinished} stopped unfinished at {HARD_CAP:,} decisions)" if unfinished else "")
        sides = ("; sides: " + ", ".join(f"{s} {w['rate'] * 100:.1f}%" for s, w in r["sides"].items())
                 if r.get("sides") else "")
        typer.echo(f"{r['configuration']}: {r['games']} games{cut}; won: {seats}{sides}{loss_text(r)}; "
                   f"{r['fairness']['verdict']}")
        if r.get("skill"):
            s = r["skill"]
            ci = f"95% {s['ci'][0] * 100:.1f}-{s['ci'][1] * 100:.1f}%"
            if r["players"] > 1:
                typer.echo(f"  skill: {s['strong']} won {s['win_rate'] * 100:.1f}%"
                           + (" with its side" if s.get("by_side") else "")
                           + f" against {s['others']} ({ci}; an equal share is {s['fair_share'] * 100:.1f}%): "
                           f"{s['verdict']}")
            elif s.get("by_score"):  # (every end a win: the mean score tells)
                b = s["by_score"]
                typer.echo(f"  skill: {s['strong']} scored {b['strong']['mean']:.2f} a game, {s['others']} playing alone "
                           f"{b['others']['mean']:.2f} (the {b['better']} the better; difference {b['difference']:+.2f}, "
                           f"95% {b['ci'][0]:+.2f} to {b['ci'][1]:+.2f}): {s['verdict']}")
            else:
                typer.echo(f"  skill: {s['strong']} won {s['win_rate'] * 100:.1f}% of its games ({ci}; {s['others']}, "
                           f"playing alone, won {s['fair_share'] * 100:.1f}%): {s['verdict']}")
            if s.get("why") and s["why"] != "as asked":
                typer.echo(f"    ({s['strong']}: {s['why']})")
        if r.get("equilibrium"):
            typer.echo(equilibrium_line(r["configuration"], r["players"], r["equilibrium"]))
        if r["never_fired"]:
            typer.echo(f"  never used: {', '.join(r['never_fired'])}")
    for c in data["comparisons"]:
        sig = [row["statistic"] for row in c["rows"] if row["significant"]]
        typer.echo(f"{c['b']} against {c['a']}: " + (f"significant differences in {len(sig)} statistic{'s' if len(sig) != 1 else ''}: "
                                                      + "; ".join(sig) if sig else "no significant difference")
                   + (f" (played by {c['players'][0]} and {c['players'][1]} players: a seat's share of wins differs "
                      "with the size of the table)" if c["players"][0] != c["players"][1] else ""))
    for p in written:
        typer.echo(str(p))
    if stopped is not None:
        any_strong = any(player is not None for player in strongs)
        skill = f" --skill-games {stopped.skill_games}" if any_strong else ""
        typer.echo(f"interrupted: the report covers the first {stopped.games} games of each configuration"
                   + (f" and {stopped.skill_games} skill games" if any_strong else "")
                   + f" (of {games}), as --games {stopped.games}{skill} would give", err=True)
        raise typer.Exit(130)


def _solve_all(configs: list[Config], iterations: int, limit: int | None) -> list[dict]:
    """--solve: each configuration's equilibrium (solve.equilibrium), each said on stderr as it
    is found. Ctrl-C stops the command, writing nothing."""
    from ..balance.equilibria import equilibrium
    out = []
    try:
        for cfg in configs:
            from ..engine import counted
            typer.echo(f"solving {cfg.label} ({counted(cfg.players, 'player')}) whole by CFR+, {iterations:,} iterations ...",
                       err=True)
            out.append(equilibrium(cfg, iterations, limit))
            e = out[-1]
            typer.echo(f"  {'solved' if e['solved'] else 'not solved'} in {e['seconds']:.2f} s", err=True)
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing was written", err=True)
        raise typer.Exit(130)
    return out


HEARTBEAT = 30.0  # seconds between the lines that say how far the games have gone where no bar is drawn


class _Heartbeat:
    """Where stderr is no terminal (a log, CI, a pipe), a line every HEARTBEAT seconds saying
    how far the games have gone: the bar is not drawn there, and the skill games of a deep
    patience take minutes each (a new user's Spider: nothing said for 100 s)."""

    def __init__(self, line, on: bool):
        import threading
        self.line, self.on, self.stop = line, on, threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True) if on else None

    def _run(self):
        import time
        t0 = time.monotonic()
        while not self.stop.wait(HEARTBEAT):
            typer.echo(self.line(time.monotonic() - t0), err=True)

    def __enter__(self):
        if self.thread is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        return False

