"""exact.wordle.fewest.search against brute force: every tree of tiny instances enumerated.

The reference (tests/oracles.brute_fewest) is independent of the solver: plain Python, exact.feedback.feedback for the
classes, the hard-mode rule as exact.game.hard.is_allowed reads it on the whole history, every
allowed guess at every node (useless ones included: the guess limit ends those paths), values
compared as tuples (lost within K1, lost within K2, ..., total), which is the lexicographic order by
definition, not the solver's weighted encoding.
"""

import pytest

from exact.errors import ExactError
from exact.feedback import feedback
from exact.game.position import parse_history, position
from exact.game.tree import Tree, replay_position
from exact.wordle.fewest.complete import complete_tree
from exact.wordle.fewest.objective import Objective, parse_objective
from exact.wordle.fewest.search import guess_value, make_guesses_instance, solve_guesses
from exact.wordle.fewest.memo import new_memo
from exact.words import words_from_lines

from oracles import brute_fewest, look_alike

INF = float("inf")


def vector_of(result, wins):
    lost = tuple(result.n - result.wins_within(k) for k in wins)
    return lost + (result.total,)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("hard", [False, True])
def test_fewest_guesses_matches_brute_force(seed, hard):
    A, G = look_alike(seed)
    for max_guesses in (2, 3, 4, 6):
        expected = brute_fewest(A.words, G.words, max_guesses, hard)
        r = solve_guesses(A, G, max_guesses=max_guesses, hard=hard, progress=False)
        if expected is None:
            assert r.status == "INFEASIBLE" and r.tree is None
        else:
            assert r.status == "OPTIMAL"
            assert r.total == expected[-1], (seed, hard, max_guesses)
            assert sum(r.wins_at) == len(A) and len(r.wins_at) == max_guesses


@pytest.mark.slow
def test_guess_limit_that_binds():
    """An instance where 3 guesses are possible but cost more than 4 do (found by searching seeds
    with the brute force): the limit must be honoured, not just checked."""
    A, G = look_alike(29, n_answers=10)
    assert brute_fewest(A.words, G.words, 3) == (24,) and brute_fewest(A.words, G.words, 4) == (23,)
    assert brute_fewest(A.words, G.words, 3, hard=True) == (25,) and brute_fewest(A.words, G.words, 4, hard=True) == (23,)
    for hard in (False, True):
        for max_guesses, expected in ((3, brute_fewest(A.words, G.words, 3, hard)), (4, brute_fewest(A.words, G.words, 4, hard))):
            r = solve_guesses(A, G, max_guesses=max_guesses, hard=hard, progress=False)
            assert (r.total,) == expected and max(k + 1 for k, w in enumerate(r.wins_at) if w) <= max_guesses


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 19])
@pytest.mark.parametrize("text", ["win2,guesses", "win3,guesses", "win2,win3,guesses"])
def test_lexicographic_matches_brute_force(seed, text):
    A, G = look_alike(seed, n_answers=7)
    objective = parse_objective(text)
    for hard in (False, True):
        expected = brute_fewest(A.words, G.words, 5, hard, wins=objective.wins)
        r = solve_guesses(A, G, objective=objective, max_guesses=5, hard=hard, progress=False)
        assert r.status == "OPTIMAL"
        assert vector_of(r, objective.wins) == expected, (seed, text, hard)


def test_lexicographic_trade():
    """An instance where winning all within 3 costs a guess more than the fewest-guesses optimum
    (found by searching seeds with the brute force), so the lexicographic order really matters."""
    A, G = look_alike(19, n_answers=7)
    assert brute_fewest(A.words, G.words, 5, wins=(3,)) == (0, 19) and brute_fewest(A.words, G.words, 5) == (18,)
    lex = solve_guesses(A, G, objective="win3,guesses", max_guesses=5, progress=False)
    plain = solve_guesses(A, G, objective="guesses", max_guesses=5, progress=False)
    assert vector_of(lex, (3,)) == (0, 19) and plain.total == 18 and plain.wins_within(3) < 7


@pytest.mark.parametrize("seed", range(4))
def test_fixed_first_guess_and_guess_value(seed):
    A, G = look_alike(seed)
    for g in G.words[:4]:
        expected = brute_fewest(A.words, G.words, 5, first=g)
        r = solve_guesses(A, G, first=g, max_guesses=5, progress=False)
        assert r.total == expected[-1] and r.first == g
        inst = make_guesses_instance(A, G, Objective(()), 5)
        S, rule = position(A, (), False)
        assert guess_value(inst, new_memo(), S, G.index[g], 1, rule) == expected[-1]


def test_after_and_cutoff():
    A, G = look_alike(3, n_answers=8)
    g = G.words[0]
    p = feedback(g, A.words[-1])
    expected = brute_fewest(A.words, G.words, 6, history=((g, p),))
    r = solve_guesses(A, G, after=[(g, p)], progress=False)
    assert r.status == "OPTIMAL" and r.total == expected[-1] and r.wins_at[0] == 0
    full = solve_guesses(A, G, progress=False)
    assert solve_guesses(A, G, cutoff=full.total, progress=False).total == full.total
    low = solve_guesses(A, G, cutoff=full.total - 1, progress=False)
    assert low.status == "INFEASIBLE" and low.tree is None and low.lower_bound >= full.total


def test_tree_replays_and_completion_keeps_wins():
    A, G = look_alike(5, n_answers=8)
    r = solve_guesses(A, G, progress=False)
    played = replay_position(r.tree, A, G, (), 6)
    assert played.valid and not played.lost
    assert sum((k + 1) * w for k, w in enumerate(played.wins_at)) == r.total
    # a depth-2 tree with leaves that lose answers: completion keeps its wins within 2
    first = r.tree.guess
    leafy = Tree(first, len(A), {p: Tree(c.guess, c.answers, {}) for p, c in r.tree.children.items()})
    before = replay_position(leafy, A, G, (), 2)
    done = complete_tree(leafy, A, G, max_guesses=6, depth=2)
    after = replay_position(done, A, G, (), 6)
    assert after.valid and not after.lost
    assert sum(after.wins_at[:2]) == before.wins


def test_parse_history_and_objective_errors():
    G = words_from_lines(["parse", "clint", "cigar"])
    assert parse_history("parse BBYBB clint 00110", G) == (("parse", 9), ("clint", 36))
    for bad in ["parse", "parse BBYBB xxxxx BBBBB", "parse BBQBB", "parse BBB"]:
        with pytest.raises(ExactError):
            parse_history(bad, G)
    for bad in ["", "guesses,win3", "win0", "win3,win3", "wins"]:
        with pytest.raises(ExactError):
            parse_objective(bad)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hard", [False, True])
def test_feasible_matches_brute_force(seed, hard):
    """--objective feasible: a tree within the limit exactly when the brute force finds one, for the
    whole list and for each fixed first guess."""
    A, G = look_alike(seed, n_answers=8)
    goal = parse_objective("feasible")
    for max_guesses in (2, 3, 4):
        expected = brute_fewest(A.words, G.words, max_guesses, hard)
        r = solve_guesses(A, G, objective=goal, max_guesses=max_guesses, hard=hard, progress=False)
        assert (r.status == "OPTIMAL") == (expected is not None), (seed, hard, max_guesses)
        if r.tree is not None:
            assert sum(r.wins_at) == len(A) and len(r.wins_at) == max_guesses and r.cost == 0
        for g in G.words[:4]:
            one = brute_fewest(A.words, G.words, max_guesses, hard, first=g)
            r = solve_guesses(A, G, objective=goal, first=g, max_guesses=max_guesses, hard=hard, progress=False)
            assert (r.status == "OPTIMAL") == (one is not None), (seed, hard, max_guesses, g)
