"""Named lists: `--list NAME` on every Wordle command, the lists each name resolves to (checked by
sha256), what certificates and trees record of them, and the refusal of a tree made on other lists."""

import hashlib
import json

import click
import pytest

from exact.cli import main
from exact.errors import ExactError
from exact.feedback import feedback
from exact.game.tree import Tree, check_tree_lists, record_lists, tree_lists
from exact.game.formats import read_tree, write_tree
from exact.words import NAMED_LISTS, list_name, named_lists, words_from_lines


@pytest.mark.parametrize("name", list(NAMED_LISTS))
def test_each_named_list_is_its_files_with_their_recorded_sha256(name, root):
    entry = NAMED_LISTS[name]
    answers, guesses = named_lists(name)
    for words, file, sha in ((answers, entry.answers, entry.answers_sha256), (guesses, entry.guesses, entry.guesses_sha256)):
        assert hashlib.sha256((root / "instances" / file).read_bytes()).hexdigest() == sha == words.sha256
        assert sha in (root / "instances" / file.split("/")[0] / "README.md").read_text()
    assert set(answers.words) <= set(guesses.words)
    assert list_name(answers, guesses) == name


def test_the_lists_sizes_and_the_all_lists():
    sizes = {name: tuple(map(len, named_lists(name))) for name in NAMED_LISTS}
    assert sizes == {"original": (2315, 12972), "nyt2022": (2309, 14855), "nyt2023": (3158, 14855),
                     "all": (12972, 12972), "nyt-all": (14855, 14855), "nyt-prior": (5000, 14855)}
    assert named_lists("all")[0].words == named_lists("original")[1].words


def wordle_commands():
    group = main.commands["wordle"]
    return {name: cmd for name, cmd in group.commands.items()}


def test_every_wordle_command_with_an_answer_list_takes_list():
    with_answers = {name for name, cmd in wordle_commands().items()
                    if any(isinstance(p, click.Option) and "--answers" in p.opts for p in cmd.params)}
    assert {"solve", "play", "verify", "evaluate", "export", "openers", "tradeoff", "memorable", "complete",
            "convert"} <= with_answers
    for name in with_answers | {"bench"}:
        options = [p for p in wordle_commands()[name].params if isinstance(p, click.Option) and "--list" in p.opts]
        assert options and list(options[0].type.choices) == list(NAMED_LISTS), name


@pytest.mark.slow
def test_list_reaches_the_command_and_answers_override(tmp_path, cli, write_lines):
    r = cli("wordle", "openers", "--list", "nyt2023", "--top", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("answers: instances/nyt/nyt-2023-answers.txt (3158), guesses: instances/nyt/nyt-allowed.txt (14855)")
    small = write_lines(tmp_path / "a.txt", ["booed", "tarse"])
    r = cli("wordle", "openers", "--list", "nyt2023", "--answers", small, "--top", "1")
    assert f"answers: {small} (2), guesses: instances/nyt/nyt-allowed.txt (14855)" in r.stdout
    r = cli("wordle", "openers", "--list", "nyt2024")
    assert r.returncode == 2 and "nyt2024" in r.stderr


@pytest.mark.slow
def test_certificates_and_graph_trees_record_their_lists(tmp_path, cli):
    cert, out = tmp_path / "c.json", tmp_path / "t.graphml"
    r = cli("wordle", "solve", "--list", "nyt2022", "--depth", "1", "--first", "tarse", "--truncate",
            "--certificate", cert, "--out", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(cert.read_text())
    assert data["list"] == "nyt2022" and data["answers"]["sha256"] == NAMED_LISTS["nyt2022"].answers_sha256
    record = tree_lists(read_tree(out))
    assert record["list"] == "nyt2022" and record["guesses_sha256"] == NAMED_LISTS["nyt2022"].guesses_sha256
    r = cli("wordle", "verify", out, "--list", "nyt2022")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("suffix", [".graphml", ".json", ".dot"])
def test_verify_refuses_a_tree_made_on_other_lists_in_one_line(suffix, tmp_path, cli):
    path = tmp_path / f"t{suffix}"
    write_tree(record_lists(Tree("tarse", 3158, {}), *named_lists("nyt2023")), path)
    r = cli("wordle", "verify", path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        f"exact: error: {path} was made on list nyt2023 (3158 answers, 14855 guesses), not on list original "
        f"(2315 answers, 12972 guesses): choose its lists (--list nyt2023)"]
    r = cli("wordle", "export", path, "--html", tmp_path / "x.html", "--list", "nyt2022")
    assert r.returncode == 2 and "not on list nyt2022" in r.stderr and not (tmp_path / "x.html").exists()


def test_other_files_are_named_by_their_sha256():
    A = words_from_lines(["cabin", "cable"])
    t = record_lists(Tree("cabin", 2, {}), A, A)
    assert tree_lists(t)["list"] is None
    check_tree_lists(t, A, A)
    with pytest.raises(ExactError, match=r"answers sha256 .* \(--answers and --guesses\)"):
        check_tree_lists(t, *named_lists("original"))


@pytest.mark.parametrize("command", [["wordle", "play", "--answer", "booed"], ["wordle", "verify"],
                                     ["wordle", "export", "--html", "x.html"]])
def test_a_text_tree_has_no_room_for_its_lists_and_is_refused_by_its_answers(command, root, tmp_path, cli):
    """Selby's text format records no lists: a committed tree on the original lists, played, verified or
    exported on today's list, is refused in one line before any work (play once ran past 60 s)."""
    tree = root / "results" / "wordle" / "salet-guesses.txt"
    args = [*command[:2], str(tree), *command[2:]] if command[1] != "play" else [*command, "--tree", str(tree)]
    r = cli(*args, "--list", "nyt2023", cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "x.html").exists(), r.stderr
    assert r.stderr.strip().splitlines() == [
        f"exact: error: {tree} solves answers not on list nyt2023 (3158 answers, 14855 guesses) (11: gypsy, gipsy, "
        f"mammy, ...): it was made on other lists; choose them (--list, or --answers and --guesses)"]


def test_answer_leaves_are_checked_against_the_answers():
    A = words_from_lines(["cabin", "cable", "caddy"])
    t = Tree("cabin", 3, {feedback("cabin", "cable"): Tree("cable", 1, {}), feedback("cabin", "caddy"): Tree("caddy", 1, {})})
    check_tree_lists(t, A, A)
    with pytest.raises(ExactError, match=r"solves answers not on .* \(1: caddy\)"):
        check_tree_lists(t, words_from_lines(["cabin", "cable", "candy"]), None, "t.txt")
