"""The whole picture: the phases in the order of play and the procedures' frames placed on the
page, the arrows between them, the legend, as one standalone SVG document (`turn_svg`)."""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ...language import graph as g
from ..markup import _cap, human
from .draw import _draw_block, _poly, _Svg
from .flow import _Builder
from .layout import _Laid, _layouts_fitting
from .measure import (BLUE, GUTTER, INK, LEADING, MARGIN, MIN_TEXT, MUTED, PAGE_WIDTH, SECTION_GAP, SECTION_PAD,
                      SMALL, STYLE, TEXT, TITLE, _n, text_width, wrap)


@dataclass
class _Section:
    kind: str                    # phase or procedure
    name: str
    title: list[str]
    laid: _Laid
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0

    @property
    def band(self) -> float:
        return len(self.title) * TITLE * LEADING + 7

    def origin(self) -> tuple[float, float]:
        return self.x + (self.w - self.laid.width) / 2, self.y + self.band + SECTION_PAD

    def exit_x(self) -> float | None:
        ox = self.origin()[0]
        return next((ox + nd.x for nd in self.laid.nodes if nd.kind == "sink"), None)


def _phase_chain(rs: g.Ruleset) -> list[g.Phase]:
    """The phases in the order they are played: from the first, along `then`."""
    by_name = {p.name: p for p in rs.phases}
    order: list[g.Phase] = []
    nxt = rs.phases[0].name if rs.phases else None
    while nxt is not None and nxt in by_name and by_name[nxt] not in order:
        order.append(by_name[nxt])
        nxt = by_name[nxt].then
    return order + [p for p in rs.phases if p not in order]


def _drawn_procedures(b: _Builder, chain: list[g.Phase]) -> list[str]:
    """The procedures that get a frame, in the order play first reaches them."""
    order: list[str] = []

    def reach(stmts):
        for s in stmts:
            if isinstance(s, g.Perform) and s.name in b.drawn and s.name not in order:
                order.append(s.name)
                reach(b.procs[s.name].body)
            for blk in g.child_blocks(s):
                reach(blk)
    for ph in chain:
        reach(ph.body)
    return order


def turn_svg(rs: g.Ruleset) -> str:
    """How play flows through the ruleset's phases, rules, decisions and loops: a standalone
    SVG document, at most 16 cm wide, its text at least 8 pt (see the module docstring)."""
    if not rs.phases:  # (a ruleset the compiler has not checked: it needs a phase)
        return ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="200pt" height="24pt" '
                'viewBox="0 0 200 24" font-family="sans-serif"><text x="4" y="15" font-size="10" '
                'fill="#333333">The game has no phases.</text></svg>\n')
    b = _Builder(rs)
    chain = _phase_chain(rs)
    number = {p.name: i for i, p in enumerate(rs.phases, 1)}
    back_then = any(ph.then and number.get(ph.then, 0) <= number[ph.name] for ph in rs.phases)
    gutter = GUTTER if back_then else 0.0
    room = PAGE_WIDTH - 2 * MARGIN - gutter - 2 * SECTION_PAD
    sections: list[_Section] = []
    for ph in chain:
        title = f"Phase {number[ph.name]}: {ph.title or _cap(human(ph.name))}"
        sections.append(_Section("phase", ph.name, wrap(title, TITLE, room, bold=True),
                                 _layouts_fitting(b.phase(ph), room)[0]))
    choices: dict[str, list[_Laid]] = {}  # a procedure's layouts, widest first: the one placed highest is kept
    for name in _drawn_procedures(b, chain):
        fitting = _layouts_fitting(b.procedure(b.procs[name]), room)
        choices[name] = fitting
        sections.append(_Section("procedure", name, wrap(f"Procedure: {human(name)}", TITLE, room, bold=True),
                                 fitting[0]))
    phases = [s for s in sections if s.kind == "phase"]
    procs = [s for s in sections if s.kind == "procedure"]
    for sec in sections:
        inner = max([sec.laid.width] + [text_width(t, TITLE, True) for t in sec.title])
        sec.w = inner + 2 * SECTION_PAD
        sec.h = sec.band + SECTION_PAD + sec.laid.height + SECTION_PAD
    avail = max([PAGE_WIDTH - 2 * MARGIN] + [s.w + gutter for s in sections])
    # the phases in the order of play, side by side while they fit, then on the next row; an
    # arrow back to an earlier phase runs up the gutter on their left
    y = MARGIN + 16  # the start mark above the first phase
    for row in _rows(phases, avail - gutter, ARROW_GAP):
        x = MARGIN + gutter
        for sec in row:
            sec.x, sec.y = x, y
            x += sec.w + ARROW_GAP
        y += max(s.h for s in row) + SECTION_GAP
    last = next(s for s in phases if s.name == chain[-1].name)
    below = 0.0 if last.exit_x() is None else 26.0 if chain[-1].then is None or back_then else 0.0
    # the procedures wherever they first fit, beside the phases or below them
    taken = [(s.x, s.y, s.w, s.h) for s in phases] + [(MARGIN, MARGIN, phases[0].x + phases[0].w, phases[0].y),
                                                       (MARGIN, last.y, last.x + last.w, last.h + below)]
    for sec in procs:
        best = None
        for laid in choices[sec.name]:
            w = max([laid.width] + [text_width(t, TITLE, True) for t in sec.title]) + 2 * SECTION_PAD
            h = sec.band + SECTION_PAD + laid.height + SECTION_PAD
            x, y = _first_fit(taken, w, h, MARGIN + avail, phases[0].y)
            if best is None or y < best[1] - 0.5:
                best = (x, y, w, h, laid)
        sec.x, sec.y, sec.w, sec.h, sec.laid = best
        taken.append((sec.x, sec.y, sec.w, sec.h))
    right = max(max(s.x + s.w for s in sections), MARGIN + gutter)
    bottom = max(max(s.y + s.h for s in sections), last.y + last.h + below)
    legend = _legend_rows(sections, right - MARGIN)
    width = right + MARGIN
    height = bottom + 8 + len(legend) * 15 - 2 + MARGIN
    # wider than the page (no bundled game is): scaled down, but never to text below 8 pt
    scale = max(min(1.0, PAGE_WIDTH / width), MIN_TEXT / min(TEXT, SMALL, TITLE))

    svg = _Svg()
    name = rs.title or _cap(human(rs.name))
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(width * scale)}pt" '
            f'height="{_n(height * scale)}pt" viewBox="0 0 {_n(width)} {_n(height)}" font-family="sans-serif" '
            f'role="img" aria-label={quoteattr("How play flows in " + name)}>')
    svg.add(f"<title>{escape('How play flows in ' + name)}</title>")
    svg.add(f'<rect width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>')
    first = phases[0]
    cx = first.x + first.w / 2
    svg.add(f'<circle class="start" cx="{_n(cx)}" cy="{_n(MARGIN + 4)}" r="4" fill="{INK}"/>')
    _arrow_down(svg, (cx, MARGIN + 8), (cx, first.y), "", first.name)
    for sec in sections:
        _draw_section(svg, sec)
    by_name = {s.name: s for s in phases}
    for i, ph in enumerate(chain):
        sec = by_name[ph.name]
        if sec.exit_x() is None:  # every way through it ends the game
            continue
        x = sec.x + sec.w / 2
        if ph.then is None:
            _arrow_down(svg, (x, sec.y + sec.h), (x, sec.y + sec.h + 13), ph.name, "")
            _end_mark(svg, x, sec.y + sec.h + 19)
            continue
        nxt = by_name.get(ph.then)
        if nxt is None:
            continue
        if i + 1 < len(chain) and chain[i + 1].name == ph.then:
            if abs(nxt.y - sec.y) < 0.5:  # beside it, in the same row
                _arrow_across(svg, sec, nxt)
            else:
                _arrow_down(svg, (x, sec.y + sec.h), (nxt.x + nxt.w / 2, nxt.y), ph.name, ph.then)
        else:
            _arrow_back(svg, (x, sec.y + sec.h), nxt, MARGIN + gutter / 2, ph.name, ph.then,
                        f"then phase {number[ph.then]}")
    ly = height - MARGIN - len(legend) * 15 + 2
    for row in legend:
        _draw_legend_row(svg, row, MARGIN, ly)
        ly += 15
    svg.add("</svg>")
    return "\n".join(svg.out) + "\n"


ARROW_GAP = 22.0  # between two phases side by side, for the arrow from one to the next


def _first_fit(taken: list[tuple[float, float, float, float]], w: float, h: float, limit: float,
               top: float) -> tuple[float, float]:
    """The highest, then leftmost, place for a w x h frame clear of the rectangles taken (with a
    gap), its right edge within limit."""
    gap = 10.0
    for y in sorted({top} | {ty + th + gap for _, ty, _, th in taken if ty + th + gap >= top}):
        x = MARGIN
        moved = True
        while moved:
            moved = False
            for tx, ty, tw, th in taken:
                if x < tx + tw + gap and tx < x + w + gap and y < ty + th + gap and ty < y + h + gap:
                    x, moved = tx + tw + gap, True
        if x + w <= limit:
            return x, y
    return MARGIN, max(ty + th for _, ty, _, th in taken) + gap


def _rows(sections: list[_Section], width: float, gap: float) -> list[list[_Section]]:
    """Sections in order, as many to a row as fit the width."""
    rows: list[list[_Section]] = []
    for sec in sections:
        if rows and sum(s.w + gap for s in rows[-1]) + sec.w <= width:
            rows[-1].append(sec)
        else:
            rows.append([sec])
    return rows


def _arrow_across(svg: _Svg, a: _Section, b: _Section) -> None:
    """From one phase to the next beside it, at the height of their titles."""
    y = a.y + a.band / 2
    svg.line("phase-edge", f"M{_n(a.x + a.w)},{_n(y)} H{_n(b.x - 4)}", INK, 1.1,
             f" data-from={quoteattr(a.name)} data-to={quoteattr(b.name)}")
    svg.arrowhead((b.x, y), (b.x - 10, y))


def _draw_section(svg: _Svg, sec: _Section) -> None:
    proc = sec.kind == "procedure"
    dash = ' stroke-dasharray="5 3"' if proc else ""
    x, y, w, h, band = sec.x, sec.y, sec.w, sec.h, sec.band
    svg.add(f'<g class="{sec.kind}" data-name={quoteattr(sec.name)}>')
    svg.add(f'<rect class="frame" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="4" '
            f'fill="#fcfcfc" stroke="#9a9a9a" stroke-width="0.8"{dash}/>')
    svg.add(f'<path d="M{_n(x + 0.4)},{_n(y + band)} H{_n(x + w - 0.4)} V{_n(y + 4)} '
            f'Q{_n(x + w - 0.4)},{_n(y + 0.4)} {_n(x + w - 4)},{_n(y + 0.4)} H{_n(x + 4)} '
            f'Q{_n(x + 0.4)},{_n(y + 0.4)} {_n(x + 0.4)},{_n(y + 4)} Z" fill="{"#e5f0dd" if proc else "#e9e9e9"}"/>')
    svg.text(sec.title, x + 6, y + band / 2, TITLE, anchor="start", weight="bold", cls="title")
    ox, oy = sec.origin()
    _draw_block(svg, sec.laid, ox, oy)
    svg.add("</g>")


def _arrow_down(svg: _Svg, a, b, frm: str, to: str) -> None:
    """A phase-to-phase arrow, straight or as an S."""
    (x0, y0), (x1, y1) = a, b
    data = f" data-from={quoteattr(frm)} data-to={quoteattr(to)}"
    if abs(x0 - x1) < 0.5:
        d = f"M{_n(x0)},{_n(y0)} V{_n(y1 - 4)}"
    else:
        my = (y0 + y1) / 2
        d = f"M{_n(x0)},{_n(y0)} C{_n(x0)},{_n(my)} {_n(x1)},{_n(my)} {_n(x1)},{_n(y1 - 4)}"
    svg.line("phase-edge", d, INK, 1.1, data)
    svg.arrowhead((x1, y1), (x1, y1 - 10))


def _arrow_back(svg: _Svg, a, target: _Section, gx: float, frm: str, to: str, label: str) -> None:
    """From a phase's bottom, left into the gutter, up, and down into an earlier phase's top."""
    x0, y0 = a
    x1, y1 = target.x + target.w * 0.25, target.y
    yb, yt, r = y0 + 10, y1 - 9, 5.0
    d = (f"M{_n(x0)},{_n(y0)} V{_n(yb - r)} Q{_n(x0)},{_n(yb)} {_n(x0 - r)},{_n(yb)} H{_n(gx + r)} "
         f"Q{_n(gx)},{_n(yb)} {_n(gx)},{_n(yb - r)} V{_n(yt + r)} Q{_n(gx)},{_n(yt)} {_n(gx + r)},{_n(yt)} "
         f"H{_n(x1 - r)} Q{_n(x1)},{_n(yt)} {_n(x1)},{_n(yt + r)} V{_n(y1 - 4)}")
    svg.line("phase-edge", d, INK, 1.1, f" data-from={quoteattr(frm)} data-to={quoteattr(to)}")
    svg.arrowhead((x1, y1), (x1, y1 - 10))
    svg.text([label], x0 + 6, yb + 1, SMALL, anchor="start", style="italic", fill=MUTED, cls="label")


def _end_mark(svg: _Svg, x: float, y: float) -> None:
    """The end of the game after the last phase: a bull's-eye."""
    svg.add(f'<g class="game-end"><circle cx="{_n(x)}" cy="{_n(y)}" r="6" fill="#ffffff" stroke="{INK}" '
            f'stroke-width="1.2"/><circle cx="{_n(x)}" cy="{_n(y)}" r="3.2" fill="{INK}"/></g>')
    svg.text(["the game ends"], x + 10, y, SMALL, anchor="start", style="italic", fill=MUTED, cls="label")


_LEGEND = [
    ("rule", "a rule"), ("dashed", "dashed: only when a condition holds"),
    ("decision", "a player decides"), ("frame", "repeated, as its head says"),
    ("branch", "one way or another, depending on a condition"), ("perform", "a procedure, drawn in its own frame"),
    ("end", "the game ends"), ("winner", "the winner is named"), ("sink", "the phase (or procedure) is over"),
]


def _legend_rows(sections: list[_Section], width: float) -> list[list[tuple[str, str, float]]]:
    """The legend's entries for the shapes the picture uses, in rows that fit its width."""
    kinds: set[str] = set()

    def walk(nodes):
        for nd in nodes:
            kinds.add("dashed" if nd.dashed else nd.kind)
            if nd.laid is not None:
                walk(nd.laid.nodes)
    for sec in sections:
        walk(sec.laid.nodes)
    rows: list[list[tuple[str, str, float]]] = []
    for key, words in _LEGEND:
        if key not in kinds:
            continue
        item = (key, words, 22 + text_width(words, SMALL) + 12)
        if rows and sum(w for _, _, w in rows[-1]) + item[2] - 12 <= width:
            rows[-1].append(item)
        else:
            rows.append([item])
    return rows


def _draw_legend_row(svg: _Svg, row, x: float, y: float) -> None:
    svg.add('<g class="legend">')
    cy = y + 6
    for key, words, w in row:
        fill, stroke = STYLE.get(key, ("#ffffff", INK))
        box = f'x="{_n(x)}" y="{_n(cy - 5)}" width="16" height="10"'
        if key in ("rule", "dashed"):
            dash = ' stroke-dasharray="3 2"' if key == "dashed" else ""
            svg.add(f'<rect {box} fill="#ffffff" stroke="{INK}"{dash}/>')
        elif key == "decision":
            pts = [(x, cy), (x + 4, cy - 5), (x + 12, cy - 5), (x + 16, cy), (x + 12, cy + 5), (x + 4, cy + 5)]
            svg.add(f'<polygon points="{_poly(pts)}" fill="{fill}" stroke="{stroke}"/>')
        elif key == "frame":
            svg.add(f'<rect {box} rx="3" fill="{fill}" stroke="{stroke}"/>'
                    f'<path d="M{_n(x + 12)},{_n(cy + 3)} V{_n(cy - 1)}" stroke="{BLUE}"/>')
            svg.arrowhead((x + 12, cy - 3), (x + 12, cy + 3), BLUE)
        elif key == "branch":
            svg.add(f'<polygon points="{_poly([(x + 8, cy - 6), (x + 14, cy), (x + 8, cy + 6), (x + 2, cy)])}" '
                    f'fill="#ffffff" stroke="{stroke}"/>')
        elif key == "perform":
            svg.add(f'<rect {box} fill="{fill}" stroke="{stroke}"/>'
                    f'<path d="M{_n(x + 3)},{_n(cy - 5)} V{_n(cy + 5)} M{_n(x + 13)},{_n(cy - 5)} V{_n(cy + 5)}" '
                    f'stroke="{stroke}"/>')
        elif key in ("end", "winner"):
            svg.add(f'<rect {box} rx="5" fill="{fill}" stroke="{stroke}"/>')
        elif key == "sink":
            svg.add(f'<circle cx="{_n(x + 8)}" cy="{_n(cy)}" r="3.5" fill="#ffffff" stroke="{INK}"/>')
        svg.text([words], x + 22, cy, SMALL, anchor="start", fill=MUTED)
        x += w
    svg.add("</g>")
