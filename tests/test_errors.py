"""exact.errors: where an error is, as attributes, and one line of text."""

import pickle

import pytest

from exact.errors import ExactError
from exact.words import read_words


def test_word_list_errors_carry_path_and_line(tmp_path):
    path = tmp_path / "answers.txt"
    path.write_text("crane\nslate\nsl4te\n")
    with pytest.raises(ExactError) as caught:
        read_words(path)
    e = caught.value
    assert (e.path, e.line) == (str(path), 3) and "'sl4te'" in e.message
    assert str(e) == f"{path}:3: {e.message}"


def test_missing_file_has_a_path_and_no_line(tmp_path):
    with pytest.raises(ExactError) as caught:
        read_words(tmp_path / "none.txt")
    assert (caught.value.path, caught.value.line, str(caught.value)) == (
        str(tmp_path / "none.txt"), None, f"{tmp_path / 'none.txt'}: no such file")


def test_at_fills_only_what_is_unknown_and_pickling_keeps_it():
    e = ExactError("bad pattern", line=4).at(path="t.tree", line=9)
    assert (e.path, e.line, str(e)) == ("t.tree", 4, "t.tree:4: bad pattern")
    back = pickle.loads(pickle.dumps(e))  # errors cross process boundaries in parallel runs
    assert (back.path, back.line, str(back)) == ("t.tree", 4, "t.tree:4: bad pattern")


# --- the policy: bad input exits 2 with one line; a bug exits 70 with one line and a report ----------

def test_an_internal_error_is_not_bad_input_and_params_survive_pickling():
    from exact.errors import InternalError

    assert not issubclass(InternalError, ExactError) and not issubclass(ExactError, InternalError)
    back = pickle.loads(pickle.dumps(ExactError("depth must be at least 1, not 0", params=("depth",))))
    assert back.params == ("depth",) and back.message == "depth must be at least 1, not 0"


def _crash_lingo_score(monkeypatch, error):
    import exact.api

    def crash(*args, **kwargs):
        raise error
    monkeypatch.setattr(exact.api, "lingo_score", crash)


def _internal_error_line(result):
    code, stdout, stderr = result
    assert code == 70, (code, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exact: internal error ("), stderr
    assert "Traceback" not in stderr and "please report it" in lines[0]
    return lines[0]


def _report_named_in(line):
    from pathlib import Path

    path = Path(line.split("report written to ")[1].split("; please report it")[0])
    assert path.is_file(), line
    return path


def test_an_internal_error_exits_70_with_one_line_naming_its_report(cli, monkeypatch, tmp_path):
    from exact.errors import InternalError

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    _crash_lingo_score(monkeypatch, InternalError("the recount gives 7 wins, the model 8"))
    line = _internal_error_line(cli("lingo", "score", "crane"))
    assert "InternalError: the recount gives 7 wins, the model 8" in line
    report = _report_named_in(line)
    assert report.parent == tmp_path / "cache" / "reports"
    text = report.read_text()
    assert "Traceback (most recent call last)" in text and "in crash" in text
    assert "InternalError: the recount gives 7 wins, the model 8" in text and "numpy " in text


def test_any_unexpected_exception_is_an_internal_error_too(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    _crash_lingo_score(monkeypatch, ZeroDivisionError("division by zero"))
    line = _internal_error_line(cli("lingo", "score", "crane"))
    assert "ZeroDivisionError: division by zero" in _report_named_in(line).read_text()


def test_the_report_goes_to_the_temporary_folder_when_the_cache_cannot_take_it(cli, monkeypatch, tmp_path):
    import tempfile

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be\n")
    monkeypatch.setenv("EXACT_CACHE_DIR", str(blocker))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    _crash_lingo_score(monkeypatch, ZeroDivisionError("division by zero"))
    report = _report_named_in(_internal_error_line(cli("lingo", "score", "crane")))
    assert report.parent == tmp_path / "tmp" / "exact-reports"


def test_bad_input_still_exits_2_and_click_usage_errors_stay_click_s(cli, assert_one_line_error, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nslat3\n")
    assert_one_line_error(cli("lingo", "score", "crane", "--words", bad), f"{bad}:2:", "'slat3'")
    code, _, stderr = cli("wordle", "solve", "--no-such-flag")
    assert code == 2 and "No such option" in stderr


def test_the_library_names_the_parameter_and_the_command_line_the_flag(cli, assert_one_line_error):
    from exact.wordle.engines import choose_engine

    with pytest.raises(ExactError) as caught:
        choose_engine(cutoff=5)
    assert str(caught.value) == "cutoff needs objective" and "--" not in str(caught.value)
    assert_one_line_error(cli("wordle", "solve", "--cutoff", 5), "exact: error: --cutoff needs --objective")


def test_a_leading_parameter_and_a_param_list_become_flags_a_file_s_words_do_not():
    from exact.cli.common import flagged

    assert str(flagged(ExactError("depth must be at least 1, not 0"))) == "--depth must be at least 1, not 0"
    assert str(flagged(ExactError("cluster 'x': not a scheduler address"))) == "--cluster 'x': not a scheduler address"
    assert str(flagged(ExactError("k = 0: give at least one guess"))) == "-k 0: give at least one guess"
    e = ExactError("max_second takes depth 3, no hard", params=("max_second", "depth", "hard"))
    assert str(flagged(e)) == "--max-distinct-second takes --depth 3, no --hard"
    assert str(flagged(ExactError("depth-k search has no first guess"))) == "depth-k search has no first guess"
    on_a_file = ExactError("after 'crane' the line needs a pattern", path="t.txt", line=4)
    assert flagged(on_a_file) is on_a_file
