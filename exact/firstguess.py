"""The one driver of every search over a set of first guesses: batches, the shared threshold,
progress, the checkpoint, resume, in process or on Dask, interrupts.

A search (the global most-wins-within-k search, the fewest-guesses ranking, the Lingo proof) is an
object with (a) the work, run where the first guesses are evaluated:

- ``prepare()``: build the per-process state once (kept off the pickle: a worker builds its own);
- ``evaluate(word, threshold) -> record`` (a record has a ``guess`` attribute; None means the
  evaluation itself was interrupted);

(b) the fold, run by the driver: ``threshold(records) -> int | None``, a valid threshold from any
subset of the records (a subset can only give a looser one), and ``tighter(a, b)``, the tighter
of two valid thresholds (the driver, a worker and the batch's own records each know one);

(c) the file: ``FORMAT``, ``KIND`` (its name in errors), ``MUST_MATCH`` (header keys that must be
equal on resume), ``LISTS`` (header keys of word lists whose sha256 must be equal), ``header()``,
``to_json(record)``, ``from_json(dict) -> record`` (raising KeyError, TypeError or ValueError, with
the reason, for a bad record: :func:`whole` checks one count), ``summary(records) -> str`` (the
progress line), ``ABANDONABLE`` (whether :func:`exact.stop.abandonable` may drop an evaluation
at Ctrl-C; a search that stops itself at a signal returns None instead) and ``DESC``.

The driver (:func:`drive`) evaluates the words not in the checkpoint, in the order given: in this
process one at a time, the threshold recomputed from every record after each; on Dask
(:mod:`exact.cluster`) in batches, at most two per worker in flight, each batch given the threshold
when it is submitted, tightened on the worker by the batch's own records and by one
:class:`distributed.Variable` the driver sets after every batch. A threshold is only ever
tightened with one derived from finished records, so every record is as valid as with the looser one.

The checkpoint (:class:`Checkpoint`): JSON lines, the header, then one record per first guess done,
each one ``write`` flushed and fsynced, locked to one writer (:func:`exact.fileio.lock_checkpoint`);
read with a size and a line cap; a torn last line (a kill mid-write) is dropped; a write that fails
(a full disk) is cut back to the last whole line and is a one-line error. A checkpoint is checked
on read: a record for a first guess not asked for, a second record for the same guess, a count that
is negative, boolean, not an integer, or out of the search's bounds is an error naming the file and
line (a second record once turned a ranking's best value into a wrong one).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from exact import progress as prog
from exact import stop
from exact.cluster import import_distributed, lost_errors, quiet_tracebacks, shut_down, start_client
from exact.errors import ExactError
from exact.fileio import lock_checkpoint, write_text

#: A checkpoint line is a header or a record of a few hundred bytes: a longer line is not a checkpoint's.
MAX_CHECKPOINT_LINE = 4096
#: The largest checkpoint read (the 12972 first guesses of Wordle take about 1.5 MB).
MAX_CHECKPOINT = 32 * 1024 * 1024
#: Seconds between progress lines in a log.
EVERY = 60.0


def whole(d: dict, key: str, low: int, high: int, why: str = "") -> int:
    """``d[key]``, an integer (not a boolean) in [low, high], or a ValueError saying why not (``why``:
    the argument of the bounds, said after them)."""
    x = d[key]
    if not isinstance(x, int) or isinstance(x, bool):
        raise ValueError(f"{key} {x!r:.30} is not an integer")
    if not low <= x <= high:
        raise ValueError(f"{key} {x if abs(x) < 10**12 else 'of ' + str(len(str(x))) + ' digits'} is outside "
                         f"[{low}, {high}]{why}")
    return x


class Search:
    """The defaults of a search (see the module docstring): its per-process state (``self.state``,
    built by ``prepare``) stays off the pickle, so each worker builds its own."""

    ABANDONABLE = False
    LISTS: tuple[str, ...] = ()
    DESC = "first guesses"
    state = None

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "state"}

    def warm_up(self) -> None:
        """Compile what the workers will load from numba's cache (nothing by default)."""

    def tighter(self, a: int, b: int) -> int:
        raise NotImplementedError  # a search with thresholds says which is tighter

    def threshold(self, records: Iterable) -> int | None:
        return None

    def trusted(self, record) -> bool:
        """Whether a resumed record is taken as it stands (by default every checked record is: its
        claims are re-derived by ``verify``); a search whose resume would otherwise turn an unchecked
        claim into a result says no, and the driver evaluates that guess again."""
        return True


# --- reading a checkpoint -----------------------------------------------------------------------

def _lines(path: Path) -> list[str]:
    """The complete lines of the file (the part after the last newline is torn), read a line at a
    time with the caps above, so that ``/dev/zero`` or a huge file stops at once."""
    lines, size = [], 0
    with open(path, "rb") as f:
        while raw := f.readline(MAX_CHECKPOINT_LINE + 1):
            size += len(raw)
            if len(raw) > MAX_CHECKPOINT_LINE and not raw.endswith(b"\n"):
                raise ExactError(f"{path}:{len(lines) + 1}: line longer than {MAX_CHECKPOINT_LINE} bytes; "
                                 f"not a checkpoint")
            if size > MAX_CHECKPOINT:
                raise ExactError(f"{path}: larger than {MAX_CHECKPOINT // (1024 * 1024)} MiB; not a checkpoint")
            if not raw.endswith(b"\n"):
                break
            lines.append(raw[:-1].decode("utf-8"))
    return lines


def complete_lines(path: str | Path) -> list[str]:
    """:func:`_lines`, with every reading error one line naming the file."""
    path = Path(path)
    try:
        lines = _lines(path)
    except FileNotFoundError:
        raise ExactError(f"{path}: no such checkpoint") from None
    except IsADirectoryError:
        raise ExactError(f"{path}: is a directory, not a checkpoint") from None
    except UnicodeDecodeError as e:
        raise ExactError(f"{path}: not UTF-8 text ({e.reason}); not a checkpoint") from None
    except OSError as e:
        raise ExactError(f"{path}: cannot read the checkpoint ({e.strerror})") from None
    if not lines:
        raise ExactError(f"{path}:1: empty checkpoint (no header)")
    return lines


def _json(path: Path, number: int, line: str):
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise ExactError(f"{path}:{number}: not a JSON line ({e.msg})") from None
    except ValueError:  # a number of thousands of digits
        raise ExactError(f"{path}:{number}: not a JSON line (a number with too many digits)") from None


def read_checkpoint(path: str | Path, search, words: Iterable[str] | None = None) -> tuple[dict, list]:
    """(header, records) of the search's checkpoint, each record checked: its fields
    (``search.from_json``), its guess one of ``words`` (when given), and no guess twice."""
    path = Path(path)
    asked = None if words is None else set(words)
    header, records, seen = None, [], {}
    for number, line in enumerate(complete_lines(path), start=1):
        data = _json(path, number, line)
        if number == 1:
            if not isinstance(data, dict) or data.get("format") != search.FORMAT:
                raise ExactError(f"{path}:1: not a {search.KIND} checkpoint (format "
                                 f"{data.get('format') if isinstance(data, dict) else data!r:.40})")
            header = data
            continue
        try:
            record = search.from_json(data)
        except (KeyError, TypeError, ValueError) as e:
            why = f" ({str(e)[:80]})" if isinstance(e, ValueError) and str(e) else ""
            raise ExactError(f"{path}:{number}: not a first-guess record{why}") from None
        if asked is not None and record.guess not in asked:
            raise ExactError(f"{path}:{number}: first guess {record.guess[:20]!r} is not in the first guesses this "
                               f"run asks for")
        if record.guess in seen:
            raise ExactError(f"{path}:{number}: a second record for {record.guess!r} (the first is on line "
                             f"{seen[record.guess]}); not a checkpoint this program wrote")
        seen[record.guess] = number
        records.append(record)
    return header, records


def check_header(old: dict, new: dict, path: Path, must_match: Iterable[str], lists: Iterable[str] = ()) -> None:
    """A checkpoint resumed must be of the same run: the header keys ``must_match`` and the sha256 of
    the word lists ``lists``."""
    for key in must_match:
        if old.get(key) != new.get(key):
            raise ExactError(f"{path}:1: the checkpoint has {key} {old.get(key)!r:.80}, this run {new.get(key)!r}")
    for key in lists:
        if not (isinstance(old.get(key), dict) and isinstance(old[key].get("source"), str)
                and isinstance(old[key].get("sha256"), str)):
            raise ExactError(f"{path}:1: the checkpoint's header has no valid {key!r} record")
        if old[key]["sha256"] != new[key]["sha256"]:
            raise ExactError(f"{path}:1: the checkpoint's {key} ({old[key]['source']:.80}, sha256 "
                             f"{old[key]['sha256'][:12]}...) differ from this run's ({new[key]['source']})")


# --- writing it -----------------------------------------------------------------------------------

class Checkpoint:
    """The append-only JSON-lines file of a run, locked to one writer. ``resume``: append to it (a
    torn last line cut); otherwise it must not exist or be empty, and gets ``header``."""

    def __init__(self, path: str | Path, header: dict, resume: bool = False, drop: Iterable[str] = ()):
        self.path = Path(path)
        self.fd = None
        self.lock = lock_checkpoint(self.path)  # before anything is read or written
        try:
            self._open(header, resume)
            self._drop(set(drop))
        except BaseException:
            self.close()
            raise

    def _open(self, header: dict, resume: bool) -> None:
        if resume:
            data = self.path.read_bytes()
            keep = data.rfind(b"\n") + 1  # drop a torn last line
            if keep < len(data):
                with open(self.path, "r+b") as f:
                    f.truncate(keep)
        else:
            if self.path.exists() and self.path.stat().st_size > 0 and self.path.is_file():
                raise CheckpointExists(self.path)
            write_text(self.path, json.dumps(header) + "\n")
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    def _drop(self, guesses: set[str]) -> None:
        """Rewrite the file (atomically, under the lock) without the records of ``guesses``: records
        the search does not trust, evaluated again, so that no guess has two records."""
        if not guesses:
            return
        lines = complete_lines(self.path)
        kept = [x for x in lines[1:] if json.loads(x).get("guess") not in guesses]
        os.close(self.fd)
        write_text(self.path, "".join(x + "\n" for x in [lines[0], *kept]))
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    def append(self, lines: Iterable[dict]) -> None:
        """Each record one write, fsynced; a failed or short write is cut back to the last whole line."""
        for d in lines:
            data = (json.dumps(d) + "\n").encode()
            size = os.fstat(self.fd).st_size
            try:
                written = os.write(self.fd, data)
                os.fsync(self.fd)
            except OSError as e:
                self._cut(size)
                raise ExactError(f"{self.path}: cannot append to the checkpoint ({e.strerror}); it keeps every "
                                 f"whole line written before") from None
            if written != len(data):
                self._cut(size)
                raise ExactError(f"{self.path}: a short write to the checkpoint (disk full?); it keeps every "
                                 f"whole line written before")

    def _cut(self, size: int) -> None:
        try:
            os.ftruncate(self.fd, size)
        except OSError:
            pass  # the reader drops a torn last line anyway

    def close(self) -> None:
        for fd in (self.fd, self.lock):
            if fd is not None:
                os.close(fd)  # closing the lock's descriptor releases the flock
        self.fd = self.lock = None


# --- the run --------------------------------------------------------------------------------------

@dataclass
class Run:
    """What the driver did: every record (resumed ones first, then in the order finished)."""

    records: dict  # guess -> record
    interrupted: bool  # by Ctrl-C or SIGTERM
    limited: bool  # stopped after ``limit`` evaluations
    workers: int  # worker processes (0 in process)
    seconds: float


def resumed(search, words: list[str], checkpoint, resume) -> tuple[dict, Checkpoint | None]:
    """(records of the resumed checkpoint, the checkpoint written from now on or None)."""
    header = search.header()
    records: dict = {}
    if resume is not None:
        old, found = read_checkpoint(resume, search, words)
        check_header(old, header, Path(resume), search.MUST_MATCH, search.LISTS)
        records = {r.guess: r for r in found}
    redo = [g for g, r in records.items() if not search.trusted(r)]
    if redo:
        prog.say(f"{resume}: {len(redo)} records not taken as they stand (no seal of this installation: "
                 f"{', '.join(redo[:3])}{', ...' if len(redo) > 3 else ''}); evaluated again")
        records = {g: r for g, r in records.items() if g not in redo}
    target = checkpoint if checkpoint is not None else resume
    if target is None:
        return records, None
    same = resume is not None and Path(target).resolve() == Path(resume).resolve()
    book = Checkpoint(target, header, resume=same, drop=redo if same else ())
    if not same and records:
        try:
            book.append(search.to_json(r) for r in records.values())
        except BaseException:
            book.close()
            raise
    return records, book


class CheckpointExists(ExactError):
    """A run asked to start a checkpoint that already holds records: go on from it (``--resume``), or remove it.
    The command line says how in full (:func:`exact.cli.common.resume_command`)."""

    def __init__(self, path: Path):
        super().__init__("the checkpoint exists and is not empty; go on from it with --resume, or remove it",
                         path=str(path))
        self.checkpoint = path


class Progress:
    """A bar (a line in a log every few seconds), and the search's summary with the time left at
    most every ``every`` seconds."""

    def __init__(self, search, total: int, done: int, show: bool | None, every: float = EVERY):
        self.search, self.total, self.every = search, total, every
        self.started = self.last = time.monotonic()
        self.start_done = done
        self.bar = prog.bar(total=total, initial=done, desc=search.DESC, unit="guess", eta=False,
                            disable=(not show) if show is not None else None)  # the summary says the time left

    def __call__(self, records: dict, force: bool = False) -> None:
        self.bar.update(len(records) - self.bar.n)
        if force or time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            rate = (len(records) - self.start_done) / max(time.monotonic() - self.started, 1e-9)
            left = f"about {(self.total - len(records)) / rate / 3600:.1f} h left" if rate > 0 else "time left unknown"
            prog.say(f"{len(records)}/{self.total} first guesses done; {self.search.summary(records.values())}; {left}")

    def close(self) -> None:
        self.bar.close()


def drive(search, words: list[str], *, checkpoint=None, resume=None, limit: int | None = None,
          cluster: str | None = None, workers: int | None = None, batch: int = 8,
          progress: bool | None = None) -> Run:
    """Evaluate every word of ``words`` not in the resumed checkpoint, in that order (see the module
    docstring). ``limit``: stop after that many evaluations. Ctrl-C and SIGTERM stop it with every
    finished record kept (and written)."""
    started = time.perf_counter()
    records, book = resumed(search, words, checkpoint, resume)
    todo = [w for w in words if w not in records]
    state = Run(records, False, False, 0, 0.0)
    if limit is not None and limit < len(todo):
        todo, state.limited = todo[:limit], True
    report = Progress(search, len(words), len(records), progress)
    ended = False  # the run ended (done or interrupted), not failed: its last progress line is printed
    try:
        if cluster is None:
            state.interrupted = in_process(search, todo, records, book, report)
        else:
            state.workers = on_cluster(search, todo, records, book, report, cluster, workers, batch)
        ended = True
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        state.interrupted = ended = True
    finally:
        if ended:  # an error is the one line the user reads: no progress line before it
            report(records, force=True)
        report.close()
        if book is not None:
            book.close()
    if state.interrupted:
        prog.say("interrupted; every first guess done is kept" + (f" in {book.path}" if book else ""))
    state.seconds = time.perf_counter() - started
    return state


def best_so_far(build: Callable[[], object], interrupted: bool, what: str):
    """``build()``, the tree of the best first guess; after Ctrl-C or SIGTERM (``interrupted``) that of
    the best so far, said first, and a second signal skips it (None: no tree)."""
    if not interrupted:
        return build()
    prog.say(f"building the tree of the best first guess so far ({what}); Ctrl-C again to skip it")
    try:
        return build()
    except KeyboardInterrupt:
        prog.say("interrupted again: no tree written")
        return None


def _done(search, record, records: dict, book: Checkpoint | None) -> None:
    if record.guess in records:  # never two records for a guess (a batch redone elsewhere)
        return
    records[record.guess] = record
    if book is not None:
        book.append([search.to_json(record)])


def in_process(search, todo: list[str], records: dict, book, report) -> bool:
    """One word at a time, the threshold from every record so far; True if the search stopped
    itself at a signal (its evaluate returned None)."""
    search.prepare()
    for word in todo:
        threshold = search.threshold(records.values())
        if search.ABANDONABLE:  # an interrupt stops the run now, not when this evaluation ends
            record = stop.abandonable(search.evaluate, word, threshold)
        else:
            record = search.evaluate(word, threshold)
        if record is None:
            return True
        _done(search, record, records, book)
        report(records)
    return False


def read_shared(name: str) -> Callable[[], int | None]:
    """On a worker: a callable giving the run's shared threshold (None when unset or unreachable)."""
    from distributed import Variable  # lazy: optional dependency (pip install -e '.[cluster]')

    variable = Variable(name)

    def shared() -> int | None:
        try:
            return int(variable.get(timeout=1))
        except Exception:  # noqa: BLE001 - a missing or slow value only means less pruning
            return None

    return shared


def evaluate_batch(search, words: list[str], threshold, variable_name: str | None) -> list:
    """The task: a batch of words on a worker, each against the tightest of ``threshold``, the
    shared one and the batch's own records."""
    search.prepare()
    shared = read_shared(variable_name) if variable_name else None
    out = []
    for word in words:
        now = threshold
        for known in (shared() if shared else None, search.threshold(out)):
            if known is not None:
                now = known if now is None else search.tighter(now, known)
        record = search.evaluate(word, now)
        if record is None:  # the worker was told to stop
            break
        out.append(record)
    return out


def lost_message(address: str, e: BaseException, book: Checkpoint | None, finished: int) -> str:
    what = f"{type(e).__name__}: {str(e).splitlines()[0][:100]}" if str(e) else type(e).__name__
    saved = (f"the {finished} first guesses done are in the checkpoint {book.path}: start a scheduler and "
             f"workers and run the same command with --resume {book.path}" if book is not None else
             "nothing was saved (give --checkpoint FILE to keep the first guesses done)")
    return f"cluster {address}: the Dask cluster was lost mid-run ({what}); {saved}"


def _workers_now(client, at_start: int) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:  # noqa: BLE001 - the count only sizes the batches in flight
        return at_start


def on_cluster(search, todo, records, book, report, address, workers, batch) -> int:
    """The batches as Dask tasks, two per worker in flight; returns the workers at the start.
    Interrupts propagate (the batches in flight are cancelled and the cluster shut down)."""
    distributed = import_distributed()
    if address == "local":
        search.warm_up()  # the kernels compiled once here; the local workers load numba's cache
    quiet_tracebacks()
    client, cluster = start_client(address, workers)
    futures: dict = {}
    try:
        n = max(1, len(client.scheduler_info().get("workers", {})))
        prog.say(f"cluster: {n} workers at {client.scheduler.address}")
        [data] = client.scatter([search], broadcast=True)
        variable = distributed.Variable(f"exact-threshold-{uuid.uuid4().hex[:12]}", client=client)
        queue = [todo[i:i + batch] for i in range(0, len(todo), batch)][::-1]
        pending = distributed.as_completed()

        def lost(e: BaseException) -> ExactError:
            return ExactError(lost_message(address, e, book, len(records)), params=("cluster",))

        def submit() -> None:  # the scheduler can be lost here too: setting the threshold, submitting
            threshold = search.threshold(records.values())
            try:
                if threshold is not None:  # a search without thresholds never waits for the variable
                    variable.set(threshold)
                name = None if threshold is None else variable.name
                f = client.submit(evaluate_batch, data, queue.pop(), threshold, name, pure=False, retries=3)
            except lost_errors(distributed) as e:
                raise lost(e) from None
            futures[f.key] = f
            pending.add(f)

        for _ in range(min(len(queue), 2 * n)):
            submit()
        for f in pending:
            try:
                found = f.result()
            except lost_errors(distributed) as e:
                raise lost(e) from None
            futures.pop(f.key, None)
            for record in found:
                _done(search, record, records, book)
            report(records)
            while queue and len(futures) < 2 * _workers_now(client, n):
                submit()
        return n
    finally:
        shut_down(client, cluster, futures.values())
