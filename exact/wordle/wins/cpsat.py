"""A CP-SAT model of the depth-k Wordle decision tree, for reduced instances.

The quantity: wins_k(T) = max over guesses g of [g in T] + sum over the non-green classes
P of g on T of wins_{k-1}(P), with wins_1(T) = 1 for non-empty T (every answer is an allowed guess,
which :func:`check_answers_are_guesses` enforces) and wins_0 = 0.

Data types, stated once:

- ``F``: the feedback matrix of the instance, rows guesses, columns answers (:mod:`exact.partitions`);
- a *node* ``(d, P)``: ``d`` guesses left and ``P``, a frozenset of answer columns that some history
  of guesses and patterns leaves. Two nodes of one tree at the same ``d`` have disjoint answer sets,
  so the same ``(d, P)`` occurs at most once per tree and nodes reached by different histories can
  share one variable set (the search space is a DAG);
- a *leaf* is a node with nothing to decide: one answer left, or one guess left (then it wins 1);
- a :class:`Choice` at an internal node: a representative guess row, its ``weight`` (the answers it
  wins here or at the leaves right below) and its internal child nodes.

Choices are merged without losing optimality: at ``d >= 3`` guesses that split ``P`` into the same
classes (the all-green one marked) are one choice; at ``d = 2`` every child is a leaf, so only the
number of classes matters and guesses with equal counts are one choice; a guess that neither hits
nor splits ``P`` is dropped (it only wastes a guess).

The model (``choose[node, c]`` Boolean for each internal node and choice)::

    sum_c choose[root, c] = 1
    sum_c choose[node, c] = sum of choose[parent, c'] over the parent choices c' that lead to node
    maximise  sum weight(c) * choose[node, c]

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> sol = solve_tree(A, A, depth=2, workers=1)
>>> sol.status, sol.wins, sol.n
('OPTIMAL', 6, 8)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
from ortools.sat.python import cp_model

from exact import cpsat
from exact.cpsat import export_model, import_model  # noqa: F401 - the model files of this module
from exact.errors import ExactError
from exact.feedback import all_green
from exact.partitions import class_counts, classes, feedback_matrix
from exact.game.tree import Tree
from exact.words import WordList, check_answers_are_guesses  # noqa: F401  (the one check, re-exported)

Node = tuple[int, frozenset]


@dataclass(frozen=True)
class Choice:
    guess: int  # row of F: the first guess (in list order) of those this choice stands for
    weight: int  # answers won at this node, or at the leaves right below it
    children: tuple[Node, ...]  # the internal nodes this choice leads to


# --- The reachable nodes ------------------------------------------------------------------------

def is_internal(node: Node, root: Node) -> bool:
    d, P = node
    return node == root or (d >= 2 and len(P) >= 2)


def tree_nodes(F: np.ndarray, depth: int, green: int) -> tuple[Node, dict[Node, list[Choice]]]:
    """The root and every internal node reachable from it, with its choices (lazily, from the root).

    ``green`` is the all-green pattern code of the word length."""
    root = (depth, frozenset(range(F.shape[1])))
    nodes: dict[Node, list[Choice]] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if node not in nodes:
            nodes[node] = node_choices(F, node, green, root)
            todo.extend(child for c in nodes[node] for child in c.children if child not in nodes)
    return root, nodes


def node_choices(F: np.ndarray, node: Node, green: int, root: Node) -> list[Choice]:
    d, P = node
    members = np.array(sorted(P), dtype=np.int64)
    if d == 1:  # only a root can be here: win one answer if some guess hits
        hits = (F[:, members] == green).any(axis=1)
        return _one_per_value(hits.astype(np.int64))
    if d == 2:
        return _one_per_value(np.count_nonzero(class_counts(F, members), axis=1))
    canon = canonical_partitions(np.ascontiguousarray(F[:, members]), green)
    _, firsts = np.unique(canon, axis=0, return_index=True)
    choices = []
    for g in sorted(firsts.tolist()):
        weight, children = 0, []
        for pattern, part in classes(F, g, members).items():
            child = (d - 1, frozenset(part.tolist()))
            if pattern == green or not is_internal(child, root):
                weight += 1
            else:
                children.append(child)
        choices.append(Choice(g, weight, tuple(children)))
    useful = [c for c in choices if not (c.weight == 0 and len(c.children) == 1)]
    return useful or choices


def _one_per_value(weights: np.ndarray) -> list[Choice]:
    values, firsts = np.unique(weights, return_index=True)
    return [Choice(int(g), int(w), ()) for w, g in sorted(zip(values.tolist(), firsts.tolist()))]


@numba.njit(cache=True)
def canonical_partitions(rows, green):
    """Relabel each row's patterns by first appearance (all-green as 0), so equal partitions give equal rows."""
    out = np.empty(rows.shape, dtype=np.uint16)
    label = np.empty(65536, dtype=np.int32)
    for g in range(rows.shape[0]):
        for j in range(rows.shape[1]):
            label[rows[g, j]] = -1
        fresh = 1
        for j in range(rows.shape[1]):
            p = rows[g, j]
            if p == green:
                out[g, j] = 0
            else:
                if label[p] < 0:
                    label[p] = fresh
                    fresh += 1
                out[g, j] = label[p]
    return out


# --- The model ---------------------------------------------------------------------------------

@dataclass
class TreeModel:
    model: cp_model.CpModel
    root: Node
    nodes: dict[Node, list[Choice]]
    choose: dict[tuple[Node, int], cp_model.IntVar]  # (node, choice index) -> Boolean


def build_tree_model(root: Node, nodes: dict[Node, list[Choice]]) -> TreeModel:
    """The CP-SAT model of the best depth-k tree over the given internal nodes and their choices."""
    model = cp_model.CpModel()
    number = {node: i for i, node in enumerate(nodes)}
    choose = {(node, c): model.new_bool_var(f"choose[n{number[node]},d{node[0]},g{choice.guess}]")
              for node, choices in nodes.items() for c, choice in enumerate(choices)}

    leads_to: dict[Node, list] = {node: [] for node in nodes}
    for node, choices in nodes.items():
        for c, choice in enumerate(choices):
            for child in choice.children:
                leads_to[child].append(choose[node, c])

    for node, choices in nodes.items():
        picked = sum(choose[node, c] for c in range(len(choices)))
        if node == root:
            model.add(picked == 1)
        else:
            model.add(picked == sum(leads_to[node]))

    model.maximize(sum(choice.weight * choose[node, c]
                       for node, choices in nodes.items() for c, choice in enumerate(choices)))
    return TreeModel(model, root, nodes, choose)


# --- Solving ------------------------------------------------------------------------------------

@dataclass
class TreeSolution:
    status: str  # OPTIMAL (proved), FEASIBLE (a tree, not proved best), or UNKNOWN (no tree found)
    wins: int | None  # answers the tree wins within the depth
    bound: int  # no tree wins more (CP-SAT's proved bound)
    n: int
    depth: int
    seconds: float
    workers: int
    stats: dict = field(default_factory=dict)  # model size and search counters
    tree: Tree | None = field(default=None, repr=False)
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM

    @property
    def probability(self) -> float | None:
        return None if self.wins is None else self.wins / self.n

    def to_json(self) -> dict:
        return {"status": self.status, "wins": self.wins, "bound": self.bound, "n": self.n,
                "probability": self.probability, "depth": self.depth, "seconds": round(self.seconds, 3),
                "workers": self.workers, "stats": self.stats,
                "first_guess": None if self.tree is None else self.tree.guess}


def solve_tree(answers: WordList, guesses: WordList, depth: int = 3, *, time_limit: float | None = None,
               workers: int = 2, export: str | Path | None = None, F: np.ndarray | None = None) -> TreeSolution:
    """Build, (optionally) export and solve the depth-``depth`` tree model; the tree is read only when a
    solution exists, and its value is replayed against the objective."""
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    start = time.perf_counter()
    root, nodes = tree_nodes(F, depth, all_green(answers.length))
    tm = build_tree_model(root, nodes)
    built = time.perf_counter() - start
    if export is not None:
        export_model(tm.model, export)
    out = cpsat.run(tm.model, time_limit=time_limit, workers=workers)
    seconds = time.perf_counter() - start
    stats = {"internal_nodes": len(nodes), "variables": len(tm.choose),
             "constraints": len(tm.model.proto.constraints), "build_seconds": round(built, 3),
             "solve_wall_seconds": round(out.stats["wall_time"], 3), "branches": out.stats["branches"],
             "conflicts": out.stats["conflicts"]}
    if out.status == "UNKNOWN":  # stopped before any tree was found: only the trivial bound n
        return TreeSolution("UNKNOWN", None, len(answers), len(answers), depth, seconds, workers, stats,
                            interrupted=out.interrupted)
    if not out.has_solution:
        raise AssertionError(f"CP-SAT says {out.status} for a model that always has a solution")
    wins = out.objective
    tree = read_tree(tm, out, F, answers, guesses)
    won = matrix_tree_wins(tree, F, answers, guesses, depth)
    if won != wins:
        raise AssertionError(f"the tree read from the model wins {won}, but the objective says {wins}")
    return TreeSolution(out.status, wins, int(round(out.bound)), len(answers), depth, seconds,
                        workers, stats, tree, interrupted=out.interrupted)


def read_tree(tm: TreeModel, out: cpsat.Outcome, F: np.ndarray, answers: WordList,
              guesses: WordList) -> Tree:
    """The strategy the solution encodes, as an :class:`exact.game.tree.Tree`."""
    green = all_green(answers.length)

    def subtree(node: Node) -> Tree:
        d, P = node
        if not is_internal(node, tm.root):  # a leaf: play one of its answers
            first = min(P)
            return Tree(answers.words[first], len(P), {})
        picked = [c for c in range(len(tm.nodes[node])) if out.value(tm.choose[node, c])]
        g = tm.nodes[node][picked[0]].guess
        members = np.array(sorted(P), dtype=np.int64)
        children = {}
        if d > 1:
            for pattern, part in classes(F, g, members).items():
                if pattern != green:
                    children[pattern] = subtree((d - 1, frozenset(part.tolist())))
        return Tree(guesses.words[g], len(P), dict(sorted(children.items())))

    return subtree(tm.root)


def matrix_tree_wins(tree: Tree, F: np.ndarray, answers: WordList, guesses: WordList, depth: int) -> int:
    """How many answers the tree wins within ``depth`` guesses, played through ``F``."""
    green = all_green(answers.length)

    def wins(node: Tree, members: np.ndarray, left: int) -> int:
        if left == 0 or len(members) == 0:
            return 0
        total = 0
        for pattern, part in classes(F, guesses.index[node.guess], members).items():
            if pattern == green:
                total += 1
            elif pattern in node.children:
                total += wins(node.children[pattern], part, left - 1)
        return total

    return wins(tree, np.arange(len(answers)), depth)
