"""Benchmark of the depth-k rejection: the staged search against the plain one, on the same first guesses.

``exact wordle bench --depth-rejection T`` values a seeded sample of first guesses (or ``--words``)
at depth k against the threshold T (the incumbent the global search would hold: the best known
value_k), with the plain :class:`exact.wordle.wins.dp.Search` (the engine before
:mod:`exact.wordle.wins.bounds`, ``WinsSearch(staged=False)``) and with the staged search, each in
a fresh process state of its own (its memo starts empty and grows over the sample, as in a run), in
this one process, in ``--repeats`` pairs whose order alternates (:mod:`exact.bench.paired`: plain
first in the first pair, staged first in the second, ...). It checks that they agree (an exact value
on one side is the same exact value on the other, a guess pruned by one is below T by the other) and
prints each pair, the median times and their ratio.

With ``--baseline filter`` (hard mode) the pair is the staged search on kernels compiled with the previous
hard-mode filter (:mod:`exact.bench.filter_baseline`) against the staged search as it is: the filter's
speed-up alone, the same values required of both.

With ``--weighted`` the pair is the staged search unweighted against the staged search with every
answer weighing 2 (the weighted kernels and bounds, threshold 2T), on the same first guesses: each
exact value must be exactly twice the unweighted one, and the ratio is weighted / unweighted.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, replace

import numba

from exact import progress as prog
from exact.bench.filter_baseline import FilterBaselineSearch
from exact.bench.paired import Paired, run_pairs
from exact.bench.wordle import doubled
from exact.errors import InternalError
from exact.partitions import feedback_matrix
from exact.weights import Weights
from exact.wordle.wins.bounds import forget_memos
from exact.wordle.wins.ranking import Outcome, WinsSearch
from exact.words import WordList, words_from_lines


@dataclass
class EngineRun:
    """One engine over the sample: its outcomes in order and the seconds they took."""

    name: str
    outcomes: list[Outcome]
    seconds: float


@dataclass
class Engine:
    """An engine of the bench: the search (staged or plain), its weights, the scale of its values
    (2 with every answer weighing 2, else 1), and whether its kernels filter hard-mode guesses as before."""

    name: str
    staged: bool
    weights: Weights | None = None
    scale: int = 1
    filter_before: bool = False


def sample_words(guesses: WordList, sample: int, seed: int) -> list[str]:
    """``sample`` first guesses drawn from the guess list with ``seed``."""
    return random.Random(seed).sample(list(guesses.words), min(sample, len(guesses)))


def time_engine(answers: WordList, guesses: WordList, F, words: list[str], depth: int, hard: bool,
                threshold: int, engine: Engine) -> EngineRun:
    """The engine over ``words`` against ``threshold`` (in its own scale), from an empty memo."""
    forget_memos()  # the staged engine starts from an empty memo
    search = WinsSearch(answers, guesses, depth, hard, 1, F, engine.staged, weights=engine.weights)
    search.prepare()
    if engine.filter_before:
        search.state = FilterBaselineSearch(search.state.inst, search.state.memo)
    started = time.perf_counter()
    outcomes = [search.evaluate(w, threshold * engine.scale) for w in words]
    return EngineRun(engine.name, outcomes, time.perf_counter() - started)


def warm_up(answers: WordList, depth: int, hard: bool, engines: tuple[Engine, Engine]) -> None:
    """Each engine over every first guess of a tiny list drawn from the answers, so that what it compiles
    (or loads from numba's cache) is not in either clock."""
    tiny = words_from_lines(answers.words[:30], "warm-up")
    F = feedback_matrix(tiny, tiny)
    for e in engines:
        weights = None if e.weights is None else doubled(tiny)
        time_engine(tiny, tiny, F, list(tiny.words), depth, hard, 0, replace(e, weights=weights))
    forget_memos()


def engines(answers: WordList, weighted: bool, baseline: str) -> tuple[Engine, Engine]:
    """The pair timed: (unweighted, weighted), (plain, staged), or with ``baseline`` "filter" (the staged
    search with the previous hard-mode filter, staged)."""
    if weighted:
        return Engine("unweighted", True), Engine("weighted", True, doubled(answers), 2)
    if baseline == "filter":
        return Engine("filter-before", True, filter_before=True), Engine("staged", True)
    return Engine("plain", False), Engine("staged", True)


def check_agree(a_run: EngineRun, b_run: EngineRun, threshold: int, scale: int = 1) -> None:
    """Exact values equal (the second run's ``scale`` times the first's); a guess pruned on one side is
    below the threshold on the other (each in its own scale)."""
    for a, b in zip(a_run.outcomes, b_run.outcomes):
        mine = [(o.value, k) for o, k in ((a, 1), (b, scale)) if o.exact]
        if (a.exact and b.exact and a.value * scale != b.value) or (a.exact != b.exact and any(
                v >= threshold * k for v, k in mine)):
            raise InternalError(f"{a.guess}: the {a_run.name} search gives {a.value} "
                                f"({'exact' if a.exact else 'bound'}), the {b_run.name} one {b.value} "
                                f"({'exact' if b.exact else 'bound'})")


def run_depthk_bench(answers: WordList, guesses: WordList, threshold: int, depth: int = 4, hard: bool = False,
                     sample: int = 10, seed: int = 0, words: list[str] | None = None, echo=print,
                     repeats: int = 2, weighted: bool = False, baseline: str = "plain") -> dict:
    """Both engines on the same first guesses against ``threshold``, in ``repeats`` pairs of alternating
    order; returns the figures printed (times: medians over the pairs)."""
    words = sample_words(guesses, sample, seed) if words is None else list(words)
    F = feedback_matrix(guesses, answers)
    a, b = engines(answers, weighted, baseline)
    warm_up(answers, depth, hard, (a, b))
    echo(f"depth {depth} ({'hard' if hard else 'normal'} mode), {len(answers)} answers / {len(guesses)} "
         f"guesses, {len(words)} first guesses (seed {seed}) against threshold {threshold}"
         + (" (2x that weighted: every answer weighs 2; both staged)" if weighted else "")
         + f"; {numba.get_num_threads()} numba threads, {prog.cores()} cores visible")
    paired = run_pairs({e.name: (lambda e=e: time_engine(answers, guesses, F, words, depth, hard, threshold, e))
                        for e in (a, b)}, repeats, seconds=lambda r: r.seconds,
                       check=lambda got: check_agree(got[a.name], got[b.name], threshold, b.scale))
    echo(paired.order())
    for line in paired.lines():
        echo(line)
    print_words(paired, a.name, b.name, echo)
    top, bottom = (b.name, a.name) if weighted else (a.name, b.name)
    ratio = paired.ratio(top, bottom)
    echo(f"{a.name} {paired.median(a.name):.1f} s, {b.name} {paired.median(b.name):.1f} s: "
         f"{top} / {bottom} = {ratio:.2f}x")
    return {"words": words, "threshold": threshold, "depth": depth, "hard": hard, "weighted": weighted,
            "baseline": a.name,
            f"{a.name}_seconds": round(paired.median(a.name), 2), f"{b.name}_seconds": round(paired.median(b.name), 2),
            "ratio": round(ratio, 2), "threads": numba.get_num_threads(), "cores": prog.cores(), **paired.to_json()}


def print_words(paired: Paired, a: str, b: str, echo) -> None:
    """Each first guess: both engines' values and median seconds over the pairs."""
    first = {name: paired.results[name][0].outcomes for name in (a, b)}
    for i, (x, y) in enumerate(zip(first[a], first[b])):
        sa, sb = (statistics.median(r.outcomes[i].seconds for r in paired.results[name]) for name in (a, b))
        echo(f"  {x.guess}: {a} {shown(x)} in {sa:.2f} s, {b} {shown(y)} in {sb:.2f} s")


def shown(o: Outcome) -> str:
    return f"{o.value}" if o.exact else f"<= {o.value}"
