"""Balance reports: is a ruleset fair to every seat, how long does it last, does skill matter,
and what does a change do? `cardrules balance` plays K seeded games per configuration with
the bots asked for and writes DIR/report.html (plots embedded as SVG) and DIR/report.json.

The parts: `games` (playing, and the facts kept per game), `stats` (intervals and tests),
`analysis` (facts to answers; two configurations side by side), `plots` (one matplotlib
figure per question), `solve` (what the games cannot tell: each configuration's value under
best play, `--solve`, and the strongest player its game allows, `--strong auto`), and this
front door (the report and the command)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from .. import engines
from ..errors import CardRulesError, OptionError
from ..files import write_atomic
from ..runner import ENGINE_HELP
from .analysis import analyse, compare
from .games import HARD_CAP, Config, GameFacts, GameFailed, play_config
from .solve import equilibrium_line, value_text

FORMAT = "cardrules-balance/1"

__all__ = ["Config", "GameFacts", "GameFailed", "ReportInterrupted", "analyse", "compare", "play_config", "make_report",
           "write_report", "render_html", "balance_command"]


class ReportInterrupted(KeyboardInterrupt):
    """Ctrl-C while the games of a report were played (a KeyboardInterrupt to callers that do
    not look further). `data` and `facts` are the report over the games every configuration had
    finished, from the first: `games` of each (and `skill_games` skill games), as --games and
    --skill-games of those would give; None when some configuration had not finished one."""

    def __init__(self, data: dict | None, facts: list | None, games: int, skill_games: int):
        super().__init__("interrupted")
        self.data, self.facts, self.games, self.skill_games = data, facts, games, skill_games


def _strongs(configs: list[Config], strong) -> list:
    """`strong` (one player's spec for every configuration, None, or a list of one per
    configuration) as a list of one per configuration."""
    if isinstance(strong, (list, tuple)):
        if len(strong) != len(configs):
            raise ValueError("give one strong player per configuration")
        return list(strong)
    return [strong] * len(configs)


def _runs(configs: list[Config], games: int, strong, skill_games: int) -> list[tuple[Config, int]]:
    """What is played, in order: each configuration's games, then (with its strong player) its
    skill games."""
    runs = []
    for cfg, player in zip(configs, _strongs(configs, strong)):
        runs.append((cfg, games))
        if player is not None and skill_games > 0:
            runs.append((Config(label=cfg.label + " (skill)", path=cfg.path, rs=cfg.rs, players=cfg.players,
                                options=cfg.options, bots=cfg.bots, rotate=player), skill_games))
    return runs


def _bots(cfg: Config) -> tuple:
    """The specs of a run's players (its rotating strong player among them)."""
    return tuple(cfg.bots) + ((cfg.rotate,) if cfg.rotate else ())


def run_engine(engine: str, cfg: Config) -> str:
    """The engine one run of a report plays on (make_report's `engine`): "native" or "python"."""
    return engines.run_engine(engine, _bots(cfg))


def engine_line(choice, requested: str, runs: list) -> tuple[str, str]:
    """make_report's engine for a choice (engines.choose), and the one line saying it: under
    auto, runs with players that decide in Python play in Python, and the line says so."""
    return engines.per_run(choice, requested, [_bots(cfg) for cfg, _ in runs])


def make_report(configs: list[Config], games: int, seed: int, strong: str | list | None = "greedy",
                skill_games: int | None = None, progress=None, runner=None,
                engine: str = "python", strong_why: list | None = None,
                equilibria: list | None = None) -> tuple[dict, list[list[GameFacts]]]:
    """Play every configuration (and, with `strong`, the skill games) and analyse them.
    `strong`: the skill question's player, one for all or a list of one per configuration (None:
    no skill games for it); `strong_why`: a list of why each was chosen, in words, kept in the
    report; `equilibria`: a list of each configuration's equilibrium (solve.equilibrium), kept
    in the report as it is.
    Returns the report data (JSON-ready) and the facts of each configuration's games. With a
    runner (interpreter.runner) the games are played by its workers, with the same results;
    `engine` "native" plays them on the native engine (engines.choose chose it), with
    the same results too; "auto" (native chosen under --engine auto) plays on it the runs whose
    players all choose in C (engines.IN_C: every bundled player), and the others (a player that
    decides in Python alone and reads the position as it searches: slower from a game in C) in
    Python. Ctrl-C raises ReportInterrupted."""
    from ..engines import native_of
    skill_games = games if skill_games is None else skill_games
    runs = _runs(configs, games, strong, skill_games)
    if runner is not None:
        from .jobs import balance as play_runs
        facts, interrupted = play_runs(runner, [(cfg, k) for cfg, k in runs], seed, progress,
                                       [run_engine(engine, cfg) for cfg, _ in runs])
    else:
        facts, interrupted = [], False
        try:
            for cfg, k in runs:
                facts.append([])
                play_config(cfg, k, seed, progress, facts[-1], native_of(cfg.rs, run_engine(engine, cfg)))
        except KeyboardInterrupt:
            interrupted = True
            facts += [[] for _ in runs[len(facts):]]
    if interrupted:
        skill = [cfg.rotate is not None for cfg, _ in runs]
        m = min(len(f) for f, s in zip(facts, skill) if not s)
        m2 = min((len(f) for f, s in zip(facts, skill) if s), default=0)
        if m == 0:
            raise ReportInterrupted(None, None, 0, 0)
        kept = [f[:m2 if s else m] for f, s in zip(facts, skill)]
        data, all_facts = _report(configs, runs, kept, m, m2, seed, strong_why, equilibria)
        raise ReportInterrupted(data, all_facts, m, m2)
    return _report(configs, runs, facts, games, skill_games, seed, strong_why, equilibria)


def _report(configs, runs, facts, games: int, skill_games: int, seed: int, strong_why=None,
            equilibria=None) -> tuple[dict, list[list[GameFacts]]]:
    reports, all_facts = [], []
    played = list(zip(runs, facts))
    for j, cfg in enumerate(configs):
        (_, _), own = played.pop(0)
        skill = None
        if played and played[0][0][0].rotate is not None:
            (scfg, _), sfacts = played.pop(0)
            if skill_games > 0:
                skill = (scfg, sfacts)
        reports.append(analyse(cfg, own, skill))
        if reports[-1]["skill"] is not None and strong_why is not None:
            reports[-1]["skill"]["why"] = strong_why[j]
        if equilibria is not None:
            reports[-1]["equilibrium"] = equilibria[j]
        all_facts.append(own)
    data = {"format": FORMAT, "seed": seed, "games": games, "configurations": reports,
            "comparisons": [compare(reports[0], r, all_facts[0], f)
                            for r, f in zip(reports[1:], all_facts[1:])]}
    return _rounded(data), all_facts


def _rounded(x):
    """Floats to 6 significant decimals, so the JSON is short and stable."""
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_rounded(v) for v in x]
    return x


def _pct(x) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def _num(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x)}" if abs(x) < 1e15 else f"{x:g}"
    return f"{x:.{digits}f}"


def _fmt(row: dict, x, signed: bool = False) -> str:
    share = "share" in row["statistic"]
    if share:
        return (f"{x * 100:+.1f} points" if signed else _pct(x))
    return f"{x:+.2f}" if signed else _num(x)


def render_html(data: dict, facts: list[list[GameFacts]]) -> str:
    import jinja2

    from . import plots
    reports = data["configurations"]
    labels = [r["configuration"] for r in reports]
    figs = {"win_rates": plots.win_rates(reports),
            "length": plots.histogram([[f.decisions for f in fs] for fs in facts], labels,
                                      "decisions in the game", "Game length"),
            "rules": plots.rules(reports)}
    if reports[0]["keeps_score"]:
        figs["scores"] = plots.scores(reports, facts)
        margins = []
        for fs in facts:
            ms = []
            for f in fs:
                if f.winners and len(f.winners) < len(f.scores):
                    others = [v for i, v in enumerate(f.scores) if i not in f.winners]
                    best = f.scores[f.winners[0]]
                    ms.append(abs(best - (max(others) if best >= max(others) else min(others))))
            margins.append(ms)
        # no winner in any game (all stopped unfinished, say): a sentence says so instead of an empty plot
        if any(margins):
            figs["margin"] = plots.histogram(margins, labels, "winner's lead over the best other player at the end",
                                             "Margin of victory")
        if any(r["lead"]["games"] for r in reports):
            figs["lead"] = plots.histogram([[f.lead_changes or 0 for f in fs] for fs in facts], labels,
                                           "times the sole leader changed during the game", "Lead changes")
    if reports[0].get("skill"):
        figs["skill"] = plots.skill(reports)
    env = jinja2.Environment(loader=jinja2.PackageLoader("interpreter", "templates"), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    names = list(dict.fromkeys(n for r in reports for n in r["rules"]))
    titles = {n: next(r["rules"][n]["title"] for r in reports if n in r["rules"]) for n in names}
    cmp = data["comparisons"][0] if data["comparisons"] else None
    return env.get_template("balance.html.j2").render(
        title=reports[0]["title"], reports=reports, seed=data["seed"], figs=figs, comparison=cmp,
        player_counts=list(dict.fromkeys(r["players"] for r in reports)),
        seat_names=list(max(reports, key=lambda r: r["players"])["win_rate"]),
        rule_names=names, rule_titles=titles, move_names=list(dict.fromkeys(n for r in reports for n in r["moves"])), pct=_pct, num=_num, fmt=_fmt,
        value_text=value_text)


def write_report(out: Path, data: dict, html: str) -> list[Path]:
    """Write report.json and report.html into `out`, each complete or not at all."""
    written = []
    for name, text in (("report.json", json.dumps(data, indent=2, sort_keys=False) + "\n"), ("report.html", html)):
        write_atomic(out / name, text)
        written.append(out / name)
    return written


# ------------------------------------------------------------------ the command

def _configs(path: Path, against: Path | None, players: int | None, options: list[str],
             bots: list[str]) -> list[Config]:
    from .. import load_ruleset
    from ..args import parse_bots, parse_options
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
    bot: Annotated[list[str] | None, typer.Option("--bot", "-b", metavar="[SEAT=]NAME", help="The players: a bot for every seat, or SEAT=NAME (repeatable). Default: random.")] = None,
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
    from ..bots import make_bot
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
        from ..engines import choose
        choice = choose([program_of(c.rs) for c in configs], engine_name)
        runner = open_runner(workers, cluster)
    except OptionError as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(2)
    except CardRulesError as e:
        typer.echo(e.render(), err=True)
        raise typer.Exit(1)
    k_skill = games if skill_games is None else skill_games
    try:  # (the runner is closed below once the games are played; here if the command stops first)
        strongs, whys = _strong_players(configs, strong_name, choice, engine_name)
        engine, line = engine_line(choice, engine_name, _runs(configs, games, strongs, k_skill))
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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    show = sys.stderr.isatty() or total >= 50
    bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(file=sys.stderr), transient=False, disable=not show)
    stopped = None
    try:
        with bar:
            task = bar.add_task("games", total=total)
            data, facts = make_report(configs, games, seed, strongs, k_skill,
                                      lambda n=1: bar.advance(task, n), runner, engine, whys, equilibria)
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
        typer.echo(f"{r['configuration']}: {r['games']} games{cut}; won: {seats}; {r['fairness']['verdict']}")
        if r.get("skill"):
            s = r["skill"]
            ci = f"95% {s['ci'][0] * 100:.1f}-{s['ci'][1] * 100:.1f}%"
            if r["players"] > 1:
                typer.echo(f"  skill: {s['strong']} won {s['win_rate'] * 100:.1f}% against {s['others']} ({ci}): "
                           f"{s['verdict']}")
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


def _strong_players(configs: list[Config], strong: str | None, choice, requested: str) -> tuple[list, list]:
    """The skill question's player of each configuration and why, in words: as asked, or under
    auto the strongest its game allows (solve.strongest), the search player only where its
    skill games play on the native engine (the engine chosen, and, under auto, no player at the
    table that decides in Python)."""
    from ..engines import deciding_in_python
    from .solve import strongest
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


def _solve_all(configs: list[Config], iterations: int, limit: int | None) -> list[dict]:
    """--solve: each configuration's equilibrium (solve.equilibrium), each said on stderr as it
    is found. Ctrl-C stops the command, writing nothing."""
    from .solve import equilibrium
    out = []
    try:
        for cfg in configs:
            typer.echo(f"solving {cfg.label} ({cfg.players} players) whole by CFR+, {iterations:,} iterations ...",
                       err=True)
            out.append(equilibrium(cfg, iterations, limit))
            e = out[-1]
            typer.echo(f"  {'solved' if e['solved'] else 'not solved'} in {e['seconds']:.2f} s", err=True)
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing was written", err=True)
        raise typer.Exit(130)
    return out


# ------------------------------------------------------------------ diff --play

def play_comparison(ra, rb, labels: tuple[str, str], games: int, seed: int = 0, players: int | None = None,
                    progress=None, engine: str = "python") -> dict:
    """Random players on both rulesets, the same seeds: the side-by-side table of `balance
    --against`, for `cardrules diff A B --play K`, played on `engine` ("python" or "native":
    the same table). OptionError when no player count suits both."""
    lo, hi = max(ra.players_min, rb.players_min), min(ra.players_max, rb.players_max)
    n = players if players is not None else lo
    if lo > hi or not lo <= n <= hi:
        raise OptionError(f"the two rulesets are not played by the same number of players "
                          f"({ra.players_min}-{ra.players_max} and {rb.players_min}-{rb.players_max}), "
                          "so they cannot be compared by play")
    bots = tuple("random" for _ in range(n))
    configs = [Config(label=labels[0], path=labels[0], rs=ra, players=n, bots=bots),
               Config(label=labels[1], path=labels[1], rs=rb, players=n, bots=bots)]
    data, _ = make_report(configs, games, seed, strong=None, progress=progress, engine=engine)
    return data


def comparison_table(data: dict, fmt: str = "text") -> str:
    """The comparison as plain text, Markdown or an HTML fragment."""
    c = data["comparisons"][0]
    k, n = data["games"], data["configurations"][0]["players"]
    head = (f"Played: {k} games each, {n} random players, seeds {data['seed']} to {data['seed'] + k - 1}; "
            f"B minus A with its 95% interval, * where the interval leaves out zero")
    rows = [(r["statistic"], _fmt(r, r["a"]), _fmt(r, r["b"]), _fmt(r, r["difference"], True),
             f"{_fmt(r, r['ci'][0], True)} to {_fmt(r, r['ci'][1], True)}", "*" if r["significant"] else "")
            for r in c["rows"]]
    cols = ("statistic", "A", "B", "difference", "95% interval", "")
    if fmt == "md":
        out = [f"## {head}", "", "| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
        out += ["| " + " | ".join(x.replace("|", "\\|") for x in row) + " |" for row in rows]
        return "\n".join(out) + "\n"
    if fmt == "html":
        import html as h
        cells = "".join(f"<th>{h.escape(x)}</th>" for x in cols)
        body = "".join("<tr>" + "".join(f"<td>{h.escape(x)}</td>" for x in row) + "</tr>" for row in rows)
        return f"<section class=\"played\"><h2>{h.escape(head)}</h2><table><tr>{cells}</tr>{body}</table></section>\n"
    widths = [max(len(cols[i]), *(len(r[i]) for r in rows)) for i in range(len(cols))]
    line = lambda xs: "  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(xs, widths))).rstrip()
    return "\n".join([head, "=" * min(len(head), 96), line(cols), *(line(r) for r in rows)]) + "\n"
