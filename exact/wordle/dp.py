"""The exact dynamic programme: the most answers a strategy can win within k guesses.

For a set T of candidate answers and k guesses left,

    wins_0(T) = 0,    wins_k(T) = max over allowed g of value_k(g, T),
    value_k(g, T) = sum over the classes P of g on T of wins_{k-1}(P),

where the all-green class {g} (g in T) counts 1: it is won at this guess (and wins_{k-1}({g}) = 1
for k >= 2, so it is the same formula). So wins_1(T) = 1 for non-empty T (answers must be guesses),
wins_2(T) = the most classes one guess makes on T, and wins_k(T) <= |T|.

Data types:

- ``F``: the feedback matrix (guesses x answers, :mod:`exact.partitions`); guesses and answers are
  row and column indices; a *set* T is a sorted int64 array of answer columns;
- ``caps[g]``: how many classes guess g makes on a set S; for every subset P of S it bounds the
  classes of g on P, so scanning guesses by decreasing cap can stop once the cap is no better than
  the best count found (``order``: guesses by decreasing cap, ties by list order);
- a *hard-mode constraint* (``greens``, ``least``) as in :mod:`exact.wordle.hard`; ``hard`` False
  ignores it;
- a value comes with a flag ``exact``: False means the search stopped early because even an upper
  bound (the returned number) could not reach the threshold it was asked to reach.

Pruning, and why it is valid (every bound is an upper bound on the exact value it stands for):

- wins_2(P) <= min(|P|, caps[g]) for the guesses g not yet scanned (the scan stops there);
- *feature caps*: a class P of guess h (pattern p) lies inside every *feature set* that p implies
  (:func:`class_features`: "answer[i] = c", "c in answer and answer[i] != c", "c not in answer"),
  and the classes of a guess g on P number at most its classes on such a set S (P is a subset of
  S); so, at the root node, wins_2(P) counts only the guesses whose min(caps[g], classes of g on
  each feature set of P) beats the best count found so far (:func:`feature_caps` counts them once
  per instance);
- wins_k(P) <= |P|, and wins_2(P) <= min(|P|, the largest cap);
- a guess is abandoned (value_k(g, T) reported as a bound < threshold) once the exact values of its
  classes so far plus the bounds of the rest fall below the threshold.

Tie-break of the tree (:func:`best_tree`): at every node the guess of highest value; among equals,
a guess that is itself a candidate answer (it may win at once), then the earliest in the guess list.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"])
>>> r = solve(A, A, depth=2, progress=False)
>>> r.wins, r.status, r.optimal_first, r.top[-1]
(6, 'OPTIMAL', ['abide', 'cable'], ('cabin', 4))
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic

from exact import stop
from exact.errors import ExactError
from exact.feedback import encode, format_pattern, pattern_count
from exact.partitions import feedback_matrix, split_by_guess
from exact.wordle.hard import add_feedback, letter_counts
from exact.wordle.tree import Tree
from exact.words import WordList, check_answers_are_guesses, list_name, require_in_pool

#: First guesses evaluated per parallel batch at the root (the threshold is raised between batches);
#: the first batch is small, so that a threshold (the 10th best so far) is in force early.
BATCH = 256
#: Seconds a kernel call at the root aims at (a Ctrl-C waits for the call to end).
PIECE_SECONDS = 0.5
FIRST_BATCH = 16


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
# it, is kept in :mod:`exact.wordle.dp_baseline` as the benchmark's baseline.)

BLOCK = 512  # guesses counted together: their bitsets (512 x 4 x 8 bytes = 16 KiB) stay in L1
#: Classes smaller than this are scanned without feature caps (filtering costs more than it saves).
FEATURE_MIN = 8
FIRST_BLOCK = 64  # the first block is small: a class is often split into singletons there


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@numba.njit(cache=True, nogil=True, inline="always")
def _ones(bits, lo, hi):
    """The set bits of the bitset words bits[lo:hi]."""
    c = np.uint64(0)
    for w in range(lo, hi):
        c += _popcount(bits[w])
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
def _wins2(FT, P, caps, need, words, hard, greens, least, codes, counts, order, fcaps, fidx, nf, work):
    """(wins_2(P) or a bound < need, exact?), counting guesses in blocks.

    With no feature set in normal mode, :func:`_scan`. Otherwise: first the FIRST_BLOCK allowed
    guesses of highest cap; then, in order, every other allowed guess whose bound, min(|P|, its cap,
    its feature caps ``fcaps[fidx[f], order[j]]`` for f < nf), beats the best count found so far
    (guesses whose bound falls to that best as it grows are skipped). In hard mode only the allowed
    guesses count (a sub-sequence of the order: caps still non-increasing). ``work`` holds the
    scratch arrays (:func:`_scratch`).
    """
    bits, count, cols, cand, ccap = work
    if nf == 0 and not hard:
        return _scan(FT, P, caps, need, words, bits, count)
    s = P.shape[0]
    if s <= 2:
        return s, s >= need
    if min(caps[0], s) < need:
        return min(caps[0], s), False
    js = _allowed_positions(greens, least, codes, counts) if hard else cand[:0]
    na = js.shape[0] if hard else caps.shape[0]
    nb = min(FIRST_BLOCK, na)
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
    m = 0  # the other candidates, with their bounds
    top = best  # a bound on every count: the best so far, or a candidate's bound
    for t in range(nb, na):
        j = js[t] if hard else t
        c = caps[j]
        if c <= best:
            break  # caps are non-increasing: no later guess beats best
        c = min(c, s)
        g = order[j]
        for f in range(nf):
            c = min(c, np.int64(fcaps[fidx[f], g]))
        if c > best:
            cand[m] = j
            ccap[m] = c
            m += 1
            top = max(top, c)
    if top < need:
        return top, False
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
    return best, best >= need


@numba.njit(cache=True, nogil=True)
def _scratch(npat, guesses):
    """The scratch arrays of :func:`_wins2` (one set per thread): bitsets, counts, the block's
    positions, the candidates and their bounds."""
    words = (npat + 63) // 64
    return (np.empty(words * BLOCK, dtype=np.uint64), np.empty(BLOCK, dtype=np.int64),
            np.empty(BLOCK, dtype=np.int64), np.empty(guesses, dtype=np.int64),
            np.empty(guesses, dtype=np.int64))


# --- feature sets: what a pattern says about the answers of its class ----------------------------

#: Feature kinds: the answer has letter c at position i / has c, not at i / has no c.
GREEN, ELSEWHERE, ABSENT = 0, 1, 2


@numba.njit(cache=True, nogil=True)
def class_features(guess, p, FEAT, out):
    """Write into ``out`` the feature sets that every answer a with fb(guess, a) = p lies in; return
    how many. ``FEAT[kind, i, c]`` numbers the sets (:func:`feature_sets`).

    Why, by the rule (greens first, then left to right a non-green letter is yellow while the answer
    has an unused non-green copy of it): green at i means a[i] = guess[i]; yellow at i means
    a[i] != guess[i] (else green) and a holds guess[i]; gray at i of a letter c that is green or
    yellow nowhere in the guess means a holds no c (a green copy would be green in the guess, and a
    non-green copy would make the first non-green c of the guess yellow). A gray c that is green or
    yellow elsewhere in the guess says less, and gives no feature here.
    """
    L = guess.shape[0]
    m = 0
    q = p
    for i in range(L):
        colour = q % 3
        q //= 3
        c = guess[i]
        if colour == 2:
            out[m] = FEAT[GREEN, i, c]
            m += 1
        elif colour == 1:
            out[m] = FEAT[ELSEWHERE, i, c]
            m += 1
        else:
            seen = False
            r = p
            for k in range(L):
                if k != i and guess[k] == c and r % 3 > 0:
                    seen = True
                r //= 3
            if not seen:
                out[m] = FEAT[ABSENT, i, c]
                m += 1
    return m


def feature_sets(codes: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The feature sets of encoded answers: (FEAT, sets), ``sets[FEAT[kind, i, c]]`` = the answer
    columns with letter c at i (GREEN), holding c but not at i (ELSEWHERE), holding no c (ABSENT,
    the same set for every i)."""
    n, L = codes.shape
    has = np.zeros((n, 26), dtype=bool)
    for i in range(L):
        has[np.arange(n), codes[:, i]] = True
    FEAT = np.empty((3, L, 26), dtype=np.int64)
    sets = []
    for i in range(L):
        for c in range(26):
            FEAT[GREEN, i, c] = len(sets)
            sets.append(np.flatnonzero(codes[:, i] == c))
            FEAT[ELSEWHERE, i, c] = len(sets)
            sets.append(np.flatnonzero((codes[:, i] != c) & has[:, c]))
    for c in range(26):
        FEAT[ABSENT, :, c] = len(sets)
        sets.append(np.flatnonzero(~has[:, c]))
    return FEAT, [np.asarray(S, dtype=np.int64) for S in sets]


@numba.njit(cache=True, parallel=True)
def _set_caps(F, starts, members, nsets, npat):
    """caps[f, g] = the classes of guess g on set f; answer a lies in the sets
    ``members[starts[a]:starts[a + 1]]``."""
    words = (npat + 63) // 64
    caps = np.empty((nsets, F.shape[0]), dtype=np.int16)
    one = np.uint64(1)
    for g in numba.prange(F.shape[0]):
        bits = np.zeros(nsets * words, dtype=np.uint64)
        for a in range(F.shape[1]):
            p = np.int64(F[g, a])
            for t in range(starts[a], starts[a + 1]):
                bits[members[t] * words + (p >> 6)] |= one << np.uint64(p & 63)
        for f in range(nsets):
            caps[f, g] = np.int16(_ones(bits, f * words, f * words + words))
    return caps


def feature_caps(F: np.ndarray, codes: np.ndarray, npat: int) -> tuple[np.ndarray, np.ndarray]:
    """(FEAT, caps): caps[FEAT[kind, i, c], g] = how many classes guess row g makes on that feature
    set of the answers (``codes``: the encoded answers, the columns of F)."""
    FEAT, sets = feature_sets(codes)
    where = [[] for _ in range(codes.shape[0])]
    for f, S in enumerate(sets):
        for a in S:
            where[a].append(f)
    starts = np.zeros(codes.shape[0] + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(w) for w in where])
    members = np.array([f for w in where for f in w], dtype=np.int64)
    return FEAT, _set_caps(F, starts, members, len(sets), npat)


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
def _value3(FT, j, caps, threshold, npat, words, hard, greens, least, codes, counts, order, fcaps, FEAT,
            featured, work, size, members, fidx):
    """(value_3(guess j) or a bound < threshold, exact?): classes largest first, wins_2 each
    (with ``featured``, by the feature sets of each class of at least FEATURE_MIN answers,
    :func:`class_features`).

    The bound: exact wins_2 of the classes done + min(|P|, caps[0]) for each class left (caps[0],
    the most classes any guess makes on the node, bounds wins_2 of every subset; the all-green
    class counts 1).
    """
    green = npat - 1
    patterns, start = _split(FT, j, npat, size, members)
    top = caps[0]
    rest = 0
    for i in range(patterns.shape[0]):
        p = patterns[i]
        rest += min(size[p], top) if p != green else size[p]
    total = 0
    for i in range(patterns.shape[0]):
        p = patterns[i]
        s = size[p]
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
        nf = class_features(codes[j], p, FEAT, fidx) if featured and s >= FEATURE_MIN else 0
        if nf == 0 and not hard:
            v, ok = _scan(FT, members[start[i]:start[i + 1]], caps, need, words, work[0], work[1])
        else:
            v, ok = _wins2(FT, members[start[i]:start[i + 1]], caps, need, words, hard, g2, l2, codes,
                           counts, order, fcaps, fidx, nf, work)
        total += v
        if not ok:
            return total + rest, False
    return total, total >= threshold


@numba.njit(cache=True, parallel=True)
def _values3(FT, cands, caps, threshold, raising, keep, threads, npat, hard, greens, least, codes, counts,
             order, fcaps, FEAT, featured):
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
    """
    n = cands.shape[0]
    values = np.empty(n, dtype=np.int64)
    exact = np.empty(n, dtype=np.bool_)
    words = (npat + 63) // 64
    best = np.full(1, -1, dtype=np.int64)
    nt = min(threads, max(n, 1))
    mine = np.full((nt, max(keep, 1)), -1, dtype=np.int64)  # each thread's own top-K, descending
    for t in numba.prange(nt):
        work = _scratch(npat, caps.shape[0])
        size = np.empty(npat, dtype=np.int64)
        members = np.empty(FT.shape[0], dtype=np.int64)
        fidx = np.empty(codes.shape[1], dtype=np.int64)
        for i in range(t, n, nt):
            th = threshold
            if raising > 0 and best[0] >= 0:
                th = max(threshold, best[0] + (1 if raising == 1 else 0))
            if keep > 0 and mine[t, keep - 1] > th:
                th = mine[t, keep - 1]
            v, ok = _value3(FT, cands[i], caps, th, npat, words, hard, greens, least, codes, counts,
                            order, fcaps, FEAT, featured, work, size, members, fidx)
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
def _node_matrix(F, order, T):
    """FT[r, j] = F[order[j], T[r]]: the node's answers x its guesses in cap order."""
    FT = np.empty((T.shape[0], order.shape[0]), dtype=F.dtype)
    for j in numba.prange(order.shape[0]):
        g = order[j]
        for r in range(T.shape[0]):
            FT[r, j] = F[g, T[r]]
    return FT


@numba.njit(cache=True, parallel=True)
def _class_caps(F, T, npat):
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


# --- the problem and the recursion --------------------------------------------------------------

@dataclass
class WinsInstance:
    """A Wordle instance ready for the wins_k kernels (the fewest-guesses solver has its own,
    :class:`exact.wordle.guesses.GuessesInstance`)."""

    answers: WordList
    guesses: WordList
    F: np.ndarray
    hard: bool
    codes: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    npat: int
    in_answers: np.ndarray = field(repr=False)  # guess row -> answer column, or -1
    _features: tuple | None = field(default=None, repr=False)

    @property
    def green(self) -> int:
        return self.npat - 1

    def features(self) -> tuple[np.ndarray, np.ndarray]:
        """(FEAT, caps) of :func:`feature_caps` on the answers, computed on first use."""
        if self._features is None:
            with stop.held():  # see make_node
                self._features = feature_caps(self.F, encode(self.answers.words), self.npat)
        return self._features


def make_wins_instance(answers: WordList, guesses: WordList, hard: bool = False,
                       F: np.ndarray | None = None) -> WinsInstance:
    """Check the lists (same length, every answer a guess) and load the feedback matrix."""
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    codes = encode(guesses.words)
    in_answers = np.full(len(guesses), -1, dtype=np.int64)
    for j, a in enumerate(answers.words):
        in_answers[guesses.index[a]] = j
    return WinsInstance(answers, guesses, F, hard, codes, letter_counts(codes),
                    pattern_count(answers.length), in_answers)


Constraint = tuple[np.ndarray, np.ndarray]


@dataclass
class Node:
    """A set T of answers with its guesses in decreasing cap order and its node matrix."""

    T: np.ndarray
    order: np.ndarray  # guess rows, by decreasing number of classes on T, ties by list order
    caps: np.ndarray  # caps[j] = classes of guess order[j] on T (non-increasing)
    FT: np.ndarray = field(repr=False)  # FT[r, j] = F[order[j], T[r]]
    codes: np.ndarray = field(repr=False)  # encoded guesses, in the same order (hard mode)
    counts: np.ndarray = field(repr=False)

    def caps_by_row(self) -> np.ndarray:
        caps = np.empty_like(self.caps)
        caps[self.order] = self.caps
        return caps

    def positions(self, rows: np.ndarray) -> np.ndarray:
        where = np.empty_like(self.order)
        where[self.order] = np.arange(len(self.order))
        return where[np.asarray(rows, dtype=np.int64)]


def make_node(inst: WinsInstance, T: np.ndarray) -> Node:
    T = np.asarray(T, dtype=np.int64)
    with stop.held():  # a signal inside numba's parallel kernels crashes the process
        by_row = _class_caps(inst.F, T, inst.npat)
        order = np.lexsort((np.arange(len(by_row)), -by_row)).astype(np.int64)
        FT = _node_matrix(inst.F, order, T)
    return Node(T, order, by_row[order], FT, inst.codes[order], inst.counts[order])


def allowed_rows(inst: WinsInstance, rows: np.ndarray, rule: Constraint) -> np.ndarray:
    """The guess rows hard mode allows under ``rule`` (all of them in normal mode)."""
    if not inst.hard:
        return rows
    greens, least = rule
    ok = np.all((greens < 0) | (inst.codes[rows] == greens), axis=1)
    ok &= np.all(inst.counts[rows] >= least, axis=1)
    return rows[ok]


def split(inst: WinsInstance, g: int, T: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """[(pattern, class)] of guess g on T, largest class first (ties by pattern)."""
    pairs = list(split_by_guess(inst.F, g, T).items())
    pairs.sort(key=lambda pc: (-len(pc[1]), pc[0]))
    return pairs


class TimeUp(Exception):
    """The search's deadline (``Search.deadline``) has passed; the value being computed is lost."""


class Search:
    """The recursion for any k, with the kernels for k <= 3 and Python above that.

    :meth:`wins2` and :meth:`values3` are the two kernel entry points (the benchmark swaps in the
    baseline kernels of :mod:`exact.wordle.dp_baseline` by overriding them).
    """

    #: whether :meth:`values3` raises the threshold itself, candidate by candidate
    raises_inside = True

    def __init__(self, inst: WinsInstance):
        self.inst = inst
        self.root: Node | None = None
        self.last: Node | None = None
        self.deadline: float | None = None  # time.perf_counter() after which value() raises TimeUp

    def node(self, T: np.ndarray) -> Node:
        if len(T) == len(self.inst.answers):  # the root set is used again and again: keep it
            return self.root_node()
        if self.last is not None and self.last.T is T:  # asked twice in a row (wins above depth 3)
            return self.last
        self.last = make_node(self.inst, T)
        return self.last

    def root_node(self) -> Node:
        if self.root is None:
            self.root = make_node(self.inst, np.arange(len(self.inst.answers), dtype=np.int64))
        return self.root

    def after(self, rule: Constraint, g: int, pattern: int) -> Constraint:
        if not self.inst.hard:
            return rule
        return add_feedback(rule[0], rule[1], self.inst.codes[g], pattern)

    # kernel entry points
    def wins2(self, node: Node, P, need, rule):
        """wins_2 of the answers P (rows of the node's matrix), no feature sets (P is not a class)."""
        _, fcaps = self.no_features()
        work = _scratch(self.inst.npat, len(node.caps))
        return _wins2(node.FT, P, node.caps, need, bitset_words(self.inst.npat), self.inst.hard, rule[0],
                      rule[1], node.codes, node.counts, node.order, fcaps, np.zeros(0, dtype=np.int64), 0, work)

    def values3(self, node: Node, positions, threshold, rule, raising=0, keep=0):
        """value_3 at a node; feature caps only at the root (all answers): below it the node's own
        caps are already on a subset, and filtering by feature caps costs more than it saves."""
        featured = node is self.root
        FEAT, fcaps = self.inst.features() if featured else self.no_features()
        return _values3(node.FT, positions, node.caps, threshold, raising, keep, numba.get_num_threads(),
                        self.inst.npat, self.inst.hard,
                        rule[0], rule[1], node.codes, node.counts, node.order, fcaps, FEAT, featured)

    def no_features(self) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((3, self.inst.codes.shape[1], 26), dtype=np.int64), np.zeros((0, 0), dtype=np.int16)

    def separates(self, T: np.ndarray, rule: Constraint) -> bool:
        """Whether one allowed guess splits T into singletons (wins_2(T) = |T|), scanned on the
        root's node matrix (caps on all answers bound the classes on T), with no node for T."""
        root = self.root_node()
        v, _ = self.wins2(root, np.asarray(T, dtype=np.int64), len(T), rule)
        return int(v) == len(T)

    def wins(self, T: np.ndarray, k: int, rule: Constraint, need: int = 0) -> tuple[int, bool]:
        """(wins_k(T), True), or (a bound < need, False) when T cannot reach ``need``.

        Shortcuts keep large ``k`` cheap (see :func:`effective_depth`): wins_k(T) <= |T| < need
        is decided at once, and so are wins_k(T) = |T| for k >= |T| and, once wins_{k-1}(T) = |T|,
        wins_k(T) = |T| (wins never decreases with k). Above depth 3 only *useful*
        guesses are tried (:meth:`useful`), so every step of the recursion shrinks the set and it
        is at most |T| levels deep.
        """
        n = len(T)
        if need > n:
            return n, False  # wins_k(T) <= |T| < need
        if k == 0 or n == 0:
            value = 0
        elif k == 1:
            value = 1
        elif n <= 2 or k >= n:
            value = n  # guessing a candidate each time wins every answer within |T| guesses
        elif k == 2:
            node = self.node(T)
            v, ok = self.wins2(node, np.arange(n, dtype=np.int64), need, rule)
            return int(v), bool(ok)
        elif self.separates(T, rule):
            value = n  # a guess splits T into singletons: every answer is won
        elif k > 3 and self.wins(T, k - 1, rule)[0] == n:
            value = n  # wins_k >= wins_{k-1} = |T|: deeper depths are decided at once
        else:
            cands = None if k <= 3 else self.useful(T, rule)
            values, exact, _ = self.values(T, k, rule, need, cands=cands, first_pass=32)
            best = int(values.max()) if len(values) else 0
            return best, bool(exact[values == best].any()) if len(values) else need <= 0
        return value, value >= need

    def useful(self, T: np.ndarray, rule: Constraint) -> np.ndarray:
        """The allowed guesses (rows, in the node's order) except those that neither hit nor split T.

        Such a guess g leaves T whole, so value_k(g, T) = wins_{k-1}(T); and some useful guess
        reaches at least wins_{k-1}(T) (by induction on k: at k - 1 = 1 a candidate answer does),
        while value_k >= value_{k-1} guess by guess. So wins_k(T) is the maximum over useful
        guesses alone.
        """
        node = self.node(T)
        rows = allowed_rows(self.inst, node.order, rule)
        caps = node.caps_by_row()[rows]
        return rows[(caps > 1) | np.isin(self.inst.in_answers[rows], T)]

    def values(self, T: np.ndarray, k: int, rule: Constraint, threshold: int,
               cands: np.ndarray | None = None, first_pass: int = 0, strict: bool = False):
        """value_k(g, T) for the allowed candidates g (rows): (values, exact, cands).

        A value flagged not exact is a bound below the threshold in force for it: ``threshold``,
        raised (when ``first_pass`` > 0) to the best exact value found before it + 1 (or to the best
        exact value itself with ``strict``, so that every guess tying the best stays exact). The
        kernels raise it candidate by candidate; the baseline (and k > 3) after ``first_pass``.
        """
        node = self.node(T)
        if cands is None:
            cands = allowed_rows(self.inst, node.order, rule)
        values = np.zeros(len(cands), dtype=np.int64)
        exact = np.zeros(len(cands), dtype=bool)
        raising = (2 if strict else 1) if first_pass else 0
        if k == 3 and self.raises_inside:
            if len(cands):
                values[:], exact[:] = self.values3(node, node.positions(cands), threshold, rule, raising)
            return values, exact, cands
        head = min(first_pass, len(cands)) if first_pass else len(cands)
        for lo, hi, t in ((0, head, threshold), (head, len(cands), None)):
            if lo == hi:
                continue
            if t is None:
                found = values[:lo][exact[:lo]]
                best = int(found.max()) if len(found) else -1
                t = max(threshold, best if strict else best + 1)
            values[lo:hi], exact[lo:hi] = self.value_many(cands[lo:hi], T, k, rule, t, node)
        return values, exact, cands

    def value_many(self, cands, T, k, rule, threshold, node: Node | None = None, keep: int = 0):
        """value_k(g, T) of each candidate row g, each exact or a bound < threshold (with ``keep`` = K
        at k = 3, or below a K-th best exact value found in this call: see :func:`_values3`)."""
        cands = np.asarray(cands, dtype=np.int64)
        if k <= 2:
            if k == 2:
                values = (node or self.node(T)).caps_by_row()[cands]
            else:
                values = np.isin(self.inst.in_answers[cands], T).astype(np.int64)
            return values, values >= threshold
        if k == 3:
            node = node or self.node(T)
            with stop.held():  # see make_node
                return self.values3(node, node.positions(cands), threshold, rule, keep=keep)
        pairs = [self.value(int(g), T, k, rule, threshold) for g in cands]
        return (np.array([v for v, _ in pairs], dtype=np.int64).reshape(-1),
                np.array([e for _, e in pairs], dtype=bool).reshape(-1))

    def value(self, g: int, T: np.ndarray, k: int, rule: Constraint, threshold: int = 0) -> tuple[int, bool]:
        """(value_k(g, T), True), or (a bound < threshold, False)."""
        if k <= 3:
            v, e = self.value_many(np.array([g]), T, k, rule, threshold)
            return int(v[0]), bool(e[0])
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeUp
        classes = split(self.inst, g, T)
        rest = sum(len(P) for _, P in classes)
        total = 0
        for pattern, P in classes:
            rest -= len(P)
            if pattern == self.inst.green:
                total += 1
                continue
            v, ok = self.wins(P, k - 1, self.after(rule, g, pattern), threshold - total - rest)
            total += v
            if not ok:
                return total + rest, False
        return total, total >= threshold


# --- results ------------------------------------------------------------------------------------

@dataclass
class SolveResult:
    wins: int
    n: int
    depth: int
    hard: bool
    status: str  # OPTIMAL (proved), FEASIBLE (interrupted: the best found so far), or UNKNOWN (nothing)
    optimal_first: list[str]  # first guesses attaining ``wins`` (all of them when all_optimal_first)
    top: list[tuple[str, int]]  # the best first guesses with exact values, best first
    evaluated: int  # first guesses considered
    exact_count: int  # of which evaluated exactly (the rest pruned by a bound)
    seconds: float
    cores: int
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    first: str | None = None  # the fixed first guess, if any
    method: str = ""
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: the values are the best found so far
    after: tuple = ()  # (guess, pattern) pairs played before the position solved
    timed_out: bool = False  # stopped by ``time_limit``: the values are the best found so far
    all_optimal_first: bool = True  # optimal_first lists every optimal first guess

    @property
    def probability(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def to_json(self) -> dict:
        return {
            "wins": self.wins,
            "n": self.n,
            "probability": self.probability,
            "depth": self.depth,
            "hard": self.hard,
            "status": self.status,
            "first": self.first,
            "scope": (f"strategies opening with {self.first}" if self.first
                      else "all strategies (every first guess)"),
            "optimal_first": self.optimal_first,
            "top": [{"guess": g, "wins": v} for g, v in self.top],
            "first_guesses_considered": self.evaluated,
            "first_guesses_exact": self.exact_count,
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "list": list_name(self.answers, self.guesses),
            "answers": {"source": self.answers.source, "count": len(self.answers), "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "method": self.method,
            "interrupted": self.interrupted,
            **({"timed_out": True} if self.timed_out else {}),
            **({"all_optimal_first": False} if not self.all_optimal_first and self.status == "OPTIMAL" else {}),
            **({"after": [[g, format_pattern(p, len(g))] for g, p in self.after]} if self.after else {}),
        }


METHOD = ("exact DP wins_k(T) = max_g sum_P wins_{k-1}(P); wins_2 by scanning guesses in decreasing "
          "class count on the node's answers (stop when that count <= best); a guess abandoned when "
          "exact class values so far + min(|P|, bound) for the rest < threshold; first guesses pruned "
          "only strictly below the 10th best exact value (exact.wordle.dp)")


TIE_BREAK = ("at every node the guess of highest value; among equals a guess that is itself a "
             "remaining answer, then the earliest in the guess list")


def cores() -> int:
    return numba.get_num_threads()


def effective_depth(depth: int, n: int) -> int:
    """The depth that decides wins_depth on n answers: min(depth, n) (and at least 1).

    wins_k(T) <= |T| for every k, and wins_k(T) = |T| for k >= |T|: guessing a remaining candidate
    answer every time either wins or removes it, so every answer is won within |T| guesses (in hard
    mode too: a candidate always keeps the rule). And wins_k(T) never decreases with k (a strategy
    for k - 1 guesses is one for k). So wins_k(T) = wins_{|T|}(T) = |T| for k >= |T|, and the same
    holds for value_k(g, T), class by class.
    """
    return max(1, min(depth, n))


def solve(answers: WordList, guesses: WordList, depth: int = 3, hard: bool = False,
          first: str | None = None, top: int = 10, progress: bool | None = None,
          F: np.ndarray | None = None, after=(), engine: type[Search] | None = None,
          time_limit: float | None = None, until_all_won: bool = False) -> SolveResult:
    """The most answers winnable within ``depth`` guesses, every first guess attaining it, the top ones.

    ``after``: (guess, pattern) pairs already played; then the answers are those consistent with
    them, ``depth`` still counts from the start of the game, and ``first`` is the next guess.
    Ctrl-C (or SIGTERM, after :func:`exact.stop.install`) stops the search and returns the best found
    so far, marked ``interrupted``, with status FEASIBLE (UNKNOWN when no first guess was valued).
    A depth beyond the number of answers is computed as that number (:func:`effective_depth`).
    ``engine``: the :class:`Search` class (the benchmark passes the baseline's).
    ``time_limit`` (seconds): stop once it is spent, between first guesses at depth <= 3 (after one
    batch at least), also inside a first guess's search above depth 3 (that guess is then left out),
    with status FEASIBLE (the best found so far, ``timed_out``; UNKNOWN if none was finished). ``until_all_won``: stop as soon as a first guess wins every
    answer; that value is the bound |T|, so the status is OPTIMAL, but ``optimal_first`` then lists
    only the optimal first guesses found (``all_optimal_first`` False).
    """
    from exact import progress as prog
    from exact.wordle.guesses import position

    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    started = time.perf_counter()
    inst = make_wins_instance(answers, guesses, hard, F)
    search = (engine or Search)(inst)
    if time_limit is not None:
        search.deadline = started + time_limit
    history = tuple(after)
    T, rule = position(answers, history, hard)
    if depth - len(history) < 1:
        raise ExactError(f"after: {len(history)} guesses played leave none of the {depth} (depth)")
    k = effective_depth(depth - len(history), len(T))
    if first is not None:
        require_in_pool([first], guesses, "first")
        cands = np.array([guesses.index[first]], dtype=np.int64)
        if len(allowed_rows(inst, cands, rule)) == 0:
            raise ExactError(f"first: {first!r} breaks the hard-mode rule after the guesses played")
    else:
        cands = None
    values = np.full(len(guesses), -1, dtype=np.int64)
    exact = np.zeros(len(guesses), dtype=bool)
    done = 0
    interrupted = timed_out = all_won = False
    bar = prog.bar(total=len(cands) if cands is not None else len(guesses),
                   desc=f"first guesses (depth {depth})", unit="guess",
                   disable=(not progress) if progress is not None else None)
    try:
        if cands is None:
            cands = allowed_rows(inst, search.node(T).order, rule)
        step = BATCH if k <= 3 else 1
        piece = cores()
        while done < len(cands):
            if time_limit is not None and done and time.perf_counter() - started > time_limit:
                timed_out = True
                break
            if until_all_won and done and (values[:done][exact[:done]] == len(T)).any():
                all_won = True
                break
            hi = min(done + (step if done else min(step, FIRST_BATCH)), len(cands))
            found = np.sort(values[:done][exact[:done]])[::-1]
            threshold = int(found[top - 1]) if len(found) >= top else 0
            # in pieces of about PIECE_SECONDS, so that an interrupt held back during a kernel
            # call is raised soon (the threshold is the same within a batch: the same values)
            while done < hi:
                end = min(done + piece, hi)
                tick = time.perf_counter()
                v, e = search.value_many(cands[done:end], T, k, rule, threshold, keep=top)
                values[done:end], exact[done:end] = v, e
                bar.update(end - done)
                done = end
                took = time.perf_counter() - tick
                piece = max(1, piece // 2) if took > 2 * PIECE_SECONDS else \
                    piece * 2 if took < PIECE_SECONDS / 2 else piece
            if len(found):
                bar.set_postfix(best=int(found[0]))
    except TimeUp:  # a first guess above depth 3 ran past the time limit: the values before it stand
        timed_out = True
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        interrupted = True
        prog.say("interrupted; reporting the best found so far")
    finally:
        bar.close()
    if cands is None:
        cands = np.zeros(0, dtype=np.int64)
    ranked = sorted((i for i in range(done) if exact[i]), key=lambda i: (-values[i], cands[i]))
    status = "UNKNOWN" if not ranked else "OPTIMAL" if all_won else "FEASIBLE" if interrupted or timed_out \
        else "OPTIMAL"
    best = int(values[ranked[0]]) if ranked else 0
    optimal = sorted(guesses.words[cands[i]] for i in ranked if values[i] == best)
    return SolveResult(
        wins=best, n=len(T), depth=depth, hard=hard, status=status,
        optimal_first=optimal, top=[(guesses.words[cands[i]], int(values[i])) for i in ranked[:top]],
        evaluated=done, exact_count=int(exact[:done].sum()), seconds=time.perf_counter() - started,
        cores=cores(), answers=answers, guesses=guesses, first=first, method=METHOD,
        interrupted=interrupted, after=history, timed_out=timed_out,
        all_optimal_first=not (all_won or interrupted or timed_out),
    )


# --- the optimal tree ---------------------------------------------------------------------------

def best_tree(answers: WordList, guesses: WordList, depth: int, first: str, hard: bool = False,
              F: np.ndarray | None = None, after=()) -> Tree:
    """An optimal tree that opens with ``first`` (after the guesses ``after``), by the tie-break
    rule in the module docstring. It stops at ``depth``: see :func:`optimal_tree` for a complete one."""
    from exact.wordle.guesses import position

    inst = make_wins_instance(answers, guesses, hard, F)
    search = Search(inst)
    T, rule = position(answers, tuple(after), hard)
    k = effective_depth(depth - len(tuple(after)), len(T))
    return _tree(search, T, k, rule, inst.guesses.index[first])


def optimal_tree(result: SolveResult, max_guesses: int = 6, truncate: bool = False,
                 F: np.ndarray | None = None) -> tuple[Tree, dict, "Replay"]:
    """The tree of a solved result, checked by an independent replay: (tree, summary, replay).

    The first guess is chosen by :func:`tie_break_first`, the rest by :func:`best_tree`. Unless
    ``truncate``, the tree is then completed (:func:`exact.wordle.guesses.complete_tree`): every
    answer is solved within ``max_guesses``, the part past ``depth`` by the exact fewest-guesses
    search, with the wins within ``depth`` unchanged. The replay must give the result's wins (and,
    completed, solve every answer), else this raises: a wrong tree is never written.
    """
    from exact.wordle.guesses import complete_and_check, replay_position

    if result.status == "UNKNOWN":
        raise ExactError("no tree: the search found nothing")
    answers, guesses = result.answers, result.guesses
    root = tie_break_first(result)
    tree = best_tree(answers, guesses, result.depth, root, result.hard, F, result.after)
    if not truncate:
        tree, _ = complete_and_check(tree, answers, guesses, result.depth, max_guesses, result.hard,
                                     after=result.after, F=F)
    played = replay_position(tree, answers, guesses, result.after, max_guesses if not truncate else result.depth,
                             result.hard)
    wins = sum(played.wins_at[:result.depth])
    if wins != result.wins or not played.valid or (not truncate and played.lost):
        raise ExactError(f"internal error: the tree replays to {wins} wins within {result.depth} "
                         f"({len(played.invalid)} invalid nodes, {len(played.lost)} answers unsolved), "
                         f"not {result.wins}")
    info = {"first": root, "tie_break": TIE_BREAK, "complete": not truncate,
            "max_guesses": max_guesses if not truncate else result.depth,
            "replay": {"wins": wins, "valid": played.valid, "solved": played.wins,
                       "total_guesses": sum((k + 1) * w for k, w in enumerate(played.wins_at)),
                       "wins_at": list(played.wins_at)}}
    return tree, info, played


def _tree(search: Search, T: np.ndarray, k: int, rule: Constraint, g: int) -> Tree:
    inst = search.inst
    children = {}
    if k > 1:
        for pattern, P in split(inst, g, T):
            if pattern != inst.green:
                below = search.after(rule, g, pattern)
                children[pattern] = _tree(search, P, k - 1, below, best_guess(search, P, k - 1, below))
    return Tree(inst.guesses.words[g], len(T), dict(sorted(children.items())))


def best_guess(search: Search, T: np.ndarray, k: int, rule: Constraint) -> int:
    """The guess the tie-break picks among those attaining wins_k(T)."""
    inst = search.inst
    if k == 1 or len(T) <= 2:
        return min(inst.guesses.index[inst.answers.words[a]] for a in T)
    if k == 2:
        cands = allowed_rows(inst, np.arange(len(inst.guesses), dtype=np.int64), rule)
        values = search.node(T).caps_by_row()[cands]
        exact = np.ones(len(cands), dtype=bool)
    else:  # the first guess in tie-break order (in T first, each part in list order) attaining wins_k(T)
        best, _ = search.wins(T, k, rule)
        cands = allowed_rows(inst, np.arange(len(inst.guesses), dtype=np.int64), rule)
        in_T = np.isin(inst.in_answers[cands], T)
        ordered = np.concatenate([cands[in_T], cands[~in_T]])
        step = BATCH if k == 3 else 1
        for lo in range(0, len(ordered), step):
            chunk = ordered[lo:lo + step]
            values, exact = search.value_many(chunk, T, k, rule, best)
            hit = np.flatnonzero(exact & (values == best))
            if len(hit):
                return int(chunk[hit[0]])
        raise ExactError(f"internal error: no guess attains wins_{k} = {best} on a set of {len(T)} answers")
    top = values[exact].max()
    winners = cands[exact & (values == top)]
    in_T = np.isin(inst.in_answers[winners], T)
    pool = winners[in_T] if in_T.any() else winners
    return int(pool.min())


def tie_break_first(result: SolveResult) -> str:
    """The first guess of the tree: among the optimal ones, an answer if any, then the earliest guess."""
    words = result.optimal_first
    answers = [w for w in words if w in result.answers.index] or words
    return min(answers, key=result.guesses.index.__getitem__)
