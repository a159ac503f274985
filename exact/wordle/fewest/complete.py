"""Completing a strategy tree: every branch a tree lacks filled with a fewest-guesses subtree.

Trees optimised for wins within k (the depth-k DP, memorable trees, policies) stop at their depth;
a player and the peers' formats want every answer solved. :func:`complete_tree` keeps every guess of
the tree and fills the rest with the exact search of :mod:`exact.wordle.fewest.search`;
:func:`complete_and_check` then replays the result independently (:func:`exact.game.tree.replay_position`).

Why the completed tree is the depth-k search's own output, not a second file beside a truncated one:
the completion is a function of the depth-k tree and the lists alone (the tree's guesses above its last
step, the exact ``win<k>,guesses`` subtree of each class at that step, ties broken by the search's
fixed order), so ``exact wordle solve --depth K --out`` (:func:`exact.wordle.wins.trees.optimal_tree`)
writes the same bytes on every re-solve, and the certificate's claim (the wins within k) holds of it
unchanged; ``--truncate`` still writes the cut tree, and ``exact wordle complete`` completes any tree
file the same way. Where no complete tree keeps the wins within ``--max-guesses`` (hard mode's traps),
nothing is written and the error names the class: the player's way out is more guesses (the committed
hard-mode depth-3 trees end within 8) or another objective (``--objective win3,guesses``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from exact.errors import ExactError, InternalError
from exact.feedback import feedback  # noqa: F401 (doctests)
from exact.game.hard import Constraint
from exact.game.position import position
from exact.game.tree import Tree, replay_position
from exact.partitions import classes, feedback_matrix
from exact.wordle.fewest.objective import Objective
from exact.wordle.fewest.search import GuessesInstance, Infeasible, constraint_after, make_guesses_instance, subtree
from exact.wordle.fewest.memo import new_memo
from exact.words import WordList, check_answers_are_guesses


def complete_tree(tree: Tree, answers: WordList, guesses: WordList, max_guesses: int = 6,
                  hard: bool = False, depth: int | None = None, after=(),
                  F: np.ndarray | None = None, keep_leaves: bool = False) -> Tree:
    """The tree with every answer solved within ``max_guesses``: each missing branch is filled with
    a fewest-guesses subtree (exact: the search of :func:`solve_guesses` on that class).

    ``depth``: the tree's optimised depth. A leaf at that step that answers still reach (a node
    that wins one of them and loses the rest) is replaced by the best subtree for the objective
    ``win<depth>,guesses`` on that class (solve one answer at this step, then fewest guesses),
    which names an answer of the class at that step, as the leaf did: so the wins within ``depth``
    are unchanged. Every other guess of the tree is kept (and those leaves too, with
    ``keep_leaves``: then only the branches below them are filled). When the guesses kept leave a
    class that no strategy solves within ``max_guesses`` (hard mode has such traps), the nearest
    node above it at a step <= ``depth`` (not the root) is re-solved with ``win<depth>,guesses``: the most wins
    within ``depth`` that a complete subtree can have there; :func:`complete_and_check` then
    checks that the wins within ``depth`` did not change. ``after``: guesses played before the
    tree's root (its step is len(after) + 1).

    >>> from exact.words import words_from_lines
    >>> A = words_from_lines(["caber", "cabin", "cable", "cache"])
    >>> t = complete_tree(Tree("cabin", 4, {}), A, A, max_guesses=3)
    >>> sorted(t.children) == sorted({feedback("cabin", a) for a in A if a != "cabin"})
    True
    """
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    history = tuple(after)
    T, rule = position(answers, history, hard)
    plain = make_guesses_instance(answers, guesses, Objective(()), max_guesses, hard, F)
    filler = _Filler(answers, guesses, F, max_guesses, hard, depth, keep_leaves, len(history) + 1, plain,
                     {"plain": new_memo()})
    return filler.visit(tree, T, len(history) + 1, rule)


@dataclass
class _Filler:
    """The completion of one tree (:func:`complete_tree`): its lists and options, the instance of
    the plain objective, the instances of ``win<k>,guesses`` made on demand, a memo for each."""

    answers: WordList
    guesses: WordList
    F: np.ndarray
    max_guesses: int
    hard: bool
    depth: int | None
    keep_leaves: bool
    root_step: int
    plain: GuessesInstance
    memos: dict
    leaf_insts: dict[int, GuessesInstance] = field(default_factory=dict)

    def fill(self, T: np.ndarray, t: int, rule: Constraint) -> Tree:
        """A missing branch: the fewest-guesses subtree of its answers."""
        if t > self.max_guesses:
            raise Infeasible(f"{len(T)} answers reach guess {t}, past max_guesses = {self.max_guesses}")
        return subtree(self.plain, self.memos["plain"], T, t, rule)

    def leaf(self, T: np.ndarray, t: int, rule: Constraint) -> Tree:
        """A leaf replaced: the best subtree for ``win<k>,guesses`` (k: the depth, else this step)."""
        k = self.depth if self.depth is not None else t
        if k not in self.leaf_insts:
            self.leaf_insts[k] = make_guesses_instance(self.answers, self.guesses, Objective((k,)), self.max_guesses,
                                                       self.hard, self.F)
            self.memos[k] = new_memo()
        return subtree(self.leaf_insts[k], self.memos[k], T, t, rule)

    def visit(self, node: Tree, T: np.ndarray, t: int, rule: Constraint) -> Tree:
        """The node kept, or re-solved as a leaf when what it keeps below cannot be completed."""
        try:
            return self.keep(node, T, t, rule)
        except Infeasible:
            if self.depth is None or t > self.depth or t == self.root_step:
                raise  # past the optimised depth, or at the root: the tree's own first guess is the trap
            return self.leaf(T, t, rule)

    def keep(self, node: Tree, T: np.ndarray, t: int, rule: Constraint) -> Tree:
        """The node's guess kept, each class visited (a child of the tree) or filled (none)."""
        if len(T) == 0:
            return node
        if node.guess not in self.guesses.index:
            raise ExactError(f"the tree plays {node.guess!r}, which is not in {self.guesses.source}")
        g = self.guesses.index[node.guess]
        split = {p: P for p, P in classes(self.F, g, T).items() if p != self.plain.green}
        if self.depth is not None and t == self.depth and not node.children and split and not self.keep_leaves:
            return self.leaf(T, t, rule)
        if t >= self.max_guesses and split:
            raise Infeasible(f"answers reach guess {t + 1} after {node.guess!r}, past max_guesses = "
                             f"{self.max_guesses}")
        children = {}
        for p, P in sorted(split.items()):
            below = constraint_after(self.plain, rule, g, p)
            child = node.children.get(p)
            children[p] = self.visit(child, P, t + 1, below) if child is not None else self.fill(P, t + 1, below)
        return Tree(node.guess, len(T), children)


def complete_and_check(tree: Tree, answers: WordList, guesses: WordList, depth: int, max_guesses: int = 6,
                       hard: bool = False, after=(), F: np.ndarray | None = None, keep_leaves: bool = False):
    """(the completed tree, its replay): :func:`complete_tree`, then an independent replay that must
    solve every answer within ``max_guesses`` and keep the wins within ``depth``, else an InternalError
    (a ``depth`` above ``max_guesses`` is an ExactError)."""
    if depth > max_guesses:
        raise ExactError(f"depth {depth} is more than max_guesses {max_guesses}", params=("depth", "max_guesses"))
    before = replay_position(tree, answers, guesses, after, depth, hard)
    try:
        done = complete_tree(tree, answers, guesses, max_guesses, hard, depth=depth, after=after, F=F,
                             keep_leaves=keep_leaves)
    except Infeasible as e:
        raise Infeasible(f"max_guesses: the tree cannot be completed within {max_guesses} guesses: {e}; "
                         f"allow more guesses, or keep the depth-limited tree (truncate)") from None
    played = replay_position(done, answers, guesses, after, max_guesses, hard)
    kept = sum(played.wins_at[:depth])
    if played.valid and not played.lost and kept < before.wins:  # a trap re-solved above (complete_tree)
        raise Infeasible(f"max_guesses: the tree cannot be completed within {max_guesses} guesses keeping its "
                         f"{before.wins} wins within {depth} (a complete tree keeps {kept}: some class needs more "
                         f"guesses, a hard-mode trap); allow more guesses, or keep the depth-limited tree (truncate)")
    if not played.valid or played.lost or kept != before.wins:
        raise InternalError(f"the completed tree replays to {kept} wins within {depth} (before: {before.wins}; "
                            f"{len(played.invalid)} invalid nodes, {len(played.lost)} unsolved)")
    return done, played
