"""Staged rejection for the depth-k search over first guesses: a memo of bounds shared across first
guesses, class bounds before any search, second guesses that make the same partition tried once,
feature caps counted at large nodes, classes bounded by those caps' maxima (and counted only
against guesses that can reach their need), and wins_2 of a class remembered at its node.

:class:`StagedSearch` is :class:`exact.wordle.wins.dp.Search` (the engine of ``exact wordle rank --depth
K`` before it, kept as the benchmark's baseline) with six additions. Each keeps every value exact or
an upper bound below the threshold it was asked to reach, so the global search's certificate reads
the same (the arguments). They hold with integer answer weights w_a >= 1 too (a prior,
:mod:`exact.wordle.wins.weighted`): wins_j(P) is then the weight won within j, and W(P), the total
weight of P, stands where |P| stands below (|P| is W(P) under unit weights, so one argument covers both):

1. **The memo** (:class:`WinsMemo`): wins_j(P) under the hard-mode rule r depends only on (j, P, r)
   and the weights of P's answers, so a value computed once is valid wherever the same answer set is met
   again with the same rule and the same weights (another first guess's class: every first guess with
   the same letters, an anagram, has the same all-gray class; the same partition of a class met under
   two first guesses). The weights are fixed for an instance, and the memo is one per instance: its key
   (:func:`process_memo`) holds the lists' sha256, the mode and the weights' sha256 (none: unweighted),
   so a memo filled under one prior never answers for another. A search stopped early returns an
   *upper bound* b < need (see :meth:`exact.wordle.wins.dp.Search.wins`); the memo keeps the least bound
   found, and a later call that needs more than b is answered at once. The memo is one per process and
   instance and lives across first guesses and across the batches a Dask worker runs, so what one first
   guess proves the next reuses.
2. **Class bounds first** (:meth:`StagedSearch.value`): for a first guess g (any guess at depth k >= 4),
   value_k(g, T) = w_g [g in T, the all-green class, won at this guess] + sum over g's other classes P
   of wins_{k-1}(P) <= w_g + sum over P of u(P), with u(P) the memo's exact value or bound, else W(P)
   (wins_j(P) <= W(P): every node of a strategy wins at most one answer, an answer is won at one node,
   so the answers won are distinct answers of P and their weights sum to at most W(P)). When that sum
   is already below the threshold, g is rejected before any search. Otherwise the classes not known
   exactly are searched largest first, each against the budget left, ``threshold - (w_g + sum of u over
   the other classes)`` (with the memo's bounds this is at least the baseline's ``threshold - exact so
   far - W(P) for the rest``: never a weaker need), and u(P) drops to each value found.
3. **One guess per partition** (:func:`distinct_partitions`, normal mode): value_3(g, P) = sum over
   g's classes Q of wins_2(Q), the all-green class {g} counting w_g = wins_2 of the singleton {g} (one
   guess left wins the heaviest answer of a class, here its only one); so value_3 depends only on the
   classes (which answers, hence which weights, each holds) and not on which guess cut them, and two
   guesses that cut P into the same classes have the same value_3, weighted or not (in hard mode the
   rule after each guess differs, so there every allowed guess is kept). Only the first guess of each
   partition, in the node's order, is valued; the scan of wins_3(P) meets every partition once, so its
   maximum is unchanged. Partitions are compared exactly (a hash groups them; each member is then
   checked label by label against its group's first, and kept on any difference).

4. **Feature caps at large nodes** (:func:`exact.wordle.wins.dp.node_features`): the kernels' bound on
   the classes a guess makes on a class (:mod:`exact.wordle.wins.kernels`, "feature caps") holds for
   the feature sets of any node's answers N, not only the root's: a class Q of guess h with pattern p
   at N lies in N & S for every feature set S that p implies, so a guess g makes at most as many
   classes on Q as on N & S. The plain search counts them at the root only; the staged search also at
   nodes of at least NODE_FEATURES_MIN answers (on smaller ones counting them costs more than the
   scans they shorten). They only skip guesses that cannot beat the best count found so far, so
   every value is the same: exact where it was exact, a bound below its threshold where it was one.
   (Unweighted only: the weighted kernels read no feature caps.)
5. **Class bounds by feature maxima, and counts only where they can reach** (the search's ``tight``:
   :func:`exact.wordle.wins.kernels.value3` with ``most``, :func:`exact.wordle.wins.kernels.wins2`):
   at a node N whose feature caps are counted, most[S], the most classes any guess makes on N & S,
   bounds wins_2(Q) of every class Q inside N & S (wins_2(Q) is the most classes some allowed guess
   makes on Q, each won by the last guess; Q's classes under a guess number at most its classes on
   N & S). So value_3(h, N) <= sum over h's classes Q of min(|Q|, caps[0], most[S] for each feature
   set S of Q) (the all-green class 1), and h is abandoned before any scan when that falls below the
   threshold; each class's budget while h is valued uses the same bounds for the classes left (the
   plain search bounds a class by min(|Q|, caps[0]) only). And wins_2(Q) asked to reach a need
   counts no guess whose bound (its cap, its feature caps) is below the need: such a guess cannot
   reach it, and the largest of those bounds, with the best count, is the bound returned when no
   guess reaches the need (the plain search counts every guess whose bound beats the best count).
   Values stay exact where they were exact, bounds below their threshold.
6. **wins_2 of a class remembered at its node** (``tight``: :mod:`exact.wordle.wins.classmemo`):
   while value_3 scans the second guesses at a node, each thread keeps wins_2 of the classes of
   FEATURE_MIN answers or more that it met, exact or a bound below the need it was asked, and answers
   the same class (the same answers, compared row by row) from it: an exact value always, a bound b
   whenever the need is above b. In normal mode every guess is allowed whatever came before, so wins_2
   of a class depends on its answers alone (argument 1's reasoning, at one node). In hard mode wins_2(Q)
   is the most classes a guess the rule after the second guess allows makes on Q (the last guess wins
   each: an answer of Q meets every rule its own feedback implies, so it is always allowed), so it
   depends on Q and that rule (greens, least) alone, and both are the key: two second guesses whose
   patterns add the same to the rule (every all-gray one adds nothing) share their classes' values.

What the staged search takes from :class:`exact.wordle.wins.dp.Search` unchanged is argued there for
weights (the shortcuts of ``wins``, the useful guesses, value_k's running bound) and in
:mod:`exact.wordle.wins.weighted` (the weighted kernels at k <= 3; the unweighted kernels' feature caps
are argued for counts and are not used under weights: the weighted kernels read none).

Checked against the baseline search and brute force on tiny lists in both modes, with and without
random integer weights (tests/test_wordle_wins_bounds.py); measured against the baseline in one run by
``exact wordle bench --depth-rejection`` (:mod:`exact.bench.depthk`, ``--weighted`` for the prior's path).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from exact.game.hard import Constraint
from exact.partitions import classes, largest_first
from exact.weights import weights_sha256
from exact.wordle.wins import dp

#: Bytes of keys the memo holds before it starts afresh (a key: the class's answer columns as uint16).
MEMO_BYTES = 128 * 2**20
#: Classes smaller than this are not memoized (their wins are decided by the shortcuts of dp.Search.wins).
MEMO_MIN = 3
#: Nodes of at least this many answers count their own feature caps before value_3 (argument 4).
NODE_FEATURES_MIN = 50


@dataclass
class Known:
    """What the memo knows of wins_j(P) under a rule: ``value`` exact, or an upper bound (not ``exact``)."""

    value: int
    exact: bool


class WinsMemo:
    """wins_j(P, rule) exact or bounded from above, keyed by (j, P, rule); the least bound is kept."""

    def __init__(self, limit: int = MEMO_BYTES):
        self.table: dict[bytes, Known] = {}
        self.bytes = 0
        self.limit = limit
        self.hits = 0
        self.stored = 0

    @staticmethod
    def key(P: np.ndarray, k: int, rule: Constraint, hard: bool) -> bytes:
        """The set's columns (sorted) with k and its size, and in hard mode the rule."""
        head = np.array([k, len(P)], dtype=np.int64).tobytes()
        tail = (rule[0].astype(np.int8).tobytes() + rule[1].astype(np.int8).tobytes()) if hard else b""
        wide = len(P) and P[-1] >= 2**16  # columns as uint16 where they fit (two keys' lengths then differ)
        return head + np.asarray(P, dtype=np.int32 if wide else np.uint16).tobytes() + tail

    def get(self, key: bytes) -> Known | None:
        known = self.table.get(key)
        self.hits += known is not None
        return known

    def put(self, key: bytes, value: int, exact: bool) -> None:
        """Record an exact value, or an upper bound (kept only when below what is known)."""
        old = self.table.get(key)
        if old is not None and (old.exact or old.value <= value) and not exact:
            return
        if old is None:
            if self.bytes + len(key) > self.limit:
                self.table.clear()
                self.bytes = 0
            self.bytes += len(key)
        self.table[key] = Known(int(value), bool(exact))
        self.stored += 1


#: The memo of this process, for one instance at a time (:func:`process_memo`).
_MEMOS: dict[tuple, WinsMemo] = {}


def process_memo(inst: dp.WinsInstance) -> WinsMemo:
    """The memo this process keeps for the instance (lists' sha256, mode and weights' sha256: another
    instance starts it afresh, argument 1): a Dask worker unpickles a fresh search for every batch
    (:mod:`exact.firstguess` keeps the state off the pickle), and the memo must outlive the batch to be
    shared across first guesses."""
    key = (inst.answers.sha256, inst.guesses.sha256, inst.hard, weights_key(inst))
    if key not in _MEMOS:
        _MEMOS.clear()
        _MEMOS[key] = WinsMemo()
    return _MEMOS[key]


def weights_key(inst: dp.WinsInstance) -> str | None:
    """The sha256 of the instance's answer weights (:func:`exact.weights.weights_sha256`, the hash a
    weights file is recorded by), or None unweighted: part of the memo's instance key."""
    return None if inst.w is None else weights_sha256(inst.answers, inst.w)


def forget_memos() -> None:
    """Drop this process's memo (a benchmark's engine starts from an empty one)."""
    _MEMOS.clear()


@numba.njit(cache=True, parallel=True)
def partition_hashes(FT, npat):
    """A hash per column j of the node matrix of the partition guess j makes on the node's answers:
    classes labelled by first appearance down the rows (so the hash names the partition, not the
    patterns), folded by FNV-1a."""
    n, m = FT.shape
    h = np.empty(m, dtype=np.uint64)
    for j in numba.prange(m):
        label = np.full(npat, -1, dtype=np.int64)
        nl = 0
        x = np.uint64(1469598103934665603)
        for r in range(n):
            p = np.int64(FT[r, j])
            if label[p] < 0:
                label[p] = nl
                nl += 1
            x = (x ^ np.uint64(label[p] + 1)) * np.uint64(1099511628211)
        h[j] = x
    return h


@numba.njit(cache=True, parallel=True)
def same_partition(FT, cols, reps, npat):
    """same[i]: guess column cols[i] makes exactly the partition of column reps[i] (two answers share
    a class under one guess iff they share one under the other: checked by a pattern map both ways)."""
    n = FT.shape[0]
    same = np.empty(cols.shape[0], dtype=np.bool_)
    for i in numba.prange(cols.shape[0]):
        there = np.full(npat, -1, dtype=np.int64)
        back = np.full(npat, -1, dtype=np.int64)
        ok = True
        for r in range(n):
            a = np.int64(FT[r, cols[i]])
            b = np.int64(FT[r, reps[i]])
            if there[a] < 0 and back[b] < 0:
                there[a] = b
                back[b] = a
            elif there[a] != b or back[b] != a:
                ok = False
                break
        same[i] = ok
    return same


def distinct_partitions(node: dp.Node, npat: int) -> np.ndarray:
    """The guess rows of the node, in its order, keeping only the first guess of each partition of the
    node's answers (exactly: a guess whose hash matches an earlier one but whose partition differs is
    kept)."""
    h = partition_hashes(node.FT, npat)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    reps = first[inverse.reshape(-1)]
    later = np.flatnonzero(reps != np.arange(len(h)))
    keep = np.ones(len(h), dtype=bool)
    if len(later):
        keep[later] = ~same_partition(node.FT, later.astype(np.int64), reps[later].astype(np.int64), npat)
    return node.order[keep]


@dataclass
class ClassPart:
    """One class of a guess: its answers, the rule after it, its memo key, and u, what bounds wins_{k-1}
    of it so far (exact when ``exact``)."""

    P: np.ndarray
    rule: Constraint
    key: bytes
    u: int
    exact: bool


class StagedSearch(dp.Search):
    """:class:`exact.wordle.wins.dp.Search` with the memo, class bounds first, one guess per
    partition, feature caps at large nodes, class bounds by their maxima and a memo of classes at
    each node (the module's arguments 1-6)."""

    node_features_min = NODE_FEATURES_MIN
    tight = True

    def __init__(self, inst: dp.WinsInstance, memo: WinsMemo | None = None):
        super().__init__(inst)
        self.memo = memo if memo is not None else WinsMemo()
        self.rejected_by_bounds = 0  # first guesses (depth >= 4) rejected before any search

    def wins(self, T: np.ndarray, k: int, rule: Constraint, need: int = 0) -> tuple[int, bool]:
        """As :meth:`exact.wordle.wins.dp.Search.wins`, answered from the memo where it knows enough
        (exact, or a bound below ``need``), and recorded there (argument 1)."""
        if k < 3 or len(T) < MEMO_MIN:
            return super().wins(T, k, rule, need)
        key = self.memo.key(T, k, rule, self.inst.hard)
        known = self.memo.get(key)
        if known is not None and (known.exact or known.value < need):
            return known.value, known.exact and known.value >= need
        v, ok = super().wins(T, k, rule, need)
        self.memo.put(key, v, ok)
        return v, ok

    def values(self, T: np.ndarray, k: int, rule: Constraint, threshold: int,
               cands: np.ndarray | None = None, first_pass: int = 0, strict: bool = False):
        """As :meth:`exact.wordle.wins.dp.Search.values`; at k = 3 in normal mode with no candidates
        given, one guess per partition of T (argument 3)."""
        if cands is None and k == 3 and not self.inst.hard:
            cands = distinct_partitions(self.node(T), self.inst.npat)
        return super().values(T, k, rule, threshold, cands=cands, first_pass=first_pass, strict=strict)

    def parts(self, g: int, T: np.ndarray, k: int, rule: Constraint) -> tuple[int, list[ClassPart]]:
        """(the weight won by the all-green class, w_g or 0, the other classes largest first with their
        memo bounds, each at most W(P): argument 2)."""
        split = largest_first(classes(self.inst.F, g, T))
        green = 0
        out = []
        for pattern, P in split:
            if pattern == self.inst.green:
                green = self.weight(P)  # {g}: won at this guess, its weight (1 unweighted)
                continue
            after = self.after(rule, g, pattern)
            key = self.memo.key(P, k - 1, after, self.inst.hard) if len(P) >= MEMO_MIN and k - 1 >= 3 else b""
            known = self.memo.get(key) if key else None
            whole = self.weight(P)
            if known is None:
                out.append(ClassPart(P, after, key, whole, False))
            else:
                out.append(ClassPart(P, after, key, min(known.value, whole), known.exact))
        return green, out

    def value(self, g: int, T: np.ndarray, k: int, rule: Constraint, threshold: int = 0) -> tuple[int, bool]:
        """(value_k(g, T), True), or (an upper bound < threshold, False), in stages (argument 2)."""
        if k <= 3:
            return super().value(g, T, k, rule, threshold)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise dp.TimeUp
        green, parts = self.parts(g, T, k, rule)
        total = green + sum(c.u for c in parts)
        if total < threshold:
            self.rejected_by_bounds += 1
            return total, False
        for c in parts:
            if c.exact:
                continue
            v, ok = self.wins(c.P, k - 1, c.rule, threshold - (total - c.u))
            total += v - c.u
            c.u, c.exact = v, ok
            if not ok:
                return total, False
        return total, total >= threshold
