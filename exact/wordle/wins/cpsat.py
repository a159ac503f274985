"""A CP-SAT model of the depth-k Wordle decision tree, for reduced instances.

The quantity: wins_k(T) = max over guesses g of [g in T] + sum over the non-green classes
P of g on T of wins_{k-1}(P), with wins_1(T) = 1 for non-empty T (every answer is an allowed guess,
which :func:`check_answers_are_guesses` enforces) and wins_0 = 0.

Under answer weights w (positive integers, :mod:`exact.weights`) the same recursion gives the weight
won: [g in T] becomes w of the answer g hits, and wins_1(T) = max_{a in T} w_a (guess the heaviest
answer left); unit weights are the count above.

Data types, stated once:

- ``F``: the feedback matrix of the instance, rows guesses, columns answers (:mod:`exact.partitions`);
- ``w``: the int64 weight of each answer column, or None (every answer 1);
- a *node* ``(d, P)``: ``d`` guesses left and ``P``, a frozenset of answer columns that some history
  of guesses and patterns leaves. Two nodes of one tree at the same ``d`` have disjoint answer sets,
  so the same ``(d, P)`` occurs at most once per tree and nodes reached by different histories can
  share one variable set (the search space is a DAG);
- a *leaf* is a node with nothing to decide: one answer left, or one guess left (then it wins its
  heaviest answer: 1 unweighted);
- a :class:`Choice` at an internal node: a representative guess row, its ``weight`` (the weight of the
  answers it wins here or at the leaves right below: their number unweighted) and its internal child nodes.

Choices are merged without losing optimality, under any positive weights:

- at ``d >= 3`` guesses that split ``P`` into the same classes (the all-green one marked) are one
  choice: they have the same child nodes and the same answers won here and at the leaves below, so the
  same ``weight`` and the same subproblems; which of them is played changes nothing;
- at ``d = 2`` every child is a leaf, so a choice has no children and its whole value is its ``weight``:
  the weight of the answer it hits plus, per non-green class, that class's heaviest answer (won at the
  last guess), i.e. the sum over its classes of the heaviest answer of each. Guesses with equal such
  sums are one choice (nothing else of them enters the model). Unweighted this sum is the number of
  classes, the merge of equal class counts; with weights equal class counts do *not* make two guesses
  equal (their per-class maxima differ), so the key is the weighted sum itself, never the counts;
- at ``d = 1`` (a root only) a guess's value is the weight of the answer it hits, merged the same way;
- a guess that neither hits nor splits ``P`` is dropped: its one child is ``(d - 1, P)``, which wins at
  most what ``(d, P)`` wins (one guess more never loses weight), so it only wastes a guess.

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
from exact.weights import Weights, as_values
from exact.words import WordList, check_answers_are_guesses  # noqa: F401  (the one check, re-exported)

Node = tuple[int, frozenset]


@dataclass(frozen=True)
class Choice:
    guess: int  # row of F: the first guess (in list order) of those this choice stands for
    weight: int  # weight of the answers won at this node, or at the leaves right below it (their number unweighted)
    children: tuple[Node, ...]  # the internal nodes this choice leads to


# --- The reachable nodes ------------------------------------------------------------------------

def is_internal(node: Node, root: Node) -> bool:
    d, P = node
    return node == root or (d >= 2 and len(P) >= 2)


def tree_nodes(F: np.ndarray, depth: int, green: int,
               w: np.ndarray | None = None) -> tuple[Node, dict[Node, list[Choice]]]:
    """The root and every internal node reachable from it, with its choices (lazily, from the root).

    ``green`` is the all-green pattern code of the word length; ``w`` the answers' weights (None: 1 each)."""
    root = (depth, frozenset(range(F.shape[1])))
    nodes: dict[Node, list[Choice]] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if node not in nodes:
            nodes[node] = node_choices(F, node, green, root, w)
            todo.extend(child for c in nodes[node] for child in c.children if child not in nodes)
    return root, nodes


def node_choices(F: np.ndarray, node: Node, green: int, root: Node, w: np.ndarray | None = None) -> list[Choice]:
    """The choices at an internal node, merged as the module argues (``w``: weights, None for 1 each)."""
    d, P = node
    members = np.array(sorted(P), dtype=np.int64)
    if d == 1:  # only a root can be here: win the answer a guess hits, if any
        hits = F[:, members] == green
        won = hits.any(axis=1) if w is None else np.where(hits, w[members], 0).max(axis=1)
        return _one_per_value(won.astype(np.int64))
    if d == 2:  # every child a leaf: the value is the sum over the classes of their heaviest answers
        if w is None:
            return _one_per_value(np.count_nonzero(class_counts(F, members), axis=1))
        return _one_per_value(class_maxima(F, members, w).sum(axis=1))
    canon = canonical_partitions(np.ascontiguousarray(F[:, members]), green)
    _, firsts = np.unique(canon, axis=0, return_index=True)
    choices = []
    for g in sorted(firsts.tolist()):
        weight, children = 0, []
        for pattern, part in classes(F, g, members).items():
            child = (d - 1, frozenset(part.tolist()))
            if pattern == green or not is_internal(child, root):
                weight += 1 if w is None else int(w[part].max())  # one answer: the green one, or a singleton
            else:
                children.append(child)
        choices.append(Choice(g, weight, tuple(children)))
    useful = [c for c in choices if not (c.weight == 0 and len(c.children) == 1)]
    return useful or choices


def class_maxima(F: np.ndarray, members: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(guesses, patterns) int64: the heaviest weight of each class every guess makes on ``members`` (0:
    no class)."""
    out = np.zeros((F.shape[0], int(F.max(initial=0)) + 1), dtype=np.int64)
    rows = np.arange(F.shape[0])
    for a in members:
        col = F[:, a].astype(np.int64)
        out[rows, col] = np.maximum(out[rows, col], w[a])
    return out


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
    wins: int | None  # answers (with weights: their weight) the tree wins within the depth
    bound: int  # no tree wins more (CP-SAT's proved bound)
    n: int
    depth: int
    seconds: float
    workers: int
    stats: dict = field(default_factory=dict)  # model size and search counters
    tree: Tree | None = field(default=None, repr=False)
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM
    weights: Weights | None = field(default=None, repr=False)  # not unit: wins and bound are weights

    @property
    def total(self) -> int:
        """The total weight of the answers (their number unweighted)."""
        return self.n if self.weights is None else self.weights.total

    @property
    def probability(self) -> float | None:
        """P(win within the depth): weight won / total weight."""
        return None if self.wins is None else self.wins / self.total

    def to_json(self) -> dict:
        return {"status": self.status, "wins": self.wins, "bound": self.bound, "n": self.n,
                "probability": self.probability, "depth": self.depth, "seconds": round(self.seconds, 3),
                "workers": self.workers, "stats": self.stats,
                "first_guess": None if self.tree is None else self.tree.guess,
                **({"weights": self.weights.record(), "weight": self.total} if self.weights is not None else {})}


def solve_tree(answers: WordList, guesses: WordList, depth: int = 3, *, time_limit: float | None = None,
               workers: int = 2, export: str | Path | None = None, F: np.ndarray | None = None,
               weights: Weights | None = None) -> TreeSolution:
    """Build, (optionally) export and solve the depth-``depth`` tree model; the tree is read only when a
    solution exists, and its value is replayed against the objective. ``weights`` (not unit): the most
    weight won within ``depth`` (unit weights are the unweighted model itself)."""
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    check_answers_are_guesses(answers, guesses)
    if weights is not None and weights.unit:
        weights = None
    w = None if weights is None else as_values(weights, answers)
    if F is None:
        F = feedback_matrix(guesses, answers)
    start = time.perf_counter()
    root, nodes = tree_nodes(F, depth, all_green(answers.length), w)
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
    total = len(answers) if w is None else int(w.sum())
    if out.status == "UNKNOWN":  # stopped before any tree was found: only the trivial bound, all the weight
        return TreeSolution("UNKNOWN", None, total, len(answers), depth, seconds, workers, stats,
                            interrupted=out.interrupted, weights=weights)
    if not out.has_solution:
        raise AssertionError(f"CP-SAT says {out.status} for a model that always has a solution")
    wins = out.objective
    tree = read_tree(tm, out, F, answers, guesses, w)
    won = matrix_tree_wins(tree, F, answers, guesses, depth, w)
    if won != wins:
        raise AssertionError(f"the tree read from the model wins {won}, but the objective says {wins}")
    return TreeSolution(out.status, wins, int(round(out.bound)), len(answers), depth, seconds,
                        workers, stats, tree, interrupted=out.interrupted, weights=weights)


def read_tree(tm: TreeModel, out: cpsat.Outcome, F: np.ndarray, answers: WordList,
              guesses: WordList, w: np.ndarray | None = None) -> Tree:
    """The strategy the solution encodes, as an :class:`exact.game.tree.Tree`."""
    green = all_green(answers.length)

    def subtree(node: Node) -> Tree:
        d, P = node
        if not is_internal(node, tm.root):  # a leaf: play its heaviest answer (the first on ties)
            first = min(P) if w is None else min(P, key=lambda a: (-int(w[a]), a))
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


def matrix_tree_wins(tree: Tree, F: np.ndarray, answers: WordList, guesses: WordList, depth: int,
                     w: np.ndarray | None = None) -> int:
    """How many answers (with weights ``w``: how much weight) the tree wins within ``depth`` guesses,
    played through ``F``."""
    green = all_green(answers.length)

    def wins(node: Tree, members: np.ndarray, left: int) -> int:
        if left == 0 or len(members) == 0:
            return 0
        total = 0
        for pattern, part in classes(F, guesses.index[node.guess], members).items():
            if pattern == green:
                total += 1 if w is None else int(w[part[0]])
            elif pattern in node.children:
                total += wins(node.children[pattern], part, left - 1)
        return total

    return wins(tree, np.arange(len(answers)), depth)
