"""CP-SAT tree model, the ladder and the memorable-tree model, against brute force and the DP."""

import itertools
import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from exact.cli import main
from exact.feedback import all_green, feedback
from exact.partitions import feedback_matrix
from exact.wordle import dp
from exact.cpsat import run
from exact.wordle.cpsat import build_tree_model, export_model, import_model, solve_tree, tree_nodes
from exact.wordle.ladder import LADDER, brute_force_wins, check_ladder, write_ladder
from exact.wordle.memorable import (improve_by_swaps, greedy_selection, lagrangian_bound, solve_memorable,
                                    surviving_guesses, wins_of)
from exact.wordle.tree import replay
from exact.words import wordle_allowed, wordle_answers, words_from_lines


def tiny(seed: int, n: int, extra: int):
    """n seeded answers; guesses: those plus ``extra`` seeded allowed non-answers."""
    answers, allowed = wordle_answers(), wordle_allowed()
    rng = random.Random(seed)
    picked = sorted(rng.sample(answers.words, n))
    others = sorted(rng.sample([w for w in allowed.words if w not in answers.index], extra))
    return words_from_lines(picked, f"tiny-{seed}-a"), words_from_lines(sorted(picked + others), f"tiny-{seed}-g")


@pytest.mark.parametrize("seed,n,extra,depth", [(1, 12, 4, 2), (2, 10, 6, 2), (3, 11, 4, 3), (4, 12, 3, 3),
                                                (5, 9, 6, 3), (6, 6, 2, 1), (7, 14, 0, 3)])
def test_cpsat_tree_equals_brute_force_and_dp(seed, n, extra, depth):
    A, G = tiny(seed, n, extra)
    F = feedback_matrix(G, A, cache=False)
    sol = solve_tree(A, G, depth, workers=1, F=F)
    assert sol.status == "OPTIMAL" and sol.bound == sol.wins
    assert sol.wins == brute_force_wins(F, depth) == dp.solve(A, G, depth=depth, progress=False, F=F).wins
    played = replay(sol.tree, A, G, depth=depth)
    assert played.valid and played.wins == sol.wins


def test_cpsat_is_not_trivially_all_wins():
    # Over all seeds above at depth 2 some instance must lose answers, else the checks prove little.
    values = []
    for seed in (1, 2, 8):
        A, G = tiny(seed, 12, 2)
        values.append((solve_tree(A, G, 2, workers=1).wins, len(A)))
    assert any(w < n for w, n in values)


def test_model_export_import_round_trip(tmp_path):
    A, G = tiny(3, 11, 4)
    F = feedback_matrix(G, A, cache=False)
    path = tmp_path / "m" / "tiny.pb"
    sol = solve_tree(A, G, 3, workers=1, F=F, export=path)
    model = import_model(path)
    root, nodes = tree_nodes(F, 3, all_green(5))
    assert len(model.proto.variables) == len(build_tree_model(root, nodes).choose) == sol.stats["variables"]
    out = run(model, time_limit=30, workers=1)
    assert out.status == "OPTIMAL"
    assert out.objective == sol.wins
    assert [p.name for p in path.parent.iterdir()] == ["tiny.pb"]  # no temporary file left behind
    before = path.read_bytes()
    export_model(model, path)  # the imported model exports to the same bytes (and overwrites by rename)
    assert path.read_bytes() == before


def test_import_rejects_garbage(tmp_path):
    from exact.errors import ExactError

    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xff\xff not a protobuf")
    with pytest.raises(ExactError, match="bad.pb"):
        import_model(bad)


def test_answers_must_be_guesses():
    from exact.errors import ExactError

    A, G = tiny(1, 6, 2)
    with pytest.raises(ExactError, match="is not in"):
        solve_tree(A, words_from_lines(G.words[1:], "short"), 2, workers=1)


def test_ladder_generation_is_deterministic(tmp_path):
    m1 = write_ladder(tmp_path / "a")
    m2 = write_ladder(tmp_path / "b")
    assert m1 == m2
    for rung in LADDER:
        for name in ("answers.txt", "guesses.txt"):
            assert (tmp_path / "a" / rung.name / name).read_bytes() == (tmp_path / "b" / rung.name / name).read_bytes()
    check_ladder()  # the shipped files are exactly what the generator makes
    check_ladder(tmp_path / "a")
    names = [r.name for r in LADDER]
    assert len(set(names)) == len(names)


def test_check_ladder_notices_an_edit(tmp_path):
    from exact.errors import ExactError

    write_ladder(tmp_path)
    f = tmp_path / LADDER[3].name / "answers.txt"
    f.write_text(f.read_text().replace("\n", "\n", 1)[6:])  # drop the first word
    with pytest.raises(ExactError, match=LADDER[3].name):
        check_ladder(tmp_path)


# --- memorable trees -----------------------------------------------------------------------------

def memorable_brute_force(A, G, first: str, M: int) -> int:
    """max over every set S of at most M guesses, by the plain feedback rule (no matrix, no model)."""
    classes: dict[int, list[str]] = {}
    for a in A.words:
        classes.setdefault(feedback(first, a), []).append(a)
    hit = int(all_green(5) in classes)
    classes.pop(all_green(5), None)
    w = {(c, g): len({feedback(g, a) for a in P}) for c, P in classes.items() for g in G.words}
    best = 0
    for size in range(1, M + 1):
        for S in itertools.combinations(G.words, size):
            best = max(best, sum(max(w[c, g] for g in S) for c in classes))
    return hit + best


def lettered(letter: str, extra: int, seed: int = 1):
    """The answers starting with ``letter``; guesses: those plus ``extra`` seeded allowed non-answers.
    Such answers share letters, so one second guess cannot serve every class (the M-curve bends)."""
    answers, allowed = wordle_answers(), wordle_allowed()
    picked = [a for a in answers.words if a[0] == letter]
    others = sorted(random.Random(seed).sample([w for w in allowed.words if w not in answers.index], extra))
    return words_from_lines(picked, f"{letter}-a"), words_from_lines(sorted(picked + others), f"{letter}-g")


@pytest.mark.parametrize("letter,extra,first,curve", [("q", 6, "delph", [18, 20, 21]),
                                                      ("q", 6, "bolas", [19, 22, 23]),
                                                      ("j", 0, "jelly", [18, 20, 20])])
def test_memorable_equals_brute_force(letter, extra, first, curve):
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


def test_cli_memorable(tmp_path):
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
