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
- :func:`read_book` checks the header against the lists and the content's sha256, and replays every
  opener's tree on the book's lists (:func:`replay_trees`): each node's guess allowed (and, in hard
  mode, allowed by the rule), its children the feedback classes of the answers reaching it, each
  node's recorded count the number of answers reaching it, every answer solved within
  ``max_guesses``; each opener's total is the one its tree takes (the header's must equal it). A
  mismatch is refused in one line naming the file and the opener. The sha256 only catches damage:
  whoever edits a book can recompute it, so nothing in a book is taken on trust but what the replay
  derives; that each tree is the *least* total after its opener is what ``exact wordle verify BOOK``
  re-derives (:mod:`exact.wordle.book_verify`).

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

import numpy as np

from exact.errors import ExactError, InternalError, shorten
from exact.feedback import all_green, feedback, format_pattern  # noqa: F401 (feedback: doctests)
from exact.fileio import read_errors, write_bytes
from exact.game.hard import is_allowed
from exact.game.tree import Tree, path_text
from exact.partitions import build_matrix
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
    total: int  # total guesses over every answer, with this first guess: the replay of its tree on read (that it is the least is the proof the book records; `exact wordle verify BOOK` re-solves it)
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
    match, and every opener's tree replay on the lists to the total its header says
    (:func:`replay_trees`), else a one-line ExactError naming the file (and the opener)."""
    data = read_book_data(path)
    _check_header(data, path, answers, guesses, hard)
    try:
        totals = replay_trees(data["trees"], answers, guesses, hard, data["max_guesses"])
    except ExactError as e:
        raise e.at(path=str(path)) from None
    book = Book(answers, guesses, hard, data["max_guesses"])
    for word, entry in data["openers"].items():
        if entry["total"] != totals[word]:
            raise ExactError(f"opener {word}: the header says total {entry['total']}, its tree takes "
                             f"{totals[word]} guesses", path=str(path))
        book.openers[word] = Opener(word, totals[word], entry["seconds"], entry["cores"], data["trees"][word])
    return book


def read_book_data(path: str | Path) -> dict:
    """The JSON of a book file, unchecked (a one-line ExactError when it is not gzip'd JSON)."""
    try:
        with read_errors(path, "opener book"), gzip.open(path, "rb") as f:
            raw = f.read(MAX_BOOK_BYTES + 1)
    except EOFError:
        raise ExactError("truncated: not a whole opener book", path=str(path)) from None
    if len(raw) > MAX_BOOK_BYTES:
        raise ExactError(f"more than {MAX_BOOK_BYTES} bytes uncompressed: not an opener book", path=str(path))
    try:
        return json.loads(raw)
    except ValueError as e:
        raise ExactError(f"not an opener book ({e})", path=str(path)) from None


def is_book_file(path: str | Path) -> bool:
    """Whether ``path`` looks like a book (gzip'd, by its first bytes, or named ``*.json.gz``), for
    ``exact wordle verify`` to tell a book from a tree or a certificate; the reader then checks it."""
    if str(path).endswith(".json.gz"):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError:
        return False


GZIP_MAGIC = b"\x1f\x8b"


def _check_header(data, path, answers: WordList, guesses: WordList, hard: bool) -> None:
    check_form(data, path)
    lists = data["lists"]
    if (lists.get("answers_sha256"), lists.get("guesses_sha256")) != (answers.sha256, guesses.sha256):
        raise ExactError(f"the book was made on other lists (answers sha256 {str(lists.get('answers_sha256'))[:12]}..., "
                         f"not {answers.sha256[:12]}... of {answers.source})", path=str(path))
    if data["hard"] is not bool(hard):
        raise ExactError(f"the book is for {'hard' if data['hard'] else 'normal'} mode, not "
                         f"{'hard' if hard else 'normal'}", path=str(path))
    if content_sha256(data["trees"]) != data.get("content_sha256"):
        raise ExactError("the book's content does not match its sha256 (damaged or edited)", path=str(path))


def check_form(data, path) -> None:
    """The book's JSON has the form :func:`write_book` writes (its kind and objective, a lists record, the
    mode, ``max_guesses``, each opener's total, seconds and cores, a tree for each), else a one-line
    ExactError naming the file; what the fields say is checked elsewhere."""
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("objective") != OBJECTIVE:
        raise ExactError(f"not an opener book (kind {KIND!r}, objective {OBJECTIVE!r})", path=str(path))
    if not isinstance(data.get("lists"), dict) or not isinstance(data.get("hard"), bool):
        raise ExactError("the header needs its lists and its mode (hard)", path=str(path))
    trees = data.get("trees")
    if not isinstance(trees, dict) or not isinstance(data.get("openers"), dict) or set(trees) != set(data["openers"]):
        raise ExactError("the book's header and trees name different openers", path=str(path))
    for word, entry in data["openers"].items():
        if not (isinstance(entry, dict) and isinstance(entry.get("total"), int)
                and isinstance(entry.get("seconds"), (int, float)) and isinstance(entry.get("cores"), int)):
            raise ExactError(f"opener {word!r}: the header needs its total, seconds and cores", path=str(path))
    if not isinstance(data.get("max_guesses"), int):
        raise ExactError("the header needs max_guesses", path=str(path))


# --- the trees replayed on read ------------------------------------------------------------------

#: The most bytes of feedback one batch of a book's replay holds (distinct guesses x answers): the shipped
#: books take 10 MB (original) and 19 MB (nyt2023), one batch each; a book of larger lists is replayed in
#: batches of openers.
REPLAY_BYTES = 64 * 1024 * 1024


@dataclass
class Forest:
    """Openers' trees (the file's nested lists) flattened for :func:`replay_trees`: node i plays
    ``guess[i]``, records ``count[i]`` answers and hangs under node ``parent[i]`` (-1: a root) by
    feedback ``pattern[i]``; ``roots`` maps each opener to its root's id, ``words`` the distinct guesses."""

    length: int
    guess: list[str] = field(default_factory=list)
    count: list[int] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    pattern: list[int] = field(default_factory=list)
    roots: dict[str, int] = field(default_factory=dict)
    words: set[str] = field(default_factory=set)

    def history(self, i: int) -> tuple[tuple[str, int], ...]:
        """The guesses and feedback from the root down to node i (not i's own guess)."""
        out = []
        while self.parent[i] >= 0:
            out.append((self.guess[self.parent[i]], self.pattern[i]))
            i = self.parent[i]
        return tuple(reversed(out))

    def where(self, i: int) -> str:
        """Node i in words: ``[crane 20000] couch``."""
        return f"[{path_text(self.history(i), self.length) or 'root'}] {self.guess[i]}"

    def add(self, word: str, data, guesses: WordList, hard: bool) -> None:
        """Flatten one opener's tree, checking its form (a malformed node, a guess that is not allowed, a
        child under the all-green feedback or twice under one: an ExactError naming the opener). Plain
        type tests, no helper per node: the shipped books have 144000 nodes and this is their start-up."""
        self.roots[word] = root = len(self.guess)
        allowed, green = guesses.index, all_green(self.length)
        todo = [(data, -1, 0)]
        while todo:
            node, parent, pattern = todo.pop()
            i = len(self.guess)
            if type(node) is str:
                guess, count, children = node, 1, ()
            elif type(node) is list and len(node) == 3 and type(node[1]) is int and type(node[2]) is list:
                guess, count, children = node
            else:
                raise ExactError(f"opener {word}: a tree node must be a word or [word, answers, [[pattern, child], "
                                 f"...]] (under {self.where(parent) if parent >= 0 else 'no node: the root'})")
            if type(guess) is not str or guess not in allowed:
                raise ExactError(f"opener {word}: under {self.where(parent) if parent >= 0 else 'no node'}: "
                                 f"{shorten(repr(guess))} is not an allowed guess of {guesses.source}")
            self.guess.append(guess)
            self.count.append(count)
            self.parent.append(parent)
            self.pattern.append(pattern)
            self.words.add(guess)
            if hard and not is_allowed(guess, self.history(i)):
                raise ExactError(f"opener {word}: {self.where(i)}: {guess!r} breaks the hard-mode rule")
            if i == root and guess != word:
                raise ExactError(f"opener {word}: its tree opens with {guess!r}")
            for item in children:
                if not (type(item) is list and len(item) == 2 and type(item[0]) is int and 0 <= item[0] < green):
                    raise ExactError(f"opener {word}: {self.where(i)}: a child must be [pattern, node] with a "
                                     f"pattern of a guess not won (0 to {green - 1})")
                todo.append((item[1], i, item[0]))
            if len(children) > 1 and len({item[0] for item in children}) < len(children):
                raise ExactError(f"opener {word}: {self.where(i)}: two children under one feedback")


def replay_trees(trees: dict, answers: WordList, guesses: WordList, hard: bool, max_guesses: int) -> dict[str, int]:
    """Each opener's total guesses, derived by replaying its tree (the file's nested lists) on the lists:
    every answer walked from the root, each step's feedback computed from the words
    (:func:`exact.partitions.build_matrix`, rows for the trees' guesses only), never read from the file.
    Refused (an ExactError naming the opener): a malformed node or a guess not allowed
    (:meth:`Forest.add`), an answer whose feedback has no branch where it is not won, an answer not solved
    within ``max_guesses``, a node whose recorded answers are not those reaching it (a node no answer
    reaches among them)."""
    totals: dict[str, int] = {}
    forest = Forest(answers.length)
    for word, data in trees.items():
        forest.add(word, data, guesses, hard)
        if len(forest.words) * len(answers) >= REPLAY_BYTES:  # a batch of about REPLAY_BYTES of feedback
            totals |= _walk(forest, answers, max_guesses)
            forest = Forest(answers.length)
    if forest.roots:
        totals |= _walk(forest, answers, max_guesses)
    return {w: totals[w] for w in trees}


def _walk(forest: Forest, answers: WordList, max_guesses: int) -> dict[str, int]:
    """Every answer walked down every tree of ``forest`` at once, a guess a step (see :func:`replay_trees`)."""
    words = sorted(forest.words)
    F = build_matrix(words, answers.words, progress=False)  # F[row[i], a]: node i's guess on answer a
    index = {w: k for k, w in enumerate(words)}
    row = np.array([index[g] for g in forest.guess], dtype=np.int64)
    green, n = all_green(forest.length), len(answers)
    parent = np.array(forest.parent, dtype=np.int64)
    child = np.flatnonzero(parent >= 0)
    keys = parent[child] * (green + 1) + np.array(forest.pattern, dtype=np.int64)[child]
    order = np.argsort(keys)
    keys, child = keys[order], child[order]
    roots = np.array(list(forest.roots.values()), dtype=np.int64)
    node, answer = np.repeat(roots, n), np.tile(np.arange(n), len(roots))
    tree = np.repeat(np.arange(len(roots)), n)  # which opener each walk is in
    reach, totals = np.zeros(len(forest.guess), dtype=np.int64), np.zeros(len(roots), dtype=np.int64)
    for step in range(1, max_guesses + 1):
        if not node.size:
            break
        reach += np.bincount(node, minlength=len(reach))
        pattern = F[row[node], answer].astype(np.int64)
        won = pattern == green
        totals += step * np.bincount(tree[won], minlength=len(roots))
        node, answer, tree, pattern = node[~won], answer[~won], tree[~won], pattern[~won]
        at = np.minimum(np.searchsorted(keys, node * (green + 1) + pattern), max(len(keys) - 1, 0))
        found = keys[at] == node * (green + 1) + pattern if len(keys) else np.zeros(len(node), dtype=bool)
        if not found.all():
            k = int(np.argmin(found))
            _refuse(forest, int(node[k]), f"answer {answers.words[answer[k]]!r} gets feedback "
                    f"{format_pattern(int(pattern[k]), forest.length)} and the tree has no branch for it")
        node = child[at]
    if node.size:
        _refuse(forest, int(node[0]), f"answer {answers.words[answer[0]]!r} is not solved within {max_guesses} guesses")
    wrong = np.flatnonzero((reach != np.array(forest.count)) | (reach == 0))
    if wrong.size:
        i = int(wrong[0])
        _refuse(forest, i, f"records {forest.count[i]} answers but {int(reach[i])} reach it"
                + (" (a branch for feedback no answer gives)" if reach[i] == 0 else ""))
    return {w: int(t) for w, t in zip(forest.roots, totals)}


def _refuse(forest: Forest, i: int, why: str) -> None:
    """Node i of the forest does not replay: an ExactError naming its opener and the node."""
    root = i
    while forest.parent[root] >= 0:
        root = forest.parent[root]
    opener = next(w for w, r in forest.roots.items() if r == root)
    raise ExactError(f"opener {opener}: {forest.where(i)}: {why}")


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
