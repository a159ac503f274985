"""Lingo scoring against brute-force class enumeration; the ENABLE numbers when the pool is present."""

import itertools
import random
from collections import Counter

import pytest

from exact.errors import ExactError
from exact.feedback import feedback
from exact.lingo.score import count_wins, first_letters, score_guesses
from exact.partitions import feedback_matrix
from exact.words import read_words, wordle_answers, words_from_lines


def brute_signatures(pool, guesses) -> Counter:
    """How many pool words share each signature (first letter, fb_1..fb_k)."""
    return Counter((w[0],) + tuple(feedback(g, w) for g in guesses) for w in pool)


def brute_probability(pool, guesses) -> float:
    """The player picks uniformly in the class: P(win) = mean over answers of 1/|class|."""
    sizes = brute_signatures(pool, guesses)
    return sum(1 / sizes[(w[0],) + tuple(feedback(g, w) for g in guesses)] for w in pool) / len(pool)


@pytest.fixture(scope="module")
def small_pool():
    rng = random.Random(11)
    return words_from_lines(sorted(rng.sample(wordle_answers().words, 120)), "sample")


def test_score_matches_brute_force(small_pool):
    rng = random.Random(5)
    for k in (1, 2, 3, 4):
        guesses = rng.sample(small_pool.words, k)
        s = score_guesses(small_pool, guesses)
        sizes = brute_signatures(small_pool.words, guesses)
        assert s.wins == len(sizes)
        assert s.probability == pytest.approx(brute_probability(small_pool.words, guesses))
        assert s.solved_exactly == sum(1 for c in sizes.values() if c == 1)
        assert s.largest_class == max(sizes.values())
        assert len(s.stumpers) == sum(1 for c in sizes.values() if c == s.largest_class)
        assert sum(x.n for x in s.by_letter) == len(small_pool)
        assert sum(x.wins for x in s.by_letter) == s.wins


def test_count_wins_matches_score_for_every_pair(small_pool):
    F = feedback_matrix(small_pool, small_pool)
    first = first_letters(small_pool.words)
    for rows in itertools.combinations(range(0, 120, 13), 2):
        words = [small_pool.words[r] for r in rows]
        assert count_wins(F, list(rows), first) == len(brute_signatures(small_pool.words, words))


def test_nonwords_need_the_flag(small_pool):
    with pytest.raises(ExactError, match="not in sample"):
        score_guesses(small_pool, ["qzxvj"])
    s = score_guesses(small_pool, ["qzxvj"], allow_nonwords=True)
    assert s.wins == len(brute_signatures(small_pool.words, ["qzxvj"]))


@pytest.mark.parametrize("guesses, message", [
    (["crane", "crane"], "repeat"), (["cranes"], "has 6 letters"), (["cr4ne"], "not a word"), ([], "at least one"),
])
def test_bad_guesses(small_pool, guesses, message):
    with pytest.raises(ExactError, match=message):
        score_guesses(small_pool, guesses, allow_nonwords=True)


def test_published_riddler_set_on_enable(enable5):
    pool = read_words(enable5)
    s = score_guesses(pool, ["hater", "funds", "pigmy", "block"])
    assert (s.n, s.wins) == (8636, 8180)
    assert round(100 * s.probability, 2) == 94.72
    assert s.wins == len(brute_signatures(pool.words, ["hater", "funds", "pigmy", "block"]))
    assert s.largest_class == 6
