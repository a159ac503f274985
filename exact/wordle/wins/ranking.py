"""The global search over every first guess, with an incumbent, a checkpoint and resume.

``exact wordle solve --depth 4 --checkpoint FILE`` (and ``--cluster``, ``--resume``) runs this driver.
It evaluates first guesses in batches, in one process (:func:`run`, the kernels' own threads) or on a
Dask cluster (:mod:`exact.wordle.wins.cluster`), and appends every finished first guess to a checkpoint.

The incumbent and the cheap rejection (why a pruned first guess really is worse):

- the *incumbent* is the best exact value_k(g, A) found so far (0 before any);
- a first guess g is evaluated with threshold t = the incumbent known when it starts (the worker's
  own best included). :meth:`exact.wordle.wins.dp.Search.value` takes g's classes P largest first and
  stops as soon as ``exact wins_{k-1} of the classes done + |P| for every class left < t``: each
  wins_{k-1}(P) <= |P|, so that sum bounds value_k(g, A) from above. The recorded *bound* b < t is
  that sum; g loses at least n - b > n - t answers, more than the incumbent loses, so g is not
  optimal. A class's own wins_{k-1}(P) may itself stop early with a bound (the same argument one
  level down, and for k - 1 = 3 the kernel bound of :func:`exact.wordle.wins.kernels.value3`);
- ties are kept exact (a guess is pruned only strictly below t), so every optimal first guess ends
  with its exact value; the incumbent only grows, so every bound recorded is below the final best.

The order (a heuristic: any order gives the same optimum, only the time differs): first guesses by
decreasing value_2(g, A), the number of classes g makes on A. That is a valid lower bound on
value_k(g, A) for every k >= 2 (a depth-2 strategy is a depth-k strategy) and costs one pass over
the feedback matrix; guesses that split the answers finely come first, so the incumbent is high
early and the rest are rejected after a class or two. Ties by list order.

The checkpoint (JSON lines): a header (format, depth, mode, the lists' sources, counts and sha256,
the order rule, the batch size), then one record per finished first guess: its exact value or the
bound that pruned it, the threshold in force, seconds and worker. Each record is one ``write`` on an
append-only file, flushed and fsynced before the next; a torn last line (a kill during a write) is
dropped on resume. ``--resume FILE`` checks the header against the lists and parameters, takes the
best exact value in the file as the incumbent, and evaluates only the first guesses not in it.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"])
>>> r = run(A, A, depth=2, batch=2, progress=False)
>>> r.wins, r.status, r.optimal_first
(6, 'OPTIMAL', ['abide', 'cable'])
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact import progress as prog
from exact import stop
from exact.errors import ExactError, InternalError
from exact.fileio import lock_checkpoint, lock_path  # noqa: F401 (the lock lives with the file writes)
from exact.partitions import feedback_matrix
from exact.wordle.wins import dp, kernels as dp_kernels
from exact.game.hard import no_constraint
from exact.game.tree import Tree, replay
from exact.words import WordList, list_name, shorten

FORMAT = "exact-wordle-first-guess-checkpoint/1"
ORDER = ("decreasing value_2(g, A) (classes of g on the answers), ties by list order; value_2 is a "
         "lower bound on value_k for k >= 2, used only to order")
BOUND = ("a first guess is pruned when the exact wins_{k-1} of its classes evaluated (largest first) "
         "+ |P| for every class left < the incumbent; that sum (recorded as its bound) is an upper "
         "bound on value_k(g, A): wins_{k-1}(P) <= |P|")
METHOD = ("every first guess g: value_k(g, A) = sum over g's classes P of wins_{k-1}(P) by the exact DP of "
          "exact.wordle.wins.dp (its kernels and bounds), with the incumbent (best exact value so far) as "
          "threshold; exact.wordle.wins.ranking")
#: First guesses per task (a Dask task or one in-process step).
BATCH = 8


# --- one finished first guess ---------------------------------------------------------------------

@dataclass
class Outcome:
    """A finished first guess: its exact value, or an upper bound below the threshold it faced."""

    guess: str
    value: int
    exact: bool
    threshold: int
    seconds: float
    worker: str

    def to_json(self) -> dict:
        return {"guess": self.guess, "value": self.value, "exact": self.exact,
                "threshold": self.threshold, "seconds": round(self.seconds, 3), "worker": self.worker}

    @classmethod
    def from_json(cls, d: dict) -> Outcome:
        """A record; a field of the wrong type is a TypeError (``"exact": "false"`` is not True)."""
        whole = lambda x: isinstance(x, int) and not isinstance(x, bool) and x >= 0  # noqa: E731
        if not (isinstance(d, dict) and isinstance(d.get("guess"), str) and whole(d.get("value"))
                and isinstance(d.get("exact"), bool) and whole(d.get("threshold"))
                and isinstance(d.get("seconds"), (int, float)) and not isinstance(d.get("seconds"), bool)
                and isinstance(d.get("worker"), str)):
            raise TypeError("not a first-guess record")
        return cls(d["guess"], d["value"], d["exact"], d["threshold"], float(d["seconds"]), d["worker"])


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


# --- evaluating a batch (in this process or on a worker) ----------------------------------------

_SEARCHES: dict[tuple, dp.Search] = {}


def search_for(answers: WordList, guesses: WordList, hard: bool, F: np.ndarray) -> dp.Search:
    """The Search for these lists, built once per process (its root node is reused by every task)."""
    key = (answers.sha256, guesses.sha256, hard)
    if key not in _SEARCHES:
        _SEARCHES.clear()
        _SEARCHES[key] = dp.Search(dp.make_wins_instance(answers, guesses, hard, F))
    return _SEARCHES[key]


def evaluate_batch(data: tuple, rows: list[int], incumbent: int, depth: int, shared=None) -> list[Outcome]:
    """value_depth(g, A) of each first guess row g, each exact or a bound below the threshold.

    ``data`` = (answers, guesses, hard, F). The threshold of each guess is the largest of
    ``incumbent``, the exact values found earlier in this batch and ``shared()`` (a callable giving
    the cluster-wide incumbent, or None).
    """
    answers, guesses, hard, F = data
    search = search_for(answers, guesses, hard, F)
    T = np.arange(len(answers), dtype=np.int64)
    rule = no_constraint(answers.length)
    out = []
    best = incumbent
    for g in rows:
        if shared is not None:
            best = max(best, shared())
        t = time.perf_counter()
        v, ok = search.value(int(g), T, depth, rule, best)
        out.append(Outcome(guesses.words[g], int(v), bool(ok), best, time.perf_counter() - t, worker_name()))
        if ok:
            best = max(best, int(v))
    return out


# --- the checkpoint -------------------------------------------------------------------------------

def make_header(answers: WordList, guesses: WordList, depth: int, hard: bool, batch: int) -> dict:
    return {
        "format": FORMAT,
        "depth": depth,
        "hard": hard,
        "mode": "hard" if hard else "normal",
        "scope": "all strategies (every first guess)",
        "list": list_name(answers, guesses),
        "answers": {"source": answers.source, "count": len(answers), "sha256": answers.sha256},
        "guesses": {"source": guesses.source, "count": len(guesses), "sha256": guesses.sha256},
        "order": ORDER,
        "bound": BOUND,
        "batch": batch,
    }


#: header fields that must match for --resume (the rest, like sources and batch, may differ)
MUST_MATCH = ("format", "depth", "hard")


#: A checkpoint line is a header or a record of about 120 bytes: a longer line is not a checkpoint's.
MAX_CHECKPOINT_LINE = 4096
#: The largest checkpoint read (the 12972 first guesses of Wordle take about 1.5 MB, repeats included).
MAX_CHECKPOINT = 32 * 1024 * 1024


def _checkpoint_lines(path: Path) -> list[str]:
    """The complete lines of the file (the part after the last newline is torn), read a line at a
    time with the caps above, so that ``/dev/zero`` or a huge file stops at once."""
    lines, size = [], 0
    with open(path, "rb") as f:
        while raw := f.readline(MAX_CHECKPOINT_LINE + 1):
            size += len(raw)
            if len(raw) > MAX_CHECKPOINT_LINE and not raw.endswith(b"\n"):
                raise ExactError(f"{path}:{len(lines) + 1}: line longer than {MAX_CHECKPOINT_LINE} bytes; "
                                 f"not a checkpoint")
            if size > MAX_CHECKPOINT:
                raise ExactError(f"{path}: larger than {MAX_CHECKPOINT // (1024 * 1024)} MiB; not a checkpoint")
            if not raw.endswith(b"\n"):
                break
            lines.append(raw[:-1].decode("utf-8"))
    return lines


def read_json_lines(path: str | Path, fmt: str, record, kind: str = "first-guess") -> tuple[dict, list]:
    """(header, records) of a JSON-lines checkpoint whose header has ``format`` ``fmt``, read with the
    size and line caps; ``record`` turns each later line into a record (raising KeyError, TypeError or
    ValueError for a bad one). A torn last line is ignored, any other bad line is an error naming the
    file and line. ``kind`` names the checkpoint in the errors. Used by every checkpoint of first guesses
    (this search's and the fewest-guesses ranking's)."""
    path = Path(path)
    try:
        complete = _checkpoint_lines(path)
    except FileNotFoundError:
        raise ExactError(f"{path}: no such checkpoint") from None
    except IsADirectoryError:
        raise ExactError(f"{path}: is a directory, not a checkpoint") from None
    except UnicodeDecodeError as e:
        raise ExactError(f"{path}: not UTF-8 text ({e.reason}); not a checkpoint") from None
    except OSError as e:
        raise ExactError(f"{path}: cannot read the checkpoint ({e.strerror})") from None
    if not complete:
        raise ExactError(f"{path}:1: empty checkpoint (no header)")
    records = []
    header = None
    for number, line in enumerate(complete, start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise ExactError(f"{path}:{number}: not a JSON line ({e.msg})") from None
        except ValueError:  # a number of thousands of digits
            raise ExactError(f"{path}:{number}: not a JSON line (a number with too many digits)") from None
        if number == 1:
            if not isinstance(data, dict) or data.get("format") != fmt:
                raise ExactError(f"{path}:1: not a {kind} checkpoint (format "
                                 f"{data.get('format') if isinstance(data, dict) else data!r:.40})")
            header = data
            continue
        try:
            records.append(record(data))
        except (KeyError, TypeError, ValueError):
            raise ExactError(f"{path}:{number}: not a first-guess record") from None
    return header, records


def read_checkpoint(path: str | Path) -> tuple[dict, list[Outcome]]:
    """(header, records) of a checkpoint of this search (:func:`read_json_lines`)."""
    return read_json_lines(path, FORMAT, Outcome.from_json)


class Checkpoint:
    """An append-only JSON-lines file: the header, then one record per finished first guess; locked
    to one writer (:func:`lock_checkpoint`). A search with other records (the fewest-guesses
    ranking) subclasses it with its own ``read`` and ``check``."""

    @staticmethod
    def read(path: Path):
        return read_checkpoint(path)

    @staticmethod
    def check(old: dict, header: dict, path: Path) -> None:
        check_header(old, header, path)

    def __init__(self, path: str | Path, header: dict, resume: bool = False):
        self.path = Path(path)
        self.fd = None
        self.lock = lock_checkpoint(self.path)  # before anything is read or written
        if resume:
            old, _ = self.read(self.path)
            self.check(old, header, self.path)
            data = self.path.read_bytes()
            keep = data.rfind(b"\n") + 1  # drop a torn last line
            if keep < len(data):
                with open(self.path, "r+b") as f:
                    f.truncate(keep)
        else:
            from exact.fileio import write_text

            write_text(self.path, json.dumps(header) + "\n")
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    def append(self, outcomes: Iterable[Outcome]) -> None:
        for o in outcomes:
            os.write(self.fd, (json.dumps(o.to_json()) + "\n").encode())  # one write per record
            os.fsync(self.fd)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.lock is not None:
            os.close(self.lock)  # closing the descriptor releases the flock
            self.lock = None


def check_outcomes(outcomes: list[Outcome], answers: WordList, guesses: WordList, path: Path) -> None:
    """Each record fits the instance: its guess is a guess, its value and threshold are at most the
    number of answers (value_k(g, A) <= |A|), and a pruned guess's bound is below its threshold."""
    n = len(answers)
    for o in outcomes:
        if o.guess not in guesses.index:
            raise ExactError(f"{path}: first guess {shorten(o.guess)!r} is not in {guesses.source}")
        if o.value > n or o.threshold > n:
            raise ExactError(f"{path}: first guess {o.guess!r} has value {o.value} (threshold {o.threshold}) "
                             f"but there are {n} answers; not a checkpoint of this instance")
        if not o.exact and o.value >= o.threshold:
            raise ExactError(f"{path}: first guess {o.guess!r} is recorded pruned with bound {o.value}, not "
                             f"below its threshold {o.threshold}")
    if len(outcomes) > 4 * len(guesses) + 64:  # batches redone after lost workers repeat a few guesses
        raise ExactError(f"{path}: {len(outcomes)} records for {len(guesses)} first guesses; not a checkpoint "
                         f"of this instance")


def check_header(old: dict, new: dict, path: Path, must_match: tuple[str, ...] = MUST_MATCH) -> None:
    """A checkpoint resumed must be of the same run: the header keys ``must_match`` and the lists' sha256."""
    for key in must_match:
        if old.get(key) != new.get(key):
            raise ExactError(f"{path}:1: the checkpoint has {key} {old.get(key)!r}, this run {new.get(key)!r}")
    for key in ("answers", "guesses"):
        if not (isinstance(old.get(key), dict) and isinstance(old[key].get("source"), str)):
            raise ExactError(f"{path}:1: the checkpoint's header has no valid {key!r} record")
        if old[key].get("sha256") != new[key]["sha256"]:
            raise ExactError(f"{path}:1: the checkpoint's {key} ({old[key]['source']}, sha256 "
                             f"{old[key]['sha256'][:12]}...) differ from this run's ({new[key]['source']})")


# --- the result -----------------------------------------------------------------------------------

@dataclass
class GlobalResult:
    """The outcome of the global search: every first guess resolved (OPTIMAL) or some still open."""

    wins: int
    n: int
    depth: int
    hard: bool
    status: str  # OPTIMAL, FEASIBLE (stopped with some first guesses open) or UNKNOWN
    optimal_first: list[str]
    outcomes: list[Outcome]  # in evaluation order
    open: list[str]  # first guesses not resolved yet, in the order they would be taken
    seconds: float  # wall time of this run (a resumed run: this part only)
    cores: int
    cluster: str
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    interrupted: bool = False

    @property
    def probability(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def exact_count(self) -> int:
        return sum(o.exact for o in self.outcomes)

    def top(self, count: int = 10) -> list[tuple[str, int]]:
        exact = sorted((o for o in self.outcomes if o.exact), key=lambda o: (-o.value, self.guesses.index[o.guess]))
        return [(o.guess, o.value) for o in exact[:count]]

    def per_worker(self) -> dict[str, dict]:
        table: dict[str, dict] = {}
        for o in self.outcomes:
            row = table.setdefault(o.worker, {"first_guesses": 0, "seconds": 0.0})
            row["first_guesses"] += 1
            row["seconds"] += o.seconds
        return {w: {"first_guesses": r["first_guesses"], "seconds": round(r["seconds"], 1)}
                for w, r in sorted(table.items())}

    def to_json(self) -> dict:
        pruned = [o for o in self.outcomes if not o.exact]
        return {
            "wins": self.wins,
            "n": self.n,
            "probability": self.probability,
            "depth": self.depth,
            "hard": self.hard,
            "status": self.status,
            "scope": "all strategies (every first guess)",
            "optimal_first": self.optimal_first,
            "top": [{"guess": g, "wins": v} for g, v in self.top()],
            "first_guesses": len(self.guesses),
            "first_guesses_resolved": len(self.outcomes),
            "first_guesses_exact": self.exact_count,
            "first_guesses_pruned": len(pruned),
            "largest_pruning_bound": max((o.value for o in pruned), default=None),
            "open": len(self.open),
            "open_first_guesses": self.open[:100],
            "worker_seconds_all_runs": round(sum(o.seconds for o in self.outcomes), 1),
            "this_run": {"seconds": round(self.seconds, 1), "cores": self.cores, "where": self.cluster,
                         "interrupted": self.interrupted,
                         "note": "a resumed run: this part only; first guesses from earlier runs keep "
                                 "their own seconds and worker"},
            "list": list_name(self.answers, self.guesses),
            "answers": {"source": self.answers.source, "count": len(self.answers), "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "method": METHOD,
            "dp_method": dp.METHOD,
            "order": ORDER,
            "bound": BOUND,
            "workers": self.per_worker(),
            "first_guess_outcomes": [o.to_json() for o in self.outcomes],
        }

    def certificate(self, *, files=(), best: GlobalTree | None = None, checkpoint: str | None = None) -> dict:
        """The certificate ``exact wordle rank --depth K --certificate`` writes (kind
        :data:`CERTIFICATE_KIND`): :meth:`to_json`, the checkpoint the run appended to (None: none),
        and the tree files with the summary of :func:`global_tree` (``best``; None: no tree)."""
        data = {"kind": CERTIFICATE_KIND, **self.to_json()}
        data["checkpoint"] = str(checkpoint) if checkpoint else None
        if best is not None:
            data["tree"] = {"files": list(files), **best.info}
        return data


def summarize(answers, guesses, depth, hard, outcomes, order_rows, seconds, cores, cluster,
              interrupted) -> GlobalResult:
    done = {o.guess for o in outcomes}
    open_ = [guesses.words[g] for g in order_rows if guesses.words[g] not in done]
    exact = [o for o in outcomes if o.exact]
    best = max((o.value for o in exact), default=0)
    optimal = sorted(o.guess for o in exact if o.value == best)
    pruned_ok = all(o.exact or o.value < best for o in outcomes)
    if exact and not open_ and pruned_ok:
        status = "OPTIMAL"
    else:
        status = "FEASIBLE" if exact else "UNKNOWN"
    return GlobalResult(best, len(answers), depth, hard, status, optimal, list(outcomes), open_, seconds,
                        cores, cluster, answers, guesses, interrupted)


# --- the driver -----------------------------------------------------------------------------------

def first_guess_order(answers: WordList, guesses: WordList, F: np.ndarray) -> np.ndarray:
    """Guess rows by decreasing number of classes on the answers (value_2), ties by list order."""
    caps = dp_kernels.class_caps(F, np.arange(len(answers), dtype=np.int64), dp.pattern_count(answers.length))
    return np.lexsort((np.arange(len(caps)), -caps)).astype(np.int64)


def prepare(answers, guesses, depth, hard, batch, checkpoint, resume, F):
    """(F, order, outcomes so far, open rows, Checkpoint or None)."""
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    dp.make_wins_instance(answers, guesses, hard, F)  # checks the lists
    if F is None:
        F = feedback_matrix(guesses, answers)
    header = make_header(answers, guesses, depth, hard, batch)
    outcomes: list[Outcome] = []
    if resume is not None:
        old, outcomes = read_checkpoint(resume)
        check_header(old, header, Path(resume))
        check_outcomes(outcomes, answers, guesses, Path(resume))
        seen = {}
        for o in outcomes:  # a batch re-run after a lost worker may repeat a guess: keep the first
            seen.setdefault(o.guess, o)
        outcomes = list(seen.values())
    book = None
    target = checkpoint if checkpoint is not None else resume
    if target is not None:
        same = resume is not None and Path(target).resolve() == Path(resume).resolve()
        book = Checkpoint(target, header, resume=same)
        if not same and outcomes:
            book.append(outcomes)
    order = first_guess_order(answers, guesses, F)
    done = {guesses.index[o.guess] for o in outcomes}
    rows = [int(g) for g in order if int(g) not in done]
    return F, order, outcomes, rows, book


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel the search uses, on six words."""
    from exact.words import words_from_lines

    tiny = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"], "warm-up")
    dp.solve(tiny, tiny, depth=4, progress=False)
    dp.solve(tiny, tiny, depth=3, hard=True, progress=False)


class Reporter:
    """A progress line (exact.progress.say) at most every ``every`` seconds, for logs without a bar."""

    def __init__(self, total: int, every: float = 60.0):
        self.total, self.every, self.last = total, every, time.monotonic()

    def __call__(self, outcomes: list[Outcome], force: bool = False) -> None:
        if force or time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            exact = [o.value for o in outcomes if o.exact]
            pruned = [o.value for o in outcomes if not o.exact]
            prog.say(f"{len(outcomes)}/{self.total} first guesses resolved ({len(exact)} exact, best "
                     f"{max(exact, default=0)}; {len(pruned)} pruned, largest bound {max(pruned, default=None)})")


def batches(rows: list[int], size: int) -> list[list[int]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def run(answers: WordList, guesses: WordList, depth: int = 4, hard: bool = False, batch: int = BATCH,
        checkpoint: str | Path | None = None, resume: str | Path | None = None, progress: bool | None = None,
        F: np.ndarray | None = None, limit: int | None = None) -> GlobalResult:
    """The global search in this process (the kernels use numba's threads).

    ``checkpoint``: append finished first guesses there (with ``resume`` and no ``checkpoint``, to
    the resumed file). ``limit``: stop after that many batches (tests), as if interrupted.
    Ctrl-C (or SIGTERM via :mod:`exact.stop`) stops after saving what is finished; the result is
    then marked interrupted.
    """
    started = time.perf_counter()
    F, order, outcomes, rows, book = prepare(answers, guesses, depth, hard, batch, checkpoint, resume, F)
    data = (answers, guesses, hard, F)
    interrupted = False
    report = Reporter(len(guesses))
    bar = prog.bar(total=len(guesses), desc=f"first guesses (depth {depth})", unit="guess",
                   disable=(not progress) if progress is not None else None, initial=len(outcomes))
    try:
        for i, rows_i in enumerate(batches(rows, batch)):
            if limit is not None and i >= limit:
                interrupted = True
                break
            incumbent = max((o.value for o in outcomes if o.exact), default=0)
            found = evaluate_batch(data, rows_i, incumbent, depth)
            outcomes.extend(found)
            if book is not None:
                book.append(found)
            bar.update(len(found))
            bar.set_postfix(best=max((o.value for o in outcomes if o.exact), default=0))
            report(outcomes)
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        interrupted = True
        prog.say("interrupted; every finished first guess is in the checkpoint" if book
                 else "interrupted; reporting the best found so far")
    finally:
        bar.close()
        if book is not None:
            book.close()
    report(outcomes, force=True)
    return summarize(answers, guesses, depth, hard, outcomes, order, time.perf_counter() - started,
                     prog.cores(), "in-process", interrupted)


# --- the certificate and the tree of the best -----------------------------------------------------

#: the ``kind`` of a global certificate (listed in exact.wordle.certificate.CERTIFICATE_KINDS)
CERTIFICATE_KIND = "wins-global"


@dataclass
class GlobalTree:
    """The tree of an optimal first guess of a global result, and its summary for the certificate."""

    tree: Tree
    info: dict  # first, tie_break, complete, max_guesses, replay (the replay from scratch)


def tie_break(result: GlobalResult) -> str:
    """Among the optimal first guesses, an answer if any, then the earliest in the guess list."""
    words = [w for w in result.optimal_first if w in result.answers.index] or result.optimal_first
    return min(words, key=result.guesses.index.__getitem__)


def global_tree(result: GlobalResult, max_guesses: int = 6, truncate: bool = False) -> GlobalTree:
    """The optimal tree after :func:`tie_break`'s first guess, completed (unless ``truncate``) so that
    every answer is solved within ``max_guesses`` with the wins within the depth kept; replayed from
    scratch, it must win the result's ``wins`` (and solve every answer), else an internal error."""
    from exact.wordle.fewest.complete import complete_and_check
    from exact.wordle.wins.trees import TIE_BREAK, best_tree

    answers, guesses, depth, hard = result.answers, result.guesses, result.depth, result.hard
    root = tie_break(result)
    tree = best_tree(answers, guesses, depth, root, hard)
    if not truncate:
        tree, _ = complete_and_check(tree, answers, guesses, depth, max_guesses, hard)
    played = replay(tree, answers, guesses, depth=depth if truncate else max_guesses, hard=hard)
    wins = sum(played.histogram[:depth])
    if wins != result.wins or not played.valid or (not truncate and played.lost):
        raise InternalError(f"the tree replays to {wins} wins within {depth} "
                            f"({len(played.invalid)} invalid nodes, {len(played.lost)} unsolved), not {result.wins}")
    return GlobalTree(tree, {"first": root, "tie_break": TIE_BREAK, "complete": not truncate,
                             "max_guesses": depth if truncate else max_guesses,
                             "replay": {"wins": wins, "valid": played.valid, "solved": played.wins,
                                        "total_guesses": played.total_guesses,
                                        "histogram": list(played.histogram)}})
