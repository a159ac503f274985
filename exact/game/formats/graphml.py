"""GraphML trees: the networkx form of :mod:`exact.game.tree`, through networkx's GraphML reader and writer."""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import ParseError

from exact.errors import ExactError
from exact.game.formats.base import digits_message, read_file, write_file
from exact.game.tree import Tree, from_networkx, to_networkx
from exact.words import WordList, shorten

def parse_graphml(text: str) -> Tree:
    import networkx as nx  # lazy: start-up (measured 0.14 s)

    try:
        G = nx.parse_graphml(text)
    except ParseError as e:
        raise ExactError(f"not valid GraphML ({e})", line=e.position[0] if e.position else None) from None
    except (nx.NetworkXError, KeyError, ValueError, TypeError) as e:
        detail = digits_message(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {shorten(str(e), 120)}"
        raise ExactError(f"not valid GraphML ({detail})") from None
    if G.is_multigraph():
        raise ExactError("a strategy is a tree, not a multigraph")
    return from_networkx(G)


def generate_graphml(tree: Tree, answers: WordList | None = None) -> str:
    import networkx as nx  # lazy: start-up (measured 0.14 s)

    return "\n".join(nx.generate_graphml(to_networkx(tree))) + "\n"


def read_graphml(path: str | Path) -> Tree:
    """A tree from the GraphML file at ``path`` (errors name the path, and the line where known)."""
    return read_file(path, parse_graphml)


def write_graphml(tree: Tree, path: str | Path, answers: WordList | None = None) -> None:
    """Write ``tree`` to ``path`` atomically as GraphML."""
    write_file(path, generate_graphml(tree, answers))
