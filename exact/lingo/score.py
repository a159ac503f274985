"""Exact Lingo scoring: the win probability of a fixed set of guesses.

The answer is uniform on the pool W; the player is told its first letter, plays the k guesses fixed
in advance, sees all feedback and then picks uniformly among the words still consistent. Each class
of words sharing a *signature* (first letter, fb_1, ..., fb_k) is won with probability 1/|class|,
so the expected number of wins is the number of distinct signatures:

    P(win) = #signatures / |W|.

>>> from exact.words import words_from_lines
>>> pool = words_from_lines(["abbey", "abide", "ached", "cabin", "cable"])
>>> s = score_guesses(pool, ["abide"])
>>> s.wins, s.n, s.solved_exactly, s.largest_class
(5, 5, 5, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from exact.errors import ExactError
from exact.feedback import compute_feedback_matrix
from exact.partitions import class_keys, joint_classes
from exact.words import WordList, check_words, require_in_pool


@dataclass(frozen=True)
class LetterScore:
    letter: str
    n: int
    wins: int


@dataclass(frozen=True)
class LingoScore:
    guesses: tuple[str, ...]
    n: int
    wins: int
    solved_exactly: int
    largest_class: int
    stumpers: tuple[tuple[str, ...], ...]
    by_letter: tuple[LetterScore, ...] = field(repr=False)

    @property
    def probability(self) -> float:
        return self.wins / self.n

    def to_json(self) -> dict:
        return {
            "guesses": list(self.guesses),
            "n": self.n,
            "wins": self.wins,
            "probability": self.probability,
            "solved_exactly": self.solved_exactly,
            "largest_class": self.largest_class,
            "stumpers": [list(c) for c in self.stumpers],
            "by_first_letter": {s.letter: {"n": s.n, "wins": s.wins} for s in self.by_letter},
        }


def first_letters(pool: Sequence[str]) -> np.ndarray:
    """The first letter of every word as 0..25: the signature's first component."""
    return np.frombuffer("".join(w[0] for w in pool).encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("a")


def signatures(F: np.ndarray, guesses: Sequence[int], first: np.ndarray) -> np.ndarray:
    """One key per word of the pool: its signature under these rows of F."""
    return class_keys(F, guesses, start=first)


def count_wins(F: np.ndarray, guesses: Sequence[int], first: np.ndarray) -> int:
    """The number of distinct signatures: the expected number of wins over the pool."""
    keys = signatures(F, guesses, first)
    keys.sort()
    return int(np.count_nonzero(np.diff(keys))) + 1


def score_guesses(pool: WordList, guesses: Sequence[str], *, allow_nonwords: bool = False) -> LingoScore:
    """Score guesses on the pool exactly; guesses must be in the pool unless ``allow_nonwords``."""
    if not guesses:
        raise ExactError("give at least one guess to score")
    guesses = check_words(guesses, pool.length)
    if len(set(guesses)) != len(guesses):
        raise ExactError(f"guesses repeat a word: {' '.join(guesses)}")
    if not allow_nonwords:
        require_in_pool(guesses, pool)
    F = compute_feedback_matrix(guesses, pool.words)
    first = first_letters(pool.words)
    everyone = np.arange(len(pool))
    classes = joint_classes(F, range(len(guesses)), everyone, start=first)
    sizes = np.array([len(c) for c in classes])
    largest = int(sizes.max())
    by_letter = []
    for letter in np.unique(first):
        members = np.flatnonzero(first == letter)
        wins = len(joint_classes(F, range(len(guesses)), members))
        by_letter.append(LetterScore(chr(ord("a") + int(letter)), len(members), wins))
    return LingoScore(
        guesses=guesses,
        n=len(pool),
        wins=len(classes),
        solved_exactly=int(np.count_nonzero(sizes == 1)),
        largest_class=largest,
        stumpers=tuple(tuple(pool.words[i] for i in c) for c in classes if len(c) == largest),
        by_letter=tuple(by_letter),
    )
