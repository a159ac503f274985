"""The memo of the fewest-guesses search (:mod:`exact.wordle.fewest.kernels`): exact values and lower
bounds of nodes, keyed on the exact member set, the step and the hard-mode constraint.

A 64-bit Zobrist hash only finds candidates, which are compared member by member, so a collision can
never return a wrong value. ``ctx`` is the instance record :class:`exact.wordle.fewest.context.Context`,
the memo a :class:`Memo`; sets and steps as in :mod:`exact.wordle.fewest.kernels`.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List

INF = np.int64(1) << np.int64(60)  # "impossible": a step past max_guesses


class Memo(NamedTuple):
    """The memo's typed containers (numba reads it as a struct of them, as it reads
    :class:`exact.wordle.fewest.context.Context`).

    ``table``: Zobrist hash -> the newest entry with that hash. Then one slot per entry i:
    ``next[i]`` the next (older) entry with the same hash, or -1; ``value[i]`` the node's exact cost
    (``exact[i]``) or a proven lower bound of it (not ``exact[i]``); ``guess[i]`` the best guess row
    when exact, else -1; ``step[i]``, ``members[i]`` (the sorted answer columns) and ``rules[i]``
    (hard mode: the constraint's greens then least, see :func:`_rule`; else empty) the node itself,
    compared in full on every hit of the hash.
    """

    table: Dict
    next: List
    value: List
    exact: List
    guess: List
    step: List
    members: List
    rules: List


def new_memo() -> Memo:
    return Memo(Dict.empty(types.int64, types.int64), List.empty_list(types.int64),
                List.empty_list(types.int64), List.empty_list(types.boolean), List.empty_list(types.int64),
                List.empty_list(types.int64), List.empty_list(types.int64[::1]), List.empty_list(types.int8[::1]))


def memo_size(memo: Memo) -> int:
    """How many nodes the memo holds."""
    return len(memo.value)


@numba.njit(cache=True, nogil=True)
def sat(x):
    return x if x < INF else INF


@numba.njit(cache=True, nogil=True)
def memo_key(ctx, T, t, greens, least):
    z, zt, zg, zl = ctx.zobrist_answer, ctx.zobrist_step, ctx.zobrist_green, ctx.zobrist_least
    h = zt[t]
    for i in range(T.shape[0]):
        h ^= z[T[i]]
    if ctx.hard:
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
def memo_find(ctx, memo, h, T, t, greens, least):
    table, nxt, members, step, rules = memo.table, memo.next, memo.members, memo.step, memo.rules
    if h not in table:
        return -1
    i = table[h]
    hard = ctx.hard
    L = greens.shape[0]
    while i >= 0:
        m = members[i]
        same = step[i] == t and m.shape[0] == T.shape[0]
        if same:
            for r in range(T.shape[0]):
                if m[r] != T[r]:
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
def memo_store(ctx, memo, h, T, t, greens, least, value, is_exact, guess):
    table, nxt, val, exact, best = memo.table, memo.next, memo.value, memo.exact, memo.guess
    i = memo_find(ctx, memo, h, T, t, greens, least)
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
    memo.step.append(t)
    memo.members.append(T.copy())
    memo.rules.append(_rule(greens, least) if ctx.hard else np.empty(0, dtype=np.int8))
