"""The exact Wordle DP against brute force (normal and hard mode), and its trees replayed."""

import random

import pytest

from exact.errors import ExactError
from exact.feedback import all_green, feedback
from exact.wordle.dp import best_tree, solve, tie_break_first
from exact.wordle.hard import is_allowed
from exact.wordle.tree import replay
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def brute_values(answers, guesses, k, hard=False):
    """value_k(g, A) for every first guess g: a plain recursive max over guesses, no pruning."""
    green = all_green(len(answers[0]))

    def wins(T, k, history):
        if k == 0 or not T:
            return 0
        return max(value(g, T, k, history) for g in guesses if not hard or is_allowed(g, history))

    def value(g, T, k, history):
        classes = {}
        for a in T:
            classes.setdefault(feedback(g, a), []).append(a)
        return sum(1 if p == green else wins(P, k - 1, history + ((g, p),)) for p, P in classes.items())

    return {g: value(g, list(answers), k, ()) for g in guesses}


def tiny(seed):
    rng = random.Random(seed)
    A = sorted(rng.sample(wordle_answers().words, rng.randint(6, 10)))
    G = sorted(set(A) | set(rng.sample(wordle_allowed().words, rng.randint(6, 12))))
    return words_from_lines(A, f"tiny{seed}"), words_from_lines(G, f"tiny{seed}-guesses")


@pytest.mark.parametrize("seed", range(16))
def test_dp_matches_brute_force(seed):
    A, G = tiny(seed)
    k, hard = 1 + seed % 4, seed % 3 == 1
    values = brute_values(A.words, G.words, k, hard)
    best = max(values.values())
    r = solve(A, G, depth=k, hard=hard, progress=False)
    assert r.status == "OPTIMAL"
    assert r.wins == best
    assert r.optimal_first == sorted(g for g, v in values.items() if v == best)
    assert [v for _, v in r.top] == sorted(values.values(), reverse=True)[:10]
    assert all(values[g] == v for g, v in r.top)
    for g in G.words[:3]:
        assert solve(A, G, depth=k, hard=hard, first=g, progress=False).wins == values[g]


@pytest.mark.parametrize("seed", range(6))
def test_tree_replays_to_the_dp_value(seed):
    A, G = tiny(100 + seed)
    k, hard = 2 + seed % 3, seed % 2 == 1
    r = solve(A, G, depth=k, hard=hard, progress=False)
    tree = best_tree(A, G, k, tie_break_first(r), hard)
    played = replay(tree, A, G, depth=k, hard=hard)
    assert played.valid, played.invalid
    assert played.wins == r.wins


@pytest.mark.parametrize("k", [2, 3])
def test_pruning_agrees_on_clustered_answers(k):
    # -ight, -atch, -ound words cannot all be split: every level prunes and loses answers
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound")]
    G = sorted(set(A) | set(random.Random(5).sample(wordle_allowed().words, 25)))
    A, G = words_from_lines(A), words_from_lines(G)
    values = brute_values(A.words, G.words, k)
    r = solve(A, G, depth=k, progress=False)
    assert r.wins == max(values.values()) < len(A)
    assert [v for _, v in r.top] == sorted(values.values(), reverse=True)[:10]


def test_answers_must_be_guesses():
    A = words_from_lines(["cabin", "cable"], "a.txt")
    G = words_from_lines(["cabin", "caber"], "g.txt")
    with pytest.raises(ExactError, match="'cable' is not in g.txt"):
        solve(A, G, progress=False)
    with pytest.raises(ExactError, match="^first 'zzzzz'"):  # the library names its parameter
        solve(A, words_from_lines(["cabin", "cable"]), first="zzzzz", progress=False)


def test_solve_command_writes_tree_and_certificate(tmp_path):
    import json

    from click.testing import CliRunner

    from exact.cli import main
    from exact.wordle.treeio import read_tree

    A, G = tiny(3)
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    args = ["wordle", "solve", "--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt"),
            "--depth", "2", "--out", str(tmp_path / "t.graphml"), "--out", str(tmp_path / "t.txt"),
            "--certificate", str(tmp_path / "c.json"), "--json"]
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data == json.loads((tmp_path / "c.json").read_text())
    assert data["status"] == "OPTIMAL" and data["tree"]["replay"]["wins"] == data["wins"]
    assert data["answers"]["sha256"] == A.sha256
    tree = read_tree(tmp_path / "t.graphml")
    assert replay(tree, A, G, depth=2).wins == data["wins"] == max(brute_values(A.words, G.words, 2).values())
    bad = CliRunner().invoke(main, args[:6] + ["--first", "zzzzz"])
    assert bad.exit_code == 2 and "not in" in bad.output
