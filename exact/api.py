"""The Python API: the project's solvers as functions, for tool authors (the layer between the solvers and
the command line; ``docs/api.md`` shows each with a runnable example).

Data types, stated once:

- *words*: a :class:`~exact.words.WordList`, a sequence of strings (a list or a tuple: ordered, since the
  order breaks ties between first guesses; a set is refused, its order changing between runs), or a path
  to a file of one word a line; None takes the lists of the named ``list`` (:data:`exact.words.NAMED_LISTS`:
  ``original``, ``nyt2023``, ...);
- a *history* (``after``): ``((guess, pattern), ...)`` with pattern codes, or text such as
  ``"salet 00100 courd 10200"`` in any feedback notation;
- *weights* (a prior over the answers, :mod:`exact.weights`): a path to a ``word weight`` file, a mapping
  word -> positive integer (every answer once), or a :class:`~exact.weights.Weights`; None: the prior of
  the named ``list`` when the answers are its own (``nyt-prior``), else every answer 1. Totals and wins
  become weighted sums (expected guesses = total / weight, P(win) = wins / weight);
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

import numpy as np

from exact.errors import ExactError, InternalError, shorten
from exact.game.formats import read_tree as read, write_tree as write
from exact.game.position import MAX_GUESSES, check_guess_limit, parse_history
from exact.game.tree import Replay, Tree, check_tree_lists, replay, tree_depth
from exact.lingo.score import LingoScore, score_guesses
from exact.weights import Weights, named_weights, read_weights, weights_from_lines
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.analyse import Analysis, analyse_game
from exact.wordle.study.game_text import parse_game
from exact.wordle.study.audit import Audit, audit_tree as audit
from exact.wordle.wins.dp import solve
from exact.wordle.wins.result import SolveResult
from exact.wordle.fewest.result import GuessesResult
from exact.words import NAMED_LISTS, WordList, enable_words, named_lists, read_words, shipped_result, words_from_lines

__all__ = ["solve_wordle", "verify_tree", "audit_tree", "read_tree", "write_tree", "lingo_score", "analyse_wordle",
           "word_list", "Audit", "GuessesResult", "SolveResult", "Replay", "LingoScore", "Analysis", "Tree", "WordList", "ExactError",
           "InternalError"]

Words = WordList | Sequence[str] | str | Path | None


def word_list(words: Words, default: WordList | None = None, source: str = "<list>") -> WordList:
    """A WordList from any of the *words* forms (None: ``default``). A string naming a shipped list
    (``"nyt2023"``, as ``list="nyt2023"``; not a file of that name) is that list's answers, or its
    guesses where ``source`` is ``"guesses"``."""
    if words is None:
        if default is None:
            raise ExactError("no word list given")
        return default
    if isinstance(words, WordList):
        return words
    if isinstance(words, str) and words in NAMED_LISTS and not Path(words).exists():
        return named_lists(words)[1 if source == "guesses" else 0]
    if isinstance(words, (str, Path)):
        return read_words(words)
    if isinstance(words, (set, frozenset)):  # hash order: tied first guesses would change between runs
        raise ExactError(f"{source} must be ordered (a list, a tuple or a WordList), not a {type(words).__name__}: "
                         f"the order of the words breaks ties, and a set's changes between runs", params=(source,))
    if isinstance(words, (bytes, bytearray)) or not isinstance(words, (Sequence, np.ndarray)):
        raise ExactError(f"{source} must be a word list, a path or a sequence of words, not "
                         f"{type(words).__name__}", params=(source,))
    bad = [w for w in words if not isinstance(w, (str, np.str_))][:1]
    if bad:
        bad = bad[0]
        raise ExactError(f"{source}: every word must be a string, not {type(bad).__name__} "
                         f"{shorten(repr(bad))}", params=(source,))
    return words_from_lines([str(w) for w in words], source=source)


# --- the arguments, checked once here (bad input raises ExactError, never a TypeError from inside) ------

def _flag(value, name: str) -> bool:
    """A yes/no argument: True or False only (``hard="yes"`` is refused, not read as true)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ExactError(f"{name} must be True or False, not {shorten(repr(value))}", params=(name,))
    return bool(value)


def _text(value, name: str, optional: bool = True) -> str | None:
    """A string argument (None where ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ExactError(f"{name} must be a string, not {type(value).__name__}", params=(name,))
    return value


def _path(value, name: str) -> Path:
    """A file argument: a str or a Path."""
    if not isinstance(value, (str, Path)):
        raise ExactError(f"{name} must be a path (str or Path), not {type(value).__name__}", params=(name,))
    return Path(value)


def _pattern(value, length: int, where: str) -> int:
    """A pattern code, 0 to 3**length - 1 (the all-green code is the last)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ExactError(f"{where}: a pattern code must be a whole number, not {type(value).__name__}")
    if not 0 <= value < 3 ** length:
        raise ExactError(f"{where}: pattern code {value} is not in 0..{3 ** length - 1}")
    return int(value)


def _pairs(value, guesses: WordList, name: str) -> tuple:
    """A history given as pairs ``((guess, pattern code), ...)``: each guess on the list, each code in range."""
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, Sequence):
        raise ExactError(f"{name} must be text or a sequence of (guess, pattern) pairs, not "
                         f"{type(value).__name__}", params=(name,))
    if len(value) > MAX_GUESSES:
        raise ExactError(f"{name}: {len(value)} guesses, more than {MAX_GUESSES} (exact.game.position.MAX_GUESSES)",
                         params=(name,))
    pairs = []
    for i, pair in enumerate(value, start=1):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise ExactError(f"{name}: item {i} must be a (guess, pattern) pair, not {shorten(repr(pair))}",
                             params=(name,))
        guess = _text(pair[0], f"{name}: item {i}'s guess", optional=False)
        if guess not in guesses.index:
            raise ExactError(f"{name}: {shorten(guess)!r} is not in the guesses ({guesses.source})", params=(name,))
        pairs.append((guess, _pattern(pair[1], guesses.length, f"{name}: item {i}")))
    return tuple(pairs)


def _depth(value, name: str = "depth") -> int | None:
    """None, or a count of guesses in 1..MAX_GUESSES."""
    return None if value is None else check_guess_limit(value, name)


def _tree(tree) -> Tree:
    """A :class:`Tree` that is a tree: no node reached twice (a cycle, or a subtree shared), at most
    :data:`~exact.game.position.MAX_GUESSES` deep, each node's guess a string, its answers a whole number
    at least 1 and its children a dict from pattern codes to Trees. Walked without recursion, so a cycle
    is found, not looped over. Checked here, not in ``Tree.__post_init__``: the readers of
    :mod:`exact.game.formats` build nodes with 0 answers and count them up as they read."""
    if not isinstance(tree, Tree):
        raise ExactError(f"tree must be an exact.Tree, not {type(tree).__name__}", params=("tree",))
    seen: set[int] = set()
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise ExactError("tree: a node is reached twice (a cycle or a shared subtree); a strategy is a tree")
        if depth > MAX_GUESSES:
            raise ExactError(f"tree: deeper than {MAX_GUESSES} guesses (exact.game.position.MAX_GUESSES)")
        seen.add(id(node))
        if not isinstance(node.guess, str) or not isinstance(node.children, dict):
            raise ExactError(f"tree: a node's guess must be a string and its children a dict, not "
                             f"{type(node.guess).__name__} and {type(node.children).__name__}")
        if isinstance(node.answers, bool) or not isinstance(node.answers, (int, np.integer)) or node.answers < 1:
            raise ExactError(f"tree: the node {shorten(node.guess)!r} must count the answers reaching it (a whole "
                             f"number at least 1), not {shorten(repr(node.answers))}")
        for code, child in node.children.items():
            _pattern(code, len(node.guess), f"tree: a child of {shorten(node.guess)!r}")
            if not isinstance(child, Tree):
                raise ExactError(f"tree: a child of {shorten(node.guess)!r} is a {type(child).__name__}, not a Tree")
            stack.append((child, depth + 1))
    return tree


def _lists(answers: Words, guesses: Words, list: str) -> tuple[WordList, WordList]:
    if answers is not None and guesses is None:
        A = word_list(answers, source="answers")
        return A, A  # answers given alone are also the guesses
    named = named_lists(list) if answers is None or guesses is None else (None, None)
    return word_list(answers, named[0], "answers"), word_list(guesses, named[1], "guesses")


def _history(after, guesses: WordList, name: str = "after") -> tuple:
    return parse_history(after, guesses) if isinstance(after, str) else _pairs(after, guesses, name)


def _weights(value, answers: WordList, list: str, named: bool) -> Weights | None:
    """The answer weights ``value`` names (the module's *weights*) for these answers; None: the named
    list's prior when ``named`` (the answers are the list's own), else None (every answer 1)."""
    if value is None:
        return named_weights(list, answers) if named else None
    if isinstance(value, Weights):
        if len(value.values) != len(answers):
            raise ExactError(f"weights: {len(value.values)} weights for the {len(answers)} answers")
        return value
    if isinstance(value, dict):
        return weights_from_lines((f"{word} {weight}" for word, weight in value.items()), answers, "weights")
    return read_weights(_path(value, "weights"), answers)


def solve_wordle(answers: Words = None, guesses: Words = None, *, list: str = "original",
                 objective: str = "guesses", depth: int | None = None, first: str | None = None,
                 hard: bool = False, after=(), max_guesses: int = 6,
                 progress: bool = False, weights=None) -> GuessesResult | SolveResult:
    """The proven best Wordle strategy. ``objective``: ``"guesses"`` (fewest total guesses, every answer
    within ``max_guesses``; a :class:`GuessesResult` with its tree), a lexicographic list such as
    ``"win3,guesses"``, or ``"wins"`` (the most answers won within ``depth`` guesses, default 3; a
    :class:`SolveResult`). ``answers`` given alone are also the guesses; with neither, the lists of
    ``list``. ``first`` fixes the guess at the position, ``after`` the guesses already played.
    ``weights``: the answers' prior (the module's *weights*): the weighted total, or the weight won.
    """
    list, objective, first = _text(list, "list", False), _text(objective, "objective", False), _text(first, "first")
    hard, progress, depth = _flag(hard, "hard"), _flag(progress, "progress"), _depth(depth)
    max_guesses = check_guess_limit(max_guesses)
    A, G = _lists(answers, guesses, list)
    W = _weights(weights, A, list, answers is None)
    history = _history(after, G)
    if objective == "wins":
        return solve(A, G, depth or 3, hard, first, progress=progress, after=history, weights=W)
    if depth is not None:
        raise ExactError("depth goes with objective='wins'; the fewest-guesses objectives take max_guesses")

    return solve_guesses(A, G, objective=objective, first=first, max_guesses=max_guesses, hard=hard,
                         after=history, progress=progress, weights=W)


def read_tree(path: str | Path, fmt: str | None = None) -> Tree:
    """A strategy tree from a file in any format of ``docs/tree-formats.md`` (detected when ``fmt`` is None).
    A relative ``results/...`` path that is not here names a shipped result (as the commands read them),
    so ``read_tree("results/wordle/salet-guesses.txt")`` works from any folder."""
    path = _path(path, "path")
    if not path.is_absolute() and path.parts[:1] == ("results",) and not path.exists():
        path = shipped_result(path.as_posix()) or path
    return read(path, _text(fmt, "fmt"))


def write_tree(tree: Tree, path: str | Path, fmt: str | None = None, answers: Words = None) -> None:
    """Write ``tree`` atomically, in the format of ``path``'s suffix unless ``fmt`` names one."""
    write(_tree(tree), _path(path, "path"), _text(fmt, "fmt"),
          answers=None if answers is None else word_list(answers, source="answers"))


def verify_tree(tree: Tree | str | Path, answers: Words = None, guesses: Words = None, *, list: str = "original",
                depth: int | None = None, hard: bool = False, name: str | None = None) -> Replay:
    """Replay every answer through ``tree`` (a Tree or a file) from scratch: a :class:`Replay` (its
    ``valid``, ``wins``, ``histogram``, ``mean_guesses``, ``lost`` ...). A tree that records other lists
    than these is refused (naming the tree ``name``). ``depth``: the guesses that count as a win [default:
    the tree's depth]."""
    list, name, hard, depth = _text(list, "list", False), _text(name, "name"), _flag(hard, "hard"), _depth(depth)
    name = name or (str(tree) if not isinstance(tree, Tree) else "the tree")
    tree = _tree(tree if isinstance(tree, Tree) else read_tree(_path(tree, "tree")))
    named = named_lists(list) if answers is None or guesses is None else (None, None)
    A, G = word_list(answers, named[0], "answers"), word_list(guesses, named[1], "guesses")
    check_tree_lists(tree, A, G, name)
    return replay(tree, A, G, depth or tree_depth(tree), hard)


def audit_tree(tree: Tree | str | Path, answers: Words = None, guesses: Words = None, *, list: str = "original",
               depth: int | None = None, max_guesses: int = 6, hard: bool = False, partial: bool = False,
               name: str | None = None, progress: bool | None = False, weights=None) -> Audit:
    """Audit ``tree`` (a Tree or a file) decision by decision against the proven optimum
    (:mod:`exact.wordle.study.audit`): an :class:`Audit` with ``total``, ``optimal_given_first``,
    ``optimal_overall`` (None where no ranking certificate covers the lists), ``gap``, ``first_guess_loss``
    and the losing ``decisions``. Fewest guesses within ``max_guesses``, or with ``depth`` K the most wins
    within K. A tree made on other lists is refused as :func:`verify_tree` refuses it; one that does not
    solve every answer is refused naming them, unless ``partial``. ``weights``: the answers' prior (the
    module's *weights*): every total, optimum and loss weighted."""
    list, name, hard, partial = _text(list, "list", False), _text(name, "name"), _flag(hard, "hard"), _flag(partial, "partial")
    depth, max_guesses = _depth(depth), check_guess_limit(max_guesses)
    name = name or (str(tree) if not isinstance(tree, Tree) else "the tree")
    tree = _tree(tree if isinstance(tree, Tree) else read_tree(_path(tree, "tree")))
    A, G = _lists(answers, guesses, list)
    check_tree_lists(tree, A, G, name)
    return audit(tree, A, G, depth=depth, max_guesses=max_guesses, hard=hard, partial=partial, name=name,
                 progress=progress if progress is None else _flag(progress, "progress"),
                 weights=_weights(weights, A, list, answers is None))


def lingo_score(guesses: Sequence[str] | str, pool: Words = None, *, allow_nonwords: bool = False) -> LingoScore:
    """The exact win probability of a fixed set of Lingo guesses on ``pool`` [default: the vendored
    8636 ENABLE words]: a :class:`LingoScore` (``wins``, ``n``, ``probability``, the stumper classes)."""
    words = guesses.split() if isinstance(guesses, str) else word_list(guesses, source="guesses").words
    return score_guesses(word_list(pool, None if pool is not None else enable_words(), "pool"), builtins.list(words),
                         allow_nonwords=_flag(allow_nonwords, "allow_nonwords"))


def analyse_wordle(game, answers: Words = None, guesses: Words = None, *, list: str = "nyt2023",
                   hard: bool = False, answer: str | None = None, full: bool = False, weights=None) -> Analysis:
    """A played game rated guess by guess (:mod:`exact.wordle.study.analyse`): ``game`` as text
    (``"salet.bybyb.drone.bgbgg.crane"``, the guesses with ``answer``, or an emoji grid with words) or a
    history. ``full``: solve every position, however large (see the module on what is exact). ``weights``:
    the answers' prior (the module's *weights*): expected guesses and luck weighted by it."""
    list, answer, hard, full = _text(list, "list", False), _text(answer, "answer"), _flag(hard, "hard"), _flag(full, "full")
    A, G = _lists(answers, guesses, list)
    W = _weights(weights, A, list, answers is None)
    history = parse_game(game, G, answer) if isinstance(game, str) else _pairs(game, G, "game")
    return analyse_game(history, A, G, hard, full=full, weights=W)

