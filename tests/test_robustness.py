"""Robustness: interrupts and signals (through the real command), corrupt caches, special files,
endless input, exit codes and claims. Each test names the failure it guards against."""

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from exact import partitions, stop
from exact.errors import ExactError
from exact.fileio import atomic_write_bytes, write_text
from exact.words import read_words, wordle_allowed, wordle_answers, words_from_lines

ROOT = Path(__file__).resolve().parents[1]


def start_exact(*args, env=None) -> subprocess.Popen:
    """``python -m exact ARGS`` in the background, with SIGINT at its default (a background job of a
    non-interactive shell would inherit it ignored)."""
    return subprocess.Popen([sys.executable, "-m", "exact", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_line(proc, predicate, seen: list, timeout=120.0):
    """Read stderr lines until one satisfies ``predicate`` (the process keeps running)."""
    deadline = time.monotonic() + timeout
    for line in proc.stderr:
        seen.append(line)
        if predicate(line) or time.monotonic() > deadline:
            return line
    return None


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            ppid = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), -1)
            if ppid == pid:
                out.append(int(entry.name))
    return out


def running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def device(folder: Path, name: str, minor: int) -> Path:
    """A private copy of /dev/null (minor 3) or /dev/full (minor 7) in ``folder``: tests never write
    to the real devices (a regression there would replace them for the whole machine)."""
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "wb"):
            pass
    except OSError as e:
        pytest.skip(f"cannot make a device node here ({e.strerror})")
    return path


def shared_memory_names() -> set[str]:
    shm = Path("/dev/shm")
    return {p.name for p in shm.iterdir()} if shm.is_dir() else set()


@pytest.fixture(scope="module")
def pool61(tmp_path_factory, write_lines):
    return write_lines(tmp_path_factory.mktemp("pool") / "pool61.txt", wordle_answers().words[::38])


@pytest.fixture(scope="module")
def words30(tmp_path_factory, write_lines):
    return write_lines(tmp_path_factory.mktemp("w30") / "w30.txt", wordle_answers().words[:30])


# --- 1, 6: Ctrl-C in the depth-3 proof: no segfault, exit 130, says so ---------------------------

@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals as on Linux")
def test_ctrl_c_in_the_depth3_kernels_stops_cleanly_with_130(tmp_path, run_exact, write_lines):
    # The matrix and the compiled kernels first, so that the signal lands in the parallel kernel.
    assert run_exact("wordle", "openers", "--top", "1").returncode == 0
    A = write_lines(tmp_path / "a.txt", wordle_answers().words[:40])
    assert run_exact("wordle", "solve", "--answers", A, "--depth", "3").returncode == 0
    out, cert = tmp_path / "t.graphml", tmp_path / "c.json"
    proc = start_exact("wordle", "solve", "--depth", "3", "--out", out, "--certificate", cert)
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 130, stderr  # was -11 (segfault) with no output
    assert "interrupted" in stdout and "interrupted" in stderr and "Traceback" not in stderr
    data = json.loads(cert.read_text())
    assert data["interrupted"] is True and data["status"] in ("FEASIBLE", "UNKNOWN")
    if data["status"] == "FEASIBLE":  # the tree after the best first guess so far, replayed
        assert data["tree"]["replay"]["wins"] == data["wins"] and out.exists()


@pytest.mark.slow
def test_sigterm_in_wordle_solve_exits_143(tmp_path):
    proc = start_exact("wordle", "solve", "--depth", "3", "--json")
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 143, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr


def test_interrupted_dp_result_is_marked_and_unknown_without_values(monkeypatch):
    from exact.wordle.wins import dp

    A = words_from_lines(wordle_answers().words[:30])
    calls = []

    def interrupt(self, *args, **kwargs):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(dp.Search, "value_many", interrupt)
    r = dp.solve(A, A, depth=3, progress=False)
    assert calls and r.interrupted and r.status == "UNKNOWN" and r.to_json()["interrupted"] is True
    assert "NONE" not in json.dumps(r.to_json())


# --- 2, 12: the feedback cache ------------------------------------------------------------------

@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def lists():
    return words_from_lines(wordle_allowed().words[:50], "g"), words_from_lines(wordle_answers().words[:20], "a")


def npy_of(guesses, answers) -> Path:
    return partitions.cache_dir() / f"feedback-{partitions.matrix_key(guesses, answers)}.npy"


def test_a_bad_header_byte_is_a_rebuild_not_a_traceback(lists, cache, capsys):
    guesses, answers = lists
    F = partitions.feedback_matrix(guesses, answers)
    npy = npy_of(guesses, answers)
    data = bytearray(npy.read_bytes())
    data[8] = 0x20  # this byte once raised tokenize.TokenError
    npy.write_bytes(bytes(data))
    assert np.array_equal(partitions.feedback_matrix(guesses, answers), F)
    assert "corrupt or stale; rebuilding" in capsys.readouterr().err


def test_a_header_declaring_a_huge_shape_is_not_allocated(lists, cache, capsys):
    guesses, answers = lists
    F = partitions.feedback_matrix(guesses, answers)
    npy = npy_of(guesses, answers)
    text = npy.read_bytes()
    header_end = text.index(b"\n") + 1
    header = text[10:header_end].decode("latin1")
    huge = header.replace(f"({len(guesses)}, {len(answers)})", "(3000000, 3000000)")
    assert huge != header
    huge = huge.rstrip("\n").ljust(len(header) - 1) + "\n" if len(huge) <= len(header) else huge
    npy.write_bytes(text[:8] + len(huge).to_bytes(2, "little") + huge.encode("latin1") + text[header_end:])
    assert np.array_equal(partitions.feedback_matrix(guesses, answers), F)  # was an _ArrayMemoryError
    assert "corrupt or stale; rebuilding" in capsys.readouterr().err


@pytest.mark.slow
def test_fuzzing_the_header_never_escapes_as_an_exception(lists, cache):
    guesses, answers = lists
    F = partitions.feedback_matrix(guesses, answers)
    npy = npy_of(guesses, answers)
    good = npy.read_bytes()
    for position in range(128):
        for value in (0x00, 0x20, 0x7F, 0xFF, good[position] ^ 0x01):
            data = bytearray(good)
            data[position] = value
            npy.write_bytes(bytes(data))
            assert np.array_equal(partitions.feedback_matrix(guesses, answers), F), (position, value)


def test_stale_temporaries_of_a_killed_build_are_removed(lists, cache):
    guesses, answers = lists
    partitions.feedback_matrix(guesses, answers)
    name = npy_of(guesses, answers).name
    dead = cache / f".{name}.999999999-abcd1234.tmp"  # no such pid
    old = cache / f".{name}.abcd1234.tmp"  # the old naming: removed once it is an hour old
    mine = cache / f".{name}.{os.getpid()}-abcd1234.tmp"  # a live writer's: kept
    for p in (dead, old, mine):
        p.write_bytes(b"x" * 100)
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    partitions.feedback_matrix(guesses, answers)
    assert not dead.exists() and not old.exists() and mine.exists()


def test_the_cache_is_written_through_exact_fileio(lists, cache):
    guesses, answers = lists
    assert not hasattr(partitions, "_atomic_save_npy")
    old = os.umask(0o022)
    try:
        partitions.feedback_matrix(guesses, answers)
    finally:
        os.umask(old)
    assert stat.S_IMODE(npy_of(guesses, answers).stat().st_mode) == 0o644


# --- 3, 4: SIGTERM and early Ctrl-C in lingo solve -----------------------------------------------

@pytest.mark.slow
def test_sigterm_stops_lingo_workers_writes_the_best_and_exits_143(pool61, tmp_path):
    before = shared_memory_names()
    out = tmp_path / "r.json"
    proc = start_exact("lingo", "solve", "--words", pool61, "-k", "2", "--time-limit", "300",
                       "--workers", "2", "--out", out)
    seen: list = []
    wait_for_line(proc, lambda line: line.startswith("search") and "best" in line, seen)
    workers = children(proc.pid)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 143, "".join(seen) + stderr
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and len(data["guesses"]) == 2
    time.sleep(0.5)
    assert workers and not [p for p in workers if running(p)]  # were orphaned, busy until the limit
    assert not {n for n in shared_memory_names() - before if n.startswith("psm_")}


@pytest.mark.slow
@pytest.mark.parametrize("when", [0.3, 0.6, 0.9, 1.2, "start-up"])
def test_early_ctrl_c_in_lingo_solve_is_an_interrupt_not_a_traceback(pool61, when):
    proc = start_exact("lingo", "solve", "--words", pool61, "-k", "2", "--time-limit", "300", "--workers", "2")
    if when == "start-up":
        wait_for_line(proc, lambda line: line.startswith("solve:"), [])
        time.sleep(0.3)
    else:
        time.sleep(when)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "Aborted" not in stderr and "interrupted" in stderr


def test_interrupted_bound_phase_marks_the_lingo_result(pool61, monkeypatch):
    from exact.lingo import solve as lsolve
    from exact.lingo.solve import SolveParams

    def interrupted_bound(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(lsolve, "upper_bound", interrupted_bound)  # the name the solver calls
    pool = read_words(pool61)
    result = lsolve.solve_lingo(pool, SolveParams(k=2, time_limit=30, workers=1, max_rounds=1, cpsat_max_n=0))
    assert result.interrupted is True and result.to_json()["interrupted"] is True  # was False


@pytest.mark.slow
def test_sigterm_stops_the_lingo_bound_with_its_anytime_value():
    from exact.lingo.bound import upper_bound

    stop.reset()
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGTERM))
    def reached(signum, frame):
        raise RuntimeError("SIGTERM was not handled by the bound")

    previous = signal.signal(signal.SIGTERM, reached)
    timer.start()
    try:
        b = upper_bound(wordle_allowed(), None, 4, time_limit=60)
    finally:
        timer.cancel()
        signal.signal(signal.SIGTERM, previous)
    assert b.details["interrupted"] is True and stop.received() == signal.SIGTERM
    assert b.value <= b.n
    stop.reset()


# --- 5: unwritable outputs ------------------------------------------------------------------------

@pytest.mark.slow
def test_an_unwritable_out_fails_before_the_work(tmp_path, words30, cli):
    blocker = tmp_path / "file"
    blocker.write_text("")
    r = cli("wordle", "solve", "--answers", words30, "--guesses", words30, "--out", blocker / "t.json")
    assert r.returncode == 2 and "cannot be written" in r.stderr and r.stdout == ""
    r = cli("lingo", "solve", "--words", words30, "-k", "1", "--out", blocker / "r.json")
    assert r.returncode == 2 and "cannot be written" in r.stderr and "search" not in r.stderr


@pytest.mark.slow
def test_a_write_failing_at_the_end_still_prints_the_result(words30, tmp_path, cli):
    full = device(tmp_path, "full", 7)
    r = cli("wordle", "solve", "--answers", words30, "--guesses", words30, "--certificate", full)
    assert r.returncode == 2 and "wins 30 / 30" in r.stdout and str(full) in r.stderr
    assert full.is_char_device()


# --- 8, 9: symlinks, special files, permissions ---------------------------------------------------

def test_a_symlink_is_written_through(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_fifo_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    write_text(fifo, "through the pipe\n")
    reader.join(10)
    assert got == ["through the pipe\n"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_special_files_stay_special(tmp_path):
    null, full = device(tmp_path, "null", 3), device(tmp_path, "full", 7)
    atomic_write_bytes(null, b"discarded")
    assert null.is_char_device()  # was replaced by a regular file
    with pytest.raises(ExactError, match="full"):
        write_text(full, "no room")
    assert full.is_char_device()


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_text(tmp_path / "new.txt", "x")
        assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644  # was 0600
        kept = tmp_path / "kept.txt"
        kept.write_text("x")
        kept.chmod(0o640)
        write_text(kept, "y")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "y"
    finally:
        os.umask(old)


def test_check_writable_refuses_folders_and_impossible_paths(tmp_path):
    from exact.fileio import check_writable

    with pytest.raises(ExactError, match="cannot be written"):
        check_writable(tmp_path)
    (tmp_path / "f").write_text("")
    with pytest.raises(ExactError, match="cannot be written"):
        check_writable(tmp_path / "f" / "x.json")
    check_writable(tmp_path / "new" / "x.json")
    assert not list((tmp_path / "new").iterdir())  # the probe leaves nothing behind


# --- 10, 11: endless and enormous input -----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="/dev/zero is absent")
def test_endless_input_is_a_one_line_error(root):
    import resource

    def capped():  # before the fix memory grew without limit: keep a regression from eating the machine
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    r = subprocess.run([sys.executable, "-m", "exact", "lingo", "score", "trace", "--words", "/dev/zero"],
                       capture_output=True, text=True, timeout=60, cwd=root, preexec_fn=capped)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "/dev/zero:1" in r.stderr
    r = subprocess.run([sys.executable, "-m", "exact", "wordle", "verify", "/dev/zero", "--format", "txt"],
                       capture_output=True, text=True, timeout=60, cwd=root, preexec_fn=capped)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "/dev/zero" in r.stderr


@pytest.mark.slow
def test_a_huge_line_is_echoed_short(tmp_path, cli):
    f = tmp_path / "long.txt"
    f.write_text("crane\n" + "a" * 5_000_000 + "\n")
    with pytest.raises(ExactError) as e:
        read_words(f)
    assert len(str(e.value)) < 300 and ":2:" in str(e.value)
    g = tmp_path / "long2.txt"
    g.write_text("crane\n" + "a" * 200 + "\n")  # under the line cap: the word error, cut short
    with pytest.raises(ExactError) as e:
        read_words(g)
    assert len(str(e.value)) < 200 and "200 characters" in str(e.value)
    t = tmp_path / "long.tree.txt"
    t.write_text("x" * 1_000_000 + " GGGGG1\n")
    r = cli("wordle", "verify", t)
    assert r.returncode == 2 and len(r.stderr) < 300


def test_a_matrix_larger_than_memory_is_refused_before_allocating(monkeypatch, tmp_path, lists):
    guesses, answers = lists
    monkeypatch.setattr(partitions, "available_bytes", lambda: 100)
    with pytest.raises(ExactError, match=r"needs .* of memory"):
        partitions.feedback_matrix(guesses, answers, cache=False)


# --- 7: lingo verify --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def big_result(tmp_path_factory, cli, write_lines):
    """A result on 300 words (too many 4-sets to enumerate), made by a short solve."""
    folder = tmp_path_factory.mktemp("big")
    pool = write_lines(folder / "pool300.txt", wordle_answers().words[:300])
    out = folder / "pool300.json"
    r = cli("lingo", "solve", "--words", pool, "-k", "4", "--time-limit", "20", "--max-rounds", "1",
            "--workers", "1", "--cpsat-max-n", "0", "--bound-time", "2", "--out", out)
    assert r.returncode == 0, r.stderr
    return out


def forge(path: Path, folder: Path, **changes) -> Path:
    data = {**json.loads(path.read_text()), **changes}
    forged = folder / f"forged-{len(list(folder.iterdir()))}.json"
    forged.write_text(json.dumps(data))
    return forged


@pytest.mark.slow
def test_verify_fails_an_unconfirmable_optimal_unless_partial(big_result, tmp_path, cli):
    data = json.loads(big_result.read_text())
    forged = forge(big_result, tmp_path, status="OPTIMAL", upper_bound=data["wins"],
                   bound_probability=data["wins"] / data["n"], gap_percentage_points=0.0,
                   bound_method="cp-sat (OPTIMAL)")
    r = cli("lingo", "verify", forged)
    assert r.returncode == 1 and "verified" not in r.stdout.splitlines()[-1].split(": ")[-1:]
    assert "NOT VERIFIED" in r.stdout  # was: "unconfirmed" and still exit 0 "verified"
    r = cli("lingo", "verify", forged, "--partial")
    assert r.returncode == 0 and "partly verified" in r.stdout


@pytest.mark.slow
def test_verify_checks_derived_fields_and_rule_version(big_result, tmp_path, cli):
    data = json.loads(big_result.read_text())
    for changes in ({"probability": 0.99}, {"gap_percentage_points": 0.0}, {"rule_version": 999}):
        r = cli("lingo", "verify", forge(big_result, tmp_path, **changes), "--partial")
        assert r.returncode == 1 and "REJECTED" in r.stdout, (changes, r.stdout)
    assert data["rule_version"] and cli("lingo", "verify", big_result, "--partial").returncode == 0


# --- 13: depth beyond need --------------------------------------------------------------------------

def test_depth_beyond_need_is_decided_at_once(words30, monkeypatch):
    from exact.wordle.wins import dp

    A = read_words(words30)
    counts = {}
    real = dp.make_node
    for depth in (3, 8, 1_000_000):  # 1_000_000: was a RecursionError
        calls = []
        monkeypatch.setattr(dp, "make_node", lambda inst, T: calls.append(1) or real(inst, T))
        r = dp.solve(A, A, depth=depth, progress=False)
        assert (r.wins, r.status, r.depth) == (30, "OPTIMAL", depth)
        counts[depth] = len(calls)
    # every class of every first guess is decided by its depth-3 value: a few nodes per first guess
    # (before: the recursion retried guesses that split nothing at every depth, exponentially)
    assert counts[8] <= 5 * len(A) and counts[1_000_000] <= 5 * len(A), counts


def test_deep_values_agree_with_the_plain_recursion():
    """wins_k for k above 3 through the shortcuts against the plain recursion (memoised) on a tiny instance."""
    from functools import lru_cache

    from exact.feedback import all_green, feedback
    from exact.wordle.wins import dp

    A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal", "rebut", "sissy"])
    green = all_green(5)

    @lru_cache(maxsize=None)
    def plain(T: frozenset, k: int) -> int:
        if k == 0 or not T:
            return 0
        best = 0
        for g in A.words:
            classes: dict = {}
            for a in T:
                classes.setdefault(feedback(g, a), []).append(a)
            best = max(best, sum(1 if p == green else plain(frozenset(P), k - 1) for p, P in classes.items()))
        return best

    for k in (1, 2, 3, 4, 5, 9):
        assert dp.solve(A, A, depth=k, progress=False).wins == plain(frozenset(A.words), k), k


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_deep_depths_match_brute_force_in_both_modes(seed):
    """Depths 4 to 6 (the shortcuts and the useful-guess filter) against a plain recursive max,
    normal and hard mode, on tiny instances."""
    import random

    from exact.feedback import all_green, feedback
    from exact.wordle.wins import dp
    from exact.game.hard import is_allowed

    rng = random.Random(seed)
    A = sorted(rng.sample(wordle_answers().words, 6))
    G = sorted(set(A) | set(rng.sample(wordle_allowed().words, 3)))
    green = all_green(5)

    def wins(T, k, history, hard):
        if k == 0 or not T:
            return 0
        return max(value(g, T, k, history, hard) for g in G if not hard or is_allowed(g, history))

    def value(g, T, k, history, hard):
        classes: dict = {}
        for a in T:
            classes.setdefault(feedback(g, a), []).append(a)
        return sum(1 if p == green else wins(P, k - 1, history + ((g, p),), hard) for p, P in classes.items())

    AL, GL = words_from_lines(A), words_from_lines(G)
    for hard in (False, True):
        for k in (4, 5):
            values = {g: value(g, A, k, (), hard) for g in G}
            r = dp.solve(AL, GL, depth=k, hard=hard, progress=False)
            assert r.wins == max(values.values()), (hard, k)
            assert r.optimal_first == sorted(g for g, v in values.items() if v == r.wins), (hard, k)


# --- outputs checked before any work, on every command; no folder made silently -------------------


def test_a_missing_output_folder_is_an_error_unless_mkdir(tmp_path, cli, root):
    """`exact wordle convert TREE /nonexist/x.json` made /nonexist at the root and wrote there."""
    tree = root / "results" / "wordle" / "optimal-depth3.txt"
    r = cli("wordle", "convert", tree, tmp_path / "typo" / "x.json")
    assert r.returncode == 2 and not (tmp_path / "typo").exists()
    assert r.stderr.strip() == (f"exact: error: {tmp_path / 'typo' / 'x.json'}: the output cannot be written "
                                f"(no folder {tmp_path / 'typo'}; give --mkdir to create it)")
    r = cli("wordle", "convert", "--mkdir", tree, tmp_path / "new" / "x.json")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "new" / "x.json").is_file()


def test_every_command_with_an_output_has_mkdir_and_checks_it_first():
    import click

    from exact.cli import main
    from exact.cli.common import OUTPUT_PARAMS

    def leaves(group):
        for command in group.commands.values():
            yield from leaves(command) if isinstance(command, click.Group) else [command]

    writers = [c for c in leaves(main) if any(p.name in OUTPUT_PARAMS for p in c.params)]
    assert len(writers) >= 15
    assert all(any(p.name == "mkdir" for p in c.params) for c in writers)
    assert all(getattr(c.callback, "__wrapped__", None) is not None for c in writers)  # checked before the work


def test_adaptive_outputs_are_checked_before_the_solve(tmp_path, cli, write_lines):
    words = write_lines(tmp_path / "pool.txt", ["baker", "bakes", "baled", "cater", "cates"])
    args = ("lingo", "solve", "--adaptive", "--guesses-allowed", "2", "--words", words)
    r = cli(*args, "--out", "/proc/nope.json")
    assert r.returncode == 2 and "cannot be written" in r.stderr and "adaptive: letter" not in r.stderr
    r = cli(*args, "--out", tmp_path / "a.json", "--trees", tmp_path / "no" / "trees")
    assert r.returncode == 2 and "no folder" in r.stderr and "adaptive: letter" not in r.stderr
    assert not (tmp_path / "a.json").exists()
    r = cli(*args, "--trees", tmp_path / "trees")  # trees without a certificate were written nowhere
    assert r.returncode == 2 and "give --out too" in r.stderr
    r = cli(*args, "--out", tmp_path / "a.json", "--trees", tmp_path / "trees")
    assert r.returncode == 0 and sorted(p.name for p in (tmp_path / "trees").iterdir()) == ["b.tree", "c.tree"]


def test_resume_of_one_k_reads_its_file_as_that_k_only(tmp_path, cli, write_lines):
    words = write_lines(tmp_path / "pool.txt", ["baker", "bakes", "baled", "cater", "cates"])
    args = ("lingo", "solve", "--adaptive", "--guesses-allowed", "2", "--words", words, "--out", tmp_path / "K2.json")
    assert cli(*args).returncode == 0
    r = cli(*args, "--resume")
    assert r.returncode == 0, r.stderr  # was: "the certificate for K = 1 is not an adaptive result of this pool"


def test_an_abandonable_call_is_interrupted_while_it_still_runs():
    """exact.stop.abandonable: a signal stops the wait for a call that would never return on its own
    (here it waits on an event nobody sets, standing for a long numba kernel); values and errors of
    calls that do return come back as from a plain call."""
    import os
    import signal
    import threading

    from exact import stop

    assert stop.abandonable(divmod, 7, 2) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        stop.abandonable(divmod, 1, 0)
    never = threading.Event()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            stop.abandonable(never.wait)
        assert not never.is_set()
    finally:
        signal.signal(signal.SIGINT, previous)
        never.set()  # let the abandoned call end


def test_an_import_cut_short_by_ctrl_c_is_an_interrupt_not_an_internal_error():
    """A compiled module whose initialization a Ctrl-C interrupts (OR-Tools' ``cp_model_helper`` in
    ``lingo solve``, seen once in CI) raises ``ImportError: initialization failed`` caused by the
    KeyboardInterrupt: the CLI says "interrupted" and exits 130, it writes no internal-error report."""
    import click
    from click.testing import CliRunner

    from exact.cli.common import ExactGroup

    @click.group(cls=ExactGroup)
    def group():
        pass

    @group.command()
    def importing():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise ImportError("initialization failed") from interrupt

    result = CliRunner().invoke(group, ["importing"])
    assert result.exit_code == 130, result.stderr
    assert "interrupted" in result.stderr and "internal error" not in result.stderr
    assert stop.caused_by_interrupt(ImportError("x")) is False
