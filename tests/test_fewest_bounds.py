"""What a running fewest-guesses search reports (``solve_guesses(report=...)``, the live page's "at least, at
most"), in both modes, with and without random weights.

Each report must be true of the optimum (lower <= optimum <= upper, and a strategy opening with the reported
guess reaches the upper bound), the bounds may only narrow, and the last report closes the gap at the optimum.
The optimum is brute force's on a tiny instance; on the larger ones (where the scan meets several first
guesses and the bounds move) the solver's proven value, which the brute-force tests of test_wordle_guesses
check on their own instances.
"""

import pytest

from exact.feedback import feedback
from exact.wordle.fewest.search import solve_guesses
from oracles import brute_fewest as brute, look_alike as tiny, random_weights


def reports(A, G, hard=False, weights=None, history=()):
    told = []
    result = solve_guesses(A, G, hard=hard, weights=weights, after=history, progress=False, report=told.append)
    assert result.status == "OPTIMAL" and told, "nothing was reported"
    return result, told


def check(told, optimum, A, G, hard=False, weights=None, history=()):
    for before, now in zip(told, told[1:]):
        assert now.lower >= before.lower, (before, now)
        assert before.upper is None or (now.upper is not None and now.upper <= before.upper), (before, now)
    for bounds in told:
        assert bounds.lower <= optimum, bounds
        if bounds.upper is not None:
            assert bounds.upper >= optimum
            opening = solve_guesses(A, G, hard=hard, weights=weights, first=bounds.guess, after=history,
                                    progress=False)
            assert opening.cost <= bounds.upper, (bounds, opening.cost)
    assert (told[-1].lower, told[-1].upper) == (optimum, optimum)


def test_the_bounds_hold_against_brute_force():
    A, G = tiny(1, n_answers=7, n_extra=4)
    result, told = reports(A, G)
    check(told, brute(A.words, G.words, 6)[-1], A, G)


@pytest.mark.parametrize("seed, hard, weighted", [(5, False, False),
                                                  *[pytest.param(s, h, w, marks=pytest.mark.slow)
                                                    for s in (0, 2, 5) for h in (False, True) for w in (False, True)
                                                    if (s, h, w) != (5, False, False)]])
def test_the_bounds_narrow_and_close_at_the_optimum(seed, hard, weighted):
    A, G = tiny(seed, n_answers=40, n_extra=40)
    weights = random_weights(A, seed) if weighted else None
    result, told = reports(A, G, hard, weights)
    assert len(told) >= 2  # the scan met more than one first guess: the bounds moved
    check(told, result.cost, A, G, hard, weights)


def test_after_a_guess_the_bounds_count_the_guesses_played():
    A, G = tiny(5, n_answers=40, n_extra=40)
    history = (("lover", feedback("lover", A.words[-1])),) if "lover" in G.index else ((G.words[0], feedback(G.words[0], A.words[-1])),)
    result, told = reports(A, G, history=history)
    check(told, result.cost, A, G, history=history)
