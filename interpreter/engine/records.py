"""Game records: what was played, saved as JSON, replayed move by move to the same state."""

from __future__ import annotations

import json
from pathlib import Path

from ..files import dumps_indented, loads_json, write_atomic
from ..errors import GameRuntimeError, IllegalMoveError, InvalidMoveError, OptionError, RecordError
from .play import apply, deciders, new_game, outcome, rule_at, state_digest
from .state import Move, State, seat_name


RECORD_FORMAT = "cardrules-record/1"


def make_record(s: State, ruleset_path: str | None) -> dict:
    try:
        o = outcome(s)
    except GameRuntimeError:  # a result that cannot be worked out: the record of the moves is kept, without one
        o = None
    return {
        "format": RECORD_FORMAT,
        "ruleset": ruleset_path,
        "game": s.program.ruleset.name,
        "players": s.n_players,
        "options": s.options,
        "seed": s.seed,
        "moves": [{"player": seat_name(m.player), "move": str(m)} for m in s.history],
        "final": {
            "finished": s.finished,
            "digest": state_digest(s),
            "winners": [seat_name(w) for w in o.winners] if o else None,
            "scores": list(o.scores) if o else None,
        },
    }


def write_record(record: dict, path: str | Path) -> None:
    """Write atomically: a crash never leaves half a record behind."""
    write_atomic(path, dumps_indented(record, 1) + "\n")


def read_record_text(path: str | Path) -> str:
    """A record file's text; RecordError saying why when it cannot be one (a folder, a device
    or a pipe is refused before it is read or waited on, as a ruleset file is)."""
    from ..files import NotARulesetFile, read_ruleset_file
    try:
        return read_ruleset_file(path)
    except NotARulesetFile as e:
        why = {"missing": f"no such record file: {path}", "folder": "this is a folder, not a record file",
               "not-regular": f"this is not a regular file but {e.detail}, so not a record file",
               "nul": "the file's name holds a NUL character, which no file's name can hold",
               "too-long": f"the file's name is too long ({e.detail})",
               "not-folder": f"no such record file: {path} ({e.detail})",
               "not-utf8": f"cannot read the record: it is not UTF-8 text ({e.detail})"}
        raise RecordError(why.get(e.kind, f"cannot read the record: {e.detail}"), str(path)) from None


def read_record(path: str | Path) -> dict:
    text = read_record_text(path)
    try:
        data = loads_json(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"the record is not valid JSON ({e.msg})", str(path), e.lineno, e.colno) from None
    return validate_record(data, str(path))


def validate_record(data, path: str = "<record>") -> dict:
    """Check a record's shape (not yet its moves); raise RecordError saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a cardrules game record (expected \"format\": \"{RECORD_FORMAT}\")", path)
    for key, typ in (("players", int), ("seed", int), ("moves", list), ("options", dict), ("final", dict)):
        if not isinstance(data.get(key), typ) or (typ is int and isinstance(data.get(key), bool)):
            raise RecordError(f"the record's {key!r} is missing or malformed", path)
    return data


def replay(ruleset, record: dict, path: str = "<record>") -> State:
    """Replay a record move by move; raise RecordError at the first divergence."""
    try:
        s = new_game(ruleset, record["players"], record["options"], record["seed"])
    except OptionError as e:
        raise RecordError(f"the record's set-up is invalid: {e.message}", path) from None
    for i, entry in enumerate(record["moves"], 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("move"), str) or not isinstance(entry.get("player"), str):
            raise RecordError(f"move {i} is malformed: {entry!r}", path)
        if s.finished:
            raise RecordError(f"move {i} ({entry['move']}) comes after the game has ended", path)
        allowed = {seat_name(p): p for p in (deciders(s) or [s.actor])}
        if entry["player"] not in allowed:
            who = " or ".join(allowed)
            name, title = rule_at(s)
            raise RecordError(f"move {i}: the record says {entry['player']} moves, but in rule {name!r} ({title}) "
                              f"it is {who}'s turn", path)
        try:
            apply(s, Move.parse(entry["move"], allowed[entry["player"]]))
        except (IllegalMoveError, InvalidMoveError) as e:
            raise RecordError(f"move {i} ({entry['player']}: {entry['move']}) diverges: {e.message}", path) from None
        except GameRuntimeError as e:
            raise RecordError(f"move {i} ({entry['player']}: {entry['move']}) makes the ruleset fail: {e.render()}",
                              path) from None
    final = record["final"]
    if final.get("digest") and final["digest"] != state_digest(s):
        raise RecordError("every move replayed, but the final state differs from the recorded one "
                          "(the ruleset or the engine has changed since the record was made)", path)
    if s.finished:
        try:
            o = outcome(s)
        except GameRuntimeError as e:
            raise RecordError(f"every move replayed, but the game's result cannot be worked out: {e.render()}",
                              path) from None
        # the cards may lie as recorded while the result differs (a definition worked out
        # differently): the winners and scores recorded are checked too
        got = {"winners": [seat_name(w) for w in o.winners], "scores": list(o.scores)} if o else {}
        for key, want in ((k, final.get(k)) for k in ("winners", "scores")):
            if want is not None and got.get(key) is not None and list(want) != got[key]:
                said, now = (", ".join(map(str, v)) or "none" for v in (want, got[key]))
                raise RecordError(f"every move replayed and the cards lie as recorded, but the {key} differ: the record "
                                  f"says {said}, the replay gives {now} (the ruleset or the engine "
                                  "has changed since the record was made, or the engines disagree)", path)
    return s

