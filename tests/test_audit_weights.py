"""exact wordle audit under random integer answer weights (exact/wordle/study/audit.py): every node's
weighted optimum against a brute force that reads only the feedback and hard-mode rules, normal and hard
mode, both objectives; the identity (losses below the first guess add up to the gap) under weights; the
optimum over every first guess read only from a certificate of the same weights; unit weights give the
unweighted audit exactly; the CLI's --weights."""

import json

import pytest

from exact.feedback import all_green
from exact.game.formats import write_tree
from exact.game.tree import record_lists
from exact.weights import unit_weights
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study import audit as audit_module
from exact.wordle.study.audit import audit_tree, certificate_weights, optimal_overall
from exact.words import wordle_allowed, wordle_answers

from oracles import look_alike, node_optimum, random_tree, random_weights, reaching, split


INF = 10 ** 12
GREEN = all_green(5)


def a_tree(A, G, seed, hard):
    """A tree that loses something: a random one (normal mode), or the unweighted optimum (hard mode:
    legal by construction; under weights it is no longer optimal in general)."""
    return solve_guesses(A, G, hard=True, progress=False).tree if hard else random_tree(A.words, G.words, seed)


def check_audit(audit, tree, A, G, W, hard, objective, limit):
    w = dict(zip(A.words, W.values.tolist()))
    opt = node_optimum(G.words, w, hard, objective, limit)
    for node in audit.nodes[1:]:  # the root's optimum is the one over every first guess
        T = reaching(tree, node.history, A.words)
        clues = tuple(sorted(node.history)) if hard else ()
        assert node.optimum == opt(T, len(node.history) + 1, clues), node
    clues = lambda p: ((tree.guess, p),) if hard else ()  # noqa: E731 - the first guess's clue
    first = sum(w[tree.guess] if p == GREEN else opt(frozenset(P), 2, clues(p))  # green at guess 1: its weight
                for p, P in split(tree.guess, A.words).items())
    assert audit.optimal_given_first == first
    assert sum(d.loss for d in audit.decisions) == audit.gap >= 0
    assert audit.gap == (audit.total - first if objective == "guesses" else first - audit.total)
    assert audit.to_json()["weights"]["sha256"] == W.sha256


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_weighted_fewest_audit_every_node_against_brute_force(seed, hard):
    A, G = look_alike(seed, 8, 3)
    W = random_weights(A, seed, top=20)
    tree = a_tree(A, G, seed, hard)
    audit = audit_tree(tree, A, G, hard=hard, progress=False, weights=W)
    check_audit(audit, tree, A, G, W, hard, "guesses", 6)
    w = dict(zip(A.words, W.values.tolist()))

    def played(node, T, t):  # the tree's own weighted total, by playing every answer through it
        return sum(t * w[node.guess] if p == GREEN else played(node.children[p], P, t + 1) for p, P in split(node.guess, T).items())

    assert audit.total == played(tree, A.words, 1)


@pytest.mark.parametrize("hard", [False, True])
def test_weighted_depth_k_audit_every_node_against_brute_force(hard):
    A, G = look_alike(3, 8, 3)
    W = random_weights(A, 3, top=20)
    tree = a_tree(A, G, 3, hard)
    for K in (2, 3):
        audit = audit_tree(tree, A, G, depth=K, hard=hard, progress=False, weights=W)
        assert audit.objective == "wins"
        check_audit(audit, tree, A, G, W, hard, "wins", K)


def test_weights_change_the_audit_and_some_decision_loses():
    # The unweighted optimum is audited under weights: it must lose somewhere for some seed, else the
    # weighted checks above could pass with the weights ignored.
    losses = []
    for seed in (1, 2, 4):
        A, G = look_alike(seed, 8, 3)
        tree = solve_guesses(A, G, progress=False).tree
        assert audit_tree(tree, A, G, progress=False).gap == 0
        losses.append(audit_tree(tree, A, G, progress=False, weights=random_weights(A, seed, top=20)).gap)
    assert any(losses)


@pytest.mark.parametrize("depth", [None, 3])
def test_unit_weights_give_the_unweighted_audit(depth):
    A, G = look_alike(5, 8, 3)
    tree = random_tree(A.words, G.words, 5)
    plain = audit_tree(tree, A, G, depth=depth, progress=False).to_json()
    unit = audit_tree(tree, A, G, depth=depth, progress=False, weights=unit_weights(A)).to_json()
    for data in (plain, unit):
        data.pop("seconds")
    assert unit == plain and "weights" not in unit


def test_the_optimum_overall_is_read_only_under_the_certificate_s_weights(tmp_path, monkeypatch):
    A, G = wordle_answers(), wordle_allowed()
    value, source = optimal_overall("guesses", 6, False, A, G)  # the committed unweighted ranking
    assert value == 7920 and source.endswith("certificate.json")
    W = random_weights(A, 1)
    assert optimal_overall("guesses", 6, False, A, G, W) == (None, None)  # no certificate of these weights
    data = json.loads((audit_module.shipped_results(f"results/wordle/{source.split('/')[-1]}")[0]).read_text())
    data["weights"] = W.record()
    data["best"]["total"] = 123456
    fake = tmp_path / "ranking-guesses-w-certificate.json"
    fake.write_text(json.dumps(data))
    monkeypatch.setattr(audit_module, "shipped_results", lambda pattern: [fake])
    assert optimal_overall("guesses", 6, False, A, G, W) == (123456, f"results/wordle/{fake.name}")
    assert optimal_overall("guesses", 6, False, A, G) == (None, None)  # a weighted certificate: not unweighted
    assert certificate_weights(data) == W.sha256 and certificate_weights({}) is None


def test_the_cli_takes_weights(tmp_path, write_lines, cli):
    A, G = look_alike(2, 8, 3)
    W = random_weights(A, 2, top=20)
    answers, guesses = write_lines(tmp_path / "a.txt", A.words), write_lines(tmp_path / "g.txt", G.words)
    (tmp_path / "w.txt").write_text("".join(f"{a} {v}\n" for a, v in zip(A.words, W.values.tolist())))
    (tmp_path / "ones.txt").write_text("".join(f"{a} 1\n" for a in A.words))
    tree = random_tree(A.words, G.words, 2)
    write_tree(record_lists(tree, A, G), tmp_path / "t.json")
    args = ("wordle", "audit", tmp_path / "t.json", "--answers", answers, "--guesses", guesses)
    code, out, err = cli(*args, "--json", "--weights", tmp_path / "w.txt")
    assert code == 0, err
    data = json.loads(out)
    expected = audit_tree(tree, A, G, progress=False, weights=W)
    assert (data["total"], data["gap"], data["weights"]["sha256"]) == (expected.total, expected.gap, W.sha256)
    code, out, err = cli(*args, "--weights", tmp_path / "w.txt")
    assert code == 0 and "answers weighted by" in out, err
    assert cli(*args, "--weights", tmp_path / "ones.txt")[1] == cli(*args)[1]  # unit weights: today's output
