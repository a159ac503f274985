"""Simple second-guess policies, built into trees and scored exactly.

A policy plays a fixed first guess, then at every later guess but the last picks the guess that
is best for the answers still possible (the class P the feedback so far leaves) by one metric,
and at the last guess plays a still-possible answer (the first of P in list order that is an
allowed guess; if none is, the first allowed guess, which wins nothing). With depth 3
a first-guess class P therefore wins exactly the number of classes the policy's second guess makes
on P, and the whole tree wins the sum of that over P.

Policies (candidates; metric; ties, in order):

- ``most-classes``: every allowed guess; most classes on P;
- ``most-classes-answers``: the allowed guesses that are answers (anywhere in the answer list);
  most classes on P;
- ``most-classes-consistent``: the answers still possible (P itself); most classes on P;
- ``min-worst``: every allowed guess; smallest largest class; then most classes;
- ``max-entropy``: every allowed guess; most entropy of the class an answer of P falls in
  (rounded to 1e-9 bits, so equal histograms tie);

then, for every policy, a guess that is a still-possible answer (it can win now) before one that is
not, then the smaller largest class, then the earlier guess in the guess list. For depth 3 the
``most-classes`` value is the optimum for that first guess, since wins_2(P) is the most classes any
guess makes on P.

Data types: ``F`` is the (guesses, answers) feedback matrix of :mod:`exact.partitions`; a class ``P``
is an int array of answer indices; trees are :class:`exact.game.tree.Tree`.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["caber", "cabin", "cable", "cache"])
>>> e = evaluate_policy(A, A, "cabin", "most-classes", depth=2)
>>> e.wins, e.n, e.tree.children[feedback("cabin", "cable")].guess
(3, 4, 'caber')
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from exact.errors import ExactError, InternalError
from exact.feedback import all_green, feedback
from exact.partitions import classes, feedback_matrix
from exact.game.tree import Replay, Tree, replay
from exact.wordle.fewest.complete import complete_and_check
from exact.words import WordList, check_answers_are_guesses, require_in_pool

POLICIES = ("most-classes", "most-classes-answers", "most-classes-consistent", "min-worst", "max-entropy")


def class_stats(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per guess row of a feedback submatrix (guesses x the answers of P): classes, worst, entropy.

    The entropy is in bits, of the class an answer of P falls in.

    >>> s = class_stats(np.array([[0, 0, 1, 1], [0, 0, 0, 1]], dtype=np.uint8))
    >>> s["classes"].tolist(), s["worst"].tolist(), s["entropy"].round(3).tolist()
    ([2, 2], [2, 3], [1.0, 0.811])
    """
    classes, worst, entropy = _class_stats(np.ascontiguousarray(rows), int(rows.max(initial=0)) + 1)
    return {"classes": classes, "worst": worst, "entropy": entropy}


@numba.njit(cache=True)
def _class_stats(rows, patterns):
    n_rows, n = rows.shape
    classes = np.zeros(n_rows, dtype=np.int64)
    worst = np.zeros(n_rows, dtype=np.int64)
    entropy = np.zeros(n_rows, dtype=np.float64)
    counts = np.zeros(patterns, dtype=np.int64)
    for g in range(n_rows):
        for a in range(n):
            counts[rows[g, a]] += 1
        c_log_c = 0.0
        for p in range(patterns):
            c = counts[p]
            if c:
                classes[g] += 1
                worst[g] = max(worst[g], c)
                c_log_c += c * np.log2(c)
                counts[p] = 0
        # H = log2 n - sum_C |C| log2 |C| / n
        entropy[g] = np.log2(n) - c_log_c / n if n else 0.0
    return classes, worst, entropy


def candidates(policy: str, P: np.ndarray, answer_rows: np.ndarray, n_guesses: int) -> np.ndarray:
    """The guess rows a policy searches for class P (``answer_rows[a]``: answer a's guess row or -1)."""
    if policy in ("most-classes", "min-worst", "max-entropy"):
        return np.arange(n_guesses)
    rows = answer_rows if policy == "most-classes-answers" else answer_rows[P]
    return np.unique(rows[rows >= 0])


def choose(F: np.ndarray, policy: str, P: np.ndarray, answer_rows: np.ndarray) -> int:
    """The guess row the policy plays on class P (ties as in the module docstring)."""
    rows = candidates(policy, P, answer_rows, F.shape[0])
    if rows.size == 0:
        raise ExactError(f"policy {policy} has no candidate guess (no answer of the class is an allowed guess)")
    sub = F[:, P] if rows.size == F.shape[0] else F[np.ix_(rows, P)]
    stats = class_stats(sub)
    possible = np.isin(rows, answer_rows[P])
    primary = {
        "min-worst": [stats["worst"], -stats["classes"]],
        "max-entropy": [-np.round(stats["entropy"], 9)],
    }.get(policy, [-stats["classes"]])
    keys = primary + [~possible, stats["worst"], rows]
    return int(rows[np.lexsort(keys[::-1])[0]])


def policy_tree(F: np.ndarray, answers: WordList, guesses: WordList, first: int, policy: str, depth: int) -> Tree:
    """The policy's tree on all answers, first guess row ``first``."""
    answer_rows = np.array([guesses.index.get(a, -1) for a in answers.words])
    green = all_green(answers.length)

    def node(P: np.ndarray, step: int) -> Tree:
        if step > 1 and (step == depth or len(P) == 1):
            # The last guess (or a lone answer): a still-possible answer, which wins one.
            playable = [a for a in P if answer_rows[a] >= 0]
            return Tree(answers.words[playable[0]] if playable else guesses.words[0], len(P), {})
        g = first if step == 1 else choose(F, policy, P, answer_rows)
        if step == depth:
            return Tree(guesses.words[g], len(P), {})
        children = {p: node(Q, step + 1) for p, Q in classes(F, g, P).items() if p != green}
        return Tree(guesses.words[g], len(P), children)

    return node(np.arange(len(answers)), 1)


def walked_tree_wins(tree: Tree, answers: WordList, depth: int) -> int:
    """Wins counted while walking the answers down the tree (the policy's own count)."""
    total = 0
    for a in answers.words:
        node, step = tree, 1
        while node is not None and step <= depth:
            if node.guess == a:
                total += 1
                break
            node, step = node.children.get(feedback(node.guess, a)), step + 1
    return total


@dataclass(frozen=True)
class Evaluation:
    first: str
    policy: str
    depth: int
    wins: int
    n: int
    second_guesses: int  # distinct words played second
    tree: Tree
    replay: Replay
    lists: dict  # the answer and guess lists' sources and sha256

    @property
    def probability(self) -> float:
        return self.wins / self.n

    def to_json(self) -> dict:
        return {
            "first": self.first,
            "policy": self.policy,
            "depth": self.depth,
            "wins": self.wins,
            "n": self.n,
            "probability": self.probability,
            "second_guesses": self.second_guesses,
            "wins_at": list(self.replay.wins_at),
            "lost": len(self.replay.lost),  # the words: write the tree with --out, then verify --json
            "valid": self.replay.valid,
            **self.lists,
        }


def evaluate_policy(answers: WordList, guesses: WordList, first: str, policy: str, depth: int = 3,
                    max_guesses: int | None = None) -> Evaluation:
    """Build the policy's tree after ``first`` and score it by an independent replay.

    With ``max_guesses``, the tree is then completed below its last guesses by the exact
    fewest-guesses search (:func:`exact.wordle.fewest.complete.complete_and_check`), so that it solves
    every answer within ``max_guesses``; its wins within ``depth`` are unchanged.
    """
    if policy not in POLICIES:
        raise ExactError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    check_answers_are_guesses(answers, guesses)
    require_in_pool([first], guesses, "first")
    F = feedback_matrix(guesses, answers)
    tree = policy_tree(F, answers, guesses, guesses.index[first], policy, depth)
    result = replay(tree, answers, guesses, depth)
    walked = walked_tree_wins(tree, answers, depth)
    if result.wins != walked or not result.valid or result.notes:
        raise InternalError(f"policy tree and replay disagree: {result.wins} vs {walked}, "
                            f"invalid {result.invalid[:3]}")
    seconds = {c.guess for c in tree.children.values()} if depth > 1 else set()
    lists = {"answers": answers.source, "answers_sha256": answers.sha256,
             "guesses": guesses.source, "guesses_sha256": guesses.sha256}
    if max_guesses is not None:
        tree, played = complete_and_check(tree, answers, guesses, depth, max_guesses, F=F, keep_leaves=True)
        lists["complete"] = {"max_guesses": max_guesses, "wins_at": list(played.wins_at),
                             "total_guesses": sum((k + 1) * w for k, w in enumerate(played.wins_at))}
    return Evaluation(first, policy, depth, result.wins, result.n, len(seconds), tree, result, lists)
