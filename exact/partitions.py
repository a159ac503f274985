"""Partitions: feedback matrices cached on disk, and the classes that guesses split answers into.

Data types:

- ``F``: a feedback matrix (see :mod:`exact.feedback`), rows guesses, columns answers;
- ``answers``: an int array of answer indices (columns of ``F``), a *set* of candidate answers;
- a *class key* per answer: an int64 that is equal for two answers exactly when every guess
  considered (and any starting key, such as Lingo's first letter) gives them the same feedback;
- a *class*: an int array of the answers sharing one key.

The cache lives in ``$EXACT_CACHE_DIR`` (default ``$XDG_CACHE_HOME/exact`` or ``~/.cache/exact``).
A matrix file is keyed by the sha256 of both lists and :data:`exact.feedback.RULE_VERSION`; its
sidecar JSON, written last, holds the shape, dtype and a blake2b digest, so a file cut short, corrupt
or stale is rebuilt with a message. Both files are written to a temporary name and renamed, so an
interrupted build leaves no half-written cache.

>>> import numpy as np
>>> F = np.array([[0, 0, 1, 1], [0, 1, 0, 1]], dtype=np.uint8)
>>> count_classes(F, [0]), count_classes(F, [0, 1])
(2, 4)
>>> [c.tolist() for c in partition(F, [0], np.arange(4))]
[[0, 1], [2, 3]]
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from exact import feedback as fb
from exact.fileio import atomic_write_bytes
from exact.words import WordList

_CHUNK_ROWS = 512


# --- The on-disk cache -------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where feedback matrices are cached: ``$EXACT_CACHE_DIR``, else the user cache folder."""
    if os.environ.get("EXACT_CACHE_DIR"):
        return Path(os.environ["EXACT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "exact"


def matrix_key(guesses: WordList, answers: WordList) -> str:
    text = f"rule={fb.RULE_VERSION};guesses={guesses.sha256};answers={answers.sha256}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _digest(matrix: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(matrix).data, digest_size=16).hexdigest()


def _atomic_save_npy(path: Path, matrix: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.save(f, matrix, allow_pickle=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _say(message: str) -> None:
    print(f"exact: {message}", file=sys.stderr)


def load_cached(guesses: WordList, answers: WordList) -> np.ndarray | None:
    """The cached matrix, verified; None when absent. A bad file is reported and ignored."""
    stem = cache_dir() / f"feedback-{matrix_key(guesses, answers)}"
    npy, meta = stem.with_suffix(".npy"), stem.with_suffix(".json")
    if not (npy.is_file() and meta.is_file()):
        return None
    try:
        info = json.loads(meta.read_text())
        matrix = np.load(npy, allow_pickle=False)
        ok = (list(matrix.shape) == [len(guesses), len(answers)]
              and str(matrix.dtype) == info["dtype"]
              and info["rule_version"] == fb.RULE_VERSION
              and _digest(matrix) == info["digest"])
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        ok = False
    if not ok:
        _say(f"cache file {npy} is corrupt or stale; rebuilding it")
        return None
    return matrix


def save_cached(guesses: WordList, answers: WordList, matrix: np.ndarray) -> None:
    stem = cache_dir() / f"feedback-{matrix_key(guesses, answers)}"
    info = {
        "rule_version": fb.RULE_VERSION,
        "shape": list(matrix.shape),
        "dtype": str(matrix.dtype),
        "digest": _digest(matrix),
        "guesses": {"source": guesses.source, "sha256": guesses.sha256},
        "answers": {"source": answers.source, "sha256": answers.sha256},
    }
    try:
        _atomic_save_npy(stem.with_suffix(".npy"), matrix)
        atomic_write_bytes(stem.with_suffix(".json"), json.dumps(info, indent=1).encode())
    except OSError as e:
        _say(f"could not write the cache in {stem.parent} ({e.strerror}); continuing without it")


def build_matrix(guesses: Sequence[str], answers: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
    """The feedback matrix, built in row chunks so that a progress bar runs and Ctrl-C gets through."""
    from tqdm import tqdm

    total = len(guesses)
    if progress is None:
        progress = total * len(answers) >= 20_000_000
    if not progress or total <= _CHUNK_ROWS:
        return fb.feedback_matrix(guesses, answers)
    parts = []
    with tqdm(total=total, desc="feedback matrix", unit="guess", file=sys.stderr,
              disable=None, leave=False) as bar:
        for start in range(0, total, _CHUNK_ROWS * 4):
            chunk = guesses[start:start + _CHUNK_ROWS * 4]
            parts.append(fb.feedback_matrix(chunk, answers))
            bar.update(len(chunk))
    return np.concatenate(parts)


def feedback_matrix(guesses: WordList, answers: WordList, *, cache: bool = True,
                    progress: bool | None = None) -> np.ndarray:
    """The feedback matrix of two word lists, from the cache when a verified copy is there."""
    if cache:
        matrix = load_cached(guesses, answers)
        if matrix is not None:
            return matrix
    matrix = build_matrix(guesses.words, answers.words, progress=progress)
    if cache:
        save_cached(guesses, answers, matrix)
    return matrix


# --- Classes ------------------------------------------------------------------------------------

def class_keys(F: np.ndarray, guesses: Sequence[int], answers: np.ndarray | None = None,
               start: np.ndarray | None = None) -> np.ndarray:
    """One int64 key per answer, equal for two answers iff every guess (and ``start``) agrees.

    Keys are mixed-radix numbers, so they stay exact while ``start.max() * P**len(guesses)``
    fits in 63 bits (P patterns per guess); past that they are re-numbered densely on the way.
    """
    if answers is None:
        answers = np.arange(F.shape[1])
    answers = np.asarray(answers)
    radix = np.int64(_radix(F))
    keys = np.zeros(len(answers), dtype=np.int64) if start is None else np.asarray(start, dtype=np.int64).copy()
    limit = np.iinfo(np.int64).max // int(radix)
    for g in guesses:
        if keys.size and keys.max() >= limit:
            keys = np.unique(keys, return_inverse=True)[1].astype(np.int64)
        keys = keys * radix + F[g, answers]
    return keys


def _radix(F: np.ndarray) -> int:
    # Any bound above every pattern code keeps keys exact: uint8 holds lengths up to 5, uint16 up to 8.
    return fb.pattern_count(5 if F.dtype == np.uint8 else fb.MAX_LENGTH)


def count_classes(F: np.ndarray, guesses: Sequence[int], answers: np.ndarray | None = None,
                  start: np.ndarray | None = None) -> int:
    """How many classes the guesses (and ``start``) split the answers into."""
    keys = class_keys(F, guesses, answers, start)
    return int(np.unique(keys).size)


def partition(F: np.ndarray, guesses: Sequence[int], answers: np.ndarray,
              start: np.ndarray | None = None) -> list[np.ndarray]:
    """The classes of ``answers`` under ``guesses``, largest first (ties by first member)."""
    answers = np.asarray(answers)
    keys = class_keys(F, guesses, answers, start)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cuts = np.flatnonzero(np.diff(sorted_keys)) + 1
    classes = np.split(answers[order], cuts)
    classes.sort(key=lambda c: (-len(c), c[0]))
    return classes


def split_by_guess(F: np.ndarray, guess: int, answers: np.ndarray) -> dict[int, np.ndarray]:
    """pattern -> the answers giving that pattern, for one guess."""
    answers = np.asarray(answers)
    row = F[guess, answers]
    order = np.argsort(row, kind="stable")
    patterns, starts = np.unique(row[order], return_index=True)
    return {int(p): part for p, part in zip(patterns, np.split(answers[order], starts[1:]))}


def class_counts(F: np.ndarray, answers: np.ndarray | None = None) -> np.ndarray:
    """(guesses, patterns) array: how many of the answers each guess sends to each pattern."""
    rows = F if answers is None else F[:, answers]
    patterns = int(rows.max()) + 1 if rows.size else 1
    return _class_counts(rows, patterns)


def _class_counts(rows: np.ndarray, patterns: int) -> np.ndarray:
    from exact._kernels import pattern_histograms

    return pattern_histograms(np.ascontiguousarray(rows), patterns)
