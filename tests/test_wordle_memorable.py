"""The memorable-tree model (exact.wordle.study.memorable) against brute force, its bound and its command."""

import itertools
import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from exact.cli import main
from exact.partitions import feedback_matrix
from exact.wordle.wins import dp
from exact.wordle.study.memorable import (improve_by_swaps, greedy_selection, lagrangian_bound, solve_memorable,
                                    surviving_guesses, wins_of)
from exact.game.tree import replay
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def lettered(letter: str, extra: int, seed: int = 1):
    """The answers starting with ``letter``; guesses: those plus ``extra`` seeded allowed non-answers.
    Such answers share letters, so one second guess cannot serve every class (the M-curve bends)."""
    answers, allowed = wordle_answers(), wordle_allowed()
    picked = [a for a in answers.words if a[0] == letter]
    others = sorted(random.Random(seed).sample([w for w in allowed.words if w not in answers.index], extra))
    return words_from_lines(picked, f"{letter}-a"), words_from_lines(sorted(picked + others), f"{letter}-g")


@pytest.mark.slow
@pytest.mark.parametrize("letter,extra,first,curve", [("q", 6, "delph", [18, 20, 21]),
                                                      ("q", 6, "bolas", [19, 22, 23]),
                                                      ("j", 0, "jelly", [18, 20, 20])])
def test_memorable_equals_brute_force(letter, extra, first, curve, memorable_brute_force):
    A, G = lettered(letter, extra)
    F = feedback_matrix(G, A, cache=False)
    values = []
    for M in (1, 2, 3):
        r = solve_memorable(A, G, first, M, workers=1, F=F)
        assert r.status == "OPTIMAL" and r.wins == r.bound == memorable_brute_force(A, G, first, M)
        played = replay(r.tree, A, G, depth=3)
        assert played.valid and played.wins == r.wins
        assert len({t.guess for t in r.tree.children.values()}) <= M
        values.append(r.wins)
    assert values == curve  # also shows the instance is not trivial (the brute force agreed above)
    # with M = the number of classes the constraint is void: the DP's fixed-first value
    classes = len(r.tree.children)
    full = solve_memorable(A, G, first, max(classes, 1), workers=1, F=F)
    assert full.wins == full.unconstrained == dp.solve(A, G, depth=3, first=first, progress=False, F=F).wins


def test_lagrangian_bound_and_fixing_are_valid():
    rng = np.random.default_rng(5)
    for trial in range(6):
        W = rng.integers(1, 7, size=(7, 9)).astype(np.int32)
        for M in (1, 2, 3):
            sets = [S for k in range(1, M + 1) for S in itertools.combinations(range(9), k)]
            opt = max(wins_of(W, S) for S in sets)
            lower = wins_of(W, improve_by_swaps(W, greedy_selection(W, M)))
            assert lower <= opt
            upper, mu = lagrangian_bound(W, M, lower)
            assert upper >= opt
            for floor in range(lower - 3, opt):
                keep = set(surviving_guesses(W, mu, M, floor).tolist())
                assert all(set(S) <= keep for S in sets if wins_of(W, S) > floor)


@pytest.mark.slow
def test_cli_memorable(tmp_path, memorable_brute_force):
    A, G = lettered("q", 6)
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    args = ["wordle", "memorable", "--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt"),
            "--first", G.words[0]]
    out = CliRunner().invoke(main, args + ["--max-distinct-second", "2", "--json", "--out", str(tmp_path / "t.json")])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["status"] == "OPTIMAL" and data["wins"] == memorable_brute_force(A, G, G.words[0], 2)
    assert (tmp_path / "t.json").is_file()
    out = CliRunner().invoke(main, args + ["--curve", "--m-values", "1,2", "--out", str(tmp_path / "c.json")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "c.csv").read_text().splitlines()[0].startswith("M,wins,bound")
    bad = CliRunner().invoke(main, args[:-1] + ["zzzzz", "--max-distinct-second", "1"])
    assert bad.exit_code == 2 and "zzzzz" in bad.output and len(bad.output.strip().splitlines()) == 1
