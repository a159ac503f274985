"""The Lingo upper bound: each step of its argument checked against the rule and brute force."""

import itertools
import json
import random
from pathlib import Path
from typing import NamedTuple

import pytest

from exact.errors import ExactError
from exact.feedback import feedback, compute_feedback_matrix
from exact.lingo.bound import bad_word_bound, families, upper_bound
from exact.lingo.score import count_wins, first_letters
from exact.words import read_words, words_from_lines

ROOT = Path(__file__).resolve().parents[1]


def random_words(rng, n, alphabet, length=5):
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    return sorted(words)


# --- Step 1: what one guess reveals ---------------------------------------------------------------

def revealed(guess, answer):
    """Step 1's claim: greens, and min(#c(answer), #c(guess)) for each letter c of the guess."""
    greens = tuple(g == a for g, a in zip(guess, answer))
    counts = tuple(sorted((c, min(answer.count(c), guess.count(c))) for c in set(guess)))
    return greens, counts


@pytest.mark.slow
def test_a_guess_reveals_exactly_greens_and_capped_counts():
    rng = random.Random(1)
    for _ in range(20000):
        g, a, b = ("".join(rng.choice("abcd") for _ in range(5)) for _ in range(3))
        assert (feedback(g, a) == feedback(g, b)) == (revealed(g, a) == revealed(g, b)), (g, a, b)


# --- Steps 2-4: a real k-set's bad words (plain Python, from the definitions) ----------------------

def choice_of(guesses):
    """Step 2: the letters (E, D) and greens S[p] that real guesses induce."""
    letters = set("".join(guesses))
    E = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in letters)
    D = "".join(sorted({c for g in guesses for c in g if g.count(c) >= 2}))
    S = [{g[p] for g in guesses} for p in range(len(guesses[0]))]
    return E, D, S


def bad_words(words, E, D, S):
    """Steps 3-4: the words invisible in a family (one position apart) after an earlier invisible one."""
    bad = set()
    for p in range(1, len(words[0])):
        by_base = {}
        for i, w in enumerate(words):
            by_base.setdefault(w[:p] + w[p + 1:], []).append(i)
        for base, members in by_base.items():
            invisible = [i for i in members
                         if not (words[i][p] in S[p]
                                 or (words[i][p] not in E and (words[i][p] not in base or words[i][p] in D)))]
            bad.update(invisible[1:])
    return len(bad)


def wins_of(F, first, rows):
    return count_wins(F, list(rows), first)


def tiny_pool(seed, n=30, alphabet="abcdefg"):
    rng = random.Random(seed)
    return words_from_lines(random_words(rng, n, alphabet))


def family_pool(seed, families=6, variants=6, alphabet="abcdefghijklmnop"):
    """Words one letter apart in bulk (random words rarely are), so that letters run short."""
    rng = random.Random(seed)
    words = set()
    for _ in range(families):
        base = [rng.choice("bcd")] + [rng.choice(alphabet) for _ in range(4)]
        p = rng.randrange(1, 5)
        for x in rng.sample(alphabet, variants):
            words.add("".join(base[:p] + [x] + base[p + 1:]))
    return words_from_lines(sorted(words))


@pytest.mark.parametrize("seed", range(6))
def test_real_sets_lose_their_bad_words_and_the_bound_sees_it(seed):
    pool = family_pool(seed, variants=5 + seed % 3) if seed % 2 else tiny_pool(seed)
    for s in real_sets(pool, random.Random(seed), 15):
        assert wins_of(s.F, s.first, s.rows) <= len(pool) - s.N  # steps 1-4
        assert s.N >= bad_word_bound(s.fam, s.E, s.D, s.k)  # step 6: every greens choice, these included


class RealSet(NamedTuple):
    """A real k-set of a pool with the letter choice (E, D, S) it induces and its bad words N."""

    F: object  # the feedback matrix
    first: object  # each word's first letter
    fam: object
    k: int
    rows: list[int]
    E: str
    D: str
    S: object
    N: int


def real_sets(pool, rng: random.Random, tries: int):
    """``tries`` random k-sets of the pool for each k in 1..3, each with its choice and bad words."""
    words = list(pool.words)
    F = compute_feedback_matrix(words, words)
    first = first_letters(words)
    fam = families(words)
    for k in (1, 2, 3):
        for _ in range(tries):
            rows = rng.sample(range(len(words)), k)
            E, D, S = choice_of([words[r] for r in rows])
            yield RealSet(F, first, fam, k, rows, E, D, S, bad_words(words, E, D, S))


# --- The whole bound against brute force ------------------------------------------------------------

def brute_force_optimum(words, k):
    F = compute_feedback_matrix(words, words)
    first = first_letters(words)
    return max(wins_of(F, first, rows) for rows in itertools.combinations(range(len(words)), k))


@pytest.mark.slow
@pytest.mark.parametrize("seed,k,families,variants,alphabet", [
    (0, 1, 5, 6, "abcdefghij"), (1, 1, 6, 7, "abcdefghijklmnop"), (2, 2, 6, 8, "abcdefghijklmnopqrst"),
    (3, 2, 5, 9, "abcdefghijklmnopqr"), (4, 1, 4, 8, "aeiousty"), (6, 3, 4, 8, "abcdefghijklmnopqrstuvwxyz"),
])
def test_bound_is_at_least_the_brute_force_optimum(seed, k, families, variants, alphabet):
    pool = family_pool(seed, families, variants, alphabet)
    best = brute_force_optimum(list(pool.words), k)
    b = upper_bound(pool, None, k, time_limit=60)
    assert b.complete
    assert best <= b.value <= len(pool)


def test_bound_is_below_n_on_pools_rich_in_families():
    # the brute-force checks above would pass with the trivial bound n: these show the bound bites
    values = [upper_bound(family_pool(seed), None, 1, time_limit=60).value for seed in range(3)]
    assert all(v < len(family_pool(seed)) for seed, v in zip(range(3), values))


def test_bound_is_not_trivial_where_letters_run_short():
    # one guess holds 5 letters; seven vowels in one family: at least two stay unseen
    pool = words_from_lines(["bakes", "bekes", "bikes", "bokes", "bukes", "bykes", "brkes", "cakes", "cokes"])
    b = upper_bound(pool, None, 1, time_limit=60)
    assert b.value < len(pool)
    assert brute_force_optimum(list(pool.words), 1) <= b.value


def test_bound_stopped_at_once_is_still_valid():
    pool = family_pool(7)
    b = upper_bound(pool, None, 1, time_limit=1e-9)
    assert brute_force_optimum(list(pool.words), 1) <= b.value <= len(pool)


def test_bad_input():
    pool = tiny_pool(0, n=10)
    for k in (0, 11):
        with pytest.raises(ExactError):
            upper_bound(pool, None, k)
    with pytest.raises(ExactError):
        upper_bound(pool, None, 1, time_limit=0)


@pytest.mark.slow
def test_cli_bound(tmp_path, cli, write_lines):
    words = write_lines(tmp_path / "pool.txt", ["bakes", "bekes", "bikes", "bokes", "bukes", "bykes", "brkes"])
    out = tmp_path / "b.json"
    r = cli("lingo", "bound", "--words", words, "-k", "1", "--time-limit", "60", "--json", "--out", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data == json.loads(r.stdout)
    assert data["upper_bound"] == 6 and data["n"] == 7 and data["complete"]
    bad = cli("lingo", "bound", "--words", words, "--time-limit", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--time-limit 0" in bad.stderr


# --- The full pool, where present ----------------------------------------------------------------------

@pytest.mark.slow
def test_enable5_real_sets_respect_the_committed_bound(enable5):
    path = ROOT / "results" / "lingo" / "enable-5-bound.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    bound = json.loads(path.read_text())
    pool = read_words(enable5)
    assert bound["instance"]["sha256"] == pool.sha256
    words = list(pool.words)
    lost = len(words) - bound["upper_bound"]
    rng = random.Random(0)
    sets = [rng.sample(words, 4) for _ in range(5)] + [["hater", "funds", "pigmy", "block"]]
    best_file = ROOT / "results" / "lingo" / "enable-5.json"
    if best_file.is_file():
        sets.append(json.loads(best_file.read_text())["guesses"])
    for guesses in sets:
        F = compute_feedback_matrix(guesses, words)
        wins = count_wins(F, range(4), first_letters(words))
        N = bad_words(words, *choice_of(guesses))
        assert wins <= len(words) - N <= bound["upper_bound"], (guesses, wins, N, lost)
