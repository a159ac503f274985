"""Graphviz DOT trees: the networkx form of :mod:`exact.game.tree`, read through pydot (``from_pydot``)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import format_pattern  # noqa: F401 (doctests)
from exact.game.formats.base import read_file, write_file
from exact.game.tree import Tree, from_networkx, to_networkx
from exact.words import WordList

#: The largest DOT text read: pydot's pyparsing grammar takes about 15 s for a 270 kB tree.
MAX_DOT = 512 * 1024


def parse_dot(text: str) -> Tree:
    """A tree from DOT, parsed by pydot and converted by :func:`networkx.nx_pydot.from_pydot`.

    Attribute values lose their DOT quotes; ``node [...]`` and ``edge [...]`` defaults apply to the
    nodes and edges that do not set the attribute; the root is the graph attribute ``root``. Texts
    over :data:`MAX_DOT` are refused (pydot's parser is slow on big files).

    >>> t = parse_dot('digraph { root=a; a [guess=cabin, answers=2]; b [guess="cable", answers=1]; a -> b [feedback="22200"] }')
    >>> t.guess, [(format_pattern(p, 5), c.guess) for p, c in t.children.items()]
    ('cabin', [('22200', 'cable')])
    """
    if len(text) > MAX_DOT:
        raise ExactError(f"a DOT tree of {len(text) // 1024} KiB; DOT trees are read up to {MAX_DOT // 1024} KiB "
                         f"(pydot's parser takes about a minute a MiB): exchange big trees as GraphML or JSON")
    import networkx as nx  # lazy: start-up (measured 0.14 s)
    from pyparsing import ParseBaseException  # lazy: start-up (measured 0.06 s)

    with warnings.catch_warnings():  # pydot's grammar uses pyparsing names it deprecates
        warnings.simplefilter("ignore")
        from pydot.dot_parser import GraphParser  # lazy: start-up (measured 0.27 s)

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


def generate_dot(tree: Tree, answers: WordList | None = None) -> str:
    """The tree's networkx form as DOT text, with ``label`` attributes for drawing (ignored when read).

    >>> print(generate_dot(Tree("cabin", 1, {})), end="")
    digraph wordle {
      root="n0";
      "n0" [guess="cabin", answers="1", label="cabin\\n1"];
    }
    """
    G = to_networkx(tree)
    lines = ["digraph wordle {", f"  root={_quote(G.graph['root'])};"]
    lines += [f"  {k}={_quote(v)};" for k, v in G.graph.items() if k != "root"]  # the lists it was made on
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


def read_dot(path: str | Path) -> Tree:
    """A tree from the DOT file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_dot)


def write_dot(tree: Tree, path: str | Path, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically as DOT."""
    write_file(path, generate_dot(tree, answers))
