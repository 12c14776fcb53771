"""Saved games stepped through in the browser: a record from `play --log`, a records file, a
finished table's file, or a fuzz finding's reproduction (a record too), seen by the referee
(every card) or by one seat (its observation and its log).

The records on offer are the finished tables kept in DATA (a table still being played is not:
its hidden cards are not for everyone), the files named on the command line, and uploads."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .. import engine
from ..bundled import BUNDLED_PREFIX, find_for_record
from ..engine import Move, seat_name
from ..engine import shown as shown_cards
from ..engine.records import read_record_text
from ..files import loads_json
from ..errors import CardRulesError, GameRuntimeError, IllegalMoveError, InvalidMoveError, RecordError
from . import store, views

RECORDS_FORMAT = "cardrules-records/1"  # several records in one file (play --games K --log)


def records_in(data, where: str) -> list[dict]:
    """The game records a file's data holds: one record, a records file, or a table file."""
    if isinstance(data, dict) and data.get("format") == RECORDS_FORMAT:
        recs = data.get("records")
        if not isinstance(recs, list) or not recs:
            raise RecordError("the records file holds no \"records\" list", where)
        return [engine.validate_record(r, f"{where} (record {i})") for i, r in enumerate(recs, 1)]
    if isinstance(data, dict) and data.get("format") == store.TABLE_FORMAT:
        return [engine.validate_record(data.get("record"), where)]
    return [engine.validate_record(data, where)]


MAX_UPLOADED_RECORDS = 200      # records in one upload
MAX_UPLOADED_MOVES = 20_000     # moves in one uploaded record: every step of a replay plays them again
MAX_UPLOAD_MOVES = 100_000      # moves in all the records of one upload
KEPT_UPLOADS = 64               # uploads kept in memory (the oldest go first) ...
KEPT_MOVES = 200_000            # ... and the moves they hold, at most (about 60 MB)


def keep_upload(web, name: str, recs: list[dict]) -> str:
    """Keep an upload to be replayed, forgetting the oldest ones past the limits; its id."""
    import secrets
    moves = lambda rs: sum(len(r["moves"]) for r in rs)  # noqa: E731
    kept = sum(moves(r) for _, r in web.uploads.values())
    while web.uploads and (len(web.uploads) >= KEPT_UPLOADS or kept + moves(recs) > KEPT_MOVES):
        kept -= moves(web.uploads.pop(next(iter(web.uploads)))[1])
    uid = secrets.token_hex(6)
    web.uploads[uid] = (name, recs)
    return uid


def parse_upload(text: str) -> list[dict]:
    if not text:
        raise RecordError("choose a record file first (or paste one)", "upload")
    try:
        data = loads_json(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"this is not a record: it is not valid JSON ({e.msg}, line {e.lineno})", "upload") from None
    recs = records_in(data, "the uploaded file")
    if len(recs) > MAX_UPLOADED_RECORDS:
        raise RecordError(f"the file holds {len(recs):,} records; upload at most {MAX_UPLOADED_RECORDS} at once "
                          "(or replay it with: cardrules replay FILE)", "upload")
    total = sum(len(rec["moves"]) for rec in recs)
    if total > MAX_UPLOAD_MOVES:
        raise RecordError(f"the file holds {total:,} moves in all; upload at most {MAX_UPLOAD_MOVES:,} at once "
                          "(or replay it with: cardrules replay FILE)", "upload")
    for i, rec in enumerate(recs, 1):
        if len(rec["moves"]) > MAX_UPLOADED_MOVES:
            raise RecordError(f"record {i} has {len(rec['moves']):,} moves, more than the {MAX_UPLOADED_MOVES:,} "
                              "a replay here steps through (replay it with: cardrules replay FILE)", "upload")
    return recs


def sources(web) -> list[dict]:
    """The records to pick from: [{"title", "url", "where"}]."""
    out = []
    for t in sorted(web.tables.tables.values(), key=lambda t: -t.created):
        if t.state.finished:
            out.append({"title": f"{t.title}, table {t.id}", "url": f"/replay/table/{t.id}",
                        "where": f"{t.version} moves, finished"})
    for i, path in enumerate(web.records):
        try:
            recs = records_in(loads_json(read_record_text(path)), str(path))
        except (json.JSONDecodeError, CardRulesError) as e:
            out.append({"title": str(path), "url": None, "where": f"cannot be read: {getattr(e, 'message', e)}"})
            continue
        for j, rec in enumerate(recs):
            suffix = f" (game {j + 1} of {len(recs)})" if len(recs) > 1 else ""
            out.append({"title": f"{path.name}{suffix}", "url": f"/replay/file/{i}-{j}",
                        "where": f"{rec.get('game')}, {len(rec['moves'])} moves, seed {rec['seed']}"})
    for uid, (name, recs) in web.uploads.items():
        for j, rec in enumerate(recs):
            out.append({"title": name + (f" (game {j + 1})" if len(recs) > 1 else ""),
                        "url": f"/replay/u/{uid}-{j}" if len(recs) > 1 else f"/replay/u/{uid}",
                        "where": f"uploaded; {rec.get('game')}, {len(rec['moves'])} moves"})
    return out


def _find(web, source: str, name: str) -> tuple[dict, str, object]:
    """(record, catalog key of its ruleset, the table or None); LookupError when unknown."""
    if source == "table":
        t = web.tables.get(name)
        if t is None or not t.state.finished:
            raise LookupError(name)
        return t.file_data()["record"], t.key, t
    index, _, j = name.partition("-")
    if source == "file":
        if not re.fullmatch(r"[0-9]{1,6}", index) or int(index) >= len(web.records):
            raise LookupError(name)
        path = Path(web.records[int(index)])
        try:
            recs = records_in(loads_json(read_record_text(path)), str(path))
        except json.JSONDecodeError as e:
            raise RecordError(f"cannot read the record: {e}", str(path)) from None
        record_file = path
    elif source == "u" and index in web.uploads:
        recs = web.uploads[index][1]
        record_file = Path.cwd() / "upload.json"
    else:
        raise LookupError(name)
    k = int(j) if re.fullmatch(r"[0-9]{1,6}", j) else 0
    if k >= len(recs):
        raise LookupError(name)
    rec = recs[k]
    return rec, _ruleset_key(web, rec, record_file, trusted=source != "u"), None


def _ruleset_key(web, rec: dict, record_file: Path, trusted: bool = True) -> str:
    """The ruleset a record names (by its portable name), else one on offer with its game's name.
    An uploaded record (not `trusted`) may name only a bundled game: a path in it is a stranger's
    choice of a file on this computer, never opened."""
    ref = rec.get("ruleset")
    path = None
    if isinstance(ref, str) and ref and (trusted or ref.startswith(BUNDLED_PREFIX)):
        path = find_for_record(ref, record_file)
    if path is not None:
        return web.catalog.add(path, listed=False).key
    for e in web.catalog.entries():
        try:
            if web.catalog.ruleset(e.key).name == rec.get("game"):
                return e.key
        except CardRulesError:
            continue
    named = ref if trusted else rec.get("game")
    raise RecordError(f"the record's ruleset ({str(named or rec.get('game'))[:200]!r}) is not here; start the server "
                      "with it: cardrules serve RULESET", str(record_file) if trusted else "the uploaded record")


def context(web, source: str, name: str, step: int, seat: int | None) -> dict:
    """The page of one moment of a saved game: after `step` moves, seen by `seat` (None: all)."""
    rec, key, table = _find(web, source, name)
    rs = web.catalog.ruleset(key)
    moves = rec["moves"]
    step = max(0, min(step, len(moves)))
    if seat is not None and not (0 <= seat < rec["players"]):
        seat = None
    try:
        state = engine.new_game(rs, rec["players"], rec["options"], rec["seed"])
    except CardRulesError as e:
        raise RecordError(f"the record's set-up is invalid: {e.message}", name) from None
    notes = []
    for i, entry in enumerate(moves[:step], 1):
        if not isinstance(entry, dict):
            raise RecordError(f"move {i} ({entry!r:.80}) is not a move: each is an object with \"player\" and \"move\"",
                              name)
        try:
            player = int(str(entry.get("player", ""))[1:]) - 1
            move = Move.parse(str(entry["move"]), player)
            secret, rule = engine.in_secret(state), engine.rule_at(state)[0]
            before = shown_cards.places(state, shown_cards.named_cards(state.program, move.arg))
            engine.apply(state, move)
        except (IllegalMoveError, InvalidMoveError, GameRuntimeError, ValueError, KeyError, TypeError) as e:
            why = getattr(e, "message", None) or str(e)
            raise RecordError(f"move {i} ({entry!r}) does not replay: {why}", name) from None
        notes.append(views.move_note(state, move, secret, rule, before=before))
    try:
        anchors = web.catalog.rulebook(key)[1]
    except CardRulesError:
        anchors = {}
    ctx = views.seat_context(table, seat, state=state, notes=notes, anchors=anchors, interactive=False)
    base = f"/replay/{source}/{name}"
    as_seat = f"&seat={seat + 1}" if seat is not None else ""
    ctx.update(title=rs.title or rs.name, key=key, step=step, total=len(moves), base=base,
               seats=[{"name": seat_name(i), "url": f"{base}?step={step}&seat={i + 1}", "current": i == seat}
                      for i in range(rec["players"])],
               everyone_url=f"{base}?step={step}", as_seat=as_seat, seed=rec["seed"],
               last_move=ctx["log"][-1]["text"] if ctx["log"] else None, options=rec["options"])
    return ctx
