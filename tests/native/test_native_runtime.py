"""The native engine's foundations (interpreter/native): the C runtime's random numbers draw what
Python's random.Random draws, the same numbers in the same number, for many seeds and sizes; and
C sources become shared libraries kept in the cache by content, rebuilt when damaged, with one
line for every failure and nothing half-written left behind.

The draws are compared as streams: one generator per seed runs a program of operations
(getrandbits(k), _randbelow(n), choice, shuffle, random()) and the outputs must agree one by one,
then the next 32-bit word too (a draw too many or too few anywhere shows there)."""

from __future__ import annotations

import ctypes
import os
import random
import re
import shlex
import signal
import stat
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import procs
from native_support import sanitizers_work
import pytest

from interpreter.engine.state import _shuffle
from interpreter.native import (NativeUnavailable, build_library, find_compiler, load_library, random_from_state,
                                runtime_dir, runtime_source, runtime_sources, seed_words,
                                state_words)
from interpreter.native import toolchain as native_build

COMPILER = find_compiler()
if COMPILER is None:
    pytest.skip("no C compiler on this machine (set CC, or pip install 'cardrules[native]')", allow_module_level=True)

# ------------------------------------------------------------------ the operations, in C and in Python

G, BITS, BELOW, CHOICE, SHUFFLE, DOUBLE = range(6)   # genrand32, getrandbits(k), _randbelow(n), ...

OPS_C = r"""
#include <string.h>

/* One operation on the generator; its outputs go to out (a shuffle writes n of them, a double
 * its 64 bits). The number written. */
static size_t t_op(crt_rng *rng, unsigned kind, uint64_t arg, uint64_t *out)
{
    size_t i;
    double d;
    uint32_t *x;
    switch (kind) {
    case 0: out[0] = crt_genrand32(rng); return 1;
    case 1: out[0] = crt_getrandbits(rng, (unsigned)arg); return 1;
    case 2: out[0] = crt_randbelow(rng, arg); return 1;
    case 3: out[0] = crt_choice_index(rng, (size_t)arg); return 1;
    case 4:
        x = (uint32_t *)malloc(((size_t)arg + 1) * sizeof *x);
        if (x == NULL) return 0;
        for (i = 0; i < (size_t)arg; i++) x[i] = (uint32_t)i;
        crt_shuffle_u32(rng, x, (size_t)arg);
        for (i = 0; i < (size_t)arg; i++) out[i] = x[i];
        free(x);
        return (size_t)arg;
    case 5: d = crt_random_double(rng); memcpy(&out[0], &d, sizeof d); return 1;
    }
    return 0;
}

/* Seed with key[0..n_key-1], run the operations, and return how many outputs were written. */
size_t t_run(const uint32_t *key, size_t n_key, const unsigned char *kinds, const uint64_t *args,
             size_t n_ops, uint64_t *out)
{
    crt_rng rng;
    size_t i, n = 0;
    crt_seed_words(&rng, key, n_key);
    for (i = 0; i < n_ops; i++)
        n += t_op(&rng, kinds[i], args[i], out + n);
    return n;
}

size_t t_sizeof_rng(void) { return sizeof(crt_rng); }
"""

DRIVER_MAIN = r"""
#include <stdio.h>

/* Reads "S n w1 .. wn" (seed) and "O kind arg" (an operation) lines, prints each output. */
int main(void)
{
    static uint64_t out[4096];
    uint32_t key[64];
    crt_rng rng;
    char tag;
    unsigned long long a, b;
    size_t i, n, k;
    crt_seed_u64(&rng, 0);
    while (scanf(" %c", &tag) == 1) {
        if (tag == 'S') {
            if (scanf("%llu", &a) != 1 || a > 64) return 2;
            for (k = 0; k < (size_t)a; k++) {
                if (scanf("%llu", &b) != 1) return 2;
                key[k] = (uint32_t)b;
            }
            crt_seed_words(&rng, key, (size_t)a);
        } else if (tag == 'O') {
            if (scanf("%llu %llu", &a, &b) != 2 || (a == 4 && b > 4096)) return 2;
            n = t_op(&rng, (unsigned)a, (uint64_t)b, out);
            for (i = 0; i < n; i++) printf("%llu\n", (unsigned long long)out[i]);
        } else {
            return 2;
        }
    }
    return 0;
}
"""


def py_op(r: random.Random, kind: int, arg: int) -> list[int]:
    """What Python draws for one operation, as the C side writes it (a double as its bits)."""
    if kind == G:
        return [r.getrandbits(32)]
    if kind == BITS:
        return [r.getrandbits(arg)]
    if kind == BELOW:
        return [r._randbelow(arg)]
    if kind == CHOICE:
        return [r.choice(range(arg))]
    if kind == SHUFFLE:
        xs = list(range(arg))
        r.shuffle(xs)
        return xs
    if kind == DOUBLE:
        return [struct.unpack("<Q", struct.pack("<d", r.random()))[0]]
    raise ValueError(kind)


def py_run(seed: int, ops) -> list[int]:
    r = random.Random(seed)
    return [v for kind, arg in ops for v in py_op(r, kind, arg)]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """The runtime and the operations above, as one library (built in a cache of its own)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDRULES_CACHE_DIR", str(tmp_path_factory.mktemp("native-cache")))
        mp.delenv("CARDRULES_NO_CACHE", raising=False)
        path = build_library(runtime_source() + "#include <stdlib.h>\n" + OPS_C, "crt_test", extra_flags=("-Werror",))
        lib = load_library(path)
    lib.t_run.restype = ctypes.c_size_t
    lib.t_run.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t, ctypes.POINTER(ctypes.c_ubyte),
                          ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64)]
    lib.t_sizeof_rng.restype = ctypes.c_size_t
    rng_p = ctypes.c_void_p
    for fn, res, args in [("crt_seed_words", None, [rng_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t]),
                          ("crt_seed_u64", None, [rng_p, ctypes.c_uint64]),
                          ("crt_seed_i64", None, [rng_p, ctypes.c_int64]),
                          ("crt_genrand32", ctypes.c_uint32, [rng_p]),
                          ("crt_getrandbits", ctypes.c_uint64, [rng_p, ctypes.c_uint]),
                          ("crt_randbelow", ctypes.c_uint64, [rng_p, ctypes.c_uint64]),
                          ("crt_choice_index", ctypes.c_size_t, [rng_p, ctypes.c_size_t]),
                          ("crt_shuffle_u32", None, [rng_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t]),
                          ("crt_random_double", ctypes.c_double, [rng_p]),
                          ("crt_get_state", None, [rng_p, ctypes.POINTER(ctypes.c_uint32)]),
                          ("crt_set_state", ctypes.c_int, [rng_p, ctypes.POINTER(ctypes.c_uint32)]),
                          ("crt_bit_length64", ctypes.c_uint, [ctypes.c_uint64])]:
        getattr(lib, fn).restype = res
        getattr(lib, fn).argtypes = args
    return lib


def c_run(lib, seed: int, ops) -> list[int]:
    key = seed_words(seed)
    n_out = sum(arg if kind == SHUFFLE else 1 for kind, arg in ops)
    out = (ctypes.c_uint64 * max(n_out, 1))()
    n = lib.t_run((ctypes.c_uint32 * len(key))(*key), len(key), (ctypes.c_ubyte * len(ops))(*[k for k, _ in ops]),
                  (ctypes.c_uint64 * len(ops))(*[a for _, a in ops]), len(ops), out)
    assert n == n_out
    return list(out[:n])


def new_rng(lib):
    return ctypes.create_string_buffer(lib.t_sizeof_rng())


NAMED_SEEDS = [0, 1, 2, 5, 2**32 - 1, 2**32, 2**64 + 3, -7, 10**30]


def random_seeds() -> list[int]:
    pick = random.Random(20290)
    return [pick.choice((1, 1, -1)) * pick.getrandbits(pick.choice((8, 31, 32, 33, 64, 65, 100, 200)))
            for _ in range(200)]


SEEDS = NAMED_SEEDS + random_seeds()
SIZES = [1, 2, 3, 4, 5, 31, 32, 33, 52, 60, 96, 120, 193, 2**31 + 5, 2**40 + 1, 2**63, 2**64 - 1]


def ops_for(seed: int) -> list[tuple[int, int]]:
    """Every kind of draw, in an order of the seed's own (so each kind follows each other kind)."""
    bits = [(BITS, k) for k in range(1, 65) for _ in range(3)]
    below = [(BELOW, n) for n in SIZES for _ in range(4)]
    choice = [(CHOICE, n) for n in SIZES[:13]]
    doubles = [(DOUBLE, 0)] * 8
    ops = bits + below + choice + doubles
    random.Random(seed).shuffle(ops)
    return ops + [(G, 0)]


# ------------------------------------------------------------------ the draws

def test_the_runtime_draws_what_python_draws_for_every_seed(lib):
    """getrandbits(k) for k in 1..64, _randbelow and choice for small and huge n, random(),
    for 209 seeds (small, word-sized, several words, negative), then the next word."""
    for seed in SEEDS:
        ops = ops_for(seed)
        assert c_run(lib, seed, ops) == py_run(seed, ops), f"seed {seed}"


def test_shuffles_of_every_size_draw_as_python_and_the_engine_do(lib):
    """Shuffles of 0..200 cards one after another from one generator: random.Random.shuffle and
    the engine's own _shuffle (engine/state.py) give the same orders, then the same next word."""
    sizes = list(range(201))
    ops = [(SHUFFLE, n) for n in sizes] + [(G, 0)]
    for seed in SEEDS:
        got = c_run(lib, seed, ops)
        assert got == py_run(seed, ops), f"seed {seed}"
        r, engine = random.Random(seed), []
        for n in sizes:
            xs = list(range(n))
            _shuffle(r.getrandbits, xs)
            engine += xs
        assert got == engine + [r.getrandbits(32)], f"seed {seed}"


def test_seeding_from_a_machine_int_is_seeding_from_its_words(lib):
    cases = [0, 1, 5, 2**32 - 1, 2**32, 2**33 + 17, 2**63, 2**64 - 1]
    for n in cases:
        a, b = new_rng(lib), new_rng(lib)
        lib.crt_seed_u64(a, n)
        key = seed_words(n)
        lib.crt_seed_words(b, (ctypes.c_uint32 * len(key))(*key), len(key))
        assert a.raw == b.raw, n
        r = random.Random(n)
        assert [lib.crt_genrand32(a) for _ in range(700)] == [r.getrandbits(32) for _ in range(700)], n
    for n in (-7, -1, 0, 7, -(2**32), -(2**63), 2**63 - 1):
        a, r = new_rng(lib), random.Random(n)
        lib.crt_seed_i64(a, n)
        assert [lib.crt_getrandbits(a, 64) for _ in range(5)] == [r.getrandbits(64) for _ in range(5)], n
    # no words at all is the key of 0, as CPython seeds 0; and a leading zero word is another key
    a, b = new_rng(lib), new_rng(lib)
    lib.crt_seed_words(a, None, 0)
    lib.crt_seed_u64(b, 0)
    assert a.raw == b.raw
    lib.crt_seed_words(a, (ctypes.c_uint32 * 2)(5, 0), 2)
    lib.crt_seed_u64(b, 5)
    assert a.raw != b.raw


def test_seed_words_cut_any_int_as_cpython_does():
    assert seed_words(0) == [0]
    assert seed_words(-7) == seed_words(7) == [7]
    assert seed_words(2**32) == [0, 1]
    assert seed_words(2**64 + 3) == [3, 0, 1]
    big = 10**30
    assert sum(w << (32 * i) for i, w in enumerate(seed_words(big))) == big
    with pytest.raises(TypeError):
        seed_words(1.5)


def test_the_edges_of_the_single_draws(lib):
    a, r = new_rng(lib), random.Random(99)
    lib.crt_seed_u64(a, 99)
    assert lib.crt_getrandbits(a, 0) == r.getrandbits(0) == 0          # draws nothing, in both
    assert lib.crt_randbelow(a, 1) == r._randbelow(1) == 0            # draws one bit, in both
    assert lib.crt_randbelow(a, 0) == 0                                # Python's would never end: no draw
    assert lib.crt_choice_index(a, 0) == 0                             # Python raises before drawing
    assert lib.crt_getrandbits(a, 65) == 0                             # out of range: no draw
    assert lib.crt_genrand32(a) == r.getrandbits(32)
    assert [lib.crt_bit_length64(n) for n in (0, 1, 2, 3, 255, 256, 2**63, 2**64 - 1)] == \
        [n.bit_length() for n in (0, 1, 2, 3, 255, 256, 2**63, 2**64 - 1)]
    x = (ctypes.c_uint32 * 52)(*range(100, 152))
    lib.crt_shuffle_u32(a, x, 52)
    xs = list(range(100, 152))
    r.shuffle(xs)
    assert list(x) == xs and lib.crt_genrand32(a) == r.getrandbits(32)
    lib.crt_shuffle_u32(a, None, 0)                                    # nothing to shuffle: no draw
    lib.crt_shuffle_u32(a, x, 1)
    assert lib.crt_random_double(a) == r.random()


def test_a_state_moves_between_python_and_c_and_a_copy_is_a_clone(lib):
    a, r = new_rng(lib), random.Random(2**64 + 3)
    key = seed_words(2**64 + 3)
    lib.crt_seed_words(a, (ctypes.c_uint32 * len(key))(*key), len(key))
    for _ in range(1000):   # past one block of 624 words
        assert lib.crt_genrand32(a) == r.getrandbits(32)
    out = (ctypes.c_uint32 * 625)()
    lib.crt_get_state(a, out)
    assert list(out) == state_words(r)
    back = random_from_state(out)
    assert [back.getrandbits(32) for _ in range(50)] == [r.getrandbits(32) for _ in range(50)]
    # Python's state into C, mid-block
    other = random.Random(31337)
    other.getrandbits(32 * 100)
    b = new_rng(lib)
    assert lib.crt_set_state(b, (ctypes.c_uint32 * 625)(*state_words(other))) == 0
    assert [lib.crt_randbelow(b, 52) for _ in range(900)] == [other._randbelow(52) for _ in range(900)]
    bad = state_words(other)
    bad[624] = 625
    before = b.raw
    assert lib.crt_set_state(b, (ctypes.c_uint32 * 625)(*bad)) == -1 and b.raw == before
    with pytest.raises(ValueError):
        random.Random().setstate((3, tuple(bad), None))                # Python refuses it too
    # a struct copy is a clone: both draw the same from there on
    c = new_rng(lib)
    ctypes.memmove(c, b, len(b.raw))
    assert [lib.crt_getrandbits(b, 40) for _ in range(700)] == [lib.crt_getrandbits(c, 40) for _ in range(700)]


# ------------------------------------------------------------------ the runtime's source

def test_the_runtime_compiles_without_a_warning_and_names_only_crt(tmp_path):
    for extra in ([], ["-pedantic", "-O0"], ["-pedantic", "-O3"]):
        for part in runtime_sources():
            done = procs.run([*COMPILER.argv, "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", *extra, "-c",
                              str(part), "-o", str(tmp_path / "rt.o")], capture_output=True, text=True, timeout=120)
            assert done.returncode == 0 and done.stderr == "", (part, done.stderr)
    assert '#include "cardrules_rt.h"' not in runtime_source()
    assert "crt_shuffle_u32" in runtime_source() and "typedef struct crt_rng" in runtime_source()
    header = (runtime_dir() / "cardrules_rt.h").read_text()
    assert "Python.h" not in runtime_source()
    declared = re.findall(r"^\w[\w \*]*?\b(\w+)\(", header, re.M)
    assert declared and all(n.startswith("crt_") for n in declared), declared
    defined = re.findall(r"^\w[\w \*]*?\b(\w+)\(", "".join(p.read_text() for p in runtime_sources()), re.M)
    assert all(n.startswith("crt_") for n in defined), defined
    macros = re.findall(r"^#define (\w+)", runtime_source(), re.M)
    assert all(m.startswith("CRT_") or m == "CARDRULES_RT_H" for m in macros), macros


def test_every_unit_file_is_pasted_whole_into_an_engine_and_none_is_compiled_alone():
    """runtime/unit/ holds the fixed C of each generated engine: every file's C (its halves, for a
    file the program's lines go into) is in a ruleset's source, its opening comment is not, and
    none is a runtime file compiled by itself."""
    from interpreter import load_ruleset
    from interpreter.engine.play import program_of
    from interpreter.native.engine import c_source
    unit = runtime_dir() / "unit"
    names = sorted(p.name for p in unit.iterdir())
    assert {"state.h", "helpers.c", "keep.c", "loop.c", "entries.c", "search.c", "batch.c"} <= set(names)
    assert not any(p.parent == unit for p in runtime_sources())
    source, module = c_source(program_of(load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / "classic"
                                                      / "cribbage.cards")))
    assert module.keeps  # (keep.c is pasted only where a definition keeps its answers)
    for name in names:
        text = (unit / name).read_text()
        parts = native_build.UNIT_MARKER.split(native_build.unit_part(name))
        assert len(parts) in (1, 2) and all(part in source for part in parts), name
        assert text.startswith("/* ") and text.split("*/\n", 1)[0] not in source, name
    assert "@generated" not in source


def test_the_draws_under_address_and_undefined_behaviour_sanitizers(tmp_path):
    """A standalone driver (the runtime's own files, -I the runtime folder) run under ASan and
    UBSan prints the same streams as Python draws."""
    if not sanitizers_work(COMPILER.argv, tmp_path):
        pytest.skip("this compiler cannot build and run -fsanitize=address,undefined programs")
    driver = tmp_path / "driver.c"
    driver.write_text('#include <stdlib.h>\n#include "cardrules_rt.h"\n' + OPS_C + DRIVER_MAIN)
    exe = tmp_path / "driver"
    built = procs.run([*COMPILER.argv, "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-fno-omit-frame-pointer",
                       "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-I", str(runtime_dir()),
                       str(driver), *map(str, runtime_sources()), "-o", str(exe)],
                      capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stderr
    seeds = NAMED_SEEDS + random_seeds()[:20]
    lines, expected = [], []
    for seed in seeds:
        ops = ops_for(seed) + [(SHUFFLE, n) for n in (0, 1, 2, 52, 200)] + [(G, 0)]
        key = seed_words(seed)
        lines.append(f"S {len(key)} " + " ".join(map(str, key)))
        lines += [f"O {kind} {arg}" for kind, arg in ops]
        expected += py_run(seed, ops)
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    ran = procs.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, env=env)
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr[-3000:]
    assert [int(v) for v in ran.stdout.split()] == expected


# ------------------------------------------------------------------ building and the cache

@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own; the libraries go to <it>/native."""
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def counting_cc(tmp_path, monkeypatch):
    """CC set to a wrapper around the real compiler that counts its compilations; the count."""
    count = tmp_path / "compilations"
    script = tmp_path / "counting-cc"
    script.write_text("#!/bin/sh\n"
                      f'case " $* " in *" -o "*) echo x >> {shlex.quote(str(count))};; esac\n'
                      f'exec {shlex.join(COMPILER.argv)} "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CC", str(script))
    return lambda: len(count.read_text().split()) if count.exists() else 0


def unique_source(tmp_path: Path, value: int = 7) -> str:
    """A small source never loaded before in this process (the loader keeps libraries by name)."""
    return f"/* {tmp_path} */\nint answer(void) {{ return {value}; }}\n"


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.mark.skipif(os.name != "posix", reason="the counting compiler is a shell script")
def test_a_library_is_built_once_and_then_taken_from_the_cache(cache, counting_cc, tmp_path):
    source = unique_source(tmp_path)
    path = build_library(source, "answer")
    assert counting_cc() == 1
    assert path.parent == cache / "native" and path.suffix == ".so" and len(path.stem) == 64
    assert build_library(source, "another name, same source") == path and counting_cc() == 1
    assert load_library(path).answer() == 7
    flagged = build_library(source, "answer", extra_flags=("-DSOMETHING=1",))
    assert flagged != path and counting_cc() == 2
    changed = build_library(unique_source(tmp_path, 8), "answer")
    assert changed not in (path, flagged) and counting_cc() == 3
    assert files_in(cache / "native") == sorted(p.name for p in (path, flagged, changed))   # no temporary file left


@pytest.mark.skipif(os.name != "posix", reason="the counting compiler is a shell script")
def test_a_damaged_library_in_the_cache_is_built_again(cache, counting_cc, tmp_path):
    source = unique_source(tmp_path, 11)
    path = build_library(source, "answer")
    whole = path.stat().st_size
    with open(path, "r+b") as f:   # cut short, as a full disk or a crash of something else would
        f.truncate(whole // 2)
    assert build_library(source, "answer") == path and counting_cc() == 2 and path.stat().st_size == whole
    path.write_bytes(b"not a library at all, but long enough to be read as one" * 4)
    assert build_library(source, "answer") == path and counting_cc() == 3 and path.stat().st_size == whole
    # damaged after build_library handed it out: cut short, or whole but not loadable (its
    # segment table wiped): load_library builds it again before loading
    with open(path, "r+b") as f:
        f.truncate(whole - 100)
    assert load_library(path).answer() == 11 and counting_cc() == 4
    source = unique_source(tmp_path, 12)
    path = build_library(source, "answer")
    with open(path, "r+b") as f:
        f.seek(64)
        f.write(b"\0" * 1000)
    assert native_build.looks_whole(path)
    assert load_library(path).answer() == 12 and counting_cc() == 6
    assert len(files_in(cache / "native")) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the runtime comes as objects on Linux alone")
def test_a_build_links_the_runtime_compiled_once_and_a_damaged_object_is_compiled_again(cache, counting_cc,
                                                                                        monkeypatch):
    """The runtime's files are compiled once per level, into objects kept in the cache, and each
    program's library links them (its own file holds the header alone), optimised or not; a cut
    object is compiled again. A program built so plays the game a library with the runtime pasted
    in plays."""
    from interpreter import load_ruleset
    from interpreter.engine.play import program_of
    from interpreter.native.program import CODE_FLAGS, NATIVE_FLAGS, NativeProgram, c_source
    objects = native_build.runtime_objects(native_build.find_compiler(), "-O0", CODE_FLAGS)
    assert [p.name.split("-")[1] for p in objects] == ["random", "cards", "cards_read"] and counting_cc() == 3
    assert native_build.runtime_objects(native_build.find_compiler(), "-O0", CODE_FLAGS) == objects and counting_cc() == 3
    with open(objects[1], "r+b") as f:
        f.truncate(objects[1].stat().st_size // 2)
    assert native_build.runtime_objects(native_build.find_compiler(), "-O0", CODE_FLAGS) == objects and counting_cc() == 4
    p = program_of(load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / "classic" / "kuhn-poker.cards"))
    linked = NativeProgram(p, quick=True)
    assert "void crt_shuffle_u32(crt_rng *rng, uint32_t *x, size_t n)\n{" not in linked.source  # the header alone
    pasted = load_library(build_library(c_source(p)[0], "kuhn", extra_flags=NATIVE_FLAGS, opt="-O0"))
    results = []
    for lib in (linked.lib, pasted):
        out = (ctypes.c_int64 * (50 * (9 + len(p.rule_names))))()
        lib.cr_play_many.argtypes = [ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                     ctypes.c_void_p]
        assert lib.cr_play_many(2, (ctypes.c_int64 * 8)(), 0, 50, 1 << 40, out) == 0
        results.append(list(out))
    assert results[0] == results[1] and counting_cc() == 6  # the objects kept: two libraries more
    assert {p.name for p in objects} <= set(files_in(cache / "native"))
    monkeypatch.setenv("CARDRULES_NATIVE_OPT", "-O2")  # as users build: the runtime's objects at -O2
    optimised = NativeProgram(p)
    assert "void crt_shuffle_u32(crt_rng *rng, uint32_t *x, size_t n)\n{" not in optimised.source
    assert counting_cc() == 10  # its three objects, side by side, and the library
    out = (ctypes.c_int64 * (50 * (9 + len(p.rule_names))))()
    optimised.lib.cr_play_many.argtypes = [ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                           ctypes.c_int64, ctypes.c_void_p]
    assert optimised.lib.cr_play_many(2, (ctypes.c_int64 * 8)(), 0, 50, 1 << 40, out) == 0
    assert list(out) == results[0]


def test_a_library_that_is_not_ours_and_cannot_be_loaded_is_one_line(tmp_path):
    bad = tmp_path / "bad.so"
    bad.write_bytes(b"\x7fELF" + b"\0" * 100)
    with pytest.raises(NativeUnavailable, match=r"^error: the native library bad.so cannot be loaded: ") as e:
        load_library(bad)
    assert "\n" not in e.value.render()


def test_a_failing_compiler_is_one_line_and_leaves_nothing_in_the_cache(cache, tmp_path, monkeypatch):
    broken = "int answer(void) {\n    return 7\n}\n"
    with pytest.raises(NativeUnavailable) as e:
        build_library(broken, "rules.c")
    line = e.value.render()
    assert "\n" not in line and line.startswith("error: the C compiler failed: rules.c:2:"), line
    assert "error: expected" in line, line
    assert files_in(cache / "native") == []
    # a warning is an error when the caller asks so
    with pytest.raises(NativeUnavailable, match=r"rules.c:1:\d+: error: unused variable 'x'"):
        build_library("int answer(void) { int x; return 7; }\n", "rules", extra_flags=("-Werror",))
    assert files_in(cache / "native") == []
    if os.name == "posix":
        monkeypatch.setenv("CC", "false")
        with pytest.raises(NativeUnavailable, match=r"^error: the C compiler failed: false exited with status 1 and said "
                                                    r"nothing$"):
            build_library(unique_source(tmp_path), "answer")
        assert files_in(cache / "native") == []


def test_no_compiler_is_one_line_saying_what_to_do(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert find_compiler() is None
    with pytest.raises(NativeUnavailable) as e:
        build_library(unique_source(tmp_path), "answer")
    assert e.value.message == (f"no C compiler found: CC={str(tmp_path / 'no-such-cc')!r} names no program on this "
                               "machine (set CC, or pip install 'cardrules[native]')")
    # nothing on the PATH and no ziglang package: the plain line
    monkeypatch.delenv("CC")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(native_build, "_zig_argv", lambda: None)
    assert find_compiler() is None
    with pytest.raises(NativeUnavailable, match=r"^error: no C compiler found \(set CC, or pip install 'cardrules\[native\]'\)$"):
        build_library("int x;", "x")
    assert files_in(cache / "native") == []


def test_the_compiler_is_found_and_its_version_is_in_the_key(monkeypatch, tmp_path):
    monkeypatch.setenv("CC", f"{shlex.join(COMPILER.argv)} -O1")   # a command with arguments, as make takes it
    cc = find_compiler()
    assert cc.argv == (*COMPILER.argv, "-O1") and cc.version == COMPILER.version and cc.version != "?"
    other = native_build.Compiler(cc.argv, cc.version + " (another build)")
    flags = native_build.compile_flags()
    assert native_build.library_key("int x;", cc, flags) != native_build.library_key("int x;", other, flags)
    assert "-fPIC" in flags and {"-shared", "-std=c99", "-Wall", "-Wextra"} <= set(flags)
    monkeypatch.delenv("CARDRULES_NATIVE_OPT", raising=False)  # users' libraries: -O2, unless they say
    assert native_build.compile_flags()[0] == "-O2"
    for level, used in (("-O0", "-O0"), ("-O3", "-O3"), ("-O9; rm -rf /", "-O2")):
        monkeypatch.setenv("CARDRULES_NATIVE_OPT", level)
        assert native_build.compile_flags()[0] == used
    if sys.platform.startswith("linux"):
        monkeypatch.delenv("CC")
        found = find_compiler()
        assert found is not None and Path(found.argv[0]).name in ("cc", "gcc", "clang")


def test_parallel_builds_of_one_source_all_get_a_whole_library(cache, tmp_path):
    source = unique_source(tmp_path, 21)
    got, failed = [], []

    def build():
        try:
            got.append(build_library(source, "answer"))
        except Exception as e:  # pragma: no cover - shown by the assertion below
            failed.append(e)
    threads = [threading.Thread(target=build) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failed and len(set(got)) == 1 and len(got) == 4
    assert load_library(got[0]).answer() == 21
    assert files_in(cache / "native") == [got[0].name]


def test_with_the_cache_off_libraries_go_to_a_temporary_folder(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    path = build_library(unique_source(tmp_path, 5), "answer")
    assert not str(path).startswith(str(tmp_path)) and path.parent.name.startswith("cardrules-native-")
    assert load_library(path).answer() == 5
    assert not (cache / "native").exists()


def test_the_wheel_carries_the_runtime():
    """pyproject.toml names the package, its runtime files, the unit's and the equilibrium solver's
    (runtime/cfr.c; tests/house/test_packaging.py builds the wheel)."""
    import tomllib
    root = Path(__file__).resolve().parents[2]
    conf = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "interpreter.native" in conf["packages"]
    patterns = conf["package-data"]["interpreter.native"]
    files = sorted(p.relative_to(root / "interpreter" / "native") for p in runtime_dir().rglob("*") if p.is_file())
    assert [f.as_posix() for f in files if f.parent.name == "runtime"] == [
        "runtime/cardrules_rt.h", "runtime/cards.c", "runtime/cards_read.c", "runtime/cfr.c", "runtime/cr_engine.h", "runtime/random.c"]
    assert Path("runtime/unit/state.h") in files
    assert all(any(f.match(pat) and len(f.parts) == len(Path(pat).parts) for pat in patterns) for f in files)


def test_a_temporary_file_left_by_a_killed_compilation_is_swept(cache, tmp_path):
    (cache / "native").mkdir(parents=True)
    old, fresh = cache / "native" / ".abc.x1.tmp.so", cache / "native" / ".abc.x2.tmp.so"
    old.write_bytes(b"half")
    fresh.write_bytes(b"being written")
    os.utime(old, (1, 1))
    path = build_library(unique_source(tmp_path, 3), "answer")
    assert files_in(cache / "native") == sorted([fresh.name, path.name])   # one still being written stays


def test_every_seeding_starts_from_cpythons_table(lib):
    """random.c keeps init_genrand(19650218) as a table instead of working it out at every
    seeding; it must be the very numbers (the draws of every seed test depend on it too)."""
    assert lib.crt_check_base() == 0


def test_seeding_many_at_once_is_seeding_each(lib):
    """crt_seed_u64_many (whole games seed their bots together, sixteen at a time in vector
    registers, the rest one chain each) leaves each generator as random.Random(seed) leaves it,
    for seeds of one word and of two, for every count from 1 to 40."""
    pool = [0, 1, 7, 1000, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1, 2**64 - 1, 12345678901, 42, 5, 6, 2**33]
    pool += [random.Random(k).getrandbits(random.Random(k).choice((16, 32, 33, 64))) for k in range(30)]
    lib.crt_seed_u64_many.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
    size = lib.t_sizeof_rng()
    for n in range(1, 41):
        seeds = pool[n % 7:][:n] + pool[:max(0, n - len(pool[n % 7:]))]
        rngs = ctypes.create_string_buffer(size * n)
        lib.crt_seed_u64_many(rngs, (ctypes.c_uint64 * n)(*seeds), n)
        out = (ctypes.c_uint32 * 625)()
        for k, seed in enumerate(seeds):
            one = ctypes.addressof(rngs) + k * size
            lib.crt_get_state(one, out)
            assert tuple(out) == random.Random(seed).getstate()[1], (n, k, seed)
            r = random.Random(seed)
            assert [lib.crt_getrandbits(one, 32) for _ in range(5)] == [r.getrandbits(32) for _ in range(5)]


def test_a_block_made_word_by_word_reads_as_cpythons_whole_block(lib):
    """A generator makes each word of a block as it hands it out; its state, read at any point
    of a block (crt_get_state finishes the block), is the state Python has after as many draws."""
    for drawn in (0, 1, 2, 227, 228, 396, 397, 623, 624, 625, 1000, 1248, 1249):
        a, r = new_rng(lib), random.Random(99 + drawn)
        lib.crt_seed_u64(a, 99 + drawn)
        assert [lib.crt_genrand32(a) for _ in range(drawn)] == [r.getrandbits(32) for _ in range(drawn)]
        out = (ctypes.c_uint32 * 625)()
        lib.crt_get_state(a, out)
        assert list(out) == state_words(r), drawn
        assert [lib.crt_genrand32(a) for _ in range(700)] == [r.getrandbits(32) for _ in range(700)]


def test_four_hundred_games_libraries_load_in_one_process(tmp_path):
    """A studio or a server loads a library for every file and every edit it plays; each library's
    thread-locals once took room in the process's static TLS block, and past about a hundred (fewer
    in a process that holds other libraries: the suite's workers met it) the next library failed
    to load ("cannot allocate memory in static TLS block")."""
    from interpreter import load_ruleset
    from interpreter.engine.play import program_of
    from interpreter.native.engine import c_source
    rs = load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / "classic" / "kuhn-poker.cards")
    lib = build_library(c_source(program_of(rs))[0], "kuhn-poker")
    copies = []
    for k in range(400):  # another path is another library to the loader, with its own thread-locals
        copies.append(tmp_path / f"game{k}{lib.suffix}")
        copies[-1].write_bytes(lib.read_bytes())
    code = ("import ctypes, sys\n"
            "for k, p in enumerate(sys.argv[1:]):\n"
            "    try:\n        ctypes.CDLL(p)\n"
            "    except OSError as e:\n        sys.exit(f'library {k + 1}: {e}')\n")
    done = procs.run([sys.executable, "-c", code, *map(str, copies)], timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_an_optimised_build_is_code_generated_in_parallel_by_gcc_alone():
    """GCC optimising on Linux: link-time optimisation over the one file, whose back end runs on
    every core; not at -O0 (the test suite's builds), and not for clang or Zig's compiler, which
    spell it otherwise."""
    gcc = native_build.Compiler(("/usr/bin/cc",), "cc (Debian 12.2.0-14+deb12u1) 12.2.0")
    linux = sys.platform.startswith("linux")
    assert native_build.parallel_flags(gcc, "-O2") == (native_build.PARALLEL_FLAGS if linux else ())
    assert native_build.parallel_flags(gcc, "-O0") == ()
    assert native_build.parallel_flags(native_build.Compiler(("/usr/bin/cc",), "Debian clang version 14.0.6"), "-O2") == ()
    assert native_build.parallel_flags(native_build.Compiler((sys.executable, "-m", "ziglang"), "0.13.0"), "-O2") == ()
    assert native_build.parallel_flags(None, "-O2") == ()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parallel build is GCC's on Linux")
def test_a_compiler_that_refuses_the_parallel_build_builds_the_library_without_it(cache, tmp_path, monkeypatch):
    """A compiler that calls itself GCC but fails on the link-time flags (an old one, or a wrapper
    that passes them to something else): the library is built again without them, and plays."""
    from interpreter import load_ruleset
    from interpreter.engine.play import program_of
    from interpreter.native.engine import NativeProgram
    log = tmp_path / "calls"
    script = tmp_path / "picky-cc"
    script.write_text("#!/bin/sh\n"
                      f'echo "$*" >> {shlex.quote(str(log))}\n'
                      'case " $* " in *" -flto=auto "*) echo "cc1: error: LTO support has not been enabled" >&2; '
                      'exit 1;; esac\n'
                      f'exec {shlex.join(COMPILER.argv)} "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CC", str(script))
    monkeypatch.setattr(native_build, "_found", {})
    monkeypatch.setattr(native_build, "parallel_flags", lambda compiler, opt: native_build.PARALLEL_FLAGS)
    import interpreter.native.program as native_program
    monkeypatch.setattr(native_program, "parallel_flags", native_build.parallel_flags)
    p = program_of(load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / "classic" / "kuhn-poker.cards"))
    built = NativeProgram(p, quick=True)
    calls = log.read_text().splitlines()
    assert any("-flto=auto" in c for c in calls) and "-flto=auto" not in calls[-1]
    out = (ctypes.c_int64 * (5 * (9 + len(p.rule_names))))()
    built.lib.cr_play_many.argtypes = [ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                       ctypes.c_void_p]
    assert built.lib.cr_play_many(2, (ctypes.c_int64 * 8)(), 0, 5, 1 << 40, out) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the runtime comes as objects on Linux alone")
def test_ctrl_c_while_the_runtime_compiles_side_by_side_kills_both_compilers_at_once(tmp_path):
    """The runtime's three objects compile on three threads, and Ctrl-C reaches the main thread
    alone: it kills the other threads' compilers too, so the command ends at once and leaves none
    running."""
    pids = tmp_path / "pids"
    script = tmp_path / "slow-cc"
    script.write_text("#!/bin/sh\n"
                      'case "$1" in --version) echo "slow-cc 1.0"; exit 0;; esac\n'
                      f"echo $$ >> {shlex.quote(str(pids))}\n"
                      "exec sleep 60\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, CC=str(script), CARDRULES_CACHE_DIR=str(tmp_path / "cache"))
    code = ("import signal, sys\nfrom interpreter.native import toolchain as t\n"
            "try:\n    t.runtime_objects(t.find_compiler(), '-O2')\nexcept KeyboardInterrupt:\n    sys.exit(130)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=Path(__file__).resolve().parents[2],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (pids.exists() and len(pids.read_text().split()) == 3):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert took < 1.0, f"{took:.2f} s from Ctrl-C to the exit"
    for pid in map(int, pids.read_text().split()):
        state = Path(f"/proc/{pid}/stat")
        assert not state.exists() or state.read_text().split(") ")[1][0] == "Z", f"compiler {pid} still running"
