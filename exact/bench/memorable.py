"""The memorable model's formulations side by side, on one core, in one run.

For each M, on the embedded lists with first guess trace (data: ``W``, the (varying classes, guesses)
int array of :mod:`exact.wordle.study.memorable`), it runs

- ``lagrangian``: the earlier method: subgradient Lagrangian bound, fixing, CP-SAT over the survivors
  when at most 400 (no dominance reduction);
- ``lp``: the method :func:`exact.wordle.study.memorable.best_selection` uses now: dominance, the LP bound
  by column generation, fixing, CP-SAT over the survivors or over a pool and again;
- ``cpsat``, ``scip``, ``highs``: the last proof step alone, the same survivors model (the guesses
  that survive fixing at the best selection found by ``lp``) solved by CP-SAT, SCIP and HiGHS
  (OR-Tools' MIP interface, one thread);
- ``cpsat-full``: CP-SAT on the whole undominated model (no LP, no fixing), for the record.

and prints, for each, the bound it proves, the status and the CPU seconds of this process (one core:
CP-SAT with one worker, the MIP solvers with one thread), then the proof step's CPU time of SCIP and
HiGHS as a ratio to CP-SAT's, measured in the same run. SCIP and HiGHS work in floating point: a
proof the project keeps comes from CP-SAT (integers) or from the certified LP bound; their times are
for comparison. Run: ``python -m exact.bench.memorable --m 3,10,40 --time-limit 300``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from ortools.linear_solver import pywraplp

from exact import cpsat
from exact.feedback import all_green
from exact.partitions import feedback_matrix
from exact.wordle.study import memorable as mem, memorable_lp as lp
from exact.wordle.study.memorable import (build_cover_model, greedy_selection, improve_by_swaps, lagrangian_bound,
                                          surviving_guesses, wins_of)
from exact.words import wordle_allowed, wordle_answers


def _plus(value, constant) -> str:
    return "-" if value is None else str(value + constant)


def _cpu(f, *args, **kwargs):
    started = time.process_time()
    out = f(*args, **kwargs)
    return out, time.process_time() - started


def earlier_method(W, M, time_limit):
    """The subgradient bound, fixing and CP-SAT over at most 400 survivors: (lower, upper, status)."""
    lower = wins_of(W, improve_by_swaps(W, greedy_selection(W, M)))
    upper, mu = lagrangian_bound(W, M, lower)
    if lower >= upper:
        return lower, upper, "OPTIMAL"
    keep = surviving_guesses(W, mu, M, lower)
    if len(keep) > 400:
        return lower, upper, f"FEASIBLE ({len(keep)} survivors)"
    out = cpsat.run(build_cover_model(W, keep, M, at_least=lower + 1).model, time_limit=time_limit, workers=1,
                    parameters={"linearization_level": 2})
    if out.status == "INFEASIBLE":
        return lower, lower, "OPTIMAL"
    if out.status == "OPTIMAL":
        return out.objective, out.objective, "OPTIMAL"
    return max(lower, out.objective or 0), min(upper, out.floor_bound() or upper), out.status


def mip(W, candidates, M, at_least, name, time_limit):
    """The facility-location model over ``candidates`` by pywraplp's ``name``: (status, objective, bound)."""
    s = pywraplp.Solver.CreateSolver(name)
    s.SetNumThreads(1)
    s.SetTimeLimit(int(time_limit * 1000))
    Wc = W[:, candidates]
    floor = Wc.min(axis=1)
    y = [s.BoolVar("") for _ in candidates]
    s.Add(sum(y) <= M)
    terms = []
    for c in range(W.shape[0]):
        zs = []
        for j in np.flatnonzero(Wc[c] > floor[c]):
            z = s.NumVar(0, 1, "")
            s.Add(z <= y[j])
            zs.append(z)
            terms.append(int(Wc[c, j] - floor[c]) * z)
        s.Add(sum(zs) <= 1)
    wins = sum(terms) + int(floor.sum())
    s.Add(wins >= at_least)
    s.Maximize(wins)
    status = s.Solve()
    names = {0: "OPTIMAL", 1: "FEASIBLE", 2: "INFEASIBLE"}
    if status not in (0, 1):
        return names.get(status, "UNKNOWN"), None, None
    return names[status], round(s.Objective().Value()), s.Objective().BestBound()


def run(Ms, time_limit, echo=print):
    A, G = wordle_answers(), wordle_allowed()
    F = feedback_matrix(G, A)
    classes = mem.first_classes(F, G.index["trace"], all_green(A.length))
    varying = classes.W.max(axis=1) > classes.W.min(axis=1)
    W = classes.W[varying]
    constant = classes.hit + int(classes.W[~varying, 0].sum())
    keep = lp.undominated(W)
    Wk = W[:, keep]
    cover = mem.smallest_full_cover(W, time_limit, 1)
    echo(f"trace: {W.shape[0]} varying classes, {W.shape[1]} guesses, {len(keep)} undominated; "
         f"wins below are for all classes (+{constant}); CPU seconds of one core")
    echo(f"{'M':>3} {'method':<12} {'wins':>5} {'bound':>5} {'status':<24} {'CPU s':>7}")
    for M in Ms:
        (lo, up, st), t = _cpu(earlier_method, W, M, time_limit)
        echo(f"{M:3d} {'lagrangian':<12} {lo + constant:5d} {up + constant:5d} {st:<24} {t:7.1f}")
        stats: dict = {}
        (S, lo, up), t = _cpu(mem.best_selection, W, M, time_limit, 1, 400, stats, cover)
        echo(f"{M:3d} {'lp':<12} {lo + constant:5d} {up + constant:5d} "
             f"{'OPTIMAL' if lo >= up else 'FEASIBLE':<24} {t:7.1f}")
        best = lo - 1  # the survivors model asks for at least the optimum found: it must find it again
        mu = lp.lp_bound(Wk, M, []).mu
        alive = lp.survivors(Wk, mu, M, best)
        echo(f"{M:3d} survivors at {best + constant}: {len(alive)} guesses")
        out, t = _cpu(lambda: cpsat.run(mem.build_cover_model(Wk, alive, M, at_least=best + 1).model,
                                        time_limit=time_limit, workers=1, parameters={"linearization_level": 2}))
        proof = {"cpsat": t}
        echo(f"{M:3d} {'cpsat':<12} {_plus(out.objective, constant):>5} {_plus(out.floor_bound(), constant):>5} "
             f"{out.status:<24} {t:7.1f}")
        for name in ("SCIP", "HIGHS"):
            (st, obj, bound), t = _cpu(mip, Wk, alive, M, best + 1, name, time_limit)
            floor = None if bound is None else int(np.floor(bound + 1e-6))
            echo(f"{M:3d} {name.lower():<12} {_plus(obj, constant):>5} {_plus(floor, constant):>5} {st:<24} {t:7.1f}")
            proof[name.lower()] = t
        out, t = _cpu(lambda: cpsat.run(mem.build_cover_model(Wk, np.arange(Wk.shape[1]), M).model,
                                        time_limit=min(time_limit, 120), workers=1,
                                        parameters={"linearization_level": 2}))
        echo(f"{M:3d} {'cpsat-full':<12} {_plus(out.objective, constant):>5} {_plus(out.floor_bound(), constant):>5} "
             f"{out.status:<24} {t:7.1f}")
        echo(f"{M:3d} the proof step, CPU time against CP-SAT's: " +
             ", ".join(f"{k} {v / max(proof['cpsat'], 1e-9):.2f}x" for k, v in proof.items() if k != "cpsat"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--m", default="3,10,40", help="M values, comma-separated")
    parser.add_argument("--time-limit", type=float, default=300, help="seconds per solver call")
    args = parser.parse_args()
    run([int(m) for m in args.m.split(",")], args.time_limit)
