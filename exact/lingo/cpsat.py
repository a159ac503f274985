"""CP-SAT exact model for Lingo: the best k guesses of a (small) pool, with a proof of optimality.

Data types:

- ``pool``: a :class:`~exact.words.WordList`, both the guesses and the answers;
- ``F``: its (n, n) feedback matrix, rows guesses, columns answers (:mod:`exact.feedback`);
- ``first``: int array, the first letter 0..25 of every answer;
- a *pair* ``(i, j)``, ``i < j``: two answers with the same first letter; a guess ``g``
  *separates* it when ``F[g, i] != F[g, j]``; ``S(i, j)`` is the set of such guesses.

The model (OR-Tools CP-SAT):

    x_g in {0, 1}                          choose guess g
    sum_g x_g = k
    y_j in {0, 1}                          answer j is the first (lowest index) of its class
    y_j <= sum_{g in S(i, j)} x_g          for every pair (i, j), i < j
    maximise sum_j y_j

Why it is exact. Fix the chosen set T. Two answers of one first letter share a class iff no guess of T
separates them, so the class of j holds an earlier answer iff some pair (i, j), i < j, is separated by
no guess of T. Every class has exactly one first member, so #classes = #{j : T separates (i, j) for
all i < j}. The constraints force y_j = 0 for every other j, and maximising sets y_j = 1 for these:
the optimum of the model is max_T #classes, the most wins.

Reductions, each keeping the optimum (the solution is re-scored from scratch with
:func:`exact.lingo.score.count_wins` and must match the model's objective):

1. *Twins*: answers that no guess of the pool separates from an earlier answer always share its
   class; only the first of each such set keeps a y variable.
2. *Guess groups*: guesses inducing the same partition of the pool separate the same pairs; one
   representative per group is kept (choosing two of one group only wastes a guess, and more guesses
   never merge classes, so k distinct groups are enough; with fewer than k groups all are chosen).
3. *Always-separated pairs*: since exactly k' = min(k, #groups) of the kept guesses are chosen, a
   pair that fewer than k' kept guesses fail to separate is separated by every choice; its constraint
   is dropped. The others are written over the shorter side: as a clause over S(i, j), or as
   ``y_j => sum of x over the non-separating guesses <= k' - 1`` (the same thing when sum x = k').
4. *Dominance* (symmetry breaking): a guess whose separated pairs (among those still in the model)
   are a subset of another kept guess's can be swapped for it without loss, so it is dropped (ties
   broken by index), as long as at least k' guesses stay. 3 and 4 repeat until nothing changes.

The heuristic set (given, or greedy plus one-swap hill climbing) is passed to CP-SAT as a full hint.
Ctrl-C stops the search cleanly; the best set found so far is returned (status FEASIBLE or UNKNOWN).

>>> from exact.words import words_from_lines
>>> from exact.feedback import compute_feedback_matrix
>>> pool = words_from_lines(["baker", "bakes", "baked", "bales", "bared", "barer", "bases"])
>>> out = solve_cpsat(pool, compute_feedback_matrix(pool.words, pool.words), 1, workers=1)
>>> out.status, out.wins, out.bound, len(out.guesses)
('OPTIMAL', 5, 5, 1)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from ortools.sat.python import cp_model

from exact import cpsat
from exact.cpsat import export_model
from exact.errors import ExactError, InternalError
from exact.lingo.score import count_wins, first_letters
from exact.words import WordList

#: The separation matrix (kept guesses x pairs) is refused beyond this many cells.
MAX_CELLS = 400_000_000


@dataclass(frozen=True)
class Reduction:
    """The instance as the model sees it; rows and answers are pool indices."""

    k: int                      # guesses the model chooses: min(k, number of guess groups)
    answers: np.ndarray         # representative answers (the first of each twin set)
    twins: int                  # answers dropped as inseparable from an earlier one
    groups: list[np.ndarray]    # guess groups: pool rows inducing the same partition
    kept: np.ndarray            # indices into groups of the guesses the model chooses from
    pairs: np.ndarray           # (P, 2) answers (i, j), i < j, same letter, not always separated
    separates: np.ndarray       # (len(kept), P) bool: kept guess separates pair
    free: int                   # representative answers that are a new class for every choice
    rounds: int                 # rounds of pair dropping and dominance

    @property
    def rows(self) -> np.ndarray:
        """The pool row standing for each kept guess."""
        return np.array([self.groups[g][0] for g in self.kept], dtype=np.int64)

    def contested(self) -> np.ndarray:
        """The answers j that carry a y variable, sorted."""
        return np.unique(self.pairs[:, 1]) if len(self.pairs) else np.zeros(0, dtype=np.int64)


@dataclass
class CpSatOutcome:
    guesses: tuple[int, ...]
    wins: int
    bound: int
    status: str
    seconds: float
    stats: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        data = asdict(self)
        data["guesses"] = list(self.guesses)
        return data


# --- Reductions ---------------------------------------------------------------------------------

def canonical_rows(F: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Each guess's partition of the pool (split by first letter), labelled by first appearance.

    Two guesses get equal rows iff they separate exactly the same same-letter pairs.
    """
    radix = int(F.max()) + 1
    out = np.empty(F.shape, dtype=np.int32)
    for g in range(F.shape[0]):
        keys = first.astype(np.int64) * radix + F[g]
        _, firsts, inverse = np.unique(keys, return_index=True, return_inverse=True)
        rank = np.empty(len(firsts), dtype=np.int32)
        rank[np.argsort(firsts)] = np.arange(len(firsts), dtype=np.int32)
        out[g] = rank[inverse]
    return out


def group_equal(rows: np.ndarray) -> list[np.ndarray]:
    """Indices of equal rows, grouped; groups ordered by their first index."""
    seen: dict[bytes, list[int]] = {}
    for i, row in enumerate(np.ascontiguousarray(rows)):
        seen.setdefault(row.tobytes(), []).append(i)
    return [np.array(ix, dtype=np.int64) for ix in seen.values()]


def twin_free_answers(F: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The first answer of each set that no guess separates (equal columns, equal first letter)."""
    columns = np.column_stack([first.astype(np.int64), F.T.astype(np.int64)])
    return np.array(sorted(ix[0] for ix in group_equal(columns)), dtype=np.int64)


def same_letter_pairs(answers: np.ndarray, first: np.ndarray) -> np.ndarray:
    """(P, 2) array of pairs (i, j), i < j, of the answers sharing a first letter."""
    parts = []
    for letter in np.unique(first[answers]):
        members = np.sort(answers[first[answers] == letter])
        a, b = np.triu_indices(len(members), 1)
        parts.append(np.column_stack([members[a], members[b]]))
    return np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)


def dominated(A: np.ndarray) -> np.ndarray:
    """Bool per row of A (guesses x pairs): its pairs are a subset of another row's.

    Equal rows: all but the first count as dominated, so exactly one of them stays.
    """
    K = A.shape[0]
    if K == 0 or A.shape[1] == 0:
        return np.arange(K) > 0
    a = A.astype(np.float32)
    not_a = (~A).astype(np.float32).T
    out = np.zeros(K, dtype=bool)
    chunk = max(1, 2_000_000 // max(1, K))
    for start in range(0, K, chunk):
        # missing[g, h] = pairs that g separates and h does not; zero means h dominates g.
        missing = a[start:start + chunk] @ not_a
        for r, row in enumerate(missing):
            g = start + r
            covers = np.flatnonzero(row < 0.5)
            covers = covers[covers != g]
            if covers.size == 0:
                continue
            strict = A[covers].sum(axis=1) > A[g].sum()
            out[g] = bool(strict.any() or (covers < g).any())
    return out


def reduce_instance(F: np.ndarray, first: np.ndarray, k: int) -> Reduction:
    """Apply the reductions of the module docstring until nothing changes."""
    n = F.shape[1]
    answers = twin_free_answers(F, first)
    groups = group_equal(canonical_rows(F, first))
    k_model = min(k, len(groups))
    rows = np.array([g[0] for g in groups], dtype=np.int64)
    pairs = same_letter_pairs(answers, first)
    if len(groups) * len(pairs) > MAX_CELLS:
        raise ExactError(f"the pool is too large for the exact CP-SAT model "
                         f"({len(groups)} guess groups x {len(pairs)} answer pairs)")
    Fr = F[rows]
    separates = Fr[:, pairs[:, 0]] != Fr[:, pairs[:, 1]] if len(pairs) else np.zeros((len(rows), 0), bool)
    kept = np.arange(len(groups))
    rounds = 0
    while True:
        rounds += 1
        failing = len(kept) - separates.sum(axis=0)
        live = failing >= k_model
        pairs, separates = pairs[live], separates[:, live]
        drop = dominated(separates) if len(kept) > k_model else np.zeros(len(kept), dtype=bool)
        if np.count_nonzero(~drop) < k_model:
            # Keep k' guesses: the undominated ones, then the dominated that separate most.
            order = np.lexsort((np.arange(len(kept)), -separates.sum(axis=1), drop))
            drop = np.ones(len(kept), dtype=bool)
            drop[order[:k_model]] = False
        if live.all() and not drop.any():
            break
        kept, separates = kept[~drop], separates[~drop]
    free = len(answers) - len(np.unique(pairs[:, 1]))
    return Reduction(k=k_model, answers=answers, twins=n - len(answers), groups=groups, kept=kept,
                     pairs=pairs, separates=separates, free=free, rounds=rounds)


# --- The heuristic hint ---------------------------------------------------------------------------

def greedy_guesses(F: np.ndarray, first: np.ndarray, k: int, candidates: np.ndarray | None = None,
                   *, max_passes: int = 20) -> list[int]:
    """A good set to start from: greedy by wins, then one-swap hill climbing (first improvement)."""
    candidates = np.arange(F.shape[0]) if candidates is None else np.asarray(candidates)
    chosen: list[int] = []
    for _ in range(min(k, len(candidates))):
        best = max((g for g in candidates if g not in chosen),
                   key=lambda g: count_wins(F, chosen + [int(g)], first))
        chosen.append(int(best))
    wins = count_wins(F, chosen, first)
    for _ in range(max_passes):
        improved = False
        for slot in range(len(chosen)):
            for g in candidates:
                if g in chosen:
                    continue
                trial = chosen[:slot] + [int(g)] + chosen[slot + 1:]
                w = count_wins(F, trial, first)
                if w > wins:
                    chosen, wins, improved = trial, w, True
        if not improved:
            break
    return chosen


def hint_groups(reduced: Reduction, F: np.ndarray, first: np.ndarray, hint: Sequence[int]) -> list[int]:
    """Map pool rows to kept guesses (positions in ``reduced.kept``), k' of them.

    A row whose group was dropped is replaced by the kept guess that scores best with the others.
    """
    group_of = {int(r): gi for gi, rows in enumerate(reduced.groups) for r in rows}
    position = {int(g): p for p, g in enumerate(reduced.kept)}
    rows = reduced.rows
    chosen = []
    for r in hint:
        p = position.get(group_of.get(int(r), -1))
        if p is not None and p not in chosen:
            chosen.append(p)
    chosen = chosen[:reduced.k]
    while len(chosen) < reduced.k:
        base = [int(rows[p]) for p in chosen]
        best = max((p for p in range(len(rows)) if p not in chosen),
                   key=lambda p: count_wins(F, base + [int(rows[p])], first))
        chosen.append(best)
    return chosen


# --- The model ------------------------------------------------------------------------------------

@dataclass
class LingoModel:
    """The CP-SAT model of a reduced instance and its variables."""

    model: object  # cp_model.CpModel
    x: list  # x[p]: choose the kept guess reduced.kept[p] (pool row reduced.rows[p])
    y: dict  # y[j]: contested answer j (a pool index) is the first of its class


def build_model(reduced: Reduction, *, names: Sequence[str] | None = None) -> LingoModel:
    """The CP-SAT model of a reduced instance (the module docstring's, after the reductions).

    ``names``: pool words, used to name the variables (``x[word]``, ``y[word]``).
    """
    def name(row):
        return names[row] if names is not None else str(row)

    model = cp_model.CpModel()
    rows = reduced.rows
    x = [model.new_bool_var(f"x[{name(r)}]") for r in rows]
    contested = reduced.contested()
    y = {int(j): model.new_bool_var(f"y[{name(j)}]") for j in contested}
    model.add(sum(x) == reduced.k)
    K = len(x)
    separates = reduced.separates
    for p, (i, j) in enumerate(reduced.pairs):
        col = separates[:, p]
        splitters = np.flatnonzero(col)
        if len(splitters) <= K - len(splitters):
            model.add_bool_or([x[g] for g in splitters] + [y[int(j)].Not()])
        else:
            model.add(sum(x[g] for g in np.flatnonzero(~col)) <= reduced.k - 1).only_enforce_if(y[int(j)])
    model.maximize(sum(y.values()) + reduced.free)
    return LingoModel(model, x, y)


def add_hint(lm: LingoModel, reduced: Reduction, chosen: Sequence[int]) -> None:
    """Hint a full solution: the kept guesses at positions ``chosen`` and the y values they imply
    (y_j = 1 exactly when the chosen guesses separate j from every earlier answer of its letter)."""
    chosen = set(int(p) for p in chosen)
    for p, var in enumerate(lm.x):
        lm.model.add_hint(var, p in chosen)
    split = reduced.separates[sorted(chosen)].any(axis=0)
    first_of_class = {j: True for j in lm.y}
    for p, (i, j) in enumerate(reduced.pairs):
        if not split[p]:
            first_of_class[int(j)] = False
    for j, var in lm.y.items():
        lm.model.add_hint(var, first_of_class[j])


#: Subsolvers for small worker counts. CP-SAT's default portfolio for 1-2 workers lacks the LP-heavy
#: ones; here the bound is what is hard, and the LP with all cuts (max_lp) and lower-bound tree search
#: are what prove optimality (answers with first letter r, 105 words: proven in 20-40 s by these,
#: not within 60 s by the default two workers, on a loaded 2-core machine).
PORTFOLIO = ("max_lp", "lb_tree_search", "core", "default_lp", "quick_restart", "reduced_costs", "pseudo_costs")


def portfolio(workers: int) -> dict:
    """The CP-SAT parameters this model adds to :func:`exact.cpsat.parameters` for ``workers``."""
    if workers == 1:
        return {"linearization_level": 2}
    if workers <= len(PORTFOLIO):
        return {"subsolvers": list(PORTFOLIO[:workers])}
    return {}


def _check_arguments(n: int, F: np.ndarray, k: int, time_limit: float, workers: int) -> None:
    """The arguments of :func:`solve_cpsat` for a pool of n words, each an ExactError naming it."""
    if F.shape != (n, n):
        raise ExactError(f"the feedback matrix is {F.shape}, but the pool has {n} words")
    if not 1 <= k <= n:
        raise ExactError(f"k = {k}: choose between 1 and {n} guesses (the pool's size)")
    if not time_limit > 0:
        raise ExactError(f"the time limit must be positive, not {time_limit}")
    if workers < 1:
        raise ExactError(f"workers must be at least 1, not {workers}")


def solve_cpsat(pool: WordList, F: np.ndarray, k: int, *, hint: Sequence[int] | None = None,
                time_limit: float = 60.0, workers: int = 2, seed: int = 0, log: bool = False,
                model_path: str | Path | None = None) -> CpSatOutcome:
    """The best k guesses of the pool by CP-SAT, with a proven bound; see the module docstring.

    ``hint``: pool rows of a good set (default: greedy plus hill climbing). ``model_path``: also
    export the model there (``.pb`` or ``.pbtxt``).
    """
    n = len(pool)
    _check_arguments(n, F, k, time_limit, workers)
    started = time.perf_counter()
    first = first_letters(pool.words)
    reduced = reduce_instance(F, first, k)
    reduce_seconds = time.perf_counter() - started
    rows = reduced.rows
    if hint is None:
        hint = greedy_guesses(F, first, reduced.k, rows)
    else:
        bad = [int(r) for r in hint if not 0 <= int(r) < n]
        if bad:
            raise ExactError(f"hint rows {bad} are outside the pool of {n} words")
    hinted = hint_groups(reduced, F, first, hint)
    hint_wins = count_wins(F, pad_guesses([int(rows[p]) for p in hinted], reduced, k), first)
    lm = build_model(reduced, names=pool.words)
    add_hint(lm, reduced, hinted)
    if model_path is not None:
        export_model(lm.model, model_path)
    out = cpsat.run(lm.model, time_limit=time_limit, workers=workers, seed=seed, log=log,
                    parameters=portfolio(workers))
    seconds = time.perf_counter() - started
    stats = {
        "n": n, "k": k, "k_model": reduced.k, "twins": reduced.twins,
        "guess_groups": len(reduced.groups), "guesses_kept": len(reduced.kept),
        "same_letter_pairs": int(sum(math.comb(int(c), 2) for c in np.bincount(first[reduced.answers]))),
        "pairs_kept": len(reduced.pairs), "free_answers": reduced.free,
        "contested_answers": len(reduced.contested()), "reduction_rounds": reduced.rounds,
        "reduce_seconds": round(reduce_seconds, 3),
        "variables": len(lm.model.proto.variables), "constraints": len(lm.model.proto.constraints),
        "hint_wins": hint_wins, "interrupted": out.interrupted,
        "cpsat": {**{key: value for key, value in out.stats.items() if key != "status"},
                  "status": out.status, "objective": None, "best_objective_bound": None},
        "parameters": out.parameters,
    }
    if not out.has_solution:
        # No solution reported: the hint is still a valid set, but no bound beyond n is proven.
        return CpSatOutcome(tuple(sorted(pad_guesses([int(rows[p]) for p in hinted], reduced, k))),
                            hint_wins, n, "UNKNOWN", seconds, stats)
    objective = round(out.objective)
    stats["cpsat"]["objective"], stats["cpsat"]["best_objective_bound"] = objective, out.bound
    chosen = [p for p, var in enumerate(lm.x) if out.value(var)]
    guesses = pad_guesses([int(rows[p]) for p in chosen], reduced, k)
    wins = count_wins(F, guesses, first)
    if wins != objective:
        raise InternalError(f"CP-SAT objective {objective} != {wins} wins re-scored from scratch: a model bug")
    return CpSatOutcome(tuple(sorted(guesses)), wins, min(n, out.floor_bound()), out.status, seconds, stats)


def pad_guesses(rows: list[int], reduced: Reduction, k: int) -> list[int]:
    """Fill up to k distinct pool rows (only needed when there are fewer than k guess groups)."""
    out = list(rows)
    for group in reduced.groups:
        for r in group:
            if len(out) >= k:
                return out
            if int(r) not in out:
                out.append(int(r))
    return out
