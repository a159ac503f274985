"""The Python API: the project's solvers as functions, for tool authors (the layer between the solvers and
the command line; ``docs/api.md`` shows each with a runnable example).

Data types, stated once:

- *words*: a :class:`~exact.words.WordList`, a sequence of strings, or a path to a file of one word a
  line; None takes the lists of the named ``list`` (:data:`exact.words.NAMED_LISTS`: ``original``,
  ``nyt2023``, ...);
- a *history* (``after``): ``((guess, pattern), ...)`` with pattern codes, or text such as
  ``"salet 00100 courd 10200"`` in any feedback notation;
- the results are the solvers' own types, re-exported here: :class:`GuessesResult` (fewest guesses),
  :class:`SolveResult` (most wins within k), :class:`Replay` (a tree replayed), :class:`LingoScore`,
  :class:`Analysis` (a game rated), :class:`Tree`.

>>> r = solve_wordle(["cigar", "rebut", "sissy", "humph"])
>>> r.status, r.first, r.total
('OPTIMAL', 'cigar', 7)
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from pathlib import Path

from exact.errors import ExactError, InternalError
from exact.game.tree import Replay, Tree
from exact.lingo.score import LingoScore
from exact.wordle.study.analyse import Analysis
from exact.wordle.wins.dp import SolveResult
from exact.wordle.fewest.result import GuessesResult
from exact.words import WordList

__all__ = ["solve_wordle", "verify_tree", "read_tree", "write_tree", "lingo_score", "analyse_wordle", "word_list",
           "GuessesResult", "SolveResult", "Replay", "LingoScore", "Analysis", "Tree", "WordList", "ExactError",
           "InternalError"]

Words = WordList | Sequence[str] | str | Path | None


def word_list(words: Words, default: WordList | None = None, source: str = "<list>") -> WordList:
    """A WordList from any of the *words* forms (None: ``default``)."""
    from exact.words import read_words, words_from_lines

    if words is None:
        if default is None:
            raise ExactError("no word list given")
        return default
    if isinstance(words, WordList):
        return words
    if isinstance(words, (str, Path)):
        return read_words(words)
    return words_from_lines(list(words), source=source)


def _lists(answers: Words, guesses: Words, list: str) -> tuple[WordList, WordList]:
    from exact.words import named_lists

    if answers is not None and guesses is None:
        A = word_list(answers, source="answers")
        return A, A  # answers given alone are also the guesses
    named = named_lists(list) if answers is None or guesses is None else (None, None)
    return word_list(answers, named[0], "answers"), word_list(guesses, named[1], "guesses")


def _history(after, guesses: WordList) -> tuple:
    from exact.game.position import parse_history

    return parse_history(after, guesses) if isinstance(after, str) else tuple(after)


def solve_wordle(answers: Words = None, guesses: Words = None, *, list: str = "original",
                 objective: str = "guesses", depth: int | None = None, first: str | None = None,
                 hard: bool = False, after=(), max_guesses: int = 6,
                 progress: bool = False) -> GuessesResult | SolveResult:
    """The proven best Wordle strategy. ``objective``: ``"guesses"`` (fewest total guesses, every answer
    within ``max_guesses``; a :class:`GuessesResult` with its tree), a lexicographic list such as
    ``"win3,guesses"``, or ``"wins"`` (the most answers won within ``depth`` guesses, default 3; a
    :class:`SolveResult`). ``answers`` given alone are also the guesses; with neither, the lists of
    ``list``. ``first`` fixes the guess at the position, ``after`` the guesses already played.
    """
    A, G = _lists(answers, guesses, list)
    history = _history(after, G)
    if objective == "wins":
        from exact.wordle.wins.dp import solve

        return solve(A, G, depth or 3, hard, first, progress=progress, after=history)
    if depth is not None:
        raise ExactError("depth goes with objective='wins'; the fewest-guesses objectives take max_guesses")
    from exact.wordle.fewest.search import solve_guesses

    return solve_guesses(A, G, objective=objective, first=first, max_guesses=max_guesses, hard=hard,
                         after=history, progress=progress)


def read_tree(path: str | Path, fmt: str | None = None) -> Tree:
    """A strategy tree from a file in any format of ``docs/tree-formats.md`` (detected when ``fmt`` is None)."""
    from exact.game.formats import read_tree as read

    return read(path, fmt)


def write_tree(tree: Tree, path: str | Path, fmt: str | None = None, answers: Words = None) -> None:
    """Write ``tree`` atomically, in the format of ``path``'s suffix unless ``fmt`` names one."""
    from exact.game.formats import write_tree as write

    write(tree, path, fmt, answers=None if answers is None else word_list(answers))


def verify_tree(tree: Tree | str | Path, answers: Words = None, guesses: Words = None, *, list: str = "original",
                depth: int | None = None, hard: bool = False, name: str | None = None) -> Replay:
    """Replay every answer through ``tree`` (a Tree or a file) from scratch: a :class:`Replay` (its
    ``valid``, ``wins``, ``histogram``, ``mean_guesses``, ``lost`` ...). A tree that records other lists
    than these is refused (naming the tree ``name``). ``depth``: the guesses that count as a win [default:
    the tree's depth]."""
    from exact.game.tree import check_tree_lists, replay, tree_depth
    from exact.words import named_lists

    name = name or (str(tree) if not isinstance(tree, Tree) else "the tree")
    if not isinstance(tree, Tree):
        tree = read_tree(tree)
    named = named_lists(list) if answers is None or guesses is None else (None, None)
    A, G = word_list(answers, named[0], "answers"), word_list(guesses, named[1], "guesses")
    check_tree_lists(tree, A, G, name)
    return replay(tree, A, G, depth or tree_depth(tree), hard)


def lingo_score(guesses: Sequence[str] | str, pool: Words = None, *, allow_nonwords: bool = False) -> LingoScore:
    """The exact win probability of a fixed set of Lingo guesses on ``pool`` [default: the vendored
    8636 ENABLE words]: a :class:`LingoScore` (``wins``, ``n``, ``probability``, the stumper classes)."""
    from exact.lingo.score import score_guesses
    from exact.words import enable_words

    words = guesses.split() if isinstance(guesses, str) else builtins.list(guesses)
    return score_guesses(word_list(pool, None if pool is not None else enable_words()), words,
                         allow_nonwords=allow_nonwords)


def analyse_wordle(game, answers: Words = None, guesses: Words = None, *, list: str = "nyt2023",
                   hard: bool = False, answer: str | None = None, full: bool = False) -> Analysis:
    """A played game rated guess by guess (:mod:`exact.wordle.study.analyse`): ``game`` as text
    (``"salet.bybyb.drone.bgbgg.crane"``, the guesses with ``answer``, or an emoji grid with words) or a
    history. ``full``: solve every position, however large (see the module on what is exact)."""
    from exact.wordle.study.analyse import analyse_game, parse_game

    A, G = _lists(answers, guesses, list)
    history = parse_game(game, G, answer) if isinstance(game, str) else tuple(game)
    return analyse_game(history, A, G, hard, full=full)

