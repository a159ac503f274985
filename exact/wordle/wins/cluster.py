"""The global first-guess search on a Dask cluster (``pip install -e '.[cluster]'``).

``exact wordle solve --depth 4 --cluster local`` starts a :class:`distributed.LocalCluster` with one
single-threaded worker process per core (numba's threads set to 1 in each, so that workers do not
fight for cores); ``--cluster tcp://HOST:8786`` (or ``HOST:8786``) joins a running scheduler, whose
workers need this package importable (``pip install -e '.[cluster]'`` on every node, and
``NUMBA_NUM_THREADS=1`` per single-threaded worker).

- Tasks are batches of first guesses, :func:`exact.wordle.wins.ranking.evaluate_batch`, submitted in the
  order of :func:`exact.wordle.wins.ranking.first_guess_order`, at most two per worker in flight; Dask's
  scheduler places them, retries a batch whose worker was lost, and the driver writes each finished
  batch to the checkpoint as it arrives.
- The lists and the feedback matrix are scattered once with ``broadcast=True``: every worker holds
  one copy and every task refers to it by key (no matrix travels with a task). Each worker process
  builds its :class:`exact.wordle.wins.dp.Search` once (:func:`exact.wordle.wins.ranking.search_for`).
- The incumbent is shared two ways: each batch carries the best exact value known when it is
  submitted, and a Dask :class:`distributed.Variable` (``exact-incumbent-<run>``), set by the driver
  whenever a batch brings a better one, is read by the workers before each first guess.

Ctrl-C stops the driver: batches in flight are cancelled (at most those are lost), the finished ones
are in the checkpoint, and the local cluster is shut down.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import numpy as np

from exact import progress as prog
from exact import stop
from exact.cluster import _import_distributed, _quiet_tracebacks, lost_errors, shut_down, start_client
from exact.errors import ExactError
from exact.wordle.wins import ranking as depth4
from exact.words import WordList


def _lost_message(address: str, e: BaseException, book, finished: int) -> str:
    what = f"{type(e).__name__}: {str(e).splitlines()[0][:100]}" if str(e) else type(e).__name__
    saved = (f"the {finished} first guesses finished are in the checkpoint {book.path}: start a scheduler and "
             f"workers and run the same command with --resume {book.path}" if book is not None else
             "nothing was saved (give --checkpoint FILE to keep the finished first guesses)")
    return f"cluster {address}: the Dask cluster was lost mid-run ({what}); {saved}"


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
    """The task: one batch of first guesses on a worker (see :func:`exact.wordle.wins.ranking.evaluate_batch`)."""
    shared = _read_shared(variable_name) if variable_name else None
    return depth4.evaluate_batch(data, rows, incumbent, depth, shared)


def run_cluster(answers: WordList, guesses: WordList, address: str = "local", depth: int = 4,
                hard: bool = False, batch: int = depth4.BATCH, checkpoint: str | Path | None = None,
                resume: str | Path | None = None, workers: int | None = None, progress: bool | None = None,
                F: np.ndarray | None = None, share: bool = True) -> depth4.GlobalResult:
    """The global search with batches as Dask tasks; same result as :func:`exact.wordle.wins.ranking.run`."""
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
