"""Benchmark of the depth-k rejection: the staged search against the plain one, on the same first guesses.

``exact wordle bench --depth-rejection T`` values a seeded sample of first guesses (or ``--words``)
at depth k against the threshold T (the incumbent the global search would hold: the best known
value_k), first with the plain :class:`exact.wordle.wins.dp.Search` (the engine before
:mod:`exact.wordle.wins.bounds`, ``WinsSearch(staged=False)``), then with the staged search, each in
a fresh process state of its own (its memo starts empty and grows over the sample, as in a run), in
this one process. It checks that they agree (an exact value on one side is the same exact value on
the other, a guess pruned by one is below T by the other) and prints both times and their ratio.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numba

from exact import progress as prog
from exact.errors import InternalError
from exact.partitions import feedback_matrix
from exact.wordle.wins.bounds import forget_memos
from exact.wordle.wins.ranking import Outcome, WinsSearch
from exact.words import WordList


@dataclass
class EngineRun:
    """One engine over the sample: its outcomes in order and the seconds they took."""

    name: str
    outcomes: list[Outcome]
    seconds: float


def sample_words(guesses: WordList, sample: int, seed: int) -> list[str]:
    """``sample`` first guesses drawn from the guess list with ``seed``."""
    return random.Random(seed).sample(list(guesses.words), min(sample, len(guesses)))


def time_engine(answers: WordList, guesses: WordList, F, words: list[str], depth: int, hard: bool,
                threshold: int, staged: bool) -> EngineRun:
    forget_memos()  # the staged engine starts from an empty memo
    search = WinsSearch(answers, guesses, depth, hard, 1, F, staged)
    search.prepare()
    started = time.perf_counter()
    outcomes = [search.evaluate(w, threshold) for w in words]
    return EngineRun("staged" if staged else "plain", outcomes, time.perf_counter() - started)


def check_agree(plain: EngineRun, staged: EngineRun, threshold: int) -> None:
    """Exact values equal; a guess pruned on one side is below the threshold on the other."""
    for a, b in zip(plain.outcomes, staged.outcomes):
        if (a.exact and b.exact and a.value != b.value) or (a.exact != b.exact and max(
                o.value for o in (a, b) if o.exact) >= threshold):
            raise InternalError(f"{a.guess}: the plain search gives {a.value} ({'exact' if a.exact else 'bound'}), "
                                f"the staged one {b.value} ({'exact' if b.exact else 'bound'})")


def run_depthk_bench(answers: WordList, guesses: WordList, threshold: int, depth: int = 4, hard: bool = False,
                     sample: int = 10, seed: int = 0, words: list[str] | None = None, echo=print) -> dict:
    """Both engines on the same first guesses against ``threshold``; returns the figures printed."""
    words = sample_words(guesses, sample, seed) if words is None else list(words)
    F = feedback_matrix(guesses, answers)
    WinsSearch(answers, guesses, depth, hard, 1, F).warm_up()  # compile before either clock starts
    echo(f"depth {depth} ({'hard' if hard else 'normal'} mode), {len(answers)} answers / {len(guesses)} "
         f"guesses, {len(words)} first guesses (seed {seed}) against threshold {threshold}; "
         f"{numba.get_num_threads()} numba threads, {prog.cores()} cores visible")
    plain = time_engine(answers, guesses, F, words, depth, hard, threshold, staged=False)
    staged = time_engine(answers, guesses, F, words, depth, hard, threshold, staged=True)
    check_agree(plain, staged, threshold)
    for a, b in zip(plain.outcomes, staged.outcomes):
        echo(f"  {a.guess}: plain {shown(a)} in {a.seconds:.2f} s, staged {shown(b)} in {b.seconds:.2f} s")
    ratio = plain.seconds / staged.seconds if staged.seconds > 0 else float("inf")
    echo(f"plain {plain.seconds:.1f} s, staged {staged.seconds:.1f} s: {ratio:.2f}x")
    return {"words": words, "threshold": threshold, "depth": depth, "hard": hard,
            "plain_seconds": round(plain.seconds, 2), "staged_seconds": round(staged.seconds, 2),
            "ratio": round(ratio, 2), "threads": numba.get_num_threads(), "cores": prog.cores()}


def shown(o: Outcome) -> str:
    return f"{o.value}" if o.exact else f"<= {o.value}"
