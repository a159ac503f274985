"""Brute force for Lingo: the best k guesses by enumerating every k-subset of the pool.

The reference that the CP-SAT model (:mod:`exact.lingo.cpsat`) is checked against. It shares nothing
with the model but the feedback matrix: it walks all ``C(n, k)`` subsets in lexicographic order,
refining the classes one guess at a time, and counts the classes of each complete subset.

Data types:

- ``F``: (guesses, answers) feedback matrix (:mod:`exact.feedback`); the guess pool is its rows;
- ``first``: int array, the first letter 0..25 of every answer (the signature's first component);
- a *labelling*: one int per answer, equal for two answers iff they are (so far) in one class.

Cost: ``C(n, k) * n`` steps, so it is affordable up to a few hundred words for k = 4.

>>> import numpy as np
>>> from exact.feedback import compute_feedback_matrix
>>> from exact.lingo.score import first_letters
>>> pool = ["baker", "bakes", "baked", "bales", "bared", "barer", "bases"]
>>> F = compute_feedback_matrix(pool, pool)
>>> brute_force_best(F, first_letters(pool), 1), brute_force_best(F, first_letters(pool), 2)
((5, (0,)), (7, (0, 3)))
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numba
import numpy as np

from exact.feedback import feedback


def brute_force_best(F: np.ndarray, first: np.ndarray, k: int) -> tuple[int, tuple[int, ...]]:
    """(most wins, the lexicographically first k guess rows reaching it) over all k-subsets."""
    n_guesses = F.shape[0]
    if not 1 <= k <= n_guesses:
        raise ValueError(f"k = {k} must be between 1 and the {n_guesses} guesses")
    start = np.unique(np.asarray(first), return_inverse=True)[1].astype(np.int64)
    patterns = int(F.max()) + 1
    wins, best = _enumerate(np.ascontiguousarray(F), start, k, patterns)
    return int(wins), tuple(int(g) for g in best)


def subsets(n: int, k: int) -> int:
    """How many subsets brute force walks: C(n, k)."""
    return comb(n, k)


@numba.njit(cache=True)
def _refine(labels, row, patterns, table, stamp, mark, out):
    """Relabel densely by (old label, pattern); returns the number of classes."""
    count = 0
    for a in range(labels.shape[0]):
        slot = labels[a] * patterns + row[a]
        if stamp[slot] != mark:
            stamp[slot] = mark
            table[slot] = count
            count += 1
        out[a] = table[slot]
    return count


@numba.njit(cache=True)
def _enumerate(F, start, k, patterns):
    n_guesses, n_answers = F.shape
    labels = np.zeros((k + 1, n_answers), dtype=np.int64)
    labels[0, :] = start
    table = np.zeros(n_answers * patterns, dtype=np.int64)
    stamp = np.zeros(n_answers * patterns, dtype=np.int64)
    chosen = np.zeros(k, dtype=np.int64)
    best = np.zeros(k, dtype=np.int64)
    best_wins = -1
    mark = 0
    # Iterative walk over k-subsets in lexicographic order; labels[d] holds the classes of chosen[:d].
    depth = 0
    chosen[0] = -1
    while depth >= 0:
        chosen[depth] += 1
        if chosen[depth] > n_guesses - (k - depth):
            depth -= 1
            continue
        mark += 1
        classes = _refine(labels[depth], F[chosen[depth]], patterns, table, stamp, mark, labels[depth + 1])
        if depth == k - 1:
            if classes > best_wins:
                best_wins = classes
                best[:] = chosen
        else:
            depth += 1
            chosen[depth] = chosen[depth - 1]
    return best_wins, best


def adaptive_brute_force(pool, K: int, same_first_letter: bool = False) -> dict[str, int]:
    """The adaptive game by plain recursion over every guess at every node, per first letter:
    ``best(T, k) = max over g of sum over the classes P of g on T of (1 if P = {g} else best(P, k - 1))``,
    ``best(T, 0) = 0``. Feedback from :func:`exact.feedback.feedback` word by word: shares nothing with
    the Wordle engine. For tiny pools only (it is exponential in K).

    >>> adaptive_brute_force(["baker", "bakes", "baled", "cater"], 2)
    {'b': 3, 'c': 1}
    """
    words = list(pool)
    out = {}
    for letter in sorted({w[0] for w in words}):
        answers = tuple(w for w in words if w[0] == letter)
        guesses = answers if same_first_letter else tuple(words)

        @lru_cache(maxsize=None)
        def best(T: tuple[str, ...], k: int) -> int:
            if k == 0 or not T:
                return 0
            value = 0
            for g in guesses:
                classes: dict[int, list[str]] = {}
                for a in T:
                    classes.setdefault(feedback(g, a), []).append(a)
                total = sum(1 if P == [g] else best(tuple(P), k - 1) for P in classes.values())
                value = max(value, total)
            return value

        out[letter] = best(answers, K)
    return out
