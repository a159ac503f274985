"""The memorable model's reductions and LP bound (exact.wordle.study.memorable_lp) against brute force."""

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exact.wordle.study.memorable import wins_of
from exact.wordle.study.memorable_lp import GRID, certified_bound, lp_bound, survivors, undominated

CURVE = Path(__file__).parent.parent / "results/wordle/memorable-curve.json"


def random_instances(count: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        r, n = int(rng.integers(2, 7)), int(rng.integers(3, 10))
        yield rng.integers(1, 6, size=(r, n)).astype(np.int32)


def optimum(W: np.ndarray, M: int, columns=None) -> int:
    columns = range(W.shape[1]) if columns is None else columns
    return max(wins_of(W, S) for k in range(1, M + 1) for S in itertools.combinations(columns, k))


def full_lp(W: np.ndarray, M: int) -> float:
    """The LP relaxation over every guess at once (no column generation)."""
    from ortools.linear_solver import pywraplp

    s = pywraplp.Solver.CreateSolver("GLOP")
    r, n = W.shape
    y = [s.NumVar(0, 1, "") for _ in range(n)]
    z = [[s.NumVar(0, 1, "") for _ in range(n)] for _ in range(r)]
    s.Add(sum(y) <= M)
    for c in range(r):
        s.Add(sum(z[c]) <= 1)
        for g in range(n):
            s.Add(z[c][g] <= y[g])
    s.Maximize(sum(int(W[c, g]) * z[c][g] for c in range(r) for g in range(n)))
    assert s.Solve() == pywraplp.Solver.OPTIMAL
    return s.Objective().Value()


def test_undominated_matches_the_definition_and_keeps_the_optimum():
    for W in random_instances(30):
        n = W.shape[1]
        dominated = {g for g in range(n) for h in range(n) if h != g and (W[:, g] <= W[:, h]).all()
                     and ((W[:, g] < W[:, h]).any() or h < g)}
        kept = undominated(W).tolist()
        assert kept == [g for g in range(n) if g not in dominated]
        for M in (1, 2, 3):
            assert optimum(W, M, kept) == optimum(W, M)


def test_identical_guesses_are_merged():
    W = np.array([[2, 1, 2, 1], [1, 3, 1, 3]])
    assert undominated(W).tolist() == [0, 1]


def test_lp_bound_is_the_lp_and_bounds_the_optimum():
    for W in random_instances(25, seed=3):
        for M in (1, 2, 3):
            lp = lp_bound(W, M, [0], batch=1)
            assert lp.value == pytest.approx(full_lp(W, M), abs=1e-6)  # column generation reaches the LP
            assert optimum(W, M) <= lp.bound <= lp.value + 1e-6 + W.shape[0] * W.shape[1] / GRID
            assert certified_bound(W, lp.mu, M)[0] == lp.bound


def test_certified_bound_is_exact():
    rng = np.random.default_rng(11)
    for W in random_instances(20, seed=5):
        mu = rng.integers(0, 6 * GRID, size=W.shape[0])
        for M in (1, 2, 4):
            m = [Fraction(int(v), GRID) for v in mu]
            rho = sorted((sum(max(Fraction(0), int(W[c, g]) - m[c]) for c in range(W.shape[0]))
                          for g in range(W.shape[1])), reverse=True)
            L = sum(m) + sum(rho[:M])
            assert certified_bound(W, mu, M) == (int(L // 1), int(L * GRID))
            assert L >= optimum(W, M)  # any multipliers bound every selection


def test_survivors_hold_every_better_selection():
    for W in random_instances(20, seed=9):
        for M in (1, 2, 3):
            lp = lp_bound(W, M, [0])
            sets = [S for k in range(1, M + 1) for S in itertools.combinations(range(W.shape[1]), k)]
            for floor in range(optimum(W, M) - 4, optimum(W, M)):
                keep = set(survivors(W, lp.mu, M, floor).tolist())
                assert all(set(S) <= keep for S in sets if wins_of(W, S) > floor)


# --- the best opener over every first guess (exact.wordle.study.memorable_openers) ---------------------

def brute_force_every_first(A, G, M: int) -> int:
    """max over every first guess and every set S of at most M second guesses, by the plain rule."""
    from exact.feedback import all_green, feedback

    best = 0
    for first in G.words:
        classes: dict[int, list[str]] = {}
        for a in A.words:
            classes.setdefault(feedback(first, a), []).append(a)
        hit = int(all_green(5) in classes)
        classes.pop(all_green(5), None)
        w = {(c, g): len({feedback(g, a) for a in P}) for c, P in classes.items() for g in G.words}
        for k in range(1, M + 1):
            for S in itertools.combinations(G.words, k):
                best = max(best, hit + sum(max(w[c, g] for g in S) for c in classes))
    return best


def small_lists():
    from exact.words import words_from_lines

    A = words_from_lines("quack quail quake qualm quart quash quasi queen queer quell query quest".split(), "q-a")
    G = words_from_lines(sorted(list(A.words) + ["delph", "bolas", "tinct"]), "q-g")
    return A, G


@pytest.mark.parametrize("M", [1, 2])
def test_best_opener_equals_brute_force(M, tmp_path):
    from exact.wordle.study.memorable_openers import best_opener

    A, G = small_lists()
    expected = brute_force_every_first(A, G, M)
    for start in (0, expected - 2):  # a weak seed, then a seed close to the optimum: the screen must be valid
        checkpoint = tmp_path / f"c{M}-{start}.jsonl"
        data = best_opener(A, G, M, start=start, checkpoint=checkpoint, workers=1)
        assert data["status"] == "OPTIMAL" and data["wins"] == expected
        lines = checkpoint.read_text()
        again = best_opener(A, G, M, start=start, checkpoint=checkpoint, workers=1)  # resumed: nothing new to do
        assert again["status"] == "OPTIMAL" and again["wins"] == expected and checkpoint.read_text() == lines
        assert again["best_first"] == data["best_first"]


@pytest.mark.slow
def test_pair_counts_and_fast_classes_match_the_slow_ones():
    from exact.feedback import all_green
    from exact.partitions import feedback_matrix
    from exact.wordle.study.memorable import first_classes, solve_memorable
    from exact.wordle.study.memorable_openers import fast_classes, pair_counts

    A, G = small_lists()
    F = feedback_matrix(G, A, cache=False)
    for first in G.words:
        g1 = G.index[first]
        slow, fast = first_classes(F, g1, all_green(5)), fast_classes(F, g1, all_green(5))
        assert slow.patterns == fast.patterns and (slow.W == fast.W).all() and slow.hit == fast.hit
        assert int(pair_counts(F, g1).max()) == solve_memorable(A, G, first, 1, workers=1, F=F).wins


@pytest.mark.slow
def test_committed_curve_certificates_replay():
    """Every point of results/wordle/memorable-curve.json: the tree's second guesses win what the point
    says, and a bound argued by the LP is L(mu) at the recorded multipliers, recomputed in integers."""
    from exact.feedback import all_green
    from exact.partitions import feedback_matrix
    from exact.wordle.study.memorable_openers import fast_classes
    from exact.words import wordle_allowed, wordle_answers

    data = json.loads(CURVE.read_text())
    A, G = wordle_answers(), wordle_allowed()
    F = feedback_matrix(G, A)
    classes = fast_classes(F, G.index[data["first"]], all_green(5))
    varying = classes.W.max(axis=1) > classes.W.min(axis=1)
    constant = classes.hit + int(classes.W[~varying, 0].sum())
    W = classes.W[varying]
    Wk = W[:, undominated(W)]
    for point in data["points"]:
        S = [G.index[w] for w in point["second_guesses"]]
        assert len(S) <= point["M"] and constant + wins_of(W, S) == point["wins"]
        assert point["status"] == ("OPTIMAL" if point["wins"] == point["bound"] else "FEASIBLE")
        lp = point["stats"].get("lp")
        if lp:
            assert certified_bound(Wk, np.array(lp["multipliers"]), point["M"]) == (lp["bound"], lp["scaled_bound"])
            if point["stats"]["bound_argument"].startswith("LP bound"):
                assert constant + lp["bound"] == point["bound"]
            if "candidates_after_fixing" in point["stats"] and point["stats"]["bound_argument"].startswith("CP-SAT"):
                fixed_at = int(point["stats"]["bound_argument"].split(" fixing at ")[1].split()[0])
                alive = survivors(Wk, np.array(lp["multipliers"]), point["M"], fixed_at)
                assert len(alive) == int(point["stats"]["bound_argument"].split(" over the ")[1].split()[0])


def test_greedy_bound_is_a_bound():
    from exact.wordle.study.memorable_openers import greedy_bound

    for W in random_instances(30, seed=13):
        for M in (1, 2, 3):
            assert greedy_bound(W, M) >= optimum(W, M)


def test_cli_every_first_and_curve_resume(tmp_path):
    from click.testing import CliRunner

    from exact.cli import main

    A, G = small_lists()
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt"), "--first", "quest"]
    out = CliRunner().invoke(main, ["wordle", "memorable", *lists, "--max-distinct-second", "1", "--every-first",
                                    "--out", str(tmp_path / "o.json")])
    assert out.exit_code == 0, out.output
    data = json.loads((tmp_path / "o.json").read_text())
    assert data["status"] == "OPTIMAL" and data["wins"] == brute_force_every_first(A, G, 1)
    assert (tmp_path / "o.checkpoint.jsonl").is_file()
    bad = CliRunner().invoke(main, ["wordle", "memorable", *lists, "--max-distinct-second", "1", "--every-first"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1 and "--out" in bad.output
    # a curve in two runs (the second resumes the first) equals the curve in one
    curve = ["wordle", "memorable", *lists, "--curve", "--out", str(tmp_path / "c.json")]
    assert CliRunner().invoke(main, curve + ["--m-values", "1-2"]).exit_code == 0
    resumed = CliRunner().invoke(main, curve + ["--m-values", "1-3", "--resume", "--trees", str(tmp_path / "t")])
    assert resumed.exit_code == 0, resumed.output
    assert CliRunner().invoke(main, curve[:-1] + [str(tmp_path / "d.json"), "--m-values", "1-3"]).exit_code == 0
    two, one = (json.loads((tmp_path / f).read_text()) for f in ("c.json", "d.json"))
    assert [(p["M"], p["wins"], p["bound"]) for p in two["points"]] == [(p["M"], p["wins"], p["bound"])
                                                                        for p in one["points"]]
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["quest-m3.txt"]  # only M = 3 was solved again
