"""Shared test fixtures: an isolated feedback-matrix cache, the optional ENABLE pool, the repository
root, the command in-process (``cli``: click's runner on the real click group, for option and error checks)
and the real process (``run_exact``: only where a pipe, a signal, standard input or the start-up is what is
tested), the one-line error check (``assert_one_line_error``), word-list files (``write_lines``), and a
tiny Wordle instance with its policy trees (``tiny_answers``, ``tiny_guesses``, ``policy_trees``). The
oracles and the instances themselves are in tests/oracles.py."""

import os
import subprocess
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

from oracles import brute_memorable, every_nth

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
    ``result``: a finished process (``run_exact``), the ``Ran`` of ``cli``, or a ``(code, stdout, stderr)``.
    Returns the line."""
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


class Ran(NamedTuple):
    """A finished command, in-process or real: its exit status and what it wrote (a tuple too: ``code, out,
    err = cli(...)``; attributes named as :class:`subprocess.CompletedProcess`'s, so one check reads both)."""
    returncode: int
    stdout: str
    stderr: str


@contextmanager
def _as_run_from(args, env, cwd):
    """What a real run would see: ``sys.argv`` (the resume hint and the reports quote it), the environment
    ``env`` added, the working folder ``cwd``; all put back after."""
    saved_argv, saved_cwd = sys.argv, os.getcwd()
    saved_env = {k: os.environ.get(k) for k in env}
    sys.argv = ["exact", *args]
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _cli(*args, input: str | None = None, env: dict | None = None, cwd: str | Path | None = None) -> Ran:
    """The CLI in-process through click's runner: the same click group as ``python -m exact``, so its
    error policy (ExactError: one line, exit 2; InternalError or a bug: exit 70 and a report; Ctrl-C: 130)
    is the one a real run applies, without an interpreter and numba starting for each run. Only the
    start-up in exact/__main__.py (a Ctrl-C during the imports) is not run: ``run_exact`` runs that."""
    from click.testing import CliRunner

    from exact.cli import main
    from exact.cli.common import show_warning

    args = [str(a) for a in args]
    with _as_run_from(args, env or {}, cwd), warnings.catch_warnings():
        warnings.simplefilter("default")  # as in a real run: each warning once, as the line show_warning prints
        warnings.showwarning = show_warning  # (pytest's capture would keep it from stderr)
        result = CliRunner().invoke(main, args, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # escaped the group's error policy: a test must see it, not an exit status 1
    return Ran(result.exit_code, result.stdout, result.stderr)


@pytest.fixture(name="cli", scope="session")
def cli_fixture():
    """``cli(*args, input=None, env=None, cwd=None)``: the CLI in-process (click's runner) as ``Ran``
    (exit code, stdout, stderr), for option and error checks; ``run_exact`` runs the real process."""
    return _cli


@pytest.fixture(scope="session")
def tiny_answers():
    """A tiny deterministic Wordle instance's answers (:func:`oracles.every_nth`)."""
    return every_nth()[0]


@pytest.fixture(scope="session")
def tiny_guesses():
    """Its guesses (:func:`oracles.every_nth`)."""
    return every_nth()[1]


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


@pytest.fixture(name="memorable_brute_force", scope="session")
def memorable_brute_force_fixture():
    """``memorable_brute_force(answers, guesses, first, M)``: the memorable optimum by brute force
    (:func:`oracles.brute_memorable`)."""
    return brute_memorable
