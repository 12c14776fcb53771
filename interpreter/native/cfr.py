"""CFR+ over a whole game tree in C (runtime/cfr.c), for solver/equilibrium.py's CFRPlusNative.

`cfr_library()` builds runtime/cfr.c once (it holds no ruleset: one library for every game,
kept in the cache as every native library is, toolchain.py) and loads it; NativeUnavailable when
there is no compiler. `FlatTree(tree)` lays a solver Tree out as the C walk reads it (NumPy
arrays: kinds, players, information sets, each node's span of children, the chance odds per
child, the ends' payoffs) and keeps the arrays alive for as long as C may read them."""

from __future__ import annotations

import ctypes
import functools
from importlib import resources
from itertools import chain

import numpy as np

from .toolchain import build_library, load_library

FLAGS = ("-ffp-contract=off",)  # (sums and products rounded one at a time, as Python's)
_p = ctypes.c_void_p


class CfrTree(ctypes.Structure):
    _fields_ = [("nodes", ctypes.c_int64), ("players", ctypes.c_int32), ("infosets", ctypes.c_int32),
                ("width", ctypes.c_int32), ("kind", _p), ("player", _p), ("infoset", _p), ("first", _p),
                ("child", _p), ("odds", _p), ("payoff", _p), ("widths", _p), ("owner", _p)]


@functools.cache
def cfr_library() -> ctypes.CDLL:
    """runtime/cfr.c built (once per machine: the cache) and loaded (once per process)."""
    source = resources.files(__package__).joinpath("runtime", "cfr.c").read_text(encoding="utf-8")
    lib = load_library(build_library(source, "cfr", extra_flags=FLAGS, opt="-O2"))
    lib.cfr_run.argtypes = [_p, _p, _p, _p, ctypes.c_int64, ctypes.c_int32, _p]
    lib.cfr_run.restype = ctypes.c_int32
    lib.cfr_run_dag.argtypes = [_p, _p, _p, _p, ctypes.c_int64, ctypes.c_int32, _p]
    lib.cfr_run_dag.restype = ctypes.c_int32
    lib.cfr_average.argtypes = [_p, _p, _p]
    lib.cfr_average.restype = None
    lib.cfr_depth.argtypes = [_p, ctypes.c_int64]
    lib.cfr_depth.restype = ctypes.c_int64
    lib.cfr_preorder.argtypes = [_p, ctypes.c_int64, _p, ctypes.c_int64]
    lib.cfr_preorder.restype = ctypes.c_int64
    lib.cfr_merge.argtypes = [_p, _p, _p, _p, ctypes.c_int64]
    lib.cfr_merge.restype = ctypes.c_int64
    lib.cfr_values.argtypes = [_p, _p, _p, _p]
    lib.cfr_values.restype = None
    lib.cfr_best_reply.argtypes = [_p, _p, ctypes.c_int32, _p, _p, _p, _p, _p, _p, _p, _p]
    lib.cfr_best_reply.restype = ctypes.c_double
    return lib


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


def _regroup(first: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges of `nodes` (old numbers, in their new order) laid out in a row: the new spans
    (`first`, one more than the nodes) and each new edge's old number."""
    counts = first[nodes + 1] - first[nodes]
    out = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out, np.repeat(first[nodes] - out[:-1], counts) + np.arange(int(out[-1]))


class FlatTree:
    """A solver Tree as C reads it (runtime/cfr.c: cfr_tree), with the scratch its walks need. Its
    nodes are renumbered in the order a walk depth first meets them (the solver numbers them
    breadth first), so that every walk reads the arrays front to back; the walks' sums do not
    depend on the numbering."""

    def __init__(self, tree):
        self.lib = lib = cfr_library()
        n, players = len(tree.kind), tree.players
        self.widths = np.array([len(x) for x in tree.labels], dtype=np.int32)
        self.width = int(self.widths.max()) if len(self.widths) else 1
        self.owner = np.array([p for p, _ in tree.infosets], dtype=np.int32)
        kind = np.array(tree.kind, dtype=np.int8)
        counts = np.fromiter(map(len, tree.children), dtype=np.int64, count=n)
        first = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        edges = int(first[-1])
        child = np.fromiter(chain.from_iterable(tree.children), dtype=np.int32, count=edges)
        odds = np.zeros(edges)
        for k in np.flatnonzero(kind == 0).tolist():  # (the chance nodes' odds; none elsewhere)
            odds[first[k]:first[k + 1]] = tree.odds[k]
        payoff = np.zeros((n, players))
        ends = np.flatnonzero(kind == 2)
        if len(ends):
            payoff[ends] = [tree.payoff[k] for k in ends]
        player, infoset = np.array(tree.player, dtype=np.int32), np.array(tree.infoset, dtype=np.int32)
        self._set(n, players, kind, player, infoset, first, child, odds, payoff)
        self.place = np.arange(n)  # each of the Tree's nodes' number here
        if n > 1:  # renumbered depth first
            order = np.zeros(n, dtype=np.int64)
            lib.cfr_preorder(self.ref, 0, _ptr(order), 0)
            self.place = place = np.empty(n, dtype=np.int64)
            place[order] = np.arange(n)
            first, old = _regroup(self.first, order)
            self._set(n, players, kind[order], player[order], infoset[order], first,
                      place[child[old]].astype(np.int32), odds[old], payoff[order])
        self.depth = int(lib.cfr_depth(self.ref, 0)) if n else 0
        self.scratch = np.zeros(max(self.width, players) * (self.depth + 2))
        # each information set's positions, in a row (best_reply)
        sets = self.infoset[self.kind == 1]
        self.from_ = np.zeros(len(self.widths) + 1, dtype=np.int64)
        np.cumsum(np.bincount(sets, minlength=len(self.widths)), out=self.from_[1:])

        # the tree with its equal subtrees merged, when that saves a quarter of the walk
        self.dag = self.dag_ref = None
        self.classes = np.zeros(n, dtype=np.int64)  # each node's subtree's number (root 0, parents first)
        if n:
            rep = np.zeros(n, dtype=np.int64)
            slots = 1 << max(4, (2 * n - 1).bit_length())
            table = np.zeros(slots, dtype=np.int64)  # (held here while C reads it)
            u = int(lib.cfr_merge(self.ref, _ptr(self.classes), _ptr(rep), _ptr(table), slots))
            self.classes = (u - 1) - self.classes
            rep = rep[:u][::-1].copy()
        if n and u <= 0.75 * n:
            first, old = _regroup(self.first, rep)
            self.dag_arrays = (self.kind[rep], self.player[rep], self.infoset[rep], first,
                               self.classes[self.child[old]].astype(np.int32), self.odds[old], self.payoff[rep])
            self.dag = CfrTree(u, players, len(self.widths), self.width, *map(_ptr, (
                *self.dag_arrays, self.widths, self.owner)))
            self.dag_ref = ctypes.byref(self.dag)
            self.dag_scratch = np.zeros(3 * u)

    def _set(self, n, players, *arrays) -> None:
        self.kind, self.player, self.infoset, self.first, self.child, self.odds, self.payoff = arrays
        self.c = CfrTree(n, players, len(self.widths), self.width, *map(_ptr, (
            self.kind, self.player, self.infoset, self.first, self.child, self.odds, self.payoff, self.widths,
            self.owner)))
        self.ref = ctypes.byref(self.c)

    def table(self) -> np.ndarray:
        """A zeroed table: `width` cells per information set."""
        return np.zeros((len(self.widths), self.width))

    def run(self, regret, total, sigma, start: int, iterations: int, merged: bool = True) -> None:
        """`iterations` iterations of CFR+, the first numbered start + 1: over the merged tree when
        there is one and `merged` (equal to rounding), else over the tree (equal to the bit)."""
        if merged and self.dag is not None:
            self.lib.cfr_run_dag(self.dag_ref, _ptr(regret), _ptr(total), _ptr(sigma), start, iterations,
                                 _ptr(self.dag_scratch))
        else:
            self.lib.cfr_run(self.ref, _ptr(regret), _ptr(total), _ptr(sigma), start, iterations,
                             _ptr(self.scratch))

    def average(self, total) -> np.ndarray:
        out = self.table()
        self.lib.cfr_average(self.ref, _ptr(total), _ptr(out))
        return out

    def values(self, strategy) -> list[float]:
        """Every seat's value when all play `strategy` (a table)."""
        strategy = np.ascontiguousarray(strategy, dtype=np.float64)
        out = np.zeros(self.c.players)
        self.lib.cfr_values(self.ref, _ptr(strategy), _ptr(out), _ptr(self.scratch))
        return [float(x) for x in out]

    def best_reply(self, strategy, p: int) -> float:
        """What seat p gains at most against the others' `strategy` (a table)."""
        strategy = np.ascontiguousarray(strategy, dtype=np.float64)
        n, sets = self.c.nodes, len(self.widths)
        cursor, members = np.zeros(sets, dtype=np.int64), np.zeros(max(int(self.from_[-1]), 1), dtype=np.int64)
        reach, memo = np.zeros(n), np.zeros(n)
        known, choice = np.zeros(n, dtype=np.uint8), np.zeros(sets, dtype=np.int32)
        totals = np.zeros(self.width * (self.depth + 2))
        return float(self.lib.cfr_best_reply(self.ref, _ptr(strategy), p, _ptr(self.from_), _ptr(cursor),
                                             _ptr(members), _ptr(reach), _ptr(memo), _ptr(known), _ptr(choice),
                                             _ptr(totals)))
