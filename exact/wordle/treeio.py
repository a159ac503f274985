"""Reading and writing strategy trees: GraphML, node-link JSON, DOT and the published text format.

Formats, by file extension (or ``fmt``):

- ``graphml``: the networkx form of :mod:`exact.wordle.tree` (node attributes ``guess``, ``answers``;
  edge attribute ``feedback``, digits 0/1/2 from the first letter; graph attribute ``root``);
- ``json``: the same graph as node-link JSON (:func:`networkx.node_link_data` with ``edges="edges"``);
- ``dot``: the same graph as Graphviz DOT text (``root`` as a graph attribute; ``label`` attributes
  are added for drawing and ignored when read). Reading accepts the DOT this module writes and
  simple hand-edits (node, edge and ``graph``/``node``/``edge`` default statements), not subgraphs;
- ``txt``: the text format of published optimal Wordle solvers (Alex Selby's ``*.tree`` files).
  One line per answer: the path ``guess PATTERNk guess PATTERNk ...`` where PATTERN is the feedback
  in letters B (gray), Y (yellow), G (green) from the first letter and ``k`` is the guess number of the
  word before it; a won answer's line ends in the all-green pattern (``GGGGG3``: won with the third
  guess). A line repeats nothing of the line above: it starts with spaces up to the column of its
  first pattern, sharing the path to its left. Lines are in the order of their patterns' text
  (B < G < Y), as in the published files::

      salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4
                                      BGYYB3 pygmy GGGGG4

  Extension for trees that lose answers (the published trees lose none): a line that ends in a
  non-green pattern is an answer lost after that guess; it appears once per answer lost. Writing
  this format needs the answer list (a line per answer); reading sets each node's ``answers`` to the
  number of lines through it. Branches no answer reaches cannot be written and are dropped.

Every write is atomic (:mod:`exact.fileio`); every malformed file is a one-line
:class:`~exact.errors.ExactError` naming the file, and the line where it has one.

>>> import tempfile, pathlib
>>> from exact.words import words_from_lines
>>> from exact.wordle.tree import Tree
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> t = Tree("cabin", 3, {parse_pattern("22200"): Tree("cable", 2, {})})
>>> print(tree_text(t, A), end="")
cabin GGGBB1 cable GGGBY2
                   GGGGG2
      GGGGG1
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> all(read_tree(d / f"t.{f}") == t for f in FORMATS if write_tree(t, d / f"t.{f}", answers=A) is None)
True
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree.ElementTree import ParseError

import networkx as nx

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, is_word, parse_pattern
from exact.fileio import read_text, write_text
from exact.wordle.tree import Tree, from_networkx, to_networkx
from exact.words import WordList, shorten

FORMATS = ("graphml", "json", "dot", "txt")


def tree_format(path: str | Path, fmt: str | None = None) -> str:
    """The format named by ``fmt``, else by the file's extension.

    >>> tree_format("results/salet.graphml"), tree_format("x.tree"), tree_format("x", "dot")
    ('graphml', 'txt', 'dot')
    """
    if fmt is None:
        fmt = Path(path).suffix.lstrip(".").lower()
        fmt = {"gv": "dot", "tree": "txt", "xml": "graphml"}.get(fmt, fmt)
    if fmt not in FORMATS:
        raise ExactError(f"{path}: unknown tree format {fmt!r}; use one of .{', .'.join(FORMATS)}")
    return fmt


def write_tree(tree: Tree, path: str | Path, fmt: str | None = None, *, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically in ``fmt`` (from the extension when None).

    The text format writes a line per answer and so needs ``answers``; the others ignore it.
    """
    fmt = tree_format(path, fmt)
    if fmt == "txt":
        if answers is None:
            raise ExactError(f"{path}: the text format has a line per answer; give the answer list")
        text = tree_text(tree, answers)
    elif fmt == "graphml":
        text = "\n".join(nx.generate_graphml(to_networkx(tree))) + "\n"
    elif fmt == "json":
        text = json.dumps(nx.node_link_data(to_networkx(tree), edges="edges"), indent=1) + "\n"
    else:
        text = dot_text(to_networkx(tree))
    write_text(path, text)


def read_tree(path: str | Path, fmt: str | None = None) -> Tree:
    """Read a tree in ``fmt`` (from the extension when None); a malformed file is an ExactError."""
    fmt = tree_format(path, fmt)
    try:
        text = read_text(path, "tree file")
    except FileNotFoundError:
        raise ExactError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ExactError(f"{path}: cannot read ({e})") from None
    try:
        if fmt == "txt":
            return parse_tree_text(text)
        return from_networkx(_read_graph(text, fmt))
    except ExactError as e:
        raise ExactError(f"{path}:{e}" if str(e)[:1].isdigit() else f"{path}: {e}") from None


def _read_graph(text: str, fmt: str) -> nx.DiGraph:
    if fmt == "dot":
        return parse_dot(text)
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ExactError(f"{e.lineno}: not valid JSON ({e.msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
            raise ExactError("not node-link JSON (no 'nodes' list)")
        edges = "edges" if "edges" in data else "links"
        try:
            return nx.node_link_graph(data, directed=True, multigraph=False, edges=edges)
        except (KeyError, TypeError, nx.NetworkXError) as e:
            raise ExactError(f"not valid node-link JSON ({type(e).__name__}: {e})") from None
    try:
        G = nx.parse_graphml(text)
    except ParseError as e:
        raise ExactError(f"not valid GraphML ({e})") from None
    except (nx.NetworkXError, KeyError, ValueError, TypeError) as e:
        raise ExactError(f"not valid GraphML ({type(e).__name__}: {e})") from None
    if G.is_multigraph():
        raise ExactError("a strategy is a tree, not a multigraph")
    return G


# --- the text format --------------------------------------------------------------------------


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

    def visit(node: Tree, reaching: list[str], prefix: list[str], step: int) -> None:
        classes: dict[int, list[str]] = {}
        for a in reaching:
            classes.setdefault(feedback(node.guess, a), []).append(a)
        for pattern in sorted(classes, key=lambda p: _letters(p, length)):
            path = prefix + [node.guess, f"{_letters(pattern, length)}{step}"]
            child = node.children.get(pattern) if pattern != all_green(length) else None
            if child is None:
                lines.extend(list(path) for _ in classes[pattern])
            else:
                visit(child, classes[pattern], path, step + 1)

    visit(tree, list(answers.words), [], 1)
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
    previous: list[tuple[int, str]] = []  # (column, token) of the line above, with its shared prefix
    paths: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" in line:
            raise ExactError(f"{number}: a tab in the indentation; the format aligns with spaces")
        tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(line)]
        column = tokens[0][0]
        if column:
            shared = [i for i, (c, _) in enumerate(previous) if c == column]
            if not shared or shared[0] % 2 == 0:
                raise ExactError(f"{number}: the indentation ({column} spaces) does not line up with a "
                                 f"feedback pattern of the line above")
            tokens = previous[: shared[0]] + tokens
        previous = tokens
        paths.append((number, [t for _, t in tokens]))
    if not paths:
        raise ExactError("no tree in the file (no lines)")
    return _tree_from_paths(paths)


def _tree_from_paths(paths: list[tuple[int, list[str]]]) -> Tree:
    """Build the tree from full token paths, checking each as it is added."""
    root: Tree | None = None
    won: set[int] = set()  # id() of the nodes where some line ends all-green
    for number, tokens in paths:
        if len(tokens) % 2:
            raise ExactError(f"{number}: the line ends in a guess; it must end in a feedback pattern")
        length = len(tokens[0])
        node = None
        for i in range(0, len(tokens), 2):
            word, step_text, step = tokens[i], tokens[i + 1], i // 2 + 1
            if not is_word(word) or len(word) != length:
                raise ExactError(f"{number}: {shorten(word)!r} is not a {length}-letter lowercase word")
            m = _STEP.fullmatch(step_text)
            if not m or len(m.group(1)) != length:
                raise ExactError(f"{number}: {shorten(step_text)!r} is not a {length}-letter pattern (B/Y/G) "
                                 f"followed by the guess number")
            if int(m.group(2)) != step:
                raise ExactError(f"{number}: {step_text!r} says guess {m.group(2)} but {word!r} is guess {step}")
            pattern = parse_pattern(m.group(1), length, "letters")
            if node is None:
                if root is None:
                    root = Tree(word, 0, {})
                elif root.guess != word:
                    raise ExactError(f"{number}: first guess {word!r} but earlier lines start with {root.guess!r}")
                node = root
            node.answers += 1
            last = i + 2 == len(tokens)
            if pattern == all_green(length) and not last:
                raise ExactError(f"{number}: the line goes on after the all-green {step_text}")
            if last and pattern == all_green(length):
                if id(node) in won:
                    raise ExactError(f"{number}: a second line wins with {word!r} at the same node")
                won.add(id(node))
            if last:
                continue
            next_word = tokens[i + 2]
            child = node.children.get(pattern)
            if child is None:
                child = node.children[pattern] = Tree(next_word, 0, {})
            elif child.guess != next_word:
                raise ExactError(f"{number}: after {word} {step_text} this line plays {next_word!r} but an "
                                 f"earlier line plays {child.guess!r}")
            node = child
    _sort_children(root)
    return root


def _sort_children(tree: Tree) -> None:
    tree.children = dict(sorted(tree.children.items()))
    for child in tree.children.values():
        _sort_children(child)


# --- DOT --------------------------------------------------------------------------------------


def _quote(value) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def dot_text(G: nx.DiGraph) -> str:
    """A DiGraph in the tree schema as DOT text (labels added for drawing).

    >>> G = nx.DiGraph(root="n0"); G.add_node("n0", guess="cabin", answers=1)
    >>> print(dot_text(G), end="")
    digraph wordle {
      graph [root="n0"];
      "n0" [guess="cabin", answers="1", label="cabin\\n1"];
    }
    """
    lines = ["digraph wordle {", f"  graph [root={_quote(G.graph['root'])}];"]
    for node, data in G.nodes(data=True):
        label = f"{data['guess']}\n{data['answers']}"
        lines.append(f"  {_quote(node)} [guess={_quote(data['guess'])}, answers={_quote(data['answers'])}, "
                     f"label={_quote(label)}];")
    for u, v, data in G.edges(data=True):
        lines.append(f"  {_quote(u)} -> {_quote(v)} [feedback={_quote(data['feedback'])}, "
                     f"label={_quote(data['feedback'])}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


_DOT_TOKEN = re.compile(r'''
    (?P<space>\s+|//[^\n]*|\#[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<arrow>->|--)
  | (?P<punct>[{}\[\];,=:])
  | (?P<id>[A-Za-z_\x80-\uffff][A-Za-z_0-9\x80-\uffff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
''', re.VERBOSE | re.DOTALL)


def _dot_tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, value, line) tokens; quoted strings are unescaped."""
    tokens, pos, line = [], 0, 1
    while pos < len(text):
        m = _DOT_TOKEN.match(text, pos)
        if not m:
            raise ExactError(f"{line}: unexpected {text[pos]!r} in DOT")
        kind, value = m.lastgroup, m.group()
        if kind == "string":
            tokens.append(("id", re.sub(r'\\(.)', lambda e: {"n": "\n"}.get(e.group(1), e.group(1)), value[1:-1]), line))
        elif kind != "space":
            tokens.append((kind if kind != "punct" else value, value, line))
        line += value.count("\n")
        pos = m.end()
    return tokens


def parse_dot(text: str) -> nx.DiGraph:
    """A DiGraph from DOT text: graph/node/edge statements with attribute lists, no subgraphs.

    >>> G = parse_dot('digraph { root=a; a [guess=cabin, answers=2]; b [guess="cable"]; a -> b [feedback="22200"] }')
    >>> G.graph["root"], G.nodes["a"]["answers"], G.edges["a", "b"]["feedback"]
    ('a', '2', '22200')
    """
    tokens = _dot_tokens(text)
    pos = 0

    def peek(offset=0):
        return tokens[pos + offset] if pos + offset < len(tokens) else ("end", "", tokens[-1][2] if tokens else 1)

    def take(kind):
        nonlocal pos
        token = peek()
        if token[0] != kind:
            raise ExactError(f"{token[2]}: expected {kind!r} in DOT, found {token[1] or 'the end'!r}")
        pos += 1
        return token[1]

    def attributes() -> dict:
        found = {}
        while peek()[0] == "[":
            take("[")
            while peek()[0] != "]":
                key = take("id")
                take("=")
                found[key] = take("id")
                if peek()[0] in (",", ";"):
                    take(peek()[0])
            take("]")
        return found

    if peek()[0] == "id" and peek()[1].lower() == "strict":
        take("id")
    if peek()[0] != "id" or peek()[1].lower() != "digraph":
        raise ExactError(f"{peek()[2]}: not a DOT digraph (a strategy tree is directed)")
    take("id")
    if peek()[0] == "id":
        take("id")
    take("{")
    G = nx.DiGraph()
    defaults = {"node": {}, "edge": {}}
    while peek()[0] != "}":
        kind, value, line = peek()
        if kind == "id" and value.lower() in ("subgraph",) or kind == "{":
            raise ExactError(f"{line}: subgraphs are not supported in a strategy tree")
        if kind == "id" and value.lower() == "graph" and peek(1)[0] == "[":
            take("id")
            G.graph.update(attributes())
        elif kind == "id" and value.lower() in defaults and peek(1)[0] == "[":
            take("id")
            defaults[value.lower()].update(attributes())
        elif kind == "id" and peek(1)[0] == "=":
            take("id")
            take("=")
            G.graph[value] = take("id")
        else:
            chain = [take("id")]
            while peek()[0] == "arrow":
                if take("arrow") == "--":
                    raise ExactError(f"{line}: undirected edge '--' in a digraph")
                chain.append(take("id"))
            if peek()[0] == ":":
                raise ExactError(f"{line}: ports are not supported in a strategy tree")
            attrs = attributes()
            for node in chain:
                if node not in G:
                    G.add_node(node, **defaults["node"])
            if len(chain) == 1:
                G.nodes[chain[0]].update(attrs)
            for u, v in zip(chain, chain[1:]):
                G.add_edge(u, v, **{**defaults["edge"], **attrs})
        if peek()[0] == ";":
            take(";")
    take("}")
    if pos != len(tokens):
        raise ExactError(f"{peek()[2]}: text after the end of the graph")
    return G
