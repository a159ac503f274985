"""The global search over every first guess, with an incumbent, a checkpoint and resume.

``exact wordle solve --depth 4 --checkpoint FILE`` (and ``--cluster``, ``--resume``) runs this driver.
It is a search of :mod:`exact.firstguess` (:class:`WinsSearch`), whose driver evaluates the first guesses
in one process (:func:`run`, the kernels' own threads) or on a Dask cluster (``cluster=``), and appends
every finished first guess to a checkpoint.

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
- ``top`` N (the within-k ranking, ``exact wordle rank --depth K --top N``): the threshold is the N-th
  best exact value so far (0 before N are known) instead of the best. A guess pruned against it has
  value <= b < t <= the final N-th best, so it cannot enter the N best; the N best end exact.
  :attr:`GlobalResult.proven_top` counts the exact values at least every recorded bound (each is
  proven in its place: no pruned guess can beat it), as the fewest-guesses ranking does.
- the search of each process is :class:`exact.wordle.wins.bounds.StagedSearch` (``staged=False``:
  the plain :class:`exact.wordle.wins.dp.Search`, the benchmark's baseline): the same recursion, with
  a memo of exact values and upper bounds shared by the first guesses a process evaluates, every
  class first bounded by the memo (a first guess can be pruned before any search), and one second
  guess per partition; its arguments are in that module.
- with answer *weights* (a prior, :mod:`exact.weights`, not unit) the value is the weight won within k
  and every bound above holds with |P| read as W(P), the weight of the class (at most every answer of P
  is won): the staged search runs on the weighted kernels of :mod:`exact.wordle.wins.weighted`, whose
  bounds are argued there; its own three arguments are re-argued for weights in
  :mod:`exact.wordle.wins.bounds` (a class bounded by W(P), the all-green class counting w_g, the memo
  one per instance and weights, one guess per partition since value_3 depends only on the classes and
  their weights), and the unweighted kernels' feature caps are not used under weights. A pruned guess
  loses more weight than the incumbent, so it is not optimal, by the same argument. The checkpoint's
  header records the weights' sha256 (a resume must have the same), the certificate their record and
  the total weight.

The order (a heuristic: any order gives the same optimum, only the time differs): first guesses by
decreasing value_2(g, A), the number of classes g makes on A. That is a valid lower bound on
value_k(g, A) for every k >= 2 (a depth-2 strategy is a depth-k strategy) and costs one pass over
the feedback matrix; guesses that split the answers finely come first, so the incumbent is high
early and the rest are rejected after a class or two. Ties by list order.

The checkpoint (JSON lines): a header (format, depth, mode, the lists' sources, counts and sha256,
the order rule, the batch size), then one record per finished first guess: its exact value or the
bound that pruned it, the threshold in force, seconds and worker (written and read by
:mod:`exact.firstguess`). ``--resume FILE`` checks the header against the lists and parameters, takes the
best exact value in the file as the incumbent, and evaluates only the first guesses not in it.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"])
>>> r = run(A, A, depth=2, batch=2, progress=False)
>>> r.wins, r.status, r.optimal_first
(6, 'OPTIMAL', ['abide', 'cable'])
"""

from __future__ import annotations

import math
import os
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact import firstguess
from exact import progress as prog
from exact.errors import ExactError, InternalError
from exact.firstguess import whole
from exact.partitions import feedback_matrix
from exact.weights import Weights
from exact.wordle.fewest.complete import complete_and_check
from exact.wordle.wins import dp, kernels as dp_kernels
from exact.wordle.wins.bounds import StagedSearch, process_memo
from exact.wordle.wins import result as dp_result
from exact.game.hard import no_constraint
from exact.game.tree import Tree, WinsWithin, replay
from exact.wordle.wins.trees import TIE_BREAK, best_tree
from exact.words import WordList, list_name, words_from_lines

FORMAT = "exact-wordle-first-guess-checkpoint/1"
ORDER = ("decreasing value_2(g, A) (classes of g on the answers), ties by list order; value_2 is a "
         "lower bound on value_k for k >= 2, used only to order")
BOUND = ("a first guess is pruned when the exact wins_{k-1} of its classes evaluated (largest first) "
         "+ an upper bound for every class left (|P|, or a smaller one the memo of "
         "exact.wordle.wins.bounds holds) < the incumbent; that sum (recorded as its bound) is an upper "
         "bound on value_k(g, A): wins_{k-1}(P) <= |P|")
#: the same under answer weights: a class is bounded by its weight (every answer of it won at most once)
BOUND_WEIGHTED = BOUND.replace("|P|", "W(P), the weight of P")
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
    def from_json(cls, d: dict, n: int = 10**7) -> Outcome:
        """A record of an instance of ``n`` answers (value_k(g, A) <= n, and a pruned guess's bound is
        below its threshold); a field of the wrong type is a TypeError (``"exact": "false"`` is not True)."""
        if not (isinstance(d, dict) and isinstance(d.get("guess"), str) and isinstance(d.get("exact"), bool)
                and isinstance(d.get("seconds"), (int, float)) and not isinstance(d.get("seconds"), bool)
                and isinstance(d.get("worker"), str)):
            raise TypeError("not a first-guess record")
        why = f": there are {n} answers"
        value, threshold = whole(d, "value", 0, n, why), whole(d, "threshold", 0, n, why)
        if not d["exact"] and value >= threshold:
            raise ValueError(f"pruned with bound {value}, not below its threshold {threshold}")
        if not (math.isfinite(d["seconds"]) and d["seconds"] >= 0):
            raise ValueError(f"seconds {d['seconds']} is not a time")
        return cls(d["guess"], value, d["exact"], threshold, float(d["seconds"]), d["worker"])


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def make_header(answers: WordList, guesses: WordList, depth: int, hard: bool, batch: int,
                weights: Weights | None = None) -> dict:
    weighed = {"weights": weights.record(), "weights_sha256": weights.sha256} if weights is not None else {}
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
        "bound": BOUND if weights is None else BOUND_WEIGHTED,
        "batch": batch,
        **weighed,
    }


#: header fields that must match for --resume (the rest, like sources and batch, may differ)
MUST_MATCH = ("format", "depth", "hard", "weights_sha256")


# --- the search, for the driver of exact.firstguess ---------------------------------------------------

class WinsSearch(firstguess.Search):
    """value_depth(g, A) of a first guess g against the incumbent (the threshold: the best exact value
    known, higher is tighter); per process, one :class:`exact.wordle.wins.dp.Search` whose root node
    every first guess reuses."""

    FORMAT, KIND, MUST_MATCH, LISTS = FORMAT, "first-guess", MUST_MATCH, ("answers", "guesses")
    # not abandonable: the DP's parallel kernels hold signals back (exact.stop.held) and stop between
    # calls, within a class; a kernel abandoned in a thread would run on into the interpreter's exit
    ABANDONABLE = False

    def __init__(self, answers: WordList, guesses: WordList, depth: int, hard: bool, batch: int, F: np.ndarray,
                 staged: bool = True, top: int = 1, weights: Weights | None = None):
        self.answers, self.guesses, self.depth, self.hard, self.batch, self.F = answers, guesses, depth, hard, batch, F
        # weights (not unit): the weight won, on the weighted kernels (module docstring)
        self.weights = weights if weights is not None and not weights.unit else None
        self.top = top  # the threshold is the top-th best exact value so far (1: the incumbent)
        # staged: the memo, class bounds and one guess per partition of exact.wordle.wins.bounds (argued
        # with and without weights); False: the plain dp.Search (the benchmark's baseline)
        self.staged = staged
        self.DESC = f"first guesses (depth {depth})"

    def header(self) -> dict:
        return {**make_header(self.answers, self.guesses, self.depth, self.hard, self.batch, self.weights), "top": self.top}

    def to_json(self, o: Outcome) -> dict:
        return o.to_json()

    def from_json(self, d: dict) -> Outcome:
        if self.answers is None:
            return Outcome.from_json(d)
        return Outcome.from_json(d, self.weights.total if self.weights is not None else len(self.answers))

    def prepare(self) -> None:
        if self.state is None:
            inst = dp.make_wins_instance(self.answers, self.guesses, self.hard, self.F, self.weights)
            self.state = StagedSearch(inst, process_memo(inst)) if self.staged else dp.Search(inst)

    def warm_up(self) -> None:
        warm_up()

    def evaluate(self, word: str, threshold: int) -> Outcome:
        T = np.arange(len(self.answers), dtype=np.int64)
        t = time.perf_counter()
        v, ok = self.state.value(self.guesses.index[word], T, self.depth, no_constraint(self.answers.length),
                                 threshold)
        return Outcome(word, int(v), bool(ok), threshold, time.perf_counter() - t, worker_name())

    def threshold(self, outcomes: Iterable[Outcome]) -> int:
        """The top-th best exact value (0 while fewer are known): from any subset it is no higher."""
        best = sorted((o.value for o in outcomes if o.exact), reverse=True)
        return best[self.top - 1] if len(best) >= self.top else 0

    def tighter(self, a: int, b: int) -> int:
        return max(a, b)

    def summary(self, outcomes: Iterable[Outcome]) -> str:
        outcomes = list(outcomes)
        exact = [o.value for o in outcomes if o.exact]
        pruned = [o.value for o in outcomes if not o.exact]
        return (f"{len(exact)} exact, best {max(exact, default=0)}; {len(pruned)} pruned, largest bound "
                f"{max(pruned, default=None)}")


def read_checkpoint(path: str | Path) -> tuple[dict, list[Outcome]]:
    """(header, records) of a checkpoint of this search, each record checked (:mod:`exact.firstguess`)."""
    return firstguess.read_checkpoint(path, WinsSearch(None, None, 0, False, 0, None))


# --- the result -----------------------------------------------------------------------------------

@dataclass
class GlobalResult(WinsWithin):
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
    top_n: int = 1  # the N of --top: the threshold was the N-th best exact value so far
    #: answer weights (not unit): ``wins`` is the weight won within ``depth`` of ``weight``, the total weight
    weights: Weights | None = field(default=None, repr=False)
    weight: int | None = None

    @property
    def exact_count(self) -> int:
        return sum(o.exact for o in self.outcomes)

    @property
    def proven_top(self) -> int:
        """How many of the best exact values are proven in their place: every first guess is resolved
        and every pruned one has a bound at most that value (its value <= bound <= v: it cannot beat v)."""
        if self.open:
            return 0
        high = max((o.value for o in self.outcomes if not o.exact), default=None)
        return sum(1 for o in self.outcomes if o.exact and (high is None or o.value >= high))

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
            **self.wins_fields(),
            "status": self.status,
            "scope": "all strategies (every first guess)",
            "optimal_first": self.optimal_first,
            "top": [{"guess": g, "wins": v} for g, v in self.top(max(self.top_n, 10))],
            "top_n": self.top_n,
            "proven_top": self.proven_top,
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
            "dp_method": dp_result.METHOD,
            "order": ORDER,
            "bound": BOUND if self.weights is None else BOUND_WEIGHTED,
            "workers": self.per_worker(),
            "first_guess_outcomes": [o.to_json() for o in self.outcomes],
            **({"weights": self.weights.record(), "weight": self.weight} if self.weights is not None else {}),
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
              interrupted, top: int = 1, weights: Weights | None = None) -> GlobalResult:
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
                        cores, cluster, answers, guesses, interrupted, top_n=top, weights=weights,
                        weight=weights.total if weights is not None else None)



def weight_within(tree: Tree, result: GlobalResult) -> int:
    """The weight of the answers the tree wins within the result's depth, by a replay from scratch."""
    within = replay(tree, result.answers, result.guesses, depth=result.depth, hard=result.hard)
    index, w = result.answers.index, result.weights.values
    return result.weight - sum(int(w[index[a]]) for a in within.lost)


# --- the driver's inputs ------------------------------------------------------------------------

def first_guess_order(answers: WordList, guesses: WordList, F: np.ndarray) -> np.ndarray:
    """Guess rows by decreasing number of classes on the answers (value_2), ties by list order."""
    caps = dp_kernels.class_caps(F, np.arange(len(answers), dtype=np.int64), dp.pattern_count(answers.length))
    return np.lexsort((np.arange(len(caps)), -caps)).astype(np.int64)



def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel the search uses, on six words."""
    tiny = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"], "warm-up")
    dp.solve(tiny, tiny, depth=4, progress=False)
    dp.solve(tiny, tiny, depth=3, hard=True, progress=False)


def run(answers: WordList, guesses: WordList, depth: int = 4, hard: bool = False, batch: int = BATCH,
        checkpoint: str | Path | None = None, resume: str | Path | None = None, progress: bool | None = None,
        F: np.ndarray | None = None, limit: int | None = None, cluster: str | None = None,
        workers: int | None = None, staged: bool = True, top: int = 1,
        weights: Weights | None = None) -> GlobalResult:
    """The global search, in this process (the kernels use numba's threads) or with batches of
    ``batch`` first guesses as Dask tasks (``cluster``: ``local`` or a scheduler's address).

    ``checkpoint``: append finished first guesses there (with ``resume`` and no ``checkpoint``, to
    the resumed file). ``limit``: stop after that many batches (tests), as if interrupted.
    ``staged``: the staged search of :mod:`exact.wordle.wins.bounds` (False: the plain one).
    ``top``: the N best first guesses valued exactly (the threshold: the N-th best exact value so far).
    ``weights`` (not unit): the most weight won, by the same search on the weighted kernels (the module
    docstring).
    Ctrl-C (or SIGTERM via :mod:`exact.stop`) stops after saving what is finished; the result is
    then marked interrupted.
    """
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    if top < 1:
        raise ExactError(f"top must be at least 1, not {top}")
    dp.make_wins_instance(answers, guesses, hard, F)  # checks the lists
    if F is None:
        F = feedback_matrix(guesses, answers)
    order = first_guess_order(answers, guesses, F)
    search = WinsSearch(answers, guesses, depth, hard, batch, F, staged, top, weights)
    done = firstguess.drive(search, [guesses.words[g] for g in order], checkpoint=checkpoint, resume=resume,
                            limit=None if limit is None else limit * batch, cluster=cluster, workers=workers,
                            batch=batch, progress=progress)
    if cluster is None:
        cores, where = prog.cores(), "in-process"
    else:
        where = "local Dask cluster" if cluster == "local" else f"Dask cluster {cluster}"
        cores, where = done.workers, f"{where}, {done.workers} single-threaded workers"
    return summarize(answers, guesses, depth, hard, list(done.records.values()), order, done.seconds, cores, where,
                     done.interrupted or done.limited, top, search.weights)


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
    answers, guesses, depth, hard = result.answers, result.guesses, result.depth, result.hard
    root = tie_break(result)
    tree = best_tree(answers, guesses, depth, root, hard, weights=result.weights)
    if not truncate:
        # with weights the leaves at the depth are kept (each wins its class's heaviest answer)
        tree, _ = complete_and_check(tree, answers, guesses, depth, max_guesses, hard,
                                     keep_leaves=result.weights is not None)
    played = replay(tree, answers, guesses, depth=depth if truncate else max_guesses, hard=hard)
    wins = sum(played.histogram[:depth]) if result.weights is None else weight_within(tree, result)
    if wins != result.wins or not played.valid or (not truncate and played.lost):
        raise InternalError(f"the tree replays to {wins} wins within {depth} "
                            f"({len(played.invalid)} invalid nodes, {len(played.lost)} unsolved), not {result.wins}")
    return GlobalTree(tree, {"first": root, "tie_break": TIE_BREAK, "complete": not truncate,
                             "max_guesses": depth if truncate else max_guesses,
                             "replay": {"wins": wins, "valid": played.valid, "solved": played.wins,
                                        "total_guesses": played.total_guesses,
                                        "histogram": list(played.histogram)}})
