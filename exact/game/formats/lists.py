"""Nested-list trees: ``[guess, {"(0, 1, 0, 0, 2)": [...], word: null}]`` JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import all_green, format_pattern
from exact.game.formats.base import check_word, json_of, pattern_key, read_file, where, write_file
from exact.game.tree import Played, Tree, played
from exact.words import WordList

_TUPLE = re.compile(r"\(\s*[012](?:\s*,\s*[012])*\s*,?\s*\)")


def parse_lists(text: str) -> Tree:
    """A tree from nested JSON lists.

    A node is ``[guess, {key: value}]``. A key is the feedback as a Python tuple of 0/1/2 and its
    value the next node; the key ``guess`` with value ``null`` says the guess wins here. A leaf is
    ``[word, {word: null}]``: guess the word, it is the answer. Under the all-green key, the leaf of
    the node's own guess says the same as ``guess: null`` (the answer is won here, no guess more).

    >>> parse_lists('["cabin", {"(2, 2, 2, 0, 0)": ["cable", {"cable": null}], "cabin": null}]')
    Tree(guess='cabin', answers=2, children={26: Tree(guess='cable', answers=1, children={})})
    """
    data = json_of(text, "JSON")
    if not (isinstance(data, list) and data and isinstance(data[0], str)):
        raise ExactError("not a nested-list tree (the top level is not [guess, {...}])")
    length = len(data[0])

    def node(value, history) -> Tree:
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)):
            raise ExactError(f"{where(history, length)}: a node is [guess, {{...}}], not {json.dumps(value)[:40]}")
        guess, table = value
        check_word(guess, length, history)
        won, children = 0, {}
        for key, child in table.items():
            if child is None:
                if key != guess:
                    raise ExactError(f"{where(history, length)}: {key!r:.40}: null, but the node guesses {guess!r}")
                won = 1
                continue
            if not (isinstance(key, str) and _TUPLE.fullmatch(key)):
                raise ExactError(f"{where(history, length)}: key {key!r:.40} is not a tuple of 0/1/2")
            digits = "".join(re.findall(r"[012]", key))
            pattern = pattern_key(digits, length, history)
            if pattern == all_green(length):
                if child != [guess, {guess: None}]:
                    raise ExactError(f"{where(history, length)}: the all-green key leads to "
                                     f"{json.dumps(child)[:40]}, not the leaf of {guess!r}")
                won = 1
                continue
            children[pattern] = node(child, history + ((guess, pattern),))
        return Tree(guess, won + sum(c.answers for c in children.values()), dict(sorted(children.items())))

    return node(data, ())


def generate_lists(tree: Tree, answers: WordList) -> str:
    """Nested lists, indented by 2 as the published files; a guess that wins with other answers
    left writes the all-green key with its own leaf (as those files do)."""

    def key(pattern: int, length: int) -> str:
        return str(tuple(int(d) for d in format_pattern(pattern, length)))

    def node(p: Played):
        length = len(p.guess)
        table = {key(pattern, length): node(child) for pattern, _, child in p.classes if child is not None}
        if p.won and not table:
            table[p.guess] = None
        elif p.won:
            table[key(all_green(length), length)] = [p.guess, {p.guess: None}]
        return [p.guess, dict(sorted(table.items()))]

    return json.dumps(node(played(tree, answers)), indent=2) + "\n"


def read_lists(path: str | Path) -> Tree:
    """A tree from the nested lists file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_lists)


def write_lists(tree: Tree, path: str | Path, answers: WordList) -> None:
    """Write ``tree`` to ``path`` atomically as nested lists (a line or leaf per answer: give the answers)."""
    write_file(path, generate_lists(tree, answers))
