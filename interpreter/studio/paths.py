"""The files the studio may open and save, and nothing else.

The command names files and folders (PATH...); with none, one working folder (`--data DIR`, else
`./studio/`) where new files go. Every path a page sends is confined to them: a `..` anywhere is
refused outright, then the path is resolved (symlinks followed) and must lie in an allowed folder
or be an allowed file, so a link inside a folder cannot lead out of it. The bundled games can be
opened too, read-only: "New" copies one, "New variant of" writes a file that only names it as
its base. A save is atomic (a temporary file beside it, then `os.replace`, as `files.write_atomic`
does) and refused when the file on disk is no longer the one that was opened (its sha256). A
rename never replaces another file (a hard link, then the old name removed); a delete, like a
save, is refused when the file changed since the page read it. Neither rewrites the variants
that name the file as their base: they are listed, so the page can say they no longer load.

One size limit, MAX_CHARS (the language server's), holds for what is saved, made and analysed:
a file the studio writes is always one it can analyse."""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..bundled import BUNDLED_PREFIX, base_file, bundled, bundled_name, rulesets_root
from ..files import _VARIANT, variant_base_ref, write_atomic
from ..lsp.model import MAX_CHARS

DIFF_LINES = 80  # the changed lines a diff shows (the rest are counted)
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,80}")


class Refused(Exception):
    """A request about files the studio does not do: `status` is the HTTP answer, `message` one line."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Opened:
    """A file as read: its text, the sha256 of its bytes, and whether it may be saved."""

    path: str
    text: str
    sha256: str
    readonly: bool


class Files:
    """The allowed files and folders, the working folder, and the bundled games (read-only)."""

    def __init__(self, paths: list[Path], workdir: Path):
        self.workdir = Path(os.path.realpath(workdir))
        self.folders: list[Path] = [self.workdir]
        self.files: list[Path] = []
        for p in paths:
            real = Path(os.path.realpath(p))
            (self.folders if real.is_dir() else self.files).append(real)
        self.bundled_root = Path(os.path.realpath(rulesets_root()))
        self._shas: dict[Path, tuple[tuple, str]] = {}  # path -> ((mtime, size, inode), sha256)

    # ---- confinement
    def confine(self, given: object, must_exist: bool = True) -> tuple[Path, bool]:
        """(the real path, read-only) of a path a page sent; Refused(403) when it is outside
        the allowed files and folders, Refused(400) when it is no ruleset's name, Refused(404)
        when it does not exist (and must)."""
        if not isinstance(given, str) or not given.strip():
            raise Refused(400, "say which file (path)")
        if "\0" in given or len(given) > 4096:
            raise Refused(400, "that is not a file's name")
        p = Path(given)
        if ".." in p.parts:
            raise Refused(403, f"{given}: the studio opens only the files it was started with (no '..' in a path)")
        if not p.is_absolute():
            p = self.workdir / p
        if p.suffix != ".cards":
            raise Refused(400, f"{given}: the studio opens .cards files only")
        real = Path(os.path.realpath(p))
        if real.is_relative_to(self.bundled_root):
            readonly = True
        elif real in self.files or any(real.is_relative_to(f) and not any(
                part.startswith(".") for part in real.relative_to(f).parts) for f in self.folders):
            readonly = False  # (not in a hidden folder: the studio keeps its tables in .cardrules/)
        else:
            raise Refused(403, f"{given}: the studio opens only the files and folders it was started with")
        if must_exist and not real.is_file():
            raise Refused(404, f"{given}: no such file")
        return real, readonly

    def listing(self) -> dict:
        """The files a page may open: the allowed ones (by folder) and the bundled games."""
        mine: list[dict] = []
        seen: set[Path] = set()
        for f in self.files:
            if f.is_file() and f not in seen:
                seen.add(f)
                mine.append({"path": str(f), "name": f.name, "folder": str(f.parent)})
        for folder in self.folders:
            if not folder.is_dir():
                continue
            for f in sorted(folder.rglob("*.cards")):
                real = Path(os.path.realpath(f))
                if real in seen or not real.is_relative_to(folder) or any(part.startswith(".") for part in
                                                                          f.relative_to(folder).parts):
                    continue
                seen.add(real)
                mine.append({"path": str(real), "name": str(f.relative_to(folder)), "folder": str(folder)})
        games = [{"path": str(Path(os.path.realpath(path))), "name": name}
                 for name, path in sorted(bundled().items()) if "/" in name]
        return {"files": mine, "bundled": games, "workdir": str(self.workdir)}

    # ---- reading and writing
    def read(self, given: object) -> Opened:
        real, readonly = self.confine(given)
        data = real.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, f"{real}: not UTF-8 text") from None
        return Opened(str(real), text, sha256(data), readonly)

    def save(self, given: object, text: str, read_sha: str | None, force: bool = False) -> str:
        """Write `text` atomically; the new sha256. Refused(409, conflict=True) when the file on
        disk is not the one that was read (`read_sha`; None: a new file that must not exist yet),
        unless `force`."""
        real = self.writable(given, must_exist=False)
        check_size(text, real.name)
        try:
            disk = real.read_bytes()
        except FileNotFoundError:
            disk = None
        except OSError as e:
            raise Refused(409, f"{real}: cannot read the file on disk: {e.strerror or e}") from None
        now = sha256(disk) if disk is not None else None
        if not force and now != read_sha:
            what = ("was deleted" if now is None else "changed on disk") if read_sha else "already exists"
            raise Refused(409, f"{real.name} {what} since you opened it: overwrite it with your text, or "
                               "reload it from the disk (your changes are then lost)", conflict=True, disk_sha256=now,
                          diff=line_diff(text, _text(disk)) if disk is not None else None)
        data = text.encode("utf-8")
        try:
            write_atomic(real, data)
        except OSError as e:
            raise Refused(500, f"{real}: cannot write the file: {e.strerror or e}") from None
        return sha256(data)

    def new(self, source: object, kind: str, name: object = None) -> Opened:
        """A new file in the working folder from an existing ruleset: `copy` (its text, its
        base named from the new place) or `variant` (a file that only names it as its base)."""
        src = self.read(source)
        base = Path(src.path)
        if kind not in ("copy", "variant"):
            raise Refused(400, "kind is 'copy' or 'variant'")
        stem = base.stem + ("-variant" if kind == "variant" else "-copy")
        if name is not None and str(name).strip():
            target = self.workdir / f"{file_stem(name)}.cards"
            if target.exists():
                raise Refused(409, f"{target.name} already exists in {self.workdir}: choose another name")
        else:
            target, n = self.workdir / f"{stem}.cards", 2
            while target.exists():
                target, n = self.workdir / f"{stem}-{n}.cards", n + 1
        if kind == "copy":
            text = _rebase(src.text, base, self.workdir)
        else:
            text = variant_text(src.text, base, target)
        check_size(text, target.name)
        self.workdir.mkdir(parents=True, exist_ok=True)
        return Opened(*self._create(target, text), readonly=False)

    def writable(self, given: object, must_exist: bool = True) -> Path:
        """The real path of a file the studio may change (confined as `confine`), else Refused(403)."""
        real, readonly = self.confine(given, must_exist=must_exist)
        if readonly:
            raise Refused(403, f"{real.name} is a bundled game and cannot be changed here: "
                               "make a copy of it (New) or a variant of it (New variant of)")
        return real

    def rename(self, given: object, name: object) -> tuple[Path, Path, list[Path]]:
        """(old, new, the variants that named the old file as their base) after giving the file
        another name in its folder. Never over another file: a hard link to the new name (which
        the system refuses when the name exists), then the old name removed."""
        real = self.writable(given)
        target = real.parent / f"{file_stem(name)}.cards"
        if target == real:
            raise Refused(400, f"{real.name} already has that name")
        try:
            self.writable(str(target), must_exist=False)
        except Refused:
            raise Refused(403, f"{real.name} was named on the command line: the studio may write it under "
                               "that name only (rename it outside the studio)") from None
        exists = f"{target.name} already exists in {target.parent}: choose another name"
        variants = self.variants_of(real)
        try:
            os.link(real, target)
        except FileExistsError:
            if not _same(real, target):  # (a new case of the same name on a disk that ignores case)
                raise Refused(409, exists) from None
            os.rename(real, target)
        except OSError:  # no hard links on this file system: the check and the move are two steps
            if os.path.lexists(target):
                raise Refused(409, exists) from None
            try:
                os.rename(real, target)
            except OSError as e:
                raise Refused(500, f"{real}: cannot rename the file: {e.strerror or e}") from None
        else:
            try:
                os.unlink(real)
            except OSError as e:
                os.unlink(target)
                raise Refused(500, f"{real}: cannot rename the file: {e.strerror or e}") from None
        return real, Path(os.path.realpath(target)), variants

    def delete(self, given: object, read_sha: object) -> tuple[Path, list[Path]]:
        """(the file, the variants that named it as their base) after removing it: refused when
        it is not the file the page read (`read_sha`), which the person did not see."""
        real = self.writable(given)
        try:
            now = sha256(real.read_bytes())
        except OSError as e:
            raise Refused(409, f"{real}: cannot read the file on disk: {e.strerror or e}") from None
        if now != read_sha:
            raise Refused(409, f"{real.name} changed on disk since you opened it: reload it and look before "
                               "you delete it", conflict=True, disk_sha256=now)
        variants = self.variants_of(real)
        try:
            os.unlink(real)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise Refused(500, f"{real}: cannot delete the file: {e.strerror or e}") from None
        return real, variants

    def variants_of(self, base: Path) -> list[Path]:
        """The files of the allowed folders whose `of "..."` names `base` (read without parsing)."""
        out = []
        for f in self.listing()["files"]:
            p = Path(f["path"])
            if p == base:
                continue
            try:
                with open(p, encoding="utf-8", errors="replace") as fh:
                    ref = variant_base_ref(fh.read(64 * 1024))  # (the header is at the top)
                if ref is not None and Path(os.path.realpath(base_file(ref, p))) == base:
                    out.append(p)
            except OSError:
                continue
        return out

    def disk_sha(self, path: Path) -> str | None:
        """The sha256 of a file's bytes now (None: no such file), read again only when it was
        touched: pages ask every few seconds whether their file changed."""
        try:
            st = os.stat(path)
            key = (st.st_mtime_ns, st.st_size, st.st_ino)
            hit = self._shas.get(path)
            if hit is not None and hit[0] == key:
                return hit[1]
            now = sha256(path.read_bytes())
        except OSError:
            self._shas.pop(path, None)
            return None
        if len(self._shas) > 1000:
            self._shas.clear()
        self._shas[path] = (key, now)
        return now

    def _create(self, target: Path, text: str) -> tuple[str, str, str]:
        data = text.encode("utf-8")
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            raise Refused(409, f"{target.name} already exists in {target.parent}") from None
        except OSError as e:
            raise Refused(500, f"{target}: cannot create the file: {e.strerror or e}") from None
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return str(Path(os.path.realpath(target))), text, sha256(data)


def check_size(text: str, name: str) -> None:
    if len(text) > MAX_CHARS:
        raise Refused(413, f"{name} is too large: {len(text):,} characters; the studio saves and analyses "
                           f"files of up to {MAX_CHARS:,} characters")


def file_stem(name: object) -> str:
    """A new file's name as a page gave it, without `.cards`, or Refused(400)."""
    stem = str(name).strip() if isinstance(name, str) else ""
    if stem.endswith(".cards"):
        stem = stem[:-len(".cards")]
    if not _STEM.fullmatch(stem):
        raise Refused(400, f"{stem!r} cannot be a file's name here: use letters, digits, '-', '_' and '.' "
                           "(starting with a letter or a digit)")
    return stem


def line_diff(mine: str, disk: str) -> dict:
    """What differs, line by line, between a page's text and the disk's: hunks of lines marked
    '-' (only in the page's), '+' (only on disk) and ' ' (around them), with their line numbers."""
    a, b = mine.split("\n"), disk.split("\n")
    hunks, shown, more, added, removed = [], 0, 0, 0, 0
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(1):
        lines = []
        for tag, i1, i2, j1, j2 in group:
            if tag != "equal":
                removed += i2 - i1
                added += j2 - j1
            if shown >= DIFF_LINES:
                more += 0 if tag == "equal" else (i2 - i1) + (j2 - j1)
                continue
            if tag == "equal":
                lines += [[" ", t] for t in a[i1:i2]]
                continue
            for op, part in (("-", a[i1:i2]), ("+", b[j1:j2])):
                for t in part:
                    if shown < DIFF_LINES:
                        lines.append([op, t])
                        shown += 1
                    else:
                        more += 1
        if any(op != " " for op, _ in lines):
            hunks.append({"mine": group[0][1] + 1, "disk": group[0][3] + 1, "lines": lines})
    return {"hunks": hunks, "added": added, "removed": removed, "more": more}


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def base_ref(base: Path, folder: Path) -> str:
    """How a file in `folder` names `base` in its header: `bundled:NAME` for a bundled game (found
    wherever cardrules is installed, so the file survives a move or a new installation), else the
    path from there (as `of "..."` reads it, relative to the variant's folder), with forward slashes."""
    named = bundled_name(base)
    if named is not None:
        return BUNDLED_PREFIX + named
    try:
        return Path(os.path.relpath(base, folder)).as_posix()
    except ValueError:  # another drive
        return base.as_posix()


def _rebase(text: str, old_file: Path, new_folder: Path) -> str:
    """A variant's text moved to another folder: its `of "BASE"` names the same base from there."""
    m = _VARIANT.search(text)
    if not m:
        return text
    ref = base_ref(base_file(m.group(1), old_file), new_folder)
    return text[:m.start(1)] + ref.replace("\\", "\\\\").replace('"', '\\"') + text[m.end(1):]


_TITLE = re.compile(r'(?m)^\s*(?:game|variant)\s+\w+\s+"((?:[^"\\]|\\.)*)"')
_NAME = re.compile(r"(?m)^\s*(?:game|variant)\s+(\w+)")


def variant_text(base_text: str, base: Path, target: Path) -> str:
    """A new variant of `base`: a header naming it, and a line saying what goes below."""
    t = _TITLE.search(base_text)
    n = _NAME.search(base_text)
    title = (t.group(1) if t else base.stem) + " (my variant)"
    ident = re.sub(r"\W+", "_", target.stem).strip("_") or "my_variant"
    if ident[0].isdigit():
        ident = "v_" + ident
    ref = base_ref(base, target.parent)
    named = bundled_name(base)
    of = f"bundled game {named}" if named else (n.group(1) if n else base.name)
    return (f"# A variant of {of}: write below only what changes (a rule, an option, a definition\n"
            f"# of the same name replaces the base's; `new` adds one). The rulebook beside shows the result.\n"
            f'variant {ident} "{title}" of "{ref}"\n\n'
            f'text "What this variant changes, in a sentence or two."\n')
