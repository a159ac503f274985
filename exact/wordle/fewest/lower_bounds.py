"""The lower bounds of the fewest-guesses search (:mod:`exact.wordle.fewest.kernels`), each with its argument.

Data types as in :mod:`exact.wordle.fewest.kernels`.

Lower bounds (each one is a lower bound on the cost of every tree it is used for; all use only that
c is non-decreasing and that at most one answer is solved by each guess):

*Weights* (``ctx.weight``, :mod:`exact.weights`): a tree's value is ``sum_a w_a c[s(a)]``. Each
bound below caps, step by step, *how many* answers can be solved by then (at most h at step t, at
most k by step t + 1, ...); given such caps, the cheapest assignment of steps to answers puts the
heaviest answers on the earliest steps (c is non-decreasing: an exchange of two answers that breaks
this order does not lower the sum). So every count below becomes a sum of the heaviest weights of
T: "h answers at c[t], k - h at c[t+1], the rest at c[t+2]" becomes ``top(h) c[t] + (top(k) -
top(h)) c[t+1] + (W - top(k)) c[t+2]``, ``top(k)`` the sum of the k largest weights of T and W
their total (:func:`heaviest`); with unit weights top(k) = k and W = n, the counting bounds
themselves (``ctx.unit`` takes that path without sorting). Where a bound names a particular answer
(the one a singleton splitter names, the pair rule of :func:`quick`, the node of two answers), the
weighted argument is given there.

- *node bound*: a set T of n answers at step t costs at least ``c[t] + (n - 1) c[t+1]``: one guess
  names at most one answer, so at most one answer is solved at step t, the others at t + 1 or later.
  For c[s] = s this is Selby's 2n - 1. It is attained exactly by an answer of T that splits T into
  singletons, so when one exists the node is solved without looking at other guesses;
- *wide node bound* (:func:`_floor`): no guess makes more than m classes, m the most any allowed
  guess makes on the whole answer list, so for n > m the node costs at least
  ``min(B(1, m), B(0, m))``, ``B(h, k) = h c[t] + (k - h) c[t+1] + (n - k) c[t+2]`` (Selby's
  3n - 1 + max(0, n - m) for the total); :func:`quick` adds that with no answer splitting T into
  singletons a naming guess makes at most n - 1 classes; in hard mode m is at most 3^f, f the
  positions the node's constraint leaves without a green (:func:`most_classes_at`);
- *look-ahead* (:func:`exact.wordle.fewest.scan.lookahead`, used before any class of a first guess is solved exactly): the
  least over every guess of the sum of its classes' bounds;
- *guess bound*: a guess g making k classes on T, h = 1 if g is in T (else 0), costs at least
  ``h c[t] + (k - h) c[t+1] + (n - k) c[t+2]``: at most h answers at step t; at step t + 1 the next
  guess of each non-green class names at most one answer of that class, so at most k - h there; the
  rest at t + 2 or later. Guesses are tried in increasing order of this bound (ties: smaller sum of
  squared class sizes, then list order) and the scan stops at the first guess whose bound is not
  below the best value found (or beta), so every guess not evaluated is no better;
- *class bound*: inside a guess, each class P not yet solved counts its node bound (or a better
  bound the memo holds); a guess is abandoned as soon as the exact values so far plus these bounds
  reach beta (below), which returns a valid lower bound of that guess;
- *depth*: ``c[s] = INF`` past max_guesses makes every bound above infinite when it needs a step
  that is not allowed, so no tree deeper than max_guesses is ever returned;
- *endgame bound* (:mod:`exact.wordle.fewest.endgame`, Selby's ".ATCH" cut made a bound): answers
  of T that differ at one position only leave the default path of any strategy a few per guess, so
  a large such group costs more than the node bound, and is infinite when the guesses left cannot
  split it; :func:`quick` adds it to the bound of every new node, and when its counts come close
  to the cut :func:`exact.wordle.fewest.kernels.search_node` first searches the group alone (:func:`exact.wordle.fewest.endgame.tight_endgame`);
- *letters known absent* (:func:`exact.wordle.fewest.kernels._store_unions`): once every class of a guess g is solved, the
  unions of classes that a guess with a letter absent from T in place of one of g's would make get
  a lower bound in the memo (their parts' sum; in hard mode the gray part's value), so such a guess
  is rejected by its class bounds;
- a guess that makes one class and names no answer (it tells nothing) is skipped: playing it only
  delays every answer by one step, which cannot lower a non-decreasing cost.
"""

from __future__ import annotations

import numba
import numpy as np

from exact.wordle.fewest.endgame import endgame_bound
from exact.wordle.fewest.memo import INF, memo_find, memo_key, memo_store, sat


@numba.njit(cache=True, nogil=True)
def times(w, c):
    """w c for a weight sum w >= 0 and a cost c (INF stays INF; 0 when w = 0). No overflow:
    :func:`exact.wordle.fewest.search.make_guesses_instance` checks total weight x the largest
    finite cost < INF."""
    if w == 0:
        return np.int64(0)
    return INF if c >= INF else sat(w * c)


@numba.njit(cache=True, nogil=True)
def heaviest(ctx, T):
    """top[k] = the sum of the k largest weights of T (top[0] = 0, top[n] = W): the weighted
    counterpart of the count k in every bound (see the module)."""
    n = T.shape[0]
    top = np.empty(n + 1, dtype=np.int64)
    if ctx.unit:
        for k in range(n + 1):
            top[k] = k
        return top
    w = np.empty(n, dtype=np.int64)
    for i in range(n):
        w[i] = ctx.weight[T[i]]
    w.sort()
    top[0] = 0
    for k in range(n):
        top[k + 1] = top[k] + w[n - 1 - k]
    return top


@numba.njit(cache=True, nogil=True)
def floor_of(ctx, T, t, k1, k0):
    """:func:`_floor` for the answers T (their weights), k1 and k0 classes at most."""
    n = T.shape[0]
    if ctx.unit:
        return _floor(ctx.cost, t, n, k1, k0)
    top = heaviest(ctx, T)
    return floor_weighted(ctx.cost, t, top[n], top[1], top[k1], top[k0])


@numba.njit(cache=True, nogil=True)
def heaviest_weight(ctx, T):
    """The largest weight of T (1 with unit weights)."""
    if ctx.unit:
        return np.int64(1)
    most = np.int64(0)
    for i in range(T.shape[0]):
        most = max(most, ctx.weight[T[i]])
    return most


@numba.njit(cache=True, nogil=True)
def most_classes_at(ctx, greens):
    """m at a node whose constraint has the greens ``greens``: the most classes an allowed guess makes
    on its answers.

    ``ctx.most_classes`` bounds every guess on any subset of the answers. In hard mode a guess allowed
    at the node repeats every green of the constraint in its place, and every answer of the node has
    that letter there (the green was its feedback), so those positions are green for every answer:
    the patterns differ only at the f other positions, and there are at most 3^f of them (for
    ".ATCH", four greens known, 3 classes at most). Normal mode: ``ctx.most_classes``."""
    m = ctx.most_classes
    if ctx.hard:
        f = 0
        for i in range(greens.shape[0]):
            if greens[i] < 0:
                f += 1
        m = min(m, np.int64(3) ** f)
    return m


@numba.njit(cache=True, nogil=True)
def node_bound(ctx, memo, T, t, greens, least):
    """The best lower bound known for (T, t): the node bound, or the memo's value if larger."""
    cost = ctx.cost
    n = T.shape[0]
    if n == 0:
        return 0
    if n == 1:
        return times(ctx.weight[T[0]], cost[t])
    m = min(n, most_classes_at(ctx, greens)) if ctx.sharp else n  # k = n: the node bound itself
    lb = floor_of(ctx, T, t, m, m)
    if n >= 3 and lb < INF:
        h = memo_key(ctx, T, t, greens, least)
        i = memo_find(ctx, memo, h, T, t, greens, least)
        if i >= 0:
            return max(lb, memo.value[i])
        if ctx.sharp:
            v, _, _ = quick(ctx, memo, h, T, t, greens, least, lb)
            return v
    return lb


@numba.njit(cache=True, nogil=True)
def _floor(cost, t, n, k1, k0):
    """:func:`floor_weighted` with unit weights: min(B(1, k1), B(0, k0)) for n answers."""
    return floor_weighted(cost, t, n, 1, k1, k0)


@numba.njit(cache=True, nogil=True)
def floor_weighted(cost, t, W, s1, S1, S0):
    """The least cost of n answers at step t over every guess that names one answer and makes at
    most k1 classes (the green one included), or names none and makes at most k0 classes:
    min(B(1, k1), B(0, k0)), B(h, k) = h c[t] + (k - h) c[t+1] + (n - k) c[t+2]; with weights,
    ``B(h, k) = top(h) c[t] + (top(k) - top(h)) c[t+1] + (W - top(k)) c[t+2]``, given as
    W = top(n), s1 = top(1), S1 = top(k1), S0 = top(k0) (unit weights: n, 1, k1, k0).

    Proof. A guess g with h in {0, 1} (does it name an answer of T?) and k classes solves at most h
    answers at step t. Each of its k - h other classes P, of x answers, costs at least
    c[t+1] + (x - 1) c[t+2] (the node bound one step later: its next guess names at most one of
    them), and these add up to (k - h) c[t+1] + (n - h - (k - h)) c[t+2]: that is B(h, k). B(h, k)
    does not grow with k (c[t+1] <= c[t+2]) and B(1, k) <= B(0, k) (c[t] <= c[t+1]), so a bound on
    the classes of every guess gives a bound on the node. With k1 = k0 = min(n, m), m the most
    classes any allowed guess makes on the whole answer list (so on any subset), this is the node
    bound c[t] + (n - 1) c[t+1] when n <= m and Selby's 3n - 1 + max(0, n - m) (counted from the
    guess before: + n) when c[s] = s and t = 2 (in hard mode m is the node's own cap,
    :func:`most_classes_at`). k1 = min(n - 1, m) when no answer of T splits T into singletons.

    Weights: the guess solves at most h answers at step t and at most k by step t + 1 (the
    counts above); the cheapest steps for these caps go to the heaviest answers (the module), which
    is B(h, k) with top(.). It does not grow with k (top(k) grows, c[t+1] <= c[t+2]) and
    B(1, k) <= B(0, k) (top(1) c[t] <= top(1) c[t+1]), as above.
    """
    c0, c1, c2 = cost[t], cost[t + 1], cost[t + 2]
    if c1 >= INF:
        return INF
    b1 = sat(s1 * c0 + (S1 - s1) * c1)
    if W - S1 > 0:
        b1 = sat(b1 + (W - S1) * c2) if c2 < INF else INF
    b0 = sat(S0 * c1)
    if W - S0 > 0:
        b0 = sat(b0 + (W - S0) * c2) if c2 < INF else INF
    return min(b1, b0)


@numba.njit(cache=True, nogil=True)
def _near_splitters(F, ans_row, T, npat, weight, wmax):
    """(the guess row of the first answer of T of the largest weight ``wmax`` that splits T into
    singletons, or -1; the first answer that leaves exactly one pair and singletons besides, or -1;
    whether any answer splits T into singletons).

    Only a heaviest splitter attains the node bound top(1) c[t] + (W - top(1)) c[t+1] (the node
    bound of :func:`_floor` when n <= m); a lighter one costs more and a heavier answer that leaves
    a pair may cost less, so it proves nothing (with unit weights every answer is heaviest)."""
    n = T.shape[0]
    seen = np.zeros(npat, dtype=np.int64)
    pair = np.int64(-1)
    splits = False
    for a in range(n):
        row = ans_row[T[a]]
        k = 0
        for i in range(n):
            p = F[row, T[i]]
            if seen[p] != a + 1:
                seen[p] = a + 1
                k += 1
        if k == n:
            if weight[T[a]] == wmax:
                return row, pair, True
            splits = True
        if k == n - 1 and pair < 0:
            pair = row
    return np.int64(-1), pair, splits


@numba.njit(cache=True, nogil=True)
def most_patterns(F, npat):
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
def quick(ctx, memo, h, T, t, greens, least, lb):
    """The node bound made sharper in O(n^2), stored in the memo: (value, exact?, guess).

    If an answer of T splits T into singletons, the node bound lb is the exact value. Otherwise
    every guess either names no answer now (h = 0: at most min(n, m) classes) or names one and
    leaves some class of two or more (h = 1: at most min(n - 1, m) classes), so the value is at
    least ``_floor(cost, t, n, min(n - 1, m), min(n, m))`` (for n <= m: lb + min(c[t+1] - c[t],
    c[t+2] - c[t+1])). An answer of T that leaves one pair and singletons besides costs exactly
    c[t] + (n - 2) c[t+1] + c[t+2] = B(1, n - 1) (a pair costs c[t+1] + c[t+2] and a singleton
    c[t+1], at best and at worst), so when that is the bound it is the exact value. It is taken
    only for n = 3 (with no singleton splitter every answer leaves the other two as a pair, and the
    first is the guess the scan would pick): for larger n a guess earlier in the scan order can tie
    (a non-answer that splits T into singletons, when c[t+1] - c[t] = c[t+2] - c[t+1]), and the
    search below finds it at the cost of one scan. With weights the pair rule is not taken (the
    answer it names need not be the heaviest, so its cost need not be the bound), and the splitter
    must be a heaviest answer (:func:`_near_splitters`; when only a lighter answer splits T into
    singletons, a naming guess can still make n classes, so the bound keeps k1 = min(n, m)); the
    bound itself is argued in :func:`_floor`.
    """
    F, ans_row, cost, codes = ctx.feedback, ctx.answer_row, ctx.cost, ctx.codes
    npat = 3 ** codes.shape[1]
    n = T.shape[0]
    row, pair, splits = _near_splitters(F, ans_row, T, npat, ctx.weight, heaviest_weight(ctx, T))
    if row >= 0:
        memo_store(ctx, memo, h, T, t, greens, least, lb, True, row)
        return lb, True, row
    if not ctx.sharp:  # the baseline: the node bound only
        return lb, False, np.int64(-1)
    m = most_classes_at(ctx, greens)
    k1 = min(n, m) if splits else min(n - 1, m)  # weights: a lighter answer may split T into singletons
    v = max(lb, floor_of(ctx, T, t, k1, min(n, m)), endgame_bound(ctx, T, t, greens, least))
    if ctx.unit and n == 3 and pair >= 0 and cost[t + 2] < INF and v == sat(cost[t] + (n - 2) * cost[t + 1] + cost[t + 2]):
        memo_store(ctx, memo, h, T, t, greens, least, v, True, pair)
        return v, True, pair
    memo_store(ctx, memo, h, T, t, greens, least, v, False, np.int64(-1))
    return v, False, np.int64(-1)
