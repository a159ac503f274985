"""The feedback rule, in one place.

Data types, stated once:

- a *word* is a lowercase a-z string of length L, 4 <= L <= 8;
- a *pattern* is an int ``sum(fb[i] * 3**i)`` with ``fb[i]`` in {0 gray, 1 yellow, 2 green};
  the all-green pattern is ``3**L - 1`` (242 for five letters);
- a *feedback matrix* ``F`` is a 2-D numpy array with ``F[g, a]`` the pattern of guess ``g``
  on answer ``a``; its dtype is :func:`pattern_dtype` of L.

The rule (Wordle and Lingo alike): greens first; then, left to right, a non-green guess letter is
yellow if the answer still has an unused non-green copy of that letter, else gray.

>>> format_pattern(feedback("mosso", "misos"), 5)
'21210'
>>> feedback("crane", "crane") == all_green(5)
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numba
import numpy as np

from exact.errors import ExactError, shorten

#: Bump when the rule or the matrix layout changes: it keys the on-disk cache.
RULE_VERSION = 1

MIN_LENGTH, MAX_LENGTH = 4, 8
GRAY, YELLOW, GREEN = 0, 1, 2


def all_green(length: int) -> int:
    """The pattern code of a solved guess: ``3**length - 1``."""
    return 3**length - 1


def pattern_count(length: int) -> int:
    """How many pattern codes exist for words of this length."""
    return 3**length


def pattern_dtype(length: int) -> np.dtype:
    """The smallest unsigned dtype holding every pattern of this length (uint8 up to 5 letters)."""
    return np.dtype(np.uint8) if pattern_count(length) <= 256 else np.dtype(np.uint16)


def feedback(guess: str, answer: str) -> int:
    """The pattern of ``guess`` on ``answer`` (plain Python; the matrix below is the fast path).

    >>> format_pattern(feedback("sassy", "misos"), 5)
    '10200'
    """
    if len(guess) != len(answer):
        raise ExactError(f"cannot score {guess!r} against {answer!r}: lengths differ")
    fb = [GREEN if g == a else GRAY for g, a in zip(guess, answer)]
    unused: dict[str, int] = {}
    for a, f in zip(answer, fb):
        if f != GREEN:
            unused[a] = unused.get(a, 0) + 1
    for i, g in enumerate(guess):
        if fb[i] != GREEN and unused.get(g, 0) > 0:
            fb[i] = YELLOW
            unused[g] -= 1
    return sum(f * 3**i for i, f in enumerate(fb))


def encode(words: Sequence[str]) -> np.ndarray:
    """Words as an (n, L) uint8 array of letter indices 0..25."""
    if len(words) == 0:
        return np.zeros((0, 0), dtype=np.uint8)
    joined = "".join(words).encode("ascii")
    return (np.frombuffer(joined, dtype=np.uint8).reshape(len(words), -1) - ord("a")).astype(np.uint8)


@numba.njit(cache=True, nogil=True)
def _fill_row(guess, answers, masks, out):
    """Patterns of one encoded guess on every encoded answer."""
    length = guess.shape[0]
    distinct = True
    for i in range(length):
        for j in range(i + 1, length):
            if guess[i] == guess[j]:
                distinct = False
    unused = np.zeros(26, dtype=np.int8)
    for a in range(answers.shape[0]):
        code = 0
        power = 1
        if distinct:
            # With no repeated guess letter, a non-green letter is yellow iff the answer holds it:
            # the answer's copy cannot sit at a green position, whose letter is another guess letter.
            for i in range(length):
                g = guess[i]
                if answers[a, i] == g:
                    code += 2 * power
                elif masks[a] >> g & 1:
                    code += power
                power *= 3
        else:
            for i in range(length):
                if answers[a, i] != guess[i]:
                    unused[answers[a, i]] += 1
            for i in range(length):
                g = guess[i]
                if answers[a, i] == g:
                    code += 2 * power
                elif unused[g] > 0:
                    unused[g] -= 1
                    code += power
                power *= 3
            for i in range(length):
                unused[answers[a, i]] = 0
        out[a] = code


@numba.njit(cache=True, parallel=True)
def _fill_matrix(guesses, answers, masks, out):
    for g in numba.prange(guesses.shape[0]):
        _fill_row(guesses[g], answers, masks, out[g])


def _letter_masks(codes: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.left_shift(1, codes.astype(np.int32)), axis=1).astype(np.int32)


def compute_feedback_matrix(guesses: Sequence[str], answers: Sequence[str]) -> np.ndarray:
    """The (len(guesses), len(answers)) feedback matrix of two lists of strings, computed now, in
    parallel (no cache: for word lists, :func:`exact.partitions.feedback_matrix` caches it).

    >>> compute_feedback_matrix(["mosso", "sassy"], ["misos"]).ravel().tolist()
    [50, 19]
    """
    length = _common_length(guesses, answers)
    out = np.empty((len(guesses), len(answers)), dtype=pattern_dtype(length))
    if out.size:
        g, a = encode(guesses), encode(answers)
        _fill_matrix(g, a, _letter_masks(a), out)
    return out



def _common_length(guesses: Sequence[str], answers: Sequence[str]) -> int:
    lengths = {len(w) for w in guesses} | {len(w) for w in answers}
    if len(lengths) > 1:
        raise ExactError(f"guesses and answers mix word lengths {sorted(lengths)}")
    length = lengths.pop() if lengths else 5
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise ExactError(f"word length {length} is outside {MIN_LENGTH}..{MAX_LENGTH}")
    return length


# --- Notations -------------------------------------------------------------------------------

#: symbol -> colour, per notation. Digits 0/1/2; letters b, x, . or - gray, y yellow, g green;
#: emoji squares (black/white gray, yellow, green; the high-contrast orange/blue too); the RGY of
#: older tools (R absent, Y present, G green) and YNM (N no, M misplaced, Y yes). An unnamed
#: notation is guessed in the order of _guess_notation, so "yyyyy" reads as letters (all yellow).
_SYMBOLS = {
    "digits": {"0": GRAY, "1": YELLOW, "2": GREEN},
    "letters": {"b": GRAY, "x": GRAY, ".": GRAY, "-": GRAY, "y": YELLOW, "g": GREEN},
    "emoji": {"\u2b1b": GRAY, "\u2b1c": GRAY, "\U0001f7e8": YELLOW, "\U0001f7e9": GREEN,
              "\U0001f7e6": YELLOW, "\U0001f7e7": GREEN},
    "rgy": {"r": GRAY, "y": YELLOW, "g": GREEN},
    "ynm": {"n": GRAY, "m": YELLOW, "y": GREEN},
}
_OUTPUT = {
    "digits": "012",
    "letters": "byg",
    "emoji": "\u2b1b\U0001f7e8\U0001f7e9",
    "rgy": "ryg",
    "ynm": "nmy",
}
NOTATIONS = tuple(_OUTPUT)


#: U+FE0F, the emoji variation selector: phones paste a square as "⬛️" (the square, then this), so every
#: reader of squares drops it (:func:`parse_pattern`, :mod:`exact.game.formats.emoji`, the explorer page).
VARIATION_SELECTOR = "\ufe0f"


def parse_pattern(text: str, length: int | None = None, notation: str | None = None) -> int:
    """A pattern code from text in any known notation (guessed from the symbols when not given).

    >>> parse_pattern("21210") == parse_pattern("gygyb") == parse_pattern("🟩🟨🟩🟨⬛")
    True
    """
    symbols = list(text.strip().replace(VARIATION_SELECTOR, ""))  # "⬛️" as phones paste it: the square
    if notation is None:
        notation = _guess_notation(text, symbols)
    table = _SYMBOLS.get(notation)
    if table is None:
        raise ExactError(f"unknown pattern notation {notation!r}; choose from {', '.join(NOTATIONS)}")
    lowered = [s.lower() for s in symbols]
    bad = [s for s in lowered if s not in table]
    if bad or not symbols:
        raise ExactError(f"pattern {shorten(text)!r} is not valid {notation} notation")
    if length is not None and len(symbols) != length:
        raise ExactError(f"pattern {shorten(text)!r} has {len(symbols)} symbols, expected {length}")
    return sum(table[s] * 3**i for i, s in enumerate(lowered))


def _guess_notation(text: str, symbols: list[str]) -> str:
    lowered = {s.lower() for s in symbols}
    for notation in ("digits", "emoji", "letters", "rgy", "ynm"):
        if lowered and lowered <= set(_SYMBOLS[notation]):
            return notation
    raise ExactError(f"pattern {shorten(text)!r} is in no known notation ({', '.join(NOTATIONS)})")


def format_pattern(code: int, length: int, notation: str = "digits") -> str:
    """The text of a pattern code, first letter first.

    >>> format_pattern(242, 5), format_pattern(19, 5, "letters")
    ('22222', 'ybgbb')
    """
    symbols = _OUTPUT.get(notation)
    if symbols is None:
        raise ExactError(f"unknown pattern notation {notation!r}; choose from {', '.join(NOTATIONS)}")
    return "".join(symbols[int(code) // 3**i % 3] for i in range(length))


_WORD = re.compile(r"[a-z]+")


def is_word(text: str) -> bool:
    """True for a lowercase a-z string (any length)."""
    return bool(_WORD.fullmatch(text))
