"""The depth-3 kernels as they were before the branch-free bitset kernels: the benchmark baseline.

:func:`exact.bench.wordle.run_wordle_bench` times ``dp.solve(..., engine=BaselineSearch)`` against
``dp.solve`` in the same run. The recursion, bounds and results are those of :mod:`exact.wordle.wins.dp`
(same values, proven the same way); only the inner counting differs: here one branch per
(answer, guess) pair tests and sets a seen-pattern bit and counts new classes one by one.
"""

from __future__ import annotations

import numba
import numpy as np

from exact.wordle.wins import dp
from exact.game.hard import add_feedback

CHUNK = 2048  # guesses counted together: their seen-pattern bitsets (4 x 64 bits each) stay in cache


@numba.njit(cache=True, nogil=True)
def _count_chunk(FT, P, lo, hi, bits, count):
    """count[j] = how many classes guess j makes on the answers P, for lo <= j < hi."""
    for j in range(lo, hi):
        count[j - lo] = 0
    for w in range(4 * (hi - lo)):
        bits[w] = 0
    one = np.uint64(1)
    for i in range(P.shape[0]):
        row = FT[P[i]]
        for j in range(lo, hi):
            p = row[j]
            w = 4 * (j - lo) + (p >> 6)
            b = one << np.uint64(p & 63)
            if not (bits[w] & b):
                bits[w] |= b
                count[j - lo] += 1


@numba.njit(cache=True, nogil=True)
def _first_at_most(caps, value, lo):
    """The first position j >= lo with caps[j] <= value (caps is non-increasing)."""
    left, right = lo, caps.shape[0]
    while left < right:
        mid = (left + right) // 2
        if caps[mid] <= value:
            right = mid
        else:
            left = mid + 1
    return left


@numba.njit(cache=True, nogil=True)
def _allowed_positions(greens, least, codes, counts):
    """The guess positions the hard-mode constraint allows, in order."""
    letters = np.flatnonzero(least > 0)
    places = np.flatnonzero(greens >= 0)
    keep = np.empty(codes.shape[0], dtype=np.int64)
    m = 0
    for j in range(codes.shape[0]):
        ok = True
        for i in places:
            if codes[j, i] != greens[i]:
                ok = False
                break
        if ok:
            for x in letters:
                if counts[j, x] < least[x]:
                    ok = False
                    break
        if ok:
            keep[m] = j
            m += 1
    return keep[:m]


@numba.njit(cache=True, nogil=True)
def _wins2(FT, P, caps, need, hard, greens, least, codes, counts, bits, count):
    """(wins_2(P) or a bound < need, exact?): guesses in chunks, stopping once caps <= best.

    In hard mode only the allowed guesses are counted (a sub-sequence of the order, so their caps
    are still non-increasing).
    """
    s = P.shape[0]
    if s <= 2:
        return s, s >= need
    if hard:  # the class's rows of the allowed guesses' columns
        js = _allowed_positions(greens, least, codes, counts)
        sub = np.empty((s, js.shape[0]), dtype=FT.dtype)
        for r in range(s):
            for t in range(js.shape[0]):
                sub[r, t] = FT[P[r], js[t]]
        P = np.arange(s)
        subcaps = caps[js]
    else:
        sub = FT
        subcaps = caps
    best = 0
    lo = 0
    end = subcaps.shape[0]
    while lo < end:
        bound = min(subcaps[lo], s)
        if bound <= best:
            break
        if bound < need:
            return bound, False
        hi = min(lo + (64 if lo == 0 else CHUNK), end)
        _count_chunk(sub, P, lo, hi, bits, count)
        for j in range(lo, hi):
            if count[j - lo] > best:
                best = count[j - lo]
        if best == s:
            break
        end = _first_at_most(subcaps, best, hi)
        lo = hi
    return best, best >= need


@numba.njit(cache=True, nogil=True)
def _split(FT, j, npat):
    """The classes of guess j on the node's answers: (rows grouped by pattern, start of each, count)."""
    n = FT.shape[0]
    count = np.zeros(npat, dtype=np.int64)
    for r in range(n):
        count[FT[r, j]] += 1
    start = np.zeros(npat + 1, dtype=np.int64)
    for p in range(npat):
        start[p + 1] = start[p] + count[p]
    fill = start[:npat].copy()
    members = np.empty(n, dtype=np.int64)
    for r in range(n):
        p = FT[r, j]
        members[fill[p]] = r
        fill[p] += 1
    return members, start, count


@numba.njit(cache=True, nogil=True)
def _value3(FT, j, caps, threshold, npat, hard, greens, least, codes, counts, bits, count):
    """(value_3(guess j) or a bound < threshold, exact?): classes largest first, wins_2 each."""
    green = npat - 1
    members, start, size = _split(FT, j, npat)
    top = caps[0]
    by_size = np.argsort(-size, kind="mergesort")
    rest = 0
    for p in range(npat):
        rest += min(size[p], top) if p != green else size[p]
    total = 0
    for i in range(npat):
        p = by_size[i]
        s = size[p]
        if s == 0:
            break
        rest -= min(s, top) if p != green else s
        if p == green:
            total += 1
            continue
        if s <= 2:
            total += s
            continue
        need = threshold - total - rest
        if min(s, top) < need:
            return total + min(s, top) + rest, False
        if hard:
            g2, l2 = add_feedback(greens, least, codes[j], p)
        else:
            g2, l2 = greens, least
        v, ok = _wins2(FT, members[start[p]:start[p + 1]], caps, need, hard, g2, l2, codes, counts,
                       bits, count)
        total += v
        if not ok:
            return total + rest, False
    return total, total >= threshold


@numba.njit(cache=True, parallel=True)
def _values3(FT, cands, caps, threshold, npat, hard, greens, least, codes, counts):
    """value_3 of each candidate guess (a position in the node's order), in parallel; each is an
    exact value or a bound < threshold."""
    n = cands.shape[0]
    values = np.empty(n, dtype=np.int64)
    exact = np.empty(n, dtype=np.bool_)
    for i in numba.prange(n):
        bits = np.empty(4 * CHUNK, dtype=np.uint64)
        count = np.empty(CHUNK, dtype=np.int64)
        v, ok = _value3(FT, cands[i], caps, threshold, npat, hard, greens, least, codes, counts,
                        bits, count)
        values[i] = v
        exact[i] = ok
    return values, exact


class BaselineSearch(dp.Search):
    """:class:`exact.wordle.wins.dp.Search` with the baseline counting kernels (benchmarks only)."""

    def wins2(self, node, P, need, rule):
        bits, count = np.empty(4 * CHUNK, dtype=np.uint64), np.empty(CHUNK, dtype=np.int64)
        return _wins2(node.FT, P, node.caps, need, self.inst.hard, rule[0], rule[1], node.codes, node.counts,
                      bits, count)

    def values3(self, node, positions, threshold, rule, raising=0, keep=0):  # never raises (dp.Search.values)
        return _values3(node.FT, positions, node.caps, threshold, self.inst.npat, self.inst.hard,
                        rule[0], rule[1], node.codes, node.counts)

    raises_inside = False

    def separates(self, T, rule):
        return self.wins(T, 2, rule)[0] == len(T)
