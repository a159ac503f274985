"""The column-budget bound (exact.lingo.columns): its budget on real sets, and the whole bound
against brute force on tiny pools."""

import itertools
import random

import numpy as np
import pytest

from exact.errors import ExactError
from exact.lingo.bound import upper_bound
from exact.lingo.columns import _best_rescue, column_bad_words, column_bound, extra_slots
from exact.lingo.score import count_wins
from exact.words import words_from_lines

from test_lingo_bound import brute_force_optimum, choice_of, family_pool, real_sets, tiny_pool


def budget_used(guesses, D):
    """Step 2''s left side for real guesses: sum over their letters of max(g(c) - 1, [c in D])."""
    m = len(guesses[0])
    letters = set("".join(guesses))
    greens = {c: sum(any(g[p] == c for g in guesses) for p in range(1, m)) for c in letters}
    return sum(max(greens[c] - 1, int(c in D)) for c in letters)


def test_real_sets_obey_the_budget():
    rng = random.Random(0)
    words = list(family_pool(3, 6, 8, "abcdefghijklmnopqrst").words) + list(tiny_pool(4).words)
    for k in (1, 2, 3, 4):
        for _ in range(300):
            guesses = rng.sample(words, k)
            E, D, S = choice_of(guesses)
            assert budget_used(guesses, D) <= extra_slots(5, k, len(E)), guesses


@pytest.mark.parametrize("seed", range(6))
def test_real_sets_lose_at_least_the_leaf_value(seed):
    """Steps 3-6': for the (E, D) real guesses induce, the bad words N are at least the leaf value."""
    pool = family_pool(seed, variants=5 + seed % 3, alphabet="abcdefghijklmnop") if seed % 2 else tiny_pool(seed)
    for s in real_sets(pool, random.Random(seed), 20):
        assert count_wins(s.F, s.rows, s.first) <= len(pool) - s.N
        assert s.N >= column_bad_words(s.fam, s.E, s.D, s.k), (s.rows, s.E, s.D)


@pytest.mark.parametrize("seed,with_forced", [(1, False), (2, True)])
def test_the_knapsack_against_enumeration(seed, with_forced):
    """Step 6''s dynamic programme: the most rescues under the budget, by brute force over green sets;
    with forced greens (step 8: the fixed guesses' greens) the choices must contain them."""
    rng = np.random.default_rng(seed)
    for _ in range(25):
        k, budget = int(rng.integers(1, 3)), int(rng.integers(0, 3))
        letters = rng.choice(26, 4, replace=False)
        r = np.zeros((4, 26), np.int64)  # positions 1..3 of a 4-letter word
        r[1:, letters] = rng.integers(0, 6, (3, 4))
        doubled = int(1 << letters[0]) if rng.random() < 0.5 else 0
        forced = np.zeros(26, np.int64)
        if with_forced:
            forced[letters[1]] = int(rng.integers(0, 8))
            forced[letters[2]] = int(rng.integers(0, 8))
        best = -1
        for choice in itertools.product(range(8), repeat=4):  # each letter's green positions
            if any(sum((T >> q) & 1 for T in choice) > k for q in range(3)):
                continue
            if any(T & forced[x] != forced[x] for T, x in zip(choice, letters)):
                continue
            cost = sum(max(bin(T).count("1") - 1, (doubled >> int(x)) & 1) for T, x in zip(choice, letters))
            if cost <= budget:
                best = max(best, sum(int(r[q + 1, x]) for T, x in zip(choice, letters) for q in range(3) if T >> q & 1))
        assert _best_rescue(r, k, budget, np.int64(doubled), forced) == best


@pytest.mark.slow
@pytest.mark.parametrize("seed,k,families_,variants,alphabet", [
    (0, 1, 5, 6, "abcdefghij"), (1, 1, 6, 7, "abcdefghijklmnop"), (2, 2, 6, 8, "abcdefghijklmnopqrst"),
    (3, 2, 5, 9, "abcdefghijklmnopqr"), (4, 1, 4, 8, "aeiousty"), (6, 3, 4, 8, "abcdefghijklmnopqrstuvwxyz"),
    (105, 2, 7, 8, "abcdefghijklmnop"), (109, 2, 6, 9, "abcdefghijklmnopqr"),
])
def test_column_bound_is_at_least_the_brute_force_optimum(seed, k, families_, variants, alphabet):
    pool = family_pool(seed, families_, variants, alphabet)
    best = brute_force_optimum(list(pool.words), k)
    b = column_bound(pool, k, time_limit=60)
    assert b.complete
    assert best <= b.value <= len(pool)


@pytest.mark.slow
def test_column_bound_bites_where_letters_run_short():
    # the brute-force checks would pass with the trivial bound n: here the budget beats the old bound
    rows = []
    for seed, alphabet in [(100, "abcdefghijklmnop"), (105, "abcdefghijklmnop"), (109, "abcdefghijklmnopqr")]:
        pool = family_pool(seed, 7 if len(alphabet) == 16 else 6, 8 if len(alphabet) == 16 else 9, alphabet)
        rows.append((column_bound(pool, 2, time_limit=60).value, upper_bound(pool, None, 2, time_limit=60).value,
                     brute_force_optimum(list(pool.words), 2), len(pool)))
    assert all(best <= c < n for c, _, best, n in rows), rows
    assert any(c < old for c, old, _, _ in rows), rows


def test_stopped_at_once_is_still_valid():
    pool = family_pool(7)
    b = column_bound(pool, 1, time_limit=1e-9)
    assert brute_force_optimum(list(pool.words), 1) <= b.value <= len(pool)


def test_bad_input():
    pool = words_from_lines(["bakes", "bikes"])
    for k in (0, 3):
        with pytest.raises(ExactError):
            column_bound(pool, k)
    with pytest.raises(ExactError):
        column_bound(pool, 1, time_limit=0)


@pytest.mark.slow
def test_cli_column_bound_update_and_verify(tmp_path):
    import json
    from dataclasses import replace

    from click.testing import CliRunner

    from exact.cli.lingo import lingo
    from exact.lingo.result import read_result, verify_result, write_result

    pool = family_pool(105, 7, 8, "abcdefghijklmnop")
    words = tmp_path / "pool.txt"
    words.write_text("\n".join(pool.words) + "\n")
    runner = CliRunner()
    solve = tmp_path / "solve.json"
    r = runner.invoke(lingo, ["solve", "--words", str(words), "-k", "2", "--time-limit", "10", "--cpsat-max-n", "0",
                              "--bound-time", "1", "--out", str(solve)])
    assert r.exit_code == 0, r.output
    before = replace(read_result(solve), upper_bound=len(pool), bound_method="trivial: n", status="FEASIBLE")
    write_result(solve, before)  # a weak bound for the column bound to replace
    r = runner.invoke(lingo, ["bound", "--words", str(words), "-k", "2", "--columns", "--time-limit", "60",
                              "--out", str(tmp_path / "c.json"), "--update", str(solve)])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "c.json").read_text())
    after = read_result(solve)
    assert data["complete"] and after.upper_bound == data["upper_bound"] < len(pool)
    assert after.bound_method.startswith("column bound") and after.wins <= after.upper_bound
    assert not verify_result(solve).ok  # not re-derived without time: unconfirmed
    v = verify_result(solve, bound_time=60)
    assert v.ok, v.checks
    data["upper_bound"] -= 1  # a bound file that disagrees with the result fails
    (tmp_path / "c.json").write_text(json.dumps(data))
    assert not verify_result(solve, bound_time=60).ok
    bad = runner.invoke(lingo, ["bound", "--words", str(words), "-k", "2", "--update", str(solve)])
    assert bad.exit_code == 2
