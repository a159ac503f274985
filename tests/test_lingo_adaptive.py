"""The adaptive Lingo game (exact.lingo.adaptive) against plain recursion on tiny pools."""

import json

import pytest

from exact.errors import ExactError
from exact.lingo.adaptive import letter_groups, solve_adaptive, solve_adaptive_levels, write_adaptive
from exact.lingo.brute import adaptive_brute_force
from exact.lingo.result import verify_result
from exact.game.tree import replay


@pytest.mark.slow
@pytest.mark.parametrize("same", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_adaptive_matches_brute_force(seed, same, look_alike_pools):
    below_n = 0
    for pool in look_alike_pools(3, seed):
        results = solve_adaptive_levels(pool, [1, 2, 3], same_first_letter=same)
        for K, r in results.items():
            reference = adaptive_brute_force(pool.words, K, same)
            assert {o.letter: o.wins for o in r.letters} == reference, (pool.words, K, same)
            assert r.wins == sum(reference.values()) and r.status == "OPTIMAL"
            below_n += r.wins < r.n
            groups = letter_groups(pool)
            for o in r.letters:  # every tree is valid and wins what is claimed
                guesses = groups[o.letter] if same else pool
                rp = replay(o.tree, groups[o.letter], guesses, depth=K)
                assert rp.valid and rp.wins == o.wins, (pool.words, K, o.letter)
    assert below_n >= 3, "the pools are too easy to test anything"


def test_more_guesses_never_hurt_and_the_same_letter_rule_never_helps(look_alike_pools):
    pool = next(look_alike_pools(1, 7, letters=4))
    free = solve_adaptive_levels(pool, [1, 2, 3, 4], trees=False)
    same = solve_adaptive_levels(pool, [1, 2, 3, 4], same_first_letter=True, trees=False)
    wins = [free[K].wins for K in (1, 2, 3, 4)]
    assert wins == sorted(wins) and wins[0] == len(letter_groups(pool))
    assert all(same[K].wins <= free[K].wins for K in free)


def test_certificate_is_verified_and_a_tampered_one_rejected(tmp_path, look_alike_pools):
    pool = next(look_alike_pools(1, 3))
    words = tmp_path / "pool.txt"
    words.write_text("\n".join(pool.words) + "\n")
    from exact.words import read_words

    pool = read_words(words)
    r = solve_adaptive(pool, 2)
    write_adaptive(r, tmp_path / "a.json", tmp_path / "trees")
    v = verify_result(tmp_path / "a.json")
    assert v.ok and all(o == "ok" for _, o, _ in v.checks), v.checks
    data = json.loads((tmp_path / "a.json").read_text())
    L = next(iter(data["letters"]))
    data["letters"][L]["wins"] += 1
    data["wins"] += 1
    (tmp_path / "b.json").write_text(json.dumps(data))
    assert not verify_result(tmp_path / "b.json").ok
    tree = tmp_path / "trees" / f"{L}.tree"
    tree.write_text(tree.read_text().replace("G", "B", 1))
    assert not verify_result(tmp_path / "a.json").ok  # the tree no longer matches its hash


def test_cli_adaptive_writes_verifiable_certificates(tmp_path):
    from click.testing import CliRunner

    from exact.cli.lingo import lingo

    words = tmp_path / "pool.txt"
    words.write_text("baker\nbakes\nbaled\nbales\ncater\ncates\ndates\nbaked\ncakes\ncaked\n")
    out = tmp_path / "a-{K}.json"
    r = CliRunner().invoke(lingo, ["solve", "--adaptive", "--guesses-allowed", "1-2", "--words", str(words),
                                   "--out", str(out), "--trees", str(tmp_path / "t-{K}")])
    assert r.exit_code == 0, r.output
    assert "K=2 OPTIMAL" in r.output
    for K, wins in ((1, 3), (2, 9)):
        data = json.loads((tmp_path / f"a-{K}.json").read_text())
        assert data["wins"] == wins == sum(adaptive_brute_force(
            [w for w in words.read_text().split()], K).values())
        assert verify_result(tmp_path / f"a-{K}.json").ok
    r = CliRunner().invoke(lingo, ["solve", "--guesses-allowed", "3", "--words", str(words)])
    assert r.exit_code != 0 and "--adaptive" in r.output
    r = CliRunner().invoke(lingo, ["solve", "--adaptive", "--guesses-allowed", "2-3", "--words", str(words),
                                   "--out", str(tmp_path / "x.json")])
    assert r.exit_code != 0 and "{K}" in r.output
    # --resume: K = 2 (and K = 1 below it) are read back from a-{K}.json, K = 3 is solved
    r = CliRunner().invoke(lingo, ["solve", "--adaptive", "--guesses-allowed", "2-3", "--words", str(words),
                                   "--out", str(out), "--trees", str(tmp_path / "t-{K}"), "--resume"])
    assert r.exit_code == 0, r.output
    for K in (2, 3):
        data = json.loads((tmp_path / f"a-{K}.json").read_text())
        assert data["wins"] == sum(adaptive_brute_force(words.read_text().split(), K).values())
        assert verify_result(tmp_path / f"a-{K}.json").ok


def test_a_letter_time_limit_gives_valid_bounds_and_goes_on(tmp_path):
    """With no time at all, each letter's search stops after its first batch of first guesses
    (16, of some 80 here): the wins are a lower bound (a tree that replays to them), the upper
    bound |W_L| holds, the next K is still solved, and the certificate verifies."""
    from exact.words import read_words, wordle_answers

    words = tmp_path / "pool.txt"
    words.write_text("".join(w + "\n" for w in wordle_answers().words if w[0] in "jkqyz"))
    pool = read_words(words)
    exact = solve_adaptive_levels(pool, [2, 3], trees=False)
    stopped = solve_adaptive_levels(pool, [2, 3], letter_time_limit=0.0)
    timed_out = 0
    for K in (2, 3):
        truth = {o.letter: o.wins for o in exact[K].letters}
        r = stopped[K]
        assert r.complete and not r.interrupted and len(r.letters) == len(truth)
        for o in r.letters:
            assert o.wins <= truth[o.letter] <= o.upper_bound
            assert o.status == "OPTIMAL" or (o.timed_out and o.status == "FEASIBLE" and o.upper_bound == o.n)
            if o.status == "OPTIMAL":
                assert o.wins == truth[o.letter]
            timed_out += o.timed_out
            groups = letter_groups(pool)
            rp = replay(o.tree, groups[o.letter], pool, depth=o.tree_guesses or K)
            assert rp.valid and rp.wins == o.wins
        write_adaptive(r, tmp_path / f"k{K}.json", tmp_path / f"t{K}")
        assert verify_result(tmp_path / f"k{K}.json").ok
        data = json.loads((tmp_path / f"k{K}.json").read_text())
        assert data["wins"] <= exact[K].wins <= data["upper_bound"]
    assert timed_out, "no letter was stopped: the test tests nothing"


def test_resume_keeps_the_letters_proven_and_solves_the_rest(tmp_path, look_alike_pools):
    from exact.words import wordle_answers, words_from_lines

    pool = words_from_lines([w for w in wordle_answers().words if w[0] in "jkqyz"], "jkqyz")
    full = solve_adaptive_levels(pool, [2, 3])
    certificates = {K: r.to_json() for K, r in full.items()}
    first = min(o.letter for o in full[2].letters if o.wins < o.n)  # not settled at K = 2
    del certificates[3]["letters"][first]  # as if stopped before that letter at K = 3
    from exact.seal import sealed

    certificates = {K: sealed(d) for K, d in certificates.items()}  # as the run that stopped wrote them
    again = solve_adaptive_levels(pool, [2, 3], resume=certificates)
    for K in (2, 3):
        assert [(o.letter, o.wins, o.status) for o in again[K].letters] == \
            [(o.letter, o.wins, o.status) for o in full[K].letters]
    kept = {o.letter for o in again[3].letters if o.tree is None}  # taken from the certificate: no new tree
    solved = {o.letter for o in again[3].letters if o.tree is not None}
    assert first in solved and kept == set(certificates[3]["letters"])
    certificates[3]["command"] += " (edited)"  # the seal no longer matches, so nothing is taken from it at K = 3
    edited = solve_adaptive_levels(pool, [2, 3], resume=certificates)
    open_at_2 = {o.letter for o in full[2].letters if o.wins < o.n}  # the others are settled at K = 2 (still sealed)
    assert {o.letter for o in edited[3].letters if o.tree is not None} == open_at_2
    other = next(look_alike_pools(1, 9))
    with pytest.raises(ExactError, match="^resume: the certificate"):
        solve_adaptive_levels(other, [2, 3], resume=certificates)


def _forge(tmp_path, pool_words, K):
    """A certificate with one letter's optimal tree swapped for a valid worse one, its sha256 and the
    sums fixed (the forgery verify used to accept): (certificate path, letter, true wins, forged wins)."""
    from exact.wordle.wins import dp, trees as dp_trees
    from exact.game.formats import write_tree
    from exact.words import read_words

    words = tmp_path / "pool.txt"
    words.write_text("\n".join(pool_words) + "\n")
    pool = read_words(words)
    r = solve_adaptive(pool, K)
    write_adaptive(r, tmp_path / "a.json", tmp_path / "trees")
    groups = letter_groups(pool)
    for o in r.letters:  # a letter with a first guess worse than its optimum
        A = groups[o.letter]
        for g in pool.words:
            worse = dp.solve(A, pool, depth=K, first=g, top=1, progress=False)
            if worse.wins < o.wins:
                tree = dp_trees.best_tree(A, pool, K, g)
                write_tree(tree, tmp_path / "trees" / f"{o.letter}.tree", answers=A)
                data = json.loads((tmp_path / "a.json").read_text())
                x = data["letters"][o.letter]
                x.update(wins=worse.wins, first=g, optimal_first=[g],
                         tree_sha256=__import__("hashlib").sha256(
                             (tmp_path / "trees" / f"{o.letter}.tree").read_bytes()).hexdigest())
                x["probability"] = x["upper_bound"] = None
                x["upper_bound"] = worse.wins
                x["probability"] = worse.wins / x["n"]
                data["wins"] = sum(y["wins"] for y in data["letters"].values())
                data["probability"] = data["wins"] / data["n"]
                data["upper_bound"], data["upper_probability"] = data["wins"], data["wins"] / data["n"]
                (tmp_path / "a.json").write_text(json.dumps(data, indent=2))
                return tmp_path / "a.json", o.letter, o.wins, worse.wins
    raise AssertionError("no worse first guess in the pool")


FORGE_POOL = ["baker", "bakes", "baled", "bales", "bated", "cater", "cates", "dates", "baked", "cakes", "caked",
              "bolts", "boles"]


def test_a_forged_optimal_letter_is_rejected(tmp_path):
    """A valid but worse tree, its sha256 and the sums fixed, still claiming OPTIMAL: the re-derivation
    of the letter's value catches it (the replay alone cannot: the tree does win what it claims)."""
    cert, L, true, forged = _forge(tmp_path, FORGE_POOL, 2)
    v = verify_result(cert)
    outcomes = {name: outcome for name, outcome, _ in v.checks}
    assert outcomes["trees"] == "ok" and outcomes["sum"] == "ok"  # the forgery is consistent
    assert outcomes["optimal letters"] == "FAIL" and not v.ok
    assert f"{L}: claimed {forged}, re-derived {true}" in dict((n, d) for n, _, d in v.checks)["optimal letters"]


def test_an_optimal_letter_not_re_derived_in_time_is_not_verified(tmp_path, monkeypatch):
    import exact.lingo.adaptive as adaptive

    words = tmp_path / "pool.txt"
    words.write_text("\n".join(FORGE_POOL) + "\n")
    from exact.words import read_words

    write_adaptive(solve_adaptive(read_words(words), 2), tmp_path / "a.json", tmp_path / "trees")
    monkeypatch.setattr(adaptive, "REDERIVE_TIME", 1e-9)
    v = verify_result(tmp_path / "a.json")
    assert not v.ok and v.unconfirmed == ["optimal letters"]
    assert verify_result(tmp_path / "a.json", partial=True).ok


def test_resume_never_carries_a_forged_optimal_forward(tmp_path):
    from click.testing import CliRunner

    from exact.cli.lingo import lingo

    cert, L, true, forged = _forge(tmp_path, FORGE_POOL, 2)
    r = CliRunner().invoke(lingo, ["solve", "--adaptive", "--guesses-allowed", "2", "--words",
                                   str(tmp_path / "pool.txt"), "--out", str(cert), "--trees", str(tmp_path / "new"),
                                   "--resume"])
    assert r.exit_code == 0, r.output
    data = json.loads(cert.read_text())
    assert data["letters"][L]["wins"] == true and data["status"] == "OPTIMAL"
    assert verify_result(cert).ok
