"""The numba kernels of the depth-k DP (:mod:`exact.wordle.wins.dp`): wins_2 of a class, value_3 of a guess.

Data types (as in :mod:`exact.wordle.wins.dp`): ``F`` the feedback matrix (guesses x answers); a *set* is a
sorted int64 array of answer columns; ``caps[g]`` how many classes guess g makes on the node's set;
``hm`` the hard-mode rule at the node, a :class:`~exact.game.hard.HardMode` record (its ``on``
False: normal mode).

Pruning, and why it is valid (every bound is an upper bound on the exact value it stands for):

- wins_2(P) <= min(|P|, caps[g]) for the guesses g not yet scanned (the scan stops there);
- *feature caps*: a class P of guess h (pattern p) on a node's answers N lies inside N & S for every
  *feature set* S that p implies (:func:`exact.wordle.wins.features.class_features`: "answer[i] = c",
  "c in answer and answer[i] != c", "c not in answer"), and the classes of a guess g on P number at
  most its classes on N & S (P is a subset of it); so, at a node whose feature caps are counted
  (:func:`exact.wordle.wins.features.feature_caps` on N: the root, and with the staged search every
  node of enough answers), wins_2(P) counts only the guesses whose min(caps[g], classes of g on N & S
  for each feature set S of P) beats the best count found so far;
- wins_k(P) <= |P|, and wins_2(P) <= min(|P|, the largest cap); with a node's feature maxima
  (``most``), wins_2(P) <= most[S] for every feature set S of P;
- with ``tight``, wins_2(P) asked to reach ``need`` counts only the guesses whose bound reaches it:
  the others' bounds (each below need) stand for them in the bound returned when none reaches it;
- a guess is abandoned (value_k(g, T) reported as a bound < threshold) once the exact values of its
  classes so far plus the bounds of the rest fall below the threshold.
"""

from __future__ import annotations

import numba
import numpy as np

from exact._kernels import popcount
from exact.game.hard import HardMode, add_feedback
from exact.wordle.wins.classmemo import find, known, new_memo, put
from exact.wordle.wins.features import class_features


# --- numba kernels: wins_2 of a class, value_3 of a guess ---------------------------------------
#
# The kernels work on a *node matrix* ``FT``: the feedback of every guess on the node's answers,
# transposed (answers x guesses) with the guesses in decreasing cap order, so that scanning guesses
# for one class reads each of its answers' rows sequentially, in cache-sized blocks. ``caps`` is
# non-increasing along that order; ``codes``/``counts`` (hard mode) follow the same order.
#
# Counting the classes of a block of guesses on a class P is branch-free: every answer of P ORs one
# bit (its pattern) into each guess's seen-pattern bitset (``words`` x 64 bits), then one popcount
# per bitset word gives the class counts. (The previous kernel, which tested each bit before setting
# it, is kept in :mod:`exact.bench.dp_baseline` as the benchmark's baseline.)

BLOCK = 512  # guesses counted together: their bitsets (512 x 4 x 8 bytes = 16 KiB) stay in L1
#: Classes smaller than this are scanned without feature caps (filtering costs more than it saves).
FEATURE_MIN = 8
FIRST_BLOCK = 64  # the first block is small: a class is often split into singletons there
#: The first block of :func:`wins2` with feature sets: the guesses after it are bounded by their feature
#: caps against this block's best count, and a larger block's higher best leaves fewer to bound and count
FIRST_FEATURED = 256


@numba.njit(cache=True, nogil=True, inline="always")
def _ones(bits, lo, hi):
    """The set bits of the bitset words bits[lo:hi]."""
    c = np.uint64(0)
    for w in range(lo, hi):
        c += popcount(bits[w])
    return np.int64(c)


def bitset_words(npat: int) -> int:
    """64-bit words per seen-pattern bitset."""
    return (npat + 63) // 64


@numba.njit(cache=True, nogil=True)
def _count_block(FT, P, lo, hi, words, bits, count):
    """count[j - lo] = how many classes guess j makes on the answers P, for lo <= j < hi."""
    nb = hi - lo
    for w in range(words * nb):
        bits[w] = 0
    one = np.uint64(1)
    for i in range(P.shape[0]):
        row = FT[P[i], lo:hi]
        for j in range(nb):
            p = np.int64(row[j])
            bits[words * j + (p >> 6)] |= one << np.uint64(p & 63)
    for j in range(nb):
        count[j] = _ones(bits, words * j, words * j + words)


@numba.njit(cache=True, nogil=True)
def _count_at(FT, P, cols, nb, words, bits, count):
    """count[t] = how many classes the guess at position cols[t] makes on the answers P, t < nb."""
    for w in range(words * nb):
        bits[w] = 0
    one = np.uint64(1)
    for i in range(P.shape[0]):
        row = FT[P[i]]
        for t in range(nb):
            p = np.int64(row[cols[t]])
            bits[words * t + (p >> 6)] |= one << np.uint64(p & 63)
    for t in range(nb):
        count[t] = _ones(bits, words * t, words * t + words)


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
    """The guess positions the hard-mode constraint allows, in order: those with every green letter in
    its place and at least ``least[x]`` copies of every letter x. With no green and no letter required
    (a class that has shown nothing yet) every position, without a test; otherwise each guess is tested
    against the few greens and letters the constraint holds (listed once, as plain index loops)."""
    places = np.empty(greens.shape[0], dtype=np.int64)
    npl = 0
    for i in range(greens.shape[0]):
        if greens[i] >= 0:
            places[npl] = i
            npl += 1
    letters = np.empty(least.shape[0], dtype=np.int64)
    nl = 0
    for x in range(least.shape[0]):
        if least[x] > 0:
            letters[nl] = x
            nl += 1
    n = codes.shape[0]
    keep = np.empty(n, dtype=np.int64)
    if npl == 0 and nl == 0:
        for j in range(n):
            keep[j] = j
        return keep
    m = 0
    for j in range(n):
        ok = True
        for t in range(npl):
            if np.int64(codes[j, places[t]]) != np.int64(greens[places[t]]):
                ok = False
                break
        if ok:
            for t in range(nl):
                if np.int64(counts[j, letters[t]]) < np.int64(least[letters[t]]):
                    ok = False
                    break
        if ok:
            keep[m] = j
            m += 1
    return keep[:m]


@numba.njit(cache=True, nogil=True)
def _scan(FT, P, caps, need, words, bits, count):
    """(wins_2(P) or a bound < need, exact?) in normal mode with no feature set: guesses in blocks
    in cap order (contiguous columns), stopping once caps <= best."""
    s = P.shape[0]
    if s <= 2:
        return s, s >= need
    best = 0
    lo = 0
    end = caps.shape[0]
    while lo < end:
        bound = min(caps[lo], s)
        if bound <= best:
            break
        if bound < need:
            return bound, False
        hi = min(lo + (FIRST_BLOCK if lo == 0 else BLOCK), end)
        _count_block(FT, P, lo, hi, words, bits, count)
        for t in range(hi - lo):
            if count[t] > best:
                best = count[t]
        if best == s:
            break
        end = _first_at_most(caps, best, hi)
        lo = hi
    return best, best >= need


@numba.njit(cache=True, nogil=True)
def wins2(FT, P, caps, need, words, hm, fcaps, fidx, nf, work, tight):
    """(wins_2(P) or a bound < need, exact?), counting guesses in blocks.

    With no feature set in normal mode, :func:`_scan`. Otherwise: first the FIRST_BLOCK allowed
    guesses of highest cap (FIRST_FEATURED with feature sets); then, in order, every other allowed
    guess whose bound (:func:`_bounded`) beats the best count found so far, and with ``tight`` need
    - 1 too (a guess that cannot reach ``need`` is then not counted: its bound, below need, stands
    for it); guesses whose bound falls to the best as it grows are skipped. In hard mode only the
    allowed guesses count (a sub-sequence of the order: caps still non-increasing). ``fcaps[f, j]``:
    the classes of the guess at position j on feature set f of the node's answers (columns in the
    node's order). ``work`` holds the scratch arrays (:func:`scratch`).
    """
    bits, count, cols, cand, ccap = work
    hard = hm.on
    if nf == 0 and not hard:
        return _scan(FT, P, caps, need, words, bits, count)
    s = P.shape[0]
    if s <= 2:
        return s, s >= need
    if min(caps[0], s) < need:
        return min(caps[0], s), False
    js = _allowed_positions(hm.greens, hm.least, hm.codes, hm.counts) if hard else cand[:0]
    na = js.shape[0] if hard else caps.shape[0]
    nb = min(FIRST_FEATURED if nf > 0 else FIRST_BLOCK, na)
    if hard:
        for t in range(nb):
            cols[t] = js[t]
        _count_at(FT, P, cols, nb, words, bits, count)
    else:
        _count_block(FT, P, 0, nb, words, bits, count)
    best = 0
    for t in range(nb):
        if count[t] > best:
            best = count[t]
    if best == s:
        return best, True
    level = max(best, need - 1) if tight else best
    m, top, dropped = _bounded(caps, s, level, nb, na, js, hard, fcaps, fidx, nf, cand, ccap)
    if max(top, best, dropped) < need:
        return max(top, best, dropped), False
    i = 0
    while i < m:
        nb = 0
        while i < m and nb < BLOCK:
            if ccap[i] > best:
                cols[nb] = cand[i]
                nb += 1
            i += 1
        _count_at(FT, P, cols, nb, words, bits, count)
        for t in range(nb):
            if count[t] > best:
                best = count[t]
        if best == s:
            break
    if best >= need:
        return best, True
    return max(best, dropped), False


@numba.njit(cache=True, nogil=True)
def _bounded(caps, s, level, nb, na, js, hard, fcaps, fidx, nf, cand, ccap):
    """(m, top, dropped): the allowed guesses after the first block whose bound min(|P| = s, its
    cap, its feature caps ``fcaps[fidx[f], j]`` for f < nf) exceeds ``level``, written in order to
    cand[:m] with their bounds in ccap[:m]; top, the largest of those bounds (0 if none); dropped,
    the largest bound of the others (each at most level).

    The guesses with cap above level are listed first (caps are non-increasing: no later guess
    exceeds it; the first later one bounds them all), then each feature's caps are applied one
    feature at a time, reading its row in order."""
    m = 0
    dropped = 0
    if hard:
        for t in range(nb, na):
            if caps[js[t]] <= level:
                dropped = min(caps[js[t]], s)
                break
            cand[m] = js[t]
            ccap[m] = min(caps[js[t]], s)
            m += 1
    else:
        end = _first_at_most(caps, level, nb)
        if end < na:
            dropped = min(caps[end], s)
        for t in range(nb, end):
            cand[m] = t
            ccap[m] = min(caps[t], s)
            m += 1
    for f in range(nf):
        row = fcaps[fidx[f]]
        if hard:
            for i in range(m):
                c = np.int64(row[cand[i]])
                if c < ccap[i]:
                    ccap[i] = c
        else:  # the same, read as a run: cand[:m] is nb, nb + 1, ...
            for i in range(m):
                c = np.int64(row[nb + i])
                if c < ccap[i]:
                    ccap[i] = c
    n = 0
    top = 0
    for i in range(m):
        if ccap[i] > level:
            cand[n] = cand[i]
            ccap[n] = ccap[i]
            n += 1
            top = max(top, ccap[i])
        else:
            dropped = max(dropped, ccap[i])
    return n, top, dropped


@numba.njit(cache=True, nogil=True)
def scratch(npat, guesses):
    """The scratch arrays of :func:`wins2` (one set per thread): bitsets, counts, the block's
    positions, the candidates and their bounds."""
    words = (npat + 63) // 64
    return (np.empty(words * BLOCK, dtype=np.uint64), np.empty(BLOCK, dtype=np.int64),
            np.empty(BLOCK, dtype=np.int64), np.empty(guesses, dtype=np.int64),
            np.empty(guesses, dtype=np.int64))


@numba.njit(cache=True, nogil=True)
def _split(FT, j, npat, size, members):
    """The classes of guess j on the node's answers, largest first (ties by pattern).

    Fills ``size`` (per pattern) and ``members`` (rows grouped by class); returns (patterns, start):
    class i is pattern ``patterns[i]`` with rows ``members[start[i]:start[i + 1]]``.
    """
    n = FT.shape[0]
    for p in range(npat):
        size[p] = 0
    for r in range(n):
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
    for r in range(n):
        p = FT[r, j]
        members[where[p]] = r
        where[p] += 1
    return patterns, start


@numba.njit(cache=True, nogil=True)
def _class_bound(s, top, guess, p, FEAT, most, fidx):
    """An upper bound on wins_2 of a class of s answers (pattern p of ``guess``) before any scan:
    min(s, top), and with ``most`` (the feature maxima of a featured node) each ``most[f]`` for the
    feature sets f of the class (:func:`class_features`; only for classes of FEATURE_MIN answers or
    more, where it can bite)."""
    b = min(s, top)
    if most.shape[0] == 0 or s < FEATURE_MIN:
        return b
    for t in range(class_features(guess, p, FEAT, fidx)):
        b = min(b, np.int64(most[fidx[t]]))
    return b


@numba.njit(cache=True, nogil=True)
def _class_wins2(FT, j, p, Q, caps, need, words, hm, fcaps, FEAT, featured, tight, work, fidx, memo):
    """(wins_2 of the class Q, pattern p of the guess at position j, or a bound < need, exact?):
    scanned with the class's feature sets (``featured``, classes of FEATURE_MIN answers or more), in
    hard mode under the rule after p; with ``tight``, answered from and recorded in the node's memo
    of classes (:mod:`exact.wordle.wins.classmemo`) when of FEATURE_MIN answers or more, keyed by the
    class and, in hard mode, the rule after p (:func:`_class_key`)."""
    s = Q.shape[0]
    below = hm
    if hm.on:
        g2, l2 = add_feedback(hm.greens, hm.least, hm.codes[j], p)
        below = HardMode(hm.on, g2, l2, hm.codes, hm.counts)
    remember = tight and s >= FEATURE_MIN
    key = _class_key(Q, below) if remember else Q
    slot, found = find(memo, key) if remember else (0, False)
    if remember and known(memo, slot, found, need):
        v = memo.values[slot]
        return v, memo.exact[slot] and v >= need
    nf = class_features(hm.codes[j], p, FEAT, fidx) if featured and s >= FEATURE_MIN else 0
    if nf == 0 and not hm.on:
        v, ok = _scan(FT, Q, caps, need, words, work[0], work[1])
    else:
        v, ok = wins2(FT, Q, caps, need, words, below, fcaps, fidx, nf, work, tight)
    if remember:
        put(memo, slot, found, key, v, ok)
    return v, ok


@numba.njit(cache=True, nogil=True)
def _class_key(Q, below):
    """What wins_2 of a class depends on: its rows (sorted) in normal mode; in hard mode its rows, then
    the rule after its pattern (greens, then least: a fixed length, so two keys are equal exactly when
    both the rows and the rule are), since wins_2 under hard mode is the most classes an allowed guess
    makes on Q (each won by the last guess, always allowed: an answer of Q satisfies every rule its
    feedback implies), and which guesses are allowed depends on the rule alone."""
    if not below.on:
        return Q
    n, L = Q.shape[0], below.greens.shape[0]
    key = np.empty(n + L + below.least.shape[0], dtype=Q.dtype)
    key[:n] = Q
    key[n:n + L] = below.greens
    key[n + L:] = below.least
    return key


@numba.njit(cache=True, nogil=True)
def value3(FT, j, caps, threshold, npat, words, hm, fcaps, FEAT, featured, most, tight, work, size, members, fidx,
           ub, memo):
    """(value_3(guess j) or a bound < threshold, exact?): classes largest first, wins_2 each
    (:func:`_class_wins2`).

    The bound: exact wins_2 of the classes done + the bound of :func:`_class_bound` for each class
    left (caps[0], the most classes any guess makes on the node, bounds wins_2 of every subset; with
    ``most``, the most classes any guess makes on a feature set bounds wins_2 of every class inside it;
    the all-green class counts 1). ``ub`` is scratch for those bounds, one per class.
    """
    green = npat - 1
    patterns, start = _split(FT, j, npat, size, members)
    top = caps[0]
    rest = 0
    for i in range(patterns.shape[0]):
        p = patterns[i]
        if p == green or size[p] <= 2:
            ub[i] = size[p]
        else:
            ub[i] = _class_bound(size[p], top, hm.codes[j], p, FEAT, most, fidx)
        rest += ub[i]
    total = 0
    for i in range(patterns.shape[0]):
        p = patterns[i]
        s = size[p]
        rest -= ub[i]
        if p == green:
            total += 1
            continue
        if s <= 2:
            total += s
            continue
        need = threshold - total - rest
        if ub[i] < need:
            return total + ub[i] + rest, False
        v, ok = _class_wins2(FT, j, p, members[start[i]:start[i + 1]], caps, need, words, hm, fcaps, FEAT, featured,
                             tight, work, fidx, memo)
        total += v
        if not ok:
            return total + rest, False
    return total, total >= threshold


@numba.njit(cache=True, parallel=True)
def values3(FT, cands, caps, threshold, raising, keep, threads, npat, hm, fcaps, FEAT, featured, most, tight):
    """value_3 of each candidate guess (a position in the node's order), in parallel.

    Each value is exact or a bound below the threshold in force for it: ``threshold``, or, with
    ``raising`` 1 (2), the largest of ``threshold`` and the best exact value found so far by any
    thread + 1 (+ 0, so that ties stay exact). Threads share that best in a one-cell array without
    locks: a thread may read a stale (smaller) best, which only prunes less, and every threshold
    it reads is some candidate's exact value (+1), so a pruned candidate is never above the best
    exact value returned. With ``threads`` = T, thread t takes candidates t, t + T, t + 2T, ... so
    that every thread starts on the best-ranked ones.

    With ``keep`` = K > 0 (the root's top-K list), each thread also raises its threshold to the K-th
    best exact value it has found itself (a row of its own: no sharing). Those are K exact values
    of distinct candidates, so that K-th best is at most the final K-th best: a candidate pruned
    below it is strictly below the final K-th best and can be neither in the top K nor optimal.

    ``most``: the node's feature maxima (the classes of each candidate bounded by them before any
    scan, :func:`_class_bound`), or empty for none; ``tight``: wins_2 counts no guess that cannot
    reach its need (:func:`wins2`), and each thread remembers wins_2 of the classes it meets at the
    node (:mod:`exact.wordle.wins.classmemo`; in hard mode with the rule after each class's pattern).
    """
    n = cands.shape[0]
    values = np.empty(n, dtype=np.int64)
    exact = np.empty(n, dtype=np.bool_)
    words = (npat + 63) // 64
    best = np.full(1, -1, dtype=np.int64)
    nt = min(threads, max(n, 1))
    mine = np.full((nt, max(keep, 1)), -1, dtype=np.int64)  # each thread's own top-K, descending
    for t in numba.prange(nt):
        work = scratch(npat, caps.shape[0])
        size = np.empty(npat, dtype=np.int64)
        members = np.empty(FT.shape[0], dtype=np.int64)
        fidx = np.empty(hm.codes.shape[1], dtype=np.int64)
        ub = np.empty(npat, dtype=np.int64)
        memo = new_memo() if tight else new_memo(1, 0)  # one slot: remembers nothing
        for i in range(t, n, nt):
            th = threshold
            if raising > 0 and best[0] >= 0:
                th = max(threshold, best[0] + (1 if raising == 1 else 0))
            if keep > 0 and mine[t, keep - 1] > th:
                th = mine[t, keep - 1]
            v, ok = value3(FT, cands[i], caps, th, npat, words, hm, fcaps, FEAT, featured, most, tight, work,
                           size, members, fidx, ub, memo)
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


@numba.njit(cache=True, parallel=True)
def node_matrix(F, order, T):
    """FT[r, j] = F[order[j], T[r]]: the node's answers x its guesses in cap order."""
    FT = np.empty((T.shape[0], order.shape[0]), dtype=F.dtype)
    for j in numba.prange(order.shape[0]):
        g = order[j]
        for r in range(T.shape[0]):
            FT[r, j] = F[g, T[r]]
    return FT


@numba.njit(cache=True, parallel=True)
def class_caps(F, T, npat):
    """caps[g] = how many classes guess g makes on T."""
    caps = np.empty(F.shape[0], dtype=np.int64)
    for g in numba.prange(F.shape[0]):
        seen = np.zeros(npat, dtype=np.bool_)
        c = 0
        for i in range(T.shape[0]):
            p = F[g, T[i]]
            if not seen[p]:
                seen[p] = True
                c += 1
        caps[g] = c
    return caps
