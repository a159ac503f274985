"""The opener book: for a pair of lists and a mode, the proven fewest-guesses tree after each of the
openers players use most, so that ``play``, ``analyse`` and a server answer after any of them at once.

Data types, stated once:

- an *opener's entry* (:class:`Opener`) is the tree :func:`exact.wordle.fewest.search.solve_guesses`
  proves with ``first=WORD`` (every answer within ``max_guesses``, the fewest total guesses), its
  proven total, and how long the proof took on how many cores;
- a *book* (:class:`Book`) is the entries of one list pair and mode, with a header naming the lists'
  sha256, the mode, the objective, each opener's proven total and the sha256 of the content; it is
  written as one gzip'd JSON file (:func:`write_book`), by default ``results/wordle/book/LIST[-hard].json.gz``
  (:func:`book_file`). A tree is stored as nested lists: a node is ``[guess, answers, [[pattern, child],
  ...]]``, a leaf that names its one answer is the word alone;
- :func:`read_book` checks the header against the lists and the content's sha256 and refuses a
  mismatch in one line.

The lookup for players and the server: ``book_advice(answers, guesses, hard, history)`` returns
:class:`BookAdvice` (the proven best guess at the position, its expected guesses from here, the
answers left, the opener) when the book of those lists and mode covers the position, else None.
``history`` is ``((guess, pattern), ...)`` with patterns as codes (:mod:`exact.feedback`).

Why a subtree's guess is the proven best at its position (not only after the opener): the cost of a
tree is the sum of the costs of its first guess's classes, which are independent, so a tree of least
total after the opener has, in each class, a subtree of least total for that class at that step
(replacing a worse one would lower the total). Hence after the opener and any feedback, and after
every later guess *the book played*, the node's guess is the proven best and its total the proven
value. A position reached with a guess other than the book's is not covered (None).

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> book = build_book(A, A, ["rebut", "focal"], progress=False)
>>> {w: e.total for w, e in book.openers.items()}
{'rebut': 17, 'focal': 18}
>>> advice = lookup(book, (("rebut", feedback("rebut", "focal")),))
>>> advice.answers_left, advice.guess, advice.expected
(2, 'sissy', 1.5)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from exact.errors import ExactError, InternalError
from exact.feedback import feedback  # noqa: F401 (doctests)
from exact.fileio import read_errors, write_bytes
from exact.game.tree import Tree
from exact.progress import say
from exact.wordle.fewest.search import Infeasible, solve_guesses
from exact.words import WordList, check_words, list_name, lists_record, shipped_result

KIND = "wordle-opener-book"
OBJECTIVE = "guesses"

#: The most bytes :func:`read_book` decompresses: a book of 100 openers on the 3158-answer list is a few
#: MB of JSON (a tree has fewer nodes than 2 x its answers, each a few bytes); 256 MB refuses a bomb.
MAX_BOOK_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Opener:
    word: str
    total: int  # proven least total guesses over every answer, with this first guess
    seconds: float  # how long the proof took
    cores: int  # on how many cores
    encoded: object = field(repr=False)  # the tree in the file's nested-list form (:func:`encode_tree`)

    @cached_property
    def tree(self) -> Tree:
        """The tree, decoded when first asked (a book reads at once; a game walks one opener's tree)."""
        return decode_tree(self.encoded, f"opener {self.word}")

    @property
    def mean(self) -> float:
        return self.total / self.tree.answers


@dataclass
class Book:
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    hard: bool
    max_guesses: int
    openers: dict[str, Opener] = field(default_factory=dict)  # in the order they were built
    interrupted: bool = False  # a build stopped by Ctrl-C or SIGTERM (not written: a file holds whole openers)

    def header(self) -> dict:
        return {"kind": KIND, "objective": OBJECTIVE, "hard": self.hard, "max_guesses": self.max_guesses,
                "lists": lists_record(self.answers, self.guesses),
                "openers": {w: {"total": e.total, "status": "OPTIMAL", "seconds": round(e.seconds, 3),
                                "cores": e.cores} for w, e in self.openers.items()}}


@dataclass(frozen=True)
class BookAdvice:
    guess: str  # the proven best guess at the position
    total: int  # the least total guesses over the answers left, counted from the next guess
    answers_left: int
    opener: str

    @property
    def expected(self) -> float:
        """Expected guesses from here (the next guess included), each answer left equally likely."""
        return self.total / self.answers_left


# --- the compact tree -----------------------------------------------------------------------------

def encode_tree(tree: Tree):
    """A tree as nested lists (the module docstring's form)."""
    if not tree.children and tree.answers == 1:
        return tree.guess
    return [tree.guess, tree.answers, [[p, encode_tree(c)] for p, c in sorted(tree.children.items())]]


def decode_tree(data, where: str) -> Tree:
    """The inverse of :func:`encode_tree`; a malformed node is an ExactError naming ``where``."""
    if isinstance(data, str):
        return Tree(data, 1, {})
    if not (isinstance(data, list) and len(data) == 3 and isinstance(data[0], str) and isinstance(data[1], int)
            and isinstance(data[2], list)):
        raise ExactError(f"{where}: a tree node must be a word or [word, answers, children]")
    children = {}
    for item in data[2]:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ExactError(f"{where}: a child must be [pattern, node]")
        children[item[0]] = decode_tree(item[1], where)
    return Tree(data[0], data[1], children)


def tree_total(tree: Tree) -> int:
    """Total guesses of a complete tree over the answers reaching it, counted from its root's guess:
    each answer pays one guess here, and those not won here their subtree's count."""
    return tree.answers + sum(tree_total(c) for c in tree.children.values())


# --- writing and reading ----------------------------------------------------------------------------

def book_file(answers: WordList, guesses: WordList, hard: bool) -> str:
    """The book's path in the repository for a named list pair (``results/wordle/book/original.json.gz``)."""
    name = list_name(answers, guesses)
    if name is None:
        raise ExactError("the book's default file needs a named list (--list); give --out FILE for other lists")
    return f"results/wordle/book/{name}{'-hard' if hard else ''}.json.gz"


def _content(book: Book) -> dict:
    return {w: e.encoded for w, e in book.openers.items()}


def content_sha256(trees: dict) -> str:
    return hashlib.sha256(json.dumps(trees, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_book(book: Book, path: str | Path) -> None:
    """The book as one gzip'd JSON file, atomically (deterministic bytes: no time in the gzip header)."""
    trees = _content(book)
    data = {**book.header(), "content_sha256": content_sha256(trees), "trees": trees}
    text = json.dumps(data, separators=(",", ":")).encode()
    write_bytes(path, gzip.compress(text, compresslevel=9, mtime=0))


def read_book(path: str | Path, answers: WordList, guesses: WordList, hard: bool) -> Book:
    """The book in ``path``, checked: its kind, objective, lists (sha256), mode and content sha256 must
    match, else a one-line ExactError naming the file."""
    try:
        with read_errors(path, "opener book"), gzip.open(path, "rb") as f:
            raw = f.read(MAX_BOOK_BYTES + 1)
    except EOFError:
        raise ExactError("truncated: not a whole opener book", path=str(path)) from None
    if len(raw) > MAX_BOOK_BYTES:
        raise ExactError(f"more than {MAX_BOOK_BYTES} bytes uncompressed: not an opener book", path=str(path))
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ExactError(f"not an opener book ({e})", path=str(path)) from None
    _check_header(data, path, answers, guesses, hard)
    book = Book(answers, guesses, hard, data["max_guesses"])
    for word, entry in data["openers"].items():
        book.openers[word] = Opener(word, entry["total"], entry["seconds"], entry["cores"], data["trees"][word])
    return book


def _check_header(data, path, answers: WordList, guesses: WordList, hard: bool) -> None:
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("objective") != OBJECTIVE:
        raise ExactError(f"not an opener book (kind {KIND!r}, objective {OBJECTIVE!r})", path=str(path))
    lists = data.get("lists") or {}
    if (lists.get("answers_sha256"), lists.get("guesses_sha256")) != (answers.sha256, guesses.sha256):
        raise ExactError(f"the book was made on other lists (answers sha256 {str(lists.get('answers_sha256'))[:12]}..., "
                         f"not {answers.sha256[:12]}... of {answers.source})", path=str(path))
    if data.get("hard") is not bool(hard):
        raise ExactError(f"the book is for {'hard' if data.get('hard') else 'normal'} mode, not "
                         f"{'hard' if hard else 'normal'}", path=str(path))
    trees = data.get("trees")
    if not isinstance(trees, dict) or not isinstance(data.get("openers"), dict) or set(trees) != set(data["openers"]):
        raise ExactError("the book's header and trees name different openers", path=str(path))
    for word, entry in data["openers"].items():
        if not (isinstance(entry, dict) and isinstance(entry.get("total"), int)
                and isinstance(entry.get("seconds"), (int, float)) and isinstance(entry.get("cores"), int)):
            raise ExactError(f"opener {word!r}: the header needs its total, seconds and cores", path=str(path))
    if not isinstance(data.get("max_guesses"), int):
        raise ExactError("the header needs max_guesses", path=str(path))
    if content_sha256(trees) != data.get("content_sha256"):
        raise ExactError("the book's content does not match its sha256 (damaged or edited)", path=str(path))


# --- building ------------------------------------------------------------------------------------

def read_openers(words: Iterable[str], guesses: WordList) -> tuple[str, ...]:
    """The openers that are allowed guesses of ``guesses``, duplicates dropped, in order; a word of
    another length or with other characters is an ExactError, an allowed word of another list (tarse
    is not in the original guesses) is said and left out, so that one openers file serves every list."""
    checked = check_words(list(words), guesses.length, "openers")
    for w in checked:
        if w not in guesses.index:
            say(f"book: opener {w!r} is not an allowed guess of {guesses.source}; left out")
    return tuple(dict.fromkeys(w for w in checked if w in guesses.index))


def build_book(answers: WordList, guesses: WordList, openers: Sequence[str], *, hard: bool = False,
               max_guesses: int = 6, out: str | Path | None = None, resume: Book | None = None,
               progress: bool | None = None) -> Book:
    """The book of ``openers``, each proven by ``solve_guesses(first=opener)``; ``resume`` (a book read
    from ``out``) keeps its openers. After each opener the book is written to ``out``, so a kill loses
    at most the opener in progress; Ctrl-C (SIGTERM) stops with what is done. An opener with which no
    strategy solves every answer within ``max_guesses`` is said and left out."""
    book = resume or Book(answers, guesses, hard, max_guesses)
    if book.max_guesses != max_guesses:
        raise ExactError(f"the book to resume allows {book.max_guesses} guesses, not {max_guesses}")
    todo = [w for w in read_openers(openers, guesses) if w not in book.openers]
    for i, word in enumerate(todo, 1):
        started = time.perf_counter()
        try:
            r = solve_guesses(answers, guesses, first=word, hard=hard, max_guesses=max_guesses, progress=progress)
        except Infeasible as e:
            say(f"book: {word}: {e}; left out")
            continue
        if r.status == "INFEASIBLE" and not r.interrupted:
            say(f"book: {word}: no strategy solves every answer within {max_guesses} guesses; left out")
            continue
        if r.interrupted or r.status != "OPTIMAL":
            say(f"book: stopped during {word}; {len(book.openers)} openers kept")
            book.interrupted = True
            break
        if tree_total(r.tree) != r.total:
            raise InternalError(f"book: the tree after {word} totals {tree_total(r.tree)}, the solve said {r.total}")
        book.openers[word] = Opener(word, r.total, time.perf_counter() - started, r.cores, encode_tree(r.tree))
        if out is not None:
            write_book(book, out)
        if progress is not False:
            say(f"book: {word} {r.total} (mean {r.total / len(answers):.4f}) in {r.seconds:.1f} s; "
                f"{i} of {len(todo)} done")
    return book


# --- the book as a strategy for the players -----------------------------------------------------

@dataclass
class BookStrategy:
    """A player's strategy (:class:`exact.wordle.study.play.Strategy`) from a book: at a position it
    covers, the rest of the opener's proven tree from there; ``first`` fixes the opener of a game not
    started (a live solve's ``--first``); None elsewhere (the player asks the next strategy)."""

    book: Book
    first: str | None = None
    name: str = "opener book: proven fewest guesses"

    @property
    def depth(self) -> int:
        return self.book.max_guesses

    def plan(self, position) -> Tree | None:
        if not position.history:
            entry = self.book.openers.get(self.first) if self.first else None
            return entry.tree if entry is not None else None
        return book_node(self.book, position.history)


# --- the lookup ------------------------------------------------------------------------------------

_SHIPPED: dict[tuple[str, str, bool], Book | None] = {}


def shipped_book(answers: WordList, guesses: WordList, hard: bool) -> Book | None:
    """The committed book of these lists and mode (read once per process), or None when there is none."""
    key = (answers.sha256, guesses.sha256, bool(hard))
    if key not in _SHIPPED:
        name = list_name(answers, guesses)
        path = shipped_result(book_file(answers, guesses, hard)) if name is not None else None
        _SHIPPED[key] = read_book(path, answers, guesses, hard) if path is not None else None
    return _SHIPPED[key]


def book_node(book: Book, history: Sequence[tuple[str, int]]) -> Tree | None:
    """The node of the book's tree at the position after ``history`` (a game opened with one of its
    openers, every later guess the tree's), or None: another opener, a guess off the tree, solved."""
    if not history or history[0][0] not in book.openers:
        return None
    node = book.openers[history[0][0]].tree
    for guess, pattern in history:
        if node is None or node.guess != guess:
            return None
        node = node.children.get(pattern)
    return node


def lookup(book: Book, history: Sequence[tuple[str, int]]) -> BookAdvice | None:
    """The book's proven advice at the position after ``history``, or None (see the module docstring)."""
    node = book_node(book, history)
    if node is None:
        return None
    return BookAdvice(node.guess, tree_total(node), node.answers, history[0][0])


def book_advice(answers: WordList, guesses: WordList, hard: bool,
                history: Sequence[tuple[str, int]]) -> BookAdvice | None:
    """The proven best guess and its value after ``history`` when the shipped book of these lists and
    mode covers the position, else None (no book, another opener, or a guess off the book's tree)."""
    book = shipped_book(answers, guesses, hard)
    return lookup(book, history) if book is not None else None
