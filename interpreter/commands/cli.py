"""The `cardrules` command line: check rulesets, play them (bots or a person at the
terminal), replay game records, and write rulebooks.

Exit codes: 0 success; 1 an invalid ruleset, a game that breaks, a record that does not
replay, a file that cannot be read or written, or a person quitting a game; 2 a usage
error (an unknown option or bad value, a player count the game does not allow, ...)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from .. import engines, load_ruleset, players_text as _players_text, verdict
from .args import parse_bots as _parse_bots, parse_options as _parse_options, parse_seat as _parse_seat
from ..players.bots import BOTS
from ..files import loads_json
from ..engine import (RECORD_FORMAT, counted, fired_counts, make_record, outcome, program_of, read_record, replay,  # noqa: F401
                     resolve_options, seat_name, validate_record, write_record)
from ..errors import CardRulesError, GameRuntimeError, OptionError, RecordError
from ..playing import GameBroke, Human, Quit, Tally, broke_in_python as _broke_in_python, play_one as _play_one
from ..runner import ENGINE_HELP

RECORDS_FORMAT = "cardrules-records/1"  # several game records in one file (play --games K --log)
TABLE_FORMAT = "cardrules-table/1"  # a table of `cardrules serve`: its seats and, under "record", its game

class _PlainFlags:
    """A flag takes no value, so its help shows none: typer's rich help prints a type for every
    option, a flag's too (`--help <bool>`); a flag's metavar left empty leaves that column blank.
    An argument is named in capitals (PATH), and the usage line shows it so, not as `{path}`."""

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for p in params:
            if getattr(p, "is_flag", False) and getattr(p, "metavar", None) is None:
                p.metavar = ""
            elif getattr(p, "param_type_name", None) == "argument" and p.metavar is None and p.name:
                p.metavar = p.name.upper()
        return params

    def collect_usage_pieces(self, ctx):
        pieces = [self.options_metavar] if self.options_metavar else []
        for p in self.get_params(ctx):
            if getattr(p, "param_type_name", None) != "argument":
                pieces.extend(p.get_usage_pieces(ctx))
                continue
            piece = p.metavar + ("..." if p.nargs != 1 else "")
            pieces.append(piece if p.required else f"[{piece}]")
        if isinstance(self, TyperGroup):
            pieces.append(self.subcommand_metavar)
        return pieces


class _Group(_PlainFlags, TyperGroup):
    pass


class _Command(_PlainFlags, TyperCommand):
    pass


app = typer.Typer(
    name="cardrules",
    cls=_Group,
    help="Card games as data: check rulesets, play them, replay records, write rulebooks.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


def main() -> None:
    """The console-script entry point (`cardrules`, `python -m interpreter`). SIGTERM (`timeout`,
    a job stopped from outside) is answered as Ctrl-C is: the games played so far are kept and
    said, nothing is half-written, exit 130 (a new user's `timeout 900 cardrules balance ...`
    left nothing after 15 minutes of games)."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    app(prog_name="cardrules")


def _terminated(signum, frame) -> NoReturn:
    raise KeyboardInterrupt


def _command(name: str | None = None, *, short_help: str):
    """`app.command`, with the one sentence `cardrules --help` shows for the command (typer would
    cut the docstring's first paragraph at a width, or keep its line breaks)."""
    return app.command(name, cls=_Command, short_help=short_help)


# ------------------------------------------------------------------ small helpers

def _err(text: str) -> None:
    typer.echo(text, err=True)


def _fail(text: str, code: int = 1) -> NoReturn:
    _err(text)
    raise typer.Exit(code)


def _resolve(path: Path) -> Path:
    """A ruleset argument: a file, or a bundled game's name; exit 1 when neither."""
    from ..bundled import resolve
    try:
        return resolve(path)
    except OptionError as e:
        _fail(f"{path}: error: {e.message}", 1)


def _load(path: Path):
    """Load a ruleset or exit 1 with the rendered error (never a traceback)."""
    try:
        return load_ruleset(path)
    except CardRulesError as e:
        _fail(e.render(), 1)
    except OSError as e:
        _fail(f"{path}: error: cannot read the ruleset: {e.strerror or e}", 1)


def _title(rs) -> str:
    return rs.title or rs.name


# ------------------------------------------------------------------ check

@_command(short_help="Check rulesets and report their errors.")
def check(paths: Annotated[list[Path], typer.Argument(help="Ruleset files (.cards), or folders to search for them.")]) -> None:
    """Load and fully check rulesets; print `PATH: ok (...)` or the errors."""
    files: list[Path] = []
    bad = False
    for p in paths:
        if os.path.isdir(p):
            found = sorted(p.rglob("*.cards"))
            if not found:
                _err(f"{p}: error: no .cards files in this folder")
                bad = True
            files.extend(found)
        else:
            files.append(p)
    for f in files:
        try:
            rs = load_ruleset(f)
        except CardRulesError as e:
            _err(e.render())
            bad = True
            continue
        except OSError as e:
            _err(f"{f}: error: cannot read the ruleset: {e.strerror or e}")
            bad = True
            continue
        typer.echo(f"{f}: ok ({verdict(rs)})")  # load_ruleset keeps it for the next check (launch.py)
    raise typer.Exit(1 if bad else 0)


# ------------------------------------------------------------------ play

def _summary(rs, path: Path, players: int, seed: int, tally: Tally, options: dict,
             bot_names: dict[int, str], human: int | None) -> dict:
    k = tally.games
    program = program_of(rs)
    seats = [seat_name(i) for i in range(players)]
    wins, totals = tally.wins, tally.totals
    fired_total = {name: tally.fired.get(name, 0) for name in program.rule_names}
    return {
        "ruleset": str(path),
        "game": rs.name,
        "title": _title(rs),
        "players": players,
        "games": k,
        "seeds": [seed, seed + k - 1],
        "options": options,
        "seats": {s: ("human" if i == human else bot_names[i]) for i, s in enumerate(seats)},
        "wins": {s: wins[i] for i, s in enumerate(seats)},
        "win_fraction": {s: round(wins[i] / k, 4) for i, s in enumerate(seats)},
        # a win shared by k counted 1/k for each, as `balance` counts (the seats' shares sum to the
        # games someone won)
        "win_share": {s: round(tally.split[i] / tally.unit / k, 4) for i, s in enumerate(seats)},
        "mean_score": {s: round(totals[i] / k, 4) for i, s in enumerate(seats)},
        "keeps_score": program.score is not None,  # (without a `winner` line every mean score is 0)
        "shared_wins": tally.shared,
        "mean_decisions": round(tally.decisions / k, 4),
        "rules": {name: {"title": program.rule_titles.get(name, name), "fired": fired_total[name],
                         "per_game": round(fired_total[name] / k, 4)} for name in program.rule_names},
        "results": [],  # each game's entry: tally.results, as JSON text (summary_json)
    }


def summary_json(data: dict, tally: Tally) -> str:
    """The summary as `--json` prints it (json.dumps with an indent of 2), its list of results
    joined from the entries' texts made where the games were played (playing.result_text)."""
    text = json.dumps(data, indent=2)
    if not tally.results:
        return text
    tail = '"results": []\n}'
    assert text.endswith(tail)  # (the list is the summary's last entry)
    return text[:-len(tail)] + '"results": [\n' + ",\n".join(tally.results) + "\n  ]\n}"


def _print_summary(data: dict) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    out = sys.stdout
    console = Console(file=out, width=None if out.isatty() else 100, highlight=False, emoji=False,
                      markup=False)
    k = data["games"]
    lo, hi = data["seeds"]
    seeds = f"seed {lo}" if k == 1 else f"seeds {lo}-{hi}"
    typer.echo(f"{data['title']}: {counted(k, 'game')}, {counted(data['players'], 'player')}, {seeds}")
    opts = " ".join(f"{n}={json.dumps(v) if not isinstance(v, str) else v}" for n, v in data["options"].items())
    if opts:
        typer.echo(f"options: {opts}")
    seats = Table(box=box.SIMPLE_HEAD, title=None)
    scored = data.get("keeps_score", True)
    split = data["shared_wins"] > 0  # (without shared wins the two shares are one)
    for col, just in (("seat", "left"), ("player", "left"), ("wins", "right"),
                      ("games won", "right") if split else ("win share", "right"),
                      *((("win share", "right"),) if split else ()), *((("mean score", "right"),) if scored else ())):
        seats.add_column(col, justify=just)
    for s in data["wins"]:
        seats.add_row(s, data["seats"][s], str(data["wins"][s]), f"{data['win_fraction'][s]:.1%}",
                      *((f"{data['win_share'][s]:.1%}",) if split else ()),
                      *((f"{data['mean_score'][s]:.2f}",) if scored else ()))
    console.print(seats)
    if not scored:
        typer.echo("no score is kept, so none is shown (the rules name the winners; a game that keeps one says so "
                   "with a line 'winner most NAME', or fewest)")
    typer.echo(f"shared wins: {data['shared_wins']} of {k} games; "
               f"mean decisions per game: {data['mean_decisions']:.2f}")
    if split:
        typer.echo("a shared win counts as a win for each of its winners in 'games won', and 1/k for each of "
                   "k winners in 'win share' (as balance counts it)")
    rules = Table(box=box.SIMPLE_HEAD)
    for col, just in (("rule", "left"), ("title", "left"), ("fired", "right"), ("per game", "right")):
        rules.add_column(col, justify=just)
    for name, r in data["rules"].items():
        rules.add_row(name, r["title"], str(r["fired"]), f"{r['per_game']:.2f}")
    console.print(rules)


def _write_log(log: Path, records: list[dict], many: bool, ruleset: Path | None = None) -> None:
    """One game: its record; several: {"format": "cardrules-records/1", "records": [...]}. Each
    record names its ruleset portably (a bundled game's name, or the path from the record's
    folder) with the ruleset's content hash, so that it replays on another machine and says
    when the rules have changed since."""
    if ruleset is not None:
        from ..bundled import content_hash, record_ref
        ref, digest = record_ref(ruleset, log), content_hash(ruleset)
        for rec in records:
            rec["ruleset"] = ref
            rec["ruleset_sha256"] = digest
    data = {"format": RECORDS_FORMAT, "records": records} if many else records[0]
    try:
        write_record(data, log)
    except OSError as e:
        _fail(f"{log}: error: cannot write the log: {e.strerror or e}", 1)


@_command(short_help="Play games with bots, or yourself, and sum up the results.")
def play(
    path: Annotated[Path, typer.Argument(help="The ruleset (.cards) to play.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players (default: the fewest the game allows).")] = None,
    games: Annotated[int, typer.Option("--games", "-k", min=1, help="How many games to play.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed+i.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="Set a game option (repeatable).")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", "-b", metavar="[SEAT=]NAME", help=f"Bot for every seat, or SEAT=NAME for one seat (repeatable; a seat named keeps its bot whatever the order). Bots: {', '.join(BOTS)}. Default: random.")] = None,
    log: Annotated[Path | None, typer.Option("--log", help="Write the game record (several games: one records file) here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object, and nothing else.")] = False,
    human: Annotated[str | None, typer.Option("--human", metavar="SEAT", help="Play this seat (1-based, or P1..) yourself at the terminal.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", help="Processes to play in (default: one per core; 1: this process only). The results are the same for any N.")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="tcp://HOST:PORT", help="Play on this Dask scheduler's workers (default: $CARDRULES_CLUSTER; needs the cluster extra).")] = None,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP)] = "auto",
) -> None:
    """Play games with bots (or yourself) and summarise wins, scores and the rules used."""
    path = _resolve(path)
    rs = _load(path)
    n = players if players is not None else rs.players_min
    try:
        if as_json and human is not None:
            raise OptionError("--json and --human cannot be combined (the game is shown on standard output)")
        if log is not None and log.is_dir():  # said before the games, not after them
            raise OptionError(f"--log {log} is a folder; name the file to write the record to")
        if not (rs.players_min <= n <= rs.players_max):
            span = str(rs.players_min) if rs.players_min == rs.players_max else f"{rs.players_min} to {rs.players_max}"
            raise OptionError(f"{_title(rs)} is for {span} players, not {n}")
        opts = _parse_options(option or [])
        resolved = resolve_options(program_of(rs), opts)  # checked before any game is played
        bot_names = _parse_bots(bot or [], n)
        human_seat = _parse_seat(human, n, "--human") if human is not None else None
        from ..runner import open_runner, parse_workers
        parse_workers(workers)
        choice = _engine_for_play(program_of(rs), engine_name, bot_names, human_seat)
        choice = _seeds_for_c(choice, engine_name, bot_names, seed, games)
        runner = open_runner(workers, cluster) if games > 1 and human_seat is None else None
    except OptionError as e:
        _fail(f"error: {e.message}", 2)
    if not as_json:
        _err(choice.line)
    program = program_of(rs)
    resolved_opts = {o.name: v for o, v in zip(program.options, resolved)}
    person = Human(human_seat) if human_seat is not None else None
    if runner is not None:  # several processes, or a cluster: the same games, summary and log
        return _play_parallel(runner, rs, path, n, opts, resolved_opts, seed, games, bot_names, log, as_json,
                              choice.name)

    if person is not None:
        others = ", ".join(f"{seat_name(s)} {bot_names[s]}" for s in range(n) if s != human_seat)
        typer.echo(f"{_title(rs)}: you are {seat_name(human_seat)} of {n}; the others are bots ({others})."
                   if others else f"{_title(rs)}: you play alone, as {seat_name(human_seat)}.")

    results = Tally(n, keep=as_json)
    records: list[dict] = []
    interrupted = False
    show_progress = (games > 1 and person is None and (sys.stdout.isatty() or games >= 50))
    progress = None
    task = None
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        progress = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(file=sys.stderr), transient=False)
        progress.start()
        task = progress.add_task("games", total=games)
    try:
        whole_in_c = choice.native is not None and engines.all_random(bot_names.values())
        if whole_in_c:  # random bots: whole games in C, a chunk a call
            from ..runner.native import play_chunk
            done: list = []
            try:
                _, broke = play_chunk(rs, str(path), n, opts, seed, range(games), log is not None,
                                      lambda s: _broke_in_python(rs, path, n, opts, s, bot_names, log is not None),
                                      (lambda k: progress.advance(task, k)) if progress is not None else None, done)
            finally:  # (after Ctrl-C too: the games that finished are kept, as the Python engine keeps them)
                for game_seed, winners, scores, decisions, fired, rec in done:
                    results.add(game_seed, winners, scores, decisions, fired)
                    if rec is not None:
                        records.append(rec)
            if broke is not None:
                if progress is not None:
                    progress.stop()
                    progress = None
                _err(broke[1][0])
                if log is not None and broke[1][1] is not None:
                    _write_log(log, records + [broke[1][1]], games > 1, path)
                    _err(f"the record of the games so far, up to the failure, is in {log}")
                raise typer.Exit(1)
        for i in range(0 if whole_in_c else games):
            game_seed = seed + i
            if person is not None and games > 1:
                typer.echo(f"=== game {i + 1} of {games} (seed {game_seed}) ===")
            try:
                state = _play_one(rs, n, opts, game_seed, bot_names, person, choice.native is not None)
            except GameBroke as e:
                if progress is not None:
                    progress.stop()
                    progress = None
                _err(e.render())
                if log is not None and e.state is not None:
                    records.append(make_record(e.state, str(path)))
                    _write_log(log, records, games > 1, path)
                    _err(f"the record of the games so far, up to the failure, is in {log}")
                raise typer.Exit(1)
            except Quit as q:
                _fail(f"game abandoned after {q.moves} moves: you quit ({q})", 1)
            o = outcome(state)
            results.add(game_seed, o.winners, o.scores, state.decisions, fired_counts(state))
            if log is not None:
                records.append(make_record(state, str(path)))
            if person is not None:
                typer.echo(f"game over: {o}" if program.score is not None  # (no score kept: no scores of 0)
                           else f"game over: won by {', '.join(seat_name(w) for w in o.winners) or 'nobody'}")
            if progress is not None:
                progress.advance(task)
    except KeyboardInterrupt:
        if person is not None:
            raise
        interrupted = True
    finally:
        if progress is not None:
            progress.stop()
    if interrupted:
        _interrupted(results.games, games, seed, log)

    data = _summary(rs, path, n, seed, results, resolved_opts, bot_names, human_seat)
    if as_json:
        typer.echo(summary_json(data, results))
    elif person is None or games > 1:
        _print_summary(data)
    if log is not None:
        _write_log(log, records, games > 1, path)
    if interrupted:
        raise typer.Exit(130)


C_SEEDS = (0, (2**63 - 1 - 1000) // 1000 - 1)  # the seeds whole games in C take (a bot's seed is seed*1000+k in 64 bits)


def _engine_for_play(program, requested: str, bot_names: dict, human_seat):
    """The engine `play` uses (engines.choose): Python where a person plays; an OptionError
    (exit 2) when the one asked for cannot be had. A cluster's workers play on the engine chosen
    here, each building the ruleset's C itself (Python on a machine without a compiler: the same
    games, and a line says so)."""
    from ..engines import choose
    why = "a person plays" if human_seat is not None else None
    return choose(program, requested, python_only=why, bots=bot_names.values())


def _seeds_for_c(choice, engine_name: str, bot_names: dict, seed: int, games: int):
    """Random bots on the native engine play whole games in C, whose seeds are 64-bit: seeds
    beyond them are played in Python under --engine auto (the same games, as any seed is), and
    are a usage error under --engine native (they gave a traceback, or another game)."""
    if choice.native is None or not engines.all_random(bot_names.values()):
        return choice
    lo, hi = C_SEEDS
    if lo <= seed and seed + games - 1 <= hi:
        return choice
    span = f"seeds {lo} to {hi}"
    if engine_name == "native":
        raise OptionError(f"--engine native plays random bots' games for {span}, not --seed {seed}"
                          + (f" with --games {games}" if games > 1 else "") + "; use --engine python")
    from ..engines import EngineChoice
    return EngineChoice(None, f"engine: python (the native engine plays {span}; --seed {seed} is beyond them)")


def _interrupted(kept: int, games: int, seed: int, log: Path | None) -> None:
    """Ctrl-C: say what is kept (the games from the first up to the first unfinished one, as
    --games KEPT would give); exit 130 at once when that is nothing."""
    if not kept:
        _fail("interrupted before the first game finished: nothing to summarise", 130)
    games_text = f"game 1 (seed {seed})" if kept == 1 else f"games 1-{kept} (seeds {seed}-{seed + kept - 1})"
    _err(f"interrupted: {kept} of {games} games kept; the summary{' and the log cover' if log else ' covers'} "
         f"{games_text}, as --games {kept} would")


def _play_parallel(runner, rs, path: Path, n: int, opts: dict, resolved_opts: dict, seed: int, games: int,
                   bot_names: dict[int, str], log: Path | None, as_json: bool, engine_name: str = "python") -> None:
    """`play` on worker processes or a cluster (interpreter.runner): games in chunks, put back
    in order, so the summary and the log are those of one process; one progress bar."""
    from ..runner import WorkersLost, progress_bar
    from ..playing import play as play_chunks
    bar = progress_bar(games, sys.stdout.isatty() or games >= 50)
    try:
        with runner, bar:
            task = bar.add_task("games", total=games)
            got = play_chunks(runner, path, rs, n, opts, seed, games, bot_names, log is not None,
                              lambda k: bar.advance(task, k), engine_name, keep=as_json)
    except WorkersLost as e:
        _fail(f"error: {e}", 1)
    if got.broke is not None:
        _err(got.broke)
        if log is not None and got.broke_record is not None:
            _write_log(log, got.records + [got.broke_record], True, path)
            _err(f"the record of the games so far, up to the failure, is in {log}")
        raise typer.Exit(1)
    if got.interrupted:
        _interrupted(got.tally.games, games, seed, log)
    data = _summary(rs, path, n, seed, got.tally, resolved_opts, bot_names, None)
    if as_json:
        typer.echo(summary_json(data, got.tally))
    else:
        _print_summary(data)
    if log is not None:
        _write_log(log, got.records, True, path)
    if got.interrupted:
        raise typer.Exit(130)


# ------------------------------------------------------------------ replay

def _read_records(path: Path) -> list[dict]:
    """One record (`play --log`), a records file (`play --games K --log`), or a served table's file."""
    from ..engine.records import read_record_text
    text = read_record_text(path)
    try:
        data = loads_json(text)
    except json.JSONDecodeError as e:
        lines = text.splitlines()
        src = lines[e.lineno - 1] if 0 < e.lineno <= len(lines) else None
        raise RecordError(f"the record is not valid JSON ({e.msg})", str(path), e.lineno, e.colno, src) from None
    if isinstance(data, dict) and data.get("format") == TABLE_FORMAT:  # a table of `cardrules serve`
        return [validate_record(data.get("record"), str(path))]
    if isinstance(data, dict) and data.get("format") == RECORDS_FORMAT:
        recs = data.get("records")
        if not isinstance(recs, list) or not recs:
            raise RecordError("the records file holds no \"records\" list", str(path))
        for i, rec in enumerate(recs, 1):
            validate_record(rec, f"{path} (record {i})")
        return recs
    return [read_record(path)]


def _find_ruleset(rec: dict, log: Path) -> Path:
    from ..bundled import find_for_record
    name = rec.get("ruleset")
    if not isinstance(name, str) or not name:
        raise RecordError("the record does not say which ruleset it was played with; pass --ruleset", str(log))
    found = find_for_record(name, log)
    if found is not None:
        return found
    where = "among the bundled games" if name.startswith("bundled:") else f"beside the record ({log.parent}) or here"
    raise RecordError(f"the record's ruleset {name!r} was not found {where}; pass --ruleset", str(log))


@_command("replay", short_help="Replay a game record and confirm it ends as recorded.")
def replay_cmd(
    log: Annotated[Path, typer.Argument(help="A record written by `play --log`.")],
    ruleset: Annotated[Path | None, typer.Option("--ruleset", "-r", help="The ruleset to replay with (default: the one the record names).")] = None,
) -> None:
    """Replay a game record move by move and confirm it reaches the recorded final state."""
    try:
        records = _read_records(log)
    except RecordError as e:
        _fail(e.render(), 1)
    loaded: dict[str, object] = {}
    many = len(records) > 1
    for i, rec in enumerate(records, 1):
        prefix = f"record {i} (seed {rec['seed']}): " if many else ""
        try:
            rpath = ruleset if ruleset is not None else _find_ruleset(rec, log)
        except RecordError as e:
            if many:
                e.message = prefix + e.message
            _fail(e.render(), 1)
        key = str(rpath)
        if key not in loaded:
            loaded[key] = _load(rpath)
        rs = loaded[key]
        if rec.get("game") not in (None, rs.name):
            _err(f"warning: {prefix}the record is of {rec.get('game')!r} but {rpath} is {rs.name!r}")
        recorded = rec.get("ruleset_sha256")
        if isinstance(recorded, str):
            from ..bundled import content_hash
            if content_hash(rpath) != recorded:
                _err(f"warning: {prefix}{rpath} has changed since this game was played (its content differs); "
                     "the replay says where the game no longer follows the rules")
        try:
            state = replay(rs, rec, str(log))
        except RecordError as e:
            if many:
                e.message = prefix + e.message
            _fail(e.render(), 1)
        except GameRuntimeError as e:
            _fail(f"{log}: error: {prefix}the ruleset breaks while replaying this game:\n{e.render()}", 1)
        n = len(rec["moves"])
        o = outcome(state)
        end = str(o) if o is not None else "game not finished"
        if o is not None and state.program.score is None:  # (a game that keeps no score)
            end = end.split("; scores ")[0]
        if rec["final"].get("digest"):
            typer.echo(f"{prefix}replayed {n} moves: identical final state ({end})")
        else:
            typer.echo(f"{prefix}replayed {n} moves ({end}); the record has no final digest to compare")


# ------------------------------------------------------------------ list

@_command("list", short_help="List the bundled games and their variants.")
def list_cmd() -> None:
    """List the bundled games, each with its player counts and variants; any of them can be
    named instead of a file (`cardrules play NAME`)."""
    from ..language.build import build_file
    from ..bundled import bundled, rulesets_root
    root = rulesets_root()
    full = {name: p for name, p in bundled().items() if "/" in name}
    short = {p: name for name, p in bundled().items() if "/" not in name}
    games: dict[Path, tuple[str, str, str]] = {}
    variants: dict[Path | None, list[tuple[str, str, str]]] = {}
    for name, p in sorted(full.items()):
        try:
            rs = build_file(p)
        except CardRulesError as e:
            _err(e.render())
            continue
        row = (short.get(p, name), _players_span(rs), _title_without_players(rs))
        if rs.base is not None:
            variants.setdefault(_base_of(p), []).append(row)
        else:
            games[p.resolve()] = row
    rows = []
    for p, row in games.items():
        rows.append(("", *row))
        rows.extend((VARIANT_INDENT, *v) for v in variants.get(p, []))
    rows.extend(("", *v) for b, vs in variants.items() if b not in games for v in vs)  # a variant whose base is gone
    for line in _list_table(rows, _terminal_width()):
        typer.echo(line)
    typer.echo(f"\n{len(games)} games and {sum(map(len, variants.values()))} variants, in {root}")
    typer.echo("Name any of them instead of a file: cardrules play NAME, cardrules rulebook NAME, ...")


VARIANT_INDENT = "    "  # a variant's name, under its game's


def _terminal_width() -> int:
    import shutil
    return shutil.get_terminal_size((100, 24)).columns


def _players_span(rs) -> str:
    """'3' or '3-4': the `players` column of `list`."""
    if rs.players_min == rs.players_max:
        return str(rs.players_min)
    return f"{rs.players_min}-{rs.players_max}"


def _title_without_players(rs) -> str:
    """The title, less a closing '(3 players)' that says what the players column says."""
    title = _title(rs)
    tail = f"({_players_text(rs)})"
    if title.endswith(tail) and title[:-len(tail)].strip():
        return title[:-len(tail)].rstrip()
    return title


def _list_table(rows: list[tuple[str, str, str, str]], width: int) -> list[str]:
    """(indent, name, players, title) rows as aligned columns under a heading: the name and
    players columns as wide as their longest entry, the title wrapped to the width (never the
    name), its further lines under its first."""
    import textwrap
    head = ("", "name", "players", "game")
    name_w = max(len(r[0]) + len(r[1]) for r in [head, *rows])
    players_w = max(len(r[2]) for r in [head, *rows])
    left = name_w + 2 + players_w + 2
    title_w = max(20, width - 1 - left)
    out = []
    for indent, name, players, title in [head, *rows]:
        lines = textwrap.wrap(title, title_w, break_long_words=False, break_on_hyphens=False) or [""]
        out.append(f"{(indent + name).ljust(name_w)}  {players.ljust(players_w)}  {lines[0]}".rstrip())
        out.extend(" " * left + more for more in lines[1:])
    return out


def _base_of(path: Path) -> Path | None:
    from ..files import variant_base_ref
    from ..files import NotARulesetFile, read_ruleset_file
    try:
        ref = variant_base_ref(read_ruleset_file(path))
    except NotARulesetFile:
        return None
    from ..bundled import base_file
    return base_file(ref, path).resolve() if ref else None  # (a variant that loaded: its base is a file)


@_command(short_help="Run the language server for editors.")
def lsp() -> None:
    """Run the language server for .cards files on stdin and stdout, for editors (the lsp extra)."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        _fail("error: the language server needs pygls: pip install 'cardrules[lsp]'", 2)
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (an editor that stops the server stops it outright, as before)
    from ..lsp import main as serve
    serve()


# ------------------------------------------------------------------ rulebook

@_command(short_help="Write a printable rulebook for each ruleset.")
def rulebook(
    files: Annotated[list[Path], typer.Argument(help="Ruleset files (.cards), or folders to search for them.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the rulebooks into.")] = Path("generated_docs"),
    pdf: Annotated[bool, typer.Option("--pdf", help="Also write NAME.pdf, typeset with Typst.")] = False,
    paper: Annotated[str, typer.Option("--paper", help="Paper size of the PDF: a4 or letter.")] = "a4",
) -> None:
    """Write a printable rulebook for each ruleset (Markdown and HTML; with --pdf, a PDF too)."""
    try:
        from .. import render
    except ImportError as e:
        if getattr(e, "name", None) in ("interpreter.render", f"{__package__}.render"):
            _fail("error: rulebook rendering is not available in this installation (no interpreter.render)", 1)
        raise
    paper = paper.lower()
    from ..render.pdf import PAPERS
    if paper not in PAPERS:  # (without --pdf too: a5 was taken in silence)
        _fail(f"error: unknown paper size {paper!r}: use one of {', '.join(PAPERS)}", 2)
    if pdf:
        from ..render.pdf import PdfUnavailable, require_typst
        try:
            require_typst()
        except PdfUnavailable as e:
            _fail(e.render(), 2)
    paths: list[Path] = []
    for f in files:
        paths.extend(sorted(f.rglob("*.cards")) if os.path.isdir(f) else [_resolve(f)])
    if not paths:
        _fail("error: no .cards files to write rulebooks for", 1)
    try:
        written = render.write_rulebooks(paths, out, pdf=pdf, paper=paper)
    except CardRulesError as e:
        _fail(e.render(), 1)
    except OSError as e:
        _fail(f"error: the rulebooks were not written: {e}", 1)
    for p in written:
        typer.echo(str(p))


def _register_stage_commands() -> None:
    """The commands of a room of their own (diff, fuzz, balance, solve, serve, studio: a module
    each beside this one) register here."""
    import importlib
    for mod, name, short in (
            ("diff", "diff", "Compare two rulesets by meaning, not by text."),
            ("fuzz", "fuzz", "Hunt for flaws in rulesets by playing and reading them."),
            ("balance", "balance", "Play many games and write a report on fairness and play."),
            ("solve", "solve", "Solve a position with every card shown."),
            ("serve", "serve", "Open the browser table to play with people and bots."),
            ("studio", "studio", "Write, read, play and measure a game on one page.")):
        try:
            module = importlib.import_module(f".{mod}", __package__)
        except ModuleNotFoundError as e:
            if e.name in (f"{__package__}.{mod}", f"{__package__}.{mod.partition('.')[0]}"):
                continue
            raise
        _command(name, short_help=short)(getattr(module, f"{name}_command"))


_register_stage_commands()
