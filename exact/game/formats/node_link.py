"""Node-link JSON trees: the networkx form of :mod:`exact.game.tree`, through ``node_link_data``/``node_link_graph``."""

from __future__ import annotations

import json
from pathlib import Path

from exact.errors import ExactError
from exact.game.formats.base import json_of, read_file, write_file
from exact.game.tree import Tree, from_networkx, to_networkx
from exact.words import WordList

def parse_node_link(text: str) -> Tree:
    import networkx as nx  # lazy: start-up (measured 0.14 s)

    data = json_of(text)
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise ExactError("not node-link JSON (no 'nodes' list)")
    edges = "edges" if "edges" in data else "links"
    try:
        G = nx.node_link_graph(data, directed=True, multigraph=False, edges=edges)
    except (KeyError, TypeError, ValueError, AttributeError, nx.NetworkXError) as e:  # a node or edge not an object
        raise ExactError(f"not valid node-link JSON ({type(e).__name__}: {e})") from None
    return from_networkx(G)


def generate_node_link(tree: Tree, answers: WordList | None = None) -> str:
    import networkx as nx  # lazy: start-up (measured 0.14 s)

    return json.dumps(nx.node_link_data(to_networkx(tree), edges="edges"), indent=1) + "\n"


def read_node_link(path: str | Path) -> Tree:
    """A tree from the node-link JSON file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_node_link)


def write_node_link(tree: Tree, path: str | Path, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically as node-link JSON."""
    write_file(path, generate_node_link(tree, answers))
