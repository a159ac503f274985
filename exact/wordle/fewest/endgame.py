"""The endgame bound of the fewest-guesses search: answers that differ at one position only.

Data types as in :mod:`exact.wordle.fewest.kernels`. An *endgame* E is a set of answers that agree
at every position but one, w (``_ight``: eight, fight, light, might, night, ...): the answers that
share one word with position w blanked out, at least ``MIN_ENDGAME`` of them. For a set T of answers
still possible, L = E ∩ T.

The default class. For a guess g, call x in L *default* when it scores what it would score with
a letter g lacks at position w. All default answers score alike (at every other position they
have the same letters). A non-default x differs from that default score only at positions where g
has the letter x[w] (the letters other than x[w] are counted the same, and w is green only if
g[w] = x[w]); two non-default answers, with letters l1 != l2 at w, differ from it at disjoint
positions, so each non-default class of g on L holds exactly one answer. (A letter of g need not
make x non-default: ``older`` scores ``odder`` and ``order`` alike, its d and r being taken by its
own greens.) So g splits L into one default class and ``u_g(L)`` singletons, u_g(L) = |L| - (the
size of the largest class) when that class has two answers or more (it is then the default one),
and at most |L| otherwise. For L ⊆ E, u_g(L) <= u_g(E): the non-default answers of L are
non-default answers of E.

The bound. Follow, in any strategy for T, the *default path*: the guesses played while the answer
is in the default class of every guess so far. Every answer of L follows it until a guess makes it
non-default; after i guesses of that path at most U_1 + ... + U_i answers of L have left it, U_j the
j-th largest u_g over the allowed guesses (a repeated guess splits nothing new; in hard mode the
guesses allowed further down are a subset of those allowed at T). An answer that leaves at the i-th
guess (step t + i - 1) is named by that guess (at most one: the guess itself), cost >= c[t + i - 1],
or needs one more guess, cost >= c[t + i]. c is non-decreasing, so leaving as early as possible is
cheapest, and

    EB(L, t) = sum over i >= 1 of  c[t + i - 1] + (k_i - 1) c[t + i],   k_i = min(U_i, answers left)

(until none are left) is a lower bound on the answers of L; c = INF past max_guesses makes it
infinite when too many are left for the guesses left: that is Selby's ".ATCH" cut (the guesses left
cannot cover the letters still open). The other answers of T each cost at least c[t + 1], except one
named at step t; EB already gives that step's naming to L, and if an answer outside L is named at t
instead, the answers of L cost at least c[t + 1] - c[t] more than EB. So

    cost(T, t) >= EB(L, t) + (|T| - |L|) c[t + 1].

The capacities U come from a table computed once per endgame over every allowed guess
(:func:`endgame_caps`), so the bound costs a sort of the endgames T meets. In hard mode a guess must
repeat every green of the constraint, and a letter at a green position distinguishes nothing (that
position is green for every answer of L, and its letter is used up there), so a guess allowed at
the node makes at most as many answers non-default as the constraint has non-green positions: the
capacities are capped at that number. For the ".ATCH" trap of hard mode (four greens known) that is
one answer per guess. The constraint also makes a guess hold every letter its yellows demand:
``least[x] - (greens of x)`` more copies of each letter x, R in all, at non-green positions. Those
R positions can make an answer non-default only with a letter that some answer of E has at w (a
letter of E), so the cap is (non-green positions) - R + (the copies among the R whose letter is a
letter of E) (the letters of E: ``letters[e]``, a bit per letter, a superset of those of L).
After donko's ``YGYBB`` (an o green, a d and an n demanded), the eight answers ``_ound`` meet
guesses that can make at most 4 - 2 = 2 of them non-default each, not 4 (the words allowed there
make only one each: a capacity over the allowed words, as Selby's cut has, is not built).

Weights (a tree's value ``sum_a w_a c[s(a)]``). EB counts, for each step, the most answers of L a
strategy can have solved by then: min(|L|, U_1 + ... + U_j + 1) by step t + j (those that left the
default path at its first j guesses, and the one the next guess names). Every strategy's counts are
at most these at every step, so its sorted steps are, one by one, no earlier than EB's slots; the
cheapest weighted sum over such steps puts the heaviest answers of L on the earliest slots (c is
non-decreasing), which is ``EB_w(L, t)`` (:func:`eb_weighted`: the slots of EB, in order, times
L's weights, heaviest first). The answers outside L (weight W_out, heaviest w_out) cost at least
c[t + 1] each, but one of them may be named at step t; then no answer of L is named at t, and L's
slots are those of EB with its first one moved to c[t + 1] (``EB'_w``). So

    cost(T, t) >= min(EB_w(L, t) + W_out c[t+1],  EB'_w(L, t) + W_out c[t+1] - w_out (c[t+1] - c[t])),

which with unit weights is the counting bound above (EB' = EB + c[t+1] - c[t], w_out = 1).
"""

from __future__ import annotations

import numba
import numpy as np

from exact.feedback import encode
from exact.wordle.fewest.memo import INF, sat

MIN_ENDGAME = 3  # the least endgame worth a bound: with two answers the node bound is exact


def endgames(codes: np.ndarray, ans_row: np.ndarray, max_guesses: int):
    """(ans_end, members, start, caps, letters): the endgames of the answer list.

    ``ans_end[a, w]`` is the endgame of answer a with position w blanked out (-1 if fewer than
    MIN_ENDGAME answers share it); endgame e holds the answers ``members[start[e]:start[e + 1]]``;
    ``caps[e]`` is left for :func:`endgame_caps` to fill; ``letters[e]`` has bit x set when an
    answer of e has letter x at its blanked position.
    """
    A = codes[ans_row]
    n, L = A.shape
    ans_end = np.full((n, L), -1, dtype=np.int64)
    groups, letters = [], []
    for w in range(L):
        blank = np.delete(A, w, axis=1)
        _, inverse, counts = np.unique(blank, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        for k in np.flatnonzero(counts >= MIN_ENDGAME):
            who = np.flatnonzero(inverse == k)
            ans_end[who, w] = len(groups)
            groups.append(who)
            letters.append(sum(1 << int(x) for x in np.unique(A[who, w])))
    start = np.zeros(len(groups) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(g) for g in groups]) if groups else 0
    members = np.concatenate(groups).astype(np.int64) if groups else np.zeros(0, dtype=np.int64)
    caps = np.zeros((len(groups), max_guesses + 1), dtype=np.int64)
    return ans_end, members, start, caps, np.array(letters, dtype=np.int64)


def endgame_groups(words, min_size: int = MIN_ENDGAME) -> list[tuple[str, list[str]]]:
    """The endgames of a word list (a WordList or a sequence of words) with at least ``min_size``
    words, largest first (ties by name): (the shared word with ``_`` at the position that differs,
    its words in list order). A word can be in several (one per position).

    >>> endgame_groups(["bight", "fight", "light", "crane", "crate", "craze", "might"], 3)
    [('_ight', ['bight', 'fight', 'light', 'might']), ('cra_e', ['crane', 'crate', 'craze'])]
    """
    words = list(getattr(words, "words", words))
    if not words:
        return []
    ans_end, members, start, _, _ = endgames(encode(words), np.arange(len(words)), 1)
    out = []
    for e in range(start.shape[0] - 1):
        who = members[start[e]:start[e + 1]]
        if len(who) < max(min_size, MIN_ENDGAME):
            continue
        w = int(np.flatnonzero(ans_end[who[0]] == e)[0])
        name = words[who[0]][:w] + "_" + words[who[0]][w + 1:]
        out.append((name, [words[a] for a in sorted(who)]))
    return sorted(out, key=lambda g: (-len(g[1]), g[0]))


@numba.njit(cache=True, nogil=True)
def _u(FT, g, L, npat, seen, size):
    """u_g(L), or |L| when every class is a singleton: the answers of L (answer columns) outside
    the largest class when it has two or more (see the module)."""
    m = L.shape[0]
    most = 0
    for i in range(m):
        p = FT[L[i], g]
        if seen[p] != g + 1:
            seen[p] = g + 1
            size[p] = 0
        size[p] += 1
        if size[p] > most:
            most = size[p]
    return m - most if most >= 2 else m


@numba.njit(cache=True, nogil=True)
def _top(hist, m, caps):
    """caps[0..] = the largest values, largest first, from a histogram of values 0..m."""
    j = 0
    for v in range(m, 0, -1):
        c = hist[v]
        while c > 0 and j < caps.shape[0]:
            caps[j] = v
            j += 1
            c -= 1
        if j == caps.shape[0]:
            break
    while j < caps.shape[0]:
        caps[j] = 0
        j += 1


@numba.njit(cache=True, nogil=True)
def endgame_caps(FT, members, start, npat, caps):
    """Fill caps[e]: the largest u_g(E) over every guess, largest first."""
    G = FT.shape[1]
    seen = np.zeros(npat, dtype=np.int64)
    size = np.zeros(npat, dtype=np.int64)
    for e in range(caps.shape[0]):
        E = members[start[e]:start[e + 1]]
        m = E.shape[0]
        hist = np.zeros(m + 1, dtype=np.int64)
        seen[:] = 0
        for g in range(G):
            hist[_u(FT, g, E, npat, seen, size)] += 1
        _top(hist, m, caps[e])


@numba.njit(cache=True, nogil=True)
def eb(cost, t, m, caps):
    """EB(L, t) for |L| = m with the capacities caps (largest first): see the module."""
    left = m
    total = np.int64(0)
    i = 0
    while left > 0:
        if i >= caps.shape[0] or caps[i] <= 0 or t + i + 1 >= cost.shape[0]:
            return INF
        k = min(caps[i], left)
        c0, c1 = cost[t + i], cost[t + i + 1]
        if c0 >= INF or (k > 1 and c1 >= INF):
            return INF
        total = sat(total + c0 + (k - 1) * c1)
        left -= k
        i += 1
    return total


@numba.njit(cache=True, nogil=True)
def eb_weighted(cost, t, caps, w, named):
    """EB_w(L, t) (``named``) or EB'_w(L, t) (not ``named``: no answer of L is named at step t) for
    the weights w of L sorted heaviest first (see the module): EB's slots, in order, each times the
    next weight."""
    left = w.shape[0]
    total = np.int64(0)
    i = 0
    j = 0  # the next weight
    while left > 0:
        if i >= caps.shape[0] or caps[i] <= 0 or t + i + 1 >= cost.shape[0]:
            return INF
        k = min(caps[i], left)
        c0, c1 = cost[t + i], cost[t + i + 1]
        if i == 0 and not named:
            c0 = c1
        if c0 >= INF or (k > 1 and c1 >= INF):
            return INF
        total = sat(total + w[j] * c0)
        for r in range(1, k):
            total = sat(total + w[j + r] * c1)
        j += k
        left -= k
        i += 1
    return total


@numba.njit(cache=True, nogil=True)
def _weighted_run(ctx, T, e, t, cap):
    """The weighted endgame bound of E ∩ T for endgame e (see the module), T sorted."""
    cost, members, start = ctx.cost, ctx.endgame_members, ctx.endgame_start
    E = members[start[e]:start[e + 1]]
    n = T.shape[0]
    inside = np.empty(n, dtype=np.int64)
    m = 0
    out_total, out_most = np.int64(0), np.int64(0)
    j = 0
    for i in range(n):  # T and E are sorted: merge
        while j < E.shape[0] and E[j] < T[i]:
            j += 1
        wi = ctx.weight[T[i]]
        if j < E.shape[0] and E[j] == T[i]:
            inside[m] = wi
            m += 1
        else:
            out_total += wi
            out_most = max(out_most, wi)
    w = np.sort(inside[:m])[::-1].copy()
    c0, c1 = cost[t], cost[t + 1]
    rest = sat(out_total * c1) if out_total > 0 else np.int64(0)
    a = sat(eb_weighted(cost, t, cap, w, True) + rest)
    if out_total == 0:
        return a
    b = sat(eb_weighted(cost, t, cap, w, False) + rest)
    if b < INF:
        b = b - out_most * (c1 - c0)
    return min(a, b)


@numba.njit(cache=True, nogil=True)
def _endgame_ids(ans_end, T):
    """The endgames of the answers of T, one entry per answer and endgame, sorted (so that the
    answers of T in each endgame make one run)."""
    n, Lw = T.shape[0], ans_end.shape[1]
    ids = np.empty(n * Lw, dtype=np.int64)
    k = 0
    for i in range(n):
        for w in range(Lw):
            e = ans_end[T[i], w]
            if e >= 0:
                ids[k] = e
                k += 1
    return np.sort(ids[:k])


@numba.njit(cache=True, nogil=True)
def _free(Lw, hard, greens, least, letters):
    """The most answers of an endgame (its letters: ``letters``) one guess can make non-default:
    every position, or in hard mode the constraint's non-green ones less the copies its yellows
    demand of letters that are not the endgame's (see the module)."""
    if not hard:
        return Lw
    free = 0
    for i in range(Lw):
        if greens[i] < 0:
            free += 1
    for x in range(26):
        more = least[x]
        for i in range(Lw):
            if greens[i] == x:
                more -= 1
        if more > 0 and (letters >> x) & 1 == 0:
            free -= more
    return max(free, 0)


@numba.njit(cache=True, nogil=True)
def endgame_bound(ctx, T, t, greens, least):
    """max over the endgames E meeting T in MIN_ENDGAME answers or more of
    EB(E ∩ T, t) + (|T| - |E ∩ T|) c[t + 1], with the capacities of E over every guess (in hard mode
    capped at the constraint's non-green positions); 0 if none."""
    cost, hard, ans_end, caps, letters = ctx.cost, ctx.hard, ctx.endgame_of, ctx.endgame_caps, ctx.endgame_letters
    n, Lw = T.shape[0], ans_end.shape[1]
    if n < MIN_ENDGAME or caps.shape[0] == 0 or cost[t + 1] >= INF:
        return np.int64(0)  # (two answers or more with one guess left: the node bound says INF)
    ids = _endgame_ids(ans_end, T)
    k = ids.shape[0]
    if k < MIN_ENDGAME:
        return np.int64(0)
    cap = np.empty(caps.shape[1], dtype=np.int64)
    best = np.int64(0)
    run = 1
    for j in range(1, k + 1):
        if j < k and ids[j] == ids[j - 1]:
            run += 1
            continue
        if run >= MIN_ENDGAME:
            free = _free(Lw, hard, greens, least, letters[ids[j - 1]])
            for i in range(cap.shape[0]):
                cap[i] = min(caps[ids[j - 1], i], free)
            if ctx.unit:
                v = sat(eb(cost, t, run, cap) + (n - run) * cost[t + 1])
            else:
                v = _weighted_run(ctx, T, ids[j - 1], t, cap)
            if v > best:
                best = v
        run = 1
    return best


@numba.njit(cache=True, nogil=True)
def tight_endgame(ctx, T, t, greens, least):
    """The answers L = E ∩ T of the endgame E with the most answers in T, when it is worth a search
    of its own (Selby's "subendgame"), else an empty array.

    A strategy for T, restricted to L, is a strategy for L (in hard mode under the same constraint),
    and the other answers cost at least c[t + 1] each but one (named at step t), so

        cost(T, t) >= cost(L, t) + c[t] + (|T| - |L| - 1) c[t + 1],

    (with weights the second part is :func:`exact.wordle.fewest.kernels.outside_rest`), and a search of
    the small set L can prove what the counts of :func:`endgame_bound` do not. It is
    worth it when those counts come close to the cut: when the r largest capacities, r = the guesses
    left after this one, leave fewer than r spare (Selby's heuristic), with L smaller than T.
    """
    cost, hard, ans_end, caps = ctx.cost, ctx.hard, ctx.endgame_of, ctx.endgame_caps
    members, start = ctx.endgame_members, ctx.endgame_start
    n, Lw = T.shape[0], ans_end.shape[1]
    none = np.zeros(0, dtype=np.int64)
    if n <= MIN_ENDGAME or caps.shape[0] == 0:
        return none
    ids = _endgame_ids(ans_end, T)
    k = ids.shape[0]
    if k < MIN_ENDGAME:
        return none
    e, m, run = np.int64(-1), 0, 1
    for j in range(1, k + 1):
        if j < k and ids[j] == ids[j - 1]:
            run += 1
            continue
        if run > m:
            m, e = run, ids[j - 1]
        run = 1
    if m < MIN_ENDGAME or m >= n:
        return none
    left = 0  # the guesses left after this one
    while t + left + 1 < cost.shape[0] and cost[t + left + 1] < INF:
        left += 1
    free = _free(Lw, hard, greens, least, ctx.endgame_letters[e])
    total = 0
    for i in range(min(left, caps.shape[1])):
        total += min(caps[e, i], free)
    if total - (m - 1) >= left:
        return none
    L = np.empty(m, dtype=np.int64)
    E = members[start[e]:start[e + 1]]
    k, j = 0, 0
    for i in range(n):  # T and E are sorted: merge
        while j < E.shape[0] and E[j] < T[i]:
            j += 1
        if j < E.shape[0] and E[j] == T[i]:
            L[k] = T[i]
            k += 1
    return L
