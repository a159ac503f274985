"""The depth-k DP's kernels under answer weights (:mod:`exact.weights`): the most *weight* won within k.

With a positive integer weight w_a on each answer, the recursion of :mod:`exact.wordle.wins.dp` becomes

    wins_1(T) = max over a in T of w_a,    wins_k(T) = max over allowed g of sum over classes P of g on T of
    wins_{k-1}(P)

(the all-green class {g} counts w_g: won at this guess; one guess left wins the heaviest candidate, which
hard mode always allows). So wins_2(P) = max over g of the sum, over the classes of g on P, of the heaviest
weight in each class. Unit weights give the unweighted numbers; the unweighted kernels
(:mod:`exact.wordle.wins.kernels`) stay the path for them, so their results are untouched.

Counting a guess's weighted wins_2 on P is the unweighted bitset count with the answers of P taken in
decreasing weight: the first answer that sets a pattern's bit is the heaviest of that class, so adding its
weight when the bit was clear sums the heaviest weight of every class (:func:`_wcount_at`).

Bounds, re-argued with weights (each an upper bound on the exact value it stands for):

- wins_k(P) <= W(P), the total weight of P (at most every answer is won);
- a guess making c classes on P wins at most the c heaviest weights of P in wins_2 (one answer a class,
  distinct answers): ``top(P, c)``. Its cap on the node (the classes it makes on the node's set, a superset
  of P) bounds c, and ``top`` grows with c, so scanning guesses by decreasing cap may stop once
  top(P, cap) <= the best found; and with c counted exactly on P (by the unweighted popcount kernel, cheaper
  than the weighted count), a guess whose top(P, c) does not beat the best found is skipped (:func:`wins2w`);
- in value_3 a class P not yet done is bounded by top(P, caps[0]) (caps[0], the most classes any guess
  makes on the node, bounds every guess's classes on P) and by W(P); a guess is abandoned once the exact
  values of its classes so far plus the bounds of the rest fall below the threshold (:func:`value3w`).

The feature caps of the unweighted kernels are not used here: leaving a valid bound out only prunes less.
"""

from __future__ import annotations

import numba
import numpy as np

from exact.game.hard import HardMode, add_feedback
from exact.wordle.wins.kernels import BLOCK, FIRST_BLOCK, _allowed_positions, _count_at, _count_block, scratch


@numba.njit(cache=True, nogil=True)
def _wcount_at(FT, P, wP, cols, nb, words, bits, count):
    """count[t] = the weighted wins_2 of the guess at position cols[t] on the answers P (rows of FT, in
    decreasing weight ``wP``): the sum of the heaviest weight of each of its classes, t < nb."""
    for w in range(words * nb):
        bits[w] = 0
    for t in range(nb):
        count[t] = 0
    one = np.uint64(1)
    for i in range(P.shape[0]):
        row = FT[P[i]]
        wi = wP[i]
        for t in range(nb):
            p = np.int64(row[cols[t]])
            at = words * t + (p >> 6)
            bit = one << np.uint64(p & 63)
            if (bits[at] & bit) == 0:
                count[t] += wi
            bits[at] |= bit


@numba.njit(cache=True, nogil=True)
def top_sums(wP, out):
    """out[c] = the sum of the c heaviest weights of a class given in decreasing weight (c <= its size)."""
    out[0] = 0
    for i in range(wP.shape[0]):
        out[i + 1] = out[i] + wP[i]


@numba.njit(cache=True, nogil=True)
def wins2w(FT, P, wP, top, caps, need, words, hm, work):
    """(weighted wins_2(P) or a bound < need, exact?): P in decreasing weight ``wP``, ``top`` its
    :func:`top_sums`; the allowed guesses in cap order, in blocks, each block only the guesses whose
    bound top(P, min(cap, |P|)) beats the best found (caps non-increasing: the scan stops at the first that
    does not); within a block, the guesses' classes on P are counted first (the unweighted popcount kernel),
    and only a guess whose top(P, classes) beats the best found is counted with weights (a guess making c
    classes on P wins at most the c heaviest weights of P)."""
    bits, count, cols, sel, _ = work  # sel: the block's guesses that survive the class-count bound
    s = P.shape[0]
    total = top[s]
    if s <= 2:
        return total, total >= need
    js = _allowed_positions(hm.greens, hm.least, hm.codes, hm.counts) if hm.on else cols[:0]
    na = js.shape[0] if hm.on else caps.shape[0]
    best = 0
    t = 0
    while t < na:
        j = js[t] if hm.on else t
        bound = top[min(caps[j], s)]
        if bound <= best:
            break
        if bound < need:
            return max(best, bound), False
        nb = 0
        size = FIRST_BLOCK if t == 0 else BLOCK  # a small first block: a class is often split whole there
        while t < na and nb < size:
            j = js[t] if hm.on else t
            if top[min(caps[j], s)] <= best:
                break
            cols[nb] = j
            nb += 1
            t += 1
        if hm.on:  # each guess's classes on P, by popcount
            _count_at(FT, P, cols, nb, words, bits, count)
        else:  # normal mode: the block is the positions cols[0] .. cols[0] + nb - 1, read contiguously
            _count_block(FT, P, cols[0], cols[0] + nb, words, bits, count)
        kept = 0
        for b in range(nb):
            if top[count[b]] > best:  # top(P, classes on P) bounds its weighted wins_2
                sel[kept] = cols[b]
                kept += 1
        _wcount_at(FT, P, wP, sel, kept, words, bits, count)
        for b in range(kept):
            if count[b] > best:
                best = count[b]
        if best == total:
            break
    return best, best >= need


@numba.njit(cache=True, nogil=True)
def _split_by_weight(FT, j, npat, size, members, rows):
    """The classes of guess j on the node's answers, largest first (ties by pattern), each class's rows in
    the order of ``rows`` (the node's rows by decreasing weight): (patterns, start) as in
    :func:`exact.wordle.wins.kernels._split`."""
    for p in range(npat):
        size[p] = 0
    for r in range(FT.shape[0]):
        size[FT[r, j]] += 1
    m = 0
    for p in range(npat):
        if size[p] > 0:
            m += 1
    patterns = np.empty(m, dtype=np.int64)
    m = 0
    for p in range(npat):
        if size[p] > 0:
            patterns[m] = p
            m += 1
    for a in range(1, m):  # insertion sort by decreasing size, stable (ties by pattern)
        p = patterns[a]
        b = a - 1
        while b >= 0 and size[patterns[b]] < size[p]:
            patterns[b + 1] = patterns[b]
            b -= 1
        patterns[b + 1] = p
    start = np.empty(m + 1, dtype=np.int64)
    start[0] = 0
    where = np.empty(npat, dtype=np.int64)
    for i in range(m):
        start[i + 1] = start[i] + size[patterns[i]]
        where[patterns[i]] = start[i]
    for r in rows:
        p = FT[r, j]
        members[where[p]] = r
        where[p] += 1
    return patterns, start


@numba.njit(cache=True, nogil=True)
def value3w(FT, j, caps, threshold, npat, words, hm, wrows, rows, work, size, members, wP, top):
    """(weighted value_3(guess j) or a bound < threshold, exact?): classes largest first, weighted wins_2
    each; the bound of a class left is top(P, caps[0]) (module docstring), of the all-green class w_g."""
    green = npat - 1
    patterns, start = _split_by_weight(FT, j, npat, size, members, rows)
    m = patterns.shape[0]
    bound = np.empty(m, dtype=np.int64)
    rest = 0
    for i in range(m):
        lo, hi = start[i], start[i + 1]
        c = hi - lo if patterns[i] == green else min(hi - lo, caps[0])
        b = 0
        for r in range(lo, lo + c):
            b += wrows[members[r]]
        bound[i] = b
        rest += b
    total = 0
    for i in range(m):
        p = patterns[i]
        lo, hi = start[i], start[i + 1]
        s = hi - lo
        rest -= bound[i]
        P = members[lo:hi]
        for r in range(s):
            wP[r] = wrows[P[r]]
        if p == green or s <= 2:
            for r in range(s):
                total += wP[r]
            continue
        need = threshold - total - rest
        if bound[i] < need:
            return total + bound[i] + rest, False
        below = hm
        if hm.on:
            g2, l2 = add_feedback(hm.greens, hm.least, hm.codes[j], p)
            below = HardMode(hm.on, g2, l2, hm.codes, hm.counts)
        top_sums(wP[:s], top)
        v, ok = wins2w(FT, P, wP[:s], top, caps, need, words, below, work)
        total += v
        if not ok:
            return total + rest, False
    return total, total >= threshold


@numba.njit(cache=True, parallel=True)
def values3w(FT, cands, caps, threshold, raising, keep, threads, npat, hm, wrows, rows):
    """Weighted value_3 of each candidate guess (a position in the node's order), in parallel, each exact
    or a bound below the threshold in force for it; ``raising`` and ``keep`` as in
    :func:`exact.wordle.wins.kernels.values3`, whose argument holds for any values: a shared best is
    some candidate's exact value, and a thread's own K-th best exact value is at most the final K-th best."""
    n = cands.shape[0]
    values = np.empty(n, dtype=np.int64)
    exact = np.empty(n, dtype=np.bool_)
    words = (npat + 63) // 64
    best = np.full(1, -1, dtype=np.int64)
    nt = min(threads, max(n, 1))
    mine = np.full((nt, max(keep, 1)), -1, dtype=np.int64)
    for t in numba.prange(nt):
        work = scratch(npat, caps.shape[0])
        size = np.empty(npat, dtype=np.int64)
        members = np.empty(FT.shape[0], dtype=np.int64)
        wP = np.empty(FT.shape[0], dtype=np.int64)
        top = np.empty(FT.shape[0] + 1, dtype=np.int64)
        for i in range(t, n, nt):
            th = threshold
            if raising > 0 and best[0] >= 0:
                th = max(threshold, best[0] + (1 if raising == 1 else 0))
            if keep > 0 and mine[t, keep - 1] > th:
                th = mine[t, keep - 1]
            v, ok = value3w(FT, cands[i], caps, th, npat, words, hm, wrows, rows, work, size, members, wP, top)
            values[i] = v
            exact[i] = ok
            if ok and v > best[0]:
                best[0] = v
            if ok and keep > 0 and v > mine[t, keep - 1]:
                b = keep - 1
                while b > 0 and mine[t, b - 1] < v:
                    mine[t, b] = mine[t, b - 1]
                    b -= 1
                mine[t, b] = v
    return values, exact


@numba.njit(cache=True, nogil=True)
def values2w(FT, cands, P, wP, npat):
    """The weighted value_2 (= wins_2 of each guess alone) of each guess position in ``cands`` on the
    rows P (in decreasing weight ``wP``)."""
    words = (npat + 63) // 64
    bits, count, cols, _, _ = scratch(npat, 1)
    out = np.empty(cands.shape[0], dtype=np.int64)
    for lo in range(0, cands.shape[0], BLOCK):
        nb = min(BLOCK, cands.shape[0] - lo)
        for t in range(nb):
            cols[t] = cands[lo + t]
        _wcount_at(FT, P, wP, cols, nb, words, bits, count)
        for t in range(nb):
            out[lo + t] = count[t]
    return out


def by_weight(w: np.ndarray) -> np.ndarray:
    """Positions of ``w`` by decreasing weight, ties in order (the order every weighted kernel reads)."""
    return np.argsort(-np.asarray(w, dtype=np.int64), kind="stable").astype(np.int64)
