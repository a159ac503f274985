"""exact.progress: on a terminal a tqdm bar; in a log (stderr not a terminal) a line every few seconds."""

import io
import pytest
import sys
import time

from exact import progress


def run_bar(monkeypatch, seconds, steps=10, pause=0.03, **options):
    monkeypatch.setenv("EXACT_PROGRESS_SECONDS", str(seconds))
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buf)
    b = progress.bar(total=steps, desc="work", unit="step", **options)
    for _ in range(steps):
        time.sleep(pause)
        b.update(1)
    b.close()
    return buf.getvalue()


def test_a_log_gets_whole_lines(monkeypatch):
    text = run_bar(monkeypatch, 0.1)
    lines = text.splitlines()
    assert lines and all(line.startswith("exact: work: ") and "/10 step" in line for line in lines)
    assert "\r" not in text


@pytest.mark.slow
def test_a_short_run_writes_nothing_and_disable_means_nothing(monkeypatch):
    assert run_bar(monkeypatch, 60) == ""
    assert run_bar(monkeypatch, 0, disable=True) == ""


def test_the_interval_defaults_to_a_few_seconds(monkeypatch):
    monkeypatch.delenv("EXACT_PROGRESS_SECONDS", raising=False)
    assert progress.log_interval() == progress.LOG_INTERVAL == 5.0
    monkeypatch.setenv("EXACT_PROGRESS_SECONDS", "nonsense")
    assert progress.log_interval() == 5.0


@pytest.mark.slow
def test_a_piped_command_shows_progress(run_exact, tmp_path, write_lines):
    words = write_lines(tmp_path / "w.txt", ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade",
                                             "naval", "serve", "heath", "dwarf"])
    r = run_exact("wordle", "solve", "--depth", "2", "--answers", words, "--guesses", words,
                  env={"EXACT_PROGRESS_SECONDS": "0"})
    assert r.returncode == 0, r.stderr
    assert any(line.startswith("exact: first guesses (depth 2): ") for line in r.stderr.splitlines()), r.stderr


def test_a_log_gets_at_most_one_line_per_interval_even_when_the_postfix_changes(monkeypatch):
    """set_postfix redraws a terminal bar at once; in a log it must not add a line per call (a ranking
    that sets the best so far after every first guess wrote ten lines a second)."""
    monkeypatch.setenv("EXACT_PROGRESS_SECONDS", "0.2")
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buf)
    b = progress.bar(total=200, desc="work", unit="step")
    started = time.time()
    for i in range(200):
        time.sleep(0.005)
        b.update(1)
        b.set_postfix(best=i)
    elapsed = time.time() - started
    b.close()
    lines = buf.getvalue().splitlines()
    assert 1 <= len(lines) <= elapsed / 0.2 + 1, lines


def test_a_bar_without_eta_shows_no_time_left(monkeypatch):
    text = run_bar(monkeypatch, 0.05, eta=False)
    assert text and "left" not in text and all("/10 step" in line for line in text.splitlines())
