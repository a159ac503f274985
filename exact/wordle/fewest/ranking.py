"""Fewest guesses over every first guess: the exact value of the best ones, a proven bound on the
others (the ranking of first guesses, Selby's "which first word is best, and by how much").

Data. A ranking maps each first guess (a word of the allowed list) to ``{"total": N}`` (its exact
fewest-guesses total: the best complete strategy that opens with it) or ``{"at_least": N}`` (a
proven lower bound on that total, N >= the threshold it was rejected against). A first guess is
rejected or valued by :func:`first_value`, in stages, each cheaper than the next and each a valid
lower bound (the arguments are in :mod:`exact.wordle.fewest.search`):

1. every class of the first guess gets its bound (:func:`exact.wordle.fewest.kernels.node_bound`: the node
   bound with Selby's wide term ``3n - 1 + max(0, n - m)``, made sharper in O(n^2), or the memo's);
2. each class, largest first, gets the look-ahead bound one guess deeper
   (:func:`exact.wordle.fewest.kernels.lookahead`: the least, over every second guess, of the sum of the
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
from exact import stop
from exact.errors import ExactError, InternalError
from exact.partitions import classes
from exact.game.hard import Constraint
from exact.game.position import position
from exact.game.tree import Tree, replay_position
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.search import (Branch, GuessesInstance, constraint_after, make_guesses_instance, node_value,
                                        subtree)
from exact.wordle.fewest.kernels import lookahead, node_bound
from exact.wordle.wins.ranking import Checkpoint, read_json_lines
from exact.wordle.wins.ranking import check_header as depth4_check_header
from exact.wordle.fewest.memo import INF, memo_size, new_memo
from exact.words import WordList, require_in_pool

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


def first_value(inst: GuessesInstance, memo, S: np.ndarray, g: int, t: int, rule: Constraint, thr: int,
                stats: np.ndarray | None = None) -> tuple[int, bool, str]:
    """(cost of playing guess row g on S at step t, exact?, stage): exact when below ``thr``, else
    a proven lower bound >= thr."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    split = classes(inst.F, g, S)
    total = int(inst.cost[t]) if inst.green in split else 0
    parts = [Branch(p, np.ascontiguousarray(P, dtype=np.int64), constraint_after(inst, rule, g, p))
             for p, P in split.items() if p != inst.green]
    lower = [int(node_bound(inst.ctx, memo, b.members, t + 1, b.rule.greens, b.rule.least)) for b in parts]
    total = min(total + sum(lower), int(INF))
    if total >= thr:
        return total, False, "bounds"
    by_size = sorted(range(len(parts)), key=lambda i: (len(parts[i].members), i))
    if thr < INF:
        for i in reversed(by_size):
            P, r = parts[i].members, parts[i].rule
            if len(P) < 3:
                break
            beta = thr - (total - lower[i])
            v = int(lookahead(inst.ctx, memo, P, t + 1, r.greens, r.least, np.int64(beta)))
            if v > lower[i]:
                total = min(total + v - lower[i], int(INF))
                lower[i] = v
                if total >= thr:
                    return total, False, "lookahead"
    for i in by_size:
        P, r = parts[i].members, parts[i].rule
        beta = thr - (total - lower[i]) if thr < INF else INF
        v, _ = node_value(inst, memo, P, t + 1, r, beta, stats=stats)
        total = min(total - lower[i] + max(v, lower[i]), int(INF))
        lower[i] = max(v, lower[i])
        if v >= beta:
            return max(total, thr), False, "exact"
    return total, total < thr, "exact"


def first_tree(inst: GuessesInstance, memo, S: np.ndarray, g: int, t: int, rule: Constraint) -> Tree:
    """The tree of first guess g, its classes' subtrees read from the memo (solved if absent)."""
    children = {}
    for p, P in sorted(classes(inst.F, g, S).items()):
        if p != inst.green:
            children[p] = subtree(inst, memo, P, t + 1, constraint_after(inst, rule, g, p))
    return Tree(inst.guesses.words[g], len(S), children)


# --- the ranking --------------------------------------------------------------------------------

FORMAT = "exact-ranking-guesses/1"
METHOD = ("every first guess valued exactly or rejected with a proven bound (exact.wordle.fewest.ranking): "
          "class bounds (node bound with the wide term 3n - 1 + max(0, n - m), O(n^2) sharpening), a "
          "look-ahead bound one guess deeper, then exact branch and bound (exact.wordle.fewest.search) of the "
          "classes smallest first against the threshold left; one memo shared by every first guess")
MUST_MATCH = ("format", "hard", "max_guesses", "objective")


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
        return {
            "format": FORMAT,
            "objective": self.objective,
            "status": self.status,
            "hard": self.hard,
            "mode": "hard" if self.hard else "normal",
            "max_guesses": self.max_guesses,
            "cutoff": self.cutoff,
            "top": self.top,
            "best": {"guess": best[0], "total": best[1], "mean": best[1] / n} if best else None,
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
        }

    def certificate(self, *, files=()) -> dict:
        """The certificate ``exact wordle rank --objective ... --certificate`` writes (kind
        :data:`CERTIFICATE_KIND`): :meth:`to_json` and, when the tree of the best was built, its files
        and its replay from scratch, which must give the best value (else an internal error)."""
        data = {"kind": CERTIFICATE_KIND, **self.to_json()}
        if self.tree is None:
            return data
        played = replay_position(self.tree, self.answers, self.guesses, (), self.max_guesses, self.hard)
        total = sum((k + 1) * w for k, w in enumerate(played.wins_at))
        value = 0 if self.objective == "feasible" else total  # the tree's value under the objective
        if not played.valid or played.lost or value != self.exact[0][1]:
            raise InternalError(f"the tree of {self.tree.guess} does not replay to its value")
        data["tree"] = {"guess": self.tree.guess, "files": list(files), "complete": True,
                        "replay": {"total": total, "wins_at": list(played.wins_at), "valid": True}}
        return data


#: the ``kind`` of a ranking certificate (listed in exact.wordle.certificate.CERTIFICATE_KINDS)
CERTIFICATE_KIND = "fewest-ranking"


def make_header(answers: WordList, guesses: WordList, hard: bool, max_guesses: int, cutoff, top,
                objective: str = "guesses") -> dict:
    return {"format": FORMAT, "objective": objective, "hard": hard, "max_guesses": max_guesses,
            "cutoff": cutoff, "top": top,
            "answers": {"source": answers.source, "count": len(answers), "sha256": answers.sha256},
            "guesses": {"source": guesses.source, "count": len(guesses), "sha256": guesses.sha256}}


def ranking_record(data) -> dict:
    """A checkpoint line of the ranking: ``{"guess": w, "total": N}`` or ``{"guess": w, "at_least": N}``."""
    if not (isinstance(data, dict) and isinstance(data.get("guess"), str)
            and (isinstance(data.get("total"), int) or isinstance(data.get("at_least"), int))):
        raise ValueError("not a first-guess record")
    return data


def read_checkpoint(path: str | Path) -> tuple[dict, list[dict]]:
    """(header, records) of a ranking checkpoint: the depth-k search's reader, with its caps
    (:func:`exact.wordle.wins.ranking.read_json_lines`)."""
    return read_json_lines(path, FORMAT, ranking_record, "ranking")


def check_header(old: dict, new: dict, path: Path) -> None:
    depth4_check_header(old, new, path, MUST_MATCH)


class Book(Checkpoint):
    """The ranking's checkpoint: the depth-k search's append-only, one-writer file
    (:class:`exact.wordle.wins.ranking.Checkpoint`), with one line per first guess valued or bounded."""

    @staticmethod
    def read(path: Path):
        return read_checkpoint(path)

    @staticmethod
    def check(old: dict, header: dict, path: Path) -> None:
        check_header(old, header, path)

    def add(self, v: FirstValue) -> None:
        record = {"guess": v.guess, **v.to_json(), "seconds": round(v.seconds, 3), "stage": v.stage}
        os.write(self.fd, (json.dumps(record) + "\n").encode())  # one write per record
        os.fsync(self.fd)


def first_guess_order(inst: GuessesInstance, S: np.ndarray, t: int, rule: Constraint, words: list[str]) -> list[str]:
    """The first guesses in the order of the search's scan (guess bound, then sum of squared class
    sizes, then list order): the likeliest best first, so the threshold falls early; the guesses
    the scan skips (they tell nothing) last."""
    from exact.wordle.fewest.kernels import candidates

    cand, _, _ = candidates(inst.ctx, S, t, rule.greens, rule.least, INF)
    rank = {int(g): i for i, g in enumerate(cand)}
    index = inst.guesses.index
    return sorted(words, key=lambda w: (rank.get(index[w], len(rank)), index[w]))


def read_first_guesses(path: str | Path, guesses: WordList) -> list[str]:
    """The first guesses listed in a file (one a line; '#' comments and blank lines skipped;
    Selby's annotated lines keep their first word); each must be an allowed guess."""
    from exact.fileio import read_text

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


class Progress:
    """A progress line at most every ``every`` seconds (for logs), and a bar on a terminal."""

    def __init__(self, total: int, done: int, show: bool | None, every: float = 30.0):
        self.total, self.every, self.last, self.started, self.start_done = total, every, time.monotonic(), \
            time.monotonic(), done
        self.bar = prog.bar(total=total, initial=done, desc="first guesses", unit="guess",
                            disable=(not show) if show is not None else None)

    def __call__(self, ranking: Ranking, force: bool = False) -> None:
        done = len(ranking.values)
        best = ranking.exact[0] if ranking.exact else None
        self.bar.update(done - self.bar.n)
        if best:
            self.bar.set_postfix(best=f"{best[0]} {best[1]}")
        if force or time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            rate = (done - self.start_done) / max(time.monotonic() - self.started, 1e-9)
            left = (self.total - done) / rate if rate > 0 else float("inf")
            eta = f"{left / 3600:.1f} h" if left != float("inf") else "unknown"
            prog.say(f"{done}/{self.total} first guesses done; best so far "
                     f"{f'{best[0]} {best[1]}' if best else 'none'}; about {eta} left")

    def close(self) -> None:
        self.bar.close()


def rank_first_guesses(answers: WordList, guesses: WordList, *, firsts: list[str] | None = None,
                       cutoff: int | None = None, top: int = 1, hard: bool = False, max_guesses: int = 6,
                       checkpoint: str | Path | None = None, resume: str | Path | None = None,
                       tree: bool = True, progress: bool | None = None, F: np.ndarray | None = None,
                       limit: int | None = None, cluster: str | None = None, batch: int = 8,
                       workers: int | None = None, objective: str = "guesses") -> Ranking:
    """Value or reject every first guess of ``firsts`` (default: every allowed guess).

    The threshold: values <= ``cutoff`` are wanted exactly, and a first guess that cannot beat the
    ``top``-th best value found so far is only bounded. ``checkpoint``: write every first guess
    done to this JSON-lines file; ``resume``: continue the run it records (appending to it).
    ``tree``: build the optimal tree of the best first guess at the end. ``limit``: stop after
    that many first guesses (as if interrupted). Ctrl-C and SIGTERM stop it with every first guess
    done kept (status FEASIBLE or UNKNOWN, ``interrupted``). ``cluster``: ``local`` or a Dask
    scheduler's address: batches of ``batch`` first guesses as Dask tasks (:func:`rank_on_cluster`).
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
    inst = make_guesses_instance(answers, guesses, goal, max_guesses, hard, F)
    S, rule = position(answers, (), hard)
    words = list(guesses.words) if firsts is None else list(dict.fromkeys(firsts))
    require_in_pool(words, guesses, "first")
    order = first_guess_order(inst, S, 1, rule, words)
    header = make_header(answers, guesses, hard, max_guesses, cutoff, top, goal.name)
    values: dict[str, FirstValue] = {}
    if resume is not None:
        old, records = read_checkpoint(resume)
        check_header(old, header, Path(resume))
        for r in records:
            exact = "total" in r
            values[r["guess"]] = FirstValue(r["guess"], r["total"] if exact else r["at_least"], exact,
                                            r.get("seconds", 0.0), r.get("stage", "resumed"))
    path = checkpoint if checkpoint is not None else resume
    book = Book(path, header, resume is not None and Path(resume) == Path(path)) if path is not None else None
    if book is not None and resume is not None and Path(resume) != Path(path):
        for v in values.values():
            book.add(v)
    ranking = Ranking(answers, guesses, hard, max_guesses, cutoff, top, values, order, 0.0, prog.cores(),
                      objective=goal.name)
    cutoff_threshold = INF if cutoff is None else cutoff + 1
    memo = new_memo()
    stats = np.zeros(2, dtype=np.int64)
    report = Progress(len(order), len([w for w in order if w in values]), progress)
    done_now = 0
    try:
        if cluster is not None:
            rank_on_cluster(cluster, ranking, (answers, guesses, hard, max_guesses, inst.F, goal.name),
                            cutoff_threshold, top, book, report, batch, workers)
            order = []
        for w in order:
            if w in values:
                continue
            if limit is not None and done_now >= limit:
                ranking.interrupted = True
                break
            thr = threshold(ranking, cutoff_threshold, top)
            c = time.process_time()
            # abandonable: an interrupt stops the run now, not when this first guess's search ends (it
            # can take minutes); the abandoned search's memo is not used again
            total, exact, stage = stop.abandonable(first_value, inst, memo, S, guesses.index[w], 1, rule, int(thr),
                                                   stats)
            values[w] = FirstValue(w, int(total), bool(exact), time.process_time() - c, stage)
            if book is not None:
                book.add(values[w])
            done_now += 1
            if memo_size(memo) > MEMO_LIMIT:
                memo = new_memo()
            report(ranking)
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        ranking.interrupted = True
        prog.say("interrupted; every first guess done is kept" + (f" in {path}" if path else ""))
    finally:
        report(ranking, force=True)
        report.close()
        if book is not None:
            book.close()
    if tree and ranking.exact and not ranking.interrupted:
        w = ranking.exact[0][0]
        ranking.tree = first_tree(inst, memo, S, guesses.index[w], 1, rule)
    ranking.seconds = time.perf_counter() - started
    return ranking


def threshold(ranking: Ranking, cutoff_threshold: int, top: int) -> int:
    """The threshold now: ``cutoff_threshold`` (cutoff + 1: a value there or above is only bounded),
    or the top-th best exact value if lower."""
    best = [v for _, v in ranking.exact]
    return int(min(cutoff_threshold, best[top - 1]) if len(best) >= top else cutoff_threshold)


_WORKER: dict = {}  # on a Dask worker: the instance and memo of the run (built once per process)


def rank_batch(data, words: list[str], thr: int, variable_name: str | None) -> list[dict]:
    """The task: one batch of first guesses on a Dask worker, each valued or rejected against the
    least of ``thr`` and the run's shared threshold (a Dask Variable set by the driver)."""
    answers, guesses, hard, max_guesses, F, objective = data
    key = (answers.sha256, guesses.sha256, hard, max_guesses, objective)
    if _WORKER.get("key") != key:
        inst = make_guesses_instance(answers, guesses, parse_objective(objective), max_guesses, hard, F)
        _WORKER.update(key=key, inst=inst, memo=new_memo(), position=position(answers, (), hard))
    inst, S, rule = _WORKER["inst"], *_WORKER["position"]
    shared = None
    if variable_name:
        from exact.wordle.wins.cluster import _read_shared

        shared = _read_shared(variable_name)
    out = []
    for w in words:
        now = thr
        if shared is not None:
            v = shared()
            now = min(now, v) if v > 0 else now
        c = time.process_time()
        total, exact, stage = first_value(inst, _WORKER["memo"], S, guesses.index[w], 1, rule, now)
        out.append({"guess": w, "total": int(total), "exact": bool(exact), "seconds": time.process_time() - c,
                    "stage": stage})
        if memo_size(_WORKER["memo"]) > MEMO_LIMIT:
            _WORKER["memo"] = new_memo()
    return out


def rank_on_cluster(address: str, ranking: Ranking, data, cutoff_threshold: int, top: int, book, report, batch: int,
                    workers: int | None) -> None:
    """The first guesses not yet done, in batches as Dask tasks (at most two per worker in flight);
    each finished batch goes to the ranking and the checkpoint as it arrives, and the threshold it
    implies to every worker through a Dask Variable. Interrupts propagate to the caller, which keeps
    what is done; the batches in flight are cancelled."""
    import uuid

    from exact.wordle.wins.cluster import _import_distributed, shut_down, start_client

    distributed = _import_distributed()
    todo = [w for w in ranking.firsts if w not in ranking.values]
    batches = [todo[i:i + batch] for i in range(0, len(todo), batch)]
    batches.reverse()
    first_value(*_warm_up())  # the kernels compiled once here; local workers load numba's cache
    client, cluster = start_client(address, workers)
    futures = {}
    try:
        n = max(1, len(client.scheduler_info().get("workers", {})))
        prog.say(f"cluster: {n} workers at {client.scheduler.address}")
        [shared_data] = client.scatter([data], broadcast=True)
        name = f"exact-ranking-{uuid.uuid4().hex[:12]}"
        variable = distributed.Variable(name, client=client)
        variable.set(threshold(ranking, cutoff_threshold, top))
        pending = distributed.as_completed()

        def submit():
            f = client.submit(rank_batch, shared_data, batches.pop(), threshold(ranking, cutoff_threshold, top), name,
                              pure=False, retries=3)
            futures[f.key] = f
            pending.add(f)

        for _ in range(min(len(batches), 2 * n)):
            submit()
        for f in pending:
            for r in f.result():
                v = FirstValue(r["guess"], r["total"], r["exact"], r["seconds"], r["stage"])
                ranking.values[v.guess] = v
                if book is not None:
                    book.add(v)
            futures.pop(f.key, None)
            variable.set(threshold(ranking, cutoff_threshold, top))
            report(ranking)
            if batches:
                submit()
    finally:
        shut_down(client, cluster, futures.values())


def _warm_up():
    """Arguments of a tiny first_value call: compiles the kernels before workers start."""
    from exact.words import words_from_lines

    A = words_from_lines(["cigar", "rebut", "sissy", "humph"], "warm-up")
    inst = make_guesses_instance(A, A, parse_objective("guesses"), 6)
    S, rule = position(A, (), False)
    return inst, new_memo(), S, 0, 1, rule, 100
