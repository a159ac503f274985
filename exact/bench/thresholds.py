"""What re-deriving each record against its own bound costs, against the thresholds verify used before
(``python -m exact.bench.thresholds CERT old|new [--sample 40] [--seed 1]``, one run for each, one after the other).

A ranking's records drawn as ``exact wordle verify --sample N --seed S`` draws them
(:func:`exact.wordle.rederive.chosen`, in the search's order), each evaluated by the certificate's search,
warmed up first, against the threshold ``new`` (:func:`exact.wordle.rederive.fewest_claims` /
:func:`exact.wordle.rederive.wins_claims`: a bound b against b, a pruned bound b against b + 1) or ``old``
(the baseline, kept here: a fewest-guesses bound against min(b, the run's floor raised to the proven value),
a pruned bound against the optimum, or max(b + 1, min(optimum, proven + 1)) for a ranking). Prints the CPU
seconds of the evaluations themselves (``time.process_time``: every thread), which a loaded machine changes
less than their wall time. Data: the certificate's JSON; thresholds by guess.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from exact.game.position import position
from exact.partitions import feedback_matrix
from exact.wordle import rederive
from exact.wordle.certificate import find_file, ranking_floor
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.ranking import FewestSearch
from exact.wordle.fewest.ranking import first_guess_order as fewest_order
from exact.wordle.fewest.search import make_guesses_instance
from exact.wordle.wins.ranking import BATCH, WinsSearch
from exact.wordle.wins.ranking import first_guess_order as wins_order
from exact.words import WordList, read_words


def wins_thresholds(data: dict, which: str) -> dict[str, int]:
    """The threshold of each record of a global depth-k certificate, old or new."""
    outcomes = data["first_guess_outcomes"]
    if which == "new":
        return {g: c.threshold for g, c in rederive.wins_claims(outcomes).items()}
    values = sorted((r["value"] for r in outcomes if r["exact"]), reverse=True)
    proven = values[data["proven_top"] - 1] if data.get("proven_top") else None
    optimum = data["wins"]

    def old(r: dict) -> int:
        if r["exact"]:
            return r["value"]
        return optimum if proven is None else max(r["value"] + 1, min(optimum, proven + 1))
    return {r["guess"]: old(r) for r in outcomes}


def fewest_thresholds(data: dict, which: str) -> dict[str, int]:
    """The threshold of each record of a fewest-guesses ranking, old or new."""
    records = {w: (r.get("total", r.get("at_least")), "total" in r) for w, r in data["first_guesses"].items()}
    if which == "new":
        return {w: c.threshold for w, c in rederive.fewest_claims(records).items()}
    exact = sorted(x for x, e in records.values() if e)
    floor = ranking_floor(data, exact)
    if data["proven_top"] >= 1:
        floor = max(floor, exact[data["proven_top"] - 1])
    return {w: x + 1 if e else min(x, floor) for w, (x, e) in records.items()}


def search_of(data: dict, A: WordList, G: WordList, words: list[str]) -> tuple:
    """(the certificate's search, prepared, and its order of the first guesses)."""
    if "first_guess_outcomes" in data:
        F = feedback_matrix(G, A)
        search = WinsSearch(A, G, data["depth"], data["hard"], BATCH, F)
        search.prepare()
        return search, [G.words[g] for g in wins_order(A, G, F)]
    inst = make_guesses_instance(A, G, parse_objective(data["objective"]), data["max_guesses"], data["hard"])
    T, rule = position(A, (), data["hard"])
    search = FewestSearch(A, G, data["hard"], data["max_guesses"], data.get("cutoff"), data.get("top", 1),
                          data["objective"], inst.F)
    search.prepare(inst)
    return search, fewest_order(inst, T, 1, rule, words)


def run(path: Path, which: str, sample: int, seed: int) -> float:
    """CPU seconds of evaluating the sample against the ``which`` thresholds (printed with the count)."""
    data = json.loads(path.read_text())
    A = read_words(find_file(data["answers"]["source"], path))
    G = read_words(find_file(data["guesses"]["source"], path))
    thresholds = (wins_thresholds if "first_guess_outcomes" in data else fewest_thresholds)(data, which)
    search, order = search_of(data, A, G, list(thresholds))
    search.warm_up()
    words = rederive.chosen(thresholds, order, sample, seed)
    cpu = 0.0
    for word in words:
        started = time.process_time()
        search.evaluate(word, thresholds[word])
        cpu += time.process_time() - started
    print(f"{path.name} {which} thresholds: {len(words)} records, {cpu:.2f} CPU-s in the evaluations")
    return cpu


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("certificate", type=Path)
    parser.add_argument("which", choices=("old", "new"))
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.certificate, args.which, args.sample, args.seed)
