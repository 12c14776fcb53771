"""Stage 2: a ruleset file -> its rule graph. The front door of the two steps (transform.py:
the parse tree to items; assemble.py: a game, or a variant merged onto its base) and of what
lies around them: reading the file and its base, the cache, and the numbers checked before any
is read as a size."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from lark import Token
from lark.exceptions import VisitError

from . import cache
from . import graph as g
from . import sizes
from .assemble import _assemble_game, _merge_variant
from ..errors import OptionError, RulesetError
from ..files import NotARulesetFile, check_ruleset_name, read_ruleset_file
from .parse import parse_text
from .locate import SOURCES as _SOURCES, located as _err
from .transform import ToGraph

# The graphs built in this process, by the same key as the cache on disk: the same text (with its
# bases) gives the same graph object, so the engine's compiled program of it is found again
# (engine.program_of keys them by object) instead of compiled once more. The newest GRAPHS_KEPT;
# none with CARDRULES_NO_CACHE.
GRAPHS_KEPT = 256
_GRAPHS: OrderedDict[str, tuple] = OrderedDict()
_GRAPHS_LOCK = threading.Lock()


def _graph_hit(key: str):
    """The graph and its sources kept in this process, else those in the cache on disk (then kept)."""
    if cache.enabled():
        with _GRAPHS_LOCK:
            hit = _GRAPHS.get(key)
            if hit is not None:
                _GRAPHS.move_to_end(key)
                return hit
    hit = cache.load("graph", key)
    if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[0], g.Ruleset) and isinstance(hit[1], dict):
        _keep_graph(key, hit)
        return hit
    return None


def _keep_graph(key: str, hit: tuple) -> None:
    if not cache.enabled():
        return
    with _GRAPHS_LOCK:
        _GRAPHS[key] = hit
        _GRAPHS.move_to_end(key)
        while len(_GRAPHS) > GRAPHS_KEPT:
            _GRAPHS.popitem(last=False)


def read_text(path: Path, display: str) -> str:
    """A ruleset file's text; a RulesetError naming the file when it cannot be read (no such
    file, a folder, a device, not UTF-8, ...): files.read_ruleset_file, worded for a file given."""
    try:
        return read_ruleset_file(path)
    except NotARulesetFile as e:
        raise e.file_error(display) from None


def base_error(e: NotARulesetFile, base_ref: str, base_path: Path | str, at: g.Loc | None) -> RulesetError:
    """A base that cannot be read, located at its name in the variant's header; a base that is
    not UTF-8 text is an error of that file, as a file given by name would be."""
    if e.kind == "not-utf8":
        return e.file_error(str(base_path))
    return _err(e.base_message(base_ref, str(base_path)), at)


def base_path_of(base_ref: str, filename: str, at: g.Loc | None) -> Path:
    """The file a variant's `of "FILE"` names (FILE from the variant's folder, or a bundled game's
    for `bundled:NAME`); the located error
    when that name cannot be a file's (a NUL in it, too long), told before the system is asked."""
    from ..bundled import BUNDLED_PREFIX, _suggest, base_file
    base_path = base_file(base_ref, filename)
    if base_ref.startswith(BUNDLED_PREFIX) and not os.path.exists(base_path):
        name = base_ref[len(BUNDLED_PREFIX):]
        raise _err(f"no bundled game named {name!r} to be the base ({_suggest(name)})", at)
    try:
        check_ruleset_name(base_path)
    except NotARulesetFile as e:
        raise base_error(e, base_ref, base_path, at) from None
    return base_path


def read_base(base_ref: str, base_path: Path | str, at: g.Loc | None) -> str:
    """The text of the base a variant names; the located error (at its name in the variant's
    header) when it is no ruleset file or cannot be read (see base_error)."""
    try:
        return read_ruleset_file(base_path)
    except NotARulesetFile as e:
        raise base_error(e, base_ref, base_path, at) from None


def _real(path: Path | str) -> str:
    """The path with its links followed, as far as they go (a loop of links stops there)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def build_file(path: str | Path, _seen: tuple = (), _text: str | None = None) -> g.Ruleset:
    """Read, parse and build one ruleset file; a variant pulls in its base first. (`_text`: the
    file's text, when a variant has read its base already.)"""
    return build_file_keyed(path, _seen, _text)[0]


def build_file_keyed(path: str | Path, _seen: tuple = (), _text: str | None = None) -> tuple[g.Ruleset, str | None]:
    """build_file, with the cache key of the very text it built (None when it has none): what
    is remembered about the graph (a checked verdict) must name the text read, not a later one."""
    path = Path(path)
    display = str(path)
    if not _seen:
        try:
            check_ruleset_name(path)
        except NotARulesetFile as e:
            raise e.file_error(display) from None
        if not os.path.exists(path):  # not a file: perhaps a bundled game's name
            from ..bundled import resolve
            try:
                path = resolve(path)
            except OptionError as e:
                raise RulesetError(e.message, display) from None
            display = str(path)
    text = read_text(path, display) if _text is None else _text
    key = cache.source_key(display, text)
    if key is not None:
        hit = _graph_hit(key)
        if hit is not None:
            _SOURCES.update(hit[1])  # error messages quote the lines of the file and its bases
            return hit[0], key
    before = set(_SOURCES)
    rs = build_text(text, display, _seen=_seen)
    if key is not None:
        sources = {f: lines for f, lines in _SOURCES.items() if f not in before or f == display}
        cache.store("graph", key, (rs, sources))
        _keep_graph(key, (rs, sources))
    return rs, key


def build_text(text: str, filename: str = "<text>", _seen: tuple = (), sources: dict | None = None) -> g.Ruleset:
    """Build a ruleset from its text; `filename` is what locations and errors name. A variant's
    base is read from disk, unless `sources` holds its text under the name it would be read
    by (the variant's folder joined with the base's name: `str(Path(filename).parent / base)`)."""
    _SOURCES[filename] = text.splitlines()
    tree = parse_text(text, filename)
    check_numbers(tree, filename)
    try:
        items = ToGraph(filename).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RulesetError):
            err = e.orig_exc
            if err.source_line is None and err.line:
                err.source_line = _SOURCES[filename][err.line - 1] if err.line <= len(_SOURCES[filename]) else None
            raise err from None
        raise
    header, items = items[0], items[1:]
    if header.kind == "game":
        return _assemble_game(header, items, filename)
    name, title, base_ref = header.value
    at = header.at or header.loc  # an error about the base points at its name
    base_path = base_path_of(base_ref, filename, at)
    real, here = _real(base_path), _real(filename)
    if real in _seen or real == here:
        raise _err(f"variant {name!r} is its own base (a cycle through {base_ref!r})", at)
    if sources is not None and str(base_path) in sources:  # shipped with the text (a cluster's worker)
        base = build_text(sources[str(base_path)], str(base_path), _seen + (here,), sources)
        return _merge_variant(base, name, title, items, filename, header.loc)
    base_text = read_base(base_ref, base_path, at)
    base = build_file(base_path, _seen + (here,), base_text)
    return _merge_variant(base, name, title, items, filename, header.loc)


def check_numbers(tree, filename: str) -> None:
    """Every whole number written is within the language's limit, told at the first that is not
    (before any is read as a size, and before Python is asked to read a number of 5,000 digits)."""
    for tok in tree.scan_values(lambda t: isinstance(t, Token) and t.type == "INT"):
        digits = str(tok).lstrip("0")
        if len(digits) > len(str(sizes.MAX_NUMBER)) or (digits and int(digits) > sizes.MAX_NUMBER):
            shown = f"{int(digits):,}" if len(digits) <= 30 else f"a number of {len(digits):,} digits"
            raise _err(sizes.too_many("number", shown), g.Loc(file=filename, line=tok.line, column=tok.column))
