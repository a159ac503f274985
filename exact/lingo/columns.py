"""A tighter valid upper bound on the wins of any k Lingo guesses: the letter-choice relaxation of
:mod:`exact.lingo.bound` plus the *column budget* (each letter of the guesses fills a slot).

Data types: as in :mod:`exact.lingo.bound` (a pool, its families, a relaxed choice ``(E, D, S)``);
:class:`~exact.lingo.bound.LingoBound` is the result.

The argument adds one fact to steps 1-7 of :mod:`exact.lingo.bound` (read those first).

2'. **The column budget.** Write the k guesses as a k x m grid and let ``S[p]`` be the set of
    letters in column p (``|S[p]| <= k``; ``S[0]``, the first letters, gives no green that matters,
    since the answer's first letter is told, but it still holds letters). A letter c of L sits in
    ``cols(c) = #{p : c in S[p]}`` columns, so ``sum_c cols(c) = sum_p |S[p]| <= m k`` and, as every
    letter of L sits somewhere, the *extra slots* ``sum_{c in L} (cols(c) - 1) <= m k - |L| =
    |E| - (26 - m k)``. Each letter needs ``cols(c) >= g(c)``, its number of green positions
    ``#{p >= 1 : c in S[p]}``, and ``cols(c) >= mu_c`` (a guess holding c mu_c times has it in mu_c
    columns), so ``cols(c) - 1 >= max(g(c) - 1, [c in D])``, and

        sum_{c in L} max(g(c) - 1, [c in D])  <=  |E| - (26 - m k).                    (budget)

    :mod:`exact.lingo.bound` lets every position pick its k greens alone, so one letter (``s``,
    ``e``) could be green at every position for free; here a letter green at two positions costs
    one more excluded letter. The relaxed choices are now ``(E, D, S)`` with step 2's constraints
    and the budget; the real k-set's choice is one of them, so step 5's conclusion stands:
    ``wins <= n - min N``.
6'. **Greens under the budget.** For fixed (E, D) and homes (step 6), every green letter x at
    position p rescues at most ``r_p(x)`` home words (the invisible members with letter x in the
    home families at p: one per family, as the members of a family differ at p), and position p
    cannot rescue more than its ``h_p`` home words. So ``N >= sum_p h_p - max sum_p sum_{x in R_p}
    min(r_p(x), h_p)`` over the green sets ``R_p`` (``|R_p| <= k``) that obey the budget. That max is
    a knapsack over the letters, solved exactly by dynamic programming (state: how many greens each
    position holds, how many extra slots are used; each letter picks the set of positions where it
    is green). The leaf value is the larger of this and step 6's exact value (which ignores the
    budget); both are valid lower bounds on N.
7'. **Search.** The budget grows with ``|E|``, so step 7's "fewest exclusions is best" no longer
    holds: the search runs over the size ``s = |E|`` upward from ``26 - m k``, and for each s over
    D (``|D| <= s - 26 + m k``) as in step 7 (D by its size j and its part T among the letters most
    often shared with a base; for the relaxed leaves only T is charged in the budget, which is
    weaker, still valid). Internal nodes use step 7's cheap bound (valid for every greens choice,
    budget or not). The pure exclusion floor at size s (every letter counted beyond one, greens
    free) bounds every choice with ``|E| >= s`` (N only grows with E for fixed (D, S)), so once it
    reaches the best leaf, no larger s can go lower and the search is complete. Stopped early, the
    lesser of the best leaf and the floor at the size being searched is still a valid bound (every
    branch not finished has at least that many excluded letters).

8.  **Guesses fixed in advance** (the branches of :mod:`exact.lingo.proof`). For a set G of pool
    words, every k-set holding G induces a choice (E, D, S) with: every letter of G in L (never in
    E), every letter that one word of G holds twice or more in D, and ``g[p] in S[p]`` for each g in
    G and p >= 1 (so that letter is green there, and the budget of step 2' charges it:
    ``cols(c) >= g(c)`` counts the real greens). Minimising N over the choices that obey these
    constraints as well as steps 2 and 2' is a minimum over a subset of the relaxed choices that
    still holds the real choice of every k-set holding G, so ``wins(S) <= n - min N`` for those
    sets, and the bound only gets lower (never higher) than without G. The search obeys them
    where it is cheap and ignores them elsewhere, which is weaker, never wrong: E's candidates
    and the free letters leave out G's letters; D is G's doubled letters plus the letters searched
    (step 7', so the cap ``|D| <= |E| - (26 - m k)`` counts both); the knapsack of step 6' makes
    each letter green at least at its forced positions (a forced green fills one of the k slots of
    its position and costs in the budget); step 6 (no budget) and the inner nodes' cheap bound
    ignore the forced greens (a minimum over more greens is lower). With a *target* t (wins), the
    search prunes at ``n - t + 1`` bad words: if it ends with nothing below that, no k-set holding G
    wins t or more (the branch is *closed* for t); otherwise it returns the least N it found, as
    without a target. ``tests/test_lingo_proof.py`` checks the conditioned bound against the best
    set holding G, found by enumeration, on tiny pools.

>>> from exact.words import words_from_lines
>>> pool = words_from_lines(["bakes", "bekes", "bikes", "bokes", "bukes", "bykes", "brkes"])
>>> column_bound(pool, 1).value  # one guess: 5 letters, so 2 of the 7 vowels stay unseen
6
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from exact import stop
from exact.errors import ExactError
from exact.lingo.bound import (ALPHABET, Families, LingoBound, SearchState, bound_at, check_bound_arguments,
                               exclusion_search, families, find_homes, invisible, letters_of, mask_of)
from exact.words import WordList

METHOD = "column-budget letter-choice relaxation over one-letter-apart families"


def extra_slots(length: int, k: int, excluded: int) -> int:
    """Step 2': the extra slots a choice with ``excluded`` letters in E can use (negative: impossible)."""
    return excluded - (ALPHABET - length * k)


# --- Step 6': the rescues and the knapsack over letters -----------------------------------------------

@numba.njit(cache=True)
def _rescues(fam_start, fam_pos, fam_word, fam_letter, fam_in_base, n, length, E, V):
    """Homes (step 6) and, per position p >= 1, the home words ``h[p]`` bad with no greens and the
    rescues ``r[p, x]`` of each letter x that greens could make visible (capped at ``h[p]``)."""
    nf = fam_start.shape[0] - 1
    home = np.empty(n, np.int64)
    find_homes(fam_start, fam_word, fam_letter, fam_in_base, n, E, V, home)
    h = np.zeros(length, np.int64)
    r = np.zeros((length, 26), np.int64)
    is_home = np.zeros(nf, np.bool_)
    for w in range(n):
        if home[w] >= 0:
            is_home[home[w]] = True
    for f in range(nf):
        if not is_home[f]:
            continue
        p = fam_pos[f]
        seen = 0
        for t in range(fam_start[f], fam_start[f + 1]):
            x = fam_letter[t]
            if invisible(x, fam_in_base[t], E, V, 0):
                seen += 1
                if seen >= 2 and home[fam_word[t]] == f:
                    h[p] += 1
                if fam_in_base[t] == 1 and not (E >> x) & 1 and not (V >> x) & 1:
                    r[p, x] += 1
    for p in range(length):
        for x in range(26):
            if r[p, x] > h[p]:
                r[p, x] = h[p]
    return h, r


@numba.njit(cache=True)
def _best_rescue(r, k, budget, doubled, forced):
    """Step 6''s knapsack: the most rescues ``sum_p sum_{x in R_p} r[p, x]`` over green sets with
    ``|R_p| <= k`` (positions 1..4 of a 5-letter word; up to 4 positions) and
    ``sum_x max(g(x) - 1, [x in doubled]) <= budget``, where letter x is green at least at the
    positions of the bitmask ``forced[x]`` (bit q: position q + 1; step 8, the fixed guesses).
    Exact dynamic programming over the letters."""
    # long: one numba dynamic programme, letter by letter over the table (slots used per position,
    # budget) -> best rescues; the state's decoding and its update are one loop nest over that table
    P = r.shape[0] - 1  # positions 1..P
    if budget < 0:
        return -1  # no choice obeys the budget
    K = k + 1
    states = K ** P
    NEG = -(1 << 40)
    cur = np.full((states, budget + 1), NEG, np.int64)
    cur[0, 0] = 0
    size = np.zeros(1 << P, np.int64)
    for T in range(1 << P):
        size[T] = 0
        for q in range(P):
            if (T >> q) & 1:
                size[T] += 1
    for x in range(26):
        d = (doubled >> x) & 1
        useful = forced[x] != 0  # a forced green takes a slot at its position even if it rescues nothing
        for q in range(P):
            if r[q + 1, x] > 0:
                useful = True
        if not useful:
            if d == 1:  # a doubled letter costs its extra slot whatever its greens
                nxt = np.full((states, budget + 1), NEG, np.int64)
                for s in range(states):
                    for b in range(budget):
                        if cur[s, b] > NEG:
                            nxt[s, b + 1] = max(nxt[s, b + 1], cur[s, b])
                cur = nxt
            continue
        nxt = np.full((states, budget + 1), NEG, np.int64)
        for s in range(states):
            # decode the counts
            for b in range(budget + 1):
                v = cur[s, b]
                if v == NEG:
                    continue
                for T in range(1 << P):
                    if T & forced[x] != forced[x]:
                        continue
                    cost = max(size[T] - 1, d)
                    if b + cost > budget:
                        continue
                    ok = True
                    gain = 0
                    t = s
                    s2 = 0
                    mult = 1
                    for q in range(P):
                        c = t % K
                        t //= K
                        if (T >> q) & 1:
                            if c + 1 > k:
                                ok = False
                                break
                            c += 1
                            gain += r[q + 1, x]
                        s2 += c * mult
                        mult *= K
                    if not ok:
                        continue
                    if v + gain > nxt[s2, b + cost]:
                        nxt[s2, b + cost] = v + gain
        cur = nxt
    best = -1
    for s in range(states):
        for b in range(budget + 1):
            if cur[s, b] > best:
                best = cur[s, b]
    return best


NO_FORCED = np.zeros(ALPHABET, np.int64)


def budget_bound(fam: Families, E: int, V: int, k: int, budget: int, doubled: int,
                 forced: np.ndarray = NO_FORCED) -> int:
    """Step 6': a lower bound on the bad words N over every greens choice obeying the budget, each
    letter x green at least where ``forced[x]`` says (step 8) (``1 << 62`` when no choice obeys
    it: the leaf is impossible)."""
    h, r = _rescues(fam.start, fam.position, fam.word, fam.letter, fam.in_base, fam.n, fam.length,
                    np.int64(E), np.int64(V))
    best = _best_rescue(r, k, budget, np.int64(doubled), forced)
    if best < 0:
        return 1 << 62
    return int(h.sum() - best)


def leaf_value(fam: Families, E: int, V: int, k: int, doubled: int, forced: np.ndarray = NO_FORCED) -> int:
    """A leaf's lower bound on N: the larger of step 6 (exact per position, no budget) and step 6'
    (the budget), for the excluded set E (its full size sets the budget)."""
    budget = extra_slots(fam.length, k, bin(E).count("1"))
    return max(bound_at(fam, E, V, k, exact=True)[0], budget_bound(fam, E, V, k, budget, doubled, forced))


def column_bad_words(fam: Families, excluded: str, doubled: str, k: int) -> int:
    """Steps 3-6' for one choice of letters (E, D): a lower bound on the words lost.

    >>> fam = families(["bakes", "bikes", "bokes", "bukes"])
    >>> column_bad_words(fam, "aiofjq", "", 4), column_bad_words(fam, "aioufj", "", 4)
    (2, 3)
    >>> column_bad_words(fam, "aiou", "", 4) > 8636  # 22 letters cannot fit in 20 slots: no such choice
    True
    """
    E = mask_of(ord(c) - 97 for c in excluded)
    D = mask_of(ord(c) - 97 for c in doubled)
    return leaf_value(fam, E, D, k, D)


# --- Step 7': the search ------------------------------------------------------------------------------

def _exclusion_search(st: SearchState, size: int, V: int, doubled: int, candidates: list[int], free_E: int,
                      exact: bool, record: bool, forced: np.ndarray = NO_FORCED) -> int | None:
    """Step 7's :func:`exact.lingo.bound.exclusion_search` with the budget at the leaves (the free
    letters ``free_E`` are always in E and count in its size). A recorded leaf is a real choice: it
    updates the best leaf and the witness, and stops the search at once below ``st.stop_at``."""
    fam, k = st.fam, st.k
    budget = extra_slots(fam.length, k, size + bin(free_E).count("1"))  # the leaves' budget

    def node_bound(E: int) -> int:
        """Valid for every leaf below E: N grows with E for fixed (D, S), the leaves share the budget."""
        cheap = bound_at(fam, E | free_E, V, k, exact=False)[0]
        return max(cheap, budget_bound(fam, E | free_E, V, k, budget, doubled, forced)) if exact else cheap

    def on_leaf(E: int, value: int) -> None:
        if record:
            st.best, st.best_leaf = value, (E | free_E, V)
            st.witness = value if st.witness is None else min(st.witness, value)
            if st.stop_at is not None and value < st.stop_at:
                st.deadline = 0.0  # a real choice below the cutoff: the branch is open, stop here

    leaf = (lambda E: leaf_value(fam, E | free_E, V, k, doubled, forced)) if exact else None
    return exclusion_search(st, size, candidates, node_bound, leaf, on_leaf,
                            f"|E| = {size + bin(free_E).count('1')}, counted beyond one: {letters_of(V) or '-'}")


@dataclass(frozen=True)
class Fixed:
    """Step 8: what guesses fixed in advance force on every choice (E, D, S) of a k-set holding them."""

    words: tuple[str, ...] = ()
    letters: int = 0  # bitmask: their letters, in L (never in E)
    doubled: int = 0  # bitmask: the letters one of them holds twice or more, in D
    forced: np.ndarray = field(default_factory=lambda: NO_FORCED)  # forced[x]: bit q = x green at q + 1


def fixed_choice(words) -> Fixed:
    """The constraints of step 8 for the fixed guesses ``words``.

    >>> f = fixed_choice(["geese"])
    >>> letters_of(f.letters), letters_of(f.doubled), [int(f.forced[ord(c) - 97]) for c in "egs"]
    ('egs', 'e', [11, 0, 4])
    """
    letters, doubled = 0, 0
    forced = np.zeros(ALPHABET, np.int64)
    for w in words:
        codes = [ord(c) - 97 for c in w]
        for p, x in enumerate(codes):
            letters |= 1 << x
            if codes.count(x) >= 2:
                doubled |= 1 << x
            if p >= 1:
                forced[x] |= 1 << (p - 1)
    return Fixed(tuple(words), letters, doubled, forced)


@dataclass
class ColumnLetters:
    """The letters of step 7' for the families and the fixed guesses."""

    free_E: int  # mask of the letters no family holds (not fixed): free to exclude
    n_free: int  # their number
    letters: list[int]  # E's candidates: held by a family, not fixed
    doublable: list[int]  # letters a base word shares, not doubled by a fixed guess, most shared first
    important: int  # the first ``important`` of ``doublable`` are split on exactly above exact_doubles


def column_letters(fam: Families, fixed: Fixed, important: int) -> ColumnLetters:
    """Which letters may be excluded, which doubled (see :class:`ColumnLetters`)."""
    held = np.zeros(ALPHABET, np.int64)
    np.add.at(held, fam.letter, 1)
    shared = np.zeros(ALPHABET, np.int64)
    np.add.at(shared, fam.letter[fam.in_base == 1], 1)
    must = fixed.letters  # step 8: never in E
    free_E = mask_of(c for c in range(ALPHABET) if held[c] == 0 and not must >> c & 1)
    letters = [c for c in range(ALPHABET) if held[c] > 0 and not must >> c & 1]
    doublable = sorted((c for c in range(ALPHABET) if shared[c] > 0 and not fixed.doubled >> c & 1),
                       key=lambda c: (-shared[c], c))
    return ColumnLetters(free_E, bin(free_E).count("1"), letters, doublable, important)


def exclusion_floor(st: SearchState, s: int, cl: ColumnLetters) -> int | None:
    """The pure exclusion bound for every E of s letters or more (None when out of time)."""
    inner = s - cl.n_free
    if inner > len(cl.letters):
        return 1 << 62
    if inner <= 0:
        return 0
    saved = st.best, st.best_leaf
    value = _exclusion_search(st, inner, mask_of(range(ALPHABET)), 0, cl.letters, cl.free_E, exact=False,
                              record=False)
    st.best, st.best_leaf = saved
    return value


def doubles_splits(j: int, exact_doubles: int, cl: ColumnLetters) -> list[tuple[tuple[int, ...], bool]]:
    """The (T, exact leaf?) splits of j doubled letters: D exactly, every j-set of letters, for j <=
    ``exact_doubles``; else split by T, the doubled ones among the important letters, as in step 7."""
    if j <= exact_doubles:
        return [(T, True) for T in itertools.combinations(cl.doublable, j)]
    top, others = cl.doublable[:cl.important], cl.doublable[cl.important:]
    return [(T, t == j) for t in range(min(j, len(top)), -1, -1) if j - t <= len(others)
            for T in itertools.combinations(top, t)]


def search_size(st: SearchState, s: int, cl: ColumnLetters, fixed: Fixed, smallest: int, exact_doubles: int,
                branches: list) -> bool:
    """Every choice with |E| = s, by the number j of doubled letters (D is the fixed guesses'
    doubled letters plus these j: step 2 caps |D| at s - smallest). False when out of time."""
    forced_doubles = bin(fixed.doubled).count("1")
    others = mask_of(cl.doublable[cl.important:])
    for j in range(0, min(s - smallest - forced_doubles, len(cl.doublable)) + 1):
        for T, exact_leaf in doubles_splits(j, exact_doubles, cl):
            D = mask_of(T) | fixed.doubled
            V = D | (0 if exact_leaf else others)
            candidates = [c for c in cl.letters if c not in T]
            got = _exclusion_search(st, s - cl.n_free, V, D, candidates, cl.free_E, exact=True, record=exact_leaf,
                                    forced=fixed.forced)
            if got is None:
                return False
            branches.append({"excluded": s, "doubled": letters_of(mask_of(T)), "others_doubled": not exact_leaf,
                             "least_bad_words": None if got >= 1 << 62 else int(got)})
            if not exact_leaf and (st.best is None or got < st.best):
                # a relaxed leaf below every real leaf bounds these D: it is the answer's floor now
                st.best, st.best_leaf = got, None
    return True


def search(fam: Families, k: int, deadline: float, progress: bool = False, important: int = 6,
           interrupted: list | None = None, exact_doubles: int = 1, fixed: Fixed = Fixed(),
           cutoff: int | None = None, stop_when_open: bool = False):
    """Step 7': the least lower bound on N over every choice (E, D, S) obeying the budget, anytime;
    with ``fixed``, over the choices that also obey step 8. With ``cutoff``, only values below it
    are sought: the result is then ``cutoff`` when no choice goes below it (every branch was pruned
    at ``cutoff``, so ``N >= cutoff`` for every choice); with ``stop_when_open`` too, the search stops
    at the first real leaf below ``cutoff`` (the relaxation cannot reach the cutoff; the result is
    then the anytime bound, incomplete).
    Returns (lower bound on N, complete, best leaf (E, V) or None, nodes, sizes searched)."""
    cl = column_letters(fam, fixed, important)
    st = SearchState(fam, k, deadline, progress)
    st.stop_at = cutoff if stop_when_open else None
    if cutoff is not None:
        st.best = cutoff
    if interrupted is not None:
        st.interrupted = interrupted
    smallest = max(0, ALPHABET - fam.length * k)
    sizes, branches = [], []

    def result(lower, complete):
        return lower, complete, st.best_leaf, st.nodes, {"sizes": sizes, "branches": branches,
                                                         "witness": st.witness}

    s = max(smallest, cl.n_free)
    later = exclusion_floor(st, s, cl)
    if later is None:
        return result(0, False)
    while True:
        if st.best is not None and later >= st.best:
            return result(st.best, True)
        if s - cl.n_free > len(cl.letters):
            return result(st.best if st.best is not None else 1 << 62, True)
        here, later = later, exclusion_floor(st, s + 1, cl)  # here bounds every E of s letters or more
        if later is None:
            return result(here if st.best is None else min(st.best, here), False)
        sizes.append(s)
        if not search_size(st, s, cl, fixed, smallest, exact_doubles, branches):
            # every branch not finished has |E| >= s, so the floor at s bounds it
            return result(here if st.best is None else min(st.best, here), False)
        s += 1


def column_bound(pool: WordList, k: int, *, time_limit: float = 60.0, progress: bool = False,
                 exact_doubles: int = 1, fixed=(), target: int | None = None,
                 stop_when_open: bool = False) -> LingoBound:
    """A valid upper bound on the wins of every k-subset of the pool (see the module docstring);
    with ``fixed`` (pool words), of every k-subset that holds them (step 8). With ``target`` (wins),
    the search only looks for choices that could reach it: the bound is then exact when below the
    target, and the target itself (``details["closed"]``) when no k-set can win more than that.
    Ctrl-C or SIGTERM stops the search and returns the anytime bound (``details["interrupted"]``)."""
    check_bound_arguments(pool, k, time_limit)
    if len(fixed) > k:
        raise ExactError(f"{len(fixed)} fixed guesses but k = {k}")
    for w in fixed:
        if w not in pool.index:
            raise ExactError(f"fixed guess {w!r} is not in {pool.source}")
    t0 = time.monotonic()
    fam = families(pool.words)
    n = len(pool)
    if len(fam.position) == 0:
        return LingoBound(n, "trivial: no two words one letter apart", n, k, True, round(time.monotonic() - t0, 3))
    cutoff = None if target is None else max(0, n - target + 1)  # N >= n - target + 1 closes the target
    interrupted = [False]
    with stop.flagged(lambda: interrupted.__setitem__(0, True)):
        lower, complete, leaf, nodes, log = search(fam, k, t0 + time_limit, progress, interrupted=interrupted,
                                                      exact_doubles=exact_doubles, fixed=fixed_choice(fixed),
                                                      cutoff=cutoff, stop_when_open=stop_when_open)
    lower = max(0, min(int(lower), n))
    details = {"families": int(len(fam.position)), "family_members": int(len(fam.word)), "nodes": nodes,
               "certified_losses": int(lower), "excluded_sizes_searched": log["sizes"],
               "exact_doubles": exact_doubles, "branches": log["branches"], "interrupted": interrupted[0]}
    if fixed:
        details["fixed"] = list(fixed)
    details["witness"] = log["witness"]
    if cutoff is not None:
        details["target"] = target
        details["closed"] = bool(complete and lower >= cutoff)
        details["open"] = log["witness"] is not None and log["witness"] < cutoff
    if leaf is not None:
        E, V = leaf
        details["minimising_leaf"] = {"excluded": letters_of(E), "doubled_or_undecided": letters_of(V)}
    method = f"{METHOD}, branch and bound " + ("(complete)" if complete else "(stopped early: the floor at the size being searched)")
    return LingoBound(n - int(lower), method, n, k, complete, round(time.monotonic() - t0, 3), details)
