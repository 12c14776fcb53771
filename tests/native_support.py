"""What the native runtime's tests share: whether this compiler builds and runs sanitized programs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import procs


def sanitizers_work(compiler_argv, tmp_path: Path) -> bool:
    """Whether `-fsanitize=address,undefined` builds and runs a program here (some compilers or
    sandboxes cannot): the sanitizer tests are skipped only then."""
    src = tmp_path / "probe.c"
    src.write_text("int main(void) { return 0; }\n")
    try:
        built = procs.run([*compiler_argv, "-fsanitize=address,undefined", str(src), "-o", str(tmp_path / "probe")],
                          capture_output=True, timeout=120)
        return built.returncode == 0 and procs.run([str(tmp_path / "probe")], capture_output=True,
                                                   timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


SANITIZE = ("-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all")


def build_sanitized(compiler, program, main: str, out: Path) -> subprocess.CompletedProcess:
    """A program's C with `main` after it, built at -O0 under ASan and UBSan into `out`. The
    runtime's own files come compiled once so (kept in the cache, as every -O0 build's are), so each
    test compiles only its game's C: a quarter less time for each sanitized build."""
    from interpreter.native.toolchain import runtime_objects
    from interpreter.native.engine import c_source
    objects = runtime_objects(compiler, "-O0", SANITIZE)
    source, _ = c_source(program, runtime=not objects)
    src = out.with_suffix(".c")
    src.write_text(source + main)
    return procs.run([*compiler.argv, "-O0", "-std=c99", *SANITIZE, str(src), *map(str, objects), "-o", str(out),
                      "-lm"], capture_output=True, text=True, timeout=300)
