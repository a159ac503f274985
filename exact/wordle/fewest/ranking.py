"""Fewest guesses over every first guess: the exact value of the best ones, a proven bound on the
others (the ranking of first guesses, Selby's "which first word is best, and by how much").

Data. A ranking maps each first guess (a word of the allowed list) to ``{"total": N}`` (its exact
fewest-guesses total: the best complete strategy that opens with it) or ``{"at_least": N}`` (a
proven lower bound on that total, N >= the threshold it was rejected against). A first guess is
rejected or valued by :func:`first_value`, in stages, each cheaper than the next and each a valid
lower bound (the arguments are in :mod:`exact.wordle.fewest.search`):

1. every class of the first guess gets its bound (:func:`exact.wordle.fewest.lower_bounds.node_bound`: the node
   bound with Selby's wide term ``3n - 1 + max(0, n - m)``, made sharper in O(n^2), or the memo's);
2. each class, largest first, gets the look-ahead bound one guess deeper
   (:func:`exact.wordle.fewest.scan.lookahead`: the least, over every second guess, of the sum of the
   bounds of its classes), against the threshold that is left;
3. classes are solved exactly, smallest first, each against the threshold that is left (an exact
   value lowers the threshold of the larger classes after it).

The guess is rejected as soon as the exact values plus the bounds of the other classes reach the
threshold: that sum is its ``at_least``. The memo (exact values and lower bounds of answer sets)
is shared by every first guess of a run, so what one proves the next reuses.

The threshold of a run (the driver's name for the kernels' ``beta``): ``cutoff + 1`` (``--cutoff T``:
values <= T are wanted exactly), lowered to
the value of the N-th best first guess valued so far (``--top N``): a first guess that cannot beat
it cannot enter the top N. A checkpoint is a JSON-lines file, one line per first guess done
(``{"guess": w, "total": N}`` or ``{"guess": w, "at_least": N}``), after a header line naming the
lists (sha256), the mode, the cutoff and the weights' sha256; a resumed run skips the guesses it holds.

Weights (:mod:`exact.weights`): a first guess's value is the weighted total ``sum_a w_a c[s(a)]``
(expected guesses = value / total weight). Every stage stays a lower bound: the class bounds and the
look-ahead are the weighted kernels' (their arguments are in :mod:`exact.wordle.fewest.lower_bounds`),
the answer the first guess hits costs ``w_a c[t]``, and the value of a first guess is the sum of its
classes' values, so a sum of lower bounds of the classes is a lower bound of it, weights or not.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact import firstguess
from exact import progress as prog
from exact.errors import ExactError, InternalError
from exact.feedback import feedback
from exact.fileio import read_text
from exact.firstguess import whole
from exact.partitions import classes
from exact.game.hard import Constraint
from exact.game.position import position
from exact.game.tree import Tree, replay_position
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.search import (Branch, GuessesInstance, constraint_after, make_guesses_instance, node_value,
                                        subtree)
from exact.wordle.fewest.lower_bounds import node_bound
from exact.wordle.fewest.scan import candidates, lookahead
from exact.wordle.fewest.memo import INF, memo_size, new_memo
from exact.weights import Weights, as_values
from exact.words import WordList, require_in_pool, words_from_lines

MEMO_LIMIT = 2_000_000  # memo entries kept before the memo is started afresh


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


@dataclass
class ClassSearch:
    """One class's exact search inside :func:`first_value` (for profiling): its size, its lower bound
    before the search, the value found (at least ``class_beta`` when the search stopped there), the
    threshold it was searched against and the seconds it took."""

    size: int
    lower: int
    value: int
    class_beta: int
    seconds: float


def first_value(inst: GuessesInstance, memo, T: np.ndarray, g: int, t: int, rule: Constraint, beta: int,
                stats: np.ndarray | None = None, searches: list | None = None,
                bounds_only: bool = False) -> tuple[int, bool, str]:
    """(cost of playing guess row g on T at step t, exact?, stage): exact when below ``beta``, else
    a proven lower bound >= beta (``beta``: :mod:`exact.wordle.fewest.kernels`, Search). ``searches``, if
    given, receives a :class:`ClassSearch` for each class searched exactly. ``bounds_only``: stop after the
    class bounds and the look-ahead (stages 1 and 2), returning their proven lower bound, below ``beta`` or
    not (a cheap check of a bound, :func:`exact.wordle.rederive.one_record`)."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    split = classes(inst.F, g, T)
    total = int(inst.cost[t]) * int(inst.ctx.weight[inst.ctx.row_answer[g]]) if inst.green in split else 0
    parts = [Branch(p, np.ascontiguousarray(P, dtype=np.int64), constraint_after(inst, rule, g, p))
             for p, P in split.items() if p != inst.green]
    lower = [int(node_bound(inst.ctx, memo, b.members, t + 1, b.rule.greens, b.rule.least)) for b in parts]
    total = min(total + sum(lower), int(INF))
    if total >= beta:
        return total, False, "bounds"
    by_size = sorted(range(len(parts)), key=lambda i: (len(parts[i].members), i))
    if beta < INF:
        for i in reversed(by_size):
            P, r = parts[i].members, parts[i].rule
            if len(P) < 3:
                break
            class_beta = beta - (total - lower[i])
            v = int(lookahead(inst.ctx, memo, P, t + 1, r.greens, r.least, np.int64(class_beta)))
            if v > lower[i]:
                total = min(total + v - lower[i], int(INF))
                lower[i] = v
                if total >= beta:
                    return total, False, "lookahead"
    if bounds_only:
        return total, False, "lookahead"
    for i in by_size:
        P, r = parts[i].members, parts[i].rule
        class_beta = beta - (total - lower[i]) if beta < INF else INF
        started = time.perf_counter()
        v, _ = node_value(inst, memo, P, t + 1, r, class_beta, stats=stats)
        if searches is not None:
            searches.append(ClassSearch(len(P), lower[i], int(v), int(class_beta), time.perf_counter() - started))
        total = min(total - lower[i] + max(v, lower[i]), int(INF))
        lower[i] = max(v, lower[i])
        if v >= class_beta:
            return max(total, beta), False, "exact"
    return total, total < beta, "exact"


def first_tree(inst: GuessesInstance, memo, T: np.ndarray, g: int, t: int, rule: Constraint) -> Tree:
    """The tree of first guess g, its classes' subtrees read from the memo (solved if absent)."""
    children = {}
    for p, P in sorted(classes(inst.F, g, T).items()):
        if p != inst.green:
            children[p] = subtree(inst, memo, P, t + 1, constraint_after(inst, rule, g, p))
    return Tree(inst.guesses.words[g], len(T), children)


# --- the ranking --------------------------------------------------------------------------------

FORMAT = "exact-ranking-guesses/1"
METHOD = ("every first guess valued exactly or rejected with a proven bound (exact.wordle.fewest.ranking): "
          "class bounds (node bound with the wide term 3n - 1 + max(0, n - m), O(n^2) sharpening), a "
          "look-ahead bound one guess deeper, then exact branch and bound (exact.wordle.fewest.search) of the "
          "classes smallest first against the threshold left; one memo shared by every first guess")
MUST_MATCH = ("format", "hard", "max_guesses", "objective", "weights")


@dataclass
class Ranking:
    """Every first guess done so far: ``values`` word -> FirstValue, in the order they were done."""

    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    hard: bool
    max_guesses: int
    cutoff: int | None
    top: int
    values: dict[str, FirstValue]
    firsts: list[str]  # every first guess asked for, in evaluation order
    seconds: float
    cores: int
    interrupted: bool = False
    objective: str = "guesses"  # or "feasible": 0 for a first guess after which every answer is solved in time
    tree: Tree | None = None  # the optimal tree of the best first guess (when it was built)
    weights: Weights | None = None  # the answers' weights (None: every answer 1)

    @property
    def weight(self) -> int:
        """The total weight of the answers (their number without weights)."""
        return len(self.answers) if self.weights is None else self.weights.total

    @property
    def exact(self) -> list[tuple[str, int]]:
        """The first guesses valued exactly, best first (ties: list order)."""
        return sorted(((w, v.total) for w, v in self.values.items() if v.exact),
                      key=lambda wv: (wv[1], self.guesses.index[wv[0]]))

    @property
    def open(self) -> list[str]:
        return [w for w in self.firsts if w not in self.values]

    @property
    def least_bound(self) -> int | None:
        """The least ``at_least`` of the first guesses rejected (None if none)."""
        return min((v.total for v in self.values.values() if not v.exact), default=None)

    @property
    def proven_top(self) -> int:
        """How many of the best exact values are proven the best: every first guess rejected has a
        bound at least that value, and every first guess asked for is done."""
        if self.open:
            return 0
        least = self.least_bound
        return sum(1 for _, v in self.exact if least is None or v <= least)

    @property
    def status(self) -> str:
        """OPTIMAL: every first guess valued or bounded and the best value is no more than every
        bound; INFEASIBLE: all done and none valued (none within the cutoff); FEASIBLE: some valued,
        some first guesses still open; UNKNOWN: none valued yet."""
        if not self.open:
            if self.exact:
                return "OPTIMAL" if self.proven_top >= 1 else "FEASIBLE"
            return "INFEASIBLE"
        return "FEASIBLE" if self.exact else "UNKNOWN"

    def to_json(self) -> dict:
        best = self.exact[0] if self.exact else None
        n = len(self.answers)
        weighed = {"weights": self.weights.record(), "weight": self.weights.total} if self.weights else {}
        return {
            "format": FORMAT,
            "objective": self.objective,
            "status": self.status,
            "hard": self.hard,
            "mode": "hard" if self.hard else "normal",
            "max_guesses": self.max_guesses,
            "cutoff": self.cutoff,
            "top": self.top,
            "best": {"guess": best[0], "total": best[1], "mean": best[1] / self.weight} if best else None,
            "proven_top": self.proven_top,
            "top_values": [{"guess": w, "total": v} for w, v in self.exact[:max(self.top, 10)]],
            "least_bound": self.least_bound,
            "first_guesses_done": len(self.values),
            "first_guesses_asked": len(self.firsts),
            "open": len(self.open),
            "first_guesses": {w: self.values[w].to_json() for w in self.firsts if w in self.values},
            "answers": {"source": self.answers.source, "count": n, "sha256": self.answers.sha256},
            "guesses": {"source": self.guesses.source, "count": len(self.guesses), "sha256": self.guesses.sha256},
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "method": METHOD,
            **weighed,
        }

    def certificate(self, *, files=(), first_source: str | None = None) -> dict:
        """The certificate ``exact wordle rank --objective ... --certificate`` writes (kind
        :data:`CERTIFICATE_KIND`): :meth:`to_json` (with ``first_source``, the file of the first guesses
        asked for when they were not every guess, as ``first_guesses_source``) and, when the tree of the
        best was built, its files and its replay from scratch, which must give the best value (else an
        internal error)."""
        data = {"kind": CERTIFICATE_KIND, **self.to_json(),
                **({"first_guesses_source": first_source} if first_source is not None else {})}
        if self.tree is None:
            return data
        played = replay_position(self.tree, self.answers, self.guesses, (), self.max_guesses, self.hard)
        total = weighted_total(self.tree, self.answers, self.weights, self.max_guesses, played.wins_at)
        value = 0 if self.objective == "feasible" else total  # the tree's value under the objective
        if not played.valid or played.lost or value != self.exact[0][1]:
            raise InternalError(f"the tree of {self.tree.guess} does not replay to its value")
        data["tree"] = {"guess": self.tree.guess, "files": list(files), "complete": True,
                        "replay": {"total": total, "wins_at": list(played.wins_at), "valid": True}}
        return data


def weighted_total(tree: Tree, answers: WordList, weights: Weights | None, max_guesses: int,
                   wins_at: list[int]) -> int:
    """The tree's total ``sum_a w_a (guesses to a)`` (``wins_at``'s counting total without weights):
    each answer walked down the tree from scratch."""
    if weights is None:
        return sum((k + 1) * w for k, w in enumerate(wins_at))
    total = 0
    for a, w in zip(answers.words, as_values(weights, answers).tolist()):
        node, step = tree, 1
        while node is not None and node.guess != a and step <= max_guesses:
            node, step = node.children.get(int(feedback(node.guess, a))), step + 1
        if node is None or step > max_guesses:
            raise InternalError(f"the tree of {tree.guess} does not reach {a!r} within {max_guesses}")
        total += w * step
    return total


#: the ``kind`` of a ranking certificate (listed in exact.wordle.certificate.CERTIFICATE_KINDS)
CERTIFICATE_KIND = "fewest-ranking"


def make_header(answers: WordList, guesses: WordList, hard: bool, max_guesses: int, cutoff, top,
                objective: str = "guesses", weights: Weights | None = None) -> dict:
    """A checkpoint's header; ``weights`` the weights' sha256 (None without weights: old checkpoints match)."""
    return {"format": FORMAT, "objective": objective, "hard": hard, "max_guesses": max_guesses,
            "cutoff": cutoff, "top": top, "weights": None if weights is None else weights.sha256,
            "answers": {"source": answers.source, "count": len(answers), "sha256": answers.sha256},
            "guesses": {"source": guesses.source, "count": len(guesses), "sha256": guesses.sha256}}


class FewestSearch(firstguess.Search):
    """The fewest-guesses value of a first guess against a threshold (lower is tighter: ``base`` =
    cutoff + 1, or the ``top``-th best exact value known if lower); per process, the instance and one
    memo shared by every first guess (started afresh past :data:`MEMO_LIMIT` entries)."""

    FORMAT, KIND, MUST_MATCH, LISTS = FORMAT, "ranking", MUST_MATCH, ("answers", "guesses")
    ABANDONABLE = True  # the memo of an abandoned search is not used again: the run ends

    def __init__(self, answers: WordList, guesses: WordList, hard: bool, max_guesses: int, cutoff, top: int,
                 objective: str, F: np.ndarray | None, weights: Weights | None = None):
        self.answers, self.guesses, self.hard, self.max_guesses, self.F = answers, guesses, hard, max_guesses, F
        self.weights = weights
        self.cutoff, self.top, self.objective = cutoff, top, objective
        self.cutoff_beta = int(INF) if cutoff is None else cutoff + 1  # a value there or above is only bounded

    def header(self) -> dict:
        return make_header(self.answers, self.guesses, self.hard, self.max_guesses, self.cutoff, self.top,
                           self.objective, self.weights)

    def to_json(self, v: FirstValue) -> dict:
        return {"guess": v.guess, **v.to_json(), "seconds": round(v.seconds, 3), "stage": v.stage}

    def from_json(self, d: dict) -> FirstValue:
        """A checkpoint line ``{"guess": w, "total": N}`` or ``{"guess": w, "at_least": N}``: N at least
        the number of answers for the objective guesses (every answer takes a guess), and at most INF."""
        if not (isinstance(d, dict) and isinstance(d.get("guess"), str) and ("total" in d) != ("at_least" in d)):
            raise TypeError("not a first-guess record")
        floor = 0 if self.objective == "feasible" or self.answers is None else len(self.answers)
        exact = "total" in d
        total = whole(d, "total" if exact else "at_least", floor, int(INF), f" (the floor: {floor} answers)")
        seconds = d.get("seconds", 0.0)
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 <= seconds < 1e9:
            raise ValueError(f"seconds {seconds!r:.30} is not a time")
        return FirstValue(d["guess"], total, exact, float(seconds), str(d.get("stage", "resumed")))

    def prepare(self, inst: GuessesInstance | None = None) -> None:
        """The instance (``inst`` when the driver has it), a memo, the root position, the search's counters."""
        if self.state is None:
            inst = inst or make_guesses_instance(self.answers, self.guesses, parse_objective(self.objective),
                                                 self.max_guesses, self.hard, self.F, weights=self.weights)
            self.state = {"inst": inst, "memo": new_memo(), "position": position(self.answers, (), self.hard),
                          "stats": np.zeros(2, dtype=np.int64)}

    def warm_up(self) -> None:
        first_value(*_warm_up())

    def evaluate(self, word: str, beta: int) -> FirstValue:
        """The first guess ``word`` valued against ``beta`` (the driver's threshold)."""
        state = self.state
        T, rule = state["position"]
        c = time.process_time()
        total, exact, stage = first_value(state["inst"], state["memo"], T, self.guesses.index[word], 1, rule,
                                          int(beta), state["stats"])
        if memo_size(state["memo"]) > MEMO_LIMIT:
            state["memo"] = new_memo()
        return FirstValue(word, int(total), bool(exact), time.process_time() - c, stage)

    def threshold(self, values: Iterable[FirstValue]) -> int:
        """The beta of the next first guess: ``cutoff_beta``, or the top-th best exact value if lower
        (from any subset: never too low)."""
        best = sorted(v.total for v in values if v.exact)
        return int(min(self.cutoff_beta, best[self.top - 1]) if len(best) >= self.top else self.cutoff_beta)

    def tighter(self, a: int, b: int) -> int:
        return min(a, b)

    def summary(self, values: Iterable[FirstValue]) -> str:
        best = min((v for v in values if v.exact), key=lambda v: (v.total, self.guesses.index[v.guess]), default=None)
        return f"best so far {f'{best.guess} {best.total}' if best else 'none'}"


def read_checkpoint(path: str | Path) -> tuple[dict, list[FirstValue]]:
    """(header, records) of a ranking checkpoint, each record checked (:mod:`exact.firstguess`)."""
    return firstguess.read_checkpoint(path, FewestSearch(None, None, False, 6, None, 1, "guesses", None))


def first_guess_order(inst: GuessesInstance, T: np.ndarray, t: int, rule: Constraint, words: list[str]) -> list[str]:
    """The first guesses in the order of the search's scan (guess bound, then sum of squared class
    sizes, then list order): the likeliest best first, so the threshold falls early; the guesses
    the scan skips (they tell nothing) last."""
    cand, _, _ = candidates(inst.ctx, T, t, rule.greens, rule.least, INF)
    rank = {int(g): i for i, g in enumerate(cand)}
    index = inst.guesses.index
    return sorted(words, key=lambda w: (rank.get(index[w], len(rank)), index[w]))


def read_first_guesses(path: str | Path, guesses: WordList) -> list[str]:
    """The first guesses listed in a file (one a line; '#' comments and blank lines skipped;
    Selby's annotated lines keep their first word); each must be an allowed guess."""
    words = []
    for number, line in enumerate(read_text(path, "first-guess list").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0].lower()
        if word not in guesses.index:
            raise ExactError(f"{path}:{number}: {word!r} is not in {guesses.source}")
        words.append(word)
    if not words:
        raise ExactError(f"{path}: no first guess listed")
    return list(dict.fromkeys(words))


def rank_first_guesses(answers: WordList, guesses: WordList, *, firsts: list[str] | None = None,
                       cutoff: int | None = None, top: int = 1, hard: bool = False, max_guesses: int = 6,
                       checkpoint: str | Path | None = None, resume: str | Path | None = None,
                       tree: bool = True, progress: bool | None = None, F: np.ndarray | None = None,
                       limit: int | None = None, cluster: str | None = None, batch: int = 8,
                       workers: int | None = None, objective: str = "guesses",
                       weights: Weights | None = None) -> Ranking:
    """Value or reject every first guess of ``firsts`` (default: every allowed guess).

    The threshold: values <= ``cutoff`` are wanted exactly, and a first guess that cannot beat the
    ``top``-th best value found so far is only bounded. ``checkpoint``: write every first guess
    done to this JSON-lines file; ``resume``: continue the run it records (appending to it).
    ``tree``: build the optimal tree of the best first guess at the end. ``limit``: stop after
    that many first guesses (as if interrupted). Ctrl-C and SIGTERM stop it with every first guess
    done kept (status FEASIBLE or UNKNOWN, ``interrupted``). ``cluster``: ``local`` or a Dask
    scheduler's address: batches of ``batch`` first guesses as Dask tasks (:mod:`exact.firstguess`).
    ``weights``: the answers' weights (values are weighted totals; see the module).
    """
    started = time.perf_counter()
    if cutoff is not None and cutoff < 0:
        raise ExactError(f"cutoff must be at least 0, not {cutoff}")
    if top < 1:
        raise ExactError(f"top must be at least 1, not {top}")
    goal = parse_objective(objective)
    if goal.wins:
        raise ExactError(f"a ranking of first guesses takes objective guesses or feasible, not {objective}",
                         params=("objective",))
    inst = make_guesses_instance(answers, guesses, goal, max_guesses, hard, F, weights=weights)
    T, rule = position(answers, (), hard)
    words = list(guesses.words) if firsts is None else list(dict.fromkeys(firsts))
    require_in_pool(words, guesses, "first")
    order = first_guess_order(inst, T, 1, rule, words)
    search = FewestSearch(answers, guesses, hard, max_guesses, cutoff, top, goal.name, inst.F, weights)
    search.prepare(inst)
    done = firstguess.drive(search, order, checkpoint=checkpoint, resume=resume, limit=limit, cluster=cluster,
                            workers=workers, batch=batch, progress=progress)
    ranking = Ranking(answers, guesses, hard, max_guesses, cutoff, top, done.records, order, 0.0, prog.cores(),
                      done.interrupted or done.limited, goal.name, weights=weights)
    if tree and ranking.exact:  # interrupted: the best so far's, its value exact, so optimal after it
        w = ranking.exact[0][0]
        # after a signal an abandoned evaluation may still run on the shared memo (ABANDONABLE): a memo of
        # its own for the tree (two threads writing one memo corrupted the process)
        memo = new_memo() if done.interrupted else search.state["memo"]
        ranking.tree = firstguess.best_so_far(
            lambda: first_tree(inst, memo, T, guesses.index[w], 1, rule), ranking.interrupted, w)
    ranking.seconds = time.perf_counter() - started
    return ranking


def _warm_up():
    """Arguments of a tiny first_value call: compiles the kernels before workers start."""
    A = words_from_lines(["cigar", "rebut", "sissy", "humph"], "warm-up")
    inst = make_guesses_instance(A, A, parse_objective("guesses"), 6)
    T, rule = position(A, (), False)
    return inst, new_memo(), T, 0, 1, rule, 100
