"""Benchmark of the exact Wordle DP: the kernels against the baseline kernels and the unpruned DP.

``exact wordle bench`` measures, in one run and on the same machine:

1. the depth-3 proof on the embedded lists (every first guess) with the current kernels
   (:mod:`exact.wordle.dp`) and with the baseline kernels they replaced
   (:mod:`exact.bench.dp_baseline`), checking that both prove the same optimum and top list;
2. depth 4 with the first guess trace, with both kernels (same value);
3. the unpruned DP (every class of a first guess scanned against every guess) on a seeded sample of
   first guesses, checked against the DP there and extrapolated to all first guesses.

It prints every time with the numba thread count and the cores visible, and the ratios (baseline /
new, unpruned / new). The ratios come from one process, so they travel better than the times.
"""

from __future__ import annotations

import os
import random
import time

import numba
import numpy as np

from exact.partitions import feedback_matrix, split_by_guess
from exact.wordle import dp, dp_kernels
from exact.bench.dp_baseline import BaselineSearch
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def unpruned_value3(F: np.ndarray, g: int, npat: int) -> int:
    """value_3(g, A) with no bound at all: every class against every guess."""
    green = npat - 1
    total = 0
    for pattern, P in split_by_guess(F, g, np.arange(F.shape[1])).items():
        if pattern == green:
            total += 1
        else:
            total += int(dp_kernels.class_caps(F, P.astype(np.int64), npat).max())
    return total


def run_wordle_bench(sample: int = 6, seed: int = 0, baseline: bool = True, echo=print, lists=None) -> dict:
    """``lists``: (answers, guesses) [default: the original lists]."""
    answers, guesses = lists or (wordle_answers(), wordle_allowed())
    echo(f"answers: {answers.source} ({len(answers)}), guesses: {guesses.source} ({len(guesses)})")
    threads = numba.get_num_threads()
    echo(f"machine: {os.cpu_count()} cores visible, numba threads {threads}")
    t = time.perf_counter()
    F = feedback_matrix(guesses, answers)
    echo(f"feedback matrix {F.shape[0]} x {F.shape[1]} (cache or build): {time.perf_counter() - t:.2f} s")
    tiny = words_from_lines(answers.words[:40], "warm-up")
    tiny_guesses = words_from_lines(sorted(set(guesses.words[:200] + tiny.words)))
    engines = {"new": dp.Search, "baseline": BaselineSearch} if baseline else {"new": dp.Search}
    for engine in engines.values():  # compile outside the timings
        dp.solve(tiny, tiny_guesses, depth=4, progress=False, engine=engine)
    out: dict = {"threads": threads, "cores_visible": os.cpu_count()}

    proofs, cpu = {}, {}
    for name, engine in engines.items():
        c = time.process_time()
        r = dp.solve(answers, guesses, depth=3, F=F, engine=engine)
        cpu[name] = time.process_time() - c
        proofs[name] = r
        echo(f"depth 3, every first guess, {name} kernels: {r.wins}/{r.n} {r.status}, first guesses "
             f"{' '.join(r.optimal_first)}; {r.seconds:.1f} s on {r.cores} threads ({cpu[name]:.1f} CPU-s: "
             f"wall time on {r.cores} idle cores would be about {cpu[name] / r.cores:.1f} s)")
    new = proofs["new"]
    out.update(depth3_s=new.seconds, wins=new.wins, status=new.status)
    if baseline:
        old = proofs["baseline"]
        assert (old.wins, old.optimal_first, old.top) == (new.wins, new.optimal_first, new.top)
        out["depth3_baseline_s"] = old.seconds
        out["depth3_ratio"] = old.seconds / new.seconds
        out["depth3_cpu_ratio"] = cpu["baseline"] / cpu["new"]
        echo(f"depth 3: baseline / new kernels = {old.seconds:.1f} / {new.seconds:.1f} s = "
             f"{out['depth3_ratio']:.2f}x wall, {out['depth3_cpu_ratio']:.2f}x CPU (same optimum and top "
             f"{len(new.top)}), {threads} threads")

    fours = {}
    for name, engine in engines.items():
        r = dp.solve(answers, guesses, depth=4, first="trace", F=F, progress=False, engine=engine)
        fours[name] = r
        echo(f"depth 4, first guess trace, {name} kernels: {r.wins}/{r.n} {r.status}; {r.seconds:.1f} s "
             f"on {r.cores} threads")
    out["depth4_trace_s"] = fours["new"].seconds
    if baseline:
        assert fours["baseline"].wins == fours["new"].wins
        out["depth4_trace_baseline_s"] = fours["baseline"].seconds
        out["depth4_ratio"] = fours["baseline"].seconds / fours["new"].seconds
        echo(f"depth 4 (trace): baseline / new kernels = {fours['baseline'].seconds:.1f} / "
             f"{fours['new'].seconds:.1f} s = {out['depth4_ratio']:.2f}x, {threads} threads")

    rows = random.Random(seed).sample(range(len(guesses)), sample)
    t = time.perf_counter()
    slow = [unpruned_value3(F, g, 3 ** answers.length) for g in rows]
    per_guess = (time.perf_counter() - t) / sample
    fast = [dp.solve(answers, guesses, depth=3, first=guesses.words[g], progress=False, F=F).wins for g in rows]
    assert slow == fast, (slow, fast)
    naive = per_guess * len(guesses)
    out.update(unpruned_estimate_s=naive, ratio=naive / new.seconds)
    echo(f"unpruned DP on {sample} sampled first guesses ({', '.join(guesses.words[g] for g in rows)}; "
         f"same values): {per_guess:.2f} s each -> {naive:.0f} s estimated for all {len(guesses)}; "
         f"unpruned / new kernels = {out['ratio']:.1f}x, {threads} threads")
    return out


def run_guesses_bench(first: str = "salet", hard: bool = False, echo=print, lists=None) -> dict:
    """Time the fewest-guesses proof for one first guess, against the same search without the
    sharper class bound (node bound only), both in this run; both must give the same total."""
    from exact.wordle.guesses import solve_guesses

    answers, guesses = lists or (wordle_answers(), wordle_allowed())
    echo(f"answers: {answers.source} ({len(answers)}), guesses: {guesses.source} ({len(guesses)})")
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
