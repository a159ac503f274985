"""The feedback rule against a slow, obviously-correct scorer, and the pattern notations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.errors import ExactError
from exact.feedback import (
    GRAY, GREEN, YELLOW, all_green, compute_feedback_matrix, feedback, format_pattern, parse_pattern,
    pattern_dtype,
)


def slow_feedback(guess: str, answer: str) -> list[int]:
    """The rule as written: greens first; then left to right, yellow while an unused non-green copy remains."""
    colours = [GREEN if guess[i] == answer[i] else GRAY for i in range(len(guess))]
    pool = [answer[i] for i in range(len(answer)) if colours[i] != GREEN]
    for i in range(len(guess)):
        if colours[i] == GREEN:
            continue
        if guess[i] in pool:
            pool.remove(guess[i])
            colours[i] = YELLOW
    return colours


def code(colours: list[int]) -> int:
    return sum(c * 3**i for i, c in enumerate(colours))


def words_of(length: int, alphabet: str):
    return st.text(alphabet=alphabet, min_size=length, max_size=length)


@st.composite
def word_pairs(draw):
    length = draw(st.integers(4, 8))
    alphabet = draw(st.sampled_from(["ab", "abc", "abcd", "aeiou", "abcdefghijklmnopqrstuvwxyz"]))
    return draw(words_of(length, alphabet)), draw(words_of(length, alphabet))


@pytest.mark.slow
@given(word_pairs())
@settings(max_examples=600, deadline=None)
def test_scalar_rule_matches_slow_scorer(pair):
    guess, answer = pair
    assert feedback(guess, answer) == code(slow_feedback(guess, answer))


@st.composite
def word_lists(draw):
    length = draw(st.integers(4, 8))
    alphabet = draw(st.sampled_from(["ab", "abc", "abcde", "abcdefghijklmnopqrstuvwxyz"]))
    guesses = draw(st.lists(words_of(length, alphabet), min_size=1, max_size=12))
    answers = draw(st.lists(words_of(length, alphabet), min_size=1, max_size=12))
    return guesses, answers


@pytest.mark.slow
@given(word_lists())
@settings(max_examples=200, deadline=None)
def test_matrix_matches_slow_scorer(lists):
    guesses, answers = lists
    F = compute_feedback_matrix(guesses, answers)
    assert F.dtype == pattern_dtype(len(guesses[0]))
    expected = [[code(slow_feedback(g, a)) for a in answers] for g in guesses]
    assert F.tolist() == expected


@pytest.mark.parametrize("guess, answer, colours", [
    ("mosso", "misos", [GREEN, YELLOW, GREEN, YELLOW, GRAY]),
    ("sassy", "misos", [YELLOW, GRAY, GREEN, GRAY, GRAY]),
    ("speed", "abide", [GRAY, GRAY, YELLOW, GRAY, YELLOW]),
    ("speed", "erase", [YELLOW, GRAY, YELLOW, YELLOW, GRAY]),
    ("crane", "crane", [GREEN] * 5),
])
def test_hand_cases(guess, answer, colours):
    assert feedback(guess, answer) == code(colours)
    assert compute_feedback_matrix([guess], [answer])[0, 0] == code(colours)


@pytest.mark.slow
def test_all_green_and_dtypes():
    assert all_green(5) == 242
    assert pattern_dtype(5) == np.uint8 and pattern_dtype(6) == np.uint16 and pattern_dtype(8) == np.uint16
    assert compute_feedback_matrix(["abcdefgh"], ["abcdefgh"])[0, 0] == all_green(8)


@pytest.mark.parametrize("text", ["21210", "gygyb", "gyGYx", "gygy.", "🟩🟨🟩🟨⬛", "gygyr", "ymymn"])
def test_notations_parse_the_same_pattern(text):
    assert parse_pattern(text, 5) == code([GREEN, YELLOW, GREEN, YELLOW, GRAY])


@given(st.integers(4, 8).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, 3**n - 1))),
       st.sampled_from(["digits", "letters", "emoji", "rgy", "ynm"]))
def test_format_parse_round_trip(length_and_code, notation):
    length, c = length_and_code
    assert parse_pattern(format_pattern(c, length, notation), length, notation) == c


@pytest.mark.parametrize("text", ["", "2121", "21213", "gyqyb"])
def test_bad_patterns_are_errors(text):
    with pytest.raises(ExactError):
        parse_pattern(text, 5)


def test_mixed_lengths_are_an_error():
    with pytest.raises(ExactError, match="mix word lengths"):
        compute_feedback_matrix(["abcde"], ["abcd"])
