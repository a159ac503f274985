"""What the format modules share: the table row, JSON parsing, error places, and the file verbs.

Every format module ``X`` has the same four verbs, as networkx's readwrite modules do:
``parse_X(text) -> Tree``, ``generate_X(tree, answers) -> str``, ``read_X(path) -> Tree`` and
``write_X(tree, path, answers)``; reading and writing files go through :func:`read_file` and
:func:`write_file`, so every format reports errors with the path (and line) and writes atomically.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import is_word, parse_pattern
from exact.fileio import read_errors, read_text, write_text
from exact.game.tree import Tree, path_text
from exact.words import WordList, shorten


@dataclass(frozen=True)
class TreeFormat:
    """One row of the table: how to read and write a format, and the suffixes that name it."""

    parse: Callable[[str], Tree]  # text -> Tree; errors are ExactError (with ``line`` where known)
    generate: Callable[[Tree, WordList | None], str]  # (tree, answers) -> text
    suffixes: tuple[str, ...]  # the first is the one to write; longer ones win (".lists.json" over ".json")
    needs_answers: bool  # the writer walks the answers through the tree (a line or leaf per answer)
    what: str  # a few words for help texts


def json_of(text: str, what: str = "JSON"):
    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as e:
        raise ExactError(f"not valid {what} ({e.msg})", line=e.lineno) from None
    except ValueError as e:  # a number of more than sys.get_int_max_str_digits() digits
        raise ExactError(f"not valid {what} ({digits_message(e)})") from None


def no_duplicates(pairs: list) -> dict:
    """A JSON object, refusing a key given twice (``json`` would keep the last silently)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ExactError(f"the key {shorten(str(twice))!r} appears twice in one object")
    return out


def digits_message(e: ValueError) -> str:
    return "a number with too many digits" if "digits" in str(e) else f"{type(e).__name__}: {shorten(str(e), 120)}"


def where(history, length: int) -> str:
    return f"at [{path_text(history, length) or 'root'}]"


def sort_children(tree: Tree) -> None:
    tree.children = dict(sorted(tree.children.items()))
    for child in tree.children.values():
        sort_children(child)


def check_word(word, length: int, history) -> None:
    if not isinstance(word, str) or not is_word(word) or len(word) != length:
        raise ExactError(f"{where(history, length)}: {word!r:.40} is not a {length}-letter lowercase word")


def pattern_key(key, length: int, history) -> int:
    if not isinstance(key, str) or len(key) != length or set(key) - set("012"):
        raise ExactError(f"{where(history, length)}: key {key!r:.40} is not {length} digits 0/1/2")
    return parse_pattern(key, length, "digits")


#: The largest tree file read (a complete tree of 15000 answers in the text format is about 1.2 MB).
MAX_TREE = 16 * 1024 * 1024


def read_file(path: str | Path, parse: Callable[[str], Tree]) -> Tree:
    """``parse`` the text of the tree file at ``path`` (at most :data:`MAX_TREE` bytes); every error names the path."""
    return parse_text_at(path, read_tree_text(path), parse)


def read_tree_text(path: str | Path) -> str:
    """The text of the tree file at ``path``, at most :data:`MAX_TREE` bytes, without a byte-order mark."""
    with read_errors(path, "tree"):
        return read_text(path, "tree file", MAX_TREE).lstrip("\ufeff")


def parse_text_at(path: str | Path, text: str, parse: Callable[[str], Tree]) -> Tree:
    """``parse(text)``, its errors (and a tree nested too deeply) given the ``path`` they come from."""
    try:
        return parse(text)
    except ExactError as e:
        raise e.at(path=str(path)) from None
    except RecursionError:
        raise ExactError("the tree is nested too deeply to be a strategy", path=path) from None
    except ValueError as e:  # int() of a number past sys.get_int_max_str_digits(), in any reader
        if "digits" not in str(e):
            raise
        raise ExactError(f"a number with too many digits ({digits_message(e)})", path=path) from None


def write_file(path: str | Path, text: str) -> None:
    """Write a generated tree's text to ``path`` atomically."""
    write_text(path, text)
