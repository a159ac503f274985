"""CP-SAT large-neighbourhood steps (exact.lingo.lns) against enumeration on tiny pools."""

import itertools

from exact.feedback import compute_feedback_matrix
from exact.lingo.lns import lns, neighbourhood
from exact.lingo.score import count_wins, first_letters
from test_lingo_cpsat import hard_pools


def test_a_neighbourhood_is_solved_exactly():
    checked = 0
    for pool in hard_pools(4, 26):  # seed 26: ten of the twelve neighbourhoods leave a class (best < n)
        F = compute_feedback_matrix(pool.words, pool.words)
        first = first_letters(pool.words)
        n = len(pool)
        S = (0, 1, 2)
        for free in ((0, 1), (1, 2), (0, 2)):
            new, step = neighbourhood(F, first, S, free, candidates=n, time_limit=20, workers=1, seed=0)
            fixed = [S[t] for t in range(3) if t not in free]
            best = max(count_wins(F, fixed + list(p), first)
                       for p in itertools.combinations([g for g in range(n) if g not in fixed], 2))
            assert step.status == "OPTIMAL" and step.wins == step.bound == best, (pool.words, free)
            assert count_wins(F, list(new), first) == best and len(set(new)) == 3
            checked += best < n
    assert checked >= 3


def test_lns_never_gets_worse():
    pool = next(hard_pools(1, 4))
    F = compute_feedback_matrix(pool.words, pool.words)
    first = first_letters(pool.words)
    r = lns(F, first, (0, 1, 2, 3), free=2, candidates=8, time_limit=10, workers=1)
    assert r.wins >= r.start_wins and r.wins == count_wins(F, list(r.guesses), first)
