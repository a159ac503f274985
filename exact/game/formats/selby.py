"""Alex Selby's text trees: a line per answer, ``guess PATTERNk`` steps with B/Y/G, indented under the line above."""

from __future__ import annotations

import re
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import all_green, format_pattern, is_word, parse_pattern
from exact.game.formats.base import read_file, sort_children, write_file
from exact.game.tree import Tree, played, Played
from exact.words import WordList, shorten

def _letters(pattern: int, length: int) -> str:
    return format_pattern(pattern, length, "letters").upper()


def selby_lines(tree: Tree, answers: WordList) -> list[list[str]]:
    """The text format's lines as token lists, one per answer that reaches a pattern of the tree.

    >>> from exact.words import words_from_lines
    >>> selby_lines(Tree("cabin", 2, {}), words_from_lines(["cabin", "cable"]))
    [['cabin', 'GGGBB1'], ['cabin', 'GGGGG1']]
    """
    length = len(tree.guess)
    lines: list[list[str]] = []

    def visit(p: Played, prefix: list[str], step: int) -> None:
        won = [(all_green(length), [p.guess], None)] if p.won else []
        for pattern, members, child in sorted(p.classes + won, key=lambda c: _letters(c[0], length)):
            path = prefix + [p.guess, f"{_letters(pattern, length)}{step}"]
            if child is None:
                lines.extend(list(path) for _ in members)
            else:
                visit(child, path, step + 1)

    visit(played(tree, answers), [], 1)
    return lines


def generate_selby(tree: Tree, answers: WordList) -> str:
    """The tree in the text format: each line blanks the tokens it shares with the line above."""
    out: list[str] = []
    previous: list[str] = []
    for tokens in selby_lines(tree, answers):
        shared = 0
        while shared < min(len(tokens), len(previous)) and tokens[shared] == previous[shared]:
            shared += 1
        if shared == len(tokens):  # a repeated line (answers lost alike) restates its last pattern
            shared -= 1
        # Lines part at a pattern (the words before it are fixed by the patterns before them), so
        # every line but the first starts at a pattern's column.
        assert shared % 2 == 1 or not previous, tokens
        column = sum(len(t) + 1 for t in tokens[:shared])
        out.append(" " * column + " ".join(tokens[shared:]))
        previous = tokens
    return "".join(line + "\n" for line in out)


_TOKEN = re.compile(r"\S+")
_STEP = re.compile(r"([BYGbygXx.\-]+)(\d+)")


def parse_selby(text: str) -> Tree:
    """A tree from the text format; errors say the line and the problem.

    >>> t = parse_selby("cabin GGGBB1 cable GGGGG2\\n      GGGGG1\\n")
    >>> t.guess, t.answers, {format_pattern(p, 5): (c.guess, c.answers) for p, c in t.children.items()}
    ('cabin', 2, {'22200': ('cable', 1)})
    """
    paths = _text_paths(text)
    if next(paths, None) is None:
        raise ExactError("no tree in the file (no lines)")
    return _tree_from_paths(_text_paths(text))


def _text_paths(text: str):
    """Each line of the text format as (number, full token path), one at a time (a big file is
    never held as a list of lines)."""
    previous: list[tuple[int, str]] = []  # (column, token) of the line above, with its shared prefix
    for number, m in enumerate(re.finditer(r"[^\n]*\n|[^\n]+$", text), start=1):
        raw = m.group()
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" in line:
            raise ExactError("a tab in the indentation; the format aligns with spaces", line=number)
        tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(line)]
        column = tokens[0][0]
        if column:
            shared = [i for i, (c, _) in enumerate(previous) if c == column]
            if not shared or shared[0] % 2 == 0:
                raise ExactError(f"the indentation ({column} spaces) does not line up with a "
                                 f"feedback pattern of the line above", line=number)
            tokens = previous[: shared[0]] + tokens
        previous = tokens
        yield number, [t for _, t in tokens]


def _tree_from_paths(paths) -> Tree:
    """Build the tree from full token paths, checking each as it is added."""
    root: Tree | None = None
    won: set[int] = set()  # id() of the nodes where some line ends all-green
    for number, tokens in paths:
        if len(tokens) % 2:
            raise ExactError("the line ends in a guess; it must end in a feedback pattern", line=number)
        length = len(tokens[0])
        node = None
        for i in range(0, len(tokens), 2):
            word, step_text, step = tokens[i], tokens[i + 1], i // 2 + 1
            if not is_word(word) or len(word) != length:
                raise ExactError(f"{shorten(word)!r} is not a {length}-letter lowercase word", line=number)
            m = _STEP.fullmatch(step_text)
            if not m or len(m.group(1)) != length:
                raise ExactError(f"{shorten(step_text)!r} is not a {length}-letter pattern (B/Y/G) "
                                 f"followed by the guess number", line=number)
            if len(m.group(2)) > 6 or int(m.group(2)) != step:
                raise ExactError(f"{shorten(step_text)!r} says guess {shorten(m.group(2))} but {word!r} is guess {step}",
                                  line=number)
            pattern = parse_pattern(m.group(1), length, "letters")
            if node is None:
                if root is None:
                    root = Tree(word, 0, {})
                elif root.guess != word:
                    raise ExactError(f"first guess {word!r} but earlier lines start with {root.guess!r}", line=number)
                node = root
            node.answers += 1
            last = i + 2 == len(tokens)
            if pattern == all_green(length) and not last:
                raise ExactError(f"the line goes on after the all-green {step_text}", line=number)
            if last and pattern == all_green(length):
                if id(node) in won:
                    raise ExactError(f"a second line wins with {word!r} at the same node", line=number)
                won.add(id(node))
            if last:
                continue
            next_word = tokens[i + 2]
            child = node.children.get(pattern)
            if child is None:
                child = node.children[pattern] = Tree(next_word, 0, {})
            elif child.guess != next_word:
                raise ExactError(f"after {word} {step_text} this line plays {next_word!r} but an "
                                 f"earlier line plays {child.guess!r}", line=number)
            node = child
    sort_children(root)
    return root


def read_selby(path: str | Path) -> Tree:
    """A tree from the Selby's text file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_selby)


def write_selby(tree: Tree, path: str | Path, answers: WordList) -> None:
    """Write ``tree`` to ``path`` atomically as Selby's text (a line or leaf per answer: give the answers)."""
    write_file(path, generate_selby(tree, answers))
