"""Equilibria of small games (`cardrules solve FILE --equilibrium`): CFR+ over the whole tree of
a ruleset, each draw of its deal a chance node (adapters/chance.py), each seat's information
sets told apart by what it has seen (the adapters' information strings).

The tree is walked once into flat lists (which node is whose, its information set, its
children, a chance node's odds, an end's payoffs). CFR+ then runs on those lists, so the
engine is not asked again: in C where there is a compiler (CFRPlusNative: native/cfr.py,
native/runtime/cfr.c, over the tree with its equal subtrees merged), else in Python (CFRPlus,
CFRPlusArrays on NumPy for large trees), the same iterations. Each seat's payoff is its score less the table's mean (the
adapters' returns='points': a poker game pays its chips), or the win share with `--returns
win`. The answer is the average strategy: every seat's value under it, how much a best reply
to it gains (exploitability: for two seats, the mean of the two gains, as OpenSpiel counts
it; NashConv, their sum, for more), and the strategy itself, information set by set.

Only a tree that fits in memory can be walked: `MAX_NODES` is a guard, and a larger game is
refused with an error that gives the count reached. The positions waiting to be walked count
toward it before a chance node's outcomes are drawn, so a shuffled pack is refused in seconds
(Black Maria: 4.5 s and under 1 GB, where making the two million positions first took minutes
and 10 GB)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

from ..errors import OptionError

MAX_NODES = 2_000_000


class TreeTooLarge(OptionError):
    """The game's tree has more positions than the walk may take (callers report the limit)."""
ARRAYS_FROM = 5_000  # positions from which CFR+ runs on arrays (CFRPlusArrays) when there is no C compiler
# positions from which CFR+ runs in C (CFRPlusNative) when there is one: C costs about 50 ms once
# a process (the compiler's version asked, the library loaded from the cache), CFRPlus about 4 µs a
# position an iteration, so from some 50 positions C is sooner at a few hundred iterations
NATIVE_FROM = 50
CHANCE, DECISION, END = 0, 1, 2


@dataclass
class Tree:
    """The game as flat lists: per node its kind, player (decision), information set (index),
    children (node indexes, in action order), actions (ids), odds (chance) and payoffs (end)."""

    kind: list
    player: list
    infoset: list
    children: list
    actions: list
    odds: list
    payoff: list
    infosets: list      # (player, the information string) of each information set
    labels: list        # each information set's action labels, in order
    players: int


def build_tree(spec, limit: int = MAX_NODES, in_place: bool = True) -> Tree:
    """Walk every history of the game (explicit chance) into a Tree, breadth first. Each position's
    last move is played on the position itself rather than on a copy (`in_place`: the same tree,
    a copy fewer a position). Python's cyclic garbage collector is paused meanwhile: the walk makes
    hundreds of thousands of objects and keeps many of them, which the collector would go through
    again and again (two thirds of the time)."""
    import gc
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build_tree(spec, limit, in_place)
    finally:
        if paused:
            gc.enable()


def _build_tree(spec, limit: int, in_place: bool) -> Tree:
    from ..adapters.chance import decide, decide_in_place, draw, rebuilt, root
    t = Tree([], [], [], [], [], [], [], [], [], spec.players)
    index: dict = {}
    first = root(spec)
    # breadth first: each level of the tree, and each node's children, numbered in a row
    # (node, parent index, slot in the parent's children); a chance node's outcome waits as
    # (None, ..., (its core, its pending draw, the outcome)) and is drawn when its turn comes, so
    # that a deal too large to walk is found out from the queue's length, not after millions of
    # positions made and held (a pack of 52 cards: seconds and some hundreds of MB, not 10 GB)
    queue = deque([(first, -1, -1, None)])
    while queue:
        node, parent, slot, lazy = queue.popleft()
        k = len(t.kind)
        if k + 1 + len(queue) > limit:  # each position waiting becomes one of the tree's
            raise TreeTooLarge(f"{spec.title} has more than {limit:,} positions (chance included): too large a "
                               "tree to solve whole")
        core, pending = node if lazy is None else draw(*lazy)
        if parent >= 0:
            t.children[parent][slot] = k
        if pending is not None:
            n = pending.need
            t.kind.append(CHANCE), t.player.append(-1), t.infoset.append(-1)
            t.children.append([0] * n), t.actions.append(list(range(n))), t.odds.append([1.0 / n] * n)
            t.payoff.append(None)
            for o in range(n):
                queue.append((None, k, o, (core, pending, o)))
        elif core.terminal():
            t.kind.append(END), t.player.append(-1), t.infoset.append(-1)
            t.children.append([]), t.actions.append([]), t.odds.append(None)
            t.payoff.append(tuple(float(x) for x in core.returns()))
        else:
            p = core.current()
            legal = core.legal()
            key = (p, core.info_text(p))
            i = index.get(key)
            if i is None:
                i = index[key] = len(t.infosets)
                t.infosets.append(key)
                t.labels.append([str(m) for m in legal.values()])
            ids = list(legal)
            t.kind.append(DECISION), t.player.append(p), t.infoset.append(i)
            t.children.append([0] * len(ids)), t.actions.append(ids), t.odds.append(None), t.payoff.append(None)
            last = len(ids) - 1
            held = False  # (a chance node after one of the moves holds the position)
            for j in range(last):
                got = decide(core, ids[j])
                held = held or got[0] is core
                queue.append((got, k, j, None))
            # the last move played on the position itself (no copy), unless a chance node after
            # another holds it, or a move once needed a draw (then the position is rebuilt, and
            # copied from then on)
            if in_place and not held:
                moved = decide_in_place(core, ids[last])
                if moved is not None:
                    queue.append(((moved, None), k, last, None))
                    continue
                in_place = False
                core = rebuilt(core)
            queue.append((decide(core, ids[last]), k, last, None))
    return t


class CFRPlus:
    """CFR+ as OpenSpiel's CFRPlusSolver runs it: each iteration one walk per seat in turn; a
    seat's regrets summed over its walk, then the negative ones set to 0 (regret matching+) and
    its strategy made from them for the walks after; the average weighted by the iteration
    (linear averaging)."""

    def __init__(self, tree: Tree):
        self.t = tree
        widths = [len(x) for x in tree.labels]
        self.regret = [[0.0] * w for w in widths]
        self.total = [[0.0] * w for w in widths]
        self.iterations = 0
        self.sigma = [[1.0 / w] * w for w in widths]
        self.of = [[i for i, (who, _) in enumerate(tree.infosets) if who == p] for p in range(tree.players)]

    def average(self, i: int) -> list:
        a = self.total[i]
        s = sum(a)
        return [x / s for x in a] if s > 0 else [1.0 / len(a)] * len(a)

    def run(self, iterations: int) -> None:
        t = self.t
        for _ in range(iterations):
            self.iterations += 1
            for p in range(t.players):
                self._walk(0, p, 1.0, 1.0)
                for i in self.of[p]:  # regret matching+, and the seat's strategy from now on
                    r = self.regret[i] = [x if x > 0 else 0.0 for x in self.regret[i]]
                    s = sum(r)
                    self.sigma[i] = [x / s for x in r] if s > 0 else [1.0 / len(r)] * len(r)

    def _walk(self, k: int, p: int, mine: float, others: float) -> float:
        """Node k's value to p, p's regrets and average updated (mine: p's own reach; others:
        chance's and the other seats')."""
        t = self.t
        kind = t.kind[k]
        if kind == END:
            return t.payoff[k][p]
        kids = t.children[k]
        if kind == CHANCE:
            return sum(o * self._walk(c, p, mine, others * o) for c, o in zip(kids, t.odds[k]))
        i = t.infoset[k]
        sigma = self.sigma[i]
        if t.player[k] != p:
            return sum(s * self._walk(c, p, mine, others * s) for c, s in zip(kids, sigma))
        values = [self._walk(c, p, mine * s, others) for c, s in zip(kids, sigma)]
        v = sum(s * x for s, x in zip(sigma, values))
        r, tot, w = self.regret[i], self.total[i], self.iterations * mine
        for j, x in enumerate(values):
            r[j] += others * (x - v)
            tot[j] += w * sigma[j]
        return v


def merged_tree(tree: Tree):
    """The tree's distinct subtrees (equal: the same kinds, information sets, odds and payoffs all
    the way down): each node's subtree's number, and per subtree a node of it and its children's
    subtrees. Numbered so that the root's is 0 and each comes before its children's."""
    kind, infoset, children, odds, payoff = tree.kind, tree.infoset, tree.children, tree.odds, tree.payoff
    n = len(kind)
    cls = [0] * n
    table: dict = {}
    rep: list = []
    for k in range(n - 1, -1, -1):  # (a node's children come after it)
        o = odds[k]
        key = (kind[k], infoset[k], tuple([cls[c] for c in children[k]]), tuple(o) if o is not None else None,
               payoff[k])
        u = table.get(key)
        if u is None:
            u = table[key] = len(rep)
            rep.append(k)
        cls[k] = u
    last = len(rep) - 1
    rep.reverse()
    return [last - u for u in cls], rep, [[last - cls[c] for c in children[k]] for k in rep]


class CFRPlusArrays:
    """The same CFR+ as CFRPlus, each walk a few array operations a layer (NumPy), over the tree
    with its equal subtrees merged (merged_tree: a node per distinct subtree, reached along every
    path into it): the reaches down, each node's summed over the edges into it, the values back
    up, the regrets and the average added up by information set. Equal to CFRPlus to rounding.
    Slower than CFRPlus on a tree of a few hundred positions, much faster on one of thousands."""

    def __init__(self, tree: Tree):
        import numpy as np
        self.np, self.t = np, tree
        width = max((len(x) for x in tree.labels), default=1)
        self.widths = np.array([len(x) for x in tree.labels], dtype=np.int64)
        self.regret = np.zeros((len(tree.labels), width))
        self.total = np.zeros_like(self.regret)
        self.sigma = np.zeros_like(self.regret)
        self.uniform = np.zeros_like(self.regret)
        for i, w in enumerate(self.widths):
            self.sigma[i, :w] = self.uniform[i, :w] = 1.0 / w
        self.iterations = 0
        self.of = [np.array([i for i, (who, _) in enumerate(tree.infosets) if who == q], dtype=np.int64)
                   for q in range(tree.players)]
        _, rep, kids = merged_tree(tree)
        u = len(rep)
        # each node's layer: the most edges on a path from the root (the nodes numbered parents first)
        layer = [0] * u
        for j in range(u):
            d = layer[j] + 1
            for c in kids[j]:
                if layer[c] < d:
                    layer[c] = d
        # renumbered by layer, so that each layer's nodes are in a row
        order = sorted(range(u), key=layer.__getitem__)
        place = [0] * u
        for new, old in enumerate(order):
            place[old] = new
        layer = np.array(layer, dtype=np.int64)[order]
        rep = [rep[j] for j in order]
        self.nodes = u
        kind = np.array([tree.kind[k] for k in rep], dtype=np.int64)
        player = np.array([tree.player[k] for k in rep], dtype=np.int64)
        infoset = np.array([tree.infoset[k] for k in rep], dtype=np.int64)
        parent, child, slot, odds = [], [], [], []
        for new, old in enumerate(order):
            o = tree.odds[rep[new]]
            for j, c in enumerate(kids[old]):
                parent.append(new), child.append(place[c]), slot.append(j), odds.append(o[j] if o is not None else 0.0)
        parent, child = np.array(parent, dtype=np.int64), np.array(child, dtype=np.int64)
        slot, self.odds = np.array(slot, dtype=np.int64), np.array(odds, dtype=np.float64)
        self.parent, self.child = parent, child
        self.dec = kind[parent] == DECISION
        self.cell = np.where(self.dec, infoset[parent] * width + slot, 0)
        self.edge_player = np.where(self.dec, player[parent], -1)
        payoff = np.zeros((u, tree.players))
        for j, k in enumerate(rep):
            if tree.kind[k] == END:
                payoff[j] = tree.payoff[k]
        self.ends_value = [np.where(kind == END, payoff[:, q], 0.0) for q in range(tree.players)]
        bounds = np.searchsorted(layer, np.arange(int(layer[-1]) + 2)) if u else np.zeros(1, dtype=np.int64)
        # down: the edges into each layer (children in a row); up: the edges out of it (parents in a row)
        by_child, by_parent = np.argsort(layer[child], kind="stable"), np.argsort(layer[parent], kind="stable")
        cl, pl = layer[child][by_child], layer[parent][by_parent]
        self.down, self.up = [], []
        for d in range(len(bounds) - 1):
            lo, hi = int(bounds[d]), int(bounds[d + 1])
            e = by_child[np.searchsorted(cl, d):np.searchsorted(cl, d, side="right")]
            if len(e):
                self.down.append((e, parent[e], child[e] - lo, lo, hi))
            e = by_parent[np.searchsorted(pl, d):np.searchsorted(pl, d, side="right")]
            if len(e):
                self.up.append((e, parent[e] - lo, child[e], lo, hi))
        self.moves_of = []
        for q in range(tree.players):
            e = np.flatnonzero(self.edge_player == q)
            self.moves_of.append((e, child[e], parent[e], self.cell[e]))

    def average(self, i: int) -> list:
        a = self.total[i, :self.widths[i]]
        s = a.sum()
        return list(a / s) if s > 0 else [1.0 / self.widths[i]] * int(self.widths[i])

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            self.iterations += 1
            for p in range(self.t.players):
                self._walk(p)

    def _walk(self, p: int) -> None:
        np = self.np
        u = self.nodes
        flat_sigma = self.sigma.ravel()
        prob = np.where(self.dec, flat_sigma[self.cell], self.odds)  # each edge's odds
        own = self.edge_player == p
        by_mine, by_others = np.where(own, prob, 1.0), np.where(own, 1.0, prob)
        mine, others = np.zeros(u), np.zeros(u)
        mine[0] = others[0] = 1.0
        for e, up, down, lo, hi in self.down:
            mine[lo:hi] += np.bincount(down, mine[up] * by_mine[e], minlength=hi - lo)
            others[lo:hi] += np.bincount(down, others[up] * by_others[e], minlength=hi - lo)
        value = self.ends_value[p].copy()
        for e, up, down, lo, hi in reversed(self.up):
            value[lo:hi] += np.bincount(up, prob[e] * value[down], minlength=hi - lo)
        # p's regrets: each move's value less its node's, weighted by the others' reach to the node
        e, kids, ups, cells = self.moves_of[p]
        if len(e):
            size = self.regret.size
            self.regret += np.bincount(cells, others[ups] * (value[kids] - value[ups]), minlength=size).reshape(
                self.regret.shape)
            self.total += np.bincount(cells, self.iterations * mine[ups] * flat_sigma[cells], minlength=size).reshape(
                self.total.shape)
        mine_sets = self.of[p]
        r = np.maximum(self.regret[mine_sets], 0.0)
        self.regret[mine_sets] = r
        sums = r.sum(axis=1, keepdims=True)
        self.sigma[mine_sets] = np.where(sums > 0, r / np.where(sums > 0, sums, 1.0), self.uniform[mine_sets])


class CFRPlusNative:
    """The same CFR+ as CFRPlus, the iterations in C (native/cfr.py: runtime/cfr.c), its additions
    in CFRPlus's order, so the two agree to the last bit. Run in chunks of about CHUNK_SECONDS, so
    that Ctrl-C (Python's handler, between two calls) stops a long run. NativeUnavailable when
    there is no C compiler."""

    CHUNK_SECONDS = 0.25

    def __init__(self, tree: Tree, merged: bool = True):
        from ..native.cfr import FlatTree
        self.t = tree
        self.flat = f = FlatTree(tree)
        self.regret, self.total, self.sigma = f.table(), f.table(), f.table()
        for i, w in enumerate(f.widths):
            self.sigma[i, :w] = 1.0 / w
        self.iterations = 0
        self.merged = merged
        self._average = None

    def run(self, iterations: int) -> None:
        left, chunk = iterations, 1
        while left > 0:
            n = min(chunk, left)
            t = time.perf_counter()
            self.flat.run(self.regret, self.total, self.sigma, self.iterations, n, self.merged)
            took = time.perf_counter() - t
            self.iterations += n
            left -= n
            self._average = None
            chunk = max(1, min(4 * n, int(n * self.CHUNK_SECONDS / took) if took > 0 else 4 * n))

    def table(self):
        """The average strategy: `width` cells per information set."""
        if self._average is None:
            self._average = self.flat.average(self.total)
        return self._average

    def average(self, i: int) -> list:
        return [float(x) for x in self.table()[i, :self.flat.widths[i]]]

    def values(self) -> list[float]:
        """Every seat's value under the average strategy (as values() works it out)."""
        return self.flat.values(self.table())

    def best_reply(self, p: int) -> float:
        """Seat p's best reply's value against the average strategy (as best_reply() works it out)."""
        return self.flat.best_reply(self.table(), p)


def values(tree: Tree, strategy) -> list[float]:
    """Every seat's expected payoff when all play `strategy(infoset) -> probabilities`."""
    def walk(k):
        kind = tree.kind[k]
        if kind == END:
            return tree.payoff[k]
        kids = tree.children[k]
        weights = tree.odds[k] if kind == CHANCE else strategy(tree.infoset[k])
        out = [0.0] * tree.players
        for c, w in zip(kids, weights):
            if w:
                for j, x in enumerate(walk(c)):
                    out[j] += w * x
        return out
    return walk(0)


def best_reply(tree: Tree, strategy, p: int) -> float:
    """What seat p gains at most against the others' `strategy` (its best reply's value)."""
    # the histories of each of p's information sets with the others' and chance's reach to them
    members: dict[int, list] = {}

    def gather(k, reach):
        kind = tree.kind[k]
        if kind == END:
            return
        kids = tree.children[k]
        if kind == CHANCE:
            for c, o in zip(kids, tree.odds[k]):
                gather(c, reach * o)
            return
        if tree.player[k] == p:
            members.setdefault(tree.infoset[k], []).append((k, reach))
            for c in kids:
                gather(c, reach)
            return
        for c, s in zip(kids, strategy(tree.infoset[k])):
            gather(c, reach * s)
    gather(0, 1.0)
    choice: dict[int, int] = {}
    memo: dict[int, float] = {}  # (a node's value is asked for again by each choice above it)

    def value(k):
        """k's value to p when p plays its best reply below k."""
        v = memo.get(k)
        if v is None:
            v = memo[k] = _value(k)
        return v

    def _value(k):
        kind = tree.kind[k]
        if kind == END:
            return tree.payoff[k][p]
        kids = tree.children[k]
        if kind == CHANCE:
            return sum(o * value(c) for c, o in zip(kids, tree.odds[k]))
        i = tree.infoset[k]
        if tree.player[k] == p:
            j = choice.get(i)
            if j is None:
                totals = [0.0] * len(kids)
                for h, reach in members[i]:
                    for a, c in enumerate(tree.children[h]):
                        totals[a] += reach * value(c)
                j = choice[i] = max(range(len(kids)), key=totals.__getitem__)
            return value(kids[j])
        return sum(s * value(c) for c, s in zip(kids, strategy(i)) if s)
    return value(0)


def cfr_solver(tree: Tree):
    """The CFR+ for the tree: in C (CFRPlusNative) from NATIVE_FROM positions when there is a C
    compiler, else on arrays (CFRPlusArrays) from ARRAYS_FROM positions, else CFRPlus."""
    n = len(tree.kind)
    if n >= NATIVE_FROM:
        from ..native.toolchain import NativeUnavailable, find_compiler
        if find_compiler() is not None:
            try:
                return CFRPlusNative(tree)
            except NativeUnavailable:
                pass
    return CFRPlus(tree) if n < ARRAYS_FROM else CFRPlusArrays(tree)


def judge(tree: Tree, cfr) -> tuple[list[float], float]:
    """Every seat's value under the average strategy of `cfr`, and the strategy's exploitability
    (for two seats the mean of the best replies' gains, else their sum, NashConv): in C for
    CFRPlusNative."""
    if isinstance(cfr, CFRPlusNative):
        v = cfr.values()
        replies = [cfr.best_reply(p) for p in range(tree.players)]
    else:
        v = values(tree, cfr.average)
        replies = [best_reply(tree, cfr.average, p) for p in range(tree.players)]
    gains = [r - v[p] for p, r in enumerate(replies)]
    return v, (sum(gains) / 2 if tree.players == 2 else sum(gains))


@dataclass(frozen=True)
class Equilibrium:
    values: tuple          # each seat's value under the average strategy
    exploitability: float  # two seats: the mean of the best replies' gains; more: their sum (NashConv)
    iterations: int
    seconds: float
    nodes: int
    infosets: int
    policy: dict           # "P1: <information string>" -> {action label: probability}
    walk_seconds: float = 0.0  # of `seconds`, the walk of the tree
    solver: str = ""           # which CFR+ ran: CFRPlusNative, CFRPlusArrays or CFRPlus


def solve_equilibrium(spec, iterations: int = 1000, limit: int = MAX_NODES) -> Equilibrium:
    """CFR+ on the whole tree of `spec`'s game (explicit chance; the Python engine)."""
    started = time.perf_counter()
    tree = build_tree(spec, limit)
    walked = time.perf_counter() - started
    cfr = cfr_solver(tree)
    cfr.run(iterations)
    avg = cfr.average
    v, expl = judge(tree, cfr)
    policy = {f"P{p + 1}: {text}": {a: float(x) for a, x in zip(tree.labels[i], avg(i))}
              for i, (p, text) in enumerate(tree.infosets)}
    return Equilibrium(tuple(float(x) for x in v), float(max(expl, 0.0)), iterations, time.perf_counter() - started,
                       len(tree.kind), len(tree.infosets), policy, walked, type(cfr).__name__)
