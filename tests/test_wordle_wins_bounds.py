"""Staged depth-k rejection (exact.wordle.wins.bounds): the memo, the class bounds, one guess per
partition and feature caps at large nodes, against brute force and the plain search on tiny lists,
in normal and hard mode, with and without random integer answer weights."""

import random

import numpy as np
import pytest

from exact.feedback import feedback
from exact.game.hard import no_constraint
from exact.weights import Weights, unit_weights, weights_sha256
from exact.wordle.wins import dp
from exact.bench.depthk import run_depthk_bench
from exact.wordle.wins.bounds import StagedSearch, WinsMemo, distinct_partitions, forget_memos, process_memo
from exact.wordle.wins.ranking import run
from exact.words import wordle_answers, words_from_lines

from oracles import brute_values, clustered, random_sized, random_weights



def check_against(truth: dict, search, A, G, k: int, hard: bool, threshold: int) -> int:
    """Every first guess valued by one search (its memo shared): exact values equal the truth, a
    pruned one's bound is below the threshold and at least the truth. Returns how many were pruned."""
    T = np.arange(len(A), dtype=np.int64)
    pruned = 0
    for g in G.words:
        v, ok = search.value(G.index[g], T, k, no_constraint(A.length), threshold)
        if ok:
            assert v == truth[g], g
        else:
            assert truth[g] <= v < threshold, (g, truth[g], v, threshold)
            pruned += 1
    return pruned


@pytest.mark.parametrize("seed", [0, 1] + [pytest.param(s, marks=pytest.mark.slow) for s in range(2, 6)])
def test_staged_values_match_brute_force(seed):
    A, G = random_sized(200 + seed)
    k, hard = 4, seed % 2 == 0
    truth = brute_values(A.words, G.words, k, hard)
    best = max(truth.values())
    search = StagedSearch(dp.make_wins_instance(A, G, hard))
    for threshold in (0, best, best + 1):  # 0: every value exact; then with the memo of the run before
        check_against(truth, search, A, G, k, hard, threshold)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_staged_prunes_and_agrees_with_the_plain_search_on_clustered_answers(hard):
    A, G = clustered(7, 20)
    inst = dp.make_wins_instance(A, G, hard)
    plain = dp.Search(inst)
    T = np.arange(len(A), dtype=np.int64)
    truth = {g: plain.value(G.index[g], T, 4, no_constraint(5), 0)[0] for g in G.words}
    best = max(truth.values())
    assert best < len(A)  # answers are lost: the bounds have something to bite on
    search = StagedSearch(dp.make_wins_instance(A, G, hard))
    assert check_against(truth, search, A, G, 4, hard, best) > 0
    assert check_against(truth, search, A, G, 4, hard, best) > 0  # again, from the memo
    assert search.memo.hits > 0


def lossy(hard: bool):
    """1000 answers, the only guesses: classes of 8 or more below the first guess that the first block
    of guesses does not split, and answers lost within 4 (the bounds have something to bite on)."""
    A = words_from_lines(sorted(random.Random(11).sample(wordle_answers().words, 1000)), "lossy")
    return dp.make_wins_instance(A, A, hard)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_feature_caps_at_large_nodes_agree_with_the_plain_search(hard):
    """Argument 4 with nodes of 20 answers or more featured (the default waits for 50): 5 first
    guesses valued at depth 4 exactly, then against the best of them (each pruned one below it, at
    least its value), as by the plain search. (Feature caps halved make some of the exact values
    wrong here; tests/test_wordle_dp.py checks the caps themselves and value_3 with and without them.)"""
    inst = lossy(hard)
    G = inst.guesses
    firsts = [G.index[g] for g in random.Random(2).sample(G.words, 5)]
    T, rule = np.arange(len(inst.answers), dtype=np.int64), no_constraint(5)
    plain = dp.Search(inst)
    truth = {g: plain.value(g, T, 4, rule, 0)[0] for g in firsts}
    assert min(truth.values()) < len(T)
    search = StagedSearch(dp.make_wins_instance(inst.answers, G, hard))
    search.node_features_min = 20
    for threshold in (0, max(truth.values())):
        for g in firsts:
            v, ok = search.value(g, T, 4, rule, threshold)
            assert (v == truth[g]) if ok else (truth[g] <= v < threshold), (G.words[g], v, ok, truth[g])


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_global_search_staged_or_not_gives_the_same_result(hard):
    A, G = clustered(3, 15)
    staged, plain = (run(A, G, depth=4, hard=hard, progress=False, staged=s) for s in (True, False))
    assert staged.status == plain.status == "OPTIMAL"
    assert (staged.wins, staged.optimal_first) == (plain.wins, plain.optimal_first)
    assert staged.top() == plain.top()


def canonical(F: np.ndarray, g: int, T: np.ndarray) -> frozenset:
    parts = {}
    for a in T:
        parts.setdefault(int(F[g, a]), []).append(int(a))
    return frozenset(frozenset(P) for P in parts.values())


@pytest.mark.parametrize("seed", range(3))
def test_one_guess_per_partition_exactly(seed):
    A, G = clustered(seed, 40)
    inst = dp.make_wins_instance(A, G, False)
    rng = np.random.default_rng(seed)
    T = np.sort(rng.choice(len(A), size=12, replace=False)).astype(np.int64)
    node = dp.make_node(inst, T)
    kept = distinct_partitions(node, inst.npat)
    forms = [canonical(inst.F, g, T) for g in kept]
    assert len(set(forms)) == len(forms)  # no partition twice
    assert {canonical(inst.F, g, T) for g in node.order} == set(forms)  # every partition once
    assert list(kept) == [g for g in node.order if g in set(kept)]  # in the node's order
    assert len(kept) < len(node.order)  # on 12 answers some guesses do cut alike


def test_memo_keeps_exact_values_and_the_least_bound():
    memo = WinsMemo()
    P = np.array([1, 4, 9], dtype=np.int64)
    key = memo.key(P, 3, no_constraint(5), False)
    assert key != memo.key(P, 2, no_constraint(5), False) != memo.key(P[:2], 3, no_constraint(5), False)
    memo.put(key, 3, False)
    memo.put(key, 2, False)
    memo.put(key, 3, False)
    assert (memo.get(key).value, memo.get(key).exact) == (2, False)
    memo.put(key, 2, True)
    memo.put(key, 1, False)  # a bound never replaces an exact value
    assert (memo.get(key).value, memo.get(key).exact) == (2, True)
    small = WinsMemo(limit=len(key))
    small.put(key, 2, True)
    other = small.key(P + 1, 3, no_constraint(5), False)
    small.put(other, 1, True)  # over the limit: started afresh
    assert small.get(key) is None and small.get(other).value == 1


def test_hard_mode_keys_carry_the_rule():
    memo = WinsMemo()
    P = np.array([0, 2], dtype=np.int64)
    greens, least = no_constraint(5)
    greens2 = greens.copy()
    greens2[0] = 3
    assert memo.key(P, 3, (greens, least), True) != memo.key(P, 3, (greens2, least), True)
    assert feedback("crane", "crane") > 0  # the pattern codes the keys stand beside


def test_the_memo_outlives_a_batch_and_follows_the_instance():
    # a Dask worker unpickles a fresh search per batch: the memo must be the process's, per instance
    A, G = random_sized(300)
    inst = dp.make_wins_instance(A, G, False)
    assert process_memo(inst) is process_memo(dp.make_wins_instance(A, G, False))
    assert process_memo(inst) is not process_memo(dp.make_wins_instance(A, G, True))
    forget_memos()


@pytest.mark.slow
def test_bench_runs_both_engines_on_the_same_guesses_and_they_agree():
    A, G = clustered(11, 10)
    lines = []
    out = run_depthk_bench(A, G, threshold=len(A), depth=4, sample=2, seed=2, echo=lines.append, repeats=3)
    assert len(out["words"]) == 2 and out["plain_seconds"] >= 0 and out["staged_seconds"] >= 0
    assert lines[-1].startswith("plain ") and lines[-1].endswith(f"plain / staged = {out['ratio']:.2f}x")
    assert sum(line.startswith(f"  {w}: plain ") for w in out["words"] for line in lines) == 2
    assert [p["first"] for p in out["pairs"]] == ["plain", "staged", "plain"]  # alternated
    assert "AB BA AB" in out["order"] and out["order"] in lines
    assert sum(line.startswith("  pair ") for line in lines) == 3


@pytest.mark.slow
def test_bench_filter_baseline_times_the_previous_hard_mode_filter_and_they_agree():
    A, G = clustered(11, 10)
    lines = []
    out = run_depthk_bench(A, G, threshold=len(A) - 3, depth=4, hard=True, sample=3, seed=2, echo=lines.append,
                           repeats=2, baseline="filter")
    assert out["baseline"] == "filter-before" and {"filter-before_seconds", "staged_seconds"} <= set(out)
    assert [p["first"] for p in out["pairs"]] == ["filter-before", "staged"]
    assert lines[-1].endswith(f"filter-before / staged = {out['ratio']:.2f}x") and "(hard mode)" in lines[0]


def test_bench_refuses_the_filter_baseline_outside_hard_mode(cli):
    code, out, err = cli("wordle", "bench", "--depth-rejection", 100, "--baseline", "filter")
    assert code == 2 and "--baseline filter goes with --depth-rejection and --hard" in err, out + err


@pytest.mark.slow
def test_bench_weighted_pairs_the_staged_search_with_and_without_weights():
    A, G = clustered(11, 10)
    lines = []
    out = run_depthk_bench(A, G, threshold=len(A) - 2, depth=4, sample=2, seed=1, echo=lines.append,
                           repeats=2, weighted=True)
    assert out["weighted"] and {"unweighted_seconds", "weighted_seconds"} <= set(out)
    assert [p["first"] for p in out["pairs"]] == ["unweighted", "weighted"]
    assert lines[-1].endswith(f"weighted / unweighted = {out['ratio']:.2f}x")
    assert "threshold " + str(len(A) - 2) + " (2x that weighted" in lines[0]


# --- under answer weights ------------------------------------------------------------------------

def weighted_instance(A, G, hard, W):
    inst = dp.make_wins_instance(A, G, hard, weights=W)
    assert inst.w is not None  # the weighted kernels
    return inst


@pytest.mark.parametrize("seed,k", [(0, 3), (1, 4), (2, 4)] + [pytest.param(s, k, marks=pytest.mark.slow)
                                                               for s in range(3, 9) for k in (3, 4)])
def test_staged_weighted_values_match_brute_force(seed, k):
    A, G = random_sized(400 + seed)
    hard = seed % 2 == 1
    W = random_weights(A, seed, top=30)
    truth = brute_values(A.words, G.words, k, hard, dict(zip(A.words, W.values.tolist())))
    best = max(truth.values())
    search = StagedSearch(weighted_instance(A, G, hard, W))
    T = np.arange(len(A), dtype=np.int64)
    for threshold in (0, best, best + 1):  # 0: every value exact; then with the memo of the run before
        check_against(truth, search, A, G, k, hard, threshold)
        # wins_k of the whole set: at k = 3 in normal mode by one guess per partition (argument 3)
        v, ok = search.wins(T, k, no_constraint(A.length), threshold)
        assert (v == best) if ok else (best <= v < threshold), (v, ok, best, threshold)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_staged_weighted_prunes_on_clustered_answers_and_agrees_with_the_plain_search(hard):
    A, G = clustered(5, 12)
    W = random_weights(A, 5, top=50)
    plain = dp.Search(weighted_instance(A, G, hard, W))
    T = np.arange(len(A), dtype=np.int64)
    truth = {g: plain.value(G.index[g], T, 4, no_constraint(5), 0)[0] for g in G.words}
    best = max(truth.values())
    assert best < W.total  # weight is lost: the bounds have something to bite on
    search = StagedSearch(weighted_instance(A, G, hard, W))
    assert check_against(truth, search, A, G, 4, hard, best) > 0
    assert check_against(truth, search, A, G, 4, hard, best) > 0  # again, from the memo
    assert search.memo.hits > 0


@pytest.mark.parametrize("hard", [False, True])
def test_staged_with_unit_weights_gives_exactly_the_unweighted_values(hard):
    A, G = random_sized(500 + hard)
    k = 4
    plain = StagedSearch(dp.make_wins_instance(A, G, hard))
    forced = dp.make_wins_instance(A, G, hard)
    forced.w = unit_weights(A).values  # the weighted kernels and bounds, forced on unit weights
    weighted = StagedSearch(forced)
    T = np.arange(len(A), dtype=np.int64)
    truth = {g: plain.value(G.index[g], T, k, no_constraint(5), 0)[0] for g in G.words}
    assert truth == {g: weighted.value(G.index[g], T, k, no_constraint(5), 0)[0] for g in G.words}
    best = max(truth.values())
    for search in (plain, weighted):
        check_against(truth, search, A, G, k, hard, best + 1)


def test_weighted_global_search_runs_staged_and_agrees_with_the_plain_one():
    A, G = random_sized(600)
    W = random_weights(A, 6, top=40)
    truth = brute_values(A.words, G.words, 4, False, dict(zip(A.words, W.values.tolist())))
    staged, plain = (run(A, G, depth=4, progress=False, staged=s, weights=W) for s in (True, False))
    assert staged.status == plain.status == "OPTIMAL"
    assert staged.wins == plain.wins == max(truth.values())
    assert staged.optimal_first == plain.optimal_first == sorted(g for g, v in truth.items() if v == staged.wins)
    assert staged.top() == plain.top()
    forget_memos()


def test_the_memo_is_one_per_weights():
    A, G = random_sized(301)
    W1, W2 = random_weights(A, 1), random_weights(A, 2)
    assert W1.sha256 != W2.sha256
    one = process_memo(weighted_instance(A, G, False, W1))
    assert process_memo(weighted_instance(A, G, False, W1)) is one  # the same weights: the same memo
    assert process_memo(weighted_instance(A, G, False, W2)) is not one
    assert process_memo(dp.make_wins_instance(A, G, False)) is not process_memo(weighted_instance(A, G, False, W2))
    same = Weights(W1.values.copy(), "another file", weights_sha256(A, W1.values))
    assert process_memo(weighted_instance(A, G, False, same)) is process_memo(weighted_instance(A, G, False, W1))
    forget_memos()


@pytest.mark.slow
def test_bench_cli_depth_rejection_weighted_says_its_order(cli):
    args = ("wordle", "bench", "--list", "original", "--depth-rejection", 100, "-k", 2, "--sample", 2)
    code, out, err = cli(*args, "--weighted", "--repeats", 1)
    assert code == 0, out + err
    assert "one pair, unweighted first (not alternated" in out and "weighted / unweighted = " in out
    assert "threshold 100 (2x that weighted" in out
    code, out, err = cli(*args)
    assert code == 0 and "AB BA (A = plain, B = staged)" in out and "plain / staged = " in out, out + err
