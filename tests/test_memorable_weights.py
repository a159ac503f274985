"""The memorable variant under random integer answer weights (exact.wordle.study.memorable): the weight
won within 3 against a brute force over every set of second guesses, from the feedback rule alone; the
tree replays to it; unit weights give the unweighted result; the dominance scan; the command's --weights."""

import itertools
import json

import numpy as np
import pytest

from exact.feedback import all_green, feedback
from exact.game.tree import replay
from exact.partitions import feedback_matrix
from exact.weights import unit_weights
from exact.wordle.study import memorable_lp as lp
from exact.wordle.study.memorable import solve_memorable
from exact.wordle.wins import dp

from test_wordle_memorable import lettered
from oracles import random_weights


def brute_weighted(A, G, first, M, w):
    """The most weight won within 3 after ``first`` over every set S of at most M second guesses: the
    weight of ``first`` if an answer, plus, per first-feedback class, the best over S of the weight of the
    heaviest answer of each class the second guess makes there (named at guess 3, or hit at guess 2)."""
    parts: dict[int, list[str]] = {}
    for a in A.words:
        parts.setdefault(feedback(first, a), []).append(a)
    hit = sum(w[a] for a in parts.pop(all_green(5), []))

    def value(g, P):
        below: dict[int, list[str]] = {}
        for a in P:
            below.setdefault(feedback(g, a), []).append(a)
        return sum(max(w[a] for a in Q) for Q in below.values())

    v = {(c, g): value(g, P) for c, P in parts.items() for g in G.words}
    best = 0
    for size in range(1, M + 1):
        for S in itertools.combinations(G.words, size):
            best = max(best, sum(max(v[c, g] for g in S) for c in parts))
    return hit + best


@pytest.mark.parametrize("letter,extra,first,seed", [("q", 6, "delph", 1), ("j", 0, "jelly", 2), ("q", 6, "quiet", 3)])
def test_weighted_memorable_equals_brute_force(letter, extra, first, seed):
    A, G = lettered(letter, extra)
    F = feedback_matrix(G, A, cache=False)
    W = random_weights(A, seed, top=30)
    w = dict(zip(A.words, W.values.tolist()))
    for M in (1, 2):
        r = solve_memorable(A, G, first, M, workers=1, F=F, weights=W)
        assert r.status == "OPTIMAL" and r.wins == r.bound == brute_weighted(A, G, first, M, w), M
        played = replay(r.tree, A, G, depth=3)
        assert played.valid and W.total - sum(w[a] for a in played.lost) == r.wins
        assert len({t.guess for t in r.tree.children.values()}) <= M
        assert r.probability == r.wins / W.total and r.to_json()["weights"]["sha256"] == W.sha256
    full = solve_memorable(A, G, first, len(r.tree.children), workers=1, F=F, weights=W)
    assert full.wins == full.unconstrained == dp.solve(A, G, depth=3, first=first, progress=False, F=F,
                                                       weights=W).wins


def test_weights_change_the_memorable_optimum():
    # the weighted optimum differs from the weight of the unweighted optimum's tree for some instance,
    # else the tests above could pass with the weights ignored
    A, G = lettered("q", 6)
    F = feedback_matrix(G, A, cache=False)
    gaps = []
    for seed in (1, 2, 3):
        W = random_weights(A, seed, top=30)
        w = dict(zip(A.words, W.values.tolist()))
        plain = solve_memorable(A, G, "delph", 1, workers=1, F=F)
        weighted = solve_memorable(A, G, "delph", 1, workers=1, F=F, weights=W)
        lost = replay(plain.tree, A, G, depth=3).lost
        gaps.append(weighted.wins - (W.total - sum(w[a] for a in lost)))
    assert min(gaps) >= 0 and max(gaps) > 0


def test_unit_weights_give_the_unweighted_memorable_result():
    A, G = lettered("j", 0)
    plain = solve_memorable(A, G, "jelly", 2, workers=1)
    unit = solve_memorable(A, G, "jelly", 2, workers=1, weights=unit_weights(A))
    assert (unit.wins, unit.bound, unit.status, unit.second_guesses, unit.tree) == \
        (plain.wins, plain.bound, plain.status, plain.second_guesses, plain.tree)
    assert "weights" not in unit.to_json()


def test_undominated_is_the_same_by_bitsets_by_scan_and_on_large_values(monkeypatch):
    rng = np.random.default_rng(7)
    for _ in range(100):
        W = rng.integers(0, 4, size=(int(rng.integers(1, 5)), int(rng.integers(1, 25))))
        keep = lp.undominated(W).tolist()
        assert lp._undominated_by_scan(W).tolist() == keep
        assert lp.undominated(W * 1_000_003 + 17).tolist() == keep  # ranks, not values, decide
        monkeypatch.setattr(lp, "BITSET_BYTES", 0)
        assert lp.undominated(W).tolist() == keep
        monkeypatch.undo()


def test_the_memorable_command_takes_weights(tmp_path, write_lines, cli):
    A, G = lettered("j", 0)
    W = random_weights(A, 2, top=30)
    answers, guesses = write_lines(tmp_path / "a.txt", A.words), write_lines(tmp_path / "g.txt", G.words)
    (tmp_path / "w.txt").write_text("".join(f"{a} {v}\n" for a, v in zip(A.words, W.values.tolist())))
    (tmp_path / "ones.txt").write_text("".join(f"{a} 1\n" for a in A.words))
    args = ("wordle", "memorable", "--max-distinct-second", "1", "--first", "jelly", "--answers", answers,
            "--guesses", guesses, "--workers", "1")
    code, out, err = cli(*args, "--json", "--weights", tmp_path / "w.txt")
    assert code == 0, err
    data = json.loads(out)
    w = dict(zip(A.words, W.values.tolist()))
    assert data["wins"] == brute_weighted(A, G, "jelly", 1, w) and data["weights"]["sha256"] == W.sha256
    assert data["probability"] == data["wins"] / W.total
    solve = ("wordle", "solve", "--max-distinct-second", "1", "--first", "jelly", "--answers", answers,
             "--guesses", guesses, "--json", "--weights", tmp_path / "w.txt")
    code, out, err = cli(*solve)
    assert code == 0 and json.loads(out)["wins"] == data["wins"], err
    strip = lambda text: json.loads(text) | {"seconds": 0, "stats": 0}  # noqa: E731 - timings differ
    assert strip(cli(*args, "--json", "--weights", tmp_path / "ones.txt")[1]) == strip(cli(*args, "--json")[1])
