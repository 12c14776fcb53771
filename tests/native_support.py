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
