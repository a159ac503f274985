"""The scan over guesses of a node of the fewest-guesses search (:mod:`exact.wordle.fewest.kernels`):
the allowed guesses whose guess bound is below a limit, in scan order (:func:`candidates`), the split
of a set by a guess (:func:`_split_into`), the sum of a guess's class bounds (:func:`class_bound_sum`,
under the hard-mode rule after each pattern, :func:`rule_after`), and the look-ahead bound made from that
scan (:func:`lookahead`). The guess bound and the look-ahead are argued in
:mod:`exact.wordle.fewest.lower_bounds`; data types as in :mod:`exact.wordle.fewest.kernels`.
"""

from __future__ import annotations

import numba
import numpy as np

from exact.game.hard import add_feedback, allows, shortest_clue_list
from exact.wordle.fewest.lower_bounds import heaviest, node_bound, times
from exact.wordle.fewest.memo import INF, memo_find, memo_key, memo_store, sat


@numba.njit(cache=True, nogil=True)
def _split_into(F, g, T, npat, members, start, size, fill):
    """The members of T grouped by the pattern of guess g (order kept) into buffers given by the caller
    (no allocation): members[:n], the start of each pattern's members, their count (fill: scratch)."""
    n = T.shape[0]
    size[:] = 0
    for i in range(n):
        size[F[g, T[i]]] += 1
    start[0] = 0
    for p in range(npat):
        start[p + 1] = start[p] + size[p]
        fill[p] = start[p]
    for i in range(n):
        p = F[g, T[i]]
        members[fill[p]] = T[i]
        fill[p] += 1


@numba.njit(cache=True, nogil=True)
def candidates(ctx, T, t, greens, least, limit):
    """Allowed guesses whose guess bound is below ``limit``, in scan order, with those bounds, and
    the least guess bound of the others (INF if none)."""
    F, cost, hard, codes, counts, FT = ctx.feedback, ctx.cost, ctx.hard, ctx.codes, ctx.counts, ctx.feedback_t
    G = F.shape[0]
    n = T.shape[0]
    npat = 3 ** codes.shape[1]
    green = npat - 1
    c0, c1, c2 = cost[t], cost[t + 1], cost[t + 2]
    seen = np.zeros(npat, dtype=np.int64)
    size = np.zeros(npat, dtype=np.int64)
    touched = np.empty(npat, dtype=np.int64)
    lo, hi = shortest_clue_list(ctx.clues, greens, least) if hard else (np.int64(-1), np.int64(-1))
    scanned = hi - lo if lo >= 0 else G  # in hard mode the guesses the rule may allow, in row order
    cand = np.empty(scanned, dtype=np.int64)
    lbs = np.empty(scanned, dtype=np.int64)
    sq = np.empty(scanned, dtype=np.int64)
    m = 0
    rest = INF
    top = heaviest(ctx, T)  # the guess bound with weights: top(h) c[t] + (top(k) - top(h)) c[t+1] + ...
    W = top[n]
    for j in range(scanned):
        g = ctx.clues.rows[lo + j] if lo >= 0 else j
        if hard and not allows(greens, least, codes[g], counts[g]):
            continue
        k = 0
        stamp = g + 1
        for i in range(n):
            p = FT[T[i], g]  # answer-major: consecutive guesses share cache lines
            if seen[p] != stamp:
                seen[p] = stamp
                size[p] = 0
                touched[k] = p
                k += 1
            size[p] += 1
        h = 1 if seen[green] == stamp else 0
        if k == 1 and h == 0:
            continue  # tells nothing
        lb = times(top[h], c0)
        lb = sat(lb + (top[k] - top[h]) * c1) if c1 < INF or k - h == 0 else INF
        if W - top[k] > 0:
            lb = sat(lb + (W - top[k]) * c2) if c2 < INF else INF
        if lb >= limit:
            if lb < rest:
                rest = lb
            continue
        s2 = 0
        for r in range(k):
            s2 += size[touched[r]] * size[touched[r]]
        cand[m] = g
        lbs[m] = lb
        sq[m] = s2
        m += 1
    order, bounds = _scan_order(cand[:m], lbs[:m], sq[:m], G)
    return order, bounds, rest


@numba.njit(cache=True, nogil=True)
def _bits(x):
    b = 0
    while x > 0:
        x >>= 1
        b += 1
    return b


@numba.njit(cache=True, nogil=True)
def _scan_order(cand, lbs, sq, G):
    """(cand, lbs) sorted by guess bound, then sum of squared class sizes, then guess row (cand is
    in row order): one sort of the three packed into an int64 when they fit, else two stable sorts."""
    m = cand.shape[0]
    if m == 0:
        return cand, lbs
    lo = lbs.min()
    wl, ws, wg = _bits(lbs.max() - lo), _bits(sq.max()), _bits(G)
    if wl + ws + wg <= 62:
        key = np.empty(m, dtype=np.int64)
        for j in range(m):
            key[j] = (((lbs[j] - lo) << (ws + wg)) | (sq[j] << wg)) | cand[j]
        key.sort()
        out = np.empty(m, dtype=np.int64)
        outl = np.empty(m, dtype=np.int64)
        mask = (np.int64(1) << wg) - 1
        for j in range(m):
            out[j] = key[j] & mask
            outl[j] = (key[j] >> (ws + wg)) + lo
        return out, outl
    o1 = np.argsort(sq, kind="mergesort")
    o2 = np.argsort(lbs[o1], kind="mergesort")
    order = o1[o2]
    return cand[order], lbs[order]


@numba.njit(cache=True, nogil=True)
def lookahead(ctx, memo, T, t, greens, least, beta):
    """A lower bound on cost(T, t) one guess deeper than :func:`node_bound`, stored in the memo.

    Every allowed guess g costs at least the sum, over its classes, of their bounds
    (:func:`node_bound`, the green class c[t]); and at least its guess bound. So the least over
    every guess of the larger of the two is a lower bound of the node. Guesses are taken in
    increasing guess bound (the order of :func:`candidates`) and the scan stops at the first whose
    guess bound is not below the least sum found: every guess after it is no lower. Guesses whose
    guess bound is >= ``beta`` are not summed (their guess bound counts), so the result is exact as
    a bound, capped where it stops mattering: it is min(true bound, something >= beta).
    """
    F, codes = ctx.feedback, ctx.codes
    n = T.shape[0]
    lb = node_bound(ctx, memo, T, t, greens, least)
    if n < 3 or lb >= beta or lb >= INF:
        return lb
    h = memo_key(ctx, T, t, greens, least)
    i = memo_find(ctx, memo, h, T, t, greens, least)
    if i >= 0 and memo.exact[i]:
        return memo.value[i]
    npat = 3 ** codes.shape[1]
    cand, lbs, rest = candidates(ctx, T, t, greens, least, beta)
    best = rest
    members = np.empty(n, dtype=np.int64)
    start = np.empty(npat + 1, dtype=np.int64)
    size = np.empty(npat, dtype=np.int64)
    fill = np.empty(npat, dtype=np.int64)
    pend = np.empty(npat, dtype=np.int64)  # class_bound_sum's list of the larger classes (unread here)
    pbound = np.empty(npat, dtype=np.int64)
    for j in range(cand.shape[0]):
        if lbs[j] >= best:
            break
        g = cand[j]
        _split_into(F, g, T, npat, members, start, size, fill)
        total, _ = class_bound_sum(ctx, memo, g, t, greens, least, best, members, start, size, pend, pbound)
        best = min(best, max(total, lbs[j]))
    v = max(lb, best)
    memo_store(ctx, memo, h, T, t, greens, least, v, False, np.int64(-1))
    return v


# inlined (numba IR): these two run once per class and per guess of every node; as calls they cost
# about 3 % of a hard-mode solve (nyt2023 tarse, paired runs), inlined nothing measurable
@numba.njit(cache=True, nogil=True, inline="always")
def rule_after(ctx, greens, least, g, p):
    """The hard-mode constraint after guess row g scored pattern p (normal mode: unchanged)."""
    if ctx.hard:
        return add_feedback(greens, least, ctx.codes[g], p)
    return greens, least


@numba.njit(cache=True, nogil=True, inline="always")
def class_bound_sum(ctx, memo, g, t, greens, least, guess_beta, members, start, size, pend, pbound):
    """(the sum of the lower bounds of guess row g's classes at step t + 1, the number m of classes of
    three or more, listed in pend[:m] with their bounds in pbound[:m]), the classes being the split of
    T in (members, start, size); the sum stops growing once it reaches guess_beta (the guess fails)."""
    npat = 3 ** ctx.codes.shape[1]
    total = np.int64(0)
    m = 0
    for p in range(npat):
        s = size[p]
        if s == 0:
            continue
        if p == npat - 1:  # the green class: g itself, named at step t
            total = sat(total + times(ctx.weight[ctx.row_answer[g]], ctx.cost[t]))
        else:
            g2, l2 = rule_after(ctx, greens, least, g, p)
            b = node_bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2)
            total = sat(total + b)
            if s >= 3:
                pend[m] = p
                pbound[m] = b
                m += 1
        if total >= guess_beta:
            break
    return total, m
