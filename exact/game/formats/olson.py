"""Jonathan Olson's trees: nested ``{"guess": g, "map": {"<digits>": node or word}}`` JSON, optionally after ``export default``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import all_green, format_pattern
from exact.game.formats.base import check_word, json_of, pattern_key, read_file, where, write_file
from exact.game.tree import Played, Tree, played
from exact.words import WordList

_EXPORT = re.compile(r"\s*export\s+default\s+")


def parse_olson(text: str) -> Tree:
    """A tree from Olson's nested JSON (optionally after ``export default`` and before a ``;``).

    A node is ``{"guess": g, "map": {...}}``; a map key is the feedback as digits 0/1/2; its value
    is the next node, or a bare word: the next guess, which is the answer. The all-green key maps to
    the node's own guess (the answer is won here). A node's ``ranking.counts`` becomes its claim.

    >>> t = parse_olson('export default {"guess":"cabin","map":{"22222":"cabin","22200":"cable"},"ranking":{"counts":[1,1]}};')
    >>> t, t.claims
    (Tree(guess='cabin', answers=2, children={26: Tree(guess='cable', answers=1, children={})}), {'counts': (1, 1)})
    """
    m = _EXPORT.match(text)
    body = text if m is None else " " * m.end() + text[m.end():]  # keep line numbers
    body = body.rstrip().removesuffix(";")
    data = json_of(body, "Olson JSON")
    if not isinstance(data, dict) or not isinstance(data.get("guess"), str):
        raise ExactError("not an Olson tree (the top level is not an object with a 'guess')")
    length = len(data["guess"])

    def node(value, history) -> Tree:
        if isinstance(value, str):
            check_word(value, length, history)
            return Tree(value, 1, {})
        if not isinstance(value, dict):
            raise ExactError(f"{where(history, length)}: a node is an object or a word, not {value!r:.40}")
        guess = value.get("guess")
        check_word(guess, length, history)
        if "map" not in value:
            raise ExactError(f"{where(history, length)}: the node of {guess!r} has no 'map' (a node that wins its "
                             f"only answer is the bare word)")
        table = value["map"]
        if not isinstance(table, dict):
            raise ExactError(f"{where(history, length)}: 'map' is not an object")
        won, children = 0, {}
        for key, child in table.items():
            pattern = pattern_key(key, length, history)
            if pattern == all_green(length):
                if child != guess:
                    raise ExactError(f"{where(history, length)}: the all-green key maps to {child!r:.40}, "
                                     f"not the node's guess {guess!r}")
                won = 1
            else:
                children[pattern] = node(child, history + ((guess, pattern),))
        ranking = value.get("ranking", {})
        if not isinstance(ranking, dict):
            raise ExactError(f"{where(history, length)}: 'ranking' is not an object")
        counts, claims = ranking.get("counts"), None
        if counts is not None:
            if not isinstance(counts, list) or not all(isinstance(c, int) and c >= 0 for c in counts):
                raise ExactError(f"{where(history, length)}: ranking.counts is not a list of counts")
            claims = {"counts": tuple(counts)}
        return Tree(guess, won + sum(c.answers for c in children.values()), dict(sorted(children.items())), claims)

    return node(data, ())


def generate_olson(tree: Tree, answers: WordList) -> str:
    """Olson's format: ``export default`` and one line of JSON, with each node's ``depth`` (guesses
    after it, at most) and ``ranking.counts``; a subtree that one answer reaches, and wins there,
    is the bare word."""

    def node(p: Played):
        if p.won and not p.classes:
            return p.guess
        table = {format_pattern(pattern, len(p.guess)): node(child)
                 for pattern, _, child in p.classes if child is not None}
        if p.won:
            table[format_pattern(all_green(len(p.guess)), len(p.guess))] = p.guess
        counts = p.counts()
        return {"guess": p.guess, "map": dict(sorted(table.items())), "depth": len(counts) - 1,
                "ranking": {"counts": counts}}

    return "export default " + json.dumps(node(played(tree, answers)), separators=(",", ":")) + "\n"


def read_olson(path: str | Path) -> Tree:
    """A tree from the Olson's JSON file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_olson)


def write_olson(tree: Tree, path: str | Path, answers: WordList) -> None:
    """Write ``tree`` to ``path`` atomically as Olson's JSON (a line or leaf per answer: give the answers)."""
    write_file(path, generate_olson(tree, answers))
