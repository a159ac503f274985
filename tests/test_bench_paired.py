"""Paired timings (exact.bench.paired): the order alternates by pair, the times are medians, a check
sees every pair."""

import pytest

from exact.bench.paired import run_pairs
from exact.errors import InternalError


def test_pairs_alternate_their_order_and_report_medians():
    calls = []
    times = {"a": iter([3.0, 1.0, 2.0, 9.0]), "b": iter([4.0, 8.0, 6.0, 5.0])}

    def engine(name):
        def go():
            calls.append(name)
            return next(times[name])
        return go

    seen = []
    paired = run_pairs({"a": engine("a"), "b": engine("b")}, 4, seconds=lambda s: s, check=seen.append)
    assert calls == ["a", "b", "b", "a", "a", "b", "b", "a"]  # ABBA ABBA
    assert [p.first for p in paired.pairs] == ["a", "b", "a", "b"]
    assert paired.median("a") == 2.5 and paired.median("b") == 5.5
    assert paired.ratio("b", "a") == 5.5 / 2.5
    assert paired.results["a"] == [3.0, 1.0, 2.0, 9.0] and len(seen) == 4
    assert "AB BA AB BA" in paired.order()
    assert paired.lines()[1] == "  pair 2 (b first): a 1.00 s, b 8.00 s"


def test_one_pair_says_it_is_not_alternated_and_a_failed_check_stops():
    paired = run_pairs({"x": lambda: 1, "y": lambda: 2}, 1)
    assert "not alternated" in paired.order() and paired.median("x") >= 0

    def disagree(got):
        raise InternalError(f"{got}")

    with pytest.raises(InternalError):
        run_pairs({"x": lambda: 1, "y": lambda: 2}, 2, check=disagree)
    with pytest.raises(InternalError):
        run_pairs({"x": lambda: 1}, 2)
