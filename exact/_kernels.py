"""Numba kernels shared by the solvers (compiled once, cached on disk by numba)."""

import numba
import numpy as np


@numba.njit(cache=True, parallel=True)
def pattern_histograms(rows, patterns):
    """counts[g, p] = how many entries of rows[g] equal p."""
    counts = np.zeros((rows.shape[0], patterns), dtype=np.int32)
    for g in numba.prange(rows.shape[0]):
        for a in range(rows.shape[1]):
            counts[g, rows[g, a]] += 1
    return counts
