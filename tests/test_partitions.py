"""The matrix cache (atomic, verified, rebuilt when bad) and the class helpers (against brute force)."""

import json
import os
import random
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pytest

from exact import partitions
from exact.feedback import feedback
from exact.partitions import (
    cache_dir, class_counts, class_keys, classes, classes_of_row, count_classes, feedback_matrix, joint_classes,
    largest_first, matrix_key,
)
from exact.words import words_from_lines


@pytest.fixture
def lists():
    rng = random.Random(7)
    words = sorted({"".join(rng.choice("abcde") for _ in range(5)) for _ in range(80)})
    return words_from_lines(words[:30], "guesses"), words_from_lines(words[20:], "answers")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def cached_files(cache):
    return sorted(p.name for p in cache.iterdir())


def test_cache_is_written_then_reused(lists, cache):
    guesses, answers = lists
    F = feedback_matrix(guesses, answers)
    assert cache_dir() == cache
    stem = f"feedback-{matrix_key(guesses, answers)}"
    assert cached_files(cache) == [stem + ".json", stem + ".npy"]
    assert np.array_equal(partitions.load_cached(guesses, answers), F)
    assert F.tolist() == [[feedback(g, a) for a in answers] for g in guesses]


def test_corrupt_cache_is_rebuilt_with_a_message(lists, cache, capsys):
    guesses, answers = lists
    F = feedback_matrix(guesses, answers)
    npy = cache / f"feedback-{matrix_key(guesses, answers)}.npy"
    data = bytearray(npy.read_bytes())
    data[-1] ^= 0xFF  # flip bits in the last matrix entry
    npy.write_bytes(bytes(data))
    again = feedback_matrix(guesses, answers)
    assert "corrupt or stale; rebuilding" in capsys.readouterr().err
    assert np.array_equal(again, F)
    assert partitions.load_cached(guesses, answers) is not None


def test_truncated_and_stale_caches_are_rebuilt(lists, cache, capsys):
    guesses, answers = lists
    F = feedback_matrix(guesses, answers)
    stem = cache / f"feedback-{matrix_key(guesses, answers)}"
    stem.with_suffix(".npy").write_bytes(stem.with_suffix(".npy").read_bytes()[:100])
    assert np.array_equal(feedback_matrix(guesses, answers), F)
    info = json.loads(stem.with_suffix(".json").read_text())
    info["rule_version"] = -1
    stem.with_suffix(".json").write_text(json.dumps(info))
    assert np.array_equal(feedback_matrix(guesses, answers), F)
    assert capsys.readouterr().err.count("rebuilding") == 2


def test_interrupted_build_leaves_no_cache(lists, cache, monkeypatch):
    guesses, answers = lists

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(partitions.fb, "compute_feedback_matrix", interrupted)
    with pytest.raises(KeyboardInterrupt):
        feedback_matrix(guesses, answers)
    assert not cache.exists() or cached_files(cache) == []


def test_interrupted_write_leaves_no_partial_file(lists, cache, monkeypatch):
    guesses, answers = lists

    def interrupted_save(f, *args, **kwargs):
        f.write(b"\x93NUMPY half a file")
        raise KeyboardInterrupt

    monkeypatch.setattr(partitions.np, "save", interrupted_save)
    with pytest.raises(KeyboardInterrupt):
        feedback_matrix(guesses, answers)
    assert cached_files(cache) == []


def brute_classes(guesses, answers, guess_rows, answer_rows, start=None):
    groups = defaultdict(list)
    for j, a in enumerate(answer_rows):
        key = (None if start is None else start[j],) + tuple(feedback(guesses[g], answers[a]) for g in guess_rows)
        groups[key].append(a)
    return sorted((sorted(c) for c in groups.values()), key=lambda c: (-len(c), c[0]))


def test_classes_match_brute_force(lists):
    guesses, answers = lists
    F = feedback_matrix(guesses, answers, cache=False)
    rng = np.random.default_rng(3)
    for _ in range(30):
        rows = rng.choice(len(guesses), size=rng.integers(1, 4), replace=False).tolist()
        subset = np.sort(rng.choice(len(answers), size=rng.integers(1, len(answers)), replace=False))
        start = rng.integers(0, 3, size=len(subset))
        expected = brute_classes(guesses, answers, rows, subset.tolist(), start.tolist())
        assert [c.tolist() for c in joint_classes(F, rows, subset, start=start)] == expected
        assert count_classes(F, rows, subset, start) == len(expected)


def test_classes_of_a_guess_and_counts(lists):
    guesses, answers = lists
    F = feedback_matrix(guesses, answers, cache=False)
    everyone = np.arange(len(answers))
    parts = classes(F, 4, everyone)
    assert sorted(np.concatenate(list(parts.values())).tolist()) == everyone.tolist()
    for pattern, members in parts.items():
        assert all(feedback(guesses[4], answers[a]) == pattern for a in members)
    assert list(parts) == sorted(parts)  # pattern order
    row = np.array([feedback(guesses[4], a) for a in answers])
    assert {p: P.tolist() for p, P in classes_of_row(row, everyone).items()} == {p: P.tolist() for p, P in parts.items()}
    sizes = [(-len(P), p) for p, P in largest_first(parts)]
    assert sizes == sorted(sizes)
    counts = class_counts(F)
    assert counts.sum(axis=1).tolist() == [len(answers)] * len(guesses)
    assert counts[4, list(parts)].tolist() == [len(m) for m in parts.values()]


def test_keys_stay_exact_past_63_bits():
    # 30 guesses of 243 patterns overflow int64 radix keys; re-numbering must keep them exact.
    rng = np.random.default_rng(0)
    F = rng.integers(0, 243, size=(30, 50), dtype=np.uint8)
    F[:, 1] = F[:, 0]
    keys = class_keys(F, range(30))
    assert keys[0] == keys[1] and len(set(keys.tolist())) == 49


@pytest.mark.slow
def test_two_processes_asking_for_a_new_matrix_build_it_once(tmp_path):
    """A server and its first worker on a fresh cache (or two runs started together): one builds the matrix,
    the other waits for it and reads the cache (it was built twice: 8.5 s to the first heuristic guess)."""
    code = ("from exact.partitions import feedback_matrix; from exact.words import named_lists; "
            "A, G = named_lists('original'); print(feedback_matrix(G, A).sum())")
    env = {**os.environ, "EXACT_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env) for _ in range(2)]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    assert outputs[0][0] == outputs[1][0]  # the same matrix
    assert sum(err.count("building the feedback matrix") for _, err in outputs) == 1, outputs
