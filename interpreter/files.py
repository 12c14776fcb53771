"""Files written whole or not at all, and ruleset files read safely. Every writer of the project
(rulebooks, records, balance reports, the cache, the browser table's tables) goes through
`write_atomic`, so a crash or a full disk never leaves half a file where a good one was. Every
reader of a ruleset file a user or a variant names (the loader, the cache's keys, the content
hashes, the runner, the language server) goes through `read_ruleset_file`, so a name that cannot
be a ruleset file (a NUL, too long, a folder, a device, a pipe) is a NotARulesetFile to report,
never a traceback or a read that does not end."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from json.encoder import encode_basestring_ascii as _text
from typing import Callable

from .errors import CardRulesError, RulesetError


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


# ------------------------------------------------------------------ reading a ruleset file

NAME_MAX = 255    # bytes in one part of a path (most file systems)
PATH_MAX = 4096   # bytes in a whole path, with its terminating NUL (Linux)


class NotARulesetFile(Exception):
    """Why a named file cannot be read as a ruleset. `kind` is one of 'nul', 'too-long',
    'missing', 'not-folder', 'folder', 'not-regular', 'unreadable', 'not-utf8', 'outside' (a reader
    confined to some folders, as the studio is, was not allowed to look); `detail` says
    more in a user's words (the limit passed, what the file is, the system's reason). `base_message`
    and `file_error` word it for a variant's base and for a file given by name."""

    def __init__(self, kind: str, detail: str = "", path: str = ""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind, self.detail, self.path = kind, detail, path

    def base_message(self, ref: str, looked_for: str) -> str:
        """The message for the base a variant names as `ref` (`looked_for`: that name from the
        variant's folder)."""
        at = f" (looked for {looked_for})"
        if self.kind == "outside":  # nothing of the file: not where it is, not whether it exists
            return (f"the base ruleset {ref!r} is not one this studio may open: a base is a .cards file in "
                    "the folders the studio was started with, or a bundled game (of \"bundled:NAME\")")
        if self.kind == "nul":
            return "the base ruleset's name holds a NUL character, which no file's name can hold"
        if self.kind == "too-long":
            return f"the base ruleset's name is too long for a file's name ({self.detail})"
        if self.kind == "missing":
            return f"the base ruleset {ref!r} was not found{at}"
        if self.kind == "not-folder":
            return f"the base ruleset {ref!r} was not found: {self.detail}{at}"
        if self.kind == "folder":
            return f"the base ruleset {ref!r} is a folder, not a ruleset file{at}"
        if self.kind == "not-regular":
            return f"the base ruleset {ref!r} is not a regular file but {self.detail}, so not a ruleset file{at}"
        if self.kind == "not-utf8":
            return f"the base ruleset {ref!r} is not UTF-8 text ({self.detail}){at}"
        return f"the base ruleset {ref!r} cannot be read: {self.detail}{at}"

    def file_error(self, display: str) -> RulesetError:
        """The error for a ruleset file given by name (a command's argument), located at the file."""
        if self.kind == "nul":
            msg = "the file's name holds a NUL character, which no file's name can hold"
        elif self.kind == "too-long":
            msg = f"the file's name is too long ({self.detail})"
        elif self.kind == "missing":
            msg = f"no such ruleset file: {display}"
        elif self.kind == "not-folder":
            msg = f"no such ruleset file: {display} ({self.detail})"
        elif self.kind == "folder":
            msg = "this is a folder, not a ruleset file"
        elif self.kind == "not-regular":
            msg = f"this is not a regular file but {self.detail}, so not a ruleset file"
        elif self.kind == "not-utf8":
            msg = f"the file is not UTF-8 text ({self.detail})"
        elif self.kind == "outside":
            msg = "this is not a file this studio may open"
        else:
            msg = f"cannot read the file: {self.detail}"
        return RulesetError(msg, display)


def _size(text: str) -> str:
    n = len(os.fsencode(text))
    return f"{n} characters" if n == len(text) else f"{n} bytes"


def check_ruleset_name(path: str | os.PathLike) -> None:
    """NotARulesetFile when a name cannot be a file's, told without asking the system: it holds
    a NUL character, or it (or one of its parts) is longer than a file system allows."""
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if "\0" in name:
        raise NotARulesetFile("nul", path=name)
    try:
        raw = os.fsencode(name)
    except UnicodeError:
        raise NotARulesetFile("unreadable", "its name cannot be written as a file's name", name) from None
    for part in (name.replace(os.altsep, os.sep) if os.altsep else name).split(os.sep):
        if len(os.fsencode(part)) > NAME_MAX:
            raise NotARulesetFile("too-long", f"one part of it has {_size(part)}; at most {NAME_MAX} are allowed",
                                  name)
    if len(raw) >= PATH_MAX:
        raise NotARulesetFile("too-long", f"{_size(name)}; at most {PATH_MAX - 1} are allowed", name)


def _kind_of(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _not_a_folder(name: str) -> str:
    """Which part of a path that runs through a file is the file (for ENOTDIR)."""
    p = Path(name)
    for parent in reversed(p.parents):
        try:
            if parent != Path(".") and os.path.exists(parent) and not os.path.isdir(parent):
                return f"{str(parent)!r} is a file, not a folder"
        except (OSError, ValueError):
            break
    return "a part of the path is a file, not a folder"


def _os_problem(e: OSError, name: str) -> NotARulesetFile:
    if isinstance(e, FileNotFoundError):
        return NotARulesetFile("missing", path=name)
    if isinstance(e, NotADirectoryError):
        return NotARulesetFile("not-folder", _not_a_folder(name), name)
    if isinstance(e, IsADirectoryError):
        return NotARulesetFile("folder", path=name)
    if e.errno == errno.ENAMETOOLONG:
        return NotARulesetFile("too-long", "the system refuses a name this long", name)
    return NotARulesetFile("unreadable", e.strerror or str(e), name)


def check_ruleset_path(path: str | os.PathLike) -> os.stat_result:
    """The status of the file a ruleset's name points to, when it can be one: NotARulesetFile
    when the name holds a NUL or is too long (the system is not asked), names nothing, runs
    through a file, or names a folder, a device, a pipe or a socket. Nothing is opened."""
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    check_ruleset_name(name)
    try:
        st = os.stat(name)
    except OSError as e:
        raise _os_problem(e, name) from None
    except ValueError as e:  # pragma: no cover - the name was checked above
        raise NotARulesetFile("unreadable", str(e), name) from None
    if stat.S_ISDIR(st.st_mode):
        raise NotARulesetFile("folder", path=name)
    if not stat.S_ISREG(st.st_mode):
        raise NotARulesetFile("not-regular", _kind_of(st.st_mode), name)
    return st


def read_ruleset_file(path: str | os.PathLike) -> str:
    """The text of the ruleset file `path` names, as `Path.read_text(encoding="utf-8")` reads it
    (lines end in '\\n'); NotARulesetFile, never another exception, when it cannot be one: the
    name is checked first, the file's kind before it is opened (so /dev/zero or a pipe is never
    read or waited on), and again once it is open (in case it was replaced in between)."""
    check_ruleset_path(path)
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise _os_problem(e, os.fsdecode(name)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotARulesetFile("folder" if stat.S_ISDIR(st.st_mode) else "not-regular",
                                  "" if stat.S_ISDIR(st.st_mode) else _kind_of(st.st_mode), os.fsdecode(name))
        f = os.fdopen(fd, encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
    try:
        with f:
            return f.read()
    except UnicodeDecodeError as e:
        raise NotARulesetFile("not-utf8", e.reason, os.fsdecode(name)) from None
    except OSError as e:
        raise _os_problem(e, os.fsdecode(name)) from None


# a variant's header, read without the parser (cache.py's keys, the bases a variant names)
_VARIANT = re.compile(r'(?m)^\s*variant\s+\w+(?:\s+"(?:[^"\\]|\\.)*")?\s+of\s+"((?:[^"\\]|\\.)*)"')
_ANY_VARIANT = re.compile(r"(?m)^\s*variant\b")


def variant_base_ref(text: str) -> str | None:
    """The base a variant's header names (`variant NAME "Title" of "base.cards"`), read without
    the parser; None for a game (or a header this quick reading does not recognise)."""
    m = _VARIANT.search(text)
    return m.group(1) if m else None


def loads_json(text: str | bytes):
    """json.loads, every way it refuses a text being a JSONDecodeError (with its message, line
    and column): a number of more digits than Python converts (sys.get_int_max_str_digits) and
    nesting past the recursion limit otherwise come out as a bare ValueError or RecursionError,
    which the places that read a record or a table file would not expect."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deep", text if isinstance(text, str) else "", 0) from None
    except ValueError as e:  # (a number too long to read: the limit of integer string conversion)
        why = "a number in it is too long" if "digits" in str(e) else str(e)
        raise json.JSONDecodeError(why, text if isinstance(text, str) else "", 0) from None


def dumps_indented(value, indent: int) -> str:
    """json.dumps(value, indent=indent), the same text, twice as fast: with an indent, json
    encodes in pure Python, one generator per level, and a log of many games spent most of its
    writing there (3.6 ms a game of 126 moves), a table's file most of a move. Keys and values as
    json takes them."""
    out: list[str] = []
    _indented(value, "\n", " " * indent, out)
    return "".join(out)


def _key(k) -> str:
    if isinstance(k, str):
        return _text(k)
    if k is True or k is False or k is None or isinstance(k, (int, float)):
        return _text(json.dumps(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


_CONST = {None: "null", True: "true", False: "false"}


def _scalar(o) -> str | None:
    """A value that is no container as json writes it; None for a container."""
    c = o.__class__
    if c is str:
        return _text(o)
    if c is int:
        return int.__repr__(o)
    if o is None or o is True or o is False:
        return _CONST[o]
    if isinstance(o, (str, int, float)):
        return json.dumps(o)
    return None


def _indented(o, pad: str, step: str, out: list) -> None:
    text = _scalar(o)
    if text is not None:
        out.append(text)
    elif isinstance(o, dict):
        if not o:
            out.append("{}")
            return
        inner = pad + step
        flat = []  # the entries whose values are no containers (most): joined at once
        for k, v in o.items():
            t = _scalar(v)
            if t is None:
                break
            flat.append((_text(k) if k.__class__ is str else _key(k)) + ": " + t)
        else:
            out.append("{" + inner + ("," + inner).join(flat) + pad + "}")
            return
        sep = "{"
        for k, v in o.items():
            t = _scalar(v)
            out.append(sep + inner + (_text(k) if k.__class__ is str else _key(k)) + ": " + (t or ""))
            if t is None:
                _indented(v, inner, step, out)
            sep = ","
        out.append(pad + "}")
    elif isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        inner, sep = pad + step, "["
        for v in o:
            out.append(sep + inner)
            _indented(v, inner, step, out)
            sep = ","
        out.append(pad + "]")
    else:
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")
