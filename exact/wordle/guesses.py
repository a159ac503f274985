"""Fewest guesses, exact: the least total number of guesses over all answers, every answer solved
within ``max_guesses``, and lexicographic objectives such as "most answers within 3, then fewest
guesses".

The quantity. A complete strategy tree plays, at every node, a guess to the set S of answers still
possible; each answer a is solved at some step s(a) (the guess that names it). An objective is a
non-decreasing per-answer *cost table* ``c[s]`` (``c[s] = INF`` for s > max_guesses) and the value
of a tree is ``sum_a c[s(a)]``. With ``c[s] = s`` this is the total number of guesses (Selby's
objective; mean = total / n). For S reached before step t, with the answers of S solved from step
t on,

    cost(S, t) = min over allowed g of  sum over the classes P of g on S of  cost'(P),
    cost'({g}) = c[t] (the all-green class: solved now),  cost'(P) = cost(P, t + 1) otherwise,

and cost({a}, t) = c[t]. The classes of a guess are disjoint and their subtrees independent, so the
best tree for g is the sum of the best subtrees of its classes: the recursion is exact.

Lexicographic objectives (``win3,guesses``, ``win3,win4,guesses``, ...). Level j "winK" counts the
answers *not* solved within K guesses (to be minimised), the last level "guesses" the total. They are
folded into one integer cost table ``c[s] = s + sum_j W_j [s > K_j]`` with weights chosen so that the
lower levels can never outweigh one unit of a higher level: ``W_last = N * n + 1`` for the last win
level (N = max_guesses, n = the answers; the total of any complete tree of a subset of the answers
lies in [|S|, N |S|], so two totals differ by less than N n), and ``W_j = (n + 1) W_{j+1}`` above it
(the counts of a level differ by at most n). So comparing weighted sums is comparing the vectors
(lost_K1, lost_K2, ..., total) lexicographically, for every subset S, at every node. Lexicographic
order on integer vectors is compatible with addition (u <= v implies u + w <= v + w), so the
minimum of a sum of independent parts is the sum of their minima: the per-class lexicographic
optima add up to the lexicographic optimum of the node, and the recursion above stays exact at every
level.

Lower bounds (each one is a lower bound on the cost of every tree it is used for; all use only that
c is non-decreasing and that at most one answer is solved by each guess):

- *node bound*: a set S of n answers at step t costs at least ``c[t] + (n - 1) c[t+1]``: one guess
  names at most one answer, so at most one answer is solved at step t, the others at t + 1 or later.
  For c[s] = s this is Selby's 2n - 1. It is attained exactly by an answer of S that splits S into
  singletons, so when one exists the node is solved without looking at other guesses;
- *wide node bound* (:func:`_floor`): no guess makes more than m classes, m the most any allowed
  guess makes on the whole answer list, so for n > m the node costs at least
  ``min(B(1, m), B(0, m))``, ``B(h, k) = h c[t] + (k - h) c[t+1] + (n - k) c[t+2]`` (Selby's
  3n - 1 + max(0, n - m) for the total); :func:`_quick` adds that with no answer splitting S into
  singletons a naming guess makes at most n - 1 classes;
- *look-ahead* (:func:`_lookahead`, used before any class of a first guess is solved exactly): the
  least over every guess of the sum of its classes' bounds;
- *guess bound*: a guess g making k classes on S, h = 1 if g is in S (else 0), costs at least
  ``h c[t] + (k - h) c[t+1] + (n - k) c[t+2]``: at most h answers at step t; at step t + 1 the next
  guess of each non-green class names at most one answer of that class, so at most k - h there; the
  rest at t + 2 or later. Guesses are tried in increasing order of this bound (ties: smaller sum of
  squared class sizes, then list order) and the scan stops at the first guess whose bound is not
  below the best value found (or the cutoff), so every guess not evaluated is no better;
- *class bound*: inside a guess, each class P not yet solved counts its node bound (or a better
  bound the memo holds); a guess is abandoned as soon as the exact values so far plus these bounds
  reach the threshold, which returns a valid lower bound of that guess;
- *depth*: ``c[s] = INF`` past max_guesses makes every bound above infinite when it needs a step
  that is not allowed, so no tree deeper than max_guesses is ever returned;
- a guess that makes one class and names no answer (it tells nothing) is skipped: playing it only
  delays every answer by one step, which cannot lower a non-decreasing cost.

Search: depth-first branch and bound in numba, each call given a threshold ``beta``; it returns the
exact cost when it is below beta, else a lower bound >= beta. The memo is keyed on the exact member
set, the step and (hard mode) the constraint; it keeps exact values with their best guess and lower
bounds from failed searches; a 64-bit Zobrist hash only finds candidates, which are compared member
by member, so a collision can never return a wrong value. Hard mode uses the rule of
:mod:`exact.wordle.hard` (the answers still possible always satisfy it, so they are always playable).

Tie-break (which optimal tree is written): at every node the first optimal guess in the order of the
scan above (smallest guess bound, then smallest sum of squared class sizes, then list order).

Fail-soft: when no guess gets below beta, a node returns the least of (the bound each evaluated
guess returned, the guess bound of the guesses not evaluated): >= beta, valid, and often larger;
the memo keeps it as a lower bound for later visits.

Parallelism: the first guess's classes are disjoint answer sets, so their subproblems share no memo
entry; they are solved by ``workers`` threads, each with its own memo.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> r = solve_guesses(A, A, progress=False)
>>> r.status, r.total, r.n, r.first, r.wins_at
('OPTIMAL', 17, 8, 'cigar', (1, 5, 2, 0, 0, 0))
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import threading
import time
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List

from exact import progress as prog
from exact.errors import ExactError
from exact.feedback import all_green, encode, feedback, format_pattern
from exact.partitions import feedback_matrix, split_by_guess
from exact.wordle.hard import add_feedback, allows, constraint, letter_counts, no_constraint
from exact.wordle.tree import Tree, replay
from exact.words import WordList, check_answers_are_guesses, require_in_pool

INF = np.int64(1) << np.int64(60)  # "impossible": a step past max_guesses


class Infeasible(ExactError):
    """No strategy solves these answers within the guess limit."""


# --- objectives -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Objective:
    """A lexicographic list of levels: ``winK`` (most answers within K guesses), then ``guesses``."""

    wins: tuple[int, ...]  # the K of each winK level, highest priority first

    @property
    def name(self) -> str:
        return ",".join([f"win{k}" for k in self.wins] + ["guesses"])

    def costs(self, max_guesses: int, n: int) -> np.ndarray:
        """The cost table c[0 .. max_guesses + 2] (c[s] = INF past max_guesses; c[0] unused)."""
        weights = []
        w = max_guesses * max(n, 1) + 1
        for _ in self.wins:
            weights.append(w)
            w = (max(n, 1) + 1) * w
        weights.reverse()  # weights[j] for wins[j]: the first level weighs most
        c = np.full(max_guesses + 3, INF, dtype=np.int64)
        for s in range(1, max_guesses + 1):
            c[s] = s + sum(wj for k, wj in zip(self.wins, weights) if s > k)
        if c[max_guesses] >= INF // 4096:
            raise ExactError(f"objective {self.name}: too many levels for {n} answers")
        c[0] = 0
        return c


def parse_objective(text: str) -> Objective:
    """``guesses``, ``win3,guesses``, ``win3,win4,guesses`` ... (``guesses`` is implied last).

    >>> parse_objective("win3,guesses").wins, parse_objective("win2,win4").name
    ((3,), 'win2,win4,guesses')
    """
    levels = [part.strip().lower() for part in str(text).split(",") if part.strip()]
    if not levels:
        raise ExactError("objective: give 'guesses' or a list such as 'win3,guesses'")
    wins: list[int] = []
    for i, level in enumerate(levels):
        if level == "guesses":
            if i != len(levels) - 1:
                raise ExactError(f"objective {text!r}: 'guesses' must be the last level")
        elif level.startswith("win") and level[3:].isdigit() and int(level[3:]) >= 1:
            k = int(level[3:])
            if k in wins:
                raise ExactError(f"objective {text!r}: {level} appears twice")
            wins.append(k)
        else:
            raise ExactError(f"objective {text!r}: unknown level {level!r} (use winK with K >= 1, or guesses)")
    return Objective(tuple(wins))


# --- numba search -----------------------------------------------------------------------------
#
# ctx = (F, ans_row, row_ans, cost, hard, codes, counts, z, zt, zg, zl): the feedback matrix
# (guesses x answers), answer -> guess row, guess row -> answer or -1, the cost table, hard mode,
# encoded guesses and their letter counts, the Zobrist tables (answers, steps, greens, counts),
# whether the sharper class bound of _quick is used (False: the baseline of the benchmark), and m,
# the most classes any guess makes on the whole answer list (the bound of _floor), and F transposed
# (answers x guesses: the scan over every guess of _candidates reads it row by row).
# memo = (table, nxt, val, exact, guess, step, members, rules): hash -> first entry, then per entry
# the next entry with that hash, value, exact?, best guess, step, member set, constraint.

def new_memo():
    return (Dict.empty(types.int64, types.int64), List.empty_list(types.int64),
            List.empty_list(types.int64), List.empty_list(types.boolean), List.empty_list(types.int64),
            List.empty_list(types.int64), List.empty_list(types.int64[::1]), List.empty_list(types.int8[::1]))


@numba.njit(cache=True, nogil=True)
def _sat(x):
    return x if x < INF else INF


@numba.njit(cache=True, nogil=True)
def _key(ctx, S, t, greens, least):
    z, zt, zg, zl = ctx[7], ctx[8], ctx[9], ctx[10]
    h = zt[t]
    for i in range(S.shape[0]):
        h ^= z[S[i]]
    if ctx[4]:
        for i in range(greens.shape[0]):
            h ^= zg[i, greens[i] + 1]
        for x in range(26):
            if least[x] > 0:
                h ^= zl[x, least[x]]
    return h


@numba.njit(cache=True, nogil=True)
def _rule(greens, least):
    r = np.empty(greens.shape[0] + 26, dtype=np.int8)
    r[:greens.shape[0]] = greens
    r[greens.shape[0]:] = least
    return r


@numba.njit(cache=True, nogil=True)
def _find(ctx, memo, h, S, t, greens, least):
    table, nxt, members, step, rules = memo[0], memo[1], memo[6], memo[5], memo[7]
    if h not in table:
        return -1
    i = table[h]
    hard = ctx[4]
    L = greens.shape[0]
    while i >= 0:
        m = members[i]
        same = step[i] == t and m.shape[0] == S.shape[0]
        if same:
            for r in range(S.shape[0]):
                if m[r] != S[r]:
                    same = False
                    break
        if same and hard:
            rule = rules[i]
            for r in range(L):
                if rule[r] != greens[r]:
                    same = False
            for x in range(26):
                if rule[L + x] != least[x]:
                    same = False
        if same:
            return i
        i = nxt[i]
    return -1


@numba.njit(cache=True, nogil=True)
def _store(ctx, memo, h, S, t, greens, least, value, is_exact, guess):
    table, nxt, val, exact, best = memo[0], memo[1], memo[2], memo[3], memo[4]
    i = _find(ctx, memo, h, S, t, greens, least)
    if i >= 0:
        if exact[i]:
            return
        if is_exact:
            val[i] = value
            exact[i] = True
            best[i] = guess
        elif value > val[i]:
            val[i] = value
        return
    i = len(val)
    nxt.append(table[h] if h in table else -1)
    table[h] = i
    val.append(value)
    exact.append(is_exact)
    best.append(guess)
    memo[5].append(t)
    memo[6].append(S.copy())
    memo[7].append(_rule(greens, least) if ctx[4] else np.empty(0, dtype=np.int8))


@numba.njit(cache=True, nogil=True)
def _bound(ctx, memo, S, t, greens, least):
    """The best lower bound known for (S, t): the node bound, or the memo's value if larger."""
    cost = ctx[3]
    n = S.shape[0]
    if n == 0:
        return 0
    if n == 1:
        return cost[t]
    lb = _floor(cost, t, n, min(n, ctx[12]), min(n, ctx[12])) if ctx[11] else (
        _sat(cost[t] + (n - 1) * cost[t + 1]) if cost[t + 1] < INF else INF)
    if n >= 3 and lb < INF:
        h = _key(ctx, S, t, greens, least)
        i = _find(ctx, memo, h, S, t, greens, least)
        if i >= 0:
            return max(lb, memo[2][i])
        if ctx[11]:
            v, _, _ = _quick(ctx, memo, h, S, t, greens, least, lb)
            return v
    return lb


@numba.njit(cache=True, nogil=True)
def _floor(cost, t, n, k1, k0):
    """The least cost of n answers at step t over every guess that names one answer and makes at
    most k1 classes (the green one included), or names none and makes at most k0 classes:
    min(B(1, k1), B(0, k0)), B(h, k) = h c[t] + (k - h) c[t+1] + (n - k) c[t+2].

    Proof. A guess g with h in {0, 1} (does it name an answer of S?) and k classes solves at most h
    answers at step t. Each of its k - h other classes P, of x answers, costs at least
    c[t+1] + (x - 1) c[t+2] (the node bound one step later: its next guess names at most one of
    them), and these add up to (k - h) c[t+1] + (n - h - (k - h)) c[t+2]: that is B(h, k). B(h, k)
    does not grow with k (c[t+1] <= c[t+2]) and B(1, k) <= B(0, k) (c[t] <= c[t+1]), so a bound on
    the classes of every guess gives a bound on the node. With k1 = k0 = min(n, m), m the most
    classes any allowed guess makes on the whole answer list (so on any subset), this is the node
    bound c[t] + (n - 1) c[t+1] when n <= m and Selby's 3n - 1 + max(0, n - m) (counted from the
    guess before: + n) when c[s] = s and t = 2. k1 = min(n - 1, m) when no answer of S splits S
    into singletons.
    """
    c0, c1, c2 = cost[t], cost[t + 1], cost[t + 2]
    if c1 >= INF:
        return INF
    b1 = _sat(c0 + (k1 - 1) * c1)
    if n - k1 > 0:
        b1 = _sat(b1 + (n - k1) * c2) if c2 < INF else INF
    b0 = _sat(k0 * c1)
    if n - k0 > 0:
        b0 = _sat(b0 + (n - k0) * c2) if c2 < INF else INF
    return min(b1, b0)


@numba.njit(cache=True, nogil=True)
def _near_splitters(F, ans_row, S, npat):
    """(the guess row of the first answer of S that splits S into singletons, or -1; the first
    answer that leaves exactly one pair and singletons besides, or -1)."""
    n = S.shape[0]
    seen = np.zeros(npat, dtype=np.int64)
    pair = np.int64(-1)
    for a in range(n):
        row = ans_row[S[a]]
        k = 0
        for i in range(n):
            p = F[row, S[i]]
            if seen[p] != a + 1:
                seen[p] = a + 1
                k += 1
        if k == n:
            return row, pair
        if k == n - 1 and pair < 0:
            pair = row
    return np.int64(-1), pair


@numba.njit(cache=True, nogil=True)
def _most_patterns(F, npat):
    """The most classes any guess (row of F) makes on all the answers (columns of F)."""
    seen = np.zeros(npat, dtype=np.int64)
    most = 0
    for g in range(F.shape[0]):
        k = 0
        for i in range(F.shape[1]):
            p = F[g, i]
            if seen[p] != g + 1:
                seen[p] = g + 1
                k += 1
        most = max(most, k)
    return np.int64(most)


@numba.njit(cache=True, nogil=True)
def _singleton_splitter(F, ans_row, S, npat):
    """The guess row of an answer of S that splits S into singletons (the first in S), or -1."""
    n = S.shape[0]
    seen = np.zeros(npat, dtype=np.int64)
    for a in range(n):
        row = ans_row[S[a]]
        k = 0
        for i in range(n):
            p = F[row, S[i]]
            if seen[p] != a + 1:
                seen[p] = a + 1
                k += 1
        if k == n:
            return row
    return np.int64(-1)


@numba.njit(cache=True, nogil=True)
def _quick(ctx, memo, h, S, t, greens, least, lb):
    """The node bound made sharper in O(n^2), stored in the memo: (value, exact?, guess).

    If an answer of S splits S into singletons, the node bound lb is the exact value. Otherwise
    every guess either names no answer now (h = 0: at most min(n, m) classes) or names one and
    leaves some class of two or more (h = 1: at most min(n - 1, m) classes), so the value is at
    least ``_floor(cost, t, n, min(n - 1, m), min(n, m))`` (for n <= m: lb + min(c[t+1] - c[t],
    c[t+2] - c[t+1])). An answer of S that leaves one pair and singletons besides costs exactly
    c[t] + (n - 2) c[t+1] + c[t+2] = B(1, n - 1) (a pair costs c[t+1] + c[t+2] and a singleton
    c[t+1], at best and at worst), so when that is the bound it is the exact value. It is taken
    only for n = 3 (with no singleton splitter every answer leaves the other two as a pair, and the
    first is the guess the scan would pick): for larger n a guess earlier in the scan order can tie
    (a non-answer that splits S into singletons, when c[t+1] - c[t] = c[t+2] - c[t+1]), and the
    search below finds it at the cost of one scan.
    """
    F, ans_row, cost, codes = ctx[0], ctx[1], ctx[3], ctx[5]
    npat = 3 ** codes.shape[1]
    n = S.shape[0]
    row, pair = _near_splitters(F, ans_row, S, npat)
    if row >= 0:
        _store(ctx, memo, h, S, t, greens, least, lb, True, row)
        return lb, True, row
    if not ctx[11]:  # the baseline: the node bound only
        return lb, False, np.int64(-1)
    m = ctx[12]
    v = max(lb, _floor(cost, t, n, min(n - 1, m), min(n, m)))
    if n == 3 and pair >= 0 and cost[t + 2] < INF and v == _sat(cost[t] + (n - 2) * cost[t + 1] + cost[t + 2]):
        _store(ctx, memo, h, S, t, greens, least, v, True, pair)
        return v, True, pair
    _store(ctx, memo, h, S, t, greens, least, v, False, np.int64(-1))
    return v, False, np.int64(-1)


@numba.njit(cache=True, nogil=True)
def _lookahead(ctx, memo, S, t, greens, least, beta):
    """A lower bound on cost(S, t) one guess deeper than :func:`_bound`, stored in the memo.

    Every allowed guess g costs at least the sum, over its classes, of their bounds
    (:func:`_bound`, the green class c[t]); and at least its guess bound. So the least over
    every guess of the larger of the two is a lower bound of the node. Guesses are taken in
    increasing guess bound (the order of :func:`_candidates`) and the scan stops at the first whose
    guess bound is not below the least sum found: every guess after it is no lower. Guesses whose
    guess bound is >= ``beta`` are not summed (their guess bound counts), so the result is exact as
    a bound, capped where it stops mattering: it is min(true bound, something >= beta).
    """
    F, cost, hard, codes = ctx[0], ctx[3], ctx[4], ctx[5]
    n = S.shape[0]
    lb = _bound(ctx, memo, S, t, greens, least)
    if n < 3 or lb >= beta or lb >= INF:
        return lb
    h = _key(ctx, S, t, greens, least)
    i = _find(ctx, memo, h, S, t, greens, least)
    if i >= 0 and memo[3][i]:
        return memo[2][i]
    npat = 3 ** codes.shape[1]
    green = npat - 1
    cand, lbs, rest = _candidates(ctx, S, t, greens, least, beta)
    best = rest
    members = np.empty(n, dtype=np.int64)
    start = np.empty(npat + 1, dtype=np.int64)
    size = np.empty(npat, dtype=np.int64)
    fill = np.empty(npat, dtype=np.int64)
    for j in range(cand.shape[0]):
        if lbs[j] >= best:
            break
        g = cand[j]
        _split_into(F, g, S, npat, members, start, size, fill)
        total = np.int64(0)
        for p in range(npat):
            if size[p] == 0:
                continue
            if p == green:
                total = _sat(total + cost[t])
            else:
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                total = _sat(total + _bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2))
            if total >= best:
                break
        best = min(best, max(total, lbs[j]))
    v = max(lb, best)
    _store(ctx, memo, h, S, t, greens, least, v, False, np.int64(-1))
    return v


@numba.njit(cache=True, nogil=True)
def _split_into(F, g, S, npat, members, start, size, fill):
    """_split into buffers given by the caller (no allocation): members[:n], start, size."""
    n = S.shape[0]
    size[:] = 0
    for i in range(n):
        size[F[g, S[i]]] += 1
    start[0] = 0
    for p in range(npat):
        start[p + 1] = start[p] + size[p]
        fill[p] = start[p]
    for i in range(n):
        p = F[g, S[i]]
        members[fill[p]] = S[i]
        fill[p] += 1


@numba.njit(cache=True, nogil=True)
def _split(F, g, S, npat):
    """The members of S grouped by the pattern of guess g (order kept), the start of each, sizes."""
    n = S.shape[0]
    size = np.zeros(npat, dtype=np.int64)
    for i in range(n):
        size[F[g, S[i]]] += 1
    start = np.zeros(npat + 1, dtype=np.int64)
    for p in range(npat):
        start[p + 1] = start[p] + size[p]
    fill = start[:npat].copy()
    members = np.empty(n, dtype=np.int64)
    for i in range(n):
        p = F[g, S[i]]
        members[fill[p]] = S[i]
        fill[p] += 1
    return members, start, size


@numba.njit(cache=True, nogil=True)
def _candidates(ctx, S, t, greens, least, limit):
    """Allowed guesses whose guess bound is below ``limit``, in scan order, with those bounds, and
    the least guess bound of the others (INF if none)."""
    F, row_ans, cost, hard, codes, counts, FT = ctx[0], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6], ctx[13]
    G = F.shape[0]
    n = S.shape[0]
    npat = 3 ** codes.shape[1]
    green = npat - 1
    c0, c1, c2 = cost[t], cost[t + 1], cost[t + 2]
    seen = np.zeros(npat, dtype=np.int64)
    size = np.zeros(npat, dtype=np.int64)
    touched = np.empty(npat, dtype=np.int64)
    cand = np.empty(G, dtype=np.int64)
    lbs = np.empty(G, dtype=np.int64)
    sq = np.empty(G, dtype=np.int64)
    m = 0
    rest = INF
    for g in range(G):
        if hard and not allows(greens, least, codes[g], counts[g]):
            continue
        k = 0
        stamp = g + 1
        for i in range(n):
            p = FT[S[i], g]  # answer-major: consecutive guesses share cache lines
            if seen[p] != stamp:
                seen[p] = stamp
                size[p] = 0
                touched[k] = p
                k += 1
            size[p] += 1
        h = 1 if seen[green] == stamp else 0
        if k == 1 and h == 0:
            continue  # tells nothing
        lb = h * c0
        lb = _sat(lb + (k - h) * c1) if c1 < INF or k - h == 0 else INF
        if n - k > 0:
            lb = _sat(lb + (n - k) * c2) if c2 < INF else INF
        if lb >= limit:
            if lb < rest:
                rest = lb
            continue
        s2 = 0
        for r in range(k):
            s2 += size[touched[r]] * size[touched[r]]
        cand[m] = g
        lbs[m] = lb
        sq[m] = s2
        m += 1
    order, bounds = _scan_order(cand[:m], lbs[:m], sq[:m], G)
    return order, bounds, rest


@numba.njit(cache=True, nogil=True)
def _bits(x):
    b = 0
    while x > 0:
        x >>= 1
        b += 1
    return b


@numba.njit(cache=True, nogil=True)
def _scan_order(cand, lbs, sq, G):
    """(cand, lbs) sorted by guess bound, then sum of squared class sizes, then guess row (cand is
    in row order): one sort of the three packed into an int64 when they fit, else two stable sorts."""
    m = cand.shape[0]
    if m == 0:
        return cand, lbs
    lo = lbs.min()
    wl, ws, wg = _bits(lbs.max() - lo), _bits(sq.max()), _bits(G)
    if wl + ws + wg <= 62:
        key = np.empty(m, dtype=np.int64)
        for j in range(m):
            key[j] = (((lbs[j] - lo) << (ws + wg)) | (sq[j] << wg)) | cand[j]
        key.sort()
        out = np.empty(m, dtype=np.int64)
        outl = np.empty(m, dtype=np.int64)
        mask = (np.int64(1) << wg) - 1
        for j in range(m):
            out[j] = key[j] & mask
            outl[j] = (key[j] >> (ws + wg)) + lo
        return out, outl
    o1 = np.argsort(sq, kind="mergesort")
    o2 = np.argsort(lbs[o1], kind="mergesort")
    order = o1[o2]
    return cand[order], lbs[order]


@numba.njit(cache=True, nogil=True)
def _node(ctx, memo, S, t, greens, least, beta, greedy, stats, forced):
    """(cost(S, t), best guess) when the cost is below beta; else (a bound >= beta, -1).

    With ``forced`` >= 0 only that guess is evaluated (nothing is read from or written to the
    memo for S itself). With ``greedy`` the first feasible guess in scan order is taken at every
    node (an upper bound; the memo is not used).
    """
    F, ans_row, cost, hard, codes = ctx[0], ctx[1], ctx[3], ctx[4], ctx[5]
    npat = 3 ** codes.shape[1]
    green = npat - 1
    n = S.shape[0]
    stats[0] += 1
    h = np.int64(0)
    if forced < 0:
        if n == 0:
            return np.int64(0), np.int64(-1)
        if n == 1:
            return cost[t], ans_row[S[0]]
        if cost[t + 1] >= INF:
            return INF, np.int64(-1)
        lb = _sat(cost[t] + (n - 1) * cost[t + 1])
        if ctx[11]:
            lb = _floor(cost, t, n, min(n, ctx[12]), min(n, ctx[12]))
        if n == 2:
            return lb, ans_row[S[0]]
        if not greedy:
            h = _key(ctx, S, t, greens, least)
            i = _find(ctx, memo, h, S, t, greens, least)
            if i < 0:  # first visit: the sharper bound of _quick (exact in easy cases)
                v, ok, row = _quick(ctx, memo, h, S, t, greens, least, lb)
                if ok:
                    return v, row
                lb = v
            else:
                if memo[3][i]:
                    return memo[2][i], memo[4][i]
                if memo[2][i] >= beta:
                    return memo[2][i], np.int64(-1)
                if memo[2][i] > lb:
                    lb = memo[2][i]
        else:
            # greedy: an answer of S that splits S into singletons attains the node bound
            row = _singleton_splitter(F, ans_row, S, npat)
            if row >= 0:
                return lb, row
        if lb >= beta:
            return lb, np.int64(-1)
        stats[1] += 1
        cand, lbs, soft = _candidates(ctx, S, t, greens, least, beta)
    else:
        lb = np.int64(0)
        cand = np.full(1, forced, dtype=np.int64)
        lbs = np.zeros(1, dtype=np.int64)
        soft = INF
    # soft: a lower bound on every guess not known exactly (fail-soft: when no guess gets below
    # beta, min(best, soft) >= beta is a valid, often larger, lower bound of the node)
    best = INF
    best_guess = np.int64(-1)
    c0, c1 = cost[t], cost[t + 1]
    pend = np.empty(npat, dtype=np.int64)
    pbound = np.empty(npat, dtype=np.int64)
    members = np.empty(n, dtype=np.int64)
    start = np.empty(npat + 1, dtype=np.int64)
    size = np.empty(npat, dtype=np.int64)
    fill = np.empty(npat, dtype=np.int64)
    for j in range(cand.shape[0]):
        thr = min(best, beta)
        if lbs[j] >= thr:
            soft = min(soft, lbs[j])  # the guesses left are in bound order
            break
        # the cost of guess g: exact when below thr, else a bound >= thr
        g = cand[j]
        _split_into(F, g, S, npat, members, start, size, fill)
        total = np.int64(0)
        m = 0
        for p in range(npat):
            s = size[p]
            if s == 0:
                continue
            if p == green:
                total = _sat(total + c0)
            else:
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                b = _bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2)
                total = _sat(total + b)
                if s >= 3:
                    pend[m] = p
                    pbound[m] = b
                    m += 1
            if total >= thr:
                break
        if total < thr:
            # smallest classes first: each is cheap, and every exact value lowers the threshold
            # left for the larger ones (a larger class is likelier to fail, but costs more to try)
            order = np.argsort(size[pend[:m]], kind="mergesort")
            for r in range(m):
                p = pend[order[r]]
                b = pbound[order[r]]
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                v, _ = _node(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2, thr - (total - b),
                             greedy, stats, np.int64(-1))
                total = _sat(total - b + v)
                if total >= thr:
                    break
        if forced >= 0:
            return total, (g if total < beta else np.int64(-1))
        if total >= thr:
            soft = min(soft, total)
        if total < best:
            best = total
            best_guess = g
            if greedy:
                break
    if best < beta:
        if not greedy:
            _store(ctx, memo, h, S, t, greens, least, best, True, best_guess)
        return best, best_guess
    bound = max(lb, min(best, soft))
    if not greedy:
        _store(ctx, memo, h, S, t, greens, least, bound, False, np.int64(-1))
    return bound, np.int64(-1)


# --- the instance -----------------------------------------------------------------------------

@dataclass
class GuessesInstance:
    """A Wordle instance ready for the fewest-guesses kernels (``ctx`` is what they read)."""

    answers: WordList
    guesses: WordList
    F: np.ndarray = field(repr=False)
    hard: bool
    cost: np.ndarray
    ctx: tuple = field(repr=False)

    @property
    def green(self) -> int:
        return all_green(self.answers.length)

    @property
    def max_guesses(self) -> int:
        return len(self.cost) - 3


def make_guesses_instance(answers: WordList, guesses: WordList, objective: Objective, max_guesses: int,
                          hard: bool = False, F: np.ndarray | None = None,
                          sharp: bool = True) -> GuessesInstance:
    """The arrays the kernels read. ``sharp`` False switches off the sharper class bound of
    ``_quick`` (a baseline for the benchmark: the node bound only)."""
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    F = np.ascontiguousarray(F)
    L = answers.length
    codes = encode(guesses.words)
    ans_row = np.array([guesses.index[a] for a in answers.words], dtype=np.int64)
    row_ans = np.full(len(guesses), -1, dtype=np.int64)
    row_ans[ans_row] = np.arange(len(answers))
    rng = np.random.default_rng(20220114)
    big = np.iinfo(np.int64)

    def rand(*shape):
        return rng.integers(big.min, big.max, size=shape, dtype=np.int64)

    cost = objective.costs(max_guesses, len(answers))
    ctx = (F, ans_row, row_ans, cost, bool(hard), codes, letter_counts(codes),
           rand(len(answers)), rand(max_guesses + 3), rand(L, 27), rand(26, L + 1), bool(sharp),
           _most_patterns(F, 3 ** L), np.ascontiguousarray(F.T))
    return GuessesInstance(answers, guesses, F, hard, cost, ctx)


Rule = tuple[np.ndarray, np.ndarray]


def _after(inst: GuessesInstance, rule: Rule, g: int, pattern: int) -> Rule:
    if not inst.hard:
        return rule
    return add_feedback(rule[0], rule[1], inst.ctx[5][g], pattern)


def node_value(inst: GuessesInstance, memo, S: np.ndarray, t: int, rule: Rule, beta: int = INF,
               greedy: bool = False, stats: np.ndarray | None = None) -> tuple[int, int]:
    """(cost(S, t), best guess row), or (a bound >= beta, -1)."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    v, g = _node(inst.ctx, memo, np.ascontiguousarray(S, dtype=np.int64), t, rule[0], rule[1],
                 np.int64(beta), greedy, stats, np.int64(-1))
    return int(v), int(g)


def guess_value(inst: GuessesInstance, memo, S: np.ndarray, g: int, t: int, rule: Rule, beta: int = INF,
                greedy: bool = False, stats: np.ndarray | None = None) -> int:
    """The cost of playing guess row g on S at step t (exact below beta, else a bound >= beta)."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    v, _ = _node(inst.ctx, memo, np.ascontiguousarray(S, dtype=np.int64), t, rule[0], rule[1],
                 np.int64(beta), greedy, stats, np.int64(g))
    return int(v)


def subtree(inst: GuessesInstance, memo, S: np.ndarray, t: int, rule: Rule, greedy: bool = False,
            guess: int | None = None) -> Tree:
    """The tree the search chose for (S, t) (solving any node the memo lacks; greedy: greedy picks)."""
    S = np.asarray(S, dtype=np.int64)
    if guess is None:
        value, guess = node_value(inst, memo, S, t, rule, greedy=greedy)
        if guess < 0:
            words = " ".join(inst.answers.words[a] for a in S[:8]) + (" ..." if len(S) > 8 else "")
            raise Infeasible(f"no strategy solves these {len(S)} answers ({words}) from guess {t} within "
                             f"{inst.max_guesses} guesses")
    children = {}
    for pattern, P in sorted(split_by_guess(inst.F, guess, S).items()):
        if pattern != inst.green:
            children[pattern] = subtree(inst, memo, P, t + 1, _after(inst, rule, guess, pattern), greedy)
    return Tree(inst.guesses.words[guess], len(S), children)


# --- results ----------------------------------------------------------------------------------

@dataclass
class GuessesResult:
    """The outcome of :func:`solve_guesses`.

    ``status``: OPTIMAL (the value is proven), FEASIBLE (a complete tree, not proven optimal:
    interrupted), INFEASIBLE (no strategy meets the cutoff or the guess limit: ``lower_bound`` says
    how far), UNKNOWN (nothing found). ``total``/``mean`` count guesses from the start of the game
    (the guesses of ``after`` included).
    """

    status: str
    objective: str
    n: int
    max_guesses: int
    hard: bool
    first: str | None  # the guess the tree opens with (at the position after ``after``)
    tree: Tree | None
    total: int | None  # total guesses of the tree, over the n answers
    wins_at: tuple[int, ...]  # answers solved with exactly 1, 2, ... guesses
    cost: int | None  # the objective's weighted value (= total for "guesses")
    lower_bound: int | None  # a proven lower bound on the objective's weighted value
    seconds: float
    cores: int
    nodes: int
    searched: int  # nodes where all guesses were scanned
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    after: tuple[tuple[str, int], ...] = ()
    cutoff: int | None = None
    interrupted: bool = False
    top: list[tuple[str, int]] = field(default_factory=list)  # first guesses evaluated exactly

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.total is not None and self.n else None

    def wins_within(self, k: int) -> int:
        return sum(self.wins_at[:k])

    def to_json(self) -> dict:
        return {
            "objective": self.objective,
            "status": self.status,
            "n": self.n,
            "first": self.first,
            "total": self.total,
            "mean": self.mean,
            "cost": self.cost,
            "lower_bound": self.lower_bound,
            "wins_at": list(self.wins_at),
            "wins_within": {str(k): self.wins_within(k) for k in range(1, len(self.wins_at) + 1)},
            "max_guesses": self.max_guesses,
            "hard": self.hard,
            "after": [[g, format_pattern(p, len(g))] for g, p in self.after],
            "cutoff": self.cutoff,
            "interrupted": self.interrupted,
            "top": [{"guess": g, "cost": v} for g, v in self.top],
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "nodes": self.nodes,
            "searched_nodes": self.searched,
            "answers": {"source": self.answers.source, "count": len(self.answers), "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "method": METHOD,
        }


METHOD = ("exact depth-first branch and bound over every allowed guess at every node "
          "(exact.wordle.guesses): guess bound h c[t] + (k - h) c[t+1] + (n - k) c[t+2], node bound "
          "c[t] + (n - 1) c[t+1], memo on exact member sets")


def compare_results(best: GuessesResult, other: GuessesResult) -> dict:
    """How much worse ``other`` (a solve with its guess fixed) is than ``best``, in exact values of
    both: totals, means, and the answers lost past each winK level."""
    levels = list(parse_objective(best.objective).wins)

    def value(r):
        if r.tree is None:
            return {"total": None, "mean": None, "lost": None, "status": r.status}
        return {"total": r.total, "mean": r.mean, "lost": [r.n - r.wins_within(k) for k in levels],
                "status": r.status}

    a, b = value(best), value(other)
    both = a["total"] is not None and b["total"] is not None
    return {"guess": other.first, "value": b, "best_guess": best.first, "best_value": a, "levels": levels,
            "extra_guesses": b["total"] - a["total"] if both else None,
            "extra_mean": (b["total"] - a["total"]) / best.n if both else None,
            "extra_lost": [y - x for x, y in zip(a["lost"], b["lost"])] if both else None}


# --- positions --------------------------------------------------------------------------------

def parse_history(text: str, guesses: WordList) -> tuple[tuple[str, int], ...]:
    """``"parse BBYBB clint BBYYB"``: guesses and their patterns, in any notation the project reads.

    >>> from exact.words import words_from_lines
    >>> parse_history("parse 00100 clint bbyyb", words_from_lines(["parse", "clint"]))
    (('parse', 9), ('clint', 36))
    """
    from exact.feedback import parse_pattern

    parts = str(text).split()
    if len(parts) % 2:
        raise ExactError(f"after {text!r}: give pairs 'GUESS PATTERN ...' (an even number of items)")
    history = []
    for i in range(0, len(parts), 2):
        (word,) = check_words_in(parts[i], guesses, "after")
        try:
            pattern = parse_pattern(parts[i + 1], guesses.length)
        except ExactError as e:
            raise ExactError(f"after {text!r}: {e}") from None
        history.append((word, pattern))
    return tuple(history)


def check_words_in(word: str, pool: WordList, what: str) -> tuple[str]:
    from exact.words import check_words

    (w,) = check_words([word], pool.length, what)
    require_in_pool([w], pool, what)
    return (w,)


def position(answers: WordList, history, hard: bool) -> tuple[np.ndarray, Rule]:
    """The answers consistent with the history, and the hard-mode constraint it imposes."""
    S = np.arange(len(answers), dtype=np.int64)
    for g, p in history:
        S = np.array([a for a in S if feedback(g, answers.words[a]) == p], dtype=np.int64)
    if len(S) == 0:
        shown = " ".join(f"{g} {format_pattern(p, len(g))}" for g, p in history)
        raise ExactError(f"after {shown!r}: no answer is consistent with that feedback")
    if hard:
        from exact.wordle.hard import is_allowed

        for i, (g, _) in enumerate(history):
            if not is_allowed(g, history[:i]):
                raise ExactError(f"after: {g!r} breaks the hard-mode rule at guess {i + 1}")
        return S, constraint(history, answers.length)
    return S, no_constraint(answers.length)


def position_answers(answers: WordList, history, hard: bool = False) -> WordList:
    """The answers consistent with the history, as a WordList (the whole list when no history)."""
    if not history:
        return answers
    S, _ = position(answers, tuple(history), hard)
    return WordList(tuple(answers.words[a] for a in S), answers.source)


# --- the solver -------------------------------------------------------------------------------

def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class _Worker(threading.local):
    memo = None


def solve_guesses(answers: WordList, guesses: WordList, *, objective: str | Objective = "guesses",
                  first: str | None = None, max_guesses: int = 6, hard: bool = False,
                  cutoff: int | None = None, after=(), workers: int | None = None,
                  progress: bool | None = None, F: np.ndarray | None = None,
                  sharp: bool = True) -> GuessesResult:
    """The best complete strategy for an objective (default: fewest total guesses), proven.

    ``first`` fixes the guess at the position (the first guess of the game when ``after`` is
    empty); without it every allowed guess is considered. ``cutoff``: only strategies whose value
    is at most ``cutoff`` are sought (Selby's -b); when none exists the status is INFEASIBLE with a
    proven ``lower_bound`` > cutoff. ``after``: (guess, pattern) pairs already played. Ctrl-C (or
    SIGTERM) returns the best tree so far, completed greedily, with status FEASIBLE.
    """
    started = time.perf_counter()
    if isinstance(objective, str):
        objective = parse_objective(objective)
    if max_guesses < 1:
        raise ExactError(f"max_guesses must be at least 1, not {max_guesses}")
    if cutoff is not None and cutoff < 0:
        raise ExactError(f"cutoff must be at least 0, not {cutoff}")
    show = progress
    inst = make_guesses_instance(answers, guesses, objective, max_guesses, hard, F, sharp)
    history = tuple(after)
    S, rule = position(answers, history, hard)
    t0 = len(history) + 1
    if t0 > max_guesses:
        raise ExactError(f"after: {len(history)} guesses played leave none of the {max_guesses} allowed")
    workers = workers or min(2, cores())
    if first is not None:
        require_in_pool([first], guesses, "first")
        g = guesses.index[first]
        if hard and not allows(rule[0], rule[1], inst.ctx[5][g], inst.ctx[6][g]):
            raise ExactError(f"first: {first!r} breaks the hard-mode rule after the guesses played")
        firsts = np.array([g], dtype=np.int64)
        first_bounds = np.zeros(1, dtype=np.int64)
    else:
        firsts, first_bounds, _ = _candidates(inst.ctx, S, t0, rule[0], rule[1], INF)
        if len(S) <= 2 or len(firsts) == 0:
            firsts = np.array([inst.ctx[1][S[0]]], dtype=np.int64)
            first_bounds = np.zeros(1, dtype=np.int64)
    limit = INF if cutoff is None else np.int64(cutoff) + 1
    stats = np.zeros(2, dtype=np.int64)
    best = None  # (cost, guess, tree, exact)
    top: list[tuple[str, int]] = []
    bound_all = None
    interrupted = False
    bar = prog.bar(total=len(firsts), desc=f"{objective.name}: first guesses", unit="guess",
                       disable=(not show) if show is not None else None) if len(firsts) > 1 else None
    try:
        for g, bound in zip(firsts, first_bounds):
            thr = limit if best is None else min(limit, best[0])
            if bound >= thr:
                break  # the guess bound of every guess left is no better (they are in bound order)
            outcome = _play(inst, S, int(g), t0, rule, int(thr), workers, stats, show and len(firsts) == 1)
            v, tree, exact = outcome
            if exact and v < thr:
                best = (v, int(g), tree, True)
                top.append((guesses.words[g], v))
            if bar is not None:
                bar.update(1)
                if best is not None:
                    bar.set_postfix(best=best[0], first=guesses.words[best[1]])
            if exact is None:  # interrupted inside
                if tree is not None and (best is None or v < best[0]):
                    best = (v, int(g), tree, False)
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        prog.say("interrupted; reporting the best strategy found so far")
    if best is None:
        status = "UNKNOWN" if interrupted else "INFEASIBLE"
        if not interrupted:
            bound_all = int(limit) if limit < INF else None
        return _result(inst, objective, status, None, None, bound_all, started, stats, history, cutoff,
                       interrupted, top, S)
    cost_value, g, tree, exact = best
    status = "OPTIMAL" if (exact and not interrupted) else "FEASIBLE"
    if interrupted and exact and first is not None:
        status = "OPTIMAL"  # the fixed first guess was fully solved before the interruption
    return _result(inst, objective, status, tree, cost_value, cost_value if status == "OPTIMAL" else None,
                   started, stats, history, cutoff, interrupted, top, S)


def _play(inst: GuessesInstance, S, g: int, t: int, rule: Rule, thr: int, workers: int, stats, show):
    """Solve guess g at the position: (cost, tree, exact) with exact True (cost exact, < thr),
    False (cost >= thr, a bound; no tree) or None (interrupted: tree completed greedily)."""
    classes = [(p, P) for p, P in sorted(split_by_guess(inst.F, g, S).items(), key=lambda pc: (-len(pc[1]), pc[0]))]
    green_cost = int(inst.cost[t]) if any(p == inst.green for p, _ in classes) else 0
    parts = [(p, P, _after(inst, rule, g, p)) for p, P in classes if p != inst.green]
    lower = [int(_bound(inst.ctx, new_memo(), P, t + 1, r[0], r[1])) for _, P, r in parts]
    exact_vals: dict[int, int] = {}
    trees: dict[int, Tree] = {}
    lock = threading.Lock()
    local = _Worker()
    failed = [False]

    def total_now(skip: int | None = None) -> int:
        s = green_cost
        for i in range(len(parts)):
            if i != skip:
                s += exact_vals.get(i, lower[i])
        return min(s, int(INF))

    if total_now() >= thr:
        return total_now(), None, False
    if thr < INF:  # the look-ahead bound of each class, largest first, against the threshold left
        look = new_memo()
        for i in sorted(range(len(parts)), key=lambda i: -len(parts[i][1])):
            P, r = parts[i][1], parts[i][2]
            if len(P) < 3:
                break
            beta = thr - (total_now() - lower[i])
            lower[i] = max(lower[i], int(_lookahead(inst.ctx, look, P, t + 1, r[0], r[1], np.int64(beta))))
            if total_now() >= thr:
                return total_now(), None, False

    def task(i: int):
        if failed[0]:
            return
        p, P, r = parts[i]
        if local.memo is None:
            local.memo = new_memo()
        with lock:
            beta = thr - total_now(skip=i) if thr < INF else INF
        st = np.zeros(2, dtype=np.int64)
        v, guess = node_value(inst, local.memo, P, t + 1, r, beta, stats=st)
        tree = subtree(inst, local.memo, P, t + 1, r, guess=guess) if v < beta and guess >= 0 else None
        with lock:
            stats[:] += st
            if v >= beta:
                failed[0] = True
                exact_vals[i] = max(v, lower[i])
            else:
                exact_vals[i] = v
                trees[i] = tree
        if len(local.memo[2]) > 5_000_000:
            local.memo = new_memo()

    bar = prog.bar(total=len(parts), desc="classes", unit="class",
                       disable=(not show) if show is not None else None) if show is not False else None
    pool = cf.ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(task, i) for i in sorted(range(len(parts)), key=lambda i: (len(parts[i][1]), i))]
    interrupted = False
    try:
        pending = set(futures)
        while pending:
            done, pending = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for f in done:
                f.result()
                if bar is not None:
                    bar.update(1)
            if failed[0]:
                for f in pending:
                    f.cancel()
                cf.wait(pending)
                break
    except KeyboardInterrupt:
        interrupted = True
        failed[0] = True
        for f in futures:
            f.cancel()
        prog.say("interrupted; finishing the classes in progress")
        cf.wait(futures)
    finally:
        pool.shutdown(wait=True)
        if bar is not None:
            bar.close()
    if interrupted:
        memo = new_memo()
        for i, (p, P, r) in enumerate(parts):
            if i not in trees:
                trees[i] = subtree(inst, memo, P, t + 1, r, greedy=True)
                exact_vals[i] = tree_cost(inst, trees[i], P, t + 1)
        tree = Tree(inst.guesses.words[g], len(S), {parts[i][0]: trees[i] for i in sorted(trees, key=lambda i: parts[i][0])})
        return total_now(), tree, None
    if failed[0] or total_now() >= thr:
        return max(total_now(), thr), None, False
    tree = Tree(inst.guesses.words[g], len(S), dict(sorted((parts[i][0], trees[i]) for i in range(len(parts)))))
    return total_now(), tree, True


def tree_cost(inst: GuessesInstance, tree: Tree, S: np.ndarray, t: int) -> int:
    """The weighted cost of a tree for the answers S starting at step t (INF when one is unsolved)."""
    total = 0
    for a in S:
        word = inst.answers.words[a]
        node, step = tree, t
        while node is not None and node.guess != word:
            node, step = node.children.get(feedback(node.guess, word)), step + 1
        total += int(inst.cost[min(step, len(inst.cost) - 1)]) if node is not None else int(INF)
    return min(total, int(INF))


def _result(inst, objective, status, tree, cost_value, lower, started, stats, history, cutoff,
            interrupted, top, S) -> GuessesResult:
    answers = inst.answers
    wins_at: tuple[int, ...] = ()
    total = None
    if tree is not None:
        played = replay_position(tree, answers, inst.guesses, history, inst.max_guesses, inst.hard)
        if not played.valid or played.lost:
            raise ExactError(f"internal error: the tree does not replay ({len(played.invalid)} invalid nodes, "
                             f"{len(played.lost)} answers unsolved)")
        wins_at = played.wins_at
        total = sum((k + 1) * w for k, w in enumerate(wins_at))
        if sum(wins_at) != len(S):
            raise ExactError(f"internal error: the tree solves {sum(wins_at)} of {len(S)} answers")
        if tree_cost(inst, tree, S, len(history) + 1) != cost_value:
            raise ExactError("internal error: the tree's replayed cost differs from the search's value")
    return GuessesResult(
        status=status, objective=objective.name, n=len(S), max_guesses=inst.max_guesses, hard=inst.hard,
        first=tree.guess if tree is not None else None, tree=tree, total=total, wins_at=wins_at,
        cost=cost_value, lower_bound=lower, seconds=time.perf_counter() - started, cores=cores(),
        nodes=int(stats[0]), searched=int(stats[1]), answers=answers, guesses=inst.guesses,
        after=history, cutoff=cutoff, interrupted=interrupted, top=top)


def replay_position(tree: Tree, answers: WordList, guesses: WordList, after=(), max_guesses: int = 6,
                    hard: bool = False):
    """An independent replay (:func:`exact.wordle.tree.replay`) of a tree played after the guesses
    ``after``, on the answers consistent with them; ``wins_at`` counts guesses from the start of the
    game (the guesses played included). In hard mode every guess is checked against the rule with
    the guesses played before it."""
    from dataclasses import replace

    history = tuple(after)
    sub = position_answers(answers, history, hard)
    result = replay(tree, sub, guesses, depth=max_guesses - len(history), hard=hard and not history)
    if hard and history:
        bad = _hard_violations(tree, history)
        if bad:
            from exact.wordle.tree import Problem

            result = replace(result, invalid=result.invalid + tuple(
                Problem("hard-mode", "", g, f"{g!r} breaks the hard-mode rule") for g in bad))
    return replace(result, histogram=(0,) * len(history) + tuple(result.histogram), depth=max_guesses)


def _hard_violations(tree: Tree, history) -> list[str]:
    """The guesses of the tree that break the hard-mode rule, counting the guesses played before it."""
    from exact.wordle.hard import is_allowed

    bad = [] if is_allowed(tree.guess, history) else [tree.guess]
    for pattern, child in tree.children.items():
        bad += _hard_violations(child, history + ((tree.guess, pattern),))
    return bad


# --- complete trees ---------------------------------------------------------------------------

def complete_tree(tree: Tree, answers: WordList, guesses: WordList, max_guesses: int = 6,
                  hard: bool = False, depth: int | None = None, after=(),
                  F: np.ndarray | None = None, keep_leaves: bool = False) -> Tree:
    """The tree with every answer solved within ``max_guesses``: each missing branch is filled with
    a fewest-guesses subtree (exact: the search of :func:`solve_guesses` on that class).

    ``depth``: the tree's optimised depth. A leaf at that step that answers still reach (a node
    that wins one of them and loses the rest) is replaced by the best subtree for the objective
    ``win<depth>,guesses`` on that class (solve one answer at this step, then fewest guesses),
    which names an answer of the class at that step, as the leaf did: so the wins within ``depth``
    are unchanged. Every other guess of the tree is kept (and those leaves too, with
    ``keep_leaves``: then only the branches below them are filled). When the guesses kept leave a
    class that no strategy solves within ``max_guesses`` (hard mode has such traps), the nearest
    node above it at a step <= ``depth`` (not the root) is re-solved with ``win<depth>,guesses``: the most wins
    within ``depth`` that a complete subtree can have there; :func:`complete_and_check` then
    checks that the wins within ``depth`` did not change. ``after``: guesses played before the
    tree's root (its step is len(after) + 1).

    >>> from exact.words import words_from_lines
    >>> A = words_from_lines(["caber", "cabin", "cable", "cache"])
    >>> t = complete_tree(Tree("cabin", 4, {}), A, A, max_guesses=3)
    >>> sorted(t.children) == sorted({feedback("cabin", a) for a in A if a != "cabin"})
    True
    """
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    history = tuple(after)
    S, rule = position(answers, history, hard)
    plain = make_guesses_instance(answers, guesses, Objective(()), max_guesses, hard, F)
    memos: dict = {"plain": new_memo()}
    leaf_insts: dict[int, GuessesInstance] = {}

    def fill(S: np.ndarray, t: int, rule: Rule) -> Tree:
        if t > max_guesses:
            raise Infeasible(f"{len(S)} answers reach guess {t}, past max_guesses = {max_guesses}")
        return subtree(plain, memos["plain"], S, t, rule)

    def leaf(S: np.ndarray, t: int, rule: Rule) -> Tree:
        k = depth if depth is not None else t
        if k not in leaf_insts:
            leaf_insts[k] = make_guesses_instance(answers, guesses, Objective((k,)), max_guesses, hard, F)
            memos[k] = new_memo()
        return subtree(leaf_insts[k], memos[k], S, t, rule)

    def visit(node: Tree, S: np.ndarray, t: int, rule: Rule) -> Tree:
        try:
            return keep(node, S, t, rule)
        except Infeasible:
            if depth is None or t > depth or t == len(history) + 1:
                raise  # past the optimised depth, or at the root: the tree's own first guess is the trap
            return leaf(S, t, rule)

    def keep(node: Tree, S: np.ndarray, t: int, rule: Rule) -> Tree:
        if len(S) == 0:
            return node
        if node.guess not in guesses.index:
            raise ExactError(f"the tree plays {node.guess!r}, which is not in {guesses.source}")
        g = guesses.index[node.guess]
        classes = {p: P for p, P in split_by_guess(F, g, S).items() if p != plain.green}
        if depth is not None and t == depth and not node.children and classes and not keep_leaves:
            return leaf(S, t, rule)
        if t >= max_guesses and classes:
            raise Infeasible(f"answers reach guess {t + 1} after {node.guess!r}, past max_guesses = {max_guesses}")
        children = {}
        for p, P in sorted(classes.items()):
            below = _after(plain, rule, g, p)
            child = node.children.get(p)
            children[p] = visit(child, P, t + 1, below) if child is not None else fill(P, t + 1, below)
        return Tree(node.guess, len(S), children)

    return visit(tree, S, len(history) + 1, rule)


def complete_and_check(tree: Tree, answers: WordList, guesses: WordList, depth: int, max_guesses: int = 6,
                       hard: bool = False, after=(), F: np.ndarray | None = None, keep_leaves: bool = False):
    """(the completed tree, its replay): :func:`complete_tree`, then an independent replay that must
    solve every answer within ``max_guesses`` and keep the wins within ``depth``; else ExactError."""
    if depth > max_guesses:
        raise ExactError(f"depth {depth} is more than max_guesses {max_guesses}")
    before = replay_position(tree, answers, guesses, after, depth, hard)
    try:
        done = complete_tree(tree, answers, guesses, max_guesses, hard, depth=depth, after=after, F=F,
                             keep_leaves=keep_leaves)
    except Infeasible as e:
        raise Infeasible(f"max_guesses: the tree cannot be completed within {max_guesses} guesses: {e}; "
                         f"allow more guesses, or keep the depth-limited tree (truncate)") from None
    played = replay_position(done, answers, guesses, after, max_guesses, hard)
    kept = sum(played.wins_at[:depth])
    if not played.valid or played.lost or kept != before.wins:
        raise ExactError(f"internal error: the completed tree replays to {kept} wins within {depth} "
                         f"(before: {before.wins}; {len(played.invalid)} invalid nodes, {len(played.lost)} unsolved)")
    return done, played
