"""The memorable model's reductions and its LP bound: dominance, column generation, an exact certificate.

Data types, as in :mod:`exact.wordle.study.memorable`: ``W`` is a (classes, guesses) int array, ``W[c, g]``
the wins on class c when g is its second guess; a selection S is a set of at most M guess columns
worth ``sum_c max_{g in S} W[c, g]``; ``mu`` is an int array of multipliers *numerators*, one per
class, over the grid 1/GRID (so ``mu / GRID`` are the multipliers).

**Dominance and symmetry.** A guess g is dominated by h when ``W[c, g] <= W[c, h]`` on every class.
In any selection, replacing g by h (or dropping g if h is already there) loses nothing on any class
and keeps at most M guesses; so the optimum over the undominated guesses is the optimum over all
guesses. Guesses with identical columns dominate each other: the first in list order is kept (the
symmetry is merged). :func:`undominated` finds them exactly with bitsets: the guesses reaching
``W[c, g]`` on class c form a set per (class, value), and g's dominators are the AND over its classes.

**The bound.** For any multipliers mu (Lagrangian relaxation of "each class plays one guess")::

    wins(S) = sum_c max_{g in S} W[c, g] <= sum_c mu_c + sum_{g in S} rho_g(mu),
    rho_g(mu) = sum_c max(0, W[c, g] - mu_c)

since ``max_{g in S} W[c, g] <= mu_c + max_{g in S} max(0, W[c, g] - mu_c)`` and a max of non-negative
terms is at most their sum. With |S| <= M the right side is at most
``L(mu) = sum_c mu_c + (the M largest rho_g)``, for *every* mu. The best mu is the optimal dual of
the LP relaxation (y in [0, 1], sum y <= M, z[c, g] <= y[g], sum_g z[c, g] <= 1), found here by
**column generation**: GLOP solves the LP over a pool of guesses; its class duals mu and card dual
lambda price every guess, and a guess enters the pool when its reduced profit ``rho_g(mu) - lambda``
is positive; with none left, the pool's LP value is the LP value over all guesses. The float duals
only *choose* mu: they are rounded to the grid and L(mu) is then evaluated in integers
(:func:`certified_bound`: ``GRID * L = sum mu + top-M of sum_c max(0, GRID * W[c, g] - mu_c)``), so
the bound does not depend on the LP solver's floating point.

>>> W = np.array([[3, 1, 3], [1, 3, 1], [2, 2, 1]])
>>> undominated(W).tolist()  # guess 2 is dominated by guess 0
[0, 1]
>>> lp = lp_bound(W, 1, [0]); lp.bound  # one guess: max(3+1+2, 1+3+2) = 6 is the optimum
6
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from ortools.linear_solver import pywraplp

from exact.errors import InternalError

GRID = 1024  # multipliers are numerators over 1/GRID


#: the most bytes :func:`undominated` spends on its bitsets; past it, it scans guess by guess
BITSET_BYTES = 1 << 28


def undominated(W: np.ndarray) -> np.ndarray:
    """The guess columns no other guess dominates (of identical columns, the first), in order.

    Dominance compares values within one class only, so each class's values are first replaced by
    their ranks there (the same comparisons; weighted W has large values but at most n ranks)."""
    r, n = W.shape
    if n == 0:
        return np.arange(0)
    W = np.stack([np.unique(W[c], return_inverse=True)[1].reshape(-1) for c in range(r)]) if r else W
    top = int(W.max(initial=0)) + 1
    if r * (top + 1) * ((n + 7) // 8) > BITSET_BYTES:
        return _undominated_by_scan(W)
    # reach[c, v]: the guesses with W[c, g] >= v, packed 8 to a byte
    reach = np.stack([np.packbits(W[c][None, :] >= np.arange(top + 1)[:, None], axis=1, bitorder="little")
                      for c in range(r)])
    rows = np.arange(r)
    keep = []
    for g in range(n):
        dominators = np.unpackbits(np.bitwise_and.reduce(reach[rows, W[:, g]], axis=0), bitorder="little")[:n]
        dominators[g] = 0
        hs = np.flatnonzero(dominators)
        if not any(h < g or (W[:, h] > W[:, g]).any() for h in hs):
            keep.append(g)
    return np.array(keep, dtype=np.int64)


def _undominated_by_scan(W: np.ndarray) -> np.ndarray:
    """:func:`undominated` guess by guess (for W whose bitsets would not fit): g's possible dominators
    (every other guess) are narrowed class by class to those at least as good there, until none is left."""
    r, n = W.shape
    keep = []
    for g in range(n):
        others = np.flatnonzero(np.arange(n) != g)
        for c in range(r):
            others = others[W[c, others] >= W[c, g]]
            if not len(others):
                break
        if not any(h < g or (W[:, h] > W[:, g]).any() for h in others):
            keep.append(g)
    return np.array(keep, dtype=np.int64)


def certified_bound(W: np.ndarray, mu: np.ndarray, M: int) -> tuple[int, int]:
    """(floor(L(mu / GRID)), GRID * L(mu / GRID)) in exact integer arithmetic; ``mu`` are numerators."""
    rho = np.maximum(GRID * W.astype(np.int64) - np.asarray(mu, dtype=np.int64)[:, None], 0).sum(axis=0)
    M = min(M, rho.size)
    top = np.partition(rho, rho.size - M)[rho.size - M:] if M else rho[:0]
    scaled = int(np.asarray(mu, dtype=np.int64).sum()) + int(top.sum())
    return scaled // GRID, scaled


def reduced_profits(W: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """rho_g(mu / GRID) * GRID for every guess column (exact integers)."""
    return np.maximum(GRID * W.astype(np.int64) - np.asarray(mu, dtype=np.int64)[:, None], 0).sum(axis=0)


@dataclass
class LPBound:
    value: float  # the LP optimum over all guesses, as GLOP reports it
    bound: int  # floor(L(mu)), evaluated exactly: no selection of at most M guesses wins more
    scaled: int  # GRID * L(mu), exact
    mu: np.ndarray  # the multipliers' numerators over GRID
    columns: list[int]  # the pool of guesses the LP ended with
    support: list[int]  # the guesses with y > 0 in the LP optimum
    iterations: int
    seconds: float

    def to_json(self) -> dict:
        return {"solver": "GLOP (OR-Tools pywraplp), column generation", "value": round(self.value, 6),
                "bound": self.bound, "grid": GRID, "scaled_bound": self.scaled, "columns": len(self.columns),
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "multipliers": [int(m) for m in self.mu]}


def lp_bound(W: np.ndarray, M: int, start, batch: int = 50, max_iterations: int = 500) -> LPBound:
    """The LP relaxation over every guess by column generation from the pool ``start``, and the
    exact bound L(mu) at its rounded duals (see the module docstring)."""
    started = time.perf_counter()
    r, n = W.shape
    s = pywraplp.Solver.CreateSolver("GLOP")
    inf = s.infinity()
    one_each = [s.Constraint(-inf, 1.0) for _ in range(r)]
    card = s.Constraint(-inf, float(M))
    objective = s.Objective()
    objective.SetMaximization()
    y: dict[int, object] = {}

    def add(g: int) -> None:
        y[g] = s.NumVar(0.0, 1.0, f"y{g}")
        card.SetCoefficient(y[g], 1.0)
        for c in range(r):
            z = s.NumVar(0.0, 1.0, "")
            one_each[c].SetCoefficient(z, 1.0)
            objective.SetCoefficient(z, float(W[c, g]))
            link = s.Constraint(-inf, 0.0)
            link.SetCoefficient(z, 1.0)
            link.SetCoefficient(y[g], -1.0)

    for g in dict.fromkeys(int(g) for g in start):
        add(g)
    if not y:
        add(int(np.argmax(W.sum(axis=0))))
    iterations = 0
    while True:
        iterations += 1
        if s.Solve() not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            raise InternalError("GLOP did not solve the memorable LP")  # the LP is always feasible: a bug
        mu = np.array([max(0.0, con.dual_value()) for con in one_each])
        rho = np.maximum(W - mu[:, None], 0.0).sum(axis=0)
        entering = [int(g) for g in np.argsort(-rho, kind="stable")[:batch + len(y)]
                    if rho[g] > card.dual_value() + 1e-7 and int(g) not in y][:batch]
        if not entering or iterations >= max_iterations:
            break
        for g in entering:
            add(g)
    numerators = np.round(mu * GRID).astype(np.int64)
    # rounding may lose a little: try the rounded duals and the duals rounded up, keep the better
    best = min((certified_bound(W, m, M) + (m,) for m in (numerators, np.ceil(mu * GRID).astype(np.int64))),
               key=lambda t: t[1])
    support = sorted(g for g, var in y.items() if var.solution_value() > 1e-9)
    return LPBound(objective.Value(), best[0], best[1], best[2], sorted(y), support, iterations,
                   time.perf_counter() - started)


def survivors(W: np.ndarray, mu: np.ndarray, M: int, lower: int) -> np.ndarray:
    """The guesses that can be in a selection winning more than ``lower`` (exact integers): g survives
    when ``sum mu + rho_g + (the M-1 largest rho of the other guesses) >= GRID * (lower + 1)``; any
    selection containing g is bounded by that left side (the bound above, with g in the top M)."""
    rho = reduced_profits(W, mu)
    n = rho.size
    base = int(np.asarray(mu, dtype=np.int64).sum())
    if M <= 1 or n <= 1:
        others = np.zeros(n, dtype=np.int64)
    else:
        order = np.sort(rho)[::-1]
        k = min(M - 1, n - 1)
        top = int(order[:k].sum())
        next_one = int(order[k]) if k < n else 0
        # when g is itself among the k largest, the next one takes its place
        others = np.where(rho >= order[k - 1], top - rho + next_one, top)
    return np.flatnonzero(base + rho + others >= GRID * (lower + 1))
