"""Compiling C into shared libraries, keeping them in the cache, and loading them.

`find_compiler()` looks for a C compiler: $CC if set (split like a shell would), else `cc`,
`gcc` or `clang` on the PATH, else the one the `ziglang` package ships (`python -m ziglang cc`,
which `pip install 'cardrules[native]'` brings). Its version text is part of every key.

`build_library(source, name)` gives the shared library for a C source at
`<cache_dir()>/native/<sha256>.so` (`.dylib`, `.dll`), keyed by the source, the compiler (its
argv and version), the flags, cardrules' version and the platform. A library already there is
reused without compiling; otherwise the compiler writes a temporary file in the same folder,
which `os.replace` moves into place, so a parallel worker never loads half a library and two
processes compiling the same source at once both succeed. With the cache turned off
(CARDRULES_NO_CACHE=1) the library goes to a temporary folder removed when Python exits.

`unit_part(name)` is the fixed C every generated engine pastes, from runtime/unit/ (C files, not
Python strings, so that it is read and diffed as C); `unit_halves` splits one the program's lines
go into. Pasted, it is in the source a library is keyed by: a change to a unit file is a new key.

`load_library(path)` loads it with ctypes (the C ABI only: no Python headers needed). A cached
file that the system cannot load (damaged on the disk) is deleted and built once more.

Every failure is a `NativeUnavailable` with one line: no compiler, the compiler's first error,
a compiler that did not finish, a library that cannot be loaded. Nothing half-written stays in
the cache."""

from __future__ import annotations

import atexit
import ctypes
import functools
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..language.cache import VERSION, cache_dir
from ..errors import CardRulesError

INSTALL_HINT = "set CC, or pip install 'cardrules[native]'"
BASE_FLAGS = ("-shared", "-std=c99", "-Wall", "-Wextra")   # and the optimisation level, and -fPIC where libraries need it
OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3")
COMPILE_TIMEOUT = 300.0   # seconds for one compilation
VERSION_TIMEOUT = 30.0    # seconds for `cc --version`
KEY_FORMAT = 1            # raised when the key's recipe changes
RUNTIME_FILES = ("cardrules_rt.h", "random.c", "cards.c", "cards_read.c", "cr_engine.h")  # the header, then its parts in order


class NativeUnavailable(CardRulesError):
    """Native code cannot be built or loaded here: no C compiler, or the compiler (or the
    system's loader) failed. The message is one line saying which, and what to do."""

    stage = "native"


@dataclass(frozen=True)
class Compiler:
    """A C compiler: the command that runs it and the first line of its version text."""

    argv: tuple[str, ...]
    version: str

    def __str__(self) -> str:
        return f"{shlex.join(self.argv)} ({self.version})"


# ------------------------------------------------------------------ finding a compiler

_found: dict[tuple, Compiler | None] = {}
_why_none: dict[tuple, str] = {}
_lock = threading.Lock()


def _zig_argv() -> tuple[str, ...] | None:
    import importlib.util
    try:
        if importlib.util.find_spec("ziglang") is None:
            return None
    except (ImportError, ValueError):
        return None
    return (sys.executable, "-m", "ziglang")


def find_compiler() -> Compiler | None:
    """The C compiler to use, or None when there is none (`no_compiler_message()` says why).
    Asked once per process for each $CC and PATH."""
    key = (os.environ.get("CC"), os.environ.get("PATH"))
    with _lock:
        if key in _found:
            return _found[key]
    compiler, why = _look_for_compiler()
    with _lock:
        _found[key], _why_none[key] = compiler, why
    return compiler


def no_compiler_message() -> str:
    """The one line for a machine where find_compiler() found nothing."""
    key = (os.environ.get("CC"), os.environ.get("PATH"))
    why = _why_none.get(key, "")
    return f"no C compiler found{why} ({INSTALL_HINT})"


def _look_for_compiler() -> tuple[Compiler | None, str]:
    cc = os.environ.get("CC")
    if cc is not None and cc.strip():
        try:
            argv = shlex.split(cc)
        except ValueError as e:
            return None, f": CC={cc!r} cannot be read as a command ({e})"
        program = shutil.which(argv[0])
        if program is None:
            return None, f": CC={cc!r} names no program on this machine"
        return Compiler(tuple(argv), _version([program, *argv[1:]], "--version")), ""
    for name in ("cc", "gcc", "clang"):
        program = shutil.which(name)
        if program is not None:
            return Compiler((program,), _version([program], "--version")), ""
    zig = _zig_argv()
    if zig is not None:
        return Compiler((*zig, "cc"), "zig " + _version(list(zig), "version")), ""
    return None, ""


def _version(argv: list[str], arg: str) -> str:
    """The first line the command prints for `arg` ('?' when it prints nothing or fails)."""
    try:
        done = subprocess.run([*argv, arg], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace", timeout=VERSION_TIMEOUT, env=_env())
    except (OSError, subprocess.SubprocessError):
        return "?"
    for line in (done.stdout + "\n" + done.stderr).splitlines():
        if line.strip():
            return line.strip()
    return "?"


def _env() -> dict[str, str]:
    """The compiler's environment: this one, in the C locale (plain English messages, ASCII quotes)."""
    return {**os.environ, "LC_ALL": "C"}


# ------------------------------------------------------------------ the runtime's source

def runtime_dir() -> Path:
    """The folder of the C runtime's files (for `-I` when a program includes the header)."""
    return Path(__file__).resolve().parent / "runtime"


def runtime_file(name: str) -> str:
    """The text of one of the runtime's files (RUNTIME_FILES)."""
    if name not in RUNTIME_FILES:
        raise ValueError(f"the runtime has no file {name!r}")
    return resources.files(__package__).joinpath("runtime", name).read_text(encoding="utf-8")


def runtime_sources() -> list[Path]:
    """The runtime's C files, in order (to compile a program of one's own against the header)."""
    return [runtime_dir() / name for name in RUNTIME_FILES if name.endswith(".c")]


def runtime_source() -> str:
    """The C runtime as one text to put in front of generated code: the header, then each part's
    definitions (their `#include "cardrules_rt.h"` left out), so the library needs no `-I` and
    its key covers every file."""
    bodies = [runtime_file(p.name).replace('#include "cardrules_rt.h"\n', "", 1) for p in runtime_sources()]
    return "\n".join([runtime_file("cardrules_rt.h"), *bodies])


# the line of a unit file where the generated lines go (unit_halves)
UNIT_MARKER = re.compile(r"^[ \t]*/\* @generated: [^\n]*\*/\n", re.M)


@functools.cache
def unit_part(name: str) -> str:
    """The fixed C of runtime/unit/NAME, as codegen/emit.py pastes it into every engine (kept in C
    files to be read and diffed as C): the file less its opening comment, which is for its readers."""
    text = resources.files(__package__).joinpath("runtime", "unit", name).read_text(encoding="utf-8")
    if not text.startswith("/*") or "*/\n" not in text:
        raise ValueError(f"runtime/unit/{name} does not open with a comment")
    return text.split("*/\n", 1)[1]


def unit_halves(name: str) -> tuple[str, str]:
    """A unit file's C before and after its one line `/* @generated: what goes here */` (not pasted)."""
    parts = UNIT_MARKER.split(unit_part(name))
    if len(parts) != 2:
        raise ValueError(f"runtime/unit/{name} has {len(parts) - 1} lines /* @generated: ... */, not one")
    return parts[0], parts[1]


# ------------------------------------------------------------------ building

_recipes: dict[str, tuple] = {}   # library path -> what built it (load_library rebuilds a damaged one)
_scratch: list[Path] = []         # this process's folder when the cache is off


def library_suffix() -> str:
    if sys.platform == "win32":
        return ".dll"
    if sys.platform == "darwin":
        return ".dylib"
    return ".so"


def opt_level() -> str:
    """-O2, or CARDRULES_NATIVE_OPT (one of -O0 to -O3): the test suite compiles at -O0, in a
    fifth of the time, since it plays few games on each library it builds."""
    level = os.environ.get("CARDRULES_NATIVE_OPT", "-O2")
    return level if level in OPT_LEVELS else "-O2"


def compile_flags(extra_flags=(), opt: str | None = None) -> list[str]:
    """The flags every library is built with (`opt`, or the level opt_level says), then the caller's."""
    pic = [] if sys.platform == "win32" else ["-fPIC"]
    return [opt or opt_level(), *BASE_FLAGS, *pic, *extra_flags]


# an optimised program's library is code-generated in parallel partitions (GCC's link-time
# optimisation over the one file: its back end, most of a build, on every core)
PARALLEL_FLAGS = ("-flto=auto", "--param=lto-min-partition=2000")


def parallel_flags(compiler: Compiler | None, opt: str) -> tuple[str, ...]:
    """PARALLEL_FLAGS where they help and the compiler is GCC (not clang, not Zig's: they take
    other spellings), optimising, on Linux; else none. A build that fails with them is tried
    again without (NativeProgram)."""
    if compiler is None or opt == "-O0" or not sys.platform.startswith("linux"):
        return ()
    who = (compiler.version + " " + " ".join(compiler.argv)).lower()
    if "clang" in who or "zig" in who:
        return ()
    return PARALLEL_FLAGS


def library_key(c_source: str, compiler: Compiler, flags) -> str:
    """The sha256 naming a library: its source, the compiler and its version, the flags,
    cardrules' version and the platform."""
    recipe = [KEY_FORMAT, VERSION, sys.platform, platform.machine(), list(compiler.argv), compiler.version,
              list(flags)]
    h = hashlib.sha256(json.dumps(recipe).encode())
    h.update(b"\0")
    h.update(c_source.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def library_folder() -> Path:
    """`<cache_dir()>/native`, or this process's temporary folder when there is no cache."""
    folder = cache_dir()
    if folder is not None:
        try:
            (folder / "native").mkdir(parents=True, exist_ok=True)
            if os.access(folder / "native", os.W_OK):
                return folder / "native"
        except OSError:
            pass
    with _lock:
        if not _scratch:
            _scratch.append(Path(tempfile.mkdtemp(prefix="cardrules-native-")))
            atexit.register(shutil.rmtree, _scratch[0], True)
        return _scratch[0]


def build_library(c_source: str, name: str, *, extra_flags=(), compiler: Compiler | None = None,
                  opt: str | None = None, cached: bool = False) -> Path | None:
    """The shared library compiled from `c_source`, from the cache when it is there (no
    compiler run), else compiled now and put in the cache atomically. `name` names the source
    in the compiler's messages; `opt` an optimisation level other than opt_level()'s; `cached`:
    None rather than a compilation when it is not in the cache.
    NativeUnavailable when there is no compiler or it fails."""
    compiler = compiler or find_compiler()
    if compiler is None:
        raise NativeUnavailable(no_compiler_message())
    flags = compile_flags(extra_flags, opt)
    folder = library_folder()
    path = folder / (library_key(c_source, compiler, flags) + library_suffix())
    _recipes[str(path)] = (c_source, name, tuple(extra_flags), compiler, flags[0])
    if looks_whole(path):
        return path
    if cached:
        return None
    _compile(c_source, name, compiler, tuple(extra_flags), path, flags[0])
    return path


def runtime_objects(compiler: Compiler, opt: str, extra_flags=()) -> list[Path]:
    """The runtime's C files (runtime_sources), each compiled once into an object kept in the
    cache, keyed as a library is (its text and the header's, the compiler, the flags), side by
    side when several are missing: a program's library then compiles only the program's own C
    (0.7-0.9 s less a build at -O2; a third less at -O0, where the test suite builds every game
    and the differential fuzz its mutants). Where the platform's objects are not ELF (Windows,
    macOS), none: the runtime is pasted into the program's file."""
    if not sys.platform.startswith("linux"):
        return []
    flags = [opt, *BASE_FLAGS[1:], "-fPIC", *extra_flags, "-c"]
    header = runtime_file("cardrules_rt.h")
    out, missing = [], []
    for src in runtime_sources():
        text = header + "\n" + runtime_file(src.name).replace('#include "cardrules_rt.h"\n', "", 1)
        path = library_folder() / f"runtime-{src.stem}-{library_key(text, compiler, flags)[:40]}.o"
        if not _object_whole(path):
            missing.append((text, f"runtime-{src.stem}", path))
        out.append(path)
    if missing:
        from concurrent.futures import ThreadPoolExecutor
        # Ctrl-C reaches this thread alone: it kills the others' compilers, and a compiler a thread
        # starts after that (its process begun, not yet told of) is killed as it is told of
        running: list = []
        lock, stopping = threading.Lock(), threading.Event()

        def started(proc) -> None:
            with lock:
                running.append(proc)
                late = stopping.is_set()
            if late:
                _kill(proc, os.name == "posix", wait=False)
        with ThreadPoolExecutor(len(missing)) as pool:  # (each a compiler process: the threads only wait)
            try:
                for f in [pool.submit(_compile, text, name, compiler, (), path, flags=flags, whole=_object_whole,
                                      started=started) for text, name, path in missing]:
                    f.result()
            except BaseException:
                with lock:
                    stopping.set()
                    procs = list(running)
                pool.shutdown(wait=False, cancel_futures=True)  # (a compilation not begun never begins)
                for proc in procs:  # (not waited for here: its own thread is reading it, and a Popen
                    # read from two threads at once may wait for ever; the pool's end waits for that thread)
                    if proc.poll() is None:
                        _kill(proc, os.name == "posix", wait=False)
                raise
    return out


def _object_whole(path: Path) -> bool:
    """Whether `path` is a relocatable ELF object holding every section its header names."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    if size < 64 or head[:4] != b"\x7fELF" or head[4] != 2 or head[5] not in (1, 2):
        return False
    e = "<" if head[5] == 1 else ">"
    (shoff,) = struct.unpack_from(e + "Q", head, 40)
    shentsize, shnum = struct.unpack_from(e + "HH", head, 58)
    return shnum > 0 and shoff + shentsize * shnum <= size


def _stem(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(name).stem or name)[:64].strip(".")
    return stem or "module"


def _compile(c_source: str, name: str, compiler: Compiler, extra_flags, path: Path, opt: str | None = None, *,
             flags=None, whole=None, started=None) -> None:
    _sweep(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem[:16]}.", suffix=".tmp" + path.suffix)
    os.close(fd)
    try:
        with tempfile.TemporaryDirectory(prefix="cardrules-cc-") as where:
            src = _stem(name) + ".c"
            Path(where, src).write_text(c_source, encoding="utf-8")
            # the source by its bare name, run from its folder: messages say `name.c:3:5: error: ...`
            # (the caller's flags after it, where a linker wants its -l options)
            argv = [*compiler.argv, *(flags or compile_flags((), opt)), "-o", tmp, src, *extra_flags]
            code, err = _run(argv, where, started)
        if code != 0:
            raise NativeUnavailable(f"the C compiler failed: {first_error(err, compiler, code)}")
        if not (whole or looks_whole)(Path(tmp)):
            raise NativeUnavailable(f"the C compiler failed: {shlex.join(compiler.argv)} wrote no shared library")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _sweep(folder: Path) -> None:
    """Remove the temporary files of compilations that cannot still be running (a process killed
    mid-compile leaves one): older than twice the time a compilation may take."""
    limit = time.time() - 2 * COMPILE_TIMEOUT
    try:
        for p in folder.glob(".*.tmp*"):
            try:
                if p.stat().st_mtime < limit:
                    p.unlink()
            except OSError:
                pass
    except OSError:
        pass


def _run(argv: list[str], cwd: str, started=None) -> tuple[int, str]:
    """Run the compiler within COMPILE_TIMEOUT: (exit status, what it wrote on stderr). It runs
    in a process group of its own, killed whole (cc1, as, ld with it) on timeout or interrupt.
    `started(proc)`, when given, is told of the process (a caller on another thread kills it so)."""
    posix = os.name == "posix"
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace", env=_env(),
                                start_new_session=posix)
    except OSError as e:
        raise NativeUnavailable(f"the C compiler could not be run: {shlex.join(argv[:1])}: "
                                f"{e.strerror or e}") from None
    if started is not None:
        started(proc)
    try:
        out, err = proc.communicate(timeout=COMPILE_TIMEOUT)
    except BaseException as e:
        _kill(proc, posix)
        if isinstance(e, subprocess.TimeoutExpired):
            raise NativeUnavailable(f"the C compiler did not finish within {COMPILE_TIMEOUT:g} s") from None
        raise
    return proc.returncode, (err or "") + ("\n" + out if out else "")


def _kill(proc: subprocess.Popen, posix: bool, wait: bool = True) -> None:
    try:
        if posix:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:
        pass
    if not wait:  # (its own thread reads what it left)
        return
    try:
        proc.communicate(timeout=10)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        pass


_ERROR = re.compile(r"\b(?:fatal )?error\b\s*:")


def first_error(stderr: str, compiler: Compiler, code: int) -> str:
    """The line of the compiler's output that says what went wrong: its first error (not the
    linker driver's summary), else its first line, else its exit status."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    errors = [l for l in lines if _ERROR.search(l) and not l.startswith(("collect2:", "cc1:"))]
    line = (errors or [l for l in lines if "undefined reference" in l] or lines or [""])[0]
    if not line:
        status = f"signal {-code}" if code < 0 else f"status {code}"
        return f"{shlex.join(compiler.argv)} exited with {status} and said nothing"
    return line if len(line) <= 300 else line[:297] + "..."


# ------------------------------------------------------------------ is a library whole?

def looks_whole(path: Path) -> bool:
    """Whether `path` is a shared library the loader can read to its end: an ELF file holding
    every header table it names (a truncated file does not), or a Mach-O or PE file."""
    try:
        size = path.stat().st_size
        if size < 64:
            return False
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    if head[:4] == b"\x7fELF":
        return _elf_whole(head, size)
    if head[:4] in (b"\xfe\xed\xfa\xce", b"\xce\xfa\xed\xfe", b"\xfe\xed\xfa\xcf", b"\xcf\xfa\xed\xfe",
                    b"\xca\xfe\xba\xbe"):
        return True
    return head[:2] == b"MZ"


def _elf_whole(head: bytes, size: int) -> bool:
    bits, order = head[4], head[5]
    if bits not in (1, 2) or order not in (1, 2):
        return False
    e = "<" if order == 1 else ">"
    if bits == 2:
        phoff, shoff = struct.unpack_from(e + "QQ", head, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", head, 54)
    else:
        phoff, shoff = struct.unpack_from(e + "II", head, 28)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", head, 42)
    return phnum > 0 and phoff + phentsize * phnum <= size and shoff + shentsize * shnum <= size


# ------------------------------------------------------------------ loading

def load_library(path: str | Path) -> ctypes.CDLL:
    """The library at `path`, loaded with ctypes. One this process built (build_library) that is
    damaged (cut short, or the system cannot load it) is deleted and built once more;
    NativeUnavailable if that fails too."""
    path = Path(path)
    recipe = _recipes.get(str(path))
    if recipe is None or looks_whole(path):  # (a cut file may load, and fault when its end is read)
        try:
            return ctypes.CDLL(str(path))
        except OSError as e:
            if recipe is None:
                raise NativeUnavailable(f"the native library {path.name} cannot be loaded: {_one_line(e)}") from None
    try:
        path.unlink()
    except OSError:
        pass
    c_source, name, extra_flags, compiler, opt = recipe
    again = build_library(c_source, name, extra_flags=extra_flags, compiler=compiler, opt=opt)
    try:
        return ctypes.CDLL(str(again))
    except OSError as e:
        raise NativeUnavailable(f"the native library built from {_stem(name)}.c cannot be loaded: "
                                f"{_one_line(e)}") from None


def _one_line(e: OSError) -> str:
    return " ".join(str(e).split())
