"""Memorable depth-3 trees: the best tree after a fixed first guess that uses at most M distinct
second guesses across all first-feedback classes (a strategy a person can memorise).

The problem. A first guess g1 splits the answers into the all-green class (won at once when g1 is an
answer) and the classes P_1..P_r. Playing g as the second guess on P_c wins w[c, g] answers within
three guesses, the number of classes g makes on P_c (its all-green class at guess 2, one answer of each
other class at guess 3; every answer is a guess). A memorable strategy picks a set S of at most M
second guesses and plays, on each class, the best of them::

    wins(S) = [g1 is an answer] + sum_c max_{g in S} w[c, g]

(third guesses are not restricted: by then the answer is named). This is max-coverage / facility
location; with M >= r it is the unconstrained depth-3 optimum for g1.

Answer weights (``weights``, :mod:`exact.weights`: positive integers w_a). The objective becomes the
weight won within three guesses: the first guess wins its own answer's weight, and g on P_c wins
``w[c, g]`` = the sum over g's classes on P_c of the class's heaviest answer (its all-green class at
guess 2, the heaviest answer of each other class named at guess 3; unit weights: the count of classes),
so wins(S) keeps its form and P(win) = weight won / total weight. Every step below argues only from
that form with non-negative entries, never from W counting classes: greedy and swaps evaluate real
selections (lower bounds for any W); dominance compares columns class by class; the Lagrangian
inequality ``max_{g in S} W[c, g] <= mu_c + sum_{g in S} max(0, W[c, g] - mu_c)`` holds for any real W
and mu (a max of non-negative terms is at most their sum), so L(mu) bounds every selection; fixing is
that bound with g forced in; the full-cover step needs W integral (missing a class's maximum loses at
least 1), which integer weights keep; CP-SAT's model is the same with the weighted coefficients.
The leaves name each class's heaviest answer (the first on ties), which is what the weighted W counts.

Data types, stated once:

- ``W``: an (r, n_guesses) int array, ``W[c, g] = w[c, g]``; classes where every guess scores the same
  (singletons, for one) are split off as a constant;
- a *selection* S: a sorted int array of guess rows, ``len(S) <= M``.

How the optimum is proved over all guesses, not just a candidate pool (:func:`best_selection`):

1. dominated guesses are dropped and identical ones merged (:mod:`exact.wordle.study.memorable_lp`);
2. a lower bound from a real selection: greedy, then best-improvement swaps;
3. an upper bound by Lagrangian relaxation of ``sum_g z[c, g] = 1``: for any multipliers mu,
   ``wins(S) <= sum_c mu_c + sum_{g in S} rho_g(mu)`` with ``rho_g = sum_c max(0, W[c, g] - mu_c)``, so
   ``L(mu) = sum_c mu_c + (the M largest rho_g)`` bounds every selection. mu is the LP relaxation's
   dual, found by column generation (:func:`exact.wordle.study.memorable_lp.lp_bound`), rounded to
   multiples of 1/1024 and evaluated in integers; :func:`lagrangian_bound` (subgradient steps) is
   the earlier way to choose mu, kept for the benchmark;
4. variable fixing from the same inequality: a guess g with ``sum_c mu_c + rho_g + (the M-1 largest
   other rho) < lower bound + 1`` is in no selection better than the lower bound, so it is dropped;
5. CP-SAT on the facility-location model over the surviving guesses (y[g]: g in S; z[c, g] <= y[g]:
   class c plays g; one z per class; sum y <= M). Its optimum, or the lower bound if larger, is the
   optimum over all guesses; when it stops early, its bound (with the Lagrangian one) still bounds it.
   When too many guesses survive, CP-SAT first searches a pool of promising guesses for a better
   selection, and fixing is done again at it.

>>> from exact.words import words_from_lines
>>> A = words_from_lines("quack quail quake qualm quart quash quasi queen queer quell query quest".split())
>>> [solve_memorable(A, A, "quest", M, workers=1).wins for M in (1, 2, 3)]
[10, 12, 12]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from exact.errors import ExactError
from exact.feedback import all_green
from exact.partitions import class_counts, classes, feedback_matrix
from exact import cpsat
from exact.game.tree import Tree
from exact.weights import Weights, as_values
from exact.wordle.fewest.complete import complete_and_check
from exact.wordle.study import memorable_lp as lp
from exact.wordle.wins.cpsat import class_maxima
from exact.words import WordList, check_answers_are_guesses, require_in_pool

GRID = 1024  # multipliers are rounded to multiples of 1/GRID before the bound is evaluated
DEFAULT_FIRST = "trace"  # the default --first: the DP's proven (unique) optimal depth-3 first guess


# --- The weights --------------------------------------------------------------------------------

@dataclass
class Classes:
    first: int  # row of the first guess
    hit: int  # 1 when the first guess is an answer (won at guess 1); with weights, that answer's weight
    patterns: list[int]  # first-feedback pattern of each non-green class
    members: list[np.ndarray]  # answer columns of each class
    W: np.ndarray  # (classes, guesses): classes guess g makes on class c (int32); with weights, the sum of
    #               their heaviest answers (int64)
    full_cover: tuple | None = None  # smallest_full_cover of the varying classes, once computed
    w: np.ndarray | None = None  # the answers' weights (None: 1 each)


def first_classes(F: np.ndarray, first: int, green: int, w: np.ndarray | None = None) -> Classes:
    """The first guess's classes and W (see the module); ``w`` the answers' weights (None: 1 each)."""
    split = classes(F, first, np.arange(F.shape[1]))
    patterns = [p for p in split if p != green]
    members = [split[p] for p in patterns]
    if w is None:
        W = np.stack([np.count_nonzero(class_counts(F, P), axis=1) for P in members]).astype(np.int32) \
            if members else np.zeros((0, F.shape[0]), dtype=np.int32)
        return Classes(first, int(green in split), patterns, members, W)
    W = np.stack([class_maxima(F, P, w).sum(axis=1) for P in members]) if members \
        else np.zeros((0, F.shape[0]), dtype=np.int64)
    hit = int(w[split[green][0]]) if green in split else 0
    return Classes(first, hit, patterns, members, W, w=w)


def wins_of(W: np.ndarray, S) -> int:
    """sum_c max_{g in S} W[c, g] (0 for no classes)."""
    return int(W[:, list(S)].max(axis=1).sum()) if W.shape[0] else 0


# --- 1. A good selection ------------------------------------------------------------------------

def greedy_selection(W: np.ndarray, M: int) -> list[int]:
    """Add, M times, the guess that raises sum_c max_{g in S} W[c, g] most (first in list order on ties)."""
    best = np.full(W.shape[0], np.iinfo(np.int32).min // 2, dtype=np.int64)
    S: list[int] = []
    for _ in range(M):
        gains = np.maximum(W, best[:, None]).sum(axis=0)
        gains[S] = -1
        g = int(np.argmax(gains))
        if S and gains[g] <= best.sum():
            break
        S.append(g)
        best = np.maximum(best, W[:, g])
    return S


def improve_by_swaps(W: np.ndarray, S: list[int], rounds: int = 20) -> list[int]:
    """Replace one member of S by any guess while that strictly raises the wins (best swap first)."""
    S = list(S)
    current = wins_of(W, S)
    for _ in range(rounds):
        best_move, best_value = None, current
        for i in range(len(S)):
            rest = S[:i] + S[i + 1:]
            base = W[:, rest].max(axis=1) if rest else np.full(W.shape[0], -1, dtype=np.int32)
            values = np.maximum(W, base[:, None]).sum(axis=0)
            values[S] = -1
            g = int(np.argmax(values))
            if values[g] > best_value:
                best_move, best_value = (i, g), int(values[g])
        if best_move is None:
            break
        S[best_move[0]] = best_move[1]
        current = best_value
    return sorted(S)


# --- 2. and 3. The Lagrangian bound and fixing --------------------------------------------------

def lagrangian_value(W: np.ndarray, mu: np.ndarray, M: int) -> tuple[float, np.ndarray]:
    """(L(mu), rho): sum_c mu_c + the M largest rho_g, rho_g = sum_c max(0, W[c, g] - mu_c)."""
    rho = np.maximum(W - mu[:, None], 0.0).sum(axis=0)
    top = np.partition(rho, len(rho) - M)[len(rho) - M:] if M < len(rho) else rho
    return float(mu.sum() + top.sum()), rho


def lagrangian_bound(W: np.ndarray, M: int, target: int, steps: int = 400) -> tuple[int, np.ndarray]:
    """(an integer upper bound on every selection of at most M guesses, the multipliers proving it).

    Subgradient descent with Polyak steps towards ``target`` (a known achievable value); the final
    multipliers lie on the 1/GRID grid, so the bound is computed exactly.
    """
    mu = W.max(axis=1).astype(np.float64)  # L = sum_c max_g W: the M-unconstrained optimum
    best_mu, best_L = mu.copy(), lagrangian_value(W, mu, M)[0]
    theta = 1.0
    M_eff = min(M, W.shape[1])
    for step in range(steps):
        L, rho = lagrangian_value(W, mu, M_eff)
        if L < best_L:
            best_L, best_mu = L, mu.copy()
        elif step % 20 == 19:
            theta /= 2
        if best_L < target + 1:
            break
        top = np.argpartition(rho, len(rho) - M_eff)[len(rho) - M_eff:]
        grad = 1.0 - (W[:, top] > mu[:, None]).sum(axis=1)
        norm = float((grad**2).sum())
        if norm == 0:
            break
        mu = np.maximum(mu - theta * (L - target) / norm * grad, 0.0)
    mu = np.round(best_mu * GRID) / GRID
    L = lagrangian_value(W, mu, M_eff)[0]
    return int(np.floor(L + 1e-9)), mu


def surviving_guesses(W: np.ndarray, mu: np.ndarray, M: int, lower: int) -> np.ndarray:
    """The guesses that can be in a selection winning more than ``lower``: those g with
    sum_c mu_c + rho_g + (the M-1 largest rho of the other guesses) >= lower + 1."""
    rho = np.maximum(W - mu[:, None], 0.0).sum(axis=0)
    order = np.sort(rho)[::-1]
    if M <= 1:
        others = np.zeros_like(rho)
    else:
        top = order[:M - 1].sum()
        next_one = order[M - 1] if M - 1 < len(order) else 0.0
        # when g is itself among the M-1 largest, the next one takes its place
        others = np.where(rho >= order[min(M - 2, len(order) - 1)], top - rho + next_one, top)
    return np.flatnonzero(mu.sum() + rho + others >= lower + 1)


# --- 4. The CP-SAT model ------------------------------------------------------------------------

@dataclass
class CoverModel:
    """A selection model and its variables: y[g] (guess g is a second guess), z[c, g] (class c plays g)."""

    model: cp_model.CpModel
    y: dict
    z: dict = field(default_factory=dict)


def build_cover_model(W: np.ndarray, candidates: np.ndarray, M: int, at_least: int | None = None,
                      hint: list[int] | None = None) -> CoverModel:
    """Facility location over the candidate guesses.

    y[g] = 1 when g is one of the second guesses; z[c, g] = 1 when class c plays g; a class plays
    exactly one chosen guess; at most M chosen; maximise sum_c W[c, g] z[c, g]. A class only needs
    z for guesses that beat the worst candidate on it (``floor``), which any chosen guess reaches.
    """
    model = cp_model.CpModel()
    y = {int(g): model.new_bool_var(f"y[{g}]") for g in candidates}
    floor = W[:, candidates].min(axis=1)
    z, z_floor = {}, {}
    for c in range(W.shape[0]):
        z_floor[c] = model.new_bool_var(f"z[{c},floor]")
        for g in candidates:
            if W[c, g] > floor[c]:
                z[c, int(g)] = model.new_bool_var(f"z[{c},{g}]")
                model.add_implication(z[c, int(g)], y[int(g)])
        model.add_exactly_one([z_floor[c]] + [z[c, int(g)] for g in candidates if (c, int(g)) in z])
    model.add(sum(y.values()) <= M)
    model.add(sum(y.values()) >= 1)
    wins = (sum(int(floor[c]) * z_floor[c] for c in z_floor)
            + sum(int(W[c, g]) * var for (c, g), var in z.items()))
    if at_least is not None:  # only better selections are of interest: lets CP-SAT prune far more
        model.add(wins >= at_least)
    model.maximize(wins)
    if hint:
        chosen = set(hint)
        for g, var in y.items():
            model.add_hint(var, g in chosen)
    return CoverModel(model, y, z)


# --- Solving ------------------------------------------------------------------------------------

@dataclass
class MemorableResult:
    first: str
    M: int
    wins: int  # answers (with weights: their weight) the strategy wins within 3 guesses
    bound: int  # no strategy with this first guess and at most M second guesses wins more
    status: str  # OPTIMAL when wins == bound (proved over all guesses), else FEASIBLE
    n: int
    unconstrained: int  # the best depth-3 value with this first guess and any second guesses
    second_guesses: list[str]  # the distinct second guesses used, in list order
    seconds: float
    workers: int
    stats: dict = field(default_factory=dict)
    tree: Tree | None = field(default=None, repr=False)
    weights: Weights | None = field(default=None, repr=False)  # not unit: wins, bound, unconstrained are weights

    @property
    def total(self) -> int:
        """The total weight of the answers (their number unweighted)."""
        return self.n if self.weights is None else self.weights.total

    @property
    def probability(self) -> float:
        """P(win within 3): weight won / total weight."""
        return self.wins / self.total

    @property
    def interrupted(self) -> bool:
        """Stopped by Ctrl-C or SIGTERM: the selection is the best so far, the bound still valid."""
        return bool(self.stats.get("interrupted"))

    def to_json(self) -> dict:
        return {"first": self.first, "M": self.M, "wins": self.wins, "bound": self.bound,
                "status": self.status, "n": self.n, "probability": self.probability,
                "unconstrained": self.unconstrained, "second_guesses": self.second_guesses,
                "seconds": round(self.seconds, 3), "workers": self.workers, "stats": self.stats,
                "interrupted": self.interrupted,
                **({"weights": self.weights.record(), "weight": self.total} if self.weights is not None else {})}


def smallest_full_cover(W: np.ndarray, time_limit: float | None, workers: int) -> tuple[list[int], int]:
    """(a smallest selection found that reaches max_g W[c, g] on every class, a lower bound on its size).

    Set cover by CP-SAT: each class needs one of its best guesses. M below the lower bound cannot reach
    the unconstrained optimum, so there the optimum is at most that minus one.
    """
    serves = W == W.max(axis=1)[:, None]
    cm = build_full_cover_model(serves)
    out = cpsat.run(cm.model, time_limit=time_limit, workers=workers)
    if out.interrupted:
        raise KeyboardInterrupt  # nothing to report yet: the caller stops
    if not out.has_solution:
        return [], 1
    return sorted(g for g, var in cm.y.items() if out.value(var)), int(round(out.bound))


def build_full_cover_model(serves: np.ndarray) -> CoverModel:
    """Set cover: y[g] for each guess that is best on some class; each class needs one of its best."""
    candidates = np.flatnonzero(serves.any(axis=0))
    model = cp_model.CpModel()
    y = {int(g): model.new_bool_var(f"y[{g}]") for g in candidates}
    for c in range(serves.shape[0]):
        model.add_bool_or([y[int(g)] for g in np.flatnonzero(serves[c])])
    model.minimize(sum(y.values()))
    for g in greedy_selection(np.where(serves, 1, 0), serves.shape[0]):
        model.add_hint(y[g], True)
    return CoverModel(model, y)


def solve_memorable(answers: WordList, guesses: WordList, first: str, M: int, *,
                    time_limit: float | None = 60, workers: int = 2, F: np.ndarray | None = None,
                    classes: Classes | None = None, max_candidates: int = 400,
                    max_guesses: int | None = None, weights: Weights | None = None) -> MemorableResult:
    """The best depth-3 tree opening with ``first`` that uses at most M distinct second guesses.
    ``weights`` (not unit): the most weight won within 3 (the module argues each step under weights;
    unit weights are the unweighted problem itself).

    With ``max_guesses`` the tree is completed past guess 3 by the exact fewest-guesses search
    (:func:`exact.wordle.fewest.complete.complete_and_check`): every answer solved within ``max_guesses``,
    the wins within 3 unchanged.

    ``time_limit`` caps each CP-SAT call; CP-SAT proves or improves the lower bound only when variable
    fixing leaves at most ``max_candidates`` guesses (else the result is FEASIBLE with valid bounds).
    """
    if M < 1:
        raise ExactError(f"M must be at least 1, not {M}")
    check_answers_are_guesses(answers, guesses)
    require_in_pool([first], guesses, "first guess")
    started = time.perf_counter()
    weights = None if weights is None or weights.unit else weights
    w = None if weights is None else as_values(weights, answers)
    if F is None:
        F = feedback_matrix(guesses, answers)
    if classes is None:
        classes = first_classes(F, guesses.index[first], all_green(answers.length), w)
    if (classes.w is None) != (w is None):
        raise ExactError("the classes given were computed under other weights than those given")
    W_all = classes.W
    varying = W_all.max(axis=1) > W_all.min(axis=1)  # a class every guess scores alike is a constant
    constant = classes.hit + int(W_all[~varying, 0].sum())
    W = W_all[varying]
    stats: dict = {"classes": len(classes.members), "varying_classes": int(varying.sum())}
    S, lower, upper = [0], 0, 0
    if W.shape[0]:
        if classes.full_cover is None:
            classes.full_cover = smallest_full_cover(W, time_limit, workers)
        S, lower, upper = best_selection(W, M, time_limit, workers, max_candidates, stats, classes.full_cover)
    status = "OPTIMAL" if lower >= upper else "FEASIBLE"
    tree = memorable_tree(F, classes, S, answers, guesses)
    if max_guesses is not None:  # with weights the leaves (heaviest answers) are kept, their weight with them
        tree, played = complete_and_check(tree, answers, guesses, 3, max_guesses, F=F, keep_leaves=w is not None)
        stats["complete"] = {"max_guesses": max_guesses, "wins_at": list(played.wins_at),
                             "total_guesses": sum((k + 1) * w for k, w in enumerate(played.wins_at))}
    used = sorted({t.guess for t in tree.children.values()}, key=guesses.index.get)
    return MemorableResult(first, M, constant + lower, constant + upper, status, len(answers),
                           constant + int(W.max(axis=1, initial=0).sum()), used,
                           time.perf_counter() - started, workers, stats, tree, weights)


def best_selection(W: np.ndarray, M: int, time_limit, workers: int, max_candidates: int,
                   stats: dict, full_cover: tuple[list[int], int]) -> tuple[list[int], int, int]:
    """(a selection, its wins, an upper bound on every selection of at most M guesses) for varying W.

    The steps (each argued in :mod:`exact.wordle.study.memorable_lp`): drop dominated guesses and merge
    identical ones; greedy and swaps; the LP bound by column generation, certified in integers; variable
    fixing by its multipliers and CP-SAT over the survivors (when few), which proves the optimum; else
    CP-SAT over a pool (the LP's columns and the guesses of highest reduced profit) for a better
    selection, and fixing again at it.
    ``stats["bound_argument"]`` names the argument that proves the returned bound.
    """
    unconstrained = int(W.max(axis=1).sum())
    cover, cover_bound = full_cover
    stats.update(full_cover=len(cover) or None, full_cover_bound=cover_bound)
    if cover and M >= len(cover):
        stats["bound_argument"] = "unconstrained value reached by a full cover of at most M guesses"
        return cover, unconstrained, unconstrained
    upper = unconstrained - 1 if M < cover_bound else unconstrained
    keep = lp.undominated(W)
    Wk = W[:, keep]
    stats["dominance"] = {"guesses": int(W.shape[1]), "undominated": int(len(keep))}
    S = improve_by_swaps(Wk, greedy_selection(Wk, M))
    lower = wins_of(Wk, S)
    stats["greedy_swaps"] = lower
    relaxation = lp.lp_bound(Wk, M, S)
    stats["lp"] = relaxation.to_json()
    argument = "LP bound by column generation, L(mu) evaluated in integers at the recorded multipliers"
    if relaxation.bound < upper:
        upper = relaxation.bound
    elif upper < unconstrained:
        argument = "full-cover bound: fewer than the smallest full cover cannot reach the unconstrained value"
    stats["bound_argument"] = argument
    if lower < upper:  # fixing first: often it leaves few guesses
        S, lower, upper = _fix_and_solve(Wk, relaxation.mu, M, S, lower, upper, time_limit, workers,
                                         max_candidates, stats)
    if lower < upper and not stats.get("interrupted"):  # a better selection from a pool of promising guesses
        before_pool = lower
        rho = lp.reduced_profits(Wk, relaxation.mu)
        pool = np.union1d(np.argsort(-rho, kind="stable")[:max(300, 4 * M)], relaxation.columns)
        found, lower_pool, run = _cover_search(Wk, pool, M, lower, S, time_limit, workers)
        stats["pool_search"] = {"guesses": int(len(pool)), **run}
        if lower_pool > lower:
            S, lower = found, lower_pool
        if run.get("interrupted"):
            stats["interrupted"] = True
        if lower < upper and not stats.get("interrupted") and lower > before_pool:
            S, lower, upper = _fix_and_solve(Wk, relaxation.mu, M, S, lower, upper, time_limit, workers,
                                             max_candidates, stats)
    return sorted(int(keep[g]) for g in S), lower, max(lower, upper)


def _fix_and_solve(W, mu, M, S, lower, upper, time_limit, workers, max_candidates, stats):
    """Variable fixing at ``lower`` by the multipliers ``mu``, then CP-SAT over the survivors when they
    are at most ``max_candidates``: (selection, lower, upper) updated, the proof in ``stats``."""
    alive = lp.survivors(W, mu, M, lower)
    stats["candidates_after_fixing"] = int(len(alive))
    if len(alive) > max_candidates:
        return S, lower, upper
    fixed_at = lower
    # Every selection beating `lower` lies inside `alive`: CP-SAT finds one, or proves none.
    found, lower_fix, run = _cover_search(W, alive, M, lower, S, time_limit, workers)
    stats.update(cp_sat_status=run["status"], cp_sat_seconds=run["seconds"], cp_sat_variables=run["variables"],
                 cp_sat=run)
    if run.get("interrupted"):
        stats["interrupted"] = True
    if lower_fix > lower:
        S, lower = found, lower_fix
    if run["status"] in ("OPTIMAL", "INFEASIBLE"):
        stats["bound_argument"] = (
            f"CP-SAT {run['status']} over the {len(alive)} guesses that survive fixing at {fixed_at} (wins of "
            "the varying classes) by the LP bound's multipliers; every other guess is dominated or fixed out")
        return S, lower, lower
    if run.get("bound") is not None:
        upper = min(upper, max(lower, run["bound"]))
    return S, lower, upper


def _cover_search(W: np.ndarray, candidates: np.ndarray, M: int, lower: int, hint: list[int], time_limit,
                  workers: int) -> tuple[list[int], int, dict]:
    """CP-SAT on the facility-location model over ``candidates``, asked for more than ``lower``:
    (its best selection, that selection's wins or ``lower``, the run's statistics)."""
    cm = build_cover_model(W, candidates, M, at_least=lower + 1, hint=[g for g in hint if g in set(candidates)])
    # the LP relaxation is what proves these
    out = cpsat.run(cm.model, time_limit=time_limit, workers=workers, parameters={"linearization_level": 2})
    run = {"status": out.status, "seconds": round(out.stats["wall_time"], 3),
           "variables": len(cm.model.proto.variables), "conflicts": out.stats["conflicts"],
           "branches": out.stats["branches"], "bound": out.floor_bound()}
    if out.interrupted:
        run["interrupted"] = True
    if out.has_solution:
        found = sorted(g for g, var in cm.y.items() if out.value(var))
        if wins_of(W, found) > lower:
            return found, wins_of(W, found), run
    return hint, lower, run


def memorable_tree(F: np.ndarray, first_split: Classes, S: list[int], answers: WordList, guesses: WordList) -> Tree:
    """The tree: each first-feedback class plays its best guess of S (first in S on ties), then names
    one answer of each class that guess leaves (the heaviest with weights; the first on ties)."""
    green = all_green(answers.length)
    w = first_split.w

    def named(Q: np.ndarray) -> int:
        return int(Q.min()) if w is None else int(min(Q.tolist(), key=lambda a: (-int(w[a]), a)))

    S_rows = sorted(S)
    children = {}
    for c, (pattern, P) in enumerate(zip(first_split.patterns, first_split.members)):
        g = S_rows[int(np.argmax(first_split.W[c, S_rows]))]
        below = {p: Tree(answers.words[named(Q)], len(Q), {})
                 for p, Q in classes(F, g, P).items() if p != green}
        children[pattern] = Tree(guesses.words[g], len(P), dict(sorted(below.items())))
    return Tree(guesses.words[first_split.first], F.shape[1], dict(sorted(children.items())))
