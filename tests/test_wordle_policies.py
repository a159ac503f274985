"""Simple second-guess policies (exact.wordle.study.policies) against brute force, and `exact wordle evaluate`."""

import json

import pytest

from exact.feedback import all_green
from exact.wordle.study.policies import POLICIES, evaluate_policy
from exact.words import words_from_lines

from oracles import brute_policy_wins, split


@pytest.mark.parametrize("policy", POLICIES)
def test_policies_match_brute_force(policy, policy_trees, tiny_answers, tiny_guesses):
    assert policy_trees[policy].wins == brute_policy_wins(policy, "slate", tiny_answers.words, tiny_guesses.words, 3)


@pytest.mark.parametrize("policy", ["most-classes", "min-worst", "max-entropy"])
def test_policies_match_brute_force_deeper(policy, tiny_answers, tiny_guesses):
    A = words_from_lines(tiny_answers.words[:25], source="test")
    G = words_from_lines(sorted(set(tiny_guesses.words[:40]) | set(A.words)), source="test")
    for depth in (2, 4):
        assert evaluate_policy(A, G, G[1], policy, depth).wins == brute_policy_wins(policy, G[1], A.words, G.words, depth)


def test_most_classes_is_the_depth3_optimum_by_brute_force(policy_trees, tiny_answers, tiny_guesses):
    # With the first guess fixed, wins_3 = sum over its classes P of max_g (classes of g on P).
    best = sum(max(len(split(g, P)) for g in tiny_guesses.words) if pat != all_green(5) else 1
               for pat, P in split("slate", tiny_answers.words).items())
    assert policy_trees["most-classes"].wins == best
    assert all(e.wins <= best for e in policy_trees.values())


@pytest.fixture(scope="module")
def lists(tmp_path_factory, write_lines, tiny_answers, tiny_guesses):
    d = tmp_path_factory.mktemp("lists")
    return write_lines(d / "answers.txt", tiny_answers.words), write_lines(d / "guesses.txt", tiny_guesses.words)


@pytest.mark.slow
def test_cli_evaluate_then_verify(tmp_path, lists, policy_trees, tiny_answers, cli):
    answers, guesses = lists
    out = tmp_path / "tree.graphml"
    code, stdout, stderr = cli("wordle", "evaluate", "--first", "SLATE", "--second", "min-worst", "--answers", answers,
                               "--guesses", guesses, "--out", out, "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["wins"] == policy_trees["min-worst"].wins
    # The installed entry point, end to end.
    r = cli("wordle", "verify", out, "--answers", answers, "--guesses", guesses, "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert (report["wins"], report["n"], report["valid"]) == (policy_trees["min-worst"].wins, len(tiny_answers), True)
    assert len(report["lost"]) == len(tiny_answers) - report["wins"]
    # The graph file records the lists it was made on: checked against other guesses, it is refused.
    code, _, stderr = cli("wordle", "verify", out, "--answers", answers, "--guesses", answers)
    assert code == 2 and "was made on" in stderr
    # The same tree in a format that records no lists, against a guess list without its second
    # guesses: invalid, exit 1.
    text = tmp_path / "tree.txt"
    assert cli("wordle", "convert", out, text, "--answers", answers)[0] == 0
    code, stdout, _ = cli("wordle", "verify", text, "--answers", answers, "--guesses", answers)
    assert code == 1 and "not-allowed" in stdout


def test_cli_evaluate_defaults_to_most_classes_and_plays_every_answer_to_the_end(lists, policy_trees, cli,
                                                                                tiny_answers):
    answers, guesses = lists
    code, stdout, stderr = cli("wordle", "evaluate", "--first", "slate", "--answers", answers, "--guesses", guesses,
                               "--json")
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["policy"] == "most-classes" and data["wins"] == policy_trees["most-classes"].wins
    assert data["played_to_the_end"]["solved"] == len(tiny_answers)
    assert data["played_to_the_end"]["wins"] == data["wins"]
    code, stdout, _ = cli("wordle", "evaluate", "--first", "slate", "--answers", answers, "--guesses", guesses,
                          "--depth", "2", "--truncate")
    assert code == 0 and "never solved" in stdout and "the tree stops at guess 2" in stdout
    code, stdout, _ = cli("wordle", "evaluate", "--first", "slate", "--answers", answers, "--guesses", guesses,
                          "--depth", "2")
    assert code == 0 and f"solved {len(tiny_answers)} / {len(tiny_answers)} (every answer)" in stdout
    assert "never solved" not in stdout
