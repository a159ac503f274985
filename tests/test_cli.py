"""The real console entry point: reports, JSON, and a one-line error for every bad input."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from exact.partitions import cache_dir
from exact.words import wordle_answers


@pytest.fixture(scope="module")
def pool_file(tmp_path_factory, write_lines):
    return write_lines(tmp_path_factory.mktemp("pool") / "pool.txt", wordle_answers().words[:200])


def test_lingo_score_json(pool_file, cli):
    r = cli("lingo", "score", "about", "beach", "--words", pool_file, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert {"n", "wins", "probability", "solved_exactly", "largest_class", "stumpers", "guesses"} <= set(data)
    assert data["n"] == 200 and data["guesses"] == ["about", "beach"]
    assert data["probability"] == data["wins"] / data["n"]


@pytest.mark.slow
def test_lingo_score_report(pool_file, cli):
    r = cli("lingo", "score", "ABOUT", "beach", "--words", pool_file)
    assert r.returncode == 0, r.stderr
    assert "wins:" in r.stdout and "by first letter:" in r.stdout and "stumper:" in r.stdout


def test_lingo_score_on_enable(enable5, cli):
    r = cli("lingo", "score", "hater", "funds", "pigmy", "block", "--words", enable5, "--json")
    data = json.loads(r.stdout)
    assert (data["wins"], data["n"], data["largest_class"]) == (8180, 8636, 6)


@pytest.mark.slow
def test_wordle_openers_json_on_embedded_lists(cli):
    r = cli("wordle", "openers", "--top", "3", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["guess"] for row in rows] == ["trace", "salet", "crate"]
    assert rows[0]["classes"] == 150
    assert set(rows[0]) == {"guess", "classes", "worst", "mean_size", "expected_size", "entropy"}


def test_wordle_openers_by_metric(pool_file, cli):
    r = cli("wordle", "openers", "--answers", pool_file, "--guesses", pool_file, "--metric", "worst", "--json")
    rows = json.loads(r.stdout)
    assert [row["worst"] for row in rows] == sorted(row["worst"] for row in rows)


@pytest.mark.slow
@pytest.mark.parametrize("content, fragments", [
    ("crane\nslate\ncrane\n", ["bad.txt:3", "'crane'", "duplicates line 1"]),
    ("crane\nslates\n", ["bad.txt:2", "'slates'", "6 letters"]),
    ("crane\ncr4ne\n", ["bad.txt:2", "'cr4ne'", "a-z"]),
    ("", ["bad.txt", "empty"]),
])
def test_bad_word_lists(tmp_path, content, fragments, cli, assert_one_line_error):
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    assert_one_line_error(cli("lingo", "score", "crane", "--words", bad), *fragments)
    assert_one_line_error(cli("wordle", "openers", "--answers", bad), *fragments)


@pytest.mark.slow
def test_missing_file(tmp_path, cli, assert_one_line_error):
    assert_one_line_error(cli("lingo", "score", "crane", "--words", tmp_path / "none.txt"), "none.txt", "no such file")


@pytest.mark.slow
def test_guess_outside_pool_and_nonwords(pool_file, cli, assert_one_line_error):
    assert_one_line_error(cli("lingo", "score", "zzzzz", "--words", pool_file), "'zzzzz'", "pool.txt")
    assert cli("lingo", "score", "zzzzz", "--words", pool_file, "--allow-nonwords").returncode == 0
    assert_one_line_error(cli("lingo", "score", "zzzz", "--words", pool_file), "'zzzz'", "4 letters")


@pytest.mark.slow
def test_lists_of_different_lengths(tmp_path, pool_file, cli, write_lines, assert_one_line_error):
    six = write_lines(tmp_path / "six.txt", ["abacus", "bakers"])
    assert_one_line_error(cli("wordle", "openers", "--answers", pool_file, "--guesses", six), "6-letter")


@pytest.mark.slow
def test_unknown_metric_is_rejected(cli):
    r = cli("wordle", "openers", "--metric", "luck")
    assert r.returncode != 0 and "luck" in r.stderr


@pytest.mark.slow
def test_solve_max_distinct_second_is_the_memorable_variant(tmp_path, pool_file, cli, assert_one_line_error):
    args = ["--answers", pool_file, "--guesses", pool_file, "--first", "about", "--json"]
    via_solve = cli("wordle", "solve", "--max-distinct-second", "2", *args)
    via_memorable = cli("wordle", "memorable", "--max-distinct-second", "2", *args)
    assert via_solve.returncode == 0, via_solve.stderr
    a, b = json.loads(via_solve.stdout), json.loads(via_memorable.stdout)
    assert (a["wins"], a["status"]) == (b["wins"], b["status"])
    assert_one_line_error(cli("wordle", "solve", "--max-distinct-second", "2", "--depth", "4", *args), "depth 3")


def help_examples():
    """The example commands of ``exact --help``: (arguments, what the line says)."""
    from exact.cli import main

    lines = main.help.split("Examples:")[1].splitlines()
    out = []
    for line in lines:
        if line.strip().startswith("exact "):
            out.append(line.strip().split("  ")[0].split()[1:])
    return out


def test_top_level_help_shows_examples_that_parse(cli):
    from exact.cli import main

    code, out, _ = cli("--help")
    assert code == 0 and "Examples:" in out and "exact wordle analyse" in out
    examples = help_examples()
    assert len(examples) >= 5
    for args in examples:
        command, rest = main, list(args)
        while hasattr(command, "commands") and rest and rest[0] in command.commands:
            command = command.commands[rest.pop(0)]
        assert not hasattr(command, "commands") or rest in ([], ["--help"]), args
        if rest != ["--help"]:
            command.make_context(command.name, rest)  # parses: options and arguments exist


@pytest.mark.slow
def test_the_numbers_in_the_help_examples(cli):
    code, out, err = cli("lingo", "score", "blink", "chomp", "gudes", "warty")
    assert code == 0 and "8282 / 8636" in out, err
    code, out, err = cli("wordle", "solve", "--objective", "guesses", "--first", "salet", "--list", "original")
    assert code == 0 and "total 7920 guesses" in out, err


def _commands(command, path=()):
    import click
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, path + (name,))
    else:
        yield path, command


def test_one_option_names_each_guess_limit():
    """Two limits, one name each, on every Wordle and plot command: ``-k/--depth K`` counts the wins
    within K guesses, ``--max-guesses N`` is the game's limit (every answer solved within N)."""
    from exact.cli import main

    seen = set()
    for path, command in _commands(main):
        if path[0] not in ("wordle", "plot"):
            continue
        for param in command.params:
            names = set(param.opts) | set(param.secondary_opts)
            limit = names & {"-k", "--depth", "--win", "--k", "--max-depth", "--limit", "--guesses-allowed"}
            if limit:
                assert names == {"-k", "--depth"}, (path, names)
                seen.add(path)
            if "--max-guesses" in names:
                assert names == {"--max-guesses"}, (path, names)
    assert ("wordle", "tradeoff") in seen and ("wordle", "solve") in seen and ("plot", "histogram") in seen


def test_rank_help_has_its_own_options_only(cli):
    code, out, _ = cli("wordle", "rank", "--help")
    assert code == 0
    for option in ("--objective [guesses|feasible]", "--depth", "--first FILE", "--cutoff", "--checkpoint", "--resume",
                   "--cluster", "--certificate"):
        assert option in out, option
    for option in ("--after", "--compare", "--max-distinct-second"):
        assert option not in out, option


@pytest.mark.parametrize("args, fragment", [
    ([], "give one of --objective"),
    (["--objective", "guesses", "--depth", "3"], "give one of --objective"),
    (["--depth", "3", "--cutoff", "10"], "--depth K with --first or --cutoff: drop them"),
    (["--depth", "3", "--first", "words.txt"], "--depth K with --first or --cutoff: drop them"),
    (["--objective", "guesses", "--truncate"], "--truncate goes with --depth"),
])
def test_rank_refuses_options_that_do_not_go_together(cli, args, fragment, assert_one_line_error):
    assert_one_line_error(cli("wordle", "rank", *args), fragment)


@pytest.mark.slow
def test_rank_on_a_tiny_list_and_the_old_spellings(tmp_path, cli, write_lines):
    """Both questions of `exact wordle rank` on four words; `solve`'s old spellings give the same answer
    and a note pointing to the new one."""
    words = write_lines(tmp_path / "w.txt", ["caber", "cabin", "cable", "cache"])
    lists = ["--answers", words, "--guesses", words, "--json"]
    fewest = cli("wordle", "rank", "--objective", "guesses", *lists)
    assert fewest.returncode == 0, fewest.stderr
    data = json.loads(fewest.stdout)
    assert data["kind"] == "fewest-ranking" and data["status"] == "OPTIMAL" and data["first_guesses_done"] == 4
    wins = cli("wordle", "rank", "--depth", "2", *lists)
    assert wins.returncode == 0, wins.stderr
    assert json.loads(wins.stdout)["kind"] == "wins-global" and json.loads(wins.stdout)["status"] == "OPTIMAL"
    old = cli("wordle", "solve", "--objective", "guesses", "--first", "all", *lists)
    assert old.returncode == 0 and json.loads(old.stdout)["best"] == data["best"], old.stderr
    assert "exact: note: 'exact wordle solve --objective guesses --first all' is now 'exact wordle rank " \
           "--objective guesses'" in old.stderr.splitlines()
    old = cli("wordle", "solve", "--depth", "2", "--checkpoint", tmp_path / "run.jsonl", *lists)
    assert old.returncode == 0 and json.loads(old.stdout)["wins"] == json.loads(wins.stdout)["wins"], old.stderr
    assert any(line.startswith("exact: note: ") and "'exact wordle rank --depth 2'" in line
               for line in old.stderr.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["wordle", "book", "--list", "original", "--openers", "instances/wordle/openers.txt", "--out", "BOOK"],
    ["wordle", "card", "--max-distinct-second", "2", "--out", "CARD"],
])
def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path, command):
    """``exact ... | head`` where head has gone: no internal error, no report, the exit status of SIGPIPE."""
    root = Path(__file__).resolve().parents[1]
    shutil.copy(root / "results" / "wordle" / "book" / "original.json.gz", tmp_path / "book.json.gz")
    args = [str(tmp_path / "book.json.gz") if a == "BOOK" else str(tmp_path / "card.svg") if a == "CARD" else a
            for a in command]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    reports = cache_dir() / "reports"
    before = set(reports.glob("*")) if reports.exists() else set()
    proc = subprocess.run([sys.executable, "-m", "exact", *args], stdout=write, stderr=subprocess.PIPE, text=True,
                          cwd=root, timeout=600)
    os.close(write)
    assert proc.returncode == 141, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert (set(reports.glob("*")) if reports.exists() else set()) == before
