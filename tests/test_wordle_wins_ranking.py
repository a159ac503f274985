"""The global first-guess search: same optimum as the DP, checkpoint and resume, a 2-worker Dask cluster,
a run killed mid-way and resumed (reduced instances; no timings)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exact.errors import ExactError
from exact.firstguess import MAX_CHECKPOINT
from exact.wordle.wins import ranking as depth4
from exact.wordle.wins.dp import solve
from exact.words import words_from_lines

from oracles import families

ROOT = Path(__file__).resolve().parent.parent


def key(result) -> dict:
    """What a certificate must agree on between runs (times and workers aside; a bound may differ with
    the incumbent in force, an exact value may not)."""
    exact = {o.guess: o.value for o in result.outcomes if o.exact}
    return {"wins": result.wins, "status": result.status, "optimal_first": result.optimal_first,
            "resolved": sorted(o.guess for o in result.outcomes), "optimal_exact": {
                g: exact[g] for g in result.optimal_first}}


@pytest.fixture(scope="module")
def instance():
    return families()


@pytest.fixture(scope="module")
def reference(instance):
    A, G = instance
    return depth4.run(A, G, depth=3, batch=4, progress=False)


@pytest.mark.slow
def test_global_search_matches_the_dp(instance, reference):
    A, G = instance
    r = solve(A, G, depth=3, progress=False)
    assert reference.status == "OPTIMAL" and r.status == "OPTIMAL"
    assert reference.wins == r.wins < len(A)
    assert reference.optimal_first == r.optimal_first
    assert len(reference.outcomes) == len(G) and not reference.open
    assert any(not o.exact for o in reference.outcomes)  # something was pruned
    for o in reference.outcomes:
        exact = solve(A, G, depth=3, first=o.guess, progress=False).wins
        assert exact == o.value if o.exact else exact <= o.value < o.threshold


@pytest.mark.slow
def test_checkpoint_resume_gives_the_same_certificate(instance, reference, tmp_path):
    A, G = instance
    path = tmp_path / "run.jsonl"
    part = depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, limit=3)
    assert part.interrupted and part.status != "OPTIMAL" and len(part.outcomes) == 12
    if part.optimal_first:  # stopped early: the tree of the best first guess so far wins what it claims
        assert depth4.global_tree(part).info["replay"]["wins"] == part.wins
    header, records = depth4.read_checkpoint(path)
    assert header["answers"]["sha256"] == A.sha256 and header["depth"] == 3 and len(records) == 12
    with open(path, "ab") as f:
        f.write(b'{"guess": "tor')  # a torn last line, as after a kill during a write
    whole = depth4.run(A, G, depth=3, batch=4, resume=path, progress=False)
    assert key(whole) == key(reference)
    assert [o.to_json() | {"seconds": 0, "worker": ""} for o in whole.outcomes] == \
        [o.to_json() | {"seconds": 0, "worker": ""} for o in reference.outcomes]  # one process: identical
    assert len(depth4.read_checkpoint(path)[1]) == len(G)


def test_resume_refuses_another_instance(instance, tmp_path):
    A, G = instance
    path = tmp_path / "run.jsonl"
    depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, limit=1)
    with pytest.raises(ExactError, match="depth"):
        depth4.run(A, G, depth=2, resume=path, progress=False)
    other = words_from_lines(A.words[:-1], "fewer")
    with pytest.raises(ExactError, match="answers"):
        depth4.run(other, G, depth=3, resume=path, progress=False)
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(ExactError, match=r"run.jsonl:1: not a first-guess checkpoint"):
        depth4.run(A, G, depth=3, resume=path, progress=False)


@pytest.mark.slow
def test_two_worker_local_cluster_matches_in_process(instance, reference, tmp_path):
    pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install -e '.[cluster]')")
    A, G = instance
    path = tmp_path / "cluster.jsonl"
    r = depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, cluster="local", workers=2)
    assert key(r) == key(reference)
    assert len(r.per_worker()) == 2  # both workers took batches
    assert len(depth4.read_checkpoint(path)[1]) == len(G)


def write_lists(tmp_path, A, G):
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    return ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]


def exact_command(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1")
    return [sys.executable, "-m", "exact", "wordle", "solve", *args], env


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_run_resumes_to_the_same_certificate(instance, reference, tmp_path, sig):
    A, G = instance
    lists = write_lists(tmp_path, A, G)
    path = tmp_path / "run.jsonl"
    cmd, env = exact_command(*lists, "--depth", "3", "--batch", "1", "--checkpoint", str(path))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") > 1:  # the header and a first record
            break
        time.sleep(0.01)
    if proc.poll() is not None:
        pytest.fail(f"the run ended before it could be killed: {proc.communicate()[1].decode()[-400:]}")
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 143
    done = len(depth4.read_checkpoint(path)[1])
    assert 1 <= done < len(G)
    cmd, env = exact_command(*lists, "--depth", "3", "--resume", str(path), "--json",
                             "--certificate", str(tmp_path / "cert.json"))
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-400:]
    cert = json.loads((tmp_path / "cert.json").read_text())
    assert cert["status"] == "OPTIMAL" and cert["wins"] == reference.wins
    assert cert["optimal_first"] == reference.optimal_first
    assert sorted(o["guess"] for o in cert["first_guess_outcomes"]) == sorted(G.words)
    exact = {o["guess"]: o["value"] for o in cert["first_guess_outcomes"] if o["exact"]}
    assert all(exact[g] == reference.wins for g in reference.optimal_first)


# --- checkpoints read with caps, checked against the instance, one writer at a time ----------------


@pytest.mark.slow
def test_a_checkpoint_is_read_with_caps(instance, tmp_path):
    """--resume /dev/zero grew to 24 GB before the kernel killed it: lines and size are capped."""
    A, G = instance
    # in a child limited to 4 GB of address space, so that a reader without caps fails fast here
    probe = subprocess.run([sys.executable, "-c", "import resource; resource.setrlimit(resource.RLIMIT_AS, "
                            "(4 << 30, 4 << 30)); from exact.wordle.wins import ranking as depth4; depth4.read_checkpoint('/dev/zero')"],
                           env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert "ExactError: /dev/zero:1: line longer than 4096 bytes" in probe.stderr, probe.stderr[-300:]
    big = tmp_path / "big.jsonl"
    with open(big, "w") as f:
        line = json.dumps(depth4.make_header(A, G, 3, False, 4)) + "\n"
        f.write(line * (MAX_CHECKPOINT // len(line) + 1))
    with pytest.raises(ExactError, match="larger than 32 MiB"):
        depth4.read_checkpoint(big)
    big.write_text(line + '{"guess": "cabin", "value": ' + "9" * 5000 + "}\n")
    with pytest.raises(ExactError, match="big.jsonl:2: line longer than 4096 bytes"):  # before int() sees 5000 digits
        depth4.read_checkpoint(big)


@pytest.mark.parametrize("edit, message", [
    (lambda r: r.update(value=10_000), "there are 55 answers"),
    (lambda r: r.update(threshold=10_000), "there are 55 answers"),
    (lambda r: r.update(exact=False, value=r["threshold"] + 1), "not below its threshold"),
    (lambda r: r.update(guess="zzzzz"), "'zzzzz' is not in"),
    (lambda r: r.update(exact="false"), "not a first-guess record"),
    (lambda r: r.update(value=True), "not a first-guess record"),
    (lambda r: r.update(value=int("9" * 3000)), "there are 55 answers"),
])
def test_checkpoint_values_are_checked_against_the_instance(instance, tmp_path, edit, message):
    A, G = instance
    assert len(A) == 55, "the message below names the answer count"
    path = tmp_path / "run.jsonl"
    depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, limit=1)
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    edit(record)
    path.write_text("\n".join([lines[0], json.dumps(record)] + lines[2:]) + "\n")
    with pytest.raises(ExactError, match=message):
        depth4.run(A, G, depth=3, resume=path, progress=False)


def test_one_writer_per_checkpoint(instance, tmp_path):
    """A second run on a checkpoint in use is refused with the running one's pid; the lock dies with
    its process (kill -9), so a crash never leaves it locked."""
    A, G = instance
    path = tmp_path / "run.jsonl"
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sys, time
from exact.fileio import lock_checkpoint
lock_checkpoint(__import__('pathlib').Path({str(path)!r}))
print('locked', flush=True)
time.sleep(120)
"""], env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ExactError, match=rf"in use by a run still going \(pid {holder.pid} "):
            depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, limit=1)
        assert not path.exists()  # nothing was written over the running one's checkpoint
    finally:
        holder.kill()
        holder.wait()
    depth4.run(A, G, depth=3, batch=4, checkpoint=path, progress=False, limit=1)  # free again
    depth4.run(A, G, depth=3, batch=4, resume=path, progress=False, limit=1)  # and released by the first run
