"""Strategy trees as plain data, their networkx form, and an independent replay.

Data types, stated once:

- a :class:`Tree` node plays ``guess`` to the ``answers`` answers that reach it; ``children`` maps a
  feedback pattern code (see :mod:`exact.feedback`) to the subtree for the answers giving that
  pattern. The all-green pattern has no child: those answers are won here. A pattern with no child
  means the answers giving it are lost (normal at the last allowed guess);
- the *step* of a node is its depth counted from 1 at the root: an answer won at a node of step k
  took k guesses;
- the networkx form is a ``DiGraph`` with node ids ``"n0", "n1", ...`` in preorder (children in
  increasing pattern code); every node has attributes ``guess`` (str) and ``answers`` (int, how many
  answers reach it); every edge has ``feedback``, the pattern as digits 0 gray / 1 yellow / 2 green
  from the first letter to the last (a string such as ``"02110"``); ``G.graph["root"]`` names the root.

>>> from exact.feedback import feedback
>>> t = Tree("abbey", 3, {feedback("abbey", "cabin"): Tree("cabin", 2, {feedback("cabin", "cable"): Tree("cable", 1, {})})})
>>> tree_depth(t), count_nodes(t)
(3, 3)
>>> from_networkx(to_networkx(t)) == t
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field

import networkx as nx

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, is_word, parse_pattern
from exact.words import WordList


@dataclass
class Tree:
    guess: str  # the word played at this node
    answers: int  # how many answers reach this node
    children: dict[int, "Tree"] = field(default_factory=dict)  # feedback pattern code -> subtree; no child for all-green (won here); a missing pattern means those answers are lost


def tree_depth(tree: Tree) -> int:
    """The most guesses any path plays: 1 for a lone node.

    >>> tree_depth(Tree("abbey", 1, {}))
    1
    """
    return 1 + max((tree_depth(c) for c in tree.children.values()), default=0)


def count_nodes(tree: Tree) -> int:
    """How many decision nodes the tree has.

    >>> count_nodes(Tree("abbey", 2, {0: Tree("cabin", 1, {})}))
    2
    """
    return 1 + sum(count_nodes(c) for c in tree.children.values())


def preorder(tree: Tree) -> Iterator[tuple[tuple[tuple[str, int], ...], Tree]]:
    """Every node with its history ``((guess, pattern), ...)`` from the root, children by pattern code.

    >>> [(h, t.guess) for h, t in preorder(Tree("abbey", 2, {0: Tree("cabin", 1, {})}))]
    [((), 'abbey'), ((('abbey', 0),), 'cabin')]
    """
    stack = [((), tree)]
    while stack:
        history, node = stack.pop()
        yield history, node
        for pattern in sorted(node.children, reverse=True):
            stack.append((history + ((node.guess, pattern),), node.children[pattern]))


def path_text(history, length: int) -> str:
    """A history as ``guess pattern guess pattern ...`` with patterns as digits ('' for the root).

    >>> path_text((("salet", 0), ("courd", 19)), 5)
    'salet 00000 courd 10200'
    """
    return " ".join(f"{g} {format_pattern(p, length)}" for g, p in history)


# --- networkx ---------------------------------------------------------------------------------


def to_networkx(tree: Tree) -> nx.DiGraph:
    """The tree as a DiGraph in the schema above (node ids ``n0, n1, ...`` in preorder).

    >>> G = to_networkx(Tree("abbey", 2, {19: Tree("cabin", 1, {})}))
    >>> G.graph["root"], dict(G.nodes["n1"]), G.edges["n0", "n1"]["feedback"]
    ('n0', {'guess': 'cabin', 'answers': 1}, '10200')
    """
    length = len(tree.guess)
    G = nx.DiGraph(root="n0")
    ids: dict[tuple, str] = {}
    for history, node in preorder(tree):
        node_id = ids[history] = f"n{len(ids)}"
        G.add_node(node_id, guess=node.guess, answers=node.answers)
        if history:
            G.add_edge(ids[history[:-1]], node_id, feedback=format_pattern(history[-1][1], length))
    return G


def from_networkx(G: nx.DiGraph) -> Tree:
    """The tree a DiGraph in the schema above describes; anything else is an ExactError.

    >>> G = nx.DiGraph(root="a")
    >>> G.add_node("a", guess="abbey", answers=2); G.add_node("b", guess="cabin", answers=1)
    >>> G.add_edge("a", "b", feedback="10200")
    >>> from_networkx(G)
    Tree(guess='abbey', answers=2, children={19: Tree(guess='cabin', answers=1, children={})})
    """
    if not G.is_directed():
        raise ExactError("the graph is not directed")
    root = G.graph.get("root")
    if root is None:
        raise ExactError("the graph has no 'root' attribute")
    if root not in G:
        raise ExactError(f"the root {root!r} is not a node of the graph")
    if G.in_degree(root):
        raise ExactError(f"the root {root!r} has a parent")
    for node, degree in G.in_degree():
        if degree > 1:
            raise ExactError(f"node {node!r} has {degree} parents; a strategy is a tree")
    reached = nx.descendants(G, root) | {root}
    if len(reached) != len(G):
        stray = sorted(map(str, set(G) - reached))[0]
        raise ExactError(f"node {stray!r} is not reachable from the root {root!r}")
    return _tree_at(G, root, _node_guess(G, root))


def _node_guess(G: nx.DiGraph, node) -> str:
    guess = G.nodes[node].get("guess")
    if not isinstance(guess, str) or not is_word(guess):
        raise ExactError(f"node {node!r} has no valid 'guess' attribute (got {guess!r})")
    return guess


def _tree_at(G: nx.DiGraph, node, guess: str) -> Tree:
    length = len(guess)
    answers = G.nodes[node].get("answers")
    if isinstance(answers, str) and answers.isdigit():
        answers = int(answers)
    if isinstance(answers, bool) or not isinstance(answers, int) or answers < 0:
        raise ExactError(f"node {node!r} has no valid 'answers' attribute (got {answers!r})")
    children: dict[int, Tree] = {}
    for child in G.successors(node):
        text = G.edges[node, child].get("feedback")
        if not isinstance(text, str) or len(text) != length or set(text) - set("012"):
            raise ExactError(f"edge {node!r} -> {child!r} has no valid 'feedback' attribute "
                             f"(got {text!r}; want {length} digits 0/1/2)")
        pattern = parse_pattern(text, length, "digits")
        if pattern == all_green(length):
            raise ExactError(f"edge {node!r} -> {child!r} follows the all-green feedback {text}")
        if pattern in children:
            raise ExactError(f"node {node!r} has two edges with feedback {text}")
        child_guess = _node_guess(G, child)
        if len(child_guess) != length:
            raise ExactError(f"node {child!r} guesses {child_guess!r} but its parent guesses {guess!r}")
        children[pattern] = _tree_at(G, child, child_guess)
    return Tree(guess, answers, dict(sorted(children.items())))


# --- replay -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """A node worth reporting: ``kind`` is one of not-allowed, hard-mode, missing-branch, depth,
    green-child (invalid nodes) or count (a note: the recorded answer count differs)."""

    kind: str
    path: str  # the history leading to the node, "guess pattern guess pattern ..."
    guess: str
    message: str

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Replay:
    wins: int
    n: int
    lost: tuple[str, ...]  # answers not won within the depth, in list order
    invalid: tuple[Problem, ...]  # invalid nodes, in preorder
    notes: tuple[Problem, ...]  # nodes whose recorded answer count differs (a tree for another list)
    wins_at: tuple[int, ...]  # wins_at[k - 1]: answers won with exactly k guesses
    depth: int
    hard: bool

    @property
    def probability(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def valid(self) -> bool:
        return not self.invalid

    def to_json(self) -> dict:
        return {
            "wins": self.wins,
            "n": self.n,
            "probability": self.probability,
            "depth": self.depth,
            "hard": self.hard,
            "valid": self.valid,
            "wins_at": list(self.wins_at),
            "lost": list(self.lost),
            "invalid": [p.to_json() for p in self.invalid],
            "notes": [p.to_json() for p in self.notes],
        }


HardRule = Callable[[str, tuple[tuple[str, int], ...]], bool]


def replay(tree: Tree, answers: WordList, guesses: WordList | None = None, depth: int = 3,
           hard: bool = False) -> Replay:
    """Play every answer through the tree from scratch with :func:`exact.feedback.feedback`.

    An answer is won when some node it reaches within ``depth`` guesses plays it. Invalid nodes:
    a guess not in ``guesses`` (when given), a hard-mode violation (with ``hard``), a non-green
    pattern that answers give with guesses left but that has no child (*missing-branch*; its
    answers are also lost), a node answers reach beyond ``depth`` (its answers are lost), a child
    under the all-green pattern. A recorded ``answers`` count that differs from the answers that
    reach the node is a note, not an error: the tree may have been made for another answer list.

    >>> from exact.words import words_from_lines
    >>> A = words_from_lines(["caber", "cabin", "cable"])
    >>> t = Tree("cabin", 3, {feedback("cabin", "cable"): Tree("cable", 2, {})})
    >>> r = replay(t, A, depth=2)
    >>> r.wins, r.n, r.lost, [p.kind for p in r.invalid]
    (2, 3, ('caber',), [])
    >>> [p.kind for p in replay(t, A, depth=3).invalid]
    ['missing-branch']
    """
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    if len(answers) and len(tree.guess) != answers.length:
        raise ExactError(f"the tree guesses {len(tree.guess)}-letter words but {answers.source} "
                         f"has {answers.length}-letter words")
    rule = _hard_rule() if hard else None
    length = len(tree.guess)
    allowed = None if guesses is None else guesses.index
    won: set[str] = set()
    wins_at = [0] * depth
    problems: list[Problem] = []
    notes: list[Problem] = []

    def problem(kind, history, node, message):
        (notes if kind == "count" else problems).append(Problem(kind, path_text(history, length), node.guess, message))

    def visit(node: Tree, reaching: list[str], history: tuple, step: int) -> None:
        if node.answers != len(reaching):
            problem("count", history, node, f"records {node.answers} answers but {len(reaching)} reach it")
        if not reaching:
            return
        if step > depth:
            problem("depth", history, node, f"{len(reaching)} answers reach guess {step} but the depth is {depth}")
            return
        if len(node.guess) != length or not is_word(node.guess):
            raise ExactError(f"node {path_text(history, length) or 'root'}: {node.guess!r} is not a {length}-letter word")
        if allowed is not None and node.guess not in allowed:
            problem("not-allowed", history, node, f"{node.guess!r} is not an allowed guess")
        if rule is not None and not rule(node.guess, history):
            problem("hard-mode", history, node, f"{node.guess!r} breaks the hard-mode rule")
        classes: dict[int, list[str]] = {}
        for a in reaching:
            classes.setdefault(feedback(node.guess, a), []).append(a)
        green = all_green(length)
        if green in classes:
            won.add(node.guess)
            wins_at[step - 1] += 1
        if green in node.children:
            problem("green-child", history, node, "has a child under the all-green pattern")
        for pattern in sorted(set(classes) | set(node.children)):
            if pattern == green:
                continue
            child = node.children.get(pattern)
            below = classes.get(pattern, [])
            if child is not None:
                visit(child, below, history + ((node.guess, pattern),), step + 1)
            elif step < depth:
                problem("missing-branch", history, node,
                        f"no child for feedback {format_pattern(pattern, length)} given by {len(below)} answers")

    visit(tree, list(answers.words), (), 1)
    return Replay(
        wins=sum(wins_at),
        n=len(answers),
        lost=tuple(a for a in answers.words if a not in won),
        invalid=tuple(problems),
        notes=tuple(notes),
        wins_at=tuple(wins_at),
        depth=depth,
        hard=hard,
    )


def _hard_rule() -> HardRule:
    """The hard-mode rule of :mod:`exact.wordle.hard` as ``rule(word, history) -> bool``."""
    try:
        from exact.wordle.hard import is_allowed
    except ImportError:
        raise ExactError("hard mode is not available yet (exact.wordle.hard is missing)") from None
    return is_allowed
