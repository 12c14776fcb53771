"""`cardrules fuzz` on a runner's workers: one task a ruleset file (a file's games depend on one
another: its rule seekers learn from every earlier game), each file's report and progress
lines put back in the order of the files."""

from __future__ import annotations

import time
from pathlib import Path

from .. import engines
from ..errors import CardRulesError
from ..runner import Interrupted, Runner, Task, load, say_workers, source_of
from .common import DEFAULT_GAMES
from .fuzzer import Fuzzer, native_for


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
            native, note = native_for(rs, "auto", lines.append, Path(args["path"]).name), None
        else:
            native, note = engines.on_worker(rs, engine, players=True)  # (its rule seeker thinks in C)
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

    from ..runner import progress_bar
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
        tasks.append(Task(i, fuzz_files, (src,), (i,), {"path": str(f), "games": games, "seconds": share, "seed": seed,
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
