"""The `cardrules` front door. A `check` of files already checked in exactly this form (same
text, same bases, same version) answers from the cache without importing the parser, the graph
or the engine; everything else goes to the full command line (cli.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _cached_check(args: list[str]) -> list[str] | None:
    """The lines `check` would print, when every file's verdict is cached as valid; else None."""
    from ..language import cache
    from ..files import NotARulesetFile, read_ruleset_file
    if cache.cache_dir() is None:
        return None
    files: list[Path] = []
    for a in args:
        p = Path(a)
        if os.path.isdir(p):
            found = sorted(p.rglob("*.cards"))
            if not found:
                return None
            files.extend(found)
        else:
            files.append(p)
    lines = []
    for f in files:
        try:
            text = read_ruleset_file(f)  # never a folder, a device or a pipe
        except NotARulesetFile:
            return None
        verdict = cache.checked(cache.source_key(str(f), text))
        if verdict is None:
            return None
        lines.append(f"{f}: ok ({verdict})")
    return lines


def main() -> None:
    """The console-script entry point (`cardrules`, `python -m interpreter`). Ctrl-C before a
    command has put up its own handler (while the modules load) ends it as every command's
    Ctrl-C does: a line and exit code 130, never a traceback."""
    try:
        argv = sys.argv[1:]
        if len(argv) > 1 and argv[0] == "check" and not any(a.startswith("-") for a in argv[1:]):
            lines = _cached_check(argv[1:])
            if lines is not None:
                print("\n".join(lines))
                sys.exit(0)
        from .cli import main as full
        full()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
