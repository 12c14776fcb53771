"""What the commands run on workers, and how they put the results back together.

For each command a worker function (`FUNCTIONS`: it takes the task's sources, its chunk and
its arguments and returns plain data) and the client's side (cut the run into tasks, run them,
put the results back in the order of the games). A chunk plays its games exactly as the
command's own loop does (`playing.play_one`, `balance.games.play_game`, `fuzz.Fuzzer`), game i
with seed+i, so the gathered results are those of one process, byte for byte."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..balance.games import Config, GameFailed, play_game
from ..playing import GameBroke, Tally, broke_in_python as _broke_in_python, play_one as _play_one
from ..engine import fired_counts, make_record, outcome
from .. import engines
from ..errors import CardRulesError
from ..fuzz.common import DEFAULT_GAMES
from ..fuzz.play import Fuzzer, native_for
from . import MAX_CHUNK, NATIVE_CHUNK, Interrupted, Runner, Task, chunks, load, remember, source_of


def say_workers(done: dict) -> None:
    """The one line on standard error when workers played in Python though native was chosen
    (engines.on_worker: no C compiler on their machine)."""
    line = engines.worker_line(r.get("note") for r in done.values() if isinstance(r, dict))
    if line is not None:
        import sys
        print(line, file=sys.stderr)


# ------------------------------------------------------------------ play

def play_games(sources, items, args) -> dict:
    """Games `items` of `cardrules play`, summed here (`tally`: a Tally, each game's result kept
    only with --json) with their records (--log); `broke`: (index, the error as the command
    prints it, the record of the game up to the failure) for the first game that broke, after
    which the chunk stops."""
    src = sources[0]
    rs = load(src)
    tally, records, broke = Tally(args["players"], keep=args.get("json", True)), [], None
    program, note = engines.on_worker(rs, args.get("engine", "python"))
    native = program is not None
    if native and engines.all_random(args["bots"].values()):  # random bots, whole games in C
        from .native import play_chunk
        games, failed = play_chunk(rs, src.filename, args["players"], args["options"], args["seed"], items,
                                   args["log"], lambda seed: _broke_in_python(rs, src.filename, args["players"],
                                                                              args["options"], seed, args["bots"],
                                                                              args["log"]))
        for game_seed, winners, scores, decisions, fired, rec in games:
            tally.add(game_seed, winners, scores, decisions, fired)
            if rec is not None:
                records.append(rec)
        if failed is not None:
            broke = (failed[0], *failed[1])
    else:
        for i in items:
            seed = args["seed"] + i
            try:
                state = _play_one(rs, args["players"], args["options"], seed, args["bots"], None, native)
            except GameBroke as e:
                rec = make_record(e.state, src.filename) if args["log"] and e.state is not None else None
                broke = (i, e.render(), rec)
                break
            o = outcome(state)
            tally.add(seed, o.winners, o.scores, state.decisions, fired_counts(state))
            if args["log"]:
                records.append(make_record(state, src.filename))
    return {"tally": tally, "records": records, "broke": broke, "note": note}


@dataclass
class Played:
    tally: Tally                                    # the games from the first, summed
    records: list = field(default_factory=list)     # their records (with --log)
    broke: str | None = None                        # the first game that broke, as the command says it
    broke_record: dict | None = None
    interrupted: bool = False


def play(runner: Runner, path: Path, rs, players: int, options: dict, seed: int, games: int,
         bots: dict, log: bool, advance=None, engine: str = "python", keep: bool = True) -> Played:
    """`cardrules play` on a runner (`keep`: each game's result listed, for --json). Interrupted:
    the games before the first chunk that had not finished (so the summary is that of --games
    M)."""
    src = source_of(path)
    remember(src, rs)
    args = {"seed": seed, "players": players, "options": dict(options), "bots": dict(bots), "log": log,
            "engine": engine, "json": keep}
    # games whole in C come in large chunks; not with a log, whose records are made in Python at
    # a few milliseconds a game (a chunk of 5,000 would hold the bar still, and lose that much to Ctrl-C)
    whole_in_c = engine == "native" and engines.all_random(bots.values()) and not log
    parts = chunks(games, runner.parallelism, NATIVE_CHUNK if whole_in_c else MAX_CHUNK)
    tasks = [Task(k, "play", (src,), tuple(r), args) for k, r in enumerate(parts)]
    out = Played(Tally(players, keep=keep))
    try:
        done = runner.run(tasks, advance, stop=lambda r: r["broke"] is not None)
    except Interrupted as e:
        done, out.interrupted = e.done, True
    say_workers(done)
    for task in tasks:
        r = done.get(task.key)
        if r is None:
            break
        out.tally.extend(r["tally"])
        if log:
            out.records.extend(r["records"])
        if r["broke"] is not None:
            _, out.broke, rec = r["broke"]
            if rec is not None:
                out.broke_record = rec
            break
    return out


# ------------------------------------------------------------------ balance

def balance_games(sources, items, args) -> dict:
    """Games `items` of one configuration of a balance report: their GameFacts; `failed`: the
    first game's error (the chunk stops there)."""
    cfg = Config(label=args["label"], path=args["path"], rs=load(sources[0]), players=args["players"],
                 options=args["options"], bots=args["bots"], rotate=args["rotate"])
    facts, failed = [], None
    native, note = engines.on_worker(cfg.rs, args.get("engine", "python"))
    for i in items:
        try:
            facts.append(play_game(cfg, i, args["seed"] + i, native))
        except CardRulesError as e:
            failed = (isinstance(e, GameFailed), e.message, e.file, e.line, e.column, e.source_line)
            break
    return {"facts": facts, "failed": failed, "note": note}


def balance(runner: Runner, runs: list, seed: int, advance=None, engines: list | None = None) -> tuple[list[list], bool]:
    """The games of every run (configuration, games) of a balance report, on a runner, in the
    order of the runs and their games: (facts per run, interrupted). A game that failed raises
    its error as the command's own loop would (the first in that order). Interrupted: each
    run's games before its first chunk that had not finished."""
    sources: dict[str, object] = {}
    tasks, owner = [], []
    for r, (cfg, k) in enumerate(runs):
        if cfg.path not in sources:
            sources[cfg.path] = source_of(cfg.path)
            remember(sources[cfg.path], cfg.rs)
        args = {"seed": seed, "label": cfg.label, "path": cfg.path, "players": cfg.players, "options": cfg.options,
                "bots": cfg.bots, "rotate": cfg.rotate, "engine": engines[r] if engines else "python"}
        for part in chunks(k, runner.parallelism):
            tasks.append(Task(len(tasks), "balance", (sources[cfg.path],), tuple(part), args))
            owner.append(r)
    interrupted = False
    try:
        done = runner.run(tasks, advance, stop=lambda res: res["failed"] is not None)
    except Interrupted as e:
        done, interrupted = e.done, True
    say_workers(done)
    facts: list[list] = [[] for _ in runs]
    complete = [True] * len(runs)
    for task, r in zip(tasks, owner):
        res = done.get(task.key)
        if res is None or not complete[r]:
            complete[r] = False
            if not interrupted:
                break
            continue
        facts[r].extend(res["facts"])
        if res["failed"] is not None:
            is_game, message, file, line, column, source_line = res["failed"]
            if is_game:
                raise GameFailed(message, file, line, column, source_line)
            raise CardRulesError(message, file, line, column, source_line)
    return facts, interrupted


# ------------------------------------------------------------------ fuzz

def fuzz_files(sources, items, args) -> dict:
    """Fuzz one ruleset file (the fuzzer's games depend on one another: its rule seekers learn
    from every earlier game, so a file is one task): its report and progress lines, or the
    error of a ruleset that does not load."""
    lines: list[str] = []
    try:
        rs = load(sources[0])
    except CardRulesError as e:
        return {"error": e.render(), "lines": lines}
    deadline = time.monotonic() + args["seconds"] if args["seconds"] else None
    engine = args.get("engine", "python")
    try:
        if engine == "auto":  # native where this machine builds the ruleset, else Python (the same findings)
            native, note = native_for(rs, "auto"), None
        else:
            native, note = engines.on_worker(rs, engine)
    except CardRulesError as e:  # --engine native, and the backend cannot lower this ruleset
        return {"error": f"{args['path']}: error: {e.message}", "lines": lines}
    report = Fuzzer(args["path"], rs, args["games"], None, args["seed"], lines.append, deadline, native).run()
    return {"report": report, "lines": lines, "note": note}


def fuzz(runner: Runner, files: list[Path], games: int | None, seconds: float | None,
         seed: int, engine: str = "python") -> tuple[list, bool, list[Path]]:
    """`cardrules fuzz` on a runner, one task per file, with one progress bar of files on
    standard error (a terminal), each file's progress lines printed as it finishes: (the
    reports in the order of the files, whether some file did not load, the files not fuzzed
    because the run was interrupted)."""
    import sys

    import typer

    from . import progress_bar
    if games is None and seconds is None:
        games = DEFAULT_GAMES
    share = seconds * min(runner.parallelism, len(files)) / len(files) if seconds else None
    bar = progress_bar(len(files), sys.stderr.isatty(), "fuzzing")

    def say(text: str) -> None:
        if bar.live.is_started:
            bar.console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)
        else:
            typer.echo(text, err=True)

    tasks, bad = [], False
    for i, f in enumerate(files):
        try:
            src = source_of(f)
        except CardRulesError as e:
            say(e.render())
            bad = True
            continue
        tasks.append(Task(i, "fuzz", (src,), (i,), {"path": str(f), "games": games, "seconds": share, "seed": seed,
                                                 "engine": engine}))

    def each(task, result):
        for line in result["lines"]:
            say(line)
        if "error" in result:
            say(result["error"])

    missing: list[Path] = []
    with bar:
        progress = bar.add_task("rulesets", total=len(tasks))
        try:
            done = runner.run(tasks, lambda n: bar.advance(progress, n), each=each)
        except Interrupted as e:
            done = e.done
            missing = [files[t.key] for t in tasks if t.key not in done]
    say_workers(done)
    reports = []
    for t in tasks:
        res = done.get(t.key)
        if res is None:
            continue
        if "error" in res:
            bad = True
        else:
            reports.append(res["report"])
    return reports, bad, missing


FUNCTIONS = {"play": play_games, "balance": balance_games, "fuzz": fuzz_files}
