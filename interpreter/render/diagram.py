"""Rulebook picture: how play flows, drawn from the rule graph as a standalone SVG.

`turn_svg(ruleset)` draws every phase as a titled frame, in the order of play (from the first
phase along `then`): side by side while they fit the page, else one below another, joined by
arrows. A phase that leads back to an earlier one has an arrow up the left-hand side ("then
phase 1"); after a last phase, a bull's-eye says the game ends. Inside a frame, the phase's
statements are cut down to their skeleton and laid out top to bottom as a layered graph
(grandalf's Sugiyama layout):

* a rule is a box with its number and title, numbered as the rulebook numbers it;
* a decision (`choose by ...`, `choose by each ...`, `choose secretly ...`) is an orange hexagon
  saying who decides and among how many actions; when its actions lead to different places,
  the arrows carry the actions' names (actions drawn alike share one arrow);
* a loop (`while`, `repeat`, `for each ...`) is a blue frame headed by what it repeats over
  ("While the leader's holding is not empty"; a loop that only holds another loop shares its
  frame), its body laid out inside; a blue line runs from the end of the body back up to the
  head, and a `break` leaves through the frame's bottom;
* an `if` is a small diamond, its branches the arrows leaving it; when just one thing happens
  only under a condition (a rule with `when`, or the single statement of an `if`), that box is
  dashed instead, and where it could end the game the way on is labelled "otherwise";
* a performed procedure is one box where it is performed (the flowchart's "predefined
  process", with double sides); a procedure that holds rules, decisions or the end of the
  game gets a dashed green frame of its own, placed wherever it first fits;
* `end game` is a dark pill and `declare winner` a light one; a legend names the shapes used.

Statements that only move cards or set values (`move`, `deal`, `let`, `set`, ...), procedures
with nothing of the above, and loops and `if`s with nothing of the above inside are left out.
Every word comes from the graph's titles and names and from `English`, as in the rulebook.

The drawing is measured in points and is at most 16 cm wide (the text column of an A4 page):
labels wrap onto several lines, and a phase too wide for the page gets narrower lines or has
the branches of a wide decision in rows, one below another; only a picture that is still too
wide is scaled down, and never so far that its smallest text falls below 8 pt. The same ruleset
always gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from grandalf.graphs import Edge, Graph, Vertex
from grandalf.layouts import SugiyamaLayout, VertexViewer
from grandalf.utils.poset import Poset

from .. import graph as g
from ..unparse import unparse
from .book import BookBuilder, _RuleFinder
from .words import _ANY_MARK, _LINK_RE, English, _cap, human

# ------------------------------------------------------------------ sizes (points)

PAGE_WIDTH = 453.5          # 16 cm: the text column of an A4 page
MIN_TEXT = 8.0              # no text smaller than this at print size
TEXT = 9.0                  # node labels
SMALL = 8.5                 # arrow labels, the legend
TITLE = 10.0                # frame titles
LEADING = 1.2               # line height, in font sizes
MARGIN = 4.0
SECTION_PAD = 8.0           # inside a phase's or procedure's frame
SECTION_GAP = 24.0          # between two frames stacked
GUTTER = 18.0               # left of the phases, for an arrow back to an earlier phase
LOOP_SIDE = 8.0             # inside a loop frame, left and right (one side carries the return line)
LOOP_BOTTOM = 7.0           # inside a loop frame, below the body (the return line runs here)
XSPACE = 12.0               # between neighbours in a layer
YSPACE = 10.0               # between layers

INK = "#333333"
MUTED = "#555555"
BLUE = "#2f5d8a"
STYLE = {  # fill, stroke
    "rule": ("#ffffff", INK),
    "decision": ("#fbe3b4", "#8a5a00"),
    "frame": ("#f3f7fc", BLUE),
    "perform": ("#e5f0dd", "#4a7a3a"),
    "branch": ("#ffffff", MUTED),
    "end": (INK, INK),
    "winner": ("#fff3c4", INK),
    "empty": ("#ffffff", "#999999"),
}

# DejaVu Sans advance widths (1/1000 em) for ' ' .. '~': the widest common sans-serif, so a label
# measured with them fits whatever sans-serif face the browser or printer picks.
_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 631, 575, 775,
    752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390,
    337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 279, 579, 278, 974, 634, 611,
    635, 635, 412, 521, 392, 634, 592, 818, 592, 592, 525, 637, 337, 636, 838)
_OTHER_WIDTHS = {"\u00a0": 318, "\u2026": 1000, "\u2014": 1000, "\u2013": 500, "\u2018": 318,
                 "\u2019": 318, "\u201c": 521, "\u201d": 521}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of a line of text in points: a generous estimate for any sans-serif face."""
    units = 0
    for ch in text:
        o = ord(ch)
        units += _WIDTHS[o - 32] if 32 <= o < 127 else _OTHER_WIDTHS.get(ch, 700)
    return units * size / 1000 * (1.1 if bold else 1.0)


def wrap(text: str, size: float, width: float, max_lines: int = 0, bold: bool = False) -> list[str]:
    """Words (split at plain spaces only) into lines at most `width` wide, a longer word on a
    line of its own; with max_lines, what does not fit is cut off with an ellipsis."""
    lines: list[str] = []
    for word in (w for w in text.split(" ") if w):
        if lines and text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if max_lines and len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and text_width(last + "\u2026", size, bold) > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        lines = lines[:max_lines - 1] + [last.rstrip(",;: ") + "\u2026"]
    return lines or [""]


def _plain(text: str) -> str:
    """The rulebook's marked-up words as plain text."""
    return _ANY_MARK.sub("", _LINK_RE.sub(r"\2", text))


def _n(x: float) -> str:
    """A coordinate, written the same way every time."""
    s = f"{x:.1f}"
    return "0" if s in ("0.0", "-0.0") else s.removesuffix(".0")


# ------------------------------------------------------------------ the skeleton of a block

# point-like nodes: where a phase or procedure ends (sink), where a loop's body ends and goes
# round again (again), where a break leaves the loop (exit)
_POINTS = ("sink", "again", "exit")


@dataclass
class _Node:
    id: int
    kind: str          # rule, decision, frame, perform, branch, end, winner, empty, label, or a point
    text: str = ""
    dashed: bool = False
    inner: "_Flow | None" = None   # a loop frame's body
    lines: list[str] = field(default_factory=list)
    w: float = 0.0
    h: float = 0.0
    x: float = 0.0                 # centre, once laid out
    y: float = 0.0
    laid: "_Laid | None" = None    # a frame's body, laid out
    head: float = 0.0              # a frame's header height


@dataclass
class _Edge:
    src: int
    dst: int
    label: str = ""


class _Flow:
    """One block's skeleton as nodes and edges; its first node is where it starts."""

    def __init__(self):
        self.nodes: list[_Node] = []
        self.edges: list[_Edge] = []

    def add(self, kind: str, text: str = "", dashed: bool = False) -> int:
        self.nodes.append(_Node(len(self.nodes), kind, text, dashed))
        return len(self.nodes) - 1

    def connect(self, pending: list[tuple[int, str]], dst: int) -> None:
        """Edges from the loose ends to dst; several from one node become one, their labels joined."""
        by_src: dict[int, list[str]] = {}
        for src, label in pending:
            labels = by_src.setdefault(src, [])
            if label and label not in labels:
                labels.append(label)
        for src, labels in by_src.items():
            if src != dst:
                self.edges.append(_Edge(src, dst, ", ".join(labels)))


class _Builder:
    """Walks phases and procedures, keeping what the picture shows (see the module docstring)."""

    def __init__(self, rs: g.Ruleset):
        self.rs = rs
        self.en = English(rs)
        self.procs = {p.name: p for p in rs.procedures}
        self.numbers: dict[str, dict[str, int]] = {}      # phase -> rule name -> number in the book
        self.first: dict[str, int] = {}                   # rule name -> its number where first met
        book = BookBuilder(rs)
        for ph in rs.phases:
            finder = _RuleFinder(book, English(rs))       # the book's own numbering
            finder.walk(ph.body)
            nums = {f.rule.name: i for i, f in enumerate(finder.found, 1)}
            self.numbers[ph.name] = nums
            for name, i in nums.items():
                self.first.setdefault(name, i)
        self.drawn = self._drawn()
        self.flow = _Flow()
        self.loops: list[list[tuple[int, str]]] = []
        self.current: dict[str, int] = {}
        self.dash_next = False  # the next node is drawn dashed: it happens only when a condition holds

    def _drawn(self) -> set[str]:
        """The procedures with something to show (rules, decisions, the end, or a drawn procedure)."""
        def has(stmts, known) -> bool:
            for s in stmts:
                if isinstance(s, (g.Rule, g.Choose, g.EndGame, g.DeclareWinner)):
                    return True
                if isinstance(s, g.Perform) and s.name in known:
                    return True
                if any(has(b, known) for b in g.child_blocks(s)):
                    return True
            return False
        known: set[str] = set()
        while True:
            more = {p.name for p in self.rs.procedures if p.name not in known and has(p.body, known)}
            if not more:
                return known
            known |= more

    def _sig(self, stmts) -> tuple:
        """What the picture shows of a block, as a value (equal for blocks drawn alike)."""
        out: list = []
        for s in stmts:
            if isinstance(s, g.Rule):
                out.append(("rule", s.name, s.when is not None, self._sig(s.body)))
            elif isinstance(s, g.Perform):
                if s.name in self.drawn:
                    out.append(("perform", s.name))
            elif isinstance(s, (g.EndGame, g.Break)):
                out.append((type(s).__name__,))
            elif isinstance(s, g.DeclareWinner):
                out.append(("winner", unparse(s.who)))
            elif isinstance(s, g.Choose):
                out.append(("choose", unparse(s.by), s.each, s.secret, len(s.actions),
                            tuple(self._sig(a.body) for a in s.actions)))
            else:
                inner = tuple(self._sig(b) for b in g.child_blocks(s))
                if any(inner):
                    out.append((type(s).__name__, inner, unparse(s.test) if isinstance(s, g.While) else ""))
        return tuple(out)

    def _shows(self, stmts) -> bool:
        return bool(self._sig(stmts))

    # ---- sections
    def phase(self, ph: g.Phase) -> _Flow:
        self.current = self.numbers.get(ph.name, {})
        return self._section(ph.body, {})

    def procedure(self, proc: g.Procedure) -> _Flow:
        self.current = {}
        return self._section(proc.body, {p.name: p.type for p in proc.params})

    def _section(self, body, scope) -> _Flow:
        self.flow, self.loops = _Flow(), []
        self.en.scope = dict(scope)
        pending = self.block(body, [])
        if not self.flow.nodes:
            self.flow.add("empty", "Nothing to decide")
        elif pending:
            self.flow.connect(pending, self.flow.add("sink"))
        return self.flow

    # ---- statements
    def block(self, stmts, pending: list[tuple[int, str]]) -> list[tuple[int, str]]:
        saved = dict(self.en.scope)
        try:
            for s in stmts:
                pending = self.stmt(s, pending)
        finally:
            self.en.scope = saved
        return pending

    def node(self, pending, kind: str, text: str = "", dashed: bool = False) -> int:
        n = self.flow.add(kind, text, dashed or self.dash_next)
        self.dash_next = False
        self.flow.connect(pending, n)
        return n

    def stmt(self, s, pending):
        en = self.en
        if isinstance(s, g.Let):
            k = en.kind(s.value)
            en.bind(s.name, "cards" if k in ("zone", "zonekind") else k)
            return pending
        if isinstance(s, g.Rule):
            title = s.title or _cap(human(s.name))
            number = self.current.get(s.name) or self.first.get(s.name)
            n = self.node(pending, "rule", f"{number}. {title}" if number else title, dashed=s.when is not None)
            after = self.block(s.body, [(n, "")])
            if not after and s.when is not None:  # it ends the game, when it applies; else play goes on
                after = [(n, "otherwise")]
            return after
        if isinstance(s, g.Choose):
            return self.choose(s, pending)
        if isinstance(s, g.Perform):
            if s.name not in self.drawn:
                return pending
            return [(self.node(pending, "perform", f"Perform {human(s.name)}"), "")]
        if isinstance(s, g.EndGame):
            self.node(pending, "end", "The game ends")
            return []
        if isinstance(s, g.DeclareWinner):
            return [(self.node(pending, "winner", self.winner(s)), "")]
        if isinstance(s, g.Break):
            if self.loops:
                self.loops[-1].extend(pending)
            return []
        if isinstance(s, g.If):
            return self.branches(s, pending)
        if isinstance(s, (g.While, g.Repeat, g.ForPlayers, g.ForEach)):
            return self.loop(s, pending)
        return pending

    def words(self, text: str) -> str:
        return _plain(text)

    def winner(self, s: g.DeclareWinner) -> str:
        if isinstance(s.who, g.NoneLit):
            return "Nobody wins"
        who = self.words(self.en(s.who))
        return f"Winners: {who}" if self.en.kind(s.who) == "players" else f"Winner: {who}"

    def choose(self, s: g.Choose, pending):
        en = self.en
        if s.each is not None:
            group = "" if isinstance(s.by, g.Name) and s.by.name == "players" else f" of {self.words(en(s.by))}"
            who = f"Every player {s.each}{group}"
            verb = "chooses in secret" if s.secret else "chooses"
        else:
            local = isinstance(s.by, g.Name) and en.classify(s.by.name) == "local"
            who = f"Player {s.by.name}" if local else _cap(self.words(en(s.by)))
            verb = "chooses"
        count = len(s.actions)
        n = self.node(pending, "decision", f"{who}\n{verb} ({count}\u00a0action{'s' if count != 1 else ''})")
        groups: dict[tuple, list[g.Action]] = {}
        for a in s.actions:  # actions drawn alike are one arrow, labelled with all their names
            groups.setdefault(self._sig(a.body), []).append(a)
        out: list[tuple[int, str]] = []
        with en.bound(**({s.each: "player"} if s.each else {})):
            for acts in groups.values():
                a = acts[0]
                label = ", ".join(dict.fromkeys(human(x.name) for x in acts))
                with en.bound():
                    if a.var is not None and a.domain is not None:
                        en.bind(a.var, en.elem(a.domain))
                        for m in a.more:
                            en.bind(m.var, en.elem(m.domain))
                    out.extend(self.block(a.body, [(n, label)]))
        return out

    def branches(self, s: g.If, pending):
        if not self._shows([s]):
            return pending
        parts = [br.body for br in s.branches] + [s.else_]
        shown = [p for p in parts if self._shows(p)]
        single = [x for x in shown[0] if self._shows([x])] if len(shown) == 1 else []
        if len(single) == 1 and isinstance(single[0], (g.Rule, g.Choose, g.Perform, g.While, g.Repeat,
                                                       g.ForPlayers, g.ForEach)):
            # one thing that happens only when a condition holds: drawn dashed, without a diamond
            first = len(self.flow.nodes)
            self.dash_next = True
            out = self.block(shown[0], pending)
            self.dash_next = False
            return out or [(first, "otherwise")]
        n = self.node(pending, "branch")
        out: list[tuple[int, str]] = []
        for br in s.branches:
            out.extend(self.block(br.body, [(n, "")]))
        out.extend(self.block(s.else_, [(n, "")]))
        return out

    def loop_head(self, s) -> tuple[str, dict[str, str | None]]:
        """What a loop repeats over, in words, and the names it binds."""
        en = self.en
        if isinstance(s, g.While):
            return f"While {self.words(en.cond(s.test))}", {}
        if isinstance(s, g.Repeat):
            return "Repeat until told to stop", {}
        if isinstance(s, g.ForPlayers):
            v = s.var
            if s.start == "after":
                text = f"Each other player {v}, after {self.words(en(s.at))}"
            elif s.start == "from":
                text = f"Each player {v}, from {self.words(en(s.at))}"
            else:
                text = f"Each player {v} in turn"
            return text, {v: "player"}
        return f"For {self.words(en.binder(s.var, s.domain, 'each'))}", {s.var: en.elem(s.domain)}

    @staticmethod
    def _breaks(stmts) -> bool:
        """Whether a block leaves its loop (a break not inside an inner loop)."""
        for s in stmts:
            if isinstance(s, g.Break):
                return True
            if not isinstance(s, (g.While, g.Repeat, g.ForPlayers, g.ForEach)) and \
                    any(_Builder._breaks(b) for b in g.child_blocks(s)):
                return True
        return False

    def loop(self, s, pending):
        en = self.en
        if not self._shows(s.body):
            return pending
        outer, dashed = self.flow, self.dash_next  # the frame, not the first box inside, is dashed
        self.dash_next = False
        saved = dict(en.scope)
        try:
            # a loop whose body is just another loop is one frame: "Each player p, for each n ..."
            lines, cur = [], s
            while True:
                text, bound = self.loop_head(cur)
                lines.append(text if not lines else text[0].lower() + text[1:])
                en.scope.update(bound)
                shown = [x for x in cur.body if self._shows([x])]
                inner = shown[0] if len(shown) == 1 else None
                if isinstance(cur, g.Repeat) or not isinstance(inner, (g.While, g.ForPlayers, g.ForEach)) \
                        or self._breaks(inner.body):
                    break
                for x in cur.body[:cur.body.index(inner)]:
                    self.stmt(x, [])  # the names bound on the way in
                cur = inner
            self.flow = body = _Flow()
            self.loops.append([])
            end = self.block(cur.body, [])
            breaks = self.loops.pop()
        finally:
            en.scope = saved
            self.flow = outer
        if end:
            body.connect(end, body.add("again"))
        if breaks:
            body.connect(breaks, body.add("exit"))
        if not body.nodes:
            body.add("empty", "Nothing to decide")
        n = self.node(pending, "frame", ", ".join(lines), dashed=dashed)
        self.flow.nodes[n].inner = body
        return [(n, "")] if breaks or not isinstance(s, g.Repeat) else []


# ------------------------------------------------------------------ sizing and layout


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


# ------------------------------------------------------------------ drawing


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


# ------------------------------------------------------------------ the whole picture


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
