"""The trees of the depth-k DP (:mod:`exact.wordle.wins.dp`): an optimal tree by a fixed tie-break, completed.

Tie-break: at every node the guess of highest value; among equals, a guess that is itself a candidate
answer (it may win at once), then the earliest in the guess list (:data:`TIE_BREAK`).

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"])
>>> t = best_tree(A, A, 2, "abide")
>>> t.guess, t.answers
('abide', 6)
"""

from __future__ import annotations

import numpy as np

from exact.errors import ExactError, InternalError
from exact.game.hard import Constraint
from exact.game.position import position
from exact.game.tree import Replay, Tree, replay_position
from exact.partitions import classes, largest_first
from exact.wordle.fewest.complete import complete_and_check
from exact.weights import Weights
from exact.wordle.wins.dp import BATCH, Search, allowed_rows, effective_depth, make_wins_instance
from exact.wordle.wins.result import SolveResult
from exact.words import WordList

TIE_BREAK = ("at every node the guess of highest value; among equals a guess that is itself a "
             "remaining answer, then the earliest in the guess list")


def best_tree(answers: WordList, guesses: WordList, depth: int, first: str, hard: bool = False,
              F: np.ndarray | None = None, after=(), weights: Weights | None = None) -> Tree:
    """An optimal tree that opens with ``first`` (after the guesses ``after``), by the tie-break
    rule in the module docstring (the most weight with ``weights``). It stops at ``depth``: see
    :func:`optimal_tree` for a complete one."""
    inst = make_wins_instance(answers, guesses, hard, F, weights)
    search = Search(inst)
    T, rule = position(answers, tuple(after), hard)
    k = effective_depth(depth - len(tuple(after)), len(T))
    return node_tree(search, T, k, rule, inst.guesses.index[first])


def optimal_tree(result: SolveResult, max_guesses: int = 6, truncate: bool = False,
                 F: np.ndarray | None = None) -> tuple[Tree, dict, "Replay"]:
    """The tree of a solved result, checked by an independent replay: (tree, summary, replay).

    The first guess is chosen by :func:`tie_break_first`, the rest by :func:`best_tree`. Unless
    ``truncate``, the tree is then completed (:func:`exact.wordle.fewest.complete.complete_tree`): every
    answer is solved within ``max_guesses``, the part past ``depth`` by the exact fewest-guesses
    search, with the wins within ``depth`` unchanged. The replay must give the result's wins (and,
    completed, solve every answer), else this raises: a wrong tree is never written.
    """
    if result.status == "UNKNOWN":
        raise ExactError("no tree: the search found nothing")
    answers, guesses = result.answers, result.guesses
    root = tie_break_first(result)
    tree = best_tree(answers, guesses, result.depth, root, result.hard, F, result.after, result.weights)
    if not truncate:
        # with weights the leaves at the depth are kept (each wins its class's heaviest answer, which the
        # completion's fewest-guesses choice among the class need not be)
        tree, _ = complete_and_check(tree, answers, guesses, result.depth, max_guesses, result.hard,
                                     after=result.after, F=F, keep_leaves=result.weights is not None)
    played = replay_position(tree, answers, guesses, result.after, max_guesses if not truncate else result.depth,
                             result.hard)
    wins = sum(played.wins_at[:result.depth]) if result.weights is None else weight_won(tree, result)
    if wins != result.wins or not played.valid or (not truncate and played.lost):
        raise InternalError(f"the tree replays to {wins} wins within {result.depth} "
                            f"({len(played.invalid)} invalid nodes, {len(played.lost)} answers unsolved), "
                            f"not {result.wins}")
    info = {"first": root, "tie_break": TIE_BREAK, "complete": not truncate,
            "max_guesses": max_guesses if not truncate else result.depth,
            "replay": {"wins": wins, "valid": played.valid, "solved": played.wins,
                       "total_guesses": sum((k + 1) * w for k, w in enumerate(played.wins_at)),
                       "wins_at": list(played.wins_at)}}
    return tree, info, played


def weight_won(tree: Tree, result: SolveResult) -> int:
    """The weight of the answers the tree wins within the result's depth, by an independent replay."""
    within = replay_position(tree, result.answers, result.guesses, result.after, result.depth, result.hard)
    index, w = result.answers.index, result.weights.values
    return result.weight - sum(int(w[index[a]]) for a in within.lost)


def node_tree(search: Search, T: np.ndarray, k: int, rule: Constraint, g: int) -> Tree:
    """The optimal tree below a node: ``g`` played on T with k guesses left, each class by :func:`best_guess`."""
    inst = search.inst
    children = {}
    if k > 1:
        for pattern, P in largest_first(classes(inst.F, g, T)):
            if pattern != inst.green:
                below = search.after(rule, g, pattern)
                children[pattern] = node_tree(search, P, k - 1, below, best_guess(search, P, k - 1, below))
    return Tree(inst.guesses.words[g], len(T), dict(sorted(children.items())))


def best_guess(search: Search, T: np.ndarray, k: int, rule: Constraint) -> int:
    """The guess the tie-break picks among those attaining wins_k(T)."""
    inst = search.inst
    if k == 1 or len(T) <= 2:  # any candidate wins all of T with two guesses left; with one, the heaviest
        heavy = inst.w if inst.w is not None and k == 1 else np.ones(len(inst.answers), dtype=np.int64)
        return min((-int(heavy[a]), inst.guesses.index[inst.answers.words[a]]) for a in T)[1]
    if k == 2:
        cands = allowed_rows(inst, np.arange(len(inst.guesses), dtype=np.int64), rule)
        values = search.values2(cands, T)
        exact = np.ones(len(cands), dtype=bool)
    else:  # the first guess in tie-break order (in T first, each part in list order) attaining wins_k(T)
        best, _ = search.wins(T, k, rule)
        cands = allowed_rows(inst, np.arange(len(inst.guesses), dtype=np.int64), rule)
        in_T = np.isin(inst.in_answers[cands], T)
        ordered = np.concatenate([cands[in_T], cands[~in_T]])
        step = BATCH if k == 3 else 1
        for lo in range(0, len(ordered), step):
            chunk = ordered[lo:lo + step]
            values, exact = search.value_many(chunk, T, k, rule, best)
            hit = np.flatnonzero(exact & (values == best))
            if len(hit):
                return int(chunk[hit[0]])
        raise InternalError(f"no guess attains wins_{k} = {best} on a set of {len(T)} answers")
    top = values[exact].max()
    winners = cands[exact & (values == top)]
    in_T = np.isin(inst.in_answers[winners], T)
    pool = winners[in_T] if in_T.any() else winners
    return int(pool.min())


def tie_break_first(result: SolveResult) -> str:
    """The first guess of the tree: among the optimal ones, an answer if any, then the earliest guess."""
    words = result.optimal_first
    answers = [w for w in words if w in result.answers.index] or words
    return min(answers, key=result.guesses.index.__getitem__)
