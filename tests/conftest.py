"""Shared test fixtures: an isolated feedback-matrix cache, the optional ENABLE pool, the repository
root, the real command (``run_exact``) and the command in-process (``cli``), the one-line error check
(``assert_one_line_error``), word-list files (``write_lines``), and a tiny Wordle instance with its policy
trees (``tiny_answers``, ``tiny_guesses``, ``policy_trees``)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENABLE5 = ROOT / "instances" / "lingo" / "enable-5.txt"  # vendored (the same file as ../shared/data/enable-5.txt)


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Every test session gets its own cache, so no test reads a matrix another run left behind."""
    old = os.environ.get("EXACT_CACHE_DIR")
    os.environ["EXACT_CACHE_DIR"] = str(tmp_path_factory.mktemp("exact-cache"))
    yield
    if old is None:
        os.environ.pop("EXACT_CACHE_DIR", None)
    else:
        os.environ["EXACT_CACHE_DIR"] = old


@pytest.fixture
def enable5() -> Path:
    """The Riddler Lingo pool, vendored in instances/lingo/."""
    if not ENABLE5.is_file():
        pytest.skip(f"{ENABLE5} is absent")
    return ENABLE5


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository root."""
    return ROOT


def _run_exact(*args: str, input: str | None = None, env: dict | None = None,
               cwd: str | Path | None = None) -> subprocess.CompletedProcess:
    """Run the real console entry point (python -m exact) and capture its output (in ``cwd``)."""
    return subprocess.run(
        [sys.executable, "-m", "exact", *map(str, args)],
        capture_output=True, text=True, input=input, env={**os.environ, **(env or {})}, timeout=600, cwd=cwd,
    )


def _write_lines(path: Path, lines) -> Path:
    """Write one word per line to ``path``; return the path."""
    path.write_text("".join(f"{w}\n" for w in lines))
    return path


@pytest.fixture(name="run_exact", scope="session")
def run_exact_fixture():
    """``run_exact(*args, input=None, env=None, cwd=None)``: the real console entry point, output captured."""
    return _run_exact


@pytest.fixture(name="write_lines", scope="session")
def write_lines_fixture():
    """``write_lines(path, words)``: a word-list file, one word per line."""
    return _write_lines




def _assert_one_line_error(result, *fragments):
    """A failed command's stderr is one line, ``exact: error: ...``, holding every fragment, no traceback.
    ``result``: a finished process (``run_exact``) or the ``(code, stdout, stderr)`` of ``cli``. Returns the line."""
    code, stderr = (result.returncode, result.stderr) if hasattr(result, "returncode") else (result[0], result[2])
    assert code == 2, (code, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exact: error: "), stderr
    assert "Traceback" not in stderr
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


@pytest.fixture(name="assert_one_line_error", scope="session")
def assert_one_line_error_fixture():
    """``assert_one_line_error(result, *fragments)``: the one-line error every bad input must give."""
    return _assert_one_line_error


@pytest.fixture(scope="session")
def cli():
    """``cli(*args)``: the CLI in-process (click's runner), as (exit code, stdout, stderr)."""
    from click.testing import CliRunner

    from exact.cli import main

    def invoke(*args):
        result = CliRunner().invoke(main, [str(a) for a in args])
        return result.exit_code, result.stdout, result.stderr
    return invoke


@pytest.fixture(scope="session")
def tiny_answers():
    """A tiny deterministic Wordle instance's answers: every 60th answer."""
    from exact.words import wordle_answers, words_from_lines

    return words_from_lines(wordle_answers().words[::60], source="tiny-answers")


@pytest.fixture(scope="session")
def tiny_guesses(tiny_answers):
    """Its guesses: every 150th allowed word, the answers, and slate."""
    from exact.words import wordle_allowed, words_from_lines

    words = set(wordle_allowed().words[::150]) | set(tiny_answers.words) | {"slate"}
    return words_from_lines(sorted(words), source="tiny-guesses")


@pytest.fixture(scope="session")
def policy_trees(tiny_answers, tiny_guesses):
    """policy -> its evaluation (tree and replay) on the tiny instance, first guess slate, depth 3."""
    from exact.wordle.study.policies import POLICIES, evaluate_policy

    return {p: evaluate_policy(tiny_answers, tiny_guesses, "slate", p, depth=3) for p in POLICIES}


def _hand_tree():
    """cabin first; cable's class (caber, cable) gets cable, cache's class gets cache."""
    from exact.feedback import feedback
    from exact.game.tree import Tree

    return Tree("cabin", 4, {
        feedback("cabin", "cable"): Tree("cable", 2, {}),
        feedback("cabin", "cache"): Tree("cache", 1, {}),
    })


@pytest.fixture(scope="session")
def hand_tree():
    """``hand_tree()``: a fresh small tree on :func:`hand_answers` (a factory: tests change their copy)."""
    return _hand_tree


@pytest.fixture(scope="session")
def hand_answers():
    """caber, cabin, cable, cache: the answers (and guesses) of ``hand_tree()``."""
    from exact.words import words_from_lines

    return words_from_lines(["caber", "cabin", "cable", "cache"], source="test")


def _look_alike_pools(count, seed, letters=3, sizes=(2, 7), source="look-alike"):
    """Tiny Lingo pools of words near a random allowed word, over a few first letters (each letter's
    ``sizes[0]`` to ``sizes[1] - 1`` nearest words), so that a few guesses often cannot win everything."""
    import numpy as np

    from exact.words import WordList, wordle_allowed

    rng = np.random.default_rng(seed)
    allowed = wordle_allowed().words
    codes = np.array([list(w) for w in allowed])
    for _ in range(count):
        centre = codes[rng.integers(len(allowed))]
        distance = (codes[:, 1:] != centre[1:]).sum(axis=1) + rng.random(len(allowed))
        chosen = []
        for L in rng.choice(list("bcdgmprst"), letters, replace=False):
            near = np.flatnonzero(codes[:, 0] == L)
            chosen += [allowed[i] for i in near[np.argsort(distance[near])][: int(rng.integers(*sizes))]]
        yield WordList(tuple(sorted(chosen)), source)


@pytest.fixture(name="look_alike_pools", scope="session")
def look_alike_pools_fixture():
    """``look_alike_pools(count, seed, letters=3, sizes=(2, 7), source=...)``: tiny look-alike pools."""
    return _look_alike_pools


def _memorable_brute_force(answers, guesses, first: str, M: int) -> int:
    """Most wins within 3 after ``first`` over every set S of at most M second guesses, from the plain
    feedback rule (no matrix, no model): the hit of ``first`` plus, per first feedback class, the most
    classes a guess of S makes on it."""
    import itertools

    from exact.feedback import all_green, feedback

    classes: dict[int, list[str]] = {}
    for a in answers.words:
        classes.setdefault(feedback(first, a), []).append(a)
    hit = len(classes.pop(all_green(answers.length), []))
    w = {(c, g): len({feedback(g, a) for a in P}) for c, P in classes.items() for g in guesses.words}
    best = 0
    for size in range(1, M + 1):
        for S in itertools.combinations(guesses.words, size):
            best = max(best, sum(max(w[c, g] for g in S) for c in classes))
    return hit + best


@pytest.fixture(name="memorable_brute_force", scope="session")
def memorable_brute_force_fixture():
    """``memorable_brute_force(answers, guesses, first, M)``: the memorable optimum by brute force."""
    return _memorable_brute_force
