"""How long a live proof takes against what the page says it will take
(``python -m exact.bench.live_estimate [--list nyt2023] [--hard] [--sample 12] [--seed 2] [--csv FILE] [--fit]``).

The positions are the ones the web page proves live: a first guess and an answer drawn at random (seeded) from
the lists, kept when between ``--min`` and ``--max`` answers are left and no shipped tree or opener book covers
the position. Each is proven in this process as a worker proves it (:func:`exact.wordle.study.serve.prove`, the
kernels compiled first on a small position), and two estimates are set beside its wall time: the one the page
shows before the proof starts (:func:`exact.wordle.study.play.expected_seconds`, from the answers left) and the
one it shows once the search has counted its contenders (the seconds to that first report plus
:func:`exact.wordle.study.play.proof_seconds`). Prints one line per position as it ends (Ctrl-C or SIGTERM:
the table so far, then exit 130/143), then the ratios measured / estimated; ``--fit``: the rate of
``proof_seconds`` that fits these proofs best (least squares of the log ratio). Say the core count and
the machine's load beside the numbers: each proof uses the two threads of a worker.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import random
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np

from exact import stop
from exact.feedback import feedback
from exact.fileio import write_text
from exact.progress import cores
from exact.wordle.study.play import PER_CONTENDER_ANSWER, expected_seconds, proof_seconds
from exact.wordle.study.serve import (InstantAdvice, Setup, few_left, prove, read_position, shipped_opener_book,
                                      shipped_trees)
from exact.words import named_lists


@dataclass(frozen=True)
class Measured:
    """One live proof: its position, its size, the contenders its search counted, when it said so, and its
    wall time, beside the two estimates (before the proof starts, and once the search has counted)."""

    first: str
    pattern: int
    n: int
    contenders: int
    counted: float
    seconds: float
    before: float
    estimate: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.estimate


def positions(setup: Setup, seed: int, smallest: int, largest: int):
    """Positions after one guess that the page would prove live, drawn at random (first guess, answer)."""
    rng = random.Random(seed)
    instant = InstantAdvice(shipped_trees(setup), setup, shipped_opener_book(setup))
    while True:
        guess, answer = rng.choice(setup.guesses.words), rng.choice(setup.answers.words)
        history = ((guess, feedback(guess, answer)),)
        position = read_position(setup, history)
        if smallest <= len(position.candidates) <= largest and instant.advice(position) is None \
                and few_left(setup, position) is None:
            yield history, len(position.candidates)


def measure(setup: Setup, history: tuple, n: int) -> Measured:
    """Prove the position as a worker does, timing the first report and the whole proof."""
    told = []
    started = time.perf_counter()
    prove(setup, history, report=lambda known: told.append((time.perf_counter() - started, known)))
    seconds = time.perf_counter() - started
    counted, known = told[0] if told else (seconds, None)
    contenders = known.contenders if known is not None else 0
    return Measured(history[0][0], history[0][1], n, contenders, round(counted, 2), round(seconds, 2),
                    round(expected_seconds(n), 2), round(counted + proof_seconds(n, contenders), 2))


def fit(rows: list[Measured]) -> float:
    """The rate of ``proof_seconds`` (seconds per contender per answer left) that fits these proofs best: the
    geometric mean of the search's measured seconds over n x contenders (least squares of the log ratio)."""
    used = [r for r in rows if r.contenders and r.seconds > r.counted]
    logs = [math.log((r.seconds - r.counted) / (r.n * r.contenders)) for r in used]
    return math.exp(sum(logs) / len(logs)) if logs else PER_CONTENDER_ANSWER


def again(path: str) -> list[Measured]:
    """The proofs a run wrote (``--csv``), their estimates computed with the rate in use."""
    with open(path, newline="") as saved:
        rows = list(csv.DictReader(saved))
    return [Measured(r["first"], int(r["pattern"]), int(r["n"]), int(r["contenders"]), float(r["counted"]),
                     float(r["seconds"]), float(r["before"]),
                     round(float(r["counted"]) + proof_seconds(int(r["n"]), int(r["contenders"])), 2)) for r in rows]


def table(rows: list[Measured]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(asdict(rows[0])))
    writer.writeheader()
    writer.writerows(asdict(r) for r in rows)
    return out.getvalue()


def report(rows: list[Measured], fitted: bool) -> None:
    if not rows:
        return
    ratios = sorted(r.ratio for r in rows)
    old = sorted(r.seconds / r.before for r in rows)
    print(f"{len(rows)} proofs on {cores()} cores: measured / estimated from {ratios[0]:.2f} to {ratios[-1]:.2f} "
          f"(median {ratios[len(ratios) // 2]:.2f}); by the answers left alone from {old[0]:.2f} to {old[-1]:.2f}")
    if fitted:
        print(f"fitted rate: {fit(rows):.2e} s per contender per answer left (in use: {PER_CONTENDER_ANSWER:.2e})")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", default="nyt2023")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--sample", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--min", type=int, default=20, dest="smallest")
    parser.add_argument("--max", type=int, default=600, dest="largest")
    parser.add_argument("--csv", help="write the table here too")
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--from", dest="saved", help="no proofs: the table a run wrote (--csv), its estimates "
                                                      "computed again with the rate in use")
    args = parser.parse_args(argv)
    if args.saved:
        rows = again(args.saved)
        for row in rows:
            print(f"{row.first} {row.pattern} {row.n} {row.contenders} {row.counted} {row.seconds} {row.before} "
                  f"{row.estimate} {row.ratio:.2f}")
        report(rows, args.fit)
        return
    stop.install()
    A, G = named_lists(args.list)
    setup = Setup(A, G, hard=args.hard)
    rows: list[Measured] = []
    try:
        prove(setup, next(positions(setup, 0, 3, 10))[0])  # the kernels compiled, the matrix read
        print("first  pattern  n  contenders  counted_s  seconds  estimate_before  estimate  ratio", flush=True)
        for (history, n), _ in zip(positions(setup, args.seed, args.smallest, args.largest), range(args.sample)):
            row = measure(setup, history, n)
            rows.append(row)
            print(f"{row.first} {row.pattern} {row.n} {row.contenders} {row.counted} {row.seconds} {row.before} "
                  f"{row.estimate} {row.ratio:.2f}", flush=True)
            if args.csv:
                write_text(args.csv, table(rows))  # atomically, after each proof: a long run keeps what it measured
    except KeyboardInterrupt:
        print(f"interrupted after {len(rows)} proofs", file=sys.stderr)
    finally:
        report(rows, args.fit)
    if stop.received() is not None:
        stop.exit_now()


if __name__ == "__main__":
    main()
