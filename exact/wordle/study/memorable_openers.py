"""The best memorable opener: over every first guess g1, the best depth-3 tree with at most M distinct
second guesses (:mod:`exact.wordle.study.memorable` solves one g1).

Data types: ``F`` is the feedback matrix (guesses x answers, :mod:`exact.partitions`); a first guess
is a guess row; ``value_M(g1)`` is the most answers a memorable tree opening with g1 wins within three
guesses; a *record* is one first guess's line of the checkpoint (a dict: ``first``, ``U``, ``stage``,
``wins``, ``bound``, ``status``).

**The bounds, cheapest first** (each valid for one g1; a first guess is closed when its bound is at
most the best value V found, so it cannot win more than V):

1. ``value_M(g1) <= U(g1)``, the unconstrained depth-3 value with g1 first: a memorable tree is a
   depth-3 tree that opens with g1. The DP kernel (:meth:`exact.wordle.wins.dp.Search.values`) returns U
   exactly or a bound below the threshold V + 1, for every first guess in one pass.
2. ``value_M(g1) <= constant + L(mu)`` for any multipliers mu (:mod:`exact.wordle.study.memorable_lp`):
   first the cheap ones ``mu_c = max_{g in S_k} W[c, g]`` at the greedy prefixes S_k, where
   ``L = wins(S_k) + (the M largest gains sum_c max(0, W[c, g] - mu_c))`` (:func:`greedy_bound`),
   then the LP's (M >= 2).
3. Otherwise :func:`exact.wordle.study.memorable.solve_memorable` proves ``value_M(g1)`` (or leaves the
   first guess open with its bound, recorded).

**M = 1 in closed form.** With one second guess g2 played on every class, the answers won within
three guesses are one per class of the pair partition ``a -> (F[g1, a], F[g2, a])``: the pair's
class at guess 3 (or earlier: the answer g1 is alone in its class, won at guess 1; the answer g2 in
its own pair class is won at guess 2; every other answer of a class of size one is named at guess
3, and a larger class can give at most one win at guess 3). So ``value_1(g1) = max_g2 pairs(g1, g2)``,
the most distinct feedback pairs, counted by :func:`pair_counts`; the value is symmetric in g1 and g2.
So ``pairs(g1, g2) <= min(U(g1), U(g2))``: only pairs of first guesses that both pass the screen can
beat V, and each such unordered pair is counted once.

>>> from exact.words import words_from_lines
>>> A = words_from_lines("quack quail quake qualm quart quash quasi queen queer quell query quest".split())
>>> F = feedback_matrix(A, A, cache=False)
>>> int(pair_counts(F, A.index["quest"]).max())  # solve_memorable(A, A, "quest", 1).wins
10
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from exact import stop
from exact.feedback import all_green
from exact.game.position import position
from exact.partitions import feedback_matrix
from exact.wordle.study import memorable_lp as lp
from exact.wordle.study.memorable import Classes, greedy_selection, solve_memorable
from exact.wordle.wins.dp import Search, make_wins_instance
from exact.words import WordList, check_answers_are_guesses


def pair_counts(F, g1, columns=None):
    """For every guess g2 (or those in ``columns``), the number of distinct pairs (F[g1, a], F[g2, a])."""
    columns = np.arange(F.shape[0], dtype=np.int64) if columns is None else np.asarray(columns, dtype=np.int64)
    return _pair_counts(F, g1, columns)


@numba.njit(cache=True)
def _pair_counts(F, g1, columns):
    n = F.shape[1]
    seen = np.zeros(243 * 243, dtype=np.int32)
    out = np.zeros(columns.shape[0], dtype=np.int64)
    for j in range(columns.shape[0]):
        g2 = columns[j]
        stamp = j + 1
        count = 0
        for a in range(n):
            code = np.int64(F[g1, a]) * 243 + F[g2, a]
            if seen[code] != stamp:
                seen[code] = stamp
                count += 1
        out[j] = count
    return out


@numba.njit(cache=True)
def class_wins(F, order, starts):
    """W[c, g]: the classes guess g makes on class c, whose answers are ``order[starts[c]:starts[c+1]]``."""
    r = starts.shape[0] - 1
    W = np.zeros((r, F.shape[0]), dtype=np.int32)
    seen = np.zeros(243, dtype=np.int64)
    stamp = 0
    for g in range(F.shape[0]):
        for c in range(r):
            stamp += 1
            count = 0
            for i in range(starts[c], starts[c + 1]):
                p = F[g, order[i]]
                if seen[p] != stamp:
                    seen[p] = stamp
                    count += 1
            W[c, g] = count
    return W


def fast_classes(F: np.ndarray, first: int, green: int) -> Classes:
    """:func:`exact.wordle.study.memorable.first_classes`, with W counted by a compiled loop."""
    row = F[first]
    patterns = sorted(int(p) for p in np.unique(row) if p != green)
    members = [np.flatnonzero(row == p) for p in patterns]
    order = np.concatenate(members) if members else np.zeros(0, dtype=np.int64)
    starts = np.cumsum([0] + [len(P) for P in members]).astype(np.int64)
    W = class_wins(F, order.astype(np.int64), starts)
    return Classes(first, int((row == green).any()), patterns, members, W)


def depth3_screen(answers: WordList, guesses: WordList, threshold: int, F: np.ndarray):
    """(U or a bound below ``threshold`` for every guess row, exact flags): bound 1 for every g1."""
    search = Search(make_wins_instance(answers, guesses, False, F))
    T, rule = position(answers, (), False)
    values, exact, cands = search.values(T, 3, rule, threshold)
    U = np.zeros(len(guesses), dtype=np.int64)
    ok = np.zeros(len(guesses), dtype=bool)
    U[cands], ok[cands] = values, exact
    return U, ok


def read_records(path) -> list[dict]:
    """The records of a checkpoint (a last line cut short by a kill is dropped)."""
    path = Path(path)
    if not path.exists():
        return []
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def append_record(path, record: dict) -> None:
    """One write per record, flushed to disk: a kill leaves whole records (and at most one torn line)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(record) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class PairScan:
    """M = 1: per first guess, the most feedback pairs found with a partner so far and that partner
    (-1: none), and the first guesses whose pairs with the screened ones are counted."""

    best_pair: np.ndarray
    best_partner: np.ndarray
    scanned: set[int] = field(default_factory=set)


def best_opener(answers: WordList, guesses: WordList, M: int, *, start: int, start_first: str | None = None,
                checkpoint=None,
                time_limit: float | None = 60, workers: int = 1, progress=None, F: np.ndarray | None = None) -> dict:
    """The most answers a memorable tree (at most M distinct second guesses) wins over every first
    guess, with the coverage that proves it (see the module docstring).

    ``start``: a known value (a real tree's, opening with ``start_first``) to screen with; ``checkpoint``: a JSON-lines
    file, one record per first guess evaluated, read back on a resumed run.
    """
    check_answers_are_guesses(answers, guesses)
    started = time.perf_counter()
    if F is None:
        F = feedback_matrix(guesses, answers)
    green = all_green(answers.length)
    records = {r["first"]: r for r in read_records(checkpoint)} if checkpoint else {}
    best = max([start] + [r["wins"] for r in records.values()])
    U, exact = depth3_screen(answers, guesses, best + 1, F)
    open_ = np.flatnonzero(exact & (U >= best + 1))
    screened = {"threshold": best + 1, "first_guesses": int(len(guesses)), "above": int(len(open_)),
                "seconds": round(time.perf_counter() - started, 1)}
    if progress:
        progress(f"depth-3 screen at {best + 1}: {len(open_)} of {len(guesses)} first guesses can reach it")
    interrupted = False
    scan = PairScan(np.zeros(len(guesses), dtype=np.int64), np.full(len(guesses), -1, dtype=np.int64))
    try:
        for g1 in sorted(open_.tolist(), key=lambda g: (-U[g], g)):
            word = guesses.words[g1]
            if word in records:
                continue
            if U[g1] <= best:
                record = {"first": word, "U": int(U[g1]), "stage": "depth-3 bound", "bound": int(U[g1])}
            elif M == 1:
                record = pair_record(F, guesses, g1, U, open_, best, scan)
            else:
                record = _solve_one(answers, guesses, F, g1, green, M, best, time_limit, workers, lp)
                record["U"] = int(U[g1])
            record.setdefault("wins", 0)
            best = max(best, record["wins"])
            records[word] = record
            if checkpoint:
                append_record(checkpoint, record)
            if progress:
                progress(f"{word}: U {U[g1]}, {record['stage']}: {record.get('status', 'closed')} "
                         f"{record['wins']} (bound {record['bound']}); best {best}")
    except (KeyboardInterrupt, SystemError) as e:  # the records so far stand (they are on disk too)

        if not stop.is_interrupt(e):
            raise
        interrupted = True
    return opener_summary(answers, guesses, M, records, open_, best, start, start_first, interrupted, screened,
                          started)


def pair_record(F: np.ndarray, guesses: WordList, g1: int, U: np.ndarray, open_: np.ndarray, best: int,
                scan: PairScan) -> dict:
    """M = 1: the record of ``g1`` from its pairs with every screened partner not yet scanned in this
    run (a partner left out, outside the screen or with U <= best, gives at most best)."""
    partners = np.array([g for g in open_ if g not in scan.scanned and g != g1 and U[g] > best], dtype=np.int64)
    counts = pair_counts(F, g1, partners)
    better = counts > scan.best_pair[partners]
    scan.best_pair[partners[better]], scan.best_partner[partners[better]] = counts[better], g1
    j = int(np.argmax(counts)) if len(counts) else -1
    if j >= 0 and counts[j] > scan.best_pair[g1]:
        scan.best_pair[g1], scan.best_partner[g1] = int(counts[j]), int(partners[j])
    scan.scanned.add(g1)
    partner = scan.best_partner[g1]
    return {"first": guesses.words[g1], "U": int(U[g1]), "stage": "pairs", "wins": int(scan.best_pair[g1]),
            "bound": max(int(scan.best_pair[g1]), best),
            "status": "OPTIMAL" if scan.best_pair[g1] >= best else "BOUNDED",
            "second_guesses": [guesses.words[partner]] if partner >= 0 else []}


def opener_summary(answers: WordList, guesses: WordList, M: int, records: dict, open_: np.ndarray, best: int,
                   start: int, start_first: str | None, interrupted: bool, screened: dict, started: float) -> dict:
    """The certificate of :func:`best_opener`: OPTIMAL when no first guess in the screen is left open."""
    done = [r for r in records.values() if r["first"] in {guesses.words[g] for g in open_}]
    # a real tree reaching the best value, when no first guess can beat it, is optimal (whatever its status)
    winners = sorted({r["first"] for r in records.values() if r["wins"] == best} | ({start_first} if start == best and start_first
                                                                         else set()))
    still_open = sorted(r["first"] for r in done if r["bound"] > best)
    return {"problem": "most answers won within 3 guesses by a tree with at most M distinct second guesses, "
                       "over every first guess",
            "M": M, "wins": best, "n": len(answers), "probability": best / len(answers),
            "status": "OPTIMAL" if not still_open and winners and not interrupted else "FEASIBLE",
            "interrupted": interrupted,
            "unevaluated_first": int(len(open_) - len(done)), "best_first": winners,
            "open_first": still_open, "screen": screened, "evaluated": len(done),
            "method": "depth-3 bound U(g1) by the DP kernel; then " +
                      ("value_1(g1) = max_g2 distinct feedback pairs" if M == 1 else
                       "the certified LP bound, then solve_memorable"),
            "records": sorted(done, key=lambda r: (-r["wins"], r["first"])),
            "seconds": round(time.perf_counter() - started, 1)}


def greedy_bound(W: np.ndarray, M: int) -> int:
    """min over the greedy prefixes S_k of wins(S_k) + the M largest gains over S_k: an upper bound
    on every selection of at most M guesses (the Lagrangian bound at mu_c = max_{g in S_k} W[c, g])."""
    S = greedy_selection(W, M)
    best = None
    for k in range(1, len(S) + 1):
        base = W[:, S[:k]].max(axis=1).astype(np.int64)
        gains = np.maximum(W - base[:, None], 0).sum(axis=0)
        top = np.partition(gains, gains.size - M)[gains.size - M:] if M < gains.size else gains
        value = int(base.sum() + top.sum())
        best = value if best is None else min(best, value)
    return best


def _solve_one(answers, guesses, F, g1, green, M, best, time_limit, workers, lp) -> dict:
    """One first guess at M >= 2: the LP bound first, then the solver."""
    word = guesses.words[g1]
    classes = fast_classes(F, g1, green)
    varying = classes.W.max(axis=1) > classes.W.min(axis=1)
    constant = classes.hit + int(classes.W[~varying, 0].sum())
    W = classes.W[varying]
    if W.shape[0]:
        quick = greedy_bound(W, M) + constant
        if quick <= best:
            return {"first": word, "stage": "greedy bound", "bound": int(quick)}
        Wk = W[:, lp.undominated(W)]
        bound = lp.lp_bound(Wk, M, []).bound + constant
        if bound <= best:
            return {"first": word, "stage": "LP bound", "bound": int(bound)}
    r = solve_memorable(answers, guesses, word, M, time_limit=time_limit, workers=workers, F=F, classes=classes)
    return {"first": word, "stage": "solved", "wins": r.wins, "bound": r.bound, "status": r.status,
            "second_guesses": r.second_guesses, "seconds": round(r.seconds, 1)}
