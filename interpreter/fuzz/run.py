"""A fuzz run of one file, as the API and the command make it, and what it leaves on disk: the
file's report, each finding as a numbered paragraph, and each reproduction written as a game
record that `cardrules replay` plays."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Callable

from ..engine import counted, write_record
from .common import DEFAULT_GAMES, Finding, RulesetReport, _fmt_value
from .fuzzer import Fuzzer, native_for


def fuzz_ruleset(path: str | Path, games: int | None = None, seconds: float | None = None, seed: int = 0,
                 progress: Callable[[str], None] | None = None, deadline: float | None = None,
                 engine: str = "python") -> RulesetReport:
    """Fuzz one ruleset file, its games played on `engine` (auto, python or native: the same
    findings); raises CardRulesError when it does not load, OptionError when native cannot be had."""
    from .. import load_ruleset
    if games is None and seconds is None and deadline is None:
        games = DEFAULT_GAMES
    rs = load_ruleset(path)
    native = native_for(rs, engine, progress, Path(path).name)
    return Fuzzer(str(path), rs, games, seconds, seed, progress, deadline, native).run()


def write_reproductions(findings: list[Finding], out: Path, numbers: list[int]) -> None:
    """Write each finding's records under out (created only when there is one to write)."""
    for num, f in zip(numbers, findings):
        r = f.reproduction
        if r is None:
            continue
        out.mkdir(parents=True, exist_ok=True)
        stem = Path(f.ruleset).stem
        path = out / f"{stem}-{num:02d}-{f.kind}.json"
        write_record(r.record, path)
        r.path = str(path)
        extra = []
        for label, rec, _ in r.extra:
            safe = "".join(ch if ch.isalnum() or ch in "-_=" else "_" for ch in label)
            p2 = out / f"{stem}-{num:02d}-{f.kind}-{safe}.json"
            write_record(rec, p2)
            extra.append((label, rec, str(p2)))
        r.extra = extra


def finding_paragraph(num: int, f: Finding) -> str:
    """A finding as the command prints it: numbered, wrapped, with its rules, place and reproduction."""
    wrap = textwrap.TextWrapper(width=100, subsequent_indent="   ", break_on_hyphens=False, break_long_words=False)
    lines = [wrap.fill(f"{num}. [{f.kind}] {f.sentence}")]
    if f.rules:
        lines.append(f"   rules involved: {', '.join(f.rules)}")
    if f.location:
        lines.append(f"   at: {f.location}")
    r = f.reproduction
    if r is not None:
        opts = ", ".join(f"{k}={_fmt_value(v)}" for k, v in r.changed.items())
        where = f"{r.path}" if r.path else "(not written)"
        lines.append(wrap.fill(f"   reproduction: {counted(r.players, 'player')}, seed {r.seed}, {counted(len(r.moves), 'move')}"
                               + (f", options {opts}" if opts else "") + f": cardrules replay {where}"
                               + (f" -- {r.note}" if r.note else "")))
        for label, _, path in r.extra:
            lines.append(f"   and with {label}: cardrules replay {path}")
    return "\n".join(lines)
