"""Aligning two flattened blocks line by line (difflib): which lines correspond, which were
added, removed or changed, and which moved."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .lines import _Line, _is_local, _translate


# ------------------------------------------------------------------ aligning lines


@dataclass
class _Event:
    action: str              # added, removed, changed, moved (a rule), step moved
    a: _Line | None
    b: _Line | None
    under: int = 0           # for a step moved: how many steps moved with it, nested under it


def _shape(ln: _Line):
    s = ln.node
    return (ln.depth, ln.part, type(s).__name__, s.name if ln.part == "rule" else None)


def _named(k, names: dict[int, str | None]):
    """A key with statement-bound locals by their written names (to prefer the alignment a
    reader expects when nothing was renamed)."""
    if isinstance(k, tuple):
        if _is_local(k):
            return ("$N", names.get(k[1])) + k[2:]
        return tuple(_named(x, names) for x in k)
    return k


def _ops(a: list[_Line], b: list[_Line], ka: list, kb: list):
    ops: list[tuple[str, _Line | None, _Line | None]] = []
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops += [("pair", a[i], b[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
        elif tag == "delete":
            ops += [("removed", a[i], None) for i in range(i1, i2)]
        elif tag == "insert":
            ops += [("added", None, b[j]) for j in range(j1, j2)]
        else:
            sub = difflib.SequenceMatcher(None, [_shape(x) for x in a[i1:i2]], [_shape(x) for x in b[j1:j2]],
                                          autojunk=False)
            for t2, k1, k2, l1, l2 in sub.get_opcodes():
                if t2 == "equal":
                    ops += [("pair", a[i1 + i], b[j1 + j]) for i, j in zip(range(k1, k2), range(l1, l2))]
                else:
                    ops += [("removed", a[i1 + i], None) for i in range(k1, k2)]
                    ops += [("added", None, b[j1 + j]) for j in range(l1, l2)]
    return ops


def _events(ops, outer: dict[int, int] | None):
    pairs = dict(outer or {})
    for tag, x, y in ops:
        if tag == "pair":
            pairs[x.index] = y.index
    events: list[_Event] = []
    prose: list[_Event] = []
    for tag, x, y in ops:
        if tag == "pair":
            if _translate(x.key, pairs) != y.key:
                events.append(_Event("changed", x, y))
            if x.prose != y.prose:
                prose.append(_Event("changed", x, y))
        else:
            events.append(_Event(tag, x, y))
    return pairs, events, prose


def _align(a: list[_Line], b: list[_Line], outer: dict[int, int] | None = None,
           context: tuple[list[_Line], list[_Line]] | None = None):
    """Align two flattened blocks: returns (pairs, events, prose). pairs maps A's line index to
    B's for lines that correspond; events are the lines added, removed or changed (in B's
    order), prose the paired lines whose words (titles, texts, labels) changed.

    Two alignments are tried, one that ignores the names of locals and one that uses them,
    and the one with fewer events is kept: either way, no events means the two blocks are the
    same up to renaming their locals."""
    loose = _events(_ops(a, b, [x.loose for x in a], [x.loose for x in b]), outer)
    if not loose[1]:
        return loose
    na = {x.index: x.binds for x in (context[0] if context else a)}
    nb = {x.index: x.binds for x in (context[1] if context else b)}
    named = _events(_ops(a, b, [(_named(x.key, na), x.binds) for x in a], [(_named(x.key, nb), x.binds) for x in b]),
                    outer)
    return named if len(named[1]) <= len(loose[1]) else loose


def _pair_moves(events: list[_Event]) -> list[_Event]:
    """An added and a removed line that say the same thing are one line moved."""
    removed = [e for e in events if e.action == "removed"]
    out = []
    for ev in events:
        if ev.action == "added":
            hit = next((r for r in removed if r.a.loose[1:] == ev.b.loose[1:]), None)
            if hit is not None:
                removed.remove(hit)
                out.append(_Event("step moved", hit.a, ev.b))
                continue
        out.append(ev)
    out = [e for e in out if e.action != "removed" or e in removed]
    # a block moved with everything in it is one step moved
    top: dict[int, _Event] = {}
    partner: dict[int, int] = {}
    kept = []
    for ev in out:
        if ev.action == "step moved":
            partner[ev.a.index] = ev.b.index
            owner = top.get(ev.b.parent)
            if owner is not None and ev.a.parent is not None and partner.get(ev.a.parent) == ev.b.parent:
                owner.under += 1
                top[ev.b.index] = owner
                continue
            top[ev.b.index] = ev
        kept.append(ev)
    return kept


def _rank_among(la: list[_Line], lb: list[_Line], name: str):
    """Where a rule stands among the rules both blocks have, when that changed (else None)."""
    ra = [ln.node.name for ln in la if ln.part == "rule"]
    rb = [ln.node.name for ln in lb if ln.part == "rule"]
    common_a = [n for n in ra if n in rb]
    common_b = [n for n in rb if n in ra]
    if name not in common_a or common_a.index(name) == common_b.index(name):
        return None
    return common_b.index(name)


def _rule_lines(lines: list[_Line], header: _Line) -> list[_Line]:
    """A rule's header and every line nested under it."""
    out = [header]
    for ln in lines[header.index + 1:]:
        if ln.depth <= header.depth:
            break
        out.append(ln)
    return out
