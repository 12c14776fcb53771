"""A balance report's games on a runner's workers: a chunk of one configuration's games played
as the report's own loop plays them (`games.play_game`, game i with seed+i), and the results
put back in the order of the configurations and their games."""

from __future__ import annotations

from .. import engines
from ..errors import CardRulesError
from ..runner import Runner, Task, chunks, Interrupted, load, remember, say_workers, source_of
from .games import Config, GameFailed, play_game


def balance_games(sources, items, args) -> dict:
    """Games `items` of one configuration of a balance report: their GameFacts; `failed`: the
    first game's error (the chunk stops there)."""
    cfg = Config(label=args["label"], path=args["path"], rs=load(sources[0]), players=args["players"],
                 options=args["options"], bots=args["bots"], rotate=args["rotate"])
    facts, failed = [], None
    native, note = engines.on_worker(cfg.rs, args.get("engine", "python"),
                                     players=cfg.rotate is not None or not engines.all_random(cfg.bots))
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
            tasks.append(Task(len(tasks), balance_games, (sources[cfg.path],), tuple(part), args))
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
