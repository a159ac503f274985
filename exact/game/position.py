"""The position after a history: the guesses played and their patterns -> the answers still possible.

Data types, stated once:

- a *history* is ``((guess, pattern), ...)``, patterns as codes sum(fb[i] * 3**i);
- a :class:`Position` is the game so far for a person or a tree walk: the answer list, the history
  and the *candidates* (the answers consistent with every feedback seen), as words;
- :func:`position` gives the same for the solvers, as numpy indices into the answer list, with the
  hard-mode constraint the history imposes (:mod:`exact.game.hard`);
- :func:`word_classes` groups words by the feedback a guess gets on them: the one plain-Python partition
  (the solvers' numpy partitions are :mod:`exact.partitions`).

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> after(start(A), "cabin", feedback("cabin", "cable")).candidates
('caber', 'cable')
>>> position_answers(A, (("cabin", feedback("cabin", "cable")),)).words
('caber', 'cable')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exact.errors import ExactError, shorten
from exact.feedback import all_green, feedback, format_pattern, parse_pattern
from exact.game.hard import Constraint, broken_rule, constraint, no_constraint
from exact.words import WordList, check_words, require_in_pool

History = tuple[tuple[str, int], ...]

#: The most guesses any command, API call or certificate may allow (``max_guesses``, a Wordle tree's
#: ``depth``, Lingo's ``guesses_allowed``), stated once and imported wherever it is checked. Why 64:
#: on every path of a tree with the fewest guesses each guess that does not win leaves strictly fewer
#: candidates (a guess that splits nothing only adds a guess, and is cut), so n answers never need more
#: than n guesses; larger limits change no result on lists of up to 64 answers, and no list studied
#: here needs more than 8 (the deepest hard-mode trees). The bound keeps what a limit sizes small: the
#: per-guess cost tables (max_guesses + 3 entries), the endgame caps (groups x (max_guesses + 1)), the
#: lexicographic weights (which must stay below 2**60), a tree walk's recursion. Unbounded, 10**6 hung
#: a search on 8 words and 10**9 asked 7.7 GB of memory.
MAX_GUESSES = 64


def check_guess_limit(value, name: str = "max_guesses", least: int = 1) -> int:
    """``value`` as a count of guesses allowed, ``least`` to :data:`MAX_GUESSES`, or an
    :class:`ExactError` naming the parameter ``name``.

    >>> check_guess_limit(6)
    6
    >>> check_guess_limit(10**9)
    Traceback (most recent call last):
    ...
    exact.errors.ExactError: max_guesses must be at most 64 (exact.game.position.MAX_GUESSES), not 1000000000
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ExactError(f"{name} must be a whole number, not {type(value).__name__}", params=(name,))
    if value < least:
        raise ExactError(f"{name} must be at least {least}, not {value}", params=(name,))
    if value > MAX_GUESSES:
        raise ExactError(f"{name} must be at most {MAX_GUESSES} (exact.game.position.MAX_GUESSES), not {value}",
                         params=(name,))
    return int(value)


@dataclass(frozen=True)
class Position:
    answers: WordList
    history: History
    candidates: tuple[str, ...]

    @property
    def played(self) -> int:
        return len(self.history)


def start(answers: WordList) -> Position:
    """The position before the first guess: every answer is a candidate."""
    return Position(answers, (), tuple(answers.words))


def word_classes(guess: str, candidates: Sequence[str]) -> dict[int, tuple[str, ...]]:
    """The candidates grouped by the feedback ``guess`` gets on them (pattern -> words, list order).

    >>> word_classes("cabin", ["caber", "cabin", "cable"]) == {feedback("cabin", "caber"): ("caber", "cable"), 242: ("cabin",)}
    True
    """
    out: dict[int, list[str]] = {}
    for a in candidates:
        out.setdefault(feedback(guess, a), []).append(a)
    return {p: tuple(ws) for p, ws in out.items()}


def after(position: Position, guess: str, pattern: int) -> Position:
    """The position after ``guess`` got ``pattern`` (candidates that would give it)."""
    left = tuple(a for a in position.candidates if feedback(guess, a) == pattern)
    return Position(position.answers, position.history + ((guess, pattern),), left)


def parse_history(text: str, guesses: WordList) -> tuple[tuple[str, int], ...]:
    """``"parse BBYBB clint BBYYB"``: guesses and their patterns, in any notation the project reads.

    >>> from exact.words import words_from_lines
    >>> parse_history("parse 00100 clint bbyyb", words_from_lines(["parse", "clint"]))
    (('parse', 9), ('clint', 36))
    """
    parts = str(text).split()
    if len(parts) % 2:
        raise ExactError(f"after {shorten(text)!r}: give pairs 'GUESS PATTERN ...' (an even number of items)")
    history = []
    for i in range(0, len(parts), 2):
        (word,) = check_words_in(parts[i], guesses, "after")
        try:
            pattern = parse_pattern(parts[i + 1], guesses.length)
        except ExactError as e:
            raise ExactError(f"after {shorten(text)!r}: {e}") from None
        history.append((word, pattern))
        if pattern == all_green(guesses.length):
            raise ExactError(f"after {shorten(text)!r}: {word} was the answer (all green); the game is over, "
                             f"nothing is left to solve")
    return tuple(history)


def check_words_in(word: str, pool: WordList, what: str) -> tuple[str]:
    (w,) = check_words([word], pool.length, what)
    require_in_pool([w], pool, what)
    return (w,)


def position(answers: WordList, history, hard: bool) -> tuple[np.ndarray, Constraint]:
    """The answers consistent with the history, and the hard-mode constraint it imposes."""
    S = np.arange(len(answers), dtype=np.int64)
    for g, p in history:
        S = np.array([a for a in S if feedback(g, answers.words[a]) == p], dtype=np.int64)
    if len(S) == 0:
        shown = " ".join(f"{g} {format_pattern(p, len(g))}" for g, p in history)
        raise ExactError(f"after {shown!r}: no answer is consistent with that feedback")
    if hard:
        for i, (g, _) in enumerate(history):
            if (why := broken_rule(g, history[:i])) is not None:
                raise ExactError(f"after: {g!r} breaks the hard-mode rule at guess {i + 1}: {why}")
        return S, constraint(history, answers.length)
    return S, no_constraint(answers.length)


def position_answers(answers: WordList, history, hard: bool = False) -> WordList:
    """The answers consistent with the history, as a WordList (the whole list when no history)."""
    if not history:
        return answers
    S, _ = position(answers, tuple(history), hard)
    return WordList(tuple(answers.words[a] for a in S), answers.source)




def check_limits(record: dict, path) -> None:
    """The guess limits a result file records (``max_guesses``, ``depth``, ``guesses_allowed``) are
    within :func:`check_guess_limit`'s bounds, or an :class:`ExactError` naming the file: checked
    before anything is sized by them."""
    for name in ("max_guesses", "depth", "guesses_allowed"):
        if name in record:
            try:
                check_guess_limit(record[name], name)
            except ExactError as e:
                raise ExactError(e.message, path=path) from None
