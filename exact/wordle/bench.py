"""Benchmark of the exact Wordle DP: the proven depth-3 optimum, timed against an unpruned baseline.

``exact wordle bench`` proves the depth-3 optimum on the embedded lists (the time is the number to
quote, with the thread count beside it), then times the same DP without any pruning (every class
of a first guess scanned against every guess) on a seeded sample of first guesses, checks that both
give the same values there, and extrapolates the baseline to all first guesses. Both are measured
in the same run, so the ratio travels better than either time.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np

from exact.partitions import feedback_matrix, split_by_guess
from exact.wordle import dp
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def unpruned_value3(F: np.ndarray, g: int, npat: int) -> int:
    """value_3(g, A) with no bound at all: every class against every guess."""
    green = npat - 1
    total = 0
    for pattern, P in split_by_guess(F, g, np.arange(F.shape[1])).items():
        if pattern == green:
            total += 1
        else:
            total += int(dp._class_caps(F, P.astype(np.int64), npat).max())
    return total


def run_wordle_bench(sample: int = 6, seed: int = 0, echo=print) -> dict:
    answers, guesses = wordle_answers(), wordle_allowed()
    echo(f"machine: {os.cpu_count()} cores visible, numba threads {dp.cores()}")
    t = time.perf_counter()
    F = feedback_matrix(guesses, answers)
    echo(f"feedback matrix {F.shape[0]} x {F.shape[1]} (cache or build): {time.perf_counter() - t:.2f} s")
    tiny = words_from_lines(answers.words[:40], "warm-up")
    dp.solve(tiny, words_from_lines(sorted(set(guesses.words[:200] + tiny.words))), depth=3, progress=False)

    result = dp.solve(answers, guesses, depth=3, F=F)
    echo(f"proven depth-3 optimum: {result.wins}/{result.n} = {result.probability:.6f} ({result.status}), "
         f"first guesses {' '.join(result.optimal_first)}; {result.seconds:.1f} s on {result.cores} threads; "
         f"{result.exact_count} of {result.evaluated} first guesses evaluated exactly")

    rows = random.Random(seed).sample(range(len(guesses)), sample)
    dp._class_caps(F, np.arange(3, dtype=np.int64), 3 ** answers.length)  # compile outside the timing
    t = time.perf_counter()
    slow = [unpruned_value3(F, g, 3 ** answers.length) for g in rows]
    per_guess = (time.perf_counter() - t) / sample
    fast = [dp.solve(answers, guesses, depth=3, first=guesses.words[g], progress=False, F=F).wins for g in rows]
    assert slow == fast, (slow, fast)
    naive = per_guess * len(guesses)
    echo(f"unpruned DP on {sample} sampled first guesses ({', '.join(guesses.words[g] for g in rows)}; "
         f"same values): {per_guess:.2f} s each -> {naive:.0f} s estimated for all {len(guesses)}; "
         f"ratio {naive / result.seconds:.1f}x")
    return {"proof_s": result.seconds, "wins": result.wins, "status": result.status,
            "unpruned_estimate_s": naive, "ratio": naive / result.seconds, "threads": result.cores}


def run_guesses_bench(first: str = "salet", hard: bool = False, echo=print) -> dict:
    """Time the fewest-guesses proof for one first guess, against the same search without the
    sharper class bound (node bound only), both in this run; both must give the same total."""
    from exact.wordle.guesses import solve_guesses

    answers, guesses = wordle_answers(), wordle_allowed()
    F = feedback_matrix(guesses, answers)
    tiny = words_from_lines(answers.words[:30], "warm-up")
    for sharp in (True, False):  # compile outside the timing
        solve_guesses(tiny, tiny, progress=False, sharp=sharp)
    fast = solve_guesses(answers, guesses, first=first, hard=hard, F=F, progress=False)
    echo(f"machine: {os.cpu_count()} cores visible, {fast.cores} used (threads over the first guess's classes)")
    echo(f"fewest guesses{' (hard mode)' if hard else ''}, first guess {first}: total {fast.total} = mean "
         f"{fast.mean:.4f}, {fast.status}, {fast.seconds:.2f} s on {fast.cores} cores ({fast.searched} nodes searched)")
    slow = solve_guesses(answers, guesses, first=first, hard=hard, F=F, progress=False, sharp=False)
    assert slow.total == fast.total, (slow.total, fast.total)
    echo(f"baseline (node bound 2n-1 only, no sharper class bound): total {slow.total}, {slow.seconds:.2f} s "
         f"({slow.searched} nodes searched); ratio {slow.seconds / fast.seconds:.1f}x")
    return {"first": first, "hard": hard, "total": fast.total, "seconds": fast.seconds,
            "baseline_seconds": slow.seconds, "ratio": slow.seconds / fast.seconds, "cores": fast.cores}


if __name__ == "__main__":
    run_wordle_bench()
