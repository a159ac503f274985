"""The result of the depth-k search (:func:`exact.wordle.wins.dp.solve`): the most answers won within k
guesses, its first guesses, and the certificate ``exact wordle solve --depth K --certificate`` writes
(the fewest-guesses engine's is :mod:`exact.wordle.fewest.result`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from exact.feedback import format_pattern
from exact.game.tree import WinsWithin
from exact.weights import Weights
from exact.words import WordList, list_name


@dataclass
class SolveResult(WinsWithin):
    wins: int
    n: int
    depth: int
    hard: bool
    status: str  # OPTIMAL (proved), FEASIBLE (interrupted: the best found so far), or UNKNOWN (nothing)
    optimal_first: list[str]  # first guesses attaining ``wins`` (all of them when all_optimal_first)
    top: list[tuple[str, int]]  # the best first guesses with exact values, best first
    evaluated: int  # first guesses considered
    exact_count: int  # of which evaluated exactly (the rest pruned by a bound)
    seconds: float
    cores: int
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    first: str | None = None  # the fixed first guess, if any
    method: str = ""
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: the values are the best found so far
    after: tuple = ()  # (guess, pattern) pairs played before the position solved
    timed_out: bool = False  # stopped by ``time_limit``: the values are the best found so far
    all_optimal_first: bool = True  # optimal_first lists every optimal first guess
    #: answer weights (not unit): ``wins`` is then the weight won within ``depth`` of ``weight``, the total
    #: weight of the ``n`` answers, and P(win) = wins / weight
    weights: Weights | None = field(default=None, repr=False)
    weight: int | None = None

    def to_json(self) -> dict:
        return {
            **self.wins_fields(),
            "status": self.status,
            "first": self.first,
            "first_fixed": self.first is not None,
            "scope": (f"strategies opening with {self.first}" if self.first
                      else "all strategies (every first guess)"),
            "optimal_first": self.optimal_first,
            "top": [{"guess": g, "wins": v} for g, v in self.top],
            "first_guesses_considered": self.evaluated,
            "first_guesses_exact": self.exact_count,
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "list": list_name(self.answers, self.guesses),
            "answers": {"source": self.answers.source, "count": len(self.answers), "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "method": self.method,
            "interrupted": self.interrupted,
            **({"timed_out": True} if self.timed_out else {}),
            **({"all_optimal_first": False} if not self.all_optimal_first and self.status == "OPTIMAL" else {}),
            **({"after": [[g, format_pattern(p, len(g))] for g, p in self.after]} if self.after else {}),
            **({"weights": self.weights.record(), "weight": self.weight} if self.weights is not None else {}),
        }

    def certificate(self, *, files=(), tree_info: dict | None = None, played=None,
                    compare: SolveResult | None = None) -> dict:
        """The certificate ``exact wordle solve --certificate`` writes (kind :data:`CERTIFICATE_KIND`):
        :meth:`to_json`, ``compare`` (the same solve with its first guess fixed) against this one, and
        the tree files with the summary and replay of :func:`exact.wordle.wins.trees.optimal_tree`
        (``tree_info``, ``played``); files asked for but no tree built: ``tree`` is null."""
        data = {"kind": CERTIFICATE_KIND, **self.to_json()}
        if compare is not None:
            data["compare"] = {"guess": compare.first, "wins": compare.wins, "best_guess": self.optimal_first[0],
                               "best_wins": self.wins, "fewer_wins": self.wins - compare.wins}
        if files:
            data["tree"] = None if tree_info is None else {"files": list(files), **tree_info,
                                                           "report": played.to_json()}
        return data


#: the ``kind`` of a depth-k certificate (listed with the others in exact.wordle.certificate.CERTIFICATE_KINDS)
CERTIFICATE_KIND = "wins-depth-k"


METHOD = ("exact DP wins_k(T) = max_g sum_P wins_{k-1}(P); wins_2 by scanning guesses in decreasing "
          "class count on the node's answers (stop when that count <= best); a guess abandoned when "
          "exact class values so far + min(|P|, bound) for the rest < threshold; first guesses pruned "
          "only strictly below the 10th best exact value (exact.wordle.wins.dp)")
