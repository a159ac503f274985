"""Paired timings: two engines on the same work, in pairs whose order alternates, the ratio from the medians.

A benchmark that always runs A before B credits B with whatever A leaves warm (caches, pages of the
feedback matrix, the allocator's pools) and charges it whatever load arrives later. Here pair i runs A
first when i is even and B first when i is odd (A B, B A, A B, ...: over two pairs the order ABBA), so
each engine runs first as often as the other (with an even number of pairs), and each engine's time is
the median of its times over the pairs, which one disturbed run does not move much; the ratio is the
ratio of those medians. With one pair the order is fixed (A first), and the output says so.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from exact.errors import InternalError


@dataclass
class Pair:
    """One pair of runs: which engine ran first, and each engine's seconds."""

    index: int
    first: str
    seconds: dict[str, float]

    def to_json(self) -> dict:
        return {"pair": self.index + 1, "first": self.first,
                "seconds": {name: round(s, 3) for name, s in self.seconds.items()}}


@dataclass
class Paired:
    """The pairs of runs of two engines ``names`` (A, B) and each engine's results, pair by pair."""

    names: tuple[str, str]
    pairs: list[Pair] = field(default_factory=list)
    results: dict[str, list[Any]] = field(default_factory=dict)

    def median(self, name: str) -> float:
        return statistics.median(p.seconds[name] for p in self.pairs)

    def ratio(self, top: str, bottom: str) -> float:
        """median seconds of ``top`` / median seconds of ``bottom``."""
        below = self.median(bottom)
        return self.median(top) / below if below > 0 else float("inf")

    def order(self) -> str:
        """The order of the runs, said in words."""
        a, b = self.names
        if len(self.pairs) == 1:
            return f"one pair, {a} first (not alternated: give two pairs or more for that)"
        shown = " ".join("AB" if p.first == a else "BA" for p in self.pairs)
        return f"order alternated by pair: {shown} (A = {a}, B = {b}); times are medians over {len(self.pairs)} pairs"

    def lines(self) -> list[str]:
        """One line a pair: its order and both engines' seconds."""
        return [f"  pair {p.index + 1} ({p.first} first): "
                + ", ".join(f"{name} {p.seconds[name]:.2f} s" for name in self.names) for p in self.pairs]

    def to_json(self) -> dict:
        return {"pairs": [p.to_json() for p in self.pairs], "order": self.order(),
                **{f"median_{name}_seconds": round(self.median(name), 3) for name in self.names}}


def run_pairs(runs: dict[str, Callable[[], Any]], repeats: int, seconds: Callable[[Any], float] | None = None,
              check: Callable[[dict[str, Any]], None] | None = None) -> Paired:
    """``repeats`` pairs of the two ``runs`` (name -> a call doing the work), pair i in the order of
    ``runs`` when i is even and reversed when odd. ``seconds``: an engine's time from its result (the
    time it reports itself); None: the wall time of the call. ``check``: called on each pair's results
    (name -> result), to raise when the engines disagree."""
    if len(runs) != 2 or repeats < 1:
        raise InternalError(f"paired runs need two engines and a pair at least, not {len(runs)} and {repeats}")
    names = tuple(runs)
    paired = Paired(names, results={name: [] for name in names})
    for i in range(repeats):
        order = names if i % 2 == 0 else names[::-1]
        got, took = {}, {}
        for name in order:
            started = time.perf_counter()
            got[name] = runs[name]()
            took[name] = time.perf_counter() - started if seconds is None else seconds(got[name])
        if check is not None:
            check(got)
        for name in names:
            paired.results[name].append(got[name])
        paired.pairs.append(Pair(i, order[0], {name: took[name] for name in names}))
    return paired
