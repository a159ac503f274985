"""Fewest guesses over every first guess: the exact value of the best ones, a proven bound on the
others (the ranking of first guesses, Selby's "which first word is best, and by how much").

Data. A ranking maps each first guess (a word of the allowed list) to ``{"total": N}`` (its exact
fewest-guesses total: the best complete strategy that opens with it) or ``{"at_least": N}`` (a
proven lower bound on that total, N >= the threshold it was rejected against). A first guess is
rejected or valued by :func:`first_value`, in stages, each cheaper than the next and each a valid
lower bound (the arguments are in :mod:`exact.wordle.guesses`):

1. every class of the first guess gets its bound (:func:`exact.wordle.guesses._bound`: the node
   bound with Selby's wide term ``3n - 1 + max(0, n - m)``, made sharper in O(n^2), or the memo's);
2. each class, largest first, gets the look-ahead bound one guess deeper
   (:func:`exact.wordle.guesses._lookahead`: the least, over every second guess, of the sum of the
   bounds of its classes), against the threshold that is left;
3. classes are solved exactly, smallest first, each against the threshold that is left (an exact
   value lowers the threshold of the larger classes after it).

The guess is rejected as soon as the exact values plus the bounds of the other classes reach the
threshold: that sum is its ``at_least``. The memo (exact values and lower bounds of answer sets)
is shared by every first guess of a run, so what one proves the next reuses.

The threshold of a run: ``cutoff + 1`` (``--cutoff T``: values <= T are wanted exactly), lowered to
the value of the N-th best first guess valued so far (``--top N``): a first guess that cannot beat
it cannot enter the top N. A checkpoint is a JSON-lines file, one line per first guess done
(``{"guess": w, "total": N}`` or ``{"guess": w, "at_least": N}``), after a header line naming the
lists (sha256), the mode and the cutoff; a resumed run skips the guesses it holds.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact import progress as prog
from exact.errors import ExactError
from exact.partitions import split_by_guess
from exact.wordle.guesses import (INF, GuessesInstance, Rule, _after, _bound, _lookahead, cores,
                                  make_guesses_instance, new_memo, node_value, parse_objective,
                                  position, subtree)
from exact.wordle.tree import Tree
from exact.words import WordList, require_in_pool

MEMO_LIMIT = 5_000_000  # memo entries kept before the memo is started afresh


@dataclass
class FirstValue:
    """One first guess: ``total`` exact (``exact``) or a proven lower bound (not ``exact``)."""

    guess: str
    total: int
    exact: bool
    seconds: float
    stage: str  # where it was decided: bounds, lookahead, exact

    def to_json(self) -> dict:
        return {"total": self.total} if self.exact else {"at_least": self.total}


def first_value(inst: GuessesInstance, memo, S: np.ndarray, g: int, t: int, rule: Rule, thr: int,
                stats: np.ndarray | None = None) -> tuple[int, bool, str]:
    """(cost of playing guess row g on S at step t, exact?, stage): exact when below ``thr``, else
    a proven lower bound >= thr."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    classes = split_by_guess(inst.F, g, S)
    total = int(inst.cost[t]) if inst.green in classes else 0
    parts = [(P, _after(inst, rule, g, p)) for p, P in classes.items() if p != inst.green]
    lower = [int(_bound(inst.ctx, memo, np.ascontiguousarray(P, dtype=np.int64), t + 1, r[0], r[1]))
             for P, r in parts]
    total = min(total + sum(lower), int(INF))
    if total >= thr:
        return total, False, "bounds"
    by_size = sorted(range(len(parts)), key=lambda i: (len(parts[i][0]), i))
    if thr < INF:
        for i in reversed(by_size):
            P, r = parts[i]
            if len(P) < 3:
                break
            beta = thr - (total - lower[i])
            v = int(_lookahead(inst.ctx, memo, np.ascontiguousarray(P, dtype=np.int64), t + 1, r[0], r[1],
                               np.int64(beta)))
            if v > lower[i]:
                total = min(total + v - lower[i], int(INF))
                lower[i] = v
                if total >= thr:
                    return total, False, "lookahead"
    for i in by_size:
        P, r = parts[i]
        beta = thr - (total - lower[i]) if thr < INF else INF
        v, _ = node_value(inst, memo, P, t + 1, r, beta, stats=stats)
        total = min(total - lower[i] + max(v, lower[i]), int(INF))
        lower[i] = max(v, lower[i])
        if v >= beta:
            return max(total, thr), False, "exact"
    return total, total < thr, "exact"


def first_tree(inst: GuessesInstance, memo, S: np.ndarray, g: int, t: int, rule: Rule) -> Tree:
    """The tree of first guess g, its classes' subtrees read from the memo (solved if absent)."""
    children = {}
    for p, P in sorted(split_by_guess(inst.F, g, S).items()):
        if p != inst.green:
            children[p] = subtree(inst, memo, P, t + 1, _after(inst, rule, g, p))
    return Tree(inst.guesses.words[g], len(S), children)
