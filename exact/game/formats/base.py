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
from exact.words import WordList


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
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ExactError(f"not valid {what} ({e.msg})", line=e.lineno) from None


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


def read_file(path: str | Path, parse: Callable[[str], Tree]) -> Tree:
    """``parse`` the text of the tree file at ``path``; every error names the path."""
    with read_errors(path, "tree"):
        text = read_text(path, "tree file").lstrip("\ufeff")
    return parse_text_at(path, text, parse)


def parse_text_at(path: str | Path, text: str, parse: Callable[[str], Tree]) -> Tree:
    """``parse(text)``, its errors (and a tree nested too deeply) given the ``path`` they come from."""
    try:
        return parse(text)
    except ExactError as e:
        raise e.at(path=str(path)) from None
    except RecursionError:
        raise ExactError("the tree is nested too deeply to be a strategy", path=path) from None


def write_file(path: str | Path, text: str) -> None:
    """Write a generated tree's text to ``path`` atomically."""
    write_text(path, text)
