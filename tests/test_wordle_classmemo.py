"""The per-node memo of wins_2 of classes (exact.wordle.wins.classmemo): a class is found again only
as itself, an exact value always answers, a bound only below the need, the least bound is kept, and
a full table starts afresh; in hard mode the kernel's key holds the rule after the class."""

import numpy as np
import pytest

from exact.game.hard import HardMode
from exact.wordle.wins.classmemo import SLOTS, find, known, new_memo, put
from exact.wordle.wins.kernels import _class_key


def remember(memo, Q, value, exact):
    slot, found = find(memo, Q)
    put(memo, slot, found, Q, value, exact)


def answer(memo, Q, need):
    """(value, exact) when the memo answers against need, else None."""
    slot, found = find(memo, Q)
    return (int(memo.values[slot]), bool(memo.exact[slot])) if known(memo, slot, found, need) else None


def test_a_class_is_found_again_only_as_itself():
    memo = new_memo()
    rng = np.random.default_rng(0)
    classes = [np.unique(rng.integers(0, 500, size=rng.integers(3, 40))).astype(np.int64) for _ in range(300)]
    classes = list({Q.tobytes(): Q for Q in classes}.values())
    for v, Q in enumerate(classes):
        remember(memo, Q, v, True)
    stored = {Q.tobytes() for Q in classes}
    for v, Q in enumerate(classes):
        assert answer(memo, Q, 10**6) == (v, True)
        if Q[:-1].tobytes() not in stored:  # a class's prefix has the same rows but one: not found
            assert answer(memo, Q[:-1], 0) is None
    assert answer(memo, np.array([501, 502, 503], dtype=np.int64), 0) is None


def test_bounds_answer_below_the_need_and_the_least_is_kept():
    memo = new_memo()
    Q = np.array([1, 5, 9, 12], dtype=np.int64)
    remember(memo, Q, 3, False)  # wins_2(Q) <= 3
    assert answer(memo, Q, 4) == (3, False) and answer(memo, Q, 3) is None
    remember(memo, Q, 4, False)  # a looser bound changes nothing
    assert answer(memo, Q, 4) == (3, False)
    remember(memo, Q, 2, False)
    assert answer(memo, Q, 3) == (2, False)
    remember(memo, Q, 2, True)  # the exact value answers any need, and stays
    assert answer(memo, Q, 0) == (2, True)
    remember(memo, Q, 1, False)
    assert answer(memo, Q, 0) == (2, True)


def test_a_full_table_starts_afresh():
    memo = new_memo()
    first = np.array([0, 1, 2], dtype=np.int64)
    remember(memo, first, 3, True)
    for n in range(SLOTS // 2):
        remember(memo, np.array([n + 10, n + 11, n + 12 + SLOTS], dtype=np.int64), 3, True)
    assert answer(memo, first, 0) is None
    last = np.array([SLOTS // 2 + 9, SLOTS // 2 + 10, SLOTS // 2 + 11 + SLOTS], dtype=np.int64)
    assert answer(memo, last, 0) == (3, True)


@pytest.mark.slow
def test_a_small_table_starts_afresh_when_its_pool_is_full():
    memo = new_memo(8, 10)
    first, second = np.arange(0, 6, dtype=np.int64), np.arange(6, 12, dtype=np.int64)
    remember(memo, first, 4, True)
    assert answer(memo, first, 0) == (4, True)
    remember(memo, second, 5, True)  # 6 + 6 rows > 10: the pool is full, the table starts afresh
    assert answer(memo, first, 0) is None and answer(memo, second, 0) == (5, True)


def test_in_hard_mode_a_class_is_keyed_with_the_rule_after_it():
    """The value_3 kernel's key (exact.wordle.wins.kernels._class_key): the rows alone in normal mode;
    in hard mode the rows and the rule, so that the same rows under another rule are another entry."""
    codes, counts = np.zeros((1, 5), dtype=np.uint8), np.zeros((1, 26), dtype=np.uint8)
    greens, least = np.full(5, -1, dtype=np.int8), np.zeros(26, dtype=np.int8)
    more = least.copy()
    more[4] = 1  # an e shown yellow
    Q = np.array([2, 3, 7, 11], dtype=np.int64)
    assert _class_key(Q, HardMode(False, greens, least, codes, counts)).tolist() == Q.tolist()
    node, after = HardMode(True, greens, least, codes, counts), HardMode(True, greens, more, codes, counts)
    memo = new_memo()
    remember(memo, _class_key(Q, node), 3, True)
    assert answer(memo, _class_key(Q, node), 0) == (3, True)
    assert answer(memo, _class_key(Q, after), 0) is None and answer(memo, Q, 0) is None
