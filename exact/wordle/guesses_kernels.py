"""The numba search of the fewest-guesses solver (:mod:`exact.wordle.guesses`): memo, bounds, node.

Data types (as in :mod:`exact.wordle.guesses`): ``ctx`` the instance tuple the kernels read
(feedback matrix, answer rows, cost table ``c``, hard flag, guess codes and letter counts, Zobrist
keys); a set ``S`` a sorted int64 array of answer columns; ``t`` the step (1 = the first guess);
(``greens``, ``least``) the hard-mode constraint of :mod:`exact.game.hard`; ``INF`` a step past
max_guesses.

Lower bounds (each one is a lower bound on the cost of every tree it is used for; all use only that
c is non-decreasing and that at most one answer is solved by each guess):

- *node bound*: a set S of n answers at step t costs at least ``c[t] + (n - 1) c[t+1]``: one guess
  names at most one answer, so at most one answer is solved at step t, the others at t + 1 or later.
  For c[s] = s this is Selby's 2n - 1. It is attained exactly by an answer of S that splits S into
  singletons, so when one exists the node is solved without looking at other guesses;
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
:mod:`exact.game.hard` (the answers still possible always satisfy it, so they are always playable).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List

from exact.game.hard import add_feedback, allows

INF = np.int64(1) << np.int64(60)  # "impossible": a step past max_guesses


# --- numba search -----------------------------------------------------------------------------
#
# ctx = (F, ans_row, row_ans, cost, hard, codes, counts, z, zt, zg, zl): the feedback matrix
# (guesses x answers), answer -> guess row, guess row -> answer or -1, the cost table, hard mode,
# encoded guesses and their letter counts, the Zobrist tables (answers, steps, greens, counts), and
# whether the sharper class bound of quick is used (False: the baseline of the benchmark).
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
def node_bound(ctx, memo, S, t, greens, least):
    """The best lower bound known for (S, t): the node bound, or the memo's value if larger."""
    cost = ctx[3]
    n = S.shape[0]
    if n == 0:
        return 0
    if n == 1:
        return cost[t]
    lb = _sat(cost[t] + (n - 1) * cost[t + 1]) if cost[t + 1] < INF else INF
    if n >= 3 and lb < INF:
        h = _key(ctx, S, t, greens, least)
        i = _find(ctx, memo, h, S, t, greens, least)
        if i >= 0:
            return max(lb, memo[2][i])
        if ctx[11]:
            v, _, _ = quick(ctx, memo, h, S, t, greens, least, lb)
            return v
    return lb


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
def quick(ctx, memo, h, S, t, greens, least, lb):
    """The node bound made sharper in O(n^2), stored in the memo: (value, exact?, guess).

    If an answer of S splits S into singletons, the node bound lb is the exact value. Otherwise
    every guess either names no answer now (h = 0: every answer at t + 1 or later, so >= n c[t+1]
    = lb + c[t+1] - c[t]) or names one and leaves some class of two or more (at most n - 2 answers
    at t + 1, so >= c[t] + (n - 2) c[t+1] + c[t+2] = lb + c[t+2] - c[t+1]): the value is at least
    lb + min(c[t+1] - c[t], c[t+2] - c[t+1]). With n = 3 the second case is attained by any answer
    of S (it names one, the other two form a pair: c[t] + c[t+1] + c[t+2]), so when c[t+2] - c[t+1]
    <= c[t+1] - c[t] that is the exact value.
    """
    F, ans_row, cost, codes = ctx[0], ctx[1], ctx[3], ctx[5]
    npat = 3 ** codes.shape[1]
    n = S.shape[0]
    row = _singleton_splitter(F, ans_row, S, npat)
    if row >= 0:
        _store(ctx, memo, h, S, t, greens, least, lb, True, row)
        return lb, True, row
    if not ctx[11]:  # the baseline: the node bound only
        return lb, False, np.int64(-1)
    d1 = cost[t + 1] - cost[t]
    d2 = _sat(cost[t + 2]) - cost[t + 1] if cost[t + 2] < INF else INF
    if n == 3 and d2 <= d1 and d2 < INF:
        v = _sat(lb + d2)
        _store(ctx, memo, h, S, t, greens, least, v, True, ans_row[S[0]])
        return v, True, ans_row[S[0]]
    v = _sat(lb + min(d1, d2))
    _store(ctx, memo, h, S, t, greens, least, v, False, np.int64(-1))
    return v, False, np.int64(-1)


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
def candidates(ctx, S, t, greens, least, limit):
    """Allowed guesses whose guess bound is below ``limit``, in scan order, with those bounds, and
    the least guess bound of the others (INF if none)."""
    F, row_ans, cost, hard, codes, counts = ctx[0], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6]
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
            p = F[g, S[i]]
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
    o1 = np.argsort(sq[:m], kind="mergesort")
    o2 = np.argsort(lbs[:m][o1], kind="mergesort")
    order = o1[o2]
    return cand[:m][order], lbs[:m][order], rest


@numba.njit(cache=True, nogil=True)
def search_node(ctx, memo, S, t, greens, least, beta, greedy, stats, forced):
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
        if n == 2:
            return lb, ans_row[S[0]]
        if not greedy:
            h = _key(ctx, S, t, greens, least)
            i = _find(ctx, memo, h, S, t, greens, least)
            if i < 0:  # first visit: the sharper bound of quick (exact in easy cases)
                v, ok, row = quick(ctx, memo, h, S, t, greens, least, lb)
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
        cand, lbs, soft = candidates(ctx, S, t, greens, least, beta)
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
                b = node_bound(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2)
                total = _sat(total + b)
                if s >= 3:
                    pend[m] = p
                    pbound[m] = b
                    m += 1
            if total >= thr:
                break
        if total < thr:
            # largest classes first: they are the likeliest to push the total over the threshold
            order = np.argsort(-size[pend[:m]], kind="mergesort")
            for r in range(m):
                p = pend[order[r]]
                b = pbound[order[r]]
                if hard:
                    g2, l2 = add_feedback(greens, least, codes[g], p)
                else:
                    g2, l2 = greens, least
                v, _ = search_node(ctx, memo, members[start[p]:start[p + 1]], t + 1, g2, l2, thr - (total - b),
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
