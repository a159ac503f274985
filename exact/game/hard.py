"""Hard mode: which guesses the NYT rule allows after some feedback (the one home of that rule).

The rule: every letter shown green must be played in the same place again, and a letter shown n times
in green or yellow (in one guess) must appear at least n times in every later guess. Gray letters and
yellow positions are not constrained.

Data types:

- a *history* is a sequence of ``(guess, pattern)`` pairs: a word and its pattern code (see
  :mod:`exact.feedback`);
- a *constraint* (:class:`Constraint`) is what a history demands, as two small int8 arrays:
  ``greens[i]`` the letter index (0..25) required at position i, or -1, and ``least[x]`` the fewest
  copies of letter x a guess may have. Histories combine by taking the union of greens and the
  maximum of the counts;
- ``codes`` are words encoded by :func:`exact.feedback.encode` ((n, L) uint8) and ``counts`` their
  letter counts ((n, 26) uint8), what the numba kernels read.

>>> from exact.feedback import parse_pattern
>>> history = [("crane", parse_pattern("20100", 5))]
>>> [w for w in ["chaos", "coast", "trace", "cacao"] if is_allowed(w, history)]
['chaos', 'coast', 'cacao']
>>> allowed_mask(["chaos", "coast", "trace", "cacao"], history).tolist()
[True, True, False, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numba
import numpy as np

from exact.feedback import GREEN, GRAY, encode
from exact.words import WordList

History = Sequence[tuple[str, int]]


class Constraint(NamedTuple):
    """What a history demands of later guesses (see above): ``greens`` (L,) int8, the letter
    required at each position or -1; ``least`` (26,) int8, the fewest copies of each letter."""

    greens: np.ndarray
    least: np.ndarray


class HardMode(NamedTuple):
    """The rule as a numba kernel reads it at a node: one record instead of five arguments.

    ``on``: whether the rule applies (False: the kernel ignores ``greens`` and ``least``);
    (``greens``, ``least``): the node's constraint; ``codes``/``counts``: the guesses' letters and
    letter counts, in the order the kernel scans the guesses (the kernels also read ``codes`` in
    normal mode, for what a pattern says about its class).
    """

    on: bool
    greens: np.ndarray
    least: np.ndarray
    codes: np.ndarray
    counts: np.ndarray


def digits(pattern: int, length: int) -> list[int]:
    """The colours of a pattern code, first letter first (0 gray, 1 yellow, 2 green)."""
    return [(pattern // 3**i) % 3 for i in range(length)]


def is_allowed(word: str, history: History) -> bool:
    """Whether hard mode lets ``word`` be played after ``history`` (plain Python, the rule as read)."""
    return broken_rule(word, history) is None


def broken_rule(word: str, history: History) -> str | None:
    """The hard-mode rule ``word`` breaks after ``history``, in words (the first found), or None: a green
    letter stays in place, and every letter revealed (green or yellow) is used, as often as revealed.

    >>> broken_rule("sport", (("crane", 0b0),)) is None
    True
    >>> broken_rule("sport", (("train", 2 * 3**3 + 1 * 3**1),))  # train: R yellow, I green
    'I had to stay in place 4 (green at guess 1)'
    >>> broken_rule("spoil", (("train", 2 * 3**3 + 1 * 3**1),))
    'the guess must hold an R (revealed at guess 1)'
    """
    for number, (guess, pattern) in enumerate(history, start=1):
        colours = digits(pattern, len(guess))
        for i, c in enumerate(colours):
            if c == GREEN and word[i] != guess[i]:
                return f"{guess[i].upper()} had to stay in place {i + 1} (green at guess {number})"
        shown = [g for g, c in zip(guess, colours) if c != GRAY]
        for x in sorted(set(shown), key=shown.index):
            if word.count(x) < shown.count(x):
                times = {1: "an" if x in "aefhilmnorsx" else "a", 2: "two", 3: "three"}.get(shown.count(x), str(shown.count(x)))
                plural = "s" if shown.count(x) > 1 else ""
                return f"the guess must hold {times} {x.upper()}{plural} (revealed at guess {number})"
    return None


def letter_counts(codes: np.ndarray) -> np.ndarray:
    """(n, 26) uint8: how many times each letter occurs in each encoded word."""
    counts = np.zeros((codes.shape[0], 26), dtype=np.uint8)
    for i in range(codes.shape[1]):
        np.add.at(counts, (np.arange(codes.shape[0]), codes[:, i]), 1)
    return counts


def no_constraint(length: int) -> Constraint:
    """The constraint of an empty history: any guess is allowed."""
    return Constraint(np.full(length, -1, dtype=np.int8), np.zeros(26, dtype=np.int8))


@numba.njit(cache=True, nogil=True)
def add_feedback(greens, least, code, pattern):
    """The constraint after also seeing ``pattern`` for the encoded guess ``code``."""
    greens = greens.copy()
    least = least.copy()
    shown = np.zeros(26, dtype=np.int8)
    p = pattern
    for i in range(code.shape[0]):
        colour = p % 3
        p //= 3
        if colour == 2:
            greens[i] = code[i]
        if colour != 0:
            shown[code[i]] += 1
    for x in range(26):
        if shown[x] > least[x]:
            least[x] = shown[x]
    return greens, least


class ClueLists(NamedTuple):
    """Guess rows by the clue they meet, for finding the guesses a constraint allows without testing
    every guess: list j holds, in increasing row order, the rows ``rows[start[j]:start[j + 1]]``; list
    ``i * 26 + c`` the guesses with letter c at position i, list ``L * 26 + x`` those holding a letter x."""

    start: np.ndarray
    rows: np.ndarray


def clue_lists(codes: np.ndarray, counts: np.ndarray) -> ClueLists:
    """The :class:`ClueLists` of encoded guesses ``codes`` with letter counts ``counts``."""
    L = codes.shape[1]
    lists = [np.flatnonzero(codes[:, i] == c) for i in range(L) for c in range(26)]
    lists += [np.flatnonzero(counts[:, x] > 0) for x in range(26)]
    start = np.zeros(len(lists) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(rows) for rows in lists])
    return ClueLists(start, np.concatenate(lists).astype(np.int64))


@numba.njit(cache=True, nogil=True)
def shortest_clue_list(clues, greens, least):
    """(lo, hi) of the shortest clue list the constraint demands (``clues.rows[lo:hi]``: every guess
    it allows is there, since an allowed guess has each green letter in place and holds each letter
    of ``least`` > 0), or (-1, -1) when it demands nothing (every guess may be allowed)."""
    L = greens.shape[0]
    lo, hi = np.int64(-1), np.int64(-1)
    for j in range(L + 26):
        if j < L:
            if greens[j] < 0:
                continue
            k = j * 26 + greens[j]
        else:
            if least[j - L] <= 0:
                continue
            k = L * 26 + (j - L)
        a, b = clues.start[k], clues.start[k + 1]
        if lo < 0 or b - a < hi - lo:
            lo, hi = a, b
    return lo, hi


@numba.njit(cache=True, nogil=True)
def allows(greens, least, code, count):
    """Whether the encoded word (``code``, letter ``count``) meets the constraint."""
    for i in range(code.shape[0]):
        if greens[i] >= 0 and code[i] != greens[i]:
            return False
    for x in range(26):
        if count[x] < least[x]:
            return False
    return True


def constraint(history: History, length: int) -> Constraint:
    """The (greens, least) arrays that a history demands."""
    greens, least = no_constraint(length)
    for guess, pattern in history:
        greens, least = add_feedback(greens, least, encode([guess])[0], int(pattern))
    return Constraint(greens, least)


def allowed_mask(words: WordList | Sequence[str] | np.ndarray, history: History) -> np.ndarray:
    """Bool array: which words (a WordList, strings, or an encoded (n, L) array) hard mode allows."""
    codes = words if isinstance(words, np.ndarray) else encode(list(words))
    if codes.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    greens, least = constraint(history, codes.shape[1])
    ok = np.all((greens < 0) | (codes == greens), axis=1)
    return ok & np.all(letter_counts(codes) >= least, axis=1)
