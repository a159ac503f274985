"""The depth-k engine under random integer answer weights (exact.wordle.wins.weighted) against a brute
force that reads only the feedback rule and the hard-mode rule (no matrix, no bound), normal and hard;
unit weights give the unweighted values."""


import numpy as np
import pytest
from click.testing import CliRunner

from exact.bench.wordle import run_weights_bench
from exact.cli import main as cli
from exact.game.position import position
from exact.weights import unit_weights
from exact.wordle.wins.dp import Search, make_wins_instance, solve
from exact.wordle.wins.trees import optimal_tree

from oracles import brute_wins, look_alike, random_weights



@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_weighted_wins_match_brute_force(seed, hard):
    A, G = look_alike(seed, 9, 3)
    W = random_weights(A, seed, top=20)
    by_word = dict(zip(A.words, W.values.tolist()))
    for depth in (1, 2, 3, 4):
        r = solve(A, G, depth=depth, hard=hard, progress=False, weights=W)
        assert r.status == "OPTIMAL" and r.weight == W.total and r.n == len(A)
        assert r.wins == brute_wins(A.words, G.words, depth, hard, by_word), depth
        assert r.to_json()["weights"]["sha256"] == W.sha256 and r.probability == r.wins / W.total
        for g, v in r.top[:3]:  # every reported first guess's value, by brute force with it fixed
            assert v == brute_wins(A.words, G.words, depth, hard, by_word, first=g), (depth, g)
        tree, info, _ = optimal_tree(r, max_guesses=6)  # replays to the weight won (else it raises)
        assert info["first"] in r.optimal_first


@pytest.mark.parametrize("hard", [False, True])
def test_weighted_kernels_with_unit_weights_give_the_unweighted_values(hard):
    A, G = look_alike(11, 12, 4)
    plain = Search(make_wins_instance(A, G, hard))
    weighted = Search(make_wins_instance(A, G, hard))
    weighted.inst.w = unit_weights(A).values  # the weighted kernels, forced on unit weights
    T, rule = position(A, (), hard)
    rows = np.arange(len(G), dtype=np.int64)
    for k in (1, 2, 3, 4):  # every guess (the first guess is free in hard mode)
        assert weighted.value_many(rows, T, k, rule, 0)[0].tolist() == plain.value_many(rows, T, k, rule, 0)[0].tolist()
        assert weighted.wins(T, k, rule) == plain.wins(T, k, rule)


def test_unit_weights_are_the_unweighted_search():
    A, G = look_alike(3, 10, 3)
    r = solve(A, G, depth=3, progress=False, weights=unit_weights(A))
    s = solve(A, G, depth=3, progress=False)
    assert (r.wins, r.n, r.top, r.optimal_first) == (s.wins, s.n, s.top, s.optimal_first)
    assert "weights" not in r.to_json()


def test_the_weights_bench_pairs_weighted_and_unweighted_runs():
    A, G = look_alike(5, 10, 3)
    lines = []
    out = run_weights_bench(G.words[0], echo=lines.append, lists=(A, G), repeats=3)
    for name in ("depth3", "guesses"):
        assert out[name]["ratio"] == out[name]["weighted_seconds"] / out[name]["seconds"] > 0
        pairs = out[name]["pairs"]
        assert [p["first"] for p in pairs] == ["unweighted", "weighted", "unweighted"]  # the order alternates
        times = sorted(p["seconds"]["weighted"] for p in pairs)
        assert out[name]["median_weighted_seconds"] == round(times[1], 3)  # the median of the pairs
    assert sum(line.startswith("  pair ") for line in lines) == 6
    assert sum("order alternated by pair: AB BA AB" in line for line in lines) == 2


def test_verify_needs_the_weights_a_certificate_records(tmp_path):
    A, G = look_alike(2, 9, 3)
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    (tmp_path / "w.txt").write_text("".join(f"{a} {i % 5 + 1}\n" for i, a in enumerate(A.words)))
    (tmp_path / "u.txt").write_text("".join(f"{a} 1\n" for a in A.words))
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    cert = str(tmp_path / "c.json")
    run = CliRunner().invoke
    made = run(cli, ["wordle", "solve", *lists, "--depth", "3", "--weights", str(tmp_path / "w.txt"),
                     "--certificate", cert, "--out", str(tmp_path / "t.txt")])
    assert made.exit_code == 0, made.output
    ok = run(cli, ["wordle", "verify", cert, "--weights", str(tmp_path / "w.txt")])
    assert ok.exit_code == 0 and "verified" in ok.output, ok.output
    found = run(cli, ["wordle", "verify", cert])  # the weights file the certificate names, sha256 checked
    assert found.exit_code == 0 and "verified" in found.output, found.output
    (tmp_path / "w.txt").write_text("".join(f"{a} {i % 5 + 2}\n" for i, a in enumerate(A.words)))
    for extra, message in (([], "are not the certificate's"), (["--weights", str(tmp_path / "u.txt")],
                                                              "are not the certificate's")):
        bad = run(cli, ["wordle", "verify", cert, *extra])
        assert bad.exit_code == 2 and message in bad.output, bad.output
    (tmp_path / "w.txt").unlink()
    gone = run(cli, ["wordle", "verify", cert])
    assert gone.exit_code == 2 and "its weights file is not found" in gone.output, gone.output
