"""Benchmark of the exact Wordle DP: the kernels against the baseline kernels and the unpruned DP.

``exact wordle bench`` measures, in one run and on the same machine:

1. the depth-3 proof on the embedded lists (every first guess) with the current kernels
   (:mod:`exact.wordle.wins.dp`) and with the baseline kernels they replaced
   (:mod:`exact.bench.dp_baseline`), checking that both prove the same optimum and top list;
2. depth 4 with the first guess trace, with both kernels (same value);
3. the unpruned DP (every class of a first guess scanned against every guess) on a seeded sample of
   first guesses, checked against the DP there and extrapolated to all first guesses.

It prints every time with the numba thread count and the cores visible, and the ratios (baseline /
new, unpruned / new). The ratios come from one process, so they travel better than the times.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import resource
import subprocess
import tempfile
import time

import numba
import numpy as np

from exact.game.position import position
from exact.partitions import classes, feedback_matrix
from exact.wordle.fewest.memo import new_memo
from exact.wordle.fewest.objective import Objective
from exact.wordle.fewest.ranking import first_value
from exact.wordle.fewest.search import make_guesses_instance, solve_guesses
from exact.wordle.wins import dp, kernels as dp_kernels
from exact.bench.dp_baseline import BaselineSearch
from exact.bench.paired import run_pairs
from exact.errors import ExactError
from exact.weights import Weights, weights_sha256
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def unpruned_value3(F: np.ndarray, g: int, npat: int) -> int:
    """value_3(g, A) with no bound at all: every class against every guess."""
    green = npat - 1
    total = 0
    for pattern, P in classes(F, g, np.arange(F.shape[1])).items():
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

    new = _bench_depth3(answers, guesses, F, engines, baseline, threads, out, echo)
    _bench_depth4_trace(answers, guesses, F, engines, baseline, threads, out, echo)
    _bench_unpruned(answers, guesses, F, sample, seed, new, threads, out, echo)
    return out


def _bench_depth3(answers, guesses, F, engines, baseline, threads, out: dict, echo):
    """Depth 3 over every first guess with each engine (same optimum and top); the new engine's result."""
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
    return new


def _bench_depth4_trace(answers, guesses, F, engines, baseline, threads, out: dict, echo) -> None:
    """Depth 4 with the first guess trace, with each engine (same wins)."""
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


def _bench_unpruned(answers, guesses, F, sample, seed, new, threads, out: dict, echo) -> None:
    """The unpruned depth-3 DP on ``sample`` sampled first guesses (same values as the search), its
    time extrapolated to every first guess against the new engine's ``new.seconds``."""
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


def run_guesses_bench(first: str = "salet", hard: bool = False, echo=print, lists=None) -> dict:
    """Time the fewest-guesses proof for one first guess, against the same search without the
    sharper class bound (node bound only), both in this run; both must give the same total."""
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


def run_weights_bench(first: str = "salet", hard: bool = False, echo=print, lists=None, repeats: int = 2) -> dict:
    """Paired runs, weighted against unweighted, on the same answers in this run: the depth-3 value and
    the fewest-guesses total of ``first``, each without weights and with every answer weighing 2 (that
    takes the weighted kernels, whose values must then be exactly twice the unweighted ones), in
    ``repeats`` pairs whose order alternates (:mod:`exact.bench.paired`); the ratio is that of the medians."""
    answers, guesses = lists or (wordle_answers(), wordle_allowed())
    echo(f"answers: {answers.source} ({len(answers)}), guesses: {guesses.source} ({len(guesses)}), first guess "
         f"{first}{', hard mode' if hard else ''}; machine: {os.cpu_count()} cores visible, load average "
         f"{os.getloadavg()[0]:.1f}")
    F = feedback_matrix(guesses, answers)
    double = doubled(answers)
    tiny = words_from_lines(answers.words[:30], "warm-up")
    for w in (None, doubled(tiny)):  # compile outside the timings
        dp.solve(tiny, tiny, depth=3, progress=False, weights=w)
        solve_guesses(tiny, tiny, progress=False, weights=w)
    out = {"first": first, "hard": hard, "cores": os.cpu_count(), "repeats": repeats}
    for name, run, value in (
            ("depth3", lambda w: dp.solve(answers, guesses, depth=3, first=first, hard=hard, F=F, progress=False,
                                          weights=w), lambda r: r.wins),
            ("guesses", lambda w: solve_guesses(answers, guesses, first=first, hard=hard, F=F, progress=False,
                                                weights=w), lambda r: r.total)):
        def twice(got: dict, name=name, value=value) -> None:
            if value(got["weighted"]) != 2 * value(got["unweighted"]):
                raise ExactError(f"{name}: weighted {value(got['weighted'])} is not twice {value(got['unweighted'])}")

        paired = run_pairs({"unweighted": lambda run=run: run(None), "weighted": lambda run=run: run(double)},
                           repeats, seconds=lambda r: r.seconds, check=twice)
        plain = paired.results["unweighted"][0]
        ratio = paired.ratio("weighted", "unweighted")
        out[name] = {"value": value(plain), "seconds": paired.median("unweighted"),
                     "weighted_seconds": paired.median("weighted"), "ratio": ratio, **paired.to_json()}
        echo(f"{name}: unweighted {value(plain)}, weighted (every answer 2) {2 * value(plain)}; "
             f"{paired.order()}")
        for line in paired.lines():
            echo(line)
        echo(f"{name}: median unweighted {paired.median('unweighted'):.2f} s, weighted "
             f"{paired.median('weighted'):.2f} s; weighted / unweighted = {ratio:.2f}x")
    return out


def doubled(answers) -> Weights:
    """Every answer weighing 2: the weighted kernels on values exactly twice the unweighted ones."""
    twos = np.full(len(answers), 2, dtype=np.int64)
    return Weights(twos, "every answer 2", weights_sha256(answers, twos))


if __name__ == "__main__":
    run_wordle_bench()


#: First guesses of the rejection benchmark, spread over the ranking: the best (salet 7920), near
#: ones (7920 to 7950), middling ones and poor ones (qajaq 8000+); a fixed list, so runs compare.
RANKING_WORDS = ("salet", "trace", "crane", "slate", "reast", "crate", "least", "carte", "parse",
                 "raise", "arise", "soare", "roate", "adieu", "audio", "cills", "donko", "subha",
                 "narks", "japes", "flume", "dyads", "patsy", "fuzzy", "qajaq", "immix")


def peer_command(peer: str, answers_path: str, guesses_path: str, words_file: str, beta: int,
                 hard: bool = False) -> list[str]:
    """Selby's solver on a list of first guesses with a fixed cutoff (his -t FILE -s -b BETA:
    values below BETA exact, the others '>= N')."""
    return [peer, "-a", guesses_path, "-h", answers_path, "-t", words_file, "-s", "-b", str(beta)] + (
        ["-H"] if hard else [])


PEER_INFINITY = 10 ** 9  # values from here on mean "no strategy within the guess limit" (his and ours)


def shown(value: int, exact: bool) -> str:
    return "none" if value >= PEER_INFINITY else ("" if exact else ">=") + str(value)


def parse_peer(text: str) -> dict[str, tuple[int, bool, float]]:
    """word -> (value, exact?, CPU seconds) from the peer's 'First guess W [>]= N ... dCPU = x' lines."""
    out = {}
    for m in re.finditer(r"First guess (\w+) +(>?)= +(\d+) .*?dCPU = +([\d.]+)", text):
        out[m.group(1)] = (int(m.group(3)), m.group(2) != ">", float(m.group(4)))
    return out


def run_ranking_bench(words=RANKING_WORDS, cutoff: int = 7920, peer: str | None = None, hard: bool = False,
                      echo=print, lists=None) -> dict:
    """Reject (or value) each first guess of ``words`` against ``cutoff`` (values <= cutoff exact),
    the project and, with ``peer`` (the path of Selby's built solver), the peer, in this one run,
    both on ``lists`` (answers, guesses) [default: the original lists; the peer reads them from
    copies written for it]; per word and total CPU seconds and their ratio (project / peer).

    Project: one process (this one), one memo over the words (as a ranking run shares it), CPU
    seconds of this process from before the feedback matrix to the last word (start-up included).
    Peer: one process over the same list in the same order (its cache shared likewise), CPU seconds
    of that child process (its start-up included); per-word CPU from its own dCPU lines. Every
    value both report exactly must agree, and every bound must be above the cutoff.
    """
    answers, guesses = lists or (wordle_answers(), wordle_allowed())
    missing = [w for w in words if w not in guesses.index]
    if missing:
        raise ExactError(f"not in {guesses.source}: {', '.join(missing)}")
    echo(f"answers: {answers.source} ({len(answers)}), guesses: {guesses.source} ({len(guesses)})")
    echo(f"machine: {os.cpu_count()} cores visible; both solvers single-threaded here; load average "
         f"{os.getloadavg()[0]:.1f} at the start")
    beta = cutoff + 1  # values at or above it are only bounded
    c0 = time.process_time()
    F = feedback_matrix(guesses, answers)
    inst = make_guesses_instance(answers, guesses, Objective(()), 6, hard, F)
    S, rule = position(answers, (), hard)
    first_value(inst, new_memo(), S, guesses.index[words[-1]], 1, rule, 1)  # compile (or load) outside words
    startup = time.process_time() - c0
    memo = new_memo()
    mine = {}
    slowest = {}
    for w in words:
        c, searches = time.process_time(), []
        v, exact, stage = first_value(inst, memo, S, guesses.index[w], 1, rule, beta, searches=searches)
        mine[w] = (v, exact, time.process_time() - c, stage)
        slowest[w] = max(searches, key=lambda x: x.seconds, default=None)
    total = time.process_time() - c0
    out = {"cutoff": cutoff, "hard": hard, "words": list(words), "project_cpu_s": total,
           "project_startup_cpu_s": startup, "project": {w: {"value": v, "exact": e, "cpu_s": s, "stage": st,
                                                             "slowest_class": _class_json(slowest[w])}
                                                        for w, (v, e, s, st) in mine.items()}}
    theirs = {}
    if peer is not None:
        theirs, peer_total = _peer_values(peer, answers, guesses, words, beta, hard)
        out.update(peer_cpu_s=peer_total, ratio=total / peer_total,
                   peer={w: {"value": v, "exact": e, "cpu_s": s} for w, (v, e, s) in theirs.items()})
    _print_ranking_bench(words, cutoff, hard, mine, theirs, out, total, startup, echo)
    return out


def _class_json(search) -> dict | None:
    """A :class:`exact.wordle.fewest.ranking.ClassSearch` as JSON (None: no class searched exactly)."""
    return None if search is None else {**dataclasses.asdict(search), "seconds": round(search.seconds, 3)}


def _peer_values(peer: str, answers, guesses, words, beta: int, hard: bool) -> tuple[dict, float]:
    """(the peer's {word: (value, exact, cpu_s)}, the CPU seconds of its process): its lists written
    to a temporary folder, the peer run there once over ``words`` against ``beta``."""
    with tempfile.TemporaryDirectory(prefix="exact-peer-") as there:
        files = {}
        for name, lines in (("answers", answers.words), ("guesses", guesses.words), ("first", words)):
            files[name] = os.path.join(there, name + ".txt")
            with open(files[name], "w") as f:
                f.write("\n".join(lines) + "\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = subprocess.run(peer_command(peer, files["answers"], files["guesses"], files["first"],
                                          beta, hard), capture_output=True, text=True, cwd=there)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # A peer that fails or prints no result is neither our bug (no InternalError, no report asking to
    # send it to us) nor a crash: the user chose the peer program, its own stderr says why, and one
    # line with its tail (ExactError, exit 2) is what they need to fix or replace it.
    if run.returncode != 0:
        raise ExactError(f"the peer failed (exit {run.returncode}): {run.stderr.strip()[-300:]}")
    theirs = parse_peer(run.stdout)
    return theirs, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _print_ranking_bench(words, cutoff: int, hard: bool, mine: dict, theirs: dict, out: dict, total: float,
                         startup: float, echo) -> None:
    """The table of :func:`run_ranking_bench`, word by word; every value both report exactly must
    agree, and every bound must be above the cutoff (else AssertionError)."""
    echo(f"first guesses against --cutoff {cutoff} ({'hard' if hard else 'normal'} mode): value if <= "
         f"{cutoff}, else a proven bound '>= N'; CPU seconds")
    echo(f"{'word':<6} {'project':>10} {'cpu_s':>8} {'stage':<9}" + (f" {'peer':>10} {'cpu_s':>8} {'ratio':>7}"
                                                                    if theirs else ""))
    for w in words:
        v, e, s, st = mine[w]
        line = f"{w:<6} {shown(v, e):>10} {s:8.2f} {st:<9}"
        if theirs:
            if w not in theirs:
                raise ExactError(f"the peer printed no result for {w}")  # see above: the peer's failure
            pv, pe, ps = theirs[w]
            if pv >= PEER_INFINITY:  # his "infinity": no strategy within the guess limit
                pv, pe = v if v >= PEER_INFINITY else pv, False
            if e and pe and pv != v or (e and not pe) or (pe and not e) or (not e and v <= cutoff) \
                    or (not pe and pv <= cutoff):
                raise AssertionError(f"{w}: project {v} ({'exact' if e else 'bound'}), peer {pv} "
                                     f"({'exact' if pe else 'bound'}) disagree")
            line += f" {shown(pv, pe):>10} {ps:8.2f} {s / max(ps, 0.005):7.2f}"
        echo(line)
        if (c := out["project"][w]["slowest_class"]) and c["seconds"] >= 1:
            echo(f"       its slowest class: {c['size']} answers, bound {c['lower']} before the search, "
                 f"searched to {c['value']} against {c['class_beta']} in {c['seconds']:.1f} s")
    words_s = sum(s for _, _, s, _ in mine.values())
    echo(f"project: {words_s:.2f} CPU-s over the words, {total:.2f} CPU-s with start-up ({startup:.2f})")
    if theirs:
        echo(f"peer: {sum(s for _, _, s in theirs.values()):.2f} CPU-s over the words (its dCPU), "
             f"{out['peer_cpu_s']:.2f} CPU-s for its process (start-up included)")
        echo(f"ratio project / peer, total CPU seconds: {out['ratio']:.2f} ({len(words)} first guesses, "
             f"cutoff {cutoff}; load average {os.getloadavg()[0]:.1f} at the end)")
