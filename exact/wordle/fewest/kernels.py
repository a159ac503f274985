"""The numba search of the fewest-guesses solver (:mod:`exact.wordle.fewest.search`): its node.

Data types: ``ctx`` the instance record the kernels read, :class:`exact.wordle.fewest.context.Context`
(each field's meaning is in its docstring; the cost table ``c`` is ``ctx.cost``), ``memo`` a
:class:`exact.wordle.fewest.memo.Memo`; a set ``T`` a sorted int64 array of answer columns; ``t``
the step (1 = the first guess); (``greens``, ``least``) the hard-mode constraint of
:mod:`exact.game.hard`; ``INF`` a step past max_guesses.

Lower bounds: each with its argument in :mod:`exact.wordle.fewest.lower_bounds`; the scan over guesses
and the look-ahead in :mod:`exact.wordle.fewest.scan`.

Search: depth-first branch and bound in numba, each call given ``beta``, the value at or above which
a subtree is only bounded: a call returns the exact cost when it is below beta, else a lower bound
>= beta. The same name carries it from the library entry down: ``cutoff + 1`` (``--cutoff``) or the
incumbent in :func:`exact.wordle.fewest.search.solve_guesses` and the ranking
(:class:`exact.wordle.fewest.ranking.FewestSearch`), then ``first_value``, ``node_value`` and the
kernels here; a class is given the beta its guess has left, ``beta - (the rest of the guess's total)``.
The memo is keyed on the exact member set, the step and (hard mode) the constraint; it keeps exact values with their best guess and lower
bounds from failed searches; a 64-bit Zobrist hash only finds candidates, which are compared member
by member, so a collision can never return a wrong value. Hard mode uses the rule of
:mod:`exact.game.hard` (the answers still possible always satisfy it, so they are always playable).
"""

from __future__ import annotations

import numba
import numpy as np

from exact.wordle.fewest.endgame import tight_endgame
from exact.wordle.fewest.lower_bounds import (_near_splitters, floor_of, heaviest_weight, most_classes_at, node_bound,
                                              quick, times)
from exact.wordle.fewest.memo import INF, memo_find, memo_key, memo_store, sat
from exact.wordle.fewest.scan import _split_into, candidates, class_bound_sum, rule_after

UNION_MAX = 40  # the largest union kept: each costs a quick() of O(n^2) when it is new


@numba.njit(cache=True, nogil=True)
def search_node(ctx, memo, T, t, greens, least, beta, greedy, stats, forced):
    """(cost(T, t), best guess) when the cost is below beta; else (a bound >= beta, -1).

    With ``forced`` >= 0 only that guess is evaluated (nothing is read from or written to the
    memo for T itself). With ``greedy`` the first feasible guess in scan order is taken at every
    node (an upper bound; the memo is not used). ``beta``: see the module's docstring (Search).
    """
    # long: the recursion itself (the endgame and every class of a guess call back here); what does not
    # recurse is in _open_node, scan.class_bound_sum and _close_node (mutual recursion needs signatures)
    F = ctx.feedback
    npat = 3 ** ctx.codes.shape[1]
    stats[0] += 1
    h = np.int64(0)
    if forced < 0:
        done, lb, row, h = _open_node(ctx, memo, T, t, greens, least, beta, greedy)
        if done:
            return lb, row
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
        lb, soft = np.int64(0), INF
        cand = np.full(1, forced, dtype=np.int64)
        lbs = np.zeros(1, dtype=np.int64)
    # soft: a lower bound on every guess not known exactly (fail-soft: when no guess gets below
    # beta, min(best, soft) >= beta is a valid, often larger, lower bound of the node)
    best, best_guess = INF, np.int64(-1)
    pend = np.empty(npat, dtype=np.int64)
    pbound = np.empty(npat, dtype=np.int64)
    members = np.empty(T.shape[0], dtype=np.int64)
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
        total, m = class_bound_sum(ctx, memo, g, t, greens, least, guess_beta, members, start, size, pend, pbound)
        if total < guess_beta:
            # smallest classes first: each is cheap, and every exact value lowers the beta
            # left for the larger ones (a larger class is likelier to fail, but costs more to try)
            order = np.argsort(size[pend[:m]], kind="mergesort")
            for r in range(m):
                p = pend[order[r]]
                b = pbound[order[r]]
                g2, l2 = rule_after(ctx, greens, least, g, p)
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
    return _close_node(ctx, memo, h, T, t, greens, least, beta, greedy, lb, best, best_guess, soft)


@numba.njit(cache=True, nogil=True)
def _open_node(ctx, memo, T, t, greens, least, beta, greedy):
    """What a node knows before any guess is tried: (done, value, row, memo hash). ``done`` with
    (value, row) the node's answer: its cost when it is settled without a search (0, 1 or 2 answers,
    no guess left, the memo's exact value, quick's exact value, a greedy singleton splitter), or a
    bound >= beta and row -1. Else value is the node's lower bound so far (the floor, raised by the
    memo's bound or quick's), below beta."""
    ans_row, cost = ctx.answer_row, ctx.cost
    n = T.shape[0]
    h = np.int64(0)
    if n == 0:
        return True, np.int64(0), np.int64(-1), h
    if n == 1:
        return True, times(ctx.weight[T[0]], cost[t]), ans_row[T[0]], h
    if cost[t + 1] >= INF:
        return True, INF, np.int64(-1), h
    k = min(n, most_classes_at(ctx, greens)) if ctx.sharp else n
    lb = floor_of(ctx, T, t, k, k)
    if n == 2:  # name the heavier first: w1 c[t] + w2 c[t+1], the node bound
        return True, lb, ans_row[T[1] if ctx.weight[T[1]] > ctx.weight[T[0]] else T[0]], h
    if not greedy:
        h = memo_key(ctx, T, t, greens, least)
        i = memo_find(ctx, memo, h, T, t, greens, least)
        if i < 0:  # first visit: the sharper bound of quick (exact in easy cases)
            v, ok, row = quick(ctx, memo, h, T, t, greens, least, lb)
            if ok:
                return True, v, row, h
            lb = v
        else:
            if memo.exact[i]:
                return True, memo.value[i], memo.guess[i], h
            if memo.value[i] >= beta:
                return True, memo.value[i], np.int64(-1), h
            lb = max(lb, memo.value[i])
    else:
        # greedy: an answer of T that splits T into singletons attains the node bound
        npat = 3 ** ctx.codes.shape[1]
        row = _near_splitters(ctx.feedback, ans_row, T, npat, ctx.weight, heaviest_weight(ctx, T))[0]
        if row >= 0:
            return True, lb, row, h
    return lb >= beta, lb, np.int64(-1), h


@numba.njit(cache=True, nogil=True)
def _close_node(ctx, memo, h, T, t, greens, least, beta, greedy, lb, best, best_guess, soft):
    """The node's answer once its guesses are tried, recorded in the memo (not when greedy): the best
    cost and guess when below beta (exact), else the fail-soft bound max(lb, min(best, soft)) >= beta."""
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
            g2, l2 = rule_after(ctx, greens, least, g, s0)
            U = _union(members, start, s0, w, n)
            if bound > node_bound(ctx, memo, U, t + 1, g2, l2):
                memo_store(ctx, memo, memo_key(ctx, U, t + 1, g2, l2), U, t + 1, g2, l2, bound, False,
                           np.int64(-1))


@numba.njit(cache=True, nogil=True)
def _class_values(ctx, memo, g, members, start, size, t, greens, least):
    """(the value of each class of g on T at step t + 1, all known exactly?): the green class
    costs c[t + 1], a class of one or two answers its node bound (exact there), a larger one its
    exact value from the memo; False as soon as a larger class has none."""
    cost, codes = ctx.cost, ctx.codes
    npat = 3 ** codes.shape[1]
    green = npat - 1
    val = np.zeros(npat, dtype=np.int64)
    for p in range(npat):
        if size[p] == 0:
            continue
        if p == green:
            val[p] = times(ctx.weight[ctx.row_answer[g]], cost[t + 1])
            continue
        g2, l2 = rule_after(ctx, greens, least, g, p)
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
