"""Heuristic search for Lingo k-sets: incremental class counting, iterated local search, pair LNS.

Data types, stated once:

- ``F``: the feedback matrix, rows the guesses, columns the answers (for Lingo both are the pool);
- ``first``: the first letter of every word as 0..25 (:func:`exact.lingo.score.first_letters`);
- a *set* ``S``: a tuple of k distinct row indices; its value is ``wins(S)`` = the number of
  distinct signatures (first letter, F[s_1, a], ..., F[s_k, a]) over the answers a;
- *classes* of a partial set: ``(members, bounds, singles)``: ``members`` lists the answers lying in
  classes of size >= 2, grouped, class c being ``members[bounds[c]:bounds[c + 1]]``; ``singles`` counts
  the classes of size 1. A singleton stays a singleton whatever is added, so it is counted once and
  never looked at again; ``wins = singles + len(bounds) - 1``.

Incremental counting: with the classes of k - 1 guesses fixed, adding a candidate g gives
``singles + sum over classes C of #distinct F[g, C]``, an O(|members|) scan per candidate
(:func:`scan`); all candidates are scanned at once in numba with a stamp array, so a whole
neighbourhood costs about n * |members| steps, less when candidates that cannot reach a floor are
abandoned early.

The search (:func:`descend` and :func:`iterated_search`):

1. *swap descent*: for each position i in turn, re-choose guess i as the best of all n words with
   the other k - 1 fixed (one full scan); until no position improves;
2. *pair LNS*: for each pair of positions (i, j), re-optimise both words exactly over a candidate
   pool: the ``top / 2`` best replacements of position i and of position j (the last scans of step 1,
   reused), plus the current two; every pair of that pool is scored with the other k - 2 guesses
   fixed (:func:`best_pair`, the same two kernels);
3. *iterated local search*: kick one or two guesses out, each for a random word among the
   replacements of its position within ``margin`` wins of the current set, descend again (1 + 2),
   accept the new local optimum when it is no worse, restart from a random set after
   ``restart_after`` rounds without improvement.

Workers run independent trajectories with seeds derived from ``(seed, worker)``. The trajectory of a
worker depends only on its seed: for a fixed ``seed`` and ``max_rounds`` (rounds finished before any
time limit) the result is identical on every run; when a time limit stops the workers, the result is
the best over the prefix of each (deterministic) trajectory that they reached in time.

>>> import numpy as np
>>> F = np.array([[0, 1, 0, 1], [0, 0, 1, 1], [2, 2, 2, 2]], dtype=np.uint8)
>>> first = np.zeros(4, dtype=np.int64)
>>> set_wins(F, (0,), first), set_wins(F, (0, 1), first)
(2, 4)
>>> inst = make_instance(F, first)
>>> marginal_wins(inst, [0]).tolist()      # adding each word to the set {0}
[2, 4, 2]
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from multiprocessing import shared_memory

import numba
import numpy as np

from exact.stop import SIGNALS, flagged

# --- Kernels: classes, refining, scanning ---------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def refine(F, g, members, bounds, patterns):
    """The classes after adding guess g: (members, bounds, new singletons)."""
    row = F[g]
    out_members = np.empty(members.size, dtype=np.int32)
    out_bounds = np.empty(members.size // 2 + 2, dtype=np.int32)
    count = np.zeros(patterns, dtype=np.int32)
    start = np.zeros(patterns, dtype=np.int32)
    seen = np.empty(patterns, dtype=np.int32)
    written = 0
    n_out = 0
    singles = 0
    for c in range(bounds.size - 1):
        lo, hi = bounds[c], bounds[c + 1]
        n_seen = 0
        for t in range(lo, hi):
            p = row[members[t]]
            if count[p] == 0:
                seen[n_seen] = p
                n_seen += 1
            count[p] += 1
        for s in range(n_seen):
            p = seen[s]
            if count[p] >= 2:
                out_bounds[n_out] = written
                n_out += 1
                start[p] = written
                written += count[p]
            else:
                singles += 1
        for t in range(lo, hi):
            a = members[t]
            p = row[a]
            if count[p] >= 2:
                out_members[start[p]] = a
                start[p] += 1
        for s in range(n_seen):
            count[seen[s]] = 0
    out_bounds[n_out] = written
    return out_members[:written], out_bounds[:n_out + 1].copy(), singles


@numba.njit(cache=True, nogil=True)
def scan(F, candidates, members, bounds, singles, patterns, floor=-1):
    """wins[i] = the value of the fixed classes plus guess candidates[i].

    Values above ``floor`` are exact; a candidate that cannot beat ``floor`` (even if every member
    still to scan split off alone) is abandoned, and its entry is that bound, which is <= ``floor``.
    """
    wins = np.empty(candidates.size, dtype=np.int64)
    stamp = np.zeros(patterns, dtype=np.int64)
    tick = 0
    m = members.size
    for i in range(candidates.size):
        row = F[candidates[i]]
        total = singles
        for c in range(bounds.size - 1):
            lo, hi = bounds[c], bounds[c + 1]
            if hi - lo == 2:  # most classes are pairs: no stamps needed
                total += 1 + (row[members[lo]] != row[members[lo + 1]])
            else:
                tick += 1
                for t in range(lo, hi):  # branch-free: count a pattern the first time it is stamped
                    p = row[members[t]]
                    total += stamp[p] != tick
                    stamp[p] = tick
            if total + m - hi <= floor:
                total += m - hi
                break
        wins[i] = total
    return wins


@numba.njit(cache=True, nogil=True)
def best_pair(F, candidates, members, bounds, singles, patterns):
    """The best pair (i < j) of candidates added to the fixed classes: (wins, i, j), first best wins ties."""
    best, best_i, best_j = -1, -1, -1
    for i in range(candidates.size - 1):
        m2, b2, s2 = refine(F, candidates[i], members, bounds, patterns)
        wins = scan(F, candidates[i + 1:], m2, b2, singles + s2, patterns, best)
        j = np.argmax(wins)
        if wins[j] > best:
            best, best_i, best_j = wins[j], i, i + 1 + j
    return best, best_i, best_j


@dataclass(frozen=True)
class Instance:
    """What every search step reads: the matrix, the first-letter classes, the pattern count."""
    F: np.ndarray
    first: np.ndarray
    patterns: int
    start_members: np.ndarray
    start_bounds: np.ndarray
    start_singles: int

    @property
    def guesses(self) -> int:
        """How many words may be guessed (rows of F); the answers are its columns."""
        return self.F.shape[0]


def make_instance(F: np.ndarray, first: np.ndarray) -> Instance:
    """Group the answers by first letter: the classes of the empty set."""
    first = np.asarray(first, dtype=np.int64)
    order = np.argsort(first, kind="stable").astype(np.int32)
    _, starts, sizes = np.unique(first[order], return_index=True, return_counts=True)
    keep = sizes >= 2
    members = np.concatenate([order[s:s + z] for s, z in zip(starts[keep], sizes[keep])]) if keep.any() \
        else np.zeros(0, dtype=np.int32)
    bounds = np.concatenate([[0], np.cumsum(sizes[keep])]).astype(np.int32)
    patterns = int(F.max()) + 1 if F.size else 1
    return Instance(np.ascontiguousarray(F), first, patterns, members.astype(np.int32), bounds,
                    int(np.count_nonzero(~keep)))


def classes_of(inst: Instance, rows: Sequence[int]):
    """(members, bounds, singles) of the classes of the guesses ``rows``."""
    members, bounds, singles = inst.start_members, inst.start_bounds, inst.start_singles
    for g in rows:
        members, bounds, s = refine(inst.F, g, members, bounds, inst.patterns)
        singles += s
    return members, bounds, singles


def set_wins(F: np.ndarray, rows: Sequence[int], first: np.ndarray, inst: Instance | None = None) -> int:
    """The number of signatures of a set, through the incremental kernels."""
    inst = inst or make_instance(F, first)
    members, bounds, singles = classes_of(inst, rows)
    return singles + bounds.size - 1


def marginal_wins(inst: Instance, fixed: Sequence[int], candidates: np.ndarray | None = None,
                  floor: int = -1) -> np.ndarray:
    """wins(fixed + {g}) for every candidate g (every word when None); exact above ``floor``."""
    members, bounds, singles = classes_of(inst, fixed)
    if candidates is None:
        candidates = np.arange(inst.guesses, dtype=np.int32)
    return scan(inst.F, np.asarray(candidates, dtype=np.int32), members, bounds, singles, inst.patterns, floor)


# --- Local search ----------------------------------------------------------------------------------


class Stop(Exception):
    """Raised inside a search step when the deadline passed or a stop was requested."""


@dataclass
class Clock:
    """When to stop, and the best set seen so far (kept up to date inside every step, so that a stop
    in the middle of a descent loses nothing)."""
    deadline: float
    stop_requested: Callable[[], bool] = lambda: False
    on_improve: Callable[[int, tuple[int, ...], int], None] = lambda wins, S, rounds: None
    best: tuple[int, ...] = ()
    best_wins: int = -1
    rounds: int = 0

    def check(self) -> None:
        if time.monotonic() >= self.deadline or self.stop_requested():
            raise Stop

    def offer(self, S: Sequence[int], wins: int) -> None:
        if wins > self.best_wins:
            self.best, self.best_wins = tuple(sorted(int(g) for g in S)), int(wins)
            self.on_improve(self.best_wins, self.best, self.rounds)


def swap_descent(inst: Instance, S: list[int], wins: int, clock: Clock, order: np.ndarray,
                 margin: int) -> tuple[list[int], int, dict[int, np.ndarray]]:
    """Re-choose one position at a time as the best word given the others, until none improves.

    Also returns, for every position i, the wins of each word put in place of S[i] (the last k scans,
    all made with the final set), which the pair LNS and the kick reuse. Scores are exact down to
    ``wins - margin``; words below that are abandoned early (the scan's ``floor``).
    """
    k = len(S)
    stale, t = 0, 0
    scores_at: dict[int, np.ndarray] = {}
    while stale < k:
        i = int(order[t % k])
        t += 1
        clock.check()
        others = S[:i] + S[i + 1:]
        scores = marginal_wins(inst, others, floor=wins - margin)
        scores[others] = -1  # a set holds distinct words
        g = int(np.argmax(scores))
        if scores[g] > wins:
            S[i], wins, stale = g, int(scores[g]), 0
            scores_at = {}
            clock.offer(S, wins)
        else:
            stale += 1
        scores_at[i] = scores
    return S, wins, scores_at


def best_of(scores: np.ndarray, m: int, floor: int = -1) -> np.ndarray:
    """The m words with the highest scores (ties by index), among those scoring above floor."""
    best = np.argsort(-scores, kind="stable")[:m]
    return best[scores[best] > floor]


def pair_lns(inst: Instance, S: list[int], wins: int, clock: Clock, top: int,
             scores_at: dict[int, np.ndarray], margin: int) -> tuple[list[int], int, bool]:
    """Re-optimise each pair of positions (i, j) exactly over a candidate pool; keep the first improvement.

    The pool: the best top/2 words for position i and the best top/2 for j (from the swap scans,
    exact down to wins - margin), and the current two; every pair of it is scored with the other
    k - 2 guesses fixed.
    """
    k = len(S)
    floor = wins - margin
    for i, j in combinations(range(k), 2):
        clock.check()
        others = [S[t] for t in range(k) if t not in (i, j)]
        members, bounds, singles = classes_of(inst, others)
        pool = np.concatenate([best_of(scores_at[i], top // 2, floor), best_of(scores_at[j], top // 2, floor),
                               [S[i], S[j]]])
        pool = np.unique(pool).astype(np.int32)
        best, a, b = best_pair(inst.F, pool, members, bounds, singles, inst.patterns)
        if best > wins:
            S = others[:i] + [int(pool[a])] + others[i:]
            S.insert(j, int(pool[b]))
            clock.offer(S, int(best))
            return S, int(best), True
    return S, wins, False


def descend(inst: Instance, S: list[int], clock: Clock, rng: np.random.Generator,
            top: int, margin: int) -> tuple[list[int], int, dict[int, np.ndarray]]:
    """Swap descent and pair LNS alternately, until neither improves: a pair-local optimum."""
    wins = set_wins(inst.F, S, inst.first, inst)
    clock.offer(S, wins)
    while True:
        S, wins, scores_at = swap_descent(inst, S, wins, clock, rng.permutation(len(S)), margin)
        if top <= 0:
            return S, wins, scores_at
        S, wins, improved = pair_lns(inst, S, wins, clock, top, scores_at, margin)
        if not improved:
            return S, wins, scores_at


def kick(S: list[int], wins: int, scores_at: dict[int, np.ndarray], rng: np.random.Generator,
         params: "SearchParams") -> list[int]:
    """Replace 1..kick random positions, each by a random word within ``margin`` wins of the best for it.

    Drawing from the near-best (rather than from all words) keeps the kicked set near good
    sets, so the next descent is short; the draw being random lets the search leave the optimum.
    """
    S = list(S)
    k = len(S)
    for i in rng.choice(k, size=int(rng.integers(1, min(params.kick, k) + 1)), replace=False):
        outside = np.ones(scores_at[int(i)].size, dtype=bool)
        outside[S] = False  # a set holds distinct words
        pool = np.flatnonzero(outside & (scores_at[int(i)] > wins - params.margin))
        if pool.size == 0:
            pool = np.flatnonzero(outside)
        if pool.size:
            S[i] = int(pool[rng.integers(pool.size)])
    return S


@dataclass(frozen=True)
class SearchParams:
    k: int = 4
    seed: int = 0
    workers: int = 2
    time_limit: float = 120.0
    max_rounds: int | None = None  # ILS rounds per worker; with it the result does not depend on timing
    top: int = 120                 # candidate pool of the pair LNS
    kick: int = 2                  # at most this many guesses are replaced per round
    margin: int = 300              # ... each by a random word at most this far below the current wins;
                                   # scans abandon words further below
    restart_after: int = 10        # rounds without improving the current set before a random restart
    start: tuple[int, ...] = ()    # worker 0 starts from this set (a warm start) instead of a random one

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class SearchOutcome:
    guesses: tuple[int, ...]
    wins: int
    seconds: float
    interrupted: bool
    stats: dict = field(default_factory=dict)


def iterated_search(inst: Instance, params: SearchParams, worker: int, deadline: float,
                    stop_requested: Callable[[], bool] = lambda: False,
                    on_improve: Callable[[int, tuple[int, ...], int], None] = lambda w, s, r: None) -> dict:
    """One worker's iterated local search; returns its best set and counters (stops at the deadline)."""
    rng = np.random.default_rng([params.seed, worker])
    clock = Clock(deadline, stop_requested, on_improve)
    k, n = params.k, inst.guesses
    restarts, stale = 0, 0
    S, cur, scores_S = None, -1, None  # the current set, its wins and its per-guess scores
    try:
        while params.max_rounds is None or clock.rounds < params.max_rounds:
            if S is None or stale >= params.restart_after:
                T = [int(g) for g in rng.choice(n, size=k, replace=False)]
                if worker == 0 and params.start and clock.rounds == 0:
                    T = [int(g) for g in params.start]
                restarts += S is not None
                S, stale = None, 0
            else:
                T = kick(S, cur, scores_S, rng, params)
            T, wins, scores_T = descend(inst, T, clock, rng, params.top, params.margin)
            clock.rounds += 1
            if S is None or wins >= cur:
                stale = 0 if S is None or wins > cur else stale + 1
                S, cur, scores_S = T, wins, scores_T
            else:
                stale += 1
    except Stop:
        pass
    return {"worker": worker, "guesses": clock.best, "wins": clock.best_wins, "rounds": clock.rounds,
            "restarts": restarts}


# --- Parallel driver -------------------------------------------------------------------------------


def _attach(name: str, shape, dtype):
    shm = shared_memory.SharedMemory(name=name)
    return shm, np.ndarray(shape, dtype=dtype, buffer=shm.buf)


def _worker_main(shm_name, shape, dtype, first, params, worker, deadline, stop, messages):
    """Entry point of a worker process: Ctrl-C and SIGTERM are the parent's business, it sets ``stop``.

    ``deadline`` is on the parent's ``time.monotonic`` clock, which is system-wide on Linux, so the
    time a worker takes to start counts against the limit.
    """
    for s in SIGNALS:  # Ctrl-C and SIGTERM are the parent's business: it sets ``stop``
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # the parent held them back at the start
    numba.set_num_threads(1)
    shm, F = _attach(shm_name, shape, dtype)
    try:
        inst = make_instance(F, first)
        report = iterated_search(
            inst, params, worker, deadline, stop.is_set,
            lambda wins, S, r: messages.put(("improved", worker, wins, S, r)))
        messages.put(("done", worker, report))
    except BaseException as e:  # the parent must hear about a crash rather than wait forever
        messages.put(("failed", worker, f"{type(e).__name__}: {e}"))
    finally:
        del F
        shm.close()


def search(F: np.ndarray, first: np.ndarray, params: SearchParams,
           progress: Callable[[str], None] | None = None) -> SearchOutcome:
    """Run ``params.workers`` independent trajectories (processes when > 1) and keep the best set.

    Ctrl-C stops the workers cleanly; the best set found so far is returned with ``interrupted``.
    Ties between workers go to the lowest worker number, so the pick is deterministic.
    """
    t0 = time.monotonic()
    say = progress or (lambda line: None)
    best = {"wins": -1, "said": -1, "when": -1.0}

    def note(worker, wins, S, rounds, *, flush=False):
        """Keep the best; say it at most once a second (the descent from a random set is quick)."""
        if wins > best["wins"]:
            best.update(wins=wins, guesses=S, worker=worker, rounds=rounds)
        now = time.monotonic()
        if best["wins"] > best["said"] and (flush or now - best["when"] >= 1.0):
            best.update(said=best["wins"], when=now)
            say(f"search {now - t0:7.1f}s  best {best['wins']}/{F.shape[1]} ({best['wins'] / F.shape[1]:.4%})"
                f"  worker {best['worker']} round {best['rounds']}")

    if params.workers <= 1:
        reports, interrupted = _search_here(F, first, params, t0, note)
    else:
        reports, interrupted = _search_processes(F, first, params, t0, note, say)
    if best["wins"] >= 0:
        note(best["worker"], best["wins"], best["guesses"], best["rounds"], flush=True)
    done = [r for r in reports if r["wins"] >= 0]
    if not done:
        return SearchOutcome((), -1, time.monotonic() - t0, interrupted, {"workers": reports})
    pick = max(done, key=lambda r: (r["wins"], -r["worker"]))
    return SearchOutcome(pick["guesses"], pick["wins"], time.monotonic() - t0, interrupted,
                         {"workers": sorted(reports, key=lambda r: r["worker"]),
                          "rounds": sum(r["rounds"] for r in reports),
                          "best_worker": pick["worker"]})


def _search_here(F, first, params, t0, note):
    inst = make_instance(F, first)
    interrupted = False
    partial = {"worker": 0, "guesses": (), "wins": -1, "rounds": 0, "restarts": 0}

    def remember(wins, S, r):
        partial.update(guesses=S, wins=wins, rounds=r)
        note(0, wins, S, r)

    try:
        report = iterated_search(inst, params, 0, t0 + params.time_limit, on_improve=remember)
    except KeyboardInterrupt:
        interrupted, report = True, partial
    return [report], interrupted


def _search_processes(F, first, params, t0, note, say):
    ctx = mp.get_context("spawn")  # fork after numba's threads have run is not safe
    reports: dict[int, dict] = {}
    latest: dict[int, dict] = {}
    interrupted = False
    # Ctrl-C and SIGTERM are held back while the shared memory is made and the workers start: they
    # inherit the blocked signals and ignore them before unblocking; the parent receives a signal
    # sent meanwhile as soon as it unblocks, and then stops the workers like any later one.
    signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    procs = []
    shm = shared = None
    try:
        shm = shared_memory.SharedMemory(create=True, size=max(F.nbytes, 1))
        shared = np.ndarray(F.shape, dtype=F.dtype, buffer=shm.buf)
        shared[...] = F
        stop, messages = ctx.Event(), ctx.Queue()
        for w in range(params.workers):
            p = ctx.Process(target=_worker_main, daemon=True,
                            args=(shm.name, F.shape, F.dtype.str, first, params, w,
                                  t0 + params.time_limit, stop, messages))
            p.start()
            procs.append(p)
        interrupted = _collect_reports(procs, messages, stop, reports, latest, note, say)
    finally:
        # the workers stop and the shared memory goes, whatever signal comes now
        with flagged() as late:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
            _stop_workers(procs, stop if procs else None)
            del shared
            if shm is not None:
                shm.close()
                shm.unlink()
        interrupted = interrupted or late()
    for w, r in latest.items():  # a worker that never said "done" still counts with its last best
        reports.setdefault(w, r)
    return list(reports.values()), interrupted


def _collect_reports(procs, messages, stop, reports: dict, latest: dict, note, say) -> bool:
    """Read the workers' messages into ``reports`` (their final reports) and ``latest`` (their best
    sets so far) until every worker has reported or died; unblocks the signals first. A Ctrl-C
    sets ``stop`` and keeps collecting. Whether it was interrupted."""
    interrupted = False
    held = True
    while len(reports) < len(procs):
        try:
            if held:
                held = False
                signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
            _take_message(messages.get(timeout=0.5), reports, latest, note, say)
        except queue.Empty:
            if best_so_far := latest and max(latest.values(), key=lambda r: r["wins"]):
                note(best_so_far["worker"], best_so_far["wins"], best_so_far["guesses"], best_so_far["rounds"])
            if not any(p.is_alive() for p in procs) and messages.empty():
                break
        except KeyboardInterrupt:
            interrupted = True
            say("search: interrupted; collecting the workers' best sets")
            stop.set()
    return interrupted


def _take_message(msg, reports: dict, latest: dict, note, say) -> None:
    """One worker message: ("improved", w, wins, S, rounds), ("done", w, report) or (failure, w, text)."""
    kind, w = msg[0], msg[1]
    if kind == "improved":
        _, _, wins, S, rounds = msg
        latest[w] = {"worker": w, "guesses": S, "wins": wins, "rounds": rounds, "restarts": None}
        note(w, wins, S, rounds)
    elif kind == "done":
        reports[w] = msg[2]
    else:
        say(f"search: worker {w} failed: {msg[2]}")
        reports[w] = latest.get(w, {"worker": w, "guesses": (), "wins": -1, "rounds": 0, "restarts": 0})


def _stop_workers(procs, stop) -> None:
    """Tell the workers to stop (``stop``: their event, None if none started), then join them,
    terminating any that outlives its grace."""
    if stop is not None:
        stop.set()
    for p in procs:
        p.join(timeout=10)
        if p.is_alive():
            p.terminate()
            p.join(timeout=5)



if __name__ == "__main__":  # pragma: no cover - a quick manual run: python -m exact.lingo.search WORDS
    from exact.lingo.score import first_letters
    from exact.partitions import feedback_matrix
    from exact.words import read_words

    pool = read_words(sys.argv[1])
    out = search(feedback_matrix(pool, pool), first_letters(pool.words),
                 SearchParams(time_limit=float(sys.argv[2]) if len(sys.argv) > 2 else 30.0),
                 progress=lambda s: print(s, file=sys.stderr))
    print(out.wins, [pool.words[g] for g in out.guesses], out.stats)
