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
