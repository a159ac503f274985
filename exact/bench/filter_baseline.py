"""The depth-k kernels with the hard-mode filter as it was before: the baseline of ``exact wordle bench
--depth-rejection T --hard --baseline filter``.

In hard mode, :func:`exact.wordle.wins.kernels.wins2` first lists the guesses the class's rule allows
(:func:`exact.wordle.wins.kernels._allowed_positions`), once for every class it counts: at depth 4 that
is every class of every second guess scanned, tens of thousands of calls per class of a first guess.
The filter used to build its lists of greens and letters with ``np.flatnonzero`` and test every guess
even when the rule holds nothing (a class that has shown no letter yet, such as every all-gray class);
it is kept verbatim in :mod:`exact.bench.dp_baseline`. Here the kernels of
:mod:`exact.wordle.wins.kernels` are compiled again with that filter in place of the current one, and
nothing else changed (:func:`rebound`), so that the bench measures the filter alone, in one run, on the
same search (:class:`FilterBaselineSearch`: the staged search with those kernels). The allowed
positions, hence every value and bound, are the same (tests/test_wordle_wins_bounds.py).
"""

from __future__ import annotations

import types

import numba

from exact.bench.dp_baseline import _allowed_positions as allowed_positions_before
from exact.wordle.wins import kernels
from exact.wordle.wins.bounds import StagedSearch


def rebound(kernel, **names):
    """The numba kernel compiled again from its Python source, reading ``names`` in place of the module
    globals of the same names (its other options as they were; not cached: compiled once per process)."""
    f = kernel.py_func
    scope = {**f.__globals__, **names}
    options = {k: v for k, v in kernel.targetoptions.items() if k not in ("cache", "nopython")}
    return numba.njit(**options)(types.FunctionType(f.__code__, scope, f.__name__, f.__defaults__, f.__closure__))


def kernels_before() -> tuple:
    """(wins2, values3) with the previous hard-mode filter, down the chain values3 -> value3 -> wins2."""
    wins2 = rebound(kernels.wins2, _allowed_positions=allowed_positions_before)
    value3 = rebound(kernels.value3, wins2=wins2)
    return wins2, rebound(kernels.values3, value3=value3)


WINS2_BEFORE, VALUES3_BEFORE = kernels_before()


class FilterBaselineSearch(StagedSearch):
    """The staged search on the kernels with the previous hard-mode filter (benchmarks only)."""

    wins2_kernel = staticmethod(WINS2_BEFORE)
    values3_kernel = staticmethod(VALUES3_BEFORE)
