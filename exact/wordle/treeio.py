"""Reading and writing strategy trees, in every format of :data:`FORMATS`.

One table, :data:`FORMATS`, maps each format's name to its ``(read, write)`` pair (text to
:class:`~exact.wordle.tree.Tree`, tree to text) and its file suffixes; everything else here is
those functions. docs/tree-formats.md specifies each format for other tools. In short:

- ``graphml``, ``json`` (node-link), ``dot``: the networkx form of :mod:`exact.wordle.tree`;
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
>>> print(tree_text(t, A), end="")
cabin GGGBB1 cable GGGBY2
                   GGGGG2
      GGGGG1
>>> print(FORMATS["emoji"].write(t, A), end="")
cabin
cabin 🟩🟩🟩⬜⬜   2  cable
cabin 🟩🟩🟩⬜⬜   2  cable 🟩🟩🟩⬜🟨   1
>>> complete = Tree("cabin", 3, {parse_pattern("22200"): Tree("cable", 2, {parse_pattern("22201"): Tree("caber", 1, {})})})
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> all(read_tree(d / f"t{s}") == complete for s in ALL_SUFFIXES if write_tree(complete, d / f"t{s}", answers=A) is None)
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, is_word, parse_pattern
from exact.fileio import read_errors, read_text, write_text
from exact.wordle.tree import Tree, from_networkx, path_text, to_networkx
from exact.words import WordList, shorten


@dataclass(frozen=True)
class TreeFormat:
    """One row of the table: how to read and write a format, and the suffixes that name it."""

    read: Callable[[str], Tree]  # text -> Tree; errors are ExactError (with ``line`` where known)
    write: Callable[[Tree, WordList | None], str]  # (tree, answers) -> text
    suffixes: tuple[str, ...]  # the first is the one to write; longer ones win (".lists.json" over ".json")
    needs_answers: bool  # the writer walks the answers through the tree (a line or leaf per answer)
    what: str  # a few words for help texts


def read_tree(path: str | Path, fmt: str | None = None) -> Tree:
    """Read a tree from ``path`` in ``fmt`` (detected from the text when None).

    A missing, unreadable or malformed file is an :class:`ExactError` with ``path`` (and ``line``).
    """
    return load_tree(path, fmt)[0]


def load_tree(path: str | Path, fmt: str | None = None) -> tuple[Tree, str]:
    """:func:`read_tree`, also returning the format it read."""
    with read_errors(path, "tree"):
        text = read_text(path, "tree file", MAX_TREE).lstrip("\ufeff")
    try:
        if fmt is None:
            fmt = detect_format(text)
        elif fmt not in FORMATS:
            raise ExactError(f"unknown tree format {fmt!r}; use one of {', '.join(FORMATS)}")
        if fmt == "dot" and len(text) > MAX_DOT:
            raise ExactError(f"a DOT tree of {len(text) // 1024} KiB; DOT trees are read up to {MAX_DOT // 1024} KiB "
                             f"(pydot's parser takes about a minute a MiB): exchange big trees as GraphML or JSON")
        return FORMATS[fmt].read(text), fmt
    except ExactError as e:
        raise e.at(path=str(path)) from None
    except RecursionError:
        raise ExactError("the tree is nested too deeply to be a strategy", path=path) from None
    except ValueError as e:  # int() of a number past sys.get_int_max_str_digits(), in any reader
        if "digits" not in str(e):
            raise
        raise ExactError(f"a number with too many digits ({_digits_message(e)})", path=path) from None


#: The largest tree file read (a complete tree of 15000 answers in the text format is about 1.2 MB).
MAX_TREE = 16 * 1024 * 1024
#: The largest DOT text read: pydot's pyparsing grammar takes about 15 s for a 270 kB tree.
MAX_DOT = 512 * 1024


def write_tree(tree: Tree, path: str | Path, fmt: str | None = None, *, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically in ``fmt`` (from the suffix when None).

    The formats with a line or leaf per answer (``needs_answers``) walk ``answers`` through the
    tree; the graph formats ignore it.
    """
    fmt = format_for_path(path, fmt)
    if FORMATS[fmt].needs_answers and answers is None:
        raise ExactError(f"the {fmt} format has a line or leaf per answer; give the answer list", path=path)
    write_text(path, FORMATS[fmt].write(tree, answers))


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


tree_format = format_for_path  # the older name


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
        data = _json(text)
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


def _no_duplicates(pairs: list) -> dict:
    """A JSON object, refusing a key given twice (``json`` would keep the last silently)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ExactError(f"the key {shorten(str(twice))!r} appears twice in one object")
    return out


def _json(text: str, what: str = "JSON"):
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise ExactError(f"not valid {what} ({e.msg})", line=e.lineno) from None
    except ValueError as e:  # a number of more than sys.get_int_max_str_digits() digits
        raise ExactError(f"not valid {what} ({_digits_message(e)})") from None


def _digits_message(e: ValueError) -> str:
    return "a number with too many digits" if "digits" in str(e) else f"{type(e).__name__}: {shorten(str(e), 120)}"


def _where(history, length: int) -> str:
    return f"at [{path_text(history, length) or 'root'}]"


# --- the networkx formats: GraphML, node-link JSON, DOT --------------------------------------------


def read_graphml(text: str) -> Tree:
    import networkx as nx

    try:
        G = nx.parse_graphml(text)
    except ParseError as e:
        raise ExactError(f"not valid GraphML ({e})", line=e.position[0] if e.position else None) from None
    except (nx.NetworkXError, KeyError, ValueError, TypeError) as e:
        detail = _digits_message(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {shorten(str(e), 120)}"
        raise ExactError(f"not valid GraphML ({detail})") from None
    if G.is_multigraph():
        raise ExactError("a strategy is a tree, not a multigraph")
    return from_networkx(G)


def write_graphml(tree: Tree, answers: WordList | None = None) -> str:
    import networkx as nx

    return "\n".join(nx.generate_graphml(to_networkx(tree))) + "\n"


def read_node_link(text: str) -> Tree:
    import networkx as nx

    data = _json(text)
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise ExactError("not node-link JSON (no 'nodes' list)")
    edges = "edges" if "edges" in data else "links"
    try:
        G = nx.node_link_graph(data, directed=True, multigraph=False, edges=edges)
    except (KeyError, TypeError, ValueError, nx.NetworkXError) as e:
        raise ExactError(f"not valid node-link JSON ({type(e).__name__}: {e})") from None
    return from_networkx(G)


def write_node_link(tree: Tree, answers: WordList | None = None) -> str:
    import networkx as nx

    return json.dumps(nx.node_link_data(to_networkx(tree), edges="edges"), indent=1) + "\n"


def read_dot(text: str) -> Tree:
    """A tree from DOT, parsed by pydot and converted by :func:`networkx.nx_pydot.from_pydot`.

    Attribute values lose their DOT quotes; ``node [...]`` and ``edge [...]`` defaults apply to the
    nodes and edges that do not set the attribute; the root is the graph attribute ``root``.

    >>> t = read_dot('digraph { root=a; a [guess=cabin, answers=2]; b [guess="cable", answers=1]; a -> b [feedback="22200"] }')
    >>> t.guess, [(format_pattern(p, 5), c.guess) for p, c in t.children.items()]
    ('cabin', [('22200', 'cable')])
    """
    import warnings

    import networkx as nx
    from pyparsing import ParseBaseException

    with warnings.catch_warnings():  # pydot's grammar uses pyparsing names it deprecates
        warnings.simplefilter("ignore")
        from pydot.dot_parser import GraphParser

    try:
        graphs = list(GraphParser.parser.parse_string(text, parse_all=True))
    except ParseBaseException as e:
        raise ExactError(f"not valid DOT ({e.msg}, column {e.column})", line=e.lineno) from None
    if len(graphs) != 1:
        raise ExactError(f"{len(graphs)} graphs in the file; a tree file holds one")
    P = graphs[0]
    if P.get_type() != "digraph":
        raise ExactError("not a DOT digraph (a strategy tree is directed)")
    G = nx.nx_pydot.from_pydot(P)
    if G.is_multigraph():
        if any(len(keys) > 1 for _, nbrs in G.adj.items() for keys in nbrs.values()):
            raise ExactError("two edges join the same nodes; a strategy is a tree")
        G = nx.DiGraph(G)
    defaults = {kind: {k: _unquote(v) for k, v in G.graph.get(kind, {}).items()} for kind in ("graph", "node", "edge")}
    H = nx.DiGraph()
    H.graph.update({k: _unquote(v) for k, v in G.graph.items() if isinstance(v, str) and k != "name"})
    H.graph.update(defaults["graph"])
    for extra in P.get_graph_defaults() or ():  # graph [root=...] statements, which from_pydot skips
        H.graph.update({k: _unquote(v) for k, v in extra.items()})
    for node, data in G.nodes(data=True):
        H.add_node(node, **{**defaults["node"], **{k: _unquote(v) for k, v in data.items()}})
    for u, v, data in G.edges(data=True):
        H.add_edge(u, v, **{**defaults["edge"], **{k: _unquote(x) for k, x in data.items()}})
    return from_networkx(H)


def _unquote(value):
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), value[1:-1])
    return value


def _quote(value) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def write_dot(tree: Tree, answers: WordList | None = None) -> str:
    """The tree's networkx form as DOT text, with ``label`` attributes for drawing (ignored when read).

    >>> print(write_dot(Tree("cabin", 1, {})), end="")
    digraph wordle {
      root="n0";
      "n0" [guess="cabin", answers="1", label="cabin\\n1"];
    }
    """
    G = to_networkx(tree)
    lines = ["digraph wordle {", f"  root={_quote(G.graph['root'])};"]
    for node, data in G.nodes(data=True):
        extra = "".join(f", {k}={_quote(v)}" for k, v in data.items() if k not in ("guess", "answers"))
        label = f"{data['guess']}\n{data['answers']}"
        lines.append(f"  {_quote(node)} [guess={_quote(data['guess'])}, answers={_quote(data['answers'])}{extra}, "
                     f"label={_quote(label)}];")
    for u, v, data in G.edges(data=True):
        lines.append(f"  {_quote(u)} -> {_quote(v)} [feedback={_quote(data['feedback'])}, "
                     f"label={_quote(data['feedback'])}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- walking the answers through a tree (for the formats with a line or leaf per answer) ----------


@dataclass
class Played:
    """A node with the answers that reach it: ``won`` when its guess is one of them; ``classes``
    lists the other patterns they give, in code order, each with its answers and its subtree
    (None: those answers are lost here). Subtrees no answer reaches are left out."""

    guess: str
    answers: list[str]
    won: bool
    classes: list[tuple[int, list[str], "Played | None"]]

    def counts(self) -> list[int]:
        """counts[k - 1]: the answers won with the k-th guess from this node (this one is the first)."""
        out = [int(self.won)]
        for _, _, child in self.classes:
            for k, c in enumerate(child.counts() if child else [], start=1):
                out.extend([0] * (k + 1 - len(out)))
                out[k] += c
        while len(out) > 1 and not out[-1]:
            out.pop()
        return out


def played(tree: Tree, answers: WordList) -> Played:
    """Walk ``answers`` through ``tree`` with :func:`exact.feedback.feedback`.

    >>> from exact.words import words_from_lines
    >>> p = played(Tree("cabin", 2, {parse_pattern("22200"): Tree("cable", 1, {})}), words_from_lines(["cabin", "cable"]))
    >>> p.won, [(format_pattern(c, 5), a, q.guess) for c, a, q in p.classes], p.counts()
    (True, [('22200', ['cable'], 'cable')], [1, 1])
    """
    if len(answers) and answers.length != len(tree.guess):
        raise ExactError(f"the tree guesses {len(tree.guess)}-letter words but {answers.source} "
                         f"has {answers.length}-letter words")

    def walk(node: Tree, reaching: list[str]) -> Played:
        green = all_green(len(node.guess))
        classes: dict[int, list[str]] = {}
        for a in reaching:
            classes.setdefault(feedback(node.guess, a), []).append(a)
        return Played(node.guess, reaching, green in classes,
                      [(p, members, walk(node.children[p], members) if p in node.children else None)
                       for p, members in sorted(classes.items()) if p != green])

    return walk(tree, list(answers.words))


# --- Selby's text format --------------------------------------------------------------------------


def _letters(pattern: int, length: int) -> str:
    return format_pattern(pattern, length, "letters").upper()


def tree_lines(tree: Tree, answers: WordList) -> list[list[str]]:
    """The text format's lines as token lists, one per answer that reaches a pattern of the tree.

    >>> from exact.words import words_from_lines
    >>> tree_lines(Tree("cabin", 2, {}), words_from_lines(["cabin", "cable"]))
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


def tree_text(tree: Tree, answers: WordList) -> str:
    """The tree in the text format: each line blanks the tokens it shares with the line above."""
    out: list[str] = []
    previous: list[str] = []
    for tokens in tree_lines(tree, answers):
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


def parse_tree_text(text: str) -> Tree:
    """A tree from the text format; errors say the line and the problem.

    >>> t = parse_tree_text("cabin GGGBB1 cable GGGGG2\\n      GGGGG1\\n")
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
            raise ExactError(f"a tab in the indentation; the format aligns with spaces", line=number)
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
            raise ExactError(f"the line ends in a guess; it must end in a feedback pattern", line=number)
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
    _sort_children(root)
    return root


def _sort_children(tree: Tree) -> None:
    tree.children = dict(sorted(tree.children.items()))
    for child in tree.children.values():
        _sort_children(child)


# --- Olson: {"guess": g, "map": {"<digits>": node or word}} ---------------------------------------

_EXPORT = re.compile(r"\s*export\s+default\s+")


def read_olson(text: str) -> Tree:
    """A tree from Olson's nested JSON (optionally after ``export default`` and before a ``;``).

    A node is ``{"guess": g, "map": {...}}``; a map key is the feedback as digits 0/1/2; its value
    is the next node, or a bare word: the next guess, which is the answer. The all-green key maps to
    the node's own guess (the answer is won here). A node's ``ranking.counts`` becomes its claim.

    >>> t = read_olson('export default {"guess":"cabin","map":{"22222":"cabin","22200":"cable"},"ranking":{"counts":[1,1]}};')
    >>> t, t.claims
    (Tree(guess='cabin', answers=2, children={26: Tree(guess='cable', answers=1, children={})}), {'counts': (1, 1)})
    """
    m = _EXPORT.match(text)
    body = text if m is None else " " * m.end() + text[m.end():]  # keep line numbers
    body = body.rstrip().removesuffix(";")
    data = _json(body, "Olson JSON")
    if not isinstance(data, dict) or not isinstance(data.get("guess"), str):
        raise ExactError("not an Olson tree (the top level is not an object with a 'guess')")
    length = len(data["guess"])

    def node(value, history) -> Tree:
        if isinstance(value, str):
            _check_word(value, length, history)
            return Tree(value, 1, {})
        if not isinstance(value, dict):
            raise ExactError(f"{_where(history, length)}: a node is an object or a word, not {value!r:.40}")
        guess = value.get("guess")
        _check_word(guess, length, history)
        if "map" not in value:
            raise ExactError(f"{_where(history, length)}: the node of {guess!r} has no 'map' (a node that wins its "
                             f"only answer is the bare word)")
        table = value["map"]
        if not isinstance(table, dict):
            raise ExactError(f"{_where(history, length)}: 'map' is not an object")
        won, children = 0, {}
        for key, child in table.items():
            pattern = _digits(key, length, history)
            if pattern == all_green(length):
                if child != guess:
                    raise ExactError(f"{_where(history, length)}: the all-green key maps to {child!r:.40}, "
                                     f"not the node's guess {guess!r}")
                won = 1
            else:
                children[pattern] = node(child, history + ((guess, pattern),))
        ranking = value.get("ranking", {})
        if not isinstance(ranking, dict):
            raise ExactError(f"{_where(history, length)}: 'ranking' is not an object")
        counts, claims = ranking.get("counts"), None
        if counts is not None:
            if not isinstance(counts, list) or not all(isinstance(c, int) and c >= 0 for c in counts):
                raise ExactError(f"{_where(history, length)}: ranking.counts is not a list of counts")
            claims = {"counts": tuple(counts)}
        return Tree(guess, won + sum(c.answers for c in children.values()), dict(sorted(children.items())), claims)

    return node(data, ())


def write_olson(tree: Tree, answers: WordList) -> str:
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


def _check_word(word, length: int, history) -> None:
    if not isinstance(word, str) or not is_word(word) or len(word) != length:
        raise ExactError(f"{_where(history, length)}: {word!r:.40} is not a {length}-letter lowercase word")


def _digits(key, length: int, history) -> int:
    if not isinstance(key, str) or len(key) != length or set(key) - set("012"):
        raise ExactError(f"{_where(history, length)}: key {key!r:.40} is not {length} digits 0/1/2")
    return parse_pattern(key, length, "digits")


# --- nested lists: [guess, {"(0, 1, 0, 0, 2)": [...], word: null}] -------------------------------

_TUPLE = re.compile(r"\(\s*[012](?:\s*,\s*[012])*\s*,?\s*\)")


def read_lists(text: str) -> Tree:
    """A tree from nested JSON lists.

    A node is ``[guess, {key: value}]``. A key is the feedback as a Python tuple of 0/1/2 and its
    value the next node; the key ``guess`` with value ``null`` says the guess wins here. A leaf is
    ``[word, {word: null}]``: guess the word, it is the answer. Under the all-green key, the leaf of
    the node's own guess says the same as ``guess: null`` (the answer is won here, no guess more).

    >>> read_lists('["cabin", {"(2, 2, 2, 0, 0)": ["cable", {"cable": null}], "cabin": null}]')
    Tree(guess='cabin', answers=2, children={26: Tree(guess='cable', answers=1, children={})})
    """
    data = _json(text, "JSON")
    if not (isinstance(data, list) and data and isinstance(data[0], str)):
        raise ExactError("not a nested-list tree (the top level is not [guess, {...}])")
    length = len(data[0])

    def node(value, history) -> Tree:
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)):
            raise ExactError(f"{_where(history, length)}: a node is [guess, {{...}}], not {json.dumps(value)[:40]}")
        guess, table = value
        _check_word(guess, length, history)
        won, children = 0, {}
        for key, child in table.items():
            if child is None:
                if key != guess:
                    raise ExactError(f"{_where(history, length)}: {key!r:.40}: null, but the node guesses {guess!r}")
                won = 1
                continue
            if not (isinstance(key, str) and _TUPLE.fullmatch(key)):
                raise ExactError(f"{_where(history, length)}: key {key!r:.40} is not a tuple of 0/1/2")
            digits = "".join(re.findall(r"[012]", key))
            pattern = _digits(digits, length, history)
            if pattern == all_green(length):
                if child != [guess, {guess: None}]:
                    raise ExactError(f"{_where(history, length)}: the all-green key leads to "
                                     f"{json.dumps(child)[:40]}, not the leaf of {guess!r}")
                won = 1
                continue
            children[pattern] = node(child, history + ((guess, pattern),))
        return Tree(guess, won + sum(c.answers for c in children.values()), dict(sorted(children.items())))

    return node(data, ())


def write_lists(tree: Tree, answers: WordList) -> str:
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


# --- emoji lines: guess <squares> <count> ... answer ---------------------------------------------

_EMOJI = {"\u2b1b": "0", "\u2b1c": "0", "\U0001f7e8": "1", "\U0001f7e6": "1", "\U0001f7e9": "2", "\U0001f7e7": "2"}


def read_emoji(text: str) -> Tree:
    """A tree from emoji lines: each line is ``guess squares count`` triplets, ending with the
    answer alone (won with that guess) or, for an answer the tree loses, after a count.

    The count after a pattern is how many answers give it (so how many lines go through it); the
    squares are gray (white or black), yellow (or blue) and green (or orange).

    >>> t = read_emoji("cabin\\ncabin 🟩🟩🟩⬜⬜ 1 cable\\n")
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
            squares, count = tokens[i + 1], tokens[i + 2]
            if len(squares) != length or set(squares) - set(_EMOJI):
                raise ExactError(f"{shorten(squares)!r} is not {length} emoji squares", line=number)
            if not (count.isascii() and count.isdigit()) or len(count) > 9 or int(count) < 1:
                raise ExactError(f"{shorten(count)!r} is not a count of answers", line=number)
            pattern = parse_pattern("".join(_EMOJI[s] for s in squares), length, "digits")
            if pattern == all_green(length):
                raise ExactError("the line goes on after the all-green pattern", line=number)
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
    _sort_children(root)
    return root


def write_emoji(tree: Tree, answers: WordList) -> str:
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


# --- the table ---------------------------------------------------------------------------------------

FORMATS: dict[str, TreeFormat] = {
    "graphml": TreeFormat(read_graphml, write_graphml, (".graphml", ".xml"), False, "GraphML (networkx schema)"),
    "json": TreeFormat(read_node_link, write_node_link, (".json",), False, "node-link JSON (networkx schema)"),
    "dot": TreeFormat(read_dot, write_dot, (".dot", ".gv"), False, "Graphviz DOT (networkx schema)"),
    "txt": TreeFormat(parse_tree_text, tree_text, (".txt", ".tree"), True, "Selby's text trees"),
    "olson": TreeFormat(read_olson, write_olson, (".js",), True, "Olson's export-default JSON"),
    "emoji": TreeFormat(read_emoji, write_emoji, (".emoji.txt", ".emoji"), True, "emoji lines"),
    "lists": TreeFormat(read_lists, write_lists, (".lists.json",), True, "nested-list JSON"),
}

#: suffix -> format, and the suffixes longest first (so ".lists.json" is matched before ".json").
SUFFIXES: dict[str, str] = {s: name for name, f in FORMATS.items() for s in f.suffixes}
ALL_SUFFIXES: tuple[str, ...] = tuple(sorted(SUFFIXES, key=len, reverse=True))
