"""Where the grammar and the bundled games are, in a checkout and in an installed wheel, and
how a game is named so that a record made on one machine replays on another.

In the repository they sit at the top (`grammar/`, `rulesets/`); the wheel carries them inside
the package (`interpreter/_grammar`, `interpreter/_rulesets`, see pyproject.toml). A bundled
game is named by its path under `rulesets/` without `.cards` (`family/some-variant`), or
by its file name alone when that is unique (`some-variant`)."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from .errors import OptionError

_HERE = Path(__file__).resolve().parent
BUNDLED_PREFIX = "bundled:"  # how a record names a bundled game


def _data_dir(kind: str) -> Path:
    """`grammar` or `rulesets`: the checkout's folder when there is one, else the wheel's copy."""
    checkout = _HERE.parent / kind
    if checkout.is_dir():
        return checkout
    return _HERE / f"_{kind}"


def grammar_path() -> Path:
    return _data_dir("grammar") / "cards.lark"


def tables_path() -> Path:
    """The grammar as Lark analysed it, shipped beside the grammar (see parse.py)."""
    return _data_dir("grammar") / "cards.lark-tables"


def rulesets_root() -> Path:
    return _data_dir("rulesets")


@lru_cache(maxsize=1)
def bundled() -> dict[str, Path]:
    """Every bundled game and variant by name: 'folder/stem' always, and 'stem' when unique."""
    root = rulesets_root()
    files = sorted(root.rglob("*.cards")) if root.is_dir() else []
    names: dict[str, Path] = {}
    stems: dict[str, list[Path]] = {}
    for f in files:
        names[f.relative_to(root).with_suffix("").as_posix()] = f
        stems.setdefault(f.stem, []).append(f)
    for stem, found in stems.items():
        if len(found) == 1:
            names.setdefault(stem, found[0])
    return names


def bundled_base(ref: str) -> Path | None:
    """The file of a bundled game a variant names as its base, `of "bundled:NAME"` (NAME as
    `cardrules list` gives it); None when REF is no such name."""
    return bundled().get(_key(ref[len(BUNDLED_PREFIX):])) if ref.startswith(BUNDLED_PREFIX) else None


def _key(name: str) -> str:
    """A bundled game's name as `bundled()` keys it: no `.cards`, forward slashes."""
    return (name[:-len(".cards")] if name.endswith(".cards") else name).replace("\\", "/")


def base_file(ref: str, variant: str | Path) -> Path:
    """The file a variant's `of "REF"` names: REF read from the variant's folder, or a bundled
    game's file for `bundled:NAME`, wherever cardrules is installed (so that a designer's variant
    of a bundled game survives a move of its folder or a new installation). An unknown bundled
    name is left as a path, which no file answers (the loader words that error)."""
    hit = bundled_base(ref)
    return hit if hit is not None else Path(variant).parent / ref


def bundled_name(path: Path) -> str | None:
    """The bundled name of a ruleset file ('family/some-variant'), or None."""
    root = rulesets_root().resolve()
    try:
        rel = Path(path).resolve().relative_to(root)
    except ValueError:
        return None
    return rel.with_suffix("").as_posix()


def resolve(arg: str | Path) -> Path:
    """A ruleset argument as a file: an existing path as it is, else a bundled game's name
    ('some-game', 'family/some-game', 'some-game.cards'); OptionError naming the bundled games when
    it is neither."""
    from .files import NotARulesetFile, check_ruleset_name
    p = Path(arg)
    try:
        check_ruleset_name(p)
    except NotARulesetFile as e:  # a NUL, too long: no file, and no bundled game either
        raise OptionError(e.file_error(str(arg)).message) from None
    if os.path.exists(p):
        return p
    text = str(arg)
    if text.startswith(BUNDLED_PREFIX):
        text = text[len(BUNDLED_PREFIX):]
    key = _key(text)
    hit = bundled().get(key)
    if hit is not None:
        return hit
    if "/" in text.replace("\\", "/").rstrip("/") or text.endswith(".cards") and p.parent != Path("."):
        raise OptionError(f"no such ruleset file: {arg}")
    raise OptionError(f"no such ruleset file or bundled game: {str(arg)!r} ({_suggest(key)})")


def _suggest(key: str) -> str:
    """The bundled names closest to a mistyped one, else where to see them all (one line, not
    every name of the installation)."""
    import difflib
    names = sorted(n for n in bundled() if "/" not in n)
    if not names:
        return "no bundled games in this installation"
    close = difflib.get_close_matches(key.lower(), names, n=3, cutoff=0.6)
    see = "`cardrules list` shows the bundled games"
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "? " + see
    return see


def content_hash(path: Path, _seen: tuple = ()) -> str | None:
    """sha256 of a ruleset's text, with its base's (a variant plays its base's rules too); None
    when the file cannot be read or is no ruleset file (a base that cannot be counts as empty:
    loading the variant says what is wrong with it)."""
    from .files import NotARulesetFile, read_ruleset_file
    try:
        text = read_ruleset_file(path)
    except NotARulesetFile:
        return None
    from .files import variant_base_ref
    h = hashlib.sha256(text.encode("utf-8"))
    ref = variant_base_ref(text)
    here = os.path.realpath(path)
    if ref and here not in _seen:
        base = content_hash(base_file(ref, path), _seen + (here,))
        h.update((base or "").encode())
    return h.hexdigest()


def record_ref(path: Path, record_file: Path) -> str:
    """How a record names its ruleset: 'bundled:NAME' for a bundled game, else the path from the
    record's folder (so the two can travel together), else the path as given."""
    name = bundled_name(path)
    if name is not None:
        return BUNDLED_PREFIX + name
    try:
        return Path(_relpath(Path(path).resolve(), Path(record_file).resolve().parent)).as_posix()
    except ValueError:  # another drive
        return str(path)


def _relpath(target: Path, start: Path) -> str:
    return os.path.relpath(target, start)


def find_for_record(ref: str, record_file: Path) -> Path | None:
    """The ruleset a record names: a bundled game, or a path from the record's folder, or
    from the current folder (records made before names were portable)."""
    if ref.startswith(BUNDLED_PREFIX):
        return bundled().get(ref[len(BUNDLED_PREFIX):])
    p = Path(ref)
    for c in ([p] if p.is_absolute() else [Path(record_file).parent / p, Path.cwd() / p]):
        if os.path.isfile(c):  # (False for a name that cannot be a file's, too)
            return Path(os.path.normpath(c))
    return None
