"""Reading a played game (``exact wordle analyse`` and ``exact.analyse_wordle``): the guesses and their
feedback as words and patterns, or a grid of squares pasted from a phone, with the answer when known
(:func:`parse_game`); :mod:`exact.wordle.study.analyse` rates what it reads.
"""

from __future__ import annotations

import re

from exact.errors import ExactError, shorten
from exact.feedback import all_green, feedback, parse_pattern
from exact.words import WordList, check_words, require_in_pool

#: The squares of a pasted grid (any of them marks a grid line).
_SQUARES = "\u2b1b\u2b1c\U0001f7e8\U0001f7e9\U0001f7e6\U0001f7e7"


def parse_game(text: str, guesses: WordList, answer: str | None = None,
               played: list[str] | None = None) -> tuple[tuple[str, int], ...]:
    """The history of a game: ``salet.bbbyb.drone.ybbbg.crane`` (dots, commas, spaces or lines between
    the items; a last guess without a pattern was the answer), guesses alone with ``answer`` (their
    patterns computed), or a pasted emoji grid: one line of squares per guess, each with its word on
    the line or the words given as ``played``; other lines (the "Wordle 1,234 4/6" header) are skipped.

    >>> from exact.words import words_from_lines
    >>> G = words_from_lines(["salet", "drone", "crane"])
    >>> parse_game("salet.bybyb.drone.bgbgg.crane", G) == parse_game("salet drone crane", G, answer="crane")
    True
    >>> parse_game("salet.bbbyb.crane", G)
    (('salet', 27), ('crane', 242))
    >>> parse_game("Wordle 1 2/6\\n\\n⬛⬛⬛🟨⬛\\n🟩🟩🟩🟩🟩", G, played=["salet", "crane"])
    (('salet', 27), ('crane', 242))
    """
    L = guesses.length
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    if any(ch in line for line in lines for ch in _SQUARES):
        pairs = []
        for line in lines:
            if not any(ch in line for ch in _SQUARES):
                continue  # a header or a note
            items = line.split()
            squares = [i for i in items if any(ch in i for ch in _SQUARES)]
            words = [i for i in items if i not in squares]
            if len(squares) != 1 or len(words) > 1:
                raise ExactError(f"game: grid line {shorten(line)!r}: give the squares, then at most one word")
            pairs.append((words[0] if words else None, parse_pattern(squares[0], L)))
        if played is not None:
            if len(played) != len(pairs) or any(w is not None for w, _ in pairs):
                raise ExactError(f"game: {len(pairs)} grid lines {'with words ' if any(w for w, _ in pairs) else ''}"
                                 f"and {len(played)} guesses played: give each guess once, on its line or apart")
            pairs = [(w, p) for w, (_, p) in zip(played, pairs)]
        elif any(w is None for w, _ in pairs):
            raise ExactError("game: the grid has no words: give the guesses played (one per grid line)")
        history = [(_word(w, guesses), p) for w, p in pairs]
    else:
        items = [i for i in re.split(r"[.,\s]+", str(text)) if i]
        if played:
            raise ExactError("game: the guesses played are given apart only with an emoji grid")
        if answer is not None:
            (answer,) = check_words([answer], L, "answer")
            history = [(_word(w, guesses), feedback(_word(w, guesses), answer)) for w in items]
        else:
            history = []
            for i in range(0, len(items), 2):
                word = _word(items[i], guesses)
                pattern = all_green(L) if i + 1 == len(items) else _pattern(items[i + 1], L, word)
                history.append((word, pattern))
    if not history:
        raise ExactError("game: no guess given")
    for i, (_, p) in enumerate(history[:-1]):
        if p == all_green(L):
            raise ExactError(f"game: guess {i + 1} ({history[i][0]}) is all green, yet the game goes on")
    return tuple(history)


def _word(word: str, guesses: WordList) -> str:
    (w,) = check_words([word], guesses.length, "game")
    require_in_pool([w], guesses, "game")
    return w


def _pattern(text: str, length: int, word: str) -> int:
    try:
        return parse_pattern(text, length)
    except ExactError as e:
        raise ExactError(f"game: the feedback of {word!r}: {e}") from None
