"""The differential fuzz of the two engines: mutants of ruleset files (mutants.py) that load are
played on the Python engine and on the native one in lockstep, for a few seeds and player counts,
and must agree at every decision (the legal moves, in order), at the end (the outcome and the
final position's digest) and in any error (the same located error, at the same move). A
traceback on either side, or an error with no place, is a finding too. Each finding is shrunk
to the fewest edits that still show it, and told with the file and line of each.

`cardrules fuzz --engines FILE...` runs it (commands/fuzz.py); tests/fuzz/test_engines_fuzz.py plays a
sample of it in the suite."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import CardRulesError
from .mutants import Edit, apply_edits, mutate

DECISIONS = 120     # decisions a game is compared over (most mutants break early or not at all)
SEEDS = (1, 2)      # games a player count


@dataclass
class Verdict:
    """What one mutant did: `kind` is refused (a located load error), loaded (and the engines
    agreed on every game), unsupported (the native engine does not build it: the Python engine
    plays it, as `--engine auto` does), or a finding: disagree, traceback, unlocated."""

    kind: str
    detail: str = ""
    games: int = 0
    loaded: bool = True   # false for a mutant that did not load (refused, or a finding at load)

    @property
    def finding(self) -> bool:
        return self.kind in ("disagree", "traceback", "unlocated")


@dataclass
class Finding:
    path: str
    edits: list[Edit]
    original: str
    verdict: Verdict

    def describe(self) -> list[str]:
        """The finding's lines: the file, each edit (on the text before it), what went wrong."""
        out, text = [f"{self.path}: {self.verdict.kind}: {self.verdict.detail}"], self.original
        if not self.edits:
            out.append(f"    {self.path}: the file as written, no edit")
        for e in self.edits:
            out.append(f"    {self.path}:{e.line(text)}: {e.describe(text)}")
            text = e.apply(text)
        return out

    def to_json(self) -> dict:
        text, edits = self.original, []
        for e in self.edits:
            edits.append({"line": e.line(text), "edit": e.describe(text), "op": e.op, "at": e.at, "n": e.n,
                          "text": e.text})
            text = e.apply(text)
        return {"file": self.path, "kind": self.verdict.kind, "detail": self.verdict.detail, "edits": edits}


@dataclass
class Report:
    mutants: int = 0
    originals: int = 0  # the files as written, checked first (in the run that starts at mutant 0)
    loaded: int = 0
    agreed: int = 0
    refused: int = 0
    unsupported: int = 0
    games: int = 0
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"mutants": self.mutants, "originals": self.originals, "loaded": self.loaded, "agreed": self.agreed,
                "refused": self.refused, "unsupported": self.unsupported, "games": self.games, "seconds": round(self.seconds, 1),
                "findings": [f.to_json() for f in self.findings]}


def _do(fn, *args):
    """('ok', value), ('error', the located error's text) or ('traceback', the exception)."""
    try:
        return "ok", fn(*args)
    except CardRulesError as e:
        return ("error" if e.line else "unlocated"), e.render().splitlines()[0]
    except Exception as e:  # noqa: BLE001 - a traceback on either engine is what this looks for
        return "traceback", f"{type(e).__name__}: {e}"[:300]


def _moves(s) -> list[tuple[str, int]]:
    from ..engine import legal_moves
    return [(str(m), m.player) for m in legal_moves(s)]


def _end(s) -> str:
    from ..engine import outcome, state_digest
    return f"{outcome(s)!r} {state_digest(s)}"


def play_both(rs, players: int, seed: int, decisions: int = DECISIONS) -> Verdict:
    """One game on both engines in lockstep, random moves drawn from the seed."""
    from ..engine import apply, legal_moves, new_game
    from ..native.engine import new_native_game
    py = _do(new_game, rs, players, None, seed)
    c = _do(new_native_game, rs, players, None, seed)
    rng = random.Random(seed)
    step, what = 0, "the start"
    while True:
        if py[0] != "ok" or c[0] != "ok":
            return _compare(py, c, what)
        mp, mc = _do(_moves, py[1]), _do(_moves, c[1])
        if mp != mc or mp[0] != "ok":
            return _compare(mp, mc, f"the legal moves at decision {step}")
        if not mp[1] or step >= decisions:
            ep, ec = _do(_end, py[1]), _do(_end, c[1])
            return _compare(ep, ec, f"the end after {step} decisions") if ep != ec or ep[0] != "ok" else Verdict("loaded")
        i = rng.randrange(len(mp[1]))
        what = f"decision {step} ({mp[1][i][0]})"
        gp, gc = py[1], c[1]
        py = _do(lambda: (apply(gp, legal_moves(gp)[i]), gp)[1])
        c = _do(lambda: (apply(gc, legal_moves(gc)[i]), gc)[1])
        step += 1


def _compare(py, c, what: str) -> Verdict:
    if "traceback" in (py[0], c[0]):
        side = "the Python engine" if py[0] == "traceback" else "the native engine"
        return Verdict("traceback", f"{side} at {what}: {(py if py[0] == 'traceback' else c)[1]}")
    if "unlocated" in (py[0], c[0]):
        return Verdict("unlocated", f"at {what}: {(py if py[0] == 'unlocated' else c)[1]}")
    if py == c:  # the same located error on both
        return Verdict("loaded", "the same error on both")
    return Verdict("disagree", f"at {what}: Python {_short(py)}; native {_short(c)}")


def _short(r) -> str:
    text = str(r[1])
    return f"{r[0]} {text[:240]}" + ("..." if len(text) > 240 else "")


def check_text(text: str, path: Path, seeds=SEEDS, decisions: int = DECISIONS) -> Verdict:
    """Load a mutant's text as if it were a file beside `path`, and play what loads on both engines."""
    from .. import loads_ruleset
    from ..engine import program_of
    from ..native.codegen.expr import NativeUnsupported
    from ..native import program as native
    probe = str(path.with_name("mutant-of-" + path.name))
    loaded = _do(loads_ruleset, text, probe)
    if loaded[0] == "error" or (loaded[0] == "unlocated" and not text.strip()):
        return Verdict("refused", loaded[1], loaded=False)
    if loaded[0] != "ok":
        return Verdict(loaded[0], f"at load: {loaded[1]}", loaded=False)
    rs = loaded[1]
    program = program_of(rs)
    try:
        native.native_program(program, quick=True)
    except NativeUnsupported as e:
        return Verdict("unsupported", e.message)
    except CardRulesError as e:  # no compiler here, or it failed: not the ruleset's fault, but say so
        return Verdict("traceback", f"the native engine could not be built: {e.message}")
    except Exception as e:  # noqa: BLE001
        return Verdict("traceback", f"building the native engine: {type(e).__name__}: {e}"[:300])
    try:
        games = 0
        for n in sorted({rs.players_min, rs.players_max}):
            for seed in seeds:
                v = play_both(rs, n, seed, decisions)
                games += 1
                if v.finding:
                    v.detail = f"{n} players, seed {seed}, {v.detail}"
                    v.games = games
                    return v
        return Verdict("loaded", games=games)
    finally:
        native._PROGRAMS.pop(id(program), None)  # a long run holds no engine it has done with


def shrink(path: Path, original: str, edits: list[Edit], kind: str, seeds=SEEDS, decisions: int = DECISIONS):
    """The fewest of `edits` that still give a finding of this kind: one edit alone if one does,
    else the edits left when none can be taken away."""
    def shows(sub):
        return check_text(apply_edits(original, sub), path, seeds, decisions)

    for e in edits if len(edits) > 1 else []:
        v = shows([e])
        if v.kind == kind:
            return [e], v
    best, verdict = list(edits), None
    changed = True
    while changed and len(best) > 1:
        changed = False
        for i in range(len(best)):
            sub = best[:i] + best[i + 1:]
            v = shows(sub)
            if v.kind == kind:
                best, verdict, changed = sub, v, True
                break
    return best, verdict


def run(paths: list[Path], mutants: int, seed: int = 0, start: int = 0,
        progress: Callable[[str], None] | None = None, seeds=SEEDS, decisions: int = DECISIONS) -> Report:
    """Mutants number start .. start+mutants-1 of the files (each a function of the seed and its
    number, so a run can be split into chunks), checked and shrunk."""
    texts = {p: p.read_text(encoding="utf-8") for p in paths}
    report, t0 = Report(), time.monotonic()
    if start == 0:  # the files as written first: a mutant's agreement says nothing of its original
        for path, original in texts.items():
            v = check_text(original, path, seeds, decisions)
            report.originals += 1
            if v.finding:
                f = Finding(str(path), [], original, v)
                report.findings.append(f)
                if progress:
                    progress("\n".join(["the file as written:"] + f.describe()))
    for i in range(start, start + mutants):
        rng = random.Random(f"{seed}:{i}")
        path = rng.choice(paths)
        original = texts[path]
        text, edits = mutate(original, rng)
        v = check_text(text, path, seeds, decisions)
        report.mutants += 1
        if v.kind == "refused":
            report.refused += 1
            continue
        report.loaded += v.loaded
        if v.kind == "unsupported":
            report.unsupported += 1
        elif v.kind == "loaded":
            report.agreed += 1
            report.games += v.games
        else:
            small, sv = shrink(path, original, edits, v.kind, seeds, decisions)
            f = Finding(str(path), small, original, sv or v)
            report.findings.append(f)
            if progress:
                progress("\n".join([f"mutant {i}:"] + f.describe()))
        if progress and (i - start + 1) % 25 == 0:
            progress(f"{i - start + 1} mutants: {report.loaded} loaded, {report.agreed} agreed, "
                     f"{len(report.findings)} findings ({time.monotonic() - t0:.0f} s)")
    report.seconds = time.monotonic() - t0
    return report
