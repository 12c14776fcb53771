"""Sizing and layout: a block's nodes sized, its words wrapped, and laid out top to bottom with
grandalf's Sugiyama layout; narrower and narrower layouts tried until one fits the page."""

from __future__ import annotations

from dataclasses import dataclass

from grandalf.graphs import Edge, Graph, Vertex
from grandalf.layouts import SugiyamaLayout, VertexViewer
from grandalf.utils.poset import Poset

from .flow import _POINTS, _Edge, _Flow, _Node
from .measure import LEADING, LOOP_BOTTOM, LOOP_SIDE, SMALL, TEXT, XSPACE, YSPACE, text_width, wrap


@dataclass
class _Laid:
    """A block after layout: its nodes placed (label nodes added), the edges' paths, its size."""

    nodes: list[_Node]
    paths: list[tuple[_Edge, list[tuple[float, float]]]]
    width: float
    height: float


def _size(nd: _Node, width: float, per_row: int = 0) -> None:
    """A node's lines and box, its words wrapped to `width` (a frame's body is laid out here)."""
    k = nd.kind
    if k in _POINTS:
        nd.w = nd.h = {"again": 6.0, "sink": 8.0}.get(k, 2.0)
        return
    if k == "branch":
        nd.w = nd.h = 15.0
        return
    if k == "label":
        nd.lines = wrap(nd.text, SMALL, min(width, 110.0), max_lines=2)
        nd.w = max(text_width(x, SMALL) for x in nd.lines) + 4
        nd.h = len(nd.lines) * SMALL * LEADING + 3
        return
    if k == "frame":
        nd.laid = _layout(nd.inner, width, per_row)
        nd.lines = wrap(nd.text, TEXT, max(width, nd.laid.width), max_lines=3)
        nd.head = len(nd.lines) * TEXT * LEADING + 7
        nd.w = max(max(text_width(x, TEXT) for x in nd.lines) + 12, nd.laid.width + 2 * LOOP_SIDE)
        nd.h = nd.head + 6 + nd.laid.height + LOOP_BOTTOM
        return
    if k == "decision":  # who decides, shortened if need be, and always how many actions
        who, what = nd.text.split("\n")
        nd.lines = wrap(f"{who} {what}", TEXT, width)
        if len(nd.lines) > 3:
            tail = wrap(what, TEXT, width)
            nd.lines = wrap(who, TEXT, width, max_lines=max(3, 4 - len(tail))) + tail
    else:
        nd.lines = wrap(nd.text, TEXT, width, max_lines=3 if k == "winner" else 0)
    pad = {"decision": 13.0, "perform": 11.0, "end": 9.0, "winner": 9.0}.get(k, 7.0)
    nd.w = max(text_width(x, TEXT) for x in nd.lines) + 2 * pad
    nd.h = len(nd.lines) * TEXT * LEADING + 7


def _layout(flow: _Flow, width: float, per_row: int = 0) -> _Laid:
    """Lay a block out top to bottom: grandalf's Sugiyama layout of each connected part (one,
    unless something follows the end of the game), side by side. Labels wrap at `width`; with
    per_row, a node with more branches than that has them in rows, one below another."""
    nodes = [_Node(nd.id, nd.kind, nd.text, nd.dashed, nd.inner) for nd in flow.nodes]
    edges: list[_Edge] = []
    outs: dict[int, int] = {}
    for e in flow.edges:
        outs[e.src] = outs.get(e.src, 0) + 1
    for e in flow.edges:  # a labelled arrow gets its label as a node of its own: nothing overlaps it
        if e.label and outs[e.src] > 1:
            lab = _Node(len(nodes), "label", e.label)
            nodes.append(lab)
            edges += [_Edge(e.src, lab.id), _Edge(lab.id, e.dst)]
        else:
            edges.append(_Edge(e.src, e.dst))
    for nd in nodes:
        _size(nd, width, per_row)
    vs = [Vertex(nd.id) for nd in nodes]
    for v, nd in zip(vs, nodes):
        v.view = VertexViewer(w=nd.w, h=nd.h)
        v.view.kind = nd.kind
    es = [Edge(vs[e.src], vs[e.dst]) for e in edges]
    # edges only for the ranking, never drawn: they put branches in rows
    hidden = [Edge(vs[a], vs[b], data="hidden") for a, b in _rows_of_branches(nodes, edges, per_row)]
    # the points where a block ends go below everything: below every node that leads nowhere
    # else (the end of the game, the end of a loop's body, a break)
    ends = [nd.id for nd in nodes if nd.kind in _POINTS]
    succ: dict[int, set[int]] = {nd.id: set() for nd in nodes}
    for e in edges:
        succ[e.src].add(e.dst)
    hidden += [Edge(vs[nd.id], vs[p], data="hidden") for nd in nodes if nd.kind not in _POINTS
               and succ[nd.id] <= set(ends) for p in ends if p not in succ[nd.id]]
    graph = Graph(vs, es + hidden)
    for comp in graph.C:  # grandalf gathers a part's edges in a set: put them back in our order
        members = set(comp.sE)
        comp.sE = Poset([e for e in es + hidden if e in members])
    pos: dict[object, tuple[float, float]] = {}
    bends: dict[object, list] = {}
    left = height = 0.0
    for comp in graph.C:
        xs, ys, comp_bends, h = _sugiyama(comp)
        lo = min(xs[v] - v.view.w / 2 for v in xs)
        for v in xs:
            pos[v] = (xs[v] - lo + left, ys[v])
        for e, pts in comp_bends.items():
            bends[e] = [(bx - lo + left, by) for bx, by in pts]
        left = max(pos[v][0] + v.view.w / 2 for v in xs) + XSPACE
        height = max(height, h)
    for v, nd in zip(vs, nodes):
        nd.x, nd.y = pos[v]
    paths = [(e, bends.get(ge, [])) for e, ge in zip(edges, es)]
    return _Laid(nodes, paths, left - XSPACE, height)


def _rows_of_branches(nodes: list[_Node], edges: list[_Edge], per_row: int) -> list[tuple[int, int]]:
    """For a node with more than per_row branches that hold something of their own: edges from
    the last nodes of branch i (those only it reaches) to the first node of branch i + per_row,
    so that such branches go in rows, one below another."""
    if not per_row:
        return []
    succ: dict[int, list[int]] = {nd.id: [] for nd in nodes}
    for e in edges:
        succ[e.src].append(e.dst)

    def reach(start: int) -> set[int]:
        seen, todo = {start}, [start]
        while todo:
            for m in succ[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen
    extra: list[tuple[int, int]] = []
    for nd in nodes:
        targets = list(dict.fromkeys(succ[nd.id]))
        if len(targets) <= per_row:
            continue
        reached = [reach(t) for t in targets]
        own = [r.difference(*(o for k, o in enumerate(reached) if k != j)) for j, r in enumerate(reached)]
        big = [j for j, t in enumerate(targets) if t in own[j] and any(nodes[m].kind != "label" for m in own[j])]
        for a, b in zip(big, big[per_row:]):
            if targets[b] in reached[a]:
                continue
            ends = [m for m in sorted(own[a]) if not any(x in own[a] for x in succ[m])]
            extra += [(m, targets[b]) for m in ends]
    return extra


_GAPS = {"again": 5.0, "exit": 5.0, "sink": 6.0, "label": 8.0, "branch": 7.0}


def _sugiyama(comp):
    """One connected graph laid out: the centres of its vertices and of the dummy vertices long
    edges pass through, and its height. Layers are spaced by what they hold (a point needs less
    room than a box), and no two neighbours in a layer overlap."""
    sug = SugiyamaLayout(comp)
    sug.xspace, sug.yspace = XSPACE, YSPACE
    sug.dw, sug.dh = 4.0, 4.0
    roots = [v for v in comp.sV if not v.e_in()]
    sug.init_all(roots=roots, inverted_edges=[])
    sug.draw(3)
    if _untangle(sug, comp):
        sug.setxy()
    xs: dict[object, float] = {v: v.view.xy[0] for layer in sug.layers for v in layer}
    for layer in sug.layers:
        for v in layer:  # a point where a block ends: under the arrows that reach it, not the hidden ones
            if getattr(v.view, "kind", "") in _POINTS:
                rank = sug.grx[v].rank
                above = sorted(xs[sug.ctrls[e][rank - 1]] if e in sug.ctrls else xs[e.v[0]]
                               for e in v.e_in() if e.data != "hidden")
                if above:
                    xs[v] = (above[(len(above) - 1) // 2] + above[len(above) // 2]) / 2
        row = sorted(layer, key=lambda v: sug.grx[v].pos)  # in the order chosen, whatever x says
        for a, b in zip(row, row[1:]):
            dummy = sug.grx[a].dummy or sug.grx[b].dummy
            need = xs[a] + (a.view.w + b.view.w) / 2 + (10.0 if dummy else XSPACE)
            if xs[b] < need:
                xs[b] = need

    def kinds(layer) -> list[str]:
        return [v.view.kind for v in layer if not sug.grx[v].dummy]

    def gap(layer) -> float:
        return max([_GAPS.get(k, YSPACE) for k in kinds(layer)] or [6.0])
    ys: dict[object, float] = {}
    half: dict[int, float] = {}
    y = 0.0
    for i, layer in enumerate(sug.layers):
        if i and "label" in kinds(layer):  # room for the arrows fanning out to the labels
            y += 8.0
        elif i:
            y += min(gap(layer), gap(sug.layers[i - 1]))
        hh = max(v.view.h for v in layer)
        half[i] = hh / 2
        for v in layer:  # the top of every box at the top of its layer
            ys[v] = y + (hh / 2 if sug.grx[v].dummy else v.view.h / 2)
        y += hh
    bends = {}  # a long edge runs straight down through each layer it crosses, and bends between
    for e, ctrl in sug.ctrls.items():
        ra, rb = sug.grx[e.v[0]].rank, sug.grx[e.v[1]].rank
        bends[e] = [(xs[ctrl[r]], ys[ctrl[r]] + dy) for r in range(ra + 1, rb) for dy in (-half[r], half[r])]
    return xs, ys, bends, y


# layouts tried for a block too wide for the page, best first: (label width, branches per row)
ATTEMPTS = [(w, 0) for w in (150.0, 124.0, 104.0, 88.0)] + [(w, r) for r in (3, 2) for w in (124.0, 104.0, 88.0)] \
    + [(w, r) for w in (74.0, 62.0) for r in (0, 3, 2)]


def _untangle(sug, comp) -> bool:
    """Swap neighbours in a layer while that strictly lowers the crossings with the layers above
    and below (grandalf's own pass leaves some): whether anything moved."""
    segs: list[tuple[object, object]] = []
    for e in comp.sE:
        a, b = e.v
        if e.data == "hidden":  # never drawn: its crossings do not matter
            continue
        if e in sug.ctrls:
            ctrl = sug.ctrls[e]
            chain = [ctrl[r] for r in sorted(ctrl)]
        else:
            chain = [a, b]
        segs += list(zip(chain, chain[1:]))
    down: dict[object, list] = {}
    up: dict[object, list] = {}
    for a, b in segs:
        down.setdefault(a, []).append(b)
        up.setdefault(b, []).append(a)
    grx = sug.grx

    def crossings(u, v) -> int:
        """Crossings between the edges of u and of v (u left of v), up and down."""
        n = 0
        for table in (up, down):
            for x in table.get(u, ()):
                for y in table.get(v, ()):
                    if grx[x].pos > grx[y].pos:
                        n += 1
        return n
    moved = False
    for _ in range(8):
        changed = False
        for layer in sug.layers:
            for i in range(len(layer) - 1):
                u, v = layer[i], layer[i + 1]
                if crossings(v, u) < crossings(u, v):
                    layer[i], layer[i + 1] = v, u
                    grx[u].pos, grx[v].pos = i + 1, i
                    changed = moved = True
        if not changed:
            break
    return moved


def _layouts_fitting(flow: _Flow, room: float) -> list[_Laid]:
    """The layouts that fit `room` points, best first (or the last one tried, if none does)."""
    out, laid = [], None
    for width, per_row in ATTEMPTS:
        laid = _layout(flow, width, per_row)
        if laid.width <= room:
            out.append(laid)
    return out or [laid]
