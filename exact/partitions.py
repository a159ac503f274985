"""Partitions: feedback matrices cached on disk, and the classes that guesses split answers into.

Data types:

- ``F``: a feedback matrix (see :mod:`exact.feedback`), rows guesses, columns answers;
- ``answers``: an int array of answer indices (columns of ``F``), a *set* of candidate answers;
- a *class key* per answer: an int64 that is equal for two answers exactly when every guess
  considered (and any starting key, such as Lingo's first letter) gives them the same feedback;
- a *class*: an int array of the answers sharing one key.

The cache lives in ``$EXACT_CACHE_DIR`` (default ``$XDG_CACHE_HOME/exact`` or ``~/.cache/exact``).
A matrix file is keyed by the sha256 of both lists and :data:`exact.feedback.RULE_VERSION`; its
sidecar JSON, written last, holds the shape, dtype and a blake2b digest. A file is read only after its
npy header (shape and dtype) matches what the key implies and its size matches the header; then its
digest is checked; a file that fails any check, or fails to load at all, is corrupt or stale and is
rebuilt with a message. Both files are written to a temporary name and renamed (:mod:`exact.fileio`),
so an interrupted build leaves no half-written cache; the temporary files of a killed run are removed
by the next one (:func:`clean_stale`).

>>> import numpy as np
>>> F = np.array([[0, 0, 1, 1], [0, 1, 0, 1]], dtype=np.uint8)
>>> count_classes(F, [0]), count_classes(F, [0, 1])
(2, 4)
>>> [c.tolist() for c in joint_classes(F, [0], np.arange(4))]
[[0, 1], [2, 3]]
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

from exact import feedback as fb, progress as prog
from exact import stop
from exact._kernels import pattern_histograms
from exact.errors import ExactError
from exact.fileio import atomic_write, temp_owner
from exact.progress import say
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


def _say(message: str) -> None:
    say(message)


def _paths(guesses: WordList, answers: WordList) -> tuple[Path, Path]:
    stem = cache_dir() / f"feedback-{matrix_key(guesses, answers)}"
    return stem.with_suffix(".npy"), stem.with_suffix(".json")


def _read_checked(npy: Path, meta: Path, shape: tuple[int, int], dtype: np.dtype) -> np.ndarray:
    """The matrix of a cache file, or ValueError: everything is checked before memory is allocated
    (the sidecar, the npy header's shape and dtype against what the key implies, the file size), and
    the digest after reading."""
    info = json.loads(meta.read_text())
    if not isinstance(info, dict):
        raise ValueError("sidecar is not a JSON object")
    if (info.get("rule_version") != fb.RULE_VERSION or info.get("dtype") != str(dtype)
            or info.get("shape") != list(shape) or not isinstance(info.get("digest"), str)):
        raise ValueError("sidecar does not match the key")
    with open(npy, "rb") as f:
        version = npy_format.read_magic(f)
        if version == (1, 0):
            file_shape, fortran, file_dtype = npy_format.read_array_header_1_0(f)
        elif version == (2, 0):
            file_shape, fortran, file_dtype = npy_format.read_array_header_2_0(f)
        else:
            raise ValueError(f"npy version {version}")
        if tuple(file_shape) != shape or fortran or file_dtype != dtype:
            raise ValueError(f"header says {file_shape} {file_dtype}, expected {shape} {dtype}")
        offset = f.tell()
    if npy.stat().st_size != offset + shape[0] * shape[1] * dtype.itemsize:
        raise ValueError("file size does not match the header")
    matrix = np.fromfile(npy, dtype=dtype, offset=offset).reshape(shape)
    if _digest(matrix) != info["digest"]:
        raise ValueError("digest mismatch")
    return matrix


def load_cached(guesses: WordList, answers: WordList, quiet: bool = False) -> np.ndarray | None:
    """The cached matrix, verified; None when absent. A bad file is reported (unless ``quiet``) and ignored."""
    npy, meta = _paths(guesses, answers)
    clean_stale(npy.parent)
    if not (npy.is_file() and meta.is_file()):
        return None
    dtype = fb.pattern_dtype(guesses.length)
    try:
        return _read_checked(npy, meta, (len(guesses), len(answers)), dtype)
    except Exception:  # noqa: BLE001 - whatever fails to load is a corrupt file, to be rebuilt
        if not quiet:
            _say(f"cache file {npy} is corrupt or stale; rebuilding it")
        return None


def save_cached(guesses: WordList, answers: WordList, matrix: np.ndarray) -> None:
    npy, meta = _paths(guesses, answers)
    info = {
        "rule_version": fb.RULE_VERSION,
        "shape": list(matrix.shape),
        "dtype": str(matrix.dtype),
        "digest": _digest(matrix),
        "guesses": {"source": guesses.source, "sha256": guesses.sha256},
        "answers": {"source": answers.source, "sha256": answers.sha256},
    }
    try:
        atomic_write(npy, lambda f: np.save(f, matrix, allow_pickle=False), mkdir=True)  # the cache's own folders
        atomic_write(meta, lambda f: f.write(json.dumps(info, indent=1).encode()), mkdir=True)
    except OSError as e:
        _say(f"could not write the cache in {npy.parent} ({e.strerror or e}); continuing without it")


#: Temporary cache files of a dead process older than this are removed at start; so are those of
#: any age whose writer (the pid in the name) is gone.
STALE_SECONDS = 3600


def clean_stale(folder: Path) -> list[Path]:
    """Remove the temporary files that a killed build left in the cache (``.feedback-*.tmp``)."""
    removed = []
    try:
        candidates = list(folder.glob(".feedback-*.tmp"))
    except OSError:
        return removed
    now = time.time()
    for tmp in candidates:
        pid = temp_owner(tmp)
        try:
            stale = not pid_alive(pid) if pid is not None else now - tmp.stat().st_mtime > STALE_SECONDS
            if stale:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
    if removed:
        _say(f"removed {len(removed)} unfinished cache file(s) left in {folder} by a killed run")
    return removed


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def required_bytes(rows: int, columns: int, length: int) -> int:
    """Bytes of a feedback matrix of this shape (what building or loading it allocates)."""
    return rows * columns * fb.pattern_dtype(length).itemsize


def available_bytes() -> int | None:
    """Memory available to a new allocation (Linux MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(rows: int, columns: int, length: int, what: str) -> None:
    """A one-line ExactError, before anything is allocated, when the matrix would not fit."""
    need = required_bytes(rows, columns, length)
    free = available_bytes()
    if free is not None and need > free:
        raise ExactError(f"{what}: the feedback matrix ({rows} x {columns}) needs {_size(need)} of memory, "
                         f"but {_size(free)} is available; use shorter word lists")


#: A feedback matrix from this size on is announced before it is made (:func:`warn_large`): the shipped
#: lists' largest, 14855 x 14855 guesses, is 210 MiB; 512 MiB is a list of some 23000 words and more.
LARGE_MATRIX_BYTES = 512 * 1024 * 1024


def warn_large(rows: int, columns: int, length: int, what: str) -> None:
    """On stderr, before the work starts: what a large matrix costs in memory, and that it takes long."""
    need = required_bytes(rows, columns, length)
    if need >= LARGE_MATRIX_BYTES:
        _say(f"{what}: large lists: the feedback matrix ({rows} x {columns}) takes {_size(need)} of memory, "
             "and building it and solving on it may take long (Ctrl-C stops)")


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}" if unit != "bytes" else f"{n} bytes"
        n /= 1024
    return f"{n} bytes"


def build_matrix(guesses: Sequence[str], answers: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
    """The feedback matrix, built in row chunks so that a progress bar runs and Ctrl-C gets through."""
    total = len(guesses)
    if progress is None:
        progress = total * len(answers) >= 20_000_000
    if not progress or total <= _CHUNK_ROWS:
        with stop.held():  # numba's parallel kernels must not be interrupted inside (exact.stop.held)
            return fb.compute_feedback_matrix(guesses, answers)
    out = np.empty((total, len(answers)), dtype=fb.pattern_dtype(len(answers[0])))  # no second copy
    with prog.bar(total=total, desc="feedback matrix", unit="guess") as bar:
        for start in range(0, total, _CHUNK_ROWS * 4):
            chunk = guesses[start:start + _CHUNK_ROWS * 4]
            with stop.held():
                out[start:start + len(chunk)] = fb.compute_feedback_matrix(chunk, answers)
            bar.update(len(chunk))
    return out


def feedback_matrix(guesses: WordList, answers: WordList, *, cache: bool = True,
                    progress: bool | None = None) -> np.ndarray:
    """The feedback matrix of two word lists, from the cache when a verified copy is there.

    A matrix larger than the memory available is refused at once (a one-line ExactError).
    """
    if guesses.length == answers.length:
        check_memory(len(guesses), len(answers), guesses.length,
                     f"{guesses.source} x {answers.source}")
        warn_large(len(guesses), len(answers), guesses.length, f"{guesses.source} x {answers.source}")
    if not cache:
        return build_matrix(guesses.words, answers.words, progress=progress)
    matrix = load_cached(guesses, answers)
    if matrix is not None:
        return matrix
    with building(guesses, answers):  # another process building it first: read its copy when done
        matrix = load_cached(guesses, answers, quiet=True)
        if matrix is None:
            say_building(guesses, answers)
            matrix = build_matrix(guesses.words, answers.words, progress=progress)
            save_cached(guesses, answers, matrix)
    return matrix


@contextmanager
def building(guesses: WordList, answers: WordList) -> Iterator[None]:
    """One process at a time builds a matrix for the cache (an exclusive lock on the cache folder itself, so
    no lock file is left behind): a server and its first worker, or two runs started together, build it once,
    the others wait and read it. Where the folder cannot be locked, every process builds its own copy."""
    folder = _paths(guesses, answers)[0].parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


#: A matrix to build and cache of at least this many bytes is announced first (the original lists'
#: 12972 x 2315 is 29 MiB and takes seconds; the NYT's 14855 x 14855, 210 MiB, longer): a first run
#: says what it is doing instead of computing in silence.
BUILD_NOTICE_BYTES = 1024 * 1024


def say_building(guesses: WordList, answers: WordList) -> None:
    """One line on stderr before a feedback matrix is built for the cache, when it is large."""
    need = required_bytes(len(guesses), len(answers), guesses.length)
    if need >= BUILD_NOTICE_BYTES:
        _say(f"building the feedback matrix of {guesses.source} x {answers.source} ({_size(need)}) once: it is "
             f"cached in {cache_dir()} for every later run")


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


def joint_classes(F: np.ndarray, guesses: Sequence[int], answers: np.ndarray,
                  start: np.ndarray | None = None) -> list[np.ndarray]:
    """The classes of ``answers`` under several ``guesses`` together (two answers share a class when
    every guess, and ``start``, gives both the same pattern), largest first (ties by first member)."""
    answers = np.asarray(answers)
    keys = class_keys(F, guesses, answers, start)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cuts = np.flatnonzero(np.diff(sorted_keys)) + 1
    classes = np.split(answers[order], cuts)
    classes.sort(key=lambda c: (-len(c), c[0]))
    return classes


def classes(F: np.ndarray, guess: int, answers: np.ndarray) -> dict[int, np.ndarray]:
    """The classes of a guess on a set of answers: pattern -> the answers giving that pattern, in
    pattern order (each class in the answers' order)."""
    answers = np.asarray(answers)
    return classes_of_row(F[guess, answers], answers)


def classes_of_row(row: np.ndarray, answers: np.ndarray) -> dict[int, np.ndarray]:
    """:func:`classes` given the guess's feedback on the answers, ``row[i]`` for ``answers[i]`` (a
    row of a matrix other than ``F``, or computed on the fly)."""
    order = np.argsort(row, kind="stable")
    patterns, starts = np.unique(row[order], return_index=True)
    return {int(p): part for p, part in zip(patterns, np.split(np.asarray(answers)[order], starts[1:]))}


def largest_first(classes_by_pattern: dict[int, np.ndarray]) -> list[tuple[int, np.ndarray]]:
    """The classes as (pattern, class) pairs, largest class first (ties by pattern)."""
    return sorted(classes_by_pattern.items(), key=lambda pc: (-len(pc[1]), pc[0]))


def class_counts(F: np.ndarray, answers: np.ndarray | None = None) -> np.ndarray:
    """(guesses, patterns) array: how many of the answers each guess sends to each pattern."""
    rows = F if answers is None else F[:, answers]
    patterns = int(rows.max()) + 1 if rows.size else 1
    return _class_counts(rows, patterns)


def _class_counts(rows: np.ndarray, patterns: int) -> np.ndarray:
    rows = np.ascontiguousarray(rows)
    with stop.held():
        return pattern_histograms(rows, patterns)
