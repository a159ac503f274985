"""Numba kernels shared by the solvers (compiled once, cached on disk by numba), and the popcount
intrinsic they count bitsets with."""

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic


@numba.njit(cache=True, parallel=True)
def pattern_histograms(rows, patterns):
    """counts[g, p] = how many entries of rows[g] equal p."""
    counts = np.zeros((rows.shape[0], patterns), dtype=np.int32)
    for g in numba.prange(rows.shape[0]):
        for a in range(rows.shape[1]):
            counts[g, rows[g, a]] += 1
    return counts


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen
