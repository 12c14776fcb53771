"""Files written whole or not at all. Every writer of the project (rulebooks, records, balance
reports, the cache, the browser table's tables) goes through `write_atomic`, so a crash or a
full disk never leaves half a file where a good one was."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

from .errors import CardRulesError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes, *, mode: int | None = None, durable: bool = False) -> None:
    """Write `data` (text as UTF-8 with '\\n' line ends, or bytes) to a temporary file beside
    `path`, then move it into place. `mode`: the file's permissions (default: what a new file
    gets under the umask). `durable`: also flush the file and the folder's entry to the disk
    (for state that must survive a power cut, like a table in play). OSError when the folder
    cannot be written; the temporary file never stays behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with (os.fdopen(fd, "wb") if isinstance(data, bytes) else
              os.fdopen(fd, "w", encoding="utf-8", newline="\n")) as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        try:  # the rename itself reaches the disk with the folder's entry
            dfd = os.open(path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dfd)
        except OSError:
            pass
        finally:
            os.close(dfd)


def report_written(write: Callable[[], list[Path]], root: Path) -> int:
    """Run a regeneration step (`python -m interpreter.render`, `.diff`): each file it wrote, or
    its located error and exit status 1."""
    try:
        written = write()
    except CardRulesError as e:
        print(e.render(), file=sys.stderr)
        return 1
    for p in written:
        print(f"wrote {p.relative_to(root)}")
    return 0
