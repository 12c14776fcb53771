"""The skeleton of a block: the rule graph's phases and procedures cut down to what the
picture shows, as nodes and edges (see the package docstring)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...language import graph as g
from ...language.unparse import unparse
from ..builder import BookBuilder, RuleFinder
from ..markup import _cap, human
from ..words import English
from .measure import _plain


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
    laid: object = None            # a frame's body, laid out (layout.py: _Laid)
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
            finder = RuleFinder(book, English(rs))       # the book's own numbering
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
                out.append(("winner", unparse(s.who), s.loser))
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
        if s.loser:
            return f"Loser: {who} (the others win)"
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
                    for var, domain, subset in a.params():
                        en.bind(var, "cards" if subset else en.elem(domain))
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
