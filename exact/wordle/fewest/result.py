"""The outcome of a fewest-guesses solve (:class:`GuessesResult`), its certificate (kind ``fewest``)
and the comparison of two solves of the same position."""

from __future__ import annotations

from dataclasses import dataclass, field

from exact.feedback import format_pattern
from exact.game.tree import Tree
from exact.wordle.fewest.objective import parse_objective
from exact.words import WordList, list_name


@dataclass
class GuessesResult:
    """The outcome of :func:`solve_guesses`.

    ``status``: OPTIMAL (the value is proven), FEASIBLE (a complete tree, not proven optimal:
    interrupted), INFEASIBLE (no strategy meets the cutoff or the guess limit: ``lower_bound`` says
    how far), UNKNOWN (nothing found). ``total``/``mean`` count guesses from the start of the game
    (the guesses of ``after`` included).
    """

    status: str
    objective: str
    n: int
    max_guesses: int
    hard: bool
    first: str | None  # the guess the tree opens with (at the position after ``after``)
    tree: Tree | None
    total: int | None  # total guesses of the tree, over the n answers
    wins_at: tuple[int, ...]  # answers solved with exactly 1, 2, ... guesses
    cost: int | None  # the objective's weighted value (= total for "guesses")
    lower_bound: int | None  # a proven lower bound on the objective's weighted value
    seconds: float
    cores: int
    nodes: int
    searched: int  # nodes where all guesses were scanned
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    after: tuple[tuple[str, int], ...] = ()
    cutoff: int | None = None
    interrupted: bool = False
    top: list[tuple[str, int]] = field(default_factory=list)  # first guesses evaluated exactly
    first_fixed: bool = False  # the first guess was given (else every allowed guess was searched)
    weights: dict | None = None  # the answer weights' record (exact.weights.Weights.record), None: unit
    weight: int | None = None  # the total weight of the n answers (n without weights)

    @property
    def mean(self) -> float | None:
        """Total / n; with weights, the expected number of guesses: weighted total / total weight."""
        per = self.weight if self.weight else self.n
        return self.total / per if self.total is not None and per else None

    def wins_within(self, k: int) -> int:
        return sum(self.wins_at[:k])

    def to_json(self) -> dict:
        return {
            "objective": self.objective,
            "status": self.status,
            "n": self.n,
            "first": self.first,
            "first_fixed": self.first_fixed,
            "total": self.total,
            "mean": self.mean,
            "cost": self.cost,
            "lower_bound": self.lower_bound,
            "wins_at": list(self.wins_at),
            "wins_within": {str(k): self.wins_within(k) for k in range(1, len(self.wins_at) + 1)},
            "max_guesses": self.max_guesses,
            "hard": self.hard,
            "after": [[g, format_pattern(p, len(g))] for g, p in self.after],
            "cutoff": self.cutoff,
            "interrupted": self.interrupted,
            "top": [{"guess": g, "cost": v} for g, v in self.top],
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "nodes": self.nodes,
            "searched_nodes": self.searched,
            "list": list_name(self.answers, self.guesses),
            "answers": {"source": self.answers.source, "count": len(self.answers), "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "method": METHOD,
            **({"weights": self.weights, "weight": self.weight} if self.weights else {}),
        }

    def certificate(self, *, files=(), compare: GuessesResult | None = None) -> dict:
        """The certificate ``exact wordle solve --objective ... --certificate`` writes (kind
        :data:`CERTIFICATE_KIND`): :meth:`to_json`, ``compare`` (the same search with another guess
        fixed: :func:`compare_results`), and the tree files with the tree's replayed value (checked when
        the result was made, :func:`_result`)."""
        data = {"kind": CERTIFICATE_KIND, **self.to_json()}
        if compare is not None:
            data["compare"] = compare_results(self, compare)
        if files and self.tree is not None:
            data["tree"] = {"files": list(files), "tie_break": "see exact.wordle.fewest.search", "complete": True,
                            "replay": {"total": self.total, "wins_at": list(self.wins_at), "valid": True}}
        return data


#: the ``kind`` of a fewest-guesses certificate (listed in exact.wordle.certificate.CERTIFICATE_KINDS)
CERTIFICATE_KIND = "fewest"

METHOD = ("exact depth-first branch and bound over every allowed guess at every node "
          "(exact.wordle.fewest.search): guess bound h c[t] + (k - h) c[t+1] + (n - k) c[t+2], node bound "
          "c[t] + (n - 1) c[t+1], memo on exact member sets")


def compare_results(best: GuessesResult, other: GuessesResult) -> dict:
    """How much worse ``other`` (a solve with its guess fixed) is than ``best``, in exact values of
    both: totals, means, and the answers lost past each winK level."""
    levels = list(parse_objective(best.objective).wins)

    def value(r):
        if r.tree is None:
            return {"total": None, "mean": None, "lost": None, "status": r.status}
        return {"total": r.total, "mean": r.mean, "lost": [r.n - r.wins_within(k) for k in levels],
                "status": r.status}

    a, b = value(best), value(other)
    both = a["total"] is not None and b["total"] is not None
    return {"guess": other.first, "value": b, "best_guess": best.first, "best_value": a, "levels": levels,
            "extra_guesses": b["total"] - a["total"] if both else None,
            "extra_mean": (b["total"] - a["total"]) / best.n if both else None,
            "extra_lost": [y - x for x, y in zip(a["lost"], b["lost"])] if both else None}
