"""Where cardrules keeps what it can rebuild: the analysed grammar and loaded rule graphs.

Everything here is keyed by content (a changed ruleset, grammar or version is a new key), is
written atomically, and is only ever a shortcut: an unreadable, corrupt or unwritable cache is
ignored and the slow path taken. CARDRULES_CACHE_DIR names the folder (default: the user's cache
folder, XDG_CACHE_HOME or ~/.cache, under cardrules/); CARDRULES_NO_CACHE=1 turns it off."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from ..files import _ANY_VARIANT, _VARIANT, NotARulesetFile, read_ruleset_file, write_atomic

VERSION = "0.1.0"  # with the grammar's and the sources' hashes in every key


def enabled() -> bool:
    """Whether caching is on (CARDRULES_NO_CACHE=1 turns it off)."""
    return os.environ.get("CARDRULES_NO_CACHE", "") in ("", "0")


def cache_dir() -> Path | None:
    """The cache folder, created if need be; None when caching is off or impossible."""
    if not enabled():
        return None
    explicit = os.environ.get("CARDRULES_CACHE_DIR")
    if explicit is not None and explicit.strip() == "":
        return None
    if explicit:
        folder = Path(explicit)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "cardrules"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    return folder


# the modules a graph is built by (the grammar too): a change to any is a new key
# (tests/language/test_startup.py checks that this names every module build.py imports, but these)
BUILT_BY = ("graph", "build", "parse", "transform", "assemble", "removal", "sizes", "locate")
NOT_BUILDING = ("cache", "errors", "files", "bundled")  # keys, messages, reading files, finding them


def code_hash() -> str:
    """What the cached objects depend on besides their sources: the grammar and the graph model."""
    global _CODE_HASH
    if _CODE_HASH is None:
        here = Path(__file__).resolve().parent
        from ..bundled import grammar_path
        _CODE_HASH = _files_hash(VERSION, [grammar_path(), *(here / f"{name}.py" for name in BUILT_BY)])
    return _CODE_HASH


def _files_hash(salt: str, parts) -> str:
    """A short hash of some files' names and bytes (an unreadable one counts as '?')."""
    h = hashlib.sha256(salt.encode())
    for part in parts:
        try:
            h.update(part.name.encode() + b"\0" + part.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


_CODE_HASH: str | None = None
_CHECKER_HASH: str | None = None


def checked_key(source: str) -> str:
    """The key of a 'this text is valid' verdict: its source key and the compiler, which is the
    validator (a graph outlives a change to the compiler; a verdict must not)."""
    global _CHECKER_HASH
    if _CHECKER_HASH is None:
        _CHECKER_HASH = _files_hash("compiler", sorted((Path(__file__).resolve().parent.parent / "compiler").rglob("*.py")))
    return hashlib.sha256(f"{source}\0{_CHECKER_HASH}".encode()).hexdigest()[:32]


def checked(source: str | None) -> str | None:
    """The verdict kept for a text that compiled ("<title>, <players>"), or None."""
    if source is None:
        return None
    verdict = load("checked", checked_key(source))
    return verdict if isinstance(verdict, str) else None


def remember_checked(source: str | None, verdict: str) -> None:
    """Keep that the text under `source` compiled; errors are never kept."""
    if source is not None:
        store("checked", checked_key(source), verdict)


def load(kind: str, key: str):
    """The object stored under (kind, key), or None when there is none or it cannot be trusted."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{kind}-{key}.pickle"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception:  # corrupt, truncated, from another version: rebuild, and drop the entry
        try:
            path.unlink()
        except OSError:
            pass
        return None


def store(kind: str, key: str, value) -> None:
    """Keep `value` under (kind, key); silently nothing when the cache cannot be written."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        write_atomic(folder / f"{kind}-{key}.pickle", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        pass


def grammar_cache_path() -> str | None:
    """A file for Lark's own cache of the analysed grammar (keyed by the grammar's hash)."""
    folder = cache_dir()
    return None if folder is None else str(folder / f"grammar-{code_hash()}.lark-cache")



def source_key(display: str, text: str, _depth: int = 0) -> str | None:
    """A key for everything a ruleset file's graph is built from: the file as named, its text,
    its base's key (a variant), and the code that builds graphs. None when it cannot be told
    for sure (a base that cannot be read or is no ruleset file, a header this quick reading does
    not recognise): the loader then reports what is wrong."""
    h = hashlib.sha256(f"{code_hash()}\0{display}\0".encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    m = _VARIANT.search(text)
    if m:
        if _depth > 20:
            return None
        from ..bundled import base_file
        base = str(base_file(m.group(1), display))
        try:
            base_text = read_ruleset_file(base)
        except NotARulesetFile:
            return None
        base_key = source_key(base, base_text, _depth + 1)
        if base_key is None:
            return None
        h.update(base_key.encode())
    elif _ANY_VARIANT.search(text):
        return None
    return h.hexdigest()[:32]
