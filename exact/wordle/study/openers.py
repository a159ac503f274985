"""Opener tables: how well each first guess splits the answers.

For a guess g splitting the n answers into classes C (one per feedback pattern):

- ``classes``: the number of classes, = wins_2 of the answers with g played first;
- ``worst``: the largest class, max |C|;
- ``mean_size``: the mean class size, n / classes;
- ``expected_size``: the expected size of the answer's class, sum |C|^2 / n;
- ``entropy``: the entropy in bits of the class an answer falls in, -sum (|C|/n) log2(|C|/n).

>>> from exact.words import words_from_lines
>>> ws = words_from_lines(["abbey", "abide", "cabin", "cable"])
>>> [(o.guess, o.classes, o.worst) for o in rank_openers(ws, ws, "classes", top=2)]
[('abbey', 4, 1), ('abide', 4, 1)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from exact.errors import ExactError
from exact.partitions import class_counts, feedback_matrix
from exact.words import WordList, check_same_length


@dataclass(frozen=True)
class Opener:
    guess: str
    classes: int
    worst: int
    mean_size: float
    expected_size: float
    entropy: float

    def to_json(self) -> dict:
        return asdict(self)


#: metric -> (column, True when larger is better)
METRICS = {
    "classes": ("classes", True),
    "worst": ("worst", False),
    "mean": ("mean_size", False),
    "expected": ("expected_size", False),
    "entropy": ("entropy", True),
}


def opener_table(answers: WordList, guesses: WordList) -> dict[str, np.ndarray]:
    """Every metric for every guess, as columns (numpy arrays) indexed like ``guesses``."""
    check_same_length(answers, guesses)
    counts = class_counts(feedback_matrix(guesses, answers)).astype(np.float64)
    n = len(answers)
    classes = np.count_nonzero(counts, axis=1)
    p = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(p > 0, p * np.log2(p), 0.0).sum(axis=1)
    return {
        "classes": classes,
        "worst": counts.max(axis=1).astype(np.int64),
        "mean_size": n / classes,
        "expected_size": (counts**2).sum(axis=1) / n,
        "entropy": entropy,
    }


def rank_openers(answers: WordList, guesses: WordList, metric: str = "classes", top: int | None = 10) -> list[Opener]:
    """The best ``top`` openers by one metric; ties go to the other metrics, then the word."""
    if metric not in METRICS:
        raise ExactError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
    if top is not None and top < 1:
        raise ExactError(f"top must be at least 1, not {top}")
    table = opener_table(answers, guesses)
    order_keys = [np.arange(len(guesses))]  # last tie-break: list order (the lists are sorted)
    for name, (column, larger) in reversed(list(METRICS.items())):
        if name != metric:
            order_keys.append(-table[column] if larger else table[column])
    column, larger = METRICS[metric]
    order_keys.append(-table[column] if larger else table[column])
    order = np.lexsort(order_keys)[:top]
    return [
        Opener(
            guess=guesses.words[i],
            classes=int(table["classes"][i]),
            worst=int(table["worst"][i]),
            mean_size=float(table["mean_size"][i]),
            expected_size=float(table["expected_size"][i]),
            entropy=float(table["entropy"][i]),
        )
        for i in order
    ]
