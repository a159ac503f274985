"""``exact lingo solve``: the best k-set we can find, its exact wins, and a valid upper bound.

The pipeline, each phase with its share of the time limit:

1. heuristic search (:mod:`exact.lingo.search`): parallel iterated local search with pair LNS;
2. on pools of at most ``cpsat_max_n`` words, the CP-SAT model (:mod:`exact.lingo.cpsat`) started
   from the search's set as a hint: it may improve the set and proves a bound (OPTIMAL when closed);
3. the upper bound of :mod:`exact.lingo.bound` (where that module is installed; else the trivial
   bound n).

The upper bound reported is the smallest valid one obtained; the status is OPTIMAL exactly when it
equals the wins of the set found. The set's wins are recounted from scratch with
:func:`exact.lingo.score.count_wins` before they are reported.

Ctrl-C (or SIGTERM, after :func:`exact.stop.install`) in any phase stops it and keeps the best set so
far; the later phases are then skipped (an interrupted search leaves the trivial bound n; an
interrupted CP-SAT run or bound keeps the valid bound it had), and the result is marked
``interrupted``. An interrupt before the search found any set raises KeyboardInterrupt.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from exact.errors import ExactError
from exact.feedback import RULE_VERSION
from exact.lingo.bound import upper_bound
from exact.lingo.cpsat import solve_cpsat
from exact.lingo.result import LingoResult
from exact.lingo.score import count_wins, first_letters
from exact.lingo.search import SearchParams, search
from exact.partitions import feedback_matrix
from exact.words import WordList, check_words, require_in_pool


@dataclass(frozen=True)
class SolveParams:
    k: int = 4
    time_limit: float = 120.0       # seconds for all phases together
    seed: int = 0
    workers: int = 2
    max_rounds: int | None = None   # ILS rounds per search worker (deterministic stopping)
    bound_time: float | None = None  # seconds for the bound phase [default: 20% of the time limit]
    cpsat_max_n: int = 400          # run CP-SAT after the search on pools up to this size
    top: int = SearchParams.top
    start: tuple[str, ...] = ()     # worker 0 starts from these words

    def to_json(self) -> dict:
        return dict(self.__dict__)


def check_instance(pool: WordList, params: SolveParams) -> None:
    """The inputs a solve refuses, each with a one-line reason."""
    n = len(pool)
    if params.k < 1:
        raise ExactError(f"k {params.k}: choose at least one guess")
    if params.k > n:
        raise ExactError(f"k {params.k}: the pool {pool.source} has only {n} words")
    if len({w[0] for w in pool.words}) < 2:
        raise ExactError(f"{pool.source}: every word starts with {pool.words[0][0]!r}; "
                         "Lingo needs a pool with at least two first letters")
    if not params.time_limit > 0:
        raise ExactError(f"time_limit {params.time_limit:g}: the time limit must be positive")
    if params.bound_time is not None and not 0 <= params.bound_time < params.time_limit:
        raise ExactError(f"bound_time {params.bound_time:g}: must be at least 0 and below the time limit")
    if params.workers < 1:
        raise ExactError(f"workers {params.workers}: at least one worker")
    if params.max_rounds is not None and params.max_rounds < 1:
        raise ExactError(f"max_rounds {params.max_rounds}: at least one round")
    if params.start:
        start = check_words(params.start, pool.length, "start")
        require_in_pool(start, pool, "start word")
        if len(set(start)) != params.k:
            raise ExactError(f"start {' '.join(start)}: give {params.k} distinct words (k {params.k})",
                             params=("start", "k"))


def budgets(n: int, params: SolveParams) -> tuple[float, float, float]:
    """Seconds for (search, CP-SAT, bound)."""
    bound = 0.2 * params.time_limit if params.bound_time is None else params.bound_time
    rest = params.time_limit - bound
    if n <= params.cpsat_max_n:
        return 0.3 * rest, 0.7 * rest, bound
    return rest, 0.0, bound


def solve_lingo(pool: WordList, params: SolveParams = SolveParams(), *, instance: str | None = None,
                command: str = "", progress: Callable[[str], None] | None = None) -> LingoResult:
    """Search, then CP-SAT on small pools, then the bound: see the module docstring."""
    check_instance(pool, params)
    say = progress or (lambda line: None)
    t0 = time.monotonic()
    n, k = len(pool), params.k
    F = feedback_matrix(pool, pool)
    first = first_letters(pool.words)
    search_time, cpsat_time, bound_time = budgets(n, params)
    say(f"solve: {pool.source}, n = {n}, k = {k}; search {search_time:.0f}s, "
        f"CP-SAT {cpsat_time:.0f}s, bound {bound_time:.0f}s; bound so far: trivial {n}")
    sp = SearchParams(k=k, seed=params.seed, workers=params.workers, time_limit=search_time,
                      max_rounds=params.max_rounds, top=params.top,
                      start=tuple(pool.index[w] for w in check_words(params.start, pool.length)))
    found = search(F, first, sp, progress=say)
    if found.wins < 0:
        if found.interrupted:
            say("solve: interrupted before the search found any set; nothing to report")
            raise KeyboardInterrupt
        raise ExactError("the search found no set; nothing to report")
    guesses, wins = tuple(found.guesses), count_wins(F, found.guesses, first)
    if wins != found.wins:
        raise AssertionError(f"search claimed {found.wins} wins, recount gives {wins}")
    method, stats = "ils+pair-lns", {"search": {"seconds": found.seconds, **found.stats}}
    bounds: list[tuple[int, str, dict]] = [(n, "trivial (n)", {})]
    interrupted = found.interrupted
    if cpsat_time > 0 and not interrupted:
        better, cp = _run_cpsat(pool, F, k, guesses, cpsat_time, params, say)
        if cp is not None:
            stats["cpsat"] = plain(cp.stats | {"status": cp.status, "seconds": cp.seconds, "bound": cp.bound})
            interrupted = bool(cp.stats.get("interrupted", False))
            if better is not None and better[1] > wins:
                guesses, wins = better
            method += "+cp-sat"
            bounds.append((int(cp.bound), f"cp-sat ({cp.status})", {}))
    if not interrupted:
        b, interrupted = _run_bound(pool, F, k, max(bound_time, 1e-3), say)
        if b is not None:
            bounds.append(b)
    rejected = [b for b in bounds if b[0] < wins]
    if rejected:  # a bug in a bound method; the set found stays valid, so report it and go on
        say(f"solve: error: bounds below a set with {wins} wins were rejected: {[b[:2] for b in rejected]}")
        stats["rejected_bounds"] = [list(b[:2]) for b in rejected]
    value, bound_method, details = min((b for b in bounds if b[0] >= wins),
                                       key=lambda b: (b[0], b[1].startswith("trivial")))  # ties: the informative one
    status = "OPTIMAL" if value == wins else "FEASIBLE"
    say(f"solve {time.monotonic() - t0:7.1f}s  {status}: {wins}/{n} ({wins / n:.4%}), bound {value} "
        f"({value / n:.4%}, {bound_method}), gap {100 * (value - wins) / n:.2f} pp")
    return LingoResult(
        instance=instance or Path(pool.source).stem, words=pool.source, instance_sha256=pool.sha256,
        k=k, n=n, guesses=tuple(pool.words[g] for g in sorted(guesses)), wins=wins, upper_bound=value,
        status=status, method=method, bound_method=bound_method, seconds=round(time.monotonic() - t0, 3),
        seed=params.seed, params=params.to_json() | {"search": sp.to_json()}, stats=stats,
        bound_details=details, interrupted=interrupted, command=command, rule_version=RULE_VERSION,
    )


def plain(data):
    """JSON-ready statistics: containers and numbers kept, anything else as its text."""
    if isinstance(data, dict):
        return {str(k): plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain(v) for v in data]
    if isinstance(data, (np.integer, np.floating)):
        return data.item()
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    return str(data)


def _run_cpsat(pool, F, k, guesses, seconds, params, say):
    """CP-SAT from the search's set: (better set or None, outcome)."""
    say(f"solve: CP-SAT on {len(pool)} words from the search's set, {seconds:.0f}s")
    out = solve_cpsat(pool, F, k, hint=list(guesses), time_limit=seconds,
                      workers=max(params.workers, 1), seed=params.seed)
    first = first_letters(pool.words)
    if not out.guesses:
        return None, out
    rows = tuple(int(g) for g in out.guesses)
    wins = count_wins(F, rows, first)
    if wins != out.wins:
        raise AssertionError(f"CP-SAT claimed {out.wins} wins, recount gives {wins}")
    return (rows, wins), out


def _run_bound(pool, F, k, seconds, say):
    """(the bound as (value, method, details) or None, whether an interrupt stopped it)."""
    say(f"solve: upper bound, {seconds:.0f}s")
    try:
        b = upper_bound(pool, F, k, time_limit=seconds)
    except KeyboardInterrupt:
        say("solve: bound interrupted; the bound stays the trivial n")
        return None, True
    except Exception as e:  # noqa: BLE001 - the set found must still be reported and written
        say(f"solve: error: the bound failed ({type(e).__name__}: {e}); the bound stays the trivial n")
        return None, False
    stopped = bool(b.details.get("interrupted"))
    if stopped:
        say("solve: bound interrupted; its anytime value is still valid")
    return (int(b.value), b.method, plain(dict(b.details))), stopped
