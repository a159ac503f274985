"""A Dask worker preload for the cluster tests (``dask worker --preload tests/cluster_slow.py``): each
batch of first guesses takes at least 0.3 s more, so that a run on the tiny test instance lasts long
enough to lose a worker or the scheduler mid-way. The values are untouched."""

import time

from exact import firstguess

_evaluate = firstguess.evaluate_batch


def _slow(*args, **kwargs):
    time.sleep(0.3)
    return _evaluate(*args, **kwargs)


def dask_setup(worker):
    firstguess.evaluate_batch = _slow
