"""The fallback player: the fewest total guesses over the candidates left, guessing only remaining candidates
(and, given probes, those words too), exact over that choice of guesses by branch and bound
(:class:`FewestGuesses`); a plan completed with it (:func:`complete`) and the guesses each answer takes
through a plan (:func:`guesses_to_solve`). ``exact wordle play`` plays on with it where no proven tree
reaches, and ``exact plot``/``export`` complete trees with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from exact.errors import ExactError, InternalError
from exact.feedback import all_green, compute_feedback_matrix, format_pattern
from exact.game.position import Position, word_classes
from exact.game.tree import Tree

#: Above this many candidates the fallback only tries the guesses that make the most classes.
FALLBACK_EXACT_MAX = 150
FALLBACK_WIDTH = 25
#: The fallback also tries this many probe words (allowed guesses outside the candidates) at nodes
#: with at most PROBE_MAX candidates.
PROBES = 10
PROBE_MAX = 40


class Choice(NamedTuple):
    """The fallback's answer at a node: its cost (total guesses) and the guess that attains it."""

    cost: int
    guess: int


class FewestGuesses:
    """The fallback: the fewest total guesses to solve every candidate, guessing candidates and, when
    ``guesses`` is given, a few *probe* words that split the candidates better.

    cost(T) = min over the guesses g tried at T of |T| + sum over the non-green classes P of g on T of
    cost(P), with cost({a}) = 1 (a guess outside T has no green class). Guesses tried at T: every
    candidate, plus (with ``guesses``, for 3 <= |T| <= :data:`PROBE_MAX`) the :data:`PROBES` allowed
    words outside T that make the most classes on T. Exact over that choice of guesses.

    Branch and bound: every answer needs a guess, and every answer but the one guessed needs at
    least two, so cost(P) >= 2|P| - 1 and a guess making c classes on T costs at least 3|T| - 1 - c
    (a candidate) or 3|T| - c (a probe). Guesses are tried by that bound (then candidates before
    probes, then list order: the tie-break), and a guess is dropped once its classes so far plus the
    bounds of the rest reach the best found. Above :data:`FALLBACK_EXACT_MAX` candidates only the
    :data:`FALLBACK_WIDTH` candidates with the most classes are tried at that node.

    With ``weights`` (word -> positive integer, a prior) answer a's guesses count w_a times: cost(T) =
    W(T) + sum over the non-green classes of cost(P), cost({a}) = w_a (W: the total weight). The bounds,
    re-argued: at most one answer of P (weighing at most max_P w, the heaviest) is solved by P's first
    guess, every other needs two, so cost(P) >= 2 W(P) - max_P w. A candidate g making c classes on T
    leaves c - 1 non-green classes partitioning T - {g}; their heaviest answers are distinct answers of
    T, so they weigh at most top_{c-1}(T), the c - 1 heaviest weights of T, and g costs at least
    W(T) + 2 (W(T) - w_g) - top_{c-1}(T); a probe (no green class) at least 3 W(T) - top_c(T). Unit
    weights give the bounds above exactly (top_c = c), so the same guesses in the same order.

    >>> f = FewestGuesses(("caber", "cabin", "cable"))
    >>> f.tree(("caber", "cabin", "cable")).guess, f.cost(("caber", "cabin", "cable")), f.cost(("cabin", "cable"))
    ('caber', 5, 3)
    """

    def __init__(self, words: Sequence[str] | None = None, guesses: Sequence[str] | None = None,
                 weights: dict[str, int] | None = None):
        self._words = tuple(words) if words is not None else None
        self._guesses = tuple(guesses) if guesses is not None else None
        self._weights = weights
        self._F = None
        self._memo: dict[bytes, Choice] = {}
        self.name = ("fallback: fewest guesses, guessing candidates and probe words" if guesses is not None
                     else "fallback: fewest guesses, guessing only candidates")

    def _indices(self, T: Sequence[str]) -> np.ndarray:
        if self._words is None:
            self._words = tuple(T)
        if self._F is None:
            self._index = {w: i for i, w in enumerate(self._words)}
            self._F = compute_feedback_matrix(self._words, self._words)
            self._G = None if self._guesses is None else compute_feedback_matrix(self._guesses, self._words)
            self._green = all_green(len(self._words[0]))
            self._w = np.array([self._weights[w] if self._weights else 1 for w in self._words], dtype=np.int64)
        try:
            return np.array(sorted(self._index[w] for w in T), dtype=np.int64)
        except KeyError as e:
            raise ExactError(f"{e.args[0]!r} is not one of the fallback's {len(self._words)} words") from None

    def _row(self, g: int, T: np.ndarray) -> np.ndarray:
        """The feedback of guess g (a candidate's index >= 0, or -1 - a probe's row) on T."""
        return self._F[g, T] if g >= 0 else self._G[-1 - g, T]

    def _word(self, g: int) -> str:
        return self._words[g] if g >= 0 else self._guesses[-1 - g]

    def _split(self, g: int, T: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """[(pattern, class)] of guess g on T (classes in list order)."""
        row = self._row(g, T)
        perm = np.argsort(row, kind="stable")
        pats = row[perm]
        starts = np.flatnonzero(np.r_[True, pats[1:] != pats[:-1]])
        return [(int(pats[a]), P) for a, P in zip(starts, np.split(T[perm], starts[1:]))]

    def _low(self, P: np.ndarray) -> int:
        """The lower bound 2 W(P) - max_P w on cost(P) (the class docstring; 2|P| - 1 unweighted)."""
        w = self._w[P]
        return 2 * int(w.sum()) - int(w.max())

    def _options(self, T: np.ndarray) -> list[tuple[int, int, int]]:
        """(bound, order, guess) of the guesses tried at T, best bound first (the class docstring)."""
        n = len(T)
        wT = self._w[T]
        W = int(wT.sum())
        top = np.concatenate([[0], np.cumsum(np.sort(wT)[::-1])])  # top[c]: the c heaviest weights of T
        counts = 1 + np.count_nonzero(np.diff(np.sort(self._F[np.ix_(T, T)], axis=1), axis=1), axis=1)
        options = [(3 * W - 2 * int(wT[i]) - int(top[c - 1]), i, int(g)) for i, (g, c) in enumerate(zip(T, counts))]
        options.sort()
        if n > FALLBACK_EXACT_MAX:
            options = options[:FALLBACK_WIDTH]
        if self._G is not None and 3 <= n <= PROBE_MAX:
            sub = np.sort(self._G[:, T], axis=1)
            probe_counts = 1 + np.count_nonzero(np.diff(sub, axis=1), axis=1)
            best = np.argsort(-probe_counts, kind="stable")[: PROBES + n]
            inside = {self._words[t] for t in T}
            # A probe making one class learns nothing (and would recurse on T itself): never tried.
            rows = [int(r) for r in best if probe_counts[r] > 1 and self._guesses[r] not in inside][:PROBES]
            options += [(3 * W - int(top[probe_counts[r]]), n + j, -1 - r) for j, r in enumerate(rows)]
            options.sort()
        return options

    def _best(self, T: np.ndarray) -> Choice:
        """cost(T) and the guess that attains it."""
        n = len(T)
        if n == 1:
            return Choice(int(self._w[T[0]]), int(T[0]))
        key = T.tobytes()
        if key in self._memo:
            return self._memo[key]
        best_cost, best_guess = None, None
        for bound, _, g in self._options(T):
            if best_cost is not None and bound >= best_cost:
                break
            rest = sorted((P for p, P in self._split(g, T) if p != self._green), key=len, reverse=True)
            total, remaining = int(self._w[T].sum()), sum(self._low(P) for P in rest)
            for P in rest:
                remaining -= self._low(P)
                total += self._best(P).cost
                if best_cost is not None and total + remaining >= best_cost:
                    break
            else:
                if best_cost is None or total < best_cost:
                    best_cost, best_guess = total, g
        self._memo[key] = Choice(best_cost, best_guess)
        return self._memo[key]

    def cost(self, T: Sequence[str]) -> int:
        return self._best(self._indices(T)).cost

    def node_tree(self, T: np.ndarray) -> Tree:
        g = self._best(T).guess
        children = {p: self.node_tree(P) for p, P in self._split(g, T) if p != self._green}
        return Tree(self._word(g), len(T), children)

    def tree(self, T: Sequence[str]) -> Tree:
        return self.node_tree(self._indices(T))

    def plan(self, position: Position) -> Tree | None:
        return self.tree(position.candidates) if position.candidates else None


def complete(plan: Tree | None, candidates: Sequence[str], fallback: FewestGuesses) -> Tree:
    """The plan with every branch it lacks (for these candidates) filled by the fallback."""
    if plan is None:
        return fallback.tree(candidates)
    green = all_green(len(plan.guess))
    children = {}
    for p, P in sorted(word_classes(plan.guess, candidates).items()):
        if p != green:
            children[p] = complete(plan.children.get(p), P, fallback)
    return Tree(plan.guess, len(candidates), children)


def guesses_to_solve(plan: Tree, candidates: Sequence[str], strict: bool = True) -> dict[str, int | None]:
    """How many guesses a plan plays until each candidate is guessed (1: the root guess).

    A candidate whose feedback has no child is an internal error for a complete plan (``strict``);
    otherwise it maps to None (the plan never finds it).
    """
    out: dict[str, int | None] = {}

    def visit(node: Tree, reaching: Sequence[str], step: int) -> None:
        for p, P in word_classes(node.guess, reaching).items():
            if p == all_green(len(node.guess)):
                out[P[0]] = step
            elif p in node.children:
                visit(node.children[p], P, step + 1)
            elif strict:
                raise InternalError(f"the plan has no guess after {node.guess} "
                                    f"{format_pattern(p, len(node.guess))}")
            else:
                out.update((a, None) for a in P)

    visit(plan, candidates, 1)
    return out
