"""A strategy tree audited decision by decision against the proven optimum of every subproblem.

The quantity (fewest guesses; ``depth`` K: most wins within K, the same with max for min). A node of
the tree is a set T of answers reached before guess t, with the tree's guess g there. Let cost(T) be
what the tree's own subtree scores on T (the guess number each answer is solved at, summed), opt(T)
the proven optimum of the subproblem (:func:`exact.wordle.fewest.search.node_value`), and

    choice(T) = c[t] [g in T] + sum over the classes P of g on T of opt(P)

what g scores with optimal play below it. The decision's *loss* is choice(T) - opt(T) >= 0. Since
cost(T) = c[t] [g in T] + sum_P cost(P),

    cost(T) - opt(T) = loss(T) + sum_P (cost(P) - opt(P)),

and at a leaf (T = {g}) both sides are 0: the losses of all decisions below a node add up to
cost - opt there exactly. At the root, choice is the optimum given the tree's first guess, so the
losses below the first guess add up to the *gap* (total - optimum given the first guess), and the
root's own loss, the *first guess's loss*, is that optimum less the optimum over every first guess
(taken from a committed ranking certificate of the same lists, mode and limit; None where none
covers them: a full ranking is far dearer than an audit).

The work. One memo serves the whole tree (the searches of different nodes share subproblems); the
nodes are solved children first, smallest class first, so a parent's search finds its classes in
the memo; a node whose lower bound (:func:`~exact.wordle.fewest.lower_bounds.node_bound`) already reaches
the tree's own cost there is optimal with all it holds (the losses below it add up to cost - opt =
0, each >= 0), and is not searched or entered; a node is searched against beta = choice + 1 (choice
is attained, so the value found is exact), and not at all when its bound reaches choice. Most wins
within K: :meth:`exact.wordle.wins.dp.Search.wins` with ``need`` = choice + 1, a subtree that wins
every answer it holds is optimal (wins <= |T|), nodes past guess K win nothing and are not entered.

Answer weights (``weights``, :mod:`exact.weights`: positive integers w_a). Every quantity above is a sum
over answers, and the audit weights each answer's term by w_a: cost(T) = sum over the answers a of T of
w_a t_a (t_a the guess that solves a), opt(T) the weighted optimum (the weighted engines,
:func:`~exact.wordle.fewest.search.node_value` and :meth:`~exact.wordle.wins.dp.Search.wins`, solve
it), and choice(T) = c[t] w_g [g in T] + sum_P opt(P). The decomposition of cost - opt into losses uses
only that cost and choice split over the classes of g, which holds for any weights, so the losses
below the first guess still add up to the gap (checked). The bounds that skip work stay valid: a node
bound is a bound of the weighted optimum; a depth-K subtree winning all the weight W(T) of its answers
is optimal (wins <= W(T)). The optimum over every first guess is read from a certificate only when it
records the same weights (its ``weights`` sha256; none for an unweighted audit); unit weights are the
unweighted audit itself.

>>> from exact.words import words_from_lines
>>> from exact.feedback import feedback
>>> from exact.wordle.fewest.search import solve_guesses
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> t = solve_guesses(A, A, progress=False).tree  # optimal: cigar, then humph on {humph, blush}
>>> audit_tree(t, A, A, progress=False).gap
0
>>> t.children[0] = Tree("sissy", 2, {feedback("sissy", w): Tree(w, 1, {}) for w in ("humph", "blush")})
>>> a = audit_tree(t, A, A, progress=False)
>>> a.total, a.optimal_given_first, a.gap, [(d.path, d.played, d.best, d.loss) for d in a.decisions]
(18, 17, 1, [('cigar 00000', 'sissy', 'humph', 1)])
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from exact import progress as prog
from exact.errors import ExactError, InternalError
from exact.feedback import all_green
from exact.fileio import read_json
from exact.game.position import check_guess_limit, position
from exact.game.tree import Tree, path_text, replay
from exact.partitions import classes, feedback_matrix
from exact.weights import Weights, as_values
from exact.wordle.certificate import kind_of
from exact.wordle.fewest.lower_bounds import node_bound
from exact.wordle.fewest.memo import INF, memo_size, new_memo
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.search import constraint_after, make_guesses_instance, node_value
from exact.wordle.wins.dp import Search, make_wins_instance
from exact.wordle.wins.trees import best_guess
from exact.words import WordList, shipped_results

#: The memo is dropped and started afresh past this many nodes (the fewest-guesses solver's own limit).
MEMO_LIMIT = 5_000_000

#: The problems of a replay that make an audit meaningless (the tree's choice is not a legal move).
ILLEGAL = ("not-allowed", "hard-mode", "green-child")


@dataclass(frozen=True)
class Decision:
    """A decision of the tree that loses: where (``path``, the history from the root as ``guess
    pattern ...``), the guess it plays, a best guess there, how much it loses (guesses; wins for a
    depth-K audit), and how many answers reach it."""

    path: str
    played: str
    best: str
    loss: int
    answers: int


@dataclass(frozen=True)
class Unsolved:
    """An answer the tree does not solve within the limit, and the path where it is dropped (a missing
    branch) or goes past the limit."""

    answer: str
    path: str


@dataclass(frozen=True)
class NodeAudit:
    """One decision node as audited: its history (pattern codes), guess, a best guess there, answers, the
    tree's own cost, the node's optimum, its loss, and whether its whole subtree was proven optimal by a
    bound alone."""

    history: tuple
    played: str
    best: str
    answers: int
    cost: int
    optimum: int
    loss: int
    settled: bool


@dataclass
class Audit:
    """A tree's audit (see the module docstring for every quantity). ``objective``: ``guesses`` (lower is
    better; ``limit`` the most guesses an answer may take) or ``wins`` within ``limit`` guesses (higher is
    better); ``total`` the tree's own score;
    ``optimal_overall`` and ``first_guess_loss`` None where no certificate covers the lists.
    ``interrupted``: Ctrl-C or SIGTERM stopped it; ``decisions`` are then those audited so far (each
    exact), and ``optimal_given_first``, ``gap`` and ``first_guess_loss`` are None."""

    objective: str
    limit: int
    hard: bool
    n: int
    first: str
    total: int
    optimal_given_first: int | None
    optimal_overall: int | None
    gap: int | None
    first_guess_loss: int | None
    decisions: list[Decision]
    unsolved: list[Unsolved]
    partial: bool
    seconds: float
    nodes: list[NodeAudit] = field(repr=False, default_factory=list)
    overall_source: str | None = None
    interrupted: bool = False
    weights: Weights | None = field(default=None, repr=False)  # not unit: every value is a weighted sum

    def to_json(self) -> dict:
        out = {k: v for k, v in asdict(self).items()
               if k not in ("nodes", "decisions", "unsolved", "limit", "weights")}
        if self.weights is not None:
            out["weights"] = self.weights.record()
        out["max_guesses"] = self.limit if self.objective == "guesses" else None
        out["depth"] = self.limit if self.objective == "wins" else None
        out["decisions"] = [asdict(d) for d in self.decisions]
        out["unsolved"] = [asdict(u) for u in self.unsolved]
        out["nodes_audited"] = len(self.nodes)
        return out


@dataclass
class _Node:
    """A node of the tree with what reaches it: answers (columns), step, hard-mode rule, history,
    guess row, its children (smallest class first), what its guess scores when it is among the answers
    (0 when not), and the tree's own score on its answers."""

    tree: Tree
    T: np.ndarray
    t: int
    rule: object
    history: tuple
    g: int
    children: list["_Node"]
    hit: int
    cost: int


class _Fewest:
    """The fewest-guesses engine (sign +1: loss = choice - optimum)."""

    sign = 1
    objective = "guesses"

    def __init__(self, answers: WordList, guesses: WordList, max_guesses: int, hard: bool, F,
                 weights: Weights | None = None):
        self.inst = make_guesses_instance(answers, guesses, parse_objective("guesses"), max_guesses, hard, F,
                                          weights=weights)
        self.w = as_values(weights, answers)
        self.limit = max_guesses
        self.memo = new_memo()

    def after(self, rule, g: int, pattern: int):
        return constraint_after(self.inst, rule, g, pattern)

    def score(self, t: int, a: int) -> int:
        """What answer a solved at guess t scores (t, times its weight)."""
        return t * int(self.w[a])

    def settled(self, node: _Node) -> bool:
        """Whether a bound alone proves the tree's subtree optimal (node bound >= its cost)."""
        return int(node_bound(self.inst.ctx, self.memo, node.T, node.t, node.rule.greens, node.rule.least)) >= node.cost

    def optimum(self, node: _Node, choice: int) -> tuple[int, int]:
        """(opt(T), a best guess row), ``choice`` being attained (so opt <= choice)."""
        if int(node_bound(self.inst.ctx, self.memo, node.T, node.t, node.rule.greens, node.rule.least)) >= choice:
            return choice, node.g
        if memo_size(self.memo) > MEMO_LIMIT:
            self.memo = new_memo()
        v, best = node_value(self.inst, self.memo, node.T, node.t, node.rule, choice + 1)
        if v > choice or best < 0:
            raise InternalError(f"the search found {v} above the attained {choice} at {path_text(node.history, len(node.tree.guess)) or 'root'}")
        return v, (node.g if v == choice else best)


class _Wins:
    """The most-wins-within-K engine (sign -1: loss = optimum - choice)."""

    sign = -1
    objective = "wins"

    def __init__(self, answers: WordList, guesses: WordList, depth: int, hard: bool, F,
                 weights: Weights | None = None):
        self.inst = make_wins_instance(answers, guesses, hard, F, weights)
        self.search = Search(self.inst)
        self.w = as_values(weights, answers)
        self.limit = depth

    def after(self, rule, g: int, pattern: int):
        return self.search.after(rule, g, pattern)

    def score(self, t: int, a: int) -> int:
        """What answer a solved at guess t wins (its weight within the depth)."""
        return int(self.w[a]) if t <= self.limit else 0

    def settled(self, node: _Node) -> bool:
        return node.cost >= self.search.weight(node.T)  # wins_k(T) <= W(T)

    def optimum(self, node: _Node, choice: int) -> tuple[int, int]:
        k = self.limit - node.t + 1
        if choice >= self.search.weight(node.T):
            return choice, node.g
        v, exact = self.search.wins(node.T, k, node.rule, choice + 1)
        if not exact:
            return choice, node.g
        return v, best_guess(self.search, node.T, k, node.rule)


def _build(engine, tree: Tree, T: np.ndarray, t: int, rule, history: tuple, lost: list) -> _Node | None:
    """The tree's nodes with what reaches each (the answers it drops or solves past the limit go to
    ``lost`` with their path); None past the limit of a depth-K audit (nothing is won there)."""
    guesses, answers = engine.inst.guesses, engine.inst.answers
    L = answers.length
    if t > engine.limit:
        if engine.sign < 0:
            return None
        lost.extend(Unsolved(answers.words[a], path_text(history, L)) for a in T)
        return None
    g = guesses.index[tree.guess]
    hit, children, cost = 0, [], 0
    for pattern, P in sorted(classes(engine.inst.F, g, T).items(), key=lambda pc: (len(pc[1]), pc[0])):
        if pattern == all_green(L):
            hit = engine.score(t, int(P[0]))
            cost += hit
            continue
        below = history + ((tree.guess, pattern),)
        child = tree.children.get(pattern)
        if child is None:
            if engine.sign > 0 or t < engine.limit:
                lost.extend(Unsolved(answers.words[a], path_text(below, L)) for a in P)
            continue
        node = _build(engine, child, P, t + 1, engine.after(rule, g, pattern), below, lost)
        if node is not None:
            children.append(node)
            cost += node.cost
    return _Node(tree, T, t, rule, history, g, children, hit, cost)


class _Auditor:
    """The walk: every node's optimum, children first, recording each node and each losing decision."""

    def __init__(self, engine):
        self.engine = engine
        self.nodes: list[NodeAudit] = []
        self.decisions: list[Decision] = []

    def record(self, node: _Node, optimum: int, loss: int, settled: bool, best: int) -> None:
        words = self.engine.inst.guesses.words
        self.nodes.append(NodeAudit(node.history, node.tree.guess, words[best], len(node.T), node.cost, optimum, loss,
                                    settled))
        if loss and node.history:
            self.decisions.append(Decision(path_text(node.history, len(node.tree.guess)), node.tree.guess,
                                           words[best], loss, len(node.T)))

    def choice(self, node: _Node, bar=None) -> int:
        """What the node's guess scores with optimal play below it (its children audited first)."""
        total = node.hit
        for child in node.children:
            total += self.visit(child)
            if bar is not None:
                bar.update(1)
        return total

    def visit(self, node: _Node) -> int:
        """opt of the node (its subtree audited)."""
        engine = self.engine
        if engine.settled(node):
            self.record(node, node.cost, 0, True, node.g)
            return node.cost
        choice = self.choice(node)
        optimum, best = engine.optimum(node, choice)
        self.record(node, optimum, engine.sign * (choice - optimum), False, best)
        return optimum


def optimal_overall(objective: str, limit: int, hard: bool, answers: WordList, guesses: WordList,
                    weights: Weights | None = None) -> tuple[int | None, str | None]:
    """The optimum over every first guess from a committed certificate proving it for these lists (by
    sha256), mode, limit and weights (the sha256 its ``weights`` record; a certificate without one for
    ``weights`` None): (value, the certificate's path in the repository), or (None, None). Fewest guesses: a
    ``fewest-ranking`` certificate (status OPTIMAL); most wins within K: a ``wins-depth-k`` certificate
    over every first guess or a ``wins-global`` one, status OPTIMAL."""
    pattern = "results/wordle/ranking-guesses*-certificate.json" if objective == "guesses" else \
        f"results/wordle/*depth{limit}-certificate.json"
    for path in shipped_results(pattern):
        data = read_json(path, "certificate")
        if not isinstance(data, dict) or data.get("status") != "OPTIMAL" or bool(data.get("hard")) != hard:
            continue
        if (data.get("answers") or {}).get("sha256") != answers.sha256 or \
                (data.get("guesses") or {}).get("sha256") != guesses.sha256 or \
                certificate_weights(data) != (None if weights is None else weights.sha256):
            continue
        kind = kind_of(data, path)
        if objective == "guesses" and kind == "fewest-ranking" and data.get("max_guesses") == limit \
                and data.get("objective") == "guesses" and data.get("best"):
            return int(data["best"]["total"]), f"results/wordle/{path.name}"
        if objective == "wins" and data.get("depth") == limit and (
                kind == "wins-global" or (kind == "wins-depth-k" and not data.get("first_fixed") and not data.get("first"))):
            return int(data["wins"]), f"results/wordle/{path.name}"
    return None, None


def certificate_weights(data: dict) -> str | None:
    """The sha256 of the weights a certificate was proven under (None: unweighted)."""
    recorded = data.get("weights")
    return recorded.get("sha256") if isinstance(recorded, dict) else recorded


def _check_legal(tree: Tree, answers: WordList, guesses: WordList, limit: int, hard: bool, name: str) -> None:
    """A tree whose guesses are not all legal (not allowed, against the hard-mode rule) is refused."""
    bad = [p for p in replay(tree, answers, guesses, limit, hard).invalid if p.kind in ILLEGAL]
    if bad:
        raise ExactError(f"{name}: {len(bad)} illegal node{'s' if len(bad) > 1 else ''} (first: {bad[0].kind} at "
                         f"[{bad[0].path or 'root'}] {bad[0].guess}: {bad[0].message}); `exact wordle verify` lists them")


def _unsolved_error(lost: list[Unsolved], limit: int, name: str, objective: str) -> ExactError:
    shown = "; ".join(f"{u.answer} at [{u.path or 'root'}]" for u in lost[:5]) + ("; ..." if len(lost) > 5 else "")
    where = f"within {limit} guesses" if objective == "guesses" else f"(no branch before guess {limit})"
    return ExactError(f"{name}: {len(lost)} answer{'s' if len(lost) > 1 else ''} not solved {where}: {shown}; "
                      f"--partial audits the answers it solves")


def audit_tree(tree: Tree, answers: WordList, guesses: WordList, *, depth: int | None = None, max_guesses: int = 6,
               hard: bool = False, partial: bool = False, name: str = "the tree",
               progress: bool | None = None, weights: Weights | None = None) -> Audit:
    """Audit ``tree`` on these lists: fewest guesses with every answer within ``max_guesses`` (or, with
    ``depth`` K, most wins within K). A tree that does not solve every answer (within the limit; for a
    depth-K audit, one that drops answers before guess K) is refused naming them, unless ``partial``:
    then it is audited on the answers it solves (and the optimum over every first guess is not known).
    ``weights`` (not unit): every cost and optimum weighted (see the module; unit weights are the
    unweighted audit). An :class:`Audit`; the identity sum of losses = gap is checked (an InternalError
    if broken)."""
    started = time.perf_counter()
    limit = check_guess_limit(depth if depth is not None else max_guesses, "depth" if depth is not None else "max_guesses")
    _check_legal(tree, answers, guesses, limit, hard, name)
    weights = None if weights is None or weights.unit else weights
    as_values(weights, answers)  # weights of other answers: a one-line error now
    F = feedback_matrix(guesses, answers)
    engine = (_Fewest if depth is None else _Wins)(answers, guesses, limit, hard, F, weights)
    T, rule = position(answers, (), hard)
    lost: list[Unsolved] = []
    root = _build(engine, tree, T, 1, rule, (), lost)
    if lost:
        if not partial:
            raise _unsolved_error(lost, limit, name, engine.objective)
        dropped = {answers.index[u.answer] for u in lost}
        root = _build(engine, tree, np.array([a for a in T if a not in dropped], dtype=np.int64), 1, rule, (), [])
    auditor = _Auditor(engine)
    bar = prog.bar(total=len(root.children), desc="audit: classes of the first guess", unit="class",
                   disable=(not progress) if progress is not None else None)
    overall, source = (None, None) if lost else optimal_overall(engine.objective, limit, hard, answers, guesses,
                                                                weights)
    try:
        with bar:
            given_first = auditor.choice(root, bar)
    except KeyboardInterrupt:
        prog.say("interrupted; reporting the decisions audited so far")
        return Audit(engine.objective, limit, hard, len(root.T), tree.guess, root.cost, None, overall, None, None,
                     _largest_first(auditor.decisions), lost, bool(lost), time.perf_counter() - started,
                     auditor.nodes[::-1], source, interrupted=True, weights=weights)
    first_loss = None if overall is None else engine.sign * (given_first - overall)
    auditor.record(root, overall if overall is not None else given_first, first_loss or 0, False, root.g)
    gap = engine.sign * (root.cost - given_first)
    decisions = _largest_first(auditor.decisions)
    if sum(d.loss for d in decisions) != gap or gap < 0 or (first_loss is not None and first_loss < 0):
        raise InternalError(f"the losses add up to {sum(d.loss for d in decisions)}, the gap is {gap} "
                            f"(first guess's loss {first_loss})")
    return Audit(engine.objective, limit, hard, len(root.T), tree.guess, root.cost, given_first, overall, gap,
                 first_loss, decisions, lost, bool(lost), time.perf_counter() - started, auditor.nodes[::-1], source,
                 weights=weights)


def _largest_first(decisions: list[Decision]) -> list[Decision]:
    return sorted(decisions, key=lambda d: (-d.loss, d.path))
