"""A real Dask cluster: `dask scheduler` and `dask worker` processes on 127.0.0.1, driven by
`exact wordle solve --cluster tcp://127.0.0.1:PORT` on the reduced instance tests/oracles.families.

The certificate equals the in-process one; a worker killed with SIGKILL mid-run costs nothing but its
batch (redone, no first guess counted twice); a scheduler killed mid-run ends the run with one line and
a non-zero exit, the checkpoint intact, and --resume on a new scheduler finishes it; a worker that joins
late gets work. The workers of a run to be hurt mid-way preload tests/cluster_slow.py (0.3 s more per
batch, values untouched) so that it lasts long enough. Every process is started in its own session, bounded
in time, and killed by the test."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oracles import families

from exact.wordle.wins import ranking as depth4

pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install -e '.[cluster]')")

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and its workers, each a process in its own session; ``stop`` kills what is left."""

    def __init__(self, folder: Path):
        self.folder, self.port, self.procs = folder, free_port(), {}
        self.address = f"tcp://127.0.0.1:{self.port}"

    def _start(self, name: str, *args) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "w")
        self.procs[name] = subprocess.Popen([str(BIN / "dask"), *args], env=ENV, stdout=log, stderr=log,
                                            start_new_session=True, cwd=self.folder)
        return self.procs[name]

    def scheduler(self) -> "Cluster":
        self._start(f"scheduler-{self.port}", "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                    "--no-dashboard")
        self._wait(lambda: self._connectable(), "the scheduler to listen")
        return self

    def worker(self, name: str, slow: bool = True) -> subprocess.Popen:
        """A worker; ``slow``: with tests/cluster_slow.py preloaded, for a run that must last to be hurt."""
        preload = ["--preload", str(ROOT / "tests" / "cluster_slow.py")] if slow else []
        return self._start(name, "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                           "--name", name, "--death-timeout", "60", *preload)

    def wait_workers(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(count, timeout=120)

    def kill(self, name: str) -> None:
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait(timeout=30)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)

    def _connectable(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    @staticmethod
    def _wait(ready, what: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}")
            time.sleep(0.1)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    A, G = families()
    folder = tmp_path_factory.mktemp("lists")
    (folder / "a.txt").write_text("\n".join(A.words) + "\n")
    (folder / "g.txt").write_text("\n".join(G.words) + "\n")
    reference = depth4.run(A, G, depth=3, batch=1, progress=False)
    return folder, A, G, reference


def solve(lists, tmp_path, *args) -> subprocess.Popen:
    folder = lists[0]
    cmd = [sys.executable, "-m", "exact", "wordle", "solve", "--answers", str(folder / "a.txt"), "--guesses",
           str(folder / "g.txt"), "--depth", "3", "--batch", "1", "--certificate", str(tmp_path / "cert.json"), *args]
    return subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def finish(proc, seconds=300):
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the run did not finish in {seconds} s: {err[-600:]}")
    return proc.returncode, out, err


def records(path: Path) -> int:
    try:
        return max(0, path.read_text().count("\n") - 1)
    except FileNotFoundError:
        return 0


def wait_records(path: Path, count: int, proc) -> None:
    deadline = time.monotonic() + 180
    while records(path) < count:
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the run ended or stalled before {count} records: {proc.communicate()[1][-600:]}")
        time.sleep(0.05)


def same_as_reference(cert_path: Path, reference, G) -> dict:
    cert = json.loads(cert_path.read_text())
    assert cert["status"] == "OPTIMAL" and cert["wins"] == reference.wins
    assert cert["optimal_first"] == reference.optimal_first
    guesses = [o["guess"] for o in cert["first_guess_outcomes"]]
    assert sorted(guesses) == sorted(G.words)  # every first guess once: none lost, none counted twice
    exact = {o["guess"]: o["value"] for o in cert["first_guess_outcomes"] if o["exact"]}
    assert exact.items() >= {g: reference.wins for g in reference.optimal_first}.items()
    return cert


def two_workers(cluster, slow: bool = True) -> None:
    """A scheduler and two workers w1 and w2 (each batch slowed down unless ``slow`` is False), both joined."""
    cluster.scheduler()
    cluster.worker("w1", slow=slow), cluster.worker("w2", slow=slow)
    cluster.wait_workers(2)


@pytest.mark.slow
def test_a_real_cluster_gives_the_in_process_certificate(cluster, lists, tmp_path):
    _, A, G, reference = lists
    two_workers(cluster, slow=False)  # nothing to hurt: full speed
    code, out, err = finish(solve(lists, tmp_path, "--cluster", cluster.address, "--checkpoint", str(tmp_path / "run.jsonl")))
    assert code == 0, err[-600:]
    cert = same_as_reference(tmp_path / "cert.json", reference, G)
    assert len({o["worker"] for o in cert["first_guess_outcomes"]}) == 2  # both workers took batches
    assert sorted(o.guess for o in depth4.read_checkpoint(tmp_path / "run.jsonl")[1]) == sorted(G.words)


@pytest.mark.slow
def test_a_worker_killed_mid_run_costs_only_its_batch(cluster, lists, tmp_path):
    _, A, G, reference = lists
    two_workers(cluster)
    run = solve(lists, tmp_path, "--cluster", cluster.address, "--checkpoint", str(tmp_path / "run.jsonl"))
    wait_records(tmp_path / "run.jsonl", 10, run)
    cluster.kill("w1")
    code, out, err = finish(run)
    assert code == 0, err[-600:]
    assert records(tmp_path / "run.jsonl") == len(G)  # the lost batches were redone, none written twice
    same_as_reference(tmp_path / "cert.json", reference, G)


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_is_one_line_and_resume_finishes(cluster, lists, tmp_path):
    _, A, G, reference = lists
    two_workers(cluster)
    checkpoint = tmp_path / "run.jsonl"
    run = solve(lists, tmp_path, "--cluster", cluster.address, "--checkpoint", str(checkpoint))
    wait_records(checkpoint, 10, run)
    cluster.kill(f"scheduler-{cluster.port}")
    code, out, err = finish(run, 120)
    lines = err.strip().splitlines()
    assert code == 2 and lines[-1].startswith(f"exact: error: --cluster {cluster.address}: the Dask cluster was lost "
                                              f"mid-run") and f"--resume {checkpoint}" in lines[-1], err[-800:]
    assert "Traceback" not in err
    header, done = depth4.read_checkpoint(checkpoint)  # intact: a header and whole records
    assert 10 <= len(done) < len(G)
    cluster.stop()
    fresh = Cluster(tmp_path)
    try:
        fresh.scheduler()
        fresh.worker("w3"), fresh.worker("w4")
        fresh.wait_workers(2)
        code, out, err = finish(solve(lists, tmp_path, "--cluster", fresh.address, "--resume", str(checkpoint)))
        assert code == 0, err[-600:]
    finally:
        fresh.stop()
    same_as_reference(tmp_path / "cert.json", reference, G)


@pytest.mark.slow
def test_a_worker_that_joins_late_gets_work(cluster, lists, tmp_path):
    _, A, G, reference = lists
    cluster.scheduler()
    cluster.worker("early")
    cluster.wait_workers(1)
    run = solve(lists, tmp_path, "--cluster", cluster.address, "--checkpoint", str(tmp_path / "run.jsonl"))
    wait_records(tmp_path / "run.jsonl", 5, run)
    late = cluster.worker("late")
    code, out, err = finish(run)
    assert code == 0, err[-600:]
    cert = same_as_reference(tmp_path / "cert.json", reference, G)
    workers = {}
    for o in cert["first_guess_outcomes"]:
        workers[o["worker"]] = workers.get(o["worker"], 0) + 1
    assert any(w.endswith(f":{late.pid}") for w in workers), workers  # the late worker resolved first guesses
