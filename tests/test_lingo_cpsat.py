"""The CP-SAT Lingo model against brute force, its model files, and the ladder's instances."""

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner

from exact.errors import ExactError
from exact.feedback import compute_feedback_matrix
from exact.lingo.brute import brute_force_best
from exact.lingo.cpsat import build_model, export_model, reduce_instance, solve_cpsat
from exact.lingo.ladder import FAMILIES, Rung, find_rung, write_instance, write_manifest
from exact.lingo.score import count_wins, first_letters
from exact.words import WordList, wordle_allowed, wordle_answers


def itertools_best(F, first, k):
    """The plainest reference: score every k-subset with count_wins."""
    return max(count_wins(F, list(c), first) for c in itertools.combinations(range(F.shape[0]), k))


def hard_pools(count, seed):
    """Tiny pools of look-alike words (nearest to a random word, mostly of its first letter), so that
    k guesses often cannot separate everything and the optimum is below n."""
    rng = np.random.default_rng(seed)
    allowed = wordle_allowed().words
    letters = np.array([list(w) for w in allowed])
    for _ in range(count):
        centre = letters[rng.integers(len(allowed))]
        distance = (letters != centre).sum(axis=1) + 2 * (letters[:, 0] != centre[0]) * rng.integers(0, 2)
        n = int(rng.integers(8, 15))
        near = np.argsort(distance + rng.random(len(allowed)), kind="stable")[:n]
        yield WordList(tuple(sorted(allowed[i] for i in near)), "hard")


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), 2])
def test_cpsat_matches_brute_force_on_tiny_pools(seed):
    below_n = 0
    for pool in hard_pools(5, seed):
        F = compute_feedback_matrix(pool.words, pool.words)
        first = first_letters(pool.words)
        for k in (1, 2, 3):
            reference = itertools_best(F, first, k)
            assert brute_force_best(F, first, k)[0] == reference
            out = solve_cpsat(pool, F, k, workers=1, time_limit=20)
            assert out.status == "OPTIMAL", (pool.words, k)
            assert out.wins == out.bound == reference, (pool.words, k)
            assert len(set(out.guesses)) == k
            assert count_wins(F, list(out.guesses), first) == out.wins
            below_n += reference < len(pool)
    assert below_n >= 3, "the pools are too easy to test anything"


def test_cpsat_with_k4_and_a_bad_hint():
    pool = next(hard_pools(1, 11))
    F = compute_feedback_matrix(pool.words, pool.words)
    first = first_letters(pool.words)
    reference = itertools_best(F, first, 4)
    out = solve_cpsat(pool, F, 4, hint=[0, 1, 2, 3], workers=2, time_limit=20)
    assert (out.status, out.wins, out.bound) == ("OPTIMAL", reference, reference)


def test_fewer_guess_groups_than_k():
    pool = WordList(("cater", "hater"), "two")
    F = compute_feedback_matrix(pool.words, pool.words)
    out = solve_cpsat(pool, F, 2, workers=1, time_limit=5)
    assert out.wins == 2 and sorted(out.guesses) == [0, 1] and out.status == "OPTIMAL"


def test_reduction_keeps_k_guesses_and_drops_only_what_is_safe():
    pool = next(hard_pools(1, 3))
    F = compute_feedback_matrix(pool.words, pool.words)
    red = reduce_instance(F, first_letters(pool.words), 3)
    assert red.k == 3 and len(red.kept) >= 3
    # Every kept pair is still left unseparated by at least k of the kept guesses.
    assert ((len(red.kept) - red.separates.sum(axis=0)) >= red.k).all()


def test_bad_input():
    pool = WordList(("cater", "hater", "later"), "three")
    F = compute_feedback_matrix(pool.words, pool.words)
    for kwargs in ({"k": 0}, {"k": 4}, {"k": 2, "time_limit": 0}, {"k": 2, "hint": [7]}):
        with pytest.raises(ExactError):
            solve_cpsat(pool, F, **kwargs)
    with pytest.raises(ExactError):
        solve_cpsat(pool, F[:2], 2)


@pytest.mark.parametrize("suffix", [".pb", ".pbtxt"])
def test_exported_model_resolves_to_the_same_value(tmp_path, suffix):
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    pool = next(hard_pools(1, 5))
    F = compute_feedback_matrix(pool.words, pool.words)
    out = solve_cpsat(pool, F, 3, workers=1, time_limit=20, model_path=tmp_path / f"m{suffix}")
    assert out.status == "OPTIMAL"
    path = tmp_path / f"m{suffix}"
    assert not [p for p in tmp_path.iterdir() if p.name != path.name]  # no temporary left behind
    proto = cp_model_pb2.CpModelProto()
    if suffix == ".pb":
        proto.ParseFromString(path.read_bytes())
    else:
        text_format.Parse(path.read_text(), proto)
    model = cp_model.CpModel()
    model.Proto().parse_text_format(text_format.MessageToString(proto))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    assert round(solver.objective_value) == out.wins
    chosen = [v.name for v, value in zip(proto.variables, solver.response_proto.solution)
              if v.name.startswith("x[") and value]
    assert len(chosen) == 3


def test_export_writes_atomically(tmp_path):
    pool = WordList(("cater", "hater", "later"), "three")
    red = reduce_instance(compute_feedback_matrix(pool.words, pool.words), first_letters(pool.words), 1)
    export_model(build_model(red).model, tmp_path / "a.pb")
    export_model(build_model(red).model, tmp_path / "a.pb")
    assert [p.name for p in tmp_path.iterdir()] == ["a.pb"]


@pytest.mark.slow
def test_ladder_instances_are_deterministic(tmp_path):
    for family in FAMILIES.values():
        r = family[0]
        assert r.words() == Rung(r.source, r.rule, r.size, r.seed, r.letter).words()
    a, b = Rung("allowed", "random", 50, seed=1).words(), Rung("allowed", "random", 50, seed=2).words()
    assert len(a) == len(b) == 50 and a.words != b.words
    assert list(a.words) == sorted(a.words)  # source order kept
    assert set(a.words) <= set(Rung("allowed", "random", 60, seed=1).words().words)  # nested by seed
    letter = find_rung("answers-letter-j").words()
    assert len(letter) == 20 and all(w[0] == "j" for w in letter)
    assert find_rung("answers-first-20").words().words == wordle_answers().words[:20]
    # Files: written once, verified after; a tampered file is refused.
    rung = find_rung("allowed-letter-x")
    written = write_instance(tmp_path, rung)
    assert write_instance(tmp_path, rung).sha256 == written.sha256 == rung.words().sha256
    (tmp_path / "allowed-letter-x.txt").write_text("xylyl\n")
    with pytest.raises(ExactError):
        write_instance(tmp_path, rung)
    write_manifest(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    entry = next(e for e in manifest["instances"] if e["name"] == "allowed-letter-x")
    assert entry["sha256"] == rung.words().sha256 and entry["source"] == "instances/wordle/allowed.txt"
    with pytest.raises(ExactError):
        find_rung("no-such-rung")


@pytest.mark.slow
def test_ladder_command_writes_certificate_and_model(tmp_path):
    from exact.cli import main
    from exact.lingo.result import read_result, verify_result

    args = ["lingo", "ladder", "--only", "allowed-letter-x", "--time-limit", "20", "--workers", "1",
            "--instances", str(tmp_path / "inst"), "--results", str(tmp_path / "res"),
            "--models", str(tmp_path / "models")]
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    result = read_result(tmp_path / "res" / "allowed-letter-x.json")
    assert result.status == "OPTIMAL" and result.upper_bound == result.wins
    assert result.stats["brute_force"]["optimum"] == result.wins
    assert (tmp_path / "models" / "allowed-letter-x.pb").stat().st_size > 0
    assert verify_result(tmp_path / "res" / "allowed-letter-x.json").ok
    bad = CliRunner().invoke(main, ["lingo", "ladder", "--time-limit", "0"])
    assert bad.exit_code != 0
