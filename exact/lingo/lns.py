"""Large-neighbourhood steps by CP-SAT: re-choose j of the k guesses exactly over a wide candidate pool.

Data types: ``F`` (guesses x answers, the pool both ways), ``first`` (first letters), a set ``S`` of
k pool rows; a *neighbourhood* keeps ``k - j`` guesses of S fixed and frees the other j.

One step. Fix ``T`` (k - j guesses). Label every answer by its signature under T (first letter and
the feedback of each guess of T): two answers with different labels are told apart whatever else is
chosen. Choosing the j free guesses from a candidate pool C is then exactly the Lingo model of
:mod:`exact.lingo.cpsat` with the rows ``F[C]`` as guesses and those labels in place of the first
letters (the model counts classes of pairs sharing a label), so CP-SAT's optimum is the most wins of
``T + any j words of C``, proven when the status is OPTIMAL. C: the current free guesses plus, for
each free position, the words that score best in it with the others of S fixed
(:func:`exact.lingo.search.marginal_wins`), up to ``candidates`` words in all.

:func:`lns` walks every neighbourhood of size j (all j-subsets of positions), moves to any better set
found (re-scored from scratch with :func:`exact.lingo.score.count_wins`) and repeats until a full
round finds nothing better. Ctrl-C returns the best set so far, marked interrupted.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from exact import cpsat, progress
from exact.errors import InternalError
from exact.lingo.cpsat import add_hint, build_model, hint_groups, pad_guesses, portfolio, reduce_instance
from exact.lingo.score import count_wins, signatures
from exact.lingo.search import make_instance, marginal_wins


@dataclass
class LnsStep:
    fixed: tuple[int, ...]
    candidates: int
    wins: int  # the best wins CP-SAT found in this neighbourhood
    bound: int  # CP-SAT's proven bound for the neighbourhood
    status: str
    seconds: float


@dataclass
class LnsResult:
    guesses: tuple[int, ...]
    wins: int
    start_wins: int
    steps: list[LnsStep] = field(default_factory=list)
    interrupted: bool = False


def candidate_pool(F: np.ndarray, first: np.ndarray, S: Sequence[int], free: Sequence[int], size: int) -> np.ndarray:
    """The free guesses plus the best replacements of each free position (the others of S fixed)."""
    inst = make_instance(F, first)
    chosen = [S[i] for i in free]
    per = max(1, (size - len(chosen)) // max(1, len(free)))
    for i in free:
        others = [S[t] for t in range(len(S)) if t != i]
        scores = marginal_wins(inst, others)
        order = np.lexsort((np.arange(len(scores)), -scores))
        added = 0
        for g in order:
            if added >= per:
                break
            if int(g) not in chosen and int(g) not in S:
                chosen.append(int(g))
                added += 1
    return np.array(sorted(set(chosen)), dtype=np.int64)


def neighbourhood(F: np.ndarray, first: np.ndarray, S: Sequence[int], free: Sequence[int], candidates: int,
                  time_limit: float, workers: int, seed: int) -> tuple[tuple[int, ...], LnsStep]:
    """The best set ``S minus the free positions + j words of the pool C`` by CP-SAT (the docstring)."""
    t0 = time.perf_counter()
    fixed = [S[t] for t in range(len(S)) if t not in free]
    C = candidate_pool(F, first, S, free, candidates)
    labels = np.unique(signatures(F, fixed, first), return_inverse=True)[1].astype(np.int64)
    Fc = np.ascontiguousarray(F[C])
    reduced = reduce_instance(Fc, labels, len(free))
    local = {int(g): i for i, g in enumerate(C)}
    hinted = hint_groups(reduced, Fc, labels, [local[S[t]] for t in free])
    lm = build_model(reduced)
    add_hint(lm, reduced, hinted)
    out = cpsat.run(lm.model, time_limit=time_limit, workers=workers, seed=seed, parameters=portfolio(workers))
    if not out.has_solution:
        return tuple(S), LnsStep(tuple(fixed), len(C), count_wins(F, list(S), first), F.shape[1], "UNKNOWN",
                                 time.perf_counter() - t0)
    rows = reduced.rows
    picked = pad_guesses([int(rows[p]) for p, x in enumerate(lm.x) if out.value(x)], reduced, len(free))
    new = tuple(sorted(fixed + [int(C[r]) for r in picked]))
    wins = count_wins(F, list(new), first)
    if wins != round(out.objective):
        raise InternalError(f"CP-SAT objective {out.objective} != {wins} wins re-scored: a model bug")
    step = LnsStep(tuple(fixed), len(C), wins, out.floor_bound(), out.status, time.perf_counter() - t0)
    if out.interrupted:
        raise KeyboardInterrupt
    return new, step


def lns(F: np.ndarray, first: np.ndarray, S: Sequence[int], *, free: int = 2, candidates: int = 300,
        time_limit: float = 60.0, workers: int = 2, seed: int = 0, rounds: int = 3) -> LnsResult:
    """CP-SAT neighbourhoods of ``free`` positions until a round finds nothing better (see the docstring)."""
    S = tuple(sorted(int(g) for g in S))
    wins = count_wins(F, list(S), first)
    out = LnsResult(S, wins, wins)
    try:
        for _ in range(rounds):
            improved = False
            for positions in itertools.combinations(range(len(S)), free):
                new, step = neighbourhood(F, first, out.guesses, positions, candidates, time_limit, workers, seed)
                out.steps.append(step)
                progress.say(f"lns: fixed {step.fixed}: {step.candidates} candidates, best {step.wins}, "
                             f"bound {step.bound} ({step.status}, {step.seconds:.0f} s)")
                if step.wins > out.wins:
                    out.guesses, out.wins, improved = new, step.wins, True
            if not improved:
                break
    except KeyboardInterrupt:
        out.interrupted = True
    return out
