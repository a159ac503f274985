"""Feature sets: what a pattern says about the answers of its class, and how many classes each guess
makes on each feature set of a set of answers (the *feature caps* the depth-k kernels bound wins_2
with: :mod:`exact.wordle.wins.kernels`, whose docstring argues the bound).

Data types: codes are encoded words (rows of letter indices 0-25, :func:`exact.feedback.encode`); a
pattern is the code sum(fb[i] * 3**i); ``FEAT[kind, i, c]`` numbers the feature sets
(:func:`feature_sets`); ``F`` a feedback matrix (guesses x answers, :mod:`exact.partitions`).
"""

from __future__ import annotations

import numba
import numpy as np

from exact._kernels import popcount

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


def feature_numbers(L: int) -> np.ndarray:
    """FEAT[kind, i, c]: the number of each feature set of words of length L (GREEN and ELSEWHERE
    for each i and c in turn, then ABSENT for each c, the same number for every i); 2 L 26 + 26 sets.
    The numbering depends on L only, not on the answers."""
    FEAT = np.empty((3, L, 26), dtype=np.int64)
    for i in range(L):
        FEAT[GREEN, i] = 2 * 26 * i + 2 * np.arange(26)
        FEAT[ELSEWHERE, i] = FEAT[GREEN, i] + 1
    FEAT[ABSENT] = 2 * 26 * L + np.arange(26)
    return FEAT


def feature_sets(codes: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The feature sets of encoded answers: (FEAT, sets), ``sets[FEAT[kind, i, c]]`` = the answer
    columns with letter c at i (GREEN), holding c but not at i (ELSEWHERE), holding no c (ABSENT,
    the same set for every i)."""
    n, L = codes.shape
    has = np.zeros((n, 26), dtype=bool)
    for i in range(L):
        has[np.arange(n), codes[:, i]] = True
    FEAT = feature_numbers(L)
    sets: list[np.ndarray] = [np.empty(0, dtype=np.int64)] * (int(FEAT.max()) + 1)
    for i in range(L):
        for c in range(26):
            sets[FEAT[GREEN, i, c]] = np.flatnonzero(codes[:, i] == c)
            sets[FEAT[ELSEWHERE, i, c]] = np.flatnonzero((codes[:, i] != c) & has[:, c])
    for c in range(26):
        sets[FEAT[ABSENT, 0, c]] = np.flatnonzero(~has[:, c])
    return FEAT, [np.asarray(S, dtype=np.int64) for S in sets]


@numba.njit(cache=True, nogil=True)
def _lowest(m):
    """The index of the lowest set bit of m > 0."""
    return np.int64(popcount(np.uint64((m & -m) - 1)))


@numba.njit(cache=True, parallel=True)
def _letter_caps(F, T, order, codes, FEAT, nsets, npat):
    """caps[FEAT[kind, i, c], j]: the classes of guess row order[j] on each feature set of the
    answers T (columns of F; ``codes`` their encodings), from three letter masks (bit c: letter c) per
    class p of the guess: ``common[p]``, the letters every answer of p holds; ``at[p, i]``, the
    letters at i in p; ``held[p, i]``, the letters some answer of p holds but not at i. Class p meets
    the set "c at i" iff bit c of at[p, i] is set, "c held, not at i" iff bit c of held[p, i] is,
    "no c" iff bit c of common[p] is not: each count is a number of classes with that bit."""
    n, L = codes.shape
    full = (np.int64(1) << 26) - 1
    letters = np.zeros(n, dtype=np.int64)
    for a in range(n):
        for i in range(L):
            letters[a] |= np.int64(1) << np.int64(codes[a, i])
    atbit = np.empty((n, L), dtype=np.int64)  # each answer's masks, once: its letter at i, the others
    heldbit = np.empty((n, L), dtype=np.int64)
    for a in range(n):
        for i in range(L):
            atbit[a, i] = np.int64(1) << np.int64(codes[a, i])
            heldbit[a, i] = letters[a] & ~atbit[a, i]
    caps = np.zeros((nsets, order.shape[0]), dtype=np.int16)
    for j in numba.prange(order.shape[0]):
        g = order[j]
        seen = np.zeros(npat, dtype=np.bool_)
        pats = np.empty(npat, dtype=np.int64)
        k = 0
        common = np.empty(npat, dtype=np.int64)
        at = np.empty((npat, L), dtype=np.int64)
        held = np.empty((npat, L), dtype=np.int64)
        for a in range(n):
            p = np.int64(F[g, T[a]])
            if not seen[p]:
                seen[p] = True
                pats[k] = p
                k += 1
                common[p] = full
                at[p, :] = 0
                held[p, :] = 0
            common[p] &= letters[a]
            for i in range(L):
                at[p, i] |= atbit[a, i]
                held[p, i] |= heldbit[a, i]
        absent = np.full(26, k, dtype=np.int64)  # classes with an answer lacking c: k less those holding it all
        for t in range(k):
            p = pats[t]
            m = common[p]
            while m:
                absent[_lowest(m)] -= 1
                m &= m - 1
            for i in range(L):
                m = at[p, i]
                while m:
                    caps[FEAT[GREEN, i, _lowest(m)], j] += 1
                    m &= m - 1
                m = held[p, i]
                while m:
                    caps[FEAT[ELSEWHERE, i, _lowest(m)], j] += 1
                    m &= m - 1
        for c in range(26):
            caps[FEAT[ABSENT, 0, c], j] = absent[c]
    return caps


def feature_caps(F: np.ndarray, codes: np.ndarray, npat: int, T: np.ndarray | None = None,
                 order: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(FEAT, caps): caps[FEAT[kind, i, c], j] = how many classes guess row order[j] (every row in turn
    by default) makes on that feature set of the answers T (columns of F, every one by default;
    ``codes``: their encodings, in T's order)."""
    T = np.arange(F.shape[1], dtype=np.int64) if T is None else np.asarray(T, dtype=np.int64)
    order = np.arange(F.shape[0], dtype=np.int64) if order is None else np.asarray(order, dtype=np.int64)
    FEAT = feature_numbers(codes.shape[1])  # the sets themselves are not needed: _letter_caps reads letters
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    return FEAT, _letter_caps(F, T, order, codes, FEAT, int(FEAT.max()) + 1, npat)
