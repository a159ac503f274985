"""The column bound given guesses fixed in advance (exact.lingo.columns, step 8), against the best set
holding them found by enumeration on tiny pools, and the search over first guesses
(exact.lingo.proof): its checkpoint, resume and closed branches."""

import functools
import itertools
import json

import pytest

from exact.errors import ExactError
from exact.feedback import compute_feedback_matrix
from exact.lingo.columns import column_bound, fixed_choice
from exact.lingo.score import count_wins, first_letters

from test_lingo_bound import family_pool


def best_holding(words, k, fixed):
    """The most wins of a k-subset of the pool holding the words ``fixed``, by enumeration."""
    F = compute_feedback_matrix(words, words)
    first = first_letters(words)
    rows = [words.index(w) for w in fixed]
    rest = [r for r in range(len(words)) if r not in rows]
    return max(count_wins(F, rows + list(more), first) for more in itertools.combinations(rest, k - len(rows)))


@functools.lru_cache(maxsize=None)
def plain_bound(seed, k, families_, variants, alphabet, guess):
    """The column bound given the one guess, with no target: three tests below read it for every guess of
    the same pools, so it is computed once per session."""
    return column_bound(family_pool(seed, families_, variants, alphabet), k, time_limit=60, fixed=[guess])


#: (seed, k, families, variants, alphabet). The 20-letter pool has 5 families of 7 (35 words): the
#: 6-of-8 pool of seed 2 (48 words) checked the same properties ten times slower, its branches taking
#: 0.6 s each, and the properties hold pool by pool, whatever its size.
POOLS = [(0, 1, 5, 6, "abcdefghij"), (28, 2, 5, 7, "abcdefghijklmnopqrst"), (3, 2, 5, 9, "abcdefghijklmnopqr"),
         (105, 2, 7, 8, "abcdefghijklmnop"), (109, 2, 6, 9, "abcdefghijklmnopqr"), (4, 1, 4, 8, "aeiousty")]


@pytest.mark.parametrize("seed,k,families_,variants,alphabet",
                         POOLS[:1] + [pytest.param(*p, marks=pytest.mark.slow) for p in POOLS[1:]])
def test_the_bound_given_one_guess_is_at_least_every_set_holding_it(seed, k, families_, variants, alphabet):
    pool = family_pool(seed, families_, variants, alphabet)
    words = list(pool.words)
    whole = column_bound(pool, k, time_limit=60).value
    lower = 0
    for g in words:
        b = plain_bound(seed, k, families_, variants, alphabet, g)
        assert b.complete
        best = best_holding(words, k, [g])
        assert best <= b.value <= whole, (g, best, b.value, whole)
        lower += b.value < whole
    assert lower > 0  # the brute-force check would pass with the unconditioned bound: conditioning bites


@pytest.mark.slow
def test_the_bound_given_two_guesses_at_k_3():
    pool = family_pool(6, 4, 8, "abcdefghijklmnopqrstuvwxyz")
    words = list(pool.words)
    for pair in list(itertools.combinations(words, 2))[::23]:
        b = column_bound(pool, 3, time_limit=60, fixed=list(pair))
        assert b.complete
        assert best_holding(words, 3, pair) <= b.value, pair


@pytest.mark.slow
@pytest.mark.parametrize("seed,k,families_,variants,alphabet", POOLS[1:4])
def test_a_closed_branch_has_no_set_reaching_the_target(seed, k, families_, variants, alphabet):
    pool = family_pool(seed, families_, variants, alphabet)
    words = list(pool.words)
    closed = 0
    for g in words:
        plain = plain_bound(seed, k, families_, variants, alphabet, g).value
        for target in (plain - 1, plain, plain + 1):
            b = column_bound(pool, k, time_limit=60, fixed=[g], target=target)
            assert b.details["closed"] == (plain < target), (g, target, plain)
            assert b.value == (target - 1 if plain < target else plain)
            if b.details["closed"]:
                closed += 1
                assert best_holding(words, k, [g]) < target
    assert closed > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed,k,families_,variants,alphabet", POOLS[1:3])
def test_a_branch_stopped_when_open_has_a_witness_the_full_bound_agrees_with(seed, k, families_, variants, alphabet):
    pool = family_pool(seed, families_, variants, alphabet)
    n = len(pool)
    opened = 0
    for g in pool.words:
        plain = plain_bound(seed, k, families_, variants, alphabet, g).value
        target = plain - 1  # every branch is open against its own bound minus one
        b = column_bound(pool, k, time_limit=60, fixed=[g], target=target, stop_when_open=True)
        if b.details["open"]:
            opened += 1
            assert target <= n - b.details["witness"] <= plain  # the witness shows it; the full bound agrees
            assert plain <= b.value  # the anytime bound of a stopped branch stays valid
        else:
            assert b.complete and not b.details["closed"]  # found below the target only through relaxed leaves
    assert opened > 0


def test_fixed_guesses_must_be_pool_words_and_at_most_k():
    pool = family_pool(0, 3, 4, "abcdefghij")
    w = pool.words[0]
    with pytest.raises(ExactError, match="not in"):
        column_bound(pool, 2, fixed=["zzzzz"])
    with pytest.raises(ExactError, match="fixed guesses"):
        column_bound(pool, 1, fixed=[w, pool.words[1]])
    assert fixed_choice([w]).letters != 0


# --- the search over first guesses (exact.lingo.proof) ----------------------------------------------

@pytest.mark.slow
def test_the_search_checkpoints_resumes_and_covers_the_pool(tmp_path):
    from exact.lingo.proof import read_checkpoint, run

    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    words = list(pool.words)
    path = tmp_path / "search.jsonl"
    best = max(best_holding(words, 2, [g]) for g in words[:3])  # a good set, not necessarily the best
    part, stopped = run(pool, 2, path, target=best + 1, limit=7)
    assert not stopped and part.branches_done == 7 and part.whole is None
    with open(path, "ab") as f:
        f.write(b'{"guess": "torn')  # a run killed mid-write
    whole, _ = run(pool, 2, path, target=best + 1, resume=True)
    head, records = read_checkpoint(path)
    assert head["target"] == best + 1 and sorted(r.guess for r in records) == sorted(words)  # none twice
    assert whole.branches_done == len(words)
    # the bound over every set: the largest branch bound, at least the true optimum, at most the column bound
    optimum = max(best_holding(words, 2, [g]) for g in words)
    assert optimum <= whole.whole <= column_bound(pool, 2, time_limit=60).value
    for r in records:
        assert r.complete
        if r.closed:
            assert best_holding(words, 2, [r.guess]) <= best and r.bound == best
        else:
            assert best_holding(words, 2, [r.guess]) <= r.bound


@pytest.mark.slow
def test_resume_refuses_another_target_and_a_locked_checkpoint(tmp_path):
    from exact.fileio import lock_checkpoint
    from exact.lingo.proof import run

    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    path = tmp_path / "search.jsonl"
    run(pool, 2, path, target=9, limit=1)
    with pytest.raises(ExactError, match="target"):
        run(pool, 2, path, target=10, resume=True)
    fd = lock_checkpoint(path)
    try:
        with pytest.raises(ExactError, match="in use"):
            run(pool, 2, path, target=9, resume=True)
    finally:
        import os

        os.close(fd)
    (tmp_path / "bad.jsonl").write_text('{"format": "something else"}\n')
    with pytest.raises(ExactError, match="bad.jsonl:1"):
        run(pool, 2, tmp_path / "bad.jsonl", resume=True)


@pytest.mark.slow
def test_the_cli_is_interrupted_by_sigterm_keeps_branches_and_resumes(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    words = tmp_path / "pool.txt"
    words.write_text("\n".join(pool.words) + "\n")
    cp = tmp_path / "cp.jsonl"
    cmd = [sys.executable, "-m", "exact", "lingo", "prove", "--words", str(words), "-k", "2",
           "--checkpoint", str(cp), "--best", " ".join(pool.words[:2])]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while not cp.exists() or cp.read_text().count("\n") < 3:
        time.sleep(0.2)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 143, err
    done = cp.read_text().count("\n") - 1
    assert 2 <= done < len(pool.words)
    out = subprocess.run(cmd + ["--resume", "--out", str(tmp_path / "cov.json")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    coverage = json.loads((tmp_path / "cov.json").read_text())
    assert coverage["first_guesses_done"] == len(pool.words) and coverage["bound_over_every_set"] is not None
    assert "bound:" in out.stdout


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_in_process_records(tmp_path):
    pytest.importorskip("distributed")
    from exact.lingo.proof import read_checkpoint, run

    pool = family_pool(3, 5, 9, "abcdefghijklmnopqr")
    run(pool, 2, tmp_path / "one.jsonl", target=10, limit=12)
    run(pool, 2, tmp_path / "dask.jsonl", target=10, limit=12, cluster="local", workers=1)
    key = lambda r: (r.guess, r.bound, r.closed, r.complete)  # noqa: E731
    assert sorted(map(key, read_checkpoint(tmp_path / "one.jsonl")[1])) == \
        sorted(map(key, read_checkpoint(tmp_path / "dask.jsonl")[1]))


@pytest.mark.slow
def test_cli_bound_given_fixed_words(tmp_path, cli, write_lines):
    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    words = tmp_path / "pool.txt"
    write_lines(words, pool.words)
    g = pool.words[5]
    expected = column_bound(pool, 2, time_limit=60, fixed=[g]).value
    r = cli("lingo", "bound", "--columns", "-k", "2", "--words", str(words), "--fixed", g, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["upper_bound"] == expected and data["details"]["fixed"] == [g]
    r = cli("lingo", "bound", "-k", "2", "--words", str(words), "--fixed", g)
    assert r.returncode == 2 and "--columns" in r.stderr


def test_the_committed_coverage_is_what_its_checkpoint_gives(root):
    from exact.lingo.proof import Coverage, read_checkpoint
    from exact.words import read_words

    cp = root / "results/lingo/enable-5-proof.jsonl"
    if not cp.exists():
        pytest.skip("no committed Lingo search checkpoint")
    head, records = read_checkpoint(cp)
    pool = read_words(root / "instances/lingo/enable-5.txt")
    assert head["pool_sha256"] == pool.sha256
    committed = json.loads((root / "results/lingo/enable-5-proof.json").read_text())
    mine = Coverage.of(pool, head["k"], head["target"], records).to_json()
    for key in ("first_guesses_done", "first_guesses_closed", "largest_open_bound", "open_bounds_histogram",
                "first_guesses_the_column_bound_cannot_close", "their_column_bounds_are_at_least",
                "seconds_per_branch", "bound_over_every_set"):
        assert mine[key] == committed[key], key
    for r in records:  # an open branch has its witness, above the target; a closed one has none below it
        assert not (r.open and r.closed)
        if r.open:
            assert len(pool) - r.witness >= head["target"] and r.bound >= len(pool) - r.witness


def test_the_proof_checkpoint_is_read_with_caps_and_checked(tmp_path):
    """A resume of /dev/zero stops at the first line's cap; a closed branch with a bound at the target, a
    count of the wrong type, a record twice are one-line errors."""
    from exact.lingo.proof import LingoSearch, header
    from exact import firstguess

    with pytest.raises(ExactError, match="/dev/zero:1: line longer than"):
        firstguess.read_checkpoint("/dev/zero", LingoSearch(None, 2, None, 1.0, 1, False))
    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    search = LingoSearch(pool, 2, 9, 60.0, 1, False)
    good = {"guess": pool.words[0], "bound": 8, "closed": True, "complete": True, "seconds": 0.1, "nodes": 1,
            "witness": None, "open": False}
    for bad, message in [({"bound": 9}, "not a complete search below the target 9"),
                         ({"nodes": True}, "nodes True is not an integer"),
                         ({"bound": 10**6}, "outside"),
                         ({"closed": False, "bound": 3}, "below the target 9: it would be closed")]:
        path = tmp_path / "cp.jsonl"
        path.write_text(json.dumps(header(pool, 2, 9, 1, 60.0)) + "\n" + json.dumps({**good, **bad}) + "\n")
        with pytest.raises(ExactError, match=rf"cp.jsonl:2: not a first-guess record \(.*{message}"):
            firstguess.read_checkpoint(path, search, pool.words)
    path.write_text(json.dumps(header(pool, 2, 9, 1, 60.0)) + "\n" + (json.dumps(good) + "\n") * 2)
    with pytest.raises(ExactError, match="cp.jsonl:3: a second record"):
        firstguess.read_checkpoint(path, search, pool.words)
