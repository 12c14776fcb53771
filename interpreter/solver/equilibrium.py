"""Equilibria of small games (`cardrules solve FILE --equilibrium`): CFR+ over the whole tree of
a ruleset, each draw of its deal a chance node (adapters/chance.py), each seat's information
sets told apart by what it has seen (the adapters' information strings).

The tree is walked once into flat lists (which node is whose, its information set, its
children, a chance node's odds, an end's payoffs). CFR+ then runs on those lists, so the
engine is not asked again. Each seat's payoff is its score less the table's mean (the
adapters' returns='points': a poker game pays its chips), or the win share with `--returns
win`. The answer is the average strategy: every seat's value under it, how much a best reply
to it gains (exploitability: for two seats, the mean of the two gains, as OpenSpiel counts
it; NashConv, their sum, for more), and the strategy itself, information set by set.

Only a tree that fits in memory can be walked: `MAX_NODES` is a guard, and a larger game is
refused with an error that gives the count reached."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

from ..errors import OptionError

MAX_NODES = 2_000_000
ARRAYS_FROM = 5_000  # positions from which CFR+ runs on arrays (CFRPlusArrays)
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


def build_tree(spec, limit: int = MAX_NODES) -> Tree:
    """Walk every history of the game (explicit chance) into a Tree."""
    from ..adapters.chance import Walk, root
    walk = Walk(limit=limit + 1)
    t = Tree([], [], [], [], [], [], [], [], [], spec.players)
    index: dict = {}
    first = root(spec)
    # breadth first: each level of the tree, and each node's children, numbered in a row
    queue = deque([(first, -1, -1)])  # (node, parent index, slot in the parent's children)
    while queue:
        (core, pending), parent, slot = queue.popleft()
        k = len(t.kind)
        if k >= limit:
            raise OptionError(f"{spec.title} has more than {limit:,} positions (chance included): too large a "
                              "tree to solve whole")
        if parent >= 0:
            t.children[parent][slot] = k
        if pending is not None:
            n = pending.need
            t.kind.append(CHANCE), t.player.append(-1), t.infoset.append(-1)
            t.children.append([0] * n), t.actions.append(list(range(n))), t.odds.append([1.0 / n] * n)
            t.payoff.append(None)
            for o in range(n):
                queue.append((walk.step(core, pending, o), k, o))
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
            for j in range(len(ids)):
                queue.append((walk.step(core, None, ids[j]), k, j))
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


class CFRPlusArrays:
    """The same CFR+ as CFRPlus, each walk a few array operations a level of the tree (NumPy): the
    reaches down the tree, the values back up, the regrets added up by information set. Slower
    than CFRPlus on a tree of a few hundred positions, much faster on one of tens of thousands."""

    def __init__(self, tree: Tree):
        import numpy as np
        self.np, self.t = np, tree
        n = len(tree.kind)
        width = max((len(x) for x in tree.labels), default=1)
        self.widths = np.array([len(x) for x in tree.labels], dtype=np.int64)
        self.regret = np.zeros((len(tree.labels), width))
        self.total = np.zeros_like(self.regret)
        self.sigma = np.zeros_like(self.regret)
        for i, w in enumerate(self.widths):
            self.sigma[i, :w] = 1.0 / w
        self.iterations = 0
        # each node but the root as the child of its parent: the parent, the action's place, depth
        parent, slot = np.full(n, -1), np.zeros(n, dtype=np.int64)
        depth = np.zeros(n, dtype=np.int64)
        for k, kids in enumerate(tree.children):  # (a parent comes before its children)
            for j, c in enumerate(kids):
                parent[c], slot[c], depth[c] = k, j, depth[k] + 1
        self.kind = np.array(tree.kind)
        self.player = np.array(tree.player)
        self.infoset = np.array(tree.infoset)
        odds = np.zeros(n)
        for k, kids in enumerate(tree.children):
            if tree.kind[k] == CHANCE:
                odds[kids] = tree.odds[k]
        self.odds = odds
        self.parent, self.slot = parent, slot
        self.levels = [np.flatnonzero(depth == d) for d in range(1, int(depth.max()) + 1)] if n > 1 else []
        self.payoff = np.zeros((n, tree.players))
        ends = [k for k in range(n) if tree.kind[k] == END]
        self.payoff[ends] = [tree.payoff[k] for k in ends]
        self.of = [np.array([i for i, (who, _) in enumerate(tree.infosets) if who == q], dtype=np.int64)
                   for q in range(tree.players)]
        self.decision = np.flatnonzero(self.kind == DECISION)
        w = self.regret.shape[1]
        self.uniform = np.zeros_like(self.regret)
        for i, k in enumerate(self.widths):
            self.uniform[i, :k] = 1.0 / k
        # per level: its nodes, their parents, which of those decide, the strategy's cell of each move
        self.level_parts = []
        for level in self.levels:
            up = parent[level]
            dec = self.kind[up] == DECISION
            self.level_parts.append((level, up, dec, self.infoset[up[dec]] * w + slot[level][dec]))
        # per level, for the values back up: the parents' span (a level's parents are one level up)
        self.level_ups = []
        for level in self.levels:
            up = parent[level]
            self.level_ups.append((level, up, int(up.min()), int(up.max()) + 1))
        self.ends_value = [np.where(self.kind == END, self.payoff[:, q], 0.0) for q in range(tree.players)]
        # per seat: the moves out of its decisions (child, parent, the strategy's cell)
        self.moves_of = []
        for q in range(tree.players):
            kids = np.flatnonzero((parent >= 0) & (self.kind[np.maximum(parent, 0)] == DECISION)
                                  & (self.player[np.maximum(parent, 0)] == q))
            up = parent[kids]
            self.moves_of.append((kids, up, self.infoset[up] * w + slot[kids]))

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
        n = len(self.kind)
        parent, slot, kind = self.parent, self.slot, self.kind
        mine, others = np.ones(n), np.ones(n)
        prob = np.zeros(n)  # the odds of the move into each node from its parent
        flat_sigma = self.sigma.ravel()
        for level, up, dec, cell in self.level_parts:
            pr = self.odds[level].copy()
            pr[dec] = flat_sigma[cell]
            prob[level] = pr
            own = dec & (self.player[up] == p)
            mine[level] = mine[up] * np.where(own, pr, 1.0)
            others[level] = others[up] * np.where(own, 1.0, pr)
        value = self.ends_value[p].copy()
        for level, up, lo, hi in reversed(self.level_ups):
            value[lo:hi] += np.bincount(up - lo, prob[level] * value[level], minlength=hi - lo)
        # p's regrets: each move's value less its node's, weighted by the others' reach to the node
        kids, up, cells = self.moves_of[p]
        if len(kids):
            size = self.regret.size
            self.regret += np.bincount(cells, others[up] * (value[kids] - value[up]), minlength=size).reshape(
                self.regret.shape)
            self.total += np.bincount(cells, self.iterations * mine[up] * flat_sigma[cells], minlength=size).reshape(
                self.total.shape)
        mine_sets = self.of[p]
        r = np.maximum(self.regret[mine_sets], 0.0)
        self.regret[mine_sets] = r
        sums = r.sum(axis=1, keepdims=True)
        self.sigma[mine_sets] = np.where(sums > 0, r / np.where(sums > 0, sums, 1.0), self.uniform[mine_sets])


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

    def value(k):
        """k's value to p when p plays its best reply below k."""
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


@dataclass(frozen=True)
class Equilibrium:
    values: tuple          # each seat's value under the average strategy
    exploitability: float  # two seats: the mean of the best replies' gains; more: their sum (NashConv)
    iterations: int
    seconds: float
    nodes: int
    infosets: int
    policy: dict           # "P1: <information string>" -> {action label: probability}


def solve_equilibrium(spec, iterations: int = 1000, limit: int = MAX_NODES) -> Equilibrium:
    """CFR+ on the whole tree of `spec`'s game (explicit chance; the Python engine)."""
    started = time.perf_counter()
    tree = build_tree(spec, limit)
    cfr = CFRPlus(tree) if len(tree.kind) < ARRAYS_FROM else CFRPlusArrays(tree)
    cfr.run(iterations)
    avg = cfr.average
    v = values(tree, avg)
    gains = [best_reply(tree, avg, p) - v[p] for p in range(tree.players)]
    expl = sum(gains) / 2 if tree.players == 2 else sum(gains)
    policy = {f"P{p + 1}: {text}": {a: float(x) for a, x in zip(tree.labels[i], avg(i))}
              for i, (p, text) in enumerate(tree.infosets)}
    return Equilibrium(tuple(float(x) for x in v), float(max(expl, 0.0)), iterations, time.perf_counter() - started, len(tree.kind),
                       len(tree.infosets), policy)


class CfrBot:
    """Plays the strategy CFR+ finds for the game (worked out on first use, once per game,
    rules and options in this process): at each decision the moves' odds at the seat's
    information set, drawn with the bot's seeded generator. An information set the tree does not
    hold (it cannot happen in the game as walked) is played uniformly, and counted in `missed`.
    `returns`: what the strategy is solved for, each seat's score less the table's mean
    ("points") or its share of a win ("win"); None: points where the game keeps a score."""

    name = "cfr"
    _solved: dict = {}

    def __init__(self, seed: int = 0, iterations: int = 1000, returns: str | None = None):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"the equilibrium player needs a positive number of iterations, not {iterations!r}")
        if returns not in (None, "points", "win"):
            raise OptionError(f"the equilibrium player plays for points or win, not {returns!r}")
        import random
        self.seed, self.iterations, self.returns = seed, iterations, returns
        self.rng = random.Random(seed)
        self.missed = 0

    def __repr__(self) -> str:
        return f"CfrBot({self.seed}, iterations={self.iterations}" + (f", returns={self.returns!r})" if self.returns else ")")

    def choose(self, state):
        from ..adapters.core import Core
        from ..engine import moves_for
        moves = moves_for(state)
        if len(moves) <= 1:
            if not moves:
                from ..errors import GameRuntimeError
                raise GameRuntimeError("no legal move to choose from")
            return moves[0]
        spec, policy = self._policy(state)
        core = Core.start(spec, state.seed)  # the game as the seat has seen it, for its information string
        for m in state.history:
            core.apply_move(m, spec.action_id(m.action, m.arg))
        me = state.actor
        odds = policy.get(f"P{me + 1}: {core.info_text(me)}")
        if odds is None:
            self.missed += 1
            return moves[self.rng.randrange(len(moves))]
        x, acc = self.rng.random(), 0.0
        for m in moves:
            acc += odds.get(str(m), 0.0)
            if x < acc:
                return m
        return moves[-1]

    def _policy(self, state):
        from ..adapters.encoding import spec_for
        rs = state.program.ruleset
        returns = self.returns or ("points" if state.program.score is not None else "win")
        key = (rs.source, state.n_players, tuple(sorted(state.options.items())), returns, self.iterations)
        got = CfrBot._solved.get(key)
        if got is None:
            spec = spec_for(rs.source, state.n_players, dict(state.options), returns=returns, engine="python")
            got = CfrBot._solved[key] = (spec, solve_equilibrium(spec, self.iterations).policy)
        return got


def make_cfr_bot(spec: str, seed: int = 0) -> CfrBot:
    """'cfr', 'cfr:ITERATIONS', and either followed by ':win' or ':points' (what the strategy is
    solved for: a share of a win, or the score; the default: the score where the game keeps
    one); OptionError for anything else."""
    from ..search import spec_count
    parts = spec.strip().lower().split(":")
    returns = None
    if len(parts) > 1 and parts[-1].strip() in ("win", "points"):
        returns = parts.pop().strip()
    if len(parts) > 2:
        raise OptionError(f"the equilibrium player is 'cfr', 'cfr:ITERATIONS', 'cfr:win' or 'cfr:ITERATIONS:win' "
                          f"(or :points), not {spec!r}")
    n = spec_count(":".join(parts), "iterations", 1000)
    return CfrBot(seed, 1000 if n is None else n, returns)
