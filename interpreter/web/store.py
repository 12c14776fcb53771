"""Where tables are kept, and how a table file is written so that a crash or a full disk never
leaves half of one behind: a temporary file in the same folder, flushed to disk, then renamed
over the old one (`os.replace` is atomic on one file system)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..files import dumps_indented, loads_json, write_atomic

TABLE_FORMAT = "cardrules-table/1"  # a table file: the seats, their tokens and the game record


def default_data_dir() -> Path:
    """$CARDRULES_DATA_DIR, else the user's data folder ($XDG_DATA_HOME or ~/.local/share)
    under cardrules/."""
    given = os.environ.get("CARDRULES_DATA_DIR")
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "cardrules"


def tables_dir(data: Path) -> Path:
    return Path(data) / "tables"


def write_json_atomic(path: Path, data: dict) -> None:
    """Write `data` as JSON to `path` atomically; only the owner may read it (it holds the
    seats' tokens). OSError when the folder cannot be written."""
    write_atomic(path, dumps_indented(data, 1) + "\n", mode=0o600, durable=True)


def table_files(data: Path) -> list[Path]:
    """Every table file kept in DATA, oldest name first (temporary files left by a crash are
    not table files)."""
    folder = tables_dir(data)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))


def read_table_file(path: Path) -> dict:
    """A table file's data; ValueError saying what is wrong when it is not one."""
    try:
        data = loads_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot be read ({e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"is not valid JSON ({e.msg}, line {e.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise ValueError(f"is not a table file (expected \"format\": \"{TABLE_FORMAT}\")")
    for key, typ in (("id", str), ("seats", list), ("record", dict), ("hotseat_token", str)):
        if not isinstance(data.get(key), typ):
            raise ValueError(f"has no valid {key!r}")
    return data
