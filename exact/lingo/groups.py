"""A valid upper bound on the wins of any k Lingo guesses, by CP-SAT on grouped relaxations.

Data types:

- ``pool``: a :class:`~exact.words.WordList` W of n words of length m, the guesses and the answers;
- a *grouping*: disjoint groups G_1, ..., G_r of pool indices, each group's words sharing their first
  letter; R = the words in no group;
- ``classes(S, X)``: for a set S of guesses and a set X of words, the number of distinct Lingo
  signatures (first letter, fb(s, a) for s in S) over the words a of X; ``wins(S) = classes(S, W)``;
- an *indicator*: ``("at", p, c)``, "some chosen guess has letter c at position p", or
  ``("count", c, t)``, "some chosen guess holds letter c at least t times".

**The inequality.** For every set S and every grouping,

    wins(S) <= |R| + sum_i classes(S, G_i).

Proof. Every word lies in R or in exactly one group, so every class C of S on W (a non-empty set
of words) satisfies ``1 <= |C & R| + #{i : C meets G_i}``. Summing over the classes: the classes
are disjoint, so the first terms add up to |R|; the classes of S restricted to G_i are exactly the
non-empty sets ``C & G_i``, so the second terms add up to ``sum_i classes(S, G_i)``. Hence, for
every k-set S, ``wins(S) <= |R| + max over k-sets S' of sum_i classes(S', G_i)``, and any upper bound
on that max (CP-SAT's proven objective bound, valid even when the search is stopped early) gives
an upper bound on the wins of every k-set.

**The inner max, exactly, with indicators.** By step 1 of :mod:`exact.lingo.bound` (tested there
against the rule), ``fb(g, a)`` determines and is determined by the greens ``{p : a[p] = g[p]}`` and
the capped counts ``min(#c(a), #c(g))`` for the letters c of g. So a guess g separates two words u,
w (``fb(g, u) != fb(g, w)``) iff (i) ``g[p]`` is ``u[p]`` or ``w[p]`` at some position p where
``u[p] != w[p]``, or (ii) for some letter c with ``#c(u) != #c(w)``, ``#c(g) >= min(#c(u), #c(w)) + 1``
(then exactly one of the two capped counts moves). A set S separates (u, w) iff one of its guesses
does, i.e. iff one of the indicators ``at(p, u[p])``, ``at(p, w[p])`` (p where they differ),
``count(c, min + 1)`` (c where the counts differ) is true for S: the *pair's indicators*. Tested
against the feedback matrix on random pairs.

The CP-SAT model (one group G with words ``w_0, w_1, ...`` in pool order; a class's first word is
the one that counts it):

    x_g in {0, 1} per guess (merged, see below), sum_g x_g = k
    I_r in {0, 1} per indicator r,  I_r <= sum_{g holds r} x_g,  x_g => I_r for each r g holds
    y_j in {0, 1} per word w_j (j >= 1),  y_j => OR(the indicators of pair (w_i, w_j)) for i < j
    maximise  sum over groups of (1 + sum_j y_j)

For the x of a k-set S, the I are forced to the indicators' truth and y_j can be 1 iff w_j is
separated from every earlier word of its group, i.e. iff w_j is the first of its class in G: the
optimum is ``max_S sum_i classes(S, G_i)``. Reductions, each keeping the optimum: a y_j constraint
whose indicator set contains another one of the same j is implied and dropped; only indicators that
occur in some pair matter, so guesses holding the same relevant indicators act alike on the groups
and merge into one x; a guess whose relevant indicators are a subset of another's is dominated
(swapping it for the other never merges a class) and dropped while at least k guesses stay.
Implied constraints that the true indicators obey are added to help the LP: at most k letters per
position, ``sum_c sum_t count(c, t) <= m k``, ``count(c, 1) >= at(p, c)``.

The bound recorded is ``|R| + floor(CP-SAT best objective bound)``, whatever CP-SAT's status
(OPTIMAL or FEASIBLE: the bound is proven either way; UNKNOWN gives no bound beyond n).

>>> from exact.words import words_from_lines
>>> pool = words_from_lines(["bakes", "bikes", "bokes", "bukes", "cater", "cates", "dates"])
>>> g = make_grouping(pool, [["bakes", "bikes", "bokes", "bukes"]])
>>> out = group_bound(pool, g, 1, time_limit=10, workers=1)
>>> out.status, out.inner_bound, out.rest, out.value   # one guess tells at most 2 of the 4 b-words
('OPTIMAL', 2, 3, 5)
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from exact import cpsat
from exact.errors import ExactError, InternalError
from exact.feedback import feedback
from exact.fileio import check_fields
from exact.lingo.cpsat import dominated
from exact.words import WordList

KIND = "exact.lingo.groups"
FORMAT = 1


# --- indicators ------------------------------------------------------------------------------------

def at(p: int, c: str) -> tuple:
    return ("at", p, c)


def count(c: str, t: int) -> tuple:
    return ("count", c, t)


def word_indicators(g: str) -> frozenset:
    """Every indicator a guess g makes true."""
    return frozenset([at(p, c) for p, c in enumerate(g)]
                     + [count(c, t) for c in set(g) for t in range(1, g.count(c) + 1)])


def pair_indicators(u: str, w: str) -> frozenset:
    """The indicators that separate u and w (see the module docstring); empty when u == w.

    >>> sorted(pair_indicators("plate", "pleat"))
    [('at', 2, 'a'), ('at', 2, 'e'), ('at', 3, 'a'), ('at', 3, 't'), ('at', 4, 'e'), ('at', 4, 't')]
    >>> sorted(pair_indicators("geese", "gense"))
    [('at', 2, 'e'), ('at', 2, 'n'), ('count', 'e', 3), ('count', 'n', 1)]
    """
    out = [x for p in range(len(u)) if u[p] != w[p] for x in (at(p, u[p]), at(p, w[p]))]
    for c in set(u) | set(w):
        cu, cw = u.count(c), w.count(c)
        if cu != cw:
            out.append(count(c, min(cu, cw) + 1))
    return frozenset(out)


def separates(g: str, u: str, w: str) -> bool:
    """Whether guess g separates u and w, by the indicators (equal to ``fb(g, u) != fb(g, w)``)."""
    return bool(word_indicators(g) & pair_indicators(u, w))


# --- groupings -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Grouping:
    """Disjoint groups of pool indices (each sorted, one first letter); the rest is in no group."""

    groups: tuple[tuple[int, ...], ...]
    n: int

    @property
    def rest(self) -> int:
        return self.n - sum(len(g) for g in self.groups)

    @property
    def members(self) -> int:
        return sum(len(g) for g in self.groups)

    def sha256(self, pool: WordList) -> str:
        text = "\n".join(" ".join(pool.words[i] for i in g) for g in self.groups) + "\n"
        return hashlib.sha256(text.encode()).hexdigest()


def make_grouping(pool: WordList, groups: Sequence[Sequence[str]]) -> Grouping:
    """A grouping from lists of words; refuses unknown words, overlaps, mixed first letters."""
    seen: set[int] = set()
    out = []
    for group in groups:
        idx = []
        for w in group:
            if w not in pool.index:
                raise ExactError(f"group word {w!r} is not in {pool.source}")
            i = pool.index[w]
            if i in seen:
                raise ExactError(f"group word {w!r} is in two groups")
            seen.add(i)
            idx.append(i)
        if len({pool.words[i][0] for i in idx}) > 1:
            raise ExactError(f"group {' '.join(group)} mixes first letters")
        if len(idx) >= 2:
            out.append(tuple(sorted(idx)))
    return Grouping(tuple(sorted(out)), len(pool))


def key_families(words: Sequence[str], fixed: Sequence[int]) -> list[list[int]]:
    """The words grouped by their letters at the positions ``fixed`` (position 0 always included)."""
    by_key: dict[tuple, list[int]] = {}
    keep = sorted(set(fixed) | {0})
    for i, w in enumerate(words):
        by_key.setdefault(tuple(w[p] for p in keep), []).append(i)
    return [ix for ix in by_key.values() if len(ix) >= 2]


def greedy_grouping(pool: WordList, fixed_positions: int = 2, max_size: int | None = None,
                    min_size: int = 2) -> Grouping:
    """Disjoint groups, largest first, among the families sharing the first letter and
    ``fixed_positions`` more positions (every choice of those positions). Families above ``max_size``
    are cut into consecutive pieces of at most that size (pool order)."""
    m = pool.length
    candidates = []
    for fixed in itertools.combinations(range(1, m), fixed_positions):
        for fam in key_families(pool.words, fixed):
            if max_size is not None and len(fam) > max_size:
                candidates += [fam[s:s + max_size] for s in range(0, len(fam), max_size)]
            else:
                candidates.append(fam)
    candidates.sort(key=lambda f: (-len(f), f))
    used = np.zeros(len(pool), dtype=bool)
    groups = []
    for fam in candidates:
        free = [i for i in fam if not used[i]]
        if len(free) < min_size:
            continue
        if len(free) < len(fam):  # partly taken: it goes back in line at its new size
            continue
        used[free] = True
        groups.append(tuple(free))
    # a second pass picks up what is left of the partly taken families, largest first
    rest = sorted(([i for i in fam if not used[i]] for fam in candidates), key=lambda f: (-len(f), f))
    for fam in rest:
        free = [i for i in fam if not used[i]]
        if len(free) >= min_size:
            used[free] = True
            groups.append(tuple(free))
    return Grouping(tuple(sorted(groups)), len(pool))


def losses_inside(pool: WordList, grouping: Grouping, guesses: Sequence[str]) -> int:
    """sum_i (|G_i| - classes(S, G_i)) for the set S: how much of S's losses the groups keep, so
    ``n - losses_inside`` is the best bound this grouping could ever give for S's value."""
    lost = 0
    for g in grouping.groups:
        sigs = {tuple(feedback(s, pool.words[i]) for s in guesses) for i in g}
        lost += len(g) - len(sigs)
    return lost


def group_value(pool: WordList, grouping: Grouping, guesses: Sequence[str]) -> int:
    """|R| + sum_i classes(S, G_i): the inequality's right side at S (at least wins(S))."""
    return grouping.rest + grouping.members - losses_inside(pool, grouping, guesses)


# --- the model -------------------------------------------------------------------------------------

@dataclass
class GroupModel:
    """The CP-SAT model with handles to its variables."""

    model: object
    x: list  # one per kept guess class
    guess_classes: list[list[int]]  # pool rows of each kept x (they hold the same relevant indicators)
    indicators: dict  # indicator -> its variable
    y: dict  # pool index -> variable
    constant: int  # the groups' first words
    stats: dict = field(default_factory=dict)


@dataclass
class PairConstraints:
    """Per word j, the minimal indicator sets separating it from the earlier words of its group."""

    sets: dict[int, list[frozenset]]  # j -> its minimal sets (one of each must hold for y_j)
    inseparable: list[int]  # words no guess can tell from an earlier word of their group
    pairs: int  # the pairs looked at


@dataclass
class GuessClasses:
    """The guesses merged by the relevant indicators they hold, the dominated classes dropped."""

    holds: dict[frozenset, list[int]]  # relevant-indicator set -> the guess rows holding it
    keys: list[frozenset]  # the classes, in first-seen order
    kept: list[int]  # the classes kept (at least k)


def pair_constraints(words: Sequence[str], grouping: Grouping) -> PairConstraints:
    """The minimal indicator sets of every word's pairs with the earlier words of its group; a pair
    with the empty set is inseparable (the word's y is fixed to 0)."""
    constraints: dict[int, list[frozenset]] = {}
    fixed_zero = []
    pairs = 0
    for g in grouping.groups:
        for a, j in enumerate(g[1:], start=1):
            sets = sorted({pair_indicators(words[i], words[j]) for i in g[:a]}, key=len)
            pairs += a
            if sets and not sets[0]:
                fixed_zero.append(j)
                continue
            minimal: list[frozenset] = []
            for s in sets:
                if not any(t <= s for t in minimal):
                    minimal.append(s)
            constraints[j] = minimal
    return PairConstraints(constraints, fixed_zero, pairs)


def guess_classes(guesses: Sequence[str], rid: dict, k: int) -> GuessClasses:
    """Merge guesses with equal relevant-indicator sets, drop dominated ones (keep at least k)."""
    holds: dict[frozenset, list[int]] = {}
    for row, gword in enumerate(guesses):
        key = frozenset(rid[r] for r in word_indicators(gword) if r in rid)
        holds.setdefault(key, []).append(row)
    keys = list(holds)
    A = np.zeros((len(keys), len(rid)), dtype=bool)
    for t, key in enumerate(keys):
        A[t, list(key)] = True
    drop = dominated(A) if len(keys) > k else np.zeros(len(keys), dtype=bool)
    if np.count_nonzero(~drop) < k:
        order = np.lexsort((np.arange(len(keys)), -A.sum(axis=1), drop))
        drop = np.ones(len(keys), dtype=bool)
        drop[order[:k]] = False
    kept = [t for t in range(len(keys)) if not drop[t]]
    if len(kept) < k:
        raise ExactError(f"k = {k}: only {len(kept)} guesses act differently on the groups; give a smaller k")
    return GuessClasses(holds, keys, kept)


def _add_words(model, ind: dict, relevant: list, guesses: Sequence[str], classes: GuessClasses, k: int) -> list:
    """One x per kept guess class, k of them chosen; an indicator holds only if a chosen guess holds it."""
    x = [model.new_bool_var(f"x[{guesses[classes.holds[classes.keys[t]][0]]}]") for t in classes.kept]
    model.add(sum(x) == k)
    holders: dict[int, list] = {t: [] for t in range(len(relevant))}
    for v, t in zip(x, classes.kept):
        for r in classes.keys[t]:
            holders[r].append(v)
            model.add_implication(v, ind[relevant[r]])
    for t, r in enumerate(relevant):
        model.add(ind[r] <= sum(holders[t]))
    return x


def _add_implied(model, ind: dict, m: int, k: int) -> None:
    """The implied constraints of the true indicators: count t => count t - 1, at most k letters per
    position, m k letter slots, at => count 1."""
    for r, v in ind.items():
        if r[0] == "count" and r[2] >= 2 and ("count", r[1], r[2] - 1) in ind:
            model.add_implication(v, ind[("count", r[1], r[2] - 1)])
    for p in range(m):
        here = [v for r, v in ind.items() if r[0] == "at" and r[1] == p]
        if len(here) > k:
            model.add(sum(here) <= k)
    counts = [v for r, v in ind.items() if r[0] == "count"]
    if counts:
        model.add(sum(counts) <= m * k)
    for r, v in ind.items():
        if r[0] == "at" and ("count", r[2], 1) in ind:
            model.add_implication(v, ind[("count", r[2], 1)])


def _add_hint(model, hint: Sequence[str], guesses: list[str], classes: GuessClasses, x: list, ind: dict,
              y: dict, constraints: dict) -> None:
    """Hint the model with the words ``hint``: their classes, their indicators, the words they separate."""
    chosen = {guesses.index(h) for h in hint}
    on = {t for t in classes.kept if chosen & set(classes.holds[classes.keys[t]])}
    for v, t in zip(x, classes.kept):
        model.add_hint(v, t in on)
    true = set().union(*(word_indicators(h) for h in hint))
    for r, v in ind.items():
        model.add_hint(v, r in true)
    for j, sets in constraints.items():
        model.add_hint(y[j], all(s & true for s in sets))


def build_group_model(pool: WordList, grouping: Grouping, k: int, guesses: Sequence[str] | None = None,
                      hint: Sequence[str] | None = None, real_words: bool = True) -> GroupModel:
    """The model of the module docstring; ``guesses`` default to the whole pool. Without
    ``real_words`` the x variables are left out: the indicators are then tied only by the implied
    constraints (at most k letters per position, m k letter slots, at => count, count t => count
    t - 1), a relaxation whose max is at least the true one (so still a valid bound)."""
    words = pool.words
    guesses = list(words if guesses is None else guesses)
    pc = pair_constraints(words, grouping)
    constraints = pc.sets
    relevant = sorted({r for sets in constraints.values() for s in sets for r in s})
    rid = {r: t for t, r in enumerate(relevant)}
    classes = guess_classes(guesses, rid, k)

    model = cp_model.CpModel()
    ind = {r: model.new_bool_var(f"I[{'-'.join(map(str, r))}]") for r in relevant}
    if real_words:
        x = _add_words(model, ind, relevant, guesses, classes, k)
    else:  # the letters alone: only the implied constraints tie them (a weaker, valid relaxation)
        x, classes.kept = [], []
    _add_implied(model, ind, pool.length, k)
    y = {}
    for j, sets in constraints.items():
        y[j] = model.new_bool_var(f"y[{words[j]}]")
        for s in sets:
            model.add_bool_or([ind[r] for r in s] + [y[j].Not()])
    constant = len(grouping.groups)
    model.maximize(sum(y.values()) + constant)
    if hint is not None:
        _add_hint(model, hint, guesses, classes, x, ind, y, constraints)
    stats = {"groups": len(grouping.groups), "members": grouping.members, "rest": grouping.rest,
             "largest_group": max((len(g) for g in grouping.groups), default=0), "pairs": pc.pairs,
             "pair_constraints": sum(len(s) for s in constraints.values()), "inseparable_words": len(pc.inseparable),
             "relevant_indicators": len(relevant), "guess_classes": len(classes.keys),
             "guesses_kept": len(classes.kept),
             "variables": len(model.proto.variables), "constraints": len(model.proto.constraints)}
    return GroupModel(model, x, [classes.holds[classes.keys[t]] for t in classes.kept], ind, y, constant, stats)


def _solve(model, params: dict):
    """The one CP-SAT call of this module, through :func:`exact.cpsat.run` with the parameters of
    :func:`solver_parameters` (returns solver, status code, interrupted)."""
    out = cpsat.run(model, parameters=params)
    return out.solver, getattr(cp_model, out.status), out.interrupted


#: CP-SAT subsolvers for the group model: the inner max is a MaxSAT problem (soft y_j, hard clauses
#: over a few indicators), whose bound the core-guided worker raises one unsatisfiable core at a
#: time; the LP worker's bound is weak here (fractional guesses spread over every letter).
SUBSOLVERS = ("core", "max_lp", "default_lp", "quick_restart")


def solver_parameters(time_limit: float, workers: int, seed: int, log: bool = False,
                      subsolvers: Sequence[str] | None = None) -> dict:
    """The CP-SAT parameters used, as plain data (recorded in the certificate)."""
    params = {"max_time_in_seconds": float(time_limit), "num_workers": int(workers), "random_seed": int(seed),
              "log_search_progress": bool(log), "catch_sigint_signal": False}
    chosen = list(subsolvers or SUBSOLVERS[:max(1, workers)])
    if workers > 1:
        params["subsolvers"] = chosen
    elif chosen[0] == "core":
        params["optimize_with_core"] = True
    return params


@dataclass
class GroupBound:
    value: int  # no k-set wins more than this
    n: int
    k: int
    rest: int
    inner_bound: int  # CP-SAT's proven bound on max_S sum_i classes(S, G_i)
    inner_best: int | None  # the best sum found (its set below)
    best_guesses: tuple[str, ...]
    status: str
    seconds: float
    parameters: dict
    stats: dict
    interrupted: bool = False


def group_bound(pool: WordList, grouping: Grouping, k: int, *, time_limit: float = 60.0, workers: int = 2,
                seed: int = 0, hint: Sequence[str] | None = None, log: bool = False,
                subsolvers: Sequence[str] | None = None, real_words: bool = True) -> GroupBound:
    """The upper bound ``|R| + CP-SAT's bound on the inner max`` (see the module docstring)."""
    if not 1 <= k <= len(pool):
        raise ExactError(f"k = {k}: choose between 1 and {len(pool)} guesses")
    if not time_limit > 0:
        raise ExactError(f"the time limit must be positive, not {time_limit}")
    t0 = time.perf_counter()
    gm = build_group_model(pool, grouping, k, hint=hint, real_words=real_words)
    params = solver_parameters(time_limit, workers, seed, log, subsolvers)
    solver, status, interrupted = _solve(gm.model, params)
    seconds = time.perf_counter() - t0
    stats = dict(gm.stats, real_words=real_words, build_seconds=round(seconds - solver.wall_time, 3), wall_time=solver.wall_time,
                 conflicts=solver.num_conflicts, branches=solver.num_branches)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return GroupBound(len(pool), len(pool), k, grouping.rest, grouping.members, None, (), "UNKNOWN",
                          seconds, params, stats, interrupted)
    inner_bound = math.floor(solver.best_objective_bound + 1e-6)
    inner_best = round(solver.objective_value)
    chosen = [pool.words[gm.guess_classes[t][0]] for t, v in enumerate(gm.x) if solver.boolean_value(v)]
    recount = group_value(pool, grouping, chosen) - grouping.rest if real_words else inner_best
    if recount < inner_best:
        raise InternalError(f"the model claims {inner_best} classes on the groups, a recount gives {recount}")
    stats["best_objective_bound"] = solver.best_objective_bound
    value = min(len(pool), grouping.rest + inner_bound)
    return GroupBound(value, len(pool), k, grouping.rest, inner_bound, inner_best, tuple(sorted(chosen)),
                      "OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE", seconds, params, stats, interrupted)


# --- certificates ------------------------------------------------------------------------------------

def certificate(pool: WordList, grouping: Grouping, b: GroupBound, *, command: str = "", how: str = "") -> dict:
    return {
        "kind": KIND, "format": FORMAT, "words": pool.source, "instance_sha256": pool.sha256, "n": b.n,
        "k": b.k, "upper_bound": b.value, "bound_probability": b.value / b.n,
        "rest": b.rest, "inner_bound": b.inner_bound, "inner_best": b.inner_best,
        "inner_best_guesses": list(b.best_guesses), "cpsat_status": b.status, "interrupted": b.interrupted,
        "seconds": round(b.seconds, 3), "cores": os.cpu_count(), "parameters": b.parameters,
        "stats": b.stats, "grouping": how, "groups_sha256": grouping.sha256(pool),
        "groups": [[pool.words[i] for i in g] for g in grouping.groups], "command": command,
        "argument": "wins(S) <= |R| + sum_i classes(S, G_i) <= |R| + floor(CP-SAT best objective bound) "
                    "(proof: exact/lingo/groups.py docstring)",
    }


def verify_groups(data: dict, path, pool: WordList, v, resolve_time: float = 0.0) -> None:
    """Checks of a group-bound certificate, added to the Verification ``v``: the pool, the groups
    (in the pool, disjoint, one first letter each, hash), |R|, the arithmetic, the best set's value
    recounted from scratch (it must be at most the inner bound), and with ``resolve_time`` > 0 a
    fresh CP-SAT solve: a fresh bound at most the claimed one confirms it (else: unconfirmed)."""
    check_fields(data, {"instance_sha256": "str", "n": "int", "k": "int", "groups": "list", "groups_sha256": "str",
                        "rest": "int", "inner_bound": "int", "upper_bound": "int"},
                 {"cpsat_status": "str", "inner_best_guesses": "list|null", "inner_best": "int|null",
                  "parameters": "dict", "stats": "dict", "interrupted": "bool", "seconds": "number"}, source=str(path))
    v.add("pool", pool.sha256 == data.get("instance_sha256"), f"sha256 {pool.sha256[:16]}...")
    v.add("n", len(pool) == data.get("n"), f"the pool has {len(pool)} words, the file says {data.get('n')}")
    try:
        grouping = make_grouping(pool, data["groups"])
    except ExactError as e:
        v.add("groups", False, str(e))
        return
    v.add("groups", grouping.sha256(pool) == data.get("groups_sha256") and len(grouping.groups) == len(data["groups"]),
          f"{len(grouping.groups)} disjoint groups of one first letter, {grouping.members} words, sha256 "
          f"{grouping.sha256(pool)[:16]}...")
    v.add("rest", grouping.rest == data.get("rest"), f"{grouping.rest} words in no group; the file says {data.get('rest')}")
    value = min(len(pool), grouping.rest + int(data["inner_bound"]))
    v.add("arithmetic", value == data.get("upper_bound"),
          f"|R| + inner bound = {grouping.rest} + {data['inner_bound']} -> {value}; the file says {data.get('upper_bound')}")
    v.add("status", data.get("cpsat_status") in ("OPTIMAL", "FEASIBLE"), f"CP-SAT status {data.get('cpsat_status')}")
    if data.get("inner_best_guesses"):
        s = data["inner_best_guesses"]
        inner = group_value(pool, grouping, s) - grouping.rest
        v.add("best set", inner <= int(data["inner_bound"]) and inner >= (data.get("inner_best") or 0),
              f"{' '.join(s)}: {inner} classes on the groups recounted (<= inner bound {data['inner_bound']})")
    if resolve_time > 0:
        params = data.get("parameters", {})
        b = group_bound(pool, grouping, int(data["k"]), time_limit=resolve_time,
                        workers=int(params.get("num_workers", 2)), hint=data.get("inner_best_guesses") or None,
                        subsolvers=params.get("subsolvers") or (["core"] if params.get("optimize_with_core") else None),
                        real_words=bool(data.get("stats", {}).get("real_words", True)))
        ok = b.status != "UNKNOWN" and b.value <= int(data["upper_bound"])
        v.add("re-solve", True if ok else None,
              f"CP-SAT re-solve ({b.status}, {resolve_time:g} s): bound {b.value}; claimed {data['upper_bound']}"
              + ("" if ok else " (not reconfirmed in the time given)"))
    else:
        v.add("re-solve", None, "CP-SAT not re-run (pass --bound-time S to re-solve the grouped model)")
