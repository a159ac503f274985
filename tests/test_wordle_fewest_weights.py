"""The fewest-guesses engine under answer weights (tests/test_weights.py: the file format): with
random integer weights against the brute force of tests/oracles.brute_fewest (which weights
each answer's terms directly, no bound involved), in normal and hard mode; unit weights on the
weighted path give the unweighted values and trees."""

import random

import numpy as np
import pytest

from exact.errors import ExactError
from exact.game.position import position
from exact.weights import read_weights, unit_weights
from exact.wordle.fewest.endgame import endgame_bound
from exact.wordle.fewest.lower_bounds import node_bound
from exact.wordle.fewest.scan import lookahead
from exact.wordle.fewest.memo import new_memo
from exact.wordle.fewest.objective import Objective, parse_objective
from exact.wordle.fewest.search import make_guesses_instance, solve_guesses
from exact.words import words_from_lines

from oracles import brute_fewest, look_alike, random_weights


def weighted_vector(result, wins):
    lost = tuple(result.weight - result.wins_within(k) for k in wins)
    return lost + (result.total,)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_weighted_fewest_guesses_matches_brute_force(seed, hard):
    A, G = look_alike(seed, 7, 3)
    W = random_weights(A, seed)
    by_word = dict(zip(A.words, W.values.tolist()))
    for text, max_guesses in (("guesses", 6), ("guesses", 3), ("win2,guesses", 5), ("win3,guesses", 4)):
        objective = parse_objective(text)
        expected = brute_fewest(A.words, G.words, max_guesses, hard, wins=objective.wins, weights=by_word)
        r = solve_guesses(A, G, objective=objective, max_guesses=max_guesses, hard=hard, progress=False, weights=W)
        if expected is None:
            assert r.status == "INFEASIBLE" and r.tree is None
            continue
        assert r.status == "OPTIMAL" and weighted_vector(r, objective.wins) == expected, (text, max_guesses)
        assert r.weight == W.total and abs(r.mean - r.total / W.total) < 1e-12
        for g in G.words[:4]:  # a fixed first guess too
            one = brute_fewest(A.words, G.words, max_guesses, hard, wins=objective.wins, first=g, weights=by_word)
            r1 = solve_guesses(A, G, objective=objective, first=g, max_guesses=max_guesses, hard=hard,
                               progress=False, weights=W)
            assert (r1.tree is None) if one is None else weighted_vector(r1, objective.wins) == one


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_each_weighted_bound_is_at_most_the_brute_force_value(seed, hard):
    """node_bound (with quick's class bound and the endgame bound), the look-ahead and the endgame
    bound alone, on random subsets with random weights (heavy ones too: up to 50), at steps 1 and 2."""
    A, G = look_alike(seed, 7, 3)
    rng = random.Random(100 + seed)
    W = random_weights(A, seed, top=50)
    inst = make_guesses_instance(A, G, Objective(()), 5, hard, weights=W)
    _, rule = position(A, (), hard)
    for _ in range(12):
        S = np.array(sorted(rng.sample(range(len(A)), rng.randint(2, len(A)))), dtype=np.int64)
        t = rng.randint(1, 2)
        words = [A.words[a] for a in S]
        v = brute_fewest(words, G.words, 5 - (t - 1), hard, weights={A.words[a]: int(W.values[a]) for a in S})
        true = float("inf") if v is None else v[-1] + (t - 1) * int(W.values[S].sum())
        bounds = (node_bound(inst.ctx, new_memo(), S, t, rule.greens, rule.least),
                  lookahead(inst.ctx, new_memo(), S, t, rule.greens, rule.least, np.int64(2 ** 40)),
                  endgame_bound(inst.ctx, S, t, rule.greens, rule.least))
        for b in bounds:
            assert int(b) <= true or int(b) >= 2 ** 59, (S, t, bounds, true)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_unit_weights_on_the_weighted_path_give_the_unweighted_values_and_trees(hard):
    for seed in range(4):
        A, G = look_alike(seed, 8, 4)
        plain = solve_guesses(A, G, max_guesses=5, hard=hard, progress=False)
        forced = solve_guesses(A, G, max_guesses=5, hard=hard, progress=False, weights=unit_weights(A),
                               weighted_path=True)
        assert (forced.status, forced.total, forced.wins_at, forced.first) == \
            (plain.status, plain.total, plain.wins_at, plain.first)
        assert (forced.tree is None and plain.tree is None) or forced.tree == plain.tree


@pytest.mark.parametrize("hard", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.parametrize("seed", range(3))
def test_a_weighted_ranking_values_each_first_guess_as_its_weighted_solve_and_bounds_the_rest(seed, hard):
    from exact.wordle.fewest.ranking import rank_first_guesses
    A, G = look_alike(seed, 8, 4)
    W = random_weights(A, seed)
    truth = {g: solve_guesses(A, G, first=g, hard=hard, progress=False, weights=W).total for g in G.words}
    best = min(truth.values())
    assert (best,) == brute_fewest(A.words, G.words, 6, hard, weights=dict(zip(A.words, W.values.tolist())))
    for top in (1, len(G)):  # the threshold falls to the best (bounds tested), or every value exact
        r = rank_first_guesses(A, G, hard=hard, top=top, weights=W, progress=False)
        assert r.status == "OPTIMAL" and r.exact[0][1] == best and r.weight == W.total
        for g, v in r.values.items():
            assert v.total == truth[g] if v.exact else best <= v.total <= truth[g], (g, v, truth[g])
        assert (top == 1) or all(v.exact for v in r.values.values())
        data = r.certificate()
        assert data["weights"]["sha256"] == W.sha256 and data["best"]["mean"] == best / W.total


def test_a_weighted_ranking_certificate_is_verified_with_its_weights_only(tmp_path):
    from exact.fileio import write_json
    from exact.game.formats import write_tree
    from exact.wordle.certificate import verify_certificate
    from exact.wordle.fewest.ranking import rank_first_guesses
    A, G = look_alike(1, 8, 4)
    W = random_weights(A, 1)
    (tmp_path / "a.txt").write_text("".join(w + "\n" for w in A.words))
    (tmp_path / "g.txt").write_text("".join(w + "\n" for w in G.words))
    (tmp_path / "w.txt").write_text("".join(f"{w} {v}\n" for w, v in zip(A.words, W.values.tolist())))
    (tmp_path / "u.txt").write_text("".join(f"{w} 1\n" for w in A.words))
    W = read_weights(tmp_path / "w.txt", words_from_lines(A.words, str(tmp_path / "a.txt")))
    r = rank_first_guesses(A, G, top=2, weights=W, progress=False)
    write_tree(r.tree, tmp_path / "best.json", answers=A)
    write_json(tmp_path / "c.json", r.certificate(files=[str(tmp_path / "best.json")]))
    files = {"answers": tmp_path / "a.txt", "guesses": tmp_path / "g.txt"}
    v = verify_certificate(tmp_path / "c.json", weights=tmp_path / "w.txt", **files)
    assert v.ok and not v.failed, v.checks
    with pytest.raises(ExactError, match="are not the certificate's"):
        verify_certificate(tmp_path / "c.json", weights=tmp_path / "u.txt", **files)
    assert verify_certificate(tmp_path / "c.json", **files).ok  # none given: the file it names, sha256 checked
    data = r.certificate(files=[str(tmp_path / "best.json")])
    word = next(w for w, rec in data["first_guesses"].items() if "total" in rec and w != data["best"]["guess"])
    data["first_guesses"][word]["total"] -= 1  # a value one below the truth: re-derivation refutes it
    data["top_values"] = sorted(data["top_values"], key=lambda d: d["total"])
    write_json(tmp_path / "bad.json", data)
    assert verify_certificate(tmp_path / "bad.json", weights=tmp_path / "w.txt", **files).failed


def test_the_explorer_page_weights_each_node_by_the_answers_reaching_it():
    from exact.wordle.study.explorer import explorer_data
    A, G = look_alike(2, 8, 4)
    W = random_weights(A, 2)
    r = solve_guesses(A, G, progress=False, weights=W)
    plain = explorer_data(r.tree, A, depth=3)
    data = explorer_data(r.tree, A, depth=3, weights=W)
    w = dict(zip(A.words, W.values.tolist()))
    root = data["nodes"][0]
    assert root["W"] == data["weight"] == W.total and root["wt"] == r.total  # every answer solved: the weighted total
    assert root["ww"] == sum(w[a] for a, p in data["paths"].items() if p["won"]) == r.wins_within(3)
    for node in data["nodes"]:  # a node's weight: its answers' (unit weights would give its count)
        assert node["ww"] <= node["W"] and (node["W"] >= node["n"])
    unit = explorer_data(r.tree, A, depth=3, weights=unit_weights(A))
    assert all((n["W"], n["ww"], n["wt"]) == (n["n"], n["w"], n["t"]) for n in unit["nodes"])
    assert all({k: v for k, v in n.items() if k not in ("W", "ww", "wt")} == m for n, m in zip(data["nodes"],
                                                                                            plain["nodes"]))
