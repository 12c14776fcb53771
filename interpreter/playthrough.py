"""Golden playthroughs: one seeded game of every bundled ruleset written out as text, so that a
change to the compiler or to either engine that changes a game shows as a readable diff.

    python -m interpreter.playthrough [RULESET ...] [--write] [--engine python|native]

Without --write it plays every bundled ruleset (or those named) and compares the text with the
golden file under tests/games/playthroughs/ (the path mirrors rulesets/: classic/x.cards ->
tests/games/playthroughs/classic/x.txt), printing the first decision that differs; with --write it
writes them (and removes the golden files of rulesets that are gone).

The game: the default options, seed 0, the fewest players the ruleset allows that is 2 or more
(else its only count), every seat a random player drawing as `cardrules play` draws
(bots.RandomBot seeded with bot_seed(seed, seat), choosing among the moves of the seat to act).
Chance is the game's own generator, seeded with the same seed: shuffles are not decisions.

The text: a header (ruleset, players, seed, options, who plays), then each decision: its number,
the seat to act, the rule asking and whether the choice is made in secret; the seat's
observation (engine `observe`: its variables, who is out of play, its zones, keys sorted; the
seat, the rule and the legal moves have lines of their own); the
legal moves of everyone deciding, as the engine names them; the move taken. Then the outcome,
every seat's final observation and the engine-independent digest of the final position. To keep
the files small, the observation is written for the first OBSERVED decisions only; after that
each decision gives its seat, legal moves and move (a game of two thousand decisions takes
about half a megabyte; all of them together under 6 MB)."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from . import engines
from .players.bots import bot_seed, make_bot
from .bundled import rulesets_root
from .engine import legal_moves, observe, outcome, program_of, resolve_options, seat_name, state_digest
from .engine import apply, in_secret
from .errors import CardRulesError

OBSERVED = 200  # decisions whose observation is written
SEED = 0
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "games" / "playthroughs"
COMMAND = "python -m interpreter.playthrough --write"


def bundled_rulesets() -> list[Path]:
    """Every bundled ruleset and variant, found by glob (a new file needs no list)."""
    return sorted(p.resolve() for p in rulesets_root().glob("**/*.cards"))


def golden_path(ruleset: Path, folder: Path = GOLDEN) -> Path:
    return folder / ruleset.resolve().relative_to(rulesets_root().resolve()).with_suffix(".txt")


def players_for(rs) -> int:
    """The fewest players the ruleset allows that is 2 or more, else its only count."""
    return max(rs.players_min, 2) if rs.players_max >= 2 else rs.players_min


def _value(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_value(v[k])}" for k in sorted(v)) + "}"
    return str(v)


def _seen(part: dict) -> str:
    """One zone (or one seat's part of it) as a seat sees it."""
    if "cards" in part:
        return _value(part["cards"])
    text = f"{part['count']} hidden"
    if part.get("known"):
        text += " (face up: " + " ".join(part["known"]) + ")"
    told = part.get("told")
    if told and any(told):
        text += " told " + _value([" ".join(f"{k} {t[k]}" for k in sorted(t)) if t else None for t in told])
    return text


def view_lines(view: dict, indent: str = "  ") -> list[str]:
    """An observation, a few stable lines: the variables, who is out of play, one line a zone."""
    names = view.get("vars", {})
    lines = [indent + "vars: " + (" ".join(f"{k}={_value(names[k])}" for k in sorted(names)) or "-")]
    if view.get("out_of_play"):
        lines.append(indent + "out of play: " + _value(view["out_of_play"]))
    zones = view.get("zones", {})
    for name in sorted(zones):
        z = zones[name]
        if "cards" in z or "count" in z:
            lines.append(f"{indent}{name}: {_seen(z)}")
        else:
            lines.append(f"{indent}{name}: " + " | ".join(f"{k} {_seen(z[k])}" for k in sorted(z)))
    return lines


def _legal_line(moves) -> str:
    """Everyone's legal moves, in the engine's order (by seat when several decide)."""
    seats = list(dict.fromkeys(m.player for m in moves))
    if len(seats) == 1:
        return f"  legal ({len(moves)}): " + ", ".join(str(m) for m in moves)
    return "  legal: " + "; ".join(f"{seat_name(p)} ({sum(m.player == p for m in moves)}): "
                                   + ", ".join(str(m) for m in moves if m.player == p) for p in seats)


def header(rel: str, players: int, seed: int, options: dict) -> list[str]:
    return [f"# A golden playthrough: regenerate with `{COMMAND}` (interpreter/playthrough.py)",
            f"ruleset: {rel}",
            f"players: {players}",
            f"seed: {seed}",
            "options: " + (" ".join(f"{k}={_value(v)}" for k, v in options.items()) or "-") + " (the defaults)",
            f"seats: random players, seat k drawing with random.Random({seed} * 1000 + k) as `cardrules play`",
            ""]


def playthrough(path: Path | str, engine: str = "python", rs=None, seed: int = SEED, quick: bool = False) -> str:
    """The playthrough of one ruleset as text, played on `engine` ("python" or "native"; `quick`:
    the native engine compiled without optimising, the same games sooner)."""
    from . import load_ruleset
    path = Path(path)
    rs = rs if rs is not None else load_ruleset(path)
    players = players_for(rs)
    program = program_of(rs)
    options = dict(zip((o.name for o in program.options), resolve_options(program, None)))
    rel = path.resolve().relative_to(rulesets_root().resolve()).as_posix()
    out = header(rel, players, seed, options)
    bots = [make_bot("random", bot_seed(seed, seat)) for seat in range(players)]
    state, n = None, 0
    try:
        if engine == "native":
            from .native.engine import native_program
            native_program(program, quick=quick)  # built now, so the game below takes this build
        state = engines.new_game(rs, players, None, seed, engine=engine)
        while not state.finished:
            moves = legal_moves(state)
            if not moves:
                out.append(f"stuck at decision {n + 1}: {seat_name(state.actor)} has no legal move")
                break
            n += 1
            who = state.actor
            view = observe(state, who) if n <= OBSERVED else None
            out.append(f"decision {n}: {seat_name(who)}" + (f", rule {view['rule']!r}" if view else "")
                       + (", in secret" if in_secret(state) else ""))
            if view:
                out.extend(view_lines(view))
            out.append(_legal_line(moves))
            move = bots[who].choose(state)
            out.append(f"  move: {move}")
            apply(state, move)
    except CardRulesError as e:
        out.append(f"error after {n} decisions: {type(e).__name__}: {e}")
        return "\n".join(out) + "\n"
    if state.finished:
        out.append("")
        out.append(f"end after {n} decisions: {outcome(state)}")
        for seat in range(players):
            out.append(f"final view of {seat_name(seat)}:")
            out.extend(view_lines(observe(state, seat)))
        out.append(f"digest: {state_digest(state)}")
    return "\n".join(out) + "\n"


def _blocks(text: str) -> list[list[str]]:
    """The text cut at each decision (and at the end): the header first."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith(("decision ", "end after ", "error after ", "stuck at ")):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def first_difference(expected: str, got: str, name: str = "golden") -> str | None:
    """None when the texts are equal, else a unified diff of the first part that differs (the
    header, a decision, or the end), with what precedes it named."""
    if expected == got:
        return None
    a, b = _blocks(expected), _blocks(got)
    for k in range(max(len(a), len(b))):
        x, y = (a[k] if k < len(a) else []), (b[k] if k < len(b) else [])
        if x != y:
            where = (x or y or ["the end"])[0]
            diff = difflib.unified_diff(x, y, f"{name} (expected)", "played now", lineterm="", n=3)
            return f"first difference at: {where}\n" + "\n".join(diff)
    return "the texts differ in their line endings"


def check(path: Path, engine: str = "python", folder: Path = GOLDEN, quick: bool = False, rs=None) -> str | None:
    """None when the golden file holds what the game plays now, else what differs and the command."""
    gold = golden_path(path, folder)
    if not gold.exists():
        return f"no golden playthrough for {path.name} ({gold}): write it with `{COMMAND}`"
    diff = first_difference(gold.read_text(encoding="utf-8"), playthrough(path, engine, rs=rs, quick=quick),
                            str(gold.relative_to(folder.parent.parent) if folder == GOLDEN else gold))
    if diff is None:
        return None
    return (f"the {engine} engine no longer plays {gold.name} as pinned; {diff}\n"
            f"if the change is meant, regenerate with `{COMMAND}` and review the diff")


def write(paths: list[Path], folder: Path = GOLDEN, engine: str = "python") -> list[Path]:
    """Write the golden files of `paths`; with every bundled ruleset, remove the files of gone ones."""
    written = []
    for path in paths:
        gold = golden_path(path, folder)
        gold.parent.mkdir(parents=True, exist_ok=True)
        text = playthrough(path, engine)
        if not gold.exists() or gold.read_text(encoding="utf-8") != text:
            gold.write_text(text, encoding="utf-8")
            written.append(gold)
    if paths == bundled_rulesets() and folder.exists():
        wanted = {golden_path(p, folder) for p in paths}
        for old in folder.glob("**/*.txt"):
            if old not in wanted:
                old.unlink()
                written.append(old)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m interpreter.playthrough", description=__doc__.split("\n\n")[0])
    ap.add_argument("rulesets", nargs="*", help="ruleset files (default: every bundled one)")
    ap.add_argument("--write", action="store_true", help="write the golden files instead of checking them")
    ap.add_argument("--engine", choices=("python", "native"), default="python", help="the engine to play on")
    ap.add_argument("--dir", type=Path, default=GOLDEN, help="the folder of golden files (default tests/games/playthroughs)")
    args = ap.parse_args(argv)
    paths = [Path(p).resolve() for p in args.rulesets] or bundled_rulesets()
    if args.write:
        changed = write(paths, args.dir, args.engine)
        for p in changed:
            print(("removed " if not p.exists() else "wrote ") + str(p))
        print(f"{len(paths)} playthroughs, {len(changed)} changed")
        return 0
    failed = 0
    for path in paths:
        problem = check(path, args.engine, args.dir)
        if problem is not None:
            failed += 1
            print(problem, file=sys.stderr)
    print(f"{len(paths) - failed} of {len(paths)} playthroughs as pinned ({args.engine} engine)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
