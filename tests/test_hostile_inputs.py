"""Hostile but plausible input (issue 29, points 5 to 8): every input bounded, no traceback (exit 70)
on plausible input, the Python API refusing what it cannot take with ExactError, the exported page safe.
Each test names the failure it guards against; each failed before its fix."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exact
from exact.errors import ExactError
from exact.feedback import feedback, parse_pattern
from exact.game.position import MAX_GUESSES
from exact.game.tree import Tree
from exact.wordle.study.explorer import explorer_data, explorer_html
from exact.words import words_from_lines

ROOT = Path(__file__).resolve().parents[1]
FORGED = ROOT.parent / "shared" / "data" / "forged"
A8 = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]


@pytest.fixture(scope="module")
def w8(tmp_path_factory, write_lines):
    return write_lines(tmp_path_factory.mktemp("w8") / "w8.txt", A8)


# --- 5. every input bounded -------------------------------------------------------------------------

@pytest.mark.skipif(not (FORGED / "cert-max-guesses-1e9.json").is_file(), reason="no forged certificate in ../shared")
def test_a_certificate_with_a_huge_max_guesses_is_refused_at_once(cli, assert_one_line_error):
    out = cli("wordle", "verify", FORGED / "cert-max-guesses-1e9.json", cwd=ROOT)
    assert_one_line_error(out, "max_guesses must be at most 64", "cert-max-guesses-1e9.json")


def test_a_certificate_limit_is_checked_before_anything_is_sized(tmp_path):
    from exact.wordle.certificate import verify_certificate

    data = json.loads((ROOT / "results" / "wordle" / "salet-guesses-certificate.json").read_text())
    for field, value in (("max_guesses", 10**6), ("max_guesses", 0), ("max_guesses", True)):
        path = tmp_path / "c.json"
        path.write_text(json.dumps({**data, field: value}))
        with pytest.raises(ExactError, match=field) as e:
            verify_certificate(path)
        assert e.value.path == str(path)


@pytest.mark.parametrize("args", [
    ("wordle", "solve", "--max-guesses", str(10**6)),
    ("wordle", "solve", "--depth", str(MAX_GUESSES + 1)),
    ("wordle", "analyse", "salet", "--max-guesses", str(10**9)),
    ("wordle", "memorable", "--max-guesses", "65", "--max-distinct-second", "1"),
    ("lingo", "solve", "--adaptive", "--guesses-allowed", "1-100000000000"),
    ("lingo", "solve", "--time-limit", "inf"),
    ("lingo", "solve", "--time-limit", "nan"),
    ("lingo", "bound", "--time-limit", "-5"),
    ("wordle", "card", "--max-distinct-second", "1", "--out", "x.json", "--time-limit", "inf"),
])
def test_limits_and_times_have_bounds_on_every_command(cli, args):
    code, _, stderr = cli(*args)
    assert code == 2, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr


def test_the_api_and_the_search_refuse_a_huge_max_guesses_fast():
    A = words_from_lines(A8)
    from exact.wordle.fewest.search import solve_guesses

    for call in (lambda: exact.solve_wordle(A8, max_guesses=10**6), lambda: solve_guesses(A, A, max_guesses=10**9)):
        with pytest.raises(ExactError, match="at most 64"):
            call()


@pytest.mark.slow
def test_analyse_caps_standard_input(run_exact, assert_one_line_error):
    out = run_exact("wordle", "analyse", "-", "--list", "original", input="x" * 200_000)
    assert_one_line_error(out, "standard input holds more than")


def test_a_large_list_says_what_it_costs_before_it_starts(monkeypatch, capsys):
    from exact import partitions

    def stop(*a, **k):
        raise KeyboardInterrupt  # the matrix must not be built here: the warning comes first

    monkeypatch.setattr(partitions, "build_matrix", stop)
    monkeypatch.setattr(partitions, "check_memory", lambda *a: None)
    big = exact.WordList(tuple(f"{a}{b}{c}{d}{e}" for a in "abcdefghijklm" for b in "abcdefghijklmnopqrstuvwxyz"
                               for c in "aeiou" for d in "aeiouy" for e in "lmnrst"), "big")
    assert len(big) >= 30000
    with pytest.raises(KeyboardInterrupt):
        partitions.feedback_matrix(big, big, cache=False)
    err = capsys.readouterr().err
    assert "GiB of memory" in err and "may take long" in err and f"{len(big)} x {len(big)}" in err


# --- 6. no traceback on plausible input ----------------------------------------------------------

@pytest.mark.parametrize("values", ["5-1", "1-1000000000", "x", "0"])
def test_memorable_m_values_backwards_or_huge_is_one_line(cli, w8, values, assert_one_line_error):
    out = cli("wordle", "memorable", "--curve", "--m-values", values, "--answers", w8, "--guesses", w8,
              "--first", "cigar")
    assert_one_line_error(out, "--m-values")


@pytest.mark.slow
def test_export_with_a_non_utf8_name_and_title(tmp_path):
    html = tmp_path.as_posix().encode() + b"/t\xff.html"
    out = subprocess.run([sys.executable, "-m", "exact", "wordle", "export", "results/wordle/salet-guesses.txt",
                          "--list", "original", "--html", html, "--title", b"ti\xfetle"],
                         capture_output=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    page = Path(html.decode("utf-8", "surrogateescape")).read_text(encoding="utf-8")
    assert "ti\ufffdtle" in page


def test_docs_results_names_a_malformed_result_file(tmp_path, cli, assert_one_line_error):
    (tmp_path / "results" / "wordle").mkdir(parents=True)
    bad = tmp_path / "results" / "wordle" / "x-certificate.json"
    bad.write_text(json.dumps({"wins": "a", "n": 5, "depth": 3, "top": 7, "status": "OPTIMAL", "method": "x"}))
    out = cli("docs", "results", "--root", tmp_path, "--out", tmp_path / "r.md")
    assert_one_line_error(out, "x-certificate.json", "not a valid")


@pytest.mark.parametrize("content", ["garbage\n", '{"a": 1}\n', "[1, 2]\n", None])
def test_card_curve_that_is_not_a_curve_is_an_error(tmp_path, cli, content, assert_one_line_error):
    curve = tmp_path / "curve.json"
    if content is not None:
        curve.write_text(content)
    out = cli("wordle", "card", "--max-distinct-second", "2", "--curve", curve, "--out", tmp_path / "card.json")
    assert_one_line_error(out, "curve.json")


@pytest.mark.slow
def test_out_dev_stdout_is_written_after_what_was_printed(tmp_path):
    """The docs page to /dev/stdout with stdout a file: the page and the line after it both arrive."""
    path = tmp_path / "out.txt"
    root = tmp_path / "root"  # a results folder of one file: the committed one's page takes 20 s to read
    (root / "results" / "wordle").mkdir(parents=True)
    (root / "results" / "wordle" / "new.json").write_text('{"a": 1}')
    with open(path, "w") as f:
        out = subprocess.run([sys.executable, "-m", "exact", "docs", "results", "--root", root, "--out", "/dev/stdout"],
                             stdout=f, stderr=subprocess.PIPE, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    text = path.read_text()
    assert text.startswith("<!--") or "# Results" in text
    assert text.rstrip().endswith("lines)"), text[-200:]  # "wrote /dev/stdout (N lines)" is not lost


@pytest.mark.slow
def test_plot_all_runs_outside_the_project_root(tmp_path):
    out = subprocess.run([sys.executable, "-m", "exact", "plot", "all", "--out-dir", tmp_path / "figs"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert any((tmp_path / "figs").glob("*.png"))


def test_plot_all_defaults_to_the_checkout_figures():
    from exact.cli.plot import all_figures

    option = next(p for p in all_figures.params if p.name == "out_dir")
    assert option.default is None  # resolved to the checkout's results/figures, not ./results/figures


# --- 7. the Python API keeps its promise ------------------------------------------------------------

BAD_CALLS = {
    "answers bytes": lambda: exact.solve_wordle(b"cigar"),
    "answers -5": lambda: exact.solve_wordle(-5),
    "answers [None]": lambda: exact.solve_wordle([None, "cigar"]),
    "depth '3'": lambda: exact.solve_wordle(A8, objective="wins", depth="3"),
    "max_guesses 1.5": lambda: exact.solve_wordle(A8, max_guesses=1.5),
    "hard 'yes'": lambda: exact.solve_wordle(A8, hard="yes"),
    "after off the list": lambda: exact.solve_wordle(A8, after=[("zzzzz", 0)]),
    "after code out of range": lambda: exact.solve_wordle(A8, after=[("cigar", 999)]),
    "after None": lambda: exact.solve_wordle(A8, after=None),
    "objective None": lambda: exact.solve_wordle(A8, objective=None),
    "verify None": lambda: exact.verify_tree(None, A8),
    "read_tree None": lambda: exact.read_tree(None),
    "lingo_score [1, 2]": lambda: exact.lingo_score([1, 2]),
    "analyse 5": lambda: exact.analyse_wordle(5, A8),
    "analyse hard 'no'": lambda: exact.analyse_wordle("cigar", A8, hard="no"),
    "write_tree None": lambda: exact.write_tree(None, "/tmp/x.txt"),
}


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_the_api_refuses_bad_arguments_with_exact_error(name):
    with pytest.raises(ExactError):
        BAD_CALLS[name]()


def test_a_tree_with_a_cycle_is_refused_not_looped_over(tmp_path):
    t = Tree("cigar", 8, {})
    t.children[feedback("cigar", "rebut")] = t
    with pytest.raises(ExactError, match="reached twice"):
        exact.verify_tree(t, A8)
    with pytest.raises(ExactError, match="reached twice"):
        exact.write_tree(t, tmp_path / "t.txt")
    assert not (tmp_path / "t.txt").exists()


def test_a_tree_deeper_than_the_limit_is_refused_without_recursion():
    deep = node = Tree("cigar", 1, {})
    for _ in range(5000):
        node.children[1] = node = Tree("cigar", 1, {})
    with pytest.raises(ExactError, match="deeper than 64"):
        exact.verify_tree(deep, A8)


def test_a_file_that_is_not_a_word_list_is_not_echoed(tmp_path, cli, assert_one_line_error):
    secret = tmp_path / "secret"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\nmore\n")
    link = tmp_path / "answers.txt"
    link.symlink_to(secret)
    out = cli("wordle", "verify", "results/wordle/salet-guesses.txt", "--answers", link, cwd=ROOT)
    line = assert_one_line_error(out, "not a word list")
    assert "root" not in line.replace(str(tmp_path), "")


def test_messages_do_not_echo_a_whole_input():
    with pytest.raises(ExactError) as e:
        exact.solve_wordle(A8, after="cigar " + "q" * 5000)
    assert len(str(e.value)) < 300
    with pytest.raises(ExactError) as e:
        parse_pattern("z" * 5000)
    assert len(str(e.value)) < 300


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=8), st.binary(max_size=8),
                 st.lists(st.integers(), max_size=3), st.booleans()))
def test_api_flags_and_limits_raise_only_exact_error(value):
    """hard, max_guesses and depth take only what they say; anything else is an ExactError."""
    for kwargs in ({"hard": value}, {"max_guesses": value}, {"objective": "wins", "depth": value}):
        ok = (kwargs.get("hard") in (True, False) and type(value) is bool) if "hard" in kwargs else (
            type(value) is int and 1 <= value <= MAX_GUESSES) if "max_guesses" in kwargs else (
            value is None or (type(value) is int and 1 <= value <= MAX_GUESSES))
        if ok:
            continue
        with pytest.raises(ExactError):
            exact.solve_wordle(A8[:3], **kwargs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(A8 + ["zzzzz", ""]), st.integers(-5, 300)), max_size=3))
def test_api_histories_are_checked(after):
    """An ``after`` history either plays or is an ExactError: never an IndexError from a kernel."""
    try:
        exact.solve_wordle(A8, after=after)
    except ExactError:
        pass


# --- 8. the exported page ---------------------------------------------------------------------------

def _tree_and_answers():
    A = words_from_lines(A8[:3])
    return exact.solve_wordle(A.words).tree, A


@pytest.mark.parametrize("title", ["<!--<script>", "</script><b>", "a & b > c"])
def test_the_page_data_has_no_angle_bracket(title):
    tree, A = _tree_and_answers()
    page = explorer_html(explorer_data(tree, A, title=title))
    blob = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1)
    assert "<" not in blob and ">" not in blob and "&" not in blob
    assert json.loads(blob)["title"] == title


def test_a_title_naming_a_placeholder_is_only_a_title():
    tree, A = _tree_and_answers()
    page = explorer_html(explorer_data(tree, A, title="__DATA__ __TITLE__"))
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert title.endswith("__DATA__ __TITLE__") and len(title) < 100
    assert page.count('"nodes"') == 1


def test_the_page_knows_the_allowed_guesses():
    tree, A = _tree_and_answers()
    G = words_from_lines(A8 + ["salet"])
    data = explorer_data(tree, A, guesses=G)
    assert "salet" in data["guesses"] and set(A.words) <= set(data["guesses"])


def test_emoji_squares_with_the_variation_selector_are_read():
    from exact.game.formats.emoji import parse_emoji
    from exact.wordle.study.game_text import parse_game

    assert parse_pattern("⬛\ufe0f🟨\ufe0f🟩\ufe0f⬛\ufe0f⬛\ufe0f") == parse_pattern("⬛🟨🟩⬛⬛")
    G = words_from_lines(["salet", "crane"])
    assert parse_game("Wordle 1 2/6\n\n⬛\ufe0f⬛\ufe0f⬛\ufe0f🟨\ufe0f⬛\ufe0f salet\n🟩🟩🟩🟩🟩 crane", G) == \
        parse_game("⬛⬛⬛🟨⬛ salet\n🟩🟩🟩🟩🟩 crane", G)
    assert parse_emoji("cabin\ncabin 🟩\ufe0f🟩🟩⬜\ufe0f⬜ 1 cable\n").guess == "cabin"
