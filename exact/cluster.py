"""The Dask engine's connection, shared by the searches that run on a cluster (``pip install -e
'.[cluster]'``): start a local cluster or join a scheduler (:func:`start_client`, which fails fast
with one line when the address is not a Dask scheduler), the errors a lost cluster raises
(:func:`lost_errors`), Dask's tracebacks kept out of the driver's output, and :func:`shut_down`.

Data types: a ``client`` is a :class:`distributed.Client`, a ``cluster`` a
:class:`distributed.LocalCluster` (None when joining a scheduler); addresses are ``local`` or
``tcp://HOST:PORT``.
"""

from __future__ import annotations

import logging
import os
import socket
from concurrent.futures import CancelledError  # distributed's FutureCancelledError ("scheduler-connection-lost")

from exact.errors import ExactError


def import_distributed():
    try:
        import distributed  # lazy: optional dependency (pip install -e '.[cluster]')
    except ImportError:
        raise ExactError("cluster needs Dask distributed: pip install -e '.[cluster]'") from None
    return distributed


def start_client(address: str, workers: int | None = None):
    """(client, cluster or None): a new local cluster for ``local``, else a client of ADDRESS."""
    distributed = import_distributed()
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
        raise ExactError(f"cluster {address}: cannot reach a Dask scheduler there ({e})") from None
    except ValueError as e:  # not an address: "missing port number", an unknown protocol
        raise ExactError(f"cluster {address!r:.60}: not a scheduler address ({e}); give tcp://HOST:PORT "
                         f"or local") from None
    except (MemoryError, EOFError, Exception) as e:  # noqa: BLE001 - a server that does not speak Dask's protocol
        raise ExactError(f"cluster {address}: no Dask scheduler answered there ({type(e).__name__}: "
                         f"{str(e)[:80]}); is it the scheduler's address and port?") from None


def _probe(address: str, seconds: float = 10.0) -> None:
    """Fail fast, with a one-line ExactError, unless a Dask scheduler answers at a ``tcp://`` address.

    A Dask comm sends its handshake as soon as the connection is made: frames led by their count,
    a little-endian uint64 (a handful). Other servers send nothing (HTTP waits for a request: the
    Client then hung for minutes) or text (whose first 8 bytes read as a huge count: the Client ran
    out of memory allocating it). Other protocols (tls://, inproc://) are left to Dask."""
    from distributed.comm.addressing import parse_address, parse_host_port  # lazy: optional dependency (pip install -e '.[cluster]')

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
        raise ExactError(f"cluster {address}: the server there sent nothing in {seconds:g} s; a Dask scheduler "
                         f"greets at once (is it the scheduler's address and port?)") from None
    if len(head) < 8 or not 0 < int.from_bytes(head, "little") < 1000:
        raise ExactError(f"cluster {address}: the server there does not speak Dask's protocol "
                         f"(it sent {head[:8]!r}); is it the scheduler's address and port?")


class _OneLine:
    """A logging filter for Dask's loggers in the driver: their messages stay, their tracebacks go
    (a lost scheduler is reported once, in one line, by :func:`exact.firstguess.on_cluster`)."""

    def filter(self, record) -> bool:
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def quiet_tracebacks() -> None:
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio", "")]
    for logger in loggers + [logging.getLogger(n) for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        for holder in [logger, *logger.handlers]:  # a logger's filters see only its own records; handlers see all
            if not any(isinstance(f, _OneLine) for f in holder.filters):
                holder.addFilter(_OneLine())


def lost_errors(distributed) -> tuple:
    """What a future's result raises when the scheduler is lost, or a batch kept killing its workers."""
    from distributed.comm.core import CommClosedError  # lazy: optional dependency (pip install -e '.[cluster]')
    from distributed.scheduler import KilledWorker  # lazy: optional dependency (pip install -e '.[cluster]')

    return (CancelledError, CommClosedError, KilledWorker, OSError, TimeoutError)


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
