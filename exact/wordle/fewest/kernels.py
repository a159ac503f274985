"""The numba search of the fewest-guesses solver (:mod:`exact.wordle.fewest.search`): memo, bounds, node.

Data types: ``ctx`` the instance record the kernels read, :class:`exact.wordle.fewest.context.Context`
(each field's meaning is in its docstring; the cost table ``c`` is ``ctx.cost``), ``memo`` a
:class:`exact.wordle.fewest.memo.Memo`; a set ``T`` a sorted int64 array of answer columns; ``t``
the step (1 = the first guess); (``greens``, ``least``) the hard-mode constraint of
:mod:`exact.game.hard`; ``INF`` a step past max_guesses.

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
  singletons a naming guess makes at most n - 1 classes;
- *look-ahead* (:func:`lookahead`, used before any class of a first guess is solved exactly): the
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
  to the cut :func:`search_node` first searches the group alone (:func:`tight_endgame`);
- *letters known absent* (:func:`_store_unions`): once every class of a guess g is solved, the
  unions of classes that a guess with a letter absent from T in place of one of g's would make get
  a lower bound in the memo (their parts' sum; in hard mode the gray part's value), so such a guess
  is rejected by its class bounds;
- a guess that makes one class and names no answer (it tells nothing) is skipped: playing it only
  delays every answer by one step, which cannot lower a non-decreasing cost.

Search: depth-first branch and bound in numba, each call given ``beta``, the value at or above which
a subtree is only bounded: a call returns the exact cost when it is below beta, else a lower bound
>= beta. The same name carries it from the library entry down: ``cutoff + 1`` (``--cutoff``) or the
incumbent in :func:`exact.wordle.fewest.search.solve_guesses` and the ranking
(:class:`exact.wordle.fewest.ranking.FewestSearch`), then ``first_value``, ``node_value`` and the
kernels here; a class is given the beta its guess has left, ``beta - (the rest of the guess's total)``. The memo is keyed on the exact member
set, the step and (hard mode) the constraint; it keeps exact values with their best guess and lower
bounds from failed searches; a 64-bit Zobrist hash only finds candidates, which are compared member
by member, so a collision can never return a wrong value. Hard mode uses the rule of
:mod:`exact.game.hard` (the answers still possible always satisfy it, so they are always playable).
"""

from __future__ import annotations

import numba
import numpy as np

from exact.game.hard import add_feedback, allows
from exact.wordle.fewest.endgame import endgame_bound, tight_endgame
from exact.wordle.fewest.memo import INF, memo_find, memo_key, memo_store, sat

UNION_MAX = 40  # the largest union kept: each costs a quick() of O(n^2) when it is new


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
def node_bound(ctx, memo, T, t, greens, least):
    """The best lower bound known for (T, t): the node bound, or the memo's value if larger."""
    cost = ctx.cost
    n = T.shape[0]
    if n == 0:
        return 0
    if n == 1:
        return times(ctx.weight[T[0]], cost[t])
    m = min(n, ctx.most_classes) if ctx.sharp else n  # k = n: the node bound itself
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
    guess before: + n) when c[s] = s and t = 2. k1 = min(n - 1, m) when no answer of T splits T
    into singletons.

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
    m = ctx.most_classes
    k1 = min(n, m) if splits else min(n - 1, m)  # weights: a lighter answer may split T into singletons
    v = max(lb, floor_of(ctx, T, t, k1, min(n, m)), endgame_bound(ctx, T, t, greens, least))
    if ctx.unit and n == 3 and pair >= 0 and cost[t + 2] < INF and v == sat(cost[t] + (n - 2) * cost[t + 1] + cost[t + 2]):
        memo_store(ctx, memo, h, T, t, greens, least, v, True, pair)
        return v, True, pair
    memo_store(ctx, memo, h, T, t, greens, least, v, False, np.int64(-1))
    return v, False, np.int64(-1)


@numba.njit(cache=True, nogil=True)
def lookahead(ctx, memo, T, t, greens, least, beta):
    """A lower bound on cost(T, t) one guess deeper than :func:`node_bound`, stored in the memo.

    Every allowed guess g costs at least the sum, over its classes, of their bounds
    (:func:`node_bound`, the green class c[t]); and at least its guess bound. So the least over
    every guess of the larger of the two is a lower bound of the node. Guesses are taken in
    increasing guess bound (the order of :func:`candidates`) and the scan stops at the first whose
    guess bound is not below the least sum found: every guess after it is no lower. Guesses whose
    guess bound is >= ``beta`` are not summed (their guess bound counts), so the result is exact as
    a bound, capped where it stops mattering: it is min(true bound, something >= beta).
    """
    F, cost, hard, codes = ctx.feedback, ctx.cost, ctx.hard, ctx.codes
    n = T.shape[0]
    lb = node_bound(ctx, memo, T, t, greens, least)
    if n < 3 or lb >= beta or lb >= INF:
        return lb
    h = memo_key(ctx, T, t, greens, least)
    i = memo_find(ctx, memo, h, T, t, greens, least)
    if i >= 0 and memo.exact[i]:
        return memo.value[i]
    npat = 3 ** codes.shape[1]
    green = npat - 1
    cand, lbs, rest = candidates(ctx, T, t, greens, least, beta)
    best = rest
    members = np.empty(n, dtype=np.int64)
    start = np.empty(npat + 1, dtype=np.int64)
    size = np.empty(npat, dtype=np.int64)
    fill = np.empty(npat, dtype=np.int64)
    for j in range(cand.shape[0]):
        if lbs[j] >= best:
            break
        g = cand[j]
        _split_into(F, g, T, npat, members, start, size, fill)
        total = np.int64(0)
        for p in range(npat):
            if size[p] == 0:
                continue
            if p == green:
                total = sat(total + times(ctx.weight[ctx.row_answer[g]], cost[t]))
            else:
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                total = sat(total + node_bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2))
            if total >= best:
                break
        best = min(best, max(total, lbs[j]))
    v = max(lb, best)
    memo_store(ctx, memo, h, T, t, greens, least, v, False, np.int64(-1))
    return v


@numba.njit(cache=True, nogil=True)
def _split_into(F, g, T, npat, members, start, size, fill):
    """_split into buffers given by the caller (no allocation): members[:n], start, size."""
    n = T.shape[0]
    size[:] = 0
    for i in range(n):
        size[F[g, T[i]]] += 1
    start[0] = 0
    for p in range(npat):
        start[p + 1] = start[p] + size[p]
        fill[p] = start[p]
    for i in range(n):
        p = F[g, T[i]]
        members[fill[p]] = T[i]
        fill[p] += 1


@numba.njit(cache=True, nogil=True)
def _split(F, g, T, npat):
    """The members of T grouped by the pattern of guess g (order kept), the start of each, sizes."""
    n = T.shape[0]
    size = np.zeros(npat, dtype=np.int64)
    for i in range(n):
        size[F[g, T[i]]] += 1
    start = np.zeros(npat + 1, dtype=np.int64)
    for p in range(npat):
        start[p + 1] = start[p] + size[p]
    fill = start[:npat].copy()
    members = np.empty(n, dtype=np.int64)
    for i in range(n):
        p = F[g, T[i]]
        members[fill[p]] = T[i]
        fill[p] += 1
    return members, start, size


@numba.njit(cache=True, nogil=True)
def candidates(ctx, T, t, greens, least, limit):
    """Allowed guesses whose guess bound is below ``limit``, in scan order, with those bounds, and
    the least guess bound of the others (INF if none)."""
    F, cost, hard, codes, counts, FT = ctx.feedback, ctx.cost, ctx.hard, ctx.codes, ctx.counts, ctx.feedback_t
    G = F.shape[0]
    n = T.shape[0]
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
    top = heaviest(ctx, T)  # the guess bound with weights: top(h) c[t] + (top(k) - top(h)) c[t+1] + ...
    W = top[n]
    for g in range(G):
        if hard and not allows(greens, least, codes[g], counts[g]):
            continue
        k = 0
        stamp = g + 1
        for i in range(n):
            p = FT[T[i], g]  # answer-major: consecutive guesses share cache lines
            if seen[p] != stamp:
                seen[p] = stamp
                size[p] = 0
                touched[k] = p
                k += 1
            size[p] += 1
        h = 1 if seen[green] == stamp else 0
        if k == 1 and h == 0:
            continue  # tells nothing
        lb = times(top[h], c0)
        lb = sat(lb + (top[k] - top[h]) * c1) if c1 < INF or k - h == 0 else INF
        if W - top[k] > 0:
            lb = sat(lb + (W - top[k]) * c2) if c2 < INF else INF
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
def search_node(ctx, memo, T, t, greens, least, beta, greedy, stats, forced):
    """(cost(T, t), best guess) when the cost is below beta; else (a bound >= beta, -1).

    With ``forced`` >= 0 only that guess is evaluated (nothing is read from or written to the
    memo for T itself). With ``greedy`` the first feasible guess in scan order is taken at every
    node (an upper bound; the memo is not used). ``beta``: see the module's docstring (Search).
    """
    # long: one recursive numba kernel: the node's scratch arrays (members, start, size, pend, ...)
    # serve every guess of the loop, and a helper holding the guess loop would make the recursion
    # mutual, which numba types only through explicit signatures; the hot path of every search
    F, ans_row, cost, hard, codes = ctx.feedback, ctx.answer_row, ctx.cost, ctx.hard, ctx.codes
    npat = 3 ** codes.shape[1]
    green = npat - 1
    n = T.shape[0]
    stats[0] += 1
    h = np.int64(0)
    if forced < 0:
        if n == 0:
            return np.int64(0), np.int64(-1)
        if n == 1:
            return times(ctx.weight[T[0]], cost[t]), ans_row[T[0]]
        if cost[t + 1] >= INF:
            return INF, np.int64(-1)
        k = min(n, ctx.most_classes) if ctx.sharp else n
        lb = floor_of(ctx, T, t, k, k)
        if n == 2:  # name the heavier first: w1 c[t] + w2 c[t+1], the node bound
            return lb, ans_row[T[1] if ctx.weight[T[1]] > ctx.weight[T[0]] else T[0]]
        if not greedy:
            h = memo_key(ctx, T, t, greens, least)
            i = memo_find(ctx, memo, h, T, t, greens, least)
            if i < 0:  # first visit: the sharper bound of quick (exact in easy cases)
                v, ok, row = quick(ctx, memo, h, T, t, greens, least, lb)
                if ok:
                    return v, row
                lb = v
            else:
                if memo.exact[i]:
                    return memo.value[i], memo.guess[i]
                if memo.value[i] >= beta:
                    return memo.value[i], np.int64(-1)
                if memo.value[i] > lb:
                    lb = memo.value[i]
        else:
            # greedy: an answer of T that splits T into singletons attains the node bound
            row = _near_splitters(F, ans_row, T, npat, ctx.weight, heaviest_weight(ctx, T))[0]
            if row >= 0:
                return lb, row
        if lb >= beta:
            return lb, np.int64(-1)
        if ctx.sharp and not greedy:
            L = tight_endgame(ctx, T, t, greens, least)
            if L.shape[0] > 0:  # the endgame alone (argued in tight_endgame)
                rest = outside_rest(ctx, T, L, t)
                v, _ = search_node(ctx, memo, L, t, greens, least, max(beta - rest, np.int64(1)), greedy, stats,
                                   np.int64(-1))
                if sat(v + rest) > lb:
                    lb = sat(v + rest)
                    if lb >= beta:
                        memo_store(ctx, memo, h, T, t, greens, least, lb, False, np.int64(-1))
                        return lb, np.int64(-1)
        stats[1] += 1
        cand, lbs, soft = candidates(ctx, T, t, greens, least, beta)
    else:
        lb = np.int64(0)
        cand = np.full(1, forced, dtype=np.int64)
        lbs = np.zeros(1, dtype=np.int64)
        soft = INF
    # soft: a lower bound on every guess not known exactly (fail-soft: when no guess gets below
    # beta, min(best, soft) >= beta is a valid, often larger, lower bound of the node)
    best = INF
    best_guess = np.int64(-1)
    c0 = cost[t]
    pend = np.empty(npat, dtype=np.int64)
    pbound = np.empty(npat, dtype=np.int64)
    members = np.empty(n, dtype=np.int64)
    start = np.empty(npat + 1, dtype=np.int64)
    size = np.empty(npat, dtype=np.int64)
    fill = np.empty(npat, dtype=np.int64)
    for j in range(cand.shape[0]):
        guess_beta = min(best, beta)
        if lbs[j] >= guess_beta:
            soft = min(soft, lbs[j])  # the guesses left are in bound order
            break
        # the cost of guess g against guess_beta = min(best, beta): exact below it, else a bound >= it
        g = cand[j]
        _split_into(F, g, T, npat, members, start, size, fill)
        total = np.int64(0)
        m = 0
        for p in range(npat):
            s = size[p]
            if s == 0:
                continue
            if p == green:
                total = sat(total + times(ctx.weight[ctx.row_answer[g]], c0))
            else:
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                b = node_bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2)
                total = sat(total + b)
                if s >= 3:
                    pend[m] = p
                    pbound[m] = b
                    m += 1
            if total >= guess_beta:
                break
        if total < guess_beta:
            # smallest classes first: each is cheap, and every exact value lowers the beta
            # left for the larger ones (a larger class is likelier to fail, but costs more to try)
            order = np.argsort(size[pend[:m]], kind="mergesort")
            for r in range(m):
                p = pend[order[r]]
                b = pbound[order[r]]
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                v, _ = search_node(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2, guess_beta - (total - b),
                             greedy, stats, np.int64(-1))
                total = sat(total - b + v)
                if total >= guess_beta:
                    break
        if total < guess_beta and ctx.sharp and not greedy:
            _store_unions(ctx, memo, g, members, start, size, t, greens, least)
        if forced >= 0:
            return total, (g if total < beta else np.int64(-1))
        if total >= guess_beta:
            soft = min(soft, total)
        if total < best:
            best = total
            best_guess = g
            if greedy:
                break
    if best < beta:
        if not greedy:
            memo_store(ctx, memo, h, T, t, greens, least, best, True, best_guess)
        return best, best_guess
    bound = max(lb, min(best, soft))
    if not greedy:
        memo_store(ctx, memo, h, T, t, greens, least, bound, False, np.int64(-1))
    return bound, np.int64(-1)


@numba.njit(cache=True, nogil=True)
def _store_unions(ctx, memo, g, members, start, size, t, greens, least):
    """Lower bounds for the unions of classes that a guess with a letter known absent would make,
    kept in the memo (Selby's "at least it's better than wasting a letter"), after every class of g
    on T was solved exactly (their values are in the memo).

    A guess g' equal to g but for a letter absent from every answer of T at position i scores every
    answer gray at i; its class with pattern s0 (gray at i) is then typically the union U of g's
    classes s0, s0 + yellow_i and s0 + green_i. Two bounds hold for U at step t + 1:

    - normal mode: cost(U) >= the sum of the costs of its parts, since the best tree for U, restricted
      to each part, is a tree for that part with the same costs (the green class {g} counts c[t + 1]);
    - hard mode: cost(U) >= cost(P0) under the constraint of g's class P0 = s0 (gray at i adds nothing
      to that constraint, so g' leads to U under the same one), since U contains P0 and the same
      guesses are allowed.

    So when g' comes up, the class bound of U is read from the memo and it is rejected at once.
    """
    hard, codes = ctx.hard, ctx.codes
    Lw = codes.shape[1]
    npat = 3 ** Lw
    val, known = _class_values(ctx, memo, g, members, start, size, t, greens, least)
    if not known:
        return  # not every class is known exactly (a class served from quick's bound)
    for i in range(Lw):
        w = 3 ** i
        for p in range(npat):
            if size[p] == 0:
                continue
            d = (p // w) % 3
            s0 = p - d * w
            # each union once: from its first non-empty variant
            first = 0
            while size[s0 + first * w] == 0:
                first += 1
            if d != first:
                continue
            parts = 0
            n = 0
            bound = np.int64(0)
            for a in range(3):
                q = s0 + a * w
                if size[q] > 0:
                    parts += 1
                    n += size[q]
                    bound = sat(bound + val[q])
            if parts < 2 or n > UNION_MAX:
                continue
            if hard:
                if size[s0] == 0:
                    continue
                bound = val[s0]
                g2, l2 = add_feedback(greens, least, codes[g], s0)
            else:
                g2, l2 = greens, least
            U = _union(members, start, s0, w, n)
            if bound > node_bound(ctx, memo, U, t + 1, g2, l2):
                memo_store(ctx, memo, memo_key(ctx, U, t + 1, g2, l2), U, t + 1, g2, l2, bound, False,
                           np.int64(-1))


@numba.njit(cache=True, nogil=True)
def _class_values(ctx, memo, g, members, start, size, t, greens, least):
    """(the value of each class of g on T at step t + 1, all known exactly?): the green class
    costs c[t + 1], a class of one or two answers its node bound (exact there), a larger one its
    exact value from the memo; False as soon as a larger class has none."""
    cost, hard, codes = ctx.cost, ctx.hard, ctx.codes
    npat = 3 ** codes.shape[1]
    green = npat - 1
    val = np.zeros(npat, dtype=np.int64)
    for p in range(npat):
        if size[p] == 0:
            continue
        if p == green:
            val[p] = times(ctx.weight[ctx.row_answer[g]], cost[t + 1])
            continue
        if hard:
            g2, l2 = add_feedback(greens, least, codes[g], p)
        else:
            g2, l2 = greens, least
        P = members[start[p]:start[p + 1]]
        if P.shape[0] <= 2:
            val[p] = node_bound(ctx, memo, P, t + 1, g2, l2)
            continue
        i = memo_find(ctx, memo, memo_key(ctx, P, t + 1, g2, l2), P, t + 1, g2, l2)
        if i < 0 or not memo.exact[i]:
            return val, False
        val[p] = memo.value[i]
    return val, True


@numba.njit(cache=True, nogil=True)
def _union(members, start, s0, w, n):
    """The sorted union U (n answers) of the classes s0, s0 + yellow_i, s0 + green_i (w = 3^i)."""
    U = np.empty(n, dtype=np.int64)
    k = 0
    for a in range(3):
        q = s0 + a * w
        for r in range(start[q], start[q + 1]):
            U[k] = members[r]
            k += 1
    U.sort()
    return U


@numba.njit(cache=True, nogil=True)
def outside_rest(ctx, T, L, t):
    """The least cost of the answers of T outside its subset L at step t (L, T sorted): each costs
    at least c[t + 1] but one, named at step t: ``c[t] + (|T| - |L| - 1) c[t+1]``; with weights the
    one named at t is at best the heaviest of them, ``w_max c[t] + (W_out - w_max) c[t+1]``."""
    cost = ctx.cost
    n, m = T.shape[0], L.shape[0]
    if ctx.unit:
        return sat(cost[t] + (n - m - 1) * cost[t + 1])
    total, most = np.int64(0), np.int64(0)
    j = 0
    for i in range(n):
        while j < m and L[j] < T[i]:
            j += 1
        if j < m and L[j] == T[i]:
            continue
        w = ctx.weight[T[i]]
        total += w
        most = max(most, w)
    return sat(times(most, cost[t]) + times(total - most, cost[t + 1]))
