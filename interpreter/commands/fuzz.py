"""`cardrules fuzz` (and `fuzz --engines`): the files found, run on workers, reported and written."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer

from ..errors import CardRulesError, OptionError
from ..runner import ENGINE_HELP
from ..fuzz.common import DEFAULT_GAMES, RulesetReport
from ..fuzz.run import finding_paragraph, fuzz_ruleset, write_reproductions


def _expand(paths: list[Path]) -> tuple[list[Path], list[str]]:
    files, errors = [], []
    for p in paths:
        if os.path.isdir(p):  # (False, not an OSError, for a name too long to be a file's)
            found = sorted(p.rglob("*.cards"))
            if not found:
                errors.append(f"{p}: error: no .cards files in this folder")
            files.extend(found)
        else:
            files.append(p)
    return files, errors


def fuzz_command(
    paths: Annotated[list[Path], typer.Argument(help="Ruleset files (.cards), or folders to search for them.")],
    games: Annotated[int | None, typer.Option("--games", "-k", min=1, help=f"Games per configuration (player count x option combination); default {DEFAULT_GAMES} when --seconds is not given.")] = None,
    seconds: Annotated[float | None, typer.Option("--seconds", "-t", min=0.01, help="Time budget for the whole run, in seconds.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed; with --games only, the run is a function of it.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as one JSON object, and nothing else.")] = False,
    out: Annotated[Path, typer.Option("--out", help="Folder for the reproduction records (created only when there are findings).")] = Path("fuzz-findings"),
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", help="Processes to fuzz in, one ruleset file each at a time (default: one per core; 1: this process only). The findings are the same for any N.")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="tcp://HOST:PORT", help="Fuzz on this Dask scheduler's workers (default: $CARDRULES_CLUSTER; needs the cluster extra).")] = None,
    engine_name: Annotated[str, typer.Option("--engine", metavar="auto|python|native", help=ENGINE_HELP + " (Each ruleset is built when it is fuzzed; the findings are the same.)")] = "auto",
    engines: Annotated[bool, typer.Option("--engines", help="Instead: play mutants of the files (small edits: characters, lines, keywords, numbers) that load on both engines, and report where they disagree (legal moves, outcome, errors) or fail with a traceback, each shrunk to its fewest edits.")] = False,
    mutants: Annotated[int, typer.Option("--mutants", "-m", min=1, help="With --engines: how many mutants.")] = 100,
    first: Annotated[int, typer.Option("--start", min=0, help="With --engines: the number of the first mutant (each is a function of --seed and its number, so a long run splits into chunks).")] = 0,
) -> None:
    """Hunt for inconsistencies in rulesets, by playing them and by reading them.

    Plays random and rule-seeking games for every player count and option combination,
    looking for deadlocks, endless games, runtime errors, cards lost, rules that never fire,
    options without effect, actions claiming the same move, records that do not replay and
    hidden cards leaking; and checks statically for unreachable phases, unused definitions
    and constant conditions. Findings go to standard output, progress to standard error;
    each dynamic finding comes with a shrunk record that `cardrules replay` re-runs. Exit 0
    when nothing is found, 1 with findings (or a ruleset that does not load)."""
    from ..runner import WorkersLost, cluster_address, open_runner, parse_workers
    from ..engines import at_start
    if engines:
        engines_command(paths, mutants, seed, first, as_json)
    try:
        line = at_start(engine_name, "each ruleset when it is fuzzed")
        parse_workers(workers)
        files, errors = _expand(paths)
        runner = open_runner(workers, cluster) if len(files) > 1 or cluster_address(cluster) else None
    except OptionError as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(2)
    if not as_json:
        typer.echo(line, err=True)
    for e in errors:
        typer.echo(e, err=True)
    start = time.monotonic()
    deadline = start + seconds if seconds else None
    reports: list[RulesetReport] = []
    bad = bool(errors)
    progress = lambda text: typer.echo(text, err=True)
    missing: list[Path] = []   # not fuzzed: Ctrl-C
    if runner is not None:  # one file per task, on worker processes or a cluster
        from ..fuzz.jobs import fuzz as fuzz_files
        try:
            with runner:
                reports, failed, missing = fuzz_files(runner, files, games, seconds, seed, engine_name)
        except WorkersLost as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1)
        bad = bad or failed
    for i, f in enumerate(files if runner is None else []):
        slice_deadline = None
        if deadline is not None:
            now = time.monotonic()
            slice_deadline = now + max(0.0, deadline - now) / (len(files) - i)
        try:
            reports.append(fuzz_ruleset(f, games=games, seconds=None, seed=seed, progress=progress,
                                        deadline=slice_deadline, engine=engine_name))
        except OptionError as e:  # --engine native, and this ruleset cannot be built
            typer.echo(f"error: {e.message}", err=True)
            raise typer.Exit(2)
        except CardRulesError as e:
            typer.echo(e.render(), err=True)
            bad = True
        except OSError as e:
            typer.echo(f"{f}: error: cannot read the ruleset: {e.strerror or e}", err=True)
            bad = True
        except KeyboardInterrupt:
            missing = files[i:]
            break
    findings = [f for r in reports for f in r.findings]
    numbers = list(range(1, len(findings) + 1))
    try:
        write_reproductions(findings, out, numbers)
    except OSError as e:
        typer.echo(f"{out}: error: cannot write the reproductions: {e.strerror or e}", err=True)
        bad = True
    if as_json:
        data = {"rulesets": [r.to_json() for r in reports],
                "findings": [dict(number=n, **f.to_json()) for n, f in zip(numbers, findings)],
                "seconds": round(time.monotonic() - start, 3)}
        typer.echo(json.dumps(data, indent=2))
    else:
        num = 0
        for r in reports:
            head = (f"{r.path}: {len(r.findings) or 'no'} finding{'s' if len(r.findings) != 1 else ''} "
                    f"({r.configurations} configuration{'s' if r.configurations != 1 else ''}, {r.games} "
                    f"game{'s' if r.games != 1 else ''} of which {r.seeker_games} rule-seeking, "
                    f"{r.seconds:.1f} s)")
            if r.cut_short:  # (a new user's Tichu: 2 games of -k 20 played, and nothing said)
                head += (f"; the time budget (--seconds) ran out before {r.asked} games in {r.cut_short} of "
                         f"{r.configurations} configurations")
            typer.echo(head)
            for what, why in r.untried.items():
                typer.echo(f"   {what} was not put to the test: {why} (not a finding)")
            for f in r.findings:
                num += 1
                typer.echo("")
                typer.echo(finding_paragraph(num, f))
            typer.echo("")
    if missing:
        typer.echo(f"interrupted: {len(files) - len(missing)} of {len(files)} rulesets fuzzed (their findings are "
                   f"above); not fuzzed: {', '.join(str(m) for m in missing)}", err=True)
        raise typer.Exit(130)
    raise typer.Exit(1 if findings or bad else 0)


# typer keeps the docstring's line breaks: give it each paragraph on one line
fuzz_command.__doc__ = "\n\n".join(" ".join(par.split()) for par in fuzz_command.__doc__.split("\n\n"))


def engines_command(paths: list[Path], mutants: int, seed: int, first: int, as_json: bool) -> None:
    """`fuzz --engines`: the differential fuzz of mutants (engines.py); exit 1 on any finding."""
    from ..native.toolchain import find_compiler
    from ..fuzz.differential import run
    files, errors = _expand(paths)
    for e in errors:
        typer.echo(e, err=True)
    files = [f for f in files if f.is_file()]
    if not files:
        typer.echo("error: no ruleset files to mutate", err=True)
        raise typer.Exit(2)
    if find_compiler() is None:
        typer.echo("error: --engines plays every mutant in C too, and there is no C compiler here "
                   "(set CC, or pip install 'cardrules[native]')", err=True)
        raise typer.Exit(2)
    progress = None if as_json else (lambda text: typer.echo(text, err=True))
    report = run(files, mutants, seed, first, progress)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        for f in report.findings:
            typer.echo("\n".join(f.describe()))
        if report.originals:
            bad = sum(1 for f in report.findings if not f.edits)
            typer.echo(f"the file{'s' if report.originals != 1 else ''} as written: "
                       + (f"{bad} of {report.originals} played differently on the two engines or failed (above)"
                          if bad else f"{'all ' if report.originals > 1 else ''}played alike on both engines"))
        typer.echo(f"{report.mutants} mutants of {len(files)} file{'s' if len(files) != 1 else ''}: "
                   f"{report.loaded} loaded, {report.agreed} agreed on both engines ({report.games} games), "
                   f"{report.unsupported} not built by the native engine, {len(report.findings)} "
                   f"finding{'s' if len(report.findings) != 1 else ''}; {report.refused} refused with a located error "
                   f"({report.seconds:.0f} s)")
    raise typer.Exit(1 if report.findings or errors else 0)
