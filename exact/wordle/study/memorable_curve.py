"""The M-curve of memorable trees: the best depth-3 tree after a fixed first guess for each number M of
distinct second guesses (:func:`exact.wordle.study.memorable.solve_memorable` at each M), its JSON, its
resume and the tree of each point (``exact wordle memorable --curve``).
"""

from __future__ import annotations

from pathlib import Path

from exact.errors import ExactError
from exact.feedback import all_green
from exact.fileio import is_decimal, read_json, write_json, write_text
from exact.game.formats import write_tree
from exact.game.tree import record_lists
from exact.partitions import feedback_matrix
from exact.weights import Weights, as_values
from exact.wordle.study.memorable import MemorableResult, first_classes, solve_memorable
from exact.words import WordList

def default_m_values(classes: int) -> list[int]:
    """1, 2, 3, 5, 10, 20, 30, ... up to the number of first-feedback classes (included)."""
    values = [1, 2, 3, 5] + list(range(10, classes, 10)) + [classes]
    return sorted({m for m in values if m <= classes})


class Curve(list):
    """The points of a curve, in M order; ``interrupted`` when Ctrl-C or SIGTERM cut it short."""

    def __init__(self, points=(), interrupted: bool = False):
        super().__init__(points)
        self.interrupted = interrupted


def memorable_curve(answers: WordList, guesses: WordList, first: str, m_values: list[int] | None = None, *,
                    time_limit: float | None = 60, workers: int = 2, progress=None,
                    weights: Weights | None = None) -> list[MemorableResult]:
    """solve_memorable for each M, sharing the feedback matrix, the classes and the full cover; the
    full cover's size is added to the M values (from there on the curve is flat)."""
    F = feedback_matrix(guesses, answers)
    weights = None if weights is None or weights.unit else weights
    classes = first_classes(F, guesses.index[first], all_green(answers.length),
                            None if weights is None else as_values(weights, answers))
    if m_values is None:
        m_values = default_m_values(len(classes.members))
    points = []
    try:
        for M in m_values:
            points.append(solve_memorable(answers, guesses, first, M, time_limit=time_limit, workers=workers,
                                          F=F, classes=classes, weights=weights))
            if progress:
                progress(points[-1])
            if points[-1].interrupted:
                return Curve(points, interrupted=True)
    except KeyboardInterrupt:  # keep the points finished so far
        if not points:
            raise
        return Curve(points, interrupted=True)
    cover = classes.full_cover[0] if classes.full_cover else []
    if cover and len(cover) not in m_values:
        points.append(solve_memorable(answers, guesses, first, len(cover), time_limit=time_limit,
                                      workers=workers, F=F, classes=classes, weights=weights))
        points.sort(key=lambda r: r.M)
    return Curve(points)


def curve_json(points: list[MemorableResult], answers: WordList, guesses: WordList,
               earlier: dict | None = None) -> dict:
    """The curve as data; ``earlier``: points (as data, by M) of a run resumed, kept where not re-solved."""
    first = points[0]
    return {
        "problem": "best depth-3 tree with a fixed first guess using at most M distinct second guesses",
        "first": first.first, "n": first.n, "classes": first.stats["classes"],
        "unconstrained": first.unconstrained,
        "full_cover": first.stats.get("full_cover"),
        "answers": {"source": answers.source, "count": len(answers), "sha256": answers.sha256},
        "guesses": {"source": guesses.source, "count": len(guesses), "sha256": guesses.sha256},
        "workers": first.workers,
        "points": sorted([{"M": r.M, "wins": r.wins, "bound": r.bound, "probability": round(r.probability, 6),
                           "status": r.status, "seconds": round(r.seconds, 1), "second_guesses": r.second_guesses,
                           "stats": r.stats} for r in points]
                         + [p for m, p in (earlier or {}).items() if m not in {r.M for r in points}],
                         key=lambda p: p["M"]),
        "interrupted": bool(getattr(points, "interrupted", False)) or any(r.interrupted for r in points),
        **({"weights": first.weights.record(), "weight": first.total} if first.weights is not None else {}),
    }


def parse_m_values(text: str, most: int) -> list[int]:
    """"1,2,5-8" -> [1, 2, 5, 6, 7, 8] (sorted, distinct); an :class:`ExactError` naming ``M`` on
    anything else, a range that runs backwards, or an M above ``most`` (the first guess's feedback
    classes, at most 3**length: more distinct second guesses than classes change nothing).

    >>> parse_m_values("1,2,5-8", 243)
    [1, 2, 5, 6, 7, 8]
    """
    values = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if not is_decimal(low) or not is_decimal(high or low):
            raise ExactError(f"m_values {text!r:.40}: give whole numbers or ranges a-b separated by commas",
                             params=("m_values",))
        a, b = int(low), int(high or low)
        if a < 1 or b < a or b > most:
            raise ExactError(f"m_values: {part.strip()!r:.20} is not a range within 1-{most} "
                             "(write the smaller number first)", params=("m_values",))
        values.update(range(a, b + 1))
    return sorted(values)


def read_curve_points(path) -> dict[int, dict]:
    """The points of a curve file written before, by M (an interrupted point is left to be solved again)."""
    return {p["M"]: p for p in read_json(path)["points"] if not p["stats"].get("interrupted")}


def write_point_tree(result: MemorableResult, folder, answers: WordList, guesses: WordList):
    """Write the point's depth-3 tree to ``folder/FIRST-mM.txt``; return the path."""
    path = Path(folder) / f"{result.first}-m{result.M}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_tree(record_lists(result.tree, answers, guesses), path, answers=answers)
    return path


def write_curve(data: dict, path) -> None:
    """The curve as JSON at ``path`` and as CSV beside it (same name, .csv)."""
    path = Path(path)
    write_json(path, data)
    rows = ["M,wins,bound,n,probability,status,seconds"]
    rows += [f"{p['M']},{p['wins']},{p['bound']},{data['n']},{p['probability']},{p['status']},{p['seconds']}"
             for p in data["points"]]
    write_text(path.with_suffix(".csv"), "\n".join(rows) + "\n")
