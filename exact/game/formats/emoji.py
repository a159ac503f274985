"""Emoji trees: a line per answer, ``guess <squares> <count>`` triplets ending with the answer."""

from __future__ import annotations

from pathlib import Path

from exact.errors import ExactError
from exact.feedback import VARIATION_SELECTOR, all_green, format_pattern, is_word, parse_pattern
from exact.fileio import is_decimal
from exact.game.formats.base import read_file, sort_children, write_file
from exact.game.tree import Played, Tree, played
from exact.words import WordList, shorten

_EMOJI = {"\u2b1b": "0", "\u2b1c": "0", "\U0001f7e8": "1", "\U0001f7e6": "1", "\U0001f7e9": "2", "\U0001f7e7": "2"}


def parse_emoji(text: str) -> Tree:
    """A tree from emoji lines: each line is ``guess squares count`` triplets, ending with the
    answer alone (won with that guess) or, for an answer the tree loses, after a count.

    The count after a pattern is how many answers give it (so how many lines go through it); the
    squares are gray (white or black), yellow (or blue) and green (or orange).

    >>> t = parse_emoji("cabin\\ncabin 🟩🟩🟩⬜⬜ 1 cable\\n")
    >>> t
    Tree(guess='cabin', answers=2, children={26: Tree(guess='cable', answers=1, children={})})
    """
    root: Tree | None = None
    won: set[int] = set()
    # (id(node), pattern) -> [count the lines claim, lines through it, first line, next node or None if lost]
    through: dict[tuple[int, int], list] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        length = len(tokens[0])
        if root is None:
            root = Tree(tokens[0], 0, {})
        if tokens[0] != root.guess:
            raise ExactError(f"first guess {shorten(tokens[0])!r} but earlier lines start with {root.guess!r}", line=number)
        node = root
        for i in range(0, len(tokens), 3):
            word = tokens[i]
            if not is_word(word) or len(word) != length:
                raise ExactError(f"{shorten(word)!r} is not a {length}-letter lowercase word", line=number)
            if word != node.guess:
                raise ExactError(f"this line plays {shorten(word)!r} where an earlier line plays {node.guess!r}", line=number)
            node.answers += 1
            if i + 1 == len(tokens):  # the answer alone: won with this guess
                if id(node) in won:
                    raise ExactError(f"a second line wins with {word!r} at the same node", line=number)
                won.add(id(node))
                break
            if i + 2 >= len(tokens):
                raise ExactError(f"after {word!r} the line needs a pattern and a count", line=number)
            squares, count = tokens[i + 1].replace(VARIATION_SELECTOR, ""), tokens[i + 2]
            pattern = _pattern(squares, count, length, number)
            ends = i + 3 == len(tokens)  # ends in a count: an answer lost after this guess
            seen = through.setdefault((id(node), pattern), [int(count), 0, number, None if ends else Tree(tokens[i + 3], 0, {})])
            if seen[0] != int(count):
                raise ExactError(f"count {shorten(count)} after {squares} but line {seen[2]} says {seen[0]}", line=number)
            if (seen[3] is None) != ends:
                raise ExactError(f"line {seen[2]} {'loses' if ends else 'plays on after'} {squares} and this line "
                                 f"{'does not' if ends else 'does'}", line=number)
            seen[1] += 1
            if ends:
                break
            node = node.children.setdefault(pattern, seen[3])
    if root is None:
        raise ExactError("no tree in the file (no lines)")
    for claimed, lines, number, _ in through.values():
        if claimed != lines:
            raise ExactError(f"the count after this pattern is {claimed} but {lines} lines go through it", line=number)
    sort_children(root)
    return root


def _pattern(squares: str, count: str, length: int, number: int) -> int:
    """The pattern of a line's ``squares`` (its count checked too: a whole number from 1, at most 9
    digits); the all-green pattern, which ends a game, cannot be followed."""
    if len(squares) != length or set(squares) - set(_EMOJI):
        raise ExactError(f"{shorten(squares)!r} is not {length} emoji squares", line=number)
    if not is_decimal(count) or len(count) > 9 or int(count) < 1:
        raise ExactError(f"{shorten(count)!r} is not a count of answers", line=number)
    pattern = parse_pattern("".join(_EMOJI[s] for s in squares), length, "digits")
    if pattern == all_green(length):
        raise ExactError("the line goes on after the all-green pattern", line=number)
    return pattern


def generate_emoji(tree: Tree, answers: WordList) -> str:
    """Emoji lines: a line per answer, the node's own answer first, then patterns in digit order;
    an answer lost after a guess ends its line with that pattern's count."""
    lines: list[str] = []

    def visit(p: Played, prefix: str) -> None:
        if p.won:
            lines.append(prefix + p.guess)
        for pattern, members, child in sorted(p.classes, key=lambda c: format_pattern(c[0], len(p.guess))):
            squares = format_pattern(pattern, len(p.guess), "emoji").replace("\u2b1b", "\u2b1c")
            step = f"{prefix}{p.guess} {squares} {len(members):>3}  "
            if child is None:
                lines.extend(step.rstrip() for _ in members)
            else:
                visit(child, step)

    visit(played(tree, answers), "")
    return "".join(line + "\n" for line in lines)


def read_emoji(path: str | Path) -> Tree:
    """A tree from the emoji lines file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_emoji)


def write_emoji(tree: Tree, path: str | Path, answers: WordList) -> None:
    """Write ``tree`` to ``path`` atomically as emoji lines (a line or leaf per answer: give the answers)."""
    write_file(path, generate_emoji(tree, answers))
