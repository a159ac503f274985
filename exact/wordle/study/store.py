"""Solved positions on disk: a position is solved once per machine (``exact wordle serve``).

An SQLite file (the standard library's ``sqlite3``) maps a *position key* to what was solved there: the
best guess, its value and whether the value is proven. The key is a sha256 over what determines the
answer (:func:`position_key`): both lists' sha256, the mode, the objective and its guess limit, the guesses
left, the sorted answers left, in hard mode the history (its rule limits the guesses) and, under answer
weights (a prior), their sha256 (without weights the key is what it always was). Two games
that reach the same answers left by different guesses share an entry (outside hard mode).

Guarantees, each argued here:

- *a kill mid-write leaves the store consistent*: every write is one transaction (``with connection``),
  which SQLite commits or rolls back as a whole (its journal survives the process);
- *a size cap*: at most ``cap`` rows; a write beyond it evicts the least recently used rows first, in the
  same transaction, so the cap holds after every commit;
- *a corrupt store is never trusted*: an SQLite file (its header, :data:`SQLITE_HEADER`) that SQLite cannot
  read as a store of this schema is renamed aside (``NAME.corrupt-N``) with a one-line warning, and an empty
  store takes its place; a file that is not SQLite at all (``--store /etc/passwd``) is refused in one line
  and left untouched; a missing folder is refused, not made (but the default store's cache folder).

>>> import tempfile, pathlib
>>> s = Store(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite", cap=2)
>>> s.put("k1", Solution("salet", 7920, 2315, True)); s.get("k1").value
7920
>>> s.put("k2", Solution("crane", 10, 4, True)); s.put("k3", Solution("trace", 9, 3, True)); len(s), s.get("k1")
(2, None)
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from exact.errors import ExactError
from exact.fileio import ensure_parent
from exact.words import ExactWarning, WordList

#: the objectives a position is solved for: the fewest total guesses, the most wins within k
OBJECTIVES = ("guesses", "wins")
#: rows kept at most by default: a row is about 150 bytes, so the file stays below about 30 MB
DEFAULT_CAP = 200_000
SCHEMA = ("CREATE TABLE IF NOT EXISTS solved (key TEXT PRIMARY KEY, guess TEXT NOT NULL, value INTEGER NOT NULL, "
          "n INTEGER NOT NULL, proven INTEGER NOT NULL, used REAL NOT NULL)")


class Solution(NamedTuple):
    """What is stored for a position: the best guess found, its value (the objective's: total guesses
    from here over the answers left, or answers won within the guesses left), the answers left, and
    whether the value is proven optimal."""

    guess: str
    value: int
    n: int
    proven: bool


def position_key(answers: WordList, guesses: WordList, hard: bool, objective: str, limit: int,
                 history: Sequence[tuple[str, int]], left: Sequence[str], weights_sha256: str | None = None) -> str:
    """The key of a position: a sha256 over every input that determines its solution (module docstring);
    ``weights_sha256``: the answer weights' (None: no weights)."""
    parts = [answers.sha256, guesses.sha256, "hard" if hard else "normal", objective, str(limit),
             str(limit - len(history)), ",".join(sorted(left))]
    if hard:
        parts.append(";".join(f"{g}:{p}" for g, p in history))
    if weights_sha256 is not None:
        parts.append(f"weights {weights_sha256}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


#: the first bytes of every SQLite database file (sqlite.org/fileformat.html, "The Database Header")
SQLITE_HEADER = b"SQLite format 3\x00"


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` may be a store: missing or empty (SQLite makes one there), or starting with
    :data:`SQLITE_HEADER`. Only such a file is ever opened by SQLite, or set aside when unreadable."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return True
    except OSError as e:
        raise ExactError(f"{path}: the store cannot be read ({e.strerror})", params=("store",)) from None
    return head in (b"", SQLITE_HEADER)


class Store:
    """The on-disk store of solved positions (module docstring): ``get``, ``put``, ``len``."""

    def __init__(self, path: str | Path, cap: int = DEFAULT_CAP, make_folder: bool = False):
        if cap < 1:
            raise ExactError(f"the store's cap must be at least 1 row, not {cap}", params=("store_cap",))
        self.path, self.cap = Path(path), cap
        if not make_folder and not self.path.parent.exists():
            raise ExactError(f"{self.path}: no folder {self.path.parent} (the store is made only in a folder "
                             f"that exists)", params=("store",))
        try:
            ensure_parent(self.path, mkdir=True)
        except OSError as e:
            raise ExactError(f"{self.path}: the store cannot be made here ({e.strerror})", params=("store",)) from None
        self._lock = threading.RLock()  # one connection, shared by the server's threads
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        """The connection; a file that is not a store is set aside, a path that cannot be opened is an ExactError
        (only a regular file is ever renamed)."""
        if self.path.exists() and not self.path.is_file():
            raise ExactError(f"{self.path}: the store must be a regular file", params=("store",))
        if not is_sqlite(self.path):
            raise ExactError(f"{self.path}: not an SQLite file; the store is never made over another file (it is "
                             f"left as it is)", params=("store",))
        try:
            return self._connect()
        except sqlite3.DatabaseError as e:
            if not self.path.is_file() or "unable to open" in str(e):
                raise ExactError(f"{self.path}: the store cannot be opened ({e})", params=("store",)) from None
            try:
                aside = self._set_aside()
            except OSError as moved:
                raise ExactError(f"{self.path}: not a readable store ({e}), and it cannot be set aside "
                                 f"({moved.strerror})", params=("store",)) from None
            warnings.warn(f"{self.path}: not a readable store ({e}); moved to {aside.name}, starting empty",
                          ExactWarning, stacklevel=3)
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, check_same_thread=False, isolation_level=None)
        try:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            db.execute(SCHEMA)
            columns = [row[1] for row in db.execute("PRAGMA table_info(solved)")]
            if columns != ["key", "guess", "value", "n", "proven", "used"]:
                raise sqlite3.DatabaseError(f"unexpected columns {columns}")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _set_aside(self) -> Path:
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        self.path.rename(aside)
        for suffix in ("-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        return aside

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM solved").fetchone()[0]

    def get(self, key: str) -> Solution | None:
        """The stored solution of a position, or None; a hit counts as a use (for the eviction order)."""
        with self._lock:
            row = self._db.execute("SELECT guess, value, n, proven FROM solved WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            with self._transaction():
                self._db.execute("UPDATE solved SET used = ? WHERE key = ?", (time.time(), key))
        if not (isinstance(row[0], str) and all(isinstance(v, int) for v in row[1:])):
            return None  # a row this code did not write (SQLite types loosely): never trusted
        return Solution(row[0], row[1], row[2], bool(row[3]))

    def put(self, key: str, solved: Solution) -> None:
        """Store a solution (replacing the key's), then evict the least recently used rows beyond the cap:
        one transaction, all or nothing."""
        self.put_many([(key, solved)])

    def put_many(self, items: Iterable[tuple[str, Solution]]) -> None:
        """Store several solutions as :meth:`put` does one, in one transaction (the first listed counts as
        the most recently used: it survives the cap first)."""
        now = time.time()
        rows = [(key, s.guess, int(s.value), int(s.n), int(s.proven), now - i * 1e-6)
                for i, (key, s) in enumerate(items)]
        with self._lock, self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO solved VALUES (?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("DELETE FROM solved WHERE key IN (SELECT key FROM solved ORDER BY used DESC, rowid DESC "
                             "LIMIT -1 OFFSET ?)", (self.cap,))

    def _transaction(self):
        return _Transaction(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises (the connection is in autocommit mode,
    so the transaction's bounds are exactly these)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, traceback):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
