"""The CP-SAT tree model (exact.wordle.wins.cpsat) against brute force and the DP, and its model files."""

import pytest

from exact.feedback import all_green
from exact.partitions import feedback_matrix
from exact.wordle.wins import dp
from exact.cpsat import run
from exact.weights import unit_weights
from exact.wordle.wins.cpsat import build_tree_model, export_model, import_model, node_choices, solve_tree, tree_nodes
from exact.game.tree import replay
from exact.words import words_from_lines

from oracles import brute_wins, random_weights, sampled


@pytest.mark.slow
@pytest.mark.parametrize("seed,n,extra,depth", [(1, 12, 4, 2), (2, 10, 6, 2), (3, 11, 4, 3), (4, 12, 3, 3),
                                                (5, 9, 6, 3), (6, 6, 2, 1), (7, 14, 0, 3)])
def test_cpsat_tree_equals_brute_force_and_dp(seed, n, extra, depth):
    A, G = sampled(seed, n, extra)
    F = feedback_matrix(G, A, cache=False)
    sol = solve_tree(A, G, depth, workers=1, F=F)
    assert sol.status == "OPTIMAL" and sol.bound == sol.wins
    assert sol.wins == brute_wins(A.words, G.words, depth) == dp.solve(A, G, depth=depth, progress=False, F=F).wins
    played = replay(sol.tree, A, G, depth=depth)
    assert played.valid and played.wins == sol.wins


def test_cpsat_is_not_trivially_all_wins():
    # Over all seeds above at depth 2 some instance must lose answers, else the checks prove little.
    values = []
    for seed in (1, 2, 8):
        A, G = sampled(seed, 12, 2)
        values.append((solve_tree(A, G, 2, workers=1).wins, len(A)))
    assert any(w < n for w, n in values)


def test_model_export_import_round_trip(tmp_path):
    A, G = sampled(3, 11, 4)
    F = feedback_matrix(G, A, cache=False)
    path = tmp_path / "m" / "tiny.pb"
    sol = solve_tree(A, G, 3, workers=1, F=F, export=path)
    model = import_model(path)
    root, nodes = tree_nodes(F, 3, all_green(5))
    assert len(model.proto.variables) == len(build_tree_model(root, nodes).choose) == sol.stats["variables"]
    out = run(model, time_limit=30, workers=1)
    assert out.status == "OPTIMAL"
    assert out.objective == sol.wins
    assert [p.name for p in path.parent.iterdir()] == ["tiny.pb"]  # no temporary file left behind
    before = path.read_bytes()
    export_model(model, path)  # the imported model exports to the same bytes (and overwrites by rename)
    assert path.read_bytes() == before


def test_import_rejects_garbage(tmp_path):
    from exact.errors import ExactError

    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xff\xff not a protobuf")
    with pytest.raises(ExactError, match="bad.pb"):
        import_model(bad)


def test_answers_must_be_guesses():
    from exact.errors import ExactError

    A, G = sampled(1, 6, 2)
    with pytest.raises(ExactError, match="is not in"):
        solve_tree(A, words_from_lines(G.words[1:], "short"), 2, workers=1)


@pytest.mark.parametrize("seed,n,extra,depth", [(21, 9, 3, 1), (22, 10, 4, 2), (23, 9, 3, 2), (24, 8, 3, 3)])
def test_weighted_cpsat_tree_equals_brute_force_and_dp(seed, n, extra, depth):
    A, G = sampled(seed, n, extra)
    F = feedback_matrix(G, A, cache=False)
    W = random_weights(A, seed, top=30)
    sol = solve_tree(A, G, depth, workers=1, F=F, weights=W)
    assert sol.status == "OPTIMAL" and sol.bound == sol.wins and sol.total == W.total
    assert sol.wins == brute_wins(A.words, G.words, depth, weights=dict(zip(A.words, W.values.tolist())))
    assert sol.wins == dp.solve(A, G, depth=depth, progress=False, F=F, weights=W).wins
    assert sol.to_json()["weights"]["sha256"] == W.sha256 and sol.probability == sol.wins / W.total
    played = replay(sol.tree, A, G, depth=depth)  # replayed independently: the weight of the answers not lost
    assert played.valid and W.total - sum(int(W.values[A.index[a]]) for a in played.lost) == sol.wins


def test_weighted_depth2_merge_is_by_weight_not_class_counts():
    # At depth 2 two guesses with equal class counts may win different weight: the model keeps both
    # values apart (the choices' weights are the sums of per-class maxima, each checked by brute force).
    A, G = sampled(25, 10, 4)
    F = feedback_matrix(G, A, cache=False)
    W = random_weights(A, 25, top=30)
    green = all_green(5)
    root = (2, frozenset(range(len(A))))
    choices = node_choices(F, root, green, root, W.values)

    def value(g):  # g first, then the best last guess on each class (by brute force)
        parts: dict = {}
        for a in range(len(A)):
            parts.setdefault(int(F[g, a]), []).append(a)
        return sum(int(W.values[P[0]]) if p == green else brute_wins([A.words[i] for i in P], G.words, 1,
                                                                           weights=dict(zip(A.words, W.values.tolist())))
                   for p, P in parts.items())

    values = [value(g) for g in range(len(G))]
    assert sorted(c.weight for c in choices) == sorted(set(values))  # one choice per value, every value
    assert all(values[c.guess] == c.weight for c in choices)
    counts = [len(set(F[g].tolist())) for g in range(len(G))]
    by_count: dict = {}
    for g in range(len(G)):
        by_count.setdefault(counts[g], set()).add(values[g])
    assert any(len(v) > 1 for v in by_count.values())  # equal counts, unequal weight: the old merge would lose


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_unit_weights_give_the_unweighted_cpsat_tree(depth):
    A, G = sampled(3, 11, 4)
    F = feedback_matrix(G, A, cache=False)
    plain, unit = solve_tree(A, G, depth, workers=1, F=F), solve_tree(A, G, depth, workers=1, F=F, weights=unit_weights(A))
    assert (unit.wins, unit.bound, unit.status, unit.stats["variables"]) == \
        (plain.wins, plain.bound, plain.status, plain.stats["variables"])
    assert unit.tree == plain.tree and unit.to_json().keys() == plain.to_json().keys()
