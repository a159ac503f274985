"""A memo of wins_2 of the classes met at one node, for the value_3 kernel.

Different second guesses at a node often cut the same class (about half the largest classes of the
second guesses at a first guess's large class repeat: guesses with the same letters leave the same
all-gray class, for one). In normal mode wins_2(Q) depends on the answers of Q alone (every guess is
allowed), so a value found once answers again: an exact value always, an upper bound b whenever the
need is above b. In hard mode it depends on Q and the rule after the second guess, and the kernel's
key is both (:func:`exact.wordle.wins.kernels._class_key`): an all-gray pattern adds nothing to the
rule, so the all-gray classes repeat there too. The memo compares keys, whatever they hold.

A memo is a :class:`ClassMemo` record of arrays (numba-friendly, one per thread): an open-addressed table of SLOTS
entries, each a class's key (its rows, sorted, and in hard mode the rule after it; kept in a pool of
POOL numbers, found by an FNV-1a hash and compared entry by entry, so that a hash collision is never
taken for a match) with its value and whether that value is exact. When the table is half full or the pool full it starts afresh.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

SLOTS = 2**16
POOL = 2**22


class ClassMemo(NamedTuple):
    """The table, one entry per slot: the class's hash, size and offset of its rows in ``pool``, its
    value, whether that value is exact, whether the slot is used; ``fill[0]`` the rows used in the
    pool, ``fill[1]`` the entries in the table."""

    hashes: np.ndarray
    sizes: np.ndarray
    offsets: np.ndarray
    values: np.ndarray
    exact: np.ndarray
    used: np.ndarray
    pool: np.ndarray
    fill: np.ndarray


@numba.njit(cache=True, nogil=True)
def new_memo(slots=SLOTS, pool=POOL):
    """A :class:`ClassMemo` with ``slots`` entries (a power of two) and room for ``pool`` rows. (A
    search that remembers nothing asks for one slot: nothing to allocate.)"""
    return ClassMemo(np.empty(slots, dtype=np.uint64), np.empty(slots, dtype=np.int64),
                     np.empty(slots, dtype=np.int64), np.empty(slots, dtype=np.int64), np.empty(slots, dtype=np.bool_),
                     np.zeros(slots, dtype=np.bool_), np.empty(pool, dtype=np.int32), np.zeros(2, dtype=np.int64))


@numba.njit(cache=True, nogil=True)
def _hash(Q):
    x = np.uint64(1469598103934665603)
    for r in range(Q.shape[0]):
        x = (x ^ np.uint64(Q[r] + 1)) * np.uint64(1099511628211)
    return x


@numba.njit(cache=True, nogil=True)
def _same(pool, off, Q):
    for r in range(Q.shape[0]):
        if pool[off + r] != Q[r]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def find(memo, Q):
    """(slot, found): the slot holding the key Q (a class's sorted rows, then in hard mode its rule), or
    the free slot where it goes."""
    mask = memo.hashes.shape[0] - 1
    h = _hash(Q)
    slot = np.int64(h & np.uint64(mask))
    while memo.used[slot]:
        if memo.hashes[slot] == h and memo.sizes[slot] == Q.shape[0] and _same(memo.pool, memo.offsets[slot], Q):
            return slot, True
        slot = (slot + 1) & mask
    return slot, False


@numba.njit(cache=True, nogil=True)
def known(memo, slot, found, need):
    """Whether the memo answers wins_2 of the class against ``need``: its value exact, or a bound
    below need."""
    return found and (memo.exact[slot] or memo.values[slot] < need)


@numba.njit(cache=True, nogil=True)
def put(memo, slot, found, Q, value, exact):
    """Record wins_2(Q) = value (exact) or <= value (not exact) in the slot :func:`find` gave."""
    fill = memo.fill
    if not found:
        if fill[0] + Q.shape[0] > memo.pool.shape[0] or 2 * (fill[1] + 1) > memo.hashes.shape[0]:
            memo.used[:] = False
            fill[:] = 0
            slot, _ = find(memo, Q)
        memo.hashes[slot] = _hash(Q)
        memo.sizes[slot] = Q.shape[0]
        memo.offsets[slot] = fill[0]
        for r in range(Q.shape[0]):
            memo.pool[fill[0] + r] = Q[r]
        fill[0] += Q.shape[0]
        fill[1] += 1
        memo.used[slot] = True
    elif memo.exact[slot] or (not exact and memo.values[slot] <= value):
        return
    memo.values[slot] = value
    memo.exact[slot] = exact
