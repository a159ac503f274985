"""The rough edges a new player met on a fresh clone (issue 31, item 7; item 5's snapshot and --exclude):
each test failed on the code before the fix."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import exact
from exact import partitions
from exact.words import named_lists, words_from_lines


def test_docs_give_the_fast_sets_time_and_readme_says_how_to_run_it(root):
    readme = (root / "README.md").read_text()
    assert 'python -m pytest -m "not slow"' in readme and "docs/layout.md" in readme
    layout = (root / "docs" / "layout.md").read_text()
    assert re.search(r'-m "not slow"`, took \d+ s', layout), "docs/layout.md states the fast set's measured time"


def test_the_first_build_of_a_feedback_matrix_says_so(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(partitions, "BUILD_NOTICE_BYTES", 1)
    words = words_from_lines(["cigar", "rebut", "sissy", "humph"], "four.txt")
    partitions.feedback_matrix(words, words)
    first = capsys.readouterr().err
    assert "building the feedback matrix" in first and str(tmp_path) in first
    partitions.feedback_matrix(words, words)  # from the cache now: nothing to say
    assert "building" not in capsys.readouterr().err


def test_readme_outputs_are_git_ignored(root):
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    readme = (root / "README.md").read_text()
    outputs = set(re.findall(r"--(?:out|certificate|checkpoint|html) ([\w./-]+)", readme))
    local = sorted(p for p in outputs if not p.startswith(("results/", "instances/", "models/")) and p != "FILE.json")
    assert {"w3.json", "w3.txt", "run.jsonl", "tree.html", "card.svg"} <= set(local)
    for path in local:
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=root)
        assert ignored.returncode == 0, f"{path}, written by a README command, is not git-ignored"


def test_word_list_takes_a_list_name():
    answers, guesses = named_lists("nyt2023")
    assert exact.word_list("nyt2023").words == answers.words
    assert exact.word_list("nyt2023", source="guesses").words == guesses.words


def test_read_tree_of_a_shipped_result_works_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tree = exact.read_tree("results/wordle/salet-guesses.txt")
    assert tree.guess == "salet" and tree.answers == 2315


def test_docs_api_walks_a_tree_by_feedback(root):
    api = (root / "docs" / "api.md").read_text()
    assert ".children[parse_pattern(" in api  # run as a doctest by tests/test_api.py


def test_docs_give_compare_ranking_its_arguments(root):
    """Each `exact wordle compare-ranking CERT TABLE` of README and the docs names two committed files."""
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    commands = [(page.name, m.groups()) for page in pages
                for m in re.finditer(r"exact wordle compare-ranking\s+(\S+)\s+([^\s`]+)", page.read_text())
                if m.group(1) != "CERT"]
    assert len(commands) >= 5, commands  # the six rankings against Selby's tables
    for page, paths in commands:
        assert all((root / p).is_file() for p in paths), (page, paths)


def test_one_first_guess_agrees_in_the_singular(cli, root, tmp_path):
    table = tmp_path / "one.txt"
    table.write_text("salet 7920\n")
    r = cli("wordle", "compare-ranking", root / "results/wordle/ranking-guesses-certificate.json", table)
    assert r.returncode == 0 and "1 first guess agrees exactly" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("answer, fragment", [("crab", "4 letters"), ("zzzzz", "neither an answer")])
def test_a_bad_answer_is_refused_before_anything_is_played(cli, answer, fragment, assert_one_line_error):
    result = cli("wordle", "play", "--answer", answer)
    assert result[1] == "", "nothing is printed before the error: no header, no guess"
    assert_one_line_error(result, fragment)


@pytest.mark.slow
def test_play_names_the_list_and_its_date(cli):
    code, stdout, _ = cli("wordle", "play", "--answer", "cigar")
    assert code == 0 and "a snapshot of 1 Jul 2023" in stdout.splitlines()[0]


@pytest.mark.slow
def test_an_answer_beyond_the_list_is_played_over_every_allowed_word(cli):
    """aahed is allowed but no answer of the 1 Jul 2023 snapshot: the game says so and goes on to solve it."""
    answers, guesses = named_lists("nyt2023")
    assert "aahed" not in answers.index and "aahed" in guesses.index
    code, stdout, _ = cli("wordle", "play", "--answer", "aahed")
    assert code == 0, stdout
    assert "going on over every allowed word" in stdout and "solved in" in stdout.splitlines()[-1]


def test_exclude_removes_answers_already_played(cli, tmp_path, write_lines):
    played = write_lines(tmp_path / "played.txt", ["cigar", "rebut", "sissy"])
    code, stdout, _ = cli("wordle", "play", "--answer", "humph", "--exclude", played)
    assert code == 0 and "3155 candidates" in stdout and "less the 3 answers" in stdout.splitlines()[0]


@pytest.mark.slow
def test_analyse_excludes_answers_already_played(cli, tmp_path, write_lines):
    played = write_lines(tmp_path / "played.txt", ["cigar", "rebut"])
    A = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]
    answers = write_lines(tmp_path / "a.txt", A)
    code, stdout, stderr = cli("wordle", "analyse", "sissy.bbbbb.focal", "--answers", answers, "--guesses", answers,
                               "--exclude", played)
    assert code == 0, stderr
    assert re.search(r"1 sissy\s+\S+\s+6>", stdout), stdout
