"""Benchmarks: each kernel timed against a naive pure-Python baseline measured in the same run.

Run ``exact bench`` (or ``python -m exact.bench.kernels``). Absolute times depend on the machine; the printed
ratios compare two measurements from one process, so they travel better. The core count is printed
next to the times.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path


import numba

from exact.feedback import compute_feedback_matrix, feedback
from exact.lingo.score import count_wins, first_letters
from exact.partitions import feedback_matrix
from exact.words import WordList, read_words, wordle_allowed, words_from_lines


def best_time(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def naive_pair_seconds(guesses: list[str], answers: list[str], pairs: int, seed: int = 0) -> float:
    """Seconds per pair of the plain-Python scorer, on ``pairs`` random pairs."""
    rng = random.Random(seed)
    sample = [(rng.choice(guesses), rng.choice(answers)) for _ in range(pairs)]
    t = time.perf_counter()
    for g, a in sample:
        feedback(g, a)
    return (time.perf_counter() - t) / pairs


def naive_lingo_wins(pool: list[str], guesses: list[str]) -> int:
    """The Lingo win count the obvious way: a set of signatures, scored pair by pair."""
    return len({(w[0],) + tuple(feedback(g, w) for g in guesses) for w in pool})


def lingo_pool(path: str | Path | None, size: int = 8636, seed: int = 0) -> WordList:
    if path is not None:
        return read_words(path)
    allowed = wordle_allowed()
    words = sorted(random.Random(seed).sample(allowed.words, size))
    return words_from_lines(words, f"{size} words sampled (seed {seed}) from {allowed.source}")


def run_bench(pairs: int = 200_000, lingo_words: str | Path | None = None,
              guesses: tuple[str, ...] = ("hater", "funds", "pigmy", "block"), echo=print) -> dict:
    allowed = wordle_allowed()
    echo(f"machine: {os.cpu_count()} cores visible, numba threads {_numba_threads()}")
    compute_feedback_matrix(allowed.words[:64], allowed.words[:64])  # compile outside the timings

    n = len(allowed)
    fast = best_time(lambda: compute_feedback_matrix(allowed.words, allowed.words), repeat=3)
    per_pair = naive_pair_seconds(list(allowed.words), list(allowed.words), pairs)
    naive = per_pair * n * n
    echo(f"feedback matrix {n} x {n}: {fast:.3f} s; naive scorer {per_pair * 1e6:.2f} us/pair "
         f"on {pairs} pairs -> {naive:.0f} s estimated; ratio {naive / fast:.0f}x")

    pool = lingo_pool(lingo_words)
    chosen = [g if g in pool.index else pool.words[i] for i, g in enumerate(guesses)]
    F = feedback_matrix(pool, pool)
    rows = [pool.index[g] for g in chosen]
    first = first_letters(pool.words)
    wins = count_wins(F, rows, first)
    one = best_time(lambda: count_wins(F, rows, first), repeat=200)
    slow = best_time(lambda: naive_lingo_wins(list(pool.words), chosen), repeat=3)
    assert naive_lingo_wins(list(pool.words), chosen) == wins
    echo(f"lingo score of {' '.join(chosen)} on {pool.source} ({len(pool)} words, matrix cached): "
         f"{one * 1e3:.3f} ms (wins {wins}); naive {slow * 1e3:.1f} ms; ratio {slow / one:.0f}x")
    return {"matrix_s": fast, "matrix_ratio": naive / fast, "lingo_s": one, "lingo_ratio": slow / one}


def _numba_threads() -> int:
    return numba.get_num_threads()


if __name__ == "__main__":
    import sys

    run_bench(lingo_words=sys.argv[1] if len(sys.argv) > 1 else None)
