"""The objectives of the fewest-guesses search: a lexicographic list of levels (``win3,guesses``, ...)
or ``feasible``, and the cost table c[0 .. max_guesses + 2] each one gives the search
(:mod:`exact.wordle.fewest.search` explains how the levels become one weighted sum)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.errors import ExactError
from exact.fileio import is_decimal
from exact.wordle.fewest.memo import INF


@dataclass(frozen=True)
class Objective:
    """A lexicographic list of levels: ``winK`` (most answers within K guesses), then ``guesses``;
    or ``feasible``: any tree that solves every answer within max_guesses (every step costs 0, a step
    past the limit INF), so a search stops at the first such tree and a node is refuted only by a
    bound that is infinite: the question "do N guesses suffice?", settled either way."""

    wins: tuple[int, ...]  # the K of each winK level, highest priority first
    feasible: bool = False

    @property
    def name(self) -> str:
        if self.feasible:
            return "feasible"
        return ",".join([f"win{k}" for k in self.wins] + ["guesses"])

    def costs(self, max_guesses: int, n: int) -> np.ndarray:
        """The cost table c[0 .. max_guesses + 2] (c[s] = INF past max_guesses; c[0] unused)."""
        if self.feasible:
            c = np.full(max_guesses + 3, INF, dtype=np.int64)
            c[:max_guesses + 1] = 0
            return c
        weights = []
        w = max_guesses * max(n, 1) + 1
        for _ in self.wins:
            weights.append(w)
            w = (max(n, 1) + 1) * w
        weights.reverse()  # weights[j] for wins[j]: the first level weighs most
        c = np.full(max_guesses + 3, INF, dtype=np.int64)
        for s in range(1, max_guesses + 1):
            c[s] = s + sum(wj for k, wj in zip(self.wins, weights) if s > k)
        if c[max_guesses] >= INF // 4096:
            raise ExactError(f"objective {self.name}: too many levels for {n} answers")
        c[0] = 0
        return c


def parse_objective(text: str) -> Objective:
    """``guesses``, ``win3,guesses``, ``win3,win4,guesses`` ... (``guesses`` is implied last), or
    ``feasible`` alone.

    >>> parse_objective("win3,guesses").wins, parse_objective("win2,win4").name
    ((3,), 'win2,win4,guesses')
    >>> parse_objective("feasible").name
    'feasible'
    """
    levels = [part.strip().lower() for part in str(text).split(",") if part.strip()]
    if not levels:
        raise ExactError("objective: give 'guesses' or a list such as 'win3,guesses'")
    if "feasible" in levels:
        if levels != ["feasible"]:
            raise ExactError(f"objective {text!r}: 'feasible' stands alone")
        return Objective((), True)
    wins: list[int] = []
    for i, level in enumerate(levels):
        if level == "guesses":
            if i != len(levels) - 1:
                raise ExactError(f"objective {text!r}: 'guesses' must be the last level")
        elif level.startswith("win") and is_decimal(level[3:]) and int(level[3:]) >= 1:
            k = int(level[3:])
            if k in wins:
                raise ExactError(f"objective {text!r}: {level} appears twice")
            wins.append(k)
        else:
            raise ExactError(f"objective {text!r}: unknown level {level!r} (use winK with K >= 1, or guesses; "
                             "or feasible alone)")
    return Objective(tuple(wins))
