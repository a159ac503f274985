"""The group bound (exact.lingo.groups) against brute force on tiny pools."""

import itertools
import json

import numpy as np
import pytest

from exact.feedback import compute_feedback_matrix, feedback
from exact.lingo.brute import brute_force_best
from exact.lingo.groups import (certificate, group_bound, group_value, greedy_grouping, make_grouping,
                                separates, verify_groups)
from exact.lingo.result import Verification, verify_result
from exact.lingo.score import count_wins, first_letters
from exact.words import WordList, wordle_allowed


@pytest.mark.slow
def test_indicators_match_the_feedback_rule():
    rng = np.random.default_rng(0)
    words = wordle_allowed().words
    # look-alike triples (repeated letters included) so that many pairs are hard to separate
    doubles = [w for w in words if len(set(w)) < 5]
    for _ in range(6000):
        g = words[rng.integers(len(words))] if rng.random() < 0.5 else doubles[rng.integers(len(doubles))]
        u = doubles[rng.integers(len(doubles))]
        near = [w for w in (words[rng.integers(len(words))] for _ in range(40)) if w[0] == u[0]] or [u]
        w = near[0] if rng.random() < 0.5 else "".join(rng.permutation(list(u)))
        # the rule as read (exact.feedback.feedback, which tests/test_feedback.py holds equal to the
        # matrix): a one-row matrix per triple costs a parallel kernel launch, most of this test's time
        assert separates(g, u, w) == (feedback(g, u) != feedback(g, w)), (g, u, w)


def random_grouping(pool, rng):
    groups = []
    for L in sorted({w[0] for w in pool.words}):
        members = [w for w in pool.words if w[0] == L]
        rng.shuffle(members)
        cut = int(rng.integers(0, 3))
        parts = np.array_split(members[cut:], int(rng.integers(1, 3)))
        groups += [list(p) for p in parts if len(p) >= 2]
    return make_grouping(pool, groups)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_group_bound_against_brute_force(seed, look_alike_pools):
    rng = np.random.default_rng(seed)
    below_n = 0
    for pool in look_alike_pools(3, seed, letters=2, sizes=(4, 8), source="tiny"):
        F = compute_feedback_matrix(pool.words, pool.words)
        first = first_letters(pool.words)
        grouping = random_grouping(pool, rng)
        for k in (1, 2, 3):
            optimum = brute_force_best(F, first, k)[0]
            # the inner max by enumeration: |R| + sum_i classes(S, G_i) over every k-set
            inner = max(group_value(pool, grouping, [pool.words[g] for g in S])
                        for S in itertools.combinations(range(len(pool)), k))
            for S in itertools.combinations(range(len(pool)), k):  # the inequality, set by set
                assert count_wins(F, list(S), first) <= group_value(pool, grouping, [pool.words[g] for g in S])
            b = group_bound(pool, grouping, k, time_limit=20, workers=1)
            assert b.status == "OPTIMAL", (pool.words, k)
            assert b.value == inner, (pool.words, grouping, k)  # the model's max is the inner max exactly
            assert b.value >= optimum  # a valid bound, always
            below_n += optimum < len(pool)
    assert below_n >= 3, "the pools are too easy to test anything"


def test_whole_letters_as_groups_give_the_optimum(look_alike_pools):
    pool = next(look_alike_pools(1, 5, letters=2, sizes=(4, 8), source="tiny"))
    F = compute_feedback_matrix(pool.words, pool.words)
    first = first_letters(pool.words)
    whole = make_grouping(pool, [[w for w in pool.words if w[0] == L] for L in sorted({w[0] for w in pool.words})])
    assert whole.rest == 0
    for k in (1, 2):
        optimum = brute_force_best(F, first, k)[0]
        assert group_bound(pool, whole, k, time_limit=20, workers=1).value == optimum
        letters = group_bound(pool, whole, k, time_limit=20, workers=1, real_words=False)
        assert letters.status == "OPTIMAL" and letters.value >= optimum  # the weaker relaxation stays valid


def test_greedy_grouping_is_disjoint_and_single_letter():
    pool = WordList(tuple(sorted(wordle_allowed().words[:400])), "first-400")
    g = greedy_grouping(pool, 2)
    flat = [i for grp in g.groups for i in grp]
    assert len(flat) == len(set(flat)) and g.rest == len(pool) - len(flat)
    assert all(len({pool.words[i][0] for i in grp}) == 1 for grp in g.groups)


def test_bad_groups_are_refused():
    pool = WordList(("bakes", "bikes", "cakes"), "t")
    from exact.errors import ExactError

    with pytest.raises(ExactError, match="two groups"):
        make_grouping(pool, [["bakes", "bikes"], ["bikes"]])
    with pytest.raises(ExactError, match="mixes"):
        make_grouping(pool, [["bakes", "cakes"]])


def test_certificate_checks(tmp_path, look_alike_pools):
    pool = next(look_alike_pools(1, 2, letters=2, sizes=(4, 8), source="tiny"))
    grouping = random_grouping(pool, np.random.default_rng(1))
    b = group_bound(pool, grouping, 2, time_limit=20, workers=1)
    data = certificate(pool, grouping, b)
    v = Verification("x")
    verify_groups(data, tmp_path, pool, v, resolve_time=10)
    assert v.ok and all(o == "ok" for _, o, _ in v.checks), v.checks
    bad = json.loads(json.dumps(data))
    bad["upper_bound"] -= 1
    v = Verification("x")
    verify_groups(bad, tmp_path, pool, v)
    assert not v.ok
    bad = json.loads(json.dumps(data))
    bad["groups"][0].append(bad["groups"][1][0] if len(bad["groups"]) > 1 else bad["groups"][0][0])
    v = Verification("x")
    verify_groups(bad, tmp_path, pool, v)
    assert not v.ok


@pytest.mark.slow
def test_cli_group_bound_and_update(tmp_path, look_alike_pools):
    from click.testing import CliRunner

    from exact.cli.lingo import lingo
    from exact.lingo.result import read_result

    pool = next(look_alike_pools(1, 9, letters=2, sizes=(4, 8), source="tiny"))
    words = tmp_path / "pool.txt"
    words.write_text("\n".join(pool.words) + "\n")
    runner = CliRunner()
    r = runner.invoke(lingo, ["solve", "--words", str(words), "-k", "2", "--time-limit", "10", "--cpsat-max-n", "0",
                              "--bound-time", "1", "--out", str(tmp_path / "solve.json")])
    assert r.exit_code == 0, r.output
    before = read_result(tmp_path / "solve.json")
    r = runner.invoke(lingo, ["group-bound", "--words", str(words), "-k", "2", "--fixed-positions", "0",
                              "--time-limit", "20", "--out", str(tmp_path / "g.json"),
                              "--update", str(tmp_path / "solve.json")])
    assert r.exit_code == 0, r.output
    cert = json.loads((tmp_path / "g.json").read_text())
    after = read_result(tmp_path / "solve.json")
    assert after.upper_bound == min(before.upper_bound, cert["upper_bound"]) >= after.wins
    v = verify_result(tmp_path / "solve.json")
    assert v.ok, v.checks
    r = runner.invoke(lingo, ["verify", str(tmp_path / "g.json"), "--bound-time", "10"])
    assert r.exit_code == 0 and "verified" in r.output, r.output
