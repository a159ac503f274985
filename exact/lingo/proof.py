"""Lingo, the proof as a search: branch on the first guess of the set, bound each branch with the
column relaxation given that guess (:mod:`exact.lingo.columns`, step 8), close the branches that
cannot beat the best set known.

Data types:

- ``pool``: a :class:`~exact.words.WordList` (the answers and the guesses), k the guesses per set;
- a *branch*: one pool word g, standing for every k-set that holds g;
- a *record* (:class:`Branch`, one checkpoint line): the branch's word, its bound (wins), whether it
  is *closed* (no k-set holding g reaches the target), complete (the bound's search finished; a
  branch stopped by ``branch_time_limit`` keeps the anytime bound, still valid), seconds, nodes;
- the *checkpoint*: JSON lines, a header (pool, k, target, options), then one record per finished
  branch, locked to one writer (:func:`exact.fileio.lock_checkpoint`); ``--resume`` skips the
  branches it holds. A torn last line (a run killed mid-write) is dropped.
- :class:`Coverage`: what the records prove (below).

The argument. Every k-set S holds k words, so it holds the word g of any one branch it belongs to,
and the bound of that branch (step 8 of :mod:`exact.lingo.columns`: valid for every k-set holding
g) bounds wins(S). Every k-set holds at least one word, so once every word of the pool has a record,
**the largest bound over the branches bounds every k-set** (a closed branch counts as target - 1).
With target = best + 1, when every branch is closed the best set is optimal. Before that, the
records prove only what they say about their own branches: "closed" is proven for those first
guesses, and the largest bound among the finished ones is *not* a bound over the whole space.
The column bound without fixed guesses stays valid throughout, so the bound over the whole space
is ``min(column bound, max over branches)`` once the branches cover the pool.

Order ("bound order"): the branches are searched in decreasing order of the letter coverage of the
word (the number of pool words holding each of its distinct letters, summed): the words with the
commonest letters, whose branches keep the bound highest, come first. The order decides nothing
about validity, only which branches a partial run has covered.

Parallel: ``cluster`` (``local`` or a scheduler's address) runs the branches as Dask tasks (one
branch a task, two in flight per worker) through :mod:`exact.cluster`; without it the branches run
one after another in this process. Ctrl-C or SIGTERM stops the search: the finished branches are in
the checkpoint (the branch in progress is dropped and redone by ``--resume``).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from exact import firstguess
from exact import stop
from exact.firstguess import whole
from exact.lingo.columns import column_bound
from exact.seal import is_sealed, sealed
from exact.words import WordList

FORMAT = "exact.lingo.proof"
MUST_MATCH = ("format", "k", "target", "exact_doubles", "pool_sha256", "stop_when_open")


@dataclass(frozen=True)
class Branch:
    guess: str
    bound: int  # no k-set holding the guess wins more (target - 1 when closed)
    closed: bool
    complete: bool
    seconds: float
    nodes: int
    witness: int | None = None  # a real leaf's bad words: this branch's column bound is >= n - witness
    open: bool = False  # the witness is below the target's cutoff: the column bound cannot close this branch


def bound_order(pool: WordList) -> list[str]:
    """The pool's words in the order their branches are searched (see the module docstring)."""
    holding = np.zeros(26, np.int64)
    for w in pool.words:
        for c in set(w):
            holding[ord(c) - 97] += 1
    coverage = {w: int(sum(holding[ord(c) - 97] for c in set(w))) for w in pool.words}
    return sorted(pool.words, key=lambda w: (-coverage[w], w))


def branch(pool: WordList, k: int, guess: str, target: int | None, time_limit: float,
           exact_doubles: int = 1, stop_when_open: bool = False) -> Branch | None:
    """The column bound of the k-sets holding ``guess`` (None when interrupted by Ctrl-C or SIGTERM)."""
    t0 = time.perf_counter()
    b = column_bound(pool, k, time_limit=time_limit, exact_doubles=exact_doubles, fixed=[guess], target=target,
                     stop_when_open=stop_when_open)
    if b.details.get("interrupted"):
        return None
    witness = b.details.get("witness")
    return Branch(guess, int(b.value), bool(b.details.get("closed", False)), bool(b.complete),
                  round(time.perf_counter() - t0, 2), int(b.details["nodes"]),
                  None if witness is None else int(witness), bool(b.details.get("open", False)))


def header(pool: WordList, k: int, target: int | None, exact_doubles: int, time_limit: float,
           stop_when_open: bool = False) -> dict:
    return {"format": FORMAT, "k": k, "target": target, "exact_doubles": exact_doubles,
            "stop_when_open": stop_when_open,
            "pool": str(pool.source), "n": len(pool), "pool_sha256": pool.sha256,
            "branch_time_limit": time_limit, "order": "letter coverage, decreasing (exact.lingo.proof.bound_order)"}


class LingoSearch(firstguess.Search):
    """A branch of the proof for the driver of :mod:`exact.firstguess`: its first guess's column bound
    (no threshold but the fixed ``target``); the bound stops itself at a signal (evaluate gives None)."""

    FORMAT, KIND, MUST_MATCH, DESC = FORMAT, "Lingo search", MUST_MATCH, "lingo branches"

    def __init__(self, pool: WordList | None, k: int, target: int | None, time_limit: float,
                 exact_doubles: int, stop_when_open: bool):
        self.pool, self.k, self.target, self.time_limit = pool, k, target, time_limit
        self.exact_doubles, self.stop_when_open = exact_doubles, stop_when_open
        self.sealed_closed: set[str] = set()  # closed branches read under this installation's seal

    def header(self) -> dict:
        return header(self.pool, self.k, self.target, self.exact_doubles, self.time_limit, self.stop_when_open)

    def to_json(self, record: Branch) -> dict:
        """The record, sealed (:mod:`exact.seal`) so that a resume of this installation takes its
        closed claim as it stands."""
        return sealed(asdict(record))

    def trusted(self, record: Branch) -> bool:
        """An open branch claims only its bound, which the coverage reports as such; a *closed* one
        claims that no set holding its guess reaches the target, and is taken from a checkpoint only
        under this installation's seal; any other (edited, forged, written elsewhere) is searched again."""
        return not record.closed or record.guess in self.sealed_closed

    def from_json(self, d: dict) -> Branch:
        """A record, its counts in range: a bound and a witness at most the pool's size, and (with a
        target) a closed branch complete with a bound below the target, a complete open one not below it."""
        if not isinstance(d, dict) or not isinstance(d.get("guess"), str) or set(d) - BRANCH_FIELDS - {"seal"}:
            raise TypeError("not a Lingo branch")
        n = 10**7 if self.pool is None else len(self.pool)
        r = Branch(**{k: v for k, v in d.items() if k != "seal"})
        whole(d, "bound", 0, n), whole(d, "nodes", 0, 10**15)
        if r.witness is not None:
            whole(d, "witness", 0, n)
        if not all(isinstance(x, bool) for x in (r.closed, r.complete, r.open)):
            raise TypeError("closed, complete and open are true or false")
        if not (isinstance(r.seconds, (int, float)) and not isinstance(r.seconds, bool) and 0 <= r.seconds < 1e9):
            raise ValueError(f"seconds {r.seconds!r:.30} is not a time")
        if self.pool is not None and r.closed and not (self.target is not None and r.complete
                                                        and r.bound < self.target):
            raise ValueError(f"closed with bound {r.bound}, not a complete search below the target {self.target}")
        if self.pool is not None and self.target is not None and r.complete and not r.closed and r.bound < self.target:
            raise ValueError(f"open with bound {r.bound}, below the target {self.target}: it would be closed")
        if r.closed and is_sealed(d):
            self.sealed_closed.add(r.guess)
        return r

    def evaluate(self, word: str, threshold) -> Branch | None:
        return branch(self.pool, self.k, word, self.target, self.time_limit, self.exact_doubles, self.stop_when_open)

    def prepare(self) -> None:
        """Nothing kept between branches."""

    def summary(self, records) -> str:
        return Coverage.of(self.pool, self.k, self.target, list(records)).line()


BRANCH_FIELDS = {"guess", "bound", "closed", "complete", "seconds", "nodes", "witness", "open"}


def read_checkpoint(path: str | Path) -> tuple[dict, list[Branch]]:
    """(header, records), read with the caps of every checkpoint (:mod:`exact.firstguess`); a torn last
    line is ignored, any other bad line is a one-line error."""
    return firstguess.read_checkpoint(path, LingoSearch(None, 0, None, 0.0, 0, False))


@dataclass(frozen=True)
class Coverage:
    """What the records prove (see the module docstring)."""

    n: int
    k: int
    target: int | None
    branches_done: int
    closed: list[str]
    open: list[tuple[str, int]]  # (guess, bound), largest bound first
    seconds: list[float]
    whole: int | None  # the bound over every k-set, once every branch is done
    unclosable: list[tuple[str, int]]  # (guess, n - witness): branches the column bound cannot close

    @classmethod
    def of(cls, pool: WordList, k: int, target: int | None, records: list[Branch]) -> Coverage:
        last = {r.guess: r for r in records}  # a branch redone keeps its last record
        closed = sorted(g for g, r in last.items() if r.closed)
        opened = sorted(((g, r.bound) for g, r in last.items() if not r.closed), key=lambda x: (-x[1], x[0]))
        whole = None
        if len(last) == len(pool) and set(last) == set(pool.words):
            whole = max(r.bound for r in last.values())
        unclosable = sorted(((g, len(pool) - r.witness) for g, r in last.items() if r.open), key=lambda x: (x[1], x[0]))
        return cls(len(pool), k, target, len(last), closed, opened, [r.seconds for r in last.values()], whole,
                   unclosable)

    def largest_open(self) -> int | None:
        return self.open[0][1] if self.open else None

    def eta_seconds(self) -> float | None:
        """The rest of the branches at the mean time per branch so far (one core each)."""
        if not self.seconds:
            return None
        return (self.n - self.branches_done) * float(np.mean(self.seconds))

    def line(self) -> str:
        eta = self.eta_seconds()
        return (f"{self.branches_done}/{self.n} first guesses, {len(self.closed)} closed"
                + (f", {len(self.unclosable)} the column bound cannot close (their bounds >= "
                   f"{self.unclosable[0][1]})" if self.unclosable else "")
                + (f", largest open bound {self.largest_open()} ({self.open[0][0]})" if self.open else "")
                + (f", {np.mean(self.seconds):.1f} s a branch, ETA {eta / 3600:.1f} CPU-hours" if eta is not None
                   else ""))

    def to_json(self) -> dict:
        s = np.array(self.seconds) if self.seconds else np.zeros(1)
        return {"n": self.n, "k": self.k, "target": self.target, "first_guesses_done": self.branches_done,
                "first_guesses_closed": len(self.closed), "closed": self.closed,
                "largest_open_bound": self.largest_open(),
                "open_largest_first": [{"guess": g, "bound": b} for g, b in self.open[:50]],
                "open_bounds_histogram": _histogram([b for _, b in self.open]),
                "first_guesses_the_column_bound_cannot_close": len(self.unclosable),
                "their_column_bounds_are_at_least": [{"guess": g, "at_least": b} for g, b in self.unclosable],
                "seconds_per_branch": {"mean": round(float(s.mean()), 2), "median": round(float(np.median(s)), 2),
                                       "max": round(float(s.max()), 2), "total": round(float(s.sum()), 1)},
                "eta_cpu_hours_rest": None if self.eta_seconds() is None else round(self.eta_seconds() / 3600, 1),
                "bound_over_every_set": self.whole}


def _histogram(values: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[str(v)] = out.get(str(v), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -int(kv[0])))


def run(pool: WordList, k: int, checkpoint: str | Path, *, target: int | None = None, resume: bool = False,
        branch_time_limit: float = 3600.0, exact_doubles: int = 1, limit: int | None = None,
        cluster: str | None = None, workers: int | None = None,
        stop_when_open: bool = False) -> tuple[Coverage, bool]:
    """Search the branches not in the checkpoint (at most ``limit`` of them), in :func:`bound_order`,
    through the driver of :mod:`exact.firstguess` (one branch a Dask task with ``cluster``); returns
    (the coverage of every record, interrupted). ``resume`` of a checkpoint not there starts it."""
    search = LingoSearch(pool, k, target, branch_time_limit, exact_doubles, stop_when_open)
    again = checkpoint if resume and Path(checkpoint).exists() else None
    done = firstguess.drive(search, bound_order(pool), checkpoint=checkpoint, resume=again, limit=limit,
                            cluster=cluster, workers=workers, batch=1)
    if done.interrupted:
        stop.note(stop.received() or 2)
    return Coverage.of(pool, k, target, list(done.records.values())), done.interrupted
