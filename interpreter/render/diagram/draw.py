"""Drawing a laid-out block as SVG: its nodes, its loop frames and its arrows."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .flow import _POINTS, _Node
from .layout import _Laid
from .measure import BLUE, INK, LEADING, LOOP_BOTTOM, LOOP_SIDE, MUTED, SMALL, STYLE, TEXT, _n


class _Svg:
    def __init__(self):
        self.out: list[str] = []

    def add(self, s: str) -> None:
        self.out.append(s)

    def text(self, lines, x: float, y: float, size: float, anchor: str = "middle", fill: str = INK,
             weight: str = "", style: str = "", cls: str = "") -> None:
        """Lines of text centred vertically on y."""
        lead = size * LEADING
        top = y - (len(lines) - 1) * lead / 2 + size * 0.35
        attrs = f' font-size="{_n(size)}" text-anchor="{anchor}" fill="{fill}"'
        if weight:
            attrs += f' font-weight="{weight}"'
        if style:
            attrs += f' font-style="{style}"'
        if cls:
            attrs += f' class="{cls}"'
        spans = "".join(f'<tspan x="{_n(x)}" y="{_n(top + i * lead)}">{escape(ln)}</tspan>'
                        for i, ln in enumerate(lines))
        self.add(f"<text{attrs}>{spans}</text>")

    def line(self, cls: str, d: str, colour: str = INK, width: float = 0.9, extra: str = "") -> None:
        self.add(f'<path class="{cls}"{extra} d="{d}" fill="none" stroke="{colour}" stroke-width="{_n(width)}"/>')

    def arrowhead(self, tip, frm, colour: str = INK) -> None:
        """A filled arrowhead at tip, pointing away from frm."""
        (x1, y1), (x0, y0) = tip, frm
        dx, dy = x1 - x0, y1 - y0
        d = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / d, dy / d
        bx, by = x1 - ux * 6.0, y1 - uy * 6.0
        pts = [(x1, y1), (bx - uy * 2.6, by + ux * 2.6), (bx + uy * 2.6, by - ux * 2.6)]
        self.add(f'<path d="M{" L".join(_n(px) + "," + _n(py) for px, py in pts)} Z" fill="{colour}"/>')


def _curve(points) -> str:
    """A smooth path through points, leaving and entering each one vertically."""
    x0, y0 = points[0]
    d = f"M{_n(x0)},{_n(y0)}"
    for (xa, ya), (xb, yb) in zip(points, points[1:]):
        if abs(xa - xb) < 0.5:
            d += f" L{_n(xb)},{_n(yb)}"
        else:
            my = (ya + yb) / 2
            d += f" C{_n(xa)},{_n(my)} {_n(xb)},{_n(my)} {_n(xb)},{_n(yb)}"
    return d


def _poly(pts) -> str:
    return " ".join(f"{_n(a)},{_n(b)}" for a, b in pts)


def _draw_node(svg: _Svg, nd: _Node, ox: float, oy: float) -> None:
    x, y, w, h, k = nd.x + ox, nd.y + oy, nd.w, nd.h, nd.kind
    left, top = x - w / 2, y - h / 2
    fill, stroke = STYLE.get(k, ("#ffffff", INK))
    if k == "label":
        svg.text(nd.lines, x, y, SMALL, style="italic", fill=MUTED, cls="label")
        return
    if k == "again":
        svg.add(f'<circle class="again" cx="{_n(x)}" cy="{_n(y)}" r="2.6" fill="{BLUE}"/>')
        return
    if k == "sink":  # the end of a phase or procedure
        svg.add(f'<circle class="sink" cx="{_n(x)}" cy="{_n(y)}" r="3.5" fill="#ffffff" stroke="{INK}" stroke-width="1"/>')
        return
    if k in _POINTS:
        return
    if k == "frame":
        _draw_frame(svg, nd, ox, oy)
        return
    svg.add(f'<g class="node {k}">')
    dash = ' stroke-dasharray="4 2.5"' if nd.dashed else ""
    shape = f'fill="{fill}" stroke="{stroke}" stroke-width="{"1.6" if k == "winner" else "1"}"{dash}'
    if k in ("rule", "empty"):
        svg.add(f'<rect class="{k}" x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" height="{_n(h)}" {shape}/>')
    elif k == "decision":
        p = min(9.0, h / 2)
        pts = [(left, y), (left + p, top), (left + w - p, top), (left + w, y), (left + w - p, top + h), (left + p, top + h)]
        svg.add(f'<polygon class="decision" points="{_poly(pts)}" {shape}/>')
    elif k == "perform":
        svg.add(f'<rect class="perform" x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" height="{_n(h)}" {shape}/>')
        for bx in (left + 5, left + w - 5):
            svg.add(f'<path d="M{_n(bx)},{_n(top)} V{_n(top + h)}" stroke="{stroke}" stroke-width="1"{dash}/>')
    elif k in ("end", "winner"):
        svg.add(f'<rect class="{k}" x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(h / 2)}" {shape}/>')
    elif k == "branch":
        svg.add(f'<polygon class="branch" points="{_poly([(x, top), (left + w, y), (x, top + h), (left, y)])}" {shape}/>')
    if nd.lines:
        svg.text(nd.lines, x, y, TEXT, fill="#ffffff" if k == "end" else INK)
    svg.add("</g>")


def _draw_frame(svg: _Svg, nd: _Node, ox: float, oy: float) -> None:
    """A loop: its frame and head, its body inside, the line back up from the body's end, and
    the way out of a break through the bottom."""
    x, y, w, h = nd.x + ox, nd.y + oy, nd.w, nd.h
    left, top = x - w / 2, y - h / 2
    fill, stroke = STYLE["frame"]
    svg.add('<g class="node loop">')
    dash = ' stroke-dasharray="4 2.5"' if nd.dashed else ""
    svg.add(f'<rect class="loop" x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" height="{_n(h)}" rx="7" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="1"{dash}/>')
    r = 6.5  # the head: a band with the frame's upper corners
    svg.add(f'<path d="M{_n(left + 0.5)},{_n(top + nd.head)} H{_n(left + w - 0.5)} V{_n(top + r)} '
            f'Q{_n(left + w - 0.5)},{_n(top + 0.5)} {_n(left + w - r)},{_n(top + 0.5)} H{_n(left + r)} '
            f'Q{_n(left + 0.5)},{_n(top + 0.5)} {_n(left + 0.5)},{_n(top + r)} Z" fill="#dde9f7"/>')
    svg.text(nd.lines, x, top + nd.head / 2, TEXT, fill="#1f3f63")
    laid = nd.laid
    ix = left + (w - laid.width) / 2
    iy = top + nd.head + 6
    _draw_block(svg, laid, ix, iy)
    bottom = top + h
    again = next((m for m in laid.nodes if m.kind == "again"), None)
    out = next((m for m in laid.nodes if m.kind == "exit"), None)
    if out is not None:
        svg.line("edge", f"M{_n(out.x + ix)},{_n(out.y + iy)} V{_n(bottom)}")
    if again is not None:
        ax, ay = again.x + ix, again.y + iy
        side = -1.0 if out is not None and out.x > again.x else 1.0
        lane = x + side * (w / 2 - LOOP_SIDE / 2)
        low = bottom - LOOP_BOTTOM / 2
        c = 4.0
        d = (f"M{_n(ax)},{_n(ay)} V{_n(low - c)} Q{_n(ax)},{_n(low)} {_n(ax + side * c)},{_n(low)} "
             f"H{_n(lane - side * c)} Q{_n(lane)},{_n(low)} {_n(lane)},{_n(low - c)} V{_n(top + nd.head + 5)}")
        svg.line("back-edge", d, BLUE)
        svg.arrowhead((lane, top + nd.head), (lane, top + nd.head + 10), BLUE)
    svg.add("</g>")


def _port(nd: _Node, leaving: bool) -> tuple[float, float]:
    """Where arrows leave a node (its bottom) or reach it (its top)."""
    if nd.kind == "sink":
        return nd.x, nd.y - 3.5
    if nd.kind in _POINTS:
        return nd.x, nd.y
    if leaving and nd.kind == "frame" and nd.laid is not None:
        out = next((m for m in nd.laid.nodes if m.kind == "exit"), None)
        if out is not None:  # from where a break comes out
            return nd.x - nd.w / 2 + (nd.w - nd.laid.width) / 2 + out.x, nd.y + nd.h / 2
    return nd.x, nd.y + nd.h / 2 if leaving else nd.y - nd.h / 2


def _draw_block(svg: _Svg, laid: _Laid, ox: float, oy: float) -> None:
    """A laid-out block's arrows, then its nodes."""
    nodes = laid.nodes
    # spread the ends of several arrows leaving (or reaching) one box along its side
    outs: dict[int, list[int]] = {}
    ins: dict[int, list[int]] = {}
    for i, (e, mids) in enumerate(laid.paths):
        outs.setdefault(e.src, []).append(i)
        ins.setdefault(e.dst, []).append(i)

    def towards(i, leaving):
        e, mids = laid.paths[i]
        other = nodes[e.dst] if leaving else nodes[e.src]
        if mids:
            return mids[0][0] if leaving else mids[-1][0]
        return other.x
    shift: dict[tuple[int, bool], float] = {}
    for table, leaving in ((outs, True), (ins, False)):
        for nid, idx in table.items():
            nd = nodes[nid]
            if len(idx) < 2 or nd.kind in _POINTS or nd.kind in ("branch", "label"):
                continue
            idx.sort(key=lambda i: towards(i, leaving))
            span = min(nd.w * (0.4 if nd.kind == "decision" else 0.6), 14.0 * (len(idx) - 1))
            for j, i in enumerate(idx):
                shift[(i, leaving)] = -span / 2 + span * j / (len(idx) - 1)
    for i, (e, mids) in enumerate(laid.paths):
        a, b = nodes[e.src], nodes[e.dst]
        sx, sy = _port(a, True)
        ex, ey = _port(b, False)
        pts = [(sx + shift.get((i, True), 0.0), sy)] + mids + [(ex + shift.get((i, False), 0.0), ey)]
        pts = [(px + ox, py + oy) for px, py in pts]
        arrow = b.kind not in ("again", "exit", "label")
        if arrow:
            tip = pts[-1]
            pts[-1] = (tip[0], tip[1] - 4)
        svg.line("edge", _curve(pts))
        if arrow:
            svg.arrowhead(tip, (tip[0], tip[1] - 10))
    for nd in nodes:
        _draw_node(svg, nd, ox, oy)
