"""Playing along from any position, solved live: the logic behind ``exact wordle serve``.

A *setup* (:class:`Setup`) is the game being played: the lists, the mode, the objective (``guesses``: the
fewest total guesses with every answer solved within ``limit``; ``wins``: the most answers won within
``limit`` guesses) and its limit. At a position (the guesses played and their feedback) the best next guess
comes, first found wins, from

1. *instant advice* (:class:`InstantAdvice`): a proven tree that reaches the position (a shipped tree of
   the setup, or an opener book's), whose subtree there is optimal for the position: a subtree of an
   optimal tree is optimal for its class (else swapping in a better one would improve the whole tree);
2. the *store* (:mod:`exact.wordle.study.store`): positions proven before on this machine;
3. a *live solve* (:class:`exact.wordle.study.live.Solver`): the exact engine (:func:`exact.wordle.fewest.search.solve_guesses` or
   the depth-k DP of :class:`exact.wordle.study.play.LiveWins`) in a worker process of its own, which is
   terminated when the player moves past the position or closes the page. Until it ends, the advice is a
   *heuristic* guess (:func:`heuristic_guess`, marked as such), with the proof's expected duration
   estimated from the answers left (:func:`expected_seconds`).

A game that ended (solved, or given up) is *rated* (:func:`rate`, :meth:`exact.wordle.study.live.Solver.rate`): each guess against the
best guess at its position, by :func:`exact.wordle.study.analyse.analyse_game` (the values of ``exact wordle
analyse``: exact from the committed certificates, rankings and the opener book, "at least N" from a ranking's
rejection bound), at once; what those lack is solved in the tab's worker when :func:`expected_seconds` expects it
within :data:`RATE_SECONDS` (:func:`rate_max`), else said to be too large.

Values: for ``guesses``, the total guesses still to play over the answers left, this guess included (its
mean is the *expected guesses from here*, each answer left equally likely); for ``wins``, the answers left
won within the guesses left. With *weights* (a prior, :mod:`exact.weights`, not unit) each answer counts its
weight: the values are the weighted total and the weight won, the expected guesses the weighted total over
the weight left, every engine solves the weighted objective, and the shipped trees and the opener book
(proven without weights) are not used; the store's key includes the weights' sha256, so a position solved
under one prior is never read under another. Unit weights are no weights (the same keys as none).

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> setup = Setup(A, A)
>>> caber = Tree("caber", 2, {feedback("caber", "cable"): Tree("cable", 1, {})})
>>> InstantAdvice([Tree("cabin", 3, {feedback("cabin", "cable"): caber})], setup).advice(
...     read_position(setup, (("cabin", feedback("cabin", "cable")),)))
Solution(guess='caber', value=3, n=2, proven=True)
"""

from __future__ import annotations

import contextlib
import multiprocessing.forkserver
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, parse_pattern  # noqa: F401 (feedback: the doctest)
from exact.game.formats import read_tree
from exact.game.hard import broken_rule, is_allowed
from exact.game.position import Position, after, check_guess_limit, start, word_classes
from exact.game.tree import Tree, check_tree_lists
from exact.partitions import feedback_matrix
from exact.progress import one_process
from exact.stop import die_with_parent
from exact.wordle.fewest.search import Bounds, solve_guesses
from exact.wordle.study.analyse import (Analysis, Proven, Step, Value, analyse_game, first_guess_values,
                                        game_summary)
from exact.wordle.study.book import Book, BookStrategy, shipped_book
from exact.weights import NAMED_WEIGHTS, Weights
from exact.wordle.study.fallback import guesses_to_solve
from exact.wordle.study.play import LiveWins, TreeStrategy, expected_seconds, weight_map
from exact.wordle.study.store import OBJECTIVES, Solution, Store, position_key
from exact.words import WordList, check_answers_are_guesses, check_words, list_name, shipped_result

History = tuple[tuple[str, int], ...]
#: the objective's limit when none is given: every answer within 6 (the game's), or wins within 3
DEFAULT_LIMIT = {"guesses": 6, "wins": 3}

#: The shipped proven trees, by (list, hard, objective, limit): each subtree is optimal for its position.
SHIPPED_TREES = {
    ("original", False, "guesses", 6): ("results/wordle/salet-guesses.txt",),
    ("original", True, "guesses", 6): ("results/wordle/salet-guesses-hard.txt",),
    ("nyt2023", False, "guesses", 6): ("results/wordle/nyt2023-tarse-guesses.txt",),
    ("nyt2023", True, "guesses", 6): ("results/wordle/nyt2023-tarse-guesses-hard.txt",),
    # the best first guess's tree of each nyt2022 ranking (tarse 7883, hard salet 8097; the certificate replays it)
    ("nyt2022", False, "guesses", 6): ("results/wordle/ranking-guesses-nyt2022-best.txt",),
    ("nyt2022", True, "guesses", 6): ("results/wordle/ranking-guesses-nyt2022-hard-best.txt",),
    ("original", False, "wins", 3): ("results/wordle/optimal-depth3.txt",),
    ("original", True, "wins", 3): ("results/wordle/hard-depth3.txt",),
    ("original", False, "wins", 4): ("results/wordle/optimal-depth4.txt", "results/wordle/trace-depth4.txt"),
    ("nyt2022", False, "wins", 3): ("results/wordle/nyt2022-depth3.txt",),
    ("nyt2022", True, "wins", 3): ("results/wordle/nyt2022-hard-depth3.txt",),
    ("nyt2023", False, "wins", 3): ("results/wordle/nyt2023-depth3.txt",),
    ("nyt2023", True, "wins", 3): ("results/wordle/nyt2023-hard-depth3.txt",),
}

#: The shipped trees proven under a list's own prior (each subtree optimal for its position under those
#: weights): tares's of the fewest-guesses ranking of 20 first guesses under the word-frequency prior (the
#: certificate results/wordle/ranking-guesses-prior20-certificate.json replays it, 10206525).
WEIGHTED_TREES = {
    ("nyt-prior", False, "guesses", 6): ("results/wordle/ranking-guesses-prior20-best.graphml",),
}


def shipped_prior(setup: "Setup") -> bool:
    """The setup's weights are its list's own shipped prior (``--list nyt-prior``)."""
    entry = NAMED_WEIGHTS.get(list_name(setup.answers, setup.guesses) or "")
    return setup.weights is not None and entry is not None and setup.weights.sha256 == entry[1]


@dataclass(frozen=True)
class Setup:
    """The game being played (module docstring); ``limit`` 0 takes the objective's :data:`DEFAULT_LIMIT`."""

    answers: WordList
    guesses: WordList
    hard: bool = False
    objective: str = "guesses"
    limit: int = 0
    weights: Weights | None = None  # the answers' prior (module docstring); None or unit: every answer 1

    def __post_init__(self):
        if self.objective not in OBJECTIVES:
            raise ExactError(f"objective {self.objective!r}: choose from {', '.join(OBJECTIVES)}",
                             params=("objective",))
        limit = self.limit or DEFAULT_LIMIT[self.objective]
        object.__setattr__(self, "limit", check_guess_limit(limit, "depth"))
        check_answers_are_guesses(self.answers, self.guesses)
        if self.weights is not None and self.weights.unit:
            object.__setattr__(self, "weights", None)

    @cached_property
    def best_first(self) -> str | None:
        """The first guess the committed rankings prove best of all for this game's fewest guesses
        (:func:`exact.wordle.study.analyse.first_guess_values`), else None (the most wins: not looked up)."""
        if self.objective != "guesses":
            return None
        values = first_guess_values(self.answers, self.guesses, self.hard, self.limit, None,
                                    self.weights.sha256 if self.weights is not None else None, self.weights)
        return values.best_guess if values.best_of_all is not None else None

    @cached_property
    def w(self) -> dict[str, int] | None:
        """word -> weight of the answers, None without (non-unit) weights."""
        return weight_map(self.weights, self.answers)

    def weight(self, words) -> int:
        """The total weight of ``words`` (their number without weights)."""
        return sum(self.w[a] for a in words) if self.w else len(words)

    @property
    def title(self) -> str:
        """The game and its objective, in words (the page's title)."""
        mode = ", hard mode" if self.hard else ""
        if self.weights is not None:
            mode += ", under a word-frequency prior" if shipped_prior(self) else f", answers weighted by {self.weights.source}"
        if self.objective == "guesses":
            return f"Wordle{mode}: fewest guesses, every answer within {self.limit}"
        return f"Wordle{mode}: most wins within {self.limit} guesses"

    @property
    def lists(self) -> str:
        """The lists, by name where they are shipped ones, with their sizes."""
        name = list_name(self.answers, self.guesses)
        shown = f"list {name}" if name else f"answers {self.answers.source}, guesses {self.guesses.source}"
        return f"{shown} ({len(self.answers)} answers, {len(self.guesses)} allowed guesses)"

    def key(self, position: Position) -> str:
        return position_key(self.answers, self.guesses, self.hard, self.objective, self.limit, position.history,
                            position.candidates, self.weights.sha256 if self.weights is not None else None)


def read_moves(setup: Setup, moves) -> History:
    """The history a page sends, ``[[word, colours], ...]`` (colours in any notation of
    :func:`exact.feedback.parse_pattern`), checked: each word an allowed guess, each colours readable."""
    if not isinstance(moves, list) or not all(isinstance(m, list) and len(m) == 2 for m in moves):
        raise ExactError("history: give a list of [word, colours] pairs")
    if len(moves) > setup.limit:
        raise ExactError(f"history: {len(moves)} guesses is more than the game's {setup.limit}")
    history = []
    for word, colours in moves:
        if not isinstance(word, str) or not isinstance(colours, str):
            raise ExactError("history: each word and colours must be text")
        (word,) = check_words([word.strip().lower()], setup.guesses.length, "guess")
        if word not in setup.guesses.index:
            raise ExactError(f"{word!r} is not an allowed guess of {setup.guesses.source}")
        history.append((word, parse_pattern(colours, setup.guesses.length)))
    return tuple(history)


def read_position(setup: Setup, history: History) -> Position:
    """The position after ``history``: an ExactError where no answer left gives a feedback, a guess breaks
    the hard-mode rule, or a guess follows the all-green one."""
    pos = start(setup.answers)
    green = all_green(setup.answers.length)
    for i, (guess, pattern) in enumerate(history):
        if i and history[i - 1][1] == green:
            raise ExactError(f"{history[i - 1][0]} was the answer (all green); the game is over")
        if setup.hard and (why := broken_rule(guess, history[:i])) is not None:
            raise ExactError(f"{guess!r} breaks the hard-mode rule at guess {i + 1}: {why}")
        left = after(pos, guess, pattern)
        if not left.candidates:
            raise ExactError(f"no answer of the list gives {format_pattern(pattern, len(guess))} to {guess} "
                             f"(at guess {i + 1}; {len(pos.candidates)} answers were left)")
        pos = left
    return pos


def solved(position: Position) -> bool:
    """The last guess got all green."""
    h = position.history
    return bool(h) and h[-1][1] == all_green(len(h[-1][0]))


# --- instant advice: proven trees ----------------------------------------------------------------


def shipped_trees(setup: Setup) -> list[Tree]:
    """The shipped proven trees of the setup: :data:`SHIPPED_TREES` without weights, :data:`WEIGHTED_TREES`
    under a list's own shipped prior (:data:`exact.weights.NAMED_WEIGHTS`), none for other lists or weights."""
    name = list_name(setup.answers, setup.guesses)
    key = (name, setup.hard, setup.objective, setup.limit)
    if setup.weights is None:
        files = SHIPPED_TREES.get(key, ())
    else:
        files = WEIGHTED_TREES.get(key, ()) if shipped_prior(setup) else ()
    trees = []
    for file in files:
        if (path := shipped_result(file)) is not None:
            tree = read_tree(path)
            check_tree_lists(tree, setup.answers, setup.guesses, str(path))
            trees.append(tree)
    return trees


def shipped_opener_book(setup: Setup) -> Book | None:
    """The committed opener book of the setup's lists and mode (:mod:`exact.wordle.study.book`) when it
    answers the setup's question (fewest guesses within its limit), else None."""
    if setup.objective != "guesses" or setup.weights is not None:  # the book is proven without weights
        return None
    book = shipped_book(setup.answers, setup.guesses, setup.hard)
    return book if book is not None and book.max_guesses == setup.limit else None


class InstantAdvice:
    """Advice read from proven trees of the setup: at a position a tree reaches, its subtree's guess and
    value (module docstring: a subtree of an optimal tree is optimal). The root is the tree's opener, proven
    only for that opener, so its value is not marked proven. More trees (an opener book) are one more item
    of ``trees``."""

    def __init__(self, trees: Iterable[Tree], setup: Setup, book: Book | None = None):
        self.trees = [TreeStrategy(tree, "a proven tree") for tree in trees]
        if book is not None:  # the opener book: a proven tree after each of its openers
            self.trees.append(BookStrategy(book))
        self.setup = setup

    def advice(self, position: Position) -> Solution | None:
        for tree in self.trees:
            node = tree.plan(position)
            if node is not None and (found := self.value(node, position)) is not None:
                return found
        return None

    def value(self, node: Tree, position: Position) -> Solution | None:
        """The node's guess and value at the position, or None where the node does not solve the objective
        for every answer left (a tree of another limit, a class it does not play)."""
        steps = guesses_to_solve(node, position.candidates, strict=False)
        left = self.setup.limit - position.played
        w = self.setup.w or dict.fromkeys(steps, 1)
        if self.setup.objective == "guesses":
            if any(s is None or s > left for s in steps.values()):
                return None
            value = sum(w[a] * s for a, s in steps.items())
        else:
            if left < 1:
                return None
            value = sum(w[a] for a, s in steps.items() if s is not None and s <= left)
        return Solution(node.guess, value, len(position.candidates), bool(position.history))


def few_left(setup: Setup, position: Position) -> Solution | None:
    """One or two answers left: guess the first of them (with weights the heaviest, the first among
    equals), proven best. For ``guesses`` the value is 1 or 1 + 2 = 3, the least possible (every answer
    needs a guess, a second answer two), with weights w_a + 2 w_b, least when a is the heavier; for
    ``wins`` each answer guessed within the guesses left is won, and no guess wins two answers at once,
    so with one guess left the heaviest is the most weight won."""
    left, n = setup.limit - position.played, len(position.candidates)
    if n > 2 or (setup.objective == "guesses" and left < n):
        return None
    w = [setup.weight((a,)) for a in position.candidates]
    order = sorted(range(n), key=lambda i: -w[i])  # stable: the first among equals
    ws = [w[i] for i in order]
    value = sum((j + 1) * x for j, x in enumerate(ws)) if setup.objective == "guesses" else sum(ws[:max(left, 0)])
    return Solution(position.candidates[order[0]], value, n, True)


def proven_at(setup: Setup, instant: InstantAdvice, store: Store | None, position: Position) -> Proven | None:
    """The position's proven best guess and value, where the server has them at once (what it advised
    there, or would): one or two answers left, a proven tree (not a tree's opener, proven for that opener
    only), the store; else None."""
    found = few_left(setup, position)
    how = "one or two answers left"
    if found is None and (found := instant.advice(position)) is not None:
        how = "a proven tree"
    if found is None and store is not None and (found := store.get(setup.key(position))) is not None:
        found = found if plausible(setup, position, found) else None
        how = "proven before by this server (its store)"
    return Proven(found.guess, found.value, how) if found is not None and found.proven else None


def known_positions(setup: Setup, instant: InstantAdvice, store: Store | None, history: History) -> dict:
    """What a rating of the game ``history`` can read at once, by the moves that reach each position
    (:func:`proven_at`): each position of the game (the first where a rating solved it before), the one
    after its last (a game given up: the next guess), and each class of the first guess (its value is theirs summed,
    :func:`exact.wordle.study.analyse.class_by_class`)."""
    first = history[0][0]
    positions = [start(setup.answers)] + [Position(setup.answers, ((first, p),), P)
                                          for p, P in word_classes(first, setup.answers.words).items()]
    position = start(setup.answers)
    for i, (guess, pattern) in enumerate(history):  # a solved game's last position is left out below
        position = after(position, guess, pattern)
        if i:
            positions.append(position)
    known = {}
    for position in positions:
        if not solved(position) and (found := proven_at(setup, instant, store, position)) is not None:
            known[position.history] = found
    return known


def plausible(setup: Setup, position: Position, stored: Solution) -> bool:
    """Whether a solution read from the store can be the position's: this code stores only proven
    solutions of an allowed guess (keeping the hard-mode rule) for the answers left, so anything else is
    not trusted; and its value must lie within what is provably possible there. For ``guesses``, with
    W the weight of the answers left (their number without weights) and w the heaviest: at least
    2 W - w (a guess wins at most one answer at once, every other answer needs two guesses or more) and at
    most W times the guesses left (every answer within the limit); for ``wins``, between 0 and W."""
    n = len(position.candidates)
    if stored.n != n or not stored.proven or stored.guess not in setup.guesses.index:
        return False
    if setup.hard and not is_allowed(stored.guess, position.history):
        return False
    w = [setup.weight((a,)) for a in position.candidates]
    if setup.objective == "wins":
        return 0 <= stored.value <= sum(w)
    return 2 * sum(w) - max(w) <= stored.value <= (setup.limit - position.played) * sum(w)


# --- while a proof runs: a heuristic guess and the expected duration -------------------------------


def heuristic_guess(setup: Setup, position: Position, F: np.ndarray | None = None) -> str:
    """A quick guess, not proven: the allowed guess (keeping the hard-mode rule) making the most classes
    on the answers left; ties: an answer left first (it may win now), then the smaller largest class,
    then the guess list's order. One or two answers left: the first of them (optimal there)."""
    left = position.candidates
    if len(left) <= 2:
        return left[0]
    F = feedback_matrix(setup.guesses, setup.answers) if F is None else F
    index = setup.answers.index
    T = np.array(sorted(index[a] for a in left), dtype=np.int64)
    rows = np.arange(len(setup.guesses))
    if setup.hard:
        rows = np.array([i for i, g in enumerate(setup.guesses.words) if is_allowed(g, position.history)])
    sub = np.sort(F[np.ix_(rows, T)], axis=1)
    change = np.diff(sub, axis=1) != 0
    classes = 1 + np.count_nonzero(change, axis=1)
    starts = np.hstack([np.ones((len(rows), 1), bool), change])
    largest = np.array([np.diff(np.flatnonzero(np.r_[s, True])).max() for s in starts])
    inside = np.array([setup.guesses.words[r] in set(left) for r in rows])
    best = np.lexsort((rows, largest, ~inside, -classes))[0]
    return setup.guesses.words[int(rows[best])]


# --- the live proof, in a worker process ----------------------------------------------------------


class Proof(NamedTuple):
    """A live proof: the solution at the position and the optimal tree from there (each of its subtrees is
    optimal for its own position, as in :class:`InstantAdvice`)."""

    solution: Solution
    tree: Tree


def prove(setup: Setup, history: History, report: Callable[[Bounds], None] | None = None) -> Proof:
    """The best guess at the position after ``history``, its value and its tree, proven by the exact engine;
    ``report`` is told the search's :class:`exact.wordle.fewest.search.Bounds` as it goes, in the values of
    :class:`Solution` (the guesses still to play over the answers left; the most wins: nothing is told)."""
    position = read_position(setup, history)
    n = len(position.candidates)
    if setup.objective == "guesses":
        played = position.played * setup.weight(position.candidates)  # the engine counts the guesses played
        tell = (lambda b: report(b._replace(lower=b.lower - played,
                                            upper=None if b.upper is None else b.upper - played))) \
            if report is not None else None
        result = solve_guesses(setup.answers, setup.guesses, max_guesses=setup.limit, hard=setup.hard,
                               after=history, progress=False, weights=setup.weights, report=tell)
        if result.interrupted:  # Ctrl-C or SIGTERM (a bench, a test): not a position without a strategy
            raise KeyboardInterrupt
        if result.status != "OPTIMAL":
            raise ExactError(f"no strategy solves all {n} answers left within the {setup.limit} guesses "
                             f"({result.status})")
        return Proof(Solution(result.first, result.total - played, n, True), result.tree)
    tree = LiveWins(setup.answers, setup.guesses, setup.limit, setup.hard, weights=setup.weights).plan(position)
    if tree is None:
        raise ExactError(f"no guess is left within the {setup.limit} guesses that count as a win")
    left = setup.limit - position.played
    steps = guesses_to_solve(tree, position.candidates, strict=False)
    won = [a for a, s in steps.items() if s is not None and s <= left]
    return Proof(Solution(tree.guess, setup.weight(won), n, True), tree)


def proven_positions(setup: Setup, position: Position, tree: Tree) -> Iterator[tuple[str, Solution]]:
    """(key, solution) of every position below a proven tree's root with more than two answers left (the
    positions a game reaches next, each solved by its subtree); valued as :class:`InstantAdvice` values them."""
    instant = InstantAdvice([], setup)
    for pattern, child in tree.children.items():
        below = after(position, tree.guess, pattern)
        if len(below.candidates) > 2 and (found := instant.value(child, below)) is not None:
            yield setup.key(below), found
            yield from proven_positions(setup, below, child)


def in_worker(conn, task, args: tuple, reports: bool = False) -> None:
    """A worker process's body: ``task(*args)``, its outcome sent through ``conn`` as ("ok", what it returned)
    or ("error", one line); with ``reports``, the task is also given ``report``, which sends ("known", what it
    is told) on the way. The worker dies with its parent, the forkserver (:func:`exact.stop.die_with_parent`),
    which ends when the server ends, SIGKILL included (:func:`release_forkserver`): no proof outlives the server."""
    die_with_parent()  # first: the forkserver may end as soon as its pipe is released
    release_forkserver()
    one_process()  # a bar's lock without a semaphore for a cancelled worker to leave behind
    extra = {"report": lambda known: conn.send(("known", known))} if reports else {}
    try:
        conn.send(("ok", task(*args, **extra)))
    except ExactError as e:
        conn.send(("error", str(e)))
    except Exception as e:  # the page shows one line; the server keeps serving other positions
        conn.send(("error", f"internal error in the live solve: {type(e).__name__}: {e}"))
    finally:
        conn.close()


def release_forkserver() -> None:
    """Let the forkserver end with the server. multiprocessing's forkserver ends when the pipe from the
    server reads end-of-file (every copy of its write end closed: the server's closes when it ends, however
    it ends), but it hands a copy of that write end to each process it forks (so that a worker may start
    processes of its own: these never do), and a worker alive would keep the forkserver alive, and itself
    with it. This worker closes its copy (a private name of the standard library's, CPython 3.8 to 3.13;
    ``tests/test_serve.py`` SIGKILLs a server with a proof running and sees its forkserver and worker end)."""
    forkserver = multiprocessing.forkserver._forkserver
    fd = getattr(forkserver, "_forkserver_alive_fd", None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
        forkserver._forkserver_alive_fd = None  # should this worker start a process, a new forkserver starts


# --- rating a game that ended: every guess against the best, by exact.wordle.study.analyse ---------

#: A rating solves live only positions whose proof :func:`expected_seconds` expects within this many seconds;
#: the larger ones are said to be "not computed (too large)" (a minute: the page waits for it).
RATE_SECONDS = 60.0


def rate_max(seconds: float = RATE_SECONDS) -> int:
    """The most answers left a rating solves live: the largest n with ``expected_seconds(n) <= seconds``
    (0 when none; :func:`expected_seconds` grows with n, so a doubling then a bisection finds it)."""
    if expected_seconds(1) > seconds:
        return 0
    low, high = 1, 2
    while expected_seconds(high) <= seconds:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if expected_seconds(middle) <= seconds else (low, middle)
    return low


@dataclass(frozen=True)
class Rating:
    """A game rated (``exact wordle analyse``'s values, :func:`rate`), as the page shows it.

    ``status``: ``done`` (every value is given, or said to be a bound or too large), ``working`` (values marked
    ``computing`` are being solved in the tab's worker; ask again), ``failed`` (that solve failed: ``message``).
    ``rows``: one per guess (:func:`rating_row`); ``next``: a game given up, the best next guess and its value.
    """

    status: str
    rows: tuple[dict, ...]
    next: dict | None = None
    estimate: float = 0.0  # working: the expected seconds of what is computed
    elapsed: float | None = None
    message: str = ""
    learned: tuple = ()  # (key, Solution) of each position the rating solved: the server stores them
    summary: str = ""  # the game in one line (:func:`exact.wordle.study.analyse.game_summary`)

    def to_json(self) -> dict:
        data = {"status": self.status, "rows": list(self.rows), "next": self.next, "message": self.message,
                "estimate": round(self.estimate, 1), "summary": self.summary}
        return data if self.elapsed is None else {**data, "elapsed": round(self.elapsed, 1)}


def rate(setup: Setup, history: History, live_max: int, quick: bool = False, known: dict | None = None) -> Rating:
    """Each guess of the game ``history`` valued against the best guess at its position by
    :func:`exact.wordle.study.analyse.analyse_game` (the one rater: the committed certificates and rankings,
    the opener book, ``known`` (:func:`known_positions`: what the server proved or looked up), else solved),
    solving the positions it solves with ``live_max``. ``quick``: solve none (the committed files, the book
    and ``known`` only, at once), and mark ``computing`` what ``live_max`` would solve (:func:`solve_size`:
    the tab's worker solves it next). What it solved is in :attr:`Rating.learned`."""
    if setup.objective != "guesses":
        raise ExactError(f"rating: a game is rated by its expected guesses (exact wordle analyse), not for the "
                         f"objective {setup.objective!r} of this server")
    analysis = analyse_game(history, setup.answers, setup.guesses, setup.hard, setup.limit,
                            live_max=0 if quick else live_max, weights=setup.weights, known=known)
    rows = tuple(rating_row(step, analysis, live_max, pending=quick, known=known) for step in analysis.steps)
    pending = [r["size"] for r in rows if "computing" in (r["played"]["state"], r["best"]["state"])]
    nxt = None
    if analysis.next_guess is not None:
        state = "exact" if analysis.next_best.total is not None else "not computed"
        nxt = {"guess": analysis.next_guess, **shown(analysis.next_best, len(history) + 1, state)}
    elif not analysis.solved and len(history) < setup.limit:
        left = read_position(setup, history)
        n = len(left.candidates)
        if quick and n <= live_max:
            pending.append(n)  # the tab's worker solves it next
        nxt = heuristic_next(setup, left, "computing" if quick and n <= live_max else "not computed")
    return Rating("working" if pending else "done", rows, nxt, sum(expected_seconds(n) for n in pending),
                  learned=tuple(learned_positions(setup, analysis)), summary=game_summary(analysis))


def learned_positions(setup: Setup, analysis: Analysis) -> Iterator[tuple[str, Solution]]:
    """(key, solution) of each position the analysis solved (:attr:`exact.wordle.study.analyse.Analysis.learned`)
    and of every position its tree reaches (:func:`proven_positions`), valued as the store keeps them."""
    for found in analysis.learned:
        position = read_position(setup, found.before)
        if found.best:
            yield setup.key(position), Solution(found.guess, found.total - len(found.before) * setup.weight(
                position.candidates), len(position.candidates), True)
        yield from proven_positions(setup, position, found.tree)


def heuristic_next(setup: Setup, position: Position, state: str) -> dict:
    """A game given up where no file proves the next guess: the heuristic guess meanwhile (``computing``: the
    worker proves it next), or for good where the position is too large to prove within the rating's minute."""
    n = len(position.candidates)
    known = ("computing..." if state == "computing" else
             f"a quick guess, not proven (a proof over {n} answers is expected to take about "
             f"{expected_seconds(n):.0f} s)")
    return {"guess": heuristic_guess(setup, position), "state": state, "answers": n, "how": "heuristic",
            "total": None, "expected": None, "at_least": None, "known": known}


def solve_size(step: Step, analysis: Analysis, best: bool, live_max: int, known: dict | None = None) -> int:
    """The answers a live solve of this value proves (what its time is estimated by); ``analyse_game`` with
    ``live_max`` solves it when at most ``live_max``: a position of at most ``live_max`` answers is solved
    whole (both values); the played first guess of a larger one when its largest class has at most
    ``live_max`` (each class is then a later position: ``exact.wordle.study.analyse.live_first_guess``);
    the best first guess only with the whole position, a later position only whole."""
    if step.number > 1 or best or step.before <= live_max:
        return step.before
    green = all_green(len(step.guess))
    return max([len(P) for p, P in word_classes(step.guess, analysis.answers.words).items()
                if p != green and ((step.guess, p),) not in (known or {})] or [0])


def rating_row(step: Step, analysis: Analysis, live_max: int, pending: bool, known: dict | None = None) -> dict:
    """One guess of the rating: the guess and its colours, the answers left before it, its value and the
    best guess's (:func:`shown`), the loss (the expected guesses it costs beyond the best, at least so much
    when its value is a lower bound), and ``size``: the most answers a live solve of a missing value proves."""
    values, sizes = {}, [0]
    for which, value in (("played", step.played), ("best", step.best)):
        size = solve_size(step, analysis, which == "best", live_max, known) if value.total is None else 0
        sizes.append(size if size <= live_max else 0)
        state = ("exact" if value.total is not None else "computing" if pending and size <= live_max
                 else "at least" if value.at_least is not None else "not computed")
        values[which] = shown(value, step.number, state, size)
    played, best = values["played"], values["best"]
    low = {"exact": played["expected"], "at least": played["at_least"]}.get(played["state"])
    loss = low - best["expected"] if low is not None and best["state"] == "exact" else None
    return {"number": step.number, "guess": step.guess, "colours": format_pattern(step.pattern, len(step.guess)),
            "answers": step.before, "played": played, "best": best, "best_guess": step.best_guess,
            "best_scope": step.best_scope, "loss": loss, "loss_at_least": played["state"] == "at least",
            "size": max(sizes)}


def shown(value: Value, number: int, state: str, size: int = 0) -> dict:
    """A value as the page shows it: the expected guesses *from its position* (this guess included: the
    analysis counts from the game's first guess, so less the ``number - 1`` guesses before), its total
    from there (over the answers, or their weight, left), and how it is known (``known``, in words;
    ``size``: the answers a live solve of it proves)."""
    before = number - 1
    data = {"state": state, "answers": value.n, "how": value.how,
            "total": None if value.total is None else value.total - before * (value.weight or value.n),
            "expected": None if value.expected is None else value.expected - before,
            "at_least": None if value.at_least is None else value.expected_at_least - before}
    if value.weight is not None:
        data["weight"] = value.weight
    return {**data, "known": known(data, size), "sources": sources(data["how"])}


def known(data: dict, size: int) -> str:
    """How a shown value is known, in a player's words (``size``: the answers a live solve of it proves);
    the files it comes from are :func:`sources`, which the page keeps behind a details toggle."""
    state, how = data["state"], data["how"]
    if state == "exact":
        return "exact: proven here" if how == "solved" else f"exact: {kind_of_proof(how)}"
    if state == "at least":
        return f"at least {data['at_least']:.2f}: a bound, not exact ({kind_of_proof(how)})"
    if state == "computing":
        return "computing..."
    if how.startswith("not computed:"):
        return f"not computed: too large to prove here (a proof over {size} answers, about {expected_seconds(size):.0f} s)"
    return "not computed"


def kind_of_proof(how: str) -> str:
    """What proves a value, in words: the ranking of every first guess, a certificate, the opener book."""
    if "opener book" in how:
        return how[how.index("the opener book"):] if "the opener book" in how else "the opener book"
    if "ranking" in how:
        return "the proven ranking of every first guess" + (", its floor" if "floor" in how else "")
    if "certificate" in how:
        return "a proven certificate"
    return how


def sources(how: str) -> str:
    """The committed files a value is read from (empty when none: solved here, or not computed)."""
    return ", ".join(dict.fromkeys(re.findall(r"results/wordle/[\w./-]*\w", how)))
