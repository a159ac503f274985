"""The global first-guess search on a Dask cluster (``pip install -e '.[cluster]'``).

``exact wordle solve --depth 4 --cluster local`` starts a :class:`distributed.LocalCluster` with one
single-threaded worker process per core (numba's threads set to 1 in each, so that workers do not
fight for cores); ``--cluster tcp://HOST:8786`` (or ``HOST:8786``) joins a running scheduler, whose
workers need this package importable (``pip install -e '.[cluster]'`` on every node, and
``NUMBA_NUM_THREADS=1`` per single-threaded worker). The batches, the shared incumbent (one Dask
Variable), the checkpoint and the interrupts are the driver's (:mod:`exact.firstguess`); the search
is :class:`exact.wordle.wins.ranking.WinsSearch`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from exact.wordle.wins import ranking
from exact.words import WordList


def run_cluster(answers: WordList, guesses: WordList, address: str = "local", depth: int = 4,
                hard: bool = False, batch: int = ranking.BATCH, checkpoint: str | Path | None = None,
                resume: str | Path | None = None, workers: int | None = None, progress: bool | None = None,
                F: np.ndarray | None = None) -> ranking.GlobalResult:
    """The global search with batches as Dask tasks; same result as :func:`exact.wordle.wins.ranking.run`."""
    return ranking.run(answers, guesses, depth, hard, batch, checkpoint, resume, progress, F, cluster=address,
                       workers=workers)
