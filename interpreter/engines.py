"""Which engine plays: `--engine auto|python|native`, decided here, once a command, for every front
door (play, balance, fuzz, diff --play, serve, the studio, the adapters) and for the API's
`new_game(..., engine=)`, with the one line that says which and why.

The Python engine is the oracle and the fallback; the native engine (the ruleset compiled to C,
kept in the cache) plays where a C compiler builds it. Under `auto` a run plays in Python only
where C cannot play it (no compiler, a construct the C backend lacks, a person at the table) or
would play it slower (players that decide in Python read the position at every move). Workers,
local or a cluster's, play on the engine chosen here (on_worker: Python on a machine that cannot
build C, and the client says so)."""

from __future__ import annotations

import os

from .errors import CardRulesError, OptionError

ENGINES = ("auto", "python", "native")

# players that choose inside C on a native state: random ones, the search player and the planning
# player (each its whole search, from the state the engine plays) and the greedy player (its
# look-ahead in one call). A player written in Python alone (a new one, before its C) reads the
# position at every step, which a game in C gives slower: auto plays its games in Python
IN_C = ("random", "ismcts", "greedy", "plan")


class EngineChoice:
    """Which engine plays, and the one line that says why."""

    def __init__(self, native, line: str):
        self.native = native  # the ruleset's NativeProgram, or None: Python
        self.line = line

    @property
    def name(self) -> str:
        return "native" if self.native is not None else "python"


def deciding_in_python(bots) -> list[str]:
    """Of these bot specs ('greedy', 'ismcts:300', ...), the ones that decide in Python (not IN_C)."""
    return sorted({b for b in bots if b.partition(":")[0].strip().lower() not in IN_C})


def all_random(bots) -> bool:
    """Whether every player is a random one, whose moves the native engine draws itself: then
    whole games run in C, many a call, with nothing read back between moves."""
    return all(b == "random" for b in bots)


def _known(requested: str) -> None:
    if requested not in ENGINES:
        raise OptionError(f"--engine is one of {', '.join(ENGINES)}, not {requested!r}")


def choose(programs, requested: str, *, python_only: str | None = None, auto_python: str | None = None,
           bots=(), players: bool | None = None) -> EngineChoice:
    """The engine of a command: native when every program in `programs` (one, or the two a diff
    compares) can be built, else Python, saying why in one line. `python_only`: why this run needs
    Python whatever is asked (a person plays); `auto_python`: why auto plays it in Python all the
    same (it would be slower in C), while native plays in C; `bots`: the players' specs, whose
    deciding in Python is such a reason. `players`: whether the command's players think in C
    (greedy, plan, search, the solver, fuzz's seeker), so that one library with their units is
    built rather than the engine alone and then that one (by default: when a bot is not random).
    An OptionError (exit 2) for an unknown engine, or when native is asked for and cannot be had."""
    from .native.toolchain import NativeUnavailable, find_compiler
    from .native.codegen.expr import NativeUnsupported
    from .native.engine import native_program
    _known(requested)
    if requested == "python":
        return EngineChoice(None, "engine: python (as asked)")
    if python_only is not None:
        if requested == "native":
            raise OptionError(f"--engine native cannot play this: {python_only}")
        return EngineChoice(None, f"engine: python ({python_only})")
    if requested == "auto":
        if auto_python is not None:
            return EngineChoice(None, f"engine: python ({auto_python})")
        slow = deciding_in_python(bots)
        if slow:
            return EngineChoice(None, f"engine: python (its bots ({', '.join(slow)}) decide in Python)")
    chosen = None
    for program in programs if isinstance(programs, (list, tuple)) else [programs]:
        try:
            np = native_program(program, players=not all_random(bots) if players is None else players)
        except (NativeUnavailable, NativeUnsupported) as e:
            if requested == "native":
                raise OptionError(e.message) from None
            return EngineChoice(None, f"engine: python (no native engine: {e.message})")
        except CardRulesError as e:
            raise OptionError(e.message) from None
        chosen = chosen or EngineChoice(np, f"engine: native (C, built by {find_compiler()}; kept in the cache)")
    return chosen


def at_start(requested: str, when: str) -> str:
    """--engine of a command that builds each ruleset later (serve: when its first table opens;
    fuzz: when it is fuzzed), checked at start-up: the one line saying which engine and why;
    OptionError (exit 2) for an unknown engine, or native without a C compiler. A ruleset the
    native engine cannot build then plays in Python under auto (its line said where it plays),
    and is refused under native."""
    from .native.toolchain import find_compiler, no_compiler_message
    _known(requested)
    if requested == "python":
        return "engine: python (as asked)"
    compiler = find_compiler()
    if compiler is None:
        if requested == "native":
            raise OptionError(no_compiler_message())
        return f"engine: python (no native engine: {no_compiler_message()})"
    return f"engine: native (C, built by {compiler}, {when}; kept in the cache)"


def per_run(choice: EngineChoice, requested: str, bots_of_runs: list) -> tuple[str, str]:
    """The engine of a command made of several runs (balance: each configuration's games and skill
    games), each with its players' specs: "native", "python", or "auto" (under auto, the runs
    whose players decide in Python play in Python: run_engine), and the one line that says so."""
    if choice.native is None:
        return "python", choice.line
    if requested != "auto":
        return "native", choice.line
    slow = sorted({b for bots in bots_of_runs for b in deciding_in_python(bots)})
    if not slow:
        return "native", choice.line
    names = ", ".join(slow)
    if all(deciding_in_python(bots) for bots in bots_of_runs):
        return "python", f"engine: python (its bots ({names}) decide in Python)"
    return "auto", f"{choice.line}; the games with {names} play in Python (its bots ({names}) decide in Python)"


def run_engine(engine: str, bots) -> str:
    """The engine one run plays on under per_run's choice: "native" or "python"."""
    if engine == "auto":
        return "native" if not deciding_in_python(bots) else "python"
    return engine


def native_of(ruleset, engine: str, players: bool = False):
    """The C engine of a ruleset when `engine` is "native" (a choice made in this process, which
    built it: here it comes from the cache), else None; `players` as choose's."""
    if engine != "native":
        return None
    from .engine import play
    from .native.engine import native_program
    return native_program(play.program_of(ruleset), players=players)


def on_worker(ruleset, engine: str, players: bool = False):
    """A worker's side of the client's choice: (the C engine, None) when `engine` is "native" and
    this machine builds it (a local worker loads the client's build from the cache; a cluster's
    worker builds its own, with the players' units at once when `players`: its players think),
    else (None, why not). A worker without a C compiler plays in Python: the same games and
    results, and the client prints why (`worker_line`)."""
    from .native.toolchain import NativeUnavailable
    try:
        return native_of(ruleset, engine, players), None
    except NativeUnavailable as e:  # (a construct the backend lacks is the file's: raised, as in one process)
        import socket
        return None, f"{socket.gethostname()}: {e.message}"


def worker_line(notes) -> str | None:
    """The one line a command prints when some of its workers played in Python though the client
    chose native (on_worker's notes, one per worker that did), or None."""
    notes = sorted({n for n in notes if n})
    if not notes:
        return None
    return ("engine: python on some workers (the same games, slower; no native engine there: "
            + "; ".join(notes) + ")")


def _ruleset(ruleset):
    """A Ruleset as it is; a path or a bundled game's name loaded (an OptionError naming the
    bundled games when it is neither); anything else an OptionError saying what is wanted."""
    from .compiler.program import Program
    from .language.graph import Ruleset
    if isinstance(ruleset, (Ruleset, Program)):  # (a compiled one too: the engines' own callers)
        return ruleset
    if isinstance(ruleset, (str, os.PathLike)):
        from . import load_ruleset
        from .bundled import resolve
        return load_ruleset(resolve(ruleset))
    raise OptionError(f"a game is set up from a ruleset: a loaded Ruleset (load_ruleset), a .cards file's path or "
                      f"a bundled game's name, not {type(ruleset).__name__}")


def new_game(ruleset, players: int, options: dict | None = None, seed: int = 0, engine="python"):
    """Set up a game and run it to its first decision, on the engine asked for: "python" (the
    default: the oracle), "native" (a State whose rules run in C: the same game, move for move;
    an OptionError when it cannot be had), "auto" (native where a compiler builds the ruleset), or
    a choice already made (an EngineChoice, or a NativeProgram; None for Python). `ruleset` is a
    loaded Ruleset, or a `.cards` file's path or a bundled game's name, read here."""
    ruleset = _ruleset(ruleset)
    if isinstance(engine, str):
        if engine == "python":
            native = None
        else:
            from .engine import program_of
            native = choose(program_of(ruleset), engine).native
    else:
        native = engine.native if isinstance(engine, EngineChoice) else engine
    if native is not None:
        from .native.engine import new_native_game
        return new_native_game(ruleset, players, options, seed)
    from .engine import new_game as new_python_game
    return new_python_game(ruleset, players, options, seed)
