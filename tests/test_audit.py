"""exact wordle audit (exact/wordle/study/audit.py): every node's optimum against brute force on tiny lists,
the identity (the losses below the first guess add up to the gap), a deliberately bad decision, the JSON
keys, the page, bad input, and the peers' published trees (slow, skipped when ../shared is absent)."""

import json
from pathlib import Path

import pytest

from exact.errors import ExactError
from exact.feedback import all_green, feedback
from exact.game.formats import read_tree, write_tree
from exact.game.tree import Tree, path_text, preorder, record_lists
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.audit import audit_tree
from exact.wordle.study.audit_page import audit_html
from exact.words import named_lists, wordle_allowed, wordle_answers, words_from_lines

from oracles import node_optimum, random_tree, reaching, split

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT.parent / "shared" / "data" / "peers"


@pytest.fixture(scope="module")
def lists():
    """Look-alike answers (16 ending in -ter: where a guess matters) and, as guesses, those with every 700th
    allowed word."""
    ter = [w for w in wordle_answers().words if w.endswith("ter")]
    A = words_from_lines(ter[::max(1, len(ter) // 20)][:20], source="audit-answers")
    G = words_from_lines(sorted(set(A.words) | set(wordle_allowed().words[::700])), source="audit-guesses")
    return A, G


@pytest.fixture(scope="module")
def brute_cost(lists):
    """The fewest total guesses of answers T from guess t (within 6), by brute force."""
    opt = node_optimum(lists[1].words, None, False, "guesses", 6)
    return lambda T, t: opt(frozenset(T), t, ())


@pytest.mark.parametrize("seed", range(4))
def test_every_node_s_optimum_is_brute_force_s_and_the_losses_add_up_to_the_gap(lists, brute_cost, seed):
    A, G = lists
    tree = random_tree(A.words, G.words, seed)
    audit = audit_tree(tree, A, G, progress=False)
    cost = brute_cost
    for node in audit.nodes[1:]:  # the root's optimum is the optimum over every first guess
        T = reaching(tree, node.history, A.words)
        assert node.answers == len(T)
        assert node.optimum == cost(T, len(node.history) + 1), node
    root_classes = split(tree.guess, A.words)
    assert audit.optimal_given_first == sum(1 if p == all_green(5) else cost(frozenset(P), 2)
                                            for p, P in root_classes.items())
    assert sum(d.loss for d in audit.decisions) == audit.gap == audit.total - audit.optimal_given_first
    assert audit.gap > 0 and any(not n.settled for n in audit.nodes[1:])  # these random trees lose something
    assert audit.total == sum(len(h) + 1 for h, n in preorder(tree) if n.guess in reaching(tree, h, A.words))
    assert audit.optimal_overall is None and audit.first_guess_loss is None  # no certificate for these lists


def test_a_decision_s_loss_is_its_guess_with_optimal_play_below_less_the_optimum(lists, brute_cost):
    A, G = lists
    tree = random_tree(A.words, G.words, 7)
    audit = audit_tree(tree, A, G, progress=False)
    cost = brute_cost
    by_path = {d.path: d for d in audit.decisions}
    for node in audit.nodes[1:]:
        t, T = len(node.history) + 1, reaching(tree, node.history, A.words)
        for g, expected in ((node.played, node.optimum + node.loss), (node.best, node.optimum)):
            parts = split(g, T)
            assert sum(t if p == all_green(5) else cost(frozenset(P), t + 1) for p, P in parts.items()) == expected
        if node.loss:
            d = by_path[path_text(node.history, 5)]
            assert (d.played, d.best, d.loss, d.answers) == (node.played, node.best, node.loss, node.answers)
    assert len(by_path) == len([n for n in audit.nodes[1:] if n.loss]) and all(d.loss > 0 for d in by_path.values())
    assert [d.loss for d in audit.decisions] == sorted((d.loss for d in audit.decisions), reverse=True)


def test_the_engine_s_own_tree_audits_to_gap_0_and_a_bad_decision_is_found(lists):
    A, G = lists
    tree = solve_guesses(A, G, progress=False).tree
    audit = audit_tree(tree, A, G, progress=False)
    assert (audit.gap, audit.decisions, audit.total) == (0, [], audit.optimal_given_first)
    # the largest class of the first guess gets a guess that splits nothing: each answer a guess later
    pattern, child = max(tree.children.items(), key=lambda pc: pc[1].answers)
    T = reaching(tree, ((tree.guess, pattern),), A.words)
    useless = next(g for g in G.words if len(split(g, T)) == 1 and g not in T)
    tree.children[pattern] = Tree(useless, len(T), {feedback(useless, next(iter(T))): child})
    bad = audit_tree(tree, A, G, progress=False)
    assert bad.gap == len(T) and bad.total == audit.total + len(T)
    (decision,) = bad.decisions
    assert (decision.played, decision.loss, decision.answers) == (useless, len(T), len(T))
    assert decision.path == path_text(((tree.guess, pattern),), 5)


def test_depth_k_audit_every_node_against_brute_force(lists):
    A, G = lists
    tree = random_tree(A.words, G.words, 3)
    for K in (2, 3):
        opt = node_optimum(G.words, None, False, "wins", K)
        audit = audit_tree(tree, A, G, depth=K, progress=False)
        assert audit.objective == "wins" and sum(d.loss for d in audit.decisions) == audit.gap
        for node in audit.nodes[1:]:
            T = reaching(tree, node.history, A.words)
            assert node.optimum == opt(T, len(node.history) + 1, ()), node
        assert audit.optimal_given_first == sum(1 if p == all_green(5) else opt(frozenset(P), 2, ())
                                                for p, P in split(tree.guess, A.words).items())


@pytest.mark.slow
def test_hard_mode_the_engine_s_hard_tree_is_optimal(lists):
    A, G = lists
    tree = solve_guesses(A, G, hard=True, progress=False).tree
    audit = audit_tree(tree, A, G, hard=True, progress=False)
    assert audit.hard and audit.gap == 0 and audit.total == audit.optimal_given_first


def test_unsolved_answers_are_named_and_partial_audits_the_rest(lists):
    A, G = lists
    tree = solve_guesses(A, G, progress=False).tree
    pattern, child = max(tree.children.items(), key=lambda pc: pc[1].answers)
    del tree.children[pattern]
    dropped = sorted(reaching(tree, ((tree.guess, pattern),), A.words))
    with pytest.raises(ExactError, match=f"{len(dropped)} answers not solved within 6 guesses: {dropped[0]} at "
                                         f"\\[{tree.guess} \\d{{5}}\\].*--partial"):
        audit_tree(tree, A, G, progress=False, name="t.json")
    audit = audit_tree(tree, A, G, partial=True, progress=False)
    assert audit.partial and audit.n == len(A) - len(dropped) and sorted(u.answer for u in audit.unsolved) == dropped
    assert audit.optimal_overall is None and audit.gap == 0


def test_a_guess_not_allowed_is_refused(lists):
    A, G = lists
    tree = solve_guesses(A, G, progress=False).tree
    tree.guess = next(w for w in wordle_allowed().words if w not in G.index)
    with pytest.raises(ExactError, match="not-allowed"):
        audit_tree(tree, A, G, progress=False)


def test_the_cli_json_keys_the_page_and_a_tree_on_other_lists(lists, tmp_path, write_lines, cli,
                                                              assert_one_line_error):
    A, G = lists
    answers, guesses = write_lines(tmp_path / "a.txt", A.words), write_lines(tmp_path / "g.txt", G.words)
    tree = random_tree(A.words, G.words, 1)
    write_tree(record_lists(tree, A, G), tmp_path / "t.json")
    code, out, err = cli("wordle", "audit", tmp_path / "t.json", "--answers", answers, "--guesses", guesses, "--json",
                         "--html", tmp_path / "t.html")
    assert code == 0, err
    data = json.loads(out)
    assert {"total", "optimal_given_first", "optimal_overall", "gap", "first_guess_loss", "decisions"} <= set(data)
    assert data["optimal_overall"] is None and sum(d["loss"] for d in data["decisions"]) == data["gap"]
    assert all(set(d) >= {"path", "played", "best", "loss"} for d in data["decisions"])
    page = (tmp_path / "t.html").read_text()
    assert page.count("<details") == sum(1 for _ in preorder(tree)) and "<script" not in page
    code, out, err = cli("wordle", "audit", tmp_path / "t.json")  # the original lists: not the tree's
    assert_one_line_error((code, out, err), "t.json was made on", "--answers and --guesses")


def test_the_page_escapes_and_colours_by_loss(lists):
    A, G = lists
    tree = random_tree(A.words, G.words, 2)
    audit = audit_tree(tree, A, G, progress=False)
    page = audit_html(tree, audit, "<b>&")
    assert "&lt;b&gt;&amp;" in page and "<b>&" not in page
    if audit.decisions:
        assert "hsl(0,70%,85%)" in page  # the largest loss is red
    assert "hsl(120,70%,85%)" in page


@pytest.fixture(scope="module")
def peers():
    if not (PEERS / "README.md").is_file():
        pytest.skip(f"{PEERS} is absent (the other solvers' trees are not committed)")
    return PEERS


@pytest.mark.slow
def test_xangregg_raise_audits_to_the_issue_s_numbers(peers):
    A, G = named_lists("original")
    audit = audit_tree(read_tree(peers / "xangregg-raise.txt"), A, G, progress=False)
    assert (audit.total, audit.optimal_given_first, audit.optimal_overall, audit.gap, audit.first_guess_loss) == \
        (8214, 8014, 7920, 200, 94)
    assert sum(d.loss for d in audit.decisions) == 200


@pytest.mark.slow
@pytest.mark.parametrize("name", ["selby-salet-normal.tree", "olson-salet.tree.total.js"])
def test_the_proven_salet_trees_audit_to_gap_0(peers, name):
    A, G = named_lists("original")
    audit = audit_tree(read_tree(peers / name), A, G, progress=False)
    assert (audit.total, audit.gap, audit.decisions, audit.first_guess_loss) == (7920, 0, [], 0)


def test_ctrl_c_reports_the_decisions_audited_so_far(lists, monkeypatch):
    from exact.wordle.study import audit as module

    A, G = lists
    tree = random_tree(A.words, G.words, 1)
    full = audit_tree(tree, A, G, progress=False)
    calls, optimum = [], module._Fewest.optimum

    def stopping(self, node, choice):
        calls.append(node)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return optimum(self, node, choice)
    monkeypatch.setattr(module._Fewest, "optimum", stopping)
    cut = audit_tree(tree, A, G, progress=False)
    assert cut.interrupted and cut.gap is None and cut.optimal_given_first is None
    assert set(cut.decisions) <= set(full.decisions) and len(cut.nodes) < len(full.nodes)
    assert "not audited" in audit_html(tree, cut, "cut")


def test_the_cli_names_unsolved_answers_and_partial_audits_the_rest(lists, tmp_path, write_lines, cli,
                                                                    assert_one_line_error):
    A, G = lists
    answers, guesses = write_lines(tmp_path / "a.txt", A.words), write_lines(tmp_path / "g.txt", G.words)
    tree = random_tree(A.words, G.words, 1)
    pattern = max(tree.children, key=lambda p: tree.children[p].answers)
    del tree.children[pattern]
    write_tree(record_lists(tree, A, G), tmp_path / "t.json")
    args = ("wordle", "audit", tmp_path / "t.json", "--answers", answers, "--guesses", guesses)
    dropped = sorted(reaching(tree, ((tree.guess, pattern),), A.words))
    assert_one_line_error(cli(*args), "t.json", "not solved within 6 guesses", f"{dropped[0]} at [{tree.guess} ",
                          "--partial")
    code, out, err = cli(*args, "--partial")
    assert code == 0, err
    assert f"{len(A) - len(dropped)} answers (the answers it solves: --partial)" in out
    assert f"not solved (left out): {len(dropped)} answers: {' '.join(dropped[:10])}" in out
