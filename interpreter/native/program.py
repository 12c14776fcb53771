"""A ruleset's C engine, built and loaded: `native_program(program)` lowers a Program to C
(codegen/), builds it into a shared library (cached, toolchain.py), loads it and declares its
functions' argument types once (`NativeProgram`). What every game of a table size and options
begins from is made here once too (`NativeProgram.start_of`). The games themselves are
engine.py's `NativeGame`."""

from __future__ import annotations

import ctypes
import sys
import threading

from ..compiler.program import Program
from ..engine import play
from ..engine.legal import link
from ..engine.state import Move, State, copy_slots
from .toolchain import (NativeUnavailable, build_library, find_compiler, load_library, opt_level, parallel_flags,
                        runtime_file, runtime_objects, runtime_source)
from .codegen.emit import Module

CODE_FLAGS = ("-fno-semantic-interposition", "-ffp-contract=off")  # the search player's sums as Python's
NATIVE_FLAGS = (*CODE_FLAGS, "-lm")
_PROGRAMS: dict[int, tuple[Program, "NativeProgram"]] = {}


def native_program(program: Program, quick: bool = False, players: bool = False) -> "NativeProgram":
    """The C engine of a program, built once per program object (and once per machine: the cache).
    `quick`: compiled without optimising (four times sooner, the same games), for a program played
    only a few times (the differential fuzz of mutants). `players`: the job's players think in C
    (greedy, plan, search, the solver, fuzz's seeker), so the one library built has their units
    too; without it the engine alone is built, and the players' library only when one asks
    (NativeProgram.players)."""
    hit = _PROGRAMS.get(id(program))
    if hit is None or hit[0] is not program:
        hit = _PROGRAMS[id(program)] = (program, NativeProgram(program, quick, players))
    return hit[1]


def want_guard(lib) -> None:
    """The long calls into this library (whole games, a playout, a search) made on Python's main
    thread answer Ctrl-C and SIGTERM at once (runtime/cr_engine.h: cr_guard_enter): they stop with
    E_INTR, and the caller then runs Python's handler (check_signals). Other threads' calls are left
    alone: their signals are the main thread's to handle."""
    if not getattr(lib, "_guarded", False) and threading.current_thread() is threading.main_thread():
        lib.cr_want_guard(1)
        lib._guarded = True


def check_signals() -> None:
    """Python's handlers of the signals that came during a call into C, now rather than at some
    later bytecode: Ctrl-C raises KeyboardInterrupt here, as it would in the Python engine's loop;
    a handler that returns lets the caller go on with its work."""
    api = getattr(ctypes, "pythonapi", None)
    if api is not None:
        api.PyErr_CheckSignals()  # what the handler raised is raised here (a PyDLL checks the error flag)


# the first lines of every engine's C: POSIX's sigaction, for the guard of long calls (cr_engine.h)
FEATURES = "#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)\n#define _POSIX_C_SOURCE 200809L\n#endif"


def c_source(program: Program, runtime: bool = True, players: bool = True) -> tuple[str, Module]:
    """The whole C file of a program (the runtime, then the generated engine); without `runtime`,
    the runtime's header alone, for a library linked with its objects (toolchain.runtime_objects);
    without `players`, the engine without the players' units (Module.source)."""
    module = Module(program)
    generated = module.source(players)
    rt = runtime_source() if runtime else runtime_file("cardrules_rt.h")
    return "\n".join([FEATURES, rt, runtime_file("cr_engine.h"), generated]), module


class NativeProgram:
    """A program's C engine: `lib`, the library games are played by, and `players()`, the one
    with the players' units too (the same library when it was built with them). Both are built
    from the same program, so a game's memory made by one is read and played by the other."""

    def __init__(self, program: Program, quick: bool = False, players: bool = False):
        link(program)
        self.p = program
        self.quick = quick
        self._sources: dict[bool, tuple] = {}  # players -> (source, module), made once each
        # the engine alone unless the players are wanted; but a library with them already in the
        # cache (a command's workers, after the command built it) serves as it is. Unoptimised
        # (the test suite's level), the players' units add a third to a build of a second or less,
        # and building them later costs the whole again: they come at once, but for a quick build
        # (a mutant, a playthrough: random players only)
        players = players or (opt_level() == "-O0" and not quick)
        built = None if players else (self._build(False, cached=True) or self._build(True, cached=True))
        self.source, self.module, self.path, full = built or self._build(players)
        lib = self.lib = load_library(self.path)
        self._players = _player_types(lib) if full else None
        self._sources.clear()  # (kept only while building)
        u64p, i64p, i32p, u32p = (ctypes.POINTER(t) for t in (ctypes.c_uint64, ctypes.c_int64, ctypes.c_int32,
                                                               ctypes.c_uint32))
        lib.cr_state_bytes.argtypes, lib.cr_state_bytes.restype = [ctypes.c_int32], ctypes.c_size_t
        lib.cr_new.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int32, u32p, ctypes.c_size_t, i64p]
        lib.cr_apply.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.cr_legal.argtypes = [ctypes.c_void_p, i32p, i32p, i64p, ctypes.c_int32]
        lib.cr_step.argtypes = [ctypes.c_void_p, ctypes.c_int32, i64p, i64p, ctypes.c_int32]
        lib.cr_step.restype = ctypes.c_int32
        self.moves_by_id: dict[int, dict[int, Move]] = {}  # players -> move id -> the engine's Move (cr_move_ids)
        lib.cr_site.argtypes, lib.cr_site.restype = [ctypes.c_void_p, ctypes.c_int32, i64p], ctypes.c_int32
        lib.cr_legal.restype = ctypes.c_int32
        lib.cr_info.argtypes = [ctypes.c_void_p, i64p]
        lib.cr_slot.argtypes, lib.cr_slot.restype = [ctypes.c_void_p, ctypes.c_int32], ctypes.c_int64
        lib.cr_slots.argtypes, lib.cr_slots.restype = [ctypes.c_void_p, i64p, ctypes.c_int32], ctypes.c_int32
        lib.cr_slot_items.argtypes = [ctypes.c_void_p, ctypes.c_int32, i64p, ctypes.c_int32]
        lib.cr_player_var.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32]
        lib.cr_player_var.restype = ctypes.c_int64
        lib.cr_player_list.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, i64p, ctypes.c_int32]
        lib.cr_fired.argtypes, lib.cr_fired.restype = [ctypes.c_void_p, ctypes.c_int32], ctypes.c_int64
        lib.cr_cards.argtypes, lib.cr_cards.restype = [ctypes.c_void_p], ctypes.c_void_p
        lib.cr_view_layout.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64)]
        lib.cr_score.argtypes, lib.cr_score.restype = [ctypes.c_void_p, ctypes.c_int32], ctypes.c_int64
        lib.cr_play_many.argtypes = [ctypes.c_int32, i64p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, i64p]
        lib.cr_lcap.restype = ctypes.c_int32
        lib.cr_stack.argtypes = [ctypes.c_void_p, i32p, ctypes.c_int32]
        lib.cr_rng_words.argtypes = [ctypes.c_void_p, u32p]
        lib.cr_set_slot.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64]
        lib.cr_set_list.argtypes = [ctypes.c_void_p, ctypes.c_int32, i64p, ctypes.c_int32]
        lib.cr_set_player_var.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64]
        lib.cr_set_player_list.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, i64p, ctypes.c_int32]
        lib.cr_set_control.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64, ctypes.c_int32,
                                       ctypes.c_uint64, i32p, ctypes.c_int32, i64p]
        lib.cr_set_site.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, i32p, ctypes.c_int32, ctypes.c_int32,
                                    i32p, ctypes.c_int32, i32p, i32p, i64p]
        lib.cr_set_rng.argtypes = [ctypes.c_void_p, u32p]
        lib.cr_told.argtypes = lib.cr_set_told.argtypes = [ctypes.c_void_p, i32p, ctypes.c_int32]
        lib.cr_set_actor.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.crt_cards_load.argtypes = [ctypes.c_void_p, i32p, i32p, ctypes.POINTER(ctypes.c_uint8), i32p, ctypes.c_uint64]
        lib.cr_bytes.argtypes, lib.cr_bytes.restype = [ctypes.c_void_p], ctypes.c_size_t
        lib.cr_playout.argtypes = [ctypes.c_void_p, u32p, ctypes.c_int32, ctypes.c_int64, i64p, ctypes.c_int64, i64p]
        lib.cr_batch_layout.argtypes = [i64p]
        lib.cr_step_many.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]
        lib.cr_resume.argtypes = [ctypes.c_void_p]
        lib.cr_fired_all.argtypes = [ctypes.c_void_p, i64p]
        lib.cr_want_guard.argtypes = [ctypes.c_int32]
        lib.cr_interrupted.restype = ctypes.c_int32
        want_guard(lib)
        lib.crt_cards_count.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.crt_cards_check.argtypes = [ctypes.c_void_p]
        lib.crt_cards_remember.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.crt_cards_zone_data.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.crt_cards_zone_data.restype = ctypes.POINTER(ctypes.c_uint16)
        lib.crt_cards_face_up.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.crt_cards_played_by.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        del u64p, u32p
        # cr_step once more, without argument types: a decision's call from Python passes ready
        # pointers (ctypes converts nothing), the most frequent crossing there is
        self.raw_step = ctypes.CDLL(lib._name).cr_step
        self.raw_step.restype = ctypes.c_int32
        self.var_types = {slot: (v.type, bool(v.params)) for v, (_, slot, _) in zip(program.var_nodes, program.vars)}
        # the procedures' locals, which C keeps as numbers or lists (NativeGame.sync_locals)
        self.local_slots = [slot for slot in range(program.n_slots) if slot not in self.var_types
                            and self.module.slot_kind.get(slot) in ("value", "list")]
        self.lcap = lib.cr_lcap()
        self.max_moves = 1 << 15
        self._local = threading.local()
        self._starts: dict = {}  # (players, options) -> start_of's answer
        self.nparams = lib.cr_nparams()
        # each `choose by each`: its choice and the pc of its decision
        self.sites = [(ch, next(pc for pc, ins in enumerate(program.plain_code) if ins[1] is ch))
                      for ch in program.choices if ch.each_slot is not None]

    def _build(self, players: bool, cached: bool = False) -> tuple | None:
        """(source, module, library path, players) of this program's engine, with the players'
        units or not; with `cached`, None when that library is not in the cache."""
        opt = "-O0" if self.quick else opt_level()
        compiler = find_compiler()
        # the runtime comes compiled, once per machine and level (toolchain.runtime_objects): the
        # program's own C is then all a new ruleset compiles. (Pasted into the program's file, for
        # the compiler to inline, it played whole games no faster, and cost every build 0.5-0.7 s.)
        objects = runtime_objects(compiler, opt, CODE_FLAGS) if compiler else []
        made = self._sources.get(players)  # (a miss in the cache, then the build: one source made)
        if made is None:
            made = self._sources[players] = c_source(self.p, runtime=not objects, players=players)
        source, module = made
        name, extra = self.p.ruleset.name or "ruleset", (*map(str, objects), *NATIVE_FLAGS)
        parallel = parallel_flags(compiler, opt)
        # with the flags of parallel code generation, else (a compiler that refuses them) without
        tries = [(*parallel, *extra), extra] if parallel else [extra]
        for k, flags in enumerate(tries):
            try:
                path = build_library(source, name, extra_flags=flags, compiler=compiler, opt=opt, cached=cached)
            except NativeUnavailable:
                if k + 1 == len(tries):
                    raise
                continue
            if path is not None:
                return source, module, path, players
        return None

    def players(self) -> ctypes.CDLL | None:
        """The library with the players' units (greedy, plan, search, the solver, fuzz's seeker),
        built the first time one is wanted (from the cache after that) unless `lib` is it. The
        game's memory is the engine's: the same state, laid out alike in both. None when it
        cannot be built (said in one line, once): the players then think in Python, as where
        their C gives a decision back."""
        made = self._players
        if made is not None:  # (asked at every look-ahead: no lock once it is settled)
            return made or None
        with _BUILDING:
            if self._players is None:
                try:
                    self._players = _player_types(load_library(self._build(True)[2]))
                except NativeUnavailable as e:
                    print(f"engine: the players think in Python ({e.message})", file=sys.stderr)
                    self._players = False
            return self._players or None

    def buffers(self) -> tuple:
        """This thread's room for the legal moves read from C (shared by its games: read at once)."""
        b = getattr(self._local, "buffers", None)
        if b is None:
            n = self.max_moves
            b = self._local.buffers = ((ctypes.c_int32 * n)(), (ctypes.c_int32 * n)(),
                                       (ctypes.c_int64 * (n * self.nparams))(), (ctypes.c_int64 * n)())
        return b

    def view_layout(self, mem) -> list:
        """Where the cards' arrays lie in a game's memory (cr_view_layout: offsets in bytes, then
        the words of a mask), read into this thread's room."""
        b = getattr(self._local, "layout", None)
        if b is None:
            b = self._local.layout = (ctypes.c_int64 * 11)()
        self.lib.cr_view_layout(mem, b)
        return b[:]

    def stack_buffer(self) -> ctypes.Array:
        """This thread's room for reading a game's procedure stack out of C (256 entries)."""
        b = getattr(self._local, "stack", None)
        if b is None:
            b = self._local.stack = (ctypes.c_int32 * 256)()
        return b

    def list_buffer(self) -> ctypes.Array:
        """This thread's room for reading one list slot out of C (a slot holds at most LCAP values)."""
        b = getattr(self._local, "list", None)
        if b is None:
            b = self._local.list = (ctypes.c_int64 * self.lcap)()
        return b

    def start_of(self, players: int, options: dict | None) -> tuple:
        """What every new game at this table size with these options begins from: the view
        play._fresh makes before the rules run (seed 0: `_begun` gives each game its own), the
        options' row C copies in, and the state's size, made once (they were half of a new
        game's time: a PettingZoo reset, an OpenSpiel state). A bad player count or option
        raises here as play._fresh does."""
        try:
            key = (players, tuple(sorted(options.items())) if options else ())
            hit = self._starts.get(key)
        except TypeError:  # (a value that cannot be a key: made afresh)
            key, hit = None, None
        if hit is None:
            view = play._fresh(self.p, players, options, 0, rng=False)
            opts = self.options_row(view.opts)
            hit = (view, (ctypes.c_int64 * len(opts))(*opts), self.lib.cr_state_bytes(players))
            if key is not None and len(self._starts) < STARTS_KEPT:
                self._starts[key] = hit
        return hit

    def options_row(self, opts: list) -> list[int]:
        out = []
        for o, v in zip(self.p.options, opts):
            out.append(o.choices.index(v) if o.type == "enum" else int(v))
        return out or [0]


_BUILDING = threading.Lock()  # one players' library built at a time (the search's threads ask together)


def _player_types(lib: ctypes.CDLL) -> ctypes.CDLL:
    """`lib` with the players' functions' argument types declared."""
    u32p, i64p, i32p = (ctypes.POINTER(t) for t in (ctypes.c_uint32, ctypes.c_int64, ctypes.c_int32))
    lib.cr_greedy.argtypes, lib.cr_greedy.restype = [ctypes.c_void_p, i64p, ctypes.c_int32, ctypes.c_uint64], ctypes.c_int32
    lib.cr_permuted_differs.argtypes = [ctypes.c_void_p, ctypes.c_int32, u32p]
    lib.cr_permuted_differs.restype = ctypes.c_int32
    lib.cr_try_moves.argtypes = [ctypes.c_void_p, i32p, ctypes.c_int32, i64p]
    lib.cr_try_moves.restype = ctypes.c_int32
    lib.cr_plan.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, u32p, ctypes.c_double, ctypes.c_int32,
                            i32p, i32p, i64p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int32,
                            ctypes.POINTER(ctypes.c_double)]
    lib.cr_plan.restype = ctypes.c_int32
    lib.cr_plan_view.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_uint64)]
    lib.cr_plan_view_after.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_uint64)]
    lib.cr_plan_view_after.restype = ctypes.c_int32
    lib.cr_solve.argtypes = [ctypes.c_void_p, i32p, i32p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64,
                             ctypes.c_double, i32p, ctypes.c_int32, ctypes.POINTER(ctypes.c_double), i64p]
    lib.cr_solve.restype = ctypes.c_int32
    lib.cr_search_new.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_double, ctypes.c_double,
                                  ctypes.c_int32, i32p, ctypes.c_int32]
    lib.cr_search_new.restype = ctypes.c_void_p
    lib.cr_search_run.argtypes = [ctypes.c_void_p, u32p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64]
    lib.cr_search_run.restype = ctypes.c_int
    lib.cr_search_root.argtypes = [ctypes.c_void_p, i32p, i64p, ctypes.POINTER(ctypes.c_double), ctypes.c_int32]
    lib.cr_search_root.restype = ctypes.c_int32
    lib.cr_search_free.argtypes = [ctypes.c_void_p]
    lib.cr_search_peek.argtypes = [ctypes.c_void_p]
    lib.cr_search_peek.restype = None
    lib.cr_search_add_truth.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.cr_search_add_truth.restype = ctypes.c_int32
    lib.cr_interrupted.restype = ctypes.c_int32
    return lib


STARTS_KEPT = 64  # the table sizes and option sets whose new games' start each program keeps


def view_copy(v: State) -> State:
    """A copy of a native game's view, brought up to date from its own C state when read: what
    NativeGame._sync rebuilds is left shared (it puts new objects in place of them), so a search
    that copies at every step pays for few of them; the variables (written entry by entry), the
    history, the legal moves and the memos are the copy's own."""
    c = State.__new__(State)
    copy_slots(v, c)
    c.slots = list(v.slots)
    c.history = list(v.history)
    c._legal = list(v._legal) if v._legal is not None else None
    c.memo, c.cmemo, c.legal_cache = {}, {}, {}
    return c


def _begun(start: State, seed: int) -> State:
    """A new game's view: a copy of `start` (NativeProgram.start_of) with the game's seed."""
    s = view_copy(start)
    s.seed = seed
    return s
