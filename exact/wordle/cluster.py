"""The global first-guess search on a Dask cluster (``pip install -e '.[cluster]'``).

``exact wordle solve --depth 4 --cluster local`` starts a :class:`distributed.LocalCluster` with one
single-threaded worker process per core (numba's threads set to 1 in each, so that workers do not
fight for cores); ``--cluster tcp://HOST:8786`` (or ``HOST:8786``) joins a running scheduler, whose
workers need this package importable (``pip install -e '.[cluster]'`` on every node, and
``NUMBA_NUM_THREADS=1`` per single-threaded worker).

- Tasks are batches of first guesses, :func:`exact.wordle.depth4.evaluate_batch`, submitted in the
  order of :func:`exact.wordle.depth4.first_guess_order`, at most two per worker in flight; Dask's
  scheduler places them, retries a batch whose worker was lost, and the driver writes each finished
  batch to the checkpoint as it arrives.
- The lists and the feedback matrix are scattered once with ``broadcast=True``: every worker holds
  one copy and every task refers to it by key (no matrix travels with a task). Each worker process
  builds its :class:`exact.wordle.dp.Search` once (:func:`exact.wordle.depth4.search_for`).
- The incumbent is shared two ways: each batch carries the best exact value known when it is
  submitted, and a Dask :class:`distributed.Variable` (``exact-incumbent-<run>``), set by the driver
  whenever a batch brings a better one, is read by the workers before each first guess.

Ctrl-C stops the driver: batches in flight are cancelled (at most those are lost), the finished ones
are in the checkpoint, and the local cluster is shut down.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import numpy as np

from exact import progress as prog
from exact import stop
from exact.errors import ExactError
from exact.wordle import depth4
from exact.words import WordList


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ExactError("--cluster needs Dask distributed: pip install -e '.[cluster]'") from None
    return distributed


def start_client(address: str, workers: int | None = None):
    """(client, cluster or None): a new local cluster for ``local``, else a client of ADDRESS."""
    distributed = _import_distributed()
    if address == "local":
        n = workers or os.cpu_count() or 1
        before = os.environ.get("NUMBA_NUM_THREADS")
        os.environ["NUMBA_NUM_THREADS"] = "1"  # inherited by the worker processes
        try:
            cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=40)
        finally:
            if before is None:
                del os.environ["NUMBA_NUM_THREADS"]
            else:
                os.environ["NUMBA_NUM_THREADS"] = before
        return distributed.Client(cluster), cluster
    try:
        _probe(address)
        return distributed.Client(address, timeout="20s"), None
    except ExactError:
        raise
    except (OSError, TimeoutError) as e:
        raise ExactError(f"--cluster {address}: cannot reach a Dask scheduler there ({e})") from None
    except ValueError as e:  # not an address: "missing port number", an unknown protocol
        raise ExactError(f"--cluster {address!r:.60}: not a scheduler address ({e}); give tcp://HOST:PORT "
                         f"or local") from None
    except (MemoryError, EOFError, Exception) as e:  # noqa: BLE001 - a server that does not speak Dask's protocol
        raise ExactError(f"--cluster {address}: no Dask scheduler answered there ({type(e).__name__}: "
                         f"{str(e)[:80]}); is it the scheduler's address and port?") from None


def _probe(address: str, seconds: float = 10.0) -> None:
    """Fail fast, with a one-line ExactError, unless a Dask scheduler answers at a ``tcp://`` address.

    A Dask comm sends its handshake as soon as the connection is made: frames led by their count,
    a little-endian uint64 (a handful). Other servers send nothing (HTTP waits for a request: the
    Client then hung for minutes) or text (whose first 8 bytes read as a huge count: the Client ran
    out of memory allocating it). Other protocols (tls://, inproc://) are left to Dask."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    protocol, location = parse_address(address)  # ValueError for what is not an address
    if protocol != "tcp":
        return
    host, port = parse_host_port(location)
    try:
        with socket.create_connection((host, port), timeout=seconds) as sock:
            sock.settimeout(seconds)
            head = b""
            while len(head) < 8:
                block = sock.recv(8 - len(head))
                if not block:
                    break
                head += block
    except TimeoutError:
        raise ExactError(f"--cluster {address}: the server there sent nothing in {seconds:g} s; a Dask scheduler "
                         f"greets at once (is it the scheduler's address and port?)") from None
    if len(head) < 8 or not 0 < int.from_bytes(head, "little") < 1000:
        raise ExactError(f"--cluster {address}: the server there does not speak Dask's protocol "
                         f"(it sent {head[:8]!r}); is it the scheduler's address and port?")


class _OneLine:
    """A logging filter for Dask's loggers in the driver: their messages stay, their tracebacks go
    (a lost scheduler is reported once, in one line, by :func:`run_cluster`)."""

    def filter(self, record) -> bool:
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def _quiet_tracebacks() -> None:
    import logging

    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio", "")]
    for logger in loggers + [logging.getLogger(n) for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        for holder in [logger, *logger.handlers]:  # a logger's filters see only its own records; handlers see all
            if not any(isinstance(f, _OneLine) for f in holder.filters):
                holder.addFilter(_OneLine())


def lost_errors(distributed) -> tuple:
    """What a future's result raises when the scheduler is lost, or a batch kept killing its workers."""
    from concurrent.futures import CancelledError  # distributed's FutureCancelledError ("scheduler-connection-lost")

    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    return (CancelledError, CommClosedError, KilledWorker, OSError, TimeoutError)


def _lost_message(address: str, e: BaseException, book, finished: int) -> str:
    what = f"{type(e).__name__}: {str(e).splitlines()[0][:100]}" if str(e) else type(e).__name__
    saved = (f"the {finished} first guesses finished are in the checkpoint {book.path}: start a scheduler and "
             f"workers and run the same command with --resume {book.path}" if book is not None else
             "nothing was saved (give --checkpoint FILE to keep the finished first guesses)")
    return f"--cluster {address}: the Dask cluster was lost mid-run ({what}); {saved}"


def _workers_now(client, at_start: int) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:  # noqa: BLE001 - the count only sizes the batches in flight
        return at_start


def _read_shared(name: str):
    """On a worker: a callable giving the cluster-wide incumbent (0 when unset or unreachable)."""
    from distributed import Variable

    variable = Variable(name)

    def shared() -> int:
        try:
            return int(variable.get(timeout=1))
        except Exception:  # noqa: BLE001 - a missing or slow value only means less pruning
            return 0

    return shared


def cluster_batch(data, rows, incumbent, depth, variable_name):
    """The task: one batch of first guesses on a worker (see :func:`exact.wordle.depth4.evaluate_batch`)."""
    shared = _read_shared(variable_name) if variable_name else None
    return depth4.evaluate_batch(data, rows, incumbent, depth, shared)


def run_cluster(answers: WordList, guesses: WordList, address: str = "local", depth: int = 4,
                hard: bool = False, batch: int = depth4.BATCH, checkpoint: str | Path | None = None,
                resume: str | Path | None = None, workers: int | None = None, progress: bool | None = None,
                F: np.ndarray | None = None, share: bool = True) -> depth4.GlobalResult:
    """The global search with batches as Dask tasks; same result as :func:`exact.wordle.depth4.run`."""
    distributed = _import_distributed()
    started = time.perf_counter()
    F, order, outcomes, rows, book = depth4.prepare(answers, guesses, depth, hard, batch, checkpoint, resume, F)
    client = cluster = None
    interrupted = False
    bar = prog.bar(total=len(guesses), desc=f"first guesses (depth {depth}, cluster)", unit="guess",
                   disable=(not progress) if progress is not None else None, initial=len(outcomes))
    futures = {}
    n_workers = 0
    report = depth4.Reporter(len(guesses))
    try:
        if address == "local":
            depth4.warm_up()  # the kernels compiled once here; the workers load numba's cache
        _quiet_tracebacks()
        client, cluster = start_client(address, workers)
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        prog.say(f"cluster: {n_workers} workers at {client.scheduler.address}")
        [data] = client.scatter([(answers, guesses, hard, F)], broadcast=True)
        name = f"exact-incumbent-{uuid.uuid4().hex[:12]}" if share else None
        variable = distributed.Variable(name, client=client) if share else None
        best = max((o.value for o in outcomes if o.exact), default=0)
        if variable is not None:
            variable.set(best)
        todo = depth4.batches(rows, batch)
        todo.reverse()
        pending = distributed.as_completed()

        def submit():
            rows_i = todo.pop()
            f = client.submit(cluster_batch, data, rows_i, best, depth, name, pure=False, retries=3)
            futures[f.key] = f
            pending.add(f)

        for _ in range(min(len(todo), 2 * n_workers)):
            submit()
        for f in pending:
            try:
                found = f.result()
            except lost_errors(distributed) as e:
                raise ExactError(_lost_message(address, e, book, len(outcomes))) from None
            futures.pop(f.key, None)
            outcomes.extend(found)
            if book is not None:
                book.append(found)
            top = max((o.value for o in found if o.exact), default=0)
            if top > best:
                best = top
                if variable is not None:
                    variable.set(best)
            bar.update(len(found))
            bar.set_postfix(best=best)
            report(outcomes)
            # two batches in flight per worker, counting the workers that joined since the start
            while todo and len(futures) < 2 * _workers_now(client, n_workers):
                submit()
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        interrupted = True
        prog.say("interrupted; the batches in flight are dropped, every finished first guess is kept")
    finally:
        bar.close()
        if book is not None:
            book.close()
        if client is not None:
            shut_down(client, cluster, futures.values())
    report(outcomes, force=True)
    where = "local Dask cluster" if address == "local" else f"Dask cluster {address}"
    return depth4.summarize(answers, guesses, depth, hard, outcomes, order, time.perf_counter() - started,
                            n_workers, f"{where}, {n_workers} single-threaded workers", interrupted)


def shut_down(client, cluster, futures) -> None:
    """Cancel the batches in flight, close the client and a local cluster; errors while shutting down
    after an interrupt are ignored (nothing is left to save)."""
    try:
        for f in futures:
            f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
    except Exception:  # noqa: BLE001 - shutting down after an interrupt; nothing to save
        pass
