"""The memo of the fewest-guesses search (:mod:`exact.wordle.fewest.kernels`): exact values and lower
bounds of nodes, keyed on the exact member set, the step and the hard-mode constraint.

A 64-bit Zobrist hash only finds candidates, which are compared member by member, so a collision can
never return a wrong value. Data types as in :mod:`exact.wordle.fewest.kernels` (``ctx``, sets, steps).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List

INF = np.int64(1) << np.int64(60)  # "impossible": a step past max_guesses


# ctx = (F, ans_row, row_ans, cost, hard, codes, counts, z, zt, zg, zl): the feedback matrix
# (guesses x answers), answer -> guess row, guess row -> answer or -1, the cost table, hard mode,
# encoded guesses and their letter counts, the Zobrist tables (answers, steps, greens, counts),
# whether the sharper class bound of quick is used (False: the baseline of the benchmark), and m,
# the most classes any guess makes on the whole answer list (the bound of _floor), and F transposed
# (answers x guesses: the scan over every guess of candidates reads it row by row); then the
# endgames of :mod:`exact.wordle.fewest.endgame`: answer -> endgame per blanked position, the
# capacities of each endgame, its members and their starts.
# memo = (table, nxt, val, exact, guess, step, members, rules): hash -> first entry, then per entry
# the next entry with that hash, value, exact?, best guess, step, member set, constraint.

def new_memo():
    return (Dict.empty(types.int64, types.int64), List.empty_list(types.int64),
            List.empty_list(types.int64), List.empty_list(types.boolean), List.empty_list(types.int64),
            List.empty_list(types.int64), List.empty_list(types.int64[::1]), List.empty_list(types.int8[::1]))


@numba.njit(cache=True, nogil=True)
def sat(x):
    return x if x < INF else INF


@numba.njit(cache=True, nogil=True)
def memo_key(ctx, S, t, greens, least):
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
def memo_find(ctx, memo, h, S, t, greens, least):
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
def memo_store(ctx, memo, h, S, t, greens, least, value, is_exact, guess):
    table, nxt, val, exact, best = memo[0], memo[1], memo[2], memo[3], memo[4]
    i = memo_find(ctx, memo, h, S, t, greens, least)
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
