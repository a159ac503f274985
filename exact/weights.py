"""Answer weights: a prior over the answers, as positive integers (``word weight`` a line).

Every objective of the engines is a sum over the answers; a weight w_a multiplies answer a's term, so
P(win within k) = (weight won within k) / (total weight) and the expected number of guesses =
(weighted total) / (total weight). Integers keep every sum, bound and proof exact; unit weights
(every w_a = 1) are the unweighted problem itself.

A weights file lists every answer once, in any order: ``word weight`` (spaces or tabs between),
blank lines and ``#`` comments skipped. Anything else is a one-line error naming the file, the line
and the word: a word that is not an answer, a duplicate, a weight that is not a positive integer or
exceeds :data:`MAX_WEIGHT`, an answer left out.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["cigar", "rebut", "sissy"], "a.txt")
>>> w = weights_from_lines(["rebut 2", "cigar 5", "sissy 1"], A, "w.txt")
>>> w.values.tolist(), w.total, w.unit
([5, 2, 1], 8, False)
>>> weights_from_lines(["rebut 2", "cigar 0"], A, "w.txt")
Traceback (most recent call last):
exact.errors.ExactError: w.txt:2: 'cigar': the weight must be a positive integer, not '0'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact.errors import ExactError, shorten
from exact.fileio import is_decimal, read_errors, read_text
from exact.words import WordList, instances_dir

#: the largest weight a file may give (a typo of extra digits is an error); each engine also checks that
#: (total weight) x (its largest finite cost) stays below its INF before it searches.
MAX_WEIGHT = 10 ** 9


@dataclass(frozen=True)
class Weights:
    """Positive integer weights of the answers of one answer list, in its order (``values[i]`` is
    the weight of ``answers.words[i]``); ``source`` the file, ``sha256`` of the normalised text
    (one ``word weight`` a line, in answer order), which certificates record."""

    values: np.ndarray = field(repr=False)
    source: str
    sha256: str

    @property
    def total(self) -> int:
        return int(self.values.sum())

    @property
    def unit(self) -> bool:
        """Every weight 1: the unweighted problem."""
        return bool(np.all(self.values == 1))

    def record(self) -> dict:
        """What a certificate says of the weights."""
        return {"source": self.source, "sha256": self.sha256, "total": self.total, "count": int(len(self.values))}


def weights_sha256(answers: WordList, values: np.ndarray) -> str:
    text = "".join(f"{w} {int(v)}\n" for w, v in zip(answers.words, values))
    return hashlib.sha256(text.encode()).hexdigest()


def unit_weights(answers: WordList) -> Weights:
    """Every answer weight 1 (the unweighted problem)."""
    values = np.ones(len(answers), dtype=np.int64)
    return Weights(values, "unit", weights_sha256(answers, values))


def weights_from_lines(lines: Iterable[str], answers: WordList, source: str = "<weights>") -> Weights:
    """Validate ``word weight`` lines against the answers (see the module)."""
    values = np.zeros(len(answers), dtype=np.int64)
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = {"path": source, "line": number}
        parts = text.split()
        if len(parts) != 2:
            raise ExactError(f"{shorten(text)!r}: expected 'word weight'", **where)
        word, weight = parts[0].lower(), parts[1]
        if word not in answers.index:
            raise ExactError(f"{shorten(word)!r} is not an answer of {answers.source}", **where)
        if word in seen:
            raise ExactError(f"{word!r} duplicates line {seen[word]}", **where)
        if not is_decimal(weight) or int(weight) < 1:
            raise ExactError(f"{word!r}: the weight must be a positive integer, not {shorten(weight)!r}", **where)
        if len(weight) > 12 or int(weight) > MAX_WEIGHT:
            raise ExactError(f"{word!r}: the weight {shorten(weight)} exceeds {MAX_WEIGHT}", **where)
        seen[word] = number
        values[answers.index[word]] = int(weight)
    missing = [i for i in range(len(answers)) if values[i] == 0]
    if missing:
        raise ExactError(f"answer {answers.words[missing[0]]!r} (line {answers.line_of(missing[0])} of "
                         f"{answers.source}) has no weight ({len(missing)} of {len(answers)} answers have none)",
                         path=source)
    return Weights(values, source, weights_sha256(answers, values))


def read_weights(path: str | Path, answers: WordList) -> Weights:
    """Read a weights file for these answers (see the module); errors name the file, line and word."""
    with read_errors(path, "weights file"):
        text = read_text(path, "weights file")
    return weights_from_lines(text.splitlines(), answers, str(path))


def as_values(weights: Weights | None, answers: WordList) -> np.ndarray:
    """The int64 weight of each answer (ones without weights), checked to fit the answers."""
    if weights is None:
        return np.ones(len(answers), dtype=np.int64)
    if len(weights.values) != len(answers):
        raise ExactError(f"{weights.source}: {len(weights.values)} weights for {len(answers)} answers")
    return np.ascontiguousarray(weights.values, dtype=np.int64)


#: the named lists that carry a prior: ``--list NAME`` -> its weights file under ``instances/``
NAMED_WEIGHTS = {"nyt-prior": ("nyt-prior/weights.txt",
                               "31d159b9c4dcc08e8ee49bc4d80f3a381a95d19ccf4120ea11644aea6223df9c")}


def named_weights(name: str, answers: WordList) -> Weights | None:
    """The prior shipped with the named list ``name`` (checked against its sha256), None for a list
    without one."""
    entry = NAMED_WEIGHTS.get(name)
    if entry is None:
        return None
    file, sha = entry
    w = read_weights(instances_dir() / file, answers)
    text = "".join(f"{word} {int(v)}\n" for word, v in sorted(zip(answers.words, w.values)))
    if hashlib.sha256(text.encode()).hexdigest() != sha:
        raise ExactError(f"instances/{file} does not have the sha256 {sha} of list {name!r}: reinstall exact")
    return Weights(w.values, f"instances/{file}", w.sha256)
