"""Reading and writing strategy trees, in every format of :data:`FORMATS`.

One module per format, each with the same verbs (networkx's readwrite style): ``parse_X(text)``
and ``generate_X(tree, answers)`` between text and :class:`~exact.game.tree.Tree`, ``read_X(path)``
and ``write_X(tree, path, answers)`` for files (:mod:`exact.game.formats.base`). One table,
:data:`FORMATS`, maps each format's name to its ``(parse, generate)`` pair and its file suffixes;
:func:`read_tree` / :func:`write_tree` choose the format from the text or the suffix.
docs/tree-formats.md specifies each format for other tools. In short:

- ``graphml``, ``json`` (node-link), ``dot``: the networkx form of :mod:`exact.game.tree`;
  DOT is read through pydot (networkx's ``from_pydot``);
- ``txt``: Alex Selby's text trees, a line per answer, ``guess PATTERNk`` with B/Y/G;
- ``olson``: Jonathan Olson's nested ``{"guess": g, "map": {"<digits>": node or word}}`` JSON,
  optionally after ``export default``; nodes may carry ``ranking.counts`` (checked by replay);
- ``emoji``: a line per answer, ``guess <squares> <count>`` triplets ending with the answer;
- ``lists``: nested lists ``[guess, {"(0, 0, 0, 0, 0)": [...], ...}]``, ``{word: null}`` leaves.

Reading detects the format from the text (:func:`detect_format`); writing takes it from ``fmt``
or the file's suffix (:func:`format_for_path`). Every write is atomic (:mod:`exact.fileio`);
every malformed file is a one-line :class:`~exact.errors.ExactError` with ``path`` (and ``line``
where the format has lines).

>>> import tempfile, pathlib
>>> from exact.words import words_from_lines
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> t = Tree("cabin", 3, {parse_pattern("22200"): Tree("cable", 2, {})})
>>> print(generate_selby(t, A), end="")
cabin GGGBB1 cable GGGBY2
                   GGGGG2
      GGGGG1
>>> print(FORMATS["emoji"].generate(t, A), end="")
cabin
cabin 🟩🟩🟩⬜⬜   2  cable
cabin 🟩🟩🟩⬜⬜   2  cable 🟩🟩🟩⬜🟨   1
>>> complete = Tree("cabin", 3, {parse_pattern("22200"): Tree("cable", 2, {parse_pattern("22201"): Tree("caber", 1, {})})})
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> all(read_tree(d / f"t{s}") == complete for s in ALL_SUFFIXES if write_tree(complete, d / f"t{s}", answers=A) is None)
True
"""

from __future__ import annotations

import re
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import parse_pattern  # noqa: F401 (doctests)
from exact.game.formats import dot, emoji, graphml, lists, node_link, olson, selby
from exact.game.formats.base import TreeFormat, json_of, parse_text_at, read_tree_text, write_file
from exact.game.formats.selby import generate_selby  # noqa: F401 (doctests)
from exact.game.tree import Tree
from exact.words import WordList, shorten


def read_tree(path: str | Path, fmt: str | None = None) -> Tree:
    """Read a tree from ``path`` in ``fmt`` (detected from the text when None).

    A missing, unreadable or malformed file is an :class:`ExactError` with ``path`` (and ``line``).
    """
    return load_tree(path, fmt)[0]


def load_tree(path: str | Path, fmt: str | None = None) -> tuple[Tree, str]:
    """:func:`read_tree`, also returning the format it read."""
    text = read_tree_text(path)
    if fmt is None:
        fmt = parse_text_at(path, text, detect_format)
    elif fmt not in FORMATS:
        raise ExactError(f"unknown tree format {fmt!r}; use one of {', '.join(FORMATS)}", path=path)
    return parse_text_at(path, text, FORMATS[fmt].parse), fmt


def write_tree(tree: Tree, path: str | Path, fmt: str | None = None, *, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically in ``fmt`` (from the suffix when None).

    The formats with a line or leaf per answer (``needs_answers``) walk ``answers`` through the
    tree; the graph formats ignore it.
    """
    fmt = format_for_path(path, fmt)
    if FORMATS[fmt].needs_answers and answers is None:
        raise ExactError(f"the {fmt} format has a line or leaf per answer; give the answer list", path=path)
    write_file(path, FORMATS[fmt].generate(tree, answers))


def format_for_path(path: str | Path, fmt: str | None = None) -> str:
    """The format named by ``fmt``, else by the file's suffix (the longest that matches).

    >>> format_for_path("results/salet.graphml"), format_for_path("x.tree"), format_for_path("x.lists.json")
    ('graphml', 'txt', 'lists')
    """
    if fmt is not None:
        if fmt not in FORMATS:
            raise ExactError(f"unknown tree format {fmt!r}; use one of {', '.join(FORMATS)}", path=path)
        return fmt
    name = Path(path).name.lower()
    for suffix in ALL_SUFFIXES:
        if name.endswith(suffix):
            return SUFFIXES[suffix]
    raise ExactError(f"unknown tree format (suffix); use one of {' '.join(ALL_SUFFIXES)} or name the format",
                     path=path)



#: a DOT graph's head, matched where the comments and blanks before it end (:func:`_after_comments`)
_DOT_START = re.compile(r"(?:strict\s+)?(?:di)?graph\b[^{\n]*\{", re.IGNORECASE)
#: a Selby line's start; upper case is let through so that the reader can say which word is wrong
_SELBY_START = re.compile(r"\s*[a-zA-Z]+ +[BYGbygXx.\-]+\d+(\s|$)")
_SQUARES = frozenset("\u2b1b\u2b1c\U0001f7e8\U0001f7e9\U0001f7e6\U0001f7e7")


def detect_format(text: str) -> str:
    """The format of a tree's text, from its first characters (never from a file name).

    GraphML starts with ``<``; ``export default`` or JSON ``{"guess": ...}`` is Olson's; other JSON
    objects are node-link (``"nodes"``), JSON lists are nested lists; ``[strict] digraph {`` (after
    comments) is DOT; emoji squares within the first 100 lines mean the emoji format; a first line
    ``word PATTERNk`` is Selby's text.

    >>> detect_format('export default {"guess":"salet","map":{}}'), detect_format("salet BBBBB1 courd GGGGG2")
    ('olson', 'txt')
    """
    start = text.lstrip("\ufeff \t\r\n")
    if not start:
        raise ExactError("the file is empty")
    if start.startswith("<"):
        return "graphml"
    if start.startswith("export"):
        return "olson"
    if start[0] in "{[":
        data = json_of(text)
        if isinstance(data, list):
            return "lists"
        if isinstance(data, dict) and "guess" in data:
            return "olson"
        return "json"
    if _DOT_START.match(text, _after_comments(text)):
        return "dot"
    lines = _content_lines(text, 100)
    if any(_SQUARES & set(line) for _, line in lines):
        return "emoji"
    if lines and _SELBY_START.match(lines[0][1]):
        return "txt"
    if not lines:
        raise ExactError("unknown tree format: the file has only blank and comment ('#') lines")
    number, first = lines[0]
    raise ExactError(f"unknown tree format: the first line that is not a comment, {shorten(first.strip())!r}, starts "
                     f"none of {', '.join(FORMATS)}; name the format", line=number)


def _after_comments(text: str) -> int:
    """Where the blanks and DOT comments (``//`` and ``#`` to the line's end, ``/* */``) at the
    start of ``text`` end: one pass, each character looked at once (a regular expression with
    nested repetition backtracked exponentially on a run of ``#`` or ``/``).

    >>> _after_comments("# a\\n// b\\n /* c\\n */ digraph {}")
    19
    """
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == "#" or text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                return i
            i = end + 2
        else:
            break
    return i


def _content_lines(text: str, count: int) -> list[tuple[int, str]]:
    """The first ``count`` lines of ``text`` that are neither blank nor ``#`` comments, with their
    numbers; only as much of the text is split as that takes."""
    out: list[tuple[int, str]] = []
    for number, m in enumerate(re.finditer(r"[^\n]*\n|[^\n]+$", text), start=1):
        line = m.group().rstrip("\r\n")
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((number, line))
            if len(out) == count:
                break
    return out


# --- the table ---------------------------------------------------------------------------------------

FORMATS: dict[str, TreeFormat] = {
    "graphml": TreeFormat(graphml.parse_graphml, graphml.generate_graphml, (".graphml", ".xml"), False,
                          "GraphML (networkx schema)"),
    "json": TreeFormat(node_link.parse_node_link, node_link.generate_node_link, (".json",), False,
                       "node-link JSON (networkx schema)"),
    "dot": TreeFormat(dot.parse_dot, dot.generate_dot, (".dot", ".gv"), False, "Graphviz DOT (networkx schema)"),
    "txt": TreeFormat(selby.parse_selby, selby.generate_selby, (".txt", ".tree"), True, "Selby's text trees"),
    "olson": TreeFormat(olson.parse_olson, olson.generate_olson, (".js",), True, "Olson's export-default JSON"),
    "emoji": TreeFormat(emoji.parse_emoji, emoji.generate_emoji, (".emoji.txt", ".emoji"), True, "emoji lines"),
    "lists": TreeFormat(lists.parse_lists, lists.generate_lists, (".lists.json",), True, "nested-list JSON"),
}

#: suffix -> format, and the suffixes longest first (so ".lists.json" is matched before ".json").
SUFFIXES: dict[str, str] = {s: name for name, f in FORMATS.items() for s in f.suffixes}
ALL_SUFFIXES: tuple[str, ...] = tuple(sorted(SUFFIXES, key=len, reverse=True))
