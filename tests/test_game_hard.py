"""The hard-mode rule (exact.game.hard) against a slow, literal reading of it."""

import random
from collections import Counter

import pytest

from exact.feedback import encode, feedback, parse_pattern
from exact.game.hard import (allowed_mask, clue_lists, constraint, is_allowed, letter_counts, no_constraint,
                             shortest_clue_list)
from exact.words import wordle_allowed, wordle_answers


def slow_is_allowed(word, history):
    """The NYT rule read literally, letter by letter."""
    for guess, pattern in history:
        digits = [(pattern // 3**i) % 3 for i in range(len(guess))]
        for i in range(len(guess)):
            if digits[i] == 2 and word[i] != guess[i]:
                return False
        need = Counter(guess[i] for i in range(len(guess)) if digits[i] > 0)
        have = Counter(word)
        if any(have[x] < n for x, n in need.items()):
            return False
    return True


@pytest.mark.parametrize(("word", "history", "ok"), [
    ("slate", [("crane", "00220")], False),   # the green n must stay in place
    ("shine", [("crane", "00022")], True),
    ("beach", [("crane", "00200")], True),    # gray letters (c) may be played again
    ("tease", [("crane", "00101")], True),    # yellows need only be present, anywhere
    ("tulip", [("crane", "00101")], False),
    ("speed", [("geese", "01200")], True),    # one e yellow and one green: two e needed
    ("spend", [("geese", "01200")], False),
    ("above", [("bobby", "11000")], True),    # b shown once (the gray b's cap nothing)
    ("abbey", [("bobby", "11000")], False),   # no o
    ("crane", [], True),
])
def test_hard_mode_hand_cases(word, history, ok):
    h = [(g, parse_pattern(p, 5, "digits")) for g, p in history]
    assert is_allowed(word, h) == ok == slow_is_allowed(word, h)
    assert allowed_mask([word], h).tolist() == [ok]


@pytest.mark.slow
def test_hard_mode_vectorised_matches_slow_rule():
    rng = random.Random(3)
    words = wordle_allowed().words
    sample = rng.sample(words, 400)
    for _ in range(40):
        answer = rng.choice(wordle_answers().words)
        history = [(g, feedback(g, answer)) for g in rng.sample(words, rng.randint(1, 3))]
        mask = allowed_mask(sample, history)
        assert mask.tolist() == [slow_is_allowed(w, history) for w in sample]
        assert mask.tolist() == [is_allowed(w, history) for w in sample]
        assert is_allowed(answer, history)  # the answer itself always satisfies its own feedback


def test_constraint_arrays():
    greens, least = constraint([("geese", parse_pattern("01200", 5, "digits"))], 5)
    assert greens.tolist() == [-1, -1, 4, -1, -1]
    assert least[4] == 2 and least.sum() == 2


@pytest.mark.slow
def test_the_shortest_clue_list_holds_every_allowed_guess():
    """After random histories, every guess the rule allows (the slow rule) is in the clue list the
    constraint picks, in row order, and the list is the shortest of those it demands; no constraint:
    no list (every guess)."""
    rng = random.Random(4)
    words = sorted(rng.sample(wordle_allowed().words, 3000))
    codes = encode(words)
    counts = letter_counts(codes)
    clues = clue_lists(codes, counts)
    assert shortest_clue_list(clues, *no_constraint(5)) == (-1, -1)
    narrowed = 0
    for _ in range(60):
        answer = rng.choice(wordle_answers().words)
        history = [(g, feedback(g, answer)) for g in rng.sample(words, rng.randint(1, 3))]
        greens, least = constraint(history, 5)
        lo, hi = shortest_clue_list(clues, greens, least)
        if lo < 0:
            assert (greens < 0).all() and (least <= 0).all()
            continue
        rows = clues.rows[lo:hi].tolist()
        assert rows == sorted(rows)
        allowed = [g for g, w in enumerate(words) if slow_is_allowed(w, history)]
        assert set(allowed) <= set(rows)
        demanded = [(clues.start[i * 26 + c + 1] - clues.start[i * 26 + c]) for i, c in enumerate(greens) if c >= 0]
        demanded += [clues.start[5 * 26 + x + 1] - clues.start[5 * 26 + x] for x in range(26) if least[x] > 0]
        assert hi - lo == min(demanded)
        narrowed += hi - lo < len(words) // 4
    assert narrowed > 10
